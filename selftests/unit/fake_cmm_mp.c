// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for the cmm_mp kernel module's generic netlink family, so
 * that libmp and mpctl can be tested on a host where the module is never
 * loaded. Preloaded (LD_PRELOAD, or linked before libc), it takes over
 * NETLINK_GENERIC sockets: each becomes one end of an AF_UNIX datagram
 * socketpair, requests sent on it are answered here, synchronously, the
 * way the kernel answers them (genetlink controller lookups, doit replies
 * then ACK, dumps with NLM_F_MULTI then NLMSG_DONE, NLMSG_ERROR with the
 * request echoed unless capped and an extended ack message, strict
 * attribute validation, GENL_ADMIN_PERM, multicast events), and memory
 * blocks are "hot-added" as files under $MP_SYSFS_ROOT.
 *
 * It follows include/uapi/linux/cmm_mp.h and the semantics in
 * Documentation/libmp.rst; it is a test double, not a specification.
 *
 * Environment:
 *   FAKE_CMM_MP_UNLOADED=1    the family does not exist (module not loaded)
 *   FAKE_CMM_MP_DEVS=N        devices (default 1); device 0 is local, the
 *                             others remote (no phys range, no node)
 *   FAKE_CMM_MP_SEGS=N        segments per device (default 4, max 16)
 *   FAKE_CMM_MP_STATE=FILE    keep segment states in FILE across processes
 *   FAKE_CMM_MP_FAIL=CMD:SEG:ERRNO[:MSG]
 *                             make CMD (online, offline, seg_get, seg_dump,
 *                             dev_dump) on segment SEG (or *) fail with
 *                             -ERRNO and extended ack MSG; seg_dump fails
 *                             after the first segment (error in NLMSG_DONE)
 *   FAKE_CMM_MP_DUMP_INTR=SEG[:TIMES]
 *                             the pool map changes before segment SEG of a
 *                             segment dump goes out, in the first TIMES
 *                             dumps of the process (every one without
 *                             TIMES): as in the kernel, the first message
 *                             after the change carries NLM_F_DUMP_INTR, or
 *                             the NLMSG_DONE when none follows
 *   FAKE_CMM_MP_BADBLOCK=N    memory block N refuses to go online
 *   FAKE_CMM_MP_AUTOONLINE=1  hot-added blocks come up online already;
 *                             =normal or =movable: and valid_zones says so
 *   FAKE_CMM_MP_NOTROOT=1     act as if the caller were not privileged
 *   FAKE_CMM_MP_FAMILY=ID     the family id (default 42): change it to act
 *                             out a module reload
 *   FAKE_CMM_MP_NOBACKEND=1   no backend takes the pool key (mp_eth not
 *                             loaded): CMM_MP_CMD_KEY_SET fails -ENODEV
 *   FAKE_CMM_MP_KEYLOG=FILE   each key operation appends "OP ID HEX" (HEX
 *                             "-" for clear) to FILE, so a test sees what
 *                             reached the kernel
 *   FAKE_CMM_MP_REQLOG=FILE   each command that changes something (online,
 *                             offline, repair, key) appends "CMD SEG" and
 *                             its mode/mirror attributes to FILE, so a test
 *                             sees that nothing was sent
 *   FAKE_CMM_MP_LOST=N        device N (not 0) is lost: the mirrored pairs
 *                             with a copy on it become degraded, and stay
 *                             so once it returns, until repaired
 *
 * Segments onlined as dax or blk (pooling mode only) are held by device
 * 0, the local one, with a /dev/mps<N> or /dev/mpb<N> node; with
 * CMM_MP_A_SEG_MIRROR both segments of the pair are (the mirrored
 * segments' contract in include/uapi/linux/cmm_mp.h). A rebuild started
 * by CMM_MP_CMD_SEG_REPAIR never ends here: it stays at a quarter of the
 * segment.
 *
 * The pool key's backend is mp_eth's: the ids of the keys held go to
 * $MP_SYSFS_ROOT/class/misc/mp_eth/key_ids as mp_eth shows them ("none",
 * "7* 8": at most two keys, the one that signs marked).
 *   MP_SYSFS_ROOT=DIR         fake sysfs (required for online)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <linux/cmm_mp.h>

#include "util/cmm_mp_attrs.h"
#include "util/util.h"

#define FAKE_FAMILY_ID		family_id()
#define FAKE_GROUP_ID		7
#define FAKE_MAX_FDS		1024
#define FAKE_MAX_SEGS		64
#define FAKE_SEG_SIZE		(128ULL << 20)
#define FAKE_BLOCK_SIZE		(128ULL << 20)
#define FAKE_LOCAL_PHYS		0x70000000ULL
#define FAKE_CHIP_BASE		0x525400000000ULL

struct fake_sock {
	bool used;
	int peer;		/* we write answers here; the user reads fd */
	uint32_t port;
	bool ext_ack, cap_ack, events;
};

static struct fake_sock socks[FAKE_MAX_FDS];
static uint32_t next_port = 1000;

static int (*real_socket)(int, int, int);
static int (*real_close)(int);
static int (*real_bind)(int, const struct sockaddr *, socklen_t);
static int (*real_getsockname)(int, struct sockaddr *, socklen_t *);
static int (*real_setsockopt)(int, int, int, const void *, socklen_t);
static ssize_t (*real_sendmsg)(int, const struct msghdr *, int);
static ssize_t (*real_sendto)(int, const void *, size_t, int,
			      const struct sockaddr *, socklen_t);
static ssize_t (*real_send)(int, const void *, size_t, int);
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static ssize_t (*real_recvfrom)(int, void *, size_t, int, struct sockaddr *,
				socklen_t *);

#define RESOLVE(name) \
	do { \
		if (!real_##name) \
			real_##name = dlsym(RTLD_NEXT, #name); \
	} while (0)

static unsigned int env_uint(const char *name, unsigned int def,
			     unsigned int max);

static uint16_t family_id(void)
{
	return (uint16_t)env_uint("FAKE_CMM_MP_FAMILY", 0x2a, 0xffff);
}

static struct fake_sock *fake_of(int fd)
{
	if (fd < 0 || fd >= FAKE_MAX_FDS || !socks[fd].used)
		return NULL;
	return &socks[fd];
}

/* ---- the pool ---------------------------------------------------------- */

struct fake_pool {
	unsigned int nr_devs, segs_per_dev;
	uint32_t state[FAKE_MAX_SEGS];
	bool memmap[FAKE_MAX_SEGS];	/* online with memmap_on_memory */
	/* held as dax or blk (state OWNED): the mode, the pair */
	uint32_t mode[FAKE_MAX_SEGS];
	uint32_t mirror[FAKE_MAX_SEGS];	/* CMM_MP_NONE when none */
	uint32_t red[FAKE_MAX_SEGS];	/* the pair's redundancy */
	bool lost[FAKE_MAX_SEGS];	/* this copy is the lost one */
	uint32_t node[FAKE_MAX_SEGS];	/* N of its /dev/mps<N>, /dev/mpb<N> */
};

/* in the state file: a segment's memmap_on_memory, above its state */
#define FAKE_STATE_MEMMAP	0x10000u

static unsigned int env_uint(const char *name, unsigned int def,
			     unsigned int max)
{
	const char *v = getenv(name);
	unsigned int n;

	if (!v || !*v)
		return def;
	n = (unsigned int)strtoul(v, NULL, 0);
	return n > max ? max : n;
}

static bool env_true(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

static unsigned int nr_segs(const struct fake_pool *p)
{
	return p->nr_devs * p->segs_per_dev;
}

/*
 * A line of the state file: "ID STATE", and for a segment held as dax or
 * blk " MODE MIRROR REDUNDANCY LOST NODE" after it.
 */
static void pool_load(struct fake_pool *p)
{
	const char *path = getenv("FAKE_CMM_MP_STATE");
	unsigned int id, st, mode, mirror, red, lost, node, i;
	char line[128];
	FILE *f;

	memset(p, 0, sizeof(*p));
	p->nr_devs = env_uint("FAKE_CMM_MP_DEVS", 1, 4);
	p->segs_per_dev = env_uint("FAKE_CMM_MP_SEGS", 4, 16);
	for (i = 0; i < FAKE_MAX_SEGS; i++)
		p->mirror[i] = CMM_MP_NONE;
	if (!path)
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%u %u %u %u %u %u %u", &id, &st, &mode,
			       &mirror, &red, &lost, &node);

		if (n < 2 || id >= FAKE_MAX_SEGS)
			continue;
		p->state[id] = st & ~FAKE_STATE_MEMMAP;
		p->memmap[id] = st & FAKE_STATE_MEMMAP;
		if (n < 7)
			continue;
		p->mode[id] = mode;
		p->mirror[id] = mirror;
		p->red[id] = red;
		p->lost[id] = lost;
		p->node[id] = node;
	}
	fclose(f);
}

/* Without FAKE_CMM_MP_STATE the pool lives in this process only. */
static struct fake_pool mem_pool;
static bool mem_pool_init;

static void pool_get(struct fake_pool *p)
{
	if (getenv("FAKE_CMM_MP_STATE")) {
		pool_load(p);
		return;
	}
	if (!mem_pool_init) {
		pool_load(&mem_pool);
		mem_pool_init = true;
	}
	*p = mem_pool;
}

static void pool_put(const struct fake_pool *p)
{
	const char *path = getenv("FAKE_CMM_MP_STATE");
	unsigned int i;
	FILE *f;

	if (!path) {
		mem_pool = *p;
		return;
	}
	f = fopen(path, "w");
	if (!f)
		return;
	for (i = 0; i < nr_segs(p); i++) {
		fprintf(f, "%u %u", i,
			p->state[i] | (p->memmap[i] ? FAKE_STATE_MEMMAP : 0));
		if (p->state[i] == CMM_MP_SEG_OWNED)
			fprintf(f, " %u %u %u %u %u", p->mode[i], p->mirror[i],
				p->red[i], p->lost[i], p->node[i]);
		fputc('\n', f);
	}
	fclose(f);
}

/* FAKE_CMM_MP_LOST: the device that is lost now, or CMM_MP_NONE */
static uint32_t lost_dev(const struct fake_pool *p)
{
	uint32_t d = env_uint("FAKE_CMM_MP_LOST", CMM_MP_NONE, CMM_MP_NONE);

	return d && d < p->nr_devs ? d : CMM_MP_NONE;
}

static uint32_t seg_dev(const struct fake_pool *p, uint32_t id)
{
	return id / p->segs_per_dev;
}

/*
 * A copy on the lost device is lost: its pair is degraded from now on
 * (and stays so after the device returns, until a repair). Return: true
 * when that changed anything.
 */
static bool pool_apply_lost(struct fake_pool *p)
{
	uint32_t d = lost_dev(p), i;
	bool changed = false;

	for (i = 0; d != CMM_MP_NONE && i < nr_segs(p); i++) {
		uint32_t m = p->mirror[i];

		if (m == CMM_MP_NONE || seg_dev(p, i) != d ||
		    p->red[i] != CMM_MP_SEG_MIRRORED)
			continue;
		p->red[i] = CMM_MP_SEG_DEGRADED;
		p->red[m] = CMM_MP_SEG_DEGRADED;
		p->lost[i] = true;
		changed = true;
	}
	return changed;
}

static void pool_put(const struct fake_pool *p);

static bool seg_local(const struct fake_pool *p, uint32_t id)
{
	return id / p->segs_per_dev == 0;
}

static uint64_t seg_phys(const struct fake_pool *p, uint32_t id)
{
	return seg_local(p, id) ?
		FAKE_LOCAL_PHYS + (id % p->segs_per_dev) * FAKE_SEG_SIZE : 0;
}

/* One block per segment: FAKE_SEG_SIZE == FAKE_BLOCK_SIZE. */
static uint32_t seg_block(const struct fake_pool *p, uint32_t id)
{
	return (uint32_t)(seg_phys(p, id) / FAKE_BLOCK_SIZE);
}

static int block_path(uint32_t nr, const char *leaf, char *buf, size_t len)
{
	const char *root = getenv("MP_SYSFS_ROOT");

	if (!root || !*root)
		return -EIO;	/* never touch the real /sys */
	snprintf(buf, len, "%s/devices/system/memory/memory%u%s%s", root, nr,
		 leaf ? "/" : "", leaf ? leaf : "");
	return 0;
}

static int mkdir_p(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(path, 0755) && errno != EEXIST ? -errno : 0;
}

/* valid_zones of an auto-onlined block: "Normal" or "Movable" */
static int block_zones(uint32_t nr, const char *how)
{
	const char *z = NULL;
	char path[4096];
	int fd, rc;

	if (how && !strcmp(how, "normal"))
		z = "Normal\n";
	else if (how && !strcmp(how, "movable"))
		z = "Movable\n";
	if (block_path(nr, "valid_zones", path, sizeof(path)))
		return -EIO;
	unlink(path);
	if (!z)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -errno;
	rc = write(fd, z, strlen(z)) == (ssize_t)strlen(z) ? 0 : -EIO;
	close(fd);
	return rc;
}

static int block_add(uint32_t nr)
{
	char path[4096];
	int fd, rc;

	rc = block_path(nr, NULL, path, sizeof(path));
	if (rc)
		return rc;
	rc = mkdir_p(path);
	if (rc)
		return rc;
	block_path(nr, "state", path, sizeof(path));
	unlink(path);
	if ((int)nr == (int)env_uint("FAKE_CMM_MP_BADBLOCK", -1U, -1U))
		return symlink("/dev/full", path) ? -errno : 0;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -errno;
	if (env_true("FAKE_CMM_MP_AUTOONLINE"))
		rc = write(fd, "online\n", 7) == 7 ? 0 : -EIO;
	else
		rc = write(fd, "offline\n", 8) == 8 ? 0 : -EIO;
	close(fd);
	if (!rc)
		rc = block_zones(nr, getenv("FAKE_CMM_MP_AUTOONLINE"));
	return rc;
}

static void block_remove(uint32_t nr)
{
	char path[4096];

	if (block_path(nr, "state", path, sizeof(path)))
		return;
	unlink(path);
	block_path(nr, "valid_zones", path, sizeof(path));
	unlink(path);
	block_path(nr, NULL, path, sizeof(path));
	rmdir(path);
}

/* What libmp wrote decides the zone, as the kernel's online would. */
static void block_count(uint32_t nr, uint32_t *online, uint32_t *movable)
{
	char path[4096], buf[32] = "";
	ssize_t n;
	int fd;

	if (block_path(nr, "state", path, sizeof(path)))
		return;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	if (!strncmp(buf, "online_movable", 14)) {
		(*online)++;
		(*movable)++;
	} else if (!strncmp(buf, "online", 6)) {
		(*online)++;
		/* onlined by the "kernel" (auto-online): its valid_zones */
		if (!block_path(nr, "valid_zones", path, sizeof(path))) {
			fd = open(path, O_RDONLY);
			if (fd >= 0) {
				n = read(fd, buf, sizeof(buf) - 1);
				close(fd);
				if (n >= 7 && !strncmp(buf, "Movable", 7))
					(*movable)++;
			}
		}
	}
}

/* ---- message building -------------------------------------------------- */

struct mbuf {
	union {
		unsigned char data[65536];
		uint64_t align;
	};
	size_t len;
};

static void *mb_put(struct mbuf *b, size_t len)
{
	void *p = b->data + b->len;

	memset(p, 0, NLMSG_ALIGN(len));
	b->len += NLMSG_ALIGN(len);
	return p;
}

static size_t msg_begin(struct mbuf *b, uint16_t type, uint16_t flags,
			uint32_t seq, uint32_t port)
{
	size_t off = b->len;
	struct nlmsghdr *nlh = mb_put(b, NLMSG_HDRLEN);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_pid = port;
	return off;
}

static void msg_end(struct mbuf *b, size_t off)
{
	((struct nlmsghdr *)(b->data + off))->nlmsg_len = b->len - off;
}

static void genl_put(struct mbuf *b, uint8_t cmd)
{
	struct genlmsghdr *g = mb_put(b, GENL_HDRLEN);

	g->cmd = cmd;
	g->version = CMM_MP_GENL_VERSION;
}

static void attr_put(struct mbuf *b, uint16_t type, const void *data,
		     size_t len)
{
	struct nlattr *a = mb_put(b, NLA_HDRLEN + len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
}

static void put_u32(struct mbuf *b, uint16_t type, uint32_t v)
{
	attr_put(b, type, &v, sizeof(v));
}

/* Like nla_put_u64_64bit(): pad so the payload is 8-byte aligned. */
static void put_u64(struct mbuf *b, uint16_t type, uint64_t v)
{
	if (!((b->len + NLA_HDRLEN) % 8 == 0))
		attr_put(b, CMM_MP_A_PAD, NULL, 0);
	attr_put(b, type, &v, sizeof(v));
}

static void put_str(struct mbuf *b, uint16_t type, const char *s)
{
	attr_put(b, type, s, strlen(s) + 1);
}

static size_t nest_begin(struct mbuf *b, uint16_t type)
{
	size_t off = b->len;

	attr_put(b, type | NLA_F_NESTED, NULL, 0);
	return off;
}

static void nest_end(struct mbuf *b, size_t off)
{
	((struct nlattr *)(b->data + off))->nla_len = b->len - off;
}

static void deliver(int fd, struct mbuf *b)
{
	struct fake_sock *s = fake_of(fd);

	if (s && b->len && write(s->peer, b->data, b->len) < 0)
		fprintf(stderr, "fake_cmm_mp: %s: %s\n", __func__,
			strerror(errno));
	b->len = 0;
}

/* ---- answers ------------------------------------------------------------ */

static void put_err(struct mbuf *b, struct fake_sock *s,
		    const struct nlmsghdr *req, int err, const char *msg)
{
	bool capped = !err || s->cap_ack;
	uint16_t flags = capped ? NLM_F_CAPPED : 0;
	size_t off, echo = capped ? NLMSG_HDRLEN : req->nlmsg_len;
	int *e;

	if (msg && s->ext_ack)
		flags |= NLM_F_ACK_TLVS;
	off = msg_begin(b, NLMSG_ERROR, flags, req->nlmsg_seq, s->port);
	e = mb_put(b, sizeof(int) + echo);
	*e = err;
	memcpy(e + 1, req, echo);
	if (capped)
		((struct nlmsghdr *)(e + 1))->nlmsg_len = req->nlmsg_len;
	if (msg && s->ext_ack)
		put_str(b, NLMSGERR_ATTR_MSG, msg);
	msg_end(b, off);
}

static void put_done(struct mbuf *b, struct fake_sock *s,
		     const struct nlmsghdr *req, int err, const char *msg,
		     uint16_t flags)
{
	size_t off;
	int *e;

	off = msg_begin(b, NLMSG_DONE,
			NLM_F_MULTI | flags |
			(msg && s->ext_ack ? NLM_F_ACK_TLVS : 0),
			req->nlmsg_seq, s->port);
	e = mb_put(b, sizeof(int));
	*e = err;
	if (msg && s->ext_ack)
		put_str(b, NLMSGERR_ATTR_MSG, msg);
	msg_end(b, off);
}

static void put_dev(struct mbuf *b, const struct fake_pool *p, uint32_t dev,
		    uint8_t cmd, uint16_t flags, uint32_t seq, uint32_t port)
{
	size_t off = msg_begin(b, FAKE_FAMILY_ID, flags, seq, port);
	char name[16];

	genl_put(b, cmd);
	snprintf(name, sizeof(name), "mp%u", dev);
	put_u32(b, CMM_MP_A_DEV_ID, dev);
	put_str(b, CMM_MP_A_DEV_NAME, name);
	put_u64(b, CMM_MP_A_CHIP_ID, FAKE_CHIP_BASE + dev);
	put_u64(b, CMM_MP_A_DEV_PHYS, dev ? 0 : FAKE_LOCAL_PHYS);
	put_u64(b, CMM_MP_A_DEV_SIZE, p->segs_per_dev * FAKE_SEG_SIZE);
	put_u64(b, CMM_MP_A_SEG_SIZE, FAKE_SEG_SIZE);
	put_u32(b, CMM_MP_A_NR_SEGS, p->segs_per_dev);
	put_u32(b, CMM_MP_A_NODE, dev ? CMM_MP_NONE : 1);
	put_u64(b, CMM_MP_A_BLOCK_SIZE, FAKE_BLOCK_SIZE);
	if (dev == lost_dev(p))
		put_u32(b, CMM_MP_A_DEV_STATE, CMM_MP_DEV_LOST);
	put_u32(b, CMM_MP_A_DEV_LOCAL, !dev);
	if (!dev) {
		/* dax_kmem's distance and DRAM's, as the module sends them */
		put_u32(b, CMM_MP_A_DEV_ADISTANCE, 2880);
		put_u32(b, CMM_MP_A_DRAM_ADISTANCE, 576);
	}
	msg_end(b, off);
}

static void put_seg(struct mbuf *b, const struct fake_pool *p, uint32_t id,
		    uint8_t cmd, uint16_t flags, uint32_t seq, uint32_t port)
{
	size_t off = msg_begin(b, FAKE_FAMILY_ID, flags, seq, port);
	bool local = seg_local(p, id);
	bool held = p->state[id] == CMM_MP_SEG_OWNED;
	uint32_t online = 0, movable = 0;

	if (local && p->state[id] == CMM_MP_SEG_ONLINE_RAM)
		block_count(seg_block(p, id), &online, &movable);
	genl_put(b, cmd);
	put_u32(b, CMM_MP_A_SEG_ID, id);
	put_u32(b, CMM_MP_A_DEV_ID, id / p->segs_per_dev);
	put_u64(b, CMM_MP_A_SEG_NHA, id * FAKE_SEG_SIZE);
	put_u64(b, CMM_MP_A_SEG_PHYS, seg_phys(p, id));
	put_u64(b, CMM_MP_A_SEG_SIZE, FAKE_SEG_SIZE);
	put_u32(b, CMM_MP_A_SEG_STATE, p->state[id]);
	put_u32(b, CMM_MP_A_SEG_MODE, held ? p->mode[id] : CMM_MP_SEG_MODE_RAM);
	put_u32(b, CMM_MP_A_SEG_OWNER, held ? 0 : CMM_MP_NONE);
	put_u32(b, CMM_MP_A_NODE, local ? 1 : CMM_MP_NONE);
	put_u32(b, CMM_MP_A_MEMBLK_FIRST, local ? seg_block(p, id) : 0);
	put_u32(b, CMM_MP_A_MEMBLK_COUNT, local ? 1 : 0);
	put_u32(b, CMM_MP_A_MEMBLK_ONLINE, online);
	put_u32(b, CMM_MP_A_MEMBLK_MOVABLE, movable);
	put_u32(b, CMM_MP_A_SEG_MEMMAP_ON_MEMORY, p->memmap[id]);
	if (held) {
		/* one node for the pair: the segment onlined */
		char node[32];

		snprintf(node, sizeof(node), "/dev/mp%c%u",
			 p->mode[id] == CMM_MP_SEG_MODE_BLK ? 'b' : 's',
			 p->node[id]);
		put_str(b, CMM_MP_A_SEG_DEVNODE, node);
	}
	if (held && p->mirror[id] != CMM_MP_NONE) {
		put_u32(b, CMM_MP_A_SEG_MIRROR, p->mirror[id]);
		put_u32(b, CMM_MP_A_SEG_REDUNDANCY, p->red[id]);
		if (p->red[id] == CMM_MP_SEG_REBUILDING)
			put_u64(b, CMM_MP_A_SEG_REBUILT, FAKE_SEG_SIZE / 4);
	}
	msg_end(b, off);
}

/* FAKE_CMM_MP_FAIL: does @cmd on @seg fail, and how? */
static int injected(const char *cmd, uint32_t seg, const char **msg)
{
	static char buf[256];
	const char *v = getenv("FAKE_CMM_MP_FAIL");
	char *c, *sg, *er, *m, *save;

	*msg = NULL;
	if (!v)
		return 0;
	snprintf(buf, sizeof(buf), "%s", v);
	c = strtok_r(buf, ":", &save);
	sg = strtok_r(NULL, ":", &save);
	er = strtok_r(NULL, ":", &save);
	m = strtok_r(NULL, "", &save);
	if (!c || !sg || !er || strcmp(c, cmd))
		return 0;
	if (strcmp(sg, "*") && strtoul(sg, NULL, 0) != seg)
		return 0;
	*msg = m;
	return -(int)strtoul(er, NULL, 0);
}

/* Strict validation, as genetlink does by default. */
static int parse_attrs(const struct nlmsghdr *nlh,
		       const struct nlattr **tb, const char **emsg)
{
	const unsigned char *p = (const unsigned char *)nlh +
				 NLMSG_HDRLEN + GENL_HDRLEN;
	const unsigned char *end = (const unsigned char *)nlh +
				   nlh->nlmsg_len;

	memset(tb, 0, sizeof(*tb) * (CMM_MP_A_MAX + 1));
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;
		int type = a->nla_type & NLA_TYPE_MASK;
		int len = a->nla_len - NLA_HDRLEN;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end) {
			*emsg = "Attribute length out of range";
			return -EINVAL;
		}
		if (type == 0 || type > CMM_MP_A_MAX) {
			*emsg = "Unknown attribute type";
			return -EINVAL;
		}
		/* the table libmp's policy comes from (util/cmm_mp_attrs.c) */
		if (cmm_mp_attr_descs[type].kind == CMM_MP_T_STRING) {
			if (len < 1 || len > (int)cmm_mp_attr_descs[type].len ||
			    ((const char *)a + NLA_HDRLEN)[len - 1]) {
				*emsg = "Attribute failed policy validation";
				return -EINVAL;
			}
		} else if (cmm_mp_attr_descs[type].len &&
			   len != (int)cmm_mp_attr_descs[type].len) {
			*emsg = "Attribute failed policy validation";
			return -EINVAL;
		}
		tb[type] = a;
		p += NLA_ALIGN(a->nla_len);
	}
	return 0;
}

