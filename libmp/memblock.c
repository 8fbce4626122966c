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
#include "util/sysfs.h"

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
	int rc;

	if (!len)
		return -EINVAL;
	rc = mp_memblock_path(nr, path, sizeof(path));
	if (rc)
		return rc;
	return util_read_line(path, buf, len);
}

/*
 * Write @val to memoryN/state in one write(): the kernel's answer to the
 * online or offline attempt is the write's result.
 */
static int mp_memblock_set_state(uint32_t nr, const char *val)
{
	size_t wlen = strlen(val);
	char path[4096];
	ssize_t n;
	int fd, rc = 0;

	rc = mp_memblock_path(nr, path, sizeof(path));
	if (rc)
		return rc;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, wlen);
	if (n < 0)
		rc = -errno;
	else if ((size_t)n != wlen)
		rc = -EIO;
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

/**
 * mp_memblock_get_zone() - the zone of an online memory block
 * @nr: block number
 *
 * An online block's valid_zones names the one zone it is in ("Movable",
 * "Normal", "DMA32"...).
 *
 * Return: MP_ZONE_MOVABLE, MP_ZONE_KERNEL (any other zone), or
 * MP_ZONE_UNKNOWN when valid_zones cannot be read.
 */
enum mp_zone mp_memblock_get_zone(uint32_t nr)
{
	char path[4096], buf[128];
	ssize_t n;
	int fd;

	if (snprintf(path, sizeof(path), "%s/" MP_MEMBLOCK_DIR "/memory%u/valid_zones",
		     mp_sysfs_root(), nr) >= (int)sizeof(path))
		return MP_ZONE_UNKNOWN;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return MP_ZONE_UNKNOWN;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return MP_ZONE_UNKNOWN;
	buf[n] = '\0';
	buf[strcspn(buf, "\t\n ")] = '\0';
	if (!strcmp(buf, "Movable"))
		return MP_ZONE_MOVABLE;
	return buf[0] ? MP_ZONE_KERNEL : MP_ZONE_UNKNOWN;
}

/* "online" is all the kernel shows; a test's fake tree may say more. */
static bool mp_state_online(const char *state)
{
	return !strncmp(state, "online", 6);
}

/**
 * mp_memblock_online() - online one memory block in the zone asked for
 * @nr: block number
 * @movable: ZONE_MOVABLE rather than the kernel zone
 * @keep: a block already online stays in whatever zone it is in
 * @r: what was found and done, added to
 *
 * A block the kernel onlined already (its auto-online policy:
 * /sys/devices/system/memory/auto_online_blocks) is counted in
 * @r->auto_onlined with the zone it got; unless @keep, one in the other
 * zone is offlined and onlined again in the zone asked for
 * (@r->reonlined).
 *
 * Return: 0, or the negative errno of the read or the write.
 */
int mp_memblock_online(uint32_t nr, bool movable, bool keep,
		       struct mp_online_report *r)
{
	const char *want = movable ? "online_movable" : "online_kernel";
	enum mp_zone zone;
	char state[64];
	int rc;

	rc = mp_memblock_get_state(nr, state, sizeof(state));
	if (rc)
		return rc;
	if (!mp_state_online(state))
		return mp_memblock_set_state(nr, want);

	zone = mp_memblock_get_zone(nr);
	r->auto_onlined++;
	if (r->auto_zone == MP_ZONE_UNKNOWN)
		r->auto_zone = zone;
	else if (r->auto_zone != zone)
		r->auto_zone = MP_ZONE_MIXED;
	if (keep || zone == MP_ZONE_UNKNOWN)
		return 0;
	if (movable ? zone == MP_ZONE_MOVABLE : zone != MP_ZONE_MOVABLE)
		return 0;
	/* fresh and still empty, or its pages migrate within the node */
	rc = mp_memblock_set_state(nr, "offline");
	if (rc)
		return rc;
	rc = mp_memblock_set_state(nr, want);
	if (rc)
		return rc;
	r->reonlined++;
	return 0;
}

/**
 * mp_memblock_online_range() - online blocks [@first, @first + @count)
 * @first: first block number
 * @count: number of blocks
 * @movable: online to ZONE_MOVABLE rather than the kernel zone
 * @keep: blocks online already keep their zone
 * @r: what was found and done (zeroed here first)
 * @failed: set to the block that failed, when one did
 *
 * Stops at the first failure; blocks onlined before it stay online (the
 * caller rolls the whole segment back).
 *
 * Return: 0 or the failing block's negative errno.
 */
int mp_memblock_online_range(uint32_t first, uint32_t count, bool movable,
			     bool keep, struct mp_online_report *r,
			     uint32_t *failed)
{
	uint32_t i;
	int rc;

	memset(r, 0, sizeof(*r));
	if (count && first + count - 1 < first) {
		if (failed)
			*failed = first;
		return -EOVERFLOW;
	}
	for (i = 0; i < count; i++) {
		rc = mp_memblock_online(first + i, movable, keep, r);
		if (rc) {
			if (failed)
				*failed = first + i;
			return rc;
		}
	}
	return 0;
}

/**
 * mp_memblock_offline() - offline one memory block through sysfs
 * @nr: block number
 *
 * Return: 0, or the kernel's answer (-EBUSY: pages that cannot migrate).
 */
int mp_memblock_offline(uint32_t nr)
{
	return mp_memblock_set_state(nr, "offline");
}

/**
 * mp_memblock_is_online() - is block @nr online?
 * @nr: block number
 *
 * Return: true when its state reads "online".
 */
bool mp_memblock_is_online(uint32_t nr)
{
	char state[64];

	return !mp_memblock_get_state(nr, state, sizeof(state)) &&
	       mp_state_online(state);
}

/**
 * mp_auto_online_policy() - the kernel's policy for hot-added memory
 * @buf: receives "offline", "online", "online_kernel" or "online_movable"
 * @len: size of @buf
 *
 * Reads /sys/devices/system/memory/auto_online_blocks (set at boot by
 * memhp_default_state=, or CONFIG_MEMORY_HOTPLUG_DEFAULT_ONLINE).
 *
 * Return: 0 or a negative errno (-ENOENT: no memory hotplug).
 */
int mp_auto_online_policy(char *buf, size_t len)
{
	char path[4096];

	if (!len)
		return -EINVAL;
	if (snprintf(path, sizeof(path), "%s/" MP_MEMBLOCK_DIR "/auto_online_blocks",
		     mp_sysfs_root()) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return util_read_line(path, buf, len);
}
