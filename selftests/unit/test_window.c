// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the responder receive window (mp_window.c, mp_sn.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <linux/mp_eth.h>

#include "mp_window.h"

#define NA	MP_WINDOW_NO_ACK
#define GAP	MP_WINDOW_GAP_TIMEOUT

/* Check sn and, when it is to be executed, complete it with status 0. */
static enum mp_window_verdict rx(struct mp_window *w, u16 sn, int ack, u64 now)
{
	enum mp_window_verdict v = mp_window_check(w, sn, ack, now, NULL);

	if (v == MP_WIN_NEW || v == MP_WIN_RESYNC)
		assert_int_equal(mp_window_complete(w, sn, 0), 0);
	return v;
}

static void test_sn_arith(void **state)
{
	assert_int_equal(mp_sn_diff(1, 0xffff), 2);
	assert_int_equal(mp_sn_diff(0xffff, 1), -2);
	assert_int_equal(mp_sn_diff(0x7fff, 0), 0x7fff);
	assert_int_equal(mp_sn_diff(0x8000, 0), -0x8000);
	assert_true(mp_sn_after(0, 0xffff));
	assert_true(mp_sn_before(0xffff, 0));
	assert_true(mp_sn_after(0x7fff, 0));
	assert_false(mp_sn_after(0x8000, 0));	/* RFC 1982: undefined */
	assert_false(mp_sn_before(0x8000, 0));
	assert_false(mp_sn_after(5, 5));
	assert_false(mp_sn_before(5, 5));
	assert_int_equal(mp_sn_add(0xffff, 2), 1);
}

static void test_seqmap(void **state)
{
	struct mp_seqmap m;

	mp_seqmap_init(&m, 0xfffe);
	assert_int_equal(mp_seqmap_pos(&m, 0xffff), 1);
	assert_int_equal(mp_seqmap_pos(&m, 0x003e), 64);
	assert_int_equal(mp_seqmap_mark(&m, 3), 0);	/* 0x0001 */
	assert_int_equal(mp_seqmap_mark(&m, 2), 0);	/* 0x0000 */
	assert_true(mp_seqmap_test(&m, 3));
	assert_false(mp_seqmap_test(&m, 1));
	assert_int_equal(mp_seqmap_mark(&m, 1), 3);	/* 0xffff: all three */
	assert_int_equal(m.base, 1);
	assert_true(m.bits == 0);
	assert_int_equal(mp_seqmap_mark(&m, 65), 0);	/* out of range */
	assert_int_equal(mp_seqmap_mark(&m, 64), 0);
	assert_int_equal(mp_seqmap_shift(&m, 64), 63);	/* one was marked */
	assert_true(m.bits == 0);
	m.bits = ~0ULL >> 1;				/* 2..64 marked */
	assert_int_equal(mp_seqmap_shift(&m, 1000), 1000 - 63);
	assert_true(m.bits == 0);
}

static void test_in_order(void **state)
{
	struct mp_window w;
	unsigned int i;

	mp_window_init(&w, 1);
	assert_int_equal(mp_window_base(&w), 0);
	for (i = 1; i <= 1000; i++) {
		assert_int_equal(rx(&w, (u16)i, NA, i), MP_WIN_NEW);
		assert_int_equal(mp_window_base(&w), (u16)i);
		assert_true(w.rx.bits == 0);
	}
	assert_true(w.skipped == 0);
}

static void test_wraparound(void **state)
{
	struct mp_window w;
	unsigned int i;
	u16 sn;

	/* In order across 0xffff -> 0. */
	mp_window_init(&w, 0xfff0);
	for (i = 0; i < 0x41; i++)
		assert_int_equal(rx(&w, (u16)(0xfff0 + i), NA, 0), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 0x0030);
	/* Cached: base - 63 .. base; 0xfff0 is 64 behind. */
	assert_int_equal(rx(&w, 0xfff1, NA, 0), MP_WIN_DUP);
	assert_int_equal(rx(&w, 0xffff, NA, 0), MP_WIN_DUP);
	assert_int_equal(rx(&w, 0xfff0, NA, 0), MP_WIN_OLD);

	/* Reversed across the wrap: the window fills from the top. */
	mp_window_init(&w, 0xffe0);
	for (i = 64; i-- > 0;) {
		sn = (u16)(0xffe0 + i);
		assert_int_equal(rx(&w, sn, NA, 0), MP_WIN_NEW);
	}
	assert_int_equal(mp_window_base(&w), 0x001f);
	for (i = 0; i < 64; i++)
		assert_int_equal(rx(&w, (u16)(0xffe0 + i), NA, 0), MP_WIN_DUP);

	/* The whole 16-bit space, twice, in order. */
	mp_window_init(&w, 0);
	for (i = 0; i < 0x20000; i++)
		assert_int_equal(rx(&w, (u16)i, NA, 0), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 0xffff);
}

