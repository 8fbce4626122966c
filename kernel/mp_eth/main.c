// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: remote pool memory over raw Ethernet - module entry, the
 * configuration (module parameters until discovery fills it) and the
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

#include "mp_eth.h"
#include "../cmm_mp/backend.h"

static char *netdev = "eth0";
module_param(netdev, charp, 0444);
MODULE_PARM_DESC(netdev, "backend port (default eth0)");

static ushort devid;
module_param(devid, ushort, 0444);
MODULE_PARM_DESC(devid, "this device's id: its index in peers=");

static char *peers;
module_param(peers, charp, 0444);
MODULE_PARM_DESC(peers, "MAC table indexed by device id: MAC0,MAC1,... (ours included)");

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

static uint entries = MP_RIFT_DEFAULT_ENTRIES;
module_param(entries, uint, 0444);
MODULE_PARM_DESC(entries, "RIFT entries (default 256)");

static uint rto_initial_us = MP_RIFT_RTO_INITIAL / NSEC_PER_USEC;
module_param(rto_initial_us, uint, 0444);
MODULE_PARM_DESC(rto_initial_us, "first retransmission timeout in us (default 50000)");

static uint rto_max_us = MP_RIFT_RTO_MAX / NSEC_PER_USEC;
module_param(rto_max_us, uint, 0444);
MODULE_PARM_DESC(rto_max_us, "retransmission timeout cap in us (default 800000)");

static uint max_retries = MP_RIFT_MAX_RETRIES;
module_param(max_retries, uint, 0444);
MODULE_PARM_DESC(max_retries, "retransmissions before a request fails (default 4)");

static uint probe_interval_ms = MP_RIFT_PROBE_INTERVAL / NSEC_PER_MSEC;
module_param(probe_interval_ms, uint, 0444);
MODULE_PARM_DESC(probe_interval_ms, "unreachable peer: one probe request this often (default 1000)");

static uint poll_us;
module_param(poll_us, uint, 0444);
MODULE_PARM_DESC(poll_us, "a one-frame request busy-polls this long for its response before sleeping (default 0)");

static struct mpe *mpe_dev;

u32 mpe_max_payload(struct mpe *m)
{
	return READ_ONCE(m->max_payload);
}

/* Called under RTNL or before the handlers run. */
static void mpe_update_mtu(struct mpe *m)
{
	u32 l2 = m->ndev->mtu;

	if (m->cfg.mtu && m->cfg.mtu < l2)
		l2 = m->cfg.mtu;
	if (l2 <= MP_ETH_HDR_LEN) {
		WRITE_ONCE(m->max_payload, 1);
		return;
	}
	WRITE_ONCE(m->max_payload, l2 - MP_ETH_HDR_LEN);
}

