// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kernel/common/mp_names.c: the names of segment states,
 * segment modes, pool states and member states that the kernel shows in
 * sysfs and uevents and libmp/mpctl print. They are an interface (udev
 * rules, scripts and mpctl's JSON match them), so each is checked by its
 * exact text, and every number of each uapi enum must have its own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <linux/cmm_mp.h>

#include "mp_names.h"
#include "util/util.h"

struct name_case {
	u32 value;
	const char *name;
};

/*
 * Every number below @max has the expected name, no two share one, and
 * @max and far beyond (a newer kernel's number, a corrupt message) read
 * "unknown", never NULL.
 */
static void check_names(const char *(*fn)(u32), u32 max,
			const struct name_case *c, size_t n)
{
	u32 i, j;

	assert_int_equal(n, max);
	for (i = 0; i < n; i++) {
		assert_int_equal(c[i].value, i);
		assert_string_equal(fn(c[i].value), c[i].name);
		for (j = 0; j < i; j++)
			assert_string_not_equal(fn(i), fn(j));
	}
	assert_string_equal(fn(max), "unknown");
	assert_string_equal(fn(max + 1), "unknown");
	assert_string_equal(fn(0xffffffffu), "unknown");
}

static void test_seg_states(void **state)
{
	static const struct name_case c[] = {
		{ CMM_MP_SEG_OFFLINE, "offline" },
		{ CMM_MP_SEG_ONLINE_RAM, "online-ram" },
		{ CMM_MP_SEG_BUSY, "busy" },
		{ CMM_MP_SEG_FAILED, "failed" },
		{ CMM_MP_SEG_OWNED, "owned" },
		{ CMM_MP_SEG_SHARED, "shared" },
	};

	check_names(cmm_mp_seg_state_name, __CMM_MP_SEG_STATE_MAX, c,
		    ARRAY_SIZE(c));
}

static void test_seg_modes(void **state)
{
	static const struct name_case c[] = {
		{ CMM_MP_SEG_MODE_RAM, "system-ram" },
		{ CMM_MP_SEG_MODE_DAX, "dax" },
		{ CMM_MP_SEG_MODE_BLK, "blk" },
	};

	check_names(cmm_mp_seg_mode_name, __CMM_MP_SEG_MODE_MAX, c,
		    ARRAY_SIZE(c));
}

static void test_pool_states(void **state)
{
	static const struct name_case c[] = {
		{ CMM_MP_POOL_LOCAL, "local" },
		{ CMM_MP_POOL_DISCOVERY, "discovery" },
		{ CMM_MP_POOL_RUNTIME, "runtime" },
		{ CMM_MP_POOL_CONFLICT, "conflict" },
	};

	check_names(cmm_mp_pool_state_name, __CMM_MP_POOL_STATE_MAX, c,
		    ARRAY_SIZE(c));
}

static void test_dev_states(void **state)
{
	static const struct name_case c[] = {
		{ CMM_MP_DEV_UP, "up" },
		{ CMM_MP_DEV_LOST, "lost" },
	};

	check_names(cmm_mp_dev_state_name, __CMM_MP_DEV_STATE_MAX, c,
		    ARRAY_SIZE(c));
}

/* 0 is "not mirrored": a mirrored segment has one of the others */
static void test_seg_redundancy(void **state)
{
	assert_string_equal(cmm_mp_seg_redundancy_name(0), "unknown");
	assert_string_equal(cmm_mp_seg_redundancy_name(CMM_MP_SEG_MIRRORED),
			    "mirrored");
	assert_string_equal(cmm_mp_seg_redundancy_name(CMM_MP_SEG_DEGRADED),
			    "degraded");
	assert_string_equal(cmm_mp_seg_redundancy_name(CMM_MP_SEG_REBUILDING),
			    "rebuilding");
	assert_string_equal(cmm_mp_seg_redundancy_name(__CMM_MP_SEG_REDUNDANCY_MAX),
			    "unknown");
	assert_string_equal(cmm_mp_seg_redundancy_name(0xffffffffu), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seg_states),
		cmocka_unit_test(test_seg_modes),
		cmocka_unit_test(test_pool_states),
		cmocka_unit_test(test_dev_states),
		cmocka_unit_test(test_seg_redundancy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
