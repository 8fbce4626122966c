// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: the pool key - a SipHash-2-4 tag (lib/siphash) on every frame.
 *
 * With a key in use for sending, every data and control frame goes out
 * with MP_ETH_F_AUTH and a struct mp_eth_auth trailer after its payload
 * whose tag covers the frame from the source MAC through the key id
 * (include/uapi/linux/mp_eth.h). The receive path calls mpe_auth_check()
 * right after decoding, before anything else looks at the frame: with a
 * key in use, a frame without a valid tag under a key we hold is dropped
 * (no_tag, bad_tag); without one, untagged frames are accepted and tagged
 * ones only under a key installed for receiving (the first step of
 * enabling a key or rotating it). A frame whose tag fits must then be
 * fresh (mp_replay.h): its stamp within replay_window_ms of our clock
 * (stale_stamp), and a control frame newer than the last one of its
 * sender (replayed), since nothing else tells a captured discovery frame
 * of an older round from a member that restarted.
 *
 * The keys live in struct mpe_keys, replaced whole under key_mutex and
 * read under RCU; an old copy is wiped (kfree_sensitive()) once no reader
 * can see it, and so is the last one when the module goes. Nothing prints
 * or exports key material; the key ids are not secret.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/mp_eth_test.h>
#include <asm/unaligned.h>

#include "mp_eth.h"

/* Offsets in the trailer (its layout is checked in mp_frame.c) */
#define TOFF(field)	offsetof(struct mp_eth_auth, field)

/* From the source MAC (frame offset 6) through the trailer's stamp. */
static u64 mpe_tag(const u8 *from_src_mac, const u8 *trailer,
		   const siphash_key_t *key)
{
	return siphash(from_src_mac, trailer + TOFF(tag) - from_src_mac, key);
}

/* The stamp of the next frame we send: strictly increasing, any CPU. */
static u64 mpe_stamp(struct mpe *m)
{
	u64 now = ktime_get_real_ns();
	s64 last = atomic64_read(&m->stamp), next;

	do {
		next = mp_replay_next(last, now);
	} while (!atomic64_try_cmpxchg(&m->stamp, &last, next));
	return next;
}

/**
 * mpe_auth_sign_begin() - does a frame sent now get a tag?
 * @m: the transport
 *
 * Called under rcu_read_lock(); the result stays valid until it is
 * released. Return: the keys to sign with, or NULL.
 */
const struct mpe_keys *mpe_auth_sign_begin(struct mpe *m)
{
	const struct mpe_keys *k = rcu_dereference(m->keys);

	return k && k->tx >= 0 ? k : NULL;
}

/**
 * mpe_auth_sign() - append the trailer to a frame with MP_ETH_F_AUTH
 * @m: the transport
 * @k: from mpe_auth_sign_begin(), under the same rcu_read_lock()
 * @skb: data at the Ethernet header, header and payload complete, room
 *	for MP_ETH_AUTH_LEN bytes at the tail (mpe_frame_alloc())
 * @bind: the trailer's bind word (a request's nonce, echoed by its
 *	response; 0 in control frames)
 */
void mpe_auth_sign(struct mpe *m, const struct mpe_keys *k,
		   struct sk_buff *skb, u32 bind)
{
	u8 *tr = skb_put(skb, MP_ETH_AUTH_LEN);

	put_unaligned_be32(k->id[k->tx], tr + TOFF(key_id));
	put_unaligned_be32(bind, tr + TOFF(bind));
	put_unaligned_be64(mpe_stamp(m), tr + TOFF(stamp));
	put_unaligned_be64(mpe_tag(skb->data + ETH_ALEN, tr, &k->key[k->tx]),
			   tr + TOFF(tag));
}

/* The trailer of a received frame with MP_ETH_F_AUTH (after its payload). */
static const u8 *mpe_trailer(const struct sk_buff *skb,
			     const struct mp_frame *f)
{
	return skb->data + MP_ETH_HDR_LEN + mp_frame_payload_len(f);
}

/* A frame under a valid tag: is it fresh? NULL or the drop counter. */
static atomic64_t *mpe_auth_fresh(struct mpe *m, const u8 *src_mac,
				  const u8 *tr, const struct mp_frame *f)
{
	u64 stamp = get_unaligned_be64(tr + TOFF(stamp));
	u64 now = ktime_get_real_ns();
	enum mp_replay_verdict v;

	/* data frames: the window alone, no shared state on the data path */
	if (!mp_frame_op_is_control(f->op))
		return mp_replay_fresh(m->replay.window, stamp, now) ? NULL :
		       &m->drops.stale_stamp;
	spin_lock(&m->replay_lock);
	v = mp_replay_check(&m->replay, src_mac, stamp, now, true);
	spin_unlock(&m->replay_lock);
	if (v == MP_REPLAY_STALE)
		return &m->drops.stale_stamp;
	if (v == MP_REPLAY_SEEN)
		return &m->drops.replayed;
	return NULL;
}

/**
 * mpe_auth_check() - may a decoded frame go on?
 * @m: the transport
 * @skb: linear, data at the transport header, the Ethernet header right
 *	before it
 * @f: its decoded header
 *
 * Called under rcu_read_lock() (a receive handler).
 * Return: NULL, or the drop counter that says why not.
 */
