// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: the backend slot and the local DRAM accessors.
 *
 * One backend at a time. Calls into it hold backend_rwsem for reading, so
 * mp_backend_unregister() returns only once no call is in progress and the
 * backend's module can go away.
 *
 * Remote requests are served from the device DRAM mapped at probe time
 * (mp_dev.va). Each access holds the device's mem_lock around its memcpy:
 * one request (at most one frame) is applied atomically, so a concurrent
 * reader sees all of a write or none of it, as the device guarantees in
 * sharing mode. Segments online as System RAM here belong to this host's
 * page allocator and are refused with -EACCES; the state change to
 * CMM_MP_SEG_BUSY is made under mem_lock (seg_ram.c), so no access is in
 * progress once a segment starts going online.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/sizes.h>
#include <linux/workqueue.h>
#include <linux/module.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/uio.h>
#include <linux/cmm_mp_backend.h>

#include "cmm_mp.h"

static DECLARE_RWSEM(backend_rwsem);
static const struct mp_backend_ops *backend_ops;
static void *backend_priv;

/**
 * mp_backend_register() - make @ops the pool device's backend
 * @ops: the operations; must stay valid until mp_backend_unregister()
 * @priv: passed back to every operation
 *
 * Return: 0, -EINVAL for incomplete ops, -EBUSY when a backend is
 * registered already.
 */
int mp_backend_register(const struct mp_backend_ops *ops, void *priv)
{
	int ret = 0;

	if (!ops || !ops->read || !ops->write || !ops->peer_stats)
		return -EINVAL;
	down_write(&backend_rwsem);
	if (backend_ops) {
		ret = -EBUSY;
	} else {
		backend_ops = ops;
		backend_priv = priv;
		pr_info("backend %s registered\n", ops->name);
	}
	up_write(&backend_rwsem);
	return ret;
}
EXPORT_SYMBOL_GPL(mp_backend_register);

/**
 * mp_backend_unregister() - remove a backend
 * @ops: what was registered
 *
 * Waits for calls in progress to return.
 */
void mp_backend_unregister(const struct mp_backend_ops *ops)
{
	int idx;

	down_write(&backend_rwsem);
	if (backend_ops == ops) {
		backend_ops = NULL;
		backend_priv = NULL;
		pr_info("backend %s unregistered\n", ops->name);
	}
	up_write(&backend_rwsem);
	/* the pool it formed is gone with it */
	idx = mp_dev_srcu_lock();
	mp_pool_reset(mp_dev_get_default());
	mp_dev_srcu_unlock(idx);
}
EXPORT_SYMBOL_GPL(mp_backend_unregister);

/* A backend may have formed a pool with the device: it is in use. */
bool mp_backend_active(void)
{
	bool ret;

	down_read(&backend_rwsem);
	ret = backend_ops;
	up_read(&backend_rwsem);
	return ret;
}

int mp_backend_read(u16 dst, u64 offset, struct iov_iter *to)
{
	int ret = -ENODEV;

	down_read(&backend_rwsem);
	if (backend_ops)
		ret = backend_ops->read(backend_priv, dst, offset, to);
	up_read(&backend_rwsem);
	return ret;
}

int mp_backend_write(u16 dst, u64 offset, struct iov_iter *from)
{
	int ret = -ENODEV;

	down_read(&backend_rwsem);
	if (backend_ops)
		ret = backend_ops->write(backend_priv, dst, offset, from);
	up_read(&backend_rwsem);
	return ret;
}

int mp_backend_own(u16 dst, u32 cmd, u32 seg, u32 *owner, u32 *sharers)
{
	int ret = -ENODEV;

	*owner = CMM_MP_NONE;
	*sharers = 0;
	down_read(&backend_rwsem);
	if (backend_ops)
		ret = backend_ops->own ?
		      backend_ops->own(backend_priv, dst, cmd, seg, owner,
				       sharers) :
		      -EOPNOTSUPP;
	up_read(&backend_rwsem);
	return ret;
}

int mp_backend_set_key(u32 op, u32 id, const u8 *key)
{
	int ret = -ENODEV;

	down_read(&backend_rwsem);
	if (backend_ops)
		ret = backend_ops->set_key ?
		      backend_ops->set_key(backend_priv, op, id, key) :
		      -EOPNOTSUPP;
	up_read(&backend_rwsem);
	return ret;
}

