/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Codec of the mp_eth transport header and discovery payload
 * (include/uapi/linux/mp_eth.h), with the validation rules of
 * Documentation/protocol.rst. Works on byte buffers only: the kernel passes
 * skb data, tests and the fuzzer pass arrays.
 */
#ifndef _CMM_MP_COMMON_FRAME_H
#define _CMM_MP_COMMON_FRAME_H

#include <linux/mp_eth.h>

#include "mp_types.h"

/* A decoded header, in host byte order. */
struct mp_frame {
	u8 op;		/* enum mp_eth_op */
	u8 part;	/* WRITE_REQ with a stride: its part (MP_ETH_F_PART) */
	u16 flags;	/* MP_ETH_F_* but MP_ETH_F_PART */
	u16 src;
	u16 dst;
	u32 gen;
	u16 sn;
	u16 tag;
	u16 ack;
	u16 stride;	/* READ_REQ, WRITE_REQ: part stride (status word), */
			/*   0 one part */
	u64 offset;
	u32 len;
	int status;	/* 0 or -errno (NAK) */
	/*
	 * Not in the header: the bind word of the authentication trailer
	 * (struct mp_eth_auth), decoded with MP_ETH_F_AUTH, 0 without;
	 * mp_frame_reply() echoes it.
	 */
	u32 bind;
};

/* A decoded discovery payload, in host byte order. */
struct mp_discover {
	u64 chip_id;
	u64 capacity;
	u8 mac[6];
	u16 dev_count;
	u32 gen;
	u32 mtu;
};

bool mp_frame_op_is_request(u8 op);
bool mp_frame_op_is_response(u8 op);
bool mp_frame_op_is_control(u8 op);

/* Payload bytes that follow the header of a valid frame f. */
u32 mp_frame_payload_len(const struct mp_frame *f);

/* Trailer bytes after the payload: MP_ETH_AUTH_LEN with MP_ETH_F_AUTH. */
u32 mp_frame_trailer_len(const struct mp_frame *f);

/*
 * Validate f against the protocol rules; max_payload is the largest payload
 * one frame may carry on this link (MTU - MP_ETH_HDR_LEN). 0 or -errno:
 * -EOPNOTSUPP unknown opcode, -EMSGSIZE len > max_payload (a READ_REQ or
 * WRITE_REQ with a stride: stride > max_payload or len >
 * MP_ETH_READ_PARTS * stride; a WRITE_ACK or NAK: len > MP_ETH_READ_PARTS
 * * max_payload), -EPROTO any other inconsistency (a stride on another
 * opcode, a part on a frame without a stride or not below its parts).
 */
int mp_frame_check(const struct mp_frame *f, u32 max_payload);

/*
 * Write the header of f (which must pass mp_frame_check()) into buf.
 * Returns MP_ETH_HDR_LEN, or -errno (-ENOBUFS: size < MP_ETH_HDR_LEN).
 * The caller appends mp_frame_payload_len(f) bytes of payload.
 */
int mp_frame_encode(const struct mp_frame *f, u32 max_payload, u8 *buf,
		    size_t size);

/*
 * Decode and validate the L2 payload buf[0..size): the header, and that the
 * payload mp_frame_payload_len(f) it announces is all there (it starts at
 * buf + MP_ETH_HDR_LEN), and with MP_ETH_F_AUTH the trailer after it
 * (mp_frame_trailer_len(); the caller checks the tag). Other bytes after
 * that are accepted only as Ethernet padding (size <= MP_ETH_MIN_PDU).
 * Never reads outside buf; *f is meaningless after an error. Returns 0 or
 * -errno: -EBADMSG truncated or trailing garbage,
 * -EPROTONOSUPPORT wrong version, plus those of mp_frame_check().
 */
int mp_frame_decode(const u8 *buf, size_t size, u32 max_payload,
		    struct mp_frame *f);

/*
 * Build the response to request req: status 0 gives READ_RESP, WRITE_ACK
 * or OWN_RESP, a negative errno gives a NAK. src/dst are swapped, gen, sn,
 * tag, offset, len and bind are echoed, and so is F_RETX (the copy it
 * answers); other flags, ack, stride and part are cleared: the answer to
 * a write in parts names its whole range. The parts of a read
 * with a stride: mp_frame_read_part().
 * 0 or -EINVAL (req not a request, status out of range).
 */
int mp_frame_reply(const struct mp_frame *req, int status,
		   struct mp_frame *resp);

/*
 * Parts of the answer to a read of len bytes at stride (0: one part):
 * ceil(len / stride), 1 for a stride of 0 or at least len.
 */
u32 mp_frame_parts(u32 len, u32 stride);

/*
 * The part size READ_REQ req asks its answer in: its stride, or, without
 * one, its whole len (one frame). Each answer frame carries up to this
 * many payload bytes, so a responder whose port cannot carry it, signed,
 * refuses the read.
 */
u32 mp_frame_read_stride(const struct mp_frame *req);

