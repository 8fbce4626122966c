// SPDX-License-Identifier: GPL-2.0
/*
 * mpctl: command-line control of the cmm_mp memory pool, daxctl style.
 *
 *	mpctl list | online | offline | repair | monitor | stats [OPTIONS]
 *	mpctl apply-config | check-config [OPTIONS]
 *	mpctl help [COMMAND]
 *
 * Results go to stdout as JSON. Every failure prints exactly one line,
 * "mpctl: <command>: <what>: <reason>", on stderr and exits non-zero
 * (1: the operation failed, 2: the command line was wrong, 3-6: the
 * failure classes of enum in mpctl.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "mpctl.h"

#ifndef MPCTL_VERSION
#define MPCTL_VERSION "unknown"
#endif

unsigned int mpctl_format = MPCTL_FORMAT;

struct mpctl_cmd {
	const char *name;
	int (*fn)(struct mp_ctx *ctx, int argc, char **argv);
	const char *summary;
};

static const struct mpctl_cmd mpctl_cmds[] = {
	{ "list", cmd_list, "list pool devices and segments (JSON)" },
	{ "online", cmd_online, "online segments as System RAM" },
	{ "offline", cmd_offline, "offline segments" },
	{ "repair", cmd_repair, "rebuild the lost copy of a mirrored segment" },
	{ "monitor", cmd_monitor, "print segment state changes as they happen" },
	{ "stats", cmd_stats, "transport counters of every peer device" },
	{ "key", cmd_key, "set or clear the transport's pool key (root)" },
	{ "apply-config", cmd_apply_config,
	  "load cmm_mp and online segments as the config file says" },
	{ "check-config", cmd_check_config,
	  "compare the running pool with the config file" },
	{ "dvm", cmd_dvm, "run programs with an identity-mapped heap; its stats" },
};

static void mpctl_usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: mpctl [--version [--json]] [--help] [--format=N] COMMAND [ARGS]\n\n"
		"  --format=N     print JSON format N (1 or 2, the default), so that a\n"
		"                 script keeps the keys it was written for\n"
		"  --version      the version; with --json also the JSON formats\n\n"
		"commands:\n");
	for (i = 0; i < ARRAY_SIZE(mpctl_cmds); i++)
		fprintf(f, "  %-13s %s\n", mpctl_cmds[i].name,
			mpctl_cmds[i].summary);
	fprintf(f, "\nSee 'mpctl help COMMAND' (or 'mpctl COMMAND --help') for the options\n"
		"of a command, and 'man mpctl-COMMAND' for its manual.\n");
}

static void vline(const char *cmd, const char *what, const char *fmt,
		  va_list ap)
{
	/* Build the line first so it reaches stderr in one write. */
	char msg[1024];
	int n;

	n = snprintf(msg, sizeof(msg), "mpctl: %s: ", cmd);
	if (what && n >= 0 && (size_t)n < sizeof(msg))
		n += snprintf(msg + n, sizeof(msg) - n, "%s: ", what);
	if (n >= 0 && (size_t)n < sizeof(msg))
		vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	fflush(stdout);
	fprintf(stderr, "%s\n", msg);
}

/**
 * mpctl_usage_error() - report a bad command line
 * @cmd: the command ("mpctl" before one is known)
 * @fmt: what is wrong
 *
 * Return: MPCTL_EXIT_USAGE.
 */
int mpctl_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = util_usage_verror("mpctl", strcmp(cmd, "mpctl") ? cmd : NULL,
			       fmt, ap);
	va_end(ap);
	return rc;
}

/**
 * mpctl_fail() - report a failed operation
 * @cmd: the command
 * @what: the object concerned ("segment 3"), or NULL
 * @fmt: why
 *
 * Return: MPCTL_EXIT_FAIL.
 */
int mpctl_fail(const char *cmd, const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(cmd, what, fmt, ap);
	va_end(ap);
	return MPCTL_EXIT_FAIL;
}

/**
 * mpctl_fail_code() - report a failed operation of a given class
 * @code: the exit status, MPCTL_EXIT_*
 * @cmd: the command
 * @what: the object concerned, or NULL
 * @fmt: why
 *
 * Return: @code.
 */
