// SPDX-License-Identifier: GPL-2.0
/*
 * Randomized model test of the mp_eth transport's reads and writes in
 * parts, between
 * hosts of the same or of different MTUs: a requester (RIFT) and a
 * responder (receive window) exchange real encoded frames over a simulated
 * network that loses, duplicates and reorders each frame (every part of a
 * read on its own) and sometimes forges a part that is not one of the
 * request's (outside its range, off its stride, another len; under a
 * key, another nonce). Hosts may hold a pool key: every frame then
 * carries the trailer, which the stride leaves room for. Both sides
 * use the common/ code as kernel/mp_eth does (requester.c, responder.c):
 * mp_frame_parts(), mp_frame_read_part(), mp_rift_alloc_parts(),
 * mp_rift_match_response(), mp_rift_part(); for writes in parts
 * mp_frame_write_part(), mp_frame_write_span(), mp_rift_alloc_write(),
 * mp_window_check_part(), mp_window_complete_part(). Every frame of a
 * write in parts is lost, duplicated and reordered on its own, and a
 * retransmission sends all parts again; its WRITE_ACK may be forged too.
 *
 * Asserted: each request is executed at most once; it finishes exactly
 * once (all of its parts, a NAK, or -ETIMEDOUT); a read that finishes
 * well got every byte of its range exactly once and right; each part of
 * a write in parts is applied at most once, with the bytes of that part,
 * never after its write was answered, and a write that finishes (well or
 * with the NAK of a range the responder does not hold) had every part
 * applied exactly once; a forged part
 * is always refused; a read of a range the responder does not hold gets
 * the NAK that echoes its len, a read whose signed parts (or, of one
 * frame, whose whole length) its port cannot carry -EINVAL; no frame is
 * larger than its sender's or its receiver's MTU; and when the requester
 * may retransmit enough, every request that fits is executed and finished
 * exactly once. A requester that does not know the pool's smallest MTU
 * (no discovery) asks a smaller host for what it cannot take: such
 * requests never arrive or are refused at decode, and fail by timeout,
 * never executed. Deterministic per seed (printed; MP_MODEL_SEED=n adds n
 * to every scenario's seed).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mp_frame.h"
#include "mp_window.h"
#include "mp_rift.h"
#include "mp_stats.h"
#include "mp_bytes.h"
#include "model_sim.h"
#include "util/util.h"

#define MTU_SMALL	1500
#define MTU_JUMBO	9000
#define BUF_MAX		(MP_ETH_READ_PARTS * (MTU_JUMBO - MP_ETH_HDR_LEN))
#define FRAME_MAX	(MP_ETH_HDR_LEN + BUF_MAX + MP_ETH_AUTH_LEN)
/* request i gets the addresses [i * REGION, (i + 1) * REGION) ... */
#define REGION		0x100000ULL
/* ... of which the responder holds the first HELD bytes */
#define HELD		(REGION / 2)

struct scenario {
	const char *name;
	u64 seed;
	unsigned int nreq;
	u16 start_sn;
	u32 req_mtu;		/* the requester's port */
	u32 rsp_mtu;		/* the responder's port */
	u32 pool_mtu;		/* smallest of the pool (discovery), 0 none */
	unsigned int loss_pct;	/* per frame, each direction */
	unsigned int dup_pct;	/* chance of an extra copy */
	unsigned int forge_pct;	/* chance of a forged part after a part */
	u64 jitter;		/* uniform extra delay: reordering */
	unsigned int max_retries;
	bool key;		/* both hold a pool key: every frame a trailer */
	bool expect_all;	/* loss low enough that none may fail */
};

struct req {
	u64 offset;
	u32 len;
	u32 stride;
	u8 op;
	int expect;		/* the status it must finish with */
	bool fits;		/* the responder can take it */
	unsigned int exec, done, failed;
	u8 pexec[MP_ETH_READ_PARTS];	/* a write's parts: times applied */
};