/*
 * Write request f's part f->part: where its payload goes, *offset, and
 * how long it is, *len (the whole range for a write without a stride).
 * mp_frame_payload_len() of a WRITE_REQ is that len.
 */
static inline void mp_frame_write_span(const struct mp_frame *f, u64 *offset,
				       u32 *len)
{
	/* a valid frame: part < parts, so part * stride < len */
	u32 skip = f->stride ? (u32)f->part * f->stride : 0;

	*offset = f->offset + skip;
	*len = skip < f->len ? f->len - skip : 0;
	if (f->stride && *len > f->stride)
		*len = f->stride;
}

/*
 * Frame i of WRITE_REQ req (with a stride: the whole range, its stride):
 * req with part i. 0, or -EINVAL (req not a WRITE_REQ, i not below
 * mp_frame_parts()).
 */
int mp_frame_write_part(const struct mp_frame *req, u32 i,
			struct mp_frame *part);

/*
 * Build READ_RESP part i of READ_REQ req, as mp_frame_reply(req, 0, resp)
 * would but for offset and len: req->offset + i * stride and the part's
 * bytes (the rest of the range for the last part). 0, or -EINVAL (req not
 * a READ_REQ, i not below mp_frame_parts()).
 */
int mp_frame_read_part(const struct mp_frame *req, u32 i,
		       struct mp_frame *resp);

/*
 * Does response resp belong to the request (req_op, offset, len) found in
 * the RIFT? 0, or -EPROTO (opcode does not answer req_op) or -EBADMSG
 * (offset or len not echoed).
 */
int mp_frame_match_response(const struct mp_frame *resp, u8 req_op,
			    u64 offset, u32 len);

/*
 * As mp_frame_match_response() for a request of the given stride (a read
 * in parts, 0 for any other request): a READ_RESP must be one of its parts,
 * at a multiple of stride inside the range with that part's len; a NAK
 * answers the whole request and echoes its range. The index of the part
 * (0 for a NAK and a request of one part), or -EPROTO, or -EBADMSG (not
 * one of the parts: offset off the stride or outside the range, or
 * another len).
 */
int mp_frame_match_part(const struct mp_frame *resp, u8 req_op, u64 offset,
			u32 len, u32 stride);

/*
 * What a peer's refusal means to our callers. A NAK's status and an
 * ownership verdict are whatever the peer put there: a caller must only
 * ever see the errnos the protocol defines (a kernel-internal code such
 * as -ERESTARTNOINTR from the wire would be acted on as if it were ours).
 * mp_frame_nak_errno(): -EACCES, -ERANGE, -EINVAL or -ENODEV as sent,
 * anything else -EIO. mp_own_verdict(): 0, -EBUSY, -EINPROGRESS, -EPERM,
 * -ERANGE or -EINVAL as sent, anything else -EPROTO.
 */
int mp_frame_nak_errno(int status);
int mp_own_verdict(int status);

/*
 * An ownership command (OWN_REQ offset, uapi mp_eth.h), host byte order:
 * pdev is the partner's device id, MP_ETH_DEV_ANY for none (pseg 0).
 */
struct mp_own_req {
	u32 cmd;	/* enum mp_eth_own_cmd */
	u32 seg;
	u16 pdev;
	u32 pseg;
};

/*
 * Offset of OWN_REQ r; 0 or -EINVAL: unknown command, a partner named by
 * another command than CLAIM, a partner beyond MP_ETH_OWN_PDEV_MAX or
 * MP_ETH_OWN_PSEG_MAX, a pseg without a partner.
 */
int mp_own_req_encode(const struct mp_own_req *r, u64 *offset);
/* Read an OWN_REQ offset from the wire; 0 or -EINVAL, as encoding refuses. */
int mp_own_req_decode(u64 offset, struct mp_own_req *r);

/*
 * The verdict of an OWN_RESP (struct mp_eth_own, or struct mp_eth_own_pair
 * for a request of MP_ETH_OWN_PAIR_LEN), host byte order: status as sent
 * (mp_own_verdict() tells what it means to us), pdev MP_ETH_DEV_ANY when
 * the segment has no partner or the reply has no room for one.
 */
struct mp_own_resp {
	int status;
	u16 owner;
	u16 sharers;
	u16 pdev;
	u32 pseg;
};

/*
 * len: MP_ETH_OWN_LEN (the partner is left out) or MP_ETH_OWN_PAIR_LEN.
 * Encode returns len or -EINVAL (another len, a pseg without a partner);
 * decode 0, -EINVAL (another len) or -EPROTO (reserved bits set, a pseg
 * without a partner).
 */
int mp_own_resp_encode(const struct mp_own_resp *r, u8 *buf, u32 len);
int mp_own_resp_decode(const u8 *buf, u32 len, struct mp_own_resp *r);

/* Discovery payload codec: MP_ETH_DISCOVER_LEN bytes. */
int mp_discover_encode(const struct mp_discover *d, u8 *buf, size_t size);
int mp_discover_decode(const u8 *buf, size_t size, struct mp_discover *d);

#endif /* _CMM_MP_COMMON_FRAME_H */
