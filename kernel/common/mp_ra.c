// SPDX-License-Identifier: GPL-2.0
/*
 * Read-ahead bookkeeping of a block device over remote memory (mp_ra.h).
 */
#include "mp_ra.h"

static u32 mp_ra_shift(const struct mp_ra *ra)
{
	u32 s = 0;

	while ((1U << s) < ra->chunk_bytes)
		s++;
	return s;
}

static u64 mp_ra_start(const struct mp_ra *ra, const struct mp_ra_slot *s)
{
	return s->chunk << mp_ra_shift(ra);
}

/* The slot that holds @chunk and may serve a read, or -1. */
static int mp_ra_find(const struct mp_ra *ra, u64 chunk)
{
	u32 i;

	for (i = 0; i < MP_RA_SLOTS; i++) {
		const struct mp_ra_slot *s = &ra->slot[i];

		if ((s->state == MP_RA_FILLING || s->state == MP_RA_READY) &&
		    !s->stale && s->chunk == chunk)
			return i;
	}
	return -1;
}

/**
 * mp_ra_init() - no chunk held, no stream seen
 * @ra: the bookkeeping
 * @size: bytes of the device, not 0
 * @chunk_bytes: a power of two, not 0
 *
 * Return: 0 or -EINVAL.
 */
int mp_ra_init(struct mp_ra *ra, u64 size, u32 chunk_bytes)
{
	u32 i;

	if (!size || !chunk_bytes || (chunk_bytes & (chunk_bytes - 1)))
		return -EINVAL;
	for (i = 0; i < MP_RA_SLOTS; i++)
		ra->slot[i] = (struct mp_ra_slot){ .state = MP_RA_FREE };
	ra->size = size;
	ra->chunk_bytes = chunk_bytes;
	/* no read ends there: the first read is not sequential */
	ra->next = ~0ULL;
	ra->tick = 0;
	ra->cap = MP_RA_MAX_DEPTH;
	ra->good = 0;
	return 0;
}

/**
 * mp_ra_lookup() - is the read of [@pos, + @len) held?
 * @ra: the bookkeeping
 * @pos: the read's first byte
 * @len: its bytes
 * @idx: the slots it copies from, in the device's order (HIT, WAIT)
 * @nr: how many (HIT, WAIT; else 0)
 *
 * A read held whole is pinned to its slots; mp_ra_unpin() each once it
 * copied (or gave up). Nothing changes on a miss.
 */
enum mp_ra_hit mp_ra_lookup(struct mp_ra *ra, u64 pos, u32 len,
			    u32 idx[MP_RA_MAX_PINS], u32 *nr)
{
	u32 shift = mp_ra_shift(ra), n = 0, i;
	bool filling = false;
	u64 c, first, last;

	*nr = 0;
	if (!len || len > ra->chunk_bytes || pos >= ra->size ||
	    len > ra->size - pos)
		return MP_RA_MISS;
	first = pos >> shift;
	last = (pos + len - 1) >> shift;
	for (c = first; c <= last; c++) {
		int s = mp_ra_find(ra, c);

		if (s < 0)
			return MP_RA_MISS;
		idx[n++] = s;
	}
	ra->tick++;
	for (i = 0; i < n; i++) {
		struct mp_ra_slot *s = &ra->slot[idx[i]];

		s->pins++;
		s->used = ra->tick;
		filling |= s->state == MP_RA_FILLING;
	}
	*nr = n;
	return filling ? MP_RA_WAIT : MP_RA_HIT;
}

/* Free @s if nothing needs it any more. */
static bool mp_ra_release(struct mp_ra_slot *s)
{
	if (s->pins || s->state == MP_RA_FILLING || s->state == MP_RA_FREE ||
	    (s->state == MP_RA_READY && !s->stale))
		return false;
	s->state = MP_RA_FREE;
	s->stale = false;
	return true;
}

/**
 * mp_ra_unpin() - a read is done with slot @idx
 * @ra: the bookkeeping
 * @idx: a slot mp_ra_lookup() pinned
 *
 * Return: whether the slot was freed (stale or failed, and unpinned).
 */
bool mp_ra_unpin(struct mp_ra *ra, u32 idx)
{
	struct mp_ra_slot *s;

	if (idx >= MP_RA_SLOTS || !ra->slot[idx].pins)
		return false;
	s = &ra->slot[idx];
	s->pins--;
	return mp_ra_release(s);
}

/*
 * A slot for a new chunk: a free one, else the least recently used READY
 * one that no read holds and that is not in [@lo, @hi], the chunks the
 * stream is about to read; -1 when there is none.
 */
static int mp_ra_victim(const struct mp_ra *ra, u64 lo, u64 hi)
{
	int best = -1;
	u32 i;

	for (i = 0; i < MP_RA_SLOTS; i++) {
		const struct mp_ra_slot *s = &ra->slot[i];

		if (s->state == MP_RA_FREE)
			return i;
		if (s->state != MP_RA_READY || s->pins ||
		    (s->chunk >= lo && s->chunk <= hi))
			continue;
		if (best < 0 || s->used < ra->slot[best].used)
			best = i;
	}
	return best;
}

