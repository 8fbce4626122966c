/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Requester side of the mp_eth transport: the Request-In-Flight Table
 * (RIFT) of the CMM-MP paper, per-destination 16-bit sequence numbers with
 * the cumulative ack and the 64-SN flow-control limit, response validation,
 * retransmission on a timeout measured from the round trip (SRTT/RTTVAR,
 * RFC 6298) with exponential backoff inside a fixed failure budget, and
 * per-destination "unreachable" state with fast failure and probing.
 * Rules: Documentation/protocol.rst.
 *
 * No locking and no allocation inside: the caller provides the entry and
 * peer arrays, serialises all calls (a spinlock in the kernel) and supplies
 * the time (monotonic, in the unit of the params; the defaults assume ns).
 * Nothing here sleeps, so it is usable in atomic context.
 */
#ifndef _CMM_MP_COMMON_RIFT_H
#define _CMM_MP_COMMON_RIFT_H

#include "mp_types.h"
#include "mp_sn.h"
#include "mp_frame.h"

#define MP_RIFT_DEFAULT_ENTRIES	256
#define MP_RIFT_MAX_ENTRIES	0xfffe	/* tags 0..0xfffd; 0xffff = none */
#define MP_RIFT_MAX_PEERS	0xffff	/* device ids 0..0xfffe */
#define MP_RIFT_WINDOW		64	/* = MP_ETH_WINDOW */
/*
 * Frames of a destination's requests in flight at once by default: a read
 * in parts counts each of the parts it expects, a write in parts each of
 * the parts it sends, any other request one. As many as there were when
 * every request was one frame with one response, so that a burst of
 * responses fits the requester's receive ring, and a burst of writes the
 * responder's, as they were sized for.
 */
#define MP_RIFT_MAX_PARTS	MP_RIFT_WINDOW

/*
 * Defaults: the failure budget is the unmeasured schedule
 * 50 + 100 + 200 + 400 + 800 ms = 1.55 s; a measured timeout never goes
 * below 50 ms either: scheduling stalls of virtual machines (TCG) reach
 * tens of ms, which no smoothed round trip foresees (a 10 ms floor sent
 * 7.7 % of frames again for nothing, Documentation/protocol.rst). A
 * fabric that loses frames wants a lower floor (rto_min_us).
 */
#define MP_RIFT_RTO_INITIAL	50000000ULL	/* 50 ms */
#define MP_RIFT_RTO_MIN		50000000ULL	/* 50 ms */
#define MP_RIFT_RTO_MAX		800000000ULL	/* 800 ms */
#define MP_RIFT_MAX_RETRIES	4
#define MP_RIFT_PROBE_INTERVAL	1000000000ULL	/* 1 s */
#define MP_RIFT_MAX_RETRIES_LIMIT 64

struct mp_rift_params {
	u64 rto_initial;	/* timeout before the first RTT sample */
	u64 rto_min;		/* floor of a measured timeout */
	u64 rto_max;		/* backoff doubles the timeout up to this */
	u64 probe_interval;	/* unreachable peer: one probe this often */
	u32 max_retries;	/* retransmissions of the budget's schedule */
};

struct mp_rift_entry {
	void *ctx;		/* caller's request */
	u64 offset;		/* caller's copy of the request, for */
	u32 len;		/*   mp_frame_match_part() */
	u32 stride;		/*   (a read in parts; 0 one part) */
	u64 first_tx;		/* time of the first transmission */
	u64 last_tx;		/* time of the latest transmission */
	u64 deadline;		/* retransmit or fail at this time */
	u64 fail_at;		/* first_tx + the failure budget */
	u32 nonce;		/* caller's: bound into the request, echoed */
	u16 sn;
	u16 dst;
	u16 tag;		/* == index in the table, sent in the header */
	u16 next_free;
	u16 parts_done;		/* bitmap: parts received (mp_rift_part()) */
	u8 nr_parts;		/* responses it expects, as allocated */
	u8 nr_frames;		/* frames it counts against max_parts */
	u8 op;			/* caller's request opcode */
	u8 retries;		/* retransmissions so far (saturates) */
	bool valid;
	bool probe;		/* the one request let through to a dead peer */
	bool expired;		/* reported as MP_RIFT_TIMEOUT, awaiting free */
};

