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
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct iov_iter;
struct mp_backend_io;
struct mp_dev;
struct mp_seg_target;
struct mps_dev;
struct mpb_dev;

/**
 * enum mp_leg_state - how a copy of a mapped segment stands
 * @MP_LEG_OK: holds the data: reads may go to it, writes go to it
 * @MP_LEG_FAILED: lost (its device failed, was lost, or refused an
 *	access): nothing goes to it until it is rebuilt
 * @MP_LEG_REBUILDING: being rebuilt from the other copy: writes go to it,
 *	reads do not
 */
enum mp_leg_state {
	MP_LEG_OK,
	MP_LEG_FAILED,
	MP_LEG_REBUILDING,
};

/**
 * struct mp_remote_leg - one copy of a mapped segment
 * @seg: its pool-wide segment number
 * @devid: device id of its backing device now (re-resolved by chip id
 *	when the pool re-forms)
 * @idx: its index in the backing device
 * @dev_off: byte offset there (@idx * segment size)
 * @chip_id: chip id of the backing device (device ids change when the
 *	pool re-forms; chip ids do not), 0 for the local device
 * @state: enum mp_leg_state, under mp_remote.lock
 * @lost: its device is not in the pool now (or its segment moved), as
 *	the pool map of the last generation says (mp_remote_follow())
 * @sdev: its device on the cmm_mp bus when another device backs it
 *	(sysfs.c, under its own lock)
 */
struct mp_remote_leg {
	u32 seg;
	u32 devid;
	u32 idx;
	u64 dev_off;
	u64 chip_id;
	u32 state;
	bool lost;
	struct device *sdev;
};

#define MP_REMOTE_MAX_LEGS	2

/**
 * struct mp_remote - a segment this host maps as /dev/mps or /dev/mpb
 * @d: the local pool device
 * @seg: pool-wide segment number (the N of /dev/mps<N>, /dev/mpb<N>), the
 *	first copy's
 * @leg: its copies: one, or two for a mirrored segment (mirror.c)
 * @nr_legs: 1 or 2
 * @size: bytes of the segment
 * @gen: pool generation the mapping was last checked in
 * @pooled: made while the pool was formed (else made on the local device
 *	alone, and stale once a pool forms: segment numbers moved)
 * @ops: its mode (mp_seg_dax_ops or mp_seg_blk_ops)
 * @shared: online in sharing mode
 * @mps: the character device in dax mode
 * @mpb: the block device in blk mode
 * @lock: protects @users, @closing, @rebuild_leg and each leg's state
 * @users: opens of the device node (a mapping keeps its file open);
 *	offline is refused while non-zero (mp_remote_open())
 * @closing: offline in progress: opens fail with -ENXIO, a rebuild stops
 * @stale: the pool re-formed without a copy of it, or with its segment
 *	numbers moved (or was left): every access fails with -EIO, offline
 *	still works
 * @rebuild_sem: mirrored: held for read around each write to the copies,
 *	for write around each piece a rebuild copies (no write lands between
 *	its read of the whole copy and its write of the rebuilt one)
 * @rebuild: the rebuild of a lost copy (mirror.c)
 * @rebuild_leg: the copy it rebuilds, under @lock; NULL when none runs
 * @preempt: under @lock: the user moves that copy, the rebuild stops
 *	before it copies (mp_mirror_preempt())
 * @rebuilt: bytes of it rebuilt so far
 * @event: tells the listeners that the copies changed (mirror.c)
 * @heal: rebuilds a copy lost for an error while its device stayed
 * @reads: spreads reads over two whole remote copies
 * @rcu: freed after a grace period (netlink reads it under RCU)
 */
struct mp_remote {
	struct mp_dev *d;
	u32 seg;
	struct mp_remote_leg leg[MP_REMOTE_MAX_LEGS];
	u32 nr_legs;
	u64 size;
	u32 gen;
	bool pooled;
	const struct mp_seg_ops *ops;
	bool shared;
	struct mps_dev *mps;
	struct mpb_dev *mpb;
	spinlock_t lock;	/* @users, @closing, @preempt, leg[].state */
	unsigned int users;
	bool closing;
	bool stale;
	struct rw_semaphore rebuild_sem;
	struct work_struct rebuild;
	struct mp_remote_leg *rebuild_leg;
	bool preempt;
	u64 rebuilt;
	struct work_struct event;
	struct delayed_work heal;
	atomic_t reads;
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
int mp_remote_submit(struct mp_remote *r, u64 pos, struct mp_backend_io *io);

/* mirror.c: the two copies of a mirrored segment */
int mp_mirror_io(struct mp_remote *r, u64 pos, struct iov_iter *iter,
		 bool write);
int mp_leg_io(struct mp_remote *r, const struct mp_remote_leg *leg, u64 pos,
	      struct iov_iter *iter, bool write);
u32 mp_mirror_redundancy(struct mp_remote *r);
void mp_mirror_leg_lost(struct mp_remote *r, struct mp_remote_leg *leg,
			int err);
int mp_mirror_repair(struct mp_remote *r, struct mp_remote_leg *leg);
int mp_mirror_preempt(struct mp_remote *r, struct mp_remote_leg *leg);
void mp_mirror_init(struct mp_remote *r);
void mp_mirror_stop(struct mp_remote *r);

/* remote.c */
int mp_remote_leg_where(struct mp_dev *d, const struct mp_remote_leg *leg,
			u64 size);
int mp_remote_replace_leg(struct mp_remote *r, struct mp_remote_leg *leg,
			  const struct mp_seg_target *t);

#endif /* _CMM_MP_REMOTE_H */
