// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: the copies of a mapped segment, and mirrored segments.
 *
 * A segment mapped here as /dev/mps or /dev/mpb has one copy, or two on
 * two devices (mirrored, issue 27): each write goes to both and completes
 * when both took it; a copy that fails an access (its device timed out,
 * is unreachable or refused) is lost at once and I/O goes on with the
 * other one, returning no error: the segment is degraded. Reads go to a
 * whole copy: ours when one is on the local device, else the two in turn.
 *
 * A lost copy is rebuilt when its device comes back (the pool re-forms
 * with it) or when the user names a replacement (mp_seg_repair()): the
 * device gives the segment to us again (wiped), then the work item copies
 * the whole copy onto it in pieces, reading each piece back to verify it.
 * Writes meanwhile go to both copies; each piece is copied with
 * rebuild_sem held for write and each write holds it for read, so a write
 * lands either before a piece is read from the whole copy or after it
 * was written to the rebuilt one: none is lost, none reordered.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>
#include <linux/cmm_mp_backend.h>

#include "cmm_mp.h"
#include "remote.h"

/* A rebuild copies this much with writes held off. */
#define MP_MIRROR_PIECE		SZ_256K
/* How long an access waits for a round of discovery to end. */
#define MP_LEG_ROUND_WAIT	(10 * HZ)
/* A copy lost for an error, its device still in the pool, is rebuilt so late. */
#define MP_MIRROR_HEAL_DELAY	(5 * HZ)
/* How long a device that came back may take to answer the claim. */
#define MP_MIRROR_CLAIM_WAIT	(30 * HZ)

/* The backend found no pool (a round of discovery runs, or started). */
static bool mp_leg_no_pool(int ret)
{
	return ret == -EAGAIN || ret == -ENETRESET;
}

/* No pool yet for a mapping still valid: worth asking again shortly. */
static bool mp_leg_await_pool(struct mp_remote *r, int ret)
{
	return mp_leg_no_pool(ret) && !READ_ONCE(r->stale);
}

/**
 * mp_leg_io() - move bytes between @iter and one copy of a segment
 * @r: the mapping
 * @leg: the copy
 * @pos: byte offset in the segment
 * @iter: a kernel iterator of at most MP_REMOTE_CHUNK bytes, left where
 *	it was
 * @write: toward the copy
 *
 * While the pool re-forms (a round of discovery runs) the backend answers
 * -EAGAIN at once, and a transfer in flight when the round started fails
 * with -ENETRESET: the round ends in a few heartbeats, with the device or
 * without it (then the mapping follows or goes stale), so the access is
 * tried again until then rather than failed. Writing the same bytes again
 * is harmless: the segment is this host's alone.
 *
 * Return: 0 or the local device's or the backend's error, as it is.
 */
int mp_leg_io(struct mp_remote *r, const struct mp_remote_leg *leg, u64 pos,
	      struct iov_iter *iter, bool write)
{
	unsigned long deadline = jiffies + MP_LEG_ROUND_WAIT;
	struct mp_dev *d = r->d;
	u64 off = leg->dev_off + pos;
	size_t len = iov_iter_count(iter), done, n;
	struct iov_iter it;
	int ret = 0;

	while (leg->chip_id) {
		u32 devid = READ_ONCE(leg->devid);

		it = *iter;
		ret = write ? mp_backend_write(devid, off, &it) :
			      mp_backend_read(devid, off, &it);
		if (!mp_leg_await_pool(r, ret) || time_after(jiffies, deadline))
			return ret;
		msleep(20);
	}
	/* our own device: a page at a time under its memory lock */
	for (done = 0; done < len && !ret; done += n) {
		n = min_t(size_t, len - done, PAGE_SIZE);
		it = *iter;
		iov_iter_advance(&it, done);
		iov_iter_truncate(&it, n);
		if (write)
			ret = mp_local_write_iter(READ_ONCE(d->chip_id),
						  off + done, &it);
		else
			ret = mp_local_read_iter(READ_ONCE(d->chip_id),
						 off + done, &it);
	}
	return ret;
}

static void mp_mirror_changed(struct mp_remote *r)
{
	schedule_work(&r->event);
}

static void mp_mirror_event_fn(struct work_struct *work)
{
	struct mp_remote *r = container_of(work, struct mp_remote, event);

	mp_seg_notify(MP_SEG_EV_MAPPING, r);
}

/**
 * mp_mirror_redundancy() - how whole a mirrored mapping is
 * @r: the mapping
 *
 * Return: enum cmm_mp_seg_redundancy, 0 for a mapping of one copy.
 */
