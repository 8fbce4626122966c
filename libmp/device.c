// SPDX-License-Identifier: LGPL-2.1
/*
 * libmp devices: one struct mp_device per CMM_MP_CMD_DEV_GET message,
 * the device iterator, lookup and getters.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netlink/attr.h>
#include <linux/cmm_mp.h>

#include "libmp-private.h"
#include "mp_names.h"

uint32_t mp_device_id_of(const void *obj)
{
	return ((const struct mp_device *)obj)->id;
}

/* Fill @d from one DEV_GET message; DEV_ID is the only must-have. */
static int mp_device_parse(struct nlattr **tb, struct mp_device *d)
{
	int rc;

	uint32_t local = 1;

	memset(d, 0, sizeof(*d));
	d->node = CMM_MP_NONE;
	d->adist = CMM_MP_NONE;
	d->dram_adist = CMM_MP_NONE;
	rc = mp_nla_u32(tb, CMM_MP_A_DEV_ID, &d->id);
	if (rc)
		return -EPROTO;
	if (tb[CMM_MP_A_DEV_NAME])
		/* Bounded by the attribute; overlong names are cut. */
		snprintf(d->name, sizeof(d->name), "%.*s",
			 nla_len(tb[CMM_MP_A_DEV_NAME]),
			 (const char *)nla_data(tb[CMM_MP_A_DEV_NAME]));
	else
		snprintf(d->name, sizeof(d->name), "mp%u", d->id);

	rc = mp_nla_opt(mp_nla_u64(tb, CMM_MP_A_CHIP_ID, &d->chip_id));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u64(tb, CMM_MP_A_DEV_PHYS, &d->phys));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u64(tb, CMM_MP_A_DEV_SIZE, &d->size));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u64(tb, CMM_MP_A_SEG_SIZE,
					   &d->seg_size));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_NR_SEGS,
					   &d->nr_segs));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_NODE, &d->node));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u64(tb, CMM_MP_A_BLOCK_SIZE,
					   &d->block_size));
	/* the pool-wide view; a kernel without it lists its device alone */
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_DEV_STATE, &d->state));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_DEV_FIRST_SEG,
					   &d->first_seg));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u64(tb, CMM_MP_A_DEV_NHA, &d->nha));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_DEV_LOCAL, &local));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_POOL_STATE,
					   &d->pool_state));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_POOL_GEN, &d->gen));
	/* memory tiering: kernels before it say nothing */
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_DEV_ADISTANCE,
					   &d->adist));
	if (!rc)
		rc = mp_nla_opt(mp_nla_u32(tb, CMM_MP_A_DRAM_ADISTANCE,
					   &d->dram_adist));
	if (!rc && tb[CMM_MP_A_DEV_MAC]) {
		if (nla_len(tb[CMM_MP_A_DEV_MAC]) != (int)sizeof(d->mac))
			return -EPROTO;
		memcpy(d->mac, nla_data(tb[CMM_MP_A_DEV_MAC]), sizeof(d->mac));
		d->has_mac = true;
	}
	d->local = local != 0;
	return rc;
}

/**
 * mp_device_update() - mp_nl_parse_fn for DEV_GET answers
 * @ctx: context
 * @tb: attributes of one device message
 * @arg: unused
 *
 * Updates the device in place, or adds it.
 *
 * Return: 0 or a negative errno.
 */
int mp_device_update(struct mp_ctx *ctx, struct nlattr **tb, void *arg)
{
	struct mp_device tmp, *dev;
	ssize_t pos;
	size_t i;
	int rc;

	if (!tb) {
		/* the dump starts again: only what it lists then is present */
		for (i = 0; i < ctx->devs.nr; i++)
			((struct mp_device *)ctx->devs.v[i])->seen = false;
		return 0;
	}
	rc = mp_device_parse(tb, &tmp);
	if (rc)
		return mp_set_error(ctx, rc, "malformed device message");

	pos = mp_objvec_find(&ctx->devs, tmp.id, mp_device_id_of);
	if (pos >= 0) {
		dev = ctx->devs.v[pos];
	} else {
		dev = calloc(1, sizeof(*dev));
		if (!dev)
			return -ENOMEM;
		rc = mp_objvec_insert(&ctx->devs, -pos - 1, dev);
		if (rc) {
			free(dev);
			return rc;
		}
	}
	tmp.ctx = ctx;
	tmp.present = true;
	tmp.seen = true;
	*dev = tmp;
	return 0;
}

