// SPDX-License-Identifier: GPL-2.0
/*
 * mpctl apply-config / check-config: bring the pool to the state
 * /etc/cmm-mp/cmm-mp.conf describes (load cmm_mp with its mem=, online the
 * configured segments in their zone), and report where the running state
 * differs from it. cmm-mp.service runs apply-config at boot;
 * cmm-mp-segment@.service (started by 90-cmm-mp.rules when a segment device
 * appears) runs apply-config --segment for that one segment.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "args.h"
#include "config.h"
#include "mpctl.h"
#include "util/sysfs.h"

struct cfg_args {
	const char *cmd;
	bool apply;
	const char *path;
	const char *segment;	/* --segment: mp0.N or a pool-wide number */
	bool parse_only;
	bool device;		/* check-config --device */
	unsigned int jflags;
	struct mpctl_config cfg;
};

static bool module_loaded(const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/module/%s", mpctl_sysfs_root(), name);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* A module parameter as sysfs shows it, without the newline; "" if none. */
static void module_param(const char *mod, const char *param, char *buf,
			 size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/module/%s/parameters/%s",
		 mpctl_sysfs_root(), mod, param);
	util_read_line(path, buf, len);
}

/*
 * Run modprobe (or $MPCTL_MODPROBE) with @argv[1..]; its own messages go
 * to our stderr. Return: its exit status, or -errno.
 */
