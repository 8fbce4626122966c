// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the pool map and the segment geometry: arbitrary
 * member lists go through mp_pamt_build() and arbitrary ranges and
 * geometries through the memmap= parser and the segment arithmetic. It
 * checks what discovery and the segment code rely on and aborts when one
 * breaks:
 *  - a table is built exactly when the list is valid (1..MAX members,
 *    every capacity at least one segment, unique chip ids, no overflow),
 *    and the error says which rule failed;
 *  - device ids are the ranks of the chip ids, device ranges are laid end
 *    to end, each a whole number of segments, and the table does not
 *    depend on the order the members were heard in;
 *  - every NHA inside the pool resolves to the one device range holding
 *    it, every NHA past it fails, and no segment straddles two devices;
 *  - a parsed range re-parses from its canonical text to the same range;
 *    segment ranges tile the geometry, and phys -> segment inverts it.
 *
 * Input: byte 0 selects the part; the rest is read as little-endian
 * words, zero past the end (fuzz_input_* below).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp_pamt.h"
#include "mp_seg.h"

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

struct fuzz_input {
	const uint8_t *p;
	size_t len;
};

static u64 next_u64(struct fuzz_input *in, unsigned int bytes)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++) {
		if (in->len) {
			v |= (u64)in->p[0] << (8 * i);
			in->p++;
			in->len--;
		}
	}
	return v;
}

/* What mp_pamt_build() must answer for this list, by brute force. */
static int pamt_expect(const struct mp_member *m, u32 n, u64 seg_size)
{
	u64 nha = 0, segs = 0;
	u32 i, j;

	if (!n || n > MP_PAMT_MAX_DEVS || !seg_size)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (m[i].capacity < seg_size)
			return -EINVAL;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (m[i].chip_id == m[j].chip_id)
				return -EEXIST;
	for (i = 0; i < n; i++) {
		u64 s = m[i].capacity / seg_size;

		if (segs + s > 0xffffffffULL)
			return -ERANGE;
		segs += s;
		if (nha + s * seg_size < nha)
			return -ERANGE;
		nha += s * seg_size;
	}
	return 0;
}

static void check_table(const struct mp_pamt *t, const struct mp_member *m,
			u32 n, u64 seg_size)
{
	u64 nha = 0;
	u32 i, j, seg = 0;

	CHECK(t->nr_devs == n && t->seg_size == seg_size);
	for (i = 0; i < n; i++) {
		const struct mp_pamt_entry *e = &t->dev[i];
		const struct mp_member *mm = NULL;

		CHECK(e->valid);
		if (i)
			CHECK(t->dev[i - 1].chip_id < e->chip_id);
		for (j = 0; j < n; j++)
			if (m[j].chip_id == e->chip_id)
				mm = &m[j];
		CHECK(mm && !memcmp(mm->mac, e->mac, 6));
		CHECK(e->size == mm->capacity / seg_size * seg_size);
		CHECK(e->nha == nha && e->first_seg == seg);
		CHECK((u64)e->nr_segs * seg_size == e->size);
		CHECK(mp_pamt_devid_of(t, e->chip_id) == (int)i);
		nha += e->size;
		seg += e->nr_segs;
	}
	CHECK(t->pool_size == nha && t->nr_segs == seg);
}

static void check_nha(const struct mp_pamt *t, u64 nha)
{
	u64 off = ~0ULL, room = 0;
	u32 d = ~0U;
	int ret = mp_pamt_resolve(t, nha, &d, &off, &room);

	if (nha >= t->pool_size) {
		CHECK(ret == -ENXIO);
		return;
	}
	CHECK(!ret && d < t->nr_devs);
	CHECK(nha >= t->dev[d].nha && off == nha - t->dev[d].nha);
	CHECK(off < t->dev[d].size && room == t->dev[d].size - off);
}

static void check_seg(const struct mp_pamt *t, u32 seg)
{
	u64 nha, off;
	u32 d;
	int ret = mp_pamt_seg(t, seg, &d, &nha, &off);

	if (seg >= t->nr_segs) {
		CHECK(ret == -ENOENT);
		return;
	}
	CHECK(!ret && d < t->nr_devs && nha == (u64)seg * t->seg_size);
	CHECK(off % t->seg_size == 0 && off + t->seg_size <= t->dev[d].size);
	CHECK(seg >= t->dev[d].first_seg &&
	      seg - t->dev[d].first_seg < t->dev[d].nr_segs);
}

