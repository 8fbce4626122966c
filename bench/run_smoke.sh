#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make check`'s smoke of `make bench` (a unit test: it needs the host side,
# bench/report, which no guest has): bench/run end to end on a tiny
# configuration, the "memory" part (one guest, mpbench on system memory and
# MP-L with verification, stressapptest on MP-L) for 2 rounds of a fraction
# of a second each, then results.json must be well formed: the run's
# provenance, 2 numeric samples of every measure of both targets, median
# and p99 that match them, every goal listed. No timing is judged. Prints
# TAP.
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
mkdir -p "$top/runs"
d=$(mktemp -d "$top/runs/bench-smoke.XXXXXX")
trap 'rm -rf "$d"' EXIT
n=0
t() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; return 1; fi
}
echo "1..5"
MKINITRAMFS_BENCH=0 BENCH_OUT=$d/run BENCH_ROUNDS=2 BENCH_SECONDS=0.2 BENCH_SIZE=8M BENCH_THREADS=1 \
	BENCH_GSAT_SECONDS=2 BENCH_TIMEOUT=300 "$top/bench/run" memory > "$d/out" 2>&1
rc=$?
t "bench/run memory, 2 rounds, tiny sizes: exit 0" "test $rc = 0" ||
	tail -n 20 "$d/out" | sed 's/^/# /'
j=$d/run/results.json
t "results.json written" "test -s '$j'"
want=
for k in latency read 3to1 2to1 1to1 triad; do want="$want mem_sys_$k mem_mpl_$k"; done
well_formed() {
	# shellcheck disable=SC2086 # $want: words
	python3 "$here/report" --check "$j" --rounds 2 --want $want > "$d/chk" 2>&1
	_r=$?
	sed 's/^/# /' "$d/chk"
	return $_r
}
t "well formed: provenance, 2 numeric samples of each of 12 measures, median/p99 match" well_formed
t "every goal listed (16), each 'not measured' by this part; MP-L/system ratios computed" \
	"python3 -c 'import json,sys; r = json.load(open(sys.argv[1])); g = r[\"goals\"]; m = [x for x in r[\"ratios\"] if x[\"keys\"][0].startswith(\"mem_mpl_\")]; sys.exit(not (len(g) == 16 and all(x[\"status\"] == \"not measured\" for x in g) and len(m) == 6 and all(x[\"ratio\"] > 0 for x in m)))' '$j'"
# shellcheck disable=SC2016 # RST literals, not expansions
names_run() {
	python3 "$here/report" --rst "$j" > "$d/rst" &&
		grep -qF 'from the run ``run``' "$d/rst" &&
		grep -qF "commit \`\`$(git -C "$top" rev-parse --short=12 HEAD)\`\`" "$d/rst"
}
t "the generated tables name the run and its commit" names_run
