// SPDX-License-Identifier: GPL-2.0
/*
 * nl_bad: malformed requests to the cmm_mp generic netlink family.
 *
 * Runs as root inside a guest with cmm_mp loaded. Builds its messages by
 * hand on a raw NETLINK_GENERIC socket (no libnl: libnl would refuse to
 * build most of them), sends one bad request per case, checks the errno
 * the kernel answers with, and then checks with a SEG_GET dump that the
 * segment states are exactly what they were before the first case: bad
 * input must be refused and must change nothing.
 *
 * Output is kselftest-style TAP. Exit status: 0 all passed, 1 a case
 * failed, 4 skipped (not root, or cmm_mp not loaded).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/cmm_mp.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_SKIP	4

#define MAX_SEGS	4096
#define BUFSZ		(64 * 1024)
/*
 * No answer at all within this long counts as "silently dropped". The
 * kernel answers inside sendto() (doit runs in the sender's context), so
 * a short wait is plenty even in a slow emulated guest.
 */
#define RECV_TIMEOUT_S	2
/* The kernel answered nothing: distinct from every errno. */
#define NO_ANSWER	1

struct nl {
	int fd;
	uint32_t seq;
	uint16_t family;
};

/* A message under construction; 8-aligned so attributes can be any size. */
struct msg {
	union {
		unsigned char buf[8192];
		uint64_t align;
	};
	size_t len;
};

static int family;		/* cmm_mp's id */
static uint32_t states0[MAX_SEGS];	/* segment states before any case */
static size_t nr_segs0;
static uint32_t target = CMM_MP_NONE;	/* an offline segment, if any */
static unsigned int test_nr, failed;
static char last_ext[256];	/* extended ack message of the last error */

/* ---- building messages ------------------------------------------------ */

static void *msg_put(struct msg *m, size_t len)
{
	void *p = m->buf + m->len;

	memset(p, 0, NLMSG_ALIGN(len));
	m->len += NLMSG_ALIGN(len);
	return p;
}

/* nlmsghdr + genlmsghdr for @cmd of @type; nlmsg_len set by msg_end(). */
static void msg_start(struct msg *m, uint16_t type, uint16_t flags,
		      uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	m->len = 0;
	nlh = msg_put(m, NLMSG_HDRLEN);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	g = msg_put(m, GENL_HDRLEN);
	g->cmd = cmd;
	g->version = version;
}

static void msg_attr(struct msg *m, uint16_t type, const void *data,
		     size_t len)
{
	struct nlattr *a = msg_put(m, NLA_HDRLEN + len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
}

static void msg_u8(struct msg *m, uint16_t type, uint8_t v)
{
	msg_attr(m, type, &v, sizeof(v));
}

static void msg_u32(struct msg *m, uint16_t type, uint32_t v)
{
	msg_attr(m, type, &v, sizeof(v));
}

static void msg_u64(struct msg *m, uint16_t type, uint64_t v)
{
	msg_attr(m, type, &v, sizeof(v));
}

static void msg_end(struct msg *m)
{
	((struct nlmsghdr *)m->buf)->nlmsg_len = m->len;
}

/* ---- talking to the kernel --------------------------------------------- */

static int nl_open(struct nl *nl)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = RECV_TIMEOUT_S };
	int one = 1;

	nl->seq = 1;
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl->fd < 0)
		return -errno;
	if (bind(nl->fd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    setsockopt(nl->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		int err = -errno;

		close(nl->fd);
		return err;
	}
	/* Extended acks only make the diagnostics better. */
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return 0;
}

/* Send @len bytes as they are, with the next sequence number. */
static int nl_send(struct nl *nl, void *buf, size_t len, uint32_t *seq)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	if (len >= NLMSG_HDRLEN)
		((struct nlmsghdr *)buf)->nlmsg_seq = nl->seq;
	*seq = nl->seq++;
	if (sendto(nl->fd, buf, len, 0, (struct sockaddr *)&to,
		   sizeof(to)) < 0)
		return -errno;
	return 0;
}

typedef void (*data_fn)(const struct nlmsghdr *nlh, void *arg);