/* After a complete dump: devices the kernel did not list are gone. */
void mp_device_sweep(struct mp_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->devs.nr; i++) {
		struct mp_device *dev = ctx->devs.v[i];

		dev->present = dev->seen;
	}
}

static struct mp_device *mp_device_from(struct mp_ctx *ctx, size_t pos)
{
	for (; pos < ctx->devs.nr; pos++) {
		struct mp_device *dev = ctx->devs.v[pos];

		if (dev->present)
			return dev;
	}
	return NULL;
}

MP_EXPORT struct mp_device *cmmmp_device_get_first(struct mp_ctx *ctx)
{
	if (!ctx || mp_load_devices(ctx))
		return NULL;
	return mp_device_from(ctx, 0);
}

MP_EXPORT struct mp_device *cmmmp_device_get_next(struct mp_device *dev)
{
	ssize_t pos;

	if (!dev)
		return NULL;
	pos = mp_objvec_find(&dev->ctx->devs, dev->id, mp_device_id_of);
	if (pos < 0)
		return NULL;
	return mp_device_from(dev->ctx, pos + 1);
}

MP_EXPORT struct mp_device *cmmmp_device_get_by_id(struct mp_ctx *ctx,
						   uint32_t id)
{
	struct mp_device *dev;
	ssize_t pos;

	if (!ctx || mp_load_devices(ctx))
		return NULL;
	pos = mp_objvec_find(&ctx->devs, id, mp_device_id_of);
	if (pos < 0)
		goto enoent;
	dev = ctx->devs.v[pos];
	if (!dev->present)
		goto enoent;
	return dev;
enoent:
	mp_set_error(ctx, -ENOENT, "no device %u", id);
	return NULL;
}

MP_EXPORT struct mp_ctx *cmmmp_device_get_ctx(struct mp_device *dev)
{
	return dev->ctx;
}

MP_EXPORT uint32_t cmmmp_device_get_id(struct mp_device *dev)
{
	return dev->id;
}

MP_EXPORT const char *cmmmp_device_get_name(struct mp_device *dev)
{
	return dev->name;
}

MP_EXPORT uint64_t cmmmp_device_get_chip_id(struct mp_device *dev)
{
	return dev->chip_id;
}

MP_EXPORT uint64_t cmmmp_device_get_phys(struct mp_device *dev)
{
	return dev->phys;
}

MP_EXPORT uint64_t cmmmp_device_get_size(struct mp_device *dev)
{
	return dev->size;
}

MP_EXPORT uint64_t cmmmp_device_get_seg_size(struct mp_device *dev)
{
	return dev->seg_size;
}

MP_EXPORT uint32_t cmmmp_device_get_nr_segs(struct mp_device *dev)
{
	return dev->nr_segs;
}

MP_EXPORT int cmmmp_device_get_numa_node(struct mp_device *dev)
{
	return dev->node == CMM_MP_NONE ? -1 : (int)dev->node;
}

MP_EXPORT uint64_t cmmmp_device_get_block_size(struct mp_device *dev)
{
	return dev->block_size;
}

MP_EXPORT const uint8_t *cmmmp_device_get_mac(struct mp_device *dev)
{
	return dev->has_mac ? dev->mac : NULL;
}

MP_EXPORT enum mp_dev_state cmmmp_device_get_state(struct mp_device *dev)
{
	return (enum mp_dev_state)dev->state;
}

