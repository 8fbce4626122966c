// SPDX-License-Identifier: GPL-2.0
/*
 * libmp against a fake cmm_mp family (selftests/unit/fake_cmm_mp.c, linked
 * ahead of libc so it answers NETLINK_GENERIC sockets) and a fake sysfs:
 * the whole netlink path of the library (libnl requests, error callback,
 * extended acks, dumps, NLMSG_DONE errors, events) without a kernel module.
 */
#define _XOPEN_SOURCE 700
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dlfcn.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "libmp.h"
#include "util/util.h"

struct fixture {
	char dir[256];
	char state[300];
	struct mp_ctx *ctx;
};

static const char *const fake_env[] = {
	"FAKE_CMM_MP_UNLOADED", "FAKE_CMM_MP_DEVS", "FAKE_CMM_MP_SEGS",
	"FAKE_CMM_MP_FAIL", "FAKE_CMM_MP_BADBLOCK", "FAKE_CMM_MP_AUTOONLINE",
	"FAKE_CMM_MP_NOTROOT", "FAKE_CMM_MP_FAMILY", "FAKE_CMM_MP_NOBACKEND",
	"FAKE_CMM_MP_KEYLOG", "FAKE_CMM_MP_NO_MEMMAP", "FAKE_CMM_MP_LOST",
	"FAKE_CMM_MP_REQLOG", "FAKE_CMM_MP_DUMP_INTR",
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	size_t i;

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "%s/libmp-fake-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(f->dir))
		goto err;
	/* A fresh pool per test: the fake keeps its state in this file. */
	snprintf(f->state, sizeof(f->state), "%s/pool", f->dir);
	if (setenv("FAKE_CMM_MP_STATE", f->state, 1) ||
	    setenv("MP_SYSFS_ROOT", f->dir, 1))
		goto err;
	for (i = 0; i < ARRAY_SIZE(fake_env); i++)
		unsetenv(fake_env[i]);
	if (cmmmp_new(&f->ctx))
		goto err;
	*state = f;
	return 0;
err:
	free(f);
	return -1;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	int rc;

	cmmmp_unref(f->ctx);
	rc = nftw(f->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(f);
	return rc;
}

static void block_state(struct fixture *f, uint32_t nr, char *buf,
			size_t len)
{
	char path[512];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s/devices/system/memory/memory%u/state",
		 f->dir, nr);
	buf[0] = '\0';
	fp = fopen(path, "r");
	if (!fp)
		return;
	n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(fp);
}

static struct mp_segment *seg_of(struct fixture *f, uint32_t id)
{
	struct mp_segment *seg = cmmmp_segment_get_by_id(f->ctx, id);

	assert_non_null(seg);
	return seg;
}

static void test_not_loaded(void **state)
{
	struct fixture *f = *state;
	struct mp_monitor *mon = NULL;

	setenv("FAKE_CMM_MP_UNLOADED", "1", 1);
	assert_int_equal(cmmmp_refresh(f->ctx), -ENODEV);
	assert_int_equal(cmmmp_get_last_error(f->ctx), -ENODEV);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_LOCAL);
	assert_non_null(strstr(cmmmp_get_last_error_msg(f->ctx), "not loaded"));
	assert_null(cmmmp_segment_get_first(f->ctx));
	assert_null(cmmmp_device_get_first(f->ctx));
	assert_int_equal(cmmmp_monitor_new(f->ctx, &mon), -ENODEV);
	assert_null(mon);
	/* Loading the module later is noticed: nothing is cached. */
	unsetenv("FAKE_CMM_MP_UNLOADED");
	assert_int_equal(cmmmp_refresh(f->ctx), 0);
	assert_non_null(cmmmp_segment_get_first(f->ctx));
}

static void test_module_reload(void **state)
{
	struct fixture *f = *state;
	struct mp_segment *seg = seg_of(f, 1);

	/* Reloaded: a new family id; the context follows it. */
	setenv("FAKE_CMM_MP_FAMILY", "77", 1);
	assert_int_equal(cmmmp_refresh(f->ctx), 0);
	assert_int_equal(cmmmp_segment_online(seg, 0), 0);
	/* Unloaded under the context: "not loaded", not "no segment". */
	setenv("FAKE_CMM_MP_UNLOADED", "1", 1);
	assert_int_equal(cmmmp_segment_refresh(seg), -ENODEV);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_LOCAL);
	assert_int_equal(cmmmp_refresh(f->ctx), -ENODEV);
	unsetenv("FAKE_CMM_MP_UNLOADED");
	/* A real -ENOENT (same family id) stays one. */
	assert_int_equal(cmmmp_segment_refresh(seg), 0);
	seg = seg_of(f, 3);
	setenv("FAKE_CMM_MP_SEGS", "2", 1);
	assert_int_equal(cmmmp_segment_refresh(seg), -ENOENT);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_KERNEL);
	assert_null(cmmmp_segment_get_by_id(f->ctx, 3));
}