u32 mp_mirror_redundancy(struct mp_remote *r)
{
	u32 i, ok = 0, rebuilding = 0;

	if (r->nr_legs < 2)
		return 0;
	for (i = 0; i < r->nr_legs; i++) {
		u32 state = READ_ONCE(r->leg[i].state);

		ok += state == MP_LEG_OK;
		rebuilding += state == MP_LEG_REBUILDING;
	}
	if (ok == r->nr_legs)
		return CMM_MP_SEG_MIRRORED;
	return rebuilding ? CMM_MP_SEG_REBUILDING : CMM_MP_SEG_DEGRADED;
}

/* Errors after which a device may well answer again: it was slow. */
static bool mp_leg_transient(int ret)
{
	return ret == -ETIMEDOUT || ret == -EHOSTUNREACH;
}

/* Whole copies other than @leg. r->lock held. */
static u32 mp_mirror_others(struct mp_remote *r, struct mp_remote_leg *leg)
{
	u32 i, n = 0;

	for (i = 0; i < r->nr_legs; i++)
		n += &r->leg[i] != leg && r->leg[i].state == MP_LEG_OK;
	return n;
}

/*
 * Lose copy @leg after error @err, unless it is the last whole copy and
 * the error may pass (@keep_last): the last copy is lost only with its
 * device (the pool says so), never for a slow answer, or nothing would
 * be left. A copy lost for an error while its device stays in the pool
 * is rebuilt after MP_MIRROR_HEAL_DELAY (the device was slow, or refused
 * once). Return: true when it is lost.
 */
static bool mp_mirror_lose(struct mp_remote *r, struct mp_remote_leg *leg,
			   int err, bool keep_last)
{
	bool was;

	spin_lock(&r->lock);
	if (keep_last && leg->state == MP_LEG_OK && mp_leg_transient(err) &&
	    !mp_mirror_others(r, leg)) {
		spin_unlock(&r->lock);
		return false;
	}
	was = leg->state != MP_LEG_FAILED;
	leg->state = MP_LEG_FAILED;
	spin_unlock(&r->lock);
	if (!was)
		return true;
	dev_warn(r->d->device, "segment %u: its copy on segment %u (device %u) is lost (%d): degraded\n",
		 r->seg, leg->seg, READ_ONCE(leg->devid), err);
	mp_mirror_changed(r);
	if (keep_last)
		queue_delayed_work(system_long_wq, &r->heal,
				   MP_MIRROR_HEAL_DELAY);
	return true;
}

/**
 * mp_mirror_leg_lost() - the pool lost a copy's device: nothing goes to
 *	the copy any more
 * @r: the mapping
 * @leg: the copy
 * @err: why (logged)
 */
void mp_mirror_leg_lost(struct mp_remote *r, struct mp_remote_leg *leg,
			int err)
{
	mp_mirror_lose(r, leg, err, false);
}

/*
 * @ret is a slow answer of @leg, the last whole copy of a mapping still
 * valid: it is given time rather than lost (nothing would be left).
 */
static bool mp_mirror_slow_last(struct mp_remote *r,
				struct mp_remote_leg *leg, int ret)
{
	bool last;

	if (!mp_leg_transient(ret) || READ_ONCE(r->stale))
		return false;
	spin_lock(&r->lock);
	last = leg->state == MP_LEG_OK && !mp_mirror_others(r, leg);
	spin_unlock(&r->lock);
	return last;
}

/*
 * One access to copy @leg of a mirrored mapping. The last whole copy is
 * given time (MP_LEG_ROUND_WAIT) to answer a slow request: it is asked
 * again until it answers, the pool loses its device or the time is up.
 */
static int mp_mirror_leg_io(struct mp_remote *r, struct mp_remote_leg *leg,
			    u64 pos, struct iov_iter *it, bool write)
{
	unsigned long deadline = jiffies + MP_LEG_ROUND_WAIT;
	int ret;

	for (;;) {
		ret = mp_leg_io(r, leg, pos, it, write);
		if (time_after(jiffies, deadline) ||
		    !mp_mirror_slow_last(r, leg, ret))
			return ret;
		msleep(100);
	}
}

/* The copy reads go to first: ours, else the two whole ones in turn. */
static u32 mp_mirror_first(struct mp_remote *r)
{
	u32 i;

	for (i = 0; i < r->nr_legs; i++)
		if (!r->leg[i].chip_id &&
		    READ_ONCE(r->leg[i].state) == MP_LEG_OK)
			return i;
	return (u32)atomic_inc_return(&r->reads) % r->nr_legs;
}

