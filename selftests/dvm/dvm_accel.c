// SPDX-License-Identifier: GPL-2.0
/*
 * dvm_accel: guest tests of /dev/dvm_accel (DVM series, patch 0006).
 *
 *   dvm_accel jobs              memcpy, gather, scatter, pointer chase, on
 *                               identity-mapped and on translated memory
 *   dvm_accel security          refused accesses: fault, nothing moved
 *   dvm_accel lifecycle         munmap/mprotect during jobs, fork, exit
 *   dvm_accel preload           no preload outside validated identity
 *                               memory (another process's page at PA == VA)
 *   dvm_accel all               the three above, one TAP stream
 *   dvm_accel graph SCALE...    BFS and PageRank on R-MAT graphs against
 *                               the CPU reference; one table row per scale
 *
 * Output is TAP.  Every check looks at what happened in memory (bytes
 * read back) or at the job's counters, not only at return codes.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
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
#include <sys/wait.h>

#include <linux/dvm_accel.h>
#include <linux/dvm.h>
#include "dvm_graph.h"
#include "util/util.h"
#include "dvm_prog.h"

#define MiB (1024UL * 1024)

static int accel_open(void)
{
	int fd = open("/dev/dvm_accel", O_RDWR);

	if (fd < 0) {
		printf("Bail out! /dev/dvm_accel: %s\n", strerror(errno));
		exit(1);
	}
	if (ioctl(fd, DVM_ACCEL_BIND)) {
		printf("Bail out! DVM_ACCEL_BIND: %s\n", strerror(errno));
		exit(1);
	}
	return fd;
}

/* Run @job; the errno of a failure (0 on success). */
static int run(int fd, struct dvm_accel_job *job)
{
	return ioctl(fd, DVM_ACCEL_RUN, job) ? errno : 0;
}

static void *map(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("Bail out! mmap %zu: %s\n", len, strerror(errno));
		exit(1);
	}
	return p;
}

/* The physical address of the (present) page at @p, 0 if unknown. */
static u64 phys_of(const void *p)
{
	u64 e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		return 0;
	if (pread(fd, &e, 8, (uintptr_t)p / 4096 * 8) != 8)
		e = 0;
	close(fd);
	return (e >> 63) ? (e & ((1ULL << 55) - 1)) * 4096 : 0;
}

/* Is the page at @p identity mapped (pagemap PFN * 4096 == VA)? */
static bool identity(const void *p)
{
	return phys_of(p) == (uintptr_t)p;
}

static void dvm_mode(bool on)
{
	if (prctl(PR_SET_DVM, on ? PR_DVM_ON : PR_DVM_OFF, 0, 0, 0))
		printf("# prctl(PR_SET_DVM): %s\n", strerror(errno));
}

static void memcpy_job(struct dvm_accel_job *j, void *dst, const void *src,
		       size_t len)
{
	memset(j, 0, sizeof(*j));
	j->op = DVM_ACCEL_MEMCPY;
	j->memcpy.dst = (uintptr_t)dst;
	j->memcpy.src = (uintptr_t)src;
	j->memcpy.len = len;
}

/* ---- jobs ---------------------------------------------------------- */

static void jobs_on(int fd, const char *what, size_t len)
{
	struct dvm_accel_job j;
	u64 *a = map(len, PROT_READ | PROT_WRITE);
	u64 *b = map(len, PROT_READ | PROT_WRITE);
	u64 *c = map(len, PROT_READ | PROT_WRITE);
	size_t n = len / 8, i;
	u32 *idx = malloc(n * 4);
	bool id = identity(a) && identity(b);
	int err;

	for (i = 0; i < n; i++) {
		a[i] = i * 0x9e3779b97f4a7c15ULL;
		idx[i] = (u32)((i * 7919) % n);
	}
	/* memcpy, unaligned ends */
	memset(b, 0xee, len);
	memcpy_job(&j, (char *)b + 3, (char *)a + 5, len - 77);
	err = run(fd, &j);
	check(!err && !memcmp((char *)b + 3, (char *)a + 5, len - 77) &&
	      ((char *)b)[2] == (char)0xee && ((char *)b)[len - 74] == (char)0xee &&
	      j.stats.bytes_written == len - 77,
	      "%s: memcpy of %zu bytes lands exactly (err %d, %llu written)",
	      what, len - 77, err, (unsigned long long)j.stats.bytes_written);
	if (id)
		check(j.stats.identity == j.stats.accesses && !j.stats.translated &&
		      j.stats.preloads == j.stats.reads && !j.stats.preloads_squashed,
		      "%s: every access validated by a PE (%llu of %llu), every load's data its preload (%llu of %llu)",
		      what, (unsigned long long)j.stats.identity,
		      (unsigned long long)j.stats.accesses,
		      (unsigned long long)(j.stats.preloads - j.stats.preloads_squashed),
		      (unsigned long long)j.stats.reads);
	else
		check(j.stats.translated > 0 && !j.stats.preloads,
		      "%s: translated accesses (%llu), no preload issued at PA == VA (%llu)",
		      what, (unsigned long long)j.stats.translated,
		      (unsigned long long)j.stats.preloads);
	/* gather */
	memset(&j, 0, sizeof(j));
	j.op = DVM_ACCEL_GATHER;
	j.gs.dst = (uintptr_t)c;
	j.gs.src = (uintptr_t)a;
	j.gs.idx = (uintptr_t)idx;
	j.gs.n = n;
	j.gs.n_table = n;
	err = run(fd, &j);
	for (i = 0; i < n && c[i] == a[idx[i]]; i++)
		;
	check(!err && i == n && j.stats.accesses == 3 * n,
	      "%s: gather of %zu elements (err %d, %llu accesses)", what, n, err,
	      (unsigned long long)j.stats.accesses);
	/* scatter: back into b through the same permutation */
	memset(b, 0, len);
	j.op = DVM_ACCEL_SCATTER;
	j.gs.dst = (uintptr_t)b;
	j.gs.src = (uintptr_t)c;
	err = run(fd, &j);
	for (i = 0; i < n && b[idx[i]] == c[i]; i++)
		;
	check(!err && i == n, "%s: scatter of %zu elements (err %d)", what, n, err);
	/* an index out of bounds: -EINVAL */
	idx[n / 2] = (u32)n;
	err = run(fd, &j);
	check(err == EINVAL, "%s: index beyond n_table refused with EINVAL (%d)",
	      what, err);
	/* pointer chase through a cycle over the pages of a */
	for (i = 0; i < n; i += 512)
		a[i] = (uintptr_t)&a[(i + 512 * 37) % n];
	memset(&j, 0, sizeof(j));
	j.op = DVM_ACCEL_CHASE;
	j.chase.start = (uintptr_t)a;
	j.chase.max_steps = 1000;
	err = run(fd, &j);
	{
		u64 p = (uintptr_t)a;

		for (i = 0; i < 1000; i++)
			p = *(u64 *)(uintptr_t)p;
		check(!err && j.result == 1000 && j.result2 == p,
		      "%s: pointer chase of 1000 steps ends where the CPU's does",
		      what);
	}
	munmap(a, len);
	munmap(b, len);
	munmap(c, len);
	free(idx);
}

