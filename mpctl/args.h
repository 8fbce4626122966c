/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mpctl argument helpers: segment lists, numbers and human-readable sizes.
 * Pure string handling, no libmp or libnl, so they are unit-tested alone
 * (selftests/unit/test_mpctl_args.c).
 */
#ifndef _MPCTL_ARGS_H
#define _MPCTL_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most ids one list may name: "0-4000000000" must not eat all memory. */
#define MPCTL_SEGLIST_MAX	65536

/* Largest segment id a user may name (MP_NONE is reserved). */
#define MPCTL_SEG_ID_MAX	0xfffffffeU

struct mpctl_seglist {
	bool all;		/* "all" was given */
	uint32_t *ids;		/* ids in the order given */
	uint32_t *sorted;	/* the same, sorted, for lookups */
	size_t nr;
};

int mpctl_seglist_parse(struct mpctl_seglist *l, const char *s,
			const char **bad);
bool mpctl_seglist_has(const struct mpctl_seglist *l, uint32_t id);
void mpctl_seglist_free(struct mpctl_seglist *l);

int mpctl_parse_u32(const char *s, uint32_t *v);

/* `online --as`: the values of enum mp_seg_mode (libmp.h). */
enum mpctl_mode {
	MPCTL_MODE_RAM = 0,
	MPCTL_MODE_DAX = 1,
	MPCTL_MODE_BLK = 2,
};

int mpctl_parse_mode(const char *s, enum mpctl_mode *mode);

/* Big enough for "1023.99 EiB (1180.59 EB)" and "0xffffffffffffffff". */
#define MPCTL_FMT_MAX		48

const char *mpctl_fmt_size(char *buf, size_t len, uint64_t size);
const char *mpctl_fmt_hex(char *buf, size_t len, uint64_t v);

#endif /* _MPCTL_ARGS_H */
