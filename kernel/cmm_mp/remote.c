// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: the segments mapped on this host as /dev/mps<N> or /dev/mpb<N>.
 *
 * The segment core (seg.c) makes the backing device give the segment to
 * this host (CLAIM in pooling mode, SHARE in sharing mode) and then maps it
 * here with mp_remote_map(), the online of the dax and blk modes, which
 * creates the mode's device node (mps.c, mpb.c); offline unmaps it
 * (refused while the device node is open) before giving it back. Each
 * mapping is a struct mp_remote in mp_dev.remote, keyed by pool-wide
 * segment number. A mapping belongs to
 * the pool generation it was made in: when the pool re-forms or is left,
 * it goes stale and every access fails with -EIO until it is offlined and
 * onlined again (segment numbers may have moved). Each mapping holds a
 * module reference, as a segment online as System RAM does.
 *
 * mp_remote_io() moves bytes between a kernel iterator (the caller's
 * pages: no bounce buffer) and the segment: to the local device with
 * mp_local_read_iter()/mp_local_write_iter() (a segment of our own device,
 * mapped as dax or blk), to another device through the backend, which
 * splits transfers into frames, each applied atomically by the backing
 * device, and copies each frame's bytes straight to or from the iterator.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/uio.h>
#include <linux/cmm_mp_backend.h>

#include "cmm_mp.h"
#include "remote.h"

/* Largest piece handed to the backend at once (its length is a u32). */
#define MP_REMOTE_CHUNK		SZ_1M

/**
 * mp_remote_find() - the mapping of pool-wide segment @seg on this host
 * @d: the pool device
 * @seg: pool-wide segment number
 *
 * Call with d->lock held, or under rcu_read_lock() to read its fields.
 * Return: the mapping or NULL.
 */
struct mp_remote *mp_remote_find(struct mp_dev *d, u32 seg)
{
	return xa_load(&d->remote, seg);
}

/**
 * mp_remote_devnode() - the device node of a mapping
 * @r: the mapping
 * @buf: filled with "/dev/mps5" or "/dev/mpb5"
 * @len: size of @buf
 *
 * Return: the length written (snprintf).
 */
int mp_remote_devnode(struct mp_remote *r, char *buf, size_t len)
{
	return snprintf(buf, len, "/dev/%s%u", r->ops->node, r->seg);
}

/**
 * mp_remote_state() - the state of a copy of a segment mapped here
 * @r: the mapping (no lock needed)
 * @leg: one of its copies
 * @owner: set to this host's device id in pooling mode, else CMM_MP_NONE
 *
 * Told from the mapping, as the pool map of the last generation has it:
 * this host holds the copy, owned in pooling mode, shared in sharing
 * mode; failed, held by nobody, once its device is lost (as netlink
 * lists a segment of a lost device) or the mapping went stale (its
 * segment number may name another segment now). Its device on the cmm_mp
 * bus and netlink's events both read it here.
 *
 * Return: enum cmm_mp_seg_state.
 */
u32 mp_remote_state(struct mp_remote *r, const struct mp_remote_leg *leg,
		    u32 *owner)
{
	*owner = CMM_MP_NONE;
	if (READ_ONCE(r->stale) || READ_ONCE(leg->lost))
		return CMM_MP_SEG_FAILED;
	if (r->shared)
		return CMM_MP_SEG_SHARED;
	*owner = READ_ONCE(r->d->id);
	return CMM_MP_SEG_OWNED;
}

int mp_remote_open(struct mp_remote *r)
{
	int ret = 0;

	spin_lock(&r->lock);
	if (r->closing)
		ret = -ENXIO;
	else
		r->users++;
	spin_unlock(&r->lock);
	return ret;
}

void mp_remote_close(struct mp_remote *r)
{
	spin_lock(&r->lock);
	if (!WARN_ON_ONCE(!r->users))
		r->users--;
	spin_unlock(&r->lock);
}

/* Everything the backend or the local device may answer becomes -EIO but
 * a refusal (-EACCES), a lack of memory and an interrupted wait.
 */
static int mp_remote_err(int ret)
{
	switch (ret) {
	case 0:
	case -EACCES:
	case -ENOMEM:
	case -EINTR:
		return ret;
	default:
		return -EIO;
	}
}

