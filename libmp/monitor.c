// SPDX-License-Identifier: LGPL-2.1
/*
 * libmp event monitor: a socket subscribed to the cmm_mp "events"
 * multicast group. Each CMM_MP_CMD_SEG_EVENT message is applied to the
 * context's segment object and that object handed to the caller, so every
 * segment getter works on events.
 *
 * Reading is done here rather than through libnl: libnl folds ENOBUFS
 * (events lost because the socket buffer overflowed) into NLE_NOMEM, and a
 * monitor must be able to tell the two apart.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <netlink/genl/genl.h>
#include <linux/cmm_mp.h>

#include "libmp-private.h"

/* Events are small; this holds any datagram the kernel sends us. */
#define MP_MON_BUFSZ		(32 * 1024)
/* Socket receive buffer: room for bursts of events before ENOBUFS. */
#define MP_MON_RCVBUF		(1024 * 1024)

struct mp_monitor {
	struct mp_ctx *ctx;
	struct nl_sock *sk;
	int family;
	int group;
	/* Events received but not handed out yet (FIFO). */
	struct mp_seg_info *q;
	size_t q_head, q_nr, q_alloc;
	unsigned char *buf;
};

MP_EXPORT int cmmmp_monitor_new(struct mp_ctx *ctx, struct mp_monitor **monp)
{
	struct mp_monitor *mon;
	int rc;

	if (!ctx || !monp)
		return -EINVAL;
	mp_clear_error(ctx);
	mon = calloc(1, sizeof(*mon));
	if (!mon)
		return -ENOMEM;
	mon->buf = malloc(MP_MON_BUFSZ);
	mon->sk = nl_socket_alloc();
	if (!mon->buf || !mon->sk) {
		rc = -ENOMEM;
		goto err;
	}
	/* Events carry sequence number 0: nothing to check them against. */
	nl_socket_disable_seq_check(mon->sk);
	rc = genl_connect(mon->sk);
	if (rc < 0) {
		rc = mp_set_error(ctx, mp_nl_err_from_nlerr(rc),
				  "generic netlink connect: %s",
				  nl_geterror(rc));
		goto err;
	}
	rc = mp_nl_resolve(mon->sk, &mon->family, &mon->group);
	if (rc) {
		mp_set_error(ctx, rc, "%s", rc == -ENODEV ?
			     "cmm_mp events group not found (module not loaded)" :
			     "resolving the cmm_mp events group");
		goto err;
	}
	rc = nl_socket_add_membership(mon->sk, mon->group);
	if (rc < 0) {
		rc = mp_set_error(ctx, mp_nl_err_from_nlerr(rc),
				  "joining the cmm_mp events group");
		goto err;
	}
	rc = nl_socket_set_buffer_size(mon->sk, MP_MON_RCVBUF, 0);
	if (rc < 0) {
		rc = mp_set_error(ctx, mp_nl_err_from_nlerr(rc),
				  "setting the event socket buffer size");
		goto err;
	}
	rc = nl_socket_set_nonblocking(mon->sk);
	if (rc < 0) {
		rc = mp_set_error(ctx, mp_nl_err_from_nlerr(rc),
				  "making the event socket non-blocking");
		goto err;
	}
	mon->ctx = cmmmp_ref(ctx);
	*monp = mon;
	return 0;

err:
	if (mon->sk)
		nl_socket_free(mon->sk);
	free(mon->buf);
	free(mon);
	return rc;
}

MP_EXPORT void cmmmp_monitor_free(struct mp_monitor *mon)
{
	if (!mon)
		return;
	nl_socket_free(mon->sk);
	free(mon->q);
	free(mon->buf);
	cmmmp_unref(mon->ctx);
	free(mon);
}

MP_EXPORT int cmmmp_monitor_get_fd(struct mp_monitor *mon)
{
	return mon ? nl_socket_get_fd(mon->sk) : -EINVAL;
}

