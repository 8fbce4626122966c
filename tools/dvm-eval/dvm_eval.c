// SPDX-License-Identifier: GPL-2.0
/*
 * dvm_eval: the DVM paper's tables from a model of the device side, on the
 * host (Documentation/dvm.rst, "Evaluation"; `make dvm-eval`).
 *
 * The page tables, the AVC and the TLBs are the code the accelerator runs
 * (drivers/iommu/dvm_pe.c and drivers/misc/dvm_accel/dvm_avc.c of the
 * series, unpacked from patches/); the workloads replay the access
 * streams of the accelerator's jobs (BFS and PageRank as
 * drivers/misc/dvm_accel/jobs.c makes them) and of an SGD epoch of
 * collaborative filtering, over arrays placed in one identity-mapped heap
 * the way the series places it when no 1 GiB boundary is free (series_base())
 * and, for comparison, 1 GiB aligned.  What the model cannot say (how often
 * the guest finds contiguous memory, and at which boundary) comes from the
 * guest, not from here.
 *
 * Usage: dvm_eval [--smoke] [-o FILE]
 * Writes one JSON object (schema "dvm-eval-model/2") with every raw count.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/dvm_avc.h>
#include <linux/dvm_pe.h>

#include "dvm_graph.h"
#include "util/util.h"

#define KiB		1024ULL
#define MiB		(1024 * KiB)
#define GiB		(1024 * MiB)

/* physical home of the model's page-table pages (not in any heap) */
#define TABLE_BASE	(512 * GiB)
/* where a demand-paged (conventional) heap's frames are */
#define CONV_PA_OFF	(1024 * GiB)
/*
 * The series' placement of a heap (series_base()): a mapping of
 * SERIES_ALIGN_MIN or more at a 64 MiB boundary that is not a 1 GiB one
 * (patch 0007's second pass: a 1 GiB boundary is not always free), a
 * smaller one over 4 MiB at a free run of 4 MiB blocks that is not 64 MiB
 * aligned.  NATURAL_BASE: the 1 GiB boundary of 0007's first pass.
 */
#define SERIES_ALIGN_MIN	(64 * MiB)
#define SERIES_BASE_64M		(16 * GiB + 64 * MiB)
#define SERIES_BASE_4M		(16 * GiB + 4 * MiB)
#define NATURAL_BASE		(16 * GiB)

/* ---- page-table memory: a growable arena of 4 KiB tables ---------------- */

struct arena {
	u64 **page;
	u64 n, cap;
};

static u64 *a_alloc(void *priv, u64 *pa)
{
	struct arena *a = priv;
	u64 i;

	for (i = 0; i < a->n; i++)
		if (!a->page[i])
			break;
	if (i == a->cap) {
		u64 cap = a->cap ? 2 * a->cap : 1024;
		u64 **p = realloc(a->page, cap * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + a->cap, 0, (cap - a->cap) * sizeof(*p));
		a->page = p;
		a->cap = cap;
	}
	a->page[i] = calloc(1, DVM_PT_TABLE_BYTES);
	if (!a->page[i])
		return NULL;
	if (i == a->n)
		a->n++;
	*pa = TABLE_BASE + i * DVM_PT_TABLE_BYTES;
	return a->page[i];
}

static void a_free(void *priv, u64 *table, u64 pa)
{
	struct arena *a = priv;

	free(table);
	a->page[(pa - TABLE_BASE) / DVM_PT_TABLE_BYTES] = NULL;
}

static u64 *a_va(void *priv, u64 pa)
{
	struct arena *a = priv;

	return a->page[(pa - TABLE_BASE) / DVM_PT_TABLE_BYTES];
}

static const struct dvm_pt_ops arena_ops = {
	.alloc = a_alloc, .free = a_free, .pa_to_va = a_va,
};

