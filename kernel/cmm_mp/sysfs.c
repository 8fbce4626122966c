// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: the pool device and its segments in the driver model.
 *
 * The pool device is a class device, /sys/class/cmm_mp/mp0; each of its
 * segments is a child device on the "cmm_mp" bus, mp0.N, so that udev and
 * systemd see it: it is added and removed with the pool device and raises
 * a change uevent (MP_SEG_STATE, MP_SEG_MODE, ...) whenever its state
 * changes (seg.c's notifier). /sys/class/cmm_mp/mp0/segments/segN links to
 * it, as before segments were devices. Every attribute is read-only and
 * reads the segment core: sysfs and netlink report the same state.
 *
 *   /sys/class/cmm_mp/mp0/{chip_id,phys,size,segment_size,nr_segments,numa_node,
 *                          device_id,pool_state,first_segment,generation,
 *                          pool_devices}
 *   /sys/bus/cmm_mp/devices/mp0.N/{segment,state,mode,shared,devnode,owner,
 *                                 phys,size,memblock_first,memblock_count,
 *                                 memblock_online}
 */
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "cmm_mp.h"

static struct class *mp_class;

/* _attr: DEVICE_ATTR_RO, or DEVICE_ATTR_ADMIN_RO for root's eyes only */
#define MP_DEV_ATTR_MODE(_name, _attr, _fmt, _expr)			\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct mp_dev *d = dev_get_drvdata(dev);			\
									\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static _attr(_name)

#define MP_DEV_ATTR(_name, _fmt, _expr)	\
	MP_DEV_ATTR_MODE(_name, DEVICE_ATTR_RO, _fmt, _expr)

MP_DEV_ATTR(chip_id, "%#llx", d->chip_id);
/* physical addresses are root's alone, as in /proc/iomem */
MP_DEV_ATTR_MODE(phys, DEVICE_ATTR_ADMIN_RO, "%#llx", d->geo.base);
MP_DEV_ATTR(size, "%llu", d->geo.size);
MP_DEV_ATTR(segment_size, "%llu", d->geo.seg_size);
MP_DEV_ATTR(nr_segments, "%u", d->geo.nr_segs);
MP_DEV_ATTR(numa_node, "%d", d->nid);
MP_DEV_ATTR(device_id, "%u", READ_ONCE(d->id));
MP_DEV_ATTR(pool_state, "%s", cmm_mp_pool_state_name(READ_ONCE(d->pool_state)));
MP_DEV_ATTR(first_segment, "%u", READ_ONCE(d->first_seg));

/* The generation and size of the pool; 0 outside RUNTIME. */
static ssize_t generation_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct mp_dev *d = dev_get_drvdata(dev);
	u32 gen;

	mutex_lock(&d->lock);
	gen = mp_pool_runtime(d) ? d->pamt.generation : 0;
	mutex_unlock(&d->lock);
	return sysfs_emit(buf, "%u\n", gen);
}
static DEVICE_ATTR_RO(generation);

static ssize_t pool_devices_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct mp_dev *d = dev_get_drvdata(dev);
	u32 n;

	mutex_lock(&d->lock);
	n = mp_pool_runtime(d) ? d->pamt.nr_devs : 1;
	mutex_unlock(&d->lock);
	return sysfs_emit(buf, "%u\n", n);
}
static DEVICE_ATTR_RO(pool_devices);

static struct attribute *mp_dev_attrs[] = {
	&dev_attr_chip_id.attr,
	&dev_attr_phys.attr,
	&dev_attr_size.attr,
	&dev_attr_segment_size.attr,
	&dev_attr_nr_segments.attr,
	&dev_attr_numa_node.attr,
	&dev_attr_device_id.attr,
	&dev_attr_pool_state.attr,
	&dev_attr_first_segment.attr,
	&dev_attr_generation.attr,
	&dev_attr_pool_devices.attr,
	NULL,
};
ATTRIBUTE_GROUPS(mp_dev);

/* A segment's device only points at the segment; it is freed on release. */
struct mp_seg_dev {
	struct device dev;
	struct mp_seg *seg;
};

static struct mp_seg *dev_to_seg(struct device *dev)
{
	return container_of(dev, struct mp_seg_dev, dev)->seg;
}

