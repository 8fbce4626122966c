#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mpctl apply-config / check-config / help end to end against the fake
# cmm_mp family (fake_cmm_mp.so, LD_PRELOADed), a fake sysfs and a fake
# modprobe that records its arguments. Prints TAP. Installed as
# build/unit/test_mpctl_config_cli and run from there.

. "$(dirname "$0")/lib.sh"
fake_pool
export MPCTL_MODPROBE="$tmp/modprobe"
# The fake modprobe: logs its arguments, "loads" the module in sysfs.
cat > "$MPCTL_MODPROBE" <<EOS
#!/bin/sh
echo "\$*" >> "$tmp/modprobe.log"
[ -n "\$FAIL_MODPROBE" ] && exit 1
mkdir -p "$MP_SYSFS_ROOT/module/\$1/parameters"
[ "\$1" = mp_eth ] && echo "\${2#netdev=}" > "$MP_SYSFS_ROOT/module/mp_eth/parameters/netdev"
exit 0
EOS
chmod +x "$MPCTL_MODPROBE"
CONF=$tmp/cmm-mp.conf

# jq_is FILTER VALUE: the JSON on stdout, filtered, is VALUE.
jq_is() {
	got=$(python3 -c "import json,sys; d=json.load(sys.stdin); print(json.dumps($1, separators=(',',':')))" <"$tmp/out") &&
		[ "$got" = "$2" ]
}

conf() { printf '%s\n' "$@" > "$CONF"; }

# The pool of the fake: mp0, 4 x 128 MiB at 0x70000000.
conf '# test host' '[pool]' 'mem = 512M$0x70000000' 'seg_size = 128M' \
	'' '[segments 0,1]' '[segments 2]' 'zone = normal' '[segments 3]' 'online = no'

run check-config -c "$CONF" -p
[ "$rc" = 0 ] && [ -z "$err" ] &&
	jq_is 'd' '{"config":"'"$CONF"'","pool":{"mem":"512M$0x70000000","phys":1879048192,"size":536870912,"seg_size":134217728},"segments":[{"segment":0,"state":"online-ram","zone":"movable"},{"segment":1,"state":"online-ram","zone":"movable"},{"segment":2,"state":"online-ram","zone":"normal"},{"segment":3,"state":"offline"}]}'
ok $? "check-config --parse-only: the file as JSON, nothing touched"
[ ! -e "$tmp/modprobe.log" ]
ok $? "check-config --parse-only: no modprobe"

run check-config -c "$CONF" -p -u
[ "$rc" = 0 ] && jq_is 'd["pool"]["size"]+" "+d["pool"]["phys"]' '"512.00 MiB (536.87 MB) 0x70000000"'
ok $? "check-config -p -u: human sizes, as list -u"

run check-config -c "$CONF"
[ "$rc" = 1 ] && jq_is 'd["drift"]' '[{"object":"pool","attribute":"module","want":"cmm_mp","have":null}]' &&
	[ "$err" = "mpctl: check-config: $CONF: the running state differs in 1 place (see \"drift\")" ]
ok $? "check-config before boot: module not loaded is drift, exit 1"

run apply-config -c "$CONF"
[ "$rc" = 0 ] && [ -z "$err" ] &&
	[ "$(cat "$tmp/modprobe.log")" = 'cmm_mp mem=512M$0x70000000 seg_size=134217728' ] &&
	jq_is '[(s["segment"], s["state"], s["zone"]) for s in d]' \
		'[[0,"online-ram","movable"],[1,"online-ram","movable"],[2,"online-ram","normal"]]'
ok $? "apply-config: modprobe cmm_mp with the [pool] options, onlines 0,1 movable and 2 normal"

run apply-config -c "$CONF"
[ "$rc" = 0 ] && [ -z "$err" ] && [ "$out" = "[
]" ] && [ "$(wc -l < "$tmp/modprobe.log")" = 1 ]
ok $? "apply-config again: nothing to do, no second modprobe"

run check-config -c "$CONF"
[ "$rc" = 0 ] && [ -z "$err" ] && jq_is 'd' '{"config":"'"$CONF"'","in_sync":true,"drift":[]}'
ok $? "check-config: in sync, exit 0"

