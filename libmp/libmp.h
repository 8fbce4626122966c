/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libmp: control library for the cmm_mp memory pool device.
 *
 * The model follows libdaxctl: an opaque, reference-counted context
 * (struct mp_ctx) owns every object it hands out; devices and segments are
 * walked with get_first/get_next iterators and read with getters. Objects
 * stay valid, at the same address, until the context is freed: a refresh
 * updates them in place, and objects the kernel stopped listing are only
 * hidden from iterators and lookups.
 *
 * Every call that can fail returns 0 or a negative errno value; iterators
 * and lookups return NULL and leave the reason in the context
 * (cmmmp_get_last_error(), cmmmp_get_last_error_msg()). The library is not
 * thread safe: use one context per thread.
 *
 * Functions are named cmmmp_ (since LIBMP_1.6; the mp_ names of before are
 * kept for one release, at the end of this file); the types and constants
 * keep mp_ and MP_, which no symbol of the library carries.
 *
 * This header does not need the kernel UAPI header: the enums below carry
 * the values of include/uapi/linux/cmm_mp.h (checked when libmp is built).
 * See Documentation/libmp.rst.
 */
#ifndef _LIBMP_H
#define _LIBMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "No owner" (cmmmp_segment_get_owner()); also "no node" in the ABI. */
#define MP_NONE			0xffffffffU
/* cmmmp_segment_get_owner(): held by a device not in the pool now */
#define MP_GONE			0xfffffffeU

/**
 * enum mp_seg_state - state of a segment, as the kernel reports it
 * @MP_SEG_OFFLINE: not mapped anywhere: the default
 * @MP_SEG_ONLINE_RAM: hot-added as System RAM on this host
 * @MP_SEG_BUSY: a state change is in progress
 * @MP_SEG_FAILED: its backing device is lost; accesses fail
 * @MP_SEG_OWNED: allocated to one host (cmmmp_segment_get_owner()), not as
 *	System RAM (a remote segment onlined by its owner)
 * @MP_SEG_SHARED: held by several hosts in sharing mode
 *	(cmmmp_segment_get_sharers()); since LIBMP_1.3
 */
enum mp_seg_state {
	MP_SEG_OFFLINE = 0,
	MP_SEG_ONLINE_RAM = 1,
	MP_SEG_BUSY = 2,
	MP_SEG_FAILED = 3,
	MP_SEG_OWNED = 4,
	MP_SEG_SHARED = 5,
};

/**
 * enum mp_dev_state - a pool member as every device sees it
 * @MP_DEV_UP: member of the current generation
 * @MP_DEV_LOST: known, but silent; its segments failed
 */
enum mp_dev_state {
	MP_DEV_UP = 0,
	MP_DEV_LOST = 1,
};

/**
 * enum mp_pool_state - where discovery stands (Documentation/pool.rst)
 * @MP_POOL_LOCAL: no discovery: the local device alone
 * @MP_POOL_DISCOVERY: a discovery round is running
 * @MP_POOL_RUNTIME: the pool is formed
 * @MP_POOL_CONFLICT: duplicate chip ids: no pool
 */
enum mp_pool_state {
	MP_POOL_LOCAL = 0,
	MP_POOL_DISCOVERY = 1,
	MP_POOL_RUNTIME = 2,
	MP_POOL_CONFLICT = 3,
};

/**
 * enum mp_seg_mode - how a segment is, or is to be, used
 * @MP_SEG_MODE_RAM: System RAM through memory hotplug
 * @MP_SEG_MODE_DAX: character device /dev/mps<id> (read/write/mmap);
 *	since LIBMP_1.3
 * @MP_SEG_MODE_BLK: block device /dev/mpb<id>; since LIBMP_1.3
 */
enum mp_seg_mode {
	MP_SEG_MODE_RAM = 0,
	MP_SEG_MODE_DAX = 1,
	MP_SEG_MODE_BLK = 2,
};

/**
 * enum mp_seg_redundancy - the copies of a mirrored segment (LIBMP_1.8)
 * @MP_SEG_NOT_MIRRORED: not a mirrored segment: one copy, or not mapped
 * @MP_SEG_MIRRORED: both copies hold the data
 * @MP_SEG_DEGRADED: one copy is lost (its device failed or refused an
 *	access); I/O goes on with the other one
 * @MP_SEG_REBUILDING: the lost copy is being rebuilt from the other one
 *	(cmmmp_segment_get_rebuilt() tells how far)
 */
enum mp_seg_redundancy {
	MP_SEG_NOT_MIRRORED = 0,
	MP_SEG_MIRRORED = 1,
	MP_SEG_DEGRADED = 2,
	MP_SEG_REBUILDING = 3,
};

/**
 * enum mp_err_origin - where the last error came from
 * @MP_ERR_LOCAL: libmp, libnl or a system call on this side (including
 *	"the cmm_mp module is not loaded", -ENODEV)
 * @MP_ERR_KERNEL: the cmm_mp module answered the request with the error
 * @MP_ERR_MEMBLOCK: a memory block refused to come online (sysfs write)
 */
enum mp_err_origin {
	MP_ERR_LOCAL = 0,
	MP_ERR_KERNEL = 1,
	MP_ERR_MEMBLOCK = 2,
};

/* cmmmp_segment_online() flag: online to the kernel zone, not ZONE_MOVABLE. */
#define MP_ONLINE_NO_MOVABLE	0x1UL
/* cmmmp_segment_online_as() flag: sharing mode (dax, blk); LIBMP_1.3. */
#define MP_ONLINE_SHARED	0x2UL
/*
 * cmmmp_segment_online() flag, LIBMP_1.4: blocks the kernel onlined itself
 * (its auto-online policy) keep the zone it gave them, instead of being
 * onlined again in the zone asked for.
 */
#define MP_ONLINE_KEEP_ZONE	0x4UL
/*
 * cmmmp_segment_online() flag, LIBMP_1.7 (System RAM only): the memmap
 * (struct pages) of the segment is taken from the segment itself, not
 * from the memory of other nodes, as daxctl's --memmap-on-memory. The
 * kernel must be booted with memory_hotplug.memmap_on_memory=1; otherwise
 * the online fails (-EOPNOTSUPP, the kernel's message says why) and
 * nothing changes. A segment of several memory blocks is hot-added one
 * block at a time, each block's memmap on itself (Linux 6.1 allows it
 * only per block).
 */
