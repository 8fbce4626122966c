// SPDX-License-Identifier: GPL-2.0
/*
 * mpctl online / offline: change the state of segments, in the order
 * given, stopping at the first failure. What was changed before a failure
 * is still printed, so a script knows what to undo.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "mpctl.h"

/* What a failure of SEG_ONLINE / SEG_OFFLINE means, by errno. */
static const char *seg_reason(bool online, int err)
{
	switch (-err) {
	case ENOENT:
		return "no such segment";
	case EALREADY:
		return online ? "already online" : "already offline";
	case EBUSY:
		return online ?
			"range busy (claimed by another driver or host?)" :
			"offline refused by the kernel (unmovable pages?)";
	case EPERM:
	case EACCES:
		return "needs root";
	case EINVAL:
		return "request rejected as invalid";
	case EOPNOTSUPP:
		return "not supported by the kernel";
	default:
		return online ? "online failed" : "offline failed";
	}
}

/*
 * Pooling mode: the segment belongs to another device (its backing device
 * arbitrates, Documentation/pool.rst), or is shared by others. Names the
 * owner, or the sharers, in @buf.
 */
static bool seg_owned_by_other(struct mp_segment *seg, char *buf, size_t len)
{
	struct mp_device *dev;
	struct mp_segment *s;
	struct mp_ctx *c;
	uint32_t owner;
	bool other = false;

	/* a fresh context: the caller's keeps the kernel's error message */
	if (cmmmp_new(&c))
		return false;
	s = cmmmp_segment_get_by_id(c, cmmmp_segment_get_id(seg));
	owner = s ? cmmmp_segment_get_owner(s) : MP_NONE;
	if (owner != MP_NONE) {
		dev = cmmmp_device_get_by_id(c, owner);
		other = !dev || !cmmmp_device_is_local(dev);
	}
	if (other && owner == MP_GONE) {
		snprintf(buf, len, "owned by a device that is not in the pool now");
	} else if (other) {
		snprintf(buf, len, "owned by device %u (mp%u)", owner, owner);
	} else if (s && cmmmp_segment_get_sharers(s)) {
		uint32_t set = cmmmp_segment_get_sharers(s), i;
		size_t n;

		n = (size_t)snprintf(buf, len, "shared by device(s)");
		for (i = 0; i < 32 && n < len; i++)
			if (set & (1U << i))
				n += (size_t)snprintf(buf + n, len - n, " %u", i);
		other = true;
	}
	cmmmp_unref(c);
	return other;
}

/*
 * Without a pool key any host on the link can pass for a member, read and
 * write what a member holds and hand segments around (security.rst): say
 * so whenever a pool of several devices hands out a segment without one.
 */
static void warn_keyless(const char *cmd, struct mp_ctx *ctx)
{
	struct mp_device *dev;
	unsigned int nr = 0;
	char ids[64];

	cmmmp_device_foreach(ctx, dev)
		nr++;
	if (nr < 2)
		return;
	/* "" without a transport: nobody else reaches us */
	mpctl_key_ids(ids, sizeof(ids));
	if (strncmp(ids, "none", 4))
		return;
	fprintf(stderr,
		"mpctl %s: warning: the pool has %u devices and no pool key: any host on the link can act as a member (Documentation/security.rst); set one with 'mpctl key set'\n",
		cmd, nr);
}

struct seg_args {
	bool online;
	const char *cmd;
	bool as;			/* --as given */
	enum mpctl_mode mode;		/* --as */
	bool mirror;			/* --mirror given */
	uint32_t mirror_id;		/* --mirror M; MP_NONE: pick one */
	unsigned int flags;		/* cmmmp_segment_online() flags */
	unsigned int jflags;		/* MPCTL_HUMAN, MPCTL_VERBOSE */
	struct mpctl_seglist list;	/* all ids of all arguments */
};

/* --mirror M goes with one segment, not itself; --mirror with ids. */
static int check_mirror_list(struct seg_args *a)
{
	if (a->list.all)
		return mpctl_usage_error(a->cmd, "--mirror needs segment ids, not 'all'");
	if (a->mirror_id == MP_NONE)
		return 0;
	if (a->list.nr > 1)
		return mpctl_usage_error(a->cmd, "--mirror %u: one segment to mirror, not %zu",
					 a->mirror_id, a->list.nr);
	if (mpctl_seglist_has(&a->list, a->mirror_id))
		return mpctl_usage_error(a->cmd, "--mirror %u: a segment cannot be its own mirror",
					 a->mirror_id);
	return 0;
}

/*
 * Several SEGS arguments add up: join them with commas and parse the
 * whole, so that an id named twice across arguments is caught too.
 */
