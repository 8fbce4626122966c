// SPDX-License-Identifier: GPL-2.0
/*
 * mpbench idle latency: a dependent pointer chase through every cache line
 * of the buffer in a random cyclic order (Sattolo's shuffle), as MLC's
 * idle-latency test does, so that neither the prefetchers nor out-of-order
 * execution can hide a miss. On a pio target each access is a 64-byte
 * pread at a random line.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "mpbench.h"

/* Link line i to line perm[i]: one cycle through all @n lines. */
static int mpb_lat_build(struct mpb_target *t, size_t n, uint64_t *seed)
{
	char *base = t->mem;
	uint32_t *perm;
	size_t i;

	perm = malloc(n * sizeof(*perm));
	if (!perm)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (i = n - 1; i > 0; i--) {
		size_t j = mpb_rand(seed) % i;
		uint32_t tmp = perm[i];

		perm[i] = perm[j];
		perm[j] = tmp;
	}
	/* perm is now one n-cycle: follow it from line 0 */
	for (i = 0; i < n; i++)
		*(void **)(base + (size_t)i * MPB_LINE) =
			base + (size_t)perm[i] * MPB_LINE;
	free(perm);
	return 0;
}

static uint64_t mpb_chase(void **p, uint64_t steps)
{
	void **q = p;
	uint64_t i;

	for (i = 0; i < steps; i++)
		q = *q;
	return (uintptr_t)q;
}

static int mpb_lat_mem(struct mpb_target *t, const struct mpb_opts *o,
		       struct mpb_result *r)
{
	size_t n = t->size / MPB_LINE;
	uint64_t seed = o->seed, steps = 0, batch = 4096;
	volatile uint64_t sink;
	double t0, t1;
	int ret;

	if (n < 2 || n > UINT32_MAX)
		return -EINVAL;
	ret = mpb_lat_build(t, n, &seed);
	if (ret)
		return ret;
	sink = mpb_chase(t->mem, n);	/* warm: one full cycle */
	t0 = mpb_now();
	do {
		sink = mpb_chase((void **)(uintptr_t)sink, batch);
		steps += batch;
		t1 = mpb_now();
	} while (t1 - t0 < o->seconds);
	(void)sink;
	r->value = (t1 - t0) * 1e9 / steps;
	r->ops = steps;
	return 0;
}

static int mpb_lat_pio(struct mpb_target *t, const struct mpb_opts *o,
		       struct mpb_result *r)
{
	size_t n = t->size / MPB_LINE;
	uint64_t seed = o->seed, steps = 0;
	char buf[MPB_LINE];
	double t0, t1;

	if (!n)
		return -EINVAL;
	t0 = mpb_now();
	do {
		off_t off = (off_t)(mpb_rand(&seed) % n) * MPB_LINE;

		if (pread(t->fd, buf, sizeof(buf), off) != sizeof(buf))
			return errno ? -errno : -EIO;
		steps++;
		t1 = mpb_now();
	} while (t1 - t0 < o->seconds);
	r->value = (t1 - t0) * 1e9 / steps;
	r->ops = steps;
	return 0;
}

int mpb_lat(struct mpb_target *t, const struct mpb_opts *o,
	    struct mpb_result *r)
{
	r->test = "latency";
	r->unit = "ns";
	if (t->kind == MPB_PIO)
		return mpb_lat_pio(t, o, r);
	return mpb_lat_mem(t, o, r);
}
