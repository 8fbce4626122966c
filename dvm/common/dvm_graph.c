// SPDX-License-Identifier: GPL-2.0
/*
 * Graphs for the DVM accelerator tests (pure logic).
 */
#include "dvm_graph.h"

/* splitmix64: small, fast, and the same everywhere */
u64 dvm_rng_next(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * One R-MAT edge among 2^@scale vertices: at each of @scale levels pick a
 * quadrant of the adjacency matrix with probabilities A, B, C, D.
 */
void dvm_rmat_edge(u64 *state, u32 scale, u32 *u, u32 *v)
{
	u32 a = 0, b = 0, bit;

	for (bit = 0; bit < scale; bit++) {
		u32 r = (u32)(dvm_rng_next(state) % 100);

		a <<= 1;
		b <<= 1;
		if (r < DVM_RMAT_A)
			continue;
		if (r < DVM_RMAT_A + DVM_RMAT_B) {
			b |= 1;
		} else if (r < DVM_RMAT_A + DVM_RMAT_B + DVM_RMAT_C) {
			a |= 1;
		} else {
			a |= 1;
			b |= 1;
		}
	}
	*u = a;
	*v = b;
}

/*
 * @ne edges from @seed.  Vertex numbers are scrambled by a bijection
 * (multiplication by an odd number and an offset, modulo 2^@scale), as
 * Graph500 permutes them, so that high-degree vertices are spread out.
 */
void dvm_rmat_edges(u64 seed, u32 scale, u64 ne, u32 *eu, u32 *ev)
{
	u64 state = seed, mask = (1ULL << scale) - 1, i;
	u64 mul = dvm_rng_next(&state) | 1, add = dvm_rng_next(&state);

	for (i = 0; i < ne; i++) {
		u32 u, v;

		dvm_rmat_edge(&state, scale, &u, &v);
		eu[i] = (u32)((u * mul + add) & mask);
		ev[i] = (u32)((v * mul + add) & mask);
	}
}

/**
 * dvm_csr_build() - undirected CSR graph from an edge list
 * @n: vertices; every end of an edge must be below it
 * @eu: first ends
 * @ev: second ends
 * @ne: edges
 * @row: out: n + 1 offsets
 * @col: out: up to 2 * @ne neighbours
 *
 * Each edge {u, v} with u != v becomes u->v and v->u (self loops are
 * dropped, repeated edges kept); neighbours appear in edge-list order.
 *
 * Return: the number of directed edges in @col.
 */
u64 dvm_csr_build(u64 n, const u32 *eu, const u32 *ev, u64 ne, u64 *row,
		  u32 *col)
{
	u64 i, v, sum = 0;

	for (v = 0; v <= n; v++)
		row[v] = 0;
	for (i = 0; i < ne; i++) {
		if (eu[i] == ev[i])
			continue;
		row[eu[i]]++;
		row[ev[i]]++;
	}
	for (v = 0; v < n; v++) {	/* row[v]: start of v */
		u64 d = row[v];

		row[v] = sum;
		sum += d;
	}
	row[n] = sum;
	for (i = 0; i < ne; i++) {	/* row[v]: next free slot of v */
		if (eu[i] == ev[i])
			continue;
		col[row[eu[i]]++] = ev[i];
		col[row[ev[i]]++] = eu[i];
	}
	for (v = n; v > 0; v--)		/* back to starts */
		row[v] = row[v - 1];
	row[0] = 0;
	return sum;
}

/**
 * dvm_bfs_ref() - breadth-first search levels
 * @row: CSR offsets
 * @col: CSR neighbours
 * @n: vertices
 * @root: start vertex
 * @level: out: level of each vertex, -1 when not reached
 * @queue: scratch, @n entries
 *
 * Return: vertices reached.
 */
u64 dvm_bfs_ref(const u64 *row, const u32 *col, u64 n, u32 root, s32 *level,
		u32 *queue)
{
	u64 head = 0, tail = 1, v, k;

	for (v = 0; v < n; v++)
		level[v] = -1;
	level[root] = 0;
	queue[0] = root;
	while (head < tail) {
		u32 u = queue[head++];

		for (k = row[u]; k < row[u + 1]; k++) {
			u32 w = col[k];

			if (level[w] != -1)
				continue;
			level[w] = level[u] + 1;
			queue[tail++] = w;
		}
	}
	return tail;
}

/**
 * dvm_pagerank_ref() - fixed-point PageRank, as the accelerator runs it
 * @row: CSR offsets
 * @col: CSR neighbours
 * @n: vertices
 * @iters: iterations
 * @rank: out: ranks, 1.0 == DVM_GRAPH_PR_ONE
 * @next: scratch, @n entries
 *
 * Push style: each vertex gives rank / degree (rounded down) to each
 * neighbour; then rank = (1 - d) / n + d * received.  Integer arithmetic,
 * so the result does not depend on the order of the additions.
 */
void dvm_pagerank_ref(const u64 *row, const u32 *col, u64 n, u64 iters,
		      u64 *rank, u64 *next)
{
	u64 base = DVM_GRAPH_PR_ONE *
		   (DVM_GRAPH_PR_DAMP_DEN - DVM_GRAPH_PR_DAMP_NUM) /
		   DVM_GRAPH_PR_DAMP_DEN / n;
	u64 it, v, k;

	for (v = 0; v < n; v++)
		rank[v] = DVM_GRAPH_PR_ONE / n;
	for (it = 0; it < iters; it++) {
		for (v = 0; v < n; v++)
			next[v] = 0;
		for (v = 0; v < n; v++) {
			u64 deg = row[v + 1] - row[v], share;

			if (!deg)
				continue;
			share = rank[v] / deg;
			for (k = row[v]; k < row[v + 1]; k++)
				next[col[k]] += share;
		}
		for (v = 0; v < n; v++)
			rank[v] = base + next[v] * DVM_GRAPH_PR_DAMP_NUM /
				  DVM_GRAPH_PR_DAMP_DEN;
	}
}
