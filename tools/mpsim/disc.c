// SPDX-License-Identifier: GPL-2.0
/*
 * mpsim: discovery at scale. N devices, each running mp_disc (the
 * kernel's decisions) with the kernel's default timing, power on within a
 * spread, find each other over the lossy switch and form a pool; then some
 * fail and some new ones join, and they form the next. Every frame is
 * encoded and decoded with mp_frame.c like the kernel's. Measured per
 * phase: the time until every live device has formed the same pool (their
 * PAMTs compared byte by byte), the rounds it took and the frames it cost.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_disc.h"
#include "mp_frame.h"
#include "mp_pamt.h"
#include "sim.h"

#define TICK		(50 * SIM_MS)		/* kernel: MPE_DISC_TICK_MS */
#define SETTLE		(2 * SIM_S)		/* agreement must last this */
#define SEG_SIZE	(128ULL << 20)
#define FRAME_LEN	(MP_ETH_HDR_LEN + MP_ETH_DISCOVER_LEN)
#define MAX_PAYLOAD	(1500 - MP_ETH_HDR_LEN)

enum { EV_FRAME, EV_TICK, EV_BOOT, EV_FAIL };

struct sdev {
	struct mp_disc d;
	struct mp_dmember self;
	struct mp_dmember *heard, *pool;
	u32 *hash;
	u32 max_heard;
	u32 hash_size;
	bool up;
	bool failed;		/* failed in the change phase */
	u32 tick_gen;		/* a kick moves the tick: older ones are void */
	u64 sent, rcvd, rounds;
	u64 mark_sent;		/* @sent at the start of the phase */
	u8 *map;		/* the formed pool's PAMT, serialized */
	size_t map_len;
};

struct sdisc {
	const struct sim_disc_cfg *cfg;
	struct sim_disc_result *res;
	struct mp_disc_params par;
	struct sim_heap heap;
	struct sim_net net;
	struct sim_rng rng;
	struct sdev *dev;
	u32 nr;			/* devices, the late joiners included */
	u64 now;
	u64 conv_at;		/* all live devices agree since then, or 0 */
	struct mp_pamt pamt;	/* scratch */
	struct mp_dmember *out;	/* scratch: a round's outcome */
	struct mp_dmember *proxy; /* scratch: reports and probes to send */
	u64 rounds, sent, rcvd;	/* totals, all devices */
	u64 kind[SIM_NR_KINDS];	/* frames sent by kind, all devices */
	u64 silent_at;		/* a device first found a member silent */
	u64 mark_kind[SIM_NR_KINDS];
};

static int sd_schedule(struct sdisc *s, u64 at, u32 kind, u32 dev, u32 arg)
{
	struct sim_ev e = { .at = at, .kind = kind, .dev = dev, .from = arg };

	return sim_heap_push(&s->heap, &e);
}

static void sd_put(u8 **p, u64 v, int bytes)
{
	while (bytes--)
		*(*p)++ = (u8)(v >> (8 * bytes));
}

/* The PAMT as bytes, big endian, every field: what "the same" means. */
static int sd_serialize(struct sdev *d, const struct mp_pamt *t)
{
	u8 *p;
	u32 i;

	free(d->map);
	d->map_len = 28 + (size_t)t->nr_devs * 39;
	d->map = malloc(d->map_len);
	if (!d->map)
		return -ENOMEM;
	p = d->map;
	sd_put(&p, t->generation, 4);
	sd_put(&p, t->nr_devs, 4);
	sd_put(&p, t->seg_size, 8);
	sd_put(&p, t->pool_size, 8);
	sd_put(&p, t->nr_segs, 4);
	for (i = 0; i < t->nr_devs; i++) {
		const struct mp_pamt_entry *e = &t->dev[i];

		sd_put(&p, e->valid, 1);
		sd_put(&p, e->chip_id, 8);
		sd_put(&p, e->nha, 8);
		sd_put(&p, e->size, 8);
		sd_put(&p, e->first_seg, 4);
		sd_put(&p, e->nr_segs, 4);
		memcpy(p, e->mac, 6);
		p += 6;
	}
	return 0;
}

