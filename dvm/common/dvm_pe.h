/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DVM page tables with Permission Entries (DVM paper, section 3.2).
 *
 * An x86-64-style 4-level table (512 entries of 8 bytes per level). An
 * entry at L2, L3 or L4 can be a Permission Entry (PE): instead of pointing
 * at the next level, it holds sixteen 2-bit permissions for the sixteen
 * aligned sub-regions of its span (128 KiB at L2, 64 MiB at L3, 32 GiB at
 * L4), for memory that is identity mapped (VA == PA). A walk that meets a
 * PE ends there; one that meets a regular L1 entry translates.
 *
 * Entry layout (u64):
 *   bit 0      present
 *   bit 1      PE: this entry is a Permission Entry (L2..L4 only)
 *   bits 2-3   permission of a regular L1 entry
 *   bits 12-51 next table (non-leaf) or page frame (L1)
 *   bits 32-63 PE: permission of sub-region i in bits 32+2i..33+2i
 *
 * The tables live in memory the caller provides through struct dvm_pt_ops,
 * so the same code runs over kernel pages and over a userspace arena.
 */
#ifndef _CMM_MP_DVM_PE_H
#define _CMM_MP_DVM_PE_H

#include "dvm_types.h"

#define DVM_PT_LEVELS		4
#define DVM_PT_ENTRIES		512
#define DVM_PT_PAGE_SHIFT	12
#define DVM_PT_TABLE_BYTES	4096
#define DVM_PE_SUBREGIONS	16
#define DVM_VA_BITS		48

#define DVM_E_PRESENT		0x1ULL
#define DVM_E_PE		0x2ULL
#define DVM_E_PERM_SHIFT	2
#define DVM_E_ADDR_MASK		0x000ffffffffff000ULL
#define DVM_PE_PERM_SHIFT	32

/* Permissions, as the paper encodes them */
enum dvm_perm {
	DVM_PERM_NONE = 0,
	DVM_PERM_RO = 1,
	DVM_PERM_RW = 2,
	DVM_PERM_RX = 3,
};

enum dvm_access {
	DVM_ACCESS_READ,
	DVM_ACCESS_WRITE,
	DVM_ACCESS_EXEC,
};

struct dvm_pt_ops {
	/* a zeroed table: its address for the CPU and its physical address */
	u64 *(*alloc)(void *priv, u64 *pa);
	/*
	 * a table no entry points to any more; a walker may still hold it
	 * in a cache, so the owner may defer the actual free
	 */
	void (*free)(void *priv, u64 *table, u64 pa);
	u64 *(*pa_to_va)(void *priv, u64 pa);
};

struct dvm_pt {
	u64 *root;
	u64 root_pa;
	const struct dvm_pt_ops *ops;
	void *priv;
	u64 nr_tables;		/* tables in use, the root included */
};

/* Called for every table entry a walk reads, with the entry's address. */
typedef bool (*dvm_walk_read_fn)(void *arg, u64 entry_pa);

struct dvm_walk {
	u64 pa;			/* translation result */
	int level;		/* level of the entry that ended the walk */
	enum dvm_perm perm;
	bool identity;		/* ended on a PE */
	u32 refs;		/* entries read */
	u32 mem_refs;		/* of those, not served by the read hook's cache */
};

static inline u64 dvm_pt_span(int level)
{
	return 1ULL << (DVM_PT_PAGE_SHIFT + 9 * (level - 1));
}

static inline bool dvm_perm_allows(enum dvm_perm p, enum dvm_access a)
{
	switch (a) {
	case DVM_ACCESS_READ:
		return p != DVM_PERM_NONE;
	case DVM_ACCESS_WRITE:
		return p == DVM_PERM_RW;
	case DVM_ACCESS_EXEC:
		return p == DVM_PERM_RX;
	}
	return false;
}

int dvm_pt_init(struct dvm_pt *pt, const struct dvm_pt_ops *ops, void *priv);
void dvm_pt_destroy(struct dvm_pt *pt);
int dvm_pt_set_identity(struct dvm_pt *pt, u64 va, u64 len, enum dvm_perm perm);
int dvm_pt_map_page(struct dvm_pt *pt, u64 va, u64 pa, enum dvm_perm perm);
int dvm_pt_unmap(struct dvm_pt *pt, u64 va, u64 len);
u32 dvm_pt_split_tables(const struct dvm_pt *pt, u64 va, u64 len);
bool dvm_pt_range_empty(const struct dvm_pt *pt, u64 va, u64 len);
int dvm_pt_walk(const struct dvm_pt *pt, u64 va, enum dvm_access access,
		dvm_walk_read_fn read, void *arg, struct dvm_walk *w);
u64 dvm_pt_bytes(const struct dvm_pt *pt);
u64 dvm_pt_conventional_bytes(const struct dvm_pt *pt);

#endif /* _CMM_MP_DVM_PE_H */
