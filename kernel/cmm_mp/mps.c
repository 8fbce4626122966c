// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: /dev/mps<N>, a character device over a segment mapped on this
 * host (CMM_MP_SEG_MODE_DAX), usually one of another device of the pool.
 *
 * read/write/pread/pwrite go straight to the backing device from the
 * caller's pinned pages (mp_pin_user(), mp_remote_io(): each byte copied
 * once, between the frame and the page); they neither see nor update pages
 * cached by mmap. mmap (MAP_SHARED) caches pages in the address_space of a
 * private inode (one per device, from a pseudo filesystem of our own that
 * has a writeback-capable bdi): a fault fetches the page and reads ahead
 * around it (->readahead, up to MPS_BATCH pages per transfer), a
 * store marks it dirty (->page_mkwrite), and dirty pages go back to the
 * device on msync/fsync, on munmap, on the last close, through the
 * flusher threads (->writepages, contiguous pages batched into one
 * transfer) and on reclaim (->writepage); the last close of a file
 * also drops the clean pages nobody maps. MPS_IOC_INVALIDATE writes back
 * and drops the cached pages of a range, so the next access fetches them
 * again (include/uapi/linux/cmm_mp.h; the sharing contract in
 * Documentation/pool.rst).
 *
 * Lifetime: the struct mps_dev lives as long as its struct device, which
 * its cdev pins while a file is open. An open counts as a user of the
 * mapping (mp_remote_open()), so offline refuses while any file, and so
 * any mmap, is left; mps_del() then only has to stop new opens.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cdev.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/highmem.h>
#include <linux/idr.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/pagemap.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/writeback.h>
#include <linux/cmm_mp_pin.h>

#include "cmm_mp.h"
#include "remote.h"
#include "mps.h"

/* one /dev/mps per segment, of thousands per device: every minor */
#define MPS_MINORS	(MINORMASK + 1)
/* bytes of a read/write pinned at once */
#define MPS_CHUNK	SZ_1M

static DEFINE_MUTEX(mps_lock);	/* mps_dev.r against open() */
static DEFINE_IDA(mps_ida);
static dev_t mps_devt;
static struct class *mps_class;

/* ---- the file ---------------------------------------------------------- */

static int mps_open(struct inode *inode, struct file *file)
{
	struct mps_dev *m = container_of(inode->i_cdev, struct mps_dev, cdev);
	struct address_space *mapping = m->inode->i_mapping;
	int ret;

	mutex_lock(&mps_lock);
	ret = m->r ? mp_remote_open(m->r) : -ENXIO;
	mutex_unlock(&mps_lock);
	if (ret)
		return ret;
	file->private_data = m;
	file->f_mapping = mapping;
	file->f_wb_err = filemap_sample_wb_err(mapping);
	file_ra_state_init(&file->f_ra, mapping);
	return 0;
}

/*
 * The last close of this file: write back what its mappings dirtied, and
 * drop the cached pages no other mapping uses, so that the next open
 * fetches fresh data (another host, or pwrite, may have changed it).
 */
static int mps_release(struct inode *inode, struct file *file)
{
	struct mps_dev *m = file->private_data;

	filemap_write_and_wait(file->f_mapping);
	invalidate_mapping_pages(file->f_mapping, 0, -1);
	mp_remote_close(m->r);
	return 0;
}

static loff_t mps_llseek(struct file *file, loff_t offset, int whence)
{
	struct mps_dev *m = file->private_data;

	return fixed_size_llseek(file, offset, whence, m->r->size);
}

static ssize_t mps_rw(struct file *file, char __user *ubuf, size_t len,
		      loff_t *ppos, bool write)
{
	struct mps_dev *m = file->private_data;
	struct mp_remote *r = m->r;
	loff_t pos = *ppos;
	struct mp_pinned p;
	size_t done = 0, n;
	int ret = 0;

	if (pos < 0)
		return -EINVAL;
	if (pos >= r->size || !len)
		return write && len ? -ENOSPC : 0;
	len = min_t(u64, len, r->size - pos);
	while (done < len) {
		n = min_t(size_t, len - done, MPS_CHUNK);
		ret = mp_pin_user(&p, ubuf + done, n, !write);
		if (ret)
			break;
		ret = mp_remote_io(r, pos + done, &p.iter, write);
		mp_unpin(&p);
		if (ret)
			break;
		done += n;
		if (fatal_signal_pending(current))
			break;
	}
	*ppos = pos + done;
	return done ? done : ret;
}

static ssize_t mps_read(struct file *file, char __user *buf, size_t len,
			loff_t *ppos)
{
	return mps_rw(file, buf, len, ppos, false);
}

static ssize_t mps_write(struct file *file, const char __user *buf,
			 size_t len, loff_t *ppos)
{
	return mps_rw(file, (char __user *)buf, len, ppos, true);
}

static int mps_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct mps_dev *m = file->private_data;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u64 len = vma->vm_end - vma->vm_start;

	/*
	 * A private copy would be one nobody writes back: refused. MAYSHARE,
	 * as a read-only file's MAP_SHARED has no VM_SHARED
	 */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (off > m->r->size || len > m->r->size - off)
		return -EINVAL;
	vma->vm_ops = &mps_vm_ops;
	return 0;
}

static int mps_fsync(struct file *file, loff_t start, loff_t end,
		     int datasync)
{
	return file_write_and_wait_range(file, start, end);
}

