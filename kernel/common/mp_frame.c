// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth header and discovery payload codec (pure logic, shared with
 * userspace tests and the fuzzer).
 *
 * Every field is read and written through the offsets of the uapi structs,
 * so the structs in include/uapi/linux/mp_eth.h are the one definition of
 * the layout; the asserts below keep them from growing padding.
 */
#include "mp_frame.h"
#include "mp_bytes.h"

#define HOFF(field)	offsetof(struct mp_eth_hdr, field)
#define DOFF(field)	offsetof(struct mp_eth_discover, field)

static_assert(sizeof(struct mp_eth_hdr) == MP_ETH_HDR_LEN,
	      "mp_eth_hdr must be 32 bytes");
static_assert(HOFF(flags) == 2 && HOFF(src) == 4 && HOFF(dst) == 6 &&
	      HOFF(gen) == 8 && HOFF(sn) == 12 && HOFF(tag) == 14 &&
	      HOFF(offset) == 16 && HOFF(len) == 24 &&
	      HOFF(status) == 28 && HOFF(ack) == 30,
	      "mp_eth_hdr offsets are part of the ABI");
static_assert(sizeof(struct mp_eth_discover) == MP_ETH_DISCOVER_LEN,
	      "mp_eth_discover must be 32 bytes");
static_assert(DOFF(capacity) == 8 && DOFF(mac) == 16 &&
	      DOFF(dev_count) == 22 && DOFF(gen) == 24 && DOFF(mtu) == 28,
	      "mp_eth_discover offsets are part of the ABI");
static_assert(sizeof(struct mp_eth_own) == MP_ETH_OWN_LEN &&
	      sizeof(struct mp_eth_own_pair) == MP_ETH_OWN_PAIR_LEN &&
	      offsetof(struct mp_eth_own_pair, pdev) == 8 &&
	      offsetof(struct mp_eth_own_pair, reserved) == 10 &&
	      offsetof(struct mp_eth_own_pair, pseg) == 12,
	      "mp_eth_own_pair offsets are part of the ABI");
static_assert(MP_ETH_OWN_PSEG_SHIFT + MP_ETH_OWN_PSEG_BITS == 64 &&
	      MP_ETH_OWN_PDEV_MAX < MP_ETH_DEV_GONE,
	      "OWN_REQ offset fields fill 64 bits, no partner reads as none");
static_assert(sizeof(struct mp_eth_auth) == MP_ETH_AUTH_LEN &&
	      offsetof(struct mp_eth_auth, bind) == 4 &&
	      offsetof(struct mp_eth_auth, stamp) == 8 &&
	      offsetof(struct mp_eth_auth, tag) == 16,
	      "mp_eth_auth offsets are part of the ABI");
static_assert((MP_ETH_F_PART >> MP_ETH_F_PART_SHIFT) + 1 == MP_ETH_READ_PARTS &&
	      !(MP_ETH_F_PART & (MP_ETH_F_KNOWN | MP_ETH_F_HB | MP_ETH_F_AUTH)),
	      "a write's part index fits its flag bits");

bool mp_frame_op_is_request(u8 op)
{
	return op == MP_ETH_OP_READ_REQ || op == MP_ETH_OP_WRITE_REQ ||
	       op == MP_ETH_OP_OWN_REQ;
}

bool mp_frame_op_is_response(u8 op)
{
	return op == MP_ETH_OP_READ_RESP || op == MP_ETH_OP_WRITE_ACK ||
	       op == MP_ETH_OP_OWN_RESP || op == MP_ETH_OP_NAK;
}

bool mp_frame_op_is_control(u8 op)
{
	return op == MP_ETH_OP_DISCOVER || op == MP_ETH_OP_DISCOVER_ACK;
}

u32 mp_frame_payload_len(const struct mp_frame *f)
{
	u64 offset;
	u32 len;

	switch (f->op) {
	case MP_ETH_OP_WRITE_REQ:
		mp_frame_write_span(f, &offset, &len);
		return len;
	case MP_ETH_OP_READ_RESP:
	case MP_ETH_OP_OWN_RESP:
	case MP_ETH_OP_DISCOVER:
	case MP_ETH_OP_DISCOVER_ACK:
		return f->len;
	default:
		return 0;
	}
}

