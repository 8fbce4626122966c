// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: device DRAM from a CXL memory region (cxl_region=regionN).
 *
 * The region is resolved into the same struct mp_range that mem= gives, and
 * dev.c then validates and claims it the same way; only the "set aside by the
 * firmware" test differs: a CXL range must lie inside a CXL Window.
 *
 * Where the region is: /proc/iomem shows it as "regionN" below its
 * "CXL Window N", but resource_lock is not exported, so a module cannot walk
 * iomem_resource's children by name safely, and walk_iomem_res_desc() passes
 * copies without names. The region's documented ABI is sysfs
 * (Documentation/ABI/testing/sysfs-bus-cxl): /sys/bus/cxl/devices/regionN/
 * {resource,size,commit}. We read those, then check the range with
 * walk_iomem_res_desc(IORES_DESC_CXL), which copies each match under
 * resource_lock: the range must be covered by public "CXL Window" resources.
 * Whether a driver (a pmem namespace, dax_kmem) already uses the region is
 * answered by request_mem_region() in dev.c: those drivers request the range
 * in iomem_resource, below the window.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cmm_mp.h"

#define MP_CXL_SYSFS	"/sys/bus/cxl/devices/"

/* Read one sysfs attribute of the region as an unsigned number. */
static int mp_cxl_attr(const char *region, const char *attr, u64 *val)
{
	char path[64], buf[32];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	snprintf(path, sizeof(path), MP_CXL_SYSFS "%s/%s", region, attr);
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	if (n < 0)
		return n;
	buf[n] = '\0';
	return kstrtoull(strim(buf), 0, val);
}

/**
 * mp_cxl_range() - the host physical range of a committed CXL region
 * @region: its name, "regionN"
 * @r: filled with the region's HPA base and size, kind MP_RANGE_CXL
 *
 * Return: 0, or a negative errno explained in the kernel log.
 */
int mp_cxl_range(const char *region, struct mp_range *r)
{
	u64 commit = 0;
	unsigned int id;
	char tail;
	int ret;

	if (sscanf(region, "region%u%c", &id, &tail) != 1) {
		pr_err("cxl_region=%s: expected a CXL region name, regionN\n",
		       region);
		return -EINVAL;
	}
	ret = mp_cxl_attr(region, "size", &r->size);
	if (ret == -ENOENT) {
		pr_err("cxl_region=%s: no such CXL region (see cxl list -R; is cxl_acpi loaded?)\n",
		       region);
		return -ENODEV;
	}
	if (!ret)
		ret = mp_cxl_attr(region, "resource", &r->base);
	if (!ret)
		ret = mp_cxl_attr(region, "commit", &commit);
	if (ret) {
		pr_err("cxl_region=%s: cannot read its sysfs attributes (%d)\n",
		       region, ret);
		return ret;
	}
	if (!r->size || !commit) {
		pr_err("cxl_region=%s: region has no committed address range (cxl create-region)\n",
		       region);
		return -ENXIO;
	}
	r->kind = MP_RANGE_CXL;
	return 0;
}
