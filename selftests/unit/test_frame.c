// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the mp_eth header and discovery codec (mp_frame.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mp_frame.h"
#include "util/util.h"

#define MTU_PAYLOAD	(1500 - MP_ETH_HDR_LEN)
#define JUMBO_PAYLOAD	(9000 - MP_ETH_HDR_LEN)

static struct mp_frame req(u8 op, u32 len)
{
	struct mp_frame f = {
		.op = op, .flags = MP_ETH_F_ACK, .src = 1, .dst = 2,
		.gen = 7, .sn = 0x1234, .tag = 17, .ack = 0x1230,
		.offset = 0x10000, .len = len,
	};
	return f;
}

static struct mp_frame ctrl(u8 op)
{
	struct mp_frame f = {
		.op = op, .src = MP_ETH_DEV_ANY, .dst = MP_ETH_DEV_ANY,
		.gen = 3, .len = MP_ETH_DISCOVER_LEN,
	};
	return f;
}

/* Encode f plus a payload of the announced size; returns the total size. */
static size_t build(const struct mp_frame *f, u8 *buf, size_t size)
{
	u32 plen = mp_frame_payload_len(f);

	assert_int_equal(mp_frame_encode(f, JUMBO_PAYLOAD, buf, size),
			 MP_ETH_HDR_LEN);
	assert_true(MP_ETH_HDR_LEN + plen <= size);
	memset(buf + MP_ETH_HDR_LEN, 0xa5, plen);
	return MP_ETH_HDR_LEN + plen;
}

static void assert_same(const struct mp_frame *a, const struct mp_frame *b)
{
	assert_int_equal(a->op, b->op);
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->src, b->src);
	assert_int_equal(a->dst, b->dst);
	assert_int_equal(a->gen, b->gen);
	assert_int_equal(a->sn, b->sn);
	assert_int_equal(a->tag, b->tag);
	assert_int_equal(a->ack, b->ack);
	assert_true(a->offset == b->offset);
	assert_int_equal(a->len, b->len);
	assert_int_equal(a->status, b->status);
	assert_int_equal(a->stride, b->stride);
}

/* The exact bytes on the wire, field by field (the ABI). */
static void test_golden_layout(void **state)
{
	static const u8 want[MP_ETH_HDR_LEN] = {
		0x01, 0x02, 0x00, 0x03,	/* version, WRITE_REQ, RETX|ACK */
		0x00, 0x01, 0x00, 0x02,	/* src 1, dst 2 */
		0xde, 0xad, 0xbe, 0xef,	/* gen */
		0xff, 0xff, 0x00, 0x2a,	/* sn 0xffff, tag 42 */
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, /* offset */
		0x00, 0x00, 0x00, 0x08,	/* len 8 */
		0x00, 0x00, 0xff, 0xfe,	/* status 0, ack 0xfffe */
	};
	struct mp_frame f = {
		.op = MP_ETH_OP_WRITE_REQ, .flags = MP_ETH_F_RETX | MP_ETH_F_ACK,
		.src = 1, .dst = 2, .gen = 0xdeadbeef, .sn = 0xffff, .tag = 42,
		.ack = 0xfffe, .offset = 0x0102030405060708ULL, .len = 8,
	};
	struct mp_frame nak;
	u8 buf[64];

	assert_int_equal(mp_frame_encode(&f, MTU_PAYLOAD, buf, sizeof(buf)),
			 MP_ETH_HDR_LEN);
	assert_memory_equal(buf, want, sizeof(want));

	/* A NAK's status is the errno in two's complement: -EFAULT. */
	assert_int_equal(mp_frame_reply(&f, -EFAULT, &nak), 0);
	assert_int_equal(mp_frame_encode(&nak, MTU_PAYLOAD, buf, sizeof(buf)),
			 MP_ETH_HDR_LEN);
	assert_int_equal(buf[28], 0xff);
	assert_int_equal(buf[29], (u8)(0x10000 - EFAULT));
	/* flags: F_RETX echoed (it answers a retransmission), ack 0 */
	assert_int_equal(buf[2], 0);
	assert_int_equal(buf[3], MP_ETH_F_RETX);
	assert_int_equal(buf[30] | buf[31], 0);
}

static void test_roundtrip(void **state)
{
	static const u8 ops[] = {
		MP_ETH_OP_READ_REQ, MP_ETH_OP_WRITE_REQ,
	};
	struct mp_frame f, g, r;
	u8 buf[JUMBO_PAYLOAD + MP_ETH_HDR_LEN];
	size_t n;
	unsigned int i;

	for (i = 0; i < sizeof(ops); i++) {
		f = req(ops[i], 4096);
		n = build(&f, buf, sizeof(buf));
		assert_int_equal(mp_frame_decode(buf, n, JUMBO_PAYLOAD, &g), 0);
		assert_same(&f, &g);

		/* Every response to it decodes back to itself as well. */
		assert_int_equal(mp_frame_reply(&f, 0, &r), 0);
		assert_int_equal(r.op, ops[i] == MP_ETH_OP_READ_REQ ?
				 MP_ETH_OP_READ_RESP : MP_ETH_OP_WRITE_ACK);
		n = build(&r, buf, sizeof(buf));
		assert_int_equal(n, MP_ETH_HDR_LEN +
				 (ops[i] == MP_ETH_OP_READ_REQ ? 4096 : 0));
		assert_int_equal(mp_frame_decode(buf, n, JUMBO_PAYLOAD, &g), 0);
		assert_same(&r, &g);
		assert_int_equal(mp_frame_match_response(&g, ops[i],
							 f.offset, f.len), 0);

		assert_int_equal(mp_frame_reply(&f, -EACCES, &r), 0);
		assert_int_equal(r.op, MP_ETH_OP_NAK);
		n = build(&r, buf, sizeof(buf));
		assert_int_equal(mp_frame_decode(buf, n, JUMBO_PAYLOAD, &g), 0);
		assert_int_equal(g.status, -EACCES);
		assert_int_equal(mp_frame_match_response(&g, ops[i],
							 f.offset, f.len), 0);
	}

	f = ctrl(MP_ETH_OP_DISCOVER);
	n = build(&f, buf, sizeof(buf));
	assert_int_equal(mp_frame_decode(buf, n, MTU_PAYLOAD, &g), 0);
	assert_same(&f, &g);
	f.op = MP_ETH_OP_DISCOVER_ACK;
	f.src = 0;
	f.dst = 3;
	n = build(&f, buf, sizeof(buf));
	assert_int_equal(mp_frame_decode(buf, n, MTU_PAYLOAD, &g), 0);
	assert_same(&f, &g);
}

