// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery, the end of a round (pure logic, shared with the unit tests
 * and the simulator; see mp_disc.h and Documentation/pool.rst): the
 * members sorted by chip id become device ids and the PAMT
 * (mp_disc_conclude()), the pool is committed (mp_disc_commit()) with the
 * ranks its heartbeats travel along (mp_disc_ranks(): each member sends
 * to the live members log2 steps ahead and watches those log2 steps
 * behind), or a conflict is declared (mp_disc_conflict()); the formed
 * pool's members are looked up by chip id, and those whose data frames
 * arrive count as heard (mp_disc_data_seen()).
 */
#include "mp_disc_priv.h"

/* Heap sort of @v by chip id: no recursion, no allocation, O(n log n). */
static void mp_disc_sift(struct mp_dmember *v, u32 root, u32 n)
{
	struct mp_dmember tmp;
	u32 child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && v[child + 1].chip_id > v[child].chip_id)
			child++;
		if (v[root].chip_id >= v[child].chip_id)
			return;
		tmp = v[root];
		v[root] = v[child];
		v[child] = tmp;
		root = child;
	}
}

static void mp_disc_sort(struct mp_dmember *v, u32 n)
{
	struct mp_dmember tmp;
	u32 i;

	for (i = n / 2; i-- > 0;)
		mp_disc_sift(v, i, n);
	for (i = n; i-- > 1;) {
		tmp = v[0];
		v[0] = v[i];
		v[i] = tmp;
		mp_disc_sift(v, 0, i);
	}
}

/**
 * mp_disc_conclude() - the pool map a round forms
 * @v: its members (mp_disc_tick()'s outcome), sorted here by chip id: on
 *	-EEXIST duplicates are neighbours
 * @n: entries of @v
 * @seg_size: bytes per segment
 * @round: the round = generation
 * @self_chip: our chip id
 * @t: the map: lost members are invalid entries
 * @lost: how many members are lost
 *
 * Needs no lock: call it with a copy of the outcome. Return: our device
 * id, or -E2BIG (more than MP_PAMT_MAX_DEVS), -EEXIST (two members share
 * a chip id) and the other errors of mp_pamt_layout().
 */
int mp_disc_conclude(struct mp_dmember *v, u32 n, u64 seg_size, u32 round,
		     u64 self_chip, struct mp_pamt *t, u32 *lost)
{
	u32 i;
	int ret;

	if (!n)
		return -EINVAL;
	if (n > MP_PAMT_MAX_DEVS)
		return -E2BIG;
	mp_disc_sort(v, n);
	/* straight into the table: no copy of the members on the stack */
	for (i = 0; i < n; i++) {
		t->dev[i] = (struct mp_pamt_entry){
			.chip_id = v[i].chip_id,
			.size = v[i].capacity,
		};
		mp_disc_mac_copy(t->dev[i].mac, v[i].mac);
	}
	ret = mp_pamt_layout(t, n, seg_size, round);
	if (ret)
		return ret;
	/* sorted input, unique keys: entry i is v[i] */
	*lost = 0;
	for (i = 0; i < n; i++) {
		if (v[i].lost) {
			t->dev[i].valid = false;
			(*lost)++;
		}
	}
	return mp_pamt_devid_of(t, self_chip);
}

static bool mp_disc_pow2(u32 x)
{
	return x && !(x & (x - 1));
}

static u64 mp_disc_mix(u64 h, u64 v)
{
	h ^= v;
	h *= 0x100000001b3ULL;	/* FNV-1a's prime, a word at a time */
	return h ^ (h >> 29);
}

/* The digest of the formed pool: equal maps, equal digests (never 0). */
static u64 mp_disc_view(const struct mp_disc *d)
{
	u64 h = mp_disc_mix(0xcbf29ce484222325ULL, d->round);
	u32 i;
	int k;

	h = mp_disc_mix(h, d->nr_pool);
	for (i = 0; i < d->nr_pool; i++) {
		const struct mp_dmember *e = &d->pool[i];
		u64 mac = 0;

		for (k = 0; k < 6; k++)
			mac = mac << 8 | e->mac[k];
		h = mp_disc_mix(h, e->chip_id);
		h = mp_disc_mix(h, e->capacity);
		h = mp_disc_mix(h, mac << 1 | e->lost);
	}
	return h ? h : 1;
}

/*
 * The ranks of a formed pool: its live members in pool order, ours among
 * them, whom we send heartbeats to (ranks ahead of ours by a power of two)
 * and whom we watch (behind ours by one). Every member computes the same
 * ranks from the same pool, so each one's heartbeats go to exactly the
 * members that watch it.
 */
