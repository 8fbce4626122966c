// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kernel/common/mp_disc.c, the discovery decisions the
 * kernel runs: a few devices exchange the frames mp_disc asks for (passed
 * by hand, so every loss is chosen) and the tests check the rounds, the
 * pool each device forms and what is refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mp_disc.h"
#include "util/util.h"

#define MS		1000000ULL
#define MiB		(1024ULL * 1024)
#define NDEV		5
#define SLOTS		(2 * MP_PAMT_MAX_DEVS)

struct tdev {
	struct mp_disc d;
	struct mp_dmember heard[SLOTS], pool[MP_PAMT_MAX_DEVS];
	struct mp_dmember out[SLOTS], proxy[MP_PAMT_MAX_DEVS];
	u32 hash[2 * SLOTS];
	struct mp_pamt t;
	int id;			/* device id in the formed pool */
	bool formed;
};

static struct tdev dev[NDEV];
static bool link_down[NDEV];	/* frames from and to it are lost */
static bool beat_lost[NDEV];	/* its heartbeats are lost */
static bool ctrl_lost[NDEV];	/* every control frame from and to it is lost */
static bool data_flows[NDEV];	/* the others take its data frames each tick */
static u64 now;
static unsigned int nr_proxy_sent, nr_probe_sent;

static const struct mp_disc_params par = {
	.interval = 200 * MS, .window = 1000 * MS, .quiet = 600 * MS,
	.max = 10000 * MS, .hb_interval = 500 * MS, .hb_timeout = 3000 * MS,
	.proxy_delay = 400 * MS,
};

static struct mp_dmember member(unsigned int i, u64 chip)
{
	struct mp_dmember m = {
		.chip_id = chip, .capacity = (1 + i % 2) * 256 * MiB,
		.mac = { 0x52, 0x54, 0, 0x6d, 0x70, (u8)(i + 1) },
		.mtu = 1500,
	};
	return m;
}

static void boot(unsigned int i, u64 chip)
{
	struct mp_dmember self = member(i, chip);

	memset(&dev[i], 0, sizeof(dev[i]));
	assert_int_equal(mp_disc_init(&dev[i].d, &par, &self, dev[i].heard,
				      SLOTS, dev[i].hash, 2 * SLOTS,
				      dev[i].pool, MP_PAMT_MAX_DEVS, now), 0);
}

static void deliver(unsigned int from, int to, u8 op, u32 how,
		    const struct mp_dmember *who, u32 round, u16 count);

/* Every frame between devices is lost (each is alone on its link). */
static bool isolated;

/* The header's offset of the heartbeats tick() is sending (their view). */
static u64 hb_view;

static void rcv(unsigned int i, unsigned int from, u32 how, u8 op,
		const struct mp_discover *p, u32 round)
{
	struct mp_disc_tx tx = { 0 };

	/* a device not booted (a stranger of a test) hears nothing */
	if (link_down[i] || link_down[from] || isolated ||
	    ctrl_lost[i] || ctrl_lost[from] || !dev[i].d.self.chip_id)
		return;
	assert_int_equal(mp_disc_rcv(&dev[i].d, op, dev[from].d.self.mac,
				     how, how & MP_DISC_RX_HB ? hb_view : 0,
				     round, p, now, &tx), 0);
	if (tx.reply)
		deliver(i, (int)from, MP_ETH_OP_DISCOVER_ACK, 0, &tx.self,
			tx.round, tx.dev_count);
}

/*
 * Send a frame to device @to (< 0: broadcast); @how: MP_DISC_RX_HB marks
 * a heartbeat. A heartbeat is one when marked, or broadcast about its
 * sender (CONFLICT).
 */
static void deliver(unsigned int from, int to, u8 op, u32 how,
		    const struct mp_dmember *who, u32 round, u16 count)
{
	struct mp_discover p;
	unsigned int i;
	bool beat = op == MP_ETH_OP_DISCOVER_ACK &&
		    (how || (to < 0 && who->chip_id == dev[from].d.self.chip_id));

	if (beat && beat_lost[from])
		return;
	mp_disc_payload(who, round, count, &p);
	if (to >= 0) {
		rcv((unsigned int)to, from, how, op, &p, round);
		return;
	}
	for (i = 0; i < NDEV; i++)
		if (i != from && dev[i].d.self.chip_id)
			rcv(i, from, how | MP_DISC_RX_BCAST, op, &p, round);
}

static unsigned int nr_hb_sent;

/* The device of a simulated MAC (boot() numbers them from 1). */
static int mac_dev(const u8 *mac)
{
	return mac[5] - 1;
}

