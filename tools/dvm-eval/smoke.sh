#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Smoke of `make dvm-eval` for `make unit` (so `make check`): the model at
# scales 10 and 12 and two heap sizes, collected into a results.json as
# tools/dvm-eval/run does, once with the guest part left out and once with
# the TAP of a real guest part kept in tools/dvm-eval/fixtures/guest.tap
# (eval_guest.sh at scale 10, the DVM heap scenarios' TAP in it); each
# file's shape is checked (every table's fields, counts that add up, the
# heap part's scenarios and phases, the model's placement of its heaps)
# and the tables of Documentation/dvm.rst and dvm-heap.rst are generated
# from it.  The fixture is older than the device table's counts by level;
# a copy of it with made-up counts added (as dvm_accel prints them) checks
# that they reach the tables, the fixture itself that the tables do without
# them.  No number is judged and there are no timing thresholds: that is
# the guest scenarios' job.  Installed by dvm-eval.mk with @ROOT@ and @BIN@
# filled in.
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
fix=$root/tools/dvm-eval/fixtures
# the shape checks' helper: need(OBJ, KEYS, WHAT) fails naming the keys missing
cat > "$tmp/need.py" <<'PY'
def need(obj, keys, what):
    miss = [k for k in keys if k not in obj]
    assert not miss, "%s lacks %s" % (what, miss)
PY
check "dvm_eval --smoke writes its JSON" "$bin" --smoke -o "$tmp/model.json"
check "collect makes results.json (guest part marked left out)" \
	python3 "$root/tools/dvm-eval/collect" --id dvm-smoke --commit 0123456789abcdef \
	--model "$tmp/model.json" --guest-skipped "smoke: model only" -o "$tmp/results.json"
check "results.json has the shape dvm-tables needs, and its counts add up" \
	python3 - "$tmp/results.json" <<'PY'
import json, os, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))
from need import need
r = json.load(open(sys.argv[1]))
need(r, ["schema", "run", "model", "guest", "heap"], "results")
assert r["schema"] == "dvm-eval/3", r["schema"]
need(r["run"], ["id", "commit", "date", "host", "model_seconds"], "run")
assert r["guest"] == {"skipped": "smoke: model only"}, r["guest"]
assert r["heap"] == {"skipped": "smoke: model only"}, r["heap"]
m = r["model"]
need(m, ["schema", "mode", "model", "heaps", "workloads"], "model")
assert m["mode"] == "smoke" and m["schema"] == "dvm-eval-model/2", (m["mode"], m["schema"])
need(m["model"], ["t_mem", "t_avc", "tlb_entries", "avc_ways", "avc_block", "avc_bytes",
                  "pwc_bytes", "rest_of_process", "series_align_min", "series_base_64m",
                  "series_base_4m", "natural_base"], "model.model")
MiB, GiB = 1 << 20, 1 << 30
mm = m["model"]
assert mm["series_align_min"] == 64 * MiB, mm
assert mm["series_base_64m"] % (64 * MiB) == 0 and mm["series_base_64m"] % GiB, mm
assert mm["series_base_4m"] % (4 * MiB) == 0 and mm["series_base_4m"] % (64 * MiB), mm
assert mm["natural_base"] % GiB == 0, mm
assert m["model"]["avc_bytes"] == [1024, 8192], m["model"]["avc_bytes"]
assert [h["heap_mib"] for h in m["heaps"]] == [64, 256]
for h in m["heaps"]:
    need(h, ["heap_base", "heap_pt_bytes_pe", "heap_pt_bytes_4k", "proc_pt_bytes_pe",
             "proc_pt_bytes_4k", "natural_heap_pt_bytes_pe", "leaves_l2", "leaves_l3",
             "natural_leaves_l2", "natural_leaves_l3"], "heap")
    assert 0 < h["natural_heap_pt_bytes_pe"] <= h["heap_pt_bytes_pe"] < h["heap_pt_bytes_4k"], h
    # 64 MiB and more: at the series' 64 MiB boundary, so whole fields of L3 PEs
    assert h["heap_base"] == mm["series_base_64m"], h
    assert h["leaves_l3"] >= 1 and h["leaves_l2"] == 0, h
    assert h["natural_leaves_l3"] >= 1 and h["natural_leaves_l2"] == 0, h
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
             "aligned_avc1024_cycles_nopreload", "heap_base", "heap_bytes", "leaves_l3",
             "leaves_l2", "natural_leaves_l3", "natural_leaves_l2"], "workload")
    # the smoke's heaps are under 64 MiB: 4 MiB aligned, in L2 PEs
    assert w["heap_bytes"] < mm["series_align_min"], w
    assert w["heap_base"] == mm["series_base_4m"], w
    assert w["leaves_l3"] == 0 and w["leaves_l2"] >= 1, w
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
	for t in run model pt heaps avc overhead claims guest coverage levels guest_heaps; do
		grep -q \"^\\.\\. \$t\$\" '$tmp/all' || { echo \"no table \$t\"; exit 1; }
	done && ! grep -q 'n/a' '$tmp/all'"