static void test_truncated(void **state)
{
	struct mp_frame f = req(MP_ETH_OP_WRITE_REQ, 100), g;
	u8 buf[256];
	size_t n = build(&f, buf, sizeof(buf)), i;

	for (i = 0; i < n; i++)
		assert_int_equal(mp_frame_decode(buf, i, MTU_PAYLOAD, &g),
				 -EBADMSG);
	assert_int_equal(mp_frame_decode(buf, n, MTU_PAYLOAD, &g), 0);
	/* A payload longer than announced is not padding: reject. */
	assert_int_equal(mp_frame_decode(buf, n + 1, MTU_PAYLOAD, &g),
			 -EBADMSG);
	assert_int_equal(mp_frame_decode(NULL, 0, MTU_PAYLOAD, &g), -EBADMSG);
	assert_int_equal(mp_frame_decode(buf, n, MTU_PAYLOAD, NULL), -EINVAL);
}

/* Short frames come padded to 60 bytes; only that much slack is allowed. */
static void test_padding(void **state)
{
	struct mp_frame f = req(MP_ETH_OP_READ_REQ, 64), g;
	u8 buf[128] = { 0 };
	size_t i;

	build(&f, buf, sizeof(buf));
	for (i = MP_ETH_HDR_LEN; i <= MP_ETH_MIN_PDU; i++)
		assert_int_equal(mp_frame_decode(buf, i, MTU_PAYLOAD, &g), 0);
	assert_int_equal(mp_frame_decode(buf, MP_ETH_MIN_PDU + 1, MTU_PAYLOAD,
					 &g), -EBADMSG);

	/* An 8-byte write fills 40 of the 46 bytes: 6 bytes of padding. */
	f = req(MP_ETH_OP_WRITE_REQ, 8);
	build(&f, buf, sizeof(buf));
	assert_int_equal(mp_frame_decode(buf, MP_ETH_HDR_LEN + 7, MTU_PAYLOAD,
					 &g), -EBADMSG);
	assert_int_equal(mp_frame_decode(buf, MP_ETH_MIN_PDU, MTU_PAYLOAD, &g),
			 0);
	assert_int_equal(mp_frame_decode(buf, MP_ETH_MIN_PDU + 1, MTU_PAYLOAD,
					 &g), -EBADMSG);
}

static int decode_mut(const struct mp_frame *f, unsigned int off, u8 val)
{
	u8 buf[MP_ETH_HDR_LEN + 64];
	struct mp_frame g;
	size_t n = build(f, buf, sizeof(buf));

	buf[off] = val;
	return mp_frame_decode(buf, n, MTU_PAYLOAD, &g);
}

static void test_header_rejects(void **state)
{
	struct mp_frame f = req(MP_ETH_OP_READ_REQ, 64);

	assert_int_equal(decode_mut(&f, 0, 0), -EPROTONOSUPPORT);
	assert_int_equal(decode_mut(&f, 0, 2), -EPROTONOSUPPORT);
	assert_int_equal(decode_mut(&f, 1, 0), -EOPNOTSUPP);
	assert_int_equal(decode_mut(&f, 1, 0x08), -EOPNOTSUPP);
	/* READ_REQ of 64 bytes -> OWN_REQ: an ownership command is 8 */
	assert_int_equal(decode_mut(&f, 1, MP_ETH_OP_OWN_REQ), -EPROTO);
	assert_int_equal(decode_mut(&f, 1, 0xff), -EOPNOTSUPP);
	/* F_AUTH without the trailer it announces: truncated */
	assert_int_equal(decode_mut(&f, 2, 0x80), -EBADMSG);
	assert_int_equal(decode_mut(&f, 3, 0x06), -EPROTO);	/* unknown */
	/* a READ_REQ's status word is its stride: 1 byte is too small */
	assert_int_equal(decode_mut(&f, 29, 1), -EMSGSIZE);
	assert_int_equal(decode_mut(&f, 29, 8), 0);	/* 8 parts of 8 */
	/* any other request's status must be 0 */
	f = req(MP_ETH_OP_OWN_REQ, MP_ETH_OWN_LEN);
	assert_int_equal(decode_mut(&f, 29, 1), -EPROTO);	/* status */
	f = req(MP_ETH_OP_READ_REQ, 64);
	/* READ_REQ -> WRITE_REQ without the payload: truncated. */
	assert_int_equal(decode_mut(&f, 1, MP_ETH_OP_WRITE_REQ), -EBADMSG);
	/* READ_REQ -> READ_RESP: flags and ack must be clear. */
	assert_int_equal(decode_mut(&f, 1, MP_ETH_OP_READ_RESP), -EPROTO);
	/* READ_REQ -> DISCOVER: wrong length, offset, flags. */
	assert_int_equal(decode_mut(&f, 1, MP_ETH_OP_DISCOVER), -EPROTO);
}

