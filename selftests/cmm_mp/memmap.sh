#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --pool 1G --timeout 500 --append memory_hotplug.memmap_on_memory=1
#
# memmap_on_memory (mpctl online --memmap-on-memory): the struct pages of a
# hot-added segment come out of the segment itself, so node 1 gets the
# segment less its memmap (1/64 of it) and node 0 gives nothing, while a
# plain online takes the memmap from node 0. A segment of eight memory
# blocks (1 GiB) is added block by block, each block's memmap on itself.
# With node 0 filled with hugepages, the plain online of that segment needs
# 16 MiB of memmap from node 0, more than its slack above the watermark and
# the per-cpu lists (a few MiB): the driver refuses it before any hot-add
# (MemAvailable below the memmap), saying why, every time, and changes
# nothing, while --memmap-on-memory succeeds, holds data and goes offline
# again. On a KASAN kernel (make check-debug) every block going online also
# takes its shadow, 1/8 of it, from node 0, with or without the flag: the
# measures and the fill below allow for it. An offline that one block refuses puts the blocks removed
# before it back in their zone: the segment stays whole.
. /selftests/lib.sh

SEG=134217728		# 128 MiB segments, one memory block each
SEG_KB=$((SEG / 1024))
MEMMAP_KB=$((SEG_KB / 64))	# 64-byte struct page per 4 KiB page
BIG=1073741824		# then one segment of eight memory blocks
BIG_KB=$((BIG / 1024))
BIG_MEMMAP_KB=$((BIG_KB / 64))
SHADOW_KB=0
BIG_SHADOW_KB=0
# KASAN_MORE_KB: what else a debug kernel takes from node 0 for a hot-add
# (redzones, kmemleak and stack depot records of its allocations; 1.4 MiB
# measured for one block), less than the memmap it must not take
KASAN_MORE_KB=0
if grep -qw kasan_report /proc/kallsyms; then
	SHADOW_KB=$((SEG_KB / 8))
	BIG_SHADOW_KB=$((BIG_KB / 8))
	KASAN_MORE_KB=$((MEMMAP_KB / 2))
fi
S=/sys/class/cmm_mp/mp0/segments
node_free_kb() { awk '/MemFree:/ {print $4}' "/sys/devices/system/node/node$1/meminfo"; }
# node0_free_kb: node 0's free pages, those on the per-cpu lists included
# (a hot-add drains them into the free count: MemFree alone jumps)
node0_free_kb() {
	awk '/^Node/ { n0 = ($2 == "0,") }
	     n0 && $1 == "pages" && $2 == "free" { p += $3 }
	     n0 && $1 == "count:" { p += $2 }
	     END { print p * 4 }' /proc/zoneinfo
}
# settle: wait (up to 10 s) until node 0's MemFree holds still for a
# second: the boot (the initrd freed late) and an offline free memory
# for a while after, more than the memmap measured below
settle() {
	_a=$(node_free_kb 0)
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		sleep 1
		_b=$(node_free_kb 0)
		_d=$((_b - _a))
		[ "${_d#-}" -lt 256 ] && return 0
		_a=$_b
	done
}

# The filler on the full node 0 below may be taken by the OOM killer: its
# report is expected, nothing else (a hot-add the driver let through to a
# failed vmemmap allocation would warn in add_pages(): that fails the test).
cat > /tmp/mp-klog-filter <<'EOF_FILTER'
#!/bin/sh
# selftests/cmm_mp/memmap.sh: an OOM kill of its filler
exec awk '/invoked oom-killer/ { v = 1 }
	!(v && /Call Trace:/) { print }
	/<\/TASK>/ { v = 0 }'
EOF_FILTER
chmod +x /tmp/mp-klog-filter

tap_plan 35
check "memory_hotplug.memmap_on_memory=1 on this kernel" \
	"grep -qx Y /sys/module/memory_hotplug/parameters/memmap_on_memory"