static void tick(unsigned int i)
{
	struct tdev *t = &dev[i];
	struct mp_disc_tx tx = { 0 };
	u32 k, lost;
	int self;

	mp_disc_tick(&t->d, now, t->out, SLOTS, t->proxy, MP_PAMT_MAX_DEVS,
		     &tx);
	if (tx.close)
		t->formed = false;
	if (tx.send)
		deliver(i, -1, tx.op, 0, &tx.self, tx.round, tx.dev_count);
	hb_view = tx.view;
	for (k = 0; k < tx.nr_hb; k++, nr_hb_sent++)
		deliver(i, mac_dev(tx.hb_mac[k]), tx.op, MP_DISC_RX_HB,
			&tx.self, tx.round, tx.dev_count);
	hb_view = 0;
	for (k = 0; k < tx.nr_proxy; k++, nr_proxy_sent++)
		deliver(i, -1, MP_ETH_OP_DISCOVER_ACK, 0, &t->proxy[k],
			tx.round, tx.dev_count);
	for (k = 0; k < tx.nr_probe; k++, nr_probe_sent++)
		deliver(i, mac_dev(t->proxy[k].mac), MP_ETH_OP_DISCOVER, 0,
			&tx.self, tx.round, 1);
	if (!tx.finish)
		return;
	self = mp_disc_conclude(t->out, tx.nr_out, 128 * MiB, tx.round,
				t->d.self.chip_id, &t->t, &lost);
	if (self < 0) {
		mp_disc_conflict(&t->d, tx.round, now);
		return;
	}
	t->id = self;
	t->formed = mp_disc_commit(&t->d, t->out, tx.nr_out, tx.round, now);
}

/* Data frames of the devices in data_flows reach every other device. */
static void data_seen(void)
{
	unsigned int i, j;

	for (j = 0; j < NDEV; j++) {
		if (!data_flows[j] || link_down[j])
			continue;
		for (i = 0; i < NDEV; i++)
			if (i != j && dev[i].d.self.chip_id && !link_down[i])
				mp_disc_data_seen(&dev[i].d,
						  dev[j].d.self.chip_id,
						  dev[j].d.self.mac, now);
	}
}

/* Let @ms pass in 50 ms ticks (the kernel's), devices in order. */
static void run(unsigned int ms)
{
	unsigned int end = ms / 50, s, i;

	for (s = 0; s < end; s++) {
		now += 50 * MS;
		data_seen();
		for (i = 0; i < NDEV; i++)
			if (dev[i].d.self.chip_id && !link_down[i])
				tick(i);
	}
}

static void reset(void)
{
	memset(dev, 0, sizeof(dev));
	memset(link_down, 0, sizeof(link_down));
	memset(beat_lost, 0, sizeof(beat_lost));
	memset(ctrl_lost, 0, sizeof(ctrl_lost));
	memset(data_flows, 0, sizeof(data_flows));
	isolated = false;
	nr_hb_sent = 0;
	now = 1000 * MS;
	nr_proxy_sent = 0;
	nr_probe_sent = 0;
}

static void assert_same_pool(unsigned int n, u32 gen)
{
	unsigned int i;

	for (i = 0; i < NDEV; i++) {
		if (!dev[i].d.self.chip_id || link_down[i])
			continue;
		assert_true(dev[i].formed);
		assert_int_equal(dev[i].d.state, CMM_MP_POOL_RUNTIME);
		assert_int_equal(dev[i].t.nr_devs, n);
		assert_int_equal(dev[i].t.generation, gen);
		assert_true(mp_pamt_equal(&dev[i].t, &dev[0].t));
	}
}

/* Boot @n devices with chip ids 0x10, 0x20, ...; they form generation 1. */
static void form_pool(unsigned int n)
{
	unsigned int i;

	reset();
	for (i = 0; i < n; i++)
		boot(i, 0x10 * (i + 1));
	run(2000);
	assert_same_pool(n, 1);
}

