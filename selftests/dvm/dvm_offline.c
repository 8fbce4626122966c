// SPDX-License-Identifier: GPL-2.0
/*
 * DVM selftests: identity mappings against memory offline and contiguous
 * allocations.
 *
 * Memory offline and alloc_contig_range() (CMA, gigantic pages) isolate
 * pageblocks, migrate what is in them and then expect every free page of
 * them to be there.  DVM takes runs of free MAX_ORDER blocks for large
 * identity mappings; it must not take them from pageblocks someone is
 * isolating, nor look at memory going offline.
 *
 * isolated_block_not_taken: two memory blocks are onlined into
 * ZONE_MOVABLE (which DVM scans first); a page in the lower one is pinned
 * (vmsplice into a pipe that is never read), so that offlining that block
 * keeps it isolated, retrying the migration, until the offline is
 * killed.  Identity mappings made meanwhile must have no page in that
 * block (pagemap); afterwards, unpinned, the block goes offline and
 * online again, and identity mapping works as before.
 *
 * stress: for a while, one process offlines and onlines a movable block
 * over and over, one allocates and frees CMA memory (debugfs, cma= on the
 * command line), and two DVM processes map, fill, check and unmap 2 and
 * 8 MiB.  Every offline, online and CMA allocation must succeed, the DVM
 * processes must get identity mappings and read back what they wrote.
 *
 * Needs root, CONFIG_DVM and CONFIG_MEMORY_HOTREMOVE; the stress test
 * wants CONFIG_CMA_DEBUGFS and a CMA area.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "dvm_util.h"

#define MEMDIR		"/sys/devices/system/memory"
#define CMADIR		"/sys/kernel/debug/cma"
#define STRESS_SECONDS	25
#define CMA_PAGES	256

/* ---- sysfs ---------------------------------------------------------------- */

/* Write @s to @path: 0 or the errno of the write. */
static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		err = errno;
	close(fd);
	return err;
}

static int read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static unsigned long block_bytes(void)
{
	char buf[64];

	if (read_str(MEMDIR "/block_size_bytes", buf, sizeof(buf)))
		return 0;
	return strtoul(buf, NULL, 16);
}

static int block_set(long n, const char *state)
{
	char path[128];

	snprintf(path, sizeof(path), MEMDIR "/memory%ld/state", n);
	return write_str(path, state);
}

/*
 * block_set() in a child, killed after @secs seconds: an offline can
 * retry a migration for as long as a page stays pinned.  0, minus the
 * errno of the write, or -ETIMEDOUT.
 */
static int block_set_within(long n, const char *state, int secs)
{
	double t0 = now_sec();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid)
		_exit(block_set(n, state));
	while (now_sec() - t0 < secs) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? -WEXITSTATUS(status) : -EINTR;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -ETIMEDOUT;
}

static bool block_online(long n)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), MEMDIR "/memory%ld/state", n);
	return !read_str(path, buf, sizeof(buf)) && !strcmp(buf, "online");
}

static long highest_block(void)
{
	DIR *d = opendir(MEMDIR);
	struct dirent *de;
	long n, max = -1;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (sscanf(de->d_name, "memory%ld", &n) == 1 && n > max)
			max = n;
	closedir(d);
	return max;
}

/*
 * Put @want online memory blocks into ZONE_MOVABLE (offline, then
 * online_movable), from the top down; their numbers in @out, ascending.
 * Return: how many.
 */
static int movable_blocks(long *out, int want)
{
	long n, got[8];
	int k = 0, i;

	for (n = highest_block(); n > 0 && k < want; n--) {
		if (!block_online(n) || block_set_within(n, "offline", 10))
			continue;
		if (block_set(n, "online_movable")) {
			block_set(n, "online");
			continue;
		}
		got[k++] = n;
	}
	for (i = 0; i < k; i++)
		out[i] = got[k - 1 - i];
	return k;
}

/* Isolated pageblocks, all zones (/proc/pagetypeinfo, "Isolate" column). */
static long isolated_pageblocks(void)
{
	char line[512], *tok, *save;
	FILE *f = fopen("/proc/pagetypeinfo", "r");
	int col = -1, i;
	long sum = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Number of blocks type", 21)) {
			/* the column of "Isolate" among the type names */
			for (i = 0, tok = strtok_r(line + 21, "\n ", &save); tok;
			     tok = strtok_r(NULL, "\n ", &save), i++)
				if (!strcmp(tok, "Isolate"))
					col = i;
			continue;
		}
		if (col < 0 || strncmp(line, "Node", 4))
			continue;
		/* "Node 0, zone Movable  n0 n1 ...": skip four words */
		tok = strtok_r(line, "\n ", &save);
		for (i = 0; tok && i < 4 + col; i++)
			tok = strtok_r(NULL, "\n ", &save);
		if (tok)
			sum += strtol(tok, NULL, 10);
	}
	fclose(f);
	return col < 0 ? -1 : sum;
}

