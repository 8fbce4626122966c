// SPDX-License-Identifier: GPL-2.0
/*
 * tiering_work: a workload for memory tiering (tiering.sh): a cold region
 * written once and a hot one read over and over, the NUMA node of every
 * page of each reported as it goes, every byte checked at the end.
 *
 *   tiering_work -c COLD_MIB -H HOT_MIB [-t SECONDS] [-s SEED] [-w READY]
 *
 * Fills COLD_MIB, then HOT_MIB of anonymous memory with a per-page pattern
 * (base pages: each page is demoted or promoted on its own) and prints
 * where they landed, as "cold_fill_node<K>=N" and "hot_fill_node<K>=N"
 * (pages per node, from the region's line of /proc/self/numa_maps). Then
 * reads every hot page in a loop, printing "t=S hot_off_node0=N" each
 * second, for SECONDS (default 30) or until the hot pages off node 0 are
 * down to a quarter of those after the fill. Prints "cold_end_node<K>=N",
 * "hot_end_node<K>=N", verifies both regions ("bad_pages=N"), unmaps
 * the hot one and prints "cold_ready_node<K>=N". With -w it then writes
 * READY and waits for SIGUSR1 (the pool being offlined meanwhile), and
 * prints "cold_after_node<K>=N" and "bad_pages_after=N".
 * Exit: 0 every page intact every time, 1 otherwise, 2 usage.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MAX_NODES 64

static volatile sig_atomic_t got_usr1;
static size_t page_size;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

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

/* A page's words depend on its index: a page moved to the wrong place mismatches. */
static void fill(char *buf, size_t pages, uint64_t seed)
{
	size_t words = page_size / sizeof(uint64_t), pg, i;

	for (pg = 0; pg < pages; pg++) {
		uint64_t *p = (uint64_t *)(buf + pg * page_size);
		uint64_t x = page_seed(seed, pg);

		for (i = 0; i < words; i++)
			p[i] = next_word(&x);
	}
}

static size_t bad_pages(const char *buf, size_t pages, uint64_t seed)
{
	size_t words = page_size / sizeof(uint64_t), pg, i, bad = 0;

	for (pg = 0; pg < pages; pg++) {
		const uint64_t *p = (const uint64_t *)(buf + pg * page_size);
		uint64_t x = page_seed(seed, pg);

		for (i = 0; i < words; i++)
			if (p[i] != next_word(&x)) {
				bad++;
				break;
			}
	}
	return bad;
}

struct region {
	char *buf;
	size_t pages;
};

static int region_map(struct region *r, long mib)
{
	size_t len = (size_t)mib << 20;

	r->pages = len / page_size;
	/* a PROT_NONE page after it: its own VMA, its own numa_maps line */
	r->buf = mmap(NULL, len + page_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r->buf == MAP_FAILED) {
		perror("tiering_work: mmap");
		return -1;
	}
	if (mprotect(r->buf + len, page_size, PROT_NONE)) {
		perror("tiering_work: mprotect");
		return -1;
	}
	/* a THP would move 512 pages at a time, and only when all are hot */
	if (madvise(r->buf, len, MADV_NOHUGEPAGE)) {
		perror("tiering_work: madvise");
		return -1;
	}
	return 0;
}

/*
 * Count the region's pages per node into counts[], from its line of
 * /proc/self/numa_maps ("N<k>=<pages>"), and return those not on node 0,
 * or -1 when the line is not there. numa_maps counts a page that NUMA
 * balancing made PROT_NONE (for a hint fault), which move_pages() of 6.1
 * calls not present. A page being migrated is in neither: the counts may
 * add up to less than the region for a moment.
 */
static long nodes_of(struct region *r, long counts[MAX_NODES])
{
	char want[32], *line = NULL, *tok, *save;
	long off = -1, v;
	size_t cap = 0;
	FILE *f;
	int n;

	for (n = 0; n < MAX_NODES; n++)
		counts[n] = 0;
	snprintf(want, sizeof(want), "%lx ", (unsigned long)r->buf);
	f = fopen("/proc/self/numa_maps", "r");
	if (!f) {
		perror("tiering_work: /proc/self/numa_maps");
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, want, strlen(want)))
			continue;
		off = 0;
		for (tok = strtok_r(line, "\n ", &save); tok;
		     tok = strtok_r(NULL, "\n ", &save)) {
			if (sscanf(tok, "N%d=%ld", &n, &v) != 2 ||
			    n < 0 || n >= MAX_NODES)
				continue;
			counts[n] = v;
			if (n)
				off += v;
		}
		break;
	}
	free(line);
	fclose(f);
	if (off < 0)
		fprintf(stderr, "tiering_work: no numa_maps line at %p\n",
			(void *)r->buf);
	return off;
}