static void test_init_rejects(void **state)
{
	struct mp_dmember self = member(0, 7), heard[4], pool[2];
	struct mp_disc_params bad = par;
	struct mp_disc d;
	u32 hash[8];

	assert_int_equal(mp_disc_init(&d, &par, &self, heard, 4, hash, 8,
				      pool, 2, 1), 0);
	assert_int_equal(d.state, CMM_MP_POOL_DISCOVERY);
	assert_int_equal(d.round, 1);
	assert_int_equal(d.nr_heard, 1);
	assert_int_equal(mp_disc_init(&d, &par, &self, heard, 4, hash, 6,
				      pool, 2, 1), -EINVAL);
	assert_int_equal(mp_disc_init(&d, &par, &self, heard, 4, hash, 4,
				      pool, 2, 1), -EINVAL);
	bad.hb_timeout = bad.hb_interval;
	assert_int_equal(mp_disc_init(&d, &bad, &self, heard, 4, hash, 8,
				      pool, 2, 1), -EINVAL);
	bad = par;
	bad.window = bad.interval - 1;
	assert_int_equal(mp_disc_init(&d, &bad, &self, heard, 4, hash, 8,
				      pool, 2, 1), -EINVAL);
	self.chip_id = 0;
	assert_int_equal(mp_disc_init(&d, &par, &self, heard, 4, hash, 8,
				      pool, 2, 1), -EINVAL);
}

/* Three devices form one pool: ids are chip id ranks, one PAMT. */
static void test_form(void **state)
{
	reset();
	boot(0, 0x30);
	boot(1, 0x10);
	boot(2, 0x20);
	run(900);
	assert_false(dev[0].formed);	/* the window is not over */
	run(1000);
	assert_same_pool(3, 1);
	assert_int_equal(dev[0].id, 2);
	assert_int_equal(dev[1].id, 0);
	assert_int_equal(dev[2].id, 1);
	/* chips 0x10, 0x20, 0x30: 512 + 256 + 256 MiB, segments 0-3, 4-5, 6-7 */
	assert_int_equal(dev[0].t.dev[1].first_seg, 4);
	assert_int_equal(dev[0].t.dev[2].first_seg, 6);
	assert_int_equal(dev[0].t.nr_segs, 8);
	/* heartbeats keep it: no new round for a long time */
	run(20000);
	assert_same_pool(3, 1);
}

/* Untrusted frames change nothing. */
static void test_rcv_rejects(void **state)
{
	struct mp_dmember other = member(1, 0x10), b = other, me;
	struct mp_disc_tx tx = { 0 };
	struct mp_discover p;
	struct mp_disc *d;

	reset();
	boot(0, 0x30);
	d = &dev[0].d;
	me = d->self;
	mp_disc_payload(&other, 1, 1, &p);
	assert_int_equal(mp_disc_rcv(d, MP_ETH_OP_DISCOVER, other.mac, true, 0,
				     0, &p, now, &tx), -EINVAL);
	assert_int_equal(mp_disc_rcv(d, MP_ETH_OP_DISCOVER, other.mac, true, 0,
				     MP_DISC_MAX_ROUND + 1, &p, now, &tx),
			 -EINVAL);
	assert_int_equal(mp_disc_rcv(d, MP_ETH_OP_READ_REQ, other.mac, true, 0,
				     1, &p, now, &tx), -EINVAL);
	/* our own MAC as source, or in the payload */
	assert_int_equal(mp_disc_rcv(d, MP_ETH_OP_DISCOVER, me.mac, true, 0, 1,
				     &p, now, &tx), -EINVAL);
	mp_disc_payload(&me, 1, 1, &p);
	assert_int_equal(mp_disc_rcv(d, MP_ETH_OP_DISCOVER, other.mac, true, 0,
				     1, &p, now, &tx), -EINVAL);
	/* speaking for someone else: only as a broadcast DISCOVER_ACK */
	other = member(2, 0x20);
	mp_disc_payload(&other, 1, 1, &p);
	assert_int_equal(mp_disc_rcv(d, MP_ETH_OP_DISCOVER, b.mac, true, 0, 1,
				     &p, now, &tx), -EINVAL);
	assert_int_equal(mp_disc_rcv(d, MP_ETH_OP_DISCOVER_ACK, b.mac, false, 0,
				     1, &p, now, &tx), -EINVAL);
	assert_int_equal(d->nr_heard, 1);
	assert_int_equal(d->round, 1);
	assert_false(tx.kick || tx.reply);
}

/* A higher round is joined; an older one is answered. */
static void test_rounds(void **state)
{
	struct mp_dmember a = member(1, 0x10);
	struct mp_disc_tx tx = { 0 };
	struct mp_discover p;
	struct mp_disc *d;

	reset();
	boot(0, 0x30);
	d = &dev[0].d;
	mp_disc_payload(&a, 7, 1, &p);
	assert_int_equal(mp_disc_rcv(d, MP_ETH_OP_DISCOVER, a.mac, true, 0, 7,
				     &p, now, &tx), 0);
	assert_true(tx.kick);
	assert_int_equal(d->round, 7);
	assert_int_equal(d->nr_heard, 2);
	memset(&tx, 0, sizeof(tx));
	mp_disc_payload(&a, 3, 1, &p);
	assert_int_equal(mp_disc_rcv(d, MP_ETH_OP_DISCOVER, a.mac, true, 0, 3,
				     &p, now, &tx), 0);
	assert_true(tx.reply);
	assert_int_equal(tx.round, 7);
	assert_int_equal(tx.dev_count, 2);
}

