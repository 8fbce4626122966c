// SPDX-License-Identifier: GPL-2.0
/*
 * Pool Address Map Table (pure logic, shared with userspace tests).
 */
#include "mp_pamt.h"

static void mp_copy_mac(u8 *dst, const u8 *src)
{
	int i;

	for (i = 0; i < 6; i++)
		dst[i] = src[i];
}

/* Insertion sort of @t's first @n entries by chip id (usually sorted). */
static void mp_pamt_sort(struct mp_pamt *t, u32 n)
{
	struct mp_pamt_entry k;
	u32 i, j;

	for (i = 1; i < n; i++) {
		k = t->dev[i];
		for (j = i; j > 0 && t->dev[j - 1].chip_id > k.chip_id; j--)
			t->dev[j] = t->dev[j - 1];
		t->dev[j] = k;
	}
}

/**
 * mp_pamt_layout() - the pool map from entries filled in by the caller
 * @t: its first @n entries hold chip_id, mac and, in size, the capacity
 *	(any order); the rest is cleared
 * @n: number of members
 * @seg_size: bytes per segment; every capacity is rounded down to it so
 *	that no segment straddles two devices
 * @generation: membership generation the table belongs to
 *
 * Works in @t alone: no copy of the members on the stack, whatever
 * MP_PAMT_MAX_DEVS is. Return: as mp_pamt_build(); @t is undefined on
 * error.
 */
int mp_pamt_layout(struct mp_pamt *t, u32 n, u64 seg_size, u32 generation)
{
	u64 nha = 0;
	u32 i, seg = 0;

	if (!t || !n || n > MP_PAMT_MAX_DEVS || !seg_size)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (t->dev[i].size < seg_size)
			return -EINVAL;
	mp_pamt_sort(t, n);
	for (i = 1; i < n; i++)
		if (t->dev[i].chip_id == t->dev[i - 1].chip_id)
			return -EEXIST;
	for (i = n; i < MP_PAMT_MAX_DEVS; i++)
		t->dev[i] = (struct mp_pamt_entry){ 0 };
	for (i = 0; i < n; i++) {
		struct mp_pamt_entry *e = &t->dev[i];
		u64 segs = e->size / seg_size;

		if (segs > 0xffffffffULL - seg)
			return -ERANGE;
		e->valid = true;
		e->nha = nha;
		e->size = segs * seg_size;
		e->first_seg = seg;
		e->nr_segs = (u32)segs;
		if (nha + e->size < nha)
			return -ERANGE;
		nha += e->size;
		seg += e->nr_segs;
	}
	t->generation = generation;
	t->nr_devs = n;
	t->seg_size = seg_size;
	t->pool_size = nha;
	t->nr_segs = seg;
	return 0;
}

/**
 * mp_pamt_build() - compute the pool map from a member list
 * @t: the table to fill (undefined on error)
 * @m: members in any order (the discovery result)
 * @n: number of members
 * @seg_size: bytes per segment; every capacity is rounded down to it so
 *	that no segment straddles two devices
 * @generation: membership generation the table belongs to
 *
 * Return: 0; -EINVAL for no members, too many, a zero segment size or a
 * device smaller than one segment; -EEXIST when two members share a chip
 * id: such a pool is ambiguous and must be reported, not merged.
 */
int mp_pamt_build(struct mp_pamt *t, const struct mp_member *m, u32 n,
		  u64 seg_size, u32 generation)
{
	u32 i;

	if (!t || !m || !n || n > MP_PAMT_MAX_DEVS)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		t->dev[i] = (struct mp_pamt_entry){
			.chip_id = m[i].chip_id,
			.size = m[i].capacity,
		};
		mp_copy_mac(t->dev[i].mac, m[i].mac);
	}
	return mp_pamt_layout(t, n, seg_size, generation);
}

/* Return: the device id of @chip_id, or -ENOENT. */
int mp_pamt_devid_of(const struct mp_pamt *t, u64 chip_id)
{
	u32 lo = 0, hi = t->nr_devs;

	/* entries are in chip id order (device ids are the ranks) */
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (t->dev[mid].chip_id < chip_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->nr_devs && t->dev[lo].valid &&
	    t->dev[lo].chip_id == chip_id)
		return (int)lo;
	return -ENOENT;
}

/**
 * mp_pamt_resolve() - the paper's address resolution for one NHA
 * @t: the table
 * @nha: normalized host address (HA - HDM base)
 * @devid: the backing device
 * @offset: @nha - device pool offset: where in that device's DRAM
 * @room: bytes from @nha to the end of that device's range, so callers
 *	can split an access that would cross into the next device
 *
 * Return: 0, or -ENXIO when @nha is beyond the pool or its device left.
 */
int mp_pamt_resolve(const struct mp_pamt *t, u64 nha, u32 *devid,
		    u64 *offset, u64 *room)
{
	const struct mp_pamt_entry *e;
	u32 lo = 0, hi = t->nr_devs;

	/* ranges are laid end to end in device id order: the last one
	 * starting at or below @nha is the only candidate (O(log N) per
	 * access, 1024 devices included)
	 */
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (t->dev[mid].nha <= nha)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENXIO;
	e = &t->dev[lo - 1];
	if (nha - e->nha >= e->size || !e->valid)
		return -ENXIO;
	if (devid)
		*devid = lo - 1;
	if (offset)
		*offset = nha - e->nha;
	if (room)
		*room = e->size - (nha - e->nha);
	return 0;
}

/* Where pool-wide segment @seg lives: its device, NHA and device offset. */
int mp_pamt_seg(const struct mp_pamt *t, u32 seg, u32 *devid, u64 *nha,
		u64 *offset)
{
	u64 addr;
	u32 d;

	if (seg >= t->nr_segs)
		return -ENOENT;
	addr = (u64)seg * t->seg_size;
	if (mp_pamt_resolve(t, addr, &d, offset, NULL))
		return -ENXIO;
	if (devid)
		*devid = d;
	if (nha)
		*nha = addr;
	return 0;
}

/* Two devices agree on the pool when their tables match field by field. */
bool mp_pamt_equal(const struct mp_pamt *a, const struct mp_pamt *b)
{
	u32 i, k;

	if (a->generation != b->generation || a->nr_devs != b->nr_devs ||
	    a->seg_size != b->seg_size || a->pool_size != b->pool_size ||
	    a->nr_segs != b->nr_segs)
		return false;
	for (i = 0; i < a->nr_devs; i++) {
		const struct mp_pamt_entry *x = &a->dev[i], *y = &b->dev[i];

		if (x->valid != y->valid || x->chip_id != y->chip_id ||
		    x->nha != y->nha || x->size != y->size ||
		    x->first_seg != y->first_seg || x->nr_segs != y->nr_segs)
			return false;
		for (k = 0; k < 6; k++)
			if (x->mac[k] != y->mac[k])
				return false;
	}
	return true;
}
