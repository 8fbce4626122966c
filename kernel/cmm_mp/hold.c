// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: asking a backing device to give this host a segment, or to take
 * it back.
 *
 * The device that backs a segment arbitrates who holds it (own.c runs on
 * it). This host asks its own device directly and another one through the
 * backend. A segment handed over is wiped first; meanwhile the device
 * answers -EINPROGRESS and is asked again: the segment core (seg.c) and a
 * mirror's rebuild (mirror.c) both go through here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/sched/signal.h>
#include <linux/cmm_mp_backend.h>

#include "cmm_mp.h"

/* How long a backing device may take to wipe a segment it hands over. */
#define MP_HOLD_ZERO_WAIT	(60 * HZ)

/* Why a backing device refused a holder change. */
static void mp_hold_msg(int ret, u32 owner, u32 sharers,
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
		NL_SET_ERR_MSG(extack, "backing device: no such segment or partner, or no room");
		break;
	case -EINVAL:
		NL_SET_ERR_MSG(extack, "backing device: the partner is on its own device");
		break;
	default:
		NL_SET_ERR_MSG(extack, "the backing device did not answer the ownership request");
		break;
	}
}

/**
 * mp_hold_ask() - ask device @devid to arbitrate its segment @idx for us
 * @d: the pool device
 * @devid: the backing device (ours: asked directly)
 * @cmd: enum mp_own_cmd
 * @idx: the segment's index there
 * @oi: in: a mirror copy's claim: its partner (pdev, pseg: the segment
 *	that keeps the other copy, its device and index there), recorded
 *	with the owner on the backing device; pdev CMM_MP_NONE otherwise.
 *	Out: the holders and the partner after the command
 * @extack: for the reason of a refusal, or NULL
 *
 * A claim or share of a segment being zeroed answers -EINPROGRESS: our
 * own device's wipe is waited for (slow memory, CXL under TCG, can take
 * tens of seconds), another device is asked again, less and less often,
 * until MP_HOLD_ZERO_WAIT has passed. Sleeps.
 *
 * Return: the device's verdict (mp_local_own()), -ETIMEDOUT, -EINTR or
 * the backend's error.
 */
int mp_hold_ask(struct mp_dev *d, u32 devid, u32 cmd, u32 idx,
		struct mp_own_info *oi, struct netlink_ext_ack *extack)
{
	unsigned long deadline = jiffies + MP_HOLD_ZERO_WAIT;
	u32 pdev = oi->pdev, pseg = oi->pseg;
	unsigned int pause = 1;
	int ret;

	for (;;) {
		bool local = devid == READ_ONCE(d->id);

		/* each try names the partner again: the last one told it */
		oi->pdev = pdev;
		oi->pseg = pseg;
		if (local)
			ret = mp_local_own(READ_ONCE(d->chip_id), cmd, idx, oi);
		else
			ret = mp_backend_own(devid, cmd, idx, oi);
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
	mp_hold_msg(ret, oi->owner, oi->sharers, extack);
	return ret;
}

/**
 * mp_hold_give_back() - give back what mp_hold_ask() gave us
 * @d: the pool device
 * @devid: the backing device
 * @idx: the segment's index there
 * @shared: held in sharing mode
 *
 * Return: 0 or mp_hold_ask()'s error.
 */
int mp_hold_give_back(struct mp_dev *d, u32 devid, u32 idx, bool shared)
{
	struct mp_own_info oi = { .pdev = CMM_MP_NONE };

	return mp_hold_ask(d, devid, shared ? MP_OWN_UNSHARE : MP_OWN_RELEASE,
			   idx, &oi, NULL);
}

/**
 * mp_hold_claim_pair() - claim a mirror copy, naming its partner
 * @d: the pool device
 * @devid: the copy's backing device
 * @idx: its segment index there
 * @pdev: the device of the segment that keeps the other copy
 * @pidx: that segment's index there
 * @extack: for the reason of a refusal, or NULL
 *
 * The backing device records the pair with the owner, so that every host
 * that asks it who holds the segment learns its partner too. A claim of
 * a copy we hold already only changes the partner (a repair moved the
 * other copy).
 *
 * Return: as mp_hold_ask().
 */
int mp_hold_claim_pair(struct mp_dev *d, u32 devid, u32 idx, u32 pdev,
		       u32 pidx, struct netlink_ext_ack *extack)
{
	struct mp_own_info oi = { .pdev = pdev, .pseg = pidx };

	return mp_hold_ask(d, devid, MP_OWN_CLAIM, idx, &oi, extack);
}
