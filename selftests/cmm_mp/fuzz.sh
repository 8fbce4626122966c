#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 2 --pool 256M --timeout 420
#
# Fuzz cmm_mp's userspace inputs for a bounded time (nl_fuzz): generic
# netlink to the cmm_mp family, ioctls on /dev/mp_eth, /dev/mps<N> and
# /dev/mpb<N>, reads, writes and mmaps of /dev/mps<N>. Host 0 forms a pool
# with host 1, maps a segment of host 1 as /dev/mps and one of its own as
# /dev/mpb, fuzzes, and then checks from outside what must hold whatever
# the valid random requests changed: the fuzzer saw no unexpected result
# and was not killed; every segment is in a settled state; MemTotal is the
# base plus exactly the online blocks, and plus exactly the segments once
# their blocks are onlined; `mpctl offline all` brings MemTotal back to
# the base and releases every segment; no key is left; the modules unload.
# Host 1 serves until host 0 leaves, then checks that it holds nothing
# for host 0. The guest's /init fails the run on any WARNING/BUG/Oops.
#
# NL_FUZZ_SECONDS (60), NL_FUZZ_SEED (1), NL_FUZZ_JOBS (2 workers racing
# each other), NL_FUZZ_ITERS (per worker; unbounded) set the run; longer
# runs: Documentation/security.rst, "Fuzzing the control interfaces".
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh

T=${NL_FUZZ_SECONDS:-60}
SEED=${NL_FUZZ_SEED:-1}
JOBS=${NL_FUZZ_JOBS:-2}
ITERS=${NL_FUZZ_ITERS:+--iters $NL_FUZZ_ITERS}
S=$D/segments
kernel_clean() { test -z "$(kernel_log_bad)"; }

case $MP_HOST in 0) tap_plan 18 ;; *) tap_plan 6 ;; esac
check "eth0 up (virtio_net)" mpe_net
check "cmm_mp and mp_eth (discovery) load" "load_cmm_mp && load_eth"
check "pool formed: runtime, 2 devices up" wait_until 120 runtime_with 2

if [ "$MP_HOST" != 0 ]; then
	# serve until host 0 has offlined everything and unloaded
	check "host 0 finished and left the pool" \
		wait_until $((T + 300)) "test \$(devs_up) -lt 2"
	check "host 0 holds none of this device's segments" \
		"test \"\$(cat $S/*/owner | sort -u)\" = -1"
	check "rmmod mp_eth cmm_mp" "rmmod mp_eth && rmmod cmm_mp"
	exit 0
fi

ME=$(cat $D/device_id)
FIRST=$(cat $D/first_segment)
NR=$(cat $D/nr_segments)
LOCAL=$((FIRST + 1))			# not the barrier segment
REMOTE=$(( FIRST == 0 ? NR + 1 : 1 ))	# the peer's second segment
BLOCK=$(( $(printf '%d' 0x$(cat /sys/devices/system/memory/block_size_bytes)) / 1024 ))
SEG_KB=$(( $(cat $S/seg0/size) / 1024 ))
BASE=$(memtotal_kb)
diag "local segments $FIRST..$((FIRST + NR - 1)), segment $SEG_KB kB, memory block $BLOCK kB, MemTotal $BASE kB"

check "segment $REMOTE of the peer online as /dev/mps$REMOTE" \
	"mpctl online $REMOTE --as dax && test -c /dev/mps$REMOTE"
check "local segment $LOCAL online as /dev/mpb$LOCAL" \
	"mpctl online $LOCAL --as blk && test -b /dev/mpb$LOCAL"

nl_fuzz --seed "$SEED" --seconds "$T" --jobs "$JOBS" $ITERS > /tmp/fuzz.out 2>&1
RC=$?
grep UNEXPECTED /tmp/fuzz.out | head -n 30 | sed 's/^/# /'
grep -v -e '^#' -e UNEXPECTED /tmp/fuzz.out | sed 's/^/# /'
check "nl_fuzz ran to its end, not killed (exit $RC)" test $RC -lt 128 -a $RC != 2 -a $RC != 4
check "no input got an unexpected result" \
	"test $RC = 0 && grep -q ' unexpected=0 ' /tmp/fuzz.out"

# each local segment settled; the online blocks are what MemTotal grew by
states() { cat $S/*/state | sort | uniq -c | tr '\n' ' '; }
diag "segment states after fuzzing: $(states)"
check "mpctl list works" "mpctl list > /tmp/list.json"
check "every local segment offline, online-ram or owned (none busy)" \
	"! cat $S/*/state | grep -vqxE 'offline|online-ram|owned'"
blocks_online() { cat $S/*/memblock_online | awk '{ n += $1 } END { print n + 0 }'; }
check "MemTotal = base + online memory blocks" \
	"test \$(memtotal_kb) = \$((BASE + \$(blocks_online) * BLOCK))"

# online every block of the online-ram segments, as mpctl online does
ram=0
for s in $S/seg*; do
	grep -qx online-ram $s/state || continue
	ram=$((ram + 1))
	f=$(cat $s/memblock_first)
	i=0
	while [ $i -lt "$(cat $s/memblock_count)" ]; do
		b=/sys/devices/system/memory/memory$((f + i))/state
		grep -qx online $b || echo online_movable > $b
		i=$((i + 1))
	done
done
check "MemTotal = base + $ram online-ram segments once their blocks are online" \
	"test \$(memtotal_kb) = \$((BASE + ram * SEG_KB))"

# `offline all` is every online-ram segment; the dax and blk mappings
# are offlined one by one
unmap_all() {
	for n in /dev/mps[0-9]* /dev/mpb[0-9]*; do
		[ -e "$n" ] || continue
		mpctl offline "${n#/dev/mp?}" > /dev/null || return 1
	done
}
check "mpctl offline all, and every dax or blk mapping" "mpctl offline all && unmap_all"
diag "segment states after offline all: $(states)"
check "MemTotal is the base again ($BASE kB)" "test \$(memtotal_kb) = $BASE"
check "every local segment offline, no /dev/mps or /dev/mpb left" \
	"test \"\$(cat $S/*/state | sort -u)\" = offline && ! ls /dev/mps[0-9]* /dev/mpb[0-9]* 2>/dev/null"
check "no segment of the pool owned by this host (device $ME)" \
	"! mpctl list | flat | grep -q '\"owner\":$ME[,}]'"
check "no key left (key_ids none)" "test \"\$(cat /sys/class/misc/mp_eth/key_ids)\" = none"
check "no WARNING, BUG, Oops or KASAN report while fuzzing" kernel_clean
check "rmmod mp_eth cmm_mp" "rmmod mp_eth && rmmod cmm_mp"
