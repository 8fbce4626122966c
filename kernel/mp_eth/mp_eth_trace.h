/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mp_eth tracepoints: frames sent and received (after validation), and the
 * requester's retransmissions and timeouts.
 *
 *   echo 1 > /sys/kernel/tracing/events/mp_eth/enable
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mp_eth

#if !defined(_MP_ETH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MP_ETH_TRACE_H

#include <linux/tracepoint.h>

#include "mp_frame.h"
#include "mp_rift.h"

DECLARE_EVENT_CLASS(mp_eth_frame,
		    TP_PROTO(const struct mp_frame *f),
		    TP_ARGS(f),
		    TP_STRUCT__entry(__field(u64, offset)
				     __field(u32, len)
				     __field(int, status)
				     __field(u16, src)
				     __field(u16, dst)
				     __field(u16, sn)
				     __field(u16, tag)
				     __field(u16, ack)
				     __field(u16, flags)
				     __field(u8, op)),
		    TP_fast_assign(__entry->offset = f->offset;
				   __entry->len = f->len;
				   __entry->status = f->status;
				   __entry->src = f->src;
				   __entry->dst = f->dst;
				   __entry->sn = f->sn;
				   __entry->tag = f->tag;
				   __entry->ack = f->ack;
				   __entry->flags = f->flags;
				   __entry->op = f->op;),
		    TP_printk("op=%#x %u->%u sn=%u tag=%u ack=%u flags=%#x offset=%#llx len=%u status=%d",
			      __entry->op, __entry->src, __entry->dst,
			      __entry->sn, __entry->tag, __entry->ack,
			      __entry->flags, __entry->offset, __entry->len,
			      __entry->status)
);

DEFINE_EVENT(mp_eth_frame, mp_eth_send,
	     TP_PROTO(const struct mp_frame *f),
	     TP_ARGS(f)
);

DEFINE_EVENT(mp_eth_frame, mp_eth_recv,
	     TP_PROTO(const struct mp_frame *f),
	     TP_ARGS(f)
);

DECLARE_EVENT_CLASS(mp_eth_entry,
		    TP_PROTO(const struct mp_rift_entry *e, u64 now),
		    TP_ARGS(e, now),
		    TP_STRUCT__entry(__field(u64, offset)
				     __field(u64, age_ns)
				     __field(u32, len)
				     __field(u16, dst)
				     __field(u16, sn)
				     __field(u16, tag)
				     __field(u8, op)
				     __field(u8, retries)),
		    TP_fast_assign(__entry->offset = e->offset;
				   __entry->age_ns = now - e->first_tx;
				   __entry->len = e->len;
				   __entry->dst = e->dst;
				   __entry->sn = e->sn;
				   __entry->tag = e->tag;
				   __entry->op = e->op;
				   __entry->retries = e->retries;),
		    TP_printk("op=%#x dst=%u sn=%u tag=%u retries=%u age=%lluns offset=%#llx len=%u",
			      __entry->op, __entry->dst, __entry->sn,
			      __entry->tag, __entry->retries, __entry->age_ns,
			      __entry->offset, __entry->len)
);

DEFINE_EVENT(mp_eth_entry, mp_eth_retransmit,
	     TP_PROTO(const struct mp_rift_entry *e, u64 now),
	     TP_ARGS(e, now)
);

DEFINE_EVENT(mp_eth_entry, mp_eth_timeout,
	     TP_PROTO(const struct mp_rift_entry *e, u64 now),
	     TP_ARGS(e, now)
);

#endif /* _MP_ETH_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE mp_eth_trace
#include <trace/define_trace.h>
