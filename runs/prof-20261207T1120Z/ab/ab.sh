#!/bin/sh
# A/B of the single-frame direct xmit: base, new, base, new (2 guests).
cd /work/prof || exit 1
for v in base new base new; do
	if [ $v = base ]; then
		sed -i 's/^\tif (mpe_qdisc_default(dev))$/\tif (n > 1 \&\& mpe_qdisc_default(dev))/' kernel/mp_eth/tx.c
	else
		sed -i 's/^\tif (n > 1 \&\& mpe_qdisc_default(dev))$/\tif (mpe_qdisc_default(dev))/' kernel/mp_eth/tx.c
	fi
	grep -c 'n > 1 && mpe_qdisc_default' kernel/mp_eth/tx.c
	make -s modules 2>&1 | grep -v BTF
	rm -rf /tmp/prof3/images /tmp/prof3/ab-$v; mkdir -p /tmp/prof3/ab-$v
	flock /tmp/cmm-guest.lock env VMRUN_IMAGE_DIR=/tmp/prof3/images MKINITRAMFS_BENCH=1 timeout 600 \
		scripts/vmrun --hosts 2 --pool 256M --mem 2G --timeout 400 --out /tmp/prof3/ab-$v --quiet -- \
		env PROF_DEVS="/dev/mpb3 /dev/nbd0" PROF_JOBS="randread:4k randwrite:4k" /selftests/bench/prof3.sh > /dev/null 2>&1
	grep -h '=== FIO' /tmp/prof3/ab-$v/host0/tap.log | sed "s/^/$v /" >> /tmp/prof3/ab.txt
done
