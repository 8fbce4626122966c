// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the Request-In-Flight Table (mp_rift.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mp_rift.h"

#define MS	1000000ULL
#define NPEER	4

struct fixture {
	struct mp_rift r;
	struct mp_rift_entry ent[MP_RIFT_DEFAULT_ENTRIES];
	struct mp_rift_peer peer[NPEER];
};

static struct fixture fx;

static struct mp_rift *setup(unsigned int nr_ent, u16 start_sn)
{
	memset(&fx, 0, sizeof(fx));
	assert_int_equal(mp_rift_init(&fx.r, NULL, fx.ent, nr_ent, fx.peer,
				      NPEER, start_sn), 0);
	return &fx.r;
}

static struct mp_rift_entry *alloc_ok(struct mp_rift *r, u16 dst, u64 now)
{
	struct mp_rift_entry *e = NULL;

	assert_int_equal(mp_rift_alloc(r, dst, now, NULL, &e), 0);
	assert_non_null(e);
	return e;
}

/* Drive the poll loop once; return how many entries of each event. */
static void poll_all(struct mp_rift *r, u64 now, unsigned int *retx,
		     unsigned int *fail)
{
	struct mp_rift_entry *e;
	unsigned int pos = 0;
	enum mp_rift_event ev;

	*retx = 0;
	*fail = 0;
	while ((ev = mp_rift_poll(r, now, &pos, &e)) != MP_RIFT_IDLE) {
		if (ev == MP_RIFT_RETRANSMIT) {
			(*retx)++;
		} else {
			(*fail)++;
			mp_rift_free(r, e);
		}
	}
}

static void test_init(void **state)
{
	struct mp_rift_params p;
	struct mp_rift r;

	mp_rift_default_params(&p);
	assert_int_equal(mp_rift_init(&r, &p, fx.ent, 0, fx.peer, 1, 0),
			 -EINVAL);
	assert_int_equal(mp_rift_init(&r, &p, fx.ent, 0xffff, fx.peer, 1, 0),
			 -EINVAL);
	assert_int_equal(mp_rift_init(&r, &p, fx.ent, 1, fx.peer, 0, 0),
			 -EINVAL);
	assert_int_equal(mp_rift_init(&r, &p, NULL, 1, fx.peer, 1, 0),
			 -EINVAL);
	p.rto_initial = 0;
	assert_int_equal(mp_rift_init(&r, &p, fx.ent, 1, fx.peer, 1, 0),
			 -EINVAL);
	mp_rift_default_params(&p);
	p.rto_max = p.rto_initial - 1;
	assert_int_equal(mp_rift_init(&r, &p, fx.ent, 1, fx.peer, 1, 0),
			 -EINVAL);
	mp_rift_default_params(&p);
	p.rto_min = 0;
	assert_int_equal(mp_rift_init(&r, &p, fx.ent, 1, fx.peer, 1, 0),
			 -EINVAL);
	mp_rift_default_params(&p);
	p.rto_min = p.rto_max + 1;
	assert_int_equal(mp_rift_init(&r, &p, fx.ent, 1, fx.peer, 1, 0),
			 -EINVAL);
	mp_rift_default_params(&p);
	p.max_retries = MP_RIFT_MAX_RETRIES_LIMIT + 1;
	assert_int_equal(mp_rift_init(&r, &p, fx.ent, 1, fx.peer, 1, 0),
			 -EINVAL);
	mp_rift_default_params(&p);
	assert_int_equal(mp_rift_init(&r, &p, fx.ent, 1, fx.peer, 1, 0), 0);
}

static void test_alloc_sn_per_peer(void **state)
{
	struct mp_rift *r = setup(16, 100);
	struct mp_rift_entry *a, *b, *c, *e;
	int ctx;

	assert_int_equal(mp_rift_ack(r, 1), 99);
	a = alloc_ok(r, 1, 0);
	b = alloc_ok(r, 1, 0);
	c = alloc_ok(r, 2, 0);
	assert_int_equal(a->sn, 100);
	assert_int_equal(b->sn, 101);
	assert_int_equal(c->sn, 100);	/* independent per destination */
	assert_int_not_equal(a->tag, b->tag);
	assert_int_equal(a->tag, a - fx.ent);
	assert_int_equal(r->nr_busy, 3);
	assert_int_equal(mp_rift_alloc(r, NPEER, 0, NULL, &e), -EINVAL);
	assert_int_equal(mp_rift_alloc(r, 1, 0, NULL, NULL), -EINVAL);
	assert_int_equal(mp_rift_alloc(r, 3, 0, &ctx, &e), 0);
	assert_ptr_equal(e->ctx, &ctx);

	/* Ack: the highest SN below which everything is finished. */
	mp_rift_free(r, b);
	assert_int_equal(mp_rift_ack(r, 1), 99);
	mp_rift_free(r, a);
	assert_int_equal(mp_rift_ack(r, 1), 101);
	mp_rift_free(r, a);	/* double free is ignored */
	assert_int_equal(r->nr_busy, 2);
	assert_int_equal(mp_rift_ack(r, 2), 99);
	assert_int_equal(mp_rift_ack(r, NPEER), 0);
}

