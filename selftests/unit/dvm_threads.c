// SPDX-License-Identifier: GPL-2.0
/*
 * dvm_threads: threads of a program with libmp-dvm.so preloaded
 * (selftests/unit/test_mpctl_dvm.sh).  Starts one thread of each kind and
 * prints, from the library's statistics file, how many heap stacks it got
 * and how many were given back once it was joined (or had finished):
 *
 *   default STACKS FREED      no attributes
 *   sized STACKS FREED        a 256 KiB stack size asked for
 *   detached STACKS FREED     created detached
 *   own STACKS FREED          a stack the program gave it
 *
 * then waits for a line on standard input (so `mpctl dvm stat` can read
 * the file too) and exits.  Each thread writes 64 KiB of its stack (a
 * misplaced guard page or a short stack would crash it).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libmp-dvm/mp_dvm_stats.h"

struct job {
	const char *name;
	pthread_barrier_t *done;
};

static void *body(void *arg)
{
	struct job *j = arg;
	volatile char buf[64 << 10];

	memset((char *)buf, 1, sizeof(buf));
	if (j->done)
		pthread_barrier_wait(j->done);
	return NULL;
}

static struct mp_dvm_stats st, last;

/* The statistics file as it is now; all zero when there is none. */
static void read_stats(struct mp_dvm_stats *s)
{
	const char *dir = getenv(MP_DVM_ENV_STATS_DIR);
	char path[4096];
	int fd;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/%d", dir ? dir : MP_DVM_STATS_DIR,
		 (int)getpid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (read(fd, s, sizeof(*s)) != (ssize_t)sizeof(*s))
		memset(s, 0, sizeof(*s));
	close(fd);
}

static void report(const struct job *j)
{
	read_stats(&st);
	printf("%s %llu %llu\n", j->name,
	       (unsigned long long)(st.thread_stacks - last.thread_stacks),
	       (unsigned long long)(st.thread_stacks_freed -
				    last.thread_stacks_freed));
	last = st;
}

int main(void)
{
	struct job def = { .name = "default" }, sized = { .name = "sized" },
		   det = { .name = "detached" }, own = { .name = "own" };
	static char own_stack[1 << 20] __attribute__((aligned(4096)));
	pthread_barrier_t done;
	pthread_attr_t attr;
	pthread_t t;
	char line[8];

	read_stats(&last);
	if (pthread_create(&t, NULL, body, &def) || pthread_join(t, NULL))
		return 1;
	report(&def);
	if (pthread_attr_init(&attr) ||
	    pthread_attr_setstacksize(&attr, 256 << 10) ||
	    pthread_create(&t, &attr, body, &sized) || pthread_join(t, NULL))
		return 1;
	report(&sized);
	pthread_barrier_init(&done, NULL, 2);
	det.done = &done;
	if (pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) ||
	    pthread_create(&t, &attr, body, &det))
		return 1;
	pthread_barrier_wait(&done);
	report(&det);
	pthread_attr_destroy(&attr);
	if (pthread_attr_init(&attr) ||
	    pthread_attr_setstack(&attr, own_stack, sizeof(own_stack)) ||
	    pthread_create(&t, &attr, body, &own) || pthread_join(t, NULL))
		return 1;
	report(&own);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	return 0;
}
