// SPDX-License-Identifier: GPL-2.0
/* Unit tests for /dev/mpb's read-ahead bookkeeping (kernel/common/mp_ra.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "mp_ra.h"

#define KiB 1024U
#define CHUNK (64 * KiB)
#define SIZE (1024ULL * KiB)

static struct mp_ra ra;

static int setup(void **state)
{
	return mp_ra_init(&ra, SIZE, CHUNK);
}

static void test_init(void **state)
{
	struct mp_ra r;

	assert_int_equal(mp_ra_init(&r, 0, CHUNK), -EINVAL);
	assert_int_equal(mp_ra_init(&r, SIZE, 0), -EINVAL);
	assert_int_equal(mp_ra_init(&r, SIZE, 3 * KiB), -EINVAL);
	assert_int_equal(mp_ra_init(&r, SIZE, CHUNK), 0);
}

/* A read that does not follow another fetches nothing; the next one does. */
static void test_plan_sequential(void **state)
{
	struct mp_ra_fill f[MP_RA_SLOTS];
	u32 n;

	assert_int_equal(mp_ra_plan(&ra, 0, 32 * KiB, 4, f, MP_RA_SLOTS), 0);
	n = mp_ra_plan(&ra, 32 * KiB, 32 * KiB, 4, f, MP_RA_SLOTS);
	/* it ends at 64 KiB: chunks 1..4 */
	assert_int_equal(n, 4);
	assert_true(f[0].pos == CHUNK && f[0].len == CHUNK);
	assert_true(f[3].pos == 4 * CHUNK);
	/* within chunk 1 still: its window is held already */
	assert_int_equal(mp_ra_plan(&ra, 64 * KiB, 32 * KiB, 4, f, MP_RA_SLOTS), 0);
	/* into chunk 2: chunks 2..5, only chunk 5 is new */
	n = mp_ra_plan(&ra, 96 * KiB, 32 * KiB, 4, f, MP_RA_SLOTS);
	assert_int_equal(n, 1);
	assert_true(f[0].pos == 5 * CHUNK);
	/* a random read breaks the stream */
	assert_int_equal(mp_ra_plan(&ra, 512 * KiB, 4 * KiB, 4, f, MP_RA_SLOTS), 0);
	/* depth 0: nothing */
	assert_int_equal(mp_ra_plan(&ra, 516 * KiB, 4 * KiB, 0, f, MP_RA_SLOTS), 0);
	/* depth past MP_RA_MAX_DEPTH is capped, max bounds the list */
	assert_int_equal(mp_ra_plan(&ra, 520 * KiB, 4 * KiB, 99, f, 2), 2);
}

/* Fetches stop at the device's end; a short last chunk is short. */
static void test_plan_end(void **state)
{
	struct mp_ra r;
	struct mp_ra_fill f[MP_RA_SLOTS];

	assert_int_equal(mp_ra_init(&r, 200 * KiB, CHUNK), 0);
	mp_ra_plan(&r, 0, 4 * KiB, 4, f, MP_RA_SLOTS);
	assert_int_equal(mp_ra_plan(&r, 4 * KiB, 60 * KiB, 4, f, MP_RA_SLOTS), 3);
	assert_true(f[2].pos == 3 * CHUNK && f[2].len == 200 * KiB - 3 * CHUNK);
	/* a read that ends the device fetches nothing; past it is refused */
	mp_ra_init(&r, 200 * KiB, CHUNK);
	mp_ra_plan(&r, 100 * KiB, 4 * KiB, 4, f, MP_RA_SLOTS);
	assert_int_equal(mp_ra_plan(&r, 104 * KiB, 96 * KiB, 4, f, MP_RA_SLOTS), 0);
	assert_int_equal(mp_ra_plan(&r, 200 * KiB, 4 * KiB, 4, f, MP_RA_SLOTS), 0);
	assert_int_equal(mp_ra_plan(&r, 196 * KiB, 8 * KiB, 4, f, MP_RA_SLOTS), 0);
}

