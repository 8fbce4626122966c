#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 2 --pool 256M --timeout 900
#
# /dev/mpb<N>, the block device over a remote-backed segment
# (Documentation/pool.rst, "Block device"). Two devices of 256 MiB:
# segments 0-1 on host 0 (A), 2-3 on host 1 (B). A onlines segment 3 (B's
# upper 128 MiB, above the barrier slots) as /dev/mpb3 and:
#  - checks raw I/O: concurrent random O_DIRECT reads and writes of 512 B
#    to 64 KiB, every sector verified against a model (blk_verify), that
#    4 KiB and 64 KiB requests are started from ->queue_rq() (mp_eth's
#    datapath/submitted) and read back right, and that BLKZEROOUT
#    (REQ_OP_WRITE_ZEROES) zeroes what it is given;
#  - checks the read-ahead: sequential reads served from its buffers and
#    read back equal, bytes written after it fetched them read back new
#    (the buffers invalidated), random reads fetching nothing, ra_kb=0
#    turning it off;
#  - swaps on it: a process in a cgroup with memory.max 32 MiB fills
#    64 MiB with a per-page pattern and verifies every page; pswpout,
#    the disk's own sector counters and the transport's frames to B show
#    the pages went to B; offline is refused while swap is on; swapoff;
#  - swaps on it again (mkswap, swapon) with twice the cgroup's memory
#    (memory.max 16 MiB): farmem writes 32 MiB, reads every word back and
#    rewrites it, and the cgroup's reclaim must find pages whose writeback
#    ended all along: no OOM kill (memory.events), every word verified
#    (a disk that ended a swap write only with its whole merged request
#    had the cgroup's every page under writeback and the OOM killer
#    called within a second, `make bench` part far);
#  - puts ext4 on it: write a file, sync, umount, remount, same checksum,
#    e2fsck clean;
#  - offlines it: B, the backing device, wiped it and serves it to nobody
#    (its own raw read is refused); A onlines it again and finds it blank,
#    no ext4 magic (Documentation/security.rst: released segments are
#    wiped, the last holder's re-claim included);
#  - B leaves the pool: a read of the disk fails with EIO, the driver logs
#    it, and offline still removes the disk.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
. /selftests/pool/pool_lib.sh

SEG=3
DEV=/dev/mpb$SEG
SYS=/sys/block/mpb$SEG
OFF=$((128 * MIB))		# segment 3 in B's DRAM
LIMIT_MIB=32
FILL_MIB=64
MIN_SWAP_KB=$(((FILL_MIB - LIMIT_MIB) / 2 * 1024))
FAR_LIMIT_MIB=16
FAR_MIB=32
CG=/sys/fs/cgroup/mpb
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
# sectors written (field 7 of /sys/block/X/stat)
wsect() { awk '{ print $7 }' $SYS/stat; }
online_blk() { mpctl online $SEG --as blk && test -b $DEV; }
fill_val() { sed -n "s/^$1=//p" /tmp/fill.out | tail -n 1; }
fill() { cg_fill $CG $FILL_MIB; }
oom_kills() { awk '$1 == "oom_kill" { print $2 }' $CG/memory.events; }
DP=/sys/class/misc/mp_eth/datapath
# submitted_rw BS N SEEK: N O_DIRECT writes of BS at SEEK (in BS), then N
# reads of them; the bytes read back equal, and every one of the 2N
# started from ->queue_rq() (datapath/submitted). The read-ahead is off
# meanwhile: it would serve most of those reads from its buffers.
submitted_rw() {
	_s0=$(cat $DP/submitted)
	echo 0 > $RA_KB
	dd if=/dev/urandom of=/tmp/rw.in bs="$1" count="$2" 2>/dev/null &&
		dd if=/tmp/rw.in of=$DEV bs="$1" count="$2" seek="$3" oflag=direct 2>/dev/null &&
		dd if=$DEV of=/tmp/rw.out bs="$1" count="$2" skip="$3" iflag=direct 2>/dev/null &&
		cmp /tmp/rw.in /tmp/rw.out
	_r=$?
	echo 256 > $RA_KB
	test $_r = 0 && test $(($(cat $DP/submitted) - _s0)) -ge $((2 * $2))
}

