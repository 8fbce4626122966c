/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names of cmm_mp's states and modes, as sysfs, uevents, mpctl and
 * libmp show them: written once here, compiled into cmm_mp.ko and into
 * libmp (and so mpctl), so that what the kernel shows and what userspace
 * prints cannot drift apart. The numbers are the uapi enums of
 * <linux/cmm_mp.h>; the names are part of the interface (udev rules and
 * scripts match them).
 */
#ifndef _CMM_MP_COMMON_NAMES_H
#define _CMM_MP_COMMON_NAMES_H

#include "mp_types.h"

const char *cmm_mp_seg_state_name(u32 state);
const char *cmm_mp_seg_mode_name(u32 mode);
const char *cmm_mp_pool_state_name(u32 state);
const char *cmm_mp_dev_state_name(u32 state);
const char *cmm_mp_seg_redundancy_name(u32 redundancy);

#endif /* _CMM_MP_COMMON_NAMES_H */