static void test_exhaustion(void **state)
{
	struct mp_rift *r = setup(4, 0);
	struct mp_rift_entry *e[4], *x;
	unsigned int i;

	for (i = 0; i < 4; i++)
		e[i] = alloc_ok(r, (u16)(i % 2), 0);
	assert_int_equal(mp_rift_alloc(r, 0, 0, NULL, &x), -ENOSPC);
	assert_int_equal(mp_rift_alloc(r, 3, 0, NULL, &x), -ENOSPC);
	mp_rift_free(r, e[2]);
	x = alloc_ok(r, 3, 0);
	assert_ptr_equal(x, e[2]);	/* the freed slot is reused */
	assert_int_equal(mp_rift_alloc(r, 0, 0, NULL, &x), -ENOSPC);
	for (i = 0; i < 4; i++)
		mp_rift_free(r, i == 2 ? x : e[i]);
	assert_int_equal(r->nr_busy, 0);
	for (i = 0; i < 4; i++)
		alloc_ok(r, 0, 0);
	assert_int_equal(mp_rift_alloc(r, 0, 0, NULL, &x), -ENOSPC);
}

/* Never more than 64 SNs past the ack: what the responder can track. */
static void test_window_limit(void **state)
{
	struct mp_rift *r = setup(MP_RIFT_DEFAULT_ENTRIES, 0xffe0);
	struct mp_rift_entry *e[MP_RIFT_WINDOW], *x;
	unsigned int i;

	for (i = 0; i < MP_RIFT_WINDOW; i++) {
		e[i] = alloc_ok(r, 1, 0);
		assert_int_equal(e[i]->sn, (u16)(0xffe0 + i));
	}
	assert_int_equal(mp_rift_alloc(r, 1, 0, NULL, &x), -EAGAIN);
	alloc_ok(r, 2, 0);		/* other destinations unaffected */
	/* Finishing a middle one does not move the ack. */
	mp_rift_free(r, e[5]);
	assert_int_equal(mp_rift_alloc(r, 1, 0, NULL, &x), -EAGAIN);
	/* Finishing the oldest does, by one (e[1] still in flight). */
	mp_rift_free(r, e[0]);
	assert_int_equal(mp_rift_ack(r, 1), 0xffe0);
	x = alloc_ok(r, 1, 0);
	assert_int_equal(x->sn, 0x0020);
	assert_int_equal(mp_rift_alloc(r, 1, 0, NULL, &x), -EAGAIN);
	for (i = 1; i < 5; i++)
		mp_rift_free(r, e[i]);
	assert_int_equal(mp_rift_ack(r, 1), 0xffe5);	/* through e[5] */
}

static void test_wraparound(void **state)
{
	struct mp_rift *r = setup(8, 0xfffe);
	struct mp_rift_entry *e;
	unsigned int i;
	u16 want = 0xfffe;

	/* Many rounds through 0xffff -> 0 with one request at a time. */
	for (i = 0; i < 0x20010; i++) {
		e = alloc_ok(r, 1, i);
		assert_int_equal(e->sn, want);
		assert_int_equal(mp_rift_ack(r, 1), (u16)(want - 1));
		mp_rift_free(r, e);
		assert_int_equal(mp_rift_ack(r, 1), want);
		want++;
	}
	/* Forcing the start of one destination. */
	assert_int_equal(mp_rift_peer_reset(r, 2, 0xffff), 0);
	e = alloc_ok(r, 2, 0);
	assert_int_equal(e->sn, 0xffff);
	assert_int_equal(mp_rift_peer_reset(r, 2, 5), -EBUSY);
	assert_int_equal(mp_rift_peer_reset(r, NPEER, 5), -EINVAL);
	e = alloc_ok(r, 2, 0);
	assert_int_equal(e->sn, 0x0000);
}

static void test_match(void **state)
{
	struct mp_rift *r = setup(8, 10);
	struct mp_rift_entry *a, *b, *e;

	a = alloc_ok(r, 1, 0);
	assert_int_equal(mp_rift_match(r, 8, a->sn, 1, &e), -EINVAL);
	assert_int_equal(mp_rift_match(r, 0xffff, a->sn, 1, &e),
			 -EINVAL);
	assert_int_equal(mp_rift_match(r, (u16)(a->tag + 1), 10, 1, &e),
			 -ENOENT);
	assert_int_equal(mp_rift_match(r, a->tag, 11, 1, &e), -ESTALE);
	assert_int_equal(mp_rift_match(r, a->tag, 10, 2, &e), -EXDEV);
	assert_int_equal(mp_rift_match(r, a->tag, 10, 1, NULL), -EINVAL);
	assert_int_equal(mp_rift_match(r, a->tag, 10, 1, &e), 0);
	assert_ptr_equal(e, a);

	/* Late response after completion: unknown tag. */
	mp_rift_free(r, a);
	assert_int_equal(mp_rift_match(r, a->tag, 10, 1, &e), -ENOENT);
	/*
	 * The slot is reused for a request to another device, whose own
	 * sequence happens to be at the same SN: the late response of the
	 * first use is told apart by its source.
	 */
	b = alloc_ok(r, 2, 0);
	assert_ptr_equal(b, a);
	assert_int_equal(b->sn, 10);
	assert_int_equal(mp_rift_match(r, b->tag, 10, 1, &e), -EXDEV);
	assert_int_equal(mp_rift_match(r, b->tag, 9, 1, &e), -ESTALE);
	assert_int_equal(mp_rift_match(r, b->tag, 10, 2, &e), 0);
	/* Same slot reused for the same device: SN tells them apart. */
	mp_rift_free(r, b);
	b = alloc_ok(r, 1, 0);
	assert_ptr_equal(b, a);
	assert_int_equal(b->sn, 11);
	assert_int_equal(mp_rift_match(r, b->tag, 10, 1, &e), -ESTALE);
	assert_int_equal(mp_rift_match(r, b->tag, 11, 1, &e), 0);
}

