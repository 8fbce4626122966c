// SPDX-License-Identifier: GPL-2.0
/*
 * DVM software accelerator: devirtualized access validation (DAV).
 *
 * Every load and store of a job is validated by walking the device table
 * through the Access Validation Cache (4-way, 64-byte blocks, 128 entries,
 * physically indexed, caching entries of every level).  A walk that ends
 * on a Permission Entry validates an identity-mapped access: the physical
 * address is the virtual one.  One that ends on a 4 KiB entry translates.
 * Loads are preloaded: the data at PA == VA is read into the engine's line
 * buffer before the walk, as hardware would issue both at once, and is
 * the load's result when the walk validates identity; when it does not
 * the preload is squashed: the line buffer is wiped and the load reads
 * the translated address after the walk.  Stores validate first.
 *
 * A preload reads memory before its own walk has said that the process
 * may read it, so it is issued only inside runs of pages that a walk of
 * this job has already validated as readable at PA == VA (the ranges a
 * job checks before it starts), and only while nothing has been taken out
 * of the table since (ctx->revoked): those pages are still the process's
 * own.  Anywhere else, say at a virtual address whose physical twin
 * belongs to another process or to the kernel, nothing is read before
 * validation.  The line buffer never keeps data after a load.
 * A walk that finds nothing is a device fault: the host faults the page
 * in when the process's VMA allows the access, and the access is retried;
 * otherwise the access is refused (-EFAULT) and the job ends.
 */
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>

#include "dvm_accel.h"

/* Let invalidations and signals in every DVM_ACCEL_BATCH accesses. */
static int dvm_eng_batch(struct dvm_eng *e)
{
	if (++e->batch < DVM_ACCEL_BATCH)
		return 0;
	e->batch = 0;
	mutex_unlock(&e->ctx->lock);
	cond_resched();
	mutex_lock(&e->ctx->lock);
	return fatal_signal_pending(current) ? -EINTR : 0;
}

/* Forget the validated runs when the table lost entries since. */
static void dvm_runs_sync(struct dvm_eng *e)
{
	if (e->runs_revoked != e->ctx->revoked) {
		e->nruns = 0;
		e->runs_revoked = e->ctx->revoked;
	}
}

/* A walk validated the page at @va readable at PA == VA: remember it. */
static void dvm_runs_add(struct dvm_eng *e, u64 va)
{
	struct dvm_run *r;

	dvm_runs_sync(e);
	r = e->nruns ? &e->runs[e->nruns - 1] : NULL;
	if (r && r->end == va) {
		r->end += PAGE_SIZE;
		return;
	}
	if (e->nruns == DVM_ENG_RUNS)
		return;
	r = &e->runs[e->nruns++];
	r->start = va;
	r->end = va + PAGE_SIZE;
}

/* Is [@va, @va + @len) inside a run validated since the last removal? */
static bool dvm_runs_have(struct dvm_eng *e, u64 va, u32 len)
{
	u32 i;

	dvm_runs_sync(e);
	for (i = 0; i < e->nruns; i++)
		if (va >= e->runs[i].start && va + len <= e->runs[i].end)
			return true;
	return false;
}

/**
 * dvm_eng_wipe() - clear the line buffer
 * @e: the engine
 */
void dvm_eng_wipe(struct dvm_eng *e)
{
	memzero_explicit(e->line, sizeof(e->line));
}

/*
 * The preload of a load of @len bytes at @va: read PA == VA into the line
 * buffer, but only inside a run this job has validated (see the top of
 * this file), so that nothing the process may not read is ever read on
 * its behalf.  Pages outside the buddy allocator's (holes, reserved
 * ranges) are not read either, and the copy must not fault on a page
 * missing from the direct map (secretmem, debug_pagealloc).
 * Return: the data was read.
 */
static bool dvm_preload(struct dvm_eng *e, u64 va, u32 len)
{
	unsigned long pfn = PHYS_PFN(va);

	if (len > sizeof(e->line) || !dvm_runs_have(e, va, len) ||
	    !pfn_valid(pfn) || PageReserved(pfn_to_page(pfn)))
		return false;
	if (!copy_from_kernel_nofault(e->line, phys_to_virt(va), len))
		return true;
	dvm_eng_wipe(e);
	return false;
}

/*
 * Validate one access at @va; *@pa is where the data is.  @count: a job's
 * access (stats, AVC, TLB models) rather than a check before the job.
 * @plen: bytes of a load to preload (0: none).  Return 1 instead of 0 when
 * the preload is the load's data (identity, validated at the first walk).
 */
