// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: read-ahead of /dev/mpb<N> for sequential reads.
 *
 * Swap reads a faulting thread's pages back in clusters of up to 8 pages
 * (page-cluster), one cluster per fault, and the thread waits for each:
 * over the network every cluster is a round trip, one after the other,
 * while the clusters follow each other on the disk (a program that swapped
 * out its memory in order reads it back in order). A disk would have them
 * in its own read buffer; this is that buffer. A read of at most one
 * chunk (MPB_RA_CHUNK) that begins where the last one ended fetches the
 * next chunks, up to ra_kb, into buffers of the disk's own (MP_RA_SLOTS
 * chunks, allocated with the disk), with the transport's submitted
 * transfers: they are in flight while the thread runs, and a later read
 * they hold is copied from them, at once or when its fetch ends, instead
 * of going out again. kernel/common/mp_ra.c decides what to fetch and what
 * a read is served from; here are the buffers, the lock and the bytes.
 *
 * A read served here costs one more copy (buffer to the request's pages)
 * and makes no round trip. Nothing is written here: writes go to the
 * device as before and make whatever they overlap stale (mp_ra.h), once
 * when they start and again before any of them completes, so a read that
 * starts after a write completed never sees the bytes from before it. A
 * disk on a segment in sharing mode has no read-ahead: another host's
 * writes would not make it stale.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/highmem.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait_bit.h>
#include <linux/cmm_mp_backend.h>

#include "cmm_mp.h"
#include "remote.h"
#include "mpb.h"

/* One fetch: a piece of mpb (64 KiB, 45 frames at MTU 1500). */
#define MPB_RA_CHUNK		SZ_64K
#define MPB_RA_PAGES		(MPB_RA_CHUNK / PAGE_SIZE)

static unsigned int ra_kb = 256;
module_param(ra_kb, uint, 0644);
MODULE_PARM_DESC(ra_kb, "read-ahead of /dev/mpb for sequential reads of up to 64 KiB, in KiB, rounded down to 64 KiB chunks, at most 256 (0: off; default 256)");

/* A buffer and its fetch. */
struct mpb_ra_buf {
	struct mp_backend_io io;
	struct iov_iter it;
	struct bio_vec bv[MPB_RA_PAGES];
	struct page *page[MPB_RA_PAGES];
	struct mpb_ra *ra;
	u32 idx;
};

/* Counters, under /sys/block/mpb<N>/ra/ */
enum mpb_ra_stat {
	MPB_RA_HITS,		/* reads copied at once */
	MPB_RA_WAITS,		/* reads copied once their fetch ended */
	MPB_RA_MISSES,		/* reads of a chunk or less it did not hold */
	MPB_RA_FETCHES,		/* fetches started */
	MPB_RA_FETCH_BYTES,
	MPB_RA_FETCH_REFUSED,	/* fetches the transport had no room for */
	MPB_RA_FETCH_ERRORS,	/* fetches that failed */
	MPB_RA_INVALIDATED,	/* buffers a write made stale */
	MPB_RA_NR_STATS
};

/**
 * struct mpb_ra - the read-ahead of one disk
 * @lock: protects @ra, @waiting and @stats
 * @ra: what each buffer holds (mp_ra.h)
 * @waiting: reads queued for fetches in flight (struct mpb_ra_wait)
 * @stats: counters, shown under /sys/block/mpb<N>/ra/
 * @fetches: fetches in flight; mpb_ra_free() waits for none
 * @done: ends a queued read (mpb.c)
 * @buf: the buffers
 */
struct mpb_ra {
	spinlock_t lock;	/* @ra, @waiting, @stats */
	struct mp_ra ra;
	struct list_head waiting;
	u64 stats[MPB_RA_NR_STATS];
	atomic_t fetches;
	mpb_ra_done_t done;
	struct mpb_ra_buf buf[MP_RA_SLOTS];
};

/* Whether a read of @len bytes may be served: one piece of a chunk. */
bool mpb_ra_fits(u32 len)
{
	return len && len <= MPB_RA_CHUNK;
}

static void mpb_ra_free_pages(struct mpb_ra *ra)
{
	unsigned int i, j;

	for (i = 0; i < MP_RA_SLOTS; i++)
		for (j = 0; j < MPB_RA_PAGES; j++)
			if (ra->buf[i].page[j])
				__free_page(ra->buf[i].page[j]);
}

/**
 * mpb_ra_alloc() - the read-ahead of a disk of @size bytes
 * @size: bytes of the disk
 * @done: ends a queued read
 *
 * Return: the read-ahead, or ERR_PTR(-ENOMEM or -EINVAL).
 */
struct mpb_ra *mpb_ra_alloc(u64 size, mpb_ra_done_t done)
{
	struct mpb_ra *ra;
	unsigned int i, j;
	int ret;

	ra = kzalloc(sizeof(*ra), GFP_KERNEL);
	if (!ra)
		return ERR_PTR(-ENOMEM);
	ret = mp_ra_init(&ra->ra, size, MPB_RA_CHUNK);
	if (ret)
		goto err;
	spin_lock_init(&ra->lock);
	INIT_LIST_HEAD(&ra->waiting);
	atomic_set(&ra->fetches, 0);
	ra->done = done;
	for (i = 0; i < MP_RA_SLOTS; i++) {
		ra->buf[i].ra = ra;
		ra->buf[i].idx = i;
		for (j = 0; j < MPB_RA_PAGES; j++) {
			ra->buf[i].page[j] = alloc_page(GFP_KERNEL);
			if (!ra->buf[i].page[j]) {
				ret = -ENOMEM;
				goto err;
			}
		}
	}
	return ra;
err:
	mpb_ra_free_pages(ra);
	kfree(ra);
	return ERR_PTR(ret);
}

/**
 * mpb_ra_free() - free @ra once no fetch of it is in flight
 * @ra: the read-ahead, or NULL; no read of its disk is in flight any more
 *
 * Fetches end within the transport's timeouts.
 */
void mpb_ra_free(struct mpb_ra *ra)
{
	if (!ra)
		return;
	wait_var_event(&ra->fetches, !atomic_read(&ra->fetches));
	WARN_ON(!list_empty(&ra->waiting));
	mpb_ra_free_pages(ra);
	kfree(ra);
}

/* Copy @w's parts from its buffers (pinned: nothing refills them). */
static int mpb_ra_copy(struct mpb_ra *ra, struct mpb_ra_wait *w)
{
	u32 i, off, left, n;

	for (i = 0; i < w->nr; i++) {
		struct mpb_ra_buf *buf = &ra->buf[w->idx[i]];

		off = w->off[i];
		for (left = w->part[i]; left; left -= n, off += n) {
			n = min_t(u32, left, PAGE_SIZE - off % PAGE_SIZE);
			if (copy_page_to_iter(buf->page[off / PAGE_SIZE],
					      off % PAGE_SIZE, n, w->to) != n)
				return -EFAULT;
		}
	}
	return 0;
}

/* Note where in its buffers @w's bytes are. ra->lock held. */
static void mpb_ra_parts(struct mpb_ra *ra, struct mpb_ra_wait *w)
{
	u32 i;

	for (i = 0; i < w->nr; i++)
		w->part[i] = mp_ra_copy_range(&ra->ra, w->idx[i], w->pos,
					      w->len, &w->off[i]);
}

static void mpb_ra_unpin(struct mpb_ra *ra, struct mpb_ra_wait *w)
{
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&ra->lock, flags);
	for (i = 0; i < w->nr; i++)
		mp_ra_unpin(&ra->ra, w->idx[i]);
	spin_unlock_irqrestore(&ra->lock, flags);
}