struct model {
	const struct scenario *sc;
	struct model_sim sim;	/* the network, the RIFT, the window */
	u64 stamp, rsp_stamp;
	u32 req_max, req_rx, rsp_rx;	/* payloads: sent, received */
	u32 auth;		/* trailer bytes: MP_ETH_AUTH_LEN with a key */
	struct req *req;
	u8 *buf, *cnt;		/* per tag: the bytes of a read, copies */
	unsigned int issued;
	u64 parts, dup_parts, stale, refused, naks, timeouts, multi;
	u64 too_big, mute, retransmits;
	u64 wmulti, wparts, wbusy;	/* writes in parts: done, applied, dups */
	int rsp_ack;		/* newest ack the responder saw, -1 none */
	u32 max_rsp;		/* largest response payload sent */
};

static struct model m;
/* MP_MODEL_SEED=n: every scenario's seed + n, to explore (default 0) */
static u64 seed_offset;

static u64 rnd(void)
{
	return sim_rnd(&m.sim);
}

/* The responder's memory: byte a holds a value derived from a. */
static u8 mem(u64 a)
{
	return (u8)((a * 0x9e3779b97f4a7c15ULL) >> 56);
}

/* A write's payload: another value, so that a mix-up shows. */
static u8 wdata(u64 a)
{
	return (u8)~mem(a);
}

/*
 * As mpe_max_payload() (main.c): the port's MTU, capped by the pool's
 * smallest, less the trailer and the header.
 */
static u32 max_payload(u32 port_mtu, u32 pool_mtu)
{
	u32 l2 = port_mtu;

	if (pool_mtu && pool_mtu < l2)
		l2 = pool_mtu;
	l2 -= l2 < m.auth ? l2 : m.auth;
	return l2 > MP_ETH_HDR_LEN ? l2 - MP_ETH_HDR_LEN : 1;
}

/*
 * Send frame buf[0..len) (header and payload) of bind; with a key, after
 * its trailer (a stamp and the bind word; the tag is not modelled, the
 * kernel checks it before any of this).
 */
static void net_send(bool to_rsp, u8 *buf, u32 len, u32 bind, bool forged)
{
	u64 stamp;

	stamp = sim_stamp(&m.sim, to_rsp ? &m.stamp : &m.rsp_stamp);
	if (m.auth) {
		memset(buf + len, 0, MP_ETH_AUTH_LEN);
		mp_put_be32(buf + len + offsetof(struct mp_eth_auth, bind),
			    bind);
		mp_put_be64(buf + len + offsetof(struct mp_eth_auth, stamp),
			    stamp);
		len += MP_ETH_AUTH_LEN;
	}
	/* what its own port cannot carry never leaves the responder */
	if (!to_rsp && len - MP_ETH_HDR_LEN > m.rsp_rx) {
		m.mute++;
		return;
	}
	if (!to_rsp && !forged) {
		/* the responder never sends more than the requester takes */
		assert_true(len - MP_ETH_HDR_LEN <= m.req_rx);
		if (len - MP_ETH_HDR_LEN > m.max_rsp)
			m.max_rsp = len - MP_ETH_HDR_LEN;
	}
	/* the requester's frames fit its port: its max_payload is for that */
	if (to_rsp)
		assert_true(len - MP_ETH_HDR_LEN <= m.req_rx);
	/* a frame beyond the receiving port's MTU never arrives */
	if (to_rsp && len - MP_ETH_HDR_LEN > m.rsp_rx) {
		m.too_big++;
		return;
	}
	sim_send(&m.sim, to_rsp, forged, stamp, buf, len);
}

