#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --hosts 3 --timeout 600
#
# Three pool devices, every link impaired by netem (loss 5%, duplicate 2%,
# reorder 25%, delay 1 ms): each host reads and writes both others at the
# same time (random 1 B .. 8 MiB, verified against a model), so every
# device is requester and responder of two peers at once, each pair with
# its own sequence space and window.
. /selftests/lib.sh
. /selftests/mp_eth/mpe_lib.sh

tap_plan 9
check "eth0 up (virtio_net)" mpe_net
# Short timers for a lossy link, SLOW times longer on the debug kernel:
# there three guests on two cores answer in 0.3-0.4 s, the Debian rto_max.
check "cmm_mp and mp_eth load, start_sn=0xFFF0" \
	mpe_load start_sn=0xFFF0 rto_initial_us=$((20000 * SLOW)) \
		rto_max_us=$((400000 * SLOW)) max_retries=10
check "netem on eth0" mpe_netem
check "barrier: every peer answers" barrier 1 180
pids=
for p in $(others); do
	mpe_test rand -d "$p" -r "$(region "$MP_HOST")" -s $((16 * MIB)) -b 24M -m 8M \
		-S $((MP_HOST * 10 + p)) > /tmp/rand.$p 2>&1 &
	pids="$pids $!"
done
rc=0
for pid in $pids; do wait "$pid" || rc=1; done
cat /tmp/rand.* >&2
check "rand to both peers at once: verified, no error" test $rc = 0
total=0
for p in $(others); do
	total=$((total + $(sed -n 's/.*moved \([0-9]*\) MiB.*/\1/p' /tmp/rand.$p)))
done
check "moved $total MiB from this host" test "$total" -ge 80
for p in $(others); do mpe_test peer "$p" >&2; done
check "retransmits and duplicates with both peers" \
	"for p in $(others | tr '\n' ' '); do test \$(peer_stat \$p retransmits) -gt 0 && test \$(peer_stat \$p duplicates) -gt 0 && test \$(peer_stat \$p timeouts) = 0 || exit 1; done"
check "no request left in flight" test "$(info_val inflight)" = 0
check "end barrier" end_barrier 2 180