int mp_backend_peer_stats(unsigned int idx, struct mp_backend_peer *p)
{
	int ret = -ENODEV;

	down_read(&backend_rwsem);
	if (backend_ops)
		ret = backend_ops->peer_stats(backend_priv, idx, p);
	up_read(&backend_rwsem);
	return ret;
}

/**
 * mp_local_size() - bytes of local device DRAM remote devices may address
 *
 * Return: the size, 0 when there is no pool device.
 */
u64 mp_local_size(void)
{
	int idx = mp_dev_srcu_lock();
	struct mp_dev *d = mp_dev_get_default();
	u64 size = d && d->va ? d->geo.size : 0;

	mp_dev_srcu_unlock(idx);
	return size;
}
EXPORT_SYMBOL_GPL(mp_local_size);

/**
 * mp_local_seg_size() - the segment size of the local device
 *
 * Every device of a pool must use the same; discovery builds the PAMT
 * with it. Return: the size, 0 when there is no pool device.
 */
u64 mp_local_seg_size(void)
{
	int idx = mp_dev_srcu_lock();
	struct mp_dev *d = mp_dev_get_default();
	u64 size = d ? d->geo.seg_size : 0;

	mp_dev_srcu_unlock(idx);
	return size;
}
EXPORT_SYMBOL_GPL(mp_local_seg_size);

/* Called with mem_lock held: is the device of chip id @src a sharer of @s? */
static int mp_seg_sharer(const struct mp_seg *s, u64 src)
{
	u32 i;

	for (i = 0; i < s->nr_sharers; i++)
		if (s->sharer[i] == src)
			return i;
	return -1;
}

/*
 * Called with mem_lock held: may the device of chip id @src access
 * [offset, offset + len)? Only the holders of every segment it touches:
 * its owner, or one of its sharers. Not a segment online as System RAM
 * here, nor one being wiped. A segment nobody holds answers nobody,
 * unless it is one of the first mp_open_segs (the tests' barrier area).
 */
static int mp_local_check(struct mp_dev *d, u64 src, u64 offset, u32 len,
			  bool write)
{
	u64 last;
	u32 i;

	if (!d || !d->va)
		return -ENODEV;
	if (!len || offset >= d->geo.size || len > d->geo.size - offset)
		return -ERANGE;
	last = offset + len - 1;
	for (i = div64_u64(offset, d->geo.seg_size);
	     i <= div64_u64(last, d->geo.seg_size); i++) {
		struct mp_seg *s = &d->segs[i];
		u32 state = READ_ONCE(s->state);

		if (state == CMM_MP_SEG_ONLINE_RAM || state == CMM_MP_SEG_BUSY ||
		    s->zeroing || !src)
			return -EACCES;
		if (s->owner) {
			if (s->owner != src)
				return -EACCES;
		} else if (s->nr_sharers) {
			if (mp_seg_sharer(s, src) < 0)
				return -EACCES;
		} else if (i >= mp_open_segs) {
			return -EACCES;
		}
	}
	/* an open segment written by anyone is wiped before it is handed */
	for (i = div64_u64(offset, d->geo.seg_size);
	     write && i <= div64_u64(last, d->geo.seg_size); i++)
		if (!d->segs[i].owner && !d->segs[i].nr_sharers)
			d->segs[i].dirty = true;
	return 0;
}

/**
 * mp_local_access() - copy between the local device DRAM and a requester
 * @src: chip id of the requester (0: not a known member)
 * @offset: byte offset in the device DRAM
 * @len: bytes
 * @write: @copy writes to the DRAM (false: reads from it)
 * @copy: moves the bytes, under the device's memory lock (atomic)
 * @arg: for @copy
 *
 * The one place the DRAM is reached for another host: each call is
 * checked against the holders of every segment it touches and applied
 * atomically, so that a transport can copy straight between its frames
 * and the DRAM (one copy) instead of through a buffer of its own.
 * Safe in softirq context. Return: 0, @copy's error, -ERANGE outside the
 * DRAM, -EACCES for a segment that @src does not hold (owner or sharer),
 * one in use as System RAM here or being wiped, -ENODEV without a device.
 */
int mp_local_access(u64 src, u64 offset, u32 len, bool write,
		    mp_local_copy_t copy, void *arg)
{
	int idx = mp_dev_srcu_lock();
	struct mp_dev *d = mp_dev_get_default();
	int ret = -ENODEV;

	if (d) {
		spin_lock_bh(&d->mem_lock);
		ret = mp_local_check(d, src, offset, len, write);
		if (!ret)
			ret = copy(arg, d->va + offset, len);
		spin_unlock_bh(&d->mem_lock);
	}
	mp_dev_srcu_unlock(idx);
	return ret;
}
EXPORT_SYMBOL_GPL(mp_local_access);

