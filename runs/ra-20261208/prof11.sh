#!/bin/sh
# far memory: are swap-in reads sequential on the device? block_rq_issue
# sectors of /dev/mpb3's reads during one farmem run
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh
SEG=3 MB=32 LIMIT=16M CG=/sys/fs/cgroup/far
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
mkdir -p /sys/fs/cgroup; grep -q cgroup2 /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
echo +memory > /sys/fs/cgroup/cgroup.subtree_control; mkdir -p $CG; echo $LIMIT > $CG/memory.max
T=/sys/kernel/tracing; [ -d $T/events ] || mount -t tracefs none $T
echo 8192 > $T/buffer_size_kb
mkswap /dev/mpb$SEG >/dev/null && swapon /dev/mpb$SEG
echo 1 > $T/events/block/block_rq_issue/enable
sh -c "echo \$\$ > $CG/cgroup.procs && exec farmem -s $MB -p 2" > /tmp/far.out 2>&1
echo 0 > $T/events/block/block_rq_issue/enable
swapoff /dev/mpb$SEG
echo "=== RUN $(tail -1 /tmp/far.out)"
# lines: ... block_rq_issue: 251,0 R 30720 () 12345 + 60 [farmem]
grep block_rq_issue $T/trace | awk '{ for (i = 1; i <= NF; i++) if ($i == "+") { s = $(i-1); n = $(i+1) }
	for (i = 1; i <= NF; i++) if ($i ~ /^(R|RA|RS|W|WS|WSM|WM|WFS)$/) op = $i
	print op, s, n, $4 }' > /tmp/rq
awk '$1 ~ /^R/ { r++; if ($2 == rend) seq++; else if ($2 > rend && $2 - rend <= 256) near++; rend = $2 + $3 }
	$1 ~ /^W/ { w++ }
	END { printf "=== READS %d sequential %d near(<=128K ahead) %d writes %d\n", r, seq, near, w }' /tmp/rq
head -60 /tmp/rq | sed 's/^/=== RQ /'
barrier 3 3000
ok done
