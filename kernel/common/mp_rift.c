// SPDX-License-Identifier: GPL-2.0
/*
 * Request-In-Flight Table of the mp_eth transport (pure logic, shared with
 * userspace tests and the fuzzer).
 *
 * Free entries form a singly linked list through next_free, so alloc and
 * free are O(1); only the timer scan walks the table. Each destination
 * keeps a struct mp_seqmap of finished sequence numbers whose base is the
 * cumulative ack: a new SN is handed out only while it is at most 64 ahead
 * of that ack, which is what lets the responder's 64-bit window see every
 * request of a well-behaved requester (see mp_window.c).
 *
 * Timeouts follow RFC 6298 per destination: round trips are smoothed into
 * srtt and rttvar, and the timeout is srtt + 4 * rttvar, doubled per
 * retransmission. Responses echo F_RETX, so a response to a request sent
 * again still times the copy it answers (as TCP's timestamps do): with
 * Karn's rule alone only the fast round trips would be sampled, and a path
 * with a long tail (a debug kernel under TCG) would keep a timeout that
 * fires before its slow responses, every time. When a request fails is
 * not measured but fixed: mp_rift_fail_time() after it was first sent, the
 * bound the responder's hole timeout and the callers rely on. A slow path
 * thus gets fewer, later retransmissions within the same budget instead of
 * spurious ones, and a fast one recovers a loss sooner.
 */
#include <linux/mp_eth.h>

#include "mp_rift.h"
#include "mp_bytes.h"

/* The requester may run exactly one receive window ahead of its ack. */
static_assert(MP_RIFT_WINDOW == MP_ETH_WINDOW, "window size");
static_assert(MP_RIFT_WINDOW == MP_SEQMAP_SIZE, "window size");
/* the parts of an entry are the bits of parts_done and fit nr_parts */
static_assert(MP_ETH_READ_PARTS >= 1 && MP_ETH_READ_PARTS <= 16,
	      "parts bitmap");

#define NO_ENTRY	0xffffU

static u64 add_sat(u64 a, u64 b)
{
	return a > ~0ULL - b ? ~0ULL : a + b;
}

void mp_rift_default_params(struct mp_rift_params *p)
{
	p->rto_initial = MP_RIFT_RTO_INITIAL;
	p->rto_min = MP_RIFT_RTO_MIN;
	p->rto_max = MP_RIFT_RTO_MAX;
	p->probe_interval = MP_RIFT_PROBE_INTERVAL;
	p->max_retries = MP_RIFT_MAX_RETRIES;
}

/* rto doubled n times, saturated at max: no shift can overflow. */
static u64 doubled(u64 rto, unsigned int n, u64 max)
{
	while (n-- && rto < max)
		rto = rto > max / 2 ? max : rto * 2;
	return rto < max ? rto : max;
}

u64 mp_rift_rto(const struct mp_rift_params *p, unsigned int n)
{
	return doubled(p->rto_initial, n, p->rto_max);
}

u64 mp_rift_fail_time(const struct mp_rift_params *p)
{
	u64 t = 0;
	unsigned int n;

	for (n = 0; n <= p->max_retries; n++)
		t = add_sat(t, mp_rift_rto(p, n));
	return t;
}

/* The state of destination @dst, or NULL when the RIFT has none. */
static struct mp_rift_peer *rift_peer(const struct mp_rift *r, u16 dst)
{
	if (dst < r->peer_base || (u32)(dst - r->peer_base) >= r->nr_peer)
		return NULL;
	return &r->peer[dst - r->peer_base];
}

void mp_rift_set_base(struct mp_rift *r, u16 base)
{
	r->peer_base = base;
}

u64 mp_rift_peer_rto(const struct mp_rift *r, u16 dst)
{
	const struct mp_rift_peer *pp = rift_peer(r, dst);
	u64 rto;

	if (!pp || !pp->srtt)
		return r->p.rto_initial;
	rto = add_sat(pp->srtt, pp->rttvar > ~0ULL / 4 ? ~0ULL : 4 * pp->rttvar);
	if (rto < r->p.rto_min)
		rto = r->p.rto_min;
	return rto < r->p.rto_max ? rto : r->p.rto_max;
}

/* Timeout after n retransmissions to dst: doubled per retransmission. */
static u64 backoff(const struct mp_rift *r, u16 dst, unsigned int n)
{
	return doubled(mp_rift_peer_rto(r, dst), n, r->p.rto_max);
}