static void test_duplicates_in_window(void **state)
{
	struct mp_window w;
	int st = 1;

	mp_window_init(&w, 1);
	/* 3 arrives before 1 and 2: in the window, not executed yet. */
	assert_int_equal(mp_window_check(&w, 3, NA, 0, &st), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 0);
	assert_true(w.rx.bits == 0x4);
	/* Duplicate while the response is not stored: drop. */
	assert_int_equal(mp_window_check(&w, 3, NA, 0, &st), MP_WIN_BUSY);
	assert_int_equal(mp_window_complete(&w, 3, -EFAULT), 0);
	assert_int_equal(mp_window_complete(&w, 3, 0), -ENOENT);
	/* Now it is answerable again, with the status that was sent. */
	assert_int_equal(mp_window_check(&w, 3, NA, 0, &st), MP_WIN_DUP);
	assert_int_equal(st, -EFAULT);
	assert_int_equal(rx(&w, 1, NA, 0), MP_WIN_NEW);
	assert_int_equal(rx(&w, 2, NA, 0), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 3);
	/* Behind the base now, still answerable from the cache. */
	assert_int_equal(mp_window_check(&w, 3, NA, 0, &st), MP_WIN_DUP);
	assert_int_equal(st, -EFAULT);
	assert_int_equal(mp_window_check(&w, 1, NA, 0, &st), MP_WIN_DUP);
	assert_int_equal(st, 0);
	/* Never seen and behind the base: nothing to say. */
	assert_int_equal(mp_window_check(&w, 0, NA, 0, &st), MP_WIN_OLD);
	assert_int_equal(mp_window_check(&w, 0xff00, NA, 0, &st), MP_WIN_OLD);
	assert_int_equal(mp_window_complete(&w, 0xff00, 0), -ENOENT);
	assert_int_equal(mp_window_complete(&w, 3, 1), -EINVAL);
	assert_int_equal(mp_window_complete(&w, 3, -5000), -EINVAL);
}

static void test_duplicates_outside_window(void **state)
{
	struct mp_window w;
	unsigned int i;
	int st;

	mp_window_init(&w, 1);
	for (i = 1; i <= 200; i++)
		assert_int_equal(rx(&w, (u16)i, NA, 0), MP_WIN_NEW);
	/* The last 64 are cached (base - 63 .. base), older ones are not. */
	for (i = 137; i <= 200; i++)
		assert_int_equal(mp_window_check(&w, (u16)i, NA, 0, &st),
				 MP_WIN_DUP);
	for (i = 1; i <= 136; i++)
		assert_int_equal(mp_window_check(&w, (u16)i, NA, 0, &st),
				 MP_WIN_OLD);
	assert_int_equal(w.overflow, 0);
}

/*
 * The cache slot of sn is reused by sn + 64. When that happens before the
 * response to sn was stored, storing it fails and a later duplicate of sn
 * is dropped, never executed.
 */
static void test_slot_reuse(void **state)
{
	struct mp_window w;
	unsigned int i;

	mp_window_init(&w, 1);
	assert_int_equal(mp_window_check(&w, 1, NA, 0, NULL), MP_WIN_NEW);
	for (i = 2; i <= 65; i++)
		assert_int_equal(rx(&w, (u16)i, NA, 0), MP_WIN_NEW);
	assert_int_equal(mp_window_complete(&w, 1, 0), -ENOENT);
	assert_int_equal(mp_window_check(&w, 1, NA, 0, NULL), MP_WIN_OLD);
	assert_int_equal(mp_window_check(&w, 65, NA, 0, NULL), MP_WIN_DUP);
}

/* Model of the memory behind the window: one word, last writer wins. */
struct wmem {
	u64 word;
	unsigned int applied[8];
};