/* Print "NAME_node<K>=N" for every node holding pages of the region. */
static long report(struct region *r, const char *name)
{
	long counts[MAX_NODES], off;
	int n;

	off = nodes_of(r, counts);
	if (off < 0)
		return -1;
	for (n = 0; n < MAX_NODES; n++)
		if (counts[n])
			printf("%s_node%d=%ld\n", name, n, counts[n]);
	fflush(stdout);
	return off;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Read the hot region until its pages off node 0 are down to a quarter of
 * start_off or the time is up: a read is enough for NUMA balancing's hint
 * faults (promotion) and the accessed bits (LRU aging) to see it.
 */
static int run_hot(struct region *hot, long start_off, long seconds)
{
	long counts[MAX_NODES], off = start_off;
	double t0 = now(), next = t0 + 1;
	volatile uint64_t sink = 0;
	size_t pg;

	while (now() - t0 < seconds) {
		for (pg = 0; pg < hot->pages; pg++)
			sink += *(volatile uint64_t *)(hot->buf + pg * page_size);
		if (now() < next)
			continue;
		next += 1;
		off = nodes_of(hot, counts);
		if (off < 0)
			return -1;
		printf("t=%.0f hot_off_node0=%ld\n", now() - t0, off);
		fflush(stdout);
		if (off * 4 <= start_off)
			break;
	}
	(void)sink;
	return 0;
}

int main(int argc, char **argv)
{
	long cold_mib = 0, hot_mib = 0, seconds = 30, off;
	struct region cold, hot;
	const char *ready = NULL;
	uint64_t seed = 1;
	size_t bad;
	int c, rc = 0;

	while ((c = getopt(argc, argv, "c:H:t:s:w:")) != -1) {
		switch (c) {
		case 'c':
			cold_mib = strtol(optarg, NULL, 0);
			break;
		case 'H':
			hot_mib = strtol(optarg, NULL, 0);
			break;
		case 't':
			seconds = strtol(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'w':
			ready = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (cold_mib <= 0 || hot_mib <= 0 || seconds <= 0 || optind != argc)
		goto usage;
	page_size = sysconf(_SC_PAGESIZE);
	signal(SIGUSR1, on_usr1);

	if (region_map(&cold, cold_mib))
		return 1;
	fill(cold.buf, cold.pages, seed);
	if (report(&cold, "cold_fill") < 0 || region_map(&hot, hot_mib))
		return 1;
	fill(hot.buf, hot.pages, seed + 1);
	off = report(&hot, "hot_fill");
	if (off < 0 || run_hot(&hot, off, seconds))
		return 1;
	if (report(&cold, "cold_end") < 0 || report(&hot, "hot_end") < 0)
		return 1;
	bad = bad_pages(cold.buf, cold.pages, seed) +
	      bad_pages(hot.buf, hot.pages, seed + 1);
	printf("bad_pages=%zu\n", bad);
	fflush(stdout);
	if (bad)
		rc = 1;
	/* room on node 0 for the cold pages, should the pool go */
	if (munmap(hot.buf, hot.pages * page_size)) {
		perror("tiering_work: munmap");
		return 1;
	}
	/* the verification's reads may have promoted some */
	if (report(&cold, "cold_ready") < 0)
		return 1;

	if (ready) {
		sigset_t usr1, old;
		int fd;

		/* blocked until sigsuspend: a signal sent at once is not lost */
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, &old);
		fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			perror("tiering_work: ready file");
			return 1;
		}
		close(fd);
		while (!got_usr1)
			sigsuspend(&old);
		if (report(&cold, "cold_after") < 0)
			return 1;
		bad = bad_pages(cold.buf, cold.pages, seed);
		printf("bad_pages_after=%zu\n", bad);
		if (bad)
			rc = 1;
	}
	printf("result=%s\n", rc ? "FAIL" : "PASS");
	return rc;

usage:
	fprintf(stderr,
		"usage: tiering_work -c COLD_MIB -H HOT_MIB [-t SECONDS] [-s SEED] [-w READY]\n");
	return 2;
}
