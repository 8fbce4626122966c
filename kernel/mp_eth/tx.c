// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: building and sending frames.
 *
 * A frame is allocated with room for the link-layer header in front and
 * for Ethernet padding behind; the caller fills the payload
 * (mpe_frame_payload()) before or after mpe_frame_send() encodes the
 * transport header, which is only known once the RIFT gave it a sequence
 * number and a tag. With a pool key, mpe_frame_prep() appends the
 * authentication trailer (auth.c).
 *
 * Frames go out in batches (mpe_xmit()): where the port has its default
 * queueing discipline they are handed to the driver directly with
 * xmit_more, one doorbell per batch, a batch of one frame too, as
 * AF_PACKET's PACKET_QDISC_BYPASS does (and, as with it, packet sockets
 * on this host do not see them: capture on the peer or the bridge); a
 * qdisc the administrator configured (netem, say) gets every frame
 * through dev_queue_xmit().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <net/sch_generic.h>

#include "mp_eth.h"
#include "mp_eth_trace.h"

/**
 * mpe_frame_alloc() - a frame with room for the header and @payload bytes
 * @m: the transport
 * @payload: payload bytes the frame will carry
 * @gfp: allocation flags
 *
 * Return: the skb, its data at the transport header, or NULL.
 */
struct sk_buff *mpe_frame_alloc(struct mpe *m, u32 payload, gfp_t gfp)
{
	unsigned int hlen, tlen;
	struct sk_buff *skb;

	rcu_read_lock();
	if (READ_ONCE(m->port_gone)) {
		rcu_read_unlock();
		return NULL;
	}
	hlen = LL_RESERVED_SPACE(m->ndev);
	tlen = m->ndev->needed_tailroom;
	rcu_read_unlock();
	skb = alloc_skb(hlen + MP_ETH_HDR_LEN + payload + ETH_ZLEN + tlen, gfp);
	if (!skb)
		return NULL;
	skb_reserve(skb, hlen);
	skb_reset_network_header(skb);
	skb_put(skb, MP_ETH_HDR_LEN + payload);
	return skb;
}

u8 *mpe_frame_payload(struct sk_buff *skb)
{
	return skb_network_header(skb) + MP_ETH_HDR_LEN;
}

/* The destination MAC of data frame @f, or -ESTALE (another generation). */
static int mpe_frame_dst(struct mpe *m, const struct mp_frame *f, u8 *dst_mac)
{
	const struct mpe_memb *mb;
	int ret = 0;

	rcu_read_lock();
	mb = rcu_dereference(m->memb);
	/* a frame built for another generation must not go out */
	if (f->dst >= mb->nr_devs || f->gen != mb->gen)
		ret = -ESTALE;
	else
		ether_addr_copy(dst_mac, mb->dev[f->dst].mac);
	rcu_read_unlock();
	return ret;
}

/**
 * mpe_frame_prep() - encode @f into @skb's header, address and sign it
 * @m: the transport
 * @skb: from mpe_frame_alloc(), payload filled in
 * @f: the header
 * @dst_mac: destination address, NULL: that of data frame @f's dst
 *
 * Return: 0 (@skb ready for mpe_xmit()), or -errno with @skb freed:
 * -ESTALE for a data frame of another generation than the current one.
 */