static void test_list(void **state)
{
	struct fixture *f = *state;
	struct mp_device *dev;
	struct mp_segment *seg;
	uint32_t n = 0;

	dev = cmmmp_device_get_first(f->ctx);
	assert_non_null(dev);
	assert_int_equal(cmmmp_device_get_id(dev), 0);
	assert_string_equal(cmmmp_device_get_name(dev), "mp0");
	assert_true(cmmmp_device_get_chip_id(dev) == 0x525400000000ULL);
	assert_true(cmmmp_device_get_phys(dev) == 0x70000000ULL);
	assert_true(cmmmp_device_get_size(dev) == 512ULL << 20);
	assert_true(cmmmp_device_get_seg_size(dev) == 128ULL << 20);
	assert_int_equal(cmmmp_device_get_nr_segs(dev), 4);
	assert_int_equal(cmmmp_device_get_numa_node(dev), 1);
	assert_true(cmmmp_device_get_block_size(dev) == 128ULL << 20);
	assert_ptr_equal(cmmmp_device_get_ctx(dev), f->ctx);
	assert_null(cmmmp_device_get_next(dev));

	cmmmp_segment_foreach(f->ctx, seg) {
		assert_int_equal(cmmmp_segment_get_id(seg), n);
		assert_ptr_equal(cmmmp_segment_get_device(seg), dev);
		assert_int_equal(cmmmp_segment_get_device_id(seg), 0);
		assert_true(cmmmp_segment_get_phys(seg) ==
			    0x70000000ULL + n * (128ULL << 20));
		assert_true(cmmmp_segment_get_nha(seg) == n * (128ULL << 20));
		assert_true(cmmmp_segment_get_size(seg) == 128ULL << 20);
		assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_OFFLINE);
		assert_false(cmmmp_segment_is_online(seg));
		assert_int_equal(cmmmp_segment_get_mode(seg), MP_SEG_MODE_RAM);
		assert_int_equal(cmmmp_segment_get_owner(seg), MP_NONE);
		assert_int_equal(cmmmp_segment_get_numa_node(seg), 1);
		assert_int_equal(cmmmp_segment_get_memblock_first(seg), 14 + n);
		assert_int_equal(cmmmp_segment_get_memblock_count(seg), 1);
		assert_int_equal(cmmmp_segment_get_memblock_online(seg), 0);
		assert_int_equal(cmmmp_segment_get_memblock_movable(seg), 0);
		assert_ptr_equal(cmmmp_segment_get_ctx(seg), f->ctx);
		n++;
	}
	assert_int_equal(n, 4);

	assert_ptr_equal(cmmmp_device_get_by_id(f->ctx, 0), dev);
	assert_null(cmmmp_device_get_by_id(f->ctx, 1));
	assert_int_equal(cmmmp_get_last_error(f->ctx), -ENOENT);
	assert_null(cmmmp_segment_get_by_id(f->ctx, 4));
	assert_int_equal(cmmmp_get_last_error(f->ctx), -ENOENT);
	assert_string_equal(cmmmp_seg_state_name(MP_SEG_ONLINE_RAM), "online-ram");
	assert_string_equal(cmmmp_seg_state_name(MP_SEG_BUSY), "busy");
	assert_string_equal(cmmmp_seg_mode_name(MP_SEG_MODE_RAM), "system-ram");
}

static void test_two_devices(void **state)
{
	struct fixture *f = *state;
	struct mp_device *dev;
	struct mp_segment *seg;
	uint32_t ndev = 0, nseg;

	setenv("FAKE_CMM_MP_DEVS", "2", 1);
	setenv("FAKE_CMM_MP_SEGS", "3", 1);
	cmmmp_device_foreach(f->ctx, dev) {
		nseg = 0;
		cmmmp_device_segment_foreach(dev, seg) {
			assert_int_equal(cmmmp_segment_get_device_id(seg), ndev);
			assert_int_equal(cmmmp_segment_get_id(seg),
					 ndev * 3 + nseg);
			assert_int_equal(cmmmp_segment_get_numa_node(seg),
					 ndev ? -1 : 1);
			nseg++;
		}
		assert_int_equal(nseg, 3);
		ndev++;
	}
	assert_int_equal(ndev, 2);
	dev = cmmmp_device_get_by_id(f->ctx, 1);
	assert_non_null(dev);
	assert_string_equal(cmmmp_device_get_name(dev), "mp1");
	assert_int_equal(cmmmp_device_get_numa_node(dev), -1);
	/* A remote segment cannot become System RAM here. */
	assert_int_equal(cmmmp_segment_online(seg_of(f, 4), 0), -EOPNOTSUPP);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_KERNEL);
}

/*
 * LIBMP_1.3: cmmmp_segment_online_as() refuses bad combinations before asking
 * the kernel (nothing changes), and RAM goes the System RAM way.
 */
static void test_online_as(void **state)
{
	struct fixture *f = *state;
	struct mp_segment *seg = seg_of(f, 1);

	assert_int_equal(cmmmp_segment_online_as(seg, MP_SEG_MODE_RAM,
						 MP_ONLINE_SHARED), -EINVAL);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_LOCAL);
	assert_int_equal(cmmmp_segment_online_as(seg, MP_SEG_MODE_DAX,
						 MP_ONLINE_NO_MOVABLE), -EINVAL);
	assert_int_equal(cmmmp_segment_online_as(seg, (enum mp_seg_mode)7, 0),
			 -EINVAL);
	assert_int_equal(cmmmp_segment_online_as(seg, MP_SEG_MODE_BLK, 0x100),
			 -EINVAL);
	assert_int_equal(cmmmp_segment_online_as(NULL, MP_SEG_MODE_DAX, 0),
			 -EINVAL);
	assert_int_equal(cmmmp_segment_refresh(seg), 0);
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_OFFLINE);

	assert_int_equal(cmmmp_segment_online_as(seg, MP_SEG_MODE_RAM, 0), 0);
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_ONLINE_RAM);
	assert_null(cmmmp_segment_get_devnode(seg));
	assert_false(cmmmp_segment_is_shared(seg));
	assert_int_equal(cmmmp_segment_get_sharers(seg), 0);
	assert_int_equal(cmmmp_segment_offline(seg), 0);

	assert_string_equal(cmmmp_seg_mode_name(MP_SEG_MODE_DAX), "dax");
	assert_string_equal(cmmmp_seg_mode_name(MP_SEG_MODE_BLK), "blk");
	assert_string_equal(cmmmp_seg_state_name(MP_SEG_SHARED), "shared");
}

