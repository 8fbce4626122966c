#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 3 --pool 256M --timeout 900
#
# Isolation of pool memory (Documentation/security.rst): no member reads or
# writes a segment it does not hold, and ownership survives renumbering.
# Three devices of 256 MiB: A (host 0), B (host 1), C (host 2); segment 3
# is B's second segment (DRAM offset 128 MiB, above the barrier slots of
# the open segment 0, cmm_mp open_segs=1).
#
# 1. B onlines segment 3 as System RAM, fills 64 MiB of it and offlines
#    it: A's raw read of it is refused (its old RAM was readable before),
#    and A, claiming it, reads zeros.
# 2. A writes a pattern, offlines, onlines again: zeros (the last holder's
#    re-claim skipped the wipe before); C cannot seed the released segment
#    with a raw write, nor read it.
# 3. A holds segment 3 with a pattern; C leaves and comes back with chip
#    id 1, the lowest: it becomes device 0, A device 1, B device 2. C's
#    raw read of the segment is refused and its online fails naming A
#    (before, C inherited device 0's segments); A still reads its pattern;
#    every host names A as the owner.
# 4. Smaller holes: online/offline need CAP_SYS_ADMIN (CAP_NET_ADMIN alone
#    hot-added RAM), physical addresses are root's alone, an all-zero pool
#    key is refused, mpctl online warns in a pool without a key,
#    MAP_PRIVATE of /dev/mps is refused.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
. /selftests/pool/pool_lib.sh

SEG=3
OFF=$((128 * MIB))		# segment 3 in B's DRAM
SLOT=$((OFF / 8))		# mpe_test signal writes at 8 * SLOT
DEV=/dev/mps$SEG
LEN=$((1 * MIB))
MAC_A=52:54:00:6d:70:01
MAC_B=52:54:00:6d:70:02
# dev_field MAC KEY: KEY of the pool device with backend port MAC
dev_field() {
	mpctl list -D -v | flat | sed 's/},{/}\n{/g' | grep "\"mac\":\"$1\"" |
		sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"
}
word() { mpe_test read "$1" $OFF 8 | tr -d ' \n'; }
renumbered() { runtime_with 3 && test "$(dev_field $MAC_A id)" = 1; }
refused() { ! "$@" 2>/tmp/err; cat /tmp/err >&2; grep -q EACCES /tmp/err; }

case $MP_HOST in 0) tap_plan 21 ;; 1) tap_plan 22 ;; *) tap_plan 21 ;; esac
NOBODY="/usr/bin/setpriv --reuid 65534 --regid 65534 --clear-groups"
pool_up 3 90

# --- 4. (on B, before anything else changes its segments)
if [ "$MP_HOST" = 1 ]; then
	check "without CAP_SYS_ADMIN (CAP_NET_ADMIN kept) online fails clearly, changes nothing" \
		"! /usr/bin/setpriv --bounding-set -sys_admin mpctl online 2 2>/tmp/err; cat /tmp/err >&2; grep -q CAP_SYS_ADMIN /tmp/err && test \$(cat $D/segments/seg0/state) = offline"
	check "root sees the physical addresses (mpctl list, sysfs)" \
		"mpctl list -s 2 | grep -q phys && mpctl list -D | grep -q phys && test -n \"\$(cat $D/phys $D/segments/seg0/phys)\""
	check "an unprivileged user does not (mpctl list, sysfs)" \
		"$NOBODY mpctl list -s 2 -D >/tmp/l && grep -q segment_size /tmp/l && ! grep -q phys /tmp/l && ! $NOBODY cat $D/phys && ! $NOBODY cat $D/segments/seg0/phys"
	check "an all-zero pool key is refused, no key is installed" \
		"! printf '%032d\\n' 0 | mpctl key set 2>/tmp/err; cat /tmp/err >&2; grep -q all-zero /tmp/err && test \$(cat /sys/class/misc/mp_eth/key_ids) = none"
	check "mp_eth refuses an all-zero key itself (mpe_test key)" \
		"! mpe_test key 00000000000000000000000000000000 2>/dev/null && test \$(cat /sys/class/misc/mp_eth/key_ids) = none"
fi

