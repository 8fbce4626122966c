/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Macros every userspace part of cmm-mp uses (libmp, mpctl, libmp-dvm,
 * the host unit tests and the guest test programs): defined once here, as
 * the kernel defines them once in its headers.
 */
#ifndef _CMM_MP_UTIL_H
#define _CMM_MP_UTIL_H

/* Entries of an array; an error for a pointer (a decayed array). */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]) + \
			 0 * sizeof(char[1 - 2 * __builtin_types_compatible_p( \
				__typeof__(a), __typeof__(&(a)[0]))]))

#define BIT(n)		(1U << (n))

#define __util_attr(x)	__attribute__((x))
#define __printf(a, b)	__util_attr(format(printf, a, b))

#endif /* _CMM_MP_UTIL_H */
