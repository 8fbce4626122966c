// SPDX-License-Identifier: GPL-2.0
/*
 * swap_fill: make a process's memory go to swap and come back intact.
 *
 *   swap_fill -m MIB [-s SEED] [-p PASSES]
 *
 * Maps MIB MiB of anonymous memory and fills every page with words of a
 * xorshift64 sequence seeded with SEED and the page's index, so a page
 * that comes back from the wrong swap slot mismatches as surely as a
 * corrupted one. Run it in a cgroup whose memory.max is below MIB and
 * most of it has to go to swap. Then prints "vmswap_kb=N" (VmSwap of
 * /proc/self/status: how much of it is in swap at that moment) and
 * verifies every page PASSES times (default 1), printing
 * "pass=P pages=N bad=N" each time.
 * Exit: 0 every page intact every pass, 1 otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uint64_t page_seed(uint64_t seed, uint64_t page)
{
	uint64_t x = seed ^ (page * 0x9e3779b97f4a7c15ULL);

	return x ? x : 1;	/* xorshift never leaves 0 */
}

static uint64_t next_word(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void fill_page(uint64_t *p, size_t words, uint64_t seed, uint64_t pg)
{
	uint64_t x = page_seed(seed, pg);
	size_t i;

	for (i = 0; i < words; i++)
		p[i] = next_word(&x);
}

static int page_ok(const uint64_t *p, size_t words, uint64_t seed,
		   uint64_t pg)
{
	uint64_t x = page_seed(seed, pg);
	size_t i;

	for (i = 0; i < words; i++)
		if (p[i] != next_word(&x))
			return 0;
	return 1;
}

static long vmswap_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSwap: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	unsigned long mib = 0, passes = 1, pass;
	uint64_t seed = 0x6d7062, pg, pages, bad;
	size_t psz = (size_t)sysconf(_SC_PAGESIZE), words = psz / 8;
	unsigned char *buf;
	int opt, ret = 0;

	while ((opt = getopt(argc, argv, "m:s:p:")) != -1) {
		switch (opt) {
		case 'm':
			mib = strtoul(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'p':
			passes = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: swap_fill -m MIB [-s SEED] [-p PASSES]\n");
			return 2;
		}
	}
	if (!mib || !passes) {
		fprintf(stderr, "swap_fill: -m MIB (> 0) is required\n");
		return 2;
	}
	pages = (uint64_t)mib * (1 << 20) / psz;
	buf = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("swap_fill: mmap");
		return 1;
	}
	for (pg = 0; pg < pages; pg++)
		fill_page((uint64_t *)(buf + pg * psz), words, seed, pg);
	printf("vmswap_kb=%ld\n", vmswap_kb());
	for (pass = 1; pass <= passes; pass++) {
		bad = 0;
		for (pg = 0; pg < pages; pg++)
			if (!page_ok((uint64_t *)(buf + pg * psz), words, seed,
				     pg))
				bad++;
		printf("pass=%lu pages=%llu bad=%llu\n", pass,
		       (unsigned long long)pages, (unsigned long long)bad);
		if (bad)
			ret = 1;
	}
	fflush(stdout);
	munmap(buf, pages * psz);
	return ret;
}
