// SPDX-License-Identifier: GPL-2.0
/*
 * dvm_physwalk: walk another process's pointer-based structures the way a
 * device without an MMU would, treating every pointer as a *physical*
 * address.
 *
 *	dvm_physwalk PID LIST TREE GRAPH
 *
 * It only sees the physical memory of process PID: the frames
 * /proc/PID/pagemap lists (a PFN -> page table of the process), whose
 * contents it reads through /proc/PID/mem.  A pointer is resolved by its
 * frame number alone, never as a virtual address.  Where the heap is
 * identity mapped every pointer is the physical address of its node, and
 * the walk gives the same answers as the program's own walk on the CPU;
 * where it is not, the walk stops at the first pointer that is not a
 * physical address of the process (exit status 1).  It prints the answers
 * in dvm_structs' format and "nodes N identity M frames F": of the N nodes
 * visited, M were at VA == PA.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "structs.h"

#define PAGE		4096ULL
#define PM_BIT(n)	(1ULL << (n))
#define PM_PFN_MASK	(PM_BIT(55) - 1)
#define PM_PRESENT	PM_BIT(63)

struct frame {
	uint64_t pfn;		/* 0: free slot */
	uint64_t va;		/* where the process maps it */
	unsigned char *data;	/* read on first use */
};

static struct frame *frames;
static uint64_t nr_slots, nr_frames, nodes, identity;
static int mem_fd;

static struct frame *slot(uint64_t pfn)
{
	uint64_t i = (pfn * 0x9e3779b97f4a7c15ULL) & (nr_slots - 1);

	while (frames[i].pfn && frames[i].pfn != pfn)
		i = (i + 1) & (nr_slots - 1);
	return &frames[i];
}

static int add_frame(uint64_t pfn, uint64_t va)
{
	struct frame *f;

	if (nr_frames * 2 >= nr_slots)
		return -ENOSPC;
	f = slot(pfn);
	if (!f->pfn) {
		f->pfn = pfn;
		f->va = va;
		nr_frames++;
	}
	return 0;
}

/* The process's frames: every present page of every mapping. */
static int load_frames(int pid)
{
	char path[64], line[512];
	uint64_t buf[512], start, end, va, n, i, pages = 0;
	FILE *maps;
	int pm;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	maps = fopen(path, "re");
	snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
	pm = open(path, O_RDONLY | O_CLOEXEC);
	if (!maps || pm < 0)
		return -errno;
	while (fgets(line, sizeof(line), maps))
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) == 2)
			pages += (end - start) / PAGE;
	for (nr_slots = 1024; nr_slots < 2 * pages + 2; nr_slots *= 2)
		;
	frames = calloc(nr_slots, sizeof(*frames));
	if (!frames)
		return -ENOMEM;
	rewind(maps);
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) != 2)
			continue;
		for (va = start; va < end; va += n * PAGE) {
			ssize_t r;

			n = (end - va) / PAGE;
			if (n > 512)
				n = 512;
			r = pread(pm, buf, n * 8, (off_t)(va / PAGE * 8));
			if (r <= 0)
				break;
			n = (uint64_t)r / 8;
			for (i = 0; i < n; i++)
				if ((buf[i] & PM_PRESENT) && (buf[i] & PM_PFN_MASK) &&
				    add_frame(buf[i] & PM_PFN_MASK, va + i * PAGE))
					return -ENOSPC;
		}
	}
	fclose(maps);
	close(pm);
	return 0;
}

static int not_phys(uint64_t pa)
{
	fprintf(stderr,
		"dvm_physwalk: 0x%" PRIx64 " is not a physical address of the process\n",
		pa);
	return -EFAULT;
}

/* Read @len bytes at physical address @pa; -EFAULT if not the process's. */
static int phys_read(uint64_t pa, void *out, size_t len)
{
	unsigned char *o = out;

	while (len) {
		uint64_t off = pa % PAGE, n = PAGE - off;
		struct frame *f = slot(pa / PAGE);

		if (!f->pfn)
			return not_phys(pa);
		if (!f->data) {
			f->data = malloc(PAGE);
			if (!f->data ||
			    pread(mem_fd, f->data, PAGE, (off_t)f->va) != PAGE)
				return -EIO;
		}
		if (n > len)
			n = len;
		memcpy(o, f->data + off, n);
		o += n;
		pa += n;
		len -= n;
	}
	return 0;
}

/* a node at physical address @pa: read it, and count it */
static int node(uint64_t pa, void *out, size_t len)
{
	nodes++;
	if (slot(pa / PAGE)->pfn && slot(pa / PAGE)->va == pa / PAGE * PAGE)
		identity++;
	return phys_read(pa, out, len);
}

