#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench`, part "block" (two hosts): fio on /dev/mpb3 (a
# segment of host 1's device, onlined by host 0 as a block device) against
# NBD over TCP on the same link (nbd-server on host 1 exporting a fully
# written file, not a sparse one, from its RAM). BENCH_ROUNDS rounds of
# 4 KiB random reads and writes (libaio, direct, queue depth 16) and 1 MiB
# sequential reads and writes, each job on /dev/mpb then on NBD; then a
# crc32c-verified write/read pass on each device. Both sides poll alike
# (bench_pool: BENCH_POLL_US for mp_eth and for TCP's busy polling).
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh

SEG=3		# host 1's second segment: its first holds the barrier slots
T=${BENCH_FIO_SECONDS:-10}

if [ "$MP_HOST" = 1 ]; then
	tap_plan 4
	check "pool of 2 formed" bench_pool
	check "10.77.0.2 on eth0" bench_ip
	cat > /tmp/nbd.conf <<-EOC
	[generic]
	[bench]
	exportname = /tmp/nbd.img
	EOC
	check "nbd-server exports a fully written 128 MiB file" \
		"dd if=/dev/zero of=/tmp/nbd.img bs=1M count=128 2>/dev/null && test \$(du -k /tmp/nbd.img | cut -f1) -ge 131072 && nbd-server -C /tmp/nbd.conf && barrier 2 300"
	check "host 0 done" barrier 3 3000
	exit 0
fi

# fio_run PREFIX DEV JOB: one job (rw:bs), RESULTs from the terse output
fio_run() {
	for j in $3; do
		rw=${j%%:*} bs=${j#*:}
		fio --name="$1-$rw" --filename="$2" --rw="$rw" --bs="$bs" \
			--ioengine=libaio --direct=1 --iodepth=16 --runtime="$T" \
			--time_based --size=100% --minimal > /tmp/fio.out 2>&1 || {
			cat /tmp/fio.out >&2
			return 1
		}
		case $rw in
		randread)	res "blk_$1_randread_iops" "$(cut -d';' -f8 /tmp/fio.out)" ;;
		randwrite)	res "blk_$1_randwrite_iops" "$(cut -d';' -f49 /tmp/fio.out)" ;;
		read)		res "blk_$1_seqread_MiBps" "$(awk -F';' '{ printf "%.1f", $7 / 1024 }' /tmp/fio.out)" ;;
		write)		res "blk_$1_seqwrite_MiBps" "$(awk -F';' '{ printf "%.1f", $48 / 1024 }' /tmp/fio.out)" ;;
		esac
	done
}

JOBS="randread:4k randwrite:4k read:1M write:1M"
tap_plan $((7 + 8 * BENCH_ROUNDS))
check "pool of 2 formed" bench_pool
check "10.77.0.1 on eth0" bench_ip
check "NBD: /dev/nbd0 from host 1" \
	"barrier 2 300 && bench_nbd"
check "segment $SEG of host 1 online as blk: /dev/mpb$SEG" \
	"bench_online_as $SEG blk && test -b /dev/mpb$SEG"
info blk_nbd_export "a fully written 128 MiB file in host 1's RAM (tmpfs), nbd-server over TCP"
info blk_payload_per_frame "mp_eth: $(awk '{ print $1 - 32 }' /sys/class/net/eth0/mtu) B; NBD: TCP segments of MSS $(($(cat /sys/class/net/eth0/mtu) - 40)) B, GSO"
for r in $ROUNDS; do
	for j in $JOBS; do
		if [ -b /dev/mpb$SEG ]; then
			check "round $r: fio $j on /dev/mpb$SEG" fio_run mpb /dev/mpb$SEG "$j"
		else
			fail "round $r: fio $j on /dev/mpb$SEG: no such device"
		fi
		check "round $r: fio $j on /dev/nbd0" fio_run nbd /dev/nbd0 "$j"
	done
done
check_verify /dev/mpb$SEG
check "/dev/nbd0: crc32c-verified write and read back" fio_verify /dev/nbd0
check "barrier: done" "nbd-client -d /dev/nbd0; barrier 3 3000"
bench_emit
