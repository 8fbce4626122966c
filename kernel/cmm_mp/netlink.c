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
#include "netlink.h"
#include "remote.h"

/*
 * Only ids, the mode and the sharing and memmap flags are ever read from
 * userspace; everything else is output and rejected on input, so that
 * malformed requests fail loudly.
 */

enum mp_nl_mcgrp {
	MP_NL_MCGRP_EVENTS,
};

static const struct genl_multicast_group mp_nl_mcgrps[] = {
	[MP_NL_MCGRP_EVENTS] = { .name = CMM_MP_GENL_MCGRP_EVENTS },
};

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
	ret = mp_seg_find(d, nla_get_u32(info->attrs[CMM_MP_A_SEG_ID]), &s);
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
	cb->seq = d->map_seq;
	n = mp_pool_runtime(d) ? d->pamt.nr_devs : d->id + 1;
	for (i = cb->args[0]; i < n; i++) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)skb_tail_pointer(skb);

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
		nl_dump_check_consistent(cb, nlh);
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
	u32 owner = CMM_MP_NONE, sharers = 0, partner = CMM_MP_NONE;
	int ret;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&d->lock);
	if (mp_pool_runtime(d) && id < d->pamt.nr_segs)
		owner = mp_seg_remote_holders(d, id, &sharers, &partner);
	ret = mp_pool_runtime(d) && id < d->pamt.nr_segs ?
	      mp_nl_fill_rseg(msg, d, id, owner, sharers, partner, cmd,
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

/*
 * The pool-wide ids a segment dump covers as the pool is now: up to the
 * returned end, from *@i on (our own first one outside RUNTIME).
 */
static u32 mp_nl_seg_range(struct mp_dev *d, u32 *i)
{
	if (mp_pool_runtime(d))
		return d->pamt.nr_segs;
	*i = max(*i, d->first_seg);
	return d->first_seg + d->geo.nr_segs;
}

/*
 * Every segment of the pool by pool-wide id; local ones outside RUNTIME.
 *
 * A dump spans many calls, with d->lock dropped between them and inside
 * one (mp_seg_remote_holders()). Ids are pool-wide: a new pool map
 * meanwhile renumbers the segments not yet sent. cb->seq is the map's
 * count (d->map_seq), so the first message under another map, or the
 * NLMSG_DONE, carries NLM_F_DUMP_INTR; libmp starts the dump again or
 * says the list is not of one pool (libmp/nl.c). The dump goes on under
 * the new map rather than end early: a cut list is never a whole one.
 */
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
	cb->seq = d->map_seq;
	i = cb->args[0];
	n = mp_nl_seg_range(d, &i);
	while (i < n) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)skb_tail_pointer(skb);

		if (mp_seg_find(d, i, &s) == -EREMOTE) {
			u32 sharers, partner, owner;

			owner = mp_seg_remote_holders(d, i, &sharers, &partner);
			if (cb->seq != d->map_seq) {
				/* a new map while unlocked: @i again under it */
				cb->seq = d->map_seq;
				n = mp_nl_seg_range(d, &i);
				continue;
			}
			ret = mp_nl_fill_rseg(skb, d, i, owner, sharers, partner,
					      CMM_MP_CMD_SEG_GET,
					      NETLINK_CB(cb->skb).portid,
					      cb->nlh->nlmsg_seq, NLM_F_MULTI);
		} else if (s) {
			ret = mp_nl_fill_seg(skb, s, CMM_MP_CMD_SEG_GET,
					     NETLINK_CB(cb->skb).portid,
					     cb->nlh->nlmsg_seq, NLM_F_MULTI);
		} else {
			i++;	/* not listed in this pool state */
			continue;
		}
		if (ret)
			break;
		nl_dump_check_consistent(cb, nlh);
		i++;
	}
	mutex_unlock(&d->lock);
	cb->args[0] = i;
	if (ret && !skb->len)
		return ret;
	return skb->len;
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

/* The state of segment @id after a change, whatever device it is of. */
static int mp_nl_reply_id(struct genl_info *info, struct mp_dev *d, u32 id,
			  u8 cmd)
{
	struct mp_seg *s;
	int ret;

	mutex_lock(&d->lock);
	ret = mp_seg_find(d, id, &s);
	mutex_unlock(&d->lock);
	if (!ret)
		return mp_nl_reply_seg(info, s, cmd);
	ret = mp_nl_reply_rseg(info, d, id, cmd);
	return ret == -ENOENT ? mp_nl_reply_gone(info, id, cmd) : ret;
}

/*
 * The pool device that a command changing segments acts on, and the
 * segment it names (*@id); NULL with the error in *@err. GENL_ADMIN_PERM
 * asked for CAP_NET_ADMIN; these add and remove the host's RAM and hand
 * segments between hosts, as memory hotplug through sysfs (root's) and
 * daxctl do: CAP_SYS_ADMIN (@repair: for a repair, else an online or
 * offline).
 */
