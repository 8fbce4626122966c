#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 3 --pool-per-host 256M,512M,256M --timeout 600
#
# Discovery and the pool-wide view (Documentation/pool.rst). Three devices
# of 256, 512 and 256 MiB load mp_eth without a static table and find each
# other: device ids are the ranks of the chip ids (the MACs of vmrun's
# hosts, in host order), the PAMT lays the capacities end to end (segments
# 0-1, 2-5, 6-7), every host lists the same pool (the hash of the pool
# section of `mpctl list` is exchanged as a barrier token: a host whose
# view differs never meets the others). Then host 2 leaves (its device is
# lost, its segments fail, requests to it fail fast with EIO) and comes
# back (new generations each time), and finally comes back with host 0's
# chip id: every host reports the duplicate and forms no pool until host 2
# returns with its own.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh
. /selftests/pool/pool_lib.sh

MIB=1048576
gen() { cat $D/generation; }
dev_state() { mpctl list -D -d "$1" | flat | sed -n 's/.*"state":"\([a-z]*\)".*/\1/p'; }
seg_state() { mpctl list -s "$1" | flat | sed -n 's/.*"state":"\([a-z-]*\)".*/\1/p'; }
# the pool-wide part of `mpctl list -D -S -v`: the same on every host
# (a host's own segments have more members after nha: no trailing commas)
pool_section() {
	mpctl list -D -S -v | grep -E '"(device|id|chip_id|mac|state|size|segment_size|nr_segments|first_segment|nha|generation|pool_state|segment|owner|device_id)":' |
		sed 's/,$//'
}
pool_hash() { pool_section | sha256sum | cut -c1-6; }
hash_barrier() {	# TOKEN_BASE: every host meets with the hash of its view
	pool_section > /tmp/pool.$1
	h=$(pool_hash)
	diag "pool section hash $h (generation $(gen))"
	barrier "0x$h" 60 || return 1
	# a slot holds one token: let the slowest host read this one before
	# anybody signals the next barrier
	sleep 2
}

case $MP_HOST in 0) tap_plan 26 ;; 1) tap_plan 28 ;; *) tap_plan 25 ;; esac
check "eth0 up (virtio_net)" mpe_net
check "cmm_mp loads ($MP_POOL_MEM), mp_eth loads without peers=: discovery" \
	"load_cmm_mp && load_eth"
check "pool formed: runtime, 3 devices up" wait_until 90 runtime_with 3
diag "generation $(gen), device $(cat $D/device_id), first segment $(cat $D/first_segment)"
check "data path: every device answers (barrier)" barrier 1 120
check "device id = rank of the chip id (host $MP_HOST, chip $(cat $D/chip_id))" \
	"test \$(cat $D/device_id) = $MP_HOST && test \$(cat $D/chip_id) = 0x5254006d700$((MP_HOST + 1))"
mpctl list -D -v >&2
check "PAMT: device 1 is 512 MiB at NHA 256 MiB, segments 2-5; device 2 at 768 MiB, segment 6" \
	"mpctl list -D -v -d 1 | flat | grep -q '\"first_segment\":2,\"nha\":268435456' &&
	 mpctl list -D -v -d 1 | flat | grep -q '\"size\":536870912' &&
	 mpctl list -D -v -d 2 | flat | grep -q '\"first_segment\":6,\"nha\":805306368'"
check "8 segments pool-wide, never straddling devices" \
	"test \$(mpctl list | grep -c '\"segment\":') = 8 &&
	 mpctl list -s 5 | flat | grep -q '\"device\":\"mp1\"' && mpctl list -s 6 | flat | grep -q '\"device\":\"mp2\"'"
check "every device listed with its MAC" \
	"mpctl list -D -d 2 | grep -q '52:54:00:6d:70:03' && mpctl list -D -d 0 | grep -q '52:54:00:6d:70:01'"
check "pool section identical on every host (hash as barrier token)" hash_barrier 1

if [ "$MP_HOST" = 1 ]; then
	check "own segment 3 onlines as System RAM in pool numbering" \
		"mpctl online 3 && test \"\$(seg_state 3)\" = online-ram && test \$(cat $D/segments/seg1/state) = online-ram && mpctl offline 3"
	# segment 1, not 0: a device's first segment holds the barrier slots
	check "a remote segment onlines as owned (pooling mode), offline releases it" \
		"mpctl online 1 && test \"\$(seg_state 1)\" = owned && mpctl offline 1 && test \"\$(seg_state 1)\" = offline"
fi

# --- leave and come back
check "barrier before host 2 leaves" barrier 2 120
G1=$(gen)
if [ "$MP_HOST" = 2 ]; then
	check "host 2: mp_eth unloaded for 20 s, loaded again" \
		"rmmod mp_eth && test \$(pstate) = local && sleep 20 && load_eth"
else
	check "device 2 lost within 15 s: new generation, runtime" \
		"wait_until 15 'test \"\$(dev_state 2)\" = lost && test \$(pstate) = runtime' && test \$(gen) -gt $G1"
	check "its segments 6 and 7 failed, the others not" \
		"test \"\$(seg_state 6)\" = failed && test \"\$(seg_state 7)\" = failed && test \"\$(seg_state 5)\" = offline"
	check "a request to the lost device fails fast with EIO" \
		"! timeout 2 mpe_test read 2 0 8 2>/tmp/e; grep -q EIO /tmp/e"
	G2=$(gen)
	check "device 2 back, all 3 up, a newer generation" \
		"wait_until 60 runtime_with 3 && test \$(gen) -gt $G2"
fi
check "pool back: runtime, 3 devices up" wait_until 60 runtime_with 3
check "pool section identical on every host again" hash_barrier 2

# --- a duplicate chip id
check "barrier before the duplicate" barrier 3 120
if [ "$MP_HOST" = 2 ]; then
	check "host 2 reloads with host 0's chip id" \
		"rmmod mp_eth && rmmod cmm_mp && load_cmm_mp chip_id=0x5254006d7001 && load_eth"
fi
check "duplicate detected: pool state conflict" wait_until 60 'test "$(pstate)" = conflict'
check "kernel log names the duplicate chip id" "dmesg | grep -q 'duplicate chip id 0x5254006d7001'"
if [ "$MP_HOST" = 2 ]; then
	check "host 2 back with its own chip id" \
		"sleep 8 && rmmod mp_eth && rmmod cmm_mp && load_cmm_mp && load_eth"
fi
check "pool re-formed without the duplicate: 3 devices up" wait_until 90 runtime_with 3
check "pool section identical on every host after the duplicate" hash_barrier 3

# --- a partition: every device alone, then the link heals. Ranked
# heartbeats reach members only, so pools that formed apart meet through
# rank 0's beacon (MP_DISC_BEACON_BEATS). netem drops what eth0 sends;
# the heal waits until 14 s after the barrier on every host, when each
# has been alone for a while (hb_timeout is 3 s; barriers need the
# pool, so none in between).
check "barrier before the partition" barrier 4 120
T0=$(date +%s)
check "partition (netem loss 100% on eth0): alone within 12 s, 1 device up" \
	"modprobe sch_netem && tc qdisc replace dev eth0 root netem loss 100% && wait_until 12 runtime_with 1"
sleep $((T0 + 14 * SLOW - $(date +%s))) 2>/dev/null
check "healed: the apart pools merge, runtime, 3 devices up within 30 s" \
	"tc qdisc del dev eth0 root && wait_until 30 runtime_with 3"
dmesg | grep 'discovery round' | tail -4 >&2
check "final: pool section identical on every host" hash_barrier 5
check "end barrier" barrier 6 120