/* Miss, then wait on the fetch in flight, then hit; pins counted. */
static void test_lookup(void **state)
{
	struct mp_ra_fill f[MP_RA_SLOTS];
	u32 idx[MP_RA_MAX_PINS], nr, off;
	u64 pos;
	bool failed;

	assert_int_equal(mp_ra_lookup(&ra, CHUNK, 4 * KiB, idx, &nr), MP_RA_MISS);
	assert_int_equal(nr, 0);
	mp_ra_plan(&ra, 0, 60 * KiB, 2, f, MP_RA_SLOTS);
	assert_int_equal(mp_ra_plan(&ra, 60 * KiB, 4 * KiB, 2, f, MP_RA_SLOTS), 2);
	assert_int_equal(mp_ra_lookup(&ra, CHUNK + 8 * KiB, 8 * KiB, idx, &nr), MP_RA_WAIT);
	assert_int_equal(nr, 1);
	assert_int_equal(idx[0], f[0].idx);
	assert_false(mp_ra_settled(&ra, idx, nr, &failed));
	/* it waits: the fetch's end says so */
	assert_true(mp_ra_filled(&ra, f[0].idx, true));
	assert_true(mp_ra_settled(&ra, idx, nr, &failed));
	assert_false(failed);
	assert_int_equal(mp_ra_copy_range(&ra, idx[0], CHUNK + 8 * KiB, 8 * KiB, &off), 8 * KiB);
	assert_int_equal(off, 8 * KiB);
	assert_false(mp_ra_unpin(&ra, idx[0]));
	assert_false(mp_ra_unpin(&ra, idx[0]));	/* not pinned any more */
	/* held and READY now */
	assert_int_equal(mp_ra_lookup(&ra, CHUNK, CHUNK, idx, &nr), MP_RA_HIT);
	mp_ra_unpin(&ra, idx[0]);
	/* across two chunks: both, in order, one still in flight */
	assert_int_equal(mp_ra_lookup(&ra, 2 * CHUNK - 4 * KiB, 8 * KiB, idx, &nr), MP_RA_WAIT);
	assert_int_equal(nr, 2);
	assert_int_equal(idx[0], f[0].idx);
	assert_int_equal(idx[1], f[1].idx);
	pos = 2 * CHUNK - 4 * KiB;
	assert_int_equal(mp_ra_copy_range(&ra, idx[0], pos, 8 * KiB, &off), 4 * KiB);
	assert_int_equal(off, CHUNK - 4 * KiB);
	assert_int_equal(mp_ra_copy_range(&ra, idx[1], pos, 8 * KiB, &off), 4 * KiB);
	assert_int_equal(off, 0);
	/* longer than a chunk, or past the end: never held */
	assert_int_equal(mp_ra_lookup(&ra, CHUNK, CHUNK + 4 * KiB, idx, &nr), MP_RA_MISS);
	assert_int_equal(mp_ra_lookup(&ra, SIZE, 4 * KiB, idx, &nr), MP_RA_MISS);
	assert_int_equal(mp_ra_lookup(&ra, CHUNK, 0, idx, &nr), MP_RA_MISS);
}

