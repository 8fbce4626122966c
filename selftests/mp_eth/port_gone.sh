#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --pool 256M --timeout 240
#
# The port goes away under the transport (ip link del, a hot-unplugged
# NIC): mp_eth lets go of it at NETDEV_UNREGISTER, so the unregistration
# completes (before, mp_eth's reference kept it waiting until the module
# was unloaded, with RTNL held), says so, sends nothing more, and unloads
# cleanly afterwards.
. /selftests/lib.sh

tap_plan 6
check "veth pair mpv0/mpv1 up" \
	"modprobe veth && ip link add mpv0 type veth peer name mpv1 &&
	 ip link set mpv0 up && ip link set mpv1 up"
check "cmm_mp, and mp_eth with discovery on mpv0" \
	"load_cmm_mp && load_mp_eth netdev=mpv0 && dmesg | grep -q 'mp_eth: discovery on mpv0'"
TX=/sys/class/misc/mp_eth/datapath/frames_tx
check "ip link del mpv0 completes within 20 s" "timeout 20 ip link del mpv0"
check "mpv0 and mpv1 are gone; mp_eth said why" \
	"! ip link show mpv0 2>/dev/null && ! ip link show mpv1 2>/dev/null &&
	 dmesg | grep -q 'mpv0: the port goes away: the transport stops'"
check "discovery goes on (heartbeats every $(cat /sys/module/mp_eth/parameters/hb_interval_ms) ms) but sends nothing: frames_tx does not move for 2 s" \
	"f0=\$(cat $TX) && sleep 2 && test \$(cat $TX) = \$f0"
check "mp_eth and cmm_mp unload" "rmmod mp_eth && rmmod cmm_mp"
