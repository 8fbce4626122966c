// SPDX-License-Identifier: LGPL-2.1
/*
 * The one table of cmm_mp's attributes in userspace
 * (cmm_mp_attrs.h). A new attribute of linux/cmm_mp.h goes here, and
 * selftests/unit/test_util_options checks that none is left out.
 */
#include "util/cmm_mp_attrs.h"

#define U32		{ CMM_MP_T_U32, 4 }
#define U64		{ CMM_MP_T_U64, 8 }
#define STRING(n)	{ CMM_MP_T_STRING, (n) }
#define BINARY(n)	{ CMM_MP_T_BINARY, (n) }

#define CMM_MP_NAME_LEN	16	/* the kernel's names, NUL included */
#define CMM_MP_MAC_LEN	6

const struct cmm_mp_attr_desc cmm_mp_attr_descs[CMM_MP_A_MAX + 1] = {
	[CMM_MP_A_DEV_ID]		= U32,
	[CMM_MP_A_DEV_NAME]		= STRING(CMM_MP_NAME_LEN),
	[CMM_MP_A_CHIP_ID]		= U64,
	[CMM_MP_A_DEV_PHYS]		= U64,
	[CMM_MP_A_DEV_SIZE]		= U64,
	[CMM_MP_A_SEG_SIZE]		= U64,
	[CMM_MP_A_NR_SEGS]		= U32,
	[CMM_MP_A_NODE]			= U32,
	[CMM_MP_A_BLOCK_SIZE]		= U64,
	[CMM_MP_A_SEG_ID]		= U32,
	[CMM_MP_A_SEG_NHA]		= U64,
	[CMM_MP_A_SEG_PHYS]		= U64,
	[CMM_MP_A_SEG_STATE]		= U32,
	[CMM_MP_A_SEG_MODE]		= U32,
	[CMM_MP_A_SEG_OWNER]		= U32,
	[CMM_MP_A_MEMBLK_FIRST]		= U32,
	[CMM_MP_A_MEMBLK_COUNT]		= U32,
	[CMM_MP_A_MEMBLK_ONLINE]	= U32,
	[CMM_MP_A_MEMBLK_MOVABLE]	= U32,
	[CMM_MP_A_BACKEND]		= STRING(CMM_MP_NAME_LEN),
	[CMM_MP_A_PEER_ID]		= U32,
	[CMM_MP_A_PEER_MAC]		= BINARY(CMM_MP_MAC_LEN),
	[CMM_MP_A_PEER_REACHABLE]	= U32,
	[CMM_MP_A_PEER_INFLIGHT]	= U32,
	[CMM_MP_A_STATS_TX ... CMM_MP_A_STATS_MALFORMED] = U64,
	[CMM_MP_A_DEV_MAC]		= BINARY(CMM_MP_MAC_LEN),
	[CMM_MP_A_DEV_STATE]		= U32,
	[CMM_MP_A_DEV_FIRST_SEG]	= U32,
	[CMM_MP_A_DEV_NHA]		= U64,
	[CMM_MP_A_DEV_LOCAL]		= U32,
	[CMM_MP_A_POOL_STATE]		= U32,
	[CMM_MP_A_POOL_GEN]		= U32,
	[CMM_MP_A_STATS_REFUSED]	= U64,
	[CMM_MP_A_SEG_SHARED]		= U32,
	[CMM_MP_A_SEG_SHARERS]		= U32,
	[CMM_MP_A_SEG_DEVNODE]		= STRING(32),
	[CMM_MP_A_DEV_ADISTANCE]	= U32,
	[CMM_MP_A_DRAM_ADISTANCE]	= U32,
	[CMM_MP_A_KEY_OP]		= U32,
	[CMM_MP_A_KEY_ID]		= U32,
	[CMM_MP_A_KEY]			= BINARY(CMM_MP_KEY_LEN),
	[CMM_MP_A_SEG_MEMMAP_ON_MEMORY]	= U32,
	[CMM_MP_A_SEG_MIRROR]		= U32,
	[CMM_MP_A_SEG_REDUNDANCY]	= U32,
	[CMM_MP_A_SEG_REBUILT]		= U64,
};