static int mp_copy_out(void *buf, void *dram, u32 len)
{
	memcpy(buf, dram, len);
	return 0;
}

static int mp_copy_in(void *buf, void *dram, u32 len)
{
	memcpy(dram, buf, len);
	return 0;
}

/**
 * mp_local_read() - copy from the local device DRAM, atomically
 * @src: chip id of the requester (0: not a known member)
 * @offset: byte offset in the device DRAM
 * @buf: destination
 * @len: bytes
 *
 * Return: as mp_local_access().
 */
int mp_local_read(u64 src, u64 offset, void *buf, u32 len)
{
	return mp_local_access(src, offset, len, false, mp_copy_out, buf);
}
EXPORT_SYMBOL_GPL(mp_local_read);

/**
 * mp_local_write() - copy to the local device DRAM, atomically
 * @src: chip id of the requester (0: not a known member)
 * @offset: byte offset in the device DRAM
 * @buf: source
 * @len: bytes
 *
 * Return: as mp_local_access().
 */
int mp_local_write(u64 src, u64 offset, const void *buf, u32 len)
{
	return mp_local_access(src, offset, len, true, mp_copy_in, (void *)buf);
}
EXPORT_SYMBOL_GPL(mp_local_write);

/* A copy of the caller's iterator, so that its own stays where it was. */
static int mp_copy_to_iter(void *arg, void *dram, u32 len)
{
	struct iov_iter it = *(struct iov_iter *)arg;

	return copy_to_iter(dram, len, &it) == len ? 0 : -EFAULT;
}

static int mp_copy_from_iter(void *arg, void *dram, u32 len)
{
	struct iov_iter it = *(struct iov_iter *)arg;

	return copy_from_iter(dram, len, &it) == len ? 0 : -EFAULT;
}

/**
 * mp_local_read_iter() - copy from the local device DRAM into an iterator
 * @src: chip id of the requester (0: not a known member)
 * @offset: byte offset in the device DRAM
 * @to: a kernel iterator (kvec or bvec: the copy runs under a spinlock)
 *	of at most U32_MAX bytes; left where it was
 *
 * Return: as mp_local_access(), -EINVAL for a user-space iterator.
 */
int mp_local_read_iter(u64 src, u64 offset, struct iov_iter *to)
{
	size_t len = iov_iter_count(to);

	if (user_backed_iter(to) || len > U32_MAX)
		return -EINVAL;
	return mp_local_access(src, offset, len, false, mp_copy_to_iter, to);
}
EXPORT_SYMBOL_GPL(mp_local_read_iter);

/**
 * mp_local_write_iter() - copy from an iterator to the local device DRAM
 * @src: chip id of the requester (0: not a known member)
 * @offset: byte offset in the device DRAM
 * @from: as @to of mp_local_read_iter()
 *
 * Return: as mp_local_read_iter().
 */
int mp_local_write_iter(u64 src, u64 offset, struct iov_iter *from)
{
	size_t len = iov_iter_count(from);

	if (user_backed_iter(from) || len > U32_MAX)
		return -EINVAL;
	return mp_local_access(src, offset, len, true, mp_copy_from_iter,
			       from);
}
EXPORT_SYMBOL_GPL(mp_local_write_iter);

/* Zero @len bytes of the device DRAM at @off, in steps (process context). */
static void mp_dev_zero(struct mp_dev *d, u64 off, u64 len)
{
	u64 n;

	for (; len; off += n, len -= n) {
		n = min_t(u64, len, SZ_2M);
		memset(d->va + off, 0, n);
		cond_resched();
	}
}

/*
 * Segments are wiped here, in process context: when nobody holds them any
 * more, and before a hand-over of one that may hold data. Nobody may
 * access a segment meanwhile, and a claim of it answers -EINPROGRESS
 * until it is done (the claimant asks again).
 */
