/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options from one table per command, in the spirit of
 * ndctl's util/parse-options: the table drives getopt_long() and writes
 * the usage line and the --help text, so that an option cannot be parsed
 * without being documented, nor documented without being parsed.
 *
 *	struct list_args a = { ... };
 *	const struct util_option opts[] = {
 *		OPT_STRING('d', "device", &a.dev, "DEV", "only device DEV"),
 *		OPT_BIT('u', "human", &a.flags, HUMAN, "sizes for people"),
 *		OPT_END(),
 *	};
 *	n = util_parse_options(&list_cmd, opts, argc, argv, &rc);
 *	if (n < 0)
 *		return rc;	(after --help: 0; a bad option: reported, 2)
 *
 * -h/--help is added to every table. Errors are one line on stderr:
 * "PROG: CMD: unknown option '--frob' (see 'PROG CMD --help')".
 */
#ifndef _UTIL_PARSE_OPTIONS_H
#define _UTIL_PARSE_OPTIONS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "util/util.h"

/* The exit status of a bad command line. */
#define UTIL_EXIT_USAGE		2

enum util_opt_type {
	UTIL_OPT_END,
	UTIL_OPT_BOOL,		/* bool *value = true */
	UTIL_OPT_BIT,		/* unsigned int *value |= bits */
	UTIL_OPT_SET_INT,	/* int *value = bits */
	UTIL_OPT_STRING,	/* const char **value = the argument */
	UTIL_OPT_CALLBACK,	/* cb(opt, the argument or NULL) */
};

struct util_option;

/* Return: 0, or the exit status after reporting what was wrong. */
typedef int (*util_opt_cb)(const struct util_option *opt, const char *arg);

/**
 * struct util_option - one option of a command
 * @type: what the option does with its value
 * @short_name: its letter, or 0 for a long option only
 * @long_name: its long name, without "--"
 * @value: what it sets (for a callback: the callback's own data)
 * @bits: UTIL_OPT_BIT's bits, UTIL_OPT_SET_INT's value
 * @argh: the name of its argument in the help ("DEV"), NULL if it takes none
 * @help: what it does; '\n' separates the lines of the help text
 * @cb: UTIL_OPT_CALLBACK's function
 * @optnum: the argument may be left out (the callback gets NULL); it is
 *	given as --name=ARG, -xARG, or as the next word when that begins
 *	with a digit (--name ARG), so that a number after the option is
 *	never taken for an operand
 */
struct util_option {
	enum util_opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	unsigned int bits;
	const char *argh;
	const char *help;
	util_opt_cb cb;
	bool optnum;
};

#define OPT_END()	{ .type = UTIL_OPT_END }
#define OPT_BOOLEAN(s, l, v, h) \
	{ .type = UTIL_OPT_BOOL, .short_name = (s), .long_name = (l), \
	  .value = (v), .help = (h) }
#define OPT_BIT(s, l, v, b, h) \
	{ .type = UTIL_OPT_BIT, .short_name = (s), .long_name = (l), \
	  .value = (v), .bits = (b), .help = (h) }
#define OPT_SET_INT(s, l, v, i, h) \
	{ .type = UTIL_OPT_SET_INT, .short_name = (s), .long_name = (l), \
	  .value = (v), .bits = (i), .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = UTIL_OPT_STRING, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h) }
#define OPT_CALLBACK(s, l, v, a, h, f) \
	{ .type = UTIL_OPT_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .cb = (f) }

/* A callback whose numeric argument may be left out (@optnum above). */
#define OPT_CALLBACK_OPTNUM(s, l, v, a, h, f) \
	{ .type = UTIL_OPT_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .cb = (f), .optnum = true }

/* Most options one table may hold. */
#define UTIL_OPT_MAX		24

/**
 * struct util_cmd - a command, as its usage and messages name it
 * @prog: the program ("mpctl")
 * @cmd: the command ("list"); NULL for the program itself
 * @sub: a subcommand written in the usage line ("set"), or NULL
 * @operands: what follows the options in the usage line ("[FILE]")
 * @operands_first: @operands come before the options ("SEGS [-u]")
 * @more_usage: further usage lines, or NULL (NULL-terminated)
 * @about: what the command does, a paragraph for --help, or NULL
 * @stop_at_operand: options end at the first operand (a command to run)
 * @help: prints --help instead of util_usage(), or NULL
 */
struct util_cmd {
	const char *prog;
	const char *cmd;
	const char *sub;
	const char *operands;
	bool operands_first;
	const char *const *more_usage;
	const char *about;
	bool stop_at_operand;
	void (*help)(FILE *f);
};

int util_parse_options(const struct util_cmd *c,
		       const struct util_option *opts, int argc, char **argv,
		       int *status);
void util_usage_line(FILE *f, const struct util_cmd *c,
		     const struct util_option *opts, bool first);
void util_options_help(FILE *f, const struct util_option *opts, bool help);
void util_usage(FILE *f, const struct util_cmd *c,
		const struct util_option *opts);

__printf(3, 4)
int util_usage_error(const char *prog, const char *cmd, const char *fmt, ...);
int util_usage_verror(const char *prog, const char *cmd, const char *fmt,
		      va_list ap);

#endif /* _UTIL_PARSE_OPTIONS_H */