static void test_field_rules(void **state)
{
	struct mp_frame f;
	u8 buf[64];

	/* Length: non-zero, fits one frame (READ_REQ too: its reply must). */
	f = req(MP_ETH_OP_READ_REQ, 0);
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f.len = MTU_PAYLOAD;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	f.len = MTU_PAYLOAD + 1;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EMSGSIZE);
	assert_int_equal(mp_frame_check(&f, JUMBO_PAYLOAD), 0);
	f.len = JUMBO_PAYLOAD + 1;
	assert_int_equal(mp_frame_check(&f, JUMBO_PAYLOAD), -EMSGSIZE);
	assert_int_equal(mp_frame_encode(&f, JUMBO_PAYLOAD, buf, sizeof(buf)),
			 -EMSGSIZE);

	/* The range may end exactly at 2^64 but not wrap. */
	f = req(MP_ETH_OP_READ_REQ, 16);
	f.offset = ~0ULL - 15;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	f.offset++;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);

	/* Devices: real and distinct. */
	f = req(MP_ETH_OP_WRITE_REQ, 16);
	f.dst = f.src;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f.dst = MP_ETH_DEV_ANY;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f = req(MP_ETH_OP_WRITE_REQ, 16);
	f.src = MP_ETH_DEV_ANY;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);

	/* Ack: 1 <= sn - ack <= 64 with F_ACK, zero without; across 0. */
	f = req(MP_ETH_OP_READ_REQ, 16);
	f.sn = 0x0005;
	f.ack = 0xffc5;		/* 64 behind */
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	f.ack = 0xffc4;		/* 65 behind */
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f.ack = 0x0004;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	f.ack = 0x0005;		/* sn itself cannot be finished */
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f.ack = 0x0006;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f.flags = 0;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f.ack = 0;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	f.flags = MP_ETH_F_RETX;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);

	/* Status: 0 except in a NAK, where it is an errno. */
	f.status = -EIO;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f = req(MP_ETH_OP_READ_REQ, 16);
	assert_int_equal(mp_frame_reply(&f, -EIO, &f), 0);
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	f.status = 0;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f.status = 5;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f.status = -MP_ETH_MAX_ERRNO;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	f.status = -MP_ETH_MAX_ERRNO - 1;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f.status = 0;
	f.op = MP_ETH_OP_WRITE_ACK;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	f.status = -EIO;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f.status = 0;
	/* a response may say it answers a retransmission, nothing else */
	f.flags = MP_ETH_F_RETX;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	f.flags = MP_ETH_F_ACK;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f.flags = 0x0004;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);

	/* Control frames. */
	f = ctrl(MP_ETH_OP_DISCOVER);
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	assert_int_equal(mp_frame_check(&f, MP_ETH_DISCOVER_LEN - 1),
			 -EMSGSIZE);
	f.dst = 2;		/* DISCOVER is a broadcast */
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f = ctrl(MP_ETH_OP_DISCOVER_ACK);
	f.len = MP_ETH_DISCOVER_LEN + 1;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f = ctrl(MP_ETH_OP_DISCOVER_ACK);
	f.offset = 1;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f = ctrl(MP_ETH_OP_DISCOVER_ACK);
	f.flags = MP_ETH_F_ACK;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);

	assert_int_equal(mp_frame_check(NULL, MTU_PAYLOAD), -EINVAL);
	f = req(MP_ETH_OP_READ_REQ, 16);
	assert_int_equal(mp_frame_encode(&f, MTU_PAYLOAD, buf, 31), -ENOBUFS);
	assert_int_equal(mp_frame_encode(&f, MTU_PAYLOAD, NULL, 64), -EINVAL);
}

static void test_reply_and_match(void **state)
{
	struct mp_frame r = req(MP_ETH_OP_WRITE_REQ, 8), s;

	assert_int_equal(mp_frame_reply(&r, 0, &s), 0);
	assert_int_equal(s.src, r.dst);
	assert_int_equal(s.dst, r.src);
	assert_int_equal(s.flags, 0);
	assert_int_equal(s.ack, 0);
	assert_int_equal(s.sn, r.sn);
	assert_int_equal(s.tag, r.tag);
	/* the copy it answers: F_RETX is echoed, F_ACK is not */
	r.flags = MP_ETH_F_RETX | MP_ETH_F_ACK;
	assert_int_equal(mp_frame_reply(&r, 0, &s), 0);
	assert_int_equal(s.flags, MP_ETH_F_RETX);
	r = req(MP_ETH_OP_WRITE_REQ, 8);
	assert_int_equal(mp_frame_reply(&r, 1, &s), -EINVAL);
	assert_int_equal(mp_frame_reply(&r, -5000, &s), -EINVAL);
	assert_int_equal(mp_frame_reply(&s, 0, &s), -EINVAL);	/* response */

	assert_int_equal(mp_frame_reply(&r, 0, &s), 0);
	assert_int_equal(mp_frame_match_response(&s, MP_ETH_OP_WRITE_REQ,
						 r.offset, r.len), 0);
	assert_int_equal(mp_frame_match_response(&s, MP_ETH_OP_READ_REQ,
						 r.offset, r.len), -EPROTO);
	assert_int_equal(mp_frame_match_response(&s, MP_ETH_OP_WRITE_REQ,
						 r.offset + 8, r.len),
			 -EBADMSG);
	assert_int_equal(mp_frame_match_response(&s, MP_ETH_OP_WRITE_REQ,
						 r.offset, r.len + 1),
			 -EBADMSG);
	assert_int_equal(mp_frame_match_response(&r, MP_ETH_OP_WRITE_REQ,
						 r.offset, r.len), -EPROTO);
	assert_int_equal(mp_frame_reply(&r, -ENOSPC, &s), 0);
	assert_int_equal(mp_frame_match_response(&s, MP_ETH_OP_READ_REQ,
						 r.offset, r.len), 0);
	assert_int_equal(mp_frame_match_response(&s, MP_ETH_OP_NAK,
						 r.offset, r.len), -EPROTO);

	assert_true(mp_frame_op_is_request(MP_ETH_OP_READ_REQ));
	assert_false(mp_frame_op_is_request(MP_ETH_OP_NAK));
	assert_true(mp_frame_op_is_response(MP_ETH_OP_NAK));
	assert_true(mp_frame_op_is_control(MP_ETH_OP_DISCOVER_ACK));
	assert_false(mp_frame_op_is_control(MP_ETH_OP_WRITE_ACK));
}

/*
 * A read in parts: the stride travels in the READ_REQ's status word, the
 * request may ask for MP_ETH_READ_PARTS strides, each part echoes the
 * request but for its own offset and len, and a part matches only at a
 * multiple of the stride inside the range with that part's len.
 */
/*
 * Writes in parts: every frame names the whole range and the stride, the
 * part it carries in the flags, and carries that part's bytes only.
 */
