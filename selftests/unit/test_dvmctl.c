// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for libmp-dvm/dvmctl.c (libmp-dvmctl, mp_dvmctl.h): the
 * launcher's environment, the statistics file it reads back, /proc/PID/
 * smaps, and where it looks for libmp-dvm.so.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "mp_dvmctl.h"

static char dir[256];

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "%s/dvmctl-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	unsetenv("LD_PRELOAD");
	unsetenv("MALLOC_CONF");
	unsetenv("MP_DVM_LIB");
	return setenv(MP_DVM_ENV_STATS_DIR, dir, 1);
}

static int teardown(void **state)
{
	char cmd[300];

	unsetenv("LD_PRELOAD");		/* test_prepare's, not for rm */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void write_stats(const char *name, const struct mp_dvm_stats *st,
			size_t len)
{
	char path[300];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, st, len), (ssize_t)len);
	close(fd);
}

static void test_read_stats(void **state)
{
	struct mp_dvm_stats st = {
		.magic = MP_DVM_STATS_MAGIC, .version = MP_DVM_STATS_VERSION,
		.pid = 4242, .identity_bytes = 3 << 20, .identity_chunks = 3,
	}, got;

	assert_int_equal(mp_dvm_read_stats(4242, &got), -ENOENT);
	write_stats("4242", &st, sizeof(st));
	assert_int_equal(mp_dvm_read_stats(4242, &got), 0);
	assert_int_equal(got.identity_bytes, 3 << 20);
	assert_int_equal(got.identity_chunks, 3);

	write_stats("4242", &st, sizeof(st) - 8);	/* short */
	assert_int_equal(mp_dvm_read_stats(4242, &got), -EPROTO);
	st.version++;
	write_stats("4242", &st, sizeof(st));
	assert_int_equal(mp_dvm_read_stats(4242, &got), -EPROTO);
	st.version--;
	st.pid = 7;				/* another process's */
	write_stats("4242", &st, sizeof(st));
	assert_int_equal(mp_dvm_read_stats(4242, &got), -EPROTO);
}

static void test_read_smaps(void **state)
{
	struct dvm_smaps sm;

	assert_int_equal(mp_dvm_read_smaps(getpid(), &sm), 0);
	assert_true(sm.areas > 0);
	assert_true(sm.anon_bytes > 0);
	assert_int_equal(sm.identity_bytes, 0);	/* no DVM mode here */
	assert_int_equal(mp_dvm_read_smaps(0x7ffffffe, &sm), -ENOENT);
}

static void test_prepare(void **state)
{
	static const char conf_head[] =
		"abort:true,retain:true,oversize_threshold:0,thp:never,narenas:";
	struct mp_dvm_run run = { .strict = true };
	char sub[300];
	const char *what = NULL;

	assert_int_equal(setenv("LD_PRELOAD", "/other.so", 1), 0);
	assert_int_equal(setenv("MALLOC_CONF", "abort:true", 1), 0);
	snprintf(sub, sizeof(sub), "%s/stats", dir);
	assert_int_equal(setenv(MP_DVM_ENV_STATS_DIR, sub, 1), 0);
	assert_string_equal(mp_dvm_stats_dir(), sub);

	assert_int_equal(mp_dvm_prepare(&run, "/x/libmp-dvm.so", &what), 0);
	assert_int_equal(access(sub, W_OK), 0);		/* created */
	/* ours first in the preload list, last in jemalloc's settings */
	assert_string_equal(getenv("LD_PRELOAD"),
			    "/x/libmp-dvm.so:libjemalloc.so.2:/other.so");
	assert_true(!strncmp(getenv("MALLOC_CONF"), conf_head, strlen(conf_head)));
	assert_string_equal(getenv(MP_DVM_ENV_STRICT), "1");
	assert_string_equal(getenv(MP_DVM_ENV_STAT), "0");
	assert_string_equal(getenv(MP_DVM_ENV_STATS_DIR), sub);

	/* a directory that cannot be made is named */
	assert_int_equal(setenv(MP_DVM_ENV_STATS_DIR, "/proc/no/such", 1), 0);
	assert_int_equal(mp_dvm_prepare(&run, "/x/libmp-dvm.so", &what),
			 -ENOENT);
	assert_string_equal(what, "/proc/no/such");
}

static void test_find_lib(void **state)
{
	char lib[300], out[4096];
	int fd;

	snprintf(lib, sizeof(lib), "%s/libmp-dvm.so", dir);
	assert_int_equal(mp_dvm_find_lib(lib, out, sizeof(out)), -ENOENT);
	fd = open(lib, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(mp_dvm_find_lib(lib, out, sizeof(out)), 0);
	assert_string_equal(out, lib);
	/* $MP_DVM_LIB when --lib is not given */
	assert_int_equal(setenv("MP_DVM_LIB", lib, 1), 0);
	assert_int_equal(mp_dvm_find_lib(NULL, out, sizeof(out)), 0);
	assert_string_equal(out, lib);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_read_stats),
		T(test_read_smaps),
		T(test_prepare),
		T(test_find_lib),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
