// SPDX-License-Identifier: GPL-2.0
/*
 * DVM software accelerator: the device's copy of a process's page table.
 *
 * Binding takes a snapshot of the pages the process has (hmm_range_fault()
 * without faulting) and enters them into the device table: identity-mapped
 * pages (physical address == virtual address) as Permission Entries,
 * others as 4 KiB translations; read-write or read-only as the CPU's page
 * table has them, read-execute (the paper's code 11) where a read-only
 * page lies in an executable VMA.  An mmu_interval_notifier over the whole user address
 * space takes pages out again before the mm changes them: munmap,
 * mprotect, copy-on-write at fork, migration, exit.  Pages the table does
 * not have are faulted in on the device's behalf when a job touches them
 * (as the IOMMU's page request interface would), within what the VMA
 * allows.
 */
#include <linux/hmm.h>
#include <linux/io-pgtable.h>
#include <linux/iommu.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "dvm_accel.h"

/* everything above is for the revocation that cannot fail (no table) */
#define DVM_MIRROR_SAFE_ALIGN	(32ULL << 30)

/* Take [start, end) out of the device table; ctx->lock held. */
static void dvm_mirror_revoke(struct dvm_accel_ctx *ctx, u64 start, u64 end)
{
	u64 top = BIT_ULL(DVM_VA_BITS);

	start = round_down(start, PAGE_SIZE);
	end = end > top ? top : round_up(end, PAGE_SIZE);
	if (start >= end)
		return;
	/* runs validated by running jobs may have lost pages: no preloads */
	ctx->revoked++;
	/*
	 * Splitting a PE needs a table, and no memory can be waited for
	 * here (reclaim calls invalidate()): the table splits from its
	 * reserve and refuses, changing nothing, only when that ran dry.
	 * Then take away whole 32 GiB regions, which splits nothing: pages
	 * the process still has come back through device faults.
	 */
	if (dvm_io_pgtable_set_perm(ctx->pgt, start, end - start, DVM_PERM_NONE,
				    GFP_NOWAIT)) {
		start = round_down(start, DVM_MIRROR_SAFE_ALIGN);
		end = min(round_up(end, DVM_MIRROR_SAFE_ALIGN), top);
		dvm_io_pgtable_set_perm(ctx->pgt, start, end - start,
					DVM_PERM_NONE, GFP_NOWAIT);
	}
	dvm_avc_flush(&ctx->avc);
}

static bool dvm_mirror_invalidate(struct mmu_interval_notifier *mni,
				  const struct mmu_notifier_range *range,
				  unsigned long cur_seq)
{
	struct dvm_accel_ctx *ctx = container_of(mni, struct dvm_accel_ctx,
						 notifier);

	if (mmu_notifier_range_blockable(range))
		mutex_lock(&ctx->lock);
	else if (!mutex_trylock(&ctx->lock))
		return false;
	mmu_interval_set_seq(mni, cur_seq);
	dvm_mirror_revoke(ctx, range->start, range->end);
	mutex_unlock(&ctx->lock);
	return true;
}

const struct mmu_interval_notifier_ops dvm_mirror_ops = {
	.invalidate = dvm_mirror_invalidate,
};

/*
 * A writable page is read-write; a read-only one read-execute when its VMA
 * is executable.  There is no write-execute code: a page the CPU can write
 * is not executable by the device until it is write protected again.
 */
static enum dvm_perm dvm_hmm_perm(unsigned long hpfn, bool exec)
{
	if (hpfn & HMM_PFN_WRITE)
		return DVM_PERM_RW;
	return exec ? DVM_PERM_RX : DVM_PERM_RO;
}

static int dvm_perm_prot(enum dvm_perm perm)
{
	switch (perm) {
	case DVM_PERM_RW:
		return IOMMU_READ | IOMMU_WRITE;
	case DVM_PERM_RX:
		return IOMMU_READ;
	default:
		return IOMMU_READ | IOMMU_NOEXEC;
	}
}

static bool dvm_hmm_valid(unsigned long hpfn)
{
	return (hpfn & HMM_PFN_VALID) && !(hpfn & HMM_PFN_ERROR);
}

