// SPDX-License-Identifier: GPL-2.0
/*
 * Ownership commands replayed across the 16-bit sequence-number wrap, under
 * the pool key (issue 22, items 3 and 4; Documentation/security.rst). The
 * real pure-C code of both ends, as mp_eth runs it: the requester's RIFT
 * and its response check (mp_rift_match_response()), the responder's
 * freshness check of a tagged frame (mp_replay_fresh()) and its receive
 * window with the response cache (mp_window_check_stamped(),
 * mp_window_complete()); frames are encoded and decoded by mp_frame.c as
 * they go over the wire, the trailer's stamp and bind word beside them as
 * the key's tag would carry them (a verbatim replay keeps its tag valid).
 * The responder's pool device is a model of mp_local_own(): one segment,
 * its owner, and a count of the commands it executed.
 *
 * A (device 0) claims segment 3 of B (device 1) and releases it; C
 * captured both requests and both responses. Asserted: replayed right
 * after the release (the worst order: before A sent B anything newer),
 * both are answered from the cache and executed nowhere; after another
 * member took the segment and A's SNs ran a whole cycle (65,536 requests
 * and more) until the captured SNs are ahead of B's window again, the
 * replayed CLAIM and RELEASE are refused by their stamps, before and
 * before A's own new request of the same SN, and never executed; and A
 * refuses the captured CLAIM response while its new CLAIM with the same
 * tag, SN, opcode and segment is in flight (the nonce), taking B's real
 * answer instead; a replay after that is a duplicate of A's new CLAIM,
 * answered from the cache.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mp_frame.h"
#include "mp_replay.h"
#include "mp_rift.h"
#include "mp_window.h"
#include "util/util.h"

#define A		0
#define B		1
#define OTHER		2	/* a third member, owner after A */
#define SEG		3
#define NENT		8
#define MAX_PAYLOAD	1444
#define US		1000ULL
#define START		1000000000000ULL	/* both clocks, in ns */

/* A frame as it went over the wire: header bytes and trailer fields. */
struct wire {
	u8 hdr[MP_ETH_HDR_LEN + MP_ETH_OWN_LEN];
	size_t len;
	u64 stamp;
	u32 bind;
};

static struct {
	u64 now;			/* both hosts' clock */
	u64 stamp;			/* A's last stamp */
	u32 nonce;			/* A's nonce source */
	struct mp_rift rift;		/* A's requests to B */
	struct mp_rift_entry ent[NENT];
	struct mp_rift_peer peer[2];
	struct mp_window win;		/* B's window of A */
	struct mp_replay replay;	/* B's freshness check */
	u16 owner;			/* B's segment SEG */
	unsigned int executed;		/* ownership commands B ran */
	unsigned int reads;		/* reads B ran */
	unsigned int refused;		/* B: dropped by the window or stamp */
} m;

static void setup_pool(u16 start_sn)
{
	memset(&m, 0, sizeof(m));
	m.now = START;
	m.owner = MP_ETH_DEV_ANY;
	m.nonce = 0x1234567;
	assert_int_equal(mp_rift_init(&m.rift, NULL, m.ent, NENT, m.peer, 2,
				      start_sn), 0);
	mp_window_init(&m.win, start_sn);
	mp_replay_init(&m.replay, MP_REPLAY_WINDOW);
}

/* B's pool device: mp_local_own() for one segment, pooling mode. */
static int own_exec(u32 cmd, u16 src)
{
	m.executed++;
	switch (cmd) {
	case MP_ETH_OWN_CLAIM:
		if (m.owner != MP_ETH_DEV_ANY && m.owner != src)
			return -EBUSY;
		m.owner = src;
		return 0;
	case MP_ETH_OWN_RELEASE:
		if (m.owner != src)
			return -EPERM;
		m.owner = MP_ETH_DEV_ANY;
		return 0;
	}
	return -EINVAL;
}

static void wire_put(const struct mp_frame *f, u64 stamp, struct wire *w)
{
	int n = mp_frame_encode(f, MAX_PAYLOAD, w->hdr, sizeof(w->hdr));

	assert_int_equal(n, MP_ETH_HDR_LEN);
	w->len = MP_ETH_HDR_LEN + mp_frame_payload_len(f);
	memset(w->hdr + n, 0, w->len - n);
	w->stamp = stamp;
	w->bind = f->bind;
}

static void wire_get(const struct wire *w, struct mp_frame *f)
{
	/* the decoder checks that the trailer's bytes are there */
	u8 buf[sizeof(w->hdr) + MP_ETH_AUTH_LEN] = { 0 };

	memcpy(buf, w->hdr, w->len);
	assert_int_equal(mp_frame_decode(buf, w->len + MP_ETH_AUTH_LEN,
					 MAX_PAYLOAD, f), 0);
	f->bind = w->bind;
}

