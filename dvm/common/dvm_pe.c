// SPDX-License-Identifier: GPL-2.0
/*
 * DVM page tables with Permission Entries (pure logic, shared with the
 * userspace tests).
 */
#include "dvm_pe.h"

#define DVM_GROUP	(DVM_PT_ENTRIES / DVM_PE_SUBREGIONS)	/* 32 */

struct dvm_set {
	bool identity;		/* VA == PA; with DVM_PERM_NONE: unmap */
	enum dvm_perm perm;
	u64 pa;			/* !identity: frame of the (single) page */
};

static u32 dvm_index(u64 va, int level)
{
	return (u32)(va >> (DVM_PT_PAGE_SHIFT + 9 * (level - 1))) &
	       (DVM_PT_ENTRIES - 1);
}

static enum dvm_perm pe_perm(u64 e, u32 k)
{
	return (enum dvm_perm)((e >> (DVM_PE_PERM_SHIFT + 2 * k)) & 3);
}

static u64 pe_with(u64 e, u32 k, enum dvm_perm p)
{
	u64 shift = DVM_PE_PERM_SHIFT + 2 * k;

	return (e & ~(3ULL << shift)) | ((u64)p << shift);
}

static u64 pe_all(enum dvm_perm p)
{
	u64 e = 0;
	u32 k;

	if (p == DVM_PERM_NONE)
		return 0;
	for (k = 0; k < DVM_PE_SUBREGIONS; k++)
		e = pe_with(e, k, p);
	return e | DVM_E_PRESENT | DVM_E_PE;
}

static u64 pte(u64 pa, enum dvm_perm p)
{
	if (p == DVM_PERM_NONE)
		return 0;
	return DVM_E_PRESENT | ((u64)p << DVM_E_PERM_SHIFT) |
	       (pa & DVM_E_ADDR_MASK);
}

static bool is_table(u64 e, int level)
{
	return level > 1 && (e & DVM_E_PRESENT) && !(e & DVM_E_PE);
}

static u64 *child_of(const struct dvm_pt *pt, u64 e)
{
	return pt->ops->pa_to_va(pt->priv, e & DVM_E_ADDR_MASK);
}

int dvm_pt_init(struct dvm_pt *pt, const struct dvm_pt_ops *ops, void *priv)
{
	if (!pt || !ops || !ops->alloc || !ops->free || !ops->pa_to_va)
		return -EINVAL;
	pt->ops = ops;
	pt->priv = priv;
	pt->root = ops->alloc(priv, &pt->root_pa);
	if (!pt->root)
		return -ENOMEM;
	pt->nr_tables = 1;
	return 0;
}

static void free_table(struct dvm_pt *pt, u64 *table, u64 pa, int level)
{
	u32 i;

	for (i = 0; i < DVM_PT_ENTRIES; i++)
		if (is_table(table[i], level))
			free_table(pt, child_of(pt, table[i]),
				   table[i] & DVM_E_ADDR_MASK, level - 1);
	pt->ops->free(pt->priv, table, pa);
	pt->nr_tables--;
}

void dvm_pt_destroy(struct dvm_pt *pt)
{
	if (!pt || !pt->root)
		return;
	free_table(pt, pt->root, pt->root_pa, DVM_PT_LEVELS);
	pt->root = NULL;
}

/* Fill a new table at @level with what the PE @e above it granted. */
static void expand(u64 *child, u64 e, int level, u64 base)
{
	u32 j;

	for (j = 0; j < DVM_PT_ENTRIES; j++) {
		enum dvm_perm p = pe_perm(e, j / DVM_GROUP);

		if (level > 1)
			child[j] = pe_all(p);
		else
			child[j] = pte(base + (u64)j * dvm_pt_span(1), p);
	}
}

/*
 * Is @e, at @level and covering @va, the same as a uniform identity grant?
 * Return the permission in *p; false for tables and translations.
 */
static bool uniform(u64 e, int level, u64 va, enum dvm_perm *p)
{
	u32 k;

	if (!(e & DVM_E_PRESENT)) {
		*p = DVM_PERM_NONE;
		return true;
	}
	if (level == 1) {
		if ((e & DVM_E_ADDR_MASK) != va)
			return false;
		*p = (enum dvm_perm)((e >> DVM_E_PERM_SHIFT) & 3);
		return true;
	}
	if (!(e & DVM_E_PE))
		return false;
	*p = pe_perm(e, 0);
	for (k = 1; k < DVM_PE_SUBREGIONS; k++)
		if (pe_perm(e, k) != *p)
			return false;
	return true;
}

