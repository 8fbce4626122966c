// SPDX-License-Identifier: GPL-2.0
/*
 * Randomized model test of the mp_eth transport: a requester (RIFT) and a
 * responder (receive window) exchange real encoded frames over a simulated
 * network that loses, duplicates and reorders them. Every request carries
 * a unique offset, so the responder can count executions per request.
 *
 * Asserted: each request is executed at most once; it finishes exactly once
 * at the requester (response or -ETIMEDOUT); a successful response implies
 * exactly one execution and carries the right data; and when the requester
 * may retransmit enough, every request is executed exactly once.
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
#include "model_sim.h"
#include "util/util.h"

#define MAX_PAYLOAD	(1500 - MP_ETH_HDR_LEN)
#define FRAME_MAX	(MP_ETH_HDR_LEN + 8)

struct scenario {
	const char *name;
	u64 seed;
	unsigned int nreq;
	u16 start_sn;
	unsigned int loss_pct;	/* per frame, each direction */
	unsigned int dup_pct;	/* chance of an extra copy */
	u64 jitter;		/* uniform extra delay: reordering */
	unsigned int max_retries;
	bool use_ack;		/* MP_ETH_F_ACK, else paper mode */
	bool expect_all;	/* loss low enough that none may fail */
};

struct model {
	const struct scenario *sc;
	struct model_sim sim;	/* the network, the RIFT, the window */
	u64 stamp;		/* the requester's last stamp */
	struct mp_peer_stats rq, rs;
	unsigned int *exec, *done, *failed;
	unsigned int issued;
};

static struct model m;

/* Memory of the responder: word i holds a value derived from i. */
static u64 mem_init(u64 word)
{
	return word * 0x9e3779b97f4a7c15ULL ^ 0x5a5a;
}

static u64 get64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void put64(u8 *p, u64 v)
{
	memcpy(p, &v, sizeof(v));
}

static void net_send(bool to_rsp, const u8 *buf, size_t len)
{
	u64 stamp = 0;

	/* requests only are stamped */
	if (to_rsp)
		stamp = sim_stamp(&m.sim, &m.stamp);

	assert_true(len <= FRAME_MAX);
	if (to_rsp)
		m.rq.tx++;
	else
		m.rs.tx++;
	sim_send(&m.sim, to_rsp, false, stamp, buf, (u32)len);
}

static void send_request(struct mp_rift_entry *e, bool retx)
{
	struct mp_frame f = {
		.op = e->op, .src = REQ_DEV, .dst = RSP_DEV, .gen = 1,
		.sn = e->sn, .tag = e->tag, .offset = e->offset, .len = e->len,
	};
	u8 buf[FRAME_MAX];
	size_t n;

	if (m.sc->use_ack) {
		f.flags |= MP_ETH_F_ACK;
		f.ack = mp_rift_ack(&m.sim.rift, RSP_DEV);
	}
	if (retx)
		f.flags |= MP_ETH_F_RETX;
	assert_int_equal(mp_frame_encode(&f, MAX_PAYLOAD, buf, sizeof(buf)),
			 MP_ETH_HDR_LEN);
	n = MP_ETH_HDR_LEN + mp_frame_payload_len(&f);
	if (f.op == MP_ETH_OP_WRITE_REQ)
		put64(buf + MP_ETH_HDR_LEN, ~(f.offset / 8));
	net_send(true, buf, n);
}

void model_issue(void)
{
	struct mp_rift_entry *e;
	unsigned int id;
	int ret;

	while (m.issued < m.sc->nreq) {
		id = m.issued;
		ret = mp_rift_alloc(&m.sim.rift, RSP_DEV, m.sim.now,
				    (void *)(uintptr_t)id, &e);
		if (ret == -EAGAIN || ret == -ENOSPC)
			return;
		if (ret == -EHOSTUNREACH) {
			/*
			 * Fast fail. A real caller would return the error;
			 * the model keeps the request and tries again, so
			 * that probes bring the peer back and the stream
			 * goes on.
			 */
			m.rq.fast_fails++;
			return;
		}
		assert_int_equal(ret, 0);
		e->op = id % 2 ? MP_ETH_OP_WRITE_REQ : MP_ETH_OP_READ_REQ;
		e->offset = (u64)id * 8;
		e->len = 8;
		m.issued++;
		send_request(e, false);
	}
}

