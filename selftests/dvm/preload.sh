#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --kernel patched --mem 2G --pool 0 --timeout 240
#
# /dev/dvm_accel (patch 0006) preloads a load's data at PA == VA only
# inside runs of pages a walk of the job has validated as the process's
# own: dvm_accel preload points a pointer chase at a virtual address
# whose physical twin is another process's page, and copies from a
# translated page of its own mapped at that address, and checks from the
# job's counters that no preload read the other process's page (and
# that the data is right), while on identity-mapped memory every load is
# still preloaded.
. /selftests/lib.sh

N=4
tap_plan $((N + 1))
{ dvm_accel preload 2>&1; echo $? > /tmp/preload.rc; } | awk -v n="$_tap_n" -v n0="$_tap_n" '
	/^1\.\./ { next }
	/^ok / { n++; sub(/^ok [0-9]+/, "ok " n) }
	/^not ok / { n++; sub(/^not ok [0-9]+/, "not ok " n) }
	{ print; fflush() }
	END { print n - n0 > "/tmp/preload.points" }'
_tap_n=$((_tap_n + $(cat /tmp/preload.points)))
check "dvm_accel preload: exit status $(cat /tmp/preload.rc), $(cat /tmp/preload.points) of its $N points printed" \
	"test \"\$(cat /tmp/preload.rc)\" = 0 && test \"\$(cat /tmp/preload.points)\" = $N"
