// SPDX-License-Identifier: GPL-2.0
/*
 * mpctl dvm: run unmodified programs with an identity-mapped (DVM) heap.
 *
 *	mpctl dvm run [--min-size S] [--strict] [--stat] -- CMD [ARGS...]
 *	mpctl dvm stat [-u] PID
 *
 * run turns on the kernel's DVM mode with PR_DVM_INHERIT, preloads
 * libmp-dvm.so with Debian's jemalloc and executes CMD; stat reports how
 * much of a process's heap is identity mapped.  Documentation/dvm-heap.rst.
 * What the launcher shares with the preload library is libmp-dvmctl's
 * (libmp-dvm/mp_dvmctl.h); this file is the command line and the JSON.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/dvm.h>

#include "args.h"
#include "mp_dvmctl.h"
#include "mpctl.h"

/* "2M", "4096", "1G": bytes; 0 on success */
static int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -EINVAL;
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	}
	if (shift)
		end++;
	if (*end == 'i' && shift)
		end++;
	if ((*end == 'B' || *end == 'b') && shift)
		end++;
	if (*end || v > (UINT64_MAX >> shift))
		return -EINVAL;
	*out = (uint64_t)v << shift;
	return 0;
}

struct dvm_run_args {
	struct mp_dvm_run run;	/* --strict, --stat, --lib */
	bool have_min;
	uint64_t min;		/* --min-size */
};

struct dvm_stat_args {
	unsigned int flags;
};

static struct dvm_run_args run_args;
static struct dvm_stat_args stat_args;

/* run -m: vm.dvm_min_bytes */
static int opt_min_size(const struct util_option *opt, const char *arg)
{
	struct dvm_run_args *a = opt->value;

	if (parse_size(arg, &a->min) || a->min < MP_DVM_MIN_BYTES_MIN)
		return mpctl_usage_error("dvm",
			"invalid --min-size '%s' (at least 4096 bytes)", arg);
	a->have_min = true;
	return 0;
}

static const struct util_option run_opts[] = {
	OPT_CALLBACK('m', "min-size", &run_args, "S",
		     "set vm.dvm_min_bytes (system-wide) to S (K, M, G)",
		     opt_min_size),
	OPT_BOOLEAN('s', "strict", &run_args.run.strict,
		    "a heap chunk that cannot be identity mapped fails the\n"
		    "allocation (malloc returns NULL) instead of falling\n"
		    "back to demand paging"),
	OPT_BOOLEAN('S', "stat", &run_args.run.stat,
		    "print a summary of the heap on stderr at exit"),
	OPT_STRING('l', "lib", &run_args.run.lib, "PATH",
		   "the libmp-dvm.so to preload"),
	OPT_END(),
};

static const struct util_option stat_opts[] = {
	OPT_BIT('u', "human", &stat_args.flags, MPCTL_HUMAN, "sizes for people"),
	OPT_END(),
};

static void dvm_help(FILE *f);

static const struct util_cmd dvm_run_cmd = {
	.prog = "mpctl",
	.cmd = "dvm",
	.sub = "run",
	.operands = "-- CMD [ARGS...]",
	.stop_at_operand = true,
	.about =
"run: execute CMD with its heap identity mapped (VA == PA): turns on the\n"
"kernel's DVM mode for CMD and its children (prctl PR_DVM_ON|PR_DVM_INHERIT,\n"
"needs root and the DVM kernel), preloads libmp-dvm.so and jemalloc.\n",
	.help = dvm_help,
};

static const struct util_cmd dvm_stat_cmd = {
	.prog = "mpctl",
	.cmd = "dvm",
	.sub = "stat",
	.operands = "PID",
	.about =
"stat: identity-mapped and fallback heap bytes, reasons and the identity\n"
"share of a process run by 'mpctl dvm run' (JSON); of other processes the\n"
"kernel's view only.\n",
	.help = dvm_help,
};

/* Both subcommands in one text. */
static void dvm_help(FILE *f)
{
	util_usage_line(f, &dvm_run_cmd, run_opts, true);
	util_usage_line(f, &dvm_stat_cmd, stat_opts, false);
	fprintf(f, "\n%s", dvm_run_cmd.about);
	util_options_help(f, run_opts, false);
	fprintf(f, "\n%s", dvm_stat_cmd.about);
	util_options_help(f, stat_opts, true);
}