static void send_request(struct mp_rift_entry *e, bool retx)
{
	struct mp_frame f = {
		.op = e->op, .src = REQ_DEV, .dst = RSP_DEV, .gen = 1,
		.sn = e->sn, .tag = e->tag, .offset = e->offset, .len = e->len,
		.stride = (u16)e->stride, .flags = MP_ETH_F_ACK,
	};
	static u8 buf[FRAME_MAX];
	u32 i, n, k, parts = 1;
	struct mp_frame pf;
	u32 plen;
	u64 off;

	if (m.auth)
		f.flags |= MP_ETH_F_AUTH;
	f.ack = mp_rift_ack(&m.sim.rift, RSP_DEV);
	if (retx)
		f.flags |= MP_ETH_F_RETX;
	/* a write in parts: every part, again on a retransmission */
	if (f.op == MP_ETH_OP_WRITE_REQ)
		parts = mp_frame_parts(f.len, f.stride);
	for (k = 0; k < parts; k++) {
		pf = f;
		if (f.op == MP_ETH_OP_WRITE_REQ)
			assert_int_equal(mp_frame_write_part(&f, k, &pf), 0);
		/* as mpe_frame_prep() (tx.c): sizes are the issuer's business */
		assert_int_equal(mp_frame_encode(&pf, UINT32_MAX, buf,
						 sizeof(buf)), MP_ETH_HDR_LEN);
		n = mp_frame_payload_len(&pf);
		if (pf.op == MP_ETH_OP_WRITE_REQ) {
			mp_frame_write_span(&pf, &off, &plen);
			assert_int_equal(plen, n);
			for (i = 0; i < n; i++)
				buf[MP_ETH_HDR_LEN + i] = wdata(off + i);
		}
		net_send(true, buf, MP_ETH_HDR_LEN + n, e->nonce, false);
	}
}

/*
 * Request id, as mpe_xfer_issue() (requester.c) cuts a transfer: a write
 * of up to max_payload bytes; a read of up to MP_ETH_READ_PARTS strides,
 * the stride its max_payload (capped at 16 bits). Some reads take another
 * stride the protocol allows (1 .. max_payload; some near the limit of
 * the responder's port), or none (one frame). One in 12 reaches past what
 * the responder holds.
 */
static void plan(unsigned int id)
{
	struct req *r = &m.req[id];
	u32 stride = m.req_max < 0xffff ? m.req_max : 0xffff;
	u32 near = m.rsp_rx - m.auth + 16 - rnd() % 32;
	u64 base = (u64)id * REGION;
	unsigned int kind = rnd() % 8;

	if (kind < 2) {
		r->op = MP_ETH_OP_WRITE_REQ;
		r->len = 1 + rnd() % stride;
		r->fits = r->len + m.auth <= m.rsp_rx;
	} else if (kind < 4) {
		/* as mpe_xfer_issue(): in parts of its stride when longer */
		r->op = MP_ETH_OP_WRITE_REQ;
		r->len = 1 + rnd() % (stride * MP_ETH_READ_PARTS);
		r->stride = r->len > stride ? stride : 0;
		r->fits = (r->stride ? r->stride : r->len) + m.auth <= m.rsp_rx;
	} else {
		r->op = MP_ETH_OP_READ_REQ;
		if (kind == 4 && rnd() % 4 == 0)
			stride = near < stride ? near : stride;
		else if (kind == 4)
			stride = 1 + rnd() % stride;
		r->stride = kind == 5 ? 0 : stride;
		r->len = 1 + rnd() % (r->stride ? stride * MP_ETH_READ_PARTS :
				      stride);
		r->fits = r->stride <= m.rsp_rx &&
			  (r->stride || r->len <= m.rsp_rx);
	}
	r->offset = base + rnd() % 4096;
	if (rnd() % 12 == 0)
		r->offset = base + HELD - rnd() % (r->len + 1024);
	r->expect = r->offset + r->len > base + HELD ? -ERANGE : 0;
	/*
	 * the widest part (the stride, or a one-frame read's whole length)
	 * fits the responder's port but not with its trailer
	 */
	if (r->op == MP_ETH_OP_READ_REQ &&
	    (r->stride ? r->stride : r->len) + m.auth > m.rsp_rx)
		r->expect = -EINVAL;
}

