// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: transfers whose caller waits (mpe_xfer(), mpe_write_many()), and
 * how an issuer waits for its responses.
 *
 * With poll_us set, an issuer polls before it sleeps: for its transfer's
 * frames until none finished for poll_us, for room in a full RIFT until
 * poll_us passed. A response then costs no wake-up. Where the port's
 * driver receives through NAPI, the issuer polls the receive queue that
 * responses arrive on (napi_busy_loop(), as a socket with SO_BUSY_POLL
 * does) instead of waiting for its interrupt: the response is taken in
 * the issuer's context, and the queue's interrupt stays off while it
 * polls. The queue is the one the last response came in on (rx.c);
 * until one did, when it is gone, or with poll_napi=N (which the
 * benchmark's transport part sets for a measure of each), the issuer
 * spins on its transfer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/uio.h>
#include <linux/wait.h>
#include <linux/cmm_mp_backend.h>
#include <net/busy_poll.h>

#include "mp_eth.h"

/* NAPI poll budget per round: a transfer's window of frames */
#define MPE_POLL_BUDGET		64

static bool poll_napi = true;
module_param(poll_napi, bool, 0644);
MODULE_PARM_DESC(poll_napi, "with poll_us, poll the port's receive queue (NAPI busy polling) rather than only wait for its interrupt (default Y)");

struct mpe_poll {
	const struct mpe_xfer *x;
	u64 limit;			/* poll_ns */
	u64 last;			/* when a frame last finished */
	u32 seen;			/* frames in flight then */
};

/* Whether to stop polling: @arg's transfer is done, or stalled for limit. */
static bool mpe_poll_end(void *arg)
{
	struct mpe_poll *p = arg;
	u32 v = READ_ONCE(p->x->outstanding);
	u64 now;

	if (!v)
		return true;
	now = ktime_get_ns();
	if (v != p->seen) {
		p->seen = v;
		p->last = now;
		return false;
	}
	return now - p->last > p->limit;
}

#ifdef CONFIG_NET_RX_BUSY_POLL
struct mpe_busy {
	bool (*end)(void *arg);
	void *arg;
};

static bool mpe_busy_end(void *p, unsigned long start_time)
{
	struct mpe_busy *b = p;

	return b->end(b->arg) || signal_pending(current);
}
#endif

/*
 * Poll until @end(@arg) says stop or the CPU is wanted: the receive queue
 * responses come in on first, while there is one (none named yet, gone,
 * poll_napi=N, no busy polling in this kernel: not at all) and no signal
 * is pending, then spinning on @end alone.
 */
static void mpe_poll_until(const struct mpe *m, bool (*end)(void *arg),
			   void *arg)
{
#ifdef CONFIG_NET_RX_BUSY_POLL
	struct mpe_busy b = { .end = end, .arg = arg };
	unsigned int id = READ_ONCE(m->napi_id);

	/* napi_by_id() finds no queue that is gone: it returns at once */
	if (READ_ONCE(poll_napi) && id >= MIN_NAPI_ID)
		napi_busy_loop(id, mpe_busy_end, &b, false, MPE_POLL_BUDGET);
#endif
	while (!end(arg) && !need_resched())
		cpu_relax();
}

/**
 * mpe_poll_done() - poll while the frames of @x finish
 * @m: the transport (cfg.poll_ns set)
 * @x: a transfer in flight
 *
 * Returns when none is in flight, or after poll_ns without one finishing,
 * or when the CPU is wanted: the caller sleeps for the rest. A stalled
 * transfer costs at most poll_ns of CPU.
 */
static void mpe_poll_done(struct mpe *m, const struct mpe_xfer *x)
{
	struct mpe_poll p = {
		.x = x,
		.limit = m->cfg.poll_ns,
		.last = ktime_get_ns(),
		.seen = READ_ONCE(x->outstanding),
	};

	mpe_poll_until(m, mpe_poll_end, &p);
}

struct mpe_poll_credit {
	const struct mpe_rq *q;
	u64 credit;
	u64 end;			/* ktime_get_ns() to stop at */
};

static bool mpe_credit_end(void *arg)
{
	const struct mpe_poll_credit *c = arg;

	return READ_ONCE(c->q->credit) != c->credit || ktime_get_ns() >= c->end;
}

/**
 * mpe_wait_credit() - wait until a frame to q->dst finished since @credit
 * @q: the destination's requester state
 * @credit: q->credit when the issuer found its RIFT full
 *
 * Polls for up to poll_ns first, the receive queue where it can: the
 * responses that free the RIFT are then taken without an interrupt.
 */
void mpe_wait_credit(struct mpe_rq *q, u64 credit)
{
	u64 poll = q->m->cfg.poll_ns;
	struct mpe_poll_credit c = {
		.q = q,
		.credit = credit,
		.end = ktime_get_ns() + poll,
	};

	DEFINE_WAIT(w);

	if (poll)
		mpe_poll_until(q->m, mpe_credit_end, &c);
	/*
	 * Exclusive: a finished request wakes one issuer, not every one
	 * (mpe_entry_done()); an issuer that was woken passes the wake-up
	 * on when it stops (mpe_xfer_issue()), so that none sleeps on while
	 * there is room.
	 */
	for (;;) {
		prepare_to_wait_exclusive(&q->wq, &w, TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(q->credit) != credit)
			break;
		schedule();
	}
	finish_wait(&q->wq, &w);
}

/* Wait until no frame of @x is in flight; its result. */
static int mpe_xfer_wait(struct mpe *m, struct mpe_xfer *x)
{
	struct mpe_rq *q = x->q;
	int ret;

	if (!q)
		return x->error;
	/* Latency: rather spin for a response that is due than sleep. */
	if (m->cfg.poll_ns)
		mpe_poll_done(m, x);
	/* Bounded: every frame in flight finishes within mp_rift_fail_time(). */
	wait_event(x->wq, READ_ONCE(x->outstanding) == 0);
	/* pairs with the unlock after the last mpe_entry_done() */
	spin_lock_bh(&q->lock);
	ret = mpe_xfer_result(m, x);
	spin_unlock_bh(&q->lock);
	return ret;
}

/**
 * mpe_xfer() - read or write iov_iter_count(@iter) bytes of device @dst's DRAM
 * @m: the transport
 * @op: MP_ETH_OP_READ_REQ, MP_ETH_OP_WRITE_REQ or MP_ETH_OP_OWN_REQ
 * @dst: device id
 * @offset: in @dst's DRAM
 * @iter: the caller's bytes, a kernel iterator (kvec or bvec: responses
 *	are copied into it from the receive path) of at most U32_MAX bytes;
 *	left where it was
 *
 * Sleeps. Each frame is applied atomically at the target; frames of one
 * transfer are not ordered among themselves.
 *
 * Return: 0 or the first error: -ETIMEDOUT (a frame ran out of retries),
 * -EHOSTUNREACH (the peer failed recently), a NAK's errno, -ENOMEM,
 * -EINVAL (no bytes, a user-space iterator, a range that wraps, @dst our
 * own device id: the transport carries remote accesses only);
 * with discovery also -EAGAIN (no pool formed: a round is running, or
 * chip ids conflict), -EIO at once for a device that was lost, and
 * -ENETRESET when a new round started while the transfer was in flight.
 */
int mpe_xfer(struct mpe *m, u8 op, u16 dst, u64 offset, struct iov_iter *iter)
{
	struct mpe_xfer x = {
		.op = op, .dst = dst, .offset = offset, .iter = iter,
	};

	mpe_xfer_issue(m, &x, false);
	return mpe_xfer_wait(m, &x);
}

/**
 * mpe_write_many() - write the same bytes to several places at once
 * @m: the transport
 * @n: how many places, at most MP_BACKEND_MAX_PLACES
 * @dst: their device ids
 * @offset: their offsets in those devices' DRAM
 * @from: the bytes, as for mpe_xfer(); left where it was
 * @res: each place's result, as mpe_xfer() would have returned it
 *
 * The copies of a mirrored segment take one write: every place's frames
 * are sent before the first is waited for, so the writes cost one round
 * trip, not one each. Sleeps.
 *
 * Return: 0, or -EINVAL for too many places (@res untouched).
 */
int mpe_write_many(struct mpe *m, u32 n, const u16 *dst, const u64 *offset,
		   struct iov_iter *from, int *res)
{
	struct mpe_xfer x[MP_BACKEND_MAX_PLACES] = {};
	u32 i;

	if (n > MP_BACKEND_MAX_PLACES)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		x[i].op = MP_ETH_OP_WRITE_REQ;
		x[i].dst = dst[i];
		x[i].offset = offset[i];
		x[i].iter = from;
		mpe_xfer_issue(m, &x[i], false);
	}
	for (i = 0; i < n; i++)
		res[i] = mpe_xfer_wait(m, &x[i]);
	return 0;
}
