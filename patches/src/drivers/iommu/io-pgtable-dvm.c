// SPDX-License-Identifier: GPL-2.0
/*
 * DVM io-pgtable format: x86-64-style 4-level tables whose L2, L3 and L4
 * leaves may be Permission Entries (DVM paper, section 3.2).
 *
 * Identity mappings (iova == paddr) are described by PEs: sixteen 2-bit
 * permissions for the sixteen aligned sub-regions of an entry's span, so
 * that 128 KiB to 512 GiB of identity-mapped memory costs one entry. Other
 * mappings get regular 4 KiB leaves that translate. The table code is
 * dvm_pe.c (shared with cmm-mp's userspace unit tests); this file adapts
 * it to struct io_pgtable_ops and adds the calls a DVM device needs: set
 * the permission of an identity range, and walk a table the way the
 * device's access validation does.
 *
 * As for the other formats, callers serialize calls on one table.
 *
 * For a hardware walker (and its walk cache) the table changes in an
 * order it can follow: a new table is filled before an entry points to
 * it, and a table taken out (merged back into a PE, emptied) is unlinked
 * first and freed only after the walk caches are flushed: with an iotlb
 * gather the pages go on gather->freelist for the owner to free after
 * ->iotlb_sync(), without one the table flushes through cfg->tlb and then
 * frees them.  The root never changes; cfg->dvm_cfg.root publishes it.
 *
 * Unmapping cannot fail half-way: splitting a PE needs a table, and no
 * memory can be waited for there, so the table keeps a reserve of
 * DVM_UNMAP_TABLES zeroed pages, as many as one unmap can split, filled
 * when the table is made and refilled by every map (as its gfp allows)
 * and, without waiting, around every unmap.  An unmap takes its tables
 * from the reserve only, after making sure it holds what
 * dvm_pt_split_tables() says this unmap can need; only if that fails
 * (every refill since the last split failed) is it refused, returning 0
 * with the table unchanged.
 */
#define pr_fmt(fmt)	"dvm io-pgtable: " fmt

#include <linux/gfp.h>
#include <linux/io-pgtable.h>
#include <linux/io-pgtable-dvm.h>
#include <linux/iommu.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#define DVM_PGSIZES	(SZ_4K | SZ_128K | SZ_2M | SZ_64M | SZ_1G | \
			 (32ULL << 30) | (512ULL << 30))

/* an unmap splits PEs at its two ends, one table per level below L4 */
#define DVM_UNMAP_TABLES	(2 * (DVM_PT_LEVELS - 1))

struct dvm_io_pgtable {
	struct io_pgtable iop;
	struct dvm_pt pt;
	gfp_t gfp;		/* for tables allocated by the current call */
	bool from_reserve;	/* the current call takes tables from @reserve */
	unsigned int nr_reserve;
	struct list_head reserve;	/* zeroed pages for unmaps */
	struct list_head freed;		/* unlinked tables, not yet flushed */
#ifdef CONFIG_IOMMU_IO_PGTABLE_DVM_SELFTEST
	bool st_no_memory;	/* page allocations fail */
#endif
};

#define to_dvm(ops) \
	container_of(io_pgtable_ops_to_pgtable(ops), struct dvm_io_pgtable, iop)

static struct page *dvm_iop_page(struct dvm_io_pgtable *d, gfp_t gfp)
{
#ifdef CONFIG_IOMMU_IO_PGTABLE_DVM_SELFTEST
	if (d->st_no_memory)
		return NULL;
#endif
	return alloc_page(gfp | __GFP_ZERO | __GFP_NOWARN);
}

/* Fill the reserve up to DVM_UNMAP_TABLES pages; return how many it has. */
static unsigned int dvm_iop_reserve(struct dvm_io_pgtable *d, gfp_t gfp)
{
	struct page *page;

	while (d->nr_reserve < DVM_UNMAP_TABLES) {
		page = dvm_iop_page(d, gfp);
		if (!page)
			break;
		list_add(&page->lru, &d->reserve);
		d->nr_reserve++;
	}
	return d->nr_reserve;
}

static u64 *dvm_iop_alloc(void *priv, u64 *pa)
{
	struct dvm_io_pgtable *d = priv;
	struct page *page;

	if (d->from_reserve) {
		page = list_first_entry_or_null(&d->reserve, struct page, lru);
		if (page) {
			list_del(&page->lru);
			d->nr_reserve--;
		}
	} else {
		page = dvm_iop_page(d, d->gfp);
	}
	if (!page)
		return NULL;
	*pa = page_to_phys(page);
	return page_address(page);
}

/* An unlinked table: freed by dvm_iop_release() after the flush. */
static void dvm_iop_free(void *priv, u64 *table, u64 pa)
{
	struct dvm_io_pgtable *d = priv;

	list_add_tail(&virt_to_page(table)->lru, &d->freed);
}

/*
 * After a call that changed [@iova, @iova + @size): with @gather, record
 * the range and hand the unlinked tables to it (freed by its owner after
 * ->iotlb_sync()); without, flush the walk caches, then free them.
 */
