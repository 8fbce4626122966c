#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --kernel patched --mem 2G --pool 0 --timeout 900
#
# Identity re-establishment (patch 0008) without a movable zone: the
# series' kselftest dvm_reid on a guest whose memory is all in the zones
# the kernel allocates from too.  A pending area is then placed there,
# and a slab page or a page table that lands in its range while the
# test's filler holds the memory can keep it pending: the kselftest's
# expectation for each part of the area is in place whole ("id", every
# page identity mapped) or pending ("ip") with its data intact, asking
# again failing with EBUSY; the prctl returns exactly the pages that came
# into place.  Never data lost, never a half-moved area reported as
# identity.  dvm/reidentify runs the same kselftest with a movable zone,
# where both parts must come into place.
. /selftests/lib.sh

KS_N=2
tap_plan $((KS_N + 2))

movable=$(awk '/^Node [0-9]+, zone +Movable/ { z = 1; next } /^Node/ { z = 0 }
	z && $1 == "present" { n += $2 } END { print n + 0 }' /proc/zoneinfo)
check "the guest has no movable zone ($movable pages present)" "test $movable -eq 0"

tap_run dvm_reid $KS_N dvm_reid < /dev/null
grep '^dvm_' /proc/vmstat | tr '\n' ' ' | sed 's/^/# \/proc\/vmstat: /; s/ $/\n/'
