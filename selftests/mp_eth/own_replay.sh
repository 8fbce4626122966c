#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 3 --hub --timeout 900
#
# Replayed ownership commands under the pool key (Documentation/
# security.rst, "Ownership commands"). A (host 0) and B (host 1) form a
# pool by discovery with key 7; C (host 2) runs none of our modules, only
# mp_hostile. While C captures, A claims segment 3 (B's second segment),
# writes a word to it and releases it. Right after the release, before A
# sends B anything else, C replays every captured frame verbatim (tags and
# stamps valid): CLAIM, the writes, RELEASE, the queries. Asserted: B
# counted the replayed requests, nobody holds the segment (a re-executed
# CLAIM would have given it back to A, a RELEASE freed it under a new
# owner), A's raw read of it is refused, and A, claiming it again, reads
# zeros (the replayed writes were not applied after the wipe).
# The order C captures them in is the worst one it can get: the RELEASE
# is the last command, so only the ack on A's later requests ages it. The
# cached verdict makes that ack irrelevant.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
. /selftests/mp_eth/hostile_lib.sh

SEG=3
OFF=$((128 * MIB))		# segment 3 in B's DRAM
SLOT=$((OFF / 8))
seen() { echo $(( $(peer_stat 0 duplicates) + $(peer_stat 0 out_of_window) )); }

if [ "$MP_HOST" = 2 ]; then
	c_replay "the pool is formed under the key" \
		"A has released segment $SEG" data 5
	exit 0
fi

case $MP_HOST in 0) tap_plan 14 ;; *) tap_plan 10 ;; esac
pool_up 2 120 load_keyed
[ "$MP_HOST" = 1 ] && S0=$(seen)
if [ "$MP_HOST" = 0 ]; then
	check "C listens" "sig send capture 400 && sig wait capturing 120"
	check "A claims segment $SEG, writes a word to it, releases it" \
		"mpctl online $SEG && mpe_test signal 1 $SLOT 0x5a5aa5a5 10 && mpctl offline $SEG"
	# nothing more to B until the replay is over
	check "C may replay what it captured" "sig send attack 120"
fi
check "C's replay ends" sig wait 'done' 600
if [ "$MP_HOST" = 1 ]; then
	check "B's window saw the replayed requests (duplicates + out of window grew)" \
		"test \$(seen) -gt ${S0:-0}"
	check "nobody holds segment $SEG (B's seg1): no owner, no sharer" \
		"test \$(cat $D/segments/seg1/owner) = -1 && test \$(cat $D/segments/seg1/state) = offline"
fi
check "barrier 2" barrier 2 120
if [ "$MP_HOST" = 0 ]; then
	check "A's raw read of the released segment is refused (EACCES)" \
		"! mpe_test read 1 $OFF 8 2>/tmp/err; cat /tmp/err; grep -q EACCES /tmp/err"
	check "A claims it again: the word is gone (wiped; no replayed write landed)" \
		"mpctl online $SEG && test \"\$(mpe_test read 1 $OFF 8 | tr -d ' \\n')\" = 0000000000000000 && mpctl offline $SEG"
	check "A tells C it is done" sig send verdict 120
fi
check "barrier 3" barrier 3 120
check "key clear, mp_eth unloads" "mpctl key clear && rmmod mp_eth"
