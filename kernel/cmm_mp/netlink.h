/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmm_mp: the generic netlink family (netlink.c) and its messages
 * (nl_msg.c).
 */
#ifndef _CMM_MP_NETLINK_H
#define _CMM_MP_NETLINK_H

#include <net/genetlink.h>

struct mp_backend_peer;
struct mp_dev;
struct mp_remote;
struct mp_seg;

extern struct genl_family mp_nl_family;

int mp_nl_fill_dev(struct sk_buff *skb, struct mp_dev *d, u32 portid,
		   u32 seq, int flags);
int mp_nl_fill_rdev(struct sk_buff *skb, struct mp_dev *d, u32 i,
		    u32 portid, u32 seq, int flags);
int mp_nl_fill_seg(struct sk_buff *skb, struct mp_seg *s, u8 cmd,
		   u32 portid, u32 seq, int flags);
int mp_nl_fill_rseg(struct sk_buff *skb, struct mp_dev *d, u32 id,
		    u32 owner, u32 sharers, u32 partner, u8 cmd, u32 portid,
		    u32 seq, int flags);
int mp_nl_fill_mapping(struct sk_buff *skb, struct mp_remote *r, u8 cmd);
int mp_nl_fill_peer(struct sk_buff *skb, const struct mp_backend_peer *p,
		    u32 portid, u32 seq);
int mp_nl_reply_gone(struct genl_info *info, u32 id, u8 cmd);

#endif /* _CMM_MP_NETLINK_H */
