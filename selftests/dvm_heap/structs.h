/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pointer-based structures built with plain malloc() by dvm_structs and
 * walked through physical memory by dvm_physwalk: the layout is what a
 * device following the pointers would have to know.
 */
#ifndef _DVM_HEAP_STRUCTS_H
#define _DVM_HEAP_STRUCTS_H

#include <stdint.h>

struct list_node {
	uint64_t value;
	struct list_node *next;
};

struct tree_node {
	uint64_t key;
	struct tree_node *left, *right;
};

struct edge {
	struct vertex *to;
	struct edge *next;
};

struct vertex {
	uint32_t id;
	uint32_t degree;
	struct edge *edges;	/* adjacency list */
};

struct graph {
	uint64_t nr;
	struct vertex **v;	/* malloc'd array of nr vertices */
};

/* order-sensitive checksum of an in-order tree walk */
static inline uint64_t tree_mix(uint64_t h, uint64_t key)
{
	return h * 1099511628211ULL ^ key;
}

#endif /* _DVM_HEAP_STRUCTS_H */