/* Pages of [p, p + len) whose physical address is in block @n. */
static size_t pages_in_block(const char *p, size_t len, long n,
			     unsigned long bs)
{
	uint64_t e, pa;
	size_t o, k = 0;

	for (o = 0; o < len; o += DVM_PAGE) {
		e = pagemap_entry(p + o);
		pa = (e & PM_PFN_MASK) * DVM_PAGE;
		k += (e & PM_PRESENT) && pa / bs == (uint64_t)n;
	}
	return k;
}

FIXTURE(offline) {
	unsigned long bs;
	long blk[2];
};

FIXTURE_SETUP(offline)
{
	if (dvm_get() < 0)
		SKIP(return, "kernel without CONFIG_DVM");
	if (geteuid())
		SKIP(return, "needs root");
	self->bs = block_bytes();
	ASSERT_NE(0, self->bs);
	ASSERT_EQ(2, movable_blocks(self->blk, 2));
	TH_LOG("movable blocks %ld and %ld (%lu MiB each)", self->blk[0],
	       self->blk[1], self->bs / MIB);
	ASSERT_EQ(0, sysctl_write(DVM_SYSCTL_MIN_BYTES, 2 * MIB));
}

FIXTURE_TEARDOWN(offline)
{
}

TEST_F_TIMEOUT(offline, isolated_block_not_taken, 150)
{
	long b = self->blk[0];
	struct dvm_counters c0, c1, d;
	size_t i, pi, inside = 0, len = 8 * MIB, pin_len = 64 * MIB;
	char *pin = NULL, *maps[4];
	struct iovec iov;
	int pfd[2], status, err;
	long isolated = 0;
	double t0;
	pid_t pid;

	/*
	 * A page in block b (the lower one, which DVM scans first): with the
	 * other block offline for a moment, b is all of ZONE_MOVABLE, where
	 * user pages come from first.
	 */
	ASSERT_EQ(0, block_set_within(self->blk[1], "offline", 20));
	pin = map_anon(pin_len);
	ASSERT_NE(NULL, pin);
	for (pi = 0; pi < pin_len; pi += DVM_PAGE) {
		pin[pi] = 1;
		if (pages_in_block(pin + pi, DVM_PAGE, b, self->bs))
			break;
	}
	ASSERT_EQ(0, block_set(self->blk[1], "online_movable"));
	ASSERT_LT(pi, pin_len);
	/* pinned: the page is in the pipe; offline cannot migrate it */
	ASSERT_EQ(0, pipe(pfd));
	iov.iov_base = pin + pi;
	iov.iov_len = DVM_PAGE;
	ASSERT_EQ((ssize_t)DVM_PAGE, vmsplice(pfd[1], &iov, 1, 0));
	/* everything but the pinned page goes */
	if (pi)
		munmap(pin, pi);
	munmap(pin + pi + DVM_PAGE, pin_len - pi - DVM_PAGE);

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(block_set(b, "offline"));
	/* wait until the offline has isolated the block */
	for (t0 = now_sec(); now_sec() - t0 < 30; usleep(20000)) {
		isolated = isolated_pageblocks();
		if (isolated > 0 || waitpid(pid, &status, WNOHANG))
			break;
	}
	TH_LOG("%ld pageblocks isolated", isolated);
	ASSERT_LT(0, isolated);

	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	dvm_counters(&c0);
	for (i = 0; i < ARRAY_SIZE(maps); i++) {
		maps[i] = map_anon(len);
		ASSERT_NE(NULL, maps[i]);
		/* identity mapped or not, every page of it */
		memset(maps[i], 0x5a, len);
		inside += pages_in_block(maps[i], len, b, self->bs);
	}
	dvm_counters(&c1);
	d = dvm_delta(&c0, &c1);
	TH_LOG("during offline: %zu pages in block %ld; maps +%ld contig +%ld nocontig +%ld",
	       inside, b, d.maps, d.contig, d.nocontig);
	EXPECT_EQ(0, inside);
	for (i = 0; i < ARRAY_SIZE(maps); i++)
		munmap(maps[i], len);

	/* the offline is still at it; stop it, unpin, and it works */
	EXPECT_EQ(0, waitpid(pid, &status, WNOHANG));
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(pfd[0]);
	close(pfd[1]);
	munmap(pin + pi, DVM_PAGE);
	err = block_set_within(b, "offline", 20);
	EXPECT_EQ(0, err);
	EXPECT_EQ(0, block_set(b, "online_movable"));
	EXPECT_EQ(0, isolated_pageblocks());

	/* and DVM gets identity mappings again */
	maps[0] = map_anon(len);
	ASSERT_NE(NULL, maps[0]);
	EXPECT_EQ(0, count_nonidentity(maps[0], len));
	munmap(maps[0], len);
}