void model_responder_rx(const struct sim_pkt *p)
{
	const u8 *buf = p->data;
	struct mp_frame f, r;
	enum mp_window_verdict v;
	u8 out[FRAME_MAX];
	u64 word;
	int st = 0, ack;

	assert_int_equal(mp_frame_decode(buf, p->len, MAX_PAYLOAD, &f), 0);
	assert_true(mp_frame_op_is_request(f.op));
	m.rs.rx++;
	word = f.offset / 8;
	ack = f.flags & MP_ETH_F_ACK ? f.ack : MP_WINDOW_NO_ACK;
	v = mp_window_check_stamped(&m.sim.win, f.sn, ack, p->stamp, m.sim.now,
				    &st);
	/* every copy here is genuine: the stamp rule must pass them all */
	assert_int_not_equal(v, MP_WIN_REPLAY);
	assert_true((m.sim.win.rx.bits & 1) == 0);
	switch (v) {
	case MP_WIN_NEW:
	case MP_WIN_RESYNC:
		if (v == MP_WIN_RESYNC)
			m.rs.resyncs++;
		m.exec[word]++;
		if (f.op == MP_ETH_OP_WRITE_REQ)
			assert_true(get64(buf + MP_ETH_HDR_LEN) == ~word);
		assert_int_equal(mp_window_complete(&m.sim.win, f.sn, 0), 0);
		break;
	case MP_WIN_DUP:
		m.rs.duplicates++;
		assert_int_equal(st, 0);
		break;
	case MP_WIN_BUSY:
		fail_msg("BUSY: every request was completed at once");
		return;
	default:
		m.rs.out_of_window++;
		return;
	}
	/* Reads are re-read on a duplicate: reading is idempotent. */
	assert_int_equal(mp_frame_reply(&f, st, &r), 0);
	assert_int_equal(mp_frame_encode(&r, MAX_PAYLOAD, out, sizeof(out)),
			 MP_ETH_HDR_LEN);
	if (r.op == MP_ETH_OP_READ_RESP)
		put64(out + MP_ETH_HDR_LEN, mem_init(word));
	net_send(false, out, MP_ETH_HDR_LEN + mp_frame_payload_len(&r));
}

void model_requester_rx(const struct sim_pkt *p)
{
	const u8 *buf = p->data;
	struct mp_rift_entry *e;
	struct mp_frame f;
	unsigned int id;
	int ret;

	assert_int_equal(mp_frame_decode(buf, p->len, MAX_PAYLOAD, &f), 0);
	assert_true(mp_frame_op_is_response(f.op));
	m.rq.rx++;
	ret = mp_rift_match(&m.sim.rift, f.tag, f.sn, f.src, &e);
	if (ret) {
		assert_true(ret == -ENOENT || ret == -ESTALE);
		m.rq.stale_responses++;
		return;
	}
	assert_int_equal(mp_frame_match_response(&f, e->op, e->offset,
						 e->len), 0);
	mp_rift_answered(&m.sim.rift, e, m.sim.now, f.flags & MP_ETH_F_RETX);
	id = (unsigned int)(uintptr_t)e->ctx;
	assert_true(e->offset == (u64)id * 8);
	if (f.op == MP_ETH_OP_READ_RESP)
		assert_true(get64(buf + MP_ETH_HDR_LEN) == mem_init(id));
	m.done[id]++;
	m.sim.finished++;
	mp_rift_free(&m.sim.rift, e);
}

void model_retransmit(struct mp_rift_entry *e)
{
	m.rq.retransmits++;
	send_request(e, true);
}