static void test_backoff_and_failure(void **state)
{
	struct mp_rift *r = setup(8, 0);
	struct mp_rift_entry *a, *e;
	static const u64 due[] = { 50, 150, 350, 750, 1550 };
	unsigned int pos, i;
	u64 d;

	assert_true(mp_rift_rto(&r->p, 0) == 50 * MS);
	assert_true(mp_rift_rto(&r->p, 1) == 100 * MS);
	assert_true(mp_rift_rto(&r->p, 4) == 800 * MS);
	assert_true(mp_rift_rto(&r->p, 5) == 800 * MS);
	assert_true(mp_rift_rto(&r->p, 200) == 800 * MS);
	/* The documented bound: a dead peer fails a request in 1.55 s. */
	assert_true(mp_rift_fail_time(&r->p) == 1550 * MS);
	assert_true(mp_rift_fail_time(&r->p) < 2000 * MS);

	assert_false(mp_rift_next_deadline(r, &d));
	a = alloc_ok(r, 1, 0);
	for (i = 0; i < 4; i++) {
		assert_true(mp_rift_next_deadline(r, &d));
		assert_true(d == due[i] * MS);
		pos = 0;
		assert_int_equal(mp_rift_poll(r, d - 1, &pos, &e),
				 MP_RIFT_IDLE);
		pos = 0;
		assert_int_equal(mp_rift_poll(r, d, &pos, &e),
				 MP_RIFT_RETRANSMIT);
		assert_ptr_equal(e, a);
		assert_int_equal(a->retries, i + 1);
		assert_true(a->last_tx == d);
		assert_true(a->first_tx == 0);
		assert_int_equal(mp_rift_poll(r, d, &pos, &e), MP_RIFT_IDLE);
		assert_false(mp_rift_peer_unreachable(r, 1));
	}
	assert_true(mp_rift_next_deadline(r, &d));
	assert_true(d == due[4] * MS);
	pos = 0;
	assert_int_equal(mp_rift_poll(r, d, &pos, &e), MP_RIFT_TIMEOUT);
	assert_ptr_equal(e, a);
	assert_true(mp_rift_peer_unreachable(r, 1));
	/* Reported once; a response now is too late. */
	pos = 0;
	assert_int_equal(mp_rift_poll(r, d + 10 * MS, &pos, &e), MP_RIFT_IDLE);
	assert_false(mp_rift_next_deadline(r, &d));
	assert_int_equal(mp_rift_match(r, a->tag, a->sn, 1, &e),
			 -ENOENT);
	mp_rift_free(r, a);
	assert_int_equal(mp_rift_ack(r, 1), 0);

	/* Saturation: huge timeouts and clocks do not wrap. */
	r->p.rto_initial = ~0ULL / 2;
	r->p.rto_max = ~0ULL;
	assert_true(mp_rift_rto(&r->p, 3) == ~0ULL);
	assert_true(mp_rift_fail_time(&r->p) == ~0ULL);
	a = alloc_ok(r, 2, ~0ULL - 5);
	assert_true(a->deadline == ~0ULL);
}

/* One request to dst sent at t0 and answered at t1, once. */
static void round_trip(struct mp_rift *r, u16 dst, u64 t0, u64 t1)
{
	struct mp_rift_entry *a = alloc_ok(r, dst, t0), *e;

	assert_int_equal(mp_rift_match(r, a->tag, a->sn, dst, &e), 0);
	mp_rift_answered(r, e, t1, false);
	mp_rift_free(r, e);
}

