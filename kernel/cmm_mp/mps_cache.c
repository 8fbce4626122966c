// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: the page cache behind mmap of /dev/mps<N>.
 *
 * Each device caches the pages of its segment in the address_space of a
 * private inode, from a pseudo filesystem of our own that has a
 * writeback-capable bdi: a fault fetches the page and reads ahead around
 * it (->readahead, up to MPS_BATCH pages per transfer), a store marks it
 * dirty (->page_mkwrite), and dirty pages go back to the backing device on
 * msync/fsync, on munmap, on the last close, through the flusher threads
 * (->writepages, contiguous pages batched into one transfer) and on
 * reclaim (->writepage). Every transfer passes the folios themselves to
 * mp_remote_io(): no bounce buffer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/writeback.h>

#include "cmm_mp.h"
#include "remote.h"
#include "mps.h"

static struct vfsmount *mps_mnt;

/* ---- the page cache ---------------------------------------------------- */

static struct mp_remote *mps_r(struct address_space *mapping)
{
	struct mps_dev *m = mapping->host->i_private;

	return READ_ONCE(m->r);
}

/*
 * Fetch @nr folios that follow each other in the file with one transfer:
 * the transport keeps its window of frames full instead of paying a round
 * trip per page. They are locked; each is unlocked, uptodate on success.
 */
static int mps_fetch(struct address_space *mapping, struct folio **folios,
		     struct bio_vec *bv, unsigned int nr)
{
	struct mp_remote *r = mps_r(mapping);
	struct iov_iter it;
	size_t len = 0;
	unsigned int i;
	int ret;

	for (i = 0; i < nr; i++) {
		bv[i].bv_page = &folios[i]->page;
		bv[i].bv_offset = 0;
		bv[i].bv_len = folio_size(folios[i]);
		len += bv[i].bv_len;
	}
	iov_iter_bvec(&it, ITER_DEST, bv, nr, len);
	ret = r ? mp_remote_io(r, folio_pos(folios[0]), &it, false) : -EIO;
	for (i = 0; i < nr; i++) {
		if (!ret)
			folio_mark_uptodate(folios[i]);
		folio_unlock(folios[i]);
	}
	return ret;
}

static int mps_read_folio(struct file *file, struct folio *folio)
{
	struct bio_vec bv;

	return mps_fetch(folio->mapping, &folio, &bv, 1);
}

/*
 * Readahead, and so fault-around for mappings (filemap_fault() reads
 * ahead around a miss): the pages of a window in batches of MPS_BATCH.
 */
static void mps_readahead(struct readahead_control *rac)
{
	struct folio *folios[MPS_BATCH];
	struct bio_vec bv[MPS_BATCH];
	struct folio *folio;
	unsigned int nr = 0;

	while ((folio = readahead_folio(rac))) {
		folios[nr++] = folio;
		if (nr == MPS_BATCH) {
			mps_fetch(rac->mapping, folios, bv, nr);
			nr = 0;
		}
	}
	if (nr)
		mps_fetch(rac->mapping, folios, bv, nr);
}

/*
 * A batch of folios under writeback that follow each other in the file,
 * written with one transfer (mps_writepages()).
 */
struct mps_wb {
	struct folio *folios[MPS_BATCH];
	struct bio_vec bv[MPS_BATCH];
	unsigned int nr;
	size_t len;
};

/*
 * Write @nr folios under writeback that follow each other in the file with
 * one transfer, then end their writeback. A failure loses their data:
 * say so at the next msync/fsync/close.
 */
static void mps_store(struct address_space *mapping, struct folio **folios,
		      struct bio_vec *bv, unsigned int nr, size_t len)
{
	struct mp_remote *r = mps_r(mapping);
	struct iov_iter it;
	unsigned int i;
	int ret;

	iov_iter_bvec(&it, ITER_SOURCE, bv, nr, len);
	ret = r ? mp_remote_io(r, folio_pos(folios[0]), &it, true) : -EIO;
	if (ret)
		mapping_set_error(mapping, ret);
	for (i = 0; i < nr; i++)
		folio_end_writeback(folios[i]);
}

static void mps_wb_flush(struct address_space *mapping, struct mps_wb *wb)
{
	if (!wb->nr)
		return;
	mps_store(mapping, wb->folios, wb->bv, wb->nr, wb->len);
	wb->nr = 0;
	wb->len = 0;
}

static int mps_wb_add(struct page *page, struct writeback_control *wbc,
		      void *data)
{
	struct folio *folio = page_folio(page);
	struct mps_wb *wb = data;

	if (wb->nr && (wb->nr == MPS_BATCH ||
		       folio_pos(wb->folios[wb->nr - 1]) + wb->bv[wb->nr - 1].bv_len !=
		       folio_pos(folio)))
		mps_wb_flush(folio->mapping, wb);
	folio_start_writeback(folio);
	folio_unlock(folio);
	wb->folios[wb->nr] = folio;
	wb->bv[wb->nr].bv_page = &folio->page;
	wb->bv[wb->nr].bv_offset = 0;
	wb->bv[wb->nr].bv_len = folio_size(folio);
	wb->len += folio_size(folio);
	wb->nr++;
	return 0;
}

/* Writeback in batches of contiguous dirty pages, a transfer each. */
static int mps_writepages(struct address_space *mapping,
			  struct writeback_control *wbc)
{
	struct mps_wb *wb;
	int ret;