/*
 * A translated page whose virtual address is the physical address of
 * another page of ours, full of other bytes: the load must not be
 * preloaded from PA == VA (that page is not the one the process reads),
 * and gives the translated page's data.
 */
static void preload_decoy(int fd)
{
	struct dvm_accel_job j;
	char *decoy = map(4096, PROT_READ | PROT_WRITE);
	char *dst = map(4096, PROT_READ | PROT_WRITE);
	char *src;
	u64 pa;
	int err;

	memset(decoy, 0x5a, 4096);
	pa = phys_of(decoy);
	src = pa ? mmap((void *)(uintptr_t)pa, 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) :
		   MAP_FAILED;
	if (src == MAP_FAILED || phys_of(memset(src, 0xb1, 4096)) == pa) {
		check(false, "decoy: no translated page at VA %#llx (%s)",
		      (unsigned long long)pa, strerror(errno));
		return;
	}
	memcpy_job(&j, dst, src, 4096);
	err = run(fd, &j);
	check(!err && dst[0] == (char)0xb1 && !memcmp(dst, src, 4096) &&
	      j.stats.translated == j.stats.accesses && j.stats.reads &&
	      !j.stats.preloads,
	      "memcpy from a translated page at VA %#llx == PA of a decoy page: its data, not the decoy's, and no preload of the decoy (err %d, %llu preloads for %llu loads)",
	      (unsigned long long)pa, err,
	      (unsigned long long)j.stats.preloads,
	      (unsigned long long)j.stats.reads);
	munmap(src, 4096);
	munmap(dst, 4096);
	munmap(decoy, 4096);
}

/* ---- preloads ------------------------------------------------------- */

/* Is [@p, @p + 4096) mapped in this process? */
static bool mapped(u64 p)
{
	unsigned char v;

	return !mincore((void *)(uintptr_t)p, 4096, &v) || errno != ENOMEM;
}

#define FOREIGN_PAGES	16

/*
 * A child process that holds pages full of 0x77 until told to go: the
 * physical address of one whose VA == PA is not mapped here, 0 when
 * there is none.
 */
static u64 foreign_page(pid_t *pid, int *go)
{
	u64 pa[FOREIGN_PAGES] = { 0 };
	int up[2], down[2], i;

	if (pipe(up) || pipe(down))
		return 0;
	*pid = fork();
	if (*pid < 0)
		return 0;
	if (!*pid) {
		char *p = map(FOREIGN_PAGES * 4096, PROT_READ | PROT_WRITE);
		char c;

		/* the parent's close of its end is our signal to go */
		close(up[0]);
		close(down[1]);
		memset(p, 0x77, FOREIGN_PAGES * 4096);
		for (i = 0; i < FOREIGN_PAGES; i++)
			pa[i] = phys_of(p + i * 4096);
		if (write(up[1], pa, sizeof(pa)) != sizeof(pa))
			_exit(1);
		if (read(down[0], &c, 1) < 0)
			_exit(1);
		_exit(p[0] == 0x77 ? 0 : 1);
	}
	close(up[1]);
	close(down[0]);
	*go = down[1];
	if (read(up[0], pa, sizeof(pa)) != sizeof(pa))
		memset(pa, 0, sizeof(pa));
	close(up[0]);
	for (i = 0; i < FOREIGN_PAGES; i++)
		if (pa[i] && !mapped(pa[i]))
			return pa[i];
	return 0;
}

