// SPDX-License-Identifier: GPL-2.0
/*
 * Responder receive window of the mp_eth transport (pure logic, shared with
 * userspace tests and the fuzzer).
 *
 * Invariants: bit 0 of rx.bits is never set between calls (a received
 * base + 1 moves the base at once), so whenever rx.bits is non-zero
 * base + 1 is a hole and stall_since is the time that hole became the
 * oldest one. Only a request in (base, base + 64] whose bit is clear, or
 * the request that triggers a resync, is ever executed; everything at or
 * behind the base is at most answered again from the cache. That is what
 * keeps a duplicate write from being applied twice.
 *
 * A write in parts is received when its last part is: until then its SN
 * is a hole whose slot (MP_WSLOT_PARTIAL) says which parts were executed,
 * so that each is executed once, and only while the SN is ahead of the
 * base; once the base passed it (the requester gave up, or the hole
 * timed out) a late part is as old as any request behind the base.
 */
#include <linux/mp_eth.h>

#include "mp_window.h"
#include "mp_bytes.h"

static_assert(MP_WINDOW_SIZE == MP_ETH_WINDOW, "window size");
static_assert(MP_WINDOW_SIZE == MP_SEQMAP_SIZE, "window size");
static_assert((MP_WINDOW_CACHE & (MP_WINDOW_CACHE - 1)) == 0,
	      "slots are indexed by sn modulo a power of two");
/* The slot of sn holds sn - 64 until sn is executed: the replay rule. */
static_assert(MP_WINDOW_CACHE == MP_WINDOW_SIZE, "one slot per window SN");
/* the parts of a write are the bits of a slot's parts */
static_assert(MP_ETH_READ_PARTS >= 1 && MP_ETH_READ_PARTS <= 16, "parts");

static void window_clear(struct mp_window *w, u16 base)
{
	mp_seqmap_init(&w->rx, base);
	w->overflow = 0;
	w->stall_since = 0;
	memset(w->cache, 0, sizeof(w->cache));
}

void mp_window_init(struct mp_window *w, u16 first_sn)
{
	memset(w, 0, sizeof(*w));
	w->gap_timeout = MP_WINDOW_GAP_TIMEOUT;
	w->resync_thresh = MP_WINDOW_RESYNC;
	window_clear(w, (u16)(first_sn - 1));
	w->synced = true;
}

void mp_window_reset(struct mp_window *w)
{
	window_clear(w, 0);
	w->synced = false;
}

/* An ack is usable only as the requester promises: 1 <= sn - ack <= 64. */
static bool ack_usable(u16 sn, int ack)
{
	u16 span;

	if (ack < 0 || ack > 0xffff)
		return false;
	span = (u16)(sn - (u16)ack);
	return span >= 1 && span <= MP_WINDOW_SIZE;
}

/*
 * The base moved (by arrival, ack or timeout) or a first hole opened: the
 * oldest hole, if any, starts ageing now. Restarting the clock when the base
 * moves is conservative: a later hole is never skipped earlier than
 * gap_timeout after it became the oldest.
 */
static void note_hole(struct mp_window *w, bool restart, u64 now)
{
	if (w->rx.bits && restart)
		w->stall_since = now;
}

unsigned int mp_window_expire(struct mp_window *w, u64 now)
{
	unsigned int n;

	if (!w->synced || !w->rx.bits)
		return 0;
	if (now < w->stall_since || now - w->stall_since < w->gap_timeout)
		return 0;
	/* Skip the run of holes after the base, then what arrived after it. */
	n = mp_ctz64(w->rx.bits);
	mp_seqmap_shift(&w->rx, n);
	mp_seqmap_advance(&w->rx);
	note_hole(w, true, now);
	w->skipped += n;
	return n;
}

/* The requester finished everything up to ack: forget holes up to there. */
static void apply_ack(struct mp_window *w, u16 ack, u64 now)
{
	s32 d = mp_sn_diff(ack, w->rx.base);

	if (d <= 0)
		return;
	w->skipped += mp_seqmap_shift(&w->rx, (unsigned int)d);
	mp_seqmap_advance(&w->rx);
	note_hole(w, true, now);
}

