// SPDX-License-Identifier: GPL-2.0
/*
 * libmp-dvm.so: an identity-mapped (DVM) heap for unmodified programs.
 *
 * Preloaded together with Debian's libjemalloc.so.2 (which then provides
 * malloc() and friends), it gives every automatic jemalloc arena extent
 * hooks that take chunks from the kernel's identity mapping (chunk.c).
 * jemalloc pools small allocations in those chunks (slabs) as the DVM
 * paper's section 4.3.2 describes.  `mpctl dvm run` sets the environment;
 * Documentation/dvm-heap.rst explains the choices.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <jemalloc/jemalloc.h>
#include <linux/dvm.h>

#include "mp_dvm.h"
#include "util/util.h"

struct mp_dvm_conf mp_dvm_conf = { .min_bytes = 2UL << 20 };

/* stderr for the summary at exit: programs may close theirs before that */
static int summary_fd = -1;

static const char no_mode[] =
"mp-dvm: not in DVM mode (needs the DVM kernel and CAP_SYS_ADMIN): heap not identity mapped\n";
static const char no_jemalloc[] =
"mp-dvm: malloc() is not jemalloc's: preload libjemalloc.so.2 too (mpctl dvm run does)\n";
static const char bad_conf[] =
"mp-dvm: jemalloc needs MALLOC_CONF=retain:true,oversize_threshold:0 for an identity-mapped heap\n";

static void warn(const char *msg)
{
	if (write(2, msg, strlen(msg)) < 0)
		return;
}

static bool env_is(const char *name, const char *value)
{
	const char *v = getenv(name);

	return v && !strcmp(v, value);
}

static bool env_on(const char *name)
{
	return env_is(name, "1");
}

static uint64_t read_min_bytes(void)
{
	char buf[32];
	ssize_t n;
	int fd;

	fd = open(DVM_SYSCTL_MIN_BYTES, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 2UL << 20;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 2UL << 20;
	buf[n] = '\0';
	return strtoull(buf, NULL, 10) ?: MP_DVM_PAGE;
}

/* The mode: on with PR_DVM_INHERIT from the launcher, or turned on here. */
static bool dvm_mode(void)
{
	int mode = prctl(PR_GET_DVM, 0, 0, 0, 0);

	if (mode > 0 && (mode & PR_DVM_ON))
		return true;
	return !prctl(PR_SET_DVM, PR_DVM_ON, 0, 0, 0);
}

/* Is this process's malloc() jemalloc's (preloaded ahead of libc)? */
static bool malloc_is_jemalloc(void)
{
	unsigned int arena;
	size_t len = sizeof(arena);
	void *p = malloc(1);
	int rc;

	if (!p)
		return false;
	rc = mallctl("arenas.lookup", &arena, &len, &p, sizeof(p));
	free(p);
	return !rc;
}

/* retain (chunks are reused, not unmapped) and no separate huge arena */
static bool conf_ok(void)
{
	size_t len = sizeof(bool), tlen = sizeof(size_t);
	size_t threshold = 1;
	bool retain = false;

	if (mallctl("opt.retain", &retain, &len, NULL, 0) ||
	    mallctl("opt.oversize_threshold", &threshold, &tlen, NULL, 0))
		return false;
	return retain && !threshold;
}

/* Give the hooks to every automatic arena, creating those not yet there. */
static unsigned int hook_arenas(void)
{
	extent_hooks_t *hooks = &mp_dvm_hooks;
	size_t len = sizeof(unsigned int);
	unsigned int n = 0, i, done = 0;
	char name[64];

	if (mallctl("opt.narenas", &n, &len, NULL, 0))
		return 0;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "arena.%u.extent_hooks", i);
		if (mallctl(name, NULL, NULL, &hooks, sizeof(hooks)))
			break;
		done++;
	}
	return done;
}

/*
 * jemalloc allocates the first thread's cache in arena 0 with its default
 * hooks before anything can change them, and so maps a first chunk of its
 * own (MAP_NORESERVE, never identity mapped); what is left of it would
 * serve arena 0's next allocations.  Take it all with allocations that are
 * never touched (so never backed by memory): large ones first, then the
 * bins, those whose slabs are one page last, so that even single free
 * pages go.  jemalloc reuses its oldest free memory first, so once the
 * hooks' chunks serve, nothing of the first chunk is left to that size.
 */
static void soak_large(size_t size)
{
	int flags = MALLOCX_ARENA(0) | MALLOCX_TCACHE_NONE;
	unsigned int n;
	void *p;

	/* a large allocation takes the oldest free extent that fits */
	for (n = 0; n < 65536; n++) {
		p = mallocx(size, flags);
		if (!p)
			return;
		if (mp_dvm_from_hooks(p)) {
			dallocx(p, flags);
			return;
		}
		mp_dvm_stats_add(&mp_dvm_stats->prehook_bytes, size);
	}
}

/*
 * A small size class: the bin's slabs may already be in the hooks' chunks
 * while a free piece of the first chunk is still there for its next slab.
 * Go on until the hooks' chunks have served a few slabs' worth in a row.
 */
