#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 4 --timeout 600
#
# Four devices form a pool with the runtime-sized tables (issue 28) and
# the heartbeats along the ranks (Documentation/pool.rst): mp_eth loads
# with its default max_devs (1024) and no static table, the four find each
# other and every one reaches every other one over the data path. In the
# formed, idle pool each member sends its heartbeats to log2(4) = 2 others
# per hb_interval and gets 2: about 4 frames a second each way (the
# broadcast heartbeats sent 2 and received 6), rank 0's beacon every 4th
# heartbeat adding 1/2 a second. Then host 3 leaves: the
# members it sent heartbeats to find it silent, every host forms the pool
# with it lost, and takes it back when it returns. Meanwhile host 0 lists
# the pool's segments again and again: a list the pool map changed under
# must say so, never come out cut short as a whole one.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
. /selftests/pool/pool_lib.sh

DP=/sys/class/misc/mp_eth/datapath
gen() { cat $D/generation; }
dev_state() { mpctl list -D -d "$1" | flat | sed -n 's/.*"state":"\([a-z]*\)".*/\1/p'; }

# idle_frames SECS: frames sent and received in SECS of an idle pool,
# checked against 2 heartbeats per 500 ms each way (+-40 %: probes, the
# timer's slack, a barrier's last frames)
idle_frames() {
	sleep 3		# the slowest host's barrier reads are over
	tx0=$(cat $DP/frames_tx) rx0=$(cat $DP/frames_rx)
	sleep "$1"
	tx=$(($(cat $DP/frames_tx) - tx0)) rx=$(($(cat $DP/frames_rx) - rx0))
	want=$((2 * 2 * $1))
	diag "idle ${1}s: sent $tx, received $rx frames (heartbeats along the ranks: $want each way)"
	test "$tx" -ge $((want * 6 / 10)) && test "$tx" -le $((want * 14 / 10)) &&
		test "$rx" -ge $((want * 6 / 10)) && test "$rx" -le $((want * 14 / 10))
}

# list_loop FILE: mpctl list in bursts of 5, a second apart (the guests
# share the machine's cores), until /tmp/lists.stop; a line per list in
# FILE: "ok " and seg_json's summary of a whole JSON array, "changed"
# (mpctl said the pool changed during the list, and left the array
# open), or "bad" and what else it said. seg_json is the program
# (selftests/cmm_mp/seg_json.c), not pool_lib.sh's function of one segment.
list_loop() {
	: > "$1"
	_i=0
	while [ ! -e /tmp/lists.stop ]; do
		_i=$((_i + 1))
		[ $((_i % 5)) = 0 ] && sleep 1
		if mpctl list > /tmp/l.json 2> /tmp/l.err; then
			echo "ok $(command seg_json < /tmp/l.json 2>&1)" >> "$1"
		elif grep -q "the pool changed during the list" /tmp/l.err &&
		     ! command seg_json < /tmp/l.json > /dev/null 2>&1; then
			echo changed >> "$1"
		else
			echo "bad $(cat /tmp/l.err)" >> "$1"
		fi
	done
}
# whole N: seg_json's summary of the ids 0..N-1, once each
whole() { echo "^ok segments=$1 first=0 last=$(($1 - 1)) unique=1 "; }

case $MP_HOST in 3) tap_plan 10 ;; 0) tap_plan 12 ;; *) tap_plan 11 ;; esac
check "eth0 up (virtio_net)" mpe_net
check "cmm_mp loads ($MP_POOL_MEM), mp_eth loads without peers=: discovery" \
	"load_cmm_mp && load_eth"
check "max_devs defaults to 1024" \
	"test \$(cat /sys/module/mp_eth/parameters/max_devs) = 1024"
check "pool formed: runtime, 4 devices up" wait_until 90 runtime_with 4
diag "generation $(gen), device $(cat $D/device_id)"
check "device id = rank of the chip id" \
	"test \$(cat $D/device_id) = $MP_HOST"
check "data path: every device answers (barrier)" barrier 1 120
# every host is idle between this barrier and the next
check "idle pool: 2 heartbeats out and 2 in per interval, not a broadcast to all" \
	idle_frames 10
check "barrier after the idle window" barrier 2 120

# --- host 3 leaves and comes back
G1=$(gen)
# host 0 lists the pool all along: the map changes under some of the
# lists (segment ids are pool-wide), which must then say so, never print
# a cut list as whole (NLM_F_DUMP_INTR, kernel/cmm_mp/netlink.c)
if [ "$MP_HOST" = 0 ]; then
	all=$(mpctl list | command seg_json | tr ' ' '\n' | sed -n 's/^segments=//p')
	own=$(cat /sys/class/cmm_mp/mp0/nr_segments)
	rm -f /tmp/lists.stop
	list_loop /tmp/lists &
	lister=$!
fi
if [ "$MP_HOST" = 3 ]; then
	check "host 3: mp_eth unloaded for 20 s, loaded again" \
		"rmmod mp_eth && sleep 20 && load_eth"
else
	check "device 3 lost within 15 s: new generation, 3 up" \
		"wait_until $((15 * SLOW)) 'test \"\$(dev_state 3)\" = lost && runtime_with 3' && test \$(gen) -gt $G1"
	check "device 3 back: 4 devices up again" wait_until 60 runtime_with 4
fi
if [ "$MP_HOST" = 0 ]; then
	touch /tmp/lists.stop
	wait $lister
	n_ok=$(grep -c '^ok' /tmp/lists) n_ch=$(grep -c '^changed$' /tmp/lists)
	diag "mpctl list while host 3 left and came back: $n_ok whole, $n_ch refused as changed under it; $(grep -v -e "$(whole "$all")" -e '^changed$' /tmp/lists | sort | uniq -c | head -n 3)"
	check "mpctl list during the changes: $n_ok whole lists of $all or $own segments, $n_ch said the pool changed, none cut" \
		'[ "$n_ok" -gt 0 ] && [ -n "$all" ] &&
		 ! grep -v -e "$(whole "$all")" -e "$(whole "$own")" -e "^changed\$" /tmp/lists | grep -q .'
fi
check "pool of 4 again, every device answers (barrier)" \
	"wait_until 60 runtime_with 4 && end_barrier 3 120"
