/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Types for the pure-logic files in kernel/common/: they are compiled into
 * the kernel modules and, unchanged, into userspace unit tests and fuzz
 * targets. Nothing here may pull in kernel-only headers.
 */
#ifndef _CMM_MP_COMMON_TYPES_H
#define _CMM_MP_COMMON_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/stddef.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#endif

#endif /* _CMM_MP_COMMON_TYPES_H */