/*
 * Replace the table below *@parent with a PE when every sixteenth of it is
 * one uniform identity grant: the paper's compaction, which is what keeps
 * identity-mapped memory cheap to describe.
 */
static void try_merge(struct dvm_pt *pt, u64 *parent, u64 *child, int level,
		      u64 base)
{
	u64 pe = 0, span = dvm_pt_span(level), cpa;
	enum dvm_perm g = DVM_PERM_NONE, p;
	u32 k, j;

	for (k = 0; k < DVM_PE_SUBREGIONS; k++) {
		for (j = 0; j < DVM_GROUP; j++) {
			u32 i = k * DVM_GROUP + j;

			if (!uniform(child[i], level, base + i * span, &p))
				return;
			if (!j)
				g = p;
			else if (p != g)
				return;
		}
		pe = pe_with(pe, k, g);
	}
	cpa = *parent & DVM_E_ADDR_MASK;
	/*
	 * Unlink before handing the table back: a walker must not reach it
	 * through @parent any more.  ops->free() may only queue it; the
	 * caller frees it once walk caches are flushed.
	 */
	*parent = pe ? pe | DVM_E_PRESENT | DVM_E_PE : 0;
	pt->ops->free(pt->priv, child, cpa);
	pt->nr_tables--;
}

static int set_range(struct dvm_pt *pt, u64 *table, int level, u64 tbase,
		     u64 start, u64 end, const struct dvm_set *op)
{
	u64 span = dvm_pt_span(level), sub = span / DVM_PE_SUBREGIONS;
	u32 i;
	int ret;

	for (i = dvm_index(start, level); i < DVM_PT_ENTRIES; i++) {
		u64 ebase = tbase + (u64)i * span;
		u64 es = start > ebase ? start : ebase;
		u64 ee = end < ebase + span ? end : ebase + span;
		u64 e = table[i], *child, cpa;

		if (ebase >= end)
			break;
		if (level == 1) {
			table[i] = op->identity ? pte(es, op->perm) :
				   pte(op->pa + (es - start), op->perm);
			continue;
		}
		if (op->identity && (!e || (e & DVM_E_PE)) &&
		    !(es % sub) && !(ee % sub)) {
			u64 v = e;
			u32 k;

			for (k = (u32)((es - ebase) / sub);
			     k < (ee - ebase) / sub; k++)
				v = pe_with(v, k, op->perm);
			v &= ~(DVM_E_PRESENT | DVM_E_PE);
			table[i] = v ? v | DVM_E_PRESENT | DVM_E_PE : 0;
			continue;
		}
		if (is_table(e, level)) {
			child = child_of(pt, e);
		} else {
			if (!e && op->perm == DVM_PERM_NONE)
				continue;	/* nothing to unmap */
			child = pt->ops->alloc(pt->priv, &cpa);
			if (!child)
				return -ENOMEM;
			pt->nr_tables++;
			if (e)
				expand(child, e, level - 1, ebase);
			table[i] = DVM_E_PRESENT | (cpa & DVM_E_ADDR_MASK);
		}
		ret = set_range(pt, child, level - 1, ebase, es, ee, op);
		try_merge(pt, &table[i], child, level - 1, ebase);
		if (ret)
			return ret;
	}
	return 0;
}

static int check_range(const struct dvm_pt *pt, u64 va, u64 len)
{
	u64 page = dvm_pt_span(1);

	if (!pt || !pt->root || !len || (va | len) & (page - 1))
		return -EINVAL;
	if (va >= (1ULL << DVM_VA_BITS) || len > (1ULL << DVM_VA_BITS) - va)
		return -ERANGE;
	return 0;
}

/**
 * dvm_pt_set_identity() - grant @perm on [@va, @va + @len) as identity
 * @pt: the table
 * @va: page-aligned start; the physical address is the same
 * @len: page-aligned length
 * @perm: the permission; DVM_PERM_NONE takes the range away
 *
 * Uses the largest PE the alignment allows and merges tables back into
 * PEs where the result is uniform again.
 *
 * Return: 0, -EINVAL, -ERANGE (beyond 48 bits) or -ENOMEM; after -ENOMEM
 * part of the range may be changed.
 */
