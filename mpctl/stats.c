// SPDX-License-Identifier: GPL-2.0
/*
 * mpctl stats: the backend's per-peer counters as a JSON array, one
 * object per peer device.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "mpctl.h"

static struct json_object *peer_json(struct mp_peer *peer)
{
	const uint8_t *m = cmmmp_peer_get_mac(peer);
	struct json_object *o = json_object_new_object();
	char mac[18];
	unsigned int i;

	if (!o)
		return NULL;
	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x",
		 m[0], m[1], m[2], m[3], m[4], m[5]);
	if (json_object_object_add(o, "peer",
				   json_object_new_int64(cmmmp_peer_get_id(peer))) ||
	    json_object_object_add(o, "mac", json_object_new_string(mac)) ||
	    json_object_object_add(o, "reachable",
				   json_object_new_boolean(cmmmp_peer_is_reachable(peer))) ||
	    json_object_object_add(o, "inflight",
				   json_object_new_int64(cmmmp_peer_get_inflight(peer))))
		goto fail;
	for (i = 0; i < MP_PEER_NR_COUNTERS; i++) {
		uint64_t v = cmmmp_peer_get_counter(peer, i);

		if (json_object_object_add(o, cmmmp_peer_counter_name(i),
					   json_object_new_uint64(v)))
			goto fail;
	}
	return o;
fail:
	json_object_put(o);
	return NULL;
}

struct stats_args {
	bool only;	/* -p given */
	uint32_t id;	/* -p */
};

/* -p: a peer's device id */
static int opt_peer(const struct util_option *opt, const char *arg)
{
	struct stats_args *a = opt->value;

	if (mpctl_parse_u32(arg, &a->id))
		return mpctl_usage_error("stats", "invalid peer id '%s'", arg);
	a->only = true;
	return 0;
}

static const struct util_cmd stats_cmd = {
	.prog = "mpctl",
	.cmd = "stats",
	.about =
"Print the transport's counters for every peer device as JSON: frames\n"
"sent and received, retransmissions, duplicates, out-of-window requests,\n"
"stale responses, timeouts, NAKs and more (Documentation/protocol.rst).\n"
"An empty array when no backend (mp_eth) is loaded.\n",
};

int cmd_stats(struct mp_ctx *ctx, int argc, char **argv)
{
	struct stats_args a = { };
	const struct util_option opts[] = {
		OPT_CALLBACK('p', "peer", &a, "ID",
			     "only the peer with device id ID", opt_peer),
		OPT_END(),
	};
	struct json_object *arr = NULL, *o;
	struct mp_peer *peer;
	int n, rc;

	n = util_parse_options(&stats_cmd, opts, argc, argv, &rc);
	if (n < 0)
		return rc;
	if (n)
		return mpctl_usage_error("stats", "unexpected argument '%s'",
					 argv[0]);

	rc = cmmmp_stats_refresh(ctx);
	if (rc == -EPERM || rc == -EACCES)
		return mpctl_fail_ctx("stats", "reading the counters", ctx, rc,
				      "needs root");
	if (rc)
		return mpctl_fail_ctx("stats", "reading the counters", ctx, rc,
				      "cannot read the backend's counters");
	arr = json_object_new_array();
	if (!arr)
		return mpctl_fail("stats", NULL, "%s", strerror(ENOMEM));
	for (peer = cmmmp_peer_get_first(ctx); peer; peer = cmmmp_peer_get_next(peer)) {
		if (a.only && cmmmp_peer_get_id(peer) != a.id)
			continue;
		o = peer_json(peer);
		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			json_object_put(arr);
			return mpctl_fail("stats", NULL, "%s", strerror(ENOMEM));
		}
	}
	if (a.only && !json_object_array_length(arr)) {
		json_object_put(arr);
		return mpctl_fail_code(MPCTL_EXIT_NOENT, "stats", "peer",
				       "no such peer %u: %s", a.id, strerror(ENOENT));
	}
	if (mpctl_print_json(arr, true))
		return mpctl_fail("stats", NULL, "%s", strerror(ENOMEM));
	return MPCTL_EXIT_OK;
}
