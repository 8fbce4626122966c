// SPDX-License-Identifier: LGPL-2.1
/*
 * libmp context: lifetime, loading the object lists from the kernel, the
 * last-error record, and the sorted object arrays shared by device.c and
 * segment.c.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <linux/cmm_mp.h>

#include "libmp-private.h"

/* The public enums mirror the UAPI ones: keep them in step. */
static_assert(MP_NONE == CMM_MP_NONE, "MP_NONE");
static_assert(MP_GONE == CMM_MP_GONE, "MP_GONE");
static_assert((int)MP_SEG_OFFLINE == (int)CMM_MP_SEG_OFFLINE, "seg state");
static_assert((int)MP_SEG_ONLINE_RAM == (int)CMM_MP_SEG_ONLINE_RAM, "seg state");
static_assert((int)MP_SEG_BUSY == (int)CMM_MP_SEG_BUSY, "seg state");
static_assert((int)MP_SEG_FAILED == (int)CMM_MP_SEG_FAILED, "seg state");
static_assert((int)MP_SEG_OWNED == (int)CMM_MP_SEG_OWNED, "seg state");
static_assert((int)MP_DEV_LOST == (int)CMM_MP_DEV_LOST, "dev state");
static_assert((int)MP_POOL_CONFLICT == (int)CMM_MP_POOL_CONFLICT, "pool state");
static_assert((int)MP_POOL_RUNTIME == (int)CMM_MP_POOL_RUNTIME, "pool state");
static_assert((int)MP_POOL_DISCOVERY == (int)CMM_MP_POOL_DISCOVERY, "pool state");
static_assert((int)MP_SEG_MODE_RAM == (int)CMM_MP_SEG_MODE_RAM, "seg mode");

MP_EXPORT int cmmmp_new(struct mp_ctx **ctx)
{
	struct mp_ctx *c;

	if (!ctx)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->refcount = 1;
	c->family = -1;
	*ctx = c;
	return 0;
}

MP_EXPORT struct mp_ctx *cmmmp_ref(struct mp_ctx *ctx)
{
	if (ctx)
		ctx->refcount++;
	return ctx;
}

MP_EXPORT void cmmmp_unref(struct mp_ctx *ctx)
{
	if (!ctx || --ctx->refcount > 0)
		return;
	mp_nl_close(ctx);
	mp_objvec_free(&ctx->peers, free);
	mp_objvec_free(&ctx->segs, free);
	mp_objvec_free(&ctx->devs, free);
	free(ctx);
}

int mp_set_error(struct mp_ctx *ctx, int err, const char *fmt, ...)
{
	va_list ap;

	ctx->last_err = err;
	ctx->last_origin = MP_ERR_LOCAL;
	va_start(ap, fmt);
	vsnprintf(ctx->last_msg, sizeof(ctx->last_msg), fmt, ap);
	va_end(ap);
	return err;
}

void mp_clear_error(struct mp_ctx *ctx)
{
	ctx->last_err = 0;
	ctx->last_origin = MP_ERR_LOCAL;
	ctx->last_msg[0] = '\0';
}

void mp_set_error_origin(struct mp_ctx *ctx, enum mp_err_origin origin)
{
	ctx->last_origin = origin;
}

MP_EXPORT int cmmmp_get_last_error(struct mp_ctx *ctx)
{
	return ctx ? ctx->last_err : -EINVAL;
}

MP_EXPORT const char *cmmmp_get_last_error_msg(struct mp_ctx *ctx)
{
	return ctx ? ctx->last_msg : "";
}

MP_EXPORT enum mp_err_origin cmmmp_get_last_error_origin(struct mp_ctx *ctx)
{
	return ctx ? ctx->last_origin : MP_ERR_LOCAL;
}

MP_EXPORT const char *cmmmp_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case ENODEV:
		return "cmm_mp kernel module not loaded";
	case EALREADY:
		return "segment already in the requested state";
	case EBUSY:
		return "range busy, or offline refused by the kernel";
	case EPERM:
		return "operation needs root (CAP_SYS_ADMIN)";
	case ENOENT:
		return "no such device or segment";
	case EPROTO:
		return "malformed answer from the kernel";
	default:
		return strerror(err < 0 ? -err : err);
	}
}

/*
 * Re-read every device and segment. Objects the kernel no longer lists are
 * kept (callers may hold pointers) but hidden from iterators and lookups.
 */
MP_EXPORT int cmmmp_refresh(struct mp_ctx *ctx)
{
	size_t i;
	int rc;

	if (!ctx)
		return -EINVAL;
	mp_clear_error(ctx);
	for (i = 0; i < ctx->devs.nr; i++)
		((struct mp_device *)ctx->devs.v[i])->seen = false;
	for (i = 0; i < ctx->segs.nr; i++)
		((struct mp_segment *)ctx->segs.v[i])->seen = false;

	rc = mp_nl_request(ctx, CMM_MP_CMD_DEV_GET, true, NULL, NULL,
			   mp_device_update, NULL);
	if (rc)
		return rc;
	rc = mp_nl_request(ctx, CMM_MP_CMD_SEG_GET, true, NULL, NULL,
			   mp_segment_update, NULL);
	if (rc)
		return rc;

	/* Only a complete pair of dumps may hide objects. */
	mp_device_sweep(ctx);
	mp_segment_sweep(ctx);
	ctx->loaded = true;
	ctx->devs_loaded = true;
	return 0;
}

/*
 * Read the devices alone (lookups of a device, cmmmp_segment_dump()): a
 * pool's devices are few, its segments may be tens of thousands.
 */
int mp_load_devices(struct mp_ctx *ctx)
{
	size_t i;
	int rc;

	if (ctx->devs_loaded)
		return 0;
	mp_clear_error(ctx);
	for (i = 0; i < ctx->devs.nr; i++)
		((struct mp_device *)ctx->devs.v[i])->seen = false;
	rc = mp_nl_request(ctx, CMM_MP_CMD_DEV_GET, true, NULL, NULL,
			   mp_device_update, NULL);
	if (rc)
		return rc;
	mp_device_sweep(ctx);
	ctx->devs_loaded = true;
	return 0;
}

/* Load the lists on first use (iterators and lookups call this). */
int mp_load(struct mp_ctx *ctx)
{
	if (ctx->loaded)
		return 0;
	return cmmmp_refresh(ctx);
}

/*
 * Binary search for @id. Return: its slot, or -(insertion slot) - 1 when
 * it is not there.
 */
ssize_t mp_objvec_find(struct mp_objvec *ov, uint32_t id,
		       uint32_t (*id_of)(const void *))
{
	size_t lo = 0, hi = ov->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t cur = id_of(ov->v[mid]);

		if (cur == id)
			return mid;
		if (cur < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -(ssize_t)lo - 1;
}

int mp_objvec_insert(struct mp_objvec *ov, size_t pos, void *obj)
{
	if (ov->nr == ov->alloc) {
		size_t n = ov->alloc ? ov->alloc * 2 : 16;
		void **v = realloc(ov->v, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		ov->v = v;
		ov->alloc = n;
	}
	memmove(&ov->v[pos + 1], &ov->v[pos], (ov->nr - pos) * sizeof(*ov->v));
	ov->v[pos] = obj;
	ov->nr++;
	return 0;
}

void mp_objvec_free(struct mp_objvec *ov, void (*free_obj)(void *))
{
	size_t i;

	for (i = 0; i < ov->nr; i++)
		free_obj(ov->v[i]);
	free(ov->v);
	ov->v = NULL;
	ov->nr = 0;
	ov->alloc = 0;
}
