// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fuzz: seeded, bounded fuzzing of cmm_mp's userspace inputs in a guest.
 *
 *   nl_fuzz [--seed S] [--iters N] [--first I] [--seconds T] [--jobs J]
 *           [--verbose]
 *
 * Each iteration draws, from a generator seeded with (S, iteration), one
 * input for one interface:
 *
 *   nl         a generic netlink message to the cmm_mp family, built byte
 *              by byte: valid and unknown commands, random nlmsg flags
 *              (dump, echo, reserved bits), reserved genl header bytes,
 *              attributes of the policy's ids and beyond, wrong lengths,
 *              nested and byte-order flags, truncated headers and
 *              attributes, edge values of segment and device ids, modes
 *   nl-unpriv  the same, sent by a child that dropped to nobody
 *   ioctl      an ioctl on /dev/mp_eth, /dev/mps<N> or /dev/mpb<N>: the
 *              known commands and random ones of our magics (and of the
 *              block layer's on mpb), with NULL, unmapped, kernel,
 *              misaligned and page-straddling argument pointers and edge
 *              values in the structures (offsets, lengths, ids, ops)
 *   io         pread, pwrite and mmap of /dev/mps<N>, pread and pwrite
 *              (buffered and O_DIRECT) of /dev/mpb<N> at edge offsets
 *
 * J workers (--jobs) run at once, worker w with seed S + w, so that
 * requests race: online/offline against open files, mmaps and ioctls.
 * Each worker also listens to the events group with a tiny receive
 * buffer, read now and then: every event must be well-formed.
 * Because an iteration's input depends on (seed, iteration) only, the
 * inputs of a worker are replayed exactly by `nl_fuzz --seed S+w --iters
 * N` (printed at the end), one input alone with `--first I --iters I+1
 * --verbose`; the results may differ where the state they met does.
 *
 * Every result is compared with a model of what the kernel must answer:
 * a malformed netlink message must be refused (and an unprivileged
 * ONLINE/OFFLINE with EPERM), a well-formed GET must succeed, a reply
 * must be well-formed netlink, an ioctl with a bad pointer or an invalid
 * field must fail, an unknown command of our magics must fail with
 * ENOTTY, a read past the end must return no byte. Every input with an
 * unexpected result class is printed as "UNEXPECTED seed=S iter=I ...".
 *
 * It runs as root: ONLINE/OFFLINE need CAP_NET_ADMIN (GENL_ADMIN_PERM) and
 * /dev/mp_eth CAP_SYS_ADMIN, so nothing would be reached otherwise. Valid
 * requests therefore do change state (segments go online as RAM, dax or
 * blk, or offline; data of unowned segments is overwritten): the checks
 * of state are the caller's, after the run (selftests/cmm_mp/fuzz.sh).
 * Legal actions that would take the pool or the guest away, rather than
 * exercise our code, are never drawn: MPE_KEY_SET and the pool family's
 * CMM_MP_CMD_KEY_SET (a random key would make the peers drop our frames:
 * a draw of that command becomes one of no such number), the block
 * layer's blktrace commands (unbounded buffers),
 * filesystem freeze; valid block zero-out/discard ranges and transfers
 * are kept short (TCG is slow). Blocks of a segment hot-added as RAM are
 * never onlined here, so the guest's memory is never at stake. At the
 * end every key is cleared (MPE_KEY_CLEAR).
 *
 * Exit status: 0 no unexpected result, 1 some, 2 usage or setup error,
 * 4 skipped (not root, or cmm_mp not loaded).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <linux/fs.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/cmm_mp.h>
#include <linux/mp_eth_test.h>

#include "util/util.h"

#define KSFT_SKIP	4
#define NL_BUF		8192
#define RX_BUF		(64 * 1024)
/* the kernel answers inside sendto(); silence this long means none */
#define RECV_TIMEOUT_MS	300
#define ARENA		(17UL << 20)	/* >= MPE_TEST_MAX_XFER + slack */
#define MAX_NODES	64
#define SHORT_IO	(1024UL * 1024)	/* longest valid zero-out, discard */

enum iface { IF_NL, IF_NL_UNPRIV, IF_IOCTL, IF_IO, NR_IF };
static const char * const if_name[NR_IF] = {
	"nl", "nl-unpriv", "ioctl", "io"
};

/* What the model says the kernel must answer. */
enum expect {
	EXP_ANY,	/* any answer, or none */
	EXP_ERR,	/* a negative errno */
	EXP_EPERM,	/* exactly EPERM */
	EXP_OK,		/* success */
	EXP_SILENT,	/* no answer at all (netlink drops it) */
	EXP_ENOTTY,	/* exactly ENOTTY */
};

/* Result of one input: 0 success, -errno, or no answer. */
#define R_SILENT	1000

static uint64_t seed, rng;
static unsigned long iter;
static bool verbose;
static unsigned long first;	/* --first: the iteration to start at */
/* per worker, in memory shared with the parent: inputs, refused, unexpected */
struct stats {
	unsigned long count[NR_IF], refused[NR_IF], unexpected[NR_IF];
	unsigned long iters;
	unsigned long events;	/* segment events received */
};

static struct stats *all_stats, *stat_w;
static char desc[512];
static size_t dlen;

/* ---- generator ---------------------------------------------------------- */

static uint64_t rnd64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* 0 .. n - 1 */
static uint64_t rnd(uint64_t n)
{
	return n ? rnd64() % n : 0;
}

static bool chance(unsigned int pct)
{
	return rnd(100) < pct;
}

static uint64_t pick(const uint64_t *v, size_t n)
{
	return v[rnd(n)];
}

#define PICK(...) pick((const uint64_t[]){ __VA_ARGS__ }, \
		       sizeof((const uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t))

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (dlen >= sizeof(desc) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(desc + dlen, sizeof(desc) - dlen, fmt, ap);
	va_end(ap);
	if (n > 0)
		dlen += (size_t)n;
	if (dlen > sizeof(desc) - 1)
		dlen = sizeof(desc) - 1;
}

static const char *res_str(int r)
{
	static char s[32];

	if (r == R_SILENT)
		return "no answer";
	if (r >= 0)
		return "success";
	snprintf(s, sizeof(s), "%s", strerror(-r));
	return s;
}

static const char * const exp_name[] = {
	[EXP_ANY] = "any", [EXP_ERR] = "an error", [EXP_EPERM] = "EPERM",
	[EXP_OK] = "success", [EXP_SILENT] = "no answer",
	[EXP_ENOTTY] = "ENOTTY",
};

/* Compare result @r with @e; count and report the input if it differs. */
static void judge(enum iface i, enum expect e, int r, const char *why)
{
	bool good;

	switch (e) {
	case EXP_ERR:
		good = r < 0;
		break;
	case EXP_EPERM:
		good = r == -EPERM;
		break;
	case EXP_OK:
		good = r == 0;
		break;
	case EXP_SILENT:
		good = r == R_SILENT;
		break;
	case EXP_ENOTTY:
		good = r == -ENOTTY;
		break;
	default:
		good = true;
	}
	if (r < 0)
		stat_w->refused[i]++;
	if (verbose || !good)
		printf("%s seed=%llu iter=%lu %s: %s -> %s (expected %s%s%s)\n",
		       good ? "#" : "UNEXPECTED", (unsigned long long)seed,
		       iter, if_name[i], desc, res_str(r), exp_name[e],
		       why ? ": " : "", why ? why : "");
	if (!good)
		stat_w->unexpected[i]++;
}

/* ---- memory for arguments ------------------------------------------------ */

/*
 * The arena is followed by a PROT_NONE guard page, so a structure put at
 * its very end faults on any byte read or written beyond it; "hole" is an
 * address that was mapped and is not any more.
 */
static unsigned char *arena, *guard;
static void *hole;
static long page;

static int arena_init(void)
{
	page = sysconf(_SC_PAGESIZE);
	arena = mmap(NULL, ARENA + page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (arena == MAP_FAILED)
		return -errno;
	guard = arena + ARENA;
	if (mprotect(guard, page, PROT_NONE))
		return -errno;
	hole = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (hole == MAP_FAILED || munmap(hole, page))
		return -errno;
	return 0;
}

enum ptr_kind { P_GOOD, P_MISALIGNED, P_NULL, P_HOLE, P_KERNEL,
		P_NONCANON, P_STRADDLE, NR_PTR };
static const char * const ptr_name[NR_PTR] = {
	"good", "misaligned", "NULL", "unmapped", "kernel", "non-canonical",
	"straddling the guard page"
};

static enum ptr_kind ptr_kind(void)
{
	unsigned int r = rnd(100);

	return r < 70 ? P_GOOD : r < 78 ? P_MISALIGNED : r < 83 ? P_NULL :
	       r < 88 ? P_HOLE : r < 92 ? P_KERNEL : r < 95 ? P_NONCANON :
	       P_STRADDLE;
}

static bool ptr_bad(enum ptr_kind k)
{
	return k != P_GOOD && k != P_MISALIGNED;
}

/* Where a structure of @size bytes goes: at the end of the arena. */
static void *ptr_of(enum ptr_kind k, size_t size)
{
	unsigned char *end = guard - (size + 7) / 8 * 8;

	switch (k) {
	case P_GOOD:
		return end;
	case P_MISALIGNED:
		return end - 8 + 1 + rnd(7);
	case P_NULL:
		return NULL;
	case P_HOLE:
		return hole;
	case P_KERNEL:
		return (void *)(uintptr_t)0xffff888000000000ULL;
	case P_NONCANON:
		return (void *)(uintptr_t)PICK(0x8000000000000000ULL,
					       ~0ULL, 0x0000800000000000ULL);
	default:
		/* an int of a block ioctl (size 0 in its number) too */
		return guard - (size > 8 ? size / 2 : 2);
	}
}

/* ---- netlink ------------------------------------------------------------- */

static int nl_fd = -1;
static uint16_t family;
static uint32_t nl_seq = 1;
static uint32_t nr_segs = 4;	/* updated from a dump at start */

/* one message: 8-aligned buffer, length */
struct msg {
	union {
		unsigned char b[NL_BUF];
		uint64_t align;
	};
	size_t len;
};

static int nl_open(void)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_usec = RECV_TIMEOUT_MS * 1000 };
	int fd;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* Drop answers to earlier requests still queued on @fd. */
static void nl_drain(int fd)
{
	static uint64_t junk[RX_BUF / 8];

	while (recv(fd, junk, sizeof(junk), MSG_DONTWAIT) > 0)
		;
}

/*
 * Is a reply of our family well-formed: a genl header, attributes that
 * cover the payload exactly?
 */
static bool reply_ok(const struct nlmsghdr *nlh)
{
	const unsigned char *p = (const unsigned char *)NLMSG_DATA(nlh);
	const unsigned char *end = (const unsigned char *)nlh + nlh->nlmsg_len;
	const struct genlmsghdr *g = NLMSG_DATA(nlh);

	if (nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN) ||
	    g->cmd == 0 || g->cmd > CMM_MP_CMD_MAX)
		return false;
	p += GENL_HDRLEN;
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end ||
		    (a->nla_type & NLA_TYPE_MASK) == 0 ||
		    (a->nla_type & NLA_TYPE_MASK) > CMM_MP_A_MAX)
			return false;
		p += NLA_ALIGN(a->nla_len);
	}
	return p == end || p == (const unsigned char *)nlh +
				NLMSG_ALIGN(nlh->nlmsg_len);
}

