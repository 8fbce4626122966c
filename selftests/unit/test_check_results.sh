#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check-results, which turns the output of scripts/check (and
# check-debug) into results.json and the generated table, on canned logs:
# every point counted once in its scenario (skips apart, host stages left
# out), the time taken from the scenario's own line, a scenario whose run
# never ended counted as failed, a rerun replacing the first run, a log
# without scenarios refused, and the table spliced between its markers
# only. Prints TAP. Installed as build/unit/test_check_results; scripts/
# is two levels up from there and from selftests/unit/ (lib.sh: the
# scratch directory and the points).

. "$(dirname "$0")/lib.sh"
CR=${CHECK_RESULTS:-$here/../../scripts/check-results}
[ -x "$CR" ] || { echo "not ok 1 - no scripts/check-results at $CR"; echo "1..1"; exit 1; }

# field JSON SCENARIO KEY
field() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["scenarios"][sys.argv[2]][sys.argv[3]])' "$@"
}

cat > "$tmp/a.log" <<'EOF_LOG'
# === build
ok - build: modules, libmp, mpctl, test programs
# build: 3s
# === pool-remote
1..3
ok 1 - one
# a diagnostic line, not a point
ok 2 - two # SKIP no such thing
not ok 3 - three
ok - host0: kernel log clean (no WARNING/BUG/Oops)
# pool-remote: 41s
# === mp_eth-key
1..2
ok 1 - one
EOF_LOG
cat > "$tmp/b.log" <<'EOF_LOG'
# === mp_eth-key
1..2
ok 1 - one
ok 2 - two
# mp_eth-key: 975s
3 passed, 0 failed, 0 skipped
EOF_LOG
"$CR" --json "$tmp/r1.json" --kernel debug --commit abc "$tmp/a.log"
ok $? "a log with two scenarios: results written"
r=$(python3 -c 'import json, sys; print(" ".join(sorted(json.load(open(sys.argv[1]))["scenarios"])))' "$tmp/r1.json")
[ "$r" = "mp_eth-key pool-remote" ]
ok $? "host stages left out: only the scenarios are in it (got $r)"
r=$(field "$tmp/r1.json" pool-remote passed)/$(field "$tmp/r1.json" pool-remote failed)/$(field "$tmp/r1.json" pool-remote skipped)/$(field "$tmp/r1.json" pool-remote seconds)
[ "$r" = 2/1/1/41 ]
ok $? "pool/remote: 2 passed, 1 failed, 1 skipped, 41 s (got $r)"
r=$(field "$tmp/r1.json" mp_eth-key failed)
[ "$r" = 1 ]
ok $? "mp_eth/key, whose run never ended: counted as failed (got $r)"
"$CR" --json "$tmp/r2.json" --kernel debug --commit abc "$tmp/a.log" "$tmp/b.log"
r=$(field "$tmp/r2.json" mp_eth-key passed)/$(field "$tmp/r2.json" mp_eth-key failed)/$(field "$tmp/r2.json" mp_eth-key runs)
[ "$r" = 2/0/2 ]
ok $? "a rerun replaces the first run: mp_eth/key 2 passed, 0 failed, 2 runs (got $r)"
printf '# === build\n# build: 3s\n' > "$tmp/c.log"
"$CR" --json "$tmp/r3.json" "$tmp/c.log" 2> "$tmp/err"
[ $? = 1 ] && grep -q 'no guest scenario' "$tmp/err" && [ ! -e "$tmp/r3.json" ]
ok $? "a log without scenarios: refused, nothing written"
"$CR" --rst "$tmp/r2.json" > "$tmp/t.rst"
grep -q '^mp_eth/key  *975  *2  *0  *0$' "$tmp/t.rst" &&
	grep -q '^total (2 scenarios)  *1016  *4  *1  *1$' "$tmp/t.rst" &&
	grep -q 'kernel ``debug``, commit ``abc``' "$tmp/t.rst"
ok $? "the table: a row per scenario, the totals, the kernel and commit named"
printf 'before\n.. BEGIN scripts/check-results\nold\n.. END scripts/check-results\nafter\n' > "$tmp/doc.rst"
"$CR" --update-doc "$tmp/doc.rst" "$tmp/r2.json" &&
	[ "$(head -n 2 "$tmp/doc.rst" | tail -n 1)" = ".. BEGIN scripts/check-results" ] &&
	! grep -q '^old$' "$tmp/doc.rst" && grep -q '^mp_eth/key ' "$tmp/doc.rst" &&
	[ "$(tail -n 2 "$tmp/doc.rst")" = "$(printf '.. END scripts/check-results\nafter')" ]
ok $? "--update-doc replaces what is between the markers, nothing else"
printf 'no markers\n' > "$tmp/doc2.rst"
! "$CR" --update-doc "$tmp/doc2.rst" "$tmp/r2.json" 2>/dev/null && [ "$(cat "$tmp/doc2.rst")" = "no markers" ]
ok $? "--update-doc on a document without markers: refused, unchanged"
tap_end
