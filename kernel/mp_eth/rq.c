// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: the requester's state towards each destination - its RIFT, lock
 * and retransmission timer (requester.c runs them) - set up with a peer,
 * reset for a new generation, released on unload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ethtool.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>
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

/**
 * mpe_window_frames() - frames in flight per destination, window_frames=0
 * @m: the transport, its port's MTU known; called under RTNL
 *
 * Three quarters of what the port's receive ring holds (ethtool's
 * rx_pending), a frame taking a descriptor per 4 KiB of it: a read's
 * parts, or a write's, arrive as a burst, and a burst the ring cannot
 * take is lost and sent again after a timeout. The peer's ring is taken
 * to be the same size. Never fewer than the fixed default of 64, which
 * every port ran with before, nor more than the RIFT can hold (64 reads
 * of MP_ETH_READ_PARTS frames).
 *
 * Measured on virtio-net (a ring of 256): 192 frames at MTU 1500 moved a
 * quarter more data per second in 1 MiB requests than 64, with no
 * retransmission; at MTU 9000, 192 frames of 9 KiB queued long enough
 * for retransmissions nobody needed, and the rule gives 64 there
 * (runs/prof-20261207T1810Z). A destination whose round trip grows gets
 * 64 frames until it shrinks again (mp_rift's rift_max_parts()).
 *
 * Return: an explicit window_frames as it is, else the above.
 */
u32 mpe_window_frames(struct mpe *m)
{
	const struct ethtool_ops *ops = m->ndev->ethtool_ops;
	struct kernel_ethtool_ringparam kring = {};
	struct ethtool_ringparam ring = {};
	u32 n;

	ASSERT_RTNL();
	if (m->cfg.window_frames)
		return m->cfg.window_frames;
	if (!ops || !ops->get_ringparam)
		return MP_RIFT_MAX_PARTS;
	ops->get_ringparam(m->ndev, &ring, &kring, NULL);
	/* the pool's frames are no larger than mtu= makes them */
	n = ring.rx_pending / 4 * 3 /
	    DIV_ROUND_UP(mpe_port_l2(m) + ETH_HLEN, SZ_4K);
	return clamp_t(u32, n, MP_RIFT_MAX_PARTS,
		       MP_RIFT_WINDOW * MP_ETH_READ_PARTS);
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
