#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench`, part "mirror" (three hosts, devices of 384 MiB:
# segments 0-2 on host 0, 3-5 on host 1, 6-8 on host 2): the cost of a
# mirrored segment (issue 27). Host 0 onlines segment 4 as a single block
# device (/dev/mpb4, its one copy on host 1) and segment 5 mirrored on
# segment 8 (/dev/mpb5, copies on hosts 1 and 2: every write goes to both,
# reads to either). BENCH_ROUNDS rounds, single then mirrored in each:
# fio (libaio, direct) 1 MiB sequential write and read bandwidth at queue
# depth 16, 4 KiB random read and write completion latency at queue depth
# 1 (one request at a time: the latency, not the throughput). Then a
# crc32c-verified pass on /dev/mpb5, and the pair must still be "mirrored":
# a copy lost during the bench would have made the numbers those of one
# copy. The first segment of each device holds the barrier slots: 0, 3
# and 6 are not used.
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh

SINGLE=4
MIRRORED=5
COPY=8
T=${BENCH_FIO_SECONDS:-10}

if [ "$MP_HOST" != 0 ]; then
	tap_plan 2
	check "pool of 3 formed" bench_pool
	check "host 0 done" barrier 2 3000
	exit 0
fi

# fio_job PREFIX DEV RW BS DEPTH: one fio job; its terse (v3) line in /tmp/fio.t
fio_job() {
	fio --name="$1-$3" --filename="$2" --rw="$3" --bs="$4" \
		--ioengine=libaio --direct=1 --iodepth="$5" --runtime="$T" \
		--time_based --size=100% --minimal > /tmp/fio.out 2>&1
	_r=$?
	# the job's line: terse version 3 first (fio may print others)
	grep '^3;' /tmp/fio.out | head -n 1 > /tmp/fio.t
	if [ $_r != 0 ] || [ ! -s /tmp/fio.t ]; then
		cat /tmp/fio.out >&2
		return 1
	fi
}

# field N: field N of the terse line (fio's HOWTO, "Terse output", version
# 3): 7 read KiB/s, 16 read clat mean (us), 48 write KiB/s, 57 write clat
# mean (us); a value that is not a positive number is no sample
field() {
	awk -F';' -v f="$1" -v k="$2" '$f + 0 > 0 { printf "%.1f\n", $f / k }' /tmp/fio.t
}

# fio_run PREFIX DEV JOB: JOB one of seqwrite seqread randread4k
# randwrite4k; its RESULT mirror_PREFIX_JOB_{MiBps,lat_us}
fio_run() {
	case $3 in
	seqwrite)	fio_job "$1" "$2" write 1M 16 && v=$(field 48 1024) && u=MiBps ;;
	seqread)	fio_job "$1" "$2" read 1M 16 && v=$(field 7 1024) && u=MiBps ;;
	randread4k)	fio_job "$1" "$2" randread 4k 1 && v=$(field 16 1) && u=lat_us ;;
	randwrite4k)	fio_job "$1" "$2" randwrite 4k 1 && v=$(field 57 1) && u=lat_us ;;
	*)		return 2 ;;
	esac || return 1
	[ -n "$v" ] || { echo "fio $3 on $2: no value in its terse line" >&2; cat /tmp/fio.t >&2; return 1; }
	res "mirror_$1_$3_$u" "$v"
}

# redundancy SEG: the pair's "redundancy" in mpctl list, "" when none
redundancy() {
	mpctl list -s "$1" | tr -d ' \n' |
		sed -n 's/.*"redundancy":"\([a-z]*\)".*/\1/p'
}
is_mirrored() {
	mpctl list -s "$MIRRORED,$COPY" >&2
	test "$(redundancy $MIRRORED)" = mirrored &&
		test "$(redundancy $COPY)" = mirrored &&
		mpctl list -s $MIRRORED | tr -d ' \n' | grep -q "\"mirror\":${COPY}[,}]"
}

JOBS="seqwrite seqread randread4k randwrite4k"
tap_plan $((7 + 8 * BENCH_ROUNDS))
check "pool of 3 formed" bench_pool
check "segment $SINGLE (host 1) online as blk: /dev/mpb$SINGLE" \
	"bench_online_as $SINGLE blk && test -b /dev/mpb$SINGLE"
check "segment $MIRRORED (host 1) online as blk mirrored on $COPY (host 2): /dev/mpb$MIRRORED" \
	"mpctl online $MIRRORED --as blk --mirror $COPY && test -b /dev/mpb$MIRRORED"
check "segments $MIRRORED and $COPY list each other, \"redundancy\":\"mirrored\"" is_mirrored
info mirror_layout "single: segment $SINGLE (host 1); mirrored: segment $MIRRORED (host 1) + $COPY (host 2); fio from host 0"
info mirror_fio "libaio, direct, ${T} s per job; 1 MiB sequential at queue depth 16, 4 KiB random at depth 1 (clat mean)"
for r in $ROUNDS; do
	for j in $JOBS; do
		for d in single:$SINGLE mirrored:$MIRRORED; do
			dev=/dev/mpb${d#*:}
			if [ -b "$dev" ]; then
				check "round $r: fio $j on $dev (${d%%:*})" fio_run "${d%%:*}" "$dev" "$j"
			else
				fail "round $r: fio $j on $dev (${d%%:*}): no such device"
			fi
		done
	done
done
check_verify /dev/mpb$MIRRORED
check "segment $MIRRORED still \"mirrored\" after the bench (no copy lost)" is_mirrored
check "barrier: done" barrier 2 3000
bench_emit
