// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: discovery and membership (CMM-MP section III-F).
 *
 * Every device broadcasts DISCOVER frames on the control EtherType (chip
 * id, capacity, MAC, MTU, how many devices it knows) and listens. A round
 * has a number, carried in the header's gen field; it becomes the
 * generation of the pool the round forms. A device that hears a higher
 * round joins it, one that hears a lower one answers with a DISCOVER_ACK
 * so the sender joins ours. A round ends once it lasted disc_window and
 * nothing new was heard for disc_quiet (or after disc_max): the members are
 * then sorted by chip id (mp_pamt_build()), device ids are the ranks,
 * capacities in device id order give the PAMT, and the pool is RUNTIME.
 * Every device that heard the same members computes the same table.
 *
 * In RUNTIME, members broadcast a heartbeat (DISCOVER_ACK to everyone)
 * every hb_interval. A member silent for hb_timeout, a device we do not
 * know, a member that lost us, or a heartbeat that disagrees with our
 * table (generation, device count) starts a new round with a higher
 * number. Members that were in the pool and are not heard in a round stay
 * in the table as lost (PAMT entry invalid: numbering stays, their
 * segments fail); the devices of a round report the lost members they know
 * by proxy (a DISCOVER_ACK whose payload MAC is not the sender's) so that
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

#include "mp_eth.h"
#include "mp_pamt.h"
#include "../cmm_mp/backend.h"

/* Devices a round can hear: the pool's limit plus room for impostors. */
#define MPE_DISC_SLOTS		(2 * MPE_MAX_DEVS)
/* Round numbers above this are refused: round + 1 must never wrap. */
#define MPE_DISC_MAX_ROUND	(U32_MAX / 2)
#define MPE_DISC_TICK_MS	50

/**
 * struct mpe_dmember - a device as discovery knows it
 * @chip_id: its chip id
 * @capacity: bytes it gives the pool
 * @mac: its backend port (the key: unique on the segment)
 * @mtu: its L2 MTU
 * @last_seen: when it was last heard itself (ns)
 * @lost: known to be in the pool but not heard itself
 */
struct mpe_dmember {
	u64 chip_id;
	u64 capacity;
	u8 mac[ETH_ALEN];
	u32 mtu;
	u64 last_seen;
	bool lost;
};

/**
 * struct mpe_disc - discovery state
 * @lock: guards everything below but @work and @self
 * @state: CMM_MP_POOL_DISCOVERY, _RUNTIME or _CONFLICT
 * @round: number of the current round = generation it forms
 * @need_close: a round started; the work must close the data path
 * @stopping: module unload: do not requeue the work
 * @round_start: when the round started (ns)
 * @last_change: when the round last heard something new (ns)
 * @last_tx: when we last broadcast (ns)
 * @why: why the current round started, for the log
 * @heard: the devices of this round, ours at index 0 (and after the
 *	round, in CONFLICT, whom we track)
 * @nr_heard: entries of @heard
 * @pool: the members of the last formed pool in device id order
 * @nr_pool: entries of @pool
 * @self: this device
 * @work: the periodic work
 * @m: the transport
 */
struct mpe_disc {
	spinlock_t lock;	/* the tables */
	u32 state;
	u32 round;
	bool need_close;
	bool stopping;
	u64 round_start;
	u64 last_change;
	u64 last_tx;
	char why[80];
	struct mpe_dmember heard[MPE_DISC_SLOTS];
	u32 nr_heard;
	struct mpe_dmember pool[MPE_MAX_DEVS];
	u32 nr_pool;
	struct mpe_dmember self;
	struct delayed_work work;
	struct mpe *m;
};

static struct mpe_dmember *mpe_disc_find(struct mpe_dmember *v, u32 n,
					 const u8 *mac)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (ether_addr_equal(v[i].mac, mac))
			return &v[i];
	return NULL;
}

/* Called with dc->lock held: start (or join) round @round. */
static void mpe_disc_new_round(struct mpe_disc *dc, u32 round, u64 now,
			       const char *why)
{
	dc->state = CMM_MP_POOL_DISCOVERY;
	dc->round = round;
	dc->heard[0] = dc->self;
	dc->heard[0].last_seen = now;
	dc->nr_heard = 1;
	dc->round_start = now;
	dc->last_change = now;
	dc->last_tx = 0;		/* announce at once */
	dc->need_close = true;
	strscpy(dc->why, why, sizeof(dc->why));
}

