#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --pool 256M --timeout 400
#
# Thousands of segments on one device (issue 28). The guest's pool device
# is cut into 2,048 segments of 128 KiB (seg_size=: a power-of-two part of
# a memory block, which is a device only, dax or blk). A System RAM
# segment is whole memory blocks, 128 MiB on x86: 2,048 of them would be
# 256 GiB, and each is wiped when handed over, which no guest here can
# have; the core path (netlink, ownership and its wipe, the mode's online,
# the change notifier, sysfs, libmp, mpctl) is the same for every mode,
# so the 2,048 go through it as dax, and the RAM mode's node memory is
# checked on the same range cut into 128 MiB segments at the end.
#
# mpctl list (streamed), online and offline of 256, of all 2,048, and of
# the 256 again (the machine's speed drifts: the 256 are timed around the
# 2,048) are timed; the cost per segment is printed (RESULT lines; a
# results file: scripts/seg-scale) and must not grow with the count: a
# walk of every segment for each segment would make the 2,048 eight times
# dearer per segment than the 256.
. /selftests/lib.sh

# N segments: 2,048 in make check; more with `scripts/seg-scale --segments
# N` (mp.many=N on the kernel command line, the pool sized to match)
N=$(sed -n 's/.*mp\.many=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
N=${N:-2048} SMALL=256
SEG=$((MP_POOL_SIZE / N))
# the cost per segment of all $N over that of $SMALL may not exceed this,
# nor online or offline alone the second (one direction is noisier)
MAX_RATIO=2 MAX_RATIO_DIR=3

ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
res() { echo "# RESULT $1 $2"; }
per() { awk -v t="$1" -v n="$2" 'BEGIN { printf "%.2f", t / n }'; }
# seg_json's value of KEY in the summary line $1
val() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
summary() { mpctl list | seg_json; }
nr_mps() { ls /dev | grep -c '^mps[0-9]' ; }

tap_plan 20
# a line per online on the serial console costs more than the online
dmesg -n 1

t0=$(ms)
check "cmm_mp loads on $MP_POOL_MEM with seg_size=$SEG" load_cmm_mp seg_size=$SEG
t_load=$(($(ms) - t0))
diag "insmod with $N segment devices: $t_load ms"
res many_insmod_ms $t_load
check "sysfs: nr_segments $N, $N devices mp0.N on the bus, links seg0..seg$((N - 1))" \
	'[ "$(cat /sys/class/cmm_mp/mp0/nr_segments)" = $N ] &&
	 [ "$(ls /sys/bus/cmm_mp/devices | grep -c "^mp0\.")" = $N ] &&
	 [ "$(cat /sys/class/cmm_mp/mp0/segments/seg$((N - 1))/state)" = offline ]'

t0=$(ms)
mpctl list > /tmp/list.json
t_list=$(($(ms) - t0))
s=$(seg_json < /tmp/list.json)
diag "mpctl list: $t_list ms, $(wc -c < /tmp/list.json) bytes: $s"
res many_list_ms $t_list
res many_list_us_per_seg "$(per $((t_list * 1000)) $N)"
check "mpctl list: a JSON array of $N segments, ids 0..$((N - 1)) once each, all offline" \
	'[ "$(val "$s" segments)" = $N ] && [ "$(val "$s" unique)" = 1 ] &&
	 [ "$(val "$s" last)" = $((N - 1)) ] && [ "$(val "$s" offline)" = $N ] &&
	 [ "$(val "$s" bytes)" = "$MP_POOL_SIZE" ]'
check "mpctl list -d mp0 streams the same list; -s 100-199 loads 100" \
	'mpctl list -d mp0 | cmp -s - /tmp/list.json &&
	 [ "$(val "$(mpctl list -s 100-199 | seg_json)" segments)" = 100 ]'
check "online --as ram of a part of a memory block fails saying why" \
	'! mpctl online --as ram 0 2>/tmp/err && grep -q "smaller than a memory block" /tmp/err &&
	 [ "$(cat /sys/bus/cmm_mp/devices/mp0.0/state)" = offline ]'

m0=$(memtotal_kb) n0=$(node_memtotal_kb 1)
diag "MemTotal $m0 kB, node 1 $n0 kB"

# round RANGE COUNT: online then offline RANGE, timed; sets t_on, t_off
round() {
	t0=$(ms)
	mpctl online "$1" > /dev/null || return 1
	t1=$(ms)
	s_on=$(summary)
	mps_on=$(nr_mps)
	mem_on="$(memtotal_kb) $(node_memtotal_kb 1)"
	t2=$(ms)
	mpctl offline "$1" > /dev/null || return 1
	t3=$(ms)
	t_on=$((t1 - t0)) t_off=$((t3 - t2))
	diag "$2 segments: online $t_on ms ($(per $((t_on * 1000)) $2) us each), offline $t_off ms ($(per $((t_off * 1000)) $2) us each)"
}

check "mpctl online/offline 0-$((SMALL - 1)) ($SMALL segments, dax by default)" round 0-$((SMALL - 1)) $SMALL
small_on=$t_on small_off=$t_off
check "the $SMALL were held here as /dev/mps<N>, the others offline" \
	'[ "$(val "$s_on" owned)" = $SMALL ] && [ "$(val "$s_on" devnodes)" = $SMALL ] &&
	 [ "$mps_on" = $SMALL ] && [ "$(val "$s_on" offline)" = $((N - SMALL)) ]'

t0=$(ms)
check "mpctl online 0-$((N - 1)) (all $N)" "mpctl online 0-$((N - 1)) > /dev/null"
t_on=$(($(ms) - t0))
s=$(summary)
check "all $N held here, each its own /dev/mps<N>, $MP_POOL_SIZE bytes in all" \
	'[ "$(val "$s" owned)" = $N ] && [ "$(val "$s" devnodes)" = $N ] &&
	 [ "$(nr_mps)" = $N ] && [ "$(val "$s" bytes)" = "$MP_POOL_SIZE" ]'
check "node memory: MemTotal and node 1 unchanged (devices, not System RAM)" \
	'[ "$(memtotal_kb)" = $m0 ] && [ "$(node_memtotal_kb 1)" = $n0 ]'

# each segment its own storage: its number written into each, all read back
t0=$(ms)
i=0 bad=0
while [ $i -lt $N ]; do echo "seg$i" > /dev/mps$i || bad=$((bad + 1)); i=$((i + 1)); done
i=0
while [ $i -lt $N ]; do read -r x < /dev/mps$i; [ "$x" = "seg$i" ] || bad=$((bad + 1)); i=$((i + 1)); done
diag "$N writes and reads through /dev/mps<N>: $(($(ms) - t0)) ms, $bad wrong"
check "every segment reads back its own number: $N distinct ranges of the device" test $bad = 0

t0=$(ms)
check "mpctl offline 0-$((N - 1))" "mpctl offline 0-$((N - 1)) > /dev/null"
t_off=$(($(ms) - t0))
s=$(summary)
check "all offline, no /dev/mps left, node memory unchanged" \
	'[ "$(val "$s" offline)" = $N ] && [ "$(nr_mps)" = 0 ] &&
	 [ "$(memtotal_kb)" = $m0 ] && [ "$(node_memtotal_kb 1)" = $n0 ]'
diag "$N segments: online $t_on ms ($(per $((t_on * 1000)) $N) us each), offline $t_off ms ($(per $((t_off * 1000)) $N) us each)"
all_on=$t_on all_off=$t_off
check "mpctl online/offline 0-$((SMALL - 1)) again" round 0-$((SMALL - 1)) $SMALL
small_on=$((small_on + t_on)) small_off=$((small_off + t_off))

# per segment, in us: the $SMALL from both of their rounds
res many_online_${SMALL}_us_per_seg "$(per $((small_on * 500)) $SMALL)"
res many_offline_${SMALL}_us_per_seg "$(per $((small_off * 500)) $SMALL)"
res many_online_${N}_us_per_seg "$(per $((all_on * 1000)) $N)"
res many_offline_${N}_us_per_seg "$(per $((all_off * 1000)) $N)"
# ratio A B: cost per segment of all $N (A ms) over that of $SMALL (B ms, 2 rounds)
ratio() { awk -v a="$1" -v b="$2" -v n=$N -v s=$SMALL \
	'BEGIN { if (b > 0) printf "%.2f", (a / n) / (b / 2 / s); else print "inf" }'; }
r_on=$(ratio $all_on $small_on) r_off=$(ratio $all_off $small_off)
ratio=$(ratio $((all_on + all_off)) $((small_on + small_off)))
res many_online_ratio_${N}_over_${SMALL} "$r_on"
res many_offline_ratio_${N}_over_${SMALL} "$r_off"
res many_cost_ratio_${N}_over_${SMALL} "$ratio"
check "linear: online+offline per segment of $N / of $SMALL = $ratio <= $MAX_RATIO (online $r_on, offline $r_off, each <= $MAX_RATIO_DIR)" \
	awk -v r="$ratio" -v a="$r_on" -v b="$r_off" -v m=$MAX_RATIO -v d=$MAX_RATIO_DIR \
	'BEGIN { exit !(r != "inf" && r + 0 <= m && a != "inf" && a + 0 <= d && b != "inf" && b + 0 <= d) }'

check "rmmod" rmmod cmm_mp

# the same range in 128 MiB segments: System RAM, the node's memory
check "cmm_mp loads on $MP_POOL_MEM with 128 MiB segments" load_cmm_mp
nr=$(cat /sys/class/cmm_mp/mp0/nr_segments)
t0=$(ms)
check "mpctl online all: $nr System RAM segments" "mpctl online all > /dev/null"
t_ram=$(($(ms) - t0))
kb=$((MP_POOL_SIZE / 1024))
check "MemTotal grew by the pool ($kb kB), all of it on node 1" \
	'[ $(($(memtotal_kb) - m0)) = $kb ] && [ $(($(node_memtotal_kb 1) - n0)) = $kb ]'
t0=$(ms)
check "mpctl offline all: MemTotal and node 1 back" \
	'mpctl offline all > /dev/null && [ "$(memtotal_kb)" = $m0 ] && [ "$(node_memtotal_kb 1)" = $n0 ]'
t_ramoff=$(($(ms) - t0))
diag "System RAM: $nr segments of 128 MiB online $t_ram ms, offline $t_ramoff ms"
res many_ram_online_ms_per_seg "$(per $t_ram $nr)"
res many_ram_offline_ms_per_seg "$(per $t_ramoff $nr)"
rmmod cmm_mp
dmesg -n 7
