#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench-transport` (bench/transport.sh boots two hosts
# with it; not a check scenario). Host 0 measures, host 1 serves:
#   mp_eth: 64 B read latency (p50, p99), 8 MiB read and write bandwidth;
#   Soft-RoCE on the same eth0: ib_read_lat -R, ib_read_bw -R, ib_write_bw -R.
# Results go out as "# RESULT key value" lines.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh

LAT_N=${BENCH_LAT_N:-2000}
BW_N=${BENCH_BW_N:-8}
IB_LAT_N=${BENCH_IB_LAT_N:-1000}
IB_BW_N=${BENCH_IB_BW_N:-8}
SRV=10.77.0.2

tap_plan 4
# busy-poll for responses, as perftest polls its completion queue
check "eth0 up, mp_eth loaded" "mpe_net && mpe_load poll_us=${BENCH_POLL_US:-2000}"
check "Soft-RoCE rxe0 on eth0 (10.77.0.$((MP_HOST + 1))/24)" \
	"ip addr add 10.77.0.$((MP_HOST + 1))/24 dev eth0 && modprobe crc32_generic && modprobe rdma_rxe && modprobe rdma_ucm && rdma link add rxe0 type rxe netdev eth0"
check "barrier" mpe_test barrier 1 120

if [ "$MP_HOST" = 1 ]; then
	# servers, one after the other, each waiting for its client
	ib_read_lat -R -d rxe0 -s 64 -n "$IB_LAT_N" >&2 &&
	ib_read_bw -R -d rxe0 -s 8388608 -n "$IB_BW_N" >&2 &&
	ib_write_bw -R -d rxe0 -s 8388608 -n "$IB_BW_N" >&2
	check "Soft-RoCE servers done; end barrier" mpe_test barrier 2 300
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
res() { echo "# RESULT $1 $2"; }

mpe_test lat -d 1 -r "$(region 0)" -s 64 -n "$LAT_N" > /tmp/l
cat /tmp/l >&2
res mpe_lat_p50_us "$(sed -n 's/.*p50_us \([0-9.]*\).*/\1/p' /tmp/l)"
res mpe_lat_p99_us "$(sed -n 's/.*p99_us \([0-9.]*\).*/\1/p' /tmp/l)"
mpe_test bw -d 1 -r "$(region 0)" -s 8M -n "$BW_N" > /tmp/b
res mpe_read_MiBps "$(sed -n 's/.*MiBps \([0-9.]*\).*/\1/p' /tmp/b)"
mpe_test bw -d 1 -r "$(region 0)" -s 8M -n "$BW_N" -w > /tmp/b
res mpe_write_MiBps "$(sed -n 's/.*MiBps \([0-9.]*\).*/\1/p' /tmp/b)"

sleep 2
ib ib_read_lat -R -d rxe0 -s 64 -n "$IB_LAT_N"
cat /tmp/ib.out >&2
# columns: bytes iterations t_min t_max t_typical t_avg t_stdev 99% 99.9%
res rxe_lat_p50_us "$(awk '$1 == 64 { print $5 }' /tmp/ib.out)"
res rxe_lat_p99_us "$(awk '$1 == 64 { print $8 }' /tmp/ib.out)"
sleep 2
ib ib_read_bw -R -d rxe0 -s 8388608 -n "$IB_BW_N"
cat /tmp/ib.out >&2
# columns: bytes iterations BW_peak BW_average MsgRate (perftest's MB/sec: 2^20 B/s)
res rxe_read_MiBps "$(awk '$1 == 8388608 { print $4 }' /tmp/ib.out)"
sleep 2
ib ib_write_bw -R -d rxe0 -s 8388608 -n "$IB_BW_N"
cat /tmp/ib.out >&2
res rxe_write_MiBps "$(awk '$1 == 8388608 { print $4 }' /tmp/ib.out)"
check "end barrier" mpe_test barrier 2 300
