#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 3 --pool 256M --timeout 1200
#
# Sharing mode (Documentation/pool.rst, "Sharing mode"). Segment 5 is C's
# second segment. A and B online it --shared: C keeps both as sharers, an
# exclusive claim by C fails with EBUSY naming them, and C's own reads are
# refused. A produces MSGS messages into a ring of one-frame slots with
# pwrite, B consumes them with pread polling and checks sequence numbers
# and checksums: none lost, none corrupt. Once both unshared, A claims it
# exclusively and reads zeros (a new holder gets it zeroed); B's share of
# A's segment fails with EBUSY naming A.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
. /selftests/pool/pool_lib.sh

SEG=5
DEV=/dev/mps$SEG
OFF=$((128 * MIB))		# segment 5 in C's DRAM
MSGS=10000

case $MP_HOST in 0) tap_plan 20 ;; 1) tap_plan 19 ;; *) tap_plan 18 ;; esac
pool_up 3 90

if [ "$MP_HOST" = 0 ]; then
	check "A onlines segment $SEG --shared: shared, sharers [0], $DEV" \
		"mpctl online $SEG --shared && seg_has $SEG '\"state\":\"shared\"' && seg_has $SEG '\"sharers\":\[0\]' && seg_has $SEG '\"shared\":true' && test -c $DEV"
fi
check "barrier after A's share" barrier 2 120
if [ "$MP_HOST" = 1 ]; then
	check "B onlines segment $SEG --as dax --shared: sharers [0,1]" \
		"mpctl online $SEG --as dax --shared && seg_has $SEG '\"sharers\":\[0,1\]' && test -c $DEV"
fi
check "barrier after B's share" barrier 3 120
seg_json $SEG >&2
check "every host lists segment $SEG shared by 0 and 1" \
	"seg_has $SEG '\"state\":\"shared\"' && seg_has $SEG '\"sharers\":\[0,1\]'"
if [ "$MP_HOST" = 2 ]; then
	check "C's exclusive online of its own segment fails: EBUSY naming the sharers" \
		"! mpctl online $SEG 2>/tmp/err; cat /tmp/err >&2; grep -q 'shared by device(s) 0 1' /tmp/err && grep -qi busy /tmp/err"
	check "C (not a sharer) is refused its own segment's bytes: EACCES" \
		"! mpe_test read 2 $OFF 8 2>/tmp/err; cat /tmp/err >&2; grep -q EACCES /tmp/err"
fi
check "barrier before the messages" barrier 4 120

T0=$(date +%s)
if [ "$MP_HOST" = 0 ]; then
	check "A produces $MSGS messages with pwrite" \
		"mps_test produce $DEV $MSGS | tee /dev/stderr"
fi
if [ "$MP_HOST" = 1 ]; then
	check "B consumes $MSGS messages with pread: none lost, none corrupt" \
		"mps_test consume $DEV $MSGS 600 | tee /tmp/cons >&2; grep -q 'received=$MSGS lost=0 corrupt=0' /tmp/cons"
	diag "$(cat /tmp/cons) in $(($(date +%s) - T0)) s"
fi
check "barrier after the messages" barrier 5 900

if [ "$MP_HOST" -le 1 ]; then
	check "host $MP_HOST offlines segment $SEG: unshared, $DEV gone" \
		"mpctl offline $SEG && test ! -e $DEV"
fi
check "barrier after both offlined" barrier 6 120
check "every host lists segment $SEG offline, no sharers" \
	"seg_has $SEG '\"state\":\"offline\"' && ! seg_has $SEG sharers"
check "barrier after the listing" barrier 7 120
if [ "$MP_HOST" = 0 ]; then
	check "A claims it exclusively and reads zeros: a new holder gets it zeroed" \
		"mpctl online $SEG && mps_test sum-read $DEV 0 65536 | grep -q 'nonzero=0\$'"
fi
check "barrier after A's claim" barrier 8 120
if [ "$MP_HOST" = 1 ]; then
	check "B's --shared online of A's segment fails: EBUSY naming A" \
		"! mpctl online $SEG --shared 2>/tmp/err; cat /tmp/err >&2; grep -q 'owned by device 0' /tmp/err"
fi
check "barrier before the end" barrier 9 120
if [ "$MP_HOST" = 0 ]; then
	check "A offlines it" "mpctl offline $SEG"
fi
if [ "$MP_HOST" = 2 ]; then
	check "C counted the refused accesses of non-holders: none from A or B" \
		"test \$(peer_stat 0 refused) = 0 && test \$(peer_stat 1 refused) = 0"
fi
check "end barrier" barrier 10 120