static void test_rtt_estimator(void **state)
{
	struct mp_rift *r = setup(8, 0);
	struct mp_rift_peer *pp = &r->peer[1];

	/* No sample yet: the unmeasured first timeout. */
	assert_true(mp_rift_peer_rto(r, 1) == 50 * MS);
	assert_true(mp_rift_peer_rto(r, NPEER) == 50 * MS);

	/* RFC 6298 2.2: srtt = R, rttvar = R / 2, rto = R + 4 * R / 2. */
	round_trip(r, 1, 0, 20 * MS);
	assert_true(pp->srtt == 20 * MS);
	assert_true(pp->rttvar == 10 * MS);
	assert_true(pp->samples == 1);
	assert_true(mp_rift_peer_rto(r, 1) == 60 * MS);
	assert_true(MP_RIFT_RTO_MIN == 50 * MS);
	/* Other destinations keep their own estimate. */
	assert_true(mp_rift_peer_rto(r, 2) == 50 * MS);

	/* 2.3: rttvar = 3/4 * 10 + 1/4 * |20 - 12| = 9.5, srtt = 19. */
	round_trip(r, 1, 100 * MS, 112 * MS);
	assert_true(pp->rttvar == 9500000ULL);
	assert_true(pp->srtt == 19 * MS);
	assert_true(mp_rift_peer_rto(r, 1) == 57 * MS);

	/* A steady fast path converges to the floor (rto_min, 50 ms). */
	for (int i = 0; i < 100; i++)
		round_trip(r, 1, 1000 * MS, 1000 * MS + 100000);
	assert_true(pp->srtt < 200000);
	assert_true(mp_rift_peer_rto(r, 1) == MP_RIFT_RTO_MIN);

	/* A slow one to the cap, whatever the sample. */
	round_trip(r, 2, 0, 5000 * MS);
	assert_true(r->peer[2].srtt == 800 * MS);
	assert_true(mp_rift_peer_rto(r, 2) == 800 * MS);

	/* A zero round trip still counts as a sample. */
	round_trip(r, 3, 7, 7);
	assert_true(r->peer[3].srtt == 1);
	assert_true(mp_rift_peer_rto(r, 3) == MP_RIFT_RTO_MIN);

	/* A new generation forgets the path. */
	assert_int_equal(mp_rift_peer_reset(r, 1, 0), 0);
	assert_true(mp_rift_peer_rto(r, 1) == 50 * MS);
}

/* The timer scan at t sends a again. */
static void retransmit_at(struct mp_rift *r, struct mp_rift_entry *a, u64 t)
{
	struct mp_rift_entry *e;
	unsigned int pos = 0;

	assert_int_equal(mp_rift_poll(r, t, &pos, &e), MP_RIFT_RETRANSMIT);
	assert_ptr_equal(e, a);
}

/* A response to a arrives at t; retx: it answers a retransmitted copy. */
static void answer(struct mp_rift *r, struct mp_rift_entry *a, u64 t,
		   bool retx)
{
	struct mp_rift_entry *e;

	assert_int_equal(mp_rift_match(r, a->tag, a->sn, a->dst, &e), 0);
	mp_rift_answered(r, e, t, retx);
	mp_rift_free(r, e);
}

static void test_which_copy(void **state)
{
	struct mp_rift *r = setup(8, 0);
	struct mp_rift_entry *a, *e;

	/*
	 * Sent again at 50 ms; the response to the first copy comes at
	 * 170 ms: the whole round trip is the sample (Karn's rule alone
	 * would drop it, and a slow path would never be measured).
	 */
	a = alloc_ok(r, 1, 0);
	retransmit_at(r, a, 50 * MS);
	answer(r, a, 170 * MS, false);
	assert_true(r->peer[1].samples == 1);
	assert_true(r->peer[1].srtt == 170 * MS);

	/* The answer to the only retransmission times that copy. */
	a = alloc_ok(r, 2, 0);
	retransmit_at(r, a, 50 * MS);
	answer(r, a, 53 * MS, true);
	assert_true(r->peer[2].srtt == 3 * MS);

	/* After two retransmissions an answer to one of them is ambiguous. */
	a = alloc_ok(r, 3, 0);
	retransmit_at(r, a, 50 * MS);
	retransmit_at(r, a, 150 * MS);
	answer(r, a, 160 * MS, true);
	assert_true(r->peer[3].samples == 0);
	assert_true(mp_rift_peer_rto(r, 3) == 50 * MS);

	/* A stale or misdirected response is none either. */
	a = alloc_ok(r, 1, 200 * MS);
	assert_int_equal(mp_rift_match(r, a->tag, (u16)(a->sn + 1), 1, &e),
			 -ESTALE);
	assert_int_equal(mp_rift_match(r, a->tag, a->sn, 2, &e), -EXDEV);
	/* Nor is one found but not (yet) accepted by its caller. */
	assert_int_equal(mp_rift_match(r, a->tag, a->sn, 1, &e), 0);
	assert_true(r->peer[1].samples == 1 && r->peer[2].samples == 1);
	/* A clock that went backwards gives no sample. */
	answer(r, a, 199 * MS, false);
	assert_true(r->peer[1].samples == 1);
}

/*
 * Run a to its failure with nothing answering; return how many times it
 * was sent again and check that it failed exactly at its budget.
 */
static unsigned int until_failure(struct mp_rift *r, struct mp_rift_entry *a)
{
	unsigned int retx = 0, pos;
	struct mp_rift_entry *e;
	u64 d, prev = a->first_tx;

	for (;;) {
		assert_true(mp_rift_next_deadline(r, &d));
		assert_true(d > prev);
		assert_true(d <= a->first_tx + mp_rift_fail_time(&r->p));
		prev = d;
		pos = 0;
		if (mp_rift_poll(r, d, &pos, &e) == MP_RIFT_TIMEOUT)
			break;
		assert_ptr_equal(e, a);
		retx++;
	}
	assert_true(d == a->first_tx + mp_rift_fail_time(&r->p));
	assert_true(mp_rift_peer_unreachable(r, a->dst));
	mp_rift_free(r, a);
	return retx;
}

