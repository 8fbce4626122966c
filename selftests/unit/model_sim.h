/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the mp_eth transport model tests (test_model.c, test_model_parts.c)
 * share: a requester's RIFT and a responder's window, a clock, a seeded
 * rng, and a simulated network that loses, duplicates and reorders frames.
 * Each test keeps its own requests, frames and assertions, and plugs them
 * in through the model_*() functions below.
 */
#ifndef MODEL_SIM_H
#define MODEL_SIM_H

#include "mp_rift.h"
#include "mp_window.h"

#define MS		1000000ULL
#define US		1000ULL
#define REQ_DEV		0
#define RSP_DEV		1
#define MAXPKT		4096
#define NENT		MP_RIFT_DEFAULT_ENTRIES

/* A frame on the wire, due at time at. */
struct sim_pkt {
	u64 at;
	u64 stamp;		/* the sender's, as the pool key's trailer has */
	bool to_rsp;
	bool forged;
	u32 len;
	u8 data[];
};

/*
 * The test's side, which each test defines: sim_run() calls them every
 * tick, in this order. model_timeout(): e timed out; sim_run() then counts
 * it finished and frees it.
 */
void model_issue(void);
void model_responder_rx(const struct sim_pkt *p);
void model_requester_rx(const struct sim_pkt *p);
void model_retransmit(struct mp_rift_entry *e);
void model_timeout(struct mp_rift_entry *e);

struct model_sim {
	u64 rng;
	u64 now;
	unsigned int loss_pct;	/* per frame, each direction */
	unsigned int dup_pct;	/* chance of an extra copy */
	u64 jitter;		/* uniform extra delay: reordering */
	struct sim_pkt *q[MAXPKT];
	unsigned int nq;
	struct mp_rift rift;
	struct mp_rift_entry ent[NENT];
	struct mp_rift_peer peer[2];
	struct mp_window win;
	unsigned int finished;	/* requests finished at the requester */
};

u64 sim_rnd(struct model_sim *s);
bool sim_chance(struct model_sim *s, unsigned int pct);
u64 sim_stamp(struct model_sim *s, u64 *last);
void sim_init(struct model_sim *s, u64 seed, u16 start_sn,
	      unsigned int max_retries, u64 probe_interval,
	      unsigned int loss_pct, unsigned int dup_pct, u64 jitter);
void sim_send(struct model_sim *s, bool to_rsp, bool forged, u64 stamp,
	      const u8 *buf, u32 len);
void sim_run(struct model_sim *s, unsigned int nreq);
void sim_fini(struct model_sim *s);

#endif /* MODEL_SIM_H */
