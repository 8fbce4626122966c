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

static const struct mp_seg_ops *const mp_seg_modes[__CMM_MP_SEG_MODE_MAX] = {
	[CMM_MP_SEG_MODE_RAM] = &mp_seg_ram_ops,
	[CMM_MP_SEG_MODE_DAX] = &mp_seg_dax_ops,
	[CMM_MP_SEG_MODE_BLK] = &mp_seg_blk_ops,
};

/* Tell the listeners (events.c) that local segment @s changed. */
void mp_seg_changed(struct mp_seg *s)
{
	mp_seg_notify(MP_SEG_EV_LOCAL, s);
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
 * @partner: set to the pool-wide number of its mirror partner (the
 *	segment its owner keeps the other copy on), CMM_MP_NONE for none
 *
 * Holders are known at the backing device only: it is asked. d->lock is
 * dropped meanwhile; the caller must look at the pool again.
 *
 * Return: the owner's device id, or CMM_MP_NONE.
 */
u32 mp_seg_remote_holders(struct mp_dev *d, u32 id, u32 *sharers,
			  u32 *partner)
{
	struct mp_own_info oi = { .pdev = CMM_MP_NONE };
	u32 devid, idx;

	*sharers = 0;
	*partner = CMM_MP_NONE;
	if (mp_seg_where(d, id, &devid, &idx))
		return CMM_MP_NONE;
	mutex_unlock(&d->lock);
	if (mp_backend_own(devid, MP_OWN_QUERY, idx, &oi)) {
		oi.owner = CMM_MP_NONE;
		oi.sharers = 0;
		oi.pdev = CMM_MP_NONE;
	}
	mutex_lock(&d->lock);
	*sharers = oi.sharers;
	*partner = mp_seg_pair_id(d, oi.pdev, oi.pseg);
	return oi.owner;
}

/**
 * mp_seg_pair_id() - the pool-wide number of a mirror copy's partner
 * @d: the pool device, d->lock held
 * @pdev: the partner's device id, as its backing device told it
 * @pseg: its segment index there
 *
 * Return: the pool-wide segment number, CMM_MP_NONE for none, for a device
 * that is not in the pool now, or for one that has no such segment.
 */
u32 mp_seg_pair_id(struct mp_dev *d, u32 pdev, u32 pseg)
{
	if (!mp_pool_runtime(d) || pdev >= d->pamt.nr_devs ||
	    !d->pamt.dev[pdev].valid || pseg >= d->pamt.dev[pdev].nr_segs)
		return CMM_MP_NONE;
	return d->pamt.dev[pdev].first_seg + pseg;
}

/* The pool-wide number of local segment @s's mirror partner, CMM_MP_NONE. */
u32 mp_seg_local_pair(struct mp_seg *s)
{
	u32 pseg, pdev = mp_seg_partner(s->dev, s, &pseg);

	return mp_seg_pair_id(s->dev, pdev, pseg);
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
 * @partner: its mirror partner as its backing device records it
 *	(mp_seg_remote_holders(), mp_seg_local_pair()), CMM_MP_NONE
 * @u: filled: its mode (CMM_MP_SEG_MODE_RAM when it is not mapped here,
 *	so that every host describes an unmapped segment alike), whether it
 *	is shared (mapped here in sharing mode, or else held by sharers of
 *	the pool), and its device node ("" for none)
 *
 * Return: true when it is mapped here as /dev/mps or /dev/mpb.
 */
bool mp_seg_usage(struct mp_dev *d, u32 id, u32 sharers, u32 partner,
		  struct mp_seg_use *u)
{
	struct mp_remote *r;

	u->mode = CMM_MP_SEG_MODE_RAM;
	u->shared = sharers != 0;
	u->devnode[0] = '\0';
	/* mapped elsewhere: the pair as recorded, without its redundancy */
	u->mirror = partner;
	u->redundancy = 0;
	u->rebuilt = 0;
	rcu_read_lock();
	r = mp_remote_find(d, id);
	if (r) {
		u->mode = r->ops->mode;
		u->shared = r->shared;
		mp_remote_devnode(r, u->devnode, sizeof(u->devnode));
	}
	if (r && r->nr_legs > 1) {
		u32 other = READ_ONCE(r->leg[0].seg) == id ? 1 : 0;

		u->mirror = READ_ONCE(r->leg[other].seg);
		u->redundancy = mp_mirror_redundancy(r);
		u->rebuilt = READ_ONCE(r->rebuilt);
	}
	rcu_read_unlock();
	return r;
}

/*
 * Where @t's segment lives and whether mode @t->ops may take it now:
 * t->devid, t->idx. d->lock held.
 */
int mp_seg_place(struct mp_dev *d, struct mp_seg_target *t,
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

/*
 * The segment @m that keeps the second copy of @t: free for @t's mode, on
 * another device. d->lock held.
 */
static int mp_seg_mirror_check(struct mp_dev *d, struct mp_seg_target *t,
			       struct mp_seg_target *m,
			       struct netlink_ext_ack *extack)
{
	int ret;

	if (t->shared) {
		NL_SET_ERR_MSG(extack, "a mirrored segment is this host's alone: no sharing mode");
		return -EINVAL;
	}
	if (!t->ops->any_device) {
		NL_SET_ERR_MSG(extack, "only dax and blk segments can be mirrored");
		return -EINVAL;
	}
	ret = mp_seg_find(d, m->id, &m->local);
	if (ret == -ENOENT) {
		NL_SET_ERR_MSG(extack, "no such segment for the second copy");
		return ret;
	}
	m->ops = t->ops;
	ret = mp_seg_place(d, m, extack);
	if (ret)
		return ret;
	if (m->devid == t->devid) {
		NL_SET_ERR_MSG(extack, "the two copies must be on two devices");
		return -EINVAL;
	}
	return 0;
}

/*
 * Place @t again (mp_seg_place()) after d->lock was dropped: it must be
 * where it was, @devid and @idx. d->lock held.
 */
int mp_seg_replace(struct mp_dev *d, struct mp_seg_target *t, u32 devid,
		   u32 idx, struct netlink_ext_ack *extack)
{
	int ret = mp_seg_place(d, t, extack);

	if (!ret && (t->devid != devid || t->idx != idx)) {
		NL_SET_ERR_MSG(extack, "the pool changed meanwhile: try again");
		ret = -EAGAIN;
	}
	return ret;
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
 * @mirror: dax and blk in pooling mode: the segment, on another device,
 *	that keeps a second copy (mirror.c); CMM_MP_NONE for none
 * @extack: for the reason of a failure
 *
 * The backing device gives the segment to this host (alone, or as one of
 * its sharers), the mirror's device its segment too, then the mode brings
 * it up; if that fails, both are given back. Sleeps.
 *
 * Return: 0; -ENOENT no such segment; -EINVAL a mode that does not fit;
 * -EALREADY online here already; -EBUSY held by another device or in use
 * here in another mode; -EAGAIN the pool changed meanwhile;
 * -EHOSTUNREACH its backing device is lost; the mode's error.
 */
int mp_seg_online(struct mp_dev *d, u32 id, u32 mode, u32 flags, u32 mirror,
		  struct netlink_ext_ack *extack)
{
	bool shared = flags & MP_SEG_SHARED;
	struct mp_seg_target t = {
		.d = d, .id = id, .shared = shared,
		.memmap_on_memory = flags & MP_SEG_MEMMAP_ON_MEMORY,
	};
	struct mp_seg_target m = { .d = d, .id = mirror };
	struct mp_own_info oi = { .pdev = CMM_MP_NONE };
	u32 devid, idx, mdevid = 0, midx = 0;
	int ret;

	mutex_lock(&d->lock);
	ret = mp_seg_find(d, id, &t.local);
	if (ret == -ENOENT)
		NL_SET_ERR_MSG(extack, "no such segment");
	else
		ret = mp_seg_mode_check(&t, mode, extack);
	if (!ret)
		ret = mp_seg_place(d, &t, extack);
	if (!ret && mirror != CMM_MP_NONE) {
		t.mirror = &m;
		ret = mp_seg_mirror_check(d, &t, &m, extack);
	}
	mutex_unlock(&d->lock);
	if (ret)
		return ret;
	devid = t.devid;
	idx = t.idx;
	/* each copy's claim names the other: every host learns the pair */
	if (t.mirror) {
		oi.pdev = m.devid;
		oi.pseg = m.idx;
	}
	ret = mp_hold_ask(d, devid, shared ? MP_OWN_SHARE : MP_OWN_CLAIM, idx,
			  &oi, extack);
	if (ret)
		return ret;
	if (t.mirror) {
		mdevid = m.devid;
		midx = m.idx;
		ret = mp_hold_claim_pair(d, mdevid, midx, devid, idx, extack);
		if (ret) {
			mp_hold_give_back(d, devid, idx, shared);
			return ret;
		}
	}

	mutex_lock(&d->lock);
	ret = mp_seg_replace(d, &t, devid, idx, extack);
	if (!ret && t.mirror)
		ret = mp_seg_replace(d, &m, mdevid, midx, extack);
	if (!ret)
		ret = t.ops->online(&t, extack);
	mutex_unlock(&d->lock);
	/* online meanwhile by another request of ours: keep what it holds */
	if (ret && ret != -EALREADY) {
		mp_hold_give_back(d, devid, idx, shared);
		if (t.mirror)
			mp_hold_give_back(d, mdevid, midx, false);
	}
	if (!ret && t.local)
		mp_seg_changed(t.local);
	if (!ret && m.local)
		mp_seg_changed(m.local);
	return ret;
}

/* The device id copy @leg's device has now; -ENOENT out of the pool. */
int mp_seg_leg_devid(struct mp_dev *d, const struct mp_remote_leg *leg)
{
	if (!leg->chip_id)
		return d->id;
	if (!mp_pool_runtime(d))
		return -ENOENT;
	return mp_pamt_devid_of(&d->pamt, leg->chip_id);
}

/*
 * Offline of a segment mapped here (dax, blk): unmap it (refused while its
 * device node is in use), then give back each copy to its device, found
 * by chip id under whatever device id it has now, if it is still in the
 * pool. A lost copy's device may have forgotten us (it restarted): its
 * refusal is not an error. d->lock held on entry, dropped on return.
 */
static int mp_seg_unmap(struct mp_dev *d, struct mp_remote *r,
			struct netlink_ext_ack *extack)
{
	struct mp_seg_target t = {
		.d = d, .id = r->seg, .ops = r->ops, .shared = r->shared,
	};
	struct mp_seg *local[MP_REMOTE_MAX_LEGS] = {};
	struct mp_remote_leg leg[MP_REMOTE_MAX_LEGS];
	int devid[MP_REMOTE_MAX_LEGS];
	struct mp_own_info oi;
	u32 i, n = r->nr_legs;
	int ret, err = 0;

	for (i = 0; i < n; i++) {
		leg[i] = r->leg[i];
		devid[i] = mp_seg_leg_devid(d, &leg[i]);
		if (!leg[i].chip_id)
			mp_seg_find(d, leg[i].seg, &local[i]);
	}
	ret = t.ops->offline(&t, extack);
	mutex_unlock(&d->lock);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		if (devid[i] < 0)
			continue;
		oi.pdev = CMM_MP_NONE;
		ret = mp_hold_ask(d, devid[i], t.shared ? MP_OWN_UNSHARE :
				  MP_OWN_RELEASE, leg[i].idx, &oi,
				  leg[i].state == MP_LEG_OK ? extack : NULL);
		if (ret && leg[i].state == MP_LEG_OK && !err)
			err = ret;
		if (local[i])
			mp_seg_changed(local[i]);
	}
	return err;
}

/*
 * Offline of another device's segment that is not mapped here: give back
 * what the backing device says we hold. d->lock held on entry, dropped on
 * return.
 */
static int mp_seg_release_remote(struct mp_dev *d, u32 id,
				 struct netlink_ext_ack *extack)
{
	struct mp_own_info oi = { .pdev = CMM_MP_NONE };
	u32 self = d->id, devid, idx, cmd;
	int ret = mp_seg_where(d, id, &devid, &idx);

	mutex_unlock(&d->lock);
	if (ret) {
		NL_SET_ERR_MSG(extack, "the segment's backing device is lost");
		return -EHOSTUNREACH;
	}
	/* release asks nothing of an unowned segment: say so */
	ret = mp_backend_own(devid, MP_OWN_QUERY, idx, &oi);
	if (!ret && oi.owner == CMM_MP_NONE && !oi.sharers) {
		NL_SET_ERR_MSG(extack, "segment is not owned");
		return -EALREADY;
	}
	cmd = oi.owner == CMM_MP_NONE && self < MP_OWN_MAX_SHARERS &&
	      (oi.sharers & BIT(self)) ? MP_OWN_UNSHARE : MP_OWN_RELEASE;
	oi.pdev = CMM_MP_NONE;
	return mp_hold_ask(d, devid, cmd, idx, &oi, extack);
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
