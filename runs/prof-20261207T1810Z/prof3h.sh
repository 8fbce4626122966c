#!/bin/sh
# Three hosts: host 0 reads 8 MiB transfers from hosts 1 and 2 at once;
# mp_eth's retransmission counters after (window sizing, issue 24).
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
tap_plan 1
mpe_net && mpe_load $BENCH_MPE_ARGS poll_us=2000 || { fail load; exit 1; }
barrier 1 120
if [ "$MP_HOST" != 0 ]; then
	barrier 2 3000
	mpctl stats | tr -d ' \n' | sed "s/^/=== STATS host$MP_HOST /"; echo
	ok done
	exit 0
fi
echo "=== window $(cat /sys/module/mp_eth/parameters/window_frames)"
for r in 1 2 3; do
	mpe_test bw -d 1 -r "$(region 0)" -s 8M -n 8 > /tmp/m1 2>&1 &
	mpe_test bw -d 2 -r "$(region 0)" -s 8M -n 8 > /tmp/m2 2>&1
	wait
	echo "=== BW2 $r $(cat /tmp/m1 /tmp/m2 | tr '\n' ' ')"
	mpe_test bw -d 1 -r "$(region 0)" -s 8M -n 8 > /tmp/m1 2>&1
	echo "=== BW1 $r $(cat /tmp/m1 | tr '\n' ' ')"
done
mpctl stats | tr -d ' \n' | sed 's/^/=== STATS host0 /'; echo
cat /sys/class/net/eth0/statistics/rx_dropped | sed 's/^/=== DROP /'
barrier 2 3000
ok done
