// SPDX-License-Identifier: GPL-2.0
/*
 * mp_touch: put data in memory, report where it lives, and check that it
 * reads back intact after the memory under it was moved (offlined).
 *
 *   mp_touch [-m MIB] [-s SEED] [-n NODE] [-b NODE] [-w READYFILE] [-p PGTABLES]
 *
 * Fills MIB MiB with a pattern from SEED and prints "pages=N" and
 * "node<K>=N" per NUMA node (queried with move_pages). With -n it fails
 * unless every page is on NODE. With -w it writes READYFILE and waits for
 * SIGUSR1, then re-checks the data and prints the placement again. -p maps
 * a sparse area and touches PGTABLES page-table pages' worth of it, which
 * pins unmovable kernel memory (page tables) on the process's nodes.
 * -b binds only the data (mbind MPOL_BIND) to NODE, leaving the program's
 * own pages (stack, libraries) where they are.
 * Exit: 0 data intact (and on NODE when asked), 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_NODES 64
#define PMD_SPAN (2UL << 20)

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

static uint64_t next_word(uint64_t *x)
{
	/* xorshift64: cheap, and a wrong page almost surely mismatches */
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void fill(uint64_t *p, size_t words, uint64_t seed)
{
	uint64_t x = seed | 1;
	size_t i;

	for (i = 0; i < words; i++)
		p[i] = next_word(&x);
}

static size_t verify(const uint64_t *p, size_t words, uint64_t seed)
{
	uint64_t x = seed | 1;
	size_t i, bad = 0;

	for (i = 0; i < words; i++)
		if (p[i] != next_word(&x))
			bad++;
	return bad;
}

/* Print the node of every page; return how many are not on want_node. */
static long placement(char *buf, size_t len, int want_node)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t n = len / page, i;
	long counts[MAX_NODES] = { 0 }, other = 0, off = 0;
	void **pages;
	int *status;

	pages = calloc(n, sizeof(*pages));
	status = calloc(n, sizeof(*status));
	if (!pages || !status) {
		perror("mp_touch: calloc");
		exit(1);
	}
	for (i = 0; i < n; i++)
		pages[i] = buf + i * page;
	if (syscall(SYS_move_pages, 0, n, pages, NULL, status, 0)) {
		perror("mp_touch: move_pages");
		exit(1);
	}
	for (i = 0; i < n; i++) {
		if (status[i] >= 0 && status[i] < MAX_NODES)
			counts[status[i]]++;
		else
			off++;
		if (want_node >= 0 && status[i] != want_node)
			other++;
	}
	printf("pages=%zu\n", n);
	for (i = 0; i < MAX_NODES; i++)
		if (counts[i])
			printf("node%zu=%ld\n", i, counts[i]);
	if (off)
		printf("unplaced=%ld\n", off);
	free(pages);
	free(status);
	return other;
}

static int pin_pgtables(long count)
{
	size_t len = (size_t)count * PMD_SPAN;
	char *area;
	long i;

	area = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (area == MAP_FAILED) {
		perror("mp_touch: mmap pgtables");
		return -1;
	}
	/* a THP would back each touch with 2 MiB instead of a 4 KiB table */
	if (madvise(area, len, MADV_NOHUGEPAGE)) {
		perror("mp_touch: madvise");
		return -1;
	}
	/* one write per 2 MiB: one new page-table page each */
	for (i = 0; i < count; i++)
		area[i * PMD_SPAN] = 1;
	return 0;
}

int main(int argc, char **argv)
{
	long mib = 16, pgtables = 0;
	int want_node = -1, bind_node = -1, c, rc = 0;
	const char *ready = NULL;
	uint64_t seed = 1;
	size_t len, bad;
	uint64_t *buf;

	while ((c = getopt(argc, argv, "m:s:n:b:w:p:")) != -1) {
		switch (c) {
		case 'm':
			mib = strtol(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			want_node = atoi(optarg);
			break;
		case 'b':
			bind_node = atoi(optarg);
			break;
		case 'w':
			ready = optarg;
			break;
		case 'p':
			pgtables = strtol(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr,
				"usage: mp_touch [-m MIB] [-s SEED] [-n NODE] [-b NODE] [-w READY] [-p PGTABLES]\n");
			return 2;
		}
	}
	if (mib <= 0 || pgtables < 0) {
		fprintf(stderr, "mp_touch: bad size\n");
		return 2;
	}
	signal(SIGUSR1, on_usr1);

	len = (size_t)mib << 20;
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("mp_touch: mmap");
		return 1;
	}
	if (bind_node >= 0 && bind_node < 64) {
		unsigned long mask = 1UL << bind_node;

		/* MPOL_BIND is 2 */
		if (syscall(SYS_mbind, buf, len, 2, &mask, 64, 0)) {
			perror("mp_touch: mbind");
			return 1;
		}
	}
	fill(buf, len / sizeof(*buf), seed);
	if (pgtables && pin_pgtables(pgtables))
		return 1;
	if (placement((char *)buf, len, want_node)) {
		printf("result=wrong-node\n");
		rc = 1;
	}
	bad = verify(buf, len / sizeof(*buf), seed);
	printf("bad_words=%zu\n", bad);
	fflush(stdout);
	if (bad)
		rc = 1;

	if (ready) {
		int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0) {
			perror("mp_touch: ready file");
			return 1;
		}
		close(fd);
		while (!got_usr1)
			pause();
		printf("after_signal\n");
		placement((char *)buf, len, -1);
		bad = verify(buf, len / sizeof(*buf), seed);
		printf("bad_words=%zu\n", bad);
		if (bad)
			rc = 1;
	}
	printf("result=%s\n", rc ? "FAIL" : "PASS");
	return rc;
}