void model_issue(void)
{
	struct mp_rift_entry *e;
	unsigned int id, parts;
	struct req *r;
	int ret;

	while (m.issued < m.sc->nreq) {
		id = m.issued;
		r = &m.req[id];
		if (!r->op)
			plan(id);
		parts = mp_frame_parts(r->len, r->stride);
		if (r->op == MP_ETH_OP_WRITE_REQ)
			ret = mp_rift_alloc_write(&m.sim.rift, RSP_DEV,
						  m.sim.now,
						  (void *)(uintptr_t)id, parts,
						  &e);
		else
			ret = mp_rift_alloc_parts(&m.sim.rift, RSP_DEV,
						  m.sim.now,
						  (void *)(uintptr_t)id, parts,
						  &e);
		/* full, or unreachable: the model tries again later */
		if (ret == -EAGAIN || ret == -ENOSPC || ret == -EHOSTUNREACH)
			return;
		assert_int_equal(ret, 0);
		e->op = r->op;
		e->offset = r->offset;
		e->len = r->len;
		e->stride = r->stride;
		e->nonce = (u32)rnd();
		memset(m.cnt + (size_t)e->tag * BUF_MAX, 0, r->len);
		m.issued++;
		send_request(e, false);
	}
}

/*
 * Part frame pr of request f, forged: not one of f's parts, or under a
 * key, one with another nonce (captured from an earlier use of the tag).
 */
static void forge(const struct mp_frame *f, struct mp_frame pr)
{
	static u8 out[FRAME_MAX];
	u32 n;

	switch (rnd() % (m.auth ? 4 : 3)) {
	case 3:
		pr.bind ^= 1 + (u32)(rnd() % 0xffff);
		break;
	case 0:			/* just past the range */
		pr.offset = f->offset + f->len;
		break;
	case 1:			/* off the stride (of 1: past the range) */
		pr.offset = f->stride == 1 ? f->offset + f->len : pr.offset + 1;
		break;
	default:		/* another len */
		if (pr.len > 1)
			pr.len--;
		else
			pr.offset = f->offset + f->len;
		break;
	}
	assert_int_equal(mp_frame_encode(&pr, UINT32_MAX, out, sizeof(out)),
			 MP_ETH_HDR_LEN);
	n = mp_frame_payload_len(&pr);
	memset(out + MP_ETH_HDR_LEN, 0xee, n);
	net_send(false, out, MP_ETH_HDR_LEN + n, pr.bind, true);
}

/*
 * As mpe_exec() (responder.c): the status of request f (payload: a
 * write's bytes). A stride whose frames, signed, our port cannot carry is
 * refused; a range we do not hold is -ERANGE (mp_local_access()).
 */
static int execute(const struct mp_frame *f, const u8 *payload)
{
	u64 base = f->offset / REGION * REGION, off = f->offset;
	u32 i, len = f->len;

	if (f->op == MP_ETH_OP_READ_REQ &&
	    mp_frame_read_stride(f) + m.auth > m.rsp_rx)
		return -EINVAL;
	/* a write in parts: the part's bytes, each part on its own */
	if (f->op == MP_ETH_OP_WRITE_REQ)
		mp_frame_write_span(f, &off, &len);
	if (off + len > base + HELD)
		return -ERANGE;
	if (f->op == MP_ETH_OP_WRITE_REQ)
		for (i = 0; i < len; i++)
			assert_int_equal(payload[i], wdata(off + i));
	return 0;
}

/*
 * As mpe_rx_write_part() (responder.c): frame f of a write in parts. Its
 * part is applied when the window says so, and the write is answered in
 * *r once all of its parts are in. Returns whether to answer.
 */
