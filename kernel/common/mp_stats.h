/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-peer counters of the mp_eth transport. Plain u64s: the kernel updates
 * them under the lock that already serialises the peer's window or the
 * RIFT, and readers take the same lock (or use u64_stats_sync around it).
 * Which return value of mp_frame/mp_window/mp_rift feeds which counter is
 * listed in Documentation/protocol.rst, "Counters".
 */
#ifndef _CMM_MP_COMMON_STATS_H
#define _CMM_MP_COMMON_STATS_H

#include "mp_types.h"

struct mp_peer_stats {
	u64 tx;			/* frames sent to the peer, retransmits included */
	u64 rx;			/* valid frames received from the peer */
	u64 retransmits;	/* requests sent again after a timeout */
	u64 duplicates;		/* requests seen again: DUP + BUSY verdicts */
	u64 out_of_window;	/* requests dropped as OLD or BEYOND */
	u64 stale_responses;	/* responses with no matching RIFT entry */
	u64 timeouts;		/* requests failed with -ETIMEDOUT */
	u64 naks;		/* NAKs received (requester) */
	u64 resyncs;		/* receive window re-based (RESYNC verdict) */
	u64 skipped;		/* SNs the window base passed unreceived */
	u64 fast_fails;		/* requests refused: peer unreachable */
	u64 malformed;		/* undecodable frames from its MAC */
	u64 refused;		/* accesses NAKed -EACCES (segment not ours) */
};

#endif /* _CMM_MP_COMMON_STATS_H */
