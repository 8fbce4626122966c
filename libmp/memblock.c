// SPDX-License-Identifier: LGPL-2.1
/*
 * libmp memory blocks: online the blocks of a freshly hot-added segment
 * through /sys/devices/system/memory/memoryN/state, as daxctl does for
 * dax_kmem. The kernel adds the blocks offline so that userspace picks the
 * zone: "online_movable" keeps the memory removable (pages can migrate
 * out on offline), "online_kernel" lets the kernel put unmovable
 * allocations there, at the price of offline being refused later.
 *
 * The sysfs root can be moved with MP_SYSFS_ROOT so that unit tests run
 * this against a fake tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libmp-private.h"

#define MP_MEMBLOCK_DIR	"devices/system/memory"

/**
 * mp_sysfs_root() - where sysfs is mounted
 *
 * Return: $MP_SYSFS_ROOT when set and not empty, else "/sys".
 */
const char *mp_sysfs_root(void)
{
	const char *root = getenv("MP_SYSFS_ROOT");

	return root && root[0] ? root : "/sys";
}

static int mp_memblock_path(uint32_t nr, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/" MP_MEMBLOCK_DIR "/memory%u/state",
			 mp_sysfs_root(), nr);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/**
 * mp_memblock_get_state() - read memoryN/state
 * @nr: block number
 * @buf: receives the state ("online", "offline", "going-offline"),
 *	 without the trailing newline
 * @len: size of @buf
 *
 * Return: 0 or a negative errno (-ENOENT: no such block).
 */
int mp_memblock_get_state(uint32_t nr, char *buf, size_t len)
{
	char path[4096];
	ssize_t n;
	int fd, rc;

	if (!len)
		return -EINVAL;
	rc = mp_memblock_path(nr, path, sizeof(path));
	if (rc)
		return rc;
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

/**
 * mp_memblock_online() - online one memory block, unless it already is
 * @nr: block number
 * @movable: online to ZONE_MOVABLE rather than the kernel zone
 *
 * A block the kernel already onlined (auto-online policy, a previous
 * attempt) is left as it is: onlining it again would fail with -EINVAL.
 *
 * Return: 0, or the negative errno of the read or the write.
 */
int mp_memblock_online(uint32_t nr, bool movable)
{
	const char *want = movable ? "online_movable" : "online_kernel";
	size_t wlen = strlen(want);
	char state[64], path[4096];
	ssize_t n;
	int fd, rc;

	rc = mp_memblock_get_state(nr, state, sizeof(state));
	if (rc)
		return rc;
	if (!strcmp(state, "online"))
		return 0;

	rc = mp_memblock_path(nr, path, sizeof(path));
	if (rc)
		return rc;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/*
	 * sysfs takes the whole value in one write(); the kernel's answer to
	 * the online attempt is the write's result.
	 */
	n = write(fd, want, wlen);
	if (n < 0)
		rc = -errno;
	else if ((size_t)n != wlen)
		rc = -EIO;
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

/**
 * mp_memblock_online_range() - online blocks [@first, @first + @count)
 * @first: first block number
 * @count: number of blocks
 * @movable: online to ZONE_MOVABLE rather than the kernel zone
 * @failed: set to the block that failed, when one did
 *
 * Stops at the first failure; blocks onlined before it stay online (the
 * caller rolls the whole segment back).
 *
 * Return: 0 or the failing block's negative errno.
 */
int mp_memblock_online_range(uint32_t first, uint32_t count, bool movable,
			     uint32_t *failed)
{
	uint32_t i;
	int rc;

	if (count && first + count - 1 < first) {
		if (failed)
			*failed = first;
		return -EOVERFLOW;
	}
	for (i = 0; i < count; i++) {
		rc = mp_memblock_online(first + i, movable);
		if (rc) {
			if (failed)
				*failed = first + i;
			return rc;
		}
	}
	return 0;
}
