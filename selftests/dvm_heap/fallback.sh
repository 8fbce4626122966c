#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --kernel patched --mem 2G --timeout 600
#
# Fallback and --strict when contiguous memory is exhausted: dvm_frag takes
# nearly all free memory and gives back only single pages whose buddies
# it keeps, so no block a heap chunk needs is free.  Under `mpctl dvm run`
# dvm_structs must still run correctly with demand-paged chunks, counted as
# "nocontig" fallback, and the accelerator's chases over its structures
# (dvm_structs -a) must still end where the CPU's walks do, the accesses
# to demand-paged memory translated; with --strict the allocation fails
# instead (malloc returns NULL, the program says so) and the refused chunks
# are counted.
# Once the memory is given back, --strict runs with an identity-mapped heap.
# The "# raw:" lines name the phase the lines after them belong to and
# carry numbers for tools/dvm-eval/heap_tap.py (make dvm-eval runs this
# scenario in its guest boot: Documentation/dvm-heap.rst).
. /selftests/lib.sh
tap_plan 10

T=/tmp/dvm_fallback
mkdir -p $T
answers() { awk '$1=="list"||$1=="tree"||$1=="graph"{print $1, $3, $4}' "$1"; }
vmstat() { awk -v k="$1" '$1==k{print $2}' /proc/vmstat; }

dvm_structs < /dev/null > $T/plain.out
answers $T/plain.out > $T/plain.ans

# no compaction undoing the fragmentation during the test
pro=$(cat /proc/sys/vm/compaction_proactiveness 2>/dev/null)
[ -n "$pro" ] && echo 0 > /proc/sys/vm/compaction_proactiveness
THP=/sys/kernel/mm/transparent_hugepage
defrag=$(sed 's/.*\[\(.*\)\].*/\1/' $THP/defrag 2>/dev/null)
[ -n "$defrag" ] && echo never > $THP/defrag
rm -f $T/fifo && mkfifo $T/fifo
sleep 600 > $T/fifo &
HOLD=$!
dvm_frag 160 < $T/fifo > $T/frag.out &
FPID=$!
wait_until 300 "grep -q ready $T/frag.out"
diag "raw: phase=fragmented"
diag "$(cat $T/frag.out)"
awk '$4 != "DMA"' /proc/buddyinfo | while read -r l; do diag "buddyinfo: $l"; done
nc0=$(vmstat dvm_fallback_nocontig)

mpctl dvm run --stat -- dvm_structs -a < /dev/null > $T/fb.out 2> $T/fb.err
rc=$?
cat $T/fb.err >&2
nc1=$(vmstat dvm_fallback_nocontig)
diag "$(grep '^mp-dvm: pid' $T/fb.err)"
check "fragmented memory: the program runs (falling back)" '[ $rc = 0 ]'
answers $T/fb.out > $T/fb.ans
check "fragmented memory: same answers as without the launcher" 'cmp $T/plain.ans $T/fb.ans'
check "fragmented memory: summary shows nocontig fallback" \
	'grep -q "fallback [0-9.]* MiB (.*nocontig" $T/fb.err'
check "dvm_fallback_nocontig rose ($nc0 -> $nc1)" '[ "$nc1" -gt "$nc0" ]'
diag "raw: nocontig_before=$nc0 nocontig_after=$nc1"
grep '^accel ' $T/fb.out | while read -r l; do diag "$l"; done
read -r mis acc idn trn <<EOF
$(awk '$1=="accel"{m+=$6; a+=$8; i+=$10; t+=$12; n++}
       END{if (n == 3) print m, a, i, t}' $T/fb.out)
EOF
check "fragmented memory: the accelerator's chases end where the CPU's walks do ($mis differ), $trn of $acc accesses translated, $idn identity" \
	'[ "$mis" = 0 ] && [ "$acc" -gt 300000 ] && [ "$trn" -gt 0 ] && [ $((idn + trn)) = "$acc" ]'

diag "raw: phase=strict"
mpctl dvm run --strict --stat -- dvm_structs < /dev/null > $T/strict.out 2> $T/strict.err
rc=$?
cat $T/strict.err >&2
diag "$(grep '^mp-dvm: pid' $T/strict.err)"
check "--strict: the allocation fails, the program exits with an error ($rc)" \
	'[ $rc = 1 ] && grep -q "malloc: Cannot allocate memory" $T/strict.err'
check "--strict: the summary counts refused chunks" \
	'grep -q "refused [1-9][0-9.]* MiB (nocontig [0-9.]* MiB) (strict)" $T/strict.err'

kill $HOLD
wait $FPID
[ -n "$pro" ] && echo "$pro" > /proc/sys/vm/compaction_proactiveness
[ -n "$defrag" ] && echo "$defrag" > $THP/defrag
diag "raw: phase=memory_back"
mpctl dvm run --strict --stat -- dvm_structs < /dev/null > $T/ok.out 2> $T/ok.err
rc=$?
cat $T/ok.err >&2
diag "$(grep '^mp-dvm: pid' $T/ok.err)"
check "memory back: --strict runs" '[ $rc = 0 ]'
answers $T/ok.out > $T/ok.ans
check "memory back: same answers" 'cmp $T/plain.ans $T/ok.ans'
check "memory back: nothing refused, all identity" \
	'grep -q "identity [0-9.]* MiB (100.0 %), fallback 0.0 MiB, refused 0.0 MiB" $T/ok.err'