static int run_modprobe(char **argv)
{
	const char *prog = getenv("MPCTL_MODPROBE");
	int status;
	pid_t pid;

	if (!prog || !*prog)
		prog = "modprobe";
	argv[0] = (char *)prog;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		execvp(prog, argv);
		fprintf(stderr, "mpctl: %s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* modprobe MOD ARGS..., reported as one line on failure. */
static int load_module(struct cfg_args *a, char **argv, int argc)
{
	char line[512] = "";
	size_t n = 0;
	int i, rc;

	rc = run_modprobe(argv);
	if (!rc)
		return MPCTL_EXIT_OK;
	for (i = 1; i < argc && n < sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - n, "%s%s",
			      i > 1 ? " " : "", argv[i]);
	if (rc < 0)
		return mpctl_fail(a->cmd, argv[1], "cannot run modprobe: %s",
				  strerror(-rc));
	return mpctl_fail(a->cmd, argv[1],
			  "'modprobe %s' failed (exit %d; see dmesg)", line, rc);
}

/*
 * Load cmm_mp (and the backend) as [pool] says, unless already loaded;
 * *@loaded tells whether this call loaded cmm_mp.
 */
static int load_modules(struct cfg_args *a, bool *loaded)
{
	struct mpctl_config *c = &a->cfg;
	char mem[MPCTL_CONFIG_MEM_MAX + 8], seg[40], chip[40];
	char dev[MPCTL_IFNAMSIZ + 16];
	char *argv[8];
	int argc = 1, rc;

	if (!module_loaded("cmm_mp")) {
		if (!c->has_mem)
			return mpctl_fail(a->cmd, "cmm_mp",
					  "kernel module not loaded and no [pool] mem= to load it with: %s",
					  strerror(ENODEV));
		argv[argc++] = "cmm_mp";
		snprintf(mem, sizeof(mem), "mem=%s", c->mem);
		argv[argc++] = mem;
		if (c->seg_size) {
			snprintf(seg, sizeof(seg), "seg_size=%llu",
				 (unsigned long long)c->seg_size);
			argv[argc++] = seg;
		}
		if (c->has_chip_id) {
			snprintf(chip, sizeof(chip), "chip_id=%llu",
				 (unsigned long long)c->chip_id);
			argv[argc++] = chip;
		}
		argv[argc] = NULL;
		rc = load_module(a, argv, argc);
		if (rc)
			return rc;
		*loaded = true;
	}
	if (c->backend[0] && !module_loaded("mp_eth")) {
		snprintf(dev, sizeof(dev), "netdev=%s", c->backend);
		argv[1] = "mp_eth";
		argv[2] = dev;
		argv[3] = NULL;
		return load_module(a, argv, 3);
	}
	return MPCTL_EXIT_OK;
}

/* the zone of a segment's online blocks; "none" when none is online */
static const char *seg_zone(struct mp_segment *seg)
{
	const char *zone = mpctl_seg_zone(seg);

	return zone ? zone : "none";
}

/* "512M$0x60000000": a device's range in the grammar of mem=. */
static void fmt_range(char *buf, size_t len, uint64_t size, uint64_t base)
{
	if (!(size & ((1ULL << 20) - 1)))
		snprintf(buf, len, "%lluM$0x%llx",
			 (unsigned long long)(size >> 20),
			 (unsigned long long)base);
	else
		snprintf(buf, len, "%llu$0x%llx", (unsigned long long)size,
			 (unsigned long long)base);
}

/* The device [pool] mem= describes: the one at its base address. */
static struct mp_device *config_device(struct mp_ctx *ctx,
				       const struct mpctl_config *c)
{
	struct mp_device *dev;

	cmmmp_device_foreach(ctx, dev)
		if (cmmmp_device_get_phys(dev) == c->mem_base)
			return dev;
	return NULL;
}

/*
 * One difference: {"object":..., "attribute":..., "want":..., "have":...}
 * (with "segment" for a segment). @have NULL means absent.
 */
static int add_drift(struct json_object *arr, const char *object, long seg,
		     const char *attr, struct json_object *want,
		     struct json_object *have)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		goto nomem;
	if (json_object_object_add(o, "object", json_object_new_string(object)))
		goto nomem;
	if (seg >= 0 &&
	    json_object_object_add(o, "segment", json_object_new_int64(seg)))
		goto nomem;
	if (json_object_object_add(o, "attribute", json_object_new_string(attr)))
		goto nomem;
	json_object_object_add(o, "want", want);
	json_object_object_add(o, "have", have);
	want = NULL;
	have = NULL;
	if (json_object_array_add(arr, o))
		goto nomem;
	return 0;
nomem:
	json_object_put(want);
	json_object_put(have);
	json_object_put(o);
	return -ENOMEM;
}

/* [pool] against the loaded modules and the device. */
static int pool_drift(struct cfg_args *a, struct mp_ctx *ctx,
		      struct json_object *arr)
{
	struct mpctl_config *c = &a->cfg;
	unsigned int f = a->jflags;
	struct mp_device *dev;
	char have[96];
	int rc = 0;

	if (c->backend[0]) {
		module_param("mp_eth", "netdev", have, sizeof(have));
		if (strcmp(have, c->backend))
			rc |= add_drift(arr, "pool", -1, "backend",
					json_object_new_string(c->backend),
					have[0] ? json_object_new_string(have) :
						  NULL);
	}
	if (!c->has_mem)
		return rc;
	dev = config_device(ctx, c);
	if (!dev || cmmmp_device_get_size(dev) != c->mem_size) {
		have[0] = '\0';
		if (dev)
			fmt_range(have, sizeof(have), cmmmp_device_get_size(dev),
				  cmmmp_device_get_phys(dev));
		return rc | add_drift(arr, "pool", -1, "mem",
				      json_object_new_string(c->mem),
				      have[0] ? json_object_new_string(have) :
						NULL);
	}
	if (c->seg_size && cmmmp_device_get_seg_size(dev) != c->seg_size)
		rc |= add_drift(arr, "pool", -1, "seg_size",
				mpctl_json_size(c->seg_size, f),
				mpctl_json_size(cmmmp_device_get_seg_size(dev), f));
	if (c->has_chip_id && cmmmp_device_get_chip_id(dev) != c->chip_id)
		rc |= add_drift(arr, "pool", -1, "chip_id",
				mpctl_json_addr(c->chip_id, f),
				mpctl_json_addr(cmmmp_device_get_chip_id(dev), f));
	return rc;
}

static const char *want_state(const struct mpctl_config_seg *s)
{
	return cmmmp_seg_state_name(s->online ? MP_SEG_ONLINE_RAM :
					     MP_SEG_OFFLINE);
}

/* Every configured segment against the pool. */
static int seg_drift(struct cfg_args *a, struct mp_ctx *ctx,
		     struct json_object *arr)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < a->cfg.nr_segs; i++) {
		const struct mpctl_config_seg *s = &a->cfg.segs[i];
		struct mp_segment *seg = cmmmp_segment_get_by_id(ctx, s->id);
		enum mp_seg_state st;
		const char *zone;

		if (!seg) {
			rc |= add_drift(arr, "segment", s->id, "state",
					json_object_new_string(want_state(s)),
					NULL);
			continue;
		}
		st = cmmmp_segment_get_state(seg);
		if (st != (s->online ? MP_SEG_ONLINE_RAM : MP_SEG_OFFLINE)) {
			rc |= add_drift(arr, "segment", s->id, "state",
					json_object_new_string(want_state(s)),
					json_object_new_string(cmmmp_seg_state_name(st)));
			continue;
		}
		zone = seg_zone(seg);
		if (s->online && strcmp(zone, mpctl_zone_name(s->zone)))
			rc |= add_drift(arr, "segment", s->id, "zone",
					json_object_new_string(mpctl_zone_name(s->zone)),
					json_object_new_string(zone));
	}
	return rc;
}

