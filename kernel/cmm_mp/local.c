// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: the local DRAM, as remote devices reach it.
 *
 * A backend serves other devices' requests from the device DRAM mapped at
 * probe time (mp_dev.va) through these. Each access holds the device's
 * mem_lock around its copy: one request (at most one frame) is applied
 * atomically, so a concurrent reader sees all of a write or none of it,
 * as the device guarantees in sharing mode. Only a segment's holders are
 * served (own.c); segments online as System RAM here belong to this host's
 * page allocator and are refused with -EACCES; the state change to
 * CMM_MP_SEG_BUSY is made under mem_lock (seg_ram.c), so no access is in
 * progress once a segment starts going online.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/spinlock.h>
#include <linux/uio.h>
#include <linux/cmm_mp_backend.h>

#include "cmm_mp.h"

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