static void test_online_offline(void **state)
{
	struct fixture *f = *state;
	struct mp_segment *seg = seg_of(f, 1);
	char buf[64];

	assert_int_equal(cmmmp_segment_online(seg, 0), 0);
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_ONLINE_RAM);
	assert_true(cmmmp_segment_is_online(seg));
	assert_int_equal(cmmmp_segment_get_memblock_online(seg), 1);
	assert_int_equal(cmmmp_segment_get_memblock_movable(seg), 1);
	block_state(f, 15, buf, sizeof(buf));
	assert_string_equal(buf, "online_movable");

	assert_int_equal(cmmmp_segment_online(seg, 0), -EALREADY);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_KERNEL);
	assert_string_equal(cmmmp_get_last_error_msg(f->ctx),
			    "segment is already online");

	/* Another context sees the change. */
	{
		struct mp_ctx *other;
		struct mp_segment *s;

		assert_int_equal(cmmmp_new(&other), 0);
		s = cmmmp_segment_get_by_id(other, 1);
		assert_true(s && cmmmp_segment_is_online(s));
		s = cmmmp_segment_get_by_id(other, 0);
		assert_true(s && !cmmmp_segment_is_online(s));
		cmmmp_unref(other);
	}

	assert_int_equal(cmmmp_segment_offline(seg), 0);
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_OFFLINE);
	assert_int_equal(cmmmp_segment_get_memblock_online(seg), 0);
	block_state(f, 15, buf, sizeof(buf));
	assert_string_equal(buf, "");
	assert_int_equal(cmmmp_segment_offline(seg), -EALREADY);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_KERNEL);
}

static void test_online_no_movable(void **state)
{
	struct fixture *f = *state;
	struct mp_segment *seg = seg_of(f, 2);
	char buf[64];

	assert_int_equal(cmmmp_segment_online(seg, MP_ONLINE_NO_MOVABLE), 0);
	assert_int_equal(cmmmp_segment_get_memblock_online(seg), 1);
	assert_int_equal(cmmmp_segment_get_memblock_movable(seg), 0);
	block_state(f, 16, buf, sizeof(buf));
	assert_string_equal(buf, "online_kernel");
	assert_int_equal(cmmmp_segment_online(seg, 0x80), -EINVAL);
}

/* The memmap on the segment: asked for, reported, refused, and gone. */
static void test_online_memmap(void **state)
{
	struct fixture *f = *state;
	struct mp_segment *seg = seg_of(f, 2);
	struct mp_segment *s;
	struct mp_ctx *other;
	char buf[64];

	/* a kernel without memory_hotplug.memmap_on_memory=1 */
	setenv("FAKE_CMM_MP_NO_MEMMAP", "1", 1);
	assert_int_equal(cmmmp_segment_online(seg, MP_ONLINE_MEMMAP_ON_MEMORY),
			 -EOPNOTSUPP);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_KERNEL);
	assert_non_null(strstr(cmmmp_get_last_error_msg(f->ctx),
			       "memory_hotplug.memmap_on_memory=1"));
	assert_int_equal(cmmmp_segment_refresh(seg), 0);
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_OFFLINE);
	assert_false(cmmmp_segment_get_memmap_on_memory(seg));
	block_state(f, 16, buf, sizeof(buf));
	assert_string_equal(buf, "");
	unsetenv("FAKE_CMM_MP_NO_MEMMAP");

	/* System RAM only: refused here, before the kernel is asked */
	assert_int_equal(cmmmp_segment_online_as(seg, MP_SEG_MODE_DAX,
						 MP_ONLINE_MEMMAP_ON_MEMORY),
			 -EINVAL);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_LOCAL);

	assert_int_equal(cmmmp_segment_online(seg, MP_ONLINE_MEMMAP_ON_MEMORY),
			 0);
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_ONLINE_RAM);
	assert_true(cmmmp_segment_get_memmap_on_memory(seg));
	block_state(f, 16, buf, sizeof(buf));
	assert_string_equal(buf, "online_movable");
	/* another context reads it from the kernel */
	assert_int_equal(cmmmp_new(&other), 0);
	s = cmmmp_segment_get_by_id(other, 2);
	assert_true(s && cmmmp_segment_get_memmap_on_memory(s));
	s = cmmmp_segment_get_by_id(other, 1);
	assert_true(s && !cmmmp_segment_get_memmap_on_memory(s));
	cmmmp_unref(other);

	assert_int_equal(cmmmp_segment_offline(seg), 0);
	assert_false(cmmmp_segment_get_memmap_on_memory(seg));
	/* and without the flag, as before */
	assert_int_equal(cmmmp_segment_online_as(seg, MP_SEG_MODE_RAM, 0), 0);
	assert_false(cmmmp_segment_get_memmap_on_memory(seg));
}

static void test_auto_online(void **state)
{
	struct fixture *f = *state;
	struct mp_segment *seg = seg_of(f, 0);
	char buf[64];

	/* Blocks the kernel onlined by itself are left as they are. */
	setenv("FAKE_CMM_MP_AUTOONLINE", "1", 1);
	assert_int_equal(cmmmp_segment_online(seg, 0), 0);
	block_state(f, 14, buf, sizeof(buf));
	assert_string_equal(buf, "online");
	assert_int_equal(cmmmp_segment_get_memblock_online(seg), 1);
}

static void test_bad_block_rolls_back(void **state)
{
	struct fixture *f = *state;
	struct mp_segment *seg = seg_of(f, 1);
	const char *msg;

	setenv("FAKE_CMM_MP_BADBLOCK", "15", 1);
	assert_int_equal(cmmmp_segment_online(seg, 0), -ENOSPC);
	assert_int_equal(cmmmp_get_last_error(f->ctx), -ENOSPC);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_MEMBLOCK);
	msg = cmmmp_get_last_error_msg(f->ctx);
	assert_non_null(strstr(msg, "memory block 15 refused online_movable"));
	assert_non_null(strstr(msg, "put back offline"));
	/* The rollback really happened, in the kernel's view too. */
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_OFFLINE);
	assert_int_equal(cmmmp_segment_refresh(seg), 0);
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_OFFLINE);
}

static void test_bad_block_rollback_fails(void **state)
{
	struct fixture *f = *state;
	struct mp_segment *seg = seg_of(f, 1);
	const char *msg;

	setenv("FAKE_CMM_MP_BADBLOCK", "15", 1);
	setenv("FAKE_CMM_MP_FAIL", "offline:1:16:pages pinned", 1);
	assert_int_equal(cmmmp_segment_online(seg, 0), -ENOSPC);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_MEMBLOCK);
	msg = cmmmp_get_last_error_msg(f->ctx);
	assert_non_null(strstr(msg, "memory block 15"));
	assert_non_null(strstr(msg, "rollback (SEG_OFFLINE) failed too"));
	assert_non_null(strstr(msg, "pages pinned"));
	assert_int_equal(cmmmp_segment_refresh(seg), 0);
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_ONLINE_RAM);
}