static void write_req(struct mp_window *w, struct wmem *m, u16 sn, u64 val,
		      int ack, u64 now)
{
	enum mp_window_verdict v = mp_window_check(w, sn, ack, now, NULL);

	if (v == MP_WIN_NEW || v == MP_WIN_RESYNC) {
		m->word = val;
		m->applied[sn & 7]++;
		assert_int_equal(mp_window_complete(w, sn, 0), 0);
	}
}

/*
 * Write A (sn 1) then write B (sn 2) to the same word; A is duplicated by
 * the network and its copy arrives after B, in every position the window
 * can be in: while 1 and 2 are in the window, after the base passed them,
 * after the timeout skipped a hole, after an ack, after a resync.
 */
static void test_write_after_write(void **state)
{
	struct mp_window w;
	struct wmem m;
	unsigned int i;

	memset(&m, 0, sizeof(m));
	mp_window_init(&w, 0);
	/* 0 lost: 1 and 2 stay in the window. */
	write_req(&w, &m, 1, 0xa, NA, 0);
	write_req(&w, &m, 2, 0xb, NA, 0);
	write_req(&w, &m, 1, 0xa, NA, 0);
	assert_true(m.word == 0xb);
	/* 0 arrives: base passes 1 and 2. */
	write_req(&w, &m, 0, 0x0, NA, 0);
	write_req(&w, &m, 3, 0xc, NA, 0);
	write_req(&w, &m, 1, 0xa, NA, 0);
	write_req(&w, &m, 2, 0xb, NA, 0);
	assert_true(m.word == 0xc);
	for (i = 0; i < 4; i++)
		assert_int_equal(m.applied[i], 1);

	/* Timeout skipped hole 4; 5 and 6 applied; late 4 and 5 ignored. */
	write_req(&w, &m, 5, 0xd, NA, 10);
	write_req(&w, &m, 6, 0xe, NA, 10);
	assert_int_equal(mp_window_expire(&w, 10 + GAP), 1);
	write_req(&w, &m, 4, 0x4, NA, 20 + GAP);
	write_req(&w, &m, 5, 0xd, NA, 20 + GAP);
	assert_true(m.word == 0xe);
	assert_int_equal(m.applied[4], 0);
	assert_int_equal(m.applied[5], 1);

	/* An ack moves the base; old copies stay dead. */
	write_req(&w, &m, 8, 0x8, 6, 30 + GAP);
	write_req(&w, &m, 9, 0x9, 8, 30 + GAP);
	write_req(&w, &m, 8, 0x8, 7, 30 + GAP);
	assert_true(m.word == 0x9);
	assert_int_equal(m.applied[0], 2);	/* 0 and 8 */
	assert_int_equal(m.applied[1], 2);	/* 1 and 9 */
	write_req(&w, &m, 7, 0x7, 6, 30 + GAP);	/* never came, acked 8 */
	assert_true(m.word == 0x9);
}

static void test_overflow_resync(void **state)
{
	struct mp_window w;
	unsigned int i;

	mp_window_init(&w, 1);
	assert_int_equal(rx(&w, 1, NA, 0), MP_WIN_NEW);
	assert_int_equal(rx(&w, 65, NA, 0), MP_WIN_NEW);	/* base 1 + 64 */
	assert_int_equal(rx(&w, 66, NA, 0), MP_WIN_BEYOND);
	assert_int_equal(w.overflow, 1);
	/* An in-window request resets the counter. */
	assert_int_equal(rx(&w, 2, NA, 0), MP_WIN_NEW);
	assert_int_equal(w.overflow, 0);
	for (i = 0; i < MP_WINDOW_RESYNC - 1; i++)
		assert_int_equal(rx(&w, (u16)(1000 + i), NA, 0),
				 MP_WIN_BEYOND);
	assert_int_equal(w.overflow, MP_WINDOW_RESYNC - 1);
	assert_int_equal(mp_window_base(&w), 2);
	/* The eighth re-bases the window on itself and is executed. */
	assert_int_equal(rx(&w, 1010, NA, 0), MP_WIN_RESYNC);
	assert_int_equal(mp_window_base(&w), 1010);
	assert_int_equal(w.overflow, 0);
	/* The dropped ones are behind the new base now: never executed. */
	for (i = 0; i < MP_WINDOW_RESYNC - 1; i++)
		assert_int_equal(rx(&w, (u16)(1000 + i), NA, 0), MP_WIN_OLD);
	/* Old cached responses were forgotten with the old sequence. */
	assert_int_equal(rx(&w, 65, NA, 0), MP_WIN_OLD);
	assert_int_equal(rx(&w, 1010, NA, 0), MP_WIN_DUP);
	assert_int_equal(rx(&w, 1011, NA, 0), MP_WIN_NEW);

	/* OLD packets do not reset the overflow counter. */
	for (i = 0; i < MP_WINDOW_RESYNC - 1; i++) {
		assert_int_equal(rx(&w, (u16)(5000 + i), NA, 0),
				 MP_WIN_BEYOND);
		assert_int_equal(rx(&w, 1, NA, 0), MP_WIN_OLD);
	}
	assert_int_equal(rx(&w, 5100, NA, 0), MP_WIN_RESYNC);

	/* Resync across the wrap. */
	mp_window_init(&w, 0xfff0);
	w.resync_thresh = 1;
	assert_int_equal(rx(&w, 0x0100, NA, 0), MP_WIN_RESYNC);
	assert_int_equal(mp_window_base(&w), 0x0100);
}

