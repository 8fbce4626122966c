// SPDX-License-Identifier: GPL-2.0
/*
 * mpbench targets: parse "sys", "node:N", "mmap:PATH", "pio:PATH", map or
 * open them, and make sure the memory is where it was asked to be (a
 * node-bound buffer is checked page by page with move_pages()).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mempolicy.h>

#include "mpbench.h"

int mpb_target_parse(const char *spec, struct mpb_target *t)
{
	char *end;
	long n;

	memset(t, 0, sizeof(*t));
	t->spec = spec;
	t->fd = -1;
	t->node = -1;
	if (!strcmp(spec, "sys")) {
		t->kind = MPB_SYS;
	} else if (!strncmp(spec, "node:", 5)) {
		errno = 0;
		n = strtol(spec + 5, &end, 10);
		if (errno || end == spec + 5 || *end || n < 0 || n >= 1024)
			return -EINVAL;
		t->kind = MPB_NODE;
		t->node = (int)n;
	} else if (!strncmp(spec, "mmap:", 5) && spec[5]) {
		t->kind = MPB_MMAP;
		t->path = spec + 5;
	} else if (!strncmp(spec, "pio:", 4) && spec[4]) {
		t->kind = MPB_PIO;
		t->path = spec + 4;
	} else {
		return -EINVAL;
	}
	return 0;
}

/* Bind [mem, mem + size) to t->node, then fault it in there. */
static int mpb_bind_node(struct mpb_target *t)
{
	unsigned long mask[1024 / (8 * sizeof(unsigned long))] = { 0 };
	const unsigned long bits = 8 * sizeof(unsigned long);

	mask[t->node / bits] = 1UL << (t->node % bits);
	if (syscall(SYS_mbind, t->mem, t->size, MPOL_BIND, mask, 1024,
		    MPOL_MF_STRICT))
		return -errno;
	memset(t->mem, 0, t->size);
	return 0;
}

/* Every page of a node-bound buffer must sit on that node. */
static int mpb_check_node(struct mpb_target *t)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t nr = t->size / page, i, off;
	void **pages = NULL;
	int *status = NULL;
	int ret = 0;

	pages = calloc(nr, sizeof(*pages));
	status = calloc(nr, sizeof(*status));
	if (!pages || !status) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nr; i++)
		pages[i] = (char *)t->mem + i * page;
	if (syscall(SYS_move_pages, 0, nr, pages, NULL, status, 0)) {
		ret = -errno;
		goto out;
	}
	for (off = 0; off < nr; off++) {
		if (status[off] != t->node) {
			fprintf(stderr, "mpbench: page %zu of %s is on node %d\n",
				off, t->spec, status[off]);
			ret = -EFAULT;
			goto out;
		}
	}
out:
	free(status);
	free(pages);
	return ret;
}

static int mpb_open_path(struct mpb_target *t)
{
	struct stat st;

	t->fd = open(t->path, O_RDWR | O_CLOEXEC);
	if (t->fd < 0)
		return -errno;
	if (fstat(t->fd, &st))
		return -errno;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size < t->size)
		return -ENOSPC;
	return 0;
}

int mpb_target_open(struct mpb_target *t, size_t size)
{
	int ret;

	t->size = size;
	switch (t->kind) {
	case MPB_SYS:
	case MPB_NODE:
		t->mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS |
			      (t->kind == MPB_SYS ? MAP_POPULATE : 0), -1, 0);
		if (t->mem == MAP_FAILED) {
			t->mem = NULL;
			return -errno;
		}
		if (t->kind == MPB_SYS)
			return 0;
		ret = mpb_bind_node(t);
		return ret ? ret : mpb_check_node(t);
	case MPB_MMAP:
		ret = mpb_open_path(t);
		if (ret)
			return ret;
		t->mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			      t->fd, 0);
		if (t->mem == MAP_FAILED) {
			t->mem = NULL;
			return -errno;
		}
		return 0;
	case MPB_PIO:
		return mpb_open_path(t);
	}
	return -EINVAL;
}

int mpb_target_sync(struct mpb_target *t)
{
	if (t->kind == MPB_MMAP && msync(t->mem, t->size, MS_SYNC))
		return -errno;
	if (t->kind == MPB_PIO && fsync(t->fd) && errno != EINVAL)
		return -errno;
	return 0;
}

void mpb_target_close(struct mpb_target *t)
{
	if (t->mem)
		munmap(t->mem, t->size);
	if (t->fd >= 0)
		close(t->fd);
	t->mem = NULL;
	t->fd = -1;
}
