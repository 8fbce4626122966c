// SPDX-License-Identifier: GPL-2.0
/*
 * libmp-dvmctl (mp_dvmctl.h): starting a program under libmp-dvm.so and
 * reading back its heap's statistics. What the launcher must agree on
 * with the preload library (environment, statistics file, jemalloc's
 * settings) is kept here, beside the library, not in the tools.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/dvm.h>

#include "mp_dvmctl.h"
#include "util/util.h"

#ifndef MP_DVM_LIBDIR
#define MP_DVM_LIBDIR	"/usr/local/lib"
#endif

#define DVM_JEMALLOC	"libjemalloc.so.2"
/* jemalloc settings the DVM heap needs (Documentation/dvm-heap.rst) */
#define DVM_MALLOC_CONF	"retain:true,oversize_threshold:0,thp:never"

static bool readable(const char *p)
{
	return !access(p, R_OK);
}

/**
 * mp_dvm_find_lib() - the libmp-dvm.so to preload
 * @lib: the one asked for (--lib), or NULL
 * @out: receives its path
 * @len: size of @out
 *
 * Looks at @lib, $MP_DVM_LIB, beside the running program (guests), the
 * build tree (../libmp-dvm/), ../lib/ and MP_DVM_LIBDIR, in that order.
 *
 * Return: 0, or -errno of the one asked for, or -ENOENT.
 */
int mp_dvm_find_lib(const char *lib, char *out, size_t len)
{
	static const char *const rel[] = {
		"libmp-dvm.so", "../libmp-dvm/libmp-dvm.so", "../lib/libmp-dvm.so",
	};
	char self[PATH_MAX - 32], *slash;
	const char *env = getenv("MP_DVM_LIB");
	ssize_t n;
	size_t i;

	if (lib || (env && *env)) {
		snprintf(out, len, "%s", lib ? lib : env);
		return readable(out) ? 0 : -errno;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		for (i = 0; i < ARRAY_SIZE(rel); i++) {
			if (snprintf(out, len, "%s/%s", self, rel[i]) >= (int)len)
				continue;
			if (readable(out))
				return 0;
		}
	}
	snprintf(out, len, "%s/libmp-dvm.so", MP_DVM_LIBDIR);
	return readable(out) ? 0 : -ENOENT;
}

/**
 * mp_dvm_mode_on() - DVM mode for this process and what it executes
 *
 * Return: 0; -EPERM without CAP_SYS_ADMIN; another -errno (-EINVAL) when
 * the kernel has no DVM.
 */
int mp_dvm_mode_on(void)
{
	if (prctl(PR_SET_DVM, PR_DVM_ON | PR_DVM_INHERIT, 0, 0, 0))
		return -errno;
	return 0;
}

/**
 * mp_dvm_set_min_bytes() - set vm.dvm_min_bytes (system-wide)
 * @bytes: the smallest mapping to identity map
 *
 * Return: 0 or -errno.
 */
int mp_dvm_set_min_bytes(uint64_t bytes)
{
	char buf[32];
	int fd, n, rc = 0;

	fd = open(DVM_SYSCTL_MIN_BYTES, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)bytes);
	if (write(fd, buf, n) != n)
		rc = -errno;
	close(fd);
	return rc;
}

/**
 * mp_dvm_stats_dir() - where the statistics files are
 *
 * Return: $MP_DVM_STATS_DIR, else MP_DVM_STATS_DIR.
 */
const char *mp_dvm_stats_dir(void)
{
	const char *dir = getenv(MP_DVM_ENV_STATS_DIR);

	return dir && *dir ? dir : MP_DVM_STATS_DIR;
}

/* VAR=VALUE, with the old value in front (joined by @sep) when set */
static int env_append(const char *var, const char *value, const char *sep,
		      bool old_first)
{
	const char *old = getenv(var);
	char *s;
	int rc;

	if (!old || !*old)
		return setenv(var, value, 1) ? -errno : 0;
	if (old_first)
		rc = asprintf(&s, "%s%s%s", old, sep, value);
	else
		rc = asprintf(&s, "%s%s%s", value, sep, old);
	if (rc < 0)
		return -ENOMEM;
	rc = setenv(var, s, 1) ? -errno : 0;
	free(s);
	return rc;
}

