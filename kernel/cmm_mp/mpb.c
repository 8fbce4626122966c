// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: /dev/mpb<N>, a block device over a remote-backed segment.
 *
 * The CMM-MP paper's "memory as ramdisk": segment N of the pool, backed by
 * another host's DRAM, as a blk-mq disk fit for swap or a filesystem.
 *
 * Submitted requests. A request that is one piece (below), to a segment
 * with one copy on another device,
 * is started from ->queue_rq() itself (mp_remote_submit(), which does not
 * sleep) and ended from the transport's receive path (mpb_io_done()): no
 * worker, no context switch and no wake-up on its way, and as many in
 * flight as the transport's window holds. Such a request that fails, and
 * every other one (larger, mirrored, on our own device, when the
 * transport has no room), goes to the workers.
 *
 * Workers. mp_remote_io() sleeps; a worker moves the request's pages
 * piece by piece, straight between the pages and the frames, and ends the
 * request, BLK_STS_IOERR on any error, having waited for the pool to form
 * again where it re-formed. Requests of up to MPB_MAX_BYTES, MPB_WORKERS
 * served at once per disk.
 *
 * Pieces. A piece is one mp_remote_io() call: a large bio whole, or as
 * many small bios in a row as fit MPB_PIECE_VECS bio_vecs and
 * MPB_PIECE_BYTES, so that their frames go out together. The bios of a
 * piece are completed (blk_update_request()) as soon as it is done, not
 * when the whole request is: swap writes out single pages, merged into
 * requests of up to 128 of them, and reclaim only makes progress as their
 * writeback ends. Held until the request's last page was written, a whole
 * memory cgroup's worth of pages stayed under writeback long enough for
 * its reclaim to give up and call the OOM killer.
 *
 * Flushes. A write completes only once mp_remote_io() returned, that is
 * once the backing device acknowledged every frame of it, each applied to
 * its DRAM before it acknowledges it. No byte of a completed
 * write is held on this host, so the disk has no volatile write cache and
 * says so (blk_queue_write_cache(q, false, false)): the block layer then
 * completes an empty REQ_PREFLUSH itself and strips PREFLUSH and FUA off
 * writes, which is correct because a flush only has to cover the writes
 * completed before it was issued, and those are already at the backing
 * device. A REQ_OP_FLUSH that still reaches us (passthrough) completes at
 * once for the same reason.
 *
 * Removal. Opens of the disk are counted in the segment
 * (mp_remote_open()), so offline is refused while it is mounted or swapped
 * on. mpb_del() calls del_gendisk() first: it writes back dirty pages,
 * makes new I/O fail and waits for the requests in flight, which the
 * workers always end (mp_remote_io() is bounded by the transport's
 * timeouts). Only then are the segment forgotten, the workers and the tag
 * set freed; struct mpb_dev goes with the disk's last reference
 * (->free_disk), so a disk still open by then (it should not be) stays a
 * dead disk whose close touches no freed memory.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/cmm_mp_backend.h>

#include "cmm_mp.h"
#include "remote.h"
#include "mpb.h"

#define MPB_HW_QUEUES		4
#define MPB_QUEUE_DEPTH		64
/* requests served at once per disk; more only wait for transport credit */
#define MPB_WORKERS		16
/* bytes per request */
#define MPB_MAX_BYTES		SZ_1M
/* zero pages per transfer of a WRITE_ZEROES */
#define MPB_ZERO_PAGES		16
#define MPB_MAX_SECTORS		(MPB_MAX_BYTES >> SECTOR_SHIFT)
/*
 * A piece of small bios: at most this many bio_vecs and bytes. Swap
 * reads in clusters of up to 8 pages (page-cluster 3) and writes out
 * runs of up to 128: 64 KiB takes a read cluster whole, submitted from
 * ->queue_rq() in one round trip, and a run in 8 pieces. 64 KiB is 45
 * frames at MTU 1500: the pieces of all MPB_WORKERS fill the transport's
 * window (64 frames per peer at least, 192 at MTU 1500 on virtio-net) a
 * few times over, so that a piece of a busy disk still ends within a few
 * round trips.
 */
#define MPB_PIECE_VECS		16
#define MPB_PIECE_BYTES		SZ_64K