void model_timeout(struct mp_rift_entry *e)
{
	m.rq.timeouts++;
	m.failed[(uintptr_t)e->ctx]++;
}

/* Scenario sc, its seed + seed. */
static void run(const struct scenario *sc, u64 seed)
{
	unsigned int i, n = sc->nreq, once = 0, never = 0;

	memset(&m, 0, sizeof(m));
	m.sc = sc;
	m.exec = calloc(n, sizeof(*m.exec));
	m.done = calloc(n, sizeof(*m.done));
	m.failed = calloc(n, sizeof(*m.failed));
	assert_non_null(m.exec);
	assert_non_null(m.done);
	assert_non_null(m.failed);

	sim_init(&m.sim, sc->seed + seed, sc->start_sn, sc->max_retries,
		 50 * MS, sc->loss_pct, sc->dup_pct, sc->jitter);
	sim_run(&m.sim, n);

	for (i = 0; i < n; i++) {
		assert_true(m.exec[i] <= 1);
		assert_int_equal(m.done[i] + m.failed[i], 1);
		if (m.done[i])
			assert_int_equal(m.exec[i], 1);
		if (sc->expect_all) {
			assert_int_equal(m.done[i], 1);
			assert_int_equal(m.exec[i], 1);
		}
		once += m.exec[i];
		never += !m.exec[i];
	}
	print_message("# %s: %u requests, %u executed once, %u never\n",
		      sc->name, n, once, never);
	print_message("#   retransmits %llu duplicates %llu out_of_window %llu\n",
		      (unsigned long long)m.rq.retransmits,
		      (unsigned long long)m.rs.duplicates,
		      (unsigned long long)m.rs.out_of_window);
	print_message("#   stale %llu timeouts %llu fast_fails %llu\n",
		      (unsigned long long)m.rq.stale_responses,
		      (unsigned long long)m.rq.timeouts,
		      (unsigned long long)m.rq.fast_fails);
	print_message("#   resyncs %llu skipped %llu\n",
		      (unsigned long long)m.rs.resyncs,
		      (unsigned long long)m.sim.win.skipped);
	sim_fini(&m.sim);
	free(m.exec);
	free(m.done);
	free(m.failed);
}

/* Retransmission always gets through eventually: exactly once. */
static void test_exactly_once(void **state)
{
	static const struct scenario sc[] = {
		{ "clean", 1, 5000, 0xff00, 0, 0, 0, 40, true, true },
		{ "reorder", 2, 5000, 0xff00, 0, 0, 3 * MS, 40, true, true },
		{ "dup+reorder", 3, 5000, 0xfff0, 0, 30, 3 * MS, 40, true,
		  true },
		{ "loss20+dup10+reorder", 4, 5000, 0x8000, 20, 10, 2 * MS, 40,
		  true, true },
		{ "loss40+dup30+reorder", 5, 3000, 0xffff, 40, 30, 5 * MS, 60,
		  true, true },
		{ "wrap-70k", 6, 70000, 0xfff0, 5, 5, 1 * MS, 40, true, true },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sc); i++)
		run(&sc[i], 0);
}

/* Few retries over a bad network: failures, but never twice. */
static void test_at_most_once(void **state)
{
	static const struct scenario sc[] = {
		{ "harsh-ack", 11, 3000, 0xff80, 50, 30, 5 * MS, 2, true,
		  false },
		{ "harsh-ack-noretry", 12, 3000, 0x0, 30, 50, 8 * MS, 0, true,
		  false },
		{ "paper-mode", 13, 3000, 0xff80, 20, 20, 3 * MS, 8, false,
		  false },
		{ "paper-mode-harsh", 14, 3000, 0x7ff0, 50, 40, 6 * MS, 2,
		  false, false },
	};
	unsigned int i, seed;

	for (i = 0; i < ARRAY_SIZE(sc); i++)
		for (seed = 0; seed < 4; seed++)
			run(&sc[i], 100 * seed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exactly_once),
		cmocka_unit_test(test_at_most_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
