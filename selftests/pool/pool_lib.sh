# SPDX-License-Identifier: GPL-2.0
# Helpers of the pool scenarios, sourced after /selftests/lib.sh and
# /selftests/mp_eth/mpe_lib.sh: the pool device's sysfs, mpctl's JSON
# flattened for grep, the pool's state.
D=/sys/class/cmm_mp/mp0
flat() { tr -d ' \n'; }
pstate() { cat $D/pool_state; }
devs_up() { mpctl list -D | flat | grep -o '"state":"up"' | wc -l; }
# runtime_with N: the pool is formed with N devices up
runtime_with() { test "$(pstate)" = runtime && test "$(devs_up)" = "$1"; }
seg_json() { mpctl list -s "$1" | flat; }
seg_has() { seg_json "$1" | grep -q "$2"; }
load_eth() { load_mp_eth netdev=eth0 "$@"; }
# sum_of FILE: the checksum mps_test printed
sum_of() { sed -n 's/.*sum=\([0-9a-f]*\).*/\1/p' "$1"; }