static void mp_own_zero_fn(struct work_struct *work)
{
	int idx = mp_dev_srcu_lock();
	struct mp_dev *d = mp_dev_get_default();
	u32 i;

	if (!d || !d->va)
		goto out;
	for (i = 0; i < d->geo.nr_segs; i++) {
		struct mp_seg *s = &d->segs[i];

		if (!READ_ONCE(s->zeroing))
			continue;
		mp_dev_zero(d, (u64)i * d->geo.seg_size, s->size);
		spin_lock_bh(&d->mem_lock);
		s->zeroing = false;
		/* a holder that waited for the wipe writes from now on */
		s->dirty = s->owner || s->nr_sharers;
		spin_unlock_bh(&d->mem_lock);
	}
out:
	mp_dev_srcu_unlock(idx);
}

static DECLARE_WORK(mp_own_zero_work, mp_own_zero_fn);

/*
 * Wait for the wipes scheduled so far: none may run once the module goes,
 * and a local claim waits for it (netlink.c).
 */
void mp_own_flush(void)
{
	flush_work(&mp_own_zero_work);
}

/*
 * Called with mem_lock held: wipe @s in the work item if it may hold data
 * and no wipe is pending. True: the caller schedules the work. False also
 * without a mapping to wipe it through (nothing can access it then).
 */
static bool mp_own_zero(struct mp_dev *d, struct mp_seg *s)
{
	if (!s->dirty || s->zeroing || !d->va)
		return false;
	s->zeroing = true;
	return true;
}

/**
 * mp_seg_wipe() - give up a segment that leaves this host's System RAM
 * @d: its device
 * @s: the segment, CMM_MP_SEG_BUSY (no access), offlined and removed
 *
 * Its last contents were this host's pages (process memory, page cache,
 * slab): no other member may ever read them. It has no owner from now
 * on and is wiped in the work item; nobody may access it, and a claim
 * waits, until that is done.
 */
void mp_seg_wipe(struct mp_dev *d, struct mp_seg *s)
{
	bool zero;

	spin_lock_bh(&d->mem_lock);
	s->owner = 0;
	zero = mp_own_zero(d, s);	/* dirty since it went online */
	spin_unlock_bh(&d->mem_lock);
	if (zero)
		schedule_work(&mp_own_zero_work);
}

/**
 * mp_dev_set_members() - the chip id of each device id of the pool
 * @d: the local device
 * @chips: @nr chip ids by device id, 0 for a lost device; NULL and 0 for
 *	the local device alone
 * @nr: entries
 *
 * Holders are kept by chip id; this only names them by device id.
 */
void mp_dev_set_members(struct mp_dev *d, const u64 *chips, u32 nr)
{
	nr = min_t(u32, nr, ARRAY_SIZE(d->members));
	spin_lock_bh(&d->mem_lock);
	if (nr)
		memcpy(d->members, chips, nr * sizeof(*chips));
	d->nr_members = nr;
	spin_unlock_bh(&d->mem_lock);
}

/* Called with mem_lock held: the device id of chip @chip, CMM_MP_GONE. */
static u32 mp_member_id(const struct mp_dev *d, u64 chip)
{
	u32 i;

	if (!d->nr_members)
		return chip == d->chip_id ? 0 : CMM_MP_GONE;
	for (i = 0; i < d->nr_members; i++)
		if (d->members[i] == chip)
			return i;
	return CMM_MP_GONE;
}

/* Called with mem_lock held: as mp_seg_holders(). */
static u32 __mp_seg_holders(const struct mp_dev *d, const struct mp_seg *s,
			    u32 *sharers)
{
	u32 i, id;

	*sharers = 0;
	for (i = 0; i < s->nr_sharers; i++) {
		id = mp_member_id(d, s->sharer[i]);
		if (id < MP_OWN_MAX_SHARERS)
			*sharers |= BIT(id);
	}
	return s->owner ? mp_member_id(d, s->owner) : CMM_MP_NONE;
}

/**
 * mp_seg_holders() - who holds a local segment, by device id
 * @d: its device
 * @s: the segment
 * @sharers: bitmap of the device ids of its sharers in the pool now
 *
 * Return: the device id of its owner, CMM_MP_NONE for none, CMM_MP_GONE
 * for an owner that is not in the pool now (a lost device keeps what it
 * held until it returns or the segment is reclaimed).
 */
u32 mp_seg_holders(struct mp_dev *d, struct mp_seg *s, u32 *sharers)
{
	u32 owner;

	spin_lock_bh(&d->mem_lock);
	owner = __mp_seg_holders(d, s, sharers);
	spin_unlock_bh(&d->mem_lock);
	return owner;
}