int mpctl_fail_code(int code, const char *cmd, const char *what,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(cmd, what, fmt, ap);
	va_end(ap);
	return code;
}

/**
 * mpctl_exit_of_errno() - the exit status for a failure with @err
 * @err: negative errno
 * @kernel: the kernel answered with it (-ENODEV from the kernel is a
 *	device, not the module)
 *
 * Return: an MPCTL_EXIT_* failure class.
 */
int mpctl_exit_of_errno(int err, bool kernel)
{
	switch (-err) {
	case ENODEV:
		return kernel ? MPCTL_EXIT_NOENT : MPCTL_EXIT_NOTLOADED;
	case EPERM:
	case EACCES:
		return MPCTL_EXIT_PERM;
	case ENOENT:
		return MPCTL_EXIT_NOENT;
	case EBUSY:
	case EALREADY:
		return MPCTL_EXIT_REFUSED;
	default:
		return MPCTL_EXIT_FAIL;
	}
}

/**
 * mpctl_fail_ctx() - report a failed libmp call
 * @cmd: the command
 * @what: the object concerned
 * @ctx: the context, for the error detail libmp recorded
 * @err: the negative errno the call returned
 * @reason: what it means here, or NULL for libmp's own detail
 *
 * The line ends with strerror(), then the kernel's own explanation (its
 * extended ack message) when it gave one.
 *
 * Return: MPCTL_EXIT_FAIL.
 */
int mpctl_fail_ctx(const char *cmd, const char *what, struct mp_ctx *ctx,
		   int err, const char *reason)
{
	const char *detail = cmmmp_get_last_error_msg(ctx);
	bool kernel = cmmmp_get_last_error_origin(ctx) == MP_ERR_KERNEL;
	int code = mpctl_exit_of_errno(err, kernel);

	if (cmmmp_get_last_error(ctx) != err)
		detail = "";	/* the record is about something else */
	if (err == -ENODEV && !kernel)
		return mpctl_fail_code(code, cmd, "cmm_mp",
				       "kernel module not loaded: %s",
				       strerror(ENODEV));
	if (!reason)
		reason = detail[0] ? detail : "failed";
	else if (detail[0] && kernel)
		return mpctl_fail_code(code, cmd, what, "%s: %s (kernel: %s)",
				       reason, strerror(-err), detail);
	else if (detail[0])
		return mpctl_fail_code(code, cmd, what, "%s: %s (%s)", reason,
				       strerror(-err), detail);
	return mpctl_fail_code(code, cmd, what, "%s: %s", reason,
			       strerror(-err));
}

/**
 * mpctl_sysfs_root() - where sysfs is: $MP_SYSFS_ROOT (the tests), else /sys
 *
 * Return: the path, without a trailing slash.
 */
const char *mpctl_sysfs_root(void)
{
	const char *root = getenv("MP_SYSFS_ROOT");

	return root && *root ? root : "/sys";
}

/**
 * mpctl_load() - read devices and segments, reporting failure
 * @cmd: the command
 * @ctx: context
 *
 * Return: MPCTL_EXIT_OK or MPCTL_EXIT_FAIL (reported).
 */
int mpctl_load(const char *cmd, struct mp_ctx *ctx)
{
	return mpctl_load_failed(cmd, ctx, cmmmp_refresh(ctx));
}

/**
 * mpctl_load_failed() - report a failure to read the pool, as mpctl_load()
 * @cmd: the command
 * @ctx: context, with the error
 * @rc: 0 or the negative errno of the read
 *
 * Return: MPCTL_EXIT_OK for 0, else MPCTL_EXIT_FAIL (reported).
 */
int mpctl_load_failed(const char *cmd, struct mp_ctx *ctx, int rc)
{
	if (!rc)
		return MPCTL_EXIT_OK;
	if (rc == -EPERM || rc == -EACCES)
		return mpctl_fail_ctx(cmd, "reading the pool", ctx, rc,
				      "needs root");
	return mpctl_fail_ctx(cmd, "reading the pool", ctx, rc,
			      "cannot list devices and segments");
}

