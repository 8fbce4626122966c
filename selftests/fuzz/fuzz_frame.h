/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Input format of fuzz_frame, shared with its seed generator.
 *
 * byte 0      configuration: bits 0-1 pick max_payload from
 *             fuzz_max_payload[], bit 2 sends requests without an ack
 *             (paper mode).
 * then        records until the input ends:
 *   u8 cmd    low 2 bits: enum fuzz_cmd; the other bits are arguments
 *   u8 dt     the clock advances by dt * FUZZ_TICK_NS before the record
 *   u16 len   little endian, clamped to what is left of the input
 *   len bytes a frame (FUZZ_RX) or argument bytes
 */
#ifndef _FUZZ_FRAME_H
#define _FUZZ_FRAME_H

#include "mp_types.h"

/* libFuzzer's entry point (declared for -Wmissing-prototypes). */
int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

#define FUZZ_TICK_NS	7000000ULL	/* 7 ms: timeouts fire within a few */
#define FUZZ_REC_HDR	4

enum fuzz_cmd {
	FUZZ_RX,	/* deliver the bytes as a received frame */
	FUZZ_SEND,	/* allocate a request in the RIFT and send it: cmd
			 * bits 2-3 the destination, bit 6 a write, bit 7 a
			 * read in parts (stride 1 + arg[len - 2] % 256)
			 */
	FUZZ_POLL,	/* run the RIFT timers; cmd bit 2: reset peer
			 * cmd >> 4 (generation change), bit 3: mark it alive
			 */
	FUZZ_WINDOW,	/* cmd bit 2: reset a window, else expire it */
};

static const unsigned int fuzz_max_payload[4] = {
	1500 - 32, 9000 - 32, 64, 4096,
};

#endif /* _FUZZ_FRAME_H */
