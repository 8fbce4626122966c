// SPDX-License-Identifier: GPL-2.0
/*
 * dvm_memcg: identity-mapped memory is charged to the memory cgroup as the
 * faults it replaces would have been, and a cgroup's limit holds against it.
 *
 * The eager population of patch 0002 (dvm_populate(): order-0 pages) and
 * the huge pages of patch 0007 (dvm_populate_pmd()) charge every page they
 * install; a charge that fails ends the population there, the rest of the
 * run goes back to the allocator and the mapping stays partly populated
 * (vmstat dvm_fallback_populate).  Each case runs a child in a cgroup of
 * its own under ROOT (a cgroup v2 directory with +memory in its
 * cgroup.subtree_control) and checks from the outside: memory.current,
 * memory.peak, memory.events, memory.stat, /proc/self/pagemap, /proc/vmstat
 * and free memory (MemFree and the per-CPU lists).  Two cases stay within
 * the limit (order-0 pages, huge pages), two cross it (order-0, huge pages
 * first): the limit is hit, nothing beyond it is charged, and once the
 * child is gone nothing stays charged or allocated.  TAP on stdout.
 *
 *	dvm_memcg ROOT
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/dvm.h>

#include "selftests/dvm/dvm_prog.h"

#define PAGE		4096UL
#define MIB		(1024UL * 1024)
#define HPAGE		(2 * MIB)
/* what a cgroup may hold once its only process is gone */
#define LEFT_MAX	(1 * MIB)
/* page cache and slab that may come and go beside a case */
#define MEMFREE_SLACK_MIB	8
/*
 * memcg lets a dying task's charges past the limit (force, after the OOM
 * killer chose it); at most a batch of them.
 */
#define PEAK_SLACK	(1 * MIB)

/* What a child saw, in memory it shares with the parent. */
struct dvm_memcg_res {
	int stage;		/* how far it got: 1 mapped, 2 unmapped */
	int map_errno;		/* mmap()'s errno, 0 if it mapped */
	unsigned long present;	/* pages of the mapping present */
	unsigned long identity;	/* of them at VA == PA */
	unsigned long nonzero;	/* of them not reading zero */
	uint64_t cur0, cur1, cur2;	/* memory.current before, mapped, after */
	uint64_t anon_thp;	/* memory.stat anon_thp while mapped */
};

static const char *root;

static int cg_path(char *buf, size_t sz, const char *cg, const char *file)
{
	int n = snprintf(buf, sz, "%s/%s%s%s", root, cg, file ? "/" : "",
			 file ? file : "");

	return n > 0 && (size_t)n < sz ? 0 : -ENAMETOOLONG;
}

static int cg_write(const char *cg, const char *file, const char *val)
{
	char path[256];
	ssize_t n;
	int fd;

	if (cg_path(path, sizeof(path), cg, file))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -EIO;
}

/* A number of @file of @cg: the whole file, or the value of @key in it. */
static int64_t cg_read(const char *cg, const char *file, const char *key)
{
	char path[256], line[256];
	size_t klen = key ? strlen(key) : 0;
	int64_t val = -1;
	FILE *f;

	if (cg_path(path, sizeof(path), cg, file))
		return -1;
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!key) {
			val = strtoll(line, NULL, 10);
			break;
		}
		if (!strncmp(line, key, klen) && line[klen] == ' ') {
			val = strtoll(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

static int64_t vmstat_read(const char *name)
{
	char key[64];
	int64_t v = -1;
	long long x;
	FILE *f = fopen("/proc/vmstat", "re");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &x) == 2)
		if (!strcmp(key, name)) {
			v = x;
			break;
		}
	fclose(f);
	return v;
}

/*
 * Free memory in MiB, as run.sh counts it: MemFree and the pages on the
 * per-CPU lists (zoneinfo's "count:"), where freed pages, huge ones too,
 * wait before they reach the buddy lists MemFree counts; or -1.
 */
static long free_mib(void)
{
	long long pcp = 0, n;
	char line[128];
	long mf = memfree_mib();
	FILE *f = fopen("/proc/zoneinfo", "re");

	if (!f || mf < 0) {
		if (f)
			fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " count: %lld", &n) == 1)
			pcp += n;
	fclose(f);
	return mf + (long)(pcp * PAGE / MIB);
}

/* Count the pages of [p, p + len) present, at VA == PA, and not zero. */
static int scan(char *p, size_t len, struct dvm_memcg_res *r)
{
	size_t i, n = len / PAGE;
	uint64_t *pm;
	int fd, ret = 0;

	pm = malloc(n * sizeof(*pm));
	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (!pm || fd < 0 ||
	    pread(fd, pm, n * sizeof(*pm), (off_t)((uintptr_t)p / PAGE * 8)) !=
	    (ssize_t)(n * sizeof(*pm))) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		uint64_t pfn = pm[i] & ((1ULL << 55) - 1);
		size_t j;

		if (!(pm[i] >> 63))
			continue;
		r->present++;
		if (pfn * PAGE == (uintptr_t)p + i * PAGE)
			r->identity++;
		/* only present pages: touching others would fault them in */
		for (j = 0; j < PAGE; j += 512)
			if (p[i * PAGE + j]) {
				r->nonzero++;
				break;
			}
	}
