// SPDX-License-Identifier: LGPL-2.1
/*
 * libmp mirrored segments (LIBMP_1.8): a dax or blk mapping kept on two
 * segments of two devices, so that losing one device loses no data
 * (Documentation/pool.rst, "Mirrored segments"). Onlining names the
 * second copy (or lets libmp pick one), repairing rebuilds a lost copy;
 * the kernel reports both segments of the pair with the other's number
 * and the pair's redundancy.
 *
 * The kernel answers a command with the one segment it names, but each
 * command changes the other segment of the pair too (claimed, released,
 * replaced): that one is read again here, so that the context shows both
 * as they are.
 */
#include <errno.h>
#include <stdio.h>
#include <netlink/attr.h>
#include <linux/cmm_mp.h>

#include "libmp-private.h"
#include "mp_names.h"
#include "util/cmm_mp_attrs.h"

_Static_assert((int)MP_SEG_MIRRORED == (int)CMM_MP_SEG_MIRRORED &&
	       (int)MP_SEG_DEGRADED == (int)CMM_MP_SEG_DEGRADED &&
	       (int)MP_SEG_REBUILDING == (int)CMM_MP_SEG_REBUILDING,
	       "enum mp_seg_redundancy is not the kernel's");

MP_EXPORT uint32_t cmmmp_segment_get_mirror(struct mp_segment *seg)
{
	return seg ? seg->info.mirror : MP_NONE;
}

MP_EXPORT enum mp_seg_redundancy
cmmmp_segment_get_redundancy(struct mp_segment *seg)
{
	return seg ? (enum mp_seg_redundancy)seg->info.redundancy :
		     MP_SEG_NOT_MIRRORED;
}

MP_EXPORT uint64_t cmmmp_segment_get_rebuilt(struct mp_segment *seg)
{
	return seg && seg->info.has_rebuilt ? seg->info.rebuilt : 0;
}

MP_EXPORT const char *cmmmp_seg_redundancy_name(enum mp_seg_redundancy r)
{
	if (r == MP_SEG_NOT_MIRRORED ||
	    (unsigned int)r >= __CMM_MP_SEG_REDUNDANCY_MAX)
		return NULL;
	return cmm_mp_seg_redundancy_name(r);
}

/*
 * Read segment @id again after a command changed it as the other copy
 * of a pair. The command itself succeeded: a failure here only leaves
 * that object stale, so it is not reported.
 */
static void mp_mirror_reread(struct mp_ctx *ctx, uint32_t id)
{
	struct mp_segment *other;
	int err = ctx->last_err;

	if (id == CMM_MP_NONE)
		return;
	other = cmmmp_segment_get_by_id(ctx, id);
	if (other)
		cmmmp_segment_refresh(other);
	if (!err)
		mp_clear_error(ctx);
}

/**
 * mp_mirror_offlined() - a segment went offline: so did its other copy
 * @ctx: context
 * @mirror: the other copy's number before, CMM_MP_NONE when none
 */
void mp_mirror_offlined(struct mp_ctx *ctx, uint32_t mirror)
{
	mp_mirror_reread(ctx, mirror);
}

/* Is @seg free to hold a copy: offline, nobody's, its device up? */
static bool mp_mirror_free(struct mp_segment *seg, uint64_t size)
{
	struct mp_device *dev;

	if (seg->info.state != CMM_MP_SEG_OFFLINE ||
	    seg->info.owner != CMM_MP_NONE || seg->info.sharers ||
	    seg->info.size != size || seg->info.dev_id == CMM_MP_NONE)
		return false;
	dev = cmmmp_device_get_by_id(seg->ctx, seg->info.dev_id);
	return dev && cmmmp_device_get_state(dev) == MP_DEV_UP;
}

static bool mp_mirror_skipped(uint32_t id, const uint32_t *skip,
			      size_t nr_skip)
{
	size_t i;

	for (i = 0; i < nr_skip; i++)
		if (skip[i] == id)
			return true;
	return false;
}

