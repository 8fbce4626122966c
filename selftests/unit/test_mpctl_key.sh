#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mpctl key end to end against the fake cmm_mp family (fake_cmm_mp.so):
# the key goes over CMM_MP_CMD_KEY_SET (the fake logs what reached it),
# the key ids mp_eth holds are printed, the key never is, and every
# refusal is one line with its exit status. Prints TAP. Installed as
# build/unit/test_mpctl_key; mpctl is ../mpctl/mpctl relative to it.

. "$(dirname "$0")/lib.sh"
fake_pool
export FAKE_CMM_MP_KEYLOG="$tmp/keylog"
: > "$FAKE_CMM_MP_KEYLOG"

K1=00112233445566778899aabbccddeeff
K2=0123456789ABCDEF0123456789abcdef
printf '%s\n' "$K1" > "$tmp/k1"
printf '  %s\n\n' "$K2" > "$tmp/k2"

# key_ok DESC IDS LOGLINE ARGS...: success, {"key_ids": IDS} printed, LOGLINE
# the last operation that reached the fake kernel, the key nowhere printed
key_ok() {
	desc=$1 ids=$2 logline=$3
	shift 3
	run "$@"
	[ "$rc" = 0 ] && [ -z "$err" ] &&
		[ "$(printf '%s' "$out" | tr -d '\n')" = "{  \"key_ids\":\"$ids\"}" ] &&
		[ "$(tail -n 1 "$FAKE_CMM_MP_KEYLOG")" = "$logline" ] &&
		! grep -qi -e "$K1" -e "$K2" "$tmp/out" "$tmp/err"
	ok $? "$desc"
}

key_ok "set -a -i 7 FILE: accepted, not signing" "7" "2 7 $K1" \
	key set -a -i 7 "$tmp/k1"
LD_PRELOAD=$FAKE "$MPCTL" key set -i 7 < "$tmp/k1" > "$tmp/out" 2> "$tmp/err"
rc=$? out=$(cat "$tmp/out") err=$(cat "$tmp/err")
[ "$rc" = 0 ] && [ -z "$err" ] && [ "$(tail -n 1 "$tmp/keylog")" = "1 7 $K1" ] &&
	[ "$(cat "$MP_SYSFS_ROOT/class/misc/mp_eth/key_ids")" = "7*" ]
ok $? "set -i 7 from stdin: signs with key 7"
key_ok "set -a --id=8 (upper case, spaces): rotation's first step" "7* 8" \
	"2 8 $(echo "$K2" | tr 'A-F' 'a-f')" key set -a --id=8 "$tmp/k2"
key_ok "set -i 8: rotation done" "7 8*" \
	"1 8 $(echo "$K2" | tr 'A-F' 'a-f')" key set -i 8 "$tmp/k2"
key_ok "set without -i: key id 1" "8 1*" "1 1 $K1" key set "$tmp/k1"
key_ok "clear: every key forgotten" "none" "3 0 -" key clear

lines=$(wc -l < "$FAKE_CMM_MP_KEYLOG")
printf '%032d\n' 0 > "$tmp/zero"
expect_fail "all-zero key refused before it is sent" 1 \
	"mpctl: key: reading the key: an all-zero key is no secret: generate one, e.g. from /dev/urandom" \
	key set "$tmp/zero"
printf '%s\n' "0011" > "$tmp/short"
expect_fail "short key" 1 \
	"mpctl: key: reading the key: need 32 hexadecimal digits (128 bits)" \
	key set "$tmp/short"
printf '%sx\n' "$K1" > "$tmp/junk"
expect_fail "junk after the key" 1 \
	"mpctl: key: reading the key: need 32 hexadecimal digits (128 bits)" \
	key set "$tmp/junk"
expect_fail "no such key file" 1 \
	"mpctl: key: $tmp/none: No such file or directory" key set "$tmp/none"
FAKE_CMM_MP_NOTROOT=1 expect_fail "not root: exit 4" 4 \
	"mpctl: key: giving mp_eth the key: needs root: Operation not permitted" \
	key set "$tmp/k1"
FAKE_CMM_MP_NOBACKEND=1 expect_fail "no backend (mp_eth not loaded): exit 5" 5 \
	"mpctl: key: giving mp_eth the key: no backend (is mp_eth loaded?): No such device (kernel: no backend that authenticates its traffic (load mp_eth))" \
	key clear
FAKE_CMM_MP_UNLOADED=1 expect_fail "cmm_mp not loaded: exit 3" 3 \
	"mpctl: key: cmm_mp: kernel module not loaded: No such device" \
	key set "$tmp/k1"
[ "$(wc -l < "$FAKE_CMM_MP_KEYLOG")" = "$lines" ] &&
	[ "$(cat "$MP_SYSFS_ROOT/class/misc/mp_eth/key_ids")" = none ]
ok $? "nothing refused reached the kernel or changed the keys"

expect_fail "usage: no subcommand" 2 \
	"mpctl: key: set or clear? (see 'mpctl key --help')" key
expect_fail "usage: unknown subcommand" 2 \
	"mpctl: key: unknown subcommand 'frob' (see 'mpctl key --help')" key frob
expect_fail "usage: bad key id" 2 \
	"mpctl: key: invalid key id 'x' (see 'mpctl key --help')" \
	key set -i x "$tmp/k1"
expect_fail "usage: clear takes no file" 2 \
	"mpctl: key: unexpected argument 'extra' (see 'mpctl key --help')" \
	key clear extra
expect_fail "usage: one file" 2 \
	"mpctl: key: unexpected argument 'b' (see 'mpctl key --help')" \
	key set a b
expect_fail "usage: unknown option" 2 \
	"mpctl: key: unknown option '--frob' (see 'mpctl key --help')" \
	key set --frob

run key --help
[ "$rc" = 0 ] && printf '%s\n' "$out" | grep -qx "usage: mpctl key set \[-a\] \[-i ID\] \[FILE\]" &&
	printf '%s\n' "$out" | grep -q -- "--accept-only"
ok $? "key --help: usage and options from the table"

# Several devices and no key: online warns (Documentation/security.rst).
run online 0
[ "$rc" = 0 ] && [ -z "$err" ]
ok $? "online with one device and no key: no warning"
run offline 0
FAKE_CMM_MP_DEVS=2 run online 0
[ "$rc" = 0 ] && printf '%s\n' "$err" | grep -q "warning: the pool has 2 devices and no pool key"
ok $? "online with two devices and key_ids none: warns"

tap_end