static void test_kernel_errors(void **state)
{
	struct fixture *f = *state;
	struct mp_segment *seg = seg_of(f, 2);

	setenv("FAKE_CMM_MP_FAIL", "online:2:16:range claimed by dax0.0", 1);
	assert_int_equal(cmmmp_segment_online(seg, 0), -EBUSY);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_KERNEL);
	assert_string_equal(cmmmp_get_last_error_msg(f->ctx),
			    "range claimed by dax0.0");
	/* Without an extended ack message the detail is empty. */
	setenv("FAKE_CMM_MP_FAIL", "online:2:22", 1);
	assert_int_equal(cmmmp_segment_online(seg, 0), -EINVAL);
	assert_string_equal(cmmmp_get_last_error_msg(f->ctx), "");
	unsetenv("FAKE_CMM_MP_FAIL");

	setenv("FAKE_CMM_MP_NOTROOT", "1", 1);
	assert_int_equal(cmmmp_segment_online(seg, 0), -EPERM);
	assert_int_equal(cmmmp_segment_offline(seg), -EPERM);
	/* Reading needs no privilege. */
	assert_int_equal(cmmmp_refresh(f->ctx), 0);
	unsetenv("FAKE_CMM_MP_NOTROOT");

	assert_int_equal(cmmmp_segment_online(seg, 0), 0);
	setenv("FAKE_CMM_MP_FAIL", "offline:2:16:3 pages could not migrate", 1);
	assert_int_equal(cmmmp_segment_offline(seg), -EBUSY);
	assert_string_equal(cmmmp_get_last_error_msg(f->ctx),
			    "3 pages could not migrate");
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_ONLINE_RAM);
	assert_int_equal(cmmmp_segment_refresh(seg), 0);
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_ONLINE_RAM);
	/* A failing refresh reports its error and keeps the object. */
	setenv("FAKE_CMM_MP_FAIL", "seg_get:2:5:io", 1);
	assert_int_equal(cmmmp_segment_refresh(seg), -EIO);
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_ONLINE_RAM);
}

static void test_dump_error(void **state)
{
	struct fixture *f = *state;

	setenv("FAKE_CMM_MP_FAIL", "seg_dump:*:5:dump broke", 1);
	assert_int_equal(cmmmp_refresh(f->ctx), -EIO);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_KERNEL);
	assert_string_equal(cmmmp_get_last_error_msg(f->ctx), "dump broke");
	setenv("FAKE_CMM_MP_FAIL", "dev_dump:*:12", 1);
	assert_int_equal(cmmmp_refresh(f->ctx), -ENOMEM);
	/* The socket is still in step: the next request works. */
	unsetenv("FAKE_CMM_MP_FAIL");
	assert_int_equal(cmmmp_refresh(f->ctx), 0);
	assert_non_null(cmmmp_segment_get_by_id(f->ctx, 3));
}

/* cmmmp_segment_dump(): each segment handed on in order, none kept */
struct dump_seen {
	uint32_t n;
	uint32_t stop_at;
	bool device_ok;
};

static int dump_one(struct mp_segment *seg, void *arg)
{
	struct dump_seen *d = arg;

	if (cmmmp_segment_get_id(seg) != d->n ||
	    cmmmp_segment_get_size(seg) != 128ULL << 20)
		return -EBADMSG;
	d->device_ok &= cmmmp_segment_get_device(seg) &&
			cmmmp_segment_get_device_id(seg) == 0;
	if (++d->n == d->stop_at)
		return -ECANCELED;
	return 0;
}

static void test_segment_dump(void **state)
{
	struct fixture *f = *state;
	struct dump_seen d = { .device_ok = true };

	assert_int_equal(cmmmp_segment_dump(f->ctx, dump_one, &d), 0);
	assert_int_equal(d.n, 4);
	assert_true(d.device_ok);
	/* the function stops it with its own error; the socket stays usable */
	d = (struct dump_seen){ .stop_at = 2, .device_ok = true };
	assert_int_equal(cmmmp_segment_dump(f->ctx, dump_one, &d), -ECANCELED);
	assert_int_equal(d.n, 2);
	/* a dump that breaks in the kernel says so, after what came before */
	setenv("FAKE_CMM_MP_FAIL", "seg_dump:*:5:dump broke", 1);
	d = (struct dump_seen){ .device_ok = true };
	assert_int_equal(cmmmp_segment_dump(f->ctx, dump_one, &d), -EIO);
	assert_string_equal(cmmmp_get_last_error_msg(f->ctx), "dump broke");
	unsetenv("FAKE_CMM_MP_FAIL");
	assert_int_equal(cmmmp_segment_dump(NULL, dump_one, &d), -EINVAL);
	assert_int_equal(cmmmp_segment_dump(f->ctx, NULL, &d), -EINVAL);
	assert_non_null(cmmmp_segment_get_by_id(f->ctx, 3));
}

/* cmmmp_segment_dump() under a pool that changes: every id handed on once */
struct dump_ids {
	uint32_t n;
	uint32_t times[64];	/* how often each id was handed on */
	bool in_order;
};

static int dump_id(struct mp_segment *seg, void *arg)
{
	struct dump_ids *d = arg;
	uint32_t id = cmmmp_segment_get_id(seg);

	if (id >= ARRAY_SIZE(d->times))
		return -EBADMSG;
	d->in_order &= id == d->n;
	d->times[id]++;
	d->n++;
	return 0;
}

static bool dump_each_once(const struct dump_ids *d, uint32_t nr)
{
	uint32_t i, want;

	for (i = 0; i < ARRAY_SIZE(d->times); i++) {
		want = i < nr;
		if (d->times[i] != want)
			return false;
	}
	return d->n == nr && d->in_order;
}

/*
 * The kernel flags a dump that the pool map changed under with
 * NLM_F_DUMP_INTR (kernel/cmm_mp/netlink.c): a list is then started again
 * while nothing was handed on, else refused; never cut short or of two maps.
 */
