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

int mp_remote_io(struct mp_remote *r, u64 pos, struct iov_iter *iter,
		 bool write)
{
	struct mp_dev *d = r->d;
	bool local = r->devid == READ_ONCE(d->id);
	size_t len = iov_iter_count(iter);
	size_t done, n, step = local ? PAGE_SIZE : MP_REMOTE_CHUNK;
	struct iov_iter it;
	u64 off;
	int ret = 0;

	if (pos > r->size || len > r->size - pos)
		return -EINVAL;
	if (user_backed_iter(iter))
		return -EINVAL;
	for (done = 0; done < len && !ret; done += n) {
		if (READ_ONCE(r->stale))
			return -EIO;
		n = min(len - done, step);
		off = r->dev_off + pos + done;
		it = *iter;
		iov_iter_truncate(&it, n);
		if (local && write)
			ret = mp_local_write_iter(READ_ONCE(d->chip_id), off,
						  &it);
		else if (local)
			ret = mp_local_read_iter(READ_ONCE(d->chip_id), off,
						 &it);
		else if (write)
			ret = mp_backend_write(r->devid, off, &it);
		else
			ret = mp_backend_read(r->devid, off, &it);
		iov_iter_advance(iter, n);
		cond_resched();
	}
	return mp_remote_err(ret);
}

/* The generation a mapping made now belongs to. d->lock held. */
static u32 mp_remote_gen(struct mp_dev *d)
{
	return mp_pool_runtime(d) ? d->pamt.generation : 0;
}

/**
 * mp_remote_map() - map a segment here, once its backing device gave it
 * @t: the segment, its backing device and mode (dax or blk); the pool
 *	device's lock held
 * @extack: for the reason of a failure
 *
 * Return: 0, -EALREADY mapped already, -ENOMEM, or the device node's
 * error.
 */
int mp_remote_map(const struct mp_seg_target *t,
		  struct netlink_ext_ack *extack)
{
	struct mp_dev *d = t->d;
	u64 size = t->devid == d->id ? d->geo.seg_size : d->pamt.seg_size;
	struct mp_remote *r;
	int ret;

	lockdep_assert_held(&d->lock);
	if (mp_remote_find(d, t->id)) {
		NL_SET_ERR_MSG(extack, "segment is mapped on this host already");
		return -EALREADY;
	}
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->d = d;
	r->seg = t->id;
	r->devid = t->devid;
	r->idx = t->idx;
	r->size = size;
	r->dev_off = (u64)t->idx * size;
	r->gen = mp_remote_gen(d);
	/* 0 (no chip has it) for our own device, whose chip id may change */
	r->chip_id = t->devid == d->id ? 0 : d->pamt.dev[t->devid].chip_id;
	r->ops = t->ops;
	r->shared = t->shared;
	spin_lock_init(&r->lock);
	/* the device node can be opened as soon as it exists */
	ret = xa_insert(&d->remote, r->seg, r, GFP_KERNEL);
	if (ret)
		goto err_free;
	ret = r->ops->add(r);
	if (ret) {
		NL_SET_ERR_MSG(extack, "cannot create the segment's device node");
		goto err_erase;
	}
	__module_get(THIS_MODULE);
	return 0;

err_erase:
	xa_erase(&d->remote, r->seg);
err_free:
	kfree_rcu(r, rcu);
	return ret;
}

/**
 * mp_remote_unmap() - remove the mapping of a segment
 * @t: the segment (@t->id); the pool device's lock held
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
	r->ops->del(r);
	xa_erase(&d->remote, r->seg);
	kfree_rcu(r, rcu);
	module_put(THIS_MODULE);
	return 0;
}

/*
 * The pool map changed (pool.c, d->lock held, d->pamt and d->pool_state
 * updated): a mapping stays usable only while the pool is the one it was
 * made in: same state and generation, its backing device still valid.
 */
static int mp_remote_pool_changed(struct notifier_block *nb,
				  unsigned long action, void *data)
{
	struct mp_dev *d = data;
	struct mp_remote *r;
	unsigned long i;
	bool ok;

	lockdep_assert_held(&d->lock);
	xa_for_each(&d->remote, i, r) {
		if (mp_pool_runtime(d))
			ok = r->gen == d->pamt.generation &&
			     r->devid < d->pamt.nr_devs &&
			     d->pamt.dev[r->devid].valid;
		else
			ok = !r->gen && READ_ONCE(d->pool_state) ==
					CMM_MP_POOL_LOCAL;
		if (!ok && !r->stale) {
			WRITE_ONCE(r->stale, true);
			dev_info(d->device, "segment %u (%s): the pool changed; accesses fail until it is onlined again\n",
				 r->seg, cmm_mp_seg_mode_name(r->ops->mode));
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
