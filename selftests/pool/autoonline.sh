#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --pool 256M --timeout 360
#
# The kernel's auto-online policy (/sys/devices/system/memory/
# auto_online_blocks, memhp_default_state= at boot) and mpctl online
# (Documentation/mpctl-online.rst, "AUTO-ONLINE POLICY"): for each of
# offline, online, online_kernel and online_movable, segment 0 ends with
# every block online in ZONE_MOVABLE (valid_zones of the block, node 1's
# MemTotal), and mpctl's answer says what the kernel had done (the zone it
# chose, the blocks moved). --keep-zone keeps the kernel's zone,
# --no-movable moves the blocks to ZONE_NORMAL. Then an offline refused
# for unmovable pages names the memory block, its zone and the reason,
# exit status 6, and the segment stays whole.
. /selftests/lib.sh

S=/sys/class/cmm_mp/mp0/segments
P=/sys/devices/system/memory/auto_online_blocks
SEG_KB=$((128 * 1024))
# blk SEG: the segment's first memory block's sysfs directory
blk() { echo /sys/devices/system/memory/memory$(cat $S/seg$1/memblock_first); }
# zone_is SEG ZONE: every block of SEG online, in ZONE (an online block's
# valid_zones names the zone it is in), node 1 holding the segment
zone_is() {
	b=$(cat $S/seg$1/memblock_first) n=$(cat $S/seg$1/memblock_count)
	test "$(cat $S/seg$1/memblock_online)" = "$n" || return 1
	while [ "$n" -gt 0 ]; do
		d=/sys/devices/system/memory/memory$b
		grep -qx online $d/state && grep -qx "$2" $d/valid_zones || return 1
		b=$((b + 1)) n=$((n - 1))
	done
	test "$(node_memtotal_kb 1)" -ge $SEG_KB
}
# js KEY:VALUE: in mpctl's last answer (/tmp/on.json)
js() { tr -d ' \n' < /tmp/on.json | grep -q "\"$1\":$2"; }
total() { cat $S/seg$1/memblock_count; }

tap_plan 22
check "cmm_mp loads" load_cmm_mp
check "mpctl list -D shows the kernel's policy ($(cat $P))" \
	"mpctl list -D | tr -d ' \n' | grep -q '\"auto_online\":\"$(cat $P)\"'"
for pol in offline online online_kernel online_movable; do
	echo $pol > $P
	check "$pol: mpctl online 0 ends with every block in ZONE_MOVABLE" \
		"test \$(cat $P) = $pol && mpctl online 0 > /tmp/on.json && cat /tmp/on.json && zone_is 0 Movable && js zone '\"movable\"'"
	case $pol in
	offline)
		check "$pol: nothing was onlined by the kernel" \
			"! js auto_onlined_memblocks '[0-9]'" ;;
	online_movable)
		check "$pol: the kernel had onlined them to movable: kept" \
			"js auto_online_zone '\"movable\"' && js reonlined_memblocks 0" ;;
	*)
		check "$pol: the kernel had onlined them to normal: all moved" \
			"js auto_online_zone '\"normal\"' && js reonlined_memblocks $(total 0)" ;;
	esac
	check "$pol: offline 0: node 1 empty again" \
		"mpctl offline 0 && test \$(cat $S/seg0/state) = offline && test \$(node_memtotal_kb 1) = 0"
done
echo online_kernel > $P
check "online_kernel + --keep-zone: stays in ZONE_NORMAL, reported" \
	"mpctl online 0 --keep-zone > /tmp/on.json && zone_is 0 Normal && js zone '\"normal\"' && js reonlined_memblocks 0"
check "... and goes offline" "mpctl offline 0 && test \$(node_memtotal_kb 1) = 0"
echo online_movable > $P
check "online_movable + --no-movable: moved to ZONE_NORMAL" \
	"mpctl online 0 --no-movable > /tmp/on.json && zone_is 0 Normal && js auto_online_zone '\"movable\"' && js reonlined_memblocks $(total 0)"
check "... and goes offline" "mpctl offline 0 && test \$(node_memtotal_kb 1) = 0"
echo offline > $P

# an offline refused: page tables of a process bound to node 1 in ZONE_NORMAL
check "online 1 --no-movable" "mpctl online 1 --no-movable && zone_is 1 Normal"
B1=$(cat $S/seg1/memblock_first)
M1=$(memtotal_kb)
numactl --membind=1 mp_touch -m 16 -s 9 -p 4000 -w /tmp/ready > /tmp/touch.out 2>&1 &
T=$!
wait_until 60 test -e /tmp/ready
mpctl offline 1 > /tmp/off.out 2> /tmp/off.err
RC=$?
diag "mpctl offline 1 -> $RC: $(cat /tmp/off.err)"
check "offline refused: exit 6, one line naming a block of seg1 in ZONE_NORMAL and why" \
	"test $RC = 6 && test \$(wc -l < /tmp/off.err) = 1 &&
	 grep -q 'memory block [0-9]* .*(ZONE_NORMAL) cannot go offline: unmovable' /tmp/off.err &&
	 b=\$(sed -n 's/.*memory block \([0-9]*\).*/\1/p' /tmp/off.err) &&
	 test \$b -ge $B1 && test \$b -lt \$(($B1 + $(total 1)))"
check "the segment stays whole: online-ram, every block online in ZONE_NORMAL, MemTotal unchanged" \
	"test \$(cat $S/seg1/state) = online-ram && zone_is 1 Normal && test \$(memtotal_kb) = $M1"
kill -USR1 $T
wait $T
check "the process's data read back intact" test $? = 0
