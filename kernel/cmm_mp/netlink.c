// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: generic netlink control interface (family "cmm_mp").
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/memory.h>
#include <linux/memory-tiers.h>
#include <linux/cmm_mp_backend.h>
#include <net/genetlink.h>

#include "cmm_mp.h"
#include "remote.h"

/*
 * Only ids, the mode and the sharing flag are ever read from userspace; everything else is
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
	[CMM_MP_A_DEV_MAC ... CMM_MP_A_STATS_REFUSED] = { .type = NLA_REJECT },
	[CMM_MP_A_SEG_SHARED]	= NLA_POLICY_MAX(NLA_U32, 1),
	[CMM_MP_A_SEG_SHARERS]	= { .type = NLA_REJECT },
	[CMM_MP_A_SEG_DEVNODE]	= { .type = NLA_REJECT },
	[CMM_MP_A_DEV_ADISTANCE] = { .type = NLA_REJECT },
	[CMM_MP_A_DRAM_ADISTANCE] = { .type = NLA_REJECT },
	[CMM_MP_A_KEY_OP]	= NLA_POLICY_RANGE(NLA_U32, CMM_MP_KEY_SET,
						   CMM_MP_KEY_CLEAR),
	[CMM_MP_A_KEY_ID]	= { .type = NLA_U32 },
	[CMM_MP_A_KEY]		= NLA_POLICY_EXACT_LEN(CMM_MP_KEY_LEN),
};

static struct genl_family mp_nl_family;

enum mp_nl_mcgrp {
	MP_NL_MCGRP_EVENTS,
};

static const struct genl_multicast_group mp_nl_mcgrps[] = {
	[MP_NL_MCGRP_EVENTS] = { .name = CMM_MP_GENL_MCGRP_EVENTS },
};

/*
 * Attributes every device message carries, the local device's and the
 * remote ones' alike: what every member of the pool sees the same way.
 * Called with d->lock held; @i is a device id of d->pamt in RUNTIME.
 */
static int mp_nl_put_pool_dev(struct sk_buff *skb, struct mp_dev *d, u32 i)
{
	bool pool = mp_pool_runtime(d);
	const struct mp_pamt_entry *e = &d->pamt.dev[i];
	char name[MP_NAME_LEN];

	snprintf(name, sizeof(name), "mp%u", i);
	if (nla_put_u32(skb, CMM_MP_A_DEV_ID, i) ||
	    nla_put_string(skb, CMM_MP_A_DEV_NAME, name) ||
	    nla_put_u32(skb, CMM_MP_A_DEV_LOCAL, i == d->id) ||
	    nla_put_u32(skb, CMM_MP_A_POOL_STATE, d->pool_state) ||
	    nla_put_u32(skb, CMM_MP_A_POOL_GEN, pool ? d->pamt.generation : 0))
		return -EMSGSIZE;
	if (!pool)
		return nla_put_u32(skb, CMM_MP_A_DEV_STATE, CMM_MP_DEV_UP) ||
		       nla_put_u32(skb, CMM_MP_A_DEV_FIRST_SEG, d->first_seg) ||
		       nla_put_u64_64bit(skb, CMM_MP_A_DEV_NHA, d->pool_offset,
					 CMM_MP_A_PAD) ? -EMSGSIZE : 0;
	if (nla_put(skb, CMM_MP_A_DEV_MAC, ETH_ALEN, e->mac) ||
	    nla_put_u32(skb, CMM_MP_A_DEV_STATE,
			e->valid ? CMM_MP_DEV_UP : CMM_MP_DEV_LOST) ||
	    nla_put_u32(skb, CMM_MP_A_DEV_FIRST_SEG, e->first_seg) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_DEV_NHA, e->nha, CMM_MP_A_PAD))
		return -EMSGSIZE;
	return 0;
}

/* A remote device of the pool: what the PAMT knows. d->lock held. */
static int mp_nl_fill_rdev(struct sk_buff *skb, struct mp_dev *d, u32 i,
			   u32 portid, u32 seq, int flags)
{
	const struct mp_pamt_entry *e = &d->pamt.dev[i];
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mp_nl_family, flags,
			  CMM_MP_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (mp_nl_put_pool_dev(skb, d, i) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_CHIP_ID, e->chip_id, CMM_MP_A_PAD) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_DEV_SIZE, e->size, CMM_MP_A_PAD) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_SEG_SIZE, d->pamt.seg_size,
			      CMM_MP_A_PAD) ||
	    nla_put_u32(skb, CMM_MP_A_NR_SEGS, e->nr_segs)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* The local device. d->lock held. */