/*
 * RFC 6298, 2.2 and 2.3, in the params' unit: rttvar += (|srtt - R| -
 * rttvar) / 4, srtt += (R - srtt) / 8. A sample above rto_max is taken as
 * rto_max: the timeout cannot exceed it anyway, and it keeps the sums
 * small.
 */
static void rtt_sample(struct mp_rift *r, struct mp_rift_peer *pp, u64 rtt)
{
	u64 delta;

	if (rtt > r->p.rto_max)
		rtt = r->p.rto_max;
	if (!rtt)
		rtt = 1;	/* srtt 0 means "no sample" */
	if (!pp->srtt) {
		pp->srtt = rtt;
		pp->rttvar = rtt / 2;
	} else {
		delta = pp->srtt > rtt ? pp->srtt - rtt : rtt - pp->srtt;
		pp->rttvar = pp->rttvar - pp->rttvar / 4 + delta / 4;
		pp->srtt = pp->srtt - pp->srtt / 8 + rtt / 8;
		if (!pp->srtt)
			pp->srtt = 1;
	}
	pp->samples++;
}

/* The next deadline of e after n retransmissions sent at now. */
static u64 next_deadline(const struct mp_rift *r,
			 const struct mp_rift_entry *e, u64 now,
			 unsigned int n)
{
	u64 d = add_sat(now, backoff(r, e->dst, n));

	return d < e->fail_at ? d : e->fail_at;
}

static void peer_init(struct mp_rift_peer *pp, u16 start_sn)
{
	memset(pp, 0, sizeof(*pp));
	mp_seqmap_init(&pp->done, (u16)(start_sn - 1));
	pp->next_sn = start_sn;
}

int mp_rift_init(struct mp_rift *r, const struct mp_rift_params *params,
		 struct mp_rift_entry *ent, unsigned int nr_ent,
		 struct mp_rift_peer *peer, unsigned int nr_peer, u16 start_sn)
{
	unsigned int i;

	if (!r || !ent || !peer)
		return -EINVAL;
	if (!nr_ent || nr_ent > MP_RIFT_MAX_ENTRIES)
		return -EINVAL;
	if (!nr_peer || nr_peer > MP_RIFT_MAX_PEERS)
		return -EINVAL;
	if (params)
		r->p = *params;
	else
		mp_rift_default_params(&r->p);
	if (!r->p.rto_initial || r->p.rto_max < r->p.rto_initial ||
	    !r->p.rto_min || r->p.rto_max < r->p.rto_min ||
	    r->p.max_retries > MP_RIFT_MAX_RETRIES_LIMIT)
		return -EINVAL;
	r->fail_time = mp_rift_fail_time(&r->p);

	r->ent = ent;
	r->peer = peer;
	r->nr_ent = nr_ent;
	r->nr_peer = nr_peer;
	r->peer_base = 0;
	r->nr_busy = 0;
	r->max_parts = MP_RIFT_MAX_PARTS;
	for (i = 0; i < nr_ent; i++) {
		memset(&ent[i], 0, sizeof(ent[i]));
		ent[i].tag = (u16)i;
		ent[i].next_free = i + 1 < nr_ent ? (u16)(i + 1) : NO_ENTRY;
	}
	r->free_head = 0;
	for (i = 0; i < nr_peer; i++)
		peer_init(&peer[i], start_sn);
	return 0;
}

int mp_rift_peer_reset(struct mp_rift *r, u16 dst, u16 start_sn)
{
	struct mp_rift_peer *pp = rift_peer(r, dst);

	if (!pp)
		return -EINVAL;
	if (pp->inflight)
		return -EBUSY;
	peer_init(pp, start_sn);
	return 0;
}

int mp_rift_set_max_parts(struct mp_rift *r, unsigned int max_parts)
{
	if (!max_parts || max_parts > MP_RIFT_MAX_ENTRIES * MP_ETH_READ_PARTS)
		return -EINVAL;
	r->max_parts = max_parts;
	return 0;
}

int mp_rift_alloc(struct mp_rift *r, u16 dst, u64 now, void *ctx,
		  struct mp_rift_entry **ep)
{
	return mp_rift_alloc_parts(r, dst, now, ctx, 1, ep);
}

/*
 * Frames a destination may count now: max_parts while its round trip is
 * short, no more than the fixed MP_RIFT_MAX_PARTS once its smoothed round
 * trip passed a quarter of the timeout floor. A window sized to the
 * receive ring is only as good as the receiver that drains the ring: a
 * slow one (a loaded host, a debug kernel) turns it into queueing, and
 * queueing near the timeout into retransmissions nobody needed, which
 * load it more. Back under the limit, the whole window is used again.
 */
