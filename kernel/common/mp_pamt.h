/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pool Address Map Table (CMM-MP section III-A).
 *
 * Every device learns the same member list (chip id, capacity, MAC) in
 * discovery. Device ids are the ranks of the sorted, unique chip ids; the
 * devices' capacities, in device id order, are laid end to end in the
 * normalized host address (NHA) space. Every device computes the same
 * table from the same list, so no one has to distribute it.
 */
#ifndef _CMM_MP_COMMON_PAMT_H
#define _CMM_MP_COMMON_PAMT_H

#include "mp_types.h"

/*
 * The largest pool a table holds: a rack (issue 28). Nothing keeps an
 * array of this size on the stack, so a build may raise it further (the
 * simulator and the unit tests). The kernel's modules share struct
 * mp_pamt, so they must agree on it; mp_eth's max_devs parameter sizes
 * what it allocates below this.
 */
#ifndef MP_PAMT_MAX_DEVS
#define MP_PAMT_MAX_DEVS	1024
#endif

struct mp_member {
	u64 chip_id;
	u64 capacity;		/* bytes of DRAM the device gives the pool */
	u8 mac[6];
};

/**
 * struct mp_pamt_entry - one device's range of the pool
 * @valid: the device is a member of the current generation
 * @chip_id: its chip id
 * @nha: first normalized host address it backs (the device pool offset)
 * @size: bytes it backs
 * @first_seg: its first segment in pool-wide numbering
 * @nr_segs: its segments
 * @mac: its backend port's MAC address
 */
struct mp_pamt_entry {
	bool valid;
	u64 chip_id;
	u64 nha;
	u64 size;
	u32 first_seg;
	u32 nr_segs;
	u8 mac[6];
};

struct mp_pamt {
	u32 generation;
	u32 nr_devs;
	u64 seg_size;
	u64 pool_size;
	u32 nr_segs;
	struct mp_pamt_entry dev[MP_PAMT_MAX_DEVS];
};

int mp_pamt_build(struct mp_pamt *t, const struct mp_member *m, u32 n,
		  u64 seg_size, u32 generation);
int mp_pamt_layout(struct mp_pamt *t, u32 n, u64 seg_size, u32 generation);
int mp_pamt_devid_of(const struct mp_pamt *t, u64 chip_id);
int mp_pamt_resolve(const struct mp_pamt *t, u64 nha, u32 *devid,
		    u64 *offset, u64 *room);
int mp_pamt_seg(const struct mp_pamt *t, u32 seg, u32 *devid, u64 *nha,
		u64 *offset);
bool mp_pamt_equal(const struct mp_pamt *a, const struct mp_pamt *b);

#endif /* _CMM_MP_COMMON_PAMT_H */