/*
 * Physical addresses tell where the kernel's memory lies (as /proc/iomem
 * does, and kptr_restrict hides): only for CAP_SYS_ADMIN. Requests and
 * dumps run in the context of the process that asked.
 */
static bool mp_nl_show_phys(void)
{
	return capable(CAP_SYS_ADMIN);
}

/*
 * The memory tier of the device's node, as abstract distances: its own
 * (slower than DRAM: a lower tier, dev.c) and DRAM's, for comparison.
 */
static int mp_nl_put_tier(struct sk_buff *skb, struct mp_dev *d)
{
	if (!d->mtype)
		return 0;
	return nla_put_u32(skb, CMM_MP_A_DEV_ADISTANCE,
			   (u32)d->mtype->adistance) ||
	       nla_put_u32(skb, CMM_MP_A_DRAM_ADISTANCE, MEMTIER_ADISTANCE_DRAM);
}

static int mp_nl_fill_dev(struct sk_buff *skb, struct mp_dev *d, u32 portid,
			  u32 seq, int flags)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &mp_nl_family, flags,
			  CMM_MP_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (mp_nl_put_pool_dev(skb, d, d->id) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_CHIP_ID, d->chip_id, CMM_MP_A_PAD) ||
	    (mp_nl_show_phys() &&
	     nla_put_u64_64bit(skb, CMM_MP_A_DEV_PHYS, d->geo.base,
			       CMM_MP_A_PAD)) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_DEV_SIZE, d->geo.size, CMM_MP_A_PAD) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_SEG_SIZE, d->geo.seg_size,
			      CMM_MP_A_PAD) ||
	    nla_put_u32(skb, CMM_MP_A_NR_SEGS, d->geo.nr_segs) ||
	    nla_put_u32(skb, CMM_MP_A_NODE,
			d->nid < 0 ? CMM_MP_NONE : (u32)d->nid) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_BLOCK_SIZE, d->geo.block_size,
			      CMM_MP_A_PAD) ||
	    mp_nl_put_tier(skb, d)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * How pool-wide segment @id is used here: its mode (@mode when it is not
 * mapped here: CMM_MP_SEG_MODE_RAM, as before there were other modes, so
 * that every host describes an unmapped segment alike), sharing flag,
 * sharers and device node.
 */
static int mp_nl_put_map(struct sk_buff *skb, struct mp_dev *d, u32 id,
			 u32 mode, u32 sharers)
{
	u32 shared = sharers != 0;
	struct mp_remote *r;
	char node[32] = "";

	rcu_read_lock();
	r = mp_remote_find(d, id);
	if (r) {
		mode = r->mode;
		shared = r->shared;
		mp_remote_devnode(r, node, sizeof(node));
	}
	rcu_read_unlock();
	if (nla_put_u32(skb, CMM_MP_A_SEG_MODE, mode) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_SHARED, shared) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_SHARERS, sharers) ||
	    (node[0] && nla_put_string(skb, CMM_MP_A_SEG_DEVNODE, node)))
		return -EMSGSIZE;
	return 0;
}

static int mp_nl_fill_seg(struct sk_buff *skb, struct mp_seg *s, u8 cmd,
			  u32 portid, u32 seq, int flags)
{
	struct mp_dev *d = s->dev;
	u32 first, count, online, movable;
	u32 state = READ_ONCE(s->state), owner, sharers;
	void *hdr;

	owner = mp_seg_holders(d, s, &sharers);

	/* allocated to a device (or shared), not as System RAM here */
	if (state == CMM_MP_SEG_OFFLINE && owner != CMM_MP_NONE)
		state = CMM_MP_SEG_OWNED;
	else if (state == CMM_MP_SEG_OFFLINE && sharers)
		state = CMM_MP_SEG_SHARED;
	mp_seg_blocks(&d->geo, s->id, &first, &count);
	mp_seg_blocks_state(s, &online, &movable);
	hdr = genlmsg_put(skb, portid, seq, &mp_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, CMM_MP_A_SEG_ID, mp_seg_pool_id(s)) ||
	    nla_put_u32(skb, CMM_MP_A_DEV_ID, READ_ONCE(d->id)) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_SEG_NHA,
			      d->pool_offset + s->phys - d->geo.base,
			      CMM_MP_A_PAD) ||
	    (mp_nl_show_phys() &&
	     nla_put_u64_64bit(skb, CMM_MP_A_SEG_PHYS, s->phys,
			       CMM_MP_A_PAD)) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_SEG_SIZE, s->size, CMM_MP_A_PAD) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_STATE, state) ||
	    mp_nl_put_map(skb, d, mp_seg_pool_id(s), CMM_MP_SEG_MODE_RAM,
			  sharers) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_OWNER, owner) ||
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