int mpe_frame_prep(struct mpe *m, struct sk_buff *skb,
		   const struct mp_frame *f, const u8 *dst_mac)
{
	struct net_device *dev;
	u16 etype = mp_frame_op_is_control(f->op) ? m->cfg.etype_ctrl :
		    m->cfg.etype_data;
	const struct mpe_keys *k;
	struct mp_frame h = *f;
	u8 mac[ETH_ALEN];
	int ret;

	if (!dst_mac) {
		ret = mpe_frame_dst(m, f, mac);
		if (ret)
			goto drop;
		dst_mac = mac;
	}
	/* with a pool key, the tag covers the link header: sign it last */
	rcu_read_lock();
	dev = READ_ONCE(m->port_gone) ? NULL : m->ndev;
	k = mpe_auth_sign_begin(m);
	if (k)
		h.flags |= MP_ETH_F_AUTH;
	ret = mp_frame_encode(&h, U32_MAX, skb_network_header(skb),
			      MP_ETH_HDR_LEN);
	if (ret >= 0 && !dev)
		ret = -ENODEV;
	if (ret >= 0)
		ret = dev_hard_header(skb, dev, etype, dst_mac, NULL,
				      skb->len);
	if (ret >= 0 && k) {
		if (skb_tailroom(skb) < MP_ETH_AUTH_LEN)
			ret = -ENOBUFS;
		else
			mpe_auth_sign(m, k, skb, f->bind);
	}
	rcu_read_unlock();
	if (ret < 0)
		goto drop;
	skb->protocol = htons(etype);
	skb->dev = dev;
	ret = skb_put_padto(skb, ETH_ZLEN);
	if (ret)
		return ret;	/* freed */
	trace_mp_eth_send(f);
	return 0;

drop:
	kfree_skb(skb);
	return ret < 0 ? ret : -EINVAL;
}

/*
 * May frames skip the port's queueing discipline? Only where it is the
 * kernel's default one (or none): a qdisc the administrator set up
 * (netem, shaping, policing) sees every frame, as dev_queue_xmit() gives
 * it. And only while the port is up with a carrier: a port taken down
 * keeps its root qdisc, but its queues' qdiscs are deactivated and drop
 * every frame, which dev_queue_xmit() does (dev_direct_xmit() checks the
 * same). Called with BH disabled.
 */
static bool mpe_qdisc_default(struct net_device *dev)
{
	unsigned int i;

	if (!netif_running(dev) || !netif_carrier_ok(dev))
		return false;
	if (!rcu_access_pointer(dev->qdisc))
		return false;
	if (!strcmp(rcu_dereference_bh(dev->qdisc)->ops->id, "noqueue"))
		return true;
	if (dev->real_num_tx_queues == 1)
		return rcu_dereference_bh(dev->qdisc)->ops ==
		       get_default_qdisc_ops(dev, 0);
	if (strcmp(rcu_dereference_bh(dev->qdisc)->ops->id, "mq"))
		return false;
	for (i = 0; i < dev->real_num_tx_queues; i++) {
		struct netdev_queue *txq = netdev_get_tx_queue(dev, i);

		if (!rcu_access_pointer(txq->qdisc_sleeping) ||
		    rcu_dereference_bh(txq->qdisc_sleeping)->ops !=
		    get_default_qdisc_ops(dev, i))
			return false;
	}
	return true;
}

/*
 * Hand frames to the driver as one batch: every frame but the last goes
 * with xmit_more, so that the driver tells the device once (one virtio
 * kick) for the batch. Returns with the frames the driver could not take
 * left on @q.
 */
static void mpe_xmit_direct(struct net_device *dev, struct sk_buff_head *q)
{
	struct netdev_queue *txq;
	struct sk_buff *skb;
	netdev_tx_t rc;
	u16 qi;
	int cpu;

	cpu = smp_processor_id();
	qi = cpu % dev->real_num_tx_queues;
	txq = netdev_get_tx_queue(dev, qi);
	HARD_TX_LOCK(dev, txq, cpu);
	while ((skb = skb_peek(q))) {
		if (netif_xmit_frozen_or_stopped(txq))
			break;
		__skb_unlink(skb, q);
		skb_set_queue_mapping(skb, qi);
		rc = netdev_start_xmit(skb, dev, txq, !skb_queue_empty(q));
		if (!dev_xmit_complete(rc)) {
			__skb_queue_head(q, skb);
			break;
		}
	}
	HARD_TX_UNLOCK(dev, txq);
}

/**
 * mpe_xmit() - send the prepared frames of @q (mpe_frame_prep())
 * @m: the transport
 * @q: the frames, in order; empty on return
 *
 * Return: frames the port did not accept (lost: the requester's
 * retransmission covers them).
 */
