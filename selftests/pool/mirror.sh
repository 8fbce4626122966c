#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 3 --pool 256M --timeout 1200
#
# Mirrored segments (Documentation/pool.rst, "Mirrored segments"): no data
# is lost when one backing device dies. Three devices of 256 MiB cut into
# segments of 64 MiB (seg_size=: the property does not depend on the size,
# and each rebuild copies and verifies a whole segment, 128 MiB of which
# took 30-50 s under TCG): segments 0-3 on host 0 (A, the user), 4-7 on B,
# 8-11 on C; the first segment of each holds the barrier slots. A onlines
#   /dev/mpb5: segment 5 (B) mirrored on 9 (C), a swap device,
#   /dev/mps6: segment 6 (B) mirrored on 10 (C), written through mmap,
# and then:
#  - neither B nor C can read the copy it backs (A holds it), and both
#    list each pair as its backing devices record it (5 with mirror 9 and
#    9 with 5, 6 and 10 alike), without redundancy (only A knows it);
#  - C loses its power while a process twice its cgroup's memory.max
#    swaps on /dev/mpb5 and mmap fills go to /dev/mps6: both complete with
#    every page verified, no error; both segments read "degraded" in
#    mpctl list and in mpctl monitor's events;
#  - the pool lost C: no rebuild is tried on C's copies (their heal
#    leaves them alone);
#  - mpctl repair moves each lost copy to a segment of A (1 and 2); the
#    rebuild of /dev/mpb5 runs under random writes checked against a model
#    (blk_verify), then both copies equal byte for byte, each read
#    directly through the transport;
#  - B's link goes down long enough to be lost while blk_verify writes:
#    degraded, then B is back and the lost copy is rebuilt where it was,
#    by itself: mirrored, both copies equal again; before that B lists
#    the new pairs (5 and 1, 6 and 2);
#  - each copy A maps is a device on the cmm_mp bus (mp0:<chip>.<index>,
#    the copies on A itself mp0.N) whose sysfs state, owner, mirror and
#    redundancy are what mpctl list says, C's failed once C is lost; a
#    copy moved by repair moves its device;
#  - offline gives both copies back: B can read neither its copy nor
#    anyone else, no host lists a pair any more, and segment 5 onlined
#    again (single) is blank.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
. /selftests/pool/pool_lib.sh

SEG_SIZE=$((64 * MIB))
# B's outage (below) outlasts the heartbeat timeout: 3 s on Debian
DOWN_S=10
# A checks that the heal left C's copies alone (below), not on the debug
# kernel: there the pool takes 30 s to lose a member, and the heal of a
# copy lost for an error comes first
HEAL_CHECK=1
# On the debug kernel three debug guests share two cores: under the swap
# load a round trip took 163 ms (smoothed) with thousands of frames
# retransmitted.  There a request fails after 18.8 s, a member after 30 s
# of silence, and B stays down 45 s (longer than that silence).
if [ "${MP_KERNEL:-}" = debug ]; then
	MP_ETH_PARAMS="rto_initial_us=400000 rto_max_us=6400000 max_retries=5 hb_timeout_ms=30000"
	DOWN_S=45
	HEAL_CHECK=0
