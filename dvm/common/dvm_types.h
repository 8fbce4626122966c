/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's short type names for DVM's host builds: dvm_graph here,
 * and, through dvm/host/linux/types.h, the series' Permission Entry
 * tables and AVC.  Userspace only.
 */
#ifndef _CMM_MP_DVM_TYPES_H
#define _CMM_MP_DVM_TYPES_H

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

#endif /* _CMM_MP_DVM_TYPES_H */
