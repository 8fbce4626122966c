#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 3 --hub --timeout 900
#
# The pool key (issue 9, Documentation/security.rst). A (host 0) and B
# (host 1) run mp_eth with a static table; C (host 2) runs none of our
# modules, only mp_hostile. A and B turn the key on without losing a
# request (accept first, then sign), move verified data, and A writes a
# pattern into B's DRAM while C captures. C then poses as A (A's MAC and
# device id: without a key this works), sends its forged and malformed
# frames, replays the captured frames verbatim and tampered. A then moves
# its sequence numbers to B half a 16-bit cycle on, so that the captured
# requests look new to B's window again, and C replays them once more.
# Then A and B rotate to a second key while both run verified random
# transfers: no error. Asserted: nothing C sent was executed or answered
# (no response to A's MAC, not a byte to C), A's pattern is intact, the
# drops are counted as no_tag/bad_tag, the verbatim replays die in the
# window, and half a cycle later are refused by their stamps (replayed),
# the key is in no log and no sysfs file.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
. /selftests/mp_eth/hostile_lib.sh

KEYS=/sys/class/misc/mp_eth/key_ids
K2=f0e1d2c3b4a5968778695a4b3c2d1e0f
OFF=$((64 * MIB))	# in B's DRAM
LEN=65536
OFF2=$((72 * MIB))	# A's requests that move its SNs half a cycle on
# A 64-byte read is one SN and two frames (a write of 8 frames is one SN
# and nine): ADV_J readers of ADV_N reads each, 33,600 SNs in all, more
# than half of the 16-bit cycle and less than all of it
ADV_J=8
ADV_N=4200
# adv_reads: the readers, each one's exit status checked
adv_reads() {
	_pids=
	for _j in $(seq $ADV_J); do
		mpe_test lat -d 1 -r $OFF2 -s 64 -n $ADV_N > /dev/null &
		_pids="$_pids $!"
	done
	for _p in $_pids; do wait "$_p" || return 1; done
}

if [ "$MP_HOST" = 2 ]; then
	tap_plan 12
	c_capture "the key is on"
	# a static table sends no heartbeats: C is told the members
	mp_hostile -m 52:54:00:6d:70:01,52:54:00:6d:70:02 spoof 1 0 $OFF $LEN 20 \
		> /tmp/spoof.out 2>&1; cat /tmp/spoof.out >&2
	check "posing as A (its MAC and id): B answered nothing, 0 bytes" \
		"test \$(field answers_to_owner < /tmp/spoof.out) = 0 && test \$(field bytes_returned < /tmp/spoof.out) = 0"
	mp_hostile replay /tmp/cap > /tmp/replay.out; cat /tmp/replay.out >&2
	mp_hostile replay /tmp/cap tamper >> /tmp/replay.out
	check "verbatim and tampered replays: 0 bytes to C" replays_clean /tmp/replay.out 2
	check "tells A and B the attack is over" sig send done 120 2
	check "A: its SNs have moved half a cycle on" sig wait replay 600
	mp_hostile replay /tmp/cap > /tmp/replay2.out; cat /tmp/replay2.out >&2
	check "replays the capture again: 0 bytes to C" replays_clean /tmp/replay2.out 1
	check "tells A and B the second replay is over" sig send replayed 120 2
	check "A and B checked the outcome" sig wait verdict 600
	exit 0
fi

case $MP_HOST in 0) tap_plan 26 ;; *) tap_plan 21 ;; esac
P=$((1 - MP_HOST))
printf '%s\n' $K1 > /tmp/k1
printf '%s\n' $K2 > /tmp/k2
check "eth0 up (virtio_net)" mpe_net
# a replay window of 10 min: the second replay comes well after 30 s on
# a slow machine, and must be refused by the receive window, not by age
check "cmm_mp and mp_eth (static table of A and B) load" \
	"load_cmm_mp && load_mp_eth netdev=eth0 devid=$MP_HOST peers=52:54:00:6d:70:01,52:54:00:6d:70:02 replay_window_ms=600000"
check "barrier 1, no key" barrier 1 120
check "key 1 accepted, not yet used: frames still untagged" \
	"mpctl key set -a -i 7 /tmp/k1 && test \"\$(cat $KEYS)\" = 7 && test \$(info_val max_payload) = 1444"
check "barrier 2" barrier 2 120
check "key 1 signs every frame" "mpctl key set -i 7 < /tmp/k1 && test \"\$(cat $KEYS)\" = '7*'"
check "barrier 3, tagged" barrier 3 120
# Between one host's 'key set' and the other's, the first drops the
# other's untagged frames (they are retransmitted): count from here on.
sleep 1
T0=$(( $(drop no_tag) + $(drop bad_tag) ))
diag "refused by the key while the hosts switched: $T0 frames"
check "random reads/writes 1 B .. 8 MiB with the key, verified" \
	mpe_test rand -d "$P" -r "$(region "$MP_HOST")" -s $REGION_SIZE -b 24M -S "$MP_HOST"