/* mp_local_own() on @d, NULL for none */
static int mp_local_own_dev(struct mp_dev *d, u64 src, u32 cmd, u32 seg,
			    u32 *owner, u32 *sharers)
{
	bool zero = false;
	struct mp_seg *s;
	int ret = 0, i;

	*owner = CMM_MP_NONE;
	*sharers = 0;
	if (!d)
		return -ENODEV;
	if (seg >= d->geo.nr_segs)
		return -ERANGE;
	if (!src)
		return -EPERM;
	s = &d->segs[seg];
	spin_lock_bh(&d->mem_lock);
	switch (cmd) {
	case MP_OWN_QUERY:
		break;
	case MP_OWN_CLAIM:
		if (s->owner == src) {
			ret = s->zeroing ? -EINPROGRESS : 0;
			break;
		}
		if (s->owner || s->nr_sharers ||
		    READ_ONCE(s->state) != CMM_MP_SEG_OFFLINE) {
			ret = -EBUSY;
			break;
		}
		s->owner = src;
		zero = mp_own_zero(d, s);
		if (s->zeroing)
			ret = -EINPROGRESS;
		else
			s->dirty = true;
		break;
	case MP_OWN_RELEASE:
		if (!s->owner)
			break;
		if (s->owner != src) {
			ret = -EPERM;
			break;
		}
		if (READ_ONCE(s->state) != CMM_MP_SEG_OFFLINE) {
			ret = -EBUSY;	/* System RAM here: offline it first */
			break;
		}
		s->owner = 0;
		zero = mp_own_zero(d, s);
		break;
	case MP_OWN_SHARE:
		if (mp_seg_sharer(s, src) >= 0) {
			ret = s->zeroing ? -EINPROGRESS : 0;
			break;
		}
		if (s->owner || READ_ONCE(s->state) != CMM_MP_SEG_OFFLINE) {
			ret = -EBUSY;
			break;
		}
		if (s->nr_sharers == ARRAY_SIZE(s->sharer)) {
			ret = -ERANGE;
			break;
		}
		if (!s->nr_sharers)
			zero = mp_own_zero(d, s);
		s->sharer[s->nr_sharers++] = src;
		if (s->zeroing)
			ret = -EINPROGRESS;
		else
			s->dirty = true;
		break;
	case MP_OWN_UNSHARE:
		i = mp_seg_sharer(s, src);
		if (i < 0) {
			if (s->nr_sharers || s->owner)
				ret = -EPERM;
			break;
		}
		s->sharer[i] = s->sharer[--s->nr_sharers];
		if (!s->nr_sharers)
			zero = mp_own_zero(d, s);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	*owner = __mp_seg_holders(d, s, sharers);
	spin_unlock_bh(&d->mem_lock);
	if (zero)
		schedule_work(&mp_own_zero_work);
	return ret;
}

/**
 * mp_local_own() - arbitrate the ownership of a local segment
 * @src: chip id of the requester (0: not a known member, refused)
 * @cmd: enum mp_own_cmd (QUERY, CLAIM, RELEASE, SHARE, UNSHARE)
 * @seg: local segment index
 * @owner: the owner after the command, by device id (CMM_MP_NONE for
 *	none, CMM_MP_GONE for a device not in the pool now)
 * @sharers: the bitmap of the sharers' device ids after the command
 *
 * Exactly one owner, or a set of sharers, at a time, decided under
 * mem_lock and kept by chip id, so a device id that changes hands when the
 * pool is renumbered takes nothing with it. A claim by the owner, a share
 * by a sharer and a release or unshare of a segment the sender does not
 * hold (when nobody else holds it) succeed again, so a command executed
 * twice answers the same. A segment that nobody holds any more is wiped,
 * and one that may hold data is wiped before it is handed to anyone (the
 * claim or share answers -EINPROGRESS until then). Safe in softirq context.
 *
 * Return: 0, -EBUSY held by others (or a state change in progress),
 * -EINPROGRESS, -EPERM release by a non-holder or an unknown sender,
 * -ERANGE no such segment or no room for another sharer, -EINVAL unknown
 * command, -ENODEV without a device.
 */
int mp_local_own(u64 src, u32 cmd, u32 seg, u32 *owner, u32 *sharers)
{
	int idx = mp_dev_srcu_lock();
	int ret = mp_local_own_dev(mp_dev_get_default(), src, cmd, seg, owner,
				   sharers);

	mp_dev_srcu_unlock(idx);
	return ret;
}
EXPORT_SYMBOL_GPL(mp_local_own);
