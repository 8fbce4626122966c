// SPDX-License-Identifier: GPL-2.0
/*
 * Smoke test of the simulator (tools/mpsim) for the unit stage: small
 * pools on a lossy switch run the kernel's discovery code and must all
 * form the same pool (PAMTs compared byte by byte), before and after
 * failures and joins, and after the failed devices come back; a
 * duplicate chip id must end in CONFLICT everywhere; the transport must
 * move verified data under loss; the same seed must give the same run.
 * `make sim` runs the big version.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sim.h"
#include "mp_disc.h"

static struct sim_disc_cfg disc_cfg(uint32_t nr, double loss, uint64_t seed)
{
	struct sim_disc_cfg c = {
		.nr = nr, .seed = seed, .loss = loss, .delay = 20 * SIM_US,
		.jitter = 10 * SIM_US, .boot_spread = 500 * SIM_MS,
		.hold = 5 * SIM_S, .limit = 60 * SIM_S,
	};
	return c;
}

static void check_phase(const struct sim_disc_phase *p, uint32_t members,
			uint32_t lost)
{
	assert_true(p->converged);
	assert_int_equal(p->members, members);
	assert_int_equal(p->lost, lost);
	/* a round takes its window (1 s) plus the quiet time at most */
	assert_true(p->time >= 1000 * SIM_MS);
	assert_true(p->time < 5 * SIM_S);
	assert_true(p->sent > 0);
}

static void test_disc_8(void **state)
{
	struct sim_disc_cfg c = disc_cfg(8, 0.01, 1);
	struct sim_disc_result r;

	c.fail = 1;
	c.join = 1;
	assert_int_equal(sim_disc_run(&c, &r), 0);
	check_phase(&r.boot, 8, 0);
	check_phase(&r.change, 9, 1);
	assert_true(r.agree);
	assert_int_equal(r.hold_rounds, 0);
	print_message("# n=8: boot %.0f ms, %.1f frames/device; change %.0f ms\n",
		      (double)r.boot.time / SIM_MS,
		      (double)r.boot.sent / 8, (double)r.change.time / SIM_MS);
}

static void test_disc_64(void **state)
{
	struct sim_disc_cfg c = disc_cfg(64, 0.02, 2);
	struct sim_disc_result r;

	c.fail = 2;
	c.join = 2;
	c.back = true;
	assert_int_equal(sim_disc_run(&c, &r), 0);
	check_phase(&r.boot, 64, 0);
	check_phase(&r.change, 66, 2);
	/* the failed ones reboot: the same 66 members, none lost */
	check_phase(&r.back, 66, 0);
	assert_true(r.back.generation > r.change.generation);
	assert_true(r.agree);
	assert_int_equal(r.hold_rounds, 0);
	/* one device reports each lost member, not all 62 */
	assert_true(r.change.kind[SIM_PROXY] < 2 * 10);
	/* a device sends a round's worth, not O(N) frames ... */
	assert_true(r.boot.sent - r.boot.kind[SIM_HEARTBEAT] < 64 * 12);
	/* ... and a formed pool's heartbeats go along the ranks: log2(66)
	 * = 7 per member and interval, each delivered once (not 65 times),
	 * but rank 0's beacon, a broadcast every MP_DISC_BEACON_BEATS
	 */
	assert_true(r.hold_pool_sent_milli <= 66 * 7 * 1000 * 11 / 10);
	assert_true(r.hold_pool_rcvd_milli <= r.hold_pool_sent_milli +
		    65 * 1000 / MP_DISC_BEACON_BEATS);
	assert_true(r.hold_pool_rcvd_milli >= 66 * 7 * 1000 * 9 / 10);
	print_message("# n=64: boot %.0f ms, %.1f frames/device, change %.0f ms, %llu proxies\n",
		      (double)r.boot.time / SIM_MS, (double)r.boot.sent / 64,
		      (double)r.change.time / SIM_MS,
		      (unsigned long long)r.change.kind[SIM_PROXY]);
}

static void test_disc_duplicate(void **state)
{
	struct sim_disc_cfg c = disc_cfg(8, 0.01, 3);
	struct sim_disc_result r;

	c.dup_chip = true;
	c.hold = 0;
	assert_int_equal(sim_disc_run(&c, &r), 0);
	assert_true(r.boot.converged);
	assert_true(r.conflict);
}

static void test_disc_reproducible(void **state)
{
	struct sim_disc_cfg c = disc_cfg(16, 0.05, 4);
	struct sim_disc_result a, b;

	assert_int_equal(sim_disc_run(&c, &a), 0);
	assert_int_equal(sim_disc_run(&c, &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	c.seed++;
	assert_int_equal(sim_disc_run(&c, &b), 0);
	assert_true(a.events != b.events || a.boot.time != b.boot.time);
	c.nr = 0;
	assert_int_equal(sim_disc_run(&c, &b), -EINVAL);
}

static void test_xport(void **state)
{
	struct sim_xport_cfg c = {
		.pairs = 2, .seed = 5, .loss = 0.05, .delay = 20 * SIM_US,
		.jitter = 10 * SIM_US, .rate = 10000000000ULL, .mtu = 1500,
		.bytes = 256 << 10, .rto = SIM_MS, .limit = 60 * SIM_S,
	};
	struct sim_xport_result r;

	assert_int_equal(sim_xport_run(&c, &r), 0);
	assert_true(r.verified);
	assert_int_equal(r.failed, 0);
	assert_true(r.retransmits > 0);
	assert_true(r.goodput > 0);
	print_message("# xport 5%% loss: %.1f MB/s, %llu retransmits, %llu duplicates\n",
		      r.goodput / 1e6, (unsigned long long)r.retransmits,
		      (unsigned long long)r.duplicates);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disc_8),
		cmocka_unit_test(test_disc_64),
		cmocka_unit_test(test_disc_duplicate),
		cmocka_unit_test(test_disc_reproducible),
		cmocka_unit_test(test_xport),
	};

	return cmocka_run_group_tests_name("mpsim", tests, NULL, NULL);
}
