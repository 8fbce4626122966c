/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libmp-dvm.so internals: jemalloc extent hooks whose chunks come from the
 * kernel's identity mapping (chunk.c), the statistics file (stats.c), and
 * the set-up at load time (shim.c).
 */
#ifndef _MP_DVM_H
#define _MP_DVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mp_dvm_stats.h"

#define MP_DVM_PAGE	4096UL

/* shim.c: settings read once at load time */
struct mp_dvm_conf {
	bool strict;		/* MP_DVM_STRICT=1 */
	bool mode_on;		/* the process is in DVM mode */
	bool thread_stacks;	/* stacks from the heap (not MP_DVM_THREAD_STACKS=0) */
	uint64_t min_bytes;	/* vm.dvm_min_bytes */
};

extern struct mp_dvm_conf mp_dvm_conf;

/* chunk.c */
struct extent_hooks_s;
extern struct extent_hooks_s mp_dvm_hooks;
bool mp_dvm_is_identity(uintptr_t va, size_t len);
uint64_t mp_dvm_hook_calls(unsigned int arena);
bool mp_dvm_from_hooks(const void *p);

/* thread.c */
void mp_dvm_thread_arenas(unsigned int first, unsigned int nr);

/* prehook.c */
void mp_dvm_prehook_capture(void);

/* stats.c */
extern struct mp_dvm_stats *mp_dvm_stats;
void mp_dvm_stats_init(void);
void mp_dvm_stats_fork_child(void);
void mp_dvm_stats_exit(void);
void mp_dvm_stats_add(uint64_t *counter, uint64_t v);
void mp_dvm_summary(int fd);
int mp_dvm_read_lines(const char *path, void (*fn)(const char *line, void *arg),
		      void *arg);

#endif /* _MP_DVM_H */
