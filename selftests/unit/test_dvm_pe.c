// SPDX-License-Identifier: GPL-2.0
/* Unit tests for DVM Permission Entry tables, the AVC and the TLB model. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/dvm_pe.h>
#include <linux/dvm_avc.h>

#define KiB 1024ULL
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)
#define ARENA_BASE (64 * GiB)	/* fake physical home of the tables */
#define ARENA_MAX 8192

static u64 *arena[ARENA_MAX];
static u32 arena_live;

static u64 *a_alloc(void *priv, u64 *pa)
{
	u32 i;

	for (i = 0; i < ARENA_MAX; i++) {
		if (arena[i])
			continue;
		arena[i] = calloc(1, DVM_PT_TABLE_BYTES);
		if (!arena[i])
			return NULL;
		*pa = ARENA_BASE + (u64)i * DVM_PT_TABLE_BYTES;
		arena_live++;
		return arena[i];
	}
	return NULL;
}

static void a_free(void *priv, u64 *table, u64 pa)
{
	u32 i = (u32)((pa - ARENA_BASE) / DVM_PT_TABLE_BYTES);

	assert_ptr_equal(arena[i], table);
	free(table);
	arena[i] = NULL;
	arena_live--;
}

static u64 *a_va(void *priv, u64 pa)
{
	return arena[(pa - ARENA_BASE) / DVM_PT_TABLE_BYTES];
}

static const struct dvm_pt_ops ops = {
	.alloc = a_alloc, .free = a_free, .pa_to_va = a_va,
};

static int setup(void **state)
{
	struct dvm_pt *pt = calloc(1, sizeof(*pt));

	assert_non_null(pt);
	assert_int_equal(dvm_pt_init(pt, &ops, NULL), 0);
	*state = pt;
	return 0;
}

static int teardown(void **state)
{
	dvm_pt_destroy(*state);
	free(*state);
	assert_int_equal(arena_live, 0);
	return 0;
}

static int walk(struct dvm_pt *pt, u64 va, enum dvm_access a, struct dvm_walk *w)
{
	return dvm_pt_walk(pt, va, a, NULL, NULL, w);
}

static void test_empty(void **state)
{
	struct dvm_pt *pt = *state;
	struct dvm_walk w;

	assert_int_equal(walk(pt, 0x1000, DVM_ACCESS_READ, &w), -EFAULT);
	assert_int_equal(w.level, 4);
	assert_true(dvm_pt_bytes(pt) == 4096);
	assert_true(dvm_pt_conventional_bytes(pt) == 4096);
}

static void test_identity_sizes(void **state)
{
	struct dvm_pt *pt = *state;
	struct dvm_walk w;

	/* 1 GiB: one L3 PE */
	assert_int_equal(dvm_pt_set_identity(pt, GiB, GiB, DVM_PERM_RW), 0);
	assert_int_equal(walk(pt, GiB + 12345, DVM_ACCESS_WRITE, &w), 0);
	assert_true(w.identity && w.level == 3 && w.pa == GiB + 12345);
	assert_int_equal(w.refs, 2);
	assert_true(pt->nr_tables == 2);
	/* 4 KiB tables for the same pages: root, L3, L2 and 512 L1 tables */
	assert_true(dvm_pt_conventional_bytes(pt) == 515 * 4096);
	assert_true(dvm_pt_bytes(pt) * 50 < dvm_pt_conventional_bytes(pt));

	/* 128 KiB: an L2 PE */
	assert_int_equal(dvm_pt_set_identity(pt, 4 * GiB + 2 * MiB + 128 * KiB,
					     128 * KiB, DVM_PERM_RO), 0);
	assert_int_equal(walk(pt, 4 * GiB + 2 * MiB + 200 * KiB, DVM_ACCESS_READ, &w), 0);
	assert_true(w.identity && w.level == 2 && w.perm == DVM_PERM_RO);
	assert_int_equal(walk(pt, 4 * GiB + 2 * MiB + 200 * KiB, DVM_ACCESS_WRITE, &w),
			 -EFAULT);
	assert_int_equal(walk(pt, 4 * GiB + 2 * MiB + 100 * KiB, DVM_ACCESS_READ, &w),
			 -EFAULT);

	/* 4 KiB: a regular identity L1 entry */
	assert_int_equal(dvm_pt_set_identity(pt, 8 * GiB + 4096, 4096, DVM_PERM_RX), 0);
	assert_int_equal(walk(pt, 8 * GiB + 4096 + 8, DVM_ACCESS_EXEC, &w), 0);
	assert_true(w.identity && w.level == 1 && w.pa == 8 * GiB + 4096 + 8);

	/* 64 GiB of L3 PEs spanning several L3 entries, then 32 GiB at L4 */
	assert_int_equal(dvm_pt_set_identity(pt, 512 * GiB, 64 * GiB, DVM_PERM_RW), 0);
	assert_int_equal(walk(pt, 512 * GiB + 33 * GiB, DVM_ACCESS_READ, &w), 0);
	assert_true(w.level == 4 && w.identity);
}