/* check-config --parse-only: the file as mpctl understood it. */
static struct json_object *config_json(struct cfg_args *a)
{
	struct mpctl_config *c = &a->cfg;
	struct json_object *o, *pool, *segs;
	unsigned int f = a->jflags;
	size_t i;

	o = json_object_new_object();
	pool = json_object_new_object();
	segs = json_object_new_array();
	if (!o || !pool || !segs) {
		json_object_put(o);
		json_object_put(pool);
		json_object_put(segs);
		return NULL;
	}
	json_object_object_add(o, "config", json_object_new_string(a->path));
	json_object_object_add(o, "pool", pool);
	json_object_object_add(o, "segments", segs);
	if (c->has_mem) {
		json_object_object_add(pool, "mem",
				       json_object_new_string(c->mem));
		json_object_object_add(pool, "phys", mpctl_json_addr(c->mem_base, f));
		json_object_object_add(pool, "size", mpctl_json_size(c->mem_size, f));
	}
	if (c->seg_size)
		json_object_object_add(pool, "seg_size", mpctl_json_size(c->seg_size, f));
	if (c->has_chip_id)
		json_object_object_add(pool, "chip_id", mpctl_json_addr(c->chip_id, f));
	if (c->backend[0])
		json_object_object_add(pool, "backend",
				       json_object_new_string(c->backend));
	for (i = 0; i < c->nr_segs; i++) {
		const struct mpctl_config_seg *cs = &c->segs[i];
		struct json_object *s = json_object_new_object();

		if (!s || json_object_array_add(segs, s)) {
			json_object_put(s);
			json_object_put(o);
			return NULL;
		}
		json_object_object_add(s, "segment",
				       json_object_new_int64(cs->id));
		json_object_object_add(s, "state",
				       json_object_new_string(want_state(cs)));
		if (cs->online)
			json_object_object_add(s, "zone",
					       json_object_new_string(mpctl_zone_name(cs->zone)));
	}
	return o;
}

/*
 * check-config --device: exit status for systemd's ExecCondition=, which
 * skips the unit on 1-254 and fails it on 255.
 */
#define CFG_EXIT_DEVICE_ERROR	255

/* /proc/iomem (or $MPCTL_IOMEM, for the tests), NUL-terminated; NULL. */
static char *read_iomem(void)
{
	const char *path = getenv("MPCTL_IOMEM");
	size_t len = 0, room = 16384, n;
	char *buf = malloc(room), *big;
	FILE *f;
	int err;

	f = fopen(path && *path ? path : "/proc/iomem", "r");
	if (!f || !buf)
		goto fail;
	while ((n = fread(buf + len, 1, room - 1 - len, f)) > 0) {
		len += n;
		if (len < room - 1)
			continue;
		if (room >= (1 << 22))
			break;
		big = realloc(buf, room * 2);
		if (!big)
			goto fail;
		buf = big;
		room *= 2;
	}
	if (ferror(f))
		goto fail;
	fclose(f);
	buf[len] = '\0';
	return buf;
fail:
	err = errno ? errno : EIO;
	if (f)
		fclose(f);
	free(buf);
	errno = err;	/* what the caller reports, not fclose()'s */
	return NULL;
}

