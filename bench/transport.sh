#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/transport.sh: mp_eth vs Soft-RoCE (rdma_rxe + perftest) between two
# QEMU guests on one bridge: 64 B read latency (p50, p99) and 8 MiB read
# and write bandwidth, then the ratios ours/Soft-RoCE. The guest side is
# selftests/mp_eth/bench_transport.sh; logs in runs/bench-transport/.
# Goal: latency ratio <= 0.5, bandwidth ratio >= 1.5.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=$top/runs/bench-transport
rm -rf "$out"
mkdir -p "$out"
img=$top/build/bench-guest.cpio.gz
scripts/mkinitramfs "$img" || exit 1
scripts/vmrun --hosts 2 --timeout 900 --initrd "$img" --out "$out" --quiet \
	-- /selftests/mp_eth/bench_transport.sh
rc=$?
tap=$out/host0/tap.log
v() { sed -n "s/^# RESULT $1 //p" "$tap" | head -n1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "n/a" }'; }

printf '%-28s %12s %12s %8s\n' "" "mp_eth" "Soft-RoCE" "ratio"
printf '%-28s %12s %12s %8s\n' "64 B read latency p50 (us)" "$(v mpe_lat_p50_us)" "$(v rxe_lat_p50_us)" \
	"$(ratio "$(v mpe_lat_p50_us)" "$(v rxe_lat_p50_us)")"
printf '%-28s %12s %12s %8s\n' "64 B read latency p99 (us)" "$(v mpe_lat_p99_us)" "$(v rxe_lat_p99_us)" \
	"$(ratio "$(v mpe_lat_p99_us)" "$(v rxe_lat_p99_us)")"
printf '%-28s %12s %12s %8s\n' "8 MiB read (MiB/s)" "$(v mpe_read_MiBps)" "$(v rxe_read_MiBps)" \
	"$(ratio "$(v mpe_read_MiBps)" "$(v rxe_read_MiBps)")"
printf '%-28s %12s %12s %8s\n' "8 MiB write (MiB/s)" "$(v mpe_write_MiBps)" "$(v rxe_write_MiBps)" \
	"$(ratio "$(v mpe_write_MiBps)" "$(v rxe_write_MiBps)")"
echo "goal: latency ratio <= 0.5, bandwidth ratio >= 1.5 (logs: $out)"
exit $rc
