#!/bin/sh
# QD1 32 KiB random reads on /dev/mpb3 and NBD: the latency of a read that
# is interrupt-completed (no polling), against far memory's swap-in reads
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh
SEG=3
if [ "$MP_HOST" = 1 ]; then
	tap_plan 1
	bench_pool; bench_ip
	printf '[generic]\n[bench]\nexportname = /tmp/nbd.img\n' > /tmp/nbd.conf
	dd if=/dev/urandom of=/tmp/nbd.img bs=1M count=128 2>/dev/null; nbd-server -C /tmp/nbd.conf
	barrier 2 300
	barrier 3 3000
	ok done
	exit 0
fi
tap_plan 1
bench_pool; bench_ip
barrier 2 300; bench_nbd
bench_online_as $SEG blk >/dev/null 2>&1
dd if=/dev/urandom of=/dev/mpb$SEG bs=1M count=128 oflag=direct 2>/dev/null
for r in 1 2; do for bs in 4k 32k; do for d in /dev/mpb$SEG /dev/nbd0; do
	fio --name=p --filename=$d --rw=randread --bs=$bs --ioengine=psync --direct=1 \
		--runtime=5 --time_based --size=100% > /tmp/fio.out 2>&1
	echo "=== QD1 $bs $d: $(grep -o 'IOPS=[0-9.k]*' /tmp/fio.out) $(grep -A1 ' clat (' /tmp/fio.out | tr -s ' \n' ' ') $(grep -o '50.00th=\[ *[0-9]*\]' /tmp/fio.out)"
done; done; done
barrier 3 3000
ok done