#define MP_SEG_ATTR_MODE(_name, _mode, _fmt, _expr)			\
static ssize_t seg_##_name##_show(struct device *dev,			\
				  struct device_attribute *attr,	\
				  char *buf)				\
{									\
	struct mp_seg *s = dev_to_seg(dev);				\
									\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static struct device_attribute seg_attr_##_name =			\
	__ATTR(_name, _mode, seg_##_name##_show, NULL)

#define MP_SEG_ATTR(_name, _fmt, _expr)	MP_SEG_ATTR_MODE(_name, 0444, _fmt, _expr)

static u32 seg_blocks_online(const struct mp_seg *s)
{
	u32 online, movable;

	mp_seg_blocks_state(s, &online, &movable);
	return online;
}

static u32 seg_blocks_first(const struct mp_seg *s)
{
	u32 first = 0;

	mp_seg_blocks(&s->dev->geo, s->id, &first, NULL);
	return first;
}

/* The one derived state (seg.c), as netlink reports it too. */
static const char *seg_state(struct mp_seg *s)
{
	u32 owner, sharers;

	return cmm_mp_seg_state_name(mp_seg_state(s, &owner, &sharers));
}

static int seg_owner(struct mp_seg *s)
{
	u32 owner, sharers;

	mp_seg_state(s, &owner, &sharers);
	return (int)owner;
}

/* How the segment is used here (seg.c), as netlink reports it too. */
static void seg_use(struct mp_seg *s, struct mp_seg_use *u)
{
	u32 owner, sharers;

	mp_seg_state(s, &owner, &sharers);
	mp_seg_usage(s->dev, mp_seg_pool_id(s), sharers, mp_seg_local_pair(s),
		     u);
}

static const char *seg_mode(struct mp_seg *s)
{
	struct mp_seg_use u;

	seg_use(s, &u);
	return cmm_mp_seg_mode_name(u.mode);
}

static u32 seg_shared(struct mp_seg *s)
{
	struct mp_seg_use u;

	seg_use(s, &u);
	return u.shared;
}

MP_SEG_ATTR(segment, "%u", mp_seg_pool_id(s));
MP_SEG_ATTR(state, "%s", seg_state(s));
MP_SEG_ATTR(mode, "%s", seg_mode(s));
MP_SEG_ATTR(shared, "%u", seg_shared(s));
MP_SEG_ATTR(owner, "%d", seg_owner(s));
MP_SEG_ATTR_MODE(phys, 0400, "%#llx", s->phys);
MP_SEG_ATTR(size, "%llu", s->size);
MP_SEG_ATTR(memblock_first, "%u", seg_blocks_first(s));
MP_SEG_ATTR(memblock_count, "%llu", s->size / s->dev->geo.block_size);
MP_SEG_ATTR(memblock_online, "%u", seg_blocks_online(s));
MP_SEG_ATTR(memmap_on_memory, "%u", READ_ONCE(s->memmap_on_memory));

/* The device node while mapped here as dax or blk; empty otherwise. */
static ssize_t seg_devnode_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct mp_seg *s = dev_to_seg(dev);
	struct mp_seg_use u;

	seg_use(s, &u);
	return sysfs_emit(buf, "%s\n", u.devnode);
}

static struct device_attribute seg_attr_devnode =
	__ATTR(devnode, 0444, seg_devnode_show, NULL);

static struct attribute *mp_seg_attrs[] = {
	&seg_attr_segment.attr,
	&seg_attr_state.attr,
	&seg_attr_mode.attr,
	&seg_attr_shared.attr,
	&seg_attr_devnode.attr,
	&seg_attr_owner.attr,
	&seg_attr_phys.attr,
	&seg_attr_size.attr,
	&seg_attr_memblock_first.attr,
	&seg_attr_memblock_count.attr,
	&seg_attr_memblock_online.attr,
	&seg_attr_memmap_on_memory.attr,
	NULL,
};
ATTRIBUTE_GROUPS(mp_seg);

/*
 * What udev sees of a segment in each of its uevents: which one it is and
 * how it is used now, so that a rule can match a state or mode and start
 * a unit per segment.
 */
static int mp_seg_uevent(struct device *dev, struct kobj_uevent_env *env)
{
	struct mp_seg *s = dev_to_seg(dev);
	struct mp_seg_use u;

	seg_use(s, &u);
	if (add_uevent_var(env, "MP_DEVICE=%s", s->dev->name) ||
	    add_uevent_var(env, "MP_SEG_INDEX=%u", s->id) ||
	    add_uevent_var(env, "MP_SEG_ID=%u", mp_seg_pool_id(s)) ||
	    add_uevent_var(env, "MP_SEG_STATE=%s", seg_state(s)) ||
	    add_uevent_var(env, "MP_SEG_MODE=%s", cmm_mp_seg_mode_name(u.mode)) ||
	    (u.devnode[0] &&
	     add_uevent_var(env, "MP_SEG_DEVNODE=%s", u.devnode)))
		return -ENOMEM;
	return 0;
}

static void mp_seg_dev_release(struct device *dev)
{
	kfree(container_of(dev, struct mp_seg_dev, dev));
}

static const struct device_type mp_seg_type = {
	.name		= "cmm_mp_segment",
	.groups		= mp_seg_groups,
	.uevent		= mp_seg_uevent,
	.release	= mp_seg_dev_release,
};

static struct bus_type mp_seg_bus = {
	.name		= "cmm_mp",
};

static void mp_sysfs_del_segs(struct mp_dev *d)
{
	char link[16];
	u32 i;

	for (i = 0; i < d->geo.nr_segs; i++) {
		if (!d->segs[i].sdev)
			continue;
		snprintf(link, sizeof(link), "seg%u", i);
		sysfs_remove_link(d->segs_kobj, link);
		device_unregister(d->segs[i].sdev);
		d->segs[i].sdev = NULL;
	}
	kobject_put(d->segs_kobj);
	d->segs_kobj = NULL;
}

static int mp_sysfs_add_seg(struct mp_dev *d, u32 i)
{
	struct mp_seg_dev *sd;
	char link[16];
	int ret;

	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	sd->seg = &d->segs[i];
	device_initialize(&sd->dev);
	sd->dev.parent = d->device;
	sd->dev.bus = &mp_seg_bus;
	sd->dev.type = &mp_seg_type;
	ret = dev_set_name(&sd->dev, "%s.%u", d->name, i);
	if (!ret)
		ret = device_add(&sd->dev);
	if (ret) {
		put_device(&sd->dev);
		return ret;
	}
	d->segs[i].sdev = &sd->dev;
	snprintf(link, sizeof(link), "seg%u", i);
	return sysfs_create_link(d->segs_kobj, &sd->dev.kobj, link);
}

/**
 * mp_sysfs_add_dev() - publish a pool device and its segments
 * @d: the device, created (mp_dev_create())
 *
 * Return: 0 or -errno; nothing is left published on error.
 */
int mp_sysfs_add_dev(struct mp_dev *d)
{
	int ret;
	u32 i;

	d->device = device_create_with_groups(mp_class, NULL, MKDEV(0, 0), d,
					      mp_dev_groups, "%s", d->name);
	if (IS_ERR(d->device))
		return PTR_ERR(d->device);

	d->segs_kobj = kobject_create_and_add("segments", &d->device->kobj);
	if (!d->segs_kobj) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0; i < d->geo.nr_segs; i++) {
		ret = mp_sysfs_add_seg(d, i);
		if (ret)
			goto err;
	}
	return 0;

err:
	mp_sysfs_del_segs(d);
	device_unregister(d->device);
	d->device = NULL;
	return ret;
}

