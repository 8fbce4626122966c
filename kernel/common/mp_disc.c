// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery and membership decisions (pure logic, shared with the unit
 * tests and the simulator; see mp_disc.h and Documentation/pool.rst).
 *
 * Every device broadcasts DISCOVER frames (chip id, capacity, MAC, MTU,
 * how many devices it knows) and listens. A round has a number, carried
 * in the header's gen field; it becomes the generation of the pool the
 * round forms. A device that hears a higher round joins it, one that
 * hears a lower one answers with a DISCOVER_ACK so the sender joins ours.
 * A round ends once it lasted @window and nothing new was heard for
 * @quiet (or after @max): the members are sorted by chip id, device ids
 * are the ranks, capacities in device id order give the PAMT.
 *
 * Lookups are by hash (heard devices, by MAC) and by binary search (pool
 * members, by chip id), so that a frame costs O(1) or O(log N) however
 * large the pool: the simulator runs this with 1024 devices.
 *
 * A formed pool's heartbeats go along the ranks (MP_DISC_MAX_FANOUT): each
 * member sends one to the live members log2 steps ahead of it and watches
 * those log2 steps behind, so that the pool's steady traffic is N log N
 * frames per heartbeat interval, not N^2, and every member is still
 * watched by several (the one right behind it among them).
 */
#include "mp_disc.h"
#include "mp_disc_priv.h"

static u32 mp_disc_hash(const struct mp_disc *d, const u8 *mac)
{
	u64 x = 0;
	int i;

	for (i = 0; i < 6; i++)
		x = x << 8 | mac[i];
	return (u32)((x * 0x9e3779b97f4a7c15ULL) >> 32) & d->hash_mask;
}

/* The entry of @heard with @mac, or NULL. */
static struct mp_dmember *mp_disc_heard(const struct mp_disc *d, const u8 *mac)
{
	u32 h = mp_disc_hash(d, mac);

	for (; d->hash[h]; h = (h + 1) & d->hash_mask) {
		struct mp_dmember *e = &d->heard[d->hash[h] - 1];

		if (mp_disc_mac_eq(e->mac, mac))
			return e;
	}
	return NULL;
}

/* Append @e to @heard (not there yet); NULL when full. */
static struct mp_dmember *mp_disc_heard_add(struct mp_disc *d,
					    const struct mp_dmember *e)
{
	u32 h;

	if (d->nr_heard == d->max_heard)
		return NULL;
	h = mp_disc_hash(d, e->mac);
	while (d->hash[h])
		h = (h + 1) & d->hash_mask;
	d->heard[d->nr_heard] = *e;
	d->hash[h] = ++d->nr_heard;
	return &d->heard[d->nr_heard - 1];
}

/* Start (or join) round @round. */
static void mp_disc_new_round(struct mp_disc *d, u32 round, u64 now,
			      const char *why)
{
	struct mp_dmember me = d->self;
	u32 i;

	d->state = CMM_MP_POOL_DISCOVERY;
	d->round = round;
	for (i = 0; i <= d->hash_mask; i++)
		d->hash[i] = 0;
	d->nr_heard = 0;
	me.last_seen = now;
	me.lost = false;
	mp_disc_heard_add(d, &me);
	d->round_start = now;
	d->last_change = now;
	d->last_tx = now;
	d->announce = true;
	d->need_close = true;
	d->why = why;
}

/**
 * mp_disc_init() - a device that starts discovering
 * @d: the state to set up
 * @par: timing: 0 < interval <= window <= max, 0 < 2 * hb_interval <=
 *	hb_timeout
 * @self: this device: non-zero chip id and capacity
 * @heard: storage for the devices of a round
 * @max_heard: its entries (the pool's limit plus room for impostors)
 * @hash: storage for the index of @heard
 * @hash_size: its entries: a power of two, at least 2 * @max_heard
 * @pool: storage for the pool's members
 * @max_pool: its entries, at most MP_PAMT_MAX_DEVS
 * @now: the time
 *
 * Starts round 1. Return: 0, or -EINVAL (and nothing set up).
 */