static int parse_args(struct seg_args *a, int argc, char **argv)
{
	const char *bad;
	size_t len = 1;
	char *joined;
	int i, rc;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "all") && argc > 1)
			return mpctl_usage_error(a->cmd, "'all' cannot be combined with ids");
		len += strlen(argv[i]) + 1;
	}
	joined = malloc(len);
	if (!joined)
		return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
	joined[0] = '\0';
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(joined, ",");
		strcat(joined, argv[i]);
	}

	rc = mpctl_seglist_parse(&a->list, joined, &bad);
	if (rc == -EEXIST)
		rc = mpctl_usage_error(a->cmd, "segment list '%s' names a segment twice, at '%s'",
				       joined, bad);
	else if (rc == -E2BIG)
		rc = mpctl_usage_error(a->cmd, "segment list '%s' is too long (max %u)",
				       joined, MPCTL_SEGLIST_MAX);
	else if (rc == -EDOM)
		rc = mpctl_usage_error(a->cmd, "segment list '%s': range '%.*s' goes down",
				       joined, (int)strcspn(bad, ","), bad);
	else if (rc == -ERANGE)
		rc = mpctl_usage_error(a->cmd, "segment list '%s': id too big at '%s'",
				       joined, bad);
	else if (rc == -ENOMEM)
		rc = mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
	else if (rc)
		rc = mpctl_usage_error(a->cmd, "invalid segment list '%s' at '%s'",
				       joined, bad);
	free(joined);
	if (!rc && a->mirror)
		rc = check_mirror_list(a);
	return rc;
}

/*
 * The segments to act on, in order: those named (all must exist, so a
 * typo changes nothing), or with "all" every segment not yet in the
 * target state: for online the offline ones, for offline those online
 * here, as System RAM or mapped as /dev/mps<id> or /dev/mpb<id>.
 */
static int collect(struct seg_args *a, struct mp_ctx *ctx,
		   struct mp_segment ***out, size_t *nr)
{
	struct mp_segment **v, *seg;
	size_t n = 0, max;
	char what[32];

	if (a->list.all) {
		max = 0;
		cmmmp_segment_foreach(ctx, seg)
			max++;
	} else {
		max = a->list.nr;
	}
	v = calloc(max ? max : 1, sizeof(*v));
	if (!v)
		return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));

	if (a->list.all) {
		enum mp_seg_state from = a->online ? MP_SEG_OFFLINE :
						     MP_SEG_ONLINE_RAM;

		/* Segments busy changing state are someone else's business. */
		cmmmp_segment_foreach(ctx, seg)
			if (cmmmp_segment_get_state(seg) == from ||
			    (!a->online && cmmmp_segment_get_devnode(seg)))
				v[n++] = seg;
	} else {
		for (n = 0; n < a->list.nr; n++) {
			v[n] = cmmmp_segment_get_by_id(ctx, a->list.ids[n]);
			if (v[n])
				continue;
			free(v);
			snprintf(what, sizeof(what), "segment %u",
				 a->list.ids[n]);
			return mpctl_fail_code(MPCTL_EXIT_NOENT, a->cmd, what,
					       "no such segment: %s",
					       strerror(ENOENT));
		}
	}
	*out = v;
	*nr = n;
	return MPCTL_EXIT_OK;
}

/* online -m: the segment for the second copy, or none to pick one */
static int opt_mirror(const struct util_option *opt, const char *arg)
{
	struct seg_args *a = opt->value;
	uint32_t id = MP_NONE;

	if (arg && (mpctl_parse_u32(arg, &id) || id > MPCTL_SEG_ID_MAX))
		return mpctl_usage_error(a->cmd, "--mirror '%s': not a segment id",
					 arg);
	a->mirror = true;
	a->mirror_id = id;
	return 0;
}

/* online -a: the mode to online in */
static int opt_as(const struct util_option *opt, const char *arg)
{
	struct seg_args *a = opt->value;

	if (mpctl_parse_mode(arg, &a->mode))
		return mpctl_usage_error(a->cmd, "--as '%s': use ram, dax or blk",
					 arg);
	a->as = true;
	return 0;
}

static const struct util_cmd online_cmd = {
	.prog = "mpctl",
	.cmd = "online",
	.operands = "SEGS",
	.operands_first = true,
	.about =
"Online segments, in the order given, and print them (JSON). SEGS is\n"
"0 | 0,2 | 1-3 | all (every offline segment); several SEGS arguments add\n"
"up. Segments of this host's device become System RAM by default; those\n"
"of other devices of the pool become /dev/mps<N>. With --mirror each keeps\n"
"a second copy on segment M of another device (without M: the first\n"
"offline segment nobody holds, on a device other than this host's if\n"
"there is one).\n",
};

