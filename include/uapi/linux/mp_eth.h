/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * mp_eth: wire format of the cmm_mp remote-memory transport over raw
 * Ethernet (Documentation/protocol.rst is the full specification).
 *
 * Every frame is an IEEE 802.3 Ether II frame whose EtherType is
 * MP_ETH_P_DATA (requests and responses) or MP_ETH_P_CTRL (discovery and
 * membership); both are module parameters, these are the defaults, taken
 * from the IEEE "local experimental" range. The Ethernet header is followed
 * by the fixed 32-byte struct mp_eth_hdr and then by an optional payload
 * whose size the opcode and the header's len field determine.
 *
 * All multi-byte fields are big endian (network byte order). The header
 * starts 14 bytes into the frame, so it is not naturally aligned in a
 * receive buffer: never dereference a struct mp_eth_hdr pointer into a
 * packet; use the byte-wise codec in kernel/common/mp_frame.c (or
 * get_unaligned_be*()). The structs below document the layout; each field
 * is commented with its byte offset.
 */
#ifndef _UAPI_LINUX_MP_ETH_H
#define _UAPI_LINUX_MP_ETH_H

#include <linux/types.h>

#define MP_ETH_P_DATA		0x88B5	/* default EtherType: data path */
#define MP_ETH_P_CTRL		0x88B6	/* default EtherType: control path */

#define MP_ETH_VERSION		1
#define MP_ETH_HDR_LEN		32	/* sizeof(struct mp_eth_hdr) */
#define MP_ETH_DISCOVER_LEN	32	/* sizeof(struct mp_eth_discover) */
#define MP_ETH_MIN_MTU		1280	/* smallest mtu a device may announce */

/*
 * Shortest L2 payload on the wire (ETH_ZLEN - ETH_HLEN): shorter frames are
 * padded by the sender's MAC, so receivers accept trailing bytes after the
 * payload as long as the whole L2 payload is at most this long.
 */
#define MP_ETH_MIN_PDU		46

/*
 * Receive window: a requester never has more than MP_ETH_WINDOW sequence
 * numbers in flight towards one peer, counted from its cumulative ack
 * (see MP_ETH_F_ACK), and a responder tracks MP_ETH_WINDOW sequence numbers
 * beyond its base.
 */
#define MP_ETH_WINDOW		64

/*
 * Multi-part reads: a READ_REQ whose status word is a stride S (not 0) asks
 * for len <= MP_ETH_READ_PARTS * S bytes, answered by ceil(len / S)
 * READ_RESP frames, part i carrying bytes [i * S, min((i + 1) * S, len))
 * of the range at its own offset and len. A stride of 0 asks for one
 * frame (len <= max_payload). A pool runs one release of the protocol:
 * there is no version negotiation.
 *
 * Writes in parts: a WRITE_REQ whose status word is a stride S (not 0)
 * writes len <= MP_ETH_READ_PARTS * S bytes at offset in ceil(len / S)
 * frames under one sequence number. Every frame names the whole range
 * (offset, len) and S, and the part it carries in the flags
 * (MP_ETH_F_PART): part i's payload is bytes [i * S, min((i + 1) * S, len))
 * of the range. The responder applies each part once and answers the
 * sequence number with one WRITE_ACK (or NAK) once all parts are in.
 */
#define MP_ETH_READ_PARTS	8

/* Device id meaning "any/unknown" (broadcast discovery, not yet ranked). */
#define MP_ETH_DEV_ANY		0xffff
/* struct mp_eth_own owner: a device that is not in the pool now */
#define MP_ETH_DEV_GONE		0xfffe

/* Largest |status| in a NAK: Linux errno values, as the kernel's MAX_ERRNO. */
#define MP_ETH_MAX_ERRNO	4095

