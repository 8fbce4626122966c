#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 2 --timeout 500
#
# Two pool devices on one Ethernet segment, no impairment: random reads and
# writes of 1 B .. 8 MiB verified against a model, the local path, NAKs for
# a range outside the DRAM and for a segment the peer uses as System RAM,
# counters, and nothing left in flight. Then reads in parts against
# forged and duplicated parts (netem and mp_hostile on the responder):
# dropped and counted, each part copied once, the bytes read back those
# written. Host 0 busy-polls for its responses
# (poll_us=2000, what the benchmarks use): it takes them from its receive
# queue itself (NAPI busy polling, counted in BusyPollRxPackets); host 1
# sleeps for them (the default) and never busy-polls.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh

tap_plan 27
P=$(( (MP_HOST + 1) % MP_HOSTS ))
POLL=poll_us=0
[ "$MP_HOST" = 0 ] && POLL=poll_us=2000
# busy_rx: packets busy polling took from a receive queue (TcpExt counts
# them for every busy poller, sockets or not)
busy_rx() {
	awk '$1 == "TcpExt:" && !h { for (i = 2; i <= NF; i++) n[i] = $i; h = 1; next }
	     $1 == "TcpExt:" { for (i = 2; i <= NF; i++) if (n[i] == "BusyPollRxPackets") print $i }' \
		/proc/net/netstat
}
check "eth0 up (virtio_net)" mpe_net
check "cmm_mp and mp_eth load (devid $MP_HOST, peers $(mpe_macs), $POLL)" "mpe_load $POLL"
check "segment 1 online as System RAM here" mpctl online 1
check "barrier: every peer answers" barrier 1 120
# The first barrier may time out a request or two: the peer boots and
# loads mp_eth up to a few seconds after us (the static table calls it a
# member from the start). What follows must not.
T0=$(peer_stat "$P" timeouts)
B0=$(busy_rx)
check "rand: 1 B .. 8 MiB to device $P, verified" \
	mpe_test rand -d "$P" -r "$(region "$MP_HOST")" -s $REGION_SIZE -b 96M -j 2 -S "$MP_HOST"
if [ "$MP_HOST" = 0 ]; then
	check "busy polling took responses off the receive queue: BusyPollRxPackets $B0 -> $(busy_rx)" \
		"test -n '$B0' && test \$(busy_rx) -gt $B0"
else
	check "no busy polling without poll_us: BusyPollRxPackets $B0 -> $(busy_rx)" \
		"test '$B0' = 0 && test \$(busy_rx) = 0"
fi
check "local path: own device id is served without the network" \
	"mpe_test read $MP_HOST $(region 0) 16 >/dev/null"
check "read past the peer's DRAM: NAK ERANGE" \
	"! mpe_test read $P $((256 * MIB - 8)) 16 2>/tmp/e && grep -q ERANGE /tmp/e"
check "read of the peer's online segment: NAK EACCES" \
	"! mpe_test read $P $((128 * MIB)) 64 2>/tmp/e && grep -q EACCES /tmp/e"
mpe_test peer "$P" >&2
check "counters: tx, rx and 2 naks, no timeouts after the first barrier ($T0 before)" \
	"test \$(peer_stat $P tx) -gt 0 && test \$(peer_stat $P rx) -gt 0 && test \$(peer_stat $P naks) = 2 && test \$(peer_stat $P timeouts) = ${T0:-x}"
check "no request left in flight" test "$(info_val inflight)" = 0
check "round trip measured: $(peer_stat $P rtt_samples) samples, srtt $(peer_stat $P srtt_us) us, timeout $(peer_stat $P rto_us) us in [50, 800] ms" \
	"test \$(peer_stat $P rtt_samples) -gt 0 && test \$(peer_stat $P srtt_us) -gt 0 && test \$(peer_stat $P rto_us) -ge 50000 && test \$(peer_stat $P rto_us) -le 800000"
check "mpctl stats: peer $P over netlink, tx counted, 2 naks" \
	"mpctl stats -p $P | tee /dev/stderr | grep -q '\"naks\": *2' && mpctl stats | grep -q '\"tx\": *[1-9]'"