#define MP_ONLINE_MEMMAP_ON_MEMORY	0x8UL

/**
 * enum mp_zone - the zone memory blocks are in (LIBMP_1.4)
 * @MP_ZONE_UNKNOWN: none (not online), or it cannot be read
 * @MP_ZONE_MOVABLE: ZONE_MOVABLE
 * @MP_ZONE_KERNEL: a kernel zone (ZONE_NORMAL)
 * @MP_ZONE_MIXED: some blocks in each
 */
enum mp_zone {
	MP_ZONE_UNKNOWN = 0,
	MP_ZONE_MOVABLE = 1,
	MP_ZONE_KERNEL = 2,
	MP_ZONE_MIXED = 3,
};

struct mp_ctx;
struct mp_device;
struct mp_segment;
struct mp_monitor;
struct mp_peer;

/* ---- context ---------------------------------------------------------- */

/**
 * cmmmp_new() - create a library context
 * @ctx: receives the context, with one reference
 *
 * Does not talk to the kernel: the first iterator, lookup or cmmmp_refresh()
 * opens the generic netlink socket and reads the pool.
 *
 * Return: 0, -EINVAL (@ctx NULL) or -ENOMEM.
 */
int cmmmp_new(struct mp_ctx **ctx);

/**
 * cmmmp_ref() - take a reference on a context
 * @ctx: context (NULL is allowed)
 *
 * Return: @ctx.
 */
struct mp_ctx *cmmmp_ref(struct mp_ctx *ctx);

/**
 * cmmmp_unref() - drop a reference; the last one frees the context
 * @ctx: context (NULL is allowed)
 *
 * Freeing the context frees every device and segment object it handed out
 * and closes its socket.
 */
void cmmmp_unref(struct mp_ctx *ctx);

/**
 * cmmmp_refresh() - re-read every device and segment from the kernel
 * @ctx: context
 *
 * Objects are updated in place; new ones are added. Only when both dumps
 * succeed are objects the kernel no longer lists hidden.
 *
 * Return: 0, -ENODEV when the cmm_mp module is not loaded (its generic
 * netlink family does not exist), or another negative errno.
 */
int cmmmp_refresh(struct mp_ctx *ctx);

/**
 * cmmmp_get_last_error() - errno of the last failed call on this context
 * @ctx: context
 *
 * Cleared (0) by each call that talks to the kernel.
 *
 * Return: a negative errno, or 0.
 */
int cmmmp_get_last_error(struct mp_ctx *ctx);

/**
 * cmmmp_get_last_error_msg() - detail of the last error
 * @ctx: context
 *
 * The kernel's extended ack message when it sent one (origin
 * MP_ERR_KERNEL), which memory block refused and whether the segment was
 * rolled back (MP_ERR_MEMBLOCK), or what failed locally. May be "".
 *
 * Return: a string owned by @ctx, valid until its next call.
 */
const char *cmmmp_get_last_error_msg(struct mp_ctx *ctx);

/**
 * cmmmp_get_last_error_origin() - who reported the last error
 * @ctx: context
 *
 * Lets callers word an errno right: -EBUSY from the kernel means "range
 * busy" or "offline refused", -EBUSY from a memory block does not.
 *
 * Return: an enum mp_err_origin.
 */
enum mp_err_origin cmmmp_get_last_error_origin(struct mp_ctx *ctx);

/**
 * cmmmp_strerror() - what an errno means for the cmm_mp calls
 * @err: errno value, either sign
 *
 * -ENODEV, -EALREADY, -EBUSY, -EPERM, -ENOENT and -EPROTO get cmm_mp
 * specific wording; everything else is strerror().
 *
 * Return: a static string.
 */
const char *cmmmp_strerror(int err);

/* ---- devices ------------------------------------------------------------- */

/**
 * cmmmp_device_get_first() - first pool device, by id
 * @ctx: context
 *
 * Reads the pool from the kernel on first use.
 *
 * Return: the device, or NULL (none, or the read failed: see
 * cmmmp_get_last_error()).
 */
struct mp_device *cmmmp_device_get_first(struct mp_ctx *ctx);

/**
 * cmmmp_device_get_next() - next pool device, by id
 * @dev: current device
 *
 * Return: the device, or NULL after the last.
 */
struct mp_device *cmmmp_device_get_next(struct mp_device *dev);

/**
 * cmmmp_device_get_by_id() - look a device up by its pool id
 * @ctx: context
 * @id: CMM_MP_A_DEV_ID
 *
 * Return: the device, or NULL (last error -ENOENT when there is none).
 */
struct mp_device *cmmmp_device_get_by_id(struct mp_ctx *ctx, uint32_t id);

/**
 * cmmmp_device_get_ctx() - the context a device belongs to
 * @dev: device
 *
 * Return: its context.
 */
struct mp_ctx *cmmmp_device_get_ctx(struct mp_device *dev);

/**
 * cmmmp_device_get_id() - the device's id in the pool
 * @dev: device
 *
 * Return: its id.
 */
uint32_t cmmmp_device_get_id(struct mp_device *dev);

/**
 * cmmmp_device_get_name() - the device's name
 * @dev: device
 *
 * Return: its name, e.g. "mp0" (owned by the context).
 */
const char *cmmmp_device_get_name(struct mp_device *dev);

/**
 * cmmmp_device_get_chip_id() - the device's unique chip id
 * @dev: device
 *
 * Return: the chip id; the pool ranks devices by it.
 */
uint64_t cmmmp_device_get_chip_id(struct mp_device *dev);

/**
 * cmmmp_device_get_phys() - host physical base of the device's DRAM
 * @dev: device
 *
 * Return: the base address; 0 for a remote device.
 */
uint64_t cmmmp_device_get_phys(struct mp_device *dev);

/**
 * cmmmp_device_get_size() - bytes of device DRAM in the pool
 * @dev: device
 *
 * Return: the size.
 */
uint64_t cmmmp_device_get_size(struct mp_device *dev);

/**
 * cmmmp_device_get_seg_size() - bytes per segment of this device
 * @dev: device
 *
 * Return: the segment size.
 */
uint64_t cmmmp_device_get_seg_size(struct mp_device *dev);

/**
 * cmmmp_device_get_nr_segs() - number of segments of this device
 * @dev: device
 *
 * Return: the count.
 */
