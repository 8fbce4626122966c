// SPDX-License-Identifier: GPL-2.0
/*
 * dvm_rmat: Graph500-style R-MAT graph generator (dvm/common/dvm_graph.c).
 *
 *   dvm_rmat [-o FILE] SCALE [EDGEFACTOR [SEED]]
 *
 * Generates EDGEFACTOR * 2^SCALE edges (default 16) among 2^SCALE vertices
 * with the R-MAT probabilities 0.57/0.19/0.19/0.05 and scrambled vertex
 * numbers, builds the undirected CSR graph, and prints its shape.  With -o
 * the CSR graph is written to FILE: n and m (u64 each), row[n + 1] (u64),
 * col[m] (u32), little endian.  The accelerator tests (dvm_accel graph)
 * use the same generator with seed 0x5eed0000 + SCALE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dvm_graph.h"

static unsigned long long num(const char *s, const char *what, unsigned long long max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || !*s || v > max) {
		fprintf(stderr, "dvm_rmat: bad %s '%s' (0..%llu)\n", what, s, max);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	unsigned long long scale, ef = 16, seed, n, ne, m, v, maxdeg = 0, iso = 0;
	u32 *eu, *ev, *col;
	u64 *row;
	int c;

	while ((c = getopt(argc, argv, "o:")) != -1) {
		if (c != 'o') {
			fprintf(stderr, "usage: dvm_rmat [-o FILE] SCALE [EDGEFACTOR [SEED]]\n");
			return 2;
		}
		out = optarg;
	}
	if (optind >= argc || argc - optind > 3) {
		fprintf(stderr, "usage: dvm_rmat [-o FILE] SCALE [EDGEFACTOR [SEED]]\n");
		return 2;
	}
	scale = num(argv[optind], "scale", 26);
	if (argc - optind > 1)
		ef = num(argv[optind + 1], "edge factor", 64);
	seed = argc - optind > 2 ? num(argv[optind + 2], "seed", ~0ULL) :
	       0x5eed0000 + scale;
	n = 1ULL << scale;
	ne = n * ef;
	eu = malloc(ne * sizeof(*eu));
	ev = malloc(ne * sizeof(*ev));
	row = malloc((n + 1) * sizeof(*row));
	col = malloc(2 * ne * sizeof(*col));
	if (!eu || !ev || !row || !col) {
		fprintf(stderr, "dvm_rmat: out of memory for scale %llu\n", scale);
		return 1;
	}
	dvm_rmat_edges(seed, (u32)scale, ne, eu, ev);
	m = dvm_csr_build(n, eu, ev, ne, row, col);
	for (v = 0; v < n; v++) {
		u64 d = row[v + 1] - row[v];

		if (d > maxdeg)
			maxdeg = d;
		iso += !d;
	}
	printf("scale %llu vertices %llu edges %llu directed %llu", scale, n, ne, m);
	printf(" max-degree %llu isolated %llu seed 0x%llx\n", maxdeg, iso, seed);
	if (out) {
		FILE *f = fopen(out, "wb");
		u64 hdr[2] = { n, m };

		if (!f || fwrite(hdr, 8, 2, f) != 2 ||
		    fwrite(row, 8, n + 1, f) != n + 1 ||
		    fwrite(col, 4, m, f) != m || fclose(f)) {
			fprintf(stderr, "dvm_rmat: %s: %s\n", out, strerror(errno));
			return 1;
		}
	}
	free(eu);
	free(ev);
	free(row);
	free(col);
	return 0;
}
