// SPDX-License-Identifier: GPL-2.0
/*
 * mpctl list: devices (-D), segments (-S, the default), or devices with
 * their segments nested (-D -S), always as a JSON array.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "mpctl.h"

struct list_args {
	const char *dev;	/* -d as given */
	struct mpctl_seglist segs;	/* -s, or "all" */
	bool devices, segments;
	unsigned int flags;
};

/* -d takes "3" or a name such as "mp3". */
static struct mp_device *find_device(struct mp_ctx *ctx, const char *arg)
{
	struct mp_device *dev;
	uint32_t id;

	if (!mpctl_parse_u32(arg, &id))
		return cmmmp_device_get_by_id(ctx, id);
	cmmmp_device_foreach(ctx, dev)
		if (!strcmp(cmmmp_device_get_name(dev), arg))
			return dev;
	return NULL;
}

static bool seg_wanted(struct list_args *a, struct mp_device *only,
		       struct mp_segment *seg)
{
	if (only && cmmmp_segment_get_device_id(seg) != cmmmp_device_get_id(only))
		return false;
	return mpctl_seglist_has(&a->segs, cmmmp_segment_get_id(seg));
}

/* Fill @arr with the wanted segments (of @dev when not NULL). */
static int add_segments(struct list_args *a, struct mp_ctx *ctx,
			struct mp_device *dev, struct json_object *arr)
{
	struct mp_segment *seg;

	for (seg = dev ? cmmmp_device_segment_get_first(dev) :
			 cmmmp_segment_get_first(ctx);
	     seg;
	     seg = dev ? cmmmp_device_segment_get_next(seg) :
			 cmmmp_segment_get_next(seg)) {
		struct json_object *o;

		if (!seg_wanted(a, dev, seg))
			continue;
		o = mpctl_seg_json(seg, a->flags);
		if (!o)
			return -ENOMEM;
		if (json_object_array_add(arr, o)) {
			json_object_put(o);
			return -ENOMEM;
		}
	}
	return 0;
}

static int add_devices(struct list_args *a, struct mp_ctx *ctx,
		       struct mp_device *only, struct json_object *arr)
{
	struct mp_device *dev;

	cmmmp_device_foreach(ctx, dev) {
		struct json_object *o, *segs;

		if (only && dev != only)
			continue;
		o = mpctl_dev_json(dev, a->flags);
		if (!o)
			return -ENOMEM;
		if (json_object_array_add(arr, o)) {
			json_object_put(o);
			return -ENOMEM;
		}
		if (!a->segments)
			continue;
		segs = json_object_new_array();
		if (!segs)
			return -ENOMEM;
		if (json_object_object_add(o, "segments", segs)) {
			json_object_put(segs);
			return -ENOMEM;
		}
		if (add_segments(a, ctx, dev, segs))
			return -ENOMEM;
	}
	return 0;
}

/* list_stream(): what to print, and how far it got */
struct list_stream {
	struct list_args *a;
	struct mp_device *only;
	size_t nr;
};

static int list_stream_one(struct mp_segment *seg, void *arg)
{
	struct list_stream *st = arg;
	struct json_object *o;

	if (!seg_wanted(st->a, st->only, seg))
		return 0;
	o = mpctl_seg_json(seg, st->a->flags);
	if (!o)
		return -ENOMEM;
	return mpctl_print_json_elem(o, !st->nr++);
}

/*
 * Every segment (of one device with -d), printed as the kernel's dump
 * arrives: a pool of tens of thousands of segments is never held whole,
 * and the first ones are out before the last are read. A failure part way
 * leaves the array open, so that no reader takes a cut list for a whole.
 */
static int list_stream(struct list_args *a, struct mp_ctx *ctx,
		       struct mp_device *only)
{
	struct list_stream st = { .a = a, .only = only };
	int rc = cmmmp_segment_dump(ctx, list_stream_one, &st);

	if (rc == -EIO)
		return mpctl_fail("list", NULL, "writing the list: %s",
				  strerror(EIO));
	if (rc == -ENOMEM)
		return mpctl_fail("list", NULL, "%s", strerror(ENOMEM));
	if (rc)
		return mpctl_load_failed("list", ctx, rc);
	if (mpctl_print_json_end(!st.nr))
		return mpctl_fail("list", NULL, "writing the list: %s",
				  strerror(EIO));
	return MPCTL_EXIT_OK;
}

