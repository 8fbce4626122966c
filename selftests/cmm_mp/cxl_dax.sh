#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --cxl 512M --pool 0 --timeout 500 --append memmap=256M!0x50000000
#
# Device DRAM from a dax device of a CXL region, through the dax bus driver
# cmm_mp (cmm_mp loaded without mem= and cxl_region=): a devdax namespace
# on a CXL pmem region moved from device_dax to cmm_mp as daxctl users move
# one to kmem; mp0 on its range and target node, a segment onlined there;
# an unbind while it is online keeps mp0 (detached) and the range's claim,
# device_dax cannot take it, data survives the offline, binding again takes
# mp0 back; unbind with everything offline (or rmmod) gives the device back
# to device_dax and /dev/daxX.Y stores bytes again. Refused: a dax device
# outside CXL Windows (legacy pmem from memmap=!), one without a whole
# segment, a second one. The live data is 16 MiB (4096 pages, 8 pageblocks
# to migrate): each MiB written to CXL memory (MMIO to QEMU) and migrated
# costs TCG most of a second (48 MiB took 30 s).
. /selftests/lib.sh
. /selftests/cmm_mp/cxl_lib.sh

SEG=134217728
TOUCH_MIB=16
SEG_KB=$((SEG / 1024))
KO=/lib/modules/cmm-mp/cmm_mp.ko
DAX=/sys/bus/dax
MP=/sys/class/cmm_mp/mp0

# new kernel log lines since dmark
dmark() { _dm=$(dmesg | wc -l); }
dnew() { dmesg | tail -n +$((_dm + 1)); }
driver_of() { basename "$(readlink $DAX/devices/$1/driver 2>/dev/null)" 2>/dev/null; }
# a devdax namespace: its dax device's name
devdax_ns() {
	ndctl create-namespace -m devdax "$@" 2> /tmp/ns.err | grep -o '"chardev":"dax[0-9.]*"' |
		cut -d'"' -f4
}
to_cmm_mp() {
	[ "$(driver_of $1)" = device_dax ] && echo $1 > $DAX/drivers/device_dax/unbind
	echo $1 > $DAX/drivers/cmm_mp/new_id
}
# back to device_dax: cmm_mp forgets the id, device_dax binds it
to_device_dax() {
	echo $1 > $DAX/drivers/cmm_mp/remove_id
	echo $1 > $DAX/drivers/device_dax/bind 2>/dev/null
}
# bad_bind DESC DEV DMESG-PATTERN: probe refused, explained, the device
# goes back to device_dax
bad_bind() {
	_had=$(cat $MP/phys 2>/dev/null)
	dmark
	to_cmm_mp $2
	if [ -z "$(driver_of $2)" ] && [ "$(cat $MP/phys 2>/dev/null)" = "$_had" ] &&
	   dnew | grep -q -- "$3"; then
		ok "$1: refused ($(dnew | grep -m1 -- "$3" | cut -c16-))"
	else
		fail "$1 (driver '$(driver_of $2)')"; dnew | tail -n 5 | sed 's/^/# /'
	fi
	to_device_dax $2
}
# dax_pattern DEV SEED: a 2 MiB pattern stored through /dev/DEV reads back
dax_pattern() {
	dax_rw write /dev/$1 2097152 $2 && dax_rw check /dev/$1 2097152 $2
}

tap_plan 20
T0=$(date +%s)
NODE=$(cxl_window_node)
check "CXL root and memdev enumerated (root0, mem0 bound)" cxl_enumerate
check "cxl create-region -t pmem" cxl_region_create
modprobe dax_pmem; modprobe device_dax; modprobe nd_e820
i=0; while [ $i -lt 50 ]; do
	NDR=$(for r in /sys/bus/nd/devices/region*; do
		[ "$(cat $r/resource 2>/dev/null)" = "$BASE" ] && basename $r; done)
	[ -n "$NDR" ] && break
	sleep 0.2; i=$((i + 1))
done
DA=$(devdax_ns -r "$NDR" -s 384M)
DB=$(devdax_ns -r "$NDR")
sed 's/^/# ndctl: /' /tmp/ns.err | head -n 5
# legacy pmem (memmap=!): its raw namespace reconfigured to devdax
LR=$(for r in /sys/bus/nd/devices/region*; do
	[ "$(cat $r/resource 2>/dev/null)" = 0x50000000 ] && basename $r; done)
DL=$(devdax_ns -f -e "namespace${LR#region}.0")
diag "CXL $R at $BASE (nd $NDR, node $NODE): $DA, $DB; legacy pmem ${LR:-none}: ${DL:-none}"
check "devdax namespaces on the CXL region: daxctl lists $DA as devdax on node $NODE" \
	"daxctl list -d $DA | grep -q '\"mode\":\"devdax\"' && test \$(cat $DAX/devices/$DA/target_node) = $NODE && test \$(driver_of $DA) = device_dax"

check "cmm_mp loads without mem= or cxl_region=: dax driver cmm_mp, no device yet" \
	"insmod $KO && test -e $DAX/drivers/cmm_mp/new_id && test ! -e $MP"