/* The header of a captured frame, as C reads it. */
static struct mp_frame wire_hdr(const struct wire *w)
{
	struct mp_frame f;

	wire_get(w, &f);
	return f;
}

/* A sends a new request: RIFT entry, nonce, stamp. Returns its entry. */
static struct mp_rift_entry *a_send(u8 op, u64 offset, u32 len,
				    struct wire *out)
{
	struct mp_rift_entry *e;
	struct mp_frame f = { 0 };

	m.now += 10 * US;
	assert_int_equal(mp_rift_alloc(&m.rift, B, m.now, NULL, &e), 0);
	e->op = op;
	e->offset = offset;
	e->len = len;
	m.nonce = m.nonce * 1103515245u + 12345u;
	e->nonce = m.nonce;
	f.op = op;
	f.flags = MP_ETH_F_ACK | MP_ETH_F_AUTH;
	f.src = A;
	f.dst = B;
	f.gen = 1;
	f.sn = e->sn;
	f.tag = e->tag;
	f.ack = mp_rift_ack(&m.rift, B);
	f.offset = offset;
	f.len = len;
	f.bind = e->nonce;
	m.stamp = mp_replay_next(m.stamp, m.now);
	wire_put(&f, m.stamp, out);
	return e;
}

/*
 * B receives a request (mp_eth's auth.c, then responder.c): a stale stamp
 * or a window verdict other than NEW, RESYNC and DUP is dropped (false);
 * else *resp is the response, from the cache for a DUP.
 */
static bool b_receive(const struct wire *req, struct wire *resp)
{
	enum mp_window_verdict v;
	struct mp_frame f, r;
	int cached = 0, status;

	m.now += 10 * US;
	wire_get(req, &f);
	if (!mp_replay_fresh(m.replay.window, req->stamp, m.now)) {
		m.refused++;
		return false;
	}
	v = mp_window_check_stamped(&m.win, f.sn, f.ack, req->stamp, m.now,
				    &cached);
	switch (v) {
	case MP_WIN_NEW:
	case MP_WIN_RESYNC:
		if (f.op == MP_ETH_OP_OWN_REQ) {
			cached = own_exec(f.offset >> 32, f.src);
		} else {
			m.reads++;
			cached = 0;
		}
		assert_int_equal(mp_window_complete(&m.win, f.sn, cached), 0);
		break;
	case MP_WIN_DUP:
		break;
	default:
		m.refused++;
		return false;
	}
	/* the verdict travels in the payload, the frame's status is 0 */
	status = f.op == MP_ETH_OP_OWN_REQ ? 0 : cached;
	assert_int_equal(mp_frame_reply(&f, status, &r), 0);
	r.flags |= MP_ETH_F_AUTH;
	wire_put(&r, req->stamp + 1, resp);
	if (f.op == MP_ETH_OP_OWN_REQ)
		memcpy(resp->hdr + MP_ETH_HDR_LEN, &cached, sizeof(cached));
	return true;
}

/*
 * A receives a response: 0 and the verdict it carries in *verdict when it
 * answers the request in flight (which is then finished), else the
 * mismatch.
 */
static int a_receive(const struct wire *resp, int *verdict)
{
	struct mp_rift_entry *e;
	struct mp_frame f;
	int ret;

	m.now += 10 * US;
	wire_get(resp, &f);
	ret = mp_rift_match_response(&m.rift, &f, &e);
	if (ret)
		return ret;
	mp_rift_answered(&m.rift, e, m.now, false);
	mp_rift_free(&m.rift, e);
	if (verdict)
		memcpy(verdict, resp->hdr + MP_ETH_HDR_LEN, sizeof(*verdict));
	return 0;
}

/* A runs an ownership command to its end; *req and *resp: what C saw. */
static int a_own(u32 cmd, struct wire *req, struct wire *resp)
{
	int verdict = -1;

	a_send(MP_ETH_OP_OWN_REQ, MP_ETH_OWN_OFF(cmd, SEG), MP_ETH_OWN_LEN,
	       req);
	assert_true(b_receive(req, resp));
	assert_int_equal(a_receive(resp, &verdict), 0);
	return verdict;
}

/* A reads 8 bytes of B's DRAM: one SN used and finished. */
static void a_read(void)
{
	struct wire req, resp;

	a_send(MP_ETH_OP_READ_REQ, 4096, 8, &req);
	assert_true(b_receive(&req, &resp));
	assert_int_equal(a_receive(&resp, NULL), 0);
}

