#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench/report on made-up bench/run output (make unit): samples of every
# round kept, medians and p99 from them, ratios of medians, goals met /
# NOT met / not measured, the per-frame cost computed or "not available",
# the RST tables and their splice into a document, --check catching a
# malformed results.json, a failed part failing the report. Prints TAP.
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
n=0
t() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}
# jq-less field access: py EXPR (r is results.json)
py() { python3 -c "import json,sys; r = json.load(open('$d/results.json')); sys.exit(not ($1))"; }
mkdir -p "$d/memory/host0" "$d/transport/host0" "$d/jumbo/host0" "$d/block/host0" "$d/mirror/host0"
# three rounds: medians 150/100 (latency), p99 = the largest
{
	printf '# RESULT mem_sys_latency %s\n' 100 90 110
	printf '# RESULT mem_mpl_latency %s\n' 150 140 400
} > "$d/memory/host0/tap.log"
{
	printf '# RESULT mpe_lat_p50_us %s\n' 100 120 110
	printf '# RESULT rxe_lat_p50_us %s\n' 300 200 250
	printf '# RESULT mpe_read_MiBps %s\n' 10 12
	printf '# RESULT rxe_read_MiBps %s\n' 8 8
	printf '# RESULT mpe_dp_read_%s\n' 'frames_tx 100' 'frames_rx 900' 'ms 500' \
		'copied_bytes 3000' 'payload_bytes 1000'
	printf '# INFO mpe_datapath /sys/class/misc/mp_eth/datapath\n'
	printf '# RESULT mpe_sweep_%s_p50_us 200\n# RESULT rxe_sweep_%s_p50_us 400\n' 64 64 1024 1024
} > "$d/transport/host0/tap.log"
printf '# INFO jumbo_mpe_datapath absent\n# RESULT jumbo_mpe_lat_p50_us 5\nok 1\n' > "$d/jumbo/host0/tap.log"
printf '# RESULT blk_mpb_randread_iops 10\n# RESULT blk_nbd_randread_iops 2\n# RESULT blk_mpb_seqread_MiBps \n' \
	> "$d/block/host0/tap.log"
# mirror: write bandwidth halved, 4 KiB write latency doubled; no read latency
{
	printf '# RESULT mirror_single_seqwrite_MiBps %s\n' 100 120 110
	printf '# RESULT mirror_mirrored_seqwrite_MiBps %s\n' 50 60 55
	printf '# RESULT mirror_single_randwrite4k_lat_us %s\n' 200 210 190
	printf '# RESULT mirror_mirrored_randwrite4k_lat_us %s\n' 400 390 420
	printf '# INFO mirror_layout single: segment 4\n'
} > "$d/mirror/host0/tap.log"
for p in memory transport jumbo block mirror; do echo passed > "$d/$p.status"; done
printf 'commit=abc123\ndirty=0\nrounds=3\ndate=2026-12-05 09:00 UTC\n' > "$d/run.meta"
echo "1..21"
t "report passes on passed parts" "python3 '$here/report' '$d' > '$d/out'"
t "every sample kept, in round order" "py 'r[\"samples\"][\"mem_mpl_latency\"] == [150, 140, 400]'"
t "median 150 and p99 400 of MP-L latency; ratio of medians 1.50" \
	"py 'r[\"stats\"][\"mem_mpl_latency\"][\"median\"] == 150 and r[\"stats\"][\"mem_mpl_latency\"][\"p99\"] == 400' && grep -q 'MP-L / system memory: idle latency .* 150 .* 100 .* 1.50' '$d/out'"
t "P1 p50 goal: 110/250 = 0.44 <= 0.5 met" "grep -q '^P1 .*p50.* 0.44 <= 0.5 *met$' '$d/out'"
t "P2 read MTU 1500: 11/8 = 1.38 NOT met; MTU 9000 not measured" \
	"grep -q '^P2 .*read bandwidth.*MTU 1500 .* 1.38 >= 2.0 *NOT met$' '$d/out' && grep -q '^P2 .*read bandwidth.*MTU 9000 .* not measured$' '$d/out'"
