#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/transport.sh: mp_eth vs Soft-RoCE (rdma_rxe + perftest) between two
# QEMU guests on one bridge: 64 B read and write latency, 8 MiB read and
# write bandwidth, Soft-RoCE's send as well, then the ratios
# ours/Soft-RoCE. The guest side is
# selftests/mp_eth/bench_transport.sh; logs in runs/bench-transport/.
# Goal: latency ratio <= 0.5, bandwidth ratio >= 1.5.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=$top/runs/bench-transport
rm -rf "$out"
mkdir -p "$out"
img=$top/build/bench-guest.cpio.gz
MKINITRAMFS_BENCH=1 scripts/mkinitramfs "$img" || exit 1
scripts/vmrun --hosts 2 --timeout 900 --initrd "$img" --out "$out" --quiet \
	-- /selftests/mp_eth/bench_transport.sh
rc=$?
tap=$out/host0/tap.log
v() { sed -n "s/^# RESULT $1 //p" "$tap" | head -n1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "n/a" }'; }

row() {	# LABEL OURS-KEY ANCHOR-KEY
	printf '%-36s %12s %12s %8s\n' "$1" "$(v "$2")" "$(v "$3")" "$(ratio "$(v "$2")" "$(v "$3")")"
}
printf '%-36s %12s %12s %8s\n' "" "mp_eth" "Soft-RoCE" "ratio"
row "64 B read latency p50 (us)" mpe_lat_p50_us rxe_lat_p50_us
row "64 B read latency p99 (us)" mpe_lat_p99_us rxe_lat_p99_us
row "64 B write round trip p50 (us)" mpe_wlat_p50_us rxe_wlat_rtt_p50_us
row "64 B write vs send round trip (us)" mpe_wlat_p50_us rxe_slat_rtt_p50_us
row "8 MiB read (MiB/s)" mpe_read_MiBps rxe_read_MiBps
row "8 MiB write (MiB/s)" mpe_write_MiBps rxe_write_MiBps
row "8 MiB write vs send (MiB/s)" mpe_write_MiBps rxe_send_MiBps
echo "goal: latency ratio <= 0.5, bandwidth ratio >= 1.5 (logs: $out)"
exit $rc
