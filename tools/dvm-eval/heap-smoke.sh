#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make unit: tools/dvm-eval/heap-collect and heap-tables on the TAP of a
# heap run kept in tools/dvm-eval/fixtures/ (the scenarios' output with
# their "# raw:" lines): the results file has every scenario's phases, and
# every table block of Documentation/dvm-heap.rst gets filled.  No number
# is judged; that is the guest scenarios' job.
ROOT=@ROOT@
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
fail=0
ok() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi
}
F=$ROOT/tools/dvm-eval/fixtures
ok "heap-collect reads the three scenarios' TAP" \
	'python3 $ROOT/tools/dvm-eval/heap-collect --id dvm-heap-smoke --commit 0000000 \
		-o $T/results.json structs=$F/heap-structs.tap fallback=$F/heap-fallback.tap \
		programs=$F/heap-programs.tap'
ok "results.json has every phase the tables use" \
	'python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
want = {\"structs\": [\"launcher\", \"control\"],
        \"fallback\": [\"fragmented\", \"strict\", \"memory_back\"],
        \"programs\": [\"sort\", \"redis\"]}
sys.exit(any(p not in r[s][\"phases\"] for s in want for p in want[s]))
" $T/results.json'
cp $ROOT/Documentation/dvm-heap.rst $T/doc.rst
ok "heap-tables fills Documentation/dvm-heap.rst's blocks" \
	'python3 $ROOT/tools/dvm-eval/heap-tables $T/results.json $T/doc.rst'
for b in run results runtime bench; do
	ok "block $b is filled" \
		'[ "$(sed -n "/^\.\. dvm-heap:begin:$b\$/,/^\.\. dvm-heap:end:$b\$/p" $T/doc.rst | wc -l)" -gt 4 ]'
done
ok "the run and the commit are named" 'grep -q "runs/dvm-heap-smoke/results.json.*commit" $T/doc.rst ||
	grep -A1 "runs/dvm-heap-smoke/results.json" $T/doc.rst | grep -q "commit"'
ok "a missing TAP is an error" \
	'! python3 $ROOT/tools/dvm-eval/heap-collect --id x --commit 0 -o $T/x.json structs=$T/none.tap 2>/dev/null'
echo "1..$n"
exit $fail