/*
 * Enter what hmm_range_fault() found into the table; ctx->lock held.
 * @exec: the range lies in an executable VMA.
 */
static int dvm_mirror_install(struct dvm_accel_ctx *ctx, u64 start,
			      const unsigned long *pfns, unsigned long npages,
			      bool exec)
{
	struct io_pgtable_ops *ops = ctx->pgt;
	unsigned long i = 0, j;
	size_t mapped;
	int ret = 0;

	while (i < npages && !ret) {
		u64 va = start + i * PAGE_SIZE, pa;
		enum dvm_perm perm;

		if (!dvm_hmm_valid(pfns[i])) {
			i++;
			continue;
		}
		pa = page_to_phys(hmm_pfn_to_page(pfns[i]));
		perm = dvm_hmm_perm(pfns[i], exec);
		if (pa == va) {
			/* a run of identity pages of one permission: PEs */
			for (j = i + 1; j < npages; j++) {
				if (!dvm_hmm_valid(pfns[j]) ||
				    dvm_hmm_perm(pfns[j], exec) != perm ||
				    page_to_phys(hmm_pfn_to_page(pfns[j])) !=
				    va + (j - i) * PAGE_SIZE)
					break;
			}
			ret = dvm_io_pgtable_set_perm(ops, va, (j - i) * PAGE_SIZE,
						      perm, GFP_NOWAIT);
			i = j;
			continue;
		}
		if (ops->unmap_pages(ops, va, SZ_4K, 1, NULL))
			ctx->revoked++;
		mapped = 0;
		ret = ops->map_pages(ops, va, pa, SZ_4K, 1, dvm_perm_prot(perm),
				     GFP_NOWAIT, &mapped);
		i++;
	}
	dvm_avc_flush(&ctx->avc);
	return ret;
}

/*
 * Mirror [start, end) (at most DVM_MIRROR_CHUNK pages, inside one VMA): what
 * is there, and the page at @req (if inside) faulted in as @flags asks.
 */
static int dvm_mirror_range(struct dvm_accel_ctx *ctx, u64 start, u64 end,
			    unsigned long *pfns, u64 req, unsigned long flags)
{
	struct hmm_range range = {
		.notifier = &ctx->notifier,
		.start = start,
		.end = end,
		.hmm_pfns = pfns,
		.pfn_flags_mask = HMM_PFN_REQ_FAULT | HMM_PFN_REQ_WRITE,
	};
	unsigned long timeout = jiffies +
				msecs_to_jiffies(HMM_RANGE_DEFAULT_TIMEOUT);
	unsigned long i, npages = (end - start) >> PAGE_SHIFT;
	struct vm_area_struct *vma;
	bool exec;
	int ret;

	for (;;) {
		if (time_after(jiffies, timeout))
			return -EBUSY;
		if (fatal_signal_pending(current))
			return -EINTR;
		for (i = 0; i < npages; i++)
			pfns[i] = start + i * PAGE_SIZE == req ? flags : 0;
		range.notifier_seq = mmu_interval_read_begin(&ctx->notifier);
		mmap_read_lock(ctx->mm);
		vma = vma_lookup(ctx->mm, start);
		exec = vma && (vma->vm_flags & VM_EXEC);
		ret = hmm_range_fault(&range);
		mmap_read_unlock(ctx->mm);
		if (ret == -EBUSY)
			continue;
		if (ret)
			return ret;
		mutex_lock(&ctx->lock);
		if (mmu_interval_read_retry(&ctx->notifier,
					    range.notifier_seq)) {
			mutex_unlock(&ctx->lock);
			continue;
		}
		ret = dvm_mirror_install(ctx, start, pfns, npages, exec);
		mutex_unlock(&ctx->lock);
		return ret;
	}
}

