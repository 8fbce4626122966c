/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mp_eth: internal interfaces of the raw-Ethernet transport.
 *
 * Locking (nothing in kernel/common locks or allocates):
 *  - the membership (struct mpe_memb: our device id, the MAC table, the
 *    generation) is read under RCU and replaced whole under memb_mutex
 *    (discovery.c); the data path only runs while it says "running";
 *  - mpe_disc.lock: discovery's member tables (discovery.c);
 *  - mpe_rq.lock (one per destination): its RIFT, the counters of the
 *    transfers to it (struct mpe_xfer), its requester counters and its
 *    retransmission timer;
 *  - mpe_peer.lock: that peer's receive window and responder counters;
 *  - the pool device's mem_lock (cmm_mp) around each copy of a frame.
 * No two of them are held together, except mem_lock inside a peer lock
 * (the responder). They are taken with _bh from process context;
 * receive and the timers run in softirq.
 */
#ifndef _MP_ETH_H
#define _MP_ETH_H

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/interrupt.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/siphash.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <linux/wait.h>

#include "mp_frame.h"
#include "mp_pamt.h"
#include "mp_replay.h"
#include "mp_rift.h"
#include "mp_stats.h"
#include "mp_window.h"

/*
 * The largest pool by default (module parameter max_devs): as many devices
 * as a pool map holds. Nothing is sized by it but an array of pointers and
 * discovery's tables: a peer's transport state (RIFT, receive window,
 * counters) is allocated when a membership first has its device id.
 */
#define MPE_MAX_DEVS_DEFAULT	MP_PAMT_MAX_DEVS

/**
 * struct mpe_config - who we are and how to reach the others
 * @netdev: backend port
 * @devid: this device's id (its rank in the pool)
 * @nr_devs: entries in @mac, ours included
 * @max_devs: the largest pool (peers= entries, discovery's tables)
 * @mac: MAC table indexed by device id (peers=, @nr_devs entries)
 * @etype_data: EtherType of requests and responses
 * @etype_ctrl: EtherType of discovery and membership
 * @gen: pool membership generation
 * @start_sn: first sequence number towards every peer
 * @mtu: L2 payload limit (0: the port's MTU)
 * @entries: RIFT size per destination (at most its window, 64)
 * @rift: timeouts and retries
 * @gap_timeout: responder hole timeout, above mp_rift_fail_time()
 * @poll_ns: a transfer busy-polls for its responses until none came for
 *	this long, then sleeps (0: sleeps at once); it polls the port's
 *	receive queue itself (NAPI busy polling) once a response named it
 * @discovery: no static table (@mac, @devid, @nr_devs, @gen unused):
 *	discovery finds the members (discovery.c)
 * @disc_interval: a discovery round broadcasts DISCOVER this often
 * @disc_window: a round lasts at least this long ...
 * @disc_quiet: ... and until nothing new was heard for this long ...
 * @disc_max: ... but never longer than this
 * @hb_interval: members broadcast a heartbeat this often
 * @hb_timeout: a member silent this long is lost (a new round starts)
 *
 * Filled from module parameters. With a static table (peers=) it is the
 * membership for good; with discovery, rounds replace struct mpe_memb.
 */
struct mpe_config {
	char netdev[IFNAMSIZ];
	u16 devid;
	u16 nr_devs;
	u32 max_devs;
	u8 (*mac)[ETH_ALEN];
	u16 etype_data;
	u16 etype_ctrl;
	u32 gen;
	u16 start_sn;
	u32 mtu;
	u32 entries;
	u32 window_frames;		/* mp_rift_set_max_parts(); 0: sized */
	struct mp_rift_params rift;
	u64 gap_timeout;
	u64 poll_ns;
	bool discovery;
	u64 disc_interval;
	u64 disc_window;
	u64 disc_quiet;
	u64 disc_max;
	u64 hb_interval;
	u64 hb_timeout;
};

/**
 * struct mpe_memb_dev - one device id of the membership
 * @chip: its chip id (0: lost); the pool device keeps what each member
 *	holds by chip id, which no newcomer can take over
 * @mac: its backend port
 * @valid: a member now (false: lost)
 */
struct mpe_memb_dev {
	u64 chip;
	u8 mac[ETH_ALEN];
	bool valid;
};

/**
 * struct mpe_memb - the membership the data path works with (RCU)
 * @rcu: freed after a grace period
 * @running: the pool is formed: data frames may flow
 * @gen: generation; data frames of any other are dropped
 * @devid: our device id (MP_ETH_DEV_ANY when not running)
 * @nr_devs: entries of @dev
 * @mtu: the smallest L2 MTU of the members (discovery), 0: not known
 * @hash_mask: entries of @hash - 1
 * @hash: index of @dev by MAC (device id + 1, 0: free), in the same
 *	allocation; built by mpe_memb_set(): a frame's sender is found in
 *	O(1), however large the pool
 * @dev: the devices, by device id
 *
 * Sized for its pool: mpe_memb_alloc().
 */
