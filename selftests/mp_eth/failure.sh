#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 2 --timeout 400
#
# Peer failure. Host 0 keeps requests going to host 1 (4 threads, reads and
# writes up to 256 KiB) while host 1
#   A. takes its port down for 5 s and up again,
#   B. unloads mp_eth for 4 s and loads it again,
#   C. powers off abruptly (QEMU isa-debug-exit: the machine is gone at
#      once, as after a power cut).
# Each time, every request in flight must fail within the bound
# (mp_rift_fail_time(), 1.55 s with the defaults; asserted <= 2 s per
# request, K times that where the timers are stretched), later ones fail
# fast (EHOSTUNREACH), nothing stays in the RIFT, and after A and B traffic
# resumes by itself (probes). Host 0 also reads mp_eth's tracepoints
# through tracefs (Documentation/mp_eth.rst): mp_eth_send and mp_eth_recv
# for a few requests, mp_eth_retransmit and mp_eth_timeout during A.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh

R=$(region 0)

# host 0: one phase of the stream and its checks
phase() {	# NAME TOKEN SECONDS RECOVERS(0/1)
	check "$1: host 1 told to go (token $2)" signal_token 1 0 "$2" 120
	mpe_test stream -d 1 -r "$R" -s $REGION_SIZE -j 4 -m 256K -T "$3" > /tmp/s
	cat /tmp/s >&2
	v() { awk -v k="$1" '$1 == k { print $2 }' /tmp/s; }
	diag "$1: ok $(v ok), ETIMEDOUT $(v etimedout), EHOSTUNREACH $(v ehostunreach), slowest failure $(v max_fail_ms) ms, first error at $(v first_err_ms) ms, last error at $(v last_err_ms) ms, last success at $(v last_ok_ms) ms"
	check "$1: requests in flight failed with ETIMEDOUT ($(v etimedout)), no other error" \
		"test $(v etimedout) -gt 0 && test $(v other_errors) = 0"
	check "$1: every failed request returned within ${BOUND_MS} ms (slowest $(v max_fail_ms) ms)" \
		test "$(v max_fail_ms)" -le $BOUND_MS
	check "$1: later requests failed fast (EHOSTUNREACH $(v ehostunreach))" \
		test "$(v ehostunreach)" -gt 0
	check "$1: no RIFT entry left in flight" test "$(info_val inflight)" = 0
	if [ "$4" = 1 ]; then
		check "$1: traffic resumed (last success after the last error)" \
			test "$(v last_ok_ms)" -gt "$(v last_err_ms)"
	else
		check "$1: nothing succeeded after the peer was gone" \
			test "$(v last_ok_ms)" -lt "$(v first_err_ms)"
	fi
}

if [ "$MP_HOST" = 0 ]; then
	tap_plan 26
else
	tap_plan 8
fi
check "eth0 up (virtio_net)" mpe_net
check "cmm_mp and mp_eth load" mpe_load
check "barrier: every peer answers" barrier 1 120
# The timeline is in units of K: 1 with the default timers, more where they
# are stretched (the debug kernel, lib.sh), so that an outage still
# outlasts the failure bound and the stream outlasts the outage.
FAIL_MS=$(info_val fail_ms)
K=$(( (FAIL_MS + 1549) / 1550 ))

# trace_only EVENT...: from now on the trace buffer holds only these
# mp_eth events (few enough that none is overwritten)
T=/sys/kernel/tracing
trace_only() {
	{ [ -e $T/events ] || mount -t tracefs nodev $T; } &&
	echo 0 > $T/tracing_on && echo > $T/trace &&
	echo 0 > $T/events/mp_eth/enable || return 1
	for _e in "$@"; do echo 1 > $T/events/mp_eth/"$_e"/enable || return 1; done
	echo 1 > $T/tracing_on
}
# traced EVENT: how many EVENT lines the trace buffer holds (after a
# trace_only, tracing off)
traced() { grep -c " $1: " $T/trace; }

