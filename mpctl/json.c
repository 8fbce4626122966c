// SPDX-License-Identifier: GPL-2.0
/*
 * mpctl JSON: one object per device or segment, the same shape for list,
 * online, offline and monitor. Sizes and addresses are numbers, or with
 * -u the strings daxctl prints ("256.00 MiB (268.44 MB)", "0x70000000").
 * Attributes without a value (no NUMA node, no owner) are left out.
 */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "mpctl.h"

/*
 * Add @val under @key, taking ownership of @val. Any failure (including
 * a NULL @val from a failed constructor) marks the build as failed.
 */
static void add(struct json_object *obj, const char *key,
		struct json_object *val, bool *ok)
{
	if (!val) {
		*ok = false;
		return;
	}
	if (json_object_object_add(obj, key, val)) {
		json_object_put(val);
		*ok = false;
	}
}

struct json_object *mpctl_json_size(uint64_t v, unsigned int flags)
{
	char buf[MPCTL_FMT_MAX];

	if (flags & MPCTL_HUMAN)
		return json_object_new_string(mpctl_fmt_size(buf, sizeof(buf),
							     v));
	return json_object_new_uint64(v);
}

struct json_object *mpctl_json_addr(uint64_t v, unsigned int flags)
{
	char buf[MPCTL_FMT_MAX];

	if (flags & MPCTL_HUMAN)
		return json_object_new_string(mpctl_fmt_hex(buf, sizeof(buf),
							    v));
	return json_object_new_uint64(v);
}

static struct json_object *j_str(const char *s)
{
	return json_object_new_string(s);
}

static struct json_object *j_u32(uint32_t v)
{
	return json_object_new_int64(v);
}

/* Which zone the online blocks went to, from the kernel's counters. */
const char *mpctl_seg_zone(struct mp_segment *seg)
{
	uint32_t online = cmmmp_segment_get_memblock_online(seg);
	uint32_t movable = cmmmp_segment_get_memblock_movable(seg);

	if (!online)
		return NULL;
	if (movable == online)
		return "movable";
	if (!movable)
		return "normal";
	return "mixed";
}

