// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the R-MAT generator, CSR build and graph references. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dvm_graph.h"

/* 0-1, 0-2, 1-2, 2-3, 3-3 (loop), 4 alone; 5 vertices */
static const u32 eu[] = { 0, 0, 1, 2, 3 };
static const u32 ev[] = { 1, 2, 2, 3, 3 };

static void test_csr(void **state)
{
	u64 row[6];
	u32 col[10];
	u64 m = dvm_csr_build(5, eu, ev, 5, row, col);
	static const u64 want_row[] = { 0, 2, 4, 7, 8, 8 };
	static const u32 want_col[] = { 1, 2, 0, 2, 0, 1, 3, 2 };

	assert_int_equal(m, 8);
	assert_memory_equal(row, want_row, sizeof(want_row));
	assert_memory_equal(col, want_col, sizeof(want_col));
}

static void test_bfs(void **state)
{
	u64 row[6];
	u32 col[10], queue[5];
	s32 level[5];
	static const s32 want[] = { 1, 1, 0, 1, -1 };
	static const s32 want3[] = { 2, 2, 1, 0, -1 };

	dvm_csr_build(5, eu, ev, 5, row, col);
	assert_int_equal(dvm_bfs_ref(row, col, 5, 2, level, queue), 4);
	assert_memory_equal(level, want, sizeof(want));
	assert_int_equal(dvm_bfs_ref(row, col, 5, 3, level, queue), 4);
	assert_memory_equal(level, want3, sizeof(want3));
	assert_int_equal(dvm_bfs_ref(row, col, 5, 4, level, queue), 1);
}

static void test_pagerank(void **state)
{
	u64 row[6], rank[5], next[5], sum = 0, base;
	u32 col[10];
	int v;

	dvm_csr_build(5, eu, ev, 5, row, col);
	dvm_pagerank_ref(row, col, 5, 0, rank, next);
	for (v = 0; v < 5; v++)
		assert_true(rank[v] == DVM_GRAPH_PR_ONE / 5);
	dvm_pagerank_ref(row, col, 5, 10, rank, next);
	base = DVM_GRAPH_PR_ONE * 15 / 100 / 5;
	/* the isolated vertex only gets the teleport share */
	assert_true(rank[4] == base);
	/* vertex 2 has the most neighbours: the highest rank */
	for (v = 0; v < 5; v++) {
		sum += rank[v];
		if (v != 2)
			assert_true(rank[v] < rank[2]);
	}
	/* 0 and 1 are symmetric */
	assert_true(rank[0] == rank[1]);
	/* mass is lost only to rounding and the dangling vertex */
	assert_true(sum < DVM_GRAPH_PR_ONE && sum > DVM_GRAPH_PR_ONE * 8 / 10);
}

static void test_rmat(void **state)
{
	enum { SCALE = 10, N = 1 << SCALE, NE = 16 * N };
	u32 *a = malloc(NE * sizeof(u32)), *b = malloc(NE * sizeof(u32));
	u32 *a2 = malloc(NE * sizeof(u32)), *b2 = malloc(NE * sizeof(u32));
	u32 *deg = calloc(N, sizeof(u32)), maxdeg = 0, s;
	u64 st = 1, i;
	u32 u, v, q[4] = { 0 };

	assert_non_null(a && b && a2 && b2 && deg);
	dvm_rmat_edges(42, SCALE, NE, a, b);
	dvm_rmat_edges(42, SCALE, NE, a2, b2);
	/* deterministic, and the seed matters */
	assert_memory_equal(a, a2, NE * sizeof(u32));
	assert_memory_equal(b, b2, NE * sizeof(u32));
	dvm_rmat_edges(43, SCALE, NE, a2, b2);
	assert_memory_not_equal(a, a2, NE * sizeof(u32));
	for (i = 0; i < NE; i++) {
		assert_true(a[i] < N && b[i] < N);
		deg[a[i]]++;
		deg[b[i]]++;
	}
	for (s = 0; s < N; s++)
		if (deg[s] > maxdeg)
			maxdeg = deg[s];
	/* skewed: the busiest vertex has far more than the mean of 32 */
	assert_true(maxdeg > 20 * 32);
	/* the first-level quadrants follow A, B, C, D */
	for (i = 0; i < 10000; i++) {
		dvm_rmat_edge(&st, 1, &u, &v);
		q[u * 2 + v]++;
	}
	assert_true(q[0] > 5400 && q[0] < 6000);
	assert_true(q[1] > 1700 && q[1] < 2100);
	assert_true(q[2] > 1700 && q[2] < 2100);
	assert_true(q[3] > 350 && q[3] < 650);
	free(a);
	free(b);
	free(a2);
	free(b2);
	free(deg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csr),
		cmocka_unit_test(test_bfs),
		cmocka_unit_test(test_pagerank),
		cmocka_unit_test(test_rmat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