/*
 * Preloads read only what a walk has validated: never at a virtual
 * address whose page at PA == VA belongs to another process, whether the
 * address is not ours at all (a pointer chase to it) or a translated page
 * of ours sits there; on identity-mapped memory every load still is.
 */
static int cmd_preload(void)
{
	struct dvm_accel_job j;
	char *src, *dst, *a, *b;
	int fd, err, go = -1, status;
	pid_t pid = -1;
	u64 pa;

	printf("1..4\n");
	fd = accel_open();
	pa = foreign_page(&pid, &go);
	check(pa && !mapped(pa),
	      "another process's page at PA %#llx, VA %#llx not mapped here",
	      (unsigned long long)pa, (unsigned long long)pa);

	/* a pointer chase to VA == that PA: refused, nothing read */
	memset(&j, 0, sizeof(j));
	j.op = DVM_ACCEL_CHASE;
	j.chase.start = pa;
	j.chase.max_steps = 1;
	err = run(fd, &j);
	check(pa && err == EFAULT && !j.result && j.stats.perm_faults == 1 &&
	      !j.stats.preloads && !j.stats.preloads_squashed,
	      "chase to VA %#llx (another process's page at PA == VA): EFAULT, 0 steps, no preload read it (err %d, %llu preloads, %llu squashed)",
	      (unsigned long long)pa, err, (unsigned long long)j.stats.preloads,
	      (unsigned long long)j.stats.preloads_squashed);

	/* a translated page of ours at VA == that PA: its data, no preload */
	dst = map(4096, PROT_READ | PROT_WRITE);
	src = pa ? mmap((void *)(uintptr_t)pa, 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) :
		   MAP_FAILED;
	if (src != MAP_FAILED) {
		memset(src, 0xb1, 4096);
		memcpy_job(&j, dst, src, 4096);
		err = run(fd, &j);
	}
	check(src != MAP_FAILED && phys_of(src) != pa && !err &&
	      dst[0] == (char)0xb1 && !memcmp(dst, src, 4096) &&
	      j.stats.translated == j.stats.accesses && j.stats.reads &&
	      !j.stats.preloads,
	      "memcpy from our translated page at VA %#llx == PA of another process's page: our data, no preload read theirs (err %d, %llu preloads for %llu loads)",
	      (unsigned long long)pa, err, (unsigned long long)j.stats.preloads,
	      (unsigned long long)j.stats.reads);
	if (src != MAP_FAILED)
		munmap(src, 4096);
	if (go >= 0) {
		close(go);
		waitpid(pid, &status, 0);
	}

	/* identity-mapped memory: every load is its preload */
	dvm_mode(true);
	a = map(4 * MiB, PROT_READ | PROT_WRITE);
	b = map(4 * MiB, PROT_READ | PROT_WRITE);
	dvm_mode(false);
	memset(a, 0x3c, 4 * MiB);
	memcpy_job(&j, b, a, 4 * MiB);
	err = run(fd, &j);
	check(identity(a) && identity(b) && !err && !memcmp(a, b, 4 * MiB) &&
	      j.stats.identity == j.stats.accesses && j.stats.reads &&
	      j.stats.preloads == j.stats.reads && !j.stats.preloads_squashed,
	      "identity memcpy: every load preloaded (%llu of %llu), none squashed (%llu)",
	      (unsigned long long)j.stats.preloads,
	      (unsigned long long)j.stats.reads,
	      (unsigned long long)j.stats.preloads_squashed);
	munmap(a, 4 * MiB);
	munmap(b, 4 * MiB);
	munmap(dst, 4096);
	close(fd);
	return tests_failed ? 1 : 0;
}

static int cmd_jobs(bool plan)
{
	int fd;
	void *probe;

	if (plan)
		printf("1..16\n");
	dvm_mode(true);
	probe = map(4 * MiB, PROT_READ | PROT_WRITE);
	check(identity(probe), "DVM mode gives identity-mapped memory");
	munmap(probe, 4 * MiB);
	fd = accel_open();
	jobs_on(fd, "identity", 4 * MiB);
	dvm_mode(false);
	jobs_on(fd, "translated", 1 * MiB);
	preload_decoy(fd);
	{
		struct dvm_accel_job j;
		char *x = map(8192, PROT_READ | PROT_WRITE);

		memcpy_job(&j, x, x + 4096, 4096);
		j.flags = 0x80;
		check(run(fd, &j) == EINVAL, "unknown job flag: EINVAL");
		j.flags = 0;
		j.op = 99;
		check(run(fd, &j) == EINVAL, "unknown job: EINVAL");
	}
	close(fd);
	return tests_failed ? 1 : 0;
}

/* ---- security ------------------------------------------------------- */

/* A memcpy that must be refused: EFAULT, nothing written anywhere. */
static void refused(int fd, const char *what, void *dst, const void *src,
		    size_t len, char *guard)
{
	struct dvm_accel_job j;
	int err;
	size_t i;

	memcpy_job(&j, dst, src, len);
	err = run(fd, &j);
	for (i = 0; guard && i < len && guard[i] == 0x5a; i++)
		;
	check(err == EFAULT && !j.stats.bytes_written && j.stats.perm_faults &&
	      (!guard || i == len),
	      "%s: EFAULT (%d), 0 bytes moved (%llu), destination intact",
	      what, err, (unsigned long long)j.stats.bytes_written);
}

