/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * cmm_mp: CXL/Ethernet memory pool device, control ABI.
 *
 * Control goes over the generic netlink family CMM_MP_GENL_NAME. Every
 * object (device, segment) travels as one message of flat attributes;
 * GET commands support both doit (one object, selected by id) and dump.
 *
 * Onlining a segment as System RAM is split the way dax_kmem + daxctl
 * split it: CMM_MP_CMD_SEG_ONLINE claims the range and hot-adds its memory
 * blocks (offline), the reply names the blocks, and userspace onlines each
 * block through /sys/devices/system/memory/memoryN/state with the zone it
 * wants. CMM_MP_CMD_SEG_OFFLINE offlines (migrating pages out) and removes
 * the memory in the kernel; when the kernel refuses (-EBUSY), everything
 * stays as it was.
 *
 * Segments of another device of the pool cannot be System RAM here: they
 * are onlined as CMM_MP_SEG_MODE_DAX (the default for them) or _BLK, in
 * pooling mode (this host alone) or with CMM_MP_A_SEG_SHARED in sharing
 * mode. Segments of the local device may be DAX or BLK too.
 */
#ifndef _UAPI_LINUX_CMM_MP_H
#define _UAPI_LINUX_CMM_MP_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define CMM_MP_GENL_NAME	"cmm_mp"
#define CMM_MP_GENL_VERSION	1
#define CMM_MP_GENL_MCGRP_EVENTS "events"

/* Marks "no owner" in CMM_MP_A_SEG_OWNER and "no node" in CMM_MP_A_NODE. */
#define CMM_MP_NONE		0xffffffffU
/*
 * CMM_MP_A_SEG_OWNER: held by a device that is not in the pool now (lost,
 * or gone before the pool was formed); it keeps the segment, by chip id,
 * until it returns.
 */
#define CMM_MP_GONE		0xfffffffeU

enum cmm_mp_cmd {
	CMM_MP_CMD_UNSPEC,
	CMM_MP_CMD_DEV_GET,	/* doit: CMM_MP_A_DEV_ID; dump: all devices */
	CMM_MP_CMD_SEG_GET,	/* doit: CMM_MP_A_SEG_ID; dump: all segments */
	/*
	 * CMM_MP_A_SEG_ID [, _SEG_MODE, _SEG_SHARED, _SEG_MEMMAP_ON_MEMORY,
	 * _SEG_MIRROR]
	 */
	CMM_MP_CMD_SEG_ONLINE,
	CMM_MP_CMD_SEG_OFFLINE,	/* CMM_MP_A_SEG_ID */
	CMM_MP_CMD_SEG_EVENT,	/* multicast: a segment changed state */
	CMM_MP_CMD_STATS_GET,	/* dump: one message per peer of the backend */
	CMM_MP_CMD_KEY_SET,	/* CMM_MP_A_KEY_OP, _KEY_ID [, _KEY] */
	/*
	 * CMM_MP_A_SEG_ID of a mirrored segment [, _SEG_MIRROR]: rebuild its
	 * lost copy where it was (its device came back) or on the segment
	 * _SEG_MIRROR names (a replacement); the rebuild runs in the
	 * background and ends in a CMM_MP_CMD_SEG_EVENT
	 */
	CMM_MP_CMD_SEG_REPAIR,
	__CMM_MP_CMD_MAX,
};

#define CMM_MP_CMD_MAX (__CMM_MP_CMD_MAX - 1)