static int dvm_run(int argc, char **argv)
{
	struct dvm_run_args *a = &run_args;
	char lib[PATH_MAX];
	const char *what;
	int n, rc;

	n = util_parse_options(&dvm_run_cmd, run_opts, argc, argv, &rc);
	if (n < 0)
		return rc;
	if (!n)
		return mpctl_usage_error("dvm", "run: missing command");

	rc = mp_dvm_find_lib(a->run.lib, lib, sizeof(lib));
	if (rc)
		return mpctl_fail("dvm", "libmp-dvm.so",
				  "not found (--lib or MP_DVM_LIB): %s",
				  strerror(-rc));
	rc = mp_dvm_mode_on();
	if (rc == -EPERM)
		return mpctl_fail("dvm", "DVM mode", "needs CAP_SYS_ADMIN: %s",
				  strerror(-rc));
	if (rc)
		return mpctl_fail("dvm", "DVM mode",
				  "the kernel has no DVM (not the patched kernel?): %s",
				  strerror(-rc));
	if (a->have_min) {
		rc = mp_dvm_set_min_bytes(a->min);
		if (rc)
			return mpctl_fail("dvm", DVM_SYSCTL_MIN_BYTES,
					  "cannot set %llu: %s",
					  (unsigned long long)a->min, strerror(-rc));
	}
	rc = mp_dvm_prepare(&a->run, lib, &what);
	if (rc && strcmp(what, "environment"))
		return mpctl_fail("dvm", what, "cannot create: %s",
				  strerror(-rc));
	if (rc)
		return mpctl_fail("dvm", what, "%s", strerror(-rc));
	fflush(stdout);
	execvp(argv[0], argv);
	rc = errno;
	mpctl_fail("dvm", argv[0], "cannot execute: %s", strerror(rc));
	return rc == ENOENT ? 127 : 126;
}

/* ---- stat ---- */

static struct json_object *share_json(uint64_t part, uint64_t whole)
{
	double v = whole ? 100.0 * (double)part / (double)whole : 0.0;
	char buf[16];

	snprintf(buf, sizeof(buf), "%.1f", v);
	return json_object_new_double_s(v, buf);
}

static void add(struct json_object *o, const char *k, struct json_object *v,
		bool *ok)
{
	if (!v || json_object_object_add(o, k, v)) {
		json_object_put(v);
		*ok = false;
	}
}

static struct json_object *reasons_json(const uint64_t *chunks,
					const uint64_t *bytes,
					unsigned int flags, bool *ok)
{
	struct json_object *o = json_object_new_object(), *r;
	unsigned int i;

	if (!o) {
		*ok = false;
		return NULL;
	}
	for (i = 0; i < MP_DVM_FB_NR; i++) {
		if (!chunks[i])
			continue;
		r = json_object_new_object();
		if (!r) {
			*ok = false;
			continue;
		}
		add(r, "chunks", json_object_new_uint64(chunks[i]), ok);
		add(r, "bytes", mpctl_json_size(bytes[i], flags), ok);
		add(o, mp_dvm_reason_name(i), r, ok);
	}
	return o;
}

static struct json_object *heap_json(const struct mp_dvm_stats *st,
				     unsigned int flags, bool *ok)
{
	struct json_object *o = json_object_new_object();
	uint64_t fb = 0, fbc = 0, heap;
	unsigned int i;

	if (!o) {
		*ok = false;
		return NULL;
	}
	for (i = 0; i < MP_DVM_FB_NR; i++) {
		fb += st->fallback_bytes[i];
		fbc += st->fallback_chunks[i];
	}
	heap = st->identity_bytes + fb;
	add(o, "dvm_mode", json_object_new_boolean(st->flags & MP_DVM_F_MODE_ON), ok);
	add(o, "strict", json_object_new_boolean(st->flags & MP_DVM_F_STRICT), ok);
	add(o, "jemalloc", json_object_new_boolean(st->flags & MP_DVM_F_JEMALLOC), ok);
	add(o, "jemalloc_conf_ok",
	    json_object_new_boolean(st->flags & MP_DVM_F_CONF_OK), ok);
	add(o, "arenas", json_object_new_int64(st->arenas), ok);
	add(o, "min_bytes", mpctl_json_size(st->min_bytes, flags), ok);
	add(o, "bytes", mpctl_json_size(heap, flags), ok);
	add(o, "identity_bytes", mpctl_json_size(st->identity_bytes, flags), ok);
	add(o, "fallback_bytes", mpctl_json_size(fb, flags), ok);
	add(o, "identity_share", share_json(st->identity_bytes, heap), ok);
	add(o, "identity_chunks", json_object_new_uint64(st->identity_chunks), ok);
	add(o, "fallback_chunks", json_object_new_uint64(fbc), ok);
	add(o, "fallback", reasons_json(st->fallback_chunks,
					st->fallback_bytes, flags, ok), ok);
	add(o, "refused", reasons_json(st->refused_chunks, st->refused_bytes,
				       flags, ok), ok);
	add(o, "prehook_bytes", mpctl_json_size(st->prehook_bytes, flags), ok);
	add(o, "prehook_frees_kept", json_object_new_uint64(st->prehook_frees), ok);
	add(o, "thread_stacks", json_object_new_uint64(st->thread_stacks), ok);
	add(o, "thread_stack_bytes", mpctl_json_size(st->thread_stack_bytes, flags), ok);
	add(o, "thread_stacks_freed", json_object_new_uint64(st->thread_stacks_freed), ok);
	add(o, "thread_stack_bytes_kept", mpctl_json_size(st->thread_stack_bytes_kept, flags), ok);
	return o;
}

