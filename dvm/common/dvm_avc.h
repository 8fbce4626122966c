/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Access Validation Cache (DVM paper, section 4.1) and, for comparison, a
 * conventional TLB model.
 *
 * The AVC caches page-table memory, not translations: 64-byte blocks (eight
 * entries of any level), physically indexed, 4-way set associative with
 * LRU replacement.  The paper's AVC "caches 128 distinct PTEs, resulting
 * in a total capacity of 1 KB" (section 4.1.2): 16 blocks in 4 sets, the
 * default here.  The capacity is a parameter (a power of two from 256
 * bytes, one set, to DVM_AVC_MAX_BYTES) so that larger caches can be
 * compared.  Because identity-mapped memory ends its walks in a few PEs,
 * most of the entries a validation reads are in a handful of blocks.
 */
#ifndef _CMM_MP_DVM_AVC_H
#define _CMM_MP_DVM_AVC_H

#include "dvm_types.h"

#define DVM_AVC_BLOCK_SHIFT	6
#define DVM_AVC_BLOCK_BYTES	64	/* 1 << DVM_AVC_BLOCK_SHIFT */
#define DVM_AVC_WAYS		4
#define DVM_AVC_DEFAULT_BYTES	1024	/* the paper's: 128 entries of 8 bytes */
#define DVM_AVC_MAX_BYTES	8192
#define DVM_AVC_MAX_SETS	(DVM_AVC_MAX_BYTES / DVM_AVC_BLOCK_BYTES / \
				 DVM_AVC_WAYS)

struct dvm_avc {
	u32 sets;				/* a power of two */
	u64 tag[DVM_AVC_MAX_SETS][DVM_AVC_WAYS];
	u64 used[DVM_AVC_MAX_SETS][DVM_AVC_WAYS];	/* LRU stamp, 0 = invalid */
	u64 clock;
	u64 hits;
	u64 misses;
};

int dvm_avc_init(struct dvm_avc *c, u32 bytes);
static inline u32 dvm_avc_bytes(const struct dvm_avc *c)
{
	return c->sets * DVM_AVC_WAYS * DVM_AVC_BLOCK_BYTES;
}

void dvm_avc_flush(struct dvm_avc *c);
bool dvm_avc_access(struct dvm_avc *c, u64 pa);
/* dvm_walk_read_fn adapter: pass the AVC as the argument */
bool dvm_avc_read(void *avc, u64 entry_pa);

#define DVM_TLB_MAX		512

/* A fully associative LRU TLB of @entries pages of 1 << @page_shift. */
struct dvm_tlb {
	u32 entries;
	u32 page_shift;
	u64 vpn[DVM_TLB_MAX];
	u64 used[DVM_TLB_MAX];			/* LRU stamp, 0 = invalid */
	u64 clock;
	u64 hits;
	u64 misses;
};

int dvm_tlb_init(struct dvm_tlb *t, u32 entries, u32 page_shift);
bool dvm_tlb_access(struct dvm_tlb *t, u64 va);

#endif /* _CMM_MP_DVM_AVC_H */
