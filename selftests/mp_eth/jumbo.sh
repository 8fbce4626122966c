#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 2 --mtu 9000 --timeout 500
#
# Jumbo frames: a segment with MTU 9000 (bridge, taps, eth0). The same
# 8 MiB verified transfer (one write, one read back, each way at once) is
# made twice: with mp_eth capped to MTU 1500 (mtu=1500) and with the
# port's MTU. At 9000 a frame carries 8968 bytes instead of 1468: the
# frame counters must show about 6 times fewer frames. Then random
# reads and writes of 1 B .. 8 MiB are verified at MTU 9000, and an MTU
# change while mp_eth uses the port is refused with a clear message.
# Each load sizes the window of frames in flight from the receive ring
# and the frame size (192 frames of 1500 bytes, 64 of 9000); an explicit
# window_frames= is kept.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh

tap_plan 20
P=$(( (MP_HOST + 1) % MP_HOSTS ))
OFF=$(region "$MP_HOST")
LEN=$((8 * MIB))
mtu() { cat /sys/class/net/eth0/mtu; }
# window_frames in use: the parameter reads back what the load chose, and
# the load message says it too
win() {
	test "$(cat /sys/module/mp_eth/parameters/window_frames)" = "$1" &&
	dmesg | tail -n 50 | grep "mp_eth: device $MP_HOST of" | tail -n 1 |
		grep -q ", $1 frames in flight per peer,"
}
frames() { echo $(( $(peer_stat "$P" tx) + $(peer_stat "$P" rx) )); }
# xfer8: write 8 MiB of seed $1 to the peer, read it back: same checksum
xfer8() {
	mpe_test fill "$P" "$OFF" $LEN "$1" > /tmp/w &&
	mpe_test sum "$P" "$OFF" $LEN > /tmp/r || return 1
	w=$(awk '{print $2}' /tmp/w) r=$(awk '{print $2}' /tmp/r)
	diag "seed $1: wrote $w in $(awk '{print $4}' /tmp/w) ms, read $r in $(awk '{print $4}' /tmp/r) ms"
	test -n "$w" && test "$w" = "$r"
}

check "eth0 up with MTU 9000 (vmrun --mtu 9000: virtio host_mtu)" \
	"mpe_net && test \$(mtu) = 9000 && test \"$MP_MTU\" = 9000"

# --- capped to MTU 1500
check "mp_eth with mtu=1500: 1468 bytes per frame" \
	"mpe_load mtu=1500 && test \$(info_val max_payload) = 1468"
# virtio-net's receive ring holds 256 (QEMU's rx_queue_size): 3/4 of it
# when a frame fits 4 KiB, a third of that for frames of 9 KiB
check "window sized from the receive ring: 192 frames of 1500 bytes" win 192
# counted from before the barrier: the peer may start its transfer as
# soon as it passed the barrier, before we do
F0=$(frames)
check "barrier 1" barrier 1 120
check "8 MiB written and read back at 1468 B/frame, checksums equal" xfer8 1
# after the barrier the peer's transfer is counted too, whatever its pace
check "barrier 2" barrier 2 120
F1500=$(( $(frames) - F0 ))
diag "frames at 1468 B: $F1500"
check "mp_eth unloads" rmmod mp_eth

# --- the port's MTU
check "mp_eth with the port's MTU: 8968 bytes per frame" \
	"load_mp_eth netdev=eth0 devid=$MP_HOST peers=$(mpe_macs) && test \$(info_val max_payload) = 8968"
check "window sized from the receive ring: 64 frames of 9000 bytes" win 64
F0=$(frames)
check "barrier 3" barrier 3 120
check "8 MiB written and read back at 8968 B/frame, checksums equal" xfer8 2
check "barrier 4" barrier 4 120
F9000=$(( $(frames) - F0 ))
diag "frames at 8968 B: $F9000 (at 1468 B: $F1500)"
# each host writes and reads 8 MiB of the other, and serves the same:
# per host at least 2 * (2 * 936 + 2 * 117) = 4212 frames, for
# ceil(8 MiB / 8968) = 936 frames of payload each way, a write's
# ceil(8 MiB / (8 * 8968)) = 117 WRITE_ACKs and a read's 117 READ_REQs
# (MP_ETH_READ_PARTS parts each)
check "MTU 9000 moves the same bytes in 5x fewer frames ($F9000 vs $F1500)" \
	"test $F9000 -ge 4212 && test \$(( $F9000 * 5 )) -lt $F1500"
check "random reads/writes 1 B .. 8 MiB at MTU 9000, verified" \
	mpe_test rand -d "$P" -r "$OFF" -s $REGION_SIZE -b 48M -S "$MP_HOST"
check "counters: no timeouts, nothing in flight" \
	"test \$(peer_stat $P timeouts) = 0 && test \$(info_val inflight) = 0"
check "an MTU change under mp_eth is refused, clearly" \
	"! ip link set eth0 mtu 1500 2>/tmp/e && cat /tmp/e && dmesg | grep -q 'MTU change refused' && test \$(mtu) = 9000"
check "still 8968 bytes per frame and serving" \
	"test \$(info_val max_payload) = 8968 && xfer8 3"
check "barrier 5" barrier 5 120
check "after unloading mp_eth the MTU can change" \
	"rmmod mp_eth && ip link set eth0 mtu 1500 && test \$(mtu) = 1500"
check "an explicit window_frames is kept as given" \
	"load_mp_eth netdev=eth0 devid=$MP_HOST peers=$(mpe_macs) window_frames=100 && win 100 && rmmod mp_eth && rmmod cmm_mp"
