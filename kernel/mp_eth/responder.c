// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: the responder - one receive window per requesting device.
 *
 * A request is executed only on the verdicts NEW and RESYNC, under the
 * peer's window lock, and its status goes into the window's response cache
 * (mp_window_complete()). A copy of a request that was executed before
 * (DUP) is answered again from the cached status: a write is never applied
 * twice, an ownership command never arbitrated twice (its verdict is what
 * is cached); a read is read again (idempotent). BUSY, OLD and BEYOND are
 * dropped. Each frame is copied once, between the frame and the DRAM,
 * under the pool device's mem_lock (mp_local_access()), so it is atomic;
 * a read in parts (MP_ETH_READ_PARTS) is read at once into all of its
 * parts' frames, which go out with the other responses of the receive
 * pass as one batch (mpe_frame_defer()). A write in parts is applied a
 * part at a time as its frames arrive, each part once while its SN is
 * ahead of the window's base (mp_window_check_part()), and answered once,
 * when its last part is in.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/cmm_mp.h>
#include <linux/cmm_mp_backend.h>
#include <asm/unaligned.h>

#include "mp_eth.h"

/* A device id of the core (CMM_MP_NONE, CMM_MP_GONE) as the wire has it */
static u16 mpe_own_devid(u32 id)
{
	return id == CMM_MP_NONE ? MP_ETH_DEV_ANY :
	       id == CMM_MP_GONE ? MP_ETH_DEV_GONE : id;
}

/*
 * Ownership command @f from chip @chip: the verdict goes into the payload
 * (with the segment's partner when the request's len asks for it), the
 * frame's status is 0 unless the request itself is malformed (an unknown
 * command, a partner on another command than a claim: refused before
 * anything runs). It is executed once (@execute), its verdict kept in
 * *@cached; a copy of it is answered from there with the holders as they
 * are now, so a duplicate or a replay within the window never changes who
 * holds what.
 */
static int mpe_own_exec(const struct mp_frame *f, u64 chip, bool execute,
			int *cached, u8 *out)
{
	struct mp_own_info oi = { .pdev = CMM_MP_NONE };
	struct mp_own_resp resp;
	struct mp_own_req req;
	int ret;

	if (mp_own_req_decode(f->offset, &req)) {
		*cached = -EINVAL;
		return -EINVAL;
	}
	if (execute) {
		if (req.pdev != MP_ETH_DEV_ANY) {
			oi.pdev = req.pdev;
			oi.pseg = req.pseg;
		}
		ret = mp_local_own(chip, req.cmd, req.seg, &oi);
		*cached = ret;
	} else {
		ret = *cached;
		if (ret != -EINVAL)
			mp_local_own(chip, MP_OWN_QUERY, req.seg, &oi);
	}
	if (ret == -EINVAL)
		return ret;
	resp.status = ret;
	resp.owner = mpe_own_devid(oi.owner);
	resp.sharers = oi.sharers;
	resp.pdev = mpe_own_devid(oi.pdev);
	resp.pseg = oi.pdev == CMM_MP_NONE ? 0 : oi.pseg;
	ret = mp_own_resp_encode(&resp, out, f->len);
	return ret < 0 ? ret : 0;
}

/* A write request's payload, straight from its (maybe paged) frame. */
static int mpe_copy_from_frame(void *arg, void *dram, u32 len)
{
	return skb_copy_bits(arg, MP_ETH_HDR_LEN, dram, len);
}

/* A read's bytes, straight from the DRAM into the frames of its parts. */
static int mpe_copy_to_parts(void *arg, void *dram, u32 len)
{
	struct sk_buff_head *parts = arg;
	struct sk_buff *skb;
	u32 done = 0, n;

	skb_queue_walk(parts, skb) {
		n = skb->len - MP_ETH_HDR_LEN;
		memcpy(mpe_frame_payload(skb), dram + done, n);
		done += n;
	}
	return done == len ? 0 : -EINVAL;
}

/*
 * Read request @f: a frame per part on @out, filled from the DRAM at once
 * when @execute. A read whose frames, signed, the port cannot carry is
 * refused (-EINVAL). Returns the status; an error leaves one frame, for
 * the NAK.
 */
