// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: the requester - transfers split into frames, the RIFT, the
 * retransmission timer.
 *
 * mpe_xfer() cuts a transfer into requests of up to MP_ETH_READ_PARTS
 * times max_payload bytes: a read answered in parts of max_payload (the
 * stride it sends), a write sent in parts of max_payload under one
 * sequence number and answered once (one of max_payload or less is one
 * frame without a stride, as an ownership command is). It keeps as many
 * in flight as the destination's RIFT allows (64 sequence numbers past its
 * cumulative ack, and 64 frames counted: a read counts each of the parts
 * it expects, a write each it sends, so that a burst of them fits the
 * receive ring at either end; each destination has a
 * RIFT, a lock and a timer of its own, so requests to different devices
 * share no lock), sent in
 * batches of up to MPE_TX_BATCH (one doorbell each, tx.c). The caller's
 * data is a kernel iterator: a write's bytes are copied from it straight
 * into each frame, a read's from each response straight into it, in the
 * receive path (skb_copy_datagram_iter(): the response need not be
 * linear), so every byte is copied once on this side. A read is finished
 * when each of its parts arrived once: a part seen before (a
 * retransmission's answer, a duplicate) is counted as stale and not
 * copied again. A finished frame wakes only its own issuer, and only
 * when its transfer is complete; a finished request's credit wakes one
 * issuer that waits for room in its RIFT, if any, and an issuer that is
 * done passes that on. Issuers poll for poll_us since the last frame that
 * finished before they sleep, whatever the length of their transfer
 * (poll.c, where mpe_xfer() and mpe_write_many() are). A soft
 * hrtimer runs mp_rift_poll() at the earliest deadline: due frames are
 * sent again with F_RETX (timeouts measured from the round trip), frames
 * past their failure budget fail their transfer with -ETIMEDOUT. A
 * transfer returns once none of its frames is in flight, so its iterator
 * is never touched afterwards.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/uio.h>
#include <linux/cmm_mp.h>
#include <linux/cmm_mp_backend.h>

#include "mp_eth.h"
#include "mp_eth_trace.h"

/* Timer slack: expiries this close together are handled in one run. */
#define MPE_TIMER_SLACK_NS	(1 * NSEC_PER_MSEC)
/* Frames handed to the port at once by an issuer. */
#define MPE_TX_BATCH		16

/*
 * Called with q->lock held: a copy of the transfer's iterator at byte
 * @offset of the device. Responses come mostly in order, so the cursor
 * moves on from where the last one left it instead of walking the
 * caller's bio_vecs from the start for every frame.
 */
static void mpe_xfer_iter(struct mpe_xfer *x, u64 offset, struct iov_iter *it)
{
	if (offset < x->cur_off) {
		x->cur = *x->iter;
		x->cur_off = x->offset;
	}
	iov_iter_advance(&x->cur, offset - x->cur_off);
	x->cur_off = offset;
	*it = x->cur;
}

/* Fill the payload of write frame @skb with the caller's bytes. */
static int mpe_fill(struct mpe *m, struct sk_buff *skb, struct iov_iter *from,
		    u32 len)
{
	if (copy_from_iter(mpe_frame_payload(skb), len, from) != len)
		return -EFAULT;
	atomic64_add(len, &m->dp.copied_bytes);
	return 0;
}

static void mpe_header(struct mpe_rq *q, const struct mp_rift_entry *e,
		       bool retx, struct mp_frame *f)
{
	const struct mpe_memb *mb;

	memset(f, 0, sizeof(*f));
	f->op = e->op;
	f->flags = MP_ETH_F_ACK | (retx ? MP_ETH_F_RETX : 0);
	rcu_read_lock();
	mb = rcu_dereference(q->m->memb);
	f->src = mb->devid;
	f->gen = mb->gen;
	rcu_read_unlock();
	f->dst = e->dst;
	f->sn = e->sn;
	f->tag = e->tag;
	f->ack = mp_rift_ack(&q->rift, e->dst);
	f->offset = e->offset;
	f->len = e->len;
	/* a read's or a write's in parts; 0 for one frame */
	f->stride = e->stride;
	f->bind = e->nonce;
}

/*
 * Called with q->lock held: make the timer fire by @deadline. It is never
 * moved later: a finished request leaves it where it was, and an expiry
 * that finds nothing due re-arms it for the earliest deadline
 * (mpe_timer_fn()), so that no request or response pays for a scan of
 * the RIFT.
 */
static void mpe_timer_arm_at(struct mpe_rq *q, u64 deadline)
{
	if (hrtimer_is_queued(&q->timer) &&
	    ktime_to_ns(hrtimer_get_softexpires(&q->timer)) <= deadline)
		return;
	hrtimer_start_range_ns(&q->timer, ns_to_ktime(deadline),
			       MPE_TIMER_SLACK_NS, HRTIMER_MODE_ABS_SOFT);
}

/* Called with q->lock held: arm the timer for the earliest deadline. */
static void mpe_timer_arm(struct mpe_rq *q)
{
	u64 deadline;

	if (mp_rift_next_deadline(&q->rift, &deadline))
		mpe_timer_arm_at(q, deadline);
}

/*
 * Called with q->lock held: a frame of e->ctx is finished. Only the
 * transfer's own issuer is woken, once its last frame finished; it takes
 * q->lock before it returns, so x stays valid until the unlock. A
 * submitted transfer (submit.c) has no issuer: it goes on q->done, which
 * the caller hands to mpe_xfer_end() after the unlock.
 */
void mpe_entry_done(struct mpe_rq *q, struct mp_rift_entry *e, int err)
{
	struct mpe_xfer *x = e->ctx;

	if (err && !x->error)
		x->error = err;
	mp_rift_free(&q->rift, e);
	q->credit++;
	WRITE_ONCE(x->outstanding, x->outstanding - 1);
	/* a submitted one is ended once the caller dropped q->lock */
	if (!x->outstanding && x->io)
		list_add_tail(&x->done_node, &q->done);
	else if (!x->outstanding)
		wake_up(&x->wq);
	/* one issuer waiting for room in the RIFT, if any (poll.c) */
	if (wq_has_sleeper(&q->wq))
		wake_up(&q->wq);
}

/*
 * A retransmission, built under q->lock while the transfer is alive, onto
 * @rq: every part of a write in parts (the responder applies the ones it
 * misses and answers again). Returns the frames built.
 */
static u32 mpe_retx_frames(struct mpe_rq *q, struct mp_rift_entry *e,
			   struct sk_buff_head *rq)
{
	struct mpe *m = q->m;
	struct mpe_xfer *x = e->ctx;
	u32 i, n = 1, len = 0, built = 0;
	struct sk_buff *skb;
	struct iov_iter it;
	struct mp_frame f;
	u64 off;

	mpe_header(q, e, true, &f);
	if (e->op == MP_ETH_OP_WRITE_REQ)
		n = mp_frame_parts(e->len, e->stride);
	for (i = 0; i < n; i++) {
		f.part = i;
		if (e->op == MP_ETH_OP_WRITE_REQ)
			mp_frame_write_span(&f, &off, &len);
		skb = mpe_frame_alloc(m, len, GFP_ATOMIC);
		if (!skb)
			break;
		if (len) {
			mpe_xfer_iter(x, off, &it);
			if (mpe_fill(m, skb, &it, len)) {
				kfree_skb(skb);
				break;
			}
		}
		/* mpe_frame_prep() encodes the header from the control block */
		BUILD_BUG_ON(sizeof(f) > sizeof(skb->cb));
		memcpy(skb->cb, &f, sizeof(f));
		__skb_queue_tail(rq, skb);
		built++;
	}
	return built;
}

enum hrtimer_restart mpe_timer_fn(struct hrtimer *t)
{
	struct mpe_rq *q = container_of(t, struct mpe_rq, timer);
	struct mpe *m = q->m;
	struct sk_buff_head rq, tx;
	struct mp_rift_entry *e;
	enum mp_rift_event ev;
	unsigned int pos = 0;
	struct sk_buff *skb;
	struct mp_frame f;
	LIST_HEAD(done);
	u64 now;

	__skb_queue_head_init(&rq);
	__skb_queue_head_init(&tx);
	spin_lock(&q->lock);
	now = ktime_get_ns();
	while ((ev = mp_rift_poll(&q->rift, now, &pos, &e)) != MP_RIFT_IDLE) {
		struct mp_peer_stats *st = &q->st;

		if (ev == MP_RIFT_RETRANSMIT) {
			st->retransmits++;
			trace_mp_eth_retransmit(e, now);
			st->tx += mpe_retx_frames(q, e, &rq);
			continue;
		}
		st->timeouts++;
		trace_mp_eth_timeout(e, now);
		mpe_entry_done(q, e, -ETIMEDOUT);
	}
	mpe_timer_arm(q);
	list_splice_init(&q->done, &done);
	spin_unlock(&q->lock);

	while ((skb = __skb_dequeue(&rq))) {
		memcpy(&f, skb->cb, sizeof(f));
		if (!mpe_frame_prep(m, skb, &f, NULL))
			__skb_queue_tail(&tx, skb);
	}
	mpe_xmit(m, &tx);
	mpe_xfer_end(m, &done);
	return HRTIMER_NORESTART;
}

/*
 * The frames of a transfer's next request, onto @out: one without payload
 * for a read of up to MP_ETH_READ_PARTS strides (or an ownership command
 * of up to one), one per part of a write of as much, filled from @src.
 * Returns the request's length, or -errno with @out empty.
 */
static int mpe_build(struct mpe *m, u8 op, struct iov_iter *src, u32 left,
		     u32 stride, gfp_t gfp, struct sk_buff_head *out)
{
	/* a write's parts, cut as the responder cuts them (offsets from 0) */
	struct mp_frame w = { .op = op };
	u32 chunk, i, n = 1, plen = 0;
	struct sk_buff *skb;
	u64 off;
	int err;

	chunk = min_t(u32, left, op == MP_ETH_OP_OWN_REQ ? stride :
			  stride * MP_ETH_READ_PARTS);
	if (op == MP_ETH_OP_WRITE_REQ) {
		n = mp_frame_parts(chunk, stride);
		w.len = chunk;
		w.stride = n > 1 ? stride : 0;
	}
	for (i = 0; i < n; i++) {
		w.part = i;
		if (op == MP_ETH_OP_WRITE_REQ)
			mp_frame_write_span(&w, &off, &plen);
		skb = mpe_frame_alloc(m, plen, gfp);
		if (!skb) {
			err = -ENOMEM;
			goto fail;
		}
		__skb_queue_tail(out, skb);
		err = plen ? mpe_fill(m, skb, src, plen) : 0;
		if (err)
			goto fail;
	}
	return chunk;
fail:
	__skb_queue_purge(out);
	return err;
}

/* @x fails before any of its frames went out. */
static int mpe_xfer_refuse(struct mpe_xfer *x, int err)
{
	x->error = err;
	return err;
}

/*
 * The issue of submitted transfer @x is done, @issued of its bytes in
 * flight, @err what stopped it short: drop the count it held. None in
 * flight: it is the caller's again, with the error. Some: it fails with
 * @err once they are done (its caller does it all again where it can
 * wait), and if they are done already it ends here.
 */
static int mpe_xfer_issued(struct mpe *m, struct mpe_xfer *x, u32 issued,
			   int err)
{
	struct mpe_rq *q = x->q;
	LIST_HEAD(done);

	/* no entry ever named @x: nothing else can see it */
	if (!issued) {
		x->outstanding = 0;
		return err ?: x->error ?: -EIO;
	}
	spin_lock_bh(&q->lock);
	if (err) {
		atomic64_inc(&m->dp.submit_partial);
		if (!x->error)
			x->error = err;
	}
	if (!--x->outstanding)
		list_add_tail(&x->done_node, &q->done);
	list_splice_init(&q->done, &done);
	spin_unlock_bh(&q->lock);
	mpe_xfer_end(m, &done);
	return 0;
}

/**
 * mpe_xfer_issue() - check the transfer @x describes and send its frames
 * @m: the transport
 * @x: the transfer
 * @nowait: for a caller that cannot sleep (submit.c, @x->io set):
 *	allocate without waiting, and give up rather than wait for room in
 *	the RIFT
 *
 * @x is in flight (x->q set) until mpe_xfer_wait(), or with @nowait until
 * mpe_xfer_end(). An error before any frame went out is left in x->error.
 * With @nowait, a transfer that could only be started in part (the RIFT
 * filled up, or memory ran out, after its first request) fails with that
 * error once the part in flight is done (mpe_xfer_issued()).
 *
 * Return: 0, or with @nowait the error that left nothing of @x in flight
 * (0: it is in flight and @x no longer the caller's).
 */
int mpe_xfer_issue(struct mpe *m, struct mpe_xfer *x, bool nowait)
{
	gfp_t gfp = nowait ? GFP_NOWAIT | __GFP_NOWARN : GFP_KERNEL;
	const struct iov_iter *iter = x->iter;
	size_t len = iov_iter_count(iter);
	struct sk_buff *skb;
	const struct mpe_memb *mb;
	struct iov_iter src = *iter;
	struct sk_buff_head tx, frames;
	struct mp_rift_entry *e;
	u32 issued = 0, chunk = 0, stride, parts = 1, i;
	struct mpe_peer *peer;
	u8 op = x->op;
	u16 dst = x->dst, self, nr_devs;
	struct mpe_rq *q;
	struct mp_frame f;
	bool valid, running, waited = false;
	int ret, err = 0;
	u64 credit;

	x->len = len;
	x->cur = *iter;
	x->cur_off = x->offset;
	rcu_read_lock();
	mb = rcu_dereference(m->memb);
	running = mb->running;
	self = mb->devid;
	nr_devs = mb->nr_devs;
	valid = dst < nr_devs && mb->dev[dst].valid;
	rcu_read_unlock();
	if (!running)
		return mpe_xfer_refuse(x, -EAGAIN);
	if (dst >= nr_devs || !len || len > U32_MAX ||
	    x->offset + len < x->offset || user_backed_iter(iter))
		return mpe_xfer_refuse(x, -EINVAL);
	/*
	 * The transport carries remote accesses only: the pool device serves
	 * and arbitrates its own DRAM itself (kernel/cmm_mp/remote.c, seg.c
	 * decide; testdev.c for the test device), and a transfer that names
	 * us here (a mapping raced a renumbering) must not reach our DRAM.
	 */
	if (dst == self)
		return mpe_xfer_refuse(x, -EINVAL);
	peer = mpe_peer(m, dst);
	if (!peer)	/* cannot be: its membership made it */
		return mpe_xfer_refuse(x, -EAGAIN);
	q = &peer->req;
	if (!valid) {
		spin_lock_bh(&q->lock);
		q->st.fast_fails++;
		spin_unlock_bh(&q->lock);
		return mpe_xfer_refuse(x, -EIO);
	}

	x->q = q;
	init_waitqueue_head(&x->wq);
	/*
	 * A submitted transfer is over, and freed, when its last frame
	 * finished: until its issue is done it holds a count of its own, so
	 * that the frames of its first requests cannot end it meanwhile.
	 */
	if (nowait)
		x->outstanding = 1;
	__skb_queue_head_init(&tx);
	__skb_queue_head_init(&frames);
	/* the stride of parts: one frame's payload, as it fits 16 bits */
	stride = min_t(u32, mpe_max_payload(m), U16_MAX);
	while (issued < len) {
		if (skb_queue_empty(&frames)) {
			ret = mpe_build(m, op, &src, len - issued, stride,
					gfp, &frames);
			if (ret < 0) {
				err = ret;
				break;
			}
			chunk = ret;
			/* an ownership command's chunk is one stride: 1 */
			parts = mp_frame_parts(chunk, stride);
		}

		spin_lock_bh(&q->lock);
		if (x->error) {
			spin_unlock_bh(&q->lock);
			break;
		}
		credit = q->credit;
		if (op == MP_ETH_OP_WRITE_REQ)
			ret = mp_rift_alloc_write(&q->rift, dst, ktime_get_ns(),
						  x, parts, &e);
		else
			ret = mp_rift_alloc_parts(&q->rift, dst, ktime_get_ns(),
						  x, parts, &e);
		if (ret == -EAGAIN || ret == -ENOSPC) {
			spin_unlock_bh(&q->lock);
			if (nowait) {
				err = -EAGAIN;
				break;
			}
			/* what is built goes out before we wait for room */
			mpe_xmit(m, &tx);
			mpe_wait_credit(q, credit);
			waited = true;
			continue;
		}
		if (ret) {
			if (ret == -EHOSTUNREACH)
				q->st.fast_fails++;
			x->error = ret;
			spin_unlock_bh(&q->lock);
			break;
		}
		e->op = op;
		e->offset = x->offset + issued;
		e->len = chunk;
		/* a read always names its stride, a write of parts only */
		e->stride = op == MP_ETH_OP_READ_REQ ||
			    (op == MP_ETH_OP_WRITE_REQ && parts > 1) ? stride : 0;
		e->nonce = get_random_u32();
		mpe_header(q, e, false, &f);
		x->outstanding++;
		q->st.tx += skb_queue_len(&frames);
		mpe_timer_arm_at(q, e->deadline);
		spin_unlock_bh(&q->lock);

		/* a frame that cannot go out is lost: retransmitted */
		for (i = 0; (skb = __skb_dequeue(&frames)); i++) {
			f.part = i;
			if (!mpe_frame_prep(m, skb, &f, NULL))
				__skb_queue_tail(&tx, skb);
		}
		issued += chunk;
		if (skb_queue_len(&tx) >= MPE_TX_BATCH || issued == len)
			mpe_xmit(m, &tx);
	}
	mpe_xmit(m, &tx);
	__skb_queue_purge(&frames);
	/*
	 * An issuer that consumed a wake-up may leave room it was woken for
	 * unused (poll.c): the next sleeper gets the wake-up.
	 */
	if (waited && wq_has_sleeper(&q->wq))
		wake_up(&q->wq);
	if (nowait)
		return mpe_xfer_issued(m, x, issued, err);
	/* in flight, @x may be over already: not touched again */
	x->issue_err = err;
	return 0;
}

/**
 * mpe_rx_response() - a response arrived: complete its frame
 * @m: the transport
 * @skb: data at the transport header, which is linear (the payload need
 *	not be)
 * @f: its decoded, validated header (src/dst/gen checked by the caller)
 */
void mpe_rx_response(struct mpe *m, struct sk_buff *skb,
		     const struct mp_frame *f)
{
	struct mpe_peer *p = mpe_peer(m, f->src);
	struct mp_peer_stats *st;
	struct mp_rift_entry *e;
	struct mpe_rq *q;
	struct mpe_xfer *x;
	LIST_HEAD(done);
	int part, ret = 0;

	if (!p)
		return;	/* cannot be: the caller found its sender */
	q = &p->req;
	st = &q->st;
	spin_lock(&q->lock);
	st->rx++;
	/*
	 * Under a key the response must carry the nonce of the request in
	 * flight: one captured in an earlier cycle of the SNs answers
	 * nothing. A read's part must be one of its parts (offset, len).
	 */
	part = mp_rift_match_response(&q->rift, f, &e);
	if (part < 0) {
		st->stale_responses++;
		goto out;
	}
	x = e->ctx;
	/*
	 * The clock is read once per request, for its first part (which
	 * mp_rift_part() below always takes: match_response checked its
	 * index) or its NAK: the round trip, request to first answer, and the
	 * peer's heartbeat (mpe_peer_alive()). Its other parts come in the
	 * same round trip and would add nothing.
	 */
	if (!e->parts_done || f->op == MP_ETH_OP_NAK) {
		u64 now = ktime_get_ns();

		mpe_peer_alive(p, now);
		mp_rift_answered(&q->rift, e, now, f->flags & MP_ETH_F_RETX);
	}
	if (f->op == MP_ETH_OP_NAK) {
		st->naks++;
		if (f->status == -EACCES)
			st->refused++;
		mpe_entry_done(q, e, mp_frame_nak_errno(f->status));
		goto out;
	}
	/* a part that arrived before is not copied again */
	part = mp_rift_part(e, part);
	if (part < 0) {
		st->stale_responses++;
		goto out;
	}
	if (f->op == MP_ETH_OP_READ_RESP || f->op == MP_ETH_OP_OWN_RESP) {
		struct iov_iter it;

		mpe_xfer_iter(x, f->offset, &it);
		ret = skb_copy_datagram_iter(skb, MP_ETH_HDR_LEN, &it, f->len);
		atomic64_add(f->len, &m->dp.copied_bytes);
	}
	if (ret)
		mpe_entry_done(q, e, -EFAULT);
	else if (part)
		mpe_entry_done(q, e, 0);
	/* the timer stays armed: a finished request moves no deadline up */
out:
	list_splice_init(&q->done, &done);
	spin_unlock(&q->lock);
	mpe_xfer_end(m, &done);
}
