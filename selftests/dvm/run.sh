#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --kernel patched --mem 2G --timeout 600
#
# DVM (identity-mapped anonymous memory) in a guest running the DVM-patched
# kernel: runs the kselftest programs dvm_thp (identity runs 64 MiB /
# 1 GiB aligned, mapped with THPs, kept by splits), dvm_test (ABI,
# identity mapping, fallback, life cycle) and dvm_mix (identity success
# rate under a mix of processes, allocation cost against MAP_POPULATE)
# and prints one TAP stream with their test points renumbered, plus
# checks of its own: the kernel has DVM, no memory is lost over the whole
# run, and the kernel log is clean.  dvm_test's oom_kill test makes the
# OOM killer print a report with a call trace on purpose: the filter
# /tmp/mp-klog-filter (which guest-init's final check applies too) removes
# only the "Call Trace:" lines inside OOM reports; the log is kept whole,
# so anything else in it, before or after, still fails the guest.

. /selftests/lib.sh

# Test points per program: keep in sync with the programs (a mismatch is
# reported as a failure).
DVM_TEST_N=32
DVM_MIX_N=3
DVM_THP_N=10
N=$((3 + DVM_TEST_N + DVM_MIX_N + DVM_THP_N))

n=0
point() {	# point ok|not-ok DESCRIPTION
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

findbin() {
	for d in "${DVM_BIN_DIR:-}" "$(dirname "$0")/../../build/selftests/dvm" \
		 /build/selftests/dvm /usr/bin; do
		[ -n "$d" ] && [ -x "$d/$1" ] && { echo "$d/$1"; return 0; }
	done
	command -v "$1"
}

# run PROG EXPECTED: stream PROG's TAP, renumbered into ours
run() {
	prog=$1 want=$2 got=0
	bin=$(findbin "$prog")
	if [ -z "$bin" ]; then
		while [ $got -lt "$want" ]; do
			point not-ok "$prog: not found in the guest"
			got=$((got + 1))
		done
		return
	fi
	t0=$(date +%s)
	# The reading side of the pipe is a subshell: it hands its counts on
	# through a file.
	{ "$bin" </dev/null 2>&1; echo $? > /tmp/dvm.$prog.rc; } | {
		while IFS= read -r line; do
			case $line in
			"TAP version"*|"# Starting"*|"#  RUN "*|"#            OK "*|"#          FAIL "*) ;;
			1..*)
				[ "${line#1..}" = "$want" ] ||
					echo "# $prog: plans ${line#1..} tests, run.sh expects $want"
				;;
			"ok "*|"not ok "*)
				got=$((got + 1))
				case $line in
				ok*) res=ok rest=${line#ok } ;;
				*) res=not-ok rest=${line#not ok } ;;
				esac
				point $res "$prog: ${rest#* }"
				;;
			*) echo "# $line" | sed 's/^# # /# /' ;;
			esac
		done
		echo "$n $got" > /tmp/dvm.$prog.count
	}
	read -r n got < /tmp/dvm.$prog.count
	while [ "$got" -lt "$want" ]; do
		got=$((got + 1))
		point not-ok "$prog: test point $got missing (exit status $(cat /tmp/dvm.$prog.rc))"
	done
	echo "# $prog: exit status $(cat /tmp/dvm.$prog.rc), $(( $(date +%s) - t0 ))s"
}

# MemFree plus the pages parked on per-CPU free lists (KiB)
free_kb() {
	awk 'FNR == NR && /^MemFree:/ { f = $2 }
	     FNR != NR && $1 == "count:" { p += $2 }
	     END { print f + p * 4 }' /proc/meminfo /proc/zoneinfo
}

# the expected lines of the OOM killer's report, and only those
klog_allow_oom

echo "1..$N"
free0=$(free_kb)
cp /proc/meminfo /tmp/dvm.meminfo0

if [ -r /proc/sys/vm/dvm_min_bytes ] && grep -q '^dvm_identity_maps ' /proc/vmstat; then
	point ok "kernel $(uname -r) has DVM (vm.dvm_min_bytes $(cat /proc/sys/vm/dvm_min_bytes), /proc/vmstat dvm_*)"
else
	point not-ok "kernel $(uname -r) has no DVM (vm.dvm_min_bytes, /proc/vmstat dvm_*): not the patched kernel?"
fi

# dvm_thp first: it expects 64 MiB aligned free runs, as in a fresh boot
run dvm_thp $DVM_THP_N
run dvm_test $DVM_TEST_N
run dvm_mix $DVM_MIX_N

grep '^dvm_' /proc/vmstat | tr '\n' ' ' | sed 's/^/# \/proc\/vmstat: /; s/ $/\n/'
sync
free1=$(free_kb)
d=$((free0 - free1))
# KASAN's quarantine keeps freed slab objects back, up to 1/32 of memory:
# on such a kernel the growth of unreclaimable slab is not counted, up to
# that bound (pages the tests leak would still show).
if dmesg | grep -q 'KernelAddressSanitizer initialized'; then
	sunr() { awk '/^SUnreclaim:/ { print $2 }' "$1"; }
	q=$(( $(sunr /proc/meminfo) - $(sunr /tmp/dvm.meminfo0) ))
	qmax=$(( $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 32 ))
	[ "$q" -gt "$qmax" ] && q=$qmax
	[ "$q" -gt 0 ] || q=0
	echo "# KASAN kernel: $q kB of unreclaimable slab growth taken as its quarantine"
	d=$((d - q))
fi
if [ "$d" -lt 16384 ]; then
	point ok "free memory back at its start value (within 16 MiB): $free0 -> $free1 kB"
else
	point not-ok "free memory $free0 -> $free1 kB: $d kB not given back"
	# what grew, for the diagnosis
	awk 'FNR == NR { a[$1] = $2; next } $2 != a[$1] { print "#   " $1, a[$1], "->", $2 }' \
		/tmp/dvm.meminfo0 /proc/meminfo
fi

# The kernel log without the OOM reports' call traces must have no
# warning, bug or oops (guest-init checks it again at the end, the same way)
bad=$(dmesg | /tmp/mp-klog-filter |
	grep -E 'WARNING:|BUG:|Oops|general protection|Call Trace|UBSAN|KASAN' | head -n 3)
if [ -z "$bad" ]; then
	point ok "kernel log clean apart from the expected OOM report's call trace ($(dmesg | grep -c 'invoked oom-killer') OOM reports)"
else
	point not-ok "kernel log has: $(echo "$bad" | head -n 1)"
	dmesg | tail -n 80 >&2
fi
[ $n = $N ] || echo "# run.sh: $n test points, planned $N"
