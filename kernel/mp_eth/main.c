// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: remote pool memory over raw Ethernet - module entry, the
 * configuration (module parameters), the membership the data path works
 * with (a static table from peers=, or what discovery found) and the
 * backend the pool device calls.
 *
 * Documentation/mp_eth.rst describes the parameters and the test device,
 * Documentation/protocol.rst the wire protocol.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/cmm_mp.h>
#include <linux/cmm_mp_backend.h>
#include <linux/mp_eth_test.h>
#include <asm/unaligned.h>

#include "mp_eth.h"

static char *netdev = "eth0";
module_param(netdev, charp, 0444);
MODULE_PARM_DESC(netdev, "backend port (default eth0)");

static ushort devid;
module_param(devid, ushort, 0444);
MODULE_PARM_DESC(devid, "this device's id: its index in peers= (static table only)");

static char *peers;
module_param(peers, charp, 0444);
MODULE_PARM_DESC(peers, "static MAC table indexed by device id: MAC0,MAC1,... (ours included); empty (default): discovery");

static uint max_devs = 1024;
module_param(max_devs, uint, 0444);
MODULE_PARM_DESC(max_devs, "the largest pool: entries of peers=, devices discovery takes (at most the pool map's limit); a peer's state is allocated only once a pool has it (default 1024)");

static ushort ethertype_data = MP_ETH_P_DATA;
module_param(ethertype_data, ushort, 0444);
MODULE_PARM_DESC(ethertype_data, "EtherType of the data path (default 0x88B5)");

static ushort ethertype_ctrl = MP_ETH_P_CTRL;
module_param(ethertype_ctrl, ushort, 0444);
MODULE_PARM_DESC(ethertype_ctrl, "EtherType of the control path (default 0x88B6)");

static ushort start_sn;
module_param(start_sn, ushort, 0444);
MODULE_PARM_DESC(start_sn, "first sequence number towards every peer (tests: 0xFFF0 crosses the wrap)");

static uint gen = 1;
module_param(gen, uint, 0444);
MODULE_PARM_DESC(gen, "pool membership generation (default 1)");

static uint mtu;
module_param(mtu, uint, 0444);
MODULE_PARM_DESC(mtu, "largest L2 payload to use (default 0: the port's MTU)");

static uint entries = MP_RIFT_WINDOW;
module_param(entries, uint, 0444);
MODULE_PARM_DESC(entries, "RIFT entries per destination, at most its window of 64 (default 64)");

static uint window_frames;
module_param(window_frames, uint, 0444);
MODULE_PARM_DESC(window_frames, "frames in flight per destination, a read counting each part it expects and a write each part it sends; keep it below the receive rings of both ends (default 0: three quarters of the port's receive ring, at least 64, at most 512; reads back as the value in use)");

static uint rto_initial_us = MP_RIFT_RTO_INITIAL / NSEC_PER_USEC;
module_param(rto_initial_us, uint, 0444);
MODULE_PARM_DESC(rto_initial_us, "retransmission timeout before a round trip is measured, in us (default 50000)");

/* 0 stands for rto_initial_us: the same default as mp_rift's */
static_assert(MP_RIFT_RTO_MIN == MP_RIFT_RTO_INITIAL, "rto_min default");
static uint rto_min_us;
module_param(rto_min_us, uint, 0444);
MODULE_PARM_DESC(rto_min_us, "floor of the measured retransmission timeout in us (default 0: rto_initial_us)");

static uint rto_max_us = MP_RIFT_RTO_MAX / NSEC_PER_USEC;
module_param(rto_max_us, uint, 0444);
MODULE_PARM_DESC(rto_max_us, "retransmission timeout cap in us (default 800000)");

static uint max_retries = MP_RIFT_MAX_RETRIES;
module_param(max_retries, uint, 0444);
MODULE_PARM_DESC(max_retries, "failure budget: a request fails after the time this many retransmissions take at rto_initial_us, doubling up to rto_max_us (default 4: 1.55 s)");

static uint probe_interval_ms = MP_RIFT_PROBE_INTERVAL / NSEC_PER_MSEC;
module_param(probe_interval_ms, uint, 0444);
MODULE_PARM_DESC(probe_interval_ms, "unreachable peer: one probe request this often (default 1000)");

