// SPDX-License-Identifier: GPL-2.0
/*
 * mpsim: the simulated switch. Every frame crosses the sender's port
 * (serialized at the port rate), the switch (a fixed delay plus uniform
 * jitter, so frames may reorder) and, for a unicast, the receiver's
 * egress port. Each delivery is lost with the configured probability,
 * independently for each receiver of a broadcast.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

void sim_rng_seed(struct sim_rng *r, uint64_t seed)
{
	r->s = seed * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
	if (!r->s)
		r->s = 1;
}

uint64_t sim_rng_next(struct sim_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

double sim_rng_unit(struct sim_rng *r)
{
	return (double)(sim_rng_next(r) >> 11) / (double)(1ULL << 53);
}

int sim_net_init(struct sim_net *n, uint32_t nr_ports, struct sim_heap *heap,
		 uint32_t kind, uint64_t seed)
{
	n->nr_ports = nr_ports;
	n->heap = heap;
	n->kind = kind;
	sim_rng_seed(&n->rng, seed);
	n->tx_free = calloc(nr_ports, sizeof(*n->tx_free));
	n->eg_free = calloc(nr_ports, sizeof(*n->eg_free));
	if (!n->tx_free || !n->eg_free) {
		sim_net_free(n);
		return -ENOMEM;
	}
	return 0;
}

void sim_net_free(struct sim_net *n)
{
	free(n->tx_free);
	free(n->eg_free);
	n->tx_free = NULL;
	n->eg_free = NULL;
}

bool sim_net_lost(struct sim_net *n)
{
	return n->loss > 0 && sim_rng_unit(&n->rng) < n->loss;
}

/* Nanoseconds to put @len bytes (plus Ethernet overhead) on a port. */
static uint64_t sim_net_wire(const struct sim_net *n, uint32_t len)
{
	/* header 14, FCS 4, preamble 8, gap 12; padded to 46 */
	uint64_t bytes = (len < 46 ? 46 : len) + 38;

	return n->rate ? bytes * 8 * 1000000000ULL / n->rate : 0;
}

int sim_net_send(struct sim_net *n, uint64_t now, uint32_t from, uint32_t to,
		 bool bcast, const void *buf, uint32_t len)
{
	uint64_t wire = sim_net_wire(n, len), at;
	struct sim_ev e = {
		.kind = n->kind,
		.dev = to,
		.from = from,
		.len = len,
		.bcast = bcast,
	};
	int ret;

	at = (n->tx_free[from] > now ? n->tx_free[from] : now) + wire;
	n->tx_free[from] = at;
	at += n->delay;
	if (n->jitter)
		at += sim_rng_next(&n->rng) % (n->jitter + 1);
	if (!bcast) {
		if (sim_net_lost(n))
			return 0;
		at = (n->eg_free[to] > at ? n->eg_free[to] : at) + wire;
		n->eg_free[to] = at;
	}
	e.at = at;
	e.data = malloc(len ? len : 1);
	if (!e.data)
		return -ENOMEM;
	memcpy(e.data, buf, len);
	ret = sim_heap_push(n->heap, &e);
	if (ret)
		free(e.data);
	return ret;
}

void sim_mac(uint32_t i, uint8_t *mac)
{
	mac[0] = 0x02;		/* locally administered, unicast */
	mac[1] = 0x4d;
	mac[2] = 0x50;
	mac[3] = (uint8_t)(i >> 16);
	mac[4] = (uint8_t)(i >> 8);
	mac[5] = (uint8_t)i;
}

int sim_mac_dev(const uint8_t *mac, uint32_t nr)
{
	uint32_t i = (uint32_t)mac[3] << 16 | (uint32_t)mac[4] << 8 | mac[5];

	if (mac[0] != 0x02 || mac[1] != 0x4d || mac[2] != 0x50 || i >= nr)
		return -1;
	return (int)i;
}