/* sn at pos is received: executed, or all of its parts are. */
static void receive(struct mp_window *w, s32 pos, u64 now)
{
	bool had_holes = w->rx.bits != 0;
	unsigned int moved;

	moved = mp_seqmap_mark(&w->rx, pos);
	note_hole(w, moved || !had_holes, now);
}

/* Bitmap of all parts of a write in nr parts. */
static u16 all_parts(unsigned int nr)
{
	return (u16)((1U << nr) - 1);
}

/*
 * Record a request (p NULL) or the first part of a write in parts (p)
 * about to be executed; pos is its place in the map.
 */
static void accept(struct mp_window *w, u16 sn, s32 pos, u64 stamp, u64 now,
		   const struct mp_window_part *p)
{
	struct mp_window_slot *s = &w->cache[mp_window_slot(sn)];

	/* what stamp_follows() held it to, for the parts that follow */
	s->prev_stamp = s->state != MP_WSLOT_EMPTY &&
			mp_sn_before(s->sn, sn) ? s->stamp : 0;
	s->sn = sn;
	s->status = 0;
	s->stamp = stamp;
	s->offset = p ? p->offset : 0;
	s->len = p ? p->len : 0;
	s->stride = p ? p->stride : 0;
	s->nr_parts = p ? p->nr_parts : 1;
	s->parts = p ? (u16)(1U << p->part) : 1;
	s->state = MP_WSLOT_PARTIAL;
	w->overflow = 0;
	if (s->parts == all_parts(s->nr_parts)) {
		s->state = MP_WSLOT_PENDING;
		receive(w, pos, now);
	}
}

/*
 * A further part p of write sn, whose slot is PARTIAL: execute it unless
 * it was before, or it is not a part of the same write.
 */
static enum mp_window_verdict add_part(struct mp_window *w, u16 sn, s32 pos,
				       u64 stamp, u64 now,
				       const struct mp_window_part *p)
{
	struct mp_window_slot *s = &w->cache[mp_window_slot(sn)];
	u16 bit;

	w->overflow = 0;
	if (!p || p->offset != s->offset || p->len != s->len ||
	    p->stride != s->stride || p->nr_parts != s->nr_parts)
		return MP_WIN_FORGED;
	bit = (u16)(1U << p->part);
	if (s->parts & bit)
		return MP_WIN_BUSY;
	s->parts |= bit;
	if (stamp > s->stamp)
		s->stamp = stamp;
	if (s->parts == all_parts(s->nr_parts)) {
		s->state = MP_WSLOT_PENDING;
		receive(w, pos, now);
	}
	return MP_WIN_PART;
}

/*
 * Is stamped request sn younger than what its slot holds? Its sender
 * handed out sn only after it had finished sn - 64 (the 64-SN
 * flow-control limit), by a response to a copy we executed or by giving
 * up on it, so after it had stamped every copy of sn - 64; the same holds
 * for sn - 64 against sn - 128, and so on. The slot holds the last SN of
 * sn's residue we executed; when that is one before sn, a copy of sn
 * stamped no later than it was sent before sn existed: a copy of an
 * earlier sn of the same value, replayed after the 16-bit SNs came round.
 */
static bool stamp_follows(const struct mp_window *w, u16 sn, u64 stamp)
{
	const struct mp_window_slot *s = &w->cache[mp_window_slot(sn)];

	/* a part of a write begun: it follows what its first part did */
	if (s->sn == sn && s->state == MP_WSLOT_PARTIAL)
		return !stamp || !s->prev_stamp || stamp > s->prev_stamp;
	if (!stamp || !s->stamp || s->state == MP_WSLOT_EMPTY ||
	    !mp_sn_before(s->sn, sn))
		return true;
	return stamp > s->stamp;
}

/* sn was executed before: answer from the cache, or wait for the answer. */
static enum mp_window_verdict cached(struct mp_window *w, u16 sn,
				     int *status, enum mp_window_verdict miss)
{
	const struct mp_window_slot *s = &w->cache[mp_window_slot(sn)];

	/* a write whose parts never all came is not answered */
	if (s->sn != sn || s->state == MP_WSLOT_EMPTY ||
	    s->state == MP_WSLOT_PARTIAL)
		return miss;
	w->overflow = 0;
	if (s->state == MP_WSLOT_PENDING)
		return MP_WIN_BUSY;
	if (status)
		*status = s->status;
	return MP_WIN_DUP;
}

