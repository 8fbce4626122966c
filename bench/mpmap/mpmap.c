// SPDX-License-Identifier: GPL-2.0
/*
 * libmpmap.so: put a program's large aligned allocations on a mapping of a
 * file or device, unmodified, with LD_PRELOAD (make bench runs
 * stressapptest on remote pool memory this way: an mmap of /dev/mpsN).
 *
 *   LD_PRELOAD=libmpmap.so MPMAP_PATH=/dev/mps3 [MPMAP_MIN=1M] CMD...
 *
 * memalign(), posix_memalign() and aligned_alloc() of MPMAP_MIN bytes or
 * more (default 1 MiB) are served from consecutive page-aligned ranges of
 * a MAP_SHARED mapping of MPMAP_PATH; free() unmaps them.  The offset is
 * never reused: the tool is for a program that allocates its test memory
 * once.  A request beyond the end of the file fails with ENOMEM, as an
 * allocation would; the first such failure and a missing or unopenable
 * MPMAP_PATH are reported on stderr once.  Everything else goes to the C
 * library.  MPMAP_VERBOSE=1 prints each mapping.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/fs.h>

#define MPMAP_MAX	64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct { void *p; size_t len; } maps[MPMAP_MAX];
static int nr_maps;		/* read unlocked by free(): a hint */
static int fd = -2;		/* -2: not opened yet, -1: unusable */
static size_t dev_size, next_off, min_size = 1 << 20;
static bool verbose;

static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_memalign)(size_t, size_t);

/*
 * The C library's functions, before main(). dlsym() may itself free();
 * that free() finds real_free unset and leaks the (small) block.
 */
__attribute__((constructor)) static void mpmap_init(void)
{
	real_posix_memalign = (int (*)(void **, size_t, size_t))
			      dlsym(RTLD_NEXT, "posix_memalign");
	real_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
	real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
}

/* "N", "NK", "NM" or "NG" (powers of 1024) */
static size_t parse_size(const char *s)
{
	static const char units[] = "kmg";
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	const char *u = *end ? strchr(units, *end | 0x20) : NULL;

	if (u)
		v <<= 10 * (u - units + 1);
	return v;
}

/* Called with lock held: open MPMAP_PATH and learn its size once. */
static bool mpmap_open(void)
{
	const char *path = getenv("MPMAP_PATH"), *s;
	struct stat st;
	uint64_t bytes;

	if (fd != -2)
		return fd >= 0;
	fd = -1;
	s = getenv("MPMAP_MIN");
	if (s)
		min_size = parse_size(s);
	verbose = !!getenv("MPMAP_VERBOSE");
	if (!path) {
		fprintf(stderr, "libmpmap: MPMAP_PATH is not set\n");
		return false;
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "libmpmap: %s: %s\n", path, strerror(errno));
		return false;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		dev_size = st.st_size;
	else if (ioctl(fd, BLKGETSIZE64, &bytes) == 0)
		dev_size = bytes;
	else if (lseek(fd, 0, SEEK_END) > 0)
		dev_size = (size_t)lseek(fd, 0, SEEK_END);
	if (!dev_size) {
		fprintf(stderr, "libmpmap: %s: cannot tell its size\n", path);
		close(fd);
		fd = -1;
		return false;
	}
	return true;
}

/* 0 with *out set, an errno, or -1: not ours (too small, not usable). */
static int mpmap_alloc(size_t align, size_t len, void **out)
{
	static bool told;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), off;
	void *p;
	int i, ret = ENOMEM;

	if (len < min_size || !align || (align & (align - 1)))
		return -1;
	pthread_mutex_lock(&lock);
	if (!mpmap_open()) {
		ret = -1;
		goto out;
	}
	if (align < page)
		align = page;
	off = (next_off + align - 1) & ~(align - 1);
	for (i = 0; i < MPMAP_MAX && maps[i].p; i++)
		;
	if (i == MPMAP_MAX || off > dev_size || len > dev_size - off) {
		if (!told)
			fprintf(stderr, "libmpmap: no room for %zu bytes at %zu of %zu\n",
				len, off, dev_size);
		told = true;
		goto out;
	}
	/* the offset must be page aligned; a larger alignment is the offset's */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
	if (p == MAP_FAILED) {
		ret = errno;
		goto out;
	}
	if ((uintptr_t)p & (align - 1)) {
		munmap(p, len);
		ret = EINVAL;
		goto out;
	}
	maps[i].p = p;
	maps[i].len = len;
	__atomic_add_fetch(&nr_maps, 1, __ATOMIC_RELEASE);
	next_off = off + ((len + page - 1) & ~(page - 1));
	if (verbose)
		fprintf(stderr, "libmpmap: %zu bytes at offset %zu: %p\n", len, off, p);
	*out = p;
	ret = 0;
out:
	pthread_mutex_unlock(&lock);
	return ret;
}

int posix_memalign(void **out, size_t align, size_t len)
{
	int ret = mpmap_alloc(align, len, out);

	if (ret >= 0)
		return ret;
	return real_posix_memalign ? real_posix_memalign(out, align, len) : ENOMEM;
}

void *memalign(size_t align, size_t len)
{
	void *p = NULL;
	int ret = mpmap_alloc(align, len, &p);

	if (ret > 0) {
		errno = ret;
		return NULL;
	}
	if (!ret)
		return p;
	if (!real_memalign) {
		errno = ENOMEM;
		return NULL;
	}
	return real_memalign(align, len);
}

void *aligned_alloc(size_t align, size_t len)
{
	return memalign(align, len);
}

void free(void *p)
{
	int i;

	if (p && __atomic_load_n(&nr_maps, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&lock);
		for (i = 0; i < MPMAP_MAX; i++) {
			if (maps[i].p == p) {
				munmap(p, maps[i].len);
				maps[i].p = NULL;
				__atomic_sub_fetch(&nr_maps, 1, __ATOMIC_RELEASE);
				pthread_mutex_unlock(&lock);
				return;
			}
		}
		pthread_mutex_unlock(&lock);
	}
	if (real_free)
		real_free(p);
}