static bool write_part(const struct mp_frame *f, const u8 *payload,
		       u64 stamp, struct mp_frame *r)
{
	struct mp_window_part wp = {
		.offset = f->offset, .len = f->len, .stride = f->stride,
		.part = f->part, .nr_parts = mp_frame_parts(f->len, f->stride),
	};
	enum mp_window_verdict v;
	struct req *q;
	int st = 0;

	assert_true(f->offset / REGION < m.sc->nreq);
	q = &m.req[f->offset / REGION];
	v = mp_window_check_part(&m.sim.win, f->sn, f->ack, stamp, m.sim.now,
				 &wp, &st);
	if (v == MP_WIN_NEW || v == MP_WIN_RESYNC) {
		q->exec++;
		v = MP_WIN_PART;
	}
	switch (v) {
	case MP_WIN_PART:
		/* never twice, never after it was answered */
		assert_int_equal(q->pexec[f->part], 0);
		assert_int_equal(q->done, 0);
		/*
		 * nor once the requester said it finished the SN (gave up
		 * on it): a newer write may have the bytes by now
		 */
		assert_true(m.rsp_ack < 0 ||
			    mp_sn_after(f->sn, (u16)m.rsp_ack));
		q->pexec[f->part]++;
		m.wparts++;
		if (mp_window_complete_part(&m.sim.win, f->sn, f->part,
					    execute(f, payload), &st) != 1)
			return false;
		break;
	case MP_WIN_DUP:
		break;
	case MP_WIN_BUSY:
		m.wbusy++;
		return false;
	case MP_WIN_REPLAY:
	case MP_WIN_FORGED:
		fail_msg("verdict %d: the model forges no request", v);
		return false;
	default:
		return false;
	}
	assert_int_equal(mp_frame_reply(f, st, r), 0);
	return true;
}

void model_responder_rx(const struct sim_pkt *p)
{
	static u8 out[FRAME_MAX];
	struct mp_frame f, r, pr;
	enum mp_window_verdict v;
	u64 stamp = p->stamp;
	int st = 0, ret;
	u32 i, j, n;

	ret = mp_frame_decode(p->data, p->len, m.rsp_rx, &f);
	if (ret) {
		/* only a stride beyond our payload is refused at decode */
		assert_int_equal(ret, -EMSGSIZE);
		m.too_big++;
		return;
	}
	assert_true(mp_frame_op_is_request(f.op));
	assert_int_equal(!!(f.flags & MP_ETH_F_AUTH), !!m.auth);
	if (m.auth)
		/* as mpe_auth_stamp() */
		stamp = mp_get_be64(p->data + MP_ETH_HDR_LEN +
				    mp_frame_payload_len(&f) +
				    offsetof(struct mp_eth_auth, stamp));
	/* the cumulative acks the window takes (1 <= sn - ack <= 64) */
	if ((f.flags & MP_ETH_F_ACK) && (u16)(f.sn - f.ack) >= 1 &&
	    (u16)(f.sn - f.ack) <= MP_ETH_WINDOW &&
	    (m.rsp_ack < 0 || mp_sn_after(f.ack, (u16)m.rsp_ack)))
		m.rsp_ack = f.ack;
	if (f.op == MP_ETH_OP_WRITE_REQ && mp_frame_parts(f.len, f.stride) > 1) {
		if (write_part(&f, p->data + MP_ETH_HDR_LEN, stamp, &r))
			goto answer;
		return;
	}
	v = mp_window_check_stamped(&m.sim.win, f.sn, f.ack, stamp, m.sim.now,
				    &st);
	assert_int_not_equal(v, MP_WIN_REPLAY);
	switch (v) {
	case MP_WIN_NEW:
	case MP_WIN_RESYNC:
		assert_true(f.offset / REGION < m.sc->nreq);
		m.req[f.offset / REGION].exec++;
		st = execute(&f, p->data + MP_ETH_HDR_LEN);
		assert_int_equal(mp_window_complete(&m.sim.win, f.sn, st), 0);
		break;
	case MP_WIN_DUP:
		/* a read is read again, unless it was refused */
		if (f.op == MP_ETH_OP_READ_REQ && !st)
			st = execute(&f, NULL);
		break;
	case MP_WIN_BUSY:
		fail_msg("BUSY: every request was completed at once");
		return;
	default:
		return;
	}
	assert_int_equal(mp_frame_reply(&f, st, &r), 0);
answer:
	n = r.op == MP_ETH_OP_READ_RESP ? mp_frame_parts(f.len, f.stride) : 1;
	for (i = 0; i < n; i++) {
		pr = r;
		if (r.op == MP_ETH_OP_READ_RESP)
			assert_int_equal(mp_frame_read_part(&f, i, &pr), 0);
		/* as mpe_frame_prep() (tx.c): signed whenever a key is held */
		if (m.auth)
			pr.flags |= MP_ETH_F_AUTH;
		assert_int_equal(mp_frame_encode(&pr, UINT32_MAX, out,
						 sizeof(out)), MP_ETH_HDR_LEN);
		for (j = 0; j < mp_frame_payload_len(&pr); j++)
			out[MP_ETH_HDR_LEN + j] = mem(pr.offset + j);
		net_send(false, out, MP_ETH_HDR_LEN + mp_frame_payload_len(&pr),
			 pr.bind, false);
		/* a read's parts; the one answer of a write in parts */
		if ((r.op == MP_ETH_OP_READ_RESP || (r.op == MP_ETH_OP_WRITE_ACK &&
						     f.stride)) &&
		    sim_chance(&m.sim, m.sc->forge_pct))
			forge(&f, pr);
	}
}

