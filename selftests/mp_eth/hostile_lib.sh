# SPDX-License-Identifier: GPL-2.0
# Helpers of the hostile-host scenarios (hostile.sh, key.sh, replay.sh,
# own_replay.sh), sourced after /selftests/lib.sh and mpe_lib.sh. Host C
# runs mp_hostile, none of our modules; the members count what they drop
# in $DROPS.
DROPS=/sys/class/misc/mp_eth/drops
drop() { cat $DROPS/"$1"; }
# sig send|wait TOKEN SECS [NACKS]: a rendezvous; SECS times lib.sh's SLOW
sig() {
	_sw=$1 _st=$2 _ss=$3
	shift 3
	mp_hostile sig "$_sw" "$_st" $((_ss * SLOW)) "$@"
}
field() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) v = $(i + 1) } END { print v }'; }
# The pool key of the keyed scenarios: mp_eth signing with it, key id 7
# (the scenario writes $K1 to /tmp/k1 first)
K1=00112233445566778899aabbccddeeff
load_keyed() { load_mp_eth netdev=eth0 && mpctl key set -i 7 /tmp/k1; }
# replays_clean FILE N: FILE has N lines of mp_hostile replay, each of
# which replayed data frames and got 0 bytes back (an empty or cut-short
# file fails)
replays_clean() {
	awk -v want="$2" '$1 == "replayed" && $3 == "data" && $4 > 0 &&
		$9 == "bytes_returned" && $10 == 0 { good++ }
		END { exit !(NR == want && good == want) }' "$1"
}
show_drops() { for f in $DROPS/*; do diag "$(basename "$f") $(cat "$f")"; done; }

# c_capture WHAT [UNTIL]: C brings eth0 up without our modules, waits for A
# to say WHAT, then captures the members' frames until A says UNTIL
# happened (default: A has written its pattern); four test points, and a
# fifth: enough frames were captured
c_capture() {
	check "eth0 up, none of our modules here" \
		"mpe_net && ! grep -q '^mp_eth\|^cmm_mp' /proc/modules"
	check "A: $1" sig wait capture 400
	mp_hostile capture /tmp/cap 600 4096 > /tmp/cap.out &
	_cap=$!
	sleep 1
	check "C captures; tells A" sig send capturing 60
	check "A: ${2:-it has written its pattern}" sig wait attack 600
	kill $_cap
	wait $_cap
	# how many depends on the heartbeat rate and on how many requests
	# mpctl makes; the callers check the data frames among them
	check "captured the members' frames: $(field captured < /tmp/cap.out)" \
		"test \"\$(field captured < /tmp/cap.out)\" -gt 20"
}

# c_replay WHAT UNTIL KIND MIN: host C's whole part of a replay scenario,
# eight test points: c_capture WHAT UNTIL, every captured frame replayed
# verbatim (more than MIN of them KIND frames: data or control), A and B
# told, and their verdict awaited
c_replay() {
	tap_plan 8
	c_capture "$1" "$2"
	mp_hostile replay /tmp/cap > /tmp/replay.out; cat /tmp/replay.out >&2
	check "replayed them verbatim, $(field "$3" < /tmp/replay.out) of them $3 frames" \
		"test \"\$(field $3 < /tmp/replay.out)\" -gt $4"
	check "tells A and B the replay is over" sig send 'done' 120 2
	check "A and B checked the outcome" sig wait verdict 600
}