/* Serial-number order on the ring of rounds 1..MP_DISC_MAX_ROUND. */
static void test_round_ring(void **state)
{
	const u32 max = MP_DISC_MAX_ROUND, half = MP_DISC_MAX_ROUND / 2;

	assert_int_equal(mp_disc_next_round(1), 2);
	assert_int_equal(mp_disc_next_round(max), 1);
	assert_int_equal(mp_disc_round_cmp(5, 5), 0);
	assert_int_equal(mp_disc_round_cmp(6, 5), 1);
	assert_int_equal(mp_disc_round_cmp(5, 6), -1);
	assert_int_equal(mp_disc_round_cmp(1, max), 1);
	assert_int_equal(mp_disc_round_cmp(max, 1), -1);
	assert_int_equal(mp_disc_round_cmp(1 + half, 1), 1);
	assert_int_equal(mp_disc_round_cmp(2 + half, 1), -1);
	assert_int_equal(mp_disc_round_cmp(max, max - half), 1);
}

/*
 * The three live devices formed one pool, at most @n rounds after @base
 * on the ring of rounds. A stranger that joined a round and fell silent
 * costs a round or two more.
 */
static void assert_formed_after(u32 base, u32 n)
{
	u32 r = dev[0].d.round, ahead;
	unsigned int i;

	ahead = r >= base ? r - base : r + MP_DISC_MAX_ROUND - base;
	assert_in_range(ahead, 0, n);
	for (i = 0; i < 3; i++) {
		assert_true(dev[i].formed);
		assert_int_equal(dev[i].d.round, r);
		assert_int_equal(dev[i].t.generation, r);
		assert_true(mp_pamt_equal(&dev[i].t, &dev[0].t));
	}
}

/* A stranger's DISCOVER to device 0 (no pool key) claiming round @r. */
static void forge_round(u32 r)
{
	struct mp_dmember x = member(4, 0x50);
	struct mp_disc_tx tx = { 0 };
	struct mp_discover p;

	mp_disc_payload(&x, r, 1, &p);
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER, x.mac,
				     true, 0, r, &p, now, &tx), 0);
	assert_int_equal(dev[0].d.round, r);
}

/*
 * Forged DISCOVERs pull a formed pool half the ring ahead, then to the
 * largest round; the devices go on forming pools in the rounds after it,
 * 1, 2, ... (fuzz_disc found the round stuck past the largest one when
 * rounds only counted up).
 */
static void test_forged_rounds(void **state)
{
	reset();
	boot(0, 0x30);
	boot(1, 0x10);
	boot(2, 0x20);
	run(2000);
	assert_same_pool(3, 1);
	forge_round(1 + MP_DISC_MAX_ROUND / 2);
	run(6000);
	assert_formed_after(1 + MP_DISC_MAX_ROUND / 2, 3);
	forge_round(MP_DISC_MAX_ROUND);
	run(12000);
	assert_formed_after(MP_DISC_MAX_ROUND, 4);
	assert_in_range(dev[0].d.round, 1, 3);
}

/*
 * A member goes silent: after hb_timeout a new round forms a pool that
 * keeps it as a lost (invalid) entry; a new device learns it by proxy and
 * computes the same map; the lost one comes back.
 */
static void test_lost_and_proxy(void **state)
{
	unsigned int i;

	form_pool(4);
	link_down[1] = true;
	run(2400);
	assert_int_equal(dev[0].d.round, 1);
	run(700);
	assert_int_equal(dev[0].d.state, CMM_MP_POOL_DISCOVERY);
	assert_int_equal(dev[0].d.round, 2);
	/* a new device joins while the round runs */
	boot(4, 0x05);
	run(3000);
	assert_same_pool(5, dev[0].d.round);
	assert_false(dev[4].t.dev[2].valid);	/* chip 0x20 lost */
	assert_true(dev[4].t.dev[0].valid);	/* the newcomer, 0x05 */
	assert_true(nr_proxy_sent > 0);
	/* only one device speaks for the lost member each interval */
	assert_true(nr_proxy_sent <= 10);
	/* it comes back (rebooted): a new round makes it a member again */
	link_down[1] = false;
	boot(1, 0x20);
	run(4000);
	assert_same_pool(5, dev[0].d.round);
	for (i = 0; i < 5; i++)
		assert_true(dev[0].t.dev[i].valid);
}

