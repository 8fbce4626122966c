// SPDX-License-Identifier: GPL-2.0
/*
 * DVM selftests: the DVM mode does not outlive CAP_SYS_ADMIN.
 *
 * Turning the mode on needs CAP_SYS_ADMIN, because identity mappings give
 * away physical addresses.  Whenever the process's credentials lose the
 * capability (setresuid() leaving uid 0, capset() dropping it, a thread
 * doing so for itself, execve() of a program that runs without it, also
 * with PR_DVM_INHERIT), the mode must be gone: PR_GET_DVM says PR_DVM_OFF
 * and a new eligible mapping is not identity mapped (no "id" in its
 * VmFlags, /proc/vmstat dvm_identity_maps unchanged).  Credential changes
 * that keep the capability keep the mode (the mapping is identity mapped,
 * checked page by page in /proc/self/pagemap).
 *
 * Needs root and a kernel with CONFIG_DVM.
 */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "dvm_util.h"

#define HELPER_ENV	"DVM_PRIV_HELPER"
#define NOBODY		65534

static size_t map_len(void)
{
	long min = sysctl_read(DVM_SYSCTL_MIN_BYTES);

	return min > (long)(2 * MIB) ? (size_t)min : 2 * MIB;
}

/*
 * An eligible mapping made now: 1 when it is identity mapped ("id" in
 * VmFlags and dvm_identity_maps counted it), 0 when it is not (neither),
 * -1 when the two disagree or something failed.  Works without
 * CAP_SYS_ADMIN, which pagemap PFNs would need.
 */
static int new_mapping_is_identity(void)
{
	size_t len = map_len();
	long before, after;
	struct smaps_vma v;
	bool id;
	char *p;

	before = vmstat_read("dvm_identity_maps");
	p = map_anon(len);
	after = vmstat_read("dvm_identity_maps");
	if (!p || before < 0 || after < 0)
		return -1;
	if (!smaps_find(p, &v)) {
		munmap(p, len);
		return -1;
	}
	id = vmflags_has(&v, "id");
	munmap(p, len);
	if (id && after - before >= 1)
		return 1;
	if (!id && after == before)
		return 0;
	return -1;
}

/* The same for a privileged process: every page checked in pagemap too. */
static int new_mapping_is_identity_pagemap(void)
{
	size_t len = map_len();
	int ret = -1;
	char *p = map_anon(len);

	if (!p)
		return -1;
	if (!count_nonidentity(p, len))
		ret = 1;
	else if (!count_identity(p, len))
		ret = 0;
	munmap(p, len);
	return ret;
}

/*
 * Helper modes for a re-executed copy of this program: "get" exits with
 * PR_GET_DVM; "map" exits with new_mapping_is_identity() + 1.
 */
static void __attribute__((constructor)) dvm_priv_helper(void)
{
	const char *mode = getenv(HELPER_ENV);

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!mode)
		return;
	if (!strcmp(mode, "get"))
		_exit(dvm_get() & 0xff);
	if (!strcmp(mode, "map"))
		_exit(new_mapping_is_identity() + 1);
	_exit(100);
}

