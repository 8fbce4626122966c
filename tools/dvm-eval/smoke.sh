#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Smoke of `make dvm-eval` for `make unit` (so `make check`): the model at
# scales 10 and 12 and two heap sizes, collected into a results.json as
# tools/dvm-eval/run does, whose shape is checked (every table's fields,
# counts that add up), and tables generated from it into a document with
# dvm-eval blocks.  No timing thresholds.  Installed by dvm-eval.mk with
# @ROOT@ and @BIN@ filled in.
set -u
root=@ROOT@
bin=@BIN@
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
check() {	# check DESCRIPTION COMMAND...
	d=$1
	shift
	n=$((n + 1))
	if "$@" > "$tmp/out" 2>&1; then
		echo "ok $n - $d"
	else
		echo "not ok $n - $d"
		sed 's/^/# /' "$tmp/out"
		failed=$((failed + 1))
	fi
}
echo "1..5"
check "dvm_eval --smoke writes its JSON" "$bin" --smoke -o "$tmp/model.json"
check "collect makes results.json (guest part marked left out)" \
	python3 "$root/tools/dvm-eval/collect" --id dvm-smoke --commit 0123456789abcdef \
	--model "$tmp/model.json" --guest-skipped "smoke: model only" -o "$tmp/results.json"
check "results.json has the shape dvm-tables needs, and its counts add up" \
	python3 - "$tmp/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def need(obj, keys, what):
    miss = [k for k in keys if k not in obj]
    assert not miss, "%s lacks %s" % (what, miss)
need(r, ["schema", "run", "model", "guest", "heap"], "results")
assert r["schema"] == "dvm-eval/2", r["schema"]
need(r["run"], ["id", "commit", "date", "host", "model_seconds"], "run")
assert r["guest"] == {"skipped": "smoke: model only"}, r["guest"]
assert r["heap"] == {"skipped": "smoke: model only"}, r["heap"]
m = r["model"]
need(m, ["schema", "mode", "model", "heaps", "workloads"], "model")
assert m["mode"] == "smoke"
need(m["model"], ["t_mem", "t_avc", "tlb_entries", "avc_ways", "avc_block", "avc_bytes",
                  "pwc_bytes", "rest_of_process", "series_base", "natural_base"], "model.model")
assert m["model"]["avc_bytes"] == [1024, 8192], m["model"]["avc_bytes"]
assert [h["heap_mib"] for h in m["heaps"]] == [64, 256]
for h in m["heaps"]:
    need(h, ["heap_pt_bytes_pe", "heap_pt_bytes_4k", "proc_pt_bytes_pe", "proc_pt_bytes_4k",
             "natural_heap_pt_bytes_pe", "leaves_l2", "leaves_l3"], "heap")
    assert 0 < h["natural_heap_pt_bytes_pe"] <= h["heap_pt_bytes_pe"] < h["heap_pt_bytes_4k"], h
    assert h["heap_pt_bytes_4k"] >= h["heap_mib"] // 2 * 4096, h  # an L1 table per 2 MiB
want = {(w, s) for w in ("bfs", "pagerank", "cf") for s in (10, 12)}
got = {(w["workload"], w["scale"]) for w in m["workloads"]}
assert got == want, got
for w in m["workloads"]:
    need(w, ["accesses", "reads", "writes", "identity", "translated", "walk_refs",
             "avc1024_mem_refs", "avc8192_mem_refs", "avc1024_cycles_dvm",
             "avc1024_cycles_nopreload", "avc8192_cycles_dvm", "tlb4k_misses",
             "tlb2m_misses", "cycles_ideal", "cycles_conv4k", "cycles_conv2m",
             "heap_pt_bytes_pe", "heap_pt_bytes_4k", "aligned_walk_refs",
             "aligned_avc1024_mem_refs", "aligned_avc1024_cycles_dvm",
             "aligned_avc1024_cycles_nopreload"], "workload")
    a = w["accesses"]
    assert a > 0 and a == w["reads"] + w["writes"], w
    assert w["identity"] + w["translated"] == a and w["identity"] == a, w
    assert a <= w["walk_refs"] <= 4 * a, w
    assert 0 < w["avc8192_mem_refs"] <= w["avc1024_mem_refs"] <= w["walk_refs"], w
    assert w["tlb2m_misses"] <= w["tlb4k_misses"] <= a, w
    assert w["cycles_ideal"] == a * m["model"]["t_mem"], w
    for k in ("avc1024_cycles_dvm", "avc1024_cycles_nopreload", "cycles_conv4k"):
        assert w[k] >= w["cycles_ideal"], (k, w)
    assert w["avc1024_cycles_dvm"] <= w["avc1024_cycles_nopreload"], w
    assert a <= w["aligned_walk_refs"] <= w["walk_refs"], w
PY
cat > "$tmp/doc.rst" <<'DOC'
Title
=====

.. dvm-eval:begin:run
stale
.. dvm-eval:end:run

.. dvm-eval:begin:overhead
.. dvm-eval:end:overhead
DOC
check "dvm-tables fills a document's dvm-eval blocks from it" sh -c "
	python3 '$root/tools/dvm-eval/dvm-tables' '$tmp/results.json' '$tmp/doc.rst' &&
	! grep -q stale '$tmp/doc.rst' && grep -q 'runs/dvm-smoke/results.json' '$tmp/doc.rst' &&
	grep -q '^cf  *12 ' '$tmp/doc.rst' && grep -q 'paper' '$tmp/doc.rst'"
check "dvm-tables prints every table, none without numbers" sh -c "
	python3 '$root/tools/dvm-eval/dvm-tables' '$tmp/results.json' > '$tmp/all' &&
	for t in run model pt heaps avc overhead claims guest coverage; do
		grep -q \"^\\.\\. \$t\$\" '$tmp/all' || { echo \"no table \$t\"; exit 1; }
	done && ! grep -q 'n/a' '$tmp/all'"
[ $failed = 0 ]