static void test_timeout(void **state)
{
	struct mp_window w;
	u64 t0 = 1000;

	mp_window_init(&w, 1);
	assert_int_equal(rx(&w, 2, NA, t0), MP_WIN_NEW);	/* hole at 1 */
	assert_int_equal(mp_window_expire(&w, t0 + GAP - 1), 0);
	assert_int_equal(mp_window_base(&w), 0);
	/* Another arrival behind the hole does not restart its clock. */
	assert_int_equal(rx(&w, 4, NA, t0 + GAP / 2), MP_WIN_NEW);
	assert_int_equal(mp_window_expire(&w, t0 + GAP), 1);
	assert_int_equal(mp_window_base(&w), 2);
	assert_true(w.skipped == 1);
	/* Hole 3 is now the oldest; it ages from the moment it became so. */
	assert_int_equal(mp_window_expire(&w, t0 + 2 * GAP - 1), 0);
	assert_int_equal(mp_window_expire(&w, t0 + 2 * GAP), 1);
	assert_int_equal(mp_window_base(&w), 4);
	assert_true(w.rx.bits == 0);
	assert_int_equal(mp_window_expire(&w, t0 + 10 * GAP), 0);
	/* Late copies of skipped requests are not executed. */
	assert_int_equal(rx(&w, 1, NA, t0 + 3 * GAP), MP_WIN_OLD);
	assert_int_equal(rx(&w, 3, NA, t0 + 3 * GAP), MP_WIN_OLD);
	assert_int_equal(rx(&w, 2, NA, t0 + 3 * GAP), MP_WIN_DUP);

	/* mp_window_check() applies the timeout itself. */
	mp_window_init(&w, 1);
	assert_int_equal(rx(&w, 10, NA, 0), MP_WIN_NEW);
	assert_int_equal(rx(&w, 12, NA, GAP), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 10);
	assert_true(w.skipped == 9);
	/* Holes wider than the window edge: a hole run of 63 skipped. */
	mp_window_init(&w, 1);
	assert_int_equal(rx(&w, 64, NA, 5), MP_WIN_NEW);
	assert_int_equal(mp_window_expire(&w, 5 + GAP), 63);
	assert_int_equal(mp_window_base(&w), 64);
	/* A clock that goes backwards never expires anything. */
	assert_int_equal(rx(&w, 66, NA, 100), MP_WIN_NEW);
	assert_int_equal(mp_window_expire(&w, 50), 0);
	w.gap_timeout = 10;
	assert_int_equal(mp_window_expire(&w, 110), 1);
}

