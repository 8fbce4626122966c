// SPDX-License-Identifier: GPL-2.0
/*
 * mpctl repair: rebuild the lost copy of a mirrored segment, where it
 * was (its device came back) or on a replacement segment (--to R). The
 * kernel rebuilds in the background; the command prints the pair as it
 * is once the rebuild has started ("redundancy":"rebuilding"), and
 * `mpctl monitor` shows its end.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "mpctl.h"

struct repair_args {
	uint32_t id;		/* the segment, N or M of the pair */
	uint32_t to;		/* --to R; MP_NONE: where the copy was */
	unsigned int jflags;
};

/* --to: the replacement segment */
static int opt_to(const struct util_option *opt, const char *arg)
{
	struct repair_args *a = opt->value;

	if (mpctl_parse_u32(arg, &a->to) || a->to > MPCTL_SEG_ID_MAX)
		return mpctl_usage_error("repair", "--to '%s': not a segment id",
					 arg);
	return 0;
}

static const struct util_cmd repair_cmd = {
	.prog = "mpctl",
	.cmd = "repair",
	.operands = "SEG",
	.operands_first = true,
	.about =
"Rebuild the lost copy of mirrored segment SEG (either segment of the\n"
"pair) from the copy that is whole: where it was, once its device is\n"
"back, or with --to on segment R of another device, which takes its\n"
"place. The rebuild runs in the background; the pair is printed (JSON)\n"
"as it is once the rebuild has started.\n",
};

/* What a failure of SEG_REPAIR means, and its exit status. */
static const char *repair_reason(int err, int *code)
{
	switch (-err) {
	case EINVAL:
		return "not repaired (not mirrored, or a bad replacement)";
	case EALREADY:
		return "both copies are whole";
	case EBUSY:
		return "a rebuild is running, or the replacement is held";
	case EHOSTUNREACH:
		/* refused as things are: another try can work */
		*code = MPCTL_EXIT_REFUSED;
		return "the lost copy's device is still lost (name a replacement with --to)";
	case EPERM:
	case EACCES:
		return "needs root";
	case ENOENT:
		return "no such segment";
	default:
		return "repair failed";
	}
}

static int repair_failed(struct mp_ctx *ctx, uint32_t id, int err)
{
	int code = mpctl_exit_of_errno(err, cmmmp_get_last_error_origin(ctx) ==
					    MP_ERR_KERNEL);
	const char *reason = repair_reason(err, &code);
	char what[32];
	int rc;

	snprintf(what, sizeof(what), "segment %u", id);
	rc = mpctl_fail_ctx("repair", what, ctx, err, reason);
	/* the line is the same; only the class may differ */
	return rc == MPCTL_EXIT_NOTLOADED ? rc : code;
}

/* The segment and its copy, as they are now; NULL without memory. */
static struct json_object *repair_json(struct mp_segment *seg,
				       unsigned int flags)
{
	struct json_object *arr = json_object_new_array(), *o;
	uint32_t m = cmmmp_segment_get_mirror(seg);
	struct mp_segment *other = NULL;

	if (m != MP_NONE)
		other = cmmmp_segment_get_by_id(cmmmp_segment_get_ctx(seg), m);
	if (!arr)
		return NULL;
	o = mpctl_seg_json(seg, flags);
	if (!o || json_object_array_add(arr, o))
		goto nomem;
	if (!other)
		return arr;
	o = mpctl_seg_json(other, flags);
	if (!o || json_object_array_add(arr, o))
		goto nomem;
	return arr;
nomem:
	json_object_put(o);
	json_object_put(arr);
	return NULL;
}

/* The one operand: a segment id. */
static int repair_operand(struct repair_args *a, int n, char **argv)
{
	if (!n)
		return mpctl_usage_error("repair", "missing segment");
	if (n > 1)
		return mpctl_usage_error("repair", "unexpected argument '%s'",
					 argv[1]);
	if (mpctl_parse_u32(argv[0], &a->id) || a->id > MPCTL_SEG_ID_MAX)
		return mpctl_usage_error("repair", "'%s' is not a segment id",
					 argv[0]);
	if (a->to == a->id)
		return mpctl_usage_error("repair", "--to %u: a segment cannot replace its own copy",
					 a->to);
	return MPCTL_EXIT_OK;
}

/* Segment @id must exist: nothing is sent otherwise. */
static int repair_find(struct mp_ctx *ctx, uint32_t id,
		       struct mp_segment **seg)
{
	char what[32];

	*seg = cmmmp_segment_get_by_id(ctx, id);
	if (*seg)
		return MPCTL_EXIT_OK;
	snprintf(what, sizeof(what), "segment %u", id);
	return mpctl_fail_code(MPCTL_EXIT_NOENT, "repair", what,
			       "no such segment: %s", strerror(ENOENT));
}

int cmd_repair(struct mp_ctx *ctx, int argc, char **argv)
{
	struct repair_args a = { .to = MP_NONE };
	const struct util_option opts[] = {
		OPT_CALLBACK('t', "to", &a, "R",
			     "rebuild the lost copy on segment R, of another\n"
			     "device than the whole copy's, which replaces it",
			     opt_to),
		MPCTL_OPT_HUMAN(&a.jflags),
		MPCTL_OPT_VERBOSE(&a.jflags),
		OPT_END(),
	};
	struct mp_segment *seg, *r;
	struct json_object *arr;
	int n, rc;

	n = util_parse_options(&repair_cmd, opts, argc, argv, &rc);
	if (n < 0)
		return rc;
	rc = repair_operand(&a, n, argv);
	if (!rc)
		rc = mpctl_load("repair", ctx);
	if (!rc)
		rc = repair_find(ctx, a.id, &seg);
	if (!rc && a.to != MP_NONE)
		rc = repair_find(ctx, a.to, &r);
	if (rc)
		return rc;
	rc = cmmmp_segment_repair(seg, a.to);
	if (rc)
		return repair_failed(ctx, a.id, rc);
	arr = repair_json(seg, a.jflags);
	if (!arr || mpctl_print_json(arr, true))
		return mpctl_fail("repair", NULL, "%s", strerror(ENOMEM));
	return MPCTL_EXIT_OK;
}
