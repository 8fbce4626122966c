/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Graphs for the DVM accelerator tests (pure logic): a Graph500-style
 * R-MAT edge generator, CSR construction, and the CPU reference of the
 * accelerator's BFS and fixed-point PageRank.
 */
#ifndef _CMM_MP_DVM_GRAPH_H
#define _CMM_MP_DVM_GRAPH_H

#include "dvm_types.h"

/* R-MAT quadrant probabilities in percent (Graph500: 0.57, 0.19, 0.19) */
#define DVM_RMAT_A		57
#define DVM_RMAT_B		19
#define DVM_RMAT_C		19

/* PageRank in fixed point, as <linux/dvm_accel.h> defines it */
#define DVM_GRAPH_PR_ONE	0x100000000ULL
#define DVM_GRAPH_PR_DAMP_NUM	85
#define DVM_GRAPH_PR_DAMP_DEN	100

u64 dvm_rng_next(u64 *state);
void dvm_rmat_edge(u64 *state, u32 scale, u32 *u, u32 *v);
void dvm_rmat_edges(u64 seed, u32 scale, u64 ne, u32 *eu, u32 *ev);
u64 dvm_csr_build(u64 n, const u32 *eu, const u32 *ev, u64 ne, u64 *row,
		  u32 *col);
u64 dvm_bfs_ref(const u64 *row, const u32 *col, u64 n, u32 root, s32 *level,
		u32 *queue);
void dvm_pagerank_ref(const u64 *row, const u32 *col, u64 n, u64 iters,
		      u64 *rank, u64 *next);

#endif /* _CMM_MP_DVM_GRAPH_H */