/* --format=N or --format N at argv[1]: how many words it took, or < 0. */
static int mpctl_parse_format(int argc, char **argv)
{
	const char *v = NULL;
	uint32_t n;
	int used = 1;

	if (!strncmp(argv[1], "--format=", 9)) {
		v = argv[1] + 9;
	} else if (argc > 2) {
		v = argv[2];
		used = 2;
	} else {
		return mpctl_usage_error("mpctl", "option '--format' needs a value");
	}
	if (mpctl_parse_u32(v, &n) || n < MPCTL_FORMAT_MIN || n > MPCTL_FORMAT)
		return -mpctl_usage_error("mpctl", "--format '%s': JSON formats are %d to %d",
					  v, MPCTL_FORMAT_MIN, MPCTL_FORMAT);
	mpctl_format = n;
	return used;
}

static int mpctl_version(int argc, char **argv)
{
	if (argc == 2) {
		printf("mpctl %s\n", MPCTL_VERSION);
		return MPCTL_EXIT_OK;
	}
	if (argc == 3 && (!strcmp(argv[2], "--json") || !strcmp(argv[2], "-j"))) {
		printf("{\"version\":\"%s\",\"format\":%d,\"formats\":[1,2]}\n",
		       MPCTL_VERSION, MPCTL_FORMAT);
		return MPCTL_EXIT_OK;
	}
	return mpctl_usage_error("mpctl", "--version: unexpected argument '%s'",
				 argv[2]);
}

static int mpctl_main(int argc, char **argv)
{
	const struct mpctl_cmd *cmd = NULL;
	char *hargv[4];
	struct mp_ctx *ctx;
	bool help;
	size_t i;
	int rc;

	if (argc >= 2 && (!strcmp(argv[1], "--format") ||
			  !strncmp(argv[1], "--format=", 9))) {
		rc = mpctl_parse_format(argc, argv);
		if (rc <= 0)
			return rc ? -rc : MPCTL_EXIT_USAGE;
		argv[rc] = argv[0];
		argv += rc;
		argc -= rc;
	}
	if (argc < 2)
		return mpctl_usage_error("mpctl", "missing command");
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return mpctl_version(argc, argv);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		mpctl_usage(stdout);
		return MPCTL_EXIT_OK;
	}
	help = !strcmp(argv[1], "help");
	if (help && argc > 3)
		return mpctl_usage_error("mpctl", "help: unexpected argument '%s'",
					 argv[3]);
	for (i = 0; i < ARRAY_SIZE(mpctl_cmds); i++)
		if (!strcmp(argv[help ? 2 : 1], mpctl_cmds[i].name))
			cmd = &mpctl_cmds[i];
	if (help) {
		/* "mpctl help CMD" is "mpctl CMD --help" */
		if (!cmd)
			return mpctl_usage_error("mpctl", "unknown command '%s'",
						 argv[2]);
		hargv[0] = argv[0];
		hargv[1] = (char *)cmd->name;
		hargv[2] = "--help";
		hargv[3] = NULL;
		argv = hargv;
		argc = 3;
	}
	if (!cmd) {
		if (argv[1][0] == '-')
			return mpctl_usage_error("mpctl", "unknown option '%s'",
						 argv[1]);
		return mpctl_usage_error("mpctl", "unknown command '%s'",
					 argv[1]);
	}

	rc = cmmmp_new(&ctx);
	if (rc)
		return mpctl_fail(cmd->name, "libmp", "cannot create a context: %s",
				  strerror(-rc));
	/* Commands parse their own options: argv[0] becomes their name. */
	rc = cmd->fn(ctx, argc - 1, argv + 1);
	cmmmp_unref(ctx);

	/* A full disk or closed pipe must not pass for success. */
	if (rc == MPCTL_EXIT_OK && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, "mpctl: %s: stdout: write error: %s\n",
			cmd->name, strerror(errno));
		return MPCTL_EXIT_FAIL;
	}
	return rc;
}

int main(int argc, char **argv)
{
	int rc = mpctl_main(argc, argv);

	/* format 1 knew only 0, 1 and 2 */
	if (mpctl_format < 2 && rc > MPCTL_EXIT_USAGE)
		rc = MPCTL_EXIT_FAIL;
	return rc;
}
