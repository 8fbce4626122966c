// SPDX-License-Identifier: LGPL-2.1
/*
 * libmp backend peers: snapshots of CMM_MP_CMD_STATS_GET, one struct
 * mp_peer per message, the peer iterator and the counter getters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include <linux/cmm_mp.h>

#include "libmp-private.h"

static const struct {
	const char *name;
	int attr;
} mp_peer_ctr[MP_PEER_NR_COUNTERS] = {
	[MP_PEER_TX]		= { "tx", CMM_MP_A_STATS_TX },
	[MP_PEER_RX]		= { "rx", CMM_MP_A_STATS_RX },
	[MP_PEER_RETRANSMITS]	= { "retransmits", CMM_MP_A_STATS_RETRANSMITS },
	[MP_PEER_DUPLICATES]	= { "duplicates", CMM_MP_A_STATS_DUPLICATES },
	[MP_PEER_OUT_OF_WINDOW]	= { "out_of_window", CMM_MP_A_STATS_OUT_OF_WINDOW },
	[MP_PEER_STALE]		= { "stale_responses", CMM_MP_A_STATS_STALE },
	[MP_PEER_TIMEOUTS]	= { "timeouts", CMM_MP_A_STATS_TIMEOUTS },
	[MP_PEER_NAKS]		= { "naks", CMM_MP_A_STATS_NAKS },
	[MP_PEER_RESYNCS]	= { "resyncs", CMM_MP_A_STATS_RESYNCS },
	[MP_PEER_SKIPPED]	= { "skipped", CMM_MP_A_STATS_SKIPPED },
	[MP_PEER_FAST_FAILS]	= { "fast_fails", CMM_MP_A_STATS_FAST_FAILS },
	[MP_PEER_MALFORMED]	= { "malformed", CMM_MP_A_STATS_MALFORMED },
};

uint32_t mp_peer_id_of(const void *obj)
{
	return ((const struct mp_peer *)obj)->id;
}

/* mp_nl_parse_fn for STATS_GET answers: PEER_ID is the only must-have. */
static int mp_peer_add(struct mp_ctx *ctx, struct nlattr **tb, void *arg)
{
	struct mp_peer *peer;
	uint32_t reachable = 1;
	unsigned int i;
	ssize_t pos;
	int rc;

	if (!tb) {
		/* the dump starts again: it lists every peer anew */
		mp_objvec_free(&ctx->peers, free);
		return 0;
	}
	peer = calloc(1, sizeof(*peer));
	if (!peer)
		return -ENOMEM;
	peer->ctx = ctx;
	rc = mp_nla_u32(tb, CMM_MP_A_PEER_ID, &peer->id) ? -EPROTO : 0;
	if (!rc && tb[CMM_MP_A_PEER_MAC]) {
		if (nla_len(tb[CMM_MP_A_PEER_MAC]) == sizeof(peer->mac))
			memcpy(peer->mac, nla_data(tb[CMM_MP_A_PEER_MAC]),
			       sizeof(peer->mac));
		else
			rc = -EPROTO;
	}
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_PEER_REACHABLE,
					   &reachable));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_PEER_INFLIGHT,
					   &peer->inflight));
	for (i = 0; !rc && i < MP_PEER_NR_COUNTERS; i++)
		rc = mp_nla_opt(mp_nla_u64(tb, mp_peer_ctr[i].attr,
					   &peer->ctr[i]));
	peer->reachable = reachable != 0;
	pos = rc ? 0 : mp_objvec_find(&ctx->peers, peer->id, mp_peer_id_of);
	if (!rc && pos >= 0)
		rc = -EPROTO;	/* the same peer twice */
	if (!rc)
		rc = mp_objvec_insert(&ctx->peers, -pos - 1, peer);
	if (rc) {
		free(peer);
		return rc == -ENOMEM ? rc :
		       mp_set_error(ctx, rc, "malformed peer message");
	}
	return 0;
}

MP_EXPORT int cmmmp_stats_refresh(struct mp_ctx *ctx)
{
	int rc;

	if (!ctx)
		return -EINVAL;
	mp_clear_error(ctx);
	mp_objvec_free(&ctx->peers, free);
	ctx->peers_loaded = false;
	rc = mp_nl_request(ctx, CMM_MP_CMD_STATS_GET, true, NULL, NULL,
			   mp_peer_add, NULL);
	if (rc) {
		mp_objvec_free(&ctx->peers, free);
		return rc;
	}
	ctx->peers_loaded = true;
	return 0;
}

MP_EXPORT struct mp_peer *cmmmp_peer_get_first(struct mp_ctx *ctx)
{
	if (!ctx)
		return NULL;
	if (!ctx->peers_loaded && cmmmp_stats_refresh(ctx))
		return NULL;
	return ctx->peers.nr ? ctx->peers.v[0] : NULL;
}

MP_EXPORT struct mp_peer *cmmmp_peer_get_next(struct mp_peer *peer)
{
	struct mp_ctx *ctx;
	ssize_t pos;

	if (!peer)
		return NULL;
	ctx = peer->ctx;
	pos = mp_objvec_find(&ctx->peers, peer->id, mp_peer_id_of);
	if (pos < 0 || (size_t)pos + 1 >= ctx->peers.nr)
		return NULL;
	return ctx->peers.v[pos + 1];
}

MP_EXPORT struct mp_ctx *cmmmp_peer_get_ctx(struct mp_peer *peer)
{
	return peer ? peer->ctx : NULL;
}

MP_EXPORT uint32_t cmmmp_peer_get_id(struct mp_peer *peer)
{
	return peer ? peer->id : 0;
}

MP_EXPORT const uint8_t *cmmmp_peer_get_mac(struct mp_peer *peer)
{
	return peer ? peer->mac : NULL;
}

MP_EXPORT bool cmmmp_peer_is_reachable(struct mp_peer *peer)
{
	return peer && peer->reachable;
}

MP_EXPORT uint32_t cmmmp_peer_get_inflight(struct mp_peer *peer)
{
	return peer ? peer->inflight : 0;
}

MP_EXPORT uint64_t cmmmp_peer_get_counter(struct mp_peer *peer,
					  enum mp_peer_counter c)
{
	if (!peer || (unsigned int)c >= MP_PEER_NR_COUNTERS)
		return 0;
	return peer->ctr[c];
}

MP_EXPORT const char *cmmmp_peer_counter_name(enum mp_peer_counter c)
{
	if ((unsigned int)c >= MP_PEER_NR_COUNTERS)
		return NULL;
	return mp_peer_ctr[c].name;
}
