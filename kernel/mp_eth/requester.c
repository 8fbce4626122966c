// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: the requester - transfers split into frames, the RIFT, the
 * retransmission timer.
 *
 * mpe_xfer() cuts a transfer into frames of at most max_payload bytes and
 * keeps as many in flight as the RIFT allows (64 sequence numbers past the
 * cumulative ack per destination, 256 entries in all by default); every
 * finished frame bumps m->credit and wakes the issuers. A soft hrtimer runs
 * mp_rift_poll() at the earliest deadline: due frames are sent again with
 * F_RETX (timeouts measured from the round trip), frames past their
 * failure budget fail their transfer with -ETIMEDOUT. A
 * transfer returns once none of its frames is in flight, so its buffer is
 * never touched afterwards.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "mp_eth.h"
#include "mp_eth_trace.h"
#include "../cmm_mp/backend.h"

/* Timer slack: expiries this close together are handled in one run. */
#define MPE_TIMER_SLACK_NS	(1 * NSEC_PER_MSEC)

static void mpe_header(struct mpe *m, const struct mp_rift_entry *e,
		       bool retx, struct mp_frame *f)
{
	const struct mpe_memb *mb;

	memset(f, 0, sizeof(*f));
	f->op = e->op;
	f->flags = MP_ETH_F_ACK | (retx ? MP_ETH_F_RETX : 0);
	rcu_read_lock();
	mb = rcu_dereference(m->memb);
	f->src = mb->devid;
	f->gen = mb->gen;
	rcu_read_unlock();
	f->dst = e->dst;
	f->sn = e->sn;
	f->tag = e->tag;
	f->ack = mp_rift_ack(&m->rift, e->dst);
	f->offset = e->offset;
	f->len = e->len;
	f->bind = e->nonce;
}

/* Called with rift_lock held: (re)arm the timer for the earliest deadline. */
static void mpe_timer_arm(struct mpe *m)
{
	u64 deadline;

	if (!mp_rift_next_deadline(&m->rift, &deadline))
		return;
	if (hrtimer_is_queued(&m->timer) &&
	    ktime_to_ns(hrtimer_get_softexpires(&m->timer)) <= deadline)
		return;
	hrtimer_start_range_ns(&m->timer, ns_to_ktime(deadline),
			       MPE_TIMER_SLACK_NS, HRTIMER_MODE_ABS_SOFT);
}

/* Called with rift_lock held: a frame of e->ctx is finished. */
static void mpe_entry_done(struct mpe *m, struct mp_rift_entry *e, int err)
{
	struct mpe_xfer *x = e->ctx;

	if (err && !x->error)
		x->error = err;
	mp_rift_free(&m->rift, e);
	m->credit++;
	/* last access to x: the issuer may return as soon as it sees 0 */
	WRITE_ONCE(x->outstanding, x->outstanding - 1);
	wake_up_all(&m->wq);
}

/* A retransmission, built under rift_lock while the transfer is alive. */
static struct sk_buff *mpe_retx_frame(struct mpe *m, struct mp_rift_entry *e,
				      struct mp_frame *f)
{
	struct mpe_xfer *x = e->ctx;
	struct sk_buff *skb;
	u32 payload = e->op == MP_ETH_OP_WRITE_REQ ? e->len : 0;

	skb = mpe_frame_alloc(m, payload, GFP_ATOMIC);
	if (!skb)
		return NULL;
	if (payload)
		memcpy(mpe_frame_payload(skb), x->buf + (e->offset - x->offset),
		       payload);
	mpe_header(m, e, true, f);
	/* the header is encoded by mpe_frame_send() from the control block */
	BUILD_BUG_ON(sizeof(*f) > sizeof(skb->cb));
	memcpy(skb->cb, f, sizeof(*f));
	return skb;
}

static enum hrtimer_restart mpe_timer_fn(struct hrtimer *t)
{
	struct mpe *m = container_of(t, struct mpe, timer);
	struct sk_buff_head q;
	struct mp_rift_entry *e;
	enum mp_rift_event ev;
	unsigned int pos = 0;
	struct sk_buff *skb;
	struct mp_frame f;
	u64 now;

	__skb_queue_head_init(&q);
	spin_lock(&m->rift_lock);
	now = ktime_get_ns();
	while ((ev = mp_rift_poll(&m->rift, now, &pos, &e)) != MP_RIFT_IDLE) {
		struct mp_peer_stats *st = &m->peer[e->dst].rq;

		if (ev == MP_RIFT_RETRANSMIT) {
			st->retransmits++;
			trace_mp_eth_retransmit(e, now);
			skb = mpe_retx_frame(m, e, &f);
			if (skb) {
				st->tx++;
				__skb_queue_tail(&q, skb);
			}
			continue;
		}
		st->timeouts++;
		trace_mp_eth_timeout(e, now);
		mpe_entry_done(m, e, -ETIMEDOUT);
	}
	mpe_timer_arm(m);
	spin_unlock(&m->rift_lock);

