// SPDX-License-Identifier: GPL-2.0
/*
 * dvm_frag: leave no physically contiguous free memory.  An ordinary,
 * non-DVM process: takes memory until MemFree falls below TARGET_MIB (keep
 * it above the zone watermarks), gives back every page whose frame number
 * is odd, so that what it frees are single pages whose buddies it keeps,
 * and then takes every 2 MiB block still free as a transparent huge page
 * (run it with THP defrag "never", so that no compaction makes new ones).
 * Prints "ready" and holds the rest until its standard input closes.
 *
 *	dvm_frag TARGET_MIB
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "selftests/dvm/dvm_prog.h"

#define PAGE	4096UL
#define STEP	(4UL << 20)
#define MAX_STEPS	4096

/* Take free 2 MiB blocks as huge pages until one is not huge. */
static unsigned long grab_huge(int pm)
{
	unsigned long got = 0, misses = 0;
	uint64_t e;

	while (misses < 8 && got < 4096) {
		char *m = mmap(NULL, 4UL << 20, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		uintptr_t a;

		if (m == MAP_FAILED)
			break;
		a = ((uintptr_t)m + (2UL << 20) - 1) & ~((2UL << 20) - 1);
		madvise((void *)a, 2UL << 20, MADV_HUGEPAGE);
		*(volatile char *)a = 1;
		/* a huge page maps all 512 pages at the first touch */
		if (pread(pm, &e, sizeof(e),
			  (off_t)((a + (2UL << 20) - PAGE) / PAGE * 8)) ==
		    sizeof(e) && (e >> 63)) {
			got++;
			misses = 0;
		} else {
			munmap(m, 4UL << 20);
			misses++;
		}
	}
	return got;
}

int main(int argc, char **argv)
{
	static uint64_t pfns[STEP / PAGE];
	static char *steps[MAX_STEPS];
	unsigned long n = 0, i, off, freed = 0;
	uint64_t e;
	long target;
	char buf[64];
	int pm;

	target = argc == 2 ? atol(argv[1]) : 0;
	if (target <= 0) {
		fprintf(stderr, "usage: dvm_frag TARGET_MIB\n");
		return 2;
	}
	pm = open("/proc/self/pagemap", O_RDONLY);
	if (pm < 0) {
		perror("dvm_frag: pagemap");
		return 1;
	}
	while (n < MAX_STEPS && memfree_mib() > target) {
		char *p = mmap(NULL, STEP, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			break;
		madvise(p, STEP, MADV_NOHUGEPAGE);
		memset(p, 0x5a, STEP);
		steps[n++] = p;
	}
	for (i = 0; i < n; i++) {
		uintptr_t base = (uintptr_t)steps[i];

		if (pread(pm, pfns, sizeof(pfns), (off_t)(base / PAGE * 8)) !=
		    sizeof(pfns))
			continue;
		for (off = 0; off < STEP / PAGE; off++) {
			e = pfns[off];
			if ((e >> 63) && (e & ((1ULL << 55) - 1)) % 2) {
				madvise((void *)(base + off * PAGE), PAGE,
					MADV_DONTNEED);
				freed++;
			}
		}
		/* keep the remaining pages from being touched again */
		mprotect(steps[i], STEP, PROT_NONE);
	}
	printf("ready held %lu MiB freed %lu MiB huge %lu MiB memfree %ld MiB\n",
	       n * STEP >> 20, freed * PAGE >> 20, grab_huge(pm) * 2,
	       memfree_mib());
	fflush(stdout);
	while (read(0, buf, sizeof(buf)) > 0)
		;
	return 0;
}