static void test_write_parts(void **state)
{
	struct mp_frame f = req(MP_ETH_OP_WRITE_REQ, 3 * MTU_PAYLOAD + 100);
	struct mp_frame g, p, r;
	u8 buf[MP_ETH_HDR_LEN + MTU_PAYLOAD + MP_ETH_MIN_PDU];
	u64 off;
	u32 len, i;

	/* without a stride a write is one frame of at most max_payload */
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EMSGSIZE);
	f.stride = MTU_PAYLOAD;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	assert_int_equal(mp_frame_parts(f.len, f.stride), 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(mp_frame_write_part(&f, i, &p), 0);
		assert_int_equal(p.part, i);
		mp_frame_write_span(&p, &off, &len);
		assert_true(off == f.offset + (u64)i * MTU_PAYLOAD);
		assert_int_equal(len, i < 3 ? MTU_PAYLOAD : 100);
		assert_int_equal(mp_frame_payload_len(&p), len);
		/* the part rides in the flags, the stride in the status word */
		assert_int_equal(mp_frame_encode(&p, MTU_PAYLOAD, buf,
						 sizeof(buf)), MP_ETH_HDR_LEN);
		assert_int_equal(buf[2] & 0x07, i);
		assert_int_equal(buf[3], MP_ETH_F_ACK);
		assert_int_equal(buf[28], MTU_PAYLOAD >> 8);
		assert_int_equal(buf[29], MTU_PAYLOAD & 0xff);
		memset(buf + MP_ETH_HDR_LEN, 0x5a, len);
		assert_int_equal(mp_frame_decode(buf, MP_ETH_HDR_LEN + len,
						 MTU_PAYLOAD, &g), 0);
		assert_int_equal(g.part, i);
		assert_int_equal(g.flags, MP_ETH_F_ACK);
		assert_int_equal(g.stride, MTU_PAYLOAD);
		assert_int_equal(g.status, 0);
		assert_true(g.offset == f.offset && g.len == f.len);
		/* the payload is the part's, not one byte more or less */
		assert_int_equal(mp_frame_decode(buf, MP_ETH_HDR_LEN + len - 1,
						 MTU_PAYLOAD, &g), -EBADMSG);
		if (len > MP_ETH_MIN_PDU)
			assert_int_equal(mp_frame_decode(buf, MP_ETH_HDR_LEN +
							 len + 1, MTU_PAYLOAD,
							 &g), -EBADMSG);
	}
	assert_int_equal(mp_frame_write_part(&f, 4, &p), -EINVAL);
	assert_int_equal(mp_frame_write_part(&g, 0, NULL), -EINVAL);
	r = req(MP_ETH_OP_READ_REQ, 16);
	assert_int_equal(mp_frame_write_part(&r, 0, &p), -EINVAL);

	/* a part beyond the range's parts, or a part without a stride */
	p = f;
	p.part = 4;
	assert_int_equal(mp_frame_check(&p, MTU_PAYLOAD), -EPROTO);
	p.part = 7;
	assert_int_equal(mp_frame_check(&p, MTU_PAYLOAD), -EPROTO);
	p = req(MP_ETH_OP_WRITE_REQ, 16);
	p.part = 1;
	assert_int_equal(mp_frame_check(&p, MTU_PAYLOAD), -EPROTO);
	/* nor on any other opcode: the bits are unknown flags there */
	r = req(MP_ETH_OP_READ_REQ, 3 * MTU_PAYLOAD);
	r.stride = MTU_PAYLOAD;
	r.part = 1;
	assert_int_equal(mp_frame_check(&r, MTU_PAYLOAD), -EPROTO);
	r.part = 0;
	assert_int_equal(mp_frame_encode(&r, MTU_PAYLOAD, buf, sizeof(buf)),
			 MP_ETH_HDR_LEN);
	buf[2] |= 0x01;
	assert_int_equal(mp_frame_decode(buf, MP_ETH_HDR_LEN, MTU_PAYLOAD, &g),
			 -EPROTO);
	/* a part index the range does not have, on the wire */
	p = f;
	p.len = MTU_PAYLOAD + 1;
	assert_int_equal(mp_frame_encode(&p, MTU_PAYLOAD, buf, sizeof(buf)),
			 MP_ETH_HDR_LEN);
	buf[2] |= 0x02;
	assert_int_equal(mp_frame_decode(buf, sizeof(buf), MTU_PAYLOAD, &g),
			 -EPROTO);
	/* too long for its stride, or a stride the link cannot carry */
	p = f;
	p.len = MP_ETH_READ_PARTS * MTU_PAYLOAD + 1;
	assert_int_equal(mp_frame_check(&p, MTU_PAYLOAD), -EMSGSIZE);
	p = f;
	p.stride = MTU_PAYLOAD + 1;
	assert_int_equal(mp_frame_check(&p, MTU_PAYLOAD), -EMSGSIZE);

	/*
	 * One answer for the whole range: part and stride cleared, offset
	 * and len echoed, and the WRITE_ACK (or NAK) of up to
	 * MP_ETH_READ_PARTS frames' worth is valid.
	 */
	assert_int_equal(mp_frame_write_part(&f, 3, &p), 0);
	p.flags |= MP_ETH_F_RETX;
	assert_int_equal(mp_frame_reply(&p, 0, &r), 0);
	assert_int_equal(r.op, MP_ETH_OP_WRITE_ACK);
	assert_true(r.offset == f.offset && r.len == f.len);
	assert_int_equal(r.part, 0);
	assert_int_equal(r.stride, 0);
	assert_int_equal(r.flags, MP_ETH_F_RETX);
	assert_int_equal(mp_frame_check(&r, MTU_PAYLOAD), 0);
	assert_int_equal(mp_frame_payload_len(&r), 0);
	assert_int_equal(mp_frame_match_part(&r, MP_ETH_OP_WRITE_REQ, f.offset,
					     f.len, f.stride), 0);
	r.len = MP_ETH_READ_PARTS * MTU_PAYLOAD + 1;
	assert_int_equal(mp_frame_check(&r, MTU_PAYLOAD), -EMSGSIZE);
	assert_int_equal(mp_frame_reply(&p, -ERANGE, &r), 0);
	assert_int_equal(mp_frame_check(&r, MTU_PAYLOAD), 0);
	assert_true(r.offset == f.offset && r.len == f.len);
}

