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
#include <linux/mp_eth.h>
#include <linux/module.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>

#include "cmm_mp.h"
#include "backend.h"

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

int mp_backend_read(u16 dst, u64 offset, void *buf, u32 len)
{
	int ret = -ENODEV;

	down_read(&backend_rwsem);
	if (backend_ops)
		ret = backend_ops->read(backend_priv, dst, offset, buf, len);
	up_read(&backend_rwsem);
	return ret;
}

int mp_backend_write(u16 dst, u64 offset, const void *buf, u32 len)
{
	int ret = -ENODEV;

	down_read(&backend_rwsem);
	if (backend_ops)
		ret = backend_ops->write(backend_priv, dst, offset, buf, len);
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

/*
 * Called with mem_lock held: may device @src access [offset, offset + len)?
 * Not a segment online as System RAM here, nor one owned by another
 * device, shared by others than @src, or being zeroed for its new
 * holders. Segments nobody holds stay open to every device (the
 * transport's tests and barriers).
 */
static int mp_local_check(struct mp_dev *d, u32 src, u64 offset, u32 len)
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
		u32 owner = READ_ONCE(s->owner);

		if (state == CMM_MP_SEG_ONLINE_RAM || state == CMM_MP_SEG_BUSY)
			return -EACCES;
		if (s->zeroing || (owner != CMM_MP_NONE && owner != src))
			return -EACCES;
		if (s->sharers &&
		    (src >= MP_OWN_MAX_SHARERS || !(s->sharers & BIT(src))))
			return -EACCES;
	}
	return 0;
}

/**
 * mp_local_read() - copy from the local device DRAM, atomically
 * @src: device id of the requester
 * @offset: byte offset in the device DRAM
 * @buf: destination
 * @len: bytes
 *
 * Safe in softirq context. Return: 0, -ERANGE outside the DRAM, -EACCES
 * for a segment in use as System RAM here or owned by another device than
 * @src, -ENODEV without a device.
 */
int mp_local_read(u32 src, u64 offset, void *buf, u32 len)
{
	int idx = mp_dev_srcu_lock();
	struct mp_dev *d = mp_dev_get_default();
	int ret = -ENODEV;

	if (d) {
		spin_lock_bh(&d->mem_lock);
		ret = mp_local_check(d, src, offset, len);
		if (!ret)
			memcpy(buf, d->va + offset, len);
		spin_unlock_bh(&d->mem_lock);
	}
	mp_dev_srcu_unlock(idx);
	return ret;
}
EXPORT_SYMBOL_GPL(mp_local_read);

/**
 * mp_local_write() - copy to the local device DRAM, atomically
 * @src: device id of the requester
 * @offset: byte offset in the device DRAM
 * @buf: source
 * @len: bytes
 *
 * Safe in softirq context. Return: as mp_local_read().
 */
int mp_local_write(u32 src, u64 offset, const void *buf, u32 len)
{
	int idx = mp_dev_srcu_lock();
	struct mp_dev *d = mp_dev_get_default();
	int ret = -ENODEV;

	if (d) {
		spin_lock_bh(&d->mem_lock);
		ret = mp_local_check(d, src, offset, len);
		if (!ret)
			memcpy(d->va + offset, buf, len);
		spin_unlock_bh(&d->mem_lock);
	}
	mp_dev_srcu_unlock(idx);
	return ret;
}
EXPORT_SYMBOL_GPL(mp_local_write);

/*
 * Segments handed to a new owner are zeroed here, in process context, in
 * steps: a claim answers -EINPROGRESS until it is done (the claimant asks
 * again) and nobody may access the segment meanwhile.
 */
static void mp_own_zero_fn(struct work_struct *work)
{
	int idx = mp_dev_srcu_lock();
	struct mp_dev *d = mp_dev_get_default();
	u64 off, n;
	u32 i;

	if (!d || !d->va)
		goto out;
	for (i = 0; i < d->geo.nr_segs; i++) {
		struct mp_seg *s = &d->segs[i];
		u64 base = (u64)i * d->geo.seg_size;

		if (!READ_ONCE(s->zeroing))
			continue;
		for (off = 0; off < s->size; off += n) {
			n = min_t(u64, s->size - off, SZ_2M);
			memset(d->va + base + off, 0, n);
			cond_resched();
		}
		spin_lock_bh(&d->mem_lock);
		s->zeroing = false;
		spin_unlock_bh(&d->mem_lock);
	}
out:
	mp_dev_srcu_unlock(idx);
}

static DECLARE_WORK(mp_own_zero_work, mp_own_zero_fn);

/*
 * Wait for the zeroing scheduled so far: none may run once the module goes,
 * and a local claim waits for it (netlink.c).
 */