static int dvm_dav(struct dvm_eng *e, u64 va, enum dvm_access a, u64 *pa,
		   bool count, u32 plen)
{
	struct dvm_accel_ctx *ctx = e->ctx;
	struct dvm_accel_stats *st = e->st;
	bool preloaded = false;
	struct dvm_walk w;
	int ret, tries;

	if (count) {
		st->accesses++;
		if (e->tlb4k) {
			dvm_tlb_access(e->tlb4k, va);
			dvm_tlb_access(e->tlb2m, va);
		}
	}
	for (tries = 0; ; tries++) {
		if (plen && !tries) {
			preloaded = dvm_preload(e, va, plen);
			if (preloaded)
				st->preloads++;
		}
		w = (struct dvm_walk){ 0 };
		ret = dvm_io_pgtable_walk(ctx->pgt, va, a,
					  count ? dvm_avc_read : NULL,
					  &ctx->avc, &w);
		if (count) {
			st->walk_refs += w.refs;
			st->validation_refs += w.mem_refs;
		}
		if (preloaded && (ret || !w.identity)) {
			st->preloads_squashed++;
			preloaded = false;
			dvm_eng_wipe(e);
		}
		if (!ret)
			break;
		if (ret != -EFAULT || tries >= DVM_ACCEL_FAULT_TRIES)
			goto refused;
		st->faults++;
		mutex_unlock(&ctx->lock);
		ret = dvm_mirror_fault(ctx, va, a);
		mutex_lock(&ctx->lock);
		if (ret == -EINTR || ret == -ENOMEM)
			return ret;
		if (ret)
			goto refused;
	}
	if (!pfn_valid(PHYS_PFN(w.pa))) {
		if (preloaded)
			dvm_eng_wipe(e);
		goto refused;
	}
	if (count) {
		if (w.identity)
			st->identity++;
		else
			st->translated++;
	}
	*pa = w.pa;
	return preloaded;

refused:
	st->perm_faults++;
	return -EFAULT;
}

static bool dvm_one_page(u64 va, u32 len)
{
	return len && len <= PAGE_SIZE &&
	       (va & PAGE_MASK) == ((va + len - 1) & PAGE_MASK);
}

/**
 * dvm_eng_read() - a job's load of @len bytes (within one page) at @va
 * @e: the job
 * @va: process address
 * @buf: where the data goes
 * @len: bytes
 *
 * Return: 0, -EFAULT (refused), -EINTR (killed), -EINVAL, -ENOMEM.
 */
int dvm_eng_read(struct dvm_eng *e, u64 va, void *buf, u32 len)
{
	u64 pa;
	int ret;

	if (!dvm_one_page(va, len))
		return -EINVAL;
	ret = dvm_dav(e, va, DVM_ACCESS_READ, &pa, true, len);
	if (ret < 0)
		return ret;
	if (ret) {
		memcpy(buf, e->line, len);
		dvm_eng_wipe(e);
	} else if (copy_from_kernel_nofault(buf, phys_to_virt(pa), len)) {
		return -EFAULT;
	}
	e->st->reads++;
	e->st->bytes_read += len;
	return dvm_eng_batch(e);
}

/**
 * dvm_eng_fetch() - a job's instruction fetch of @len bytes at @va
 * @e: the job
 * @va: process address, in a page the device may execute (code 11)
 * @buf: where the bytes go
 * @len: bytes, within one page
 *
 * Validated before the read (no preload): as a device loading code.
 * Return: as dvm_eng_read().
 */
int dvm_eng_fetch(struct dvm_eng *e, u64 va, void *buf, u32 len)
{
	u64 pa;
	int ret;

	if (!dvm_one_page(va, len))
		return -EINVAL;
	ret = dvm_dav(e, va, DVM_ACCESS_EXEC, &pa, true, 0);
	if (ret)
		return ret;
	if (copy_from_kernel_nofault(buf, phys_to_virt(pa), len))
		return -EFAULT;
	e->st->reads++;
	e->st->bytes_read += len;
	return dvm_eng_batch(e);
}

/**
 * dvm_eng_write() - a job's store of @len bytes (within one page) at @va
 * @e: the job
 * @va: process address
 * @buf: the data
 * @len: bytes
 *
 * Return: as dvm_eng_read(); nothing is stored unless validation passed.
 */
int dvm_eng_write(struct dvm_eng *e, u64 va, const void *buf, u32 len)
{
	u64 pa;
	int ret;

	if (!dvm_one_page(va, len))
		return -EINVAL;
	ret = dvm_dav(e, va, DVM_ACCESS_WRITE, &pa, true, 0);
	if (ret)
		return ret;
	if (copy_to_kernel_nofault(phys_to_virt(pa), buf, len))
		return -EFAULT;
	e->st->writes++;
	e->st->bytes_written += len;
	return dvm_eng_batch(e);
}

/**
 * dvm_eng_check() - validate every page of a range before a job starts
 * @e: the job
 * @va: start
 * @len: bytes (0: nothing to check)
 * @a: the access the job will make
 *
 * Jobs check the ranges they will store to and read from before they move
 * anything, so that a range the process may not access ends the job before
 * a byte has moved.  These walks are not the job's accesses: they bypass
 * the AVC and are not counted, but pages faulted in are.  The pages they
 * find at PA == VA become the runs loads may be preloaded from.
 *
 * Return: 0, -EFAULT (also for a range that wraps or goes beyond user
 * addresses), -EINTR, -ENOMEM.
 */
int dvm_eng_check(struct dvm_eng *e, u64 va, u64 len, enum dvm_access a)
{
	u64 p, pa, end;
	int ret;

	if (!len)
		return 0;
	if (check_add_overflow(va, len, &end) || end > TASK_SIZE) {
		e->st->perm_faults++;
		return -EFAULT;
	}
	for (p = va & PAGE_MASK; p < end; p += PAGE_SIZE) {
		ret = dvm_dav(e, p, a, &pa, false, 0);
		if (ret)
			return ret;
		/* any access validated: readable, here at PA == VA */
		if (pa == p)
			dvm_runs_add(e, p);
		ret = dvm_eng_batch(e);
		if (ret)
			return ret;
	}
	return 0;
}
