// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the pool range grammar and segment geometry. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "mp_seg.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)

static void test_parse_size(void **state)
{
	const char *end;
	u64 v;

	assert_int_equal(mp_parse_size("256M", &v, &end), 0);
	assert_true(v == 256 * MiB);
	assert_int_equal(*end, '\0');
	assert_int_equal(mp_parse_size("0x40000000$", &v, &end), 0);
	assert_true(v == GiB);
	assert_int_equal(*end, '$');
	assert_int_equal(mp_parse_size("4k", &v, NULL), 0);
	assert_true(v == 4096);
	assert_int_equal(mp_parse_size("2T", &v, NULL), 0);
	assert_true(v == 2 * 1024 * GiB);
	assert_int_equal(mp_parse_size("", &v, NULL), -EINVAL);
	assert_int_equal(mp_parse_size("M", &v, NULL), -EINVAL);
	assert_int_equal(mp_parse_size("0x", &v, NULL), -EINVAL);
	assert_int_equal(mp_parse_size("18446744073709551616", &v, NULL), -ERANGE);
	assert_int_equal(mp_parse_size("0x10000000000000000", &v, NULL), -ERANGE);
	assert_int_equal(mp_parse_size("17179869184G", &v, NULL), -ERANGE);
	assert_int_equal(mp_parse_size(NULL, &v, NULL), -EINVAL);
}

static void test_parse_range(void **state)
{
	struct mp_range r;

	assert_int_equal(mp_parse_range("256M$0x70000000", &r), 0);
	assert_true(r.size == 256 * MiB && r.base == 0x70000000ULL);
	assert_int_equal(r.kind, MP_RANGE_RESERVED);
	assert_int_equal(mp_parse_range("1G!4G\n", &r), 0);
	assert_true(r.size == GiB && r.base == 4 * GiB);
	assert_int_equal(r.kind, MP_RANGE_PMEM);
	assert_int_equal(mp_parse_range("256M", &r), -EINVAL);
	assert_int_equal(mp_parse_range("256M@0x1000", &r), -EINVAL);
	assert_int_equal(mp_parse_range("256M$", &r), -EINVAL);
	assert_int_equal(mp_parse_range("256M$0x70000000x", &r), -EINVAL);
	assert_int_equal(mp_parse_range("0$0x70000000", &r), -ERANGE);
	assert_int_equal(mp_parse_range("16G$0xfffffffff0000000", &r), -ERANGE);
	assert_int_equal(mp_parse_range("", &r), -EINVAL);
}

static void test_geometry(void **state)
{
	struct mp_geometry g;
	u64 phys, len;
	u32 first, count, seg;

	assert_int_equal(mp_geometry_init(&g, 0x70000000, 256 * MiB, 128 * MiB,
					  128 * MiB), 0);
	assert_int_equal(g.nr_segs, 2);
	assert_int_equal(mp_seg_range(&g, 1, &phys, &len), 0);
	assert_true(phys == 0x78000000ULL && len == 128 * MiB);
	assert_int_equal(mp_seg_range(&g, 2, &phys, &len), -ENOENT);
	assert_int_equal(mp_seg_blocks(&g, 0, &first, &count), 0);
	assert_int_equal(first, 14);
	assert_int_equal(count, 1);
	assert_int_equal(mp_seg_of_phys(&g, 0x78000000ULL + 5, &seg), 0);
	assert_int_equal(seg, 1);
	assert_int_equal(mp_seg_of_phys(&g, 0x80000000ULL, &seg), -ENOENT);
	assert_int_equal(mp_seg_of_phys(&g, 0x6fffffffULL, &seg), -ENOENT);

	/* 256 MiB segments of two blocks each */
	assert_int_equal(mp_geometry_init(&g, GiB, GiB, 256 * MiB, 128 * MiB), 0);
	assert_int_equal(g.nr_segs, 4);
	assert_int_equal(mp_seg_blocks(&g, 3, &first, &count), 0);
	assert_int_equal(first, 8 + 6);
	assert_int_equal(count, 2);

	/* 2,048 segments of 128 KiB in two blocks: devices only, no blocks */
	assert_int_equal(mp_geometry_init(&g, 0x70000000, 256 * MiB, 128 * KiB,
					  128 * MiB), 0);
	assert_int_equal(g.nr_segs, 2048);
	assert_false(mp_seg_whole_blocks(&g));
	assert_int_equal(mp_seg_range(&g, 2047, &phys, &len), 0);
	assert_true(phys == 0x70000000ULL + 256 * MiB - 128 * KiB &&
		    len == 128 * KiB);
	assert_int_equal(mp_seg_blocks(&g, 1024, &first, &count), 0);
	assert_int_equal(first, 0x70000000 / (128 * MiB) + 1);
	assert_int_equal(count, 0);
	assert_int_equal(mp_seg_of_phys(&g, 0x70000000ULL + 3 * 128 * KiB + 1,
					&seg), 0);
	assert_int_equal(seg, 3);
	assert_int_equal(mp_geometry_init(&g, 0, GiB, 128 * MiB, 128 * MiB), 0);
	assert_true(mp_seg_whole_blocks(&g));

	/* more blocks in a segment than a u32 counts: refused, not truncated */
	assert_int_equal(mp_geometry_init(&g, 0, 1ULL << 33, 1ULL << 33, 1), 0);
	assert_int_equal(mp_seg_blocks(&g, 0, &first, &count), -ERANGE);
}

static void test_geometry_rejects(void **state)
{
	struct mp_geometry g;

	/* segment not a multiple of the block, nor a power-of-two part */
	assert_int_equal(mp_geometry_init(&g, 0, GiB, 192 * MiB, 128 * MiB), -EINVAL);
	assert_int_equal(mp_geometry_init(&g, 0, GiB, 96 * MiB, 128 * MiB), -EINVAL);
	/* a part of a block below the smallest segment */
	assert_int_equal(mp_geometry_init(&g, 0, GiB, 32 * KiB, 128 * MiB), -EINVAL);
	assert_int_equal(mp_geometry_init(&g, 0, GiB, MP_SEG_MIN_SIZE, 128 * MiB), 0);
	/* base not block aligned */
	assert_int_equal(mp_geometry_init(&g, 0x70100000, 256 * MiB, 128 * MiB,
					  128 * MiB), -EINVAL);
	/* size not a multiple of the segment */
	assert_int_equal(mp_geometry_init(&g, 0, 384 * MiB, 256 * MiB, 128 * MiB),
			 -EINVAL);
	/* block size not a power of two, zero sizes */
	assert_int_equal(mp_geometry_init(&g, 0, GiB, 96 * MiB, 96 * MiB), -EINVAL);
	assert_int_equal(mp_geometry_init(&g, 0, 0, 128 * MiB, 128 * MiB), -EINVAL);
	assert_int_equal(mp_geometry_init(&g, 0, GiB, 0, 128 * MiB), -EINVAL);
	/* wraps the address space */
	assert_int_equal(mp_geometry_init(&g, 0xfffffffff8000000ULL, GiB,
					  128 * MiB, 128 * MiB), -ERANGE);
	assert_int_equal(mp_seg_range(NULL, 0, NULL, NULL), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_range),
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_geometry_rejects),
	};

	return cmocka_run_group_tests_name("seg", tests, NULL, NULL);
}
