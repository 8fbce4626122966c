// SPDX-License-Identifier: GPL-2.0
/*
 * mp_hostile: a hostile host on the pool's Ethernet segment.
 *
 * Not our module: a userspace program with an AF_PACKET raw socket that
 * builds mp_eth frames byte by byte (include/uapi/linux/mp_eth.h is its
 * only source of the layout) and sends what a well-behaved device never
 * would. The guest scenario selftests/mp_eth/hostile.sh runs it on a host
 * that is not a pool member and checks the members' counters and memory.
 *
 *   mp_hostile [-i IFACE] scan SECS
 *	listen to heartbeats: print every member (MAC, chip id, device id by
 *	chip id rank) and the generation
 *   mp_hostile [-i IFACE] attack TARGET OWNER OFFSET LEN [ROUNDS]
 *	scan, then send ROUNDS (default 20) of every malformed or forged
 *	frame kind to device TARGET (and forged responses to device OWNER):
 *	forged source device ids from our own MAC, wrong generations,
 *	lengths beyond the payload, offsets beyond the device, truncated
 *	frames, unknown versions/opcodes/flags, opcodes on the wrong
 *	EtherType, bad acks, ownership commands. Every READ asks for
 *	[OFFSET, OFFSET + LEN) of TARGET. Prints what was sent and every
 *	frame that came back to our MAC: "replies N bytes_returned B"
 *   mp_hostile [-i IFACE] flood COUNT RATE
 *	COUNT bogus discovery frames at RATE frames/s (zero or too high
 *	rounds, bad payloads, another device's or the receiver's MAC, proxy
 *	reports that are not broadcast, wrong lengths); prints the time taken
 *   mp_hostile [-i IFACE] capture FILE SECS [MAX]
 *	promiscuous: save the data and control frames other hosts send (at
 *	most MAX, default 4096) for SECS seconds, or until SIGTERM
 *   mp_hostile [-i IFACE] replay FILE [GEN_DELTA|tamper]
 *	send every saved frame again as it was captured (source MAC
 *	included); with GEN_DELTA only the data frames, their header's
 *	generation shifted by GEN_DELTA; with tamper only the data frames,
 *	one bit of their offset flipped (a pool key's tag no longer fits)
 *   mp_hostile [-i IFACE] spoof TARGET OWNER OFFSET LEN [ROUNDS]
 *	pose as device OWNER (its MAC and id): ROUNDS (default 20) of 16
 *	well-formed reads and writes of TARGET at OFFSET with random
 *	sequence numbers, half with a made-up authentication trailer; prints
 *	what TARGET answered to OWNER's MAC (seen on a hub). Without a pool
 *	key this succeeds: it is the attack the key is for
 *   mp_hostile [-i IFACE] parts SECS
 *	on a member, for SECS seconds or until SIGTERM: answer every read in
 *	parts (a READ_REQ with a stride) sent to us with a forged part, its
 *	first part's len at an offset one byte past the request's (off the
 *	stride), straight to the port (PACKET_QDISC_BYPASS: ahead of our
 *	module's own parts when a qdisc such as netem delays those); prints
 *	"forged N"
 *   mp_hostile [-i IFACE] sig send TOKEN [SECS [NACKS]]
 *   mp_hostile [-i IFACE] sig wait TOKEN [SECS]
 *	a rendezvous between guests that does not need our modules:
 *	broadcast TOKEN on EtherType 0x88B7 until NACKS hosts acked it /
 *	wait for TOKEN and ack it
 *
 * -m MAC,MAC,... -g GEN: the members (in device id order) and generation
 * of a pool with a static table, which sends no heartbeats to learn them
 * from (-g defaults to 1).
 *
 * Exit status 0, 1 on a failed rendezvous, 2 on bad usage or a socket
 * error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/mp_eth.h>

#include "util/util.h"

#define ETYPE_SIG	0x88B7
#define MAX_FRAME	9018
#define MAX_MEMBERS	16
#define DISC_MAX_ROUND	0x7fffffffU

static int sock = -1;
static int ifindex;
static unsigned char own_mac[ETH_ALEN];
static const unsigned char bcast[ETH_ALEN] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff
};

static unsigned int etype_data = MP_ETH_P_DATA;
static unsigned int etype_ctrl = MP_ETH_P_CTRL;
static volatile sig_atomic_t stop;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, v);
}

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static void open_sock(const char *ifname, int promisc)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct packet_mreq mr = { .mr_type = PACKET_MR_PROMISC };
	struct ifreq ifr;

	sock = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (sock < 0)
		die("socket(AF_PACKET)");
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(sock, SIOCGIFINDEX, &ifr) < 0)
		die(ifname);
	ifindex = ifr.ifr_ifindex;
	if (ioctl(sock, SIOCGIFHWADDR, &ifr) < 0)
		die("SIOCGIFHWADDR");
	memcpy(own_mac, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = ifindex;
	if (bind(sock, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		die("bind");
	mr.mr_ifindex = ifindex;
	if (promisc && setsockopt(sock, SOL_PACKET, PACKET_ADD_MEMBERSHIP,
				  &mr, sizeof(mr)) < 0)
		die("PACKET_ADD_MEMBERSHIP");
}

/*
 * Receive every frame on the segment (@on) or only ours again; counted:
 * capture and spoof keep the socket promiscuous throughout.
 */