static void test_dump_intr(void **state)
{
	struct fixture *f = *state;
	struct dump_ids d;

	setenv("FAKE_CMM_MP_DEVS", "2", 1);	/* 8 segments */
	/* changed before the first segment, once: started again, whole */
	setenv("FAKE_CMM_MP_DUMP_INTR", "0:1", 1);
	memset(&d, 0, sizeof(d));
	d.in_order = true;
	assert_int_equal(cmmmp_segment_dump(f->ctx, dump_id, &d), 0);
	assert_true(dump_each_once(&d, 8));

	/* changed before segment 3: 0-2 are of the old map; said so */
	setenv("FAKE_CMM_MP_DUMP_INTR", "3:1", 1);
	memset(&d, 0, sizeof(d));
	d.in_order = true;
	assert_int_equal(cmmmp_segment_dump(f->ctx, dump_id, &d), -EAGAIN);
	assert_true(dump_each_once(&d, 3));
	assert_non_null(strstr(cmmmp_get_last_error_msg(f->ctx),
			       "the pool changed during the list, after segment 2"));

	/* changed after the last one (only NLMSG_DONE flagged): the same */
	setenv("FAKE_CMM_MP_DUMP_INTR", "8:1", 1);
	memset(&d, 0, sizeof(d));
	d.in_order = true;
	assert_int_equal(cmmmp_segment_dump(f->ctx, dump_id, &d), -EAGAIN);
	assert_true(dump_each_once(&d, 8));
	assert_non_null(strstr(cmmmp_get_last_error_msg(f->ctx),
			       "after segment 7"));

	/* changed in every dump: three tries, then a clear error */
	setenv("FAKE_CMM_MP_DUMP_INTR", "0", 1);
	memset(&d, 0, sizeof(d));
	d.in_order = true;
	assert_int_equal(cmmmp_segment_dump(f->ctx, dump_id, &d), -EAGAIN);
	assert_int_equal(d.n, 0);
	assert_non_null(strstr(cmmmp_get_last_error_msg(f->ctx),
			       "during each of 3 dumps in a row"));

	/* a whole load starts again, with what the new dump lists */
	setenv("FAKE_CMM_MP_DUMP_INTR", "5:2", 1);
	assert_int_equal(cmmmp_refresh(f->ctx), 0);
	assert_non_null(cmmmp_segment_get_by_id(f->ctx, 7));
	assert_null(cmmmp_segment_get_by_id(f->ctx, 8));
	setenv("FAKE_CMM_MP_DUMP_INTR", "4", 1);
	assert_int_equal(cmmmp_refresh(f->ctx), -EAGAIN);

	/* the socket is in step after all of it */
	unsetenv("FAKE_CMM_MP_DUMP_INTR");
	memset(&d, 0, sizeof(d));
	d.in_order = true;
	assert_int_equal(cmmmp_segment_dump(f->ctx, dump_id, &d), 0);
	assert_true(dump_each_once(&d, 8));
}

static void test_refresh_keeps_objects(void **state)
{
	struct fixture *f = *state;
	struct mp_segment *s3 = seg_of(f, 3), *s0 = seg_of(f, 0);
	struct mp_segment *seg;
	uint32_t n = 0;

	assert_int_equal(cmmmp_refresh(f->ctx), 0);
	assert_ptr_equal(seg_of(f, 3), s3);
	/* The pool shrinks: segments 2 and 3 disappear from view. */
	setenv("FAKE_CMM_MP_SEGS", "2", 1);
	assert_int_equal(cmmmp_refresh(f->ctx), 0);
	cmmmp_segment_foreach(f->ctx, seg)
		n++;
	assert_int_equal(n, 2);
	assert_null(cmmmp_segment_get_by_id(f->ctx, 3));
	/* ...but the caller's pointer is still good to read. */
	assert_int_equal(cmmmp_segment_get_id(s3), 3);
	assert_ptr_equal(seg_of(f, 0), s0);
	/* And they come back, at the same address. */
	setenv("FAKE_CMM_MP_SEGS", "4", 1);
	assert_int_equal(cmmmp_refresh(f->ctx), 0);
	assert_ptr_equal(seg_of(f, 3), s3);
	assert_ptr_equal(cmmmp_segment_get_next(seg_of(f, 2)), s3);
}

static void test_monitor(void **state)
{
	struct fixture *f = *state;
	struct mp_monitor *mon;
	struct mp_segment *seg = NULL;

	assert_int_equal(cmmmp_monitor_new(f->ctx, &mon), 0);
	assert_true(cmmmp_monitor_get_fd(mon) >= 0);
	assert_int_equal(cmmmp_monitor_wait(mon, 0), 0);
	assert_int_equal(cmmmp_monitor_read(mon, &seg), -EAGAIN);

	assert_int_equal(cmmmp_segment_online(seg_of(f, 3), 0), 0);
	assert_int_equal(cmmmp_monitor_wait(mon, 1000), 1);
	assert_int_equal(cmmmp_monitor_read(mon, &seg), 0);
	assert_ptr_equal(seg, seg_of(f, 3));
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_ONLINE_RAM);
	assert_int_equal(cmmmp_monitor_read(mon, &seg), -EAGAIN);

	assert_int_equal(cmmmp_segment_offline(seg_of(f, 3)), 0);
	assert_int_equal(cmmmp_segment_online(seg_of(f, 0), 0), 0);
	assert_int_equal(cmmmp_monitor_read(mon, &seg), 0);
	assert_int_equal(cmmmp_segment_get_id(seg), 3);
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_OFFLINE);
	assert_int_equal(cmmmp_monitor_read(mon, &seg), 0);
	assert_int_equal(cmmmp_segment_get_id(seg), 0);
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_ONLINE_RAM);
	assert_int_equal(cmmmp_monitor_read(mon, &seg), -EAGAIN);

	/* The monitor holds a reference: the context outlives cmmmp_unref. */
	cmmmp_ref(f->ctx);
	cmmmp_unref(f->ctx);
	cmmmp_monitor_free(mon);
}

