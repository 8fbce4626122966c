/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Freshness of frames under the pool key. Every tagged frame carries its
 * sender's stamp (struct mp_eth_auth: CLOCK_REALTIME in ns, strictly
 * increasing per sender) inside what the tag covers, so a host without
 * the key can replay a frame but not change its stamp. A receiver takes a
 * tagged frame only while its stamp is within the replay window of its own
 * clock, and a control frame only when it is also newer than every earlier
 * control frame of the same sender (source MAC, also under the tag):
 * discovery frames carry no sequence numbers, so without this a captured
 * frame of an older round, replayed, would restart a round. Data frames
 * have the receive window for that; the stamp bounds how long a capture
 * is worth replaying at all.
 *
 * No locking and no allocation inside: the caller serialises calls on
 * one struct mp_replay and supplies both clocks (the same unit as the
 * window; the defaults assume nanoseconds).
 */
#ifndef _CMM_MP_COMMON_REPLAY_H
#define _CMM_MP_COMMON_REPLAY_H

#include "mp_types.h"

#define MP_REPLAY_WINDOW	30000000000ULL	/* 30 s in ns */
#define MP_REPLAY_SENDERS	64		/* control senders remembered */

enum mp_replay_verdict {
	MP_REPLAY_OK,		/* fresh (and, for control, newer): take it */
	MP_REPLAY_STALE,	/* stamp outside the window of our clock */
	MP_REPLAY_SEEN,		/* control: not newer than its sender's last */
};

struct mp_replay_sender {
	u8 mac[6];
	bool used;
	u64 last;		/* newest stamp taken from this sender */
};

struct mp_replay {
	u64 window;		/* 0: stamps are not checked */
	u64 evicted;		/* senders forgotten to make room */
	struct mp_replay_sender s[MP_REPLAY_SENDERS];
};

void mp_replay_init(struct mp_replay *r, u64 window);

/* The stamp of the next frame a sender whose last stamp was @last sends. */
static inline u64 mp_replay_next(u64 last, u64 now)
{
	return now > last ? now : last + 1;
}

/* Is @stamp within @window of @now, either side? (window 0: always) */
bool mp_replay_fresh(u64 window, u64 stamp, u64 now);

/*
 * A tagged frame from @mac with @stamp arrived at @now; @control: a
 * discovery frame, which must also be newer than its sender's last one
 * (and becomes it).
 */
enum mp_replay_verdict mp_replay_check(struct mp_replay *r, const u8 *mac,
				       u64 stamp, u64 now, bool control);

#endif /* _CMM_MP_COMMON_REPLAY_H */