/* Called with dc->lock held: a device of the current round was heard. */
static void mpe_disc_record(struct mpe_disc *dc, const struct mp_discover *p,
			    bool proxy, u64 now)
{
	struct mpe_dmember *e = mpe_disc_find(dc->heard, dc->nr_heard, p->mac);

	if (e) {
		if (proxy)
			return;
		if (e->lost || e->chip_id != p->chip_id ||
		    e->capacity != p->capacity)
			dc->last_change = now;
		e->chip_id = p->chip_id;
		e->capacity = p->capacity;
		e->mtu = p->mtu;
		e->lost = false;
		e->last_seen = now;
		return;
	}
	if (dc->nr_heard == MPE_DISC_SLOTS)
		return;
	e = &dc->heard[dc->nr_heard++];
	e->chip_id = p->chip_id;
	e->capacity = p->capacity;
	ether_addr_copy(e->mac, p->mac);
	e->mtu = p->mtu;
	e->last_seen = now;
	e->lost = proxy;
	dc->last_change = now;
}

/* Build and send one discovery frame about @who. */
static void mpe_disc_send(struct mpe *m, u8 op, const u8 *dst_mac,
			  const struct mpe_dmember *who, u32 round,
			  u16 dev_count, gfp_t gfp)
{
	struct mp_discover p = {
		.chip_id = who->chip_id,
		.capacity = who->capacity,
		.dev_count = dev_count ? dev_count : 1,
		.gen = round,
		.mtu = who->mtu,
	};
	struct mp_frame f = {
		.op = op,
		.src = MP_ETH_DEV_ANY,
		.dst = MP_ETH_DEV_ANY,
		.gen = round,
		.len = MP_ETH_DISCOVER_LEN,
	};
	struct sk_buff *skb;

	ether_addr_copy(p.mac, who->mac);
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

/* Called with dc->lock held: is @p exactly the pool member we know? */
static struct mpe_dmember *mpe_disc_member(struct mpe_disc *dc,
					   const struct mp_discover *p)
{
	struct mpe_dmember *e;

	if (dc->state == CMM_MP_POOL_RUNTIME)
		e = mpe_disc_find(dc->pool, dc->nr_pool, p->mac);
	else
		e = mpe_disc_find(dc->heard, dc->nr_heard, p->mac);
	if (!e || e->chip_id != p->chip_id || e->capacity != p->capacity)
		return NULL;
	return e;
}

static u32 mpe_disc_count(const struct mpe_disc *dc)
{
	return dc->state == CMM_MP_POOL_RUNTIME ? dc->nr_pool : dc->nr_heard;
}

/**
 * mpe_disc_rcv() - a control frame arrived
 * @m: the transport
 * @skb: linear, data at the transport header
 * @f: its decoded header (a control opcode)
 *
 * Softirq. Everything here is untrusted: a frame that does not decode,
 * that describes another device than its sender without being a proxy
 * report, or that claims our own MAC is dropped and counted.
 */
void mpe_disc_rcv(struct mpe *m, struct sk_buff *skb, const struct mp_frame *f)
{
	const u8 *src = eth_hdr(skb)->h_source;
	/* pairs with the release in mpe_disc_start(): dc is initialized */
	struct mpe_disc *dc = smp_load_acquire(&m->disc);
	struct mpe_dmember *e, me;
	bool proxy, kick = false, reply = false;
	struct mp_discover p;
	u64 now = ktime_get_ns();
	u32 round = f->gen;

	if (mp_discover_decode(skb->data + MP_ETH_HDR_LEN, f->len, &p) ||
	    round == 0 || round > MPE_DISC_MAX_ROUND ||
	    ether_addr_equal(src, dc->self.mac) ||
	    ether_addr_equal(p.mac, dc->self.mac)) {
		atomic64_inc(&m->dropped);
		return;
	}
	proxy = !ether_addr_equal(p.mac, src);
	/* only a broadcast DISCOVER_ACK may speak for another device */
	if (proxy && (f->op != MP_ETH_OP_DISCOVER_ACK ||
		      !is_broadcast_ether_addr(eth_hdr(skb)->h_dest))) {
		atomic64_inc(&m->dropped);
		return;
	}

	spin_lock(&dc->lock);
	if (dc->stopping) {
		spin_unlock(&dc->lock);
		return;
	}
	if (round > dc->round) {
		/* a higher round is running: join it */
		mpe_disc_new_round(dc, round, now, "joined a newer round");
		kick = true;
	}
	if (dc->state == CMM_MP_POOL_DISCOVERY) {
		if (round == dc->round)
			mpe_disc_record(dc, &p, proxy, now);
		else if (f->op == MP_ETH_OP_DISCOVER)
			reply = true;	/* an older round: bring it here */
		goto out;
	}
	/* RUNTIME or CONFLICT: is this consistent with what we have? */
	e = proxy ? NULL : mpe_disc_member(dc, &p);
	if (proxy) {
		if (!mpe_disc_find(dc->pool, dc->nr_pool, p.mac) &&
		    dc->state == CMM_MP_POOL_RUNTIME) {
			mpe_disc_new_round(dc, dc->round + 1, now,
					   "a member we do not know was reported");
			kick = true;
		}
	} else if (round < dc->round || !e || e->lost) {
		mpe_disc_new_round(dc, dc->round + 1, now,
				   e && e->lost ? "a lost member came back" :
				   round < dc->round ?
				   "a device of an older generation spoke" :
				   "a new device appeared");
		kick = true;
	} else if (f->op == MP_ETH_OP_DISCOVER_ACK &&
		   p.dev_count != mpe_disc_count(dc)) {
		mpe_disc_new_round(dc, dc->round + 1, now,
				   "a member sees another number of devices");
		kick = true;
	} else {
		e->last_seen = now;
		/* a member still finishing our round: tell it we are here */
		reply = f->op == MP_ETH_OP_DISCOVER;
	}
out:
	me = dc->self;
	round = dc->round;
	p.dev_count = mpe_disc_count(dc);
	/* under the lock: mpe_disc_stop() sets stopping, then cancels */
	if (kick && !dc->stopping)
		mod_delayed_work(system_wq, &dc->work, 0);
	spin_unlock(&dc->lock);
	if (reply)
		mpe_disc_send(m, MP_ETH_OP_DISCOVER_ACK, src, &me, round,
			      p.dev_count, GFP_ATOMIC);
}

/* Close the data path for a round: nothing of the old generation flows. */
static void mpe_disc_close(struct mpe *m, u32 round, const char *why)
{
	struct mpe_memb mb;

	mpe_memb_get(m, &mb);
	if (mb.running)
		pr_info("discovery round %u (%s): data path closed\n", round,
			why);
	else
		pr_info("discovery round %u (%s)\n", round, why);
	mb.running = false;
	if (mpe_memb_set(m, &mb))
		pr_err("discovery: no memory to close the data path\n");
	mpe_transport_reset(m, -ENETRESET);
	mp_pool_update(CMM_MP_POOL_DISCOVERY, NULL, 0);
}

/* Report every pair of members that share a chip id. */
static void mpe_disc_report_dups(const struct mpe_dmember *v, u32 n, u32 round)
{
	u32 i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (v[i].chip_id == v[j].chip_id)
				pr_err("discovery round %u: duplicate chip id %#llx on %pM and %pM: no pool is formed until one of them leaves or changes its chip id\n",
				       round, v[i].chip_id, v[i].mac, v[j].mac);
}

/*
 * The round ended with members @v (ours among them, lost ones marked):
 * form the pool, or report why not. Process context.
 */
static void mpe_disc_finish(struct mpe *m, struct mpe_dmember *v, u32 n,
			    u32 round)
{
	struct mpe_disc *dc = m->disc;
	struct mp_member mm[MPE_MAX_DEVS];
	struct mpe_memb mb = { .running = true, .gen = round };
	struct mp_pamt *t;
	u32 i, lost = 0;
	int self, ret;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return;
	ret = n > MPE_MAX_DEVS ? -E2BIG : 0;
	for (i = 0; !ret && i < n; i++) {
		mm[i].chip_id = v[i].chip_id;
		mm[i].capacity = v[i].capacity;
		ether_addr_copy(mm[i].mac, v[i].mac);
	}
	if (!ret)
		ret = mp_pamt_build(t, mm, n, mp_local_seg_size(), round);
	if (ret) {
		if (ret == -EEXIST)
			mpe_disc_report_dups(v, n, round);
		else
			pr_err("discovery round %u: cannot build the pool map of %u devices: %d (at most %d devices, each at least one segment)\n",
			       round, n, ret, MPE_MAX_DEVS);
		spin_lock_bh(&dc->lock);
		if (dc->state == CMM_MP_POOL_DISCOVERY && dc->round == round) {
			dc->state = CMM_MP_POOL_CONFLICT;
			for (i = 0; i < dc->nr_heard; i++)
				dc->heard[i].last_seen = ktime_get_ns();
		}
		spin_unlock_bh(&dc->lock);
		mp_pool_update(CMM_MP_POOL_CONFLICT, NULL, 0);
		kfree(t);
		return;
	}
	for (i = 0; i < n; i++) {
		int id = mp_pamt_devid_of(t, v[i].chip_id);

		if (id >= 0 && v[i].lost) {
			t->dev[id].valid = false;
			lost++;
		}
	}
	self = mp_pamt_devid_of(t, dc->self.chip_id);
	mb.devid = self;
	mb.nr_devs = t->nr_devs;
	/* frames must fit the smallest MTU of the pool (protocol.rst) */
	for (i = 0; i < n; i++)
		if (!mb.mtu || v[i].mtu < mb.mtu)
			mb.mtu = v[i].mtu;
	for (i = 0; i < t->nr_devs; i++) {
		ether_addr_copy(mb.mac[i], t->dev[i].mac);
		if (t->dev[i].valid)
			mb.valid |= BIT(i);
	}

	spin_lock_bh(&dc->lock);
	if (dc->state != CMM_MP_POOL_DISCOVERY || dc->round != round) {
		/* a newer round started meanwhile: this one is moot */
		spin_unlock_bh(&dc->lock);
		kfree(t);
		return;
	}
	dc->state = CMM_MP_POOL_RUNTIME;
	for (i = 0; i < t->nr_devs; i++) {
		struct mpe_dmember *e = mpe_disc_find(v, n, t->dev[i].mac);

		dc->pool[i] = *e;
		dc->pool[i].last_seen = ktime_get_ns();
	}
	dc->nr_pool = t->nr_devs;
	spin_unlock_bh(&dc->lock);

	if (mp_pool_update(CMM_MP_POOL_RUNTIME, t, self))
		pr_err("discovery round %u: the pool device refused the map\n",
		       round);
	if (mpe_memb_set(m, &mb))
		pr_err("discovery: no memory to open the data path\n");
	pr_info("discovery round %u: pool formed, generation %u, %u devices (%u lost), %u segments; we are device %d\n",
		round, round, t->nr_devs, lost, t->nr_segs, self);
	kfree(t);
}

/*
 * Called with dc->lock held at the end of a round: the round's devices
 * plus the pool members nobody heard (lost), into @v. Returns the count.
 */
static u32 mpe_disc_outcome(struct mpe_disc *dc, struct mpe_dmember *v)
{
	u32 i, n = 0;

	for (i = 0; i < dc->nr_heard; i++)
		v[n++] = dc->heard[i];
	for (i = 0; i < dc->nr_pool && n < MPE_DISC_SLOTS; i++) {
		if (mpe_disc_find(v, n, dc->pool[i].mac))
			continue;
		v[n] = dc->pool[i];
		v[n++].lost = true;
	}
	return n;
}

static void mpe_disc_work(struct work_struct *w)
{
	struct mpe_disc *dc = container_of(to_delayed_work(w), struct mpe_disc,
					   work);
	struct mpe *m = dc->m;
	struct mpe_dmember *v = NULL, me;
	u32 n = 0, round, count, nr_proxy = 0, i;
	struct mpe_dmember proxy[MPE_MAX_DEVS];
	bool close, finish = false, send = false;
	u8 op = MP_ETH_OP_DISCOVER;
	char why[80];
	u64 now;

	spin_lock_bh(&dc->lock);
	now = ktime_get_ns();
	close = dc->need_close;
	dc->need_close = false;
	strscpy(why, dc->why, sizeof(why));
	if (dc->state == CMM_MP_POOL_DISCOVERY) {
		if (!dc->last_tx || now - dc->last_tx >= m->cfg.disc_interval) {
			send = true;
			dc->last_tx = now;
			/* speak for the lost members, so everyone keeps them */
			for (i = 0; i < dc->nr_pool; i++) {
				struct mpe_dmember *e = &dc->pool[i];

				if (!ether_addr_equal(e->mac, dc->self.mac) &&
				    !mpe_disc_find(dc->heard, dc->nr_heard,
						   e->mac))
					proxy[nr_proxy++] = *e;
			}
		}
		if (!close &&
		    ((now - dc->round_start >= m->cfg.disc_window &&
		      now - dc->last_change >= m->cfg.disc_quiet) ||
		     now - dc->round_start >= m->cfg.disc_max)) {
			v = kmalloc_array(MPE_DISC_SLOTS, sizeof(*v), GFP_ATOMIC);
			if (v) {
				n = mpe_disc_outcome(dc, v);
				finish = true;
			}
		}
	} else {
		struct mpe_dmember *t = dc->state == CMM_MP_POOL_RUNTIME ?
					dc->pool : dc->heard;
		u32 nt = mpe_disc_count(dc);

		if (now - dc->last_tx >= m->cfg.hb_interval) {
			send = true;
			op = MP_ETH_OP_DISCOVER_ACK;
			dc->last_tx = now;
		}
		for (i = 0; i < nt; i++) {
			if (t[i].lost || ether_addr_equal(t[i].mac, dc->self.mac) ||
			    now - t[i].last_seen < m->cfg.hb_timeout)
				continue;
			pr_info("discovery: chip %#llx (%pM) silent for %llu ms: lost\n",
				t[i].chip_id, t[i].mac,
				(now - t[i].last_seen) / NSEC_PER_MSEC);
			mpe_disc_new_round(dc, dc->round + 1, now,
					   "a member went silent");
			close = true;
			dc->need_close = false;
			strscpy(why, dc->why, sizeof(why));
			send = true;
			op = MP_ETH_OP_DISCOVER;
			dc->last_tx = now;
			break;
		}
	}
	me = dc->self;
	round = dc->round;
	count = mpe_disc_count(dc);
	spin_unlock_bh(&dc->lock);

	if (close)
		mpe_disc_close(m, round, why);
	if (send) {
		mpe_disc_send(m, op, m->ndev->broadcast, &me, round, count,
			      GFP_KERNEL);
		for (i = 0; i < nr_proxy; i++)
			mpe_disc_send(m, MP_ETH_OP_DISCOVER_ACK,
				      m->ndev->broadcast, &proxy[i], round,
				      count, GFP_KERNEL);
	}
	if (finish)
		mpe_disc_finish(m, v, n, round);
	kfree(v);

	spin_lock_bh(&dc->lock);
	if (!dc->stopping)
		queue_delayed_work(system_wq, &dc->work,
				   msecs_to_jiffies(MPE_DISC_TICK_MS));
	spin_unlock_bh(&dc->lock);
}

/**
 * mpe_disc_start() - take part in discovery
 * @m: the transport, receive handlers running
 *
 * Return: 0, -ENOMEM, or -EINVAL when the pool device has no DRAM.
 */
int mpe_disc_start(struct mpe *m)
{
	struct mpe_disc *dc;

	dc = kzalloc(sizeof(*dc), GFP_KERNEL);
	if (!dc)
		return -ENOMEM;
	spin_lock_init(&dc->lock);
	INIT_DELAYED_WORK(&dc->work, mpe_disc_work);
	dc->m = m;
	dc->self.chip_id = mp_pool_chip_id(m->ndev->dev_addr);
	dc->self.capacity = mp_local_size();
	ether_addr_copy(dc->self.mac, m->ndev->dev_addr);
	dc->self.mtu = max_t(u32, READ_ONCE(m->ndev->mtu),
			     MP_ETH_HDR_LEN + MP_ETH_DISCOVER_LEN);
	if (!dc->self.chip_id || !dc->self.capacity ||
	    !is_valid_ether_addr(dc->self.mac)) {
		pr_err("discovery needs a pool device and a unicast port address\n");
		kfree(dc);
		return -EINVAL;
	}
	spin_lock_bh(&dc->lock);
	mpe_disc_new_round(dc, 1, ktime_get_ns(), "start");
	spin_unlock_bh(&dc->lock);
	/* the receive handler sees it from now on */
	smp_store_release(&m->disc, dc);
	pr_info("discovery: chip id %#llx, %llu MiB, port %pM\n",
		dc->self.chip_id, dc->self.capacity >> 20, dc->self.mac);
	queue_delayed_work(system_wq, &dc->work, 0);
	return 0;
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