/*
 * Send @len bytes of @m and read the answer: 0 (ACK or a clean end of a
 * dump, or data without an ACK), -errno, R_SILENT. *@bad is set for a
 * malformed reply.
 */
static int nl_xfer(int fd, struct msg *m, size_t len, bool *bad)
{
	static uint64_t words[RX_BUF / 8];
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	uint32_t seq = nl_seq++;
	bool data = false;

	*bad = false;
	if (len >= NLMSG_HDRLEN)
		((struct nlmsghdr *)m->b)->nlmsg_seq = seq;
	if (sendto(fd, m->b, len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		return -errno == -EAGAIN ? R_SILENT : -errno;
	for (;;) {
		ssize_t n = recv(fd, words, sizeof(words), 0);
		struct nlmsghdr *nlh = (struct nlmsghdr *)words;
		int rem = (int)n;

		if (n < 0)
			return data ? 0 : R_SILENT;
		for (; NLMSG_OK(nlh, rem); nlh = NLMSG_NEXT(nlh, rem)) {
			if (nlh->nlmsg_seq != seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR ||
			    nlh->nlmsg_type == NLMSG_DONE) {
				if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(int))) {
					*bad = true;
					return -EPROTO;
				}
				return *(int *)NLMSG_DATA(nlh);
			}
			data = true;
			if (nlh->nlmsg_type != family || !reply_ok(nlh))
				*bad = true;
		}
		if (rem) {
			*bad = true;
			return -EPROTO;
		}
	}
}

static void *put(struct msg *m, size_t len)
{
	void *p = m->b + m->len;

	memset(p, 0, NLMSG_ALIGN(len));
	m->len += NLMSG_ALIGN(len);
	return p;
}

static uint32_t seg_id(void)
{
	if (chance(75))
		return rnd(nr_segs + 2);
	if (chance(70))
		return PICK(CMM_MP_NONE, 0x7fffffff, 0x80000000, nr_segs,
			    4095, 4096, 65535, 65536);
	return rnd64();
}

