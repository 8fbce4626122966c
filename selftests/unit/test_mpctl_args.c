// SPDX-License-Identifier: GPL-2.0
/* Unit tests for mpctl's argument helpers (mpctl/args.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <cmocka.h>

#include "args.h"
#include "util/util.h"

/* Parse @s, expect success and exactly the ids given (in order). */
static void expect_ids(const char *s, const uint32_t *ids, size_t nr)
{
	struct mpctl_seglist l;
	const char *bad = NULL;
	size_t i;

	assert_int_equal(mpctl_seglist_parse(&l, s, &bad), 0);
	assert_false(l.all);
	assert_int_equal(l.nr, nr);
	for (i = 0; i < nr; i++) {
		assert_int_equal(l.ids[i], ids[i]);
		assert_true(mpctl_seglist_has(&l, ids[i]));
	}
	mpctl_seglist_free(&l);
}

/* Parse @s, expect @err with the error reported at offset @at. */
static void expect_err(const char *s, int err, size_t at)
{
	struct mpctl_seglist l;
	const char *bad = NULL;

	assert_int_equal(mpctl_seglist_parse(&l, s, &bad), err);
	if (s)
		assert_int_equal(bad - s, at);
	mpctl_seglist_free(&l);
}

static void test_seglist_ok(void **state)
{
	static const uint32_t one[] = { 0 };
	static const uint32_t two[] = { 0, 2 };
	static const uint32_t range[] = { 1, 2, 3 };
	static const uint32_t mixed[] = { 7, 0, 4, 5, 6, 9 };
	static const uint32_t big[] = { 4294967294U };

	expect_ids("0", one, 1);
	expect_ids("0,2", two, 2);
	expect_ids("1-3", range, 3);
	expect_ids("7,0,4-6,9", mixed, 6);
	expect_ids("4294967294", big, 1);
	expect_ids("00", one, 1);
}

static void test_seglist_all(void **state)
{
	struct mpctl_seglist l;

	assert_int_equal(mpctl_seglist_parse(&l, "all", NULL), 0);
	assert_true(l.all);
	assert_int_equal(l.nr, 0);
	assert_true(mpctl_seglist_has(&l, 12345));
	mpctl_seglist_free(&l);
}

static void test_seglist_has(void **state)
{
	struct mpctl_seglist l;

	assert_int_equal(mpctl_seglist_parse(&l, "9,3,5-6", NULL), 0);
	assert_true(mpctl_seglist_has(&l, 3));
	assert_true(mpctl_seglist_has(&l, 6));
	assert_false(mpctl_seglist_has(&l, 4));
	assert_false(mpctl_seglist_has(&l, 10));
	mpctl_seglist_free(&l);
}

static void test_seglist_bad(void **state)
{
	expect_err("", -EINVAL, 0);
	expect_err(",", -EINVAL, 0);
	expect_err("1,", -EINVAL, 2);
	expect_err(",1", -EINVAL, 0);
	expect_err("1,,2", -EINVAL, 2);
	expect_err("1-", -EINVAL, 2);
	expect_err("-1", -EINVAL, 0);
	expect_err("+1", -EINVAL, 0);
	expect_err(" 1", -EINVAL, 0);
	expect_err("1 ", -EINVAL, 1);
	expect_err("0x1", -EINVAL, 1);
	expect_err("1-x", -EINVAL, 2);
	expect_err("1-2-3", -EINVAL, 3);
	expect_err("all,1", -EINVAL, 0);
	expect_err("1,all", -EINVAL, 2);
	expect_err("ALL", -EINVAL, 0);
	expect_err("3-1", -EDOM, 0);
	expect_err("0,5-4", -EDOM, 2);
	expect_err("4294967295", -ERANGE, 0);
	expect_err("1,99999999999999999999", -ERANGE, 2);
	expect_err(NULL, -EINVAL, 0);
}

static void test_seglist_dup(void **state)
{
	expect_err("1,1", -EEXIST, 2);
	expect_err("0-3,2", -EEXIST, 4);
	expect_err("2,0-3", -EEXIST, 2);
	expect_err("0-3,3-5", -EEXIST, 4);
	expect_err("5,1-2,0-9", -EEXIST, 6);
}