check "once both sign, no frame of the peer is refused by the key" \
	"test \$(( \$(drop no_tag) + \$(drop bad_tag) )) = $T0"
if [ "$MP_HOST" = 0 ]; then
	check "C listens" "sig send capture 400 && sig wait capturing 120"
	check "A writes a decoy and its pattern into B's DRAM" \
		"mpe_test fill 1 $OFF $LEN 7 && mpe_test fill 1 $OFF $LEN 8 > /tmp/fill.out"
	SUM=$(field sum < /tmp/fill.out)
	check "C may attack" sig send attack 120
fi
O0=$(( $(peer_stat $P out_of_window) + $(peer_stat $P duplicates) ))
check "C's attack ends" sig wait done 600
show_drops
if [ "$MP_HOST" = 0 ]; then
	check "A's pattern is intact: checksum $SUM" \
		"mpe_test sum 1 $OFF $LEN > /tmp/sum.out && test \"\$(field sum < /tmp/sum.out)\" = $SUM"
else
	check "B dropped C's posing as A: untagged and with a made-up tag" \
		"test \$(drop no_tag) -ge 100 && test \$(drop bad_tag) -ge 100"
	check "B dropped the tampered replays; the verbatim ones died in the window" \
		"test \$(drop bad_tag) -ge 200 && test \$(( \$(peer_stat 0 out_of_window) + \$(peer_stat 0 duplicates) )) -gt $O0"
fi
# Half a cycle on, the captured requests are ahead of B's base and their
# acks would move it: only their stamps, older than the requests of their
# residue B has executed since, tell them from new ones (mp_window.c).
if [ "$MP_HOST" = 0 ]; then
	SN0=$(peer_stat 1 next_sn)
	check "A reads 64 B of B's DRAM $((ADV_J * ADV_N)) times, $ADV_J readers at once" adv_reads
	SN1=$(peer_stat 1 next_sn)
	check "A's next SN to B moved $(( (SN1 - SN0) & 0xffff )) on (> 32768)" \
		test $(( (SN1 - SN0) & 0xffff )) -gt 32768
	check "C replays the capture again" "sig send replay 120 && sig wait replayed 600"
	check "A's pattern is still intact" \
		"mpe_test sum 1 $OFF $LEN > /tmp/sum.out && test \"\$(field sum < /tmp/sum.out)\" = $SUM"
else
	R1=$(drop replayed) S1=$(drop stale_stamp)
	check "C's second replay ends" sig wait replayed 900
	show_drops
	check "B refused the replayed requests by their stamps: replayed +$(( $(drop replayed) - R1 )), stale_stamp +$(( $(drop stale_stamp) - S1 ))" \
		"test \$(( \$(drop replayed) - R1 )) -ge 20 && test \$(drop stale_stamp) = $S1"
fi
# rotation under load: every host accepts key 2, then every host signs with it
mpe_test rand -d "$P" -r "$(region "$MP_HOST")" -s $REGION_SIZE -b 16M -S $((MP_HOST + 9)) > /tmp/rand.out 2>&1 &
RAND=$!
check "rotation, step 1: key 2 accepted everywhere" \
	"mpctl key set -a -i 8 /tmp/k2 && barrier 4 120 && test \"\$(cat $KEYS)\" = '7* 8'"
check "rotation, step 2: key 2 signs everywhere" \
	"mpctl key set -i 8 /tmp/k2 && barrier 5 120 && test \"\$(cat $KEYS)\" = '7 8*'"
check "the transfers running through the rotation: verified, no error" \
	"wait $RAND; r=\$?; cat /tmp/rand.out; test \$r = 0 && grep -q ' 0 mismatches, 0 errors' /tmp/rand.out"
check "nothing left in flight" "test \$(info_val inflight) = 0"
check "the key is in no kernel log line and no sysfs file of mp_eth" \
	"! dmesg | grep -qi -e $K1 -e $K2 -e 0011223344 && ! grep -rqs -e $K1 -e $K2 /sys/class/misc/mp_eth/ /sys/module/mp_eth/"
[ "$MP_HOST" = 0 ] && check "A tells C it is done" sig send verdict 120
check "barrier 6" barrier 6 120
check "key clear, mp_eth unloads (the key is wiped)" \
	"mpctl key clear && test \"\$(cat $KEYS)\" = none && rmmod mp_eth"
