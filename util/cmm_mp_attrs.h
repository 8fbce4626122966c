/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The cmm_mp generic netlink attributes as userspace sees them, written
 * once (cmm_mp_attrs.c): libmp builds its libnl policy from this table,
 * the unit tests' fake kernel (selftests/unit/fake_cmm_mp.c) its strict
 * validation. The numbers are the uapi header's. The state and mode names
 * are the kernel's own (kernel/common/mp_names.h).
 */
#ifndef _CMM_MP_ATTRS_H
#define _CMM_MP_ATTRS_H

#include <linux/cmm_mp.h>

enum cmm_mp_attr_kind {
	CMM_MP_T_NONE,		/* not an attribute (UNSPEC, PAD) */
	CMM_MP_T_U32,
	CMM_MP_T_U64,
	CMM_MP_T_STRING,	/* NUL-terminated, at most @len bytes with it */
	CMM_MP_T_BINARY,	/* exactly @len bytes */
};

/**
 * struct cmm_mp_attr_desc - what one attribute carries
 * @kind: its type
 * @len: its size: exact for numbers and binary, the most for a string
 */
struct cmm_mp_attr_desc {
	enum cmm_mp_attr_kind kind;
	unsigned int len;
};

extern const struct cmm_mp_attr_desc cmm_mp_attr_descs[CMM_MP_A_MAX + 1];

#endif /* _CMM_MP_ATTRS_H */
