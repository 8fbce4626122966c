#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench`, part "far" (two hosts): far memory. farmem
# (a working set of BENCH_FAR_MB, 32 MiB, written, then read back, checked
# word by word and rewritten BENCH_FAR_PASSES times) runs in a cgroup whose
# memory.max is half of its working set, swapping to /dev/mpb3 (a segment
# of host 1's device) and to NBD from host 1 over the same link (a fully
# written file in host 1's RAM), alternating for BENCH_ROUNDS rounds; the
# completion time of each is a sample (far_mpb_s, far_nbd_s), with the
# frames and bytes of eth0 and the pages swapped out during it, and for
# /dev/mpb what its read-ahead served (far_mpb_ra_hits, _waits, _misses,
# _fetch_bytes). Both sides
# poll alike (bench_pool). Each round also swaps to a RAM disk in the
# guest itself (brd, far_ram_s): the time of the same work with no
# network at all, the floor any swap device can reach in this guest.
# Correctness: every word read back right, and every run swapped.
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh

SEG=3		# host 1's second segment: its first holds the barrier slots
MB=${BENCH_FAR_MB:-32}
PASSES=${BENCH_FAR_PASSES:-2}
LIMIT=$((MB / 2))M
CG=/sys/fs/cgroup/far

if [ "$MP_HOST" = 1 ]; then
	tap_plan 4
	check "pool of 2 formed" bench_pool
	check "10.77.0.2 on eth0" bench_ip
	printf '[generic]\n[bench]\nexportname = /tmp/nbd.img\n' > /tmp/nbd.conf
	check "nbd-server exports a fully written 128 MiB file" \
		"dd if=/dev/zero of=/tmp/nbd.img bs=1M count=128 2>/dev/null && test \$(du -k /tmp/nbd.img | cut -f1) -ge 131072 && nbd-server -C /tmp/nbd.conf && barrier 2 300"
	check "host 0 done" barrier 3 3000
	exit 0
fi

# ra_snap DEV FILE: /dev/mpb's read-ahead counters (pool.rst), if DEV has them
RA_COUNTERS="hits waits misses fetch_bytes"
ra_snap() {
	: > "$2"
	[ -d "/sys/block/${1#/dev/}/ra" ] || return 0
	for _c in $RA_COUNTERS; do echo "$_c $(cat "/sys/block/${1#/dev/}/ra/$_c")"; done > "$2"
}
# far_run PREFIX DEV: farmem in the cgroup with swap on DEV; its time
far_run() {
	mkswap "$2" >&2 && swapon "$2" || return 1
	_sw0=$(awk '$1 == "pswpout" { print $2 }' /proc/vmstat)
	ra_snap "$2" /tmp/far.ra0
	wire_snap /tmp/far.wire0
	sh -c "echo \$\$ > $CG/cgroup.procs && exec farmem -s $MB -p $PASSES" > /tmp/far.out 2>&1
	_r=$?
	wire_snap /tmp/far.wire1
	ra_snap "$2" /tmp/far.ra1
	cat /tmp/far.out >&2
	_sw=$(($(awk '$1 == "pswpout" { print $2 }' /proc/vmstat) - _sw0))
	diag "$1: $_sw pages swapped out"
	[ "$_sw" -gt 0 ] || { diag "$1: the working set fit in memory.max"; _r=1; }
	swapoff "$2" || _r=1
	if [ $_r = 0 ]; then
		res "far_$1_s" "$(sed -n 's/.* seconds \([0-9.]*\) .*/\1/p' /tmp/far.out)"
		wire_res "far_$1" /tmp/far.wire0 /tmp/far.wire1
		res "far_$1_swapped_pages" "$_sw"
		# the swap-in reads its read-ahead served (far_mpb_ra_*)
		awk 'NR == FNR { a[$1] = $2; next } { print $1, $2 - a[$1] }' \
			/tmp/far.ra0 /tmp/far.ra1 | while read -r _c _v; do
			res "far_$1_ra_$_c" "$_v"
		done
	fi
	return $_r
}

tap_plan $((7 + 3 * BENCH_ROUNDS))
check "pool of 2 formed" bench_pool
check "10.77.0.1 on eth0" bench_ip
check "cgroup v2 with the memory controller, memory.max=$LIMIT" \
	"mkdir -p /sys/fs/cgroup && { grep -q cgroup2 /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup; } && echo +memory > /sys/fs/cgroup/cgroup.subtree_control && mkdir -p $CG && echo $LIMIT > $CG/memory.max"
check "segment $SEG of host 1 online as blk: /dev/mpb$SEG" \
	"bench_online_as $SEG blk && test -b /dev/mpb$SEG"
check "NBD: /dev/nbd0 from host 1" "barrier 2 300 && bench_nbd"
check "RAM disk /dev/ram0 of $((2 * MB)) MiB in this guest (brd)" \
	"modprobe brd rd_nr=1 rd_size=$((2 * MB * 1024)) && test -b /dev/ram0"
info far_setup "farmem -s $MB (MiB) -p $PASSES in a cgroup with memory.max=$LIMIT; swap on /dev/mpb$SEG or /dev/nbd0 (a fully written file in the peer's RAM), and on /dev/ram0 (brd in this guest: no network)"
for r in $ROUNDS; do
	if [ -b /dev/mpb$SEG ]; then
		check "round $r: swap on /dev/mpb$SEG: $MB MiB working set, every word verified" \
			far_run mpb /dev/mpb$SEG
	else
		fail "round $r: swap on /dev/mpb$SEG: no such device"
	fi
	check "round $r: swap on NBD: $MB MiB working set, every word verified" far_run nbd /dev/nbd0
	check "round $r: swap on /dev/ram0: $MB MiB working set, every word verified" far_run ram /dev/ram0
done
check "barrier: done" "nbd-client -d /dev/nbd0; barrier 3 3000"
bench_emit