static struct json_object *memory_json(const struct dvm_smaps *sm,
				       unsigned int flags, bool *ok)
{
	struct json_object *o = json_object_new_object();

	if (!o) {
		*ok = false;
		return NULL;
	}
	add(o, "anonymous_bytes", mpctl_json_size(sm->anon_bytes, flags), ok);
	add(o, "identity_bytes", mpctl_json_size(sm->identity_bytes, flags), ok);
	add(o, "identity_share", share_json(sm->identity_bytes, sm->anon_bytes), ok);
	add(o, "identity_areas", json_object_new_uint64(sm->id_areas), ok);
	add(o, "identity_area_bytes", mpctl_json_size(sm->id_area_bytes, flags), ok);
	return o;
}

/* the kernel's dvm_* event counters (since boot, all processes) */
static struct json_object *vmstat_json(bool *ok)
{
	struct json_object *o = json_object_new_object();
	unsigned long long v;
	char name[64];
	FILE *f;

	if (!o) {
		*ok = false;
		return NULL;
	}
	f = fopen("/proc/vmstat", "re");
	if (!f)
		return o;
	while (fscanf(f, "%63s %llu", name, &v) == 2)
		if (!strncmp(name, "dvm_", 4))
			add(o, name, json_object_new_uint64(v), ok);
	fclose(f);
	return o;
}

static int dvm_stat(int argc, char **argv)
{
	unsigned int flags;
	struct json_object *o;
	struct mp_dvm_stats st;
	struct dvm_smaps sm;
	bool ok = true, have_stats;
	uint32_t pid;
	int n, rc;

	n = util_parse_options(&dvm_stat_cmd, stat_opts, argc, argv, &rc);
	if (n < 0)
		return rc;
	flags = stat_args.flags;
	if (!n)
		return mpctl_usage_error("dvm", "stat: missing PID");
	if (mpctl_parse_u32(argv[0], &pid) || !pid || pid > INT_MAX)
		return mpctl_usage_error("dvm", "stat: invalid PID '%s'",
					 argv[0]);
	if (n > 1)
		return mpctl_usage_error("dvm", "stat: unexpected argument '%s'",
					 argv[1]);

	rc = mp_dvm_read_smaps((int)pid, &sm);
	if (rc == -ENOENT || rc == -ESRCH)
		return mpctl_fail("dvm", "stat", "no process %u: %s", pid,
				  strerror(ESRCH));
	if (rc)
		return mpctl_fail("dvm", "stat", "cannot read /proc/%u/smaps%s: %s",
				  pid, rc == -EACCES ? " (needs root)" : "",
				  strerror(-rc));
	/* only a process run under libmp-dvm.so has them */
	have_stats = !mp_dvm_read_stats((int)pid, &st);

	o = json_object_new_object();
	if (!o)
		return mpctl_fail("dvm", NULL, "%s", strerror(ENOMEM));
	add(o, "pid", json_object_new_int64(pid), &ok);
	if (have_stats)
		add(o, "heap", heap_json(&st, flags, &ok), &ok);
	add(o, "memory", memory_json(&sm, flags, &ok), &ok);
	add(o, "vmstat", vmstat_json(&ok), &ok);
	if (!ok) {
		json_object_put(o);
		return mpctl_fail("dvm", NULL, "%s", strerror(ENOMEM));
	}
	if (mpctl_print_json(o, true))
		return mpctl_fail("dvm", NULL, "%s", strerror(ENOMEM));
	return MPCTL_EXIT_OK;
}

int cmd_dvm(struct mp_ctx *ctx, int argc, char **argv)
{
	if (argc < 2)
		return mpctl_usage_error("dvm", "missing subcommand (run, stat)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		dvm_help(stdout);
		return MPCTL_EXIT_OK;
	}
	if (!strcmp(argv[1], "run"))
		return dvm_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "stat"))
		return dvm_stat(argc - 1, argv + 1);
	return mpctl_usage_error("dvm", "unknown subcommand '%s'", argv[1]);
}