static void test_budget(void **state)
{
	struct mp_rift *r = setup(8, 0);
	struct mp_rift_entry *a;

	/*
	 * Whatever the measured timeout, a request to a dead peer fails
	 * 1.55 s after it was first sent: a fast path retransmits more
	 * often in that time (with a floor of 10 ms: 10, 20, 40, ... ms), a
	 * slow one less often.
	 */
	assert_int_equal(until_failure(r, alloc_ok(r, 3, 0)), 4);
	r->p.rto_min = 10 * MS;

	round_trip(r, 1, 0, 1 * MS);
	assert_true(mp_rift_peer_rto(r, 1) == 10 * MS);
	a = alloc_ok(r, 1, 10 * MS);
	assert_true(a->deadline == 20 * MS);
	/* sent again at 20, 40, 80, ... 1280 ms; fails at 1560 ms */
	assert_int_equal(until_failure(r, a), 7);

	round_trip(r, 2, 0, 400 * MS);
	assert_true(mp_rift_peer_rto(r, 2) == 800 * MS);
	a = alloc_ok(r, 2, 500 * MS);
	assert_true(a->deadline == 1300 * MS);
	assert_int_equal(until_failure(r, a), 1);
}

static void test_poll_many(void **state)
{
	struct mp_rift *r = setup(32, 0);
	struct mp_rift_entry *e;
	unsigned int retx, fail, i, pos;

	for (i = 0; i < 10; i++)
		alloc_ok(r, (u16)(i % NPEER), i * MS);
	poll_all(r, 49 * MS, &retx, &fail);
	assert_int_equal(retx, 0);
	poll_all(r, 55 * MS, &retx, &fail);
	assert_int_equal(retx, 6);		/* sent at 0..5 ms */
	poll_all(r, 60 * MS, &retx, &fail);
	assert_int_equal(retx, 4);
	poll_all(r, 60 * MS, &retx, &fail);
	assert_int_equal(retx, 0);
	/* A scan long after the budget fails them, however few retries. */
	poll_all(r, 10000 * MS, &retx, &fail);
	assert_int_equal(retx, 0);
	assert_int_equal(fail, 10);
	assert_int_equal(r->nr_busy, 0);
	for (i = 0; i < NPEER; i++)
		assert_true(mp_rift_peer_unreachable(r, (u16)i));

	/* Busy iteration (abort path). */
	r = setup(32, 0);
	for (i = 0; i < 5; i++)
		alloc_ok(r, 1, 0);
	pos = 0;
	i = 0;
	while ((e = mp_rift_next_busy(r, &pos)) != NULL) {
		mp_rift_free(r, e);
		i++;
	}
	assert_int_equal(i, 5);
	assert_int_equal(r->nr_busy, 0);
	assert_int_equal(mp_rift_ack(r, 1), 4);
}

/* Poll in 1 ms steps from *now until a request fails; *now = that time. */
static void run_until_fail(struct mp_rift *r, u64 *now)
{
	unsigned int retx, fail, steps = 0;

	for (;;) {
		poll_all(r, *now, &retx, &fail);
		if (fail)
			return;
		*now += MS;
		assert_true(++steps < 10000);
	}
}

static void fail_peer(struct mp_rift *r, u16 dst, u64 *now)
{
	u64 t0 = *now;

	alloc_ok(r, dst, *now);
	run_until_fail(r, now);
	/* Failure exactly after the sum of the timeouts. */
	assert_true(*now - t0 == mp_rift_fail_time(&r->p));
}

static void test_unreachable(void **state)
{
	struct mp_rift *r = setup(32, 0);
	struct mp_rift_entry *e, *p;
	u64 now = 1000 * MS;
	int i;

	fail_peer(r, 1, &now);
	assert_true(mp_rift_peer_unreachable(r, 1));
	/* Fast fail, other destinations unaffected. */
	for (i = 0; i < 100; i++)
		assert_int_equal(mp_rift_alloc(r, 1, now + i * MS, NULL, &e),
				 -EHOSTUNREACH);
	e = alloc_ok(r, 2, now);
	mp_rift_free(r, e);
	assert_int_equal(mp_rift_alloc(r, 1, now + MP_RIFT_PROBE_INTERVAL - 1,
				       NULL, &e), -EHOSTUNREACH);
	/* One probe per interval. */
	now += MP_RIFT_PROBE_INTERVAL;
	p = alloc_ok(r, 1, now);
	assert_true(p->probe);
	assert_int_equal(mp_rift_alloc(r, 1, now, NULL, &e), -EHOSTUNREACH);
	/* The peer answers the probe: reachable again. */
	assert_int_equal(mp_rift_match(r, p->tag, p->sn, 1, &e), 0);
	assert_true(mp_rift_peer_unreachable(r, 1));
	mp_rift_answered(r, e, now, false);
	assert_false(mp_rift_peer_unreachable(r, 1));
	e = alloc_ok(r, 1, now);
	assert_false(e->probe);
	mp_rift_free(r, p);
	mp_rift_free(r, e);

	/* The probe times out: the next one is an interval later. */
	fail_peer(r, 3, &now);
	now += MP_RIFT_PROBE_INTERVAL;
	p = alloc_ok(r, 3, now);
	assert_true(p->probe);
	run_until_fail(r, &now);
	assert_true(mp_rift_peer_unreachable(r, 3));
	assert_int_equal(mp_rift_alloc(r, 3, now + 10, NULL, &e),
			 -EHOSTUNREACH);
	assert_int_equal(mp_rift_alloc(r, 3, now + MP_RIFT_PROBE_INTERVAL - 1,
				       NULL, &e), -EHOSTUNREACH);
	/* Outside evidence (discovery) also brings it back. */
	mp_rift_peer_alive(r, 3);
	assert_false(mp_rift_peer_unreachable(r, 3));
	e = alloc_ok(r, 3, now + 20);
	assert_false(e->probe);
	mp_rift_peer_alive(r, NPEER);
	assert_false(mp_rift_peer_unreachable(r, NPEER));
}