struct mpe_memb {
	struct rcu_head rcu;
	bool running;
	u32 gen;
	u16 devid;
	u16 nr_devs;
	u32 mtu;
	u32 hash_mask;
	u16 *hash;
	struct mpe_memb_dev dev[];
};

struct mp_backend_io;
struct mpe_disc;

#define MPE_KEYS	2	/* the key in use and the previous/next one */

/**
 * struct mpe_keys - the pool keys (auth.c; RCU, wiped when freed)
 * @valid: bit i set when slot i holds a key
 * @tx: the slot that signs what we send, -1: frames go out untagged
 * @id: key id of each slot
 * @key: SipHash key of each slot
 */
struct mpe_keys {
	u32 valid;
	int tx;
	u32 id[MPE_KEYS];
	siphash_key_t key[MPE_KEYS];
};

/**
 * struct mpe_drops - frames the receive path dropped, by reason
 * @malformed: mp_frame_decode() refused it (truncated, a length beyond
 *	the payload or the frame limit, unknown version, opcode or flags, ...)
 * @wrong_ethertype: a data opcode on the control EtherType or the reverse
 * @unknown_src: a data frame from a MAC that is not a pool member
 * @forged_src: a data frame whose source device id is not the device of
 *	its source MAC (a forged id)
 * @not_for_us: a data frame whose dst is not this device
 * @wrong_gen: a data frame of another generation
 * @not_running: a data frame while no pool is formed
 * @control_ignored: a control frame with a static table (no discovery)
 * @no_tag: a frame without an authentication trailer while we sign ours
 * @bad_tag: a trailer under a key we do not hold, or a wrong tag
 * @stale_stamp: a valid tag, but a stamp outside the replay window
 * @replayed: a control frame with a valid tag not newer than its sender's
 *	last one (a replay, or a duplicate or reordered copy), or a request
 *	stamped before one it must follow (MP_WIN_REPLAY: a copy from an
 *	earlier cycle of the 16-bit SNs; counted in out_of_window, not
 *	malformed)
 *
 * Every one is also in mpe.dropped (which discovery's own refusals add
 * to), and a frame from a member's MAC counts in that peer's malformed.
 * Shown in /sys/class/misc/mp_eth/drops/.
 */
struct mpe_drops {
	atomic64_t malformed;
	atomic64_t wrong_ethertype;
	atomic64_t unknown_src;
	atomic64_t forged_src;
	atomic64_t not_for_us;
	atomic64_t wrong_gen;
	atomic64_t not_running;
	atomic64_t control_ignored;
	atomic64_t no_tag;
	atomic64_t bad_tag;
	atomic64_t stale_stamp;
	atomic64_t replayed;
};

/**
 * struct mpe_dp - what the data path costs (/sys/class/misc/mp_eth/datapath/)
 * @frames_tx: frames handed to the port (data and control)
 * @frames_rx: frames received (before any check)
 * @copied_bytes: bytes this host copied on the data path: between the
 *	caller's memory and frames (requester), between frames and the
 *	DRAM (responder), and to make received frames linear
 * @payload_bytes: bytes of the transfers this host finished (requester)
 * @submitted: transfers started without a waiting caller (submit.c)
 * @submit_partial: of those, started only in part: failed with -EAGAIN
 *	or -ENOMEM once the part was done, for the caller to do again
 *
 * copied_bytes / payload_bytes over both ends of a transfer is the number
 * of copies each byte costs.
 */
struct mpe_dp {
	atomic64_t frames_tx;
	atomic64_t frames_rx;
	atomic64_t copied_bytes;
	atomic64_t payload_bytes;
	atomic64_t submitted;
	atomic64_t submit_partial;
};

/**
 * struct mpe_rq - the requester's state towards one destination
 * @lock: everything here and the transfers to this destination
 * @m: the transport
 * @dst: the destination's device id
 * @rift: the RIFT of this destination, whose one destination slot is
 *	@dst (mp_rift_set_base())
 * @ent: its entries
 * @rpeer: its destination slot
 * @timer: retransmissions and timeouts, at @rift's earliest deadline
 * @credit: bumped by every finished request
 * @wq: issuers waiting for room in @rift (a change of @credit)
 * @st: requester counters
 */