static int mpe_exec_read(struct mpe *m, const struct mp_frame *f, u64 chip,
			 bool execute, int *cached, struct sk_buff_head *out)
{
	u32 i, n = mp_frame_parts(f->len, f->stride);
	struct mp_frame part;
	struct sk_buff *skb;

	for (i = 0; i < n; i++) {
		/* i < n: the part exists, so this cannot fail */
		mp_frame_read_part(f, i, &part);
		skb = mpe_frame_alloc(m, part.len, GFP_ATOMIC);
		if (!skb) {
			__skb_queue_purge(out);
			return -ENOMEM;
		}
		__skb_queue_tail(out, skb);
	}
	/*
	 * The decoder held the part size to the payload without the trailer,
	 * so a signed answer might not leave the port.
	 */
	if (execute && mp_frame_read_stride(f) + mpe_auth_overhead(m) >
		       mpe_rx_payload(m))
		*cached = -EINVAL;
	else if (execute)
		*cached = mp_local_access(chip, f->offset, f->len, false,
					  mpe_copy_to_parts, out);
	if (!*cached) {
		atomic64_add(f->len, &m->dp.copied_bytes);
		return 0;
	}
	while (skb_queue_len(out) > 1)
		kfree_skb(__skb_dequeue_tail(out));
	skb_trim(skb_peek(out), MP_ETH_HDR_LEN);
	return *cached;
}

/*
 * Execute request @f from chip @chip if @execute, else answer it from
 * *@cached (what its first execution left in the window's cache). Puts
 * the frames of its response on @out (payload filled for a read: one per
 * part), none without memory; *@status is the response's status,
 * *@cached what to cache. A write is applied even without memory: its
 * retransmission is answered from the cache. A read that found no memory
 * has no effect.
 */
static void mpe_exec(struct mpe *m, const struct sk_buff *req,
		     const struct mp_frame *f, u64 chip, bool execute,
		     int *cached, int *status, struct sk_buff_head *out)
{
	struct sk_buff *skb;

	if (f->op == MP_ETH_OP_READ_REQ) {
		*status = mpe_exec_read(m, f, chip, execute, cached, out);
		return;
	}
	if (f->op == MP_ETH_OP_WRITE_REQ) {
		if (execute) {
			*cached = mp_local_access(chip, f->offset, f->len, true,
						  mpe_copy_from_frame,
						  (void *)req);
			if (!*cached)
				atomic64_add(f->len, &m->dp.copied_bytes);
		}
		*status = *cached;
		skb = mpe_frame_alloc(m, 0, GFP_ATOMIC);
	} else {
		skb = mpe_frame_alloc(m, f->len, GFP_ATOMIC);
		if (!skb)
			return;
		*status = mpe_own_exec(f, chip, execute, cached,
				       mpe_frame_payload(skb));
		if (*status)
			skb_trim(skb, MP_ETH_HDR_LEN);
	}
	if (skb)
		__skb_queue_tail(out, skb);
}

/* Called with p->lock held: what the window's hole timeout skipped. */
static void mpe_rx_skipped(struct mpe_peer *p)
{
	p->rs.skipped += p->win.skipped - p->win_skipped;
	p->win_skipped = p->win.skipped;
}

/*
 * Called with p->lock held: a request the window turned away (a copy of
 * one still in progress, a replay, one outside the window).
 */
static void mpe_rx_turned_away(struct mpe *m, struct mpe_peer *p,
			       enum mp_window_verdict v)
{
	switch (v) {
	case MP_WIN_BUSY:
		p->rs.duplicates++;
		break;
	case MP_WIN_REPLAY:
		atomic64_inc(&m->drops.replayed);
		atomic64_inc(&m->dropped);
		p->rs.out_of_window++;
		break;
	default:
		p->rs.out_of_window++;
		break;
	}
}

/*
 * Frame @f of a write in parts: its part is applied if the window says
 * so, and the write answered (from the window's cache for a copy) once
 * all of its parts are in, with the first failing part's status. @now:
 * when it arrived (mpe_rx_request() read the clock).
 */