/**
 * struct mpb_dev - /dev/mpb<N>
 * @r: the remote segment it stores its blocks in; NULL once removed
 *	(changed and read under the disk's open_mutex, or with requests
 *	in flight)
 * @tags: blk-mq tag set
 * @disk: the disk (its queue's queuedata is this)
 * @wq: the workers that serve requests (WQ_MEM_RECLAIM: swap)
 * @ra: read-ahead of sequential reads (mpb_ra.c); NULL in sharing mode
 */
struct mpb_dev {
	struct mp_remote *r;
	struct blk_mq_tag_set tags;
	struct gendisk *disk;
	struct workqueue_struct *wq;
	struct mpb_ra *ra;
};

/* blk-mq driver data of each request */
struct mpb_cmd {
	struct work_struct work;
	/* a submitted request (top comment) and its bytes */
	struct mp_backend_io io;
	struct iov_iter it;
	/* the bio_vecs of a piece of small bios */
	struct bio_vec bv[MPB_PIECE_VECS];
	/* a read the read-ahead serves */
	struct mpb_ra_wait ra;
};

/* bio_vecs of @bio from its position (a clone's bi_vcnt says nothing) */
static unsigned int mpb_bio_vecs(struct bio *bio)
{
	struct bvec_iter bi;
	struct bio_vec bv;
	unsigned int nr = 0;

	bio_for_each_bvec(bv, bio, bi)
		nr++;
	return nr;
}

/*
 * Set @it to the next piece of @rq, from its first bio not completed yet:
 * that bio alone over its own bio_vecs when it is large, else it and the
 * small bios after it, their bio_vecs copied into @cmd (no allocation).
 * Return: the bytes of the piece, whole bios.
 */
static unsigned int mpb_piece(struct mpb_cmd *cmd, struct request *rq,
			      struct iov_iter *it, bool write)
{
	unsigned int dir = write ? ITER_SOURCE : ITER_DEST;
	unsigned int nr = mpb_bio_vecs(rq->bio), len = 0;
	struct bio *bio = rq->bio;
	struct bvec_iter bi;
	struct bio_vec bv;

	if (nr > MPB_PIECE_VECS || bio->bi_iter.bi_size >= MPB_PIECE_BYTES) {
		len = bio->bi_iter.bi_size;
		iov_iter_bvec(it, dir,
			      __bvec_iter_bvec(bio->bi_io_vec, bio->bi_iter),
			      nr, len);
		it->iov_offset = bio->bi_iter.bi_bvec_done;
		return len;
	}
	for (nr = 0; bio; bio = bio->bi_next) {
		if (nr + mpb_bio_vecs(bio) > MPB_PIECE_VECS ||
		    len + bio->bi_iter.bi_size > MPB_PIECE_BYTES)
			break;
		bio_for_each_bvec(bv, bio, bi)
			cmd->bv[nr++] = bv;
		len += bio->bi_iter.bi_size;
	}
	iov_iter_bvec(it, dir, cmd->bv, nr, len);
	return len;
}

/*
 * Move one request's data straight between its pages and the frames, a
 * piece at a time (top comment), no bounce buffer; each piece's bios are
 * completed once it is done. Return: 0 with the request's bios all
 * completed, or the error of the piece that failed, its bios and those
 * after it left to the caller.
 */