static const uint16_t in_attrs[] = {
	CMM_MP_A_SEG_ID, CMM_MP_A_SEG_ID, CMM_MP_A_DEV_ID, CMM_MP_A_SEG_MODE,
	CMM_MP_A_SEG_SHARED, CMM_MP_A_SEG_MEMMAP_ON_MEMORY, CMM_MP_A_SEG_MIRROR,
};

/* One attribute: mostly the inputs of the policy, with their types. */
static void gen_attr(struct msg *m)
{
	uint16_t type = in_attrs[rnd(ARRAY_SIZE(in_attrs))];
	uint32_t v;
	size_t len = 4, i;
	struct nlattr *a;
	unsigned char *p;

	if (chance(10))
		type = rnd(CMM_MP_A_MAX + 1);	/* an output attribute */
	else if (chance(3))
		type = CMM_MP_A_MAX + 1 + rnd(PICK(1, 16, 0x3fff));
	if (chance(3))
		type |= NLA_F_NESTED;
	if (chance(3))
		type |= NLA_F_NET_BYTEORDER;
	switch (type & NLA_TYPE_MASK) {
	case CMM_MP_A_SEG_MODE:
		v = chance(85) ? rnd(__CMM_MP_SEG_MODE_MAX) :
		    PICK(3, 4, 0xffffffff, rnd64());
		break;
	case CMM_MP_A_SEG_SHARED:
	case CMM_MP_A_SEG_MEMMAP_ON_MEMORY:
		v = chance(85) ? rnd(2) : PICK(2, 0xffffffff, rnd64());
		break;
	case CMM_MP_A_DEV_ID:
		v = chance(80) ? rnd(4) : PICK(CMM_MP_NONE, 65535, rnd64());
		break;
	default:
		v = seg_id();
	}
	if (chance(8))
		len = PICK(0, 1, 2, 3, 5, 8, 16, rnd(300));
	a = put(m, NLA_HDRLEN + len);
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	p = (unsigned char *)a + NLA_HDRLEN;
	memcpy(p, &v, len < 4 ? len : 4);
	for (i = 4; i < len; i++)
		p[i] = rnd(256);
	if (type & NLA_F_NESTED && len >= NLA_HDRLEN && chance(50)) {
		struct nlattr *in = (void *)p;	/* a plausible inner header */

		in->nla_len = rnd(len + 8);
		in->nla_type = rnd(CMM_MP_A_MAX + 2);
	}
	if (chance(2))
		a->nla_len = PICK(0, 1, 3, a->nla_len + 4, 0xffff);
	say(" %u/%u", type, a->nla_len);
	if (len == 4)
		say("=%u", v);
}

/*
 * A message. Truncations keep the bytes after nlmsg_len below a netlink
 * header, so that they are never read as a second message (of another
 * family).
 */
static size_t gen_nl(struct msg *m)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	unsigned int i, n;
	size_t sent;

	m->len = 0;
	nlh = put(m, NLMSG_HDRLEN);
	g = put(m, GENL_HDRLEN);
	nlh->nlmsg_type = chance(97) ? family :
			  PICK(NLMSG_NOOP, NLMSG_DONE, 0, NLMSG_MIN_TYPE - 1);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	if (chance(30))
		nlh->nlmsg_flags |= NLM_F_DUMP;
	if (chance(5))
		nlh->nlmsg_flags |= NLM_F_ECHO;
	if (chance(8))
		nlh->nlmsg_flags |= PICK(NLM_F_ROOT, NLM_F_MATCH, NLM_F_ATOMIC,
					 NLM_F_MULTI, NLM_F_DUMP_INTR,
					 0x1000, 0x8000);
	if (chance(2))
		nlh->nlmsg_flags &= ~NLM_F_REQUEST;
	if (chance(2))
		nlh->nlmsg_flags &= ~NLM_F_ACK;
	g->cmd = chance(80) ? 1 + rnd(CMM_MP_CMD_MAX) :
		 chance(50) ? PICK(0, CMM_MP_CMD_MAX + 1, CMM_MP_CMD_MAX + 2) :
		 rnd(256);
	if (g->cmd == CMM_MP_CMD_KEY_SET)
		g->cmd = CMM_MP_CMD_MAX + 1;
	g->version = chance(90) ? CMM_MP_GENL_VERSION : rnd(256);
	if (chance(4))
		g->reserved = 1 + rnd(0xffff);
	say("type=%#x flags=%#x cmd=%u ver=%u resv=%u attrs:",
	    nlh->nlmsg_type, nlh->nlmsg_flags, g->cmd, g->version,
	    g->reserved);
	n = chance(10) ? 0 : chance(70) ? 1 + rnd(2) : rnd(8);
	for (i = 0; i < n && m->len < NL_BUF - 400; i++)
		gen_attr(m);
	nlh->nlmsg_len = m->len;
	sent = m->len;
	if (chance(3)) {	/* trailing bytes inside the message */
		i = 1 + rnd(3);
		memset(put(m, i), 0xa5, i);
		nlh->nlmsg_len = m->len - (NLMSG_ALIGN(i) - i);
		sent = m->len;
	}
	if (chance(5)) {	/* nlmsg_len shorter than what we built */
		nlh->nlmsg_len = rnd(nlh->nlmsg_len);
		sent = NLMSG_ALIGN(nlh->nlmsg_len) + rnd(NLMSG_HDRLEN);
		if (sent > m->len)
			sent = m->len;
	} else if (chance(3)) {	/* longer than what is sent */
		nlh->nlmsg_len += 1 + rnd(64);
	} else if (chance(2)) {	/* a cut-off datagram */
		sent = rnd(NLMSG_HDRLEN + GENL_HDRLEN);
	}
	say(" nlmsg_len=%u sent=%zu", nlh->nlmsg_len, sent);
	return sent;
}

/*
 * What the kernel (6.1 genetlink with strict validation, the family's
 * policy, netlink.c) must answer to the @sent bytes of @m.
 */
