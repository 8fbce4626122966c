#!/bin/sh
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh
SEG=3
JOBS=${PROF_JOBS:-"randread:4k randwrite:4k read:1M write:1M"}
if [ "$MP_HOST" = 1 ]; then
	tap_plan 1
	bench_pool; bench_ip
	printf '[generic]\n[bench]\nexportname = /tmp/nbd.img\n' > /tmp/nbd.conf
	dd if=/dev/zero of=/tmp/nbd.img bs=1M count=128 2>/dev/null; nbd-server -C /tmp/nbd.conf
	barrier 2 300
	barrier 3 3000
	ok done
	exit 0
fi
tap_plan 1
bench_pool; bench_ip
barrier 2 300; bench_nbd
bench_online_as $SEG blk >/dev/null 2>&1
for j in $JOBS; do
	rw=${j%%:*} bs=${j#*:}
	for d in ${PROF_DEVS:-/dev/mpb$SEG /dev/nbd0}; do
	fio --name=p --filename=$d --rw=$rw --bs=$bs $FIO_OPTS \
		--ioengine=libaio --direct=1 --iodepth=16 --runtime=${PROF_T:-8} --time_based --size=100% --minimal > /tmp/fio.out 2>/dev/null
	echo "=== FIO $j $d: $(cut -d';' -f7,8,48,49 /tmp/fio.out)"
	done
done
barrier 3 3000
ok done
