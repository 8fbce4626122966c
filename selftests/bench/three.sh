#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench`, part "three" (three hosts): 2 against 3
# hosts. Host 0 reads 8 MiB transfers from one peer (host 1: a pool of 2
# hosts' traffic) and then from two peers at once (hosts 1 and 2: a pool
# of 3), with mp_eth (mpe_test bw) and with Soft-RoCE (ib_read_bw), ours
# then the peer, for BENCH_ROUNDS rounds; the aggregate MiB/s of each is a
# sample (hosts3_{mpe,rxe}_read_{1,2}peer_MiBps). Both poll (mp_eth with
# poll_us=BENCH_POLL_US, 2000, as perftest polls its completion queue).
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh

BW_N=${BENCH_BW_N:-8}
IB_BW_N=${BENCH_IB_BW_N:-8}
ROUNDS=$(seq 1 "${BENCH_ROUNDS:-5}")
POLL_US=${BENCH_POLL_US:-2000}
PORT=18600

tap_plan 4
check "eth0 up, mp_eth loaded (poll_us=$POLL_US)" "mpe_net && mpe_load poll_us=$POLL_US"
check "Soft-RoCE rxe0 on eth0 (10.77.0.$((MP_HOST + 1))/24)" \
	"ip addr add 10.77.0.$((MP_HOST + 1))/24 dev eth0 && modprobe crc32_generic && modprobe rdma_rxe && modprobe rdma_ucm && rdma link add rxe0 type rxe netdev eth0"
check "barrier" barrier 1 120
if [ "$MP_HOST" != 0 ]; then
	# one client per run: the server runs again for the next one, until
	# host 0 is done (the loop holds the TAP stream open: end it then)
	while :; do
		timeout 900 ib_read_bw -R -d rxe0 -p $PORT -s 8388608 -n "$IB_BW_N" >> /tmp/srv 2>&1 ||
			sleep 1
	done &
	loop=$!
	barrier 2 3000
	rc=$?
	kill $loop
	cat /tmp/srv >&2
	check "end barrier (the client reports failures)" "test $rc = 0"
	exit 0
fi

res() { echo "# RESULT hosts3_$1 $2"; }
# rxe_bw HOST OUT: ib_read_bw against HOST, retried until its server listens
rxe_bw() {
	_end=$(($(date +%s) + 150))
	while [ "$(date +%s)" -lt $_end ]; do
		timeout 120 ib_read_bw -R -d rxe0 -p $PORT -s 8388608 -n "$IB_BW_N" \
			"10.77.0.$(($1 + 1))" > "$2" 2>&1 && return 0
		grep -q 'Parser function exited with Error' "$2" && break
		sleep 1
	done
	cat "$2" >&2
	: > "$2"
	return 1
}
mpe_bw() { mpe_test bw -d "$1" -r "$(region 0)" -s 8M -n "$BW_N" > "$2" 2>&1; }
# the sum of the MiB/s of FILEs (mpe_test's "MiBps X", perftest's BW average)
mpe_sum() { sed -n 's/.*MiBps \([0-9.]*\).*/\1/p' "$@" | awk '{ s += $1; n++ } END { if (n) print s }'; }
rxe_sum() { awk '$1 == 8388608 { s += $4; n++ } END { if (n) print s }' "$@"; }

info() { echo "# INFO hosts3_$1 $2"; }
info setup "host 0 reads 8 MiB transfers from host 1 alone, then from hosts 1 and 2 at once"
for r in $ROUNDS; do
	echo "# round $r"
	mpe_bw 1 /tmp/m1; cat /tmp/m1 >&2
	res mpe_read_1peer_MiBps "$(mpe_sum /tmp/m1)"
	rxe_bw 1 /tmp/r1; cat /tmp/r1 >&2
	res rxe_read_1peer_MiBps "$(rxe_sum /tmp/r1)"
	mpe_bw 1 /tmp/m1 & mpe_bw 2 /tmp/m2; wait
	cat /tmp/m1 /tmp/m2 >&2
	[ -s /tmp/m1 ] && [ -s /tmp/m2 ] && res mpe_read_2peer_MiBps "$(mpe_sum /tmp/m1 /tmp/m2)"
	rxe_bw 1 /tmp/r1 & rxe_bw 2 /tmp/r2; wait
	cat /tmp/r1 /tmp/r2 >&2
	[ -s /tmp/r1 ] && [ -s /tmp/r2 ] && res rxe_read_2peer_MiBps "$(rxe_sum /tmp/r1 /tmp/r2)"
done
check "end barrier" barrier 2 3000