static int mp_mirror_read(struct mp_remote *r, u64 pos, struct iov_iter *it)
{
	u32 first = mp_mirror_first(r), k;
	int ret = -EIO;

	for (k = 0; k < r->nr_legs; k++) {
		struct mp_remote_leg *leg = &r->leg[(first + k) % r->nr_legs];

		if (READ_ONCE(leg->state) != MP_LEG_OK)
			continue;
		ret = mp_mirror_leg_io(r, leg, pos, it, false);
		if (!ret)
			return 0;
		/* no pool for that long says nothing about the copy */
		if (!mp_leg_no_pool(ret))
			mp_mirror_lose(r, leg, ret, true);
	}
	return ret;
}

/*
 * Would mp_leg_io() or mp_mirror_leg_io() have asked copy @leg again
 * after @ret? The tests they loop on.
 */
static bool mp_mirror_again(struct mp_remote *r, struct mp_remote_leg *leg,
			    int ret)
{
	return mp_leg_await_pool(r, ret) || mp_mirror_slow_last(r, leg, ret);
}

/*
 * The first try of a write to every copy not lost (@state[i] is copy i's
 * state when the write began): our own copy directly, the others in one
 * round trip (mp_backend_write_many()), so a mirrored write costs what a
 * single one does. @res[i] is copy i's result, 1 for a lost copy.
 */
static void mp_mirror_write_once(struct mp_remote *r, u64 pos,
				 struct iov_iter *it, const u32 *state,
				 int *res)
{
	u32 idx[MP_REMOTE_MAX_LEGS], i, n = 0;
	int got[MP_REMOTE_MAX_LEGS], ret;
	u64 off[MP_REMOTE_MAX_LEGS];
	u16 dst[MP_REMOTE_MAX_LEGS];

	for (i = 0; i < r->nr_legs; i++) {
		struct mp_remote_leg *leg = &r->leg[i];

		res[i] = 1;
		if (state[i] == MP_LEG_FAILED)
			continue;
		if (!leg->chip_id) {
			res[i] = mp_mirror_leg_io(r, leg, pos, it, true);
			continue;
		}
		dst[n] = READ_ONCE(leg->devid);
		off[n] = leg->dev_off + pos;
		idx[n++] = i;
	}
	if (!n)
		return;
	ret = mp_backend_write_many(n, dst, off, it, got);
	for (i = 0; i < n; i++)
		res[idx[i]] = ret ? ret : got[i];
}

/*
 * Every copy not lost takes the write; a copy that fails it is lost (its
 * bytes are unknown now), unless no copy took it and none found a pool
 * (mp_leg_no_pool(): the caller sees the error, so no copy holds bytes it
 * was promised), or it is the last whole copy and only slow (the caller
 * sees the error). The write succeeded if a whole copy took it. The
 * copies are written at once; one whose answer mp_mirror_leg_io() would
 * have waited out is then asked again on its own.
 */
static int mp_mirror_write(struct mp_remote *r, u64 pos, struct iov_iter *it)
{
	int res[MP_REMOTE_MAX_LEGS], err = -EIO;
	u32 state[MP_REMOTE_MAX_LEGS], i;
	bool done = false;

	down_read(&r->rebuild_sem);
	for (i = 0; i < r->nr_legs; i++)
		state[i] = READ_ONCE(r->leg[i].state);
	mp_mirror_write_once(r, pos, it, state, res);
	for (i = 0; i < r->nr_legs; i++) {
		if (res[i] == 1)
			continue;
		if (r->leg[i].chip_id &&
		    mp_mirror_again(r, &r->leg[i], res[i]))
			res[i] = mp_mirror_leg_io(r, &r->leg[i], pos, it, true);
		done |= !res[i] && state[i] == MP_LEG_OK;
	}
	for (i = 0; i < r->nr_legs; i++) {
		if (res[i] >= 0)
			continue;
		err = res[i];
		if (done || !mp_leg_no_pool(res[i]))
			mp_mirror_lose(r, &r->leg[i], res[i], true);
	}
	up_read(&r->rebuild_sem);
	return done ? 0 : err;
}

/**
 * mp_mirror_io() - read or write one piece of a mirrored mapping
 * @r: the mapping (two copies)
 * @pos: byte offset in the segment
 * @iter: a kernel iterator of at most MP_REMOTE_CHUNK bytes, left where
 *	it was
 * @write: toward the segment
 *
 * Return: 0 when a whole copy served it, else the last copy's error.
 */
