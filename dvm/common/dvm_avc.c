// SPDX-License-Identifier: GPL-2.0
/*
 * Access Validation Cache and TLB models (pure logic).
 */
#include "dvm_avc.h"

/**
 * dvm_avc_init() - an empty AVC of @bytes capacity
 * @c: the cache
 * @bytes: a power of two, 256 (one set of four 64-byte blocks) to
 *	   DVM_AVC_MAX_BYTES
 *
 * Return: 0, or -EINVAL (the cache is then left unchanged).
 */
int dvm_avc_init(struct dvm_avc *c, u32 bytes)
{
	u32 s, w;

	if (bytes < DVM_AVC_WAYS * DVM_AVC_BLOCK_BYTES ||
	    bytes > DVM_AVC_MAX_BYTES || (bytes & (bytes - 1)))
		return -EINVAL;
	c->sets = bytes / (DVM_AVC_WAYS * DVM_AVC_BLOCK_BYTES);
	for (s = 0; s < DVM_AVC_MAX_SETS; s++)
		for (w = 0; w < DVM_AVC_WAYS; w++) {
			c->tag[s][w] = 0;
			c->used[s][w] = 0;
		}
	c->clock = 0;
	c->hits = 0;
	c->misses = 0;
	return 0;
}

/* The page tables changed (munmap, mprotect): drop every cached block. */
void dvm_avc_flush(struct dvm_avc *c)
{
	u32 s, w;

	for (s = 0; s < c->sets; s++)
		for (w = 0; w < DVM_AVC_WAYS; w++)
			c->used[s][w] = 0;
}

/**
 * dvm_avc_access() - look up the block holding @pa, filling it on a miss
 * @c: the cache
 * @pa: physical address of a page-table entry
 *
 * Return: true on a hit (no memory reference needed).
 */
bool dvm_avc_access(struct dvm_avc *c, u64 pa)
{
	u64 block = pa >> DVM_AVC_BLOCK_SHIFT;
	u32 set = (u32)(block & (c->sets - 1)), w, victim = 0;
	u64 tag = block / c->sets;

	c->clock++;
	for (w = 0; w < DVM_AVC_WAYS; w++) {
		if (c->used[set][w] && c->tag[set][w] == tag) {
			c->used[set][w] = c->clock;
			c->hits++;
			return true;
		}
		if (c->used[set][w] < c->used[set][victim])
			victim = w;
	}
	c->tag[set][victim] = tag;
	c->used[set][victim] = c->clock;
	c->misses++;
	return false;
}

bool dvm_avc_read(void *avc, u64 entry_pa)
{
	return dvm_avc_access(avc, entry_pa);
}

int dvm_tlb_init(struct dvm_tlb *t, u32 entries, u32 page_shift)
{
	u32 i;

	if (!entries || entries > DVM_TLB_MAX || page_shift < 12 ||
	    page_shift > 40)
		return -EINVAL;
	t->entries = entries;
	t->page_shift = page_shift;
	for (i = 0; i < DVM_TLB_MAX; i++) {
		t->vpn[i] = 0;
		t->used[i] = 0;
	}
	t->clock = 0;
	t->hits = 0;
	t->misses = 0;
	return 0;
}

/* Return: true on a hit; a miss replaces the least recently used entry. */
bool dvm_tlb_access(struct dvm_tlb *t, u64 va)
{
	u64 vpn = va >> t->page_shift;
	u32 i, victim = 0;

	t->clock++;
	for (i = 0; i < t->entries; i++) {
		if (t->used[i] && t->vpn[i] == vpn) {
			t->used[i] = t->clock;
			t->hits++;
			return true;
		}
		if (t->used[i] < t->used[victim])
			victim = i;
	}
	t->vpn[victim] = vpn;
	t->used[victim] = t->clock;
	t->misses++;
	return false;
}
