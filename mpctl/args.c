// SPDX-License-Identifier: GPL-2.0
/*
 * mpctl argument helpers. The segment list grammar is
 *
 *	list  := "all" | item ("," item)*
 *	item  := id | id "-" id		(an ascending, inclusive range)
 *	id    := decimal digits, at most MPCTL_SEG_ID_MAX
 *
 * Ids keep the order given, because mpctl processes them in that order and
 * stops at the first failure; naming an id twice (also through
 * overlapping ranges) is an error rather than silently done once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "util/util.h"

/*
 * Parse decimal digits at *s into *v, advancing *s. Stricter than
 * strtoul(): no sign, no spaces, no base prefix, no overflow.
 */
static int parse_dec(const char **s, uint64_t max, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		x = x * 10 + (uint64_t)(*p - '0');
		if (x > max)
			return -ERANGE;
	}
	*s = p;
	*v = x;
	return 0;
}

/**
 * mpctl_parse_u32() - parse a whole string as a decimal u32
 * @s: the string
 * @v: value out
 *
 * Return: 0, -EINVAL (not a plain decimal number), -ERANGE (too big).
 */
int mpctl_parse_u32(const char *s, uint32_t *v)
{
	uint64_t x;
	int rc;

	if (!s)
		return -EINVAL;
	rc = parse_dec(&s, UINT32_MAX, &x);
	if (rc)
		return rc;
	if (*s)
		return -EINVAL;
	*v = (uint32_t)x;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/**
 * mpctl_seglist_has() - is @id in the list?
 * @l: a parsed list ("all" has every id)
 * @id: segment id
 */
bool mpctl_seglist_has(const struct mpctl_seglist *l, uint32_t id)
{
	if (l->all)
		return true;
	return bsearch(&id, l->sorted, l->nr, sizeof(id), cmp_u32);
}

/* One "lo-hi" item of the list, and where it starts in the string. */
struct seg_item {
	uint32_t lo, hi;
	const char *at;
};

/* Expand the items, in order, into l->ids; keep a sorted copy. */
static int seglist_expand(struct mpctl_seglist *l, const struct seg_item *it,
			  size_t nr_items, size_t nr_ids)
{
	size_t i, n = 0;
	uint64_t id;

	l->ids = malloc(nr_ids * sizeof(*l->ids));
	l->sorted = malloc(nr_ids * sizeof(*l->sorted));
	if (!l->ids || !l->sorted)
		return -ENOMEM;
	for (i = 0; i < nr_items; i++)
		for (id = it[i].lo; id <= it[i].hi; id++)
			l->ids[n++] = (uint32_t)id;
	l->nr = n;
	memcpy(l->sorted, l->ids, n * sizeof(*l->ids));
	qsort(l->sorted, n, sizeof(*l->sorted), cmp_u32);
	return 0;
}

/*
 * One item, "N" or "N-M", at *@p (advanced past it). On failure *@p is
 * where the fault is: the bad number, or the item's start for a range
 * that goes down.
 */
static int parse_item(const char **p, struct seg_item *it)
{
	uint64_t lo, hi;
	int rc;

	it->at = *p;
	rc = parse_dec(p, MPCTL_SEG_ID_MAX, &lo);
	if (rc)
		return rc;
	hi = lo;
	if (**p == '-') {
		(*p)++;
		rc = parse_dec(p, MPCTL_SEG_ID_MAX, &hi);
		if (rc)
			return rc;
		if (hi < lo) {
			*p = it->at;
			return -EDOM;
		}
	}
	it->lo = (uint32_t)lo;
	it->hi = (uint32_t)hi;
	return 0;
}

/*
 * Append @it to @items, unless it overlaps one of them (-EEXIST) or makes
 * the list too long (-E2BIG); *@nr_ids counts the ids so far.
 */
static int add_item(struct seg_item **items, size_t *nr, size_t *alloc,
		    const struct seg_item *it, size_t *nr_ids)
{
	size_t i;

	/* Items are few (bounded by the string): check them pairwise. */
	for (i = 0; i < *nr; i++)
		if (it->lo <= (*items)[i].hi && (*items)[i].lo <= it->hi)
			return -EEXIST;
	if (*nr_ids + (it->hi - it->lo + 1ULL) > MPCTL_SEGLIST_MAX)
		return -E2BIG;
	if (*nr == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 8;
		struct seg_item *v = realloc(*items, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		*items = v;
		*alloc = n;
	}
	(*items)[(*nr)++] = *it;
	*nr_ids += it->hi - it->lo + 1ULL;
	return 0;
}

/**
 * mpctl_seglist_parse() - parse "all", "0", "0,2", "1-3", "0,4-6"...
 * @l: result; free with mpctl_seglist_free() (also after an error)
 * @s: the string
 * @bad: on error, set to where in @s the problem is
 *
 * Return: 0, -EINVAL (syntax), -EDOM (a descending range), -ERANGE (id
 * too big), -EEXIST (an id named twice), -E2BIG (more than
 * MPCTL_SEGLIST_MAX ids), -ENOMEM.
 */
int mpctl_seglist_parse(struct mpctl_seglist *l, const char *s,
			const char **bad)
{
	struct seg_item *items = NULL, it;
	size_t nr_items = 0, alloc = 0, nr_ids = 0;
	const char *p = s;
	int rc;

	memset(l, 0, sizeof(*l));
	if (bad)
		*bad = s;
	if (!s)
		return -EINVAL;
	if (!strcmp(s, "all")) {
		l->all = true;
		return 0;
	}
	for (;;) {
		rc = parse_item(&p, &it);
		if (rc)
			goto err;
		rc = add_item(&items, &nr_items, &alloc, &it, &nr_ids);
		if (rc) {
			if (rc != -ENOMEM)
				p = it.at;
			goto err;
		}
		if (!*p)
			break;
		if (*p != ',') {
			rc = -EINVAL;
			goto err;
		}
		p++;
	}
	rc = seglist_expand(l, items, nr_items, nr_ids);
	if (rc)
		goto err;
	free(items);
	return 0;
err:
	if (bad)
		*bad = p;
	free(items);
	return rc;
}

void mpctl_seglist_free(struct mpctl_seglist *l)
{
	free(l->ids);
	free(l->sorted);
	l->ids = NULL;
	l->sorted = NULL;
	l->nr = 0;
	l->all = false;
}

/**
 * mpctl_fmt_size() - a size the way daxctl -u prints it
 * @buf: output buffer (MPCTL_FMT_MAX is enough)
 * @len: its size
 * @size: bytes
 *
 * Below 1 KiB the plain number ("512"); above, the binary and the decimal
 * unit, each chosen so the number is below 1024 (1000):
 * "256.00 MiB (268.44 MB)".
 *
 * Return: @buf.
 */
const char *mpctl_fmt_size(char *buf, size_t len, uint64_t size)
{
	static const char units[] = "KMGTPE";
	double b2 = (double)size, b10 = (double)size;
	int i2 = -1, i10 = -1;

	if (size < 1024) {
		snprintf(buf, len, "%llu", (unsigned long long)size);
		return buf;
	}
	while (b2 >= 1024.0 && i2 < 5) {
		b2 /= 1024.0;
		i2++;
	}
	while (b10 >= 1000.0 && i10 < 5) {
		b10 /= 1000.0;
		i10++;
	}
	snprintf(buf, len, "%.2f %ciB (%.2f %c%s)", b2, units[i2], b10,
		 i10 == 0 ? 'k' : units[i10], "B");
	return buf;
}

/**
 * mpctl_fmt_hex() - an address or id the way daxctl -u prints it
 * @buf: output buffer
 * @len: its size
 * @v: the value
 *
 * Return: @buf, holding "0x" and lower-case hex digits.
 */
const char *mpctl_fmt_hex(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "0x%llx", (unsigned long long)v);
	return buf;
}

/**
 * mpctl_parse_mode() - the mode of `mpctl online --as`
 * @s: "ram" (or "system-ram"), "dax" or "blk"
 * @mode: the mode out; untouched on error
 *
 * Return: 0, or -EINVAL for anything else (NULL included).
 */
int mpctl_parse_mode(const char *s, enum mpctl_mode *mode)
{
	static const struct {
		const char *name;
		enum mpctl_mode mode;
	} names[] = {
		{ "ram", MPCTL_MODE_RAM }, { "system-ram", MPCTL_MODE_RAM },
		{ "dax", MPCTL_MODE_DAX }, { "blk", MPCTL_MODE_BLK },
	};
	size_t i;

	for (i = 0; s && i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i].name)) {
			*mode = names[i].mode;
			return 0;
		}
	}
	return -EINVAL;
}
