// SPDX-License-Identifier: LGPL-2.1
/*
 * libmp generic netlink transport: one request socket per context, one
 * request at a time, every answer turned into a negative errno.
 *
 * libnl reports its own NLE_* codes, which lose the kernel's errno (both
 * -EALREADY and -EBUSY come back as NLE_BUSY, -ENOENT as NLE_OBJ_NOTFOUND).
 * So the kernel's NLMSG_ERROR is caught in our own error callback, which
 * keeps the errno and the extended ack message as they were sent.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <linux/cmm_mp.h>

#include "libmp-private.h"
#include "util/cmm_mp_attrs.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* How often an interrupted dump (NLM_F_DUMP_INTR) is restarted. */
#define MP_NL_DUMP_RETRIES	3

/*
 * Attribute policy for libnl's parser, built from the one table of
 * attributes (util/cmm_mp_attrs.c) when the library is loaded: it checks
 * minimum lengths and string termination; exact sizes are checked by the
 * getters in device.c/segment.c. Attributes beyond CMM_MP_A_MAX (a newer
 * kernel) are ignored by nla_parse().
 */
static struct nla_policy mp_nl_policy[CMM_MP_A_MAX + 1];

__attribute__((constructor))
static void mp_nl_policy_init(void)
{
	static const uint16_t nla_type[] = {
		[CMM_MP_T_NONE]		= NLA_UNSPEC,
		[CMM_MP_T_U32]		= NLA_U32,
		[CMM_MP_T_U64]		= NLA_U64,
		[CMM_MP_T_STRING]	= NLA_STRING,
		[CMM_MP_T_BINARY]	= NLA_UNSPEC,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mp_nl_policy); i++)
		mp_nl_policy[i].type = nla_type[cmm_mp_attr_descs[i].kind];
}

/**
 * mp_nl_err_from_nlerr() - translate a libnl NLE_* code to an errno
 * @nlerr: NLE_* code, either sign
 *
 * Only used for failures libnl detects itself (socket errors, malformed
 * answers); kernel errors never go through here.
 *
 * Return: a negative errno value.
 */
int mp_nl_err_from_nlerr(int nlerr)
{
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case NLE_SUCCESS:	return 0;
	case NLE_INTR:		return -EINTR;
	case NLE_BAD_SOCK:	return -EBADF;
	case NLE_AGAIN:		return -EAGAIN;
	case NLE_NOMEM:		return -ENOMEM;
	case NLE_EXIST:		return -EEXIST;
	case NLE_INVAL:		return -EINVAL;
	case NLE_RANGE:		return -ERANGE;
	case NLE_MSGSIZE:	return -EMSGSIZE;
	case NLE_OPNOTSUPP:	return -EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:	return -EAFNOSUPPORT;
	case NLE_OBJ_NOTFOUND:	return -ENOENT;
	case NLE_BUSY:		return -EBUSY;
	case NLE_NOACCESS:	return -EACCES;
	case NLE_PERM:		return -EPERM;
	case NLE_NODEV:		return -ENODEV;
	case NLE_DUMP_INTR:	return -EAGAIN;
	case NLE_MSG_OVERFLOW:	return -ENOBUFS;
	case NLE_MSG_TRUNC:
	case NLE_MSG_TOOSHORT:
	case NLE_SEQ_MISMATCH:
	case NLE_NOADDR:
	case NLE_PARSE_ERR:
	case NLE_NOATTR:
	case NLE_MISSING_ATTR:
	case NLE_ATTRSIZE:
	case NLE_MSGTYPE_NOSUPPORT:
	case NLE_PROTO_MISMATCH:
		return -EPROTO;
	default:
		return -EIO;
	}
}

/**
 * mp_nl_errmsg_parse() - read an NLMSG_ERROR or NLMSG_DONE message
 * @nlh: the message, nlh->nlmsg_len bytes long
 * @err: the errno it carries (0 for an ACK or a clean DONE)
 * @msg: where to copy the extended ack message, if any ("" if none)
 * @len: size of @msg
 *
 * NLMSG_ERROR carries struct nlmsgerr, then (unless NLM_F_CAPPED) the rest
 * of the request, then (with NLM_F_ACK_TLVS) NLMSGERR_ATTR_* attributes.
 * NLMSG_DONE carries an int (the dump's final errno), then the same TLVs.
 *
 * Return: 0, or -EPROTO when the message is too short to hold its errno.
 */
