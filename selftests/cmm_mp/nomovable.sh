#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --pool 256M --timeout 300
#
# --no-movable: the segment's memory goes to ZONE_NORMAL, where the kernel
# may put unmovable pages. Page tables of a process bound to the pool node
# are such pages: the offline must be refused with a clear error, leaving
# the segment online and the data intact; once they are gone it succeeds.
. /selftests/lib.sh

S=/sys/class/cmm_mp/mp0/segments
tap_plan 9
check "cmm_mp loads" load_cmm_mp
check "mpctl online 0 --no-movable" mpctl online 0 --no-movable
B=/sys/devices/system/memory/memory$(cat $S/seg0/memblock_first)
check "seg0's block is online in ZONE_NORMAL ($(cat $B/valid_zones))" \
	"grep -q online $B/state && grep -q Normal $B/valid_zones && ! grep -q Movable $B/valid_zones"
M1=$(memtotal_kb)

# 16 MiB of data plus ~4000 page-table pages, all on node 1
numactl --membind=1 mp_touch -m 16 -s 9 -p 4000 -w /tmp/ready > /tmp/touch.out 2>&1 &
T=$!
wait_until 60 test -e /tmp/ready
diag "node 1 after pinning: $(grep -E 'MemUsed|PageTables' /sys/devices/system/node/node1/meminfo | tr -s ' ' | tr '\n' ';')"

mpctl offline 0 > /tmp/off.out 2> /tmp/off.err
RC=$?
diag "mpctl offline 0 -> rc=$RC: $(cat /tmp/off.err)"
check "offline refused: non-zero exit and one clear line on stderr" \
	"test $RC != 0 && test \$(wc -l < /tmp/off.err) = 1 && grep -qi 'refused\|busy' /tmp/off.err"
check "segment still online-ram, MemTotal unchanged" \
	"test \"\$(cat $S/seg0/state)\" = online-ram && test \$(memtotal_kb) = $M1 && grep -q online $B/state"
kill -USR1 $T; wait $T; TR=$?
check "no data lost: the process's data reads back intact" test $TR = 0
# Once unmovable kernel memory sits in ZONE_NORMAL (page tables are freed
# with the process, but slab pages it caused there may stay in use by
# others), offlining may stay refused: the segment must stay consistent.
check "mpctl list still shows seg0 online-ram in the normal zone" \
	"mpctl list -s 0 | grep -q '\"state\":\"online-ram\"' && mpctl list -s 0 | grep -q '\"zone\":\"normal\"'"
check "MemTotal still includes the segment" "test \$(memtotal_kb) = $M1"
check "rmmod refused: online memory pins the module" "! rmmod cmm_mp && test -d /sys/class/cmm_mp/mp0"
