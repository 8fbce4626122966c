// SPDX-License-Identifier: GPL-2.0
/*
 * jemalloc extent hooks: every chunk an arena asks for is a fresh private
 * anonymous mmap() of an identity-eligible size, which a process in DVM
 * mode gets identity mapped (VA == PA) by the kernel when contiguous
 * memory is free.  The hook checks what it got in /proc/self/pagemap and
 * counts it; with MP_DVM_STRICT=1 a chunk that is not identity mapped is
 * unmapped again and the allocation fails.
 *
 * The hooks run inside malloc(): they must not allocate, so they use
 * system calls and buffers on the stack only.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <jemalloc/jemalloc.h>

#include "mp_dvm.h"

#define PM_BIT(n)	(1ULL << (n))
#define PM_PFN_MASK	(PM_BIT(55) - 1)
#define PM_PRESENT	PM_BIT(63)

/* /proc/vmstat counters telling why the kernel fell back */
static const char *const fb_counters[] = {
	[MP_DVM_FB_NOCONTIG] = "dvm_fallback_nocontig",
	[MP_DVM_FB_VABUSY] = "dvm_fallback_vabusy",
	[MP_DVM_FB_POPULATE] = "dvm_fallback_populate",
};

#define NR_FB_COUNTERS	3

#define MAX_HOOKED_ARENAS	256
static uint64_t hook_calls[MAX_HOOKED_ARENAS];

/* The first chunks handed out, for mp_dvm_from_hooks(). */
#define NR_FIRST	64
static struct {
	uintptr_t start, end;
} first_chunks[NR_FIRST];
static unsigned int nr_first;

static void note_chunk(void *p, size_t size)
{
	unsigned int i = __atomic_fetch_add(&nr_first, 1, __ATOMIC_RELAXED);

	if (i < NR_FIRST) {
		first_chunks[i].start = (uintptr_t)p;
		__atomic_store_n(&first_chunks[i].end, (uintptr_t)p + size,
				 __ATOMIC_RELEASE);
	}
}

/* Is @p in one of the first chunks the hooks handed out? */
bool mp_dvm_from_hooks(const void *p)
{
	unsigned int i, n = __atomic_load_n(&nr_first, __ATOMIC_ACQUIRE);
	uintptr_t a = (uintptr_t)p;

	for (i = 0; i < n && i < NR_FIRST; i++)
		if (a >= first_chunks[i].start &&
		    a < __atomic_load_n(&first_chunks[i].end, __ATOMIC_ACQUIRE))
			return true;
	return false;
}

uint64_t mp_dvm_hook_calls(unsigned int arena)
{
	if (arena >= MAX_HOOKED_ARENAS)
		return 0;
	return __atomic_load_n(&hook_calls[arena], __ATOMIC_RELAXED);
}

static void parse_vmstat_line(const char *line, void *arg)
{
	uint64_t *v = arg;
	size_t n;
	int i;

	for (i = 0; i < NR_FB_COUNTERS; i++) {
		n = strlen(fb_counters[i]);
		if (!strncmp(line, fb_counters[i], n) && line[n] == ' ') {
			v[i] = 0;
			for (line += n + 1; *line >= '0' && *line <= '9'; line++)
				v[i] = v[i] * 10 + (uint64_t)(*line - '0');
		}
	}
}

/* Read the fallback counters; all zero when /proc/vmstat is unreadable. */
static void read_fb_counters(uint64_t *v)
{
	memset(v, 0, NR_FB_COUNTERS * sizeof(*v));
	mp_dvm_read_lines("/proc/vmstat", parse_vmstat_line, v);
}

static bool page_is_identity(int fd, uintptr_t va)
{
	uint64_t e;

	if (pread(fd, &e, sizeof(e), (off_t)(va / MP_DVM_PAGE * sizeof(e))) !=
	    sizeof(e))
		return false;
	return (e & PM_PRESENT) && (e & PM_PFN_MASK) * MP_DVM_PAGE == va;
}

/**
 * mp_dvm_is_identity() - is [@va, @va + @len) identity mapped?
 * @va: page-aligned start
 * @len: length, a multiple of the page size
 *
 * The kernel maps an eligible chunk all at once, so the first and the last
 * page tell (a partly populated one has its last page missing).
 */