/*
 * A member restarts faster than hb_timeout notices: back in round 1, the
 * pool's own round, it must not slip into the pool it left without the
 * pool's sequence state. The first heartbeat it hears makes it start a
 * new round; every member joins it: a new generation for all.
 */
static void test_fast_restart(void **state)
{
	form_pool(3);
	assert_false(dev[0].d.fresh);
	boot(1, 0x20);
	assert_true(dev[1].d.fresh);
	run(3000);
	assert_same_pool(3, 2);
	/* one round more, not one per heartbeat heard */
	run(3000);
	assert_same_pool(3, 2);
}

/*
 * The same after a restart in which the device heard nobody for its whole
 * first round (its frames refused, say, until its pool key was set): it
 * formed a pool alone and is no longer fresh. A heartbeat of a newer
 * round must still not be joined (that pool counts it as a member), but
 * passed: it starts the round after it. A DISCOVER of a newer round, a
 * round in progress, is joined as before.
 */
static void test_heartbeat_newer_round(void **state)
{
	struct mp_disc_tx tx = { 0 };
	struct mp_discover p;

	reset();
	boot(0, 0x10);
	run(2000);
	assert_same_pool(1, 1);
	assert_false(dev[0].d.fresh);
	/* a device of another pool, as boot() would make it */
	p = (struct mp_discover){ .chip_id = 0x20, .capacity = 256 * MiB,
				  .mac = { 0x52, 0x54, 0, 0x6d, 0x70, 2 },
				  .dev_count = 2, .gen = 5, .mtu = 1500 };
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER_ACK, p.mac,
				     true, 0, 5, &p, now, &tx), 0);
	assert_true(tx.kick);
	assert_int_equal(dev[0].d.state, CMM_MP_POOL_DISCOVERY);
	assert_int_equal(dev[0].d.round, 6);
	/* a round in progress (DISCOVER) of a newer round: joined */
	memset(&tx, 0, sizeof(tx));
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER, p.mac,
				     true, 0, 9, &p, now, &tx), 0);
	assert_int_equal(dev[0].d.round, 9);
	/* an answer (unicast) or a proxy report of a newer round: joined */
	memset(&tx, 0, sizeof(tx));
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER_ACK, p.mac,
				     false, 0, 11, &p, now, &tx), 0);
	assert_int_equal(dev[0].d.round, 11);
}

/*
 * Devices that powered on apart share their first round but conclude it
 * apart: a heartbeat of that round from a device heard discovering in it
 * is recorded, not a reason for a second round (which every large pool
 * paid once the restart rule above came in). One from a device never
 * heard discovering is passed as after a restart.
 */
static void test_heartbeat_shared_round(void **state)
{
	struct mp_disc_tx tx = { 0 };
	struct mp_discover p;
	u32 round;

	reset();
	boot(0, 0x10);
	assert_true(dev[0].d.fresh);
	round = dev[0].d.round;
	p = (struct mp_discover){ .chip_id = 0x20, .capacity = 256 * MiB,
				  .mac = { 0x52, 0x54, 0, 0x6d, 0x70, 2 },
				  .dev_count = 2, .gen = round, .mtu = 1500 };
	/* it discovers in our round, then concludes it first */
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER, p.mac,
				     true, 0, round, &p, now, &tx), 0);
	memset(&tx, 0, sizeof(tx));
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER_ACK, p.mac,
				     true, 0, round, &p, now, &tx), 0);
	assert_false(tx.kick);
	assert_int_equal(dev[0].d.state, CMM_MP_POOL_DISCOVERY);
	assert_int_equal(dev[0].d.round, round);
	assert_int_equal(mp_disc_count(&dev[0].d), 2);

	/* a probe (unicast DISCOVER) is no evidence of a shared round */
	p.mac[5] = 3;
	p.chip_id = 0x30;
	memset(&tx, 0, sizeof(tx));
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER, p.mac,
				     false, 0, round, &p, now, &tx), 0);
	memset(&tx, 0, sizeof(tx));
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER_ACK, p.mac,
				     true, 0, round, &p, now, &tx), 0);
	assert_true(tx.kick);
	assert_int_equal(dev[0].d.round, mp_disc_next_round(round));
}

