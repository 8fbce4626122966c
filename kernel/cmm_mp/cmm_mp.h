/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmm_mp: internal interfaces of the pool device driver.
 */
#ifndef _CMM_MP_H
#define _CMM_MP_H

#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <net/netlink.h>
#include <linux/cmm_mp.h>

#include "mp_names.h"
#include "mp_pamt.h"
#include "mp_seg.h"

#define MP_NAME_LEN		16
#define MP_RES_NAME_LEN		32
/* Sharers travel as a bitmap of device ids (mp_backend_ops.own). */
#define MP_OWN_MAX_SHARERS	16

struct mp_dev;
struct mp_remote;
struct mp_remote_leg;
struct netlink_ext_ack;
struct notifier_block;

/**
 * struct mp_seg - one Memory Pool Segment
 * @id: pool-wide index
 * @phys: host physical address of the segment (local segments)
 * @size: bytes
 * @state: enum cmm_mp_seg_state; written under mp_dev.lock, read locklessly
 * @owner: chip id of the owning device, 0 for none; arbitrated under
 *	mp_dev.mem_lock (backend.c, mp_local_own()). Chip ids, not device
 *	ids: a device id is a rank that a newcomer may take over
 * @sharer: chip ids of the devices sharing it (sharing mode), under
 *	mp_dev.mem_lock; never together with @owner
 * @nr_sharers: entries of @sharer
 * @partner: chip id of the device of the segment that keeps the other
 *	copy when @owner holds this one as a mirror copy, 0 for none; kept
 *	with @owner (set by its claim, gone with it), under mem_lock
 * @partner_seg: that segment's index on its device
 * @zeroing: being wiped: nobody may access it, a claim waits
 * @zero_link: in mp_dev.zero_list until its wipe starts, under mem_lock
 * @dirty: may hold what a former holder (or anyone, in an open segment)
 *	wrote: wiped before it is handed to anyone
 * @res: claim of the range while online
 * @mgid: memory group id while online
 * @memmap_on_memory: online with its memmap taken from itself
 * @res_name: name of @res as shown in /proc/iomem
 * @sdev: its device, mpN.M on the cmm_mp bus (sysfs.c; allocated: a
 *	device may outlive us)
 * @dev: the device backing this segment
 */
struct mp_seg {
	u32 id;
	u64 phys;
	u64 size;
	u32 state;
	u64 owner;
	u64 sharer[MP_OWN_MAX_SHARERS];
	u32 nr_sharers;
	u64 partner;
	u32 partner_seg;
	bool zeroing;
	struct list_head zero_link;
	bool dirty;
	struct resource *res;
	int mgid;
	bool memmap_on_memory;
	char res_name[MP_RES_NAME_LEN];
	struct device *sdev;
	struct mp_dev *dev;
};

/**
 * struct mp_dev - a pool device and its DRAM
 * @id: device id in the pool (rank of the chip id among the members)
 * @name: "mp0"
 * @chip_id: unique chip id
 * @chip_id_param: @chip_id was given as a module parameter
 * @geo: DRAM range and segment geometry
 * @pool_offset: normalized host address of the first byte of this DRAM
 * @nid: NUMA node of the DRAM
 * @res: claim of the whole DRAM range, a parent for the segment claims
 * @lock: serializes segment state changes
 * @va: the DRAM mapped write-back, for serving remote requests (backend.c)
 * @mem_lock: makes each remote access atomic; segments enter
 *	CMM_MP_SEG_BUSY under it
 * @zero_list: segments waiting for their wipe (own.c), under @mem_lock
 * @members: chip id of each device id of the current pool (@id is ours),
 *	to name holders by device id; under @mem_lock
 * @nr_members: entries of @members
 * @member_segs: segments of each device id, to check a claim's partner
 * @segs: @geo.nr_segs segments
 * @mtype: memory tier type of @nid (slower than DRAM, as dax_kmem)
 * @device: class device in /sys/class/cmm_mp
 * @segs_kobj: the "segments" directory under @device
 * @pool_state: enum cmm_mp_pool_state, under @lock
 * @first_seg: pool-wide number of our segment 0 (PAMT), under @lock
 * @pamt: the pool map of the current generation, valid in
 *	CMM_MP_POOL_RUNTIME; under @lock
 * @map_seq: counts the changes of @pool_state, @first_seg and @pamt,
 *	never 0: a netlink dump that spans one sees its numbers change
 *	(NLM_F_DUMP_INTR, netlink.c); under @lock
 * @remote: struct mp_remote of the segments mapped on this host as
 *	/dev/mps or /dev/mpb, by pool-wide segment number; changed under
 *	@lock (remote.c)
 */
