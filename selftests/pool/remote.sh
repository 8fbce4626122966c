#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 3 --pool 256M --timeout 900
#
# Remote-backed segments as /dev/mps<N> (Documentation/pool.rst). Three
# devices of 256 MiB: segment 5 is C's second segment (DRAM offset
# 128 MiB, above the barrier slots). A onlines it (dax by default), writes
# a pattern through mmap, msyncs and reads it back with pread (so it went
# to C); offline is refused while a process maps it; A offlines. B onlines
# it and reads zeros (C zeroes a segment handed to a new owner), writes with
# pwrite, reads back by pread and by mmap; MPS_IOC_INVALIDATE makes a cached
# page see a newer pwrite. `--as ram` on a remote segment fails clearly and
# changes nothing. The mapped segment is a device on the cmm_mp bus,
# mp0:<C's chip id>.1, that udev sees come (add) on online and go (remove)
# on offline, as dax and as blk, and whose sysfs state, mode, owner and
# device node are what `mpctl list` says of segment 5.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
. /selftests/pool/pool_lib.sh

SEG=5
DEV=/dev/mps$SEG
LEN=$((1 * MIB))
BUS=/sys/bus/cmm_mp/devices
UEV=/tmp/uevents
# the device of segment 5 here: C's segment 1, named by C's chip id
sdev() { ls -d $BUS/mp0:*.1 2>/dev/null; }
# sysfs and netlink agree on segment 5, and its device is alone of its kind
sdev_same() {
	test "$(ls -d $BUS/mp0:* 2>/dev/null | wc -l)" = 1 &&
		seg_sysfs_same "$(sdev)" "$(seg_json $SEG)"
}
# uev ACTION NODE: a uevent ACTION of segment 5's device carrying NODE
uev() {
	awk -v act="$1" -v want="MP_SEG_DEVNODE=$2" '
		/^KERNEL\[/ { ev = ($2 == act && $3 ~ /\/mp0:[0-9a-f]+\.1$/) }
		ev && $0 == want { found = 1 }
		END { exit !found }' $UEV
}

case $MP_HOST in 0) tap_plan 28 ;; 1) tap_plan 18 ;; *) tap_plan 9 ;; esac
pool_up 3 90

if [ "$MP_HOST" = 0 ]; then
	check "--as ram on remote segment 3 fails clearly" \
		"! mpctl online 3 --as ram 2>/tmp/err; cat /tmp/err >&2; grep -q 'cannot be System RAM here' /tmp/err"
	check "... and changes nothing: segment 3 offline, no owner, no /dev/mps3" \
		"seg_has 3 '\"state\":\"offline\"' && ! seg_has 3 owner && test ! -e /dev/mps3"
	check "--as bogus is a usage error (exit 2)" \
		"mpctl online 5 --as bogus 2>/tmp/err; test \$? = 2 && grep -q 'use ram, dax or blk' /tmp/err"
	REF0=$(cat /sys/module/cmm_mp/refcnt)
	udevadm monitor --kernel --property --subsystem-match=cmm_mp > $UEV 2>/dev/null &
	MON=$!
	sleep 1
	check "A onlines segment $SEG (backed by C): dax, $DEV, owner 0" \
		"mpctl online $SEG && seg_has $SEG '\"owner\":0' && seg_has $SEG '\"mode\":\"dax\"' && seg_has $SEG '\"devnode\":\"/dev/mps5\"' && test -c $DEV"
	seg_json $SEG >&2
	check "segment $SEG is a device: mp0:<C's chip>.1, a child of mp0, segment $SEG" \
		"sdev && test -d /sys/class/cmm_mp/mp0/\$(basename \$(sdev)) && test \$(cat \$(sdev)/segment) = $SEG"
	check "its sysfs state, mode, owner, devnode equal mpctl list: owned dax $DEV 0" \
		"sdev_same && test \$(cat \$(sdev)/state) = owned && test \$(cat \$(sdev)/devnode) = $DEV"
	check "udevadm info: a cmm_mp_segment with segment $SEG's id, state and node" \
		"udevadm info -q property -p \$(sdev) | tee /dev/stderr | grep -qx DEVTYPE=cmm_mp_segment && udevadm info -q property -p \$(sdev) | grep -qx MP_SEG_ID=$SEG && udevadm info -q property -p \$(sdev) | grep -qx MP_SEG_STATE=owned && udevadm info -q property -p \$(sdev) | grep -qx MP_SEG_DEVNODE=$DEV"
	check "sysfs: /sys/class/mps/mps$SEG/size is the segment size" \
		"test \$(cat /sys/class/mps/mps$SEG/size) = $((128 * MIB))"
	check "A writes a pattern by mmap + msync" "mps_test fill $DEV 0 $LEN 7 >/tmp/fill"
	cat /tmp/fill >&2
	check "pread returns what mmap wrote (it reached C)" \
		"mps_test sum-read $DEV 0 $LEN >/tmp/rd; cat /tmp/rd >&2; test \"\$(sum_of /tmp/rd)\" = \"\$(sum_of /tmp/fill)\" && ! grep -q 'nonzero=0\$' /tmp/rd"
	check "reads, writes, mmap and ioctl at the end answer as documented" \
		"mps_test edges $DEV"
	mps_test hold $DEV 60 >/tmp/hold &
	HOLD=$!
	wait_until 10 grep -q mapped /tmp/hold
	check "offline while a process maps $DEV: EBUSY, clear message" \
		"! mpctl offline $SEG 2>/tmp/err; cat /tmp/err >&2; grep -q 'open or mapped' /tmp/err && grep -qi busy /tmp/err"
	check "... and changes nothing: still owned by 0, $DEV still there" \
		"seg_has $SEG '\"owner\":0' && test -c $DEV"
	kill $HOLD; wait $HOLD 2>/dev/null
	check "A offlines segment $SEG once unmapped: released, $DEV gone" \
		"mpctl offline $SEG && seg_has $SEG '\"state\":\"offline\"' && test ! -e $DEV"
	check "... and its device is gone from the cmm_mp bus" \
		"test -z \"\$(sdev)\" && test \$(ls -d $BUS/mp0:* 2>/dev/null | wc -l) = 0"
	check "blk: online $SEG --as blk: a device again; sysfs equals mpctl list (blk, /dev/mpb$SEG)" \
		"mpctl online $SEG --as blk && sdev_same && test \$(cat \$(sdev)/mode) = blk && test \$(cat \$(sdev)/devnode) = /dev/mpb$SEG"
	check "blk: offline $SEG: /dev/mpb$SEG and the device are gone" \
		"mpctl offline $SEG && test ! -e /dev/mpb$SEG && test -z \"\$(sdev)\""
	sleep 1
	kill $MON 2>/dev/null
	wait $MON 2>/dev/null
	diag "uevents seen: $(grep -c '^KERNEL\[' $UEV)"
	check "uevents: add and remove of the dax device, with MP_SEG_DEVNODE=$DEV" \
		"uev add $DEV && uev remove $DEV"
	check "uevents: add and remove of the blk device, with MP_SEG_DEVNODE=/dev/mpb$SEG" \
		"uev add /dev/mpb$SEG && uev remove /dev/mpb$SEG"
	check "the mapping's module reference is gone with it" \
		"test \$(cat /sys/module/cmm_mp/refcnt) = $REF0"
	# Each /dev/mps has a page cache inode from the kernel's shared inode
	# cache; one that went back still (fake-)hashed made the next inode
	# built in its memory, a pipe's, live for ever. Count the inodes
	# around 20 onlines and offlines, each followed by pipes.
	inodes() { cut -f1 /proc/sys/fs/inode-nr; }
	cycle() {
		mpctl online $SEG >/dev/null && mpctl offline $SEG >/dev/null &&
			for _ in 1 2 3 4 5; do echo x | cat >/dev/null; sleep 0.1; done
	}
	cycle
	N0=$(inodes)
	cycles=0
	for _ in $(seq 20); do cycle && cycles=$((cycles + 1)); done
	N1=$(inodes)
	check "20 onlines and offlines of $DEV leave no inode behind: $N0 -> $N1 inodes" \
		"test $cycles = 20 && test $N1 -lt $((N0 + 5))"