static void test_monitor_first(void **state)
{
	struct fixture *f = *state;
	struct mp_monitor *mon;
	struct mp_segment *seg = NULL;
	struct mp_ctx *other;

	/* Events before anything was listed still give full segments. */
	assert_int_equal(cmmmp_monitor_new(f->ctx, &mon), 0);
	assert_int_equal(cmmmp_new(&other), 0);
	assert_int_equal(cmmmp_segment_online(cmmmp_segment_get_by_id(other, 1), 0),
			 0);
	cmmmp_unref(other);
	assert_int_equal(cmmmp_monitor_read(mon, &seg), 0);
	assert_int_equal(cmmmp_segment_get_id(seg), 1);
	assert_non_null(cmmmp_segment_get_device(seg));
	cmmmp_monitor_free(mon);
}

static void test_misc(void **state)
{
	struct fixture *f = *state;
	struct mp_ctx *ctx;

	assert_int_equal(cmmmp_new(NULL), -EINVAL);
	assert_int_equal(cmmmp_new(&ctx), 0);
	assert_ptr_equal(cmmmp_ref(ctx), ctx);
	cmmmp_unref(ctx);
	cmmmp_unref(ctx);
	cmmmp_unref(NULL);
	assert_int_equal(cmmmp_refresh(NULL), -EINVAL);
	assert_int_equal(cmmmp_segment_online(NULL, 0), -EINVAL);
	assert_int_equal(cmmmp_segment_offline(NULL), -EINVAL);
	assert_null(cmmmp_segment_get_first(NULL));
	assert_null(cmmmp_segment_get_next(NULL));
	assert_non_null(strstr(cmmmp_strerror(-ENODEV), "not loaded"));
	assert_string_equal(cmmmp_strerror(-ENOSPC), strerror(ENOSPC));
	assert_int_equal(cmmmp_get_last_error(f->ctx), 0);
	assert_string_equal(cmmmp_get_last_error_msg(f->ctx), "");
}

/* A file of the fixture's directory, "" when absent, without newline. */
static void read_file(struct fixture *f, const char *rel, char *buf,
		      size_t len)
{
	char path[512];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", f->dir, rel);
	buf[0] = '\0';
	fp = fopen(path, "r");
	if (!fp)
		return;
	n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	fclose(fp);
}

/* LIBMP_1.5: the key reaches the kernel over CMM_MP_CMD_KEY_SET. */
static void test_pool_key(void **state)
{
	static const uint8_t key[MP_KEY_LEN] = {
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
		0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
	};
	static const uint8_t zero[MP_KEY_LEN];
	struct fixture *f = *state;
	char log[300], buf[256];

	snprintf(log, sizeof(log), "%s/keylog", f->dir);
	assert_int_equal(setenv("FAKE_CMM_MP_KEYLOG", log, 1), 0);

	/* refused here, before anything is sent */
	assert_int_equal(cmmmp_pool_set_key(f->ctx, MP_KEY_CLEAR, 0, key), -EINVAL);
	assert_int_equal(cmmmp_pool_set_key(f->ctx, MP_KEY_SET, 1, NULL), -EINVAL);
	assert_int_equal(cmmmp_pool_set_key(f->ctx, (enum mp_key_op)9, 1, key),
			 -EINVAL);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_LOCAL);
	read_file(f, "keylog", buf, sizeof(buf));
	assert_string_equal(buf, "");

	assert_int_equal(cmmmp_pool_set_key(f->ctx, MP_KEY_ACCEPT, 7, key), 0);
	assert_int_equal(cmmmp_pool_set_key(f->ctx, MP_KEY_SET, 7, key), 0);
	assert_int_equal(cmmmp_pool_set_key(f->ctx, MP_KEY_CLEAR, 0, NULL), 0);
	read_file(f, "keylog", buf, sizeof(buf));
	assert_string_equal(buf,
			    "2 7 00112233445566778899aabbccddeeff\n"
			    "1 7 00112233445566778899aabbccddeeff\n"
			    "3 0 -\n");
	read_file(f, "class/misc/mp_eth/key_ids", buf, sizeof(buf));
	assert_string_equal(buf, "none\n");

	/* the kernel's refusals, with its words */
	assert_int_equal(cmmmp_pool_set_key(f->ctx, MP_KEY_SET, 1, zero), -EINVAL);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_KERNEL);
	assert_string_equal(cmmmp_get_last_error_msg(f->ctx),
			    "key refused: all zero");
	assert_int_equal(setenv("FAKE_CMM_MP_NOBACKEND", "1", 1), 0);
	assert_int_equal(cmmmp_pool_set_key(f->ctx, MP_KEY_SET, 1, key), -ENODEV);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_KERNEL);
	assert_int_equal(unsetenv("FAKE_CMM_MP_NOBACKEND"), 0);
	assert_int_equal(setenv("FAKE_CMM_MP_NOTROOT", "1", 1), 0);
	assert_int_equal(cmmmp_pool_set_key(f->ctx, MP_KEY_SET, 1, key), -EPERM);
	assert_int_equal(unsetenv("FAKE_CMM_MP_NOTROOT"), 0);
	read_file(f, "keylog", buf, sizeof(buf));
	assert_string_equal(buf,	/* nothing refused reached the backend */
			    "2 7 00112233445566778899aabbccddeeff\n"
			    "1 7 00112233445566778899aabbccddeeff\n"
			    "3 0 -\n");
}

/*
 * Programs written before LIBMP_1.6 build (libmp.h's macros) and run (the
 * library's mp_ aliases, in their old version nodes) unchanged.
 */
