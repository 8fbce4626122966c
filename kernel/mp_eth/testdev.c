// SPDX-License-Identifier: GPL-2.0
/*
 * mp_eth: the test device /dev/mp_eth (include/uapi/linux/mp_eth_test.h).
 *
 * Moves bytes between a test program and any device's DRAM through the
 * transport, exactly as the pool device does, and reports the transport's
 * state. CAP_SYS_ADMIN only: it reaches every byte of every pool device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/mp_eth_test.h>

#include "mp_eth.h"
#include <linux/cmm_mp_backend.h>
#include <linux/cmm_mp_pin.h>

static struct mpe *mpe_test_m;

/*
 * Is @dst our own device id (the data path running)? *@chip: our chip id
 * then. The test device names devices by the transport's ids (peers= and
 * devid=, or what discovery found), and only the transport knows which
 * one is ours: with a static table the pool device forms no pool and
 * calls itself device 0 on every host. So this is the one question of
 * "is it local?" that mp_eth answers, for its test device alone; the
 * requester (mpe_xfer()) carries remote accesses only, as the pool device
 * (kernel/cmm_mp/remote.c) hands it.
 */
static bool mpe_test_self(struct mpe *m, u32 dst, u64 *chip)
{
	const struct mpe_memb *mb;
	bool self;

	rcu_read_lock();
	mb = rcu_dereference(m->memb);
	self = mb->running && dst == mb->devid && dst < mb->nr_devs;
	*chip = self ? mb->dev[dst].chip : 0;
	rcu_read_unlock();
	return self;
}

/*
 * A transfer to our own device: the pool device's DRAM, in pieces of one
 * frame's payload as a peer's requests would be (each atomic under its
 * memory lock, which is held for no longer than a frame's copy).
 */
static int mpe_test_local(struct mpe *m, u64 chip, bool write, u64 offset,
			  struct iov_iter *iter)
{
	u32 done, n, step = mpe_max_payload(m), len = iov_iter_count(iter);
	struct iov_iter cur = *iter, it;
	int ret = 0;

	if (offset + len < offset)
		return -EINVAL;
	for (done = 0; done < len && !ret; done += n) {
		n = min(len - done, step);
		it = cur;
		iov_iter_truncate(&it, n);
		iov_iter_advance(&cur, n);
		if (write)
			ret = mp_local_write_iter(chip, offset + done, &it);
		else
			ret = mp_local_read_iter(chip, offset + done, &it);
		cond_resched();
	}
	return ret;
}

/* The caller's buffer is pinned, not copied: the frames take its bytes. */
static long mpe_ioc_xfer(struct mpe *m, void __user *arg)
{
	struct mpe_test_xfer x;
	struct mp_pinned p;
	u64 t0, chip;
	int ret;

	if (copy_from_user(&x, arg, sizeof(x)))
		return -EFAULT;
	if ((x.op != MPE_TEST_READ && x.op != MPE_TEST_WRITE) ||
	    !x.len || x.len > MPE_TEST_MAX_XFER || x.dst > U16_MAX)
		return -EINVAL;
	ret = mp_pin_user(&p, u64_to_user_ptr(x.buf), x.len,
			  x.op == MPE_TEST_READ);
	if (ret)
		return ret;
	t0 = ktime_get_ns();
	if (mpe_test_self(m, x.dst, &chip))
		ret = mpe_test_local(m, chip, x.op == MPE_TEST_WRITE, x.offset,
				     &p.iter);
	else
		ret = mpe_xfer(m, x.op == MPE_TEST_READ ? MP_ETH_OP_READ_REQ :
			       MP_ETH_OP_WRITE_REQ, x.dst, x.offset, &p.iter);
	x.ns = ktime_get_ns() - t0;
	mp_unpin(&p);
	if (!ret && copy_to_user(arg, &x, sizeof(x)))
		ret = -EFAULT;
	return ret;
}

static long mpe_ioc_info(struct mpe *m, void __user *arg)
{
	struct mpe_test_info i;

	memset(&i, 0, sizeof(i));
	rcu_read_lock();
	i.devid = rcu_dereference(m->memb)->devid;
	i.nr_devs = rcu_dereference(m->memb)->nr_devs;
	rcu_read_unlock();
	i.max_payload = mpe_max_payload(m);
	i.rift_entries = mpe_rift_entries(m);
	i.inflight = mpe_inflight(m);
	i.start_sn = m->cfg.start_sn;
	i.fail_ns = mp_rift_fail_time(&m->cfg.rift);
	i.local_size = mp_local_size();
	i.dropped = atomic64_read(&m->dropped);
	return copy_to_user(arg, &i, sizeof(i)) ? -EFAULT : 0;
}

