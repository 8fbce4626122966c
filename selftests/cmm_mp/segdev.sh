#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --pool 512M --timeout 400
#
# Segments are devices: mp0.N on the cmm_mp bus, seen by udev (an add
# uevent each at load, a change uevent on every online and offline, with
# the segment's state, mode and device node), and sysfs and netlink report
# the same state, mode, owner and device node for every segment in every
# mode: System RAM, dax (pooling and sharing), blk, offline.
. /selftests/lib.sh

BUS=/sys/bus/cmm_mp/devices
UEV=/tmp/uevents

tap_plan 20

# The netlink view of segment $1 (mpctl list -v), one flat JSON object.
nl_seg() { mpctl list -v | tr -d ' \n' | sed 's/},{/}\n{/g' | grep "\"segment\":$1,"; }

# Segment $1 reads the same through sysfs and netlink (lib.sh).
same_view() { seg_sysfs_same $BUS/mp0.$1 "$(nl_seg $1)"; }

all_same() { for i in 0 1 2 3; do same_view $i || return 1; done; }

# A change uevent of segment $1 carrying the property $2 (KEY=value).
has_event() {
	awk -v dev="/mp0.$1\$" -v want="$2" '
		/^KERNEL\[/ { ev = ($2 == "change" && $3 ~ dev) }
		ev && $0 == want { found = 1 }
		END { exit !found }' $UEV
}

HAVE_UDEVADM=false
command -v udevadm >/dev/null && HAVE_UDEVADM=true
if $HAVE_UDEVADM; then
	udevadm monitor --kernel --property --subsystem-match=cmm_mp > $UEV 2>/dev/null &
	MON=$!
	sleep 1
fi

check "cmm_mp loads on $MP_POOL_MEM" load_cmm_mp
check "4 segment devices on the cmm_mp bus, children of mp0" \
	"test \$(ls $BUS | grep -c '^mp0\.[0-3]\$') = 4 && test -d /sys/class/cmm_mp/mp0/mp0.3"
check "segments/segN still names each one (a link to its device)" \
	"test \$(readlink -f /sys/class/cmm_mp/mp0/segments/seg2) = \$(readlink -f $BUS/mp0.2)"
check "uevent file: segment device type, state, mode, pool-wide id" \
	"grep -qx DEVTYPE=cmm_mp_segment $BUS/mp0.1/uevent && grep -qx MP_SEG_STATE=offline $BUS/mp0.1/uevent && grep -qx MP_SEG_MODE=system-ram $BUS/mp0.1/uevent && grep -qx MP_SEG_ID=1 $BUS/mp0.1/uevent"
if $HAVE_UDEVADM; then
	check "udevadm info: subsystem cmm_mp, the segment's properties" \
		"udevadm info -q property -p $BUS/mp0.0 | grep -qx SUBSYSTEM=cmm_mp && udevadm info -q property -p $BUS/mp0.0 | grep -qx MP_SEG_INDEX=0"
else
	skip "udevadm is not in the guest image (udev not installed on the host)"
fi
check "all offline: sysfs and netlink agree on every segment" all_same

check "online 0 as System RAM, 1 as dax, 2 as blk" \
	"mpctl online 0 && mpctl online 1 --as dax && mpctl online 2 --as blk"
check "sysfs: 0 online-ram, 1 owned dax /dev/mps1, 2 owned blk /dev/mpb2" \
	"test \$(cat $BUS/mp0.0/state) = online-ram && test \$(cat $BUS/mp0.1/state) = owned && test \$(cat $BUS/mp0.1/mode) = dax && test \$(cat $BUS/mp0.1/devnode) = /dev/mps1 && test \$(cat $BUS/mp0.2/mode) = blk && test \$(cat $BUS/mp0.2/owner) = 0 && test -c /dev/mps1 && test -b /dev/mpb2"
check "every mode: sysfs and netlink agree on every segment" all_same
check "online 3 as dax in sharing mode" "mpctl online 3 --as dax --shared"
check "sharing mode: state shared, sysfs shared=1, and netlink agrees" \
	"test \$(cat $BUS/mp0.3/state) = shared && test \$(cat $BUS/mp0.3/shared) = 1 && same_view 3"
check "offline all four" \
	"mpctl offline 0 && mpctl offline 1 && mpctl offline 2 && mpctl offline 3"
check "offline again: sysfs and netlink agree on every segment" \
	"all_same && test \$(cat $BUS/mp0.*/state | sort -u) = offline"

if $HAVE_UDEVADM; then
	sleep 1
	kill $MON 2>/dev/null
	wait $MON 2>/dev/null
	diag "uevents seen: $(grep -c '^KERNEL\[' $UEV)"
	check "an add uevent for each segment device at load" \
		"test \$(grep -c '^KERNEL\[.*\] add .*/mp0\.[0-3] (cmm_mp)' $UEV) = 4"
	check "change uevent: mp0.0 online-ram" has_event 0 MP_SEG_STATE=online-ram
	check "change uevent: mp0.1 dax with its device node" \
		"has_event 1 MP_SEG_MODE=dax && has_event 1 MP_SEG_DEVNODE=/dev/mps1"
	check "change uevent: mp0.2 blk with its device node" \
		"has_event 2 MP_SEG_MODE=blk && has_event 2 MP_SEG_DEVNODE=/dev/mpb2"
	check "change uevent: mp0.3 shared" has_event 3 MP_SEG_STATE=shared
	check "change uevents back to offline for all four" \
		"has_event 0 MP_SEG_STATE=offline && has_event 1 MP_SEG_STATE=offline && has_event 2 MP_SEG_STATE=offline && has_event 3 MP_SEG_STATE=offline"
else
	for i in 1 2 3 4 5 6; do skip "udevadm is not in the guest image"; done
fi
check "rmmod cmm_mp: the segment devices go with it" \
	"rmmod cmm_mp && test ! -e $BUS/mp0.0"
