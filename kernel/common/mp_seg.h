/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pool range and segment geometry: the memmap= grammar of the pool range,
 * the checks a range must pass, and the arithmetic from a segment index to
 * its physical range and memory blocks.
 */
#ifndef _CMM_MP_COMMON_SEG_H
#define _CMM_MP_COMMON_SEG_H

#include "mp_types.h"

/* How the firmware was told to set the range aside (memmap=nn$ss / nn!ss). */
enum mp_range_kind {
	MP_RANGE_RESERVED,	/* '$': E820 reserved */
	MP_RANGE_PMEM,		/* '!': legacy persistent memory */
	MP_RANGE_CXL,		/* a CXL region (cxl_region=), not memmap= */
};

struct mp_range {
	u64 base;
	u64 size;
	enum mp_range_kind kind;
};

/* The smallest segment: a 64 KiB page at most, part of a memory block. */
#define MP_SEG_MIN_SIZE		0x10000ULL

struct mp_geometry {
	u64 base;		/* physical base of the device DRAM */
	u64 size;		/* bytes of device DRAM used by the pool */
	u64 seg_size;		/* bytes per segment */
	u64 block_size;		/* memory block size of the kernel */
	u32 nr_segs;
};

int mp_parse_size(const char *s, u64 *out, const char **end);
int mp_parse_range(const char *s, struct mp_range *r);
int mp_geometry_init(struct mp_geometry *g, u64 base, u64 size,
		     u64 seg_size, u64 block_size);
int mp_seg_range(const struct mp_geometry *g, u32 seg, u64 *phys, u64 *len);
int mp_seg_blocks(const struct mp_geometry *g, u32 seg, u32 *first,
		  u32 *count);
bool mp_seg_whole_blocks(const struct mp_geometry *g);
int mp_seg_of_phys(const struct mp_geometry *g, u64 phys, u32 *seg);

#endif /* _CMM_MP_COMMON_SEG_H */
