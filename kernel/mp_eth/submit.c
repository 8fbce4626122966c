// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: transfers whose caller does not wait for them.
 *
 * A block device's ->queue_rq() must not sleep, and a worker that sleeps
 * in mpe_xfer() for each request costs two context switches and a wake-up
 * per request. mpe_xfer_submit() starts a transfer from such a caller: its
 * frames are allocated without waiting, and when the destination's RIFT
 * has no room for its first request it is not started at all (the caller
 * then hands it to a context that can wait); when it has none for a later
 * one, the transfer fails with -EAGAIN once the requests that went out
 * are done (mpe_xfer_issued(), counted in submit_partial), and the caller
 * does it all again where it can wait. Once started it is the
 * requester's like any other transfer:
 * retransmitted, timed out, failed by a new generation. Its last frame to
 * finish puts it on its destination's done list (mpe_entry_done()); the
 * receive path, the timer or the reset takes that list under the lock and
 * ends its transfers here after dropping it, so that the caller's
 * completion may start new transfers to the same destination.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/cmm_mp_backend.h>

#include "mp_eth.h"

/**
 * mpe_xfer_submit() - start @io without sleeping
 * @m: the transport
 * @io: the access (struct mp_backend_io)
 *
 * Return: 0 (mp_backend_io_done() follows, with -EAGAIN or -ENOMEM for
 * a transfer started only in part), or -errno with nothing started:
 * -E2BIG for more frames than the window always holds, -ENOMEM, -EAGAIN
 * when the destination's RIFT is full, or mpe_xfer()'s error at once.
 */
int mpe_xfer_submit(struct mpe *m, struct mp_backend_io *io)
{
	u32 stride = min_t(u32, mpe_max_payload(m), U16_MAX);
	size_t frames = DIV_ROUND_UP(iov_iter_count(io->iter), stride);
	struct mpe_xfer *x;
	int ret;

	/*
	 * No more frames than the window holds whatever the round trip (64,
	 * rq.c): a larger transfer would start only in part, and be done
	 * again, whenever the window is busy.
	 */
	if (frames > min_t(u32, m->cfg.window_frames, MP_RIFT_MAX_PARTS))
		return -E2BIG;
	x = kzalloc(sizeof(*x), GFP_NOWAIT | __GFP_NOWARN);
	if (!x)
		return -ENOMEM;
	x->op = io->write ? MP_ETH_OP_WRITE_REQ : MP_ETH_OP_READ_REQ;
	x->dst = io->dst;
	x->offset = io->offset;
	x->iter = io->iter;
	x->io = io;
	ret = mpe_xfer_issue(m, x, true);
	if (ret) {
		kfree(x);
		return ret;
	}
	atomic64_inc(&m->dp.submitted);
	return 0;
}

/**
 * __mpe_xfer_end() - end the submitted transfers on @done
 * @m: the transport
 * @done: taken off a destination's done list under its lock, which the
 *	caller no longer holds; empty on return
 *
 * Called through mpe_xfer_end(), which skips an empty list.
 */
void __mpe_xfer_end(struct mpe *m, struct list_head *done)
{
	struct mpe_xfer *x, *n;

	list_for_each_entry_safe(x, n, done, done_node) {
		struct mp_backend_io *io = x->io;
		int err = mpe_xfer_result(m, x);

		list_del(&x->done_node);
		kfree(x);
		mp_backend_io_done(io, err);
	}
}
