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
tap_run preload $N dvm_accel preload
