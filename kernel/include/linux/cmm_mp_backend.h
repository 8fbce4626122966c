/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmm_mp: backends that carry a pool device's remote accesses.
 *
 * A backend (the mp_eth software transport today, CXL hardware later)
 * registers a struct mp_backend_ops with the pool device. The pool device
 * calls it for accesses to other devices' DRAM and for its counters; the
 * backend serves other devices' requests from the local DRAM through
 * mp_local_read() and mp_local_write(), which serve only the holders of a
 * segment (by chip id: the backend names the requester by the chip id of
 * the member its frame came from), refuse ranges that this host uses as
 * System RAM and apply each call atomically.
 */
#ifndef _LINUX_CMM_MP_BACKEND_H
#define _LINUX_CMM_MP_BACKEND_H

#include <linux/if_ether.h>
#include <linux/types.h>

#include "mp_pamt.h"
#include "mp_stats.h"

struct iov_iter;
struct module;

/**
 * enum mp_own_cmd - what a holder asks of a segment's backing device
 * @MP_OWN_QUERY: who holds it
 * @MP_OWN_CLAIM: give it to the asker alone (pooling mode)
 * @MP_OWN_RELEASE: the owner gives it back
 * @MP_OWN_SHARE: add the asker to its sharers (sharing mode)
 * @MP_OWN_UNSHARE: remove the asker from its sharers
 *
 * A backend carries these to the backing device in its own encoding and
 * hands them to mp_local_own() there.
 */
enum mp_own_cmd {
	MP_OWN_QUERY = 1,
	MP_OWN_CLAIM,
	MP_OWN_RELEASE,
	MP_OWN_SHARE,
	MP_OWN_UNSHARE,
};

/**
 * struct mp_own_info - an ownership command's partner and verdict
 * @owner: out: the owner after the command, by device id (CMM_MP_NONE
 *	for none, CMM_MP_GONE for a device not in the pool now)
 * @sharers: out: the bitmap of the sharers' device ids after it
 * @pdev: in: the partner a CLAIM names for a mirror copy, by device id
 *	(CMM_MP_NONE for none); out: the partner the segment has after the
 *	command (CMM_MP_GONE: its device is not in the pool now)
 * @pseg: the partner's segment index on @pdev's device (0 without one)
 */
struct mp_own_info {
	u32 owner;
	u32 sharers;
	u32 pdev;
	u32 pseg;
};

/**
 * struct mp_backend_peer - what a backend knows about one remote device
 * @id: device id of the peer
 * @mac: its backend port address (zero when the backend has none)
 * @reachable: false after a request to it timed out, until it answers
 * @inflight: requests to it that await a response
 * @st: counters (Documentation/protocol.rst, "Counters")
 */
struct mp_backend_peer {
	u32 id;
	u8 mac[ETH_ALEN];
	bool reachable;
	u32 inflight;
	struct mp_peer_stats st;
};

/**
 * struct mp_backend_ops - a transport for remote pool memory
 * @name: short name ("mp_eth")
 * @owner: module implementing the ops
 * @read: copy iov_iter_count(@to) bytes at @offset of device @dst's DRAM
 *	into @to, a kernel iterator (kvec or bvec: the backend may copy
 *	from its receive path), which it leaves where it was; sleeps;
 *	0 or -errno (-ETIMEDOUT, -EHOSTUNREACH, a NAK's errno)
 * @write: copy iov_iter_count(@from) bytes from @from to @offset of
 *	device @dst's DRAM, the same way
 * @write_many: optional; the same bytes to @n (at most
 *	MP_BACKEND_MAX_PLACES) places at once, device @dst[i] at
 *	@offset[i], each place's result in @res[i] as @write would have
 *	returned it: the copies of a mirrored segment in one round trip;
 *	0, or -EINVAL for too many places (@res untouched)
 * @peer_stats: fill @p for the @idx-th known peer (0, 1, ...);
 *	-ENOENT past the last one
 * @own: optional; ask device @dst to arbitrate the ownership of its
 *	segment @seg (its own numbering): @cmd is enum mp_own_cmd, a
 *	CLAIM's partner in @oi; sleeps; returns the device's verdict (0,
 *	-EBUSY, -EINPROGRESS, -EPERM, -ERANGE, -EINVAL) or a transport
 *	error, the holders and the partner after it in @oi
 * @set_key: optional; change the key that authenticates the backend's
 *	traffic: @op is enum cmm_mp_key_op, @key CMM_MP_KEY_LEN bytes
 *	(unused by CMM_MP_KEY_CLEAR); 0 or -errno
 * @submit: optional; start the read or write @io describes without
 *	sleeping, for a caller that cannot wait (a block device's
 *	->queue_rq()): 0, and the backend calls mp_backend_io_done() once,
 *	from any context, when none of its frames is in flight (with
 *	-EAGAIN or -ENOMEM for an access the backend could start only in
 *	part: the caller does it again where it can wait); or -errno with
 *	nothing started and no call: -EAGAIN (no room in flight now),
 *	-E2BIG (larger than the backend takes at once), -ENOMEM, or what
 *	@read or @write would have returned at once
 */