static void set_promisc(int on)
{
	struct packet_mreq mr = {
		.mr_ifindex = ifindex,
		.mr_type = PACKET_MR_PROMISC,
	};

	if (setsockopt(sock, SOL_PACKET, on ? PACKET_ADD_MEMBERSHIP :
		       PACKET_DROP_MEMBERSHIP, &mr, sizeof(mr)) < 0)
		die("PACKET_ADD/DROP_MEMBERSHIP");
}

/* Send @len bytes (Ethernet header included) as they are. */
static int send_raw(const unsigned char *frame, size_t len)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_ifindex = ifindex,
		.sll_halen = ETH_ALEN,
	};
	ssize_t n;

	memcpy(sll.sll_addr, frame, ETH_ALEN);
	do {
		n = sendto(sock, frame, len, 0, (struct sockaddr *)&sll,
			   sizeof(sll));
		if (n < 0 && errno == ENOBUFS)
			usleep(1000);
	} while (n < 0 && errno == ENOBUFS);
	return n == (ssize_t)len ? 0 : -1;
}

/*
 * Receive one frame other hosts sent, waiting at most @ms (0: poll).
 * Returns its length, 0 when none came.
 */
static ssize_t recv_frame(unsigned char *buf, size_t size, int ms)
{
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	struct sockaddr_ll from;
	socklen_t fl;
	ssize_t n;

	for (;;) {
		if (poll(&pfd, 1, ms) <= 0)
			return 0;
		fl = sizeof(from);
		n = recvfrom(sock, buf, size, MSG_TRUNC, (struct sockaddr *)&from,
			     &fl);
		if (n < 0)
			return 0;
		if (from.sll_pkttype == PACKET_OUTGOING || n < ETH_HLEN)
			continue;
		if ((size_t)n > size)
			n = (ssize_t)size;
		return n;
	}
}

static unsigned int etype_of(const unsigned char *f)
{
	return get16(f + 12);
}

/* ---- frame building */

struct hdr {
	uint8_t version, op;
	uint16_t flags, src, dst;
	uint32_t gen;
	uint16_t sn, tag;
	uint64_t offset;
	uint32_t len;
	uint16_t status, ack;
};

/* Ethernet header + transport header at @f; returns the bytes written. */
static size_t build(unsigned char *f, const unsigned char *dst_mac,
		    const unsigned char *src_mac, unsigned int etype,
		    const struct hdr *h)
{
	unsigned char *t = f + ETH_HLEN;

	memcpy(f, dst_mac, ETH_ALEN);
	memcpy(f + ETH_ALEN, src_mac, ETH_ALEN);
	put16(f + 12, (uint16_t)etype);
	t[0] = h->version;
	t[1] = h->op;
	put16(t + 2, h->flags);
	put16(t + 4, h->src);
	put16(t + 6, h->dst);
	put32(t + 8, h->gen);
	put16(t + 12, h->sn);
	put16(t + 14, h->tag);
	put64(t + 16, h->offset);
	put32(t + 24, h->len);
	put16(t + 28, h->status);
	put16(t + 30, h->ack);
	return ETH_HLEN + MP_ETH_HDR_LEN;
}

/* ---- scan: who is in the pool */

struct member {
	unsigned char mac[ETH_ALEN];
	uint64_t chip_id;
	uint64_t capacity;
	uint32_t round;
};

static struct member members[MAX_MEMBERS];
static unsigned int nr_members;
static uint32_t pool_gen;

static int cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	return x->chip_id < y->chip_id ? -1 : x->chip_id > y->chip_id;
}

/*
 * Heartbeats are DISCOVER_ACKs that describe their sender: the sorted
 * chip ids give the device ids, the header's gen the generation. A formed
 * pool sends them member to member (along the ranks, pool.rst), so on a
 * hub they are seen in promiscuous mode only.
 */
static struct member preset[MAX_MEMBERS];
static unsigned int nr_preset;
static uint32_t preset_gen = 1;