uint32_t cmmmp_device_get_nr_segs(struct mp_device *dev);

/**
 * cmmmp_device_get_numa_node() - NUMA node of the device's DRAM
 * @dev: device
 *
 * Return: the node, or -1 when it has none.
 */
int cmmmp_device_get_numa_node(struct mp_device *dev);

/**
 * cmmmp_device_get_block_size() - memory block size of the running kernel
 * @dev: device
 *
 * Return: the block size (segments are multiples of it).
 */
uint64_t cmmmp_device_get_block_size(struct mp_device *dev);

/**
 * cmmmp_device_get_mac() - the device's backend port address
 * @dev: device
 *
 * Return: 6 bytes, or NULL when the kernel did not say (no pool formed).
 */
const uint8_t *cmmmp_device_get_mac(struct mp_device *dev);

/**
 * cmmmp_device_get_state() - is the device a member now, or lost?
 * @dev: device
 *
 * Return: an enum mp_dev_state.
 */
enum mp_dev_state cmmmp_device_get_state(struct mp_device *dev);

/**
 * cmmmp_device_get_first_segment() - pool-wide number of its first segment
 * @dev: device
 *
 * Return: the segment id; its segments are numbered on from it.
 */
uint32_t cmmmp_device_get_first_segment(struct mp_device *dev);

/**
 * cmmmp_device_get_nha() - the device pool offset
 * @dev: device
 *
 * Return: the first normalized host address the device backs.
 */
uint64_t cmmmp_device_get_nha(struct mp_device *dev);

/**
 * cmmmp_device_is_local() - is this the host's own device?
 * @dev: device
 *
 * Return: true for the local device (the only one with phys and node).
 */
bool cmmmp_device_is_local(struct mp_device *dev);

/**
 * cmmmp_device_get_pool_state() - where discovery stood when listed
 * @dev: device
 *
 * Return: an enum mp_pool_state.
 */
enum mp_pool_state cmmmp_device_get_pool_state(struct mp_device *dev);

/**
 * cmmmp_device_get_generation() - membership generation of the pool
 * @dev: device
 *
 * Return: the generation, 0 when no pool is formed.
 */
uint32_t cmmmp_device_get_generation(struct mp_device *dev);

/**
 * cmmmp_dev_state_name() - name of a device state
 * @state: the state
 *
 * Return: "up", "lost" or "unknown".
 */
const char *cmmmp_dev_state_name(enum mp_dev_state state);

/**
 * cmmmp_pool_state_name() - name of a pool state
 * @state: the state
 *
 * Return: "local", "discovery", "runtime", "conflict" or "unknown".
 */
const char *cmmmp_pool_state_name(enum mp_pool_state state);

#define cmmmp_device_foreach(ctx, dev) \
	for (dev = cmmmp_device_get_first(ctx); dev; \
	     dev = cmmmp_device_get_next(dev))

/* ---- segments ------------------------------------------------------------ */

/**
 * cmmmp_segment_get_first() - first segment of the pool, by id
 * @ctx: context
 *
 * Reads the pool from the kernel on first use.
 *
 * Return: the segment, or NULL (none, or the read failed: see
 * cmmmp_get_last_error()).
 */
struct mp_segment *cmmmp_segment_get_first(struct mp_ctx *ctx);

/**
 * cmmmp_segment_get_next() - next segment of the pool, by id
 * @seg: current segment
 *
 * Return: the segment, or NULL after the last.
 */
struct mp_segment *cmmmp_segment_get_next(struct mp_segment *seg);

/**
 * cmmmp_device_segment_get_first() - first segment backed by a device
 * @dev: device
 *
 * Return: the segment, or NULL when the device has none.
 */
struct mp_segment *cmmmp_device_segment_get_first(struct mp_device *dev);

/**
 * cmmmp_device_segment_get_next() - next segment backed by the same device
 * @seg: current segment
 *
 * Return: the segment, or NULL after the device's last.
 */
struct mp_segment *cmmmp_device_segment_get_next(struct mp_segment *seg);

/**
 * cmmmp_segment_get_by_id() - look a segment up by its pool-wide id
 * @ctx: context
 * @id: CMM_MP_A_SEG_ID
 *
 * Return: the segment, or NULL (last error -ENOENT when there is none).
 */
struct mp_segment *cmmmp_segment_get_by_id(struct mp_ctx *ctx, uint32_t id);

/**
 * cmmmp_segment_get_ctx() - the context a segment belongs to
 * @seg: segment
 *
 * Return: its context.
 */
struct mp_ctx *cmmmp_segment_get_ctx(struct mp_segment *seg);

/**
 * cmmmp_segment_get_id() - the segment's pool-wide id
 * @seg: segment
 *
 * Return: its id.
 */
uint32_t cmmmp_segment_get_id(struct mp_segment *seg);

/**
 * cmmmp_segment_get_device() - the device that backs the segment
 * @seg: segment
 *
 * Return: the device, or NULL when it is not known (yet).
 */
struct mp_device *cmmmp_segment_get_device(struct mp_segment *seg);

/**
 * cmmmp_segment_get_device_id() - id of the device that backs the segment
 * @seg: segment
 *
 * Return: the device id, or MP_NONE when the kernel did not say.
 */
uint32_t cmmmp_segment_get_device_id(struct mp_segment *seg);

/**
 * cmmmp_segment_get_nha() - normalized host address of the segment
 * @seg: segment
 *
 * Return: its NHA (host address minus the HDM base).
 */
uint64_t cmmmp_segment_get_nha(struct mp_segment *seg);

/**
 * cmmmp_segment_get_phys() - host physical address of a local segment
 * @seg: segment
 *
 * Return: the address; 0 for a remote segment.
 */
uint64_t cmmmp_segment_get_phys(struct mp_segment *seg);

/**
 * cmmmp_segment_get_size() - bytes in the segment
 * @seg: segment
 *
 * Return: the size.
 */
uint64_t cmmmp_segment_get_size(struct mp_segment *seg);

/**
 * cmmmp_segment_get_state() - the segment's state at the last refresh
 * @seg: segment
 *
 * Return: an enum mp_seg_state (unknown values pass through).
 */
enum mp_seg_state cmmmp_segment_get_state(struct mp_segment *seg);

