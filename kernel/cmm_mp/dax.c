// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: device DRAM from a dax device - the dax bus driver "cmm_mp".
 *
 * Loaded without mem= and cxl_region=, cmm_mp registers a dax bus driver,
 * as dax_kmem does, and the operator hands it a dax device of a CXL region
 * the way daxctl hands one to kmem:
 *
 *   echo dax0.0 > /sys/bus/dax/drivers/device_dax/unbind
 *   echo dax0.0 > /sys/bus/dax/drivers/cmm_mp/new_id
 *
 * Probe turns the device's range into the pool device mp0 through the same
 * checks and claim as mem= and cxl_region= (mp_dev_create_range()): it must
 * lie in CXL Windows, the HDM base is its start and the NUMA node the dax
 * device's target node. Like dax_kmem, only whole memory blocks can be
 * hot-added, so the range is trimmed to memory blocks (a pmem namespace's
 * data starts after its info block) and to whole segments.
 *
 * Remove cannot fail. If nothing uses the DRAM (mp_dev_in_use()), mp0 goes
 * and the range is released: device_dax can take the device back. If
 * segments are online or held, dax_kmem's answer would be to leave the
 * memory online and leak the range; we keep all of mp0 instead, detached
 * (mp_dax_detached): it stays usable (its segments can be offlined), keeps
 * its claim of the range so device_dax cannot map memory the page
 * allocator owns, and goes when cmm_mp is unloaded, which the online
 * segments prevent until they are offline. Binding the dax device of the
 * same range to cmm_mp again takes the detached mp0 back, so the operator
 * can undo the unbind, offline everything and unbind cleanly. There is one
 * pool device: another dax device is refused while mp0 exists.
 *
 * struct dax_device_driver and struct dev_dax are private to drivers/dax:
 * this file is built only with bus.h and dax-private.h of the very kernel
 * version (scripts/dax-headers, Kbuild).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/align.h>
#include <linux/math64.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/numa.h>

#include "cmm_mp.h"
#include "bus.h"
#include "dax-private.h"

static u64 mp_dax_seg_size;
static u64 mp_dax_chip_id;
/* serializes probe and remove: there is one pool device */
static DEFINE_MUTEX(mp_dax_lock);
/* mp0 left by an unbind while in use, under mp_dax_lock */
static struct mp_dev *mp_dax_detached;

static bool mp_dax_have_dev(void)
{
	int idx = mp_dev_srcu_lock();
	bool ret = mp_dev_get_default();

	mp_dev_srcu_unlock(idx);
	return ret;
}

/*
 * The part of @range memory hotplug can use: whole memory blocks, as
 * dax_kmem, and of those whole segments. False when there is none.
 */
static bool mp_dax_trim(const struct range *range, struct mp_range *r)
{
	u64 block = memory_block_size_bytes();
	u64 start = ALIGN(range->start, block);
	u64 end = ALIGN_DOWN(range->end + 1, block);

	if (end <= start || !mp_dax_seg_size)
		return false;
	r->base = start;
	r->size = div64_u64(end - start, mp_dax_seg_size) * mp_dax_seg_size;
	r->kind = MP_RANGE_CXL;
	return r->size;
}