static int cmd_security(bool plan)
{
	size_t len = 4 * MiB;
	char *src, *dst, *ro, *none, *gone;
	int fd, pipefd[2];
	pid_t child;
	u64 other;

	if (plan)
		printf("1..8\n");
	dvm_mode(true);
	src = map(len, PROT_READ | PROT_WRITE);
	dst = map(len, PROT_READ | PROT_WRITE);
	ro = map(len, PROT_READ | PROT_WRITE);
	none = map(len, PROT_READ | PROT_WRITE);
	gone = map(len, PROT_READ | PROT_WRITE);
	memset(src, 0xa5, len);
	memset(dst, 0x5a, len);
	memset(ro, 0x5a, len);
	memset(gone, 0x77, len);
	fd = accel_open();
	mprotect(ro, len, PROT_READ);
	mprotect(none, len, PROT_NONE);
	munmap(gone, len);

	refused(fd, "unmapped source (0x10000)", dst, (void *)0x10000, 4096, dst);
	refused(fd, "source beyond user space", dst, (void *)(1ULL << 47), 4096,
		dst);
	refused(fd, "write to a read-only mapping", ro, src, len, ro);
	refused(fd, "read of a PROT_NONE mapping", dst, none, len, dst);
	refused(fd, "read after munmap", dst, gone, len, dst);
	/* only the last page is read-only: the job stops before the first */
	mprotect(dst + len - 4096, 4096, PROT_READ);
	refused(fd, "the last page of the destination read-only", dst, src, len,
		dst);
	mprotect(dst + len - 4096, 4096, PROT_READ | PROT_WRITE);

	/* another process's identity-mapped memory */
	if (pipe(pipefd))
		return 1;
	child = fork();
	if (!child) {
		char *mine = map(len, PROT_READ | PROT_WRITE);

		memset(mine, 0x33, len);
		other = (uintptr_t)mine;
		if (write(pipefd[1], &other, 8) != 8)
			_exit(1);
		pause();
		_exit(0);
	}
	if (read(pipefd[0], &other, 8) != 8)
		other = 0;
	refused(fd, "another process's memory", dst, (void *)(uintptr_t)other,
		len, dst);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);

	/* the same job with legal arguments still works afterwards */
	{
		struct dvm_accel_job j;

		memcpy_job(&j, dst, src, len);
		check(!run(fd, &j) && !memcmp(dst, src, len),
		      "a legal job after the refused ones moves all %zu bytes", len);
	}
	close(fd);
	return tests_failed ? 1 : 0;
}

/* ---- execute permission ---------------------------------------------- */

static void fetch_job(struct dvm_accel_job *j, void *dst, const void *src,
		      size_t len)
{
	memcpy_job(j, dst, src, len);
	j->op = DVM_ACCEL_FETCH;
}

/* A fetch that must be refused: EFAULT, nothing written. */
static void fetch_refused(int fd, const char *what, char *dst, const void *src,
			  size_t len)
{
	struct dvm_accel_job j;
	size_t i;
	int err;

	memset(dst, 0x5a, len);
	fetch_job(&j, dst, src, len);
	err = run(fd, &j);
	for (i = 0; i < len && dst[i] == 0x5a; i++)
		;
	check(err == EFAULT && !j.stats.bytes_written && j.stats.perm_faults &&
	      i == len, "fetch from %s: EFAULT (%d), 0 bytes moved (%llu)",
	      what, err, (unsigned long long)j.stats.bytes_written);
}

/*
 * The device fetches code only from pages it may execute (the paper's
 * permission 11, read-execute): the mirror gives that to read-only pages
 * of executable VMAs, identity mapped (a PE) or not (a 4 KiB leaf).
 */
static int cmd_exec(bool plan)
{
	size_t len = 2 * MiB;
	const char *text = (const char *)((uintptr_t)&cmd_exec & ~4095UL);
	struct dvm_accel_job j;
	char *rx, *data, *dst;
	int fd, err;

	if (plan)
		printf("1..6\n");
	dvm_mode(true);
	rx = map(len, PROT_READ | PROT_WRITE);
	data = map(len, PROT_READ | PROT_WRITE);
	dvm_mode(false);
	/* translated: the fetches below are the identity half of the accesses */
	dst = map(len, PROT_READ | PROT_WRITE);
	memset(rx, 0xc3, len);
	memset(data, 0x11, len);
	fd = accel_open();

	/* the program's own text: file pages, translated, read-execute */
	memset(dst, 0, 4096);
	fetch_job(&j, dst, text, 4096);
	err = run(fd, &j);
	check(!err && !memcmp(dst, text, 4096) && j.stats.translated,
	      "fetch of this program's text: %d, bytes equal, %llu translated",
	      err, (unsigned long long)j.stats.translated);

	/* identity memory made read-execute after binding: faulted back as 11 */
	mprotect(rx, len, PROT_READ | PROT_EXEC);
	memset(dst, 0, len);
	fetch_job(&j, dst, rx, len);
	err = run(fd, &j);
	check(!err && dst[0] == (char)0xc3 && dst[len - 1] == (char)0xc3 &&
	      identity(rx) && j.stats.identity == j.stats.accesses / 2,
	      "fetch of %zu KiB of identity read-execute memory: %d, %llu of %llu accesses identity",
	      len / 1024, err, (unsigned long long)j.stats.identity,
	      (unsigned long long)j.stats.accesses);

	fetch_refused(fd, "read-write data", dst, data, 4096);
	mprotect(data, len, PROT_READ);
	fetch_refused(fd, "read-only data", dst, data, 4096);
	/* taken back: the same identity pages, no longer executable */
	mprotect(rx, len, PROT_READ);
	fetch_refused(fd, "memory no longer executable", dst, rx, 4096);

	/* reading executable memory is still allowed */
	memcpy_job(&j, dst, text, 4096);
	check(!run(fd, &j) && !memcmp(dst, text, 4096),
	      "plain reads of the text still allowed");
	close(fd);
	return tests_failed ? 1 : 0;
}