out:
	if (fd >= 0)
		close(fd);
	free(pm);
	return ret;
}

/* The child: join @cg, map @len with DVM on, look at it, unmap it. */
static void child(const char *cg, size_t len, bool thp,
		  struct dvm_memcg_res *r)
{
	char pid[32];
	char *p;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (cg_write(cg, "cgroup.procs", pid) ||
	    (!thp && prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)) ||
	    prctl(PR_SET_DVM, PR_DVM_ON, 0, 0, 0))
		_exit(3);
	r->cur0 = cg_read(cg, "memory.current", NULL);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		r->map_errno = errno;
		_exit(0);
	}
	r->cur1 = cg_read(cg, "memory.current", NULL);
	r->anon_thp = cg_read(cg, "memory.stat", "anon_thp");
	if (scan(p, len, r))
		_exit(4);
	r->stage = 1;
	munmap(p, len);
	r->cur2 = cg_read(cg, "memory.current", NULL);
	r->stage = 2;
	_exit(0);
}

struct dvm_memcg_case {
	const char *name;
	size_t len;		/* the mapping */
	size_t max;		/* the cgroup's memory.max */
	bool thp;		/* huge pages allowed (else PR_SET_THP_DISABLE) */
};

/* What the parent measured around one child. */
struct dvm_memcg_run {
	struct dvm_memcg_res *r;
	int status;		/* the child's wait status */
	int64_t peak, events_max, left;
	int64_t d_maps, d_populate, d_pages, d_thp;
	long memfree0, memfree1;
};

static int run_case(const struct dvm_memcg_case *c, struct dvm_memcg_run *u)
{
	int64_t maps, populate, pages, thp, events0;
	char path[256], max[32];
	pid_t pid;

	if (cg_path(path, sizeof(path), c->name, NULL) ||
	    (mkdir(path, 0755) && errno != EEXIST))
		return -1;
	snprintf(max, sizeof(max), "%zu", c->max);
	if (cg_write(c->name, "memory.max", max) ||
	    cg_write(c->name, "memory.swap.max", "0") ||
	    cg_write(c->name, "memory.oom.group", "1"))
		return -1;
	memset(u->r, 0, sizeof(*u->r));
	events0 = cg_read(c->name, "memory.events", "max");
	maps = vmstat_read("dvm_identity_maps");
	populate = vmstat_read("dvm_fallback_populate");
	pages = vmstat_read("dvm_identity_pages");
	thp = vmstat_read("dvm_identity_thp");
	u->memfree0 = free_mib();

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid)
		child(c->name, c->len, c->thp, u->r);
	if (waitpid(pid, &u->status, 0) != pid)
		return -1;

	u->peak = cg_read(c->name, "memory.peak", NULL);
	u->events_max = cg_read(c->name, "memory.events", "max") - events0;
	u->left = cg_read(c->name, "memory.current", NULL);
	u->d_maps = vmstat_read("dvm_identity_maps") - maps;
	u->d_populate = vmstat_read("dvm_fallback_populate") - populate;
	u->d_pages = vmstat_read("dvm_identity_pages") - pages;
	u->d_thp = vmstat_read("dvm_identity_thp") - thp;
	u->memfree1 = free_mib();
	printf("# %s: %zu MiB under memory.max %zu KiB: status %#x stage %d errno %d\n",
	       c->name, c->len / MIB, c->max >> 10, u->status, u->r->stage,
	       u->r->map_errno);
	printf("#   pages present %lu identity %lu nonzero %lu\n",
	       u->r->present, u->r->identity, u->r->nonzero);
	printf("#   memory.current %llu / %llu / %llu, anon_thp %llu\n",
	       (unsigned long long)u->r->cur0, (unsigned long long)u->r->cur1,
	       (unsigned long long)u->r->cur2,
	       (unsigned long long)u->r->anon_thp);
	printf("#   memory.peak %lld, events max +%lld, left %lld\n",
	       (long long)u->peak, (long long)u->events_max, (long long)u->left);
	printf("#   vmstat maps +%lld populate +%lld pages +%lld thp +%lld\n",
	       (long long)u->d_maps, (long long)u->d_populate,
	       (long long)u->d_pages, (long long)u->d_thp);
	printf("#   free (MemFree + per-CPU lists) %ld -> %ld MiB\n", u->memfree0, u->memfree1);
	fflush(stdout);
	rmdir(path);
	return 0;
}

static bool exited_ok(const struct dvm_memcg_run *u)
{
	return WIFEXITED(u->status) && !WEXITSTATUS(u->status) &&
	       u->r->stage == 2;
}

