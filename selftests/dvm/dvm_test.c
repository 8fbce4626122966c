// SPDX-License-Identifier: GPL-2.0
/*
 * DVM selftests: per-process mode (PR_SET_DVM), identity mapping of private
 * anonymous memory (VA == PA, checked page by page in /proc/self/pagemap),
 * fallback to demand paging, and the life cycle of identity mappings.
 *
 * Needs root (PR_SET_DVM and pagemap PFNs need CAP_SYS_ADMIN) and a kernel
 * with CONFIG_DVM.  Documentation/admin-guide/mm/dvm.rst has the semantics
 * tested here.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "dvm_util.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE	0x100000
#endif

#define HELPER_ENV	"DVM_TEST_HELPER"

/*
 * Helper modes, for a re-executed copy of this program (see inherit_exec):
 * "get" exits with PR_GET_DVM; "map" exits 0 when an 8 MiB mapping is
 * identity mapped.
 */
static void __attribute__((constructor)) dvm_test_helper(void)
{
	const char *mode = getenv(HELPER_ENV);
	char *p;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!mode)
		return;
	if (!strcmp(mode, "get"))
		_exit(dvm_get() & 0xff);
	if (!strcmp(mode, "map")) {
		p = map_anon(8 * MIB);
		_exit(p && !count_nonidentity(p, 8 * MIB) ? 0 : 1);
	}
	_exit(100);
}