int dvm_pt_set_identity(struct dvm_pt *pt, u64 va, u64 len, enum dvm_perm perm)
{
	struct dvm_set op = { .identity = true, .perm = perm };
	int ret = check_range(pt, va, len);

	if (ret)
		return ret;
	if ((u32)perm > DVM_PERM_RX)
		return -EINVAL;
	return set_range(pt, pt->root, DVM_PT_LEVELS, 0, va, va + len, &op);
}

/* A regular 4 KiB translation for memory that is not identity mapped. */
int dvm_pt_map_page(struct dvm_pt *pt, u64 va, u64 pa, enum dvm_perm perm)
{
	struct dvm_set op = { .identity = false, .perm = perm, .pa = pa };
	u64 page = dvm_pt_span(1);
	int ret = check_range(pt, va, page);

	if (ret)
		return ret;
	if (perm == DVM_PERM_NONE || (u32)perm > DVM_PERM_RX ||
	    (pa & (page - 1)) || (pa & ~DVM_E_ADDR_MASK))
		return -EINVAL;
	return set_range(pt, pt->root, DVM_PT_LEVELS, 0, va, va + page, &op);
}

int dvm_pt_unmap(struct dvm_pt *pt, u64 va, u64 len)
{
	return dvm_pt_set_identity(pt, va, len, DVM_PERM_NONE);
}

/* Tables that splitting PEs at the range boundary @b can take. */
static u32 split_at(const struct dvm_pt *pt, u64 b)
{
	const u64 *table = pt->root;
	int level;
	u32 n = 0;

	for (level = DVM_PT_LEVELS; level > 1; level--) {
		u64 e = table[dvm_index(b, level)];

		if (is_table(e, level)) {
			table = child_of(pt, e);
			continue;
		}
		if (!(e & DVM_E_PE))
			break;
		/*
		 * A PE with @b inside one of its sub-regions is split into a
		 * table of PEs one level down, and so on while @b stays
		 * inside a sub-region.
		 */
		for (; level > 1; level--)
			if (b % (dvm_pt_span(level) / DVM_PE_SUBREGIONS))
				n++;
		break;
	}
	return n;
}

/**
 * dvm_pt_split_tables() - tables taking [@va, @va + @len) away can need
 * @pt: the table
 * @va: page-aligned start
 * @len: page-aligned length
 *
 * An unmap (dvm_pt_unmap(), or dvm_pt_set_identity() with DVM_PERM_NONE)
 * allocates tables only to split PEs that the range covers in part: at
 * its two ends, one table per level at most.  A caller that must not fail
 * half-way provides this many tables before it starts.
 *
 * Return: an upper bound, at most 2 * (DVM_PT_LEVELS - 1); 0 for a bad
 * range.
 */
u32 dvm_pt_split_tables(const struct dvm_pt *pt, u64 va, u64 len)
{
	u32 n;

	if (check_range(pt, va, len))
		return 0;
	n = split_at(pt, va);
	if (va + len < (1ULL << DVM_VA_BITS))
		n += split_at(pt, va + len);
	return n;
}

static bool empty_below(const struct dvm_pt *pt, const u64 *table, int level,
			u64 tbase, u64 start, u64 end)
{
	u64 span = dvm_pt_span(level), sub = span / DVM_PE_SUBREGIONS;
	u32 i, k;

	for (i = dvm_index(start, level); i < DVM_PT_ENTRIES; i++) {
		u64 ebase = tbase + (u64)i * span;
		u64 es = start > ebase ? start : ebase;
		u64 ee = end < ebase + span ? end : ebase + span;
		u64 e = table[i];

		if (ebase >= end)
			break;
		if (!(e & DVM_E_PRESENT))
			continue;
		if (level == 1)
			return false;
		if (e & DVM_E_PE) {
			for (k = (u32)((es - ebase) / sub);
			     k <= (ee - 1 - ebase) / sub; k++)
				if (pe_perm(e, k) != DVM_PERM_NONE)
					return false;
			continue;
		}
		if (!empty_below(pt, child_of(pt, e), level - 1, ebase, es, ee))
			return false;
	}
	return true;
}

/**
 * dvm_pt_range_empty() - is nothing mapped in [@va, @va + @len)?
 * @pt: the table
 * @va: page-aligned start
 * @len: page-aligned length
 *
 * Return: true when no page of the range is identity mapped or translated
 * (false for a bad range too): what a map call checks to reject overlaps.
 */
