// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: the messages of the generic netlink family (netlink.c): a pool
 * device, a segment, a backend peer, each as the uapi describes it
 * (include/uapi/linux/cmm_mp.h). Every state they carry comes from the
 * segment core (seg.c), as sysfs's does.
 */
#include <linux/if_ether.h>
#include <linux/memory-tiers.h>
#include <linux/module.h>
#include <linux/cmm_mp_backend.h>
#include <net/genetlink.h>

#include "cmm_mp.h"
#include "netlink.h"
#include "remote.h"

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
	[CMM_MP_A_SEG_MEMMAP_ON_MEMORY] = NLA_POLICY_MAX(NLA_U32, 1),
	[CMM_MP_A_SEG_MIRROR]	= { .type = NLA_U32 },
	[CMM_MP_A_SEG_REDUNDANCY] = { .type = NLA_REJECT },
	[CMM_MP_A_SEG_REBUILT]	= { .type = NLA_REJECT },
};

/* Commands, handlers and the events group are added by mp_nl_init(). */
struct genl_family mp_nl_family __ro_after_init = {
	.name		= CMM_MP_GENL_NAME,
	.version	= CMM_MP_GENL_VERSION,
	.maxattr	= CMM_MP_A_MAX,
	.policy		= mp_nl_policy,
	.netnsok	= false,
	.module		= THIS_MODULE,
	/* every command validates strictly: reserved header bits, attrs */
	.resv_start_op	= CMM_MP_CMD_DEV_GET,
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
int mp_nl_fill_rdev(struct sk_buff *skb, struct mp_dev *d, u32 i,
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

int mp_nl_fill_dev(struct sk_buff *skb, struct mp_dev *d, u32 portid,
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
 * How pool-wide segment @id is used here (mp_seg_usage()): mode, sharing
 * flag, sharers and device node.
 */
static int mp_nl_put_map(struct sk_buff *skb, struct mp_dev *d, u32 id,
			 u32 sharers, u32 partner)
{
	struct mp_seg_use u;

	mp_seg_usage(d, id, sharers, partner, &u);
	if (nla_put_u32(skb, CMM_MP_A_SEG_MODE, u.mode) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_SHARED, u.shared) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_SHARERS, sharers) ||
	    (u.devnode[0] && nla_put_string(skb, CMM_MP_A_SEG_DEVNODE,
					    u.devnode)))
		return -EMSGSIZE;
	if (u.mirror == CMM_MP_NONE)
		return 0;
	if (nla_put_u32(skb, CMM_MP_A_SEG_MIRROR, u.mirror))
		return -EMSGSIZE;
	/* the copies' state is known where the pair is mapped only */
	if (!u.redundancy)
		return 0;
	if (nla_put_u32(skb, CMM_MP_A_SEG_REDUNDANCY, u.redundancy) ||
	    (u.redundancy == CMM_MP_SEG_REBUILDING &&
	     nla_put_u64_64bit(skb, CMM_MP_A_SEG_REBUILT, u.rebuilt,
			       CMM_MP_A_PAD)))
		return -EMSGSIZE;
	return 0;
}

/**
 * mp_nl_fill_mapping() - a segment mapped here whose copies changed
 * @skb: the message
 * @r: the mapping (alive for the call; no lock held)
 * @cmd: CMM_MP_CMD_SEG_EVENT
 *
 * Told from the mapping alone (the pool device's lock is not taken:
 * the change may come from the I/O path): the segment is held by this
 * host and mapped (mp_remote_state(), as its sysfs device reads), with
 * its copies' redundancy.
 *
 * Return: 0 or -EMSGSIZE.
 */
int mp_nl_fill_mapping(struct sk_buff *skb, struct mp_remote *r, u8 cmd)
{
	struct mp_dev *d = r->d;
	u32 state, owner;
	void *hdr;

	state = mp_remote_state(r, &r->leg[0], &owner);
	hdr = genlmsg_put(skb, 0, 0, &mp_nl_family, 0, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, CMM_MP_A_SEG_ID, r->seg) ||
	    nla_put_u32(skb, CMM_MP_A_DEV_ID, READ_ONCE(r->leg[0].devid)) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_SEG_SIZE, r->size, CMM_MP_A_PAD) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_STATE, state) ||
	    mp_nl_put_map(skb, d, r->seg, 0, CMM_MP_NONE) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_OWNER, owner)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int mp_nl_fill_seg(struct sk_buff *skb, struct mp_seg *s, u8 cmd,
		   u32 portid, u32 seq, int flags)
{
	struct mp_dev *d = s->dev;
	u32 first, count, online, movable;
	u32 state, owner, sharers;
	void *hdr;

	state = mp_seg_state(s, &owner, &sharers);
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
	    mp_nl_put_map(skb, d, mp_seg_pool_id(s), sharers,
			  mp_seg_local_pair(s)) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_OWNER, owner) ||
	    nla_put_u32(skb, CMM_MP_A_NODE,
			d->nid < 0 ? CMM_MP_NONE : (u32)d->nid) ||
	    nla_put_u32(skb, CMM_MP_A_MEMBLK_FIRST, first) ||
	    nla_put_u32(skb, CMM_MP_A_MEMBLK_COUNT, count) ||
	    nla_put_u32(skb, CMM_MP_A_MEMBLK_ONLINE, online) ||
	    nla_put_u32(skb, CMM_MP_A_MEMBLK_MOVABLE, movable) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_MEMMAP_ON_MEMORY,
			READ_ONCE(s->memmap_on_memory))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * A segment of another device of the pool: its backing device, state and
 * holders and mirror partner (@owner, @sharers, @partner, from
 * mp_seg_remote_holders()). d->lock held,
 * d->pamt valid, @id a remote segment of it.
 */
int mp_nl_fill_rseg(struct sk_buff *skb, struct mp_dev *d, u32 id,
		    u32 owner, u32 sharers, u32 partner, u8 cmd, u32 portid,
		    u32 seq, int flags)
{
	u32 devid, state;
	u64 nha;
	void *hdr;

	state = mp_seg_remote_state(d, id, owner, sharers, &devid, &nha);
	hdr = genlmsg_put(skb, portid, seq, &mp_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, CMM_MP_A_SEG_ID, id) ||
	    nla_put_u32(skb, CMM_MP_A_DEV_ID, devid) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_SEG_NHA, nha, CMM_MP_A_PAD) ||
	    nla_put_u64_64bit(skb, CMM_MP_A_SEG_SIZE, d->pamt.seg_size,
			      CMM_MP_A_PAD) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_STATE, state) ||
	    mp_nl_put_map(skb, d, id, sharers, partner) ||
	    nla_put_u32(skb, CMM_MP_A_SEG_OWNER, owner)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int mp_nl_fill_peer(struct sk_buff *skb, const struct mp_backend_peer *p,
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

/*
 * A segment the pool no longer lists (a stale mapping was just removed):
 * its id, state failed. The caller still gets an answer for its segment.
 */
int mp_nl_reply_gone(struct genl_info *info, u32 id, u8 cmd)
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