static void test_read_parts(void **state)
{
	struct mp_frame f = req(MP_ETH_OP_READ_REQ, 4096), g, p;
	u8 buf[MP_ETH_HDR_LEN + 64];
	u32 i, sum = 0;

	assert_int_equal(mp_frame_parts(4096, 0), 1);
	assert_int_equal(mp_frame_parts(4096, 4096), 1);
	assert_int_equal(mp_frame_parts(4096, 8192), 1);
	assert_int_equal(mp_frame_parts(4096, MTU_PAYLOAD), 3);
	assert_int_equal(mp_frame_parts(2 * MTU_PAYLOAD, MTU_PAYLOAD), 2);
	assert_int_equal(mp_frame_parts(2 * MTU_PAYLOAD + 1, MTU_PAYLOAD), 3);

	/* without a stride a read is one frame, as before */
	assert_int_equal(mp_frame_read_stride(&f), 4096);
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EMSGSIZE);
	f.stride = MTU_PAYLOAD;
	assert_int_equal(mp_frame_read_stride(&f), MTU_PAYLOAD);
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	f.len = MP_ETH_READ_PARTS * MTU_PAYLOAD;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	f.len++;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EMSGSIZE);
	/* a stride no frame of this link can carry */
	f.len = 4096;
	f.stride = MTU_PAYLOAD + 1;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EMSGSIZE);
	/* a stride on anything but a READ_REQ or WRITE_REQ */
	g = req(MP_ETH_OP_OWN_REQ, MP_ETH_OWN_LEN);
	g.stride = 16;
	assert_int_equal(mp_frame_check(&g, MTU_PAYLOAD), -EPROTO);

	/* the stride crosses the wire in the status word, status stays 0 */
	f.stride = MTU_PAYLOAD;
	assert_int_equal(mp_frame_encode(&f, MTU_PAYLOAD, buf, sizeof(buf)),
			 MP_ETH_HDR_LEN);
	assert_int_equal(buf[28], MTU_PAYLOAD >> 8);
	assert_int_equal(buf[29], MTU_PAYLOAD & 0xff);
	assert_int_equal(mp_frame_decode(buf, MP_ETH_HDR_LEN, MTU_PAYLOAD, &g),
			 0);
	assert_int_equal(g.stride, MTU_PAYLOAD);
	assert_int_equal(g.status, 0);
	/* a receiver with smaller frames refuses it */
	assert_int_equal(mp_frame_decode(buf, MP_ETH_HDR_LEN, 1280, &g),
			 -EMSGSIZE);

	/* its parts: 1468 + 1468 + 1160, each echoing all but offset/len */
	f.flags |= MP_ETH_F_RETX;
	f.bind = 0xfeedbeef;
	for (i = 0; i < 3; i++) {
		assert_int_equal(mp_frame_read_part(&f, i, &p), 0);
		assert_int_equal(p.op, MP_ETH_OP_READ_RESP);
		assert_int_equal(p.flags, MP_ETH_F_RETX);
		assert_int_equal(p.src, f.dst);
		assert_int_equal(p.dst, f.src);
		assert_int_equal(p.gen, f.gen);
		assert_int_equal(p.sn, f.sn);
		assert_int_equal(p.tag, f.tag);
		assert_int_equal(p.bind, f.bind);
		assert_int_equal(p.stride, 0);
		assert_true(p.offset == f.offset + i * MTU_PAYLOAD);
		assert_int_equal(p.len, i < 2 ? MTU_PAYLOAD : 4096 - 2 * MTU_PAYLOAD);
		assert_int_equal(mp_frame_check(&p, MTU_PAYLOAD), 0);
		assert_int_equal(mp_frame_match_part(&p, f.op, f.offset, f.len,
						     f.stride), (int)i);
		sum += p.len;
	}
	assert_int_equal(sum, 4096);
	assert_int_equal(mp_frame_read_part(&f, 3, &p), -EINVAL);
	g = req(MP_ETH_OP_WRITE_REQ, 16);
	assert_int_equal(mp_frame_read_part(&g, 0, &p), -EINVAL);

	/* forged parts: off the stride, outside the range, wrong len */
	assert_int_equal(mp_frame_read_part(&f, 1, &p), 0);
	g = p;
	g.offset++;
	assert_int_equal(mp_frame_match_part(&g, f.op, f.offset, f.len,
					     f.stride), -EBADMSG);
	g = p;
	g.offset = f.offset - MTU_PAYLOAD;
	assert_int_equal(mp_frame_match_part(&g, f.op, f.offset, f.len,
					     f.stride), -EBADMSG);
	g = p;
	g.offset = f.offset + 3 * MTU_PAYLOAD;
	assert_int_equal(mp_frame_match_part(&g, f.op, f.offset, f.len,
					     f.stride), -EBADMSG);
	g = p;
	g.len--;
	assert_int_equal(mp_frame_match_part(&g, f.op, f.offset, f.len,
					     f.stride), -EBADMSG);
	assert_int_equal(mp_frame_read_part(&f, 2, &p), 0);
	g = p;
	g.len = MTU_PAYLOAD;	/* the last part is shorter */
	assert_int_equal(mp_frame_match_part(&g, f.op, f.offset, f.len,
					     f.stride), -EBADMSG);
	/* the whole range in one frame is not one of the parts */
	assert_int_equal(mp_frame_reply(&f, 0, &g), 0);
	assert_int_equal(mp_frame_match_part(&g, f.op, f.offset, f.len,
					     f.stride), -EBADMSG);
	/* a part answers a read only */
	assert_int_equal(mp_frame_match_part(&p, MP_ETH_OP_WRITE_REQ, f.offset,
					     f.len, 0), -EPROTO);
	/* a NAK answers the whole request, echoing its range */
	assert_int_equal(mp_frame_reply(&f, -EACCES, &g), 0);
	assert_true(g.offset == f.offset && g.len == f.len);
	/* ... and crosses the wire: its len may be a read in parts' */
	assert_int_equal(mp_frame_encode(&g, MTU_PAYLOAD, buf, sizeof(buf)),
			 MP_ETH_HDR_LEN);
	assert_int_equal(mp_frame_decode(buf, MP_ETH_HDR_LEN, MTU_PAYLOAD, &p), 0);
	assert_true(p.op == MP_ETH_OP_NAK && p.len == f.len &&
		    p.status == -EACCES);
	p.len = MP_ETH_READ_PARTS * MTU_PAYLOAD + 1;
	assert_int_equal(mp_frame_check(&p, MTU_PAYLOAD), -EMSGSIZE);
	assert_int_equal(mp_frame_match_part(&g, f.op, f.offset, f.len,
					     f.stride), 0);
	g.len = MTU_PAYLOAD;
	assert_int_equal(mp_frame_match_part(&g, f.op, f.offset, f.len,
					     f.stride), -EBADMSG);

	/* a stride at least len: one part, the whole range */
	f.len = 1000;
	assert_int_equal(mp_frame_read_part(&f, 0, &p), 0);
	assert_true(p.offset == f.offset && p.len == 1000);
	assert_int_equal(mp_frame_match_part(&p, f.op, f.offset, f.len,
					     f.stride), 0);
	/* and a part of the largest request of the largest stride */
	f.stride = 0xffff;
	f.len = MP_ETH_READ_PARTS * 0xffffU;
	assert_int_equal(mp_frame_check(&f, 0xffff), 0);
	assert_int_equal(mp_frame_read_part(&f, MP_ETH_READ_PARTS - 1, &p), 0);
	assert_int_equal(p.len, 0xffff);
	assert_int_equal(mp_frame_match_part(&p, f.op, f.offset, f.len,
					     f.stride), MP_ETH_READ_PARTS - 1);
}