static void dvm_iop_release(struct dvm_io_pgtable *d, unsigned long iova,
			    size_t size, struct iommu_iotlb_gather *gather)
{
	if (gather) {
		iommu_iotlb_gather_add_range(gather, iova, size);
		list_splice_tail_init(&d->freed, &gather->freelist);
		return;
	}
	io_pgtable_tlb_flush_walk(&d->iop, iova, size, SZ_4K);
	put_pages_list(&d->freed);
}

/*
 * Take [@iova, @iova + @size) away without failing half-way: 0, or
 * -ENOMEM with nothing changed.
 */
static int dvm_iop_unmap(struct dvm_io_pgtable *d, unsigned long iova,
			 u64 size)
{
	u32 need = dvm_pt_split_tables(&d->pt, iova, size);
	int ret;

	if (dvm_iop_reserve(d, GFP_ATOMIC) < need)
		return -ENOMEM;
	d->from_reserve = true;
	ret = dvm_pt_unmap(&d->pt, iova, size);
	d->from_reserve = false;
	/* dvm_pt_split_tables() bounds what it took */
	WARN_ON_ONCE(ret);
	dvm_iop_reserve(d, GFP_ATOMIC);
	return 0;
}

static u64 *dvm_iop_va(void *priv, u64 pa)
{
	return phys_to_virt(pa);
}

static const struct dvm_pt_ops dvm_iop_pt_ops = {
	.alloc = dvm_iop_alloc,
	.free = dvm_iop_free,
	.pa_to_va = dvm_iop_va,
};

/*
 * The paper's four permissions: read-write, read-execute, read-only, none.
 * As in the other formats, a readable mapping is executable unless
 * IOMMU_NOEXEC says otherwise; a writable one cannot be executable (there
 * is no code for write-execute), so IOMMU_WRITE gives read-write.
 */
static enum dvm_perm dvm_prot_to_perm(int prot)
{
	if (prot & IOMMU_WRITE)
		return DVM_PERM_RW;
	if (prot & IOMMU_READ)
		return prot & IOMMU_NOEXEC ? DVM_PERM_RO : DVM_PERM_RX;
	return DVM_PERM_NONE;
}

static bool dvm_valid_range(unsigned long iova, u64 size)
{
	return size && IS_ALIGNED(iova | size, SZ_4K) &&
	       iova < BIT_ULL(DVM_VA_BITS) && size <= BIT_ULL(DVM_VA_BITS) - iova;
}

static int dvm_map_pages(struct io_pgtable_ops *ops, unsigned long iova,
			 phys_addr_t paddr, size_t pgsize, size_t pgcount,
			 int prot, gfp_t gfp, size_t *mapped)
{
	struct dvm_io_pgtable *d = to_dvm(ops);
	enum dvm_perm perm = dvm_prot_to_perm(prot);
	u64 size = (u64)pgsize * pgcount, off;
	int ret = 0;

	if (!(pgsize & DVM_PGSIZES) || !is_power_of_2(pgsize) || !pgcount ||
	    !dvm_valid_range(iova, size) || perm == DVM_PERM_NONE ||
	    !IS_ALIGNED(paddr, SZ_4K))
		return -EINVAL;
	/*
	 * Other mappings of any advertised size become 4 KiB leaves that
	 * translate (the format has no large translating leaf): the IOMMU
	 * core may hand a 2 MiB or 1 GiB page of a non-identity range here.
	 */
	if (!dvm_pt_range_empty(&d->pt, iova, size))
		return -EEXIST;
	d->gfp = gfp;
	if (iova == paddr) {
		ret = dvm_pt_set_identity(&d->pt, iova, size, perm);
		/* undo what was done, allocating as the map did */
		if (ret)
			dvm_pt_unmap(&d->pt, iova, size);
	} else {
		for (off = 0; off < size; off += SZ_4K) {
			ret = dvm_pt_map_page(&d->pt, iova + off, paddr + off,
					      perm);
			if (ret) {
				if (off)
					dvm_pt_unmap(&d->pt, iova, off);
				break;
			}
		}
	}
	dvm_iop_release(d, iova, size, NULL);
	dvm_iop_reserve(d, gfp);
	if (!ret && mapped)
		*mapped += size;
	return ret;
}

static int dvm_map(struct io_pgtable_ops *ops, unsigned long iova,
		   phys_addr_t paddr, size_t size, int prot, gfp_t gfp)
{
	return dvm_map_pages(ops, iova, paddr, size, 1, prot, gfp, NULL);
}

static size_t dvm_unmap_pages(struct io_pgtable_ops *ops, unsigned long iova,
			      size_t pgsize, size_t pgcount,
			      struct iommu_iotlb_gather *gather)
{
	struct dvm_io_pgtable *d = to_dvm(ops);
	u64 size = (u64)pgsize * pgcount;

	if (!dvm_valid_range(iova, size) ||
	    dvm_pt_range_empty(&d->pt, iova, SZ_4K))
		return 0;
	if (dvm_iop_unmap(d, iova, size))
		return 0;
	dvm_iop_release(d, iova, size, gather);
	return size;
}

