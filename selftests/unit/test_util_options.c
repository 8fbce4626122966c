// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for util/: what an option table parses, the usage and help
 * text it writes, the one-line errors of a bad command line; and that the
 * attribute table (cmm_mp_attrs.c) leaves no attribute or name out.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/cmm_mp_attrs.h"
#include "util/parse-options.h"
#include "util/util.h"

struct args {
	bool yes;
	unsigned int bits;
	int mode;
	const char *name;
	int cb_calls;
	const char *cb_arg;
};

static int cb_fail_on_bad(const struct util_option *opt, const char *arg)
{
	struct args *a = opt->value;

	a->cb_calls++;
	a->cb_arg = arg;
	return strcmp(arg, "bad") ? 0 : 7;
}

#define TABLE(a)							\
	{								\
		OPT_BOOLEAN('y', "yes", &(a).yes, "say yes"),		\
		OPT_BIT('u', "human", &(a).bits, BIT(0),		\
			"sizes for people"),				\
		OPT_BIT('v', "verbose", &(a).bits, BIT(1),		\
			"every attribute"),				\
		OPT_SET_INT('a', "accept", &(a).mode, 3,		\
			    "two lines\nof help"),			\
		OPT_STRING('n', "name", &(a).name, "NAME", "a name"),	\
		OPT_CALLBACK(0, "call-me-by-a-long-name", &(a), "ARG",	\
			     "long only", cb_fail_on_bad),		\
		OPT_END(),						\
	}

static const struct util_cmd cmd = {
	.prog = "prog",
	.cmd = "cmd",
	.operands = "[FILE]",
	.about = "What it does.\n",
};

/* argv[0] is the command */
static int parse(const struct util_cmd *c, const struct util_option *opts,
		 char **argv, int argc, int *status)
{
	return util_parse_options(c, opts, argc, argv, status);
}

/* Run @fn with file descriptor @fd (1 or 2) captured into @buf. */
static void capture(int fd, char *buf, size_t len, void (*fn)(void *),
		    void *data)
{
	FILE *tmp = tmpfile();
	int saved;
	size_t n;

	assert_non_null(tmp);
	fflush(fd == 1 ? stdout : stderr);
	saved = dup(fd);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), fd) >= 0);
	fn(data);
	fflush(fd == 1 ? stdout : stderr);
	assert_true(dup2(saved, fd) >= 0);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
}

static void test_values_and_operands(void **state)
{
	struct args a = { 0 };
	const struct util_option opts[] = TABLE(a);
	/* getopt_long() permutes argv: not const */
	char *argv[10] = { "cmd", "-y", "f1", "-uv", "--accept", "-n", "x",
			 "--call-me-by-a-long-name=z", "f2", NULL };
	int status = -1, n;

	n = parse(&cmd, opts, argv, ARRAY_SIZE(argv) - 1, &status);
	assert_int_equal(n, 2);
	assert_string_equal(argv[0], "f1");
	assert_string_equal(argv[1], "f2");
	assert_null(argv[2]);
	assert_true(a.yes);
	assert_int_equal(a.bits, BIT(0) | BIT(1));
	assert_int_equal(a.mode, 3);
	assert_string_equal(a.name, "x");
	assert_int_equal(a.cb_calls, 1);
	assert_string_equal(a.cb_arg, "z");
	assert_int_equal(status, -1);	/* untouched */
}

static void test_callback_stops(void **state)
{
	struct args a = { 0 };
	const struct util_option opts[] = TABLE(a);
	char *argv[5] = { "cmd", "--call-me-by-a-long-name", "bad", "-y", NULL };
	int status = -1;

	assert_int_equal(parse(&cmd, opts, argv, 4, &status), -1);
	assert_int_equal(status, 7);
	assert_false(a.yes);	/* nothing after the failure is applied */
}

static void test_stop_at_operand(void **state)
{
	struct args a = { 0 };
	const struct util_option opts[] = TABLE(a);
	const struct util_cmd run = { .prog = "prog", .cmd = "run",
				      .stop_at_operand = true };
	char *argv[6] = { "run", "-y", "ls", "-y", "-l", NULL };
	int status, n;

	n = parse(&run, opts, argv, 5, &status);
	assert_int_equal(n, 3);
	assert_string_equal(argv[0], "ls");
	assert_string_equal(argv[1], "-y");
	assert_string_equal(argv[2], "-l");
	assert_null(argv[3]);
}