/**
 * mp_dvm_prepare() - the environment a program under libmp-dvm.so needs
 * @run: the settings
 * @lib: the library (mp_dvm_find_lib())
 * @what: on failure, what failed: the statistics directory or "environment"
 *
 * Creates the statistics directory and sets LD_PRELOAD (@lib, then
 * jemalloc), MALLOC_CONF and the library's own variables in this
 * process's environment, and turns transparent huge pages off for this
 * process, for the program it executes next.
 *
 * Return: 0 or -errno.
 */
int mp_dvm_prepare(const struct mp_dvm_run *run, const char *lib,
		   const char **what)
{
	char preload[PATH_MAX + 32], conf[96];
	const char *dir = mp_dvm_stats_dir();
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int rc;

	*what = dir;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	*what = "environment";
	snprintf(preload, sizeof(preload), "%s:%s", lib, DVM_JEMALLOC);
	/*
	 * One arena per CPU for the program (each arena's metadata is an
	 * eager 2 MiB chunk), and arena 0, which libmp-dvm keeps for itself.
	 */
	snprintf(conf, sizeof(conf), "%s,narenas:%ld", DVM_MALLOC_CONF,
		 (ncpu > 0 ? ncpu : 1) + 1);
	/* ours last: jemalloc lets the last setting win */
	rc = env_append("LD_PRELOAD", preload, ":", false);
	if (!rc)
		rc = env_append("MALLOC_CONF", conf, ",", true);
	if (!rc && (setenv(MP_DVM_ENV_STATS_DIR, dir, 1) ||
		    setenv(MP_DVM_ENV_STRICT, run->strict ? "1" : "0", 1) ||
		    setenv(MP_DVM_ENV_STAT, run->stat ? "1" : "0", 1)))
		rc = -errno;
	if (rc)
		return rc;
	/*
	 * No transparent huge pages for the program (kept across execve()):
	 * what is not identity mapped (jemalloc's first chunks and its .bss,
	 * with the radix tree's root, touched before the hooks exist, the
	 * libraries' data) would take a whole 2 MiB huge page for each
	 * 2 MiB range touched at all; identity areas never have them.
	 */
	*what = "transparent huge pages";
	if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0))
		return -errno;
	return 0;
}

/**
 * mp_dvm_read_smaps() - the identity-mapped share of a process's memory
 * @pid: the process
 * @sm: receives the totals of its /proc/PID/smaps
 *
 * Return: 0; -ESRCH (gone, or a kernel thread: no areas), -ENOENT,
 * -EACCES or another -errno of reading the file.
 */
int mp_dvm_read_smaps(int pid, struct dvm_smaps *sm)
{
	char path[64], line[1024];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	dvm_smaps_init(sm);
	while (fgets(line, sizeof(line), f)) {
		n = strlen(line);
		if (n && line[n - 1] == '\n')
			line[n - 1] = '\0';
		dvm_smaps_line(sm, line);
	}
	fclose(f);
	return sm->areas ? 0 : -ESRCH;
}

/**
 * mp_dvm_read_stats() - the statistics of a process run under libmp-dvm.so
 * @pid: the process
 * @st: receives its statistics file
 *
 * Return: 0; -ENOENT (not run under libmp-dvm.so, or gone), -EPROTO (not
 * a statistics file of this version, or of another process), or -errno.
 */
int mp_dvm_read_stats(int pid, struct mp_dvm_stats *st)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%d", mp_dvm_stats_dir(), pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, st, sizeof(*st));
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	if (n != sizeof(*st) || st->magic != MP_DVM_STATS_MAGIC ||
	    st->version != MP_DVM_STATS_VERSION || st->pid != pid)
		return -EPROTO;
	return 0;
}