static const struct util_cmd offline_cmd = {
	.prog = "mpctl",
	.cmd = "offline",
	.operands = "SEGS",
	.operands_first = true,
	.about =
"Offline segments (their pages migrate away first), in the order given,\n"
"and print them (JSON). SEGS is 0 | 0,2 | 1-3 | all (every online segment);\n"
"several SEGS arguments add up.\n",
};

/*
 * The options, as util_parse_options(): the number of operands (at least
 * one), or -1 when the command is to end with *@status.
 */
static int seg_options(struct seg_args *a, int argc, char **argv,
		       int *status)
{
	const struct util_option online_opts[] = {
		OPT_CALLBACK('a', "as", a, "MODE",
			     "ram: System RAM (this host's device only);\n"
			     "dax: character device /dev/mps<N> (read, write, mmap);\n"
			     "blk: block device /dev/mpb<N>", opt_as),
		OPT_CALLBACK_OPTNUM('m', "mirror", a, "M",
				    "dax, blk: keep a second copy on segment M,\n"
				    "of another device, or on one picked (above)",
				    opt_mirror),
		OPT_BIT('s', "shared", &a->flags, MP_ONLINE_SHARED,
			"sharing mode (dax, blk): several hosts hold the\n"
			"segment at once (Documentation/pool.rst)"),
		OPT_BIT('N', "no-movable", &a->flags, MP_ONLINE_NO_MOVABLE,
			"online to the kernel zone (ZONE_NORMAL) instead of\n"
			"ZONE_MOVABLE; such memory may not go offline again"),
		OPT_BIT('k', "keep-zone", &a->flags, MP_ONLINE_KEEP_ZONE,
			"blocks the kernel onlined itself (its auto-online\n"
			"policy) keep the zone it chose; by default they are\n"
			"onlined again in the zone asked for"),
		OPT_BIT(0, "memmap-on-memory", &a->flags,
			MP_ONLINE_MEMMAP_ON_MEMORY,
			"System RAM: take the memmap (struct pages) from the\n"
			"segment itself, not from other nodes' memory; needs\n"
			"memory_hotplug.memmap_on_memory=1"),
		MPCTL_OPT_HUMAN(&a->jflags),
		MPCTL_OPT_VERBOSE(&a->jflags),
		OPT_END(),
	};
	const struct util_option offline_opts[] = {
		MPCTL_OPT_HUMAN(&a->jflags),
		MPCTL_OPT_VERBOSE(&a->jflags),
		OPT_END(),
	};
	int n;

	n = util_parse_options(a->online ? &online_cmd : &offline_cmd,
			       a->online ? online_opts : offline_opts,
			       argc, argv, status);
	if (!n) {
		*status = mpctl_usage_error(a->cmd, "missing segment list");
		return -1;
	}
	return n;
}

/* --as and the flags that go with one mode only; --shared alone is dax. */
static int seg_check_mode(struct seg_args *a)
{
	bool shared = a->flags & MP_ONLINE_SHARED;

	if (shared && a->as && a->mode == MPCTL_MODE_RAM)
		return mpctl_usage_error(a->cmd, "--shared needs --as dax or --as blk");
	if (a->mirror && shared)
		return mpctl_usage_error(a->cmd,
					 "--mirror and --shared: a mirrored segment is held by this host alone");
	if (a->mirror && a->as && a->mode == MPCTL_MODE_RAM)
		return mpctl_usage_error(a->cmd, "--mirror needs --as dax or --as blk");
	if ((shared || a->mirror) && !a->as) {
		a->as = true;
		a->mode = MPCTL_MODE_DAX;
	}
	if (!a->as || a->mode == MPCTL_MODE_RAM)
		return MPCTL_EXIT_OK;
	if (a->flags & MP_ONLINE_NO_MOVABLE)
		return mpctl_usage_error(a->cmd, "--no-movable is for --as ram only");
	if (a->flags & MP_ONLINE_KEEP_ZONE)
		return mpctl_usage_error(a->cmd, "--keep-zone is for --as ram only");
	if (a->flags & MP_ONLINE_MEMMAP_ON_MEMORY)
		return mpctl_usage_error(a->cmd, "--memmap-on-memory is for --as ram only");
	return MPCTL_EXIT_OK;
}

/*
 * The second copy of @seg: M as given, or the first free segment of
 * another device that is not one of those to online (libmp's pick).
 */