/* MPS_IOC_INVALIDATE: write back, then drop, the cached pages of a range. */
static long mps_invalidate(struct file *file, void __user *arg)
{
	struct mps_dev *m = file->private_data;
	struct address_space *mapping = file->f_mapping;
	u64 size = m->r->size, start, end;
	struct mps_range rg;
	int ret, ret2;

	if (copy_from_user(&rg, arg, sizeof(rg)))
		return -EFAULT;
	if (rg.offset > size || rg.len > size - rg.offset)
		return -EINVAL;
	start = round_down(rg.offset, PAGE_SIZE);
	end = round_up(rg.len ? rg.offset + rg.len : size, PAGE_SIZE);
	if (end <= start)
		return 0;
	ret = filemap_write_and_wait_range(mapping, start, end - 1);
	ret2 = invalidate_inode_pages2_range(mapping, start >> PAGE_SHIFT,
					     (end >> PAGE_SHIFT) - 1);
	return ret ? ret : ret2;
}

static long mps_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case MPS_IOC_INVALIDATE:
		return mps_invalidate(file, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations mps_fops = {
	.owner		= THIS_MODULE,
	.open		= mps_open,
	.release	= mps_release,
	.llseek		= mps_llseek,
	.read		= mps_read,
	.write		= mps_write,
	.mmap		= mps_mmap,
	.fsync		= mps_fsync,
	.unlocked_ioctl	= mps_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

/* ---- sysfs: /sys/class/mps/mpsN/ --------------------------------------- */

static ssize_t size_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct mps_dev *m = container_of(dev, struct mps_dev, dev);

	return sysfs_emit(buf, "%llu\n", m->r->size);
}
static DEVICE_ATTR_RO(size);

static ssize_t segment_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct mps_dev *m = container_of(dev, struct mps_dev, dev);

	return sysfs_emit(buf, "%u\n", m->r->seg);
}
static DEVICE_ATTR_RO(segment);

static ssize_t backing_device_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct mps_dev *m = container_of(dev, struct mps_dev, dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(m->r->leg[0].devid));
}
static DEVICE_ATTR_RO(backing_device);

static ssize_t shared_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct mps_dev *m = container_of(dev, struct mps_dev, dev);

	return sysfs_emit(buf, "%u\n", m->r->shared);
}
static DEVICE_ATTR_RO(shared);

static ssize_t stale_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct mps_dev *m = container_of(dev, struct mps_dev, dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(m->r->stale));
}
static DEVICE_ATTR_RO(stale);

static struct attribute *mps_attrs[] = {
	&dev_attr_size.attr,
	&dev_attr_segment.attr,
	&dev_attr_backing_device.attr,
	&dev_attr_shared.attr,
	&dev_attr_stale.attr,
	NULL,
};
ATTRIBUTE_GROUPS(mps);

/* ---- devices ----------------------------------------------------------- */

static void mps_dev_release(struct device *dev)
{
	struct mps_dev *m = container_of(dev, struct mps_dev, dev);

	if (m->inode)
		iput(m->inode);
	if (m->minor >= 0)
		ida_free(&mps_ida, m->minor);
	kfree(m);
}

static int mps_add(struct mp_remote *r)
{
	struct mps_dev *m;
	int ret;

	if (r->mps)
		return -EEXIST;
	if (!r->size || !PAGE_ALIGNED(r->size))
		return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	device_initialize(&m->dev);
	m->dev.release = mps_dev_release;
	m->minor = ida_alloc_max(&mps_ida, MPS_MINORS - 1, GFP_KERNEL);
	if (m->minor < 0) {
		ret = m->minor;
		goto err_put;
	}
	m->inode = mps_inode(m, r->size);
	if (IS_ERR(m->inode)) {
		ret = PTR_ERR(m->inode);
		m->inode = NULL;
		goto err_put;
	}
	m->r = r;
	m->dev.class = mps_class;
	m->dev.devt = MKDEV(MAJOR(mps_devt), m->minor);
	m->dev.groups = mps_groups;
	ret = dev_set_name(&m->dev, "mps%u", r->seg);
	if (ret)
		goto err_put;
	cdev_init(&m->cdev, &mps_fops);
	m->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&m->cdev, &m->dev);
	if (ret)
		goto err_put;
	r->mps = m;
	dev_info(&m->dev, "segment %u: %llu MiB of device %u at offset %#llx%s\n",
		 r->seg, r->size >> 20, r->leg[0].devid, r->leg[0].dev_off,
		 r->shared ? ", shared" : "");
	return 0;

err_put:
	put_device(&m->dev);
	return ret;
}

static void mps_del(struct mp_remote *r)
{
	struct mps_dev *m = r->mps;

	if (!m)
		return;
	cdev_device_del(&m->cdev, &m->dev);
	mutex_lock(&mps_lock);
	m->r = NULL;
	mutex_unlock(&mps_lock);
	r->mps = NULL;
	put_device(&m->dev);
}

/* dax mode: a segment of any device as /dev/mps<N>, pooling or sharing */
const struct mp_seg_ops mp_seg_dax_ops = {
	.mode		= CMM_MP_SEG_MODE_DAX,
	.any_device	= true,
	.shareable	= true,
	.node		= "mps",
	.online		= mp_remote_map,
	.offline	= mp_remote_unmap,
	.add		= mps_add,
	.del		= mps_del,
};

int mp_mps_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&mps_devt, 0, MPS_MINORS, "mps");
	if (ret)
		return ret;
	mps_class = class_create(THIS_MODULE, "mps");
	if (IS_ERR(mps_class)) {
		ret = PTR_ERR(mps_class);
		goto err_region;
	}
	ret = mps_cache_init();
	if (ret)
		goto err_class;
	return 0;

err_class:
	class_destroy(mps_class);
err_region:
	unregister_chrdev_region(mps_devt, MPS_MINORS);
	return ret;
}

void mp_mps_exit(void)
{
	mps_cache_exit();
	class_destroy(mps_class);
	unregister_chrdev_region(mps_devt, MPS_MINORS);
}
