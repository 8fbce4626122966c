/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the DVM test programs that run in the guest share: their TAP points
 * (dvm_accel, dvm_reidentify) and the free memory of /proc/meminfo
 * (dvm_reidentify, dvm_heap's dvm_frag).
 */
#ifndef _DVM_PROG_H
#define _DVM_PROG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "util/util.h"

/* TAP points printed, and how many of them failed */
static int tests_run __attribute__((unused));
static int tests_failed __attribute__((unused));

static inline __printf(2, 3) void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++tests_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		tests_failed++;
}

/* MemFree in MiB, or -1 */
static inline long memfree_mib(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb / 1024;
}

#endif /* _DVM_PROG_H */
