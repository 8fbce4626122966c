// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the cmm-mp.conf parser (mpctl/config.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config.h"

static int parse(struct mpctl_config *c, const char *text, char *err)
{
	return mpctl_config_parse(c, text, strlen(text), err,
				  MPCTL_CONFIG_ERR_MAX);
}

/* @text must be refused with exactly the message @msg ("LINE: ..."). */
static void expect_err(const char *text, const char *msg)
{
	char err[MPCTL_CONFIG_ERR_MAX];
	struct mpctl_config c;

	assert_int_equal(parse(&c, text, err), -EINVAL);
	assert_string_equal(err, msg);
	mpctl_config_free(&c);
}

static void test_full(void **state)
{
	static const char text[] =
		"# cmm-mp host configuration\n"
		"\n"
		"[pool]\n"
		"mem = 512M$0x60000000   # the pool DRAM\n"
		"seg_size=128M\n"
		"\tchip_id = 0x525400000001\n"
		"backend = eth0\n"
		"hotplug = yes\n"
		"\n"
		"[segments 2]\n"
		"online = yes\n"
		"zone = normal\n"
		"[ segments 0,1 ]\n"
		"[segments 3]\n"
		"online = no\n";
	char err[MPCTL_CONFIG_ERR_MAX];
	const struct mpctl_config_seg *s;
	struct mpctl_config c;

	assert_int_equal(parse(&c, text, err), 0);
	assert_true(c.has_mem);
	assert_string_equal(c.mem, "512M$0x60000000");
	assert_int_equal(c.mem_base, 0x60000000ULL);
	assert_int_equal(c.mem_size, 512ULL << 20);
	assert_false(c.mem_pmem);
	assert_int_equal(c.seg_size, 128ULL << 20);
	assert_true(c.has_chip_id);
	assert_int_equal(c.chip_id, 0x525400000001ULL);
	assert_string_equal(c.backend, "eth0");
	assert_true(c.hotplug);

	/* sorted by id, whatever the order of the sections */
	assert_int_equal(c.nr_segs, 4);
	assert_int_equal(c.segs[0].id, 0);
	assert_int_equal(c.segs[3].id, 3);
	s = mpctl_config_find(&c, 0);
	assert_non_null(s);
	assert_true(s->online);
	assert_int_equal(s->zone, MPCTL_ZONE_MOVABLE);
	assert_int_equal(s->line, 13);
	s = mpctl_config_find(&c, 2);
	assert_true(s->online);
	assert_int_equal(s->zone, MPCTL_ZONE_NORMAL);
	assert_int_equal(s->line, 10);
	s = mpctl_config_find(&c, 3);
	assert_false(s->online);
	assert_null(mpctl_config_find(&c, 4));
	assert_string_equal(mpctl_zone_name(s->zone), "movable");
	mpctl_config_free(&c);
}

static void test_empty(void **state)
{
	char err[MPCTL_CONFIG_ERR_MAX];
	struct mpctl_config c;

	/* the file make install ships: everything commented out */
	assert_int_equal(parse(&c, "", err), 0);
	assert_false(c.has_mem);
	assert_int_equal(c.nr_segs, 0);
	assert_null(mpctl_config_find(&c, 0));
	mpctl_config_free(&c);
	assert_int_equal(parse(&c, "# nothing\n\n  \t\n#[pool]\n", err), 0);
	assert_false(c.has_mem);
	assert_string_equal(c.backend, "");
	assert_false(c.hotplug);	/* the per-segment path is off */
	mpctl_config_free(&c);
	assert_int_equal(parse(&c, "[pool]\nhotplug = no\n", err), 0);
	assert_false(c.hotplug);
	mpctl_config_free(&c);

	/* segments only (the module is loaded some other way); no final \n */
	assert_int_equal(parse(&c, "[segments 1-3]\nzone = movable", err), 0);
	assert_false(c.has_mem);
	assert_int_equal(c.nr_segs, 3);
	assert_int_equal(c.segs[2].id, 3);
	mpctl_config_free(&c);

	/* legacy pmem range */
	assert_int_equal(parse(&c, "[pool]\nmem=1G!4G\n", err), 0);
	assert_true(c.mem_pmem);
	assert_int_equal(c.mem_base, 4ULL << 30);
	assert_int_equal(c.seg_size, 0);
	mpctl_config_free(&c);
}