/*
 * The backing device and its segment index of remote segment @id, -ENOENT
 * for a lost device. d->lock held, d->pamt valid.
 */
static int mp_nl_rseg_where(struct mp_dev *d, u32 id, u32 *devid, u32 *idx)
{
	u64 nha;

	if (mp_pamt_seg(&d->pamt, id, devid, &nha, NULL) ||
	    !d->pamt.dev[*devid].valid)
		return -ENOENT;
	*idx = id - d->pamt.dev[*devid].first_seg;
	return 0;
}

/*
 * The owner and sharers of remote segment @id, asked of its backing
 * device (holders are known there only). Called with d->lock held; drops
 * it meanwhile: the caller must check the pool again.
 */
static u32 mp_nl_rseg_owner(struct mp_dev *d, u32 id, u32 *sharers)
{
	u32 devid, idx, owner = CMM_MP_NONE;

	*sharers = 0;
	if (mp_nl_rseg_where(d, id, &devid, &idx))
		return CMM_MP_NONE;
	mutex_unlock(&d->lock);
	if (mp_backend_own(devid, MP_OWN_QUERY, idx, &owner, sharers)) {
		owner = CMM_MP_NONE;
		*sharers = 0;
	}
	mutex_lock(&d->lock);
	return owner;
}

/*
 * A segment of another device of the pool: its backing device, state and
 * holders (@owner, @sharers, from mp_nl_rseg_owner()). d->lock held,
 * d->pamt valid, @id a remote segment of it.
 */
static int mp_nl_fill_rseg(struct sk_buff *skb, struct mp_dev *d, u32 id,
			   u32 owner, u32 sharers, u8 cmd, u32 portid, u32 seq,
			   int flags)
{
	u32 devid = 0, state;
	u64 nha = 0;
	void *hdr;

	if (mp_pamt_seg(&d->pamt, id, &devid, &nha, NULL))
		state = CMM_MP_SEG_FAILED;
	else
		state = !d->pamt.dev[devid].valid ? CMM_MP_SEG_FAILED :
			owner != CMM_MP_NONE ? CMM_MP_SEG_OWNED :
			sharers ? CMM_MP_SEG_SHARED : CMM_MP_SEG_OFFLINE;
	hdr = genlmsg_put(skb, portid, seq, &mp_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, CMM_MP_A_SEG_ID, id) ||
	    nla_put_u32(skb, CMM_MP_A_DEV_ID, devid) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_SEG_NHA, nha, CMM_MP_A_PAD) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_SEG_SIZE, d->pamt.seg_size,
			      CMM_MP_A_PAD) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_STATE, state) ||
	    mp_nl_put_map(skb, d, id, CMM_MP_SEG_MODE_RAM, sharers) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_OWNER, owner)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * Pool-wide segment @id: a local one in *@local, or -EREMOTE for a segment
 * of another device of the pool, -ENOENT for none. d->lock held.
 */
static int mp_nl_seg_find(struct mp_dev *d, u32 id, struct mp_seg **local)
{
	*local = NULL;
	if (id >= d->first_seg && id - d->first_seg < d->geo.nr_segs) {
		*local = &d->segs[id - d->first_seg];
		return 0;
	}
	if (mp_pool_runtime(d) && id < d->pamt.nr_segs)
		return -EREMOTE;
	return -ENOENT;
}

/*
 * The local segment a request names (pool-wide id), or an ERR_PTR:
 * -ENOENT none, -EREMOTE a segment of another device (*@d is set then).
 */
static struct mp_seg *mp_nl_seg(struct genl_info *info, struct mp_dev **dp)
{
	struct mp_dev *d = mp_dev_get_default();
	struct mp_seg *s;
	int ret;

	*dp = d;
	if (!d) {
		NL_SET_ERR_MSG(info->extack, "no pool device");
		return ERR_PTR(-ENOENT);
	}
	if (GENL_REQ_ATTR_CHECK(info, CMM_MP_A_SEG_ID))
		return ERR_PTR(-EINVAL);
	mutex_lock(&d->lock);
	ret = mp_nl_seg_find(d, nla_get_u32(info->attrs[CMM_MP_A_SEG_ID]), &s);
	mutex_unlock(&d->lock);
	if (ret == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[CMM_MP_A_SEG_ID],
				    "no such segment");
	return ret ? ERR_PTR(ret) : s;
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
	struct mp_dev *d = mp_dev_get_default();
	struct sk_buff *msg;
	u32 id;
	int ret;

