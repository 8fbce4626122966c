/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mpbench: memory latency and bandwidth of system memory, local pool
 * memory (a NUMA node) and remote pool memory (an mmap of /dev/mps<N>, or
 * pread/pwrite on it), measured the way MLC does (Documentation/
 * performance.rst, "mpbench").
 */
#ifndef MPBENCH_H
#define MPBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define MPB_LINE	64

enum mpb_kind {
	MPB_SYS,	/* anonymous memory, default policy */
	MPB_NODE,	/* anonymous memory bound to one NUMA node */
	MPB_MMAP,	/* a shared mapping of a file or device */
	MPB_PIO,	/* pread/pwrite on a file or device */
};

/**
 * struct mpb_target - where the bytes live
 * @kind: enum mpb_kind
 * @spec: the --target argument, for reports
 * @path: file or device (MPB_MMAP, MPB_PIO)
 * @node: NUMA node (MPB_NODE)
 * @fd: open @path, -1 otherwise
 * @mem: the mapping (not MPB_PIO)
 * @size: bytes used
 */
struct mpb_target {
	enum mpb_kind kind;
	const char *spec;
	const char *path;
	int node;
	int fd;
	void *mem;
	size_t size;
};

/**
 * struct mpb_opts - one run
 * @threads: bandwidth threads
 * @seconds: time per measurement
 * @chunk: bytes per pread/pwrite (MPB_PIO)
 * @seed: for the chase permutation and the verification pattern
 */
struct mpb_opts {
	unsigned int threads;
	double seconds;
	size_t chunk;
	uint64_t seed;
};

/* Result of one test: what it measured, in its unit. */
struct mpb_result {
	const char *test;
	const char *unit;	/* "ns" (per access) or "MiB/s" */
	double value;
	uint64_t ops;		/* accesses or bytes moved */
};

/* target.c */
int mpb_target_parse(const char *spec, struct mpb_target *t);
int mpb_target_open(struct mpb_target *t, size_t size);
void mpb_target_close(struct mpb_target *t);
int mpb_target_sync(struct mpb_target *t);

/* lat.c */
int mpb_lat(struct mpb_target *t, const struct mpb_opts *o,
	    struct mpb_result *r);

/* bw.c: @reads:@writes lines per step (1:0 all reads); triad when both 0 */
int mpb_bw(struct mpb_target *t, const struct mpb_opts *o,
	   unsigned int reads, unsigned int writes, struct mpb_result *r);

/* verify.c: pattern written, synced, read back; -EIO on a mismatch */
int mpb_verify(struct mpb_target *t, const struct mpb_opts *o,
	       uint64_t *bad);

/* util */
double mpb_now(void);
uint64_t mpb_rand(uint64_t *state);

#endif /* MPBENCH_H */
