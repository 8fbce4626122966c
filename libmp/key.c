// SPDX-License-Identifier: LGPL-2.1
/*
 * libmp pool key: hand the pool's backend the key that authenticates its
 * traffic (Documentation/security.rst) over the cmm_mp family
 * (CMM_MP_CMD_KEY_SET). The key is copied only into the request, which
 * is wiped once sent; no interface gives a key back.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <netlink/attr.h>
#include <linux/cmm_mp.h>

#include "libmp-private.h"

_Static_assert(MP_KEY_LEN == CMM_MP_KEY_LEN, "MP_KEY_LEN is not the kernel's");
_Static_assert((int)MP_KEY_SET == (int)CMM_MP_KEY_SET &&
	       (int)MP_KEY_ACCEPT == (int)CMM_MP_KEY_ACCEPT &&
	       (int)MP_KEY_CLEAR == (int)CMM_MP_KEY_CLEAR,
	       "enum mp_key_op is not the kernel's");

struct mp_key_req {
	enum mp_key_op op;
	uint32_t id;
	const uint8_t *key;
};

static int mp_key_fill(struct nl_msg *msg, const void *arg)
{
	const struct mp_key_req *r = arg;

	if (nla_put_u32(msg, CMM_MP_A_KEY_OP, r->op) < 0)
		return -ENOMEM;
	if (r->op == MP_KEY_CLEAR)
		return 0;
	if (nla_put_u32(msg, CMM_MP_A_KEY_ID, r->id) < 0 ||
	    nla_put(msg, CMM_MP_A_KEY, MP_KEY_LEN, r->key) < 0)
		return -ENOMEM;
	return 0;
}

MP_EXPORT int cmmmp_pool_set_key(struct mp_ctx *ctx, enum mp_key_op op,
				 uint32_t id, const uint8_t *key)
{
	const struct mp_key_req r = { .op = op, .id = id, .key = key };

	if (!ctx)
		return -EINVAL;
	mp_clear_error(ctx);
	if (op != MP_KEY_SET && op != MP_KEY_ACCEPT && op != MP_KEY_CLEAR) {
		mp_set_error(ctx, -EINVAL, "unknown key operation %d", (int)op);
		return -EINVAL;
	}
	if (op == MP_KEY_CLEAR ? !!key : !key) {
		mp_set_error(ctx, -EINVAL, op == MP_KEY_CLEAR ?
			     "clearing takes no key" : "no key given");
		return -EINVAL;
	}
	return mp_nl_request_fill(ctx, CMM_MP_CMD_KEY_SET, false, mp_key_fill,
				  &r, NULL, NULL);
}