/* ---- stress ------------------------------------------------------------- */

struct tally {
	long ok, failed, err;
};

/* Offline and online block @b until @end. */
static void hotplug_loop(long b, double end, struct tally *t)
{
	int err;

	while (now_sec() < end) {
		err = block_set_within(b, "offline", 20);
		if (!err)
			err = block_set(b, "online_movable");
		if (err) {
			t->failed++;
			t->err = err;
			block_set(b, "online_movable");
		} else {
			t->ok++;
		}
	}
}

/* Allocate and free CMA_PAGES pages of the CMA area @dir until @end. */
static void cma_loop(const char *dir, double end, struct tally *t)
{
	char alloc[600], free_[600], n[16];
	int err;

	snprintf(alloc, sizeof(alloc), "%s/alloc", dir);
	snprintf(free_, sizeof(free_), "%s/free", dir);
	snprintf(n, sizeof(n), "%d", CMA_PAGES);
	while (now_sec() < end) {
		err = write_str(alloc, n);
		if (err) {
			t->failed++;
			t->err = err;
			continue;
		}
		t->ok++;
		write_str(free_, n);
	}
}

/* DVM mappings of 2 and 8 MiB until @end: ok = identity, failed = bad data */
static void dvm_loop(double end, struct tally *t, long *fallback)
{
	size_t len;
	long k = 0;
	char *p;

	dvm_set(PR_DVM_ON);
	while (now_sec() < end) {
		len = (k++ & 1) ? 8 * MIB : 2 * MIB;
		p = map_anon(len);
		if (!p)
			continue;
		if (!count_nonidentity(p, len))
			t->ok++;
		else
			(*fallback)++;
		fill_pattern(p, len, k);
		if (check_pattern(p, len, k) != -1)
			t->failed++;
		munmap(p, len);
	}
}

/* The first CMA area in debugfs, mounted if need be: "" if none. */
static void cma_area(char *dir, size_t len)
{
	DIR *d;
	struct dirent *de;

	*dir = 0;
	d = opendir(CMADIR);
	if (!d) {
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
		d = opendir(CMADIR);
	}
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(dir, len, "%s/%s", CMADIR, de->d_name);
			break;
		}
	closedir(d);
}

TEST_F_TIMEOUT(offline, stress, 150)
{
	struct tally *t = mmap(NULL, 4 * sizeof(*t) + 2 * sizeof(long),
			       PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long *fallback = (long *)(t + 4);
	double end = now_sec() + STRESS_SECONDS;
	char cma[512];
	pid_t pid[4];
	int i, status;

	ASSERT_NE(MAP_FAILED, t);
	memset(t, 0, 4 * sizeof(*t) + 2 * sizeof(long));
	cma_area(cma, sizeof(cma));
	TH_LOG("CMA area: %s", *cma ? cma : "none");
	ASSERT_NE(0, *cma);
	for (i = 0; i < 4; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (pid[i])
			continue;
		if (i == 0)
			hotplug_loop(self->blk[1], end, &t[0]);
		else if (i == 1)
			cma_loop(cma, end, &t[1]);
		else
			dvm_loop(end, &t[i], &fallback[i - 2]);
		_exit(0);
	}
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
	TH_LOG("offline+online: %ld ok, %ld failed (errno %ld)", t[0].ok,
	       t[0].failed, t[0].err);
	TH_LOG("CMA %d pages: %ld ok, %ld failed (errno %ld)", CMA_PAGES,
	       t[1].ok, t[1].failed, t[1].err);
	TH_LOG("DVM: %ld + %ld identity, %ld + %ld fallbacks, %ld + %ld bad data",
	       t[2].ok, t[3].ok, fallback[0], fallback[1], t[2].failed,
	       t[3].failed);
	EXPECT_LT(2, t[0].ok);
	EXPECT_EQ(0, t[0].failed);
	EXPECT_LT(2, t[1].ok);
	EXPECT_EQ(0, t[1].failed);
	EXPECT_LT(0, t[2].ok + t[3].ok);
	EXPECT_EQ(0, t[2].failed + t[3].failed);
	EXPECT_EQ(0, isolated_pageblocks());
	munmap(t, 4 * sizeof(*t) + 2 * sizeof(long));
}

TEST_HARNESS_MAIN
