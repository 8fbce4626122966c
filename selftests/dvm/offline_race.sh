#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --kernel patched --mem 2G --pool 0 --append cma=32M --timeout 360
#
# DVM's large identity mappings (patch 0002) against memory offline and
# contiguous allocations: dvm_offline holds a ZONE_MOVABLE memory block
# isolated by an offline that cannot finish (a pinned page) and checks
# that identity mappings made meanwhile have no page in it, then offlines
# it once unpinned; then, for a while, offlines and onlines a block over
# and over, allocates and frees CMA memory (cma=32M, debugfs) and runs two
# DVM processes mapping, filling and unmapping 2 and 8 MiB: every offline,
# online and CMA allocation must succeed, DVM must give identity mappings
# with intact data, and (guest-init) the kernel log must stay clean.
. /selftests/lib.sh

N=2
tap_plan $((N + 1))
{ dvm_offline 2>&1; echo $? > /tmp/offline.rc; } | awk -v n="$_tap_n" -v n0="$_tap_n" '
	/^TAP version/ || /^1\.\./ { next }
	/^ok / { n++; sub(/^ok [0-9]+/, "ok " n " -") }
	/^not ok / { n++; sub(/^not ok [0-9]+/, "not ok " n " -") }
	{ print; fflush() }
	END { print n - n0 > "/tmp/offline.points" }'
_tap_n=$((_tap_n + $(cat /tmp/offline.points)))
check "dvm_offline: exit status $(cat /tmp/offline.rc), $(cat /tmp/offline.points) of its $N points printed" \
	"test \"\$(cat /tmp/offline.rc)\" = 0 && test \"\$(cat /tmp/offline.points)\" = $N"
