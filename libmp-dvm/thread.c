// SPDX-License-Identifier: GPL-2.0
/*
 * Threads of a program under libmp-dvm.so: pthread_create() is interposed.
 *
 * Arenas: new threads go to arenas that have only ever had the DVM hooks.
 * jemalloc would give a new thread the least used automatic arena, which
 * may be arena 0: that arena started with jemalloc's default hooks, and
 * pieces of its first chunk (not identity mapped) can still serve it
 * (found by the physical walk).  The new thread binds itself to one of the
 * arenas 1..N-1 (round robin) before running the program's start routine.
 *
 * Stacks: glibc maps a thread's stack itself, MAP_STACK, which the kernel
 * never identity maps, so a device could not follow a pointer to an object
 * on it.  A joinable thread the program did not give a stack of its own
 * gets one from the identity heap instead (the size it asked for, or
 * glibc's default, and a guard page below it: within that size from 1 MiB
 * on), freed when the thread is joined.  glibc keeps the thread's
 * descriptor at the top of a stack it was given, so the stack cannot go
 * before the join; a thread created detached keeps glibc's stack, and a
 * thread detached later keeps its heap stack until the process exits
 * (nobody can tell when it is done with it).  The price: a stack is
 * populated at once, all of it (8 MiB by default), as every identity
 * mapping is; MP_DVM_THREAD_STACKS=0 keeps glibc's.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include <jemalloc/jemalloc.h>

#include "mp_dvm.h"

typedef int (*create_fn)(pthread_t *thread, const pthread_attr_t *attr,
			 void *(*fn)(void *arg), void *arg);
typedef int (*join_fn)(pthread_t thread, void **ret);
typedef int (*detach_fn)(pthread_t thread);

static create_fn real_create;
static join_fn real_join;
static detach_fn real_detach;
static unsigned int first_arena, nr_arenas, next_arena;

struct start {
	void *(*fn)(void *arg);
	void *arg;
	unsigned int arena;
};

/* A stack from the heap, until its thread is joined. */
struct heap_stack {
	struct heap_stack *next;
	pthread_t thread;
	void *mem;		/* guard page, then the stack */
	size_t size;		/* of the stack, without the guard page */
};

static pthread_mutex_t stacks_lock = PTHREAD_MUTEX_INITIALIZER;
static struct heap_stack *stacks;

/* Threads go to arenas @first .. @first + @nr - 1; 0 leaves them alone. */
void mp_dvm_thread_arenas(unsigned int first, unsigned int nr)
{
	first_arena = first;
	__atomic_store_n(&nr_arenas, nr, __ATOMIC_RELEASE);
}

static void *start_thread(void *p)
{
	struct start s = *(struct start *)p;

	if (s.arena)
		mallctl("thread.arena", NULL, NULL, &s.arena, sizeof(s.arena));
	free(p);
	return s.fn(s.arg);
}

/*
 * The attributes of @attr (NULL: the defaults) with @stack as the stack,
 * into @out.  Only a joinable thread without a stack of its own qualifies:
 * glibc's pthread_attr_getstack() gives address + size == 0 when no stack
 * was set.  Returns 0 when @out is set up (destroy it), -1 otherwise.
 */