static enum expect nl_model(const struct msg *m, size_t sent, bool unpriv,
			    const char **why)
{
	const struct nlmsghdr *nlh = (const void *)m->b;
	const struct genlmsghdr *g = (const void *)(m->b + NLMSG_HDRLEN);
	const unsigned char *p, *end;
	uint16_t flags = nlh->nlmsg_flags, f;
	bool dump = (flags & NLM_F_DUMP) == NLM_F_DUMP, seg = false, dev = false;
	int rem;

	*why = NULL;
	if (!sent) {
		*why = "empty datagram";	/* sendto(): ENODATA */
		return EXP_ERR;
	}
	if (sent < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN ||
	    nlh->nlmsg_len > sent) {
		*why = "not a whole message";
		return EXP_SILENT;
	}
	/* not a request, or a control message: acked if asked, no more */
	if (!(flags & NLM_F_REQUEST) || nlh->nlmsg_type < NLMSG_MIN_TYPE)
		return EXP_ANY;
	if (nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN)) {
		*why = "no genl header";
		return EXP_ERR;
	}
	f = dump ? flags & ~NLM_F_DUMP : flags;
	if (g->cmd >= 1 && (g->reserved ||
			    (f & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO)))) {
		*why = "reserved header bits";
		return EXP_ERR;
	}
	if (g->cmd < 1 || g->cmd > CMM_MP_CMD_MAX ||
	    g->cmd == CMM_MP_CMD_SEG_EVENT) {
		*why = "no such command";
		return EXP_ERR;
	}
	if (unpriv && (g->cmd == CMM_MP_CMD_SEG_ONLINE ||
		       g->cmd == CMM_MP_CMD_SEG_OFFLINE ||
		       g->cmd == CMM_MP_CMD_SEG_REPAIR)) {
		*why = "admin command, unprivileged";
		return EXP_EPERM;
	}
	if (dump && (g->cmd == CMM_MP_CMD_SEG_ONLINE ||
		     g->cmd == CMM_MP_CMD_SEG_OFFLINE ||
		     g->cmd == CMM_MP_CMD_SEG_REPAIR)) {
		*why = "no dumpit";
		return EXP_ERR;
	}
	if (!dump && g->cmd == CMM_MP_CMD_STATS_GET) {
		*why = "no doit";
		return EXP_ERR;
	}
	p = m->b + NLMSG_LENGTH(GENL_HDRLEN);
	end = m->b + nlh->nlmsg_len;
	rem = end - p;
	while (rem >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;
		uint16_t t = a->nla_type & NLA_TYPE_MASK;
		uint32_t v;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > rem)
			break;
		if (a->nla_type & NLA_F_NESTED) {
			*why = "nested flag on a scalar";
			return EXP_ERR;
		}
		if (t != CMM_MP_A_SEG_ID && t != CMM_MP_A_DEV_ID &&
		    t != CMM_MP_A_SEG_MODE && t != CMM_MP_A_SEG_SHARED &&
		    t != CMM_MP_A_SEG_MEMMAP_ON_MEMORY &&
		    t != CMM_MP_A_SEG_MIRROR && t != CMM_MP_A_KEY_OP &&
		    t != CMM_MP_A_KEY_ID && t != CMM_MP_A_KEY) {
			*why = "attribute not accepted as input";
			return EXP_ERR;
		}
		/* the key's input attributes: valid on any command, unused */
		if (a->nla_len != NLA_HDRLEN +
		    (t == CMM_MP_A_KEY ? CMM_MP_KEY_LEN : 4)) {
			*why = "wrong attribute length";
			return EXP_ERR;
		}
		memcpy(&v, p + NLA_HDRLEN, 4);
		if ((t == CMM_MP_A_SEG_MODE && v >= __CMM_MP_SEG_MODE_MAX) ||
		    (t == CMM_MP_A_SEG_SHARED && v > 1) ||
		    (t == CMM_MP_A_SEG_MEMMAP_ON_MEMORY && v > 1) ||
		    (t == CMM_MP_A_KEY_OP &&
		     (v < CMM_MP_KEY_SET || v > CMM_MP_KEY_CLEAR))) {
			*why = "value out of range";
			return EXP_ERR;
		}
		seg |= t == CMM_MP_A_SEG_ID;
		dev |= t == CMM_MP_A_DEV_ID;
		p += NLA_ALIGN(a->nla_len);
		rem -= NLA_ALIGN(a->nla_len);
	}
	if (rem > 0) {
		*why = "bytes after the attributes";
		return EXP_ERR;
	}
	if (!dump && !seg && g->cmd != CMM_MP_CMD_DEV_GET) {
		*why = "no segment id";
		return EXP_ERR;
	}
	/* well-formed reads succeed; a whole-device read needs no id */
	if (dump || (g->cmd == CMM_MP_CMD_DEV_GET && !dev)) {
		if (!(flags & NLM_F_ACK) && !dump)
			return EXP_ANY;
		*why = "well-formed read";
		return EXP_OK;
	}
	return EXP_ANY;
}

static void fuzz_nl(bool unpriv)
{
	static struct msg m;
	enum iface i = unpriv ? IF_NL_UNPRIV : IF_NL;
	const char *why;
	enum expect e;
	size_t sent = gen_nl(&m);
	bool bad = false;
	int r, st;
	pid_t pid;

	e = nl_model(&m, sent, unpriv, &why);
	if (!unpriv) {
		nl_drain(nl_fd);
		r = nl_xfer(nl_fd, &m, sent, &bad);
	} else {
		fflush(stdout);
		pid = fork();
		if (pid < 0) {
			perror("nl_fuzz: fork");
			exit(2);
		}
		if (!pid) {
			int fd;

			if (setgroups(0, NULL) || setgid(65534) ||
			    setuid(65534))
				_exit(253);
			fd = nl_open();
			if (fd < 0)
				_exit(253);
			r = nl_xfer(fd, &m, sent, &bad);
			_exit(bad ? 252 : r == R_SILENT ? 254 :
			      r < 0 ? (-r & 0xff) : 0);
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st) == 253) {
			fprintf(stderr, "nl_fuzz: unprivileged child failed\n");
			exit(2);
		}
		r = WEXITSTATUS(st);
		bad = r == 252;
		r = r == 254 ? R_SILENT : bad ? -EPROTO : -r;
	}
	if (bad) {
		e = EXP_OK;
		r = -EPROTO;
		why = "malformed reply";
	}
	judge(i, e, r, why);
}

/* ---- device nodes ---------------------------------------------------------- */

static int nodes(const char *prefix, char out[][32], int max)
{
	DIR *d = opendir("/dev");
	struct dirent *de;
	size_t pl = strlen(prefix);
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		if (strncmp(de->d_name, prefix, pl) ||
		    de->d_name[pl] < '0' || de->d_name[pl] > '9' ||
		    strlen(de->d_name) > 20)
			continue;
		snprintf(out[n++], 32, "/dev/%.20s", de->d_name);
	}
	closedir(d);
	return n;
}

/* size of /dev/mps<N> or /dev/mpb<N>, 0 if unknown */
static uint64_t node_size(int fd)
{
	uint64_t sz = 0;
	off_t end;

	if (ioctl(fd, BLKGETSIZE64, &sz) == 0)
		return sz;
	end = lseek(fd, 0, SEEK_END);
	return end > 0 ? (uint64_t)end : 0;
}

static uint64_t off_edge(uint64_t size)
{
	if (chance(40))
		return rnd(size ? size : 1) & ~(uint64_t)(chance(70) ? 4095 : 0);
	return PICK(0, 1, 511, 512, 4095, 4096, size / 2, size - 4096,
		    size - 1, size, size + 1, size + 4096, 1ULL << 40,
		    1ULL << 63, ~0ULL - 4095, ~0ULL);
}