static int sd_send(struct sdisc *s, u32 from, int to, u8 op, u16 flags,
		   u64 view, const struct mp_dmember *who, u32 round,
		   u16 count)
{
	int kind = op == MP_ETH_OP_DISCOVER ? (to >= 0 ? SIM_PROBE :
						       SIM_DISCOVER) :
		   flags & MP_ETH_F_HB ? SIM_HEARTBEAT :
		   to >= 0 ? SIM_REPLY :
		   who->chip_id != s->dev[from].self.chip_id ? SIM_PROXY :
		   SIM_HEARTBEAT;
	struct mp_frame f = {
		.op = op,
		.flags = flags,
		.offset = view,
		.src = MP_ETH_DEV_ANY,
		.dst = MP_ETH_DEV_ANY,
		.gen = round,
		.len = MP_ETH_DISCOVER_LEN,
	};
	struct mp_discover p;
	u8 buf[FRAME_LEN];

	mp_disc_payload(who, round, count, &p);
	if (mp_frame_encode(&f, MAX_PAYLOAD, buf, sizeof(buf)) < 0 ||
	    mp_discover_encode(&p, buf + MP_ETH_HDR_LEN,
			       MP_ETH_DISCOVER_LEN) < 0)
		return -EPROTO;
	s->dev[from].sent++;
	s->sent++;
	s->kind[kind]++;
	return sim_net_send(&s->net, s->now, from, to < 0 ? 0 : (u32)to,
			    to < 0, buf, sizeof(buf));
}

/* A device changed round: agreement (if any) is over. */
static void sd_round_moved(struct sdisc *s, struct sdev *d, u32 before)
{
	if (d->d.round == before)
		return;
	d->rounds++;
	s->rounds++;
	s->conv_at = 0;
	if (s->cfg->verbose)
		printf("# %8.3f s dev %ld round %u: %s\n",
		       (double)s->now / SIM_S, (long)(d - s->dev), d->d.round,
		       d->d.why);
}

/* Does every live device hold the same pool (or the same CONFLICT)? */
static bool sd_agree(struct sdisc *s)
{
	struct sdev *ref = NULL;
	u32 i;

	for (i = 0; i < s->nr; i++) {
		struct sdev *d = &s->dev[i];

		if (!d->up)
			continue;
		if (d->d.state == CMM_MP_POOL_DISCOVERY)
			return false;
		if (!ref) {
			ref = d;
			continue;
		}
		if (d->d.state != ref->d.state || d->d.round != ref->d.round)
			return false;
		if (d->d.state == CMM_MP_POOL_RUNTIME &&
		    (d->map_len != ref->map_len ||
		     memcmp(d->map, ref->map, d->map_len)))
			return false;
	}
	return ref;
}

static int sd_tick(struct sdisc *s, u32 i)
{
	struct sdev *d = &s->dev[i];
	struct mp_disc_tx tx = { 0 };
	u32 before = d->d.round, k, lost;
	int ret = 0, self;

	mp_disc_tick(&d->d, s->now, s->out, d->max_heard, s->proxy, s->nr,
		     &tx);
	if (tx.silent && !s->silent_at)
		s->silent_at = s->now;
	sd_round_moved(s, d, before);
	if (tx.send)
		ret = sd_send(s, i, -1, tx.op, 0, 0, &tx.self, tx.round,
			      tx.dev_count);
	for (k = 0; !ret && k < tx.nr_hb; k++)
		ret = sd_send(s, i, sim_mac_dev(tx.hb_mac[k], s->nr), tx.op,
			      MP_ETH_F_HB, tx.view, &tx.self, tx.round,
			      tx.dev_count);
	for (k = 0; !ret && k < tx.nr_proxy; k++)
		ret = sd_send(s, i, -1, MP_ETH_OP_DISCOVER_ACK, 0, 0,
			      &s->proxy[k], tx.round, tx.dev_count);
	for (k = 0; !ret && k < tx.nr_probe; k++)
		ret = sd_send(s, i, sim_mac_dev(s->proxy[k].mac, s->nr),
			      MP_ETH_OP_DISCOVER, 0, 0, &tx.self, tx.round, 1);
	if (ret || !tx.finish)
		goto next;
	self = mp_disc_conclude(s->out, tx.nr_out, SEG_SIZE, tx.round,
				d->self.chip_id, &s->pamt, &lost);
	if (self < 0) {
		mp_disc_conflict(&d->d, tx.round, s->now);
	} else if (mp_disc_commit(&d->d, s->out, tx.nr_out, tx.round,
				  s->now)) {
		ret = sd_serialize(d, &s->pamt);
		if (s->cfg->verbose)
			printf("# %8.3f s dev %u formed gen %u: %u devices, %u lost, id %d\n",
			       (double)s->now / SIM_S, i, tx.round,
			       s->pamt.nr_devs, lost, self);
	}
	if (!ret && !s->conv_at && sd_agree(s))
		s->conv_at = s->now;
next:
	if (ret)
		return ret;
	return sd_schedule(s, s->now + TICK, EV_TICK, i, d->tick_gen);
}