/* Two devices with one chip id: CONFLICT everywhere, then recovery. */
static void test_duplicate(void **state)
{
	unsigned int i;

	reset();
	boot(0, 0x10);
	boot(1, 0x20);
	boot(2, 0x10);
	run(2000);
	for (i = 0; i < 3; i++) {
		assert_int_equal(dev[i].d.state, CMM_MP_POOL_CONFLICT);
		assert_false(dev[i].formed);
	}
	/* the impostor leaves: its silence starts a round without it */
	link_down[2] = true;
	run(5000);
	assert_int_equal(dev[0].d.state, CMM_MP_POOL_RUNTIME);
	assert_int_equal(dev[0].t.nr_devs, 2);
	assert_true(mp_pamt_equal(&dev[0].t, &dev[1].t));
}

/* A heartbeat that counts other members starts a new round. */
static void test_count_mismatch(void **state)
{
	struct mp_disc_tx tx = { 0 };
	struct mp_discover p;
	u32 round;

	reset();
	boot(0, 0x10);
	boot(1, 0x20);
	run(2000);
	assert_same_pool(2, 1);
	round = dev[0].d.round;
	/* a DISCOVER of our round that counts as many as we do: no reply */
	mp_disc_payload(&dev[1].d.self, round, 2, &p);
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER,
				     dev[1].d.self.mac, true, 0, round, &p, now,
				     &tx), 0);
	assert_false(tx.reply);
	/* one that counts fewer is told we are here */
	mp_disc_payload(&dev[1].d.self, round, 1, &p);
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER,
				     dev[1].d.self.mac, true, 0, round, &p, now,
				     &tx), 0);
	assert_true(tx.reply);
	assert_int_equal(dev[0].d.state, CMM_MP_POOL_RUNTIME);
	memset(&tx, 0, sizeof(tx));
	mp_disc_payload(&dev[1].d.self, round, 3, &p);
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER_ACK,
				     dev[1].d.self.mac, true, 0, round, &p, now,
				     &tx), 0);
	assert_true(tx.kick);
	assert_int_equal(dev[0].d.state, CMM_MP_POOL_DISCOVERY);
	assert_int_equal(dev[0].d.round, round + 1);
	run(2000);
	assert_same_pool(2, round + 1);
}

/*
 * A member whose heartbeats are all lost but that answers when asked
 * directly is not lost: silent for half the timeout, it is probed.
 */
static void test_probe(void **state)
{
	unsigned int i;

	reset();
	for (i = 0; i < 3; i++)
		boot(i, 0x10 * (i + 1));
	run(2000);
	assert_same_pool(3, 1);
	beat_lost[1] = true;
	run(10000);
	assert_same_pool(3, 1);
	assert_true(nr_probe_sent > 0);
	/* once it is heard again, the probes stop */
	beat_lost[1] = false;
	run(2000);
	nr_probe_sent = 0;
	run(5000);
	assert_int_equal(nr_probe_sent, 0);
	/* really gone: probes go unanswered, a new round after hb_timeout */
	link_down[1] = true;
	run(3500);
	assert_true(nr_probe_sent > 0);
	assert_int_equal(dev[0].d.round, 2);
	run(3000);
	assert_same_pool(3, 2);
	assert_false(dev[0].t.dev[1].valid);
}

/*
 * A member none of whose control frames get through (heartbeats, probes
 * and their answers: a port that drops them under load) while its data
 * frames do is not lost; once its data stops too, it is, after
 * hb_timeout. What mp_disc_data_seen() is told about a member it does
 * not hold, a chip id with another member's MAC, itself, one lost, or at
 * an earlier time, changes nothing.
 */
static void test_data_alive(void **state)
{
	struct mp_dmember stranger = member(4, 0x99);
	u64 seen;

	form_pool(3);
	ctrl_lost[1] = true;
	memset(data_flows, true, 3 * sizeof(data_flows[0]));
	run(10000);
	assert_same_pool(3, 1);
	assert_true(nr_probe_sent == 0);
	/* an older time, a stranger, a mismatched MAC, ourselves: nothing */
	seen = dev[0].d.pool[1].last_seen;
	assert_int_equal(seen, now);
	mp_disc_data_seen(&dev[0].d, dev[1].d.self.chip_id,
			  dev[1].d.self.mac, now - 1000 * MS);
	assert_int_equal(dev[0].d.pool[1].last_seen, seen);
	mp_disc_data_seen(&dev[0].d, stranger.chip_id, stranger.mac, now);
	mp_disc_data_seen(&dev[0].d, dev[1].d.self.chip_id,
			  dev[2].d.self.mac, now + MS);
	assert_int_equal(dev[0].d.pool[1].last_seen, seen);
	seen = dev[0].d.pool[0].last_seen;
	mp_disc_data_seen(&dev[0].d, dev[0].d.self.chip_id,
			  dev[0].d.self.mac, now + MS);
	assert_int_equal(dev[0].d.pool[0].last_seen, seen);
	/* its data stops as well: probed, then lost */
	data_flows[1] = false;
	run(1500);
	assert_int_equal(dev[0].d.round, 1);
	run(2000);
	assert_true(nr_probe_sent > 0);
	assert_true(dev[0].d.round > 1);
	run(3000);
	assert_true(dev[0].formed);
	assert_false(dev[0].t.dev[1].valid);
	assert_true(dev[0].t.dev[2].valid);
	/* a lost member's data (a frame of before) does not bring it back */
	seen = dev[0].d.pool[1].last_seen;
	mp_disc_data_seen(&dev[0].d, dev[1].d.self.chip_id,
			  dev[1].d.self.mac, now + MS);
	assert_int_equal(dev[0].d.pool[1].last_seen, seen);
}

