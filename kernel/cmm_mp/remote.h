/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmm_mp: remote-backed segments mapped on this host.
 *
 * A segment whose backing device is another pool member cannot become
 * System RAM here; once this host owns it (pooling mode) or shares it
 * (sharing mode) it is reached through a character device, /dev/mps<N>
 * (pread/pwrite/mmap, mps.c), or a block device, /dev/mpb<N> (blk-mq,
 * mpb.c), N being the pool-wide segment number. Both move bytes with
 * mp_remote_io(), which resolves the segment to its backing device and
 * offset and goes through the backend.
 */
#ifndef _CMM_MP_REMOTE_H
#define _CMM_MP_REMOTE_H

#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct iov_iter;
struct mp_dev;
struct mps_dev;
struct mpb_dev;

/**
 * struct mp_remote - a remote segment this host maps
 * @d: the local pool device
 * @seg: pool-wide segment number (the N of /dev/mps<N>, /dev/mpb<N>)
 * @devid: device id of the backing device
 * @dev_off: byte offset of the segment in the backing device's DRAM
 * @size: bytes of the segment
 * @gen: pool generation the mapping was made in; an access after the
 *	pool re-formed fails with -EIO until the segment is onlined again
 * @ops: its mode (mp_seg_dax_ops or mp_seg_blk_ops)
 * @shared: online in sharing mode
 * @mps: the character device in dax mode
 * @mpb: the block device in blk mode
 * @idx: the segment's index in its backing device (@dev_off / size)
 * @chip_id: chip id of the backing device (device ids change when the
 *	pool re-forms; chip ids do not), 0 for the local device
 * @lock: protects @users and @closing
 * @users: opens of the device node (a mapping keeps its file open);
 *	offline is refused while non-zero (mp_remote_open())
 * @closing: offline in progress: opens fail with -ENXIO
 * @stale: the pool re-formed (or was left) since the mapping was made:
 *	every access fails with -EIO, offline still works
 * @rcu: freed after a grace period (netlink reads it under RCU)
 */
struct mp_remote {
	struct mp_dev *d;
	u32 seg;
	u32 devid;
	u64 dev_off;
	u64 size;
	u32 gen;
	const struct mp_seg_ops *ops;
	bool shared;
	struct mps_dev *mps;
	struct mpb_dev *mpb;
	u32 idx;
	u64 chip_id;
	spinlock_t lock;	/* @users, @closing */
	unsigned int users;
	bool closing;
	bool stale;
	struct rcu_head rcu;
};

/*
 * mp_remote_open() / mp_remote_close() - count an open of the device node
 * (mps: open/release of the char device; mpb: the gendisk's open/release),
 * so that offline refuses (-EBUSY) while the device is in use. Open fails
 * with -ENXIO once offline started.
 */
int mp_remote_open(struct mp_remote *r);
void mp_remote_close(struct mp_remote *r);

/*
 * mp_remote_io() - read or write iov_iter_count(@iter) bytes at byte @pos
 * of segment @r; sleeps. @iter is a kernel iterator (kvec or bvec: the
 * transport copies from its receive path), advanced past the bytes
 * handled. Any length: the backend splits into frames (each frame atomic
 * at the backing device). Return: 0, -EINVAL beyond the segment or for a
 * user-space iterator, -EIO when the pool re-formed or the backing device
 * is lost, -EACCES refused by the backing device, or the backend's error.
 */
int mp_remote_io(struct mp_remote *r, u64 pos, struct iov_iter *iter,
		 bool write);

#endif /* _CMM_MP_REMOTE_H */