u32 mp_frame_trailer_len(const struct mp_frame *f)
{
	return f->flags & MP_ETH_F_AUTH ? MP_ETH_AUTH_LEN : 0;
}

static bool status_is_errno(int status)
{
	return status < 0 && status >= -MP_ETH_MAX_ERRNO;
}

/*
 * Rules shared by requests and responses: two distinct, real devices and a
 * non-empty range that fits one frame and does not wrap the offset space.
 * A READ_REQ is held to the frame limit as well because its READ_RESP has
 * to fit a frame, unless it has a stride: then each of its parts must,
 * and there are at most MP_ETH_READ_PARTS of them. A WRITE_REQ with a
 * stride is one of at most MP_ETH_READ_PARTS frames of its range, each
 * carrying at most a stride; its WRITE_ACK echoes the whole range.
 */
static int check_data(const struct mp_frame *f, u32 max_payload)
{
	u64 limit = max_payload;

	if (f->src == MP_ETH_DEV_ANY || f->dst == MP_ETH_DEV_ANY ||
	    f->src == f->dst)
		return -EPROTO;
	if (!f->len)
		return -EPROTO;
	if (f->stride) {
		if (f->op != MP_ETH_OP_READ_REQ && f->op != MP_ETH_OP_WRITE_REQ)
			return -EPROTO;
		if (f->stride > max_payload)
			return -EMSGSIZE;
		limit = (u64)f->stride * MP_ETH_READ_PARTS;
	} else if (f->op == MP_ETH_OP_NAK || f->op == MP_ETH_OP_WRITE_ACK) {
		/* no payload; it echoes the len of a request in parts */
		limit = (u64)max_payload * MP_ETH_READ_PARTS;
	}
	if (f->len > limit)
		return -EMSGSIZE;
	/* a part of a write in parts is one of them */
	if (f->part && (f->op != MP_ETH_OP_WRITE_REQ ||
			f->part >= mp_frame_parts(f->len, f->stride)))
		return -EPROTO;
	if (f->len - 1 > ~0ULL - f->offset)
		return -EPROTO;
	return 0;
}

/* Flags but MP_ETH_F_AUTH, which any frame may carry. */
static u16 flags_of(const struct mp_frame *f)
{
	return f->flags & ~MP_ETH_F_AUTH;
}

static int check_request(const struct mp_frame *f)
{
	u16 span;

	if (f->status)
		return -EPROTO;
	if (!(f->flags & MP_ETH_F_ACK))
		return f->ack ? -EPROTO : 0;
	/*
	 * The requester never runs more than MP_ETH_WINDOW sequence numbers
	 * ahead of its cumulative ack, and sn itself is unfinished.
	 */
	span = (u16)(f->sn - f->ack);
	if (span < 1 || span > MP_ETH_WINDOW)
		return -EPROTO;
	return 0;
}

static int check_response(const struct mp_frame *f)
{
	/* F_RETX: it answers a retransmitted copy (see mp_frame_reply()) */
	if ((flags_of(f) & ~MP_ETH_F_RETX) || f->ack)
		return -EPROTO;
	if (f->op == MP_ETH_OP_NAK)
		return status_is_errno(f->status) ? 0 : -EPROTO;
	return f->status ? -EPROTO : 0;
}

static int check_control(const struct mp_frame *f, u32 max_payload)
{
	/* the heartbeat mark: only on a DISCOVER_ACK, whose offset is then
	 * the digest of its sender's pool map
	 */
	if ((flags_of(f) & ~MP_ETH_F_HB) || f->ack || f->status)
		return -EPROTO;
	if (f->flags & MP_ETH_F_HB ? f->op != MP_ETH_OP_DISCOVER_ACK :
	    f->offset != 0)
		return -EPROTO;
	if (f->len > max_payload)
		return -EMSGSIZE;
	if (f->len != MP_ETH_DISCOVER_LEN)
		return -EPROTO;
	if (f->op == MP_ETH_OP_DISCOVER && f->dst != MP_ETH_DEV_ANY)
		return -EPROTO;
	return 0;
}

