// SPDX-License-Identifier: GPL-2.0
/*
 * mpe_test: drives the mp_eth test device (/dev/mp_eth) in the guests.
 *
 *   mpe_test info                      transport state, "key value" lines
 *   mpe_test peer ID                   counters of peer ID, "key value"
 *   mpe_test read DST OFF LEN          hex dump (debugging)
 *   mpe_test fill DST OFF LEN SEED     write LEN pseudo-random bytes of SEED
 *                                      at OFF of DST in one transfer;
 *                                      prints "sum CSUM ms MS"
 *   mpe_test sum DST OFF LEN           read them back in one transfer:
 *                                      prints "sum CSUM ms MS"
 *   mpe_test wait DST [SECONDS]        until DST answers a read
 *   mpe_test signal DST SLOT TOKEN [SECONDS]
 *                                      write TOKEN to DST's barrier SLOT
 *   mpe_test await SLOT TOKEN [SECONDS]
 *                                      until the local barrier SLOT holds TOKEN
 *   mpe_test barrier TOKEN [SECONDS]   every device signals every other one,
 *                                      then awaits all of them
 *   mpe_test linger                    stay for the retransmission budget
 *                                      (fail_ms) before leaving
 *   mpe_test rand -d DST [-r OFF] [-s SIZE] [-b BYTES] [-j THREADS]
 *                 [-m MAXLEN] [-S SEED]
 *        random reads and writes of 1 B .. MAXLEN at random offsets of
 *        DST's DRAM [OFF, OFF+SIZE), verified against a model; exit 1 on
 *        any error or mismatch
 *   mpe_test waw -d DST [-r OFF] [-n ROUNDS] [-k BLOCKS]
 *        write-after-write: each round writes a new version of each
 *        block (waiting for each ack), then reads them back: an old
 *        duplicate must never overwrite newer data
 *   mpe_test stream -d DST [-r OFF] [-j THREADS] [-m MAXLEN] -T SECONDS
 *        keeps requests going for SECONDS, records errors and how long
 *        each request took (peer failure tests)
 *   mpe_test lat -d DST [-s SIZE] [-n N] [-w] read (or write) latency
 *        percentiles, one request at a time; a write counts until the
 *        device acknowledged it (a full round trip, as a read)
 *   mpe_test bw -d DST [-s SIZE] [-n N] [-w]  read (or write) bandwidth
 *   mpe_test key HEX                   MPE_IOC_KEY set, key id 1, straight
 *                                      to the module (past mpctl's checks)
 *
 * The barrier slots are the first 4 KiB of every device's DRAM, one u64
 * per device id: keep test data above them.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/mp_eth_test.h>

#include "mp_types.h"

#define MIB		((u64)1 << 20)
#define TOKEN_MAGIC	0x4d50424152000000ULL	/* "MPBAR" */

static int fd = -1;
static struct mpe_test_info info;

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "mpe_test: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void open_dev(void)
{
	fd = open(MPE_TEST_DEVICE, O_RDWR);
	if (fd < 0)
		die(MPE_TEST_DEVICE);
	if (ioctl(fd, MPE_IOC_INFO, &info))
		die("MPE_IOC_INFO");
}

/* 0 or -errno; *ns gets the time spent in the kernel when not NULL. */
static int xfer(u32 op, u32 dst, u64 off, void *buf,
		u64 len, u64 *ns)
{
	struct mpe_test_xfer x = {
		.op = op, .dst = dst, .offset = off, .len = len,
		.buf = (uintptr_t)buf,
	};

	if (ioctl(fd, MPE_IOC_XFER, &x))
		return -errno;
	if (ns)
		*ns = x.ns;
	return 0;
}

struct rng {
	u64 s;
};

static u64 rnd(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1DULL;
}

