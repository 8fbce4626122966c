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
#include "util/util.h"

#define MS		1000000ULL
#define US		1000ULL
#define REQ_DEV		0
#define RSP_DEV		1
#define MAX_PAYLOAD	(1500 - MP_ETH_HDR_LEN)
#define FRAME_MAX	(MP_ETH_HDR_LEN + 8)
#define MAXPKT		4096
#define NENT		MP_RIFT_DEFAULT_ENTRIES

struct pkt {
	u64 at;
	u64 stamp;		/* a request's, as the pool key's trailer has */
	u8 to_rsp;
	u8 len;
	u8 data[FRAME_MAX];
};

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
	u64 rng;
	u64 now;
	u64 stamp;		/* the requester's last stamp */
	struct pkt q[MAXPKT];
	unsigned int nq;
	struct mp_rift rift;
	struct mp_rift_entry ent[NENT];
	struct mp_rift_peer peer[2];
	struct mp_window win;
	struct mp_peer_stats rq, rs;
	unsigned int *exec, *done, *failed;
	unsigned int issued, finished;
};

static struct model m;

static u64 rnd(void)
{
	/* xorshift64*: deterministic per seed. */
	m.rng ^= m.rng >> 12;
	m.rng ^= m.rng << 25;
	m.rng ^= m.rng >> 27;
	return m.rng * 0x2545F4914F6CDD1DULL;
}

static bool chance(unsigned int pct)
{
	return rnd() % 100 < pct;
}

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
	unsigned int copies = 1, i;
	struct pkt *p;
	u64 stamp = 0;

	/* strictly increasing per sender, as mp_eth's mpe_stamp() */
	if (to_rsp) {
		m.stamp = m.now > m.stamp ? m.now : m.stamp + 1;
		stamp = m.stamp;
	}

	assert_true(len <= FRAME_MAX);
	if (to_rsp)
		m.rq.tx++;
	else
		m.rs.tx++;
	if (chance(m.sc->loss_pct))
		return;
	if (chance(m.sc->dup_pct))
		copies++;
	for (i = 0; i < copies && m.nq < MAXPKT; i++) {
		p = &m.q[m.nq++];
		p->at = m.now + 50 * US + rnd() % (m.sc->jitter + 1);
		p->to_rsp = to_rsp;
		p->stamp = stamp;
		p->len = (u8)len;
		memcpy(p->data, buf, len);
	}
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
		f.ack = mp_rift_ack(&m.rift, RSP_DEV);
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