void mp_disc_ranks(struct mp_disc *d)
{
	u32 i, l, m = 0, fwd, back;

	d->nr_to = 0;
	d->nr_from = 0;
	d->rank = 0;
	d->beats = 0;	/* a new pool's first heartbeat is a beacon */
	for (i = 0; i < d->nr_pool; i++) {
		if (d->pool[i].lost)
			continue;
		if (mp_disc_mac_eq(d->pool[i].mac, d->self.mac))
			d->rank = m;
		m++;
	}
	d->nr_live = m;
	if (!m)
		return;
	for (i = 0, l = 0; i < d->nr_pool; i++) {
		if (d->pool[i].lost)
			continue;
		fwd = (l + m - d->rank) % m;
		back = (d->rank + m - l) % m;
		if (mp_disc_pow2(fwd) && d->nr_to < MP_DISC_MAX_FANOUT)
			d->hb_to[d->nr_to++] = i;
		if (mp_disc_pow2(back) && d->nr_from < MP_DISC_MAX_FANOUT)
			d->hb_from[d->nr_from++] = i;
		l++;
	}
}

/**
 * mp_disc_commit() - the pool of @round is formed
 * @d: the state
 * @v: the members, sorted (mp_disc_conclude() succeeded)
 * @n: entries of @v
 * @round: the round they belong to
 * @now: the time
 *
 * Return: true, or false when a newer round started meanwhile (the
 * outcome is moot and nothing changed).
 */
bool mp_disc_commit(struct mp_disc *d, const struct mp_dmember *v, u32 n,
		    u32 round, u64 now)
{
	u32 i;

	if (d->state != CMM_MP_POOL_DISCOVERY || d->round != round ||
	    n > d->max_pool)
		return false;
	d->state = CMM_MP_POOL_RUNTIME;
	d->fresh = false;
	d->nr_lost = 0;
	for (i = 0; i < n; i++) {
		d->pool[i] = v[i];
		d->pool[i].last_seen = now;
		d->nr_lost += v[i].lost;
	}
	d->nr_pool = n;
	mp_disc_ranks(d);
	d->view = mp_disc_view(d);
	return true;
}

/*
 * The round @round cannot form a pool (mp_disc_conclude() failed): track
 * its devices until a new round.
 */
void mp_disc_conflict(struct mp_disc *d, u32 round, u64 now)
{
	u32 i;

	if (d->state != CMM_MP_POOL_DISCOVERY || d->round != round)
		return;
	d->state = CMM_MP_POOL_CONFLICT;
	d->fresh = false;
	for (i = 0; i < d->nr_heard; i++)
		d->heard[i].last_seen = now;
}

/* The pool member with @chip_id (the pool is in chip id order), or NULL. */
static struct mp_dmember *mp_disc_pool_chip(const struct mp_disc *d,
					    u64 chip_id)
{
	u32 lo = 0, hi = d->nr_pool;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (d->pool[mid].chip_id == chip_id)
			return &d->pool[mid];
		if (d->pool[mid].chip_id < chip_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The pool member that is exactly (@chip_id, @mac), or NULL. */
struct mp_dmember *mp_disc_pool_find(const struct mp_disc *d, u64 chip_id,
				     const u8 *mac)
{
	struct mp_dmember *e = mp_disc_pool_chip(d, chip_id);

	return e && mp_disc_mac_eq(e->mac, mac) ? e : NULL;
}

/**
 * mp_disc_data_seen() - a member's data frames of this generation arrive
 * @d: the state
 * @chip_id: the member's chip id, as the pool map holds it
 * @mac: its MAC
 * @when: when the last of them came (a request its window took, or a
 *	response to one of our requests)
 *
 * Such a member is alive whatever became of its heartbeats: a loaded port
 * can lose or hold back control frames while data flows, and a live
 * member declared lost takes every copy it backs with it. Only a formed
 * pool's live members count, and only forward in time.
 */
void mp_disc_data_seen(struct mp_disc *d, u64 chip_id, const u8 *mac,
		       u64 when)
{
	struct mp_dmember *e;

	if (d->state != CMM_MP_POOL_RUNTIME ||
	    mp_disc_mac_eq(mac, d->self.mac))
		return;
	e = mp_disc_pool_find(d, chip_id, mac);
	if (e && !e->lost && when > e->last_seen)
		e->last_seen = when;
}
