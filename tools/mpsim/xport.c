// SPDX-License-Identifier: GPL-2.0
/*
 * mpsim: the transport under loss. Pairs of devices on the simulated
 * switch: each requester writes a buffer to its responder's memory in
 * MTU-sized requests, then reads it back and compares, through the
 * kernel's own RIFT (retransmission, sequence numbers, cumulative acks:
 * mp_rift.c), receive window (duplicates answered from the cache, exactly
 * once execution: mp_window.c) and frame codec (mp_frame.c). Goodput is
 * the verified payload per second of simulated time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mp_frame.h"
#include "mp_rift.h"
#include "mp_window.h"
#include "sim.h"

#define POLL		(200 * SIM_US)	/* the requester's timer */
#define NENT		MP_RIFT_DEFAULT_ENTRIES

enum { XV_FRAME, XV_POLL };

struct xreq {			/* a requester and its responder */
	struct mp_rift rift;
	struct mp_rift_entry ent[NENT];
	struct mp_rift_peer peer[2];
	struct mp_window win;	/* the responder's window for it */
	u8 *src;		/* what is written */
	u8 *mem;		/* the responder's memory */
	u8 *back;		/* what is read back */
	u8 *ok;			/* per chunk: 1 written, 2 read back */
	u32 chunks;
	u32 next;		/* next chunk to issue in this phase */
	u32 done;		/* chunks finished in this phase */
	bool reading;
	bool finished;
	u64 finished_at;
};

struct xsim {
	const struct sim_xport_cfg *cfg;
	struct sim_xport_result *res;
	struct sim_heap heap;
	struct sim_net net;
	struct xreq *rq;
	u32 max_payload;
	u8 *buf;		/* one frame */
	u64 now;
	u32 running;
};

static u32 xs_chunk_len(const struct xsim *x, u32 c)
{
	u64 off = (u64)c * x->max_payload;

	return (u32)(x->cfg->bytes - off < x->max_payload ?
		     x->cfg->bytes - off : x->max_payload);
}

static int xs_send(struct xsim *x, u32 from, u32 to, const struct mp_frame *f,
		   const u8 *payload)
{
	u32 plen = mp_frame_payload_len(f);
	int ret;

	ret = mp_frame_encode(f, x->max_payload, x->buf, MP_ETH_HDR_LEN);
	if (ret < 0)
		return ret;
	if (plen)
		memcpy(x->buf + MP_ETH_HDR_LEN, payload, plen);
	x->res->frames++;
	return sim_net_send(&x->net, x->now, from, to, false, x->buf,
			    MP_ETH_HDR_LEN + plen);
}

static int xs_request(struct xsim *x, u32 p, struct mp_rift_entry *e,
		      bool retx)
{
	struct xreq *r = &x->rq[p];
	struct mp_frame f = {
		.op = e->op, .flags = MP_ETH_F_ACK | (retx ? MP_ETH_F_RETX : 0),
		.src = 0, .dst = 1, .gen = 1, .sn = e->sn, .tag = e->tag,
		.ack = mp_rift_ack(&r->rift, 1), .offset = e->offset,
		.len = e->len,
	};

	return xs_send(x, 2 * p, 2 * p + 1, &f, r->src + e->offset);
}

/* Start as many requests of the current phase as the RIFT allows. */
static int xs_issue(struct xsim *x, u32 p)
{
	struct xreq *r = &x->rq[p];
	struct mp_rift_entry *e;
	int ret;

	while (r->next < r->chunks) {
		ret = mp_rift_alloc(&r->rift, 1, x->now,
				    (void *)(uintptr_t)r->next, &e);
		if (ret == -EAGAIN || ret == -ENOSPC || ret == -EHOSTUNREACH)
			return 0;
		if (ret)
			return ret;
		e->op = r->reading ? MP_ETH_OP_READ_REQ : MP_ETH_OP_WRITE_REQ;
		e->offset = (u64)r->next * x->max_payload;
		e->len = xs_chunk_len(x, r->next);
		r->next++;
		ret = xs_request(x, p, e, false);
		if (ret)
			return ret;
	}
	return 0;
}

