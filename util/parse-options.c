// SPDX-License-Identifier: GPL-2.0
/*
 * Option tables: getopt_long() driven by a table, and the usage line and
 * --help text written from the same table (parse-options.h).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/parse-options.h"

/* Column of an option's help text, as the hand-written texts had it. */
#define UTIL_HELP_COL		23

static const struct util_option util_help_opt =
	OPT_BOOLEAN('h', "help", NULL, "this text");

/**
 * util_usage_verror() - report a bad command line
 * @prog: the program
 * @cmd: the command, or NULL when none is known yet
 * @fmt: what is wrong
 * @ap: its arguments
 *
 * Prints one line, built first so that it reaches stderr in one write.
 *
 * Return: UTIL_EXIT_USAGE.
 */
int util_usage_verror(const char *prog, const char *cmd, const char *fmt,
		      va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fflush(stdout);
	if (cmd)
		fprintf(stderr, "%s: %s: %s (see '%s %s --help')\n", prog, cmd,
			msg, prog, cmd);
	else
		fprintf(stderr, "%s: %s (see '%s --help')\n", prog, msg, prog);
	return UTIL_EXIT_USAGE;
}

/**
 * util_usage_error() - report a bad command line
 * @prog: the program
 * @cmd: the command, or NULL when none is known yet
 * @fmt: what is wrong
 *
 * Return: UTIL_EXIT_USAGE.
 */
int util_usage_error(const char *prog, const char *cmd, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = util_usage_verror(prog, cmd, fmt, ap);
	va_end(ap);
	return rc;
}

static size_t util_nr_opts(const struct util_option *opts)
{
	size_t n = 0;

	while (opts[n].type != UTIL_OPT_END)
		n++;
	return n;
}

/*
 * " [-d DEV]" or " [--long=ARG]": one option in the usage line; an
 * argument that may be left out in brackets, " [-m [M]]".
 */
static void util_usage_opt(FILE *f, const struct util_option *o)
{
	const char *l = o->optnum ? "[" : "", *r = o->optnum ? "]" : "";

	if (o->short_name)
		fprintf(f, " [-%c%s%s%s%s]", o->short_name, o->argh ? " " : "",
			l, o->argh ? o->argh : "", r);
	else
		fprintf(f, " [--%s%s%s%s%s]", o->long_name, l,
			o->argh ? "=" : "", o->argh ? o->argh : "", r);
}

/**
 * util_usage_line() - the usage line of a command, from its table
 * @f: where to print it
 * @c: the command
 * @opts: its options
 * @first: begins with "usage: " (else aligned under such a line)
 */
void util_usage_line(FILE *f, const struct util_cmd *c,
		     const struct util_option *opts, bool first)
{
	const struct util_option *o;

	fprintf(f, "%s%s", first ? "usage: " : "       ", c->prog);
	if (c->cmd)
		fprintf(f, " %s", c->cmd);
	if (c->sub)
		fprintf(f, " %s", c->sub);
	if (c->operands && c->operands_first)
		fprintf(f, " %s", c->operands);
	for (o = opts; o->type != UTIL_OPT_END; o++)
		util_usage_opt(f, o);
	if (c->operands && !c->operands_first)
		fprintf(f, " %s", c->operands);
	fputc('\n', f);
}

static void util_option_help(FILE *f, const struct util_option *o)
{
	const char *h = o->help;
	int n;

	if (o->short_name)
		n = fprintf(f, "  -%c, --%s", o->short_name, o->long_name);
	else
		n = fprintf(f, "      --%s", o->long_name);
	if (o->argh)
		n += fprintf(f, o->optnum ? "[=%s]" : "=%s", o->argh);
	/* a name too long for its column puts the text on the next line */
	if (n >= UTIL_HELP_COL - 1) {
		fputc('\n', f);
		n = 0;
	}
	while (h) {
		const char *nl = strchr(h, '\n');
		int len = nl ? (int)(nl - h) : (int)strlen(h);

		fprintf(f, "%*s%.*s\n", UTIL_HELP_COL - n, "", len, h);
		n = 0;
		h = nl ? nl + 1 : NULL;
	}
}

/**
 * util_options_help() - the option list of --help, from the table
 * @f: where to print it
 * @opts: the options
 * @help: end with -h, --help
 */
void util_options_help(FILE *f, const struct util_option *opts, bool help)
{
	const struct util_option *o;

	for (o = opts; o->type != UTIL_OPT_END; o++)
		util_option_help(f, o);
	if (help)
		util_option_help(f, &util_help_opt);
}

/**
 * util_usage() - the --help text of a command
 * @f: where to print it
 * @c: the command
 * @opts: its options
 *
 * The usage line(s), the paragraph about the command, and its options.
 */
