// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: local segments as System RAM through memory hotplug.
 *
 * Onlining claims the segment's range below the device claim, registers a
 * static memory group and hot-adds the range as driver-managed System RAM.
 * The memory blocks come up offline, unless the kernel's auto-online
 * policy (auto_online_blocks, memhp_default_state=) onlines them in a zone
 * of its choosing; userspace (libmp) onlines them, or moves them, to the
 * zone it wants, as daxctl does for dax_kmem. Offlining is done entirely
 * here: offline_and_remove_memory() migrates pages out, and if it cannot,
 * leaves everything as it was.
 *
 * With memmap_on_memory (as dax_kmem's), the struct pages of the segment
 * are taken from its own first pages rather than from node 0: a host whose
 * other memory is nearly full can still hot-add. The hotplug core allows
 * it only with memory_hotplug.memmap_on_memory=1 and, on the kernels we
 * build for (6.1), for a hot-add of exactly one memory block; it is
 * checked here first so that the refusal says why.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ioport.h>
#include <linux/memory.h>
#include <linux/memory_hotplug.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "cmm_mp.h"

/**
 * mp_seg_blocks_state() - count online and ZONE_MOVABLE blocks of a segment
 * @s: the segment
 * @online: blocks that are online now
 * @movable: of those, blocks in ZONE_MOVABLE
 *
 * Userspace may online or offline blocks behind our back through sysfs, so
 * this is read from the memory map each time rather than remembered.
 */
void mp_seg_blocks_state(const struct mp_seg *s, u32 *online, u32 *movable)
{
	u64 block = s->dev->geo.block_size;
	u64 addr;

	*online = 0;
	*movable = 0;
	if (READ_ONCE(s->state) != CMM_MP_SEG_ONLINE_RAM)
		return;
	for (addr = s->phys; addr < s->phys + s->size; addr += block) {
		struct page *page = pfn_to_online_page(PHYS_PFN(addr));

		if (!page)
			continue;
		(*online)++;
		if (page_zonenum(page) == ZONE_MOVABLE)
			(*movable)++;
	}
}

/* Whether the hotplug core lets @s's memmap be on @s; why not in @extack. */
static int mp_seg_memmap_check(const struct mp_seg *s,
			       struct netlink_ext_ack *extack)
{
	if (!IS_ENABLED(CONFIG_MHP_MEMMAP_ON_MEMORY)) {
		NL_SET_ERR_MSG(extack,
			       "memmap_on_memory: this kernel is built without CONFIG_MHP_MEMMAP_ON_MEMORY");
		return -EOPNOTSUPP;
	}
	if (s->size != s->dev->geo.block_size) {
		NL_SET_ERR_MSG(extack,
			       "memmap_on_memory needs a segment of exactly one memory block on this kernel");
		return -EOPNOTSUPP;
	}
	return 0;
}

/**
 * mp_seg_online_ram() - hot-add a local segment as System RAM
 * @t: the segment (@t->local), @t->memmap_on_memory for its memmap on
 *	itself; the caller holds the device's lock
 * @extack: where to say why it failed
 *
 * Return: 0, -EALREADY when not offline, -EBUSY when the range is claimed,
 * -EOPNOTSUPP when memmap_on_memory is asked for and the kernel cannot,
 * or the error of the memory hotplug core.
 */
static int mp_seg_online_ram(const struct mp_seg_target *t,
			     struct netlink_ext_ack *extack)
{
	struct mp_seg *s = t->local;
	struct mp_dev *d = s->dev;
	mhp_t flags = MHP_NID_IS_MGID;
	struct resource *res;
	int mgid, ret;

	lockdep_assert_held(&d->lock);
	if (s->state != CMM_MP_SEG_OFFLINE) {
		NL_SET_ERR_MSG(extack, "segment is not offline");
		return -EALREADY;
	}
	if (t->memmap_on_memory) {
		ret = mp_seg_memmap_check(s, extack);
		if (ret)
			return ret;
		flags |= MHP_MEMMAP_ON_MEMORY;
	}
	/* online memory pins the module: unloading must never leave it behind */
	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	/* under mem_lock: no remote access is copying into it from now on */
	spin_lock_bh(&d->mem_lock);
	WRITE_ONCE(s->state, CMM_MP_SEG_BUSY);
	spin_unlock_bh(&d->mem_lock);

	res = request_mem_region(s->phys, s->size, s->res_name);
	if (!res) {
		NL_SET_ERR_MSG(extack, "segment range is claimed by someone else");
		ret = -EBUSY;
		goto err_state;
	}
	/* as dax_kmem: System RAM flags, not busy, so the memory can nest */
	res->flags = IORESOURCE_SYSTEM_RAM;

	mgid = memory_group_register_static(d->nid, PHYS_PFN(s->size));
	if (mgid < 0) {
		NL_SET_ERR_MSG(extack, "cannot register a memory group");
		ret = mgid;
		goto err_res;
	}

	ret = add_memory_driver_managed(mgid, s->phys, s->size,
					"System RAM (cmm_mp)", flags);
	/*
	 * The one other reason for -EINVAL with the flag (a bad range) fails
	 * without it too; the parameter itself is not visible to modules.
	 */
	if (ret == -EINVAL && t->memmap_on_memory) {
		NL_SET_ERR_MSG(extack,
			       "the kernel refused memmap_on_memory: boot it with memory_hotplug.memmap_on_memory=1");
		ret = -EOPNOTSUPP;
		goto err_group;
	}
	/* the memmap, 1/64 of the segment, is the big allocation of a hot-add */
	if (ret == -ENOMEM && !t->memmap_on_memory) {
		NL_SET_ERR_MSG(extack,
			       "memory hot-add failed: too little free memory for its memmap (try memmap_on_memory)");
		goto err_group;
	}
	if (ret) {
		NL_SET_ERR_MSG(extack, "memory hot-add failed");
		goto err_group;
	}

	s->res = res;
	s->mgid = mgid;
	WRITE_ONCE(s->memmap_on_memory, t->memmap_on_memory);
	spin_lock_bh(&d->mem_lock);
	s->owner = d->chip_id;
	s->dirty = true;
	spin_unlock_bh(&d->mem_lock);
	WRITE_ONCE(s->state, CMM_MP_SEG_ONLINE_RAM);
	dev_info(s->sdev, "added %#llx-%#llx as System RAM on node %d%s\n",
		 s->phys, s->phys + s->size - 1, d->nid,
		 t->memmap_on_memory ? ", memmap on it" : "");
	return 0;

err_group:
	memory_group_unregister(mgid);
err_res:
	release_resource(res);
	kfree(res);
err_state:
	WRITE_ONCE(s->state, CMM_MP_SEG_OFFLINE);
	module_put(THIS_MODULE);
	return ret;
}

/**
 * mp_seg_offline_ram() - offline and remove a segment's System RAM
 * @t: the segment (@t->local); the caller holds the device's lock
 * @extack: where to say why it failed
 *
 * The segment is wiped before it is offline with no owner. Return: 0,
 * -EALREADY when offline already, or the hotplug core's refusal (-EBUSY:
 * unmovable pages; -EINTR: interrupted). On error the segment stays
 * online with all its data.
 */
static int mp_seg_offline_ram(const struct mp_seg_target *t,
			      struct netlink_ext_ack *extack)
{
	struct mp_seg *s = t->local;
	struct mp_dev *d = s->dev;
	int ret;

	lockdep_assert_held(&d->lock);
	if (s->state != CMM_MP_SEG_ONLINE_RAM) {
		NL_SET_ERR_MSG(extack, "segment is not online");
		return -EALREADY;
	}
	WRITE_ONCE(s->state, CMM_MP_SEG_BUSY);

	ret = offline_and_remove_memory(s->phys, s->size);
	if (ret) {
		NL_SET_ERR_MSG(extack, "the kernel refused to offline the memory");
		dev_info(s->sdev, "offline refused: %d\n", ret);
		WRITE_ONCE(s->state, CMM_MP_SEG_ONLINE_RAM);
		return ret;
	}

	ret = memory_group_unregister(s->mgid);
	WARN_ON_ONCE(ret);
	release_resource(s->res);
	kfree(s->res);
	s->res = NULL;
	s->mgid = -1;
	WRITE_ONCE(s->memmap_on_memory, false);
	/* our pages, page cache and slab were here: nobody else sees them */
	mp_seg_wipe(d, s);
	WRITE_ONCE(s->state, CMM_MP_SEG_OFFLINE);
	module_put(THIS_MODULE);
	dev_info(s->sdev, "offlined and removed\n");
	return 0;
}

/* ram mode: a segment of the local device as System RAM, pooling only */
const struct mp_seg_ops mp_seg_ram_ops = {
	.mode		= CMM_MP_SEG_MODE_RAM,
	.online		= mp_seg_online_ram,
	.offline	= mp_seg_offline_ram,
};
