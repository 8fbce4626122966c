#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 3 --hub --timeout 900
#
# A hostile host on the pool's segment (issue 9, and the isolation test of
# the pool issue). A (host 0) and B (host 1) form a pool by discovery; A
# owns segment 3, backed by B (B's DRAM at 128 MiB), and writes a decoy
# and then a known pattern into it. C (host 2) loads none of our modules:
# mp_hostile, an AF_PACKET program, captures the segment's traffic (the
# bridge is a hub: --hub) and then sends forged and malformed data frames
# (A's device id from C's MAC, foreign ids, wrong generations, lengths
# beyond the payload, offsets beyond the device, truncated frames, unknown
# versions/opcodes/flags, wrong EtherTypes, ownership commands, forged
# responses), reads of A's segment, a flood of bogus discovery frames, and
# replays of the captured frames, verbatim and with another generation.
# Afterwards: not one byte came back to C, A's pattern is intact (the
# decoy's replayed writes were not applied), A and B counted the drops by
# reason, the pool is RUNTIME with the same generation and serves A within
# a bound, and no warning is in any kernel log (guest-init).
#
# C and the members meet through mp_hostile's own rendezvous frames
# (EtherType 0x88B7), as C has no transport to run mpe_test barriers on.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
. /selftests/mp_eth/hostile_lib.sh

SEG=3
OFF=$((128 * MIB))	# segment 3 in B's DRAM
LEN=65536
seg_owner() { mpctl list -s $SEG | flat | sed -n 's/.*"owner":\([0-9a-z"-]*\).*/\1/p' | tr -d '"' | sed 's/[,}].*//'; }

if [ "$MP_HOST" = 2 ]; then
	# ---------------- C: the hostile host, none of our modules
	tap_plan 12
	c_capture "the pool is up"

	mp_hostile scan 3 > /tmp/scan.out; cat /tmp/scan.out >&2
	check "scan: 2 members heard" "grep -q '^members 2 ' /tmp/scan.out"

	mp_hostile attack 1 0 $OFF $LEN 20 > /tmp/attack.out; cat /tmp/attack.out >&2
	check "forged/malformed requests for A's segment: no reply, 0 bytes of data" \
		"test \$(field sent < /tmp/attack.out) -gt 500 && test \$(field replies < /tmp/attack.out) = 0 && test \$(field bytes_returned < /tmp/attack.out) = 0"

	mp_hostile flood 20000 4000 > /tmp/flood.out; cat /tmp/flood.out >&2
	check "discovery flood: 20000 frames at <= 4000/s, no reply" \
		"grep -q '^flood 20000 frames' /tmp/flood.out && test \$(field replies < /tmp/flood.out) = 0"

	mp_hostile replay /tmp/cap > /tmp/replay.out; cat /tmp/replay.out >&2
	check "verbatim replay of the captured frames: 0 bytes to C" \
		"test \$(field data < /tmp/replay.out) -gt 0 && test \$(field bytes_returned < /tmp/replay.out) = 0"
	mp_hostile replay /tmp/cap 1 > /tmp/replay1.out; cat /tmp/replay1.out >&2
	mp_hostile replay /tmp/cap -1 >> /tmp/replay1.out
	check "replay with the next and the previous generation: 0 bytes to C" \
		replays_clean /tmp/replay1.out 2
	check "tells A and B the attack is over" sig send "done" 120 2
	check "A and B checked the outcome" sig wait verdict 400
	exit 0
fi

# ---------------- A and B: the pool
case $MP_HOST in 0) tap_plan 20 ;; *) tap_plan 12 ;; esac
pool_up 2 120
GEN=$(cat $D/generation)
diag "generation $GEN"
if [ "$MP_HOST" = 0 ]; then
	check "A onlines segment $SEG (backed by B): owned by A" \
		"mpctl online $SEG && test \"\$(seg_owner)\" = 0"
	check "C listens" "sig send capture 400 && sig wait capturing 120"
	check "A writes a decoy, then its pattern over it (64 KiB each)" \
		"mpe_test fill 1 $OFF $LEN 7 && mpe_test fill 1 $OFF $LEN 8 > /tmp/fill.out"
	SUM=$(field sum < /tmp/fill.out)
	diag "pattern checksum $SUM"
	check "C may attack" sig send attack 120
fi
R0=$(peer_stat $((1 - MP_HOST)) stale_responses)
O0=$(( $(peer_stat $((1 - MP_HOST)) out_of_window) + $(peer_stat $((1 - MP_HOST)) duplicates) ))
check "C's attack ends" sig wait "done" 600
show_drops
mpe_test peer $((1 - MP_HOST)) >&2
check "the pool is still runtime, same generation $GEN" \
	"runtime_with 2 && test \$(cat $D/generation) = $GEN"
if [ "$MP_HOST" = 0 ]; then
	check "A's pattern is intact (decoy replays not applied): checksum $SUM" \
		"mpe_test sum 1 $OFF $LEN > /tmp/sum.out && test \"\$(field sum < /tmp/sum.out)\" = $SUM"
	MS=$(field ms < /tmp/sum.out)
	check "the pool serves A at once after the flood: 64 KiB in $MS ms (<= 3000)" \
		"test ${MS:-99999} -le 3000"
	check "A's reads and writes to B verified after the attack" \
		mpe_test rand -d 1 -r "$(region 0)" -s $REGION_SIZE -b 8M -S 5
	check "A dropped C's forged responses (B's id from C's MAC)" \
		"test \$(drop forged_src) -ge 30"
	check "A dropped replayed responses of another generation" \
		"test \$(drop wrong_gen) -gt 0"
	check "A counted the verbatim replays of B's answers as stale" \
		"test \$(peer_stat 1 stale_responses) -gt ${R0:-0}"
	check "A dropped the bogus discovery frames" "test \$(drop dropped) -ge 10000"
	check "A still owns segment $SEG" "test \"\$(seg_owner)\" = 0"
else
	check "B dropped the malformed frames" "test \$(drop malformed) -ge 300"
	check "B refused requests with A's id from C's MAC (forged source)" \
		"test \$(drop forged_src) -ge 100"
	check "B dropped requests of unknown devices and on the wrong EtherType" \
		"test \$(drop unknown_src) -ge 50 && test \$(drop wrong_ethertype) -ge 10"
	check "B dropped A's replayed requests of another generation" \
		"test \$(drop wrong_gen) -gt 0"
	check "B never executed A's verbatim replays (duplicates/out of window)" \
		"test \$(( \$(peer_stat 0 out_of_window) + \$(peer_stat 0 duplicates) )) -gt ${O0:-0}"
fi
[ "$MP_HOST" = 0 ] && check "A tells C it is done" sig send verdict 120
check "barrier 2" barrier 2 120