static void test_ack(void **state)
{
	struct mp_window w;
	int st;

	/* Unsynced: the first request's ack is the base. */
	mp_window_init(&w, 777);
	mp_window_reset(&w);
	assert_int_equal(rx(&w, 10, 5, 0), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 5);
	/* Requests that were overtaken by it are still executed. */
	assert_int_equal(rx(&w, 7, 5, 0), MP_WIN_NEW);
	assert_int_equal(rx(&w, 6, 5, 0), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 7);
	/* The requester gave up 8: its ack lets the base pass the hole. */
	assert_int_equal(rx(&w, 11, 8, 0), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 8);
	assert_true(w.skipped == 1);
	assert_int_equal(rx(&w, 9, 8, 0), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 11);
	/* Response to 10 lost: the retransmission is answered, not redone. */
	assert_int_equal(mp_window_check(&w, 10, 9, 0, &st), MP_WIN_DUP);
	/* Stale copy of 8 from before the ack: never executed. */
	assert_int_equal(rx(&w, 8, 7, 0), MP_WIN_OLD);
	/* An ack that is not within 64 behind sn is ignored. */
	assert_int_equal(rx(&w, 12, 12, 0), MP_WIN_NEW);
	assert_int_equal(rx(&w, 200, 100, 0), MP_WIN_BEYOND);
	assert_int_equal(mp_window_base(&w), 12);
	assert_int_equal(rx(&w, 13, 0x10000, 0), MP_WIN_NEW);
	/* With the ack, far requests slide the window instead of resync. */
	assert_int_equal(rx(&w, 1000, 999, 0), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 1000);
	assert_int_equal(w.overflow, 0);
	/* Ack across the wrap. */
	mp_window_reset(&w);
	assert_int_equal(rx(&w, 0x0010, 0xfff0, 0), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 0xfff0);
	assert_int_equal(rx(&w, 0x0011, 0x0010, 0), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 0x0011);
	assert_int_equal(rx(&w, 0xfff5, 0xfff0, 0), MP_WIN_OLD);
}

static void test_unsynced_no_ack(void **state)
{
	struct mp_window w;

	mp_window_init(&w, 1);
	mp_window_reset(&w);
	assert_false(w.synced);
	assert_int_equal(mp_window_expire(&w, ~0ULL), 0);
	/* Without an ack the first request is taken as the start. */
	assert_int_equal(rx(&w, 500, NA, 0), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 500);
	assert_int_equal(rx(&w, 499, NA, 0), MP_WIN_OLD);
	assert_int_equal(rx(&w, 501, NA, 0), MP_WIN_NEW);
}

/* The stamped variant of rx(); ack is always sn - 1, as a busy sender's. */
static enum mp_window_verdict srx(struct mp_window *w, u16 sn, u64 stamp)
{
	enum mp_window_verdict v;

	v = mp_window_check_stamped(w, sn, (u16)(sn - 1), stamp, 0, NULL);
	if (v == MP_WIN_NEW || v == MP_WIN_RESYNC)
		assert_int_equal(mp_window_complete(w, sn, 0), 0);
	return v;
}

/*
 * A copy captured more than half a 16-bit cycle ago and replayed within
 * the replay window looks new to the bitmap; its stamp gives it away.
 * Without the stamp it would be executed again: the limit the rule
 * closes.
 */
static void test_replay_after_wrap(void **state)
{
	struct mp_window w, plain;
	u32 i;

	mp_window_init(&w, 1);
	/* SN i stamped 10 * i; run once around and 90 SNs more */
	for (i = 1; i <= 0x10000 + 90; i++)
		assert_int_equal(srx(&w, (u16)i, 10ULL * i), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 90);
	plain = w;
	/* SN 100 as first sent (stamp 1000): its slot ran 0x10000 + 36 */
	assert_int_equal(mp_window_check_stamped(&w, 100, 99, 1000, 0, NULL),
			 MP_WIN_REPLAY);
	assert_int_equal(mp_window_check(&plain, 100, 99, 0, NULL),
			 MP_WIN_NEW);
	/*
	 * SN 1090, captured 64,536 SNs ago: its ack would move the base
	 * past everything in flight. Refused before the ack is applied.
	 */
	assert_int_equal(mp_window_check_stamped(&w, 1090, 1089, 10900, 0,
						 NULL), MP_WIN_REPLAY);
	assert_int_equal(mp_window_base(&w), 90);
	assert_int_equal(mp_window_check(&plain, 1090, 1089, 0, NULL),
			 MP_WIN_NEW);
	assert_int_equal(mp_window_base(&plain), 1090);
	/* nothing was recorded: the genuine SNs still run */
	assert_int_equal(srx(&w, 100, 10ULL * (0x10000 + 100)), MP_WIN_NEW);
	/* one stamped no later than its predecessor's is refused too */
	assert_int_equal(srx(&w, 101, 10ULL * (0x10000 + 37)), MP_WIN_REPLAY);
	assert_int_equal(srx(&w, 101, 10ULL * (0x10000 + 37) + 1), MP_WIN_NEW);
	/* an unstamped request is not judged by stamps */
	assert_int_equal(rx(&w, 102, 101, 0), MP_WIN_NEW);
	/* duplicates of executed SNs are answered from the cache as before */
	assert_int_equal(srx(&w, 100, 1), MP_WIN_DUP);
	/* a new generation forgets the slots and their stamps */
	mp_window_reset(&w);
	assert_int_equal(srx(&w, 7, 3), MP_WIN_NEW);
}