static struct mp_dev *mp_nl_seg_admin(struct genl_info *info, bool repair,
				      u32 *id, int *err)
{
	struct mp_dev *d = mp_dev_get_default();

	*err = -EPERM;
	if (!capable(CAP_SYS_ADMIN) && repair) {
		NL_SET_ERR_MSG(info->extack, "repairing a segment needs CAP_SYS_ADMIN");
		return NULL;
	}
	if (!capable(CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG(info->extack, "onlining or offlining a segment needs CAP_SYS_ADMIN");
		return NULL;
	}
	*err = -ENOENT;
	if (!d) {
		NL_SET_ERR_MSG(info->extack, "no pool device");
		return NULL;
	}
	*err = -EINVAL;
	if (GENL_REQ_ATTR_CHECK(info, CMM_MP_A_SEG_ID))
		return NULL;
	*id = nla_get_u32(info->attrs[CMM_MP_A_SEG_ID]);
	return d;
}

static int mp_nl_seg_change(struct genl_info *info, bool online)
{
	struct nlattr *mode = info->attrs[CMM_MP_A_SEG_MODE];
	struct nlattr *shared = info->attrs[CMM_MP_A_SEG_SHARED];
	struct nlattr *memmap = info->attrs[CMM_MP_A_SEG_MEMMAP_ON_MEMORY];
	struct nlattr *mirror = info->attrs[CMM_MP_A_SEG_MIRROR];
	struct mp_dev *d;
	u32 id, flags = 0;
	u8 cmd;
	int ret;

	d = mp_nl_seg_admin(info, false, &id, &ret);
	if (!d)
		return ret;
	if (!online && (memmap || mirror)) {
		NL_SET_ERR_MSG_ATTR(info->extack, memmap ?: mirror,
				    "memmap_on_memory and mirror are online options");
		return -EINVAL;
	}
	if (shared && nla_get_u32(shared))
		flags |= MP_SEG_SHARED;
	if (memmap && nla_get_u32(memmap))
		flags |= MP_SEG_MEMMAP_ON_MEMORY;
	if (online) {
		cmd = CMM_MP_CMD_SEG_ONLINE;
		ret = mp_seg_online(d, id,
				    mode ? nla_get_u32(mode) : MP_SEG_MODE_AUTO,
				    flags,
				    mirror ? nla_get_u32(mirror) : CMM_MP_NONE,
				    info->extack);
	} else {
		cmd = CMM_MP_CMD_SEG_OFFLINE;
		ret = mp_seg_offline(d, id, info->extack);
	}
	if (ret == -ENOENT)
		NL_SET_BAD_ATTR(info->extack, info->attrs[CMM_MP_A_SEG_ID]);
	if (ret)
		return ret;
	return mp_nl_reply_id(info, d, id, cmd);
}

/*
 * Rebuild the lost copy of a mirrored segment, in place or on a
 * replacement; the reply is the segment as it is once the rebuild started.
 */
static int mp_nl_seg_repair_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *to = info->attrs[CMM_MP_A_SEG_MIRROR];
	struct mp_dev *d;
	u32 id;
	int ret;

	d = mp_nl_seg_admin(info, true, &id, &ret);
	if (!d)
		return ret;
	ret = mp_seg_repair(d, id, to ? nla_get_u32(to) : CMM_MP_NONE,
			    info->extack);
	if (ret)
		return ret;
	return mp_nl_reply_id(info, d, id, CMM_MP_CMD_SEG_REPAIR);
}

static int mp_nl_seg_online_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mp_nl_seg_change(info, true);
}

static int mp_nl_seg_offline_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mp_nl_seg_change(info, false);
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

/*
 * Tell listeners of the events group that a segment of the local device
 * changed, or the copies of a segment mapped here (events.c). Events are
 * best effort, like every netlink multicast: a listener that falls behind
 * sees ENOBUFS and re-reads the state with a dump.
 */
static int mp_nl_seg_event(struct notifier_block *nb, unsigned long action,
			   void *data)
{
	struct sk_buff *msg;
	int ret;

	/* a mapping's device comes and goes with it: sysfs.c tells udev */
	if (action != MP_SEG_EV_LOCAL && action != MP_SEG_EV_MAPPING)
		return NOTIFY_DONE;
	if (!genl_has_listeners(&mp_nl_family, &init_net, MP_NL_MCGRP_EVENTS))
		return NOTIFY_DONE;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return NOTIFY_DONE;
	if (action == MP_SEG_EV_MAPPING)
		ret = mp_nl_fill_mapping(msg, data, CMM_MP_CMD_SEG_EVENT);
	else
		ret = mp_nl_fill_seg(msg, data, CMM_MP_CMD_SEG_EVENT, 0, 0, 0);
	if (ret) {
		nlmsg_free(msg);
		return NOTIFY_DONE;
	}
	genlmsg_multicast(&mp_nl_family, msg, 0, MP_NL_MCGRP_EVENTS,
			  GFP_KERNEL);
	return NOTIFY_OK;
}

static struct notifier_block mp_nl_seg_nb = {
	.notifier_call = mp_nl_seg_event,
};

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
		NL_SET_ERR_MSG(info->extack,
			       "no backend that authenticates its traffic (load mp_eth)");
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
	{
		.cmd = CMM_MP_CMD_SEG_REPAIR,
		.doit = mp_nl_seg_repair_doit,
		.flags = GENL_ADMIN_PERM,
	},
};

/*
 * The family's messages and policy are defined with the message builders
 * (nl_msg.c); the commands and their handlers join them here.
 */
int mp_nl_init(void)
{
	int ret;

	mp_nl_family.small_ops = mp_nl_ops;
	mp_nl_family.n_small_ops = ARRAY_SIZE(mp_nl_ops);
	mp_nl_family.pre_doit = mp_nl_pre_doit;
	mp_nl_family.post_doit = mp_nl_post_doit;
	mp_nl_family.mcgrps = mp_nl_mcgrps;
	mp_nl_family.n_mcgrps = ARRAY_SIZE(mp_nl_mcgrps);
	ret = genl_register_family(&mp_nl_family);

	if (!ret)
		mp_seg_notifier_register(&mp_nl_seg_nb);
	return ret;
}

void mp_nl_exit(void)
{
	mp_seg_notifier_unregister(&mp_nl_seg_nb);
	genl_unregister_family(&mp_nl_family);
}