struct mpe_rq {
	spinlock_t lock;		/* everything here */
	struct mpe *m;
	u16 dst;
	struct mp_rift rift;
	struct mp_rift_entry *ent;
	struct mp_rift_peer *rpeer;
	struct hrtimer timer;
	u64 credit;
	wait_queue_head_t wq;
	/* submitted transfers over, to end once the lock is dropped */
	struct list_head done;
	struct mp_peer_stats st;
};

struct mpe_peer {
	spinlock_t lock;		/* win, rs */
	struct mp_window win;
	u64 win_skipped;		/* win.skipped already counted */
	struct mp_peer_stats rs;	/* responder side */
	struct mpe_rq req;		/* requester side, under req.lock */
	u64 alive;			/* READ/WRITE_ONCE: mpe_peer_alive() */
};

/*
 * A frame of @p's of this generation was taken at @now: a request its
 * window accepted, or a response matched to one of our requests.
 * Discovery counts it as a heartbeat (mp_disc_data_seen()); a round
 * clears it (discovery.c).
 */
static inline void mpe_peer_alive(struct mpe_peer *p, u64 now)
{
	WRITE_ONCE(p->alive, now);
}

struct mpe {
	struct mpe_config cfg;
	struct mpe_memb __rcu *memb;	/* replaced under memb_mutex */
	struct mutex memb_mutex;	/* serializes membership changes */
	struct mpe_disc *disc;		/* NULL with a static table */
	struct net_device *ndev;	/* valid while !port_gone, under RCU */
	netdevice_tracker ndev_tracker;
	bool port_gone;			/* unregistered: ndev let go */
	u32 port_mtu;			/* READ_ONCE: ndev's MTU */
	struct packet_type pt_data;
	struct packet_type pt_ctrl;
	struct notifier_block nb;
	u32 rx_payload;			/* READ_ONCE: port MTU - header */
	unsigned int napi_id;		/* READ_ONCE: of the last response */

	atomic64_t dropped;		/* frames that match no peer */
	struct mpe_drops drops;		/* why frames were dropped */
	struct mpe_dp dp;		/* data path costs */
	struct sk_buff_head txd;	/* responses of this receive pass */
	struct tasklet_struct txd_tasklet;	/* sends them */
	struct mpe_keys __rcu *keys;	/* NULL: no pool key */
	struct mutex key_mutex;		/* serializes key changes */
	atomic64_t stamp;		/* of the last tagged frame sent */
	spinlock_t replay_lock;		/* replay, from the receive path */
	struct mp_replay replay;	/* control senders' last stamps */
	/*
	 * cfg.max_devs pointers; peer i is allocated (peers.c) before a
	 * membership with device id i is published, and freed at unload.
	 * Read with mpe_peer().
	 */
	struct mpe_peer **peers;
};

/* Peer @id's state, or NULL when no membership has had it yet. */
static inline struct mpe_peer *mpe_peer(struct mpe *m, u32 id)
{
	/* pairs with the release in mpe_peer_alloc() */
	return id < m->cfg.max_devs ? smp_load_acquire(&m->peers[id]) : NULL;
}

/*
 * One transfer of the caller: the context of its RIFT entries. Fields
 * below op..iter are written under the destination's mpe_rq.lock.
 */
struct mpe_xfer {
	u8 op;				/* MP_ETH_OP_READ_REQ / WRITE_REQ */
	u16 dst;
	u64 offset;
	u32 len;
	const struct iov_iter *iter;	/* the caller's bytes, at offset */
	struct iov_iter cur;		/* a copy of it, at cur_off */
	u64 cur_off;
	u32 outstanding;		/* frames in flight */
	int error;			/* first error */
	int issue_err;			/* why the issuer stopped early */
	struct mpe_rq *q;		/* its destination, once in flight */
	wait_queue_head_t wq;		/* the issuer, until outstanding is 0 */
	struct mp_backend_io *io;	/* submitted: ended by mpe_xfer_end() */
	struct list_head done_node;	/* in q->done, once over */
};

/* main.c */
u32 mpe_port_l2(struct mpe *m);
u32 mpe_max_payload(struct mpe *m);
u32 mpe_rx_payload(struct mpe *m);

/* peers.c */
struct mpe_memb *mpe_memb_alloc(u32 nr_devs, gfp_t gfp);
struct mpe_memb *mpe_memb_dup(struct mpe *m);
int mpe_memb_set(struct mpe *m, struct mpe_memb *n);
int mpe_memb_peer_by_mac(const struct mpe_memb *mb, const u8 *mac);
int mpe_peers_init(struct mpe *m);
void mpe_peers_exit(struct mpe *m);

