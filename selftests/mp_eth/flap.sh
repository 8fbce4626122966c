#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 2 --timeout 600
#
# Link flaps on a lossy segment. netem drops 20 % of the frames each host
# sends; both hosts take their eth0 down for 1 s every few seconds (FLAPS
# times each, out of step) while host 0 keeps verified random reads and
# writes going to host 1's DRAM in rounds (mpe_test rand against a model).
# The transport must carry every request across the flaps: no request
# fails, no byte read back differs from the model, nothing stays in
# flight. A link down for longer than the retransmission budget makes
# requests fail, boundedly: that is selftests/mp_eth/failure.sh.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh

FLAPS=${FLAPS:-5}
DONE_TOKEN=7

# flap N OFFSET: take eth0 down for 1 s, N times, 4 s apart, after OFFSET
# s; /tmp/flaps counts the times the link was seen down and up again
flap() {
	sleep "$2"
	_i=0
	: > /tmp/flaps
	while [ $_i -lt "$1" ]; do
		ip link set eth0 down
		_down=$(cat /sys/class/net/eth0/operstate)
		sleep 1
		ip link set eth0 up
		[ "$_down" = down ] && ip link show eth0 | grep -q '[<,]UP[,>]' &&
			echo flap >> /tmp/flaps
		_i=$((_i + 1))
		sleep 3
	done
}
flaps() { wc -l < /tmp/flaps; }

tap_plan 11
check "eth0 up (virtio_net)" mpe_net
# The two hosts' 1 s outages alternate every 2 s: the link is down half
# the time, and with 20 % loss each way a frame gets through two or three
# times a second while it is up. A budget of ~5 s (16 retries) still let
# one request of a CI run time out (2026-12-03); ~11 s (30) spans five
# outages, and outlives a request only with ~0.36^13 odds per frame.
check "cmm_mp and mp_eth load, retransmission budget ~11 s" \
	mpe_load rto_initial_us=20000 rto_max_us=400000 max_retries=30
check "netem loss 20% on eth0" \
	"modprobe sch_netem && tc qdisc replace dev eth0 root netem loss 20%"
check "barrier: both hosts answer" barrier 1 180

if [ "$MP_HOST" = 1 ]; then
	flap "$FLAPS" 1
	check "host 1 took eth0 down and up $(flaps) times" test "$(flaps)" = "$FLAPS"
	check "told host 0 the flaps are over" signal_token 0 1 $DONE_TOKEN 120
	check "end barrier" end_barrier 2 300
	# host 0 checks the data; host 1, the responder, its side of it
	mpe_test peer 0 >&2
	check "host 1 answered host 0 across the flaps: rx $(peer_stat 0 rx), tx $(peer_stat 0 tx) frames (> 10000 each)" \
		"test $(peer_stat 0 rx) -gt 10000 && test $(peer_stat 0 tx) -gt 10000"
	check "host 0's retransmitted requests reached host 1 as duplicates ($(peer_stat 0 duplicates))" \
		test "$(peer_stat 0 duplicates)" -gt 0
	check "nothing of host 0's malformed or refused ($(peer_stat 0 malformed), $(peer_stat 0 refused))" \
		"test $(peer_stat 0 malformed) = 0 && test $(peer_stat 0 refused) = 0"
	check "nothing left in flight on host 1 ($(info_val inflight))" test "$(info_val inflight)" = 0
	exit 0
fi

flap "$FLAPS" 3 &
flapper=$!
rounds=0 errs=0 mism=0 moved=0
while :; do
	rounds=$((rounds + 1))
	mpe_test rand -d 1 -r "$(region 0)" -s 8M -b 8M -j 2 -m 1M -S $((rounds + 100)) > /tmp/rand.out 2>&1
	rc=$?
	cat /tmp/rand.out >&2
	e=$(sed -n 's/.* \([0-9]*\) errors.*/\1/p' /tmp/rand.out)
	m=$(sed -n 's/.* \([0-9]*\) mismatches.*/\1/p' /tmp/rand.out)
	mb=$(sed -n 's/.*moved \([0-9]*\) MiB.*/\1/p' /tmp/rand.out)
	errs=$((errs + ${e:-1} + rc))
	mism=$((mism + ${m:-1}))
	moved=$((moved + ${mb:-0}))
	[ $errs = 0 ] && [ $mism = 0 ] || break
	mpe_test await 1 $DONE_TOKEN 0.1 2> /dev/null && [ $rounds -ge 2 ] && break
	[ $rounds -lt 100 ] || break
done
wait $flapper
diag "$rounds rounds, $moved MiB moved, $errs errors, $mism mismatches"
check "host 0 took eth0 down and up $(flaps) times" test "$(flaps)" = "$FLAPS"
check "host 1's flaps are over (token $DONE_TOKEN)" await_token 1 $DONE_TOKEN 120
check "$rounds rounds of verified random I/O across the flaps, $moved MiB moved: no request failed" \
	test $errs = 0 -a "$rounds" -ge 2
check "every byte read back matched the model ($mism mismatches)" test $mism = 0
check "moved at least 32 MiB ($moved)" test $moved -ge 32
mpe_test peer 1 >&2
check "retransmissions carried it ($(peer_stat 1 retransmits)), nothing left in flight ($(info_val inflight))" \
	"test $(peer_stat 1 retransmits) -gt 0 && test $(info_val inflight) = 0"
check "end barrier" end_barrier 2 300
