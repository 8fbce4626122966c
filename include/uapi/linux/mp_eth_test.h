/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * mp_eth: test and benchmark interface, the misc device /dev/mp_eth.
 *
 * It lets a privileged program move bytes between its memory and any pool
 * device's DRAM through the transport exactly as the pool device does, and
 * read the transport's state. Not a production data path: the pool device
 * (/dev/mps*, /dev/mpb*) is.
 */
#ifndef _UAPI_LINUX_MP_ETH_TEST_H
#define _UAPI_LINUX_MP_ETH_TEST_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define MPE_TEST_DEVICE		"/dev/mp_eth"
#define MPE_TEST_MAX_XFER	(16U << 20)	/* bytes per MPE_IOC_XFER */

enum mpe_test_op {
	MPE_TEST_READ = 1,	/* device DRAM -> buf */
	MPE_TEST_WRITE = 2,	/* buf -> device DRAM */
};

/*
 * One transfer: split into frames of at most max_payload bytes that are
 * pipelined within the window. The ioctl returns 0 or -1 with errno (the
 * first error of any frame: ETIMEDOUT, EHOSTUNREACH, or a NAK's errno such
 * as ERANGE or EACCES). A dst equal to the own device id is served from
 * the local DRAM without the network.
 */
struct mpe_test_xfer {
	__u32 op;		/* enum mpe_test_op */
	__u32 dst;		/* device id */
	__u64 offset;		/* in the device's DRAM */
	__u64 len;		/* 1 .. MPE_TEST_MAX_XFER */
	__u64 buf;		/* user address of len bytes */
	__u64 ns;		/* out: time spent in the kernel */
};

struct mpe_test_info {
	__u32 devid;		/* this device's id */
	__u32 nr_devs;		/* entries of the MAC table */
	__u32 max_payload;	/* bytes per frame */
	__u32 rift_entries;
	__u32 inflight;		/* RIFT entries in use now */
	__u32 start_sn;
	__u64 fail_ns;		/* bound: a request to a dead peer fails after */
	__u64 local_size;	/* bytes of local device DRAM */
	__u64 dropped;		/* frames dropped before reaching a peer */
};

struct mpe_test_peer {
	__u32 id;		/* in: device id */
	__u32 reachable;	/* out: 0 after a timeout, until it answers */
	__u32 inflight;		/* out: requests to it in flight */
	__u16 next_sn;		/* out: sequence number of the next request */
	__u16 ack;		/* out: cumulative ack sent to it */
	__u64 tx;
	__u64 rx;
	__u64 retransmits;
	__u64 duplicates;
	__u64 out_of_window;
	__u64 stale_responses;
	__u64 timeouts;
	__u64 naks;
	__u64 resyncs;
	__u64 skipped;
	__u64 fast_fails;
	__u64 malformed;
	__u64 refused;		/* accesses refused: -EACCES, segment not ours */
	/* requester's round-trip estimate of it (RFC 6298), in ns */
	__u64 srtt;		/* 0 until a round trip was measured */
	__u64 rttvar;
	__u64 rto;		/* current timeout before backoff */
	__u64 rtt_samples;	/* round trips measured */
};

#define MPE_IOC_MAGIC	0xB5
#define MPE_IOC_XFER	_IOWR(MPE_IOC_MAGIC, 1, struct mpe_test_xfer)
#define MPE_IOC_INFO	_IOR(MPE_IOC_MAGIC, 2, struct mpe_test_info)
#define MPE_IOC_PEER	_IOWR(MPE_IOC_MAGIC, 3, struct mpe_test_peer)

/*
 * Pool key (Documentation/security.rst), CAP_SYS_ADMIN: the one
 * administrative command of this device, used by `mpctl key`. The key is
 * never given back by any interface.
 *
 * MPE_KEY_SET     install key under id (replacing a key of the same id)
 *                 and sign every frame sent with it from now on; the
 *                 previous key stays accepted on receive
 * MPE_KEY_ACCEPT  install key under id for receiving only (the first step
 *                 of a rotation: every host accepts the new key before any
 *                 host signs with it)
 * MPE_KEY_CLEAR   forget every key (wiped): frames go out without a tag
 *                 and tags are refused again
 * At most two keys are held; installing a third replaces the one not in
 * use for sending.
 */
enum mpe_key_op {
	MPE_KEY_SET = 1,
	MPE_KEY_ACCEPT = 2,
	MPE_KEY_CLEAR = 3,
};

#define MPE_KEY_LEN	16	/* SipHash-2-4: 128-bit key */

struct mpe_test_key {
	__u32 op;		/* enum mpe_key_op */
	__u32 id;		/* key id carried in the trailer */
	__u8 key[MPE_KEY_LEN];
};

#define MPE_IOC_KEY	_IOW(MPE_IOC_MAGIC, 4, struct mpe_test_key)

#endif /* _UAPI_LINUX_MP_ETH_TEST_H */
