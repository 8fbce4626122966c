// SPDX-License-Identifier: GPL-2.0
/*
 * DVM software accelerator: /dev/dvm_accel.
 *
 * A process opens the device, binds its address space and submits jobs
 * that run in kernel context, in the submitting thread, with every access
 * to process memory validated through the device's DVM page table (see
 * dav.c).  One job runs at a time per open file.  Only the process that
 * bound a file can run jobs on it.
 */
#define pr_fmt(fmt)	"dvm_accel: " fmt

#include <linux/fs.h>
#include <linux/io-pgtable.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "dvm_accel.h"

/*
 * The AVC is the device's walk cache: the table flushes it before it
 * frees tables it took out, so that no cached entry points into a freed
 * page.  Called with ctx->lock held (every table change is).
 */
static void dvm_accel_flush_all(void *cookie)
{
	struct dvm_accel_ctx *ctx = cookie;

	dvm_avc_flush(&ctx->avc);
}

static void dvm_accel_flush_walk(unsigned long iova, size_t size,
				 size_t granule, void *cookie)
{
	dvm_accel_flush_all(cookie);
}

/*
 * The AVC's capacity: the paper's 1 KiB (16 blocks of 64 bytes, 4-way) by
 * default; a power of two from 256 to DVM_AVC_MAX_BYTES.  It may be
 * changed at run time (/sys/module/dvm_accel/parameters/avc_bytes) and is
 * read at every open, so each context keeps the size it was opened with.
 */
static unsigned int avc_bytes = DVM_AVC_DEFAULT_BYTES;

static int dvm_avc_bytes_set(const char *val, const struct kernel_param *kp)
{
	unsigned int bytes;
	int ret;

	ret = kstrtouint(val, 0, &bytes);
	if (ret)
		return ret;
	if (bytes < DVM_AVC_WAYS * DVM_AVC_BLOCK_BYTES ||
	    bytes > DVM_AVC_MAX_BYTES || !is_power_of_2(bytes))
		return -EINVAL;
	WRITE_ONCE(avc_bytes, bytes);
	return 0;
}

static const struct kernel_param_ops dvm_avc_bytes_ops = {
	.set = dvm_avc_bytes_set,
	.get = param_get_uint,
};

module_param_cb(avc_bytes, &dvm_avc_bytes_ops, &avc_bytes, 0644);
MODULE_PARM_DESC(avc_bytes, "AVC capacity in bytes (power of two, 256-8192; default 1024)");

static const struct iommu_flush_ops dvm_accel_flush_ops = {
	.tlb_flush_all = dvm_accel_flush_all,
	.tlb_flush_walk = dvm_accel_flush_walk,
};

static int dvm_accel_open(struct inode *inode, struct file *file)
{
	struct io_pgtable_cfg cfg = {
		.ias = DVM_VA_BITS,
		.oas = DVM_VA_BITS,
		.tlb = &dvm_accel_flush_ops,
	};
	struct dvm_accel_ctx *ctx;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	mutex_init(&ctx->job_lock);
	mutex_init(&ctx->lock);
	/* checked when set: cannot fail */
	if (WARN_ON(dvm_avc_init(&ctx->avc, READ_ONCE(avc_bytes)))) {
		kfree(ctx);
		return -EINVAL;
	}
	ctx->fault_pfns = kvmalloc_array(DVM_MIRROR_CHUNK,
					 sizeof(*ctx->fault_pfns), GFP_KERNEL);
	ctx->pgt = alloc_io_pgtable_ops(DVM_IDENTITY, &cfg, ctx);
	if (!ctx->pgt || !ctx->fault_pfns) {
		free_io_pgtable_ops(ctx->pgt);
		kvfree(ctx->fault_pfns);
		kfree(ctx);
		return -ENOMEM;
	}
	file->private_data = ctx;
	return 0;
}

static int dvm_accel_release(struct inode *inode, struct file *file)
{
	struct dvm_accel_ctx *ctx = file->private_data;

	if (ctx->mm) {
		mmu_interval_notifier_remove(&ctx->notifier);
		mmdrop(ctx->mm);
	}
	free_io_pgtable_ops(ctx->pgt);
	kvfree(ctx->fault_pfns);
	kfree(ctx);
	return 0;
}

static long dvm_accel_bind(struct dvm_accel_ctx *ctx)
{
	long ret;

	if (mutex_lock_killable(&ctx->job_lock))
		return -EINTR;
	ret = ctx->mm ? -EBUSY : dvm_mirror_bind(ctx);
	mutex_unlock(&ctx->job_lock);
	return ret;
}

