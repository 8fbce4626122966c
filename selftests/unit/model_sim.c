// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated network of the mp_eth transport model tests: see
 * model_sim.h. Deterministic per seed: the rng is drawn in the same order
 * whatever the test does with the frames.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model_sim.h"

u64 sim_rnd(struct model_sim *s)
{
	/* xorshift64*: deterministic per seed. */
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 0x2545F4914F6CDD1DULL;
}

bool sim_chance(struct model_sim *s, unsigned int pct)
{
	return sim_rnd(s) % 100 < pct;
}

/* Strictly increasing per sender, as mp_eth's mpe_stamp(). */
u64 sim_stamp(struct model_sim *s, u64 *last)
{
	*last = s->now > *last ? s->now : *last + 1;
	return *last;
}

/* s zeroed by the caller: the RIFT and the window, fresh. */
void sim_init(struct model_sim *s, u64 seed, u16 start_sn,
	      unsigned int max_retries, u64 probe_interval,
	      unsigned int loss_pct, unsigned int dup_pct, u64 jitter)
{
	struct mp_rift_params p;

	s->rng = seed * 2 + 1;
	s->loss_pct = loss_pct;
	s->dup_pct = dup_pct;
	s->jitter = jitter;

	mp_rift_default_params(&p);
	p.rto_initial = 5 * MS;
	p.rto_min = 5 * MS;
	p.rto_max = 40 * MS;
	p.max_retries = max_retries;
	p.probe_interval = probe_interval;
	assert_int_equal(mp_rift_init(&s->rift, &p, s->ent, NENT, s->peer, 2,
				      start_sn), 0);
	mp_window_init(&s->win, 0);
	mp_window_reset(&s->win);
	/* The hole timeout must outlast every retransmission. */
	s->win.gap_timeout = mp_rift_fail_time(&p) + 100 * MS;
}

/* Frame buf[0..len) onto the network: lost, or one copy or two, late. */
void sim_send(struct model_sim *s, bool to_rsp, bool forged, u64 stamp,
	      const u8 *buf, u32 len)
{
	unsigned int copies = 1, i;
	struct sim_pkt *p;

	if (sim_chance(s, s->loss_pct))
		return;
	if (sim_chance(s, s->dup_pct))
		copies++;
	for (i = 0; i < copies && s->nq < MAXPKT; i++) {
		p = malloc(sizeof(*p) + len);
		assert_non_null(p);
		p->at = s->now + 50 * US + sim_rnd(s) % (s->jitter + 1);
		p->to_rsp = to_rsp;
		p->forged = forged;
		p->stamp = stamp;
		p->len = len;
		memcpy(p->data, buf, len);
		s->q[s->nq++] = p;
	}
}

static void sim_deliver(struct model_sim *s)
{
	unsigned int i = 0;
	struct sim_pkt *p;

	while (i < s->nq) {
		if (s->q[i]->at > s->now) {
			i++;
			continue;
		}
		p = s->q[i];
		s->q[i] = s->q[--s->nq];	/* also shuffles the order */
		if (p->to_rsp)
			model_responder_rx(p);
		else
			model_requester_rx(p);
		free(p);
	}
}

static void sim_timers(struct model_sim *s)
{
	struct mp_rift_entry *e;
	enum mp_rift_event ev;
	unsigned int pos = 0;

	while ((ev = mp_rift_poll(&s->rift, s->now, &pos, &e)) != MP_RIFT_IDLE) {
		if (ev == MP_RIFT_RETRANSMIT) {
			model_retransmit(e);
			continue;
		}
		model_timeout(e);
		s->finished++;
		mp_rift_free(&s->rift, e);
	}
}

/* Ticks of 100 us until all nreq requests have finished, within a bound. */
void sim_run(struct model_sim *s, unsigned int nreq)
{
	u64 limit = (u64)nreq * 100 * MS + 10000 * MS;

	while (s->finished < nreq) {
		model_issue();
		sim_deliver(s);
		sim_timers(s);
		s->now += 100 * US;
		assert_true(s->now < limit);
	}
	assert_int_equal(s->rift.nr_busy, 0);
}

/* Frees what is still on the wire. */
void sim_fini(struct model_sim *s)
{
	while (s->nq)
		free(s->q[--s->nq]);
}