/*
 * Slot @idx's fetch ended with @err: move the reads it settles to
 * @settled. ra->lock held.
 */
static void mpb_ra_settle(struct mpb_ra *ra, u32 idx, int err,
			  struct list_head *settled)
{
	struct mpb_ra_wait *w, *tmp;

	if (!mp_ra_filled(&ra->ra, idx, !err))
		return;
	list_for_each_entry_safe(w, tmp, &ra->waiting, node) {
		if (!mp_ra_settled(&ra->ra, w->idx, w->nr, &w->failed))
			continue;
		if (!w->failed)
			mpb_ra_parts(ra, w);
		list_move_tail(&w->node, settled);
	}
}

/* Copy and end the reads in @settled (ra->lock not held). */
static void mpb_ra_end(struct mpb_ra *ra, struct list_head *settled)
{
	struct mpb_ra_wait *w, *tmp;
	int ret;

	list_for_each_entry_safe(w, tmp, settled, node) {
		list_del_init(&w->node);
		/* a failed one is read from the device instead */
		ret = w->failed ? -EIO : mpb_ra_copy(ra, w);
		mpb_ra_unpin(ra, w);
		ra->done(w, ret);
	}
}

/* A fetch is over: the last thing done with @ra for it. */
static void mpb_ra_put(struct mpb_ra *ra)
{
	if (atomic_dec_and_test(&ra->fetches))
		wake_up_var(&ra->fetches);
}

