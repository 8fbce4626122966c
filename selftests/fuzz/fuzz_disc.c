// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the discovery decisions (kernel/common/mp_disc.c)
 * with the module's table sizes. The input is a sequence of records:
 *
 *   0x00..0x7f  a frame: 1 byte sender (low 3 bits pick one of 8 MACs,
 *               ours among them; bit 3: sent to broadcast; bit 4:
 *               DISCOVER_ACK, else DISCOVER; bit 5: marked a heartbeat,
 *               MP_ETH_F_HB; bit 6: carrying our pool's digest, or
 *               another with bit 5), 4 bytes round (big endian),
 *               32 bytes of payload, decoded as the kernel does
 *   0x80..0xff  a tick, (byte & 0x7f) * 10 ms later; a round that ends
 *               is concluded and committed, or marked a conflict
 *
 * Besides ASan/UBSan it checks what the kernel relies on and aborts when
 * one breaks: the tables stay within their storage, the index finds
 * exactly the heard devices, a formed pool is in strict chip id order with
 * our own entry in it, the ranks of a formed pool name live members other
 * than us (or nobody: a pool of one), the round stays within
 * 1..MP_DISC_MAX_ROUND, and what a tick asks to send fits the caller's
 * buffers.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mp_disc.h"

#define SLOTS		32
#define POOL		MP_PAMT_MAX_DEVS
#define MS		1000000ULL

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

static const struct mp_disc_params par = {
	.interval = 200 * MS, .window = 1000 * MS, .quiet = 600 * MS,
	.max = 10000 * MS, .hb_interval = 500 * MS, .hb_timeout = 3000 * MS,
	.proxy_delay = 400 * MS,
};

static void check(const struct mp_disc *d)
{
	u32 i, used = 0;

	CHECK(d->nr_heard >= 1 && d->nr_heard <= d->max_heard);
	CHECK(d->nr_pool <= d->max_pool && d->nr_lost <= d->nr_pool);
	CHECK(d->round >= 1 && d->round <= MP_DISC_MAX_ROUND);
	for (i = 0; i <= d->hash_mask; i++) {
		if (!d->hash[i])
			continue;
		CHECK(d->hash[i] <= d->nr_heard);
		used++;
	}
	CHECK(used == d->nr_heard);
	CHECK(!memcmp(d->heard[0].mac, d->self.mac, 6));
	if (d->state != CMM_MP_POOL_RUNTIME)
		return;
	for (i = 1; i < d->nr_pool; i++)
		CHECK(d->pool[i - 1].chip_id < d->pool[i].chip_id);
	for (i = 0; i < d->nr_pool; i++)
		if (!memcmp(d->pool[i].mac, d->self.mac, 6))
			break;
	CHECK(i < d->nr_pool && !d->pool[i].lost);
	CHECK(d->nr_live == d->nr_pool - d->nr_lost && d->rank < d->nr_live);
	CHECK(d->nr_to <= MP_DISC_MAX_FANOUT && d->nr_from == d->nr_to);
	CHECK((d->nr_live > 1) == (d->nr_to > 0));
	for (i = 0; i < d->nr_to; i++) {
		CHECK(d->hb_to[i] < d->nr_pool && !d->pool[d->hb_to[i]].lost);
		CHECK(d->hb_from[i] < d->nr_pool &&
		      !d->pool[d->hb_from[i]].lost);
		CHECK(memcmp(d->pool[d->hb_to[i]].mac, d->self.mac, 6));
		CHECK(memcmp(d->pool[d->hb_from[i]].mac, d->self.mac, 6));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mp_dmember heard[SLOTS], pool[POOL], out[SLOTS];
	static struct mp_dmember proxy[POOL];
	static struct mp_pamt t;
	static u32 hash[2 * SLOTS];
	struct mp_dmember self = {
		.chip_id = 0x5254006d7001ULL, .capacity = 256ULL << 20,
		.mac = { 0x52, 0x54, 0, 0x6d, 0x70, 0x01 }, .mtu = 1500,
	};
	struct mp_disc d;
	u64 now = 1000 * MS;
	size_t pos = 0;

	CHECK(!mp_disc_init(&d, &par, &self, heard, SLOTS, hash, 2 * SLOTS,
			    pool, POOL, now));
	while (pos < size) {
		struct mp_disc_tx tx = { 0 };
		u8 b = data[pos++];

		if (b & 0x80) {
			u32 lost;
			int id;

			now += (u64)(b & 0x7f) * 10 * MS;
			/* a member's (or, pool empty, our own) data frames */
			if (b & 0x40)
				mp_disc_data_seen(&d, d.nr_pool ?
						  d.pool[b % d.nr_pool].chip_id :
						  self.chip_id,
						  d.nr_pool ?
						  d.pool[b % d.nr_pool].mac :
						  self.mac, now - (b & 3) * MS);
			mp_disc_tick(&d, now, out, SLOTS, proxy, POOL, &tx);
			CHECK(tx.nr_out <= SLOTS && tx.nr_proxy <= POOL &&
			      tx.nr_probe <= MP_DISC_MAX_PROBES &&
			      tx.nr_hb <= d.nr_to);
			if (tx.finish) {
				id = mp_disc_conclude(out, tx.nr_out, 128ULL << 20,
						      tx.round, self.chip_id, &t,
						      &lost);
				if (id < 0)
					mp_disc_conflict(&d, tx.round, now);
				else if (mp_disc_commit(&d, out, tx.nr_out,
							tx.round, now))
					CHECK(t.dev[id].chip_id == self.chip_id);
			}
		} else {
			struct mp_discover p;
			u8 src[6] = { 0x52, 0x54, 0, 0x6d, 0x70, 0x01 };
			u32 round;

			if (size - pos < 4 + MP_ETH_DISCOVER_LEN)
				break;
			src[5] = (u8)(1 + (b & 7));
			round = (u32)data[pos] << 24 | (u32)data[pos + 1] << 16 |
				(u32)data[pos + 2] << 8 | data[pos + 3];
			pos += 4;
			if (!mp_discover_decode(data + pos, MP_ETH_DISCOVER_LEN,
						&p))
				mp_disc_rcv(&d, b & 0x10 ? MP_ETH_OP_DISCOVER_ACK :
					    MP_ETH_OP_DISCOVER, src,
					    (b & 8 ? MP_DISC_RX_BCAST : 0) |
					    (b & 0x20 ? MP_DISC_RX_HB : 0),
					    b & 0x40 ? d.view ^ (b & 0x20) : 0,
					    round, &p, now, &tx);
			pos += MP_ETH_DISCOVER_LEN;
		}
		check(&d);
	}
	return 0;
}