static size_t dvm_unmap(struct io_pgtable_ops *ops, unsigned long iova,
			size_t size, struct iommu_iotlb_gather *gather)
{
	return dvm_unmap_pages(ops, iova, size, 1, gather);
}

static phys_addr_t dvm_iova_to_phys(struct io_pgtable_ops *ops,
				    unsigned long iova)
{
	struct dvm_walk w;

	if (dvm_pt_walk(&to_dvm(ops)->pt, iova, DVM_ACCESS_READ, NULL, NULL,
			&w))
		return 0;
	return w.pa;
}

/**
 * dvm_io_pgtable_set_perm() - set the permission of an identity range
 * @ops: a DVM_IDENTITY table
 * @iova: 4 KiB aligned start; the physical address is the same
 * @size: 4 KiB aligned length
 * @perm: the new permission; DVM_PERM_NONE takes the range away
 * @gfp: for tables needed to split a PE
 *
 * Whatever was mapped in the range before is replaced. PEs are split where
 * the range does not cover whole sub-regions, and tables merged back into
 * PEs where the result is uniform.  Walk caches are flushed before tables
 * taken out are freed.  With DVM_PERM_NONE this is an unmap and does not
 * fail half-way (see the top of this file; @gfp is not used).
 *
 * Return: 0, -EINVAL for a bad range or permission, -ENOMEM (with
 * DVM_PERM_NONE: nothing changed).
 */
int dvm_io_pgtable_set_perm(struct io_pgtable_ops *ops, unsigned long iova,
			    size_t size, enum dvm_perm perm, gfp_t gfp)
{
	struct dvm_io_pgtable *d = to_dvm(ops);
	int ret;

	if (!dvm_valid_range(iova, size) || (u32)perm > DVM_PERM_RX)
		return -EINVAL;
	if (perm == DVM_PERM_NONE) {
		ret = dvm_iop_unmap(d, iova, size);
	} else {
		d->gfp = gfp;
		ret = dvm_pt_set_identity(&d->pt, iova, size, perm);
		dvm_iop_reserve(d, gfp);
	}
	dvm_iop_release(d, iova, size, NULL);
	return ret;
}
EXPORT_SYMBOL_GPL(dvm_io_pgtable_set_perm);

/**
 * dvm_io_pgtable_walk() - validate one access as a DVM device does
 * @ops: a DVM_IDENTITY table
 * @iova: the address the device uses
 * @access: read, write or execute
 * @read: called with the physical address of every entry read (an Access
 *	Validation Cache); NULL counts every read as a memory reference
 * @arg: for @read
 * @w: the outcome: identity or translated physical address, permission,
 *	entries read and memory references
 *
 * Return: 0 when @access is allowed, -EFAULT when not, -EINVAL.
 */
int dvm_io_pgtable_walk(struct io_pgtable_ops *ops, unsigned long iova,
			enum dvm_access access, dvm_walk_read_fn read,
			void *arg, struct dvm_walk *w)
{
	return dvm_pt_walk(&to_dvm(ops)->pt, iova, access, read, arg, w);
}
EXPORT_SYMBOL_GPL(dvm_io_pgtable_walk);

/**
 * dvm_io_pgtable_bytes() - memory of the table, and of 4 KiB-page tables
 * @ops: a DVM_IDENTITY table
 * @pe_bytes: bytes of the tables in use
 * @conventional_bytes: bytes x86-64 tables with 4 KiB pages only would need
 *	for the same mappings
 */
void dvm_io_pgtable_bytes(struct io_pgtable_ops *ops, u64 *pe_bytes,
			  u64 *conventional_bytes)
{
	struct dvm_io_pgtable *d = to_dvm(ops);

	*pe_bytes = dvm_pt_bytes(&d->pt);
	*conventional_bytes = dvm_pt_conventional_bytes(&d->pt);
}
EXPORT_SYMBOL_GPL(dvm_io_pgtable_bytes);

static struct io_pgtable *dvm_alloc_pgtable(struct io_pgtable_cfg *cfg,
					    void *cookie)
{
	struct dvm_io_pgtable *d;

	if (cfg->ias > DVM_VA_BITS || cfg->oas > 52)
		return NULL;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return NULL;
	d->gfp = GFP_KERNEL;
	INIT_LIST_HEAD(&d->reserve);
	INIT_LIST_HEAD(&d->freed);
	if (dvm_pt_init(&d->pt, &dvm_iop_pt_ops, d)) {
		kfree(d);
		return NULL;
	}
	if (dvm_iop_reserve(d, GFP_KERNEL) < DVM_UNMAP_TABLES) {
		dvm_pt_destroy(&d->pt);
		put_pages_list(&d->freed);
		put_pages_list(&d->reserve);
		kfree(d);
		return NULL;
	}
	cfg->dvm_cfg.root = d->pt.root_pa;
	cfg->pgsize_bitmap &= DVM_PGSIZES;
	if (!cfg->pgsize_bitmap)
		cfg->pgsize_bitmap = DVM_PGSIZES;
	d->iop.ops = (struct io_pgtable_ops) {
		.map = dvm_map,
		.map_pages = dvm_map_pages,
		.unmap = dvm_unmap,
		.unmap_pages = dvm_unmap_pages,
		.iova_to_phys = dvm_iova_to_phys,
	};
	return &d->iop;
}

