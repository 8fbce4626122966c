#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench/report on made-up bench/run output (make unit): ratios computed from
# the RESULT lines, missing parts shown as skipped, a failed part fails the
# report. Prints TAP.
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
n=0
t() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}
mkdir -p "$d/memory/host0" "$d/online/host0" "$d/jumbo/host0"
printf '# RESULT mem_sys_latency 100\n# RESULT mem_mpl_latency 150\nok 1\n' > "$d/memory/host0/tap.log"
printf '# RESULT online_mpctl_online_ms_per_gib 300\n# RESULT online_daxctl_online_ms_per_gib 400\n' > "$d/online/host0/tap.log"
printf '# RESULT jumbo_mpe_wlat_p50_us 300\n# RESULT jumbo_rxe_slat_rtt_p50_us 200\n' > "$d/jumbo/host0/tap.log"
echo passed > "$d/jumbo.status"
echo passed > "$d/memory.status"
echo passed > "$d/online.status"
echo "1..7"
t "report passes on passed parts" "python3 '$here/report' '$d' > '$d/out'"
t "MP-L/system latency ratio 1.50" "grep -q 'MP-L / system memory: idle latency .* 150 .* 100 .* 1.50' '$d/out'"
t "mpctl/daxctl online ratio 0.75" "grep -q 'online time per GiB .* 0.75' '$d/out'"
t "MTU 9000 write vs send round trip ratio 1.50 (jumbo_ keys)" \
	"grep -q 'MTU 9000: 64 B write vs send round trip p50 .* 300 .* 200 .* 1.50' '$d/out' && grep -q 'Soft-RoCE: 64 B write vs send round trip p50 .*skipped' '$d/out'"
t "an absent measure is skipped" "grep -q 'triad bandwidth .*skipped' '$d/out'"
t "results.json and results.md written" \
	"python3 -c 'import json,sys; r = json.load(open(sys.argv[1])); sys.exit(r[\"results\"][\"mem_mpl_latency\"] != 150)' '$d/results.json' && grep -q '^| memory | passed |' '$d/results.md'"
echo failed > "$d/online.status"
t "a failed part fails the report" "! python3 '$here/report' '$d' > /dev/null"