static uint64_t len_edge(uint64_t size)
{
	if (chance(40))
		return rnd(65536) & ~(uint64_t)(chance(70) ? 511 : 0);
	return PICK(0, 1, 8, 511, 512, 4095, 4096, 4097, 65536, size,
		    size + 1, 1ULL << 32, 1ULL << 63, ~0ULL);
}

/* ---- ioctl ----------------------------------------------------------------- */

static struct mpe_test_info info;	/* from /dev/mp_eth at start */

/* an ioctl command: the known ones mostly, random ones of @magic else */
static unsigned long gen_cmd(const unsigned long *known, size_t n,
			     unsigned int magic, bool *is_known)
{
	static const unsigned int dirs[] = {
		_IOC_NONE, _IOC_READ, _IOC_WRITE, _IOC_READ | _IOC_WRITE
	};
	unsigned long c;
	size_t i;

	if (chance(65)) {
		*is_known = true;
		return known[rnd(n)];
	}
	c = _IOC(dirs[rnd(4)], magic, chance(70) ? rnd(8) : rnd(256),
		 chance(50) ? rnd(128) : rnd(_IOC_SIZEMASK + 1));
	*is_known = false;
	for (i = 0; i < n; i++)
		*is_known |= c == known[i];
	return c;
}

static void fill_random(void *p, size_t len)
{
	unsigned char *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = rnd(256);
}

static void *arg_of(enum ptr_kind k, const void *st, size_t size)
{
	void *p = ptr_of(k, size);

	if (!ptr_bad(k))
		memcpy(p, st, size);
	say(" arg=%s", ptr_name[k]);
	return p;
}

/* a user buffer for @len bytes: the arena, or a bad one */
static uint64_t buf_of(uint64_t len, bool *bad, enum ptr_kind *kind)
{
	enum ptr_kind k = ptr_kind();

	*kind = k;
	*bad = ptr_bad(k) && len;
	say(" buf=%s", ptr_name[k]);
	if (k == P_GOOD || (k == P_MISALIGNED && len > ARENA - 64))
		return (uintptr_t)arena;
	if (k == P_MISALIGNED)
		return (uintptr_t)arena + 1 + rnd(7);
	if (k == P_STRADDLE)
		return (uintptr_t)(guard - (len < ARENA ? len / 2 : 4096));
	return (uintptr_t)ptr_of(k, 0);
}

static void fuzz_mp_eth(void)
{
	static const unsigned long known[] = {
		MPE_IOC_XFER, MPE_IOC_XFER, MPE_IOC_INFO, MPE_IOC_PEER,
		MPE_IOC_KEY,
	};
	enum expect e = EXP_ANY;
	const char *why = NULL;
	enum ptr_kind k = ptr_kind();
	enum ptr_kind bk;
	bool is_known, bad;
	unsigned long cmd;
	void *arg = NULL;
	int fd, r;

	fd = open(MPE_TEST_DEVICE, chance(90) ? O_RDWR : O_RDONLY);
	if (fd < 0)
		return;
	cmd = gen_cmd(known, ARRAY_SIZE(known),
		      MPE_IOC_MAGIC, &is_known);
	say("%s cmd=%#lx", MPE_TEST_DEVICE, cmd);
	if (cmd == MPE_IOC_XFER) {
		struct mpe_test_xfer x = {
			.op = chance(85) ? 1 + rnd(2) : PICK(0, 3, ~0U),
			.dst = chance(80) ? (chance(50) ? info.devid :
					     rnd(info.nr_devs + 1)) :
			       PICK(255, 65535, 65536, ~0U),
			.ns = rnd64(),
		};
		uint64_t size = info.local_size;

		x.offset = off_edge(size);
		x.len = chance(85) ? len_edge(size) :
			PICK(MPE_TEST_MAX_XFER, MPE_TEST_MAX_XFER + 1ULL);
		/* long valid transfers are slow under emulation */
		if (x.len > SHORT_IO && x.len <= MPE_TEST_MAX_XFER &&
		    chance(80))
			x.len = SHORT_IO;
		x.buf = buf_of(x.len, &bad, &bk);
		say(" op=%u dst=%u off=%#llx len=%#llx", x.op, x.dst,
		    (unsigned long long)x.offset, (unsigned long long)x.len);
		arg = arg_of(k, &x, sizeof(x));
		if ((x.op != MPE_TEST_READ && x.op != MPE_TEST_WRITE) ||
		    !x.len || x.len > MPE_TEST_MAX_XFER || x.dst > 65535) {
			e = EXP_ERR;
			why = "invalid transfer";
		} else if (bad) {
			e = EXP_ERR;
			why = "bad buffer";
		} else if (x.offset >= (1ULL << 40) ||
			   (x.dst == info.devid &&
			    (x.offset >= size || x.len > size - x.offset))) {
			e = EXP_ERR;
			why = "beyond the device";
		}
	} else if (cmd == MPE_IOC_PEER) {
		struct mpe_test_peer p;

		fill_random(&p, sizeof(p));
		p.id = chance(70) ? rnd(info.nr_devs + 2) :
		       PICK(65535, 65536, ~0U);
		say(" id=%u", p.id);
		arg = arg_of(k, &p, sizeof(p));
		e = p.id >= info.nr_devs ? EXP_ERR : EXP_OK;
		why = e == EXP_ERR ? "no such peer" : "valid peer";
	} else if (cmd == MPE_IOC_KEY) {
		struct mpe_test_key key;

		fill_random(&key, sizeof(key));
		/* never MPE_KEY_SET: our frames would be dropped by peers */
		key.op = chance(60) ? PICK(MPE_KEY_ACCEPT, MPE_KEY_CLEAR) :
			 PICK(0, 4, 0x80000001, ~0U);
		say(" op=%u id=%u", key.op, key.id);
		arg = arg_of(k, &key, sizeof(key));
		e = key.op == MPE_KEY_ACCEPT || key.op == MPE_KEY_CLEAR ?
		    EXP_OK : EXP_ERR;
		why = e == EXP_OK ? "valid key op" : "unknown key op";
	} else if (cmd == MPE_IOC_INFO) {
		arg = ptr_of(k, sizeof(struct mpe_test_info));
		say(" arg=%s", ptr_name[k]);
		e = EXP_OK;
		why = "info";
	} else {
		fill_random(guard - 256, 256);
		arg = ptr_of(k, _IOC_SIZE(cmd));
		say(" arg=%s", ptr_name[k]);
		if (_IOC_TYPE(cmd) == MPE_IOC_MAGIC) {
			e = EXP_ENOTTY;
			why = "unknown command";
		}
	}
	if (is_known && ptr_bad(k)) {
		e = EXP_ERR;
		why = "bad argument pointer";
	}
	r = ioctl(fd, cmd, arg) ? -errno : 0;
	close(fd);
	judge(IF_IOCTL, e, r, why);
}

