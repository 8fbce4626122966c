#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 2 --cxl 512M --pool 0 --timeout 600
#
# Two hosts whose pool devices both take their DRAM from a CXL region
# (QEMU cxl-type3 behind a CXL host bridge, `cxl create-region`, cmm_mp
# cxl_region=) form one pool over mp_eth: both list the same two devices
# of 512 MiB at PAMT offsets 0 and 512 MiB, and each host's random reads
# and writes to the other's CXL-backed DRAM go through the transport and
# check out against a model.
. /selftests/lib.sh
. /selftests/cmm_mp/cxl_lib.sh
. /selftests/mp_eth/mpe_lib.sh

MIB=1048576
flat() { tr -d ' \n'; }
devs_up() { mpctl list -D | flat | grep -o '"state":"up"' | wc -l; }
pooled() { test "$(cat /sys/class/cmm_mp/mp0/pool_state)" = runtime && test "$(devs_up)" = 2; }
# every device with its NHA (-v)
pool_view() { mpctl list -D -v | flat; }
PEER=$((1 - MP_HOST))

tap_plan 9
check "eth0 up (virtio_net)" mpe_net
check "CXL root and memdev enumerated (root0, mem0 bound)" cxl_enumerate
check "a pmem region over mem0" cxl_region_create
diag "host $MP_HOST: CXL region $R at $BASE, $SIZE bytes"
check "cmm_mp on $R, mp_eth with discovery on eth0" \
	"insmod /lib/modules/cmm-mp/cmm_mp.ko cxl_region=$R open_segs=1 && load_mp_eth netdev=eth0"
check "pool formed: runtime, 2 devices up" wait_until 180 pooled
check "barrier: both pooled" barrier 1 180
mpctl list -D >&2
check "two devices of 512 MiB, PAMT offsets 0 and 512 MiB" \
	"pool_view | grep -q '\"nha\":0,' && pool_view | grep -q '\"nha\":$((512 * MIB)),' && test \$(pool_view | grep -o '\"size\":$((512 * MIB))' | wc -l) = 2"
# random reads and writes in [16 MiB + 32 MiB * host, +32 MiB) of the peer
check "random reads and writes to the peer's CXL DRAM check out" \
	"mpe_test rand -d $PEER -r $((16 * MIB + MP_HOST * 32 * MIB)) -s $((32 * MIB)) -b 16M -j 2 -S $MP_HOST"
check "barrier: both done" barrier 2 600