static void test_old_names(void **state)
{
	int (*old_new)(struct mp_ctx **ctx);
	void (*old_unref)(struct mp_ctx *ctx);
	struct mp_segment *seg;
	struct mp_ctx *ctx;
	void *lib;
	int nr = 0;

	assert_int_equal(mp_new(&ctx), 0);		/* the macros */
	mp_segment_foreach(ctx, seg)
		nr++;
	assert_int_equal(nr, 4);
	assert_string_equal(mp_seg_state_name(MP_SEG_OFFLINE), "offline");
	mp_unref(ctx);

	lib = dlopen("libmp.so.1", RTLD_NOW | RTLD_NOLOAD);
	assert_non_null(lib);
	*(void **)&old_new = dlvsym(lib, "mp_new", "LIBMP_1");
	*(void **)&old_unref = dlvsym(lib, "mp_unref", "LIBMP_1");
	assert_non_null(old_new);
	assert_non_null(old_unref);
	assert_ptr_equal(old_new, dlvsym(lib, "cmmmp_new", "LIBMP_1.6"));
	assert_ptr_equal(dlvsym(lib, "mp_pool_set_key", "LIBMP_1.5"),
			 dlvsym(lib, "cmmmp_pool_set_key", "LIBMP_1.6"));
	assert_null(dlvsym(lib, "mp_new", "LIBMP_1.6"));
	assert_int_equal(old_new(&ctx), 0);		/* an old binary's call */
	assert_non_null(cmmmp_segment_get_by_id(ctx, 3));
	old_unref(ctx);
	dlclose(lib);
}

/* Three devices of two segments: 0-1 local (mp0), 2-3 mp1, 4-5 mp2. */
static void three_devices(void)
{
	setenv("FAKE_CMM_MP_DEVS", "3", 1);
	setenv("FAKE_CMM_MP_SEGS", "2", 1);
}

/* The mirror of a segment is picked on another device, not ours first. */
static void test_mirror_pick(void **state)
{
	struct fixture *f = *state;
	const uint32_t skip[] = { 4 };
	struct mp_segment *m;

	three_devices();
	m = cmmmp_segment_pick_mirror(seg_of(f, 2), NULL, 0);
	assert_non_null(m);
	assert_int_equal(cmmmp_segment_get_id(m), 4);	/* mp2, not mp0 */
	m = cmmmp_segment_pick_mirror(seg_of(f, 2), skip, 1);
	assert_int_equal(cmmmp_segment_get_id(m), 5);
	/* of a local segment: the first of another device */
	m = cmmmp_segment_pick_mirror(seg_of(f, 0), NULL, 0);
	assert_int_equal(cmmmp_segment_get_id(m), 2);
	assert_null(cmmmp_segment_pick_mirror(seg_of(f, 2), NULL, 3));
	assert_int_equal(cmmmp_get_last_error(f->ctx), -EINVAL);

	/* mp2 held or lost: our own device is the last resort */
	assert_int_equal(cmmmp_segment_online_as(seg_of(f, 4), MP_SEG_MODE_DAX,
						 0), 0);
	setenv("FAKE_CMM_MP_LOST", "2", 1);
	assert_int_equal(cmmmp_refresh(f->ctx), 0);
	m = cmmmp_segment_pick_mirror(seg_of(f, 2), NULL, 0);
	assert_int_equal(cmmmp_segment_get_id(m), 0);
	assert_int_equal(cmmmp_segment_online_as(seg_of(f, 0), MP_SEG_MODE_DAX,
						 0), 0);
	assert_int_equal(cmmmp_segment_online_as(seg_of(f, 1), MP_SEG_MODE_DAX,
						 0), 0);
	assert_null(cmmmp_segment_pick_mirror(seg_of(f, 2), NULL, 0));
	assert_int_equal(cmmmp_get_last_error(f->ctx), -ENOSPC);
	assert_int_equal(cmmmp_segment_online_mirror(seg_of(f, 2),
						     MP_SEG_MODE_BLK, MP_NONE,
						     0), -ENOSPC);
	assert_int_equal(cmmmp_segment_get_state(seg_of(f, 2)), MP_SEG_OFFLINE);
}

/* Online with a mirror: both segments report the pair; offline frees both. */
static void test_mirror_online(void **state)
{
	struct fixture *f = *state;
	struct mp_segment *n, *m;
	char log[300], buf[256] = "";
	FILE *fp;

	three_devices();
	snprintf(log, sizeof(log), "%s/reqlog", f->dir);
	setenv("FAKE_CMM_MP_REQLOG", log, 1);
	n = seg_of(f, 2);
	m = seg_of(f, 4);
	assert_int_equal(cmmmp_segment_get_mirror(n), MP_NONE);
	assert_int_equal(cmmmp_segment_get_redundancy(n), MP_SEG_NOT_MIRRORED);
	assert_null(cmmmp_seg_redundancy_name(MP_SEG_NOT_MIRRORED));

	/* refused here, before anything is sent */
	assert_int_equal(cmmmp_segment_online_mirror(n, MP_SEG_MODE_RAM, 4, 0),
			 -EINVAL);
	assert_int_equal(cmmmp_segment_online_mirror(n, MP_SEG_MODE_DAX, 4,
						     MP_ONLINE_SHARED), -EINVAL);
	assert_int_equal(cmmmp_segment_online_mirror(n, MP_SEG_MODE_DAX, 2, 0),
			 -EINVAL);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_LOCAL);
	assert_int_equal(access(log, F_OK), -1);
	/* the kernel's refusal: the copy on the same device */
	assert_int_equal(cmmmp_segment_online_mirror(n, MP_SEG_MODE_DAX, 3, 0),
			 -EINVAL);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_KERNEL);
	assert_string_equal(cmmmp_get_last_error_msg(f->ctx),
			    "the mirror must be on another device");

	assert_int_equal(cmmmp_segment_online_mirror(n, MP_SEG_MODE_BLK, 4, 0),
			 0);
	fp = fopen(log, "r");
	assert_non_null(fp);
	assert_non_null(fgets(buf, sizeof(buf), fp));	/* the refused one */
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "online 2 mode=2 mirror=4\n");
	assert_int_equal(cmmmp_segment_get_mirror(n), 4);
	assert_int_equal(cmmmp_segment_get_redundancy(n), MP_SEG_MIRRORED);
	assert_string_equal(cmmmp_seg_redundancy_name(MP_SEG_MIRRORED),
			    "mirrored");
	assert_int_equal(cmmmp_segment_get_rebuilt(n), 0);
	assert_string_equal(cmmmp_segment_get_devnode(n), "/dev/mpb2");
	/* the other copy, read again by libmp */
	assert_int_equal(cmmmp_segment_get_state(m), MP_SEG_OWNED);
	assert_int_equal(cmmmp_segment_get_mirror(m), 2);
	assert_int_equal(cmmmp_segment_get_redundancy(m), MP_SEG_MIRRORED);
	assert_string_equal(cmmmp_segment_get_devnode(m), "/dev/mpb2");

	/* picked: segment 5, the first free one left on mp2 */
	assert_int_equal(cmmmp_segment_online_mirror(seg_of(f, 3),
						     MP_SEG_MODE_DAX, MP_NONE,
						     0), 0);
	assert_int_equal(cmmmp_segment_get_mirror(seg_of(f, 3)), 5);

	assert_int_equal(cmmmp_segment_offline(m), 0);
	assert_int_equal(cmmmp_segment_get_state(m), MP_SEG_OFFLINE);
	assert_int_equal(cmmmp_segment_get_state(n), MP_SEG_OFFLINE);
	assert_int_equal(cmmmp_segment_get_mirror(n), MP_NONE);
	assert_int_equal(cmmmp_segment_get_redundancy(n), MP_SEG_NOT_MIRRORED);
}