static void fuzz_mps(const char *path)
{
	static const unsigned long known[] = { MPS_IOC_INVALIDATE };
	enum expect e = EXP_ANY;
	const char *why = NULL;
	enum ptr_kind k = ptr_kind();
	bool is_known;
	unsigned long cmd;
	uint64_t size;
	void *arg;
	int fd, r;

	fd = open(path, chance(80) ? O_RDWR : O_RDONLY);
	if (fd < 0)
		return;
	size = node_size(fd);
	cmd = gen_cmd(known, 1, chance(85) ? MPS_IOC_MAGIC :
		      PICK(MPE_IOC_MAGIC, 0x12), &is_known);
	say("%s cmd=%#lx", path, cmd);
	if (cmd == MPS_IOC_INVALIDATE) {
		struct mps_range rg = {
			.offset = off_edge(size), .len = len_edge(size)
		};

		say(" off=%#llx len=%#llx", (unsigned long long)rg.offset,
		    (unsigned long long)rg.len);
		arg = arg_of(k, &rg, sizeof(rg));
		if (rg.offset > size || rg.len > size - rg.offset) {
			e = EXP_ERR;
			why = "range beyond the segment";
		}
	} else {
		fill_random(guard - 256, 256);
		arg = ptr_of(k, _IOC_SIZE(cmd));
		say(" arg=%s", ptr_name[k]);
		e = EXP_ENOTTY;
		why = "not a command of /dev/mps";
	}
	if (is_known && ptr_bad(k)) {
		e = EXP_ERR;
		why = "bad argument pointer";
	}
	r = ioctl(fd, cmd, arg) ? -errno : 0;
	close(fd);
	judge(IF_IOCTL, e, r, why);
}

/* blktrace (115..118): buffers of any size; FIFREEZE is not 0x12 */
static bool blk_skip(unsigned long cmd)
{
	return _IOC_TYPE(cmd) == 0x12 && _IOC_NR(cmd) >= 115 &&
	       _IOC_NR(cmd) <= 118;
}

static void fuzz_mpb(const char *path)
{
	static const unsigned long known[] = {
		BLKGETSIZE64, BLKSSZGET, BLKDISCARD, BLKZEROOUT, BLKFLSBUF,
		BLKROGET, BLKROSET, BLKRRPART, BLKBSZGET, BLKSECDISCARD,
		BLKIOMIN, BLKPBSZGET,
	};
	enum expect e = EXP_ANY;
	const char *why = NULL;
	enum ptr_kind k = ptr_kind();
	bool is_known;
	unsigned long cmd;
	uint64_t size, range[2], got = 0;
	void *arg;
	int fd, r, ro = 0;

	fd = open(path, (chance(80) ? O_RDWR : O_RDONLY) |
		  (chance(10) ? O_EXCL : 0));
	if (fd < 0)
		return;
	size = node_size(fd);
	do
		cmd = gen_cmd(known, ARRAY_SIZE(known),
			      chance(85) ? 0x12 :
			      PICK(MPS_IOC_MAGIC, MPE_IOC_MAGIC), &is_known);
	while (blk_skip(cmd));
	say("%s cmd=%#lx", path, cmd);
	fill_random(guard - 256, 256);
	arg = ptr_of(k, _IOC_SIZE(cmd) ? _IOC_SIZE(cmd) : 8);
	if (cmd == BLKDISCARD || cmd == BLKZEROOUT || cmd == BLKSECDISCARD) {
		range[0] = off_edge(size);
		range[1] = len_edge(size);
		if (range[0] < size && range[1] > SHORT_IO &&
		    range[1] <= size - range[0])
			range[1] = SHORT_IO;
		say(" start=%#llx len=%#llx", (unsigned long long)range[0],
		    (unsigned long long)range[1]);
		arg = arg_of(k, range, sizeof(range));
		if ((range[0] | range[1]) & 511 || range[0] > size ||
		    range[1] > size - range[0]) {
			e = EXP_ERR;
			why = "unaligned or beyond the device";
		}
	} else if (cmd == BLKROSET) {
		/* read-only stays off: it would end the write part here */
		arg = arg_of(k, &ro, sizeof(ro));
	} else if (cmd == BLKGETSIZE64 && !ptr_bad(k)) {
		arg = &got;
		say(" arg=good");
		e = EXP_OK;
		why = "size";
	} else {
		say(" arg=%s", ptr_name[k]);
		if (_IOC_TYPE(cmd) != 0x12) {
			e = EXP_ERR;
			why = "not a block or mpb command";
		}
	}
	if (is_known && ptr_bad(k) && cmd != BLKFLSBUF && cmd != BLKRRPART) {
		e = EXP_ERR;
		why = "bad argument pointer";
	}
	r = ioctl(fd, cmd, arg) ? -errno : 0;
	close(fd);
	if (cmd == BLKGETSIZE64 && !r && got != size) {
		say(" size %llu != %llu", (unsigned long long)got,
		    (unsigned long long)size);
		r = -EPROTO;
	}
	judge(IF_IOCTL, e, r, why);
}

static void fuzz_ioctl(void)
{
	char mps[MAX_NODES][32], mpb[MAX_NODES][32];
	int nps = nodes("mps", mps, MAX_NODES);
	int npb = nodes("mpb", mpb, MAX_NODES);
	unsigned int w = rnd(100);

	if (w < 40 || !(nps + npb))
		fuzz_mp_eth();
	else if ((w < 70 && nps) || !npb)
		fuzz_mps(mps[rnd(nps)]);
	else
		fuzz_mpb(mpb[rnd(npb)]);
}

/* ---- read, write, mmap of /dev/mps ------------------------------------------ */

static sigjmp_buf bus_jmp;

static void on_bus(int sig)
{
	siglongjmp(bus_jmp, 1);
}

/* Touch @p; 0, or -EFAULT for a SIGBUS. */
static int touch(volatile unsigned char *p, bool write)
{
	if (sigsetjmp(bus_jmp, 1))
		return -EFAULT;
	if (write)
		*p = (unsigned char)rnd(256);
	else
		(void)*p;
	return 0;
}

