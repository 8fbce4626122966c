// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: ownership requests (mp_backend_ops.own), carried by the
 * requester as a transfer of their own opcode, OWN_REQ (uapi mp_eth.h).
 */
#include <linux/uio.h>
#include <linux/cmm_mp.h>
#include <linux/cmm_mp_backend.h>

#include "mp_eth.h"

/* A device id from the wire (MP_ETH_DEV_ANY, MP_ETH_DEV_GONE) as the core's */
static u32 mpe_own_core_id(u16 id)
{
	return id == MP_ETH_DEV_ANY ? CMM_MP_NONE :
	       id == MP_ETH_DEV_GONE ? CMM_MP_GONE : id;
}

/*
 * Ownership (mp_backend_ops.own): an OWN_REQ to @dst (uapi mp_eth.h), a
 * claim's partner in its offset; it asks for the verdict with the
 * segment's partner.
 */
int mpe_own(void *priv, u16 dst, u32 cmd, u32 seg, struct mp_own_info *oi)
{
	struct mp_own_req req = { .cmd = cmd, .seg = seg,
				  .pdev = MP_ETH_DEV_ANY };
	u8 buf[MP_ETH_OWN_PAIR_LEN];
	struct kvec kv = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct mp_own_resp resp;
	struct iov_iter it;
	u64 offset;
	int ret;

	if (oi->pdev != CMM_MP_NONE) {
		req.pdev = oi->pdev > MP_ETH_OWN_PDEV_MAX ? MP_ETH_DEV_GONE :
			   oi->pdev;
		req.pseg = oi->pseg;
	}
	oi->owner = CMM_MP_NONE;
	oi->sharers = 0;
	oi->pdev = CMM_MP_NONE;
	oi->pseg = 0;
	/* a partner beyond what the offset can carry is refused here */
	ret = mp_own_req_encode(&req, &offset);
	if (ret)
		return ret;
	iov_iter_kvec(&it, ITER_DEST, &kv, 1, sizeof(buf));
	ret = mpe_xfer(priv, MP_ETH_OP_OWN_REQ, dst, offset, &it);
	if (ret)
		return ret;
	if (mp_own_resp_decode(buf, sizeof(buf), &resp))
		return -EPROTO;
	oi->owner = mpe_own_core_id(resp.owner);
	oi->sharers = resp.sharers;
	oi->pdev = mpe_own_core_id(resp.pdev);
	oi->pseg = resp.pseg;
	return mp_own_verdict(resp.status);
}