/* A lost copy: degraded, repaired where it was or elsewhere; the events. */
static void test_mirror_repair(void **state)
{
	struct fixture *f = *state;
	struct mp_monitor *mon;
	struct mp_segment *n, *seg = NULL;

	three_devices();
	n = seg_of(f, 2);
	assert_int_equal(cmmmp_segment_repair(n, MP_NONE), -EINVAL);
	assert_int_equal(cmmmp_segment_online_mirror(n, MP_SEG_MODE_DAX, 4, 0),
			 0);
	assert_int_equal(cmmmp_segment_repair(n, MP_NONE), -EALREADY);
	assert_int_equal(cmmmp_segment_repair(n, 2), -EINVAL);
	assert_int_equal(cmmmp_get_last_error_origin(f->ctx), MP_ERR_LOCAL);

	setenv("FAKE_CMM_MP_LOST", "2", 1);
	assert_int_equal(cmmmp_refresh(f->ctx), 0);
	assert_int_equal(cmmmp_segment_get_redundancy(n), MP_SEG_DEGRADED);
	assert_int_equal(cmmmp_segment_get_redundancy(seg_of(f, 4)),
			 MP_SEG_DEGRADED);
	assert_int_equal(cmmmp_segment_repair(n, MP_NONE), -EHOSTUNREACH);
	assert_string_equal(cmmmp_get_last_error_msg(f->ctx),
			    "the lost copy's device is still lost: name a replacement");

	/* a replacement on mp0: the lost copy moves there */
	assert_int_equal(cmmmp_monitor_new(f->ctx, &mon), 0);
	assert_int_equal(cmmmp_segment_repair(seg_of(f, 4), 1), 0);
	assert_int_equal(cmmmp_segment_get_mirror(n), 1);
	assert_int_equal(cmmmp_segment_get_redundancy(n), MP_SEG_REBUILDING);
	assert_int_equal(cmmmp_segment_get_rebuilt(n), 32ULL << 20);
	assert_int_equal(cmmmp_segment_get_state(seg_of(f, 4)), MP_SEG_OFFLINE);
	assert_int_equal(cmmmp_segment_get_mirror(seg_of(f, 4)), MP_NONE);
	assert_int_equal(cmmmp_segment_get_state(seg_of(f, 1)), MP_SEG_OWNED);
	assert_int_equal(cmmmp_segment_get_mirror(seg_of(f, 1)), 2);
	assert_int_equal(cmmmp_segment_repair(n, MP_NONE), -EBUSY);

	/* the events carry the pair (the whole copy, the new one), the old */
	assert_int_equal(cmmmp_monitor_read(mon, &seg), 0);
	assert_int_equal(cmmmp_segment_get_id(seg), 2);
	assert_int_equal(cmmmp_segment_get_mirror(seg), 1);
	assert_int_equal(cmmmp_monitor_read(mon, &seg), 0);
	assert_int_equal(cmmmp_segment_get_id(seg), 1);
	assert_int_equal(cmmmp_segment_get_redundancy(seg), MP_SEG_REBUILDING);
	assert_int_equal(cmmmp_segment_get_rebuilt(seg), 32ULL << 20);
	assert_int_equal(cmmmp_monitor_read(mon, &seg), 0);
	assert_int_equal(cmmmp_segment_get_id(seg), 4);
	assert_int_equal(cmmmp_segment_get_state(seg), MP_SEG_OFFLINE);
	assert_int_equal(cmmmp_monitor_read(mon, &seg), -EAGAIN);
	cmmmp_monitor_free(mon);

	/* the device came back: rebuilt where it was */
	assert_int_equal(cmmmp_segment_offline(n), 0);
	assert_int_equal(cmmmp_segment_online_mirror(n, MP_SEG_MODE_DAX, 5, 0),
			 0);
	assert_int_equal(cmmmp_refresh(f->ctx), 0);	/* mp2 still lost */
	assert_int_equal(cmmmp_segment_get_redundancy(n), MP_SEG_DEGRADED);
	unsetenv("FAKE_CMM_MP_LOST");
	assert_int_equal(cmmmp_refresh(f->ctx), 0);
	assert_int_equal(cmmmp_segment_get_redundancy(n), MP_SEG_DEGRADED);
	assert_int_equal(cmmmp_segment_repair(n, MP_NONE), 0);
	assert_int_equal(cmmmp_segment_get_mirror(n), 5);
	assert_int_equal(cmmmp_segment_get_redundancy(seg_of(f, 5)),
			 MP_SEG_REBUILDING);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_not_loaded),
		T(test_module_reload),
		T(test_list),
		T(test_two_devices),
		T(test_online_offline),
		T(test_online_as),
		T(test_online_no_movable),
		T(test_online_memmap),
		T(test_auto_online),
		T(test_bad_block_rolls_back),
		T(test_bad_block_rollback_fails),
		T(test_kernel_errors),
		T(test_dump_error),
		T(test_segment_dump),
		T(test_dump_intr),
		T(test_refresh_keeps_objects),
		T(test_monitor),
		T(test_monitor_first),
		T(test_misc),
		T(test_pool_key),
		T(test_old_names),
		T(test_mirror_pick),
		T(test_mirror_online),
		T(test_mirror_repair),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