MP_EXPORT struct mp_segment *
cmmmp_segment_pick_mirror(struct mp_segment *seg, const uint32_t *skip,
			  size_t nr_skip)
{
	struct mp_segment *s, *local = NULL;
	struct mp_ctx *ctx;

	if (!seg)
		return NULL;
	ctx = seg->ctx;
	if (nr_skip && !skip) {
		mp_set_error(ctx, -EINVAL, "no list of segments to skip");
		return NULL;
	}
	/* a pool that cannot be read keeps its own error */
	if (mp_load(ctx))
		return NULL;
	cmmmp_segment_foreach(ctx, s) {
		struct mp_device *dev;

		if (s->info.dev_id == seg->info.dev_id ||
		    !mp_mirror_free(s, seg->info.size) ||
		    mp_mirror_skipped(s->info.id, skip, nr_skip))
			continue;
		dev = cmmmp_segment_get_device(s);
		/* a copy on this host does not survive this host */
		if (!cmmmp_device_is_local(dev))
			return s;
		if (!local)
			local = s;
	}
	if (local)
		return local;
	mp_set_error(ctx, -ENOSPC,
		     "no offline, unowned segment of %llu bytes on a device other than mp%u for the second copy of segment %u",
		     (unsigned long long)seg->info.size, seg->info.dev_id,
		     seg->info.id);
	return NULL;
}

MP_EXPORT int cmmmp_segment_online_mirror(struct mp_segment *seg,
					  enum mp_seg_mode mode,
					  uint32_t mirror, unsigned long flags)
{
	struct mp_segment *m;
	uint32_t md = (uint32_t)mode;
	int rc;

	if (!seg)
		return -EINVAL;
	mp_clear_error(seg->ctx);
	if (mode != MP_SEG_MODE_DAX && mode != MP_SEG_MODE_BLK)
		return mp_set_error(seg->ctx, -EINVAL,
				    "a mirrored segment is dax or blk, not %s",
				    cmmmp_seg_mode_name(mode));
	if (flags & MP_ONLINE_SHARED)
		return mp_set_error(seg->ctx, -EINVAL,
				    "mirrored segments are for pooling mode, not sharing mode");
	if (flags)
		return mp_set_error(seg->ctx, -EINVAL, "unknown flags %#lx",
				    flags);
	if (mirror == seg->info.id)
		return mp_set_error(seg->ctx, -EINVAL,
				    "segment %u cannot be its own mirror",
				    mirror);
	if (mirror == MP_NONE) {
		m = cmmmp_segment_pick_mirror(seg, NULL, 0);
		if (!m)
			return cmmmp_get_last_error(seg->ctx);
		mirror = m->info.id;
	}
	rc = mp_segment_do_online(seg, &md, &mirror, 0);
	if (!rc)
		mp_mirror_reread(seg->ctx, mirror);
	return rc;
}

/* The answer to SEG_REPAIR, if the kernel sends one: the segment. */
static int mp_repair_answer(struct mp_ctx *ctx, struct nlattr **tb,
			    void *arg)
{
	return mp_segment_update(ctx, tb, arg);
}

MP_EXPORT int cmmmp_segment_repair(struct mp_segment *seg,
				   uint32_t replacement)
{
	struct mp_segment *got = NULL;
	struct mp_ctx *ctx;
	uint32_t id, old;
	struct mp_nl_seg_req r = { .seg_id = &id };
	int rc;

	if (!seg)
		return -EINVAL;
	ctx = seg->ctx;
	mp_clear_error(ctx);
	id = seg->info.id;
	if (replacement == id)
		return mp_set_error(ctx, -EINVAL,
				    "segment %u cannot replace its own copy",
				    id);
	if (replacement != MP_NONE)
		r.mirror = &replacement;
	old = seg->info.mirror;
	rc = mp_nl_request_seg(ctx, CMM_MP_CMD_SEG_REPAIR, &r,
			       mp_repair_answer, &got);
	if (rc)
		return rc;
	if (got && got != seg)
		return mp_set_error(ctx, -EPROTO,
				    "kernel answered for another segment");
	/* the rebuild has started: show it, and the pair as it is now */
	mp_mirror_reread(ctx, id);
	mp_mirror_reread(ctx, old);
	if (replacement != MP_NONE)
		mp_mirror_reread(ctx, replacement);
	return 0;
}
