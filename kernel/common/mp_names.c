// SPDX-License-Identifier: GPL-2.0
/*
 * The names of cmm_mp's states and modes (pure logic, shared with libmp).
 */
#include <linux/cmm_mp.h>

#include "mp_names.h"

static const char * const mp_seg_state_names[__CMM_MP_SEG_STATE_MAX] = {
	[CMM_MP_SEG_OFFLINE] = "offline",
	[CMM_MP_SEG_ONLINE_RAM] = "online-ram",
	[CMM_MP_SEG_BUSY] = "busy",
	[CMM_MP_SEG_FAILED] = "failed",
	[CMM_MP_SEG_OWNED] = "owned",
	[CMM_MP_SEG_SHARED] = "shared",
};

static const char * const mp_seg_mode_names[__CMM_MP_SEG_MODE_MAX] = {
	[CMM_MP_SEG_MODE_RAM] = "system-ram",
	[CMM_MP_SEG_MODE_DAX] = "dax",
	[CMM_MP_SEG_MODE_BLK] = "blk",
};

static const char * const mp_pool_state_names[__CMM_MP_POOL_STATE_MAX] = {
	[CMM_MP_POOL_LOCAL] = "local",
	[CMM_MP_POOL_DISCOVERY] = "discovery",
	[CMM_MP_POOL_RUNTIME] = "runtime",
	[CMM_MP_POOL_CONFLICT] = "conflict",
};

/* a mirrored segment's pair (0: not mirrored, no name) */
static const char * const mp_seg_redundancy_names[__CMM_MP_SEG_REDUNDANCY_MAX] = {
	[CMM_MP_SEG_MIRRORED] = "mirrored",
	[CMM_MP_SEG_DEGRADED] = "degraded",
	[CMM_MP_SEG_REBUILDING] = "rebuilding",
};

static const char * const mp_dev_state_names[__CMM_MP_DEV_STATE_MAX] = {
	[CMM_MP_DEV_UP] = "up",
	[CMM_MP_DEV_LOST] = "lost",
};

/*
 * A number from the other side of an interface (a newer kernel, a corrupt
 * message) may be out of range or fall in a hole: "unknown" then, never
 * NULL, so that every caller can print the result as it is.
 */
static const char *mp_name(const char * const *names, u32 nr, u32 i)
{
	if (i >= nr || !names[i])
		return "unknown";
	return names[i];
}

/**
 * cmm_mp_seg_state_name() - the name of a segment state
 * @state: enum cmm_mp_seg_state
 *
 * Return: "offline", "online-ram", "busy", "failed", "owned" or "shared";
 * "unknown" for any other number.
 */
const char *cmm_mp_seg_state_name(u32 state)
{
	return mp_name(mp_seg_state_names, __CMM_MP_SEG_STATE_MAX, state);
}

/**
 * cmm_mp_seg_mode_name() - the name of a segment mode
 * @mode: enum cmm_mp_seg_mode
 *
 * Return: "system-ram", "dax" or "blk"; "unknown" for any other number.
 */
const char *cmm_mp_seg_mode_name(u32 mode)
{
	return mp_name(mp_seg_mode_names, __CMM_MP_SEG_MODE_MAX, mode);
}

/**
 * cmm_mp_pool_state_name() - the name of a pool state
 * @state: enum cmm_mp_pool_state
 *
 * Return: "local", "discovery", "runtime" or "conflict"; "unknown" for any
 * other number.
 */
const char *cmm_mp_pool_state_name(u32 state)
{
	return mp_name(mp_pool_state_names, __CMM_MP_POOL_STATE_MAX, state);
}

/**
 * cmm_mp_dev_state_name() - the name of a pool member's state
 * @state: enum cmm_mp_dev_state
 *
 * Return: "up" or "lost"; "unknown" for any other number.
 */
const char *cmm_mp_dev_state_name(u32 state)
{
	return mp_name(mp_dev_state_names, __CMM_MP_DEV_STATE_MAX, state);
}

/**
 * cmm_mp_seg_redundancy_name() - the name of a mirrored segment's state
 * @redundancy: enum cmm_mp_seg_redundancy
 *
 * Return: "mirrored", "degraded", "rebuilding"; "unknown" for anything
 * else (0 included: not mirrored).
 */
const char *cmm_mp_seg_redundancy_name(u32 redundancy)
{
	return mp_name(mp_seg_redundancy_names, __CMM_MP_SEG_REDUNDANCY_MAX,
		       redundancy);
}
