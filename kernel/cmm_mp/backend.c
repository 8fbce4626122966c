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
	down_write(&backend_rwsem);
	if (backend_ops == ops) {
		backend_ops = NULL;
		backend_priv = NULL;
		pr_info("backend %s unregistered\n", ops->name);
	}
	up_write(&backend_rwsem);
	/* the pool it formed is gone with it */
	mp_pool_reset(mp_dev_get_default());
}
EXPORT_SYMBOL_GPL(mp_backend_unregister);

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
	struct mp_dev *d = mp_dev_get_default();

	return d && d->va ? d->geo.size : 0;
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
	struct mp_dev *d = mp_dev_get_default();

	return d ? d->geo.seg_size : 0;
}
EXPORT_SYMBOL_GPL(mp_local_seg_size);

/* Called with mem_lock held: may [offset, offset + len) be accessed? */
static int mp_local_check(struct mp_dev *d, u64 offset, u32 len)
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
		u32 state = READ_ONCE(d->segs[i].state);

		if (state == CMM_MP_SEG_ONLINE_RAM || state == CMM_MP_SEG_BUSY)
			return -EACCES;
	}
	return 0;
}

/**
 * mp_local_read() - copy from the local device DRAM, atomically
 * @offset: byte offset in the device DRAM
 * @buf: destination
 * @len: bytes
 *
 * Safe in softirq context. Return: 0, -ERANGE outside the DRAM, -EACCES
 * for a segment in use as System RAM here, -ENODEV without a device.
 */
int mp_local_read(u64 offset, void *buf, u32 len)
{
	struct mp_dev *d = mp_dev_get_default();
	int ret;

	if (!d)
		return -ENODEV;
	spin_lock_bh(&d->mem_lock);
	ret = mp_local_check(d, offset, len);
	if (!ret)
		memcpy(buf, d->va + offset, len);
	spin_unlock_bh(&d->mem_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(mp_local_read);

/**
 * mp_local_write() - copy to the local device DRAM, atomically
 * @offset: byte offset in the device DRAM
 * @buf: source
 * @len: bytes
 *
 * Safe in softirq context. Return: as mp_local_read().
 */
int mp_local_write(u64 offset, const void *buf, u32 len)
{
	struct mp_dev *d = mp_dev_get_default();
	int ret;

	if (!d)
		return -ENODEV;
	spin_lock_bh(&d->mem_lock);
	ret = mp_local_check(d, offset, len);
	if (!ret)
		memcpy(d->va + offset, buf, len);
	spin_unlock_bh(&d->mem_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(mp_local_write);