/* Keep the NLMSGERR_ATTR_MSG of an NLMSG_ERROR, for the diagnostics. */
static void save_ext(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	const unsigned char *p, *end;

	last_ext[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	p = (const unsigned char *)e + sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		p += e->msg.nlmsg_len - NLMSG_HDRLEN;
	p = (const unsigned char *)NLMSG_DATA(nlh) +
	    NLMSG_ALIGN(p - (const unsigned char *)NLMSG_DATA(nlh));
	end = (const unsigned char *)nlh + nlh->nlmsg_len;
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			return;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG) {
			snprintf(last_ext, sizeof(last_ext), "%.*s",
				 (int)(a->nla_len - NLA_HDRLEN),
				 (const char *)a + NLA_HDRLEN);
			return;
		}
		p += NLA_ALIGN(a->nla_len);
	}
}

/*
 * Read answers to request @seq until its ACK, error or DONE. Data messages
 * go to @fn. Return: 0 (ACK or clean DONE), the negative errno the kernel
 * sent, NO_ANSWER after RECV_TIMEOUT_S of silence, or a local -errno.
 */
static int nl_wait(struct nl *nl, uint32_t seq, data_fn fn, void *arg)
{
	static uint64_t words[BUFSZ / 8];
	unsigned char *buf = (unsigned char *)words;

	last_ext[0] = '\0';
	for (;;) {
		ssize_t n = recv(nl->fd, buf, sizeof(words), 0);
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		int rem;

		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ?
				NO_ANSWER : -errno;
		rem = (int)n;
		for (; NLMSG_OK(nlh, rem); nlh = NLMSG_NEXT(nlh, rem)) {
			if (nlh->nlmsg_seq != seq)
				continue;	/* a late answer to an old case */
			if (nlh->nlmsg_type == NLMSG_ERROR ||
			    nlh->nlmsg_type == NLMSG_DONE) {
				const struct nlmsgerr *ne = NLMSG_DATA(nlh);
				const int *e = NLMSG_DATA(nlh);

				if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(int)))
					return -EPROTO;
				if (*e && nlh->nlmsg_type == NLMSG_ERROR &&
				    nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(*ne)))
					save_ext(nlh);
				return *e;
			}
			if (fn)
				fn(nlh, arg);
		}
	}
}

/* Find an attribute of a genetlink message; NULL if absent. */
static const struct nlattr *find_attr(const struct nlmsghdr *nlh,
				      uint16_t type)
{
	const unsigned char *p = (const unsigned char *)NLMSG_DATA(nlh) +
				 GENL_HDRLEN;
	const unsigned char *end = (const unsigned char *)nlh +
				   nlh->nlmsg_len;

	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			return NULL;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		p += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

static bool attr_u32(const struct nlmsghdr *nlh, uint16_t type, uint32_t *v)
{
	const struct nlattr *a = find_attr(nlh, type);

	if (!a || a->nla_len != NLA_HDRLEN + sizeof(*v))
		return false;
	memcpy(v, (const char *)a + NLA_HDRLEN, sizeof(*v));
	return true;
}

static void family_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *a = find_attr(nlh, CTRL_ATTR_FAMILY_ID);

	if (a && a->nla_len >= NLA_HDRLEN + sizeof(uint16_t))
		memcpy(arg, (const char *)a + NLA_HDRLEN, sizeof(uint16_t));
}

/* CTRL_CMD_GETFAMILY "cmm_mp". Return: 0 or -ENOENT (not loaded). */
static int resolve_family(struct nl *nl)
{
	struct msg m;
	uint16_t id = 0;
	uint32_t seq;
	int rc;

	msg_start(&m, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, 1);
	msg_attr(&m, CTRL_ATTR_FAMILY_NAME, CMM_MP_GENL_NAME,
		 sizeof(CMM_MP_GENL_NAME));
	msg_end(&m);
	rc = nl_send(nl, m.buf, m.len, &seq);
	if (!rc)
		rc = nl_wait(nl, seq, family_cb, &id);
	if (rc)
		return rc == NO_ANSWER ? -ETIMEDOUT : rc;
	if (!id)
		return -EPROTO;
	nl->family = id;
	return 0;
}