bool dvm_pt_range_empty(const struct dvm_pt *pt, u64 va, u64 len)
{
	if (check_range(pt, va, len))
		return false;
	return empty_below(pt, pt->root, DVM_PT_LEVELS, 0, va, va + len);
}

/**
 * dvm_pt_walk() - validate (and translate) one access
 * @pt: the table
 * @va: the address
 * @access: read, write or execute
 * @read: called for each entry read with its physical address; returns
 *	true when a cache (the AVC) served it; NULL: every read is memory
 * @arg: for @read
 * @w: the outcome and the references it took
 *
 * Return: 0 when the access is allowed, -EFAULT when nothing is mapped or
 * the permission does not allow @access, -EINVAL for a bad address.
 */
int dvm_pt_walk(const struct dvm_pt *pt, u64 va, enum dvm_access access,
		dvm_walk_read_fn read, void *arg, struct dvm_walk *w)
{
	const u64 *table;
	u64 table_pa, e;
	int level;

	if (!pt || !pt->root || !w || va >= (1ULL << DVM_VA_BITS))
		return -EINVAL;
	*w = (struct dvm_walk){ .perm = DVM_PERM_NONE };
	table = pt->root;
	table_pa = pt->root_pa;
	for (level = DVM_PT_LEVELS; level >= 1; level--) {
		u32 i = dvm_index(va, level);

		e = table[i];
		w->refs++;
		if (!read || !read(arg, table_pa + 8ULL * i))
			w->mem_refs++;
		w->level = level;
		if (!(e & DVM_E_PRESENT))
			return -EFAULT;
		if (level > 1 && (e & DVM_E_PE)) {
			u64 off = va & (dvm_pt_span(level) - 1);

			w->perm = pe_perm(e, (u32)(off /
				(dvm_pt_span(level) / DVM_PE_SUBREGIONS)));
			w->identity = true;
			w->pa = va;
			break;
		}
		if (level == 1) {
			w->perm = (enum dvm_perm)((e >> DVM_E_PERM_SHIFT) & 3);
			w->pa = (e & DVM_E_ADDR_MASK) |
				(va & (dvm_pt_span(1) - 1));
			w->identity = (e & DVM_E_ADDR_MASK) ==
				      (va & DVM_E_ADDR_MASK);
			break;
		}
		table_pa = e & DVM_E_ADDR_MASK;
		table = child_of(pt, e);
	}
	return dvm_perm_allows(w->perm, access) ? 0 : -EFAULT;
}

u64 dvm_pt_bytes(const struct dvm_pt *pt)
{
	return pt->nr_tables * DVM_PT_TABLE_BYTES;
}

static void conv_count(const struct dvm_pt *pt, const u64 *table, int level,
		       u64 *tables)
{
	u32 i, k, n;
	int t;

	for (i = 0; i < DVM_PT_ENTRIES; i++) {
		u64 e = table[i];

		if (!(e & DVM_E_PRESENT) || level == 1)
			continue;
		tables[level - 1]++;
		if (!(e & DVM_E_PE)) {
			conv_count(pt, child_of(pt, e), level - 1, tables);
			continue;
		}
		for (n = 0, k = 0; k < DVM_PE_SUBREGIONS; k++)
			n += pe_perm(e, k) != DVM_PERM_NONE;
		/* each granted sixteenth needs whole tables further down */
		for (t = level - 2; t >= 1; t--)
			tables[t] += (u64)n * (dvm_pt_span(level) /
				     DVM_PE_SUBREGIONS / dvm_pt_span(t + 1));
	}
}

/**
 * dvm_pt_conventional_bytes() - what 4 KiB-page tables would need
 * @pt: the table
 *
 * Return: bytes of a conventional x86-64 table mapping exactly the same
 * pages with 4 KiB entries only: the baseline of the paper's Table 1.
 */
u64 dvm_pt_conventional_bytes(const struct dvm_pt *pt)
{
	u64 tables[DVM_PT_LEVELS + 1] = { 0 };
	u64 total = 1;
	int t;

	conv_count(pt, pt->root, DVM_PT_LEVELS, tables);
	for (t = 1; t < DVM_PT_LEVELS; t++)
		total += tables[t];
	return total * DVM_PT_TABLE_BYTES;
}
