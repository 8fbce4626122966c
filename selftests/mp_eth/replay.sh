#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 3 --hub --timeout 900
#
# Replayed discovery frames under the pool key (issue 9,
# Documentation/security.rst). A (host 0) and B (host 1) form a pool by
# discovery with key 7 signing every frame; C (host 2) runs none of our
# modules, only mp_hostile. C captures the members' frames while B leaves
# and comes back at once, within hb_timeout (so the capture holds
# heartbeats of a round that is over and frames of B's earlier
# incarnation; and B's return must still make a new generation), then
# replays all of them verbatim. Their tags are valid: without the stamps a captured discovery
# frame of an older round is indistinguishable from a member that
# restarted, and would start a new round. Asserted: the replay starts no
# round (same generation, 2 devices up), it is counted as replayed or
# stale_stamp, and the pool still serves data. (With replay_window_ms=0,
# i.e. stamps unchecked, the generation check fails: the test can fail.)
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
. /selftests/mp_eth/hostile_lib.sh

gen() { cat $D/generation; }

if [ "$MP_HOST" = 2 ]; then
	c_replay "the pool is formed under the key" \
		"B has left and come back" control 10
	exit 0
fi

case $MP_HOST in 0) tap_plan 16 ;; *) tap_plan 13 ;; esac
pool_up 2 120 load_keyed
[ "$MP_HOST" = 0 ] && check "C listens" "sig send capture 400 && sig wait capturing 120"
check "barrier 2: C captures" barrier 2 120
# a few heartbeats of this round, then B leaves and comes back
sleep 3
G1=$(gen)
# B is back long before hb_timeout: A never sees it silent, and B starts
# in round 1 again, the pool's own round; it must still make a new
# generation, or its new sequence numbers would die in A's window
if [ "$MP_HOST" = 1 ]; then
	check "B leaves and comes back at once (mp_eth reloaded, key set again)" \
		"rmmod mp_eth && load_keyed"
else
	check "A: a newer generation" "wait_until 60 'test \$(gen) != $G1'"
fi
check "pool re-formed: runtime, 2 devices up" wait_until 120 runtime_with 2
check "barrier 3" barrier 3 120
[ "$MP_HOST" = 0 ] && check "C may replay what it captured" "sleep 2 && sig send attack 120"
G2=$(gen)
R0=$(( $(drop replayed) + $(drop stale_stamp) ))
diag "generation $G2, replayed + stale_stamp $R0 before the replay"
check "C's replay ends" sig wait 'done' 600
show_drops
check "no new round: generation still $G2, 2 devices up" \
	"test \$(gen) = $G2 && runtime_with 2"
check "the replayed control frames were refused (replayed + stale_stamp grew by >= 5)" \
	"test \$(( \$(drop replayed) + \$(drop stale_stamp) - $R0 )) -ge 5"
check "the data path still serves: barrier 4" barrier 4 120
[ "$MP_HOST" = 0 ] && check "A tells C it is done" sig send verdict 120
check "key clear, mp_eth unloads" "mpctl key clear && rmmod mp_eth"