fi
# The hosts meet through mpe_test's barrier slots (lib.sh's await_token and
# signal_token: SLOW times longer on the debug kernel); each wait is as
# long as the other host's steps before it may take.  B's first wait
# covers A's whole first part (there the swap fill through C's power cut
# took 1,030 s, and the rebuilds after it may take minutes each): when B
# gave up after 300 s it took its link down in the middle of A's fill, and
# A and B lost each other, both copies of A's swap with them.
GO_S=900 ACK_S=120
BLK=5 BLK_M=9 DAX=6 DAX_M=10
DEVB=/dev/mpb$BLK DEVD=/dev/mps$DAX
LIMIT_MIB=32
FILL_MIB=64
DAX_LEN=$((32 * MIB))
CG=/sys/fs/cgroup/mirror
# offset of pool-wide segment S in its device's DRAM (4 per device)
seg_off() { echo $(( ($1 % 4) * SEG_SIZE )); }
redundancy() { seg_json "$1" | sed -n 's/.*"redundancy":"\([a-z]*\)".*/\1/p'; }
# pair N M: segment N lists M as its mirror, M lists N, neither a redundancy
# (a host that does not map them knows only what the backing devices keep)
pair() {
	mpctl list -s "$1,$2" >&2
	seg_has "$1" "\"mirror\":$2[,}]" && seg_has "$2" "\"mirror\":$1[,}]" &&
		! seg_has "$1" redundancy && ! seg_has "$2" redundancy
}
# no_pair S...: none of the segments lists a mirror
no_pair() {
	for _s; do ! seg_has "$_s" '"mirror"' || return 1; done
}
is_red() { test "$(redundancy "$1")" = "$2"; }
# copy_sum DEV SEG: FNV checksums of segment SEG's copy on device DEV,
# 16 MiB each (one transfer), read through the transport
copy_sum() {
	for _i in $(seq 0 $((SEG_SIZE / (16 * MIB) - 1))); do
		mpe_test sum "$1" $(($(seg_off "$2") + _i * 16 * MIB)) $((16 * MIB)) |
			awk '{ print $2 }'
	done | tr '\n' ' '
}
# copies_equal DEV1 SEG1 DEV2 SEG2: both copies read whole and equal
copies_equal() {
	_a=$(copy_sum "$1" "$2") _b=$(copy_sum "$3" "$4")
	echo "device $1 segment $2: $_a"
	echo "device $3 segment $4: $_b"
	test "$(echo "$_a" | wc -w)" = $((SEG_SIZE / (16 * MIB))) && test "$_a" = "$_b"
}
# events SEEN: monitor events whose redundancy is SEEN
events() { flat < /tmp/events | grep -o "\"redundancy\":\"$1\"" | wc -l; }
fill() { cg_fill $CG $FILL_MIB; }
# mmap fills of /dev/mps5 with seeds 1..N, each checked by pread
dax_fills() {
	for _s in $(seq 1 "$1"); do
		mps_test fill $DEVD 0 $DAX_LEN "$_s" > /tmp/dfill || return 1
		mps_test sum-read $DEVD 0 $DAX_LEN > /tmp/dread || return 1
		test "$(sum_of /tmp/dfill)" = "$(sum_of /tmp/dread)" || {
			echo "seed $_s: mmap $(cat /tmp/dfill), pread $(cat /tmp/dread)"
			return 1
		}
	done
	echo "dax_fills: $1 fills of $((DAX_LEN / MIB)) MiB verified"
}

BUS=/sys/bus/cmm_mp/devices
# the device of pool-wide segment $1 mapped here from another device
mdev() {
	for _x in $BUS/mp0:*; do
		[ "$(cat "$_x/segment" 2>/dev/null)" = "$1" ] && echo "$_x"
	done
}
# sysfs and netlink agree on segments $@, mapped from other devices
mdev_same() {
	for _s; do
		_x=$(mdev "$_s")
		[ -n "$_x" ] && seg_sysfs_same "$_x" "$(seg_json "$_s")" || return 1
	done
}
# blk_verify passes (300 operations take 1-2 s) until the monitor saw the
# pool lose B (both segments degraded again: 4 degraded events in all),
# then one more: the writes go on before, through and after the loss
bv_outage() {
	_n=7
	while [ "$(events degraded)" -lt 4 ]; do
		if [ $_n -ge 207 ]; then
			echo "B is not lost after $((_n - 7)) passes"
			return 1
		fi
		blk_verify $DEVB -j 2 -n 300 -s $_n || return 1
		_n=$((_n + 1))
	done
	blk_verify $DEVB -j 2 -n 300 -s $_n
}
nr_mdev() { ls -d $BUS/mp0:* 2>/dev/null | wc -l; }

case $MP_HOST in 0) tap_plan $((36 + HEAL_CHECK)) ;; 1) tap_plan 15 ;; *) tap_plan 9 ;; esac
check "eth0 up (virtio_net)" mpe_net
check "cmm_mp ($((SEG_SIZE / MIB)) MiB segments) and mp_eth (discovery) load" \
	"load_cmm_mp seg_size=$SEG_SIZE && load_eth"
check "pool formed: runtime, 3 devices up" wait_until 120 runtime_with 3
check "barrier: every device answers" barrier 1 120