/**
 * cmmmp_segment_get_mode() - the segment's mode
 * @seg: segment
 *
 * Return: an enum mp_seg_mode.
 */
enum mp_seg_mode cmmmp_segment_get_mode(struct mp_segment *seg);

/**
 * cmmmp_segment_get_owner() - the host (device id) that owns the segment
 * @seg: segment
 *
 * Return: the owner's device id, or MP_NONE.
 */
uint32_t cmmmp_segment_get_owner(struct mp_segment *seg);

/**
 * cmmmp_segment_get_numa_node() - NUMA node the segment's memory joins
 * @seg: segment
 *
 * Return: the node, or -1 when it has none.
 */
int cmmmp_segment_get_numa_node(struct mp_segment *seg);

/**
 * cmmmp_segment_get_memblock_first() - first memory block (memoryN) it spans
 * @seg: segment
 *
 * Return: N of /sys/devices/system/memory/memoryN.
 */
uint32_t cmmmp_segment_get_memblock_first(struct mp_segment *seg);

/**
 * cmmmp_segment_get_memblock_count() - number of memory blocks it spans
 * @seg: segment
 *
 * Return: the count (0 for a remote segment).
 */
uint32_t cmmmp_segment_get_memblock_count(struct mp_segment *seg);

/**
 * cmmmp_segment_get_memblock_online() - how many of its blocks are online
 * @seg: segment
 *
 * Return: the count at the last refresh.
 */
uint32_t cmmmp_segment_get_memblock_online(struct mp_segment *seg);

/**
 * cmmmp_segment_get_memblock_movable() - how many are in ZONE_MOVABLE
 * @seg: segment
 *
 * Return: the count at the last refresh.
 */
uint32_t cmmmp_segment_get_memblock_movable(struct mp_segment *seg);

/**
 * cmmmp_segment_get_auto_onlined() - blocks the kernel had onlined itself
 * @seg: segment
 *
 * Since LIBMP_1.4. How many of its memory blocks were online already when
 * the last cmmmp_segment_online() on this object came to online them: the
 * kernel's auto-online policy (cmmmp_get_auto_online_policy()) did it.
 *
 * Return: the count, 0 when none (or not onlined through this object).
 */
uint32_t cmmmp_segment_get_auto_onlined(struct mp_segment *seg);

/**
 * cmmmp_segment_get_auto_zone() - the zone the kernel had onlined them to
 * @seg: segment
 *
 * Since LIBMP_1.4. Return: the zone of the blocks counted by
 * cmmmp_segment_get_auto_onlined(), MP_ZONE_UNKNOWN when there were none.
 */
enum mp_zone cmmmp_segment_get_auto_zone(struct mp_segment *seg);

/**
 * cmmmp_segment_get_reonlined() - blocks moved to the zone asked for
 * @seg: segment
 *
 * Since LIBMP_1.4. Of the blocks the kernel had onlined itself, how many
 * the last cmmmp_segment_online() offlined and onlined again in the zone it
 * was asked for (none with MP_ONLINE_KEEP_ZONE).
 *
 * Return: the count.
 */
uint32_t cmmmp_segment_get_reonlined(struct mp_segment *seg);

/**
 * cmmmp_zone_name() - "movable", "normal", "mixed" or NULL (LIBMP_1.4)
 * @zone: a zone
 */
const char *cmmmp_zone_name(enum mp_zone zone);

/**
 * cmmmp_device_get_abstract_distance() - the memory tier's abstract distance
 * @dev: the local device
 *
 * Since LIBMP_1.4. The abstract distance the kernel module gave the
 * memory type of the device's node (larger: slower, a lower tier).
 *
 * Return: the distance, or -1 when the kernel did not say (a remote
 * device, an older module).
 */
int cmmmp_device_get_abstract_distance(struct mp_device *dev);

/**
 * cmmmp_device_get_dram_abstract_distance() - DRAM's, for comparison
 * @dev: the local device
 *
 * Since LIBMP_1.4. Return: the kernel's abstract distance of DRAM
 * (MEMTIER_ADISTANCE_DRAM), or -1 when the kernel did not say.
 */
int cmmmp_device_get_dram_abstract_distance(struct mp_device *dev);

/**
 * cmmmp_get_node_memory_tier() - the memory tier a NUMA node is in
 * @ctx: context (for the error detail)
 * @node: NUMA node
 *
 * Since LIBMP_1.4. Reads /sys/devices/virtual/memory_tiering/memory_tierN/
 * nodelist; N is the tier's id, larger for slower memory.
 *
 * Return: N, or a negative errno (-ENOENT: in no tier; the node has no
 * memory yet, or the kernel has no memory tiering).
 */
int cmmmp_get_node_memory_tier(struct mp_ctx *ctx, int node);

/**
 * cmmmp_get_auto_online_policy() - how the kernel onlines hot-added memory
 * @ctx: context (for the error detail)
 * @buf: receives "offline", "online", "online_kernel" or "online_movable"
 * @len: size of @buf
 *
 * Since LIBMP_1.4. Reads /sys/devices/system/memory/auto_online_blocks,
 * which memhp_default_state= sets at boot.
 *
 * Return: 0 or a negative errno (-ENOENT: no memory hotplug).
 */
int cmmmp_get_auto_online_policy(struct mp_ctx *ctx, char *buf, size_t len);

/**
 * cmmmp_segment_is_online() - is the segment System RAM on this host?
 * @seg: segment
 *
 * Return: true when its state is MP_SEG_ONLINE_RAM.
 */
bool cmmmp_segment_is_online(struct mp_segment *seg);

/**
 * cmmmp_segment_refresh() - re-read one segment from the kernel
 * @seg: segment
 *
 * Return: 0, or a negative errno (-ENOENT: the kernel no longer has it;
 * it is then hidden from iterators).
 */
int cmmmp_segment_refresh(struct mp_segment *seg);

