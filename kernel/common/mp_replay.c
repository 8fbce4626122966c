// SPDX-License-Identifier: GPL-2.0
/*
 * Freshness of frames under the pool key (pure logic, shared with
 * userspace tests). See mp_replay.h.
 *
 * The sender table is small and scanned linearly: control frames come a
 * few per second per member, and only senders that hold the key can get
 * a frame this far (the tag is checked first). When it is full, the
 * sender heard from longest ago makes room; its captured frames are then
 * refused by the window alone, as a sender never seen before is.
 */
#include "mp_replay.h"
#include "mp_bytes.h"

void mp_replay_init(struct mp_replay *r, u64 window)
{
	memset(r, 0, sizeof(*r));
	r->window = window;
}

bool mp_replay_fresh(u64 window, u64 stamp, u64 now)
{
	if (!window)
		return true;
	return stamp <= now ? now - stamp <= window : stamp - now <= window;
}

static struct mp_replay_sender *sender(struct mp_replay *r, const u8 *mac)
{
	struct mp_replay_sender *s, *free = NULL, *oldest = NULL;
	unsigned int i;

	for (i = 0; i < MP_REPLAY_SENDERS; i++) {
		s = &r->s[i];
		if (!s->used) {
			if (!free)
				free = s;
			continue;
		}
		if (!memcmp(s->mac, mac, sizeof(s->mac)))
			return s;
		if (!oldest || s->last < oldest->last)
			oldest = s;
	}
	s = free;
	if (!s) {
		s = oldest;
		r->evicted++;
	}
	memcpy(s->mac, mac, sizeof(s->mac));
	s->used = true;
	s->last = 0;
	return s;
}

enum mp_replay_verdict mp_replay_check(struct mp_replay *r, const u8 *mac,
				       u64 stamp, u64 now, bool control)
{
	struct mp_replay_sender *s;

	if (!r->window)
		return MP_REPLAY_OK;
	if (!mp_replay_fresh(r->window, stamp, now))
		return MP_REPLAY_STALE;
	if (!control)
		return MP_REPLAY_OK;
	s = sender(r, mac);
	if (stamp <= s->last)
		return MP_REPLAY_SEEN;
	s->last = stamp;
	return MP_REPLAY_OK;
}
