#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mpctl end to end against the fake cmm_mp family (fake_cmm_mp.so,
# LD_PRELOADed) and a fake sysfs: output shapes, exit codes and the exact
# one-line error messages. Prints TAP. Installed as build/unit/test_mpctl_cli
# and run from there: mpctl is ../mpctl/mpctl relative to it.

. "$(dirname "$0")/lib.sh"
fake_pool

# expect_ok DESC ARGS...: success, silent stderr, stdout valid JSON.
expect_ok() {
	desc=$1
	shift
	run "$@"
	[ "$rc" = 0 ] && [ -z "$err" ] && json_ok
	ok $? "$desc"
}

json_ok() {
	command -v python3 >/dev/null 2>&1 || return 0
	python3 -c 'import json,sys; json.load(sys.stdin)' <"$tmp/out"
}

# jq_is FILTER VALUE: the JSON on stdout, filtered, is VALUE.
jq_is() {
	if command -v python3 >/dev/null 2>&1; then
		got=$(python3 -c "import json,sys; d=json.load(sys.stdin); print(json.dumps($1, separators=(',',':')))" <"$tmp/out")
	else
		got=$2	# no python: only the exit status and stderr are checked
	fi
	[ "$got" = "$2" ]
}


run --version
[ "$rc" = 0 ] && echo "$out" | grep -Eqx 'mpctl [0-9]+\.[0-9]+\.[0-9]+'
ok $? "--version"

run --help
[ "$rc" = 0 ] && printf '%s' "$out" | grep -q "^usage: mpctl"
ok $? "--help"

run online --help
[ "$rc" = 0 ] && printf '%s' "$out" | grep -q -- "--no-movable"
ok $? "online --help"

FAKE_CMM_MP_UNLOADED=1 expect_fail "module not loaded" 3 \
	"mpctl: list: cmm_mp: kernel module not loaded: No such device" list

expect_ok "list" list
jq_is '[s["segment"] for s in d]' '[0,1,2,3]' &&
	jq_is 'd[1]' '{"segment":1,"device":"mp0","state":"offline","size":134217728,"phys":2013265920,"target_node":1}'
ok $? "list: every segment, default attributes"

expect_ok "list -v" list -v -s 1
jq_is 'd' '[{"segment":1,"device":"mp0","state":"offline","size":134217728,"phys":2013265920,"target_node":1,"mode":"system-ram","device_id":0,"nha":134217728,"memblock_first":15,"movable_memblocks":0,"online_memblocks":0,"total_memblocks":1}]'
ok $? "list -v -s 1: every attribute"

expect_ok "list -u" list -u -s 0
jq_is 'd[0]["size"] + " " + d[0]["phys"]' '"128.00 MiB (134.22 MB) 0x70000000"'
ok $? "list -u: human sizes and hex addresses"

expect_ok "list -D" list -D
jq_is 'd' '[{"device":"mp0","id":0,"chip_id":90520730730496,"state":"up","size":536870912,"phys":1879048192,"segment_size":134217728,"nr_segments":4,"target_node":1,"range_size":536870912,"unusable_size":0,"abstract_distance":2880,"dram_abstract_distance":576}]'
ok $? "list -D: devices"

expect_ok "list -D -S -s 2-3" list -D -S -s 2-3
jq_is '[s["segment"] for s in d[0]["segments"]]' '[2,3]'
ok $? "list -D -S: segments nested under their device"

expect_fail "list unknown segment" 5 \
	"mpctl: list: segment 9: no such segment: No such file or directory" \
	list -s 9

expect_ok "online 0,2" online 0,2
jq_is '[(s["segment"], s["state"], s["zone"]) for s in d]' \
	'[[0,"online-ram","movable"],[2,"online-ram","movable"]]'
ok $? "online 0,2: JSON array of the onlined segments"

expect_fail "online already online" 6 \
	"mpctl: online: segment 0: already online: Operation already in progress (kernel: segment is already online)" \
	online 0

expect_ok "online --no-movable" online 1 --no-movable
jq_is 'd[0]["zone"]' '"normal"'
ok $? "online --no-movable: kernel zone"

# 3 goes online, then 0 (already online) stops the run.
run online 3,0
[ "$rc" = 6 ] && [ "$err" = "mpctl: online: segment 0: already online: Operation already in progress (kernel: segment is already online)" ] &&
	jq_is '[s["segment"] for s in d]' '[3]'
ok $? "online 3,0: in order, stops at the first error, prints what changed"