unsigned int mpe_xmit(struct mpe *m, struct sk_buff_head *q)
{
	struct net_device *dev = m->ndev;
	unsigned int lost = 0, n = skb_queue_len(q);
	struct sk_buff *skb;

	if (!n)
		return 0;
	/* the port is let go only after a grace period (main.c) */
	rcu_read_lock_bh();
	if (READ_ONCE(m->port_gone)) {
		rcu_read_unlock_bh();
		__skb_queue_purge(q);
		return n;
	}
	if (mpe_qdisc_default(dev))
		mpe_xmit_direct(dev, q);
	/* what the driver did not take, or all under a configured qdisc */
	while ((skb = __skb_dequeue(q)))
		if (dev_queue_xmit(skb) != NET_XMIT_SUCCESS)
			lost++;
	rcu_read_unlock_bh();
	atomic64_add(n, &m->dp.frames_tx);
	return lost;
}

/**
 * mpe_frame_send() - encode @f into @skb's header and transmit it
 * @m: the transport
 * @skb: from mpe_frame_alloc(), payload filled in; always consumed
 * @f: the header of a data frame; @f->dst selects the destination MAC
 *
 * Return: 0, or -errno when the frame could not be handed to the port
 * (the requester's retransmission covers a loss either way), -ESTALE for a
 * frame of another generation than the current one.
 */
int mpe_frame_send(struct mpe *m, struct sk_buff *skb,
		   const struct mp_frame *f)
{
	return mpe_frame_send_to(m, skb, f, NULL);
}

/**
 * mpe_frame_send_to() - encode @f into @skb's header and send it to @dst_mac
 * @m: the transport
 * @skb: from mpe_frame_alloc(), payload filled in; always consumed
 * @f: the header
 * @dst_mac: destination address (the broadcast address for discovery),
 *	NULL: that of data frame @f's dst
 *
 * Return: as mpe_frame_send().
 */
int mpe_frame_send_to(struct mpe *m, struct sk_buff *skb,
		      const struct mp_frame *f, const u8 *dst_mac)
{
	struct sk_buff_head q;
	int ret;

	ret = mpe_frame_prep(m, skb, f, dst_mac);
	if (ret)
		return ret;
	__skb_queue_head_init(&q);
	__skb_queue_tail(&q, skb);
	return mpe_xmit(m, &q) ? -ENOBUFS : 0;
}

/*
 * Responses built in the receive path go out after it, as one batch: the
 * requests a NAPI poll delivered get their responses with one doorbell.
 * The tasklet runs in the same softirq pass, right after the receive
 * handlers, so a lone response waits for nothing.
 */
static void mpe_tx_deferred(struct tasklet_struct *t)
{
	struct mpe *m = from_tasklet(m, t, txd_tasklet);
	struct sk_buff_head q;

	__skb_queue_head_init(&q);
	spin_lock_bh(&m->txd.lock);
	skb_queue_splice_init(&m->txd, &q);
	spin_unlock_bh(&m->txd.lock);
	mpe_xmit(m, &q);
}

/**
 * mpe_frame_defer() - send a frame built in the receive path after it
 * @m: the transport
 * @skb: from mpe_frame_alloc(), payload filled in; always consumed
 * @f: the header of a data frame
 */
void mpe_frame_defer(struct mpe *m, struct sk_buff *skb,
		     const struct mp_frame *f)
{
	if (mpe_frame_prep(m, skb, f, NULL))
		return;
	skb_queue_tail(&m->txd, skb);
	tasklet_schedule(&m->txd_tasklet);
}

void mpe_tx_start(struct mpe *m)
{
	skb_queue_head_init(&m->txd);
	tasklet_setup(&m->txd_tasklet, mpe_tx_deferred);
}

/* Once no receive handler runs: nothing is deferred any more. */
void mpe_tx_stop(struct mpe *m)
{
	tasklet_kill(&m->txd_tasklet);
	skb_queue_purge(&m->txd);
}