static void mpe_rx_write_part(struct mpe *m, struct mpe_peer *p,
			      struct sk_buff *skb, const struct mp_frame *f,
			      u64 chip, u64 now)
{
	int ack = f->flags & MP_ETH_F_ACK ? f->ack : MP_WINDOW_NO_ACK;
	struct mp_window_part wp = {
		.offset = f->offset, .len = f->len, .stride = f->stride,
		.part = f->part, .nr_parts = mp_frame_parts(f->len, f->stride),
	};
	struct sk_buff *skb_r = NULL;
	enum mp_window_verdict v;
	int status = 0, ret;
	struct mp_frame r;
	u32 len;
	u64 off;

	spin_lock(&p->lock);
	p->rs.rx++;
	v = mp_window_check_part(&p->win, f->sn, ack, mpe_auth_stamp(skb, f),
				 now, &wp, &status);
	mpe_rx_skipped(p);
	switch (v) {
	case MP_WIN_RESYNC:
		p->rs.resyncs++;
		fallthrough;
	case MP_WIN_NEW:
	case MP_WIN_PART:
		mpe_peer_alive(p, now);
		mp_frame_write_span(f, &off, &len);
		ret = mp_local_access(chip, off, len, true, mpe_copy_from_frame,
				      skb);
		if (!ret)
			atomic64_add(len, &m->dp.copied_bytes);
		if (ret == -EACCES)
			p->rs.refused++;
		/* 1: the last part: answer; 0: more to come */
		if (mp_window_complete_part(&p->win, f->sn, f->part, ret,
					    &status) == 1)
			skb_r = mpe_frame_alloc(m, 0, GFP_ATOMIC);
		break;
	case MP_WIN_DUP:
		p->rs.duplicates++;
		skb_r = mpe_frame_alloc(m, 0, GFP_ATOMIC);
		break;
	case MP_WIN_FORGED:
		p->rs.malformed++;
		break;
	default:
		mpe_rx_turned_away(m, p, v);
		break;
	}
	if (skb_r)
		p->rs.tx++;
	spin_unlock(&p->lock);
	if (skb_r && !mp_frame_reply(f, status, &r))
		mpe_frame_defer(m, skb_r, &r);
	else
		kfree_skb(skb_r);
}

/**
 * mpe_rx_request() - a request from peer @f->src arrived
 * @m: the transport
 * @skb: data at the transport header, which is linear (the payload need
 *	not be)
 * @f: its decoded, validated header (src/dst/gen checked by the caller)
 * @chip: the chip id of @f->src in the membership @f was checked against:
 *	the pool device serves the segments that chip holds
 */
void mpe_rx_request(struct mpe *m, struct sk_buff *skb,
		    const struct mp_frame *f, u64 chip)
{
	struct mpe_peer *p = mpe_peer(m, f->src);
	int ack = f->flags & MP_ETH_F_ACK ? f->ack : MP_WINDOW_NO_ACK;
	enum mp_window_verdict v;
	struct sk_buff_head out;
	struct sk_buff *skb_r;
	struct mp_frame r;
	int status = 0, cached = 0;
	u64 now = ktime_get_ns();
	u32 i = 0;

	if (!p)
		return;	/* cannot be: the caller found its sender */
	if (f->op == MP_ETH_OP_WRITE_REQ &&
	    mp_frame_parts(f->len, f->stride) > 1) {
		mpe_rx_write_part(m, p, skb, f, chip, now);
		return;
	}
	__skb_queue_head_init(&out);
	spin_lock(&p->lock);
	p->rs.rx++;
	v = mp_window_check_stamped(&p->win, f->sn, ack, mpe_auth_stamp(skb, f),
				    now, &cached);
	mpe_rx_skipped(p);
	switch (v) {
	case MP_WIN_RESYNC:
		p->rs.resyncs++;
		fallthrough;
	case MP_WIN_NEW:
		mpe_peer_alive(p, now);
		mpe_exec(m, skb, f, chip, true, &cached, &status, &out);
		if (status == -EACCES)
			p->rs.refused++;
		/* -ENOENT: the slot was reused meanwhile; send it uncached */
		mp_window_complete(&p->win, f->sn, cached);
		break;
	case MP_WIN_DUP:
		p->rs.duplicates++;
		/*
		 * a read is read again; a write and an ownership command are
		 * answered from the cache
		 */
		mpe_exec(m, skb, f, chip, f->op == MP_ETH_OP_READ_REQ && !cached,
			 &cached, &status, &out);
		break;
	default:
		mpe_rx_turned_away(m, p, v);
		break;
	}
	if (!skb_queue_empty(&out) && mp_frame_reply(f, status, &r))
		__skb_queue_purge(&out);
	p->rs.tx += skb_queue_len(&out);
	spin_unlock(&p->lock);

	/*
	 * with the other responses of this receive pass: one doorbell; a
	 * read's parts each with its own offset and len
	 */
	while ((skb_r = __skb_dequeue(&out))) {
		if (r.op == MP_ETH_OP_READ_RESP)
			mp_frame_read_part(f, i++, &r);
		mpe_frame_defer(m, skb_r, &r);
	}
}

/* A new peer's receive window (peers.c): waits to sync on its first SN. */
void mpe_responder_peer_init(struct mpe *m, struct mpe_peer *p)
{
	spin_lock_init(&p->lock);
	mp_window_init(&p->win, 0);
	mp_window_reset(&p->win);
	p->win.gap_timeout = m->cfg.gap_timeout;
}