/* ---- lifecycle ------------------------------------------------------ */

struct racer {
	char *buf;
	size_t len;
	int op;			/* 0 munmap, 1 mprotect */
	long delay_us;
};

static void *race(void *arg)
{
	struct racer *r = arg;

	usleep(r->delay_us);
	if (r->op)
		mprotect(r->buf, r->len, PROT_READ);
	else
		munmap(r->buf, r->len);
	return NULL;
}

static void diag_mid(int op, int rounds, int mid, u64 moved, size_t len)
{
	printf("# %s: %d rounds; %s (%llu of %zu bytes moved by the last job)\n",
	       op ? "mprotect" : "munmap", rounds,
	       mid ? "a job was cut in the middle of its copy" :
	       "no job was cut mid-copy (all ended before the first byte)",
	       (unsigned long long)moved, len);
}

static u64 table_bytes(int fd)
{
	struct dvm_accel_stats st;

	if (ioctl(fd, DVM_ACCEL_TABLE, &st))
		return 0;
	return st.pt_bytes;
}

static int cmd_lifecycle(bool plan)
{
	size_t len = 16 * MiB;
	struct dvm_accel_job j;
	int fd, op, err, status;
	char *a, *b;
	u64 t0, t1;
	pid_t child;

	if (plan)
		printf("1..8\n");
	dvm_mode(true);
	fd = accel_open();
	t0 = table_bytes(fd);
	/*
	 * munmap / mprotect of the destination by another thread while jobs
	 * run, at growing delays until one lands in the middle of a copy.
	 */
	for (op = 0; op < 2; op++) {
		int rounds, mid = 0, bad = 0;
		u64 moved = 0;

		for (rounds = 0; rounds < 12 && !mid; rounds++) {
			struct racer r = { .len = len, .op = op,
					   .delay_us = 500L << rounds };
			pthread_t t;
			int k;

			a = map(len, PROT_READ | PROT_WRITE);
			b = map(len, PROT_READ | PROT_WRITE);
			memset(a, 1, len);
			memset(b, 2, len);
			memcpy_job(&j, b, a, len);	/* table filled */
			bad |= run(fd, &j);
			memset(b, 2, len);
			r.buf = b;
			pthread_create(&t, NULL, race, &r);
			for (k = 0, err = 0; k < 1000 && !err; k++) {
				memcpy_job(&j, b, a, len);
				err = run(fd, &j);
			}
			pthread_join(t, NULL);
			bad |= err != EFAULT;
			moved = j.stats.bytes_written;
			mid = moved > 0 && moved < len;
			if (op) {
				/* the bytes that landed are a's, the rest b's */
				size_t i;

				for (i = 0; i < moved && b[i] == 1; i++)
					;
				bad |= i != moved;
				munmap(b, len);
			}
			munmap(a, len);
		}
		check(!bad, "%s during jobs: the job then running ends with EFAULT",
		      op ? "mprotect(PROT_READ)" : "munmap");
		diag_mid(op, rounds, mid, moved, len);
		if (!op)
			check(table_bytes(fd) <= t0 + 4 * 4096,
			      "munmap race: the device table gave the ranges back (%llu bytes)",
			      (unsigned long long)table_bytes(fd));
		else
			check(!bad,
			      "mprotect race: destination has source bytes to the fault");
	}
	t1 = table_bytes(fd);
	check(t1 <= t0 + 8 * 4096, "device table back near its bound size: %llu -> %llu bytes",
	      (unsigned long long)t0, (unsigned long long)t1);

	/* fork: the child cannot use the parent's binding; CoW keeps them apart */
	a = map(len, PROT_READ | PROT_WRITE);
	b = map(len, PROT_READ | PROT_WRITE);
	memset(a, 3, len);
	memset(b, 4, len);
	child = fork();
	if (!child) {
		memcpy_job(&j, b, a, 4096);
		_exit(run(fd, &j) == EPERM && b[0] == 4 ? 0 : 1);
	}
	waitpid(child, &status, 0);
	check(WIFEXITED(status) && !WEXITSTATUS(status),
	      "fork: a job from the child on the parent's file: EPERM, nothing moved");
	memcpy_job(&j, b, a, len);
	err = run(fd, &j);
	check(!err && b[0] == 3 && b[len - 1] == 3 && j.stats.faults > 0,
	      "fork: the parent's job after fork re-faults its pages (%llu) and writes its memory",
	      (unsigned long long)j.stats.faults);
	munmap(a, len);
	munmap(b, len);
	close(fd);

	/* exit mid-job: a child killed while its job runs */
	child = fork();
	if (!child) {
		int cfd = accel_open();
		char *x = map(64 * MiB, PROT_READ | PROT_WRITE);
		char *y = map(64 * MiB, PROT_READ | PROT_WRITE);

		memset(x, 5, 64 * MiB);
		for (;;) {
			memcpy_job(&j, y, x, 64 * MiB);
			run(cfd, &j);
		}
	}
	{
		struct timespec ts = { 1, 0 };

		nanosleep(&ts, NULL);
	}
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	fd = accel_open();
	a = map(len, PROT_READ | PROT_WRITE);
	memset(a, 6, len / 2);
	memcpy_job(&j, a + len / 2, a, len / 2);
	err = run(fd, &j);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && !err &&
	      a[len - 1] == 6,
	      "exit mid-job: the killed process is gone, the device works for the next one");
	close(fd);
	return tests_failed ? 1 : 0;
}

