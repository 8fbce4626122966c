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
 *	dvm_structs [LIST_NODES TREE_NODES VERTICES DEGREE]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
	uint64_t nlist = 100000, ntree = 100000, nv = 10000, deg = 8;
	uint64_t i, j, sum = 0, count = 0, h = 0, reach, dsum;
	struct tree_job tree = { .root = NULL };
	struct list_node *head = NULL, *ln;
	struct tree_node *root;
	pthread_t thread;
	struct graph *g;
	char buf[64];
	void **junk;

	if (argc == 5) {
		nlist = strtoull(argv[1], NULL, 0);
		ntree = strtoull(argv[2], NULL, 0);
		nv = strtoull(argv[3], NULL, 0);
		deg = strtoull(argv[4], NULL, 0);
	}
	if (!nv) {
		fprintf(stderr, "usage: dvm_structs [LIST TREE VERTICES DEGREE]\n");
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
	printf("ready\n");
	fflush(stdout);

	/* wait for the walker */
	while (read(0, buf, sizeof(buf)) > 0)
		;
	return 0;
}
