/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Responder side of the mp_eth transport: the per-peer receive window of
 * the CMM-MP paper (base SN, 64-bit bitmap, overflow counter, timeout that
 * advances the base past lost requests) plus a small cache of completed
 * responses so that a request whose response was lost is answered again
 * without being executed again. Rules: Documentation/protocol.rst.
 *
 * No locking and no allocation inside: one struct per peer, the caller
 * serialises calls for a peer and supplies the time (any monotonic clock,
 * in the unit of gap_timeout; the defaults assume nanoseconds).
 */
#ifndef _CMM_MP_COMMON_WINDOW_H
#define _CMM_MP_COMMON_WINDOW_H

#include "mp_types.h"
#include "mp_sn.h"

#define MP_WINDOW_SIZE		64	/* = MP_ETH_WINDOW */
#define MP_WINDOW_CACHE		64	/* response slots, power of two */
#define MP_WINDOW_RESYNC	8	/* consecutive BEYOND before re-basing */
/* Must exceed the requester's total retry time (1.55 s by default). */
#define MP_WINDOW_GAP_TIMEOUT	2000000000ULL	/* 2 s in ns */

/* ack argument of mp_window_check() for requests without MP_ETH_F_ACK. */
#define MP_WINDOW_NO_ACK	(-1)

enum mp_window_verdict {
	MP_WIN_NEW,	/* first copy: execute, then mp_window_complete() */
	MP_WIN_RESYNC,	/* window re-based on this request: execute it too */
	MP_WIN_DUP,	/* executed before: answer again with the cached status */
	MP_WIN_BUSY,	/* executed, response not stored yet: drop */
	MP_WIN_OLD,	/* behind the window, nothing to answer: drop */
	MP_WIN_BEYOND,	/* beyond base + 64: drop (counted for resync) */
	MP_WIN_REPLAY,	/* stamped before a request it must follow: drop */
	MP_WIN_PART,	/* another part of a write in parts begun: execute */
	MP_WIN_FORGED,	/* a part of another range than its SN's: drop */
};

enum mp_window_slot_state {
	MP_WSLOT_EMPTY,
	MP_WSLOT_PENDING,	/* executed, mp_window_complete() not yet called */
	MP_WSLOT_DONE,		/* status holds the response's status */
	MP_WSLOT_PARTIAL,	/* a write in parts, parts still missing */
};

/*
 * A frame of a write in parts (MP_ETH_READ_PARTS): the request's range
 * and stride, which every part of one SN names alike, and which part.
 */
struct mp_window_part {
	u64 offset;
	u32 len;
	u16 stride;
	u8 part;
	u8 nr_parts;		/* mp_frame_parts(len, stride), >= 2 */
};

struct mp_window_slot {
	u64 stamp;		/* of the copy executed (newest part), 0 = none */
	u64 prev_stamp;		/* PARTIAL: the stamp its parts must follow */
	u64 offset;		/* PARTIAL, and after: its range and stride */
	u32 len;
	s32 status;		/* PARTIAL: the first failing part's */
	u16 sn;
	u16 stride;
	u16 parts;		/* bitmap of the parts executed */
	u8 nr_parts;		/* 1: a request of one frame */
	u8 state;		/* enum mp_window_slot_state */
};

struct mp_window {
	struct mp_seqmap rx;	/* base and received bitmap */
	u64 stall_since;	/* when the oldest hole was seen (rx.bits != 0) */
	u64 gap_timeout;	/* hole age that advances the base */
	u64 skipped;		/* total SNs the base passed without receiving */
	u32 overflow;		/* consecutive requests beyond base + 64 */
	u32 resync_thresh;	/* overflow value that re-bases the window */
	bool synced;		/* false: the next request sets the base */
	struct mp_window_slot cache[MP_WINDOW_CACHE];
};

/* Slot of sn in the response cache; the caller may keep a parallel array. */
static inline unsigned int mp_window_slot(u16 sn)
{
	return sn & (MP_WINDOW_CACHE - 1);
}

static inline u16 mp_window_base(const struct mp_window *w)
{
	return w->rx.base;
}

/* A synced window that expects first_sn next (base = first_sn - 1). */
void mp_window_init(struct mp_window *w, u16 first_sn);

/*
 * Forget everything (new generation, peer restarted): the next request sets
 * the base, from its ack when it has one, else to its SN - 1.
 */
void mp_window_reset(struct mp_window *w);

/*
 * Classify request sn from this peer at time now. ack is the request's
 * cumulative ack (0..0xffff) or MP_WINDOW_NO_ACK; an ack that is not within
 * 64 behind sn is ignored. stamp is the request's stamp under the pool key
 * (the sender's strictly increasing clock, already checked by its tag), 0
 * for none: a stamped request stamped no later than the last executed
 * request of its residue modulo 64 before it (which its sender must have
 * finished first) is MP_WIN_REPLAY, a copy captured at least half a
 * 16-bit SN cycle ago, and changes nothing (its ack included). On
 * MP_WIN_DUP *status (if not NULL) receives the cached status. Also
 * applies the hole timeout (mp_window_expire()).
 */
enum mp_window_verdict mp_window_check_stamped(struct mp_window *w, u16 sn,
					       int ack, u64 stamp, u64 now,
					       int *status);

/* The same for a request without a stamp. */
static inline enum mp_window_verdict
mp_window_check(struct mp_window *w, u16 sn, int ack, u64 now, int *status)
{
	return mp_window_check_stamped(w, sn, ack, 0, now, status);
}

/*
 * Classify a frame of a write in parts (p->nr_parts >= 2; one frame:
 * mp_window_check_stamped()). An SN of a write in parts is received (its
 * bit set, the base free to pass it) only when all of its parts are in;
 * until then its slot holds the range, the stride and the parts executed:
 * MP_WIN_NEW (or MP_WIN_RESYNC) for its first part, MP_WIN_PART for each
 * further part not executed before, both to be executed and then given
 * to mp_window_complete_part(); MP_WIN_BUSY for a part executed before
 * while others are missing (the answer comes with the last one); MP_WIN_DUP
 * once all are in, with the status to answer again; MP_WIN_FORGED for a
 * part naming another range or stride than the first part of its SN did.
 * An SN the base passed before its parts were all in (the requester's
 * ack, the hole timeout) is MP_WIN_OLD: a stale part is never executed,
 * nor one stamped no later than the request before its SN's first part.
 */
enum mp_window_verdict mp_window_check_part(struct mp_window *w, u16 sn,
					    int ack, u64 stamp, u64 now,
					    const struct mp_window_part *p,
					    int *status);

/*
 * Store the status of the response to sn (0 or -errno). 0, -ENOENT when
 * the slot was reused or reset meanwhile (send the response uncached),
 * -EINVAL for a status that is not 0 or an errno.
 */
int mp_window_complete(struct mp_window *w, u16 sn, int status);

/*
 * Part @part of write sn executed with status (0 or -errno): 1 when it
 * was the last one missing (*final, if not NULL, receives the status to
 * answer: the first failing part's, else 0, and it is cached as
 * mp_window_complete() does), 0 when parts are still missing (answer
 * nothing yet), -ENOENT when the slot was reused or reset meanwhile,
 * -EINVAL for a status that is not 0 or an errno.
 */
int mp_window_complete_part(struct mp_window *w, u16 sn, unsigned int part,
			    int status, int *final);

/*
 * Timeout rule: when the oldest hole is gap_timeout old, move the base past
 * it (and past what arrived after it). Returns how many SNs were skipped.
 */
unsigned int mp_window_expire(struct mp_window *w, u64 now);

#endif /* _CMM_MP_COMMON_WINDOW_H */