/* ---- graphs ------------------------------------------------------- */

static void *arena_take(char **cur, size_t len)
{
	void *p = *cur;

	*cur += (len + 63) & ~63UL;
	return p;
}

static double pct(u64 a, u64 b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* The device table's entries by level (DVM_ACCEL_LEVELS); 0 on success. */
static int table_levels(int fd, struct dvm_accel_levels *lv)
{
	memset(lv, 0, sizeof(*lv));
	if (!ioctl(fd, DVM_ACCEL_LEVELS, lv))
		return 0;
	printf("# DVM_ACCEL_LEVELS: %s\n", strerror(errno));
	return errno;
}

/* The table's entries by level, as key=value pairs of a "# raw:" line. */
static void raw_levels(const struct dvm_accel_levels *lv)
{
	printf(" l4_pes=%llu l3_pes=%llu l3_fields=%llu",
	       (unsigned long long)lv->l4_pes, (unsigned long long)lv->l3_pes,
	       (unsigned long long)lv->l3_fields);
	printf(" l2_pes=%llu l2_fields=%llu l1_leaves=%llu tables=%llu",
	       (unsigned long long)lv->l2_pes, (unsigned long long)lv->l2_fields,
	       (unsigned long long)lv->l1_leaves, (unsigned long long)lv->tables);
}

/*
 * A job's counters, raw, for tools/dvm-eval (one line, key=value), with
 * the Permission Entries of each level and the 4 KiB leaves of the table
 * after the job.
 */
static void raw_stats(int fd, const char *job, u32 scale, u64 n, u64 m,
		      const struct dvm_accel_stats *st)
{
	struct dvm_accel_levels lv;
	const struct {
		const char *k;
		u64 v;
	} f[] = {
		{ "n", n }, { "m", m }, { "accesses", st->accesses },
		{ "reads", st->reads }, { "writes", st->writes },
		{ "identity", st->identity }, { "translated", st->translated },
		{ "walk_refs", st->walk_refs },
		{ "validation_refs", st->validation_refs },
		{ "avc_hits", st->avc_hits }, { "avc_misses", st->avc_misses },
		{ "preloads", st->preloads },
		{ "squashed", st->preloads_squashed }, { "faults", st->faults },
		{ "pt_bytes", st->pt_bytes }, { "pt_bytes_4k", st->pt_bytes_4k },
		{ "tlb4k_misses", st->tlb4k_misses },
		{ "tlb2m_misses", st->tlb2m_misses }, { "ns", st->ns },
	};
	size_t i;

	printf("# raw: job=%s scale=%u", job, scale);
	for (i = 0; i < ARRAY_SIZE(f); i++)
		printf(" %s=%llu", f[i].k, (unsigned long long)f[i].v);
	if (!table_levels(fd, &lv))
		raw_levels(&lv);
	printf("\n");
}

/* A counter of /proc/vmstat (0 when absent). */
static u64 vmstat_read(const char *name)
{
	char line[128];
	size_t len = strlen(name);
	u64 v = 0;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ' ')
			v = strtoull(line + len + 1, NULL, 10);
	fclose(f);
	return v;
}

/* The arena of a graph, and why it is not identity mapped when it is not. */
static char *graph_arena(u32 scale, size_t alen)
{
	u64 nocontig = vmstat_read("dvm_fallback_nocontig");
	u64 vabusy = vmstat_read("dvm_fallback_vabusy");
	char *arena = map(alen, PROT_READ | PROT_WRITE);
	bool id = identity(arena) && identity(arena + alen - 4096);

	nocontig = vmstat_read("dvm_fallback_nocontig") - nocontig;
	vabusy = vmstat_read("dvm_fallback_vabusy") - vabusy;
	printf("# raw: arena scale=%u bytes=%zu va=%p identity=%d", scale, alen,
	       (void *)arena, id);
	printf(" nocontig=%llu vabusy=%llu brk=%p\n",
	       (unsigned long long)nocontig, (unsigned long long)vabusy, sbrk(0));
	printf("# scale %u: arena of %zu KiB at %p %s identity mapped", scale,
	       alen / 1024, (void *)arena, id ? "is" : "is NOT");
	printf(" (fallbacks: no contiguous memory +%llu, range taken +%llu)\n",
	       (unsigned long long)nocontig, (unsigned long long)vabusy);
	return arena;
}