/* e of request id finished with err: check what it got, free it. */
static void finish(struct mp_rift_entry *e, unsigned int id, int err)
{
	const u8 *buf = m.buf + (size_t)e->tag * BUF_MAX;
	const u8 *cnt = m.cnt + (size_t)e->tag * BUF_MAX;
	struct req *r = &m.req[id];
	u32 i;

	assert_int_equal(err, r->expect);
	if (!err && r->op == MP_ETH_OP_READ_REQ) {
		assert_int_equal(e->parts_done, (1U << e->nr_parts) - 1);
		for (i = 0; i < r->len; i++) {
			assert_int_equal(cnt[i], 1);
			assert_int_equal(buf[i], mem(r->offset + i));
		}
		m.multi += e->nr_parts > 1;
	}
	/* finished, well or NAKed: every part was applied, exactly once */
	if (r->op == MP_ETH_OP_WRITE_REQ && r->stride) {
		for (i = 0; i < mp_frame_parts(r->len, r->stride); i++)
			assert_int_equal(r->pexec[i], 1);
		m.wmulti++;
	}
	r->done++;
	m.sim.finished++;
	mp_rift_free(&m.sim.rift, e);
}

/* As mpe_rx_response() (requester.c). */
void model_requester_rx(const struct sim_pkt *p)
{
	struct mp_rift_entry *e;
	struct mp_frame f;
	unsigned int id;
	int part, ret;
	size_t at;
	bool first;
	u32 i;

	ret = mp_frame_decode(p->data, p->len, m.req_rx, &f);
	assert_int_equal(ret, 0);
	assert_true(mp_frame_op_is_response(f.op));
	part = mp_rift_match_response(&m.sim.rift, &f, &e);
	if (p->forged) {
		/* refused, whether its request is still in flight or not */
		assert_true(part == -EBADMSG || part == -ENOENT ||
			    part == -ESTALE || part == -EKEYREJECTED);
		m.refused++;
		return;
	}
	if (part < 0) {
		assert_true(part == -ENOENT || part == -ESTALE);
		m.stale++;
		return;
	}
	id = (unsigned int)(uintptr_t)e->ctx;
	if (f.op == MP_ETH_OP_NAK) {
		/* the NAK of a read in parts echoes its whole range */
		assert_true(f.offset == e->offset && f.len == e->len);
		mp_rift_answered(&m.sim.rift, e, m.sim.now, f.flags & MP_ETH_F_RETX);
		m.naks++;
		finish(e, id, mp_frame_nak_errno(f.status));
		return;
	}
	first = !e->parts_done;
	part = mp_rift_part(e, part);
	if (part < 0) {
		assert_int_equal(part, -EALREADY);
		m.dup_parts++;
		return;
	}
	m.parts++;
	if (first)
		mp_rift_answered(&m.sim.rift, e, m.sim.now, f.flags & MP_ETH_F_RETX);
	if (f.op == MP_ETH_OP_READ_RESP) {
		at = (size_t)e->tag * BUF_MAX + (f.offset - e->offset);
		assert_true(f.offset - e->offset + f.len <= e->len);
		for (i = 0; i < f.len; i++) {
			m.buf[at + i] = p->data[MP_ETH_HDR_LEN + i];
			m.cnt[at + i]++;
		}
	}
	if (part)
		finish(e, id, 0);
}