/* -m MAC,MAC,...: the members in device id order (a static table). */
static int parse_members(const char *list)
{
	unsigned int b[ETH_ALEN], k;
	const char *p = list;
	int used;

	while (*p && nr_preset < MAX_MEMBERS) {
		if (sscanf(p, "%x:%x:%x:%x:%x:%x%n", &b[0], &b[1], &b[2], &b[3],
			   &b[4], &b[5], &used) != 6)
			return -1;
		for (k = 0; k < ETH_ALEN; k++)
			preset[nr_preset].mac[k] = (unsigned char)b[k];
		preset[nr_preset].chip_id = nr_preset + 1;
		preset[nr_preset].capacity = 256ULL << 20;
		nr_preset++;
		p += used;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return *p ? -1 : 0;
}

static void scan(double secs)
{
	uint64_t end = now_ns() + (uint64_t)(secs * 1e9);
	unsigned char f[MAX_FRAME];
	unsigned int i;
	ssize_t n;

	if (nr_preset) {
		memcpy(members, preset, sizeof(preset));
		nr_members = nr_preset;
		pool_gen = preset_gen;
		return;
	}
	nr_members = 0;
	set_promisc(1);
	while (now_ns() < end) {
		const unsigned char *t = f + ETH_HLEN, *p = t + MP_ETH_HDR_LEN;

		n = recv_frame(f, sizeof(f), 100);
		if (n < ETH_HLEN + MP_ETH_HDR_LEN + MP_ETH_DISCOVER_LEN ||
		    etype_of(f) != etype_ctrl ||
		    t[1] != MP_ETH_OP_DISCOVER_ACK ||
		    memcmp(f + ETH_ALEN, p + 16, ETH_ALEN))
			continue;
		for (i = 0; i < nr_members; i++)
			if (!memcmp(members[i].mac, p + 16, ETH_ALEN))
				break;
		if (i == nr_members) {
			if (nr_members == MAX_MEMBERS)
				continue;
			nr_members++;
		}
		memcpy(members[i].mac, p + 16, ETH_ALEN);
		members[i].chip_id = get64(p);
		members[i].capacity = get64(p + 8);
		members[i].round = get32(t + 8);
	}
	set_promisc(0);
	qsort(members, nr_members, sizeof(members[0]), cmp_member);
	pool_gen = 0;
	for (i = 0; i < nr_members; i++)
		if (members[i].round > pool_gen)
			pool_gen = members[i].round;
}

static void print_members(void)
{
	unsigned int i;

	for (i = 0; i < nr_members; i++) {
		const unsigned char *m = members[i].mac;

		printf("member %u mac %02x:%02x:%02x:%02x:%02x:%02x ",
		       i, m[0], m[1], m[2], m[3], m[4], m[5]);
		printf("chip %#llx capacity %llu gen %u\n",
		       (unsigned long long)members[i].chip_id,
		       (unsigned long long)members[i].capacity,
		       members[i].round);
	}
	printf("members %u gen %u\n", nr_members, pool_gen);
}

static int cmd_scan(double secs)
{
	scan(secs);
	print_members();
	return 0;
}

/* ---- attack: forged and malformed data frames */

static unsigned long long replies, bytes_returned, sent;

/* Count what came back to our MAC (a member answering us). */
static void drain(int ms)
{
	unsigned char f[MAX_FRAME];
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ULL;
	ssize_t n;

	do {
		n = recv_frame(f, sizeof(f), ms ? 10 : 0);
		if (!n) {
			if (!ms)
				return;
			continue;
		}
		if (memcmp(f, own_mac, ETH_ALEN) ||
		    (etype_of(f) != etype_data && etype_of(f) != etype_ctrl))
			continue;
		replies++;
		if (n >= ETH_HLEN + MP_ETH_HDR_LEN &&
		    f[ETH_HLEN + 1] == MP_ETH_OP_READ_RESP)
			bytes_returned += (unsigned long long)(n - ETH_HLEN -
							       MP_ETH_HDR_LEN);
	} while (now_ns() < end);
}

static void xmit(const unsigned char *f, size_t len)
{
	if (send_raw(f, len))
		die("sendto");
	sent++;
	drain(0);
}

struct kind {
	const char *name;
	unsigned long long n;
};

static struct kind kinds[32];
static unsigned int nr_kinds;

static void count_kind(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_kinds; i++)
		if (!strcmp(kinds[i].name, name))
			break;
	if (i == nr_kinds) {
		if (nr_kinds == ARRAY_SIZE(kinds))
			return;
		kinds[nr_kinds++].name = name;
	}
	kinds[i].n++;
}

/* A well-formed request header of device @src to @dst. */
static struct hdr request(uint8_t op, uint16_t src, uint16_t dst,
			  uint16_t sn, uint64_t off, uint32_t len)
{
	struct hdr h = {
		.version = MP_ETH_VERSION, .op = op, .flags = MP_ETH_F_ACK,
		.src = src, .dst = dst, .gen = pool_gen, .sn = sn,
		.tag = sn & 0xff, .offset = off, .len = len,
		.ack = (uint16_t)(sn - 1),
	};
	return h;
}