static uint32_t get_u32(const struct nlattr *a)
{
	uint32_t v;

	memcpy(&v, (const char *)a + NLA_HDRLEN, sizeof(v));
	return v;
}

static void multicast(const struct fake_pool *p, uint32_t id)
{
	struct mbuf *b = malloc(sizeof(*b));
	int fd;

	if (!b)
		return;
	for (fd = 0; fd < FAKE_MAX_FDS; fd++) {
		if (!socks[fd].used || !socks[fd].events)
			continue;
		b->len = 0;
		put_seg(b, p, id, CMM_MP_CMD_SEG_EVENT, 0, 0, 0);
		deliver(fd, b);
	}
	free(b);
}

/*
 * @memmap: CMM_MP_A_SEG_MEMMAP_ON_MEMORY asked for; FAKE_CMM_MP_NO_MEMMAP
 * plays a kernel booted without memory_hotplug.memmap_on_memory=1.
 */
static int seg_online(struct fake_pool *p, uint32_t id, bool memmap,
		      const char **emsg)
{
	int rc;

	if (p->state[id] != CMM_MP_SEG_OFFLINE) {
		*emsg = "segment is already online";
		return -EALREADY;
	}
	if (!seg_local(p, id)) {
		*emsg = "remote segments cannot be System RAM";
		return -EOPNOTSUPP;
	}
	if (memmap && env_true("FAKE_CMM_MP_NO_MEMMAP")) {
		*emsg = "memmap_on_memory refused: boot with memory_hotplug.memmap_on_memory=1";
		return -EOPNOTSUPP;
	}
	rc = block_add(seg_block(p, id));
	if (rc) {
		*emsg = "fake: MP_SYSFS_ROOT not usable";
		return rc;
	}
	p->state[id] = CMM_MP_SEG_ONLINE_RAM;
	p->memmap[id] = memmap;
	return 0;
}