t "P3 random read MTU 1500 5.00 met, MTU 9000 not measured; an empty RESULT is no sample: sequential not measured" \
	"grep -q '^P3 .*random read.*MTU 1500 .* 5.00 >= 3.0 *met$' '$d/out' && grep -q '^P3 .*random read.*MTU 9000 .*not measured$' '$d/out' && grep -q '^P3 .*sequential read.*MTU 1500 .*not measured$' '$d/out' && py '\"blk_mpb_seqread_MiBps\" not in r[\"samples\"]'"
t "per-frame cost: 2000 frames/s, 3.00 bytes copied per payload byte; MTU 9000 not available" \
	"grep -q 'per-frame: 8 MiB read, MTU 1500: 2000 frames/s, 3.00 bytes copied' '$d/out' && grep -q 'per-frame: 8 MiB read, MTU 9000: not available (absent)' '$d/out'"
t "results.json well formed (--check), with the run's provenance" \
	"python3 '$here/report' --check '$d/results.json' --rounds 1 && py 'r[\"run\"][\"commit\"] == \"abc123\" and r[\"run\"][\"rounds\"] == 3'"
t "--check: an empty sample array and a wrong median are caught" \
	"python3 -c 'import json,sys; r = json.load(open(sys.argv[1])); r[\"samples\"][\"x\"] = []; r[\"stats\"][\"mem_sys_latency\"][\"median\"] = 1; json.dump(r, open(sys.argv[2], \"w\"))' '$d/results.json' '$d/bad.json' && python3 '$here/report' --check '$d/bad.json' 2>&1 | grep -q 'x: empty sample array' && python3 '$here/report' --check '$d/bad.json' 2>&1 | grep -q 'mem_sys_latency: median does not match' && ! python3 '$here/report' --check '$d/bad.json' 2> /dev/null"
t "--rst names the run and the commit, lists goals with their status" \
	"python3 '$here/report' --rst '$d/results.json' > '$d/rst' && grep -q 'commit \`\`abc123\`\`' '$d/rst' && grep -q '^P1  .*<= 0.5  *met' '$d/rst'"
t "--rst ratios: a side whose part did not run reads 'not measured' beside the other's rounds" \
	"grep -q '^MP-R mmap / system memory: idle latency  *not measured  *100  *-  *0/3$' '$d/rst'"
t "the sweep's table in --rst (64 and 1024 B, ratio 0.50); 3 hosts listed as not measured" \
	"grep -q '^1024  *200  *400  *0.50$' '$d/rst' && grep -q '^64  *200  *400  *0.50$' '$d/rst' && grep -q '2 vs 3 hosts (plot: hosts.png): not measured' '$d/rst'"
printf 'Title\n=====\n\nprose\n\n.. BEGIN bench/report --rst (generated: do not edit by hand)\nold table\n.. END bench/report --rst\n\ntail\n' > "$d/doc.rst"
t "--update-doc replaces only the marked block" \
	"python3 '$here/report' --update-doc '$d/doc.rst' '$d/results.json' && ! grep -q 'old table' '$d/doc.rst' && grep -q '^prose$' '$d/doc.rst' && grep -q '^tail$' '$d/doc.rst' && grep -q 'commit \`\`abc123\`\`' '$d/doc.rst'"
t "mirrored / single ratios in the summary: write bandwidth 55 / 110 = 0.50, 4 KiB write latency 2.00" \
	"grep -q '^mirrored / single: 1 MiB sequential write bandwidth .* 55.00 .* 110 .* 0.50 3/3$' '$d/out' && grep -q '^mirrored / single: 4 KiB random write latency.* 2.00 3/3$' '$d/out'"