static void send_hdr(const char *kind, const unsigned char *dst_mac,
		     unsigned int etype, const struct hdr *h, size_t payload,
		     size_t trim)
{
	unsigned char f[MAX_FRAME];
	size_t len = build(f, dst_mac, own_mac, etype, h);

	if (payload > sizeof(f) - len)
		payload = sizeof(f) - len;
	memset(f + len, 0xee, payload);
	len += payload;
	if (trim)
		len = trim;
	count_kind(kind);
	xmit(f, len);
}

static int cmd_attack(unsigned int target, unsigned int owner, uint64_t off,
		      uint32_t len, unsigned int rounds)
{
	const unsigned char *tmac, *omac;
	uint16_t ids[4], sn = 1;
	unsigned int r, i, self;
	uint32_t chunk = len > 1024 ? 1024 : len;
	struct hdr h;

	scan(3);
	print_members();
	if (target >= nr_members || owner >= nr_members || target == owner) {
		fprintf(stderr, "mp_hostile: need devices %u and %u in the pool (%u heard)\n",
			target, owner, nr_members);
		return 1;
	}
	tmac = members[target].mac;
	omac = members[owner].mac;
	self = nr_members;		/* the id we would get if we joined */
	ids[0] = (uint16_t)owner;	/* the owner's id, from our MAC */
	ids[1] = (uint16_t)self;
	ids[2] = MP_ETH_DEV_ANY - 1;
	ids[3] = (uint16_t)target;	/* src == dst */

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < 4; i++, sn++) {
			h = request(MP_ETH_OP_READ_REQ, ids[i],
				    (uint16_t)target, sn, off, chunk);
			send_hdr(i ? "read_foreign_id" : "read_forged_owner",
				 tmac, etype_data, &h, 0, 0);
			h = request(MP_ETH_OP_WRITE_REQ, ids[i],
				    (uint16_t)target, ++sn, off, chunk);
			send_hdr(i ? "write_foreign_id" : "write_forged_owner",
				 tmac, etype_data, &h, chunk, 0);
		}
		/* wrong generations, otherwise the owner's request */
		for (i = 0; i < 3; i++, sn++) {
			uint32_t g[3] = { pool_gen + 1, pool_gen - 1, 0 };

			h = request(MP_ETH_OP_READ_REQ, (uint16_t)owner,
				    (uint16_t)target, sn, off, chunk);
			h.gen = g[i];
			send_hdr("wrong_gen", tmac, etype_data, &h, 0, 0);
		}
		/* a length beyond the payload carried */
		h = request(MP_ETH_OP_WRITE_REQ, (uint16_t)owner,
			    (uint16_t)target, sn++, off, chunk);
		send_hdr("len_beyond_payload", tmac, etype_data, &h,
			 chunk / 2, 0);
		h = request(MP_ETH_OP_READ_REQ, (uint16_t)owner,
			    (uint16_t)target, sn++, off, 0x7fffffff);
		send_hdr("len_huge", tmac, etype_data, &h, 0, 0);
		h = request(MP_ETH_OP_READ_REQ, (uint16_t)owner,
			    (uint16_t)target, sn++, off, 0);
		send_hdr("len_zero", tmac, etype_data, &h, 0, 0);
		/* offsets beyond the device, and wrapping */
		h = request(MP_ETH_OP_READ_REQ, (uint16_t)owner,
			    (uint16_t)target, sn++,
			    members[target].capacity + off, chunk);
		send_hdr("offset_beyond", tmac, etype_data, &h, 0, 0);
		h = request(MP_ETH_OP_WRITE_REQ, (uint16_t)self,
			    (uint16_t)target, sn++, ~0ULL - 7, chunk);
		send_hdr("offset_wraps", tmac, etype_data, &h, chunk, 0);
		/* truncated: shorter than the transport header, and empty */
		h = request(MP_ETH_OP_READ_REQ, (uint16_t)owner,
			    (uint16_t)target, sn++, off, chunk);
		send_hdr("truncated", tmac, etype_data, &h, 0,
			 ETH_HLEN + 1 + r % (MP_ETH_HDR_LEN - 1));
		send_hdr("truncated", tmac, etype_data, &h, 0, ETH_HLEN);
		/* unknown version, opcode, flags; the reserved F_AUTH */
		h = request(MP_ETH_OP_READ_REQ, (uint16_t)owner,
			    (uint16_t)target, sn++, off, chunk);
		h.version = (uint8_t)(2 + r);
		send_hdr("bad_version", tmac, etype_data, &h, 0, 0);
		h.version = MP_ETH_VERSION;
		h.op = (uint8_t)(MP_ETH_OP_OWN_RESP + 1 + r);
		send_hdr("unknown_op", tmac, etype_data, &h, 0, 0);
		h.op = MP_ETH_OP_READ_REQ;
		h.flags = MP_ETH_F_ACK | 0x0100;
		send_hdr("unknown_flags", tmac, etype_data, &h, 0, 0);
		h.flags = MP_ETH_F_ACK | MP_ETH_F_AUTH;
		send_hdr("unknown_flags", tmac, etype_data, &h, 0, 0);
		/* an ack that is not 1..64 behind sn */
		h.flags = MP_ETH_F_ACK;
		h.ack = h.sn;
		send_hdr("bad_ack", tmac, etype_data, &h, 0, 0);
		/* opcodes on the other EtherType */
		h = request(MP_ETH_OP_READ_REQ, (uint16_t)owner,
			    (uint16_t)target, sn++, off, chunk);
		send_hdr("wrong_ethertype", tmac, etype_ctrl, &h, 0, 0);
		/* ownership: release the owner's segment, claim it for us */
		h = request(MP_ETH_OP_OWN_REQ, (uint16_t)owner,
			    (uint16_t)target, sn++,
			    MP_ETH_OWN_OFF(MP_ETH_OWN_RELEASE,
					   off / (128ULL << 20)),
			    MP_ETH_OWN_LEN);
		send_hdr("own_release_forged", tmac, etype_data, &h, 0, 0);
		h.src = (uint16_t)self;
		h.offset = MP_ETH_OWN_OFF(MP_ETH_OWN_CLAIM,
					  off / (128ULL << 20));
		send_hdr("own_claim", tmac, etype_data, &h, 0, 0);
		/* forged responses to the owner, as if from the target */
		for (i = 0; i < 3; i++) {
			uint8_t ops[3] = { MP_ETH_OP_READ_RESP,
					   MP_ETH_OP_WRITE_ACK,
					   MP_ETH_OP_NAK };

			memset(&h, 0, sizeof(h));
			h.version = MP_ETH_VERSION;
			h.op = ops[i];
			h.src = (uint16_t)target;
			h.dst = (uint16_t)owner;
			h.gen = pool_gen;
			h.sn = (uint16_t)(sn + r);
			h.tag = (uint16_t)(r % 256);
			h.offset = off;
			h.len = i ? chunk : 64;
			h.status = i == 2 ? (uint16_t)-5 : 0;
			send_hdr("forged_response", omac, etype_data, &h,
				 i ? 0 : 64, 0);
		}
		sn += 64;		/* every round from another window */
	}
	drain(1500);
	for (i = 0; i < nr_kinds; i++)
		printf("sent %s %llu\n", kinds[i].name, kinds[i].n);
	printf("sent %llu replies %llu bytes_returned %llu\n", sent, replies,
	       bytes_returned);
	return 0;
}