/* Every segment -s names must exist: a typo is an error, not "[]". */
static int check_segments(struct list_args *a, struct mp_ctx *ctx)
{
	char what[32];
	size_t i;

	for (i = 0; i < a->segs.nr; i++) {
		if (cmmmp_segment_get_by_id(ctx, a->segs.ids[i]))
			continue;
		snprintf(what, sizeof(what), "segment %u", a->segs.ids[i]);
		return mpctl_fail_code(MPCTL_EXIT_NOENT, "list", what,
				       "no such segment: %s", strerror(ENOENT));
	}
	return MPCTL_EXIT_OK;
}

/* -s: the segments to list */
static int opt_segments(const struct util_option *opt, const char *arg)
{
	struct mpctl_seglist *segs = opt->value;
	const char *bad;

	mpctl_seglist_free(segs);
	if (mpctl_seglist_parse(segs, arg, &bad))
		return mpctl_usage_error("list", "invalid segment list '%s' at '%s'",
					 arg, bad);
	return 0;
}

static const struct util_cmd list_cmd = {
	.prog = "mpctl",
	.cmd = "list",
	.about =
"List the pool as JSON: segments by default, devices with -D, devices\n"
"with their segments nested with -D -S.\n",
};

int cmd_list(struct mp_ctx *ctx, int argc, char **argv)
{
	struct list_args a = { .segs = { .all = true } };
	const struct util_option opts[] = {
		OPT_STRING('d', "device", &a.dev, "DEV",
			   "only device DEV (its id or name, e.g. 0 or mp0)"),
		OPT_CALLBACK('s', "segment", &a.segs, "SEGS",
			     "only these segments (0 | 0,2 | 1-3 | all)",
			     opt_segments),
		OPT_BOOLEAN('D', "devices", &a.devices, "list devices"),
		OPT_BOOLEAN('S', "segments", &a.segments,
			    "list segments (nested under devices with -D)"),
		MPCTL_OPT_HUMAN(&a.flags),
		MPCTL_OPT_VERBOSE(&a.flags),
		OPT_END(),
	};
	struct mp_device *only = NULL;
	struct json_object *arr = NULL;
	char what[64];
	bool stream;
	int n, rc;

	n = util_parse_options(&list_cmd, opts, argc, argv, &rc);
	if (n < 0)
		goto out;
	if (n) {
		rc = mpctl_usage_error("list", "unexpected argument '%s'",
				       argv[0]);
		goto out;
	}
	if (!a.devices)
		a.segments = true;

	/* the whole pool's segments are streamed, not loaded */
	stream = !a.devices && a.segs.all;
	if (!stream) {
		rc = mpctl_load("list", ctx);
		if (rc)
			goto out;
	}
	if (a.dev) {
		only = find_device(ctx, a.dev);
		if (!only) {
			rc = cmmmp_get_last_error(ctx);
			if (rc && rc != -ENOENT) {
				rc = mpctl_load_failed("list", ctx, rc);
				goto out;
			}
			snprintf(what, sizeof(what), "device %s", a.dev);
			rc = mpctl_fail_code(MPCTL_EXIT_NOENT, "list", what,
					     "no such device: %s", strerror(ENODEV));
			goto out;
		}
	}
	if (stream) {
		rc = list_stream(&a, ctx, only);
		goto out;
	}
	rc = check_segments(&a, ctx);
	if (rc)
		goto out;

	arr = json_object_new_array();
	if (!arr ||
	    (a.devices ? add_devices(&a, ctx, only, arr) :
			 add_segments(&a, ctx, only, arr))) {
		rc = mpctl_fail("list", NULL, "%s", strerror(ENOMEM));
		goto out;
	}
	if (mpctl_print_json(arr, true))
		rc = mpctl_fail("list", NULL, "%s", strerror(ENOMEM));
	arr = NULL;
out:
	json_object_put(arr);
	mpctl_seglist_free(&a.segs);
	return rc;
}