/* Hold @id as a dax or blk device of this host, alone or as a copy. */
static void seg_hold(struct fake_pool *p, uint32_t id, uint32_t mode,
		     uint32_t mirror, uint32_t node)
{
	p->state[id] = CMM_MP_SEG_OWNED;
	p->mode[id] = mode;
	p->mirror[id] = mirror;
	p->red[id] = mirror == CMM_MP_NONE ? 0 : CMM_MP_SEG_MIRRORED;
	p->lost[id] = false;
	p->node[id] = node;
}

static void seg_release(struct fake_pool *p, uint32_t id)
{
	p->state[id] = CMM_MP_SEG_OFFLINE;
	p->mode[id] = 0;
	p->mirror[id] = CMM_MP_NONE;
	p->red[id] = 0;
	p->lost[id] = false;
	p->node[id] = 0;
}

/*
 * dax or blk, pooling mode, with a second copy on @mirror (or
 * CMM_MP_NONE), as kernel/cmm_mp checks it.
 */
static int seg_map(struct fake_pool *p, uint32_t id, uint32_t mode,
		   bool shared, uint32_t mirror, const char **emsg)
{
	if (shared) {
		*emsg = mirror != CMM_MP_NONE ?
			"a mirrored segment cannot be shared" :
			"fake: no sharing mode";
		return mirror != CMM_MP_NONE ? -EINVAL : -EOPNOTSUPP;
	}
	if (p->state[id] != CMM_MP_SEG_OFFLINE) {
		*emsg = "segment is already online";
		return -EALREADY;
	}
	if (mirror != CMM_MP_NONE) {
		if (mirror >= nr_segs(p))
			return -ENOENT;
		if (seg_dev(p, mirror) == seg_dev(p, id)) {
			*emsg = "the mirror must be on another device";
			return -EINVAL;
		}
		if (p->state[mirror] != CMM_MP_SEG_OFFLINE) {
			*emsg = "the mirror segment is not offline";
			return -EBUSY;
		}
		seg_hold(p, mirror, mode, id, id);
	}
	seg_hold(p, id, mode, mirror, id);
	return 0;
}