static unsigned int rift_max_parts(const struct mp_rift *r,
				   const struct mp_rift_peer *pp)
{
	if (r->max_parts > MP_RIFT_MAX_PARTS && pp->srtt > r->p.rto_min / 4)
		return MP_RIFT_MAX_PARTS;
	return r->max_parts;
}

/*
 * An entry expecting nr_parts responses (the bits of parts_done) and
 * counting nr_frames frames against rift_max_parts().
 */
static int rift_alloc(struct mp_rift *r, u16 dst, u64 now, void *ctx,
		      unsigned int nr_parts, unsigned int nr_frames,
		      struct mp_rift_entry **ep)
{
	struct mp_rift_peer *pp;
	struct mp_rift_entry *e;
	bool probe = false;

	pp = rift_peer(r, dst);
	if (!ep || !pp)
		return -EINVAL;
	if (!nr_parts || nr_parts > MP_ETH_READ_PARTS ||
	    !nr_frames || nr_frames > MP_ETH_READ_PARTS ||
	    nr_frames > r->max_parts)
		return -EINVAL;
	/*
	 * A destination that failed a request fails new ones at once, but
	 * lets one probe through every probe_interval so that it can come
	 * back without outside help.
	 */
	if (pp->unreachable) {
		if (pp->probing || now < pp->probe_at)
			return -EHOSTUNREACH;
		probe = true;
	}
	if ((u16)(pp->next_sn - pp->done.base) > MP_RIFT_WINDOW)
		return -EAGAIN;
	if (r->free_head == NO_ENTRY)
		return -ENOSPC;
	if (pp->parts + nr_frames > rift_max_parts(r, pp))
		return -EAGAIN;

	e = &r->ent[r->free_head];
	r->free_head = e->next_free;
	e->next_free = NO_ENTRY;
	e->ctx = ctx;
	e->op = 0;
	e->offset = 0;
	e->len = 0;
	e->stride = 0;
	e->parts_done = 0;
	e->nr_parts = (u8)nr_parts;
	e->nr_frames = (u8)nr_frames;
	e->sn = pp->next_sn;
	e->dst = dst;
	e->first_tx = now;
	e->last_tx = now;
	e->fail_at = add_sat(now, r->fail_time);
	e->deadline = next_deadline(r, e, now, 0);
	e->retries = 0;
	e->valid = true;
	e->probe = probe;
	e->expired = false;

	pp->next_sn = mp_sn_add(pp->next_sn, 1);
	pp->inflight++;
	if (probe)
		pp->probing = true;
	r->nr_busy++;
	pp->parts += nr_frames;
	*ep = e;
	return 0;
}

int mp_rift_alloc_parts(struct mp_rift *r, u16 dst, u64 now, void *ctx,
			unsigned int nr_parts, struct mp_rift_entry **ep)
{
	return rift_alloc(r, dst, now, ctx, nr_parts, nr_parts, ep);
}

int mp_rift_alloc_write(struct mp_rift *r, u16 dst, u64 now, void *ctx,
			unsigned int nr_parts, struct mp_rift_entry **ep)
{
	return rift_alloc(r, dst, now, ctx, 1, nr_parts, ep);
}

u16 mp_rift_ack(const struct mp_rift *r, u16 dst)
{
	const struct mp_rift_peer *pp = rift_peer(r, dst);

	return pp ? pp->done.base : 0;
}

int mp_rift_match(struct mp_rift *r, u16 tag, u16 sn, u16 src,
		  struct mp_rift_entry **ep)
{
	struct mp_rift_entry *e;

	if (!ep || tag >= r->nr_ent)
		return -EINVAL;
	e = &r->ent[tag];
	if (!e->valid || e->expired)
		return -ENOENT;
	/*
	 * Both mismatches reject a late response to an earlier use of the
	 * slot (the caller counts them as stale); SN first, since that is
	 * the usual difference.
	 */
	if (e->sn != sn)
		return -ESTALE;
	if (e->dst != src)
		return -EXDEV;
	*ep = e;
	return 0;
}

int mp_rift_match_response(struct mp_rift *r, const struct mp_frame *f,
			   struct mp_rift_entry **ep)
{
	struct mp_rift_entry *e;
	int ret;

