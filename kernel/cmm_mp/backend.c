// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: the backend slot.
 *
 * One backend at a time (the mp_eth software transport, CXL hardware
 * later) carries the pool device's accesses to other devices' DRAM. Calls
 * into it hold backend_rwsem for reading, so mp_backend_unregister()
 * returns only once no call is in progress and the backend's module can
 * go away. An access started without a sleeping caller
 * (mp_backend_submit()) outlives its call: it is counted until the
 * backend ends it (mp_backend_io_done()), and mp_backend_unregister()
 * waits for that count too. The core calls these and nothing of the
 * backend's own.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/module.h>
#include <linux/rwsem.h>
#include <linux/wait_bit.h>
#include <linux/cmm_mp_backend.h>

#include "cmm_mp.h"

static DECLARE_RWSEM(backend_rwsem);
static const struct mp_backend_ops *backend_ops;
static void *backend_priv;
/* accesses started by mp_backend_submit() and not ended yet */
static atomic_t backend_async = ATOMIC_INIT(0);

/**
 * mp_backend_register() - make @ops the pool device's backend
 * @ops: the operations; must stay valid until mp_backend_unregister()
 * @priv: passed back to every operation
 *
 * Return: 0, -EINVAL for incomplete ops, -EBUSY when a backend is
 * registered already.
 */
int mp_backend_register(const struct mp_backend_ops *ops, void *priv)
{
	int ret = 0;

	if (!ops || !ops->read || !ops->write || !ops->peer_stats)
		return -EINVAL;
	down_write(&backend_rwsem);
	if (backend_ops) {
		ret = -EBUSY;
	} else {
		backend_ops = ops;
		backend_priv = priv;
		pr_info("backend %s registered\n", ops->name);
	}
	up_write(&backend_rwsem);
	return ret;
}
EXPORT_SYMBOL_GPL(mp_backend_register);

/**
 * mp_backend_unregister() - remove a backend
 * @ops: what was registered
 *
 * Waits for calls in progress to return and for the accesses it started
 * without a caller to end, which the backend must still be able to do.
 */
void mp_backend_unregister(const struct mp_backend_ops *ops)
{
	int idx;

	down_write(&backend_rwsem);
	if (backend_ops == ops) {
		backend_ops = NULL;
		backend_priv = NULL;
		pr_info("backend %s unregistered\n", ops->name);
	}
	up_write(&backend_rwsem);
	wait_var_event(&backend_async, !atomic_read(&backend_async));
	/* the pool it formed is gone with it */
	idx = mp_dev_srcu_lock();
	mp_pool_reset(mp_dev_get_default());
	mp_dev_srcu_unlock(idx);
}
EXPORT_SYMBOL_GPL(mp_backend_unregister);

/* A backend may have formed a pool with the device: it is in use. */
bool mp_backend_active(void)
{
	bool ret;

	down_read(&backend_rwsem);
	ret = backend_ops;
	up_read(&backend_rwsem);
	return ret;
}

/**
 * mp_backend_submit() - start @io without sleeping
 * @io: the access; io->done is called once it is over (mp_backend_io_done())
 *
 * Return: 0 (started), or -errno with nothing started and io->done never
 * called: -EAGAIN when the backend is being changed or has no room now,
 * -EOPNOTSUPP when it only carries accesses of a sleeping caller, -ENODEV
 * without a backend, or the backend's refusal (struct mp_backend_ops).
 */
int mp_backend_submit(struct mp_backend_io *io)
{
	int ret = -ENODEV;

	if (!down_read_trylock(&backend_rwsem))
		return -EAGAIN;
	if (backend_ops && !backend_ops->submit)
		ret = -EOPNOTSUPP;
	if (backend_ops && backend_ops->submit) {
		atomic_inc(&backend_async);
		ret = backend_ops->submit(backend_priv, io);
		if (ret)
			atomic_dec(&backend_async);
	}
	up_read(&backend_rwsem);
	return ret;
}

/**
 * mp_backend_io_done() - the backend ended an access mp_backend_submit() started
 * @io: the access
 * @err: 0 or -errno, as the backend's read or write would have returned
 */
void mp_backend_io_done(struct mp_backend_io *io, int err)
{
	io->done(io, err);
	if (atomic_dec_and_test(&backend_async))
		wake_up_var(&backend_async);
}
EXPORT_SYMBOL_GPL(mp_backend_io_done);

int mp_backend_read(u16 dst, u64 offset, struct iov_iter *to)
{
	int ret = -ENODEV;

	down_read(&backend_rwsem);
	if (backend_ops)
		ret = backend_ops->read(backend_priv, dst, offset, to);
	up_read(&backend_rwsem);
	return ret;
}

int mp_backend_write(u16 dst, u64 offset, struct iov_iter *from)
{
	int ret = -ENODEV;

	down_read(&backend_rwsem);
	if (backend_ops)
		ret = backend_ops->write(backend_priv, dst, offset, from);
	up_read(&backend_rwsem);
	return ret;
}

/*
 * A backend without write_many takes the places one after the other: the
 * result is the same, only slower.
 */
int mp_backend_write_many(u32 n, const u16 *dst, const u64 *offset,
			  struct iov_iter *from, int *res)
{
	int ret = 0;
	u32 i;

	if (n > MP_BACKEND_MAX_PLACES)
		return -EINVAL;
	down_read(&backend_rwsem);
	if (!backend_ops)
		ret = -ENODEV;
	else if (backend_ops->write_many)
		ret = backend_ops->write_many(backend_priv, n, dst, offset,
					      from, res);
	else
		for (i = 0; i < n; i++)
			res[i] = backend_ops->write(backend_priv, dst[i],
						    offset[i], from);
	up_read(&backend_rwsem);
	return ret;
}

int mp_backend_own(u16 dst, u32 cmd, u32 seg, struct mp_own_info *oi)
{
	int ret = -ENODEV;

	oi->owner = CMM_MP_NONE;
	oi->sharers = 0;
	down_read(&backend_rwsem);
	if (backend_ops && backend_ops->own) {
		/* it reads the partner (in) before it writes it (out) */
		ret = backend_ops->own(backend_priv, dst, cmd, seg, oi);
	} else {
		ret = backend_ops ? -EOPNOTSUPP : -ENODEV;
		oi->pdev = CMM_MP_NONE;
		oi->pseg = 0;
	}
	up_read(&backend_rwsem);
	return ret;
}

int mp_backend_set_key(u32 op, u32 id, const u8 *key)
{
	int ret = -ENODEV;

	down_read(&backend_rwsem);
	if (backend_ops)
		ret = backend_ops->set_key ?
		      backend_ops->set_key(backend_priv, op, id, key) :
		      -EOPNOTSUPP;
	up_read(&backend_rwsem);
	return ret;
}

int mp_backend_peer_stats(unsigned int idx, struct mp_backend_peer *p)
{
	int ret = -ENODEV;

	down_read(&backend_rwsem);
	if (backend_ops)
		ret = backend_ops->peer_stats(backend_priv, idx, p);
	up_read(&backend_rwsem);
	return ret;
}
