#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --kernel patched --mem 2G --pool 0 --timeout 300
#
# Identity-mapped memory and the memory cgroup: dvm_memcg maps DVM memory
# in cgroups of its own, within their memory.max and across it, with
# order-0 pages (patch 0002's dvm_populate()) and with huge pages (patch
# 0007's dvm_populate_pmd()), and checks from the outside that every page
# installed is charged and uncharged, that the limit holds (the population
# stops at it, the OOM killer may take the process), and that nothing stays
# charged or allocated afterwards.  The kernel log must be clean but for
# the OOM reports it asks for.
. /selftests/lib.sh

N=15
klog_allow_oom
tap_plan $((N + 3))
check "cgroup v2 with the memory controller" \
	"mount -t cgroup2 none /sys/fs/cgroup &&
	 echo +memory > /sys/fs/cgroup/cgroup.subtree_control &&
	 grep -qw memory /sys/fs/cgroup/cgroup.subtree_control"
check "transparent huge pages: enabled always" \
	"echo always > /sys/kernel/mm/transparent_hugepage/enabled &&
	 grep -q '\[always\]' /sys/kernel/mm/transparent_hugepage/enabled"
tap_run memcg $N dvm_memcg /sys/fs/cgroup