/* ---- spoof: a member's MAC, well-formed requests, no pool key */

static int cmd_spoof(unsigned int target, unsigned int owner, uint64_t off,
		     uint32_t len, unsigned int rounds)
{
	unsigned char f[MAX_FRAME];
	const unsigned char *tmac, *omac;
	unsigned long long seen = 0, seen_bytes = 0;
	uint32_t chunk = len > 1024 ? 1024 : len;
	unsigned int r, i;
	uint16_t sn;
	ssize_t n;

	scan(3);
	print_members();
	if (target >= nr_members || owner >= nr_members || target == owner) {
		fprintf(stderr, "mp_hostile: need devices %u and %u in the pool (%u heard)\n",
			target, owner, nr_members);
		return 1;
	}
	tmac = members[target].mac;
	omac = members[owner].mac;
	srand((unsigned int)now_ns());
	for (r = 0; r < rounds; r++) {
		/* any sequence number: some land in the window, others resync */
		sn = (uint16_t)rand();
		for (i = 0; i < 16; i++, sn++) {
			struct hdr h = request(i & 1 ? MP_ETH_OP_WRITE_REQ :
					       MP_ETH_OP_READ_REQ,
					       (uint16_t)owner,
					       (uint16_t)target, sn, off, chunk);
			size_t l, pl = i & 1 ? chunk : 0;

			/* half of them with a trailer and a made-up tag */
			if (i & 2)
				h.flags |= MP_ETH_F_AUTH;
			l = build(f, tmac, omac, etype_data, &h);
			memset(f + l, 0xee, pl);
			l += pl;
			if (i & 2) {
				put32(f + l, 1);
				put32(f + l + 4, 0);
				put64(f + l + 8, ((uint64_t)rand() << 32) |
				      (uint32_t)rand());
				l += MP_ETH_AUTH_LEN;
			}
			count_kind(i & 2 ? "spoof_bad_tag" : "spoof_no_tag");
			xmit(f, l);
		}
	}
	/* what the target answered to the member we posed as (a hub) */
	for (i = 0; i < 20; i++) {
		n = recv_frame(f, sizeof(f), 100);
		if (n < ETH_HLEN + MP_ETH_HDR_LEN || memcmp(f, omac, ETH_ALEN) ||
		    memcmp(f + ETH_ALEN, tmac, ETH_ALEN) ||
		    etype_of(f) != etype_data)
			continue;
		seen++;
		if (f[ETH_HLEN + 1] == MP_ETH_OP_READ_RESP)
			seen_bytes += (unsigned long long)(n - ETH_HLEN -
							   MP_ETH_HDR_LEN);
	}
	for (i = 0; i < nr_kinds; i++)
		printf("sent %s %llu\n", kinds[i].name, kinds[i].n);
	printf("sent %llu answers_to_owner %llu bytes_returned %llu\n", sent,
	       seen, seen_bytes);
	return 0;
}