	if (!d) {
		NL_SET_ERR_MSG(info->extack, "no pool device");
		return -ENOENT;
	}
	mutex_lock(&d->lock);
	id = info->attrs[CMM_MP_A_DEV_ID] ?
	     nla_get_u32(info->attrs[CMM_MP_A_DEV_ID]) : d->id;
	if (id != d->id &&
	    (!mp_pool_runtime(d) || id >= d->pamt.nr_devs)) {
		mutex_unlock(&d->lock);
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[CMM_MP_A_DEV_ID],
				    "no such device");
		return -ENOENT;
	}
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		mutex_unlock(&d->lock);
		return -ENOMEM;
	}
	if (id == d->id)
		ret = mp_nl_fill_dev(msg, d, info->snd_portid, info->snd_seq, 0);
	else
		ret = mp_nl_fill_rdev(msg, d, id, info->snd_portid,
				      info->snd_seq, 0);
	mutex_unlock(&d->lock);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return genlmsg_reply(msg, info);
}

/* Every device of the pool by id; the local one alone outside RUNTIME. */
static int __mp_nl_dev_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct mp_dev *d = mp_dev_get_default();
	u32 i, n;
	int ret = 0;

	if (!d)
		return 0;
	mutex_lock(&d->lock);
	n = mp_pool_runtime(d) ? d->pamt.nr_devs : d->id + 1;
	for (i = cb->args[0]; i < n; i++) {
		if (!mp_pool_runtime(d) && i != d->id)
			continue;
		if (i == d->id)
			ret = mp_nl_fill_dev(skb, d, NETLINK_CB(cb->skb).portid,
					     cb->nlh->nlmsg_seq, NLM_F_MULTI);
		else
			ret = mp_nl_fill_rdev(skb, d, i,
					      NETLINK_CB(cb->skb).portid,
					      cb->nlh->nlmsg_seq, NLM_F_MULTI);
		if (ret)
			break;
	}
	mutex_unlock(&d->lock);
	cb->args[0] = i;
	/* a message that does not fit an empty skb never will */
	if (ret && !skb->len)
		return ret;
	return skb->len;
}

static int mp_nl_reply_rseg(struct genl_info *info, struct mp_dev *d, u32 id,
			    u8 cmd)
{
	struct sk_buff *msg;
	u32 owner = CMM_MP_NONE, sharers = 0;
	int ret;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&d->lock);
	if (mp_pool_runtime(d) && id < d->pamt.nr_segs)
		owner = mp_nl_rseg_owner(d, id, &sharers);
	ret = mp_pool_runtime(d) && id < d->pamt.nr_segs ?
	      mp_nl_fill_rseg(msg, d, id, owner, sharers, cmd,
			      info->snd_portid, info->snd_seq, 0) : -ENOENT;
	mutex_unlock(&d->lock);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return genlmsg_reply(msg, info);
}

static int mp_nl_seg_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mp_dev *d;
	struct mp_seg *s = mp_nl_seg(info, &d);

	if (PTR_ERR_OR_ZERO(s) == -EREMOTE)
		return mp_nl_reply_rseg(info, d,
					nla_get_u32(info->attrs[CMM_MP_A_SEG_ID]),
					CMM_MP_CMD_SEG_GET);
	if (IS_ERR(s))
		return PTR_ERR(s);
	return mp_nl_reply_seg(info, s, CMM_MP_CMD_SEG_GET);
}

/* Every segment of the pool by pool-wide id; local ones outside RUNTIME. */
static int __mp_nl_seg_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct mp_dev *d = mp_dev_get_default();
	struct mp_seg *s;
	u32 i, n;
	int ret = 0;

	if (!d)
		return 0;
	mutex_lock(&d->lock);
	n = mp_pool_runtime(d) ? d->pamt.nr_segs :
	    d->first_seg + d->geo.nr_segs;
	if (cb->args[0] < d->first_seg && !mp_pool_runtime(d))
		cb->args[0] = d->first_seg;
	for (i = cb->args[0]; i < n; i++) {
		if (mp_nl_seg_find(d, i, &s) == -EREMOTE) {
			u32 sharers, owner = mp_nl_rseg_owner(d, i, &sharers);

			/* the pool may have changed meanwhile */
			if (mp_nl_seg_find(d, i, &s) != -EREMOTE)
				break;
			ret = mp_nl_fill_rseg(skb, d, i, owner, sharers,
					      CMM_MP_CMD_SEG_GET,
					      NETLINK_CB(cb->skb).portid,
					      cb->nlh->nlmsg_seq, NLM_F_MULTI);
		} else if (s)
			ret = mp_nl_fill_seg(skb, s, CMM_MP_CMD_SEG_GET,
					     NETLINK_CB(cb->skb).portid,
					     cb->nlh->nlmsg_seq, NLM_F_MULTI);
		if (ret)
			break;
	}
	mutex_unlock(&d->lock);
	cb->args[0] = i;
	if (ret && !skb->len)
		return ret;
	return skb->len;
}

