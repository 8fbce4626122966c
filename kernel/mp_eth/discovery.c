// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: discovery and membership (CMM-MP section III-F).
 *
 * The decisions are kernel/common/mp_disc.c (shared with the unit tests
 * and the simulator, tools/mpsim); this file gives them time, frames and
 * a place to publish the pool. In short: every device broadcasts DISCOVER
 * frames on the control EtherType (chip id, capacity, MAC, MTU, how many
 * devices it knows) and listens. A round
 * has a number, carried in the header's gen field; it becomes the
 * generation of the pool the round forms. A device that hears a higher
 * round joins it, one that hears a lower one answers with a DISCOVER_ACK
 * so the sender joins ours. A round ends once it lasted disc_window and
 * nothing new was heard for disc_quiet (or after disc_max): the members are
 * then sorted by chip id (mp_disc_conclude()), device ids are the ranks,
 * capacities in device id order give the PAMT, and the pool is RUNTIME.
 * Every device that heard the same members computes the same table.
 *
 * In RUNTIME, members send a heartbeat (a DISCOVER_ACK marked
 * MP_ETH_F_HB, carrying a digest of their map) every hb_interval to the
 * live members 2^j ranks ahead of them, and watch those 2^j ranks behind:
 * N log N frames per interval for the pool. A member whose data frames
 * of the generation reach us (a request its window took, a response to
 * one of ours) counts as heard too: under load a port may lose or hold
 * back control frames while data flows. A watched member silent for
 * hb_timeout, a device we do not know, a member that lost us, or a
 * heartbeat that disagrees with our table (generation, device count, map
 * digest) starts a new round with a higher number. Members that were in
 * the pool and are not heard in a round stay in the table as lost (PAMT
 * entry invalid: numbering stays, their segments fail); the devices of a
 * round report the lost members they know by proxy (a DISCOVER_ACK whose
 * payload MAC is not the sender's) so that
 * everyone keeps the same ones. A round whose members share a chip id
 * ends in CONFLICT: reported in the kernel log and in the pool state, no
 * pool is formed until a round without the duplicate.
 *
 * The data path is closed for the whole of a round (struct mpe_memb not
 * running): requests fail with -EAGAIN, and the round's start resets every
 * peer's sequence state, so no request crosses a generation.
 *
 * Locking: disc->lock (a spinlock, taken in the receive softirq) guards
 * the tables; the work item does everything that sleeps (publishing the
 * membership, telling cmm_mp) and sends the periodic frames.
 * Documentation/pool.rst has the state machine.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/cmm_mp.h>
#include <linux/cmm_mp_backend.h>

#include "mp_eth.h"
#include "mp_disc.h"
#include "mp_pamt.h"

#define MPE_DISC_TICK_MS	50

/**
 * struct mpe_disc - discovery state
 * @lock: guards @d, @heard, @hash, @pool and @stopping
 * @stopping: module unload: do not requeue the work
 * @d: the decisions (kernel/common/mp_disc.c)
 * @heard: storage of @d: the devices of a round
 * @hash: storage of @d: index of @heard
 * @pool: storage of @d: the members of the last formed pool
 * @out: the outcome of a round, only the work uses it
 * @proxy: members the work announces or probes for others, only the work
 *	uses it
 * @max_pool: entries of @pool and @proxy: the largest pool (max_devs, at
 *	most a pool map's); @heard and @out have twice as many (room for
 *	impostors), @hash four times
 * @work: the periodic work
 * @m: the transport
 *
 * The tables are sized by max_devs when discovery starts (about 400 bytes
 * per device: a round must be able to hear them all).
 */
struct mpe_disc {
	spinlock_t lock;	/* the tables */
	bool stopping;
	struct mp_disc d;
	struct mp_dmember *heard;
	u32 *hash;
	struct mp_dmember *pool;
	struct mp_dmember *out;
	struct mp_dmember *proxy;
	u32 max_pool;
	struct delayed_work work;
	struct mpe *m;
};

/*
 * Build and send one discovery frame about @who; @view non-zero: a
 * heartbeat along the ranks (MP_ETH_F_HB, the sender's map digest).
 */
static void mpe_disc_send(struct mpe *m, u8 op, const u8 *dst_mac,
			  const struct mp_dmember *who, u32 round,
			  u16 dev_count, u64 view, gfp_t gfp)
{
	struct mp_discover p;
	struct mp_frame f = {
		.op = op,
		.flags = view ? MP_ETH_F_HB : 0,
		.src = MP_ETH_DEV_ANY,
		.dst = MP_ETH_DEV_ANY,
		.gen = round,
		.offset = view,
		.len = MP_ETH_DISCOVER_LEN,
	};
	struct sk_buff *skb;

	mp_disc_payload(who, round, dev_count, &p);
	skb = mpe_frame_alloc(m, MP_ETH_DISCOVER_LEN, gfp);
	if (!skb)
		return;
	if (mp_discover_encode(&p, mpe_frame_payload(skb),
			       MP_ETH_DISCOVER_LEN) < 0) {
		kfree_skb(skb);
		return;
	}
	mpe_frame_send_to(m, skb, &f, dst_mac);
}

/**
 * mpe_disc_rcv() - a control frame arrived
 * @m: the transport
 * @skb: linear, data at the transport header
 * @f: its decoded header (a control opcode)
 *
 * Softirq. Everything here is untrusted: a frame that does not decode or
 * that mp_disc_rcv() refuses is dropped and counted.
 */
void mpe_disc_rcv(struct mpe *m, struct sk_buff *skb, const struct mp_frame *f)
{
	const struct ethhdr *eh = eth_hdr(skb);
	/* pairs with the release in mpe_disc_start(): dc is initialized */
	struct mpe_disc *dc = smp_load_acquire(&m->disc);
	struct mp_disc_tx tx = { 0 };
	struct mp_discover p;
	int ret;

	if (mp_discover_decode(skb->data + MP_ETH_HDR_LEN, f->len, &p)) {
		atomic64_inc(&m->dropped);
		return;
	}
	spin_lock(&dc->lock);
	if (dc->stopping) {
		spin_unlock(&dc->lock);
		return;
	}
	ret = mp_disc_rcv(&dc->d, f->op, eh->h_source,
			  (is_broadcast_ether_addr(eh->h_dest) ?
			   MP_DISC_RX_BCAST : 0) |
			  (f->flags & MP_ETH_F_HB ? MP_DISC_RX_HB : 0),
			  f->flags & MP_ETH_F_HB ? f->offset : 0, f->gen, &p,
			  ktime_get_ns(), &tx);
	/* under the lock: mpe_disc_stop() sets stopping, then cancels */
	if (!ret && tx.kick)
		mod_delayed_work(system_wq, &dc->work, 0);
	spin_unlock(&dc->lock);
	if (ret)
		atomic64_inc(&m->dropped);
	else if (tx.reply)
		mpe_disc_send(m, MP_ETH_OP_DISCOVER_ACK, eh->h_source, &tx.self,
			      tx.round, tx.dev_count, 0, GFP_ATOMIC);
}

/*
 * Members whose frames of this generation reach our window or RIFT are
 * alive, heartbeats or not (mp_disc_data_seen()). Under dc->lock.
 */
static void mpe_disc_data_seen(struct mpe *m, struct mpe_disc *dc)
{
	const struct mpe_memb *mb;
	struct mpe_peer *p;
	u64 t;
	u16 i;

	rcu_read_lock();
	mb = rcu_dereference(m->memb);
	if (!mb->running || mb->gen != dc->d.round)
		goto out;
	for (i = 0; i < mb->nr_devs; i++) {
		p = mpe_peer(m, i);
		if (i == mb->devid || !mb->dev[i].valid || !p)
			continue;
		t = READ_ONCE(p->alive);
		if (t)
			mp_disc_data_seen(&dc->d, mb->dev[i].chip,
					  mb->dev[i].mac, t);
	}
out:
	rcu_read_unlock();
}

/* Close the data path for a round: nothing of the old generation flows. */
static void mpe_disc_close(struct mpe *m, u32 round, const char *why)
{
	struct mpe_memb *mb = mpe_memb_dup(m);
	bool was_running = mb && mb->running;
	struct mpe_peer *p;
	u32 i;

	if (was_running)
		pr_info("discovery round %u (%s): data path closed\n", round,
			why);
	else
		pr_info("discovery round %u (%s)\n", round, why);
	if (mb)
		mb->running = false;
	if (!mb || mpe_memb_set(m, mb))
		pr_err("discovery: no memory to close the data path\n");
	/* the next generation may number its members otherwise */
	for (i = 0; i < m->cfg.max_devs; i++) {
		p = mpe_peer(m, i);
		if (p)
			WRITE_ONCE(p->alive, 0);
	}
	mpe_transport_reset(m, -ENETRESET);
	mp_pool_update(CMM_MP_POOL_DISCOVERY, NULL, 0);
}

/* Report every pair of members that share a chip id (@v is sorted). */
static void mpe_disc_report_dups(const struct mp_dmember *v, u32 n, u32 round)
{
	u32 i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n && v[j].chip_id == v[i].chip_id; j++)
			pr_err("discovery round %u: duplicate chip id %#llx on %pM and %pM: no pool is formed until one of them leaves or changes its chip id\n",
			       round, v[i].chip_id, v[i].mac, v[j].mac);
}