/* ---- flood: bogus discovery frames */

static int cmd_flood(unsigned long count, double rate)
{
	static const unsigned char nobody[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 1 };
	const unsigned char *victim = bcast, *other = nobody;
	unsigned char f[MAX_FRAME];
	uint64_t t0, gap = (uint64_t)(1e9 / rate), next;
	unsigned long i;

	scan(2);
	print_members();
	if (nr_members)
		victim = members[0].mac;
	if (nr_members > 1)
		other = members[1].mac;
	t0 = now_ns();
	next = t0;
	for (i = 0; i < count; i++) {
		struct hdr h = {
			.version = MP_ETH_VERSION, .op = MP_ETH_OP_DISCOVER,
			.src = MP_ETH_DEV_ANY, .dst = MP_ETH_DEV_ANY,
			.gen = pool_gen ? pool_gen : 1,
			.len = MP_ETH_DISCOVER_LEN,
		};
		const unsigned char *dst = bcast;
		unsigned char *p = f + ETH_HLEN + MP_ETH_HDR_LEN;
		size_t len;

		/* a payload describing us, then spoiled one way or another */
		put64(p, 0x0badc0de0000ULL + (i % 64));
		put64(p + 8, 256ULL << 20);
		memcpy(p + 16, own_mac, ETH_ALEN);
		put16(p + 22, 1);
		put32(p + 28, 1500);
		switch (i % 9) {
		case 0:
			h.gen = 0;			/* no round 0 */
			break;
		case 1:
			h.gen = DISC_MAX_ROUND + 1 + (uint32_t)i;
			break;
		case 2:
			put64(p, 0);			/* chip id 0 */
			break;
		case 3:
			p[16] |= 1;			/* multicast MAC */
			break;
		case 4:
			put16(p + 22, 0);		/* dev_count 0 */
			break;
		case 5:
			put32(p + 28, 16);		/* MTU too small */
			break;
		case 6:
			/* speaks for a member without being a proxy report */
			memcpy(p + 16, victim, ETH_ALEN);
			break;
		case 7:
			/* a proxy report sent to one device, not broadcast */
			h.op = MP_ETH_OP_DISCOVER_ACK;
			memcpy(p + 16, other, ETH_ALEN);
			dst = victim;
			break;
		default:
			h.len = MP_ETH_DISCOVER_LEN + 8;	/* length */
			break;
		}
		len = build(f, dst, own_mac, etype_ctrl, &h);
		/* the payload's generation must equal the header's */
		put32(p + 24, h.gen);
		len += MP_ETH_DISCOVER_LEN;
		count_kind("flood");
		xmit(f, len);
		next += gap;
		while (now_ns() < next)
			drain(0);
	}
	printf("flood %lu frames in %.3f s\n", count,
	       (double)(now_ns() - t0) / 1e9);
	drain(500);
	printf("sent %llu replies %llu bytes_returned %llu\n", sent, replies,
	       bytes_returned);
	return 0;
}

/* ---- capture and replay */

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int cmd_capture(const char *file, double secs, unsigned long max)
{
	uint64_t end = now_ns() + (uint64_t)(secs * 1e9);
	unsigned char f[MAX_FRAME];
	unsigned long n = 0;
	FILE *out = fopen(file, "wb");
	struct sigaction sa = { .sa_handler = on_term };
	ssize_t len;

	if (!out)
		die(file);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	while (!stop && n < max && now_ns() < end) {
		unsigned char l[2];

		len = recv_frame(f, sizeof(f), 100);
		if (len < ETH_HLEN + MP_ETH_HDR_LEN ||
		    !memcmp(f + ETH_ALEN, own_mac, ETH_ALEN) ||
		    (etype_of(f) != etype_data && etype_of(f) != etype_ctrl))
			continue;
		put16(l, (uint16_t)len);
		if (fwrite(l, 2, 1, out) != 1 ||
		    fwrite(f, (size_t)len, 1, out) != 1)
			die("write");
		fflush(out);
		n++;
	}
	fclose(out);
	printf("captured %lu\n", n);
	return 0;
}

