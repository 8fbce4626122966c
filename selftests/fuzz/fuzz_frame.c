// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the mp_eth transport logic: decodes arbitrary bytes
 * as frames and drives a RIFT and per-peer receive windows with whatever
 * decodes, interleaved with sends, timer runs and window resets (input
 * format in fuzz_frame.h). Besides ASan/UBSan, it checks the invariants
 * the kernel relies on and aborts when one breaks:
 *  - a decoded header re-encodes to the same 32 bytes, and the payload it
 *    announces lies inside the buffer; so does an ownership command's
 *    offset (a claim's partner) and its verdict (struct mp_eth_own_pair);
 *  - the reply to a valid request encodes, and decodes to a response that
 *    matches the request; the parts of a read with a stride are valid
 *    frames, each matches as its own part, and together they cover the
 *    range exactly; so do the parts of a write with a stride;
 *  - a part of a write in parts the window let through is never let
 *    through again, and its SN is answered only once all parts are in;
 *  - a response completes an entry only once every part it expects was
 *    taken, each once; the parts expected in flight to a destination
 *    stay within the RIFT's budget;
 *  - bit 0 of a window bitmap is never left set;
 *  - every request in flight is 1..64 ahead of the ack sent with it;
 *  - a tagged frame's stamp gets the verdict of a plain model of the
 *    replay rules (mp_replay.c): outside the window stale, a control
 *    frame not newer than its sender's last one seen, else taken.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mp_frame.h"
#include "mp_window.h"
#include "mp_replay.h"
#include "mp_rift.h"
#include "fuzz_frame.h"

#define SELF		0
#define NPEER		4
#define NENT		32

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

struct state {
	u64 now;
	u32 max_payload;
	bool no_ack;
	struct mp_window win[NPEER];
	struct mp_rift rift;
	struct mp_rift_entry ent[NENT];
	struct mp_rift_peer peer[NPEER];
	struct mp_replay replay;
	u64 last_stamp[MP_REPLAY_SENDERS];	/* the model; 0: none yet */
	u8 out[MP_ETH_HDR_LEN + 64];
};

static struct state s;

static void check_rift(void)
{
	const struct mp_rift_entry *e;
	unsigned int i, busy = 0;
	u32 parts[NPEER] = { 0 };
	u16 span;

	for (i = 0; i < NENT; i++) {
		e = &s.ent[i];
		CHECK(e->tag == i);
		if (!e->valid)
			continue;
		busy++;
		CHECK(e->dst < NPEER);
		span = (u16)(e->sn - mp_rift_ack(&s.rift, e->dst));
		CHECK(span >= 1 && span <= MP_RIFT_WINDOW);
		CHECK(e->nr_parts >= 1 && e->nr_parts <= MP_ETH_READ_PARTS);
		CHECK(!(e->parts_done & ~((1U << e->nr_parts) - 1)));
		CHECK(e->parts_done != (1U << e->nr_parts) - 1);
		CHECK(e->nr_frames >= e->nr_parts &&
		      e->nr_frames <= MP_ETH_READ_PARTS);
		parts[e->dst] += e->nr_frames;
	}
	CHECK(busy == s.rift.nr_busy);
	for (i = 0; i < NPEER; i++)
		CHECK(parts[i] == s.rift.peer[i].parts &&
		      parts[i] <= s.rift.max_parts);
}

/*
 * An ownership command and its verdict: what decodes (a partner only on a
 * claim, in range; no reserved bits) encodes to the same bytes.
 */
static void check_own(const u8 *buf, const struct mp_frame *f)
{
	u8 out[MP_ETH_OWN_PAIR_LEN];
	struct mp_own_resp resp;
	struct mp_own_req req;
	u64 off;

	if (f->op == MP_ETH_OP_OWN_REQ && !mp_own_req_decode(f->offset, &req)) {
		CHECK(req.pdev == MP_ETH_DEV_ANY ||
		      (req.cmd == MP_ETH_OWN_CLAIM &&
		       req.pdev <= MP_ETH_OWN_PDEV_MAX));
		CHECK(!mp_own_req_encode(&req, &off) && off == f->offset);
	}
	if (f->op == MP_ETH_OP_OWN_RESP &&
	    !mp_own_resp_decode(buf + MP_ETH_HDR_LEN, f->len, &resp)) {
		CHECK(mp_own_resp_encode(&resp, out, f->len) == (int)f->len);
		CHECK(!memcmp(out, buf + MP_ETH_HDR_LEN, f->len));
	}
}

/* Decode buf; on success check the round trip and return 0. */
static int decode(const u8 *buf, size_t len, struct mp_frame *f)
{
	struct mp_frame g;
	u8 hdr[MP_ETH_HDR_LEN];
	int ret;

	ret = mp_frame_decode(buf, len, s.max_payload, f);
	if (ret) {
		CHECK(ret < 0);
		return ret;
	}
	CHECK(len >= MP_ETH_HDR_LEN + (size_t)mp_frame_payload_len(f) +
	      mp_frame_trailer_len(f));
	g = *f;
	CHECK(mp_frame_encode(&g, s.max_payload, hdr, sizeof(hdr)) ==
	      MP_ETH_HDR_LEN);
	CHECK(!memcmp(hdr, buf, MP_ETH_HDR_LEN));
	check_own(buf, f);
	return 0;
}

/* The stamp of a tagged frame (its trailer follows the payload), else 0. */
static u64 frame_stamp(const u8 *buf, const struct mp_frame *f)
{
	if (!(f->flags & MP_ETH_F_AUTH))
		return 0;
	return mp_get_be64(buf + MP_ETH_HDR_LEN + mp_frame_payload_len(f) +
			   offsetof(struct mp_eth_auth, stamp));
}

/*
 * The parts of read f (valid, with or without a stride): valid frames,
 * each its own part, covering the range once.
 */
static void check_parts(const struct mp_frame *f)
{
	u32 i, n = mp_frame_parts(f->len, f->stride);
	struct mp_frame p;
	u64 next = f->offset;

	CHECK(n >= 1 && n <= MP_ETH_READ_PARTS);
	for (i = 0; i < n; i++) {
		CHECK(mp_frame_read_part(f, i, &p) == 0);
		CHECK(mp_frame_encode(&p, s.max_payload, s.out,
				      sizeof(s.out)) == MP_ETH_HDR_LEN);
		CHECK(p.offset == next && p.sn == f->sn && p.tag == f->tag);
		CHECK(mp_frame_match_part(&p, f->op, f->offset, f->len,
					  f->stride) == (int)i);
		next += p.len;
	}
	CHECK(next - f->offset == f->len);
	CHECK(mp_frame_read_part(f, n, &p) == -EINVAL);
}

/*
 * The parts of write f (valid, with a stride): valid frames that cover
 * the range once, each carrying its part's bytes.
 */
static void check_write_parts(const struct mp_frame *f)
{
	u32 i, len, n = mp_frame_parts(f->len, f->stride);
	struct mp_frame p, g;
	u64 off, next = f->offset;

	CHECK(n >= 1 && n <= MP_ETH_READ_PARTS);
	for (i = 0; i < n; i++) {
		CHECK(mp_frame_write_part(f, i, &p) == 0);
		CHECK(mp_frame_encode(&p, s.max_payload, s.out,
				      sizeof(s.out)) == MP_ETH_HDR_LEN);
		mp_frame_write_span(&p, &off, &len);
		CHECK(off == next && len && len <= s.max_payload);
		CHECK(mp_frame_payload_len(&p) == len);
		CHECK(mp_frame_decode(s.out, MP_ETH_HDR_LEN + len,
				      s.max_payload, &g) == 0);
		CHECK(g.part == i && g.offset == f->offset && g.len == f->len);
		next += len;
	}
	CHECK(next - f->offset == f->len);
	CHECK(mp_frame_write_part(f, n, &p) == -EINVAL);
}

/* Frame f of a write in parts, as the responder takes it. */
static void serve_part(const struct mp_frame *f, u64 stamp, u8 arg)
{
	struct mp_window *w = &s.win[f->src % NPEER], again;
	struct mp_window_part wp = {
		.offset = f->offset, .len = f->len, .stride = f->stride,
		.part = f->part, .nr_parts = mp_frame_parts(f->len, f->stride),
	};
	enum mp_window_verdict v;
	int ack, st = 0, fin = 1, ret;

	check_write_parts(f);
	ack = f->flags & MP_ETH_F_ACK ? f->ack : MP_WINDOW_NO_ACK;
	v = mp_window_check_part(w, f->sn, ack, stamp, s.now, &wp, &st);
	CHECK(!(w->rx.bits & 1));
	switch (v) {
	case MP_WIN_NEW:
	case MP_WIN_RESYNC:
	case MP_WIN_PART:
		/* the same part again is never let through */
		again = *w;
		v = mp_window_check_part(&again, f->sn, ack, stamp, s.now,
					 &wp, &st);
		CHECK(v != MP_WIN_NEW && v != MP_WIN_RESYNC &&
		      v != MP_WIN_PART);
		if (arg & 2)
			return;
		ret = mp_window_complete_part(w, f->sn, f->part,
					      arg & 1 ? -EIO : 0, &fin);
		CHECK(ret == 0 || ret == 1);
		if (ret == 1)
			CHECK(fin <= 0 && fin >= -MP_ETH_MAX_ERRNO);
		break;
	case MP_WIN_DUP:
		CHECK(st <= 0 && st >= -MP_ETH_MAX_ERRNO);
		break;
	case MP_WIN_BUSY:
	case MP_WIN_OLD:
	case MP_WIN_BEYOND:
	case MP_WIN_FORGED:
		break;
	case MP_WIN_REPLAY:
		CHECK(stamp);
		break;
	default:
		abort();
	}
}

static void serve(const struct mp_frame *f, const u8 *buf, u8 arg)
{
	struct mp_window *w = &s.win[f->src % NPEER], was;
	u64 stamp = frame_stamp(buf, f);
	enum mp_window_verdict v;
	struct mp_frame r, back;
	int st = 0, ack;

	if (f->op == MP_ETH_OP_WRITE_REQ && mp_frame_parts(f->len, f->stride) > 1) {
		serve_part(f, stamp, arg);
		return;
	}
	ack = f->flags & MP_ETH_F_ACK ? f->ack : MP_WINDOW_NO_ACK;
	was = *w;
	v = mp_window_check_stamped(w, f->sn, ack, stamp, s.now, &st);
	CHECK(!(w->rx.bits & 1));
	switch (v) {
	case MP_WIN_NEW:
	case MP_WIN_RESYNC:
		/* Execute; arg picks the outcome, sometimes left pending. */
		st = arg & 1 ? -(int)(1 + arg % 200) : 0;
		if (arg & 2)
			return;
		CHECK(mp_window_complete(w, f->sn, st) == 0);
		CHECK(mp_window_complete(w, f->sn, st) == -ENOENT);
		break;
	case MP_WIN_DUP:
		CHECK(st <= 0 && st >= -MP_ETH_MAX_ERRNO);
		break;
	case MP_WIN_BUSY:
		if (arg & 4)
			mp_window_complete(w, f->sn, 0);
		return;
	case MP_WIN_OLD:
	case MP_WIN_BEYOND:
	case MP_WIN_FORGED:	/* a write in parts begun under its SN */
		return;
	case MP_WIN_REPLAY:
		/* only a stamp refuses, and nothing but the clock moved */
		CHECK(stamp);
		if (was.synced)
			mp_window_expire(&was, s.now);
		CHECK(!memcmp(&was, w, sizeof(was)));
		return;
	default:
		abort();
	}
	/* a read is answered in its parts */
	if (f->op == MP_ETH_OP_READ_REQ && !st) {
		check_parts(f);
		return;
	}
	CHECK(mp_frame_reply(f, st, &r) == 0);
	CHECK(mp_frame_encode(&r, s.max_payload, s.out, sizeof(s.out)) ==
	      MP_ETH_HDR_LEN);
	/* Check the reply as its receiver would (header-only view). */
	if (!mp_frame_payload_len(&r)) {
		CHECK(mp_frame_decode(s.out, MP_ETH_HDR_LEN, s.max_payload,
				      &back) == 0);
		CHECK(mp_frame_match_response(&back, f->op, f->offset,
					      f->len) == 0);
	}
	(void)buf;
}

static void complete(const struct mp_frame *f)
{
	struct mp_rift_entry *e;
	u64 samples, rto;
	int ret, part;

	ret = mp_rift_match(&s.rift, f->tag, f->sn, f->src, &e);
	if (ret) {
		CHECK(ret == -EINVAL || ret == -ENOENT || ret == -ESTALE ||
		      ret == -EXDEV);
		return;
	}
	CHECK(e->valid && e->dst == f->src && e->sn == f->sn);
	samples = s.rift.peer[e->dst].samples;
	part = mp_frame_match_part(f, e->op, e->offset, e->len, e->stride);
	CHECK(part >= 0 || part == -EPROTO || part == -EBADMSG);
	/* Only a response that belongs to the request completes it. */
	if (part < 0 || part >= e->nr_parts) {
		CHECK(s.rift.peer[e->dst].samples == samples);
		return;
	}
	CHECK(f->op == MP_ETH_OP_READ_RESP || part == 0);
	ret = f->op == MP_ETH_OP_NAK ? 1 : mp_rift_part(e, (unsigned int)part);
	/* a part taken before is ignored, and nothing else changes */
	if (ret == -EALREADY)
		return;
	CHECK(ret == 0 || ret == 1);
	mp_rift_answered(&s.rift, e, s.now, f->flags & MP_ETH_F_RETX);
	/* the measured timeout stays within its bounds */
	rto = mp_rift_peer_rto(&s.rift, e->dst);
	CHECK(rto >= s.rift.p.rto_min && rto <= s.rift.p.rto_max);
	if (ret == 1)
		mp_rift_free(&s.rift, e);
}

/*
 * The stamp of a tagged frame against the model; the source device id
 * modulo the table size stands for the source MAC (so the model needs no
 * eviction). The clock is the fuzz clock moved past one window, so that
 * stamps on both sides of it occur.
 */
static void check_stamp(const u8 *buf, const struct mp_frame *f)
{
	u64 stamp = frame_stamp(buf, f);
	u64 now = s.now + MP_REPLAY_WINDOW * 4;
	bool control = mp_frame_op_is_control(f->op);
	u8 mac[6] = { 2, 0, 0, 0, 0, (u8)(f->src % MP_REPLAY_SENDERS) };
	enum mp_replay_verdict want = MP_REPLAY_OK;
	u64 *last = &s.last_stamp[mac[5]];

	if (!mp_replay_fresh(MP_REPLAY_WINDOW, stamp, now))
		want = MP_REPLAY_STALE;
	else if (control && *last && stamp <= *last)
		want = MP_REPLAY_SEEN;
	CHECK(mp_replay_check(&s.replay, mac, stamp, now, control) == want);
	if (want == MP_REPLAY_OK && control)
		*last = stamp;
	CHECK(!s.replay.evicted);
}

static void rx(const u8 *buf, size_t len, u8 arg)
{
	struct mp_discover d;
	struct mp_frame f;

	if (decode(buf, len, &f))
		return;
	if (f.flags & MP_ETH_F_AUTH)
		check_stamp(buf, &f);
	if (mp_frame_op_is_control(f.op)) {
		if (!mp_discover_decode(buf + MP_ETH_HDR_LEN, f.len, &d))
			CHECK(d.chip_id && d.dev_count);
		return;
	}
	if (f.dst != SELF)
		return;
	if (mp_frame_op_is_request(f.op))
		serve(&f, buf, arg);
	else
		complete(&f);
}

static void transmit(struct mp_rift_entry *e, bool retx)
{
	struct mp_frame f = {
		.op = e->op, .src = SELF, .dst = e->dst, .gen = 1,
		.sn = e->sn, .tag = e->tag, .offset = e->offset, .len = e->len,
		.stride = (u16)e->stride,
	}, g;

	if (!s.no_ack) {
		f.flags = MP_ETH_F_ACK;
		f.ack = mp_rift_ack(&s.rift, e->dst);
	}
	if (retx)
		f.flags |= MP_ETH_F_RETX;
	CHECK(mp_frame_encode(&f, s.max_payload, s.out, sizeof(s.out)) ==
	      MP_ETH_HDR_LEN);
	if (!mp_frame_payload_len(&f))
		CHECK(decode(s.out, MP_ETH_HDR_LEN, &g) == 0);
	if (f.op == MP_ETH_OP_WRITE_REQ && f.stride)
		check_write_parts(&f);
}

static void send_req(u8 cmd, const u8 *arg, size_t len)
{
	struct mp_rift_entry *e;
	u16 dst = (cmd >> 2) % NPEER;
	bool write = cmd & 0x40;
	/* in parts: a stride of 1 .. 256, up to 8 of them */
	u32 stride = (cmd & 0x80) && len >= 2 ?
		     1 + arg[len - 2] % (s.max_payload < 256 ?
					 s.max_payload : 256) : 0;
	u32 rlen = 1 + (len ? arg[len - 1] : 0) % s.max_payload;
	int ret;

	if (stride)
		rlen = 1 + (len ? arg[len - 1] : 0) %
		       (stride * MP_ETH_READ_PARTS);
	if (write)
		ret = mp_rift_alloc_write(&s.rift, dst, s.now, NULL,
					  mp_frame_parts(rlen, stride), &e);
	else
		ret = mp_rift_alloc_parts(&s.rift, dst, s.now, NULL,
					  mp_frame_parts(rlen, stride), &e);
	if (ret) {
		CHECK(ret == -EINVAL || ret == -EHOSTUNREACH ||
		      ret == -EAGAIN || ret == -ENOSPC);
		return;
	}
	e->op = write ? MP_ETH_OP_WRITE_REQ : MP_ETH_OP_READ_REQ;
	e->offset = len >= 8 ? ((u64)arg[0] << 12 | arg[1]) : 0;
	e->len = rlen;
	e->stride = stride;
	if (dst == SELF) {
		/* Never on the wire: the local device serves it. */
		mp_rift_free(&s.rift, e);
		return;
	}
	transmit(e, false);
}

static void poll_timers(void)
{
	struct mp_rift_entry *e;
	enum mp_rift_event ev;
	unsigned int pos = 0, n = 0;
	u64 next;

	while ((ev = mp_rift_poll(&s.rift, s.now, &pos, &e)) != MP_RIFT_IDLE) {
		CHECK(++n <= NENT);
		if (ev == MP_RIFT_RETRANSMIT) {
			CHECK(e->deadline > s.now || e->deadline == ~0ULL);
			CHECK(e->deadline <= e->fail_at);
			transmit(e, true);
		} else {
			CHECK(ev == MP_RIFT_TIMEOUT);
			/* a request fails at its budget, never before */
			CHECK(s.now >= e->fail_at);
			CHECK(e->fail_at - e->first_tx == s.rift.fail_time ||
			      e->fail_at == ~0ULL);
			CHECK(mp_rift_peer_unreachable(&s.rift, e->dst));
			mp_rift_free(&s.rift, e);
		}
	}
	if (mp_rift_next_deadline(&s.rift, &next))
		CHECK(next > s.now);
}

/* Generation change for one peer: abort its requests, restart both ends. */
static void reset_peer(u16 dst, u16 start_sn)
{
	struct mp_rift_entry *e;
	unsigned int pos = 0;

	while ((e = mp_rift_next_busy(&s.rift, &pos)) != NULL) {
		CHECK(e->valid);
		if (e->dst == dst)
			mp_rift_free(&s.rift, e);
	}
	CHECK(mp_rift_peer_reset(&s.rift, dst, start_sn) == 0);
	CHECK(!mp_rift_peer_unreachable(&s.rift, dst));
	mp_window_reset(&s.win[dst]);
}

static void timer_cmd(u8 cmd, const u8 *arg, size_t len)
{
	u16 dst = (cmd >> 4) % NPEER;

	if (cmd & 4)
		reset_peer(dst, len >= 2 ? (u16)(arg[0] << 8 | arg[1]) : 0);
	else if (cmd & 8)
		mp_rift_peer_alive(&s.rift, dst);
	else
		poll_timers();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct mp_rift_params p;
	struct mp_frame f;
	size_t i = 1, len;
	unsigned int k;
	u8 cmd;

	if (!size)
		return 0;
	memset(&s, 0, sizeof(s));
	mp_replay_init(&s.replay, MP_REPLAY_WINDOW);
	s.max_payload = fuzz_max_payload[data[0] & 3];
	s.no_ack = data[0] & 4;
	s.now = 1;
	mp_rift_default_params(&p);
	CHECK(mp_rift_init(&s.rift, &p, s.ent, NENT, s.peer, NPEER,
			   (u16)(0xfff0 + (data[0] >> 3))) == 0);
	for (k = 0; k < NPEER; k++) {
		mp_window_init(&s.win[k], 0);
		if (k & 1)
			mp_window_reset(&s.win[k]);
	}

	/* The whole input, as one frame. */
	decode(data + 1, size - 1, &f);

	while (i + FUZZ_REC_HDR <= size) {
		cmd = data[i];
		s.now += data[i + 1] * FUZZ_TICK_NS;
		len = data[i + 2] | (size_t)data[i + 3] << 8;
		i += FUZZ_REC_HDR;
		if (len > size - i)
			len = size - i;
		switch (cmd & 3) {
		case FUZZ_RX:
			rx(data + i, len, cmd >> 2);
			break;
		case FUZZ_SEND:
			send_req(cmd, data + i, len);
			break;
		case FUZZ_POLL:
			timer_cmd(cmd, data + i, len);
			break;
		case FUZZ_WINDOW:
			if (cmd & 4)
				mp_window_reset(&s.win[(cmd >> 3) % NPEER]);
			else
				mp_window_expire(&s.win[(cmd >> 3) % NPEER],
						 s.now);
			break;
		}
		check_rift();
		i += len;
	}
	return 0;
}
