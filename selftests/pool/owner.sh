#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 3 --pool 256M --timeout 900
#
# Segment ownership in pooling mode (Documentation/pool.rst). Three
# devices of 256 MiB: segments 0-1 on host 0 (A), 2-3 on host 1 (B), 4-5
# on host 2 (C). Segment 5 (C's second segment, DRAM offset 128 MiB, above
# the barrier slots) is onlined by A: C makes A its owner; B's online fails
# with EBUSY naming A; A writes a pattern through /dev/mp_eth, B's read is
# refused with EACCES and counted; A offlines; B onlines and reads zeros
# (C zeroes a segment handed to a new owner). Then A and B online segment 5
# at the same moment, 20 rounds: exactly one owner each time.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
. /selftests/pool/pool_lib.sh

SEG=5
OFF=$((128 * MIB))		# segment 5 in C's DRAM
SLOT=$((OFF / 8))		# mpe_test signal writes at 8 * SLOT
ROUNDS=20
seg_field() { mpctl list -s $SEG | flat | sed -n "s/.*\"$1\":\"*\([a-z0-9-]*\)\"*[,}].*/\1/p"; }
owner_is() { test "$(seg_state)" = owned && test "$(seg_owner)" = "$1"; }
seg_state() { seg_field state; }
seg_owner() { mpctl list -s $SEG | flat | sed -n 's/.*"owner":\([0-9a-z"-]*\).*/\1/p' | tr -d '"' | sed 's/[,}].*//'; }
word0() { mpe_test read 2 $OFF 8 | tr -d ' \n'; }

case $MP_HOST in 0) tap_plan 15 ;; 1) tap_plan 19 ;; *) tap_plan 13 ;; esac
pool_up 3 90
mpctl list -s $SEG >&2

if [ "$MP_HOST" = 0 ]; then
	check "A onlines segment $SEG (backed by C): owned by A" \
		"mpctl online $SEG && owner_is 0"
fi
check "barrier after A's online" barrier 2 120
if [ "$MP_HOST" = 1 ]; then
	check "B's online of segment $SEG fails with EBUSY naming A" \
		"! mpctl online $SEG 2>/tmp/err; cat /tmp/err; grep -q 'owned by device 0' /tmp/err && grep -q 'busy' /tmp/err"
fi
check "every host lists segment $SEG owned by device 0" owner_is 0
if [ "$MP_HOST" = 0 ]; then
	check "A writes a pattern to segment $SEG through the transport and reads it back" \
		"mpe_test signal 2 $SLOT 0x5a5a 10 && word0 && test \"\$(word0)\" != 0000000000000000"
fi
check "barrier after the pattern" barrier 3 120
if [ "$MP_HOST" = 1 ]; then
	R0=$(peer_stat 2 refused)
	check "B's read of segment $SEG is refused: EACCES" \
		"! mpe_test read 2 $OFF 8 2>/tmp/err; cat /tmp/err; grep -q EACCES /tmp/err"
	check "the refusal is counted in B's peer stats of C" \
		"test \$(peer_stat 2 refused) -gt ${R0:-0}"
	check "B cannot offline A's segment: clear error" \
		"! mpctl offline $SEG 2>/tmp/err; cat /tmp/err; grep -q 'owned by device 0' /tmp/err"
fi
check "barrier before A's offline" barrier 4 120
if [ "$MP_HOST" = 2 ]; then
	check "C counted the refusal of B's request" "test \$(peer_stat 1 refused) -ge 1"
fi
if [ "$MP_HOST" = 0 ]; then
	check "A offlines segment $SEG: released" \
		"mpctl offline $SEG && test \"\$(seg_state)\" = offline"
fi
check "barrier after A's offline" barrier 5 120
if [ "$MP_HOST" = 1 ]; then
	check "B onlines segment $SEG: owned by B" "mpctl online $SEG && owner_is 1"
	check "B reads zeros: C zeroed it on hand-over" \
		"word0; test \"\$(word0)\" = 0000000000000000"
	check "B offlines it" "mpctl offline $SEG"
fi
check "barrier before the race" barrier 6 120

# --- the race: A and B online segment 5 at the same moment
# A barrier slot keeps the token it replaced too, so a host one barrier
# ahead cannot make a slower one miss it: the rounds run back to back (20
# rounds, as the issue asks). A listing asks the backing device (C), so
# every host sees the owner C decided as soon as the barrier after the
# onlines is passed.
bad=0
r=1
while [ $r -le $ROUNDS ]; do
	barrier $((100 + r)) 120 || bad=$((bad + 1))
	res=skip
	if [ "$MP_HOST" -le 1 ]; then
		if mpctl online $SEG >/dev/null 2>/tmp/err; then res=won; else res=lost; fi
	fi
	barrier $((200 + r)) 120 || bad=$((bad + 1))
	o=$(seg_owner)
	diag "round $r: host $MP_HOST $res, owner $o"
	case $res in
	won) [ "$o" = "$MP_HOST" ] || bad=$((bad + 1)) ;;
	lost) [ "$o" = $((1 - MP_HOST)) ] && grep -q "owned by device $o" /tmp/err ||
		bad=$((bad + 1)) ;;
	*) [ "$o" = 0 ] || [ "$o" = 1 ] || bad=$((bad + 1)) ;;
	esac
	barrier $((300 + r)) 120 || bad=$((bad + 1))
	if [ "$res" = won ]; then mpctl offline $SEG >/dev/null || bad=$((bad + 1)); fi
	r=$((r + 1))
done
check "race: $ROUNDS rounds, exactly one owner each time" test $bad = 0
check "end barrier" barrier 7 120
