/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Discovery and membership (CMM-MP section III-F), the decisions only:
 * rounds, who was heard, when a round ends, heartbeats and their timeouts,
 * proxy reports of lost members, duplicate chip ids and the pool map the
 * round forms. No clocks, locks, timers or buffers: the caller passes the
 * time (ns) and the frames it received, and sends what the calls ask for.
 * The kernel (kernel/mp_eth/discovery.c), the unit tests and the
 * simulator (tools/mpsim) run this same code. Documentation/pool.rst has
 * the state machine.
 */
#ifndef _CMM_MP_COMMON_DISC_H
#define _CMM_MP_COMMON_DISC_H

#include <linux/cmm_mp.h>

#include "mp_frame.h"
#include "mp_pamt.h"
#include "mp_types.h"

/*
 * Round numbers run 1..MP_DISC_MAX_ROUND (0 and larger ones are refused)
 * and are compared as serial numbers on that ring: after the largest
 * comes 1, and a round is newer than ours when it is less than half the
 * ring ahead. A frame with a forged huge round can make the devices
 * re-form, as any unauthenticated frame can, but cannot use the numbers
 * up and leave the pool unable to start another round.
 */
#define MP_DISC_MAX_ROUND	0x7fffffffU

static inline u32 mp_disc_next_round(u32 round)
{
	return round >= MP_DISC_MAX_ROUND ? 1 : round + 1;
}

/* > 0: round @a is newer than @b, 0: the same, < 0: older (both valid). */
static inline int mp_disc_round_cmp(u32 a, u32 b)
{
	u32 ahead = a >= b ? a - b : a + MP_DISC_MAX_ROUND - b;

	if (!ahead)
		return 0;
	return ahead <= MP_DISC_MAX_ROUND / 2 ? 1 : -1;
}

/* Silent members probed with one heartbeat, at most. */
#define MP_DISC_MAX_PROBES	4

/*
 * Heartbeats of a formed pool are unicast along the ranks: the member of
 * live rank r sends one to each live rank r + 2^j (mod M, 2^j < M), so it
 * sends and receives ceil(log2 M) per interval and the pool N log N, where
 * a broadcast to every member cost N^2 deliveries. dev_count is 16 bits:
 * at most 16 offsets.
 */
#define MP_DISC_MAX_FANOUT	16

/*
 * Ranked heartbeats reach only members, so two pools that formed apart
 * (a partition, or devices whose first round's frames were lost while
 * their links came up) would never hear each other, and a pool of one
 * sends nothing at all. The member of live rank 0 therefore broadcasts
 * every MP_DISC_BEACON_BEATS-th heartbeat: a device of another pool
 * hears a stranger and starts the round that merges them. It costs each
 * pool N deliveries every few intervals.
 */
#define MP_DISC_BEACON_BEATS	4

/* How a frame arrived (mp_disc_rcv()'s @how): sent to everyone ... */
#define MP_DISC_RX_BCAST	0x1u
/* ... and/or marked a heartbeat (MP_ETH_F_HB: unicast heartbeats) */
#define MP_DISC_RX_HB		0x2u

/**
 * struct mp_disc_params - timing of discovery (all in ns)
 * @interval: a round broadcasts DISCOVER this often
 * @window: a round lasts at least this long ...
 * @quiet: ... and until nothing new was heard for this long ...
 * @max: ... but never longer than this
 * @hb_interval: members broadcast a heartbeat this often
 * @hb_timeout: a member silent this long is lost (a new round starts)
 * @proxy_delay: a round speaks for a lost member only once it lasted this
 *	long without hearing it (nor a proxy report of it)
 */
struct mp_disc_params {
	u64 interval;
	u64 window;
	u64 quiet;
	u64 max;
	u64 hb_interval;
	u64 hb_timeout;
	u64 proxy_delay;
};

/**
 * struct mp_dmember - a device as discovery knows it
 * @chip_id: its chip id
 * @capacity: bytes it gives the pool
 * @mac: its backend port (the key: unique on the segment)
 * @mtu: its L2 MTU
 * @last_seen: when it was last heard itself (ns)
 * @lost: known to be in the pool but not heard itself
 */
struct mp_dmember {
	u64 chip_id;
	u64 capacity;
	u8 mac[6];
	u32 mtu;
	u64 last_seen;
	bool lost;
	bool discovering;	/* its own broadcast DISCOVER of the round heard */
};