static void test_syntax(void **state)
{
	expect_err("mem = 1G$4G\n",
		   "1: 'mem' outside a section (start with [pool] or [segments LIST])");
	expect_err("\n[pol]\n",
		   "2: unknown section [pol] (expected [pool] or [segments LIST])");
	expect_err("[pool\n", "1: section header without a closing ']'");
	expect_err("[pool]\nmem\n",
		   "2: expected 'key = value', [pool] or [segments LIST]");
	expect_err("[pool]\n= 1G$4G\n", "2: missing key before '='");
	expect_err("[pool]\nmem =\n", "2: missing value for 'mem'");
	expect_err("[pool]\nmem = 1G$4G 2G$8G\n",
		   "2: value of 'mem' must be one word: '1G$4G 2G$8G'");
	expect_err("[pool]\nmem = a=b\n",
		   "2: value of 'mem' must be one word: 'a=b'");
	expect_err("[pool]\nse g = 1\n", "2: key 'se g' must be one word");
	expect_err("[pool]\nsegsize = 128M\n",
		   "2: unknown key 'segsize' in [pool] (expected mem, seg_size, chip_id, backend or hotplug)");
	expect_err("[segments 0]\nmovable = yes\n",
		   "2: unknown key 'movable' in [segments] (expected online or zone)");
	expect_err("[pool]\r\nmem = 1G$4G\r\n",
		   "1: carriage return (DOS line ending?)");
	expect_err("[pool]\n\x01\n", "2: control character 0x01");
}

static void test_values(void **state)
{
	expect_err("[pool]\nmem = 512M\n",
		   "2: mem '512M' is not SIZE$BASE or SIZE!BASE (e.g. 512M$0x60000000)");
	expect_err("[pool]\nmem = 0$4G\n",
		   "2: mem '0$4G' is not SIZE$BASE or SIZE!BASE (e.g. 512M$0x60000000)");
	expect_err("[pool]\nmem = 1G$4Gx\n",
		   "2: mem '1G$4Gx' is not SIZE$BASE or SIZE!BASE (e.g. 512M$0x60000000)");
	expect_err("[pool]\nmem = 1G$4G\nseg_size = 12X\n",
		   "3: seg_size '12X' is not a size (e.g. 128M)");
	expect_err("[pool]\nmem = 1G$4G\nseg_size = 0\n",
		   "3: seg_size must not be 0");
	expect_err("[pool]\nmem = 1G$4G\nseg_size = 384M\n",
		   "3: mem size 1073741824 is not a whole number of 402653184-byte segments");
	expect_err("[pool]\nseg_size = 128M\n", "2: seg_size without mem");
	expect_err("[pool]\nchip_id = 7\n", "2: chip_id without mem");
	expect_err("[pool]\nmem = 1G$4G\nchip_id = -1\n",
		   "3: chip_id '-1' is not a number (decimal or 0x hex)");
	expect_err("[pool]\nmem = 1G$4G\nchip_id = 0x1g\n",
		   "3: chip_id '0x1g' is not a number (decimal or 0x hex)");
	expect_err("[pool]\nmem = 1G$4G\nchip_id = 99999999999999999999\n",
		   "3: chip_id '99999999999999999999' is not a number (decimal or 0x hex)");
	expect_err("[pool]\nbackend = eth/0\n",
		   "2: backend 'eth/0' is not a network interface name");
	expect_err("[pool]\nbackend = abcdefghijklmnop\n",
		   "2: backend 'abcdefghijklmnop' is not a network interface name");
	expect_err("[pool]\nbackend = ..\n",
		   "2: backend '..' is not a network interface name");
	expect_err("[pool]\nhotplug = on\n",
		   "2: hotplug 'on' is not yes or no");
	expect_err("[segments 0]\nonline = maybe\n",
		   "2: online 'maybe' is not yes or no");
	expect_err("[segments 0]\nzone = dma\n",
		   "2: zone 'dma' is not movable or normal");
	expect_err("[segments 0]\nonline = no\nzone = normal\n",
		   "3: 'zone' given for segments that stay offline");
	expect_err("[pool]\nmem = 1234567890123456789012345678901234567890123456789012345678901234$0\n",
		   "2: mem '12345678901234567890...' is too long");
}