	wb = kmalloc(sizeof(*wb), GFP_NOFS);
	if (!wb)
		return generic_writepages(mapping, wbc);	/* page by page */
	wb->nr = 0;
	wb->len = 0;
	ret = write_cache_pages(mapping, wbc, mps_wb_add, wb);
	mps_wb_flush(mapping, wb);
	kfree(wb);
	return ret;
}

/* Reclaim writes one page: no batch, little stack. */
static int mps_writepage(struct page *page, struct writeback_control *wbc)
{
	struct folio *folio = page_folio(page);
	struct address_space *mapping = folio->mapping;
	struct bio_vec bv = {
		.bv_page = page, .bv_offset = 0, .bv_len = folio_size(folio),
	};

	folio_start_writeback(folio);
	folio_unlock(folio);
	mps_store(mapping, &folio, &bv, 1, bv.bv_len);
	return 0;
}

static const struct address_space_operations mps_aops = {
	.read_folio	= mps_read_folio,
	.readahead	= mps_readahead,
	.writepage	= mps_writepage,
	.writepages	= mps_writepages,
	.dirty_folio	= filemap_dirty_folio,
};

static vm_fault_t mps_page_mkwrite(struct vm_fault *vmf)
{
	struct address_space *mapping = vmf->vma->vm_file->f_mapping;
	struct folio *folio = page_folio(vmf->page);

	folio_lock(folio);
	if (folio->mapping != mapping) {
		folio_unlock(folio);
		return VM_FAULT_NOPAGE;	/* truncated meanwhile: refault */
	}
	folio_mark_dirty(folio);
	folio_wait_stable(folio);
	return VM_FAULT_LOCKED;
}

/* munmap: start writing the range back (msync need not come first). */
static void mps_vm_close(struct vm_area_struct *vma)
{
	loff_t start = (loff_t)vma->vm_pgoff << PAGE_SHIFT;

	if (vma->vm_flags & VM_SHARED)
		filemap_fdatawrite_range(vma->vm_file->f_mapping, start,
					 start + vma->vm_end - vma->vm_start - 1);
}

const struct vm_operations_struct mps_vm_ops = {
	.fault		= filemap_fault,
	.map_pages	= filemap_map_pages,
	.page_mkwrite	= mps_page_mkwrite,
	.close		= mps_vm_close,
};

/* A page cache of @size bytes that only we can reach. */
struct inode *mps_inode(struct mps_dev *m, u64 size)
{
	struct inode *inode = alloc_anon_inode(mps_mnt->mnt_sb);

	if (IS_ERR(inode))
		return inode;
	inode->i_mapping->a_ops = &mps_aops;
	inode->i_private = m;
	i_size_write(inode, size);
	/*
	 * alloc_anon_inode() keeps inodes off the writeback lists; ours
	 * must be on them so that the flusher writes dirty pages back.
	 */
	spin_lock(&inode->i_lock);
	inode->i_state &= ~I_DIRTY;
	spin_unlock(&inode->i_lock);
	inode_fake_hash(inode);
	return inode;
}

/* ---- the pseudo filesystem of the page caches -------------------------- */

/*
 * mps_inode() gives each page cache a fake hash so that the flusher may
 * see it dirty, and evict() leaves a fake hash in place. Our inodes come
 * from the kernel's shared inode cache, whose objects keep i_hash from
 * one life to the next: the next inode made from this memory (a pipe's,
 * say) would look hashed, so its last iput() would keep it instead of
 * freeing it, for good. Unhash it before it goes back.
 */
static void mps_evict_inode(struct inode *inode)
{
	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	__remove_inode_hash(inode);
}

static const struct super_operations mps_sops = {
	.statfs		= simple_statfs,
	.drop_inode	= generic_delete_inode,
	.evict_inode	= mps_evict_inode,
};

static int mps_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct inode *root;

	sb->s_maxbytes = MAX_LFS_FILESIZE;
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_magic = MPS_MAGIC;
	sb->s_op = &mps_sops;
	sb->s_time_gran = 1;
	root = new_inode(sb);
	if (!root)
		return -ENOMEM;
	root->i_ino = 1;
	root->i_mode = S_IFDIR | 0500;
	root->i_op = &simple_dir_inode_operations;
	root->i_fop = &simple_dir_operations;
	set_nlink(root, 2);
	sb->s_root = d_make_root(root);
	if (!sb->s_root)
		return -ENOMEM;
	/* a bdi that can write back: the default one of pseudo fs cannot */
	return super_setup_bdi(sb);
}

static int mps_get_tree(struct fs_context *fc)
{
	return get_tree_nodev(fc, mps_fill_super);
}

static const struct fs_context_operations mps_fs_context_ops = {
	.get_tree	= mps_get_tree,
};

static int mps_init_fs_context(struct fs_context *fc)
{
	fc->ops = &mps_fs_context_ops;
	return 0;
}

/* Never registered, only kern_mount()ed: no owner, or it pins the module. */
static struct file_system_type mps_fs_type = {
	.name		= "cmm_mp_mps",
	.init_fs_context = mps_init_fs_context,
	.kill_sb	= kill_anon_super,
};

int mps_cache_init(void)
{
	mps_mnt = kern_mount(&mps_fs_type);
	return PTR_ERR_OR_ZERO(mps_mnt);
}

void mps_cache_exit(void)
{
	kern_unmount(mps_mnt);
}
