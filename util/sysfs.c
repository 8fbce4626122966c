// SPDX-License-Identifier: LGPL-2.1
/*
 * Reading one value from sysfs (util/sysfs.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "util/sysfs.h"

/**
 * util_read_line() - the first line of a file, without its newline
 * @path: the file, typically a sysfs attribute
 * @buf: receives the line, cut to @len - 1 bytes; "" on any error
 * @len: size of @buf
 *
 * One read(2): a sysfs attribute is produced whole by its show()
 * callback, so a second read could only see a newer value.
 *
 * Return: 0 or a negative errno (-ENOENT: no such attribute, -EINVAL:
 * no room in @buf).
 */
int util_read_line(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, rc;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (rc)
		return rc;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
