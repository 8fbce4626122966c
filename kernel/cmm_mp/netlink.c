// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: generic netlink control interface (family "cmm_mp").
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/memory.h>
#include <net/genetlink.h>

#include "cmm_mp.h"
#include "backend.h"

/*
 * Only ids and the mode are ever read from userspace; everything else is
 * output and rejected on input, so that malformed requests fail loudly.
 */
static const struct nla_policy mp_nl_policy[CMM_MP_A_MAX + 1] = {
	[CMM_MP_A_PAD]		= { .type = NLA_REJECT },
	[CMM_MP_A_DEV_ID]	= { .type = NLA_U32 },
	[CMM_MP_A_DEV_NAME]	= { .type = NLA_REJECT },
	[CMM_MP_A_CHIP_ID]	= { .type = NLA_REJECT },
	[CMM_MP_A_DEV_PHYS]	= { .type = NLA_REJECT },
	[CMM_MP_A_DEV_SIZE]	= { .type = NLA_REJECT },
	[CMM_MP_A_SEG_SIZE]	= { .type = NLA_REJECT },
	[CMM_MP_A_NR_SEGS]	= { .type = NLA_REJECT },
	[CMM_MP_A_NODE]		= { .type = NLA_REJECT },
	[CMM_MP_A_BLOCK_SIZE]	= { .type = NLA_REJECT },
	[CMM_MP_A_SEG_ID]	= { .type = NLA_U32 },
	[CMM_MP_A_SEG_NHA]	= { .type = NLA_REJECT },
	[CMM_MP_A_SEG_PHYS]	= { .type = NLA_REJECT },
	[CMM_MP_A_SEG_STATE]	= { .type = NLA_REJECT },
	[CMM_MP_A_SEG_MODE]	= NLA_POLICY_MAX(NLA_U32, __CMM_MP_SEG_MODE_MAX - 1),
	[CMM_MP_A_SEG_OWNER]	= { .type = NLA_REJECT },
	[CMM_MP_A_MEMBLK_FIRST]	= { .type = NLA_REJECT },
	[CMM_MP_A_MEMBLK_COUNT]	= { .type = NLA_REJECT },
	[CMM_MP_A_MEMBLK_ONLINE] = { .type = NLA_REJECT },
	[CMM_MP_A_MEMBLK_MOVABLE] = { .type = NLA_REJECT },
	[CMM_MP_A_BACKEND ... CMM_MP_A_STATS_MALFORMED] = { .type = NLA_REJECT },
};

static struct genl_family mp_nl_family;

enum mp_nl_mcgrp {
	MP_NL_MCGRP_EVENTS,
};

static const struct genl_multicast_group mp_nl_mcgrps[] = {
	[MP_NL_MCGRP_EVENTS] = { .name = CMM_MP_GENL_MCGRP_EVENTS },
};

static int mp_nl_fill_dev(struct sk_buff *skb, struct mp_dev *d, u32 portid,
			  u32 seq, int flags)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mp_nl_family, flags,
			  CMM_MP_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, CMM_MP_A_DEV_ID, d->id) ||
	    nla_put_string(skb, CMM_MP_A_DEV_NAME, d->name) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_CHIP_ID, d->chip_id, CMM_MP_A_PAD) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_DEV_PHYS, d->geo.base, CMM_MP_A_PAD) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_DEV_SIZE, d->geo.size, CMM_MP_A_PAD) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_SEG_SIZE, d->geo.seg_size,
			      CMM_MP_A_PAD) ||
	    nla_put_u32(skb, CMM_MP_A_NR_SEGS, d->geo.nr_segs) ||
	    nla_put_u32(skb, CMM_MP_A_NODE,
			d->nid < 0 ? CMM_MP_NONE : (u32)d->nid) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_BLOCK_SIZE, d->geo.block_size,
			      CMM_MP_A_PAD)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int mp_nl_fill_seg(struct sk_buff *skb, struct mp_seg *s, u8 cmd,
			  u32 portid, u32 seq, int flags)
{
	struct mp_dev *d = s->dev;
	u32 first, count, online, movable;
	void *hdr;

	mp_seg_blocks(&d->geo, s->id, &first, &count);
	mp_seg_blocks_state(s, &online, &movable);
	hdr = genlmsg_put(skb, portid, seq, &mp_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, CMM_MP_A_SEG_ID, s->id) ||
	    nla_put_u32(skb, CMM_MP_A_DEV_ID, d->id) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_SEG_NHA,
			      d->pool_offset + s->phys - d->geo.base,
			      CMM_MP_A_PAD) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_SEG_PHYS, s->phys, CMM_MP_A_PAD) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_SEG_SIZE, s->size, CMM_MP_A_PAD) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_STATE, READ_ONCE(s->state)) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_MODE, CMM_MP_SEG_MODE_RAM) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_OWNER, READ_ONCE(s->owner)) ||
	    nla_put_u32(skb, CMM_MP_A_NODE,
			d->nid < 0 ? CMM_MP_NONE : (u32)d->nid) ||
	    nla_put_u32(skb, CMM_MP_A_MEMBLK_FIRST, first) ||
	    nla_put_u32(skb, CMM_MP_A_MEMBLK_COUNT, count) ||
	    nla_put_u32(skb, CMM_MP_A_MEMBLK_ONLINE, online) ||
	    nla_put_u32(skb, CMM_MP_A_MEMBLK_MOVABLE, movable)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static struct mp_dev *mp_nl_dev(struct genl_info *info)
{
	struct mp_dev *d = mp_dev_get_default();

	if (!d) {
		NL_SET_ERR_MSG(info->extack, "no pool device");
		return NULL;
	}
	if (info->attrs[CMM_MP_A_DEV_ID] &&
	    nla_get_u32(info->attrs[CMM_MP_A_DEV_ID]) != d->id) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[CMM_MP_A_DEV_ID],
				    "no such device");
		return NULL;
	}
	return d;
}

