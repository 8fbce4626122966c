// SPDX-License-Identifier: GPL-2.0
/*
 * mpbench: latency and bandwidth of one memory target.
 *
 *   mpbench [-t TARGET] [-s SIZE] [-j THREADS] [-d SECONDS] [-c CHUNK]
 *           [--seed N] [--json] [--verify] TEST...
 *
 * TARGET: sys | node:N | mmap:PATH | pio:PATH. TEST: latency, read, 3:1,
 * 2:1, 1:1 (read:write lines), triad, or all. --verify writes a pattern
 * through the target after the tests and reads it back; a mismatch exits
 * 1. Exit status: 0 ok, 1 a test or the verification failed, 2 usage.
 * Documentation/performance.rst, "mpbench".
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "mp_seg.h"
#include "mpbench.h"

struct mpb_test {
	const char *name;
	unsigned int reads, writes;	/* 0:0 triad; latency is separate */
};

static const struct mpb_test mpb_tests[] = {
	{ "latency", 0, 0 },
	{ "read", 1, 0 },
	{ "3:1", 3, 1 },
	{ "2:1", 2, 1 },
	{ "1:1", 1, 1 },
	{ "triad", 0, 0 },
};

#define MPB_NR_TESTS	ARRAY_SIZE(mpb_tests)

static void mpb_usage(FILE *f)
{
	fprintf(f,
		"usage: mpbench [-t TARGET] [-s SIZE] [-j THREADS] [-d SECONDS] [-c CHUNK]\n"
		"               [--seed N] [--json] [--verify] TEST...\n"
		"  TARGET  sys (default), node:N, mmap:PATH, pio:PATH\n"
		"  TEST    latency read 3:1 2:1 1:1 triad all\n");
}

static int mpb_size_arg(const char *s, size_t *v)
{
	const char *end;
	u64 x;

	if (mp_parse_size(s, &x, &end) || *end || !x || x > SIZE_MAX)
		return -EINVAL;
	*v = (size_t)x;
	return 0;
}

static int mpb_run_test(struct mpb_target *t, const struct mpb_opts *o,
			const struct mpb_test *test, struct mpb_result *r)
{
	memset(r, 0, sizeof(*r));
	r->test = test->name;
	if (!strcmp(test->name, "latency"))
		return mpb_lat(t, o, r);
	return mpb_bw(t, o, test->reads, test->writes, r);
}

static void mpb_report(struct json_object *arr, const struct mpb_target *t,
		       const struct mpb_result *r, int err, bool json)
{
	struct json_object *o;

	if (!json) {
		if (err)
			printf("%-18s %-8s %s\n", t->spec, r->test,
			       err == -EOPNOTSUPP ? "skipped" : strerror(-err));
		else
			printf("%-18s %-8s %12.1f %s\n", t->spec, r->test,
			       r->value, r->unit);
		return;
	}
	o = json_object_new_object();
	if (!o)
		return;
	json_object_object_add(o, "target", json_object_new_string(t->spec));
	json_object_object_add(o, "test", json_object_new_string(r->test));
	if (err) {
		const char *why = err == -EOPNOTSUPP ? "skipped" :
				  strerror(-err);

		json_object_object_add(o, "error", json_object_new_string(why));
	} else {
		json_object_object_add(o, "value", json_object_new_double(r->value));
		json_object_object_add(o, "unit", json_object_new_string(r->unit));
		json_object_object_add(o, "ops", json_object_new_uint64(r->ops));
	}
	json_object_array_add(arr, o);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "target", required_argument, NULL, 't' },
		{ "size", required_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 'j' },
		{ "seconds", required_argument, NULL, 'd' },
		{ "chunk", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'J' },
		{ "verify", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct mpb_opts o = { .threads = 1, .seconds = 1.0, .chunk = 1 << 20,
			      .seed = 42 };
	bool want[MPB_NR_TESTS] = { false }, json = false, verify = false;
	const char *spec = "sys";
	struct json_object *arr = NULL;
	struct mpb_target t;
	size_t size = 64 << 20;
	int c, i, ret, rc = 0;
	unsigned int k;
	char *end;

	while ((c = getopt_long(argc, argv, "t:s:j:d:c:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 't':
			spec = optarg;
			break;
		case 's':
			if (mpb_size_arg(optarg, &size))
				goto bad;
			break;
		case 'c':
			if (mpb_size_arg(optarg, &o.chunk))
				goto bad;
			break;
		case 'j':
			o.threads = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || !o.threads || o.threads > 256)
				goto bad;
			break;
		case 'd':
			o.seconds = strtod(optarg, &end);
			if (*end || !(o.seconds > 0 && o.seconds <= 3600))
				goto bad;
			break;
		case 'S':
			o.seed = strtoull(optarg, &end, 0);
			if (*end)
				goto bad;
			break;
		case 'J':
			json = true;
			break;
		case 'V':
			verify = true;
			break;
		case 'h':
			mpb_usage(stdout);
			return 0;
		default:
			mpb_usage(stderr);
			return 2;
		}
	}
	for (i = optind; i < argc; i++) {
		bool found = false;

		for (k = 0; k < MPB_NR_TESTS; k++) {
			if (!strcmp(argv[i], "all") ||
			    !strcmp(argv[i], mpb_tests[k].name)) {
				want[k] = true;
				found = true;
			}
		}
		if (!found) {
			fprintf(stderr, "mpbench: unknown test '%s'\n", argv[i]);
			mpb_usage(stderr);
			return 2;
		}
	}
	if (optind == argc && !verify) {
		mpb_usage(stderr);
		return 2;
	}
	if (mpb_target_parse(spec, &t)) {
		fprintf(stderr, "mpbench: bad target '%s'\n", spec);
		mpb_usage(stderr);
		return 2;
	}
	ret = mpb_target_open(&t, size);
	if (ret) {
		fprintf(stderr, "mpbench: %s: %s\n", spec, strerror(-ret));
		mpb_target_close(&t);
		return 1;
	}
	if (json)
		arr = json_object_new_array();
	for (k = 0; k < MPB_NR_TESTS; k++) {
		struct mpb_result r;

		if (!want[k])
			continue;
		ret = mpb_run_test(&t, &o, &mpb_tests[k], &r);
		mpb_report(arr, &t, &r, ret, json);
		if (ret && ret != -EOPNOTSUPP)
			rc = 1;
	}
	if (verify) {
		struct mpb_result r = { .test = "verify", .unit = "bad words" };
		uint64_t bad;

		ret = mpb_verify(&t, &o, &bad);
		r.value = (double)bad;
		r.ops = t.size;
		if (ret == -EIO)
			fprintf(stderr, "mpbench: %s: %llu words read back wrong\n",
				spec, (unsigned long long)bad);
		mpb_report(arr, &t, &r, ret, json);
		if (ret)
			rc = 1;
	}
	if (json) {
		int flags = JSON_C_TO_STRING_PRETTY |
			    JSON_C_TO_STRING_NOSLASHESCAPE;

		printf("%s\n", json_object_to_json_string_ext(arr, flags));
		json_object_put(arr);
	}
	mpb_target_close(&t);
	return rc;
bad:
	fprintf(stderr, "mpbench: bad value '%s' for -%c\n", optarg, c);
	mpb_usage(stderr);
	return 2;
}