static void test_discover(void **state)
{
	struct mp_discover d = {
		.chip_id = 0x0123456789abcdefULL, .capacity = 256ULL << 20,
		.mac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 },
		.dev_count = 3, .gen = 9, .mtu = 9000,
	}, e;
	u8 buf[MP_ETH_DISCOVER_LEN];

	assert_int_equal(mp_discover_encode(&d, buf, sizeof(buf)),
			 MP_ETH_DISCOVER_LEN);
	assert_int_equal(buf[0], 0x01);
	assert_int_equal(buf[7], 0xef);
	assert_int_equal(buf[16], 0x52);
	assert_int_equal(buf[23], 3);
	assert_int_equal(buf[27], 9);
	assert_int_equal(mp_discover_decode(buf, sizeof(buf), &e), 0);
	assert_memory_equal(&d, &e, sizeof(d));
	assert_int_equal(mp_discover_decode(buf, sizeof(buf) - 1, &e),
			 -EBADMSG);
	assert_int_equal(mp_discover_encode(&d, buf, sizeof(buf) - 1),
			 -ENOBUFS);

	e = d;
	e.mac[0] = 0x01;	/* multicast */
	assert_int_equal(mp_discover_encode(&e, buf, sizeof(buf)), -EPROTO);
	memset(e.mac, 0, sizeof(e.mac));
	assert_int_equal(mp_discover_encode(&e, buf, sizeof(buf)), -EPROTO);
	e = d;
	e.chip_id = 0;
	assert_int_equal(mp_discover_encode(&e, buf, sizeof(buf)), -EPROTO);
	e = d;
	e.dev_count = 0;
	assert_int_equal(mp_discover_encode(&e, buf, sizeof(buf)), -EPROTO);
	e = d;
	e.mtu = MP_ETH_HDR_LEN + MP_ETH_DISCOVER_LEN - 1;
	assert_int_equal(mp_discover_encode(&e, buf, sizeof(buf)), -EPROTO);
	/* no member can shrink the pool's frames below MP_ETH_MIN_MTU */
	e.mtu = MP_ETH_MIN_MTU - 1;
	assert_int_equal(mp_discover_encode(&e, buf, sizeof(buf)), -EPROTO);
	e.mtu = MP_ETH_MIN_MTU;
	assert_int_equal(mp_discover_encode(&e, buf, sizeof(buf)),
			 MP_ETH_DISCOVER_LEN);

	/* Decode validates too. */
	assert_int_equal(mp_discover_encode(&d, buf, sizeof(buf)),
			 MP_ETH_DISCOVER_LEN);
	buf[16] |= 1;
	assert_int_equal(mp_discover_decode(buf, sizeof(buf), &e), -EPROTO);
}

static bool allowed_errno(int ret)
{
	return ret == 0 || ret == -EBADMSG || ret == -EPROTO ||
	       ret == -EOPNOTSUPP || ret == -EPROTONOSUPPORT ||
	       ret == -EMSGSIZE;
}

/*
 * Every single-byte corruption of every valid frame kind decodes to either
 * a valid frame that re-encodes to the same header, or one of the
 * documented errors.
 */
/* MP_ETH_F_AUTH: a 16-byte trailer after the payload, any opcode. */
static void test_auth_trailer(void **state)
{
	struct mp_frame kinds[4], g;
	u8 buf[MP_ETH_HDR_LEN + 64 + MP_ETH_AUTH_LEN];
	unsigned int k;
	size_t n;

	kinds[0] = req(MP_ETH_OP_READ_REQ, 64);
	kinds[1] = req(MP_ETH_OP_WRITE_REQ, 16);
	mp_frame_reply(&kinds[1], 0, &kinds[2]);
	kinds[3] = ctrl(MP_ETH_OP_DISCOVER_ACK);
	for (k = 0; k < 4; k++) {
		kinds[k].flags |= MP_ETH_F_AUTH;
		assert_int_equal(mp_frame_trailer_len(&kinds[k]),
				 MP_ETH_AUTH_LEN);
		n = build(&kinds[k], buf, sizeof(buf));
		assert_int_equal(buf[2] & 0x80, 0x80);
		/* no trailer, part of it, all of it, and one byte more */
		assert_int_equal(mp_frame_decode(buf, n, MTU_PAYLOAD, &g),
				 -EBADMSG);
		assert_int_equal(mp_frame_decode(buf, n + MP_ETH_AUTH_LEN - 1,
						 MTU_PAYLOAD, &g), -EBADMSG);
		assert_int_equal(mp_frame_decode(buf, n + MP_ETH_AUTH_LEN,
						 MTU_PAYLOAD, &g), 0);
		assert_same(&kinds[k], &g);
		assert_int_equal(mp_frame_decode(buf, n + MP_ETH_AUTH_LEN + 1,
						 MTU_PAYLOAD, &g), -EBADMSG);
	}
	/* the other flag rules still hold with F_AUTH */
	kinds[2].flags |= MP_ETH_F_ACK;
	assert_int_equal(mp_frame_check(&kinds[2], MTU_PAYLOAD), -EPROTO);
	kinds[0].flags |= 0x0100;
	assert_int_equal(mp_frame_check(&kinds[0], MTU_PAYLOAD), -EPROTO);
	kinds[0] = req(MP_ETH_OP_READ_REQ, 64);
	assert_int_equal(mp_frame_trailer_len(&kinds[0]), 0);
}

/*
 * The trailer's bind word: decoded from the trailer, echoed by the
 * response, so that a requester can bind the response to its request.
 */
static void test_auth_bind(void **state)
{
	u8 buf[MP_ETH_HDR_LEN + 64 + MP_ETH_AUTH_LEN];
	struct mp_frame f = req(MP_ETH_OP_READ_REQ, 64), g, r;
	size_t n;

	f.flags |= MP_ETH_F_AUTH;
	n = build(&f, buf, sizeof(buf));
	memset(buf + n, 0, MP_ETH_AUTH_LEN);
	buf[n + 4] = 0xde;	/* bind, big endian */
	buf[n + 5] = 0xad;
	buf[n + 6] = 0xbe;
	buf[n + 7] = 0xef;
	assert_int_equal(mp_frame_decode(buf, n + MP_ETH_AUTH_LEN, MTU_PAYLOAD,
					 &g), 0);
	assert_true(g.bind == 0xdeadbeefU);
	assert_int_equal(mp_frame_reply(&g, 0, &r), 0);
	assert_true(r.bind == 0xdeadbeefU);
	assert_int_equal(mp_frame_reply(&g, -EACCES, &r), 0);
	assert_true(r.bind == 0xdeadbeefU);
	/* without F_AUTH there is no trailer and no bind word */
	f = req(MP_ETH_OP_READ_REQ, 64);
	n = build(&f, buf, sizeof(buf));
	assert_int_equal(mp_frame_decode(buf, n, MTU_PAYLOAD, &g), 0);
	assert_int_equal(g.bind, 0);
}