/*
 * A responder in a pool of 1024 devices keeps one window per peer (mp_eth,
 * peers.c): each follows its own peer's SNs alone. Eight requests of each
 * of 1024 peers, interleaved, each peer from its own first SN (those past
 * 675 across the wrap), peer 700's fourth lost: every window moves to its
 * own base, finds its own duplicates, and only peer 700's holds a hole,
 * which times out there alone.
 */
/* Part i of a write in n parts of the range at off, with stride 1000. */
static struct mp_window_part wpart(u64 off, unsigned int n, unsigned int i)
{
	struct mp_window_part p = {
		.offset = off, .len = 1000 * n - 10, .stride = 1000,
		.part = (u8)i, .nr_parts = (u8)n,
	};
	return p;
}

static enum mp_window_verdict rxp(struct mp_window *w, u16 sn, int ack,
				  u64 stamp, u64 now,
				  const struct mp_window_part *p, int *st)
{
	return mp_window_check_part(w, sn, ack, stamp, now, p, st);
}

/*
 * A write in parts: each part executed once, in any order; the SN is
 * received, and answered, when the last one is, with the first failing
 * part's status; a copy of any part after that is answered from the cache.
 */
static void test_write_parts(void **state)
{
	struct mp_window_part p[3];
	struct mp_window w;
	int st = 1, fin = 1;
	unsigned int i;

	mp_window_init(&w, 1);
	for (i = 0; i < 3; i++)
		p[i] = wpart(0x1000, 3, i);
	assert_int_equal(rxp(&w, 1, NA, 0, 1, &p[1], &st), MP_WIN_NEW);
	assert_int_equal(mp_window_complete_part(&w, 1, 1, 0, &fin), 0);
	/* not received yet: the base waits, a duplicate part waits too */
	assert_int_equal(mp_window_base(&w), 0);
	assert_int_equal(rxp(&w, 1, NA, 0, 2, &p[1], &st), MP_WIN_BUSY);
	assert_int_equal(mp_window_complete_part(&w, 1, 0, 0, &fin), -ENOENT);
	assert_int_equal(rxp(&w, 1, NA, 0, 3, &p[2], &st), MP_WIN_PART);
	assert_int_equal(mp_window_complete_part(&w, 1, 2, -ERANGE, &fin), 0);
	assert_int_equal(rxp(&w, 1, NA, 0, 4, &p[2], &st), MP_WIN_BUSY);
	/* a one-frame request, or another range, under the same SN */
	assert_int_equal(mp_window_check(&w, 1, NA, 5, &st), MP_WIN_FORGED);
	p[0].offset++;
	assert_int_equal(rxp(&w, 1, NA, 0, 5, &p[0], &st), MP_WIN_FORGED);
	p[0] = wpart(0x1000, 3, 0);
	p[0].len++;
	assert_int_equal(rxp(&w, 1, NA, 0, 5, &p[0], &st), MP_WIN_FORGED);
	p[0] = wpart(0x1000, 3, 0);
	p[0].stride--;
	assert_int_equal(rxp(&w, 1, NA, 0, 5, &p[0], &st), MP_WIN_FORGED);
	p[0] = wpart(0x1000, 3, 0);
	assert_int_equal(rxp(&w, 1, NA, 0, 6, &p[0], &st), MP_WIN_PART);
	/* received now: the base moves, but it is not answered until stored */
	assert_int_equal(mp_window_base(&w), 1);
	assert_int_equal(rxp(&w, 1, NA, 0, 7, &p[1], &st), MP_WIN_BUSY);
	assert_int_equal(mp_window_complete_part(&w, 1, 0, -EACCES, &fin), 1);
	assert_int_equal(fin, -ERANGE);
	for (i = 0; i < 3; i++) {
		st = 1;
		assert_int_equal(rxp(&w, 1, NA, 0, 8, &p[i], &st), MP_WIN_DUP);
		assert_int_equal(st, -ERANGE);
	}
	assert_int_equal(mp_window_complete_part(&w, 1, 0, 0, &fin), -ENOENT);
	assert_int_equal(mp_window_complete_part(&w, 1, 0, 1, &fin), -EINVAL);

	/* parts of different writes interleaved, one part lost for long */
	p[0] = wpart(0x2000, 2, 0);
	p[1] = wpart(0x2000, 2, 1);
	assert_int_equal(rxp(&w, 2, NA, 0, 10, &p[0], &st), MP_WIN_NEW);
	assert_int_equal(mp_window_complete_part(&w, 2, 0, 0, &fin), 0);
	assert_int_equal(rxp(&w, 3, NA, 0, 10, &p[1], &st), MP_WIN_NEW);
	assert_int_equal(mp_window_complete_part(&w, 3, 1, 0, &fin), 0);
	assert_int_equal(rxp(&w, 3, NA, 0, 10, &p[0], &st), MP_WIN_PART);
	assert_int_equal(mp_window_complete_part(&w, 3, 0, 0, &fin), 1);
	assert_int_equal(fin, 0);
	/* 3 is received, 2 still a hole */
	assert_int_equal(mp_window_base(&w), 1);
	assert_int_equal(rxp(&w, 2, NA, 0, 11, &p[1], &st), MP_WIN_PART);
	assert_int_equal(mp_window_complete_part(&w, 2, 1, 0, &fin), 1);
	assert_int_equal(mp_window_base(&w), 3);
}

