// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: memory pool device (software CMM-MP) - module entry.
 *
 * The device DRAM is a physical range the firmware was told to leave alone
 * (memmap=SIZE$BASE). It is cut into segments that can be onlined as System
 * RAM on the range's own (CPU-less) NUMA node, the way CXL memory appears.
 *
 * Where the DRAM comes from, one pool device per module:
 *   mem=SIZE$BASE	a memmap= range, mp0 exists from load to unload
 *   cxl_region=regionN	a committed CXL region (cxl.c), likewise
 *   neither		the dax bus driver "cmm_mp" (dax.c): mp0 comes and
 *			goes with the dax device bound to it
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sizes.h>

#include "cmm_mp.h"

static char *mem;
module_param(mem, charp, 0444);
MODULE_PARM_DESC(mem, "device DRAM in memmap grammar: SIZE$BASE or SIZE!BASE, e.g. 256M$0x70000000");

static char *cxl_region;
module_param(cxl_region, charp, 0444);
MODULE_PARM_DESC(cxl_region, "device DRAM from a committed CXL region instead of mem=, e.g. region0 (neither: a dax device bound to the dax driver cmm_mp)");

static unsigned long long seg_size = SZ_128M;
module_param(seg_size, ullong, 0444);
MODULE_PARM_DESC(seg_size, "segment size in bytes, a multiple of the memory block size (default 128 MiB)");

static unsigned long long chip_id;
module_param(chip_id, ullong, 0444);
MODULE_PARM_DESC(chip_id, "unique chip id (default: the backend port's MAC address as a number; random until a backend starts)");

/*
 * A segment nobody holds answers no member: its last holder's data is
 * wiped, and a stranger cannot seed it. The transport's own tests and
 * their barriers need memory every member may use without holding it:
 * they opt in to the first open_segs segments (Documentation/security.rst).
 */
unsigned int mp_open_segs;
module_param_named(open_segs, mp_open_segs, uint, 0444);
MODULE_PARM_DESC(open_segs, "the first N segments may be read and written by every pool member while nobody holds them: a test area for the transport's tests, never for data (default 0)");

static struct mp_dev *mp_dev0;
static bool mp_dax_mode;

static int __init cmm_mp_init(void)
{
	int ret;

	if (mem && cxl_region) {
		pr_err("device DRAM given twice: load with either mem=SIZE$BASE (a memmap= reserved range) or cxl_region=regionN\n");
		return -EINVAL;
	}
	mp_dax_mode = !mem && !cxl_region;
	if (mp_dax_mode && !MP_HAVE_DAX) {
		pr_err("no device DRAM given: load with mem=SIZE$BASE (a memmap= reserved range) or cxl_region=regionN (this build has no dax driver)\n");
		return -EINVAL;
	}

	ret = mp_remote_init();
	if (ret)
		return ret;
	ret = mp_sysfs_init();
	if (ret)
		goto err_remote;

	if (!mp_dax_mode) {
		mp_dev0 = mp_dev_create(mem, cxl_region, seg_size, chip_id);
		if (IS_ERR(mp_dev0)) {
			ret = PTR_ERR(mp_dev0);
			goto err_sysfs;
		}
		ret = mp_sysfs_add_dev(mp_dev0);
		if (ret) {
			mp_dev_destroy(mp_dev0);
			goto err_sysfs;
		}
		mp_dev_set_default(mp_dev0);
	}

	ret = mp_mps_init();
	if (ret)
		goto err_dev;
	ret = mp_nl_init();
	if (ret)
		goto err_mps;
	/* last: a dax device may be bound, and mp0 used, from here on */
	if (mp_dax_mode) {
		ret = mp_dax_init(seg_size, chip_id);
		if (ret)
			goto err_nl;
	}
	return 0;

err_nl:
	mp_nl_exit();
err_mps:
	mp_mps_exit();
err_dev:
	if (mp_dev0) {
		mp_dev_set_default(NULL);
		mp_sysfs_del_dev(mp_dev0);
		mp_dev_destroy(mp_dev0);
	}
err_sysfs:
	mp_sysfs_exit();
err_remote:
	mp_remote_exit();
	return ret;
}

/*
 * Every online segment (System RAM, /dev/mps, /dev/mpb) holds a reference
 * on the module, so we only get here with all segments offline: no memory
 * is left behind.
 */
static void __exit cmm_mp_exit(void)
{
	if (mp_dax_mode)
		mp_dax_exit();
	mp_nl_exit();
	mp_mps_exit();
	mp_own_flush();
	if (mp_dev0) {
		mp_dev_set_default(NULL);
		mp_sysfs_del_dev(mp_dev0);
		mp_dev_destroy(mp_dev0);
	}
	mp_sysfs_exit();
	mp_remote_exit();
}

module_init(cmm_mp_init);
module_exit(cmm_mp_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("cmm-mp developers");
MODULE_DESCRIPTION("CXL/Ethernet memory pool device (software CMM-MP)");
