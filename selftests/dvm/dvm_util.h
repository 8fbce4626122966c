/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the DVM selftests: the prctl ABI, /proc/self/pagemap,
 * /proc/vmstat counters, /proc/meminfo, /proc/self/smaps, vm.dvm_min_bytes.
 */
#ifndef DVM_UTIL_H
#define DVM_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* Headers from before the DVM series (the numbers are the kernel's ABI). */
#ifndef PR_SET_DVM
#define PR_SET_DVM		0x44564d53
#define PR_GET_DVM		0x44564d47
#define PR_DVM_OFF		0
#define PR_DVM_ON		1
#define PR_DVM_INHERIT		2	/* keep across execve() */
#endif

#define KIB		1024UL
#define MIB		(1024 * KIB)
#define GIB		(1024 * MIB)
#define DVM_PAGE	4096UL
/* Largest buddy block on x86-64 (MAX_ORDER - 1 == 10): 4 MiB */
#define DVM_MAX_BUDDY	(4 * MIB)

#ifndef DVM_SYSCTL_MIN_BYTES
#define DVM_SYSCTL_MIN_BYTES	"/proc/sys/vm/dvm_min_bytes"
#endif

static inline int dvm_set(int mode)
{
	return prctl(PR_SET_DVM, mode, 0, 0, 0);
}

static inline int dvm_get(void)
{
	return prctl(PR_GET_DVM, 0, 0, 0, 0);
}

static inline void *map_anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* ---- /proc/self/pagemap ------------------------------------------------ */

#define PM_PRESENT	0x8000000000000000ULL
#define PM_PFN_MASK	0x007fffffffffffffULL

static inline uint64_t pagemap_entry(const void *va)
{
	static int fd = -1;
	uint64_t e = 0;

	if (fd < 0)
		fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0 || pread(fd, &e, sizeof(e),
			    (uintptr_t)va / DVM_PAGE * sizeof(e)) != sizeof(e))
		return 0;
	return e;
}

/* Is the page at @va present with PFN * page size == @va? */
static inline bool page_is_identity(const void *va)
{
	uint64_t e = pagemap_entry(va);

	return (e & PM_PRESENT) &&
	       (e & PM_PFN_MASK) * DVM_PAGE == (uintptr_t)va;
}

/* Pages in [p, p + len) that are not identity mapped. */
static inline size_t count_nonidentity(const void *p, size_t len)
{
	size_t o, n = 0;

	for (o = 0; o < len; o += DVM_PAGE)
		n += !page_is_identity((const char *)p + o);
	return n;
}

/* Pages in [p, p + len) that are identity mapped. */
static inline size_t count_identity(const void *p, size_t len)
{
	return len / DVM_PAGE - count_nonidentity(p, len);
}

/* Pages in [p, p + len) that are present. */
static inline size_t count_present(const void *p, size_t len)
{
	size_t o, n = 0;

	for (o = 0; o < len; o += DVM_PAGE)
		n += !!(pagemap_entry((const char *)p + o) & PM_PRESENT);
	return n;
}

/* ---- /proc/vmstat, /proc/meminfo, sysctl --------------------------------- */

static inline long read_keyed(const char *path, const char *key)
{
	char line[256], name[128];
	long val, ret = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127[^: ]%*[: ]%ld", name, &val) == 2 &&
		    !strcmp(name, key)) {
			ret = val;
			break;
		}
	}
	fclose(f);
	return ret;
}

static inline long vmstat_read(const char *key)
{
	return read_keyed("/proc/vmstat", key);
}

static inline long meminfo_kb(const char *key)
{
	return read_keyed("/proc/meminfo", key);
}

struct dvm_counters {
	long maps, pages, nocontig, vabusy, populate, contig;
};

static inline void dvm_counters(struct dvm_counters *c)
{
	c->maps = vmstat_read("dvm_identity_maps");
	c->pages = vmstat_read("dvm_identity_pages");
	c->nocontig = vmstat_read("dvm_fallback_nocontig");
	c->vabusy = vmstat_read("dvm_fallback_vabusy");
	c->populate = vmstat_read("dvm_fallback_populate");
	c->contig = vmstat_read("dvm_alloc_contig");
}