/**
 * dvm_mirror_fault() - resolve a device fault on @va
 * @ctx: the bound context, ctx->lock not held, ctx->job_lock held
 * @va: the address a job touched
 * @a: the access: a store faults the page in writable; an instruction
 *     fetch needs an executable VMA
 *
 * The page is faulted in as the access needs it; the other pages the
 * process has in the same 2 MiB (within the VMA) are mirrored with it, so
 * that a job walking through memory faults once per 2 MiB, not per page.
 *
 * Return: 0 when the page is now in the table, -EFAULT when the process
 * has no such page or does not allow the access, -EINTR, -ENOMEM.
 */
int dvm_mirror_fault(struct dvm_accel_ctx *ctx, u64 va, enum dvm_access a)
{
	struct mm_struct *mm = ctx->mm;
	struct vm_area_struct *vma;
	u64 page = va & PAGE_MASK, start = 0, end = 0;
	int ret = -EFAULT;

	if (va >= TASK_SIZE || !mmget_not_zero(mm))
		return -EFAULT;
	mmap_read_lock(mm);
	vma = vma_lookup(mm, va);
	if (vma && a == DVM_ACCESS_EXEC && !(vma->vm_flags & VM_EXEC))
		vma = NULL;
	if (vma) {
		start = max_t(u64, vma->vm_start, ALIGN_DOWN(page, SZ_2M));
		end = min_t(u64, vma->vm_end, ALIGN_DOWN(page, SZ_2M) + SZ_2M);
	}
	mmap_read_unlock(mm);
	if (vma)
		ret = dvm_mirror_range(ctx, start, end, ctx->fault_pfns, page,
				       HMM_PFN_REQ_FAULT |
				       (a == DVM_ACCESS_WRITE ?
					HMM_PFN_REQ_WRITE : 0));
	mmput(mm);
	return ret == -EINTR || ret == -ENOMEM ? ret : ret ? -EFAULT : 0;
}

/* Snapshot every VMA of the mm into the table. */
static int dvm_mirror_snapshot(struct dvm_accel_ctx *ctx)
{
	struct mm_struct *mm = ctx->mm;
	struct vm_area_struct *vma;
	unsigned long *pfns;
	u64 addr = 0, start, end;
	int ret = 0;

	pfns = kvmalloc_array(DVM_MIRROR_CHUNK, sizeof(*pfns), GFP_KERNEL);
	if (!pfns)
		return -ENOMEM;
	for (;;) {
		mmap_read_lock(mm);
		vma = find_vma(mm, addr);
		if (!vma) {
			mmap_read_unlock(mm);
			break;
		}
		start = max_t(u64, addr, vma->vm_start);
		end = min_t(u64, vma->vm_end,
			    start + DVM_MIRROR_CHUNK * PAGE_SIZE);
		mmap_read_unlock(mm);
		ret = dvm_mirror_range(ctx, start, end, pfns, 0, 0);
		/* a VMA that changed or that HMM cannot mirror: skip it */
		if (ret == -EFAULT || ret == -EPERM)
			ret = 0;
		if (ret)
			break;
		addr = end;
		cond_resched();
	}
	kvfree(pfns);
	return ret;
}

/**
 * dvm_mirror_bind() - mirror the caller's address space
 * @ctx: an unbound context
 *
 * Return: 0, -ENOMEM, -EINTR.  On error the context stays unbound.
 */
int dvm_mirror_bind(struct dvm_accel_ctx *ctx)
{
	struct mm_struct *mm = current->mm;
	int ret;

	if (!mm)
		return -EINVAL;
	mmgrab(mm);
	ctx->mm = mm;
	ret = mmu_interval_notifier_insert(&ctx->notifier, mm, 0, TASK_SIZE,
					   &dvm_mirror_ops);
	if (ret)
		goto drop;
	ret = dvm_mirror_snapshot(ctx);
	if (ret)
		goto remove;
	return 0;

remove:
	mmu_interval_notifier_remove(&ctx->notifier);
	mutex_lock(&ctx->lock);
	dvm_mirror_revoke(ctx, 0, BIT_ULL(DVM_VA_BITS));
	mutex_unlock(&ctx->lock);
drop:
	ctx->mm = NULL;
	mmdrop(mm);
	return ret;
}
