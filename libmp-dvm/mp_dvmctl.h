/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libmp-dvmctl: the control side of the DVM heap, for tools such as
 * `mpctl dvm` (Documentation/dvm-heap.rst). It starts a program under
 * libmp-dvm.so (the kernel's DVM mode, vm.dvm_min_bytes, the preload and
 * jemalloc's settings) and reads back how the program's heap fared (its
 * statistics file, /proc/PID/smaps). Built as build/libmp-dvm/
 * libmp-dvmctl.a; the preload library itself exports nothing.
 *
 * Every function returns 0 or a negative errno.
 */
#ifndef _MP_DVMCTL_H
#define _MP_DVMCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dvm_smaps.h"
#include "mp_dvm_stats.h"

/* Smallest vm.dvm_min_bytes the launcher sets. */
#define MP_DVM_MIN_BYTES_MIN	4096

/**
 * struct mp_dvm_run - how to run a program with a DVM heap
 * @lib: the libmp-dvm.so to preload, or NULL to look for it
 * @strict: a chunk that cannot be identity mapped fails the allocation
 * @stat: the program prints a summary of its heap on stderr at exit
 */
struct mp_dvm_run {
	const char *lib;
	bool strict;
	bool stat;
};

int mp_dvm_find_lib(const char *lib, char *out, size_t len);
int mp_dvm_mode_on(void);
int mp_dvm_set_min_bytes(uint64_t bytes);
const char *mp_dvm_stats_dir(void);
int mp_dvm_prepare(const struct mp_dvm_run *run, const char *lib,
		   const char **what);

int mp_dvm_read_smaps(int pid, struct dvm_smaps *sm);
int mp_dvm_read_stats(int pid, struct mp_dvm_stats *st);

#endif /* _MP_DVMCTL_H */
