#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# selftests/pool/tiering_report.sh TAP [DOC]: the table of what one run of
# selftests/pool/tiering.sh measured, as reStructuredText, from its TAP
# stream (TAP: the host's tap.log, e.g. runs/check/pool-tiering/host0/
# tap.log), read off its "# RESULT key value" lines. A run with a failed
# point or without its plan's points all there gives no table. With DOC,
# the block between DOC's ".. BEGIN selftests/pool/tiering_report.sh" and
# ".. END selftests/pool/tiering_report.sh" lines is replaced by it
# (Documentation/tiering.rst); without, it goes to stdout.
set -eu

tap=${1:?usage: tiering_report.sh TAP [DOC]}
doc=${2:-}
me=selftests/pool/tiering_report.sh

plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$tap" | head -n 1)
oks=$(grep -c '^ok [0-9]' "$tap" || true)
if [ -z "$plan" ] || [ "$oks" != "$plan" ] || grep -q '^not ok' "$tap" ||
	grep -q '^ok [0-9]* - # SKIP' "$tap"; then
	echo "$me: $tap is not a passing run (plan ${plan:-none}, $oks ok)" >&2
	exit 1
fi

# r KEY: the run's value of KEY
r() {
	v=$(sed -n "s/^# RESULT $1 //p" "$tap" | tail -n 1)
	[ -n "$v" ] || { echo "$me: no RESULT $1 in $tap" >&2; exit 1; }
	echo "$v"
}
# row TEXT VALUE: one row of the table
row() { printf '%-62s %s\n' "$1" "$2"; }
rule() { printf '%s %s\n' "$(printf '=%.0s' $(seq 62))" "==========="; }

table() {
	echo ".. BEGIN $me (generated: do not edit by hand)"
	echo
	echo "One run, $(date -u -r "$tap" +%Y-%m-%d), kernel $(r kernel) (QEMU TCG,"
	echo "2 vCPUs), node 0 with $(r node0_free_mib) MiB free, a pool of $(r pool_mib) MiB;"
	echo "pages of 4 KiB:"
	echo
	rule
	row "measure" "value"
	rule
	row "pool node: memory tier, abstract distance" "$(r pool_tier), $(r pool_adistance)"
	row "DRAM (node 0): memory tier, abstract distance" "$(r dram_tier), $(r dram_adistance)"
	row "workload: cold + hot region (MiB)" "$(r cold_mib) + $(r hot_mib)"
	row "hot region's pages on node 1 after the fill" "$(r hot_node1_fill)"
	row "pgdemote_kswapd + pgdemote_direct (pages)" "$(r pgdemote)"
	row "pgpromote_success (pages)" "$(r pgpromote_success)"
	row "hot region's pages on node 1 at the end" "$(r hot_node1_end)"
	row "cold region's pages on node 1 at the end" "$(r cold_node1_end)"
	row "seconds of hot reads until then" "$(r workload_s)"
	row "pages that read back wrong" "$(r bad_pages)"
	row "cold region's pages on node 1 when the pool went offline" "$(r cold_node1_ready)"
	row "process's pages on node 1 (numa_maps) then" "$(r numa_maps_node1)"
	row "the same after mpctl offline all" "$(r numa_maps_node1_offlined)"
	row "cold region's pages on node 0 after it" "$(r cold_node0_offlined)"
	row "pages that read back wrong after it" "$(r bad_pages_offlined)"
	rule
	echo
	echo ".. END $me"
}

out=$(table)
if [ -z "$doc" ]; then
	echo "$out"
	exit 0
fi
if ! grep -q "^\.\. BEGIN $me" "$doc" || ! grep -q "^\.\. END $me" "$doc"; then
	echo "$me: no BEGIN/END $me lines in $doc" >&2
	exit 1
fi
tmp=$(mktemp)
printf '%s\n' "$out" > "$tmp.new"
awk -v new="$tmp.new" -v me="$me" '
	index($0, ".. BEGIN " me) == 1 { while ((getline l < new) > 0) print l; skip = 1; next }
	index($0, ".. END " me) == 1 { skip = 0; next }
	!skip' "$doc" > "$tmp"
cat "$tmp" > "$doc"
rm -f "$tmp"
rm -f "$tmp.new"
