// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the Pool Address Map Table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mp_pamt.h"

#define MiB (1024ULL * 1024)

static struct mp_member member(u64 chip, u64 cap, u8 last)
{
	struct mp_member m = { .chip_id = chip, .capacity = cap,
			       .mac = { 0x52, 0x54, 0, 0x6d, 0x70, last } };
	return m;
}

/* The uneven pool: 256, 512 and 256 MiB, listed out of order. */
static void test_build_uneven(void **state)
{
	struct mp_member m[3] = {
		member(0x30, 256 * MiB, 3),
		member(0x10, 512 * MiB, 1),
		member(0x20, 256 * MiB, 2),
	};
	struct mp_pamt t;

	assert_int_equal(mp_pamt_build(&t, m, 3, 128 * MiB, 7), 0);
	assert_int_equal(t.nr_devs, 3);
	assert_int_equal(t.generation, 7);
	assert_true(t.pool_size == 1024 * MiB);
	assert_int_equal(t.nr_segs, 8);
	/* device ids by chip id rank, offsets the running sum of capacities */
	assert_true(t.dev[0].chip_id == 0x10 && t.dev[0].nha == 0);
	assert_true(t.dev[1].chip_id == 0x20 && t.dev[1].nha == 512 * MiB);
	assert_true(t.dev[2].chip_id == 0x30 && t.dev[2].nha == 768 * MiB);
	assert_int_equal(t.dev[1].first_seg, 4);
	assert_int_equal(t.dev[2].first_seg, 6);
	assert_int_equal(t.dev[2].mac[5], 3);
	assert_int_equal(mp_pamt_devid_of(&t, 0x30), 2);
	assert_int_equal(mp_pamt_devid_of(&t, 0x40), -ENOENT);
}

static void test_resolve(void **state)
{
	struct mp_member m[2] = { member(5, 256 * MiB, 1), member(9, 384 * MiB, 2) };
	struct mp_pamt t;
	u64 off, room, nha;
	u32 dev;

	assert_int_equal(mp_pamt_build(&t, m, 2, 128 * MiB, 1), 0);
	assert_int_equal(mp_pamt_resolve(&t, 0, &dev, &off, &room), 0);
	assert_true(dev == 0 && off == 0 && room == 256 * MiB);
	assert_int_equal(mp_pamt_resolve(&t, 256 * MiB - 1, &dev, &off, &room), 0);
	assert_true(dev == 0 && off == 256 * MiB - 1 && room == 1);
	assert_int_equal(mp_pamt_resolve(&t, 256 * MiB, &dev, &off, &room), 0);
	assert_true(dev == 1 && off == 0 && room == 384 * MiB);
	assert_int_equal(mp_pamt_resolve(&t, 640 * MiB, &dev, &off, &room), -ENXIO);
	assert_int_equal(mp_pamt_seg(&t, 3, &dev, &nha, &off), 0);
	assert_true(dev == 1 && nha == 384 * MiB && off == 128 * MiB);
	assert_int_equal(mp_pamt_seg(&t, 5, &dev, &nha, &off), -ENOENT);
	/* a device that left: its range fails, the others still resolve */
	t.dev[0].valid = false;
	assert_int_equal(mp_pamt_resolve(&t, 4096, &dev, &off, NULL), -ENXIO);
	assert_int_equal(mp_pamt_seg(&t, 0, &dev, &nha, &off), -ENXIO);
	assert_int_equal(mp_pamt_resolve(&t, 300 * MiB, &dev, &off, NULL), 0);
}

static void test_rejects(void **state)
{
	struct mp_member m[3] = {
		member(1, 256 * MiB, 1), member(2, 64 * MiB, 2), member(1, 256 * MiB, 3),
	};
	struct mp_member many[MP_PAMT_MAX_DEVS + 1];
	struct mp_pamt t;
	u32 i;

	/* duplicate chip id: ambiguous, reported */
	m[1].capacity = 256 * MiB;
	assert_int_equal(mp_pamt_build(&t, m, 3, 128 * MiB, 1), -EEXIST);
	/* a device smaller than one segment */
	m[1].capacity = 64 * MiB;
	assert_int_equal(mp_pamt_build(&t, m, 2, 128 * MiB, 1), -EINVAL);
	assert_int_equal(mp_pamt_build(&t, m, 0, 128 * MiB, 1), -EINVAL);
	assert_int_equal(mp_pamt_build(&t, m, 1, 0, 1), -EINVAL);
	for (i = 0; i <= MP_PAMT_MAX_DEVS; i++)
		many[i] = member(100 + i, 128 * MiB, (u8)i);
	assert_int_equal(mp_pamt_build(&t, many, MP_PAMT_MAX_DEVS + 1, 128 * MiB, 1),
			 -EINVAL);
	assert_int_equal(mp_pamt_build(&t, many, MP_PAMT_MAX_DEVS, 128 * MiB, 1), 0);
	/* a capacity that is not a whole number of segments is rounded down */
	m[0].capacity = 300 * MiB;
	assert_int_equal(mp_pamt_build(&t, m, 1, 128 * MiB, 1), 0);
	assert_true(t.dev[0].size == 256 * MiB && t.nr_segs == 2);
}