	while ((skb = __skb_dequeue(&q))) {
		memcpy(&f, skb->cb, sizeof(f));
		mpe_frame_send(m, skb, &f);
	}
	return HRTIMER_NORESTART;
}

/* Serve a transfer to our own device id from the local DRAM. */
static int mpe_xfer_local(struct mpe *m, u64 self, u8 op, u64 offset, u8 *buf,
			  u32 len)
{
	u32 done, n, step = mpe_max_payload(m);
	int ret = 0;

	for (done = 0; done < len && !ret; done += n) {
		n = min(len - done, step);
		if (op == MP_ETH_OP_READ_REQ)
			ret = mp_local_read(self, offset + done, buf + done,
					    n);
		else
			ret = mp_local_write(self, offset + done, buf + done,
					     n);
		cond_resched();
	}
	return ret;
}

/**
 * mpe_xfer() - read or write @len bytes of device @dst's DRAM
 * @m: the transport
 * @op: MP_ETH_OP_READ_REQ or MP_ETH_OP_WRITE_REQ
 * @dst: device id
 * @offset: in @dst's DRAM
 * @buf: kernel buffer
 * @len: bytes
 *
 * Sleeps. Each frame is applied atomically at the target; frames of one
 * transfer are not ordered among themselves.
 *
 * Return: 0 or the first error: -ETIMEDOUT (a frame ran out of retries),
 * -EHOSTUNREACH (the peer failed recently), a NAK's errno, -ENOMEM;
 * with discovery also -EAGAIN (no pool formed: a round is running, or
 * chip ids conflict), -EIO at once for a device that was lost, and
 * -ENETRESET when a new round started while the transfer was in flight.
 */
int mpe_xfer(struct mpe *m, u8 op, u16 dst, u64 offset, void *buf, u32 len)
{
	struct mpe_xfer x = {
		.op = op, .dst = dst, .offset = offset, .len = len, .buf = buf,
	};
	struct sk_buff *skb = NULL;
	const struct mpe_memb *mb;
	struct mp_rift_entry *e;
	u32 issued = 0, chunk = 0, valid;
	u16 self, nr_devs;
	struct mp_frame f;
	int ret, err = 0;
	u64 credit, chip;
	bool running;

	rcu_read_lock();
	mb = rcu_dereference(m->memb);
	running = mb->running;
	self = mb->devid;
	chip = self < MPE_MAX_DEVS ? mb->chip[self] : 0;
	nr_devs = mb->nr_devs;
	valid = mb->valid;
	rcu_read_unlock();
	if (!running)
		return -EAGAIN;
	if (dst >= nr_devs || !len || offset + len < offset)
		return -EINVAL;
	if (dst == self && op == MP_ETH_OP_OWN_REQ)
		return -EINVAL;	/* the pool device arbitrates its own */
	if (dst == self)
		return mpe_xfer_local(m, chip, op, offset, buf, len);
	if (!(valid & BIT(dst))) {
		spin_lock_bh(&m->rift_lock);
		m->peer[dst].rq.fast_fails++;
		spin_unlock_bh(&m->rift_lock);
		return -EIO;
	}

	while (issued < len) {
		if (!skb) {
			chunk = min(len - issued, mpe_max_payload(m));
			skb = mpe_frame_alloc(m, op == MP_ETH_OP_WRITE_REQ ?
					      chunk : 0, GFP_KERNEL);
			if (!skb) {
				err = -ENOMEM;
				break;
			}
			if (op == MP_ETH_OP_WRITE_REQ)
				memcpy(mpe_frame_payload(skb), x.buf + issued,
				       chunk);
		}

		spin_lock_bh(&m->rift_lock);
		if (x.error) {
			spin_unlock_bh(&m->rift_lock);
			break;
		}
		credit = m->credit;
		ret = mp_rift_alloc(&m->rift, dst, ktime_get_ns(), &x, &e);
		if (ret == -EAGAIN || ret == -ENOSPC) {
			spin_unlock_bh(&m->rift_lock);
			wait_event(m->wq, READ_ONCE(m->credit) != credit);
			continue;
		}
		if (ret) {
			if (ret == -EHOSTUNREACH)
				m->peer[dst].rq.fast_fails++;
			x.error = ret;
			spin_unlock_bh(&m->rift_lock);
			break;
		}
		e->op = op;
		e->offset = offset + issued;
		e->len = chunk;
		e->nonce = get_random_u32();
		mpe_header(m, e, false, &f);
		x.outstanding++;
		m->peer[dst].rq.tx++;
		mpe_timer_arm(m);
		spin_unlock_bh(&m->rift_lock);

		mpe_frame_send(m, skb, &f);
		skb = NULL;
		issued += chunk;
	}
	kfree_skb(skb);
	/* Latency: a short request may spin rather than sleep and be woken. */
	if (m->cfg.poll_ns && len <= mpe_max_payload(m)) {
		u64 end = ktime_get_ns() + m->cfg.poll_ns;

		while (READ_ONCE(x.outstanding) && !need_resched() &&
		       ktime_get_ns() < end)
			cpu_relax();
	}
	/* Bounded: every frame in flight finishes within mp_rift_fail_time(). */
	wait_event(m->wq, READ_ONCE(x.outstanding) == 0);
	/* pairs with the unlock after the last mpe_entry_done() */
	spin_lock_bh(&m->rift_lock);
	ret = x.error ? x.error : err;
	spin_unlock_bh(&m->rift_lock);
	return ret;
}