/*
 * The module's layout for 1024 devices: one RIFT per destination, each
 * with the one slot of its device id (mp_rift_set_base()), not a slot for
 * every id below it. Each serves only its destination, with its own
 * sequence numbers, acks, timeouts and reachability.
 */
static void test_base_1024(void **state)
{
	static struct mp_rift r[1024];
	static struct mp_rift_entry ent[1024][4];
	static struct mp_rift_peer peer[1024];
	struct mp_rift_entry *e, *again;
	unsigned int i, retx, fail;
	u16 sn;

	for (i = 0; i < 1024; i++) {
		assert_int_equal(mp_rift_init(&r[i], NULL, ent[i], 4, &peer[i],
					      1, (u16)(7 * i)), 0);
		mp_rift_set_base(&r[i], (u16)i);
	}
	for (i = 0; i < 1024; i++) {
		/* another destination has no slot here */
		assert_int_equal(mp_rift_alloc(&r[i], (u16)(i ^ 1), 0, NULL,
					       &e), -EINVAL);
		assert_int_equal(mp_rift_peer_reset(&r[i], (u16)(i + 1), 0),
				 -EINVAL);
		e = alloc_ok(&r[i], (u16)i, 0);
		assert_int_equal(e->dst, i);
		assert_int_equal(e->sn, (u16)(7 * i));
		sn = e->sn;
		/* a response from another device does not complete it */
		assert_int_equal(mp_rift_match(&r[i], e->tag, sn, (u16)(i ^ 1),
					       &again), -EXDEV);
		assert_int_equal(mp_rift_match(&r[i], e->tag, sn, (u16)i,
					       &again), 0);
		mp_rift_answered(&r[i], again, MS, false);
		mp_rift_free(&r[i], again);
		assert_int_equal(mp_rift_ack(&r[i], (u16)i), sn);
		assert_true(mp_rift_peer_rto(&r[i], (u16)i) > 0);
	}
	/* a timeout marks only its own destination unreachable */
	e = alloc_ok(&r[1000], 1000, 0);
	poll_all(&r[1000], 10000 * MS, &retx, &fail);
	assert_int_equal(fail, 1);
	assert_true(mp_rift_peer_unreachable(&r[1000], 1000));
	assert_false(mp_rift_peer_unreachable(&r[999], 999));
	assert_false(mp_rift_peer_unreachable(&r[1000], 999));
	mp_rift_peer_alive(&r[1000], 1000);
	assert_false(mp_rift_peer_unreachable(&r[1000], 1000));
}

/* A READ_REQ of len bytes in parts of stride, from device 0 to dst. */
static struct mp_frame read_req(const struct mp_rift_entry *e, u32 len,
				u32 stride)
{
	struct mp_frame f = {
		.op = MP_ETH_OP_READ_REQ, .flags = MP_ETH_F_ACK, .src = 0,
		.dst = e->dst, .sn = e->sn, .tag = e->tag, .ack = (u16)(e->sn - 1),
		.offset = e->offset, .len = len, .stride = (u16)stride,
		.bind = e->nonce,
	};
	return f;
}

/*
 * A window larger than the fixed 64 frames holds while the destination's
 * smoothed round trip stays under a quarter of the timeout floor, shrinks
 * to 64 past it, and grows back once the round trip is short again.
 */