void model_retransmit(struct mp_rift_entry *e)
{
	m.retransmits++;
	send_request(e, true);
}

void model_timeout(struct mp_rift_entry *e)
{
	m.timeouts++;
	m.req[(uintptr_t)e->ctx].failed++;
}

/* Scenario sc, its seed + seed. */
static void run(const struct scenario *sc, u64 seed)
{
	unsigned int i, n = sc->nreq, once = 0, nak = 0, einval = 0;
	struct req *r;

	memset(&m, 0, sizeof(m));
	m.sc = sc;
	m.auth = sc->key ? MP_ETH_AUTH_LEN : 0;
	m.rsp_ack = -1;
	m.req_max = max_payload(sc->req_mtu, sc->pool_mtu);
	m.req_rx = sc->req_mtu - MP_ETH_HDR_LEN;
	m.rsp_rx = sc->rsp_mtu - MP_ETH_HDR_LEN;
	m.req = calloc(n, sizeof(*m.req));
	m.buf = malloc((size_t)NENT * BUF_MAX);
	m.cnt = malloc((size_t)NENT * BUF_MAX);
	assert_non_null(m.req);
	assert_non_null(m.buf);
	assert_non_null(m.cnt);

	sim_init(&m.sim, sc->seed + seed + seed_offset, sc->start_sn,
		 sc->max_retries, 20 * MS, sc->loss_pct, sc->dup_pct,
		 sc->jitter);
	sim_run(&m.sim, n);
	/* the requester's max_payload knows the pool's: nothing too big */
	if (sc->pool_mtu)
		assert_int_equal(m.too_big, 0);
	/* the responder refuses what its port cannot carry, signed */
	assert_int_equal(m.mute, 0);

	for (i = 0; i < n; i++) {
		r = &m.req[i];
		assert_true(r->exec <= 1);
		assert_int_equal(r->done + r->failed, 1);
		if (r->done)
			assert_int_equal(r->exec, 1);
		if (!r->fits)
			assert_int_equal(r->exec + r->done, 0);
		if (sc->expect_all && r->fits)
			assert_int_equal(r->done, 1);
		once += r->exec;
		nak += r->done && r->expect;
		einval += r->done && r->expect == -EINVAL;
	}
	/* not vacuous: most reads that fit were reads in parts, and writes */
	if (sc->expect_all && sc->pool_mtu) {
		assert_true(m.multi > n / 8);
		assert_true(m.wmulti > n / 8);
	}
	print_message("# %s, seed %llu: MTU %u asks MTU %u, pool MTU %u, key %d\n",
		      sc->name, (unsigned long long)(sc->seed + seed + seed_offset),
		      sc->req_mtu, sc->rsp_mtu, sc->pool_mtu, sc->key);
	print_message("#   %u requests, %u executed once, %u NAKed (%u -EINVAL), timeouts %llu\n",
		      n, once, nak, einval, (unsigned long long)m.timeouts);
	print_message("#   reads in parts %llu: parts %llu dup_parts %llu stale %llu naks %llu\n",
		      (unsigned long long)m.multi, (unsigned long long)m.parts,
		      (unsigned long long)m.dup_parts,
		      (unsigned long long)m.stale, (unsigned long long)m.naks);
	print_message("#   writes in parts %llu: parts applied %llu, dup parts dropped %llu\n",
		      (unsigned long long)m.wmulti, (unsigned long long)m.wparts,
		      (unsigned long long)m.wbusy);
	print_message("#   forged_refused %llu retransmits %llu too_big %llu mute %llu\n",
		      (unsigned long long)m.refused,
		      (unsigned long long)m.retransmits,
		      (unsigned long long)m.too_big, (unsigned long long)m.mute);
	print_message("#   largest response frame %u + %u bytes\n",
		      MP_ETH_HDR_LEN, m.max_rsp);
	sim_fini(&m.sim);
	free(m.req);
	free(m.buf);
	free(m.cnt);
}