/* Whether @len bytes at @pos lie within segment @r. */
static bool mp_remote_fits(const struct mp_remote *r, u64 pos, size_t len)
{
	return pos <= r->size && len <= r->size - pos;
}

int mp_remote_io(struct mp_remote *r, u64 pos, struct iov_iter *iter,
		 bool write)
{
	size_t len = iov_iter_count(iter);
	size_t done, n;
	struct iov_iter it;
	int ret = 0;

	if (!mp_remote_fits(r, pos, len) || user_backed_iter(iter))
		return -EINVAL;
	for (done = 0; done < len && !ret; done += n) {
		if (READ_ONCE(r->stale))
			return -EIO;
		n = min_t(size_t, len - done, MP_REMOTE_CHUNK);
		it = *iter;
		iov_iter_truncate(&it, n);
		if (r->nr_legs > 1)
			ret = mp_mirror_io(r, pos + done, &it, write);
		else
			ret = mp_leg_io(r, &r->leg[0], pos + done, &it, write);
		iov_iter_advance(iter, n);
		cond_resched();
	}
	return mp_remote_err(ret);
}

/**
 * mp_remote_submit() - start an access to segment @r without sleeping
 * @r: the mapping
 * @pos: byte offset in the segment
 * @io: the access, io->iter, io->write and io->done set; the rest is
 *	filled in here
 *
 * Only the plain case: one copy, on another device, in a mapping of the
 * current pool, of a size the backend takes at once. Everything else, and
 * every error of a submitted access, is for mp_remote_io() in a context
 * that can sleep: it waits for the pool to form again, writes every copy
 * of a mirror, and reads or writes our own device.
 *
 * Return: 0 (io->done follows), or -errno with nothing started.
 */
int mp_remote_submit(struct mp_remote *r, u64 pos, struct mp_backend_io *io)
{
	const struct mp_remote_leg *leg = &r->leg[0];
	size_t len = iov_iter_count(io->iter);

	if (!len || !mp_remote_fits(r, pos, len))
		return -EINVAL;
	if (r->nr_legs != 1 || READ_ONCE(r->stale) || !leg->chip_id ||
	    READ_ONCE(leg->lost))
		return -EAGAIN;
	io->dst = READ_ONCE(leg->devid);
	io->offset = leg->dev_off + pos;
	return mp_backend_submit(io);
}

/* The generation a mapping made now belongs to. d->lock held. */
static u32 mp_remote_gen(struct mp_dev *d)
{
	return mp_pool_runtime(d) ? d->pamt.generation : 0;
}

/* Where copy @leg of a mapping is: segment @t. d->lock held. */
static void mp_remote_leg_init(struct mp_dev *d, struct mp_remote_leg *leg,
			       const struct mp_seg_target *t, u64 size)
{
	leg->seg = t->id;
	leg->devid = t->devid;
	leg->idx = t->idx;
	leg->dev_off = (u64)t->idx * size;
	/* 0 (no chip has it) for our own device, whose chip id may change */
	leg->chip_id = t->devid == d->id ? 0 : d->pamt.dev[t->devid].chip_id;
	WRITE_ONCE(leg->lost, false);
}

/**
 * mp_remote_map() - map a segment here, once its backing device gave it
 * @t: the segment, its backing device and mode (dax or blk), and the
 *	segment of its second copy (@t->mirror), given to us too; the pool
 *	device's lock held
 * @extack: for the reason of a failure
 *
 * A mirrored mapping is found under both segment numbers. Each copy on
 * another device becomes a device on the cmm_mp bus (MP_SEG_EV_MAPPED).
 *
 * Return: 0, -EALREADY mapped already, -ENOMEM, or the error of the
 * device node or of the segment's devices.
 */
int mp_remote_map(const struct mp_seg_target *t,
		  struct netlink_ext_ack *extack)
{
	struct mp_dev *d = t->d;
	u64 size = t->devid == d->id ? d->geo.seg_size : d->pamt.seg_size;
	struct mp_remote *r;
	int ret;