check "end barrier" barrier 2 120
# One copy per byte on the requester: the response's bytes go straight
# from the frame into the caller's (pinned) pages. Each host in turn, the
# other one waiting at a barrier (its polls of the barrier area are the
# only other bytes this host copies meanwhile).
dp() { cat "/sys/class/misc/mp_eth/datapath/$1"; }
one_copy() {
	_c=$(dp copied_bytes) _p=$(dp payload_bytes)
	mpe_test sum "$P" "$(region "$MP_HOST")" $((8 * MIB)) >/dev/null || return 1
	_dc=$(($(dp copied_bytes) - _c)) _dp=$(($(dp payload_bytes) - _p))
	echo "8 MiB read: $_dp bytes delivered, $_dc copied, frames tx $(dp frames_tx) rx $(dp frames_rx)" >&2
	test "$_dp" = $((8 * MIB)) && test "$_dc" -ge "$_dp" &&
		test "$_dc" -le $((_dp + MIB))
}
for turn in 0 1; do
	[ "$MP_HOST" = $turn ] &&
		check "8 MiB read from device $P: every byte copied once on this host" one_copy
	check "barrier: turn $turn done" barrier $((3 + turn)) 120
done
# A read in parts from the outside, each host in turn the requester: the
# other one (the responder) delays its own frames by 30 ms and sends each
# of them twice (netem), and answers every read in parts at once with a
# forged part from its own MAC, one byte off the stride (mp_hostile
# parts, past the qdisc). The forged parts must be dropped and counted
# as stale, and so must the second copies of parts; the bytes copied on
# the requester stay those read (within the responder's barrier polls,
# as above), not some 4 MB more (the duplicated parts copied again); no
# request times out; the bytes read back are those written.
forge_start() {
	modprobe sch_netem &&
		tc qdisc replace dev eth0 root netem delay 30ms duplicate 50% &&
		{ mp_hostile parts 600 > /tmp/forged & echo $! > /tmp/forged.pid; }
}
forge_stop() {
	kill "$(cat /tmp/forged.pid)" && wait "$(cat /tmp/forged.pid)"
	tc qdisc del dev eth0 root
	echo "responder: $(cat /tmp/forged)" >&2
	test "$(awk '$1 == "forged" { print $2 }' /tmp/forged)" -ge 100
}
forged_parts() {
	_len=$((8 * MIB)) _off=$(region "$MP_HOST")
	_s=$(peer_stat "$P" stale_responses) _t=$(peer_stat "$P" timeouts)
	_c=$(dp copied_bytes) _p=$(dp payload_bytes)
	mpe_test sum "$P" "$_off" $_len > /tmp/r || return 1
	_dc=$(($(dp copied_bytes) - _c)) _dp=$(($(dp payload_bytes) - _p))
	_ds=$(($(peer_stat "$P" stale_responses) - _s))
	_w=$(awk '{print $2}' /tmp/w) _rd=$(awk '{print $2}' /tmp/r)
	echo "8 MiB read, parts forged and duplicated: $_dp bytes delivered, $_dc copied, stale +$_ds, timeouts $_t -> $(peer_stat "$P" timeouts), checksums $_w $_rd" >&2
	test -n "$_w" && test "$_w" = "$_rd" && test "$_dp" = $_len &&
		test "$_dc" -ge "$_dp" && test "$_dc" -le $((_dp + MIB)) &&
		test "$_ds" -ge 1000 && test "$(peer_stat "$P" timeouts)" = "$_t"
}
check "8 MiB of seed 11 written to device $P" \
	"mpe_test fill $P $(region "$MP_HOST") $((8 * MIB)) 11 > /tmp/w"
check "barrier: written" barrier 5 120
for turn in 0 1; do
	if [ "$MP_HOST" = $turn ]; then
		check "barrier: device $P delays, duplicates and forges" \
			barrier $((6 + 2 * turn)) 120
		check "forged and duplicate parts dropped and counted, copied once, bytes intact" \
			forged_parts
		check "barrier: read in parts done" barrier $((7 + 2 * turn)) 300
	else
		check "netem delay 30ms duplicate 50%, mp_hostile forges parts" \
			forge_start
		check "barrier: forging" barrier $((6 + 2 * turn)) 120
		check "barrier: device $P read" barrier $((7 + 2 * turn)) 300
		check "parts forged (>= 100), netem off" forge_stop
	fi
done
check "mp_eth unloads, segment offline, cmm_mp unloads" \
	"rmmod mp_eth && mpctl offline 1 && rmmod cmm_mp"