fi
check "barrier after A's offline" barrier 2 300

if [ "$MP_HOST" = 1 ]; then
	check "B onlines segment $SEG --as dax: owner 1" \
		"mpctl online $SEG --as dax && seg_has $SEG '\"owner\":1' && test -c $DEV"
	check "B: its device's sysfs equals mpctl list (owned, owner 1)" \
		"sdev_same && test \$(cat \$(sdev)/owner) = 1"
	check "B reads zeros by pread: C zeroed it on hand-over" \
		"mps_test sum-read $DEV 0 $LEN | tee /dev/stderr | grep -q 'nonzero=0\$'"
	check "B reads zeros by mmap" \
		"mps_test sum-mmap $DEV 0 $LEN | grep -q 'nonzero=0\$'"
	check "B writes a pattern with pwrite" "mps_test pwrite $DEV 0 $LEN 9 >/tmp/wr"
	check "pread returns it" \
		"mps_test sum-read $DEV 0 $LEN >/tmp/rd; test \"\$(sum_of /tmp/rd)\" = \"\$(sum_of /tmp/wr)\""
	check "mmap returns it" \
		"mps_test sum-mmap $DEV 0 $LEN >/tmp/mm; test \"\$(sum_of /tmp/mm)\" = \"\$(sum_of /tmp/wr)\""
	check "a page cached by mmap sees a newer pwrite after MPS_IOC_INVALIDATE" \
		"mps_test inval $DEV 8192 | tee /dev/stderr"
	check "munmap writes back what a mapping stored (no msync, file still open)" \
		"mps_test unmap $DEV $((2 * MIB)) 65536 11 | tee /dev/stderr | grep -q returns"
	check "every host's list would name B: owner 1 here" "seg_has $SEG '\"owner\":1'"
	check "B offlines segment $SEG" "mpctl offline $SEG && test ! -e $DEV"
fi
check "barrier after B's offline" barrier 3 300
if [ "$MP_HOST" = 2 ]; then
	check "C (backing device) lists segment $SEG offline, no owner" \
		"seg_has $SEG '\"state\":\"offline\"' && ! seg_has $SEG owner"
	check "C never mapped it: no /dev/mps$SEG, no device of it here" \
		"test ! -e $DEV && test -z \"\$(sdev)\""
fi
check "end barrier" barrier 4 120
