/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DVM software accelerator: shared definitions of the device (main.c),
 * the process mirror (mirror.c), the access path (dav.c) and the jobs
 * (jobs.c).
 */
#ifndef _DVM_ACCEL_H
#define _DVM_ACCEL_H

#include <linux/dvm_avc.h>
#include <linux/io-pgtable-dvm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <uapi/linux/dvm_accel.h>

/* a device fault is resolved by the host at most this often per access */
#define DVM_ACCEL_FAULT_TRIES	4
/* pages per hmm_range_fault(): 2 MiB */
#define DVM_MIRROR_CHUNK	512
/* accesses between points where invalidations and signals get in */
#define DVM_ACCEL_BATCH		1024

/*
 * One open file: one device context.  @lock protects the table and the
 * AVC; a job holds it while it validates and makes an access, and drops
 * it every DVM_ACCEL_BATCH accesses and to resolve a fault, so that the
 * mirror's invalidate() (which takes it) is never held up for long.
 * Memory reached through the table stays valid while @lock is held: pages
 * are removed from the table before the mm frees them.
 */
struct dvm_accel_ctx {
	struct mutex job_lock;		/* one job at a time */
	struct mutex lock;		/* @pgt, @avc */
	struct mm_struct *mm;		/* bound address space (mmgrab) */
	struct mmu_interval_notifier notifier;
	struct io_pgtable_ops *pgt;
	struct dvm_avc avc;
	unsigned long *fault_pfns;	/* DVM_MIRROR_CHUNK; job_lock */
	u64 revoked;			/* removals from @pgt so far; lock */
};

/* identity runs a job validated before it may preload from */
#define DVM_ENG_RUNS		8

/* [start, end): pages validated readable at PA == VA */
struct dvm_run {
	u64 start, end;
};

/* A running job: its context and its counters. */
struct dvm_eng {
	struct dvm_accel_ctx *ctx;
	struct dvm_accel_stats *st;
	struct dvm_tlb *tlb4k;		/* DVM_ACCEL_F_TLB */
	struct dvm_tlb *tlb2m;
	u32 batch;
	u32 nruns;
	u64 runs_revoked;		/* ctx->revoked when @runs were made */
	struct dvm_run runs[DVM_ENG_RUNS];
	u8 line[64];			/* a load's preloaded data */
};

/* mirror.c */
extern const struct mmu_interval_notifier_ops dvm_mirror_ops;
int dvm_mirror_bind(struct dvm_accel_ctx *ctx);
int dvm_mirror_fault(struct dvm_accel_ctx *ctx, u64 va, enum dvm_access a);

/* dav.c: called with ctx->lock held; may drop and retake it */
int dvm_eng_read(struct dvm_eng *e, u64 va, void *buf, u32 len);
int dvm_eng_write(struct dvm_eng *e, u64 va, const void *buf, u32 len);
int dvm_eng_fetch(struct dvm_eng *e, u64 va, void *buf, u32 len);
int dvm_eng_check(struct dvm_eng *e, u64 va, u64 len, enum dvm_access a);
void dvm_eng_wipe(struct dvm_eng *e);

/* jobs.c: called with ctx->lock held */
int dvm_job_run(struct dvm_eng *e, struct dvm_accel_job *job);

#endif /* _DVM_ACCEL_H */
