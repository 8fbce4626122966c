// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: repairing a mirrored segment.
 *
 * A mirrored mapping (mirror.c) whose copy is lost gets it back where it
 * was, once its device is in the pool again, or on a segment the user
 * names: that segment is given to this host first, then takes the lost
 * copy's place in the mapping, and mirror.c rebuilds it in the
 * background.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cmm_mp_backend.h>

#include "cmm_mp.h"
#include "remote.h"

/**
 * mp_seg_repair() - rebuild the lost copy of a mirrored segment
 * @d: the pool device
 * @id: pool-wide segment number of either copy
 * @to: a segment to move the lost copy to (given to this host first), or
 *	CMM_MP_NONE: rebuild it where it was (its device came back)
 * @extack: for the reason of a failure
 *
 * The rebuild runs in the background (mirror.c); listeners hear when it
 * starts and ends. The segment the lost copy leaves is given back if its
 * device still answers. Sleeps.
 *
 * Return: 0 started; -EINVAL not a mirrored segment mapped here, or @to
 * on the whole copy's device; -EALREADY both copies are whole; -EBUSY a
 * rebuild runs; -EHOSTUNREACH the lost copy's device is still lost;
 * -EIO the mapping is stale; @to's placement or claim error.
 */
int mp_seg_repair(struct mp_dev *d, u32 id, u32 to,
		  struct netlink_ext_ack *extack)
{
	struct mp_seg_target t = { .d = d, .id = to };
	struct mp_remote_leg *lost = NULL, *whole = NULL, old = {};
	u32 i, devid, idx, wdevid, widx;
	int ret, old_devid = -ENOENT;
	struct mp_remote *r;

	mutex_lock(&d->lock);
	r = mp_remote_find(d, id);
	if (!r || r->nr_legs < 2) {
		NL_SET_ERR_MSG(extack, "not a mirrored segment mapped on this host");
		ret = -EINVAL;
		goto out;
	}
	for (i = 0; i < r->nr_legs; i++) {
		if (READ_ONCE(r->leg[i].state) == MP_LEG_FAILED)
			lost = &r->leg[i];
		else
			whole = &r->leg[i];
	}
	ret = -EIO;
	if (READ_ONCE(r->stale))
		NL_SET_ERR_MSG(extack, "the pool changed: offline the segment and online it again");
	else if (!lost && mp_mirror_redundancy(r) == CMM_MP_SEG_REBUILDING)
		ret = -EBUSY;
	else if (!lost)
		ret = -EALREADY;
	else if (!whole)
		NL_SET_ERR_MSG(extack, "no copy is whole: nothing to rebuild from");
	else
		ret = 0;
	if (ret == -EBUSY)
		NL_SET_ERR_MSG(extack, "a rebuild runs already");
	else if (ret == -EALREADY)
		NL_SET_ERR_MSG(extack, "both copies are whole");
	if (ret)
		goto out;
	if (to == CMM_MP_NONE) {
		ret = mp_remote_leg_where(d, lost, r->size);
		if (ret < 0) {
			NL_SET_ERR_MSG(extack, "its device is still lost: name a replacement");
			ret = -EHOSTUNREACH;
			goto out;
		}
		WRITE_ONCE(lost->devid, ret);
		ret = mp_mirror_repair(r, lost);
		goto out;
	}
	ret = mp_seg_find(d, to, &t.local);
	if (ret == -ENOENT) {
		NL_SET_ERR_MSG(extack, "no such segment for the replacement");
		goto out;
	}
	t.ops = r->ops;
	ret = mp_seg_place(d, &t, extack);
	wdevid = READ_ONCE(whole->devid);
	widx = whole->idx;
	if (!ret && t.devid == wdevid) {
		NL_SET_ERR_MSG(extack, "the two copies must be on two devices");
		ret = -EINVAL;
	}
	mutex_unlock(&d->lock);
	if (ret)
		return ret;
	devid = t.devid;
	idx = t.idx;
	ret = mp_hold_claim_pair(d, devid, idx, wdevid, widx, extack);
	if (ret)
		return ret;

	mutex_lock(&d->lock);
	ret = mp_seg_replace(d, &t, devid, idx, extack);
	if (!ret && (mp_remote_find(d, id) != r ||
		     READ_ONCE(lost->state) != MP_LEG_FAILED)) {
		NL_SET_ERR_MSG(extack, "the segment changed meanwhile: try again");
		ret = -EAGAIN;
	}
	/*
	 * A rebuild where the copy was (a heal, or its device came back)
	 * that still waits for the device stops: the move goes first. One
	 * that copies already keeps the copy there.
	 */
	if (!ret && mp_mirror_preempt(r, lost)) {
		NL_SET_ERR_MSG(extack, "a rebuild runs already");
		ret = -EBUSY;
	}
	if (!ret) {
		old = *lost;
		old_devid = mp_seg_leg_devid(d, &old);
		ret = mp_remote_replace_leg(r, lost, &t);
	}
	/*
	 * The rebuild on the new place starts; -EBUSY: a heal (the other
	 * copy just failed an access) started it there first, the same.
	 */
	if (!ret)
		mp_mirror_repair(r, lost);
	mutex_unlock(&d->lock);
	if (ret) {
		mp_hold_give_back(d, devid, idx, false);
		return ret;
	}
	/*
	 * The whole copy's device records its new partner (we own it: the
	 * claim changes the partner only); a failure leaves the old one
	 * listed there, which the kernel log says.
	 */
	if (mp_hold_claim_pair(d, wdevid, widx, devid, idx, NULL))
		dev_warn(d->device, "segment %u: its device still names the lost copy's segment %u as its partner\n",
			 id, old.seg);
	if (t.local)
		mp_seg_changed(t.local);
	if (old_devid >= 0 && mp_hold_give_back(d, old_devid, old.idx, false))
		dev_info(d->device, "segment %u: the lost copy's segment %u stays held here until its device answers: offline it then\n",
			 id, old.seg);
	return 0;

out:
	mutex_unlock(&d->lock);
	return ret;
}