static void fuzz_io(void)
{
	char node[2 * MAX_NODES][32];
	int n = nodes("mps", node, MAX_NODES), fd, r, which;
	enum expect e = EXP_ANY;
	const char *why = NULL;
	uint64_t size, off, len;
	unsigned int op = rnd(3), flags = O_RDWR;
	bool bad = false, blk;
	ssize_t got;

	n += nodes("mpb", node + n, MAX_NODES);
	if (!n)
		return;
	which = rnd(n);
	blk = !strncmp(node[which], "/dev/mpb", 8);
	if (blk) {
		op = rnd(2);	/* mmap of a block device is the page cache's */
		if (chance(50))
			flags |= O_DIRECT;
	}
	fd = open(node[which], flags);
	if (fd < 0)
		return;
	size = node_size(fd);
	off = off_edge(size);
	len = len_edge(size);
	if (len > SHORT_IO)
		len = chance(90) ? SHORT_IO : len;
	say("%s%s %s off=%#llx len=%#llx", node[which],
	    flags & O_DIRECT ? " O_DIRECT" : "",
	    op == 0 ? "pread" : op == 1 ? "pwrite" : "mmap",
	    (unsigned long long)off, (unsigned long long)len);
	if (op < 2) {
		enum ptr_kind k;
		uint64_t b = buf_of(len, &bad, &k);

		/* a buffer that ends in the guard page: a short count */
		bad &= k != P_STRADDLE;
		if (op == 0)
			got = pread(fd, (void *)(uintptr_t)b, len, (off_t)off);
		else
			got = pwrite(fd, (void *)(uintptr_t)b, len, (off_t)off);
		r = got < 0 ? -errno : 0;
		if (got > 0 && (off >= size || (uint64_t)got > len ||
				(uint64_t)got > size - off)) {
			say(" -> %zd bytes", got);
			why = "bytes beyond the end";
			r = 0;
			e = EXP_ERR;
		} else if (bad && got > 0 && off < size && len) {
			why = "bad buffer";
			e = EXP_ERR;
		}
	} else {
		bool w = chance(50);
		unsigned char *p = mmap(NULL, len, PROT_READ |
					(w ? PROT_WRITE : 0), MAP_SHARED, fd,
					(off_t)off);

		r = p == MAP_FAILED ? -errno : 0;
		if (!r) {
			uint64_t plen = (len + page - 1) / page * page;

			/* the whole mapping lies inside, or mmap refused */
			if (off >= size || plen > size - off) {
				why = "mapped beyond the end";
				e = EXP_ERR;
			} else {
				r = touch(p, w);
				if (!r)
					r = touch(p + len - 1, w);
				if (r)
					why = "SIGBUS inside the segment";
				e = EXP_OK;
				if (!r && w && chance(50))
					r = msync(p, len, MS_SYNC) ? -errno : 0;
			}
			munmap(p, len);
		}
	}
	close(fd);
	judge(IF_IO, e, r, why);
}

/* ---- setup ------------------------------------------------------------------- */

static uint32_t mcgrp;	/* the events group's id, 0 if none */

/* CTRL_ATTR_MCAST_GROUPS: the id of CMM_MP_GENL_MCGRP_EVENTS */
static void mcast_cb(const unsigned char *p, const unsigned char *end)
{
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *grp = (const void *)p;
		const unsigned char *q = p + NLA_HDRLEN;
		const unsigned char *qend = p + grp->nla_len;
		uint32_t id = 0;
		bool ours = false;

		if (grp->nla_len < NLA_HDRLEN || qend > end)
			return;
		while (q + NLA_HDRLEN <= qend) {
			const struct nlattr *a = (const void *)q;

			if (a->nla_len < NLA_HDRLEN)
				break;
			if (a->nla_type == CTRL_ATTR_MCAST_GRP_ID &&
			    a->nla_len >= NLA_HDRLEN + sizeof(id))
				memcpy(&id, q + NLA_HDRLEN, sizeof(id));
			if (a->nla_type == CTRL_ATTR_MCAST_GRP_NAME)
				ours = !strncmp((const char *)q + NLA_HDRLEN,
						CMM_MP_GENL_MCGRP_EVENTS,
						a->nla_len - NLA_HDRLEN);
			q += NLA_ALIGN(a->nla_len);
		}
		if (ours)
			mcgrp = id;
		p += NLA_ALIGN(grp->nla_len);
	}
}

static void family_cb(const struct nlmsghdr *nlh)
{
	const unsigned char *p = (const unsigned char *)NLMSG_DATA(nlh) +
				 GENL_HDRLEN;
	const unsigned char *end = (const unsigned char *)nlh +
				   nlh->nlmsg_len;

	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN)
			return;
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			memcpy(&family, p + NLA_HDRLEN, sizeof(family));
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_MCAST_GROUPS)
			mcast_cb(p + NLA_HDRLEN, p + a->nla_len);
		p += NLA_ALIGN(a->nla_len);
	}
}

/* cmm_mp's family id; 0 when it is not registered */
static int resolve_family(void)
{
	static uint64_t words[RX_BUF / 8];
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	struct msg m = { .len = 0 };
	struct nlmsghdr *nlh = put(&m, NLMSG_HDRLEN);
	struct genlmsghdr *g = put(&m, GENL_HDRLEN);
	struct nlattr *a = put(&m, NLA_HDRLEN + sizeof(CMM_MP_GENL_NAME));
	ssize_t n;

	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = NLA_HDRLEN + sizeof(CMM_MP_GENL_NAME);
	memcpy(a + 1, CMM_MP_GENL_NAME, sizeof(CMM_MP_GENL_NAME));
	nlh->nlmsg_len = m.len;
	if (sendto(nl_fd, m.b, m.len, 0, (struct sockaddr *)&to,
		   sizeof(to)) < 0)
		return -errno;
	n = recv(nl_fd, words, sizeof(words), 0);
	nlh = (struct nlmsghdr *)words;
	if (n > 0 && NLMSG_OK(nlh, (int)n) && nlh->nlmsg_type == GENL_ID_CTRL)
		family_cb(nlh);
	return family ? 0 : -ENOENT;
}

/* the number of pool segments: from a SEG_GET dump */
static void count_segs(void)
{
	static uint64_t words[RX_BUF / 8];
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	struct msg m = { .len = 0 };
	struct nlmsghdr *nlh = put(&m, NLMSG_HDRLEN);
	struct genlmsghdr *g = put(&m, GENL_HDRLEN);
	uint32_t n = 0;

	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	g->cmd = CMM_MP_CMD_SEG_GET;
	g->version = CMM_MP_GENL_VERSION;
	nlh->nlmsg_len = m.len;
	if (sendto(nl_fd, m.b, m.len, 0, (struct sockaddr *)&to,
		   sizeof(to)) < 0)
		return;
	for (;;) {
		ssize_t len = recv(nl_fd, words, sizeof(words), 0);
		int rem = (int)len;

		if (len <= 0)
			break;
		for (nlh = (void *)words; NLMSG_OK(nlh, rem);
		     nlh = NLMSG_NEXT(nlh, rem)) {
			if (nlh->nlmsg_type == NLMSG_DONE ||
			    nlh->nlmsg_type == NLMSG_ERROR) {
				if (n)
					nr_segs = n;
				return;
			}
			n++;
		}
	}
}

