/* SPDX-License-Identifier: GPL-2.0 */
/* mpctl internals shared by the command files. */
#ifndef _MPCTL_H
#define _MPCTL_H

#include <stdbool.h>
#include <json-c/json.h>

#define LIBMP_NO_OLD_NAMES	/* mpctl uses the cmmmp_ names only */
#include "libmp.h"
#include "util/parse-options.h"
#include "util/util.h"

/*
 * Exit status: documented in Documentation/mpctl.rst. 3 and up came
 * with JSON format 2; --format=1 folds them into 1.
 */
enum {
	MPCTL_EXIT_OK = 0,
	MPCTL_EXIT_FAIL = 1,	/* the operation failed (any other reason) */
	MPCTL_EXIT_USAGE = UTIL_EXIT_USAGE,	/* bad command line */
	MPCTL_EXIT_NOTLOADED = 3,	/* the cmm_mp module is not loaded */
	MPCTL_EXIT_PERM = 4,	/* needs privilege (root) */
	MPCTL_EXIT_NOENT = 5,	/* no such segment, device or peer */
	MPCTL_EXIT_REFUSED = 6,	/* refused in the present state: busy,
				 * already so, held by another host,
				 * unmovable pages
				 */
};

/*
 * The JSON format: the key names and shapes of every object mpctl prints
 * (Documentation/mpctl.rst, "JSON format"). Bumped on any change that
 * can break a script; keys may be added within a format.
 */
#define MPCTL_FORMAT_MIN	1
#define MPCTL_FORMAT		2
extern unsigned int mpctl_format;	/* --format, else MPCTL_FORMAT */

/* Output flags for the JSON builders. */
#define MPCTL_HUMAN	BIT(0)	/* -u: sizes and addresses for people */
#define MPCTL_VERBOSE	BIT(1)	/* -v: every attribute */

/* The options several commands share, for their option tables. */
#define MPCTL_OPT_HUMAN(flags)						\
	OPT_BIT('u', "human", (flags), MPCTL_HUMAN,			\
		"sizes and addresses as human-readable strings")
#define MPCTL_OPT_VERBOSE(flags)					\
	OPT_BIT('v', "verbose", (flags), MPCTL_VERBOSE, "every attribute")

/* mpctl.c: errors, one line on stderr each */
__printf(2, 3)
int mpctl_usage_error(const char *cmd, const char *fmt, ...);
__printf(3, 4)
int mpctl_fail(const char *cmd, const char *what, const char *fmt, ...);
__printf(4, 5)
int mpctl_fail_code(int code, const char *cmd, const char *what,
		    const char *fmt, ...);
int mpctl_exit_of_errno(int err, bool kernel);
int mpctl_fail_ctx(const char *cmd, const char *what, struct mp_ctx *ctx,
		   int err, const char *reason);
int mpctl_load(const char *cmd, struct mp_ctx *ctx);
int mpctl_load_failed(const char *cmd, struct mp_ctx *ctx, int rc);
const char *mpctl_sysfs_root(void);

/* key.c: the ids of the keys mp_eth holds ("none", "7 8*"); "" if unknown */
void mpctl_key_ids(char *buf, size_t len);

/* json.c */
struct json_object *mpctl_seg_json(struct mp_segment *seg, unsigned int flags);
struct json_object *mpctl_json_size(uint64_t v, unsigned int flags);
struct json_object *mpctl_json_addr(uint64_t v, unsigned int flags);
const char *mpctl_seg_zone(struct mp_segment *seg);
struct json_object *mpctl_dev_json(struct mp_device *dev, unsigned int flags);
int mpctl_print_json(struct json_object *obj, bool pretty);
int mpctl_print_json_elem(struct json_object *obj, bool first);
int mpctl_print_json_end(bool empty);

/* the commands */
int cmd_list(struct mp_ctx *ctx, int argc, char **argv);
int cmd_online(struct mp_ctx *ctx, int argc, char **argv);
int cmd_offline(struct mp_ctx *ctx, int argc, char **argv);
int cmd_monitor(struct mp_ctx *ctx, int argc, char **argv);
int cmd_stats(struct mp_ctx *ctx, int argc, char **argv);
int cmd_apply_config(struct mp_ctx *ctx, int argc, char **argv);
int cmd_check_config(struct mp_ctx *ctx, int argc, char **argv);
int cmd_dvm(struct mp_ctx *ctx, int argc, char **argv);
int cmd_key(struct mp_ctx *ctx, int argc, char **argv);
int cmd_repair(struct mp_ctx *ctx, int argc, char **argv);

#endif /* _MPCTL_H */