static void dvm_free_pgtable(struct io_pgtable *iop)
{
	struct dvm_io_pgtable *d = container_of(iop, struct dvm_io_pgtable, iop);

	dvm_pt_destroy(&d->pt);
	put_pages_list(&d->freed);
	put_pages_list(&d->reserve);
	kfree(d);
}

struct io_pgtable_init_fns io_pgtable_dvm_init_fns = {
	.alloc = dvm_alloc_pgtable,
	.free = dvm_free_pgtable,
};

#ifdef CONFIG_IOMMU_IO_PGTABLE_DVM_SELFTEST

static unsigned int dvm_st_pass, dvm_st_fail;

#define DVM_ST(cond) do {						\
	if (cond) {							\
		dvm_st_pass++;						\
	} else {							\
		dvm_st_fail++;						\
		pr_err("selftest: line %d: %s\n", __LINE__, #cond);	\
	}								\
} while (0)

static u64 __init dvm_st_tables(struct io_pgtable_ops *ops)
{
	return to_dvm(ops)->pt.nr_tables;
}

static bool __init dvm_st_allowed(struct io_pgtable_ops *ops, u64 iova,
				  enum dvm_access a)
{
	struct dvm_walk w;

	return !dvm_io_pgtable_walk(ops, iova, a, NULL, NULL, &w);
}

/* An empty table translates nothing and holds only its root. */
static void __init dvm_st_empty(struct io_pgtable_ops *ops)
{
	static const u64 probe[] __initconst = {
		0, SZ_4K, SZ_2M, SZ_1G, 512ULL << 30, BIT_ULL(47) - SZ_4K,
	};
	u64 pe, conv;
	int i;

	for (i = 0; i < ARRAY_SIZE(probe); i++)
		DVM_ST(!ops->iova_to_phys(ops, probe[i]));
	dvm_io_pgtable_bytes(ops, &pe, &conv);
	DVM_ST(pe == SZ_4K && conv == SZ_4K);
	DVM_ST(!ops->unmap_pages(ops, SZ_1G, SZ_4K, 1, NULL));
}

/* Identity maps at every page size: map, overlap, translate, unmap. */
static void __init dvm_st_sizes(struct io_pgtable_ops *ops)
{
	unsigned long sizes = DVM_PGSIZES;
	size_t mapped;
	int bit;

	for_each_set_bit(bit, &sizes, BITS_PER_LONG) {
		u64 size = BIT_ULL(bit), iova = 3 * size;

		mapped = 0;
		DVM_ST(!ops->map_pages(ops, iova, iova, size, 1,
				       IOMMU_READ | IOMMU_WRITE, GFP_KERNEL,
				       &mapped));
		DVM_ST(mapped == size);
		DVM_ST(ops->iova_to_phys(ops, iova + 42) == iova + 42);
		DVM_ST(ops->iova_to_phys(ops, iova + size - 1) ==
		       iova + size - 1);
		DVM_ST(!ops->iova_to_phys(ops, iova - 1));
		DVM_ST(!ops->iova_to_phys(ops, iova + size));
		DVM_ST(dvm_st_allowed(ops, iova + size / 2, DVM_ACCESS_WRITE));
		/* overlaps are rejected, whole or in part */
		DVM_ST(ops->map_pages(ops, iova, iova, size, 1, IOMMU_READ,
				      GFP_KERNEL, &mapped) == -EEXIST);
		DVM_ST(ops->map_pages(ops, iova + size - SZ_4K,
				      iova + size - SZ_4K, SZ_4K, 2, IOMMU_READ,
				      GFP_KERNEL, &mapped) == -EEXIST);
		DVM_ST(ops->map_pages(ops, iova, SZ_4K, SZ_4K, 1, IOMMU_READ,
				      GFP_KERNEL, &mapped) == -EEXIST);
		DVM_ST(mapped == size);
		/* a PE or four levels of tables at most */
		DVM_ST(dvm_st_tables(ops) <= 4);
		DVM_ST(ops->unmap_pages(ops, iova, size, 1, NULL) == size);
		DVM_ST(!ops->iova_to_phys(ops, iova + 42));
		DVM_ST(dvm_st_tables(ops) == 1);
	}
	/* not an advertised page size, a physical address not page aligned */
	DVM_ST(ops->map_pages(ops, SZ_2M, SZ_2M, SZ_8K, 1, IOMMU_READ,
			      GFP_KERNEL, &mapped) == -EINVAL);
	DVM_ST(ops->map_pages(ops, SZ_2M, SZ_4M + 1, SZ_4K, 1, IOMMU_READ,
			      GFP_KERNEL, &mapped) == -EINVAL);
	DVM_ST(dvm_st_tables(ops) == 1);
	DVM_ST(ops->map_pages(ops, BIT_ULL(48), BIT_ULL(48), SZ_4K, 1,
			      IOMMU_READ, GFP_KERNEL, &mapped) == -EINVAL);
}

