#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What `make demo` shows inside each guest: the hosts' pool devices find
# each other over raw Ethernet and form one pool; each host onlines one of
# its own segments as System RAM on its CPU-less pool node and runs
# stressapptest there; then every host reads and writes the other hosts'
# device DRAM through the transport, verified, and shows the counters.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh

say() { echo "# $*"; }
run() { say "\$ $*"; "$@" 2>&1 | sed 's/^/#   /'; }
D=/sys/class/cmm_mp/mp0

# one host: load, online, stressapptest, offline; more: the pool, the
# barriers and one remote transfer per other host too
if [ "$MP_HOSTS" -gt 1 ]; then tap_plan $((MP_HOSTS + 7)); else tap_plan 4; fi
say "host$MP_HOST: pool device DRAM $MP_POOL_MEM (memmap= reserved), node $MP_POOL_NODE"
check "cmm_mp loaded on the reserved range" load_cmm_mp
if [ "$MP_HOSTS" -gt 1 ]; then
	check "eth0 up, mp_eth loaded: discovery on the control EtherType" \
		"mpe_net && load_mp_eth netdev=eth0"
	wait_until 60 "test \"\$(cat $D/pool_state)\" = runtime &&
		test \$(mpctl list -D | grep -c '\"state\":\"up\"') -ge $MP_HOSTS"
	check "pool formed: $MP_HOSTS devices up, generation $(cat $D/generation)" \
		"test \"\$(cat $D/pool_state)\" = runtime"
	check "every device answers over the transport" barrier 1 120
fi
run mpctl list -D -u
# the second segment of this host's own device: the first holds the
# transport tests' barrier slots
SEG=$(( $(cat $D/first_segment 2>/dev/null || echo 0) + 1 ))
check "segment $SEG online: System RAM on the pool node" \
	"mpctl online $SEG && test \$(node_memtotal_kb 1) -gt 0"
say "MemTotal now $(memtotal_kb) kB; pool node: $(node_memtotal_kb 1) kB"
run numactl -H
say "stressapptest: 64 MiB for 10 s, bound to the pool node"
numactl --membind=1 stressapptest -M 64 -s 10 -m 2 -W > /tmp/sat.log 2>&1
SAT=$?
grep -E 'Status|Stats: Completed' /tmp/sat.log | sed 's/^/#   /'
check "stressapptest on the pool node: PASS" \
	"test $SAT = 0 && grep -q 'Status: PASS' /tmp/sat.log"
if [ "$MP_HOSTS" -gt 1 ]; then
	for p in $(others); do
		say "random reads and writes, 1 B .. 1 MiB, 32 MiB in all, to device $p's DRAM"
		check "remote memory of device $p: verified against a model" \
			mpe_test rand -d "$p" -r $((MIB + MP_HOST * 32 * MIB)) -s $((16 * MIB)) \
				-b $((32 * MIB)) -m $MIB -S $((MP_HOST + 7))
		run mpe_test lat -d "$p" -s 64 -n 200
	done
	run mpctl stats
	check "every device is done with the others' DRAM" barrier 2 120
fi
run mpctl offline $SEG
check "segment offline again, pool node empty" test "$(node_memtotal_kb 1)" = 0