static void test_duplicates(void **state)
{
	expect_err("[pool]\nmem = 1G$4G\n[segments 0]\n[pool]\n",
		   "4: duplicate [pool] section (first at line 1)");
	expect_err("[pool]\nmem = 1G$4G\n\nmem = 2G$4G\n",
		   "4: duplicate key 'mem' (first at line 2)");
	expect_err("[segments 0-1]\nonline = yes\nonline = no\n",
		   "3: duplicate key 'online' (first at line 2)");
	expect_err("[segments 0-3]\n[segments 5,3]\n",
		   "2: segment 3 is already configured at line 1");
	expect_err("[segments 1,1]\n",
		   "1: segment list '1,1' names a segment twice, at '1'");
}

static void test_seglists(void **state)
{
	expect_err("[segments]\n",
		   "1: [segments] needs a segment list, e.g. [segments 0-3]");
	expect_err("[segments all]\n",
		   "1: [segments all] is not allowed: name the segments");
	expect_err("[segments 3-1]\n",
		   "1: segment list '3-1': range '3-1' goes down");
	expect_err("[segments 0,x]\n",
		   "1: invalid segment list '0,x' at 'x'");
	expect_err("[segments 99999999999]\n",
		   "1: segment list '99999999999': id too big at '99999999999'");
	expect_err("[segments 0-70000]\n",
		   "1: segment list '0-70000' is too long (max 65536)");
	expect_err("[segments 0-40000]\n[segments 40001-65535]\n[segments 65536]\n",
		   "3: more than 65536 segments configured");
	expect_err("[segmentsX 1]\n",
		   "1: unknown section [segmentsX 1] (expected [pool] or [segments LIST])");
}

static void test_limits(void **state)
{
	char err[MPCTL_CONFIG_ERR_MAX];
	struct mpctl_config c;
	char *big;

	big = malloc(MPCTL_CONFIG_SIZE_MAX + 2);
	assert_non_null(big);
	memset(big, '#', MPCTL_CONFIG_SIZE_MAX + 1);
	big[MPCTL_CONFIG_SIZE_MAX + 1] = '\0';
	assert_int_equal(mpctl_config_parse(&c, big, MPCTL_CONFIG_SIZE_MAX + 1,
					    err, sizeof(err)), -EFBIG);
	mpctl_config_free(&c);

	/* a comment line one byte too long is still refused */
	big[MPCTL_CONFIG_LINE_MAX + 1] = '\0';
	assert_int_equal(parse(&c, big, err), -EINVAL);
	assert_string_equal(err, "1: line longer than 1024 bytes");
	mpctl_config_free(&c);
	big[MPCTL_CONFIG_LINE_MAX] = '\0';
	assert_int_equal(parse(&c, big, err), 0);
	mpctl_config_free(&c);
	free(big);

	assert_int_equal(mpctl_config_parse(&c, "[pool]\n\0\n", 9, err,
					    sizeof(err)), -EINVAL);
	assert_string_equal(err, "2: NUL byte");
	mpctl_config_free(&c);
}

static void test_load(void **state)
{
	char path[] = "/tmp/test_mpctl_config.XXXXXX";
	char err[MPCTL_CONFIG_ERR_MAX], want[MPCTL_CONFIG_ERR_MAX + 64];
	struct mpctl_config c;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("[pool]\nmem = 256M$0x70000000\n[segments 0]\nzone = fast\n", f);
	fclose(f);
	assert_int_equal(mpctl_config_load(&c, path, err, sizeof(err)),
			 -EINVAL);
	snprintf(want, sizeof(want), "%s:4: zone 'fast' is not movable or normal",
		 path);
	assert_string_equal(err, want);
	mpctl_config_free(&c);

	f = fopen(path, "w");
	assert_non_null(f);
	fputs("[pool]\nmem = 256M$0x70000000\n[segments 0]\nzone = normal\n", f);
	fclose(f);
	assert_int_equal(mpctl_config_load(&c, path, err, sizeof(err)), 0);
	assert_int_equal(c.nr_segs, 1);
	assert_int_equal(c.segs[0].zone, MPCTL_ZONE_NORMAL);
	mpctl_config_free(&c);
	unlink(path);

	assert_int_equal(mpctl_config_load(&c, path, err, sizeof(err)),
			 -ENOENT);
	snprintf(want, sizeof(want), "%s: No such file or directory", path);
	assert_string_equal(err, want);
	mpctl_config_free(&c);

	assert_int_equal(mpctl_config_load(&c, "/tmp", err, sizeof(err)),
			 -EISDIR);
	assert_string_equal(err, "/tmp: not a regular file");
	mpctl_config_free(&c);
}