static int seg_offline(struct fake_pool *p, uint32_t id, const char **emsg)
{
	if (p->state[id] == CMM_MP_SEG_OWNED) {
		if (p->mirror[id] != CMM_MP_NONE)
			seg_release(p, p->mirror[id]);
		seg_release(p, id);
		return 0;
	}
	if (p->state[id] != CMM_MP_SEG_ONLINE_RAM) {
		*emsg = "segment is not online";
		return -EALREADY;
	}
	block_remove(seg_block(p, id));
	p->state[id] = CMM_MP_SEG_OFFLINE;
	p->memmap[id] = false;
	return 0;
}

/*
 * CMM_MP_CMD_SEG_REPAIR of @id, with @r the replacement or CMM_MP_NONE.
 * Return: 0, or the kernel's errors; *@other the segment released.
 */
static int seg_repair(struct fake_pool *p, uint32_t id, uint32_t r,
		      uint32_t *other, const char **emsg)
{
	uint32_t m = p->mirror[id], gone, whole;

	*other = CMM_MP_NONE;
	if (p->state[id] != CMM_MP_SEG_OWNED || m == CMM_MP_NONE) {
		*emsg = "segment is not mirrored";
		return -EINVAL;
	}
	if (p->red[id] == CMM_MP_SEG_MIRRORED) {
		*emsg = "both copies are whole";
		return -EALREADY;
	}
	if (p->red[id] == CMM_MP_SEG_REBUILDING) {
		*emsg = "a rebuild is running";
		return -EBUSY;
	}
	gone = p->lost[id] ? id : m;
	whole = gone == id ? m : id;
	if (r == CMM_MP_NONE) {
		if (seg_dev(p, gone) == lost_dev(p)) {
			*emsg = "the lost copy's device is still lost: name a replacement";
			return -EHOSTUNREACH;
		}
		p->lost[gone] = false;
		p->red[id] = CMM_MP_SEG_REBUILDING;
		p->red[m] = CMM_MP_SEG_REBUILDING;
		return 0;
	}
	if (r >= nr_segs(p))
		return -ENOENT;
	if (seg_dev(p, r) == seg_dev(p, whole) || r == gone) {
		*emsg = "the replacement must be on another device";
		return -EINVAL;
	}
	if (p->state[r] != CMM_MP_SEG_OFFLINE) {
		*emsg = "the replacement segment is not offline";
		return -EBUSY;
	}
	seg_hold(p, r, p->mode[whole], whole, p->node[whole]);
	seg_release(p, gone);
	p->mirror[whole] = r;
	p->red[whole] = CMM_MP_SEG_REBUILDING;
	p->red[r] = CMM_MP_SEG_REBUILDING;
	*other = gone;
	return 0;
}