/* A chunk finished (answered or failed): next phase, or the end. */
static int xs_finished(struct xsim *x, u32 p)
{
	struct xreq *r = &x->rq[p];

	x->res->requests++;
	if (++r->done < r->chunks)
		return xs_issue(x, p);
	if (!r->reading) {
		r->reading = true;
		r->next = 0;
		r->done = 0;
		return xs_issue(x, p);
	}
	r->finished = true;
	r->finished_at = x->now;
	x->running--;
	return 0;
}

static int xs_responder(struct xsim *x, u32 p, const u8 *buf, u32 len)
{
	struct xreq *r = &x->rq[p];
	enum mp_window_verdict v;
	struct mp_frame f, resp;
	int st = 0;

	if (mp_frame_decode(buf, len, x->max_payload, &f) ||
	    !mp_frame_op_is_request(f.op) || f.offset + f.len > x->cfg->bytes)
		return -EPROTO;
	v = mp_window_check(&r->win, f.sn,
			    f.flags & MP_ETH_F_ACK ? f.ack : MP_WINDOW_NO_ACK,
			    x->now, &st);
	switch (v) {
	case MP_WIN_NEW:
	case MP_WIN_RESYNC:
		if (f.op == MP_ETH_OP_WRITE_REQ)
			memcpy(r->mem + f.offset, buf + MP_ETH_HDR_LEN, f.len);
		mp_window_complete(&r->win, f.sn, 0);
		break;
	case MP_WIN_DUP:
		x->res->duplicates++;
		break;
	default:
		return 0;
	}
	if (mp_frame_reply(&f, st, &resp))
		return -EPROTO;
	return xs_send(x, 2 * p + 1, 2 * p, &resp, r->mem + f.offset);
}

static int xs_requester(struct xsim *x, u32 p, const u8 *buf, u32 len)
{
	struct xreq *r = &x->rq[p];
	struct mp_rift_entry *e;
	struct mp_frame f;
	u32 c;

	if (mp_frame_decode(buf, len, x->max_payload, &f) ||
	    !mp_frame_op_is_response(f.op))
		return -EPROTO;
	if (mp_rift_match(&r->rift, f.tag, f.sn, f.src, &e))
		return 0;	/* a late duplicate */
	if (mp_frame_match_response(&f, e->op, e->offset, e->len))
		return -EPROTO;
	mp_rift_answered(&r->rift, e, x->now, f.flags & MP_ETH_F_RETX);
	c = (u32)(uintptr_t)e->ctx;
	if (f.op == MP_ETH_OP_READ_RESP) {
		memcpy(r->back + f.offset, buf + MP_ETH_HDR_LEN, f.len);
		if (r->ok[c] == 1)
			r->ok[c] = 2;
	} else if (f.op == MP_ETH_OP_WRITE_ACK) {
		r->ok[c] = 1;
	}
	mp_rift_free(&r->rift, e);
	return xs_finished(x, p);
}

static int xs_poll(struct xsim *x, u32 p)
{
	struct xreq *r = &x->rq[p];
	struct mp_rift_entry *e;
	enum mp_rift_event ev;
	unsigned int pos = 0;
	int ret = 0;

	while (!ret && (ev = mp_rift_poll(&r->rift, x->now, &pos, &e)) !=
	       MP_RIFT_IDLE) {
		if (ev == MP_RIFT_RETRANSMIT) {
			x->res->retransmits++;
			ret = xs_request(x, p, e, true);
			continue;
		}
		x->res->failed++;
		mp_rift_free(&r->rift, e);
		ret = xs_finished(x, p);
	}
	if (!ret)
		ret = xs_issue(x, p);
	if (!ret && !r->finished) {
		struct sim_ev pe = { .at = x->now + POLL, .kind = XV_POLL,
				     .dev = p };

		ret = sim_heap_push(&x->heap, &pe);
	}
	return ret;
}