int mp_nl_errmsg_parse(const struct nlmsghdr *nlh, int *err,
		       char *msg, size_t len)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	const char *data = NLMSG_DATA(nlh);
	size_t total, off;
	int e;

	if (msg && len)
		msg[0] = '\0';
	if (nlh->nlmsg_len < NLMSG_HDRLEN)
		return -EPROTO;
	total = nlh->nlmsg_len - NLMSG_HDRLEN;

	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *ne = (const void *)data;

		if (total < sizeof(*ne))
			return -EPROTO;
		e = ne->error;
		off = sizeof(*ne);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
			if (ne->msg.nlmsg_len < NLMSG_HDRLEN)
				goto out;
			off += ne->msg.nlmsg_len - NLMSG_HDRLEN;
		}
	} else {
		/* NLMSG_DONE: old kernels may send it without the int. */
		if (total < sizeof(int)) {
			*err = 0;
			return 0;
		}
		memcpy(&e, data, sizeof(e));
		off = sizeof(int);
	}

	off = NLMSG_ALIGN(off);
	if (!msg || !len || !(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    off >= total)
		goto out;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)(data + off),
		      total - off, NULL) < 0)
		goto out;
	if (tb[NLMSGERR_ATTR_MSG] && nla_len(tb[NLMSGERR_ATTR_MSG]) > 0) {
		size_t n = nla_len(tb[NLMSGERR_ATTR_MSG]);

		/* The kernel NUL-terminates it; do not trust that. */
		if (n >= len)
			n = len - 1;
		memcpy(msg, nla_data(tb[NLMSGERR_ATTR_MSG]), n);
		msg[n] = '\0';
		n = strnlen(msg, n);
		while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
			msg[--n] = '\0';
	}
out:
	/* errno values are negative on the wire; be lenient about sign. */
	*err = e > 0 ? -e : e;
	return 0;
}

/**
 * mp_nl_parse_msg() - parse a cmm_mp generic netlink message
 * @tb: CMM_MP_A_MAX + 1 slots, filled with the attributes found
 * @nlh: the message
 *
 * Return: 0, or -EPROTO for a malformed message.
 */
int mp_nl_parse_msg(struct nlattr **tb, const struct nlmsghdr *nlh)
{
	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, CMM_MP_A_MAX,
			  mp_nl_policy) < 0)
		return -EPROTO;
	return 0;
}

/* State of one request while its answers come in. */
struct mp_nl_req {
	struct mp_ctx *ctx;
	mp_nl_parse_fn parse;
	void *arg;
	int err;		/* first error seen */
	bool kernel;		/* ... and the kernel reported it */
	bool done;		/* ACK, DONE or ERROR seen */
	bool intr;		/* a dump the kernel saw change under it */
	char msg[MP_ERRMSG_MAX];	/* extended ack message, if any */
};

static void mp_nl_req_fail(struct mp_nl_req *req, int err)
{
	if (!req->err)
		req->err = err;
}

static int mp_nl_valid_cb(struct nl_msg *msg, void *arg)
{
	struct mp_nl_req *req = arg;
	struct nlattr *tb[CMM_MP_A_MAX + 1];
	int rc;

	/*
	 * Keep reading after a bad message so the socket stays in step with
	 * the kernel (the rest of the dump, the ACK); report the first error.
	 */
	if (req->err)
		return NL_SKIP;
	/*
	 * The kernel's numbering changed under the dump (a new pool map):
	 * this message and the rest are of another state than those before.
	 * They are read and dropped; the dump starts again.
	 */
	if (nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP_INTR)
		req->intr = true;
	if (req->intr)
		return NL_SKIP;
	rc = mp_nl_parse_msg(tb, nlmsg_hdr(msg));
	if (rc)
		mp_set_error(req->ctx, rc, "malformed answer from the kernel");
	if (!rc && req->parse)
		rc = req->parse(req->ctx, tb, req->arg);
	if (rc)
		mp_nl_req_fail(req, rc);
	return NL_SKIP;
}

static int mp_nl_err_cb(struct sockaddr_nl *nla, struct nlmsgerr *ne,
			void *arg)
{
	/* libnl hands us the payload; the header sits right before it. */
	const struct nlmsghdr *nlh =
		(const void *)((const char *)ne - NLMSG_HDRLEN);
	struct mp_nl_req *req = arg;
	int err;

	if (mp_nl_errmsg_parse(nlh, &err, req->msg, sizeof(req->msg)))
		err = -EPROTO;
	/* A kernel error replaces a local parse error: it says more. */
	req->err = err ? err : -EPROTO;
	req->kernel = err != 0;
	req->done = true;
	return NL_STOP;
}

static int mp_nl_ack_cb(struct nl_msg *msg, void *arg)
{
	struct mp_nl_req *req = arg;

	req->done = true;
	return NL_STOP;
}