/* Regular 4 KiB leaves translate, next to PEs. */
static void __init dvm_st_translate(struct io_pgtable_ops *ops)
{
	u64 iova = 5ULL << 30;
	size_t mapped = 0;

	DVM_ST(!ops->map_pages(ops, iova, iova, SZ_2M, 1, IOMMU_READ,
			       GFP_KERNEL, &mapped));
	DVM_ST(!ops->map_pages(ops, iova + SZ_2M, SZ_1M, SZ_4K, 4,
			       IOMMU_READ | IOMMU_WRITE, GFP_KERNEL, &mapped));
	DVM_ST(mapped == SZ_2M + 4 * SZ_4K);
	DVM_ST(ops->iova_to_phys(ops, iova + SZ_2M + SZ_8K + 7) ==
	       SZ_1M + SZ_8K + 7);
	DVM_ST(dvm_st_allowed(ops, iova + SZ_2M + SZ_4K, DVM_ACCESS_WRITE));
	DVM_ST(!dvm_st_allowed(ops, iova + SZ_4K, DVM_ACCESS_WRITE));
	DVM_ST(ops->unmap_pages(ops, iova, SZ_4K, 512 + 4, NULL) ==
	       SZ_2M + 4 * SZ_4K);
	DVM_ST(dvm_st_tables(ops) == 1);
}

/*
 * Large pages of a non-identity range (the IOMMU core sends the largest
 * advertised size that fits) become 4 KiB leaves that translate.
 */
static void __init dvm_st_large_translate(struct io_pgtable_ops *ops)
{
	u64 iova = 17ULL << 30, pa = 3ULL << 30, pe, conv;
	size_t mapped = 0;

	/* two 2 MiB pages, then a 1 GiB page elsewhere */
	DVM_ST(!ops->map_pages(ops, iova, pa, SZ_2M, 2,
			       IOMMU_READ | IOMMU_WRITE, GFP_KERNEL, &mapped));
	DVM_ST(mapped == 2 * SZ_2M);
	DVM_ST(ops->iova_to_phys(ops, iova) == pa);
	DVM_ST(ops->iova_to_phys(ops, iova + SZ_2M + SZ_8K + 5) ==
	       pa + SZ_2M + SZ_8K + 5);
	DVM_ST(ops->iova_to_phys(ops, iova + 2 * SZ_2M - 1) ==
	       pa + 2 * SZ_2M - 1);
	DVM_ST(!ops->iova_to_phys(ops, iova + 2 * SZ_2M));
	DVM_ST(dvm_st_allowed(ops, iova + SZ_2M, DVM_ACCESS_WRITE));
	/* root, L3, L2 and an L1 table per 2 MiB: as 4 KiB tables would */
	dvm_io_pgtable_bytes(ops, &pe, &conv);
	DVM_ST(dvm_st_tables(ops) == 5 && pe == 5 * SZ_4K && conv == pe);
	DVM_ST(ops->map_pages(ops, iova + SZ_2M, pa, SZ_2M, 1, IOMMU_READ,
			      GFP_KERNEL, &mapped) == -EEXIST);
	DVM_ST(ops->map_pages(ops, iova + SZ_1G, pa, SZ_1G, 1,
			      IOMMU_READ | IOMMU_NOEXEC, GFP_KERNEL,
			      &mapped) == 0);
	DVM_ST(mapped == 2 * SZ_2M + SZ_1G);
	DVM_ST(ops->iova_to_phys(ops, iova + SZ_1G + SZ_64M + 3) ==
	       pa + SZ_64M + 3);
	DVM_ST(dvm_st_allowed(ops, iova + SZ_1G + SZ_1G - 1, DVM_ACCESS_READ));
	DVM_ST(!dvm_st_allowed(ops, iova + SZ_1G, DVM_ACCESS_WRITE));
	DVM_ST(!dvm_st_allowed(ops, iova + SZ_1G, DVM_ACCESS_EXEC));
	DVM_ST(dvm_st_tables(ops) == 5 + 1 + 512);
	DVM_ST(ops->unmap_pages(ops, iova, SZ_2M, 2, NULL) == 2 * SZ_2M);
	DVM_ST(ops->unmap_pages(ops, iova + SZ_1G, SZ_1G, 1, NULL) == SZ_1G);
	DVM_ST(!ops->iova_to_phys(ops, iova + SZ_2M));
	DVM_ST(dvm_st_tables(ops) == 1);
}

/*
 * Execute permission: readable mappings are read-execute (11) unless
 * IOMMU_NOEXEC, writable ones read-write, for PEs and 4 KiB leaves alike.
 */