/*
 * Ask device @devid to arbitrate its segment @idx for us (@cmd, enum
 * mp_own_cmd): the local device directly, another one through the
 * backend. A claim or share of a segment being zeroed is repeated until it
 * is done.
 */
static int mp_nl_own(struct mp_dev *d, u32 devid, u32 cmd, u32 idx,
		     u32 *owner, u32 *sharers, struct netlink_ext_ack *extack)
{
	u32 self = READ_ONCE(d->id);
	u64 chip = READ_ONCE(d->chip_id);
	int ret, tries = 1000;

	do {
		if (devid == self) {
			ret = mp_local_own(chip, cmd, idx, owner, sharers);
			/*
			 * Our own device zeroes in a work item here: wait for
			 * it rather than poll against a timeout, which slow
			 * memory (CXL under TCG: tens of seconds) can exceed.
			 */
			if (ret == -EINPROGRESS) {
				mp_own_flush();
				ret = mp_local_own(chip, cmd, idx, owner,
						   sharers);
			}
		} else {
			ret = mp_backend_own(devid, cmd, idx, owner, sharers);
		}
		if (ret != -EINPROGRESS)
			break;
		msleep(20);
	} while (--tries);
	switch (ret) {
	case 0:
		break;
	case -EBUSY:
		if (*owner == CMM_MP_NONE && *sharers)
			NL_SET_ERR_MSG(extack, "segment is shared by other devices");
		else
			NL_SET_ERR_MSG(extack, "segment is owned by another device");
		break;
	case -EPERM:
		NL_SET_ERR_MSG(extack, "only a holder may offline this segment");
		break;
	case -EINPROGRESS:
		ret = -ETIMEDOUT;
		NL_SET_ERR_MSG(extack, "the backing device is still zeroing the segment");
		break;
	case -ERANGE:
		NL_SET_ERR_MSG(extack, "backing device: no such segment, or we cannot share it");
		break;
	default:
		NL_SET_ERR_MSG(extack, "the backing device did not answer the ownership request");
		break;
	}
	return ret;
}

/*
 * Offline of a segment of another device that is not mapped here: give
 * back what the backing device says we hold.
 */
static int mp_nl_rseg_release(struct genl_info *info, struct mp_dev *d,
			      u32 id)
{
	u32 self = READ_ONCE(d->id), devid, idx, owner, sharers, cmd;
	int ret;

	mutex_lock(&d->lock);
	ret = mp_pool_runtime(d) && id < d->pamt.nr_segs ?
	      mp_nl_rseg_where(d, id, &devid, &idx) : -ENOENT;
	mutex_unlock(&d->lock);
	if (ret) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[CMM_MP_A_SEG_ID],
				    "the segment's backing device is lost");
		return -EHOSTUNREACH;
	}
	/* release asks nothing of an unowned segment: say so */
	ret = mp_backend_own(devid, MP_OWN_QUERY, idx, &owner, &sharers);
	if (!ret && owner == CMM_MP_NONE && !sharers) {
		NL_SET_ERR_MSG(info->extack, "segment is not owned");
		return -EALREADY;
	}
	cmd = owner == CMM_MP_NONE && self < MP_OWN_MAX_SHARERS &&
	      (sharers & BIT(self)) ? MP_OWN_UNSHARE : MP_OWN_RELEASE;
	ret = mp_nl_own(d, devid, cmd, idx, &owner, &sharers, info->extack);
	if (ret)
		return ret;
	return mp_nl_reply_rseg(info, d, id, CMM_MP_CMD_SEG_OFFLINE);
}

/*
 * The mode a SEG_ONLINE asks for: System RAM by default for a segment of
 * the local device, dax for one of another device, which can never be
 * System RAM here.
 */
