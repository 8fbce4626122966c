#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench`, part "memory" (one host): MLC-style latency
# and bandwidth of system memory against local pool memory (MP-L: every
# local segment onlined as System RAM on the pool's CPU-less node, reached
# with a node-bound buffer as numactl --membind would), BENCH_ROUNDS
# rounds of system memory then MP-L, then stressapptest (the paper's GSAT)
# on MP-L. Correctness: every verification and GSAT must pass.
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh

GSAT=${BENCH_GSAT_SECONDS:-20}
tap_plan $((3 + 2 * BENCH_ROUNDS))
check "cmm_mp loads on $MP_POOL_MEM" load_cmm_mp
check "every local segment online (MP-L on node $MP_POOL_NODE)" \
	"mpctl online all >/dev/null && test \$(node_memtotal_kb $MP_POOL_NODE) -gt 0"
for r in $ROUNDS; do
	check "round $r: system memory: mpbench, pattern verified" mpb_run mem_sys sys
	check "round $r: MP-L: mpbench on node $MP_POOL_NODE, pattern verified" \
		mpb_run mem_mpl "node:$MP_POOL_NODE"
done
free_mb=$(($(node_memtotal_kb $MP_POOL_NODE) / 1024 * 6 / 10))
check "MP-L: stressapptest ${GSAT}s, ${free_mb} MiB on node $MP_POOL_NODE, 0 errors" \
	"numactl --membind=$MP_POOL_NODE stressapptest -s $GSAT -M $free_mb -m $BENCH_THREADS -W > /tmp/gsat 2>&1; r=\$?; cat /tmp/gsat >&2; grep -q 'Status: PASS' /tmp/gsat && test \$r = 0"
res mem_gsat_errors "$(sed -n 's/.*Found \([0-9]*\) hardware incidents.*/\1/p' /tmp/gsat | head -n1)"
bench_emit