/*
 * Does this host have the pool device the file names? Yes when cmm_mp is
 * loaded (apply-config then reports any mismatch itself) or when [pool]
 * mem= lies in memory memmap= reserved; no without mem=, or when that
 * range is System RAM, another region or nothing: a host of a fleet that
 * shares the file but not the reservation boots with the unit skipped.
 */
static int check_device(struct cfg_args *a)
{
	struct json_object *o = json_object_new_object();
	char why[MPCTL_CONFIG_ERR_MAX];
	char *iomem = NULL;
	int present;

	if (!o)
		goto nomem;
	if (module_loaded("cmm_mp")) {
		present = 1;
		snprintf(why, sizeof(why), "cmm_mp is loaded");
	} else if (!a->cfg.has_mem) {
		present = 0;
		snprintf(why, sizeof(why),
			 "cmm_mp is not loaded and [pool] has no mem=: no pool device to set up");
	} else {
		iomem = read_iomem();
		if (!iomem) {
			json_object_put(o);
			mpctl_fail(a->cmd, "/proc/iomem", "%s", strerror(errno));
			return CFG_EXIT_DEVICE_ERROR;
		}
		present = mpctl_config_iomem_check(&a->cfg, iomem, why,
						   sizeof(why));
		free(iomem);
		if (present < 0) {
			json_object_put(o);
			mpctl_fail(a->cmd, "/proc/iomem", "%s", why);
			return CFG_EXIT_DEVICE_ERROR;
		}
	}
	json_object_object_add(o, "config", json_object_new_string(a->path));
	json_object_object_add(o, "device", json_object_new_boolean(present));
	json_object_object_add(o, "reason", json_object_new_string(why));
	if (mpctl_print_json(o, true))
		goto nomem;
	if (!present)
		fprintf(stderr, "mpctl: %s: no pool device on this host: %s\n",
			a->cmd, why);
	return present ? MPCTL_EXIT_OK : MPCTL_EXIT_FAIL;
nomem:
	mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
	return CFG_EXIT_DEVICE_ERROR;
}

static int check(struct cfg_args *a, struct mp_ctx *ctx)
{
	struct json_object *o, *drift;
	size_t nr;
	int rc;

	if (a->parse_only) {
		o = config_json(a);
		if (!o || mpctl_print_json(o, true))
			return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
		return MPCTL_EXIT_OK;
	}
	o = json_object_new_object();
	drift = json_object_new_array();
	if (!o || !drift) {
		json_object_put(o);
		json_object_put(drift);
		return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
	}
	json_object_object_add(o, "config", json_object_new_string(a->path));
	rc = 0;
	if (!module_loaded("cmm_mp")) {
		if (a->cfg.has_mem || a->cfg.nr_segs)
			rc = add_drift(drift, "pool", -1, "module",
				       json_object_new_string("cmm_mp"), NULL);
	} else {
		rc = mpctl_load(a->cmd, ctx);
		if (rc) {
			json_object_put(o);
			json_object_put(drift);
			return rc;
		}
		rc = pool_drift(a, ctx, drift) | seg_drift(a, ctx, drift);
	}
	nr = json_object_array_length(drift);
	json_object_object_add(o, "in_sync", json_object_new_boolean(!nr));
	json_object_object_add(o, "drift", drift);
	if (rc || mpctl_print_json(o, true))
		return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
	if (nr)
		return mpctl_fail(a->cmd, a->path,
				  "the running state differs in %zu place%s (see \"drift\")",
				  nr, nr == 1 ? "" : "s");
	return MPCTL_EXIT_OK;
}

