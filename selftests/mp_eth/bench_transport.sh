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
check "barrier" mpe_test barrier 1 120

IB_LAT="ib_read_lat ib_write_lat ib_send_lat"
IB_BW="ib_read_bw ib_write_bw ib_send_bw"
if [ "$MP_HOST" = 1 ]; then
	# servers, one after the other, each waiting for its client
	ok=0
	for t in $IB_LAT; do
		$t -R -d rxe0 -s 64 -n "$IB_LAT_N" >&2 || ok=1
	done
	for t in $IB_BW; do
		$t -R -d rxe0 -s 8388608 -n "$IB_BW_N" >&2 || ok=1
	done
	mpe_test barrier 2 300
	check "Soft-RoCE servers done; end barrier" "test $ok = 0 -a $? = 0"
	exit 0
fi

# client: retry until the server listens
ib() {
	_i=0
	while [ $_i -lt 30 ]; do
		"$@" $SRV > /tmp/ib.out 2>&1 && return 0
		_i=$((_i + 1))
		sleep 1
	done
	cat /tmp/ib.out >&2
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
for t in $IB_LAT; do
	sleep 2
	ib $t -R -d rxe0 -s 64 -n "$IB_LAT_N"
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
for t in $IB_BW; do
	sleep 2
	ib $t -R -d rxe0 -s 8388608 -n "$IB_BW_N"
	cat /tmp/ib.out >&2
	k=${t#ib_}
	res rxe_${k%_bw}_MiBps "$(ibcol 8388608 4)"
done
check "end barrier" mpe_test barrier 2 300
