// SPDX-License-Identifier: GPL-2.0
/*
 * Pool range and segment geometry (pure logic, shared with userspace tests).
 */
#include "mp_seg.h"

static bool is_pow2(u64 v)
{
	return v && !(v & (v - 1));
}

static int hex_or_dec_digit(char c, unsigned int radix)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return v < (int)radix ? v : -1;
}

/*
 * Parse "nn[KMGT]" in decimal or "0x..." in hex, as the kernel's memparse()
 * does, but reject overflow and empty numbers instead of returning garbage.
 * *end points past the number; the caller decides what may follow.
 */
int mp_parse_size(const char *s, u64 *out, const char **end)
{
	unsigned int radix = 10, shift = 0;
	u64 v = 0;
	int d, n = 0;

	if (!s || !out)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		radix = 16;
		s += 2;
	}
	while ((d = hex_or_dec_digit(*s, radix)) >= 0) {
		if (v > (~0ULL - d) / radix)
			return -ERANGE;
		v = v * radix + d;
		s++;
		n++;
	}
	if (!n)
		return -EINVAL;
	switch (*s) {
	case 'K': case 'k':
		shift = 10;
		break;
	case 'M': case 'm':
		shift = 20;
		break;
	case 'G': case 'g':
		shift = 30;
		break;
	case 'T': case 't':
		shift = 40;
		break;
	}
	if (shift) {
		if (v > (~0ULL >> shift))
			return -ERANGE;
		v <<= shift;
		s++;
	}
	*out = v;
	if (end)
		*end = s;
	return 0;
}

/* "SIZE$BASE" or "SIZE!BASE", the memmap= grammar for reserved ranges. */
int mp_parse_range(const char *s, struct mp_range *r)
{
	const char *p;
	u64 size, base;
	int ret;

	if (!s || !r)
		return -EINVAL;
	ret = mp_parse_size(s, &size, &p);
	if (ret)
		return ret;
	if (*p == '$')
		r->kind = MP_RANGE_RESERVED;
	else if (*p == '!')
		r->kind = MP_RANGE_PMEM;
	else
		return -EINVAL;
	ret = mp_parse_size(p + 1, &base, &p);
	if (ret)
		return ret;
	/* A trailing newline is what sysfs and echo hand us; accept it. */
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	if (!size || base + size < base)
		return -ERANGE;
	r->base = base;
	r->size = size;
	return 0;
}

/*
 * A System RAM segment is whole memory blocks because memory is hot-added
 * and removed in blocks. A segment may also be a power-of-two part of one
 * block, at least MP_SEG_MIN_SIZE: such a segment is only ever a device
 * (dax, blk), which needs no memory block, and is how a small machine (or
 * a guest) carries thousands of segments. The pool is a whole number of
 * segments so that no tail of the device DRAM is unreachable.
 */
int mp_geometry_init(struct mp_geometry *g, u64 base, u64 size,
		     u64 seg_size, u64 block_size)
{
	u64 n;

	if (!g || !is_pow2(block_size))
		return -EINVAL;
	if (!seg_size)
		return -EINVAL;
	if (seg_size < block_size ?
	    !is_pow2(seg_size) || seg_size < MP_SEG_MIN_SIZE :
	    seg_size % block_size)
		return -EINVAL;
	if (!size || base % block_size || size % seg_size)
		return -EINVAL;
	if (base + size < base)
		return -ERANGE;
	n = size / seg_size;
	if (n > 0xffffffffULL)
		return -ERANGE;
	g->base = base;
	g->size = size;
	g->seg_size = seg_size;
	g->block_size = block_size;
	g->nr_segs = (u32)n;
	return 0;
}

int mp_seg_range(const struct mp_geometry *g, u32 seg, u64 *phys, u64 *len)
{
	if (!g || seg >= g->nr_segs)
		return -ENOENT;
	if (phys)
		*phys = g->base + (u64)seg * g->seg_size;
	if (len)
		*len = g->seg_size;
	return 0;
}

/* Segments of whole memory blocks, that may become System RAM. */
bool mp_seg_whole_blocks(const struct mp_geometry *g)
{
	return g && g->block_size && g->seg_size >= g->block_size;
}

/*
 * The memory blocks of segment @seg: the block it starts in and how many
 * it is (0 for a segment smaller than one block).
 */
int mp_seg_blocks(const struct mp_geometry *g, u32 seg, u32 *first,
		  u32 *count)
{
	u64 phys, first_blk;

	if (mp_seg_range(g, seg, &phys, NULL))
		return -ENOENT;
	first_blk = phys / g->block_size;
	/* memory block numbers and counts are 32-bit in sysfs */
	if (first_blk > 0xffffffffULL ||
	    g->seg_size / g->block_size > 0xffffffffULL)
		return -ERANGE;
	if (first)
		*first = (u32)first_blk;
	if (count)
		*count = (u32)(g->seg_size / g->block_size);
	return 0;
}

int mp_seg_of_phys(const struct mp_geometry *g, u64 phys, u32 *seg)
{
	if (!g || phys < g->base || phys - g->base >= g->size)
		return -ENOENT;
	if (seg)
		*seg = (u32)((phys - g->base) / g->seg_size);
	return 0;
}
