// SPDX-License-Identifier: GPL-2.0
/*
 * farmem: a program with a working set larger than its memory, for the
 * far-memory comparison of `make bench` (run in a cgroup whose memory.max
 * is half of SIZE, swapping to /dev/mpb or to NBD).
 *
 *   farmem [-s SIZE] [-p PASSES]
 *
 * Fills SIZE bytes (default 64 MiB) of anonymous memory with a pattern of
 * pass 0, then PASSES times (default 2) walks every page in order,
 * checks each 8-byte word against the previous pass's pattern and writes
 * the next one, so every pass reads back and dirties the whole working
 * set. Prints
 *   farmem size BYTES passes P seconds S verified WORDS
 * Exit status: 0, 1 when a word read back wrong (after the first, the
 * count of them is printed) or memory could not be had, 2 usage.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

static uint64_t pattern(uint64_t word, uint64_t pass)
{
	return (word * 0x9e3779b97f4a7c15ULL) ^ (pass * 0xbf58476d1ce4e5b9ULL) ^ 0x6661726dULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int bad_args(void)
{
	fputs("usage: farmem [-s SIZE] [-p PASSES]\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long size = 64ULL << 20, passes = 2, words, w, p, bad = 0, checked = 0;
	uint64_t *m;
	double t0;
	int i;

	for (i = 1; i < argc; i++) {
		char *end = NULL;

		if (!strcmp(argv[i], "-s") && i + 1 < argc)
			size = strtoull(argv[++i], &end, 0) << 20;
		else if (!strcmp(argv[i], "-p") && i + 1 < argc)
			passes = strtoull(argv[++i], &end, 0);
		else
			return bad_args();
		if (*end && strcmp(end, "M"))
			return bad_args();
	}
	words = size / sizeof(*m);
	if (!words || !passes)
		return bad_args();
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		perror("farmem: mmap");
		return 1;
	}
	t0 = now_s();
	for (w = 0; w < words; w++)
		m[w] = pattern(w, 0);
	for (p = 1; p <= passes; p++) {
		for (w = 0; w < words; w++) {
			if (m[w] != pattern(w, p - 1) && !bad++)
				fprintf(stderr, "farmem: pass %llu: word %llu: %#" PRIx64
					", wrote %#" PRIx64 "\n", p, w, m[w], pattern(w, p - 1));
			m[w] = pattern(w, p);
			checked++;
		}
	}
	printf("farmem size %llu passes %llu seconds %.3f verified %llu\n", size, passes,
	       now_s() - t0, checked - bad);
	if (bad)
		fprintf(stderr, "farmem: %llu words read back wrong\n", bad);
	return bad ? 1 : 0;
}