/**
 * mp_ra_plan() - what to fetch after a read of [@pos, + @len)
 * @ra: the bookkeeping
 * @pos: the read's first byte (any read, held or not)
 * @len: its bytes
 * @depth: chunks to hold ahead of a sequential reader (0: none; at most
 *	MP_RA_MAX_DEPTH, and at most the depth in use count)
 * @fill: the fetches to start, each slot now FILLING
 * @max: room in @fill
 *
 * Return: the number of fetches in @fill; each ends in mp_ra_filled().
 */
u32 mp_ra_plan(struct mp_ra *ra, u64 pos, u32 len, u32 depth,
	       struct mp_ra_fill *fill, u32 max)
{
	u32 shift = mp_ra_shift(ra), n = 0;
	u64 end, c, lo, hi, dev_last;
	bool seq = pos == ra->next;

	if (pos >= ra->size || len > ra->size - pos)
		return 0;
	end = pos + len;
	ra->next = end;
	if (!seq || !depth || !len || end == ra->size)
		return 0;
	if (depth > ra->cap)
		depth = ra->cap;
	lo = pos >> shift;
	hi = (end >> shift) + depth - 1;
	dev_last = (ra->size - 1) >> shift;
	if (hi > dev_last)
		hi = dev_last;
	for (c = end >> shift; c <= hi && n < max; c++) {
		struct mp_ra_slot *s;
		int v;

		if (mp_ra_find(ra, c) >= 0)
			continue;
		v = mp_ra_victim(ra, lo, hi);
		if (v < 0)
			break;
		s = &ra->slot[v];
		s->chunk = c;
		s->len = ra->size - (c << shift) < ra->chunk_bytes ?
			 ra->size - (c << shift) : ra->chunk_bytes;
		s->state = MP_RA_FILLING;
		s->stale = false;
		s->pins = 0;
		s->used = ++ra->tick;
		fill[n].idx = v;
		fill[n].pos = c << shift;
		fill[n].len = s->len;
		n++;
	}
	return n;
}

/**
 * mp_ra_filled() - the fetch into slot @idx ended
 * @ra: the bookkeeping
 * @idx: a slot mp_ra_plan() handed out
 * @ok: whether its bytes arrived
 *
 * Return: whether reads wait for it (pinned): settle them now.
 */
bool mp_ra_filled(struct mp_ra *ra, u32 idx, bool ok)
{
	struct mp_ra_slot *s;

	if (idx >= MP_RA_SLOTS || ra->slot[idx].state != MP_RA_FILLING)
		return false;
	s = &ra->slot[idx];
	s->state = ok ? MP_RA_READY : MP_RA_FAILED;
	if (ok && ++ra->good >= ra->cap) {
		ra->good = 0;
		if (ra->cap < MP_RA_MAX_DEPTH)
			ra->cap++;
	}
	mp_ra_release(s);
	return s->pins;
}

/**
 * mp_ra_busy() - the transport had no room for a fetch: halve the depth
 * @ra: the bookkeeping
 */
void mp_ra_busy(struct mp_ra *ra)
{
	ra->cap = ra->cap > 1 ? ra->cap / 2 : 1;
	ra->good = 0;
}

/**
 * mp_ra_invalidate() - device bytes [@pos, + @len) are being written
 * @ra: the bookkeeping
 * @pos: the first byte written
 * @len: bytes written
 *
 * Return: the slots it made stale or freed.
 */
u32 mp_ra_invalidate(struct mp_ra *ra, u64 pos, u64 len)
{
	u64 end = len > ~0ULL - pos ? ~0ULL : pos + len;
	u32 i, n = 0;

	for (i = 0; i < MP_RA_SLOTS; i++) {
		struct mp_ra_slot *s = &ra->slot[i];
		u64 start = mp_ra_start(ra, s);

		if (s->state == MP_RA_FREE || s->stale ||
		    start >= end || pos >= start + s->len)
			continue;
		s->stale = true;
		mp_ra_release(s);
		n++;
	}
	return n;
}

/**
 * mp_ra_settled() - have the fetches of a waiting read all ended?
 * @ra: the bookkeeping
 * @idx: the slots mp_ra_lookup() pinned for it
 * @nr: how many
 * @failed: set when one of them failed (read it from the device instead)
 */
bool mp_ra_settled(const struct mp_ra *ra, const u32 *idx, u32 nr,
		   bool *failed)
{
	u32 i;

	*failed = false;
	for (i = 0; i < nr; i++) {
		u8 st = ra->slot[idx[i]].state;

		if (st == MP_RA_FILLING)
			return false;
		*failed |= st != MP_RA_READY;
	}
	return true;
}

/**
 * mp_ra_copy_range() - the part of a read of [@pos, + @len) in slot @idx
 * @ra: the bookkeeping
 * @idx: a slot the read is pinned to
 * @pos: the read's first byte
 * @len: its bytes
 * @off: set to the part's offset in the slot's buffer
 *
 * Return: the part's bytes (0 when the slot holds none of the read).
 */
u32 mp_ra_copy_range(const struct mp_ra *ra, u32 idx, u64 pos, u32 len,
		     u32 *off)
{
	const struct mp_ra_slot *s = &ra->slot[idx];
	u64 start = mp_ra_start(ra, s), end = start + s->len;
	u64 a = pos > start ? pos : start;
	u64 b = pos + len < end ? pos + len : end;

	*off = 0;
	if (a >= b)
		return 0;
	*off = a - start;
	return b - a;
}