void mp_own_flush(void)
{
	flush_work(&mp_own_zero_work);
}

/* Called with mem_lock held: hand @s to new holders, zeroing it first. */
static bool mp_own_zero(struct mp_dev *d, struct mp_seg *s)
{
	if (!d->va)
		return false;
	s->zeroing = true;
	return true;
}

/* mp_local_own() on @d, NULL for none */
static int mp_local_own_dev(struct mp_dev *d, u32 src, u32 cmd, u32 seg,
			    u32 *owner, u32 *sharers)
{
	bool zero = false;
	struct mp_seg *s;
	int ret = 0;

	*owner = CMM_MP_NONE;
	*sharers = 0;
	if (!d)
		return -ENODEV;
	if (seg >= d->geo.nr_segs)
		return -ERANGE;
	s = &d->segs[seg];
	spin_lock_bh(&d->mem_lock);
	switch (cmd) {
	case MP_ETH_OWN_QUERY:
		break;
	case MP_ETH_OWN_CLAIM:
		if (s->owner == src) {
			ret = s->zeroing ? -EINPROGRESS : 0;
			break;
		}
		if (s->owner != CMM_MP_NONE || s->sharers ||
		    READ_ONCE(s->state) != CMM_MP_SEG_OFFLINE) {
			ret = -EBUSY;
			break;
		}
		WRITE_ONCE(s->owner, src);
		if (s->handed != src + 1 && mp_own_zero(d, s)) {
			zero = true;
			ret = -EINPROGRESS;
		}
		s->handed = src + 1;
		break;
	case MP_ETH_OWN_RELEASE:
		if (s->owner == CMM_MP_NONE)
			break;
		if (s->owner != src)
			ret = -EPERM;
		else if (READ_ONCE(s->state) != CMM_MP_SEG_OFFLINE)
			ret = -EBUSY;	/* System RAM here: offline it first */
		else
			WRITE_ONCE(s->owner, CMM_MP_NONE);
		break;
	case MP_ETH_OWN_SHARE:
		if (src >= MP_OWN_MAX_SHARERS) {
			ret = -ERANGE;
			break;
		}
		if (s->sharers & BIT(src)) {
			ret = s->zeroing ? -EINPROGRESS : 0;
			break;
		}
		if (s->owner != CMM_MP_NONE ||
		    READ_ONCE(s->state) != CMM_MP_SEG_OFFLINE) {
			ret = -EBUSY;
			break;
		}
		if (!s->sharers)
			zero = mp_own_zero(d, s);
		s->sharers |= BIT(src);
		if (s->zeroing)
			ret = -EINPROGRESS;
		s->handed = 0;	/* whoever claims it next gets it zeroed */
		break;
	case MP_ETH_OWN_UNSHARE:
		if (src < MP_OWN_MAX_SHARERS && (s->sharers & BIT(src)))
			s->sharers &= ~BIT(src);
		else if (s->sharers || s->owner != CMM_MP_NONE)
			ret = -EPERM;
		break;
	default:
		ret = -EINVAL;
		break;
	}
	*owner = s->owner;
	*sharers = s->sharers;
	spin_unlock_bh(&d->mem_lock);
	if (zero)
		schedule_work(&mp_own_zero_work);
	return ret;
}

/**
 * mp_local_own() - arbitrate the ownership of a local segment
 * @src: device id of the requester
 * @cmd: enum mp_eth_own_cmd (QUERY, CLAIM, RELEASE, SHARE, UNSHARE)
 * @seg: local segment index
 * @owner: the owner after the command (CMM_MP_NONE for none)
 * @sharers: the bitmap of sharers after the command
 *
 * Exactly one owner, or a set of sharers, at a time, decided under
 * mem_lock. A claim by the owner, a share by a sharer and a release or
 * unshare of a segment the sender does not hold (when nobody else holds
 * it) succeed again, so a command executed twice answers the same. A
 * segment handed to another owner than its last one, or to the first
 * member of a new set of sharers, is zeroed first (the claim or share
 * answers -EINPROGRESS until then). Safe in softirq context.
 *
 * Return: 0, -EBUSY held by others (or a state change in progress),
 * -EINPROGRESS, -EPERM release by a non-holder, -ERANGE no such segment
 * or a sender beyond the sharers bitmap, -EINVAL unknown command,
 * -ENODEV without a device.
 */
int mp_local_own(u32 src, u32 cmd, u32 seg, u32 *owner, u32 *sharers)
{
	int idx = mp_dev_srcu_lock();
	int ret = mp_local_own_dev(mp_dev_get_default(), src, cmd, seg, owner,
				   sharers);

	mp_dev_srcu_unlock(idx);
	return ret;
}
EXPORT_SYMBOL_GPL(mp_local_own);