static int attr_with_stack(const pthread_attr_t *attr, pthread_attr_t *out,
			   size_t *size)
{
	struct sched_param param;
	int v, inherit, policy, scope;
	sigset_t mask;
	cpu_set_t cpus;
	void *addr;
	size_t len;

	if (!attr) {
		if (pthread_getattr_default_np(out))
			return -1;
		if (!pthread_attr_getstacksize(out, size) &&
		    !pthread_attr_getstack(out, &addr, &len) &&
		    (uintptr_t)addr + len == 0)
			return 0;
		pthread_attr_destroy(out);
		return -1;
	}
	if (pthread_attr_getdetachstate(attr, &v) ||
	    v != PTHREAD_CREATE_JOINABLE ||
	    pthread_attr_getstack(attr, &addr, &len) ||
	    (uintptr_t)addr + len != 0 ||
	    pthread_attr_getstacksize(attr, size) ||
	    pthread_attr_getinheritsched(attr, &inherit) ||
	    pthread_attr_getschedpolicy(attr, &policy) ||
	    pthread_attr_getschedparam(attr, &param) ||
	    pthread_attr_getscope(attr, &scope))
		return -1;
	if (pthread_attr_init(out))
		return -1;
	if (pthread_attr_setinheritsched(out, inherit) ||
	    pthread_attr_setschedpolicy(out, policy) ||
	    pthread_attr_setschedparam(out, &param) ||
	    pthread_attr_setscope(out, scope))
		goto fail;
	/*
	 * Affinity and signal mask, when the caller set them: glibc reports
	 * an affinity never set as no CPU (older versions: every CPU, which
	 * must not be copied either: it would widen what the thread
	 * inherits).
	 */
	if (pthread_attr_getaffinity_np(attr, sizeof(cpus), &cpus))
		goto fail;
	v = CPU_COUNT(&cpus);
	if (v && v != CPU_SETSIZE &&
	    pthread_attr_setaffinity_np(out, sizeof(cpus), &cpus))
		goto fail;
	v = pthread_attr_getsigmask_np(attr, &mask);
	if (v != PTHREAD_ATTR_NO_SIGMASK_NP &&
	    (v || pthread_attr_setsigmask_np(out, &mask)))
		goto fail;
	return 0;
fail:
	pthread_attr_destroy(out);
	return -1;
}

/*
 * Stacks of at least this size give their lowest page to the guard: a
 * page on top of a power-of-two size (glibc's default is 8 MiB) would take
 * jemalloc's next size class, 25 % more memory that is populated at once.
 */
#define GUARD_INSIDE	(1024UL * 1024)

/*
 * A stack of @size bytes from the identity heap, with a guard page below
 * it; NULL when the heap has none (glibc's stack then).
 */
static struct heap_stack *heap_stack_new(size_t size)
{
	int flags = MALLOCX_ALIGN(MP_DVM_PAGE) | MALLOCX_TCACHE_NONE;
	struct heap_stack *hs;

	size = (size + MP_DVM_PAGE - 1) & ~(MP_DVM_PAGE - 1);
	if (size >= GUARD_INSIDE)
		size -= MP_DVM_PAGE;
	hs = malloc(sizeof(*hs));
	if (!hs)
		return NULL;
	hs->size = size;
	hs->mem = mallocx(size + MP_DVM_PAGE, flags);
	if (!hs->mem) {
		free(hs);
		return NULL;
	}
	/* without a guard, an overflow would write into other heap objects */
	if (mprotect(hs->mem, MP_DVM_PAGE, PROT_NONE)) {
		dallocx(hs->mem, flags);
		free(hs);
		return NULL;
	}
	return hs;
}

static void heap_stack_free(struct heap_stack *hs)
{
	int flags = MALLOCX_ALIGN(MP_DVM_PAGE) | MALLOCX_TCACHE_NONE;

	/* the guard page goes back to the heap readable and writable */
	if (mprotect(hs->mem, MP_DVM_PAGE, PROT_READ | PROT_WRITE)) {
		/* keep it out of the heap rather than hand out a trap */
		mp_dvm_stats_add(&mp_dvm_stats->thread_stack_bytes_kept,
				 hs->size + MP_DVM_PAGE);
	} else {
		dallocx(hs->mem, flags);
	}
	free(hs);
}

static void stack_note(struct heap_stack *hs)
{
	pthread_mutex_lock(&stacks_lock);
	hs->next = stacks;
	stacks = hs;
	pthread_mutex_unlock(&stacks_lock);
}

/* Take @thread's heap stack off the list; NULL when it has none. */
static struct heap_stack *stack_take(pthread_t thread)
{
	struct heap_stack **pp, *hs = NULL;

	pthread_mutex_lock(&stacks_lock);
	for (pp = &stacks; *pp; pp = &(*pp)->next) {
		if (pthread_equal((*pp)->thread, thread)) {
			hs = *pp;
			*pp = hs->next;
			break;
		}
	}
	pthread_mutex_unlock(&stacks_lock);
	return hs;
}

static void resolve(void)
{
	if (!real_create)
		real_create = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
	if (!real_join)
		real_join = (join_fn)dlsym(RTLD_NEXT, "pthread_join");
	if (!real_detach)
		real_detach = (detach_fn)dlsym(RTLD_NEXT, "pthread_detach");
}

/* POSIX: the pthread functions return a positive error number */
static const int no_libc = ESRCH;