/* Powers of two below @m: the heartbeats a member of @m live ones sends. */
static u32 fanout(u32 m)
{
	u32 k = 0, o;

	for (o = 1; o < m; o *= 2)
		k++;
	return k;
}

/*
 * The ranks of pools up to 1024 devices, some of them lost: every member
 * sends ceil(log2 M) heartbeats and watches as many members, exactly
 * those that send it theirs; lost members and ourselves are in neither
 * set, and the member right behind us is always watched (the ring that
 * keeps every member watched).
 */
static void test_ranks(void **state)
{
	static struct mp_dmember v[1024], heard[2048], pool[1024];
	static u32 hash[4096];
	static u8 to[1024][1024];	/* to[a][b]: a beats to b */
	static const u32 sizes[] = { 1, 2, 3, 5, 16, 17, 100, 1000, 1024 };
	struct mp_disc d;
	u32 z, n, j, k, live, nlost;

	for (z = 0; z < ARRAY_SIZE(sizes); z++) {
		n = sizes[z];
		memset(to, 0, sizeof(to));
		for (j = 0, nlost = 0; j < n; j++) {
			v[j] = member(j, 0x100 + 0x10 * (u64)j);
			v[j].mac[4] = (u8)(j >> 8);
			v[j].mac[5] = (u8)j;
			/* every 7th lost, never all */
			v[j].lost = n > 2 && j % 7 == 3;
			nlost += v[j].lost;
		}
		live = n - nlost;
		for (j = 0; j < n; j++) {
			if (v[j].lost)
				continue;
			assert_int_equal(mp_disc_init(&d, &par, &v[j], heard, 2048,
						      hash, 4096, pool, 1024,
						      now), 0);
			assert_true(mp_disc_commit(&d, v, n, 1, now));
			assert_int_equal(d.nr_live, live);
			assert_int_equal(d.nr_to, fanout(live));
			assert_int_equal(d.nr_from, fanout(live));
			for (k = 0; k < d.nr_to; k++) {
				assert_false(v[d.hb_to[k]].lost);
				assert_int_not_equal(d.hb_to[k], j);
				to[j][d.hb_to[k]] |= 1;
			}
			for (k = 0; k < d.nr_from; k++) {
				assert_false(v[d.hb_from[k]].lost);
				assert_int_not_equal(d.hb_from[k], j);
				to[d.hb_from[k]][j] |= 2;
			}
		}
		/* what one sends is exactly what the other watches */
		for (j = 0; j < n; j++)
			for (k = 0; k < n; k++)
				assert_true(to[j][k] == 0 || to[j][k] == 3);
		/* the next live member watches each live one */
		for (j = 0; live > 1 && j < n; j++) {
			if (v[j].lost)
				continue;
			for (k = (j + 1) % n; v[k].lost; k = (k + 1) % n)
				;
			assert_int_equal(to[j][k], 3);
		}
	}
}

/*
 * A formed pool's heartbeats go along the ranks, unicast and marked: 5
 * members send 3 each per interval (offsets 1, 2, 4), not 5 broadcasts
 * of 4 deliveries each; a mark on anything but a DISCOVER_ACK about its
 * sender is refused.
 */