static void fill(struct rng *r, u8 *p, u64 len)
{
	u64 v;

	while (len >= 8) {
		v = rnd(r);
		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	v = rnd(r);
	memcpy(p, &v, len);
}

/* FNV-1a over 64-bit words: the checksums printed for mismatches. */
static u64 csum(const u8 *p, u64 len)
{
	u64 h = 0xcbf29ce484222325ULL;

	while (len--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

/* log-uniform in [1, max] */
static u64 rnd_len(struct rng *r, u64 max)
{
	unsigned int bits = 0, b;
	u64 lo, hi;

	while ((1ULL << (bits + 1)) <= max)
		bits++;
	b = rnd(r) % (bits + 1);
	lo = 1ULL << b;
	hi = b == bits ? max : (1ULL << (b + 1)) - 1;
	return lo + rnd(r) % (hi - lo + 1);
}

static const char *ename(int err)
{
	static __thread char buf[32];

	switch (-err) {
	case ETIMEDOUT:
		return "ETIMEDOUT";
	case EHOSTUNREACH:
		return "EHOSTUNREACH";
	case ERANGE:
		return "ERANGE";
	case EACCES:
		return "EACCES";
	case EIO:
		return "EIO";
	case EAGAIN:
		return "EAGAIN";
	case ENETRESET:
		return "ENETRESET";
	default:
		snprintf(buf, sizeof(buf), "errno %d", -err);
		return buf;
	}
}

/* ---- info, peer, read */

static int cmd_info(void)
{
	printf("devid %u\nnr_devs %u\nmax_payload %u\nrift_entries %u\n"
	       "inflight %u\nstart_sn %#x\nfail_ms %llu\n"
	       "local_size %llu\ndropped %llu\n",
	       info.devid, info.nr_devs, info.max_payload, info.rift_entries,
	       info.inflight, info.start_sn, (u64)info.fail_ns / 1000000,
	       (u64)info.local_size, (u64)info.dropped);
	return 0;
}

static int cmd_peer(u32 id)
{
	struct mpe_test_peer p = { .id = id };

	if (ioctl(fd, MPE_IOC_PEER, &p))
		die("MPE_IOC_PEER");
	printf("id %u\nreachable %u\ninflight %u\nnext_sn %#x\nack %#x\n"
	       "tx %llu\nrx %llu\n"
	       "retransmits %llu\nduplicates %llu\nout_of_window %llu\n"
	       "stale_responses %llu\ntimeouts %llu\nnaks %llu\nresyncs %llu\n"
	       "skipped %llu\nfast_fails %llu\nmalformed %llu\nrefused %llu\n"
	       "srtt_us %llu\nrttvar_us %llu\nrto_us %llu\nrtt_samples %llu\n",
	       p.id, p.reachable, p.inflight, p.next_sn, p.ack,
	       (unsigned long long)p.tx,
	       (unsigned long long)p.rx, (unsigned long long)p.retransmits,
	       (unsigned long long)p.duplicates,
	       (unsigned long long)p.out_of_window,
	       (unsigned long long)p.stale_responses,
	       (unsigned long long)p.timeouts, (unsigned long long)p.naks,
	       (unsigned long long)p.resyncs, (unsigned long long)p.skipped,
	       (unsigned long long)p.fast_fails,
	       (unsigned long long)p.malformed,
	       (unsigned long long)p.refused,
	       (unsigned long long)(p.srtt / 1000),
	       (unsigned long long)(p.rttvar / 1000),
	       (unsigned long long)(p.rto / 1000),
	       (unsigned long long)p.rtt_samples);
	return 0;
}

static int cmd_read(u32 dst, u64 off, u64 len)
{
	u8 *buf = malloc(len);
	u64 i;
	int ret;

	if (!buf)
		die("malloc");
	ret = xfer(MPE_TEST_READ, dst, off, buf, len, NULL);
	if (ret) {
		fprintf(stderr, "mpe_test: read: %s\n", ename(ret));
		return 1;
	}
	for (i = 0; i < len; i++)
		printf("%02x%s", buf[i], (i % 16 == 15 || i + 1 == len) ? "\n" : " ");
	free(buf);
	return 0;
}

/* fill and sum: one transfer each, checksum and duration printed */
static int cmd_fill_sum(bool write, u32 dst, u64 off, u64 len, u64 seed)
{
	struct rng r = { .s = seed * 0x9e3779b97f4a7c15ULL + 1 };
	u8 *buf = malloc(len ? len : 1);
	u64 t0;
	int ret;

	if (!buf)
		die("malloc");
	if (write)
		fill(&r, buf, len);
	t0 = now_ns();
	ret = xfer(write ? MPE_TEST_WRITE : MPE_TEST_READ, dst, off, buf, len,
		   NULL);
	if (ret) {
		fprintf(stderr, "mpe_test: %s: %s\n", write ? "fill" : "sum",
			ename(ret));
		free(buf);
		return 1;
	}
	printf("sum %016llx ms %llu\n", (unsigned long long)csum(buf, len),
	       (unsigned long long)((now_ns() - t0) / 1000000));
	free(buf);
	return 0;
}

/* ---- barriers */

static u64 slot_off(u32 slot)
{
	return 8ULL * slot;
}

static int cmd_wait(u32 dst, double secs)
{
	u64 end = now_ns() + (u64)(secs * 1e9), v;
	int ret;

	do {
		ret = xfer(MPE_TEST_READ, dst, 0, &v, sizeof(v), NULL);
		if (!ret)
			return 0;
		usleep(100000);
	} while (now_ns() < end);
	fprintf(stderr, "mpe_test: wait: device %u did not answer: %s\n",
		dst, ename(ret));
	return 1;
}

static int signal_one(u32 dst, u32 slot, u64 token,
		      u64 end)
{
	u64 v = TOKEN_MAGIC | token;
	int ret;

	do {
		ret = xfer(MPE_TEST_WRITE, dst, slot_off(slot), &v, sizeof(v),
			   NULL);
		if (!ret)
			return 0;
		usleep(100000);
	} while (now_ns() < end);
	fprintf(stderr, "mpe_test: signal: device %u: %s\n", dst, ename(ret));
	return 1;
}

/* Write a raw value (a token saved by barrier_signal()). */
static int signal_raw(u32 dst, u32 slot, u64 v, u64 end)
{
	do {
		if (!xfer(MPE_TEST_WRITE, dst, slot_off(slot), &v, sizeof(v),
			  NULL))
			return 0;
		usleep(100000);
	} while (now_ns() < end);
	return 1;
}

static int await_one(u32 slot, u64 token, u64 end)
{
	u64 v = 0, prev = 0;
	int ret;

	do {
		ret = xfer(MPE_TEST_READ, info.devid, slot_off(slot), &v,
			   sizeof(v), NULL);
		if (!ret && v == (TOKEN_MAGIC | token))
			return 0;
		if (!xfer(MPE_TEST_READ, info.devid, slot_off(slot + 64), &prev,
			  sizeof(prev), NULL) && prev == (TOKEN_MAGIC | token))
			return 0;
		usleep(50000);
	} while (now_ns() < end);
	fprintf(stderr, "mpe_test: await: slot %u holds %#llx, not token %llu\n",
		slot, v, token);
	return 1;
}

/*
 * A slot holds one token, so a host that passed a barrier could overwrite
 * its token before a slower one read it. The slot MPE_PREV_SLOTS further
 * keeps the token it replaced: await accepts either.
 */
#define MPE_PREV_SLOTS	64

static int barrier_signal(u32 dst, u32 slot, u64 token, u64 end)
{
	u64 old = 0;

	if (!xfer(MPE_TEST_READ, dst, slot_off(slot), &old, sizeof(old), NULL))
		signal_raw(dst, slot + MPE_PREV_SLOTS, old, end);
	return signal_one(dst, slot, token, end);
}

static int cmd_barrier(u64 token, double secs)
{
	u64 end = now_ns() + (u64)(secs * 1e9);
	u32 i;

	for (i = 0; i < info.nr_devs; i++)
		if (i != info.devid && barrier_signal(i, info.devid, token, end))
			return 1;
	for (i = 0; i < info.nr_devs; i++)
		if (i != info.devid && await_one(i, token, end))
			return 1;
	return 0;
}

/*
 * A host that leaves (unloads mp_eth, powers off) right after a barrier
 * may leave a peer behind: the peer's write of its token was applied
 * here, its acknowledgment was lost, and its retransmission finds nobody.
 * Lingering for the peer's retransmission budget (ours: the pool runs one
 * configuration) answers it from the response cache, as TCP's TIME-WAIT
 * answers a lost last ACK.
 */
static int cmd_linger(void)
{
	u64 ns = info.fail_ns + 100000000ULL;
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ULL),
		.tv_nsec = (long)(ns % 1000000000ULL),
	};

	return nanosleep(&ts, NULL) ? 1 : 0;
}

/* ---- random reads and writes against a model */

struct worker {
	pthread_t th;
	u32 dst;
	u64 base, size, target, maxlen;
	struct rng r;
	u8 *model, *buf;
	u64 moved, reads, writes, mismatches, errors;
	int first_err;
};

static void record_err(struct worker *w, int ret, const char *what,
		       u64 off, u64 len)
{
	if (!w->errors++)
		w->first_err = ret;
	if (w->errors <= 5)
		fprintf(stderr, "mpe_test: %s %#llx+%llu: %s\n",
			what, off, len, ename(ret));
}

static bool verify(struct worker *w, u64 off, u64 len)
{
	const u8 *m = w->model + (off - w->base);

	if (!memcmp(w->buf, m, len))
		return true;
	if (w->mismatches++ < 5)
		fprintf(stderr, "mpe_test: MISMATCH dst %u %#llx+%llu: csum %#llx, model %#llx\n",
			w->dst, off, len, csum(w->buf, len), csum(m, len));
	return false;
}

static void *rand_worker(void *arg)
{
	struct worker *w = arg;
	u64 off, len, chunk = 8 * MIB;
	int ret;

	/* the model starts out as what we write first */
	fill(&w->r, w->model, w->size);
	for (off = 0; off < w->size; off += len) {
		len = w->size - off < chunk ? w->size - off : chunk;
		ret = xfer(MPE_TEST_WRITE, w->dst, w->base + off,
			   w->model + off, len, NULL);
		if (ret)
			record_err(w, ret, "init write", w->base + off, len);
		w->moved += len;
		w->writes++;
	}
	while (w->moved < w->target && !w->errors) {
		len = rnd_len(&w->r, w->maxlen < w->size ? w->maxlen : w->size);
		off = w->base + rnd(&w->r) % (w->size - len + 1);
		if (rnd(&w->r) & 1) {
			fill(&w->r, w->buf, len);
			ret = xfer(MPE_TEST_WRITE, w->dst, off, w->buf, len,
				   NULL);
			if (ret) {
				record_err(w, ret, "write", off, len);
				break;
			}
			memcpy(w->model + (off - w->base), w->buf, len);
			w->writes++;
		} else {
			ret = xfer(MPE_TEST_READ, w->dst, off, w->buf, len,
				   NULL);
			if (ret) {
				record_err(w, ret, "read", off, len);
				break;
			}
			verify(w, off, len);
			w->reads++;
		}
		w->moved += len;
	}
	/* and at the end, all of it once more, in pieces that fit w->buf */
	if (chunk > w->maxlen)
		chunk = w->maxlen;
	if (chunk > w->size)
		chunk = w->size;
	for (off = 0; off < w->size && !w->errors; off += len) {
		len = w->size - off < chunk ? w->size - off : chunk;
		ret = xfer(MPE_TEST_READ, w->dst, w->base + off, w->buf, len,
			   NULL);
		if (ret) {
			record_err(w, ret, "final read", w->base + off, len);
			break;
		}
		verify(w, w->base + off, len);
		w->moved += len;
		w->reads++;
	}
	return NULL;
}

struct opts {
	u32 dst;
	u64 off, size, bytes, maxlen, seed, n, k;
	unsigned int threads;
	double secs;
	bool write;
};

static int cmd_rand(const struct opts *o)
{
	struct worker *w = calloc(o->threads, sizeof(*w));
	u64 slice = o->size / o->threads / 4096 * 4096, t0, ns;
	u64 moved = 0, reads = 0, writes = 0, mism = 0, errs = 0;
	unsigned int i;

	if (!w || !slice)
		die("rand: bad -s/-j");
	t0 = now_ns();
	for (i = 0; i < o->threads; i++) {
		w[i].dst = o->dst;
		w[i].base = o->off + i * slice;
		w[i].size = slice;
		w[i].target = o->bytes / o->threads;
		w[i].maxlen = o->maxlen;
		w[i].r.s = (o->seed + 1) * 0x9e3779b97f4a7c15ULL + i;
		w[i].model = malloc(slice);
		w[i].buf = malloc(o->maxlen < slice ? o->maxlen : slice);
		if (!w[i].model || !w[i].buf)
			die("malloc");
		if (pthread_create(&w[i].th, NULL, rand_worker, &w[i]))
			die("pthread_create");
	}
	for (i = 0; i < o->threads; i++) {
		pthread_join(w[i].th, NULL);
		moved += w[i].moved;
		reads += w[i].reads;
		writes += w[i].writes;
		mism += w[i].mismatches;
		errs += w[i].errors;
	}
	ns = now_ns() - t0;
	printf("rand dst %u: moved %llu MiB in %.1f s (%.2f MiB/s), ",
	       o->dst, moved / MIB, ns / 1e9, moved / MIB / (ns / 1e9));
	printf("%llu reads, %llu writes, %llu mismatches, %llu errors\n",
	       reads, writes, mism, errs);
	return mism || errs ? 1 : 0;
}

/* ---- write after write */

static int cmd_waw(const struct opts *o)
{
	u64 round, k, v, bad = 0, errs = 0, bs = 64;
	u8 blk[64], got[64];
	int ret;

	for (round = 1; round <= o->n; round++) {
		for (k = 0; k < o->k; k++) {
			memset(blk, (int)(round & 0xff), sizeof(blk));
			memcpy(blk, &round, sizeof(round));
			ret = xfer(MPE_TEST_WRITE, o->dst, o->off + k * bs,
				   blk, bs, NULL);
			if (ret && errs++ < 5)
				fprintf(stderr, "mpe_test: waw write: %s\n",
					ename(ret));
		}
		/* every block must hold this round's version, now and later */
		for (k = 0; k < o->k; k++) {
			ret = xfer(MPE_TEST_READ, o->dst, o->off + k * bs, got,
				   bs, NULL);
			if (ret) {
				errs++;
				continue;
			}
			memcpy(&v, got, sizeof(v));
			if (v != round && bad++ < 5)
				fprintf(stderr, "mpe_test: waw: block %llu: %llu, wrote %llu\n",
					k, v, round);
		}
	}
	/* let delayed duplicates land, then look again */
	usleep(300000);
	for (k = 0; k < o->k; k++) {
		ret = xfer(MPE_TEST_READ, o->dst, o->off + k * bs, got, bs,
			   NULL);
		memcpy(&v, got, sizeof(v));
		if (ret)
			errs++;
		else if (v != o->n)
			bad++;
	}
	printf("waw dst %u: %llu rounds x %llu blocks, %llu stale versions seen, %llu errors\n",
	       o->dst, o->n, o->k, bad, errs);
	return bad || errs ? 1 : 0;
}

/* ---- stream: keep requests going through a peer failure */

struct streamer {
	pthread_t th;
	const struct opts *o;
	u64 base, size, end;
	struct rng r;
	u64 ok, err_timedout, err_unreach, err_other;
	u64 max_fail_ns, max_ok_ns, first_err, last_err, last_ok;
};

static u64 stream_t0;

static void *stream_worker(void *arg)
{
	struct streamer *s = arg;
	u64 maxlen = s->o->maxlen < s->size ? s->o->maxlen : s->size;
	u8 *buf = malloc(maxlen);
	u64 len, off, t, d;
	int ret;

	if (!buf)
		die("malloc");
	while ((t = now_ns()) < s->end) {
		len = rnd_len(&s->r, maxlen);
		off = s->base + rnd(&s->r) % (s->size - len + 1);
		ret = xfer(rnd(&s->r) & 1 ? MPE_TEST_WRITE : MPE_TEST_READ,
			   s->o->dst, off, buf, len, NULL);
		d = now_ns() - t;
		if (!ret) {
			s->ok++;
			s->last_ok = now_ns() - stream_t0;
			if (d > s->max_ok_ns)
				s->max_ok_ns = d;
			continue;
		}
		if (ret == -ETIMEDOUT)
			s->err_timedout++;
		else if (ret == -EHOSTUNREACH)
			s->err_unreach++;
		else
			s->err_other++;
		if (!s->first_err)
			s->first_err = now_ns() - stream_t0;
		s->last_err = now_ns() - stream_t0;
		if (d > s->max_fail_ns)
			s->max_fail_ns = d;
		usleep(20000);
	}
	free(buf);
	return NULL;
}

static int cmd_stream(const struct opts *o)
{
	struct streamer *s = calloc(o->threads, sizeof(*s));
	u64 slice = o->size / o->threads / 4096 * 4096;
	u64 ok = 0, to = 0, un = 0, other = 0, maxf = 0, maxok = 0;
	u64 first = 0, last_err = 0, last_ok = 0;
	unsigned int i;

	if (!s || !slice)
		die("stream: bad -s/-j");
	stream_t0 = now_ns();
	for (i = 0; i < o->threads; i++) {
		s[i].o = o;
		s[i].base = o->off + i * slice;
		s[i].size = slice;
		s[i].end = stream_t0 + (u64)(o->secs * 1e9);
		s[i].r.s = (o->seed + 7) * 0x9e3779b97f4a7c15ULL + i;
		if (pthread_create(&s[i].th, NULL, stream_worker, &s[i]))
			die("pthread_create");
	}
	for (i = 0; i < o->threads; i++) {
		pthread_join(s[i].th, NULL);
		ok += s[i].ok;
		to += s[i].err_timedout;
		un += s[i].err_unreach;
		other += s[i].err_other;
		if (s[i].max_fail_ns > maxf)
			maxf = s[i].max_fail_ns;
		if (s[i].max_ok_ns > maxok)
			maxok = s[i].max_ok_ns;
		if (s[i].first_err && (!first || s[i].first_err < first))
			first = s[i].first_err;
		if (s[i].last_err > last_err)
			last_err = s[i].last_err;
		if (s[i].last_ok > last_ok)
			last_ok = s[i].last_ok;
	}
	printf("ok %llu\netimedout %llu\nehostunreach %llu\n"
	       "other_errors %llu\nmax_fail_ms %llu\nmax_ok_ms %llu\n"
	       "first_err_ms %llu\nlast_err_ms %llu\nlast_ok_ms %llu\n",
	       ok, to, un, other, maxf / 1000000, maxok / 1000000,
	       first / 1000000, last_err / 1000000, last_ok / 1000000);
	return 0;
}

/* ---- latency and bandwidth */

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int cmd_lat(const struct opts *o)
{
	u64 *t = calloc(o->n, sizeof(*t)), i, t0;
	u8 *buf = malloc(o->size);
	int ret;

	if (!t || !buf)
		die("malloc");
	memset(buf, 0x5a, o->size);
	for (i = 0; i < o->n; i++) {
		t0 = now_ns();
		ret = xfer(o->write ? MPE_TEST_WRITE : MPE_TEST_READ, o->dst,
			   o->off, buf, o->size, NULL);
		t[i] = now_ns() - t0;
		if (ret) {
			fprintf(stderr, "mpe_test: lat: %s\n", ename(ret));
			return 1;
		}
	}
	qsort(t, o->n, sizeof(*t), cmp_u64);
	printf("lat dst %u %s size %llu n %llu: p50_us %.2f p99_us %.2f min_us %.2f\n",
	       o->dst, o->write ? "write" : "read", o->size, o->n, t[o->n / 2] / 1e3,
	       t[o->n * 99 / 100] / 1e3, t[0] / 1e3);
	return 0;
}

static int cmd_bw(const struct opts *o)
{
	u8 *buf = malloc(o->size);
	u64 i, t0, ns;
	int ret;

	if (!buf)
		die("malloc");
	memset(buf, 0x5a, o->size);
	t0 = now_ns();
	for (i = 0; i < o->n; i++) {
		ret = xfer(o->write ? MPE_TEST_WRITE : MPE_TEST_READ, o->dst,
			   o->off, buf, o->size, NULL);
		if (ret) {
			fprintf(stderr, "mpe_test: bw: %s\n", ename(ret));
			return 1;
		}
	}
	ns = now_ns() - t0;
	/* MiB/s, as perftest's "MB/sec" */
	printf("bw dst %u %s size %llu n %llu: MiBps %.2f\n", o->dst,
	       o->write ? "write" : "read", o->size, o->n,
	       (double)o->size * o->n / MIB / (ns / 1e9));
	return 0;
}

static u64 num(const char *s)
{
	char *end;
	u64 v = strtoull(s, &end, 0);

	switch (*end) {
	case 'K':
	case 'k':
		v <<= 10;
		break;
	case 'M':
	case 'm':
		v <<= 20;
		break;
	case 'G':
	case 'g':
		v <<= 30;
		break;
	case 0:
		break;
	default:
		fprintf(stderr, "mpe_test: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static void usage(void)
{
	fprintf(stderr, "mpe_test CMD ...: see the comment at the top of mpe_test.c\n");
	exit(2);
}

/* The key ioctl with 32 hex digits as they are: the module must judge. */
static int cmd_key(const char *hex)
{
	struct mpe_test_key k = { .op = MPE_KEY_SET, .id = 1 };
	unsigned int i, b;

	if (strlen(hex) != 2 * MPE_KEY_LEN)
		usage();
	for (i = 0; i < MPE_KEY_LEN; i++) {
		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			usage();
		k.key[i] = (u8)b;
	}
	if (ioctl(fd, MPE_IOC_KEY, &k)) {
		fprintf(stderr, "mpe_test: key: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = {
		.size = 64 * MIB, .bytes = 64 * MIB, .maxlen = 8 * MIB,
		.threads = 1, .n = 100, .k = 16, .secs = 10,
	};
	const char *cmd;
	int c;

	if (argc < 2)
		usage();
	cmd = argv[1];
	open_dev();
	if (!strcmp(cmd, "info"))
		return cmd_info();
	if (!strcmp(cmd, "peer") && argc == 3)
		return cmd_peer((u32)num(argv[2]));
	if (!strcmp(cmd, "read") && argc == 5)
		return cmd_read((u32)num(argv[2]), num(argv[3]), num(argv[4]));
	if ((!strcmp(cmd, "fill") && argc == 6) ||
	    (!strcmp(cmd, "sum") && argc == 5))
		return cmd_fill_sum(argc == 6, (u32)num(argv[2]), num(argv[3]),
				    num(argv[4]), argc == 6 ? num(argv[5]) : 0);
	if (!strcmp(cmd, "wait") && argc >= 3)
		return cmd_wait((u32)num(argv[2]), argc > 3 ? atof(argv[3]) : 60);
	if (!strcmp(cmd, "signal") && argc >= 5)
		return signal_one((u32)num(argv[2]), (u32)num(argv[3]),
				  num(argv[4]), now_ns() +
				  (u64)((argc > 5 ? atof(argv[5]) : 60) * 1e9));
	if (!strcmp(cmd, "await") && argc >= 4)
		return await_one((u32)num(argv[2]), num(argv[3]), now_ns() +
				 (u64)((argc > 4 ? atof(argv[4]) : 60) * 1e9));
	if (!strcmp(cmd, "linger") && argc == 2)
		return cmd_linger();
	if (!strcmp(cmd, "barrier") && argc >= 3)
		return cmd_barrier(num(argv[2]), argc > 3 ? atof(argv[3]) : 60);
	if (!strcmp(cmd, "key") && argc == 3)
		return cmd_key(argv[2]);

	optind = 2;
	while ((c = getopt(argc, argv, "d:r:s:b:j:m:S:n:k:T:w")) != -1) {
		switch (c) {
		case 'd':
			o.dst = (u32)num(optarg);
			break;
		case 'r':
			o.off = num(optarg);
			break;
		case 's':
			o.size = num(optarg);
			break;
		case 'b':
			o.bytes = num(optarg);
			break;
		case 'j':
			o.threads = (unsigned int)num(optarg);
			break;
		case 'm':
			o.maxlen = num(optarg);
			break;
		case 'S':
			o.seed = num(optarg);
			break;
		case 'n':
			o.n = num(optarg);
			break;
		case 'k':
			o.k = num(optarg);
			break;
		case 'T':
			o.secs = atof(optarg);
			break;
		case 'w':
			o.write = true;
			break;
		default:
			usage();
		}
	}
	if (!o.threads || !o.n || !o.size)
		usage();
	if (!strcmp(cmd, "rand"))
		return cmd_rand(&o);
	if (!strcmp(cmd, "waw"))
		return cmd_waw(&o);
	if (!strcmp(cmd, "stream"))
		return cmd_stream(&o);
	if (!strcmp(cmd, "lat"))
		return cmd_lat(&o);
	if (!strcmp(cmd, "bw"))
		return cmd_bw(&o);
	usage();
	return 2;
}
