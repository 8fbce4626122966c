#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What `make demo` shows inside each guest: the pool device, a segment
# onlined as System RAM on its own CPU-less NUMA node, and a workload
# (stressapptest) running on that node.
. /selftests/lib.sh

say() { echo "# $*"; }
run() { say "\$ $*"; "$@" 2>&1 | sed 's/^/#   /'; }

say "host$MP_HOST: pool device DRAM $MP_POOL_MEM (memmap= reserved), node $MP_POOL_NODE"
run insmod /lib/modules/cmm-mp/cmm_mp.ko mem="$MP_POOL_MEM"
run mpctl list -u
run mpctl online 0
say "MemTotal now $(memtotal_kb) kB; pool node: $(node_memtotal_kb 1) kB"
run numactl -H
run mpctl list -s 0 -u
say "stressapptest: 64 MiB for 10 s, bound to the pool node"
numactl --membind=1 stressapptest -M 64 -s 10 -m 2 -W > /tmp/sat.log 2>&1
SAT=$?
grep -E 'Status|Stats: Completed|Error' /tmp/sat.log | sed 's/^/#   /'
if [ $SAT = 0 ] && grep -q 'Status: PASS' /tmp/sat.log; then
	ok "stressapptest on the pool node: PASS"
else
	fail "stressapptest on the pool node"
fi
run grep -E 'MemTotal|MemUsed' /sys/devices/system/node/node1/meminfo
run mpctl offline 0
check "segment offline again, MemTotal back" test "$(node_memtotal_kb 1)" = 0