static void test_window_shrinks_on_slow_peer(void **state)
{
	struct mp_rift *r = setup(MP_RIFT_DEFAULT_ENTRIES, 100);
	struct mp_rift_entry *e[24], *x;
	unsigned int i, n;

	assert_int_equal(mp_rift_set_max_parts(r, 192), 0);
	/* unmeasured, then a 1 ms round trip: 24 reads of 8 parts fit */
	round_trip(r, 1, 0, 1 * MS);
	for (i = 0; i < 24; i++)
		assert_int_equal(mp_rift_alloc_parts(r, 1, 0, NULL, 8, &e[i]),
				 0);
	assert_int_equal(mp_rift_alloc(r, 1, 0, NULL, &x), -EAGAIN);
	for (i = 0; i < 24; i++)
		mp_rift_free(r, e[i]);
	/* round trips of 20 ms, past 50 ms / 4: 64 frames, 8 reads */
	for (i = 0; i < 8; i++)
		round_trip(r, 1, 100 * MS * (i + 1), 100 * MS * (i + 1) + 20 * MS);
	assert_true(r->peer[1].srtt > MP_RIFT_RTO_MIN / 4);
	for (n = 0; n < 24; n++)
		if (mp_rift_alloc_parts(r, 1, 0, NULL, 8, &e[n]))
			break;
	assert_int_equal(n, 8);
	/* other destinations keep the whole window */
	assert_int_equal(mp_rift_alloc_parts(r, 2, 0, NULL, 8, &x), 0);
	mp_rift_free(r, x);
	for (i = 0; i < n; i++)
		mp_rift_free(r, e[i]);
	/* short round trips again: the whole window */
	for (i = 0; i < 40; i++)
		round_trip(r, 1, 10 * MS * (i + 300), 10 * MS * (i + 300) + MS);
	assert_true(r->peer[1].srtt <= MP_RIFT_RTO_MIN / 4);
	for (n = 0; n < 24; n++)
		if (mp_rift_alloc_parts(r, 1, 0, NULL, 8, &e[n]))
			break;
	assert_int_equal(n, 24);
	for (i = 0; i < n; i++)
		mp_rift_free(r, e[i]);
}

/*
 * A read in parts: the parts it expects count against the destination's
 * budget (64 response frames by default), its parts match by index, each
 * is taken once, and the entry is complete with the last one missing.
 */
static void test_parts(void **state)
{
	struct mp_rift *r = setup(MP_RIFT_DEFAULT_ENTRIES, 100);
	struct mp_rift_entry *e[8], *x;
	struct mp_frame req, p;
	unsigned int i;

	assert_int_equal(r->max_parts, MP_RIFT_MAX_PARTS);
	assert_int_equal(mp_rift_alloc_parts(r, 1, 0, NULL, 0, &x), -EINVAL);
	assert_int_equal(mp_rift_alloc_parts(r, 1, 0, NULL,
					     MP_ETH_READ_PARTS + 1, &x),
			 -EINVAL);
	/* 8 reads of 8 parts: 64 frames; no room for one more frame */
	for (i = 0; i < 8; i++) {
		assert_int_equal(mp_rift_alloc_parts(r, 1, 0, NULL, 8, &e[i]),
				 0);
		assert_int_equal(e[i]->nr_parts, 8);
		assert_int_equal(e[i]->parts_done, 0);
	}
	assert_int_equal(mp_rift_alloc(r, 1, 0, NULL, &x), -EAGAIN);
	/* another destination has a budget of its own */
	assert_int_equal(mp_rift_alloc_parts(r, 2, 0, NULL, 8, &x), 0);
	mp_rift_free(r, x);
	/* a completion gives its parts back */
	mp_rift_free(r, e[7]);
	assert_int_equal(mp_rift_alloc_parts(r, 1, 0, NULL, 3, &e[7]), 0);
	assert_int_equal(mp_rift_alloc_parts(r, 1, 0, NULL, 6, &x), -EAGAIN);
	assert_int_equal(mp_rift_alloc_parts(r, 1, 0, NULL, 5, &x), 0);
	mp_rift_free(r, x);
	assert_int_equal(mp_rift_set_max_parts(r, 0), -EINVAL);
	assert_int_equal(mp_rift_set_max_parts(r, 128), 0);
	assert_int_equal(mp_rift_alloc_parts(r, 1, 0, NULL, 8, &x), 0);
	mp_rift_free(r, x);

	/* e[7]: 4096 bytes in parts of 1468 */
	x = e[7];
	x->op = MP_ETH_OP_READ_REQ;
	x->offset = 0x40000;
	x->len = 4096;
	x->stride = 1468;
	x->nonce = 0x5eed;
	req = read_req(x, 4096, 1468);
	for (i = 0; i < 3; i++) {
		struct mp_rift_entry *m = NULL;

		assert_int_equal(mp_frame_read_part(&req, i, &p), 0);
		assert_int_equal(mp_rift_match_response(r, &p, &m), (int)i);
		assert_ptr_equal(m, x);
	}
	/* part 1, then part 1 again (a duplicate), then 2 and 0 */
	assert_int_equal(mp_rift_part(x, 1), 0);
	assert_int_equal(mp_rift_part(x, 1), -EALREADY);
	assert_int_equal(mp_rift_part(x, 2), 0);
	assert_int_equal(mp_rift_part(x, 3), -EINVAL);
	assert_int_equal(mp_rift_part(x, 0), 1);
	assert_int_equal(mp_rift_part(x, 0), -EALREADY);

	/* forged parts: off the stride, wrong len, another nonce */
	assert_int_equal(mp_frame_read_part(&req, 1, &p), 0);
	p.offset += 4;
	assert_int_equal(mp_rift_match_response(r, &p, &x), -EBADMSG);
	assert_int_equal(mp_frame_read_part(&req, 2, &p), 0);
	p.len = 1468;
	assert_int_equal(mp_rift_match_response(r, &p, &x), -EBADMSG);
	assert_int_equal(mp_frame_read_part(&req, 2, &p), 0);
	p.flags |= MP_ETH_F_AUTH;
	p.bind++;
	assert_int_equal(mp_rift_match_response(r, &p, &x), -EKEYREJECTED);
	/* more parts than the entry was allocated for */
	e[6]->op = MP_ETH_OP_READ_REQ;
	e[6]->len = 4096;
	e[6]->stride = 512;
	e[6]->nr_parts = 7;	/* as if allocated for fewer than 8 */
	req = read_req(e[6], 4096, 512);
	assert_int_equal(mp_frame_read_part(&req, 7, &p), 0);
	assert_int_equal(mp_rift_match_response(r, &p, &x), -EBADMSG);
	e[6]->nr_parts = 8;

	/* free: all the budget comes back */
	for (i = 0; i < 8; i++)
		mp_rift_free(r, e[i]);
	assert_int_equal(r->peer[1].parts, 0);
	assert_int_equal(r->nr_busy, 0);
}

