// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the DVM smaps totals (libmp-dvm/dvm_smaps.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <cmocka.h>

#include "dvm_smaps.h"

static void feed(struct dvm_smaps *s, const char *const *lines)
{
	for (; *lines; lines++)
		assert_int_equal(dvm_smaps_line(s, *lines), 0);
}

/* An identity area, the heap of a program, a file and the stack. */
static void test_totals(void **state)
{
	static const char *const lines[] = {
		"00200000-00600000 rw-p 00200000 00:00 0 ",
		"Size:               4096 kB",
		"Anonymous:          4096 kB",
		"DvmIdentity:        4092 kB",
		"VmFlags: rd wr mr mw me ac id",
		"55d0c8a00000-55d0c8a21000 rw-p 00000000 00:00 0                          [heap]",
		"Size:                132 kB",
		"Anonymous:            12 kB",
		"VmFlags: rd wr mr mw me ac",
		"7f00aa000000-7f00aa001000 r--p 00000000 08:01 1234        /usr/lib/x:y.so",
		"Anonymous:             0 kB",
		"VmFlags: rd mr mw me idx",
		"7ffc1e000000-7ffc1e021000 rw-p 00000000 00:00 0                          [stack]",
		"Anonymous:            16 kB",
		"THPeligible:    0",
		"VmFlags: rd wr mr mw me gd ac",
		NULL,
	};
	struct dvm_smaps s;

	dvm_smaps_init(&s);
	feed(&s, lines);
	assert_int_equal(s.areas, 4);
	assert_int_equal(s.identity_bytes, 4092ULL * 1024);
	assert_int_equal(s.anon_bytes, (4096ULL + 12 + 16) * 1024);
	assert_int_equal(s.id_areas, 1);
	assert_int_equal(s.id_area_bytes, 4ULL << 20);
}

/* Lines that are not smaps change nothing and are reported. */
static void test_bad_lines(void **state)
{
	struct dvm_smaps s, before;

	dvm_smaps_init(&s);
	assert_int_equal(dvm_smaps_line(&s, "Anonymous: 4 kB"), -EINVAL);
	assert_int_equal(dvm_smaps_line(&s, "00400000-00300000 rw-p 0 0:0 0"),
			 -EINVAL);
	assert_int_equal(dvm_smaps_line(&s, "1000-2000 rw-p 0 00:00 0"), 0);
	memcpy(&before, &s, sizeof(s));
	assert_int_equal(dvm_smaps_line(&s, "DvmIdentity: lots kB"), -EINVAL);
	assert_int_equal(dvm_smaps_line(&s, "DvmIdentity: 4 MB"), -EINVAL);
	assert_int_equal(dvm_smaps_line(&s, "Anonymous: 99999999999999999999 kB"),
			 -EINVAL);
	assert_int_equal(dvm_smaps_line(&s, "no colon here"), -EINVAL);
	assert_memory_equal(&before, &s, sizeof(s));
}

/* "id" only as a whole flag. */
static void test_flag_words(void **state)
{
	struct dvm_smaps s;

	dvm_smaps_init(&s);
	assert_int_equal(dvm_smaps_line(&s, "1000-3000 rw-p 0 00:00 0"), 0);
	assert_int_equal(dvm_smaps_line(&s, "VmFlags: rd idx wr hid"), 0);
	assert_int_equal(s.id_areas, 0);
	assert_int_equal(dvm_smaps_line(&s, "VmFlags: id"), 0);
	assert_int_equal(s.id_areas, 1);
	assert_int_equal(s.id_area_bytes, 0x2000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_totals),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_flag_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