static void fuzz_pamt(struct fuzz_input *in)
{
	struct mp_member m[MP_PAMT_MAX_DEVS + 2], r[MP_PAMT_MAX_DEVS + 2];
	static struct mp_pamt t, t2;
	u32 n = next_u64(in, 1) % (MP_PAMT_MAX_DEVS + 2);
	u64 seg_size = 1ULL << (next_u64(in, 1) % 41);
	u32 gen = next_u64(in, 4);
	int ret, want;
	u32 i;

	for (i = 0; i < n; i++) {
		/* small chip ids collide often: the duplicate path gets hit */
		m[i].chip_id = next_u64(in, 1) & 1 ? next_u64(in, 1) :
			       next_u64(in, 8);
		m[i].capacity = next_u64(in, 8);
		memcpy(m[i].mac, &(u64){ next_u64(in, 6) }, 6);
	}
	want = pamt_expect(m, n, seg_size);
	ret = mp_pamt_build(&t, m, n, seg_size, gen);
	CHECK(ret == want);
	if (ret)
		return;
	CHECK(t.generation == gen);
	check_table(&t, m, n, seg_size);
	/* the order members were heard in must not matter */
	for (i = 0; i < n; i++)
		r[i] = m[n - 1 - i];
	CHECK(!mp_pamt_build(&t2, r, n, seg_size, gen));
	CHECK(mp_pamt_equal(&t, &t2));
	t2.dev[n - 1].size ^= seg_size;
	CHECK(!mp_pamt_equal(&t, &t2));

	check_nha(&t, 0);
	check_nha(&t, t.pool_size - 1);
	check_nha(&t, t.pool_size);
	check_seg(&t, 0);
	check_seg(&t, t.nr_segs - 1);
	check_seg(&t, t.nr_segs);
	while (in->len) {
		u64 v = next_u64(in, 8);

		/* half inside the pool, half anywhere (2 * size may wrap) */
		check_nha(&t, v & 1 ? v : v % t.pool_size);
		check_seg(&t, v & 2 ? (u32)v : (u32)(v % t.nr_segs));
	}
}

static void fuzz_range(struct fuzz_input *in)
{
	char s[64], canon[64];
	struct mp_range r, r2;
	size_t n = in->len < sizeof(s) - 1 ? in->len : sizeof(s) - 1;

	memcpy(s, in->p, n);
	s[n] = '\0';
	if (mp_parse_range(s, &r))
		return;
	CHECK(r.size && r.base + r.size >= r.base);
	snprintf(canon, sizeof(canon), "%#llx%c%#llx",
		 (unsigned long long)r.size,
		 r.kind == MP_RANGE_PMEM ? '!' : '$',
		 (unsigned long long)r.base);
	CHECK(!mp_parse_range(canon, &r2));
	CHECK(r2.base == r.base && r2.size == r.size && r2.kind == r.kind);
}

static void fuzz_geometry(struct fuzz_input *in)
{
	struct mp_geometry g;
	u64 block = 1ULL << (next_u64(in, 1) % 48);
	u64 seg_size = block * (next_u64(in, 2) + 1);
	u64 base = next_u64(in, 8) & ~(block - 1);
	u64 size = seg_size * (next_u64(in, 4) + 1);
	u64 phys, len;
	u32 seg, first, count, s2;
	int k;

	u8 how = next_u64(in, 1);

	if (how & 1)		/* sometimes raw, unaligned values */
		size = next_u64(in, 8);
	if (how & 2)		/* huge segments of tiny blocks */
		seg_size = block * (next_u64(in, 6) + 1);
	if (mp_geometry_init(&g, base, size, seg_size, block))
		return;
	CHECK(g.nr_segs && (u64)g.nr_segs * g.seg_size == g.size);
	for (k = 0; k < 8; k++) {
		seg = k < 2 ? (k ? g.nr_segs - 1 : 0) :
		      (u32)(next_u64(in, 4) % g.nr_segs);
		CHECK(!mp_seg_range(&g, seg, &phys, &len));
		CHECK(len == g.seg_size &&
		      phys == g.base + (u64)seg * g.seg_size);
		CHECK(!mp_seg_of_phys(&g, phys, &s2) && s2 == seg);
		CHECK(!mp_seg_of_phys(&g, phys + len - 1, &s2) && s2 == seg);
		if (!mp_seg_blocks(&g, seg, &first, &count)) {
			CHECK((u64)first * g.block_size == phys);
			CHECK((u64)count * g.block_size == g.seg_size);
		}
	}
	CHECK(mp_seg_range(&g, g.nr_segs, NULL, NULL) == -ENOENT);
	CHECK(mp_seg_of_phys(&g, g.base + g.size, NULL) == -ENOENT);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size };

	switch (next_u64(&in, 1) % 3) {
	case 0:
		fuzz_pamt(&in);
		break;
	case 1:
		fuzz_range(&in);
		break;
	default:
		fuzz_geometry(&in);
		break;
	}
	return 0;
}