static int walk_list(uint64_t pa)
{
	uint64_t count = 0, sum = 0;
	struct list_node n;

	for (; pa; pa = (uint64_t)(uintptr_t)n.next) {
		if (node(pa, &n, sizeof(n)))
			return -EFAULT;
		count++;
		sum += n.value;
	}
	printf("list %llu %llu\n", (unsigned long long)count,
	       (unsigned long long)sum);
	return 0;
}

static int walk_tree(uint64_t root)
{
	uint64_t *stack = NULL, depth = 0, cap = 0, count = 0, h = 0, pa = root;
	struct tree_node n;

	/* in order, with an explicit stack of physical addresses */
	while (pa || depth) {
		if (pa) {
			if (depth == cap) {
				uint64_t *s;

				cap = cap ? cap * 2 : 1024;
				s = realloc(stack, cap * sizeof(*stack));
				if (!s)
					goto fail;
				stack = s;
			}
			stack[depth++] = pa;
			if (node(pa, &n, sizeof(n)))
				goto fail;
			pa = (uint64_t)(uintptr_t)n.left;
			continue;
		}
		pa = stack[--depth];
		if (phys_read(pa, &n, sizeof(n)))
			goto fail;
		count++;
		h = tree_mix(h, n.key);
		pa = (uint64_t)(uintptr_t)n.right;
	}
	free(stack);
	printf("tree %llu %llu\n", (unsigned long long)count,
	       (unsigned long long)h);
	return 0;
fail:
	free(stack);
	return -EFAULT;
}

static int walk_graph(uint64_t gpa)
{
	uint64_t head = 0, tail = 0, reach = 0, dsum = 0, *vpa = NULL;
	uint32_t *dist = NULL, *queue = NULL;
	struct graph g;
	struct vertex v, w;
	struct edge e;
	uint64_t epa;
	int rc = -EFAULT;

	if (node(gpa, &g, sizeof(g)) || !g.nr || g.nr > (1ULL << 26))
		return -EFAULT;
	dist = malloc(g.nr * sizeof(*dist));
	queue = malloc(g.nr * sizeof(*queue));
	vpa = malloc(g.nr * sizeof(*vpa));
	if (!dist || !queue || !vpa)
		goto out;
	/* the vertex array: one node holding nr pointers */
	if (node((uint64_t)(uintptr_t)g.v, vpa, g.nr * sizeof(*vpa)))
		goto out;
	memset(dist, 0xff, g.nr * sizeof(*dist));
	dist[0] = 0;
	queue[tail++] = 0;
	while (head < tail) {
		uint32_t u = queue[head++];

		reach++;
		dsum += dist[u];
		if (node(vpa[u], &v, sizeof(v)))
			goto out;
		for (epa = (uint64_t)(uintptr_t)v.edges; epa;
		     epa = (uint64_t)(uintptr_t)e.next) {
			if (node(epa, &e, sizeof(e)) ||
			    phys_read((uint64_t)(uintptr_t)e.to, &w, sizeof(w)) ||
			    w.id >= g.nr)
				goto out;
			if (dist[w.id] != UINT32_MAX)
				continue;
			dist[w.id] = dist[u] + 1;
			queue[tail++] = w.id;
		}
	}
	printf("graph %llu %llu\n", (unsigned long long)reach,
	       (unsigned long long)dsum);
	rc = 0;
out:
	free(vpa);
	free(queue);
	free(dist);
	return rc;
}

int main(int argc, char **argv)
{
	uint64_t list, tree, graph;
	char path[64];
	int pid, rc;

	if (argc != 5) {
		fprintf(stderr, "usage: dvm_physwalk PID LIST TREE GRAPH\n");
		return 2;
	}
	pid = atoi(argv[1]);
	list = strtoull(argv[2], NULL, 16);
	tree = strtoull(argv[3], NULL, 16);
	graph = strtoull(argv[4], NULL, 16);
	rc = load_frames(pid);
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	mem_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (rc || mem_fd < 0) {
		fprintf(stderr, "dvm_physwalk: cannot read process %d: %s\n",
			pid, strerror(rc ? -rc : errno));
		return 2;
	}
	rc = walk_list(list) || walk_tree(tree) || walk_graph(graph);
	printf("nodes %llu identity %llu frames %llu\n",
	       (unsigned long long)nodes, (unsigned long long)identity,
	       (unsigned long long)nr_frames);
	return rc ? 1 : 0;
}