static void test_split_and_merge(void **state)
{
	struct dvm_pt *pt = *state;
	struct dvm_walk w;

	assert_int_equal(dvm_pt_set_identity(pt, GiB, GiB, DVM_PERM_RW), 0);
	/* a 64 MiB sixteenth changes in place */
	assert_int_equal(dvm_pt_set_identity(pt, GiB + 64 * MiB, 64 * MiB,
					     DVM_PERM_RO), 0);
	assert_true(pt->nr_tables == 2);
	assert_int_equal(walk(pt, GiB + 70 * MiB, DVM_ACCESS_WRITE, &w), -EFAULT);
	/* 128 KiB inside needs an L2 table of PEs */
	assert_int_equal(dvm_pt_set_identity(pt, GiB + 128 * MiB + 256 * KiB,
					     128 * KiB, DVM_PERM_NONE), 0);
	assert_true(pt->nr_tables == 3);
	assert_int_equal(walk(pt, GiB + 128 * MiB + 300 * KiB, DVM_ACCESS_READ, &w),
			 -EFAULT);
	assert_int_equal(w.level, 2);
	assert_int_equal(walk(pt, GiB + 128 * MiB + 400 * KiB, DVM_ACCESS_WRITE, &w), 0);
	/* one page inside that: an L1 table */
	assert_int_equal(dvm_pt_unmap(pt, GiB + 129 * MiB, 4096), 0);
	assert_true(pt->nr_tables == 4);
	assert_int_equal(walk(pt, GiB + 129 * MiB, DVM_ACCESS_READ, &w), -EFAULT);
	assert_int_equal(w.level, 1);
	assert_int_equal(walk(pt, GiB + 129 * MiB + 4096, DVM_ACCESS_READ, &w), 0);
	/* undo everything: the tables merge back into one L3 PE */
	assert_int_equal(dvm_pt_set_identity(pt, GiB + 64 * MiB, 128 * MiB,
					     DVM_PERM_RW), 0);
	assert_true(pt->nr_tables == 2);
	assert_int_equal(dvm_pt_unmap(pt, GiB, GiB), 0);
	assert_true(pt->nr_tables == 1);
}

static void test_translation(void **state)
{
	struct dvm_pt *pt = *state;
	struct dvm_walk w;

	assert_int_equal(dvm_pt_set_identity(pt, 2 * GiB, 2 * MiB, DVM_PERM_RW), 0);
	/* a page that is not identity mapped, inside the identity range */
	assert_int_equal(dvm_pt_map_page(pt, 2 * GiB + 8192, 5 * GiB, DVM_PERM_RO), 0);
	assert_int_equal(walk(pt, 2 * GiB + 8192 + 5, DVM_ACCESS_READ, &w), 0);
	assert_true(!w.identity && w.pa == 5 * GiB + 5 && w.level == 1);
	assert_int_equal(walk(pt, 2 * GiB + 4096, DVM_ACCESS_WRITE, &w), 0);
	assert_true(w.identity && w.level == 1);
	/* re-granting identity over it merges back into a PE */
	assert_int_equal(dvm_pt_set_identity(pt, 2 * GiB + 8192, 4096, DVM_PERM_RW), 0);
	assert_int_equal(walk(pt, 2 * GiB + 8192, DVM_ACCESS_WRITE, &w), 0);
	assert_true(w.identity && w.level == 2);
}

static void test_range_empty(void **state)
{
	struct dvm_pt *pt = *state;

	assert_true(dvm_pt_range_empty(pt, 0, 1ULL << 47));
	assert_int_equal(dvm_pt_set_identity(pt, GiB + 64 * MiB, 64 * MiB,
					     DVM_PERM_RO), 0);
	assert_int_equal(dvm_pt_map_page(pt, 3 * GiB + 4096, 5 * GiB, DVM_PERM_RW), 0);
	assert_int_equal(dvm_pt_set_identity(pt, 4 * GiB + 128 * KiB, 128 * KiB,
					     DVM_PERM_RW), 0);
	/* the sixteenths next to the PE's granted one are empty */
	assert_true(dvm_pt_range_empty(pt, GiB, 64 * MiB));
	assert_true(dvm_pt_range_empty(pt, GiB + 128 * MiB, 64 * MiB));
	assert_false(dvm_pt_range_empty(pt, GiB + 128 * MiB - 4096, 8192));
	assert_false(dvm_pt_range_empty(pt, 0, 2 * GiB));
	/* a translated page */
	assert_true(dvm_pt_range_empty(pt, 3 * GiB, 4096));
	assert_false(dvm_pt_range_empty(pt, 3 * GiB, 8192));
	assert_true(dvm_pt_range_empty(pt, 3 * GiB + 8192, 2 * MiB));
	/* an L2 PE */
	assert_true(dvm_pt_range_empty(pt, 4 * GiB, 128 * KiB));
	assert_false(dvm_pt_range_empty(pt, 4 * GiB + 252 * KiB, 4096));
	assert_true(dvm_pt_range_empty(pt, 4 * GiB + 256 * KiB, 4096));
	/* bad ranges are never "empty" */
	assert_false(dvm_pt_range_empty(pt, 1, 4096));
	assert_false(dvm_pt_range_empty(pt, 0, 0));
	assert_false(dvm_pt_range_empty(pt, 1ULL << 48, 4096));
}

