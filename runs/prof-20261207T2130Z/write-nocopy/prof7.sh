#!/bin/sh
# experiment: 1 MiB reads on /dev/mpb3 with and without the requester's copy
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh
SEG=3
if [ "$MP_HOST" = 1 ]; then
	tap_plan 1
	bench_pool
	barrier 3 3000
	ok done
	exit 0
fi
tap_plan 1
bench_pool
bench_online_as $SEG blk >/dev/null 2>&1
P=/sys/module/mp_eth/parameters
for v in ${PROF_SEQ:-N Y N Y N Y}; do
	echo $v > $P/exp_nocopy
	for j in ${PROF_JOBS:-read:1M}; do
	rw=${j%%:*} bs=${j#*:}
	s0=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat)
	fio --name=p --filename=/dev/mpb$SEG --rw=$rw --bs=$bs \
		--ioengine=libaio --direct=1 --iodepth=16 --runtime=${PROF_T:-6} --time_based --size=100% --minimal > /tmp/fio.out 2>/dev/null
	s1=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat)
	echo "=== nocopy=$v $j: $(cut -d';' -f7,8,48,49 /tmp/fio.out) cpu0 $s0 cpu1 $s1"
	done
done
mpctl stats | tr -d ' \n' | sed 's/^/=== STATS /'; echo
barrier 3 3000
ok done