struct states {
	uint32_t v[MAX_SEGS];
	size_t nr;
	bool bad;
};

static void state_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct states *st = arg;
	uint32_t id, state;

	if (nlh->nlmsg_type != family || !attr_u32(nlh, CMM_MP_A_SEG_ID, &id) ||
	    !attr_u32(nlh, CMM_MP_A_SEG_STATE, &state) || id >= MAX_SEGS) {
		st->bad = true;
		return;
	}
	st->v[id] = state;
	if (id + 1 > st->nr)
		st->nr = id + 1;
}

/* SEG_GET dump: every segment's state. Return: 0 or a negative errno. */
static int dump_states(struct nl *nl, struct states *st)
{
	struct msg m;
	uint32_t seq;
	int rc;

	memset(st, 0, sizeof(*st));
	msg_start(&m, nl->family, NLM_F_DUMP, CMM_MP_CMD_SEG_GET,
		  CMM_MP_GENL_VERSION);
	msg_end(&m);
	rc = nl_send(nl, m.buf, m.len, &seq);
	if (!rc)
		rc = nl_wait(nl, seq, state_cb, st);
	if (rc == NO_ANSWER)
		return -ETIMEDOUT;
	if (!rc && st->bad)
		return -EPROTO;
	return rc;
}

/* ---- the cases --------------------------------------------------------- */

static const char *errname(int err)
{
	static char buf[64];

	switch (err) {
	case 0:		return "0 (accepted)";
	case NO_ANSWER:	return "no answer";
	case -EINVAL:	return "-EINVAL";
	case -ENOENT:	return "-ENOENT";
	case -EPERM:	return "-EPERM";
	case -EOPNOTSUPP: return "-EOPNOTSUPP";
	case -EALREADY:	return "-EALREADY";
	case -EBUSY:	return "-EBUSY";
	}
	snprintf(buf, sizeof(buf), "%d (%s)", err, strerror(-err));
	return buf;
}

/*
 * Compare every segment's state with the snapshot; put back online
 * segments that a wrongly accepted request onlined, so that one failure
 * does not cascade into the following cases.
 */
static bool states_unchanged(struct nl *nl, char *why, size_t len)
{
	struct states now;
	size_t i;
	int rc = dump_states(nl, &now);

	if (rc) {
		snprintf(why, len, "SEG_GET dump failed: %s", errname(rc));
		return false;
	}
	if (now.nr != nr_segs0) {
		snprintf(why, len, "%zu segments now, %zu before", now.nr,
			 nr_segs0);
		return false;
	}
	for (i = 0; i < now.nr; i++) {
		struct msg m;
		uint32_t seq;

		if (now.v[i] == states0[i])
			continue;
		snprintf(why, len, "segment %zu state %u, was %u", i,
			 now.v[i], states0[i]);
		if (states0[i] == CMM_MP_SEG_OFFLINE &&
		    now.v[i] == CMM_MP_SEG_ONLINE_RAM) {
			msg_start(&m, nl->family, 0, CMM_MP_CMD_SEG_OFFLINE,
				  CMM_MP_GENL_VERSION);
			msg_u32(&m, CMM_MP_A_SEG_ID, (uint32_t)i);
			msg_end(&m);
			if (!nl_send(nl, m.buf, m.len, &seq))
				nl_wait(nl, seq, NULL, NULL);
		}
		return false;
	}
	return true;
}

/* Report one case: the answer must be @want and nothing may change. */
static void report(struct nl *nl, const char *desc, int got, int want)
{
	char ext[sizeof(last_ext)], why[128] = "";
	bool same;

	/* The state dump below would overwrite the case's message. */
	snprintf(ext, sizeof(ext), "%s", last_ext);
	same = states_unchanged(nl, why, sizeof(why));
	bool ok = got == want && same;

	test_nr++;
	printf("%s %u - %s: %s%s\n", ok ? "ok" : "not ok", test_nr, desc,
	       errname(got), same ? ", states unchanged" : "");
	if (ext[0])
		printf("#   kernel: %s\n", ext);
	if (got != want)
		printf("#   expected %s\n", errname(want));
	if (!same)
		printf("#   %s\n", why);
	if (!ok)
		failed++;
	fflush(stdout);
}