/*
 * A part never executed after its SN is behind the base: the requester
 * gave up on it (its ack), or the hole timed out. A late part, or a copy
 * of one arriving after a newer write to the same bytes, is never applied
 * and never answered.
 */
static void test_write_parts_stale(void **state)
{
	struct mp_window_part p0 = wpart(0x3000, 2, 0), p1 = wpart(0x3000, 2, 1);
	struct mp_window w;
	int st, fin;

	mp_window_init(&w, 10);
	assert_int_equal(rxp(&w, 10, 9, 0, 1, &p0, &st), MP_WIN_NEW);
	assert_int_equal(mp_window_complete_part(&w, 10, 0, 0, &fin), 0);
	/* the requester gave up on 10 and writes the same range as 11 */
	assert_int_equal(rxp(&w, 11, 10, 0, 2, &p0, &st), MP_WIN_NEW);
	assert_int_equal(mp_window_complete_part(&w, 11, 0, 0, &fin), 0);
	assert_int_equal(mp_window_base(&w), 10);
	assert_int_equal(rxp(&w, 10, 9, 0, 3, &p1, &st), MP_WIN_OLD);
	assert_int_equal(rxp(&w, 10, 9, 0, 3, &p0, &st), MP_WIN_OLD);
	assert_int_equal(rxp(&w, 11, 10, 0, 4, &p1, &st), MP_WIN_PART);
	assert_int_equal(mp_window_complete_part(&w, 11, 1, 0, &fin), 1);
	assert_int_equal(mp_window_base(&w), 11);

	/* the hole timeout passes 12, whose part 1 never came */
	assert_int_equal(rxp(&w, 12, 11, 0, 10, &p0, &st), MP_WIN_NEW);
	assert_int_equal(mp_window_complete_part(&w, 12, 0, 0, &fin), 0);
	assert_int_equal(rx(&w, 13, 11, 11), MP_WIN_NEW);
	assert_int_equal(rx(&w, 14, 11, 11 + GAP), MP_WIN_NEW);
	assert_int_equal(mp_window_base(&w), 14);
	assert_true(w.skipped >= 1);
	assert_int_equal(rxp(&w, 12, 11, 0, 12 + GAP, &p1, &st), MP_WIN_OLD);

	/* malformed part descriptions are refused before the window */
	p1.part = 2;
	assert_int_equal(rxp(&w, 15, 14, 0, 13 + GAP, &p1, &st),
			 MP_WIN_FORGED);
	p1 = wpart(0x3000, MP_ETH_READ_PARTS + 1, 0);
	assert_int_equal(rxp(&w, 15, 14, 0, 13 + GAP, &p1, &st),
			 MP_WIN_FORGED);
	assert_int_equal(rxp(&w, 15, 14, 0, 13 + GAP, NULL, &st),
			 MP_WIN_FORGED);
	assert_int_equal(mp_window_base(&w), 14);
}

