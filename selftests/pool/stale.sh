#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --net --pool 256M --timeout 600
#
# A segment of the local device mapped as /dev/mps1 (dax), and what a pool
# change does to a mapping (Documentation/pool.rst, "Remote-backed
# segments"). Without mp_eth the pool is the local device alone: segment 1
# onlines as dax, its bytes move through mp_local_read()/write(), and it
# cannot become System RAM while mapped. Loading mp_eth forms a pool (of
# this one device) in a new generation: the mapping goes stale, pread
# fails at once with EIO and a fault on an uncached page gets SIGBUS;
# offline still works and the segment can be onlined again.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh

SEG=1
DEV=/dev/mps$SEG
LEN=65536
flat() { tr -d ' \n'; }
seg_has() { mpctl list -s "$1" | flat | grep -q "$2"; }
sum_of() { sed -n 's/.*sum=\([0-9a-f]*\).*/\1/p' "$1"; }
runtime() { test "$(cat /sys/class/cmm_mp/mp0/pool_state)" = runtime; }

tap_plan 14
check "cmm_mp loads (no backend: the local device alone)" load_cmm_mp
check "segment $SEG of the local device onlines as dax: $DEV, owner 0" \
	"mpctl online $SEG --as dax && test -c $DEV && seg_has $SEG '\"owner\":0' && seg_has $SEG '\"mode\":\"dax\"'"
check "pwrite then mmap: the same bytes (through mp_local_*)" \
	"mps_test pwrite $DEV 0 $LEN 3 >/tmp/wr && mps_test sum-mmap $DEV 0 $LEN >/tmp/mm && test \"\$(sum_of /tmp/wr)\" = \"\$(sum_of /tmp/mm)\""
check "System RAM while mapped: EBUSY, clear message" \
	"! mpctl online $SEG --as ram 2>/tmp/err; cat /tmp/err >&2; grep -q 'mapped here' /tmp/err"
check "... and nothing changed: no memory block of it online, still dax" \
	"seg_has $SEG '\"mode\":\"dax\"' && ! seg_has $SEG online-ram"
check "not stale yet" "test \$(cat /sys/class/mps/mps$SEG/stale) = 0"
check "eth0 up, mp_eth loads (discovery)" \
	"mpe_net && load_mp_eth netdev=eth0"
check "a pool of this one device forms" wait_until 60 runtime
check "the mapping went stale" "test \$(cat /sys/class/mps/mps$SEG/stale) = 1"
check "pread fails at once with EIO" \
	"! mps_test sum-read $DEV 0 $LEN 2>/tmp/err; cat /tmp/err >&2; grep -q 'Input/output error' /tmp/err"
check "a fault on an uncached page: SIGBUS (exit 135)" \
	"mps_test sum-mmap $DEV 0 $LEN; test \$? = 135"
check "offline still works: $DEV gone, segment offline, no owner" \
	"mpctl offline $SEG && test ! -e $DEV && seg_has $SEG '\"state\":\"offline\"' && ! seg_has $SEG owner"
check "online again: pread works" \
	"mpctl online $SEG --as dax && mps_test sum-read $DEV 0 $LEN && mpctl offline $SEG"
check "both modules unload (the /dev/mps class, pseudo fs and chrdev region go)" \
	"rmmod mp_eth && rmmod cmm_mp && test ! -e /sys/class/mps && ! grep -qw mps /proc/devices"