static int mp_nl_mode(struct genl_info *info, bool remote, u32 *mode,
		      bool *shared)
{
	struct nlattr *m = info->attrs[CMM_MP_A_SEG_MODE];
	struct nlattr *sh = info->attrs[CMM_MP_A_SEG_SHARED];

	*mode = m ? nla_get_u32(m) : remote ? CMM_MP_SEG_MODE_DAX :
		CMM_MP_SEG_MODE_RAM;
	*shared = sh && nla_get_u32(sh);
	if (*mode == CMM_MP_SEG_MODE_RAM && remote) {
		NL_SET_ERR_MSG_ATTR(info->extack, m,
				    "a segment of another device cannot be System RAM here: online it as dax or blk");
		return -EINVAL;
	}
	if (*mode == CMM_MP_SEG_MODE_RAM && *shared) {
		NL_SET_ERR_MSG_ATTR(info->extack, sh,
				    "sharing mode needs dax or blk, not System RAM");
		return -EINVAL;
	}
	return 0;
}

/*
 * Where segment @id lives, to map it here: *@devid, *@idx. @s is the
 * local segment, NULL for a remote one. d->lock held.
 */
static int mp_nl_map_where(struct mp_dev *d, u32 id, struct mp_seg *s,
			   u32 *devid, u32 *idx, struct netlink_ext_ack *extack)
{
	struct mp_seg *now;
	int ret = mp_nl_seg_find(d, id, &now);

	if (ret == -ENOENT || now != s) {
		NL_SET_ERR_MSG(extack, "the pool changed meanwhile: try again");
		return -EAGAIN;
	}
	if (mp_remote_find(d, id)) {
		NL_SET_ERR_MSG(extack, "segment is online on this host already");
		return -EALREADY;
	}
	if (s) {
		if (READ_ONCE(s->state) != CMM_MP_SEG_OFFLINE) {
			NL_SET_ERR_MSG(extack, "segment is System RAM here: offline it first");
			return -EBUSY;
		}
		*devid = d->id;
		*idx = s->id;
		return 0;
	}
	if (mp_nl_rseg_where(d, id, devid, idx)) {
		NL_SET_ERR_MSG(extack, "the segment's backing device is lost");
		return -EHOSTUNREACH;
	}
	return 0;
}

/*
 * A segment the pool no longer lists (a stale mapping was just removed):
 * its id, state failed. The caller still gets an answer for its segment.
 */