static int mpb_rw(struct mpb_dev *b, struct mpb_cmd *cmd, struct request *rq,
		  bool write)
{
	unsigned int len;
	struct iov_iter it;
	int ret;

	do {
		len = mpb_piece(cmd, rq, &it, write);
		/* blk_update_request() moved the position past what is done */
		ret = mp_remote_io(b->r, (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
				   &it, write);
		if (ret)
			return ret;
		if (write)
			mpb_ra_written(b->ra, (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
				       len);
	} while (blk_update_request(rq, BLK_STS_OK, len));
	return 0;
}

/* REQ_OP_WRITE_ZEROES: from the zero page, MPB_ZERO_PAGES at a time */
static int mpb_zero(struct mpb_dev *b, struct request *rq)
{
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	u64 end = pos + blk_rq_bytes(rq);
	struct bio_vec bv[MPB_ZERO_PAGES];
	struct iov_iter it;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < MPB_ZERO_PAGES; i++) {
		bv[i].bv_page = ZERO_PAGE(0);
		bv[i].bv_offset = 0;
		bv[i].bv_len = PAGE_SIZE;
	}
	while (pos < end && !ret) {
		size_t len = min_t(u64, end - pos, MPB_ZERO_PAGES * PAGE_SIZE);

		iov_iter_bvec(&it, ITER_SOURCE, bv, MPB_ZERO_PAGES, len);
		ret = mp_remote_io(b->r, pos, &it, true);
		pos += len;
	}
	return ret;
}

static void mpb_work(struct work_struct *work)
{
	struct mpb_cmd *cmd = container_of(work, struct mpb_cmd, work);
	struct request *rq = blk_mq_rq_from_pdu(cmd);
	struct mpb_dev *b = rq->q->queuedata;
	unsigned int noio;
	int ret;

	/*
	 * Swap-out waits for these requests: the transport's allocations
	 * must not wait for I/O in turn.
	 */
	noio = memalloc_noio_save();
	switch (req_op(rq)) {
	case REQ_OP_READ:
		ret = mpb_rw(b, cmd, rq, false);
		break;
	case REQ_OP_WRITE:
		ret = mpb_rw(b, cmd, rq, true);
		break;
	case REQ_OP_WRITE_ZEROES:
		ret = mpb_zero(b, rq);
		break;
	default:
		ret = -EOPNOTSUPP;
		break;
	}
	memalloc_noio_restore(noio);
	/* what is left of a write, failed or not, may have changed */
	if (op_is_write(req_op(rq)))
		mpb_ra_written(b->ra, (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
			       blk_rq_bytes(rq));
	if (ret)
		pr_err_ratelimited("%s: %s of %u bytes at sector %llu failed: %d\n",
				   b->disk->disk_name, blk_op_str(req_op(rq)),
				   blk_rq_bytes(rq),
				   (unsigned long long)blk_rq_pos(rq), ret);
	/* what mpb_rw() completed is gone from the request: the rest ends */
	blk_mq_end_request(rq, ret ? BLK_STS_IOERR : BLK_STS_OK);
}

/*
 * The end of a submitted request, in the transport's receive path (it
 * must not sleep). A failure goes to a worker, which does it again the
 * way that can wait for the pool and reports what is left: nothing of the
 * request was completed yet.
 */
static void mpb_io_done(struct mp_backend_io *io, int err)
{
	struct mpb_cmd *cmd = container_of(io, struct mpb_cmd, io);
	struct request *rq = blk_mq_rq_from_pdu(cmd);
	struct mpb_dev *b = rq->q->queuedata;

	if (io->write)
		mpb_ra_written(b->ra, (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
			       blk_rq_bytes(rq));
	if (err)
		queue_work(b->wq, &cmd->work);
	else
		blk_mq_end_request(rq, BLK_STS_OK);
}

/* The end of a read that waited for the read-ahead (mpb_ra_read()). */
static void mpb_ra_done(struct mpb_ra_wait *w, int err)
{
	struct mpb_cmd *cmd = container_of(w, struct mpb_cmd, ra);
	struct request *rq = blk_mq_rq_from_pdu(cmd);
	struct mpb_dev *b = rq->q->queuedata;

	if (err)
		queue_work(b->wq, &cmd->work);
	else
		blk_mq_end_request(rq, BLK_STS_OK);
}

/*
 * Serve a read of one piece from the read-ahead, or fetch what follows it.
 * Return: whether the read was taken (ended, or ended by mpb_ra_done()).
 */
static bool mpb_read_ahead(struct mpb_dev *b, struct mpb_cmd *cmd,
			   struct request *rq)
{
	u32 len = blk_rq_bytes(rq);

	/*
	 * A mirrored segment, or one of ours, has nothing to fetch ahead; a
	 * stale or lost one must fail its reads, not serve them from buffers.
	 */
	if (!b->ra || READ_ONCE(b->r->nr_legs) != 1 || !b->r->leg[0].chip_id ||
	    READ_ONCE(b->r->stale) || READ_ONCE(b->r->leg[0].lost) ||
	    !mpb_ra_fits(len) || mpb_piece(cmd, rq, &cmd->it, false) != len)
		return false;
	cmd->ra.pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	cmd->ra.len = len;
	cmd->ra.to = &cmd->it;
	switch (mpb_ra_read(b->ra, b->r, &cmd->ra)) {
	case MPB_RA_COPIED:
		blk_mq_end_request(rq, BLK_STS_OK);
		return true;
	case MPB_RA_QUEUED:
		return true;
	default:
		return false;
	}
}

/*
 * Start @rq from ->queue_rq() (top comment) when it is one piece.
 * Return: 0, or -errno for a request the workers serve.
 */
static int mpb_submit(struct mpb_dev *b, struct mpb_cmd *cmd,
		      struct request *rq, bool write)
{
	if (mpb_piece(cmd, rq, &cmd->it, write) != blk_rq_bytes(rq))
		return -E2BIG;
	cmd->io.write = write;
	cmd->io.iter = &cmd->it;
	cmd->io.done = mpb_io_done;
	return mp_remote_submit(b->r, (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
				&cmd->io);
}

static blk_status_t mpb_queue_rq(struct blk_mq_hw_ctx *hctx,
				 const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct mpb_dev *b = hctx->queue->queuedata;
	struct mpb_cmd *cmd = blk_mq_rq_to_pdu(rq);

	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
		/* completed writes are at the backing device (top comment) */
		blk_mq_start_request(rq);
		blk_mq_end_request(rq, BLK_STS_OK);
		return BLK_STS_OK;
	case REQ_OP_READ:
	case REQ_OP_WRITE:
	case REQ_OP_WRITE_ZEROES:
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
	blk_mq_start_request(rq);
	if (op_is_write(req_op(rq)))
		mpb_ra_written(b->ra, (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
			       blk_rq_bytes(rq));
	else if (mpb_read_ahead(b, cmd, rq))
		return BLK_STS_OK;
	/* what cannot be submitted here is a worker's, which may sleep */
	if (req_op(rq) == REQ_OP_WRITE_ZEROES ||
	    mpb_submit(b, cmd, rq, req_op(rq) == REQ_OP_WRITE))
		queue_work(b->wq, &cmd->work);
	return BLK_STS_OK;
}

/*
 * A worker ends every request it was given, after the transport's own
 * timeouts at worst; there is nothing to abort here.
 */
static enum blk_eh_timer_return mpb_timeout(struct request *rq)
{
	return BLK_EH_RESET_TIMER;
}

static int mpb_init_request(struct blk_mq_tag_set *set, struct request *rq,
			    unsigned int hctx_idx, unsigned int numa_node)
{
	struct mpb_cmd *cmd = blk_mq_rq_to_pdu(rq);

	INIT_WORK(&cmd->work, mpb_work);
	return 0;
}

static const struct blk_mq_ops mpb_mq_ops = {
	.queue_rq = mpb_queue_rq,
	.timeout = mpb_timeout,
	.init_request = mpb_init_request,
};

/* ->open and ->release run under the disk's open_mutex */
static int mpb_open(struct block_device *bdev, fmode_t mode)
{
	struct mpb_dev *b = bdev->bd_disk->private_data;

	return b->r ? mp_remote_open(b->r) : -ENXIO;
}

static void mpb_release(struct gendisk *disk, fmode_t mode)
{
	struct mpb_dev *b = disk->private_data;

	if (b->r)
		mp_remote_close(b->r);
}

static const struct attribute_group *mpb_groups[] = {
	&mpb_ra_group,
	NULL
};

static void mpb_free_disk(struct gendisk *disk)
{
	kfree(disk->private_data);
}

static const struct block_device_operations mpb_fops = {
	.owner = THIS_MODULE,
	.open = mpb_open,
	.release = mpb_release,
	.free_disk = mpb_free_disk,
};

static void mpb_limits(struct request_queue *q)
{
	blk_queue_logical_block_size(q, SECTOR_SIZE);
	blk_queue_physical_block_size(q, SZ_4K);
	blk_queue_io_min(q, SZ_4K);
	blk_queue_max_hw_sectors(q, MPB_MAX_SECTORS);
	blk_queue_max_write_zeroes_sectors(q, MPB_MAX_SECTORS);
	blk_queue_write_cache(q, false, false);
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	blk_queue_flag_clear(QUEUE_FLAG_ADD_RANDOM, q);
}

/**
 * mpb_add() - create /dev/mpb<N> over remote segment @r
 * @r: the segment, owned (or shared) by this host; outlives the disk
 *
 * Return: 0, -EEXIST when @r has a disk already, -EINVAL for a size that
 * is not a multiple of 4 KiB, -ENOMEM, or the block layer's error.
 */
static int mpb_add(struct mp_remote *r)
{
	struct gendisk *disk;
	struct mpb_dev *b;
	int ret;

	if (r->mpb)
		return -EEXIST;
	if (!r->size || !IS_ALIGNED(r->size, SZ_4K))
		return -EINVAL;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->r = r;
	b->wq = alloc_workqueue("mpb%u", WQ_MEM_RECLAIM | WQ_UNBOUND,
				MPB_WORKERS, r->seg);
	if (!b->wq) {
		ret = -ENOMEM;
		goto err_free;
	}
	if (!r->shared) {
		b->ra = mpb_ra_alloc(r->size, mpb_ra_done);
		if (IS_ERR(b->ra)) {
			ret = PTR_ERR(b->ra);
			goto err_wq;
		}
	}

	b->tags.ops = &mpb_mq_ops;
	b->tags.nr_hw_queues = min_t(unsigned int, num_online_cpus(),
				     MPB_HW_QUEUES);
	b->tags.queue_depth = MPB_QUEUE_DEPTH;
	b->tags.numa_node = NUMA_NO_NODE;
	b->tags.cmd_size = sizeof(struct mpb_cmd);
	b->tags.flags = BLK_MQ_F_SHOULD_MERGE;
	b->tags.driver_data = b;
	ret = blk_mq_alloc_tag_set(&b->tags);
	if (ret)
		goto err_ra;

	disk = blk_mq_alloc_disk(&b->tags, b);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto err_tags;
	}
	b->disk = disk;
	disk->fops = &mpb_fops;
	disk->private_data = b;
	disk->flags |= GENHD_FL_NO_PART;
	snprintf(disk->disk_name, DISK_NAME_LEN, "mpb%u", r->seg);
	set_capacity(disk, r->size >> SECTOR_SHIFT);
	mpb_limits(disk->queue);

	/* for its attributes (mpb_ra_group); the block layer uses none */
	dev_set_drvdata(disk_to_dev(disk), b->ra);
	ret = device_add_disk(NULL, disk, mpb_groups);
	if (ret)
		goto err_disk;
	r->mpb = b;
	dev_info(disk_to_dev(disk), "segment %u, %llu MiB at device %u offset %#llx\n",
		 r->seg, r->size >> 20, r->leg[0].devid, r->leg[0].dev_off);
	return 0;

err_disk:
	put_disk(disk);
err_tags:
	blk_mq_free_tag_set(&b->tags);
err_ra:
	mpb_ra_free(b->ra);
err_wq:
	destroy_workqueue(b->wq);
err_free:
	kfree(b);
	return ret;
}

/**
 * mpb_del() - remove /dev/mpb<N> of @r, if any
 * @r: the segment; still reachable, so that dirty pages can be written
 *
 * I/O in flight completes first; I/O after the removal fails with -EIO.
 * The caller refuses it while the disk is open (mp_remote_open()).
 */
static void mpb_del(struct mp_remote *r)
{
	struct mpb_dev *b = r->mpb;
	struct gendisk *disk;

	if (!b)
		return;
	disk = b->disk;
	dev_info(disk_to_dev(disk), "removed\n");
	/* writeback, fail new I/O, wait for the requests in flight */
	del_gendisk(disk);
	/* and for the read-ahead's fetches, which no request waits for */
	mpb_ra_free(b->ra);
	b->ra = NULL;
	mutex_lock(&disk->open_mutex);
	b->r = NULL;
	mutex_unlock(&disk->open_mutex);
	r->mpb = NULL;
	/* the workers that ended those requests have returned */
	destroy_workqueue(b->wq);
	blk_mq_free_tag_set(&b->tags);
	/* frees @b, now or at the last close (mpb_free_disk()) */
	put_disk(disk);
}

/* blk mode: a segment of any device as /dev/mpb<N>, pooling or sharing */
const struct mp_seg_ops mp_seg_blk_ops = {
	.mode		= CMM_MP_SEG_MODE_BLK,
	.any_device	= true,
	.shareable	= true,
	.node		= "mpb",
	.online		= mp_remote_map,
	.offline	= mp_remote_unmap,
	.add		= mpb_add,
	.del		= mpb_del,
};