/**
 * cmmmp_segment_online() - make a segment System RAM on this host
 * @seg: segment
 * @flags: 0 for ZONE_MOVABLE (the memory can go offline again), or
 *	MP_ONLINE_NO_MOVABLE for the kernel zone
 *
 * Sends CMM_MP_CMD_SEG_ONLINE (the kernel claims the range and hot-adds
 * its memory blocks, offline), then onlines each block by writing
 * "online_movable" or "online_kernel" to
 * /sys/devices/system/memory/memoryN/state; blocks already online are
 * left alone. If a block refuses, the segment is rolled back with
 * CMM_MP_CMD_SEG_OFFLINE and the block's errno returned (origin
 * MP_ERR_MEMBLOCK; the message says whether the rollback worked). The
 * segment object is updated from the kernel's answers. A segment of
 * another device of the pool cannot be System RAM here: since LIBMP_1.3
 * the kernel maps it as /dev/mps<id> instead (see cmmmp_segment_online_as()).
 *
 * Return: 0; -EALREADY (not offline), -ENOENT (no such segment), -EBUSY
 * (range claimed by someone else), -EPERM (needs CAP_NET_ADMIN), -ENODEV
 * (module not loaded), -EINVAL (bad @flags), or a block's errno.
 */
int cmmmp_segment_online(struct mp_segment *seg, unsigned long flags);

/**
 * cmmmp_segment_online_as() - online a segment in a given mode (LIBMP_1.3)
 * @seg: segment
 * @mode: MP_SEG_MODE_RAM (segments of the local device only),
 *	MP_SEG_MODE_DAX (/dev/mps<id>) or MP_SEG_MODE_BLK (/dev/mpb<id>)
 * @flags: MP_ONLINE_NO_MOVABLE (RAM only), MP_ONLINE_SHARED (DAX, BLK:
 *	sharing mode, several hosts at once)
 *
 * System RAM goes as cmmmp_segment_online(). For DAX and BLK the backing
 * device gives the segment to this host (alone, or as one of its
 * sharers; zeroed when it goes to a new holder or set of sharers) and the
 * kernel creates the device node (cmmmp_segment_get_devnode()).
 *
 * Return: as cmmmp_segment_online(), and -EINVAL (System RAM for a segment
 * of another device, or a bad combination), -EBUSY (held by other hosts:
 * cmmmp_segment_get_owner(), cmmmp_segment_get_sharers() after a refresh).
 */
int cmmmp_segment_online_as(struct mp_segment *seg, enum mp_seg_mode mode,
			    unsigned long flags);

/**
 * cmmmp_segment_get_memmap_on_memory() - is its memmap on it? (LIBMP_1.7)
 * @seg: segment
 *
 * Return: true while it is System RAM here with its memmap taken from
 * itself (MP_ONLINE_MEMMAP_ON_MEMORY); false otherwise, and with a kernel
 * module that does not report it.
 */
bool cmmmp_segment_get_memmap_on_memory(struct mp_segment *seg);

/* ---- mirrored segments (LIBMP_1.8) ---------------------------------------- */

/**
 * cmmmp_segment_online_mirror() - online a segment with a second copy
 * @seg: segment N
 * @mode: MP_SEG_MODE_DAX or MP_SEG_MODE_BLK
 * @mirror: pool-wide number of the segment M that holds the second copy,
 *	on another device than N's; MP_NONE to let
 *	cmmmp_segment_pick_mirror() choose it
 * @flags: 0 (a mirrored segment is in pooling mode: MP_ONLINE_SHARED is
 *	refused, as the System RAM flags are)
 *
 * Sends CMM_MP_CMD_SEG_ONLINE with CMM_MP_A_SEG_MIRROR: this host claims
 * both segments, writes go to both copies and reads to either, and one
 * device node (/dev/mps<N> or /dev/mpb<N>) serves the pair. Both @seg and
 * M then report the other's number (cmmmp_segment_get_mirror()), the same
 * device node and the pair's redundancy; M's object is read again here.
 * Offlining either (cmmmp_segment_offline()) releases both.
 *
 * Return: 0; -EINVAL (a bad @mode or @flags, M is @seg, or the kernel
 * refused: M on @seg's device, sharing mode; the kernel's message says
 * why), -ENOSPC (MP_NONE and no segment to pick: the last error says
 * so), or as cmmmp_segment_online_as().
 */
int cmmmp_segment_online_mirror(struct mp_segment *seg, enum mp_seg_mode mode,
				uint32_t mirror, unsigned long flags);

/**
 * cmmmp_segment_pick_mirror() - choose the segment for a second copy
 * @seg: the segment to mirror
 * @skip: segment ids not to choose (those about to be onlined), or NULL
 * @nr_skip: how many
 *
 * The first segment, by id, that is offline, held by nobody, of @seg's
 * size, on a device that is up and is not @seg's, preferring a device
 * other than this host's own (a copy on this host does not survive this
 * host); a segment of the local device only when no other device has
 * one. Uses the context's view of the pool: nothing is claimed.
 *
 * Return: the segment, or NULL (last error -ENOSPC: none fits).
 */
struct mp_segment *cmmmp_segment_pick_mirror(struct mp_segment *seg,
					     const uint32_t *skip,
					     size_t nr_skip);

/**
 * cmmmp_segment_repair() - rebuild the lost copy of a mirrored segment
 * @seg: either segment of a mirrored pair
 * @replacement: MP_NONE to rebuild the lost copy where it was (its device
 *	came back), or the pool-wide number of an offline segment R, on
 *	another device than the whole copy's, that takes the lost copy's
 *	place (this host claims it)
 *
 * Sends CMM_MP_CMD_SEG_REPAIR. The kernel starts the rebuild in the
 * background and returns at once; the segments then report
 * MP_SEG_REBUILDING, and a segment event tells its end (MP_SEG_MIRRORED,
 * or MP_SEG_DEGRADED when it failed). The segments of the pair are read
 * again here.
 *
 * Return: 0; -EINVAL (not mirrored, a bad @replacement), -EALREADY (both
 * copies are whole), -EBUSY (a rebuild runs), -EHOSTUNREACH (the lost
 * copy's device is still lost: name a @replacement), -EPERM, -ENOENT,
 * -ENODEV, or another negative errno.
 */
int cmmmp_segment_repair(struct mp_segment *seg, uint32_t replacement);

/**
 * cmmmp_segment_get_mirror() - the other copy of a mirrored segment
 * @seg: segment
 *
 * Return: the pool-wide number of the segment that holds its other copy,
 * MP_NONE when it is not mirrored.
 */
uint32_t cmmmp_segment_get_mirror(struct mp_segment *seg);

/**
 * cmmmp_segment_get_redundancy() - how the copies of the segment are
 * @seg: segment
 *
 * Return: an enum mp_seg_redundancy; MP_SEG_NOT_MIRRORED (0) when it is
 * not mirrored (or with a kernel module that does not report it).
 */
