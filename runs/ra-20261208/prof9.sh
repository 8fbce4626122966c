#!/bin/sh
# far memory analysis: farmem swapping to /dev/mpb3 and NBD, vmstat and
# the disk's request counters around each run
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh
SEG=3 MB=32 LIMIT=16M CG=/sys/fs/cgroup/far
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
mkdir -p /sys/fs/cgroup; grep -q cgroup2 /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
echo +memory > /sys/fs/cgroup/cgroup.subtree_control; mkdir -p $CG; echo $LIMIT > $CG/memory.max
snap() {	# DEVNAME
	awk '$1 ~ /^(pswpin|pswpout|pgmajfault|allocstall_normal|allocstall_movable|pgscan_direct|pgsteal_direct|pgscan_kswapd|workingset_refault_anon|swap_ra|swap_ra_hit|pgactivate|pgdeactivate)$/ { print $1, $2 }' /proc/vmstat
	awk '{ print "rd_ios", $1; print "rd_merges", $2; print "rd_sect", $3; print "rd_ms", $4; print "wr_ios", $5; print "wr_merges", $6; print "wr_sect", $7; print "wr_ms", $8 }' /sys/block/$1/stat
	for f in submitted submit_partial frames_tx frames_rx; do echo "$f $(cat /sys/class/misc/mp_eth/datapath/$f)"; done
	awk '{ print "cg_" $1, $2 }' $CG/memory.stat | grep -E "cg_(pgmajfault|workingset_refault_anon|pgscan|pgsteal) "
}
for v in 16 4 16 4 8 2 16 8; do for d in mpb$SEG; do echo $v > /sys/module/cmm_mp/parameters/exp_wr_vecs
	mkswap /dev/$d >/dev/null && swapon /dev/$d
	snap $d > /tmp/s0
	t0=$(date +%s.%N)
	sh -c "echo \$\$ > $CG/cgroup.procs && exec farmem -s $MB -p 2" > /tmp/far.out 2>&1
	t1=$(date +%s.%N)
	snap $d > /tmp/s1
	swapoff /dev/$d
	echo "=== RUN $d v=$v: $(cat /tmp/far.out | tail -1)"
	awk -v d=$d 'NR == FNR { a[$1] = $2; next } { printf "=== D %s %s %d\n", d, $1, $2 - a[$1] }' /tmp/s0 /tmp/s1
done; done
barrier 3 3000
ok done