int mp_frame_check(const struct mp_frame *f, u32 max_payload)
{
	int ret;

	if (!f)
		return -EINVAL;
	if (mp_frame_op_is_control(f->op))
		return check_control(f, max_payload);
	if (!mp_frame_op_is_request(f->op) && !mp_frame_op_is_response(f->op))
		return -EOPNOTSUPP;
	if (flags_of(f) & ~MP_ETH_F_KNOWN)
		return -EPROTO;
	ret = check_data(f, max_payload);
	if (ret)
		return ret;
	/* an ownership command and its verdict: struct mp_eth_own(_pair) */
	if ((f->op == MP_ETH_OP_OWN_REQ || f->op == MP_ETH_OP_OWN_RESP) &&
	    f->len != MP_ETH_OWN_LEN && f->len != MP_ETH_OWN_PAIR_LEN)
		return -EPROTO;
	if (mp_frame_op_is_request(f->op))
		return check_request(f);
	return check_response(f);
}

int mp_frame_encode(const struct mp_frame *f, u32 max_payload, u8 *buf,
		    size_t size)
{
	int ret;

	if (!buf)
		return -EINVAL;
	ret = mp_frame_check(f, max_payload);
	if (ret)
		return ret;
	if (size < MP_ETH_HDR_LEN)
		return -ENOBUFS;

	buf[HOFF(version)] = MP_ETH_VERSION;
	buf[HOFF(op)] = f->op;
	mp_put_be16(buf + HOFF(flags),
		    f->flags | (u16)(f->part << MP_ETH_F_PART_SHIFT));
	mp_put_be16(buf + HOFF(src), f->src);
	mp_put_be16(buf + HOFF(dst), f->dst);
	mp_put_be32(buf + HOFF(gen), f->gen);
	mp_put_be16(buf + HOFF(sn), f->sn);
	mp_put_be16(buf + HOFF(tag), f->tag);
	mp_put_be64(buf + HOFF(offset), f->offset);
	mp_put_be32(buf + HOFF(len), f->len);
	/*
	 * Two's complement of the (negative) errno, well defined for u16; a
	 * READ_REQ's or WRITE_REQ's stride instead (its status is 0).
	 */
	mp_put_be16(buf + HOFF(status),
		    f->op == MP_ETH_OP_READ_REQ || f->op == MP_ETH_OP_WRITE_REQ ?
		    f->stride : (u16)f->status);
	mp_put_be16(buf + HOFF(ack), f->ack);
	return MP_ETH_HDR_LEN;
}

int mp_frame_decode(const u8 *buf, size_t size, u32 max_payload,
		    struct mp_frame *f)
{
	u64 need;
	u16 st;
	int ret;

	if (!f)
		return -EINVAL;
	if (!buf || size < MP_ETH_HDR_LEN)
		return -EBADMSG;
	if (buf[HOFF(version)] != MP_ETH_VERSION)
		return -EPROTONOSUPPORT;

	f->op = buf[HOFF(op)];
	f->flags = mp_get_be16(buf + HOFF(flags));
	f->src = mp_get_be16(buf + HOFF(src));
	f->dst = mp_get_be16(buf + HOFF(dst));
	f->gen = mp_get_be32(buf + HOFF(gen));
	f->sn = mp_get_be16(buf + HOFF(sn));
	f->tag = mp_get_be16(buf + HOFF(tag));
	f->offset = mp_get_be64(buf + HOFF(offset));
	f->len = mp_get_be32(buf + HOFF(len));
	st = mp_get_be16(buf + HOFF(status));
	f->stride = 0;
	if (f->op == MP_ETH_OP_READ_REQ || f->op == MP_ETH_OP_WRITE_REQ) {
		f->stride = st;
		st = 0;
	}
	/* the part bits of any other frame stay in flags: unknown there */
	f->part = 0;
	if (f->op == MP_ETH_OP_WRITE_REQ) {
		f->part = (f->flags & MP_ETH_F_PART) >> MP_ETH_F_PART_SHIFT;
		f->flags &= ~MP_ETH_F_PART;
	}
	f->status = st & 0x8000 ? (int)st - 0x10000 : (int)st;
	f->ack = mp_get_be16(buf + HOFF(ack));