/* Places one mp_backend_ops.write_many takes at most. */
#define MP_BACKEND_MAX_PLACES	4

/**
 * struct mp_backend_io - an access started by mp_backend_submit()
 * @dst: device id
 * @write: a write (else a read)
 * @offset: in @dst's DRAM
 * @iter: the caller's bytes, as for @read and @write; it stays valid until
 *	@done and the backend leaves it where it was
 * @done: called by mp_backend_io_done() with 0 or the error @read or
 *	@write would have returned; it must not sleep
 */
struct mp_backend_io {
	u16 dst;
	bool write;
	u64 offset;
	struct iov_iter *iter;
	void (*done)(struct mp_backend_io *io, int err);
};

struct mp_backend_ops {
	const char *name;
	struct module *owner;
	int (*read)(void *priv, u16 dst, u64 offset, struct iov_iter *to);
	int (*write)(void *priv, u16 dst, u64 offset, struct iov_iter *from);
	int (*write_many)(void *priv, u32 n, const u16 *dst,
			  const u64 *offset, struct iov_iter *from, int *res);
	int (*peer_stats)(void *priv, unsigned int idx,
			  struct mp_backend_peer *p);
	int (*own)(void *priv, u16 dst, u32 cmd, u32 seg,
		   struct mp_own_info *oi);
	int (*set_key)(void *priv, u32 op, u32 id, const u8 *key);
	int (*submit)(void *priv, struct mp_backend_io *io);
};

int mp_backend_register(const struct mp_backend_ops *ops, void *priv);
void mp_backend_unregister(const struct mp_backend_ops *ops);

/* Callers inside cmm_mp: -ENODEV when no backend is registered. */
int mp_backend_read(u16 dst, u64 offset, struct iov_iter *to);
int mp_backend_write(u16 dst, u64 offset, struct iov_iter *from);
int mp_backend_write_many(u32 n, const u16 *dst, const u64 *offset,
			  struct iov_iter *from, int *res);
int mp_backend_peer_stats(unsigned int idx, struct mp_backend_peer *p);
int mp_backend_own(u16 dst, u32 cmd, u32 seg, struct mp_own_info *oi);
int mp_backend_set_key(u32 op, u32 id, const u8 *key);
int mp_backend_submit(struct mp_backend_io *io);
/* The backend: @io is over, with @err. */
void mp_backend_io_done(struct mp_backend_io *io, int err);

/* The pool-wide view, from the backend's discovery (pool.c). */
u64 mp_pool_chip_id(const u8 *mac);
int mp_pool_update(u32 state, const struct mp_pamt *t, u32 self);

/* The local DRAM, for a backend serving remote requests. */
u64 mp_local_size(void);
u64 mp_local_seg_size(void);
/*
 * Copies @len bytes between the DRAM at @dram and the caller's data
 * described by @arg (a frame, an iterator); 0 or -errno. Runs under the
 * device's memory lock: it must not sleep.
 */
typedef int (*mp_local_copy_t)(void *arg, void *dram, u32 len);

int mp_local_access(u64 src, u64 offset, u32 len, bool write,
		    mp_local_copy_t copy, void *arg);
int mp_local_read(u64 src, u64 offset, void *buf, u32 len);
int mp_local_write(u64 src, u64 offset, const void *buf, u32 len);
int mp_local_read_iter(u64 src, u64 offset, struct iov_iter *to);
int mp_local_write_iter(u64 src, u64 offset, struct iov_iter *from);
int mp_local_own(u64 src, u32 cmd, u32 seg, struct mp_own_info *oi);

#endif /* _LINUX_CMM_MP_BACKEND_H */