# The read-ahead (Documentation/pool.rst, "Read-ahead"): its counters
RA=$SYS/ra
RA_KB=/sys/module/cmm_mp/parameters/ra_kb
ra() { cat $RA/$1; }
# ra_snap: remember the counters; ra_d NAME: what NAME grew by since
ra_snap() { for _c in hits waits misses fetches fetch_bytes invalidated; do eval "ra0_$_c=\$(ra $_c)"; done; }
ra_d() { eval "echo \$((\$(ra $1) - ra0_$1))"; }
# dd_in FILE SEEK_KIB: FILE written O_DIRECT at SEEK_KIB KiB, 64 KiB a time
dd_in() { dd if="$1" of=$DEV bs=64k seek=$(($2 / 64)) oflag=direct 2>/dev/null; }
# dd_out KIB SKIP_KIB: KIB KiB read O_DIRECT from SKIP_KIB KiB, 32 KiB a time
dd_out() { dd if=$DEV bs=32k count=$(($1 / 32)) skip=$(($2 / 32)) iflag=direct 2>/dev/null; }
# ra_seq: 2 MiB at 8 MiB read back in 64 reads of 32 KiB, one after the other
ra_seq() {
	dd if=/dev/urandom of=/tmp/ra.in bs=1M count=2 2>/dev/null && dd_in /tmp/ra.in 8192 &&
		ra_snap && dd_out 2048 8192 > /tmp/ra.out && cmp /tmp/ra.in /tmp/ra.out || return 1
	diag "read-ahead: hits +$(ra_d hits) waits +$(ra_d waits) misses +$(ra_d misses)" \
		"fetches +$(ra_d fetches) ($(ra_d fetch_bytes) bytes)"
	test $(($(ra_d hits) + $(ra_d waits))) -ge 48 && test $(ra_d fetch_bytes) -ge $((MIB * 3 / 2))
}
# ra_write: 256 KiB of 1 MiB at 12 MiB read (the read-ahead fetches the
# chunks after it), the next 512 KiB overwritten, then read on from where
# the reads stopped: the new bytes, not those the buffers held
ra_write() {
	dd if=/dev/urandom of=/tmp/ra.old bs=1M count=1 2>/dev/null && dd_in /tmp/ra.old 12288 &&
		dd if=/dev/urandom of=/tmp/ra.new bs=512k count=1 2>/dev/null || return 1
	dd_out 256 12288 > /tmp/ra.o1 && head -c 262144 /tmp/ra.old | cmp - /tmp/ra.o1 || return 1
	ra_snap
	dd_in /tmp/ra.new 12544 && dd_out 512 12544 | cmp - /tmp/ra.new || return 1
	diag "read-ahead after the write: invalidated +$(ra_d invalidated) hits +$(ra_d hits) waits +$(ra_d waits)"
	test $(ra_d invalidated) -ge 1
}
# ra_random: 32 reads of 4 KiB, no two in a row: nothing fetched ahead
ra_random() {
	ra_snap
	for _i in $(seq 1 32); do
		dd if=$DEV of=/dev/null bs=4k count=1 skip=$((_i * 97)) iflag=direct 2>/dev/null || return 1
	done
	test $(ra_d fetches) = 0 && test $(ra_d misses) -ge 32
}
# ra_off: ra_kb=0, the 2 MiB of ra_seq read back again: equal, nothing fetched
ra_off() {
	echo 0 > $RA_KB && ra_snap && dd_out 2048 8192 | cmp - /tmp/ra.in
	_r=$?
	diag "read-ahead off: window $(ra window_kb) KiB, fetches +$(ra_d fetches)"
	test $_r = 0 && test $(ra_d fetches) = 0 && test "$(ra window_kb)" = 0
	_r=$?
	echo 256 > $RA_KB
	return $_r
}

dd if=/dev/zero of=/tmp/zero bs=1M count=1 2>/dev/null
case $MP_HOST in 0) tap_plan 44 ;; *) tap_plan 9 ;; esac
pool_up 2 90

