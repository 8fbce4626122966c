// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: instantiates the tracepoints of mp_eth_trace.h.
 */
#define CREATE_TRACE_POINTS
#include "mp_eth_trace.h"
