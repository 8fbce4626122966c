// SPDX-License-Identifier: GPL-2.0
/*
 * blk_verify: random O_DIRECT reads and writes on a block device, every
 * byte checked against a model (what fio --verify does, without fio's
 * eighty megabytes of libraries in the guest image).
 *
 *   blk_verify DEV [-j THREADS] [-n OPS] [-m MAXKIB] [-s SEED]
 *
 * The device is cut into THREADS (default 4) regions, one per thread, so
 * requests run concurrently on the disk's queues. Each thread does OPS
 * (default 100) operations at random 512-byte aligned offsets of its
 * region, 512 bytes to MAXKIB KiB (default 64) long: two in three write,
 * one in three reads and checks what it finds. A sector's content is a
 * function of its number and the count of writes to it, which the model
 * keeps; sectors never written are not checked. At the end each thread
 * reads back every extent it wrote. Prints "ops=N written_kib=N
 * read_kib=N bad_sectors=N errors=N seconds=S" and exits 0 only with no bad
 * sector and no I/O error. DEV may be a regular file (trying it out).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#define SECT 512

struct extent {
	uint64_t sect, n;
};

struct worker {
	pthread_t th;
	int fd;
	uint64_t first, nsect;	/* region, in sectors */
	uint32_t *gen;		/* writes per sector of the region */
	struct extent *ext;
	uint64_t next;		/* rng state */
	uint64_t written, read, bad, errors, ops;
};

static unsigned long nops = 100, maxkib = 64;
static uint64_t seed = 0x6d7062;

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void sect_fill(uint64_t *p, uint64_t sect, uint32_t gen)
{
	uint64_t x = (seed ^ (sect * 0x9e3779b97f4a7c15ULL) ^
		      ((uint64_t)gen << 40)) | 1;
	unsigned int i;

	for (i = 0; i < SECT / 8; i++)
		p[i] = rnd(&x);
}

static uint64_t check(struct worker *w, const unsigned char *buf,
		      uint64_t sect, uint64_t n)
{
	uint64_t want[SECT / 8], i, bad = 0;
	uint32_t g;

	for (i = 0; i < n; i++) {
		g = w->gen[sect + i - w->first];
		if (!g)
			continue;
		sect_fill(want, sect + i, g);
		if (memcmp(buf + i * SECT, want, SECT))
			bad++;
	}
	return bad;
}

static int do_io(struct worker *w, unsigned char *buf, uint64_t sect,
		 uint64_t n, int write)
{
	ssize_t len = (ssize_t)(n * SECT), r;
	off_t off = (off_t)(sect * SECT);

	r = write ? pwrite(w->fd, buf, len, off) : pread(w->fd, buf, len, off);
	if (r != len) {
		fprintf(stderr, "blk_verify: %s of %zd bytes at %lld: %s\n",
			write ? "write" : "read", len, (long long)off,
			r < 0 ? strerror(errno) : "short");
		w->errors++;
		return -1;
	}
	return 0;
}

static void *run(void *arg)
{
	struct worker *w = arg;
	uint64_t maxs = maxkib * 1024 / SECT, sect, n, i, e = 0;
	unsigned char *buf;

	if (posix_memalign((void **)&buf, 4096, maxs * SECT)) {
		w->errors++;
		return NULL;
	}
	for (w->ops = 0; w->ops < nops && !w->errors; w->ops++) {
		n = 1 + rnd(&w->next) % maxs;
		if (n > w->nsect)
			n = w->nsect;
		sect = w->first + rnd(&w->next) % (w->nsect - n + 1);
		if (rnd(&w->next) % 3) {
			for (i = 0; i < n; i++)
				sect_fill((uint64_t *)(buf + i * SECT), sect + i,
					  ++w->gen[sect + i - w->first]);
			if (do_io(w, buf, sect, n, 1))
				break;
			w->written += n;
			w->ext[e].sect = sect;
			w->ext[e++].n = n;
		} else {
			if (do_io(w, buf, sect, n, 0))
				break;
			w->read += n;
			w->bad += check(w, buf, sect, n);
		}
	}
	for (i = 0; i < e && !w->errors; i++) {
		if (do_io(w, buf, w->ext[i].sect, w->ext[i].n, 0))
			break;
		w->read += w->ext[i].n;
		w->bad += check(w, buf, w->ext[i].sect, w->ext[i].n);
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long threads = 4, t;
	uint64_t size, per, ops = 0, wr = 0, rd = 0, bad = 0, errs = 0;
	struct timespec t0, t1;
	struct worker *ws;
	struct stat st;
	int opt, fd;

	while ((opt = getopt(argc, argv, "j:n:m:s:")) != -1) {
		switch (opt) {
		case 'j':
			threads = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			nops = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			maxkib = strtoul(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1 || !threads || !maxkib)
		goto usage;
	fd = open(argv[optind], O_RDWR | O_DIRECT);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[optind]);
		return 1;
	}
	/* a regular file too, to try it on a host */
	size = (uint64_t)st.st_size;
	if (S_ISBLK(st.st_mode) && ioctl(fd, BLKGETSIZE64, &size)) {
		perror(argv[optind]);
		return 1;
	}
	per = size / SECT / threads;
	if (!per) {
		fprintf(stderr, "blk_verify: device too small\n");
		return 1;
	}
	ws = calloc(threads, sizeof(*ws));
	if (!ws)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (t = 0; t < threads; t++) {
		ws[t].fd = fd;
		ws[t].first = t * per;
		ws[t].nsect = per;
		ws[t].next = (seed + t + 1) * 0x2545f4914f6cdd1dULL | 1;
		ws[t].gen = calloc(per, sizeof(*ws[t].gen));
		ws[t].ext = calloc(nops, sizeof(*ws[t].ext));
		if (!ws[t].gen || !ws[t].ext ||
		    pthread_create(&ws[t].th, NULL, run, &ws[t])) {
			fprintf(stderr, "blk_verify: cannot start thread %lu\n", t);
			return 1;
		}
	}
	for (t = 0; t < threads; t++) {
		pthread_join(ws[t].th, NULL);
		ops += ws[t].ops;
		wr += ws[t].written;
		rd += ws[t].read;
		bad += ws[t].bad;
		errs += ws[t].errors;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("ops=%llu written_kib=%llu read_kib=%llu bad_sectors=%llu ",
	       (unsigned long long)ops, (unsigned long long)wr / 2,
	       (unsigned long long)rd / 2, (unsigned long long)bad);
	printf("errors=%llu seconds=%.1f\n", (unsigned long long)errs,
	       (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	close(fd);
	return bad || errs ? 1 : 0;
usage:
	fprintf(stderr, "usage: blk_verify DEV [-j THREADS] [-n OPS] [-m MAXKIB] [-s SEED]\n");
	return 2;
}