static enum mp_window_verdict check(struct mp_window *w, u16 sn, int ack,
				    u64 stamp, u64 now,
				    const struct mp_window_part *p, int *status)
{
	const struct mp_window_slot *s = &w->cache[mp_window_slot(sn)];
	bool has_ack = ack_usable(sn, ack);
	s32 pos;

	if (!w->synced) {
		window_clear(w, has_ack ? (u16)ack : (u16)(sn - 1));
		w->synced = true;
	}
	mp_window_expire(w, now);
	/* before its ack may move the base: a replay changes nothing */
	if (!stamp_follows(w, sn, stamp))
		return MP_WIN_REPLAY;
	if (has_ack)
		apply_ack(w, (u16)ack, now);

	pos = mp_seqmap_pos(&w->rx, sn);
	if (pos > MP_WINDOW_SIZE) {
		/*
		 * Paper rule: the overflow counter counts requests beyond
		 * base + 64; enough of them in a row mean the two ends lost
		 * each other's sequence (the requester restarted or skipped
		 * ahead), so the window re-bases on the newest SN. Requests
		 * between the old and the new base are never executed.
		 */
		if (++w->overflow < w->resync_thresh)
			return MP_WIN_BEYOND;
		window_clear(w, (u16)(sn - 1));
		accept(w, sn, 1, stamp, now, p);
		return MP_WIN_RESYNC;
	}
	if (pos >= 1) {
		/*
		 * In-window and received before: the slot still holds it,
		 * since sn + 64 cannot have been received while sn is
		 * ahead of the base. If not, drop rather than execute.
		 * Likewise for a write in parts begun and not received.
		 */
		if (mp_seqmap_test(&w->rx, pos))
			return cached(w, sn, status, MP_WIN_BUSY);
		if (s->sn == sn && s->state == MP_WSLOT_PARTIAL)
			return add_part(w, sn, pos, stamp, now, p);
		accept(w, sn, pos, stamp, now, p);
		return MP_WIN_NEW;
	}
	/*
	 * At or behind the base: executed, skipped by the timeout or finished
	 * by the requester. Never execute; answer again if the response of
	 * exactly this SN is still cached and recent.
	 */
	if (pos > -MP_WINDOW_CACHE)
		return cached(w, sn, status, MP_WIN_OLD);
	return MP_WIN_OLD;
}

enum mp_window_verdict mp_window_check_stamped(struct mp_window *w, u16 sn,
					       int ack, u64 stamp, u64 now,
					       int *status)
{
	return check(w, sn, ack, stamp, now, NULL, status);
}

enum mp_window_verdict mp_window_check_part(struct mp_window *w, u16 sn,
					    int ack, u64 stamp, u64 now,
					    const struct mp_window_part *p,
					    int *status)
{
	if (!p || !p->nr_parts || p->nr_parts > MP_ETH_READ_PARTS ||
	    p->part >= p->nr_parts)
		return MP_WIN_FORGED;
	return check(w, sn, ack, stamp, now, p, status);
}

int mp_window_complete(struct mp_window *w, u16 sn, int status)
{
	struct mp_window_slot *s = &w->cache[mp_window_slot(sn)];

	if (status > 0 || status < -MP_ETH_MAX_ERRNO)
		return -EINVAL;
	if (s->sn != sn || s->state != MP_WSLOT_PENDING)
		return -ENOENT;
	s->status = status;
	s->state = MP_WSLOT_DONE;
	return 0;
}

int mp_window_complete_part(struct mp_window *w, u16 sn, unsigned int part,
			    int status, int *final)
{
	struct mp_window_slot *s = &w->cache[mp_window_slot(sn)];

	if (status > 0 || status < -MP_ETH_MAX_ERRNO)
		return -EINVAL;
	if (s->sn != sn || part >= s->nr_parts ||
	    !(s->parts & (1U << part)) ||
	    (s->state != MP_WSLOT_PENDING && s->state != MP_WSLOT_PARTIAL))
		return -ENOENT;
	if (!s->status)
		s->status = status;
	if (s->state == MP_WSLOT_PARTIAL)
		return 0;
	s->state = MP_WSLOT_DONE;
	if (final)
		*final = s->status;
	return 1;
}