static void dvm_accel_table_bytes(struct dvm_accel_ctx *ctx,
				  struct dvm_accel_stats *st)
{
	mutex_lock(&ctx->lock);
	dvm_io_pgtable_bytes(ctx->pgt, &st->pt_bytes, &st->pt_bytes_4k);
	mutex_unlock(&ctx->lock);
}

static long dvm_accel_table(struct dvm_accel_ctx *ctx, void __user *arg)
{
	struct dvm_accel_stats st = { 0 };

	dvm_accel_table_bytes(ctx, &st);
	return copy_to_user(arg, &st, sizeof(st)) ? -EFAULT : 0;
}

static int dvm_accel_tlbs(struct dvm_eng *e)
{
	e->tlb4k = kmalloc(sizeof(*e->tlb4k), GFP_KERNEL);
	e->tlb2m = kmalloc(sizeof(*e->tlb2m), GFP_KERNEL);
	if (!e->tlb4k || !e->tlb2m)
		return -ENOMEM;
	dvm_tlb_init(e->tlb4k, 128, PAGE_SHIFT);
	dvm_tlb_init(e->tlb2m, 128, PMD_SHIFT);
	return 0;
}

static long dvm_accel_run(struct dvm_accel_ctx *ctx, void __user *arg)
{
	struct dvm_accel_job job;
	struct dvm_eng e = { .ctx = ctx, .st = &job.stats };
	u64 hits, misses, t0;
	long ret;

	if (copy_from_user(&job, arg, sizeof(job)))
		return -EFAULT;
	if (job.flags & ~DVM_ACCEL_F_TLB)
		return -EINVAL;
	memset(&job.stats, 0, sizeof(job.stats));
	job.result = 0;
	job.result2 = 0;
	if (mutex_lock_killable(&ctx->job_lock))
		return -EINTR;
	if (!ctx->mm) {
		ret = -EINVAL;		/* not bound */
		goto unlock;
	}
	if (ctx->mm != current->mm) {
		ret = -EPERM;		/* bound by another process */
		goto unlock;
	}
	if (job.flags & DVM_ACCEL_F_TLB) {
		ret = dvm_accel_tlbs(&e);
		if (ret)
			goto unlock;
	}
	t0 = ktime_get_ns();
	mutex_lock(&ctx->lock);
	hits = ctx->avc.hits;
	misses = ctx->avc.misses;
	ret = dvm_job_run(&e, &job);
	dvm_eng_wipe(&e);
	job.stats.avc_hits = ctx->avc.hits - hits;
	job.stats.avc_misses = ctx->avc.misses - misses;
	mutex_unlock(&ctx->lock);
	job.stats.ns = ktime_get_ns() - t0;
	dvm_accel_table_bytes(ctx, &job.stats);
	if (e.tlb4k) {
		job.stats.tlb4k_misses = e.tlb4k->misses;
		job.stats.tlb2m_misses = e.tlb2m->misses;
	}
	if (copy_to_user(arg, &job, sizeof(job)))
		ret = -EFAULT;
unlock:
	mutex_unlock(&ctx->job_lock);
	kfree(e.tlb4k);
	kfree(e.tlb2m);
	return ret;
}

static long dvm_accel_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct dvm_accel_ctx *ctx = file->private_data;

	switch (cmd) {
	case DVM_ACCEL_BIND:
		return dvm_accel_bind(ctx);
	case DVM_ACCEL_RUN:
		return dvm_accel_run(ctx, (void __user *)arg);
	case DVM_ACCEL_TABLE:
		return dvm_accel_table(ctx, (void __user *)arg);
	}
	return -ENOTTY;
}

static const struct file_operations dvm_accel_fops = {
	.owner = THIS_MODULE,
	.open = dvm_accel_open,
	.release = dvm_accel_release,
	.unlocked_ioctl = dvm_accel_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice dvm_accel_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "dvm_accel",
	.fops = &dvm_accel_fops,
};

static int __init dvm_accel_init(void)
{
	pr_info("AVC of %u bytes (%u sets of %u 64-byte blocks)\n", avc_bytes,
		avc_bytes / (DVM_AVC_WAYS * DVM_AVC_BLOCK_BYTES), DVM_AVC_WAYS);
	return misc_register(&dvm_accel_dev);
}
module_init(dvm_accel_init);

static void __exit dvm_accel_exit(void)
{
	misc_deregister(&dvm_accel_dev);
}
module_exit(dvm_accel_exit);

MODULE_DESCRIPTION("DVM software accelerator");
MODULE_LICENSE("GPL");