if [ "$MP_HOST" = 0 ]; then
	mpctl monitor > /tmp/events 2>&1 &
	MON=$!
	check "online $BLK --as blk --mirror $BLK_M: $DEVB, mirrored on B and C" \
		"mpctl online $BLK --as blk --mirror $BLK_M && test -b $DEVB &&
		 is_red $BLK mirrored && seg_has $BLK '\"mirror\":$BLK_M' &&
		 seg_has $BLK_M '\"mirror\":$BLK' && seg_has $BLK_M '\"devnode\":\"$DEVB\"'"
	check "online $DAX --as dax --mirror $DAX_M: $DEVD" \
		"mpctl online $DAX --as dax --mirror $DAX_M && test -c $DEVD && is_red $DAX mirrored"
	check "each copy is a device ($BLK $BLK_M $DAX $DAX_M); sysfs equals mpctl list, mirror and redundancy too" \
		"test \$(nr_mdev) = 4 && mdev_same $BLK $BLK_M $DAX $DAX_M &&
		 test \$(cat \$(mdev $BLK_M)/mirror) = $BLK"
	check "both copies on one device (A's 1 and 2) are refused, nothing changes" \
		"! mpctl online 1 --as blk --mirror 2 2>/tmp/err; cat /tmp/err;
		 grep -q 'two devices' /tmp/err && ! test -e /dev/mpb1 && ! seg_has 1 owner && ! seg_has 2 owner"
	mpctl list -s $BLK >&2
fi
check "barrier: mirrors online" barrier 2 120
if [ "$MP_HOST" != 0 ]; then
	s=$(( MP_HOST == 1 ? BLK : BLK_M ))
	check "host $MP_HOST cannot read the copy it backs (segment $s, held by A): EACCES" \
		"! mpe_test read $MP_HOST $(seg_off $s) 16 2>/tmp/err; cat /tmp/err; grep -q EACCES /tmp/err"
	check "host $MP_HOST lists the pairs its backing devices record: $BLK-$BLK_M, $DAX-$DAX_M" \
		"pair $BLK $BLK_M && pair $DAX $DAX_M"
fi
check "barrier: before C's power cut" barrier 3 120

if [ "$MP_HOST" = 2 ]; then
	check "C: told to go" await_token 0 20 300
	sleep 4
	# the power goes: QEMU exits at once (selftests/mp_eth/failure.sh)
	exec /init --power-cut
fi

if [ "$MP_HOST" = 0 ]; then
	check "mkswap + swapon $DEVB; cgroup v2 with memory.max = $LIMIT_MIB MiB" \
		"mkswap $DEVB && swapon $DEVB &&
		 mount -t cgroup2 none /sys/fs/cgroup &&
		 echo +memory > /sys/fs/cgroup/cgroup.subtree_control &&
		 mkdir $CG && echo $((LIMIT_MIB * MIB)) > $CG/memory.max"
	check "C told to cut its power in 4 s" signal_token 2 0 20 $ACK_S
	t0=$(date +%s)
	dax_fills 4 > /tmp/dax.out 2>&1 &
	DFILL=$!
	check "a process limited to $LIMIT_MIB MiB fills $FILL_MIB MiB meanwhile, every page verified" \
		"fill && grep -q 'pages=$((FILL_MIB * 256)) bad=0' /tmp/fill.out"
	check "mmap fills of $DEVD meanwhile, each verified by pread" \
		"wait $DFILL; r=\$?; cat /tmp/dax.out; test \$r = 0"
	diag "swap fill and mmap fills through the power cut: $(($(date +%s) - t0)) s"
	check "C is lost: a new generation with 2 devices up" wait_until 60 runtime_with 2
	check "both mirrored segments read degraded" \
		"is_red $BLK degraded && is_red $DAX degraded"
	check "sysfs equals mpctl list: C's copies $BLK_M, $DAX_M failed, B's degraded" \
		"mdev_same $BLK $BLK_M $DAX $DAX_M && test \$(cat \$(mdev $BLK_M)/state) = failed &&
		 test \$(cat \$(mdev $BLK)/redundancy) = degraded"
	check "no I/O error reached the disk (blk_update_request / mpb errors)" \
		"! dmesg | grep -q 'mpb$BLK: .* failed'"
	check "swapoff is clean" "swapoff $DEVB && ! grep -q mpb /proc/swaps"

	check "repair $BLK --to 1: rebuilding on A's segment 1" \
		"mpctl repair $BLK --to 1 && seg_has $BLK '\"mirror\":1'"
	check "blk_verify during the rebuild: random writes and reads, every sector checked" \
		"blk_verify $DEVB -j 2 -n 150 > /tmp/bv.out; r=\$?; cat /tmp/bv.out;
		 test \$r = 0 && grep -q 'bad_sectors=0 errors=0' /tmp/bv.out"
	check "... it ran while the copy was rebuilding (monitor saw rebuilding)" \
		"test \$(events rebuilding) -ge 1"
	check "rebuild done: $BLK mirrored" wait_until 600 is_red $BLK mirrored
	check "both copies of $BLK equal, read through the transport: B's segment $BLK and A's segment 1" \
		copies_equal 1 $BLK 0 1
	check "repair $DAX --to 2, then mirrored; $DEVD still reads the last fill" \
		"mpctl repair $DAX --to 2 && wait_until 600 is_red $DAX mirrored &&
		 mps_test sum-read $DEVD 0 $DAX_LEN > /tmp/dread &&
		 test \"\$(sum_of /tmp/dfill)\" = \"\$(sum_of /tmp/dread)\""
	# C's copies were lost for errors before the pool lost C: their heal
	# (5 s later) must leave them alone, or it asks C for 30 s, and a
	# repair meanwhile is refused as busy
	if [ $HEAL_CHECK = 1 ]; then
		check "no rebuild was tried on C's copies once the pool had lost C (kernel log)" \
			"! dmesg | grep -E 'rebuilding its copy on segment ($BLK_M|$DAX_M) failed'"
	fi
	check "repair of a whole mirror is refused (both copies are whole)" \
		"! mpctl repair $BLK 2>/tmp/err; cat /tmp/err; grep -q 'whole' /tmp/err"
	check "repaired: C's copies' devices are gone; sysfs equals mpctl list for $BLK $DAX 1 2" \
		"test \$(nr_mdev) = 2 && mdev_same $BLK $DAX &&
		 seg_sysfs_same $BUS/mp0.1 \"\$(seg_json 1)\" &&
		 seg_sysfs_same $BUS/mp0.2 \"\$(seg_json 2)\" && test \$(cat $BUS/mp0.1/mirror) = $BLK"