static int mpe_parse_peers(struct mpe_config *c, const char *list)
{
	char *dup, *s, *tok;
	int ret = 0;

	if (!list || !*list) {
		pr_err("peers= is required: the MAC table, e.g. peers=52:54:00:6d:70:01,52:54:00:6d:70:02\n");
		return -EINVAL;
	}
	dup = kstrdup(list, GFP_KERNEL);
	if (!dup)
		return -ENOMEM;
	s = dup;
	c->nr_devs = 0;
	while ((tok = strsep(&s, ",")) != NULL) {
		if (c->nr_devs == MPE_MAX_DEVS) {
			pr_err("peers=: at most %d devices\n", MPE_MAX_DEVS);
			ret = -EINVAL;
			break;
		}
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
	ret = mpe_parse_peers(c, peers);
	if (ret)
		return ret;
	if (devid >= c->nr_devs) {
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
	c->rift.rto_initial = (u64)rto_initial_us * NSEC_PER_USEC;
	c->rift.rto_max = (u64)rto_max_us * NSEC_PER_USEC;
	c->rift.max_retries = max_retries;
	c->rift.probe_interval = (u64)probe_interval_ms * NSEC_PER_MSEC;
	if (!c->rift.rto_initial || c->rift.rto_max < c->rift.rto_initial ||
	    max_retries > MP_RIFT_MAX_RETRIES_LIMIT) {
		pr_err("need 0 < rto_initial_us <= rto_max_us and max_retries <= %u\n",
		       MP_RIFT_MAX_RETRIES_LIMIT);
		return -EINVAL;
	}
	/* The responder may only give up on holes the requester gave up on. */
	fail = mp_rift_fail_time(&c->rift);
	c->gap_timeout = max_t(u64, MP_WINDOW_GAP_TIMEOUT,
			       fail + fail / 4 + 100 * NSEC_PER_MSEC);
	return 0;
}

static int mpe_backend_read(void *priv, u16 dst, u64 offset, void *buf,
			    u32 len)
{
	return mpe_xfer(priv, MP_ETH_OP_READ_REQ, dst, offset, buf, len);
}

static int mpe_backend_write(void *priv, u16 dst, u64 offset,
			     const void *buf, u32 len)
{
	/* the transport only reads from buf for a write */
	return mpe_xfer(priv, MP_ETH_OP_WRITE_REQ, dst, offset, (void *)buf,
			len);
}

static int mpe_backend_peer_stats(void *priv, unsigned int idx,
				  struct mp_backend_peer *p)
{
	struct mpe *m = priv;

	/* every device of the table but ourselves */
	if (idx >= m->cfg.devid)
		idx++;
	if (idx >= m->cfg.nr_devs)
		return -ENOENT;
	memset(p, 0, sizeof(*p));
	p->id = idx;
	ether_addr_copy(p->mac, m->cfg.mac[idx]);
	mpe_peer_stats(m, idx, &p->st, &p->inflight, &p->reachable);
	return 0;
}

static const struct mp_backend_ops mpe_backend_ops = {
	.name		= "mp_eth",
	.owner		= THIS_MODULE,
	.read		= mpe_backend_read,
	.write		= mpe_backend_write,
	.peer_stats	= mpe_backend_peer_stats,
};

static int mpe_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct mpe *m = container_of(nb, struct mpe, nb);

	if (dev != m->ndev)
		return NOTIFY_DONE;
	/*
	 * The module holds a reference on the port: it cannot be
	 * unregistered before mp_eth is unloaded.
	 */
	if (event == NETDEV_CHANGEMTU) {
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
	ret = mpe_config_init(&m->cfg);
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
	if (!ether_addr_equal(m->ndev->dev_addr, m->cfg.mac[m->cfg.devid]))
		pr_info("%s has %pM, peers= lists %pM for devid %u\n",
			m->cfg.netdev, m->ndev->dev_addr,
			m->cfg.mac[m->cfg.devid], m->cfg.devid);
	rtnl_lock();
	mpe_update_mtu(m);
	rtnl_unlock();

	ret = mpe_requester_init(m);
	if (ret)
		goto err_put;
	mpe_responder_init(m);

	m->nb.notifier_call = mpe_netdev_event;
	ret = register_netdevice_notifier(&m->nb);
	if (ret)
		goto err_requester;
	mpe_rx_start(m);
	ret = mp_backend_register(&mpe_backend_ops, m);
	if (ret) {
		pr_err("cannot register as the pool device's backend: %d\n", ret);
		goto err_rx;
	}
	ret = mpe_testdev_init(m);
	if (ret)
		goto err_backend;
	mpe_dev = m;
	pr_info("device %u of %u on %s, %u bytes per frame, EtherTypes %#06x/%#06x, first SN %#06x, a dead peer fails after %llu ms\n",
		m->cfg.devid, m->cfg.nr_devs, m->cfg.netdev,
		mpe_max_payload(m), m->cfg.etype_data, m->cfg.etype_ctrl,
		m->cfg.start_sn, mp_rift_fail_time(&m->cfg.rift) / NSEC_PER_MSEC);
	return 0;

err_backend:
	mp_backend_unregister(&mpe_backend_ops);
err_rx:
	mpe_rx_stop(m);
	unregister_netdevice_notifier(&m->nb);
err_requester:
	mpe_requester_exit(m);
err_put:
	netdev_put(m->ndev, &m->ndev_tracker);
err_free:
	kfree(m);
	return ret;
}

static void __exit mpe_exit(void)
{
	struct mpe *m = mpe_dev;

	/* no caller left: the test device is closed, the backend unhooked */
	mpe_testdev_exit();
	mp_backend_unregister(&mpe_backend_ops);
	mpe_rx_stop(m);
	unregister_netdevice_notifier(&m->nb);
	mpe_requester_exit(m);
	netdev_put(m->ndev, &m->ndev_tracker);
	kfree(m);
}

module_init(mpe_init);
module_exit(mpe_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("cmm-mp developers");
MODULE_DESCRIPTION("CMM-MP remote memory transport over raw Ethernet");