static struct mp_seg *mp_nl_seg(struct genl_info *info)
{
	struct mp_dev *d = mp_nl_dev(info);
	struct mp_seg *s;

	if (!d)
		return ERR_PTR(-ENOENT);
	if (GENL_REQ_ATTR_CHECK(info, CMM_MP_A_SEG_ID))
		return ERR_PTR(-EINVAL);
	s = mp_dev_seg(d, nla_get_u32(info->attrs[CMM_MP_A_SEG_ID]));
	if (!s) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[CMM_MP_A_SEG_ID],
				    "no such segment");
		return ERR_PTR(-ENOENT);
	}
	return s;
}

static int mp_nl_reply_seg(struct genl_info *info, struct mp_seg *s, u8 cmd)
{
	struct sk_buff *msg;
	int ret;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	ret = mp_nl_fill_seg(msg, s, cmd, info->snd_portid, info->snd_seq, 0);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return genlmsg_reply(msg, info);
}

static int mp_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mp_dev *d = mp_nl_dev(info);
	struct sk_buff *msg;
	int ret;

	if (!d)
		return -ENOENT;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	ret = mp_nl_fill_dev(msg, d, info->snd_portid, info->snd_seq, 0);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return genlmsg_reply(msg, info);
}

static int mp_nl_dev_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct mp_dev *d = mp_dev_get_default();
	int ret;

	if (cb->args[0] || !d)
		return 0;
	ret = mp_nl_fill_dev(skb, d, NETLINK_CB(cb->skb).portid,
			     cb->nlh->nlmsg_seq, NLM_F_MULTI);
	if (ret)
		return ret;
	cb->args[0] = 1;
	return skb->len;
}

static int mp_nl_seg_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mp_seg *s = mp_nl_seg(info);

	if (IS_ERR(s))
		return PTR_ERR(s);
	return mp_nl_reply_seg(info, s, CMM_MP_CMD_SEG_GET);
}

static int mp_nl_seg_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct mp_dev *d = mp_dev_get_default();
	u32 i;

	if (!d)
		return 0;
	for (i = cb->args[0]; i < d->geo.nr_segs; i++) {
		if (mp_nl_fill_seg(skb, &d->segs[i], CMM_MP_CMD_SEG_GET,
				   NETLINK_CB(cb->skb).portid,
				   cb->nlh->nlmsg_seq, NLM_F_MULTI))
			break;
	}
	cb->args[0] = i;
	return skb->len;
}

static int mp_nl_seg_change(struct genl_info *info, bool online)
{
	struct mp_seg *s = mp_nl_seg(info);
	struct mp_dev *d;
	int ret;

	if (IS_ERR(s))
		return PTR_ERR(s);
	d = s->dev;
	mutex_lock(&d->lock);
	if (online)
		ret = mp_seg_online_ram(s, info->extack);
	else
		ret = mp_seg_offline_ram(s, info->extack);
	mutex_unlock(&d->lock);
	if (ret)
		return ret;
	mp_nl_seg_event(s);
	return mp_nl_reply_seg(info, s, online ? CMM_MP_CMD_SEG_ONLINE :
			       CMM_MP_CMD_SEG_OFFLINE);
}

static int mp_nl_seg_online_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mp_nl_seg_change(info, true);
}

static int mp_nl_seg_offline_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mp_nl_seg_change(info, false);
}