	lockdep_assert_held(&d->lock);
	if (mp_remote_find(d, t->id) ||
	    (t->mirror && mp_remote_find(d, t->mirror->id))) {
		NL_SET_ERR_MSG(extack, "segment is mapped on this host already");
		return -EALREADY;
	}
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->d = d;
	r->seg = t->id;
	r->size = size;
	r->gen = mp_remote_gen(d);
	r->pooled = mp_pool_runtime(d);
	r->ops = t->ops;
	r->shared = t->shared;
	spin_lock_init(&r->lock);
	mp_mirror_init(r);
	mp_remote_leg_init(d, &r->leg[0], t, size);
	r->nr_legs = 1;
	if (t->mirror)
		mp_remote_leg_init(d, &r->leg[r->nr_legs++], t->mirror, size);
	/* the device node can be opened as soon as it exists */
	ret = xa_insert(&d->remote, r->seg, r, GFP_KERNEL);
	if (ret)
		goto err_free;
	if (t->mirror) {
		ret = xa_insert(&d->remote, t->mirror->id, r, GFP_KERNEL);
		if (ret)
			goto err_erase;
	}
	ret = r->ops->add(r);
	if (ret) {
		NL_SET_ERR_MSG(extack, "cannot create the segment's device node");
		goto err_erase_mirror;
	}
	ret = mp_seg_notify(MP_SEG_EV_MAPPED, r);
	if (ret) {
		NL_SET_ERR_MSG(extack, "cannot add the segment's device");
		goto err_del;
	}
	__module_get(THIS_MODULE);
	return 0;

err_del:
	r->ops->del(r);
err_erase_mirror:
	if (t->mirror)
		xa_erase(&d->remote, t->mirror->id);
err_erase:
	xa_erase(&d->remote, r->seg);
err_free:
	kfree_rcu(r, rcu);
	return ret;
}

/**
 * mp_remote_replace_leg() - move the lost copy of a mirrored mapping
 * @r: the mapping
 * @leg: its copy in MP_LEG_FAILED (no access goes to it)
 * @t: the segment that replaces it, given to us already; the pool
 *	device's lock held
 *
 * The mapping is found under @t's number from now on, no longer under
 * the lost copy's.
 *
 * Return: 0, or -ENOMEM / -EBUSY from the segment table.
 */
int mp_remote_replace_leg(struct mp_remote *r, struct mp_remote_leg *leg,
			  const struct mp_seg_target *t)
{
	struct mp_dev *d = r->d;
	u32 old = leg->seg;
	int ret;

	lockdep_assert_held(&d->lock);
	if (READ_ONCE(leg->state) != MP_LEG_FAILED)
		return -EBUSY;
	ret = xa_insert(&d->remote, t->id, r, GFP_KERNEL);
	if (ret)
		return ret;
	/* nothing reads a lost copy's fields: it stays lost until rebuilt */
	mp_remote_leg_init(d, leg, t, r->size);
	xa_erase(&d->remote, old);
	/* the copy's device follows it; the mapping works without one */
	mp_seg_notify(MP_SEG_EV_MAPPED, r);
	return 0;
}

/**
 * mp_remote_unmap() - remove the mapping of a segment
 * @t: the segment (@t->id, either copy's of a mirrored one); the pool
 *	device's lock held
 * @extack: for the reason of a failure
 *
 * Return: 0, -ENOENT not mapped, -EBUSY its device node is open (or
 * mapped, or swapped on...): nothing changes then.
 */
int mp_remote_unmap(const struct mp_seg_target *t,
		    struct netlink_ext_ack *extack)
{
	struct mp_dev *d = t->d;
	struct mp_remote *r = mp_remote_find(d, t->id);
	int ret = 0;
	u32 i;

	lockdep_assert_held(&d->lock);
	if (!r)
		return -ENOENT;
	spin_lock(&r->lock);
	if (r->users)
		ret = -EBUSY;
	else
		r->closing = true;
	spin_unlock(&r->lock);
	if (ret && r->ops->mode == CMM_MP_SEG_MODE_BLK)
		NL_SET_ERR_MSG(extack, "the block device is in use (mount, swap, open)");
	else if (ret)
		NL_SET_ERR_MSG(extack, "device is open or mapped by a process: close it first");
	if (ret)
		return ret;
	mp_mirror_stop(r);
	mp_seg_notify(MP_SEG_EV_UNMAPPED, r);
	r->ops->del(r);
	for (i = 0; i < r->nr_legs; i++)
		xa_erase(&d->remote, r->leg[i].seg);
	kfree_rcu(r, rcu);
	module_put(THIS_MODULE);
	return 0;
}