MP_EXPORT uint32_t cmmmp_device_get_first_segment(struct mp_device *dev)
{
	return dev->first_seg;
}

MP_EXPORT uint64_t cmmmp_device_get_nha(struct mp_device *dev)
{
	return dev->nha;
}

MP_EXPORT bool cmmmp_device_is_local(struct mp_device *dev)
{
	return dev->local;
}

MP_EXPORT enum mp_pool_state cmmmp_device_get_pool_state(struct mp_device *dev)
{
	return (enum mp_pool_state)dev->pool_state;
}

MP_EXPORT uint32_t cmmmp_device_get_generation(struct mp_device *dev)
{
	return dev->gen;
}

/* libmp's public enums are the kernel's numbers, named by the kernel's own
 * names (kernel/common/mp_names.c, compiled in).
 */
#define MP_SAME(a, b)	((int)(a) == (int)(b))
_Static_assert(MP_SAME(MP_DEV_UP, CMM_MP_DEV_UP) &&
	       MP_SAME(MP_DEV_LOST, CMM_MP_DEV_LOST),
	       "enum mp_dev_state is not the kernel's");
_Static_assert(MP_SAME(MP_POOL_LOCAL, CMM_MP_POOL_LOCAL) &&
	       MP_SAME(MP_POOL_DISCOVERY, CMM_MP_POOL_DISCOVERY) &&
	       MP_SAME(MP_POOL_RUNTIME, CMM_MP_POOL_RUNTIME) &&
	       MP_SAME(MP_POOL_CONFLICT, CMM_MP_POOL_CONFLICT),
	       "enum mp_pool_state is not the kernel's");

MP_EXPORT const char *cmmmp_dev_state_name(enum mp_dev_state state)
{
	return cmm_mp_dev_state_name(state);
}

MP_EXPORT const char *cmmmp_pool_state_name(enum mp_pool_state state)
{
	return cmm_mp_pool_state_name(state);
}

MP_EXPORT int cmmmp_device_get_abstract_distance(struct mp_device *dev)
{
	return !dev || dev->adist == CMM_MP_NONE ? -1 : (int)dev->adist;
}

MP_EXPORT int cmmmp_device_get_dram_abstract_distance(struct mp_device *dev)
{
	return !dev || dev->dram_adist == CMM_MP_NONE ? -1 :
							 (int)dev->dram_adist;
}

/* Does the node list @list ("0", "0-2,5") hold @node? */
static bool mp_nodelist_has(const char *list, int node)
{
	const char *p = list;

	while (*p >= '0' && *p <= '9') {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (node >= lo && node <= hi)
			return true;
		if (*end != ',')
			break;
		p = end + 1;
	}
	return false;
}

MP_EXPORT int cmmmp_get_node_memory_tier(struct mp_ctx *ctx, int node)
{
	char path[4096], list[256];
	struct dirent *de;
	int tier = -ENOENT;
	DIR *dir;

	if (!ctx || node < 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/devices/virtual/memory_tiering",
		 mp_sysfs_root());
	dir = opendir(path);
	if (!dir)
		return mp_set_error(ctx, -errno, "cannot read %s", path);
	while ((de = readdir(dir))) {
		unsigned int id;
		ssize_t n;
		int fd;

		if (sscanf(de->d_name, "memory_tier%u", &id) != 1)
			continue;
		if (snprintf(path, sizeof(path),
			     "%s/devices/virtual/memory_tiering/%s/nodelist",
			     mp_sysfs_root(), de->d_name) >= (int)sizeof(path))
			continue;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, list, sizeof(list) - 1);
		close(fd);
		if (n <= 0)
			continue;
		list[n] = '\0';
		if (mp_nodelist_has(list, node)) {
			tier = (int)id;
			break;
		}
	}
	closedir(dir);
	if (tier < 0)
		return mp_set_error(ctx, tier, "node %d is in no memory tier",
				    node);
	return tier;
}