static void skip(const char *desc, const char *why)
{
	printf("ok %u - %s # SKIP %s\n", ++test_nr, desc, why);
}

/* Send a built message and return the kernel's answer. */
static int transact(struct nl *nl, struct msg *m)
{
	uint32_t seq;
	int rc;

	msg_end(m);
	rc = nl_send(nl, m->buf, m->len, &seq);
	return rc ? rc : nl_wait(nl, seq, NULL, NULL);
}

static void online_msg(struct nl *nl, struct msg *m, uint8_t cmd)
{
	msg_start(m, nl->family, 0, cmd, CMM_MP_GENL_VERSION);
}

static void case_no_seg_id(struct nl *nl)
{
	struct msg m;

	online_msg(nl, &m, CMM_MP_CMD_SEG_ONLINE);
	report(nl, "SEG_ONLINE without SEG_ID", transact(nl, &m), -EINVAL);
}

static void case_seg_id_u8(struct nl *nl)
{
	struct msg m;

	online_msg(nl, &m, CMM_MP_CMD_SEG_ONLINE);
	msg_u8(&m, CMM_MP_A_SEG_ID, 0);
	report(nl, "SEG_ONLINE with a 1-byte SEG_ID", transact(nl, &m),
	       -EINVAL);
}

static void case_seg_id_u64(struct nl *nl)
{
	struct msg m;

	online_msg(nl, &m, CMM_MP_CMD_SEG_ONLINE);
	msg_u64(&m, CMM_MP_A_SEG_ID, target == CMM_MP_NONE ? 0 : target);
	report(nl, "SEG_ONLINE with an 8-byte SEG_ID", transact(nl, &m),
	       -EINVAL);
}

static void case_seg_get_u16(struct nl *nl)
{
	struct msg m;
	uint16_t v = 0;

	msg_start(&m, nl->family, 0, CMM_MP_CMD_SEG_GET, CMM_MP_GENL_VERSION);
	msg_attr(&m, CMM_MP_A_SEG_ID, &v, sizeof(v));
	report(nl, "SEG_GET with a 2-byte SEG_ID", transact(nl, &m), -EINVAL);
}

/* A valid request for the target segment plus one unknown attribute. */
static void case_unknown_attr(struct nl *nl, uint16_t type)
{
	char desc[96];
	struct msg m;

	snprintf(desc, sizeof(desc),
		 "SEG_ONLINE of an offline segment plus unknown attribute %u",
		 type);
	if (target == CMM_MP_NONE) {
		skip(desc, "no offline segment");
		return;
	}
	online_msg(nl, &m, CMM_MP_CMD_SEG_ONLINE);
	msg_u32(&m, CMM_MP_A_SEG_ID, target);
	msg_u32(&m, type, 0);
	report(nl, desc, transact(nl, &m), -EINVAL);
}

static void case_seg_id_range(struct nl *nl, uint32_t id)
{
	char desc[64];
	struct msg m;

	snprintf(desc, sizeof(desc), "SEG_ONLINE of segment %#x", id);
	online_msg(nl, &m, CMM_MP_CMD_SEG_ONLINE);
	msg_u32(&m, CMM_MP_A_SEG_ID, id);
	report(nl, desc, transact(nl, &m), -ENOENT);
}

static void case_unknown_cmd(struct nl *nl, uint8_t cmd)
{
	char desc[64];
	struct msg m;

	snprintf(desc, sizeof(desc), "unknown command %u", cmd);
	online_msg(nl, &m, cmd);
	msg_u32(&m, CMM_MP_A_SEG_ID, 0);
	report(nl, desc, transact(nl, &m), -EOPNOTSUPP);
}

static void case_dev_name(struct nl *nl)
{
	static char name[4000];
	struct msg m;

	if (target == CMM_MP_NONE) {
		skip("SEG_ONLINE with a 4000-byte DEV_NAME", "no offline segment");
		return;
	}
	memset(name, 'x', sizeof(name) - 1);
	online_msg(nl, &m, CMM_MP_CMD_SEG_ONLINE);
	msg_u32(&m, CMM_MP_A_SEG_ID, target);
	msg_attr(&m, CMM_MP_A_DEV_NAME, name, sizeof(name));
	report(nl, "SEG_ONLINE with a 4000-byte DEV_NAME", transact(nl, &m),
	       -EINVAL);
}