/* A write frees what is idle and makes what is in use serve its pins only. */
static void test_invalidate(void **state)
{
	struct mp_ra_fill f[MP_RA_SLOTS];
	u32 idx[MP_RA_MAX_PINS], nr, w[MP_RA_MAX_PINS], wn;
	bool failed;

	mp_ra_plan(&ra, 0, 60 * KiB, 3, f, MP_RA_SLOTS);
	assert_int_equal(mp_ra_plan(&ra, 60 * KiB, 4 * KiB, 3, f, MP_RA_SLOTS), 3);
	mp_ra_filled(&ra, f[0].idx, true);
	/* chunk 1 READY and idle: freed, the next read misses */
	assert_int_equal(mp_ra_invalidate(&ra, CHUNK + 100, 1), 1);
	assert_int_equal(mp_ra_lookup(&ra, CHUNK, 4 * KiB, idx, &nr), MP_RA_MISS);
	/* chunk 2 in flight with a read waiting, then written */
	assert_int_equal(mp_ra_lookup(&ra, 2 * CHUNK, 4 * KiB, w, &wn), MP_RA_WAIT);
	assert_int_equal(mp_ra_invalidate(&ra, 2 * CHUNK, 4 * KiB), 1);
	/* a read after the write does not join the stale fetch */
	assert_int_equal(mp_ra_lookup(&ra, 2 * CHUNK, 4 * KiB, idx, &nr), MP_RA_MISS);
	/* invalidating again changes nothing */
	assert_int_equal(mp_ra_invalidate(&ra, 2 * CHUNK, 4 * KiB), 0);
	/* the waiting read is served from it, then it is freed */
	assert_true(mp_ra_filled(&ra, f[1].idx, true));
	assert_true(mp_ra_settled(&ra, w, wn, &failed));
	assert_false(failed);
	assert_true(mp_ra_unpin(&ra, w[0]));
	/* chunk 3 in flight, nobody waits, written: freed when it ends */
	assert_int_equal(mp_ra_invalidate(&ra, 3 * CHUNK + CHUNK - 1, 100), 1);
	assert_false(mp_ra_filled(&ra, f[2].idx, true));
	assert_int_equal(mp_ra_lookup(&ra, 3 * CHUNK, 4 * KiB, idx, &nr), MP_RA_MISS);
	/* all free again: a new stream gets every slot it asks for */
	mp_ra_plan(&ra, 0, 4 * KiB, 4, f, MP_RA_SLOTS);
	assert_int_equal(mp_ra_plan(&ra, 4 * KiB, 4 * KiB, 4, f, MP_RA_SLOTS), 4);
	/* a range up to the end of u64 does not wrap */
	assert_int_equal(mp_ra_invalidate(&ra, 0, ~0ULL), 4);
}

/* A failed fetch sends its waiting reads to the device. */
static void test_failed(void **state)
{
	struct mp_ra_fill f[MP_RA_SLOTS];
	u32 idx[MP_RA_MAX_PINS], again[MP_RA_MAX_PINS], nr;
	bool failed;

	mp_ra_plan(&ra, 0, 4 * KiB, 1, f, MP_RA_SLOTS);
	assert_int_equal(mp_ra_plan(&ra, 4 * KiB, 60 * KiB, 1, f, MP_RA_SLOTS), 1);
	assert_int_equal(mp_ra_lookup(&ra, CHUNK, 4 * KiB, idx, &nr), MP_RA_WAIT);
	assert_true(mp_ra_filled(&ra, f[0].idx, false));
	assert_true(mp_ra_settled(&ra, idx, nr, &failed));
	assert_true(failed);
	/* no new read joins a failed fetch */
	assert_int_equal(mp_ra_lookup(&ra, CHUNK, 4 * KiB, again, &nr), MP_RA_MISS);
	assert_true(mp_ra_unpin(&ra, idx[0]));
	/* ending a fetch twice, or one never started, changes nothing */
	assert_false(mp_ra_filled(&ra, f[0].idx, true));
	assert_false(mp_ra_filled(&ra, MP_RA_SLOTS, true));
	assert_false(mp_ra_unpin(&ra, MP_RA_SLOTS));
}

/*
 * With every slot taken, a stream reuses the least recently used READY
 * chunk, never one in its own window, pinned, or in flight.
 */