	ret = mp_frame_check(f, max_payload);
	if (ret)
		return ret;

	/* 64-bit arithmetic: no overflow even where size_t is 32 bits. */
	need = (u64)MP_ETH_HDR_LEN + mp_frame_payload_len(f) +
	       mp_frame_trailer_len(f);
	if ((u64)size < need)
		return -EBADMSG;
	if ((u64)size > need && size > MP_ETH_MIN_PDU)
		return -EBADMSG;
	f->bind = 0;
	if (f->flags & MP_ETH_F_AUTH)
		f->bind = mp_get_be32(buf + MP_ETH_HDR_LEN +
				      mp_frame_payload_len(f) +
				      offsetof(struct mp_eth_auth, bind));
	return 0;
}

int mp_frame_reply(const struct mp_frame *req, int status,
		   struct mp_frame *resp)
{
	struct mp_frame r;

	if (!req || !resp || !mp_frame_op_is_request(req->op))
		return -EINVAL;
	if (status && !status_is_errno(status))
		return -EINVAL;

	/* Built aside, so that resp may be req itself. */
	if (status)
		r.op = MP_ETH_OP_NAK;
	else if (req->op == MP_ETH_OP_READ_REQ)
		r.op = MP_ETH_OP_READ_RESP;
	else if (req->op == MP_ETH_OP_OWN_REQ)
		r.op = MP_ETH_OP_OWN_RESP;
	else
		r.op = MP_ETH_OP_WRITE_ACK;
	/*
	 * Which copy it answers, for the requester's round-trip samples: a
	 * response to the first copy times the whole round trip even when
	 * the request was sent again meanwhile (mp_rift_answered()).
	 */
	r.flags = req->flags & MP_ETH_F_RETX;
	r.src = req->dst;
	r.dst = req->src;
	r.gen = req->gen;
	r.sn = req->sn;
	r.tag = req->tag;
	r.ack = 0;
	r.stride = 0;
	r.part = 0;
	r.offset = req->offset;
	r.len = req->len;
	r.status = status;
	r.bind = req->bind;
	*resp = r;
	return 0;
}

u32 mp_frame_parts(u32 len, u32 stride)
{
	if (!stride || len <= stride)
		return 1;
	return len / stride + (len % stride ? 1 : 0);
}

u32 mp_frame_read_stride(const struct mp_frame *req)
{
	return req->stride ? req->stride : req->len;
}

int mp_frame_write_part(const struct mp_frame *req, u32 i,
			struct mp_frame *part)
{
	if (!req || !part || req->op != MP_ETH_OP_WRITE_REQ ||
	    i >= mp_frame_parts(req->len, req->stride))
		return -EINVAL;
	*part = *req;
	part->part = (u8)i;
	return 0;
}

int mp_frame_read_part(const struct mp_frame *req, u32 i,
		       struct mp_frame *resp)
{
	struct mp_frame r;
	u32 skip;
	int ret;

	if (!req || req->op != MP_ETH_OP_READ_REQ ||
	    i >= mp_frame_parts(req->len, req->stride))
		return -EINVAL;
	ret = mp_frame_reply(req, 0, &r);
	if (ret)
		return ret;
	if (req->stride && req->len > req->stride) {
		/* i < parts: i * stride < len, no overflow */
		skip = i * req->stride;
		r.offset = req->offset + skip;
		r.len = req->len - skip < req->stride ? req->len - skip :
			req->stride;
	}
	*resp = r;
	return 0;
}

