#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench-transport` and of the transport parts of
# `make bench` (bench/transport.sh, bench/run boot two hosts with it; not a
# check scenario). Host 0 measures, host 1 serves; BENCH_ROUNDS rounds,
# each measure of mp_eth followed by its Soft-RoCE peer (ours, peer, ours,
# peer, ...), one "# RESULT key value" line per round and measure:
#   mp_eth: 64 B read and write latency (p50, p99; a write counts until it
#   is acknowledged), 4 KiB read latency, 8 MiB read and write bandwidth;
#   64 B read latency and 8 MiB read bandwidth again with poll_napi=N
#   (mpe_spinlat_*, mpe_spinread_*: spinning without polling the queue);
#   Soft-RoCE on the same eth0 (rdma_cm, perftest): ib_read_lat at 64 B
#   and 4 KiB, ib_write_lat, ib_send_lat at 64 B, ib_read_bw, ib_write_bw,
#   ib_send_bw at 8 MiB; and a request-size sweep, every power of two
#   from 64 B to 8 MiB, BENCH_SWEEP_N reads each (0: none), mpe_test lat
#   against ib_read_lat -a (mpe_sweep_SIZE_p50_us, rxe_sweep_SIZE_p50_us).
#   perftest reports write and send latency as half of
#   a ping-pong round trip; the *_rtt_* results double it so that both
#   sides compare round trips.
# Around each of our runs the data-path counters of mp_eth
# (/sys/class/misc/mp_eth/datapath/: frames_tx, frames_rx, copied_bytes,
# payload_bytes) are read when the module has them, for the per-frame cost
# (mpe_dp_<run>_*); "# INFO" lines state the payload per frame of both
# sides, the polling policy and whether the counters exist. On a jumbo
# segment (MP_MTU > 1500) every key starts with "jumbo_".
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh

LAT_N=${BENCH_LAT_N:-2000}
BW_N=${BENCH_BW_N:-8}
IB_LAT_N=${BENCH_IB_LAT_N:-1000}
IB_BW_N=${BENCH_IB_BW_N:-8}
ROUNDS=$(seq 1 "${BENCH_ROUNDS:-5}")
POLL_US=${BENCH_POLL_US:-2000}
SWEEP_N=${BENCH_SWEEP_N:-10}
SWEEP_SIZES=$(awk 'BEGIN { for (s = 64; s <= 8388608; s *= 2) print s }')
DP=/sys/class/misc/mp_eth/datapath
SRV=10.77.0.2
KP=
[ "${MP_MTU:-1500}" -gt 1500 ] && KP=jumbo_

tap_plan 4
# busy-poll for responses, as perftest polls its completion queue
check "eth0 up (MTU ${MP_MTU:-1500}), mp_eth loaded" "mpe_net && mpe_load poll_us=$POLL_US"
check "Soft-RoCE rxe0 on eth0 (10.77.0.$((MP_HOST + 1))/24)" \
	"ip addr add 10.77.0.$((MP_HOST + 1))/24 dev eth0 && modprobe crc32_generic && modprobe rdma_rxe && modprobe rdma_ucm && rdma link add rxe0 type rxe netdev eth0"
check "barrier" barrier 1 120

