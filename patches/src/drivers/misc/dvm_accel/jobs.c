// SPDX-License-Identifier: GPL-2.0
/*
 * DVM software accelerator: the jobs.  Each works on process memory only
 * through dvm_eng_read()/dvm_eng_write(), one access per element (or per
 * 64-byte block for memcpy), the way an accelerator's memory interface
 * would see them.  Stores go only to ranges checked before the job starts;
 * indices and graph contents are checked against their bounds as they are
 * read (-EINVAL ends the job).
 */
#include <linux/mm.h>
#include <linux/overflow.h>

#include "dvm_accel.h"

#define DVM_BLOCK	64

/*
 * memcpy, or with @fetch the source read as instructions: each block is
 * validated for execute (the paper's code 11) rather than read.
 */
static int dvm_job_memcpy(struct dvm_eng *e, struct dvm_accel_job *job,
			  bool fetch)
{
	u64 dst = job->memcpy.dst, src = job->memcpy.src, len = job->memcpy.len;
	u8 buf[DVM_BLOCK];
	u64 off = 0, n;
	int ret;

	ret = dvm_eng_check(e, src, len,
			    fetch ? DVM_ACCESS_EXEC : DVM_ACCESS_READ);
	if (!ret)
		ret = dvm_eng_check(e, dst, len, DVM_ACCESS_WRITE);
	while (!ret && off < len) {
		n = min_t(u64, DVM_BLOCK, len - off);
		n = min_t(u64, n, PAGE_SIZE - ((src + off) & ~PAGE_MASK));
		n = min_t(u64, n, PAGE_SIZE - ((dst + off) & ~PAGE_MASK));
		if (fetch)
			ret = dvm_eng_fetch(e, src + off, buf, n);
		else
			ret = dvm_eng_read(e, src + off, buf, n);
		if (!ret)
			ret = dvm_eng_write(e, dst + off, buf, n);
		off += n;
	}
	return ret;
}

static int dvm_job_gs(struct dvm_eng *e, struct dvm_accel_job *job,
		      bool scatter)
{
	u64 dst = job->gs.dst, src = job->gs.src, idx = job->gs.idx;
	u64 n = job->gs.n, nt = job->gs.n_table, i, v;
	u32 k;
	int ret;

	if ((dst | src) & 7 || idx & 3 || n > U32_MAX || nt > U32_MAX)
		return -EINVAL;
	ret = dvm_eng_check(e, idx, n * 4, DVM_ACCESS_READ);
	if (!ret)
		ret = dvm_eng_check(e, src, (scatter ? n : nt) * 8, DVM_ACCESS_READ);
	if (!ret)
		ret = dvm_eng_check(e, dst, (scatter ? nt : n) * 8, DVM_ACCESS_WRITE);
	for (i = 0; !ret && i < n; i++) {
		ret = dvm_eng_read(e, idx + 4 * i, &k, 4);
		if (ret)
			break;
		if (k >= nt)
			return -EINVAL;
		if (scatter) {
			ret = dvm_eng_read(e, src + 8 * i, &v, 8);
			if (!ret)
				ret = dvm_eng_write(e, dst + 8ULL * k, &v, 8);
		} else {
			ret = dvm_eng_read(e, src + 8ULL * k, &v, 8);
			if (!ret)
				ret = dvm_eng_write(e, dst + 8 * i, &v, 8);
		}
	}
	return ret;
}

static int dvm_job_chase(struct dvm_eng *e, struct dvm_accel_job *job)
{
	u64 p = job->chase.start, off = job->chase.next_off, steps = 0, at;
	int ret = 0;

	while (p && steps < job->chase.max_steps) {
		if (check_add_overflow(p, off, &at) || at & 7) {
			ret = -EINVAL;
			break;
		}
		ret = dvm_eng_read(e, at, &p, 8);
		if (ret)
			break;
		steps++;
	}
	job->result = steps;
	job->result2 = p;
	return ret;
}

/* Check a CSR graph's arrays before a job on it. */
static int dvm_csr_check(struct dvm_eng *e, const struct dvm_accel_csr *g)
{
	int ret;

	if (!g->n || g->n >= U32_MAX || g->m > (U64_MAX >> 3) ||
	    (g->row & 7) || (g->col & 3))
		return -EINVAL;
	ret = dvm_eng_check(e, g->row, (g->n + 1) * 8, DVM_ACCESS_READ);
	if (!ret)
		ret = dvm_eng_check(e, g->col, g->m * 4, DVM_ACCESS_READ);
	return ret;
}

/* The edges of @v: [*s, *e) in col[] */
static int dvm_csr_edges(struct dvm_eng *e, const struct dvm_accel_csr *g,
			 u64 v, u64 *s, u64 *end)
{
	int ret = dvm_eng_read(e, g->row + 8 * v, s, 8);

	if (!ret)
		ret = dvm_eng_read(e, g->row + 8 * (v + 1), end, 8);
	if (!ret && (*s > *end || *end > g->m))
		ret = -EINVAL;
	return ret;
}

static int dvm_csr_col(struct dvm_eng *e, const struct dvm_accel_csr *g,
		       u64 k, u32 *u)
{
	int ret = dvm_eng_read(e, g->col + 4 * k, u, 4);

	if (!ret && *u >= g->n)
		ret = -EINVAL;
	return ret;
}

