#!/bin/sh
# ftrace's function profiler on the requesting guest during 4 KiB random
# reads on /dev/mpb3: calls and time per function (issue 24 analysis).
. /selftests/lib.sh
. /selftests/bench/bench_lib.sh
SEG=3
T=/sys/kernel/tracing
[ -d $T/trace_stat ] || mount -t tracefs nodev $T
if [ "$MP_HOST" = 1 ]; then
	tap_plan 1
	bench_pool; bench_ip
	barrier 2 300
	barrier 3 3000
	ok done
	exit 0
fi
tap_plan 1
bench_pool; bench_ip
barrier 2 300
bench_online_as $SEG blk >/dev/null 2>&1
for j in ${PROF_JOBS:-randread:4k}; do
rw=${j%%:*} bs=${j#*:}
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
for f in ${PROF_FUNCS:-mpb_queue_rq mpe_xfer_submit mpe_xmit vp_notify mpe_rcv mpe_rx_response mpe_xfer_end virtnet_poll net_rx_action __x64_sys_io_submit __x64_sys_io_getevents __common_interrupt aio_complete_rw mpe_rx_request mpe_frame_alloc mpb_io_done blk_mq_end_request __kmalloc kmem_cache_alloc get_random_u32 mpe_frame_prep hrtimer_start_range_ns ktime_get kfree_skb_reason consume_skb napi_gro_receive receive_buf virtqueue_add_outbuf skb_copy_bits}; do
	echo "$f" >> $T/set_ftrace_filter 2>/dev/null || echo "# no $f"
done
echo "# filter: $(wc -l < $T/set_ftrace_filter) functions"
echo 30000 > $T/buffer_size_kb
echo funcgraph-tail > $T/trace_options
echo nofuncgraph-irqs > $T/trace_options 2>/dev/null
echo function_graph > $T/current_tracer
echo > $T/trace
echo 1 > $T/tracing_on
fio --name=p --filename=/dev/mpb$SEG --rw=$rw --bs=$bs \
	--ioengine=libaio --direct=1 --iodepth=16 --runtime=${PROF_T:-4} --time_based --size=100% --minimal > /tmp/fio.out 2>/dev/null
echo 0 > $T/tracing_on
kb=${bs%k}
echo "=== FIO $j: $(cut -d';' -f7,8,48,49 /tmp/fio.out) ios=$(awk -F';' -v kb=$kb '{ print int(($6 + $47) / kb) }' /tmp/fio.out)"
awk '{ gsub(/ \[[a-z_0-9]+\]/, ""); d = ""
	if (match($0, /[0-9.]+ us/)) d = substr($0, RSTART, RLENGTH - 3)
	if (match($0, /\| *[a-zA-Z_0-9.]+\(\) \{/)) { n = substr($0, RSTART, RLENGTH); gsub(/[| (){]/, "", n); st[++sp] = n; ch[sp] = 0; next }
	if (match($0, /\| *\}/)) { if (sp > 0 && d != "") { n = st[sp]; c[n]++; t[n] += d; self[n] += d - ch[sp]; if (sp > 1) ch[sp - 1] += d } if (sp > 0) sp--; next }
	if (d != "" && match($0, /\| *[a-zA-Z_0-9.]+\(\);/)) { n = substr($0, RSTART, RLENGTH); gsub(/[| ();]/, "", n); c[n]++; t[n] += d; self[n] += d; if (sp > 0) ch[sp] += d } }
	END { for (k in c) printf "%-28s calls %8d total_ms %10.1f avg_us %8.2f self_ms %10.1f\n", k, c[k], t[k] / 1000, t[k] / c[k], self[k] / 1000 }' $T/trace | sort -k9 -g -r | sed "s/^/=== PROF $j /"
grep -m 40 -E "mpe_|mpb_|virtnet_poll|net_rx" $T/trace | sed "s/^/=== RAW /"
echo "# trace lines: $(wc -l < $T/trace), lost: $(cat $T/per_cpu/cpu0/stats | grep -i overrun)"
echo nop > $T/current_tracer
done
barrier 3 3000
ok done
