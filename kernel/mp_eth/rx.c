// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: receive - packet_type handlers for the data and control
 * EtherTypes, validation, dispatch to the requester or the responder.
 *
 * Everything off the wire is untrusted. A frame reaches a window or the
 * RIFT only if it was sent to us (not PACKET_OTHERHOST), decodes
 * (mp_frame_decode() on the linear header; a frame with a tag is made
 * linear first, one without stays as the driver built it), carries an opcode of its EtherType,
 * names us as dst and a known peer as src, comes from that peer's MAC and
 * is of our generation, while the pool is formed (struct mpe_memb
 * running). Control frames go to discovery (discovery.c). Everything else
 * is dropped and counted by reason (struct mpe_drops) and in m->dropped,
 * and per peer as malformed when its MAC is a member's. Nothing here
 * warns: a hostile host must not be able to fill the log.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <net/busy_poll.h>
#include <asm/unaligned.h>

#include "mp_eth.h"
#include "mp_eth_trace.h"

/* Drop a frame for @why; @peer is the member its source MAC belongs to. */
static void mpe_drop(struct mpe *m, int peer, atomic64_t *why)
{
	struct mpe_peer *p;

	atomic64_inc(why);
	atomic64_inc(&m->dropped);
	if (peer < 0)
		return;
	p = mpe_peer(m, peer);
	if (!p)
		return;
	spin_lock(&p->lock);
	p->rs.malformed++;
	spin_unlock(&p->lock);
}

/*
 * Called under RCU for a decoded data frame: why it must not reach a
 * window or the RIFT, or NULL. @peer is the member of its source MAC.
 */
static atomic64_t *mpe_data_check(struct mpe *m, const struct mpe_memb *mb,
				  int peer, const struct mp_frame *f,
				  const u8 *src_mac)
{
	struct mpe_drops *d = &m->drops;

	if (!mb->running)
		return &d->not_running;
	if (f->dst != mb->devid)
		return &d->not_for_us;
	/*
	 * The source device id must be the device of the source MAC: a
	 * frame that claims another member's id, from whatever MAC, is
	 * refused before it can act as that member (read its segments).
	 */
	if (f->src != peer) {
		if (peer >= 0 || (f->src < mb->nr_devs &&
				  !ether_addr_equal(src_mac, mb->dev[f->src].mac)))
			return &d->forged_src;
		return &d->unknown_src;
	}
	if (f->gen != mb->gen)
		return &d->wrong_gen;
	return NULL;
}

/* Does the frame at skb->data (header linear) say it carries a tag? */
static bool mpe_tagged(const struct sk_buff *skb)
{
	return get_unaligned_be16(skb->data +
				  offsetof(struct mp_eth_hdr, flags)) &
	       MP_ETH_F_AUTH;
}

/*
 * Remember the receive queue (NAPI context) responses arrive on, for
 * issuers that busy-poll it (poll.c) rather than wait for its interrupt.
 */
static void mpe_rx_note_napi(struct mpe *m, const struct sk_buff *skb)
{
#ifdef CONFIG_NET_RX_BUSY_POLL
	if (skb->napi_id >= MIN_NAPI_ID &&
	    READ_ONCE(m->napi_id) != skb->napi_id)
		WRITE_ONCE(m->napi_id, skb->napi_id);
#endif
}

static int mpe_rcv(struct sk_buff *skb, struct net_device *dev,
		   struct packet_type *pt, struct net_device *orig_dev)
{
	struct mpe *m = pt->af_packet_priv;
	bool ctrl = pt == &m->pt_ctrl;
	const struct mpe_memb *mb;
	struct mp_frame f;
	atomic64_t *why;
	int peer;

	if (skb->pkt_type == PACKET_OTHERHOST ||
	    skb->pkt_type == PACKET_LOOPBACK)
		goto drop;
	atomic64_inc(&m->dp.frames_rx);
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return NET_RX_DROP;
	/*
	 * The header must be linear; the payload only where a tag covers
	 * it (siphash() takes one buffer) and for discovery's parsers. Data
	 * is copied out of the fragments where it goes, once.
	 */
	if (!pskb_may_pull(skb, MP_ETH_HDR_LEN))
		goto malformed;
	if ((ctrl || mpe_tagged(skb)) && skb_is_nonlinear(skb)) {
		u32 n = skb->data_len;

		if (skb_linearize(skb))
			goto drop;
		atomic64_add(n, &m->dp.copied_bytes);
	}

	/* receive handlers run under rcu_read_lock() */
	mb = rcu_dereference(m->memb);
	peer = mpe_memb_peer_by_mac(mb, eth_hdr(skb)->h_source);
	/* reads the header, and the trailer of a (linear) tagged frame */
	if (mp_frame_decode(skb->data, skb->len, mpe_rx_payload(m), &f)) {
		mpe_drop(m, peer, &m->drops.malformed);
		goto drop;
	}
	/* nothing else looks at a frame that fails the pool key */
	why = mpe_auth_check(m, skb, &f);
	if (why) {
		mpe_drop(m, peer, why);
		goto drop;
	}
	if (ctrl != mp_frame_op_is_control(f.op)) {
		mpe_drop(m, peer, &m->drops.wrong_ethertype);
		goto drop;
	}
	if (ctrl) {
		/* with a static table there is no discovery to answer */
		/* pairs with the release in mpe_disc_start() */
		if (!smp_load_acquire(&m->disc)) {
			mpe_drop(m, -1, &m->drops.control_ignored);
			goto drop;
		}
		mpe_disc_rcv(m, skb, &f);
		consume_skb(skb);
		return NET_RX_SUCCESS;
	}
	why = mpe_data_check(m, mb, peer, &f, eth_hdr(skb)->h_source);
	if (why) {
		mpe_drop(m, peer, why);
		goto drop;
	}
	trace_mp_eth_recv(&f);
	if (mp_frame_op_is_request(f.op)) {
		mpe_rx_request(m, skb, &f, mb->dev[f.src].chip);
	} else {
		mpe_rx_response(m, skb, &f);
		mpe_rx_note_napi(m, skb);
	}
	consume_skb(skb);
	return NET_RX_SUCCESS;

malformed:
	mpe_drop(m, mpe_memb_peer_by_mac(rcu_dereference(m->memb),
					 eth_hdr(skb)->h_source),
		 &m->drops.malformed);
drop:
	kfree_skb(skb);
	return NET_RX_DROP;
}

int mpe_rx_start(struct mpe *m)
{
	m->pt_data.type = htons(m->cfg.etype_data);
	m->pt_data.dev = m->ndev;
	m->pt_data.func = mpe_rcv;
	m->pt_data.af_packet_priv = m;
	m->pt_ctrl = m->pt_data;
	m->pt_ctrl.type = htons(m->cfg.etype_ctrl);
	mpe_tx_start(m);
	dev_add_pack(&m->pt_data);
	dev_add_pack(&m->pt_ctrl);
	return 0;
}

/* Returns once no handler runs any more (synchronize_net()). */
void mpe_rx_stop(struct mpe *m)
{
	__dev_remove_pack(&m->pt_ctrl);
	dev_remove_pack(&m->pt_data);
	mpe_tx_stop(m);
}