/**
 * mp_remote_leg_where() - the device id copy @leg has in the pool now
 * @d: the pool device, d->lock held, in CMM_MP_POOL_RUNTIME
 * @leg: the copy
 * @size: the mapping's segment size
 *
 * Return: the device id, or -ENOENT when its device is lost or gone, or
 * its segment number moved (a device that joined renumbered the pool).
 */
int mp_remote_leg_where(struct mp_dev *d, const struct mp_remote_leg *leg,
			u64 size)
{
	const struct mp_pamt_entry *e;
	int devid;

	if (!leg->chip_id)
		return d->first_seg + leg->idx == leg->seg &&
		       d->geo.seg_size == size ? d->id : -ENOENT;
	devid = mp_pamt_devid_of(&d->pamt, leg->chip_id);
	if (devid < 0)
		return -ENOENT;
	e = &d->pamt.dev[devid];
	if (d->pamt.seg_size != size || e->first_seg + leg->idx != leg->seg)
		return -ENOENT;
	return devid;
}

static void mp_remote_go_stale(struct mp_dev *d, struct mp_remote *r)
{
	if (r->stale)
		return;
	WRITE_ONCE(r->stale, true);
	dev_info(d->device, "segment %u (%s): the pool changed; accesses fail until it is onlined again\n",
		 r->seg, cmm_mp_seg_mode_name(r->ops->mode));
	/* it reads failed now (mp_remote_state()): netlink and udev hear */
	mp_seg_notify(MP_SEG_EV_MAPPING, r);
}

/*
 * A new generation of the pool: each copy follows its device by chip id.
 * A copy whose device is lost (or whose segment number moved) is lost: a
 * mirrored mapping goes on with the other copy, degraded; a lost copy
 * whose device is back is rebuilt. With no copy left, the mapping goes
 * stale. d->lock held.
 */
static void mp_remote_follow(struct mp_dev *d, struct mp_remote *r)
{
	u32 i, found = 0;
	int devid;

	for (i = 0; i < r->nr_legs; i++) {
		struct mp_remote_leg *leg = &r->leg[i];

		devid = mp_remote_leg_where(d, leg, r->size);
		WRITE_ONCE(leg->lost, devid < 0);
		if (devid < 0) {
			if (r->nr_legs > 1)
				mp_mirror_leg_lost(r, leg, -EHOSTUNREACH);
			continue;
		}
		found++;
		WRITE_ONCE(leg->devid, devid);
		if (r->nr_legs > 1 && READ_ONCE(leg->state) == MP_LEG_FAILED)
			mp_mirror_repair(r, leg);
	}
	if (!found)
		mp_remote_go_stale(d, r);
	r->gen = d->pamt.generation;
}

/*
 * The pool map changed (pool.c, d->lock held, d->pamt and d->pool_state
 * updated). A mapping made on the local device alone is usable only
 * while there is no pool (a pool numbers segments anew). One made in a
 * pool waits out a round of discovery (accesses meanwhile wait in
 * mp_leg_io()) and follows its copies into the generation it forms; it
 * goes stale when the pool is left or cannot form (conflict).
 */
static int mp_remote_pool_changed(struct notifier_block *nb,
				  unsigned long action, void *data)
{
	struct mp_dev *d = data;
	u32 state = READ_ONCE(d->pool_state);
	struct mp_remote *r;
	unsigned long i;

	lockdep_assert_held(&d->lock);
	xa_for_each(&d->remote, i, r) {
		/* a mirrored mapping is there twice: once is enough */
		if (i != r->seg || r->stale)
			continue;
		if (!r->pooled) {
			if (state != CMM_MP_POOL_LOCAL)
				mp_remote_go_stale(d, r);
		} else if (state == CMM_MP_POOL_RUNTIME) {
			if (r->gen != d->pamt.generation)
				mp_remote_follow(d, r);
		} else if (state != CMM_MP_POOL_DISCOVERY) {
			mp_remote_go_stale(d, r);
		}
	}
	return NOTIFY_OK;
}

static struct notifier_block mp_remote_pool_nb = {
	.notifier_call = mp_remote_pool_changed,
};

int mp_remote_init(void)
{
	return mp_pool_notifier_register(&mp_remote_pool_nb);
}

void mp_remote_exit(void)
{
	mp_pool_notifier_unregister(&mp_remote_pool_nb);
}
