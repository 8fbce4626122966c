// SPDX-License-Identifier: GPL-2.0
/*
 * mpbench verification: a pattern that depends on every word's offset and
 * the seed is written through the target's own path, synced (msync,
 * fsync), and read back. For a mapped device the read-back goes through
 * pread on a second descriptor too, so bytes that never left the page
 * cache do not count as stored.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mpbench.h"

#define MPB_VCHUNK	(1024 * 1024)

static uint64_t mpb_pattern(uint64_t off, uint64_t seed)
{
	uint64_t x = (off + 1) * 0x9e3779b97f4a7c15ULL ^ seed;

	return x ^ (x >> 29);
}

static void mpb_fill(uint64_t *p, size_t words, uint64_t off, uint64_t seed)
{
	size_t i;

	for (i = 0; i < words; i++)
		p[i] = mpb_pattern(off + i * 8, seed);
}

static uint64_t mpb_check(const uint64_t *p, size_t words, uint64_t off,
			  uint64_t seed)
{
	uint64_t bad = 0;
	size_t i;

	for (i = 0; i < words; i++)
		bad += p[i] != mpb_pattern(off + i * 8, seed);
	return bad;
}

/* Read the whole target with pread on @fd and count wrong words. */
static int mpb_check_fd(int fd, size_t size, uint64_t seed, uint64_t *bad)
{
	uint64_t *buf;
	size_t off;
	int ret = 0;

	buf = malloc(MPB_VCHUNK);
	if (!buf)
		return -ENOMEM;
	for (off = 0; off < size; off += MPB_VCHUNK) {
		size_t n = size - off < MPB_VCHUNK ? size - off : MPB_VCHUNK;

		if (pread(fd, buf, n, off) != (ssize_t)n) {
			ret = errno ? -errno : -EIO;
			break;
		}
		*bad += mpb_check(buf, n / 8, off, seed);
	}
	free(buf);
	return ret;
}

static int mpb_fill_fd(int fd, size_t size, uint64_t seed)
{
	uint64_t *buf;
	size_t off;
	int ret = 0;

	buf = malloc(MPB_VCHUNK);
	if (!buf)
		return -ENOMEM;
	for (off = 0; off < size; off += MPB_VCHUNK) {
		size_t n = size - off < MPB_VCHUNK ? size - off : MPB_VCHUNK;

		mpb_fill(buf, n / 8, off, seed);
		if (pwrite(fd, buf, n, off) != (ssize_t)n) {
			ret = errno ? -errno : -EIO;
			break;
		}
	}
	free(buf);
	return ret;
}

int mpb_verify(struct mpb_target *t, const struct mpb_opts *o,
	       uint64_t *bad)
{
	size_t size = t->size / 8 * 8;
	int fd, ret;

	*bad = 0;
	if (t->kind == MPB_PIO) {
		ret = mpb_fill_fd(t->fd, size, o->seed);
		if (!ret)
			ret = mpb_target_sync(t);
		if (!ret)
			ret = mpb_check_fd(t->fd, size, o->seed, bad);
		goto out;
	}
	mpb_fill(t->mem, size / 8, 0, o->seed);
	ret = mpb_target_sync(t);
	if (ret)
		return ret;
	*bad = mpb_check(t->mem, size / 8, 0, o->seed);
	if (t->kind == MPB_MMAP) {
		fd = open(t->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		ret = mpb_check_fd(fd, size, o->seed, bad);
		close(fd);
	}
out:
	if (!ret && *bad)
		ret = -EIO;
	return ret;
}