static int exec_helper(const char *mode)
{
	static char *const argv[] = { "dvm_test", NULL };
	char env[64];
	char *const envp[] = { env, NULL };
	int status;
	pid_t pid;

	snprintf(env, sizeof(env), "%s=%s", HELPER_ENV, mode);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		execve("/proc/self/exe", argv, envp);
		_exit(101);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int wait_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

/* Smallest power of two >= n */
static size_t pow2_ceil(size_t n)
{
	size_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* Documented alignment of an identity mapping of @len bytes. */
static size_t identity_align(size_t len)
{
	return len <= DVM_MAX_BUDDY ? pow2_ceil(len) : DVM_MAX_BUDDY;
}

/* Sum of free blocks per order over all zones, from /proc/buddyinfo. */
static int read_buddyinfo(long count[11])
{
	char line[512], *s;
	FILE *f = fopen("/proc/buddyinfo", "r");
	int o;

	if (!f)
		return -1;
	memset(count, 0, 11 * sizeof(long));
	while (fgets(line, sizeof(line), f)) {
		s = strstr(line, "zone");
		if (!s)
			continue;
		s += 4;
		while (*s == ' ')
			s++;
		while (*s && *s != ' ')
			s++;
		for (o = 0; o < 11; o++)
			count[o] += strtol(s, &s, 10);
	}
	fclose(f);
	return 0;
}

FIXTURE(dvm) {
	long min_bytes;
};

FIXTURE_SETUP(dvm)
{
	self->min_bytes = sysctl_read(DVM_SYSCTL_MIN_BYTES);
	if (self->min_bytes < 0 || dvm_get() < 0)
		SKIP(return, "kernel without CONFIG_DVM");
	if (geteuid())
		SKIP(return, "needs root (CAP_SYS_ADMIN)");
	ASSERT_EQ(0, sysctl_write(DVM_SYSCTL_MIN_BYTES, 2 * MIB));
}

FIXTURE_TEARDOWN(dvm)
{
	if (self->min_bytes > 0)
		sysctl_write(DVM_SYSCTL_MIN_BYTES, self->min_bytes);
}

/* ---- the prctl ABI ------------------------------------------------------ */

TEST_F(dvm, prctl_default_off)
{
	EXPECT_EQ(PR_DVM_OFF, dvm_get());
}

TEST_F(dvm, prctl_args)
{
	EXPECT_EQ(-1, prctl(PR_SET_DVM, PR_DVM_INHERIT, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, prctl(PR_SET_DVM, 4, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, prctl(PR_SET_DVM, PR_DVM_ON, 1, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, prctl(PR_SET_DVM, PR_DVM_ON, 0, 0, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, prctl(PR_GET_DVM, 1, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(PR_DVM_OFF, dvm_get());

	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	EXPECT_EQ(PR_DVM_ON, dvm_get());
	ASSERT_EQ(0, dvm_set(PR_DVM_ON | PR_DVM_INHERIT));
	EXPECT_EQ(PR_DVM_ON | PR_DVM_INHERIT, dvm_get());
	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	EXPECT_EQ(PR_DVM_ON, dvm_get());
	ASSERT_EQ(0, dvm_set(PR_DVM_OFF));
	EXPECT_EQ(PR_DVM_OFF, dvm_get());
}

TEST_F(dvm, prctl_needs_cap_sys_admin)
{
	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	/*
	 * Leaving uid 0 without PR_SET_KEEPCAPS drops every capability, and
	 * the mode goes with CAP_SYS_ADMIN (dvm_priv has the other ways).
	 */
	ASSERT_EQ(0, setresuid(65534, 65534, 65534));
	EXPECT_EQ(PR_DVM_OFF, dvm_get());
	EXPECT_EQ(-1, dvm_set(PR_DVM_ON));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(PR_DVM_OFF, dvm_get());
	EXPECT_EQ(0, dvm_set(PR_DVM_OFF));
	EXPECT_EQ(PR_DVM_OFF, dvm_get());
}

TEST_F(dvm, inherit_fork)
{
	int mode[] = { PR_DVM_OFF, PR_DVM_ON, PR_DVM_ON | PR_DVM_INHERIT };
	unsigned int i;
	int status;
	pid_t pid;

	for (i = 0; i < ARRAY_SIZE(mode); i++) {
		ASSERT_EQ(0, dvm_set(mode[i]));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid)
			_exit(dvm_get());
		status = wait_status(pid);
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_EQ(mode[i], WEXITSTATUS(status));
	}
}

TEST_F(dvm, inherit_exec)
{
	/* Without PR_DVM_INHERIT the new program starts with the mode off. */
	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	EXPECT_EQ(PR_DVM_OFF, exec_helper("get"));
	EXPECT_EQ(1, exec_helper("map"));
	/* With it, mode and flag survive, and the program gets identity maps. */
	ASSERT_EQ(0, dvm_set(PR_DVM_ON | PR_DVM_INHERIT));
	EXPECT_EQ(PR_DVM_ON | PR_DVM_INHERIT, exec_helper("get"));
	EXPECT_EQ(0, exec_helper("map"));
	ASSERT_EQ(0, dvm_set(PR_DVM_OFF));
	EXPECT_EQ(PR_DVM_OFF, exec_helper("get"));
}

/* ---- identity mapping, sizes 4 KiB .. beyond MAX_ORDER ------------------ */

FIXTURE(sizes) {
	long min_bytes;
};

FIXTURE_VARIANT(sizes) {
	size_t len;
};

FIXTURE_VARIANT_ADD(sizes, 4k) { .len = 4 * KIB };
FIXTURE_VARIANT_ADD(sizes, 64k) { .len = 64 * KIB };
FIXTURE_VARIANT_ADD(sizes, 1m) { .len = 1 * MIB };
FIXTURE_VARIANT_ADD(sizes, 2m) { .len = 2 * MIB };
FIXTURE_VARIANT_ADD(sizes, 3m) { .len = 3 * MIB };
FIXTURE_VARIANT_ADD(sizes, 4m) { .len = 4 * MIB };
FIXTURE_VARIANT_ADD(sizes, 4m_4k) { .len = 4 * MIB + 4 * KIB };
FIXTURE_VARIANT_ADD(sizes, 8m) { .len = 8 * MIB };
FIXTURE_VARIANT_ADD(sizes, 24m) { .len = 24 * MIB };
FIXTURE_VARIANT_ADD(sizes, 64m) { .len = 64 * MIB };
FIXTURE_VARIANT_ADD(sizes, 200m) { .len = 200 * MIB };

FIXTURE_SETUP(sizes)
{
	self->min_bytes = sysctl_read(DVM_SYSCTL_MIN_BYTES);
	if (self->min_bytes < 0 || dvm_get() < 0)
		SKIP(return, "kernel without CONFIG_DVM");
	if (geteuid())
		SKIP(return, "needs root (CAP_SYS_ADMIN)");
	ASSERT_EQ(0, sysctl_write(DVM_SYSCTL_MIN_BYTES, DVM_PAGE));
	/* These tests are about identity semantics, not about success. */
	defrag_memory();
}

FIXTURE_TEARDOWN(sizes)
{
	if (self->min_bytes > 0)
		sysctl_write(DVM_SYSCTL_MIN_BYTES, self->min_bytes);
}

/*
 * Checking 200 MiB page by page takes over the harness's default 30 s
 * on a KASAN kernel under emulation.
 */
TEST_F_TIMEOUT(sizes, identity, 180)
{
	size_t len = variant->len;
	struct dvm_counters a, b, d;
	struct smaps_vma v;
	char *p;

	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	dvm_counters(&a);
	p = map_anon(len);
	dvm_counters(&b);
	ASSERT_NE(NULL, p);
	d = dvm_delta(&a, &b);
	TH_LOG("%zu KiB at %p: maps +%ld nocontig +%ld vabusy +%ld contig +%ld",
	       len / KIB, p, d.maps, d.nocontig, d.vabusy, d.contig);
	ASSERT_EQ(1, d.maps);
	EXPECT_EQ(len / DVM_PAGE, d.pages);
	EXPECT_EQ(len > DVM_MAX_BUDDY, d.contig);
	EXPECT_EQ(0, d.nocontig + d.vabusy + d.populate);

	/* Every page: PFN * page size == VA, present before any access. */
	EXPECT_EQ(0, count_nonidentity(p, len));
	EXPECT_EQ(0, (uintptr_t)p % identity_align(len));
	EXPECT_TRUE(all_zero(p, len));

	ASSERT_TRUE(smaps_find(p, &v));
	EXPECT_TRUE(vmflags_has(&v, "id"));
	EXPECT_EQ((long)(len / KIB), v.dvm_identity_kb);

	/* Writing keeps the pages (they are exclusive: no copy on write). */
	fill_pattern(p, len, len);
	EXPECT_EQ(-1, check_pattern(p, len, len));
	EXPECT_EQ(0, count_nonidentity(p, len));
	EXPECT_EQ(0, munmap(p, len));
}

TEST_F(dvm, below_threshold)
{
	struct dvm_counters a, b, d;
	char *p, *q;

	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	dvm_counters(&a);
	p = map_anon(2 * MIB - DVM_PAGE);
	q = map_anon(2 * MIB);
	dvm_counters(&b);
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, q);
	d = dvm_delta(&a, &b);
	EXPECT_EQ(1, d.maps);
	EXPECT_EQ(0, count_present(p, 2 * MIB - DVM_PAGE));
	EXPECT_EQ(0, count_nonidentity(q, 2 * MIB));
}

TEST_F(dvm, mode_off)
{
	struct dvm_counters a, b, d;
	char *p;

	dvm_counters(&a);
	p = map_anon(8 * MIB);
	dvm_counters(&b);
	ASSERT_NE(NULL, p);
	d = dvm_delta(&a, &b);
	EXPECT_EQ(0, d.maps + d.nocontig + d.vabusy);
	EXPECT_EQ(0, count_present(p, 8 * MIB));
}

/* Mappings DVM leaves alone even in DVM mode. */
TEST_F(dvm, not_eligible)
{
	const size_t len = 8 * MIB;
	const int prw = PROT_READ | PROT_WRITE;
	const int pa = MAP_PRIVATE | MAP_ANONYMOUS;
	struct dvm_counters a, b, d;
	char *p[9], *res;
	int fd, i, n = 0;

	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	/* PROT_NONE reservation: not eligible itself, a target for MAP_FIXED */
	res = mmap(NULL, len, PROT_NONE, pa, -1, 0);
	ASSERT_NE(MAP_FAILED, res);
	fd = memfd_create("dvm", 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, len));

	dvm_counters(&a);
	p[n++] = mmap(NULL, len, prw, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	p[n++] = mmap((void *)0x600000000000UL, len, prw, pa, -1, 0);
	p[n++] = mmap(res, len, prw, pa | MAP_FIXED, -1, 0);
	p[n++] = mmap(NULL, len, PROT_NONE, pa, -1, 0);
	p[n++] = mmap(NULL, len, prw, pa | MAP_NORESERVE, -1, 0);
	p[n++] = mmap(NULL, len, prw, pa | MAP_STACK, -1, 0);
	p[n++] = mmap(NULL, len, prw, pa | MAP_GROWSDOWN, -1, 0);
	p[n++] = mmap(NULL, len, prw, MAP_PRIVATE, fd, 0);
	dvm_counters(&b);
	d = dvm_delta(&a, &b);
	EXPECT_EQ(0, d.maps + d.nocontig + d.vabusy + d.populate);
	for (i = 0; i < n; i++) {
		ASSERT_NE(MAP_FAILED, p[i]) TH_LOG("mapping %d", i);
		EXPECT_EQ(0, count_present(p[i], len)) TH_LOG("mapping %d", i);
	}
	close(fd);
}

/* ---- fallback to demand paging ------------------------------------------- */

/* The virtual range equal to the physical one is taken: vabusy. */
TEST_F(dvm, fallback_vabusy)
{
	const size_t len = 8 * MIB;
	struct dvm_counters a, b, d;
	struct smaps_vma v;
	char *res, *p;

	/* Cover every physical address below 1 TiB with a PROT_NONE area. */
	res = mmap((void *)MIB, (1UL << 40) - MIB, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
		   MAP_FIXED_NOREPLACE, -1, 0);
	ASSERT_EQ((void *)MIB, res);
	ASSERT_EQ(0, dvm_set(PR_DVM_ON));

	dvm_counters(&a);
	p = map_anon(len);
	dvm_counters(&b);
	ASSERT_NE(NULL, p);
	d = dvm_delta(&a, &b);
	EXPECT_EQ(1, d.vabusy);
	EXPECT_EQ(0, d.maps + d.nocontig);
	/* Demand paged: nothing present until touched, then works. */
	EXPECT_EQ(0, count_present(p, len));
	fill_pattern(p, len, 1);
	EXPECT_EQ(-1, check_pattern(p, len, 1));
	EXPECT_EQ(len / DVM_PAGE, count_nonidentity(p, len));
	ASSERT_TRUE(smaps_find(p, &v));
	EXPECT_FALSE(vmflags_has(&v, "id"));
	EXPECT_EQ(-1, v.dvm_identity_kb);

	/* With the range free again, identity mapping works again. */
	ASSERT_EQ(0, munmap(res, (1UL << 40) - MIB));
	dvm_counters(&a);
	p = map_anon(len);
	dvm_counters(&b);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(1, dvm_delta(&a, &b).maps);
	EXPECT_EQ(0, count_nonidentity(p, len));
}

/*
 * The lowest free memory lies where the process's virtual range is taken
 * (as a non-PIE program's binary and brk heap are): the allocation passes
 * over it, for a mapping above the buddy allocator's largest block and
 * for one below it, instead of falling back.
 */
TEST_F(dvm, identity_past_taken_range)
{
	const size_t low = 512 * MIB, lens[] = { 8 * MIB, 2 * MIB };
	struct dvm_counters a, b, d;
	char *res, *p;
	int i;

	ASSERT_LT(1024 * 1024, meminfo_kb("MemTotal"));
	/* Cover every physical address below 512 MiB. */
	res = mmap((void *)MIB, low - MIB, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
		   MAP_FIXED_NOREPLACE, -1, 0);
	ASSERT_EQ((void *)MIB, res);
	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	for (i = 0; i < 2; i++) {
		dvm_counters(&a);
		p = map_anon(lens[i]);
		dvm_counters(&b);
		ASSERT_NE(NULL, p);
		d = dvm_delta(&a, &b);
		TH_LOG("%zu MiB at %p: maps +%ld nocontig +%ld vabusy +%ld",
		       lens[i] / MIB, p, d.maps, d.nocontig, d.vabusy);
		EXPECT_EQ(1, d.maps);
		EXPECT_EQ(0, d.nocontig + d.vabusy);
		EXPECT_LE(low, (uintptr_t)p);
		EXPECT_EQ(0, count_nonidentity(p, lens[i]));
		EXPECT_EQ(0, munmap(p, lens[i]));
	}
	EXPECT_EQ(0, munmap(res, low - MIB));
}

/* More contiguous memory than is free: nocontig. */
TEST_F(dvm, fallback_nocontig_too_big)
{
	struct dvm_counters a, b, d;
	size_t len;
	char *p;

	len = (size_t)meminfo_kb("MemFree") * KIB & ~(DVM_MAX_BUDDY - 1);
	ASSERT_LT(DVM_MAX_BUDDY, len);
	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	dvm_counters(&a);
	p = map_anon(len);
	dvm_counters(&b);
	ASSERT_NE(NULL, p) TH_LOG("mmap of %zu MiB: %s", len / MIB,
				  strerror(errno));
	d = dvm_delta(&a, &b);
	EXPECT_EQ(1, d.nocontig);
	EXPECT_EQ(0, d.maps + d.vabusy);
	EXPECT_EQ(0, count_present(p, 64 * MIB));
	p[0] = 1;
	p[len - 1] = 2;
	EXPECT_EQ(1, p[0]);
	EXPECT_EQ(2, p[len - 1]);
	EXPECT_EQ(0, munmap(p, len));
}

/*
 * Fragment physical memory (fill it with order-0 pages, free every other
 * one), ask for more contiguous memory than /proc/buddyinfo shows, check
 * the fallback; free the filler and check the same request succeeds.
 */
TEST_F_TIMEOUT(dvm, fallback_fragmented, 300)
{
	struct dvm_counters a, b, d;
	long count[11], free_kb;
	size_t fill, len, o;
	int maxo = -1, i;
	double t0 = now_sec();
	char *q, *p;

	free_kb = meminfo_kb("MemFree");
	ASSERT_LT(256 * 1024, free_kb);
	fill = ((size_t)free_kb * KIB - 160 * MIB) & ~(2 * MIB - 1);
	q = mmap(NULL, fill, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, q);
	/* Order-0 pages only: no THP, which DONTNEED would not free. */
	ASSERT_EQ(0, madvise(q, fill, MADV_NOHUGEPAGE));
	ASSERT_EQ(0, madvise(q, fill, MADV_POPULATE_WRITE));
	for (o = 0; o < fill; o += 2 * DVM_PAGE)
		ASSERT_EQ(0, madvise(q + o, DVM_PAGE, MADV_DONTNEED));

	ASSERT_EQ(0, read_buddyinfo(count));
	for (i = 0; i < 11; i++)
		if (count[i])
			maxo = i;
	ASSERT_LE(0, maxo);
	if (maxo < 10) {
		len = (DVM_PAGE << (maxo + 1));
		ASSERT_EQ(0, sysctl_write(DVM_SYSCTL_MIN_BYTES, DVM_PAGE));
	} else {
		len = (count[10] + 1) * DVM_MAX_BUDDY;
	}
	TH_LOG("filled %zu MiB, freed every other page in %.1fs", fill / MIB,
	       now_sec() - t0);
	TH_LOG("largest free order %d, %ld free 4 MiB blocks; asking %zu KiB",
	       maxo, count[10], len / KIB);

	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	dvm_counters(&a);
	p = map_anon(len);
	dvm_counters(&b);
	ASSERT_NE(NULL, p);
	d = dvm_delta(&a, &b);
	EXPECT_EQ(1, d.nocontig);
	EXPECT_EQ(0, d.maps + d.vabusy);
	EXPECT_EQ(0, count_present(p, len));
	fill_pattern(p, len, 7);
	EXPECT_EQ(-1, check_pattern(p, len, 7));
	EXPECT_EQ(0, munmap(p, len));

	/* Unfragmented again: the same request is identity mapped. */
	EXPECT_EQ(0, munmap(q, fill));
	dvm_counters(&a);
	p = map_anon(len);
	dvm_counters(&b);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(1, dvm_delta(&a, &b).maps);
	EXPECT_EQ(0, count_nonidentity(p, len));
}

/* ---- life cycle ----------------------------------------------------------- */

TEST_F(dvm, munmap_partial)
{
	const size_t len = 16 * MIB;
	struct smaps_vma v;
	char *p;

	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	p = map_anon(len);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, count_nonidentity(p, len));
	fill_pattern(p, len, 3);

	ASSERT_EQ(0, munmap(p, DVM_PAGE));
	ASSERT_EQ(0, munmap(p + 4 * MIB, 4 * MIB));
	EXPECT_EQ(0, count_nonidentity(p + DVM_PAGE, 4 * MIB - DVM_PAGE));
	EXPECT_EQ(0, count_nonidentity(p + 8 * MIB, 8 * MIB));
	EXPECT_EQ(-1, check_pattern_at(p, DVM_PAGE, 4 * MIB - DVM_PAGE, 3));
	EXPECT_EQ(-1, check_pattern_at(p, 8 * MIB, 8 * MIB, 3));

	ASSERT_TRUE(smaps_find(p + DVM_PAGE, &v));
	EXPECT_EQ((unsigned long)p + DVM_PAGE, v.start);
	EXPECT_EQ((unsigned long)p + 4 * MIB, v.end);
	EXPECT_TRUE(vmflags_has(&v, "id"));
	EXPECT_EQ((long)(4 * 1024 - 4), v.dvm_identity_kb);
	ASSERT_TRUE(smaps_find(p + 8 * MIB, &v));
	EXPECT_TRUE(vmflags_has(&v, "id"));
	EXPECT_EQ(8 * 1024, v.dvm_identity_kb);
	EXPECT_FALSE(smaps_find(p + 5 * MIB, &v));
	EXPECT_EQ(0, munmap(p, len));
}

TEST_F(dvm, mprotect)
{
	const size_t len = 8 * MIB;
	struct smaps_vma v;
	int status;
	pid_t pid;
	char *p;

	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	p = map_anon(len);
	ASSERT_NE(NULL, p);
	fill_pattern(p, len, 5);

	ASSERT_EQ(0, mprotect(p + 4 * MIB, 4 * MIB, PROT_READ));
	EXPECT_EQ(0, count_nonidentity(p, len));
	EXPECT_EQ(-1, check_pattern(p, len, 5));
	ASSERT_TRUE(smaps_find(p + 4 * MIB, &v));
	EXPECT_TRUE(vmflags_has(&v, "id"));
	EXPECT_TRUE(vmflags_has(&v, "rd"));
	EXPECT_FALSE(vmflags_has(&v, "wr"));

	/* A write to the read-only half faults. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		p[4 * MIB] = 1;
		_exit(0);
	}
	status = wait_status(pid);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);

	/* Write access back, PROT_NONE and back: same pages, no copy. */
	ASSERT_EQ(0, mprotect(p + 4 * MIB, 4 * MIB, PROT_READ | PROT_WRITE));
	memset(p + 4 * MIB, 0xa5, 4 * MIB);
	ASSERT_EQ(0, mprotect(p, len, PROT_NONE));
	EXPECT_EQ(0, count_nonidentity(p, len));
	ASSERT_EQ(0, mprotect(p, len, PROT_READ | PROT_WRITE));
	EXPECT_EQ(0, count_nonidentity(p, len));
	EXPECT_EQ(-1, check_pattern(p, 4 * MIB, 5));
	EXPECT_EQ((char)0xa5, p[len - 1]);
	EXPECT_EQ(0, munmap(p, len));
}

TEST_F(dvm, madv_dontneed)
{
	const size_t len = 4 * MIB;
	struct smaps_vma v;
	char *p;

	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	p = map_anon(len);
	ASSERT_NE(NULL, p);
	fill_pattern(p, len, 9);
	ASSERT_EQ(0, madvise(p + MIB, DVM_PAGE, MADV_DONTNEED));
	EXPECT_EQ(0, count_present(p + MIB, DVM_PAGE));
	ASSERT_TRUE(smaps_find(p, &v));
	EXPECT_EQ((long)(4 * 1024 - 4), v.dvm_identity_kb);
	/* The page refaults zero-filled (ordinary demand paging). */
	EXPECT_TRUE(all_zero(p + MIB, DVM_PAGE));
	p[MIB] = 1;
	EXPECT_EQ(1, p[MIB]);
	EXPECT_EQ(0, count_nonidentity(p, MIB));
	EXPECT_EQ(0, count_nonidentity(p + MIB + DVM_PAGE,
				       len - MIB - DVM_PAGE));
	EXPECT_EQ(-1, check_pattern(p, MIB, 9));
	EXPECT_EQ(-1, check_pattern_at(p, MIB + DVM_PAGE,
				       len - MIB - DVM_PAGE, 9));
	EXPECT_EQ(0, munmap(p, len));
}

TEST_F(dvm, mremap)
{
	struct smaps_vma v;
	char *p, *q, *res;

	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	p = map_anon(8 * MIB);
	ASSERT_NE(NULL, p);
	fill_pattern(p, 8 * MIB, 11);

	/* Shrink in place: the rest stays identity mapped. */
	q = mremap(p, 8 * MIB, 4 * MIB, 0);
	ASSERT_EQ(p, q);
	EXPECT_EQ(0, count_nonidentity(p, 4 * MIB));
	EXPECT_EQ(-1, check_pattern(p, 4 * MIB, 11));

	/* Grow in place: the new part is demand paged. */
	q = mremap(p, 4 * MIB, 6 * MIB, 0);
	ASSERT_EQ(p, q);
	EXPECT_EQ(0, count_nonidentity(p, 4 * MIB));
	EXPECT_EQ(0, count_present(p + 4 * MIB, 2 * MIB));
	ASSERT_TRUE(smaps_find(p, &v));
	EXPECT_TRUE(vmflags_has(&v, "id"));
	EXPECT_EQ(4 * 1024, v.dvm_identity_kb);

	/* Move: data moves along, the new area is not identity mapped. */
	res = mmap(NULL, 16 * MIB, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ASSERT_NE(MAP_FAILED, res);
	q = mremap(p, 6 * MIB, 8 * MIB, MREMAP_MAYMOVE | MREMAP_FIXED, res);
	ASSERT_EQ(res, q);
	EXPECT_EQ(-1, check_pattern(q, 4 * MIB, 11));
	EXPECT_EQ(4 * MIB / DVM_PAGE, count_present(q, 8 * MIB));
	EXPECT_EQ(8 * MIB / DVM_PAGE, count_nonidentity(q, 8 * MIB));
	ASSERT_TRUE(smaps_find(q, &v));
	EXPECT_FALSE(vmflags_has(&v, "id"));
	EXPECT_FALSE(smaps_find(p, &v));
	EXPECT_EQ(0, munmap(res, 16 * MIB));
}

/*
 * fork(): the parent keeps its identity pages; the child gets private
 * copies at once (not identity mapped, no "id" flag).  Writes on either
 * side stay on that side.
 */
TEST_F(dvm, fork_cow)
{
	const size_t len = 8 * MIB;
	int p2c[2], c2p[2], status;
	struct smaps_vma v;
	char token;
	pid_t pid;
	char *p;

	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	p = map_anon(len);
	ASSERT_NE(NULL, p);
	fill_pattern(p, len, 0xa);
	ASSERT_EQ(0, pipe(p2c));
	ASSERT_EQ(0, pipe(c2p));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (read(p2c[0], &token, 1) != 1)
			_exit(10);
		/* The parent has written its copy by now. */
		if (check_pattern(p, len, 0xa) != -1)
			_exit(11);
		if (count_present(p, len) != len / DVM_PAGE)
			_exit(12);
		if (count_identity(p, len))
			_exit(13);
		if (!smaps_find(p, &v) || vmflags_has(&v, "id") ||
		    v.dvm_identity_kb != -1)
			_exit(14);
		if (dvm_get() != PR_DVM_ON)
			_exit(15);
		fill_pattern(p, len, 0xb);
		if (check_pattern(p, len, 0xb) != -1)
			_exit(16);
		if (write(c2p[1], "c", 1) != 1)
			_exit(17);
		_exit(0);
	}
	fill_pattern(p, len, 0xc);
	ASSERT_EQ(1, write(p2c[1], "p", 1));
	ASSERT_EQ(1, read(c2p[0], &token, 1));
	status = wait_status(pid);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(-1, check_pattern(p, len, 0xc));
	EXPECT_EQ(0, count_nonidentity(p, len));
	ASSERT_TRUE(smaps_find(p, &v));
	EXPECT_TRUE(vmflags_has(&v, "id"));
	EXPECT_EQ((long)(len / KIB), v.dvm_identity_kb);
}

TEST_F(dvm, mlock)
{
	const size_t len = 8 * MIB;
	struct smaps_vma v;
	char *p;

	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, count_nonidentity(p, len));
	ASSERT_TRUE(smaps_find(p, &v));
	EXPECT_TRUE(vmflags_has(&v, "id"));
	EXPECT_TRUE(vmflags_has(&v, "lo"));
	EXPECT_EQ(0, munlock(p, len));
	EXPECT_EQ(0, count_nonidentity(p, len));
	EXPECT_EQ(0, munmap(p, len));
}

static void *thread_maps(void *arg)
{
	long bad = 0, seed = (long)arg;
	int i;

	for (i = 0; i < 8; i++) {
		char *p = map_anon(4 * MIB);

		if (!p)
			return (void *)1000L;
		bad += count_nonidentity(p, 4 * MIB) != 0;
		fill_pattern(p, 4 * MIB, seed + i);
		bad += check_pattern(p, 4 * MIB, seed + i) != -1;
		bad += munmap(p, 4 * MIB) != 0;
	}
	return (void *)bad;
}

/* Several threads map and unmap concurrently. */
TEST_F(dvm, threads)
{
	pthread_t t[4];
	void *ret;
	int i;

	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, thread_maps,
					    (void *)(long)(i * 100)));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, pthread_join(t[i], &ret));
		EXPECT_EQ(0, (long)ret) TH_LOG("thread %d", i);
	}
}