/* Refuse to touch segments of a pool that is not the configured one. */
static int apply_pool(struct cfg_args *a, struct mp_ctx *ctx)
{
	struct json_object *arr = json_object_new_array();
	struct json_object *d, *attr = NULL, *want = NULL, *have = NULL;
	int rc;

	if (!arr)
		return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
	rc = pool_drift(a, ctx, arr);
	if (rc || !json_object_array_length(arr)) {
		json_object_put(arr);
		return rc ? mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM)) :
			    MPCTL_EXIT_OK;
	}
	d = json_object_array_get_idx(arr, 0);
	json_object_object_get_ex(d, "attribute", &attr);
	json_object_object_get_ex(d, "want", &want);
	json_object_object_get_ex(d, "have", &have);
	rc = mpctl_fail(a->cmd, "pool",
			"the config wants %s=%s, the running pool has %s: reload the modules to change it",
			json_object_get_string(attr),
			json_object_get_string(want),
			have ? json_object_get_string(have) : "none");
	json_object_put(arr);
	return rc;
}

/* Bring one configured segment to its state; 0 or MPCTL_EXIT_FAIL. */
static int apply_seg(struct cfg_args *a, struct mp_ctx *ctx,
		     const struct mpctl_config_seg *s, struct mp_segment *seg,
		     struct json_object *arr)
{
	enum mp_seg_state st = cmmmp_segment_get_state(seg);
	const char *zone = seg_zone(seg);
	struct json_object *o;
	char what[48];
	int err;

	snprintf(what, sizeof(what), "segment %u", s->id);
	if (st == MP_SEG_BUSY)
		return mpctl_fail(a->cmd, what, "busy changing state: %s",
				  strerror(EBUSY));
	if (s->online && st == MP_SEG_ONLINE_RAM) {
		if (!strcmp(zone, mpctl_zone_name(s->zone)))
			return 0;
		return mpctl_fail(a->cmd, what,
				  "online in zone %s, the config wants %s: offline it first",
				  zone, mpctl_zone_name(s->zone));
	}
	if (!s->online && st == MP_SEG_OFFLINE)
		return 0;
	if (s->online)
		err = cmmmp_segment_online(seg, s->zone == MPCTL_ZONE_NORMAL ?
					MP_ONLINE_NO_MOVABLE : 0);
	else
		err = cmmmp_segment_offline(seg);
	if (err) {
		if (cmmmp_get_last_error_origin(ctx) == MP_ERR_MEMBLOCK)
			return mpctl_fail_ctx(a->cmd, what, ctx, err, NULL);
		return mpctl_fail_ctx(a->cmd, what, ctx, err,
				      s->online ? "online failed" :
						  "offline failed");
	}
	o = mpctl_seg_json(seg, a->jflags);
	if (!o || json_object_array_add(arr, o)) {
		json_object_put(o);
		return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
	}
	return 0;
}

static int apply(struct cfg_args *a, struct mp_ctx *ctx)
{
	struct json_object *arr;
	char what[48];
	bool loaded = false;
	size_t i;
	int rc, ret = MPCTL_EXIT_OK;

	if (!a->cfg.has_mem && !a->cfg.nr_segs && !a->cfg.backend[0]) {
		/* Nothing configured (the file as installed). */
		arr = json_object_new_array();
		if (!arr || mpctl_print_json(arr, true))
			return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
		return MPCTL_EXIT_OK;
	}
	rc = load_modules(a, &loaded);
	if (rc)
		return rc;
	rc = mpctl_load(a->cmd, ctx);
	if (rc)
		return rc;
	rc = apply_pool(a, ctx);
	if (rc)
		return rc;
	/*
	 * hotplug = yes: the segment devices the driver just created are
	 * each configured by their cmm-mp-segment@ unit, which udev starts
	 * and which runs after this one; two changes of one segment at once
	 * would only make one of them fail.
	 */
	if (loaded && a->cfg.hotplug) {
		arr = json_object_new_array();
		if (!arr || mpctl_print_json(arr, true))
			return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
		return MPCTL_EXIT_OK;
	}
	/* Every configured segment must exist before anything changes. */
	for (i = 0; i < a->cfg.nr_segs; i++) {
		if (cmmmp_segment_get_by_id(ctx, a->cfg.segs[i].id))
			continue;
		snprintf(what, sizeof(what), "segment %u", a->cfg.segs[i].id);
		return mpctl_fail(a->cmd, what,
				  "no such segment (%s:%u): %s", a->path,
				  a->cfg.segs[i].line, strerror(ENOENT));
	}
	arr = json_object_new_array();
	if (!arr)
		return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
	/* Go on after a failure: one bad segment must not keep the rest. */
	for (i = 0; i < a->cfg.nr_segs; i++) {
		const struct mpctl_config_seg *s = &a->cfg.segs[i];

		if (apply_seg(a, ctx, s, cmmmp_segment_get_by_id(ctx, s->id), arr))
			ret = MPCTL_EXIT_FAIL;
	}
	if (mpctl_print_json(arr, true))
		return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
	return ret;
}