static void case_seg_mode(struct nl *nl, uint32_t mode)
{
	char desc[64];
	struct msg m;

	snprintf(desc, sizeof(desc), "SEG_ONLINE with SEG_MODE %#x", mode);
	if (target == CMM_MP_NONE) {
		skip(desc, "no offline segment");
		return;
	}
	online_msg(nl, &m, CMM_MP_CMD_SEG_ONLINE);
	msg_u32(&m, CMM_MP_A_SEG_ID, target);
	msg_u32(&m, CMM_MP_A_SEG_MODE, mode);
	/* NLA_POLICY_MAX answers out-of-range integers with -ERANGE */
	report(nl, desc, transact(nl, &m), -ERANGE);
}

/* An attribute header claiming more bytes than the message has. */
static void case_attr_overrun(struct nl *nl)
{
	struct nlattr *a;
	struct msg m;

	online_msg(nl, &m, CMM_MP_CMD_SEG_ONLINE);
	msg_u32(&m, CMM_MP_A_SEG_ID, 0);
	a = (struct nlattr *)(m.buf + NLMSG_HDRLEN + GENL_HDRLEN);
	a->nla_len = 200;
	report(nl, "attribute length past the end of the message",
	       transact(nl, &m), -EINVAL);
}

/* nlmsg_len covers the netlink header only: no genetlink header. */
static void case_no_genl_hdr(struct nl *nl)
{
	struct nlmsghdr nlh = {
		.nlmsg_len = NLMSG_HDRLEN,
		.nlmsg_type = nl->family,
		.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
	};
	uint32_t seq;
	int rc;

	rc = nl_send(nl, &nlh, sizeof(nlh), &seq);
	if (!rc)
		rc = nl_wait(nl, seq, NULL, NULL);
	report(nl, "message without a genetlink header", rc, -EINVAL);
}

/*
 * nlmsg_len larger than the datagram, or smaller than a header: netlink
 * drops such datagrams without an answer, or answers with an error. Both
 * are fine; an ACK or a crash is not. The socket must keep working.
 */
static void case_bad_len(struct nl *nl, uint32_t len, const char *desc)
{
	struct msg m;
	uint32_t seq;
	int rc;

	online_msg(nl, &m, CMM_MP_CMD_SEG_ONLINE);
	msg_u32(&m, CMM_MP_A_SEG_ID, target == CMM_MP_NONE ? 0 : target);
	msg_end(&m);
	((struct nlmsghdr *)m.buf)->nlmsg_len = len;
	rc = nl_send(nl, m.buf, m.len, &seq);
	if (!rc)
		rc = nl_wait(nl, seq, NULL, NULL);
	/* Either outcome is right: report it as the expected one. */
	report(nl, desc, rc, rc < 0 ? rc : NO_ANSWER);
}

/* Garbage bytes that are not a netlink message at all. */
static void case_garbage(struct nl *nl)
{
	unsigned char junk[37];
	uint32_t seq;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 73 + 11);
	rc = nl_send(nl, junk, sizeof(junk), &seq);
	if (!rc)
		rc = nl_wait(nl, seq, NULL, NULL);
	report(nl, "37 bytes of garbage", rc, rc < 0 ? rc : NO_ANSWER);
}

/*
 * In a child that dropped to uid 65534: send @cmd for the target segment
 * on a fresh socket and pass the answer back through a pipe.
 */
