#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --cxl 512M --pool 0 --timeout 500
#
# Device DRAM from a CXL Type 3 memory region (QEMU cxl-type3, pmem): the
# region made with `cxl create-region`, cmm_mp loaded with cxl_region=,
# a segment onlined on the region's node, data survives its offline, bad
# regions and a region a pmem namespace holds are refused. The live data is
# 16 MiB (4096 pages, 8 pageblocks to migrate): QEMU serves CXL memory as
# MMIO, and each MiB written there and migrated costs TCG most of a second
# (48 MiB took 36 s).
. /selftests/lib.sh
. /selftests/cmm_mp/cxl_lib.sh

SEG=134217728
TOUCH_MIB=16
SEG_KB=$((SEG / 1024))
KO=/lib/modules/cmm-mp/cmm_mp.ko
S=/sys/class/cmm_mp/mp0/segments

# bad_load DESC PARAMS DMESG-PATTERN: refused, explained, nothing left
bad_load() {
	dmesg -c > /dev/null
	if insmod $KO $2 2>/dev/null; then
		rmmod cmm_mp; fail "$1: module loaded"
	elif dmesg | grep -q -- "$3" && [ ! -e /sys/class/cmm_mp/mp0 ]; then
		ok "$1: refused ($(dmesg | grep cmm_mp | tail -n1 | cut -c16-))"
	else
		fail "$1"; dmesg | tail -n 5 | sed 's/^/# /'
	fi
}

tap_plan 15
NODE=$(cxl_window_node)
check "CXL root and memdev enumerated (root0, mem0 bound)" cxl_enumerate
RD=$(ls $CXL | grep -m1 '^decoder0\.')
check "cxl create-region -t pmem on root decoder $RD" cxl_region_create
# its nd region (the only one: no legacy pmem in this guest)
wait_until 10 "ls /sys/bus/nd/devices | grep -q '^region'"
NDR=$(ls /sys/bus/nd/devices 2>/dev/null | grep -m1 '^region')
diag "CXL region $R at $BASE, $SIZE bytes, nd region '${NDR##*/}', window node $NODE"
ndctl list -R 2>&1 | sed 's/^/# /'
grep -i -e cxl -e region /proc/iomem | sed 's/^/# iomem: /'
check "region is $MP_CXL_SIZE bytes" test "$SIZE" = "$MP_CXL_SIZE"

# --- refusals
bad_load "cxl_region= of a region that does not exist" "cxl_region=region9" "no such CXL region"
bad_load "cxl_region= not a region name" "cxl_region=../mem0" "expected a CXL region name"
bad_load "both mem= and cxl_region=" "mem=256M\$0x70000000 cxl_region=$R" "given twice"
if [ -n "$NDR" ] && ndctl create-namespace -r "$NDR" -m raw > /tmp/ns.out 2>&1; then
	bad_load "cxl_region= a pmem namespace holds" "cxl_region=$R" "claimed by another driver"
else
	sed 's/^/# ndctl: /' /tmp/ns.out | head -n 5
	skip "no pmem namespace on $R to claim it with (nd region '$NDR')"
fi
ndctl destroy-namespace -f all > /dev/null 2>&1

# --- the region as pool device DRAM
M0=$(memtotal_kb)
check "cmm_mp loads with cxl_region=$R" "insmod $KO cxl_region=$R"
check "device at the region's base ($BASE), $((SIZE / SEG)) segments, node $NODE" \
	"test \$(cat /sys/class/cmm_mp/mp0/phys) = $BASE && test \$(cat /sys/class/cmm_mp/mp0/nr_segments) = $((SIZE / SEG)) && test \$(cat /sys/class/cmm_mp/mp0/numa_node) = $NODE"
check "mpctl online 0: MemTotal grows by exactly one segment, on node $NODE" \
	"mpctl online 0 && test \$((\$(memtotal_kb) - M0)) = $SEG_KB && test \$(node_memtotal_kb $NODE) = $SEG_KB"
# only the data on the CXL node: QEMU serves CXL memory as MMIO, which TCG
# cannot run code from (a process bound there whole dies in ld.so)
mp_touch -m $TOUCH_MIB -s 7 -b "$NODE" -n "$NODE" -w /tmp/ready > /tmp/touch.out 2>&1 &
T=$!
wait_until 60 test -e /tmp/ready
diag "placement: $(tr '\n' ' ' < /tmp/touch.out)"
check "offline 0 with $TOUCH_MIB MiB of live data on it" mpctl offline 0
kill -USR1 $T; wait $T; TR=$?
diag "after offline: $(tr '\n' ' ' < /tmp/touch.out)"
check "the data survived the offline (checksums); MemTotal back" \
	"test $TR = 0 && test \$(memtotal_kb) = $M0"
check "rmmod cmm_mp" rmmod cmm_mp
check "cxl list still shows $R" "cxl list -R | grep -q '\"region\":\"$R\"'"
check "the region is free again: cmm_mp reloads on it" \
	"insmod $KO cxl_region=$R && rmmod cmm_mp"
