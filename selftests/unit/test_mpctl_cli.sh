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

tap_end