static int unprivileged(uint8_t cmd, bool dump)
{
	int pfd[2], status, rc = -EIO;
	pid_t pid;

	if (pipe(pfd))
		return -errno;
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return rc;
	}
	if (!pid) {
		struct nl cnl;
		struct msg m;

		close(pfd[0]);
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			rc = -errno;
		else
			rc = nl_open(&cnl);
		if (!rc) {
			cnl.family = (uint16_t)family;
			msg_start(&m, cnl.family, dump ? NLM_F_DUMP : 0, cmd,
				  CMM_MP_GENL_VERSION);
			if (!dump)
				msg_u32(&m, CMM_MP_A_SEG_ID,
					target == CMM_MP_NONE ? 0 : target);
			rc = transact(&cnl, &m);
		}
		if (write(pfd[1], &rc, sizeof(rc)) != sizeof(rc))
			_exit(2);
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], &rc, sizeof(rc)) != sizeof(rc))
		rc = -EIO;
	close(pfd[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		rc = -ECHILD;
	return rc;
}

static void case_unprivileged(struct nl *nl)
{
	report(nl, "SEG_ONLINE as uid 65534",
	       unprivileged(CMM_MP_CMD_SEG_ONLINE, false), -EPERM);
	report(nl, "SEG_OFFLINE as uid 65534",
	       unprivileged(CMM_MP_CMD_SEG_OFFLINE, false), -EPERM);
	/* Reading stays open to everyone. */
	report(nl, "SEG_GET dump as uid 65534",
	       unprivileged(CMM_MP_CMD_SEG_GET, true), 0);
}

int main(void)
{
	struct states st;
	struct nl nl;
	size_t i;
	int rc;

	printf("TAP version 13\n");
	if (geteuid()) {
		printf("1..0 # SKIP needs root\n");
		return KSFT_SKIP;
	}
	rc = nl_open(&nl);
	if (rc) {
		printf("1..0 # SKIP netlink socket: %s\n", strerror(-rc));
		return KSFT_SKIP;
	}
	rc = resolve_family(&nl);
	if (rc) {
		printf("1..0 # SKIP cmm_mp not loaded (%s)\n", strerror(-rc));
		return KSFT_SKIP;
	}
	family = nl.family;
	rc = dump_states(&nl, &st);
	if (rc) {
		printf("1..0 # SKIP SEG_GET dump: %s\n", strerror(-rc));
		return KSFT_FAIL;
	}
	nr_segs0 = st.nr;
	memcpy(states0, st.v, sizeof(states0));
	for (i = 0; i < st.nr; i++) {
		if (st.v[i] == CMM_MP_SEG_OFFLINE) {
			target = (uint32_t)i;
			break;
		}
	}
	printf("# family %u, %zu segments, probing with segment %d\n",
	       family, nr_segs0, target == CMM_MP_NONE ? -1 : (int)target);
	printf("1..24\n");

	case_no_seg_id(&nl);
	case_seg_id_u8(&nl);
	case_seg_id_u64(&nl);
	case_seg_get_u16(&nl);
	case_unknown_attr(&nl, CMM_MP_A_MAX + 1);
	case_unknown_attr(&nl, 1000);
	case_seg_id_range(&nl, 0xffffffffU);
	case_seg_id_range(&nl, (uint32_t)nr_segs0);
	case_unknown_cmd(&nl, CMM_MP_CMD_UNSPEC);
	case_unknown_cmd(&nl, CMM_MP_CMD_SEG_EVENT);
	case_unknown_cmd(&nl, 200);
	case_dev_name(&nl);
	case_seg_mode(&nl, __CMM_MP_SEG_MODE_MAX);
	case_seg_mode(&nl, 0xffffffffU);
	case_attr_overrun(&nl);
	case_no_genl_hdr(&nl);
	case_bad_len(&nl, 4096, "nlmsg_len past the end of the datagram");
	case_bad_len(&nl, 8, "nlmsg_len shorter than a netlink header");
	case_bad_len(&nl, NLMSG_HDRLEN + GENL_HDRLEN + 2,
		     "nlmsg_len cutting an attribute in half");
	case_garbage(&nl);
	case_unprivileged(&nl);

	/* The socket survived all of it: a plain dump still works. */
	rc = dump_states(&nl, &st);
	test_nr++;
	printf("%s %u - a well-formed SEG_GET dump still works: %s\n",
	       rc ? "not ok" : "ok", test_nr, errname(rc));
	if (rc)
		failed++;

	printf("# %u of %u failed\n", failed, test_nr);
	close(nl.fd);
	return failed ? KSFT_FAIL : KSFT_PASS;
}
