#!/bin/sh
# fio 4 KiB random reads and writes on /dev/mpb3, iodepth 16, with the
# read-ahead's path bypassed (exp_ra_off=Y) or taken (N), alternating
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh
SEG=3
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
dd if=/dev/urandom of=/dev/mpb$SEG bs=1M count=128 oflag=direct 2>/dev/null
P=/sys/module/cmm_mp/parameters/exp_ra_off
for r in 1 2 3 4; do for rw in randread randwrite; do for off in N Y; do
	echo $off > $P
	fio --name=p --filename=/dev/mpb$SEG --rw=$rw --bs=4k --ioengine=libaio --direct=1 \
		--iodepth=16 --runtime=6 --time_based --size=100% --minimal > /tmp/fio.out 2>/dev/null
	echo "=== FIO $rw off=$off: $(cut -d';' -f8,49 /tmp/fio.out)"
done; done; done
for c in hits waits misses fetches; do echo "=== RA $c $(cat /sys/block/mpb$SEG/ra/$c)"; done
barrier 3 3000
ok done
