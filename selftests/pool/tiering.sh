#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --mem 2G --pool 1280M --timeout 600
#
# Memory tiering over the pool, the recommended setup
# (Documentation/tiering.rst): the pool node is a lower memory tier than
# DRAM (mpctl list -D beside the kernel's memory_tiering in sysfs); with
# demotion_enabled=1 and numa_balancing=2 (NUMA_BALANCING_MEMORY_TIERING,
# in Debian's 6.1) a workload larger than node 0's free memory,
# tiering_work, a cold region written once and a hot one read over and
# over, gets cold pages demoted to the pool node (pgdemote_* in
# /proc/vmstat, the cold region's pages on node 1) and hot pages promoted
# back (pgpromote_success, the hot region's pages off node 0 fewer), every
# page read back intact. Then the whole pool goes offline with demoted
# pages on it (numa_maps of the process): they migrate back to node 0 and
# read back intact. The pool is 1280M of a 2G guest, so that node 0 (768M)
# fills in a few seconds under TCG.
. /selftests/lib.sh

# KEY N from /proc/vmstat
vm() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
demoted() { echo $(($(vm pgdemote_kswapd) + $(vm pgdemote_direct))); }
promoted() { vm pgpromote_success; }
# val KEY: the workload's last KEY=N (0 when it printed none)
val() { v=$(sed -n "s/^$1=//p" /tmp/work.out | tail -n 1); echo "${v:-0}"; }
# result KEY VALUE: one measure, for selftests/pool/tiering_report.sh
result() { diag "RESULT $1 $2"; }
# node_free_mib NODE: MemFree of NODE
node_free_mib() { awk '/MemFree:/ { print int($4 / 1024) }' /sys/devices/system/node/node$1/meminfo; }
# maps_pages PID NODE: the pages of PID on NODE per /proc/PID/numa_maps
maps_pages() {
	tr ' ' '\n' < /proc/$1/numa_maps | sed -n "s/^N$2=//p" |
		awk '{ s += $1 } END { print s + 0 }'
}
# dev KEY: an integer of the local device in mpctl list -D
dev() { mpctl list -D -d 0 | tr -d ' \n' | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
# tier_of NODE: the memory tier of NODE in sysfs
tier_of() {
	for t in /sys/devices/virtual/memory_tiering/memory_tier*; do
		grep -qx "$1" $t/nodelist && echo "${t##*memory_tier}"
	done
}
# the kernel's memory tier of an abstract distance (MEMTIER_CHUNK_BITS 7)
tier_ok() { test -n "$1" && test -n "$2" && test "$1" = $(($2 >> 7)); }

tap_plan 11
check "cmm_mp loads" load_cmm_mp
check "mpctl online all: node 1 has the pool's $((MP_POOL_SIZE >> 20)) MiB" \
	"mpctl online all > /dev/null && test \$(node_memtotal_kb 1) = $((MP_POOL_SIZE >> 10))"
# a node is in a memory tier once it has memory
mpctl list -D >&2
T=$(dev memory_tier) A=$(dev abstract_distance)
DT=$(dev dram_memory_tier) DA=$(dev dram_abstract_distance)
check "mpctl list -D: the pool node in tier $T (distance $A) below DRAM's tier $DT (distance $DA), as sysfs has them" \
	"tier_ok '$T' '$A' && tier_ok '$DT' '$DA' && test $T -gt $DT && test $A -gt $DA &&
	 test '$(tier_of 1)' = '$T' && test '$(tier_of 0)' = '$DT'"
result kernel "$(uname -r)"
result pool_mib $((MP_POOL_SIZE >> 20))
result pool_tier "$T"
result pool_adistance "$A"
result dram_tier "$DT"
result dram_adistance "$DA"
# Our patched kernel (the debug one included) is built without
# CONFIG_NUMA_BALANCING: demotion works there, promotion cannot; the
# setup point takes demotion alone and the promotion point is skipped,
# saying so.
NUMA_BAL=1
[ -e /proc/sys/kernel/numa_balancing ] || NUMA_BAL=0
if [ $NUMA_BAL = 1 ]; then
	check "demotion_enabled=1, numa_balancing=2 (memory tiering mode) taken" \
		"echo 1 > /sys/kernel/mm/numa/demotion_enabled && echo 2 > /proc/sys/kernel/numa_balancing &&
		 grep -qx true /sys/kernel/mm/numa/demotion_enabled && grep -qx 2 /proc/sys/kernel/numa_balancing"
else
	check "demotion_enabled=1 taken (kernel $(uname -r) has no NUMA balancing)" \
		"echo 1 > /sys/kernel/mm/numa/demotion_enabled &&
		 grep -qx true /sys/kernel/mm/numa/demotion_enabled"
fi
# Not part of the setup, for TCG only: NUMA balancing rescans every
# second (its scan period otherwise grows up to a minute, and promotion
# comes in steps that far apart), so that the workload takes seconds.
NB=/sys/kernel/debug/sched/numa_balancing
if [ $NUMA_BAL = 0 ]; then
	:
elif echo 1000 > $NB/scan_period_max_ms; then
	diag "TCG: $NB/scan_period_max_ms 1000"
else
	diag "TCG: cannot set $NB/scan_period_max_ms: promotion is slower"
fi

# A cold region of 60% of node 0's free memory written first, a hot one
# of 60% after it: 120% in all, the hot one partly on node 1.
F0=$(node_free_mib 0)
COLD=$((F0 * 6 / 10)) HOT=$((F0 * 6 / 10))
diag "node 0 free $F0 MiB: cold $COLD MiB + hot $HOT MiB"
D0=$(demoted) P0=$(promoted)
tiering_work -c $COLD -H $HOT -t 60 -w /tmp/ready > /tmp/work.out 2>&1 &
W=$!
wait_until 300 "test -e /tmp/ready || ! kill -0 $W"
D1=$(demoted) P1=$(promoted)
cat /tmp/work.out >&2
diag "vmstat: pgdemote_kswapd+direct +$((D1 - D0)), pgpromote_success +$((P1 - P0))"
result node0_free_mib "$F0"
result cold_mib "$COLD"
result hot_mib "$HOT"
result workload_s "$(val t | tail -n 1 | cut -d' ' -f1)"
result pgdemote "$((D1 - D0))"
result pgpromote_success "$((P1 - P0))"
result hot_node1_fill "$(val hot_fill_node1)"
result hot_node1_end "$(val hot_end_node1)"
result cold_node1_end "$(val cold_end_node1)"
result bad_pages "$(val bad_pages)"
PAGES_MIB=256	# 4 KiB pages
check "the workload ($((COLD + HOT)) MiB > node 0's $F0 MiB free) spilled onto node 1: hot pages there after the fill: $(val hot_fill_node1)" \
	"test -e /tmp/ready && test $(val hot_fill_node1) -gt 0 && test $(val cold_fill_node1) = 0"
check "cold pages demoted: pgdemote_* +$((D1 - D0)), the cold region's pages on node 1 $(val cold_fill_node1) -> $(val cold_end_node1)" \
	"test $((D1 - D0)) -gt 0 && test $(val cold_end_node1) -gt $(val cold_fill_node1)"
if [ $NUMA_BAL = 1 ]; then
	check "hot pages promoted: pgpromote_success +$((P1 - P0)), the hot region's pages on node 1 $(val hot_fill_node1) -> $(val hot_end_node1)" \
		"test $((P1 - P0)) -gt 0 && test $(val hot_end_node1) -lt $(val hot_fill_node1)"
else
	skip "hot pages promoted: kernel $(uname -r) has no NUMA balancing (CONFIG_NUMA_BALANCING)"
fi
check "every page of both regions read back intact ($((COLD + HOT)) MiB, $(((COLD + HOT) * PAGES_MIB)) pages)" \
	"grep -qx bad_pages=0 /tmp/work.out"

# The pool goes offline under the process's demoted pages.
N1=$(maps_pages $W 1)
result numa_maps_node1 "$N1"
result cold_node1_ready "$(val cold_ready_node1)"
check "numa_maps: the process has $N1 pages on node 1, the cold region's $(val cold_ready_node1) among them" \
	"test $(val cold_ready_node1) -gt 0 && test $N1 -ge $(val cold_ready_node1)"
check "mpctl offline all: node 1 empty, none of the process's pages on it per numa_maps" \
	"mpctl offline all > /dev/null && test \$(node_memtotal_kb 1) = 0 && test \$(maps_pages $W 1) = 0 &&
	 test \$(maps_pages $W 0) -ge $((COLD * PAGES_MIB))"
result numa_maps_node1_offlined "$(maps_pages $W 1)"
kill -USR1 $W
wait $W
RC=$?
cat /tmp/work.out >&2
result cold_node0_offlined "$(val cold_after_node0)"
result bad_pages_offlined "$(val bad_pages_after)"
check "after the offline: the cold region's $((COLD * PAGES_MIB)) pages all on node 0 and intact" \
	"test $RC = 0 && test $(val cold_after_node0) = $((COLD * PAGES_MIB)) && grep -qx bad_pages_after=0 /tmp/work.out"
[ $NUMA_BAL = 0 ] || echo 0 > /proc/sys/kernel/numa_balancing
