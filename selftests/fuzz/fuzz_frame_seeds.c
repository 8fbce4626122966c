// SPDX-License-Identifier: GPL-2.0
/*
 * Seed corpus for fuzz_frame: writes a few inputs made of valid frames,
 * built with the real encoder, into the directory given as argument.
 * Usage: fuzz_frame-seeds DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_bytes.h"
#include "mp_frame.h"
#include "mp_replay.h"
#include "mp_rift.h"
#include "fuzz_frame.h"

#define PEER	1
#define SELF	0

struct seed {
	u8 buf[4096];
	size_t len;
};

static void rec(struct seed *sd, u8 cmd, u8 dt, const u8 *p, size_t n)
{
	u8 *b = sd->buf + sd->len;

	if (sd->len + FUZZ_REC_HDR + n > sizeof(sd->buf)) {
		fprintf(stderr, "seed too large\n");
		exit(1);
	}
	b[0] = cmd;
	b[1] = dt;
	b[2] = (u8)n;
	b[3] = (u8)(n >> 8);
	if (n)
		memcpy(b + FUZZ_REC_HDR, p, n);
	sd->len += FUZZ_REC_HDR + n;
}

/* Append frame f (with a patterned payload) as a FUZZ_RX record. */
static void rx(struct seed *sd, const struct mp_frame *f, u8 arg, u8 dt)
{
	u8 frame[MP_ETH_HDR_LEN + 64];
	u32 plen = mp_frame_payload_len(f), i;

	if (mp_frame_encode(f, fuzz_max_payload[0], frame, sizeof(frame)) !=
	    MP_ETH_HDR_LEN || plen > sizeof(frame) - MP_ETH_HDR_LEN) {
		fprintf(stderr, "cannot encode seed frame op %u\n", f->op);
		exit(1);
	}
	for (i = 0; i < plen; i++)
		frame[MP_ETH_HDR_LEN + i] = (u8)(i * 37);
	rec(sd, (u8)(FUZZ_RX | arg << 2), dt, frame, MP_ETH_HDR_LEN + plen);
}

static struct mp_frame request(u8 op, u16 sn, u16 ack, u32 len)
{
	struct mp_frame f = {
		.op = op, .flags = MP_ETH_F_ACK, .src = PEER, .dst = SELF,
		.gen = 1, .sn = sn, .tag = 3, .ack = ack, .offset = 4096,
		.len = len,
	};
	return f;
}

/* A SEND record to PEER that yields op, offset 0, len 8. */
static void send(struct seed *sd, bool write, u8 dt)
{
	static const u8 arg[8] = { 0, 0, 0, 0, 0, 0, 0, 7 };

	rec(sd, (u8)(FUZZ_SEND | PEER << 2 | (write ? 0x40 : 0)), dt, arg,
	    sizeof(arg));
}

static void emit(const char *dir, const char *name, const struct seed *sd)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/seed-%s", dir, name);
	fp = fopen(path, "wb");
	if (!fp || fwrite(sd->buf, 1, sd->len, fp) != sd->len ||
	    fclose(fp)) {
		perror(path);
		exit(1);
	}
}

static void seed_requests(const char *dir)
{
	struct mp_frame f;
	struct seed sd;
	u16 sn;

	/* Requests served by the window: across the wrap, then a duplicate. */
	memset(&sd, 0, sizeof(sd));
	sd.buf[sd.len++] = 0;
	for (sn = 0xfffe; sn != 3; sn++) {
		f = request(sn & 1 ? MP_ETH_OP_WRITE_REQ : MP_ETH_OP_READ_REQ,
			    sn, 0xfffd, 8);
		rx(&sd, &f, 0, 0);
	}
	f = request(MP_ETH_OP_WRITE_REQ, 0xffff, 0xfffd, 8);
	rx(&sd, &f, 0, 1);
	emit(dir, "requests", &sd);

	memset(&sd, 0, sizeof(sd));
	sd.buf[sd.len++] = 0;
	f = request(MP_ETH_OP_READ_REQ, 10, 5, 64);
	rx(&sd, &f, 2, 0);		/* executed, left pending */
	rx(&sd, &f, 4, 0);		/* BUSY, then completed */
	rx(&sd, &f, 0, 0);		/* DUP */
	f = request(MP_ETH_OP_READ_REQ, 100, 99, 64);
	f.flags = 0;
	f.ack = 0;
	rx(&sd, &f, 1, 0);		/* no ack, NAKed */
	rec(&sd, FUZZ_WINDOW, 255, NULL, 0);
	rec(&sd, FUZZ_WINDOW | 4 | PEER << 3, 0, NULL, 0);
	emit(dir, "window", &sd);
}

