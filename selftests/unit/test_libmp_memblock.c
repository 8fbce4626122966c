// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for libmp's memory block onlining (libmp/memblock.c), run
 * against a fake /sys/devices/system/memory tree in a temporary directory
 * (MP_SYSFS_ROOT). A regular file stands in for each memoryN/state; a link
 * to /dev/full stands in for a block whose online write fails.
 */
#define _XOPEN_SOURCE 700
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "libmp-private.h"

struct fake_sysfs {
	char root[256];		/* short, so paths below it always fit */
};

static void block_path(struct fake_sysfs *fs, uint32_t nr, const char *leaf,
		       char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/devices/system/memory/memory%u%s%s",
			 fs->root, nr, leaf ? "/" : "", leaf ? leaf : "");

	assert_true(n > 0 && (size_t)n < len);
}

static void mkdir_p(const char *path)
{
	char tmp[PATH_MAX], *p;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		assert_true(mkdir(tmp, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	assert_true(mkdir(tmp, 0755) == 0 || errno == EEXIST);
}

/* Create memoryN/state holding @state (with the kernel's newline). */
static void add_block(struct fake_sysfs *fs, uint32_t nr, const char *state)
{
	char path[PATH_MAX];
	FILE *f;

	block_path(fs, nr, NULL, path, sizeof(path));
	mkdir_p(path);
	block_path(fs, nr, "state", path, sizeof(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", state);
	assert_int_equal(fclose(f), 0);
}

/* A block whose state reads as NULs and whose writes fail (ENOSPC). */
static void add_failing_block(struct fake_sysfs *fs, uint32_t nr)
{
	char path[PATH_MAX];

	block_path(fs, nr, NULL, path, sizeof(path));
	mkdir_p(path);
	block_path(fs, nr, "state", path, sizeof(path));
	assert_int_equal(symlink("/dev/full", path), 0);
}

static void read_block(struct fake_sysfs *fs, uint32_t nr, char *buf,
		       size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	block_path(fs, nr, "state", path, sizeof(path));
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static int setup(void **state)
{
	struct fake_sysfs *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return -1;
	snprintf(fs->root, sizeof(fs->root), "%s/libmp-sysfs-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(fs->root) || setenv("MP_SYSFS_ROOT", fs->root, 1)) {
		free(fs);
		return -1;
	}
	*state = fs;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

static int teardown(void **state)
{
	struct fake_sysfs *fs = *state;
	int rc = nftw(fs->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);

	unsetenv("MP_SYSFS_ROOT");
	free(fs);
	return rc;
}

static void test_sysfs_root(void **state)
{
	struct fake_sysfs *fs = *state;

	assert_string_equal(mp_sysfs_root(), fs->root);
	setenv("MP_SYSFS_ROOT", "", 1);
	assert_string_equal(mp_sysfs_root(), "/sys");
	unsetenv("MP_SYSFS_ROOT");
	assert_string_equal(mp_sysfs_root(), "/sys");
	setenv("MP_SYSFS_ROOT", fs->root, 1);
}

static void test_get_state(void **state)
{
	struct fake_sysfs *fs = *state;
	char buf[32];

	add_block(fs, 7, "going-offline");
	assert_int_equal(mp_memblock_get_state(7, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "going-offline");
	/* A small buffer truncates but stays terminated. */
	assert_int_equal(mp_memblock_get_state(7, buf, 6), 0);
	assert_string_equal(buf, "going");
	assert_int_equal(mp_memblock_get_state(8, buf, sizeof(buf)), -ENOENT);
	assert_int_equal(mp_memblock_get_state(7, buf, 0), -EINVAL);
}

static void test_online_movable(void **state)
{
	struct mp_online_report r;
	struct fake_sysfs *fs = *state;
	uint32_t failed = 1234;
	char buf[32];
	uint32_t nr;

	for (nr = 14; nr < 17; nr++)
		add_block(fs, nr, "offline");
	assert_int_equal(mp_memblock_online_range(14, 3, true, false, &r, &failed), 0);
	assert_int_equal(failed, 1234);
	for (nr = 14; nr < 17; nr++) {
		read_block(fs, nr, buf, sizeof(buf));
		/* What we wrote overlays "offline\n" in the fake file. */
		assert_memory_equal(buf, "online_movable", 14);
	}
}

static void test_online_kernel(void **state)
{
	struct mp_online_report r;
	struct fake_sysfs *fs = *state;
	char buf[32];

	add_block(fs, 3, "offline");
	assert_int_equal(mp_memblock_online_range(3, 1, false, false, &r, NULL), 0);
	read_block(fs, 3, buf, sizeof(buf));
	assert_memory_equal(buf, "online_kernel", 13);
}

static void test_already_online_left_alone(void **state)
{
	struct mp_online_report r;
	struct fake_sysfs *fs = *state;
	char buf[32];

	add_block(fs, 20, "online");
	add_block(fs, 21, "offline");
	assert_int_equal(mp_memblock_online_range(20, 2, true, false, &r, NULL), 0);
	read_block(fs, 20, buf, sizeof(buf));
	assert_string_equal(buf, "online\n");
	/* no valid_zones: the zone is unknown, the block is left as it is */
	assert_int_equal(r.auto_onlined, 1);
	assert_int_equal(r.reonlined, 0);
	assert_int_equal(r.auto_zone, MP_ZONE_UNKNOWN);
	read_block(fs, 21, buf, sizeof(buf));
	assert_memory_equal(buf, "online_movable", 14);
}

static void test_missing_block(void **state)
{
	struct mp_online_report r;
	struct fake_sysfs *fs = *state;
	uint32_t failed = 0;
	char buf[32];

	add_block(fs, 30, "offline");
	/* memory31 does not exist. */
	assert_int_equal(mp_memblock_online_range(30, 2, true, false, &r, &failed),
			 -ENOENT);
	assert_int_equal(failed, 31);
	/* The blocks before it were onlined: rollback is the caller's job. */
	read_block(fs, 30, buf, sizeof(buf));
	assert_memory_equal(buf, "online_movable", 14);
}

static void test_write_fails(void **state)
{
	struct mp_online_report r;
	struct fake_sysfs *fs = *state;
	uint32_t failed = 0;

	add_block(fs, 40, "offline");
	add_failing_block(fs, 41);
	add_block(fs, 42, "offline");
	assert_int_equal(mp_memblock_online_range(40, 3, true, false, &r, &failed),
			 -ENOSPC);
	assert_int_equal(failed, 41);
	assert_int_equal(mp_memblock_online(41, false, false, &r), -ENOSPC);
}

static void test_range_edges(void **state)
{
	struct mp_online_report r;
	uint32_t failed = 0;
	int rc;

	/* Nothing to do is not an error. */
	assert_int_equal(mp_memblock_online_range(5, 0, true, false, &r, &failed), 0);
	rc = mp_memblock_online_range(0xffffffffU, 2, true, false, &r, &failed);
	assert_int_equal(rc, -EOVERFLOW);
	assert_int_equal(failed, 0xffffffffU);
}

/* memoryN/valid_zones holding @zones */
static void set_zones(struct fake_sysfs *fs, uint32_t nr, const char *zones)
{
	char path[PATH_MAX];
	FILE *f;

	block_path(fs, nr, "valid_zones", path, sizeof(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", zones);
	assert_int_equal(fclose(f), 0);
}

/* The kernel onlined the blocks to Normal (policy "online"): moved. */
static void test_auto_online_reonlined(void **state)
{
	struct fake_sysfs *fs = *state;
	struct mp_online_report r;
	char buf[32];

	add_block(fs, 50, "online");
	set_zones(fs, 50, "Normal");
	add_block(fs, 51, "online");
	set_zones(fs, 51, "Normal");
	assert_int_equal(mp_memblock_online_range(50, 2, true, false, &r, NULL),
			 0);
	assert_int_equal(r.auto_onlined, 2);
	assert_int_equal(r.reonlined, 2);
	assert_int_equal(r.auto_zone, MP_ZONE_KERNEL);
	read_block(fs, 50, buf, sizeof(buf));
	assert_memory_equal(buf, "online_movable", 14);
}

/* Already in the zone asked for, or @keep: left alone, but reported. */
static void test_auto_online_accepted(void **state)
{
	struct fake_sysfs *fs = *state;
	struct mp_online_report r;
	char buf[32];

	add_block(fs, 60, "online");
	set_zones(fs, 60, "Movable");
	assert_int_equal(mp_memblock_online_range(60, 1, true, false, &r, NULL),
			 0);
	assert_int_equal(r.auto_onlined, 1);
	assert_int_equal(r.reonlined, 0);
	assert_int_equal(r.auto_zone, MP_ZONE_MOVABLE);
	add_block(fs, 61, "online");
	set_zones(fs, 61, "Normal");
	assert_int_equal(mp_memblock_online_range(61, 1, true, true, &r, NULL),
			 0);
	assert_int_equal(r.auto_onlined, 1);
	assert_int_equal(r.reonlined, 0);
	assert_int_equal(r.auto_zone, MP_ZONE_KERNEL);
	read_block(fs, 61, buf, sizeof(buf));
	assert_string_equal(buf, "online\n");
	/* a mix of zones reads as mixed */
	set_zones(fs, 60, "Movable");
	assert_int_equal(mp_memblock_online_range(60, 2, true, true, &r, NULL),
			 0);
	assert_int_equal(r.auto_zone, MP_ZONE_MIXED);
}

static void test_auto_online_policy(void **state)
{
	struct fake_sysfs *fs = *state;
	char path[PATH_MAX], buf[32];
	FILE *f;

	assert_int_equal(mp_auto_online_policy(buf, sizeof(buf)), -ENOENT);
	snprintf(path, sizeof(path), "%s/devices/system/memory", fs->root);
	mkdir_p(path);
	snprintf(path, sizeof(path),
		 "%s/devices/system/memory/auto_online_blocks", fs->root);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "online_movable\n");
	assert_int_equal(fclose(f), 0);
	assert_int_equal(mp_auto_online_policy(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "online_movable");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sysfs_root, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_get_state, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_online_movable, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_online_kernel, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_already_online_left_alone,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_block, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_write_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_range_edges, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_auto_online_reonlined,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_auto_online_accepted,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_auto_online_policy,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
