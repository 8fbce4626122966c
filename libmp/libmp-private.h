/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libmp internals: object layout and the helpers the files of the library
 * share. Nothing here is exported (see libmp.sym).
 */
#ifndef _LIBMP_PRIVATE_H
#define _LIBMP_PRIVATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <sys/types.h>

/* the library itself uses only the cmmmp_ names */
#define LIBMP_NO_OLD_NAMES
#include "libmp.h"
#include "util/util.h"

#define MP_EXPORT __attribute__((visibility("default")))

struct nl_msg;
struct nl_sock;
struct nlattr;
struct nlmsghdr;

/* Longest device name we keep ("mp0"); longer names are cut. */
#define MP_NAME_MAX		32
/* Longest error message kept in the context. */
#define MP_ERRMSG_MAX		256

struct mp_device {
	struct mp_ctx *ctx;
	bool present;		/* seen by the last successful refresh */
	bool seen;		/* seen by the refresh in progress */
	uint32_t id;
	char name[MP_NAME_MAX];
	uint64_t chip_id;
	uint64_t phys;
	uint64_t size;
	uint64_t seg_size;
	uint32_t nr_segs;
	uint32_t node;
	uint64_t block_size;
	bool has_mac;
	uint8_t mac[6];
	uint32_t state;		/* enum mp_dev_state */
	uint32_t first_seg;
	uint64_t nha;
	bool local;
	uint32_t pool_state;	/* enum mp_pool_state */
	uint32_t gen;
	uint32_t adist;		/* CMM_MP_NONE when the kernel did not say */
	uint32_t dram_adist;
};

/* What one SEG_* message says about a segment. */
struct mp_seg_info {
	uint32_t id;
	uint32_t dev_id;
	uint64_t nha;
	uint64_t phys;
	uint64_t size;
	uint32_t state;
	uint32_t mode;
	uint32_t owner;
	uint32_t node;
	uint32_t memblk_first;
	uint32_t memblk_count;
	uint32_t memblk_online;
	uint32_t memblk_movable;
	uint32_t shared;
	uint32_t sharers;
	uint32_t memmap_on_memory;
	char devnode[32];	/* "" when not mapped on this host */
	/* a mirrored mapping (LIBMP_1.8): the other copy, and how both are */
	uint32_t mirror;	/* CMM_MP_NONE when not mirrored */
	uint32_t redundancy;	/* enum mp_seg_redundancy, 0 if none */
	bool has_rebuilt;	/* SEG_REBUILT sent: a rebuild runs */
	uint64_t rebuilt;
};

struct mp_segment {
	struct mp_ctx *ctx;
	bool present;
	bool seen;
	struct mp_seg_info info;
	/* what the last online found (auto-online policy); kept by refreshes */
	uint32_t auto_onlined;
	uint32_t reonlined;
	uint32_t auto_zone;	/* enum mp_zone */
};

/*
 * Objects live in arrays of pointers sorted by id: lookups are binary
 * searches, get_next is a search plus one, and an object's address never
 * changes, so pointers handed out stay valid.
 */
struct mp_objvec {
	void **v;
	size_t nr;
	size_t alloc;
};

/* One CMM_MP_CMD_STATS_GET message: a peer of the backend. */
struct mp_peer {
	struct mp_ctx *ctx;
	uint32_t id;
	uint8_t mac[6];
	bool reachable;
	uint32_t inflight;
	uint64_t ctr[MP_PEER_NR_COUNTERS];
};

struct mp_ctx {
	int refcount;
	bool loaded;		/* one refresh has succeeded */
	bool devs_loaded;	/* one device dump has succeeded */
	struct nl_sock *sk;	/* request socket, opened on first use */
	int family;		/* genetlink family id of "cmm_mp" */
	struct mp_objvec devs;	/* struct mp_device *, sorted by id */
	struct mp_objvec segs;	/* struct mp_segment *, sorted by id */
	struct mp_objvec peers;	/* struct mp_peer *, sorted by id (peer.c) */
	bool peers_loaded;	/* one stats dump has succeeded */
	int last_err;
	enum mp_err_origin last_origin;
	char last_msg[MP_ERRMSG_MAX];
};

/* ctx.c */
__printf(3, 4)
int mp_set_error(struct mp_ctx *ctx, int err, const char *fmt, ...);
void mp_clear_error(struct mp_ctx *ctx);
void mp_set_error_origin(struct mp_ctx *ctx, enum mp_err_origin origin);
int mp_load(struct mp_ctx *ctx);
int mp_load_devices(struct mp_ctx *ctx);
ssize_t mp_objvec_find(struct mp_objvec *ov, uint32_t id,
		       uint32_t (*id_of)(const void *));
int mp_objvec_insert(struct mp_objvec *ov, size_t pos, void *obj);
void mp_objvec_free(struct mp_objvec *ov, void (*free_obj)(void *));

