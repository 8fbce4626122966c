// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: the pool device - validating and claiming its DRAM range.
 *
 * The device may come and go while the module is loaded (a dax device bound
 * and unbound, dax.c): it is published in mp_default_dev under SRCU. Every
 * user looks it up with mp_dev_get_default() inside mp_dev_srcu_lock(),
 * from process or softirq context, and mp_dev_set_default(NULL) waits for
 * them before the device may be destroyed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/memory.h>
#include <linux/memory-tiers.h>
#include <linux/memory_hotplug.h>
#include <linux/numa.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/srcu.h>

#include "cmm_mp.h"

/* Pool memory is slower than DRAM: put its node in a lower tier, as dax_kmem. */
#define MP_MEMTIER_ADISTANCE	(MEMTIER_ADISTANCE_DRAM * 5)

DEFINE_STATIC_SRCU(mp_dev_srcu);
static struct mp_dev __rcu *mp_default_dev;

struct mp_cover {
	u64 next;	/* first byte not yet counted */
	u64 bytes;
};

static int mp_cover_cb(struct resource *res, void *arg)
{
	struct mp_cover *c = arg;
	u64 start = max_t(u64, res->start, c->next);

	if (res->end >= start) {
		c->bytes += res->end - start + 1;
		c->next = res->end + 1;
	}
	return 0;
}

/*
 * The range must be address space the firmware set aside for us: entirely
 * inside Reserved (memmap=$) or legacy persistent memory (memmap=!) ranges,
 * or for a CXL region inside CXL Windows (CEDT), and nowhere System RAM.
 * Anything else would hot-add a hole or memory the kernel already uses.
 */