enum mp_eth_op {
	/* data path (MP_ETH_P_DATA) */
	MP_ETH_OP_READ_REQ	= 0x01,	/* read len bytes at offset; no payload */
	MP_ETH_OP_WRITE_REQ	= 0x02,	/* write the payload at offset (a part: above) */
	MP_ETH_OP_READ_RESP	= 0x03,	/* len bytes of data follow; status 0 */
	MP_ETH_OP_WRITE_ACK	= 0x04,	/* write applied; no payload; status 0 */
	MP_ETH_OP_NAK		= 0x05,	/* request refused: status = -errno */
	/* segment ownership: offset = MP_ETH_OWN_OFF(cmd, segment), len 8 */
	MP_ETH_OP_OWN_REQ	= 0x06,	/* no payload */
	MP_ETH_OP_OWN_RESP	= 0x07,	/* struct mp_eth_own; status 0 */
	/* control path (MP_ETH_P_CTRL) */
	MP_ETH_OP_DISCOVER	= 0x10,	/* broadcast: struct mp_eth_discover */
	MP_ETH_OP_DISCOVER_ACK	= 0x11,	/* reply, heartbeat: struct mp_eth_discover */
};

/* flags */
/* request: a retransmission; response: it answers such a copy */
#define MP_ETH_F_RETX	0x0001
#define MP_ETH_F_ACK	0x0002	/* request: the ack field is valid */
/*
 * Control: a DISCOVER_ACK about its sender that is a formed pool's
 * heartbeat, sent to one member (heartbeats go along the ranks,
 * Documentation/pool.rst). Version 1 senders before it broadcast their
 * heartbeats unmarked; a broadcast DISCOVER_ACK about its sender still is
 * one.
 */
#define MP_ETH_F_HB	0x0004
/*
 * The frame carries an authentication trailer (struct mp_eth_auth) right
 * after its payload: any opcode, set by senders that have a pool key.
 * Receivers with a key drop frames without a valid one, receivers without
 * a key drop frames that have one (Documentation/security.rst).
 */
#define MP_ETH_F_AUTH	0x8000
#define MP_ETH_F_KNOWN	(MP_ETH_F_RETX | MP_ETH_F_ACK)
/*
 * A WRITE_REQ with a stride: the index of the part the frame carries
 * (0 .. MP_ETH_READ_PARTS - 1); must be 0 in every other frame.
 */
#define MP_ETH_F_PART_SHIFT	8
#define MP_ETH_F_PART		0x0700

/*
 * Transport header, 32 bytes, right after the Ethernet header.
 *
 * version  MP_ETH_VERSION.
 * op       enum mp_eth_op.
 * flags    MP_ETH_F_*; unknown bits are rejected.
 * src/dst  device ids (rank in the pool); MP_ETH_DEV_ANY only in control
 *          frames.
 * gen      pool membership generation of the sender; data frames whose
 *          generation differs from the receiver's are dropped.
 * sn       per (requester, responder) 16-bit sequence number of a request;
 *          responses echo it. Serial-number arithmetic (RFC 1982).
 * tag      RIFT index at the requester; responses echo it.
 * offset   byte offset in the target device's pool DRAM; responses echo it.
 * len      bytes to read or write; responses echo it.
 * status   0, or in a NAK a negative errno (two's complement); in a
 *          READ_REQ or WRITE_REQ the part stride (MP_ETH_READ_PARTS), 0
 *          for one part.
 * ack      requests with MP_ETH_F_ACK: every sequence number up to and
 *          including ack is finished at the requester (answered or given
 *          up), and 1 <= sn - ack <= MP_ETH_WINDOW. Otherwise zero.
 */
struct mp_eth_hdr {
	__u8	version;	/*  0 */
	__u8	op;		/*  1 */
	__be16	flags;		/*  2 */
	__be16	src;		/*  4 */
	__be16	dst;		/*  6 */
	__be32	gen;		/*  8 */
	__be16	sn;		/* 12 */
	__be16	tag;		/* 14 */
	__be64	offset;		/* 16 */
	__be32	len;		/* 24 */
	__be16	status;		/* 28 */
	__be16	ack;		/* 30 */
};

