#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench-transport` and of the transport parts of
# `make bench` (bench/transport.sh, bench/run boot two hosts with it; not a
# check scenario). Host 0 measures, host 1 serves:
#   mp_eth: 64 B read and write latency (p50, p99; a write counts until it
#   is acknowledged), 8 MiB read and write bandwidth;
#   Soft-RoCE on the same eth0 (rdma_cm, perftest): ib_read_lat,
#   ib_write_lat, ib_send_lat at 64 B, ib_read_bw, ib_write_bw, ib_send_bw
#   at 8 MiB. perftest reports write and send latency as half of a
#   ping-pong round trip; the *_rtt_* results double it so that both sides
#   compare round trips.
# Results go out as "# RESULT key value" lines; on a jumbo segment
# (MP_MTU > 1500) every key starts with "jumbo_".
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh

LAT_N=${BENCH_LAT_N:-2000}
BW_N=${BENCH_BW_N:-8}
IB_LAT_N=${BENCH_IB_LAT_N:-1000}
IB_BW_N=${BENCH_IB_BW_N:-8}
SRV=10.77.0.2
KP=
[ "${MP_MTU:-1500}" -gt 1500 ] && KP=jumbo_

tap_plan 4
# busy-poll for responses, as perftest polls its completion queue
check "eth0 up (MTU ${MP_MTU:-1500}), mp_eth loaded" "mpe_net && mpe_load poll_us=${BENCH_POLL_US:-2000}"
check "Soft-RoCE rxe0 on eth0 (10.77.0.$((MP_HOST + 1))/24)" \
	"ip addr add 10.77.0.$((MP_HOST + 1))/24 dev eth0 && modprobe crc32_generic && modprobe rdma_rxe && modprobe rdma_ucm && rdma link add rxe0 type rxe netdev eth0"
check "barrier" barrier 1 120

# Every perftest pair has its own port, and every server listens before
# host 0 starts. Now and then a perftest 4.5 client faults in librdmacm
# while it connects (seen under load, mostly at MTU 9000): that costs its
# measure, which the report shows as skipped, and not the ones after it.
READY=9
IB_TESTS="ib_read_lat ib_write_lat ib_send_lat ib_read_bw ib_write_bw ib_send_bw"
ib_port() {
	_p=18515
	for _t in $IB_TESTS; do
		[ "$_t" = "$1" ] && { echo $_p; return; }
		_p=$((_p + 1))
	done
}
ib_args() {	# TEST: size and iterations
	case $1 in
	*_lat) echo "-s 64 -n $IB_LAT_N" ;;
	*) echo "-s 8388608 -n $IB_BW_N" ;;
	esac
}
if [ "$MP_HOST" = 1 ]; then
	pids=
	for t in $IB_TESTS; do
		# shellcheck disable=SC2046
		timeout 900 $t -R -d rxe0 -p "$(ib_port $t)" $(ib_args $t) > /tmp/srv.$t 2>&1 &
		pids="$pids $!"
	done
	# rdma_cm listens once the device is set up: give them the time
	sleep 5
	mpe_test signal 0 1 $READY 120
	# host 0 is done; a server whose client failed still waits: end it
	barrier 2 1500
	rc=$?
	kill $pids 2> /dev/null
	cat /tmp/srv.* >&2
	check "end barrier (Soft-RoCE servers: the client reports failures)" "test $rc = 0"
	exit 0
fi

# client TEST: retry until its server listens, for 150 s at most
ib() {
	_end=$(($(date +%s) + 150))
	while [ "$(date +%s)" -lt $_end ]; do
		# shellcheck disable=SC2046
		timeout 120 "$1" -R -d rxe0 -p "$(ib_port "$1")" $(ib_args "$1") $SRV > /tmp/ib.out 2>&1 && return 0
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

for w in "" -w; do
	k=lat; [ -n "$w" ] && k=wlat
	mpe_test lat -d 1 -r "$(region 0)" -s 64 -n "$LAT_N" $w > /tmp/l
	cat /tmp/l >&2
	res mpe_${k}_p50_us "$(sed -n 's/.*p50_us \([0-9.]*\).*/\1/p' /tmp/l)"
	res mpe_${k}_p99_us "$(sed -n 's/.*p99_us \([0-9.]*\).*/\1/p' /tmp/l)"
done
mpe_test bw -d 1 -r "$(region 0)" -s 8M -n "$BW_N" > /tmp/b
res mpe_read_MiBps "$(sed -n 's/.*MiBps \([0-9.]*\).*/\1/p' /tmp/b)"
mpe_test bw -d 1 -r "$(region 0)" -s 8M -n "$BW_N" -w > /tmp/b
res mpe_write_MiBps "$(sed -n 's/.*MiBps \([0-9.]*\).*/\1/p' /tmp/b)"

# latency columns: bytes iterations t_min t_max t_typical t_avg t_stdev 99% 99.9%
mpe_test await 1 $READY 300 || echo "# Soft-RoCE servers not ready"
for t in ib_read_lat ib_write_lat ib_send_lat; do
	ib $t
	cat /tmp/ib.out >&2
	case $t in
	ib_read_lat)
		res rxe_lat_p50_us "$(ibcol 64 5)"
		res rxe_lat_p99_us "$(ibcol 64 8)" ;;
	ib_write_lat)
		res rxe_wlat_p50_us "$(ibcol 64 5)"
		res rxe_wlat_rtt_p50_us "$(ibcol 64 5 2)" ;;
	ib_send_lat)
		res rxe_slat_p50_us "$(ibcol 64 5)"
		res rxe_slat_rtt_p50_us "$(ibcol 64 5 2)" ;;
	esac
done
# bandwidth columns: bytes iterations BW_peak BW_average MsgRate
# (perftest's MB/sec: 2^20 B/s)
for t in ib_read_bw ib_write_bw ib_send_bw; do
	ib $t
	cat /tmp/ib.out >&2
	k=${t#ib_}
	res rxe_${k%_bw}_MiBps "$(ibcol 8388608 4)"
done
check "end barrier" barrier 2 1500
