// SPDX-License-Identifier: GPL-2.0
/*
 * New threads go to arenas that have only ever had the DVM hooks.  jemalloc
 * would give a new thread the least used automatic arena, which may be
 * arena 0: that arena started with jemalloc's default hooks, and pieces of
 * its first chunk (not identity mapped) can still serve it (found by the
 * physical walk).  pthread_create() is interposed: the new thread binds
 * itself to one of the arenas 1..N-1 (round robin) before running the
 * program's start routine.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include <jemalloc/jemalloc.h>

#include "mp_dvm.h"

typedef int (*create_fn)(pthread_t *thread, const pthread_attr_t *attr,
			 void *(*fn)(void *arg), void *arg);

static create_fn real_create;
static unsigned int first_arena, nr_arenas, next_arena;

struct start {
	void *(*fn)(void *arg);
	void *arg;
	unsigned int arena;
};

/* Threads go to arenas @first .. @first + @nr - 1; 0 leaves them alone. */
void mp_dvm_thread_arenas(unsigned int first, unsigned int nr)
{
	first_arena = first;
	__atomic_store_n(&nr_arenas, nr, __ATOMIC_RELEASE);
}

static void *start_thread(void *p)
{
	struct start s = *(struct start *)p;

	mallctl("thread.arena", NULL, NULL, &s.arena, sizeof(s.arena));
	free(p);
	return s.fn(s.arg);
}

/* POSIX: pthread_create() returns a positive error number */
__attribute__((visibility("default")))
int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
		   void *(*fn)(void *), void *arg)
{
	unsigned int nr = __atomic_load_n(&nr_arenas, __ATOMIC_ACQUIRE);
	int rc = EAGAIN;
	struct start *s;

	if (!real_create)
		real_create = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
	if (!real_create)
		return rc;
	if (!nr)
		return real_create(thread, attr, fn, arg);
	s = malloc(sizeof(*s));
	if (!s)
		return rc;
	s->fn = fn;
	s->arg = arg;
	s->arena = first_arena +
		   __atomic_fetch_add(&next_arena, 1, __ATOMIC_RELAXED) % nr;
	rc = real_create(thread, attr, start_thread, s);
	if (rc)
		free(s);
	return rc;
}