/* The transport's end of the fetch into @buf. */
static void mpb_ra_fetched(struct mp_backend_io *io, int err)
{
	struct mpb_ra_buf *buf = container_of(io, struct mpb_ra_buf, io);
	struct mpb_ra *ra = buf->ra;
	unsigned long flags;
	LIST_HEAD(settled);

	spin_lock_irqsave(&ra->lock, flags);
	if (err)
		ra->stats[MPB_RA_FETCH_ERRORS]++;
	/* cut short for want of room (cmm_mp_backend.h) */
	if (err == -EAGAIN)
		mp_ra_busy(&ra->ra);
	mpb_ra_settle(ra, buf->idx, err, &settled);
	spin_unlock_irqrestore(&ra->lock, flags);
	mpb_ra_end(ra, &settled);
	mpb_ra_put(ra);
}

/*
 * Start the fetches mp_ra_plan() asked for (ra->lock not held). Once the
 * transport has no room for one, it has none for those after it either:
 * they are given up (their chunks free again, a later read asks again),
 * and the depth in use halves once.
 */
static void mpb_ra_start(struct mpb_ra *ra, struct mp_remote *r,
			 const struct mp_ra_fill *fill, u32 n)
{
	unsigned long flags;
	LIST_HEAD(settled);
	int ret = 0;
	u32 i, j;

	for (i = 0; i < n; i++) {
		struct mpb_ra_buf *buf = &ra->buf[fill[i].idx];
		bool tried = !ret;

		if (tried) {
			for (j = 0; j < MPB_RA_PAGES; j++) {
				buf->bv[j].bv_page = buf->page[j];
				buf->bv[j].bv_len = PAGE_SIZE;
				buf->bv[j].bv_offset = 0;
			}
			iov_iter_bvec(&buf->it, ITER_DEST, buf->bv,
				      MPB_RA_PAGES, fill[i].len);
			buf->io.write = false;
			buf->io.iter = &buf->it;
			buf->io.done = mpb_ra_fetched;
			atomic_inc(&ra->fetches);
			ret = mp_remote_submit(r, fill[i].pos, &buf->io);
		}
		spin_lock_irqsave(&ra->lock, flags);
		if (ret) {
			ra->stats[MPB_RA_FETCH_REFUSED]++;
			if (tried && ret == -EAGAIN)
				mp_ra_busy(&ra->ra);
			mpb_ra_settle(ra, buf->idx, ret, &settled);
		} else {
			ra->stats[MPB_RA_FETCHES]++;
			ra->stats[MPB_RA_FETCH_BYTES] += fill[i].len;
		}
		spin_unlock_irqrestore(&ra->lock, flags);
		mpb_ra_end(ra, &settled);
		/* the fetch refused holds no count */
		if (tried && ret)
			mpb_ra_put(ra);
	}
}

/**
 * mpb_ra_read() - serve a read of @w->len bytes at @w->pos, if held
 * @ra: the disk's read-ahead, or NULL
 * @r: its segment
 * @w: the read (@w->pos, @w->len, @w->to set); mpb_ra_fits(@w->len)
 *
 * Whatever it returns, the chunks after a sequential read are fetched.
 * Return: MPB_RA_COPIED, MPB_RA_QUEUED (@ra->done ends it, maybe before
 * this returns), or MPB_RA_MISSED.
 */
enum mpb_ra_res mpb_ra_read(struct mpb_ra *ra, struct mp_remote *r,
			    struct mpb_ra_wait *w)
{
	struct mp_ra_fill fill[MP_RA_MAX_DEPTH];
	enum mpb_ra_res res = MPB_RA_MISSED;
	u32 depth = READ_ONCE(ra_kb) / (MPB_RA_CHUNK / SZ_1K), n;
	unsigned long flags;

