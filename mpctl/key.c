// SPDX-License-Identifier: GPL-2.0
/*
 * mpctl key: the pool key (Documentation/security.rst). The key is read
 * from a file or stdin, never from the command line (other users see that
 * in /proc), handed to the pool over the cmm_mp generic netlink family
 * (cmmmp_pool_set_key(), CAP_SYS_ADMIN), which gives it to its backend
 * (mp_eth), and wiped from this process's memory; nothing prints it. The
 * output is the key ids mp_eth now holds, as JSON.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "mpctl.h"
#include "util/sysfs.h"

/* where mp_eth shows the ids of the keys it holds, under sysfs */
#define KEY_IDS_PATH	"class/misc/mp_eth/key_ids"

struct key_args {
	int op;			/* enum mp_key_op */
	uint32_t id;		/* -i */
};

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* 32 hex digits, surrounding white space allowed; 0 or -EINVAL. */
static int parse_key(const char *s, size_t n, uint8_t *key)
{
	size_t i = 0, d = 0;
	int hi, lo;

	while (i < n && strchr(" \t\r\n", s[i]))
		i++;
	for (; d < MP_KEY_LEN; d++, i += 2) {
		if (i + 1 >= n)
			return -EINVAL;
		hi = hexval(s[i]);
		lo = hexval(s[i + 1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		key[d] = (uint8_t)(hi << 4 | lo);
	}
	for (; i < n; i++)
		if (!strchr(" \t\r\n", s[i]))
			return -EINVAL;
	return 0;
}

static bool key_is_zero(const uint8_t *key)
{
	uint8_t acc = 0;
	size_t i;

	for (i = 0; i < MP_KEY_LEN; i++)
		acc |= key[i];
	return !acc;
}

/* Read the key from @path (stdin when NULL); wipes what it read. */
static int key_read(const char *path, uint8_t *key)
{
	int fd = STDIN_FILENO, rc;
	char buf[256];
	size_t n = 0;
	ssize_t r;

	if (path) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return mpctl_fail("key", path, "%s", strerror(errno));
	}
	while (n < sizeof(buf) && (r = read(fd, buf + n, sizeof(buf) - n)) > 0)
		n += (size_t)r;
	if (fd != STDIN_FILENO)
		close(fd);
	rc = parse_key(buf, n, key);
	explicit_bzero(buf, sizeof(buf));
	if (rc)
		return mpctl_fail("key", "reading the key", "%s",
				  "need 32 hexadecimal digits (128 bits)");
	if (key_is_zero(key))
		return mpctl_fail("key", "reading the key", "%s",
				  "an all-zero key is no secret: generate one, e.g. from /dev/urandom");
	return MPCTL_EXIT_OK;
}

/* What a refusal of the key means, by errno. */
static const char *key_reason(struct mp_ctx *ctx, int err)
{
	bool kernel = cmmmp_get_last_error_origin(ctx) == MP_ERR_KERNEL;

	switch (-err) {
	case EPERM:
	case EACCES:
		return "needs root";
	case ENODEV:
	case EOPNOTSUPP:
		return kernel ? "no backend (is mp_eth loaded?)" : NULL;
	case EINVAL:
		return "refused as invalid";
	default:
		return "failed";
	}
}

/**
 * mpctl_key_ids() - the ids of the keys mp_eth holds, as it shows them
 * @buf: receives "none", "7*", "7 8*"...; "" when mp_eth is not loaded
 * @len: its size
 */
void mpctl_key_ids(char *buf, size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", mpctl_sysfs_root(), KEY_IDS_PATH);
	util_read_line(path, buf, len);
}

static int key_ids_json(void)
{
	struct json_object *o = json_object_new_object();
	char ids[64];

	mpctl_key_ids(ids, sizeof(ids));
	if (!o)
		return mpctl_fail("key", NULL, "%s", strerror(ENOMEM));
	json_object_object_add(o, "key_ids", json_object_new_string(ids));
	return mpctl_print_json(o, true) ? MPCTL_EXIT_FAIL : MPCTL_EXIT_OK;
}

/* Hand the pool @key (NULL to clear), then print the ids it holds. */
static int key_send(struct mp_ctx *ctx, const struct key_args *a,
		    const uint8_t *key)
{
	int err = cmmmp_pool_set_key(ctx, (enum mp_key_op)a->op, a->id, key);

	if (err)
		return mpctl_fail_ctx("key", "giving mp_eth the key", ctx, err,
				      key_reason(ctx, err));
	return key_ids_json();
}

/* -i: the key id carried in every tag */
static int opt_id(const struct util_option *opt, const char *arg)
{
	if (mpctl_parse_u32(arg, opt->value))
		return mpctl_usage_error("key", "invalid key id '%s'", arg);
	return 0;
}

static const char *const key_more_usage[] = { "clear", NULL };

static const struct util_cmd key_cmd = {
	.prog = "mpctl",
	.cmd = "key",
	.sub = "set",
	.operands = "[FILE]",
	.more_usage = key_more_usage,
	.about =
"Give mp_eth the pool key: 32 hexadecimal digits (128 bits) read from\n"
"FILE or, without it, from stdin. With a key every frame mp_eth sends\n"
"carries a SipHash-2-4 tag and frames without a valid one are dropped.\n"
"Rotation without losing requests: 'key set -a' with the new key on\n"
"every host, then 'key set' with it on every host. 'key clear' forgets\n"
"every key. Root only; the key is never printed.\n",
};

int cmd_key(struct mp_ctx *ctx, int argc, char **argv)
{
	struct key_args a = { .op = MP_KEY_SET, .id = 1 };
	const struct util_option opts[] = {
		OPT_SET_INT('a', "accept-only", &a.op, MP_KEY_ACCEPT,
			    "accept frames tagged with this key, do not sign\n"
			    "with it yet"),
		OPT_CALLBACK('i', "id", &a.id, "ID",
			     "key id carried in every tag (default 1)", opt_id),
		OPT_END(),
	};
	uint8_t key[MP_KEY_LEN];
	const char *sub;
	int n, rc;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		util_usage(stdout, &key_cmd, opts);
		return MPCTL_EXIT_OK;
	}
	if (argc < 2)
		return mpctl_usage_error("key", "set or clear?");
	/* mpctl key SUBCOMMAND [OPTIONS] [FILE]: parsed from SUBCOMMAND on */
	sub = argv[1];
	argv++;
	n = util_parse_options(&key_cmd, opts, argc - 1, argv, &rc);
	if (n < 0)
		return rc;
	if (!strcmp(sub, "clear")) {
		if (n)
			return mpctl_usage_error("key", "unexpected argument '%s'",
						 argv[0]);
		a.op = MP_KEY_CLEAR;
		return key_send(ctx, &a, NULL);
	}
	if (strcmp(sub, "set"))
		return mpctl_usage_error("key", "unknown subcommand '%s'", sub);
	if (n > 1)
		return mpctl_usage_error("key", "unexpected argument '%s'",
					 argv[1]);
	rc = key_read(n ? argv[0] : NULL, key);
	if (!rc)
		rc = key_send(ctx, &a, key);
	explicit_bzero(key, sizeof(key));
	return rc;
}
