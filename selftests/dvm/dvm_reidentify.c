// SPDX-License-Identifier: GPL-2.0
/*
 * dvm_reidentify: identity re-establishment (PR_DVM_REIDENTIFY, patch
 * 0008 of the DVM series) in a guest, checked from the outside.
 *
 *	dvm_reidentify [MIB]
 *
 * Maps MIB (default 64) MiB in DVM mode on unfragmented memory (identity
 * share from /proc/self/pagemap), then has dvm_frag fragment memory and
 * maps it again: it falls back, placed to become identity later ("ip"),
 * and gets a pattern.  A second buffer is filled by /dev/dvm_accel from
 * the first (translated accesses).  Both ranges must lie in ZONE_MOVABLE
 * (the guest boots with movablecore=): there no unmovable allocation can
 * come into them, so once memory is free they must come into place.
 * dvm_frag then gives its memory back.
 * With a page of each buffer's physical range held by a pipe (vmsplice),
 * PR_DVM_REIDENTIFY fails with EBUSY and takes nothing; with the pipe
 * closed, it moves both buffers into place: every page identity mapped,
 * every byte intact, and the accelerator, whose table follows through its
 * mmu notifier, copies again validating every access by a Permission
 * Entry.
 * Prints TAP and a "# raw:" line with the coverage numbers.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include <linux/dvm_accel.h>
#include <linux/dvm.h>

#include "dvm_prog.h"

#define MiB	(1024UL * 1024)
#define PAGE	4096UL
#define NPOINTS	13

static void bail(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Pages of [p, p + len) mapped at PA == VA */
static size_t identity_pages(int pm, const char *p, size_t len)
{
	static uint64_t e[4096];
	size_t o, i, n, id = 0;

	for (o = 0; o < len; o += n * PAGE) {
		n = (len - o) / PAGE < 4096 ? (len - o) / PAGE : 4096;
		if (pread(pm, e, n * 8, (uintptr_t)(p + o) / PAGE * 8) !=
		    (ssize_t)(n * 8))
			return id;
		for (i = 0; i < n; i++)
			id += (e[i] >> 63) && (e[i] & ((1ULL << 55) - 1)) ==
			      (uintptr_t)(p + o) / PAGE + i;
	}
	return id;
}

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * a / b : 0;
}

static void fill(uint64_t *q, size_t len, uint64_t seed)
{
	size_t i;

	for (i = 0; i < len / 8; i++)
		q[i] = seed ^ (i * 0x9e3779b97f4a7c15ULL);
}

/* Words of @q that differ from fill(@seed) */
static size_t bad_words(const uint64_t *q, size_t len, uint64_t seed)
{
	size_t i, bad = 0;

	for (i = 0; i < len / 8; i++)
		bad += q[i] != (seed ^ (i * 0x9e3779b97f4a7c15ULL));
	return bad;
}

static long vmstat_read(const char *key)
{
	char name[128];
	long v, ret = -1;
	FILE *f = fopen("/proc/vmstat", "re");

	if (!f)
		return -1;
	while (fscanf(f, "%127s %ld", name, &v) == 2)
		if (!strcmp(name, key))
			ret = v;
	fclose(f);
	return ret;
}

/* VmFlags of the VMA at @p has @fl */
static bool vmflag(const void *p, const char *fl)
{
	unsigned long s, e, a = (uintptr_t)p;
	char line[512];
	bool in = false, has = false;
	FILE *f = fopen("/proc/self/smaps", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &s, &e) == 2 && strchr(line, '-') &&
		    strchr(line, ' ') > strchr(line, '-')) {
			in = a >= s && a < e;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			char want[8];

			snprintf(want, sizeof(want), " %s ", fl);
			line[strcspn(line, "\n")] = ' ';
			has = strstr(line + 7, want);
			break;
		}
	}
	fclose(f);
	return has;
}

