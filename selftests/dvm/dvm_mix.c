// SPDX-License-Identifier: GPL-2.0
/*
 * DVM measurements, printed as TAP comments:
 *
 * mix.success_rate: identity success rate under a mix of processes.  Three
 *   DVM processes run graph-analytics-like jobs (CSR offsets, edges,
 *   property arrays, allocator arenas of 2-8 MiB; some arenas outlive
 *   their job) while a non-DVM process keeps part of memory busy and
 *   churns anonymous and tmpfs memory of 256 KiB-8 MiB.  Two variants,
 *   "moderate" and "tight" (larger jobs, more memory kept busy; in a
 *   2 GiB guest about 45 % and 70 % of memory in use at the lowest
 *   MemFree, which is printed).  The rate is dvm_identity_maps over all
 *   DVM candidates (identity + fallbacks); the DVM paper reports
 *   95-97 %.  Also checks that identity pages stay in place while in use.
 *
 * cost.ratio: time of an identity-mapped mmap() (eager allocation,
 *   zeroing, page table population) against mmap(MAP_POPULATE) of the
 *   same size without DVM, with THP as configured and with THP disabled
 *   for the process; median of several rounds, same run.
 */
#define _GNU_SOURCE
#include <math.h>
#include <signal.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "dvm_util.h"

#ifndef PR_SET_THP_DISABLE
#define PR_SET_THP_DISABLE	41
#endif

#define FMT_MIX_SETUP "dvm_mix %s: %d DVM processes x %d graph jobs (<= %zu vertices) + 1 non-DVM process (%d %% busy + churn), %.0f MiB mapped by DVM processes in %.1f s, lowest MemFree %ld MiB of %ld\n"
#define FMT_MIX_RATE "dvm_mix %s: identity success rate %.1f %% (%ld of %ld mappings >= 2 MiB; fallback nocontig %ld, vabusy %ld, populate %ld; %ld above 4 MiB)\n"
#define FMT_MIX_KEPT "dvm_mix %s: identity pages still in place while in use: %ld of %ld sampled\n"
#define FMT_COST_SIZE "dvm_mix: %4zu MiB: identity mmap %.2f ms, MAP_POPULATE %.2f ms (THP %s), %.2f ms (THP off): ratio %.2f / %.2f\n"
#define FMT_COST "dvm_mix: allocation cost ratio identity / MAP_POPULATE (geometric mean over 2-128 MiB, median of %d): %.2f with THP as configured, %.2f with THP off\n"

struct mix_stats {
	long candidates;	/* mappings >= vm.dvm_min_bytes */
	long identity;		/* of those, first page identity mapped */
	long pages_checked;	/* identity pages re-checked while in use */
	long pages_moved;	/* of those, no longer identity mapped */
	long bytes;		/* bytes mapped by the DVM processes */
	long errors;
	long min_free_kb;	/* lowest MemFree seen by the DVM processes */
};

static unsigned int rnd(unsigned int *s)
{
	*s = *s * 1103515245 + 12345;
	return *s >> 8;
}

static void add(long *v, long n)
{
	__atomic_fetch_add(v, n, __ATOMIC_RELAXED);
}

static void touch(char *p, size_t len)
{
	size_t o;

	for (o = 0; o < len; o += DVM_PAGE)
		p[o] = 1;
}