/* Retransmission always gets through eventually: exactly once. */
static void test_parts_exactly_once(void **state)
{
	static const struct scenario sc[] = {
		{ "clean", 21, 1500, 0xff00, MTU_SMALL, MTU_SMALL, MTU_SMALL,
		  0, 0, 0, 0, 40, false, true },
		{ "loss20+dup20+forge+reorder", 22, 1500, 0xfff0, MTU_SMALL,
		  MTU_SMALL, MTU_SMALL, 20, 20, 10, 3 * MS, 40, false, true },
		{ "jumbo", 23, 600, 0x8000, MTU_JUMBO, MTU_JUMBO, MTU_JUMBO,
		  10, 10, 10, 2 * MS, 40, false, true },
		{ "small-asks-jumbo", 24, 1500, 0xffc0, MTU_SMALL, MTU_JUMBO,
		  MTU_SMALL, 15, 15, 10, 3 * MS, 40, false, true },
		{ "jumbo-asks-small", 25, 1500, 0x0, MTU_JUMBO, MTU_SMALL,
		  MTU_SMALL, 15, 15, 10, 3 * MS, 40, false, true },
		{ "small-asks-jumbo-key", 27, 1500, 0xfff8, MTU_SMALL,
		  MTU_JUMBO, MTU_SMALL, 15, 15, 10, 3 * MS, 40, true, true },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sc); i++)
		run(&sc[i], 0);
}

/*
 * A requester that does not know the pool's smallest MTU: what the smaller
 * responder cannot take is never executed and times out, a read whose
 * widest part leaves no room for the trailer is -EINVAL. Not all the rest need finish
 * well: when for long no frame reaches the responder, its hole timeout may
 * pass a request it executed whose answer was lost.
 */
static void test_parts_uncapped(void **state)
{
	static const struct scenario sc[] = {
		{ "jumbo-asks-small-uncapped", 26, 300, 0x7fff, MTU_JUMBO,
		  MTU_SMALL, 0, 5, 5, 5, 1 * MS, 4, false, false },
		{ "jumbo-asks-small-uncapped-key", 28, 300, 0x7ff0, MTU_JUMBO,
		  MTU_SMALL, 0, 5, 5, 5, 1 * MS, 4, true, false },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sc); i++)
		run(&sc[i], 0);
}

/* Few retries over a bad network: failures, but never twice. */
static void test_parts_at_most_once(void **state)
{
	static const struct scenario sc[] = {
		{ "harsh", 31, 800, 0xff80, MTU_SMALL, MTU_SMALL, MTU_SMALL,
		  40, 30, 20, 5 * MS, 2, false, false },
		{ "harsh-mixed", 32, 800, 0x0, MTU_SMALL, MTU_JUMBO, MTU_SMALL,
		  40, 40, 20, 6 * MS, 1, false, false },
		{ "harsh-mixed-key", 33, 800, 0xffe0, MTU_JUMBO, MTU_SMALL,
		  MTU_SMALL, 40, 30, 20, 5 * MS, 2, true, false },
	};
	unsigned int i, seed;

	for (i = 0; i < ARRAY_SIZE(sc); i++)
		for (seed = 0; seed < 3; seed++)
			run(&sc[i], 100 * seed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts_exactly_once),
		cmocka_unit_test(test_parts_at_most_once),
		cmocka_unit_test(test_parts_uncapped),
	};
	const char *env = getenv("MP_MODEL_SEED");

	if (env)
		seed_offset = strtoull(env, NULL, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