/* FAKE_CMM_MP_REQLOG: what reached the "kernel" */
static void req_log(const char *cmd, const struct nlattr **tb)
{
	const char *path = getenv("FAKE_CMM_MP_REQLOG");
	static const struct {
		int type;
		const char *name;
	} attrs[] = {
		{ CMM_MP_A_SEG_MODE, "mode" },
		{ CMM_MP_A_SEG_SHARED, "shared" },
		{ CMM_MP_A_SEG_MIRROR, "mirror" },
	};
	unsigned int i;
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fputs(cmd, f);
	if (tb[CMM_MP_A_SEG_ID])
		fprintf(f, " %u", get_u32(tb[CMM_MP_A_SEG_ID]));
	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		if (tb[attrs[i].type])
			fprintf(f, " %s=%u", attrs[i].name,
				get_u32(tb[attrs[i].type]));
	fputc('\n', f);
	fclose(f);
}

static bool privileged(void)
{
	return geteuid() == 0 && !env_true("FAKE_CMM_MP_NOTROOT");
}

/* mp_eth's key_ids file under MP_SYSFS_ROOT; -EIO without one. */
static int key_ids_path(char *buf, size_t len)
{
	const char *root = getenv("MP_SYSFS_ROOT");

	if (!root || !*root)
		return -EIO;	/* never touch the real /sys */
	snprintf(buf, len, "%s/class", root);
	mkdir(buf, 0755);
	snprintf(buf, len, "%s/class/misc", root);
	mkdir(buf, 0755);
	snprintf(buf, len, "%s/class/misc/mp_eth", root);
	mkdir(buf, 0755);
	snprintf(buf, len, "%s/class/misc/mp_eth/key_ids", root);
	return 0;
}

/*
 * The keys held, as mp_eth keeps them: at most two, a new id pushing out
 * the oldest one that does not sign; SET also makes it the signing key.
 */
