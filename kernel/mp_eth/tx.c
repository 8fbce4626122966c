// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: building and sending frames.
 *
 * A frame is allocated with room for the link-layer header in front and
 * for Ethernet padding behind; the caller fills the payload
 * (mpe_frame_payload()) before or after mpe_frame_send() encodes the
 * transport header, which is only known once the RIFT gave it a sequence
 * number and a tag. With a pool key, mpe_frame_send_to() appends the
 * authentication trailer (auth.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/netdevice.h>

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
	struct net_device *dev = m->ndev;
	unsigned int hlen = LL_RESERVED_SPACE(dev);
	struct sk_buff *skb;

	skb = alloc_skb(hlen + MP_ETH_HDR_LEN + payload + ETH_ZLEN +
			dev->needed_tailroom, gfp);
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
	const struct mpe_memb *mb;
	u8 dst_mac[ETH_ALEN];

	rcu_read_lock();
	mb = rcu_dereference(m->memb);
	/* a frame built for another generation must not go out */
	if (f->dst >= mb->nr_devs || f->gen != mb->gen) {
		rcu_read_unlock();
		kfree_skb(skb);
		return -ESTALE;
	}
	ether_addr_copy(dst_mac, mb->mac[f->dst]);
	rcu_read_unlock();
	return mpe_frame_send_to(m, skb, f, dst_mac);
}

/**
 * mpe_frame_send_to() - encode @f into @skb's header and send it to @dst_mac
 * @m: the transport
 * @skb: from mpe_frame_alloc(), payload filled in; always consumed
 * @f: the header
 * @dst_mac: destination address (the broadcast address for discovery)
 *
 * Return: as mpe_frame_send().
 */
int mpe_frame_send_to(struct mpe *m, struct sk_buff *skb,
		      const struct mp_frame *f, const u8 *dst_mac)
{
	struct net_device *dev = m->ndev;
	u16 etype = mp_frame_op_is_control(f->op) ? m->cfg.etype_ctrl :
		    m->cfg.etype_data;
	const struct mpe_keys *k;
	struct mp_frame h = *f;
	int ret;

	/* with a pool key, the tag covers the link header: sign it last */
	rcu_read_lock();
	k = mpe_auth_sign_begin(m);
	if (k)
		h.flags |= MP_ETH_F_AUTH;
	ret = mp_frame_encode(&h, U32_MAX, skb_network_header(skb),
			      MP_ETH_HDR_LEN);
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
	ret = dev_queue_xmit(skb);
	return ret == NET_XMIT_SUCCESS ? 0 : -ENOBUFS;

drop:
	kfree_skb(skb);
	return ret < 0 ? ret : -EINVAL;
}
