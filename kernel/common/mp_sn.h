/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 16-bit sequence numbers (RFC 1982 serial-number arithmetic) and the
 * sequence map both ends of the transport keep: a base and a 64-bit bitmap
 * in which bit i stands for sequence number base + i + 1, exactly the
 * receive bitmap of the CMM-MP paper. The responder marks received
 * requests in it (mp_window.c); the requester marks finished requests in
 * its own copy, whose base is the cumulative ack it sends (mp_rift.c).
 */
#ifndef _CMM_MP_COMMON_SN_H
#define _CMM_MP_COMMON_SN_H

#include "mp_types.h"
#include "mp_bytes.h"

#define MP_SN_HALF	0x8000U

/*
 * a - b as a signed distance in [-32768, 32767]. Two numbers exactly half
 * the space apart (distance 32768) come out as -32768; RFC 1982 leaves their
 * order undefined and the protocol never compares numbers that far apart
 * (every span it reasons about is at most 64 wide).
 */
static inline s32 mp_sn_diff(u16 a, u16 b)
{
	u16 d = (u16)(a - b);

	return d < MP_SN_HALF ? (s32)d : (s32)d - 0x10000;
}

/* RFC 1982: a is after b iff 0 < a - b < 2^15 (mod 2^16). */
static inline bool mp_sn_after(u16 a, u16 b)
{
	u16 d = (u16)(a - b);

	return d != 0 && d < MP_SN_HALF;
}

/* RFC 1982: a is before b iff b is after a; half-space pairs are neither. */
static inline bool mp_sn_before(u16 a, u16 b)
{
	return mp_sn_after(b, a);
}

static inline u16 mp_sn_add(u16 a, unsigned int n)
{
	return (u16)(a + n);
}

struct mp_seqmap {
	u64 bits;	/* bit i set: base + i + 1 is marked */
	u16 base;	/* every sequence number up to base is behind the map */
};

#define MP_SEQMAP_SIZE	64

static inline void mp_seqmap_init(struct mp_seqmap *m, u16 base)
{
	m->bits = 0;
	m->base = base;
}

/*
 * Position of sn in the map: 1..64 when sn is in (base, base + 64], <= 0
 * when it is at or behind the base, > 64 when it is beyond the map.
 */
static inline s32 mp_seqmap_pos(const struct mp_seqmap *m, u16 sn)
{
	return mp_sn_diff(sn, m->base);
}

/* Is in-map sequence number sn (pos 1..64) marked? */
static inline bool mp_seqmap_test(const struct mp_seqmap *m, s32 pos)
{
	return pos >= 1 && pos <= MP_SEQMAP_SIZE &&
	       (m->bits >> (pos - 1)) & 1;
}

/*
 * Move the base forward by n sequence numbers (dropping their bits).
 * Returns how many of the dropped numbers were not marked, i.e. skipped.
 */
static inline unsigned int mp_seqmap_shift(struct mp_seqmap *m,
					   unsigned int n)
{
	unsigned int marked;

	if (!n)
		return 0;
	marked = mp_popcount64(m->bits & mp_low_bits64(n));
	m->bits = mp_shr64(m->bits, n);
	m->base = mp_sn_add(m->base, n);
	return n - marked;
}

/* Advance the base over the run of marked numbers right after it. */
static inline unsigned int mp_seqmap_advance(struct mp_seqmap *m)
{
	unsigned int run = mp_ctz64(~m->bits);

	mp_seqmap_shift(m, run);
	return run;
}

/*
 * Mark in-map sequence number at pos (1..64) and advance the base over
 * whatever became contiguous. Returns how far the base moved.
 */
static inline unsigned int mp_seqmap_mark(struct mp_seqmap *m, s32 pos)
{
	if (pos < 1 || pos > MP_SEQMAP_SIZE)
		return 0;
	m->bits |= 1ULL << (pos - 1);
	return mp_seqmap_advance(m);
}

#endif /* _CMM_MP_COMMON_SN_H */