struct bad_call {
	char **argv;
	int argc;
	int n, status;
};

static void bad_call(void *data)
{
	struct bad_call *b = data;
	struct args a = { 0 };
	const struct util_option opts[] = TABLE(a);

	b->n = parse(&cmd, opts, b->argv, b->argc, &b->status);
}

static void test_errors(void **state)
{
	static const struct {
		const char *arg;
		const char *msg;
	} cases[] = {
		{ "--frob", "prog: cmd: unknown option '--frob' (see 'prog cmd --help')\n" },
		{ "-x", "prog: cmd: unknown option '-x' (see 'prog cmd --help')\n" },
		{ "-n", "prog: cmd: option '-n' needs a value (see 'prog cmd --help')\n" },
		{ "--name", "prog: cmd: option '--name' needs a value (see 'prog cmd --help')\n" },
	};
	char err[512];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *argv[3] = { "cmd", (char *)cases[i].arg, NULL };
		struct bad_call b = { .argv = argv, .argc = 2 };

		capture(2, err, sizeof(err), bad_call, &b);
		assert_int_equal(b.n, -1);
		assert_int_equal(b.status, UTIL_EXIT_USAGE);
		assert_string_equal(err, cases[i].msg);
	}
}

static void test_help_option(void **state)
{
	char *argv[5] = { "cmd", "-y", "--help", "--frob", NULL };
	struct bad_call b = { .argv = argv, .argc = 4 };
	char out[2048];

	capture(1, out, sizeof(out), bad_call, &b);
	assert_int_equal(b.n, -1);
	assert_int_equal(b.status, 0);
	assert_true(!strncmp(out, "usage: prog cmd [-y]", 20));
}

static void test_usage_text(void **state)
{
	static const char want[] =
"usage: prog cmd [-y] [-u] [-v] [-a] [-n NAME] [--call-me-by-a-long-name=ARG] [FILE]\n"
"       prog cmd more\n"
"\n"
"What it does.\n"
"\n"
"  -y, --yes            say yes\n"
"  -u, --human          sizes for people\n"
"  -v, --verbose        every attribute\n"
"  -a, --accept         two lines\n"
"                       of help\n"
"  -n, --name=NAME      a name\n"
"      --call-me-by-a-long-name=ARG\n"
"                       long only\n"
"  -h, --help           this text\n";
	static const char *const more[] = { "more", NULL };
	struct util_cmd c = cmd;
	struct args a = { 0 };
	const struct util_option opts[] = TABLE(a);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	c.more_usage = more;
	util_usage(f, &c, opts);
	fclose(f);
	assert_string_equal(buf, want);
	free(buf);
}

static void usage_error_no_cmd(void *data)
{
	*(int *)data = util_usage_error("prog", NULL, "missing %s", "command");
}

static void test_usage_error_no_cmd(void **state)
{
	char err[256];
	int rc = 0;

	capture(2, err, sizeof(err), usage_error_no_cmd, &rc);
	assert_int_equal(rc, UTIL_EXIT_USAGE);
	assert_string_equal(err, "prog: missing command (see 'prog --help')\n");
}

/* libmp's policy and the fake kernel's validation come from this table. */
static void test_attr_table_complete(void **state)
{
	unsigned int a, ids[] = { CMM_MP_A_DEV_ID, CMM_MP_A_SEG_SHARED,
				  CMM_MP_A_KEY };
	size_t i;

	assert_int_equal(cmm_mp_attr_descs[CMM_MP_A_UNSPEC].kind, CMM_MP_T_NONE);
	assert_int_equal(cmm_mp_attr_descs[CMM_MP_A_PAD].kind, CMM_MP_T_NONE);
	for (a = CMM_MP_A_PAD + 1; a <= CMM_MP_A_MAX; a++) {
		const struct cmm_mp_attr_desc *d = &cmm_mp_attr_descs[a];

		if (d->kind == CMM_MP_T_NONE)
			fail_msg("attribute %u is not in util/cmm_mp_attrs.c", a);
		assert_true(d->len > 0);
		if (d->kind == CMM_MP_T_U32)
			assert_int_equal(d->len, 4);
		if (d->kind == CMM_MP_T_U64)
			assert_int_equal(d->len, 8);
	}
	for (i = 0; i < ARRAY_SIZE(ids); i++)
		assert_int_equal(cmm_mp_attr_descs[ids[i]].kind,
				 ids[i] == CMM_MP_A_KEY ? CMM_MP_T_BINARY :
							  CMM_MP_T_U32);
	assert_int_equal(cmm_mp_attr_descs[CMM_MP_A_KEY].len, CMM_MP_KEY_LEN);
}

