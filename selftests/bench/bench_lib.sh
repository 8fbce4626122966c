# SPDX-License-Identifier: GPL-2.0
# Helpers of the guest sides of `make bench` (bench/run): results go out as
# "# RESULT key value" TAP comments that bench/report collects, one line
# per round and measure (bench/report keeps every line as a sample), and
# facts as "# INFO key text". They are gathered in a file (a check's
# output goes to the console, not the TAP stream) and printed by
# bench_emit at the end of a script.

BENCH_SECONDS=${BENCH_SECONDS:-2}
BENCH_SIZE=${BENCH_SIZE:-64M}
BENCH_THREADS=${BENCH_THREADS:-2}
# rounds of each comparison, ours and the peer alternating (bench/run)
BENCH_ROUNDS=${BENCH_ROUNDS:-5}
ROUNDS=$(seq 1 "$BENCH_ROUNDS")

BENCH_RESULTS=/tmp/bench.results
: > $BENCH_RESULTS
# On a segment of jumbo frames (bench/run's jumbo_* parts: vmrun --mtu
# 9000) every key starts with "jumbo_", as in bench_transport.sh, so that
# one results file holds both MTUs apart.
KP=
[ "${MP_MTU:-1500}" -gt 1500 ] && KP=jumbo_
res() { echo "# RESULT $KP$1 $2" >> $BENCH_RESULTS; }
info() { echo "# INFO $KP$1 $2" >> $BENCH_RESULTS; }
bench_emit() { cat $BENCH_RESULTS; }

# mpb_results PREFIX FILE: "target test value unit" lines of mpbench -> RESULTs
mpb_results() {
	awk -v p="$KP$1" '$3 ~ /^[0-9.]+$/ {
		t = $2; gsub(":", "to", t); print "# RESULT " p "_" t " " $3 }' \
		"$2" >> $BENCH_RESULTS
}

# mpb_run PREFIX TARGET: every mpbench test on TARGET, then a verification
mpb_run() {
	mpbench -t "$2" -s "$BENCH_SIZE" -d "$BENCH_SECONDS" -j "$BENCH_THREADS" \
		latency read 3:1 2:1 1:1 triad --verify > /tmp/mpb.$1 2>&1
	_r=$?
	cat /tmp/mpb.$1 >&2
	mpb_results "$1" /tmp/mpb.$1
	return $_r
}

# ms: milliseconds since boot (the guests' clock, good enough for ratios)
ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# wire_snap FILE, wire_res PREFIX FILE0 FILE1: frames and bytes on eth0
# (both directions) between two snapshots, as PREFIX_frames and
# PREFIX_wire_bytes: what a run costs on the link. The interface counts
# what its driver sends and receives: an offloaded TCP segment (GSO/GRO,
# up to 64 KiB) is one frame, the unit a peer pays one virtio kick or
# interrupt for, as mp_eth pays one per frame of at most its MTU.
wire_snap() {
	_w=/sys/class/net/eth0/statistics
	echo "$(($(cat $_w/tx_packets) + $(cat $_w/rx_packets))) $(($(cat $_w/tx_bytes) + $(cat $_w/rx_bytes)))" > "$1"
}
wire_res() {
	read -r _f0 _b0 < "$2" && read -r _f1 _b1 < "$3" || return 1
	res "$1_frames" $((_f1 - _f0))
	res "$1_wire_bytes" $((_b1 - _b0))
}

# bench_devs_up: devices of the pool that are up, as this host sees them
bench_devs_up() { mpctl list -D | tr -d ' \n' | grep -o '"state":"up"' | wc -l; }

# bench_poll_tcp: TCP peers (NBD) poll as mp_eth does: BENCH_POLL_US
# microseconds of socket busy polling, or none when it is unset (mp_eth's
# default then too); stated in the results
bench_poll_tcp() {
	echo "${BENCH_POLL_US:-0}" > /proc/sys/net/core/busy_read &&
	echo "${BENCH_POLL_US:-0}" > /proc/sys/net/core/busy_poll &&
	info polling "mp_eth poll_us=${BENCH_POLL_US:-default}, TCP net.core.busy_read/busy_poll=${BENCH_POLL_US:-0}" &&
	bench_window
}

# bench_window: the frames mp_eth keeps in flight per peer, as it sized
# them from the receive ring (window_frames reads back the value in use)
bench_window() {
	info window "mp_eth window_frames=$(cat /sys/module/mp_eth/parameters/window_frames) frames in flight per peer"
}

# bench_pool: cmm_mp + mp_eth with discovery on eth0, wait for a formed
# pool of every host (a slow host may first form a pool alone and join
# later: wait for all of them), then a barrier so every host starts
# together
bench_pool() {
	modprobe virtio_pci 2>/dev/null
	modprobe virtio_net && ip link set eth0 up &&
	load_cmm_mp && insmod /lib/modules/cmm-mp/mp_eth.ko netdev=eth0 \
		${BENCH_POLL_US:+poll_us=$BENCH_POLL_US} && bench_poll_tcp &&
	wait_until 180 "test \"\$(cat /sys/class/cmm_mp/mp0/pool_state)\" = runtime && test \$(bench_devs_up) = $MP_HOSTS" &&
	barrier 1 180
}

# bench_ip: an address on eth0 for the TCP peers (NBD): 10.77.0.<host + 1>
bench_ip() { ip addr add "10.77.0.$((MP_HOST + 1))/24" dev eth0; }

# bench_online_as SEG MODE: online a segment of the peer as MODE (dax,
# blk); the caller checks it: a segment that cannot be onlined is a failure
bench_online_as() {
	mpctl online "$1" --as "$2" > /tmp/online.$1 2>&1
	_r=$?
	cat /tmp/online.$1 >&2
	return $_r
}

# bench_nbd: /dev/nbd0 from host 1's nbd-server (export "bench"), retried:
# under emulation on a loaded machine the first ARP exchange can time out
bench_nbd() {
	modprobe nbd || return 1
	_i=0
	while [ $_i -lt 20 ]; do
		nbd-client 10.77.0.2 -N bench /dev/nbd0 && return 0
		_i=$((_i + 1))
		sleep 2
	done
	return 1
}

# fio_verify DEV: write a crc32c-tagged pattern of BENCH_FIO_VERIFY_SIZE
# (32M) to block device DEV, read it back and check it
fio_verify() {
	fio --name=verify --filename="$1" --rw=write --bs=64k \
		--size="${BENCH_FIO_VERIFY_SIZE:-32M}" \
		--ioengine=libaio --direct=1 --iodepth=8 --verify=crc32c \
		--do_verify=1 --verify_fatal=1 > /tmp/fio.v 2>&1
	_r=$?
	cat /tmp/fio.v >&2
	return $_r
}

# check_verify DEV: fio_verify DEV as a test point; a device that is not
# there fails it (fio would write a regular file of that name)
check_verify() {
	if [ -b "$1" ]; then
		check "$1: crc32c-verified write and read back" fio_verify "$1"
	else
		fail "$1: crc32c-verified write and read back: no such device"
	fi
}