/*
 * Payload of DISCOVER and DISCOVER_ACK (len == MP_ETH_DISCOVER_LEN).
 *
 * chip_id    unique, non-zero id of the sending device; the sorted list of
 *            chip ids gives device ids by rank.
 * capacity   bytes of DRAM the device contributes to the pool.
 * mac        unicast MAC of the device's backend port.
 * dev_count  devices the sender currently knows, itself included (>= 1).
 * gen        the sender's discovery round (equals the header's gen); a round
 *            that forms a pool gives it its membership generation.
 * mtu        largest L2 payload the sender accepts, at least MP_ETH_MIN_MTU:
 *            the pool's frames are sized by the smallest member's, so a
 *            smaller one (a forged DISCOVER) would shrink everyone's.
 *
 * A broadcast DISCOVER_ACK whose mac is not the sender's is a proxy report:
 * chip_id, capacity, mac and mtu then describe a pool member the sender
 * lost (Documentation/pool.rst).
 */
struct mp_eth_discover {
	__be64	chip_id;	/*  0 */
	__be64	capacity;	/*  8 */
	__u8	mac[6];		/* 16 */
	__be16	dev_count;	/* 22 */
	__be32	gen;		/* 24 */
	__be32	mtu;		/* 28 */
};

/*
 * Authentication trailer of a frame with MP_ETH_F_AUTH, right after the
 * payload (before any Ethernet padding).
 *
 * key_id   which pool key made the tag (chosen by the administrator; lets
 *          receivers hold the old and the new key during a rotation).
 * bind     a request's nonce, chosen by the requester for the RIFT entry
 *          (the same in every copy); its response echoes it, and the
 *          requester takes a response only with the nonce of the request
 *          in flight: a response captured earlier (an older cycle of the
 *          16-bit SNs) answers nothing. 0 in control frames.
 * stamp    the sender's CLOCK_REALTIME in ns when it sent the frame, made
 *          strictly increasing per sender: receivers refuse a frame whose
 *          stamp is not within their replay window of their own clock,
 *          and a control frame not newer than the sender's last one
 *          (Documentation/protocol.rst, "Authentication trailer").
 * tag      SipHash-2-4 under that 128-bit key of every byte of the frame
 *          from the source MAC (frame offset 6: source MAC, EtherType,
 *          header with MP_ETH_F_AUTH set, payload) through stamp, i.e.
 *          everything but the destination MAC and the tag itself.
 */
#define MP_ETH_AUTH_LEN		24	/* sizeof(struct mp_eth_auth) */

struct mp_eth_auth {
	__be32	key_id;		/*  0 */
	__be32	bind;		/*  4 */
	__be64	stamp;		/*  8 */
	__be64	tag;		/* 16 */
};

/*
 * Segment ownership (Documentation/pool.rst): an OWN_REQ whose offset is
 * command << 32 | segment (the backing device's own segment index) and
 * whose len is MP_ETH_OWN_LEN asks the device to arbitrate. It rides the
 * data path, so it is retransmitted, windowed and deduplicated like any
 * request; the responder executes it once and answers every copy with the
 * verdict it cached then (a duplicate or replay never arbitrates again).
 * The OWN_RESP payload is struct mp_eth_own; a malformed request (unknown
 * command) is NAKed (-EINVAL).
 *
 * A mirror copy's claim names its partner, the segment that keeps the
 * other copy (Documentation/pool.rst, "Mirrored segments"), in the upper
 * bits of the offset: MP_ETH_OWN_PAIR_OFF(cmd, seg, pdev, pseg), the
 * partner's device id plus one (0: none, so that a frame without it reads
 * as before) and its segment index there. Only a CLAIM may name one. A
 * request whose len is MP_ETH_OWN_PAIR_LEN asks for struct mp_eth_own_pair,
 * the verdict with the partner the device keeps with the owner; with
 * MP_ETH_OWN_LEN it gets struct mp_eth_own, as senders before pairs.
 */