static int cb_num(const struct util_option *opt, const char *arg)
{
	struct args *a = opt->value;

	a->cb_calls++;
	a->cb_arg = arg;
	return 0;
}

/*
 * An argument that may be left out: "--mirror", "--mirror=5", "-m5", and
 * "--mirror 5" (a number after it is its argument, never an operand).
 */
static void test_optional_number(void **state)
{
	static const struct {
		const char *argv[5];
		int argc;
		const char *arg;	/* the callback's; NULL: none */
		const char *operand;	/* the one operand */
	} cases[] = {
		{ { "cmd", "f", "--mirror" }, 3, NULL, "f" },
		{ { "cmd", "f", "--mirror", "5" }, 4, "5", "f" },
		{ { "cmd", "--mirror", "5", "f" }, 4, "5", "f" },
		{ { "cmd", "--mirror=5", "f" }, 3, "5", "f" },
		{ { "cmd", "-m5", "f" }, 3, "5", "f" },
		{ { "cmd", "f", "-m", "5" }, 4, "5", "f" },
		{ { "cmd", "-m", "f" }, 3, NULL, "f" },
		{ { "cmd", "--mirror", "f", "-y" }, 4, NULL, "f" },
		{ { "cmd", "--mirror", "-y", "f" }, 4, NULL, "f" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct args a = { 0 };
		const struct util_option opts[] = {
			OPT_BOOLEAN('y', "yes", &a.yes, "say yes"),
			OPT_CALLBACK_OPTNUM('m', "mirror", &a, "M",
					    "optional", cb_num),
			OPT_END(),
		};
		char *argv[5] = { NULL };
		int status = -1, n, j;

		for (j = 0; j < cases[i].argc; j++)
			argv[j] = (char *)cases[i].argv[j];
		n = parse(&cmd, opts, argv, cases[i].argc, &status);
		assert_int_equal(n, 1);
		assert_string_equal(argv[0], cases[i].operand);
		assert_int_equal(a.cb_calls, 1);
		if (cases[i].arg)
			assert_string_equal(a.cb_arg, cases[i].arg);
		else
			assert_null(a.cb_arg);
	}
}

static void optnum_help(void *data)
{
	const struct util_option *opts = data;

	util_usage(stdout, &cmd, opts);
}

static void test_optional_number_help(void **state)
{
	struct args a = { 0 };
	const struct util_option opts[] = {
		OPT_CALLBACK_OPTNUM('m', "mirror", &a, "M", "a copy", cb_num),
		OPT_CALLBACK_OPTNUM(0, "to", &a, "R", "elsewhere", cb_num),
		OPT_END(),
	};
	static const char want[] =
		"usage: prog cmd [-m [M]] [--to[=R]] [FILE]\n"
		"\n"
		"What it does.\n"
		"\n"
		"  -m, --mirror[=M]     a copy\n"
		"      --to[=R]         elsewhere\n"
		"  -h, --help           this text\n";
	char out[1024];

	capture(1, out, sizeof(out), optnum_help, (void *)opts);
	assert_string_equal(out, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_and_operands),
		cmocka_unit_test(test_callback_stops),
		cmocka_unit_test(test_stop_at_operand),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_help_option),
		cmocka_unit_test(test_usage_text),
		cmocka_unit_test(test_usage_error_no_cmd),
		cmocka_unit_test(test_attr_table_complete),
		cmocka_unit_test(test_optional_number),
		cmocka_unit_test(test_optional_number_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
