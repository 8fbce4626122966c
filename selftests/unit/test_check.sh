#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/tap-count, the counting and plan checking of scripts/check (the
# `make check` runner calls "tap-count stage" after every stage), on
# canned TAP: a skipped point is counted apart and never as passed; a
# host that printed fewer or more points than its plan, no plan, or
# nothing at all fails; a stage that exits non-zero without a "not ok"
# fails; under CI (--no-skip) a skip is a failure.  Prints TAP.
# Installed as build/unit/test_check; scripts/ is two levels up from
# there and from selftests/unit/.

here=$(cd "$(dirname "$0")" && pwd)
TC=${TAP_COUNT:-$here/../../scripts/tap-count}
[ -x "$TC" ] || { echo "1..1"; echo "not ok 1 - no scripts/tap-count at $TC"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-check.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
fails=0
ok() {	# ok STATUS DESC [GOT]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/#   got: /'
		fails=$((fails + 1))
	fi
}

# stage NAME RC [PLANS...] < TAP: a canned stage log (not in a pipeline:
# it sets variables), tallied as
# scripts/check tallies it; sets $got (tap-count's output), $counts (its
# first line, "PASSED FAILED SKIPPED"), $log (the log after the tally)
stage() {
	local name=$1 rc=$2
	shift 2
	cat > "$tmp/$name.tap"
	got=$("$TC" stage $noskip "$name" "$rc" "$tmp/$name.tap" "$@")
	counts=$(printf '%s\n' "$got" | head -n 1)
	log=$(cat "$tmp/$name.tap")
}
host() {	# host FILE < TAP: one guest host's stream
	cat > "$tmp/$1"
}
noskip=

# 1. a clean stream: every point passed
stage clean 0 "plan=$tmp/clean.tap" < <(printf '1..3\nok 1 - a\nok 2 - b\n# a comment\nok 3 - c\n')
[ "$counts" = "3 0 0" ]
ok $? "three points, plan 1..3: 3 passed, 0 failed, 0 skipped" "$got"

# 2. skips are counted apart, with their reasons, in both TAP forms
stage skips 0 "plan=$tmp/skips.tap" < <(printf '1..4\nok 1 - a\nok 2 - # SKIP no pmem namespace\nok 3 - b # skip needs root\nok 4 - c\n')
[ "$counts" = "2 0 2" ] &&
	printf '%s\n' "$got" | grep -qx 'skip: ok 2 - # SKIP no pmem namespace' &&
	printf '%s\n' "$got" | grep -qx 'skip: ok 3 - b # skip needs root'
ok $? "two SKIP points: 2 passed, 2 skipped, each listed with its reason" "$got"

# 3. a whole stream skipped (1..0 # SKIP) is one skip, not nothing
stage allskip 0 < <(printf '1..0 # SKIP needs root\n')
[ "$counts" = "0 0 1" ]
ok $? "a stream 1..0 with the SKIP directive counts as one skipped point" "$got"

# 4. a SKIP directive on a failed point does not make it pass
stage failskip 0 "plan=$tmp/failskip.tap" < <(printf '1..1\nnot ok 1 - a # SKIP why\n')
[ "$counts" = "0 1 0" ]
ok $? "not ok with the SKIP directive: failed" "$got"

# 5. plan 5, prints 3: the scenario fails
host h5 < <(printf '1..5\nok 1 - a\nok 2 - b\nok 3 - c\nok - host0: kernel log clean (no WARNING/BUG/Oops)\n')
stage short 0 "host0=$tmp/h5" < "$tmp/h5"
set -- $counts
[ "$2" -ge 1 ] && [ "$1" = 4 ] && printf '%s\n' "$log" | grep -q '^not ok - short: host0: planned 5 test points, ran 3$'
ok $? "plan 1..5, three points printed: a failure" "$got"

# 6. more points than planned
host h6 < <(printf '1..2\nok 1 - a\nok 2 - b\nok 3 - c\n')
stage long 0 "host0=$tmp/h6" < "$tmp/h6"
set -- $counts
[ "$2" = 1 ] && printf '%s\n' "$log" | grep -q '^not ok - long: host0: planned 2 test points, ran 3$'
ok $? "plan 1..2, three points printed: a failure" "$got"

# 7. a guest that printed nothing: empty stream, and no stream at all
: > "$tmp/h7"
stage silent 1 "host0=$tmp/h7" "host1=$tmp/none" < /dev/null
[ "$counts" = "0 2 0" ] && printf '%s\n' "$log" | grep -q '^not ok - silent: host0: printed nothing$' &&
	printf '%s\n' "$log" | grep -q "^not ok - silent: host1: printed nothing (no TAP stream at $tmp/none)\$"
ok $? "two hosts that printed nothing (empty, missing): two failures, nothing passed" "$got"

# 8. a silent command under guest-init: only the harness's unnumbered point
host h8 < <(printf 'ok - host0: kernel log clean (no WARNING/BUG/Oops)\n')
stage harness 1 "host0=$tmp/h8" < "$tmp/h8"
set -- $counts
[ "$2" = 1 ] && printf '%s\n' "$log" | grep -q "^not ok - harness: host0: no plan (1..N), 0 numbered test points$"
ok $? "only guest-init's own \"ok\", no plan: a failure" "$got"

# 9. no plan at all, numbered points
host h9 < <(printf 'ok 1 - a\nok 2 - b\n')
stage noplan 0 "host0=$tmp/h9" < "$tmp/h9"
set -- $counts
[ "$1" = 2 ] && [ "$2" = 1 ]
ok $? "points without a plan: a failure" "$got"

# 10. points out of order, and two plans in one stream
host h10 < <(printf '1..3\nok 1 - a\nok 3 - b\nok 2 - c\n')
host h10b < <(printf '1..1\nok 1 - a\n1..1\nok 1 - a\n')
stage order 0 "host0=$tmp/h10" "host1=$tmp/h10b" < /dev/null
[ "$counts" = "0 2 0" ] && printf '%s\n' "$log" | grep -q 'host0: test point 2 is numbered 3' &&
	printf '%s\n' "$log" | grep -q 'host1: 2 plans in one stream'
ok $? "misnumbered points, two plans: two failures" "$got"

# 11. every host of a scenario is checked; the stream counted is vmrun's
host a0 < <(printf '1..2\nok 1 - a\nok 2 - b\nok - host0: kernel log clean\n')
host a1 < <(printf '1..2\nok 1 - a\nok 2 - b\nok - host1: kernel log clean\n')
stage twohosts 0 "host0=$tmp/a0" "host1=$tmp/a1" < <(cat "$tmp/a0" "$tmp/a1")
[ "$counts" = "6 0 0" ]
ok $? "two hosts, plans held: 6 passed (the harness's points counted, outside the plans)" "$got"

# 12. a stage that exits non-zero without a failed point is one failure
stage exitonly 2 < <(printf 'ok - build\n')
[ "$counts" = "1 1 0" ] && printf '%s\n' "$log" | grep -qx 'not ok - exitonly: exited 2'
ok $? "exit status 2, no \"not ok\": one failure" "$got"

# 13. ... and not a second one when it said what failed
stage exitsaid 1 "plan=$tmp/exitsaid.tap" < <(printf 'not ok 1 - x\n1..1\n')
[ "$counts" = "0 1 0" ]
ok $? "exit status 1 with its \"not ok\": that one failure" "$got"

# 14. indented subtests are their parent's business
stage sub 0 "plan=$tmp/sub.tap" < <(printf '1..1\n    not ok 1 - inner\n    ok 2 - inner # SKIP x\nok 1 - outer\n')
[ "$counts" = "1 0 0" ]
ok $? "indented subtests are not counted" "$got"

# 15. CI (--no-skip): a skip is a failure, and listed
noskip=--no-skip
stage ci 0 "plan=$tmp/ci.tap" < <(printf '1..2\nok 1 - a\nok 2 - # SKIP dkms not installed\n')
[ "$counts" = "1 1 0" ] && printf '%s\n' "$got" | grep -qx 'skip-failed: ok 2 - # SKIP dkms not installed'
ok $? "under CI a SKIP is a failure (1 passed, 1 failed, 0 skipped), listed" "$got"
noskip=

echo "1..$n"
[ $fails = 0 ]