/* ---- parts: forged parts of reads in parts, from a member's own MAC */

static int cmd_parts(double secs)
{
	uint64_t end = now_ns() + (uint64_t)(secs * 1e9);
	unsigned char f[MAX_FRAME], out[MAX_FRAME];
	struct sigaction sa = { .sa_handler = on_term };
	unsigned long forged = 0;
	const unsigned char *t;
	uint16_t stride;
	struct hdr h;
	int one = 1;
	ssize_t len;
	size_t n;

	if (setsockopt(sock, SOL_PACKET, PACKET_QDISC_BYPASS, &one,
		       sizeof(one)) < 0)
		die("PACKET_QDISC_BYPASS");
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	while (!stop && now_ns() < end) {
		len = recv_frame(f, sizeof(f), 100);
		t = f + ETH_HLEN;
		if (len < ETH_HLEN + MP_ETH_HDR_LEN ||
		    memcmp(f, own_mac, ETH_ALEN) || etype_of(f) != etype_data ||
		    t[0] != MP_ETH_VERSION || t[1] != MP_ETH_OP_READ_REQ)
			continue;
		/* a READ_REQ's status word is the stride of its parts */
		stride = get16(t + 28);
		if (!stride || get32(t + 24) <= stride ||
		    ETH_HLEN + MP_ETH_HDR_LEN + (size_t)stride > sizeof(out))
			continue;
		memset(&h, 0, sizeof(h));
		h.version = MP_ETH_VERSION;
		h.op = MP_ETH_OP_READ_RESP;
		h.flags = get16(t + 2) & MP_ETH_F_RETX;
		h.src = get16(t + 6);
		h.dst = get16(t + 4);
		h.gen = get32(t + 8);
		h.sn = get16(t + 12);
		h.tag = get16(t + 14);
		h.offset = get64(t + 16) + 1;
		h.len = stride;
		n = build(out, f + ETH_ALEN, own_mac, etype_data, &h);
		memset(out + n, 0x5a, stride);
		if (!send_raw(out, n + stride))
			forged++;
	}
	printf("forged %lu\n", forged);
	return 0;
}

/*
 * gen_delta: shift the generation of data frames; tamper: change one
 * offset byte of each data frame and keep its trailer as it was.
 */
static int cmd_replay(const char *file, int gen_delta, int tamper)
{
	unsigned char f[MAX_FRAME], l[2];
	unsigned long n = 0, data = 0, ctrl = 0;
	FILE *in = fopen(file, "rb");
	size_t len;

	if (!in)
		die(file);
	while (fread(l, 2, 1, in) == 1) {
		len = get16(l);
		if (len > sizeof(f) || fread(f, len, 1, in) != 1)
			break;
		/*
		 * Another generation: data frames only. A discovery frame of
		 * a member in another round is how a member that restarted
		 * comes back; without a pool key nobody can tell it from a
		 * replay (Documentation/security.rst).
		 */
		if ((gen_delta || tamper) && etype_of(f) != etype_data)
			continue;
		if (tamper && len >= ETH_HLEN + MP_ETH_HDR_LEN)
			f[ETH_HLEN + 23] ^= 0x40;
		if (gen_delta && len >= ETH_HLEN + MP_ETH_HDR_LEN)
			put32(f + ETH_HLEN + 8,
			      get32(f + ETH_HLEN + 8) + (uint32_t)gen_delta);
		if (etype_of(f) == etype_data)
			data++;
		else
			ctrl++;
		xmit(f, len);
		n++;
		if (!(n % 32))
			usleep(2000);
	}
	fclose(in);
	drain(1000);
	printf("replayed %lu data %lu control %lu replies %llu bytes_returned %llu\n",
	       n, data, ctrl, replies, bytes_returned);
	return 0;
}

/* ---- rendezvous without our modules */

#define SIG_MAGIC	0x4d504853	/* "MPHS" */
#define SIG_TOK		1
#define SIG_ACK		2

static void sig_send1(int type, const char *token)
{
	unsigned char f[ETH_ZLEN + 64];
	size_t tl = strlen(token);

	memset(f, 0, sizeof(f));
	memcpy(f, bcast, ETH_ALEN);
	memcpy(f + ETH_ALEN, own_mac, ETH_ALEN);
	put16(f + 12, ETYPE_SIG);
	put32(f + 14, SIG_MAGIC);
	f[18] = (unsigned char)type;
	f[19] = (unsigned char)tl;
	memcpy(f + 20, token, tl);
	if (send_raw(f, sizeof(f)))
		die("sendto");
}

