// SPDX-License-Identifier: LGPL-2.1
/*
 * libmp segments: one struct mp_segment per SEG_* message, iterators,
 * lookup, getters, and the online/offline operations.
 *
 * Onlining is split like dax_kmem + daxctl: SEG_ONLINE makes the kernel
 * claim the range and hot-add its memory blocks (left offline); we then
 * online each block through sysfs with the zone the caller asked for, and
 * undo everything with SEG_OFFLINE when a block refuses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include <linux/cmm_mp.h>

#include "libmp-private.h"

uint32_t mp_segment_id_of(const void *obj)
{
	return ((const struct mp_segment *)obj)->info.id;
}

/**
 * mp_seg_info_parse() - read one SEG_* message
 * @tb: its attributes
 * @info: filled in; absent optional attributes get neutral values
 *
 * Return: 0, or -EPROTO when SEG_ID or SEG_STATE is missing or any
 * attribute has the wrong size.
 */
int mp_seg_info_parse(struct nlattr **tb, struct mp_seg_info *info)
{
	int rc;

	memset(info, 0, sizeof(*info));
	info->dev_id = CMM_MP_NONE;
	info->owner = CMM_MP_NONE;
	info->node = CMM_MP_NONE;

	if (mp_nla_u32(tb, CMM_MP_A_SEG_ID, &info->id) ||
	    mp_nla_u32(tb, CMM_MP_A_SEG_STATE, &info->state))
		return -EPROTO;
	rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_DEV_ID, &info->dev_id));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u64(tb, CMM_MP_A_SEG_NHA, &info->nha));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u64(tb, CMM_MP_A_SEG_PHYS,
					   &info->phys));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u64(tb, CMM_MP_A_SEG_SIZE,
					   &info->size));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_SEG_MODE,
					   &info->mode));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_SEG_OWNER,
					   &info->owner));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_NODE, &info->node));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_MEMBLK_FIRST,
					   &info->memblk_first));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_MEMBLK_COUNT,
					   &info->memblk_count));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_MEMBLK_ONLINE,
					   &info->memblk_online));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_MEMBLK_MOVABLE,
					   &info->memblk_movable));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_SEG_SHARED,
					   &info->shared));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_SEG_SHARERS,
					   &info->sharers));
	if (!rc && tb[CMM_MP_A_SEG_DEVNODE])
		snprintf(info->devnode, sizeof(info->devnode), "%s",
			 nla_get_string(tb[CMM_MP_A_SEG_DEVNODE]));
	return rc ? -EPROTO : 0;
}

/**
 * mp_segment_upsert() - record what the kernel said about a segment
 * @ctx: context
 * @info: the segment's new state
 *
 * Return: the (possibly new) segment object, or NULL without memory.
 */
struct mp_segment *mp_segment_upsert(struct mp_ctx *ctx,
				     const struct mp_seg_info *info)
{
	struct mp_segment *seg;
	ssize_t pos;

	pos = mp_objvec_find(&ctx->segs, info->id, mp_segment_id_of);
	if (pos >= 0) {
		seg = ctx->segs.v[pos];
	} else {
		seg = calloc(1, sizeof(*seg));
		if (!seg)
			return NULL;
		if (mp_objvec_insert(&ctx->segs, -pos - 1, seg)) {
			free(seg);
			return NULL;
		}
		seg->ctx = ctx;
	}
	seg->info = *info;
	seg->present = true;
	seg->seen = true;
	return seg;
}

/**
 * mp_segment_update() - mp_nl_parse_fn for every SEG_* answer
 * @ctx: context
 * @tb: attributes of one segment message
 * @arg: NULL, or a struct mp_segment ** that receives the object
 *
 * Return: 0 or a negative errno.
 */
int mp_segment_update(struct mp_ctx *ctx, struct nlattr **tb, void *arg)
{
	struct mp_segment **out = arg;
	struct mp_seg_info info;
	struct mp_segment *seg;

	if (mp_seg_info_parse(tb, &info))
		return mp_set_error(ctx, -EPROTO, "malformed segment message");
	seg = mp_segment_upsert(ctx, &info);
	if (!seg)
		return -ENOMEM;
	if (out)
		*out = seg;
	return 0;
}

