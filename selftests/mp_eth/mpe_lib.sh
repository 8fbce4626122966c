#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the mp_eth guest scenarios (sourced after /selftests/lib.sh).
# Layout of every device's DRAM in these tests: the first 4 KiB hold the
# barrier slots of mpe_test; requester i works in [REGION(i), +REGION_SIZE).

MIB=1048576
REGION_SIZE=$((32 * MIB))
region() { echo $((MIB + $1 * REGION_SIZE)); }

# The MAC table of scripts/vmrun: host i has 52:54:00:6d:70:0<i+1>.
mpe_macs() {
	_m= _i=0
	while [ $_i -lt "$MP_HOSTS" ]; do
		_m="$_m${_m:+,}52:54:00:6d:70:0$((_i + 1))"
		_i=$((_i + 1))
	done
	echo "$_m"
}

# mpe_net: bring up eth0
mpe_net() {
	modprobe virtio_pci 2>/dev/null
	modprobe virtio_net && ip link set eth0 up
}

# mpe_load [mp_eth params]: cmm_mp on the pool, then mp_eth on eth0
mpe_load() {
	load_cmm_mp &&
	load_mp_eth netdev=eth0 devid="$MP_HOST" \
		peers="$(mpe_macs)" "$@"
}

# peer_stat ID COUNTER / info_val KEY
# end_barrier TOKEN SECS: the last barrier of a lossy scenario; then stay
# for the retransmission budget, so that a peer whose last acknowledgment
# was lost is still answered (mpe_test linger)
end_barrier() { barrier "$1" "$2" && mpe_test linger; }
peer_stat() { mpe_test peer "$1" | awk -v k="$2" '$1 == k { print $2 }'; }
info_val() { mpe_test info | awk -v k="$1" '$1 == k { print $2 }'; }

# check_diag (lib.sh's check() adds it to a failure): this device's
# transport and its counters with every peer, one line each, and the
# module's last messages
check_diag() {
	echo "info: $(mpe_test info 2>&1 | tr '\n' ' ')"
	for _p in $(others); do
		echo "peer $_p: $(mpe_test peer "$_p" 2>&1 | tr '\n' ' ')"
	done
	dmesg | grep 'mp_eth' | tail -n 3
}

# netem on eth0 as the issue asks for
mpe_netem() {
	modprobe sch_netem &&
	tc qdisc replace dev eth0 root netem loss 5% duplicate 2% reorder 25% delay 1ms
}

# The pool device and the pool it formed (discovery scenarios)
D=/sys/class/cmm_mp/mp0
flat() { tr -d ' \n'; }
pstate() { cat $D/pool_state; }
devs_up() { mpctl list -D | flat | grep -o '"state":"up"' | wc -l; }
# runtime_with N: the pool is formed with N devices up
runtime_with() { test "$(pstate)" = runtime && test "$(devs_up)" = "$1"; }
# mp_eth with discovery (no peers=) on eth0
load_eth() { load_mp_eth netdev=eth0 "$@"; }

# pool_up N SECS [LOAD]: how every discovery scenario starts, four test
# points: eth0 up, cmm_mp and mp_eth (discovery) loaded, the pool formed
# with N devices up within SECS, barrier 1. LOAD is how mp_eth is loaded:
# load_eth (the default), or load_keyed (hostile_lib.sh: key 7, $K1,
# signs every frame).
pool_up() {
	_pu_load=${3:-load_eth} _pu_how= _pu_under=
	if [ "$_pu_load" = load_keyed ]; then
		printf '%s\n' "$K1" > /tmp/k1
		_pu_how=", key 7 signs every frame" _pu_under=" under the key"
	fi
	check "eth0 up (virtio_net)" mpe_net
	check "cmm_mp and mp_eth (discovery) load$_pu_how" \
		"load_cmm_mp && $_pu_load"
	check "pool formed$_pu_under: runtime, $1 devices up" \
		wait_until "$2" runtime_with "$1"
	check "barrier 1: every device answers" barrier 1 120
}

# every other host id
others() {
	_i=0
	while [ $_i -lt "$MP_HOSTS" ]; do
		[ $_i != "$MP_HOST" ] && echo $_i
		_i=$((_i + 1))
	done
}
