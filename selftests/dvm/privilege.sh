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
tap_run priv $DVM_PRIV_N dvm_priv
