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
tap_run offline $N dvm_offline