FAKE_CMM_MP_FAIL="offline:0:16:3 pages could not migrate" expect_fail \
	"offline refused" 6 \
	"mpctl: offline: segment 0: offline refused by the kernel (unmovable pages?): Device or resource busy (kernel: 3 pages could not migrate)" \
	offline 0

expect_ok "offline all" offline all
jq_is '[s["segment"] for s in d]' '[0,1,2,3]'
ok $? "offline all: every online segment"

expect_fail "offline already offline" 6 \
	"mpctl: offline: segment 2: already offline: Operation already in progress (kernel: segment is not online)" \
	offline 2

FAKE_CMM_MP_NOTROOT=1 expect_fail "not root" 4 \
	"mpctl: online: segment 0: needs root: Operation not permitted" \
	online 0

FAKE_CMM_MP_BADBLOCK=15 expect_fail "memory block refuses" 1 \
	"mpctl: online: segment 1: memory block 15 refused online_movable; segment put back offline: No space left on device" \
	online 1

FAKE_CMM_MP_FAIL="online:2:16:range claimed by dax0.0" expect_fail \
	"range busy" 6 \
	"mpctl: online: segment 2: range busy (claimed by another driver or host?): Device or resource busy (kernel: range claimed by dax0.0)" \
	online 2

# An unknown id anywhere in the list changes nothing.
expect_fail "unknown segment" 5 \
	"mpctl: online: segment 7: no such segment: No such file or directory" \
	online 1,7
run list -s 1
jq_is 'd[0]["state"]' '"offline"'
ok $? "unknown segment: nothing was changed"

expect_ok "online all (empty pool state)" online 0-3
run online all
[ "$rc" = 0 ] && [ "$out" = "[
]" ]
ok $? "online all with nothing offline: empty array"

# online and offline print each segment as it changes: the fake logs each
# request to the file mpctl writes to (both append), so the order there is
# the order of the two; printing at the end would put every request first.
offline_all() { run offline all; }
# req_order CMD: in $tmp/both, "CMD N" (the request for segment N, which
# may follow an element's closing brace on its line) is rN, "segment":N
# eN: $order, in file order; $tmp/out the JSON without the requests
req_order() {
	order=$(grep -o -e "$1 [0-9]\$" -e '"segment":[0-9]' "$tmp/both" |
		sed -e "s/^$1 /r/" -e 's/^"segment":/e/' | tr '\n' ' ')
	sed -e "s/$1 [0-9]\$//" "$tmp/both" >"$tmp/out"
}
# run_logged CMD RANGE: mpctl CMD RANGE with the fake logging its requests
# into $tmp/both, where mpctl's output goes too; $rc, $tmp/err, req_order
run_logged() {
	: >"$tmp/both"
	FAKE_CMM_MP_REQLOG="$tmp/both" env LD_PRELOAD="$FAKE" "$MPCTL" "$1" "$2" \
		>>"$tmp/both" 2>"$tmp/err"
	rc=$?
	req_order "$1"
}
offline_all
run_logged online 0-3
[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] && json_ok &&
	[ "$order" = "r0 e0 r1 e1 r2 e2 r3 e3 " ] &&
	jq_is '[s["segment"] for s in d]' '[0,1,2,3]'
ok $? "online 0-3 streams: each element out before the next request ($order)"
run_logged offline 0-3
[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] && json_ok &&
	[ "$order" = "r0 e0 r1 e1 r2 e2 r3 e3 " ]
ok $? "offline 0-3 streams the same way ($order)"
# a failure part way closes the array on what changed: valid JSON
FAKE_CMM_MP_FAIL="online:2:16:busy" run online 0-3
[ "$rc" = 6 ] && json_ok && jq_is '[s["segment"] for s in d]' '[0,1]' &&
	[ "$(wc -l <"$tmp/err")" = 1 ]
ok $? "online 0-3 failing at 2: [0,1] printed, a valid array"
offline_all

