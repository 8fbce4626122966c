/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <linux/types.h> for the series' pure logic compiled on the host
 * (drivers/iommu/dvm_pe.c, drivers/misc/dvm_accel/dvm_avc.c and their
 * headers, as patches/unpack writes them): the uapi header, then the
 * kernel's short type names and bool, so those files compile unchanged.
 * Only DVM's host builds put this directory on the include path.
 */
#ifndef _CMM_MP_DVM_HOST_LINUX_TYPES_H
#define _CMM_MP_DVM_HOST_LINUX_TYPES_H

#include_next <linux/types.h>
#include "../../common/dvm_types.h"

#endif /* _CMM_MP_DVM_HOST_LINUX_TYPES_H */