run offline 1
run check-config -c "$CONF"
[ "$rc" = 1 ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
	jq_is '[d["in_sync"], d["drift"]]' '[false,[{"object":"segment","segment":1,"attribute":"state","want":"online-ram","have":"offline"}]]'
ok $? "check-config after 'mpctl offline 1': the drift, exit 1"

run online 3
run check-config -c "$CONF"
[ "$rc" = 1 ] && [ "$err" = "mpctl: check-config: $CONF: the running state differs in 2 places (see \"drift\")" ] &&
	jq_is '[x["segment"] for x in d["drift"]]' '[1,3]'
ok $? "check-config: a segment that should be offline is drift too"

run offline 2
run online 2
run check-config -c "$CONF"
[ "$rc" = 1 ] && jq_is 'd["drift"][1]' '{"object":"segment","segment":2,"attribute":"zone","want":"normal","have":"movable"}'
ok $? "check-config: online in the wrong zone is drift"

run apply-config -c "$CONF"
[ "$rc" = 1 ] && [ "$err" = "mpctl: apply-config: segment 2: online in zone movable, the config wants normal: offline it first" ] &&
	jq_is '[(s["segment"], s["state"]) for s in d]' '[[1,"online-ram"],[3,"offline"]]'
ok $? "apply-config: fixes what it can, reports the zone it cannot change, exit 1"

run apply-config -c "$CONF" -u
[ "$rc" = 1 ] && [ "$out" = "[
]" ]
ok $? "apply-config -u: the same failure, nothing else changed"

conf '[pool]' 'mem = 256M$0x70000000' '[segments 0]'
run apply-config -c "$CONF"
[ "$rc" = 1 ] && [ "$err" = 'mpctl: apply-config: pool: the config wants mem=256M$0x70000000, the running pool has 512M$0x70000000: reload the modules to change it' ] &&
	[ -z "$out" ]
ok $? "apply-config: a loaded module with another mem= is refused, nothing touched"
run check-config -c "$CONF"
[ "$rc" = 1 ] && jq_is 'd["drift"]' '[{"object":"pool","attribute":"mem","want":"256M$0x70000000","have":"512M$0x70000000"}]'
ok $? "check-config: mem drift"

conf '[pool]' 'mem = 512M$0x70000000' '' '[segments 0]' '[segments 9]'
run apply-config -c "$CONF"
[ "$rc" = 1 ] && [ "$err" = "mpctl: apply-config: segment 9: no such segment ($CONF:5): No such file or directory" ]
ok $? "apply-config: an unknown segment is refused before anything changes"

conf '[pool]' 'mem = 512M$0x70000000' 'sg_size = 128M'
run apply-config -c "$CONF"
[ "$rc" = 1 ] && [ "$err" = "mpctl: apply-config: $CONF:3: unknown key 'sg_size' in [pool] (expected mem, seg_size, chip_id, backend or hotplug)" ] &&
	[ -z "$out" ]
ok $? "apply-config: a config error names file and line, nothing done"

run check-config -c "$tmp/nonexistent"
[ "$rc" = 1 ] && [ "$err" = "mpctl: check-config: $tmp/nonexistent: No such file or directory" ]
ok $? "check-config: missing file"

# A fresh boot: nothing loaded, modprobe fails.
rm -rf "$MP_SYSFS_ROOT/module" "$tmp/pool" "$tmp/modprobe.log"
conf '[pool]' 'mem = 512M$0x70000000' 'chip_id = 0x10' 'backend = eth1' '[segments 0]'
FAIL_MODPROBE=1 run apply-config -c "$CONF"
[ "$rc" = 1 ] && [ "$err" = "mpctl: apply-config: cmm_mp: 'modprobe cmm_mp mem=512M\$0x70000000 chip_id=16' failed (exit 1; see dmesg)" ]
ok $? "apply-config: a failing modprobe is one clear line"

rm -f "$tmp/modprobe.log"
run apply-config -c "$CONF"
[ "$rc" = 1 ] && [ "$(cat "$tmp/modprobe.log")" = 'cmm_mp mem=512M$0x70000000 chip_id=16
mp_eth netdev=eth1' ] &&
	[ "$err" = 'mpctl: apply-config: pool: the config wants chip_id=16, the running pool has 90520730730496: reload the modules to change it' ]
ok $? "apply-config: backend loads mp_eth netdev=; a chip_id mismatch is refused"

# The file make install ships: nothing configured, nothing done.
printf '# [pool]\n# mem = 512M$0x60000000\n' > "$CONF"
rm -rf "$MP_SYSFS_ROOT/module" "$tmp/modprobe.log"
run apply-config -c "$CONF"
[ "$rc" = 0 ] && [ "$out" = "[
]" ] && [ ! -e "$tmp/modprobe.log" ]
ok $? "apply-config with nothing configured: no-op, exit 0"
run check-config -c "$CONF"
[ "$rc" = 0 ] && jq_is 'd["in_sync"]' 'true'
ok $? "check-config with nothing configured: in sync"

# The per-segment path (cmm-mp-segment@.service runs apply-config
# --segment mp0.N when udev sees the segment appear).
rm -rf "$tmp/pool" "$tmp/modprobe.log"
mkdir -p "$MP_SYSFS_ROOT/module/cmm_mp"
conf '[pool]' 'mem = 512M$0x70000000' '[segments 1]' '[segments 2]' 'zone = normal'
run apply-config -c "$CONF" --segment mp0.1
[ "$rc" = 0 ] && [ -z "$out" ] && [ -z "$err" ] && [ ! -e "$tmp/pool" -o "$(cat "$tmp/pool" 2>/dev/null | tr -d '0\n ')" = "" ]
ok $? "apply-config --segment without hotplug = yes: nothing done, nothing printed, exit 0"
run list -s 1
printf '%s' "$out" | grep -q '"state":"offline"'
ok $? "... segment 1 still offline"

conf '[pool]' 'mem = 512M$0x70000000' 'hotplug = yes' '[segments 1]' '[segments 2]' 'zone = normal'
run apply-config -c "$CONF" --segment mp0.1
[ "$rc" = 0 ] && [ -z "$err" ] && [ ! -e "$tmp/modprobe.log" ] &&
	jq_is '[(s["segment"], s["state"], s["zone"]) for s in d]' '[[1,"online-ram","movable"]]'
ok $? "apply-config --segment mp0.1 (hotplug = yes): onlines that segment only, as configured"
run list
jq_is '[s["state"] for s in d]' '["offline","online-ram","offline","offline"]'
ok $? "... the others untouched"
run apply-config -c "$CONF" --segment mp0.1
[ "$rc" = 0 ] && [ -z "$err" ] && [ "$out" = "[
]" ]
ok $? "apply-config --segment mp0.1 again: idempotent, nothing changed"
run apply-config -c "$CONF" -s 2
[ "$rc" = 0 ] && [ -z "$err" ] &&
	jq_is '[(s["segment"], s["state"], s["zone"]) for s in d]' '[[2,"online-ram","normal"]]'
ok $? "apply-config -s 2: by pool-wide number, in its configured zone"
run apply-config -c "$CONF" --segment mp0.3
[ "$rc" = 0 ] && [ -z "$out" ] && [ -z "$err" ]
ok $? "apply-config --segment mp0.3: not in the config, quiet no-op"
run list -s 3
printf '%s' "$out" | grep -q '"state":"offline"'
ok $? "... segment 3 still offline"
run apply-config -c "$CONF" --segment mp0.9
[ "$rc" = 1 ] && [ -z "$out" ] && [ "$err" = "mpctl: apply-config: mp0.9: no such segment: No such file or directory" ]
ok $? "apply-config --segment mp0.9: no such segment, exit 1"
run apply-config -c "$CONF" --segment mp7.0
[ "$rc" = 1 ] && [ "$err" = "mpctl: apply-config: mp7.0: no such segment: No such file or directory" ]
ok $? "apply-config --segment mp7.0: no such device, exit 1"
run apply-config -c "$CONF" --segment mp0.x
[ "$rc" = 2 ] && [ "$err" = "mpctl: apply-config: --segment 'mp0.x' is neither a device's segment (mp0.N) nor a number (see 'mpctl apply-config --help')" ]
ok $? "apply-config --segment mp0.x: usage error"
# hotplug = yes at boot: apply-config loads the driver and leaves the
# segments it creates to their units (which udev starts after it).
rm -rf "$MP_SYSFS_ROOT/module" "$tmp/pool"
conf '[pool]' 'mem = 512M$0x70000000' 'hotplug = yes' '[segments 0,1]'
run apply-config -c "$CONF"
[ "$rc" = 0 ] && [ -z "$err" ] && [ "$out" = "[
]" ] && [ "$(tail -n1 "$tmp/modprobe.log")" = 'cmm_mp mem=512M$0x70000000' ]
ok $? "apply-config, hotplug = yes, driver not loaded: loads it, leaves the segments to the per-segment units"
run list
jq_is '[s["state"] for s in d]' '["offline","offline","offline","offline"]'
ok $? "... no segment changed"
run apply-config -c "$CONF"
[ "$rc" = 0 ] && jq_is '[s["segment"] for s in d]' '[0,1]'
ok $? "apply-config again, driver loaded (systemctl restart): applies the segments"

conf '[pool]' 'mem = 256M$0x70000000' 'hotplug = yes' '[segments 3]'
run apply-config -c "$CONF" --segment mp0.3
[ "$rc" = 1 ] && [ -z "$out" ] &&
	[ "$err" = 'mpctl: apply-config: pool: the config wants mem=256M$0x70000000, the running pool has 512M$0x70000000: reload the modules to change it' ]
ok $? "apply-config --segment: another pool than configured is refused, nothing touched"

run help check-config
[ "$rc" = 0 ] && printf '%s' "$out" | grep -q "^usage: mpctl check-config"
ok $? "mpctl help check-config: the command's usage"
run help list
[ "$rc" = 0 ] && printf '%s' "$out" | grep -q "^usage: mpctl list"
ok $? "mpctl help list"
run help frob
[ "$rc" = 2 ] && [ "$err" = "mpctl: unknown command 'frob' (see 'mpctl --help')" ]
ok $? "mpctl help frob: usage error"
# check-config --device: systemd's ExecCondition= (0 run the unit, 1 skip
# it, 255 fail it), against a fake /proc/iomem
printf '%s\n' '00100000-6fffffff : System RAM' '70000000-8fffffff : Reserved' \
	'90000000-bfffffff : System RAM' > "$tmp/iomem"
export MPCTL_IOMEM="$tmp/iomem"
had_cmm_mp=; [ -d "$MP_SYSFS_ROOT/module/cmm_mp" ] && had_cmm_mp=1
mv "$MP_SYSFS_ROOT/module/cmm_mp" "$tmp/cmm_mp.module" 2>/dev/null
conf '[pool]' 'mem = 512M$0x70000000'
run check-config -c "$CONF" --device
[ "$rc" = 0 ] && [ -z "$err" ] &&
	jq_is 'd' '{"config":"'"$CONF"'","device":true,"reason":"Reserved 70000000-8fffffff"}'
ok $? "check-config --device: mem= reserved by memmap=: exit 0"
conf '[pool]' 'mem = 512M$0x90000000'
run check-config -c "$CONF" -d
[ "$rc" = 1 ] && jq_is 'd["device"]' 'false' &&
	[ "$err" = "mpctl: check-config: no pool device on this host: mem=512M\$0x90000000 is not memory reserved for the pool (memmap=): it meets 'System RAM' at 90000000-bfffffff" ]
ok $? "check-config --device: mem= in System RAM: exit 1, says why"
conf '# nothing configured'
run check-config -c "$CONF" -d
[ "$rc" = 1 ] && jq_is 'd["device"]' 'false'
ok $? "check-config --device: no mem= and no cmm_mp (the shipped file): exit 1"
mkdir -p "$MP_SYSFS_ROOT/module/cmm_mp"
run check-config -c "$CONF" -d
[ "$rc" = 0 ] && jq_is 'd["reason"]' '"cmm_mp is loaded"'
ok $? "check-config --device: cmm_mp loaded: exit 0"
rm -rf "$MP_SYSFS_ROOT/module/cmm_mp"
run check-config -c "$tmp/absent.conf" -d
[ "$rc" = 255 ] && [ -z "$out" ] && [ -n "$err" ]
ok $? "check-config --device: unreadable file: exit 255 (fails the unit)"
conf '[pool]' 'mem = 512M$0x70000000'
MPCTL_IOMEM="$tmp/absent"
run check-config -c "$CONF" -d
[ "$rc" = 255 ] && [ -z "$out" ]
ok $? "check-config --device: unreadable /proc/iomem: exit 255"
run check-config -c "$CONF" -d -p
[ "$rc" = 2 ]
ok $? "check-config --device --parse-only: usage error"
unset MPCTL_IOMEM
[ -z "$had_cmm_mp" ] || mv "$tmp/cmm_mp.module" "$MP_SYSFS_ROOT/module/cmm_mp"

run apply-config extra
[ "$rc" = 2 ] && [ "$err" = "mpctl: apply-config: unexpected argument 'extra' (see 'mpctl apply-config --help')" ]
ok $? "apply-config: usage error"

tap_end