	if (!f)
		return -EINVAL;
	ret = mp_rift_match(r, f->tag, f->sn, f->src, &e);
	if (ret)
		return ret;
	ret = mp_frame_match_part(f, e->op, e->offset, e->len, e->stride);
	if (ret < 0)
		return ret;
	if (ret >= e->nr_parts)
		return -EBADMSG;	/* more parts than it was allocated for */
	if ((f->flags & MP_ETH_F_AUTH) && f->bind != e->nonce)
		return -EKEYREJECTED;
	*ep = e;
	return ret;
}

int mp_rift_part(struct mp_rift_entry *e, unsigned int i)
{
	u16 bit;

	if (i >= e->nr_parts)
		return -EINVAL;
	bit = (u16)(1U << i);
	if (e->parts_done & bit)
		return -EALREADY;
	e->parts_done |= bit;
	return e->parts_done == (u16)((1U << e->nr_parts) - 1) ? 1 : 0;
}

void mp_rift_answered(struct mp_rift *r, struct mp_rift_entry *e, u64 now,
		      bool retx)
{
	/* e is in flight: mp_rift_alloc() found its destination */
	struct mp_rift_peer *pp = rift_peer(r, e->dst);

	pp->unreachable = false;
	if (!retx && now >= e->first_tx)
		rtt_sample(r, pp, now - e->first_tx);
	else if (retx && e->retries == 1 && now >= e->last_tx)
		rtt_sample(r, pp, now - e->last_tx);
}

void mp_rift_free(struct mp_rift *r, struct mp_rift_entry *e)
{
	struct mp_rift_peer *pp;

	if (!e || !e->valid)
		return;
	pp = rift_peer(r, e->dst);
	/* sn is unfinished, so it lies in (ack, ack + 64]: mark it done. */
	mp_seqmap_mark(&pp->done, mp_seqmap_pos(&pp->done, e->sn));
	pp->inflight--;
	if (e->probe)
		pp->probing = false;

	e->valid = false;
	e->expired = false;
	e->probe = false;
	e->ctx = NULL;
	e->next_free = r->free_head;
	r->free_head = e->tag;
	r->nr_busy--;
	pp->parts -= e->nr_frames;
}

enum mp_rift_event mp_rift_poll(struct mp_rift *r, u64 now, unsigned int *pos,
				struct mp_rift_entry **ep)
{
	struct mp_rift_peer *pp;
	struct mp_rift_entry *e;
	unsigned int i;

	for (i = *pos; i < r->nr_ent; i++) {
		e = &r->ent[i];
		if (!e->valid || e->expired || now < e->deadline)
			continue;
		*pos = i + 1;
		*ep = e;
		if (now < e->fail_at) {
			if (e->retries < 0xff)
				e->retries++;
			e->last_tx = now;
			e->deadline = next_deadline(r, e, now, e->retries);
			return MP_RIFT_RETRANSMIT;
		}
		e->expired = true;
		e->deadline = ~0ULL;
		pp = rift_peer(r, e->dst);
		pp->unreachable = true;
		pp->probe_at = add_sat(now, r->p.probe_interval);
		return MP_RIFT_TIMEOUT;
	}
	*pos = r->nr_ent;
	return MP_RIFT_IDLE;
}

bool mp_rift_next_deadline(const struct mp_rift *r, u64 *deadline)
{
	bool any = false;
	u64 min = ~0ULL;
	unsigned int i;

	for (i = 0; i < r->nr_ent; i++) {
		const struct mp_rift_entry *e = &r->ent[i];

		if (!e->valid || e->expired)
			continue;
		if (e->deadline < min)
			min = e->deadline;
		any = true;
	}
	if (any && deadline)
		*deadline = min;
	return any;
}

struct mp_rift_entry *mp_rift_next_busy(struct mp_rift *r, unsigned int *pos)
{
	unsigned int i;

	for (i = *pos; i < r->nr_ent; i++) {
		if (r->ent[i].valid) {
			*pos = i + 1;
			return &r->ent[i];
		}
	}
	*pos = r->nr_ent;
	return NULL;
}

bool mp_rift_peer_unreachable(const struct mp_rift *r, u16 dst)
{
	const struct mp_rift_peer *pp = rift_peer(r, dst);

	return pp && pp->unreachable;
}

void mp_rift_peer_alive(struct mp_rift *r, u16 dst)
{
	struct mp_rift_peer *pp = rift_peer(r, dst);

	if (pp)
		pp->unreachable = false;
}
