/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmm_mp: a user buffer pinned and described by a kernel iterator.
 *
 * The transport copies a request's data between its frames and the
 * caller's memory from its receive path, where user memory cannot be
 * touched; pinning the caller's pages instead of copying them to a
 * bounce buffer moves every byte once (direct I/O does the same).
 */
#ifndef _CMM_MP_PIN_H
#define _CMM_MP_PIN_H

#include <linux/bvec.h>
#include <linux/types.h>
#include <linux/uio.h>

/**
 * struct mp_pinned - user pages pinned for an I/O
 * @pages: the pinned pages
 * @bv: one bio_vec per page
 * @nr: entries of @pages and @bv
 * @dirty: the I/O writes to the pages (a read into user memory)
 * @iter: the bytes, for the I/O
 */
struct mp_pinned {
	struct page **pages;
	struct bio_vec *bv;
	unsigned int nr;
	bool dirty;
	struct iov_iter iter;
};

int mp_pin_user(struct mp_pinned *p, void __user *ubuf, size_t len,
		bool to_user);
void mp_unpin(struct mp_pinned *p);

#endif /* _CMM_MP_PIN_H */