if [ "$MP_HOST" = 0 ]; then
	check "A onlines segment $SEG (backed by B) as a block device: $DEV" online_blk
	check "$DEV: 128 MiB, logical block 512, physical 4096, no volatile cache" \
		"test \$(cat $SYS/size) = $((128 * MIB / 512)) &&
		 test \$(cat $SYS/queue/logical_block_size) = 512 &&
		 test \$(cat $SYS/queue/physical_block_size) = 4096 &&
		 grep -q 'write through' $SYS/queue/write_cache"
	mpctl list -s $SEG >&2
	check "blk_verify: 4 threads x 100 random O_DIRECT I/Os of 512 B-64 KiB, every sector checked" \
		"blk_verify $DEV -j 4 -n 100 > /tmp/bv.out; r=\$?; cat /tmp/bv.out;
		 test \$r = 0 && grep -q 'bad_sectors=0 errors=0' /tmp/bv.out"
	diag "blk_verify: $(cat /tmp/bv.out)"
	# one 4 KiB request is one piece: ->queue_rq() starts it itself
	# (Documentation/pool.rst, "Block device"), which datapath/submitted
	# counts; the bytes read back must still be those written. A 64 KiB
	# bio is one piece too: 45 frames at MTU 1500, several transport
	# requests, all started from ->queue_rq() (no worker)
	check "64 O_DIRECT 4 KiB writes and reads, submitted from ->queue_rq (datapath/submitted +128), read back equal" \
		"submitted_rw 4k 64 512"
	check "32 O_DIRECT 64 KiB writes and reads, submitted from ->queue_rq (datapath/submitted +64), read back equal" \
		"submitted_rw 64k 32 64"
	diag "datapath: submitted $(cat $DP/submitted), submit_partial $(cat $DP/submit_partial)"
	check "read-ahead: a window of 256 KiB on a segment of another device" \
		"test \"\$(ra window_kb)\" = 256"
	check "read-ahead: 64 sequential O_DIRECT 32 KiB reads read back equal, >= 48 of them from its buffers" \
		ra_seq
	check "read-ahead: bytes overwritten after it fetched them are read back new (invalidated)" \
		ra_write
	check "read-ahead: 32 random 4 KiB reads fetch nothing ahead" ra_random
	check "read-ahead: off with ra_kb=0, the same reads fetch nothing and read back equal" ra_off
	diag "read-ahead: $(for _c in hits waits misses fetches fetch_bytes fetch_refused fetch_errors invalidated; do printf '%s %s ' $_c $(ra $_c); done)"
	# util-linux's blkdiscard: busybox's applet (no -z) wins over PATH
	check "WRITE_ZEROES: blkdiscard -z zeroes the 1 MiB at 1 MiB it is given (1 MiB requests)" \
		"test \$(cat $SYS/queue/write_zeroes_max_bytes) = $MIB &&
		 test \$(cat $SYS/queue/max_hw_sectors_kb) = 1024 &&
		 dd if=/dev/urandom of=$DEV bs=1M seek=1 count=1 conv=fsync 2>/dev/null &&
		 ! dd if=$DEV bs=1M skip=1 count=1 2>/dev/null | cmp -s - /tmp/zero &&
		 /usr/bin/blkdiscard -z -o $MIB -l $MIB $DEV &&
		 dd if=$DEV bs=1M skip=1 count=1 2>/dev/null | cmp - /tmp/zero"

	# --- swap
	check "mkswap + swapon $DEV" \
		"mkswap $DEV && swapon $DEV && grep -q mpb$SEG /proc/swaps"
	check "offline while swapped on is refused (busy); $DEV stays" \
		"! mpctl offline $SEG 2>/tmp/err; cat /tmp/err; grep -qi busy /tmp/err && test -b $DEV && grep -q mpb$SEG /proc/swaps"
	check "cgroup v2 with memory.max = $LIMIT_MIB MiB" \
		"mount -t cgroup2 none /sys/fs/cgroup &&
		 echo +memory > /sys/fs/cgroup/cgroup.subtree_control &&
		 mkdir $CG && echo $((LIMIT_MIB * MIB)) > $CG/memory.max"
	out0=$(vmstat pswpout) in0=$(vmstat pswpin) w0=$(wsect) tx0=$(peer_stat 1 tx)
	t0=$(date +%s)
	check "a process limited to $LIMIT_MIB MiB fills $FILL_MIB MiB, every page verified" fill
	t1=$(date +%s)
	dout=$(($(vmstat pswpout) - out0)) din=$(($(vmstat pswpin) - in0))
	dw=$(($(wsect) - w0)) dtx=$(($(peer_stat 1 tx) - tx0))
	diag "fill+verify ${FILL_MIB} MiB: $((t1 - t0)) s; pswpout +$dout pswpin +$din pages;" \
		"$DEV wrote $((dw / 2)) KiB; $dtx frames to B; $(grep mpb /proc/swaps)"
	check "no page was bad" "grep -q 'pages=$((FILL_MIB * 256)) bad=0' /tmp/fill.out"
	check "it had >= $MIN_SWAP_KB KiB in swap after filling (VmSwap)" \
		"test \"\$(fill_val vmswap_kb)\" -ge $MIN_SWAP_KB"
	check "pswpout and pswpin grew by >= $((MIN_SWAP_KB / 4)) pages" \
		"test $dout -ge $((MIN_SWAP_KB / 4)) && test $din -ge $((MIN_SWAP_KB / 4))"
	check "$DEV itself wrote that much (/sys/block stat)" \
		"test $((dw / 2)) -ge $MIN_SWAP_KB"
	check "the transport sent B at least one frame per 1468 bytes of it" \
		"test $dtx -ge $((MIN_SWAP_KB * 1024 / 1468))"
	check "swapoff is clean: no mpb in /proc/swaps" \
		"swapoff $DEV && ! grep -q mpb /proc/swaps"

	# --- swap again, twice the cgroup's memory (bench part far)
	check "mkswap + swapon $DEV again, memory.max = $FAR_LIMIT_MIB MiB" \
		"mkswap $DEV && swapon $DEV && echo $((FAR_LIMIT_MIB * MIB)) > $CG/memory.max"
	oom0=$(oom_kills) out0=$(vmstat pswpout)
	check "farmem: $FAR_MIB MiB written, read back and rewritten in the cgroup, every word verified" \
		"sh -c 'echo \$\$ > $CG/cgroup.procs && exec farmem -s $FAR_MIB -p 1'"
	dout=$(($(vmstat pswpout) - out0))
	diag "farmem $FAR_MIB MiB in $FAR_LIMIT_MIB MiB: pswpout +$dout pages;" \
		"memory.events: $(tr '\n' ' ' < $CG/memory.events)"
	check "no OOM kill in the cgroup (memory.events oom_kill stays $oom0)" \
		"test \"\$(oom_kills)\" = $oom0"
	check "pswpout grew by >= $(((FAR_MIB - FAR_LIMIT_MIB) * 256)) pages" \
		"test $dout -ge $(((FAR_MIB - FAR_LIMIT_MIB) * 256))"
	check "swapoff is clean again" "swapoff $DEV && ! grep -q mpb /proc/swaps"

	# --- a filesystem
	modprobe crc32c_generic 2>/dev/null
	[ -e /etc/mtab ] || ln -s /proc/mounts /etc/mtab
	check "mkfs.ext4 on $DEV" \
		"modprobe ext4 && mkfs.ext4 -q -F $DEV"
	check "mount, write 8 MiB, sync, umount" \
		"mkdir -p /mnt/mpb && mount -t ext4 -o noinit_itable $DEV /mnt/mpb &&
		 dd if=/dev/urandom of=/mnt/mpb/data bs=1M count=8 2>/dev/null &&
		 sha256sum /mnt/mpb/data | cut -d' ' -f1 > /tmp/sum && sync &&
		 umount /mnt/mpb"
	check "remount: the checksum matches" \
		"mount -t ext4 $DEV /mnt/mpb &&
		 test \"\$(sha256sum /mnt/mpb/data | cut -d' ' -f1)\" = \"\$(cat /tmp/sum)\" &&
		 umount /mnt/mpb"
	check "e2fsck -fn finds the filesystem clean" "e2fsck -fn $DEV"
	check "offline: $DEV removed, segment released" \
		"mpctl offline $SEG && ! test -e $DEV && ! test -e $SYS"