static void test_seglist_limits(void **state)
{
	struct mpctl_seglist l;

	/* Exactly the maximum is fine, one more is not. */
	assert_int_equal(mpctl_seglist_parse(&l, "0-65535", NULL), 0);
	assert_int_equal(l.nr, MPCTL_SEGLIST_MAX);
	assert_int_equal(l.ids[65535], 65535);
	assert_true(mpctl_seglist_has(&l, 40000));
	mpctl_seglist_free(&l);
	expect_err("0-65536", -E2BIG, 0);
	expect_err("0-4294967294", -E2BIG, 0);
	expect_err("0-65534,70000,80000", -E2BIG, 14);
}

static void test_parse_u32(void **state)
{
	uint32_t v = 0;

	assert_int_equal(mpctl_parse_u32("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(mpctl_parse_u32("4294967295", &v), 0);
	assert_true(v == 4294967295U);
	assert_int_equal(mpctl_parse_u32("4294967296", &v), -ERANGE);
	assert_int_equal(mpctl_parse_u32("", &v), -EINVAL);
	assert_int_equal(mpctl_parse_u32("-1", &v), -EINVAL);
	assert_int_equal(mpctl_parse_u32("1k", &v), -EINVAL);
	assert_int_equal(mpctl_parse_u32("mp0", &v), -EINVAL);
	assert_int_equal(mpctl_parse_u32(NULL, &v), -EINVAL);
}

static void expect_size(uint64_t size, const char *want)
{
	char buf[MPCTL_FMT_MAX];

	assert_string_equal(mpctl_fmt_size(buf, sizeof(buf), size), want);
}

static void test_fmt_size(void **state)
{
	expect_size(0, "0");
	expect_size(512, "512");
	expect_size(1023, "1023");
	expect_size(1024, "1.00 KiB (1.02 kB)");
	expect_size(1500, "1.46 KiB (1.50 kB)");
	expect_size(128ULL << 20, "128.00 MiB (134.22 MB)");
	expect_size(256ULL << 20, "256.00 MiB (268.44 MB)");
	expect_size(1ULL << 30, "1.00 GiB (1.07 GB)");
	expect_size(1536ULL << 20, "1.50 GiB (1.61 GB)");
	expect_size(16ULL << 40, "16.00 TiB (17.59 TB)");
	expect_size(UINT64_MAX, "16.00 EiB (18.45 EB)");
}

static void test_parse_mode(void **state)
{
	static const char * const bad[] = {
		"", "RAM", "ram ", " dax", "da", "daxx", "block", "0", "1",
	};
	enum mpctl_mode m = MPCTL_MODE_BLK;
	size_t i;

	(void)state;
	assert_int_equal(mpctl_parse_mode("ram", &m), 0);
	assert_int_equal(m, MPCTL_MODE_RAM);
	assert_int_equal(mpctl_parse_mode("dax", &m), 0);
	assert_int_equal(m, MPCTL_MODE_DAX);
	assert_int_equal(mpctl_parse_mode("blk", &m), 0);
	assert_int_equal(m, MPCTL_MODE_BLK);
	assert_int_equal(mpctl_parse_mode("system-ram", &m), 0);
	assert_int_equal(m, MPCTL_MODE_RAM);
	/* errors leave the output alone */
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		m = MPCTL_MODE_DAX;
		assert_int_equal(mpctl_parse_mode(bad[i], &m), -EINVAL);
		assert_int_equal(m, MPCTL_MODE_DAX);
	}
	assert_int_equal(mpctl_parse_mode(NULL, &m), -EINVAL);
}

static void test_fmt_hex(void **state)
{
	char buf[MPCTL_FMT_MAX];

	assert_string_equal(mpctl_fmt_hex(buf, sizeof(buf), 0), "0x0");
	assert_string_equal(mpctl_fmt_hex(buf, sizeof(buf), 0x70000000ULL),
			    "0x70000000");
	assert_string_equal(mpctl_fmt_hex(buf, sizeof(buf), UINT64_MAX),
			    "0xffffffffffffffff");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seglist_ok),
		cmocka_unit_test(test_seglist_all),
		cmocka_unit_test(test_seglist_has),
		cmocka_unit_test(test_seglist_bad),
		cmocka_unit_test(test_seglist_dup),
		cmocka_unit_test(test_seglist_limits),
		cmocka_unit_test(test_parse_u32),
		cmocka_unit_test(test_fmt_size),
		cmocka_unit_test(test_fmt_hex),
		cmocka_unit_test(test_parse_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
