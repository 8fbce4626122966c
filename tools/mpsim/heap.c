// SPDX-License-Identifier: GPL-2.0
/*
 * mpsim: the event queue, a binary min-heap ordered by (time, insertion).
 */
#include <errno.h>
#include <stdlib.h>

#include "sim.h"

static bool sim_ev_before(const struct sim_ev *a, const struct sim_ev *b)
{
	return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

int sim_heap_push(struct sim_heap *h, const struct sim_ev *e)
{
	size_t i;

	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 1024;
		struct sim_ev *v = realloc(h->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		h->v = v;
		h->cap = cap;
	}
	i = h->n++;
	h->v[i] = *e;
	h->v[i].seq = h->seq++;
	while (i > 0) {
		size_t up = (i - 1) / 2;
		struct sim_ev tmp;

		if (!sim_ev_before(&h->v[i], &h->v[up]))
			break;
		tmp = h->v[i];
		h->v[i] = h->v[up];
		h->v[up] = tmp;
		i = up;
	}
	return 0;
}

bool sim_heap_pop(struct sim_heap *h, struct sim_ev *e)
{
	size_t i = 0;

	if (!h->n)
		return false;
	*e = h->v[0];
	h->v[0] = h->v[--h->n];
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct sim_ev tmp;

		if (l < h->n && sim_ev_before(&h->v[l], &h->v[m]))
			m = l;
		if (l + 1 < h->n && sim_ev_before(&h->v[l + 1], &h->v[m]))
			m = l + 1;
		if (m == i)
			break;
		tmp = h->v[i];
		h->v[i] = h->v[m];
		h->v[m] = tmp;
		i = m;
	}
	return true;
}

void sim_heap_free(struct sim_heap *h)
{
	struct sim_ev e;

	while (sim_heap_pop(h, &e))
		free(e.data);
	free(h->v);
	*h = (struct sim_heap){ 0 };
}