static void arena_drop(struct arena *a)
{
	free(a->page);
	memset(a, 0, sizeof(*a));
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "dvm_eval: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

/*
 * The rest of a small static process, mapped by 4 KiB leaves in both
 * tables (file pages, stack: never identity mapped): text, data and bss,
 * the brk heap, the stack and the vDSO.
 */
static const struct {
	const char *what;
	u64 va, len;
	enum dvm_perm perm;
} rest[] = {
	{ "text", 0x555555554000ULL, 1 * MiB, DVM_PERM_RX },
	{ "data+bss", 0x555555654000ULL, 256 * KiB, DVM_PERM_RW },
	{ "brk", 0x555556000000ULL, 132 * KiB, DVM_PERM_RW },
	{ "stack", 0x7ffffffde000ULL, 132 * KiB, DVM_PERM_RW },
	{ "vdso", 0x7ffff7fc1000ULL, 8 * KiB, DVM_PERM_RX },
};

#define NREST		ARRAY_SIZE(rest)

/* A process: the identity heap [base, base + len) and the rest. */
struct proc {
	struct arena a_pe, a_conv;
	struct dvm_pt pe;	/* DVM: PEs for the heap */
	struct dvm_pt conv;	/* conventional: 4 KiB leaves for everything */
	u64 base, len;
	u64 heap_pe_bytes, heap_4k_bytes;	/* heap alone */
	u64 pe_bytes, pe_4k_bytes;		/* the whole process */
	u64 pes[DVM_PT_LEVELS + 1];		/* PEs (or L1 leaves) per level */
};

static void map_rest(struct dvm_pt *pt)
{
	u64 i, off;

	for (i = 0; i < NREST; i++)
		for (off = 0; off < rest[i].len; off += 4096)
			if (dvm_pt_map_page(pt, rest[i].va + off,
					    CONV_PA_OFF + rest[i].va + off,
					    rest[i].perm))
				die("no memory for the rest of the process");
}

static void count_entries(struct dvm_pt *pt, u64 *table, int level, u64 *pes)
{
	u64 i, e;

	for (i = 0; i < DVM_PT_ENTRIES; i++) {
		e = table[i];
		if (!(e & DVM_E_PRESENT))
			continue;
		if (level == 1 || (e & DVM_E_PE)) {
			pes[level]++;
			continue;
		}
		count_entries(pt,
			      pt->ops->pa_to_va(pt->priv, e & DVM_E_ADDR_MASK),
			      level - 1, pes);
	}
}

/* heap bytes: tables of the heap alone, in a table of its own */
static void heap_alone(u64 base, u64 len, u64 *pe, u64 *conv)
{
	struct arena a = { 0 };
	struct dvm_pt pt;

	if (dvm_pt_init(&pt, &arena_ops, &a) ||
	    dvm_pt_set_identity(&pt, base, len, DVM_PERM_RW))
		die("no memory for a table");
	*pe = dvm_pt_bytes(&pt);
	*conv = dvm_pt_conventional_bytes(&pt);
	dvm_pt_destroy(&pt);
	arena_drop(&a);
}

static void proc_init(struct proc *p, u64 base, u64 len, bool conv)
{
	u64 off;

	memset(p, 0, sizeof(*p));
	p->base = base;
	p->len = len;
	if (dvm_pt_init(&p->pe, &arena_ops, &p->a_pe) ||
	    dvm_pt_set_identity(&p->pe, base, len, DVM_PERM_RW))
		die("no memory for a table");
	map_rest(&p->pe);
	p->pe_bytes = dvm_pt_bytes(&p->pe);
	p->pe_4k_bytes = dvm_pt_conventional_bytes(&p->pe);
	count_entries(&p->pe, p->pe.root, DVM_PT_LEVELS, p->pes);
	heap_alone(base, len, &p->heap_pe_bytes, &p->heap_4k_bytes);
	if (!conv)
		return;
	/* the same process demand paged: every heap page a 4 KiB leaf */
	if (dvm_pt_init(&p->conv, &arena_ops, &p->a_conv))
		die("no memory for a table");
	for (off = 0; off < len; off += 4096)
		if (dvm_pt_map_page(&p->conv, base + off,
				    CONV_PA_OFF + base + off, DVM_PERM_RW))
			die("no memory for a table");
	map_rest(&p->conv);
	if (dvm_pt_bytes(&p->conv) != p->pe_4k_bytes)
		die("4 KiB tables: %llu bytes built, %llu computed",
		    (unsigned long long)dvm_pt_bytes(&p->conv),
		    (unsigned long long)p->pe_4k_bytes);
}

static void proc_destroy(struct proc *p)
{
	dvm_pt_destroy(&p->pe);
	arena_drop(&p->a_pe);
	if (p->conv.root) {
		dvm_pt_destroy(&p->conv);
		arena_drop(&p->a_conv);
	}
}

/* ---- the device: validation through the AVC, TLB models ----------------- */

/*
 * Timing model (cycles), stated in the results: the accelerator makes one
 * access at a time; an access to memory costs T_MEM, a lookup in the AVC
 * (or a page walk cache) T_AVC per entry a walk reads.  Ideal: T_MEM per
 * access, no translation.  DVM: every access walks the table through the
 * AVC; a read is preloaded in parallel with the walk and costs
 * max(T_MEM, walk) when the walk validates identity, walk + T_MEM when it
 * translates (the preload squashed); a store waits for its walk.  DVM
 * without preload: walk + T_MEM for every access.  Conventional: a
 * 128-entry TLB; a miss walks the 4 KiB tables with a page walk cache of
 * the AVC's size that holds L2-L4 entries only (L1 entries are not cached
 * [paper 4.1.2]), so each miss reads its L1 entry from memory.
 */
#define T_MEM		100
#define T_AVC		1
#define NAVC		2

static const u32 avc_sizes[NAVC] = { 1024, 8192 };

struct dev {
	struct proc *p;
	struct proc *al;		/* the same heap, 1 GiB aligned */
	struct dvm_avc avc[NAVC];
	struct dvm_avc avc_al;		/* 1 KiB, for @al */
	struct dvm_avc pwc;		/* conventional page walk cache, 1 KiB */
	struct dvm_tlb tlb4k, tlb2m;
	u32 walk_level;			/* entries read so far in this walk */
	u32 miss[NAVC];			/* AVC misses of this walk */
	/* counts */
	u64 accesses, reads, writes, identity, translated, walk_refs;
	u64 mem_refs[NAVC];
	u64 cyc_dvm[NAVC], cyc_nopre[NAVC];
	u64 tlb4k_misses, tlb2m_misses;
	u64 al_walk_refs, al_mem_refs, al_cyc_dvm, al_cyc_nopre;
	u64 conv_walk_refs, conv_mem_refs, cyc_conv4k, cyc_conv2m;
};

static bool dev_read_hook(void *arg, u64 pa)
{
	struct dev *d = arg;
	bool hit0 = dvm_avc_access(&d->avc[0], pa);
	int i;

	if (!hit0)
		d->miss[0]++;
	for (i = 1; i < NAVC; i++)
		if (!dvm_avc_access(&d->avc[i], pa))
			d->miss[i]++;
	return hit0;
}

/* conventional walk: L4..L2 through the page walk cache, L1 from memory */
static bool conv_read_hook(void *arg, u64 pa)
{
	struct dev *d = arg;

	if (++d->walk_level == DVM_PT_LEVELS)
		return false;
	return dvm_avc_access(&d->pwc, pa);
}

static bool al_read_hook(void *arg, u64 pa)
{
	struct dev *d = arg;

	return dvm_avc_access(&d->avc_al, pa);
}

static void dev_init(struct dev *d, struct proc *p, struct proc *al)
{
	int i;

	memset(d, 0, sizeof(*d));
	d->p = p;
	d->al = al;
	for (i = 0; i < NAVC; i++)
		if (dvm_avc_init(&d->avc[i], avc_sizes[i]))
			die("bad AVC size %u", avc_sizes[i]);
	if (dvm_avc_init(&d->pwc, DVM_AVC_DEFAULT_BYTES) ||
	    dvm_avc_init(&d->avc_al, DVM_AVC_DEFAULT_BYTES) ||
	    dvm_tlb_init(&d->tlb4k, 128, 12) || dvm_tlb_init(&d->tlb2m, 128, 21))
		die("cannot set up the caches");
}

static void dev_access(struct dev *d, u64 va, bool write)
{
	struct dvm_walk w;
	u64 walk, i;

	d->accesses++;
	if (write)
		d->writes++;
	else
		d->reads++;
	for (i = 0; i < NAVC; i++)
		d->miss[i] = 0;
	if (dvm_pt_walk(&d->p->pe, va,
			write ? DVM_ACCESS_WRITE : DVM_ACCESS_READ,
			dev_read_hook, d, &w))
		die("access to %#llx refused", (unsigned long long)va);
	if (w.identity)
		d->identity++;
	else
		d->translated++;
	d->walk_refs += w.refs;
	for (i = 0; i < NAVC; i++) {
		d->mem_refs[i] += d->miss[i];
		walk = (u64)w.refs * T_AVC + (u64)d->miss[i] * T_MEM;
		d->cyc_nopre[i] += walk + T_MEM;
		if (write || !w.identity)
			d->cyc_dvm[i] += walk + T_MEM;
		else
			d->cyc_dvm[i] += walk > T_MEM ? walk : T_MEM;
	}
	/* the same access to the heap placed 1 GiB aligned */
	if (va >= d->p->base && va < d->p->base + d->p->len) {
		if (dvm_pt_walk(&d->al->pe, va - d->p->base + d->al->base,
				write ? DVM_ACCESS_WRITE : DVM_ACCESS_READ,
				al_read_hook, d, &w))
			die("aligned walk of %#llx failed", (unsigned long long)va);
		d->al_walk_refs += w.refs;
		d->al_mem_refs += w.mem_refs;
		walk = (u64)w.refs * T_AVC + (u64)w.mem_refs * T_MEM;
		d->al_cyc_nopre += walk + T_MEM;
		if (write)
			d->al_cyc_dvm += walk + T_MEM;
		else
			d->al_cyc_dvm += walk > T_MEM ? walk : T_MEM;
	}
	/* conventional virtual memory */
	d->cyc_conv4k += T_MEM;
	if (!dvm_tlb_access(&d->tlb4k, va)) {
		d->tlb4k_misses++;
		d->walk_level = 0;
		if (dvm_pt_walk(&d->p->conv, va,
				write ? DVM_ACCESS_WRITE : DVM_ACCESS_READ,
				conv_read_hook, d, &w))
			die("conventional walk of %#llx failed",
			    (unsigned long long)va);
		d->conv_walk_refs += w.refs;
		d->conv_mem_refs += w.mem_refs;
		d->cyc_conv4k += (u64)w.refs * T_AVC + (u64)w.mem_refs * T_MEM;
	}
	/* 2 MiB pages: L4 and L3 from the walk cache, the L2 leaf from memory */
	d->cyc_conv2m += T_MEM;
	if (!dvm_tlb_access(&d->tlb2m, va)) {
		d->tlb2m_misses++;
		d->cyc_conv2m += 3 * T_AVC + T_MEM;
	}
}

/* ---- JSON output ---------------------------------------------------------- */

static FILE *out;
static bool first_field;

static void jopen(const char *name)
{
	if (!first_field)
		fprintf(out, ",");
	if (name)
		fprintf(out, "\n\"%s\": {", name);
	else
		fprintf(out, "\n{");
	first_field = true;
}

static void jclose(void)
{
	fprintf(out, "}");
	first_field = false;
}

static void ju(const char *k, u64 v)
{
	fprintf(out, "%s\"%s\": %llu", first_field ? "" : ", ", k,
		(unsigned long long)v);
	first_field = false;
}

static void js(const char *k, const char *v)
{
	fprintf(out, "%s\"%s\": \"%s\"", first_field ? "" : ", ", k, v);
	first_field = false;
}

static void jproc(const struct proc *p)
{
	int l;

	ju("heap_base", p->base);
	ju("heap_bytes", p->len);
	ju("heap_pt_bytes_pe", p->heap_pe_bytes);
	ju("heap_pt_bytes_4k", p->heap_4k_bytes);
	ju("proc_pt_bytes_pe", p->pe_bytes);
	ju("proc_pt_bytes_4k", p->pe_4k_bytes);
	for (l = 1; l <= DVM_PT_LEVELS; l++) {
		char k[16];

		snprintf(k, sizeof(k), "leaves_l%d", l);
		ju(k, p->pes[l]);
	}
}

static void jdev(const struct dev *d)
{
	int i;

	ju("accesses", d->accesses);
	ju("reads", d->reads);
	ju("writes", d->writes);
	ju("identity", d->identity);
	ju("translated", d->translated);
	ju("walk_refs", d->walk_refs);
	for (i = 0; i < NAVC; i++) {
		char k[32];

		snprintf(k, sizeof(k), "avc%u_mem_refs", avc_sizes[i]);
		ju(k, d->mem_refs[i]);
		snprintf(k, sizeof(k), "avc%u_cycles_dvm", avc_sizes[i]);
		ju(k, d->cyc_dvm[i]);
		snprintf(k, sizeof(k), "avc%u_cycles_nopreload", avc_sizes[i]);
		ju(k, d->cyc_nopre[i]);
	}
	ju("aligned_walk_refs", d->al_walk_refs);
	ju("aligned_avc1024_mem_refs", d->al_mem_refs);
	ju("aligned_avc1024_cycles_dvm", d->al_cyc_dvm);
	ju("aligned_avc1024_cycles_nopreload", d->al_cyc_nopre);
	ju("tlb4k_misses", d->tlb4k_misses);
	ju("tlb2m_misses", d->tlb2m_misses);
	ju("conv_walk_refs", d->conv_walk_refs);
	ju("conv_mem_refs", d->conv_mem_refs);
	ju("cycles_ideal", d->accesses * T_MEM);
	ju("cycles_conv4k", d->cyc_conv4k);
	ju("cycles_conv2m", d->cyc_conv2m);
}

/* ---- workloads ------------------------------------------------------------ */

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

static u64 round_up(u64 x, u64 a)
{
	return (x + a - 1) / a * a;
}

/*
 * Where the series places a mapping of @len when no 1 GiB boundary is free:
 * from SERIES_ALIGN_MIN on at a 64 MiB boundary (patch 0007), over 4 MiB at
 * a run of 4 MiB blocks, up to 4 MiB at a multiple of @len rounded up to a
 * power of two (a buddy block, patch 0002).
 */
static u64 series_base(u64 len)
{
	u64 al = 4096;

	if (len >= SERIES_ALIGN_MIN)
		return SERIES_BASE_64M;
	if (len > 4 * MiB)
		return SERIES_BASE_4M;
	while (al < len)
		al *= 2;
	return round_up(SERIES_BASE_4M, al);
}

/* natural alignment: the mapping's size rounded up to a power of two, <= 1 GiB */
static u64 natural_base(void)
{
	return NATURAL_BASE;
}

struct graph {
	u32 scale;
	u64 n, m;
	u64 *row;
	u32 *col;
};

static void graph_make(struct graph *g, u32 scale)
{
	u64 ne = 16ULL << scale;
	u32 *eu = xmalloc(ne * 4), *ev = xmalloc(ne * 4);

	g->scale = scale;
	g->n = 1ULL << scale;
	g->row = xmalloc((g->n + 1) * 8);
	g->col = xmalloc(2 * ne * 4);
	dvm_rmat_edges(0x5eed0000 + scale, scale, ne, eu, ev);
	g->m = dvm_csr_build(g->n, eu, ev, ne, g->row, g->col);
	free(eu);
	free(ev);
}

static void graph_free(struct graph *g)
{
	free(g->row);
	free(g->col);
}

/* the arena dvm_accel graph uses: row, col, level, queue, rank, next */
struct garena {
	u64 row, col, level, queue, rank, next, len;
};

static void garena_layout(const struct graph *g, u64 base, struct garena *a)
{
	u64 cur = base;

	a->row = cur;
	cur = round_up(cur + (g->n + 1) * 8, 64);
	a->col = cur;
	cur = round_up(cur + g->m * 4, 64);
	a->level = cur;
	cur = round_up(cur + g->n * 4, 64);
	a->queue = cur;
	cur = round_up(cur + g->n * 4, 64);
	a->rank = cur;
	cur = round_up(cur + g->n * 8, 64);
	a->next = cur;
	cur = round_up(cur + g->n * 8, 64);
	a->len = round_up(cur - base, 2 * MiB);
}

/* jobs.c's BFS, access for access */
static void run_bfs(struct dev *d, const struct graph *g, const struct garena *a)
{
	s32 *lv = xmalloc(g->n * 4);
	u32 *q = xmalloc(g->n * 4), root = 0, u, w;
	u64 head = 0, tail = 1, v, k;

	while (g->row[root + 1] == g->row[root])
		root++;
	for (v = 0; v < g->n; v++) {
		dev_access(d, a->level + 4 * v, true);
		lv[v] = -1;
	}
	dev_access(d, a->level + 4ULL * root, true);
	lv[root] = 0;
	dev_access(d, a->queue, true);
	q[0] = root;
	while (head < tail) {
		dev_access(d, a->queue + 4 * head, false);
		u = q[head++];
		dev_access(d, a->level + 4ULL * u, false);
		dev_access(d, a->row + 8ULL * u, false);
		dev_access(d, a->row + 8ULL * (u + 1), false);
		for (k = g->row[u]; k < g->row[u + 1]; k++) {
			dev_access(d, a->col + 4 * k, false);
			w = g->col[k];
			dev_access(d, a->level + 4ULL * w, false);
			if (lv[w] != -1)
				continue;
			lv[w] = lv[u] + 1;
			dev_access(d, a->level + 4ULL * w, true);
			dev_access(d, a->queue + 4 * tail, true);
			q[tail++] = w;
		}
	}
	free(lv);
	free(q);
}

/* jobs.c's PageRank (push style), @iters iterations */
static void run_pagerank(struct dev *d, const struct graph *g,
			 const struct garena *a, u32 iters)
{
	u64 v, k, it;

	for (v = 0; v < g->n; v++)
		dev_access(d, a->rank + 8 * v, true);
	for (it = 0; it < iters; it++) {
		for (v = 0; v < g->n; v++)
			dev_access(d, a->next + 8 * v, true);
		for (v = 0; v < g->n; v++) {
			dev_access(d, a->row + 8 * v, false);
			dev_access(d, a->row + 8 * (v + 1), false);
			if (g->row[v + 1] == g->row[v])
				continue;
			dev_access(d, a->rank + 8 * v, false);
			for (k = g->row[v]; k < g->row[v + 1]; k++) {
				dev_access(d, a->col + 4 * k, false);
				dev_access(d, a->next + 8ULL * g->col[k], false);
				dev_access(d, a->next + 8ULL * g->col[k], true);
			}
		}
		for (v = 0; v < g->n; v++) {
			dev_access(d, a->next + 8 * v, false);
			dev_access(d, a->rank + 8 * v, true);
		}
	}
}

/*
 * Collaborative filtering: one SGD epoch over a bipartite rating graph of
 * 2^scale users and 2^scale items, 16 ratings per user on average (R-MAT
 * edges: user u rated item v), 16-float (64-byte) factor vectors.  Per
 * rating: read the rating (16 bytes), read P[u] and Q[i], write both.
 */
static void cf_layout(u32 scale, u64 base, u64 *ratings, u64 *pu, u64 *qi,
		      u64 *len)
{
	u64 n = 1ULL << scale, ne = 16 * n;

	*ratings = base;
	*pu = base + ne * 16;
	*qi = *pu + n * 64;
	*len = round_up(*qi + n * 64 - base, 2 * MiB);
}

static void run_cf(struct dev *d, u32 scale, u64 ratings, u64 pu, u64 qi)
{
	u64 n = 1ULL << scale, ne = 16 * n, i;
	u32 *eu = xmalloc(ne * 4), *ev = xmalloc(ne * 4);

	dvm_rmat_edges(0xcf000000ULL + scale, scale, ne, eu, ev);
	for (i = 0; i < ne; i++) {
		dev_access(d, ratings + 16 * i, false);
		dev_access(d, pu + 64ULL * eu[i], false);
		dev_access(d, qi + 64ULL * ev[i], false);
		dev_access(d, pu + 64ULL * eu[i], true);
		dev_access(d, qi + 64ULL * ev[i], true);
	}
	free(eu);
	free(ev);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void workload_row(const char *wl, u32 scale, u64 n, u64 m, u64 len,
			 int kind, const struct graph *g)
{
	struct proc p, pn;
	struct garena ga;
	struct dev *d = xmalloc(sizeof(*d));
	u64 ratings = 0, pu = 0, qi = 0;
	double t0 = now();

	if (kind == 2) {
		cf_layout(scale, 0, &ratings, &pu, &qi, &len);
		proc_init(&p, series_base(len), len, true);
		cf_layout(scale, p.base, &ratings, &pu, &qi, &len);
	} else {
		garena_layout(g, 0, &ga);
		len = ga.len;
		proc_init(&p, series_base(len), len, true);
		garena_layout(g, p.base, &ga);
	}
	proc_init(&pn, natural_base(), len, false);
	dev_init(d, &p, &pn);
	if (kind == 0)
		run_bfs(d, g, &ga);
	else if (kind == 1)
		run_pagerank(d, g, &ga, 1);
	else
		run_cf(d, scale, ratings, pu, qi);
	jopen(NULL);
	js("workload", wl);
	ju("scale", scale);
	ju("vertices", n);
	ju("edges", m);
	jproc(&p);
	ju("natural_heap_pt_bytes_pe", pn.heap_pe_bytes);
	ju("natural_proc_pt_bytes_pe", pn.pe_bytes);
	ju("natural_leaves_l3", pn.pes[3]);
	ju("natural_leaves_l2", pn.pes[2]);
	jdev(d);
	ju("model_ms", (u64)((now() - t0) * 1000));
	jclose();
	fflush(out);
	fprintf(stderr, "dvm_eval: %s scale %u: %llu accesses, %.1f s\n", wl,
		scale, (unsigned long long)d->accesses, now() - t0);
	proc_destroy(&p);
	proc_destroy(&pn);
	free(d);
}

static void heap_row(u64 mib)
{
	struct proc p, pn;
	u64 len = mib * MiB;

	proc_init(&p, series_base(len), len, false);
	proc_init(&pn, natural_base(), len, false);
	jopen(NULL);
	ju("heap_mib", mib);
	jproc(&p);
	ju("natural_heap_pt_bytes_pe", pn.heap_pe_bytes);
	ju("natural_proc_pt_bytes_pe", pn.pe_bytes);
	ju("natural_leaves_l3", pn.pes[3]);
	ju("natural_leaves_l2", pn.pes[2]);
	jclose();
	proc_destroy(&p);
	proc_destroy(&pn);
}

int main(int argc, char **argv)
{
	static const u32 full_scales[] = { 10, 12, 14, 16, 18, 20 };
	static const u32 smoke_scales[] = { 10, 12 };
	static const u64 full_heaps[] = { 64, 128, 256, 512, 1024 };
	static const u64 smoke_heaps[] = { 64, 256 };
	const u32 *scales = full_scales;
	const u64 *heaps = full_heaps;
	size_t nscales = 6, nheaps = 5, i;
	const char *path = NULL;
	bool smoke = false;
	int c;

	static const struct option opts[] = {
		{ "smoke", no_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};

	while ((c = getopt_long(argc, argv, "so:", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			smoke = true;
			break;
		case 'o':
			path = optarg;
			break;
		default:
			fprintf(stderr, "usage: dvm_eval [--smoke] [-o FILE]\n");
			return 2;
		}
	}
	if (smoke) {
		scales = smoke_scales;
		nscales = 2;
		heaps = smoke_heaps;
		nheaps = 2;
	}
	out = path ? fopen(path, "w") : stdout;
	if (!out)
		die("%s: %s", path, strerror(errno));

	fprintf(out, "{\"schema\": \"dvm-eval-model/2\", \"mode\": \"%s\",\n",
		smoke ? "smoke" : "full");
	fprintf(out, "\"model\": {");
	first_field = true;
	ju("t_mem", T_MEM);
	ju("t_avc", T_AVC);
	ju("tlb_entries", 128);
	ju("avc_ways", DVM_AVC_WAYS);
	ju("avc_block", DVM_AVC_BLOCK_BYTES);
	fprintf(out, ", \"avc_bytes\": [%u, %u]", avc_sizes[0], avc_sizes[1]);
	ju("pwc_bytes", DVM_AVC_DEFAULT_BYTES);
	ju("edge_factor", 16);
	ju("pagerank_iters", 1);
	ju("cf_factors", 16);
	ju("series_align_min", SERIES_ALIGN_MIN);
	ju("series_base_64m", SERIES_BASE_64M);
	ju("series_base_4m", SERIES_BASE_4M);
	ju("natural_base", NATURAL_BASE);
	fprintf(out, ", \"rest_of_process\": [");
	for (i = 0; i < NREST; i++)
		fprintf(out, "%s{\"what\": \"%s\", \"bytes\": %llu}", i ? ", " : "",
			rest[i].what, (unsigned long long)rest[i].len);
	fprintf(out, "]},\n\"heaps\": [");
	first_field = true;
	for (i = 0; i < nheaps; i++)
		heap_row(heaps[i]);
	fprintf(out, "],\n\"workloads\": [");
	first_field = true;
	for (i = 0; i < nscales; i++) {
		struct graph g;

		graph_make(&g, scales[i]);
		workload_row("bfs", scales[i], g.n, g.m, 0, 0, &g);
		workload_row("pagerank", scales[i], g.n, g.m, 0, 1, &g);
		graph_free(&g);
		workload_row("cf", scales[i], 2ULL << scales[i],
			     16ULL << scales[i], 0, 2, NULL);
	}
	fprintf(out, "]}\n");
	if (path && fclose(out))
		die("%s: %s", path, strerror(errno));
	return 0;
}