static uint poll_us;
module_param(poll_us, uint, 0444);
MODULE_PARM_DESC(poll_us, "a transfer busy-polls the receive queue for its responses until none came for this long, then sleeps (default 0: sleep at once; benchmarks: 2000)");

static uint disc_interval_ms = 200;
module_param(disc_interval_ms, uint, 0444);
MODULE_PARM_DESC(disc_interval_ms, "discovery: a round broadcasts DISCOVER this often (default 200)");

static uint disc_window_ms = 1000;
module_param(disc_window_ms, uint, 0444);
MODULE_PARM_DESC(disc_window_ms, "discovery: a round listens at least this long, and until nothing new came for 3 intervals (default 1000)");

static uint disc_max_ms = 10000;
module_param(disc_max_ms, uint, 0444);
MODULE_PARM_DESC(disc_max_ms, "discovery: a round ends after this long whatever it hears (default 10000)");

static uint hb_interval_ms = 500;
module_param(hb_interval_ms, uint, 0444);
MODULE_PARM_DESC(hb_interval_ms, "discovery: members send heartbeats (to log2 N others) this often (default 500)");

static uint hb_timeout_ms = 3000;
module_param(hb_timeout_ms, uint, 0444);
MODULE_PARM_DESC(hb_timeout_ms, "discovery: a member silent this long is lost and a new round starts (default 3000)");

static uint replay_window_ms = MP_REPLAY_WINDOW / NSEC_PER_MSEC;
module_param(replay_window_ms, uint, 0444);
MODULE_PARM_DESC(replay_window_ms, "pool key: a tagged frame whose stamp is further than this from our clock is refused, 0: stamps unchecked (default 30000)");

static struct mpe *mpe_dev;

/* The largest transport payload the port can receive. */
u32 mpe_rx_payload(struct mpe *m)
{
	return READ_ONCE(m->rx_payload);
}

/* The largest L2 payload we send on the port: its MTU, capped by mtu=. */
u32 mpe_port_l2(struct mpe *m)
{
	u32 l2 = READ_ONCE(m->port_mtu);

	return m->cfg.mtu && m->cfg.mtu < l2 ? m->cfg.mtu : l2;
}

/*
 * The largest payload we send: what the port carries, capped by mtu= and
 * by the smallest MTU of the pool's members (discovery).
 */
u32 mpe_max_payload(struct mpe *m)
{
	u32 l2 = mpe_port_l2(m), pool;

	rcu_read_lock();
	pool = rcu_dereference(m->memb)->mtu;
	rcu_read_unlock();
	if (pool && pool < l2)
		l2 = pool;
	/* room for the authentication trailer whenever a key is held */
	l2 -= min(l2, mpe_auth_overhead(m));
	return l2 > MP_ETH_HDR_LEN ? l2 - MP_ETH_HDR_LEN : 1;
}

/* Called under RTNL or before the handlers run. */
static void mpe_update_mtu(struct mpe *m)
{
	u32 l2 = m->ndev->mtu;

	WRITE_ONCE(m->port_mtu, l2);
	WRITE_ONCE(m->rx_payload, l2 > MP_ETH_HDR_LEN ? l2 - MP_ETH_HDR_LEN : 1);
}

static int mpe_parse_peers(struct mpe_config *c, const char *list)
{
	char *dup, *s, *tok;
	const char *p;
	u32 n = 1;
	int ret = 0;

	for (p = list; *p; p++)
		n += *p == ',';
	if (n > c->max_devs) {
		pr_err("peers=: %u devices, max_devs is %u\n", n, c->max_devs);
		return -EINVAL;
	}
	c->mac = kcalloc(n, ETH_ALEN, GFP_KERNEL);
	dup = kstrdup(list, GFP_KERNEL);
	if (!dup || !c->mac) {
		kfree(dup);
		return -ENOMEM;
	}
	s = dup;
	c->nr_devs = 0;
	while ((tok = strsep(&s, ",")) != NULL) {
		if (!mac_pton(tok, c->mac[c->nr_devs]) ||
		    !is_valid_ether_addr(c->mac[c->nr_devs])) {
			pr_err("peers=: '%s' is not a unicast MAC address\n",
			       tok);
			ret = -EINVAL;
			break;
		}
		c->nr_devs++;
	}
	kfree(dup);
	return ret;
}