enum mp_seg_redundancy cmmmp_segment_get_redundancy(struct mp_segment *seg);

/**
 * cmmmp_segment_get_rebuilt() - how much of the lost copy is rebuilt
 * @seg: segment
 *
 * Return: bytes rebuilt so far while MP_SEG_REBUILDING, else 0.
 */
uint64_t cmmmp_segment_get_rebuilt(struct mp_segment *seg);

/**
 * cmmmp_seg_redundancy_name() - name of a redundancy state
 * @r: the state
 *
 * Return: "mirrored", "degraded" or "rebuilding"; NULL for
 * MP_SEG_NOT_MIRRORED and unknown values.
 */
const char *cmmmp_seg_redundancy_name(enum mp_seg_redundancy r);

/**
 * cmmmp_segment_is_shared() - is the segment in sharing mode? (LIBMP_1.3)
 * @seg: segment
 *
 * Return: true when it is mapped here in sharing mode or shared by others.
 */
bool cmmmp_segment_is_shared(struct mp_segment *seg);

/**
 * cmmmp_segment_get_sharers() - who shares the segment (LIBMP_1.3)
 * @seg: segment
 *
 * Return: a bitmap of device ids (bit i: device i), 0 for none.
 */
uint32_t cmmmp_segment_get_sharers(struct mp_segment *seg);

/**
 * cmmmp_segment_get_devnode() - the device node of a segment mapped here
 * @seg: segment
 *
 * Since LIBMP_1.3. Return: "/dev/mps5" or "/dev/mpb5", NULL when the
 * segment is not online on this host as dax or blk.
 */
const char *cmmmp_segment_get_devnode(struct mp_segment *seg);

/**
 * cmmmp_segment_offline() - take a segment's System RAM away
 * @seg: segment
 *
 * Sends CMM_MP_CMD_SEG_OFFLINE: the kernel migrates the pages out, removes
 * the memory and releases the range. If it cannot (unmovable pages), the
 * segment stays online with its data and -EBUSY comes back.
 *
 * Return: 0; -EALREADY (not online), -EBUSY (refused), -EPERM, -ENOENT,
 * -ENODEV, or another negative errno.
 */
int cmmmp_segment_offline(struct mp_segment *seg);

/**
 * cmmmp_seg_state_name() - name of a segment state
 * @state: the state
 *
 * Return: "offline", "online-ram", "busy" (as in sysfs) or "unknown".
 */
const char *cmmmp_seg_state_name(enum mp_seg_state state);

/**
 * cmmmp_seg_mode_name() - name of a segment mode
 * @mode: the mode
 *
 * Return: "system-ram" or "unknown".
 */
const char *cmmmp_seg_mode_name(enum mp_seg_mode mode);

/**
 * typedef cmmmp_segment_fn - called by cmmmp_segment_dump() for a segment
 * @seg: the segment as the kernel reported it; valid during the call only
 *	(its getters work, the operations that change it do not)
 * @arg: as given to cmmmp_segment_dump()
 *
 * Return: 0 to go on, a negative errno to stop the dump with it.
 */
typedef int (*cmmmp_segment_fn)(struct mp_segment *seg, void *arg);

/**
 * cmmmp_segment_dump() - every segment of the pool, as the kernel sends it
 * @ctx: context
 * @fn: called once per segment, in id order, while the answer arrives
 * @arg: passed to @fn
 *
 * For pools of thousands of segments: nothing is kept in @ctx, so memory
 * does not grow with the pool, and the caller can print each segment as
 * it comes. The devices are read first (cmmmp_segment_get_device() works
 * in @fn). Unlike the iterators, a dump that fails part way has already
 * called @fn for the segments before the failure. A new pool map during
 * the dump (ids renumbered) starts it again while @fn was not called yet,
 * and fails it with -EAGAIN after.
 *
 * Return: 0; the error of @fn; -EAGAIN (the pool changed during the dump),
 * -ENODEV (module not loaded), -EPROTO, or another negative errno (see
 * cmmmp_get_last_error()).
 */
int cmmmp_segment_dump(struct mp_ctx *ctx, cmmmp_segment_fn fn, void *arg);

#define cmmmp_segment_foreach(ctx, seg) \
	for (seg = cmmmp_segment_get_first(ctx); seg; \
	     seg = cmmmp_segment_get_next(seg))

#define cmmmp_device_segment_foreach(dev, seg) \
	for (seg = cmmmp_device_segment_get_first(dev); seg; \
	     seg = cmmmp_device_segment_get_next(seg))

/* ---- events -------------------------------------------------------------- */

/**
 * cmmmp_monitor_new() - subscribe to segment state changes
 * @ctx: context; the monitor holds a reference on it
 * @mon: receives the monitor
 *
 * Opens a second, non-blocking socket joined to the cmm_mp "events"
 * multicast group. Subscribe before acting, or events are missed.
 *
 * Return: 0, -ENODEV (module not loaded), or another negative errno.
 */
int cmmmp_monitor_new(struct mp_ctx *ctx, struct mp_monitor **mon);

/**
 * cmmmp_monitor_free() - unsubscribe and free a monitor
 * @mon: monitor (NULL is allowed)
 */
void cmmmp_monitor_free(struct mp_monitor *mon);

/**
 * cmmmp_monitor_get_fd() - file descriptor to poll for events
 * @mon: monitor
 *
 * Readable (POLLIN) when an event may be waiting; then call
 * cmmmp_monitor_read() until it returns -EAGAIN.
 *
 * Return: the descriptor, or -EINVAL.
 */
int cmmmp_monitor_get_fd(struct mp_monitor *mon);

/**
 * cmmmp_monitor_read() - take the next event, without blocking
 * @mon: monitor
 * @seg: receives the segment the event is about
 *
 * The event is applied to the context's segment object (added if the
 * context did not know it), so every getter tells the new state.
 *
 * Return: 0; -EAGAIN when no event is waiting; -ENOBUFS when events were
 * lost (the socket overflowed: re-read with cmmmp_refresh() and go on);
 * another negative errno on failure.
 */
int cmmmp_monitor_read(struct mp_monitor *mon, struct mp_segment **seg);