static void bad_args(void)
{
	fprintf(stderr, "usage: nl_fuzz [--seed S] [--iters N] [--first I] [--seconds T]\n"
		"               [--jobs J] [--verbose]\n");
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A listener of the events group with the smallest receive buffer, read
 * only now and then, so that segment events are built and sent while
 * requests change state, and the queue overflows (ENOBUFS). Every event
 * must be a well-formed SEG_EVENT of the family. Its actions depend on the
 * iteration number alone, so they leave the inputs' generator alone.
 */
static int ev_fd = -1;

static void listen_events(void)
{
	static uint64_t words[RX_BUF / 8];
	int small = 1024;
	ssize_t n;

	if (!mcgrp)
		return;
	if (ev_fd >= 0 && iter % 256 == 255) {
		close(ev_fd);	/* leave and join again */
		ev_fd = -1;
	}
	if (ev_fd < 0) {
		ev_fd = nl_open();
		if (ev_fd < 0)
			return;
		setsockopt(ev_fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
		if (setsockopt(ev_fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
			       &mcgrp, sizeof(mcgrp))) {
			snprintf(desc, sizeof(desc), "join events group %u",
				 mcgrp);
			judge(IF_NL, EXP_OK, -errno, "open to every user");
			close(ev_fd);
			ev_fd = -1;
			return;
		}
	}
	if (iter % 16)
		return;
	while ((n = recv(ev_fd, words, sizeof(words), MSG_DONTWAIT)) != 0) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)words;
		int rem = (int)n;

		if (n < 0 && errno == ENOBUFS)
			continue;	/* we fell behind: the contract */
		if (n < 0)
			break;
		for (; NLMSG_OK(nlh, rem); nlh = NLMSG_NEXT(nlh, rem)) {
			const struct genlmsghdr *g = NLMSG_DATA(nlh);

			stat_w->events++;
			if (nlh->nlmsg_type == family && reply_ok(nlh) &&
			    g->cmd == CMM_MP_CMD_SEG_EVENT)
				continue;
			snprintf(desc, sizeof(desc), "event type %u cmd %u len %u",
				 nlh->nlmsg_type, g->cmd, nlh->nlmsg_len);
			judge(IF_NL, EXP_OK, -EPROTO, "malformed event");
		}
	}
}

/* Worker @w: its own seed and netlink socket; counts into all_stats[w]. */
static void run_worker(unsigned int w, unsigned long iters, double secs)
{
	double t0 = now();

	stat_w = &all_stats[w];
	seed += w;
	nl_fd = nl_open();
	if (nl_fd < 0) {
		fprintf(stderr, "nl_fuzz: netlink socket: %s\n",
			strerror(-nl_fd));
		exit(2);
	}
	for (iter = first; iter < iters; iter++) {
		unsigned int r;

		if (secs && now() - t0 >= secs)
			break;
		listen_events();
		rng = seed ^ (iter * 0xd1342543de82ef95ULL);
		rnd64();
		dlen = 0;
		desc[0] = '\0';
		r = rnd(100);
		if (r < 45) {
			stat_w->count[IF_NL]++;
			fuzz_nl(false);
		} else if (r < 52) {
			stat_w->count[IF_NL_UNPRIV]++;
			fuzz_nl(true);
		} else if (r < 85) {
			stat_w->count[IF_IOCTL]++;
			fuzz_ioctl();
		} else {
			stat_w->count[IF_IO]++;
			fuzz_io();
		}
	}
	stat_w->iters = iter;
	printf("nl_fuzz: worker %u: replay: nl_fuzz --seed %llu --iters %lu\n",
	       w, (unsigned long long)seed, iter);
}

int main(int argc, char **argv)
{
	unsigned long iters = ~0UL, total = 0, sum[NR_IF] = { 0 };
	unsigned long ref[NR_IF] = { 0 }, n = 0, ev = 0;
	unsigned int jobs = 1, w;
	double secs = 0, t0;
	struct sigaction sa = { .sa_handler = on_bus };
	int i, fd, status, rc = 0;

	seed = (uint64_t)time(NULL);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v"))
			verbose = true;
		else if (i + 1 >= argc)
			bad_args();
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--iters"))
			iters = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seconds"))
			secs = strtod(argv[++i], NULL);
		else if (!strcmp(argv[i], "--first"))
			first = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--jobs"))
			jobs = strtoul(argv[++i], NULL, 0);
		else
			bad_args();
	}
	if (!jobs || jobs > 16)
		bad_args();
	if (iters == ~0UL && !secs)
		secs = 30;
	if (geteuid()) {
		printf("nl_fuzz: needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN): skipped\n");
		return KSFT_SKIP;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGBUS, &sa, NULL);
	nl_fd = nl_open();
	all_stats = mmap(NULL, jobs * sizeof(*all_stats),
			 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			 -1, 0);
	if (nl_fd < 0 || all_stats == MAP_FAILED || arena_init()) {
		fprintf(stderr, "nl_fuzz: setup: %s\n", strerror(errno));
		return 2;
	}
	if (resolve_family()) {
		printf("nl_fuzz: cmm_mp not loaded: skipped\n");
		return KSFT_SKIP;
	}
	count_segs();
	close(nl_fd);
	fd = open(MPE_TEST_DEVICE, O_RDWR);
	if (fd >= 0) {
		if (ioctl(fd, MPE_IOC_INFO, &info))
			memset(&info, 0, sizeof(info));
		close(fd);
	}
	printf("nl_fuzz: seed=%llu jobs=%u family=%u events=%u segments=%u devid=%u nr_devs=%u\n",
	       (unsigned long long)seed, jobs, family, mcgrp, nr_segs,
	       info.devid, info.nr_devs);
	t0 = now();
	/* workers race each other: online/offline against open, mmap, ioctl */
	for (w = 0; w < jobs; w++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("nl_fuzz: fork");
			return 2;
		}
		if (!pid) {
			run_worker(w, iters, secs);
			return 0;
		}
	}
	while (wait(&status) > 0) {
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "nl_fuzz: a worker %s %d\n",
				WIFEXITED(status) ? "exited with" :
				"was killed by signal",
				WIFEXITED(status) ? WEXITSTATUS(status) :
				WTERMSIG(status));
			rc = 2;
		}
	}
	/* leave no receive key behind */
	fd = open(MPE_TEST_DEVICE, O_RDWR);
	if (fd >= 0) {
		struct mpe_test_key k = { .op = MPE_KEY_CLEAR };

		ioctl(fd, MPE_IOC_KEY, &k);
		close(fd);
	}
	for (w = 0; w < jobs; w++) {
		n += all_stats[w].iters;
		ev += all_stats[w].events;
		for (i = 0; i < NR_IF; i++) {
			sum[i] += all_stats[w].count[i];
			ref[i] += all_stats[w].refused[i];
			total += all_stats[w].unexpected[i];
		}
	}
	printf("nl_fuzz: seed=%llu jobs=%u iters=%lu seconds=%.1f",
	       (unsigned long long)seed, jobs, n, now() - t0);
	for (i = 0; i < NR_IF; i++)
		printf(" %s=%lu/%lu", if_name[i], sum[i], ref[i]);
	printf(" events=%lu unexpected=%lu (per interface: inputs/refused)\n",
	       ev, total);
	return rc ? rc : total ? 1 : 0;
}