/*
 * --segment's value, as the udev rule gives it (the device's name, mp0.3)
 * or as mpctl list numbers it (3): the pool-wide id, or -ENOENT.
 */
static int segment_id(struct mp_ctx *ctx, const char *arg, uint32_t *id)
{
	const char *dot = strrchr(arg, '.');
	unsigned long n;
	struct mp_device *dev;

	/* is_segment_arg() checked the digits; only the range is left */
	errno = 0;
	n = strtoul(dot ? dot + 1 : arg, NULL, 10);
	if (errno || n > UINT32_MAX)
		return -ENOENT;
	if (!dot) {
		*id = (uint32_t)n;
		return cmmmp_segment_get_by_id(ctx, *id) ? 0 : -ENOENT;
	}
	cmmmp_device_foreach(ctx, dev) {
		const char *name = cmmmp_device_get_name(dev);

		if (strlen(name) != (size_t)(dot - arg) ||
		    strncmp(name, arg, dot - arg))
			continue;
		if (n >= cmmmp_device_get_nr_segs(dev))
			return -ENOENT;
		*id = cmmmp_device_get_first_segment(dev) + (uint32_t)n;
		return 0;
	}
	return -ENOENT;
}

/*
 * apply-config --segment SEG: the per-segment path. Off unless [pool]
 * hotplug = yes, and quiet (no output, exit 0) when it is off or no
 * [segments] section names SEG, as the unit runs for every segment that
 * appears.
 */
static int apply_one(struct cfg_args *a, struct mp_ctx *ctx)
{
	const struct mpctl_config_seg *s;
	struct json_object *arr;
	uint32_t id;
	int rc;

	if (!a->cfg.hotplug)
		return MPCTL_EXIT_OK;
	rc = mpctl_load(a->cmd, ctx);
	if (rc)
		return rc;
	rc = segment_id(ctx, a->segment, &id);
	if (rc)
		return mpctl_fail(a->cmd, a->segment, "no such segment: %s",
				  strerror(-rc));
	s = mpctl_config_find(&a->cfg, id);
	if (!s)
		return MPCTL_EXIT_OK;
	rc = apply_pool(a, ctx);
	if (rc)
		return rc;
	arr = json_object_new_array();
	if (!arr)
		return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
	rc = apply_seg(a, ctx, s, cmmmp_segment_get_by_id(ctx, id), arr) ?
		MPCTL_EXIT_FAIL : MPCTL_EXIT_OK;
	if (mpctl_print_json(arr, true))
		return mpctl_fail(a->cmd, NULL, "%s", strerror(ENOMEM));
	return rc;
}

static const struct util_cmd apply_cmd = {
	.prog = "mpctl",
	.cmd = "apply-config",
	.about =
"Bring the pool to the state the configuration file describes: load cmm_mp\n"
"(modprobe, with the [pool] mem=, seg_size= and chip_id=) and mp_eth (with\n"
"netdev= the [pool] backend) when they are not loaded, then online and\n"
"offline the segments of the [segments ...] sections. Segments the file\n"
"does not name are left alone. Prints the segments it changed (JSON).\n"
"With --segment, only that segment (mp0.N or its pool-wide number), and\n"
"only when [pool] hotplug = yes: what cmm-mp-segment@.service runs when a\n"
"segment device appears.\n",
};