/*
 * Processes that create identity mappings, fork, unmap parts, change
 * protections and exit without unmapping give all memory back.
 */
TEST_F_TIMEOUT(dvm, exit_no_leak, 300)
{
	long free0, free1, anon0, anon1, maps0;
	int i, status;
	pid_t pid;

	maps0 = vmstat_read("dvm_identity_maps");
	free0 = free_kb_with_pcp();
	anon0 = vmstat_read("nr_anon_pages");
	for (i = 0; i < 8; i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			char *a, *b, *c;
			pid_t g;

			if (dvm_set(PR_DVM_ON))
				_exit(1);
			a = map_anon(16 * MIB);
			b = map_anon(16 * MIB + 12 * KIB);
			c = map_anon(24 * MIB);
			if (!a || !b || !c)
				_exit(2);
			fill_pattern(a, 16 * MIB, i);
			memset(c, i, 24 * MIB);
			g = fork();
			if (!g) {
				memset(a, 1, 16 * MIB);
				_exit(0);
			}
			munmap(b + 4 * MIB, 4 * MIB);
			mprotect(c, 8 * MIB, PROT_READ);
			madvise(a, 2 * MIB, MADV_DONTNEED);
			waitpid(g, NULL, 0);
			_exit(0);
		}
		status = wait_status(pid);
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status));
	}
	free1 = free_kb_with_pcp();
	anon1 = vmstat_read("nr_anon_pages");
	TH_LOG("identity maps +%ld; free %ld -> %ld kB; nr_anon_pages %ld -> %ld",
	       vmstat_read("dvm_identity_maps") - maps0, free0, free1, anon0, anon1);
	EXPECT_LE(8 * 3, vmstat_read("dvm_identity_maps") - maps0);
	EXPECT_GT(16 * 1024, labs(free1 - free0));
	EXPECT_GT(64, labs(anon1 - anon0));
}

/* A DVM process that takes all memory is OOM killed and frees it all. */
TEST_F_TIMEOUT(dvm, oom_kill, 300)
{
	long free0, free1;
	int status;
	pid_t pid;

	free0 = free_kb_with_pcp();
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		FILE *f = fopen("/proc/self/oom_score_adj", "w");

		if (!f || fprintf(f, "1000\n") < 0 || fclose(f))
			_exit(1);
		if (dvm_set(PR_DVM_ON))
			_exit(2);
		for (;;) {
			char *p = map_anon(64 * MIB);

			if (!p)
				_exit(3);
			memset(p, 1, 64 * MIB);
		}
	}
	status = wait_status(pid);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		TH_LOG("status %#x", status);
	usleep(200000);
	free1 = free_kb_with_pcp();
	TH_LOG("free %ld kB before, %ld kB after the OOM kill", free0, free1);
	EXPECT_GT(16 * 1024, free0 - free1);
}

TEST_HARNESS_MAIN
