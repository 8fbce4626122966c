#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make bench`, part "redis" (two hosts; the paper's Figures
# 22-23): redis-server + redis-benchmark SET/GET on host 0 with values of
# 64..4096 B, the server's memory on system memory and on MP-L (numactl
# --membind to the pool node, local segments onlined); then with the
# server in a cgroup whose memory.max is far below its data set, swapping
# to /dev/mpb5 (a segment of host 1's device) and to NBD from host 1 over
# the same link. Host 1 serves. Correctness: a key written before the
# benchmark reads back intact after it (for the swap cases, from swap),
# and a swap case must have swapped.
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh

N=${BENCH_REDIS_REQUESTS:-20000}
SIZES=${BENCH_REDIS_SIZES:-64 1024 4096}
SWAP_KEYS=${BENCH_REDIS_SWAP_KEYS:-60000}
SWAP_LIMIT=${BENCH_REDIS_SWAP_LIMIT:-48M}
# system memory then MP-L, alternating: one round by default (a round
# takes minutes under TCG), BENCH_REDIS_ROUNDS for more
REDIS_ROUNDS=${BENCH_REDIS_ROUNDS:-1}
SEG=5		# host 1's second segment: its first holds the barrier slots

if [ "$MP_HOST" = 1 ]; then
	tap_plan 5
	check "pool of 2 formed" bench_pool
	check "10.77.0.2 on eth0" bench_ip
	printf '[generic]\n[bench]\nexportname = /tmp/nbd.img\n' > /tmp/nbd.conf
	check "nbd-server exports a fully written 128 MiB file" \
		"dd if=/dev/zero of=/tmp/nbd.img bs=1M count=128 2>/dev/null && test \$(du -k /tmp/nbd.img | cut -f1) -ge 131072 && nbd-server -C /tmp/nbd.conf"
	# host 0 runs every redis case before NBD's: many minutes under load
	check "host 0 reached the NBD case" barrier 2 3000
	check "host 0 done" barrier 3 3600
	exit 0
fi

# server [WRAPPER...]: a fresh redis-server, no persistence
server() {
	redis-cli shutdown nosave >/dev/null 2>&1
	"$@" redis-server --port 6379 --save '' --appendonly no \
		--daemonize yes --logfile /tmp/redis.log &&
	wait_until 30 "redis-cli ping | grep -q PONG"
}

# bench_kv PREFIX SIZE [KEYS [REQUESTS]]: SET then GET, ops/s as RESULTs,
# and a sentinel key that must read back intact
bench_kv() {
	_sent=$(head -c 3000 /dev/urandom | md5sum | cut -c1-32)
	redis-cli set sentinel "$_sent" >/dev/null || return 1
	redis-benchmark -q --csv -t set,get -d "$2" -n "${4:-$N}" -r "${3:-10000}" \
		> /tmp/rb.out 2>&1 || { cat /tmp/rb.out >&2; return 1; }
	cat /tmp/rb.out >&2
	# --csv: "test","rps","avg_latency_ms","min","p50","p95","p99","max"
	for _op in set get; do
		_f=$(awk -F'"' -v op="$_op" 'toupper(op) == $2 { print $4, $10, $14 }' /tmp/rb.out)
		res "redis_$1_${_op}_$2" "${_f%% *}"
		_f=${_f#* }
		res "redis_$1_${_op}_$2_p50_ms" "${_f%% *}"
		res "redis_$1_${_op}_$2_p99_ms" "${_f#* }"
	done
	test "$(redis-cli get sentinel)" = "$_sent"
}

# swap_run PREFIX DEV: the server in a cgroup limited to SWAP_LIMIT, swap on DEV
swap_run() {
	mkswap "$2" >&2 && swapon "$2" || return 1
	mkdir -p /sys/fs/cgroup/redis &&
	echo "$SWAP_LIMIT" > /sys/fs/cgroup/redis/memory.max &&
	_sw0=$(awk '$1 == "pswpout" { print $2 }' /proc/vmstat)
	server sh -c 'echo $$ > /sys/fs/cgroup/redis/cgroup.procs && exec "$@"' sh &&
	bench_kv "$1" 1024 "$SWAP_KEYS" $((SWAP_KEYS * 2))
	_r=$?
	_sw=$(($(awk '$1 == "pswpout" { print $2 }' /proc/vmstat) - _sw0))
	diag "$1: $_sw pages swapped out, swap used $(awk 'NR > 1 { print $1, $4 }' /proc/swaps)"
	# a run that never swapped measured nothing of the device
	[ "$_sw" -gt 0 ] || { diag "$1: the data set fit in memory.max"; _r=1; }
	redis-cli shutdown nosave >/dev/null 2>&1
	sleep 1
	swapoff "$2" || _r=1
	return $_r
}

tap_plan 10
check "pool of 2 formed" bench_pool
check "10.77.0.1 on eth0" bench_ip
# segment 0 keeps the barrier slots of mpe_test: MP-L is segments 1-3
check "local segments 1-3 online (MP-L on node $MP_POOL_NODE)" \
	"mpctl online 1-3 >/dev/null && test \$(node_memtotal_kb $MP_POOL_NODE) -gt 0"
ok_sys=0 ok_mpl=0
for r in $(seq 1 "$REDIS_ROUNDS"); do
	for s in $SIZES; do
		server && bench_kv sys "$s" || ok_sys=1
		server numactl --membind="$MP_POOL_NODE" && bench_kv mpl "$s" || ok_mpl=1
	done
done
redis-cli shutdown nosave >/dev/null 2>&1
check "system memory: SET/GET for $SIZES B, sentinel intact" test $ok_sys = 0
check "MP-L: SET/GET for $SIZES B, sentinel intact" test $ok_mpl = 0
check "cgroup v2 with the memory controller" \
	"mkdir -p /sys/fs/cgroup && { grep -q cgroup2 /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup; } && echo +memory > /sys/fs/cgroup/cgroup.subtree_control"
check "segment $SEG of host 1 online as blk: /dev/mpb$SEG" \
	"bench_online_as $SEG blk && test -b /dev/mpb$SEG"
if [ -b /dev/mpb$SEG ]; then
	check "swap on /dev/mpb$SEG: redis under memory.max=$SWAP_LIMIT, sentinel intact" \
		swap_run swapmpb /dev/mpb$SEG
else
	fail "swap on /dev/mpb$SEG: no such device"
fi
check "swap on NBD: redis under memory.max=$SWAP_LIMIT, sentinel intact" \
	"barrier 2 300 && bench_nbd && swap_run swapnbd /dev/nbd0"
check "barrier: done" "nbd-client -d /dev/nbd0; barrier 3 3600"
bench_emit
