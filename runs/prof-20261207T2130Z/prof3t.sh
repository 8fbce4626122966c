#!/bin/sh
# Interrupts, IPIs, context switches and frames per I/O, both guests,
# /dev/mpb against NBD (issue 24 analysis; not part of make bench).
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh
SEG=3
JOBS=${PROF_JOBS:-"randread:4k randwrite:4k"}
DEVS=${PROF_DEVS:-"/dev/mpb$SEG /dev/nbd0"}
snap() {
	awk '/^ *[0-9A-Z]+:/ { n = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i;
		name = $NF; if ($1 ~ /^[A-Z]/) name = $1; sub(":", "", name);
		if (name ~ /virtio|LOC|RES|CAL|TLB|IWI|NMI/) s[name] += n }
		END { for (k in s) print k, s[k] }' /proc/interrupts
	awk '/^ctxt/ { print "ctxt", $2 } /^intr/ { print "intr", $2 }' /proc/stat
	echo "rxpk $(cat /sys/class/net/eth0/statistics/rx_packets)"
	echo "txpk $(cat /sys/class/net/eth0/statistics/tx_packets)"
	cat /proc/stat | awk '/^cpu / { print "busy", $2 + $3 + $4 + $7 + $8; print "idle", $5 + $6 }'
}
delta() { # file0 file1 label ios
	awk -v l="$3" -v n="$4" 'NR == FNR { a[$1] = $2; next }
		{ d = $2 - a[$1]; printf "=== DELTA %s %s %d per_io %.2f\n", l, $1, d, n ? d / n : 0 }' "$1" "$2"
}
n=10
if [ "$MP_HOST" = 1 ]; then
	tap_plan 1
	bench_pool; bench_ip
	[ -n "$PROF_IPLINK" ] && ip link set eth0 $PROF_IPLINK && ip -d link show eth0 | grep -o "gso_max_segs [0-9]*\|gro_max_size [0-9]*"
	printf '[generic]\n[bench]\nexportname = /tmp/nbd.img\n' > /tmp/nbd.conf
	dd if=/dev/urandom of=/tmp/nbd.img bs=1M count=128 2>/dev/null; nbd-server -C /tmp/nbd.conf
	barrier 2 300
	for j in $JOBS; do for d in $DEVS; do
		barrier $n 600; snap > /tmp/s0
		barrier $((n + 1)) 600; snap > /tmp/s1
		delta /tmp/s0 /tmp/s1 "host1 $j $d" 0
		n=$((n + 2))
	done; done
	barrier 3 3000
	ok done
	exit 0
fi
tap_plan 1
bench_pool; bench_ip
[ -n "$PROF_IPLINK" ] && ip link set eth0 $PROF_IPLINK && ip -d link show eth0 | grep -o "gso_max_segs [0-9]*\|gro_max_size [0-9]*"
barrier 2 300; bench_nbd
bench_online_as $SEG blk >/dev/null 2>&1
[ -n "$PROF_NULLBLK" ] && modprobe null_blk nr_devices=1 irqmode=0 queue_mode=2 gb=1
for j in $JOBS; do for d in $DEVS; do
	rw=${j%%:*} bs=${j#*:}
	barrier $n 600; snap > /tmp/s0; echo "=== T start $j $d $(date +%s)"
	fio --name=p --filename=$d --rw=$rw --bs=$bs \
		--ioengine=libaio --direct=1 --iodepth=16 --runtime=${PROF_T:-8} --time_based --size=100% --minimal > /tmp/fio.out 2>/dev/null
	snap > /tmp/s1; echo "=== T end $j $d $(date +%s)"
	barrier $((n + 1)) 600
	kb=${bs%k}; [ "$bs" = 1M ] && kb=1024
	ios=$(awk -F';' -v kb=$kb '{ print int(($6 + $47) / kb) }' /tmp/fio.out)
	echo "=== FIO $j $d: $(cut -d';' -f7,8,48,49 /tmp/fio.out) ios=$ios"
	delta /tmp/s0 /tmp/s1 "host0 $j $d" "$ios"
	n=$((n + 2))
done; done
mpctl stats | tr -d ' \n' | sed 's/^/=== STATS /'; echo
cat /sys/class/net/eth0/statistics/rx_dropped /sys/class/net/eth0/statistics/rx_missed_errors | sed 's/^/=== DROP /'
barrier 3 3000
ok done