static void __attribute__((constructor)) line_buffered(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

struct region {
	char *p;
	size_t len;
	bool identity;
};

static void region_map(struct region *r, size_t len, struct mix_stats *st)
{
	r->len = len;
	r->p = map_anon(len);
	if (!r->p) {
		add(&st->errors, 1);
		r->len = 0;
		return;
	}
	r->identity = page_is_identity(r->p);
	if (len >= 2 * MIB) {
		add(&st->candidates, 1);
		add(&st->identity, r->identity);
	}
	add(&st->bytes, len);
	touch(r->p, len);
}

static void region_unmap(struct region *r, struct mix_stats *st)
{
	size_t o, n = 0, moved = 0;

	if (!r->len)
		return;
	if (r->identity) {
		for (o = 0; o < r->len; o += 64 * DVM_PAGE, n++)
			moved += !page_is_identity(r->p + o);
		add(&st->pages_checked, n);
		add(&st->pages_moved, moved);
	}
	if (munmap(r->p, r->len))
		add(&st->errors, 1);
	r->len = 0;
}

/* One DVM process running @jobs graph jobs of up to @vmax vertices. */
static void dvm_worker(struct mix_stats *st, unsigned int seed, int jobs,
		       size_t vmax)
{
	struct region keep[4] = { 0 }, r[12];
	int j, i, n;
	long free_kb;

	if (dvm_set(PR_DVM_ON))
		_exit(1);
	for (j = 0; j < jobs; j++) {
		size_t v = vmax / 8 + rnd(&seed) % (vmax - vmax / 8);
		size_t deg = 4 + rnd(&seed) % 13;

		n = 0;
		region_map(&r[n++], 8 * (v + 1), st);		/* offsets */
		region_map(&r[n++], 4 * v * deg, st);		/* edges */
		region_map(&r[n++], 8 * v, st);			/* rank */
		region_map(&r[n++], 8 * v, st);			/* next rank */
		region_map(&r[n++], v / 8 + 4096, st);		/* frontier */
		for (i = rnd(&seed) % 4; i >= 0; i--)		/* arenas */
			region_map(&r[n++], (2 + rnd(&seed) % 7) * MIB, st);
		/* Some results outlive the job: keep an arena around. */
		i = rnd(&seed) % 4;
		region_unmap(&keep[i], st);
		region_map(&keep[i], (2 + rnd(&seed) % 7) * MIB, st);
		free_kb = meminfo_kb("MemFree");
		if (free_kb < __atomic_load_n(&st->min_free_kb, __ATOMIC_RELAXED))
			__atomic_store_n(&st->min_free_kb, free_kb,
					 __ATOMIC_RELAXED);
		/* Free in random order. */
		while (n) {
			i = rnd(&seed) % n;
			region_unmap(&r[i], st);
			r[i] = r[--n];
		}
	}
	for (i = 0; i < 4; i++)
		region_unmap(&keep[i], st);
	_exit(0);
}

/* A non-DVM process: a quarter of memory busy, churn of 256 KiB-8 MiB. */
static void background(size_t base_len)
{
	struct region r[32] = { 0 };
	struct mix_stats dummy = { 0 };
	unsigned int seed = 4242;
	char path[64], buf[65536];
	char *base;
	int i, fd;

	base = map_anon(base_len);
	if (base)
		touch(base, base_len);
	snprintf(path, sizeof(path), "/tmp/dvm_mix.%d", getpid());
	memset(buf, 0x5a, sizeof(buf));
	for (;;) {
		i = rnd(&seed) % 32;
		region_unmap(&r[i], &dummy);
		region_map(&r[i], (64 + rnd(&seed) % 1984) * 4 * KIB, &dummy);
		if (rnd(&seed) % 8 == 0) {
			/* tmpfs (shmem) pages come and go as well */
			fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
			for (i = rnd(&seed) % 64; fd >= 0 && i >= 0; i--)
				if (write(fd, buf, sizeof(buf)) < 0)
					break;
			if (fd >= 0)
				close(fd);
			if (rnd(&seed) % 2)
				unlink(path);
		}
		usleep(1000);
	}
}

static double time_map(size_t len, int flags, bool identity_expected)
{
	double t0, t;
	char *p;

	t0 = now_sec();
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
	t = now_sec() - t0;
	if (p == MAP_FAILED)
		return -1;
	if (identity_expected && count_nonidentity(p, len))
		t = -1;
	munmap(p, len);
	return t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

FIXTURE(cost) {
	long min_bytes;
};

FIXTURE_SETUP(cost)
{
	self->min_bytes = sysctl_read(DVM_SYSCTL_MIN_BYTES);
	if (self->min_bytes < 0 || dvm_get() < 0)
		SKIP(return, "kernel without CONFIG_DVM");
	if (geteuid())
		SKIP(return, "needs root (CAP_SYS_ADMIN)");
	ASSERT_EQ(0, sysctl_write(DVM_SYSCTL_MIN_BYTES, 2 * MIB));
	/* Measure the contiguous path, not the fallback. */
	defrag_memory();
}

FIXTURE_TEARDOWN(cost)
{
	if (self->min_bytes > 0)
		sysctl_write(DVM_SYSCTL_MIN_BYTES, self->min_bytes);
}

TEST_F_TIMEOUT(cost, ratio, 600)
{
	static const size_t sizes[] = { 2 * MIB, 8 * MIB, 32 * MIB, 128 * MIB };
	const int rounds = 5;
	double id[5], pop[5], nothp[5], gm_pop = 0, gm_nothp = 0;
	char thp[128] = "?";
	unsigned int s;
	int r;
	FILE *f;

	f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (f) {
		if (!fgets(thp, sizeof(thp), f))
			strcpy(thp, "?");
		thp[strcspn(thp, "\n")] = 0;
		fclose(f);
	}
	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		size_t len = sizes[s];

		for (r = 0; r < rounds; r++) {
			ASSERT_EQ(0, dvm_set(PR_DVM_ON));
			id[r] = time_map(len, 0, true);
			ASSERT_EQ(0, dvm_set(PR_DVM_OFF));
			pop[r] = time_map(len, MAP_POPULATE, false);
			ASSERT_EQ(0, prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0));
			nothp[r] = time_map(len, MAP_POPULATE, false);
			ASSERT_EQ(0, prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0));
			ASSERT_LT(0, id[r]) TH_LOG("%zu MiB not identity mapped",
						   len / MIB);
			ASSERT_LT(0, pop[r]);
			ASSERT_LT(0, nothp[r]);
		}
		qsort(id, rounds, sizeof(double), cmp_double);
		qsort(pop, rounds, sizeof(double), cmp_double);
		qsort(nothp, rounds, sizeof(double), cmp_double);
		ksft_print_msg(FMT_COST_SIZE, len / MIB, id[rounds / 2] * 1e3,
			       pop[rounds / 2] * 1e3, thp,
			       nothp[rounds / 2] * 1e3,
			       id[rounds / 2] / pop[rounds / 2],
			       id[rounds / 2] / nothp[rounds / 2]);
		gm_pop += log(id[rounds / 2] / pop[rounds / 2]);
		gm_nothp += log(id[rounds / 2] / nothp[rounds / 2]);
	}
	s = ARRAY_SIZE(sizes);
	ksft_print_msg(FMT_COST, rounds, exp(gm_pop / s), exp(gm_nothp / s));
}

