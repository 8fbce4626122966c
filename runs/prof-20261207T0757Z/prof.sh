#!/bin/sh
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh
SEG=3
JOBS=${PROF_JOBS:-"randread:4k read:1M"}
rep() {
	echo "=== PROF host $MP_HOST $1: comm"
	perf report -i /tmp/p.data --stdio --no-children --sort comm -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -15
	echo "=== PROF host $MP_HOST $1: sym"
	perf report -i /tmp/p.data --stdio --no-children --sort sym -g none --percent-limit 0.5 2>/dev/null | grep -v '^#' | grep -v '^$' | head -70
	for s in read_hpet _raw_spin_unlock_irqrestore clear_page_erms native_queued_spin_lock_slowpath memset_erms; do
		echo "=== PROF host $MP_HOST $1: callers of $s"
		perf report -i /tmp/p.data --stdio --no-children -S $s -G --percent-limit 2 2>/dev/null | grep -v '^#' | grep -v '^$' | head -60
	done
}
echo 0 > /proc/sys/kernel/kptr_restrict
echo -1 > /proc/sys/kernel/perf_event_paranoid
if [ "$MP_HOST" = 1 ]; then
	tap_plan 1
	bench_pool
	n=10
	for j in $JOBS; do
		barrier $n 600
		perf record -a -F 499 -g -o /tmp/p.data -- sleep 11 2>/dev/null
		rep "$j"
		n=$((n + 1))
	done
	barrier 3 3000
	ok done
	exit 0
fi
tap_plan 1
bench_pool
bench_online_as $SEG blk
n=10
for j in $JOBS; do
	rw=${j%%:*} bs=${j#*:}
	barrier $n 600
	perf record -a -F 499 -g -o /tmp/p.data -- fio --name=p --filename=/dev/mpb$SEG --rw=$rw --bs=$bs \
		--ioengine=libaio --direct=1 --iodepth=16 --runtime=10 --time_based --size=100% --minimal > /tmp/fio.out 2>/dev/null
	echo "=== FIO $j: $(cut -d';' -f7,8,48,49 /tmp/fio.out)"
	grep . /sys/class/misc/mp_eth/datapath/* 2>/dev/null | tr '\n' ' '; echo
	rep "$j"
	n=$((n + 1))
done
barrier 3 3000
ok done
