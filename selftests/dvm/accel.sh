#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --kernel patched --mem 2G --pool 0 --timeout 420
#
# Patches 0005 and 0006 of the DVM series in a guest: the io-pgtable
# format's boot selftest result, read from the kernel log, then
# /dev/dvm_accel (dvm_accel all): jobs on identity-mapped and translated
# memory, refused accesses (fault, nothing moved), and munmap/mprotect
# during jobs, fork and exit mid-job.  guest-init checks afterwards that
# the kernel log has no warning, BUG or oops.
. /selftests/lib.sh

tap_plan 34
line=$(dmesg | grep 'dvm io-pgtable: selftest: completed with')
diag "$line"
pass=$(echo "$line" | sed -n 's/.*with \([0-9]*\) PASS \([0-9]*\) FAIL.*/\1/p')
nfail=$(echo "$line" | sed -n 's/.*with \([0-9]*\) PASS \([0-9]*\) FAIL.*/\2/p')
check "io-pgtable DVM boot selftest ran (${pass:-no} checks passed)" \
	"test -n '$pass' && test '$pass' -gt 100"
check "io-pgtable DVM boot selftest: no check failed (${nfail:-?} failed)" \
	"test '$nfail' = 0"
dmesg | grep 'dvm io-pgtable: selftest: line' | head -n 5 | sed 's/^/# /'

# dvm_accel's own TAP (1..32), renumbered after ours
dvm_accel all 2>&1 | awk -v n=2 '
	/^1\.\./ { next }
	/^ok / { n++; sub(/^ok [0-9]+/, "ok " n) }
	/^not ok / { n++; sub(/^not ok [0-9]+/, "not ok " n) }
	{ print; fflush() }'
