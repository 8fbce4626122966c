// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the DVM Permission Entry tables: the series' own
 * drivers/iommu/dvm_pe.c (patch 0005, unpacked by dvm/dvm.mk), driven by
 * arbitrary sequences of identity grants, 4 KiB translations and unmaps
 * inside a 1 GiB window, against a model that keeps one entry per 4 KiB
 * page.  It aborts when the tables and the model disagree:
 *  - every walk of a page the sequence touched (its first and last page,
 *    the pages beside it) and of one page chosen by the input gets what
 *    the model has: nothing mapped (-EFAULT), or the physical address,
 *    the permission, identity exactly when the address is the page's
 *    own, and read/write/execute allowed as the permission says;
 *  - dvm_pt_range_empty() of the range is what the model says;
 *  - the tables the code counts are the tables it holds, and their
 *    bytes are dvm_pt_bytes(); after the sequence every 61st page of the
 *    window walks as the model says, and destroying the table gives every
 *    table back.
 *
 * Input: records of 12 bytes (op, perm, size class, offset, physical
 * page), zero past the end.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dvm_pe.h>
#include "util/util.h"

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

#define PAGE		4096ULL
#define WIN_BASE	(4ULL << 30)		/* 1 GiB aligned */
#define WIN_PAGES	262144U			/* 1 GiB of pages */
#define MAX_TABLES	1024			/* 1 + 1 + 1 + 512 needed */

struct arena {
	u64 *slot[MAX_TABLES];
	u32 live;
};

static u64 *arena_alloc(void *priv, u64 *pa)
{
	struct arena *a = priv;
	u32 i;

	for (i = 0; i < MAX_TABLES; i++) {
		if (a->slot[i])
			continue;
		a->slot[i] = aligned_alloc(PAGE, PAGE);
		if (!a->slot[i])
			return NULL;
		memset(a->slot[i], 0, PAGE);
		a->live++;
		*pa = (u64)(i + 1) * PAGE;
		return a->slot[i];
	}
	return NULL;
}

static void arena_free(void *priv, u64 *table, u64 pa)
{
	struct arena *a = priv;
	u32 i = (u32)(pa / PAGE) - 1;

	CHECK(pa % PAGE == 0 && i < MAX_TABLES && a->slot[i] == table);
	free(table);
	a->slot[i] = NULL;
	a->live--;
}

static u64 *arena_va(void *priv, u64 pa)
{
	struct arena *a = priv;
	u32 i = (u32)(pa / PAGE) - 1;

	CHECK(pa % PAGE == 0 && i < MAX_TABLES && a->slot[i]);
	return a->slot[i];
}

/* sizes in pages: the PE sub-regions and spans of every level, and odd */
static const u32 sizes[] = { 1, 2, 3, 32, 33, 512, 8192, 16384, 16385,
			     WIN_PAGES / 2, WIN_PAGES, 0 };

static const struct dvm_pt_ops ops = {
	.alloc = arena_alloc,
	.free = arena_free,
	.pa_to_va = arena_va,
};

/*
 * The model: per page of the window, its frame + 1 (0: nothing) and perm;
 * [model_lo, model_hi) is what the last input touched, cleared before the
 * next one.
 */
static u64 model_pfn[WIN_PAGES];
static u8 model_perm[WIN_PAGES];
static u32 model_lo, model_hi;

static void check_page(const struct dvm_pt *pt, u32 page)
{
	u64 va = WIN_BASE + page * PAGE;
	struct dvm_walk w;
	enum dvm_perm p = model_perm[page];
	int ret = dvm_pt_walk(pt, va, DVM_ACCESS_READ, NULL, NULL, &w);

	if (!model_pfn[page]) {
		CHECK(ret == -EFAULT && w.perm == DVM_PERM_NONE);
		return;
	}
	CHECK(ret == 0 && w.perm == p);
	CHECK(w.pa == (model_pfn[page] - 1) * PAGE);
	CHECK(w.identity == (w.pa == va));
	CHECK(w.refs >= 1 && w.refs <= DVM_PT_LEVELS && w.mem_refs == w.refs);
	CHECK((dvm_pt_walk(pt, va, DVM_ACCESS_WRITE, NULL, NULL, &w) == 0) ==
	      (p == DVM_PERM_RW));
	CHECK((dvm_pt_walk(pt, va, DVM_ACCESS_EXEC, NULL, NULL, &w) == 0) ==
	      (p == DVM_PERM_RX));
}