FIXTURE(mix) {
	long min_bytes;
	long total_kb;
};

FIXTURE_VARIANT(mix) {
	const char *name;
	int vmax_div;		/* vertices <= MemTotal / vmax_div / 70 */
	int bg_percent;		/* memory the non-DVM process keeps busy */
};

FIXTURE_VARIANT_ADD(mix, moderate) {
	.name = "moderate", .vmax_div = 24, .bg_percent = 25,
};

FIXTURE_VARIANT_ADD(mix, tight) {
	.name = "tight", .vmax_div = 10, .bg_percent = 35,
};

FIXTURE_SETUP(mix)
{
	self->min_bytes = sysctl_read(DVM_SYSCTL_MIN_BYTES);
	if (self->min_bytes < 0 || dvm_get() < 0)
		SKIP(return, "kernel without CONFIG_DVM");
	if (geteuid())
		SKIP(return, "needs root (CAP_SYS_ADMIN)");
	ASSERT_EQ(0, sysctl_write(DVM_SYSCTL_MIN_BYTES, 2 * MIB));
	self->total_kb = meminfo_kb("MemTotal");
	ASSERT_LT(512 * 1024, self->total_kb);
}

FIXTURE_TEARDOWN(mix)
{
	if (self->min_bytes > 0)
		sysctl_write(DVM_SYSCTL_MIN_BYTES, self->min_bytes);
}

TEST_F_TIMEOUT(mix, success_rate, 600)
{
	const int nworkers = 3, jobs = 12;
	/* A job needs up to about 90 bytes per vertex plus arenas. */
	size_t vmax = (size_t)self->total_kb * KIB / variant->vmax_div / 70;
	struct dvm_counters a, b, d;
	struct mix_stats *st;
	pid_t bg, w[3];
	char path[64];
	double t0, rate;
	long cand;
	int i, status;

	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, st);
	memset(st, 0, sizeof(*st));
	st->min_free_kb = self->total_kb;

	bg = fork();
	ASSERT_LE(0, bg);
	if (!bg)
		background((size_t)self->total_kb * KIB / 100 *
			   variant->bg_percent);
	usleep(500000);

	t0 = now_sec();
	dvm_counters(&a);
	for (i = 0; i < nworkers; i++) {
		w[i] = fork();
		ASSERT_LE(0, w[i]);
		if (!w[i])
			dvm_worker(st, 1000 + i, jobs, vmax);
	}
	for (i = 0; i < nworkers; i++) {
		ASSERT_EQ(w[i], waitpid(w[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
	dvm_counters(&b);
	kill(bg, SIGKILL);
	waitpid(bg, NULL, 0);
	snprintf(path, sizeof(path), "/tmp/dvm_mix.%d", bg);
	unlink(path);

	d = dvm_delta(&a, &b);
	cand = d.maps + d.nocontig + d.vabusy + d.populate;
	ASSERT_LT(0, cand);
	rate = 100.0 * d.maps / cand;
	ksft_print_msg(FMT_MIX_SETUP, variant->name, nworkers, jobs, vmax,
		       variant->bg_percent, st->bytes / (double)MIB,
		       now_sec() - t0, st->min_free_kb / 1024,
		       self->total_kb / 1024);
	ksft_print_msg(FMT_MIX_RATE, variant->name, rate, d.maps, cand,
		       d.nocontig, d.vabusy, d.populate, d.contig);
	ksft_print_msg(FMT_MIX_KEPT, variant->name,
		       st->pages_checked - st->pages_moved, st->pages_checked);
	EXPECT_EQ(0, st->errors);
	/* The workers' own view (first page identity) agrees with vmstat. */
	EXPECT_EQ(cand, st->candidates);
	EXPECT_EQ(d.maps, st->identity);
	EXPECT_LE(50.0, rate);
}

TEST_HARNESS_MAIN