static void __init dvm_st_exec(struct io_pgtable_ops *ops)
{
	u64 iova = 19ULL << 30;
	size_t mapped = 0;

	DVM_ST(!ops->map_pages(ops, iova, iova, SZ_2M, 1, IOMMU_READ,
			       GFP_KERNEL, &mapped));
	DVM_ST(!ops->map_pages(ops, iova + SZ_2M, iova + SZ_2M, SZ_2M, 1,
			       IOMMU_READ | IOMMU_NOEXEC, GFP_KERNEL, &mapped));
	DVM_ST(!ops->map_pages(ops, iova + SZ_4M, SZ_1M, SZ_4K, 1, IOMMU_READ,
			       GFP_KERNEL, &mapped));
	DVM_ST(!ops->map_pages(ops, iova + SZ_4M + SZ_4K, SZ_1M, SZ_4K, 1,
			       IOMMU_READ | IOMMU_WRITE, GFP_KERNEL, &mapped));
	DVM_ST(dvm_st_allowed(ops, iova + SZ_1M, DVM_ACCESS_EXEC));
	DVM_ST(dvm_st_allowed(ops, iova + SZ_1M, DVM_ACCESS_READ));
	DVM_ST(!dvm_st_allowed(ops, iova + SZ_1M, DVM_ACCESS_WRITE));
	DVM_ST(!dvm_st_allowed(ops, iova + SZ_2M, DVM_ACCESS_EXEC));
	DVM_ST(dvm_st_allowed(ops, iova + SZ_2M, DVM_ACCESS_READ));
	DVM_ST(dvm_st_allowed(ops, iova + SZ_4M, DVM_ACCESS_EXEC));
	DVM_ST(!dvm_st_allowed(ops, iova + SZ_4M + SZ_4K, DVM_ACCESS_EXEC));
	DVM_ST(dvm_st_allowed(ops, iova + SZ_4M + SZ_4K, DVM_ACCESS_WRITE));
	DVM_ST(ops->unmap_pages(ops, iova, SZ_4K, 1024 + 2, NULL) ==
	       SZ_4M + SZ_8K);
	DVM_ST(dvm_st_tables(ops) == 1);
}

/* Unmap part of a PE, then map it again: split, then merge. */
static void __init dvm_st_partial(struct io_pgtable_ops *ops)
{
	u64 iova = 7ULL << 30, hole = iova + 5 * SZ_64M + SZ_1M;
	size_t mapped = 0;
	u64 t;

	DVM_ST(!ops->map_pages(ops, iova, iova, SZ_1G, 1,
			       IOMMU_READ | IOMMU_WRITE, GFP_KERNEL, &mapped));
	t = dvm_st_tables(ops);
	DVM_ST(t == 2);			/* root + L3 table holding the PE */
	/* a 64 MiB sub-region: the PE changes in place */
	DVM_ST(ops->unmap_pages(ops, iova + SZ_64M, SZ_64M, 1, NULL) ==
	       SZ_64M);
	DVM_ST(dvm_st_tables(ops) == t);
	DVM_ST(!ops->iova_to_phys(ops, iova + SZ_64M + SZ_4K));
	DVM_ST(ops->iova_to_phys(ops, iova + 2 * SZ_64M) == iova + 2 * SZ_64M);
	/* one page: L2 table of PEs, then an L1 table */
	DVM_ST(ops->unmap_pages(ops, hole, SZ_4K, 1, NULL) == SZ_4K);
	DVM_ST(dvm_st_tables(ops) == t + 2);
	DVM_ST(!ops->iova_to_phys(ops, hole));
	DVM_ST(ops->iova_to_phys(ops, hole - 1) == hole - 1);
	DVM_ST(ops->iova_to_phys(ops, hole + SZ_4K) == hole + SZ_4K);
	/* nothing there any more: unmapping again does nothing */
	DVM_ST(!ops->unmap_pages(ops, hole, SZ_4K, 1, NULL));
	/* remap both holes: the tables merge back into one L3 PE */
	DVM_ST(!ops->map_pages(ops, hole, hole, SZ_4K, 1,
			       IOMMU_READ | IOMMU_WRITE, GFP_KERNEL, &mapped));
	DVM_ST(dvm_st_tables(ops) == t);
	DVM_ST(!ops->map_pages(ops, iova + SZ_64M, iova + SZ_64M, SZ_128K,
			       512, IOMMU_READ | IOMMU_WRITE, GFP_KERNEL,
			       &mapped));
	DVM_ST(dvm_st_tables(ops) == t);
	DVM_ST(ops->iova_to_phys(ops, iova + SZ_64M) == iova + SZ_64M);
	DVM_ST(ops->unmap_pages(ops, iova, SZ_1G, 1, NULL) == SZ_1G);
	DVM_ST(dvm_st_tables(ops) == 1);
}