/*
 * Under the key: the parts of an SN follow what its first part followed,
 * the request of the same residue before it; a part captured an SN cycle
 * ago is a replay even while its SN's write is begun.
 */
static void test_write_parts_replay(void **state)
{
	struct mp_window_part p0 = wpart(0x4000, 3, 0), p1 = wpart(0x4000, 3, 1);
	struct mp_window_part p2 = wpart(0x4000, 3, 2);
	struct mp_window w;
	int st, fin;

	mp_window_init(&w, 100);
	assert_int_equal(mp_window_check_stamped(&w, 100, 99, 1000, 0, NULL),
			 MP_WIN_NEW);
	assert_int_equal(mp_window_complete(&w, 100, 0), 0);
	/* 164 shares 100's slot: its parts must be stamped after 1000 */
	assert_int_equal(rxp(&w, 164, 100, 2000, 1, &p0, &st), MP_WIN_NEW);
	assert_int_equal(mp_window_complete_part(&w, 164, 0, 0, &fin), 0);
	assert_int_equal(rxp(&w, 164, 100, 900, 2, &p1, &st), MP_WIN_REPLAY);
	assert_int_equal(rxp(&w, 164, 100, 1000, 2, &p1, &st), MP_WIN_REPLAY);
	/* reordered: a later part stamped before the first one arrived */
	assert_int_equal(rxp(&w, 164, 100, 1500, 3, &p1, &st), MP_WIN_PART);
	assert_int_equal(mp_window_complete_part(&w, 164, 1, 0, &fin), 0);
	assert_int_equal(rxp(&w, 164, 100, 2500, 4, &p2, &st), MP_WIN_PART);
	assert_int_equal(mp_window_complete_part(&w, 164, 2, 0, &fin), 1);
	/* 228 follows 164's newest part */
	assert_int_equal(mp_window_check_stamped(&w, 228, 164, 2400, 5, NULL),
			 MP_WIN_REPLAY);
	assert_int_equal(mp_window_check_stamped(&w, 228, 164, 2600, 5, NULL),
			 MP_WIN_NEW);
}

static void test_windows_1024(void **state)
{
	static struct mp_window w[1024];
	unsigned int i, k;

	for (i = 0; i < 1024; i++)
		mp_window_init(&w[i], (u16)(i * 97));
	for (k = 0; k < 8; k++)
		for (i = 0; i < 1024; i++)
			if (i != 700 || k != 3)
				assert_int_equal(rx(&w[i], (u16)(i * 97 + k), NA, k),
						 MP_WIN_NEW);
	for (i = 0; i < 1024; i++) {
		assert_int_equal(mp_window_base(&w[i]),
				 (u16)(i * 97 + (i == 700 ? 2 : 7)));
		assert_int_equal(rx(&w[i], (u16)(i * 97 + 5), NA, 8), MP_WIN_DUP);
		assert_int_equal(mp_window_expire(&w[i], 7 + GAP),
				 i == 700 ? 1 : 0);
		assert_int_equal(mp_window_base(&w[i]), (u16)(i * 97 + 7));
		assert_true(w[i].skipped == (i == 700));
	}
	/* the lost one's late copy is not executed; nobody else's changed */
	assert_int_equal(rx(&w[700], (u16)(700 * 97 + 3), NA, 9), MP_WIN_OLD);
	assert_int_equal(rx(&w[701], (u16)(701 * 97 + 8), NA, 9), MP_WIN_NEW);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sn_arith),
		cmocka_unit_test(test_seqmap),
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_wraparound),
		cmocka_unit_test(test_duplicates_in_window),
		cmocka_unit_test(test_duplicates_outside_window),
		cmocka_unit_test(test_slot_reuse),
		cmocka_unit_test(test_write_after_write),
		cmocka_unit_test(test_overflow_resync),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_ack),
		cmocka_unit_test(test_unsynced_no_ack),
		cmocka_unit_test(test_replay_after_wrap),
		cmocka_unit_test(test_windows_1024),
		cmocka_unit_test(test_write_parts),
		cmocka_unit_test(test_write_parts_stale),
		cmocka_unit_test(test_write_parts_replay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