/*
 * Ownership: a mirror copy's claim naming its partner, an old query, and
 * a verdict with the partner (struct mp_eth_own_pair, a valid one).
 */
static void seed_own(const char *dir)
{
	struct mp_own_resp v = { .owner = PEER, .pdev = 2, .pseg = 5 };
	struct mp_own_req c = { .cmd = MP_ETH_OWN_CLAIM, .seg = 1,
				.pdev = 2, .pseg = 5 };
	u8 frame[MP_ETH_HDR_LEN + MP_ETH_OWN_PAIR_LEN];
	struct mp_frame f, r;
	struct seed sd;

	memset(&sd, 0, sizeof(sd));
	sd.buf[sd.len++] = 0;
	f = request(MP_ETH_OP_OWN_REQ, 20, 19, MP_ETH_OWN_PAIR_LEN);
	if (mp_own_req_encode(&c, &f.offset)) {
		fprintf(stderr, "cannot encode the claim seed\n");
		exit(1);
	}
	rx(&sd, &f, 0, 0);
	f = request(MP_ETH_OP_OWN_REQ, 21, 19, MP_ETH_OWN_LEN);
	f.offset = MP_ETH_OWN_OFF(MP_ETH_OWN_QUERY, 1);
	rx(&sd, &f, 0, 0);
	f = request(MP_ETH_OP_OWN_REQ, 22, 19, MP_ETH_OWN_PAIR_LEN);
	mp_frame_reply(&f, 0, &r);
	if (mp_frame_encode(&r, fuzz_max_payload[0], frame, sizeof(frame)) !=
	    MP_ETH_HDR_LEN ||
	    mp_own_resp_encode(&v, frame + MP_ETH_HDR_LEN,
			       MP_ETH_OWN_PAIR_LEN) != MP_ETH_OWN_PAIR_LEN) {
		fprintf(stderr, "cannot encode the verdict seed\n");
		exit(1);
	}
	rec(&sd, FUZZ_RX, 0, frame, sizeof(frame));
	emit(dir, "own", &sd);
}

/* A request of ours, answered with resp_op, then one that times out. */
static void seed_rift(const char *dir, u8 resp_op)
{
	struct mp_frame f = {
		.op = resp_op == MP_ETH_OP_WRITE_ACK ?
			MP_ETH_OP_WRITE_REQ : MP_ETH_OP_READ_REQ,
		.src = SELF, .dst = PEER, .gen = 1, .sn = 0xfff0,
		.tag = 0, .offset = 0, .len = 8,
	}, r;
	static const u8 start[2] = { 0xff, 0xfe };
	struct seed sd;
	char name[32];
	unsigned int i;

	memset(&sd, 0, sizeof(sd));
	sd.buf[sd.len++] = 0;	/* the RIFT starts at 0xfff0 */
	send(&sd, f.op == MP_ETH_OP_WRITE_REQ, 0);
	rec(&sd, FUZZ_POLL, 8, NULL, 0);	/* retransmit */
	mp_frame_reply(&f, resp_op == MP_ETH_OP_NAK ? -EFAULT : 0, &r);
	rx(&sd, &r, 0, 0);
	rx(&sd, &r, 0, 0);			/* stale duplicate */
	send(&sd, false, 0);
	for (i = 0; i <= MP_RIFT_MAX_RETRIES; i++)
		rec(&sd, FUZZ_POLL, 255, NULL, 0);	/* ... -ETIMEDOUT */
	send(&sd, false, 0);			/* fast fail */
	rec(&sd, FUZZ_POLL | 8 | PEER << 4, 0, NULL, 0);	/* alive */
	send(&sd, true, 0);
	rec(&sd, FUZZ_POLL | 4 | PEER << 4, 0, start, sizeof(start));
	snprintf(name, sizeof(name), "rift-%u", resp_op);
	emit(dir, name, &sd);
}

