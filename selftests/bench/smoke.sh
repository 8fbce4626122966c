#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --pool 256M --mem 2G --timeout 300
#
# `make check`'s smoke of `make bench`: the "memory" part (mpbench on
# system memory and MP-L with verification, stressapptest on MP-L) for a
# fraction of a second each, so the benchmark's guest side cannot rot.
export BENCH_SECONDS=0.2 BENCH_SIZE=8M BENCH_GSAT_SECONDS=2 BENCH_THREADS=1
exec /selftests/bench/memory.sh
