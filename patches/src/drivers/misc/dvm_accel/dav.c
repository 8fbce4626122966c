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
 * the load's result when the walk validates identity; when it does not (a
 * fault or a translation) the preload is squashed: the line buffer is
 * dropped and a translated load reads the translated address after the
 * walk.  Stores validate first.
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

/*
 * The preload of a load of @len bytes at @va: read PA == VA into the line
 * buffer.  Only pages the buddy allocator manages can be identity mapped
 * for a process, so others (holes, reserved ranges, MMIO below 1 MiB) are
 * not read at all; the copy must not fault on a page missing from the
 * direct map (secretmem, debug_pagealloc).  Return: the data was read.
 */
static bool dvm_preload(struct dvm_eng *e, u64 va, u32 len)
{
	unsigned long pfn = PHYS_PFN(va);

	if (len > sizeof(e->line) || !pfn_valid(pfn) ||
	    PageReserved(pfn_to_page(pfn)))
		return false;
	return !copy_from_kernel_nofault(e->line, phys_to_virt(va), len);
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
		if (plen && !tries)
			preloaded = dvm_preload(e, va, plen);
		w = (struct dvm_walk){ 0 };
		ret = dvm_io_pgtable_walk(ctx->pgt, va, a,
					  count ? dvm_avc_read : NULL,
					  &ctx->avc, &w);
		if (count) {
			st->walk_refs += w.refs;
			st->validation_refs += w.mem_refs;
		}
		if (plen && !tries) {
			st->preloads++;
			if (ret || !w.identity || !preloaded) {
				st->preloads_squashed++;
				preloaded = false;
			}
		}
		if (!ret)
			break;
		if (ret != -EFAULT || tries >= DVM_ACCEL_FAULT_TRIES)
			goto refused;
		st->faults++;
		mutex_unlock(&ctx->lock);
		ret = dvm_mirror_fault(ctx, va, a == DVM_ACCESS_WRITE);
		mutex_lock(&ctx->lock);
		if (ret == -EINTR || ret == -ENOMEM)
			return ret;
		if (ret)
			goto refused;
	}
	if (!pfn_valid(PHYS_PFN(w.pa)))
		goto refused;
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
	if (ret)
		memcpy(buf, e->line, len);
	else if (copy_from_kernel_nofault(buf, phys_to_virt(pa), len))
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
 * @write: for stores
 *
 * Jobs check the ranges they will store to and read from before they move
 * anything, so that a range the process may not access ends the job before
 * a byte has moved.  These walks are not the job's accesses: they bypass
 * the AVC and are not counted, but pages faulted in are.
 *
 * Return: 0, -EFAULT (also for a range that wraps or goes beyond user
 * addresses), -EINTR, -ENOMEM.
 */
int dvm_eng_check(struct dvm_eng *e, u64 va, u64 len, bool write)
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
		ret = dvm_dav(e, p, write ? DVM_ACCESS_WRITE : DVM_ACCESS_READ,
			      &pa, false, 0);
		if (ret)
			return ret;
		ret = dvm_eng_batch(e);
		if (ret)
			return ret;
	}
	return 0;
}