fi
check "barrier after A's offline" barrier 2 600
if [ "$MP_HOST" = 1 ]; then
	check "B's own raw read of the released segment $SEG is refused (EACCES)" \
		"! mpe_test read 1 $((OFF + 1080)) 2 2>/tmp/err; cat /tmp/err; grep -q EACCES /tmp/err"
fi
check "barrier after B's read" barrier 3 120
if [ "$MP_HOST" = 0 ]; then
	check "A onlines segment $SEG as $DEV again" online_blk
	check "it is blank: no ext4 magic at byte 1080, the first 1 MiB all zero" \
		"test \"\$(dd if=$DEV bs=1M count=1 2>/dev/null | tr -d '\\000' | wc -c)\" = 0"
fi
gen0=$(cat $D/generation)
check "barrier before B leaves" barrier 4 120

# --- errors: the backing device leaves while the disk exists
if [ "$MP_HOST" = 1 ]; then
	check "B leaves the pool (mp_eth unloaded)" "sleep 2 && rmmod mp_eth"
else
	# a new generation without B: a pool mid-round answers for none of
	# its remote segments
	check "A sees B lost: a new generation, 1 device up" \
		wait_until 60 "test \$(cat $D/generation) -gt $gen0 && runtime_with 1"
	check "a read of $DEV fails with EIO" \
		"! dd if=$DEV of=/dev/null bs=4096 count=1 2>/tmp/err; cat /tmp/err; grep -q 'Input/output error' /tmp/err"
	check "the driver logged the failed request (-5)" \
		"dmesg | grep 'mpb$SEG: READ of [0-9]* bytes at sector 0 failed: -5'"
	check "offline still removes $DEV" "mpctl offline $SEG && ! test -e $DEV && ! test -e $SYS"
fi