fi

# C is gone: A and B meet through their barrier slots alone
if [ "$MP_HOST" = 1 ]; then
	check "B: told to go" "await_token 0 21 $GO_S && touch /tmp/go"
	check "B lists the repaired pairs: $BLK-1, $DAX-2" "pair $BLK 1 && pair $DAX 2"
	# untold, B keeps its link: an outage in the middle of A's steps
	# fails them for a reason that is not theirs
	check "B: link down for $DOWN_S s (lost), then up" \
		"test -e /tmp/go || { echo 'not told to go: the link stays up'; false; } &&
		 ip link set eth0 down && sleep $DOWN_S && ip link set eth0 up"
fi
if [ "$MP_HOST" = 0 ]; then
	gen0=$(cat $D/generation)
	check "B told to take its link down" signal_token 1 0 21 $ACK_S
	check "blk_verify through B's outage: every sector checked, no error" \
		"bv_outage > /tmp/bv2.out; r=\$?; cat /tmp/bv2.out;
		 test \$r = 0 && grep -q 'bad_sectors=0 errors=0' /tmp/bv2.out &&
		 ! grep -v 'bad_sectors=0 errors=0' /tmp/bv2.out"
	check "B was lost meanwhile: the monitor saw both degraded again (4 degraded events in all)" \
		"test \$(events degraded) -ge 4"
	check "B is back: 2 devices up in a newer generation" \
		wait_until 120 "runtime_with 2 && test \$(cat $D/generation) -gt $gen0"
	check "the lost copies are rebuilt where they were, by themselves: mirrored" \
		wait_until 600 "is_red $BLK mirrored && is_red $DAX mirrored"
	check "both copies of $BLK equal again (B's segment $BLK, A's segment 1)" \
		copies_equal 1 $BLK 0 1
	kill $MON 2>/dev/null
	diag "monitor events: degraded $(events degraded), rebuilding $(events rebuilding), mirrored $(events mirrored)"
	check "offline $BLK and $DAX: both device nodes and segment devices gone" \
		"mpctl offline $BLK && mpctl offline $DAX && ! test -e $DEVB && ! test -e $DEVD &&
		 ! seg_has 1 owner && no_pair $BLK 1 $DAX 2 && test \$(nr_mdev) = 0"
fi
if [ "$MP_HOST" = 1 ]; then
	check "B: A offlined both" await_token 0 22 $GO_S
	check "B lists no pair any more" "no_pair $BLK 1 $DAX 2 $BLK_M $DAX_M"
	check "B's own read of its released copy is refused (nobody holds it)" \
		"! mpe_test read 1 $(seg_off $BLK) 16 2>/tmp/err; cat /tmp/err; grep -q EACCES /tmp/err"
	check "B tells A" signal_token 0 1 23 $ACK_S
	mpe_test linger
else
	check "B told, B answered" \
		"signal_token 1 0 22 $ACK_S && await_token 1 23 300"
	check "segment $BLK onlined again (single): blank, the first 1 MiB all zero" \
		"mpctl online $BLK --as blk &&
		 test \"\$(dd if=$DEVB bs=1M count=1 2>/dev/null | tr -d '\\000' | wc -c)\" = 0 &&
		 mpctl offline $BLK"
fi