static int sd_deliver(struct sdisc *s, u32 i, const struct sim_ev *e,
		      const struct mp_frame *f, const struct mp_discover *p)
{
	struct sdev *d = &s->dev[i];
	struct mp_disc_tx tx = { 0 };
	u32 before = d->d.round;
	u8 src[6];
	int ret;

	d->rcvd++;
	s->rcvd++;
	sim_mac(e->from, src);
	if (mp_disc_rcv(&d->d, f->op, src,
			(e->bcast ? MP_DISC_RX_BCAST : 0) |
			(f->flags & MP_ETH_F_HB ? MP_DISC_RX_HB : 0),
			f->flags & MP_ETH_F_HB ? f->offset : 0,
			f->gen, p, s->now, &tx)) {
		s->res->dropped++;
		return 0;
	}
	sd_round_moved(s, d, before);
	if (tx.kick) {
		/* the kernel's mod_delayed_work(.., 0): the tick moves */
		ret = sd_schedule(s, s->now, EV_TICK, i, ++d->tick_gen);
		if (ret)
			return ret;
	}
	if (tx.reply)
		return sd_send(s, i, (int)e->from, MP_ETH_OP_DISCOVER_ACK, 0,
			       0, &tx.self, tx.round, tx.dev_count);
	return 0;
}

static int sd_frame(struct sdisc *s, const struct sim_ev *e)
{
	struct mp_discover p;
	struct mp_frame f;
	u32 i;
	int ret = 0;

	if (mp_frame_decode(e->data, e->len, MAX_PAYLOAD, &f) ||
	    !mp_frame_op_is_control(f.op) ||
	    mp_discover_decode(e->data + MP_ETH_HDR_LEN, f.len, &p))
		return -EPROTO;	/* we only send good frames */
	if (!e->bcast)
		return s->dev[e->dev].up ? sd_deliver(s, e->dev, e, &f, &p) : 0;
	for (i = 0; !ret && i < s->nr; i++)
		if (i != e->from && s->dev[i].up && !sim_net_lost(&s->net))
			ret = sd_deliver(s, i, e, &f, &p);
	return ret;
}

static int sd_boot(struct sdisc *s, u32 i)
{
	struct sdev *d = &s->dev[i];
	u32 n;

	for (n = 0; n < d->max_heard; n++)
		d->heard[n] = (struct mp_dmember){ 0 };
	if (mp_disc_init(&d->d, &s->par, &d->self, d->heard, d->max_heard,
			 d->hash, d->hash_size, d->pool, s->nr,
			 s->now))
		return -EINVAL;
	d->up = true;
	d->rounds++;
	s->rounds++;
	s->conv_at = 0;
	return sd_schedule(s, s->now, EV_TICK, i, ++d->tick_gen);
}

static int sd_step(struct sdisc *s, struct sim_ev *e)
{
	struct sdev *d = &s->dev[e->dev];
	int ret = 0;

	s->now = e->at;
	s->res->events++;
	switch (e->kind) {
	case EV_FRAME:
		ret = sd_frame(s, e);
		break;
	case EV_TICK:
		if (d->up && e->from == d->tick_gen)
			ret = sd_tick(s, e->dev);
		break;
	case EV_BOOT:
		ret = sd_boot(s, e->dev);
		break;
	case EV_FAIL:
		d->up = false;
		s->conv_at = 0;
		break;
	}
	free(e->data);
	return ret;
}

/* Run until every live device agrees for SETTLE, or until @until. */
static int sd_run_until_agreed(struct sdisc *s, u64 until)
{
	struct sim_ev e;
	int ret;

	while (sim_heap_pop(&s->heap, &e)) {
		if (e.at > until ||
		    (s->conv_at && e.at >= s->conv_at + SETTLE)) {
			ret = sim_heap_push(&s->heap, &e);
			if (ret)
				free(e.data);
			return ret;
		}
		ret = sd_step(s, &e);
		if (ret)
			return ret;
	}
	return 0;
}