static int key_ids_update(uint32_t op, uint32_t id)
{
	uint32_t ids[2];
	int nr = 0, sign = -1, i, j;
	char path[512], line[64];
	FILE *f;

	if (key_ids_path(path, sizeof(path)))
		return -EIO;
	f = fopen(path, "r");
	if (f && fgets(line, sizeof(line), f) && strncmp(line, "none", 4)) {
		char *tok, *save = NULL;

		for (tok = strtok_r(line, "\n ", &save); tok && nr < 2;
		     tok = strtok_r(NULL, "\n ", &save)) {
			if (strchr(tok, '*'))
				sign = nr;
			ids[nr++] = (uint32_t)strtoul(tok, NULL, 10);
		}
	}
	if (f)
		fclose(f);
	if (op == CMM_MP_KEY_CLEAR) {
		nr = 0;
	} else {
		for (i = 0; i < nr && ids[i] != id; i++)
			;
		if (i == nr && nr == 2) {	/* drop the one not signing */
			j = sign == 0 ? 1 : 0;
			ids[j] = ids[1 - j];
			sign = sign < 0 ? -1 : 0;
			nr = 1;
			i = nr;
		}
		if (i == nr)
			ids[nr++] = id;
		if (op == CMM_MP_KEY_SET)
			sign = i;
	}
	f = fopen(path, "w");
	if (!f)
		return -EIO;
	if (!nr)
		fputs("none", f);
	for (i = 0; i < nr; i++)
		fprintf(f, "%s%u%s", i ? " " : "", ids[i], i == sign ? "*" : "");
	fputc('\n', f);
	return fclose(f) ? -EIO : 0;
}

static void key_log(uint32_t op, uint32_t id, const uint8_t *key)
{
	const char *path = getenv("FAKE_CMM_MP_KEYLOG");
	FILE *f;
	int i;

	if (!path || !*path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "%u %u ", op, id);
	for (i = 0; key && i < CMM_MP_KEY_LEN; i++)
		fprintf(f, "%02x", key[i]);
	fputs(key ? "\n" : "-\n", f);
	fclose(f);
}

/* CMM_MP_CMD_KEY_SET, as kernel/cmm_mp/netlink.c and mp_eth answer it. */
static int key_set(const struct nlattr **tb, const char **emsg)
{
	const uint8_t *key = NULL;
	uint32_t op, id = 0;
	int i, acc = 0;

	if (!tb[CMM_MP_A_KEY_OP])
		return -EINVAL;
	op = get_u32(tb[CMM_MP_A_KEY_OP]);
	if (op < CMM_MP_KEY_SET || op > CMM_MP_KEY_CLEAR) {
		*emsg = "Attribute failed policy validation";
		return -EINVAL;
	}
	if (op != CMM_MP_KEY_CLEAR &&
	    (!tb[CMM_MP_A_KEY_ID] || !tb[CMM_MP_A_KEY]))
		return -EINVAL;
	if (op == CMM_MP_KEY_CLEAR && tb[CMM_MP_A_KEY]) {
		*emsg = "clearing takes no key";
		return -EINVAL;
	}
	if (env_true("FAKE_CMM_MP_NOBACKEND")) {
		*emsg = "no backend that authenticates its traffic (load mp_eth)";
		return -ENODEV;
	}
	if (tb[CMM_MP_A_KEY_ID])
		id = get_u32(tb[CMM_MP_A_KEY_ID]);
	if (tb[CMM_MP_A_KEY]) {
		key = (const uint8_t *)tb[CMM_MP_A_KEY] + NLA_HDRLEN;
		for (i = 0; i < CMM_MP_KEY_LEN; i++)
			acc |= key[i];
		if (!acc) {
			*emsg = "key refused: all zero";
			return -EINVAL;
		}
	}
	key_log(op, id, key);
	return key_ids_update(op, id);
}

/*
 * FAKE_CMM_MP_DUMP_INTR: where the pool map changes in this segment dump.
 * Return: the segment before which it does, UINT32_MAX for nowhere.
 */
static uint32_t dump_intr_at(void)
{
	static unsigned int dumps;
	static char last[32];	/* a new setting counts its dumps anew */
	const char *v = getenv("FAKE_CMM_MP_DUMP_INTR");
	unsigned int seg, times;
	int n;

	if (!v || !*v) {
		last[0] = '\0';
		return UINT32_MAX;
	}
	if (strcmp(v, last)) {
		snprintf(last, sizeof(last), "%s", v);
		dumps = 0;
	}
	n = sscanf(v, "%u:%u", &seg, &times);
	if (n < 1 || (n == 2 && dumps++ >= times))
		return UINT32_MAX;
	return seg;
}