static int mpe_config_init(struct mpe_config *c)
{
	u64 fail;
	int ret;

	strscpy(c->netdev, netdev, sizeof(c->netdev));
	c->discovery = !peers || !*peers;
	if (!max_devs || max_devs > MP_ETH_DEV_GONE) {
		pr_err("max_devs must be 1..%u\n", MP_ETH_DEV_GONE);
		return -EINVAL;
	}
	c->max_devs = max_devs;
	c->disc_interval = (u64)disc_interval_ms * NSEC_PER_MSEC;
	c->disc_window = (u64)disc_window_ms * NSEC_PER_MSEC;
	c->disc_quiet = 3 * c->disc_interval;
	c->disc_max = (u64)disc_max_ms * NSEC_PER_MSEC;
	c->hb_interval = (u64)hb_interval_ms * NSEC_PER_MSEC;
	c->hb_timeout = (u64)hb_timeout_ms * NSEC_PER_MSEC;
	if (c->discovery) {
		if (!disc_interval_ms || disc_window_ms < disc_interval_ms ||
		    disc_max_ms < disc_window_ms || !hb_interval_ms ||
		    hb_timeout_ms < 2 * hb_interval_ms) {
			pr_err("need 0 < disc_interval_ms <= disc_window_ms <= disc_max_ms and 0 < 2 * hb_interval_ms <= hb_timeout_ms\n");
			return -EINVAL;
		}
		if (devid)
			pr_info("devid=%u ignored: discovery assigns device ids\n",
				devid);
	} else {
		ret = mpe_parse_peers(c, peers);
		if (ret)
			return ret;
	}
	if (!c->discovery && devid >= c->nr_devs) {
		pr_err("devid=%u is not an index of peers= (%u entries)\n",
		       devid, c->nr_devs);
		return -EINVAL;
	}
	if (ethertype_data < ETH_P_802_3_MIN || ethertype_ctrl < ETH_P_802_3_MIN ||
	    ethertype_data == ethertype_ctrl) {
		pr_err("ethertype_data/ethertype_ctrl must be distinct EtherTypes >= 0x600\n");
		return -EINVAL;
	}
	c->devid = devid;
	c->etype_data = ethertype_data;
	c->etype_ctrl = ethertype_ctrl;
	c->gen = gen;
	c->start_sn = start_sn;
	c->mtu = mtu;
	c->entries = entries;
	c->poll_ns = (u64)poll_us * NSEC_PER_USEC;
	if (!entries || entries > MP_RIFT_MAX_ENTRIES) {
		pr_err("entries must be 1..%u\n", MP_RIFT_MAX_ENTRIES);
		return -EINVAL;
	}
	c->window_frames = window_frames;
	if (window_frames > MP_RIFT_MAX_ENTRIES * MP_ETH_READ_PARTS) {
		pr_err("window_frames must be 0..%u\n",
		       MP_RIFT_MAX_ENTRIES * MP_ETH_READ_PARTS);
		return -EINVAL;
	}
	c->rift.rto_initial = (u64)rto_initial_us * NSEC_PER_USEC;
	/* a setup that shortens the first timeout means the floor too */
	c->rift.rto_min = (u64)(rto_min_us ? rto_min_us : rto_initial_us) *
			  NSEC_PER_USEC;
	c->rift.rto_max = (u64)rto_max_us * NSEC_PER_USEC;
	c->rift.max_retries = max_retries;
	c->rift.probe_interval = (u64)probe_interval_ms * NSEC_PER_MSEC;
	if (!c->rift.rto_initial || c->rift.rto_max < c->rift.rto_initial ||
	    !c->rift.rto_min || c->rift.rto_max < c->rift.rto_min ||
	    max_retries > MP_RIFT_MAX_RETRIES_LIMIT) {
		pr_err("need 0 < rto_initial_us <= rto_max_us, rto_min_us <= rto_max_us and max_retries <= %u\n",
		       MP_RIFT_MAX_RETRIES_LIMIT);
		return -EINVAL;
	}
	/* The responder may only give up on holes the requester gave up on. */
	fail = mp_rift_fail_time(&c->rift);
	c->gap_timeout = max_t(u64, MP_WINDOW_GAP_TIMEOUT,
			       fail + fail / 4 + 100 * NSEC_PER_MSEC);
	return 0;
}

