/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics file of the DVM heap (libmp-dvm.so): one per process,
 * MP_DVM_STATS_DIR/PID, a shared mapping of struct mp_dvm_stats that the
 * library updates as it obtains heap chunks and that `mpctl dvm stat PID`
 * reads.  Documentation/dvm-heap.rst.
 */
#ifndef _MP_DVM_STATS_H
#define _MP_DVM_STATS_H

#include <stdint.h>

#define MP_DVM_STATS_MAGIC	0x4d504456U	/* "VDPM" in memory */
#define MP_DVM_STATS_VERSION	2
#define MP_DVM_STATS_DIR	"/run/mp-dvm"

/* Environment the launcher sets for the library. */
#define MP_DVM_ENV_STRICT	"MP_DVM_STRICT"
#define MP_DVM_ENV_STAT		"MP_DVM_STAT"
#define MP_DVM_ENV_STATS_DIR	"MP_DVM_STATS_DIR"
/* "0": threads keep glibc's stacks (libmp-dvm/thread.c) */
#define MP_DVM_ENV_THREAD_STACKS	"MP_DVM_THREAD_STACKS"

/* Why a heap chunk is not identity mapped. */
enum mp_dvm_reason {
	MP_DVM_FB_NOCONTIG,	/* kernel: no contiguous free memory */
	MP_DVM_FB_VABUSY,	/* kernel: virtual range VA == PA taken */
	MP_DVM_FB_POPULATE,	/* kernel: could not populate it all */
	MP_DVM_FB_MODE_OFF,	/* the process is not in DVM mode */
	MP_DVM_FB_UNKNOWN,	/* no kernel counter moved (raced) */
	MP_DVM_FB_NR
};

static inline const char *mp_dvm_reason_name(unsigned int r)
{
	static const char *const names[MP_DVM_FB_NR] = {
		"nocontig", "vabusy", "populate", "mode_off", "unknown",
	};

	return r < MP_DVM_FB_NR ? names[r] : "?";
}

#define MP_DVM_F(n)		(1U << (n))
#define MP_DVM_F_STRICT		MP_DVM_F(0)	/* refuse non-identity chunks */
#define MP_DVM_F_MODE_ON	MP_DVM_F(1)	/* PR_GET_DVM said on */
#define MP_DVM_F_HOOKED		MP_DVM_F(2)	/* all arenas use the hooks */
#define MP_DVM_F_JEMALLOC	MP_DVM_F(3)	/* malloc() is jemalloc's */
#define MP_DVM_F_CONF_OK	MP_DVM_F(4)	/* retain on, no huge arena */

struct mp_dvm_stats {
	uint32_t magic;
	uint32_t version;
	int32_t pid;
	uint32_t flags;			/* MP_DVM_F_* */
	uint64_t min_bytes;		/* vm.dvm_min_bytes seen at start */
	uint32_t arenas;		/* arenas given the hooks */
	uint32_t pad;
	uint64_t identity_chunks;	/* chunks kept, identity mapped */
	uint64_t identity_bytes;
	uint64_t fallback_chunks[MP_DVM_FB_NR];	/* kept, demand paged */
	uint64_t fallback_bytes[MP_DVM_FB_NR];
	uint64_t refused_chunks[MP_DVM_FB_NR];	/* --strict: unmapped */
	uint64_t refused_bytes[MP_DVM_FB_NR];
	/* arena 0's chunk from before the hooks, reserved and left unused */
	uint64_t prehook_bytes;
	/* objects from before the hooks that were freed, and kept */
	uint64_t prehook_frees;
	/* threads started on a stack from the heap (libmp-dvm/thread.c) */
	uint64_t thread_stacks;
	uint64_t thread_stack_bytes;	/* with their guard pages */
	uint64_t thread_stacks_freed;	/* given back at the join */
	uint64_t thread_stack_bytes_kept;	/* bytes never given back (detached) */
};

#endif /* _MP_DVM_STATS_H */
