#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --kernel patched --mem 2G --timeout 500
#
# Pointer-is-a-pointer for an unmodified program: dvm_structs builds a
# linked list, a binary search tree and a graph (adjacency lists) with plain
# malloc() under `mpctl dvm run`; dvm_physwalk then walks the same
# structures treating every pointer as a physical address (it sees only the
# process's frames, from /proc/PID/pagemap, read through /proc/PID/mem) and
# must get the CPU's answers, with every node at VA == PA.  Without the
# launcher the same walk must fail at the first pointer.  dvm_structs -a
# also hands the structures to /dev/dvm_accel: pointer chases over the
# list, the tree's outer paths and every adjacency list must end where the
# CPU's walks do, every access validated by a Permission Entry (identity)
# under the launcher, every access translated without it (control).  The
# "# raw:" lines name the phase the lines after them belong to and carry
# numbers for tools/dvm-eval/heap_tap.py (make dvm-eval runs this scenario
# in its guest boot: Documentation/dvm-heap.rst).
. /selftests/lib.sh
tap_plan 13

T=/tmp/dvm_structs
mkdir -p $T

# start_structs OUT [LAUNCHER...]: run dvm_structs, its stdin a fifo held
# open by a sleeper; sets SPID (the program) and HOLD (the sleeper)
start_structs() {
	out=$1; shift
	rm -f $T/fifo && mkfifo $T/fifo
	sleep 300 > $T/fifo &
	HOLD=$!
	"$@" dvm_structs -a < $T/fifo > "$out" 2> "$out.err" &
	SPID=$!
	wait_until 240 "grep -q ready $out"
}
stop_structs() {
	kill "$HOLD" 2>/dev/null
	wait "$SPID"
}
roots() { awk '/^list/{l=$2}/^tree/{t=$2}/^graph/{g=$2}END{print l, t, g}' "$1"; }
answers() { awk '$1=="list"||$1=="tree"||$1=="graph"{print $1, $3, $4}' "$1"; }
# accel_sum OUT: chains mismatches accesses identity translated faults
# validation_refs avc_misses us, summed over the structures' "accel" lines
accel_sum() {
	awk '$1=="accel"{c+=$4; m+=$6; a+=$8; i+=$10; t+=$12; f+=$14
			 r+=$16; am+=$18; us+=$20; n++}
	     END{if (n == 3) print c, m, a, i, t, f, r, am, us}' "$1"
}
# accel_checks OUT MODE: the accelerator's chases in OUT (MODE identity or
# translated)
accel_checks() {
	grep '^accel ' "$1" | while read -r l; do diag "$l"; done
	read -r ch mis acc idn trn flt refs am us <<EOF
$(accel_sum "$1")
EOF
	diag "accelerator: $ch chains, $acc accesses, $idn identity, $trn translated, $flt faults"
	diag "accelerator: $refs validation memory references, $am AVC misses, $us us in jobs"
	check "accelerator: $ch chases (list, tree paths, adjacency lists) end where the CPU's walks do ($mis differ)" \
		'[ -n "$mis" ] && [ "$ch" -gt 10000 ] && [ "$mis" = 0 ]'
	if [ "$2" = identity ]; then
		check "accelerator: all $acc accesses validated by a Permission Entry ($idn identity, $trn translated)" \
			'[ "$acc" -gt 300000 ] && [ "$idn" = "$acc" ] && [ "$trn" = 0 ]'
	else
		check "accelerator without the launcher: all $acc accesses translated ($idn identity, $trn translated)" \
			'[ "$acc" -gt 300000 ] && [ "$trn" = "$acc" ] && [ "$idn" = 0 ]'
	fi
}

# 1. under the launcher
diag "raw: phase=launcher"
start_structs $T/dvm.out mpctl dvm run --stat --
check "dvm_structs runs under mpctl dvm run" 'grep -q ready $T/dvm.out'
diag "$(grep -v '^accel ' $T/dvm.out | tr '\n' ' ')"
accel_checks $T/dvm.out identity
# mpctl dvm run execs: SPID is dvm_structs itself
mpctl dvm stat "$SPID" > $T/stat.json
cat $T/stat.json >&2
share=$(awk -F: '/"identity_share"/{gsub(/[ ,]/, "", $2); print $2; exit}' $T/stat.json)
diag "heap identity share (mpctl dvm stat): $share %"
prehook=$(awk -F: '/"prehook_bytes"/{gsub(/[ ,"]/, "", $2); print $2; exit}' $T/stat.json)
diag "raw: heap_share=$share prehook_bytes=$prehook"
check "mpctl dvm stat: >= 95 % of the heap identity mapped ($share %)" \
	'awk -v s="$share" "BEGIN{exit !(s >= 95)}"'

# where the anonymous memory that is not identity mapped is
awk '/^[0-9a-f]+-[0-9a-f]+ /{a=$1; n=$NF} /^Anonymous:/{an=$2}
     /^DvmIdentity:/{id=$2} /^VmFlags:/{ if (an - id >= 256) printf "# area %s %s: anonymous %d kB, identity %d kB\n", a, n, an, id; id=0 }' \
	/proc/$SPID/smaps
set -- $(roots $T/dvm.out)
dvm_physwalk "$SPID" "$1" "$2" "$3" > $T/walk.out 2> $T/walk.err
rc=$?
cat $T/walk.out $T/walk.err >&2
check "physical walk completes (every pointer is a physical address)" '[ $rc = 0 ]'
answers $T/dvm.out > $T/cpu.ans
grep -E '^(list|tree|graph) ' $T/walk.out > $T/walk.ans
check "physical walk gets the CPU's answers (list, tree, graph)" \
	'cmp $T/cpu.ans $T/walk.ans'
nodes=$(awk '/^nodes/{print $2}' $T/walk.out)
ident=$(awk '/^nodes/{print $4}' $T/walk.out)
diag "nodes walked: $nodes, at VA == PA: $ident"
check "every node walked is identity mapped ($ident of $nodes)" \
	'[ -n "$nodes" ] && [ "$nodes" -gt 200000 ] && [ "$nodes" = "$ident" ]'
stop_structs
rc=$?
check "dvm_structs exits cleanly under the launcher" '[ $rc = 0 ]'
grep '^mp-dvm:' $T/dvm.out.err | while read -r l; do diag "$l"; done
check "--stat prints the heap summary at exit" 'grep -q "^mp-dvm: pid $SPID: heap" $T/dvm.out.err'

# 2. the same program without the launcher: same answers, walk fails
diag "raw: phase=control"
start_structs $T/plain.out
answers $T/plain.out > $T/plain.ans
check "without the launcher the program's answers are the same" 'cmp $T/cpu.ans $T/plain.ans'
accel_checks $T/plain.out translated
set -- $(roots $T/plain.out)
dvm_physwalk "$SPID" "$1" "$2" "$3" > $T/walk2.out 2> $T/walk2.err
rc=$?
cat $T/walk2.out $T/walk2.err >&2
check "without the launcher the physical walk fails (control)" '[ $rc = 1 ]'
stop_structs
