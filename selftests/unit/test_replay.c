// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the freshness of tagged frames (mp_replay.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mp_replay.h"

#define S		1000000000ULL	/* 1 s in ns */
#define T0		(1700000000ULL * S)	/* some wall-clock time */
#define W		MP_REPLAY_WINDOW

static const u8 mac_a[6] = { 0x52, 0x54, 0, 0x6d, 0x70, 1 };
static const u8 mac_b[6] = { 0x52, 0x54, 0, 0x6d, 0x70, 2 };

static void test_next_stamp(void **state)
{
	assert_true(mp_replay_next(0, T0) == T0);
	assert_true(mp_replay_next(T0, T0) == T0 + 1);
	/* the clock stepped back: stamps still increase */
	assert_true(mp_replay_next(T0 + 5 * S, T0) == T0 + 5 * S + 1);
}

static void test_fresh(void **state)
{
	assert_true(mp_replay_fresh(W, T0, T0));
	assert_true(mp_replay_fresh(W, T0 - W, T0));
	assert_false(mp_replay_fresh(W, T0 - W - 1, T0));
	assert_true(mp_replay_fresh(W, T0 + W, T0));	/* its clock is ahead */
	assert_false(mp_replay_fresh(W, T0 + W + 1, T0));
	assert_false(mp_replay_fresh(W, 0, T0));
	assert_false(mp_replay_fresh(W, ~0ULL, T0));
	assert_true(mp_replay_fresh(W, 0, W));		/* no underflow */
	assert_true(mp_replay_fresh(0, 0, T0));		/* window 0: off */
}

/* Data frames: only the window; nothing remembered, repeats pass. */
static void test_data(void **state)
{
	struct mp_replay r;

	mp_replay_init(&r, W);
	assert_int_equal(mp_replay_check(&r, mac_a, T0, T0, false), MP_REPLAY_OK);
	assert_int_equal(mp_replay_check(&r, mac_a, T0, T0, false), MP_REPLAY_OK);
	assert_int_equal(mp_replay_check(&r, mac_a, T0 - 2 * W, T0, false),
			 MP_REPLAY_STALE);
	assert_false(r.s[0].used);
}

/* Control frames: strictly newer per sender, each sender on its own. */
static void test_control(void **state)
{
	struct mp_replay r;

	mp_replay_init(&r, W);
	assert_int_equal(mp_replay_check(&r, mac_a, T0, T0, true), MP_REPLAY_OK);
	/* the same frame again (a replay, or netem's duplicate) */
	assert_int_equal(mp_replay_check(&r, mac_a, T0, T0 + S, true),
			 MP_REPLAY_SEEN);
	/* an older one of A, still within the window: a replay */
	assert_int_equal(mp_replay_check(&r, mac_a, T0 - S, T0 + S, true),
			 MP_REPLAY_SEEN);
	/* B is another sender: its older stamp is its first */
	assert_int_equal(mp_replay_check(&r, mac_b, T0 - S, T0 + S, true),
			 MP_REPLAY_OK);
	assert_int_equal(mp_replay_check(&r, mac_a, T0 + 1, T0 + S, true),
			 MP_REPLAY_OK);
	/* outside the window says so before the sender's history */
	assert_int_equal(mp_replay_check(&r, mac_a, T0 - 2 * W, T0, true),
			 MP_REPLAY_STALE);
	assert_int_equal(r.evicted, 0);
}

/* A sender that restarted (a later clock) is taken at once. */
static void test_restart(void **state)
{
	struct mp_replay r;

	mp_replay_init(&r, W);
	assert_int_equal(mp_replay_check(&r, mac_a, T0 + 10 * S, T0 + 10 * S,
					 true), MP_REPLAY_OK);
	assert_int_equal(mp_replay_check(&r, mac_a, T0 + 12 * S, T0 + 12 * S,
					 true), MP_REPLAY_OK);
	/* what was captured before the restart stays refused */
	assert_int_equal(mp_replay_check(&r, mac_a, T0 + 10 * S, T0 + 13 * S,
					 true), MP_REPLAY_SEEN);
}

/* A full table forgets the sender heard from longest ago, and counts it. */
static void test_eviction(void **state)
{
	struct mp_replay r;
	u8 mac[6] = { 2, 0, 0, 0, 0, 0 };
	unsigned int i;

	mp_replay_init(&r, W);
	for (i = 0; i < MP_REPLAY_SENDERS; i++) {
		mac[5] = (u8)i;
		assert_int_equal(mp_replay_check(&r, mac, T0 + i, T0, true),
				 MP_REPLAY_OK);
	}
	assert_int_equal(r.evicted, 0);
	assert_int_equal(mp_replay_check(&r, mac_a, T0 + 100, T0, true),
			 MP_REPLAY_OK);
	assert_int_equal(r.evicted, 1);
	/* sender 0 (stamp T0) made room; sender 1 is still remembered */
	mac[5] = 1;
	assert_int_equal(mp_replay_check(&r, mac, T0 + 1, T0, true),
			 MP_REPLAY_SEEN);
	mac[5] = 0;
	assert_int_equal(mp_replay_check(&r, mac, T0, T0, true), MP_REPLAY_OK);
	assert_int_equal(r.evicted, 2);
}

static void test_window_off(void **state)
{
	struct mp_replay r;

	mp_replay_init(&r, 0);
	assert_int_equal(mp_replay_check(&r, mac_a, 0, T0, true), MP_REPLAY_OK);
	assert_int_equal(mp_replay_check(&r, mac_a, 0, T0, true), MP_REPLAY_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_next_stamp),
		cmocka_unit_test(test_fresh),
		cmocka_unit_test(test_data),
		cmocka_unit_test(test_control),
		cmocka_unit_test(test_restart),
		cmocka_unit_test(test_eviction),
		cmocka_unit_test(test_window_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