t "--rst --section mirror: its table alone, naming the run; a job not run shows '-' and 0/0" \
	"python3 '$here/report' --rst '$d/results.json' --section mirror > '$d/mrst' && grep -q '^Mirrored segments$' '$d/mrst' && grep -q 'commit \`\`abc123\`\`' '$d/mrst' && grep -q '^1 MiB sequential write bandwidth  *110  *55.00  *0.50  *3/3$' '$d/mrst' && grep -q '^4 KiB random read latency, queue depth 1  *-  *-  *-  *0/0$' '$d/mrst' && grep -q 'mirror_layout' '$d/mrst' && ! grep -q '^Goals$' '$d/mrst'"
printf '.. BEGIN bench/report --rst --section mirror (generated: do not edit by hand)\nold mirror\n.. END bench/report --rst --section mirror\n' >> "$d/doc.rst"
t "--update-doc --section mirror replaces its block only" \
	"python3 '$here/report' --update-doc '$d/doc.rst' '$d/results.json' --section mirror && ! grep -q 'old mirror' '$d/doc.rst' && grep -q '^Mirrored segments$' '$d/doc.rst' && test \$(grep -c '^Goals$' '$d/doc.rst') = 1 && grep -q '^tail$' '$d/doc.rst'"
# a second run, of the far part alone, merged with the first
mkdir -p "$d/r2/far/host0"
printf '# RESULT far_mpb_s %s\n' 30 20 40 > "$d/r2/far/host0/tap.log"
printf '# RESULT far_nbd_s %s\n# INFO far_setup farmem\n' 100 80 90 >> "$d/r2/far/host0/tap.log"
printf '# RESULT far_%s\n' 'mpb_frames 3000' 'mpb_wire_bytes 4500000' 'nbd_frames 900' 'nbd_wire_bytes 4500000' \
	'mpb_swapped_pages 1000' 'nbd_swapped_pages 1000' >> "$d/r2/far/host0/tap.log"
echo passed > "$d/r2/far.status"
printf 'commit=def456\ndirty=0\nrounds=5\ndate=2026-12-06 01:00 UTC\n' > "$d/r2/run.meta"
python3 "$here/report" "$d/r2" > /dev/null
t "--merge: one results.json with both runs' samples and parts, each run named; far 30/90 = 0.33 met" \
	"python3 '$here/report' --merge '$d/m' '$d/results.json' '$d/r2/results.json' > '$d/mout' && python3 '$here/report' --check '$d/m/results.json' && python3 -c 'import json,sys; r = json.load(open(sys.argv[1])); sys.exit(not (r[\"samples\"][\"far_mpb_s\"] == [30, 20, 40] and r[\"samples\"][\"mem_mpl_latency\"] == [150, 140, 400] and [x[\"commit\"] for x in r[\"runs\"]] == [\"abc123\", \"def456\"] and r[\"parts\"][\"far\"] == \"passed\" and r[\"parts\"][\"memory\"] == \"passed\"))' '$d/m/results.json' && grep -q '^far .* 0.33 <= 0.5 *met$' '$d/mout'"
t "--rst of a merge names every run with its commit, rounds and parts" \
	"python3 '$here/report' --rst '$d/m/results.json' > '$d/mrst2' && grep -q '^\\* \`\`r2\`\` (2026-12-06 01:00 UTC, commit \`\`def456\`\`, 5 rounds per comparison; parts: far passed)$' '$d/mrst2' && grep -q 'commit \`\`abc123\`\`, 3 rounds' '$d/mrst2' && grep -q 'bench/report --merge' '$d/mrst2'"
t "frames on the link: mpb 3000 frames, 1500 B each, 100/s; NBD 900, 5000 B each, 10/s" \
	"grep -q '^far memory: swap on /dev/mpb  *3000  *1500  *100  *1000$' '$d/mrst2' && grep -q '^far memory: swap on NBD  *900  *5000  *10.00  *1000$' '$d/mrst2'"
t "--merge refuses a part found in two runs" \
	"! python3 '$here/report' --merge '$d/m2' '$d/r2/results.json' '$d/r2/results.json' 2> '$d/merr' && grep -q \"part 'far' is in r2 and in r2\" '$d/merr'"
echo failed > "$d/block.status"
t "a failed part fails the report" "! python3 '$here/report' '$d' > /dev/null"