static int mp_dax_probe(struct dev_dax *dev_dax)
{
	struct device *dev = &dev_dax->dev;
	const struct range *range;
	struct mp_range r;
	struct mp_dev *d;
	int ret = 0;

	if (dev_dax->nr_range != 1) {
		dev_err(dev, "%d ranges: cmm_mp takes a dax device of one contiguous range\n",
			dev_dax->nr_range);
		return -EINVAL;
	}
	range = &dev_dax->ranges[0].range;

	mutex_lock(&mp_dax_lock);
	if (mp_dax_have_dev() && !mp_dax_detached) {
		dev_err(dev, "cmm_mp has its pool device mp0 already; unbind that dax device first\n");
		ret = -EBUSY;
		goto out;
	}
	if (!mp_dax_trim(range, &r)) {
		dev_err(dev, "%#llx-%#llx holds no whole segment of %llu MiB on memory block (%lu MiB) boundaries\n",
			range->start, range->end, mp_dax_seg_size >> 20,
			memory_block_size_bytes() >> 20);
		ret = -EINVAL;
		goto out;
	}
	if (r.base != range->start || r.base + r.size != range->end + 1)
		dev_info(dev, "using %#llx-%#llx of %#llx-%#llx: whole memory blocks and segments\n",
			 r.base, r.base + r.size - 1, range->start, range->end);

	d = mp_dax_detached;
	if (d) {
		if (d->geo.base != r.base || d->geo.size != r.size) {
			dev_err(dev, "%s, left by an unbind while in use, is on %#llx-%#llx: bind the dax device of that range, or offline its segments and unload cmm_mp\n",
				d->name, d->geo.base, d->geo.base + d->geo.size - 1);
			ret = -EBUSY;
			goto out;
		}
		/* published all along: only the binding was missing */
		mp_dax_detached = NULL;
		dev_set_drvdata(dev, d);
		dev_info(dev, "device DRAM of %s again\n", d->name);
		goto out;
	}

	d = mp_dev_create_range(&r, dev_name(dev), dev_dax->target_node,
				mp_dax_seg_size, mp_dax_chip_id);
	if (IS_ERR(d)) {
		ret = PTR_ERR(d);
		goto out;
	}
	ret = mp_sysfs_add_dev(d);
	if (ret) {
		mp_dev_destroy(d);
		goto out;
	}
	dev_set_drvdata(dev, d);
	mp_dev_set_default(d);
	dev_info(dev, "device DRAM of %s\n", d->name);
out:
	mutex_unlock(&mp_dax_lock);
	return ret;
}

static void mp_dax_remove(struct dev_dax *dev_dax)
{
	struct device *dev = &dev_dax->dev;
	struct mp_dev *d = dev_get_drvdata(dev);

	/* a segment just given back is wiped first: that is no use of it */
	mp_own_flush();
	mutex_lock(&mp_dax_lock);
	/* withdrawn, nobody reaches it: in use or not cannot change now */
	mp_dev_set_default(NULL);
	if (mp_backend_active() || mp_dev_in_use(d)) {
		mp_dev_set_default(d);
		mp_dax_detached = d;
		dev_err(dev, "%s is in use (segments online or held): it stays, with its claim of the range, until they are offline and cmm_mp is unloaded (or %s is bound again)\n",
			d->name, dev_name(dev));
	} else {
		/* before mp_dev_destroy(), which frees d and its name */
		dev_info(dev, "%s removed, range released\n", d->name);
		mp_sysfs_del_dev(d);
		mp_dev_destroy(d);
	}
	dev_set_drvdata(dev, NULL);
	mutex_unlock(&mp_dax_lock);
}

static struct dax_device_driver mp_dax_driver = {
	.probe = mp_dax_probe,
	.remove = mp_dax_remove,
};

/**
 * mp_dax_init() - register the dax bus driver "cmm_mp"
 * @seg_size: segment size of the pool device a dax device becomes
 * @chip_id: its chip id, 0 for a random one
 *
 * Return: 0 or the driver core's error.
 */
int mp_dax_init(u64 seg_size, u64 chip_id)
{
	int ret;

	mp_dax_seg_size = seg_size;
	mp_dax_chip_id = chip_id;
	ret = dax_driver_register(&mp_dax_driver);
	if (ret)
		pr_err("cannot register the dax driver: %d\n", ret);
	else
		pr_info("dax driver ready: bind a dax device of a CXL region through /sys/bus/dax/drivers/cmm_mp/new_id\n");
	return ret;
}

/*
 * Unbinds the bound device, then destroys a pool device an unbind left
 * detached (in use then): the module is going, so nothing holds it any
 * more.
 */
void mp_dax_exit(void)
{
	struct mp_dev *d;
	int idx;

	dax_driver_unregister(&mp_dax_driver);
	idx = mp_dev_srcu_lock();
	d = mp_dev_get_default();
	mp_dev_srcu_unlock(idx);
	if (d) {
		mp_dev_set_default(NULL);
		mp_sysfs_del_dev(d);
		mp_dev_destroy(d);
	}
	mp_dax_detached = NULL;
}
