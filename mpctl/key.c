// SPDX-License-Identifier: GPL-2.0
/*
 * mpctl key: the pool key of the mp_eth transport (Documentation/
 * security.rst). The key is read from a file or stdin, never from the
 * command line (other users see that in /proc), handed to mp_eth through
 * /dev/mp_eth (root only) and wiped from this process's memory; nothing
 * prints it. The output is the key ids mp_eth now holds, as JSON.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/mp_eth_test.h>

#include "args.h"
#include "mpctl.h"

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
static int parse_key(const char *s, size_t n, __u8 *key)
{
	size_t i = 0, d = 0;
	int hi, lo;

	while (i < n && strchr(" \t\r\n", s[i]))
		i++;
	for (; d < MPE_KEY_LEN; d++, i += 2) {
		if (i + 1 >= n)
			return -EINVAL;
		hi = hexval(s[i]);
		lo = hexval(s[i + 1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		key[d] = (__u8)(hi << 4 | lo);
	}
	for (; i < n; i++)
		if (!strchr(" \t\r\n", s[i]))
			return -EINVAL;
	return 0;
}

static bool key_is_zero(const __u8 *key)
{
	__u8 acc = 0;
	size_t i;

	for (i = 0; i < MPE_KEY_LEN; i++)
		acc |= key[i];
	return !acc;
}

static void wipe(void *p, size_t n)
{
	volatile unsigned char *v = p;

	while (n--)
		*v++ = 0;
}

static int key_ids_json(void)
{
	struct json_object *o = json_object_new_object();
	char ids[64] = "";
	FILE *f = fopen("/sys/class/misc/mp_eth/key_ids", "r");

	if (f) {
		if (!fgets(ids, sizeof(ids), f))
			ids[0] = 0;
		fclose(f);
	}
	ids[strcspn(ids, "\n")] = 0;
	if (!o)
		return mpctl_fail("key", NULL, "%s", strerror(ENOMEM));
	json_object_object_add(o, "key_ids", json_object_new_string(ids));
	return mpctl_print_json(o, true) ? MPCTL_EXIT_FAIL : MPCTL_EXIT_OK;
}

static int key_ioctl(struct mpe_test_key *k)
{
	int fd = open(MPE_TEST_DEVICE, O_RDWR | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return mpctl_fail("key", MPE_TEST_DEVICE, "%s%s", strerror(errno),
				  errno == ENOENT ? " (is mp_eth loaded?)" :
				  errno == EACCES ? " (needs root)" : "");
	if (ioctl(fd, MPE_IOC_KEY, k))
		ret = mpctl_fail("key", "giving mp_eth the key", "%s%s",
				 strerror(errno),
				 errno == EPERM ? " (needs root)" : "");
	close(fd);
	return ret;
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
	struct mpe_test_key k = { .op = MPE_KEY_SET, .id = 1 };
	int op = MPE_KEY_SET;
	const struct util_option opts[] = {
		OPT_SET_INT('a', "accept-only", &op, MPE_KEY_ACCEPT,
			    "accept frames tagged with this key, do not sign\n"
			    "with it yet"),
		OPT_CALLBACK('i', "id", &k.id, "ID",
			     "key id carried in every tag (default 1)", opt_id),
		OPT_END(),
	};
	char buf[256];
	size_t n = 0;
	ssize_t r;
	int fd = STDIN_FILENO, ret, nargs;
	const char *sub;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		util_usage(stdout, &key_cmd, opts);
		return MPCTL_EXIT_OK;
	}
	if (argc < 2)
		return mpctl_usage_error("key", "set or clear?");
	/* mpctl key SUBCOMMAND [OPTIONS] [FILE] */
	sub = argv[1];
	nargs = util_parse_options(&key_cmd, opts, argc - 1, argv + 1, &ret);
	if (nargs < 0)
		return ret;
	argv++;
	k.op = op;
	if (!strcmp(sub, "clear")) {
		if (nargs)
			return mpctl_usage_error("key", "unexpected argument '%s'",
						 argv[0]);
		k.op = MPE_KEY_CLEAR;
		return key_ioctl(&k) ? MPCTL_EXIT_FAIL : key_ids_json();
	}
	if (strcmp(sub, "set"))
		return mpctl_usage_error("key", "unknown subcommand '%s'", sub);
	if (nargs > 1)
		return mpctl_usage_error("key", "unexpected argument '%s'",
					 argv[1]);
	if (nargs) {
		fd = open(argv[0], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return mpctl_fail("key", argv[0], "%s",
					  strerror(errno));
	}
	while (n < sizeof(buf) && (r = read(fd, buf + n, sizeof(buf) - n)) > 0)
		n += (size_t)r;
	if (fd != STDIN_FILENO)
		close(fd);
	ret = parse_key(buf, n, k.key);
	wipe(buf, sizeof(buf));
	if (ret) {
		wipe(&k, sizeof(k));
		return mpctl_fail("key", "reading the key", "%s",
				  "need 32 hexadecimal digits (128 bits)");
	}
	if (key_is_zero(k.key)) {
		return mpctl_fail("key", "reading the key", "%s",
				  "an all-zero key is no secret: generate one, e.g. from /dev/urandom");
	}
	ret = key_ioctl(&k);
	wipe(&k, sizeof(k));
	return ret ? MPCTL_EXIT_FAIL : key_ids_json();
}
