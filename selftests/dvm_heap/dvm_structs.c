// SPDX-License-Identifier: GPL-2.0
/*
 * dvm_structs: an ordinary program that knows nothing of DVM.  It builds a
 * linked list, a binary search tree (in a second thread, at the same time)
 * and a graph as adjacency lists with plain malloc(), computes answers on
 * the CPU, prints them with the roots'
 * addresses (as a program hands pointers to an accelerator) and waits for
 * its standard input to close, so that dvm_physwalk can walk the same
 * structures through physical memory meanwhile.
 *
 * With -a it also hands the structures to the accelerator (/dev/dvm_accel,
 * which mirrors the address space of the process that binds it, so the
 * program binds it itself, as a program offloading work does): pointer
 * chases over the list, the tree's leftmost and rightmost paths and every
 * adjacency list, each compared with the CPU's walk; one line per structure
 * with the jobs' access counts (identity or translated, faults, memory
 * references of the validations, AVC misses, time).
 *
 *	dvm_structs [-a] [LIST_NODES TREE_NODES VERTICES DEGREE]
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <linux/dvm_accel.h>

#include "structs.h"

static uint64_t rng = 88172645463325252ULL;

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static uint64_t next_rand(void)
{
	return xorshift(&rng);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		perror("dvm_structs: malloc");
		exit(1);
	}
	return p;
}

static struct tree_node *tree_insert(struct tree_node *root, uint64_t key)
{
	struct tree_node **link = &root, *n;

	while (*link)
		link = key < (*link)->key ? &(*link)->left : &(*link)->right;
	n = xmalloc(sizeof(*n));
	n->key = key;
	n->left = NULL;
	n->right = NULL;
	*link = n;
	return root;
}

struct tree_job {
	uint64_t n;
	struct tree_node *root;
};

/* the tree is built by a thread of its own, with its own random numbers */
static void *build_tree(void *arg)
{
	struct tree_job *job = arg;
	uint64_t x = 2463534242ULL, i;

	for (i = 0; i < job->n; i++)
		job->root = tree_insert(job->root, xorshift(&x));
	return NULL;
}

static void tree_walk(const struct tree_node *n, uint64_t *count, uint64_t *h)
{
	while (n) {
		tree_walk(n->left, count, h);
		(*count)++;
		*h = tree_mix(*h, n->key);
		n = n->right;
	}
}

static void bfs(const struct graph *g, uint64_t *reach, uint64_t *dsum)
{
	uint32_t *dist = xmalloc(g->nr * sizeof(*dist));
	uint32_t *queue = xmalloc(g->nr * sizeof(*queue));
	uint64_t head = 0, tail = 0;
	const struct edge *e;

	memset(dist, 0xff, g->nr * sizeof(*dist));
	dist[0] = 0;
	queue[tail++] = 0;
	*reach = 0;
	*dsum = 0;
	while (head < tail) {
		uint32_t u = queue[head++];

		(*reach)++;
		*dsum += dist[u];
		for (e = g->v[u]->edges; e; e = e->next) {
			if (dist[e->to->id] != UINT32_MAX)
				continue;
			dist[e->to->id] = dist[u] + 1;
			queue[tail++] = e->to->id;
		}
	}
	free(queue);
	free(dist);
}

/* what the accelerator's chases over one structure gave */
struct chase_sum {
	uint64_t chains, bad, accesses, identity, translated, faults;
	uint64_t refs, avc_misses, ns;
};

/*
 * Chase from @start through the pointer at @off: once without a bound (it
 * must stop at NULL after the CPU's @len steps) and once @len - 1 steps (it
 * must end at the CPU's last node, @last).
 */
static void chase(int fd, const void *start, size_t off, uint64_t len,
		  const void *last, struct chase_sum *s)
{
	struct dvm_accel_job j;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		memset(&j, 0, sizeof(j));
		j.op = DVM_ACCEL_CHASE;
		j.chase.start = (uintptr_t)start;
		j.chase.next_off = off;
		j.chase.max_steps = pass ? len - 1 : UINT64_MAX;
		if (ioctl(fd, DVM_ACCEL_RUN, &j)) {
			fprintf(stderr, "dvm_structs: DVM_ACCEL_RUN: %s\n",
				strerror(errno));
			s->bad++;
			return;
		}
		if (pass ? j.result != len - 1 || j.result2 != (uintptr_t)last :
		    j.result != len || j.result2)
			s->bad++;
		s->accesses += j.stats.accesses;
		s->identity += j.stats.identity;
		s->translated += j.stats.translated;
		s->faults += j.stats.faults;
		s->refs += j.stats.validation_refs;
		s->avc_misses += j.stats.avc_misses;
		s->ns += j.stats.ns;
	}
	s->chains++;
}

static void chase_print(const char *what, const struct chase_sum *s)
{
	printf("accel %s chains %llu mismatches %llu accesses %llu ", what,
	       (unsigned long long)s->chains, (unsigned long long)s->bad,
	       (unsigned long long)s->accesses);
	printf("identity %llu translated %llu faults %llu ",
	       (unsigned long long)s->identity,
	       (unsigned long long)s->translated,
	       (unsigned long long)s->faults);
	printf("validation_refs %llu avc_misses %llu us %llu\n",
	       (unsigned long long)s->refs,
	       (unsigned long long)s->avc_misses,
	       (unsigned long long)s->ns / 1000);
}