static int seg_mirror(struct seg_args *a, struct mp_segment *seg)
{
	struct mp_segment *m;

	if (a->mirror_id != MP_NONE)
		return cmmmp_segment_online_mirror(seg, (enum mp_seg_mode)a->mode,
						   a->mirror_id, a->flags);
	m = cmmmp_segment_pick_mirror(seg, a->list.ids, a->list.nr);
	if (!m)
		return cmmmp_get_last_error(cmmmp_segment_get_ctx(seg));
	return cmmmp_segment_online_mirror(seg, (enum mp_seg_mode)a->mode,
					   cmmmp_segment_get_id(m), a->flags);
}

static int seg_do(struct seg_args *a, struct mp_segment *seg)
{
	if (!a->online)
		return cmmmp_segment_offline(seg);
	if (a->mirror)
		return seg_mirror(a, seg);
	if (a->as)
		return cmmmp_segment_online_as(seg, (enum mp_seg_mode)a->mode,
					    a->flags);
	return cmmmp_segment_online(seg, a->flags);
}

/* Report why @seg did not change: who holds it, or what the kernel said. */
static int seg_failed(struct seg_args *a, struct mp_ctx *ctx,
		      struct mp_segment *seg, int err)
{
	char what[32], owned[64];

	snprintf(what, sizeof(what), "segment %u", cmmmp_segment_get_id(seg));
	if ((err == -EBUSY || err == -EPERM) &&
	    seg_owned_by_other(seg, owned, sizeof(owned)))
		return mpctl_fail_ctx(a->cmd, what, ctx, err, owned);
	if (cmmmp_get_last_error_origin(ctx) == MP_ERR_MEMBLOCK)
		return mpctl_fail_ctx(a->cmd, what, ctx, err, NULL);
	/* --mirror without M found no segment: refused as things are */
	if (err == -ENOSPC && cmmmp_get_last_error_origin(ctx) == MP_ERR_LOCAL)
		return mpctl_fail_code(MPCTL_EXIT_REFUSED, a->cmd, what,
				       "%s", cmmmp_get_last_error_msg(ctx));
	return mpctl_fail_ctx(a->cmd, what, ctx, err,
			      seg_reason(a->online, err));
}

/*
 * Change @segs in order, printing each as it changes: the array grows
 * one element per segment (mpctl_print_json_elem()), flushed, so that a
 * reader, or whoever stops mpctl part way, sees what changed so far, and
 * thousands of segments are never held as one JSON document. At the first
 * failure the array is closed on what did change, then mpctl says what did
 * not; "[]" only when nothing was asked.
 */
static int seg_change_all(struct seg_args *a, struct mp_ctx *ctx,
			  struct mp_segment **segs, size_t nr)
{
	struct json_object *o;
	size_t i;
	int err;

	for (i = 0; i < nr; i++) {
		err = seg_do(a, segs[i]);
		if (err) {
			if (i && mpctl_print_json_end(false))
				return mpctl_fail(a->cmd, NULL, "writing the list: %s",
						  strerror(EIO));
			return seg_failed(a, ctx, segs[i], err);
		}
		o = mpctl_seg_json(segs[i], a->jflags);
		if (!o)
			return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
		err = mpctl_print_json_elem(o, !i);	/* consumes */
		if (!err && fflush(stdout))
			err = -EIO;
		if (err == -ENOMEM)
			return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
		if (err)
			return mpctl_fail(a->cmd, NULL,
					  "writing the list: %s; segments after %u left as they were",
					  strerror(EIO),
					  cmmmp_segment_get_id(segs[i]));
	}
	if (mpctl_print_json_end(!nr))
		return mpctl_fail(a->cmd, NULL, "writing the list: %s",
				  strerror(EIO));
	return MPCTL_EXIT_OK;
}

static int seg_change(struct mp_ctx *ctx, int argc, char **argv,
		      struct seg_args *a)
{
	struct mp_segment **segs = NULL;
	size_t nr = 0;
	int n, rc;

	n = seg_options(a, argc, argv, &rc);
	if (n < 0)
		goto out;
	rc = seg_check_mode(a);
	if (!rc)
		rc = parse_args(a, n, argv);
	if (!rc)
		rc = mpctl_load(a->cmd, ctx);
	if (!rc)
		rc = collect(a, ctx, &segs, &nr);
	if (rc)
		goto out;
	if (a->online)
		warn_keyless(a->cmd, ctx);
	rc = seg_change_all(a, ctx, segs, nr);
out:
	free(segs);
	mpctl_seglist_free(&a->list);
	return rc;
}

int cmd_online(struct mp_ctx *ctx, int argc, char **argv)
{
	struct seg_args a = { .online = true, .cmd = "online" };

	return seg_change(ctx, argc, argv, &a);
}

int cmd_offline(struct mp_ctx *ctx, int argc, char **argv)
{
	struct seg_args a = { .online = false, .cmd = "offline" };

	return seg_change(ctx, argc, argv, &a);
}
