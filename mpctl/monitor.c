// SPDX-License-Identifier: GPL-2.0
/*
 * mpctl monitor: one JSON object per line for every segment state change
 * the kernel announces, until interrupted or --count events were printed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "mpctl.h"

/* {"event":NAME} followed by the segment's attributes, on one line. */
static int print_event(const char *name, struct mp_segment *seg,
		       unsigned int flags)
{
	struct json_object *o = json_object_new_object();
	struct json_object *s = NULL;
	struct json_object *ev = json_object_new_string(name);

	if (!o || !ev || json_object_object_add(o, "event", ev)) {
		json_object_put(ev);
		goto nomem;
	}
	if (seg) {
		s = mpctl_seg_json(seg, flags);
		if (!s)
			goto nomem;
		json_object_object_foreach(s, key, val) {
			if (json_object_object_add(o, key,
						   json_object_get(val))) {
				json_object_put(val);
				goto nomem;
			}
		}
		json_object_put(s);
		s = NULL;
	}
	if (mpctl_print_json(o, false))
		return -ENOMEM;
	fflush(stdout);
	return 0;
nomem:
	json_object_put(s);
	json_object_put(o);
	return -ENOMEM;
}

/* -c: a positive number of events */
static int opt_count(const struct util_option *opt, const char *arg)
{
	uint32_t *count = opt->value;

	if (mpctl_parse_u32(arg, count) || !*count)
		return mpctl_usage_error("monitor",
					 "--count needs a positive number, not '%s'",
					 arg);
	return 0;
}

static const struct util_cmd monitor_cmd = {
	.prog = "mpctl",
	.cmd = "monitor",
	.about =
"Print one JSON object per line for every segment state change, as the\n"
"kernel announces it: {\"event\":\"segment\", ...the segment...}. When events\n"
"were lost (the socket overflowed) {\"event\":\"lost\"} is printed; re-read\n"
"the state with 'mpctl list'. Both segments of a mirrored pair are announced,\n"
"with \"mirror\" and \"redundancy\", when a copy is lost and when a rebuild\n"
"starts and ends.\n",
};

/*
 * Print what is queued on @mon, up to @count segment events (0: no limit)
 * counted in *@seen. Return: 0 when the queue is empty or the count is
 * reached, else the exit status (reported).
 */
static int print_queued(struct mp_ctx *ctx, struct mp_monitor *mon,
			unsigned int flags, uint32_t count, uint32_t *seen)
{
	struct mp_segment *seg;
	int rc;

	while (!count || *seen < count) {
		rc = cmmmp_monitor_read(mon, &seg);
		if (rc == -EAGAIN)
			return 0;
		if (rc == -ENOBUFS) {
			/* Say so in-band and carry on. */
			rc = print_event("lost", NULL, flags);
		} else if (!rc) {
			rc = print_event("segment", seg, flags);
			(*seen)++;
		} else {
			return mpctl_fail_ctx("monitor", "events", ctx, rc,
					      "reading events");
		}
		if (rc)
			return mpctl_fail("monitor", NULL, "%s", strerror(-rc));
	}
	return 0;
}

int cmd_monitor(struct mp_ctx *ctx, int argc, char **argv)
{
	unsigned int flags = MPCTL_VERBOSE;
	uint32_t count = 0, seen = 0;
	const struct util_option opts[] = {
		OPT_CALLBACK('c', "count", &count, "N",
			     "exit after N segment events", opt_count),
		MPCTL_OPT_HUMAN(&flags),
		OPT_END(),
	};
	struct mp_monitor *mon = NULL;
	int n, rc;

	n = util_parse_options(&monitor_cmd, opts, argc, argv, &rc);
	if (n < 0)
		return rc;
	if (n)
		return mpctl_usage_error("monitor", "unexpected argument '%s'",
					 argv[0]);

	/* Subscribe before anything else so no event is missed. */
	rc = cmmmp_monitor_new(ctx, &mon);
	if (rc)
		return mpctl_fail_ctx("monitor", "events", ctx, rc,
				      rc == -EPERM || rc == -EACCES ?
				      "needs root" :
				      "cannot subscribe to the events group");
	/* Device names for the events: read the pool once. */
	rc = mpctl_load("monitor", ctx);
	while (!rc && (!count || seen < count)) {
		rc = cmmmp_monitor_wait(mon, -1);
		if (rc < 0)
			rc = mpctl_fail("monitor", "events", "poll: %s",
					strerror(-rc));
		else
			rc = print_queued(ctx, mon, flags, count, &seen);
	}
	cmmmp_monitor_free(mon);
	return rc;
}