struct mp_dev {
	u32 id;
	char name[MP_NAME_LEN];
	u64 chip_id;
	bool chip_id_param;
	struct mp_geometry geo;
	u64 pool_offset;
	int nid;
	struct resource *res;
	struct mutex lock;	/* serializes segment state changes */
	void *va;
	spinlock_t mem_lock;	/* one remote access at a time */
	struct list_head zero_list;
	u64 members[MP_PAMT_MAX_DEVS];
	u32 nr_members;
	u32 member_segs[MP_PAMT_MAX_DEVS];
	struct mp_seg *segs;
	struct memory_dev_type *mtype;
	struct device *device;
	struct kobject *segs_kobj;
	u32 pool_state;
	u32 first_seg;
	struct mp_pamt pamt;
	u32 map_seq;
	struct xarray remote;
};

/* mp_seg_online(): the mode that fits (System RAM here, dax elsewhere) */
#define MP_SEG_MODE_AUTO	U32_MAX

/* mp_seg_online() flags */
#define MP_SEG_SHARED			BIT(0)	/* sharing mode (dax, blk) */
#define MP_SEG_MEMMAP_ON_MEMORY		BIT(1)	/* System RAM: memmap on it */

struct mp_seg_ops;

/**
 * struct mp_seg_target - a segment on its way up or down (seg.c)
 * @d: the pool device
 * @id: pool-wide segment number
 * @local: the segment, when it is one of the local device
 * @ops: the mode it is brought up in, or is taken down from
 * @devid: its backing device
 * @idx: its index there
 * @shared: sharing mode
 * @memmap_on_memory: System RAM: take the memmap from the segment itself
 * @mirror: dax, blk: the segment that keeps the second copy, or NULL
 */
struct mp_seg_target {
	struct mp_dev *d;
	u32 id;
	struct mp_seg *local;
	const struct mp_seg_ops *ops;
	u32 devid;
	u32 idx;
	bool shared;
	bool memmap_on_memory;
	const struct mp_seg_target *mirror;
};

/**
 * struct mp_seg_ops - one way of using a segment on this host
 * @mode: enum cmm_mp_seg_mode; its name (sysfs "mode", uevent
 *	MP_SEG_MODE, mpctl) is cmm_mp_seg_mode_name()'s
 * @any_device: a segment of another device fits too, not only ours
 * @shareable: may be online in sharing mode
 * @node: prefix of the device node ("mps": /dev/mps<N>), NULL for none
 * @online: bring @t up, once its backing device gave it to this host;
 *	the pool device's lock held; 0 or -errno, nothing changed then
 * @offline: take @t down, the same way; before it is given back
 * @add: modes with a device node: create it for mapping @r
 * @del: remove it
 */
struct mp_seg_ops {
	u32 mode;
	bool any_device;
	bool shareable;
	const char *node;
	int (*online)(const struct mp_seg_target *t,
		      struct netlink_ext_ack *extack);
	int (*offline)(const struct mp_seg_target *t,
		       struct netlink_ext_ack *extack);
	int (*add)(struct mp_remote *r);
	void (*del)(struct mp_remote *r);
};

/**
 * struct mp_seg_use - how a segment is used on this host (mp_seg_usage())
 * @mode: enum cmm_mp_seg_mode
 * @shared: mapped here in sharing mode, or else held by sharers
 * @devnode: "/dev/mps5", "" for none
 * @mirror: the segment of the other copy of a mirrored mapping, else
 *	CMM_MP_NONE
 * @redundancy: enum cmm_mp_seg_redundancy of a mirrored mapping, else 0
 * @rebuilt: bytes of its lost copy rebuilt so far
 */
struct mp_seg_use {
	u32 mode;
	bool shared;
	char devnode[32];
	u32 mirror;
	u32 redundancy;
	u64 rebuilt;
};

/* main.c: segments open to every member while unheld (a test area) */
extern unsigned int mp_open_segs;

/* cxl.c */
int mp_cxl_range(const char *region, struct mp_range *r);

/* dax.c: a dax bus driver "cmm_mp" (only with the drivers/dax headers) */
#ifdef CMM_MP_DAX
#define MP_HAVE_DAX	true
int mp_dax_init(u64 seg_size, u64 chip_id);
void mp_dax_exit(void);
#else
#define MP_HAVE_DAX	false
static inline int mp_dax_init(u64 seg_size, u64 chip_id)
{
	return -EOPNOTSUPP;
}

static inline void mp_dax_exit(void)
{
}
#endif

/* dev.c */
struct mp_dev *mp_dev_create(const char *mem, const char *cxl_region,
			     u64 seg_size, u64 chip_id);
struct mp_dev *mp_dev_create_range(const struct mp_range *r,
				   const char *arg, int nid, u64 seg_size,
				   u64 chip_id);
void mp_dev_destroy(struct mp_dev *d);
int mp_dev_srcu_lock(void);
void mp_dev_srcu_unlock(int idx);
struct mp_dev *mp_dev_get_default(void);
void mp_dev_set_default(struct mp_dev *d);
bool mp_dev_in_use(struct mp_dev *d);
struct mp_seg *mp_dev_seg(struct mp_dev *d, u32 id);

/* pool.c */
int mp_pool_notifier_register(struct notifier_block *nb);
void mp_pool_notifier_unregister(struct notifier_block *nb);
bool mp_pool_runtime(const struct mp_dev *d);
u32 mp_seg_pool_id(const struct mp_seg *s);
void mp_pool_reset(struct mp_dev *d);