struct mp_rift_peer {
	struct mp_seqmap done;	/* base = cumulative ack; bits: finished SNs */
	u64 probe_at;		/* unreachable: earliest next probe */
	u64 srtt;		/* smoothed round trip, 0 = no sample yet */
	u64 rttvar;		/* its mean deviation */
	u64 samples;		/* round trips measured */
	u32 parts;		/* nr_frames of its entries in flight */
	u16 next_sn;
	u16 inflight;
	bool unreachable;
	bool probing;		/* a probe request is in flight */
};

struct mp_rift {
	struct mp_rift_params p;
	struct mp_rift_entry *ent;
	struct mp_rift_peer *peer;
	u32 nr_ent;
	u32 nr_peer;
	u16 peer_base;		/* device id of @peer[0] (mp_rift_set_base()) */
	u32 nr_busy;
	u32 max_parts;		/* mp_rift_peer.parts limit (MP_RIFT_MAX_PARTS) */
				/*   per destination */
	u16 free_head;
	u64 fail_time;		/* mp_rift_fail_time(&p), the budget */
};

/* Results of mp_rift_poll(). */
enum mp_rift_event {
	MP_RIFT_IDLE,		/* scan finished, nothing (more) due */
	MP_RIFT_RETRANSMIT,	/* send *ep again (MP_ETH_F_RETX, fresh ack) */
	MP_RIFT_TIMEOUT,	/* *ep failed: complete it with -ETIMEDOUT, free */
};

void mp_rift_default_params(struct mp_rift_params *p);

/*
 * Set up a RIFT over caller-provided arrays: nr_ent entries (1..0xfffe) and
 * nr_peer destinations indexed by device id (1..0xffff), every destination
 * starting at sequence number start_sn. params NULL = defaults.
 * 0 or -EINVAL.
 */
int mp_rift_init(struct mp_rift *r, const struct mp_rift_params *params,
		 struct mp_rift_entry *ent, unsigned int nr_ent,
		 struct mp_rift_peer *peer, unsigned int nr_peer, u16 start_sn);
/*
 * The destinations are device ids @base .. @base + nr_peer - 1 (after
 * mp_rift_init(): 0 ..): a RIFT per destination needs one slot, not one
 * per device id below it (O(N^2) for a pool of N).
 */
void mp_rift_set_base(struct mp_rift *r, u16 base);

/*
 * Restart the sequence of one destination (new generation): it becomes
 * reachable and starts at start_sn. -EBUSY while it has requests in flight
 * (fail them first), -EINVAL for an unknown destination.
 */
int mp_rift_peer_reset(struct mp_rift *r, u16 dst, u16 start_sn);

/*
 * Allocate an entry and the next sequence number for a request to dst sent
 * at time now (call it right before the first transmission; the caller then
 * fills e->op/offset/len and sends sn, tag and mp_rift_ack()).
 * -EINVAL unknown dst, -EHOSTUNREACH dst unreachable and no probe due,
 * -EAGAIN 64 SNs to dst unfinished (retry after a completion),
 * -ENOSPC table full.
 */
int mp_rift_alloc(struct mp_rift *r, u16 dst, u64 now, void *ctx,
		  struct mp_rift_entry **ep);

/*
 * As mp_rift_alloc() for a request answered by nr_parts response frames
 * (a read in parts, mp_frame_parts(); the caller fills e->stride too):
 * it counts nr_parts against max_parts. -EAGAIN also when the entries in
 * flight to dst expect too many to add nr_parts (retry after a completion),
 * -EINVAL also for nr_parts 0, above MP_ETH_READ_PARTS or max_parts.
 */
int mp_rift_alloc_parts(struct mp_rift *r, u16 dst, u64 now, void *ctx,
			unsigned int nr_parts, struct mp_rift_entry **ep);

/*
 * As mp_rift_alloc_parts() for a write in nr_parts frames under one SN
 * (mp_frame_parts() of its range and stride; the caller fills e->stride
 * too and sends each part), answered by one response: it counts nr_parts
 * frames against max_parts and expects one response (e->nr_parts 1).
 */
int mp_rift_alloc_write(struct mp_rift *r, u16 dst, u64 now, void *ctx,
			unsigned int nr_parts, struct mp_rift_entry **ep);

/*
 * Frames the entries in flight to one destination may count at once
 * (1 .. MP_RIFT_MAX_ENTRIES * MP_ETH_READ_PARTS); 0 or -EINVAL.
 */
int mp_rift_set_max_parts(struct mp_rift *r, unsigned int max_parts);