void mp_segment_sweep(struct mp_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->segs.nr; i++) {
		struct mp_segment *seg = ctx->segs.v[i];

		seg->present = seg->seen;
	}
}

/* First present segment at or after @pos, of device @dev_id unless NONE. */
static struct mp_segment *mp_segment_from(struct mp_ctx *ctx, size_t pos,
					  uint32_t dev_id)
{
	for (; pos < ctx->segs.nr; pos++) {
		struct mp_segment *seg = ctx->segs.v[pos];

		if (!seg->present)
			continue;
		if (dev_id == CMM_MP_NONE || seg->info.dev_id == dev_id)
			return seg;
	}
	return NULL;
}

static struct mp_segment *mp_segment_after(struct mp_segment *seg,
					   uint32_t dev_id)
{
	ssize_t pos;

	pos = mp_objvec_find(&seg->ctx->segs, seg->info.id, mp_segment_id_of);
	if (pos < 0)
		return NULL;
	return mp_segment_from(seg->ctx, pos + 1, dev_id);
}

MP_EXPORT struct mp_segment *mp_segment_get_first(struct mp_ctx *ctx)
{
	if (!ctx || mp_load(ctx))
		return NULL;
	return mp_segment_from(ctx, 0, CMM_MP_NONE);
}

MP_EXPORT struct mp_segment *mp_segment_get_next(struct mp_segment *seg)
{
	return seg ? mp_segment_after(seg, CMM_MP_NONE) : NULL;
}

MP_EXPORT struct mp_segment *mp_device_segment_get_first(struct mp_device *dev)
{
	if (!dev || mp_load(dev->ctx))
		return NULL;
	return mp_segment_from(dev->ctx, 0, dev->id);
}

MP_EXPORT struct mp_segment *mp_device_segment_get_next(struct mp_segment *seg)
{
	if (!seg || seg->info.dev_id == CMM_MP_NONE)
		return NULL;
	return mp_segment_after(seg, seg->info.dev_id);
}

MP_EXPORT struct mp_segment *mp_segment_get_by_id(struct mp_ctx *ctx,
						  uint32_t id)
{
	struct mp_segment *seg;
	ssize_t pos;

	if (!ctx || mp_load(ctx))
		return NULL;
	pos = mp_objvec_find(&ctx->segs, id, mp_segment_id_of);
	if (pos < 0)
		goto enoent;
	seg = ctx->segs.v[pos];
	if (!seg->present)
		goto enoent;
	return seg;
enoent:
	mp_set_error(ctx, -ENOENT, "no segment %u", id);
	return NULL;
}

MP_EXPORT struct mp_ctx *mp_segment_get_ctx(struct mp_segment *seg)
{
	return seg->ctx;
}

MP_EXPORT uint32_t mp_segment_get_id(struct mp_segment *seg)
{
	return seg->info.id;
}

MP_EXPORT struct mp_device *mp_segment_get_device(struct mp_segment *seg)
{
	if (seg->info.dev_id == CMM_MP_NONE)
		return NULL;
	return mp_device_get_by_id(seg->ctx, seg->info.dev_id);
}

MP_EXPORT uint32_t mp_segment_get_device_id(struct mp_segment *seg)
{
	return seg->info.dev_id;
}

MP_EXPORT uint64_t mp_segment_get_nha(struct mp_segment *seg)
{
	return seg->info.nha;
}

MP_EXPORT uint64_t mp_segment_get_phys(struct mp_segment *seg)
{
	return seg->info.phys;
}

MP_EXPORT uint64_t mp_segment_get_size(struct mp_segment *seg)
{
	return seg->info.size;
}

MP_EXPORT enum mp_seg_state mp_segment_get_state(struct mp_segment *seg)
{
	return (enum mp_seg_state)seg->info.state;
}

MP_EXPORT enum mp_seg_mode mp_segment_get_mode(struct mp_segment *seg)
{
	return (enum mp_seg_mode)seg->info.mode;
}

MP_EXPORT uint32_t mp_segment_get_owner(struct mp_segment *seg)
{
	return seg->info.owner;
}

MP_EXPORT int mp_segment_get_numa_node(struct mp_segment *seg)
{
	return seg->info.node == CMM_MP_NONE ? -1 : (int)seg->info.node;
}

