#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --pool 256M --timeout 300 --append memmap=128M!0x60000000
#
# Bad input of every kind gets a clear error and changes nothing: module
# parameters, mpctl arguments and states, privileges, malformed netlink.
. /selftests/lib.sh

S=/sys/class/cmm_mp/mp0/segments
BASE=$(printf '%#x' "$MP_POOL_BASE")
tap_plan 32

# err_is CODE PATTERN CMD...: CMD exits CODE with exactly one stderr line
# matching PATTERN
err_is() {
	_c=$1 _p=$2; shift 2
	"$@" > /tmp/out 2> /tmp/err
	_r=$?
	echo "# $* -> rc=$_r: $(cat /tmp/err)" >&2
	test $_r = "$_c" && test "$(wc -l < /tmp/err)" = 1 && grep -qi -- "$_p" /tmp/err
}

IOMEM0=$(md5sum < /proc/iomem)
check "mpctl without the module: 'not loaded', exit 3 (no module)" err_is 3 "not loaded" mpctl list

# bad module parameters: refused, explained in dmesg, nothing claimed
bad_load() {	# DESC PARAM DMESG-PATTERN
	dmesg -c > /dev/null
	if insmod /lib/modules/cmm-mp/cmm_mp.ko $2 2>/dev/null; then
		rmmod cmm_mp; fail "$1: module loaded"
		return
	fi
	if dmesg | grep -q -- "$3" && [ ! -e /sys/class/cmm_mp/mp0 ] &&
	   [ "$(md5sum < /proc/iomem)" = "$IOMEM0" ]; then
		ok "$1: refused ($(dmesg | grep cmm_mp | tail -n1 | cut -c16-))"
	else
		fail "$1"; dmesg | tail -n 5 >&2
	fi
}
bad_load "mem= overlapping System RAM" 'mem=256M$0x10000000' "overlaps System RAM"
bad_load "mem= base not block aligned" "mem=256M\$$(printf '%#x' $((MP_POOL_BASE + 0x100000)))" "multiples of the memory block"
bad_load "mem= size not a whole segment" "mem=192M\$$BASE" "multiples of the memory block"
bad_load "mem= absent range (no memmap there)" 'mem=256M$0x200000000' "not entirely a Reserved range"
bad_load "mem= garbage" 'mem=lots$ofmemory' "memmap grammar"
# neither mem= nor cxl_region=: the dax driver cmm_mp waits for a dax device
# (cxl_dax.sh), claiming nothing; a build without it refuses
if insmod /lib/modules/cmm-mp/cmm_mp.ko 2>/dev/null; then
	check "mem= missing: loads as the dax driver cmm_mp, no device, nothing claimed" \
		"test -e /sys/bus/dax/drivers/cmm_mp && test ! -e /sys/class/cmm_mp/mp0 && test \"\$(md5sum < /proc/iomem)\" = \"$IOMEM0\" && rmmod cmm_mp"
else
	bad_load "mem= missing (a build without the dax driver)" '' "no device DRAM"
fi
bad_load "seg_size not a block multiple" "mem=$MP_POOL_MEM seg_size=201326592" "multiples of the memory block"
bad_load "seg_size a part of a block, not a power of two" "mem=$MP_POOL_MEM seg_size=100663296" "power-of-two part of one block"
bad_load "seg_size a part of a block below 64 KiB" "mem=$MP_POOL_MEM seg_size=32768" "of at least 65536 bytes"

check "cmm_mp loads with a good range" load_cmm_mp
STATE0=$(cat $S/*/state | tr '\n' ' ')
check "unknown segment: exit 5 (no such object)" err_is 5 "segment 7" mpctl online 7
check "bad segment list: usage error, exit 2" err_is 2 "" mpctl online 1-
check "unknown command: usage error, exit 2" err_is 2 "" mpctl frobnicate
check "unknown option: usage error, exit 2" err_is 2 "" mpctl list --bogus
check "offline of an offline segment: 'already offline', exit 6 (refused)" err_is 6 "already offline" mpctl offline 0
check "online as an unprivileged user: 'needs root', exit 4" \
	err_is 4 "root" /usr/bin/setpriv --reuid 65534 --regid 65534 --clear-groups mpctl online 0
check "nothing changed by the bad requests" test "$(cat $S/*/state | tr '\n' ' ')" = "$STATE0"
check "mpctl online 0" mpctl online 0
check "online of an online segment: 'already online', exit 6 (refused)" err_is 6 "already online" mpctl online 0
check "mpctl offline 0" mpctl offline 0

# malformed netlink from a raw socket
nl_bad > /tmp/nl_bad.tap 2>&1
NR=$?
sed 's/^/# nl_bad: /' /tmp/nl_bad.tap
check "malformed netlink attributes are rejected and change nothing (nl_bad)" \
	"test $NR = 0 && grep -q '^ok' /tmp/nl_bad.tap && ! grep -q '^not ok' /tmp/nl_bad.tap"
check "rmmod cmm_mp" rmmod cmm_mp

# A range another driver holds (legacy pmem claimed by nd_pmem) is busy.
check "nd_e820 + nd_pmem claim a second legacy-pmem range" "modprobe nd_e820 && modprobe nd_pmem && sleep 1 && ls /dev/pmem0"
check "cmm_mp on a range the pmem driver holds: refused as claimed" \
	"dmesg -c >/dev/null; ! insmod /lib/modules/cmm-mp/cmm_mp.ko 'mem=128M!0x60000000' && dmesg | grep -q 'claimed by another driver'"

# A driver that claims part of our range after we loaded makes that
# segment busy: online fails clearly, and works once the claim is gone.
# The legacy-pmem kind of range ('!') is used for it.
check "nd_pmem unloaded; cmm_mp loads on the legacy pmem range" \
	"rmmod nd_pmem && insmod /lib/modules/cmm-mp/cmm_mp.ko 'mem=128M!0x60000000'"
check "nd_pmem claims the range below cmm_mp's claim" "modprobe nd_pmem && sleep 1 && grep -q 'namespace0.0' /proc/iomem"
check "online of the claimed segment: 'range busy', exit 6 (refused)" err_is 6 "busy" mpctl online 0
check "the segment stayed offline" "test \"\$(cat $S/seg0/state)\" = offline"
M0=$(memtotal_kb)
check "with the claim gone, the legacy pmem segment onlines as System RAM" \
	"rmmod nd_pmem && mpctl online 0 >/dev/null && test \$((\$(memtotal_kb) - M0)) = 131072"
check "and offlines" "mpctl offline 0 >/dev/null && test \$(memtotal_kb) = $M0"
check "rmmod cmm_mp" rmmod cmm_mp