int mp_disc_init(struct mp_disc *d, const struct mp_disc_params *par,
		 const struct mp_dmember *self, struct mp_dmember *heard,
		 u32 max_heard, u32 *hash, u32 hash_size,
		 struct mp_dmember *pool, u32 max_pool, u64 now)
{
	if (!par->interval || par->window < par->interval ||
	    par->max < par->window || !par->hb_interval ||
	    par->hb_timeout < 2 * par->hb_interval || !self->chip_id ||
	    !self->capacity || !heard || !max_heard || !hash ||
	    hash_size < 2 * max_heard || (hash_size & (hash_size - 1)) ||
	    !pool || !max_pool || max_pool > MP_PAMT_MAX_DEVS)
		return -EINVAL;
	*d = (struct mp_disc){
		.par = *par,
		.self = *self,
		.heard = heard,
		.max_heard = max_heard,
		.hash = hash,
		.hash_mask = hash_size - 1,
		.pool = pool,
		.max_pool = max_pool,
	};
	d->fresh = true;
	mp_disc_new_round(d, 1, now, "start");
	return 0;
}

/* Members we did not lose (RUNTIME), or the devices heard. */
static u32 mp_disc_live(const struct mp_disc *d)
{
	return d->state == CMM_MP_POOL_RUNTIME ? d->nr_pool - d->nr_lost :
	       d->nr_heard;
}

/* Devices in our current table: dev_count of the frames we send. */
u32 mp_disc_count(const struct mp_disc *d)
{
	return d->state == CMM_MP_POOL_RUNTIME ? d->nr_pool : d->nr_heard;
}

/* The payload of a discovery frame about @who. */
void mp_disc_payload(const struct mp_dmember *who, u32 round, u16 dev_count,
		     struct mp_discover *p)
{
	*p = (struct mp_discover){
		.chip_id = who->chip_id,
		.capacity = who->capacity,
		.dev_count = dev_count ? dev_count : 1,
		.gen = round,
		.mtu = who->mtu,
	};
	mp_disc_mac_copy(p->mac, who->mac);
}

/* A device of the current round was heard (itself, or by @proxy). */
static void mp_disc_record(struct mp_disc *d, const struct mp_discover *p,
			   bool proxy, bool discovering, u64 now)
{
	struct mp_dmember *e = mp_disc_heard(d, p->mac), n;

	if (e) {
		if (proxy)
			return;
		e->discovering |= discovering;
		if (e->lost || e->chip_id != p->chip_id ||
		    e->capacity != p->capacity)
			d->last_change = now;
		e->chip_id = p->chip_id;
		e->capacity = p->capacity;
		e->mtu = p->mtu;
		e->lost = false;
		e->last_seen = now;
		return;
	}
	n = (struct mp_dmember){
		.chip_id = p->chip_id,
		.capacity = p->capacity,
		.mtu = p->mtu,
		.last_seen = now,
		.lost = proxy,
		.discovering = discovering,
	};
	mp_disc_mac_copy(n.mac, p->mac);
	if (mp_disc_heard_add(d, &n))
		d->last_change = now;
}

/* Did @mac discover in our round: is it in it with us, not past it? */
static bool mp_disc_shared_round(const struct mp_disc *d, const u8 *mac)
{
	const struct mp_dmember *e = mp_disc_heard(d, mac);

	return d->state == CMM_MP_POOL_DISCOVERY && e && e->discovering;
}

/* Is @p exactly the member we know (pool in RUNTIME, else heard)? */
static struct mp_dmember *mp_disc_member(const struct mp_disc *d,
					 const struct mp_discover *p)
{
	struct mp_dmember *e;

	if (d->state == CMM_MP_POOL_RUNTIME)
		e = mp_disc_pool_find(d, p->chip_id, p->mac);
	else
		e = mp_disc_heard(d, p->mac);
	if (!e || e->chip_id != p->chip_id || e->capacity != p->capacity)
		return NULL;
	return e;
}

/*
 * A device of an older round must learn of ours: one answer is enough
 * (it then hears our round's broadcasts), and all N would be O(N) frames
 * per joining device. The member after it in pool order that we did not
 * lose answers; without a pool, everyone does. Should that answer be
 * lost, the round's next broadcast brings it all the same.
 */