/* Every device must compute the same table, whatever order it heard in. */
static void test_order_independent(void **state)
{
	struct mp_member m[8], p[8];
	struct mp_pamt a, b;
	u32 round, i, n;

	srand(1234);
	for (round = 0; round < 500; round++) {
		n = 1 + rand() % 8;
		for (i = 0; i < n; i++)
			m[i] = member(((u64)rand() << 32) ^ (u64)rand() ^ (i * 7919),
				      (1 + rand() % 6) * 128 * MiB, (u8)i);
		memcpy(p, m, sizeof(m));
		for (i = n - 1; i > 0; i--) {
			u32 k = rand() % (i + 1);
			struct mp_member x = p[i];

			p[i] = p[k];
			p[k] = x;
		}
		assert_int_equal(mp_pamt_build(&a, m, n, 128 * MiB, round), 0);
		assert_int_equal(mp_pamt_build(&b, p, n, 128 * MiB, round), 0);
		assert_true(mp_pamt_equal(&a, &b));
		for (i = 1; i < n; i++)
			assert_true(a.dev[i - 1].chip_id < a.dev[i].chip_id);
		b.generation++;
		assert_false(mp_pamt_equal(&a, &b));
	}
}

/*
 * 1024 devices (the build's MP_PAMT_MAX_DEVS, pamt.mk), listed in reverse
 * and in a shuffled order: the same map, device ids are the ranks, every
 * segment and every byte boundary resolves to its device (by bisection
 * now), a lost device's range fails and a chip id finds its device id.
 */
static void test_1024(void **state)
{
	static struct mp_member m[1024], r[1024];
	static struct mp_pamt a, b;
	u32 i, j, dev, seg = 0;
	u64 nha, off, room;

	assert_true(MP_PAMT_MAX_DEVS >= 1024);
	for (i = 0; i < 1024; i++) {
		m[i] = member(0x1000 + 7 * (u64)(1023 - i), (1 + i % 4) * 128 * MiB,
			      (u8)i);
		m[i].mac[4] = (u8)(i >> 8);
	}
	srand(28);
	memcpy(r, m, sizeof(r));
	for (i = 1023; i > 0; i--) {
		struct mp_member tmp;

		j = (u32)rand() % (i + 1);
		tmp = r[i];
		r[i] = r[j];
		r[j] = tmp;
	}
	assert_int_equal(mp_pamt_build(&a, m, 1024, 128 * MiB, 9), 0);
	assert_int_equal(mp_pamt_build(&b, r, 1024, 128 * MiB, 9), 0);
	assert_true(mp_pamt_equal(&a, &b));
	assert_int_equal(a.nr_devs, 1024);
	for (i = 0; i < 1024; i++) {
		const struct mp_pamt_entry *e = &a.dev[i];

		assert_int_equal(e->chip_id, 0x1000 + 7 * (u64)i);
		assert_int_equal(mp_pamt_devid_of(&a, e->chip_id), i);
		assert_int_equal(e->first_seg, seg);
		for (j = 0; j < e->nr_segs; j++, seg++) {
			assert_int_equal(mp_pamt_seg(&a, seg, &dev, &nha, &off), 0);
			assert_int_equal(dev, i);
			assert_true(off == (u64)j * 128 * MiB);
		}
		assert_int_equal(mp_pamt_resolve(&a, e->nha + e->size - 1, &dev,
						 &off, &room), 0);
		assert_true(dev == i && room == 1 && off == e->size - 1);
	}
	assert_int_equal(seg, a.nr_segs);
	assert_int_equal(mp_pamt_resolve(&a, a.pool_size, &dev, &off, NULL),
			 -ENXIO);
	assert_int_equal(mp_pamt_devid_of(&a, 0x1001), -ENOENT);
	a.dev[700].valid = false;
	assert_int_equal(mp_pamt_resolve(&a, a.dev[700].nha, &dev, &off, NULL),
			 -ENXIO);
	assert_int_equal(mp_pamt_devid_of(&a, a.dev[700].chip_id), -ENOENT);
	assert_int_equal(mp_pamt_resolve(&a, a.dev[701].nha, &dev, &off, NULL),
			 0);
	assert_int_equal(dev, 701);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_uneven),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_order_independent),
		cmocka_unit_test(test_1024),
	};

	return cmocka_run_group_tests_name("pamt", tests, NULL, NULL);
}
