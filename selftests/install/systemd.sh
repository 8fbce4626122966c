#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rootfs: run by scripts/test-systemd (vmrun --rootfs), not a "# vm:" scenario
#
# A Debian 12 system booted with systemd, the modules installed by DKMS
# (updates/dkms), the rest by `make install DKMS=1 PREFIX=/usr`,
# cmm-mp.service enabled and /etc/cmm-mp/cmm-mp.conf describing this
# guest's pool. Nobody ran anything by hand: by the time this runs
# (mp-guest.service, after multi-user.target) systemd must have started
# the unit, which loaded cmm_mp from updates/dkms with the configured range
# and, as the config says [pool] hotplug = yes, 90-cmm-mp.rules started
# cmm-mp-segment@mp0.N.service for each segment device the driver created,
# which onlined the configured segments.
. /selftests/lib.sh

KVER=$(uname -r)
S=/sys/class/cmm_mp/mp0/segments
SEG_KB=$((128 * 1024))

# prop UNIT PROPERTY: one property as systemd has it
prop() { systemctl show -p "$2" --value "$1"; }
before_kb() { awk '/^MemTotal:/ {print $2}' /run/meminfo.before; }
seg_zone() {
	cat "/sys/devices/system/memory/memory$(cat $S/seg$1/memblock_first)/valid_zones"
}

tap_plan 16

diag "systemd $(systemctl --version | head -n1 | cut -d' ' -f2), state $(systemctl is-system-running), kernel $KVER, up $(cut -d' ' -f1 /proc/uptime)s"
check "booted by systemd: PID 1 is systemd" "test \"\$(cat /proc/1/comm)\" = systemd"
check "cmm-mp.service is enabled and active (exited), Result=success" \
	"test \"\$(systemctl is-enabled cmm-mp.service) \$(systemctl is-active cmm-mp.service) \$(prop cmm-mp.service SubState) \$(prop cmm-mp.service Result)\" = 'enabled active exited success'"
check "systemd started it during boot, before this test's unit" \
	"test \$(prop cmm-mp.service ExecMainStartTimestampMonotonic) -gt 0 -a \$(prop cmm-mp.service ExecMainStartTimestampMonotonic) -lt \$(prop mp-guest.service ExecMainStartTimestampMonotonic)"
diag "journal of cmm-mp.service: $(journalctl -b -o cat -u cmm-mp.service | tr '\n' '|')"

M=$(modinfo -n cmm_mp)
diag "modinfo -n cmm_mp: $M"
check "cmm_mp resolves to the DKMS module: /lib/modules/$KVER/updates/dkms/cmm_mp.ko" \
	"test '$M' = /lib/modules/$KVER/updates/dkms/cmm_mp.ko"
# The loaded module's GNU build id (sysfs notes) against the file's.
objcopy -O binary --only-section=.note.gnu.build-id "$M" /tmp/build-id >&2
diag "build id: file $(od -An -tx1 /tmp/build-id | tr -d " \n" | tail -c 40), loaded $(od -An -tx1 /sys/module/cmm_mp/notes/.note.gnu.build-id | tr -d " \n" | tail -c 40)"
check "the loaded cmm_mp is that file (same build id), the only cmm_mp.ko, with the configured mem=" \
	"test -s /tmp/build-id && cmp /tmp/build-id /sys/module/cmm_mp/notes/.note.gnu.build-id && test \"\$(find /lib/modules/$KVER -name 'cmm_mp.ko*')\" = '$M' && test \"\$(cat /sys/module/cmm_mp/parameters/mem)\" = '$MP_POOL_MEM'"

mpctl list > /tmp/list.json
diag "mpctl list: $(tr -d ' \n' < /tmp/list.json)"
check "mpctl list: segments 0,1,2 online-ram, 3 offline, as configured" \
	"test \"\$(tr -d ' \n' < /tmp/list.json | grep -o '\"segment\":[0-9]*,\"device\":\"mp0\",\"state\":\"[a-z-]*\"' | sed 's/.*:\"//; s/\"\$//' | tr '\n' ' ')\" = 'online-ram online-ram online-ram offline '"
check "segments 0,1 in ZONE_MOVABLE, 2 in ZONE_NORMAL (sysfs valid_zones)" \
	"test \"\$(seg_zone 0) \$(seg_zone 1) \$(seg_zone 2)\" = 'Movable Movable Normal'"