#define SOAK_KEEP	2048
static void soak_small(size_t size, unsigned int nregs)
{
	int flags = MALLOCX_ARENA(0) | MALLOCX_TCACHE_NONE;
	static void *hooked[SOAK_KEEP];
	unsigned int n, nh = 0, run = 0, want = 3 * nregs + 1;
	void *p;

	if (want > SOAK_KEEP)
		want = SOAK_KEEP;
	for (n = 0; n < 65536 && run < want; n++) {
		p = mallocx(size, flags);
		if (!p)
			break;
		if (mp_dvm_from_hooks(p)) {
			if (nh < SOAK_KEEP)
				hooked[nh++] = p;
			run++;
		} else {
			mp_dvm_stats_add(&mp_dvm_stats->prehook_bytes, size);
			run = 0;
		}
	}
	while (nh)
		dallocx(hooked[--nh], flags);
}

static int bin_info(unsigned int i, const char *what, void *v, size_t len)
{
	char name[64];

	snprintf(name, sizeof(name), "arenas.bin.%u.%s", i, what);
	return mallctl(name, v, &len, NULL, 0);
}

static void soak_arena0(void)
{
	static const size_t large[] = { 1UL << 20, 256UL << 10, 64UL << 10,
					16UL << 10 };
	size_t len = sizeof(unsigned int), size, slab, best, done = SIZE_MAX;
	unsigned int nbins = 0, i;
	uint32_t nregs;

	for (i = 0; i < ARRAY_SIZE(large); i++)
		soak_large(large[i]);
	if (mallctl("arenas.nbins", &nbins, &len, NULL, 0))
		return;
	/* the bins by slab size, largest first */
	for (;;) {
		best = 0;
		for (i = 0; i < nbins; i++)
			if (!bin_info(i, "slab_size", &slab, sizeof(slab)) &&
			    slab < done && slab > best)
				best = slab;
		if (!best)
			return;
		for (i = 0; i < nbins; i++)
			if (!bin_info(i, "slab_size", &slab, sizeof(slab)) &&
			    slab == best &&
			    !bin_info(i, "size", &size, sizeof(size)) &&
			    !bin_info(i, "nregs", &nregs, sizeof(nregs)))
				soak_small(size, nregs);
		done = best;
	}
}

/* Bind the calling thread to arena @ind and drop its cached objects. */
static bool move_thread(unsigned int ind)
{
	return !mallctl("thread.arena", NULL, NULL, &ind, sizeof(ind)) &&
	       !mallctl("thread.tcache.flush", NULL, NULL, NULL, 0);
}

/*
 * Arenas for the program's threads: 1..N-1, or a new one with the hooks
 * when there is only arena 0.  The main thread moves to the first now,
 * later threads are spread over them (thread.c).
 */
static bool leave_arena0(unsigned int narenas)
{
	extent_hooks_t *hooks = &mp_dvm_hooks;
	size_t len = sizeof(unsigned int);
	unsigned int ind;

	if (narenas >= 2) {
		if (!move_thread(1))
			return false;
		mp_dvm_thread_arenas(1, narenas - 1);
		return true;
	}
	if (mallctl("arenas.create", &ind, &len, &hooks, sizeof(hooks)) ||
	    !move_thread(ind))
		return false;
	mp_dvm_thread_arenas(ind, 1);
	return true;
}

static void at_fork_child(void)
{
	mp_dvm_stats_fork_child();
}

__attribute__((constructor))
static void mp_dvm_init(void)
{
	struct mp_dvm_stats *st;

	mp_dvm_stats_init();
	st = mp_dvm_stats;
	mp_dvm_prehook_capture();
	mp_dvm_conf.strict = env_on(MP_DVM_ENV_STRICT);
	mp_dvm_conf.thread_stacks = !env_is(MP_DVM_ENV_THREAD_STACKS, "0");
	mp_dvm_conf.min_bytes = read_min_bytes();
	mp_dvm_conf.mode_on = dvm_mode();
	st->min_bytes = mp_dvm_conf.min_bytes;
	st->flags = (mp_dvm_conf.strict ? MP_DVM_F_STRICT : 0) |
		    (mp_dvm_conf.mode_on ? MP_DVM_F_MODE_ON : 0);
	if (!mp_dvm_conf.mode_on)
		warn(no_mode);
	if (conf_ok())
		st->flags |= MP_DVM_F_CONF_OK;
	else
		warn(bad_conf);
	st->arenas = hook_arenas();
	if (st->arenas) {
		/* first: flushing the thread's cache may free pieces of arena 0 */
		if (leave_arena0(st->arenas))
			st->flags |= MP_DVM_F_HOOKED;
		else
			warn("mp-dvm: cannot move the main thread off arena 0\n");
		soak_arena0();
	} else {
		warn("mp-dvm: cannot give jemalloc's arenas the DVM extent hooks\n");
	}
	if (malloc_is_jemalloc())
		st->flags |= MP_DVM_F_JEMALLOC;
	else
		warn(no_jemalloc);
	if (env_on(MP_DVM_ENV_STAT))
		summary_fd = fcntl(2, F_DUPFD_CLOEXEC, 64);
	pthread_atfork(NULL, NULL, at_fork_child);
}

__attribute__((destructor))
static void mp_dvm_fini(void)
{
	if (summary_fd >= 0 && mp_dvm_stats->pid == getpid())
		mp_dvm_summary(summary_fd);
	mp_dvm_stats_exit();
}
