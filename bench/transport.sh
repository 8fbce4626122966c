#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/transport.sh (`make bench-transport`): mp_eth against Soft-RoCE
# (rdma_rxe + perftest) between two QEMU guests on one bridge alone: the
# "transport" part of bench/run (selftests/mp_eth/bench_transport.sh),
# BENCH_ROUNDS alternating rounds, into runs/bench-transport/ (BENCH_OUT),
# with its results.json, goals and ratios from bench/report.
top=$(cd "$(dirname "$0")/.." && pwd)
BENCH_OUT=${BENCH_OUT:-$top/runs/bench-transport} exec "$top/bench/run" transport
