// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: the segment core - what a segment is, and how it changes state.
 *
 * A pool-wide segment number names a segment of the local device (struct
 * mp_seg) or one of another member (the PAMT knows its backing device).
 * Onlining one is always the same walk: its backing device gives it to
 * this host (CLAIM in pooling mode, SHARE in sharing mode: own.c for our
 * own device, the backend for another one), then the mode brings it up
 * here; if that fails, the segment is given back. Offlining walks back.
 * Each mode is one struct mp_seg_ops: System RAM (seg_ram.c), /dev/mps
 * (mps.c) and /dev/mpb (mpb.c). The state every interface reports is
 * derived here, once (mp_seg_state()); netlink and sysfs are clients that
 * parse, call and reply, and hear of changes through mp_seg_notifier.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/notifier.h>
#include <linux/sched/signal.h>
#include <linux/cmm_mp_backend.h>

#include "cmm_mp.h"
#include "remote.h"

/* How long a backing device may take to wipe a segment it hands over. */
#define MP_SEG_ZERO_WAIT	(60 * HZ)

static const struct mp_seg_ops *const mp_seg_modes[__CMM_MP_SEG_MODE_MAX] = {
	[CMM_MP_SEG_MODE_RAM] = &mp_seg_ram_ops,
	[CMM_MP_SEG_MODE_DAX] = &mp_seg_dax_ops,
	[CMM_MP_SEG_MODE_BLK] = &mp_seg_blk_ops,
};

static BLOCKING_NOTIFIER_HEAD(mp_seg_notifier);

/**
 * mp_seg_notifier_register() - hear of every state change of a segment
 * @nb: called with the struct mp_seg of the local device that changed
 *
 * Return: 0.
 */
int mp_seg_notifier_register(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&mp_seg_notifier, nb);
}

/**
 * mp_seg_notifier_unregister() - stop hearing of changes
 * @nb: as registered
 */
void mp_seg_notifier_unregister(struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&mp_seg_notifier, nb);
}

static void mp_seg_changed(struct mp_seg *s)
{
	blocking_notifier_call_chain(&mp_seg_notifier, 0, s);
}

/**
 * mp_seg_find() - what pool-wide segment number @id names
 * @d: the pool device, d->lock held
 * @id: pool-wide segment number
 * @local: set to the local segment, NULL for another device's
 *
 * Return: 0 for a segment of the local device, -EREMOTE for one of
 * another member, -ENOENT for none.
 */
int mp_seg_find(struct mp_dev *d, u32 id, struct mp_seg **local)
{
	*local = NULL;
	if (id >= d->first_seg && id - d->first_seg < d->geo.nr_segs) {
		*local = &d->segs[id - d->first_seg];
		return 0;
	}
	if (mp_pool_runtime(d) && id < d->pamt.nr_segs)
		return -EREMOTE;
	return -ENOENT;
}

/**
 * mp_seg_where() - the backing device of another member's segment
 * @d: the pool device, d->lock held, in CMM_MP_POOL_RUNTIME
 * @id: pool-wide segment number
 * @devid: set to its backing device's id
 * @idx: set to its index there
 *
 * Return: 0, -ENOENT when the device is lost or there is no such segment.
 */
int mp_seg_where(struct mp_dev *d, u32 id, u32 *devid, u32 *idx)
{
	u64 nha;

	if (mp_pamt_seg(&d->pamt, id, devid, &nha, NULL) ||
	    !d->pamt.dev[*devid].valid)
		return -ENOENT;
	*idx = id - d->pamt.dev[*devid].first_seg;
	return 0;
}

/**
 * mp_seg_state() - the state of a local segment as every interface shows it
 * @s: the segment
 * @owner: set to its owner's device id, CMM_MP_NONE or CMM_MP_GONE
 * @sharers: set to the bitmap of its sharers' device ids
 *
 * A segment that is not System RAM here but held by a device reads
 * "owned" (one owner) or "shared" (sharers).
 *
 * Return: enum cmm_mp_seg_state.
 */
u32 mp_seg_state(struct mp_seg *s, u32 *owner, u32 *sharers)
{
	u32 state = READ_ONCE(s->state);

	*owner = mp_seg_holders(s->dev, s, sharers);
	if (state == CMM_MP_SEG_OFFLINE && *owner != CMM_MP_NONE)
		return CMM_MP_SEG_OWNED;
	if (state == CMM_MP_SEG_OFFLINE && *sharers)
		return CMM_MP_SEG_SHARED;
	return state;
}