check "cmm_mp loads on $MP_POOL_MEM, 128 MiB segments" \
	"load_cmm_mp && test \$(cat /sys/class/cmm_mp/mp0/segment_size) = $SEG"

# --- plenty of memory: without the flag the memmap comes from node 0
settle
F0=$(node0_free_kb)
check "mpctl online 0 (memmap on node 0)" "mpctl online 0 > /tmp/on0.json"
F1=$(node0_free_kb)
diag "node 0 free $F0 -> $F1 kB (memmap ${MEMMAP_KB} kB)"
check "node 0 gave the memmap: its free memory fell by $((F0 - F1)) kB >= $((MEMMAP_KB * 3 / 4))" \
	test $((F0 - F1)) -ge $((MEMMAP_KB * 3 / 4))
check "node 1 MemTotal is the whole segment" test "$(node_memtotal_kb 1)" = $SEG_KB
check "sysfs memmap_on_memory 0, no JSON key" \
	"grep -qx 0 $S/seg0/memmap_on_memory && ! grep -q memmap_on_memory /tmp/on0.json"
check "offline 0" mpctl offline 0

# --- with the flag: the memmap comes out of the segment
settle
F0=$(node0_free_kb)
check "mpctl online 0 --memmap-on-memory" \
	"mpctl online 0 --memmap-on-memory > /tmp/on1.json"
F1=$(node0_free_kb)
diag "node 0 free $F0 -> $F1 kB with the memmap on the segment"
check "node 0 did not: its free memory fell by $((F0 - F1)) kB < $((MEMMAP_KB / 2)) (+ KASAN shadow $SHADOW_KB kB and $KASAN_MORE_KB kB)" \
	test $((F0 - F1)) -lt $((MEMMAP_KB / 2 + SHADOW_KB + KASAN_MORE_KB))
check "node 1 MemTotal is the segment less its memmap ($((SEG_KB - MEMMAP_KB)) kB)" \
	test "$(node_memtotal_kb 1)" = $((SEG_KB - MEMMAP_KB))
check "sysfs memmap_on_memory 1, JSON \"memmap_on_memory\":true (online, list)" \
	"grep -qx 1 $S/seg0/memmap_on_memory && grep -q '\"memmap_on_memory\":true' /tmp/on1.json && mpctl list -s 0 | grep -q '\"memmap_on_memory\":true'"
check "block online in ZONE_MOVABLE" \
	"grep -q Movable /sys/devices/system/memory/memory$(cat $S/seg0/memblock_first)/valid_zones"
check "64 MiB bound to node 1 read back intact" \
	numactl --membind=1 mp_touch -m 64 -s 5 -n 1
check "offline 0: node 1 empty, memmap_on_memory 0" \
	"mpctl offline 0 && test \"\$(node_memtotal_kb 1)\" = 0 && grep -qx 0 $S/seg0/memmap_on_memory"
check "--memmap-on-memory is for System RAM: usage error" \
	"! mpctl online 1 --as dax --memmap-on-memory 2>/tmp/err; grep -q 'for --as ram only' /tmp/err"

# --- one segment of eight memory blocks: added and removed block by block
check "cmm_mp reloaded with 1 GiB segments: one segment of 8 memory blocks" \
	"rmmod cmm_mp && load_cmm_mp seg_size=$BIG && test \$(cat /sys/class/cmm_mp/mp0/nr_segments) = 1 && test \$(cat $S/seg0/memblock_count) = 8"
B0=$(cat $S/seg0/memblock_first)
# blocks_present: how many of seg0's memory blocks exist now
blocks_present() {
	_n=0
	for _i in 0 1 2 3 4 5 6 7; do
		[ -d /sys/devices/system/memory/memory$((B0 + _i)) ] && _n=$((_n + 1))
	done
	echo $_n
}
# zones: each block's zone, or "-" for an absent one
zones() {
	for _i in 0 1 2 3 4 5 6 7; do
		_z=/sys/devices/system/memory/memory$((B0 + _i))/valid_zones
		[ -e $_z ] && printf '%s ' "$(cat $_z)" || printf '%s ' -
	done
}