static long mpe_ioc_peer(struct mpe *m, void __user *arg)
{
	struct mpe_test_peer p;
	struct mp_peer_stats st;
	struct mpe_peer *peer;
	struct mpe_rq *q;
	bool reachable;
	u32 inflight;
	u16 nr;

	if (copy_from_user(&p, arg, sizeof(p)))
		return -EFAULT;
	rcu_read_lock();
	nr = rcu_dereference(m->memb)->nr_devs;
	rcu_read_unlock();
	peer = p.id < nr ? mpe_peer(m, p.id) : NULL;
	if (!peer)
		return -ENOENT;
	mpe_peer_stats(m, p.id, &st, &inflight, &reachable);
	p.reachable = reachable;
	p.inflight = inflight;
	q = &peer->req;
	spin_lock_bh(&q->lock);
	/* the destination's RIFT has its one slot */
	p.next_sn = q->rift.peer[0].next_sn;
	p.ack = mp_rift_ack(&q->rift, p.id);
	p.srtt = q->rift.peer[0].srtt;
	p.rttvar = q->rift.peer[0].rttvar;
	p.rtt_samples = q->rift.peer[0].samples;
	p.rto = mp_rift_peer_rto(&q->rift, p.id);
	spin_unlock_bh(&q->lock);
	p.tx = st.tx;
	p.rx = st.rx;
	p.retransmits = st.retransmits;
	p.duplicates = st.duplicates;
	p.out_of_window = st.out_of_window;
	p.stale_responses = st.stale_responses;
	p.timeouts = st.timeouts;
	p.naks = st.naks;
	p.resyncs = st.resyncs;
	p.skipped = st.skipped;
	p.fast_fails = st.fast_fails;
	p.malformed = st.malformed;
	p.refused = st.refused;
	return copy_to_user(arg, &p, sizeof(p)) ? -EFAULT : 0;
}

static long mpe_ioc_key(struct mpe *m, void __user *arg)
{
	struct mpe_test_key k;
	int ret;

	if (copy_from_user(&k, arg, sizeof(k))) {
		/* part of a key may have been copied: wipe it too */
		memzero_explicit(&k, sizeof(k));
		return -EFAULT;
	}
	ret = mpe_auth_set(m, k.op, k.id, k.key);
	memzero_explicit(&k, sizeof(k));
	return ret;
}

static long mpe_test_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct mpe *m = mpe_test_m;
	void __user *uarg = (void __user *)arg;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	switch (cmd) {
	case MPE_IOC_XFER:
		return mpe_ioc_xfer(m, uarg);
	case MPE_IOC_INFO:
		return mpe_ioc_info(m, uarg);
	case MPE_IOC_PEER:
		return mpe_ioc_peer(m, uarg);
	case MPE_IOC_KEY:
		return mpe_ioc_key(m, uarg);
	default:
		return -ENOTTY;
	}
}

/*
 * /sys/class/misc/mp_eth/drops/: frames the receive path dropped, by
 * reason (struct mpe_drops), and all of them (dropped, discovery's
 * refusals included). Read-only, for everyone: counters, no pool data.
 */
#define MPE_COUNTER_ATTR(_name, _expr)					\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%lld\n", (s64)atomic64_read(_expr));	\
}									\
static DEVICE_ATTR_RO(_name)

MPE_COUNTER_ATTR(dropped, &mpe_test_m->dropped);
MPE_COUNTER_ATTR(malformed, &mpe_test_m->drops.malformed);
MPE_COUNTER_ATTR(wrong_ethertype, &mpe_test_m->drops.wrong_ethertype);
MPE_COUNTER_ATTR(unknown_src, &mpe_test_m->drops.unknown_src);
MPE_COUNTER_ATTR(forged_src, &mpe_test_m->drops.forged_src);
MPE_COUNTER_ATTR(not_for_us, &mpe_test_m->drops.not_for_us);
MPE_COUNTER_ATTR(wrong_gen, &mpe_test_m->drops.wrong_gen);
MPE_COUNTER_ATTR(not_running, &mpe_test_m->drops.not_running);
MPE_COUNTER_ATTR(control_ignored, &mpe_test_m->drops.control_ignored);
MPE_COUNTER_ATTR(no_tag, &mpe_test_m->drops.no_tag);
MPE_COUNTER_ATTR(bad_tag, &mpe_test_m->drops.bad_tag);
MPE_COUNTER_ATTR(stale_stamp, &mpe_test_m->drops.stale_stamp);
MPE_COUNTER_ATTR(replayed, &mpe_test_m->drops.replayed);