/* Permission changes split PEs and merge them back. */
static void __init dvm_st_perm(struct io_pgtable_ops *ops)
{
	u64 iova = 9ULL << 30, page = iova + 3 * SZ_64M + 7 * SZ_128K + SZ_8K;
	size_t mapped = 0;
	u64 pe, conv;

	DVM_ST(!ops->map_pages(ops, iova, iova, SZ_1G, 1,
			       IOMMU_READ | IOMMU_WRITE, GFP_KERNEL, &mapped));
	dvm_io_pgtable_bytes(ops, &pe, &conv);
	DVM_ST(pe == 2 * SZ_4K && conv == (3 + 512) * SZ_4K);
	/* a whole sub-region read-only: no split */
	DVM_ST(!dvm_io_pgtable_set_perm(ops, iova, SZ_64M, DVM_PERM_RO,
					GFP_KERNEL));
	DVM_ST(dvm_st_tables(ops) == 2);
	DVM_ST(!dvm_st_allowed(ops, iova + SZ_4K, DVM_ACCESS_WRITE));
	DVM_ST(dvm_st_allowed(ops, iova + SZ_4K, DVM_ACCESS_READ));
	DVM_ST(dvm_st_allowed(ops, iova + SZ_64M, DVM_ACCESS_WRITE));
	/* one page executable: L3 PE -> L2 table -> L1 table */
	DVM_ST(!dvm_io_pgtable_set_perm(ops, page, SZ_4K, DVM_PERM_RX,
					GFP_KERNEL));
	DVM_ST(dvm_st_tables(ops) == 4);
	DVM_ST(dvm_st_allowed(ops, page, DVM_ACCESS_EXEC));
	DVM_ST(!dvm_st_allowed(ops, page, DVM_ACCESS_WRITE));
	DVM_ST(!dvm_st_allowed(ops, page + SZ_4K, DVM_ACCESS_EXEC));
	DVM_ST(dvm_st_allowed(ops, page + SZ_4K, DVM_ACCESS_WRITE));
	DVM_ST(ops->iova_to_phys(ops, page + 1) == page + 1);
	/* back to read-write: merged into the one L3 PE again */
	DVM_ST(!dvm_io_pgtable_set_perm(ops, page, SZ_4K, DVM_PERM_RW,
					GFP_KERNEL));
	DVM_ST(dvm_st_tables(ops) == 2);
	DVM_ST(!dvm_io_pgtable_set_perm(ops, iova, SZ_64M, DVM_PERM_RW,
					GFP_KERNEL));
	DVM_ST(dvm_st_allowed(ops, iova + SZ_4K, DVM_ACCESS_WRITE));
	DVM_ST(dvm_io_pgtable_set_perm(ops, iova + 1, SZ_4K, DVM_PERM_RW,
				       GFP_KERNEL) == -EINVAL);
	DVM_ST(dvm_io_pgtable_set_perm(ops, iova, SZ_4K, 7, GFP_KERNEL) ==
	       -EINVAL);
	DVM_ST(!dvm_io_pgtable_set_perm(ops, iova, SZ_1G, DVM_PERM_NONE,
					GFP_KERNEL));
	DVM_ST(dvm_st_tables(ops) == 1);
}

/* The root is published in the cfg, where a walker would start. */
static void __init dvm_st_root(struct io_pgtable_ops *ops,
			       const struct io_pgtable_cfg *cfg)
{
	u64 iova = 11ULL << 30, *root;
	size_t mapped = 0;

	DVM_ST(cfg->dvm_cfg.root && cfg->dvm_cfg.root == to_dvm(ops)->pt.root_pa);
	DVM_ST(io_pgtable_ops_to_pgtable(ops)->cfg.dvm_cfg.root ==
	       cfg->dvm_cfg.root);
	root = phys_to_virt(cfg->dvm_cfg.root);
	DVM_ST(!root[0]);
	DVM_ST(!ops->map_pages(ops, iova, iova, SZ_2M, 1, IOMMU_READ,
			       GFP_KERNEL, &mapped));
	DVM_ST(root[0] & DVM_E_PRESENT);
	DVM_ST(ops->unmap_pages(ops, iova, SZ_2M, 1, NULL) == SZ_2M);
	DVM_ST(!root[0]);
}

static struct dvm_io_pgtable *dvm_st_d __initdata;
static unsigned int dvm_st_flushes __initdata, dvm_st_pending __initdata;

static unsigned int __init dvm_st_count(struct list_head *head)
{
	struct list_head *pos;
	unsigned int n = 0;

	list_for_each(pos, head)
		n++;
	return n;
}

static void __init dvm_st_flush_all(void *cookie)
{
	dvm_st_flushes++;
}

/* a walk-cache flush: count the tables waiting for it */
static void __init dvm_st_flush_walk(unsigned long iova, size_t size,
				     size_t granule, void *cookie)
{
	dvm_st_flushes++;
	dvm_st_pending = dvm_st_d ? dvm_st_count(&dvm_st_d->freed) : 0;
}

static const struct iommu_flush_ops dvm_st_flush_ops __initconst = {
	.tlb_flush_all = dvm_st_flush_all,
	.tlb_flush_walk = dvm_st_flush_walk,
};

/*
 * Tables taken out are freed only after the walk caches are flushed, or
 * handed to the iotlb gather.
 */
