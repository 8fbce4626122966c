/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Totals of a process's /proc/PID/smaps that tell how much of its memory is
 * identity mapped (DVM).  Pure string handling, used by libmp-dvm.so and by
 * mpctl, unit-tested in selftests/unit/test_dvm_smaps.c.
 */
#ifndef _DVM_SMAPS_H
#define _DVM_SMAPS_H

#include <stdbool.h>
#include <stdint.h>

struct dvm_smaps {
	uint64_t identity_bytes;	/* sum of "DvmIdentity:" */
	uint64_t id_area_bytes;		/* size of areas with "id" in VmFlags */
	uint64_t id_areas;		/* how many such areas */
	uint64_t anon_bytes;		/* sum of "Anonymous:" */
	uint64_t areas;			/* areas seen */
	/* parser state */
	uint64_t cur_size;		/* size of the current area */
	bool in_area;
};

void dvm_smaps_init(struct dvm_smaps *s);
int dvm_smaps_line(struct dvm_smaps *s, const char *line);

#endif /* _DVM_SMAPS_H */