static void sd_mark(struct sdisc *s, u64 *rounds, u64 *sent, u64 *rcvd)
{
	u32 i;

	for (i = 0; i < SIM_NR_KINDS; i++)
		s->mark_kind[i] = s->kind[i];
	for (i = 0; i < s->nr; i++)
		s->dev[i].mark_sent = s->dev[i].sent;
	s->silent_at = 0;
	*rounds = s->rounds;
	*sent = s->sent;
	*rcvd = s->rcvd;
}

static void sd_phase(struct sdisc *s, struct sim_disc_phase *ph, u64 start,
		     u64 rounds, u64 sent, u64 rcvd)
{
	struct sdev *ref = NULL;
	u32 i;

	ph->converged = s->conv_at != 0;
	ph->time = s->conv_at > start ? s->conv_at - start : 0;
	ph->rounds = s->rounds - rounds;
	ph->sent = s->sent - sent;
	ph->rcvd = s->rcvd - rcvd;
	ph->detect = s->silent_at > start ? s->silent_at - start : 0;
	for (i = 0; i < SIM_NR_KINDS; i++)
		ph->kind[i] = s->kind[i] - s->mark_kind[i];
	for (i = 0; i < s->nr; i++) {
		struct sdev *d = &s->dev[i];

		if (d->sent - d->mark_sent > ph->sent_max)
			ph->sent_max = d->sent - d->mark_sent;
		if (d->up && !ref)
			ref = d;
	}
	if (!ph->converged || !ref)
		return;
	ph->generation = ref->d.round;
	if (ref->d.state != CMM_MP_POOL_RUNTIME) {
		ph->members = ref->d.nr_heard;
		return;
	}
	ph->members = ref->d.nr_pool;
	for (i = 0; i < ref->d.nr_pool; i++)
		ph->lost += ref->d.pool[i].lost;
}

static int sd_alloc(struct sdisc *s)
{
	const struct sim_disc_cfg *c = s->cfg;
	u32 i;

	s->nr = c->nr + c->join;
	s->dev = calloc(s->nr, sizeof(*s->dev));
	s->out = calloc(2 * (size_t)s->nr, sizeof(*s->out));
	s->proxy = calloc(s->nr, sizeof(*s->proxy));
	if (!s->dev || !s->out || !s->proxy)
		return -ENOMEM;
	for (i = 0; i < s->nr; i++) {
		struct sdev *d = &s->dev[i];

		d->max_heard = 2 * s->nr;
		d->heard = calloc(d->max_heard, sizeof(*d->heard));
		for (d->hash_size = 1; d->hash_size < 2 * d->max_heard;)
			d->hash_size *= 2;
		d->hash = calloc(d->hash_size, sizeof(*d->hash));
		d->pool = calloc(s->nr, sizeof(*d->pool));
		if (!d->heard || !d->hash || !d->pool)
			return -ENOMEM;
		sim_mac(i, d->self.mac);
		d->self.chip_id = sim_rng_next(&s->rng) | 1;
		d->self.capacity = (1 + i % 4) * 2 * SEG_SIZE;
		d->self.mtu = 1500;
	}
	if (c->dup_chip && c->nr > 1)
		s->dev[c->nr - 1].self.chip_id = s->dev[0].self.chip_id;
	return 0;
}

static void sd_free(struct sdisc *s)
{
	u32 i;

	for (i = 0; s->dev && i < s->nr; i++) {
		free(s->dev[i].heard);
		free(s->dev[i].hash);
		free(s->dev[i].pool);
		free(s->dev[i].map);
	}
	free(s->dev);
	free(s->out);
	free(s->proxy);
	sim_heap_free(&s->heap);
	sim_net_free(&s->net);
}

/* Fail @fail live devices and power on the @join new ones, now. */
static int sd_change(struct sdisc *s)
{
	const struct sim_disc_cfg *c = s->cfg;
	u32 i, done = 0;
	int ret = 0;

	while (done < c->fail && done + 1 < c->nr) {
		i = (u32)(sim_rng_next(&s->rng) % c->nr);
		if (!s->dev[i].up)
			continue;
		s->dev[i].up = false;
		s->dev[i].failed = true;
		done++;
	}
	for (i = c->nr; !ret && i < s->nr; i++)
		ret = sd_schedule(s, s->now, EV_BOOT, i, 0);
	s->conv_at = 0;
	return ret;
}

/**
 * sim_disc_run() - one discovery run
 * @cfg: what to simulate
 * @res: what was measured (zeroed here)
 *
 * Return: 0 (whether or not it converged: see @res), -EINVAL for a bad
 * @cfg, -ENOMEM.
 */