/*
 * The round ended with members @v (ours among them, lost ones marked):
 * form the pool, or report why not. Process context.
 */
static void mpe_disc_finish(struct mpe *m, struct mp_dmember *v, u32 n,
			    u32 round)
{
	struct mpe_disc *dc = m->disc;
	struct mpe_memb *mb;
	struct mp_pamt *t;
	u32 i, lost = 0;
	bool formed;
	int self;

	/* a pool map of MP_PAMT_MAX_DEVS entries: tens of KiB at 1024 */
	t = kvzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return;
	self = mp_disc_conclude(v, n, mp_local_seg_size(), round,
				dc->d.self.chip_id, t, &lost);
	if (self < 0) {
		if (self == -EEXIST)
			mpe_disc_report_dups(v, n, round);
		else
			pr_err("discovery round %u: cannot build the pool map of %u devices: %d (at most %u devices, each at least one segment)\n",
			       round, n, self, dc->max_pool);
		spin_lock_bh(&dc->lock);
		mp_disc_conflict(&dc->d, round, ktime_get_ns());
		spin_unlock_bh(&dc->lock);
		mp_pool_update(CMM_MP_POOL_CONFLICT, NULL, 0);
		kvfree(t);
		return;
	}
	/* not formed without it: the round ends again at the next tick */
	mb = mpe_memb_alloc(t->nr_devs, GFP_KERNEL);
	if (!mb) {
		pr_err("discovery round %u: no memory for the membership\n",
		       round);
		kvfree(t);
		return;
	}
	mb->running = true;
	mb->gen = round;
	mb->devid = self;
	/* frames must fit the smallest MTU of the pool (protocol.rst) */
	for (i = 0; i < n; i++)
		if (!mb->mtu || v[i].mtu < mb->mtu)
			mb->mtu = v[i].mtu;
	for (i = 0; i < t->nr_devs; i++) {
		ether_addr_copy(mb->dev[i].mac, t->dev[i].mac);
		mb->dev[i].valid = t->dev[i].valid;
		if (t->dev[i].valid)
			mb->dev[i].chip = t->dev[i].chip_id;
	}

	spin_lock_bh(&dc->lock);
	/* false: a newer round started meanwhile, this one is moot */
	formed = mp_disc_commit(&dc->d, v, n, round, ktime_get_ns());
	spin_unlock_bh(&dc->lock);
	if (!formed) {
		kfree(mb);
		kvfree(t);
		return;
	}

	if (mp_pool_update(CMM_MP_POOL_RUNTIME, t, self))
		pr_err("discovery round %u: the pool device refused the map\n",
		       round);
	if (mpe_memb_set(m, mb))
		pr_err("discovery: no memory to open the data path\n");
	pr_info("discovery round %u: pool formed, generation %u, %u devices (%u lost), %u segments; we are device %d\n",
		round, round, t->nr_devs, lost, t->nr_segs, self);
	kvfree(t);
}