static int mp_nl_finish_cb(struct nl_msg *msg, void *arg)
{
	struct mp_nl_req *req = arg;
	int err = 0;

	/* A dump that failed half way reports its errno in NLMSG_DONE. */
	if (mp_nl_errmsg_parse(nlmsg_hdr(msg), &err, req->msg,
			       sizeof(req->msg)))
		err = -EPROTO;
	/* changed after its last message: what came may be cut short */
	if (nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP_INTR)
		req->intr = true;
	if (err) {
		req->err = err;
		req->kernel = true;
	}
	req->done = true;
	return NL_STOP;
}

/**
 * mp_nl_resolve() - find the cmm_mp family and its events group
 * @sk: a connected NETLINK_GENERIC socket
 * @family: family id out
 * @events_grp: multicast group id out, or NULL when not wanted
 *
 * Return: 0, -ENODEV when the family (the module) is not there, or another
 * negative errno.
 */
int mp_nl_resolve(struct nl_sock *sk, int *family, int *events_grp)
{
	int rc;

	rc = genl_ctrl_resolve(sk, CMM_MP_GENL_NAME);
	if (rc < 0)
		return rc == -NLE_OBJ_NOTFOUND ? -ENODEV :
			mp_nl_err_from_nlerr(rc);
	*family = rc;
	if (!events_grp)
		return 0;
	rc = genl_ctrl_resolve_grp(sk, CMM_MP_GENL_NAME,
				   CMM_MP_GENL_MCGRP_EVENTS);
	if (rc < 0)
		return rc == -NLE_OBJ_NOTFOUND ? -ENODEV :
			mp_nl_err_from_nlerr(rc);
	*events_grp = rc;
	return 0;
}

/**
 * mp_nl_connect() - open the context's request socket if not open yet
 * @ctx: context
 *
 * Return: 0 or a negative errno (recorded in @ctx).
 */
int mp_nl_connect(struct mp_ctx *ctx)
{
	struct nl_sock *sk;
	int one = 1;
	int rc;

	if (ctx->sk)
		return 0;
	sk = nl_socket_alloc();
	if (!sk)
		return mp_set_error(ctx, -ENOMEM, "netlink socket");
	rc = genl_connect(sk);
	if (rc < 0) {
		rc = mp_set_error(ctx, mp_nl_err_from_nlerr(rc),
				  "generic netlink connect: %s",
				  nl_geterror(rc));
		goto err_free;
	}
	/* Dump messages may be larger than a page: size reads by peeking. */
	nl_socket_enable_msg_peek(sk);
	/*
	 * Ask for extended acks (the kernel's reason string); kernels
	 * without them just ignore the option, which is fine.
	 */
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));

	rc = mp_nl_resolve(sk, &ctx->family, NULL);
	if (rc == -ENODEV) {
		mp_set_error(ctx, rc, "no generic netlink family \"%s\" (module not loaded)",
			     CMM_MP_GENL_NAME);
		goto err_free;
	} else if (rc < 0) {
		mp_set_error(ctx, rc, "resolving generic netlink family \"%s\"",
			     CMM_MP_GENL_NAME);
		goto err_free;
	}
	ctx->sk = sk;
	return 0;

err_free:
	nl_socket_free(sk);
	return rc;
}

/**
 * mp_nl_close() - close the request socket (reopened on next use)
 * @ctx: context
 */
void mp_nl_close(struct mp_ctx *ctx)
{
	if (!ctx->sk)
		return;
	nl_socket_free(ctx->sk);
	ctx->sk = NULL;
}

static int mp_nl_request_once(struct mp_ctx *ctx, uint8_t cmd, bool dump,
			      mp_nl_fill_fn fill, const void *fill_arg,
			      struct mp_nl_req *req)
{
	struct nl_msg *msg;
	struct nl_cb *cb;
	int rc;