static void check_replay_across_wrap(u16 start_sn)
{
	struct wire claim, claim_resp, release, release_resp, dup, req, resp;
	unsigned int executed, n = 0;
	int verdict = -1;
	u16 sn0, tag0;

	setup_pool(start_sn);
	assert_int_equal(a_own(MP_ETH_OWN_CLAIM, &claim, &claim_resp), 0);
	assert_int_equal(m.owner, A);
	assert_int_equal(a_own(MP_ETH_OWN_RELEASE, &release, &release_resp),
			 0);
	assert_int_equal(m.owner, MP_ETH_DEV_ANY);
	assert_int_equal(m.executed, 2);
	sn0 = wire_hdr(&claim).sn;
	tag0 = wire_hdr(&claim).tag;
	assert_int_equal(sn0, start_sn);

	/*
	 * The worst order: replayed right after the release, before A sent
	 * B anything newer. Both are duplicates of executed SNs, answered
	 * from the cache: the CLAIM's cached "granted" does not grant it
	 * again, the segment stays free.
	 */
	assert_true(b_receive(&claim, &dup));
	assert_true(b_receive(&release, &dup));
	assert_int_equal(m.executed, 2);
	assert_int_equal(m.owner, MP_ETH_DEV_ANY);
	/* A, which finished both, takes neither answer */
	assert_int_not_equal(a_receive(&claim_resp, NULL), 0);
	assert_int_not_equal(a_receive(&release_resp, NULL), 0);

	/* another member claims the segment (through its own window) */
	m.owner = OTHER;

	/*
	 * A's SNs run a whole cycle on, to just before the captured ones:
	 * 65,536 SNs from the CLAIM's to the next use of its SN
	 */
	do {
		a_read();
		n++;
	} while (m.rift.peer[B].next_sn != sn0);
	assert_int_equal(n + 2, 0x10000);
	assert_int_equal(m.reads, n);
	/* their SNs are ahead of B's window again: only the stamps tell */
	assert_int_equal((u16)(mp_window_base(&m.win) + 1), sn0);
	assert_true(mp_replay_fresh(m.replay.window, claim.stamp, m.now));

	executed = m.executed;
	assert_false(b_receive(&claim, &dup));
	assert_false(b_receive(&release, &dup));
	assert_int_equal(m.executed, executed);
	assert_int_equal(m.owner, OTHER);
	/* refused as replays, they moved nothing: the window still waits */
	assert_int_equal((u16)(mp_window_base(&m.win) + 1), sn0);

	/*
	 * A claims the segment again: the same tag, SN, opcode and segment
	 * as the captured CLAIM, a new nonce. The captured "granted"
	 * answer, delivered first, is refused by its nonce; B's real one,
	 * "busy", is taken.
	 */
	a_send(MP_ETH_OP_OWN_REQ, MP_ETH_OWN_OFF(MP_ETH_OWN_CLAIM, SEG),
	       MP_ETH_OWN_LEN, &req);
	assert_int_equal(wire_hdr(&req).sn, sn0);
	assert_int_equal(wire_hdr(&req).tag, tag0);
	assert_int_equal(wire_hdr(&req).offset, wire_hdr(&claim).offset);
	assert_int_not_equal(req.bind, claim.bind);
	assert_int_equal(a_receive(&claim_resp, NULL), -EKEYREJECTED);
	assert_true(b_receive(&req, &resp));
	assert_int_equal(m.executed, executed + 1);
	assert_int_equal(a_receive(&resp, &verdict), 0);
	assert_int_equal(verdict, -EBUSY);
	assert_int_equal(m.owner, OTHER);

	/*
	 * Replayed once more, now that B executed A's new request of its
	 * SN: a duplicate of that one, answered from the cache ("busy"),
	 * executed nowhere; and A, whose CLAIM finished, takes no answer.
	 */
	assert_true(b_receive(&claim, &dup));
	memcpy(&verdict, dup.hdr + MP_ETH_HDR_LEN, sizeof(verdict));
	assert_int_equal(verdict, -EBUSY);
	assert_int_not_equal(a_receive(&dup, NULL), 0);
	assert_int_equal(m.executed, executed + 1);
	assert_int_equal(m.owner, OTHER);
	/* the only requests B dropped: the two replays after the wrap */
	assert_int_equal(m.refused, 2);
}

/* Any start: the captured SNs in the middle of a cycle. */
static void test_replay_mid_cycle(void **state)
{
	check_replay_across_wrap(1000);
}

/* The wrap itself between CLAIM and RELEASE: 0xffff, then 0. */
static void test_replay_at_wrap(void **state)
{
	check_replay_across_wrap(0xffff);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_mid_cycle),
		cmocka_unit_test(test_replay_at_wrap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