/**
 * cmmmp_monitor_wait() - wait for an event
 * @mon: monitor
 * @timeout_ms: how long; -1 for ever, 0 to just look
 *
 * Return: 1 when an event may be read, 0 on timeout, or a negative errno.
 */
int cmmmp_monitor_wait(struct mp_monitor *mon, int timeout_ms);

/* ---- backend peers and their counters (LIBMP_1.1) ------------------------ */

/* Per-peer counters of the backend (Documentation/protocol.rst, Counters). */
enum mp_peer_counter {
	MP_PEER_TX,		/* frames sent, retransmissions included */
	MP_PEER_RX,		/* valid frames received */
	MP_PEER_RETRANSMITS,	/* requests sent again after a timeout */
	MP_PEER_DUPLICATES,	/* its requests seen again, not re-executed */
	MP_PEER_OUT_OF_WINDOW,	/* its requests dropped: old or too far ahead */
	MP_PEER_STALE,		/* its responses matching no request */
	MP_PEER_TIMEOUTS,	/* requests to it that failed: ETIMEDOUT */
	MP_PEER_NAKS,		/* NAKs received from it */
	MP_PEER_RESYNCS,	/* receive window re-based */
	MP_PEER_SKIPPED,	/* sequence numbers the window gave up */
	MP_PEER_FAST_FAILS,	/* requests refused while it was unreachable */
	MP_PEER_MALFORMED,	/* undecodable frames from its address */
	MP_PEER_NR_COUNTERS,
};

/**
 * cmmmp_stats_refresh() - take a new snapshot of the backend's peers
 * @ctx: context
 *
 * Peer objects of the previous snapshot are freed: pointers to them become
 * invalid. Without a backend the snapshot is empty.
 *
 * Return: 0 or a negative errno (-ENODEV: cmm_mp is not loaded).
 */
int cmmmp_stats_refresh(struct mp_ctx *ctx);

/**
 * cmmmp_peer_get_first() - first peer of the snapshot, by device id
 * @ctx: context
 *
 * Takes a snapshot on first use (cmmmp_stats_refresh()).
 *
 * Return: the peer, or NULL (none, or the read failed: see
 * cmmmp_get_last_error()).
 */
struct mp_peer *cmmmp_peer_get_first(struct mp_ctx *ctx);

/**
 * cmmmp_peer_get_next() - next peer of the snapshot
 * @peer: current peer
 *
 * Return: the next peer by device id, or NULL after the last.
 */
struct mp_peer *cmmmp_peer_get_next(struct mp_peer *peer);

/**
 * cmmmp_peer_get_ctx() - context a peer belongs to
 * @peer: peer
 *
 * Return: the context.
 */
struct mp_ctx *cmmmp_peer_get_ctx(struct mp_peer *peer);

/**
 * cmmmp_peer_get_id() - device id of a peer
 * @peer: peer
 *
 * Return: the id.
 */
uint32_t cmmmp_peer_get_id(struct mp_peer *peer);

/**
 * cmmmp_peer_get_mac() - backend port address of a peer
 * @peer: peer
 *
 * Return: 6 bytes, valid as long as the peer object.
 */
const uint8_t *cmmmp_peer_get_mac(struct mp_peer *peer);

/**
 * cmmmp_peer_is_reachable() - did the peer answer since its last timeout?
 * @peer: peer
 *
 * Return: false while requests to it fail fast.
 */
bool cmmmp_peer_is_reachable(struct mp_peer *peer);

/**
 * cmmmp_peer_get_inflight() - requests to the peer awaiting a response
 * @peer: peer
 *
 * Return: the count at the time of the snapshot.
 */
uint32_t cmmmp_peer_get_inflight(struct mp_peer *peer);

/**
 * cmmmp_peer_get_counter() - one counter of a peer
 * @peer: peer
 * @c: which
 *
 * Return: its value at the time of the snapshot; 0 for an unknown @c.
 */
uint64_t cmmmp_peer_get_counter(struct mp_peer *peer, enum mp_peer_counter c);

/**
 * cmmmp_peer_counter_name() - name of a counter, as mpctl stats prints it
 * @c: which
 *
 * Return: a static string ("tx", "retransmits", ...), NULL for an unknown @c.
 */
const char *cmmmp_peer_counter_name(enum mp_peer_counter c);

/* ---- the pool key (LIBMP_1.5) -------------------------------------------- */

/* Bytes of a pool key (SipHash-2-4: 128 bits). */
#define MP_KEY_LEN	16

/**
 * enum mp_key_op - what cmmmp_pool_set_key() does (Documentation/security.rst)
 * @MP_KEY_SET: install the key under its id and sign every frame sent with
 *	it from now on; the previous key stays accepted on receive
 * @MP_KEY_ACCEPT: install the key for receiving only, the first step of a
 *	rotation (every host accepts the new key before any signs with it)
 * @MP_KEY_CLEAR: forget every key: frames go out untagged again
 */
enum mp_key_op {
	MP_KEY_SET = 1,
	MP_KEY_ACCEPT = 2,
	MP_KEY_CLEAR = 3,
};

/**
 * cmmmp_pool_set_key() - give the pool's backend a key, or clear its keys
 * @ctx: context
 * @op: what to do
 * @id: the key id carried in every tag (not for MP_KEY_CLEAR)
 * @key: MP_KEY_LEN bytes; NULL for MP_KEY_CLEAR (and only then)
 *
 * Since LIBMP_1.5. Needs CAP_SYS_ADMIN. The key goes to the kernel over
 * the cmm_mp family and is wiped from libmp's buffers; the caller wipes
 * its own copy. No interface gives a key back: the ids of the keys held
 * are in /sys/class/misc/mp_eth/key_ids.
 *
 * Return: 0; -EINVAL (an unknown @op, @key missing or given with
 * MP_KEY_CLEAR, an all-zero key), -EPERM (not privileged), -ENODEV or
 * -EOPNOTSUPP from the kernel (cmmmp_get_last_error_origin() MP_ERR_KERNEL:
 * no backend that authenticates its traffic, mp_eth not loaded), -ENODEV
 * from libmp (cmm_mp is not loaded), or another negative errno.
 */
int cmmmp_pool_set_key(struct mp_ctx *ctx, enum mp_key_op op, uint32_t id,
		       const uint8_t *key);