int mp_frame_match_part(const struct mp_frame *resp, u8 req_op, u64 offset,
			u32 len, u32 stride)
{
	u32 skip;
	int ret;

	if (!resp)
		return -EINVAL;
	if (resp->op != MP_ETH_OP_READ_RESP || req_op != MP_ETH_OP_READ_REQ ||
	    mp_frame_parts(len, stride) == 1)
		return mp_frame_match_response(resp, req_op, offset, len);
	ret = mp_frame_match_response(resp, req_op, resp->offset, resp->len);
	if (ret)
		return ret;
	if (resp->offset < offset || resp->offset - offset >= len)
		return -EBADMSG;
	/* below len: 32 bits, no 64-bit division */
	skip = (u32)(resp->offset - offset);
	if (skip % stride)
		return -EBADMSG;
	if (resp->len != (len - skip < stride ? len - skip : stride))
		return -EBADMSG;
	return (int)(skip / stride);
}

int mp_frame_match_response(const struct mp_frame *resp, u8 req_op,
			    u64 offset, u32 len)
{
	if (!resp)
		return -EINVAL;
	switch (resp->op) {
	case MP_ETH_OP_NAK:
		if (!mp_frame_op_is_request(req_op))
			return -EPROTO;
		break;
	case MP_ETH_OP_READ_RESP:
		if (req_op != MP_ETH_OP_READ_REQ)
			return -EPROTO;
		break;
	case MP_ETH_OP_WRITE_ACK:
		if (req_op != MP_ETH_OP_WRITE_REQ)
			return -EPROTO;
		break;
	case MP_ETH_OP_OWN_RESP:
		if (req_op != MP_ETH_OP_OWN_REQ)
			return -EPROTO;
		break;
	default:
		return -EPROTO;
	}
	if (resp->offset != offset || resp->len != len)
		return -EBADMSG;
	return 0;
}

int mp_frame_nak_errno(int status)
{
	switch (status) {
	case -EACCES:
	case -ERANGE:
	case -EINVAL:
	case -ENODEV:
		return status;
	default:
		return -EIO;
	}
}

int mp_own_verdict(int status)
{
	switch (status) {
	case 0:
	case -EBUSY:
	case -EINPROGRESS:
	case -EPERM:
	case -ERANGE:
	case -EINVAL:
		return status;
	default:
		return -EPROTO;
	}
}

static int check_own_req(const struct mp_own_req *r)
{
	if (r->cmd < MP_ETH_OWN_QUERY || r->cmd > MP_ETH_OWN_UNSHARE)
		return -EINVAL;
	if (r->pdev == MP_ETH_DEV_ANY)
		return r->pseg ? -EINVAL : 0;
	/* a mirror copy's claim names its partner, nothing else does */
	if (r->cmd != MP_ETH_OWN_CLAIM || r->pdev > MP_ETH_OWN_PDEV_MAX ||
	    r->pseg > MP_ETH_OWN_PSEG_MAX)
		return -EINVAL;
	return 0;
}

int mp_own_req_encode(const struct mp_own_req *r, u64 *offset)
{
	int ret;

	if (!r || !offset)
		return -EINVAL;
	ret = check_own_req(r);
	if (ret)
		return ret;
	*offset = r->pdev == MP_ETH_DEV_ANY ? MP_ETH_OWN_OFF(r->cmd, r->seg) :
		  MP_ETH_OWN_PAIR_OFF(r->cmd, r->seg, r->pdev, r->pseg);
	return 0;
}

int mp_own_req_decode(u64 offset, struct mp_own_req *r)
{
	u32 pdev;

	if (!r)
		return -EINVAL;
	r->seg = (u32)offset;
	r->cmd = (u32)(offset >> 32) & ((1U << MP_ETH_OWN_CMD_BITS) - 1);
	pdev = (u32)(offset >> MP_ETH_OWN_PDEV_SHIFT) &
	       ((1U << MP_ETH_OWN_PDEV_BITS) - 1);
	r->pdev = pdev ? (u16)(pdev - 1) : MP_ETH_DEV_ANY;
	r->pseg = (u32)(offset >> MP_ETH_OWN_PSEG_SHIFT);
	return check_own_req(r);
}