int mp_mirror_io(struct mp_remote *r, u64 pos, struct iov_iter *iter,
		 bool write)
{
	return write ? mp_mirror_write(r, pos, iter) :
		       mp_mirror_read(r, pos, iter);
}

/* Copy one piece from @src to @dst and read it back. rebuild_sem held. */
static int mp_mirror_piece(struct mp_remote *r, struct mp_remote_leg *src,
			   struct mp_remote_leg *dst, u64 off, size_t n,
			   void *buf, void *check)
{
	struct kvec kv = { .iov_base = buf, .iov_len = n };
	struct kvec kc = { .iov_base = check, .iov_len = n };
	struct iov_iter it;
	int ret;

	iov_iter_kvec(&it, ITER_DEST, &kv, 1, n);
	ret = mp_mirror_leg_io(r, src, off, &it, false);
	if (ret) {
		if (!mp_leg_no_pool(ret))
			mp_mirror_lose(r, src, ret, true);
		return ret;
	}
	iov_iter_kvec(&it, ITER_SOURCE, &kv, 1, n);
	ret = mp_leg_io(r, dst, off, &it, true);
	if (ret)
		return ret;
	iov_iter_kvec(&it, ITER_DEST, &kc, 1, n);
	ret = mp_leg_io(r, dst, off, &it, false);
	if (ret)
		return ret;
	return memcmp(buf, check, n) ? -EILSEQ : 0;
}

/*
 * Claim the lost copy's segment again, then mark it rebuilding. A device
 * that just came back may not answer at once (its side of the pool is
 * still forming): it is asked again for a while; a refusal is final.
 */
static int mp_mirror_rebuild_start(struct mp_remote *r,
				   struct mp_remote_leg *dst)
{
	unsigned long deadline = jiffies + MP_MIRROR_CLAIM_WAIT;
	struct mp_remote_leg *other = &r->leg[dst == &r->leg[0] ? 1 : 0];
	int ret;

	for (;;) {
		/* naming the whole copy: a device that restarted forgot it */
		ret = mp_hold_claim_pair(r->d, READ_ONCE(dst->devid), dst->idx,
					 READ_ONCE(other->devid), other->idx,
					 NULL);
		if (ret != -ETIMEDOUT && ret != -EHOSTUNREACH && ret != -EIO &&
		    !mp_leg_no_pool(ret))
			break;
		/*
		 * The pool lost the device (mp_remote_follow() rebuilds the
		 * copy when it is back), or the user moves the copy.
		 */
		if (READ_ONCE(r->closing) || READ_ONCE(dst->lost) ||
		    READ_ONCE(r->preempt) || time_after(jiffies, deadline))
			break;
		msleep(500);
	}
	if (ret)
		return READ_ONCE(r->preempt) ? -ECANCELED : ret;
	/* from here on every write goes to it too */
	down_write(&r->rebuild_sem);
	spin_lock(&r->lock);
	if (r->preempt)
		ret = -ECANCELED;
	else
		dst->state = MP_LEG_REBUILDING;
	spin_unlock(&r->lock);
	if (ret) {
		up_write(&r->rebuild_sem);
		return ret;
	}
	WRITE_ONCE(r->rebuilt, 0);
	up_write(&r->rebuild_sem);
	mp_mirror_changed(r);
	return 0;
}

static void mp_mirror_rebuild_fn(struct work_struct *work)
{
	struct mp_remote *r = container_of(work, struct mp_remote, rebuild);
	struct mp_remote_leg *dst = r->rebuild_leg, *src = NULL;
	void *buf = NULL;
	u64 off;
	size_t n;
	int ret;
	u32 i;

	for (i = 0; i < r->nr_legs; i++)
		if (&r->leg[i] != dst && READ_ONCE(r->leg[i].state) == MP_LEG_OK)
			src = &r->leg[i];
	ret = src ? mp_mirror_rebuild_start(r, dst) : -ENODATA;
	if (!ret) {
		buf = kvmalloc(2 * MP_MIRROR_PIECE, GFP_KERNEL);
		ret = buf ? 0 : -ENOMEM;
	}
	for (off = 0; !ret && off < r->size; off += n) {
		if (READ_ONCE(r->closing) || READ_ONCE(r->stale)) {
			ret = -ECANCELED;
			break;
		}
		n = min_t(u64, r->size - off, MP_MIRROR_PIECE);
		down_write(&r->rebuild_sem);
		ret = mp_mirror_piece(r, src, dst, off, n, buf,
				      buf + MP_MIRROR_PIECE);
		up_write(&r->rebuild_sem);
		if (!ret)
			WRITE_ONCE(r->rebuilt, off + n);
		cond_resched();
	}
	kvfree(buf);
	spin_lock(&r->lock);
	/* a write or the pool may have lost it meanwhile */
	if (!ret && dst->state != MP_LEG_REBUILDING)
		ret = -EIO;
	dst->state = ret ? MP_LEG_FAILED : MP_LEG_OK;
	r->rebuild_leg = NULL;
	spin_unlock(&r->lock);
	if (ret == -ECANCELED && READ_ONCE(r->preempt))
		dev_info(r->d->device, "segment %u: its copy on segment %u is not rebuilt there: the user moves it\n",
			 r->seg, dst->seg);
	else if (ret)
		dev_warn(r->d->device, "segment %u: rebuilding its copy on segment %u failed (%d): still degraded\n",
			 r->seg, dst->seg, ret);
	else
		dev_info(r->d->device, "segment %u: its copy on segment %u is rebuilt, %llu MiB verified: mirrored\n",
			 r->seg, dst->seg, r->size >> 20);
	mp_mirror_changed(r);
}