static int mp_monitor_push(struct mp_monitor *mon,
			   const struct mp_seg_info *info)
{
	if (mon->q_head + mon->q_nr == mon->q_alloc) {
		if (mon->q_head) {
			/* Slide the pending events to the front first. */
			memmove(mon->q, mon->q + mon->q_head,
				mon->q_nr * sizeof(*mon->q));
			mon->q_head = 0;
		} else {
			size_t n = mon->q_alloc ? mon->q_alloc * 2 : 16;
			struct mp_seg_info *q;

			q = realloc(mon->q, n * sizeof(*q));
			if (!q)
				return -ENOMEM;
			mon->q = q;
			mon->q_alloc = n;
		}
	}
	mon->q[mon->q_head + mon->q_nr++] = *info;
	return 0;
}

/* Queue the events of one datagram; anything else in it is skipped. */
static int mp_monitor_parse(struct mp_monitor *mon, size_t len)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)mon->buf;
	int rem = (int)len;
	int rc;

	for (; NLMSG_OK(nlh, rem); nlh = NLMSG_NEXT(nlh, rem)) {
		struct nlattr *tb[CMM_MP_A_MAX + 1];
		struct genlmsghdr *gh;
		struct mp_seg_info info;

		if (nlh->nlmsg_type != mon->family ||
		    nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
			continue;
		gh = NLMSG_DATA(nlh);
		if (gh->cmd != CMM_MP_CMD_SEG_EVENT)
			continue;
		if (mp_nl_parse_msg(tb, nlh) || mp_seg_info_parse(tb, &info))
			return mp_set_error(mon->ctx, -EPROTO,
					    "malformed segment event");
		rc = mp_monitor_push(mon, &info);
		if (rc)
			return rc;
	}
	return 0;
}

/* Read one datagram. Return: 0, -EAGAIN when none is waiting, -errno. */
static int mp_monitor_recv(struct mp_monitor *mon)
{
	struct sockaddr_nl from;
	struct iovec iov = {
		.iov_base = mon->buf,
		.iov_len = MP_MON_BUFSZ,
	};
	struct msghdr msg = {
		.msg_name = &from,
		.msg_namelen = sizeof(from),
		.msg_iov = &iov,
		.msg_iovlen = 1,
	};
	ssize_t n;

	for (;;) {
		n = recvmsg(nl_socket_get_fd(mon->sk), &msg, 0);
		if (n >= 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno == ENOBUFS)
			return mp_set_error(mon->ctx, -ENOBUFS,
					    "event socket overflowed: events were lost");
		return -errno;
	}
	/*
	 * Only the kernel (port 0) sends events; anything else reaching our
	 * port is some local process talking to us, so ignore it.
	 */
	if (msg.msg_namelen != sizeof(from) || from.nl_pid != 0)
		return 0;
	if (msg.msg_flags & MSG_TRUNC)
		return mp_set_error(mon->ctx, -EMSGSIZE,
				    "event datagram truncated");
	return mp_monitor_parse(mon, n);
}

MP_EXPORT int cmmmp_monitor_read(struct mp_monitor *mon, struct mp_segment **seg)
{
	struct mp_seg_info info;
	struct mp_segment *s;
	int rc;

	if (!mon || !seg)
		return -EINVAL;
	mp_clear_error(mon->ctx);
	while (!mon->q_nr) {
		rc = mp_monitor_recv(mon);
		if (rc)
			return rc;
	}
	info = mon->q[mon->q_head];
	s = mp_segment_upsert(mon->ctx, &info);
	if (!s)
		return -ENOMEM;
	/* Only dequeue once applied, so -ENOMEM loses nothing. */
	mon->q_head++;
	if (!--mon->q_nr)
		mon->q_head = 0;
	*seg = s;
	return 0;
}

MP_EXPORT int cmmmp_monitor_wait(struct mp_monitor *mon, int timeout_ms)
{
	struct pollfd pfd;
	int rc;

	if (!mon)
		return -EINVAL;
	if (mon->q_nr)
		return 1;
	pfd.fd = nl_socket_get_fd(mon->sk);
	pfd.events = POLLIN;
	do {
		rc = poll(&pfd, 1, timeout_ms);
	} while (rc < 0 && errno == EINTR);
	if (rc < 0)
		return -errno;
	return rc > 0 ? 1 : 0;
}