enum cmm_mp_attr {
	CMM_MP_A_UNSPEC,
	CMM_MP_A_PAD,
	/* device */
	CMM_MP_A_DEV_ID,	/* u32: device id in the pool */
	CMM_MP_A_DEV_NAME,	/* string: "mp0" */
	CMM_MP_A_CHIP_ID,	/* u64: unique chip id */
	CMM_MP_A_DEV_PHYS,	/* u64: host physical base of the device DRAM */
	CMM_MP_A_DEV_SIZE,	/* u64: bytes of device DRAM */
	CMM_MP_A_SEG_SIZE,	/* u64: bytes per segment */
	CMM_MP_A_NR_SEGS,	/* u32: segments of this device */
	CMM_MP_A_NODE,		/* u32: NUMA node of the DRAM, CMM_MP_NONE if none */
	CMM_MP_A_BLOCK_SIZE,	/* u64: memory block size of this kernel */
	/* segment */
	CMM_MP_A_SEG_ID,	/* u32: pool-wide segment index */
	CMM_MP_A_SEG_NHA,	/* u64: normalized host address of the segment */
	CMM_MP_A_SEG_PHYS,	/* u64: host physical address (local segments) */
	CMM_MP_A_SEG_STATE,	/* u32: enum cmm_mp_seg_state */
	CMM_MP_A_SEG_MODE,	/* u32: enum cmm_mp_seg_mode */
	CMM_MP_A_SEG_OWNER,	/* u32: owning host's device id or CMM_MP_NONE */
	CMM_MP_A_MEMBLK_FIRST,	/* u32: first memory block (memoryN) */
	CMM_MP_A_MEMBLK_COUNT,	/* u32: number of memory blocks */
	CMM_MP_A_MEMBLK_ONLINE,	/* u32: how many of those are online now */
	CMM_MP_A_MEMBLK_MOVABLE,/* u32: how many of those are in ZONE_MOVABLE */
	/* backend peers (CMM_MP_CMD_STATS_GET); counters are u64 */
	CMM_MP_A_BACKEND,	/* string: backend name ("mp_eth") */
	CMM_MP_A_PEER_ID,	/* u32: device id of the peer */
	CMM_MP_A_PEER_MAC,	/* binary, 6 bytes: its backend port address */
	CMM_MP_A_PEER_REACHABLE,/* u32: 0 after a timeout until it answers */
	CMM_MP_A_PEER_INFLIGHT,	/* u32: requests to it awaiting a response */
	CMM_MP_A_STATS_TX,	/* frames sent to the peer, retransmits included */
	CMM_MP_A_STATS_RX,	/* valid frames received from it */
	CMM_MP_A_STATS_RETRANSMITS,	/* requests sent again after a timeout */
	CMM_MP_A_STATS_DUPLICATES,	/* its requests seen again (not re-executed) */
	CMM_MP_A_STATS_OUT_OF_WINDOW,	/* its requests dropped as old or too far ahead */
	CMM_MP_A_STATS_STALE,	/* its responses that matched no request in flight */
	CMM_MP_A_STATS_TIMEOUTS,	/* requests to it failed with ETIMEDOUT */
	CMM_MP_A_STATS_NAKS,	/* NAKs received from it */
	CMM_MP_A_STATS_RESYNCS,	/* receive window re-based */
	CMM_MP_A_STATS_SKIPPED,	/* sequence numbers given up by the window */
	CMM_MP_A_STATS_FAST_FAILS,	/* requests refused: peer unreachable */
	CMM_MP_A_STATS_MALFORMED,	/* undecodable frames from its address */
	/* pool-wide view (DEV_GET, SEG_GET); added in version 1 */
	CMM_MP_A_DEV_MAC,	/* binary, 6 bytes: the device's backend port */
	CMM_MP_A_DEV_STATE,	/* u32: enum cmm_mp_dev_state */
	CMM_MP_A_DEV_FIRST_SEG,	/* u32: its first segment, pool-wide */
	CMM_MP_A_DEV_NHA,	/* u64: its device pool offset (first NHA) */
	CMM_MP_A_DEV_LOCAL,	/* u32: 1 for this host's own device */
	CMM_MP_A_POOL_STATE,	/* u32: enum cmm_mp_pool_state */
	CMM_MP_A_POOL_GEN,	/* u32: membership generation */
	CMM_MP_A_STATS_REFUSED,	/* accesses refused: segment owned by another */
	/* remote-backed segments (Documentation/pool.rst); added in version 1 */
	CMM_MP_A_SEG_SHARED,	/* u32: 1 sharing mode (input of SEG_ONLINE too) */
	CMM_MP_A_SEG_SHARERS,	/* u32: bitmap of the device ids sharing it */
	CMM_MP_A_SEG_DEVNODE,	/* string: "/dev/mps5" while mapped on this host */
	/* memory tiering (DEV_GET, local device); added in version 1 */
	CMM_MP_A_DEV_ADISTANCE,	/* u32: abstract distance of its node's memory type */
	CMM_MP_A_DRAM_ADISTANCE,/* u32: the kernel's abstract distance of DRAM */
	/* pool key (CMM_MP_CMD_KEY_SET) */
	CMM_MP_A_KEY_OP,	/* u32: enum cmm_mp_key_op */
	CMM_MP_A_KEY_ID,	/* u32: key id carried in each frame's tag */
	CMM_MP_A_KEY,		/* binary, CMM_MP_KEY_LEN bytes; never sent back */
	/*
	 * u32: 1 when the memmap (struct pages) of a System RAM segment is
	 * taken from the segment itself, as dax_kmem's memmap_on_memory;
	 * input of SEG_ONLINE too (System RAM only). Needs the kernel's
	 * memory_hotplug.memmap_on_memory=1; a segment of several memory
	 * blocks (CMM_MP_A_BLOCK_SIZE) is added one block at a time.
	 */
	CMM_MP_A_SEG_MEMMAP_ON_MEMORY,
	/*
	 * Mirrored segments (dax and blk, pooling mode): u32, the pool-wide
	 * number of the segment that holds the other copy, in the listing
	 * of either segment of the pair on every host (the backing devices
	 * record the pair with the owner). Input of SEG_ONLINE (the copy to
	 * keep beside CMM_MP_A_SEG_ID, on another device) and of SEG_REPAIR
	 * (a replacement for the lost copy).
	 */
	CMM_MP_A_SEG_MIRROR,
	/* u32: enum cmm_mp_seg_redundancy; on the host that maps the pair */
	CMM_MP_A_SEG_REDUNDANCY,
	CMM_MP_A_SEG_REBUILT,	/* u64: bytes of the lost copy rebuilt so far */
	__CMM_MP_A_MAX,
};

