#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --kernel patched --mem 2G --pool 0 --timeout 240
#
# The DVM mode does not outlive CAP_SYS_ADMIN (patch 0001,
# dvm_commit_creds()): dvm_priv drops the capability every way a process
# can (setresuid() with and without PR_SET_KEEPCAPS, capset() of the
# effective set, one thread's own setresuid(), execve() with
# PR_DVM_INHERIT of a program that runs without it) and checks that
# PR_GET_DVM reports the mode off and that a new eligible mapping is not
# identity mapped ("id" in VmFlags, /proc/vmstat dvm_identity_maps);
# dropping other capabilities and execve() as root keep the mode, checked
# page by page in pagemap.
. /selftests/lib.sh

DVM_PRIV_N=7
tap_plan $((DVM_PRIV_N + 1))
# dvm_priv's TAP, renumbered into ours; its exit status and its count of
# points are checked after it (a crash must not pass)
{ dvm_priv 2>&1; echo $? > /tmp/priv.rc; } | awk -v n="$_tap_n" -v n0="$_tap_n" '
	/^TAP version/ || /^1\.\./ { next }
	/^ok / { n++; sub(/^ok [0-9]+/, "ok " n " -") }
	/^not ok / { n++; sub(/^not ok [0-9]+/, "not ok " n " -") }
	{ print; fflush() }
	END { print n - n0 > "/tmp/priv.points" }'
_tap_n=$((_tap_n + $(cat /tmp/priv.points)))
check "dvm_priv: exit status $(cat /tmp/priv.rc), $(cat /tmp/priv.points) of its $DVM_PRIV_N points printed" \
	"test \"\$(cat /tmp/priv.rc)\" = 0 && test \"\$(cat /tmp/priv.points)\" = $DVM_PRIV_N"