static void check_near(const struct dvm_pt *pt, u32 first, u32 n)
{
	if (first)
		check_page(pt, first - 1);
	check_page(pt, first);
	check_page(pt, first + n - 1);
	if (first + n < WIN_PAGES)
		check_page(pt, first + n);
}

static u32 le32(const u8 *b)
{
	return b[0] | b[1] << 8 | b[2] << 16 | (u32)b[3] << 24;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static struct arena a;
	struct dvm_pt pt;
	u8 rec[12];
	size_t off;
	u32 i;

	if (model_hi > model_lo) {
		memset(model_pfn + model_lo, 0,
		       (model_hi - model_lo) * sizeof(model_pfn[0]));
		memset(model_perm + model_lo, 0, model_hi - model_lo);
	}
	model_lo = WIN_PAGES;
	model_hi = 0;
	CHECK(dvm_pt_init(&pt, &ops, &a) == 0);
	for (off = 0; off < size && off < 12 * 64; off += 12) {
		u32 n, first, pfn, pick;
		enum dvm_perm perm;
		bool empty;
		u64 va;
		int ret;

		memset(rec, 0, sizeof(rec));
		memcpy(rec, data + off, size - off < 12 ? size - off : 12);
		perm = (enum dvm_perm)(rec[1] & 3);
		n = sizes[rec[2] % ARRAY_SIZE(sizes)];
		if (!n)		/* any size */
			n = le32(rec + 3) % WIN_PAGES + 1;
		first = le32(rec + 3) % WIN_PAGES;
		if (rec[2] & 0x80)	/* aligned to its size */
			first -= first % n;
		if (n > WIN_PAGES - first)
			n = WIN_PAGES - first;
		va = WIN_BASE + first * PAGE;
		pfn = le32(rec + 7) & 0xfffffff;
		pick = le32(rec + 8) % WIN_PAGES;
		if (first < model_lo)
			model_lo = first;
		if (first + n > model_hi)
			model_hi = first + n;

		switch (rec[0] % 3) {
		case 0:		/* identity grant (NONE takes it away) */
			ret = dvm_pt_set_identity(&pt, va, n * PAGE, perm);
			CHECK(ret == 0);
			for (i = first; i < first + n; i++) {
				model_pfn[i] = perm ? va / PAGE + (i - first) + 1 : 0;
				model_perm[i] = perm;
			}
			break;
		case 1:		/* a 4 KiB translation */
			n = 1;
			ret = dvm_pt_map_page(&pt, va, (u64)pfn * PAGE, perm);
			if (perm == DVM_PERM_NONE) {
				CHECK(ret == -EINVAL);
				break;
			}
			CHECK(ret == 0);
			model_pfn[first] = (u64)pfn + 1;
			model_perm[first] = perm;
			break;
		default:
			CHECK(dvm_pt_unmap(&pt, va, n * PAGE) == 0);
			memset(model_pfn + first, 0, n * sizeof(model_pfn[0]));
			memset(model_perm + first, 0, n);
			break;
		}
		check_near(&pt, first, n);
		check_page(&pt, pick);
		empty = true;
		for (i = first; i < first + n && empty; i++)
			empty = !model_pfn[i];
		CHECK(dvm_pt_range_empty(&pt, va, n * PAGE) == empty);
		CHECK(pt.nr_tables == a.live);
		CHECK(dvm_pt_bytes(&pt) == a.live * PAGE);
	}
	for (i = 0; i < WIN_PAGES; i += 61)	/* a prime stride: every level */
		check_page(&pt, i);
	dvm_pt_destroy(&pt);
	CHECK(a.live == 0);
	return 0;
}