static void test_heartbeat_ranks(void **state)
{
	struct mp_disc_tx tx = { 0 };
	struct mp_discover p;
	u32 round;

	form_pool(5);
	nr_hb_sent = 0;
	run(5000);		/* 10 heartbeat intervals */
	assert_same_pool(5, 1);
	assert_int_equal(nr_hb_sent, 10 * 5 * 3);
	round = dev[0].d.round;
	mp_disc_payload(&dev[1].d.self, round, 5, &p);
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER,
				     dev[1].d.self.mac, MP_DISC_RX_HB, 0, round,
				     &p, now, &tx), -EINVAL);
	/* a proxy report (another's payload) marked a heartbeat */
	mp_disc_payload(&dev[2].d.self, round, 5, &p);
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER_ACK,
				     dev[1].d.self.mac,
				     MP_DISC_RX_HB | MP_DISC_RX_BCAST, 0, round,
				     &p, now, &tx), -EINVAL);
	assert_int_equal(dev[0].d.state, CMM_MP_POOL_RUNTIME);
	/* the same count but another map (its digest): a new round */
	mp_disc_payload(&dev[1].d.self, round, 5, &p);
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER_ACK,
				     dev[1].d.self.mac, MP_DISC_RX_HB,
				     dev[0].d.view, round, &p, now, &tx), 0);
	assert_false(tx.kick);
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER_ACK,
				     dev[1].d.self.mac, MP_DISC_RX_HB,
				     dev[0].d.view + 1, round, &p, now, &tx), 0);
	assert_true(tx.kick);
	assert_int_equal(dev[0].d.round, round + 1);
	run(3000);
	assert_same_pool(5, round + 1);
	round++;
	memset(&tx, 0, sizeof(tx));
	/* a marked heartbeat that counts other members: a new round */
	mp_disc_payload(&dev[1].d.self, round, 4, &p);
	assert_int_equal(mp_disc_rcv(&dev[0].d, MP_ETH_OP_DISCOVER_ACK,
				     dev[1].d.self.mac, MP_DISC_RX_HB, 0, round,
				     &p, now, &tx), 0);
	assert_true(tx.kick);
	assert_int_equal(dev[0].d.round, round + 1);
	run(3000);
	assert_same_pool(5, round + 1);
}

/*
 * A member that fails is found by the members it sent heartbeats to, in
 * hb_timeout as before; the pool re-forms with it lost, and its watchers
 * move on to the next live ranks.
 */
static void test_ranks_lost(void **state)
{
	unsigned int i;

	form_pool(5);
	link_down[2] = true;
	run(3500);
	for (i = 0; i < NDEV; i++)
		if (i != 2)
			assert_int_equal(dev[i].d.round, 2);
	run(3000);
	assert_same_pool(5, 2);
	assert_false(dev[0].t.dev[2].valid);
	assert_int_equal(dev[0].d.nr_live, 4);
	assert_int_equal(dev[0].d.nr_to, 2);
	nr_hb_sent = 0;
	run(5000);
	assert_int_equal(nr_hb_sent, 10 * 4 * 2);
	assert_same_pool(5, 2);
}

/*
 * Devices whose first rounds heard nobody (their links came up late, or a
 * partition) each form a pool alone; ranked heartbeats go to members
 * only, so without rank 0's broadcast beacon they would stay apart for
 * good. Once frames flow, the pools merge into one within a few
 * heartbeat intervals, and the merged pool keeps its beacon rare.
 */
static void test_apart_pools_merge(void **state)
{
	unsigned int i;

	reset();
	isolated = true;
	for (i = 0; i < 3; i++)
		boot(i, 0x10 * (i + 1));
	run(2000);
	for (i = 0; i < 3; i++) {
		assert_true(dev[i].formed);
		assert_int_equal(dev[i].t.nr_devs, 1);
	}
	isolated = false;
	run(MP_DISC_BEACON_BEATS * 500 + 3000);
	assert_same_pool(3, dev[0].d.round);
	assert_true(dev[0].d.round > 1);
	/* one pool: rank 0's beacon starts no further round */
	i = dev[0].d.round;
	run(10 * MP_DISC_BEACON_BEATS * 500);
	assert_same_pool(3, i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_rejects),
		cmocka_unit_test(test_apart_pools_merge),
		cmocka_unit_test(test_form),
		cmocka_unit_test(test_rcv_rejects),
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_round_ring),
		cmocka_unit_test(test_forged_rounds),
		cmocka_unit_test(test_lost_and_proxy),
		cmocka_unit_test(test_fast_restart),
		cmocka_unit_test(test_heartbeat_newer_round),
		cmocka_unit_test(test_heartbeat_shared_round),
		cmocka_unit_test(test_duplicate),
		cmocka_unit_test(test_count_mismatch),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_data_alive),
		cmocka_unit_test(test_ranks),
		cmocka_unit_test(test_heartbeat_ranks),
		cmocka_unit_test(test_ranks_lost),
	};

	return cmocka_run_group_tests_name("disc", tests, NULL, NULL);
}