atomic64_t *mpe_auth_check(struct mpe *m, const struct sk_buff *skb,
			   const struct mp_frame *f)
{
	const struct mpe_keys *k = rcu_dereference(m->keys);
	const u8 *tr, *from;
	u32 id;
	int i;

	if (!(f->flags & MP_ETH_F_AUTH))
		return k && k->tx >= 0 ? &m->drops.no_tag : NULL;
	if (!k || skb_mac_header(skb) + ETH_HLEN != skb->data)
		return &m->drops.bad_tag;
	tr = mpe_trailer(skb, f);
	from = skb_mac_header(skb) + ETH_ALEN;
	id = get_unaligned_be32(tr + TOFF(key_id));
	for (i = 0; i < MPE_KEYS; i++)
		if (k->valid & BIT(i) && k->id[i] == id)
			break;
	if (i == MPE_KEYS ||
	    (mp_frame_op_is_control(f->op) && get_unaligned_be32(tr + TOFF(bind))) ||
	    mpe_tag(from, tr, &k->key[i]) != get_unaligned_be64(tr + TOFF(tag)))
		return &m->drops.bad_tag;
	return mpe_auth_fresh(m, from, tr, f);
}

/**
 * mpe_auth_stamp() - the stamp of a frame mpe_auth_check() let through
 * @skb: as for mpe_auth_check()
 * @f: its decoded header
 *
 * Return: the sender's stamp, 0 for a frame without a tag.
 */
u64 mpe_auth_stamp(const struct sk_buff *skb, const struct mp_frame *f)
{
	if (!(f->flags & MP_ETH_F_AUTH))
		return 0;
	return get_unaligned_be64(mpe_trailer(skb, f) + TOFF(stamp));
}

/* Bytes every frame we send gives the trailer (0 without a key). */
u32 mpe_auth_overhead(struct mpe *m)
{
	u32 n;

	rcu_read_lock();
	n = rcu_dereference(m->keys) ? MP_ETH_AUTH_LEN : 0;
	rcu_read_unlock();
	return n;
}

static void mpe_keys_replace(struct mpe *m, struct mpe_keys *n)
{
	struct mpe_keys *old;

	old = rcu_replace_pointer(m->keys, n, lockdep_is_held(&m->key_mutex));
	synchronize_rcu();
	kfree_sensitive(old);
}

/**
 * mpe_auth_set() - install, use or forget the pool key
 * @m: the transport
 * @op: enum mpe_key_op
 * @id: key id
 * @raw: MPE_KEY_LEN bytes of key (ignored by MPE_KEY_CLEAR)
 *
 * Sleeps. Return: 0, -EINVAL for an unknown op or an all-zero key (no
 * secret: anyone could sign with it), -ENOMEM.
 */
int mpe_auth_set(struct mpe *m, u32 op, u32 id, const u8 *raw)
{
	const struct mpe_keys *cur;
	struct mpe_keys *n = NULL;
	int slot;

	if (op != MPE_KEY_SET && op != MPE_KEY_ACCEPT && op != MPE_KEY_CLEAR)
		return -EINVAL;
	if (op != MPE_KEY_CLEAR && !memchr_inv(raw, 0, MPE_KEY_LEN)) {
		pr_err("pool key %u refused: all zero\n", id);
		return -EINVAL;
	}
	mutex_lock(&m->key_mutex);
	cur = rcu_dereference_protected(m->keys,
					lockdep_is_held(&m->key_mutex));
	if (op != MPE_KEY_CLEAR) {
		n = kzalloc(sizeof(*n), GFP_KERNEL);
		if (!n) {
			mutex_unlock(&m->key_mutex);
			return -ENOMEM;
		}
		n->tx = -1;
		if (cur) {
			memcpy(n->id, cur->id, sizeof(n->id));
			memcpy(n->key, cur->key, sizeof(n->key));
			n->valid = cur->valid;
			n->tx = cur->tx;
		}
		/* the slot of this id, else one that is free or not sending */
		for (slot = 0; slot < MPE_KEYS; slot++)
			if (n->valid & BIT(slot) && n->id[slot] == id)
				break;
		if (slot == MPE_KEYS)
			slot = !(n->valid & BIT(0)) ? 0 :
			       !(n->valid & BIT(1)) ? 1 : !n->tx;
		n->id[slot] = id;
		n->key[slot].key[0] = get_unaligned_le64(raw);
		n->key[slot].key[1] = get_unaligned_le64(raw + 8);
		n->valid |= BIT(slot);
		if (op == MPE_KEY_SET)
			n->tx = slot;
		else if (n->tx == slot)
			n->tx = -1;	/* re-installed for receiving only */
	}
	mpe_keys_replace(m, n);
	mutex_unlock(&m->key_mutex);
	if (op == MPE_KEY_CLEAR)
		pr_info("pool keys forgotten: frames go out without a tag\n");
	else
		pr_info("pool key %u %s\n", id, op == MPE_KEY_SET ?
			"signs every frame sent" : "accepted on receive");
	return 0;
}

/* Module unload: wipe whatever is left. No reader remains. */
void mpe_auth_exit(struct mpe *m)
{
	kfree_sensitive(rcu_access_pointer(m->keys));
	RCU_INIT_POINTER(m->keys, NULL);
}