if [ "$MP_HOST" = 0 ]; then
	check "tracefs: mp_eth_send and mp_eth_recv enabled" trace_only mp_eth_send mp_eth_recv
	mpe_test lat -d 1 -s 64 -n 20 >&2
	echo 0 > $T/tracing_on
	grep -m 4 ' mp_eth_send: \| mp_eth_recv: ' $T/trace | sed 's/^/# /'
	check "tracepoints: 20 reads of host 1 traced: mp_eth_send $(traced mp_eth_send), mp_eth_recv $(traced mp_eth_recv) (>= 20 each)" \
		"test $(traced mp_eth_send) -ge 20 && test $(traced mp_eth_recv) -ge 20"
	# (a failure here fails the check after phase A: nothing traced)
	trace_only mp_eth_retransmit mp_eth_timeout || diag "tracefs: cannot enable mp_eth_retransmit and mp_eth_timeout"
	# the sum of all retransmission timeouts plus timer slack
	BOUND_MS=$((2000 * K))
	diag "failure bound: $FAIL_MS ms + timer slack = $BOUND_MS ms"
	phase "port down/up" 10 $((16 * K)) 1
	echo 0 > $T/tracing_on
	grep -m 2 ' mp_eth_retransmit: ' $T/trace | sed 's/^/# /'
	grep -m 2 ' mp_eth_timeout: ' $T/trace | sed 's/^/# /'
	check "tracepoints during A: mp_eth_retransmit $(traced mp_eth_retransmit), mp_eth_timeout $(traced mp_eth_timeout), only to host 1" \
		"test $(traced mp_eth_retransmit) -gt 0 && test $(traced mp_eth_timeout) -gt 0 && ! grep ' mp_eth_retransmit: \| mp_eth_timeout: ' $T/trace | grep -v ' dst=1 '"
	echo 0 > $T/events/mp_eth/enable
	phase "mp_eth reload" 11 $((14 * K)) 1
	phase "power off" 12 $((10 * K)) 0
	mpe_test peer 1 >&2
	check "counters: timeouts and fast fails counted" \
		"test \$(peer_stat 1 timeouts) -gt 0 && test \$(peer_stat 1 fast_fails) -gt 0 && test \$(peer_stat 1 reachable) = 0"
	check "mp_eth unloads after the peer died" rmmod mp_eth
	exit 0
fi

# host 1: the victim
# A port that is down sends nothing, however mp_eth hands its frames over
# (tx.c): host 1's own 64 KiB write to host 0 in the outage (batches of
# 8 frames) fails, and eth0's transmit count stays where it was.
TXP=/sys/class/net/eth0/statistics/tx_packets
down_write() {
	_tx0=$(cat $TXP)
	mpe_test fill 0 "$(region 1)" 65536 5 > /tmp/down_w 2>&1
	_rc=$?
	_tx1=$(cat $TXP)
	diag "A: write in the outage: exit $_rc ($(tail -n 1 /tmp/down_w)), tx_packets $_tx0 -> $_tx1"
	[ -n "$_tx0" ] && [ $_rc != 0 ] && [ "$_tx0" = "$_tx1" ]
}
check "A: go" await_token 0 10 120
sleep $((4 * K))
check "A: port down for $((5 * K)) s, up again; a write meanwhile failed and not one frame left" \
	"ip link set eth0 down && t0=\$(date +%s) && down_write; r=\$?;
	 sleep \$((5 * K - (\$(date +%s) - t0))); ip link set eth0 up && test \$r = 0"
check "B: go" await_token 0 11 120
sleep $((4 * K))
check "B: mp_eth unloaded for $((4 * K)) s, loaded again" \
	"rmmod mp_eth && sleep $((4 * K)) && load_mp_eth netdev=eth0 devid=$MP_HOST peers=$(mpe_macs)"
check "C: go" await_token 0 12 120
sleep $((3 * K))
# The power goes: guest-init gives the result of what ran so far (a failed
# point fails it) with its kernel log check, and QEMU exits at once.
exec /init --power-cut