/**
 * mp_sysfs_del_dev() - withdraw what mp_sysfs_add_dev() published
 * @d: the device
 */
void mp_sysfs_del_dev(struct mp_dev *d)
{
	if (!d->device)
		return;
	mp_sysfs_del_segs(d);
	device_unregister(d->device);
	d->device = NULL;
}

/* A segment changed state: its uevent tells udev. */
static int mp_sysfs_seg_changed(struct notifier_block *nb,
				unsigned long action, void *data)
{
	struct mp_seg *s = data;

	if (action == MP_SEG_EV_LOCAL && s->sdev)
		kobject_uevent(&s->sdev->kobj, KOBJ_CHANGE);
	return NOTIFY_OK;
}

static struct notifier_block mp_sysfs_seg_nb = {
	.notifier_call = mp_sysfs_seg_changed,
};

int mp_sysfs_init(void)
{
	int ret;

	mp_class = class_create(THIS_MODULE, "cmm_mp");
	if (IS_ERR(mp_class))
		return PTR_ERR(mp_class);
	ret = bus_register(&mp_seg_bus);
	if (ret) {
		class_destroy(mp_class);
		return ret;
	}
	mp_seg_notifier_register(&mp_sysfs_seg_nb);
	return 0;
}

void mp_sysfs_exit(void)
{
	mp_seg_notifier_unregister(&mp_sysfs_seg_nb);
	bus_unregister(&mp_seg_bus);
	class_destroy(mp_class);
}