/* Nothing charged or allocated stays behind the child. */
static void check_gone(const struct dvm_memcg_case *c,
		       const struct dvm_memcg_run *u)
{
	check(u->left >= 0 && u->left <= (int64_t)LEFT_MAX &&
	      u->memfree0 > 0 &&
	      u->memfree1 + MEMFREE_SLACK_MIB >= u->memfree0,
	      "%s: the child gone, %lld bytes left charged (<= %lu), free %ld -> %ld MiB (all %zu MiB back)",
	      c->name, (long long)u->left, LEFT_MAX, u->memfree0, u->memfree1,
	      c->len / MIB);
}

/* Within the limit: every page identity, zero, charged, uncharged. */
static void check_within(const struct dvm_memcg_case *c,
			 const struct dvm_memcg_run *u)
{
	const struct dvm_memcg_res *r = u->r;
	unsigned long n = c->len / PAGE;

	check(exited_ok(u) && !r->map_errno && r->present == n &&
	      r->identity == n && !r->nonzero && u->d_maps == 1 &&
	      u->d_pages == (int64_t)n,
	      "%s: all %lu pages present at VA == PA and zero (vmstat dvm_identity_maps +%lld, dvm_identity_pages +%lld)",
	      c->name, n, (long long)u->d_maps, (long long)u->d_pages);
	check(exited_ok(u) && r->cur1 >= r->cur0 + c->len &&
	      r->cur1 >= r->cur2 + c->len,
	      "%s: charged on mmap() (memory.current +%lld bytes >= %zu) and uncharged on munmap() (-%lld)",
	      c->name, (long long)(r->cur1 - r->cur0), c->len,
	      (long long)(r->cur1 - r->cur2));
	if (c->thp)
		check(u->d_thp == (int64_t)(c->len / HPAGE) &&
		      r->anon_thp >= c->len,
		      "%s: mapped with %zu huge pages (vmstat dvm_identity_thp +%lld), charged as such (memory.stat anon_thp %llu)",
		      c->name, c->len / HPAGE, (long long)u->d_thp,
		      (unsigned long long)r->anon_thp);
	check_gone(c, u);
}

/* Across the limit: the population stops at it, the rest goes back. */
static void check_across(const struct dvm_memcg_case *c,
			 const struct dvm_memcg_run *u)
{
	const struct dvm_memcg_res *r = u->r;
	bool killed = WIFSIGNALED(u->status) &&
		      WTERMSIG(u->status) == SIGKILL;

	/* an OOM kill of the child, or mmap() back with less than asked */
	check(killed || (exited_ok(u) && r->present < c->len / PAGE) ||
	      (WIFEXITED(u->status) && r->map_errno == ENOMEM),
	      "%s: %s", c->name,
	      killed ? "the child was OOM-killed in its cgroup" :
	      r->map_errno ? "mmap() failed with ENOMEM" :
	      "mmap() returned a partly populated mapping");
	check(u->events_max > 0 && u->peak >= 0 &&
	      u->peak <= (int64_t)(c->max + PEAK_SLACK),
	      "%s: the limit was hit (memory.events max +%lld) and held (memory.peak %lld <= %zu + %lu)",
	      c->name, (long long)u->events_max, (long long)u->peak, c->max,
	      PEAK_SLACK);
	check(u->d_populate == 1 && u->d_maps == 0 && u->d_pages >= 0 &&
	      u->d_pages * PAGE <= c->max + PEAK_SLACK,
	      "%s: left partly populated (vmstat dvm_fallback_populate +%lld, dvm_identity_pages +%lld, at most the limit's)",
	      c->name, (long long)u->d_populate, (long long)u->d_pages);
	check_gone(c, u);
}

int main(int argc, char **argv)
{
	static const struct dvm_memcg_case within[] = {
		{ "dvm_memcg.pages", 32 * MIB, 256 * MIB, false },
		{ "dvm_memcg.thp", 4 * MIB, 256 * MIB, true },
	};
	static const struct dvm_memcg_case across[] = {
		{ "dvm_memcg.pages_max", 64 * MIB, 16 * MIB, false },
		{ "dvm_memcg.thp_max", 8 * MIB, 3 * MIB, true },
	};
	struct dvm_memcg_run u;
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: dvm_memcg ROOT\n");
		return 2;
	}
	root = argv[1];
	u.r = mmap(NULL, sizeof(*u.r), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (u.r == MAP_FAILED) {
		perror("dvm_memcg: mmap");
		return 1;
	}
	printf("TAP version 13\n1..15\n");
	for (i = 0; i < 2; i++) {
		if (run_case(&within[i], &u)) {
			printf("Bail out! %s: cgroup setup or fork failed: %s\n",
			       within[i].name, strerror(errno));
			return 1;
		}
		check_within(&within[i], &u);
	}
	for (i = 0; i < 2; i++) {
		if (run_case(&across[i], &u)) {
			printf("Bail out! %s: cgroup setup or fork failed: %s\n",
			       across[i].name, strerror(errno));
			return 1;
		}
		check_across(&across[i], &u);
	}
	return tests_failed ? 1 : 0;
}