/**
 * mpe_rx_response() - a response arrived: complete its frame
 * @m: the transport
 * @skb: linear, data at the transport header
 * @f: its decoded, validated header (src/dst/gen checked by the caller)
 */
void mpe_rx_response(struct mpe *m, struct sk_buff *skb,
		     const struct mp_frame *f)
{
	struct mp_peer_stats *st = &m->peer[f->src].rq;
	struct mp_rift_entry *e;
	struct mpe_xfer *x;
	int ret;

	spin_lock(&m->rift_lock);
	st->rx++;
	ret = mp_rift_match(&m->rift, f->tag, f->sn, f->src, &e);
	/*
	 * Under a key the response must carry the nonce of the request in
	 * flight: one captured in an earlier cycle of the SNs answers nothing
	 */
	if (ret || mp_frame_match_response(f, e->op, e->offset, e->len) ||
	    ((f->flags & MP_ETH_F_AUTH) && f->bind != e->nonce)) {
		st->stale_responses++;
		goto out;
	}
	mp_rift_answered(&m->rift, e, ktime_get_ns(), f->flags & MP_ETH_F_RETX);
	x = e->ctx;
	if (f->op == MP_ETH_OP_NAK) {
		st->naks++;
		if (f->status == -EACCES)
			st->refused++;
		mpe_entry_done(m, e, mp_frame_nak_errno(f->status));
		goto out;
	}
	if (f->op == MP_ETH_OP_READ_RESP || f->op == MP_ETH_OP_OWN_RESP)
		memcpy(x->buf + (e->offset - x->offset),
		       skb->data + MP_ETH_HDR_LEN, e->len);
	mpe_entry_done(m, e, 0);
	mpe_timer_arm(m);
out:
	spin_unlock(&m->rift_lock);
}

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
	unsigned int pos = 0, i;

	spin_lock_bh(&m->rift_lock);
	while ((e = mp_rift_next_busy(&m->rift, &pos)))
		mpe_entry_done(m, e, err);
	for (i = 0; i < MPE_MAX_DEVS; i++)
		mp_rift_peer_reset(&m->rift, i, get_random_u16());
	spin_unlock_bh(&m->rift_lock);
	for (i = 0; i < MPE_MAX_DEVS; i++) {
		struct mpe_peer *p = &m->peer[i];

		spin_lock_bh(&p->lock);
		mp_window_reset(&p->win);
		p->win_skipped = p->win.skipped;
		spin_unlock_bh(&p->lock);
	}
}

int mpe_requester_init(struct mpe *m)
{
	unsigned int n = m->cfg.entries;
	int ret;

	spin_lock_init(&m->rift_lock);
	init_waitqueue_head(&m->wq);
	hrtimer_init(&m->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	m->timer.function = mpe_timer_fn;
	m->ent = kvcalloc(n, sizeof(*m->ent), GFP_KERNEL);
	/* every possible device: discovery may fill the whole table */
	m->rpeer = kcalloc(MPE_MAX_DEVS, sizeof(*m->rpeer), GFP_KERNEL);
	if (!m->ent || !m->rpeer) {
		ret = -ENOMEM;
		goto err;
	}
	ret = mp_rift_init(&m->rift, &m->cfg.rift, m->ent, n, m->rpeer,
			   MPE_MAX_DEVS, m->cfg.start_sn);
	if (ret)
		goto err;
	return 0;
err:
	kvfree(m->ent);
	kfree(m->rpeer);
	return ret;
}

/*
 * No transfer can be running (the test device and the backend slot are
 * gone): stop the timer and release the tables.
 */
void mpe_requester_exit(struct mpe *m)
{
	hrtimer_cancel(&m->timer);
	WARN_ON_ONCE(m->rift.nr_busy);
	kvfree(m->ent);
	kfree(m->rpeer);
}
