// SPDX-License-Identifier: GPL-2.0
/*
 * dax_rw: bytes through a device-dax character device (/dev/daxX.Y).
 *
 *   dax_rw write DEV LEN SEED   store a pattern in the first LEN bytes
 *   dax_rw check DEV LEN SEED   0 when the first LEN bytes hold it
 *
 * Device dax has no read(), write() or fsync(): the only way in is a
 * shared mapping, in multiples of the device's alignment (2 MiB for a
 * pmem namespace). write and check run as separate processes, so a check
 * that passes read the bytes back from the device, not from a mapping.
 * Exit 0 on success, 1 on a failed check or error, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uint8_t pattern(uint64_t seed, size_t i)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + i / 8;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ULL;
	return (uint8_t)(x >> (i % 8 * 8));
}

int main(int argc, char **argv)
{
	size_t len, i, bad = 0;
	int write, fd;
	uint64_t seed;
	uint8_t *p;

	if (argc != 5 || (strcmp(argv[1], "write") && strcmp(argv[1], "check"))) {
		fprintf(stderr, "usage: dax_rw write|check DEV LEN SEED\n");
		return 2;
	}
	write = !strcmp(argv[1], "write");
	len = strtoull(argv[3], NULL, 0);
	seed = strtoull(argv[4], NULL, 0);
	fd = open(argv[2], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "dax_rw: open %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "dax_rw: mmap %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (i = 0; i < len; i++) {
		if (write)
			p[i] = pattern(seed, i);
		else
			bad += p[i] != pattern(seed, i);
	}
	munmap(p, len);
	close(fd);
	printf("dax_rw: %s %zu bytes of %s%s", write ? "wrote" : "checked", len,
	       argv[2], write ? "\n" : "");
	if (!write)
		printf(": %zu differ\n", bad);
	return bad ? 1 : 0;
}