static void graph(int fd, u32 scale, u32 ef)
{
	u64 n = 1ULL << scale, ne = n * ef, m, v, reached, ref_reached;
	size_t need = (n + 1) * 8 + 2 * ne * 4 + 4 * n * 4 + 4 * n * 8 + 64 * 16;
	size_t alen = (need + 2 * MiB - 1) & ~(2 * MiB - 1);
	char *arena = graph_arena(scale, alen), *cur = arena;
	u64 *row = arena_take(&cur, (n + 1) * 8);
	u32 *col = arena_take(&cur, 2 * ne * 4);
	s32 *lv = arena_take(&cur, n * 4), *lv_ref = malloc(n * 4);
	u32 *q = arena_take(&cur, n * 4), *q_ref = malloc(n * 4);
	u64 *rank = arena_take(&cur, n * 8), *next = arena_take(&cur, n * 8);
	u64 *rank_ref = malloc(n * 8), *next_ref = malloc(n * 8);
	struct dvm_accel_job j;
	struct dvm_accel_stats bs;
	u32 root = 0, *eu, *ev;
	int err;

	/* the edge list only after the arena, which wants contiguous memory */
	eu = malloc(ne * 4);
	ev = malloc(ne * 4);
	if (!eu || !ev) {
		printf("Bail out! no memory for %llu edges\n", (unsigned long long)ne);
		exit(1);
	}
	printf("# scale %u: CSR and result arrays %s identity mapped\n", scale,
	       identity(arena) && identity(arena + alen - 4096) ? "are" : "are NOT");
	dvm_rmat_edges(0x5eed0000 + scale, scale, ne, eu, ev);
	m = dvm_csr_build(n, eu, ev, ne, row, col);
	free(eu);
	free(ev);
	/* a root with edges, as Graph500 picks them */
	while (row[root + 1] == row[root])
		root++;
	ref_reached = dvm_bfs_ref(row, col, n, root, lv_ref, q_ref);

	memset(&j, 0, sizeof(j));
	j.op = DVM_ACCEL_BFS;
	j.flags = DVM_ACCEL_F_TLB;
	j.bfs.g.row = (uintptr_t)row;
	j.bfs.g.col = (uintptr_t)col;
	j.bfs.g.n = n;
	j.bfs.g.m = m;
	j.bfs.root = root;
	j.bfs.level = (uintptr_t)lv;
	j.bfs.queue = (uintptr_t)q;
	err = run(fd, &j);
	reached = j.result;
	bs = j.stats;
	check(!err && reached == ref_reached && !memcmp(lv, lv_ref, n * 4),
	      "scale %u: BFS from %u on the accelerator matches the CPU (%llu of %llu vertices, %llu edges)",
	      scale, root, (unsigned long long)reached, (unsigned long long)n,
	      (unsigned long long)m);

	printf("# table: %2u %7llu %8llu %9llu %9llu %6.2f %7.3f %7.5f",
	       scale, (unsigned long long)n, (unsigned long long)m,
	       (unsigned long long)bs.pt_bytes, (unsigned long long)bs.pt_bytes_4k,
	       100.0 - pct(bs.pt_bytes, bs.pt_bytes_4k),
	       pct(bs.avc_hits, bs.avc_hits + bs.avc_misses),
	       (double)bs.validation_refs / (double)(bs.accesses ? bs.accesses : 1));
	printf(" %6.2f %6.2f %6.2f %6.2f %7.3f\n",
	       pct(bs.tlb4k_misses, bs.accesses), pct(bs.tlb2m_misses, bs.accesses),
	       pct(bs.identity, bs.accesses), pct(bs.preloads_squashed, bs.preloads),
	       (double)bs.ns / 1e9);
	raw_stats(fd, "bfs", scale, n, m, &bs);
	if (scale > 16)
		goto out;
	memset(&j, 0, sizeof(j));
	j.op = DVM_ACCEL_PAGERANK;
	j.pr.g = (struct dvm_accel_csr){ (uintptr_t)row, (uintptr_t)col, n, m };
	j.pr.iters = 3;
	j.pr.rank = (uintptr_t)rank;
	j.pr.next = (uintptr_t)next;
	err = run(fd, &j);
	dvm_pagerank_ref(row, col, n, 3, rank_ref, next_ref);
	for (v = 0; v < n && rank[v] == rank_ref[v]; v++)
		;
	check(!err && v == n,
	      "scale %u: PageRank (3 iterations, fixed point) equals the CPU's",
	      scale);
	raw_stats(fd, "pagerank", scale, n, m, &j.stats);
	printf("# scale %u PageRank: %llu accesses, AVC hit %.4f %%, %.5f refs/access\n",
	       scale, (unsigned long long)j.stats.accesses,
	       pct(j.stats.avc_hits, j.stats.avc_hits + j.stats.avc_misses),
	       (double)j.stats.validation_refs /
	       (double)(j.stats.accesses ? j.stats.accesses : 1));
out:
	munmap(arena, alen);
	free(lv_ref);
	free(q_ref);
	free(rank_ref);
	free(next_ref);
}

