// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics of the DVM heap: counters in a shared mapping of
 * MP_DVM_STATS_DIR/PID, so that `mpctl dvm stat PID` can read them while
 * the program runs, and a one-line summary at exit (MP_DVM_STAT=1).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dvm_smaps.h"
#include "mp_dvm.h"

static struct mp_dvm_stats local_stats;
struct mp_dvm_stats *mp_dvm_stats = &local_stats;
static char stats_path[256];
static pid_t stats_owner;

void mp_dvm_stats_add(uint64_t *counter, uint64_t v)
{
	__atomic_add_fetch(counter, v, __ATOMIC_RELAXED);
}

static void stats_header(struct mp_dvm_stats *st)
{
	st->version = MP_DVM_STATS_VERSION;
	st->pid = getpid();
	__atomic_store_n(&st->magic, MP_DVM_STATS_MAGIC, __ATOMIC_RELEASE);
}

/* Counters live in the file when it can be made, else in this process. */
void mp_dvm_stats_init(void)
{
	const char *dir = getenv(MP_DVM_ENV_STATS_DIR);
	struct mp_dvm_stats *st;
	int fd, n;

	if (!dir || !*dir)
		dir = MP_DVM_STATS_DIR;
	stats_header(&local_stats);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return;
	n = snprintf(stats_path, sizeof(stats_path), "%s/%d", dir,
		     (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(stats_path))
		goto fail;
	fd = open(stats_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		goto fail;
	if (ftruncate(fd, sizeof(*st)))
		goto fail_close;
	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (st == MAP_FAILED)
		goto fail_close;
	close(fd);
	stats_owner = getpid();
	stats_header(st);
	mp_dvm_stats = st;
	return;

fail_close:
	close(fd);
	unlink(stats_path);
fail:
	stats_path[0] = '\0';
}

/*
 * A child of fork() has copies of the heap, not identity mapped (the
 * kernel copies identity pages for the child): it keeps counting in
 * memory of its own and leaves the parent's file alone.
 */
void mp_dvm_stats_fork_child(void)
{
	if (mp_dvm_stats != &local_stats)
		memcpy(&local_stats, mp_dvm_stats, sizeof(local_stats));
	mp_dvm_stats = &local_stats;
	local_stats.pid = getpid();
	local_stats.flags &= ~MP_DVM_F_MODE_ON;
}

void mp_dvm_stats_exit(void)
{
	if (stats_path[0] && stats_owner == getpid())
		unlink(stats_path);
}

static double mib(uint64_t b)
{
	return (double)b / (1024.0 * 1024.0);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/*
 * mp_dvm_read_lines() - call @fn for each line of the file at @path, with
 * read(2) and buffers on the stack: the library runs inside malloc and
 * at exit, where stdio may allocate. Lines longer than 511 bytes are cut.
 * Return: 0, or -errno when @path cannot be opened.
 */
int mp_dvm_read_lines(const char *path, void (*fn)(const char *line, void *arg),
		      void *arg)
{
	char buf[4096], line[512];
	size_t len = 0;
	ssize_t r, i;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < r; i++) {
			if (buf[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = '\0';
			fn(line, arg);
			len = 0;
		}
	}
	close(fd);
	return 0;
}

static void smaps_line(const char *line, void *arg)
{
	dvm_smaps_line(arg, line);
}

static void read_self_smaps(struct dvm_smaps *sm)
{
	dvm_smaps_init(sm);
	mp_dvm_read_lines("/proc/self/smaps", smaps_line, sm);
}

/* " (nocontig 1.0 MiB, vabusy 2.0 MiB)" for the non-zero @bytes */
static void reasons(char *buf, size_t len, const uint64_t *bytes)
{
	size_t n = 0;
	int i, r;

	buf[0] = '\0';
	for (i = 0; i < MP_DVM_FB_NR; i++) {
		if (!bytes[i] || n >= len)
			continue;
		r = snprintf(buf + n, len - n, "%s%s %.1f MiB", n ? ", " : " (",
			     mp_dvm_reason_name(i), mib(bytes[i]));
		if (r > 0)
			n += (size_t)r;
	}
	if (n && n < len - 1)
		strcat(buf, ")");
}

/**
 * mp_dvm_summary() - write the one-line summary of this process's heap
 * @fd: where to (stderr at exit)
 */
void mp_dvm_summary(int fd)
{
	const struct mp_dvm_stats *st = mp_dvm_stats;
	uint64_t fb = 0, refused = 0, heap, chunks = st->identity_chunks;
	char msg[1024], fbr[160], rfr[160];
	struct dvm_smaps sm;
	int n, i;

	for (i = 0; i < MP_DVM_FB_NR; i++) {
		fb += st->fallback_bytes[i];
		chunks += st->fallback_chunks[i];
		refused += st->refused_bytes[i];
	}
	reasons(fbr, sizeof(fbr), st->fallback_bytes);
	reasons(rfr, sizeof(rfr), st->refused_bytes);
	heap = st->identity_bytes + fb;
	read_self_smaps(&sm);
	n = snprintf(msg, sizeof(msg),
		     "mp-dvm: pid %d: heap %.1f MiB in %llu chunks, identity %.1f MiB (%.1f %%), fallback %.1f MiB%s, refused %.1f MiB%s%s; anonymous memory %.1f MiB, identity %.1f MiB (%.1f %%)\n",
		     (int)getpid(), mib(heap), (unsigned long long)chunks,
		     mib(st->identity_bytes), pct(st->identity_bytes, heap),
		     mib(fb), fbr, mib(refused), rfr,
		     st->flags & MP_DVM_F_STRICT ? " (strict)" : "",
		     mib(sm.anon_bytes), mib(sm.identity_bytes),
		     pct(sm.identity_bytes, sm.anon_bytes));
	if (n > 0 && write(fd, msg, (size_t)n < sizeof(msg) ? (size_t)n :
			   sizeof(msg) - 1) < 0)
		return;
}
