/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Discovery's own helpers, shared by its two files: mp_disc.c (rounds:
 * what is heard, sent and timed) and mp_disc_pool.c (the conclusion of a
 * round and the formed pool's ranks). Not for the users of mp_disc.h.
 */
#ifndef _CMM_MP_COMMON_DISC_PRIV_H
#define _CMM_MP_COMMON_DISC_PRIV_H

#include "mp_disc.h"

static inline bool mp_disc_mac_eq(const u8 *a, const u8 *b)
{
	int i;

	for (i = 0; i < 6; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static inline void mp_disc_mac_copy(u8 *dst, const u8 *src)
{
	int i;

	for (i = 0; i < 6; i++)
		dst[i] = src[i];
}

/* The formed pool's ranks and heartbeat fan-out (mp_disc_pool.c). */
void mp_disc_ranks(struct mp_disc *d);
struct mp_dmember *mp_disc_pool_find(const struct mp_disc *d, u64 chip_id,
				     const u8 *mac);

#endif /* _CMM_MP_COMMON_DISC_PRIV_H */
