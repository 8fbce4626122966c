/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Reading one value from sysfs (or the tests' fake tree under
 * $MP_SYSFS_ROOT), for libmp and mpctl alike.
 */
#ifndef _CMM_MP_UTIL_SYSFS_H
#define _CMM_MP_UTIL_SYSFS_H

#include <stddef.h>

int util_read_line(const char *path, char *buf, size_t len);

#endif /* _CMM_MP_UTIL_SYSFS_H */
