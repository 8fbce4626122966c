#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mpbench smoke (make unit): every test on every host-side target kind for
# a fraction of a second, so the benchmark code cannot rot between
# `make bench` runs. Prints TAP.
mpb=${B:-build}/bench/mpbench
[ -x "$mpb" ] || mpb=$(dirname "$0")/../build/bench/mpbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
t() {
	n=$((n + 1))
	desc=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		sed 's/^/# /' "$tmp/out"
		fails=$((fails + 1))
	fi
}
# every measured value is a positive number and nothing failed; a
# verification's value is the count of wrong words and must be 0
positive() {
	"$mpb" --json "$@" >"$tmp/json" || return 1
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
ok = r and all("error" not in x and
               (x["value"] == 0 if x["test"] == "verify" else x["value"] > 0)
               for x in r)
sys.exit(0 if ok else 1)' "$tmp/json"
}
echo "1..7"
truncate -s 8M "$tmp/img"
t "system memory: latency, read, 3:1, 2:1, 1:1, triad" \
	positive -s 8M -d 0.1 -j 2 all
t "system memory: pattern verified" "$mpb" -s 8M --verify
t "mmap of a file: chase and streams, pattern verified through pread" \
	positive -t "mmap:$tmp/img" -s 8M -d 0.1 latency read 1:1 --verify
t "pread/pwrite: latency and mixes, pattern verified" \
	positive -t "pio:$tmp/img" -s 8M -d 0.1 -c 64K latency read 3:1 --verify
t "verification fails when the target loses writes (pio:/dev/zero)" \
	sh -c "! '$mpb' -t pio:/dev/zero -s 1M --verify"
t "bad target is a usage error (exit 2)" \
	sh -c "'$mpb' -t nowhere latency; test \$? = 2"
t "unknown test is a usage error (exit 2)" \
	sh -c "'$mpb' sideways; test \$? = 2"
exit $((fails > 0))