#define CMM_MP_A_MAX (__CMM_MP_A_MAX - 1)

enum cmm_mp_seg_state {
	CMM_MP_SEG_OFFLINE,	/* not mapped anywhere: the default */
	CMM_MP_SEG_ONLINE_RAM,	/* hot-added as System RAM on this host */
	CMM_MP_SEG_BUSY,	/* a state change is in progress */
	CMM_MP_SEG_FAILED,	/* its backing device is lost: accesses fail */
	CMM_MP_SEG_OWNED,	/* allocated to CMM_MP_A_SEG_OWNER, not System RAM */
	CMM_MP_SEG_SHARED,	/* held by the devices of CMM_MP_A_SEG_SHARERS */
	__CMM_MP_SEG_STATE_MAX,
};

enum cmm_mp_seg_mode {
	CMM_MP_SEG_MODE_RAM,	/* System RAM through memory hotplug */
	CMM_MP_SEG_MODE_DAX,	/* character device /dev/mps<SEG_ID> */
	CMM_MP_SEG_MODE_BLK,	/* block device /dev/mpb<SEG_ID> */
	__CMM_MP_SEG_MODE_MAX,
};

/*
 * CMM_MP_A_SEG_REDUNDANCY of a mirrored segment: both copies hold the
 * data; one copy is lost (its device failed or refused an access: I/O
 * goes on with the other one); the lost copy is being rebuilt from the
 * other one (writes go to both, reads to the whole one).
 */
enum cmm_mp_seg_redundancy {
	CMM_MP_SEG_MIRRORED = 1,
	CMM_MP_SEG_DEGRADED,
	CMM_MP_SEG_REBUILDING,
	__CMM_MP_SEG_REDUNDANCY_MAX,
};

/*
 * /dev/mps<N> (CMM_MP_SEG_MODE_DAX): read/write/pread/pwrite go to the
 * backing device at once; mmap caches pages (fetched on fault, written back
 * on msync/fsync, munmap + close and reclaim). MPS_IOC_INVALIDATE, the CXL
 * MemInv analogue, writes back the dirty cached pages of a range and drops
 * every cached page of it, so the next access fetches it again. @len 0
 * means to the end of the segment; @offset and @len are rounded out to
 * pages. Returns 0, -EINVAL beyond the segment, -EIO when the write-back
 * failed (the pages are dropped all the same).
 */
struct mps_range {
	__u64 offset;
	__u64 len;
};

#define MPS_IOC_MAGIC		0xc3
#define MPS_IOC_INVALIDATE	_IOW(MPS_IOC_MAGIC, 1, struct mps_range)

/*
 * The pool key (Documentation/security.rst), CAP_SYS_ADMIN; `mpctl key`.
 * No interface ever gives a key back.
 *
 * CMM_MP_KEY_SET     install the key under its id (replacing a key of the
 *                    same id) and sign every frame sent with it from now
 *                    on; the previous key stays accepted on receive
 * CMM_MP_KEY_ACCEPT  install the key for receiving only (the first step of
 *                    a rotation: every host accepts the new key before any
 *                    host signs with it)
 * CMM_MP_KEY_CLEAR   forget every key (wiped): frames go out without a tag
 *                    and tags are refused again
 */
enum cmm_mp_key_op {
	CMM_MP_KEY_SET = 1,
	CMM_MP_KEY_ACCEPT = 2,
	CMM_MP_KEY_CLEAR = 3,
};

#define CMM_MP_KEY_LEN	16	/* SipHash-2-4: 128-bit key */

/* A pool member as every device sees it (Documentation/pool.rst). */
enum cmm_mp_dev_state {
	CMM_MP_DEV_UP,		/* member of the current generation */
	CMM_MP_DEV_LOST,	/* known, but silent: its segments failed */
	__CMM_MP_DEV_STATE_MAX,
};

/* Where discovery stands (Documentation/pool.rst, "State machine"). */
enum cmm_mp_pool_state {
	CMM_MP_POOL_LOCAL,	/* no discovery: the local device alone */
	CMM_MP_POOL_DISCOVERY,	/* a round is running; data path closed */
	CMM_MP_POOL_RUNTIME,	/* every member computed the same PAMT */
	CMM_MP_POOL_CONFLICT,	/* duplicate chip ids: pool not formed */
	__CMM_MP_POOL_STATE_MAX,
};

#endif /* _UAPI_LINUX_CMM_MP_H */
