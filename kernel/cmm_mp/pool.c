// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: the pool-wide view - which devices form the pool, where each
 * one's segments sit in the pool-wide numbering, and our own place in it.
 *
 * Discovery runs in the backend (mp_eth: kernel/mp_eth/discovery.c), which
 * builds the Pool Address Map Table with mp_pamt_build() and hands it here
 * with mp_pool_update() whenever a round ends or starts. Without a backend,
 * or with a statically configured one, the pool is the local device alone
 * (CMM_MP_POOL_LOCAL): device id 0, segments numbered from 0.
 * Documentation/pool.rst describes the state machine.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/export.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/cmm_mp_backend.h>

#include "cmm_mp.h"

/* Told of every change of the pool map, with the device's lock held. */
static BLOCKING_NOTIFIER_HEAD(mp_pool_notifier);

int mp_pool_notifier_register(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&mp_pool_notifier, nb);
}

void mp_pool_notifier_unregister(struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&mp_pool_notifier, nb);
}

/* Called with d->lock held, after any change of the pool map. */
static void mp_pool_changed(struct mp_dev *d)
{
	/* 0 would read as "no dump sequence" (nl_dump_check_consistent()) */
	d->map_seq = d->map_seq + 1 ? d->map_seq + 1 : 1;
	blocking_notifier_call_chain(&mp_pool_notifier, 0, d);
}

/* Is d->pamt the map of a formed pool? Caller holds d->lock or READ_ONCE. */
bool mp_pool_runtime(const struct mp_dev *d)
{
	return READ_ONCE(d->pool_state) == CMM_MP_POOL_RUNTIME;
}

/* The pool-wide number of local segment @s. */
u32 mp_seg_pool_id(const struct mp_seg *s)
{
	return READ_ONCE(s->dev->first_seg) + s->id;
}

/*
 * Called with d->lock held: our chip id changes from @old to d->chip_id
 * (the backend's port address became it): what we hold goes with it.
 */
static void mp_pool_rekey(struct mp_dev *d, u64 old)
{
	u32 i, j;

	spin_lock_bh(&d->mem_lock);
	for (i = 0; i < d->geo.nr_segs; i++) {
		struct mp_seg *s = &d->segs[i];

		if (s->owner == old)
			s->owner = d->chip_id;
		for (j = 0; j < s->nr_sharers; j++)
			if (s->sharer[j] == old)
				s->sharer[j] = d->chip_id;
	}
	spin_unlock_bh(&d->mem_lock);
}

/* Called with d->lock held. */
static void mp_pool_set_local(struct mp_dev *d)
{
	WRITE_ONCE(d->id, 0);
	WRITE_ONCE(d->first_seg, 0);
	d->pool_offset = 0;
	memset(&d->pamt, 0, sizeof(d->pamt));
	mp_dev_set_members(d, NULL);
	WRITE_ONCE(d->pool_state, CMM_MP_POOL_LOCAL);
	mp_pool_changed(d);
}

/* Back to the local device alone (the backend went away). */
void mp_pool_reset(struct mp_dev *d)
{
	if (!d)
		return;
	mutex_lock(&d->lock);
	if (d->pool_state != CMM_MP_POOL_LOCAL) {
		mp_pool_set_local(d);
		dev_info(d->device, "pool left, the local device alone now\n");
	}
	mutex_unlock(&d->lock);
}

/**
 * mp_pool_chip_id() - the local device's chip id, given its backend port
 * @mac: the backend port's address
 *
 * The cmm_mp parameter chip_id wins; else the chip id is the 48-bit MAC
 * address read as a number (unique on a segment, stable across reboots).
 *
 * Return: the chip id, 0 without a pool device.
 */