static int mp_nl_fill_peer(struct sk_buff *skb, const struct mp_backend_peer *p,
			   u32 portid, u32 seq)
{
	static const struct {
		int attr;
		size_t off;
	} ctr[] = {
#define MP_CTR(a, f) { CMM_MP_A_STATS_##a, offsetof(struct mp_peer_stats, f) }
		MP_CTR(TX, tx), MP_CTR(RX, rx),
		MP_CTR(RETRANSMITS, retransmits), MP_CTR(DUPLICATES, duplicates),
		MP_CTR(OUT_OF_WINDOW, out_of_window),
		MP_CTR(STALE, stale_responses), MP_CTR(TIMEOUTS, timeouts),
		MP_CTR(NAKS, naks), MP_CTR(RESYNCS, resyncs),
		MP_CTR(SKIPPED, skipped), MP_CTR(FAST_FAILS, fast_fails),
		MP_CTR(MALFORMED, malformed),
#undef MP_CTR
	};
	const u8 *base = (const u8 *)&p->st;
	unsigned int i;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mp_nl_family, NLM_F_MULTI,
			  CMM_MP_CMD_STATS_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, CMM_MP_A_PEER_ID, p->id) ||
	    nla_put(skb, CMM_MP_A_PEER_MAC, ETH_ALEN, p->mac) ||
	    nla_put_u32(skb, CMM_MP_A_PEER_REACHABLE, p->reachable) ||
	    nla_put_u32(skb, CMM_MP_A_PEER_INFLIGHT, p->inflight))
		goto cancel;
	for (i = 0; i < ARRAY_SIZE(ctr); i++)
		if (nla_put_u64_64bit(skb, ctr[i].attr,
				      *(const u64 *)(base + ctr[i].off),
				      CMM_MP_A_PAD))
			goto cancel;
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* One message per peer the backend knows; none without a backend. */
static int mp_nl_stats_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mp_backend_peer p;
	unsigned long i;

	for (i = cb->args[0];; i++) {
		if (mp_backend_peer_stats(i, &p))
			break;
		if (mp_nl_fill_peer(skb, &p, NETLINK_CB(cb->skb).portid,
				    cb->nlh->nlmsg_seq))
			break;
	}
	cb->args[0] = i;
	return skb->len;
}

/**
 * mp_nl_seg_event() - tell listeners of the events group a segment changed
 * @s: the segment
 *
 * Events are best effort, like every netlink multicast: a listener that
 * falls behind sees ENOBUFS and re-reads the state with a dump.
 */
void mp_nl_seg_event(struct mp_seg *s)
{
	struct sk_buff *msg;

	if (!genl_has_listeners(&mp_nl_family, &init_net, MP_NL_MCGRP_EVENTS))
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return;
	if (mp_nl_fill_seg(msg, s, CMM_MP_CMD_SEG_EVENT, 0, 0, 0)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_multicast(&mp_nl_family, msg, 0, MP_NL_MCGRP_EVENTS,
			  GFP_KERNEL);
}

static const struct genl_small_ops mp_nl_ops[] = {
	{
		.cmd = CMM_MP_CMD_DEV_GET,
		.doit = mp_nl_dev_get_doit,
		.dumpit = mp_nl_dev_get_dumpit,
	},
	{
		.cmd = CMM_MP_CMD_SEG_GET,
		.doit = mp_nl_seg_get_doit,
		.dumpit = mp_nl_seg_get_dumpit,
	},
	{
		.cmd = CMM_MP_CMD_SEG_ONLINE,
		.doit = mp_nl_seg_online_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = CMM_MP_CMD_SEG_OFFLINE,
		.doit = mp_nl_seg_offline_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = CMM_MP_CMD_STATS_GET,
		.dumpit = mp_nl_stats_dumpit,
	},
};

static struct genl_family mp_nl_family __ro_after_init = {
	.name		= CMM_MP_GENL_NAME,
	.version	= CMM_MP_GENL_VERSION,
	.maxattr	= CMM_MP_A_MAX,
	.policy		= mp_nl_policy,
	.netnsok	= false,
	.module		= THIS_MODULE,
	.small_ops	= mp_nl_ops,
	.n_small_ops	= ARRAY_SIZE(mp_nl_ops),
	/* every command validates strictly: reserved header bits, attrs */
	.resv_start_op	= CMM_MP_CMD_DEV_GET,
	.mcgrps		= mp_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(mp_nl_mcgrps),
};

int mp_nl_init(void)
{
	return genl_register_family(&mp_nl_family);
}

void mp_nl_exit(void)
{
	genl_unregister_family(&mp_nl_family);
}