/* A peer's refusal reaches callers only as an errno the protocol defines. */
static void test_peer_errnos(void **state)
{
	static const int nak_ok[] = { -EACCES, -ERANGE, -EINVAL, -ENODEV };
	static const int own_ok[] = { 0, -EBUSY, -EINPROGRESS, -EPERM,
				      -ERANGE, -EINVAL };
	unsigned int i;
	int s;

	for (i = 0; i < ARRAY_SIZE(nak_ok); i++)
		assert_int_equal(mp_frame_nak_errno(nak_ok[i]), nak_ok[i]);
	for (i = 0; i < ARRAY_SIZE(own_ok); i++)
		assert_int_equal(mp_own_verdict(own_ok[i]), own_ok[i]);
	/* -ERESTARTNOINTR (513), -EIOCBQUEUED (529), 0 as a NAK, garbage */
	assert_int_equal(mp_frame_nak_errno(-513), -EIO);
	assert_int_equal(mp_frame_nak_errno(-529), -EIO);
	assert_int_equal(mp_frame_nak_errno(0), -EIO);
	assert_int_equal(mp_frame_nak_errno(-EINTR), -EIO);
	assert_int_equal(mp_own_verdict(-513), -EPROTO);
	assert_int_equal(mp_own_verdict(1), -EPROTO);
	assert_int_equal(mp_own_verdict(-4096), -EPROTO);
	/* every value maps to one of the sets */
	for (s = -5000; s <= 5000; s++) {
		int n = mp_frame_nak_errno(s), v = mp_own_verdict(s);

		assert_true(n == -EIO || n == s);
		assert_true(v == -EPROTO || v == s);
	}
}

/*
 * Ownership rides its own opcodes: OWN_REQ (no payload) is answered by
 * OWN_RESP (struct mp_eth_own) or a NAK, and by nothing else.
 */
static void test_own(void **state)
{
	struct mp_frame f = req(MP_ETH_OP_OWN_REQ, MP_ETH_OWN_LEN), g, r;
	u8 buf[MP_ETH_HDR_LEN + 64];
	size_t n;

	f.offset = MP_ETH_OWN_OFF(MP_ETH_OWN_CLAIM, 5);
	assert_true(f.offset == ((u64)2 << 32 | 5));
	assert_true(mp_frame_op_is_request(MP_ETH_OP_OWN_REQ));
	assert_true(mp_frame_op_is_response(MP_ETH_OP_OWN_RESP));
	assert_int_equal(mp_frame_payload_len(&f), 0);
	n = build(&f, buf, sizeof(buf));
	assert_int_equal(n, MP_ETH_HDR_LEN);
	assert_int_equal(mp_frame_decode(buf, n, MTU_PAYLOAD, &g), 0);
	assert_same(&f, &g);

	assert_int_equal(mp_frame_reply(&g, 0, &r), 0);
	assert_int_equal(r.op, MP_ETH_OP_OWN_RESP);
	assert_int_equal(mp_frame_payload_len(&r), MP_ETH_OWN_LEN);
	n = build(&r, buf, sizeof(buf));
	assert_int_equal(mp_frame_decode(buf, n, MTU_PAYLOAD, &g), 0);
	assert_int_equal(mp_frame_match_response(&g, MP_ETH_OP_OWN_REQ,
						 f.offset, f.len), 0);
	/* a verdict answers no read, a read's data no ownership command */
	assert_int_equal(mp_frame_match_response(&g, MP_ETH_OP_READ_REQ,
						 f.offset, f.len), -EPROTO);
	g.op = MP_ETH_OP_READ_RESP;
	assert_int_equal(mp_frame_match_response(&g, MP_ETH_OP_OWN_REQ,
						 f.offset, f.len), -EPROTO);
	assert_int_equal(mp_frame_reply(&f, -EINVAL, &r), 0);
	assert_int_equal(mp_frame_match_response(&r, MP_ETH_OP_OWN_REQ,
						 f.offset, f.len), 0);

	/* the length is that of struct mp_eth_own(_pair), both ways */
	f.len = 12;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	f.len = MP_ETH_OWN_PAIR_LEN;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), 0);
	f.len = 24;
	assert_int_equal(mp_frame_check(&f, MTU_PAYLOAD), -EPROTO);
	r.op = MP_ETH_OP_OWN_RESP;
	r.status = 0;
	r.len = 4;
	assert_int_equal(mp_frame_check(&r, MTU_PAYLOAD), -EPROTO);
}

/*
 * A mirror copy's claim names its partner in the offset's upper bits; a
 * frame without one (every sender before pairs) reads as before.
 */
static void assert_own_req(const struct mp_own_req *a,
			   const struct mp_own_req *b)
{
	assert_int_equal(a->cmd, b->cmd);
	assert_int_equal(a->seg, b->seg);
	assert_int_equal(a->pdev, b->pdev);
	assert_int_equal(a->pseg, b->pseg);
}