static void issue(void)
{
	struct mp_rift_entry *e;
	unsigned int id;
	int ret;

	while (m.issued < m.sc->nreq) {
		id = m.issued;
		ret = mp_rift_alloc(&m.rift, RSP_DEV, m.now,
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

static void responder_rx(const u8 *buf, size_t len, u64 stamp)
{
	struct mp_frame f, r;
	enum mp_window_verdict v;
	u8 out[FRAME_MAX];
	u64 word;
	int st = 0, ack;

	assert_int_equal(mp_frame_decode(buf, len, MAX_PAYLOAD, &f), 0);
	assert_true(mp_frame_op_is_request(f.op));
	m.rs.rx++;
	word = f.offset / 8;
	ack = f.flags & MP_ETH_F_ACK ? f.ack : MP_WINDOW_NO_ACK;
	v = mp_window_check_stamped(&m.win, f.sn, ack, stamp, m.now, &st);
	/* every copy here is genuine: the stamp rule must pass them all */
	assert_int_not_equal(v, MP_WIN_REPLAY);
	assert_true((m.win.rx.bits & 1) == 0);
	switch (v) {
	case MP_WIN_NEW:
	case MP_WIN_RESYNC:
		if (v == MP_WIN_RESYNC)
			m.rs.resyncs++;
		m.exec[word]++;
		if (f.op == MP_ETH_OP_WRITE_REQ)
			assert_true(get64(buf + MP_ETH_HDR_LEN) == ~word);
		assert_int_equal(mp_window_complete(&m.win, f.sn, 0), 0);
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

static void requester_rx(const u8 *buf, size_t len)
{
	struct mp_rift_entry *e;
	struct mp_frame f;
	unsigned int id;
	int ret;

	assert_int_equal(mp_frame_decode(buf, len, MAX_PAYLOAD, &f), 0);
	assert_true(mp_frame_op_is_response(f.op));
	m.rq.rx++;
	ret = mp_rift_match(&m.rift, f.tag, f.sn, f.src, &e);
	if (ret) {
		assert_true(ret == -ENOENT || ret == -ESTALE);
		m.rq.stale_responses++;
		return;
	}
	assert_int_equal(mp_frame_match_response(&f, e->op, e->offset,
						 e->len), 0);
	mp_rift_answered(&m.rift, e, m.now, f.flags & MP_ETH_F_RETX);
	id = (unsigned int)(uintptr_t)e->ctx;
	assert_true(e->offset == (u64)id * 8);
	if (f.op == MP_ETH_OP_READ_RESP)
		assert_true(get64(buf + MP_ETH_HDR_LEN) == mem_init(id));
	m.done[id]++;
	m.finished++;
	mp_rift_free(&m.rift, e);
}

static void deliver(void)
{
	unsigned int i = 0;
	struct pkt p;

	while (i < m.nq) {
		if (m.q[i].at > m.now) {
			i++;
			continue;
		}
		p = m.q[i];
		m.q[i] = m.q[--m.nq];	/* also shuffles the order */
		if (p.to_rsp)
			responder_rx(p.data, p.len, p.stamp);
		else
			requester_rx(p.data, p.len);
	}
}

static void timers(void)
{
	struct mp_rift_entry *e;
	enum mp_rift_event ev;
	unsigned int pos = 0;

	while ((ev = mp_rift_poll(&m.rift, m.now, &pos, &e)) != MP_RIFT_IDLE) {
		if (ev == MP_RIFT_RETRANSMIT) {
			m.rq.retransmits++;
			send_request(e, true);
			continue;
		}
		m.rq.timeouts++;
		m.failed[(uintptr_t)e->ctx]++;
		m.finished++;
		mp_rift_free(&m.rift, e);
	}
}

static void run(const struct scenario *sc)
{
	struct mp_rift_params p;
	unsigned int i, n = sc->nreq, once = 0, never = 0;
	u64 limit;

	memset(&m, 0, sizeof(m));
	m.sc = sc;
	m.rng = sc->seed * 2 + 1;
	m.exec = calloc(n, sizeof(*m.exec));
	m.done = calloc(n, sizeof(*m.done));
	m.failed = calloc(n, sizeof(*m.failed));
	assert_non_null(m.exec);
	assert_non_null(m.done);
	assert_non_null(m.failed);

	mp_rift_default_params(&p);
	p.rto_initial = 5 * MS;
	p.rto_min = 5 * MS;
	p.rto_max = 40 * MS;
	p.max_retries = sc->max_retries;
	p.probe_interval = 50 * MS;
	assert_int_equal(mp_rift_init(&m.rift, &p, m.ent, NENT, m.peer, 2,
				      sc->start_sn), 0);
	mp_window_init(&m.win, 0);
	mp_window_reset(&m.win);
	/* The hole timeout must outlast every retransmission. */
	m.win.gap_timeout = mp_rift_fail_time(&p) + 100 * MS;

	limit = (u64)n * 100 * MS + 10000 * MS;
	while (m.finished < n) {
		issue();
		deliver();
		timers();
		m.now += 100 * US;
		assert_true(m.now < limit);
	}
	assert_int_equal(m.rift.nr_busy, 0);

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
		      (unsigned long long)m.win.skipped);
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
		run(&sc[i]);
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
	struct scenario s;

	for (i = 0; i < ARRAY_SIZE(sc); i++) {
		for (seed = 0; seed < 4; seed++) {
			s = sc[i];
			s.seed += 100 * seed;
			run(&s);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exactly_once),
		cmocka_unit_test(test_at_most_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