static const struct util_cmd check_cmd = {
	.prog = "mpctl",
	.cmd = "check-config",
	.about =
"Compare the running pool with the configuration file and print the\n"
"result as one JSON object: \"in_sync\" and the list of differences under\n"
"\"drift\". Exits 1 when the state differs, so it can be used as a check.\n"
"With --device, only whether this host has the pool device the file names\n"
"(cmm_mp loaded, or [pool] mem= in memory memmap= reserved): exit 0 yes,\n"
"1 no, 255 on errors, as systemd's ExecCondition= takes it.\n",
};

/* The forms segment_id() takes, checked before anything is read. */
static bool is_segment_arg(const char *arg)
{
	const char *dot = strrchr(arg, '.');
	const char *num = dot ? dot + 1 : arg;

	if (dot == arg || !*num || strspn(num, "0123456789") != strlen(num))
		return false;
	return !dot || !strchr(arg, '/');
}

#define CFG_OPT_CONFIG(path)						\
	OPT_STRING('c', "config", (path), "FILE",			\
		   "the configuration (default " MPCTL_CONFIG_PATH ")")

static int config_cmd(struct mp_ctx *ctx, int argc, char **argv,
		      struct cfg_args *a)
{
	const struct util_option apply_opts[] = {
		CFG_OPT_CONFIG(&a->path),
		OPT_STRING('s', "segment", &a->segment, "SEG",
			   "only segment SEG (mp0.N or its number), if [pool] hotplug = yes"),
		MPCTL_OPT_HUMAN(&a->jflags),
		MPCTL_OPT_VERBOSE(&a->jflags),
		OPT_END(),
	};
	const struct util_option check_opts[] = {
		CFG_OPT_CONFIG(&a->path),
		OPT_BOOLEAN('p', "parse-only", &a->parse_only,
			    "only check the file: print it as JSON, touch nothing"),
		OPT_BOOLEAN('d', "device", &a->device,
			    "is the pool device here? exit 0 yes, 1 no, 255 on errors"),
		MPCTL_OPT_HUMAN(&a->jflags),
		OPT_END(),
	};
	char err[MPCTL_CONFIG_ERR_MAX + 256];
	int n, rc;

	n = util_parse_options(a->apply ? &apply_cmd : &check_cmd,
			       a->apply ? apply_opts : check_opts,
			       argc, argv, &rc);
	if (n < 0)
		return rc;
	if (n)
		return mpctl_usage_error(a->cmd, "unexpected argument '%s'",
					 argv[0]);
	if (a->segment && !is_segment_arg(a->segment))
		return mpctl_usage_error(a->cmd,
					 "--segment '%s' is neither a device's segment (mp0.N) nor a number",
					 a->segment);
	if (a->device && a->parse_only)
		return mpctl_usage_error(a->cmd,
					 "--device and --parse-only exclude each other");
	rc = mpctl_config_load(&a->cfg, a->path, err, sizeof(err));
	if (rc) {
		mpctl_config_free(&a->cfg);
		rc = mpctl_fail(a->cmd, NULL, "%s", err);
		return a->device ? CFG_EXIT_DEVICE_ERROR : rc;
	}
	if (a->device)
		rc = check_device(a);
	else if (!a->apply)
		rc = check(a, ctx);
	else
		rc = a->segment ? apply_one(a, ctx) : apply(a, ctx);
	mpctl_config_free(&a->cfg);
	return rc;
}

int cmd_apply_config(struct mp_ctx *ctx, int argc, char **argv)
{
	struct cfg_args a = { .cmd = "apply-config", .apply = true,
			      .path = MPCTL_CONFIG_PATH };

	return config_cmd(ctx, argc, argv, &a);
}

int cmd_check_config(struct mp_ctx *ctx, int argc, char **argv)
{
	struct cfg_args a = { .cmd = "check-config",
			      .path = MPCTL_CONFIG_PATH };

	return config_cmd(ctx, argc, argv, &a);
}