/* /proc/iomem of a guest whose top 512 MiB memmap= reserved, as root. */
static const char iomem[] =
	"00000000-00000fff : Reserved\n"
	"00001000-0009fbff : System RAM\n"
	"00100000-5fffffff : System RAM\n"
	"  01000000-01e00fff : Kernel code\n"
	"  60000000-7fffffff : nested, not top-level\n"
	"60000000-7fffffff : Reserved\n"
	"  60000000-7fffffff : cmm_mp\n"
	"80000000-8fffffff : Persistent Memory (legacy)\n"
	"90000000-bffdffff : System RAM\n"
	"fec00000-fec003ff : IOAPIC 0";

#define NOT_RESERVED "is not memory reserved for the pool (memmap=): "

/* mpctl_config_iomem_check() for a config of mem = @mem. */
static int probe(const char *mem, const char *text, char *why)
{
	char conf[128], err[MPCTL_CONFIG_ERR_MAX];
	struct mpctl_config c;
	int rc;

	snprintf(conf, sizeof(conf), "[pool]\nmem = %s\n", mem);
	assert_int_equal(parse(&c, conf, err), 0);
	rc = mpctl_config_iomem_check(&c, text, why, MPCTL_CONFIG_ERR_MAX);
	mpctl_config_free(&c);
	return rc;
}

/*
 * check-config --device: the range must lie in one top-level region
 * memmap= reserved; System RAM, a range across regions, nothing there,
 * hidden addresses (not root) and a config without mem= are told apart.
 */
static void test_iomem_check(void **state)
{
	char why[MPCTL_CONFIG_ERR_MAX], err[MPCTL_CONFIG_ERR_MAX];
	struct mpctl_config c;

	assert_int_equal(probe("512M$0x60000000", iomem, why), 1);
	assert_string_equal(why, "Reserved 60000000-7fffffff");
	assert_int_equal(probe("128M$0x70000000", iomem, why), 1);
	assert_int_equal(probe("256M!0x80000000", iomem, why), 1);
	assert_string_equal(why,
			    "Persistent Memory (legacy) 80000000-8fffffff");
	/* System RAM: never the pool's */
	assert_int_equal(probe("512M$0x90000000", iomem, why), 0);
	assert_string_equal(why, "mem=512M$0x90000000 " NOT_RESERVED
			    "it meets 'System RAM' at 90000000-bffdffff");
	/* half reserved, half RAM */
	assert_int_equal(probe("1G$0x40000000", iomem, why), 0);
	assert_string_equal(why, "mem=1G$0x40000000 " NOT_RESERVED
			    "it meets 'System RAM' at 100000-5fffffff");
	/* across two reserved regions */
	assert_int_equal(probe("1G$0x60000000", iomem, why), 0);
	assert_int_equal(probe("256M$0x100000000", iomem, why), 0);
	assert_string_equal(why, "mem=256M$0x100000000 " NOT_RESERVED
			    "no memory there");
	assert_int_equal(probe("512M$0x60000000",
			       "00000000-00000000 : Reserved\n"
			       "00000000-00000000 : System RAM\n", why),
			 -EPERM);
	assert_int_equal(probe("512M$0x60000000", "", why), -EPERM);
	/* garbage lines are skipped, not trusted */
	assert_int_equal(probe("512M$0x60000000",
			       "zz-yy : Reserved\n60000000 : Reserved\n"
			       "60000000-7fffffff : Reserved", why), 1);
	assert_int_equal(parse(&c, "# nothing configured\n", err), 0);
	assert_int_equal(mpctl_config_iomem_check(&c, iomem, why, sizeof(why)),
			 -EINVAL);
	mpctl_config_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_seglists),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_iomem_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
