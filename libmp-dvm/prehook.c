// SPDX-License-Identifier: GPL-2.0
/*
 * Memory jemalloc obtained before the DVM hooks were installed (its first
 * chunks, mapped MAP_NORESERVE with its default hooks) must not come back
 * into use: an object allocated there early and freed later would be
 * handed out again by the next malloc() of its size, in any thread, and
 * that object would not be identity mapped.  So free() and realloc() are
 * interposed: an object in one of the anonymous areas that existed before
 * the hooks is never given back to jemalloc (it stays allocated; these are
 * the few objects made while the process started).  Everything else goes
 * to jemalloc as usual.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jemalloc/jemalloc.h>

#include "mp_dvm.h"

#define MAX_RANGES	32

static struct {
	uintptr_t lo, hi;
} ranges[MAX_RANGES];
static unsigned int nr_ranges;
static uintptr_t all_lo = UINTPTR_MAX, all_hi;

/*
 * Note the anonymous private areas that exist now, before the hooks:
 * jemalloc's first chunks are among them.
 */
void mp_dvm_prehook_capture(void)
{
	unsigned long long lo, hi, off, inode;
	char line[512], perms[8], dev[16];
	int n;
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && nr_ranges < MAX_RANGES) {
		n = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %15s %llu %n", &lo, &hi, perms,
			   &off, dev, &inode, &n) < 6 || !n)
			continue;
		/* no name: not a file, not [stack], [heap] or [vdso] */
		if (inode || strncmp(perms, "rw-p", 4) ||
		    (line[n] && line[n] != '\n'))
			continue;
		ranges[nr_ranges].lo = lo;
		ranges[nr_ranges].hi = hi;
		nr_ranges++;
		if (lo < all_lo)
			all_lo = lo;
		if (hi > all_hi)
			all_hi = hi;
	}
	fclose(f);
}

static bool is_prehook(const void *p)
{
	uintptr_t a = (uintptr_t)p;
	unsigned int i;

	if (a < all_lo || a >= all_hi)
		return false;
	for (i = 0; i < nr_ranges; i++)
		if (a >= ranges[i].lo && a < ranges[i].hi)
			return true;
	return false;
}

static bool keep(void *p)
{
	if (!is_prehook(p))
		return false;
	mp_dvm_stats_add(&mp_dvm_stats->prehook_frees, 1);
	return true;
}

__attribute__((visibility("default")))
void free(void *p)
{
	if (p && !keep(p))
		dallocx(p, 0);
}

__attribute__((visibility("default")))
void *realloc(void *p, size_t size)
{
	size_t old;
	void *q;

	if (!p)
		return malloc(size);
	if (!size) {
		free(p);
		return NULL;
	}
	if (!is_prehook(p)) {
		q = rallocx(p, size, 0);
		if (!q)
			errno = ENOMEM;
		return q;
	}
	/* move it out, and keep the old one */
	q = malloc(size);
	if (!q)
		return NULL;
	old = malloc_usable_size(p);
	memcpy(q, p, old < size ? old : size);
	keep(p);
	return q;
}
