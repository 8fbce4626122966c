#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Not a scenario (no vm: line): the guest part of `make dvm-eval`
# (tools/dvm-eval/run boots the patched kernel with it).  Runs the DVM
# heap scenarios named in $3 (selftests/dvm_heap/, the measurements of
# Documentation/dvm-heap.rst) on the fresh boot, one after the other, but
# fallback, which fragments memory on purpose, last of all; then
# dvm_accel heap 64 256 (the device table of a 64 MiB and a 256 MiB
# identity heap, entry by entry: "# raw: heap mib=" lines); then
# dvm_accel graph over the scales in $1 at the AVC's default size, then
# over those in $2 at 8 KiB, changing avc_bytes at run time; then
# dvm_mix's identity success rate under its moderate and tight memory
# mixes.  Every job's raw counters, its table's entries by level
# included, are in the "# raw:" lines; a heap
# scenario's own TAP is passed on whole, each line behind "# dvm_heap/NAME: "
# (comments of this stream: tools/dvm-eval/collect takes them apart), and
# its exit status and count of points are one point here.
. /selftests/lib.sh

param=/sys/module/dvm_accel/parameters/avc_bytes
heap=${3-}
# shellcheck disable=SC2086 # the scenarios: words
tap_plan $((6 + $(echo $heap | wc -w)))
# heap_scenario NAME: a DVM heap scenario, its TAP passed on; its plan
# must be met (a scenario cut short fails here).  Its files in /tmp (the
# guest's RAM) go afterwards, so that they take no memory from what follows.
now() { cut -d' ' -f1 /proc/uptime; }
heap_scenario() {
	s=$1
	t0=$(now)
	"/selftests/dvm_heap/$s.sh" > "/tmp/heap-$s.tap"
	hr=$?
	t1=$(now)
	sed "s|^|# dvm_heap/$s: |" "/tmp/heap-$s.tap"
	hp=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "/tmp/heap-$s.tap" | head -n 1)
	hskip=$(grep -c '^ok .*# SKIP' "/tmp/heap-$s.tap")
	hok=$(($(grep -c '^ok ' "/tmp/heap-$s.tap") - hskip))
	hnok=$(grep -c '^not ok ' "/tmp/heap-$s.tap")
	diag "raw: heap scenario=$s rc=$hr plan=${hp:-0} passed=$hok failed=$hnok skipped=$hskip seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b - a}')"
	check "dvm_heap/$s: exit $hr, $hok of ${hp:-no} planned points passed, $hnok failed, $hskip skipped" \
		"test $hr = 0 && test -n '$hp' && test $hok = '$hp'"
	rm -rf "/tmp/dvm_$s" "/tmp/heap-$s.tap"
}

# shellcheck disable=SC2086 # the scenarios: words
for s in $heap; do
	[ "$s" = fallback ] || heap_scenario "$s"
done

# the device table of a 64 MiB and a 256 MiB identity heap by level; a
# heap that dvm_accel heap could not identity map is a SKIP there, no
# measurement here, so both of its points must pass
dvm_accel heap 64 256 > /tmp/accel-heap 2>&1
rh=$?
sed -n 's/^# raw: /# raw: /p; s/^# heap levels:/# heap levels:/p' /tmp/accel-heap
aok=$(grep -c '^ok' /tmp/accel-heap)
askip=$(grep -c '^ok .*# SKIP' /tmp/accel-heap)
anok=$(grep -c '^not ok' /tmp/accel-heap)
check "dvm_accel heap 64 256: exit $rh, $aok ok ($askip skipped), $anok not ok" \
	"test $rh = 0 && test $aok = 2 && test $askip = 0 && test $anok = 0"
check "the accelerator's AVC defaults to the paper's 1 KiB ($(cat $param 2>&1))" \
	"test \"\$(cat $param)\" = 1024"
diag "raw: avc_bytes=1024"
# shellcheck disable=SC2086
dvm_accel graph $1 > /tmp/g1 2>&1
r1=$?
sed -n 's/^# raw: /# raw: /p; s/^# scale/# scale/p' /tmp/g1
check "dvm_accel graph $1 at 1 KiB: exit $r1, $(grep -c '^ok' /tmp/g1) ok, $(grep -c '^not ok' /tmp/g1) not ok" \
	"test $r1 = 0 && ! grep -q '^not ok' /tmp/g1 && grep -q '^ok' /tmp/g1"
check "avc_bytes set to 8192 at run time" "echo 8192 > $param && test \"\$(cat $param)\" = 8192"
diag "raw: avc_bytes=8192"
# shellcheck disable=SC2086
dvm_accel graph $2 > /tmp/g2 2>&1
r2=$?
sed -n 's/^# raw: /# raw: /p; s/^# scale/# scale/p' /tmp/g2
check "dvm_accel graph $2 at 8 KiB: exit $r2, $(grep -c '^ok' /tmp/g2) ok, $(grep -c '^not ok' /tmp/g2) not ok" \
	"test $r2 = 0 && ! grep -q '^not ok' /tmp/g2 && grep -q '^ok' /tmp/g2"
# identity coverage: the share of mappings identity mapped in dvm_mix's
# two mixes (its allocation cost test runs too: not reported here)
dvm_mix > /tmp/mix 2>&1
rm=$?
sed -n 's/.*dvm_mix \([a-z]*\): identity success rate [0-9.]* % (\([0-9]*\) of \([0-9]*\) mappings >= 2 MiB; fallback nocontig \([0-9]*\), vabusy \([0-9]*\), populate \([0-9]*\); \([0-9]*\) above 4 MiB).*/# raw: mix variant=\1 identity=\2 maps=\3 nocontig=\4 vabusy=\5 populate=\6 above4m=\7/p' /tmp/mix
check "dvm_mix: exit $rm, identity success rates $(sed -n 's/.*identity success rate \([0-9.]*\) %.*/\1 %/p' /tmp/mix | tr '\n' ' ')" \
	"test $rm = 0 && test \$(grep -c 'identity success rate' /tmp/mix) = 2"

# shellcheck disable=SC2086
for s in $heap; do
	[ "$s" != fallback ] || heap_scenario "$s"
done