bool mp_dvm_is_identity(uintptr_t va, size_t len)
{
	bool ret;
	int fd;

	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ret = page_is_identity(fd, va) &&
	      page_is_identity(fd, va + len - MP_DVM_PAGE);
	close(fd);
	return ret;
}

static unsigned int fallback_reason(const uint64_t *before,
				    const uint64_t *after)
{
	int i;

	if (!mp_dvm_conf.mode_on)
		return MP_DVM_FB_MODE_OFF;
	for (i = 0; i < NR_FB_COUNTERS; i++)
		if (after[i] != before[i])
			return i;
	return MP_DVM_FB_UNKNOWN;
}

/*
 * mmap() @len bytes (rounded up to the identity threshold, so the kernel
 * considers it) and keep @size bytes of it aligned to @align.  Trimming an
 * identity mapping at either end leaves the rest identity mapped.
 */
static void *map_chunk(size_t size, size_t align)
{
	size_t len = size, head, min = mp_dvm_conf.min_bytes;
	uintptr_t p, a;
	void *m;

	if (len < min)
		len = min;
	m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	p = (uintptr_t)m;
	if (p & (align - 1)) {
		munmap(m, len);
		len = size + align > min ? size + align : min;
		m = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return NULL;
		p = (uintptr_t)m;
	}
	a = (p + align - 1) & ~(uintptr_t)(align - 1);
	head = a - p;
	if (head)
		munmap(m, head);
	if (len - head > size)
		munmap((void *)(a + size), len - head - size);
	return (void *)a;
}

static void *dvm_alloc(extent_hooks_t *hooks, void *new_addr, size_t size,
		       size_t alignment, bool *zero, bool *commit,
		       unsigned int arena_ind)
{
	uint64_t before[NR_FB_COUNTERS], after[NR_FB_COUNTERS];
	struct mp_dvm_stats *st = mp_dvm_stats;
	unsigned int reason;
	void *p;

	/* An identity chunk cannot be put at an address of jemalloc's choice. */
	if (new_addr)
		return NULL;
	if (alignment < MP_DVM_PAGE)
		alignment = MP_DVM_PAGE;
	if (arena_ind < MAX_HOOKED_ARENAS)
		__atomic_add_fetch(&hook_calls[arena_ind], 1, __ATOMIC_RELAXED);

	read_fb_counters(before);
	p = map_chunk(size, alignment);
	if (!p)
		return NULL;
	if (mp_dvm_conf.mode_on && mp_dvm_is_identity((uintptr_t)p, size)) {
		mp_dvm_stats_add(&st->identity_chunks, 1);
		mp_dvm_stats_add(&st->identity_bytes, size);
	} else {
		read_fb_counters(after);
		reason = fallback_reason(before, after);
		if (mp_dvm_conf.strict) {
			mp_dvm_stats_add(&st->refused_chunks[reason], 1);
			mp_dvm_stats_add(&st->refused_bytes[reason], size);
			munmap(p, size);
			errno = ENOMEM;
			return NULL;
		}
		mp_dvm_stats_add(&st->fallback_chunks[reason], 1);
		mp_dvm_stats_add(&st->fallback_bytes[reason], size);
	}
	note_chunk(p, size);
	*zero = true;
	*commit = true;
	return p;
}

/*
 * Splitting and merging chunks needs nothing from the kernel.  Without
 * dalloc, decommit and purge hooks jemalloc keeps freed chunks mapped
 * and reuses them ("retain"): purging with MADV_DONTNEED would replace
 * identity pages by demand-paged ones.
 */
static bool dvm_split(extent_hooks_t *hooks, void *addr, size_t size,
		      size_t size_a, size_t size_b, bool committed,
		      unsigned int arena_ind)
{
	return false;
}

static bool dvm_merge(extent_hooks_t *hooks, void *addr_a, size_t size_a,
		      void *addr_b, size_t size_b, bool committed,
		      unsigned int arena_ind)
{
	return false;
}

extent_hooks_t mp_dvm_hooks = {
	.alloc = dvm_alloc,
	.split = dvm_split,
	.merge = dvm_merge,
};
