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
 * build for (6.1), for a hot-add of exactly one memory block, removed in
 * the same granularity.
 *
 * So a segment is hot-added one memory block at a time (each with its
 * memmap on itself if asked, as Linux 6.8 does inside the hotplug core),
 * and removed one block at a time. Without memmap_on_memory too: a 6.1
 * hot-add whose memmap runs out after some memory sections keeps those
 * sections (their memmap taken from node 0, the range unusable until a
 * reboot); a block is one section on x86, whose failure undoes itself. A
 * failed block takes the blocks added before it away again. A block that
 * cannot go offline puts the blocks removed before it back (added again,
 * offline: modules cannot online memory in a zone of their choice, so
 * libmp onlines them again in their zone), and the segment stays online.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ioport.h>
#include <linux/kasan.h>
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
	return 0;
}

/*
 * Bytes a hot-add of @s takes from the host's other memory: the memmap,
 * unless it is on the segment, and, on a KASAN kernel, the shadow of the
 * new memory, allocated as each block goes online.
 */
static u64 mp_seg_hotplug_cost(const struct mp_seg *s, bool memmap_on_memory)
{
	u64 cost = 0;

	if (!memmap_on_memory)
		cost += PHYS_PFN(s->size) * sizeof(struct page);
#ifdef CONFIG_KASAN_GENERIC
	cost += s->size >> KASAN_SHADOW_SCALE_SHIFT;
#endif
	return cost;
}

/*
 * Refuse a hot-add whose memmap (or KASAN shadow) the host's available
 * memory (MemAvailable: free and reclaimable without swapping) cannot hold.
 * The hotplug core would try anyway: on 6.1 its failed vmemmap allocation
 * warns in add_pages() and drives the whole host into reclaim and the OOM
 * killer first, for a request that cannot succeed.
 */
static int mp_seg_room_check(const struct mp_seg *s, bool memmap_on_memory,
			     struct netlink_ext_ack *extack)
{
	u64 cost = mp_seg_hotplug_cost(s, memmap_on_memory);
	u64 avail = (u64)si_mem_available() << PAGE_SHIFT;
	const char *what = "memmap";

	if (avail >= cost)
		return 0;
	/* lower case: the upper-case name marks KASAN's own reports */
	if (memmap_on_memory)
		what = "kasan shadow";
	else if (IS_ENABLED(CONFIG_KASAN_GENERIC))
		what = "memmap and kasan shadow";
	dev_info(s->sdev, "hot-add refused: it needs %llu KiB of other memory (%s), %llu KiB available\n",
		 cost >> 10, what, avail >> 10);
	if (memmap_on_memory)
		NL_SET_ERR_MSG(extack,
			       "memory hot-add refused: too little free memory for its KASAN shadow");
	else
		NL_SET_ERR_MSG(extack,
			       "memory hot-add refused: too little free memory for its memmap (try memmap_on_memory)");
	return -ENOMEM;
}

static u32 mp_seg_nr_blocks(const struct mp_seg *s)
{
	return div64_u64(s->size, s->dev->geo.block_size);
}

static u64 mp_seg_block_addr(const struct mp_seg *s, u32 i)
{
	return s->phys + (u64)i * s->dev->geo.block_size;
}

/* Whether block @i of @s is hot-added now (it has a memmap), online or not. */
static bool mp_seg_block_present(const struct mp_seg *s, u32 i)
{
	return pfn_valid(PHYS_PFN(mp_seg_block_addr(s, i)));
}

/*
 * Hot-add the blocks [0, @to) of @s that are not present, with @flags
 * (MHP_MEMMAP_ON_MEMORY: each block's memmap on itself). Return: 0, or the
 * hotplug core's error with the failing block in @failed.
 */
static int mp_seg_add_blocks(struct mp_seg *s, int mgid, u32 to, mhp_t flags,
			     u32 *failed)
{
	u64 block = s->dev->geo.block_size;
	u32 i;
	int ret;

	for (i = 0; i < to; i++) {
		if (mp_seg_block_present(s, i))
			continue;
		ret = add_memory_driver_managed(mgid, mp_seg_block_addr(s, i),
						block, "System RAM (cmm_mp)",
						MHP_NID_IS_MGID | flags);
		if (ret) {
			*failed = i;
			return ret;
		}
	}
	return 0;
}

/*
 * Offline and remove the blocks [0, @to) of @s one by one, those absent
 * skipped. Return: 0, or the hotplug core's refusal with the refusing
 * block in @failed; the blocks before it are removed then.
 */
