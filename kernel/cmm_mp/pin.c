// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: pin a user buffer for an I/O (pin.h).
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/cmm_mp_pin.h>

/**
 * mp_pin_user() - pin @len bytes at @ubuf and describe them in @p->iter
 * @p: filled in; released with mp_unpin()
 * @ubuf: user address
 * @len: bytes, at least one
 * @to_user: the I/O stores into the buffer (a read): pinned writable and
 *	dirtied when released
 *
 * Sleeps. Return: 0, -EINVAL for no bytes, -EFAULT for an address that is
 * not mapped (writable), -ENOMEM.
 */
int mp_pin_user(struct mp_pinned *p, void __user *ubuf, size_t len,
		bool to_user)
{
	unsigned long start = (unsigned long)ubuf;
	unsigned int off = offset_in_page(start), i;
	size_t left = len;
	int n, ret;

	memset(p, 0, sizeof(*p));
	if (!len)
		return -EINVAL;
	if (!access_ok(ubuf, len) || DIV_ROUND_UP(off + len, PAGE_SIZE) > INT_MAX)
		return -EFAULT;
	p->nr = DIV_ROUND_UP(off + len, PAGE_SIZE);
	p->pages = kvmalloc_array(p->nr, sizeof(*p->pages), GFP_KERNEL);
	p->bv = kvmalloc_array(p->nr, sizeof(*p->bv), GFP_KERNEL);
	if (!p->pages || !p->bv) {
		ret = -ENOMEM;
		goto err;
	}
	n = pin_user_pages_fast(start & PAGE_MASK, p->nr,
				to_user ? FOLL_WRITE : 0, p->pages);
	if (n != p->nr) {
		if (n > 0)
			unpin_user_pages(p->pages, n);
		ret = n < 0 ? n : -EFAULT;
		goto err;
	}
	for (i = 0; i < p->nr; i++) {
		p->bv[i].bv_page = p->pages[i];
		p->bv[i].bv_offset = off;
		p->bv[i].bv_len = min_t(size_t, left, PAGE_SIZE - off);
		left -= p->bv[i].bv_len;
		off = 0;
	}
	p->dirty = to_user;
	iov_iter_bvec(&p->iter, to_user ? ITER_DEST : ITER_SOURCE, p->bv,
		      p->nr, len);
	return 0;

err:
	kvfree(p->pages);
	kvfree(p->bv);
	memset(p, 0, sizeof(*p));
	return ret;
}
EXPORT_SYMBOL_GPL(mp_pin_user);

/**
 * mp_unpin() - release what mp_pin_user() pinned
 * @p: pinned by mp_pin_user() (released once)
 */
void mp_unpin(struct mp_pinned *p)
{
	if (p->nr)
		unpin_user_pages_dirty_lock(p->pages, p->nr, p->dirty);
	kvfree(p->pages);
	kvfree(p->bv);
	memset(p, 0, sizeof(*p));
}
EXPORT_SYMBOL_GPL(mp_unpin);