/* One cmm_mp request: answer into @b; return the error to NLMSG_ERROR. */
static int handle_cmm_mp(int fd, struct mbuf *b, const struct nlmsghdr *nlh,
			 const char **emsg)
{
	struct fake_sock *s = fake_of(fd);
	const struct nlattr *tb[CMM_MP_A_MAX + 1];
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	bool dump = (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	uint32_t id, i, mode, mirror, other;
	bool flagged = false;
	struct fake_pool p;
	int rc;

	if (nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return -EINVAL;
	if ((g->cmd < CMM_MP_CMD_DEV_GET || g->cmd > CMM_MP_CMD_SEG_OFFLINE) &&
	    g->cmd != CMM_MP_CMD_KEY_SET && g->cmd != CMM_MP_CMD_SEG_REPAIR)
		return -EOPNOTSUPP;
	if ((g->cmd == CMM_MP_CMD_SEG_ONLINE ||
	     g->cmd == CMM_MP_CMD_SEG_OFFLINE ||
	     g->cmd == CMM_MP_CMD_SEG_REPAIR ||
	     g->cmd == CMM_MP_CMD_KEY_SET) && !privileged())
		return -EPERM;
	rc = parse_attrs(nlh, tb, emsg);
	if (rc)
		return rc;
	pool_get(&p);
	if (pool_apply_lost(&p))
		pool_put(&p);
	/* no mode: the kernel's choice, System RAM for our own segments */
	mode = tb[CMM_MP_A_SEG_MODE] ? get_u32(tb[CMM_MP_A_SEG_MODE]) :
		CMM_MP_SEG_MODE_RAM;
	mirror = tb[CMM_MP_A_SEG_MIRROR] ? get_u32(tb[CMM_MP_A_SEG_MIRROR]) :
		CMM_MP_NONE;
	if (g->cmd == CMM_MP_CMD_SEG_ONLINE)
		req_log("online", tb);
	else if (g->cmd == CMM_MP_CMD_SEG_OFFLINE)
		req_log("offline", tb);
	else if (g->cmd == CMM_MP_CMD_SEG_REPAIR)
		req_log("repair", tb);
	else if (g->cmd == CMM_MP_CMD_KEY_SET)
		req_log("key", tb);

	switch (g->cmd) {
	case CMM_MP_CMD_DEV_GET:
		if (!dump) {
			if (!tb[CMM_MP_A_DEV_ID])
				return -EINVAL;
			id = get_u32(tb[CMM_MP_A_DEV_ID]);
			if (id >= p.nr_devs)
				return -ENOENT;
			put_dev(b, &p, id, g->cmd, 0, nlh->nlmsg_seq, s->port);
			return 0;
		}
		rc = injected("dev_dump", 0, emsg);
		for (i = 0; i < p.nr_devs && !rc; i++) {
			put_dev(b, &p, i, g->cmd, NLM_F_MULTI,
				nlh->nlmsg_seq, s->port);
		}
		deliver(fd, b);
		put_done(b, s, nlh, rc, *emsg, 0);
		return 1;
	case CMM_MP_CMD_SEG_GET:
		if (!dump) {
			if (!tb[CMM_MP_A_SEG_ID])
				return -EINVAL;
			id = get_u32(tb[CMM_MP_A_SEG_ID]);
			if (id >= nr_segs(&p))
				return -ENOENT;
			rc = injected("seg_get", id, emsg);
			if (rc)
				return rc;
			put_seg(b, &p, id, g->cmd, 0, nlh->nlmsg_seq, s->port);
			return 0;
		}
		/* Two segments per datagram: exercises multi-part reads. */
		other = dump_intr_at();
		for (i = 0; i < nr_segs(&p); i++) {
			put_seg(b, &p, i, g->cmd, NLM_F_MULTI |
				(i == other ? NLM_F_DUMP_INTR : 0),
				nlh->nlmsg_seq, s->port);
			flagged |= i == other;
			rc = injected("seg_dump", i, emsg);
			if (rc)
				break;
			if (i % 2)
				deliver(fd, b);
		}
		deliver(fd, b);
		put_done(b, s, nlh, rc, *emsg,
			 other != UINT32_MAX && !flagged ? NLM_F_DUMP_INTR : 0);
		return 1;
	case CMM_MP_CMD_SEG_ONLINE:
	case CMM_MP_CMD_SEG_OFFLINE:
		if (!tb[CMM_MP_A_SEG_ID]) {
			*emsg = "missing segment id";
			return -EINVAL;
		}
		if (tb[CMM_MP_A_SEG_MODE] &&
		    (g->cmd == CMM_MP_CMD_SEG_OFFLINE ||
		     get_u32(tb[CMM_MP_A_SEG_MODE]) >= __CMM_MP_SEG_MODE_MAX)) {
			*emsg = "Attribute failed policy validation";
			return -EINVAL;
		}
		if (tb[CMM_MP_A_SEG_MEMMAP_ON_MEMORY] &&
		    (g->cmd == CMM_MP_CMD_SEG_OFFLINE ||
		     get_u32(tb[CMM_MP_A_SEG_MEMMAP_ON_MEMORY]) > 1)) {
			*emsg = "Attribute failed policy validation";
			return -EINVAL;
		}
		if (tb[CMM_MP_A_SEG_MIRROR] &&
		    g->cmd == CMM_MP_CMD_SEG_OFFLINE) {
			*emsg = "Attribute failed policy validation";
			return -EINVAL;
		}
		id = get_u32(tb[CMM_MP_A_SEG_ID]);
		if (id >= nr_segs(&p))
			return -ENOENT;
		rc = injected(g->cmd == CMM_MP_CMD_SEG_ONLINE ? "online" :
			      "offline", id, emsg);
		if (rc)
			return rc;
		other = p.mirror[id];
		if (g->cmd == CMM_MP_CMD_SEG_OFFLINE)
			rc = seg_offline(&p, id, emsg);
		else if (mode != CMM_MP_SEG_MODE_RAM)
			rc = seg_map(&p, id, mode, tb[CMM_MP_A_SEG_SHARED] &&
				     get_u32(tb[CMM_MP_A_SEG_SHARED]),
				     mirror, emsg);
		else if (mirror != CMM_MP_NONE)
			rc = -EINVAL;	/* "mirrored segments are dax or blk" */
		else
			rc = seg_online(&p, id,
					tb[CMM_MP_A_SEG_MEMMAP_ON_MEMORY] &&
					get_u32(tb[CMM_MP_A_SEG_MEMMAP_ON_MEMORY]),
					emsg);
		if (rc)
			return rc;
		if (g->cmd == CMM_MP_CMD_SEG_ONLINE)
			other = p.mirror[id];
		pool_put(&p);
		put_seg(b, &p, id, g->cmd, 0, nlh->nlmsg_seq, s->port);
		deliver(fd, b);
		multicast(&p, id);
		if (other != CMM_MP_NONE)
			multicast(&p, other);
		return 0;
	case CMM_MP_CMD_SEG_REPAIR:
		if (!tb[CMM_MP_A_SEG_ID]) {
			*emsg = "missing segment id";
			return -EINVAL;
		}
		id = get_u32(tb[CMM_MP_A_SEG_ID]);
		if (id >= nr_segs(&p))
			return -ENOENT;
		rc = seg_repair(&p, id, mirror, &other, emsg);
		if (rc)
			return rc;
		pool_put(&p);
		put_seg(b, &p, id, g->cmd, 0, nlh->nlmsg_seq, s->port);
		deliver(fd, b);
		/* the pair as it is now, then the copy given up */
		i = id == other ? p.mirror[mirror] : id;
		multicast(&p, i);
		multicast(&p, p.mirror[i]);
		if (other != CMM_MP_NONE)
			multicast(&p, other);
		return 0;
	case CMM_MP_CMD_KEY_SET:
		return key_set(tb, emsg);
	}
	return -EOPNOTSUPP;
}

/* The genetlink controller: CTRL_CMD_GETFAMILY for "cmm_mp" only. */
static int handle_ctrl(int fd, struct mbuf *b, const struct nlmsghdr *nlh)
{
	struct fake_sock *s = fake_of(fd);
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	bool dump = (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	const unsigned char *p, *end;
	const char *name = NULL;
	size_t off, grps, grp;

	if (nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return -EINVAL;
	if (g->cmd != CTRL_CMD_GETFAMILY)
		return -EOPNOTSUPP;
	p = (const unsigned char *)nlh + NLMSG_HDRLEN + GENL_HDRLEN;
	end = (const unsigned char *)nlh + nlh->nlmsg_len;
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			return -EINVAL;
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_NAME)
			name = (const char *)a + NLA_HDRLEN;
		p += NLA_ALIGN(a->nla_len);
	}
	if (env_true("FAKE_CMM_MP_UNLOADED") ||
	    (!dump && (!name || strcmp(name, CMM_MP_GENL_NAME))))
		return dump ? 2 : -ENOENT;

	off = msg_begin(b, GENL_ID_CTRL, dump ? NLM_F_MULTI : 0,
			nlh->nlmsg_seq, s->port);
	{
		struct genlmsghdr *rg = mb_put(b, GENL_HDRLEN);
		uint16_t id = FAKE_FAMILY_ID;

		rg->cmd = CTRL_CMD_NEWFAMILY;
		rg->version = 2;
		put_str(b, CTRL_ATTR_FAMILY_NAME, CMM_MP_GENL_NAME);
		attr_put(b, CTRL_ATTR_FAMILY_ID, &id, sizeof(id));
		put_u32(b, CTRL_ATTR_VERSION, CMM_MP_GENL_VERSION);
		put_u32(b, CTRL_ATTR_HDRSIZE, 0);
		put_u32(b, CTRL_ATTR_MAXATTR, CMM_MP_A_MAX);
		grps = nest_begin(b, CTRL_ATTR_MCAST_GROUPS);
		grp = nest_begin(b, 1);
		put_str(b, CTRL_ATTR_MCAST_GRP_NAME, CMM_MP_GENL_MCGRP_EVENTS);
		put_u32(b, CTRL_ATTR_MCAST_GRP_ID, FAKE_GROUP_ID);
		nest_end(b, grp);
		nest_end(b, grps);
	}
	msg_end(b, off);
	return dump ? 2 : 0;
}

/* Answer every request in one datagram, as netlink_rcv_skb() does. */
static void handle(int fd, const unsigned char *data, size_t len)
{
	struct fake_sock *s = fake_of(fd);
	struct mbuf *b = malloc(sizeof(*b));

	if (!b)
		return;
	b->len = 0;
	while (len >= NLMSG_HDRLEN) {
		const struct nlmsghdr *nlh = (const void *)data;
		const char *emsg = NULL;
		size_t msglen;
		int rc;

		/* The kernel drops such a datagram silently. */
		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len)
			break;
		if (!(nlh->nlmsg_flags & NLM_F_REQUEST) ||
		    nlh->nlmsg_type < NLMSG_MIN_TYPE)
			rc = 0;
		else if (nlh->nlmsg_type == GENL_ID_CTRL)
			rc = handle_ctrl(fd, b, nlh);
		else if (nlh->nlmsg_type == FAKE_FAMILY_ID &&
			 !env_true("FAKE_CMM_MP_UNLOADED"))
			rc = handle_cmm_mp(fd, b, nlh, &emsg);
		else
			rc = -ENOENT;

		if (rc == 2) {
			/* A controller dump: end it. */
			put_done(b, s, nlh, 0, NULL, 0);
		} else if (rc < 0) {
			b->len = 0;
			put_err(b, s, nlh, rc, emsg);
		} else if (rc == 0 && (nlh->nlmsg_flags & NLM_F_ACK)) {
			deliver(fd, b);
			put_err(b, s, nlh, 0, NULL);
		}
		deliver(fd, b);
		msglen = NLMSG_ALIGN(nlh->nlmsg_len);
		if (msglen > len)
			break;
		data += msglen;
		len -= msglen;
	}
	free(b);
}

/* ---- the socket calls --------------------------------------------------- */

int socket(int domain, int type, int protocol)
{
	int sv[2];

	RESOLVE(socket);
	if (domain != AF_NETLINK || protocol != NETLINK_GENERIC)
		return real_socket(domain, type, protocol);
	if (socketpair(AF_UNIX, SOCK_DGRAM | (type & (SOCK_CLOEXEC |
						    SOCK_NONBLOCK)), 0, sv))
		return -1;
	if (sv[0] >= FAKE_MAX_FDS) {
		RESOLVE(close);
		real_close(sv[0]);
		real_close(sv[1]);
		errno = EMFILE;
		return -1;
	}
	socks[sv[0]] = (struct fake_sock){ .used = true, .peer = sv[1] };
	/* Answers must never block the sender: make room for them. */
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	return sv[0];
}

int close(int fd)
{
	struct fake_sock *s = fake_of(fd);

	RESOLVE(close);
	if (s) {
		real_close(s->peer);
		memset(s, 0, sizeof(*s));
	}
	return real_close(fd);
}

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	struct fake_sock *s = fake_of(fd);
	const struct sockaddr_nl *nl = (const void *)addr;

	RESOLVE(bind);
	if (!s)
		return real_bind(fd, addr, len);
	if (len < sizeof(*nl) || nl->nl_family != AF_NETLINK) {
		errno = EINVAL;
		return -1;
	}
	s->port = nl->nl_pid ? nl->nl_pid : next_port++;
	return 0;
}