static int xs_setup(struct xsim *x)
{
	const struct sim_xport_cfg *c = x->cfg;
	struct mp_rift_params rp;
	struct sim_rng rng;
	u32 p;
	u64 i;

	x->rq = calloc(c->pairs, sizeof(*x->rq));
	x->buf = malloc(c->mtu);
	if (!x->rq || !x->buf)
		return -ENOMEM;
	mp_rift_default_params(&rp);
	if (c->rto) {
		rp.rto_initial = c->rto;
		if (rp.rto_min > c->rto)
			rp.rto_min = c->rto;
	}
	if (rp.rto_max < rp.rto_initial)
		rp.rto_max = rp.rto_initial;
	sim_rng_seed(&rng, c->seed);
	for (p = 0; p < c->pairs; p++) {
		struct xreq *r = &x->rq[p];
		struct sim_ev pe = { .at = 0, .kind = XV_POLL, .dev = p };
		int ret;

		r->chunks = (u32)((c->bytes + x->max_payload - 1) /
				  x->max_payload);
		r->src = malloc(c->bytes);
		r->mem = calloc(1, c->bytes);
		r->back = calloc(1, c->bytes);
		r->ok = calloc(r->chunks, 1);
		if (!r->src || !r->mem || !r->back || !r->ok)
			return -ENOMEM;
		for (i = 0; i < c->bytes; i++)
			r->src[i] = (u8)sim_rng_next(&rng);
		if (mp_rift_init(&r->rift, &rp, r->ent, NENT, r->peer, 2, 0))
			return -EINVAL;
		mp_window_init(&r->win, 0);
		mp_window_reset(&r->win);
		r->win.gap_timeout = mp_rift_fail_time(&rp) + 100 * SIM_MS;
		ret = sim_heap_push(&x->heap, &pe);
		if (ret)
			return ret;
	}
	x->running = c->pairs;
	return 0;
}

static void xs_free(struct xsim *x)
{
	u32 p;

	for (p = 0; x->rq && p < x->cfg->pairs; p++) {
		free(x->rq[p].src);
		free(x->rq[p].mem);
		free(x->rq[p].back);
		free(x->rq[p].ok);
	}
	free(x->rq);
	free(x->buf);
	sim_heap_free(&x->heap);
	sim_net_free(&x->net);
}

/**
 * sim_xport_run() - one transport run
 * @cfg: what to simulate
 * @res: what was measured (zeroed here)
 *
 * Return: 0 (see @res->verified), -EINVAL for a bad @cfg, -ENOMEM,
 * -EPROTO if a frame the simulation built does not decode.
 */
int sim_xport_run(const struct sim_xport_cfg *cfg,
		  struct sim_xport_result *res)
{
	struct xsim x = { .cfg = cfg, .res = res };
	u64 moved = 0, last = 0;
	struct sim_ev e;
	u32 p, c;
	int ret;

	*res = (struct sim_xport_result){ 0 };
	if (!cfg->pairs || cfg->mtu <= MP_ETH_HDR_LEN + 8 || !cfg->bytes ||
	    cfg->loss < 0 || cfg->loss >= 1)
		return -EINVAL;
	x.max_payload = cfg->mtu - MP_ETH_HDR_LEN;
	ret = sim_net_init(&x.net, 2 * cfg->pairs, &x.heap, XV_FRAME,
			   cfg->seed ^ 0x7a);
	if (!ret)
		ret = xs_setup(&x);
	if (ret)
		goto out;
	x.net.loss = cfg->loss;
	x.net.delay = cfg->delay;
	x.net.jitter = cfg->jitter;
	x.net.rate = cfg->rate;

	while (x.running && sim_heap_pop(&x.heap, &e)) {
		x.now = e.at;
		if (x.now > cfg->limit) {
			free(e.data);
			break;
		}
		if (e.kind == XV_POLL)
			ret = x.rq[e.dev].finished ? 0 : xs_poll(&x, e.dev);
		else if (e.dev % 2)
			ret = xs_responder(&x, e.dev / 2, e.data, e.len);
		else
			ret = xs_requester(&x, e.dev / 2, e.data, e.len);
		free(e.data);
		if (ret)
			goto out;
	}
	res->verified = !x.running;
	for (p = 0; p < cfg->pairs; p++) {
		struct xreq *r = &x.rq[p];

		if (r->finished_at > last)
			last = r->finished_at;
		for (c = 0; c < r->chunks; c++) {
			u64 off = (u64)c * x.max_payload;
			u32 len = xs_chunk_len(&x, c);

			if (r->ok[c] != 2)
				continue;
			if (memcmp(r->src + off, r->back + off, len) ||
			    memcmp(r->src + off, r->mem + off, len))
				res->verified = false;
			else
				moved += 2 * (u64)len;	/* written + read */
		}
	}
	res->time = last;
	res->goodput = last ? (double)moved * SIM_S / last : 0;
out:
	xs_free(&x);
	return ret;
}
