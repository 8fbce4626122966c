/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Types for DVM's pure-logic files in dvm/common/.  dvm_pe and dvm_avc are
 * compiled unchanged into the host's unit tests and tools, and, with this
 * include replaced by <linux/errno.h> and <linux/types.h> (patches/mkpatch),
 * into the kernel by patches 0005 and 0006; dvm_graph only on the host.
 * Nothing here may pull in kernel-only headers.
 */
#ifndef _CMM_MP_DVM_TYPES_H
#define _CMM_MP_DVM_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
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

#endif /* _CMM_MP_DVM_TYPES_H */