# a results file of a model from before patch 0007 (schema dvm-eval/1: one
# "series_base", no "natural_leaves_*" in the workloads) still makes the tables
python3 - "$tmp/results.json" "$tmp/old.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
m = r["model"]
m["schema"] = "dvm-eval/1"
for k in ("series_align_min", "series_base_64m"):
    del m["model"][k]
m["model"]["series_base"] = m["model"].pop("series_base_4m")
for w in m["workloads"]:
    del w["natural_leaves_l3"], w["natural_leaves_l2"]
json.dump(r, open(sys.argv[2], "w"))
PY
check "dvm-tables makes the tables of a model from before patch 0007, \"-\" where it lacks counts" \
	sh -c "
	python3 '$root/tools/dvm-eval/dvm-tables' '$tmp/old.json' > '$tmp/old' &&
	grep -q '\"series\": at 0x400400000 (an arbitrary free run, 4 MiB aligned as patch 0002' \
		'$tmp/old' && grep -q '^cf  *12 .* 0/1/388  *-\$' '$tmp/old'"
check "collect reads a guest part's TAP, the DVM heap scenarios' included" \
	python3 "$root/tools/dvm-eval/collect" --id dvm-smoke-guest --commit 0123456789abcdef \
	--model "$tmp/model.json" --guest "$fix/guest.tap" --guest-rc 0 --guest-seconds 1 \
	--lock-wait-seconds 0 --heap "structs fallback programs" -o "$tmp/guest.json"
check "its guest and heap parts have the shape the tables need" \
	python3 - "$tmp/guest.json" <<'PY'
import json, os, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))
from need import need
r = json.load(open(sys.argv[1]))
g, h = r["guest"], r["heap"]
need(g, ["kernel", "rc", "seconds", "lock_wait_seconds", "points", "runs", "mix"], "guest")
assert "error" not in g, g["error"]
assert [x["avc_bytes"] for x in g["runs"]] == [1024, 8192], g["runs"]
for run in g["runs"]:
    assert run["jobs"] and run["arenas"], run
    for j in run["jobs"]:
        need(j, ["job", "scale", "accesses", "identity", "walk_refs", "validation_refs",
                 "pt_bytes", "pt_bytes_4k"], "job")
        assert j["identity"] <= j["accesses"] and j["validation_refs"] <= j["walk_refs"], j
    for a in run["arenas"]:
        need(a, ["scale", "identity", "nocontig", "vabusy", "va", "brk"], "arena")
assert sorted(x["variant"] for x in g["mix"]) == ["moderate", "tight"], g["mix"]
assert g["heaps"] == [], g["heaps"]  # the fixture is older than dvm_accel heap in it
for x in g["mix"]:
    assert 0 <= x["identity"] <= x["maps"], x
# the guest's own points: 5 of its own, one per heap scenario
assert len(g["points"]) == 8, g["points"]
assert "error" not in h, h["error"]
assert sorted(h["scenarios"]) == ["fallback", "programs", "structs"], h["scenarios"]
want = {"structs": ["launcher", "control"],
        "fallback": ["fragmented", "strict", "memory_back"],
        "programs": ["sort", "redis"]}
for s, phases in want.items():
    need(h[s], ["rc", "plan", "passed", "failed", "skipped", "seconds", "points",
                "phases"], "heap " + s)
    p = h[s]["points"]
    # the guest's count of the scenario's points is the count of its TAP
    assert (p["passed"], p["failed"], p["skipped"]) == (
        h[s]["passed"], h[s]["failed"], h[s]["skipped"]), (s, p, h[s])
    assert p["passed"] + p["failed"] + p["skipped"] == h[s]["plan"] > 0, (s, p)
    need(h[s]["phases"], phases, "heap %s phases" % s)
for s, ph in (("structs", "launcher"), ("fallback", "fragmented"), ("programs", "sort"),
              ("programs", "redis")):
    need(h[s]["phases"][ph]["summary"], ["heap_mib", "chunks", "identity_pct", "anon_mib",
                                        "anon_identity_pct"], "%s %s summary" % (s, ph))
need(h["structs"]["phases"]["launcher"], ["accel", "walk", "heap_share"], "structs launcher")
need(h["fallback"]["phases"]["fragmented"], ["buddyinfo", "accel", "nocontig_before"],
     "fallback fragmented")
need(h["programs"]["phases"]["redis"], ["bench_rps", "plain_s", "dvm_s", "dbsize"],
     "programs redis")
PY
check "dvm-tables prints every table of a run with its guest part, none without numbers" sh -c "
	python3 '$root/tools/dvm-eval/dvm-tables' '$tmp/guest.json' > '$tmp/all' &&
	for t in run guest coverage levels guest_heaps; do
		grep -q \"^\\.\\. \$t\$\" '$tmp/all' || { echo \"no table \$t\"; exit 1; }
	done && ! grep -q 'n/a' '$tmp/all' && grep -q 'redis-server, all anonymous memory' '$tmp/all'"
