/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read-ahead of a block device over remote memory: which chunks of the
 * device to fetch ahead of a sequential reader, which buffer each goes in,
 * and what a write makes stale. Pure bookkeeping (no locks, no memory, no
 * I/O): the driver holds its lock around every call, owns the buffers and
 * moves the bytes (kernel/cmm_mp/mpb_ra.c).
 *
 * The device is cut into aligned chunks of chunk_bytes. MP_RA_SLOTS
 * buffers each hold one chunk: FILLING while its fetch is in flight,
 * READY once it arrived, FAILED when it did not. A read of at most one
 * chunk's length that lies in buffers neither FREE nor stale is served
 * from them: at once when all are READY, else once their fetches end; the
 * buffers it will copy from are pinned until it has. Whatever a read was,
 * a read that begins where the last one ended is sequential, and the
 * chunks after it, up to depth of them, are fetched if they are not held.
 *
 * The depth adapts to the room the transport has, as a TCP sender's
 * window does: a fetch it had no room for (refused, or cut short) halves
 * the depth in use, and each run of as many fetches as the depth that
 * arrive whole widens it by one chunk, up to what the driver asks for.
 *
 * A write makes every buffer it overlaps stale: one that is not in use is
 * freed, one in flight or pinned serves only the reads already waiting for
 * it (issued before the write completed, so either contents are theirs to
 * see) and is freed after them. The driver calls mp_ra_invalidate() when a
 * write is started and again before any of it is completed, so that a
 * fetch issued while the write was in flight cannot hand old bytes to a
 * read issued after the write completed.
 */
#ifndef _CMM_MP_COMMON_RA_H
#define _CMM_MP_COMMON_RA_H

#include "mp_types.h"

#define MP_RA_SLOTS		8
/* chunks kept ahead of a sequential reader, at most */
#define MP_RA_MAX_DEPTH		(MP_RA_SLOTS / 2)

enum mp_ra_state {
	MP_RA_FREE,
	MP_RA_FILLING,
	MP_RA_READY,
	MP_RA_FAILED,
};

/* What mp_ra_lookup() found for a read. */
enum mp_ra_hit {
	MP_RA_MISS,		/* not held: read it from the device */
	MP_RA_HIT,		/* held, all READY: copy it now */
	MP_RA_WAIT,		/* held, a fetch in flight: copy it after */
};

struct mp_ra_slot {
	u64 chunk;		/* bytes [chunk * chunk_bytes, + len) */
	u32 len;
	u8 state;		/* enum mp_ra_state */
	bool stale;		/* written since its fetch began */
	u16 pins;		/* reads that will copy from it */
	u64 used;		/* mp_ra's tick when last looked up */
};

struct mp_ra {
	struct mp_ra_slot slot[MP_RA_SLOTS];
	u64 size;		/* bytes of the device */
	u32 chunk_bytes;	/* a power of two */
	u64 next;		/* where a sequential read begins */
	u64 tick;
	u32 cap;		/* depth in use, 1..MP_RA_MAX_DEPTH */
	u32 good;		/* fetches that arrived since it last changed */
};

/* A fetch mp_ra_plan() asks for: slot @idx, device bytes [pos, + len). */
struct mp_ra_fill {
	u32 idx;
	u64 pos;
	u32 len;
};

/* Two chunks at most: reads longer than a chunk are never served. */
#define MP_RA_MAX_PINS		2

int mp_ra_init(struct mp_ra *ra, u64 size, u32 chunk_bytes);
enum mp_ra_hit mp_ra_lookup(struct mp_ra *ra, u64 pos, u32 len,
			    u32 idx[MP_RA_MAX_PINS], u32 *nr);
bool mp_ra_unpin(struct mp_ra *ra, u32 idx);
u32 mp_ra_plan(struct mp_ra *ra, u64 pos, u32 len, u32 depth,
	       struct mp_ra_fill *fill, u32 max);
bool mp_ra_filled(struct mp_ra *ra, u32 idx, bool ok);
void mp_ra_busy(struct mp_ra *ra);
u32 mp_ra_invalidate(struct mp_ra *ra, u64 pos, u64 len);
bool mp_ra_settled(const struct mp_ra *ra, const u32 *idx, u32 nr,
		   bool *failed);
u32 mp_ra_copy_range(const struct mp_ra *ra, u32 idx, u64 pos, u32 len,
		     u32 *off);

#endif /* _CMM_MP_COMMON_RA_H */
