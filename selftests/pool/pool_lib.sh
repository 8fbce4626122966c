# SPDX-License-Identifier: GPL-2.0
# Helpers of the pool scenarios, sourced after /selftests/lib.sh and
# /selftests/mp_eth/mpe_lib.sh (which has the pool's state: D, flat,
# pstate, devs_up, runtime_with, load_eth, pool_up): segments in mpctl's JSON, checksums.
seg_json() { mpctl list -s "$1" | flat; }
seg_has() { seg_json "$1" | grep -q "$2"; }
# sum_of FILE: the checksum mps_test printed
sum_of() { sed -n 's/.*sum=\([0-9a-f]*\).*/\1/p' "$1"; }
# cg_fill CG MIB: swap_fill of MIB MiB in cgroup CG (its memory.max below
# MIB pushes pages to swap); its output in /tmp/fill.out, and on stdout
cg_fill() {
	sh -c "echo \$\$ > $1/cgroup.procs && exec swap_fill -m $2" > /tmp/fill.out
	_r=$?
	cat /tmp/fill.out
	return $_r
}
