#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rootfs: run by scripts/test-systemd (vmrun --rootfs), not a "# vm:" scenario
#
# The system install/systemd.sh checked, booted again on a host without
# the pool device: no memmap= reserves the range cmm-mp.conf names, which
# is System RAM here, as on a host of a fleet that shares the file but
# not the hardware. The package must stay out of the way: cmm-mp.service
# skipped by its ExecCondition (mpctl check-config --device) saying why,
# no unit failed, cmm_mp never loaded (its mem= would be System RAM), no
# segment unit started, and a clean kernel log.
. /selftests/lib.sh

CONF=/etc/cmm-mp/cmm-mp.conf
prop() { systemctl show -p "$2" --value "$1"; }
MEM=$(sed -n 's/^mem *= *//p' $CONF)

tap_plan 7
diag "systemd state $(systemctl is-system-running), [pool] mem = $MEM, up $(cut -d' ' -f1 /proc/uptime)s"
check "no memmap= on this boot: the pool range is System RAM here" \
	"! grep -q memmap= /proc/cmdline && grep -q 'System RAM' /proc/iomem"
check "cmm-mp.service is enabled, and was skipped by its ExecCondition (Result=exec-condition, inactive)" \
	"systemctl is-enabled cmm-mp.service && test \"\$(prop cmm-mp.service Result)\" = exec-condition && test \"\$(prop cmm-mp.service ActiveState)\" = inactive"
journalctl -b -u cmm-mp.service --no-pager -o cat >&2
check "its journal says why: no pool device, mem= is not reserved memory" \
	"journalctl -b -u cmm-mp.service --no-pager -o cat | grep -q 'no pool device on this host: mem=.* is not memory reserved for the pool'"
check "no failed unit (systemctl --failed is empty)" \
	"test -z \"\$(systemctl --failed --no-legend --plain)\""
check "cmm_mp and mp_eth not loaded, no /sys/class/cmm_mp" \
	"! grep -qw -e cmm_mp -e mp_eth /proc/modules && test ! -e /sys/class/cmm_mp"
check "no cmm-mp-segment@ unit was started" \
	"test -z \"\$(systemctl list-units --all --no-legend --plain 'cmm-mp-segment@*')\""
check "no kernel WARNING/BUG/Oops in this boot's journal" \
	"! journalctl -b -k -o cat | grep -E 'WARNING:|BUG:|Oops|Call Trace'"