static void mpe_disc_work(struct work_struct *w)
{
	struct mpe_disc *dc = container_of(to_delayed_work(w), struct mpe_disc,
					   work);
	struct mp_dmember *proxy = dc->proxy;
	struct mpe *m = dc->m;
	struct mp_disc_tx tx = { 0 };
	u8 bcast[ETH_ALEN];
	u32 i;

	eth_broadcast_addr(bcast);
	spin_lock_bh(&dc->lock);
	mpe_disc_data_seen(m, dc);
	mp_disc_tick(&dc->d, ktime_get_ns(), dc->out, 2 * dc->max_pool,
		     proxy, dc->max_pool, &tx);
	spin_unlock_bh(&dc->lock);

	if (tx.silent)
		pr_info("discovery: chip %#llx (%pM) silent for %llu ms: lost\n",
			tx.gone.chip_id, tx.gone.mac,
			(ktime_get_ns() - tx.gone.last_seen) / NSEC_PER_MSEC);
	if (tx.close)
		mpe_disc_close(m, tx.round, tx.why);
	if (tx.send) {
		mpe_disc_send(m, tx.op, bcast, &tx.self, tx.round,
			      tx.dev_count, 0, GFP_KERNEL);
		for (i = 0; i < tx.nr_proxy; i++)
			mpe_disc_send(m, MP_ETH_OP_DISCOVER_ACK, bcast,
				      &proxy[i], tx.round, tx.dev_count, 0,
				      GFP_KERNEL);
	}
	/* a formed pool's heartbeat: along the ranks, not to everyone */
	for (i = 0; i < tx.nr_hb; i++)
		mpe_disc_send(m, tx.op, tx.hb_mac[i], &tx.self, tx.round,
			      tx.dev_count, tx.view, GFP_KERNEL);
	for (i = 0; i < tx.nr_probe; i++)
		mpe_disc_send(m, MP_ETH_OP_DISCOVER, proxy[i].mac, &tx.self,
			      tx.round, 1, 0, GFP_KERNEL);
	if (tx.finish)
		mpe_disc_finish(m, dc->out, tx.nr_out, tx.round);

	spin_lock_bh(&dc->lock);
	if (!dc->stopping)
		queue_delayed_work(system_wq, &dc->work,
				   msecs_to_jiffies(MPE_DISC_TICK_MS));
	spin_unlock_bh(&dc->lock);
}