static void test_victim(void **state)
{
	struct mp_ra_fill f[MP_RA_SLOTS];
	u32 idx[MP_RA_MAX_PINS], nr, i;

	/* stream A: chunks 0..3 READY; stream B: chunks 8..11 in flight */
	mp_ra_plan(&ra, 0, 4 * KiB, 4, f, MP_RA_SLOTS);
	assert_int_equal(mp_ra_plan(&ra, 4 * KiB, 4 * KiB, 4, f, MP_RA_SLOTS), 4);
	assert_true(f[0].pos == 0 && f[3].pos == 3 * CHUNK);
	for (i = 0; i < 4; i++)
		mp_ra_filled(&ra, f[i].idx, true);
	mp_ra_plan(&ra, 8 * CHUNK, 4 * KiB, 4, f, MP_RA_SLOTS);
	assert_int_equal(mp_ra_plan(&ra, 8 * CHUNK + 4 * KiB, 4 * KiB, 4, f, MP_RA_SLOTS), 4);
	/* chunk 1 pinned */
	assert_int_equal(mp_ra_lookup(&ra, CHUNK, 4 * KiB, idx, &nr), MP_RA_HIT);
	/* stream C wants 12..15: it gets the slots of chunks 0, 2 and 3 */
	mp_ra_plan(&ra, 12 * CHUNK, 4 * KiB, 4, f, MP_RA_SLOTS);
	assert_int_equal(mp_ra_plan(&ra, 12 * CHUNK + 4 * KiB, 4 * KiB, 4, f, MP_RA_SLOTS), 3);
	assert_true(f[0].pos == 12 * CHUNK && f[2].pos == 14 * CHUNK);
	mp_ra_unpin(&ra, idx[0]);
	/* stream A again, chunks 1..4: 1 is held, nothing else is free */
	mp_ra_plan(&ra, CHUNK, 4 * KiB, 4, f, MP_RA_SLOTS);
	assert_int_equal(mp_ra_plan(&ra, CHUNK + 4 * KiB, 4 * KiB, 4, f, MP_RA_SLOTS), 0);
	assert_int_equal(mp_ra_lookup(&ra, CHUNK, 4 * KiB, idx, &nr), MP_RA_HIT);
	mp_ra_unpin(&ra, idx[0]);
	/* B's chunks arrive: A takes three of them, and keeps chunk 1 */
	for (i = 0; i < MP_RA_SLOTS; i++)
		if (ra.slot[i].chunk >= 8 && ra.slot[i].chunk <= 11)
			mp_ra_filled(&ra, i, true);
	assert_int_equal(mp_ra_plan(&ra, CHUNK + 8 * KiB, 4 * KiB, 4, f, MP_RA_SLOTS), 3);
	assert_true(f[0].pos == 2 * CHUNK && f[2].pos == 4 * CHUNK);
	assert_int_equal(mp_ra_lookup(&ra, CHUNK, 4 * KiB, idx, &nr), MP_RA_HIT);
}

/* No room halves the depth in use; fetches that arrive widen it again. */
static void test_adapt(void **state)
{
	struct mp_ra_fill f[MP_RA_SLOTS];
	u32 i;

	mp_ra_plan(&ra, 0, 4 * KiB, 4, f, MP_RA_SLOTS);
	assert_int_equal(mp_ra_plan(&ra, 4 * KiB, 4 * KiB, 4, f, MP_RA_SLOTS), 4);
	mp_ra_busy(&ra);
	assert_int_equal(ra.cap, 2);
	for (i = 0; i < 4; i++)
		mp_ra_invalidate(&ra, f[i].pos, 1);
	for (i = 0; i < 4; i++)
		mp_ra_filled(&ra, f[i].idx, false);
	/* a new stream: two chunks ahead now */
	mp_ra_plan(&ra, 8 * CHUNK, 4 * KiB, 4, f, MP_RA_SLOTS);
	assert_int_equal(mp_ra_plan(&ra, 8 * CHUNK + 4 * KiB, 4 * KiB, 4, f, MP_RA_SLOTS), 2);
	/* two fetches whole: three */
	mp_ra_filled(&ra, f[0].idx, true);
	assert_int_equal(ra.cap, 2);
	mp_ra_filled(&ra, f[1].idx, true);
	assert_int_equal(ra.cap, 3);
	/* the driver's own depth still bounds it */
	assert_int_equal(mp_ra_plan(&ra, 8 * CHUNK + 8 * KiB, 4 * KiB, 2, f, MP_RA_SLOTS), 0);
	assert_int_equal(mp_ra_plan(&ra, 8 * CHUNK + 12 * KiB, 4 * KiB, 4, f, MP_RA_SLOTS), 1);
	mp_ra_busy(&ra);
	mp_ra_busy(&ra);
	mp_ra_busy(&ra);
	assert_int_equal(ra.cap, 1);
	/* a failed fetch does not widen it */
	mp_ra_filled(&ra, f[0].idx, false);
	assert_int_equal(ra.cap, 1);
	assert_int_equal(ra.good, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test_setup(test_plan_sequential, setup),
		cmocka_unit_test(test_plan_end),
		cmocka_unit_test_setup(test_lookup, setup),
		cmocka_unit_test_setup(test_invalidate, setup),
		cmocka_unit_test_setup(test_failed, setup),
		cmocka_unit_test_setup(test_victim, setup),
		cmocka_unit_test_setup(test_adapt, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
