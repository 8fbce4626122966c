// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: the membership and the per-peer state, sized for the pool.
 *
 * A membership (struct mpe_memb) is allocated for its number of devices
 * and carries an index of its MACs, so that the receive path finds a
 * frame's sender in O(1) in a pool of 1024 devices as in one of 2. A
 * peer's transport state (its RIFT, receive window and counters, a few
 * KiB) is allocated the first time a membership has its device id, before
 * that membership is published, and kept until unload: a device id that
 * comes back finds its state (reset with the generation), and a small
 * pool costs a few peers, not max_devs of them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "mp_eth.h"

/* Entries of a membership's MAC index: a power of two, twice the devices. */
static u32 mpe_memb_hash_size(u32 nr_devs)
{
	return roundup_pow_of_two(max_t(u32, 2 * nr_devs, 2));
}

/**
 * mpe_memb_alloc() - a zeroed membership with room for @nr_devs devices
 * @nr_devs: device ids 0 .. @nr_devs - 1 (0: none yet)
 * @gfp: allocation flags
 *
 * Return: the membership (its index is built by mpe_memb_set()), or NULL.
 */
struct mpe_memb *mpe_memb_alloc(u32 nr_devs, gfp_t gfp)
{
	u32 hsize = mpe_memb_hash_size(nr_devs);
	struct mpe_memb *mb;
	size_t dev_end;

	if (nr_devs > U16_MAX)
		return NULL;
	dev_end = struct_size(mb, dev, nr_devs);
	mb = kzalloc(size_add(dev_end, array_size(hsize, sizeof(u16))), gfp);
	if (!mb)
		return NULL;
	mb->nr_devs = nr_devs;
	mb->hash_mask = hsize - 1;
	mb->hash = (u16 *)((u8 *)mb + dev_end);
	return mb;
}

/* A copy of the current membership (to change and mpe_memb_set()), or NULL. */
struct mpe_memb *mpe_memb_dup(struct mpe *m)
{
	const struct mpe_memb *cur;
	struct mpe_memb *mb;

	mutex_lock(&m->memb_mutex);
	cur = rcu_dereference_protected(m->memb,
					lockdep_is_held(&m->memb_mutex));
	mb = mpe_memb_alloc(cur->nr_devs, GFP_KERNEL);
	if (mb) {
		mb->running = cur->running;
		mb->gen = cur->gen;
		mb->devid = cur->devid;
		mb->mtu = cur->mtu;
		memcpy(mb->dev, cur->dev, cur->nr_devs * sizeof(*mb->dev));
	}
	mutex_unlock(&m->memb_mutex);
	return mb;
}

static u32 mpe_mac_hash(const u8 *mac, u32 mask)
{
	return (u32)((ether_addr_to_u64(mac) * 0x9e3779b97f4a7c15ULL) >> 32) &
	       mask;
}

/* Index @mb's MACs (a MAC listed twice: the first id keeps it). */
static void mpe_memb_index(struct mpe_memb *mb)
{
	u32 i, h;

	memset(mb->hash, 0, (mb->hash_mask + 1) * sizeof(*mb->hash));
	for (i = 0; i < mb->nr_devs; i++) {
		if (is_zero_ether_addr(mb->dev[i].mac) ||
		    mpe_memb_peer_by_mac(mb, mb->dev[i].mac) >= 0)
			continue;
		h = mpe_mac_hash(mb->dev[i].mac, mb->hash_mask);
		while (mb->hash[h])
			h = (h + 1) & mb->hash_mask;
		mb->hash[h] = i + 1;
	}
}

/**
 * mpe_memb_peer_by_mac() - the device id of @mac in @mb, ours excluded
 * @mb: a membership (under RCU, or not published yet)
 * @mac: a source MAC
 *
 * Return: the device id, or -1 when @mac is no other member's.
 */
int mpe_memb_peer_by_mac(const struct mpe_memb *mb, const u8 *mac)
{
	u32 h = mpe_mac_hash(mac, mb->hash_mask);

	for (; mb->hash[h]; h = (h + 1) & mb->hash_mask) {
		u32 i = mb->hash[h] - 1;

		if (ether_addr_equal(mac, mb->dev[i].mac))
			return i == mb->devid ? -1 : (int)i;
	}
	return -1;
}

/* Allocate peer @id (memb_mutex held): nothing can see it before. */
static int mpe_peer_alloc(struct mpe *m, u16 id)
{
	struct mpe_peer *p = kzalloc(sizeof(*p), GFP_KERNEL);
	int ret;

	if (!p)
		return -ENOMEM;
	mpe_responder_peer_init(m, p);
	ret = mpe_rq_init(m, &p->req, id);
	if (ret) {
		kfree(p);
		return ret;
	}
	/* pairs with the acquire in mpe_peer() */
	smp_store_release(&m->peers[id], p);
	return 0;
}

/**
 * mpe_memb_set() - replace the membership the data path works with
 * @m: the transport
 * @n: the new one, from mpe_memb_alloc() or mpe_memb_dup(): taken over
 *	(freed here on error)
 *
 * Allocates the state of every peer @n has that none had before, then
 * publishes @n. Sleeps: returns once no reader of the old one is left
 * (RCU). Return: 0, -ENOMEM, or -E2BIG for more devices than max_devs
 * (the old membership stays).
 */
int mpe_memb_set(struct mpe *m, struct mpe_memb *n)
{
	struct mpe_memb *old;
	int ret = 0;
	u32 i;

	if (n->nr_devs > m->cfg.max_devs) {
		pr_err("a pool of %u devices: max_devs is %u\n", n->nr_devs,
		       m->cfg.max_devs);
		kfree(n);
		return -E2BIG;
	}
	mpe_memb_index(n);
	mutex_lock(&m->memb_mutex);
	for (i = 0; i < n->nr_devs && !ret; i++)
		if (!m->peers[i])
			ret = mpe_peer_alloc(m, i);
	if (ret) {
		mutex_unlock(&m->memb_mutex);
		kfree(n);
		return ret;
	}
	old = rcu_replace_pointer(m->memb, n,
				  lockdep_is_held(&m->memb_mutex));
	mutex_unlock(&m->memb_mutex);
	synchronize_rcu();
	kfree(old);
	return 0;
}

/* The table of peer pointers: max_devs of them, no peer yet. */
int mpe_peers_init(struct mpe *m)
{
	m->peers = kvcalloc(m->cfg.max_devs, sizeof(*m->peers), GFP_KERNEL);
	return m->peers ? 0 : -ENOMEM;
}

/* Unload: no frame, timer or transfer can reach a peer any more. */
void mpe_peers_exit(struct mpe *m)
{
	u32 i;

	for (i = 0; m->peers && i < m->cfg.max_devs; i++) {
		if (!m->peers[i])
			continue;
		mpe_rq_exit(&m->peers[i]->req);
		kfree(m->peers[i]);
	}
	kvfree(m->peers);
	m->peers = NULL;
}