static int cmd_graph(int argc, char **argv)
{
	int fd, i, n;

	for (i = 0, n = 0; i < argc; i++)
		n += atoi(argv[i]) > 16 ? 1 : 2;
	printf("1..%d\n", n);
	dvm_mode(true);
	fd = accel_open();
	printf("# table: scale n m(directed) PE-bytes 4K-bytes saved%% AVC-hit%%");
	printf(" refs/access TLB4K-miss%% TLB2M-miss%% identity%% squashed%% BFS-s\n");
	for (i = 0; i < argc; i++)
		graph(fd, (u32)atoi(argv[i]), 16);
	close(fd);
	return tests_failed ? 1 : 0;
}

/*
 * The device table of a process whose heap is one identity-mapped
 * mapping of each size (MiB), mapped before the bind: bytes with PEs and
 * with 4 KiB-page tables for the same mappings (Table 1 at the heap sizes
 * of the paper's workloads), and the table's entries by level
 * (DVM_ACCEL_LEVELS: Permission Entries at L3 and L2, 4 KiB leaves).
 */
static int cmd_heap(int argc, char **argv)
{
	struct dvm_accel_levels lv;
	struct dvm_accel_stats st;
	int fd, i, lerr;

	printf("1..%d\n", argc);
	printf("# heap: MiB identity PE-bytes 4K-bytes saved%%\n");
	for (i = 0; i < argc; i++) {
		size_t len = (size_t)atoi(argv[i]) << 20;
		char *p;
		bool id;

		dvm_mode(true);
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		id = p != MAP_FAILED && identity(p) && identity(p + len - 4096);
		dvm_mode(false);
		fd = accel_open();
		memset(&st, 0, sizeof(st));
		if (ioctl(fd, DVM_ACCEL_TABLE, &st))
			printf("# DVM_ACCEL_TABLE: %s\n", strerror(errno));
		lerr = table_levels(fd, &lv);
		printf("# heap: %zu %s %llu %llu %.1f\n", len >> 20,
		       id ? "yes" : "no", (unsigned long long)st.pt_bytes,
		       (unsigned long long)st.pt_bytes_4k,
		       st.pt_bytes_4k ? 100.0 * (1.0 - (double)st.pt_bytes /
						 (double)st.pt_bytes_4k) : 0.0);
		/* the whole process: the heap, and the program's own pages */
		printf("# heap levels: %zu MiB at %p (%s aligned): ", len >> 20,
		       (void *)p,
		       !((uintptr_t)p & ((1UL << 30) - 1)) ? "1 GiB" :
		       !((uintptr_t)p & ((64UL << 20) - 1)) ? "64 MiB" :
		       !((uintptr_t)p & ((2UL << 20) - 1)) ? "2 MiB" : "not 2 MiB");
		printf("L3 PEs %llu (%llu fields of 64 MiB), ",
		       (unsigned long long)lv.l3_pes, (unsigned long long)lv.l3_fields);
		printf("L2 PEs %llu (%llu fields of 128 KiB), ",
		       (unsigned long long)lv.l2_pes, (unsigned long long)lv.l2_fields);
		printf("L1 leaves %llu, %llu tables\n", (unsigned long long)lv.l1_leaves,
		       (unsigned long long)lv.tables);
		printf("# raw: heap mib=%zu identity=%d va=%p", len >> 20, id, (void *)p);
		raw_levels(&lv);
		printf("\n");
		if (!id && p != MAP_FAILED)	/* DVM's fallback, by design */
			printf("ok %d - # SKIP %zu MiB: no free contiguous run, demand paged\n",
			       ++tests_run, len >> 20);
		else
			check(id && st.pt_bytes && st.pt_bytes < st.pt_bytes_4k &&
			      !lerr && lv.l3_pes + lv.l2_pes,
			      "%zu MiB identity heap: device table %llu bytes with PEs (%llu L3, %llu L2), %llu with 4 KiB tables",
			      len >> 20, (unsigned long long)st.pt_bytes,
			      (unsigned long long)lv.l3_pes, (unsigned long long)lv.l2_pes,
			      (unsigned long long)st.pt_bytes_4k);
		close(fd);
		if (p != MAP_FAILED)
			munmap(p, len);
	}
	return tests_failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && !strcmp(argv[1], "jobs"))
		return cmd_jobs(true);
	if (argc >= 2 && !strcmp(argv[1], "security"))
		return cmd_security(true);
	if (argc >= 2 && !strcmp(argv[1], "lifecycle"))
		return cmd_lifecycle(true);
	if (argc >= 2 && !strcmp(argv[1], "preload"))
		return cmd_preload();
	if (argc >= 2 && !strcmp(argv[1], "exec"))
		return cmd_exec(true);
	if (argc >= 2 && !strcmp(argv[1], "all")) {
		printf("1..32\n");
		cmd_jobs(false);
		cmd_security(false);
		return cmd_lifecycle(false);
	}
	if (argc >= 3 && !strcmp(argv[1], "graph"))
		return cmd_graph(argc - 2, argv + 2);
	if (argc >= 3 && !strcmp(argv[1], "heap"))
		return cmd_heap(argc - 2, argv + 2);
	fprintf(stderr, "usage: dvm_accel jobs|security|lifecycle|exec|all|graph SCALE...|%s\n",
		"heap MIB...");
	return 2;
}
