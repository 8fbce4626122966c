#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mpctl's output is an interface: scripts parse it. Each command's JSON is
# compared byte for byte with a golden file (golden/NAME.json beside this
# script, from selftests/unit/golden), every key printed must be one that
# Documentation/mpctl.rst documents, every list is an array (one element
# too), --format=1 still prints the old keys, and each failure class has
# its exit status. Against the fake cmm_mp family (fake_cmm_mp.so) and a
# fake sysfs with two memory tiers. Prints TAP.
#
# UPDATE_GOLDEN=DIR writes the outputs to DIR instead of comparing (then
# review the diff, and copy them to selftests/unit/golden).

. "$(dirname "$0")/lib.sh"
fake_pool
GOLDEN=$here/golden
S=$MP_SYSFS_ROOT
mkdir -p "$S/devices/virtual/memory_tiering/memory_tier4" \
	"$S/devices/virtual/memory_tiering/memory_tier22" \
	"$S/devices/system/node" "$S/devices/system/memory"
echo 0 > "$S/devices/virtual/memory_tiering/memory_tier4/nodelist"
echo 1 > "$S/devices/virtual/memory_tiering/memory_tier22/nodelist"
echo 0 > "$S/devices/system/node/has_cpu"
echo offline > "$S/devices/system/memory/auto_online_blocks"

# The keys documented for format 2: ``key`` at the start of a line of the
# "JSON attributes" section of mpctl.rst.
sed -n '/^JSON attributes/,/^EXIT STATUS/p' "$GOLDEN/mpctl.rst" |
	sed -n 's/^``\([a-z_]*\)``.*/\1/p' | sort -u > "$tmp/documented"

# golden NAME ARGS...: mpctl ARGS succeeds, silently, and prints exactly
# golden/NAME.json, a JSON array whose every key is documented.
golden() {
	name=$1
	shift
	run "$@"
	if [ -n "$UPDATE_GOLDEN" ]; then
		cp "$tmp/out" "$UPDATE_GOLDEN/$name.json"
	fi
	keys=$(grep -o '"[a-z_]*":' "$tmp/out" | tr -d '":' | sort -u |
	       comm -23 - "$tmp/documented")
	[ "$rc" = 0 ] && [ -z "$err" ] && [ -s "$tmp/out" ] &&
		[ "$(head -c 1 "$tmp/out")" = "[" ] &&
		diff -u "$GOLDEN/$name.json" "$tmp/out" >"$tmp/diff" &&
		{ [ -n "$old" ] || [ -z "$keys" ]; }
	st=$?
	[ $st = 0 ] || { sed 's/^/#   /' "$tmp/diff"; [ -z "$keys" ] ||
		echo "#   undocumented keys: $keys"; }
	ok $st "$name: mpctl $*"
}

# code DESC RC ARGS...: mpctl ARGS exits RC with one line on stderr
code() {
	desc=$1 want=$2
	shift 2
	run "$@"
	[ "$rc" = "$want" ] && [ "$(wc -l <"$tmp/err")" = 1 ]
	ok $? "exit $want: $desc"
}

old=
golden list list
golden list-one list -s 1
golden list-verbose list -v -s 1
golden devices list -D
golden devices-segments list -D -S -v -u -s 0
# a dax device of 576 MiB + 4 KiB bound to cmm_mp: 64 MiB + 4 KiB unusable
mkdir -p "$S/bus/dax/drivers/cmm_mp/dax0.0"
echo 603983872 > "$S/bus/dax/drivers/cmm_mp/dax0.0/size"
golden devices-dax list -D
rm -r "$S/bus"
golden online online 0,2
golden online-listed list -s 0-2
golden online-no-movable online 1 --no-movable
golden offline offline 0-2
# the memmap of the hot-added memory taken from the segment
golden online-memmap online 1 --memmap-on-memory
golden list-memmap list -s 1
run offline 1

# the kernel's auto-online policy onlined the block to ZONE_NORMAL
echo online > "$S/devices/system/memory/auto_online_blocks"
FAKE_CMM_MP_AUTOONLINE=normal golden auto-reonlined online 3
golden auto-devices list -D
run offline 3
FAKE_CMM_MP_AUTOONLINE=normal golden auto-kept online 3 --keep-zone
FAKE_CMM_MP_AUTOONLINE=movable golden auto-accepted online 2
run offline 2,3
echo offline > "$S/devices/system/memory/auto_online_blocks"

# format 1, as it was: the keys old scripts read
old=1
golden format1-list --format=1 list -s 1
golden format1-verbose --format 1 list -v -s 1
golden format1-devices --format=1 list -D
old=

# mirrored segments: both of a pair, mirrored, then rebuilding (-u)
export FAKE_CMM_MP_DEVS=3 FAKE_CMM_MP_SEGS=2 FAKE_CMM_MP_STATE="$tmp/pool3"
golden online-mirror online 2 --as blk --mirror 4
golden list-mirror list -s 2,4
run online 3 --as dax --mirror 5
FAKE_CMM_MP_LOST=2 golden list-degraded list -v -s 2
FAKE_CMM_MP_LOST=2 golden repair-to repair 2 --to 1 -u
old=1
golden format1-mirror --format=1 list -s 1,2
old=
FAKE_CMM_MP_LOST=2 code "repair: the lost copy's device is still lost" 6 \
	repair 3
code "repair: a rebuild runs" 6 repair 2
code "usage: repair without a segment" 2 repair
run offline 2,3
unset FAKE_CMM_MP_DEVS FAKE_CMM_MP_SEGS
export FAKE_CMM_MP_STATE="$tmp/pool"

run --version --json
[ "$rc" = 0 ] && printf '%s\n' "$out" |
	grep -Eqx '\{"version":"[0-9]+\.[0-9]+\.[0-9]+","format":2,"formats":\[1,2\]\}'
ok $? "--version --json: the version and the JSON formats"
run --version
[ "$rc" = 0 ] && printf '%s\n' "$out" | grep -Eqx 'mpctl [0-9]+\.[0-9]+\.[0-9]+'
ok $? "--version: one line, as before"

# one exit status per failure class (Documentation/mpctl.rst)
code "usage: unknown option" 2 list --frob
code "usage: a format this mpctl does not print" 2 --format=3 list
FAKE_CMM_MP_UNLOADED=1 code "cmm_mp not loaded" 3 list
FAKE_CMM_MP_NOTROOT=1 code "not root" 4 online 0
code "no such segment" 5 online 9
code "no such device" 5 list -d mp7
run online 0
code "already online" 6 online 0
FAKE_CMM_MP_FAIL="offline:0:16:3 pages could not migrate" code \
	"offline refused (busy)" 6 offline 0
FAKE_CMM_MP_BADBLOCK=15 code "a memory block refused (ENOSPC): any other" 1 \
	online 1
code "format 1 folds the classes into 1" 1 --format=1 online 9
FAKE_CMM_MP_NO_MEMMAP=1 code "memmap_on_memory refused by the kernel" 1 \
	online 2 --memmap-on-memory
run list -s 2
printf '%s' "$out" | grep -q '"state":"offline"'
ok $? "a refused memmap_on_memory online leaves the segment offline"
code "usage: --memmap-on-memory is for System RAM" 2 \
	online 2 --as dax --memmap-on-memory

tap_end