#define MP_ETH_OWN_LEN		8	/* sizeof(struct mp_eth_own) */
#define MP_ETH_OWN_PAIR_LEN	16	/* sizeof(struct mp_eth_own_pair) */
#define MP_ETH_OWN_OFF(cmd, seg) \
	(((__u64)(cmd) << 32) | (__u32)(seg))
/* offset bits 32..35 command, 36..46 partner device + 1, 47..63 its index */
#define MP_ETH_OWN_CMD_BITS	4
#define MP_ETH_OWN_PDEV_BITS	11
#define MP_ETH_OWN_PSEG_BITS	17
#define MP_ETH_OWN_PDEV_SHIFT	(32 + MP_ETH_OWN_CMD_BITS)
#define MP_ETH_OWN_PSEG_SHIFT	(MP_ETH_OWN_PDEV_SHIFT + MP_ETH_OWN_PDEV_BITS)
/* the largest partner device id and segment index a claim can name */
#define MP_ETH_OWN_PDEV_MAX	((1U << MP_ETH_OWN_PDEV_BITS) - 2)
#define MP_ETH_OWN_PSEG_MAX	((1U << MP_ETH_OWN_PSEG_BITS) - 1)
#define MP_ETH_OWN_PAIR_OFF(cmd, seg, pdev, pseg) \
	(MP_ETH_OWN_OFF(cmd, seg) | \
	 ((__u64)((pdev) + 1) << MP_ETH_OWN_PDEV_SHIFT) | \
	 ((__u64)(pseg) << MP_ETH_OWN_PSEG_SHIFT))

enum mp_eth_own_cmd {
	MP_ETH_OWN_QUERY	= 1,	/* who owns it */
	MP_ETH_OWN_CLAIM	= 2,	/* give it to the sender exclusively */
	MP_ETH_OWN_RELEASE	= 3,	/* the sender gives it back */
	MP_ETH_OWN_SHARE	= 4,	/* add the sender to the sharers */
	MP_ETH_OWN_UNSHARE	= 5,	/* remove the sender from the sharers */
};

/*
 * A segment has one owner (CLAIM, pooling mode) or a set of sharers
 * (SHARE, sharing mode), never both: a CLAIM of a shared segment and a
 * SHARE of an owned one answer -EBUSY. A segment is zeroed when it is
 * handed to a new owner or to the first member of a new set of sharers.
 *
 * status   0, -EBUSY (owned or shared by others: owner, sharers),
 *          -EINPROGRESS (claimed, being zeroed: ask again), -EPERM
 *          (release or unshare by a non-holder), -ERANGE (no such
 *          segment, or a sender id beyond the sharers bitmap)
 * owner    device id of the owner after the command, MP_ETH_DEV_ANY none,
 *          MP_ETH_DEV_GONE a device that is not in the pool now (it keeps
 *          the segment until it returns: holders are kept by chip id)
 * sharers  bitmap of the device ids sharing it after the command (bit i:
 *          device i); 0 for none. Version 1 senders before sharing left
 *          it 0 (reserved).
 */
struct mp_eth_own {
	__be32	status;		/* 0 */
	__be16	owner;		/* 4 */
	__be16	sharers;	/* 6 */
};

/*
 * OWN_RESP payload to a request of len MP_ETH_OWN_PAIR_LEN: the verdict,
 * and the partner of the segment after the command.
 *
 * pdev     device id of the partner segment's device, MP_ETH_DEV_ANY for no
 *          partner, MP_ETH_DEV_GONE a device that is not in the pool now
 *          (the partner is kept by chip id, like the owner)
 * pseg     the partner's segment index on that device; 0 without one
 * reserved 0
 *
 * The partner is the owner's: a claim sets it (a claim by the owner again
 * changes it, e.g. when a repair moved the other copy), and it goes when
 * the segment is released, wiped or handed to another owner.
 */
struct mp_eth_own_pair {
	struct mp_eth_own own;	/* 0 */
	__be16	pdev;		/* 8 */
	__be16	reserved;	/* 10 */
	__be32	pseg;		/* 12 */
};

#endif /* _UAPI_LINUX_MP_ETH_H */