/*
 * A read in parts (MP_ETH_READ_PARTS): ours of 40 bytes at a stride of 16
 * answered by parts 1, 1 again, a forged part off the stride, 0 and 2;
 * then a peer's read in parts served by the window, and its duplicate.
 */
static void seed_parts(const char *dir)
{
	static const u8 arg[8] = { 0, 0, 0, 0, 0, 0, 15, 39 };
	struct mp_frame f = {
		.op = MP_ETH_OP_READ_REQ, .src = SELF, .dst = PEER, .gen = 1,
		.sn = 0xfff0, .tag = 0, .offset = 0, .len = 40, .stride = 16,
	}, r;
	struct seed sd;

	memset(&sd, 0, sizeof(sd));
	sd.buf[sd.len++] = 0;
	rec(&sd, (u8)(FUZZ_SEND | PEER << 2 | 0x80), 0, arg, sizeof(arg));
	mp_frame_read_part(&f, 1, &r);
	rx(&sd, &r, 0, 0);
	rx(&sd, &r, 0, 0);			/* a duplicate part */
	r.offset++;
	rx(&sd, &r, 0, 0);			/* off the stride */
	mp_frame_read_part(&f, 0, &r);
	rx(&sd, &r, 0, 0);
	mp_frame_read_part(&f, 2, &r);
	rx(&sd, &r, 0, 0);			/* complete */
	f = request(MP_ETH_OP_READ_REQ, 30, 29, 40);
	f.stride = 16;
	rx(&sd, &f, 0, 0);
	rx(&sd, &f, 0, 0);			/* DUP: read again */
	emit(dir, "parts", &sd);
}

/*
 * A write in parts: ours of 40 bytes at a stride of 16 answered once; a
 * peer's, served by the window: parts 1, 1 again, 2, one naming another
 * range, 0 (complete: answered), then 0 again (answered from the cache).
 */
static void seed_write_parts(const char *dir)
{
	static const u8 arg[8] = { 0, 0, 0, 0, 0, 0, 15, 39 };
	struct mp_frame f = {
		.op = MP_ETH_OP_WRITE_REQ, .src = SELF, .dst = PEER, .gen = 1,
		.sn = 0xfff0, .tag = 0, .offset = 0, .len = 40, .stride = 16,
	}, r, p;
	struct seed sd;

	memset(&sd, 0, sizeof(sd));
	sd.buf[sd.len++] = 0;
	rec(&sd, (u8)(FUZZ_SEND | PEER << 2 | 0xc0), 0, arg, sizeof(arg));
	mp_frame_reply(&f, 0, &r);
	rx(&sd, &r, 0, 0);
	rx(&sd, &r, 0, 0);			/* stale duplicate */
	f = request(MP_ETH_OP_WRITE_REQ, 30, 29, 40);
	f.stride = 16;
	mp_frame_write_part(&f, 1, &p);
	rx(&sd, &p, 0, 0);
	rx(&sd, &p, 0, 0);			/* a duplicate part */
	mp_frame_write_part(&f, 2, &p);
	rx(&sd, &p, 0, 0);
	p.offset += 16;
	rx(&sd, &p, 0, 0);			/* another range */
	mp_frame_write_part(&f, 0, &p);
	rx(&sd, &p, 0, 0);			/* complete */
	rx(&sd, &p, 0, 0);			/* DUP */
	emit(dir, "write-parts", &sd);
}

/* Header @f and discovery payload @d into @frame (room for both). */
static void discover_frame(const struct mp_frame *f,
			   const struct mp_discover *d, u8 *frame, size_t size)
{
	if (mp_frame_encode(f, fuzz_max_payload[0], frame, size) !=
	    MP_ETH_HDR_LEN ||
	    mp_discover_encode(d, frame + MP_ETH_HDR_LEN,
			       MP_ETH_DISCOVER_LEN) != MP_ETH_DISCOVER_LEN) {
		fprintf(stderr, "cannot encode discovery seed\n");
		exit(1);
	}
}