/* Cumulative ack to put in every (re)transmission to dst. */
u16 mp_rift_ack(const struct mp_rift *r, u16 dst);

/*
 * Find the entry a response (tag, sn) from device src answers; nothing
 * changes until the caller has checked the response against the entry
 * (mp_frame_match_response()) and calls mp_rift_answered().
 * -EINVAL tag out of range, -ENOENT no request in flight under that tag
 * (late or unknown), -ESTALE the tag is in flight with another SN (a late
 * response to an earlier use of the slot), -EXDEV the SN matches but the
 * request went to another device.
 */
int mp_rift_match(struct mp_rift *r, u16 tag, u16 sn, u16 src,
		  struct mp_rift_entry **ep);

/*
 * Find the entry response f answers, and check that it is its answer:
 * mp_rift_match() by tag, SN and source, then the opcode, offset and
 * length of its request, or of one of its parts for a read in parts
 * (mp_frame_match_part() with e->stride; a write in parts is answered
 * for its whole range), and with
 * MP_ETH_F_AUTH the nonce the request carried (e->nonce, the bind word of
 * its trailer), which the response must echo: a response captured a cycle
 * of the 16-bit SNs ago (or more) can match a request in flight now by
 * everything else - the same command to the same segment - but not by
 * its nonce. Nothing changes. The index of the part it carries (0 for
 * a request of one part and for a NAK), or mp_rift_match()'s errors,
 * mp_frame_match_part()'s, -EKEYREJECTED for another nonce.
 */
int mp_rift_match_response(struct mp_rift *r, const struct mp_frame *f,
			   struct mp_rift_entry **ep);

/*
 * A response that answers e arrived at now; retx: it says it answers a
 * retransmitted copy (F_RETX echoed). The peer counts as reachable again,
 * and the response gives a round-trip sample when it is clear which copy
 * it answers: the first one (now - first_tx, however often the request
 * was sent again: the sample Karn's rule would lose, and the slow ones
 * that caused the retransmissions), or the only retransmission
 * (now - last_tx).
 */
void mp_rift_answered(struct mp_rift *r, struct mp_rift_entry *e, u64 now,
		      bool retx);

/*
 * Part i (mp_rift_match_response()) of e's answer arrived: 1 when it was
 * the last one missing (e is complete: free it), 0 when more are due,
 * -EALREADY for a part received before (a duplicate: ignore it),
 * -EINVAL for i not below e->nr_parts.
 */
int mp_rift_part(struct mp_rift_entry *e, unsigned int i);

/* Release a (completed, failed or aborted) entry; its SN becomes finished. */
void mp_rift_free(struct mp_rift *r, struct mp_rift_entry *e);

/*
 * Timer scan: iterate from *pos (start at 0) and return the next entry that
 * is due at now, after applying the retransmission rule to it. Repeat until
 * MP_RIFT_IDLE. An entry whose failure budget has run out is a
 * MP_RIFT_TIMEOUT and marks the destination unreachable.
 */
enum mp_rift_event mp_rift_poll(struct mp_rift *r, u64 now, unsigned int *pos,
				struct mp_rift_entry **ep);

/* Earliest deadline of any entry in flight; false when none. */
bool mp_rift_next_deadline(const struct mp_rift *r, u64 *deadline);

/* Iterate over entries in flight (abort on reset/unload); NULL at the end. */
struct mp_rift_entry *mp_rift_next_busy(struct mp_rift *r, unsigned int *pos);

/*
 * The unmeasured schedule: timeout after n retransmissions,
 * min(rto_initial << n, rto_max).
 */
u64 mp_rift_rto(const struct mp_rift_params *p, unsigned int n);

/*
 * The failure budget: the sum of that schedule over max_retries
 * retransmissions. A request fails this long after its first transmission,
 * whatever its timeouts were: how long a request to a dead peer takes.
 */
u64 mp_rift_fail_time(const struct mp_rift_params *p);

/*
 * dst's current timeout before backoff: rto_initial until a round trip was
 * measured, then clamp(srtt + 4 * rttvar, rto_min, rto_max).
 */
u64 mp_rift_peer_rto(const struct mp_rift *r, u16 dst);

bool mp_rift_peer_unreachable(const struct mp_rift *r, u16 dst);

/* Out-of-band evidence that dst is alive (e.g. a discovery frame). */
void mp_rift_peer_alive(struct mp_rift *r, u16 dst);

#endif /* _CMM_MP_COMMON_RIFT_H */
