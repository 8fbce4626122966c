#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 2 --timeout 600
#
# Both links impaired inside the guests (netem on eth0: loss 5%, duplicate
# 2%, reorder 25%, delay 1 ms). Sequence numbers start at 0xFFF0, so they
# wrap within the first 16 requests. Each host moves at least 128 MiB to
# and from the other (random reads and writes, 1 B .. 8 MiB, verified
# against a model: 256 MiB per run at least), then runs a write-after-write
# test: an old duplicate must never overwrite newer data. The counters must
# show that retransmissions and duplicates happened.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh

tap_plan 13
P=$(( (MP_HOST + 1) % MP_HOSTS ))
check "eth0 up (virtio_net)" mpe_net
# Retries for a lossy link: a frame fails only after 10 retransmissions.
check "cmm_mp and mp_eth load, start_sn=0xFFF0" \
	mpe_load start_sn=0xFFF0 rto_initial_us=20000 rto_max_us=400000 max_retries=10
check "netem loss 5% duplicate 2% reorder 25% delay 1ms on eth0" mpe_netem
tc qdisc show dev eth0 >&2
check "barrier: every peer answers" barrier 1 120
check "rand under netem: >= 128 MiB to device $P, verified, no error" \
	"mpe_test rand -d $P -r $(region "$MP_HOST") -s $REGION_SIZE -b 96M -j 2 -S $((MP_HOST + 10)) | tee /tmp/rand.out"
moved=$(sed -n 's/.*moved \([0-9]*\) MiB.*/\1/p' /tmp/rand.out)
check "moved ${moved:-0} MiB from this host (>= 128, both hosts: >= 256)" test "${moved:-0}" -ge 128
check "write-after-write under duplication: never an older version" \
	mpe_test waw -d "$P" -r $(( $(region "$MP_HOST") + REGION_SIZE - 4096 )) -n 150 -k 8
mpe_test peer "$P" >&2
check "retransmits happened ($(peer_stat $P retransmits))" test "$(peer_stat $P retransmits)" -gt 0
# 1 ms each way, except the quarter netem reorders by sending it at once
check "round trip measured through netem's delay: srtt $(peer_stat $P srtt_us) us >= 1000, timeout $(peer_stat $P rto_us) us above it" \
	"test \$(peer_stat $P srtt_us) -ge 1000 && test \$(peer_stat $P rto_us) -gt \$(peer_stat $P srtt_us)"
check "duplicates happened ($(peer_stat $P duplicates))" test "$(peer_stat $P duplicates)" -gt 0
check "sequence numbers wrapped: next_sn $(peer_stat $P next_sn) after $(peer_stat $P tx) frames from 0xfff0" \
	"n=\$(peer_stat $P next_sn); test \$((n)) -lt \$((0xfff0)) && test \$(peer_stat $P timeouts) = 0"
check "no request left in flight, no timeouts" test "$(info_val inflight)" = 0
check "end barrier" end_barrier 2 120
