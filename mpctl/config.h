/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The persistent configuration of a cmm_mp host, /etc/cmm-mp/cmm-mp.conf:
 * what mpctl apply-config sets up at boot and mpctl check-config compares
 * with the running state. Pure parsing, no libmp, so it is unit-tested
 * alone (selftests/unit/test_mpctl_config.c). The grammar is in
 * Documentation/cmm-mp.conf.rst.
 */
#ifndef _MPCTL_CONFIG_H
#define _MPCTL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MPCTL_CONFIG_PATH	"/etc/cmm-mp/cmm-mp.conf"
#define MPCTL_CONFIG_SIZE_MAX	(64 * 1024)	/* bytes in a config file */
#define MPCTL_CONFIG_LINE_MAX	1024		/* bytes in one line */
#define MPCTL_CONFIG_ERR_MAX	512		/* room for an error message */
#define MPCTL_CONFIG_MEM_MAX	64		/* bytes of a mem= value */
#define MPCTL_IFNAMSIZ		16		/* as the kernel's IFNAMSIZ */

enum mpctl_zone {
	MPCTL_ZONE_MOVABLE,	/* online_movable: ZONE_MOVABLE (default) */
	MPCTL_ZONE_NORMAL,	/* online_kernel: ZONE_NORMAL */
};

/* What one segment should look like. */
struct mpctl_config_seg {
	uint32_t id;
	bool online;		/* online as System RAM, or kept offline */
	enum mpctl_zone zone;	/* when online */
	unsigned int line;	/* of the [segments ...] header naming it */
};

struct mpctl_config {
	/* [pool]: how to load cmm_mp (and the backend) */
	bool has_mem;
	char mem[MPCTL_CONFIG_MEM_MAX];	/* as written: cmm_mp mem= */
	uint64_t mem_base, mem_size;
	bool mem_pmem;			/* '!' (legacy pmem) rather than '$' */
	uint64_t seg_size;		/* 0: not given (module default) */
	bool has_chip_id;
	uint64_t chip_id;
	char backend[MPCTL_IFNAMSIZ];	/* mp_eth netdev=, "" when none */
	/* apply-config --segment (the udev rule's unit) acts: off by default */
	bool hotplug;

	/* [segments LIST] sections, one entry per segment, sorted by id */
	struct mpctl_config_seg *segs;
	size_t nr_segs;
};

int mpctl_config_parse(struct mpctl_config *c, const char *text, size_t len,
		       char *err, size_t errlen);
int mpctl_config_load(struct mpctl_config *c, const char *path, char *err,
		      size_t errlen);
void mpctl_config_free(struct mpctl_config *c);
const struct mpctl_config_seg *mpctl_config_find(const struct mpctl_config *c,
						 uint32_t id);
int mpctl_config_iomem_check(const struct mpctl_config *c, const char *iomem,
			     char *why, size_t len);
const char *mpctl_zone_name(enum mpctl_zone zone);

#endif /* _MPCTL_CONFIG_H */
