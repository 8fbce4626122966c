// SPDX-License-Identifier: GPL-2.0
/*
 * mps_test: drives /dev/mps<N> (remote-backed segments) in the guests.
 *
 *   mps_test fill DEV OFF LEN SEED     write a pattern through MAP_SHARED,
 *                                      msync, munmap; print its checksum
 *   mps_test unmap DEV OFF LEN SEED    write the pattern through MAP_SHARED,
 *                                      munmap without msync, then pread it
 *                                      with the file still open: munmap
 *                                      wrote it back; 0 when pread matches
 *   mps_test pwrite DEV OFF LEN SEED   write the pattern with pwrite
 *   mps_test sum-read DEV OFF LEN      checksum of the bytes, by pread
 *   mps_test sum-mmap DEV OFF LEN      checksum of the bytes, by mmap
 *   mps_test inval DEV OFF             a page cached by mmap misses a newer
 *                                      pwrite until MPS_IOC_INVALIDATE
 *   mps_test invalidate DEV OFF LEN    MPS_IOC_INVALIDATE of a range
 *   mps_test hold DEV SECONDS          keep the device mapped that long
 *   mps_test edges DEV                 reads and writes at the end, bad
 *                                      mmap (and MAP_PRIVATE) and ioctl ranges
 *   mps_test produce DEV N             sharing: N messages into a ring
 *   mps_test consume DEV N             sharing: take them out and check
 *
 * Checksums print as "sum=<hex> nonzero=<bytes that are not 0>".
 * Exit 0 on success, 1 on a failed check, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/cmm_mp.h>

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static void pattern(uint8_t *p, size_t len, uint64_t off, uint64_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)mix(seed ^ ((off + i) >> 3)) >> ((off + i) & 7);
}

static uint64_t fnv(const uint8_t *p, size_t len, uint64_t h, size_t *nz)
{
	size_t i;

	for (i = 0; i < len; i++) {
		h = (h ^ p[i]) * 0x100000001b3ULL;
		*nz += p[i] != 0;
	}
	return h;
}

#define FNV0	0xcbf29ce484222325ULL

static void print_sum(uint64_t h, size_t nz)
{
	printf("sum=%016" PRIx64 " nonzero=%zu\n", h, nz);
}

static int fail(const char *what)
{
	fprintf(stderr, "mps_test: %s: %s\n", what, strerror(errno));
	return 1;
}

static int open_dev(const char *dev)
{
	int fd = open(dev, O_RDWR);

	if (fd < 0)
		fprintf(stderr, "mps_test: open %s: %s\n", dev, strerror(errno));
	return fd;
}

static uint64_t num(const char *s)
{
	return strtoull(s, NULL, 0);
}

static int cmd_fill(int fd, uint64_t off, size_t len, uint64_t seed)
{
	uint64_t h;
	size_t nz = 0;
	uint8_t *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	if (p == MAP_FAILED)
		return fail("mmap");
	pattern(p, len, off, seed);
	if (msync(p, len, MS_SYNC))
		return fail("msync");
	h = fnv(p, len, FNV0, &nz);
	print_sum(h, nz);
	munmap(p, len);
	return 0;
}

static int cmd_unmap(int fd, uint64_t off, size_t len, uint64_t seed)
{
	uint8_t *p, *want = malloc(len), *got = malloc(len);
	size_t nz = 0;
	uint64_t h;
	int bad;

	if (!want || !got)
		return fail("malloc");
	pattern(want, len, off, seed);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	if (p == MAP_FAILED)
		return fail("mmap");
	memcpy(p, want, len);
	if (munmap(p, len))
		return fail("munmap");
	if (pread(fd, got, len, off) != (ssize_t)len)
		return fail("pread");
	bad = memcmp(want, got, len) != 0;
	printf("unmap: pread %s the bytes stored through the mapping\n",
	       bad ? "misses" : "returns");
	h = fnv(got, len, FNV0, &nz);
	print_sum(h, nz);
	free(want);
	free(got);
	return bad;
}

static int cmd_pwrite(int fd, uint64_t off, size_t len, uint64_t seed)
{
	uint64_t h;
	uint8_t *p = malloc(len);
	size_t nz = 0;
	ssize_t n;

	if (!p)
		return fail("malloc");
	pattern(p, len, off, seed);
	n = pwrite(fd, p, len, off);
	if (n != (ssize_t)len)
		return fail("pwrite");
	h = fnv(p, len, FNV0, &nz);
	print_sum(h, nz);
	free(p);
	return 0;
}

static int cmd_sum_read(int fd, uint64_t off, size_t len)
{
	uint64_t h;
	uint8_t *p = malloc(len);
	size_t nz = 0;
	ssize_t n;

	if (!p)
		return fail("malloc");
	n = pread(fd, p, len, off);
	if (n != (ssize_t)len)
		return fail("pread");
	h = fnv(p, len, FNV0, &nz);
	print_sum(h, nz);
	free(p);
	return 0;
}

static int cmd_sum_mmap(int fd, uint64_t off, size_t len)
{
	uint64_t h;
	size_t nz = 0;
	uint8_t *p;

	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, off);
	if (p == MAP_FAILED)
		return fail("mmap");
	h = fnv(p, len, FNV0, &nz);
	print_sum(h, nz);
	munmap(p, len);
	return 0;
}

/* A cached page sees a newer pwrite only after MPS_IOC_INVALIDATE. */
static int cmd_inval(int fd, uint64_t off)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct mps_range r = { .offset = off, .len = (uint64_t)pg };
	volatile uint64_t *p;
	uint64_t before, cached, after, v;

	p = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, off);
	if (p == MAP_FAILED)
		return fail("mmap");
	before = p[0];
	v = before + 0x1111;
	if (pwrite(fd, &v, sizeof(v), off) != sizeof(v))
		return fail("pwrite");
	cached = p[0];
	if (ioctl(fd, MPS_IOC_INVALIDATE, &r))
		return fail("MPS_IOC_INVALIDATE");
	after = p[0];
	printf("before=%" PRIx64 " written=%" PRIx64 " cached=%" PRIx64
	       " after=%" PRIx64 "\n", before, v, cached, after);
	munmap((void *)p, pg);
	return cached == before && after == v ? 0 : 1;
}