/* A rendezvous frame of @type for @token? Its sender in @from. */
static int sig_is(const unsigned char *f, ssize_t n, int type,
		  const char *token, unsigned char *from)
{
	size_t tl = strlen(token);

	if (n < 20 || etype_of(f) != ETYPE_SIG || get32(f + 14) != SIG_MAGIC ||
	    f[18] != type || f[19] != tl || (size_t)n < 20 + tl ||
	    memcmp(f + 20, token, tl))
		return 0;
	memcpy(from, f + ETH_ALEN, ETH_ALEN);
	return 1;
}

static int cmd_sig(const char *what, const char *token, double secs,
		   unsigned int nacks)
{
	uint64_t end = now_ns() + (uint64_t)(secs * 1e9), next = 0;
	unsigned char acked[MAX_MEMBERS][ETH_ALEN], from[ETH_ALEN];
	unsigned char f[MAX_FRAME];
	unsigned int nr = 0, i;
	ssize_t n;

	if (strlen(token) > 40)
		return 2;
	if (!strcmp(what, "wait")) {
		while (now_ns() < end) {
			n = recv_frame(f, sizeof(f), 100);
			if (!sig_is(f, n, SIG_TOK, token, from))
				continue;
			for (i = 0; i < 5; i++) {
				sig_send1(SIG_ACK, token);
				usleep(20000);
			}
			return 0;
		}
		fprintf(stderr, "mp_hostile: no '%s' within %.0f s\n", token,
			secs);
		return 1;
	}
	while (now_ns() < end) {
		if (now_ns() >= next) {
			sig_send1(SIG_TOK, token);
			next = now_ns() + 200000000ULL;
		}
		n = recv_frame(f, sizeof(f), 50);
		if (!sig_is(f, n, SIG_ACK, token, from))
			continue;
		for (i = 0; i < nr; i++)
			if (!memcmp(acked[i], from, ETH_ALEN))
				break;
		if (i == nr && nr < MAX_MEMBERS)
			memcpy(acked[nr++], from, ETH_ALEN);
		if (nr >= nacks)
			return 0;
	}
	fprintf(stderr, "mp_hostile: '%s' acked by %u of %u within %.0f s\n",
		token, nr, nacks, secs);
	return 1;
}

static void usage(void)
{
	fprintf(stderr, "mp_hostile [-i IFACE] [-m MACS [-g GEN]]\n"
		"  scan|attack|spoof|flood|capture|replay|parts|sig ...\n"
		"(see the comment at the top of mp_hostile.c)\n");
	exit(2);
}

static unsigned long long num(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	const char *ifname = "eth0", *cmd;
	int c;

	while ((c = getopt(argc, argv, "+i:D:C:m:g:")) != -1) {
		switch (c) {
		case 'i':
			ifname = optarg;
			break;
		case 'm':
			if (parse_members(optarg))
				usage();
			break;
		case 'g':
			preset_gen = (uint32_t)num(optarg);
			break;
		case 'D':
			etype_data = (unsigned int)num(optarg);
			break;
		case 'C':
			etype_ctrl = (unsigned int)num(optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	cmd = argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);
	open_sock(ifname, !strcmp(cmd, "capture") || !strcmp(cmd, "spoof"));
	if (!strcmp(cmd, "scan") && argc == 2)
		return cmd_scan(atof(argv[1]));
	if (!strcmp(cmd, "attack") && (argc == 5 || argc == 6))
		return cmd_attack((unsigned int)num(argv[1]),
				  (unsigned int)num(argv[2]), num(argv[3]),
				  (uint32_t)num(argv[4]),
				  argc == 6 ? (unsigned int)num(argv[5]) : 20);
	if (!strcmp(cmd, "flood") && argc == 3)
		return cmd_flood(num(argv[1]), atof(argv[2]));
	if (!strcmp(cmd, "capture") && (argc == 3 || argc == 4))
		return cmd_capture(argv[1], atof(argv[2]),
				   argc == 4 ? num(argv[3]) : 4096);
	if (!strcmp(cmd, "replay") && (argc == 2 || argc == 3))
		return cmd_replay(argv[1], argc == 3 && strcmp(argv[2], "tamper") ?
				  atoi(argv[2]) : 0,
				  argc == 3 && !strcmp(argv[2], "tamper"));
	if (!strcmp(cmd, "spoof") && (argc == 5 || argc == 6))
		return cmd_spoof((unsigned int)num(argv[1]),
				 (unsigned int)num(argv[2]), num(argv[3]),
				 (uint32_t)num(argv[4]),
				 argc == 6 ? (unsigned int)num(argv[5]) : 20);
	if (!strcmp(cmd, "parts") && argc == 2)
		return cmd_parts(atof(argv[1]));
	if (!strcmp(cmd, "sig") && argc >= 3)
		return cmd_sig(argv[1], argv[2], argc > 3 ? atof(argv[3]) : 60,
			       argc > 4 ? (unsigned int)num(argv[4]) : 1);
	usage();
	return 2;
}