void util_usage(FILE *f, const struct util_cmd *c,
		const struct util_option *opts)
{
	const char *const *l;

	util_usage_line(f, c, opts, true);
	for (l = c->more_usage; l && *l; l++)
		fprintf(f, "       %s %s %s\n", c->prog, c->cmd, *l);
	if (c->about)
		fprintf(f, "\n%s", c->about);
	fputc('\n', f);
	util_options_help(f, opts, true);
}

/* What getopt_long() (opterr = 0) refused, in one line. */
static int util_getopt_error(const struct util_cmd *c, int ch, char **argv)
{
	const char *arg = argv[optind - 1];

	if (ch == ':')
		return util_usage_error(c->prog, c->cmd,
					"option '%s' needs a value", arg);
	if (optopt && strncmp(arg, "--", 2))
		return util_usage_error(c->prog, c->cmd,
					"unknown option '-%c'", optopt);
	return util_usage_error(c->prog, c->cmd, "unknown option '%s'", arg);
}

/* getopt_long()'s answer for option @i of the table */
static int util_opt_val(const struct util_option *o, size_t i)
{
	return o->short_name ? o->short_name : 256 + (int)i;
}

static int util_apply(const struct util_option *o, const char *arg)
{
	switch (o->type) {
	case UTIL_OPT_BOOL:
		*(bool *)o->value = true;
		return 0;
	case UTIL_OPT_BIT:
		*(unsigned int *)o->value |= o->bits;
		return 0;
	case UTIL_OPT_SET_INT:
		*(int *)o->value = (int)o->bits;
		return 0;
	case UTIL_OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case UTIL_OPT_CALLBACK:
		return o->cb(o, arg);
	case UTIL_OPT_END:
		break;
	}
	return 0;
}

/* The getopt_long() tables of @opts, -h/--help last. */
static void util_getopt_tables(const struct util_cmd *c,
			       const struct util_option *opts, size_t nr,
			       char *shorts, struct option *longs)
{
	size_t i, s = 0;

	if (c->stop_at_operand)
		shorts[s++] = '+';
	shorts[s++] = ':';	/* a missing value is ':', not '?' */
	for (i = 0; i <= nr; i++) {
		const struct util_option *o = i < nr ? &opts[i] : &util_help_opt;

		if (o->short_name) {
			shorts[s++] = (char)o->short_name;
			if (o->argh)
				shorts[s++] = ':';
			if (o->argh && o->optnum)
				shorts[s++] = ':';	/* "m::": optional */
		}
		longs[i] = (struct option) {
			.name = o->long_name,
			.has_arg = !o->argh ? no_argument :
				   o->optnum ? optional_argument :
				   required_argument,
			.val = util_opt_val(o, i),
		};
	}
	shorts[s] = '\0';
	longs[nr + 1] = (struct option) { 0 };
}

/**
 * util_parse_options() - parse a command's options from its table
 * @c: the command
 * @opts: its options, ending with OPT_END()
 * @argc: the argument count, argv[0] being the command
 * @argv: the arguments
 * @status: where the exit status goes when the command is to end now
 *
 * The operands (what is not an option) are moved to argv[0] on and
 * followed by NULL.
 *
 * Return: the number of operands; -1 when the command is to end with
 * *@status: 0 after --help, UTIL_EXIT_USAGE (reported) for a bad option,
 * or what a callback returned.
 */
int util_parse_options(const struct util_cmd *c,
		       const struct util_option *opts, int argc, char **argv,
		       int *status)
{
	struct option longs[UTIL_OPT_MAX + 2];
	char shorts[3 * UTIL_OPT_MAX + 6];
	size_t nr = util_nr_opts(opts), i;
	int ch, rc, n;

	if (nr > UTIL_OPT_MAX) {
		*status = util_usage_error(c->prog, c->cmd,
					   "internal: too many options");
		return -1;
	}
	util_getopt_tables(c, opts, nr, shorts, longs);
	opterr = 0;
	optind = 0;	/* glibc: start over, reading the ordering ('+') again */
	while ((ch = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (ch == 'h') {
			if (c->help)
				c->help(stdout);
			else
				util_usage(stdout, c, opts);
			*status = 0;
			return -1;
		}
		for (i = 0; i < nr; i++)
			if (ch == util_opt_val(&opts[i], i))
				break;
		if (i == nr) {
			*status = util_getopt_error(c, ch, argv);
			return -1;
		}
		/*
		 * "--mirror 5": getopt_long() takes an optional argument only
		 * as "--mirror=5"; the next word is taken here when it is a
		 * number, as getopt_long() takes a required one (it then
		 * counts it among the options it moved past).
		 */
		if (opts[i].optnum && !optarg && optind < argc &&
		    argv[optind][0] >= '0' && argv[optind][0] <= '9')
			optarg = argv[optind++];
		rc = util_apply(&opts[i], optarg);
		if (rc) {
			*status = rc;
			return -1;
		}
	}
	n = argc - optind;
	memmove(argv, argv + optind, (size_t)n * sizeof(*argv));
	argv[n] = NULL;
	return n;
}
