/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mpsim: a discrete-event simulator of many pool devices on one switch.
 * The devices run the kernel's own pure logic (kernel/common/mp_disc.c,
 * mp_pamt.c, mp_frame.c, mp_window.c, mp_rift.c); this file is the
 * simulated world around it: time, an event queue, a lossy switch.
 */
#ifndef _MPSIM_SIM_H
#define _MPSIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_US		1000ULL
#define SIM_MS		1000000ULL
#define SIM_S		1000000000ULL

/* One event: a frame reaching a port, or a device's timer. */
struct sim_ev {
	uint64_t at;		/* ns */
	uint64_t seq;		/* ties break by insertion order */
	uint32_t kind;		/* the scenario's own */
	uint32_t dev;		/* receiver (or owner of a timer) */
	uint32_t from;		/* sender of a frame */
	uint32_t len;		/* bytes of @data */
	bool bcast;		/* sent to every port */
	uint8_t *data;		/* the frame's L2 payload (malloc'd) */
};

/* Min-heap of events by (at, seq). */
struct sim_heap {
	struct sim_ev *v;
	size_t n;
	size_t cap;
	uint64_t seq;
};

int sim_heap_push(struct sim_heap *h, const struct sim_ev *e);
bool sim_heap_pop(struct sim_heap *h, struct sim_ev *e);
void sim_heap_free(struct sim_heap *h);

/* Seeded xorshift64*: the same seed gives the same run. */
struct sim_rng {
	uint64_t s;
};

void sim_rng_seed(struct sim_rng *r, uint64_t seed);
uint64_t sim_rng_next(struct sim_rng *r);
double sim_rng_unit(struct sim_rng *r);	/* [0, 1) */

/**
 * struct sim_net - the switch
 * @loss: probability that one delivery of a frame is lost (each receiver
 *	of a broadcast draws on its own)
 * @delay: fixed latency of a delivery (ns)
 * @jitter: uniform extra latency 0..@jitter (ns): frames reorder
 * @rate: port speed in bit/s, 0 for unlimited; each sender's port and each
 *	receiver's switch egress port serialize their frames
 * @nr_ports: devices on the switch
 * @tx_free: when each sender port is free again
 * @eg_free: when each egress port is free again
 * @rng: the loss and jitter draws
 * @heap: where deliveries go
 * @kind: event kind of a delivery
 */
struct sim_net {
	double loss;
	uint64_t delay;
	uint64_t jitter;
	uint64_t rate;
	uint32_t nr_ports;
	uint64_t *tx_free;
	uint64_t *eg_free;
	struct sim_rng rng;
	struct sim_heap *heap;
	uint32_t kind;
};

int sim_net_init(struct sim_net *n, uint32_t nr_ports, struct sim_heap *heap,
		 uint32_t kind, uint64_t seed);
void sim_net_free(struct sim_net *n);
/* Queue a frame from @from at @now to @to (or every other port: @bcast). */
int sim_net_send(struct sim_net *n, uint64_t now, uint32_t from, uint32_t to,
		 bool bcast, const void *buf, uint32_t len);
/* A broadcast reaches each port on its own: was it lost for this one? */
bool sim_net_lost(struct sim_net *n);

/* The MAC of simulated device @i, and back (-1: not one of ours). */
void sim_mac(uint32_t i, uint8_t *mac);
int sim_mac_dev(const uint8_t *mac, uint32_t nr);

/**
 * struct sim_disc_cfg - one discovery run
 * @nr: devices
 * @seed: PRNG seed
 * @loss: per delivery
 * @delay: switch latency (ns)
 * @jitter: extra latency 0..@jitter (ns)
 * @boot_spread: devices power on uniformly within this (ns)
 * @fail: devices that fail once the pool formed
 * @join: devices that power on once the pool formed (new ones)
 * @back: the failed devices reboot once the pool re-formed without them
 * @dup_chip: give the last device the first one's chip id (the round
 *	must end in CONFLICT everywhere)
 * @window: a round's disc_window (ns), 0 for the module's 1 s
 * @hb_timeout: silence that loses a member (ns), 0 for the module's 3 s
 * @hold: after convergence, keep running this long and count new rounds
 * @limit: give up after this much simulated time
 * @verbose: print the rounds as they happen
 */
struct sim_disc_cfg {
	uint32_t nr;
	uint64_t seed;
	double loss;
	uint64_t delay;
	uint64_t jitter;
	uint64_t boot_spread;
	uint32_t fail;
	uint32_t join;
	bool back;
	bool dup_chip;
	uint64_t window;
	uint64_t hb_timeout;
	uint64_t hold;
	uint64_t limit;
	bool verbose;
};

