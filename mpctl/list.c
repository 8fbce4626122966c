// SPDX-License-Identifier: GPL-2.0
/*
 * mpctl list: devices (-D), segments (-S, the default), or devices with
 * their segments nested (-D -S), always as a JSON array.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "mpctl.h"

static const char list_usage[] =
"usage: mpctl list [-d DEV] [-s SEGS] [-D] [-S] [-u] [-v]\n"
"\n"
"List the pool as JSON: segments by default, devices with -D, devices\n"
"with their segments nested with -D -S.\n"
"\n"
"  -d, --device=DEV     only device DEV (its id or name, e.g. 0 or mp0)\n"
"  -s, --segment=SEGS   only these segments (0 | 0,2 | 1-3 | all)\n"
"  -D, --devices        list devices\n"
"  -S, --segments       list segments (nested under devices with -D)\n"
"  -u, --human          sizes and addresses as human-readable strings\n"
"  -v, --verbose        every attribute\n"
"  -h, --help           this text\n";

static const struct option list_opts[] = {
	{ "device", required_argument, NULL, 'd' },
	{ "segment", required_argument, NULL, 's' },
	{ "devices", no_argument, NULL, 'D' },
	{ "segments", no_argument, NULL, 'S' },
	{ "human", no_argument, NULL, 'u' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ }
};

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
		return mp_device_get_by_id(ctx, id);
	mp_device_foreach(ctx, dev)
		if (!strcmp(mp_device_get_name(dev), arg))
			return dev;
	return NULL;
}

static bool seg_wanted(struct list_args *a, struct mp_device *only,
		       struct mp_segment *seg)
{
	if (only && mp_segment_get_device_id(seg) != mp_device_get_id(only))
		return false;
	return mpctl_seglist_has(&a->segs, mp_segment_get_id(seg));
}

/* Fill @arr with the wanted segments (of @dev when not NULL). */
static int add_segments(struct list_args *a, struct mp_ctx *ctx,
			struct mp_device *dev, struct json_object *arr)
{
	struct mp_segment *seg;

	for (seg = dev ? mp_device_segment_get_first(dev) :
			 mp_segment_get_first(ctx);
	     seg;
	     seg = dev ? mp_device_segment_get_next(seg) :
			 mp_segment_get_next(seg)) {
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

	mp_device_foreach(ctx, dev) {
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

/* Every segment -s names must exist: a typo is an error, not "[]". */
static int check_segments(struct list_args *a, struct mp_ctx *ctx)
{
	char what[32];
	size_t i;

	for (i = 0; i < a->segs.nr; i++) {
		if (mp_segment_get_by_id(ctx, a->segs.ids[i]))
			continue;
		snprintf(what, sizeof(what), "segment %u", a->segs.ids[i]);
		return mpctl_fail_code(MPCTL_EXIT_NOENT, "list", what,
				       "no such segment: %s", strerror(ENOENT));
	}
	return MPCTL_EXIT_OK;
}

int cmd_list(struct mp_ctx *ctx, int argc, char **argv)
{
	struct list_args a = { .segs = { .all = true } };
	struct mp_device *only = NULL;
	struct json_object *arr = NULL;
	const char *bad;
	char what[64];
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":d:s:DSuvh", list_opts,
				NULL)) != -1) {
		switch (c) {
		case 'd':
			a.dev = optarg;
			break;
		case 's':
			mpctl_seglist_free(&a.segs);
			if (mpctl_seglist_parse(&a.segs, optarg, &bad)) {
				rc = mpctl_usage_error("list", "invalid segment list '%s' at '%s'",
						       optarg, bad);
				goto out;
			}
			break;
		case 'D':
			a.devices = true;
			break;
		case 'S':
			a.segments = true;
			break;
		case 'u':
			a.flags |= MPCTL_HUMAN;
			break;
		case 'v':
			a.flags |= MPCTL_VERBOSE;
			break;
		case 'h':
			fputs(list_usage, stdout);
			rc = MPCTL_EXIT_OK;
			goto out;
		default:
			rc = mpctl_getopt_error("list", c, argv);
			goto out;
		}
	}
	if (optind < argc) {
		rc = mpctl_usage_error("list", "unexpected argument '%s'",
				       argv[optind]);
		goto out;
	}
	if (!a.devices)
		a.segments = true;

	rc = mpctl_load("list", ctx);
	if (rc)
		goto out;
	if (a.dev) {
		only = find_device(ctx, a.dev);
		if (!only) {
			snprintf(what, sizeof(what), "device %s", a.dev);
			rc = mpctl_fail_code(MPCTL_EXIT_NOENT, "list", what,
					     "no such device: %s", strerror(ENODEV));
			goto out;
		}
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