/* Run this program again as helper @mode; its exit status or -1. */
static int exec_helper(const char *mode)
{
	static char *const argv[] = { "dvm_priv", NULL };
	char env[64];
	char *const envp[] = { env, NULL };
	int status;
	pid_t pid;

	snprintf(env, sizeof(env), "%s=%s", HELPER_ENV, mode);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		execve("/proc/self/exe", argv, envp);
		_exit(101);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* ---- capabilities, without libcap ---------------------------------------- */

struct caps {
	struct __user_cap_header_struct hdr;
	struct __user_cap_data_struct data[2];
};

static int caps_get(struct caps *c)
{
	memset(c, 0, sizeof(*c));
	c->hdr.version = _LINUX_CAPABILITY_VERSION_3;
	return syscall(SYS_capget, &c->hdr, c->data);
}

static int caps_set(struct caps *c)
{
	c->hdr.version = _LINUX_CAPABILITY_VERSION_3;
	c->hdr.pid = 0;
	return syscall(SYS_capset, &c->hdr, c->data);
}

static void cap_change(struct caps *c, int cap, bool eff, bool perm)
{
	__u32 bit = 1U << (cap % 32);
	int i = cap / 32;

	c->data[i].effective = eff ? c->data[i].effective | bit :
				     c->data[i].effective & ~bit;
	c->data[i].permitted = perm ? c->data[i].permitted | bit :
				      c->data[i].permitted & ~bit;
	if (!perm)
		c->data[i].inheritable &= ~bit;
}

static bool cap_effective(const struct caps *c, int cap)
{
	return c->data[cap / 32].effective & (1U << (cap % 32));
}

FIXTURE(priv) {
	int unused;
};

FIXTURE_SETUP(priv)
{
	if (sysctl_read(DVM_SYSCTL_MIN_BYTES) < 0 || dvm_get() < 0)
		SKIP(return, "kernel without CONFIG_DVM");
	if (geteuid())
		SKIP(return, "needs root (CAP_SYS_ADMIN)");
	/* the controls: as root the mode gives identity mappings */
	ASSERT_EQ(0, dvm_set(PR_DVM_ON | PR_DVM_INHERIT));
	ASSERT_EQ(1, new_mapping_is_identity_pagemap());
}

FIXTURE_TEARDOWN(priv)
{
}

/* Leaving uid 0 drops every capability, and the mode with them. */
TEST_F(priv, setresuid_clears_mode)
{
	ASSERT_EQ(0, setresuid(NOBODY, NOBODY, NOBODY));
	EXPECT_EQ(PR_DVM_OFF, dvm_get());
	EXPECT_EQ(0, new_mapping_is_identity());
	/* and it cannot come back */
	EXPECT_EQ(-1, dvm_set(PR_DVM_ON));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(0, new_mapping_is_identity());
}

/*
 * PR_SET_KEEPCAPS keeps the permitted set across setresuid(), but the
 * effective set is cleared: capable() fails, so the mode goes.
 */
TEST_F(priv, setresuid_keepcaps_clears_mode)
{
	struct caps c;

	ASSERT_EQ(0, prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
	ASSERT_EQ(0, setresuid(NOBODY, NOBODY, NOBODY));
	ASSERT_EQ(0, caps_get(&c));
	EXPECT_FALSE(cap_effective(&c, CAP_SYS_ADMIN));
	EXPECT_EQ(PR_DVM_OFF, dvm_get());
	EXPECT_EQ(0, new_mapping_is_identity());
}

/* capset() taking CAP_SYS_ADMIN out of the effective set only. */
TEST_F(priv, capset_effective_clears_mode)
{
	struct caps c;

	ASSERT_EQ(0, caps_get(&c));
	ASSERT_TRUE(cap_effective(&c, CAP_SYS_ADMIN));
	cap_change(&c, CAP_SYS_ADMIN, false, true);
	ASSERT_EQ(0, caps_set(&c));
	EXPECT_EQ(PR_DVM_OFF, dvm_get());
	EXPECT_EQ(0, new_mapping_is_identity());
	/* Raising it again does not bring the mode back by itself ... */
	cap_change(&c, CAP_SYS_ADMIN, true, true);
	ASSERT_EQ(0, caps_set(&c));
	EXPECT_EQ(PR_DVM_OFF, dvm_get());
	EXPECT_EQ(0, new_mapping_is_identity_pagemap());
	/* ... but with it the process may turn it on again. */
	ASSERT_EQ(0, dvm_set(PR_DVM_ON));
	EXPECT_EQ(PR_DVM_ON, dvm_get());
	EXPECT_EQ(1, new_mapping_is_identity_pagemap());
}

/* capset() dropping other capabilities keeps the mode. */
TEST_F(priv, capset_other_keeps_mode)
{
	struct caps c;

	ASSERT_EQ(0, caps_get(&c));
	cap_change(&c, CAP_NET_ADMIN, false, false);
	cap_change(&c, CAP_SYS_PTRACE, false, false);
	ASSERT_EQ(0, caps_set(&c));
	EXPECT_EQ(PR_DVM_ON | PR_DVM_INHERIT, dvm_get());
	EXPECT_EQ(1, new_mapping_is_identity_pagemap());
	EXPECT_EQ(1, new_mapping_is_identity());
}

static void *thread_setresuid(void *arg)
{
	/* the raw system call changes this thread's credentials only */
	long ret = syscall(SYS_setresuid, NOBODY, NOBODY, NOBODY);

	return (void *)ret;
}

/*
 * The mode belongs to the mm: one thread losing the capability clears it
 * for all, even though the other thread is still root.
 */
TEST_F(priv, thread_setresuid_clears_mode)
{
	pthread_t t;
	void *ret;

	ASSERT_EQ(0, pthread_create(&t, NULL, thread_setresuid, NULL));
	ASSERT_EQ(0, pthread_join(t, &ret));
	ASSERT_EQ(NULL, ret);
	ASSERT_EQ(0, geteuid());
	EXPECT_EQ(PR_DVM_OFF, dvm_get());
	EXPECT_EQ(0, new_mapping_is_identity_pagemap());
}

/*
 * With PR_DVM_INHERIT, an execve() keeps the mode only when the new
 * program still has CAP_SYS_ADMIN: uid 0 keeps it ...
 */
TEST_F(priv, exec_as_root_keeps_mode)
{
	EXPECT_EQ(PR_DVM_ON | PR_DVM_INHERIT, exec_helper("get"));
	EXPECT_EQ(2, exec_helper("map"));
}

/*
 * ... while a process that holds CAP_SYS_ADMIN as another user (kept
 * with PR_SET_KEEPCAPS and raised again) loses it in execve() of an
 * ordinary program, and the mode with it.  Not a secure execution:
 * nothing about the program is privileged.
 */
TEST_F(priv, exec_losing_cap_clears_mode)
{
	struct caps c;

	ASSERT_EQ(0, prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
	ASSERT_EQ(0, setresuid(NOBODY, NOBODY, NOBODY));
	ASSERT_EQ(0, caps_get(&c));
	cap_change(&c, CAP_SYS_ADMIN, true, true);
	ASSERT_EQ(0, caps_set(&c));
	ASSERT_EQ(0, dvm_set(PR_DVM_ON | PR_DVM_INHERIT));
	ASSERT_EQ(PR_DVM_ON | PR_DVM_INHERIT, dvm_get());
	ASSERT_EQ(1, new_mapping_is_identity());
	EXPECT_EQ(PR_DVM_OFF, exec_helper("get"));
	EXPECT_EQ(1, exec_helper("map"));
	/* this process keeps it: it still has the capability */
	EXPECT_EQ(PR_DVM_ON | PR_DVM_INHERIT, dvm_get());
}

TEST_HARNESS_MAIN
