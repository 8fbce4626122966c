#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --pool 512M --image install --timeout 240
#
# The system as `make install DESTDIR=... PREFIX=/usr` lays it out (vmrun
# --image install overlays that tree on the guest image): modules in
# /lib/modules/KVER/updates found by modprobe, the installed mpctl and
# libmp, the shipped config and cmm-mp.service. The guest has no systemd,
# so "boot" runs what the unit would: its ExecCondition= and ExecStart=
# lines, read from the installed unit file. Then the configured segments must be online in
# their zones, check-config in sync, and a segment offlined by hand drift.
. /selftests/lib.sh

UNIT=/usr/lib/systemd/system/cmm-mp.service
CONF=/etc/cmm-mp/cmm-mp.conf
S=/sys/class/cmm_mp/mp0/segments
SEG_KB=$((128 * 1024))
KVER=$(uname -r)

# What systemd does with the unit at boot: its condition, its
# ExecCondition= commands (exit 1-254 skips the unit, 255 fails it; their
# output goes to the journal, here /tmp/cond.out), then every ExecStart=
# in order ('-' prefix: failure ignored), stopping at a failure.
unit_start() {
	cond=$(sed -n 's/^ConditionPathExists=//p' $UNIT)
	[ -z "$cond" ] || [ -e "$cond" ] || { echo "condition $cond not met"; return 0; }
	sed -n 's/^ExecCondition=//p' $UNIT > /tmp/execcond
	while read -r line; do
		eval "$line" > /tmp/cond.out 2>&1
		rc=$?
		[ $rc = 0 ] && continue
		[ $rc -lt 255 ] || { cat /tmp/cond.out; return 1; }
		echo "skipped: ExecCondition exited $rc"
		return 0
	done < /tmp/execcond
	sed -n 's/^ExecStart=//p' $UNIT > /tmp/execstart
	[ -s /tmp/execstart ] || { echo "no ExecStart= in $UNIT"; return 1; }
	while read -r line; do
		case $line in
		-*) eval "${line#-}" > /tmp/unit.out 2>&1 || true ;;
		*) eval "$line" > /tmp/unit.out 2>&1 || { cat /tmp/unit.out; return 1; } ;;
		esac
		cat /tmp/unit.out
	done < /tmp/execstart
}

# seg_zone N: the zone the first memory block of segment N is online in
seg_zone() {
	cat /sys/devices/system/memory/memory$(cat $S/seg$1/memblock_first)/valid_zones
}

tap_plan 15

check "installed: mpctl, libmp.so.1, unit, config, cmm_mp.ko in updates/" \
	"test -x /usr/bin/mpctl -a -e /usr/lib/libmp.so.1 -a -f $UNIT -a -f $CONF -a -f /lib/modules/$KVER/updates/cmm_mp.ko"
check "modprobe finds the installed module (modules.dep)" \
	"grep -q '^updates/cmm_mp.ko:' /lib/modules/$KVER/modules.dep"
check "the unit's ExecStart runs the installed mpctl apply-config" \
	"grep -q '^ExecStart=/usr/bin/mpctl apply-config --config $CONF\$' $UNIT"

# First boot with the config as shipped: nothing configured, nothing done.
check "boot with the shipped config: unit skipped by its ExecCondition (no device configured), does nothing" \
	"unit_start > /tmp/u0 && grep -q '^skipped: ExecCondition exited 1' /tmp/u0 && grep -q '\"device\":false' /tmp/cond.out && ! grep -q '^cmm_mp ' /proc/modules"

# The administrator describes the pool (the same range vmrun reserved).
cat > $CONF <<EOC
# this host's pool
[pool]
mem = $MP_POOL_MEM
seg_size = 128M

[segments 0,1]
zone = movable

[segments 2]
zone = normal

[segments 3]
online = no
EOC
diag "config: mem = $MP_POOL_MEM, segments 0,1 movable, 2 normal, 3 offline"
check "mpctl check-config --parse-only accepts it" mpctl check-config --parse-only
check "before boot: check-config reports the module missing, exit 1" \
	"! mpctl check-config > /tmp/cc.json && grep -q '\"attribute\":\"module\"' /tmp/cc.json"

M0=$(memtotal_kb)
check "boot: the unit's ExecStart lines succeed" unit_start
check "cmm_mp was loaded by modprobe with the configured mem=" \
	"grep -q '^cmm_mp ' /proc/modules && test \"\$(cat /sys/module/cmm_mp/parameters/mem)\" = '$MP_POOL_MEM'"
mpctl list > /tmp/list.json
diag "mpctl list: $(tr -d ' \n' < /tmp/list.json)"
check "mpctl list: segments 0,1,2 online-ram, 3 offline" \
	"test \"\$(tr -d ' \n' < /tmp/list.json | grep -o '\"segment\":[0-9]*,\"device\":\"mp0\",\"state\":\"[a-z-]*\"' | sed 's/.*:\"//; s/\"\$//' | tr '\n' ' ')\" = 'online-ram online-ram online-ram offline '"
check "segments 0,1 in ZONE_MOVABLE, 2 in ZONE_NORMAL (sysfs valid_zones)" \
	"test \"\$(seg_zone 0) \$(seg_zone 1) \$(seg_zone 2)\" = 'Movable Movable Normal'"
check "node $MP_POOL_NODE has three segments of memory, MemTotal grew by three" \
	"test \$(node_memtotal_kb 1) = $((3 * SEG_KB)) -a \$((\$(memtotal_kb) - M0)) = $((3 * SEG_KB))"
check "mpctl check-config: in sync, exit 0" \
	"mpctl check-config > /tmp/cc.json && grep -q '\"in_sync\":true' /tmp/cc.json"
check "the unit started again changes nothing" \
	"unit_start > /tmp/again.json && test \"\$(tr -d ' \n' < /tmp/again.json)\" = '[]'"

# Drift: a segment offlined by hand.
mpctl offline 1 > /dev/null
mpctl check-config > /tmp/cc.json 2> /tmp/cc.err
rc=$?
diag "check-config after 'mpctl offline 1': rc=$rc $(tr -d ' \n' < /tmp/cc.json) $(cat /tmp/cc.err)"
check "offline 1 by hand: check-config reports the drift, exit 1" \
	"test $rc = 1 && tr -d ' \n' < /tmp/cc.json | grep -q '\"in_sync\":false,\"drift\":\[{\"object\":\"segment\",\"segment\":1,\"attribute\":\"state\",\"want\":\"online-ram\",\"have\":\"offline\"}\]' && test \$(wc -l < /tmp/cc.err) = 1"
check "apply-config brings segment 1 back; in sync again" \
	"unit_start && mpctl check-config > /dev/null && test \"\$(cat $S/seg1/state)\" = online-ram"
