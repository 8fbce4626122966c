#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --pool 256M --timeout 500 --append memory_hotplug.memmap_on_memory=1
#
# memmap_on_memory (mpctl online --memmap-on-memory): the struct pages of a
# hot-added segment come out of the segment itself, so node 1 gets the
# segment less its memmap (1/64 of it) and node 0 gives nothing, while a
# plain online takes the memmap from node 0. With node 0 filled with
# hugepages, the plain online's 2 MiB memmap block cannot be had from it,
# and --memmap-on-memory still succeeds, holds data and goes offline again.
# A segment of two memory blocks is refused with the reason.
. /selftests/lib.sh

SEG=134217728		# 128 MiB segments, one memory block each
SEG_KB=$((SEG / 1024))
MEMMAP_KB=$((SEG_KB / 64))	# 64-byte struct page per 4 KiB page
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

# The plain hot-add on the full node 0 below makes the kernel report the
# memmap it could not allocate (warn_alloc) and, when the hot-add fails,
# warn in add_pages() (6.1's WARN_ON_ONCE on any __add_pages() error):
# those two reports are expected, nothing else.
cat > /tmp/mp-klog-filter <<'EOF_FILTER'
#!/bin/sh
# selftests/cmm_mp/memmap.sh: the vmemmap allocation failure it provokes
exec awk '/vmemmap alloc failure/ { v = 1 }
	/WARNING: .* at arch\/x86\/mm\/init_64.c:[0-9]+ add_pages\+/ { v = 1; next }
	!(v && /Call Trace:/) { print }
	/<\/TASK>/ { v = 0 }'
EOF_FILTER
chmod +x /tmp/mp-klog-filter

tap_plan 31
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
check "node 0 did not: its free memory fell by $((F0 - F1)) kB < $((MEMMAP_KB / 2))" \
	test $((F0 - F1)) -lt $((MEMMAP_KB / 2))
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

# --- node 0 nearly full: every 2 MiB block of it that can be had is a
# hugepage. A plain hot-add then has to find its 2 MiB memmap on node 0:
# whether it still can (4 KiB pages left on the per-cpu lists, blocks of
# ZONE_DMA) is not deterministic under TCG, so either outcome is accepted
# as long as it is the right one: a failure that says why and changes
# nothing, or a success whose memmap came from node 0 (node 1 gets the
# whole segment). --memmap-on-memory needs nothing of node 0 and must
# succeed.
echo 100000 > /proc/sys/vm/nr_hugepages
HP=$(cat /proc/sys/vm/nr_hugepages)
diag "node 0 full: $HP hugepages; MemFree $(node_free_kb 0) kB"
check "node 0 nearly full: $HP hugepages, less than 64 MiB free" \
	"test \$(node_free_kb 0) -lt 65536"
IOMEM0=$(grep -c cmm_mp /proc/iomem)
if mpctl online 0 >/dev/null 2>/tmp/err0; then
	WITHOUT="succeeded, node 1 MemTotal $(node_memtotal_kb 1) kB"
	mpctl offline 0 >/dev/null
	WITHOUT_OK=$([ "${WITHOUT##* MemTotal }" = "$SEG_KB kB" ] && echo 0 || echo 1)
else
	WITHOUT="failed: $(cat /tmp/err0)"
	grep -q 'memmap' /tmp/err0 && grep -qx offline $S/seg0/state &&
		test "$(node_memtotal_kb 1)" = 0 &&
		test "$(grep -c cmm_mp /proc/iomem)" = "$IOMEM0"
	WITHOUT_OK=$?
fi
diag "plain online on the full node 0 $WITHOUT"
check "plain online: fails saying why with nothing changed, or takes the memmap from node 0" \
	test "$WITHOUT_OK" = 0
V0=$(dmesg | grep -c 'vmemmap alloc failure')
check "with --memmap-on-memory: online 0 succeeds on the full node 0" \
	"mpctl online 0 --memmap-on-memory > /tmp/on2.json"
check "node 1 MemTotal is the segment less its memmap" \
	test "$(node_memtotal_kb 1)" = $((SEG_KB - MEMMAP_KB))
check "no memmap allocation asked of node 0 this time" \
	test "$(dmesg | grep -c 'vmemmap alloc failure')" = "$V0"
check "JSON and sysfs say memmap_on_memory" \
	"grep -q '\"memmap_on_memory\":true' /tmp/on2.json && grep -qx 1 $S/seg0/memmap_on_memory"
check "32 MiB bound to node 1 read back intact" \
	numactl --membind=1 mp_touch -m 32 -s 9 -n 1
check "offline 0 on the full node 0" \
	"mpctl offline 0 && grep -qx offline $S/seg0/state && test \"\$(node_memtotal_kb 1)\" = 0"
echo 0 > /proc/sys/vm/nr_hugepages
echo 0 > /proc/sys/vm/nr_hugepages
check "node 0 free again ($(node_free_kb 0) kB)" "test \$(node_free_kb 0) -gt 1048576"
check "no OOM kill meanwhile" "! dmesg | grep -q 'Out of memory'"

# --- a segment of two memory blocks: 6.1 cannot put its memmap on it
check "cmm_mp reloaded with 256 MiB segments" \
	"rmmod cmm_mp && load_cmm_mp seg_size=268435456 && test \$(cat /sys/class/cmm_mp/mp0/nr_segments) = 1"
check "--memmap-on-memory on two blocks fails and says why" \
	"! mpctl online 0 --memmap-on-memory 2>/tmp/err2; grep -q 'exactly one memory block' /tmp/err2"
check "nothing changed: offline, node 1 empty" \
	"grep -qx offline $S/seg0/state && test \"\$(node_memtotal_kb 1)\" = 0"
check "the same segment onlines without the flag, and offlines" \
	"mpctl online 0 >/dev/null && test \"\$(node_memtotal_kb 1)\" = $((2 * SEG_KB)) && mpctl offline 0"
check "rmmod" "rmmod cmm_mp"
# the final check of guest-init reads the log through the filter too
check "kernel log clean but for the expected vmemmap allocation report" \
	"dmesg() { command dmesg | /tmp/mp-klog-filter; }; test -z \"\$(kernel_log_bad)\""