/*
 * The names before LIBMP_1.6, when every function began with mp_ (GMP's
 * prefix, and the kernel's): mp_new() is cmmmp_new(). Kept for one
 * release, as these macros and as versioned aliases in the library (see
 * libmp.sym); define LIBMP_NO_OLD_NAMES to leave them out.
 */
#ifndef LIBMP_NO_OLD_NAMES
#define mp_dev_state_name                        cmmmp_dev_state_name
#define mp_device_get_abstract_distance          cmmmp_device_get_abstract_distance
#define mp_device_get_block_size                 cmmmp_device_get_block_size
#define mp_device_get_by_id                      cmmmp_device_get_by_id
#define mp_device_get_chip_id                    cmmmp_device_get_chip_id
#define mp_device_get_ctx                        cmmmp_device_get_ctx
#define mp_device_get_dram_abstract_distance     cmmmp_device_get_dram_abstract_distance
#define mp_device_get_first                      cmmmp_device_get_first
#define mp_device_get_first_segment              cmmmp_device_get_first_segment
#define mp_device_get_generation                 cmmmp_device_get_generation
#define mp_device_get_id                         cmmmp_device_get_id
#define mp_device_get_mac                        cmmmp_device_get_mac
#define mp_device_get_name                       cmmmp_device_get_name
#define mp_device_get_next                       cmmmp_device_get_next
#define mp_device_get_nha                        cmmmp_device_get_nha
#define mp_device_get_nr_segs                    cmmmp_device_get_nr_segs
#define mp_device_get_numa_node                  cmmmp_device_get_numa_node
#define mp_device_get_phys                       cmmmp_device_get_phys
#define mp_device_get_pool_state                 cmmmp_device_get_pool_state
#define mp_device_get_seg_size                   cmmmp_device_get_seg_size
#define mp_device_get_size                       cmmmp_device_get_size
#define mp_device_get_state                      cmmmp_device_get_state
#define mp_device_is_local                       cmmmp_device_is_local
#define mp_device_segment_get_first              cmmmp_device_segment_get_first
#define mp_device_segment_get_next               cmmmp_device_segment_get_next
#define mp_get_auto_online_policy                cmmmp_get_auto_online_policy
#define mp_get_last_error                        cmmmp_get_last_error
#define mp_get_last_error_msg                    cmmmp_get_last_error_msg
#define mp_get_last_error_origin                 cmmmp_get_last_error_origin
#define mp_get_node_memory_tier                  cmmmp_get_node_memory_tier
#define mp_monitor_free                          cmmmp_monitor_free
#define mp_monitor_get_fd                        cmmmp_monitor_get_fd
#define mp_monitor_new                           cmmmp_monitor_new
#define mp_monitor_read                          cmmmp_monitor_read
#define mp_monitor_wait                          cmmmp_monitor_wait
#define mp_new                                   cmmmp_new
#define mp_peer_counter_name                     cmmmp_peer_counter_name
#define mp_peer_get_counter                      cmmmp_peer_get_counter
#define mp_peer_get_ctx                          cmmmp_peer_get_ctx
#define mp_peer_get_first                        cmmmp_peer_get_first
#define mp_peer_get_id                           cmmmp_peer_get_id
#define mp_peer_get_inflight                     cmmmp_peer_get_inflight
#define mp_peer_get_mac                          cmmmp_peer_get_mac
#define mp_peer_get_next                         cmmmp_peer_get_next
#define mp_peer_is_reachable                     cmmmp_peer_is_reachable
#define mp_pool_set_key                          cmmmp_pool_set_key
#define mp_pool_state_name                       cmmmp_pool_state_name
#define mp_ref                                   cmmmp_ref
#define mp_refresh                               cmmmp_refresh
#define mp_seg_mode_name                         cmmmp_seg_mode_name
#define mp_seg_state_name                        cmmmp_seg_state_name
#define mp_segment_get_auto_onlined              cmmmp_segment_get_auto_onlined
#define mp_segment_get_auto_zone                 cmmmp_segment_get_auto_zone
#define mp_segment_get_by_id                     cmmmp_segment_get_by_id
#define mp_segment_get_ctx                       cmmmp_segment_get_ctx
#define mp_segment_get_device                    cmmmp_segment_get_device
#define mp_segment_get_device_id                 cmmmp_segment_get_device_id
#define mp_segment_get_devnode                   cmmmp_segment_get_devnode
#define mp_segment_get_first                     cmmmp_segment_get_first
#define mp_segment_get_id                        cmmmp_segment_get_id
#define mp_segment_get_memblock_count            cmmmp_segment_get_memblock_count
#define mp_segment_get_memblock_first            cmmmp_segment_get_memblock_first
#define mp_segment_get_memblock_movable          cmmmp_segment_get_memblock_movable
#define mp_segment_get_memblock_online           cmmmp_segment_get_memblock_online
#define mp_segment_get_mode                      cmmmp_segment_get_mode
#define mp_segment_get_next                      cmmmp_segment_get_next
#define mp_segment_get_nha                       cmmmp_segment_get_nha
#define mp_segment_get_numa_node                 cmmmp_segment_get_numa_node
#define mp_segment_get_owner                     cmmmp_segment_get_owner
#define mp_segment_get_phys                      cmmmp_segment_get_phys
#define mp_segment_get_reonlined                 cmmmp_segment_get_reonlined
#define mp_segment_get_sharers                   cmmmp_segment_get_sharers
#define mp_segment_get_size                      cmmmp_segment_get_size
#define mp_segment_get_state                     cmmmp_segment_get_state
#define mp_segment_is_online                     cmmmp_segment_is_online
#define mp_segment_is_shared                     cmmmp_segment_is_shared
#define mp_segment_offline                       cmmmp_segment_offline
#define mp_segment_online                        cmmmp_segment_online
#define mp_segment_online_as                     cmmmp_segment_online_as
#define mp_segment_refresh                       cmmmp_segment_refresh
#define mp_stats_refresh                         cmmmp_stats_refresh
#define mp_strerror                              cmmmp_strerror
#define mp_unref                                 cmmmp_unref
#define mp_zone_name                             cmmmp_zone_name
#define mp_device_foreach                        cmmmp_device_foreach
#define mp_segment_foreach                       cmmmp_segment_foreach
#define mp_device_segment_foreach                cmmmp_device_segment_foreach
#endif /* LIBMP_NO_OLD_NAMES */

#ifdef __cplusplus
}
#endif

#endif /* _LIBMP_H */
