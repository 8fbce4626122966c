#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench`, part "remote" (two hosts): remote pool memory
# (MP-R). Host 0 onlines segment 3 (backed by host 1's device) as
# /dev/mps3 and runs mpbench on an mmap of it (MAP_SHARED: faults fetch
# pages over the transport, the page cache keeps them; steady-state
# numbers) and with pread/pwrite (every access a round trip to the
# device: the idle latency of MP-R), each followed by a verification that
# reads the pattern back from the device; BENCH_ROUNDS rounds of mpfault
# (BENCH_FAULT_PAGES 4 KiB page faults on a fresh mapping of /dev/mps3,
# each timed, each page's stamp checked: remote_fault_p50_us/_p99_us and
# remote_fault_cached, the pages found resident and so not timed,
# beside Soft-RoCE's 4 KiB read of the transport part); then
# stressapptest (GSAT) with its test memory on the mmap of /dev/mps3
# (bench/mpmap: libmpmap.so preloaded), 0 errors required. Host 1 serves.
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh

SEG=3		# host 1's second segment: its first holds the barrier slots
SIZE=${BENCH_REMOTE_SIZE:-16M}
GSAT=${BENCH_GSAT_SECONDS:-20}
GSAT_MB=${BENCH_REMOTE_GSAT_MB:-96}
FAULT_PAGES=${BENCH_FAULT_PAGES:-256}

# fault_run ROUND: one mpfault run, its p50 and p99
fault_run() {
	mpfault /dev/mps$SEG -s "$SIZE" -n "$FAULT_PAGES" --seed "$1" > /tmp/fault 2>&1
	_r=$?
	cat /tmp/fault >&2
	[ $_r = 0 ] || return 1
	res remote_fault_p50_us "$(sed -n 's/.* p50_us \([0-9.]*\).*/\1/p' /tmp/fault)"
	res remote_fault_p99_us "$(sed -n 's/.* p99_us \([0-9.]*\).*/\1/p' /tmp/fault)"
	res remote_fault_cached "$(sed -n 's/.* cached \([0-9]*\) .*/\1/p' /tmp/fault)"
}
if [ "$MP_HOST" = 1 ]; then
	tap_plan 2
	check "pool of 2 formed" bench_pool
	check "host 0 done" barrier 2 1200
	exit 0
fi
tap_plan $((7 + BENCH_ROUNDS))
check "pool of 2 formed" bench_pool
check "segment $SEG of host 1 online as dax: /dev/mps$SEG" \
	"bench_online_as $SEG dax && test -c /dev/mps$SEG"
if [ ! -c /dev/mps$SEG ]; then
	for i in 3 4 5 6 $ROUNDS; do fail "no /dev/mps$SEG: MP-R not measured"; done
else
	BENCH_SIZE=$SIZE
	check "MP-R mmap of /dev/mps$SEG: mpbench, pattern verified" \
		mpb_run remote_mmap mmap:/dev/mps$SEG
	check "MP-R pread/pwrite on /dev/mps$SEG: mpbench, pattern verified" \
		mpb_run remote_pio pio:/dev/mps$SEG
	for r in $ROUNDS; do
		check "round $r: $FAULT_PAGES 4 KiB faults on a fresh mapping of /dev/mps$SEG, stamps verified" \
			fault_run "$r"
	done
	check "MP-R: stressapptest ${GSAT}s, ${GSAT_MB} MiB on an mmap of /dev/mps$SEG, 0 errors" \
		"LD_PRELOAD=/usr/bin/libmpmap.so MPMAP_PATH=/dev/mps$SEG MPMAP_VERBOSE=1 stressapptest -s $GSAT -M $GSAT_MB -m $BENCH_THREADS -W > /tmp/gsat 2>&1; r=\$?; cat /tmp/gsat >&2; grep -q 'Status: PASS' /tmp/gsat && grep -q '^libmpmap: $((GSAT_MB << 20)) bytes at offset' /tmp/gsat && test \$r = 0"
	res remote_gsat_errors "$(sed -n 's/.*hardware incidents, \([0-9]*\) errors.*/\1/p' /tmp/gsat | head -n1)"
	check "segment $SEG offline again" mpctl offline $SEG
fi
check "barrier: done" barrier 2 1200
bench_emit
