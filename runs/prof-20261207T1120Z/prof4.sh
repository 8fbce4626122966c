#!/bin/sh
# The link's round trip with the peer's kernel answering in softirq (ICMP
# echo), beside mp_eth's and Soft-RoCE's 64 B read, in one boot
# (issue 24 analysis; not part of make bench).
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
N=${PROF_N:-1000}
tap_plan 1
mpe_net && mpe_load poll_us=${PROF_POLL:-2000}
ip addr add 10.77.0.$((MP_HOST + 1))/24 dev eth0
modprobe crc32_generic; modprobe rdma_rxe; modprobe rdma_ucm
rdma link add rxe0 type rxe netdev eth0
barrier 1 120
p50() { sort -n | awk '{ a[NR] = $1 } END { print "p50", a[int(NR * 0.5) + 1], "p99", a[int(NR * 0.99) + 1], "n", NR }'; }
if [ "$MP_HOST" = 1 ]; then
	for r in 1 2 3; do
		timeout 300 ib_read_lat -R -d rxe0 -p 18515 -s 64 -n $N > /tmp/srv 2>&1
	done &
	barrier 2 3000
	ok done
	exit 0
fi
ping -c 20 -i 0.01 10.77.0.2 > /dev/null
for r in 1 2 3; do
	ping -c $N -i 0.002 10.77.0.2 | sed -n 's/.*time=\([0-9.]*\) ms/\1/p' | awk '{ print $1 * 1000 }' | p50 | sed "s/^/=== ICMP r$r /"
	echo N > /sys/module/mp_eth/parameters/poll_napi 2>/dev/null
	mpe_test lat -d 1 -r "$(region 0)" -s 64 -n $N | sed "s/^/=== MPE-spin r$r /"
	echo Y > /sys/module/mp_eth/parameters/poll_napi 2>/dev/null
	mpe_test lat -d 1 -r "$(region 0)" -s 64 -n $N | sed "s/^/=== MPE r$r /"
	sleep 2
	timeout 120 ib_read_lat -R -d rxe0 -p 18515 -s 64 -n $N 10.77.0.2 > /tmp/ib.out 2>&1
	awk '$1 == 64 { print "=== RXE r'$r' t_typical", $5, "p99", $8 }' /tmp/ib.out
done
barrier 2 3000
ok done
