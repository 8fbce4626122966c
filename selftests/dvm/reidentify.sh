#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --kernel patched --mem 2G --pool 0 --append movablecore=50% --timeout 900
#
# Identity re-establishment (patch 0008 of the DVM series): a mapping that
# fell back for lack of contiguous memory is placed at a virtual range
# equal to a physical range ("ip" in smaps) and PR_DVM_REIDENTIFY moves it
# into place once memory is free.  The guest boots with half its memory
# in ZONE_MOVABLE (movablecore=50%), where the series places pending
# areas: no unmovable allocation can come into their ranges, so each must
# come into place whole (dvm/reidentify_nomovable is the same kselftest
# without a movable zone).  First the series' kselftest dvm_reid
# (argument checks; fragmentation, a pinned page in the range, a split
# area), then dvm_reidentify: identity share of a 64 MiB buffer before
# fragmentation (dvm_frag), after the fallback (both ranges in
# ZONE_MOVABLE) and after recovery, from
# /proc/self/pagemap; every byte of the pattern intact; the failure case
# once dvm_frag has given its memory back (a page of each range held by a
# pipe: EBUSY, nothing changed); and the data read back through
# /dev/dvm_accel before and after, the accesses after recovery validated
# by Permission Entries.  Its "# raw:" line
# carries the coverage numbers for Documentation/dvm.rst.  guest-init
# checks afterwards that the kernel log has no warning, BUG or oops.
. /selftests/lib.sh

KS_N=2
REID_N=13
tap_plan $((KS_N + REID_N + 3))

# renumber PROG's TAP points after ours; its exit status and count of
# points go to /tmp/NAME.rc and /tmp/NAME.points
relay() {
	name=$1
	shift
	{ "$@" < /dev/null 2>&1; echo $? > "/tmp/$name.rc"; } | awk -v n="$_tap_n" -v n0="$_tap_n" '
		/^TAP version/ || /^1\.\./ { next }
		/^ok / { n++; sub(/^ok [0-9]+/, "ok " n) }
		/^not ok / { n++; sub(/^not ok [0-9]+/, "not ok " n) }
		{ print; fflush() }
		END { print n - n0 > "/tmp/'"$name"'.points" }'
	_tap_n=$((_tap_n + $(cat "/tmp/$name.points")))
}

movable=$(awk '/^Node [0-9]+, zone +Movable/ { z = 1; next } /^Node/ { z = 0 }
	z && $1 == "present" { n += $2 } END { print n + 0 }' /proc/zoneinfo)
check "the guest has a movable zone: $((movable / 256)) MiB present" "test $movable -gt 0"

relay dvm_reid dvm_reid
check "dvm_reid (kselftest): exit status $(cat /tmp/dvm_reid.rc), $(cat /tmp/dvm_reid.points) of its $KS_N points printed" \
	"test \"\$(cat /tmp/dvm_reid.rc)\" = 0 && test \"\$(cat /tmp/dvm_reid.points)\" = $KS_N"

# dvm_frag's fragmentation must hold: no proactive compaction, no THP
# defrag; and start from compacted memory for the "before" share
pro=$(cat /proc/sys/vm/compaction_proactiveness 2>/dev/null)
[ -n "$pro" ] && echo 0 > /proc/sys/vm/compaction_proactiveness
THP=/sys/kernel/mm/transparent_hugepage
defrag=$(sed 's/.*\[\(.*\)\].*/\1/' $THP/defrag 2>/dev/null)
[ -n "$defrag" ] && echo never > $THP/defrag
echo 1 > /proc/sys/vm/compact_memory

relay dvm_reidentify dvm_reidentify 64
check "dvm_reidentify: exit status $(cat /tmp/dvm_reidentify.rc), $(cat /tmp/dvm_reidentify.points) of its $REID_N points printed" \
	"test \"\$(cat /tmp/dvm_reidentify.rc)\" = 0 && test \"\$(cat /tmp/dvm_reidentify.points)\" = $REID_N"

[ -n "$pro" ] && echo "$pro" > /proc/sys/vm/compaction_proactiveness
[ -n "$defrag" ] && echo "$defrag" > $THP/defrag
grep '^dvm_' /proc/vmstat | tr '\n' ' ' | sed 's/^/# \/proc\/vmstat: /; s/ $/\n/'