/* backend.c */
bool mp_backend_active(void);

/* own.c */
void mp_own_flush(void);
int mp_seg_sharer(const struct mp_seg *s, u64 src);
u32 mp_seg_holders(struct mp_dev *d, struct mp_seg *s, u32 *sharers);
u32 mp_seg_partner(struct mp_dev *d, struct mp_seg *s, u32 *pseg);
void mp_seg_wipe(struct mp_dev *d, struct mp_seg *s);
void mp_dev_set_members(struct mp_dev *d, const struct mp_pamt *t);

/* remote.c: segments mapped as /dev/mps or /dev/mpb (remote.h) */
int mp_remote_map(const struct mp_seg_target *t,
		  struct netlink_ext_ack *extack);
int mp_remote_unmap(const struct mp_seg_target *t,
		    struct netlink_ext_ack *extack);
struct mp_remote *mp_remote_find(struct mp_dev *d, u32 seg);
int mp_remote_devnode(struct mp_remote *r, char *buf, size_t len);
u32 mp_remote_state(struct mp_remote *r, const struct mp_remote_leg *leg,
		    u32 *owner);
int mp_remote_init(void);
void mp_remote_exit(void);

/* events.c: who hears of segment changes */
enum mp_seg_event {
	MP_SEG_EV_LOCAL,	/* a segment of the local device: struct mp_seg */
	MP_SEG_EV_MAPPING,	/* a mapping's copies: struct mp_remote */
	MP_SEG_EV_MAPPED,	/* a mapping made, or a copy moved: mp_remote */
	MP_SEG_EV_UNMAPPED,	/* a mapping about to go: struct mp_remote */
};

int mp_seg_notifier_register(struct notifier_block *nb);
void mp_seg_notifier_unregister(struct notifier_block *nb);
int mp_seg_notify(unsigned long event, void *data);

/* hold.c: asking a backing device for a segment */
struct mp_own_info;
int mp_hold_ask(struct mp_dev *d, u32 devid, u32 cmd, u32 idx,
		struct mp_own_info *oi, struct netlink_ext_ack *extack);
int mp_hold_give_back(struct mp_dev *d, u32 devid, u32 idx, bool shared);
int mp_hold_claim_pair(struct mp_dev *d, u32 devid, u32 idx, u32 pdev,
		       u32 pidx, struct netlink_ext_ack *extack);

/* seg.c: the segment core */
extern const struct mp_seg_ops mp_seg_ram_ops;
extern const struct mp_seg_ops mp_seg_dax_ops;
extern const struct mp_seg_ops mp_seg_blk_ops;
int mp_seg_find(struct mp_dev *d, u32 id, struct mp_seg **local);
int mp_seg_where(struct mp_dev *d, u32 id, u32 *devid, u32 *idx);
u32 mp_seg_state(struct mp_seg *s, u32 *owner, u32 *sharers);
u32 mp_seg_remote_holders(struct mp_dev *d, u32 id, u32 *sharers,
			  u32 *partner);
u32 mp_seg_pair_id(struct mp_dev *d, u32 pdev, u32 pseg);
u32 mp_seg_local_pair(struct mp_seg *s);
u32 mp_seg_remote_state(struct mp_dev *d, u32 id, u32 owner, u32 sharers,
			u32 *devid, u64 *nha);
bool mp_seg_usage(struct mp_dev *d, u32 id, u32 sharers, u32 partner,
		  struct mp_seg_use *u);
int mp_seg_online(struct mp_dev *d, u32 id, u32 mode, u32 flags, u32 mirror,
		  struct netlink_ext_ack *extack);
int mp_seg_offline(struct mp_dev *d, u32 id, struct netlink_ext_ack *extack);

/* seg.c, for seg_repair.c */
void mp_seg_changed(struct mp_seg *s);
int mp_seg_place(struct mp_dev *d, struct mp_seg_target *t,
		 struct netlink_ext_ack *extack);
int mp_seg_replace(struct mp_dev *d, struct mp_seg_target *t, u32 devid,
		   u32 idx, struct netlink_ext_ack *extack);
int mp_seg_leg_devid(struct mp_dev *d, const struct mp_remote_leg *leg);

/* seg_repair.c */
int mp_seg_repair(struct mp_dev *d, u32 id, u32 to,
		  struct netlink_ext_ack *extack);

/* mps.c */
int mp_mps_init(void);
void mp_mps_exit(void);

/* seg_ram.c */
void mp_seg_blocks_state(const struct mp_seg *s, u32 *online, u32 *movable);

/* netlink.c */
int mp_nl_init(void);
void mp_nl_exit(void);

/* sysfs.c */
int mp_sysfs_init(void);
void mp_sysfs_exit(void);
int mp_sysfs_add_dev(struct mp_dev *d);
void mp_sysfs_del_dev(struct mp_dev *d);

#endif /* _CMM_MP_H */