	msg = nlmsg_alloc();
	if (!msg)
		return -ENOMEM;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		rc = -ENOMEM;
		goto out_msg;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, ctx->family, 0,
			 dump ? NLM_F_DUMP : 0, cmd, CMM_MP_GENL_VERSION)) {
		rc = -ENOMEM;
		goto out_cb;
	}
	if (fill && fill(msg, fill_arg) < 0) {
		rc = -ENOMEM;
		goto out_cb;
	}

	nl_cb_err(cb, NL_CB_CUSTOM, mp_nl_err_cb, req);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, mp_nl_valid_cb, req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, mp_nl_ack_cb, req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, mp_nl_finish_cb, req);

	/* nl_send_auto() adds NLM_F_REQUEST | NLM_F_ACK and the sequence. */
	rc = nl_send_auto(ctx->sk, msg);
	if (rc < 0) {
		rc = mp_nl_err_from_nlerr(rc);
		goto out_cb;
	}
	rc = 0;
	while (!req->done) {
		int r = nl_recvmsgs(ctx->sk, cb);

		if (r < 0 && !req->done) {
			/*
			 * libnl gave up before the answer was complete (socket
			 * error, sequence mismatch, interrupted dump...): the
			 * socket may hold stale answers, so start afresh.
			 */
			rc = mp_nl_err_from_nlerr(r);
			mp_nl_close(ctx);
			break;
		}
		if (r == -NLE_DUMP_INTR) {
			/* Dump finished but the kernel's list changed under it. */
			req->intr = true;
			break;
		}
	}
	if (!rc && req->intr && !req->err)
		rc = -EAGAIN;
out_cb:
	nl_cb_put(cb);
out_msg:
	/* a request may carry a secret (CMM_MP_A_KEY): leave none behind */
	explicit_bzero(nlmsg_hdr(msg), nlmsg_hdr(msg)->nlmsg_len);
	nlmsg_free(msg);
	return rc;
}

/*
 * genetlink answers -ENOENT, without a message, to a family id it does not
 * know: the module was reloaded under a long-lived context and its family
 * got a new id. Resolve the name again; report whether the id changed, so
 * the request is worth one more try.
 */
static bool mp_nl_family_moved(struct mp_ctx *ctx, int *rc)
{
	int old = ctx->family;

	mp_nl_close(ctx);
	*rc = mp_nl_connect(ctx);
	if (*rc)
		return false;	/* -ENODEV: the module is gone */
	*rc = -ENOENT;
	return ctx->family != old;
}

/*
 * A dump came back interrupted (-EAGAIN, req->intr): tell @parse it starts
 * again (mp_nl_parse_fn), if tries are left. Return: whether to retry; if
 * not, *@rc is the error to report, recorded in @ctx.
 */
static bool mp_nl_dump_again(struct mp_ctx *ctx, mp_nl_parse_fn parse,
			     void *arg, int tries, int *rc)
{
	if (tries > 0) {
		*rc = parse ? parse(ctx, NULL, arg) : 0;
		return !*rc;
	}
	*rc = mp_set_error(ctx, -EAGAIN,
			   "the pool changed during each of %d dumps in a row (NLM_F_DUMP_INTR); try again",
			   MP_NL_DUMP_RETRIES);
	return false;
}

/**
 * mp_nl_request_fill() - send one cmm_mp command and process every answer
 * @ctx: context
 * @cmd: CMM_MP_CMD_*
 * @dump: send as a dump (NLM_F_DUMP)
 * @fill: puts the request's attributes, or NULL for none
 * @fill_arg: passed to @fill
 * @parse: called for every answer message with its parsed attributes
 * @arg: passed to @parse
 *
 * Errors are recorded in @ctx with the kernel's extended ack message when
 * it sent one. The request is wiped from memory once sent.
 *
 * Return: 0, the kernel's negative errno, or a local negative errno.
 */
int mp_nl_request_fill(struct mp_ctx *ctx, uint8_t cmd, bool dump,
		       mp_nl_fill_fn fill, const void *fill_arg,
		       mp_nl_parse_fn parse, void *arg)
{
	int tries = dump ? MP_NL_DUMP_RETRIES : 1;
	bool moved_once = false;
	struct mp_nl_req req;
	int rc;

	for (;;) {
		rc = mp_nl_connect(ctx);
		if (rc)
			return rc;
		memset(&req, 0, sizeof(req));
		req.ctx = ctx;
		req.parse = parse;
		req.arg = arg;
		rc = mp_nl_request_once(ctx, cmd, dump, fill, fill_arg, &req);
		if (!rc)
			rc = req.err;
		if (rc == -EAGAIN && req.intr) {
			if (mp_nl_dump_again(ctx, parse, arg, --tries, &rc))
				continue;
			return rc;
		}
		if (rc == -ENOENT && req.kernel && !req.msg[0] && !moved_once) {
			moved_once = true;
			if (mp_nl_family_moved(ctx, &rc))
				continue;
			if (rc != -ENOENT)
				return rc;	/* recorded by mp_nl_connect() */
		}
		break;
	}

	if (!rc)
		return 0;
	if (req.kernel && rc == req.err) {
		/* The detail is the kernel's own words, when it gave any. */
		mp_set_error(ctx, rc, "%s", req.msg);
		mp_set_error_origin(ctx, MP_ERR_KERNEL);
	} else if (ctx->last_err != rc) {
		/* Not already described by a parse callback. */
		mp_set_error(ctx, rc, "netlink request failed");
	}
	return rc;
}