/*
 * nl.c: a parse function gets each answer's attributes in @tb. For a dump
 * the kernel reported changed under it (NLM_F_DUMP_INTR) it is called with
 * @tb NULL before the dump starts again: it forgets what it was handed,
 * or returns a negative errno (recorded in @ctx) to end the request.
 */
typedef int (*mp_nl_parse_fn)(struct mp_ctx *ctx, struct nlattr **tb,
			      void *arg);
int mp_nl_connect(struct mp_ctx *ctx);
void mp_nl_close(struct mp_ctx *ctx);
/* or'ed into mp_nl_request()'s mode: ask for sharing mode */
#define MP_NL_MODE_SHARED	0x80000000u
/* or'ed into mp_nl_request()'s mode: the memmap on the segment (RAM) */
#define MP_NL_MODE_MEMMAP	0x40000000u
/* mp_nl_request()'s mode without CMM_MP_A_SEG_MODE: the kernel's choice */
#define MP_NL_MODE_AUTO		0x3fffffffu
int mp_nl_request(struct mp_ctx *ctx, uint8_t cmd, bool dump,
		  const uint32_t *seg_id, const uint32_t *mode,
		  mp_nl_parse_fn parse, void *arg);
/* What a segment command carries; NULL members are left out. */
struct mp_nl_seg_req {
	const uint32_t *seg_id;
	const uint32_t *mode;	/* as mp_nl_request()'s */
	const uint32_t *mirror;	/* CMM_MP_A_SEG_MIRROR */
};

int mp_nl_request_seg(struct mp_ctx *ctx, uint8_t cmd,
		      const struct mp_nl_seg_req *r, mp_nl_parse_fn parse,
		      void *arg);
/* puts a request's attributes; < 0 when the message is full */
typedef int (*mp_nl_fill_fn)(struct nl_msg *msg, const void *arg);
int mp_nl_request_fill(struct mp_ctx *ctx, uint8_t cmd, bool dump,
		       mp_nl_fill_fn fill, const void *fill_arg,
		       mp_nl_parse_fn parse, void *arg);
int mp_nl_parse_msg(struct nlattr **tb, const struct nlmsghdr *nlh);
int mp_nl_err_from_nlerr(int nlerr);
int mp_nl_resolve(struct nl_sock *sk, int *family, int *events_grp);
int mp_nl_errmsg_parse(const struct nlmsghdr *nlh, int *err,
		       char *msg, size_t len);
int mp_nla_u32(struct nlattr **tb, int type, uint32_t *v);
int mp_nla_u64(struct nlattr **tb, int type, uint64_t *v);

/* For optional attributes: absent is fine, malformed is not. */
static inline int mp_nla_opt(int rc)
{
	return rc == -ENOENT ? 0 : rc;
}

/* device.c */
int mp_device_update(struct mp_ctx *ctx, struct nlattr **tb, void *arg);
void mp_device_sweep(struct mp_ctx *ctx);
uint32_t mp_device_id_of(const void *obj);

/* segment.c */
int mp_seg_info_parse(struct nlattr **tb, struct mp_seg_info *info);
int mp_segment_update(struct mp_ctx *ctx, struct nlattr **tb, void *arg);
struct mp_segment *mp_segment_upsert(struct mp_ctx *ctx,
				     const struct mp_seg_info *info);
void mp_segment_sweep(struct mp_ctx *ctx);
uint32_t mp_segment_id_of(const void *obj);
int mp_segment_cmd_mirror(struct mp_segment *seg, uint8_t cmd,
			  const uint32_t *mode, const uint32_t *mirror);
int mp_segment_do_online(struct mp_segment *seg, const uint32_t *mode,
			 const uint32_t *mirror, unsigned long flags);

/* mirror.c */
void mp_mirror_offlined(struct mp_ctx *ctx, uint32_t mirror);

/* peer.c */
uint32_t mp_peer_id_of(const void *obj);

/* memblock.c */
const char *mp_sysfs_root(void);
int mp_memblock_get_state(uint32_t nr, char *buf, size_t len);
/* What onlining found: blocks the kernel onlined itself, and their zone. */
struct mp_online_report {
	uint32_t auto_onlined;	/* blocks found online already */
	enum mp_zone auto_zone;	/* the zone they were in */
	uint32_t reonlined;	/* of those, moved to the zone asked for */
};

enum mp_zone mp_memblock_get_zone(uint32_t nr);
int mp_memblock_online(uint32_t nr, bool movable, bool keep,
		       struct mp_online_report *r);
int mp_memblock_online_range(uint32_t first, uint32_t count, bool movable,
			     bool keep, struct mp_online_report *r,
			     uint32_t *failed);
int mp_memblock_offline(uint32_t nr);
bool mp_memblock_is_online(uint32_t nr);
int mp_auto_online_policy(char *buf, size_t len);

#endif /* _LIBMP_PRIVATE_H */