static void test_bad_input(void **state)
{
	struct dvm_pt *pt = *state;
	struct dvm_walk w;

	assert_int_equal(dvm_pt_set_identity(pt, 4097, 4096, DVM_PERM_RW), -EINVAL);
	assert_int_equal(dvm_pt_set_identity(pt, 4096, 100, DVM_PERM_RW), -EINVAL);
	assert_int_equal(dvm_pt_set_identity(pt, 4096, 0, DVM_PERM_RW), -EINVAL);
	assert_int_equal(dvm_pt_set_identity(pt, 1ULL << 48, 4096, DVM_PERM_RW), -ERANGE);
	assert_int_equal(dvm_pt_set_identity(pt, (1ULL << 48) - 4096, 8192,
					     DVM_PERM_RW), -ERANGE);
	assert_int_equal(dvm_pt_set_identity(pt, 0, 4096, (enum dvm_perm)4), -EINVAL);
	assert_int_equal(dvm_pt_map_page(pt, 0, 4095, DVM_PERM_RW), -EINVAL);
	assert_int_equal(dvm_pt_map_page(pt, 0, 4096, DVM_PERM_NONE), -EINVAL);
	assert_int_equal(dvm_pt_walk(pt, 1ULL << 48, DVM_ACCESS_READ, NULL, NULL, &w),
			 -EINVAL);
	assert_true(pt->nr_tables == 1);
}

/* Random grants over 2 GiB against a per-page model. */
#define MODEL_BASE (3 * GiB)
#define MODEL_PAGES (512 * 1024)

static void check_page(struct dvm_pt *pt, const u8 *model, u32 pg)
{
	struct dvm_walk w;
	u64 va = MODEL_BASE + (u64)pg * 4096;
	int r = walk(pt, va + 64, DVM_ACCESS_READ, &w);

	if (model[pg] == 0) {
		assert_int_equal(r, -EFAULT);
	} else {
		assert_int_equal(r, 0);
		assert_int_equal(w.perm, model[pg] & 3);
		if (model[pg] & 4)
			assert_true(!w.identity && w.pa == va + 64 + GiB * 16);
		else
			assert_true(w.identity && w.pa == va + 64);
	}
}

static void test_random_model(void **state)
{
	static const u64 grain[] = { 4 * KiB, 128 * KiB, 2 * MiB, 64 * MiB };
	struct dvm_pt *pt = *state;
	u8 *model = calloc(MODEL_PAGES, 1);
	u32 round, i;

	assert_non_null(model);
	srand(42);
	for (round = 0; round < 400; round++) {
		u64 g = grain[rand() % 4];
		u64 n = 1 + rand() % 40;
		u64 off = ((u64)rand() * g) % (2 * GiB);
		u64 len = n * g;
		u32 p = rand() % 4, first, count;

		if (off + len > 2 * GiB)
			len = 2 * GiB - off;
		first = (u32)(off / 4096);
		count = (u32)(len / 4096);
		if (rand() % 8 == 0 && p) {
			/* a translated (non-identity) page */
			u64 va = MODEL_BASE + off;

			assert_int_equal(dvm_pt_map_page(pt, va, va + GiB * 16,
							 (enum dvm_perm)p), 0);
			model[first] = (u8)(p | 4);
			count = 1;
		} else {
			assert_int_equal(dvm_pt_set_identity(pt, MODEL_BASE + off, len,
							     (enum dvm_perm)p), 0);
			memset(model + first, p, count);
		}
		check_page(pt, model, first);
		check_page(pt, model, first + count - 1);
		if (first)
			check_page(pt, model, first - 1);
		if (first + count < MODEL_PAGES)
			check_page(pt, model, first + count);
		for (i = 0; i < 64; i++)
			check_page(pt, model, rand() % MODEL_PAGES);
	}
	for (i = 0; i < MODEL_PAGES; i += 7)
		check_page(pt, model, i);
	assert_int_equal(dvm_pt_unmap(pt, MODEL_BASE, 2 * GiB), 0);
	assert_true(pt->nr_tables == 1);
	free(model);
}