__attribute__((visibility("default")))
int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
		   void *(*fn)(void *), void *arg)
{
	unsigned int nr = __atomic_load_n(&nr_arenas, __ATOMIC_ACQUIRE);
	struct heap_stack *hs = NULL;
	pthread_attr_t own;
	int rc = EAGAIN;
	struct start *s;
	size_t size;

	resolve();
	if (!real_create)
		return rc;
	/* nr == 0: the library is not set up (no hooks), nothing to do */
	if (!nr)
		return real_create(thread, attr, fn, arg);
	s = malloc(sizeof(*s));
	if (!s)
		return rc;
	s->fn = fn;
	s->arg = arg;
	s->arena = first_arena +
		   __atomic_fetch_add(&next_arena, 1, __ATOMIC_RELAXED) % nr;
	if (mp_dvm_conf.thread_stacks && !attr_with_stack(attr, &own, &size)) {
		hs = heap_stack_new(size);
		if (hs && pthread_attr_setstack(&own, (char *)hs->mem +
						MP_DVM_PAGE, hs->size)) {
			heap_stack_free(hs);
			hs = NULL;
		}
		if (hs) {
			rc = real_create(thread, &own, start_thread, s);
			pthread_attr_destroy(&own);
			if (rc) {
				heap_stack_free(hs);
				free(s);
				return rc;
			}
			hs->thread = *thread;
			stack_note(hs);
			mp_dvm_stats_add(&mp_dvm_stats->thread_stacks, 1);
			mp_dvm_stats_add(&mp_dvm_stats->thread_stack_bytes,
					 hs->size + MP_DVM_PAGE);
			return 0;
		}
		pthread_attr_destroy(&own);
	}
	rc = real_create(thread, attr, start_thread, s);
	if (rc)
		free(s);
	return rc;
}

/* After a join the thread is gone: its heap stack goes back to the heap. */
static int joined(pthread_t thread, int rc)
{
	struct heap_stack *hs;

	if (rc)
		return rc;
	hs = stack_take(thread);
	if (hs) {
		mp_dvm_stats_add(&mp_dvm_stats->thread_stacks_freed, 1);
		heap_stack_free(hs);
	}
	return rc;
}

__attribute__((visibility("default")))
int pthread_join(pthread_t thread, void **ret)
{
	resolve();
	if (!real_join)
		return no_libc;
	return joined(thread, real_join(thread, ret));
}

__attribute__((visibility("default")))
int pthread_tryjoin_np(pthread_t thread, void **ret)
{
	static join_fn real;

	if (!real)
		real = (join_fn)dlsym(RTLD_NEXT, "pthread_tryjoin_np");
	if (!real)
		return no_libc;
	return joined(thread, real(thread, ret));
}

__attribute__((visibility("default")))
int pthread_timedjoin_np(pthread_t thread, void **ret,
			 const struct timespec *abstime)
{
	typedef int (*fn_t)(pthread_t, void **, const struct timespec *);
	static fn_t real;

	if (!real)
		real = (fn_t)dlsym(RTLD_NEXT, "pthread_timedjoin_np");
	if (!real)
		return no_libc;
	return joined(thread, real(thread, ret, abstime));
}

__attribute__((visibility("default")))
int pthread_clockjoin_np(pthread_t thread, void **ret, clockid_t clock,
			 const struct timespec *abstime)
{
	typedef int (*fn_t)(pthread_t, void **, clockid_t,
			    const struct timespec *);
	static fn_t real;

	if (!real)
		real = (fn_t)dlsym(RTLD_NEXT, "pthread_clockjoin_np");
	if (!real)
		return no_libc;
	return joined(thread, real(thread, ret, clock, abstime));
}

/*
 * A detached thread frees nothing at its end that tells us when its stack
 * is no longer in use: the stack stays allocated (counted).
 */
__attribute__((visibility("default")))
int pthread_detach(pthread_t thread)
{
	struct heap_stack *hs;
	int rc;

	resolve();
	if (!real_detach)
		return no_libc;
	rc = real_detach(thread);
	if (!rc) {
		hs = stack_take(thread);
		if (hs) {
			mp_dvm_stats_add(&mp_dvm_stats->thread_stack_bytes_kept,
					 hs->size + MP_DVM_PAGE);
			free(hs);
		}
	}
	return rc;
}