/*
 * The first membership: none with discovery, the static table of peers=
 * otherwise (running from the start, every device valid; chip ids by
 * mpe_memb_chips()).
 */
static int mpe_memb_init(struct mpe *m)
{
	struct mpe_memb *mb;
	unsigned int i;

	mb = mpe_memb_alloc(m->cfg.discovery ? 0 : m->cfg.nr_devs, GFP_KERNEL);
	if (!mb)
		return -ENOMEM;
	if (m->cfg.discovery) {
		mb->devid = MP_ETH_DEV_ANY;
	} else {
		mb->running = true;
		mb->gen = m->cfg.gen;
		mb->devid = m->cfg.devid;
		for (i = 0; i < m->cfg.nr_devs; i++) {
			ether_addr_copy(mb->dev[i].mac, m->cfg.mac[i]);
			mb->dev[i].valid = true;
		}
	}
	return mpe_memb_set(m, mb);
}

/*
 * The chip ids of a static table: each peer's is its MAC as a number (the
 * default chip id of its pool device), ours our pool device's own. Before
 * the data path starts: nothing reads the table yet.
 */
static void mpe_memb_chips(struct mpe *m)
{
	struct mpe_memb *mb = rcu_dereference_protected(m->memb, true);
	unsigned int i;

	if (m->cfg.discovery)
		return;
	for (i = 0; i < m->cfg.nr_devs; i++)
		mb->dev[i].chip = ether_addr_to_u64(m->cfg.mac[i]);
	mb->dev[m->cfg.devid].chip = mp_pool_chip_id(m->ndev->dev_addr);
}

static int mpe_backend_read(void *priv, u16 dst, u64 offset,
			    struct iov_iter *to)
{
	return mpe_xfer(priv, MP_ETH_OP_READ_REQ, dst, offset, to);
}

static int mpe_backend_write(void *priv, u16 dst, u64 offset,
			     struct iov_iter *from)
{
	return mpe_xfer(priv, MP_ETH_OP_WRITE_REQ, dst, offset, from);
}

static int mpe_backend_write_many(void *priv, u32 n, const u16 *dst,
				  const u64 *offset, struct iov_iter *from,
				  int *res)
{
	return mpe_write_many(priv, n, dst, offset, from, res);
}

static int mpe_backend_submit(void *priv, struct mp_backend_io *io)
{
	return mpe_xfer_submit(priv, io);
}

/*
 * The wire carries the pool's ownership commands and key operations with
 * the same numbers (uapi mp_eth.h, mp_eth_test.h): no translation table.
 */
static_assert((int)MP_ETH_OWN_QUERY == (int)MP_OWN_QUERY &&
	      (int)MP_ETH_OWN_CLAIM == (int)MP_OWN_CLAIM &&
	      (int)MP_ETH_OWN_RELEASE == (int)MP_OWN_RELEASE &&
	      (int)MP_ETH_OWN_SHARE == (int)MP_OWN_SHARE &&
	      (int)MP_ETH_OWN_UNSHARE == (int)MP_OWN_UNSHARE);
static_assert((int)MPE_KEY_SET == (int)CMM_MP_KEY_SET &&
	      (int)MPE_KEY_ACCEPT == (int)CMM_MP_KEY_ACCEPT &&
	      (int)MPE_KEY_CLEAR == (int)CMM_MP_KEY_CLEAR &&
	      MPE_KEY_LEN == CMM_MP_KEY_LEN);

static int mpe_backend_set_key(void *priv, u32 op, u32 id, const u8 *key)
{
	return mpe_auth_set(priv, op, id, key);
}

static int mpe_backend_peer_stats(void *priv, unsigned int idx,
				  struct mp_backend_peer *p)
{
	struct mpe *m = priv;
	u16 self, nr;

