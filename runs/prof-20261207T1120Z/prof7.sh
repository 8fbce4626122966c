#!/bin/sh
# Who reads the clocksource (HPET under TCG) during 4 KiB random reads on
# /dev/mpb3: stacks of read_hpet, aggregated (issue 24 analysis).
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh
SEG=3
T=/sys/kernel/tracing
[ -d $T/trace_stat ] || mount -t tracefs nodev $T
if [ "$MP_HOST" = 1 ]; then
	tap_plan 1
	bench_pool; bench_ip
	barrier 2 300
	barrier 3 3000
	ok done
	exit 0
fi
tap_plan 1
bench_pool; bench_ip
barrier 2 300
bench_online_as $SEG blk >/dev/null 2>&1
cat /sys/devices/system/clocksource/clocksource0/current_clocksource | sed 's/^/# clocksource /'
for j in ${PROF_JOBS:-randread:4k}; do
rw=${j%%:*} bs=${j#*:}
echo nop > $T/current_tracer
echo read_hpet > $T/set_ftrace_filter
echo 60000 > $T/buffer_size_kb
echo function > $T/current_tracer
echo 1 > $T/options/func_stack_trace
echo > $T/trace
echo 1 > $T/tracing_on
fio --name=p --filename=/dev/mpb$SEG --rw=$rw --bs=$bs \
	--ioengine=libaio --direct=1 --iodepth=16 --runtime=${PROF_T:-2} --time_based --size=100% --minimal > /tmp/fio.out 2>/dev/null
echo 0 > $T/tracing_on
echo 0 > $T/options/func_stack_trace
kb=${bs%k}
echo "=== FIO $j: $(cut -d';' -f7,8,48,49 /tmp/fio.out) ios=$(awk -F';' -v kb=$kb '{ print int(($6 + $47) / kb) }' /tmp/fio.out)"
# a stack: "=> fn" lines after each read_hpet line; key: frames 2-5
awk '/read_hpet <-/ { if (k != "") c[k]++; k = ""; n = 0; next }
	/^ *=> / { n++; if (n >= 2 && n <= 6) { f = $2; sub(/\+.*/, "", f); k = k " " f } }
	END { if (k != "") c[k]++; for (s in c) print c[s], s }' $T/trace | sort -k1 -n -r | head -25 | sed "s/^/=== HPET $j /"
echo "# trace lines: $(wc -l < $T/trace); $(grep -c 'read_hpet <-' $T/trace) reads"
echo nop > $T/current_tracer
done
barrier 3 3000
ok done