MP_EXPORT uint32_t mp_segment_get_memblock_first(struct mp_segment *seg)
{
	return seg->info.memblk_first;
}

MP_EXPORT uint32_t mp_segment_get_memblock_count(struct mp_segment *seg)
{
	return seg->info.memblk_count;
}

MP_EXPORT uint32_t mp_segment_get_memblock_online(struct mp_segment *seg)
{
	return seg->info.memblk_online;
}

MP_EXPORT uint32_t mp_segment_get_memblock_movable(struct mp_segment *seg)
{
	return seg->info.memblk_movable;
}

MP_EXPORT bool mp_segment_is_online(struct mp_segment *seg)
{
	return seg->info.state == CMM_MP_SEG_ONLINE_RAM;
}

MP_EXPORT const char *mp_seg_state_name(enum mp_seg_state state)
{
	switch (state) {
	case MP_SEG_OFFLINE:	return "offline";
	case MP_SEG_ONLINE_RAM:	return "online-ram";
	case MP_SEG_BUSY:	return "busy";
	case MP_SEG_FAILED:	return "failed";
	case MP_SEG_OWNED:	return "owned";
	case MP_SEG_SHARED:	return "shared";
	}
	return "unknown";
}

MP_EXPORT const char *mp_seg_mode_name(enum mp_seg_mode mode)
{
	switch (mode) {
	case MP_SEG_MODE_RAM:	return "system-ram";
	case MP_SEG_MODE_DAX:	return "dax";
	case MP_SEG_MODE_BLK:	return "blk";
	}
	return "unknown";
}

/* Send a per-segment command whose answer is that segment's message. */
static int mp_segment_cmd(struct mp_segment *seg, uint8_t cmd,
			  const uint32_t *mode)
{
	struct mp_segment *got = NULL;
	uint32_t id = seg->info.id;
	int rc;

	rc = mp_nl_request(seg->ctx, cmd, false, &id, mode,
			   mp_segment_update, &got);
	if (rc) {
		/* The kernel no longer knows it: hide it from iterators. */
		if (rc == -ENOENT && cmd == CMM_MP_CMD_SEG_GET)
			seg->present = false;
		return rc;
	}
	if (got != seg)
		return mp_set_error(seg->ctx, -EPROTO,
				    "kernel answered for another segment");
	return 0;
}

MP_EXPORT int mp_segment_refresh(struct mp_segment *seg)
{
	if (!seg)
		return -EINVAL;
	mp_clear_error(seg->ctx);
	return mp_segment_cmd(seg, CMM_MP_CMD_SEG_GET, NULL);
}

/*
 * A block refused to come online: give the range back with SEG_OFFLINE,
 * keeping the first error as the one reported and saying whether the
 * rollback worked (if it did not, the segment stays claimed and the
 * caller must know).
 */
static int mp_segment_rollback(struct mp_segment *seg, int err)
{
	struct mp_ctx *ctx = seg->ctx;
	char why[MP_ERRMSG_MAX];
	int rc;

	snprintf(why, sizeof(why), "%s", ctx->last_msg);
	rc = mp_segment_cmd(seg, CMM_MP_CMD_SEG_OFFLINE, NULL);
	if (rc) {
		char kmsg[MP_ERRMSG_MAX];

		snprintf(kmsg, sizeof(kmsg), "%s", ctx->last_msg);
		return mp_set_error(ctx, err,
				    "%s; rollback (SEG_OFFLINE) failed too: %s%s%s",
				    why, strerror(-rc), kmsg[0] ? ": " : "",
				    kmsg);
	}
	return mp_set_error(ctx, err, "%s; segment put back offline", why);
}

MP_EXPORT bool mp_segment_is_shared(struct mp_segment *seg)
{
	return seg->info.shared != 0;
}

MP_EXPORT uint32_t mp_segment_get_sharers(struct mp_segment *seg)
{
	return seg->info.sharers;
}

MP_EXPORT const char *mp_segment_get_devnode(struct mp_segment *seg)
{
	return seg->info.devnode[0] ? seg->info.devnode : NULL;
}