static struct attribute *mpe_drops_attrs[] = {
	&dev_attr_dropped.attr,
	&dev_attr_malformed.attr,
	&dev_attr_wrong_ethertype.attr,
	&dev_attr_unknown_src.attr,
	&dev_attr_forged_src.attr,
	&dev_attr_not_for_us.attr,
	&dev_attr_wrong_gen.attr,
	&dev_attr_not_running.attr,
	&dev_attr_control_ignored.attr,
	&dev_attr_no_tag.attr,
	&dev_attr_bad_tag.attr,
	&dev_attr_stale_stamp.attr,
	&dev_attr_replayed.attr,
	NULL
};

static const struct attribute_group mpe_drops_group = {
	.name	= "drops",
	.attrs	= mpe_drops_attrs,
};

/*
 * /sys/class/misc/mp_eth/datapath/: what moving the bytes costs
 * (struct mpe_dp): frames each way, bytes copied, bytes delivered,
 * transfers started without a waiting caller, and those only in part.
 */
MPE_COUNTER_ATTR(frames_tx, &mpe_test_m->dp.frames_tx);
MPE_COUNTER_ATTR(frames_rx, &mpe_test_m->dp.frames_rx);
MPE_COUNTER_ATTR(copied_bytes, &mpe_test_m->dp.copied_bytes);
MPE_COUNTER_ATTR(payload_bytes, &mpe_test_m->dp.payload_bytes);
MPE_COUNTER_ATTR(submitted, &mpe_test_m->dp.submitted);
MPE_COUNTER_ATTR(submit_partial, &mpe_test_m->dp.submit_partial);

static struct attribute *mpe_dp_attrs[] = {
	&dev_attr_frames_tx.attr,
	&dev_attr_frames_rx.attr,
	&dev_attr_copied_bytes.attr,
	&dev_attr_payload_bytes.attr,
	&dev_attr_submitted.attr,
	&dev_attr_submit_partial.attr,
	NULL
};

static const struct attribute_group mpe_dp_group = {
	.name	= "datapath",
	.attrs	= mpe_dp_attrs,
};

/*
 * /sys/class/misc/mp_eth/key_ids: "none", or the ids of the keys held,
 * the one that signs marked with '*'. Never the key material.
 */
static ssize_t key_ids_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	const struct mpe_keys *k;
	int i, n = 0;

	rcu_read_lock();
	k = rcu_dereference(mpe_test_m->keys);
	for (i = 0; k && i < MPE_KEYS; i++)
		if (k->valid & BIT(i))
			n += sysfs_emit_at(buf, n, "%s%u%s", n ? " " : "",
					   k->id[i], k->tx == i ? "*" : "");
	rcu_read_unlock();
	if (!n)
		n = sysfs_emit(buf, "none");
	return n + sysfs_emit_at(buf, n, "\n");
}
static DEVICE_ATTR_RO(key_ids);

static struct attribute *mpe_test_attrs[] = {
	&dev_attr_key_ids.attr,
	NULL
};

static const struct attribute_group mpe_test_group = {
	.attrs	= mpe_test_attrs,
};

static const struct attribute_group *mpe_test_groups[] = {
	&mpe_test_group,
	&mpe_drops_group,
	&mpe_dp_group,
	NULL
};

static const struct file_operations mpe_test_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= mpe_test_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

static struct miscdevice mpe_test_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "mp_eth",
	.fops	= &mpe_test_fops,
	.mode	= 0600,
	.groups	= mpe_test_groups,
};

int mpe_testdev_init(struct mpe *m)
{
	mpe_test_m = m;
	return misc_register(&mpe_test_misc);
}

void mpe_testdev_exit(void)
{
	misc_deregister(&mpe_test_misc);
}
