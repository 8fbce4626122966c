#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --kernel patched --mem 2G --pool 0 --timeout 420
#
# Patches 0005 and 0006 of the DVM series in a guest: the io-pgtable
# format's boot selftest result, read from the kernel log, then
# /dev/dvm_accel (dvm_accel all): jobs on identity-mapped and translated
# memory, refused accesses (fault, nothing moved), and munmap/mprotect
# during jobs, fork and exit mid-job; the AVC's size (the paper's 1 KiB by
# default, a power of two up to 8 KiB settable) and the execute permission
# (dvm_accel exec: code fetched only from read-execute pages); the
# device table of a 64 MiB and a 256 MiB identity heap by level (dvm_accel
# heap: Permission Entries at L3 and L2, 4 KiB leaves).  guest-init checks
# afterwards that the kernel log has no warning, BUG or oops.
. /selftests/lib.sh

tap_plan 47
line=$(dmesg | grep 'dvm io-pgtable: selftest: completed with')
diag "$line"
pass=$(echo "$line" | sed -n 's/.*with \([0-9]*\) PASS \([0-9]*\) FAIL.*/\1/p')
nfail=$(echo "$line" | sed -n 's/.*with \([0-9]*\) PASS \([0-9]*\) FAIL.*/\2/p')
check "io-pgtable DVM boot selftest ran (${pass:-no} checks passed)" \
	"test -n '$pass' && test '$pass' -gt 100"
check "io-pgtable DVM boot selftest: no check failed (${nfail:-?} failed)" \
	"test '$nfail' = 0"
dmesg | grep 'dvm io-pgtable: selftest: line' | head -n 5 | sed 's/^/# /'

# dvm_accel's own TAP (1..32), renumbered after ours; its exit status and
# its count of points are checked after it (a crash must not pass)
tap_run accel 32 dvm_accel all

# the AVC: 1 KiB unless asked; a bad size refused, a good one taken
param=/sys/module/dvm_accel/parameters/avc_bytes
check "AVC size parameter defaults to the paper's 1 KiB ($(cat $param 2>&1))" \
	"test \"\$(cat $param)\" = 1024 && dmesg | grep -q 'dvm_accel: AVC of 1024 bytes'"
check "avc_bytes refuses 1536 and 16384, takes 8192 and 256, back to 1024" \
	"! sh -c 'echo 1536 > $param' 2>/dev/null && ! sh -c 'echo 16384 > $param' 2>/dev/null &&
	 echo 8192 > $param && test \"\$(cat $param)\" = 8192 &&
	 echo 256 > $param && test \"\$(cat $param)\" = 256 &&
	 echo 1024 > $param && test \"\$(cat $param)\" = 1024"

# execute permission (the paper's code 11): dvm_accel exec's 6 points
tap_run exec 6 dvm_accel exec

# the device table of a 64 MiB and a 256 MiB heap, entry by entry
# (DVM_ACCEL_LEVELS): dvm_accel heap's 2 points and its "# heap levels:" lines
tap_run heap 2 dvm_accel heap 64 256