# --- 1. a System RAM segment offlined: nothing of it is left to read
if [ "$MP_HOST" = 1 ]; then
	check "B onlines segment $SEG as System RAM" \
		"mpctl online $SEG && test \$(cat $D/segments/seg1/state) = online-ram"
	check "B fills 64 MiB of the pool node, then offlines segment $SEG" \
		"numactl --membind=1 mp_touch -m 64 -s 77 -n 1 && mpctl offline $SEG && test \$(cat $D/segments/seg1/state) = offline"
fi
check "barrier after B's System RAM" barrier 2 120
if [ "$MP_HOST" = 0 ]; then
	check "A's raw read of B's unheld segment $SEG is refused (EACCES)" \
		refused mpe_test sum 1 $OFF 65536
	check "A claims segment $SEG (dax), warned that the pool has no key: it reads zeros" \
		"mpctl online $SEG 2>/tmp/w && cat /tmp/w >&2 && grep -q 'no pool key' /tmp/w && mps_test sum-read $DEV 0 $((16 * MIB)) | tee /dev/stderr | grep -q 'nonzero=0\$'"
	# --- 2. the last holder's re-claim is wiped too
	check "A writes a pattern, offlines, onlines again: zeros" \
		"mps_test fill $DEV 0 $LEN 7 && mpctl offline $SEG && mpctl online $SEG && mps_test sum-read $DEV 0 $LEN | tee /dev/stderr | grep -q 'nonzero=0\$'"
	check "MAP_PRIVATE of $DEV is refused, the other edges hold" "mps_test edges $DEV"
	check "A writes a pattern and releases segment $SEG" \
		"mps_test fill $DEV 0 $LEN 9 && mpctl offline $SEG && ! seg_has $SEG owner"
fi
check "barrier after A's release" barrier 3 120
if [ "$MP_HOST" = 2 ]; then
	check "C cannot read the released segment (EACCES)" \
		refused mpe_test read 1 $OFF 64
	check "C cannot seed the released segment with a raw write (EACCES)" \
		refused mpe_test fill 1 $OFF 4096 5
fi
check "barrier after C's attempts" barrier 4 120

# --- 3. a newcomer with a lower chip id takes no one's segments
if [ "$MP_HOST" = 0 ]; then
	check "A onlines segment $SEG again and writes a word to it" \
		"mpctl online $SEG && mpe_test signal 1 $SLOT 0x5a5aa5a5 10 && test \"\$(word 1)\" != 0000000000000000"
	W=$(word 1)
fi
check "barrier before C leaves" barrier 5 120
if [ "$MP_HOST" = 2 ]; then
	check "C comes back with chip id 1, the lowest of the pool" \
		"rmmod mp_eth && rmmod cmm_mp && load_cmm_mp chip_id=1 && load_eth"
fi
check "pool re-formed with C as device 0: 3 devices up" \
	wait_until 120 renumbered
A_ID=$(dev_field $MAC_A id)
B_ID=$(dev_field $MAC_B id)
B_SEG=$(($(dev_field $MAC_B first_segment) + 1))
diag "A is device $A_ID, B device $B_ID, B's segment 1 is segment $B_SEG now"
check "barrier after the new pool" barrier 6 120
if [ "$MP_HOST" = 2 ]; then
	check "C is device 0 now" "test \$(cat $D/device_id) = 0"
	check "C's raw read of A's segment is refused (EACCES)" \
		refused mpe_test read "$B_ID" $OFF 8
	check "C's raw write to A's segment is refused (EACCES)" \
		refused mpe_test fill "$B_ID" $OFF 4096 3
	check "C's online of A's segment fails, naming device $A_ID" \
		"! mpctl online $B_SEG 2>/tmp/err; cat /tmp/err >&2; grep -q 'owned by device $A_ID' /tmp/err"
fi
if [ "$MP_HOST" = 0 ]; then
	check "A still reads its word (nothing was wiped or taken)" \
		"test \"\$(word $B_ID)\" = '$W'"
fi
if [ "$MP_HOST" = 1 ]; then
	check "B's sysfs names A's new device id as the owner" \
		"test \$(cat $D/segments/seg1/owner) = $A_ID"
fi
check "every host lists segment $B_SEG owned by device $A_ID" \
	"seg_has $B_SEG '\"state\":\"owned\"' && seg_has $B_SEG '\"owner\":$A_ID'"
check "barrier after the checks" barrier 7 120
check "kernel log clean" "test -z \"\$(kernel_log_bad)\""
check "end barrier" barrier 8 120
