// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: per-peer counters. The requester's half lives under req.lock,
 * the responder's under the peer's window lock; a reader adds them up.
 */
#include "mp_eth.h"

static void mpe_stats_add(struct mp_peer_stats *d,
			  const struct mp_peer_stats *s)
{
	d->tx += s->tx;
	d->rx += s->rx;
	d->retransmits += s->retransmits;
	d->duplicates += s->duplicates;
	d->out_of_window += s->out_of_window;
	d->stale_responses += s->stale_responses;
	d->timeouts += s->timeouts;
	d->naks += s->naks;
	d->resyncs += s->resyncs;
	d->skipped += s->skipped;
	d->fast_fails += s->fast_fails;
	d->malformed += s->malformed;
	d->refused += s->refused;
}

/**
 * mpe_peer_stats() - counters and state of peer @id
 * @m: the transport
 * @id: device id, < max_devs; a peer no membership had yet has nothing
 * @st: the sum of requester and responder counters
 * @inflight: requests to @id in flight
 * @reachable: false after a timeout, until the peer answers again
 */
void mpe_peer_stats(struct mpe *m, u16 id, struct mp_peer_stats *st,
		    u32 *inflight, bool *reachable)
{
	struct mpe_peer *p = mpe_peer(m, id);

	memset(st, 0, sizeof(*st));
	*inflight = 0;
	*reachable = true;
	if (!p)
		return;
	spin_lock_bh(&p->req.lock);
	mpe_stats_add(st, &p->req.st);
	/* the destination's RIFT has its one slot */
	*inflight = p->req.rift.peer[0].inflight;
	*reachable = !mp_rift_peer_unreachable(&p->req.rift, id);
	spin_unlock_bh(&p->req.lock);
	spin_lock_bh(&p->lock);
	mpe_stats_add(st, &p->rs);
	spin_unlock_bh(&p->lock);
}

/* RIFT entries in use. */
u32 mpe_inflight(struct mpe *m)
{
	unsigned int i;
	u32 n = 0;

	for (i = 0; i < m->cfg.max_devs; i++) {
		struct mpe_peer *p = mpe_peer(m, i);

		if (!p)
			continue;
		spin_lock_bh(&p->req.lock);
		n += p->req.rift.nr_busy;
		spin_unlock_bh(&p->req.lock);
	}
	return n;
}
