#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench`, part "online" (one host): the cost of
# onlining and offlining 1 GiB with mpctl (8 segments of the pool device)
# against daxctl on the same kind of range in the same guest: a legacy
# pmem range (memmap=1G!1G, nd_e820) turned into a devdax namespace, then
# `daxctl reconfigure-device --mode=system-ram` and back. Both land in
# ZONE_MOVABLE; the rates are per GiB of MemTotal actually added, since
# devdax keeps a little of its range for its own metadata. Round 0 is a
# warm-up reported alone: the pool device zeroes a segment the first time
# it is handed to an owner (no data crosses from one owner to the next),
# which later rounds of the same owner skip. Each later round is one
# sample of each rate, mpctl then daxctl.
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh

# round 0 and BENCH_ROUNDS rounds, each a sample of both tools
ROUNDS=${BENCH_ONLINE_ROUNDS:-$((${BENCH_ROUNDS:-5} + 1))}
tap_plan 6
check "cmm_mp loads on $MP_POOL_MEM" load_cmm_mp
check "legacy pmem namespace becomes devdax (ndctl)" \
	"modprobe nd_e820 && modprobe dax_pmem && modprobe kmem && ndctl create-namespace -f -e namespace0.0 -m devdax >&2 && test -e /dev/dax0.0"

# rounds of: online (time, MemTotal delta), offline (time)
# per_gib MS KB: milliseconds per GiB added (no sample when none was)
per_gib() { awk -v t="$1" -v kb="$2" 'BEGIN { if (kb > 0) printf "%.1f", t * 1048576 / kb }'; }
mp_on=0 mp_off=0 dx_on=0 dx_off=0 mp_kb=0 dx_kb=0 bad=0 mpbad=0 dxbad=0
i=0
while [ $i -lt "$ROUNDS" ]; do
	m0=$(memtotal_kb)
	t0=$(ms); mpctl online all >/dev/null || bad=1; t1=$(ms)
	m1=$(memtotal_kb)
	mpctl offline all >/dev/null || bad=1; t2=$(ms)
	diag "round $i: mpctl online $((t1 - t0)) ms, offline $((t2 - t1)) ms, $((m1 - m0)) kB"
	[ $((m1 - m0)) = 1048576 ] || mpbad=1
	if [ $i = 0 ]; then
		res online_mpctl_first_online_ms_per_gib $((t1 - t0))
	else
		mp_on=$((mp_on + t1 - t0)); mp_off=$((mp_off + t2 - t1))
		mp_kb=$((mp_kb + m1 - m0))
		res online_mpctl_online_ms_per_gib "$(per_gib $((t1 - t0)) $((m1 - m0)))"
		res online_mpctl_offline_ms_per_gib "$(per_gib $((t2 - t1)) $((m1 - m0)))"
	fi
	[ "$(memtotal_kb)" = "$m0" ] || bad=1

	t0=$(ms); daxctl reconfigure-device --mode=system-ram dax0.0 >/dev/null 2>&1 || bad=1; t1=$(ms)
	m1=$(memtotal_kb)
	daxctl reconfigure-device --mode=devdax -f dax0.0 >/dev/null 2>&1 || bad=1; t2=$(ms)
	diag "round $i: daxctl online $((t1 - t0)) ms, offline $((t2 - t1)) ms, $((m1 - m0)) kB"
	[ $((m1 - m0)) -gt 0 ] || dxbad=1
	if [ $i != 0 ]; then
		dx_on=$((dx_on + t1 - t0)); dx_off=$((dx_off + t2 - t1))
		dx_kb=$((dx_kb + m1 - m0))
		res online_daxctl_online_ms_per_gib "$(per_gib $((t1 - t0)) $((m1 - m0)))"
		res online_daxctl_offline_ms_per_gib "$(per_gib $((t2 - t1)) $((m1 - m0)))"
	fi
	[ "$(memtotal_kb)" = "$m0" ] || bad=1
	i=$((i + 1))
done
check "$ROUNDS rounds of online/offline with mpctl and daxctl, MemTotal restored each time" test $bad = 0
check "mpctl added exactly 1 GiB in every round" test $mpbad = 0
check "daxctl added memory in every round ($((dx_kb / (ROUNDS - 1))) kB)" test $dxbad = 0
# ms per GiB, from the sums
check "both timed over $((ROUNDS - 1)) rounds" test $mp_on -gt 0 -a $dx_on -gt 0
bench_emit