int getsockname(int fd, struct sockaddr *addr, socklen_t *len)
{
	struct fake_sock *s = fake_of(fd);
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };

	RESOLVE(getsockname);
	if (!s)
		return real_getsockname(fd, addr, len);
	if (!s->port)
		s->port = next_port++;
	nl.nl_pid = s->port;
	memcpy(addr, &nl, *len < sizeof(nl) ? *len : sizeof(nl));
	*len = sizeof(nl);
	return 0;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	struct fake_sock *s = fake_of(fd);
	int v = len >= sizeof(int) ? *(const int *)val : 0;

	RESOLVE(setsockopt);
	if (!s || level != SOL_NETLINK)
		return real_setsockopt(fd, level, name, val, len);
	switch (name) {
	case NETLINK_ADD_MEMBERSHIP:
		if (v != FAKE_GROUP_ID) {
			errno = EINVAL;
			return -1;
		}
		s->events = true;
		return 0;
	case NETLINK_DROP_MEMBERSHIP:
		s->events = false;
		return 0;
	case NETLINK_EXT_ACK:
		s->ext_ack = v;
		return 0;
	case NETLINK_CAP_ACK:
		s->cap_ack = v;
		return 0;
	default:
		return 0;
	}
}

static ssize_t fake_send(int fd, const void *buf, size_t len)
{
	handle(fd, buf, len);
	return (ssize_t)len;
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	unsigned char *buf;
	size_t len = 0, i;
	ssize_t rc;

	RESOLVE(sendmsg);
	if (!fake_of(fd))
		return real_sendmsg(fd, msg, flags);
	for (i = 0; i < msg->msg_iovlen; i++)
		len += msg->msg_iov[i].iov_len;
	buf = malloc(len ? len : 1);
	if (!buf) {
		errno = ENOBUFS;
		return -1;
	}
	len = 0;
	for (i = 0; i < msg->msg_iovlen; i++) {
		memcpy(buf + len, msg->msg_iov[i].iov_base,
		       msg->msg_iov[i].iov_len);
		len += msg->msg_iov[i].iov_len;
	}
	rc = fake_send(fd, buf, len);
	free(buf);
	return rc;
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags,
	       const struct sockaddr *to, socklen_t tolen)
{
	RESOLVE(sendto);
	if (!fake_of(fd))
		return real_sendto(fd, buf, len, flags, to, tolen);
	return fake_send(fd, buf, len);
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	RESOLVE(send);
	if (!fake_of(fd))
		return real_send(fd, buf, len, flags);
	return fake_send(fd, buf, len);
}

/* Answers come "from the kernel": port 0. */
ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	void *name = msg->msg_name;
	socklen_t namelen = msg->msg_namelen;
	ssize_t n;

	RESOLVE(recvmsg);
	if (!fake_of(fd))
		return real_recvmsg(fd, msg, flags);
	msg->msg_name = NULL;
	msg->msg_namelen = 0;
	n = real_recvmsg(fd, msg, flags);
	msg->msg_name = name;
	msg->msg_namelen = namelen;
	if (n >= 0 && name) {
		memcpy(name, &nl, namelen < sizeof(nl) ? namelen : sizeof(nl));
		msg->msg_namelen = sizeof(nl);
	}
	return n;
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags,
		 struct sockaddr *from, socklen_t *fromlen)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	ssize_t n;

	RESOLVE(recvfrom);
	if (!fake_of(fd))
		return real_recvfrom(fd, buf, len, flags, from, fromlen);
	n = real_recvfrom(fd, buf, len, flags, NULL, NULL);
	if (n >= 0 && from && fromlen) {
		memcpy(from, &nl, *fromlen < sizeof(nl) ? *fromlen :
		       sizeof(nl));
		*fromlen = sizeof(nl);
	}
	return n;
}