/*
 * Online @seg: @mode NULL lets the kernel choose (System RAM for a segment
 * of the local device, dax for another device's).
 */
static int mp_segment_do_online(struct mp_segment *seg, const uint32_t *mode,
				unsigned long flags)
{
	struct mp_ctx *ctx = seg->ctx;
	uint32_t failed = 0;
	bool movable;
	int rc;

	movable = !(flags & MP_ONLINE_NO_MOVABLE);
	rc = mp_segment_cmd(seg, CMM_MP_CMD_SEG_ONLINE, mode);
	if (rc)
		return rc;

	/*
	 * A segment mapped as a device (/dev/mps, /dev/mpb), or allocated
	 * to us by an older kernel: no memory blocks to online here.
	 */
	if (seg->info.mode != CMM_MP_SEG_MODE_RAM ||
	    seg->info.state == CMM_MP_SEG_OWNED)
		return 0;
	/* The answer must name the blocks the kernel added. */
	if (seg->info.state != CMM_MP_SEG_ONLINE_RAM ||
	    !seg->info.memblk_count) {
		mp_set_error(ctx, -EPROTO,
			     "kernel answer to SEG_ONLINE names no memory blocks (state %u)",
			     seg->info.state);
		if (seg->info.state == CMM_MP_SEG_OFFLINE)
			return -EPROTO;
		return mp_segment_rollback(seg, -EPROTO);
	}

	rc = mp_memblock_online_range(seg->info.memblk_first,
				      seg->info.memblk_count, movable,
				      &failed);
	if (rc) {
		mp_set_error(ctx, rc, "memory block %u refused %s", failed,
			     movable ? "online_movable" : "online_kernel");
		rc = mp_segment_rollback(seg, rc);
		mp_set_error_origin(ctx, MP_ERR_MEMBLOCK);
		return rc;
	}

	/*
	 * Re-read the block counters. If that fails, the segment is online
	 * all the same: fill in what we know rather than fail the call.
	 */
	if (mp_segment_cmd(seg, CMM_MP_CMD_SEG_GET, NULL)) {
		mp_clear_error(ctx);
		seg->info.memblk_online = seg->info.memblk_count;
	}
	return 0;
}

MP_EXPORT int mp_segment_online(struct mp_segment *seg, unsigned long flags)
{
	if (!seg)
		return -EINVAL;
	mp_clear_error(seg->ctx);
	if (flags & ~MP_ONLINE_NO_MOVABLE)
		return mp_set_error(seg->ctx, -EINVAL, "unknown flags %#lx",
				    flags);
	return mp_segment_do_online(seg, NULL, flags);
}

MP_EXPORT int mp_segment_online_as(struct mp_segment *seg,
				   enum mp_seg_mode mode, unsigned long flags)
{
	uint32_t m = (uint32_t)mode;

	if (!seg)
		return -EINVAL;
	mp_clear_error(seg->ctx);
	if (flags & ~(MP_ONLINE_NO_MOVABLE | MP_ONLINE_SHARED))
		return mp_set_error(seg->ctx, -EINVAL, "unknown flags %#lx",
				    flags);
	if (mode != MP_SEG_MODE_RAM && mode != MP_SEG_MODE_DAX &&
	    mode != MP_SEG_MODE_BLK)
		return mp_set_error(seg->ctx, -EINVAL, "unknown mode %u",
				    (unsigned int)mode);
	if (mode == MP_SEG_MODE_RAM && (flags & MP_ONLINE_SHARED))
		return mp_set_error(seg->ctx, -EINVAL,
				    "sharing mode needs dax or blk, not System RAM");
	if (mode != MP_SEG_MODE_RAM && (flags & MP_ONLINE_NO_MOVABLE))
		return mp_set_error(seg->ctx, -EINVAL,
				    "no-movable is for System RAM only");
	if (flags & MP_ONLINE_SHARED)
		m |= MP_NL_MODE_SHARED;
	return mp_segment_do_online(seg, &m, flags);
}

MP_EXPORT int mp_segment_offline(struct mp_segment *seg)
{
	if (!seg)
		return -EINVAL;
	mp_clear_error(seg->ctx);
	return mp_segment_cmd(seg, CMM_MP_CMD_SEG_OFFLINE, NULL);
}