/*
 * The populated ZONE_MOVABLE of /proc/zoneinfo that holds the frames
 * [@lo, @hi), into [*@start, *@end); false when none does.
 */
static bool in_movable(uint64_t lo, uint64_t hi, unsigned long *start,
		       unsigned long *end)
{
	unsigned long spanned = 0, present = 0, s;
	char line[256], zone[32] = "";
	bool in = false;
	FILE *f = fopen("/proc/zoneinfo", "re");

	if (!f)
		return false;
	while (!in && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %*d, zone %31s", zone) == 1) {
			spanned = 0;
			present = 0;
		} else if (sscanf(line, " spanned %lu", &spanned) == 1 ||
			   sscanf(line, " present %lu", &present) == 1) {
			continue;
		} else if (sscanf(line, " start_pfn: %lu", &s) == 1 &&
			   !strcmp(zone, "Movable") && present &&
			   lo >= s && hi <= s + spanned) {
			*start = s;
			*end = s + spanned;
			in = true;
		}
	}
	fclose(f);
	return in;
}

static char *map(size_t len, int extra)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | extra, -1, 0);

	if (p == MAP_FAILED)
		bail("mmap");
	return p;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* dvm_frag TARGET_MIB, holding its memory until *@hold is closed */
static pid_t fragment(int *hold, char *ready, size_t rlen)
{
	int in[2], out[2];
	FILE *f;
	pid_t pid;

	if (pipe(in) || pipe(out))
		bail("pipe");
	pid = fork();
	if (pid < 0)
		bail("fork");
	if (!pid) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execlp("dvm_frag", "dvm_frag", "160", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	*hold = in[1];
	f = fdopen(out[0], "r");
	if (!f || !fgets(ready, rlen, f))
		snprintf(ready, rlen, "no answer");
	ready[strcspn(ready, "\n")] = 0;
	if (f)
		fclose(f);
	return pid;
}

/*
 * Populate MAP_NORESERVE filler (never identity mapped) 4 MiB at a time,
 * while more than 256 MiB stay free, until it has a page in each of the
 * frame ranges [@lo[i], @hi[i]); hold those pages in a pipe (vmsplice),
 * which keeps them from being migrated.  Return: the ranges pinned.
 */
static int pin_in(int pm, const uint64_t *lo, const uint64_t *hi, int nr,
		  int pfd[2], char **filler, size_t *flen)
{
	static uint64_t e[1024];
	size_t step = 4 * MiB, o, i;
	bool done[4] = { false };
	struct iovec iov;
	int k, pinned = 0;

	*flen = 2048 * MiB;
	*filler = map(*flen, MAP_NORESERVE);
	if (pipe(pfd))
		bail("pipe");
	for (o = 0; o < *flen && pinned < nr && memfree_mib() > 256; o += step) {
		for (i = 0; i < step; i += PAGE)
			(*filler)[o + i] = 1;
		if (pread(pm, e, sizeof(e), (uintptr_t)(*filler + o) / PAGE * 8) !=
		    sizeof(e))
			break;
		for (i = 0; i < step / PAGE; i++) {
			uint64_t pfn = e[i] & ((1ULL << 55) - 1);

			for (k = 0; k < nr; k++) {
				if (done[k] || !(e[i] >> 63) || pfn < lo[k] ||
				    pfn >= hi[k])
					continue;
				iov.iov_base = *filler + o + i * PAGE;
				iov.iov_len = PAGE;
				if (vmsplice(pfd[1], &iov, 1, 0) == (ssize_t)PAGE) {
					done[k] = true;
					pinned++;
				}
			}
		}
	}
	printf("# filler: %zu MiB populated, %d of %d ranges pinned\n",
	       o / MiB, pinned, nr);
	return pinned;
}

static int accel_copy(int fd, void *dst, const void *src, size_t len,
		      struct dvm_accel_stats *st)
{
	struct dvm_accel_job j;
	int err;

	memset(&j, 0, sizeof(j));
	j.op = DVM_ACCEL_MEMCPY;
	j.memcpy.dst = (uintptr_t)dst;
	j.memcpy.src = (uintptr_t)src;
	j.memcpy.len = len;
	err = ioctl(fd, DVM_ACCEL_RUN, &j) ? errno : 0;
	*st = j.stats;
	return err;
}

int main(int argc, char **argv)
{
	size_t len = (argc > 1 ? strtoul(argv[1], NULL, 0) : 64) * MiB;
	size_t n = len / PAGE, id_before, id_fb, id_pin, id_p, id_d, id_dpin, flen, want;
	uint64_t lo[2], hi[2];
	long pend0, reid0, r, r2, reid1;
	struct dvm_accel_stats st;
	char ready[256], *p, *d, *filler;
	int pm, fd, hold, pfd[2], err, status;
	double t0, ms;
	unsigned long zs = 0, ze = 0;
	bool movable;
	int pinned;
	pid_t frag;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("1..%d\n", NPOINTS);
	pm = open("/proc/self/pagemap", O_RDONLY);
	if (pm < 0)
		bail("pagemap");
	if (prctl(PR_SET_DVM, PR_DVM_ON, 0, 0, 0))
		bail("PR_SET_DVM");

	/* 1: unfragmented, the mapping is identity mapped */
	p = map(len, 0);
	id_before = identity_pages(pm, p, len);
	check(id_before == n, "before fragmentation: %zu MiB %.1f %% identity mapped",
	      len / MiB, pct(id_before, n));
	munmap(p, len);

	/* 2: dvm_frag takes the contiguous memory */
	frag = fragment(&hold, ready, sizeof(ready));
	check(!strncmp(ready, "ready", 5), "dvm_frag: %s", ready);

	/* 3, 4: the mapping falls back, pending, and gets a pattern */
	pend0 = vmstat_read("dvm_pending_maps");
	p = map(len, 0);
	check(vmstat_read("dvm_pending_maps") == pend0 + 1 && vmflag(p, "ip") &&
	      !vmflag(p, "id") && !identity_pages(pm, p, len),
	      "fragmented: the mapping falls back pending at %p (\"ip\", dvm_pending_maps %ld -> %ld)",
	      p, pend0, vmstat_read("dvm_pending_maps"));
	fill((uint64_t *)p, len, 0x5eed);
	id_fb = identity_pages(pm, p, len);
	check(id_fb * 100 < n, "fragmented: %.1f %% identity mapped after writing the pattern",
	      pct(id_fb, n));

	/* a second (also pending) buffer; 5: both where nothing unmovable can come */
	d = map(len, 0);
	movable = in_movable((uintptr_t)p / PAGE, (uintptr_t)(p + len) / PAGE, &zs, &ze) &&
		  in_movable((uintptr_t)d / PAGE, (uintptr_t)(d + len) / PAGE, &zs, &ze);
	check(movable,
	      "fragmented: both pending ranges (%p, %p) lie in ZONE_MOVABLE (PFNs %#lx-%#lx)",
	      p, d, zs, ze);
	/* 6: the accelerator copies into it */
	fd = open("/dev/dvm_accel", O_RDWR);
	if (fd < 0 || ioctl(fd, DVM_ACCEL_BIND))
		bail("/dev/dvm_accel");
	err = accel_copy(fd, d, p, len, &st);
	check(!err && !memcmp(d, p, len) && st.translated &&
	      st.identity * 100 < st.accesses,
	      "fragmented: accelerator memcpy of %zu MiB right, %llu of %llu accesses translated (err %d)",
	      len / MiB, (unsigned long long)st.translated,
	      (unsigned long long)st.accesses, err);

	/* memory freed; 7, 8: a page of each range pinned: nothing changes */
	close(hold);
	waitpid(frag, &status, 0);
	lo[0] = (uintptr_t)p / PAGE;
	hi[0] = (uintptr_t)(p + len) / PAGE;
	lo[1] = (uintptr_t)d / PAGE;
	hi[1] = (uintptr_t)(d + len) / PAGE;
	id_d = identity_pages(pm, d, len);
	pinned = pin_in(pm, lo, hi, 2, pfd, &filler, &flen);
	r = prctl(PR_DVM_REIDENTIFY, 0, 0, 0, 0);
	err = errno;
	/*
	 * alloc_contig_range() may migrate pages of a range before it gives
	 * up: a page that was at its own frame by chance can have moved away
	 */
	id_pin = identity_pages(pm, p, len);
	id_dpin = identity_pages(pm, d, len);
	check(pinned == 2 && r == -1 && err == EBUSY,
	      "a page pinned in each range: PR_DVM_REIDENTIFY fails with EBUSY (%d pinned, returned %ld, %s)",
	      pinned, r, strerror(err));
	check(id_pin <= id_fb && id_dpin <= id_d &&
	      !bad_words((uint64_t *)p, len, 0x5eed) &&
	      !bad_words((uint64_t *)d, len, 0x5eed) && vmflag(p, "ip") &&
	      vmflag(d, "ip"),
	      "pinned: nothing taken (%.1f %% identity, data intact, both still pending)",
	      pct(id_pin, n));
	close(pfd[0]);
	close(pfd[1]);
	munmap(filler, flen);

	/* 9-11: re-establishment */
	reid0 = vmstat_read("dvm_reidentify_pages");
	t0 = now();
	r = prctl(PR_DVM_REIDENTIFY, 0, 0, 0, 0);
	ms = (now() - t0) * 1000;
	reid1 = vmstat_read("dvm_reidentify_pages");
	want = 2 * n - id_pin - id_dpin;
	id_p = identity_pages(pm, p, len);
	id_d = identity_pages(pm, d, len);
	check(r == (long)want && reid1 - reid0 == r,
	      "memory freed: PR_DVM_REIDENTIFY moved %ld pages (%zu expected) in %.0f ms (dvm_reidentify_pages +%ld)",
	      r, want, ms, reid1 - reid0);
	check(id_p == n && id_d == n && vmflag(p, "id") && !vmflag(p, "ip") &&
	      vmflag(d, "id") && !vmflag(d, "ip"),
	      "recovered: %.1f %% and %.1f %% identity mapped, both areas \"id\"",
	      pct(id_p, n), pct(id_d, n));
	check(!bad_words((uint64_t *)p, len, 0x5eed) &&
	      !bad_words((uint64_t *)d, len, 0x5eed),
	      "recovered: every byte of both buffers intact");
	printf("# raw: reid mib=%zu share_before=%.1f share_fallback=%.1f",
	       len / MiB, pct(id_before, n), pct(id_fb, n));
	printf(" share_pinned=%.1f share_recovered=%.1f pages=%ld ms=%.0f\n",
	       pct(id_pin, n), pct(id_p + id_d, 2 * n), r, ms);

	/* 12: the accelerator's table followed: every access a PE */
	memset(d, 0, len);
	err = accel_copy(fd, d, p, len, &st);
	check(!err && !bad_words((uint64_t *)d, len, 0x5eed) &&
	      st.identity == st.accesses && !st.translated,
	      "recovered: accelerator memcpy right, %llu of %llu accesses validated by a PE, %llu translated",
	      (unsigned long long)st.identity, (unsigned long long)st.accesses,
	      (unsigned long long)st.translated);

	/* 13: nothing left pending */
	r2 = prctl(PR_DVM_REIDENTIFY, 0, 0, 0, 0);
	check(r2 == 0, "nothing pending: PR_DVM_REIDENTIFY returns %ld", r2);
	close(fd);
	munmap(p, len);
	munmap(d, len);
	return tests_failed ? 1 : 0;
}