diag "MemTotal before cmm-mp.service $(before_kb) kB, now $(memtotal_kb) kB; node $MP_POOL_NODE $(node_memtotal_kb "$MP_POOL_NODE") kB"
check "MemTotal grew by three segments across cmm-mp.service; node $MP_POOL_NODE holds them" \
	"test \$((\$(memtotal_kb) - \$(before_kb))) = $((3 * SEG_KB)) -a \$(node_memtotal_kb $MP_POOL_NODE) = $((3 * SEG_KB))"
check "mpctl check-config: in sync, exit 0" \
	"mpctl check-config > /tmp/cc.json && grep -q '\"in_sync\":true' /tmp/cc.json"

# The per-segment path: 90-cmm-mp.rules + cmm-mp-segment@.service.
U=cmm-mp-segment@mp0
# "Result/ExecMainStatus/ran" of the four instances (ran: has an
# InvocationID, so it was started in this boot)
inst_states() {
	for i in 0 1 2 3; do
		printf '%s/%s/%s ' "$(prop "$U.$i.service" Result)" \
			"$(prop "$U.$i.service" ExecMainStatus)" \
			"$([ -n "$(prop "$U.$i.service" InvocationID)" ] && echo ran)"
	done
}
# runs_of N: how many times $U.N printed its JSON (one "[" line a run)
runs_of() { journalctl -b -o cat -u "$U.$1.service" | grep -c '^\['; }
# done, and what each instance printed is in the journal: journald may
# store a unit's output after systemd has recorded its end
inst_done() {
	[ -z "$(systemctl list-jobs --no-legend "$U.*")" ] &&
		[ "$(inst_states)" = 'success/0/ran success/0/ran success/0/ran success/0/ran ' ] &&
		[ "$(runs_of 0)" -ge 1 ]
}
wait_until 60 inst_done
diag "instances: $(inst_states); journal of $U.1: $(journalctl -b -o cat -u "$U.1.service" | tr -d ' \n' | tail -c 300)"
diag "$U.0: started at $(prop $U.0.service ExecMainStartTimestampMonotonic) us, cmm-mp.service exited at $(prop cmm-mp.service ExecMainExitTimestampMonotonic) us; runs $(runs_of 0)"
check "udev started $U.{0..3}.service at boot, after cmm-mp.service; each ran once, Result=success" \
	"inst_done && test \$(prop $U.0.service ExecMainStartTimestampMonotonic) -ge \$(prop cmm-mp.service ExecMainExitTimestampMonotonic) && test \$(runs_of 0) = 1"
check "cmm-mp.service loaded cmm_mp and left the segments to them (hotplug = yes): its output is []" \
	"test \"\$(journalctl -b -o cat -u cmm-mp.service | tr -d ' \n' | grep -o '\\[[^]]*\\]' | head -n1)\" = '[]'"
check "$U.1.service's journal shows the change it made (segment 1 online-ram), $U.3's nothing (offline wanted)" \
	"journalctl -b -o cat -u $U.1.service | tr -d ' \n' | grep -q '\"segment\":1,.*\"state\":\"online-ram\"' && test \"\$(journalctl -b -o cat -u $U.3.service | tr -d ' \n' | grep -o '\\[[^]]*\\]' | head -n1)\" = '[]'"

# Drift and repair the systemd way.
mpctl offline 1 > /dev/null
check "segment 1 offlined by hand: check-config reports drift, exit 1" \
	"! mpctl check-config > /dev/null 2>&1"
# The offline's change uevent reaches systemd: the instance, active since
# its run, is not started again (systemd 252 restarts a listed unit that
# is not active), so the admin's offline stands.
no_jobs() { [ -z "$(systemctl list-jobs --no-legend)" ]; }
udevadm settle
sleep 2
wait_until 30 no_jobs
diag "$U.1: $(prop $U.1.service ActiveState)/$(prop $U.1.service SubState), runs $(runs_of 1), segment 1 $(cat $S/seg1/state)"
check "the offline's change uevent does not start $U.1 again: it ran once, is active (exited), segment 1 stays offline" \
	"test \$(runs_of 1) = 1 -a \"\$(prop $U.1.service SubState)\" = exited -a \"\$(cat $S/seg1/state)\" = offline"
check "systemctl restart cmm-mp.service brings it back: in sync, MemTotal as before" \
	"systemctl restart cmm-mp.service && mpctl check-config > /dev/null && test \$((\$(memtotal_kb) - \$(before_kb))) = $((3 * SEG_KB))"
check "no kernel WARNING/BUG/Oops in this boot's journal" \
	"! journalctl -b -k -o cat | grep -E 'WARNING:|BUG:|Oops|Call Trace'"
