// SPDX-License-Identifier: GPL-2.0
/*
 * mpbench bandwidth: N threads, each streaming through its own slice of
 * the buffer until the time is up. A R:W mix reads R cache lines and
 * writes the next W lines, over and over (MLC's "3:1 reads-writes" is
 * 3:1); triad is STREAM's a[i] = b[i] + s * c[i] on three thirds of the
 * slice. On a pio target the same mixes use pread/pwrite of --chunk bytes.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpbench.h"

struct mpb_worker {
	pthread_t tid;
	struct mpb_target *t;
	const struct mpb_opts *o;
	unsigned int reads, writes;
	char *lo;		/* slice of the buffer (memory targets) */
	size_t len;
	off_t off;		/* slice of the file (pio) */
	uint64_t bytes;
	uint64_t sum;
	int err;
	struct mpb_gate *gate;
	atomic_bool *stop;
};

/* Threads start together, or not at all when one could not be created. */
struct mpb_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int state;		/* 0 wait, 1 go, -1 abort */
};

static int mpb_gate_wait(struct mpb_gate *g)
{
	int state;

	pthread_mutex_lock(&g->lock);
	while (!g->state)
		pthread_cond_wait(&g->cond, &g->lock);
	state = g->state;
	pthread_mutex_unlock(&g->lock);
	return state;
}

static void mpb_gate_open(struct mpb_gate *g, int state)
{
	pthread_mutex_lock(&g->lock);
	g->state = state;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

#define MPB_WORDS	(MPB_LINE / sizeof(uint64_t))

static void mpb_bw_mix(struct mpb_worker *w)
{
	size_t step = (size_t)(w->reads + w->writes) * MPB_LINE, pos, k;
	uint64_t sum = 0;

	while (!atomic_load_explicit(w->stop, memory_order_relaxed)) {
		for (pos = 0; pos + step <= w->len; pos += step) {
			volatile uint64_t *p = (uint64_t *)(w->lo + pos);

			for (k = 0; k < w->reads * MPB_WORDS; k++)
				sum += p[k];
			for (; k < (w->reads + w->writes) * MPB_WORDS; k++)
				p[k] = sum + k;
			w->bytes += step;
			if (!(pos & ((1 << 20) - 1)) &&
			    atomic_load_explicit(w->stop, memory_order_relaxed))
				break;
		}
	}
	w->sum = sum;
}

static void mpb_bw_triad(struct mpb_worker *w)
{
	size_t n = w->len / 3 / sizeof(double), i;
	double *a = (double *)w->lo, *b = a + n, *c = b + n;

	for (i = 0; i < n; i++) {
		b[i] = (double)i;
		c[i] = 2.0;
	}
	while (!atomic_load_explicit(w->stop, memory_order_relaxed)) {
		for (i = 0; i < n; i++)
			a[i] = b[i] + 3.0 * c[i];
		w->bytes += 3 * n * sizeof(double);
	}
	w->sum = (uint64_t)a[n - 1];
}

static void mpb_bw_pio(struct mpb_worker *w)
{
	size_t chunk = w->o->chunk, pos;
	unsigned int k;
	char *buf;

	buf = malloc(chunk);
	if (!buf) {
		w->err = -ENOMEM;
		return;
	}
	memset(buf, 0x5a, chunk);
	while (!atomic_load_explicit(w->stop, memory_order_relaxed)) {
		for (pos = 0; pos + chunk <= w->len; pos += chunk) {
			off_t off = w->off + pos;
			ssize_t n;

			k = (pos / chunk) % (w->reads + w->writes);
			if (k < w->reads)
				n = pread(w->t->fd, buf, chunk, off);
			else
				n = pwrite(w->t->fd, buf, chunk, off);
			if (n != (ssize_t)chunk) {
				w->err = n < 0 ? -errno : -EIO;
				goto out;
			}
			w->bytes += chunk;
			if (atomic_load_explicit(w->stop, memory_order_relaxed))
				break;
		}
	}
out:
	free(buf);
}

static void *mpb_bw_thread(void *arg)
{
	struct mpb_worker *w = arg;

	if (mpb_gate_wait(w->gate) < 0)
		return NULL;
	if (w->t->kind == MPB_PIO)
		mpb_bw_pio(w);
	else if (!w->reads && !w->writes)
		mpb_bw_triad(w);
	else
		mpb_bw_mix(w);
	return NULL;
}

int mpb_bw(struct mpb_target *t, const struct mpb_opts *o,
	   unsigned int reads, unsigned int writes, struct mpb_result *r)
{
	unsigned int i, n = o->threads, started = 0;
	struct mpb_gate gate = {
		PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0
	};
	atomic_bool stop = false;
	struct mpb_worker *w;
	size_t slice;
	double t0 = 0, t1;
	uint64_t bytes = 0;
	int ret = 0;

	if (t->kind == MPB_PIO && !reads && !writes)
		return -EOPNOTSUPP;
	slice = t->size / n / MPB_LINE * MPB_LINE;
	if (slice < (size_t)(reads + writes + 3) * MPB_LINE ||
	    (t->kind == MPB_PIO && slice < o->chunk))
		return -EINVAL;
	w = calloc(n, sizeof(*w));
	if (!w)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		w[i] = (struct mpb_worker){
			.t = t, .o = o, .reads = reads, .writes = writes,
			.lo = t->mem ? (char *)t->mem + i * slice : NULL,
			.len = slice, .off = (off_t)i * slice,
			.gate = &gate, .stop = &stop,
		};
		if (pthread_create(&w[i].tid, NULL, mpb_bw_thread, &w[i])) {
			ret = -EAGAIN;
			break;
		}
		started++;
	}
	if (started < n) {
		mpb_gate_open(&gate, -1);
		goto join;
	}
	t0 = mpb_now();
	mpb_gate_open(&gate, 1);
	usleep((useconds_t)(o->seconds * 1e6));
	atomic_store(&stop, true);
join:
	for (i = 0; i < started; i++) {
		pthread_join(w[i].tid, NULL);
		bytes += w[i].bytes;
		if (w[i].err && !ret)
			ret = w[i].err;
	}
	t1 = mpb_now();
	free(w);
	if (ret)
		return ret;
	r->unit = "MiB/s";
	r->value = bytes / (t1 - t0) / (1 << 20);
	r->ops = bytes;
	return 0;
}