# Every perftest pair has its own port, and every server listens before
# host 0 starts. Now and then a perftest 4.5 client faults in librdmacm
# while it connects (seen under load, mostly at MTU 9000): that costs its
# measure, which the report shows as skipped, and not the ones after it.
READY=9
IB_TESTS="ib_read_lat ib_read_lat4k ib_write_lat ib_send_lat ib_read_bw ib_write_bw ib_send_bw"
[ "$SWEEP_N" -gt 0 ] && IB_TESTS="$IB_TESTS ib_read_lat_all"
ib_port() {
	_p=18515
	for _t in $IB_TESTS; do
		[ "$_t" = "$1" ] && { echo $_p; return; }
		_p=$((_p + 1))
	done
}
ib_bin() {	# ib_read_lat4k: ib_read_lat -s 4096, ib_read_lat_all: -a
	case $1 in
	ib_read_lat4k|ib_read_lat_all) echo ib_read_lat ;;
	*) echo "$1" ;;
	esac
}
ib_args() {	# TEST: size and iterations
	case $1 in
	*_lat_all) echo "-a -n $SWEEP_N" ;;
	*_lat4k) echo "-s 4096 -n $IB_LAT_N" ;;
	*_lat) echo "-s 64 -n $IB_LAT_N" ;;
	*) echo "-s 8388608 -n $IB_BW_N" ;;
	esac
}
if [ "$MP_HOST" = 1 ]; then
	# a perftest server serves one client: each runs again for the next
	# round, until host 0 is done (the loops hold the TAP stream open:
	# they end then)
	loops=
	for t in $IB_TESTS; do
		# shellcheck disable=SC2046
		while :; do
			timeout 900 "$(ib_bin $t)" -R -d rxe0 -p "$(ib_port $t)" $(ib_args $t) >> /tmp/srv.$t 2>&1 ||
				sleep 1
		done &
		loops="$loops $!"
	done
	# rdma_cm listens once the device is set up: give them the time
	sleep 5
	mpe_test signal 0 1 $READY 120
	barrier 2 3000
	rc=$?
	# shellcheck disable=SC2086 # pids
	kill $loops
	cat /tmp/srv.* >&2
	check "end barrier (Soft-RoCE servers: the client reports failures)" "test $rc = 0"
	exit 0
fi

# client TEST: retry until its server listens, for 150 s at most
ib() {
	_end=$(($(date +%s) + 150))
	while [ "$(date +%s)" -lt $_end ]; do
		# shellcheck disable=SC2046
		timeout 120 "$(ib_bin "$1")" -R -d rxe0 -p "$(ib_port "$1")" $(ib_args "$1") $SRV > /tmp/ib.out 2>&1 && return 0
		# its arguments are wrong (perftest's bw tests want 5 iterations
		# or more): no retry makes them right
		grep -q 'Parser function exited with Error' /tmp/ib.out && break
		sleep 1
	done
	cat /tmp/ib.out >&2
	echo "# $1 failed: its measures are skipped"
	: > /tmp/ib.out
	return 1
}
res() { echo "# RESULT $KP$1 $2"; }
# field N of perftest's result row for SIZE bytes, times FACTOR
ibcol() { awk -v s="$1" -v c="$2" -v f="${3:-1}" '$1 == s { print $c * f; exit }' /tmp/ib.out; }

# the counters of the data path, when the module has them
dp_snap() {	# FILE
	for _c in frames_tx frames_rx copied_bytes payload_bytes; do
		echo "$_c $(cat $DP/$_c)"
	done > "$1"
	awk '{ printf "ms %d\n", $1 * 1000 }' /proc/uptime >> "$1"
}
dp_res() {	# RUN: the differences since dp_snap /tmp/dp0
	[ -d $DP ] || return 0
	dp_snap /tmp/dp1
	awk -v p="$KP$1_" 'NR == FNR { a[$1] = $2; next } { print "# RESULT " p $1 " " $2 - a[$1] }' \
		/tmp/dp0 /tmp/dp1
}
dp_start() { [ -d $DP ] && dp_snap /tmp/dp0; }
info() { echo "# INFO $KP$1 $2"; }
if [ -d $DP ]; then
	info mpe_datapath "$DP (frames_tx, frames_rx, copied_bytes, payload_bytes)"
else
	info mpe_datapath "absent: the module has no $DP"
fi
info mpe_payload_per_frame "$(info_val max_payload) B (mp_eth max_payload, MTU ${MP_MTU:-1500})"
info mpe_window "$(cat /sys/module/mp_eth/parameters/window_frames) frames in flight per peer (mp_eth window_frames)"
info rxe_payload_per_frame "$(ibv_devinfo -d rxe0 | awk '$1 == "active_mtu:" { print $2 }') B (RoCE active_mtu)"
info mpe_polling "poll_us=$POLL_US (a request busy-polls for its response up to this long)"
info rxe_polling "perftest busy-polls its completion queue"