/* A bitmap of device ids as an array of ids; NULL without memory. */
static struct json_object *mpctl_json_idset(uint32_t set)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; a && i < 32; i++) {
		if (!(set & (1U << i)))
			continue;
		if (json_object_array_add(a, json_object_new_int64(i))) {
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

/* The object, or NULL (freed) when a member could not be added. */
static struct json_object *obj_done(struct json_object *o, bool ok)
{
	if (!ok) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* Who holds a segment, the same in both formats. */
static void seg_holders(struct json_object *o, struct mp_segment *seg,
			uint32_t owner, bool *ok)
{
	if (owner == MP_GONE)
		add(o, "owner_lost", json_object_new_boolean(true), ok);
	else if (owner != MP_NONE)
		add(o, "owner", json_object_new_int64(owner), ok);
	if (cmmmp_segment_get_sharers(seg))
		add(o, "sharers", mpctl_json_idset(cmmmp_segment_get_sharers(seg)),
		    ok);
}

/*
 * A mirrored segment (both of its pair): the other copy, how the copies
 * are, and while one is rebuilt how far it got. The same in both formats.
 * A host that does not map the pair knows the other copy only (its
 * backing device records the pair): no redundancy then.
 */
static void seg_mirror(struct json_object *o, struct mp_segment *seg,
		       unsigned int flags, bool *ok)
{
	enum mp_seg_redundancy r = cmmmp_segment_get_redundancy(seg);
	const char *name = cmmmp_seg_redundancy_name(r);

	if (cmmmp_segment_get_mirror(seg) == MP_NONE)
		return;
	add(o, "mirror", json_object_new_int64(cmmmp_segment_get_mirror(seg)),
	    ok);
	if (r == MP_SEG_NOT_MIRRORED)
		return;
	add(o, "redundancy", j_str(name ? name : "unknown"), ok);
	if (r == MP_SEG_REBUILDING)
		add(o, "rebuilt",
		    mpctl_json_size(cmmmp_segment_get_rebuilt(seg), flags), ok);
}

/* Format 1, as it was: kept for scripts that pin it with --format=1. */
static struct json_object *seg_json_v1(struct mp_segment *seg,
				       unsigned int flags)
{
	struct json_object *o = json_object_new_object();
	struct mp_device *dev = cmmmp_segment_get_device(seg);
	uint32_t owner = cmmmp_segment_get_owner(seg);
	int node = cmmmp_segment_get_numa_node(seg);
	const char *zone = mpctl_seg_zone(seg);
	char name[32];
	bool ok = true;

	if (!o)
		return NULL;
	add(o, "segment", json_object_new_int64(cmmmp_segment_get_id(seg)), &ok);
	if (dev) {
		add(o, "device", json_object_new_string(cmmmp_device_get_name(dev)),
		    &ok);
	} else {
		/* Not listed (yet): name it by id rather than drop it. */
		snprintf(name, sizeof(name), "mp%u",
			 cmmmp_segment_get_device_id(seg));
		add(o, "device", json_object_new_string(name), &ok);
	}
	add(o, "state", j_str(cmmmp_seg_state_name(cmmmp_segment_get_state(seg))),
	    &ok);
	add(o, "size", mpctl_json_size(cmmmp_segment_get_size(seg), flags), &ok);
	/* a segment of another device of the pool has no address here */
	/* and none for a caller without CAP_SYS_ADMIN: the kernel hides it */
	if ((!dev || cmmmp_device_is_local(dev)) && cmmmp_segment_get_phys(seg))
		add(o, "phys", mpctl_json_addr(cmmmp_segment_get_phys(seg), flags), &ok);
	if (node >= 0)
		add(o, "numa_node", json_object_new_int(node), &ok);
	seg_holders(o, seg, owner, &ok);
	if (cmmmp_segment_get_devnode(seg)) {
		/* mapped on this host: how, and where */
		if (!(flags & MPCTL_VERBOSE))
			add(o, "mode",
			    j_str(cmmmp_seg_mode_name(cmmmp_segment_get_mode(seg))),
			    &ok);
		add(o, "devnode", j_str(cmmmp_segment_get_devnode(seg)), &ok);
		if (cmmmp_segment_is_shared(seg))
			add(o, "shared", json_object_new_boolean(true), &ok);
	}
	seg_mirror(o, seg, flags, &ok);
	if (zone)
		add(o, "zone", json_object_new_string(zone), &ok);
	if (flags & MPCTL_VERBOSE) {
		add(o, "device_id",
		    json_object_new_int64(cmmmp_segment_get_device_id(seg)), &ok);
		add(o, "nha", mpctl_json_addr(cmmmp_segment_get_nha(seg), flags), &ok);
		add(o, "mode", j_str(cmmmp_seg_mode_name(cmmmp_segment_get_mode(seg))),
		    &ok);
		add(o, "memblock_first",
		    j_u32(cmmmp_segment_get_memblock_first(seg)), &ok);
		add(o, "memblock_count",
		    j_u32(cmmmp_segment_get_memblock_count(seg)), &ok);
		add(o, "memblocks_online",
		    j_u32(cmmmp_segment_get_memblock_online(seg)), &ok);
		add(o, "memblocks_movable",
		    j_u32(cmmmp_segment_get_memblock_movable(seg)), &ok);
	}
	return obj_done(o, ok);
}

/* What both formats say of a device first, in this order. */
static void dev_head(struct json_object *o, struct mp_device *dev,
		     unsigned int flags, bool *ok)
{
	const uint8_t *mac = cmmmp_device_get_mac(dev);
	bool local = cmmmp_device_is_local(dev);
	char macs[18];

	add(o, "device", json_object_new_string(cmmmp_device_get_name(dev)), ok);
	add(o, "id", json_object_new_int64(cmmmp_device_get_id(dev)), ok);
	add(o, "chip_id", mpctl_json_addr(cmmmp_device_get_chip_id(dev), flags), ok);
	if (mac) {
		snprintf(macs, sizeof(macs), "%02x:%02x:%02x:%02x:%02x:%02x",
			 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
		add(o, "mac", json_object_new_string(macs), ok);
	}
	add(o, "state", j_str(cmmmp_dev_state_name(cmmmp_device_get_state(dev))), ok);
	add(o, "size", mpctl_json_size(cmmmp_device_get_size(dev), flags), ok);
	if (local && cmmmp_device_get_phys(dev))
		add(o, "phys", mpctl_json_addr(cmmmp_device_get_phys(dev), flags), ok);
	add(o, "segment_size", mpctl_json_size(cmmmp_device_get_seg_size(dev), flags),
	    ok);
	add(o, "nr_segments", json_object_new_int64(cmmmp_device_get_nr_segs(dev)),
	    ok);
}

/* What both formats add with -v, last. */
static void dev_verbose(struct json_object *o, struct mp_device *dev,
			unsigned int flags, bool *ok)
{
	bool local = cmmmp_device_is_local(dev);
	struct mp_segment *seg;
	uint32_t online = 0;

	add(o, "first_segment",
	    json_object_new_int64(cmmmp_device_get_first_segment(dev)), ok);
	add(o, "nha", mpctl_json_addr(cmmmp_device_get_nha(dev), flags), ok);
	add(o, "local", json_object_new_boolean(local), ok);
	add(o, "pool_state",
	    j_str(cmmmp_pool_state_name(cmmmp_device_get_pool_state(dev))), ok);
	add(o, "generation", json_object_new_int64(cmmmp_device_get_generation(dev)),
	    ok);
	if (local) {
		cmmmp_device_segment_foreach(dev, seg)
			online += cmmmp_segment_is_online(seg);
		add(o, "segments_online", json_object_new_int64(online), ok);
		add(o, "block_size",
		    mpctl_json_size(cmmmp_device_get_block_size(dev), flags), ok);
	}
}

static struct json_object *dev_json_v1(struct mp_device *dev,
				       unsigned int flags)
{
	struct json_object *o = json_object_new_object();
	int node = cmmmp_device_get_numa_node(dev);
	bool ok = true;

	if (!o)
		return NULL;
	dev_head(o, dev, flags, &ok);
	if (node >= 0)
		add(o, "numa_node", json_object_new_int(node), &ok);
	if (flags & MPCTL_VERBOSE)
		dev_verbose(o, dev, flags, &ok);
	return obj_done(o, ok);
}

/* The device name of a segment, by id when its device is not listed. */
static struct json_object *seg_dev_name(struct mp_segment *seg)
{
	struct mp_device *dev = cmmmp_segment_get_device(seg);
	char name[32];

	if (dev)
		return json_object_new_string(cmmmp_device_get_name(dev));
	snprintf(name, sizeof(name), "mp%u", cmmmp_segment_get_device_id(seg));
	return json_object_new_string(name);
}

/*
 * Format 2: daxctl's names where the meaning is the same (target_node,
 * mode, movable, online_memblocks, total_memblocks), the memory block
 * counters by default for System RAM, what the kernel's auto-online
 * policy did.
 */
static struct json_object *seg_json_v2(struct mp_segment *seg,
				       unsigned int flags)
{
	struct json_object *o = json_object_new_object();
	struct mp_device *dev = cmmmp_segment_get_device(seg);
	uint32_t owner = cmmmp_segment_get_owner(seg);
	int node = cmmmp_segment_get_numa_node(seg);
	uint32_t online = cmmmp_segment_get_memblock_online(seg);
	uint32_t movable = cmmmp_segment_get_memblock_movable(seg);
	bool ram = cmmmp_segment_get_state(seg) == MP_SEG_ONLINE_RAM &&
		   !cmmmp_segment_get_devnode(seg);
	bool local = !dev || cmmmp_device_is_local(dev);
	const char *zone = mpctl_seg_zone(seg);
	bool ok = true;

	if (!o)
		return NULL;
	add(o, "segment", json_object_new_int64(cmmmp_segment_get_id(seg)), &ok);
	add(o, "device", seg_dev_name(seg), &ok);
	add(o, "state", j_str(cmmmp_seg_state_name(cmmmp_segment_get_state(seg))),
	    &ok);
	add(o, "size", mpctl_json_size(cmmmp_segment_get_size(seg), flags), &ok);
	if (local && cmmmp_segment_get_phys(seg))
		add(o, "phys", mpctl_json_addr(cmmmp_segment_get_phys(seg), flags), &ok);
	if (node >= 0)
		add(o, "target_node", json_object_new_int(node), &ok);
	seg_holders(o, seg, owner, &ok);
	/* how it is used on this host: always with -v */
	if (ram || cmmmp_segment_get_devnode(seg) || (flags & MPCTL_VERBOSE))
		add(o, "mode", j_str(cmmmp_seg_mode_name(cmmmp_segment_get_mode(seg))),
		    &ok);
	if (cmmmp_segment_get_devnode(seg)) {
		add(o, "devnode", j_str(cmmmp_segment_get_devnode(seg)), &ok);
		if (cmmmp_segment_is_shared(seg))
			add(o, "shared", json_object_new_boolean(true), &ok);
	}
	seg_mirror(o, seg, flags, &ok);
	if (ram) {
		if (zone)
			add(o, "zone", j_str(zone), &ok);
		add(o, "movable",
		    json_object_new_boolean(online && movable == online), &ok);
		add(o, "online_memblocks", j_u32(online), &ok);
		add(o, "total_memblocks",
		    j_u32(cmmmp_segment_get_memblock_count(seg)), &ok);
		if (cmmmp_segment_get_memmap_on_memory(seg))
			add(o, "memmap_on_memory",
			    json_object_new_boolean(true), &ok);
	}
	if (cmmmp_segment_get_auto_onlined(seg)) {
		/* online's answer: what the kernel's auto-online did first */
		const char *az = cmmmp_zone_name(cmmmp_segment_get_auto_zone(seg));

		add(o, "auto_onlined_memblocks",
		    j_u32(cmmmp_segment_get_auto_onlined(seg)), &ok);
		add(o, "auto_online_zone", j_str(az ? az : "unknown"), &ok);
		add(o, "reonlined_memblocks",
		    j_u32(cmmmp_segment_get_reonlined(seg)), &ok);
	}
	if (flags & MPCTL_VERBOSE) {
		add(o, "device_id",
		    json_object_new_int64(cmmmp_segment_get_device_id(seg)), &ok);
		add(o, "nha", mpctl_json_addr(cmmmp_segment_get_nha(seg), flags), &ok);
		if (local) {
			add(o, "memblock_first",
			    j_u32(cmmmp_segment_get_memblock_first(seg)), &ok);
			add(o, "movable_memblocks", j_u32(movable), &ok);
			if (!ram) {
				add(o, "online_memblocks", j_u32(online), &ok);
				add(o, "total_memblocks",
				    j_u32(cmmmp_segment_get_memblock_count(seg)),
				    &ok);
			}
		}
	}
	return obj_done(o, ok);
}

/* The tier of the first node with CPUs: where DRAM is. */
static int dram_tier(struct mp_ctx *ctx)
{
	const char *root = getenv("MP_SYSFS_ROOT");
	char path[4096];
	int node = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/devices/system/node/has_cpu",
		 root && root[0] ? root : "/sys");
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &node) != 1)
		node = -1;
	fclose(f);
	return node < 0 ? -1 : cmmmp_get_node_memory_tier(ctx, node);
}

/*
 * The memory tiers: the device's node and DRAM's, each with its abstract
 * distance (what the kernel demotes along). Left out where unknown.
 */
static void dev_tiers(struct json_object *o, struct mp_device *dev,
		      bool *ok)
{
	struct mp_ctx *ctx = cmmmp_device_get_ctx(dev);
	int node = cmmmp_device_get_numa_node(dev);
	int adist = cmmmp_device_get_abstract_distance(dev);
	int dadist = cmmmp_device_get_dram_abstract_distance(dev);
	int tier = node >= 0 ? cmmmp_get_node_memory_tier(ctx, node) : -1;
	int dtier = dram_tier(ctx);

	if (tier >= 0)
		add(o, "memory_tier", json_object_new_int(tier), ok);
	if (adist >= 0)
		add(o, "abstract_distance", json_object_new_int(adist), ok);
	if (dtier >= 0)
		add(o, "dram_memory_tier", json_object_new_int(dtier), ok);
	if (dadist >= 0)
		add(o, "dram_abstract_distance", json_object_new_int(dadist),
		    ok);
}

/*
 * The bytes of the range the device was given: a dax device bound to the
 * cmm_mp dax driver is trimmed to whole memory blocks and segments
 * (Documentation/cxl.rst); a memmap= range or CXL region that is not
 * aligned is refused at load, so there the device uses all of it.
 */
static uint64_t dev_range_size(uint64_t size)
{
	const char *root = getenv("MP_SYSFS_ROOT");
	char pat[4096];
	unsigned long long v;
	uint64_t range = size;
	glob_t g;
	FILE *f;

	snprintf(pat, sizeof(pat), "%s/bus/dax/drivers/cmm_mp/dax*/size",
		 root && root[0] ? root : "/sys");
	if (glob(pat, 0, NULL, &g))
		return size;
	f = g.gl_pathc == 1 ? fopen(g.gl_pathv[0], "r") : NULL;
	if (f) {
		if (fscanf(f, "%llu", &v) == 1 && v >= size)
			range = v;
		fclose(f);
	}
	globfree(&g);
	return range;
}

static struct json_object *dev_json_v2(struct mp_device *dev,
				       unsigned int flags)
{
	struct json_object *o = json_object_new_object();
	int node = cmmmp_device_get_numa_node(dev);
	char policy[32];
	bool ok = true;

	if (!o)
		return NULL;
	dev_head(o, dev, flags, &ok);
	if (node >= 0)
		add(o, "target_node", json_object_new_int(node), &ok);
	if (cmmmp_device_is_local(dev)) {
		uint64_t range = dev_range_size(cmmmp_device_get_size(dev));

		add(o, "range_size", mpctl_json_size(range, flags), &ok);
		add(o, "unusable_size",
		    mpctl_json_size(range - cmmmp_device_get_size(dev), flags), &ok);
		dev_tiers(o, dev, &ok);
		if (!cmmmp_get_auto_online_policy(cmmmp_device_get_ctx(dev), policy,
						  sizeof(policy)))
			add(o, "auto_online", j_str(policy), &ok);
	}
	if (flags & MPCTL_VERBOSE)
		dev_verbose(o, dev, flags, &ok);
	return obj_done(o, ok);
}

/**
 * mpctl_seg_json() - a segment as a JSON object, in mpctl_format
 * @seg: the segment
 * @flags: MPCTL_HUMAN, MPCTL_VERBOSE
 *
 * Return: a new object, or NULL without memory.
 */
struct json_object *mpctl_seg_json(struct mp_segment *seg, unsigned int flags)
{
	return mpctl_format == 1 ? seg_json_v1(seg, flags) :
				   seg_json_v2(seg, flags);
}

/**
 * mpctl_dev_json() - a device as a JSON object, in mpctl_format
 * @dev: the device
 * @flags: MPCTL_HUMAN, MPCTL_VERBOSE
 *
 * Return: a new object, or NULL without memory.
 */
struct json_object *mpctl_dev_json(struct mp_device *dev, unsigned int flags)
{
	return mpctl_format == 1 ? dev_json_v1(dev, flags) :
				   dev_json_v2(dev, flags);
}

/**
 * mpctl_print_json() - print and release a JSON value
 * @obj: the value (consumed)
 * @pretty: indented like daxctl, or all on one line (monitor)
 *
 * Return: 0, or -ENOMEM when json-c could not render it.
 */
int mpctl_print_json(struct json_object *obj, bool pretty)
{
	int jflags = JSON_C_TO_STRING_NOSLASHESCAPE |
		     (pretty ? JSON_C_TO_STRING_PRETTY : JSON_C_TO_STRING_PLAIN);
	const char *s = json_object_to_json_string_ext(obj, jflags);
	int rc = 0;

	if (s)
		printf("%s\n", s);
	else
		rc = -ENOMEM;
	json_object_put(obj);
	return rc;
}

/**
 * mpctl_print_json_elem() - print and release one element of an array
 * @obj: the element (consumed)
 * @first: it opens the array
 *
 * An array of thousands of elements goes out as it is made, byte for byte
 * as mpctl_print_json() prints the whole (json-c's pretty layout: each
 * element indented one level); mpctl_print_json_end() closes it. Strings
 * hold no raw newline in JSON, so every newline is a line of the layout.
 *
 * Return: 0, -ENOMEM when json-c could not render it, -EIO when stdout
 * fails (a closed pipe: the reader is gone, stop making more).
 */
int mpctl_print_json_elem(struct json_object *obj, bool first)
{
	int jflags = JSON_C_TO_STRING_NOSLASHESCAPE | JSON_C_TO_STRING_PRETTY;
	const char *s = json_object_to_json_string_ext(obj, jflags);
	int rc = 0;

	if (!s) {
		json_object_put(obj);
		return -ENOMEM;
	}
	fputs(first ? "[\n  " : ",\n  ", stdout);
	for (; *s; s++) {
		putchar(*s);
		if (*s == '\n')
			fputs("  ", stdout);
	}
	if (ferror(stdout))
		rc = -EIO;
	json_object_put(obj);
	return rc;
}

/**
 * mpctl_print_json_end() - close what mpctl_print_json_elem() opened
 * @empty: no element was printed
 *
 * Return: 0, or -EIO when stdout fails.
 */
int mpctl_print_json_end(bool empty)
{
	fputs(empty ? "[\n]\n" : "\n]\n", stdout);
	return fflush(stdout) || ferror(stdout) ? -EIO : 0;
}