static int mp_nl_reply_gone(struct genl_info *info, u32 id, u8 cmd)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put(msg, info->snd_portid, info->snd_seq, &mp_nl_family,
			  0, cmd);
	if (!hdr || nla_put_u32(msg, CMM_MP_A_SEG_ID, id) ||
	    nla_put_u32(msg, CMM_MP_A_SEG_STATE, CMM_MP_SEG_FAILED) ||
	    nla_put_u32(msg, CMM_MP_A_SEG_OWNER, CMM_MP_NONE)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int mp_nl_reply_any(struct genl_info *info, struct mp_dev *d, u32 id,
			   struct mp_seg *s, u8 cmd)
{
	int ret;

	if (s) {
		mp_nl_seg_event(s);
		return mp_nl_reply_seg(info, s, cmd);
	}
	ret = mp_nl_reply_rseg(info, d, id, cmd);
	return ret == -ENOENT ? mp_nl_reply_gone(info, id, cmd) : ret;
}

/*
 * Online segment @id as /dev/mps or /dev/mpb: the backing device gives it
 * to us (alone, or as one of its sharers), then we map it.
 */
static int mp_nl_map(struct genl_info *info, struct mp_dev *d, u32 id,
		     struct mp_seg *s, u32 mode, bool shared)
{
	u32 cmd = shared ? MP_OWN_SHARE : MP_OWN_CLAIM;
	u32 devid, idx, devid2, idx2, owner, sharers;
	int ret;

	mutex_lock(&d->lock);
	ret = mp_nl_map_where(d, id, s, &devid, &idx, info->extack);
	mutex_unlock(&d->lock);
	if (ret)
		return ret;
	ret = mp_nl_own(d, devid, cmd, idx, &owner, &sharers, info->extack);
	if (ret)
		return ret;
	mutex_lock(&d->lock);
	ret = mp_nl_map_where(d, id, s, &devid2, &idx2, info->extack);
	if (!ret && (devid2 != devid || idx2 != idx)) {
		NL_SET_ERR_MSG(info->extack, "the pool changed meanwhile: try again");
		ret = -EAGAIN;
	}
	if (!ret)
		ret = mp_remote_map(d, id, devid, idx, mode, shared,
				    info->extack);
	mutex_unlock(&d->lock);
	/* mapped meanwhile by another request of ours: keep what it holds */
	if (ret && ret != -EALREADY)
		mp_nl_own(d, devid, shared ? MP_OWN_UNSHARE :
			  MP_OWN_RELEASE, idx, &owner, &sharers, NULL);
	if (ret)
		return ret;
	return mp_nl_reply_any(info, d, id, s, CMM_MP_CMD_SEG_ONLINE);
}

/*
 * Offline a segment mapped here: unmap it (refused while its device node
 * is in use), then give it back to its backing device. A mapping of an
 * older pool is given back only if its backing device is still there,
 * under whatever device id it has now.
 */
static int mp_nl_unmap(struct genl_info *info, struct mp_dev *d, u32 id,
		       struct mp_seg *s)
{
	u32 devid, idx, owner, sharers, i;
	bool shared, found = true;
	struct mp_remote *r;
	u64 chip;
	int ret;

	mutex_lock(&d->lock);
	r = mp_remote_find(d, id);
	if (!r) {
		mutex_unlock(&d->lock);
		NL_SET_ERR_MSG(info->extack, "segment is not online on this host");
		return -EALREADY;
	}
	devid = r->devid;
	idx = r->idx;
	shared = r->shared;
	chip = r->chip_id;
	if (READ_ONCE(r->stale)) {
		found = false;
		for (i = 0; mp_pool_runtime(d) && i < d->pamt.nr_devs; i++) {
			if (d->pamt.dev[i].valid &&
			    d->pamt.dev[i].chip_id == chip) {
				devid = i;
				found = true;
			}
		}
		if (!chip) {
			devid = d->id;
			found = true;
		}
	}
	ret = mp_remote_unmap(d, id, info->extack);
	mutex_unlock(&d->lock);
	if (ret)
		return ret;
	if (found) {
		ret = mp_nl_own(d, devid, shared ? MP_OWN_UNSHARE :
				MP_OWN_RELEASE, idx, &owner, &sharers,
				info->extack);
		if (ret)
			return ret;
	}
	return mp_nl_reply_any(info, d, id, s, CMM_MP_CMD_SEG_OFFLINE);
}

/*
 * Offline of a segment mapped here, even one the pool no longer lists (a
 * stale mapping after the pool changed): 1 when it was, with the result
 * in *@ret.
 */
static bool mp_nl_unmap_any(struct genl_info *info, int *ret)
{
	struct mp_dev *d = mp_dev_get_default();
	struct mp_seg *s;
	bool mapped;
	u32 id;

	if (!d || !info->attrs[CMM_MP_A_SEG_ID])
		return false;
	id = nla_get_u32(info->attrs[CMM_MP_A_SEG_ID]);
	mutex_lock(&d->lock);
	mapped = mp_remote_find(d, id);
	if (mp_nl_seg_find(d, id, &s))
		s = NULL;
	mutex_unlock(&d->lock);
	if (mapped)
		*ret = mp_nl_unmap(info, d, id, s);
	return mapped;
}

static int mp_nl_seg_change(struct genl_info *info, bool online)
{
	struct mp_dev *d;
	struct mp_seg *s;
	bool remote, shared, mapped;
	u32 id, owner, sharers, mode;
	int ret;

	/*
	 * GENL_ADMIN_PERM asked for CAP_NET_ADMIN; this adds and removes
	 * the host's RAM and hands segments between hosts, as memory
	 * hotplug through sysfs (root's) and daxctl do.
	 */
	if (!capable(CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG(info->extack, "onlining or offlining a segment needs CAP_SYS_ADMIN");
		return -EPERM;
	}

	if (!online && mp_nl_unmap_any(info, &ret))
		return ret;
	s = mp_nl_seg(info, &d);
	remote = PTR_ERR_OR_ZERO(s) == -EREMOTE;
	if (IS_ERR(s) && !remote)
		return PTR_ERR(s);
	if (remote)
		s = NULL;
	id = nla_get_u32(info->attrs[CMM_MP_A_SEG_ID]);
	rcu_read_lock();
	mapped = mp_remote_find(d, id);
	rcu_read_unlock();
	if (online) {
		ret = mp_nl_mode(info, remote, &mode, &shared);
		if (ret)
			return ret;
		if (mode != CMM_MP_SEG_MODE_RAM)
			return mp_nl_map(info, d, id, s, mode, shared);
		if (mapped) {
			NL_SET_ERR_MSG(info->extack, "segment is mapped here: offline it first");
			return -EBUSY;
		}
	}
	if (remote)
		return mp_nl_rseg_release(info, d, id);
	owner = mp_seg_holders(d, s, &sharers);
	if (!online && READ_ONCE(s->state) == CMM_MP_SEG_OFFLINE &&
	    owner != CMM_MP_NONE && owner != READ_ONCE(d->id)) {
		NL_SET_ERR_MSG(info->extack, "only the owner may offline this segment");
		return -EPERM;
	}
	/* local segments go through the same arbitration */
	if (online && READ_ONCE(s->state) == CMM_MP_SEG_OFFLINE) {
		ret = mp_nl_own(d, READ_ONCE(d->id), MP_OWN_CLAIM, s->id,
				&owner, &sharers, info->extack);
		if (ret)
			return ret;
	}
	mutex_lock(&d->lock);
	if (online)
		ret = mp_seg_online_ram(s, info->extack);
	else
		ret = mp_seg_offline_ram(s, info->extack);
	mutex_unlock(&d->lock);
	if (ret && online && READ_ONCE(s->state) == CMM_MP_SEG_OFFLINE)
		mp_local_own(READ_ONCE(d->chip_id), MP_OWN_RELEASE, s->id,
			     &owner, &sharers);
	if (ret)
		return ret;
	mp_nl_seg_event(s);
	return mp_nl_reply_seg(info, s, online ? CMM_MP_CMD_SEG_ONLINE :
			       CMM_MP_CMD_SEG_OFFLINE);
}

/*
 * The pool device may go away meanwhile (a dax device unbound, dax.c):
 * every request looks it up and uses it inside one SRCU read section,
 * taken around each doit by the family's pre_doit/post_doit and around
 * each dump call here (a dump spans many calls; SRCU is not held between).
 */
static int mp_nl_pre_doit(const struct genl_ops *ops, struct sk_buff *skb,
			  struct genl_info *info)
{
	info->user_ptr[0] = (void *)(long)mp_dev_srcu_lock();
	return 0;
}

static void mp_nl_post_doit(const struct genl_ops *ops, struct sk_buff *skb,
			    struct genl_info *info)
{
	mp_dev_srcu_unlock((long)info->user_ptr[0]);
}

static int mp_nl_dev_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	int idx = mp_dev_srcu_lock();
	int ret = __mp_nl_dev_get_dumpit(skb, cb);

	mp_dev_srcu_unlock(idx);
	return ret;
}

static int mp_nl_seg_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	int idx = mp_dev_srcu_lock();
	int ret = __mp_nl_seg_get_dumpit(skb, cb);

	mp_dev_srcu_unlock(idx);
	return ret;
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
		MP_CTR(MALFORMED, malformed), MP_CTR(REFUSED, refused),
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

/*
 * The key that authenticates the pool's traffic, handed to the backend;
 * CAP_SYS_ADMIN, as every command that decides who may use pool memory.
 */
static int mp_nl_key_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *key = info->attrs[CMM_MP_A_KEY];
	u32 op, id;
	int ret;

	if (!capable(CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG(info->extack, "changing the pool key needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	if (GENL_REQ_ATTR_CHECK(info, CMM_MP_A_KEY_OP))
		return -EINVAL;
	op = nla_get_u32(info->attrs[CMM_MP_A_KEY_OP]);
	if (op != CMM_MP_KEY_CLEAR &&
	    (GENL_REQ_ATTR_CHECK(info, CMM_MP_A_KEY_ID) ||
	     GENL_REQ_ATTR_CHECK(info, CMM_MP_A_KEY)))
		return -EINVAL;
	if (op == CMM_MP_KEY_CLEAR && key) {
		NL_SET_ERR_MSG_ATTR(info->extack, key, "clearing takes no key");
		return -EINVAL;
	}
	id = info->attrs[CMM_MP_A_KEY_ID] ?
	     nla_get_u32(info->attrs[CMM_MP_A_KEY_ID]) : 0;
	ret = mp_backend_set_key(op, id, key ? nla_data(key) : NULL);
	if (ret == -ENODEV || ret == -EOPNOTSUPP)
		NL_SET_ERR_MSG(info->extack, "no backend that authenticates its traffic (load mp_eth)");
	else if (ret == -EINVAL)
		NL_SET_ERR_MSG_ATTR(info->extack, key, "key refused: all zero");
	return ret;
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
	{
		.cmd = CMM_MP_CMD_KEY_SET,
		.doit = mp_nl_key_set_doit,
		.flags = GENL_ADMIN_PERM,
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
	.pre_doit	= mp_nl_pre_doit,
	.post_doit	= mp_nl_post_doit,
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
