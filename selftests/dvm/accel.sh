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
{ dvm_accel all 2>&1; echo $? > /tmp/accel.rc; } | awk -v n="$_tap_n" -v n0="$_tap_n" '
	/^1\.\./ { next }
	/^ok / { n++; sub(/^ok [0-9]+/, "ok " n) }
	/^not ok / { n++; sub(/^not ok [0-9]+/, "not ok " n) }
	{ print; fflush() }
	END { print n - n0 > "/tmp/accel.points" }'
_tap_n=$((_tap_n + $(cat /tmp/accel.points)))	# lib.sh's count, past them
check "dvm_accel all: exit status $(cat /tmp/accel.rc), $(cat /tmp/accel.points) of its 32 points printed" \
	"test \"\$(cat /tmp/accel.rc)\" = 0 && test \"\$(cat /tmp/accel.points)\" = 32"

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
{ dvm_accel exec 2>&1; echo $? > /tmp/exec.rc; } | awk -v n="$_tap_n" -v n0="$_tap_n" '
	/^1\.\./ { next }
	/^ok / { n++; sub(/^ok [0-9]+/, "ok " n) }
	/^not ok / { n++; sub(/^not ok [0-9]+/, "not ok " n) }
	{ print; fflush() }
	END { print n - n0 > "/tmp/exec.points" }'
_tap_n=$((_tap_n + $(cat /tmp/exec.points)))
check "dvm_accel exec: exit status $(cat /tmp/exec.rc), $(cat /tmp/exec.points) of its 6 points printed" \
	"test \"\$(cat /tmp/exec.rc)\" = 0 && test \"\$(cat /tmp/exec.points)\" = 6"

# the device table of a 64 MiB and a 256 MiB heap, entry by entry
# (DVM_ACCEL_LEVELS): dvm_accel heap's 2 points and its "# heap levels:" lines
{ dvm_accel heap 64 256 2>&1; echo $? > /tmp/heap.rc; } | awk -v n="$_tap_n" -v n0="$_tap_n" '
	/^1\.\./ { next }
	/^ok / { n++; sub(/^ok [0-9]+/, "ok " n) }
	/^not ok / { n++; sub(/^not ok [0-9]+/, "not ok " n) }
	{ print; fflush() }
	END { print n - n0 > "/tmp/heap.points" }'
_tap_n=$((_tap_n + $(cat /tmp/heap.points)))
check "dvm_accel heap 64 256: exit status $(cat /tmp/heap.rc), $(cat /tmp/heap.points) of its 2 points printed" \
	"test \"\$(cat /tmp/heap.rc)\" = 0 && test \"\$(cat /tmp/heap.points)\" = 2"
