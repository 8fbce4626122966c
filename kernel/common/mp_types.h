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
#include <errno.h>
#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;
#endif

#endif /* _CMM_MP_COMMON_TYPES_H */