int sim_disc_run(const struct sim_disc_cfg *cfg, struct sim_disc_result *res)
{
	struct sdisc *s;
	u64 last_boot = 0, start, r0, s0, x0, t;
	u32 i;
	int ret;

	*res = (struct sim_disc_result){ 0 };
	if (!cfg->nr || cfg->nr + cfg->join > MP_PAMT_MAX_DEVS ||
	    cfg->loss < 0 || cfg->loss >= 1 || cfg->fail >= cfg->nr)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->cfg = cfg;
	s->res = res;
	s->par = (struct mp_disc_params){
		.interval = 200 * SIM_MS,
		.window = cfg->window ? cfg->window : 1000 * SIM_MS,
		.quiet = 600 * SIM_MS,
		.max = 10000 * SIM_MS > cfg->window ? 10000 * SIM_MS :
		       cfg->window,
		.hb_interval = 500 * SIM_MS,
		.hb_timeout = cfg->hb_timeout ? cfg->hb_timeout : 3000 * SIM_MS,
		.proxy_delay = 400 * SIM_MS,
	};
	sim_rng_seed(&s->rng, cfg->seed);
	ret = sd_alloc(s);
	if (!ret)
		ret = sim_net_init(&s->net, s->nr, &s->heap, EV_FRAME,
				   cfg->seed ^ 0x5eed);
	if (ret)
		goto out;
	s->net.loss = cfg->loss;
	s->net.delay = cfg->delay;
	s->net.jitter = cfg->jitter;

	/* boot: everyone powers on within the spread */
	for (i = 0; !ret && i < cfg->nr; i++) {
		t = cfg->boot_spread ?
		    sim_rng_next(&s->rng) % cfg->boot_spread : 0;
		if (t > last_boot)
			last_boot = t;
		ret = sd_schedule(s, t, EV_BOOT, i, 0);
	}
	sd_mark(s, &r0, &s0, &x0);
	if (!ret)
		ret = sd_run_until_agreed(s, cfg->limit);
	if (ret)
		goto out;
	sd_phase(s, &res->boot, last_boot, r0, s0, x0);

	if (res->boot.converged && (cfg->fail || cfg->join)) {
		s->now = s->conv_at + SETTLE;
		start = s->now;
		sd_mark(s, &r0, &s0, &x0);
		ret = sd_change(s);
		if (!ret)
			ret = sd_run_until_agreed(s, start + cfg->limit);
		if (ret)
			goto out;
		sd_phase(s, &res->change, start, r0, s0, x0);
	}

	if (res->change.converged && cfg->fail && cfg->back) {
		/* the failed devices reboot: members again, none lost */
		s->now = s->conv_at + SETTLE;
		start = s->now;
		sd_mark(s, &r0, &s0, &x0);
		for (i = 0; !ret && i < s->nr; i++)
			if (s->dev[i].failed)
				ret = sd_schedule(s, s->now, EV_BOOT, i, 0);
		s->conv_at = 0;
		if (!ret)
			ret = sd_run_until_agreed(s, start + cfg->limit);
		if (ret)
			goto out;
		sd_phase(s, &res->back, start, r0, s0, x0);
	}

	if (s->conv_at && cfg->hold) {
		struct sim_ev e;
		u32 live = 0;

		start = s->conv_at + SETTLE;
		sd_mark(s, &r0, &s0, &x0);
		while (sim_heap_pop(&s->heap, &e)) {
			if (e.at > start + cfg->hold) {
				free(e.data);
				break;
			}
			ret = sd_step(s, &e);
			if (ret)
				goto out;
		}
		for (i = 0; i < s->nr; i++)
			live += s->dev[i].up;
		res->hold_rounds = s->rounds - r0;
		res->hold_sent_milli = (s->sent - s0) * 1000 * SIM_S /
				       cfg->hold / (live ? live : 1);
		/* pool-wide, per heartbeat interval */
		res->hold_pool_sent_milli = (s->sent - s0) * 1000 *
					    s->par.hb_interval / cfg->hold;
		res->hold_pool_rcvd_milli = (s->rcvd - x0) * 1000 *
					    s->par.hb_interval / cfg->hold;
	}
	res->agree = sd_agree(s);
	res->conflict = res->agree && cfg->dup_chip;
	for (i = 0; res->conflict && i < s->nr; i++)
		if (s->dev[i].up &&
		    s->dev[i].d.state != CMM_MP_POOL_CONFLICT)
			res->conflict = false;
out:
	sd_free(s);
	free(s);
	return ret;
}