	/* every device of the table but ourselves */
	memset(p, 0, sizeof(*p));
	rcu_read_lock();
	self = rcu_dereference(m->memb)->devid;
	nr = rcu_dereference(m->memb)->nr_devs;
	if (idx >= self)
		idx++;
	if (idx < nr)
		ether_addr_copy(p->mac, rcu_dereference(m->memb)->dev[idx].mac);
	rcu_read_unlock();
	if (idx >= nr)
		return -ENOENT;
	p->id = idx;
	mpe_peer_stats(m, idx, &p->st, &p->inflight, &p->reachable);
	return 0;
}

static const struct mp_backend_ops mpe_backend_ops = {
	.name		= "mp_eth",
	.owner		= THIS_MODULE,
	.read		= mpe_backend_read,
	.write		= mpe_backend_write,
	.write_many	= mpe_backend_write_many,
	.peer_stats	= mpe_backend_peer_stats,
	.own		= mpe_own,
	.set_key	= mpe_backend_set_key,
	.submit		= mpe_backend_submit,
};

/*
 * Called under RTNL: let go of the port, for good. The receive handlers
 * go first; senders test port_gone under RCU (tx.c), so once a grace
 * period has passed nobody touches the port any more and its reference
 * can be dropped: unregistering it (ip link del, a hot-unplugged device)
 * completes instead of waiting for mp_eth to be unloaded. Requests in
 * flight time out; discovery loses every member.
 */
static void mpe_port_release(struct mpe *m)
{
	ASSERT_RTNL();
	mpe_rx_stop(m);
	WRITE_ONCE(m->port_gone, true);
	synchronize_net();
	netdev_put(m->ndev, &m->ndev_tracker);
}

/* Let go of the port unless the notifier did already (init's unwind, exit). */
static void mpe_port_detach(struct mpe *m)
{
	rtnl_lock();
	if (!m->port_gone)
		mpe_port_release(m);
	rtnl_unlock();
}

static int mpe_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct mpe *m = container_of(nb, struct mpe, nb);

	if (dev != m->ndev || READ_ONCE(m->port_gone))
		return NOTIFY_DONE;
	if (event == NETDEV_UNREGISTER) {
		pr_warn("%s: the port goes away: the transport stops (frames are neither sent nor received; unload mp_eth)\n",
			dev->name);
		mpe_port_release(m);
		return NOTIFY_DONE;
	}
	/*
	 * Its MTU must not change
	 * under the pool either: peers size their frames by what it was when
	 * the pool formed (a smaller one would drop their frames, a larger
	 * one they do not know about), so the change is refused.
	 */
	if (event == NETDEV_PRECHANGEMTU) {
		pr_err("%s: MTU change refused: mp_eth sends frames of up to %u bytes on it; unload mp_eth, change the MTU, load mp_eth again\n",
		       dev->name, mpe_max_payload(m) + MP_ETH_HDR_LEN);
		return notifier_from_errno(-EBUSY);
	}
	if (event == NETDEV_CHANGEMTU) {
		/* not through dev_set_mtu(): follow it */
		mpe_update_mtu(m);
		pr_info("%s: MTU %u, %u bytes per frame\n", dev->name,
			dev->mtu, mpe_max_payload(m));
	}
	return NOTIFY_DONE;
}