u64 mp_pool_chip_id(const u8 *mac)
{
	int idx = mp_dev_srcu_lock();
	struct mp_dev *d = mp_dev_get_default();
	u64 chip_id = 0;

	if (d) {
		mutex_lock(&d->lock);
		chip_id = d->chip_id;
		if (!d->chip_id_param && mac && is_valid_ether_addr(mac))
			d->chip_id = ether_addr_to_u64(mac);
		if (d->chip_id != chip_id)
			mp_pool_rekey(d, chip_id);
		chip_id = d->chip_id;
		mutex_unlock(&d->lock);
	}
	mp_dev_srcu_unlock(idx);
	return chip_id;
}
EXPORT_SYMBOL_GPL(mp_pool_chip_id);

/* Called with d->lock held: may @t be the map of a pool we are in? */
static int mp_pool_check(struct mp_dev *d, const struct mp_pamt *t, u32 self)
{
	const struct mp_pamt_entry *e;

	if (!t || self >= t->nr_devs || t->nr_devs > MP_PAMT_MAX_DEVS)
		return -EINVAL;
	e = &t->dev[self];
	if (!e->valid || e->chip_id != d->chip_id) {
		dev_err(d->device, "pool map: device %u is chip %#llx, we are %#llx\n",
			self, e->chip_id, d->chip_id);
		return -EINVAL;
	}
	if (t->seg_size != d->geo.seg_size || e->nr_segs != d->geo.nr_segs) {
		dev_err(d->device, "pool map: %u segments of %llu bytes for us, we have %u of %llu\n",
			e->nr_segs, t->seg_size, d->geo.nr_segs,
			d->geo.seg_size);
		return -EINVAL;
	}
	return 0;
}

/* mp_pool_update() on @d, NULL for none */
static int mp_pool_update_dev(struct mp_dev *d, u32 state,
			      const struct mp_pamt *t, u32 self)
{
	int ret = 0;

	if (!d)
		return -ENODEV;
	if (state >= __CMM_MP_POOL_STATE_MAX)
		return -EINVAL;
	mutex_lock(&d->lock);
	switch (state) {
	case CMM_MP_POOL_RUNTIME:
		ret = mp_pool_check(d, t, self);
		if (ret)
			break;
		d->pamt = *t;
		WRITE_ONCE(d->id, self);
		WRITE_ONCE(d->first_seg, t->dev[self].first_seg);
		d->pool_offset = t->dev[self].nha;
		mp_dev_set_members(d, t);
		WRITE_ONCE(d->pool_state, state);
		dev_info(d->device, "pool generation %u: %u devices, %u segments; we are device %u, segments %u-%u\n",
			 t->generation, t->nr_devs, t->nr_segs, self,
			 d->first_seg, d->first_seg + d->geo.nr_segs - 1);
		break;
	case CMM_MP_POOL_LOCAL:
		mp_pool_set_local(d);
		break;
	default:
		WRITE_ONCE(d->pool_state, state);
		break;
	}
	mp_pool_changed(d);
	mutex_unlock(&d->lock);
	return ret;
}

/**
 * mp_pool_update() - the backend's discovery changed the pool
 * @state: CMM_MP_POOL_DISCOVERY (a round started: the last map stays for
 *	the local numbering, remote devices are hidden), CMM_MP_POOL_RUNTIME
 *	(@t is the new map), CMM_MP_POOL_CONFLICT (no pool: duplicate chip
 *	ids) or CMM_MP_POOL_LOCAL
 * @t: the PAMT of the new generation (RUNTIME only), lost devices marked
 *	invalid
 * @self: our device id in @t
 *
 * Sleeps. Return: 0, -EINVAL for a map that does not fit the local device
 * (nothing changes then), -ENODEV without a pool device.
 */
int mp_pool_update(u32 state, const struct mp_pamt *t, u32 self)
{
	int idx = mp_dev_srcu_lock();
	int ret = mp_pool_update_dev(mp_dev_get_default(), state, t, self);

	mp_dev_srcu_unlock(idx);
	return ret;
}
EXPORT_SYMBOL_GPL(mp_pool_update);