	spin_lock_irqsave(&ra->lock, flags);
	switch (mp_ra_lookup(&ra->ra, w->pos, w->len, w->idx, &w->nr)) {
	case MP_RA_HIT:
		mpb_ra_parts(ra, w);
		ra->stats[MPB_RA_HITS]++;
		res = MPB_RA_COPIED;
		break;
	case MP_RA_WAIT:
		list_add_tail(&w->node, &ra->waiting);
		ra->stats[MPB_RA_WAITS]++;
		res = MPB_RA_QUEUED;
		break;
	case MP_RA_MISS:
		ra->stats[MPB_RA_MISSES]++;
		break;
	}
	n = mp_ra_plan(&ra->ra, w->pos, w->len, depth, fill, ARRAY_SIZE(fill));
	spin_unlock_irqrestore(&ra->lock, flags);

	if (res == MPB_RA_COPIED) {
		/* cannot fail for a bio_vec iterator of the request's length */
		if (mpb_ra_copy(ra, w))
			res = MPB_RA_MISSED;
		mpb_ra_unpin(ra, w);
	}
	mpb_ra_start(ra, r, fill, n);
	return res;
}

/**
 * mpb_ra_written() - disk bytes [@pos, + @len) are being written
 * @ra: the disk's read-ahead, or NULL
 * @pos: first byte
 * @len: bytes
 *
 * Called when a write starts and again before any of it completes.
 */
void mpb_ra_written(struct mpb_ra *ra, u64 pos, u64 len)
{
	unsigned long flags;

	if (!ra)
		return;
	spin_lock_irqsave(&ra->lock, flags);
	ra->stats[MPB_RA_INVALIDATED] += mp_ra_invalidate(&ra->ra, pos, len);
	spin_unlock_irqrestore(&ra->lock, flags);
}

/* /sys/block/mpb<N>/ra/: the counters, 0 for a disk without read-ahead */
#define MPB_RA_ATTR(_name, _stat)					\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct mpb_ra *ra = dev_get_drvdata(dev);				\
	unsigned long flags;						\
	u64 v = 0;							\
									\
	if (ra) {							\
		spin_lock_irqsave(&ra->lock, flags);			\
		v = ra->stats[_stat];					\
		spin_unlock_irqrestore(&ra->lock, flags);		\
	}								\
	return sysfs_emit(buf, "%llu\n", v);				\
}									\
static DEVICE_ATTR_RO(_name)

MPB_RA_ATTR(hits, MPB_RA_HITS);
MPB_RA_ATTR(waits, MPB_RA_WAITS);
MPB_RA_ATTR(misses, MPB_RA_MISSES);
MPB_RA_ATTR(fetches, MPB_RA_FETCHES);
MPB_RA_ATTR(fetch_bytes, MPB_RA_FETCH_BYTES);
MPB_RA_ATTR(fetch_refused, MPB_RA_FETCH_REFUSED);
MPB_RA_ATTR(fetch_errors, MPB_RA_FETCH_ERRORS);
MPB_RA_ATTR(invalidated, MPB_RA_INVALIDATED);

/* the window in use: ra_kb in whole chunks as the transport's room allows */
static ssize_t window_kb_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct mpb_ra *ra = dev_get_drvdata(dev);
	u32 depth = READ_ONCE(ra_kb) / (MPB_RA_CHUNK / SZ_1K);
	unsigned long flags;

	if (!ra)
		return sysfs_emit(buf, "0\n");
	spin_lock_irqsave(&ra->lock, flags);
	depth = min(depth, ra->ra.cap);
	spin_unlock_irqrestore(&ra->lock, flags);
	return sysfs_emit(buf, "%u\n", depth * (MPB_RA_CHUNK / SZ_1K));
}
static DEVICE_ATTR_RO(window_kb);

static struct attribute *mpb_ra_attrs[] = {
	&dev_attr_hits.attr,
	&dev_attr_waits.attr,
	&dev_attr_misses.attr,
	&dev_attr_fetches.attr,
	&dev_attr_fetch_bytes.attr,
	&dev_attr_fetch_refused.attr,
	&dev_attr_fetch_errors.attr,
	&dev_attr_invalidated.attr,
	&dev_attr_window_kb.attr,
	NULL
};

const struct attribute_group mpb_ra_group = {
	.name = "ra",
	.attrs = mpb_ra_attrs,
};