# node 0 nearly full. What an order-0 allocation of the kernel (the
# memmap falls back to 4 KiB pages) can still get there is its slack: free
# pages above the min watermark, those on the per-cpu lists included
# (they are handed out without a watermark check). The per-cpu lists grow
# with the low watermark, which THP raises to ~44 MiB on this 1 GiB node
# (per-cpu lists of ~30 MiB): THP off and min_free_kbytes at the kernel's
# own default for 1 GiB keep them at a few MiB. Then hugepages take node 0
# down to a slack between 7 MiB (the shell and mpctl keep running, no OOM,
# while the failing hot-add takes it all for a moment) and 11 MiB, well
# below the 16 MiB a plain hot-add of the segment needs; anonymous memory
# held on node 0 takes what fragmentation left over.
# (ZONE_DMA's free pages are out of reach: its lowmem reserve), and what
# its reclaim can free: reclaimable slab (the dentries and inodes of sysfs
# and proc that the test reads) and file pages
# node0_slack_kb [noreclaim]: without what reclaim can free
node0_slack_kb() {
	_r=0
	[ $# = 0 ] && _r=$(awk '/^Node 0 (SReclaimable|Active\(file\)|Inactive\(file\)):/ { k += $4 }
		  END { print k + 0 }' /sys/devices/system/node/node0/meminfo)
	awk -v r="$_r" '/^Node/ { n0 = ($2 == "0," && $4 != "DMA") }
	     n0 && $1 == "pages" && $2 == "free" { p += $3 }
	     n0 && $1 == "min" { p -= $2 }
	     n0 && $1 == "count:" { p += $2 }
	     END { print p * 4 + r }' /proc/zoneinfo
}
echo never > /sys/kernel/mm/transparent_hugepage/enabled
echo 4096 > /proc/sys/vm/min_free_kbytes
echo 3 > /proc/sys/vm/drop_caches
# as many hugepages as leave 8 MiB of slack (on a KASAN kernel, 8 MiB
# more than the segment's shadow): asking for all of them would take it
# to nothing, and the shell's next fork to the OOM killer
echo $((($(node0_slack_kb) - 9216 - BIG_SHADOW_KB) / 2048)) > /proc/sys/vm/nr_hugepages
while [ "$(node0_slack_kb)" -lt $((7168 + BIG_SHADOW_KB)) ] &&
      [ "$(cat /proc/sys/vm/nr_hugepages)" -gt 0 ]; do
	echo $(($(cat /proc/sys/vm/nr_hugepages) - 1)) > /proc/sys/vm/nr_hugepages
done
# The filler (at least 1 MiB) is also the one the OOM killer is to take:
# while the plain hot-add fails it holds node 0 at its min watermark, and
# an allocation that comes then (mpctl's own page fault) may invoke it.
# Sized on the free pages alone: the reclaimable ones counted in the
# slack could not always be reclaimed in time, and a filler that took
# them too was killed while it filled, with the next fork of this shell
# invoking the OOM killer again before the filler's memory was back (the
# shell was taken once). What reclaim can free stays in the slack.
SL=$(node0_slack_kb)
SLF=$(node0_slack_kb noreclaim)
FILL_MB=1
[ "$SLF" -gt $((11264 + BIG_SHADOW_KB)) ] && FILL_MB=$(((SLF - 9216 - BIG_SHADOW_KB) / 1024))
numactl --membind=0 mp_touch -m $FILL_MB -s 3 -w /tmp/fill-ready > /tmp/fill.out 2>&1 &
FILL=$!
echo 1000 > /proc/$FILL/oom_score_adj
# ready, or taken by the OOM killer while it filled (the slack counts
# reclaimable pages that reclaim could not free in time): its memory is
# free again then, and node 0's slack is checked below either way (not
# kill -0: it succeeds on a zombie the shell has not reaped yet)
wait_until 60 "test -e /tmp/fill-ready || ! grep -qs '^State:.*[RSD]' /proc/$FILL/status"
mem_avail_kb() { awk '/^MemAvailable:/ { print $2 }' /proc/meminfo; }
# The driver measures MemAvailable, which is a few MiB below the slack
# (it keeps the high watermark): on a KASAN kernel the online with the
# flag needs the whole shadow of it, so hugepages go back until MemAvailable
# holds the shadow and 6 MiB more (a no-op on a kernel without KASAN)
echo 3 > /proc/sys/vm/drop_caches
while [ "$(mem_avail_kb)" -lt $((BIG_SHADOW_KB + 6144)) ] &&
      [ "$(cat /proc/sys/vm/nr_hugepages)" -gt 0 ]; do
	echo $(($(cat /proc/sys/vm/nr_hugepages) - 1)) > /proc/sys/vm/nr_hugepages
done
HP=$(cat /proc/sys/vm/nr_hugepages)
echo 3 > /proc/sys/vm/drop_caches
diag "node 0 full: $HP hugepages, $FILL_MB MiB held; MemFree $(node_free_kb 0) kB, slack $SL -> $(node0_slack_kb) kB, $(node0_slack_kb noreclaim) kB of it free; MemAvailable $(mem_avail_kb) kB"
check "node 0 nearly full: $HP hugepages, free above the min watermark and MemAvailable under the $BIG_MEMMAP_KB kB memmap (+ KASAN shadow $BIG_SHADOW_KB kB)" \
	"test \$(node0_slack_kb noreclaim) -lt $((BIG_MEMMAP_KB + BIG_SHADOW_KB)) &&
	 test \$(mem_avail_kb) -lt $((BIG_MEMMAP_KB + BIG_SHADOW_KB)) &&
	 test \$(mem_avail_kb) -ge $BIG_SHADOW_KB"
IOMEM0=$(grep -c cmm_mp /proc/iomem)
mpctl online 0 >/dev/null 2>/tmp/err0
RC=$?
diag "plain online on the full node 0 -> $RC: $(cat /tmp/err0); slack after $(node0_slack_kb) kB"
check "plain online refused, saying the memmap does not fit" \
	"test $RC != 0 && grep -q 'too little free memory for its memmap' /tmp/err0"
check "refused before any hot-add: the kernel says so, no vmemmap allocation tried" \
	"dmesg | grep -q 'hot-add refused: it needs $((BIG_MEMMAP_KB + BIG_SHADOW_KB)) KiB of other memory (memmap' &&
	 test \$(dmesg | grep -c 'vmemmap alloc failure') = 0"
check "nothing changed: offline, node 1 empty, no memory block, /proc/iomem as before" \
	"grep -qx offline $S/seg0/state && test \"\$(node_memtotal_kb 1)\" = 0 &&
	 test \$(blocks_present) = 0 && test \$(grep -c cmm_mp /proc/iomem) = $IOMEM0"
V0=$(dmesg | grep -c 'vmemmap alloc failure')
check "with --memmap-on-memory: online 0 succeeds on the full node 0" \
	"mpctl online 0 --memmap-on-memory > /tmp/on2.json"
diag "zones: $(zones)"
check "node 1 MemTotal is the segment less its memmap ($((BIG_KB - BIG_MEMMAP_KB)) kB)" \
	test "$(node_memtotal_kb 1)" = $((BIG_KB - BIG_MEMMAP_KB))
check "all 8 blocks online in ZONE_MOVABLE, one System RAM (cmm_mp) per block" \
	"test \$(cat $S/seg0/memblock_online) = 8 && test \$(zones | tr ' ' '\\n' | grep -cx Movable) = 8 &&
	 test \$(grep -c 'System RAM (cmm_mp)' /proc/iomem) = 8"
check "no memmap allocation asked of node 0 this time" \
	test "$(dmesg | grep -c 'vmemmap alloc failure')" = "$V0"
check "JSON and sysfs say memmap_on_memory" \
	"grep -q '\"memmap_on_memory\":true' /tmp/on2.json && grep -qx 1 $S/seg0/memmap_on_memory"
check "256 MiB bound to node 1 read back intact" \
	numactl --membind=1 mp_touch -m 256 -s 9 -n 1
check "offline 0 on the full node 0: offline, node 1 empty, no block, iomem as before" \
	"mpctl offline 0 && grep -qx offline $S/seg0/state && test \"\$(node_memtotal_kb 1)\" = 0 &&
	 test \$(blocks_present) = 0 && test \$(grep -c cmm_mp /proc/iomem) = $IOMEM0"
echo 0 > /proc/sys/vm/nr_hugepages
kill -USR1 $FILL 2>/dev/null
wait $FILL
FILL_RC=$?
diag "the filler on node 0 exited $FILL_RC; OOM kills: $(dmesg | grep -c 'Killed process')"
check "node 0 free again ($(node_free_kb 0) kB); the filler's data intact, or the OOM killer took it" \
	"test \$(node_free_kb 0) -gt 524288 &&
	 { test $FILL_RC = 0 || { test $FILL_RC = 137 && dmesg | grep -q 'Killed process $FILL '; }; }"
check "the OOM killer took nothing but the filler" \
	"test -z \"\$(dmesg | grep 'Killed process' | grep -v 'Killed process $FILL ')\""

# --- an offline that the last block refuses: page tables of a process
# bound to node 1 can only go to its one block in ZONE_NORMAL. The seven
# blocks before it are removed first, then added back (offline) by the
# kernel and onlined again in ZONE_MOVABLE by mpctl.
LAST=$((B0 + 7))
check "online 0 --memmap-on-memory; block $LAST moved to ZONE_NORMAL" \
	"mpctl online 0 --memmap-on-memory >/dev/null &&
	 echo offline > /sys/devices/system/memory/memory$LAST/state &&
	 echo online_kernel > /sys/devices/system/memory/memory$LAST/state &&
	 grep -q Normal /sys/devices/system/memory/memory$LAST/valid_zones"
Z1=$(zones)
M1=$(node_memtotal_kb 1)
numactl --membind=1 mp_touch -m 16 -s 9 -p 4000 -w /tmp/ready > /tmp/touch.out 2>&1 &
T=$!
wait_until 60 test -e /tmp/ready
mpctl offline 0 > /tmp/off.out 2> /tmp/off.err
RC=$?
diag "mpctl offline 0 -> $RC: $(cat /tmp/off.err)"
diag "zones before: $Z1; after: $(zones)"
check "offline refused: exit 6, naming block $LAST (ZONE_NORMAL) and why" \
	"test $RC = 6 && grep -q 'memory block $LAST (ZONE_NORMAL) cannot go offline: unmovable' /tmp/off.err"
check "the kernel removed the 7 blocks before it and put them back" \
	"dmesg | grep -q 'memory block $LAST cannot go offline: -16; adding back the 7 block(s) removed before it'"
check "the segment is whole: online-ram, 8 blocks online in their zones, node 1 as before" \
	"grep -qx online-ram $S/seg0/state && test \$(cat $S/seg0/memblock_online) = 8 &&
	 test \"\$(zones)\" = \"$Z1\" && test \$(node_memtotal_kb 1) = $M1 &&
	 test \$(grep -c 'System RAM (cmm_mp)' /proc/iomem) = 8"
kill -USR1 $T
wait $T
check "the process's data read back intact" test $? = 0
# page tables freed, slab it caused on block $LAST may stay: the segment
# may stay online, which the shutdown does not mind
# the final check of guest-init reads the log through the filter too
check "kernel log clean but for an OOM kill of the filler" \
	"dmesg() { command dmesg | /tmp/mp-klog-filter; }; test -z \"\$(kernel_log_bad)\""