# the fixture has no counts by level: its rows in the levels tables say "-"
check "the levels tables of a guest part without counts by level show \"-\"" sh -c "
	sed -n '/^\.\. levels\$/,/^\.\. model\$/p' '$tmp/all' |
		grep -q '^bfs  *10  *2.0 MiB  *0x3e00000 (2 MiB)  *yes  *-  *-  *-  *-\$' &&
	sed -n '/^\.\. guest_heaps\$/,/^\.\. heaps\$/p' '$tmp/all' |
		grep -q '^256 MiB  *1/0  *1/0  *-  *-  *-  *-  *-  *-\$'"
# the fixture with counts by level, made up, added as dvm_accel prints them
# (selftests/dvm/dvm_accel.c: raw_levels(); eval_guest.sh's dvm_accel heap)
lv='l4_pes=0 l3_pes=1 l3_fields=3 l2_pes=7 l2_fields=99 l1_leaves=421 tables=6'
{
	sed -n 1p "$fix/guest.tap"
	echo "# raw: heap mib=64 identity=1 va=0x44000000 $lv"
	echo "# raw: heap mib=256 identity=0 va=0x7f0000000000 $lv"
	sed "1d; s/^# raw: job=.*/& $lv/" "$fix/guest.tap"
} > "$tmp/levels.tap"
check "collect keeps the jobs' counts by level and dvm_accel heap's lines" sh -c "
	python3 '$root/tools/dvm-eval/collect' --id dvm-smoke-levels --commit 0123456789abcdef \
		--model '$tmp/model.json' --guest '$tmp/levels.tap' --guest-rc 0 \
		--heap 'structs fallback programs' -o '$tmp/levels.json' &&
	python3 - '$tmp/levels.json' <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
g, h = r['guest'], r['heap']
assert 'error' not in h and sorted(h['scenarios']) == ['fallback', 'programs', 'structs'], h
assert [(x['mib'], x['identity'], x['va'], x['l3_fields']) for x in g['heaps']] == [
    (64, 1, 0x44000000, 3), (256, 0, 0x7f0000000000, 3)], g['heaps']
for run in g['runs']:
    for j in run['jobs']:
        assert (j['l3_pes'], j['l2_pes'], j['l2_fields'], j['l1_leaves']) == (1, 7, 99, 421), j
PY"
check "dvm-tables shows them: per job of the 1 KiB run, per heap" sh -c "
	python3 '$root/tools/dvm-eval/dvm-tables' '$tmp/levels.json' > '$tmp/all' &&
	sed -n '/^\.\. levels\$/,/^\.\. model\$/p' '$tmp/all' > '$tmp/levels' &&
	grep -q '^bfs  *20  *186.0 MiB  *0xc000000 (64 MiB)  *yes  *1 (3)  *7 (99)  *421  *6\$' \
		'$tmp/levels' && [ \$(grep -c '^bfs  *16 ' '$tmp/levels') = 1 ] &&
	sed -n '/^\.\. guest_heaps\$/,/^\.\. heaps\$/p' '$tmp/all' > '$tmp/gh' &&
	grep -q '^64 MiB  *1/0  *1/0  *yes  *0x44000000 (64 MiB)  *1 (3)  *7 (99)  *421  *6\$' '$tmp/gh' &&
	grep -q '^256 MiB  *1/0  *1/0  *no  *0x7f0000000000 (1 GiB)  *1 (3)' '$tmp/gh'"
cp "$root/Documentation/dvm-heap.rst" "$tmp/heap.rst"
check "heap-tables fills Documentation/dvm-heap.rst's blocks from it" \
	python3 "$root/tools/dvm-eval/heap-tables" "$tmp/guest.json" "$tmp/heap.rst"
for b in run results runtime bench; do
	check "dvm-heap.rst block $b is filled" sh -c "
		[ \$(sed -n '/^\\.\\. dvm-heap:begin:$b\$/,/^\\.\\. dvm-heap:end:$b\$/p' \
			'$tmp/heap.rst' | wc -l) -gt 4 ]"
done
check "dvm-heap.rst names the run and the commit" sh -c "
	tr '\\n' ' ' < '$tmp/heap.rst' | grep -q 'runs/dvm-smoke-guest/results.json.. (commit ..0123456789ab'"
cp "$root/Documentation/dvm-heap.rst" "$tmp/heap2.rst"
check "heap-tables on a run without its heap part says so in every block" sh -c "
	python3 '$root/tools/dvm-eval/heap-tables' '$tmp/results.json' '$tmp/heap2.rst' &&
	[ \$(grep -c 'heap part left out: smoke: model only' '$tmp/heap2.rst') = 4 ]"
check "a heap scenario missing from the guest's TAP is an error in the results" sh -c "
	grep -v '^# dvm_heap/programs: ' '$fix/guest.tap' > '$tmp/cut.tap' &&
	python3 '$root/tools/dvm-eval/collect' --id x --commit 0 --model '$tmp/model.json' \
		--guest '$tmp/cut.tap' --guest-rc 1 --heap 'structs fallback programs' \
		-o '$tmp/cut.json' &&
	python3 -c 'import json, sys; sys.exit(not json.load(open(sys.argv[1]))[\"heap\"][\"error\"])' \
		'$tmp/cut.json'"
echo "1..$n"
[ $failed = 0 ]
