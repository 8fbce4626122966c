/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmm_mp: /dev/mpb's read-ahead (mpb_ra.c), as mpb.c uses it.
 */
#ifndef _CMM_MP_MPB_H
#define _CMM_MP_MPB_H

#include <linux/list.h>
#include <linux/sysfs.h>
#include <linux/uio.h>

#include "mp_ra.h"

struct mp_remote;
struct mpb_ra;

/**
 * struct mpb_ra_wait - a read that mpb_ra_read() took
 * @node: in the read-ahead's list of reads waiting for a fetch
 * @pos: its first byte on the disk
 * @len: its bytes, at most one chunk
 * @to: where its bytes go (the request's pages)
 * @nr: buffers it copies from
 * @idx: those buffers, in the disk's order
 * @off: where in each its part begins
 * @part: the bytes of its part in each
 * @failed: a fetch it waited for failed
 */
struct mpb_ra_wait {
	struct list_head node;
	u64 pos;
	u32 len;
	struct iov_iter *to;
	u32 nr;
	u32 idx[MP_RA_MAX_PINS];
	u32 off[MP_RA_MAX_PINS];
	u32 part[MP_RA_MAX_PINS];
	bool failed;
};

/* What mpb_ra_read() did with a read. */
enum mpb_ra_res {
	MPB_RA_MISSED,		/* nothing: read it from the device */
	MPB_RA_COPIED,		/* its bytes are in @to: end it */
	MPB_RA_QUEUED,		/* ->done() ends it */
};

/*
 * The end of a queued read: 0 with its bytes in @to, or -errno for one
 * whose fetch failed (to be read from the device). Not allowed to sleep.
 */
typedef void (*mpb_ra_done_t)(struct mpb_ra_wait *w, int err);

struct mpb_ra *mpb_ra_alloc(u64 size, mpb_ra_done_t done);
void mpb_ra_free(struct mpb_ra *ra);
enum mpb_ra_res mpb_ra_read(struct mpb_ra *ra, struct mp_remote *r,
			    struct mpb_ra_wait *w);
void mpb_ra_written(struct mpb_ra *ra, u64 pos, u64 len);
bool mpb_ra_fits(u32 len);

/* the counters; the disk's device has the read-ahead (or NULL) as drvdata */
extern const struct attribute_group mpb_ra_group;

#endif /* _CMM_MP_MPB_H */