static int cmd_invalidate(int fd, uint64_t off, uint64_t len)
{
	struct mps_range r = { .offset = off, .len = len };

	if (ioctl(fd, MPS_IOC_INVALIDATE, &r))
		return fail("MPS_IOC_INVALIDATE");
	return 0;
}

static int cmd_hold(int fd, unsigned int secs)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	volatile uint8_t *p;

	p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return fail("mmap");
	(void)p[0];
	printf("mapped\n");
	fflush(stdout);
	sleep(secs);
	return 0;
}

/* At and past the end, and invalid ranges: what each must answer. */
static int cmd_edges(int fd)
{
	struct mps_range r;
	struct stat st;
	uint8_t b[16];
	off_t size;
	int bad = 0;
	void *p;

	size = lseek(fd, 0, SEEK_END);
	if (size <= 0 || fstat(fd, &st))
		return fail("lseek SEEK_END");
	printf("size=%lld\n", (long long)size);
	if (pread(fd, b, sizeof(b), size) != 0) {
		fprintf(stderr, "read at the end did not return 0\n");
		bad++;
	}
	if (pread(fd, b, sizeof(b), size - 8) != 8) {
		fprintf(stderr, "read across the end was not cut to 8 bytes\n");
		bad++;
	}
	errno = 0;
	if (pwrite(fd, b, sizeof(b), size) != -1 || errno != ENOSPC) {
		fprintf(stderr, "write at the end: not ENOSPC\n");
		bad++;
	}
	p = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, size - 4096);
	if (p != MAP_FAILED || errno != EINVAL) {
		fprintf(stderr, "mmap across the end: not EINVAL\n");
		bad++;
	}
	/* a private copy is never written back: refused (pool.rst) */
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (p != MAP_FAILED || errno != EINVAL) {
		fprintf(stderr, "mmap MAP_PRIVATE: not EINVAL\n");
		bad++;
	}
	r.offset = (uint64_t)size;
	r.len = 1;
	if (ioctl(fd, MPS_IOC_INVALIDATE, &r) != -1 || errno != EINVAL) {
		fprintf(stderr, "invalidate past the end: not EINVAL\n");
		bad++;
	}
	if (ioctl(fd, _IO(MPS_IOC_MAGIC, 99)) != -1 || errno != ENOTTY) {
		fprintf(stderr, "unknown ioctl: not ENOTTY\n");
		bad++;
	}
	printf("edges bad=%d\n", bad);
	return bad ? 1 : 0;
}

/*
 * Sharing: a ring of SLOTS slots of 64 bytes (one frame each, so each
 * pwrite of a slot is atomic at the backing device) at RING, and the
 * consumer's count of taken messages at ACK. A slot holds the message's
 * sequence number (from 1: a zeroed segment holds none), 40 bytes of
 * payload derived from it and a checksum of both.
 */
#define SLOTS		64
#define SLOT_SIZE	64
#define ACK		0
#define RING		4096

struct slot {
	uint64_t seq;
	uint8_t payload[40];
	uint64_t sum;
	uint64_t pad;
};

_Static_assert(sizeof(struct slot) == SLOT_SIZE, "slot size");