/**
 * mp_mirror_repair() - rebuild a lost copy in the background
 * @r: a mirrored mapping
 * @leg: its lost copy (MP_LEG_FAILED), where its device is now
 *
 * Return: 0 started, -EBUSY a rebuild runs already, -EALREADY @leg is not
 * lost.
 */
int mp_mirror_repair(struct mp_remote *r, struct mp_remote_leg *leg)
{
	int ret = 0;

	spin_lock(&r->lock);
	if (r->rebuild_leg || r->closing)
		ret = -EBUSY;
	else if (leg->state != MP_LEG_FAILED)
		ret = -EALREADY;
	else
		r->rebuild_leg = leg;
	spin_unlock(&r->lock);
	if (!ret)
		queue_work(system_long_wq, &r->rebuild);
	return ret;
}

/*
 * A copy lost for an error: rebuild it, if its device answers by then
 * (one whose device the pool lost is rebuilt when the device is back).
 */
static void mp_mirror_heal_fn(struct work_struct *work)
{
	struct mp_remote *r = container_of(to_delayed_work(work),
					   struct mp_remote, heal);
	u32 i;

	for (i = 0; i < r->nr_legs; i++)
		if (READ_ONCE(r->leg[i].state) == MP_LEG_FAILED &&
		    !READ_ONCE(r->leg[i].lost))
			mp_mirror_repair(r, &r->leg[i]);
}

/**
 * mp_mirror_preempt() - the user moves lost copy @leg elsewhere: stop a
 *	rebuild of it where it was that still waits for its device
 * @r: a mirrored mapping, the pool device's lock held
 * @leg: its lost copy (MP_LEG_FAILED)
 *
 * A heal (or the device's return) may have started one that asks the
 * device for the segment (MP_MIRROR_CLAIM_WAIT); it stops after its
 * current request. Sleeps.
 * Return: 0 when no rebuild of @leg runs (none starts while the lock is
 * held: the heal is cancelled), -EBUSY when one copies already.
 */
int mp_mirror_preempt(struct mp_remote *r, struct mp_remote_leg *leg)
{
	bool wait;

	lockdep_assert_held(&r->d->lock);
	cancel_delayed_work_sync(&r->heal);
	spin_lock(&r->lock);
	wait = r->rebuild_leg && leg->state == MP_LEG_FAILED;
	if (wait)
		r->preempt = true;
	spin_unlock(&r->lock);
	if (wait)
		flush_work(&r->rebuild);
	WRITE_ONCE(r->preempt, false);
	return READ_ONCE(r->rebuild_leg) ? -EBUSY : 0;
}

/**
 * mp_mirror_init() - a new mapping: its copies' locks and work items
 * @r: the mapping
 */
void mp_mirror_init(struct mp_remote *r)
{
	init_rwsem(&r->rebuild_sem);
	INIT_WORK(&r->rebuild, mp_mirror_rebuild_fn);
	INIT_WORK(&r->event, mp_mirror_event_fn);
	INIT_DELAYED_WORK(&r->heal, mp_mirror_heal_fn);
	atomic_set(&r->reads, 0);
}

/**
 * mp_mirror_stop() - the mapping goes (r->closing set): stop its heal,
 *	its rebuild and its pending event
 * @r: the mapping
 */
void mp_mirror_stop(struct mp_remote *r)
{
	cancel_delayed_work_sync(&r->heal);
	cancel_work_sync(&r->rebuild);
	cancel_work_sync(&r->event);
}