/**
 * struct mp_disc - the discovery state of one device
 * @par: timing
 * @state: CMM_MP_POOL_DISCOVERY, _RUNTIME or _CONFLICT
 * @round: number of the current round = generation it forms
 * @need_close: a round started; the caller must close the data path
 * @round_start: when the round started
 * @last_change: when the round last heard something new
 * @last_tx: when we last broadcast
 * @announce: broadcast at the next tick, whatever @last_tx says
 * @why: why the current round started (a static string)
 * @self: this device
 * @heard: the devices of this round, in the order heard (and after a
 *	round ending in CONFLICT, whom we track); caller's storage
 * @nr_heard: entries of @heard
 * @max_heard: room in @heard
 * @hash: index of @heard by MAC: entry + 1, 0 is free; caller's storage
 * @hash_mask: entries of @hash - 1 (a power of two >= 2 * @max_heard)
 * @pool: the members of the last formed pool in device id order (= chip
 *	id order); caller's storage
 * @nr_pool: entries of @pool
 * @nr_lost: entries of @pool that are lost
 * @max_pool: room in @pool
 * @nr_live: members of the formed pool not lost
 * @rank: our place among them
 * @nr_to: entries of @hb_to
 * @hb_to: the pool entries we send heartbeats to (live ranks @rank + 2^j)
 * @nr_from: entries of @hb_from
 * @hb_from: the pool entries we watch (live ranks @rank - 2^j): those whose
 *	heartbeats we get, probed when silent, lost when silent too long
 * @view: digest of the formed pool (members, lost ones, generation), never
 *	0: carried by our heartbeats, compared with theirs
 * @beats: heartbeats sent since the pool formed (MP_DISC_BEACON_BEATS)
 */
struct mp_disc {
	struct mp_disc_params par;
	u32 state;
	u32 round;
	bool need_close;
	u64 round_start;
	u64 last_change;
	u64 last_tx;
	bool announce;
	bool fresh;		/* no round concluded since the start */
	const char *why;
	struct mp_dmember self;
	struct mp_dmember *heard;
	u32 nr_heard;
	u32 max_heard;
	u32 *hash;
	u32 hash_mask;
	struct mp_dmember *pool;
	u32 nr_pool;
	u32 nr_lost;
	u32 max_pool;
	u32 nr_live;
	u32 rank;
	u32 nr_to;
	u32 hb_to[MP_DISC_MAX_FANOUT];
	u32 nr_from;
	u32 hb_from[MP_DISC_MAX_FANOUT];
	u64 view;
	u32 beats;
};

/**
 * struct mp_disc_tx - what to send after mp_disc_rcv() or mp_disc_tick()
 * @send: broadcast one frame of @op about ourselves
 * @nr_hb: a formed pool's heartbeat: send a DISCOVER_ACK about ourselves
 *	marked MP_ETH_F_HB to each of the @nr_hb MACs of @hb_mac
 * @hb_mac: where the heartbeats go
 * @view: what they carry in the header's offset (struct mp_disc @view)
 * @op: MP_ETH_OP_DISCOVER, or MP_ETH_OP_DISCOVER_ACK (a heartbeat)
 * @reply: send a DISCOVER_ACK about ourselves to the frame's sender
 * @kick: the state changed: call mp_disc_tick() soon
 * @close: a round started: close the data path (@why says why)
 * @why: why the round started
 * @finish: the round ended: @nr_out members are in the caller's buffer,
 *	conclude them with mp_disc_conclude()
 * @nr_out: entries written to the outcome buffer
 * @silent: a member went silent (@gone): it started the new round
 * @gone: that member
 * @nr_proxy: lost members to report (broadcast DISCOVER_ACKs about them),
 *	written to the caller's proxy buffer
 * @nr_probe: members silent for a while, written to the caller's proxy
 *	buffer: send each a DISCOVER (about ourselves, dev_count 1)
 * @round: the round all of this belongs to
 * @dev_count: what the frames to send carry in dev_count
 * @self: ourselves, for the frames
 */
struct mp_disc_tx {
	bool send;
	u8 op;
	u32 nr_hb;
	u8 hb_mac[MP_DISC_MAX_FANOUT][6];
	u64 view;
	bool reply;
	bool kick;
	bool close;
	const char *why;
	bool finish;
	u32 nr_out;
	bool silent;
	struct mp_dmember gone;
	u32 nr_proxy;
	u32 nr_probe;
	u32 round;
	u16 dev_count;
	struct mp_dmember self;
};

int mp_disc_init(struct mp_disc *d, const struct mp_disc_params *par,
		 const struct mp_dmember *self, struct mp_dmember *heard,
		 u32 max_heard, u32 *hash, u32 hash_size,
		 struct mp_dmember *pool, u32 max_pool, u64 now);
u32 mp_disc_count(const struct mp_disc *d);
void mp_disc_payload(const struct mp_dmember *who, u32 round, u16 dev_count,
		     struct mp_discover *p);
int mp_disc_rcv(struct mp_disc *d, u8 op, const u8 *src_mac, u32 how, u64 view,
		u32 round, const struct mp_discover *p, u64 now,
		struct mp_disc_tx *tx);
void mp_disc_tick(struct mp_disc *d, u64 now, struct mp_dmember *out,
		  u32 max_out, struct mp_dmember *proxy, u32 max_proxy,
		  struct mp_disc_tx *tx);
void mp_disc_data_seen(struct mp_disc *d, u64 chip_id, const u8 *mac,
		       u64 when);
int mp_disc_conclude(struct mp_dmember *v, u32 n, u64 seg_size, u32 round,
		     u64 self_chip, struct mp_pamt *t, u32 *lost);
bool mp_disc_commit(struct mp_disc *d, const struct mp_dmember *v, u32 n,
		    u32 round, u64 now);
void mp_disc_conflict(struct mp_disc *d, u32 round, u64 now);

#endif /* _CMM_MP_COMMON_DISC_H */
