// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: who holds each segment of the local device, and wiping.
 *
 * Every holder change of a local segment is arbitrated here, for this
 * host and, through the backend, for every other member alike:
 * mp_local_own() gives a segment to one owner (pooling mode) or to a set
 * of sharers (sharing mode), by chip id, never by device id (a rank that a
 * newcomer may take over). A segment nobody holds any more, or one handed
 * to a new holder while it may hold a former holder's data, is wiped
 * first, in a work item; a claim meanwhile answers -EINPROGRESS.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/cmm_mp_backend.h>

#include "cmm_mp.h"

/* Called with mem_lock held: is the device of chip id @src a sharer of @s? */
int mp_seg_sharer(const struct mp_seg *s, u64 src)
{
	u32 i;

	for (i = 0; i < s->nr_sharers; i++)
		if (s->sharer[i] == src)
			return i;
	return -1;
}

/*
 * Zero @len bytes of the device DRAM at @off, in steps (process context).
 * In 8-byte stores: memset() may store a byte at a time (x86's rep stosb),
 * and where the device's memory is emulated MMIO (QEMU's CXL type 3
 * device) every store is an exit: a 128 MiB segment took 40 s under TCG
 * a byte at a time.
 */
static void mp_dev_zero(struct mp_dev *d, u64 off, u64 len)
{
	u64 n;

	for (; len; off += n, len -= n) {
		n = min_t(u64, len, SZ_2M);
		if (IS_ALIGNED(off | n, sizeof(u64)))
			memset64(d->va + off, 0, n / sizeof(u64));
		else
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
	struct mp_seg *s;

	if (!d || !d->va)
		goto out;
	/* the queued segments only: a wipe costs the same with 8 or 8,192 */
	for (;;) {
		spin_lock_bh(&d->mem_lock);
		s = list_first_entry_or_null(&d->zero_list, struct mp_seg,
					     zero_link);
		if (s)
			list_del_init(&s->zero_link);
		spin_unlock_bh(&d->mem_lock);
		if (!s)
			break;
		mp_dev_zero(d, (u64)s->id * d->geo.seg_size, s->size);
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
	list_add_tail(&s->zero_link, &d->zero_list);
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
	s->partner = 0;
	zero = mp_own_zero(d, s);	/* dirty since it went online */
	spin_unlock_bh(&d->mem_lock);
	if (zero)
		schedule_work(&mp_own_zero_work);
}

/**
 * mp_dev_set_members() - the chip id of each device id of the pool
 * @d: the local device
 * @t: the pool map (a lost device has no chip id); NULL for the local
 *	device alone
 *
 * Holders are kept by chip id; this only names them by device id.
 */
void mp_dev_set_members(struct mp_dev *d, const struct mp_pamt *t)
{
	u32 i, nr = t ? min_t(u32, t->nr_devs, ARRAY_SIZE(d->members)) : 0;

	spin_lock_bh(&d->mem_lock);
	for (i = 0; i < nr; i++) {
		d->members[i] = t->dev[i].valid ? t->dev[i].chip_id : 0;
		d->member_segs[i] = t->dev[i].valid ? t->dev[i].nr_segs : 0;
	}
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

/*
 * Called with mem_lock held: the partner of @s by device id (CMM_MP_NONE
 * for none, CMM_MP_GONE its device is not in the pool now), its index.
 */
static u32 __mp_seg_partner(const struct mp_dev *d, const struct mp_seg *s,
			    u32 *pseg)
{
	*pseg = s->partner ? s->partner_seg : 0;
	return s->partner ? mp_member_id(d, s->partner) : CMM_MP_NONE;
}

/**
 * mp_seg_partner() - the segment that keeps a local segment's other copy
 * @d: its device
 * @s: the segment
 * @pseg: set to the partner's index on its device
 *
 * Return: the partner's device id, CMM_MP_NONE when @s is no mirror copy,
 * CMM_MP_GONE when the partner's device is not in the pool now.
 */
u32 mp_seg_partner(struct mp_dev *d, struct mp_seg *s, u32 *pseg)
{
	u32 pdev;

	spin_lock_bh(&d->mem_lock);
	pdev = __mp_seg_partner(d, s, pseg);
	spin_unlock_bh(&d->mem_lock);
	return pdev;
}

/*
 * Called with mem_lock held: the chip id of the partner a claim names
 * (0 for none), or -errno: -EINVAL a partner on another command or on
 * this device (the two copies of a mirror live on two devices), -ERANGE
 * a device or a segment the pool does not have.
 */
static int mp_own_partner(const struct mp_dev *d, u32 cmd,
			  const struct mp_own_info *oi, u64 *chip)
{
	*chip = 0;
	if (oi->pdev == CMM_MP_NONE)
		return 0;
	if (cmd != MP_OWN_CLAIM)
		return -EINVAL;
	if (oi->pdev >= d->nr_members || !d->members[oi->pdev] ||
	    oi->pseg >= d->member_segs[oi->pdev])
		return -ERANGE;
	if (d->members[oi->pdev] == d->chip_id)
		return -EINVAL;
	*chip = d->members[oi->pdev];
	return 0;
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
			    struct mp_own_info *oi)
{
	bool zero = false;
	struct mp_seg *s;
	u64 partner;
	int ret = 0, i;

	if (!d || seg >= d->geo.nr_segs || !src) {
		oi->pdev = CMM_MP_NONE;
		oi->pseg = 0;
		return !d ? -ENODEV : seg >= d->geo.nr_segs ? -ERANGE : -EPERM;
	}
	s = &d->segs[seg];
	spin_lock_bh(&d->mem_lock);
	/* a bad partner changes nothing: refused before any command runs */
	ret = mp_own_partner(d, cmd, oi, &partner);
	if (ret)
		goto out;
	switch (cmd) {
	case MP_OWN_QUERY:
		break;
	case MP_OWN_CLAIM:
		if (s->owner == src) {
			/* again: the pair it names now (a repair moved a copy) */
			s->partner = partner;
			s->partner_seg = oi->pseg;
			ret = s->zeroing ? -EINPROGRESS : 0;
			break;
		}
		if (s->owner || s->nr_sharers ||
		    READ_ONCE(s->state) != CMM_MP_SEG_OFFLINE) {
			ret = -EBUSY;
			break;
		}
		s->owner = src;
		s->partner = partner;
		s->partner_seg = oi->pseg;
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
		s->partner = 0;
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
out:
	oi->owner = __mp_seg_holders(d, s, &oi->sharers);
	oi->pdev = __mp_seg_partner(d, s, &oi->pseg);
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
 * @oi: in: the partner a CLAIM of a mirror copy names (pdev CMM_MP_NONE
 *	for none); out: the owner after the command, by device id
 *	(CMM_MP_NONE for none, CMM_MP_GONE for a device not in the pool
 *	now), the bitmap of the sharers' device ids, the partner
 *
 * Exactly one owner, or a set of sharers, at a time, decided under
 * mem_lock and kept by chip id, so a device id that changes hands when the
 * pool is renumbered takes nothing with it. A claim by the owner, a share
 * by a sharer and a release or unshare of a segment the sender does not
 * hold (when nobody else holds it) succeed again, so a command executed
 * twice answers the same. The partner is the owner's: set by its claim
 * (a claim by the owner again replaces it), gone on release, on a wipe
 * and with the owner. A segment that nobody holds any more is wiped,
 * and one that may hold data is wiped before it is handed to anyone (the
 * claim or share answers -EINPROGRESS until then). Safe in softirq context.
 *
 * Return: 0, -EBUSY held by others (or a state change in progress),
 * -EINPROGRESS, -EPERM release by a non-holder or an unknown sender,
 * -ERANGE no such segment, no room for another sharer, or a partner the
 * pool does not have, -EINVAL unknown command or a partner on another
 * command or on this device, -ENODEV without a device.
 */
int mp_local_own(u64 src, u32 cmd, u32 seg, struct mp_own_info *oi)
{
	int idx = mp_dev_srcu_lock();
	int ret;

	oi->owner = CMM_MP_NONE;
	oi->sharers = 0;
	ret = mp_local_own_dev(mp_dev_get_default(), src, cmd, seg, oi);

	mp_dev_srcu_unlock(idx);
	return ret;
}
EXPORT_SYMBOL_GPL(mp_local_own);