static int dvm_job_bfs(struct dvm_eng *e, struct dvm_accel_job *job)
{
	const struct dvm_accel_csr *g = &job->bfs.g;
	u64 level = job->bfs.level, queue = job->bfs.queue;
	u64 head = 0, tail = 1, v, s, end, k;
	s32 lv, lu, none = -1;
	u32 u, root = job->bfs.root;
	int ret;

	if ((level | queue) & 3 || job->bfs.root >= g->n)
		return -EINVAL;
	ret = dvm_csr_check(e, g);
	if (!ret)
		ret = dvm_eng_check(e, level, g->n * 4, DVM_ACCESS_WRITE);
	if (!ret)
		ret = dvm_eng_check(e, queue, g->n * 4, DVM_ACCESS_WRITE);
	for (v = 0; !ret && v < g->n; v++)
		ret = dvm_eng_write(e, level + 4 * v, &none, 4);
	lv = 0;
	if (!ret)
		ret = dvm_eng_write(e, level + 4ULL * root, &lv, 4);
	if (!ret)
		ret = dvm_eng_write(e, queue, &root, 4);
	while (!ret && head < tail) {
		ret = dvm_eng_read(e, queue + 4 * head++, &u, 4);
		if (!ret)
			ret = dvm_eng_read(e, level + 4ULL * u, &lv, 4);
		if (!ret)
			ret = dvm_csr_edges(e, g, u, &s, &end);
		for (k = s; !ret && k < end; k++) {
			u32 w;

			ret = dvm_csr_col(e, g, k, &w);
			if (!ret)
				ret = dvm_eng_read(e, level + 4ULL * w, &lu, 4);
			if (ret || lu != -1)
				continue;
			lu = lv + 1;
			ret = dvm_eng_write(e, level + 4ULL * w, &lu, 4);
			if (!ret)
				ret = dvm_eng_write(e, queue + 4 * tail++, &w, 4);
		}
	}
	job->result = tail;
	return ret;
}

/* Fixed-point PageRank, push style; integer arithmetic, so exact. */
static int dvm_job_pagerank(struct dvm_eng *e, struct dvm_accel_job *job)
{
	const struct dvm_accel_csr *g = &job->pr.g;
	u64 rank = job->pr.rank, next = job->pr.next, n = g->n;
	u64 base, it, v, s, end, k, r, x, zero = 0;
	u32 u;
	int ret;

	if ((rank | next) & 7)
		return -EINVAL;
	ret = dvm_csr_check(e, g);
	if (!ret)
		ret = dvm_eng_check(e, rank, n * 8, DVM_ACCESS_WRITE);
	if (!ret)
		ret = dvm_eng_check(e, next, n * 8, DVM_ACCESS_WRITE);
	base = DVM_PR_ONE * (DVM_PR_DAMP_DEN - DVM_PR_DAMP_NUM) /
	       DVM_PR_DAMP_DEN / n;
	r = DVM_PR_ONE / n;
	for (v = 0; !ret && v < n; v++)
		ret = dvm_eng_write(e, rank + 8 * v, &r, 8);
	for (it = 0; !ret && it < job->pr.iters; it++) {
		for (v = 0; !ret && v < n; v++)
			ret = dvm_eng_write(e, next + 8 * v, &zero, 8);
		for (v = 0; !ret && v < n; v++) {
			ret = dvm_csr_edges(e, g, v, &s, &end);
			if (!ret && end > s)
				ret = dvm_eng_read(e, rank + 8 * v, &r, 8);
			if (ret || end == s)
				continue;
			r /= end - s;
			for (k = s; !ret && k < end; k++) {
				ret = dvm_csr_col(e, g, k, &u);
				if (!ret)
					ret = dvm_eng_read(e, next + 8ULL * u,
							   &x, 8);
				x += r;
				if (!ret)
					ret = dvm_eng_write(e, next + 8ULL * u,
							    &x, 8);
			}
		}
		for (v = 0; !ret && v < n; v++) {
			ret = dvm_eng_read(e, next + 8 * v, &x, 8);
			x = base + x * DVM_PR_DAMP_NUM / DVM_PR_DAMP_DEN;
			if (!ret)
				ret = dvm_eng_write(e, rank + 8 * v, &x, 8);
		}
	}
	return ret;
}

/**
 * dvm_job_run() - run @job on the bound process's memory
 * @e: the engine, ctx->lock held
 * @job: the job, its results filled in
 *
 * Return: 0, -EFAULT when an access was refused, -EINVAL for bad
 * arguments or graph contents, -EINTR when killed, -ENOMEM.
 */
int dvm_job_run(struct dvm_eng *e, struct dvm_accel_job *job)
{
	switch (job->op) {
	case DVM_ACCEL_MEMCPY:
		return dvm_job_memcpy(e, job, false);
	case DVM_ACCEL_FETCH:
		return dvm_job_memcpy(e, job, true);
	case DVM_ACCEL_GATHER:
		return dvm_job_gs(e, job, false);
	case DVM_ACCEL_SCATTER:
		return dvm_job_gs(e, job, true);
	case DVM_ACCEL_CHASE:
		return dvm_job_chase(e, job);
	case DVM_ACCEL_BFS:
		return dvm_job_bfs(e, job);
	case DVM_ACCEL_PAGERANK:
		return dvm_job_pagerank(e, job);
	}
	return -EINVAL;
}