/**
 * mp_seg_remote_holders() - who holds another member's segment
 * @d: the pool device, d->lock held, in CMM_MP_POOL_RUNTIME
 * @id: pool-wide segment number of another device's segment
 * @sharers: set to the bitmap of its sharers
 *
 * Holders are known at the backing device only: it is asked. d->lock is
 * dropped meanwhile; the caller must look at the pool again.
 *
 * Return: the owner's device id, or CMM_MP_NONE.
 */
u32 mp_seg_remote_holders(struct mp_dev *d, u32 id, u32 *sharers)
{
	u32 devid, idx, owner = CMM_MP_NONE;

	*sharers = 0;
	if (mp_seg_where(d, id, &devid, &idx))
		return CMM_MP_NONE;
	mutex_unlock(&d->lock);
	if (mp_backend_own(devid, MP_OWN_QUERY, idx, &owner, sharers)) {
		owner = CMM_MP_NONE;
		*sharers = 0;
	}
	mutex_lock(&d->lock);
	return owner;
}

/**
 * mp_seg_remote_state() - the state of another member's segment
 * @d: the pool device, d->lock held, in CMM_MP_POOL_RUNTIME
 * @id: pool-wide segment number
 * @owner: its owner (mp_seg_remote_holders())
 * @sharers: its sharers
 * @devid: set to its backing device (0 when the pool has no such segment)
 * @nha: set to its normalized host address
 *
 * Return: enum cmm_mp_seg_state.
 */
u32 mp_seg_remote_state(struct mp_dev *d, u32 id, u32 owner, u32 sharers,
			u32 *devid, u64 *nha)
{
	*devid = 0;
	*nha = 0;
	if (mp_pamt_seg(&d->pamt, id, devid, nha, NULL) ||
	    !d->pamt.dev[*devid].valid)
		return CMM_MP_SEG_FAILED;
	if (owner != CMM_MP_NONE)
		return CMM_MP_SEG_OWNED;
	return sharers ? CMM_MP_SEG_SHARED : CMM_MP_SEG_OFFLINE;
}

/**
 * mp_seg_usage() - how a segment is used on this host
 * @d: the pool device
 * @id: pool-wide segment number
 * @sharers: its sharers in the pool (mp_seg_state() and the like)
 * @u: filled: its mode (CMM_MP_SEG_MODE_RAM when it is not mapped here,
 *	so that every host describes an unmapped segment alike), whether it
 *	is shared (mapped here in sharing mode, or else held by sharers of
 *	the pool), and its device node ("" for none)
 *
 * Return: true when it is mapped here as /dev/mps or /dev/mpb.
 */
bool mp_seg_usage(struct mp_dev *d, u32 id, u32 sharers,
		  struct mp_seg_use *u)
{
	struct mp_remote *r;

	u->mode = CMM_MP_SEG_MODE_RAM;
	u->shared = sharers != 0;
	u->devnode[0] = '\0';
	rcu_read_lock();
	r = mp_remote_find(d, id);
	if (r) {
		u->mode = r->ops->mode;
		u->shared = r->shared;
		mp_remote_devnode(r, u->devnode, sizeof(u->devnode));
	}
	rcu_read_unlock();
	return r;
}

/* Why a backing device refused a holder change. */
static void mp_seg_own_msg(int ret, u32 owner, u32 sharers,
			   struct netlink_ext_ack *extack)
{
	switch (ret) {
	case 0:
		break;
	case -EBUSY:
		if (owner == CMM_MP_NONE && sharers)
			NL_SET_ERR_MSG(extack, "segment is shared by other devices");
		else
			NL_SET_ERR_MSG(extack, "segment is owned by another device");
		break;
	case -EPERM:
		NL_SET_ERR_MSG(extack, "only a holder may offline this segment");
		break;
	case -ETIMEDOUT:
		NL_SET_ERR_MSG(extack, "the backing device is still zeroing the segment");
		break;
	case -EINTR:
		NL_SET_ERR_MSG(extack, "interrupted while the backing device zeroes the segment");
		break;
	case -ERANGE:
		NL_SET_ERR_MSG(extack, "backing device: no such segment, or we cannot share it");
		break;
	default:
		NL_SET_ERR_MSG(extack, "the backing device did not answer the ownership request");
		break;
	}
}