/*
 * A write in parts: one SN and one entry for its frames, which count
 * against the destination's frame budget; one WRITE_ACK for its whole
 * range finishes it.
 */
static void test_write_parts(void **state)
{
	struct mp_rift *r = setup(MP_RIFT_DEFAULT_ENTRIES, 200);
	struct mp_rift_entry *e[8], *x, *m;
	struct mp_frame w, p, a;
	unsigned int i;

	assert_int_equal(mp_rift_alloc_write(r, 1, 0, NULL, 0, &x), -EINVAL);
	assert_int_equal(mp_rift_alloc_write(r, 1, 0, NULL,
					     MP_ETH_READ_PARTS + 1, &x),
			 -EINVAL);
	/* 8 writes of 8 parts: 64 frames, as 64 writes of one frame were */
	for (i = 0; i < 8; i++) {
		assert_int_equal(mp_rift_alloc_write(r, 1, 0, NULL, 8, &e[i]),
				 0);
		assert_int_equal(e[i]->sn, 200 + i);
		assert_int_equal(e[i]->nr_parts, 1);
		assert_int_equal(e[i]->nr_frames, 8);
	}
	assert_int_equal(r->peer[1].parts, 64);
	assert_int_equal(r->peer[1].inflight, 8);
	assert_int_equal(mp_rift_alloc(r, 1, 0, NULL, &x), -EAGAIN);
	assert_int_equal(mp_rift_alloc_write(r, 1, 0, NULL, 1, &x), -EAGAIN);
	mp_rift_free(r, e[7]);
	assert_int_equal(r->peer[1].parts, 56);
	assert_int_equal(mp_rift_alloc_write(r, 1, 0, NULL, 3, &e[7]), 0);
	assert_int_equal(mp_rift_alloc_parts(r, 1, 0, NULL, 6, &x), -EAGAIN);
	assert_int_equal(mp_rift_alloc_parts(r, 1, 0, NULL, 5, &x), 0);
	mp_rift_free(r, x);

	/* e[7]: 3000 bytes in parts of 1468, answered once */
	x = e[7];
	x->op = MP_ETH_OP_WRITE_REQ;
	x->offset = 0x80000;
	x->len = 3000;
	x->stride = 1468;
	x->nonce = 0xfeed;
	memset(&w, 0, sizeof(w));
	w.op = MP_ETH_OP_WRITE_REQ;
	w.src = 0;
	w.dst = 1;
	w.sn = x->sn;
	w.tag = x->tag;
	w.offset = x->offset;
	w.len = x->len;
	w.stride = 1468;
	w.bind = x->nonce;
	assert_int_equal(mp_frame_write_part(&w, 2, &p), 0);
	assert_int_equal(mp_frame_reply(&p, 0, &a), 0);
	assert_int_equal(mp_rift_match_response(r, &a, &m), 0);
	assert_ptr_equal(m, x);
	/* under a key it must carry the nonce */
	a.flags |= MP_ETH_F_AUTH;
	a.bind++;
	assert_int_equal(mp_rift_match_response(r, &a, &m), -EKEYREJECTED);
	/* an answer for one part's range is not the write's */
	assert_int_equal(mp_frame_reply(&p, 0, &a), 0);
	a.len = 1468;
	assert_int_equal(mp_rift_match_response(r, &a, &m), -EBADMSG);
	assert_int_equal(mp_rift_part(x, 0), 1);
	assert_int_equal(mp_rift_part(x, 0), -EALREADY);
	assert_int_equal(mp_rift_part(x, 1), -EINVAL);

	for (i = 0; i < 8; i++)
		mp_rift_free(r, e[i]);
	assert_int_equal(r->peer[1].parts, 0);
	assert_int_equal(r->nr_busy, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_base_1024),
		cmocka_unit_test(test_alloc_sn_per_peer),
		cmocka_unit_test(test_exhaustion),
		cmocka_unit_test(test_window_limit),
		cmocka_unit_test(test_wraparound),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_write_parts),
		cmocka_unit_test(test_backoff_and_failure),
		cmocka_unit_test(test_rtt_estimator),
		cmocka_unit_test(test_window_shrinks_on_slow_peer),
		cmocka_unit_test(test_which_copy),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_poll_many),
		cmocka_unit_test(test_unreachable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