static int mp_nl_fill_seg(struct nl_msg *msg, const void *arg)
{
	const struct mp_nl_seg_req *r = arg;

	if (r->seg_id && nla_put_u32(msg, CMM_MP_A_SEG_ID, *r->seg_id) < 0)
		return -ENOMEM;
	if (r->mode && (*r->mode & MP_NL_MODE_AUTO) != MP_NL_MODE_AUTO &&
	    nla_put_u32(msg, CMM_MP_A_SEG_MODE,
			*r->mode & MP_NL_MODE_AUTO) < 0)
		return -ENOMEM;
	if (r->mode && (*r->mode & MP_NL_MODE_SHARED) &&
	    nla_put_u32(msg, CMM_MP_A_SEG_SHARED, 1) < 0)
		return -ENOMEM;
	if (r->mode && (*r->mode & MP_NL_MODE_MEMMAP) &&
	    nla_put_u32(msg, CMM_MP_A_SEG_MEMMAP_ON_MEMORY, 1) < 0)
		return -ENOMEM;
	if (r->mirror && nla_put_u32(msg, CMM_MP_A_SEG_MIRROR, *r->mirror) < 0)
		return -ENOMEM;
	return 0;
}

/**
 * mp_nl_request_seg() - send one segment command (not a dump)
 * @ctx: context
 * @cmd: CMM_MP_CMD_*
 * @r: its attributes: segment id, mode as mp_nl_request()'s, mirror
 * @parse: called for every answer message with its parsed attributes
 * @arg: passed to @parse
 *
 * Return: as mp_nl_request_fill().
 */
int mp_nl_request_seg(struct mp_ctx *ctx, uint8_t cmd,
		      const struct mp_nl_seg_req *r, mp_nl_parse_fn parse,
		      void *arg)
{
	return mp_nl_request_fill(ctx, cmd, false, mp_nl_fill_seg, r, parse,
				  arg);
}

/**
 * mp_nl_request() - send one cmm_mp command about devices or segments
 * @ctx: context
 * @cmd: CMM_MP_CMD_*
 * @dump: send as a dump (NLM_F_DUMP)
 * @seg_id: CMM_MP_A_SEG_ID to put, or NULL
 * @mode: CMM_MP_A_SEG_MODE to put (none for MP_NL_MODE_AUTO), or NULL;
 *	with MP_NL_MODE_SHARED or'ed in, CMM_MP_A_SEG_SHARED 1 too, with
 *	MP_NL_MODE_MEMMAP, CMM_MP_A_SEG_MEMMAP_ON_MEMORY 1
 * @parse: called for every answer message with its parsed attributes
 * @arg: passed to @parse
 *
 * Return: as mp_nl_request_fill().
 */
int mp_nl_request(struct mp_ctx *ctx, uint8_t cmd, bool dump,
		  const uint32_t *seg_id, const uint32_t *mode,
		  mp_nl_parse_fn parse, void *arg)
{
	const struct mp_nl_seg_req r = { .seg_id = seg_id, .mode = mode };

	return mp_nl_request_fill(ctx, cmd, dump,
				  seg_id || mode ? mp_nl_fill_seg : NULL, &r,
				  parse, arg);
}

/**
 * mp_nla_u32() - read a u32 attribute, checking its exact size
 * @tb: parsed attributes
 * @type: CMM_MP_A_*
 * @v: value out, untouched when the attribute is absent
 *
 * Return: 0, -ENOENT when absent, -EPROTO when of the wrong size.
 */
int mp_nla_u32(struct nlattr **tb, int type, uint32_t *v)
{
	if (!tb[type])
		return -ENOENT;
	if (nla_len(tb[type]) != sizeof(uint32_t))
		return -EPROTO;
	*v = nla_get_u32(tb[type]);
	return 0;
}

/**
 * mp_nla_u64() - read a u64 attribute, checking its exact size
 * @tb: parsed attributes
 * @type: CMM_MP_A_*
 * @v: value out, untouched when the attribute is absent
 *
 * Return: 0, -ENOENT when absent, -EPROTO when of the wrong size.
 */
int mp_nla_u64(struct nlattr **tb, int type, uint64_t *v)
{
	if (!tb[type])
		return -ENOENT;
	if (nla_len(tb[type]) != sizeof(uint64_t))
		return -EPROTO;
	/* nla_put_u64_64bit() pads, but do not rely on alignment. */
	memcpy(v, nla_data(tb[type]), sizeof(*v));
	return 0;
}