/*
 * Ask device @devid to arbitrate its segment @idx for us (@cmd, enum
 * mp_own_cmd): the local device directly, another one through the
 * backend. A claim or share of a segment being zeroed answers
 * -EINPROGRESS: our own device's wipe is waited for (slow memory, CXL
 * under TCG, can take tens of seconds), another device is asked again,
 * less and less often, until MP_SEG_ZERO_WAIT has passed.
 */
static int mp_seg_own(struct mp_dev *d, u32 devid, u32 cmd, u32 idx,
		      u32 *owner, u32 *sharers, struct netlink_ext_ack *extack)
{
	unsigned long deadline = jiffies + MP_SEG_ZERO_WAIT;
	unsigned int pause = 1;
	int ret;

	for (;;) {
		bool local = devid == READ_ONCE(d->id);

		if (local)
			ret = mp_local_own(READ_ONCE(d->chip_id), cmd, idx,
					   owner, sharers);
		else
			ret = mp_backend_own(devid, cmd, idx, owner, sharers);
		if (ret != -EINPROGRESS)
			break;
		if (time_after(jiffies, deadline)) {
			ret = -ETIMEDOUT;
			break;
		}
		if (local) {
			mp_own_flush();
			continue;
		}
		if (msleep_interruptible(pause) || signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		pause = min(pause * 2, 100U);
	}
	mp_seg_own_msg(ret, *owner, *sharers, extack);
	return ret;
}

/* Give back what mp_seg_own() gave us; the caller has nothing to report. */
static void mp_seg_give_back(struct mp_dev *d, u32 devid, u32 idx,
			     bool shared)
{
	u32 owner, sharers;

	mp_seg_own(d, devid, shared ? MP_OWN_UNSHARE : MP_OWN_RELEASE, idx,
		   &owner, &sharers, NULL);
}

/*
 * Where @t's segment lives and whether mode @t->ops may take it now:
 * t->devid, t->idx. d->lock held.
 */
static int mp_seg_place(struct mp_dev *d, struct mp_seg_target *t,
			struct netlink_ext_ack *extack)
{
	struct mp_seg *now;
	int ret = mp_seg_find(d, t->id, &now);
	bool ram = t->ops->mode == CMM_MP_SEG_MODE_RAM;

	if (ret == -ENOENT || now != t->local) {
		NL_SET_ERR_MSG(extack, "the pool changed meanwhile: try again");
		return -EAGAIN;
	}
	if (mp_remote_find(d, t->id)) {
		if (ram) {
			NL_SET_ERR_MSG(extack, "segment is mapped here: offline it first");
			return -EBUSY;
		}
		NL_SET_ERR_MSG(extack, "segment is online on this host already");
		return -EALREADY;
	}
	if (t->local) {
		if (READ_ONCE(t->local->state) != CMM_MP_SEG_OFFLINE) {
			if (ram) {
				NL_SET_ERR_MSG(extack, "segment is not offline");
				return -EALREADY;
			}
			NL_SET_ERR_MSG(extack, "segment is System RAM here: offline it first");
			return -EBUSY;
		}
		t->devid = d->id;
		t->idx = t->local->id;
		return 0;
	}
	if (mp_seg_where(d, t->id, &t->devid, &t->idx)) {
		NL_SET_ERR_MSG(extack, "the segment's backing device is lost");
		return -EHOSTUNREACH;
	}
	return 0;
}

/* The mode @mode asks for fits segment @t (local or not, sharing). */
static int mp_seg_mode_check(struct mp_seg_target *t, u32 mode,
			     struct netlink_ext_ack *extack)
{
	/* System RAM takes whole memory blocks; smaller segments are dax */
	if (mode == MP_SEG_MODE_AUTO)
		mode = t->local && mp_seg_whole_blocks(&t->d->geo) ?
		       CMM_MP_SEG_MODE_RAM : CMM_MP_SEG_MODE_DAX;
	if (mode >= ARRAY_SIZE(mp_seg_modes)) {
		NL_SET_ERR_MSG(extack, "no such segment mode");
		return -EINVAL;
	}
	t->ops = mp_seg_modes[mode];
	if (!t->local && !t->ops->any_device) {
		NL_SET_ERR_MSG(extack,
			       "a segment of another device cannot be System RAM here: online it as dax or blk");
		return -EINVAL;
	}
	/* memory is hot-added in whole blocks: a part of one never is */
	if (t->ops->mode == CMM_MP_SEG_MODE_RAM &&
	    !mp_seg_whole_blocks(&t->d->geo)) {
		NL_SET_ERR_MSG(extack,
			       "segments are smaller than a memory block (seg_size=): online them as dax or blk");
		return -EOPNOTSUPP;
	}
	if (t->shared && !t->ops->shareable) {
		NL_SET_ERR_MSG(extack, "sharing mode needs dax or blk, not System RAM");
		return -EINVAL;
	}
	if (t->memmap_on_memory && t->ops->mode != CMM_MP_SEG_MODE_RAM) {
		NL_SET_ERR_MSG(extack, "memmap_on_memory is for System RAM only");
		return -EINVAL;
	}
	return 0;
}

/**
 * mp_seg_online() - bring pool-wide segment @id up on this host
 * @d: the pool device
 * @id: pool-wide segment number
 * @mode: enum cmm_mp_seg_mode, or MP_SEG_MODE_AUTO: System RAM for a
 *	segment of the local device, dax for another one or for one smaller
 *	than a memory block
 * @flags: MP_SEG_SHARED: sharing mode (dax and blk only);
 *	MP_SEG_MEMMAP_ON_MEMORY: the memmap of System RAM on the segment
 * @extack: for the reason of a failure
 *
 * The backing device gives the segment to this host (alone, or as one of
 * its sharers), then the mode brings it up; if that fails, it is given
 * back. Sleeps.
 *
 * Return: 0; -ENOENT no such segment; -EINVAL a mode that does not fit;
 * -EALREADY online here already; -EBUSY held by another device or in use
 * here in another mode; -EAGAIN the pool changed meanwhile;
 * -EHOSTUNREACH its backing device is lost; the mode's error.
 */
int mp_seg_online(struct mp_dev *d, u32 id, u32 mode, u32 flags,
		  struct netlink_ext_ack *extack)
{
	bool shared = flags & MP_SEG_SHARED;
	struct mp_seg_target t = {
		.d = d, .id = id, .shared = shared,
		.memmap_on_memory = flags & MP_SEG_MEMMAP_ON_MEMORY,
	};
	u32 devid, idx, owner, sharers;
	int ret;

	mutex_lock(&d->lock);
	ret = mp_seg_find(d, id, &t.local);
	if (ret == -ENOENT)
		NL_SET_ERR_MSG(extack, "no such segment");
	else
		ret = mp_seg_mode_check(&t, mode, extack);
	if (!ret)
		ret = mp_seg_place(d, &t, extack);
	mutex_unlock(&d->lock);
	if (ret)
		return ret;
	devid = t.devid;
	idx = t.idx;
	ret = mp_seg_own(d, devid, shared ? MP_OWN_SHARE : MP_OWN_CLAIM, idx,
			 &owner, &sharers, extack);
	if (ret)
		return ret;

	mutex_lock(&d->lock);
	ret = mp_seg_place(d, &t, extack);
	if (!ret && (t.devid != devid || t.idx != idx)) {
		NL_SET_ERR_MSG(extack, "the pool changed meanwhile: try again");
		ret = -EAGAIN;
	}
	if (!ret)
		ret = t.ops->online(&t, extack);
	mutex_unlock(&d->lock);
	/* online meanwhile by another request of ours: keep what it holds */
	if (ret && ret != -EALREADY)
		mp_seg_give_back(d, devid, idx, shared);
	if (!ret && t.local)
		mp_seg_changed(t.local);
	return ret;
}

/*
 * Offline of a segment mapped here (dax, blk): unmap it (refused while its
 * device node is in use), then give it back. A mapping of an older pool is
 * given back only if its backing device is still there, under whatever
 * device id it has now. d->lock held on entry, dropped on return.
 */
static int mp_seg_unmap(struct mp_dev *d, struct mp_remote *r,
			struct netlink_ext_ack *extack)
{
	struct mp_seg_target t = {
		.d = d, .id = r->seg, .ops = r->ops, .devid = r->devid,
		.idx = r->idx, .shared = r->shared,
	};
	u32 owner, sharers, i;
	bool found = true;
	u64 chip = r->chip_id;
	int ret;

	if (READ_ONCE(r->stale)) {
		found = !chip;
		if (!chip)
			t.devid = d->id;
		for (i = 0; chip && mp_pool_runtime(d) && i < d->pamt.nr_devs;
		     i++) {
			if (d->pamt.dev[i].valid &&
			    d->pamt.dev[i].chip_id == chip) {
				t.devid = i;
				found = true;
			}
		}
	}
	mp_seg_find(d, t.id, &t.local);
	ret = t.ops->offline(&t, extack);
	mutex_unlock(&d->lock);
	if (ret)
		return ret;
	if (found) {
		ret = mp_seg_own(d, t.devid, t.shared ? MP_OWN_UNSHARE :
				 MP_OWN_RELEASE, t.idx, &owner, &sharers,
				 extack);
		if (ret)
			return ret;
	}
	if (t.local)
		mp_seg_changed(t.local);
	return 0;
}

/*
 * Offline of another device's segment that is not mapped here: give back
 * what the backing device says we hold. d->lock held on entry, dropped on
 * return.
 */
static int mp_seg_release_remote(struct mp_dev *d, u32 id,
				 struct netlink_ext_ack *extack)
{
	u32 self = d->id, devid, idx, owner, sharers, cmd;
	int ret = mp_seg_where(d, id, &devid, &idx);

	mutex_unlock(&d->lock);
	if (ret) {
		NL_SET_ERR_MSG(extack, "the segment's backing device is lost");
		return -EHOSTUNREACH;
	}
	/* release asks nothing of an unowned segment: say so */
	ret = mp_backend_own(devid, MP_OWN_QUERY, idx, &owner, &sharers);
	if (!ret && owner == CMM_MP_NONE && !sharers) {
		NL_SET_ERR_MSG(extack, "segment is not owned");
		return -EALREADY;
	}
	cmd = owner == CMM_MP_NONE && self < MP_OWN_MAX_SHARERS &&
	      (sharers & BIT(self)) ? MP_OWN_UNSHARE : MP_OWN_RELEASE;
	return mp_seg_own(d, devid, cmd, idx, &owner, &sharers, extack);
}

/**
 * mp_seg_offline() - take pool-wide segment @id down on this host
 * @d: the pool device
 * @id: pool-wide segment number; a segment mapped here that the pool no
 *	longer lists (stale after the pool changed) too
 * @extack: for the reason of a failure
 *
 * The mode takes it down (System RAM: pages migrate out; dax, blk: the
 * device node goes), then it is given back to its backing device. On
 * error nothing changed. Sleeps.
 *
 * Return: 0; -ENOENT no such segment; -EALREADY not online; -EPERM held
 * by another device; -EBUSY in use (unmovable pages, an open device
 * node); -EHOSTUNREACH its backing device is lost; the mode's error.
 */
int mp_seg_offline(struct mp_dev *d, u32 id, struct netlink_ext_ack *extack)
{
	struct mp_seg_target t = { .d = d, .id = id };
	u32 owner, sharers;
	struct mp_remote *r;
	int ret;

	mutex_lock(&d->lock);
	r = mp_remote_find(d, id);
	if (r)
		return mp_seg_unmap(d, r, extack);
	ret = mp_seg_find(d, id, &t.local);
	if (ret == -EREMOTE)
		return mp_seg_release_remote(d, id, extack);
	mutex_unlock(&d->lock);
	if (ret) {
		NL_SET_ERR_MSG(extack, "no such segment");
		return ret;
	}
	owner = mp_seg_holders(d, t.local, &sharers);
	if (READ_ONCE(t.local->state) == CMM_MP_SEG_OFFLINE &&
	    owner != CMM_MP_NONE && owner != READ_ONCE(d->id)) {
		NL_SET_ERR_MSG(extack, "only the owner may offline this segment");
		return -EPERM;
	}
	t.ops = mp_seg_modes[CMM_MP_SEG_MODE_RAM];
	mutex_lock(&d->lock);
	ret = t.ops->offline(&t, extack);
	mutex_unlock(&d->lock);
	if (!ret)
		mp_seg_changed(t.local);
	return ret;
}