static void test_own_req_pair(void **state)
{
	struct mp_own_req r = { .cmd = MP_ETH_OWN_CLAIM, .seg = 5,
				.pdev = 2, .pseg = 9 }, g;
	u64 off;

	/* an old frame: no partner */
	assert_int_equal(mp_own_req_decode(MP_ETH_OWN_OFF(MP_ETH_OWN_QUERY, 7),
					   &g), 0);
	assert_int_equal(g.cmd, MP_ETH_OWN_QUERY);
	assert_int_equal(g.seg, 7);
	assert_int_equal(g.pdev, MP_ETH_DEV_ANY);
	assert_int_equal(g.pseg, 0);

	assert_int_equal(mp_own_req_encode(&r, &off), 0);
	assert_true(off == MP_ETH_OWN_PAIR_OFF(MP_ETH_OWN_CLAIM, 5, 2, 9));
	assert_true(off == ((u64)9 << 47 | (u64)3 << 36 | (u64)2 << 32 | 5));
	assert_int_equal(mp_own_req_decode(off, &g), 0);
	assert_own_req(&g, &r);

	/* the largest partner fits, and so does device 0 */
	r.pdev = MP_ETH_OWN_PDEV_MAX;
	r.pseg = MP_ETH_OWN_PSEG_MAX;
	r.seg = 0xfffffff0;
	assert_int_equal(mp_own_req_encode(&r, &off), 0);
	assert_int_equal(mp_own_req_decode(off, &g), 0);
	assert_own_req(&g, &r);
	r.pdev = 0;
	r.pseg = 0;
	assert_int_equal(mp_own_req_encode(&r, &off), 0);
	assert_int_equal(mp_own_req_decode(off, &g), 0);
	assert_int_equal(g.pdev, 0);

	/* refused both ways: beyond range, a partner on another command */
	r.pdev = MP_ETH_OWN_PDEV_MAX + 1;
	assert_int_equal(mp_own_req_encode(&r, &off), -EINVAL);
	r.pdev = 1;
	r.pseg = MP_ETH_OWN_PSEG_MAX + 1;
	assert_int_equal(mp_own_req_encode(&r, &off), -EINVAL);
	r.pseg = 1;
	r.cmd = MP_ETH_OWN_RELEASE;
	assert_int_equal(mp_own_req_encode(&r, &off), -EINVAL);
	off = MP_ETH_OWN_PAIR_OFF(MP_ETH_OWN_QUERY, 1, 1, 1);
	assert_int_equal(mp_own_req_decode(off, &g), -EINVAL);
	/* an index without a device, an unknown command */
	assert_int_equal(mp_own_req_decode(MP_ETH_OWN_OFF(MP_ETH_OWN_CLAIM, 1) |
					   (u64)1 << 47, &g), -EINVAL);
	assert_int_equal(mp_own_req_decode(MP_ETH_OWN_OFF(6, 1), &g), -EINVAL);
	assert_int_equal(mp_own_req_decode(MP_ETH_OWN_OFF(0, 1), &g), -EINVAL);
	r.cmd = MP_ETH_OWN_CLAIM;
	r.pdev = MP_ETH_DEV_ANY;
	assert_int_equal(mp_own_req_encode(&r, &off), -EINVAL);
}

/* The verdict with the partner: struct mp_eth_own_pair, or without it. */
static void test_own_resp_pair(void **state)
{
	struct mp_own_resp r = { .status = -EBUSY, .owner = 3, .sharers = 0,
				 .pdev = 1, .pseg = 0x12345 }, g;
	static const u8 want[MP_ETH_OWN_PAIR_LEN] = {
		0xff, 0xff, 0xff, 0xf0, 0, 3, 0, 0,
		0, 1, 0, 0, 0, 0x01, 0x23, 0x45,
	};
	u8 buf[MP_ETH_OWN_PAIR_LEN];

	assert_int_equal(mp_own_resp_encode(&r, buf, sizeof(buf)),
			 MP_ETH_OWN_PAIR_LEN);
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(mp_own_resp_decode(buf, sizeof(buf), &g), 0);
	assert_int_equal(g.status, r.status);
	assert_int_equal(g.owner, r.owner);
	assert_int_equal(g.sharers, r.sharers);
	assert_int_equal(g.pdev, r.pdev);
	assert_int_equal(g.pseg, r.pseg);
	/* an old reply: no partner, whatever follows */
	assert_int_equal(mp_own_resp_decode(buf, MP_ETH_OWN_LEN, &g), 0);
	assert_int_equal(g.owner, 3);
	assert_int_equal(g.pdev, MP_ETH_DEV_ANY);
	assert_int_equal(g.pseg, 0);
	assert_int_equal(mp_own_resp_encode(&r, buf, MP_ETH_OWN_LEN),
			 MP_ETH_OWN_LEN);
	assert_memory_equal(buf, want, MP_ETH_OWN_LEN);
	/* refused: reserved bits, an index without a partner, other lengths */
	memcpy(buf, want, sizeof(want));
	buf[11] = 1;
	assert_int_equal(mp_own_resp_decode(buf, sizeof(buf), &g), -EPROTO);
	memcpy(buf, want, sizeof(want));
	buf[8] = 0xff;
	buf[9] = 0xff;
	assert_int_equal(mp_own_resp_decode(buf, sizeof(buf), &g), -EPROTO);
	assert_int_equal(mp_own_resp_decode(buf, 12, &g), -EINVAL);
	assert_int_equal(mp_own_resp_encode(&r, buf, 12), -EINVAL);
	r.pdev = MP_ETH_DEV_ANY;
	assert_int_equal(mp_own_resp_encode(&r, buf, sizeof(buf)), -EINVAL);
	r.pseg = 0;
	assert_int_equal(mp_own_resp_encode(&r, buf, sizeof(buf)),
			 MP_ETH_OWN_PAIR_LEN);
	assert_int_equal(mp_own_resp_decode(buf, sizeof(buf), &g), 0);
	assert_int_equal(g.pdev, MP_ETH_DEV_ANY);
}

static void test_all_byte_mutations(void **state)
{
	struct mp_frame kinds[6], g, r;
	u8 buf[MP_ETH_HDR_LEN + 64], out[MP_ETH_HDR_LEN];
	unsigned int k, off, v;
	size_t n;
	int ret;

	kinds[0] = req(MP_ETH_OP_READ_REQ, 64);
	kinds[1] = req(MP_ETH_OP_WRITE_REQ, 16);
	mp_frame_reply(&kinds[0], 0, &kinds[2]);
	mp_frame_reply(&kinds[1], 0, &kinds[3]);
	mp_frame_reply(&kinds[1], -EIO, &kinds[4]);
	kinds[5] = ctrl(MP_ETH_OP_DISCOVER);

	for (k = 0; k < 6; k++) {
		for (off = 0; off < MP_ETH_HDR_LEN; off++) {
			for (v = 0; v < 256; v++) {
				n = build(&kinds[k], buf, sizeof(buf));
				buf[off] = (u8)v;
				ret = mp_frame_decode(buf, n, MTU_PAYLOAD, &g);
				assert_true(allowed_errno(ret));
				if (ret)
					continue;
				r = g;
				assert_int_equal(mp_frame_encode(&r,
								 MTU_PAYLOAD,
								 out,
								 sizeof(out)),
						 MP_ETH_HDR_LEN);
				assert_memory_equal(out, buf, MP_ETH_HDR_LEN);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_layout),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_padding),
		cmocka_unit_test(test_header_rejects),
		cmocka_unit_test(test_field_rules),
		cmocka_unit_test(test_reply_and_match),
		cmocka_unit_test(test_read_parts),
		cmocka_unit_test(test_write_parts),
		cmocka_unit_test(test_discover),
		cmocka_unit_test(test_auth_trailer),
		cmocka_unit_test(test_auth_bind),
		cmocka_unit_test(test_own),
		cmocka_unit_test(test_own_req_pair),
		cmocka_unit_test(test_own_resp_pair),
		cmocka_unit_test(test_peer_errnos),
		cmocka_unit_test(test_all_byte_mutations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
