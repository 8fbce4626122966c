/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmm_mp: /dev/mps<N> (mps.c, the device and its file) and the page cache
 * behind its mappings (mps_cache.c).
 */
#ifndef _CMM_MP_MPS_H
#define _CMM_MP_MPS_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/mm.h>

struct mp_remote;

/* pages fetched or written back by one transfer */
#define MPS_BATCH	32
#define MPS_MAGIC	0x6d707364	/* "mpsd" */

/**
 * struct mps_dev - one /dev/mps<N>
 * @dev: the class device (/sys/class/mps/mpsN)
 * @cdev: the character device
 * @r: the mapping; NULL once mps_del() ran (under mps_lock)
 * @inode: owns the page cache of the segment
 * @minor: of @dev
 */
struct mps_dev {
	struct device dev;
	struct cdev cdev;
	struct mp_remote *r;
	struct inode *inode;
	int minor;
};

extern const struct vm_operations_struct mps_vm_ops;
struct inode *mps_inode(struct mps_dev *m, u64 size);
int mps_cache_init(void);
void mps_cache_exit(void);

#endif /* _CMM_MP_MPS_H */