static int __init mpe_init(void)
{
	struct mpe *m;
	int ret;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	atomic64_set(&m->dropped, 0);
	/* struct mpe_drops: zeroed by kzalloc() */
	mutex_init(&m->memb_mutex);
	mutex_init(&m->key_mutex);
	spin_lock_init(&m->replay_lock);
	mp_replay_init(&m->replay, (u64)replay_window_ms * NSEC_PER_MSEC);
	ret = mpe_config_init(&m->cfg);
	if (ret)
		goto err_free;
	ret = mpe_peers_init(m);
	if (ret)
		goto err_free;
	if (!mp_local_size()) {
		pr_err("no pool device DRAM: load cmm_mp with mem= first\n");
		ret = -ENODEV;
		goto err_free;
	}
	m->ndev = dev_get_by_name(&init_net, m->cfg.netdev);
	if (!m->ndev) {
		pr_err("netdev=%s: no such device\n", m->cfg.netdev);
		ret = -ENODEV;
		goto err_free;
	}
	netdev_tracker_alloc(m->ndev, &m->ndev_tracker, GFP_KERNEL);
	rtnl_lock();
	mpe_update_mtu(m);
	/* the peers' RIFTs are sized with it: before the first membership */
	m->cfg.window_frames = mpe_window_frames(m);
	rtnl_unlock();
	/* what is in use, for whoever reads the parameter */
	window_frames = m->cfg.window_frames;
	ret = mpe_memb_init(m);
	if (ret)
		goto err_put;
	mpe_memb_chips(m);
	if (!m->cfg.discovery &&
	    !ether_addr_equal(m->ndev->dev_addr, m->cfg.mac[m->cfg.devid]))
		pr_info("%s has %pM, peers= lists %pM for devid %u\n",
			m->cfg.netdev, m->ndev->dev_addr,
			m->cfg.mac[m->cfg.devid], m->cfg.devid);
	m->nb.notifier_call = mpe_netdev_event;
	/* the handlers are in place before the notifier may remove them */
	mpe_rx_start(m);
	ret = register_netdevice_notifier(&m->nb);
	if (ret) {
		mpe_rx_stop(m);
		goto err_put;
	}
	/* a port unregistered before the notifier was there: give up */
	rtnl_lock();
	if (m->ndev->reg_state != NETREG_REGISTERED)
		ret = -ENODEV;
	rtnl_unlock();
	if (ret)
		goto err_rx;
	ret = mp_backend_register(&mpe_backend_ops, m);
	if (ret) {
		pr_err("cannot register as the pool device's backend: %d\n", ret);
		goto err_rx;
	}
	ret = mpe_testdev_init(m);
	if (ret)
		goto err_backend;
	if (m->cfg.discovery) {
		ret = mpe_disc_start(m);
		if (ret)
			goto err_testdev;
		pr_info("discovery on %s, %u bytes per frame, %u frames in flight per peer, EtherTypes %#06x/%#06x, a dead peer fails after %llu ms\n",
			m->cfg.netdev, mpe_max_payload(m),
			m->cfg.window_frames, m->cfg.etype_data,
			m->cfg.etype_ctrl,
			mp_rift_fail_time(&m->cfg.rift) / NSEC_PER_MSEC);
	} else {
		pr_info("device %u of %u on %s, %u bytes per frame, %u frames in flight per peer, EtherTypes %#06x/%#06x, first SN %#06x, a dead peer fails after %llu ms\n",
			m->cfg.devid, m->cfg.nr_devs, m->cfg.netdev,
			mpe_max_payload(m), m->cfg.window_frames,
			m->cfg.etype_data,
			m->cfg.etype_ctrl, m->cfg.start_sn,
			mp_rift_fail_time(&m->cfg.rift) / NSEC_PER_MSEC);
	}
	mpe_dev = m;
	return 0;

err_testdev:
	mpe_testdev_exit();
err_backend:
	mp_backend_unregister(&mpe_backend_ops);
err_rx:
	mpe_port_detach(m);
	unregister_netdevice_notifier(&m->nb);
err_put:
	if (!m->port_gone)
		netdev_put(m->ndev, &m->ndev_tracker);
err_free:
	mpe_peers_exit(m);
	kfree(rcu_access_pointer(m->memb));
	kfree(m->cfg.mac);
	kfree(m);
	return ret;
}

static void __exit mpe_exit(void)
{
	struct mpe *m = mpe_dev;

	/* no caller left: the test device is closed, the backend unhooked */
	mpe_testdev_exit();
	/* no more rounds: the pool view goes back to the local device */
	mpe_disc_stop(m);
	mp_backend_unregister(&mpe_backend_ops);
	mpe_port_detach(m);
	unregister_netdevice_notifier(&m->nb);
	mpe_peers_exit(m);
	mpe_auth_exit(m);
	mpe_disc_free(m);
	kfree(rcu_access_pointer(m->memb));
	kfree(m->cfg.mac);
	kfree(m);
}

module_init(mpe_init);
module_exit(mpe_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("cmm-mp developers");
MODULE_DESCRIPTION("CMM-MP remote memory transport over raw Ethernet");
