/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * /dev/dvm_accel: a software accelerator that shares a process's address
 * space the DVM way (identity-mapped memory validated through Permission
 * Entries and an Access Validation Cache, other memory translated).
 *
 * A process opens the device, binds its address space (DVM_ACCEL_BIND) and
 * submits jobs (DVM_ACCEL_RUN).  A job runs in kernel context; every load
 * and store it makes to process memory goes through the device's access
 * validation.  Results land in process memory; counts of what the job did
 * come back in the job's stats.
 */
#ifndef _UAPI_LINUX_DVM_ACCEL_H
#define _UAPI_LINUX_DVM_ACCEL_H

#include <linux/ioctl.h>
#include <linux/types.h>

enum dvm_accel_op {
	DVM_ACCEL_MEMCPY = 1,	/* dst[0..len) = src[0..len) */
	DVM_ACCEL_GATHER = 2,	/* dst[i] = src[idx[i]], u64 elements */
	DVM_ACCEL_SCATTER = 3,	/* dst[idx[i]] = src[i], u64 elements */
	DVM_ACCEL_CHASE = 4,	/* p = *(u64 *)(p + off) until 0 or n steps */
	DVM_ACCEL_BFS = 5,	/* levels from root over a CSR graph */
	DVM_ACCEL_PAGERANK = 6,	/* fixed-point PageRank over a CSR graph */
	DVM_ACCEL_FETCH = 7,	/* memcpy whose source is fetched as code */
};

/* job flags */
#define DVM_ACCEL_F_TLB		0x1	/* also model 128-entry TLBs (4K, 2M) */

/* PageRank in fixed point: 1.0 is DVM_PR_ONE, damping 85/100 */
#define DVM_PR_ONE		(1ULL << 32)
#define DVM_PR_DAMP_NUM		85
#define DVM_PR_DAMP_DEN		100

/*
 * A CSR graph in process memory: the edges of vertex v are
 * col[row[v]] .. col[row[v + 1] - 1].
 */
struct dvm_accel_csr {
	__u64 row;		/* __u64[n + 1] */
	__u64 col;		/* __u32[m] */
	__u64 n;		/* vertices */
	__u64 m;		/* edges */
};

struct dvm_accel_stats {
	__u64 accesses;		/* loads and stores of the job */
	__u64 reads;
	__u64 writes;
	__u64 bytes_read;
	__u64 bytes_written;
	__u64 identity;		/* accesses validated by a Permission Entry */
	__u64 translated;	/* accesses translated by a 4 KiB entry */
	__u64 walk_refs;	/* table entries the validations read */
	__u64 validation_refs;	/* of those, memory references (AVC misses) */
	__u64 avc_hits;
	__u64 avc_misses;
	__u64 preloads;		/* loads issued in parallel with validation */
	__u64 preloads_squashed; /* of those, discarded (not identity) */
	__u64 faults;		/* device faults resolved by the host */
	__u64 perm_faults;	/* accesses refused: the job ended */
	__u64 pt_bytes;		/* the device table, with PEs */
	__u64 pt_bytes_4k;	/* 4 KiB-page tables for the same mappings */
	__u64 tlb4k_misses;	/* DVM_ACCEL_F_TLB: 128-entry TLB, 4 KiB */
	__u64 tlb2m_misses;	/* DVM_ACCEL_F_TLB: 128-entry TLB, 2 MiB */
	__u64 ns;		/* run time of the job */
};

struct dvm_accel_job {
	__u32 op;		/* enum dvm_accel_op */
	__u32 flags;		/* DVM_ACCEL_F_* */
	union {
		struct {
			__u64 dst, src, len;
		} memcpy;
		struct {
			__u64 dst;	/* __u64[n] (gather) / [n_table] */
			__u64 src;	/* __u64[n_table] (gather) / [n] */
			__u64 idx;	/* __u32[n] */
			__u64 n;
			__u64 n_table;	/* bound of the indices */
		} gs;
		struct {
			__u64 start;
			__u64 next_off;	/* offset of the next pointer */
			__u64 max_steps;
		} chase;
		struct {
			struct dvm_accel_csr g;
			__u64 root;
			__u64 level;	/* out: __s32[n], -1 unreached */
			__u64 queue;	/* scratch: __u32[n] */
		} bfs;
		struct {
			struct dvm_accel_csr g;
			__u64 iters;
			__u64 rank;	/* out: __u64[n] */
			__u64 next;	/* scratch: __u64[n] */
		} pr;
		__u64 raw[8];
	};
	/* out */
	__u64 result;		/* chase: steps; BFS: vertices reached */
	__u64 result2;		/* chase: the last pointer */
	struct dvm_accel_stats stats;
};

#define DVM_ACCEL_IOC		0xD7
/* mirror the caller's address space; once per open file */
#define DVM_ACCEL_BIND		_IO(DVM_ACCEL_IOC, 0x00)
#define DVM_ACCEL_RUN		_IOWR(DVM_ACCEL_IOC, 0x01, struct dvm_accel_job)
/* the device table's size now: pt_bytes, pt_bytes_4k */
#define DVM_ACCEL_TABLE		_IOR(DVM_ACCEL_IOC, 0x02, struct dvm_accel_stats)

#endif /* _UAPI_LINUX_DVM_ACCEL_H */