# the pool map changes under mpctl list's dump (NLM_F_DUMP_INTR)
FAKE_CMM_MP_DUMP_INTR=0:1 expect_ok "list: map changed before the first segment" list
jq_is '[s["segment"] for s in d]' '[0,1,2,3]'
ok $? "list: ... started again, whole"
FAKE_CMM_MP_DUMP_INTR=2:1 run list
! json_ok 2>/dev/null && [ "$rc" = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	printf '%s' "$err" | grep -q "the pool changed during the list, after segment 1" &&
	[ "$(grep -c '"segment"' "$tmp/out")" = 2 ]
ok $? "list: map changed after segment 1: fails saying so, the array left open"

expect_fail "usage: no command" 2 \
	"mpctl: missing command (see 'mpctl --help')"
expect_fail "usage: unknown command" 2 \
	"mpctl: unknown command 'frob' (see 'mpctl --help')" frob
expect_fail "usage: bad segment list" 2 \
	"mpctl: online: invalid segment list '1,x' at 'x' (see 'mpctl online --help')" \
	online 1,x
expect_fail "usage: descending range" 2 \
	"mpctl: offline: segment list '3-1': range '3-1' goes down (see 'mpctl offline --help')" \
	offline 3-1
expect_fail "usage: duplicate" 2 \
	"mpctl: online: segment list '0-2,1' names a segment twice, at '1' (see 'mpctl online --help')" \
	online 0-2 1
expect_fail "usage: unknown option" 2 \
	"mpctl: list: unknown option '--frob' (see 'mpctl list --help')" \
	list --frob
expect_fail "usage: missing segments" 2 \
	"mpctl: offline: missing segment list (see 'mpctl offline --help')" \
	offline

# Mirrored segments (issue 27), in a pool of three devices of two
# segments: 0-1 ours (mp0), 2-3 on mp1, 4-5 on mp2. What reached the fake
# kernel is in $REQLOG: a refused command line sends nothing.
export FAKE_CMM_MP_DEVS=3 FAKE_CMM_MP_SEGS=2
REQLOG=$tmp/reqlog
export FAKE_CMM_MP_REQLOG="$REQLOG"
run offline all
rm -f "$REQLOG"

# expect_unsent DESC LINE ARGS...: a usage error (2), and nothing sent
expect_unsent() {
	desc=$1 line=$2
	shift 2
	run "$@"
	[ "$rc" = 2 ] && [ "$err" = "$line" ] && [ -z "$out" ] &&
		[ ! -e "$REQLOG" ]
	ok $? "$desc: exit 2, nothing sent"
}

expect_unsent "online --mirror --shared" \
	"mpctl: online: --mirror and --shared: a mirrored segment is held by this host alone (see 'mpctl online --help')" \
	online 2 --mirror 4 --shared
expect_unsent "online --mirror --as ram" \
	"mpctl: online: --mirror needs --as dax or --as blk (see 'mpctl online --help')" \
	online 2 --as ram --mirror
expect_unsent "online --mirror: not a number" \
	"mpctl: online: --mirror 'x': not a segment id (see 'mpctl online --help')" \
	online 2 --mirror=x
expect_unsent "online --mirror: a list" \
	"mpctl: online: --mirror '4,5': not a segment id (see 'mpctl online --help')" \
	online 2 --mirror 4,5
expect_unsent "online --mirror: too big" \
	"mpctl: online: --mirror '4294967295': not a segment id (see 'mpctl online --help')" \
	online 2 --mirror 4294967295
expect_unsent "online --mirror M with two segments" \
	"mpctl: online: --mirror 4: one segment to mirror, not 2 (see 'mpctl online --help')" \
	online 2,3 --mirror 4
expect_unsent "online --mirror of itself" \
	"mpctl: online: --mirror 2: a segment cannot be its own mirror (see 'mpctl online --help')" \
	online 2 --mirror 2
expect_unsent "online all --mirror" \
	"mpctl: online: --mirror needs segment ids, not 'all' (see 'mpctl online --help')" \
	online all --mirror
expect_unsent "online --mirror without a segment" \
	"mpctl: online: missing segment list (see 'mpctl online --help')" \
	online --mirror 4
expect_unsent "online --mirror --memmap-on-memory" \
	"mpctl: online: --memmap-on-memory is for --as ram only (see 'mpctl online --help')" \
	online 2 --mirror 4 --memmap-on-memory
expect_unsent "repair without a segment" \
	"mpctl: repair: missing segment (see 'mpctl repair --help')" \
	repair
expect_unsent "repair of two segments" \
	"mpctl: repair: unexpected argument '3' (see 'mpctl repair --help')" \
	repair 2 3
expect_unsent "repair: not a number" \
	"mpctl: repair: '2x' is not a segment id (see 'mpctl repair --help')" \
	repair 2x
expect_unsent "repair --to: not a number" \
	"mpctl: repair: --to '-1': not a segment id (see 'mpctl repair --help')" \
	repair 2 --to=-1
expect_unsent "repair --to: missing" \
	"mpctl: repair: option '--to' needs a value (see 'mpctl repair --help')" \
	repair 2 --to
expect_unsent "repair --to itself" \
	"mpctl: repair: --to 2: a segment cannot replace its own copy (see 'mpctl repair --help')" \
	repair 2 --to 2
expect_fail "repair of an unknown segment" 5 \
	"mpctl: repair: segment 9: no such segment: No such file or directory" \
	repair 9
[ ! -e "$REQLOG" ]
ok $? "repair of an unknown segment: nothing sent"
expect_fail "repair --to an unknown segment" 5 \
	"mpctl: repair: segment 9: no such segment: No such file or directory" \
	repair 2 --to 9
[ ! -e "$REQLOG" ]
ok $? "repair --to an unknown segment: nothing sent"

run repair --help
[ "$rc" = 0 ] && printf '%s\n' "$out" |
	grep -qx 'usage: mpctl repair SEG \[-t R\] \[-u\] \[-v\]'
ok $? "repair --help: usage from its option table"
run online --help
[ "$rc" = 0 ] && printf '%s\n' "$out" | grep -q -- '-m, --mirror\[=M\]'
ok $? "online --help: --mirror, its value optional"

# the second copy picked: the first free segment of another device, not
# ours (4, on mp2); the next one skips what is held (5)
expect_ok "online --mirror (picked)" online 2 3 --as blk --mirror
jq_is '[[s["segment"],s["mode"],s["devnode"],s["mirror"],s["redundancy"]] for s in d]' \
	'[[2,"blk","/dev/mpb2",4,"mirrored"],[3,"blk","/dev/mpb3",5,"mirrored"]]' &&
	[ "$(cat "$REQLOG")" = "online 2 mode=2 mirror=4
online 3 mode=2 mirror=5" ]
ok $? "online 2 3 --as blk --mirror: copies on mp2, one request each"
run list -s 4
jq_is 'd' '[{"segment":4,"device":"mp2","state":"owned","size":134217728,"owner":0,"mode":"blk","devnode":"/dev/mpb2","mirror":2,"redundancy":"mirrored"}]'
ok $? "list: the second copy names the first"
rm -f "$REQLOG"
expect_fail "online --mirror: nothing free on another device" 6 \
	"mpctl: online: segment 1: no offline, unowned segment of 134217728 bytes on a device other than mp0 for the second copy of segment 1" \
	online 1 --mirror
[ ! -e "$REQLOG" ]
ok $? "online --mirror, nothing to pick: nothing sent"
expect_ok "offline the first of a pair" offline 2,3
run list -s 2-5
jq_is '[[s["state"],s.get("mirror")] for s in d]' '[["offline",null],["offline",null],["offline",null],["offline",null]]'
ok $? "offline 2,3: both copies of each released"
rm -f "$REQLOG"

# a copy lost: degraded; repaired elsewhere, or where it was
expect_ok "online --mirror M, dax by default" online --mirror 4 2
jq_is '[d[0]["mode"],d[0]["mirror"]]' '["dax",4]'
ok $? "online --mirror 4 2: dax, the copy on 4"
FAKE_CMM_MP_LOST=2 run list -s 2
jq_is 'd[0]["redundancy"]' '"degraded"'
ok $? "mp2 lost: degraded"
FAKE_CMM_MP_LOST=2 expect_fail "repair where the device is lost" 6 \
	"mpctl: repair: segment 2: the lost copy's device is still lost (name a replacement with --to): No route to host (kernel: the lost copy's device is still lost: name a replacement)" \
	repair 2
FAKE_CMM_MP_LOST=2 expect_ok "repair --to" repair 2 --to 1 -u
jq_is '[[s["segment"],s["mirror"],s["redundancy"],s["rebuilt"]] for s in d]' \
	'[[2,1,"rebuilding","32.00 MiB (33.55 MB)"],[1,2,"rebuilding","32.00 MiB (33.55 MB)"]]' &&
	[ "$(tail -n 1 "$REQLOG")" = "repair 2 mirror=1" ]
ok $? "repair 2 --to 1: the pair with its new copy, rebuilding"
run list -s 4
jq_is '[d[0]["state"],d[0].get("mirror")]' '["offline",null]'
ok $? "repair --to: the lost copy given up"
expect_fail "repair while a rebuild runs" 6 \
	"mpctl: repair: segment 1: a rebuild is running, or the replacement is held: Device or resource busy (kernel: a rebuild is running)" \
	repair 1
run offline 2
expect_fail "repair of a segment that is not mirrored" 1 \
	"mpctl: repair: segment 2: not repaired (not mirrored, or a bad replacement): Invalid argument (kernel: segment is not mirrored)" \
	repair 2
FAKE_CMM_MP_NOTROOT=1 expect_fail "repair: not root" 4 \
	"mpctl: repair: segment 2: needs root: Operation not permitted" \
	repair 2
unset FAKE_CMM_MP_DEVS FAKE_CMM_MP_SEGS FAKE_CMM_MP_REQLOG

tap_end