static int mp_check_range(const struct mp_range *r, const char *arg)
{
	static const char * const what[] = {
		[MP_RANGE_RESERVED] = "Reserved", [MP_RANGE_PMEM] = "legacy pmem",
		[MP_RANGE_CXL] = "CXL Window",
	};
	static const unsigned long descs[] = {
		[MP_RANGE_RESERVED] = IORES_DESC_RESERVED,
		[MP_RANGE_PMEM] = IORES_DESC_PERSISTENT_MEMORY_LEGACY,
		[MP_RANGE_CXL] = IORES_DESC_CXL,
	};
	struct mp_cover cover = { .next = r->base };
	u64 end = r->base + r->size - 1;

	if (region_intersects(r->base, r->size, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT) {
		pr_err("%s overlaps System RAM (onlined by another driver?)\n",
		       arg);
		return -EINVAL;
	}
	/* copies each match under resource_lock: safe without the lock */
	walk_iomem_res_desc(descs[r->kind], IORESOURCE_MEM, r->base, end,
			    &cover, mp_cover_cb);
	if (cover.bytes != r->size) {
		pr_err("%s is not entirely a %s range%s\n", arg, what[r->kind],
		       r->kind == MP_RANGE_CXL ? "" : " (boot with memmap=)");
		return -EINVAL;
	}
	return 0;
}

static int mp_node_of(u64 base)
{
	int nid = phys_to_target_node(base);

	/* memory_add_physaddr_to_nid() answers 0 for a reserved range */
	if (nid == NUMA_NO_NODE)
		nid = memory_add_physaddr_to_nid(base);
	return nid;
}

static void mp_segs_init(struct mp_dev *d)
{
	u32 i;

	for (i = 0; i < d->geo.nr_segs; i++) {
		struct mp_seg *s = &d->segs[i];

		s->id = i;
		s->dev = d;
		mp_seg_range(&d->geo, i, &s->phys, &s->size);
		s->state = CMM_MP_SEG_OFFLINE;
		/* what the range held before we were loaded: not ours to show */
		s->dirty = true;
		s->mgid = -1;
		INIT_LIST_HEAD(&s->zero_link);
		snprintf(s->res_name, sizeof(s->res_name), "cmm_mp %s seg%u",
			 d->name, i);
	}
}

/**
 * mp_dev_create() - set up a pool device on a reserved DRAM range
 * @mem: the range in memmap grammar ("256M$0x70000000"), or NULL
 * @cxl_region: a CXL region ("region0") to use instead of @mem
 * @seg_size: bytes per segment
 * @chip_id: unique chip id, 0 for a random one
 *
 * Return: the device, or an ERR_PTR with a negative errno; every refusal is
 * explained in the kernel log.
 */
struct mp_dev *mp_dev_create(const char *mem, const char *cxl_region,
			     u64 seg_size, u64 chip_id)
{
	char arg[48];
	struct mp_range r;
	int ret;

	if (cxl_region) {
		ret = mp_cxl_range(cxl_region, &r);
		if (ret)
			return ERR_PTR(ret);
		snprintf(arg, sizeof(arg), "cxl_region=%s", cxl_region);
	} else {
		ret = mp_parse_range(mem, &r);
		if (ret) {
			pr_err("mem=%s: expected SIZE$BASE or SIZE!BASE (memmap grammar)\n",
			       mem);
			return ERR_PTR(-EINVAL);
		}
		snprintf(arg, sizeof(arg), "mem=%s", mem);
	}
	return mp_dev_create_range(&r, arg, NUMA_NO_NODE, seg_size, chip_id);
}

/**
 * mp_dev_create_range() - set up a pool device on a resolved DRAM range
 * @r: the range and how the firmware set it aside
 * @arg: where it came from, for the kernel log ("mem=...", "dax0.0")
 * @nid: its NUMA node, NUMA_NO_NODE to look it up from its address
 * @seg_size: bytes per segment
 * @chip_id: unique chip id, 0 for a random one
 *
 * Every source of device DRAM (mem=, cxl_region=, a dax device) ends here:
 * the same geometry, range and claim checks hold for all of them.
 *
 * Return: the device, or an ERR_PTR with a negative errno; every refusal is
 * explained in the kernel log.
 */
struct mp_dev *mp_dev_create_range(const struct mp_range *r,
				   const char *arg, int nid, u64 seg_size,
				   u64 chip_id)
{
	u64 block = memory_block_size_bytes();
	struct mp_dev *d;
	int ret;

	/* the pool map inside is tens of KiB at 1024 devices */
	d = kvzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return ERR_PTR(-ENOMEM);
	mutex_init(&d->lock);
	d->map_seq = 1;
	xa_init(&d->remote);
	spin_lock_init(&d->mem_lock);
	INIT_LIST_HEAD(&d->zero_list);
	strscpy(d->name, "mp0", sizeof(d->name));
	d->chip_id = chip_id ? chip_id : get_random_u64();
	d->chip_id_param = chip_id != 0;

	ret = mp_geometry_init(&d->geo, r->base, r->size, seg_size, block);
	if (ret) {
		pr_err("%s seg_size=%llu: base, size and segment size must be multiples of the memory block size (%llu), or the segment size a power-of-two part of one block of at least %llu bytes, and size a multiple of the segment size\n",
		       arg, seg_size, block, MP_SEG_MIN_SIZE);
		ret = -EINVAL;
		goto err_free;
	}
	ret = mp_check_range(r, arg);
	if (ret)
		goto err_free;

	d->res = request_mem_region(r->base, r->size, "cmm_mp mp0");
	if (!d->res) {
		pr_err("%s is claimed by another driver (a pmem namespace or dax device?)\n",
		       arg);
		ret = -EBUSY;
		goto err_free;
	}
	/* not busy: segment claims and hot-added memory nest below it */
	d->res->flags &= ~IORESOURCE_BUSY;

	/* remote devices' requests are served from this mapping (backend.c) */
	d->va = memremap(r->base, r->size, MEMREMAP_WB);
	if (!d->va) {
		pr_err("%s: cannot map the range\n", arg);
		ret = -ENOMEM;
		goto err_release;
	}

	d->nid = nid != NUMA_NO_NODE ? nid : mp_node_of(r->base);
	d->segs = kcalloc(d->geo.nr_segs, sizeof(*d->segs), GFP_KERNEL);
	if (!d->segs) {
		ret = -ENOMEM;
		goto err_unmap;
	}
	mp_segs_init(d);

	d->mtype = alloc_memory_type(MP_MEMTIER_ADISTANCE);
	if (IS_ERR(d->mtype)) {
		ret = PTR_ERR(d->mtype);
		goto err_segs;
	}
	init_node_memory_type(d->nid, d->mtype);

	pr_info("%s: %llu MiB at %#llx, node %d, %u segments of %llu MiB, chip id %#llx\n",
		d->name, r->size >> 20, r->base, d->nid, d->geo.nr_segs,
		seg_size >> 20, d->chip_id);
	return d;

err_segs:
	kfree(d->segs);
err_unmap:
	memunmap(d->va);
err_release:
	release_resource(d->res);
	kfree(d->res);
err_free:
	kvfree(d);
	return ERR_PTR(ret);
}

void mp_dev_destroy(struct mp_dev *d)
{
	if (IS_ERR_OR_NULL(d))
		return;
	xa_destroy(&d->remote);
	clear_node_memory_type(d->nid, d->mtype);
	destroy_memory_type(d->mtype);
	kfree(d->segs);
	memunmap(d->va);
	release_resource(d->res);
	kfree(d->res);
	kvfree(d);
}

/**
 * mp_dev_in_use() - does anything still depend on the device's DRAM?
 * @d: the device, withdrawn (mp_dev_set_default(NULL)): nothing changes
 *	it meanwhile
 *
 * A segment not offline (System RAM here, a state change in progress),
 * held or shared by a device of the pool or being zeroed for it, mapped
 * here as /dev/mps or /dev/mpb. (A backend that formed a pool with it
 * uses it too: see mp_backend_active().)
 *
 * Return: true when the device must not be destroyed.
 */
bool mp_dev_in_use(struct mp_dev *d)
{
	bool busy = !xa_empty(&d->remote);
	u32 i;

	mutex_lock(&d->lock);
	spin_lock_bh(&d->mem_lock);
	for (i = 0; i < d->geo.nr_segs && !busy; i++) {
		const struct mp_seg *s = &d->segs[i];

		busy = s->state != CMM_MP_SEG_OFFLINE ||
		       s->owner || s->nr_sharers || s->zeroing;
	}
	spin_unlock_bh(&d->mem_lock);
	mutex_unlock(&d->lock);
	return busy;
}

/* Enter a section in which mp_dev_get_default()'s answer stays valid. */
int mp_dev_srcu_lock(void)
	__acquires(&mp_dev_srcu)
{
	return srcu_read_lock(&mp_dev_srcu);
}

void mp_dev_srcu_unlock(int idx)
	__releases(&mp_dev_srcu)
{
	srcu_read_unlock(&mp_dev_srcu, idx);
}

/* The pool device or NULL; only inside mp_dev_srcu_lock(). */
struct mp_dev *mp_dev_get_default(void)
{
	return srcu_dereference(mp_default_dev, &mp_dev_srcu);
}

/*
 * Publish @d, or with NULL withdraw the device and wait until nobody uses
 * it any more: it may be destroyed then.
 */
void mp_dev_set_default(struct mp_dev *d)
{
	rcu_assign_pointer(mp_default_dev, d);
	if (!d)
		synchronize_srcu(&mp_dev_srcu);
}

struct mp_seg *mp_dev_seg(struct mp_dev *d, u32 id)
{
	if (!d || id >= d->geo.nr_segs)
		return NULL;
	return &d->segs[id];
}