/* Same-set blocks of an AVC of @bytes: the fifth evicts the LRU one. */
static void check_avc_sets(u32 bytes)
{
	struct dvm_avc avc;
	u64 stride, blocks;
	u32 i;

	assert_int_equal(dvm_avc_init(&avc, bytes), 0);
	assert_int_equal(dvm_avc_bytes(&avc), bytes);
	stride = (u64)avc.sets * 64;
	for (i = 0; i < 5; i++)
		assert_false(dvm_avc_access(&avc, i * stride));
	assert_true(dvm_avc_access(&avc, 4 * stride));
	assert_false(dvm_avc_access(&avc, 0));
	assert_true(dvm_avc_access(&avc, 2 * stride + 8));
	assert_true(avc.hits == 2 && avc.misses == 6);
	dvm_avc_flush(&avc);
	assert_false(dvm_avc_access(&avc, 2 * stride));

	/* exactly bytes / 64 distinct blocks fit: a second pass all hits */
	blocks = bytes / 64;
	assert_int_equal(dvm_avc_init(&avc, bytes), 0);
	for (i = 0; i < blocks; i++)
		assert_false(dvm_avc_access(&avc, 4096 + i * 64ULL));
	for (i = 0; i < blocks; i++)
		assert_true(dvm_avc_access(&avc, 4096 + i * 64ULL + 8));
	/* one more block in a full set evicts: a third pass misses once */
	assert_false(dvm_avc_access(&avc, 4096 + blocks * 64));
	assert_false(dvm_avc_access(&avc, 4096));
}

static void test_avc(void **state)
{
	struct dvm_pt *pt = *state;
	struct dvm_avc avc;
	struct dvm_walk w;
	u64 va, mem = 0, n = 0;

	/* the paper's 1 KiB: 16 blocks in 4 sets; and 8 KiB */
	assert_int_equal(DVM_AVC_DEFAULT_BYTES, 1024);
	check_avc_sets(256);
	check_avc_sets(DVM_AVC_DEFAULT_BYTES);
	check_avc_sets(DVM_AVC_MAX_BYTES);
	assert_int_equal(dvm_avc_init(&avc, 1024), 0);
	assert_int_equal(avc.sets, 4);
	assert_int_equal(dvm_avc_init(&avc, 0), -EINVAL);
	assert_int_equal(dvm_avc_init(&avc, 128), -EINVAL);
	assert_int_equal(dvm_avc_init(&avc, 1536), -EINVAL);
	assert_int_equal(dvm_avc_init(&avc, 2 * DVM_AVC_MAX_BYTES), -EINVAL);
	assert_int_equal(avc.sets, 4);	/* unchanged by a refused init */

	/* validating 256 MiB of identity memory touches few blocks */
	assert_int_equal(dvm_avc_init(&avc, DVM_AVC_DEFAULT_BYTES), 0);
	assert_int_equal(dvm_pt_set_identity(pt, GiB, 256 * MiB, DVM_PERM_RW), 0);
	for (va = GiB; va < GiB + 256 * MiB; va += 4096, n++) {
		assert_int_equal(dvm_pt_walk(pt, va, DVM_ACCESS_READ, dvm_avc_read,
					     &avc, &w), 0);
		mem += w.mem_refs;
	}
	assert_true(mem == 2);		/* the two blocks, once each */
	assert_true(avc.hits == 2 * n - 2);
}

static void test_tlb(void **state)
{
	struct dvm_tlb t;
	u32 round, i;

	assert_int_equal(dvm_tlb_init(&t, 0, 12), -EINVAL);
	assert_int_equal(dvm_tlb_init(&t, DVM_TLB_MAX + 1, 12), -EINVAL);
	assert_int_equal(dvm_tlb_init(&t, 128, 12), 0);
	/* a cyclic sweep one page larger than an LRU TLB always misses */
	for (round = 0; round < 3; round++)
		for (i = 0; i < 129; i++)
			dvm_tlb_access(&t, (u64)i * 4096);
	assert_true(t.hits == 0 && t.misses == 3 * 129);
	/* the same sweep with 2 MiB pages fits in one entry */
	assert_int_equal(dvm_tlb_init(&t, 128, 21), 0);
	for (round = 0; round < 3; round++)
		for (i = 0; i < 129; i++)
			dvm_tlb_access(&t, (u64)i * 4096);
	assert_true(t.misses == 1 && t.hits == 3 * 129 - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_identity_sizes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_split_and_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_translation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_range_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_random_model, setup, teardown),
		cmocka_unit_test_setup_teardown(test_avc, setup, teardown),
		cmocka_unit_test(test_tlb),
	};

	return cmocka_run_group_tests_name("dvm_pe", tests, NULL, NULL);
}
