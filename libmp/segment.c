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
#include "util/cmm_mp_attrs.h"
#include "mp_names.h"

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
	info->mirror = CMM_MP_NONE;

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
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_SEG_MEMMAP_ON_MEMORY,
					   &info->memmap_on_memory));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_SEG_MIRROR,
					   &info->mirror));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_SEG_REDUNDANCY,
					   &info->redundancy));
	if (!rc) {
		rc = mp_nla_u64(tb, CMM_MP_A_SEG_REBUILT, &info->rebuilt);
		info->has_rebuilt = !rc;
		rc = mp_nla_opt(rc);
	}
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
	size_t i;

	if (!tb) {
		/* the dump starts again: only what it lists then is present */
		for (i = 0; i < ctx->segs.nr; i++)
			((struct mp_segment *)ctx->segs.v[i])->seen = false;
		return 0;
	}
	if (mp_seg_info_parse(tb, &info))
		return mp_set_error(ctx, -EPROTO, "malformed segment message");
	seg = mp_segment_upsert(ctx, &info);
	if (!seg)
		return -ENOMEM;
	if (out)
		*out = seg;
	return 0;
}

/* cmmmp_segment_dump(): the caller's function, and where the dump is */
struct mp_seg_stream {
	cmmmp_segment_fn fn;
	void *arg;
	bool started;
	uint32_t last;		/* id of the last segment handed to @fn */
};

/* mp_nl_parse_fn of a dump: one segment, handed on and forgotten */
static int mp_segment_stream(struct mp_ctx *ctx, struct nlattr **tb,
			     void *arg)
{
	struct mp_seg_stream *st = arg;
	struct mp_segment seg = { .ctx = ctx, .present = true, .seen = true };

	/*
	 * The pool map changed under the dump (a device came or went): ids
	 * were renumbered. Before anything was handed on, the dump may start
	 * again; after, what the caller has is of the old map and no second
	 * dump can complete it: say so rather than hand on a list that is
	 * cut short, or of two maps.
	 */
	if (!tb && !st->started)
		return 0;
	if (!tb)
		return mp_set_error(ctx, -EAGAIN,
				    "the pool changed during the list, after segment %u (NLM_F_DUMP_INTR): what came before is of the previous pool map; run it again",
				    st->last);
	if (mp_seg_info_parse(tb, &seg.info))
		return mp_set_error(ctx, -EPROTO, "malformed segment message");
	st->started = true;
	st->last = seg.info.id;
	return st->fn(&seg, st->arg);
}