static void mpe_disc_free_tables(struct mpe_disc *dc)
{
	if (!dc)
		return;
	kvfree(dc->heard);
	kvfree(dc->out);
	kvfree(dc->hash);
	kvfree(dc->pool);
	kvfree(dc->proxy);
	kfree(dc);
}

/**
 * mpe_disc_start() - take part in discovery
 * @m: the transport, receive handlers running
 *
 * Return: 0, -ENOMEM, or -EINVAL when the pool device has no DRAM.
 */
int mpe_disc_start(struct mpe *m)
{
	struct mp_disc_params par = {
		.interval = m->cfg.disc_interval,
		.window = m->cfg.disc_window,
		.quiet = m->cfg.disc_quiet,
		.max = m->cfg.disc_max,
		.hb_interval = m->cfg.hb_interval,
		.hb_timeout = m->cfg.hb_timeout,
		.proxy_delay = 2 * m->cfg.disc_interval,
	};
	struct mp_dmember self = { 0 };
	struct mpe_disc *dc;
	int ret;

	dc = kzalloc(sizeof(*dc), GFP_KERNEL);
	if (!dc)
		return -ENOMEM;
	/* the pool map holds MP_PAMT_MAX_DEVS devices at most */
	dc->max_pool = min_t(u32, m->cfg.max_devs, MP_PAMT_MAX_DEVS);
	dc->heard = kvcalloc(2 * dc->max_pool, sizeof(*dc->heard), GFP_KERNEL);
	dc->out = kvcalloc(2 * dc->max_pool, sizeof(*dc->out), GFP_KERNEL);
	dc->hash = kvcalloc(4 * dc->max_pool, sizeof(*dc->hash), GFP_KERNEL);
	dc->pool = kvcalloc(dc->max_pool, sizeof(*dc->pool), GFP_KERNEL);
	dc->proxy = kvcalloc(dc->max_pool, sizeof(*dc->proxy), GFP_KERNEL);
	if (!dc->heard || !dc->out || !dc->hash || !dc->pool || !dc->proxy) {
		ret = -ENOMEM;
		goto err_free;
	}
	spin_lock_init(&dc->lock);
	INIT_DELAYED_WORK(&dc->work, mpe_disc_work);
	dc->m = m;
	self.chip_id = mp_pool_chip_id(m->ndev->dev_addr);
	self.capacity = mp_local_size();
	ether_addr_copy(self.mac, m->ndev->dev_addr);
	self.mtu = READ_ONCE(m->ndev->mtu);
	ret = is_valid_ether_addr(self.mac) ? 0 : -EINVAL;
	if (!ret && self.mtu < MP_ETH_MIN_MTU) {
		pr_err("%s: MTU %u, discovery needs at least %u\n",
		       m->ndev->name, self.mtu, MP_ETH_MIN_MTU);
		ret = -EINVAL;
	}
	if (!ret)
		ret = mp_disc_init(&dc->d, &par, &self, dc->heard,
				   2 * dc->max_pool, dc->hash, 4 * dc->max_pool,
				   dc->pool, dc->max_pool, ktime_get_ns());
	if (ret) {
		pr_err("discovery needs a pool device and a unicast port address\n");
		goto err_free;
	}
	/* the receive handler sees it from now on */
	smp_store_release(&m->disc, dc);
	pr_info("discovery: chip id %#llx, %llu MiB, port %pM\n",
		self.chip_id, self.capacity >> 20, self.mac);
	queue_delayed_work(system_wq, &dc->work, 0);
	return 0;

err_free:
	/* never published: the receive handler cannot have seen it */
	mpe_disc_free_tables(dc);
	return ret;
}

/* Unload: free what mpe_disc_start() allocated (after mpe_disc_stop()). */
void mpe_disc_free(struct mpe *m)
{
	mpe_disc_free_tables(m->disc);
	m->disc = NULL;
}

/**
 * mpe_disc_stop() - no more rounds or heartbeats
 * @m: the transport
 *
 * The receive handler may still call mpe_disc_rcv(), which then does
 * nothing; m->disc is freed once the handlers are gone.
 */
void mpe_disc_stop(struct mpe *m)
{
	struct mpe_disc *dc = m->disc;

	if (!dc)
		return;
	spin_lock_bh(&dc->lock);
	dc->stopping = true;
	spin_unlock_bh(&dc->lock);
	cancel_delayed_work_sync(&dc->work);
}