static void slot_fill(struct slot *s, uint64_t seq)
{
	size_t nz = 0;

	memset(s, 0, sizeof(*s));
	s->seq = seq;
	pattern(s->payload, sizeof(s->payload), seq * 64, 0x5eed);
	s->sum = fnv(s->payload, sizeof(s->payload), FNV0 ^ seq, &nz);
}

static int cmd_produce(int fd, uint64_t n)
{
	uint64_t seq, acked = 0, polls = 0;
	struct slot s;

	for (seq = 1; seq <= n; seq++) {
		/* slot (seq-1) % SLOTS is free once seq - SLOTS was taken */
		while (seq > acked + SLOTS) {
			if (pread(fd, &acked, sizeof(acked), ACK) != sizeof(acked))
				return fail("pread ack");
			polls++;
		}
		slot_fill(&s, seq);
		if (pwrite(fd, &s, sizeof(s),
			   RING + ((seq - 1) % SLOTS) * SLOT_SIZE) != sizeof(s))
			return fail("pwrite slot");
	}
	printf("produced=%" PRIu64 " ack_polls=%" PRIu64 "\n", n, polls);
	return 0;
}

static int cmd_consume(int fd, uint64_t n, unsigned int timeout)
{
	uint64_t seq, corrupt = 0, polls = 0, h = FNV0;
	time_t end = time(NULL) + timeout;
	struct slot s, want;
	size_t nz = 0;

	for (seq = 1; seq <= n; seq++) {
		for (;;) {
			if (pread(fd, &s, sizeof(s), RING +
				  ((seq - 1) % SLOTS) * SLOT_SIZE) != sizeof(s))
				return fail("pread slot");
			if (s.seq == seq)
				break;
			/* an older lap, or not written yet */
			if (s.seq > seq || (s.seq && s.seq % SLOTS !=
					    seq % SLOTS)) {
				corrupt++;
				break;
			}
			if (time(NULL) > end) {
				fprintf(stderr, "timeout waiting for message %" PRIu64 "\n",
					seq);
				goto out;
			}
			polls++;
		}
		slot_fill(&want, seq);
		if (memcmp(&s, &want, sizeof(s)))
			corrupt++;
		h = fnv((const uint8_t *)&s, sizeof(s), h, &nz);
		if (seq % (SLOTS / 4) == 0 || seq == n) {
			if (pwrite(fd, &seq, sizeof(seq), ACK) != sizeof(seq))
				return fail("pwrite ack");
		}
	}
out:
	printf("received=%" PRIu64 " lost=%" PRIu64 " corrupt=%" PRIu64
	       " polls=%" PRIu64 " sum=%016" PRIx64 "\n",
	       seq - 1, n - (seq - 1), corrupt, polls, h);
	return seq - 1 == n && !corrupt ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int fd, rc;

	if (argc < 3) {
		fprintf(stderr, "usage: mps_test COMMAND DEV ... (see the source)\n");
		return 2;
	}
	fd = open_dev(argv[2]);
	if (fd < 0)
		return 1;
	if (!strcmp(cmd, "fill") && argc == 6) {
		rc = cmd_fill(fd, num(argv[3]), num(argv[4]), num(argv[5]));
	} else if (!strcmp(cmd, "unmap") && argc == 6) {
		rc = cmd_unmap(fd, num(argv[3]), num(argv[4]), num(argv[5]));
	} else if (!strcmp(cmd, "pwrite") && argc == 6) {
		rc = cmd_pwrite(fd, num(argv[3]), num(argv[4]), num(argv[5]));
	} else if (!strcmp(cmd, "sum-read") && argc == 5) {
		rc = cmd_sum_read(fd, num(argv[3]), num(argv[4]));
	} else if (!strcmp(cmd, "sum-mmap") && argc == 5) {
		rc = cmd_sum_mmap(fd, num(argv[3]), num(argv[4]));
	} else if (!strcmp(cmd, "inval") && argc == 4) {
		rc = cmd_inval(fd, num(argv[3]));
	} else if (!strcmp(cmd, "invalidate") && argc == 5) {
		rc = cmd_invalidate(fd, num(argv[3]), num(argv[4]));
	} else if (!strcmp(cmd, "hold") && argc == 4) {
		rc = cmd_hold(fd, num(argv[3]));
	} else if (!strcmp(cmd, "edges") && argc == 3) {
		rc = cmd_edges(fd);
	} else if (!strcmp(cmd, "produce") && argc == 4) {
		rc = cmd_produce(fd, num(argv[3]));
	} else if (!strcmp(cmd, "consume") && argc == 5) {
		rc = cmd_consume(fd, num(argv[3]), num(argv[4]));
	} else {
		fprintf(stderr, "mps_test: bad command or arguments\n");
		rc = 2;
	}
	close(fd);
	return rc;
}
