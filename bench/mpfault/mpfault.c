// SPDX-License-Identifier: GPL-2.0
/*
 * mpfault: the latency of a 4 KiB page fault on a MAP_SHARED mapping of a
 * /dev/mps device (remote pool memory), each fault timed alone.
 *
 *   mpfault PATH [-s SIZE] [-n PAGES] [--seed N]
 *
 * PAGES distinct pages of the first SIZE bytes (default 16 MiB, 256
 * pages), in random order: each gets an 8-byte stamp of its own through
 * pwrite (straight to the device), MPS_IOC_INVALIDATE drops whatever the
 * page cache held of the range, and then each page is read once through
 * the mapping, the read timed (the fault and its fetch over the
 * transport) and its stamp checked. The mapping is MADV_RANDOM: a fault
 * then reads its own page only, not a read-around window (mps has
 * ->readahead), which would turn later samples into page-cache hits and
 * the median into a mix of hits and fetches. A page that mincore() finds
 * resident before its read anyway is checked but not timed: its read
 * would not be a fetch. Prints
 *   fault n TIMED cached C p50_us X p99_us Y min_us Z max_us W
 * over the TIMED pages (PAGES - C).
 * Exit status: 0, 1 when a page read back wrong or a step failed, 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/cmm_mp.h>

#define PG	4096ULL

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t stamp(uint64_t page, uint64_t seed)
{
	return (page * 0x100000001b3ULL) ^ seed ^ 0x6d70666175ULL;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static unsigned long long size_arg(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	const char *units = "KMG", *u = *end ? strchr(units, *end) : NULL;

	if (u) {
		v <<= 10 * (u - units + 1);
		end++;
	}
	return *end ? 0 : v;
}

static int bad_args(void)
{
	fputs("usage: mpfault PATH [-s SIZE] [-n PAGES] [--seed N]\n", stderr);
	return 2;
}

/* PAGES distinct page numbers below NPG, in random order */
static uint64_t *pick(uint64_t npg, uint64_t n)
{
	uint64_t *all = malloc(npg * sizeof(*all)), i;

	if (!all)
		return NULL;
	for (i = 0; i < npg; i++)
		all[i] = i;
	for (i = 0; i < n; i++) {
		uint64_t j = i + rng() % (npg - i), t = all[i];

		all[i] = all[j];
		all[j] = t;
	}
	return all;
}

int main(int argc, char **argv)
{
	unsigned long long size = 16ULL << 20, n = 256, seed = 1, i, timed = 0, cached = 0;
	const char *path = NULL;
	struct mps_range all = { 0, 0 };
	volatile uint64_t *w;
	uint64_t *pages;
	double *lat;
	int fd, bad = 0;
	char *map;

	for (i = 1; i < (unsigned long long)argc; i++) {
		if (!strcmp(argv[i], "-s") && i + 1 < (unsigned long long)argc)
			size = size_arg(argv[++i]);
		else if (!strcmp(argv[i], "-n") && i + 1 < (unsigned long long)argc)
			n = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seed") && i + 1 < (unsigned long long)argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else
			return bad_args();
	}
	if (!path || size < PG || !n || n > size / PG)
		return bad_args();
	rng_state = seed;
	fd = open(path, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "mpfault: %s: %s\n", path, strerror(errno));
		return 1;
	}
	pages = pick(size / PG, n);
	lat = calloc(n, sizeof(*lat));
	if (!pages || !lat) {
		fprintf(stderr, "mpfault: out of memory\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		uint64_t v = stamp(pages[i], seed);

		if (pwrite(fd, &v, sizeof(v), pages[i] * PG) != sizeof(v)) {
			fprintf(stderr, "mpfault: pwrite page %" PRIu64 ": %s\n", pages[i],
				strerror(errno));
			return 1;
		}
	}
	all.len = size;
	if (ioctl(fd, MPS_IOC_INVALIDATE, &all)) {
		fprintf(stderr, "mpfault: MPS_IOC_INVALIDATE: %s\n", strerror(errno));
		return 1;
	}
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		fprintf(stderr, "mpfault: mmap: %s\n", strerror(errno));
		return 1;
	}
	if (madvise(map, size, MADV_RANDOM)) {
		fprintf(stderr, "mpfault: madvise(MADV_RANDOM): %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		unsigned char in_core;
		double t0, dt;
		uint64_t v;

		w = (volatile uint64_t *)(map + pages[i] * PG);
		if (mincore((void *)w, PG, &in_core)) {
			fprintf(stderr, "mpfault: mincore: %s\n", strerror(errno));
			return 1;
		}
		t0 = now_us();
		v = *w;
		dt = now_us() - t0;
		if (in_core & 1)
			cached++;
		else
			lat[timed++] = dt;
		if (v != stamp(pages[i], seed)) {
			fprintf(stderr, "mpfault: page %" PRIu64 ": read %#" PRIx64
				", wrote %#" PRIx64 "\n", pages[i], v, stamp(pages[i], seed));
			bad = 1;
		}
	}
	if (!timed) {
		fprintf(stderr, "mpfault: all %llu pages resident before their read: none timed\n",
			n);
		return 1;
	}
	qsort(lat, timed, sizeof(*lat), cmp_dbl);
	printf("fault n %llu cached %llu p50_us %.2f p99_us %.2f min_us %.2f max_us %.2f\n",
	       timed, cached, lat[(timed - 1) / 2], lat[(timed * 99 + 99) / 100 - 1], lat[0],
	       lat[timed - 1]);
	munmap(map, size);
	close(fd);
	free(pages);
	free(lat);
	return bad;
}
