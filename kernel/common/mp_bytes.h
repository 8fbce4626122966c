/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Byte-order and bit helpers for the pure-logic files in kernel/common/.
 *
 * Wire fields are read and written one byte at a time: packet buffers are
 * not aligned for the fields (the transport header starts 14 bytes into a
 * frame) and the same code has to build in the kernel, where htons() does
 * not exist, and in userspace, where be16_to_cpu() does not. Compilers turn
 * these into single (possibly byte-swapping) loads and stores.
 *
 * The bit helpers avoid __builtin_popcountll(): without -mpopcnt gcc emits a
 * call to libgcc's __popcountdi2, which kernel modules cannot link against.
 */
#ifndef _CMM_MP_COMMON_BYTES_H
#define _CMM_MP_COMMON_BYTES_H

#include "mp_types.h"

/* memcpy()/memset() and static_assert() in both worlds. */
#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/string.h>
#else
#include <assert.h>
#include <string.h>
#endif

static inline u16 mp_get_be16(const u8 *p)
{
	return (u16)((u16)p[0] << 8 | (u16)p[1]);
}

static inline u32 mp_get_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | (u32)p[3];
}

static inline u64 mp_get_be64(const u8 *p)
{
	return (u64)mp_get_be32(p) << 32 | mp_get_be32(p + 4);
}

static inline void mp_put_be16(u8 *p, u16 v)
{
	p[0] = (u8)(v >> 8);
	p[1] = (u8)v;
}

static inline void mp_put_be32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

static inline void mp_put_be64(u8 *p, u64 v)
{
	mp_put_be32(p, (u32)(v >> 32));
	mp_put_be32(p + 4, (u32)v);
}

/* Population count of a 64-bit word (SWAR, no libgcc call). */
static inline unsigned int mp_popcount64(u64 v)
{
	v = v - ((v >> 1) & 0x5555555555555555ULL);
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned int)((v * 0x0101010101010101ULL) >> 56);
}

/* Number of trailing zero bits; 64 for 0. */
static inline unsigned int mp_ctz64(u64 v)
{
	if (!v)
		return 64;
	return mp_popcount64((v & (~v + 1)) - 1);
}

/* v >> n that is defined for every n (C leaves n >= 64 undefined). */
static inline u64 mp_shr64(u64 v, unsigned int n)
{
	return n >= 64 ? 0 : v >> n;
}

/* The n low bits set; defined for n = 0..64 and saturating above. */
static inline u64 mp_low_bits64(unsigned int n)
{
	return n >= 64 ? ~0ULL : (1ULL << n) - 1;
}

#endif /* _CMM_MP_COMMON_BYTES_H */
