// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: who hears that a segment changed.
 *
 * The code that changes a segment (seg.c, mirror.c) calls no interface;
 * netlink (a multicast event) and sysfs (a uevent) listen here instead.
 */
#include <linux/notifier.h>

#include "cmm_mp.h"

static BLOCKING_NOTIFIER_HEAD(mp_seg_notifier);

/**
 * mp_seg_notifier_register() - hear of every state change of a segment
 * @nb: called with enum mp_seg_event as the action: MP_SEG_EV_LOCAL with
 *	the struct mp_seg of the local device that changed, MP_SEG_EV_MAPPING
 *	with the struct mp_remote whose copies changed (mirror.c: no lock
 *	held) or that went stale (remote.c: the pool device's lock held);
 *	the mapping stays until the call returns; MP_SEG_EV_MAPPED
 *	with the struct mp_remote just made, or one of whose copies moved,
 *	and MP_SEG_EV_UNMAPPED with one about to go (remote.c: the pool
 *	device's lock held)
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

/**
 * mp_seg_notify() - tell the listeners that a segment changed
 * @event: enum mp_seg_event
 * @data: the segment (MP_SEG_EV_LOCAL) or mapping (the others)
 *
 * Return: 0, or the first listener's refusal (MP_SEG_EV_MAPPED: a mapping
 * that udev would not see is undone).
 */
int mp_seg_notify(unsigned long event, void *data)
{
	return notifier_to_errno(blocking_notifier_call_chain(&mp_seg_notifier,
							      event, data));
}