# --- refusals
if [ -n "$DL" ]; then
	bad_bind "$DL (legacy pmem, outside CXL Windows)" $DL "is not entirely a CXL Window range"
else
	skip "no legacy pmem dax device (memmap=! not honoured?)"
fi
bad_bind "$DB ($(($(cat $DAX/devices/$DB/size) >> 20)) MiB: no whole 128 MiB segment)" $DB "holds no whole segment"

# --- the dax device as pool device DRAM
B=$((0x$(cat /sys/devices/system/memory/block_size_bytes)))
S=$(cat $DAX/devices/$DA/mapping0/start)
E=$(cat $DAX/devices/$DA/mapping0/end)
PHYS=$(printf '%#x' $(( (S + B - 1) / B * B )))
NSEGS=$(( ((E + 1) / B * B - PHYS) / SEG ))
M0=$(memtotal_kb)
dmark
to_cmm_mp $DA
dnew | grep cmm_mp | cut -c16- | sed 's/^/# /'
check "$DA bound to cmm_mp: mp0 at $PHYS (its range $S-$E in whole blocks), $NSEGS segments, node $NODE" \
	"test \"\$(driver_of $DA)\" = cmm_mp && test \$(cat $MP/phys) = $PHYS && test \$(cat $MP/nr_segments) = $NSEGS && test \$(cat $MP/numa_node) = $NODE"
daxctl list -d $DA | tr -d ' \n' | sed 's/^/# daxctl list: /'; echo
check "daxctl list shows $DA enabled (mode devdax: daxctl knows kmem only); cxl list shows $R" \
	"daxctl list -d $DA | grep -q '\"mode\":\"devdax\"' && ! daxctl list -d $DA | grep -q disabled && cxl list -r $R | grep -q '\"region\":\"$R\"'"
check "/proc/iomem: cmm_mp mp0 claims $PHYS in $DA's range" \
	"grep -q '^ *${PHYS#0x}-.* : cmm_mp mp0' /proc/iomem"
bad_bind "a second dax device while mp0 exists ($DB)" $DB "has its pool device mp0 already"
check "mpctl online 0: MemTotal grows by exactly one segment, on node $NODE" \
	"mpctl online 0 && test \$((\$(memtotal_kb) - M0)) = $SEG_KB && test \$(node_memtotal_kb $NODE) = $SEG_KB"
# only data on the CXL node: TCG cannot run code from it (cxl.sh)
mp_touch -m $TOUCH_MIB -s 7 -b "$NODE" -n "$NODE" -w /tmp/ready > /tmp/touch.out 2>&1 &
TP=$!
wait_until 60 test -e /tmp/ready
diag "placement: $(tr '\n' ' ' < /tmp/touch.out)"

# --- unbind while a segment is online: mp0 stays, detached, with its claim
dmark
echo $DA > $DAX/drivers/cmm_mp/unbind
check "unbind with segment 0 online: mp0 stays, memory online, explained" \
	"test -e $MP && test -z \"\$(driver_of $DA)\" && test \$((\$(memtotal_kb) - M0)) = $SEG_KB && dnew | grep -q 'mp0 is in use'"
check "device_dax cannot take $DA meanwhile (the range is still claimed)" \
	"! echo $DA > $DAX/drivers/device_dax/bind 2>/dev/null && test -z \"\$(driver_of $DA)\""
check "mp0 still works: offline 0 with $TOUCH_MIB MiB of live data on it" mpctl offline 0
kill -USR1 $TP; wait $TP; TR=$?
diag "after offline: $(tr '\n' ' ' < /tmp/touch.out)"
check "the data survived the offline (checksums); MemTotal back" \
	"test $TR = 0 && test \$(memtotal_kb) = $M0"
dmark
check "$DA bound again takes the detached mp0 back" \
	"to_cmm_mp $DA && test \"\$(driver_of $DA)\" = cmm_mp && test \$(cat $MP/phys) = $PHYS && dnew | grep -q 'device DRAM of mp0 again'"

# --- the clean way back: everything offline, unbind
dmark
echo $DA > $DAX/drivers/cmm_mp/unbind
check "unbind with every segment offline: mp0 removed, range released" \
	"test ! -e $MP && ! grep -q cmm_mp /proc/iomem && dnew | grep -q 'mp0 removed, range released'"
check "bound to device_dax again: daxctl shows it enabled, /dev/$DA reads back" \
	"to_device_dax $DA && test \$(driver_of $DA) = device_dax && ! daxctl list -d $DA | grep -q disabled && dax_pattern $DA 11"
check "rmmod with $DA bound: mp0 goes with the driver, device_dax takes it back" \
	"to_cmm_mp $DA && test -e $MP && rmmod cmm_mp && test -z \"\$(driver_of $DA)\" && ! grep -q cmm_mp /proc/iomem && echo $DA > $DAX/drivers/device_dax/bind && dax_pattern $DA 12"
check "cxl list still shows $R, ndctl its namespaces" \
	"cxl list -r $R | grep -q '\"region\":\"$R\"' && ndctl list -r $NDR -N | grep -q '\"chardev\":\"$DA\"'"
diag "scenario took $(($(date +%s) - T0))s"
