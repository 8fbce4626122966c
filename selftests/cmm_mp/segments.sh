#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --pool 512M --timeout 400
#
# Local segments as System RAM: online one and several, data lands on the
# pool node, offline with live data (it migrates), online again, module
# pinned while memory is online.
. /selftests/lib.sh

SEG=134217728		# 128 MiB segments
SEG_KB=$((SEG / 1024))
S=/sys/class/cmm_mp/mp0/segments
seg_state() { cat $S/seg$1/state; }
seg_block() { echo /sys/devices/system/memory/memory$(cat $S/seg$1/memblock_first); }

tap_plan 26
M0=$(memtotal_kb)
diag "MemTotal before: $M0 kB, pool $MP_POOL_MEM on node $MP_POOL_NODE"

check "cmm_mp loads on $MP_POOL_MEM" load_cmm_mp
check "4 segments, all offline by default" \
	test "$(cat $S/seg*/state | sort -u)" = offline -a "$(cat /sys/class/cmm_mp/mp0/nr_segments)" = 4
check "pool node $MP_POOL_NODE has no memory yet" test "$(node_memtotal_kb 1)" = 0

mpctl monitor --count 2 > /tmp/events.json 2>/tmp/monitor.err &
MON=$!
sleep 1

# --- one segment
check "mpctl online 0" mpctl online 0
M1=$(memtotal_kb)
check "MemTotal grew by exactly one segment ($M0 -> $M1 kB)" test $((M1 - M0)) = $SEG_KB
check "node 1 MemTotal is exactly one segment" test "$(node_memtotal_kb 1)" = $SEG_KB
check "seg0 online-ram, its block online in ZONE_MOVABLE" \
	"test \"\$(cat $S/seg0/state)\" = online-ram && grep -q online $(seg_block 0)/state && grep -q Movable $(seg_block 0)/valid_zones"
check "iomem: seg0 claimed and System RAM (cmm_mp) below it" \
	"grep -q 'cmm_mp mp0 seg0' /proc/iomem && grep -q 'System RAM (cmm_mp)' /proc/iomem"
check "node 1 is CPU-less (numactl -H)" "numactl -H | grep -q '^node 1 cpus: *\$'"
t0=$(sed -n 's/.*/&/p' /sys/devices/virtual/memory_tiering/memory_tier*/nodelist 2>/dev/null | tr '\n' ' ')
check "pool node is in its own, slower memory tier (tiers: $t0)" \
	'for t in /sys/devices/virtual/memory_tiering/memory_tier*; do grep -qx 1 $t/nodelist && n1=${t##*tier}; grep -qx 0 $t/nodelist && n0=${t##*tier}; done; test -n "$n1" -a -n "$n0" && test "$n1" -gt "$n0"'

# --- several
check "mpctl online 1,2" mpctl online 1,2
M2=$(memtotal_kb)
check "MemTotal grew by exactly three segments" test $((M2 - M0)) = $((3 * SEG_KB))
check "node 1 MemTotal is three segments" test "$(node_memtotal_kb 1)" = $((3 * SEG_KB))
check "numactl --membind=1: 64 MiB all on node 1, reads back intact" \
	numactl --membind=1 mp_touch -m 64 -s 11 -n 1
check "mpctl list shows seg1 online" "mpctl list -s 1 | grep -q online"

# --- offline with live data on the segments
numactl --membind=1 mp_touch -m 200 -s 42 -w /tmp/ready > /tmp/touch.out 2>&1 &
T=$!
wait_until 60 test -e /tmp/ready
diag "placement before offline: $(grep node /tmp/touch.out | tr '\n' ' ')"
check "offline 0,1,2 while 200 MiB of live data sits on them" mpctl offline 0,1,2
kill -USR1 $T; wait $T; TR=$?
diag "after offline: $(sed -n '/after_signal/,$p' /tmp/touch.out | tr '\n' ' ')"
check "the process's data survived the offline (checksums)" test $TR = 0
M3=$(memtotal_kb)
check "MemTotal back to $M0 kB ($M3)" test "$M3" = "$M0"
check "segments offline, node 1 empty" \
	"test \"\$(cat $S/seg0/state $S/seg1/state $S/seg2/state | sort -u)\" = offline && test \"\$(node_memtotal_kb 1)\" = 0"
check "iomem: segment claims and System RAM (cmm_mp) gone" \
	"! grep -q 'seg[0-9]\|System RAM (cmm_mp)' /proc/iomem"

# --- and again
check "seg0 can be onlined again" "mpctl online 0 && test \$(memtotal_kb) = $M1"
check "rmmod refused while a segment is online" "! rmmod cmm_mp && test \$(memtotal_kb) = $M1"
check "offline again" mpctl offline 0
check "rmmod once all segments are offline; iomem back to Reserved" \
	"rmmod cmm_mp && ! grep -q cmm_mp /proc/iomem && grep -q Reserved /proc/iomem"

wait $MON
check "mpctl monitor saw the first two events" "test \$(grep -c '\"state\"' /tmp/events.json) -ge 2"
check "mpctl list fails clearly with the module gone" "! mpctl list 2>/tmp/err && grep -q 'not loaded' /tmp/err"