static int mp_seg_remove_blocks(struct mp_seg *s, u32 to, u32 *failed)
{
	u64 block = s->dev->geo.block_size;
	u32 i;
	int ret;

	for (i = 0; i < to; i++) {
		if (!mp_seg_block_present(s, i))
			continue;
		ret = offline_and_remove_memory(mp_seg_block_addr(s, i), block);
		if (ret) {
			*failed = i;
			return ret;
		}
	}
	return 0;
}

/* memory block number of block @i of @s, as in /sys/devices/system/memory */
static unsigned long long mp_seg_block_id(const struct mp_seg *s, u32 i)
{
	return div64_u64(mp_seg_block_addr(s, i), s->dev->geo.block_size);
}

/*
 * Hot-add @s block by block with @flags. A failed block takes the blocks
 * added before it away again; if one of those cannot go (the auto-online
 * policy put it in a zone where it got unmovable pages), the segment is
 * left online with what is there: @busy says so.
 */
static int mp_seg_add_ram(struct mp_seg *s, int mgid, mhp_t flags, bool *busy)
{
	u32 failed = 0, stuck = 0;
	int ret, err;

	*busy = false;
	ret = mp_seg_add_blocks(s, mgid, mp_seg_nr_blocks(s), flags, &failed);
	if (!ret)
		return 0;
	dev_info(s->sdev, "hot-add of memory block %llu failed: %d\n",
		 mp_seg_block_id(s, failed), ret);
	err = mp_seg_remove_blocks(s, failed, &stuck);
	if (err) {
		dev_err(s->sdev, "memory block %llu, added before it, cannot be removed again: %d; segment left online\n",
			mp_seg_block_id(s, stuck), err);
		*busy = true;
	}
	return ret;
}

/*
 * Offline and remove @s block by block. If a block refuses, the blocks
 * removed before it are hot-added again, offline (see the top of this
 * file), and the segment stays online: the kernel log names the block.
 */
static int mp_seg_remove_ram(struct mp_seg *s)
{
	mhp_t flags = s->memmap_on_memory ? MHP_MEMMAP_ON_MEMORY : 0;
	u32 failed = 0, lost = 0;
	int ret, err;

	ret = mp_seg_remove_blocks(s, mp_seg_nr_blocks(s), &failed);
	if (!ret)
		return 0;
	dev_info(s->sdev, "memory block %llu cannot go offline: %d; adding back the %u block(s) removed before it\n",
		 mp_seg_block_id(s, failed), ret, failed);
	err = mp_seg_add_blocks(s, s->mgid, failed, flags, &lost);
	if (err)
		dev_err(s->sdev, "memory block %llu cannot be added back: %d; offline the segment again to remove the rest\n",
			mp_seg_block_id(s, lost), err);
	return ret;
}

/**
 * mp_seg_online_ram() - hot-add a local segment as System RAM
 * @t: the segment (@t->local), @t->memmap_on_memory for its memmap on
 *	itself; the caller holds the device's lock
 * @extack: where to say why it failed
 *
 * Return: 0, -EALREADY when not offline, -EBUSY when the range is claimed,
 * -EOPNOTSUPP when memmap_on_memory is asked for and the kernel cannot,
 * -ENOMEM when the memmap would not fit in the host's available memory,
 * or the error of the memory hotplug core, nothing changed; but for a
 * hot-add whose unwind fails too: then the segment is left online with
 * the blocks that could not go.
 */
static int mp_seg_online_ram(const struct mp_seg_target *t,
			     struct netlink_ext_ack *extack)
{
	struct mp_seg *s = t->local;
	struct mp_dev *d = s->dev;
	struct resource *res;
	bool stuck = false;
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
	}
	ret = mp_seg_room_check(s, t->memmap_on_memory, extack);
	if (ret)
		return ret;
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

	ret = mp_seg_add_ram(s, mgid, t->memmap_on_memory ?
			     MHP_MEMMAP_ON_MEMORY : 0, &stuck);
	if (stuck) {
		NL_SET_ERR_MSG(extack,
			       "memory hot-add failed, and blocks added before the failing one cannot be removed: segment left online");
		goto online;
	}
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

online:
	s->res = res;
	s->mgid = mgid;
	WRITE_ONCE(s->memmap_on_memory, t->memmap_on_memory);
	spin_lock_bh(&d->mem_lock);
	s->owner = d->chip_id;
	s->dirty = true;
	spin_unlock_bh(&d->mem_lock);
	WRITE_ONCE(s->state, CMM_MP_SEG_ONLINE_RAM);
	if (!ret)
		dev_info(s->sdev, "added %#llx-%#llx as System RAM on node %d%s\n",
			 s->phys, s->phys + s->size - 1, d->nid,
			 t->memmap_on_memory ? ", memmap on it" : "");
	return ret;

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
 * online with all its data; the blocks removed before the one that
 * refused are back, offline, for libmp to online.
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

	ret = mp_seg_remove_ram(s);
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