/* a path down the tree through left (@right false) or right children */
static void chase_path(int fd, struct tree_node *root, int right,
		       struct chase_sum *s)
{
	struct tree_node *n = root, *last = root;
	uint64_t len = 0;

	while (n) {
		last = n;
		len++;
		n = right ? n->right : n->left;
	}
	chase(fd, root, right ? offsetof(struct tree_node, right) :
	      offsetof(struct tree_node, left), len, last, s);
}

static int accel_walk(struct list_node *head, struct tree_node *root,
		      struct graph *g)
{
	struct chase_sum sl = { 0 }, st = { 0 }, sg = { 0 };
	struct list_node *tail = head;
	uint64_t len = 0, i;
	struct edge *e;
	int fd;

	fd = open("/dev/dvm_accel", O_RDWR);
	if (fd < 0 || ioctl(fd, DVM_ACCEL_BIND)) {
		fprintf(stderr, "dvm_structs: /dev/dvm_accel: %s\n",
			strerror(errno));
		return -1;
	}
	for (; head && tail->next; tail = tail->next)
		len++;
	if (head)
		chase(fd, head, offsetof(struct list_node, next), len + 1,
		      tail, &sl);
	chase_print("list", &sl);
	if (root) {
		chase_path(fd, root, 0, &st);
		chase_path(fd, root, 1, &st);
	}
	chase_print("tree", &st);
	for (i = 0; i < g->nr; i++) {
		e = g->v[i]->edges;
		if (!e)
			continue;
		while (e->next)
			e = e->next;
		chase(fd, g->v[i]->edges, offsetof(struct edge, next),
		      g->v[i]->degree, e, &sg);
	}
	chase_print("graph", &sg);
	close(fd);
	return sl.bad || st.bad || sg.bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t nlist = 100000, ntree = 100000, nv = 10000, deg = 8;
	uint64_t i, j, sum = 0, count = 0, h = 0, reach, dsum;
	struct tree_job tree = { .root = NULL };
	struct list_node *head = NULL, *ln;
	struct tree_node *root;
	pthread_t thread;
	struct graph *g;
	int accel = argc > 1 && !strcmp(argv[1], "-a");
	char buf[64];
	void **junk;

	if (accel) {
		argc--;
		argv++;
	}
	if (argc == 5) {
		nlist = strtoull(argv[1], NULL, 0);
		ntree = strtoull(argv[2], NULL, 0);
		nv = strtoull(argv[3], NULL, 0);
		deg = strtoull(argv[4], NULL, 0);
	}
	if (!nv) {
		fprintf(stderr, "usage: dvm_structs [-a] [LIST TREE VERTICES DEGREE]\n");
		return 2;
	}

	/* some churn first, so that the structures reuse freed memory */
	junk = xmalloc(20000 * sizeof(*junk));
	for (i = 0; i < 20000; i++)
		junk[i] = xmalloc(16 + next_rand() % 2000);
	for (i = 0; i < 20000; i += 2)
		free(junk[i]);

	tree.n = ntree;
	if (pthread_create(&thread, NULL, build_tree, &tree)) {
		fprintf(stderr, "dvm_structs: cannot start a thread\n");
		return 1;
	}
	for (i = 0; i < nlist; i++) {
		ln = xmalloc(sizeof(*ln));
		ln->value = next_rand() % 1000000;
		ln->next = head;
		head = ln;
		sum += ln->value;
	}
	pthread_join(thread, NULL);
	root = tree.root;

	g = xmalloc(sizeof(*g));
	g->nr = nv;
	g->v = xmalloc(nv * sizeof(*g->v));
	for (i = 0; i < nv; i++) {
		g->v[i] = xmalloc(sizeof(struct vertex));
		g->v[i]->id = (uint32_t)i;
		g->v[i]->degree = 0;
		g->v[i]->edges = NULL;
	}
	for (i = 0; i < nv; i++) {
		for (j = 0; j < deg; j++) {
			struct edge *e = xmalloc(sizeof(*e));

			e->to = g->v[next_rand() % nv];
			e->next = g->v[i]->edges;
			g->v[i]->edges = e;
			g->v[i]->degree++;
		}
	}
	for (i = 1; i < 20000; i += 2)
		free(junk[i]);
	free(junk);

	printf("list %p %llu %llu\n", (void *)head, (unsigned long long)nlist,
	       (unsigned long long)sum);
	tree_walk(root, &count, &h);
	printf("tree %p %llu %llu\n", (void *)root, (unsigned long long)count,
	       (unsigned long long)h);
	bfs(g, &reach, &dsum);
	printf("graph %p %llu %llu\n", (void *)g, (unsigned long long)reach,
	       (unsigned long long)dsum);
	if (accel && accel_walk(head, root, g))
		return 1;
	printf("ready\n");
	fflush(stdout);

	/* wait for the walker */
	while (read(0, buf, sizeof(buf)) > 0)
		;
	return 0;
}
