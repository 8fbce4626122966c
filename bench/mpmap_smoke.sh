#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# libmpmap.so on the host (make unit): stressapptest's test memory lands in
# the file given as MPMAP_PATH (its blocks get allocated), GSAT passes on
# it, and a file too small for the request is refused with a clear line.
# Prints TAP.
top=$(cd "$(dirname "$0")/.." && pwd)
so=$top/build/bench/libmpmap.so
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
n=0
t() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}
echo "1..3"
truncate -s 64M "$d/pool"
t "stressapptest -M 32 on a 64 MiB file through libmpmap: PASS" \
	"LD_PRELOAD='$so' MPMAP_PATH='$d/pool' MPMAP_VERBOSE=1 stressapptest -M 32 -s 1 -m 1 > '$d/gsat' 2>&1 && grep -q 'Status: PASS' '$d/gsat' && grep -q '^libmpmap: 33554432 bytes at offset 0' '$d/gsat'"
t "its test memory is the file's: $(du -k "$d/pool" | cut -f1) KiB of the file written" \
	"test \$(du -k '$d/pool' | cut -f1) -ge 32768"
truncate -s 8M "$d/small"
t "a file too small: refused with a clear line, the program sees no memory" \
	"! LD_PRELOAD='$so' MPMAP_PATH='$d/small' stressapptest -M 32 -s 1 -m 1 > '$d/gsat2' 2>&1; grep -q '^libmpmap: no room for' '$d/gsat2'"