int mp_own_resp_encode(const struct mp_own_resp *r, u8 *buf, u32 len)
{
	if (!r || !buf || (len != MP_ETH_OWN_LEN && len != MP_ETH_OWN_PAIR_LEN))
		return -EINVAL;
	if (r->pdev == MP_ETH_DEV_ANY && r->pseg)
		return -EINVAL;
	mp_put_be32(buf, (u32)r->status);
	mp_put_be16(buf + offsetof(struct mp_eth_own, owner), r->owner);
	mp_put_be16(buf + offsetof(struct mp_eth_own, sharers), r->sharers);
	if (len == MP_ETH_OWN_LEN)
		return len;
	mp_put_be16(buf + offsetof(struct mp_eth_own_pair, pdev), r->pdev);
	mp_put_be16(buf + offsetof(struct mp_eth_own_pair, reserved), 0);
	mp_put_be32(buf + offsetof(struct mp_eth_own_pair, pseg), r->pseg);
	return len;
}

int mp_own_resp_decode(const u8 *buf, u32 len, struct mp_own_resp *r)
{
	if (!r || !buf || (len != MP_ETH_OWN_LEN && len != MP_ETH_OWN_PAIR_LEN))
		return -EINVAL;
	r->status = (int)mp_get_be32(buf);
	r->owner = mp_get_be16(buf + offsetof(struct mp_eth_own, owner));
	r->sharers = mp_get_be16(buf + offsetof(struct mp_eth_own, sharers));
	r->pdev = MP_ETH_DEV_ANY;
	r->pseg = 0;
	if (len == MP_ETH_OWN_LEN)
		return 0;
	if (mp_get_be16(buf + offsetof(struct mp_eth_own_pair, reserved)))
		return -EPROTO;
	r->pdev = mp_get_be16(buf + offsetof(struct mp_eth_own_pair, pdev));
	r->pseg = mp_get_be32(buf + offsetof(struct mp_eth_own_pair, pseg));
	if (r->pdev == MP_ETH_DEV_ANY && r->pseg)
		return -EPROTO;
	return 0;
}

static int check_discover(const struct mp_discover *d)
{
	static const u8 zero_mac[6];

	if (!d->chip_id || !d->dev_count)
		return -EPROTO;
	/* The MAC table needs a unicast address: group bit clear, not 0. */
	if ((d->mac[0] & 1) || !memcmp(d->mac, zero_mac, sizeof(zero_mac)))
		return -EPROTO;
	if (d->mtu < MP_ETH_MIN_MTU)
		return -EPROTO;
	return 0;
}

int mp_discover_encode(const struct mp_discover *d, u8 *buf, size_t size)
{
	int ret;

	if (!d || !buf)
		return -EINVAL;
	ret = check_discover(d);
	if (ret)
		return ret;
	if (size < MP_ETH_DISCOVER_LEN)
		return -ENOBUFS;
	mp_put_be64(buf + DOFF(chip_id), d->chip_id);
	mp_put_be64(buf + DOFF(capacity), d->capacity);
	memcpy(buf + DOFF(mac), d->mac, sizeof(d->mac));
	mp_put_be16(buf + DOFF(dev_count), d->dev_count);
	mp_put_be32(buf + DOFF(gen), d->gen);
	mp_put_be32(buf + DOFF(mtu), d->mtu);
	return MP_ETH_DISCOVER_LEN;
}

int mp_discover_decode(const u8 *buf, size_t size, struct mp_discover *d)
{
	if (!d)
		return -EINVAL;
	if (!buf || size != MP_ETH_DISCOVER_LEN)
		return -EBADMSG;
	d->chip_id = mp_get_be64(buf + DOFF(chip_id));
	d->capacity = mp_get_be64(buf + DOFF(capacity));
	memcpy(d->mac, buf + DOFF(mac), sizeof(d->mac));
	d->dev_count = mp_get_be16(buf + DOFF(dev_count));
	d->gen = mp_get_be32(buf + DOFF(gen));
	d->mtu = mp_get_be32(buf + DOFF(mtu));
	return check_discover(d);
}