static bool mp_disc_answers(const struct mp_disc *d,
			    const struct mp_discover *p)
{
	u32 lo = 0, hi = d->nr_pool, i, n;

	if (!d->nr_pool)
		return true;
	while (lo < hi) {	/* the first member above its chip id */
		u32 mid = lo + (hi - lo) / 2;

		if (d->pool[mid].chip_id <= p->chip_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (n = 0, i = lo % d->nr_pool; n < d->nr_pool;
	     n++, i = (i + 1) % d->nr_pool) {
		const struct mp_dmember *e = &d->pool[i];

		if (e->lost || mp_disc_mac_eq(e->mac, p->mac))
			continue;
		return mp_disc_mac_eq(e->mac, d->self.mac);
	}
	return true;
}

static void mp_disc_fill(const struct mp_disc *d, struct mp_disc_tx *tx)
{
	tx->round = d->round;
	tx->dev_count = (u16)mp_disc_count(d);
	tx->self = d->self;
}

/**
 * mp_disc_rcv() - a discovery frame arrived
 * @d: the state
 * @op: its opcode (MP_ETH_OP_DISCOVER or MP_ETH_OP_DISCOVER_ACK)
 * @src_mac: the Ethernet source address
 * @how: MP_DISC_RX_BCAST: it was sent to the broadcast address;
 *	MP_DISC_RX_HB: it is marked a heartbeat (MP_ETH_F_HB)
 * @view: a marked heartbeat's header offset: the digest of its sender's
 *	pool (0 for any other frame)
 * @round: the header's gen
 * @p: the decoded payload
 * @now: the time
 * @tx: zeroed by the caller; what to do now (@reply, @kick)
 *
 * Everything is untrusted: a frame with a round out of range, one that
 * describes another device than its sender without being a broadcast
 * DISCOVER_ACK (a proxy report), a heartbeat mark on anything but a
 * DISCOVER_ACK about its sender, or one that claims our own MAC changes
 * nothing. Return: 0, or -EINVAL for such a frame (the caller counts it).
 */
int mp_disc_rcv(struct mp_disc *d, u8 op, const u8 *src_mac, u32 how,
		u64 view, u32 round, const struct mp_discover *p, u64 now,
		struct mp_disc_tx *tx)
{
	bool bcast = how & MP_DISC_RX_BCAST, beat;
	struct mp_dmember *e;
	bool proxy;
	int newer;

	if (round == 0 || round > MP_DISC_MAX_ROUND ||
	    (op != MP_ETH_OP_DISCOVER && op != MP_ETH_OP_DISCOVER_ACK) ||
	    mp_disc_mac_eq(src_mac, d->self.mac) ||
	    mp_disc_mac_eq(p->mac, d->self.mac))
		return -EINVAL;
	proxy = !mp_disc_mac_eq(p->mac, src_mac);
	if (proxy && (op != MP_ETH_OP_DISCOVER_ACK || !bcast))
		return -EINVAL;
	if ((how & MP_DISC_RX_HB) && (op != MP_ETH_OP_DISCOVER_ACK || proxy))
		return -EINVAL;
	/* a heartbeat: a broadcast one (CONFLICT), or one along the ranks */
	beat = op == MP_ETH_OP_DISCOVER_ACK && !proxy &&
	       (how & (MP_DISC_RX_BCAST | MP_DISC_RX_HB));

	newer = mp_disc_round_cmp(round, d->round);
	/*
	 * A heartbeat (a DISCOVER_ACK about its sender, broadcast or marked;
	 * only a formed pool sends those) may be of a round its members concluded
	 * without us. Joining that round would make us a member of their
	 * generation with sequence state they never saw: after a restart
	 * they did not notice (back within hb_timeout), they may even count
	 * us as a member already, and our requests would die in their
	 * windows. So a heartbeat of a newer round makes us start the round
	 * after it instead; its members join that one and form a new
	 * generation. So does one of our round while we have concluded no
	 * round since we started, unless we heard its sender discovering in
	 * this round (its broadcast DISCOVER): then it merely concluded the
	 * round we share a little before us, as devices that powered on
	 * apart do (a new round for that cost every large pool one more).
	 */
	if (beat && (newer > 0 ||
		     (newer == 0 && d->fresh &&
		      !mp_disc_shared_round(d, src_mac)))) {
		d->fresh = false;
		mp_disc_new_round(d, mp_disc_next_round(round), now,
				  "a pool is running: a new round to join it");
		tx->kick = true;
		goto out;
	}
	if (newer > 0) {
		/* a higher round is running: join it */
		mp_disc_new_round(d, round, now, "joined a newer round");
		tx->kick = true;
	}
	if (d->state == CMM_MP_POOL_DISCOVERY) {
		if (round == d->round)
			mp_disc_record(d, p, proxy,
				       op == MP_ETH_OP_DISCOVER && bcast, now);
		else if (op == MP_ETH_OP_DISCOVER)
			/* an older round: bring it here */
			tx->reply = mp_disc_answers(d, p);
		goto out;
	}
	/* RUNTIME or CONFLICT: is this consistent with what we have? */
	e = proxy ? NULL : mp_disc_member(d, p);
	if (proxy) {
		if (d->state == CMM_MP_POOL_RUNTIME &&
		    !mp_disc_pool_find(d, p->chip_id, p->mac)) {
			mp_disc_new_round(d, mp_disc_next_round(d->round), now,
					  "a member we do not know was reported");
			tx->kick = true;
		}
	} else if (newer < 0 || !e || e->lost) {
		mp_disc_new_round(d, mp_disc_next_round(d->round), now,
				  e && e->lost ? "a lost member came back" :
				  newer < 0 ?
				  "a device of an older generation spoke" :
				  "a new device appeared");
		tx->kick = true;
	} else if (op == MP_ETH_OP_DISCOVER_ACK &&
		   p->dev_count != mp_disc_count(d)) {
		mp_disc_new_round(d, mp_disc_next_round(d->round), now,
				  "a member sees another number of devices");
		tx->kick = true;
	} else if (beat && view && d->state == CMM_MP_POOL_RUNTIME &&
		   view != d->view) {
		/*
		 * The same count, another map: it holds a member lost that
		 * we hold live, say. Each member hears only a few others'
		 * heartbeats, and a member live in one map only may be
		 * watched by nobody, so the maps are compared, not counted.
		 */
		mp_disc_new_round(d, mp_disc_next_round(d->round), now,
				  "a member holds another pool map");
		tx->kick = true;
	} else {
		e->last_seen = now;
		/*
		 * A member still finishing our round that has not heard
		 * every live member yet, or probing us: tell it we are
		 * here. One that counts as many devices as we have live
		 * members needs nothing from us (answering every DISCOVER
		 * of every late device costs O(N^2) frames).
		 */
		tx->reply = op == MP_ETH_OP_DISCOVER &&
			    p->dev_count < mp_disc_live(d);
	}
out:
	mp_disc_fill(d, tx);
	return 0;
}

/*
 * The round ended: its devices plus the pool members nobody heard
 * (lost), into @v. Returns the count.
 */
static u32 mp_disc_outcome(const struct mp_disc *d, struct mp_dmember *v,
			   u32 max)
{
	u32 i, n = 0;

	for (i = 0; i < d->nr_heard && n < max; i++)
		v[n++] = d->heard[i];
	for (i = 0; i < d->nr_pool && n < max; i++) {
		if (mp_disc_heard(d, d->pool[i].mac))
			continue;
		v[n] = d->pool[i];
		v[n++].lost = true;
	}
	return n;
}

/*
 * RUNTIME or CONFLICT: heartbeats, probes of members silent for a while,
 * and a member silent for hb_timeout starts a new round. A formed pool
 * sends its heartbeats along the ranks and watches only the members that
 * send it theirs (mp_disc_ranks()); CONFLICT, which has no ranks, keeps
 * broadcasting them and watches everyone it tracks.
 */
static void mp_disc_tick_member(struct mp_disc *d, u64 now,
				struct mp_dmember *probe, u32 max_probe,
				struct mp_disc_tx *tx)
{
	bool ranked = d->state == CMM_MP_POOL_RUNTIME;
	struct mp_dmember *t = ranked ? d->pool : d->heard;
	u32 j, i, nt = ranked ? d->nr_from : mp_disc_count(d);
	bool beat = now - d->last_tx >= d->par.hb_interval;

	if (beat) {
		tx->op = MP_ETH_OP_DISCOVER_ACK;
		d->last_tx = now;
		if (!ranked)
			tx->send = true;
		tx->view = ranked ? d->view : 0;
		/* rank 0's beacon: see MP_DISC_BEACON_BEATS */
		if (ranked && d->rank == 0 &&
		    d->beats++ % MP_DISC_BEACON_BEATS == 0)
			tx->send = true;
		for (j = 0; ranked && j < d->nr_to; j++)
			mp_disc_mac_copy(tx->hb_mac[tx->nr_hb++],
					 d->pool[d->hb_to[j]].mac);
	}
	for (j = 0; j < nt; j++) {
		i = ranked ? d->hb_from[j] : j;
		if (t[i].lost || mp_disc_mac_eq(t[i].mac, d->self.mac))
			continue;
		/*
		 * Silent for half the timeout: ask it directly with each
		 * heartbeat (a DISCOVER counting 1 device, which a member
		 * answers). With N^2 pairs, losing every heartbeat of one
		 * pair for hb_timeout is no longer rare (1024 devices, 5 %
		 * loss: every few seconds); losing the probes too is. A few
		 * per heartbeat: when many are silent, they failed.
		 */
		if (now - t[i].last_seen >= d->par.hb_timeout / 2 && beat &&
		    tx->nr_probe < max_probe &&
		    tx->nr_probe < MP_DISC_MAX_PROBES)
			probe[tx->nr_probe++] = t[i];
		if (now - t[i].last_seen < d->par.hb_timeout)
			continue;
		tx->silent = true;
		tx->gone = t[i];
		mp_disc_new_round(d, mp_disc_next_round(d->round), now,
				  "a member went silent");
		tx->close = true;
		tx->why = d->why;
		d->need_close = false;
		d->announce = false;
		tx->send = true;
		tx->op = MP_ETH_OP_DISCOVER;
		tx->nr_hb = 0;
		return;
	}
}

/*
 * Is it our turn to speak for pool member @k, not heard this round? The
 * first member after it in pool order that was heard speaks once the
 * round lasted proxy_delay, the next one an interval later, and so on:
 * one device reports each lost member (every interval, so that a loss
 * does not hide it), not all N at the same tick.
 */
static bool mp_disc_proxy_turn(const struct mp_disc *d, u32 k, u32 self,
			       u64 age)
{
	u64 wait = d->par.proxy_delay;
	u32 i;

	for (i = (k + 1) % d->nr_pool; i != self; i = (i + 1) % d->nr_pool) {
		const struct mp_dmember *e = mp_disc_heard(d, d->pool[i].mac);

		if (e && !e->lost) {
			wait += d->par.interval;
			if (age < wait)
				return false;
		}
	}
	return age >= wait;
}

/* The lost members we report in this round's broadcast. */
static void mp_disc_proxies(struct mp_disc *d, u64 age,
			    struct mp_dmember *proxy, u32 max_proxy,
			    struct mp_disc_tx *tx)
{
	struct mp_dmember *me = mp_disc_pool_find(d, d->self.chip_id,
						  d->self.mac);
	u32 i, self;

	if (!me || age < d->par.proxy_delay)
		return;		/* a new device knows no one to report */
	self = (u32)(me - d->pool);
	for (i = 0; i < d->nr_pool && tx->nr_proxy < max_proxy; i++) {
		if (i == self || mp_disc_heard(d, d->pool[i].mac) ||
		    !mp_disc_proxy_turn(d, i, self, age))
			continue;
		proxy[tx->nr_proxy++] = d->pool[i];
	}
}

/**
 * mp_disc_tick() - the periodic step (the kernel: every 50 ms)
 * @d: the state
 * @now: the time
 * @out: where the members of a round that ends go; NULL: not now
 * @max_out: its entries
 * @proxy: where the lost members to report go (DISCOVERY), or the
 *	members to probe (RUNTIME, CONFLICT)
 * @max_proxy: its entries
 * @tx: zeroed by the caller; what to do: @close the data path, @send a
 *	broadcast, the @nr_proxy reports or @nr_probe probes, @finish the
 *	round
 */
void mp_disc_tick(struct mp_disc *d, u64 now, struct mp_dmember *out,
		  u32 max_out, struct mp_dmember *proxy, u32 max_proxy,
		  struct mp_disc_tx *tx)
{
	u64 age = now - d->round_start;

	tx->close = d->need_close;
	tx->why = d->why;
	d->need_close = false;
	if (d->state != CMM_MP_POOL_DISCOVERY) {
		mp_disc_tick_member(d, now, proxy, max_proxy, tx);
		goto out;
	}
	if (d->announce || now - d->last_tx >= d->par.interval) {
		tx->send = true;
		tx->op = MP_ETH_OP_DISCOVER;
		d->announce = false;
		d->last_tx = now;
		mp_disc_proxies(d, age, proxy, max_proxy, tx);
	}
	if (out && !tx->close &&
	    ((age >= d->par.window && now - d->last_change >= d->par.quiet) ||
	     age >= d->par.max)) {
		tx->nr_out = mp_disc_outcome(d, out, max_out);
		tx->finish = true;
	}
out:
	mp_disc_fill(d, tx);
}