/* tx.c */
struct sk_buff *mpe_frame_alloc(struct mpe *m, u32 payload, gfp_t gfp);
u8 *mpe_frame_payload(struct sk_buff *skb);
int mpe_frame_prep(struct mpe *m, struct sk_buff *skb,
		   const struct mp_frame *f, const u8 *dst_mac);
unsigned int mpe_xmit(struct mpe *m, struct sk_buff_head *q);
void mpe_frame_defer(struct mpe *m, struct sk_buff *skb,
		     const struct mp_frame *f);
void mpe_tx_start(struct mpe *m);
void mpe_tx_stop(struct mpe *m);
int mpe_frame_send(struct mpe *m, struct sk_buff *skb,
		   const struct mp_frame *f);
int mpe_frame_send_to(struct mpe *m, struct sk_buff *skb,
		      const struct mp_frame *f, const u8 *dst_mac);

/* rx.c */
int mpe_rx_start(struct mpe *m);
void mpe_rx_stop(struct mpe *m);

/* poll.c */
int mpe_xfer(struct mpe *m, u8 op, u16 dst, u64 offset, struct iov_iter *iter);
int mpe_write_many(struct mpe *m, u32 n, const u16 *dst, const u64 *offset,
		   struct iov_iter *from, int *res);
void mpe_wait_credit(struct mpe_rq *q, u64 credit);

/*
 * A finished transfer's result: its first error, else why its issuer
 * stopped early. Its bytes count as delivered when it succeeded. Called
 * once per transfer, after its last frame finished.
 */
static inline int mpe_xfer_result(struct mpe *m, const struct mpe_xfer *x)
{
	int ret = x->error ? x->error : x->issue_err;

	if (!ret && x->op != MP_ETH_OP_OWN_REQ)
		atomic64_add(x->len, &m->dp.payload_bytes);
	return ret;
}

/* requester.c */
int mpe_xfer_issue(struct mpe *m, struct mpe_xfer *x, bool nowait);
void mpe_rx_response(struct mpe *m, struct sk_buff *skb,
		     const struct mp_frame *f);
void mpe_entry_done(struct mpe_rq *q, struct mp_rift_entry *e, int err);
enum hrtimer_restart mpe_timer_fn(struct hrtimer *t);

/* submit.c */
int mpe_xfer_submit(struct mpe *m, struct mp_backend_io *io);
void __mpe_xfer_end(struct mpe *m, struct list_head *done);

/* Most receive passes end no submitted transfer: no call for those. */
static inline void mpe_xfer_end(struct mpe *m, struct list_head *done)
{
	if (!list_empty(done))
		__mpe_xfer_end(m, done);
}

/* rq.c */
u32 mpe_window_frames(struct mpe *m);
int mpe_rq_init(struct mpe *m, struct mpe_rq *q, u16 dst);
void mpe_rq_exit(struct mpe_rq *q);
u32 mpe_rift_entries(struct mpe *m);
void mpe_transport_reset(struct mpe *m, int err);

/* discovery.c */
int mpe_disc_start(struct mpe *m);
void mpe_disc_stop(struct mpe *m);
void mpe_disc_free(struct mpe *m);
void mpe_disc_rcv(struct mpe *m, struct sk_buff *skb,
		  const struct mp_frame *f);

/* own.c */
struct mp_own_info;
int mpe_own(void *priv, u16 dst, u32 cmd, u32 seg, struct mp_own_info *oi);

/* responder.c */
void mpe_responder_peer_init(struct mpe *m, struct mpe_peer *p);
void mpe_rx_request(struct mpe *m, struct sk_buff *skb,
		    const struct mp_frame *f, u64 chip);

/* stats.c */
void mpe_peer_stats(struct mpe *m, u16 id, struct mp_peer_stats *st,
		    u32 *inflight, bool *reachable);
u32 mpe_inflight(struct mpe *m);

/* auth.c */
const struct mpe_keys *mpe_auth_sign_begin(struct mpe *m);
void mpe_auth_sign(struct mpe *m, const struct mpe_keys *k,
		   struct sk_buff *skb, u32 bind);
atomic64_t *mpe_auth_check(struct mpe *m, const struct sk_buff *skb,
			   const struct mp_frame *f);
u64 mpe_auth_stamp(const struct sk_buff *skb, const struct mp_frame *f);
u32 mpe_auth_overhead(struct mpe *m);
int mpe_auth_set(struct mpe *m, u32 op, u32 id, const u8 *raw);
void mpe_auth_exit(struct mpe *m);

/* testdev.c */
int mpe_testdev_init(struct mpe *m);
void mpe_testdev_exit(void);

#endif /* _MP_ETH_H */