/* b - a, field by field */
static inline struct dvm_counters dvm_delta(const struct dvm_counters *a,
					    const struct dvm_counters *b)
{
	struct dvm_counters d = {
		b->maps - a->maps, b->pages - a->pages,
		b->nocontig - a->nocontig, b->vabusy - a->vabusy,
		b->populate - a->populate, b->contig - a->contig,
	};
	return d;
}

/*
 * Free memory in KiB including the pages parked on per-CPU free lists,
 * which MemFree leaves out (tens of MiB after heavy freeing).
 */
static inline long free_kb_with_pcp(void)
{
	long pcp = 0, v;
	char line[256];
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " count: %ld", &v) == 1)
			pcp += v;
	fclose(f);
	return meminfo_kb("MemFree") + pcp * (long)(DVM_PAGE / KIB);
}

/* Defragment free memory, so that tests needing contiguity can rely on it. */
static inline void defrag_memory(void)
{
	FILE *f = fopen("/proc/sys/vm/compact_memory", "w");

	if (f) {
		fputs("1\n", f);
		fclose(f);
	}
}

static inline long sysctl_read(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static inline int sysctl_write(const char *path, long v)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%ld\n", v) > 0 ? 0 : -1;
	if (fclose(f))
		ret = -1;
	return ret;
}

/* ---- /proc/self/smaps ------------------------------------------------------ */

struct smaps_vma {
	unsigned long start, end;
	char vmflags[512];
	long dvm_identity_kb;	/* -1: no DvmIdentity line */
};

/* Fill @v for the VMA that contains @addr; false if there is none. */
static inline bool smaps_find(const void *addr, struct smaps_vma *v)
{
	unsigned long a = (unsigned long)addr, s, e;
	char line[512];
	bool in = false, found = false;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return false;
	memset(v, 0, sizeof(*v));
	v->dvm_identity_kb = -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &s, &e) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			if (found)
				break;
			in = a >= s && a < e;
			if (in) {
				found = true;
				v->start = s;
				v->end = e;
			}
			continue;
		}
		if (!in)
			continue;
		if (!strncmp(line, "VmFlags:", 8)) {
			snprintf(v->vmflags, sizeof(v->vmflags), "%s",
				 line + 8);
			v->vmflags[strcspn(v->vmflags, "\n")] = 0;
		} else if (!strncmp(line, "DvmIdentity:", 12)) {
			v->dvm_identity_kb = strtol(line + 12, NULL, 10);
		}
	}
	fclose(f);
	return found;
}

static inline bool vmflags_has(const struct smaps_vma *v, const char *fl)
{
	const char *p = v->vmflags;
	size_t n = strlen(fl);

	while ((p = strstr(p, fl))) {
		if ((p == v->vmflags || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == 0))
			return true;
		p += n;
	}
	return false;
}

/* ---- misc ----------------------------------------------------------------- */

static inline double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline void fill_pattern(void *p, size_t len, uint64_t seed)
{
	uint64_t *q = p;
	size_t i;

	for (i = 0; i < len / sizeof(*q); i++)
		q[i] = seed ^ (i * 0x9e3779b97f4a7c15ULL);
}

/*
 * Check [base + off, base + off + len) against fill_pattern(base, ..., seed):
 * index of the first word that does not match, or -1.
 */
static inline long check_pattern_at(const void *base, size_t off, size_t len,
				    uint64_t seed)
{
	const uint64_t *q = (const uint64_t *)((const char *)base + off);
	size_t i, i0 = off / sizeof(*q);

	for (i = 0; i < len / sizeof(*q); i++)
		if (q[i] != (seed ^ ((i0 + i) * 0x9e3779b97f4a7c15ULL)))
			return i;
	return -1;
}

static inline long check_pattern(const void *p, size_t len, uint64_t seed)
{
	return check_pattern_at(p, 0, len, seed);
}

static inline bool all_zero(const void *p, size_t len)
{
	const uint64_t *q = p;
	size_t i;

	for (i = 0; i < len / sizeof(*q); i++)
		if (q[i])
			return false;
	return true;
}

#endif /* DVM_UTIL_H */