static void seed_discover(const char *dir)
{
	struct mp_discover d = {
		.chip_id = 0x5254001234560001ULL, .capacity = 256ULL << 20,
		.mac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 },
		.dev_count = 2, .gen = 1, .mtu = 1500,
	};
	struct mp_frame f = {
		.op = MP_ETH_OP_DISCOVER, .src = MP_ETH_DEV_ANY,
		.dst = MP_ETH_DEV_ANY, .gen = 1, .len = MP_ETH_DISCOVER_LEN,
	};
	u8 frame[MP_ETH_HDR_LEN + MP_ETH_DISCOVER_LEN];
	struct seed sd;

	discover_frame(&f, &d, frame, sizeof(frame));
	memset(&sd, 0, sizeof(sd));
	sd.buf[sd.len++] = 1;
	rec(&sd, FUZZ_RX, 0, frame, sizeof(frame));
	emit(dir, "discover", &sd);

	/* The bare frame as the whole input, too. */
	memset(&sd, 0, sizeof(sd));
	sd.buf[sd.len++] = 1;
	memcpy(sd.buf + sd.len, frame, sizeof(frame));
	sd.len += sizeof(frame);
	emit(dir, "discover-bare", &sd);
}

/* A tagged DISCOVER from device @src with @stamp in its trailer. */
static void rx_tagged(struct seed *sd, u16 src, u64 stamp)
{
	struct mp_discover d = {
		.chip_id = 0x5254001234560001ULL + src, .capacity = 256ULL << 20,
		.mac = { 0x52, 0x54, 0x00, 0x12, 0x34, (u8)src },
		.dev_count = 2, .gen = 1, .mtu = 1500,
	};
	struct mp_frame f = {
		.op = MP_ETH_OP_DISCOVER, .flags = MP_ETH_F_AUTH, .src = src,
		.dst = MP_ETH_DEV_ANY, .gen = 1, .len = MP_ETH_DISCOVER_LEN,
	};
	u8 frame[MP_ETH_HDR_LEN + MP_ETH_DISCOVER_LEN + MP_ETH_AUTH_LEN];
	u8 *tr = frame + MP_ETH_HDR_LEN + MP_ETH_DISCOVER_LEN;

	memset(frame, 0, sizeof(frame));
	discover_frame(&f, &d, frame, sizeof(frame));
	mp_put_be32(tr + offsetof(struct mp_eth_auth, key_id), 7);
	mp_put_be64(tr + offsetof(struct mp_eth_auth, stamp), stamp);
	rec(sd, FUZZ_RX, 1, frame, sizeof(frame));
}

/*
 * Stamps around fuzz_frame's clock (its start plus four windows): fresh,
 * the same again (a replay), newer, another sender's older one, stale.
 */
static void seed_stamps(const char *dir)
{
	u64 now = 1 + 4 * MP_REPLAY_WINDOW;
	struct seed sd;

	memset(&sd, 0, sizeof(sd));
	sd.buf[sd.len++] = 0;
	rx_tagged(&sd, 1, now);
	rx_tagged(&sd, 1, now);
	rx_tagged(&sd, 1, now + 1000);
	rx_tagged(&sd, 2, now - 1000);
	rx_tagged(&sd, 1, now - 2 * MP_REPLAY_WINDOW);
	emit(dir, "stamps", &sd);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	seed_requests(argv[1]);
	seed_rift(argv[1], MP_ETH_OP_READ_RESP);
	seed_rift(argv[1], MP_ETH_OP_WRITE_ACK);
	seed_rift(argv[1], MP_ETH_OP_NAK);
	seed_discover(argv[1]);
	seed_stamps(argv[1]);
	seed_own(argv[1]);
	seed_parts(argv[1]);
	seed_write_parts(argv[1]);
	return 0;
}