/* What the frames a device sends are for. */
enum sim_kind {
	SIM_DISCOVER,	/* a round's broadcast */
	SIM_HEARTBEAT,	/* a member's DISCOVER_ACK along the ranks (F_HB) */
	SIM_PROXY,	/* a broadcast DISCOVER_ACK about a lost member */
	SIM_REPLY,	/* a unicast DISCOVER_ACK */
	SIM_PROBE,	/* a unicast DISCOVER to a silent member */
	SIM_NR_KINDS
};

/**
 * struct sim_disc_phase - one convergence (boot, or after a change)
 * @converged: every live device formed the same pool
 * @time: from the change until the last device formed it (ns)
 * @generation: the generation they agree on
 * @members: devices in it (@lost of them lost)
 * @lost: lost members
 * @rounds: rounds started anywhere (each device's new rounds, summed)
 * @sent: frames sent by all devices during the phase
 * @sent_max: most frames one device sent
 * @rcvd: frames delivered to all devices
 * @kind: @sent by enum sim_kind
 * @detect: from the change until a device first found a member silent
 *	(0: none did; joins and returns start rounds without that)
 */
struct sim_disc_phase {
	bool converged;
	uint64_t time;
	uint32_t generation;
	uint32_t members;
	uint32_t lost;
	uint64_t rounds;
	uint64_t sent;
	uint64_t sent_max;
	uint64_t rcvd;
	uint64_t kind[SIM_NR_KINDS];
	uint64_t detect;
};

/**
 * struct sim_disc_result - what a discovery run measured
 * @boot: the pool forming from nothing
 * @change: after @fail failures and @join new devices (when any)
 * @back: after the failed devices came back (@back)
 * @agree: every live device's PAMT is byte-identical at the end
 * @conflict: every live device ended in CONFLICT (dup_chip)
 * @hold_rounds: rounds started during the hold (should be 0)
 * @hold_sent: frames sent during the hold, per device per second (x1000)
 * @hold_pool_sent_milli: frames sent by the whole pool per heartbeat
 *	interval during the hold (x1000)
 * @hold_pool_rcvd_milli: frames delivered to the whole pool per heartbeat
 *	interval during the hold (x1000): a broadcast counts once per receiver
 * @dropped: frames mp_disc_rcv() refused
 * @events: events processed
 */
struct sim_disc_result {
	struct sim_disc_phase boot;
	struct sim_disc_phase change;
	struct sim_disc_phase back;
	bool agree;
	bool conflict;
	uint64_t hold_rounds;
	uint64_t hold_sent_milli;
	uint64_t hold_pool_sent_milli;
	uint64_t hold_pool_rcvd_milli;
	uint64_t dropped;
	uint64_t events;
};

int sim_disc_run(const struct sim_disc_cfg *cfg, struct sim_disc_result *res);

/**
 * struct sim_xport_cfg - one transport run
 * @pairs: requester/responder pairs (2 * @pairs devices)
 * @seed: PRNG seed
 * @loss: per frame
 * @delay: switch latency (ns)
 * @jitter: extra latency (ns)
 * @rate: port speed (bit/s)
 * @mtu: L2 payload limit
 * @bytes: bytes each requester writes, then reads back
 * @rto: first retransmission timeout (ns), 0 for the kernel's 50 ms
 * @limit: give up after this much simulated time
 */
struct sim_xport_cfg {
	uint32_t pairs;
	uint64_t seed;
	double loss;
	uint64_t delay;
	uint64_t jitter;
	uint64_t rate;
	uint32_t mtu;
	uint64_t bytes;
	uint64_t rto;
	uint64_t limit;
};

/**
 * struct sim_xport_result - what a transport run measured
 * @time: until the last requester finished (ns)
 * @goodput: verified payload bytes (written and read back) per second,
 *	all pairs together
 * @requests: requests finished
 * @failed: requests that timed out (-ETIMEDOUT)
 * @retransmits: retransmissions
 * @duplicates: duplicates the responders answered from their cache
 * @frames: frames sent
 * @verified: every byte read back was the byte written
 */
struct sim_xport_result {
	uint64_t time;
	double goodput;
	uint64_t requests;
	uint64_t failed;
	uint64_t retransmits;
	uint64_t duplicates;
	uint64_t frames;
	bool verified;
};

int sim_xport_run(const struct sim_xport_cfg *cfg,
		  struct sim_xport_result *res);

#endif /* _MPSIM_SIM_H */