MP_EXPORT int cmmmp_segment_dump(struct mp_ctx *ctx, cmmmp_segment_fn fn,
				 void *arg)
{
	struct mp_seg_stream st = { .fn = fn, .arg = arg };
	int rc;

	if (!ctx || !fn)
		return -EINVAL;
	rc = mp_load_devices(ctx);
	if (rc)
		return rc;
	mp_clear_error(ctx);
	return mp_nl_request(ctx, CMM_MP_CMD_SEG_GET, true, NULL, NULL,
			     mp_segment_stream, &st);
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

MP_EXPORT struct mp_segment *cmmmp_segment_get_first(struct mp_ctx *ctx)
{
	if (!ctx || mp_load(ctx))
		return NULL;
	return mp_segment_from(ctx, 0, CMM_MP_NONE);
}

MP_EXPORT struct mp_segment *cmmmp_segment_get_next(struct mp_segment *seg)
{
	return seg ? mp_segment_after(seg, CMM_MP_NONE) : NULL;
}

MP_EXPORT struct mp_segment *cmmmp_device_segment_get_first(struct mp_device *dev)
{
	if (!dev || mp_load(dev->ctx))
		return NULL;
	return mp_segment_from(dev->ctx, 0, dev->id);
}

MP_EXPORT struct mp_segment *cmmmp_device_segment_get_next(struct mp_segment *seg)
{
	if (!seg || seg->info.dev_id == CMM_MP_NONE)
		return NULL;
	return mp_segment_after(seg, seg->info.dev_id);
}

MP_EXPORT struct mp_segment *cmmmp_segment_get_by_id(struct mp_ctx *ctx,
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

MP_EXPORT struct mp_ctx *cmmmp_segment_get_ctx(struct mp_segment *seg)
{
	return seg->ctx;
}

MP_EXPORT uint32_t cmmmp_segment_get_id(struct mp_segment *seg)
{
	return seg->info.id;
}

MP_EXPORT struct mp_device *cmmmp_segment_get_device(struct mp_segment *seg)
{
	if (seg->info.dev_id == CMM_MP_NONE)
		return NULL;
	return cmmmp_device_get_by_id(seg->ctx, seg->info.dev_id);
}

MP_EXPORT uint32_t cmmmp_segment_get_device_id(struct mp_segment *seg)
{
	return seg->info.dev_id;
}

MP_EXPORT uint64_t cmmmp_segment_get_nha(struct mp_segment *seg)
{
	return seg->info.nha;
}

MP_EXPORT uint64_t cmmmp_segment_get_phys(struct mp_segment *seg)
{
	return seg->info.phys;
}

MP_EXPORT uint64_t cmmmp_segment_get_size(struct mp_segment *seg)
{
	return seg->info.size;
}

MP_EXPORT enum mp_seg_state cmmmp_segment_get_state(struct mp_segment *seg)
{
	return (enum mp_seg_state)seg->info.state;
}

MP_EXPORT enum mp_seg_mode cmmmp_segment_get_mode(struct mp_segment *seg)
{
	return (enum mp_seg_mode)seg->info.mode;
}

MP_EXPORT uint32_t cmmmp_segment_get_owner(struct mp_segment *seg)
{
	return seg->info.owner;
}

MP_EXPORT int cmmmp_segment_get_numa_node(struct mp_segment *seg)
{
	return seg->info.node == CMM_MP_NONE ? -1 : (int)seg->info.node;
}

MP_EXPORT uint32_t cmmmp_segment_get_memblock_first(struct mp_segment *seg)
{
	return seg->info.memblk_first;
}

MP_EXPORT uint32_t cmmmp_segment_get_memblock_count(struct mp_segment *seg)
{
	return seg->info.memblk_count;
}

MP_EXPORT uint32_t cmmmp_segment_get_memblock_online(struct mp_segment *seg)
{
	return seg->info.memblk_online;
}

MP_EXPORT uint32_t cmmmp_segment_get_memblock_movable(struct mp_segment *seg)
{
	return seg->info.memblk_movable;
}

MP_EXPORT bool cmmmp_segment_is_online(struct mp_segment *seg)
{
	return seg->info.state == CMM_MP_SEG_ONLINE_RAM;
}

/* libmp's public enums are the kernel's numbers (names: mp_names.c). */
#define MP_SAME(a, b)	((int)(a) == (int)(b))
_Static_assert(MP_SAME(MP_SEG_OFFLINE, CMM_MP_SEG_OFFLINE) &&
	       MP_SAME(MP_SEG_ONLINE_RAM, CMM_MP_SEG_ONLINE_RAM) &&
	       MP_SAME(MP_SEG_BUSY, CMM_MP_SEG_BUSY) &&
	       MP_SAME(MP_SEG_FAILED, CMM_MP_SEG_FAILED) &&
	       MP_SAME(MP_SEG_OWNED, CMM_MP_SEG_OWNED) &&
	       MP_SAME(MP_SEG_SHARED, CMM_MP_SEG_SHARED),
	       "enum mp_seg_state is not the kernel's");
_Static_assert(MP_SAME(MP_SEG_MODE_RAM, CMM_MP_SEG_MODE_RAM) &&
	       MP_SAME(MP_SEG_MODE_DAX, CMM_MP_SEG_MODE_DAX) &&
	       MP_SAME(MP_SEG_MODE_BLK, CMM_MP_SEG_MODE_BLK),
	       "enum mp_seg_mode is not the kernel's");

/* The kernel's own names (kernel/common/mp_names.c, compiled in). */
MP_EXPORT const char *cmmmp_seg_state_name(enum mp_seg_state state)
{
	return cmm_mp_seg_state_name(state);
}

MP_EXPORT const char *cmmmp_seg_mode_name(enum mp_seg_mode mode)
{
	return cmm_mp_seg_mode_name(mode);
}

/**
 * mp_segment_cmd_mirror() - a per-segment command answered with its message
 * @seg: segment
 * @cmd: CMM_MP_CMD_*
 * @mode: as mp_nl_request()'s, or NULL
 * @mirror: CMM_MP_A_SEG_MIRROR to send, or NULL
 *
 * Return: 0, or a negative errno (recorded in the context).
 */
int mp_segment_cmd_mirror(struct mp_segment *seg, uint8_t cmd,
			  const uint32_t *mode, const uint32_t *mirror)
{
	struct mp_segment *got = NULL;
	uint32_t id = seg->info.id;
	const struct mp_nl_seg_req r = {
		.seg_id = &id, .mode = mode, .mirror = mirror,
	};
	int rc;

	rc = mp_nl_request_seg(seg->ctx, cmd, &r, mp_segment_update, &got);
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

static int mp_segment_cmd(struct mp_segment *seg, uint8_t cmd,
			  const uint32_t *mode)
{
	return mp_segment_cmd_mirror(seg, cmd, mode, NULL);
}

MP_EXPORT int cmmmp_segment_refresh(struct mp_segment *seg)
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

MP_EXPORT bool cmmmp_segment_is_shared(struct mp_segment *seg)
{
	return seg->info.shared != 0;
}

MP_EXPORT uint32_t cmmmp_segment_get_sharers(struct mp_segment *seg)
{
	return seg->info.sharers;
}

MP_EXPORT const char *cmmmp_segment_get_devnode(struct mp_segment *seg)
{
	return seg->info.devnode[0] ? seg->info.devnode : NULL;
}

MP_EXPORT bool cmmmp_segment_get_memmap_on_memory(struct mp_segment *seg)
{
	return seg->info.memmap_on_memory != 0;
}

/**
 * mp_segment_do_online() - online @seg, with its memory blocks if RAM
 * @seg: segment
 * @mode: as mp_nl_request()'s; NULL lets the kernel choose (System RAM
 *	for a segment of the local device, dax for another device's)
 * @mirror: the segment to hold its second copy (CMM_MP_A_SEG_MIRROR), or
 *	NULL
 * @flags: MP_ONLINE_*
 *
 * Return: 0 or a negative errno (recorded in the context).
 */
int mp_segment_do_online(struct mp_segment *seg, const uint32_t *mode,
			 const uint32_t *mirror, unsigned long flags)
{
	struct mp_ctx *ctx = seg->ctx;
	struct mp_online_report r;
	uint32_t failed = 0;
	bool movable;
	int rc;

	movable = !(flags & MP_ONLINE_NO_MOVABLE);
	seg->auto_onlined = 0;
	seg->reonlined = 0;
	seg->auto_zone = MP_ZONE_UNKNOWN;
	rc = mp_segment_cmd_mirror(seg, CMM_MP_CMD_SEG_ONLINE, mode, mirror);
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

	/*
	 * The kernel's auto-online policy may have onlined the blocks
	 * during the hot-add, in a zone of its choosing: each block ends in
	 * the zone asked for (or, with MP_ONLINE_KEEP_ZONE, stays where it
	 * is), or the whole segment goes back offline.
	 */
	rc = mp_memblock_online_range(seg->info.memblk_first,
				      seg->info.memblk_count, movable,
				      flags & MP_ONLINE_KEEP_ZONE, &r,
				      &failed);
	seg->auto_onlined = r.auto_onlined;
	seg->reonlined = r.reonlined;
	seg->auto_zone = r.auto_zone;
	if (rc) {
		mp_set_error(ctx, rc, "memory block %u refused %s%s", failed,
			     movable ? "online_movable" : "online_kernel",
			     r.auto_onlined ?
			     " (after the kernel's auto-online)" : "");
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

MP_EXPORT int cmmmp_segment_online(struct mp_segment *seg, unsigned long flags)
{
	if (!seg)
		return -EINVAL;
	mp_clear_error(seg->ctx);
	if (flags & ~(MP_ONLINE_NO_MOVABLE | MP_ONLINE_KEEP_ZONE |
		      MP_ONLINE_MEMMAP_ON_MEMORY))
		return mp_set_error(seg->ctx, -EINVAL, "unknown flags %#lx",
				    flags);
	if (flags & MP_ONLINE_MEMMAP_ON_MEMORY) {
		uint32_t m = MP_NL_MODE_AUTO | MP_NL_MODE_MEMMAP;

		return mp_segment_do_online(seg, &m, NULL, flags);
	}
	return mp_segment_do_online(seg, NULL, NULL, flags);
}

MP_EXPORT int cmmmp_segment_online_as(struct mp_segment *seg,
				      enum mp_seg_mode mode, unsigned long flags)
{
	uint32_t m = (uint32_t)mode;

	if (!seg)
		return -EINVAL;
	mp_clear_error(seg->ctx);
	if (flags & ~(MP_ONLINE_NO_MOVABLE | MP_ONLINE_SHARED |
		      MP_ONLINE_KEEP_ZONE | MP_ONLINE_MEMMAP_ON_MEMORY))
		return mp_set_error(seg->ctx, -EINVAL, "unknown flags %#lx",
				    flags);
	if (mode != MP_SEG_MODE_RAM && mode != MP_SEG_MODE_DAX &&
	    mode != MP_SEG_MODE_BLK)
		return mp_set_error(seg->ctx, -EINVAL, "unknown mode %u",
				    (unsigned int)mode);
	if (mode == MP_SEG_MODE_RAM && (flags & MP_ONLINE_SHARED))
		return mp_set_error(seg->ctx, -EINVAL,
				    "sharing mode needs dax or blk, not System RAM");
	if (mode != MP_SEG_MODE_RAM &&
	    (flags & (MP_ONLINE_NO_MOVABLE | MP_ONLINE_KEEP_ZONE |
		      MP_ONLINE_MEMMAP_ON_MEMORY)))
		return mp_set_error(seg->ctx, -EINVAL,
				    "no-movable, keep-zone and memmap-on-memory are for System RAM only");
	if (flags & MP_ONLINE_SHARED)
		m |= MP_NL_MODE_SHARED;
	if (flags & MP_ONLINE_MEMMAP_ON_MEMORY)
		m |= MP_NL_MODE_MEMMAP;
	return mp_segment_do_online(seg, &m, NULL, flags);
}

/* Online block @nr again in @zone, after the probe below offlined it. */
static int mp_memblock_restore(uint32_t nr, enum mp_zone zone)
{
	struct mp_online_report r;

	return mp_memblock_online(nr, zone != MP_ZONE_KERNEL, false, &r);
}

/* System RAM of this host: memory blocks an offline may leave behind. */
static bool mp_segment_in_ram(const struct mp_segment *seg)
{
	return seg->info.state == CMM_MP_SEG_ONLINE_RAM &&
	       seg->info.mode == CMM_MP_SEG_MODE_RAM && !seg->info.devnode[0];
}

/*
 * The zone of each online block of a System RAM segment, before an
 * offline (0: offline then): what an offline that fails half-way puts
 * back. NULL for other segments, or without memory (then nothing is put
 * back, as before).
 */
static uint8_t *mp_segment_zones(struct mp_segment *seg)
{
	uint32_t first = seg->info.memblk_first, n = seg->info.memblk_count;
	uint8_t *zones;
	uint32_t i;

	if (!mp_segment_in_ram(seg) || !n || first + n - 1 < first)
		return NULL;
	zones = calloc(n, sizeof(*zones));
	if (!zones)
		return NULL;
	for (i = 0; i < n; i++) {
		enum mp_zone z;

		if (!mp_memblock_is_online(first + i))
			continue;
		z = mp_memblock_get_zone(first + i);
		zones[i] = (uint8_t)(z ? z : MP_ZONE_MOVABLE);
	}
	return zones;
}

/*
 * The kernel refused to offline the segment (-EBUSY): find which memory
 * block holds on, the way daxctl does, by offlining the blocks one by
 * one through sysfs. If every block goes, the kernel is asked again (it
 * then only removes them). Otherwise every block that was online before
 * the offline (@zones) is onlined again in its zone: those offlined here,
 * and those the kernel removed and added back offline (a segment with its
 * memmap on itself goes block by block), and the error names the block,
 * its zone and why.
 */
static int mp_segment_offline_blocks(struct mp_segment *seg, int err,
				     const uint8_t *zones)
{
	uint32_t first = seg->info.memblk_first, n = seg->info.memblk_count;
	struct mp_ctx *ctx = seg->ctx;
	uint32_t i, bad = 0, nr_bad = 0;
	enum mp_zone bad_zone = MP_ZONE_UNKNOWN;
	int rc = 0;

	if (!zones)
		return err;
	for (i = 0; i < n; i++) {
		enum mp_zone z;

		if (!mp_memblock_is_online(first + i))
			continue;
		z = mp_memblock_get_zone(first + i);
		rc = mp_memblock_offline(first + i);
		if (rc) {
			if (!nr_bad++) {
				bad = first + i;
				bad_zone = z;
				err = rc;
			}
			continue;	/* name every block that holds on */
		}
	}
	if (!nr_bad) {
		rc = mp_segment_cmd(seg, CMM_MP_CMD_SEG_OFFLINE, NULL);
		if (!rc)
			return 0;
		err = rc;
	}
	for (i = 0; i < n; i++)
		if (zones[i] && mp_memblock_restore(first + i, zones[i]))
			nr_bad = nr_bad ? nr_bad : 1;	/* reported below */
	if (!nr_bad)
		return err;	/* the kernel's own message stands */
	mp_set_error(ctx, err,
		     "offline refused: memory block %u%s (%s) cannot go offline: %s%s; segment left online",
		     bad, nr_bad > 1 ? " and others" : "",
		     bad_zone == MP_ZONE_KERNEL ? "ZONE_NORMAL" :
		     bad_zone == MP_ZONE_MOVABLE ? "ZONE_MOVABLE" : "zone unknown",
		     bad_zone == MP_ZONE_KERNEL ?
		     "unmovable kernel allocations (page tables, slab) in the kernel zone" :
		     "pages that cannot migrate (pinned, or no free memory elsewhere)",
		     err == -EBUSY ? "" : " (interrupted or timed out)");
	mp_set_error_origin(ctx, MP_ERR_MEMBLOCK);
	return err;
}

MP_EXPORT int cmmmp_segment_offline(struct mp_segment *seg)
{
	uint32_t mirror;
	uint8_t *zones;
	int rc;

	if (!seg)
		return -EINVAL;
	mp_clear_error(seg->ctx);
	mirror = seg->info.mirror;
	zones = mp_segment_zones(seg);
	rc = mp_segment_cmd(seg, CMM_MP_CMD_SEG_OFFLINE, NULL);
	/* an error answer leaves seg->info as it was: @zones still fit it */
	if (rc == -EBUSY && mp_segment_in_ram(seg))
		rc = mp_segment_offline_blocks(seg, rc, zones);
	free(zones);
	if (!rc)
		mp_mirror_offlined(seg->ctx, mirror);
	return rc;
}

MP_EXPORT uint32_t cmmmp_segment_get_auto_onlined(struct mp_segment *seg)
{
	return seg ? seg->auto_onlined : 0;
}

MP_EXPORT enum mp_zone cmmmp_segment_get_auto_zone(struct mp_segment *seg)
{
	return seg ? (enum mp_zone)seg->auto_zone : MP_ZONE_UNKNOWN;
}

MP_EXPORT uint32_t cmmmp_segment_get_reonlined(struct mp_segment *seg)
{
	return seg ? seg->reonlined : 0;
}

MP_EXPORT const char *cmmmp_zone_name(enum mp_zone zone)
{
	switch (zone) {
	case MP_ZONE_MOVABLE:	return "movable";
	case MP_ZONE_KERNEL:	return "normal";
	case MP_ZONE_MIXED:	return "mixed";
	default:		return NULL;
	}
}

MP_EXPORT int cmmmp_get_auto_online_policy(struct mp_ctx *ctx, char *buf,
					   size_t len)
{
	int rc;

	if (!ctx || !buf)
		return -EINVAL;
	rc = mp_auto_online_policy(buf, len);
	if (rc)
		return mp_set_error(ctx, rc, "cannot read %s/%s", mp_sysfs_root(),
				    "devices/system/memory/auto_online_blocks");
	return 0;
}