static void __init dvm_st_deferred(struct io_pgtable_ops *ops)
{
	u64 iova = 13ULL << 30, page = iova + 5 * SZ_64M + SZ_1M;
	struct iommu_iotlb_gather gather;
	size_t mapped = 0;
	u64 t;

	DVM_ST(!ops->map_pages(ops, iova, iova, SZ_1G, 1,
			       IOMMU_READ | IOMMU_WRITE, GFP_KERNEL, &mapped));
	t = dvm_st_tables(ops);
	DVM_ST(ops->unmap_pages(ops, page, SZ_4K, 1, NULL) == SZ_4K);
	DVM_ST(dvm_st_tables(ops) == t + 2);
	/* the remap merges both tables back: still allocated at the flush */
	dvm_st_pending = 0;
	DVM_ST(!ops->map_pages(ops, page, page, SZ_4K, 1,
			       IOMMU_READ | IOMMU_WRITE, GFP_KERNEL, &mapped));
	DVM_ST(dvm_st_tables(ops) == t);
	DVM_ST(dvm_st_pending == 2);
	DVM_ST(list_empty(&dvm_st_d->freed));
	/* with a gather: on its freelist, not flushed, not freed */
	DVM_ST(ops->unmap_pages(ops, page, SZ_4K, 1, NULL) == SZ_4K);
	iommu_iotlb_gather_init(&gather);
	dvm_st_flushes = 0;
	DVM_ST(ops->unmap_pages(ops, iova, SZ_1G, 1, &gather) == SZ_1G);
	DVM_ST(!dvm_st_flushes);
	DVM_ST(dvm_st_count(&gather.freelist) == 3);
	DVM_ST(dvm_st_tables(ops) == 1);
	DVM_ST(gather.start <= iova && gather.end >= iova + SZ_1G - 1);
	DVM_ST(!ops->iova_to_phys(ops, iova));
	put_pages_list(&gather.freelist);
}

/*
 * Unmapping splits PEs with tables from the reserve: no allocation can
 * make it fail, and one that needs more than the reserve holds is
 * refused whole.
 */
static void __init dvm_st_nofail(struct io_pgtable_ops *ops)
{
	struct dvm_io_pgtable *d = to_dvm(ops);
	u64 iova = 15ULL << 30, a = iova + 3 * SZ_64M + SZ_8K;
	u64 b = iova + 9 * SZ_64M + 4 * SZ_128K + SZ_4K, c = iova + SZ_1G;
	size_t mapped = 0;
	u64 t;

	DVM_ST(!ops->map_pages(ops, iova, iova, SZ_1G, 2,
			       IOMMU_READ | IOMMU_WRITE, GFP_KERNEL, &mapped));
	t = dvm_st_tables(ops);
	DVM_ST(d->nr_reserve == DVM_UNMAP_TABLES);
	d->st_no_memory = true;
	/* L3 PE -> L2 table -> L1 table; then one more L1 table */
	DVM_ST(ops->unmap_pages(ops, a, SZ_4K, 1, NULL) == SZ_4K);
	DVM_ST(dvm_io_pgtable_set_perm(ops, b, SZ_4K, DVM_PERM_NONE,
				       GFP_KERNEL) == 0);
	DVM_ST(dvm_st_tables(ops) == t + 3);
	DVM_ST(d->nr_reserve == DVM_UNMAP_TABLES - 3);
	DVM_ST(!ops->iova_to_phys(ops, a) && !ops->iova_to_phys(ops, b));
	DVM_ST(ops->iova_to_phys(ops, a + SZ_4K) == a + SZ_4K);
	DVM_ST(ops->iova_to_phys(ops, b - SZ_4K) == b - SZ_4K);
	/* both ends inside the other L3 PE: four tables, three left */
	DVM_ST(!ops->unmap_pages(ops, c + SZ_4K, SZ_4K, 2, NULL));
	DVM_ST(dvm_st_tables(ops) == t + 3);
	DVM_ST(ops->iova_to_phys(ops, c + SZ_4K) == c + SZ_4K);
	d->st_no_memory = false;
	DVM_ST(ops->unmap_pages(ops, c + SZ_4K, SZ_4K, 2, NULL) == SZ_8K);
	DVM_ST(!ops->iova_to_phys(ops, c + SZ_4K));
	DVM_ST(d->nr_reserve == DVM_UNMAP_TABLES);
	DVM_ST(list_empty(&d->freed));
	DVM_ST(ops->unmap_pages(ops, iova, SZ_1G, 2, NULL) == 2ULL * SZ_1G);
	DVM_ST(dvm_st_tables(ops) == 1);
}

static int __init dvm_io_pgtable_selftest(void)
{
	struct io_pgtable_cfg cfg = {
		.pgsize_bitmap = DVM_PGSIZES,
		.ias = DVM_VA_BITS,
		.oas = DVM_VA_BITS,
		.tlb = &dvm_st_flush_ops,
	};
	struct io_pgtable_ops *ops;

	ops = alloc_io_pgtable_ops(DVM_IDENTITY, &cfg, NULL);
	if (!ops) {
		pr_err("selftest: cannot allocate a table\n");
		return -ENOMEM;
	}
	dvm_st_d = to_dvm(ops);
	dvm_st_empty(ops);
	dvm_st_sizes(ops);
	dvm_st_translate(ops);
	dvm_st_large_translate(ops);
	dvm_st_exec(ops);
	dvm_st_partial(ops);
	dvm_st_perm(ops);
	dvm_st_root(ops, &cfg);
	dvm_st_deferred(ops);
	dvm_st_nofail(ops);
	dvm_st_d = NULL;
	free_io_pgtable_ops(ops);
	pr_info("selftest: completed with %u PASS %u FAIL\n", dvm_st_pass,
		dvm_st_fail);
	return 0;
}
subsys_initcall(dvm_io_pgtable_selftest);
#endif
