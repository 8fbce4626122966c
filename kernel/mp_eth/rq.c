// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: the requester's state towards each destination - its RIFT, lock
 * and retransmission timer (requester.c runs them) - set up with a peer,
 * reset for a new generation, released on unload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>
#include <linux/slab.h>

#include "mp_eth.h"

/**
 * mpe_transport_reset() - forget every peer's sequence state
 * @m: the transport
 * @err: what the requests in flight fail with
 *
 * For a new generation (discovery.c), once the data path is closed: every
 * request in flight fails, every destination starts again from a random
 * sequence number and every receive window waits to sync on its peer's
 * first request.
 */
void mpe_transport_reset(struct mpe *m, int err)
{
	struct mp_rift_entry *e;
	unsigned int pos, i;
	LIST_HEAD(done);

	for (i = 0; i < m->cfg.max_devs; i++) {
		struct mpe_peer *p = mpe_peer(m, i);
		struct mpe_rq *q;

		if (!p)
			continue;
		q = &p->req;
		pos = 0;
		spin_lock_bh(&q->lock);
		while ((e = mp_rift_next_busy(&q->rift, &pos)))
			mpe_entry_done(q, e, err);
		mp_rift_peer_reset(&q->rift, i, get_random_u16());
		list_splice_tail_init(&q->done, &done);
		spin_unlock_bh(&q->lock);
	}
	mpe_xfer_end(m, &done);
	for (i = 0; i < m->cfg.max_devs; i++) {
		struct mpe_peer *p = mpe_peer(m, i);

		if (!p)
			continue;
		spin_lock_bh(&p->lock);
		mp_window_reset(&p->win);
		p->win_skipped = p->win.skipped;
		spin_unlock_bh(&p->lock);
	}
}

/* Entries of each destination's RIFT: its window is all it can use. */
u32 mpe_rift_entries(struct mpe *m)
{
	return min_t(u32, m->cfg.entries, MP_RIFT_WINDOW);
}

/**
 * mpe_rq_init() - the requester's state towards @dst
 * @m: the transport
 * @q: in a new peer (peers.c), zeroed
 * @dst: its device id
 *
 * One RIFT per destination, each under its own lock with its own timer:
 * nothing global on the path of a request. Its one destination slot is
 * @dst's. Return: 0 or -ENOMEM.
 */
int mpe_rq_init(struct mpe *m, struct mpe_rq *q, u16 dst)
{
	unsigned int n = mpe_rift_entries(m);
	int ret;

	spin_lock_init(&q->lock);
	init_waitqueue_head(&q->wq);
	INIT_LIST_HEAD(&q->done);
	hrtimer_init(&q->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	q->timer.function = mpe_timer_fn;
	q->m = m;
	q->dst = dst;
	q->ent = kcalloc(n, sizeof(*q->ent), GFP_KERNEL);
	q->rpeer = kcalloc(1, sizeof(*q->rpeer), GFP_KERNEL);
	ret = q->ent && q->rpeer ? 0 : -ENOMEM;
	if (!ret)
		ret = mp_rift_init(&q->rift, &m->cfg.rift, q->ent, n, q->rpeer,
				   1, m->cfg.start_sn);
	if (!ret)
		ret = mp_rift_set_max_parts(&q->rift, m->cfg.window_frames);
	if (ret) {
		kfree(q->ent);
		kfree(q->rpeer);
		return ret;
	}
	mp_rift_set_base(&q->rift, dst);
	return 0;
}

/*
 * Unload: no transfer can be running (the test device and the backend
 * slot are gone): stop the timer and release the table.
 */
void mpe_rq_exit(struct mpe_rq *q)
{
	hrtimer_cancel(&q->timer);
	WARN_ON_ONCE(q->rift.nr_busy);
	kfree(q->ent);
	kfree(q->rpeer);
}