# latency columns: bytes iterations t_min t_max t_typical t_avg t_stdev 99% 99.9%
# bandwidth columns: bytes iterations BW_peak BW_average MsgRate
# (perftest's MB/sec: 2^20 B/s)
rxe() {	# TEST: one Soft-RoCE measure, its RESULTs
	ib "$1"
	cat /tmp/ib.out >&2
	case $1 in
	ib_read_lat)
		res rxe_lat_p50_us "$(ibcol 64 5)"
		res rxe_lat_p99_us "$(ibcol 64 8)" ;;
	ib_read_lat_all)
		for _s in $SWEEP_SIZES; do
			res "rxe_sweep_${_s}_p50_us" "$(ibcol "$_s" 5)"
		done ;;
	ib_read_lat4k)
		res rxe_lat4k_p50_us "$(ibcol 4096 5)"
		res rxe_lat4k_p99_us "$(ibcol 4096 8)" ;;
	ib_write_lat)
		res rxe_wlat_p50_us "$(ibcol 64 5)"
		res rxe_wlat_rtt_p50_us "$(ibcol 64 5 2)" ;;
	ib_send_lat)
		res rxe_slat_p50_us "$(ibcol 64 5)"
		res rxe_slat_rtt_p50_us "$(ibcol 64 5 2)" ;;
	*_bw)
		_k=${1#ib_}
		res "rxe_${_k%_bw}_MiBps" "$(ibcol 8388608 4)" ;;
	esac
}
mpe_lat() {	# KEY SIZE [-w]: one latency run of ours
	dp_start
	mpe_test lat -d 1 -r "$(region 0)" -s "$2" -n "$LAT_N" $3 > /tmp/l
	cat /tmp/l >&2
	[ "$1" = lat ] && dp_res mpe_dp_lat
	res "mpe_$1_p50_us" "$(sed -n 's/.*p50_us \([0-9.]*\).*/\1/p' /tmp/l)"
	res "mpe_$1_p99_us" "$(sed -n 's/.*p99_us \([0-9.]*\).*/\1/p' /tmp/l)"
}
mpe_bw() {	# DIR [-w]: one bandwidth run of ours
	dp_start
	mpe_test bw -d 1 -r "$(region 0)" -s 8M -n "$BW_N" $2 > /tmp/b
	cat /tmp/b >&2
	dp_res "mpe_dp_$1"
	res "mpe_$1_MiBps" "$(sed -n 's/.*MiBps \([0-9.]*\).*/\1/p' /tmp/b)"
	# the round trip the requester measured by then, with its own
	# queue in it, and the timeout it gives frames (retransmission)
	res "mpe_$1_srtt_us" "$(peer_stat 1 srtt_us)"
	res "mpe_$1_rto_us" "$(peer_stat 1 rto_us)"
}

# spin_only CMD...: CMD with mp_eth spinning on its transfers only, not
# polling the receive queue (poll_napi=N), when the module has the switch:
# the same measure both ways in each round (mpe_spin* keys)
PN=/sys/module/mp_eth/parameters/poll_napi
spin_only() {
	[ -w $PN ] || return 0
	echo N > $PN
	"$@"
	echo Y > $PN
}

mpe_sweep() {	# every size, SWEEP_N reads each
	for _s in $SWEEP_SIZES; do
		mpe_test lat -d 1 -r "$(region 0)" -s "$_s" -n "$SWEEP_N" > /tmp/l
		cat /tmp/l >&2
		res "mpe_sweep_${_s}_p50_us" "$(sed -n 's/.*p50_us \([0-9.]*\).*/\1/p' /tmp/l)"
	done
}

mpe_test await 1 $READY 300 || echo "# Soft-RoCE servers not ready"
for r in $ROUNDS; do
	echo "# round $r"
	mpe_lat lat 64;		rxe ib_read_lat
	spin_only mpe_lat spinlat 64
	mpe_lat lat4k 4096;	rxe ib_read_lat4k
	mpe_lat wlat 64 -w;	rxe ib_write_lat; rxe ib_send_lat
	mpe_bw read;		rxe ib_read_bw
	spin_only mpe_bw spinread
	mpe_bw write -w;	rxe ib_write_bw; rxe ib_send_bw
	if [ "$SWEEP_N" -gt 0 ]; then
		mpe_sweep;	rxe ib_read_lat_all
	fi
done
check "end barrier" barrier 2 3000
