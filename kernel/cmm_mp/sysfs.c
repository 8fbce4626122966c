// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: the pool device and its segments in the driver model.
 *
 * The pool device is a class device, /sys/class/cmm_mp/mp0; each segment
 * this host holds or maps is a child device on the "cmm_mp" bus, so that
 * udev and systemd see it. A segment of the local device is mp0.N (its
 * index): added and removed with the pool device, it raises a change
 * uevent (MP_SEG_STATE, MP_SEG_MODE, ...) whenever its state changes
 * (seg.c's notifier); /sys/class/cmm_mp/mp0/segments/segN links to it.
 * A segment of another member mapped here as /dev/mps or /dev/mpb (each
 * copy of a mirrored one) is mp0:<chip>.<index>, named by its backing
 * chip id (hex) and its index there: added when it is mapped (online),
 * removed when it is unmapped (offline). Segments that this host neither
 * holds nor maps are seen through netlink only (architecture.rst).
 * Both kinds have the same device type, attributes and uevents; every
 * attribute is read-only and reads what netlink reports.
 *
 *   /sys/class/cmm_mp/mp0/{chip_id,phys,size,segment_size,nr_segments,numa_node,
 *                          device_id,pool_state,first_segment,generation,
 *                          pool_devices}
 *   /sys/bus/cmm_mp/devices/mp0.N/{segment,state,mode,shared,devnode,owner,
 *                                 mirror,redundancy,size,phys,
 *                                 memblock_first,memblock_count,
 *                                 memblock_online,memmap_on_memory}
 *   /sys/bus/cmm_mp/devices/mp0:<chip>.<index>/{segment,state,mode,shared,
 *                                 devnode,owner,mirror,redundancy,size}
 */
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "cmm_mp.h"
#include "remote.h"

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

/*
 * A segment's device only points at what it describes: a segment of the
 * local device (@seg), or else copy @leg of a mapping of another member's
 * segment (@r, chip id @chip and index @idx of its backing device, which
 * name it). It is freed on release.
 */
struct mp_seg_dev {
	struct device dev;
	struct mp_seg *seg;
	struct mp_remote *r;
	u32 leg;
	u64 chip;
	u32 idx;
};

static struct mp_seg_dev *to_seg_dev(struct device *dev)
{
	return container_of(dev, struct mp_seg_dev, dev);
}

/*
 * Adds and removes the devices of mapped segments, and raises their
 * change uevents, one at a time: a mirror's event (no lock held) must not
 * find a device going away under it.
 */
static DEFINE_MUTEX(mp_seg_dev_lock);

/* What every interface reports of a segment on this host. */
struct mp_seg_view {
	u32 id;
	u32 state;
	u32 owner;
	struct mp_seg_use u;
};

/*
 * The state comes from the segment core for a local segment (as netlink's
 * mp_nl_fill_seg()) and from the mapping for a mapped one (as netlink's
 * mp_nl_fill_mapping(): this host holds it).
 */
static void seg_view(struct device *dev, struct mp_seg_view *v)
{
	struct mp_seg_dev *sd = to_seg_dev(dev);
	struct mp_seg *s = sd->seg;
	u32 sharers = 0, partner = CMM_MP_NONE;
	struct mp_dev *d;

	if (s) {
		d = s->dev;
		v->id = mp_seg_pool_id(s);
		v->state = mp_seg_state(s, &v->owner, &sharers);
		partner = mp_seg_local_pair(s);
	} else {
		d = sd->r->d;
		v->id = READ_ONCE(sd->r->leg[sd->leg].seg);
		v->state = mp_remote_state(sd->r, &sd->r->leg[sd->leg],
					   &v->owner);
	}
	mp_seg_usage(d, v->id, sharers, partner, &v->u);
}

#define MP_SEG_ATTR(_name, _fmt, _expr)					\
static ssize_t seg_##_name##_show(struct device *dev,			\
				  struct device_attribute *attr,	\
				  char *buf)				\
{									\
	struct mp_seg_view v;						\
									\
	seg_view(dev, &v);						\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static struct device_attribute seg_attr_##_name =			\
	__ATTR(_name, 0444, seg_##_name##_show, NULL)

/* The memory of a local segment: hidden on a mapped one (seg_visible()). */
#define MP_SEG_MEM_ATTR(_name, _mode, _fmt, _expr)			\
static ssize_t seg_##_name##_show(struct device *dev,			\
				  struct device_attribute *attr,	\
				  char *buf)				\
{									\
	struct mp_seg *s = to_seg_dev(dev)->seg;			\
									\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static struct device_attribute seg_attr_##_name =			\
	__ATTR(_name, _mode, seg_##_name##_show, NULL)

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

static u64 seg_size(struct device *dev)
{
	struct mp_seg_dev *sd = to_seg_dev(dev);

	return sd->seg ? sd->seg->size : sd->r->size;
}

static const char *seg_redundancy(const struct mp_seg_view *v)
{
	return v->u.redundancy ?
	       cmm_mp_seg_redundancy_name(v->u.redundancy) : "";
}

MP_SEG_ATTR(segment, "%u", v.id);
MP_SEG_ATTR(state, "%s", cmm_mp_seg_state_name(v.state));
MP_SEG_ATTR(mode, "%s", cmm_mp_seg_mode_name(v.u.mode));
MP_SEG_ATTR(shared, "%u", v.u.shared);
/* the device node while mapped here as dax or blk; empty otherwise */
MP_SEG_ATTR(devnode, "%s", v.u.devnode);
MP_SEG_ATTR(owner, "%d", (int)v.owner);
/* the pool-wide number of the other copy of a mirrored one, else -1 */
MP_SEG_ATTR(mirror, "%d", (int)v.u.mirror);
MP_SEG_ATTR(redundancy, "%s", seg_redundancy(&v));
MP_SEG_ATTR(size, "%llu", seg_size(dev));
MP_SEG_MEM_ATTR(phys, 0400, "%#llx", s->phys);
MP_SEG_MEM_ATTR(memblock_first, 0444, "%u", seg_blocks_first(s));
MP_SEG_MEM_ATTR(memblock_count, 0444, "%llu",
		s->size / s->dev->geo.block_size);
MP_SEG_MEM_ATTR(memblock_online, 0444, "%u", seg_blocks_online(s));
MP_SEG_MEM_ATTR(memmap_on_memory, 0444, "%u",
		READ_ONCE(s->memmap_on_memory));

static struct attribute *mp_seg_attrs[] = {
	&seg_attr_segment.attr,
	&seg_attr_state.attr,
	&seg_attr_mode.attr,
	&seg_attr_shared.attr,
	&seg_attr_devnode.attr,
	&seg_attr_owner.attr,
	&seg_attr_mirror.attr,
	&seg_attr_redundancy.attr,
	&seg_attr_size.attr,
	&seg_attr_phys.attr,
	&seg_attr_memblock_first.attr,
	&seg_attr_memblock_count.attr,
	&seg_attr_memblock_online.attr,
	&seg_attr_memmap_on_memory.attr,
	NULL,
};

/*
 * A segment of another device has no host address nor memory blocks
 * here: those attributes are not shown for it (the first @mp_seg_attrs
 * are shown for every segment).
 */
#define MP_SEG_NR_COMMON_ATTRS	9

static umode_t seg_visible(struct kobject *kobj, struct attribute *a, int n)
{
	struct device *dev = kobj_to_dev(kobj);

	if (n >= MP_SEG_NR_COMMON_ATTRS && !to_seg_dev(dev)->seg)
		return 0;
	return a->mode;
}

static const struct attribute_group mp_seg_group = {
	.attrs		= mp_seg_attrs,
	.is_visible	= seg_visible,
};

static const struct attribute_group *mp_seg_groups[] = {
	&mp_seg_group,
	NULL,
};

/*
 * What udev sees of a segment in each of its uevents: which one it is and
 * how it is used now, so that a rule can match a state or mode and start
 * a unit per segment. A mapped segment of another device says which chip
 * backs it.
 */
static int mp_seg_uevent(struct device *dev, struct kobj_uevent_env *env)
{
	struct mp_seg_dev *sd = to_seg_dev(dev);
	struct mp_seg_view v;

	seg_view(dev, &v);
	if (add_uevent_var(env, "MP_DEVICE=%s", dev->parent ?
			   dev_name(dev->parent) : "") ||
	    add_uevent_var(env, "MP_SEG_INDEX=%u",
			   sd->seg ? sd->seg->id : sd->idx) ||
	    (!sd->seg &&
	     add_uevent_var(env, "MP_SEG_CHIP_ID=%#llx", sd->chip)) ||
	    add_uevent_var(env, "MP_SEG_ID=%u", v.id) ||
	    add_uevent_var(env, "MP_SEG_STATE=%s",
			   cmm_mp_seg_state_name(v.state)) ||
	    add_uevent_var(env, "MP_SEG_MODE=%s",
			   cmm_mp_seg_mode_name(v.u.mode)) ||
	    (v.u.devnode[0] &&
	     add_uevent_var(env, "MP_SEG_DEVNODE=%s", v.u.devnode)))
		return -ENOMEM;
	return 0;
}

static void mp_seg_dev_release(struct device *dev)
{
	kfree(to_seg_dev(dev));
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

/* A new segment device, a child of @d's; named by the caller. */
static struct mp_seg_dev *mp_seg_dev_alloc(struct mp_dev *d)
{
	struct mp_seg_dev *sd = kzalloc(sizeof(*sd), GFP_KERNEL);

	if (!sd)
		return NULL;
	device_initialize(&sd->dev);
	sd->dev.parent = d->device;
	sd->dev.bus = &mp_seg_bus;
	sd->dev.type = &mp_seg_type;
	return sd;
}

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

	sd = mp_seg_dev_alloc(d);
	if (!sd)
		return -ENOMEM;
	sd->seg = &d->segs[i];
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

/*
 * The devices of a mapping of another member's segment: one for each copy
 * backed by another device (a copy on the local device is mp0.N already).
 * Each is named by its backing chip and index, as the mapping follows it
 * from one pool generation to the next (remote.c), not by its pool-wide
 * number, which a new generation may give to another segment.
 */
static int mp_sysfs_add_leg(struct mp_remote *r, u32 i)
{
	struct mp_remote_leg *leg = &r->leg[i];
	struct mp_seg_dev *sd;
	int ret;

	sd = mp_seg_dev_alloc(r->d);
	if (!sd)
		return -ENOMEM;
	sd->r = r;
	sd->leg = i;
	sd->chip = leg->chip_id;
	sd->idx = leg->idx;
	ret = dev_set_name(&sd->dev, "%s:%llx.%u", r->d->name, sd->chip,
			   sd->idx);
	if (!ret)
		ret = device_add(&sd->dev);
	if (ret) {
		put_device(&sd->dev);
		return ret;
	}
	leg->sdev = &sd->dev;
	return 0;
}

static void mp_sysfs_del_leg(struct mp_remote_leg *leg)
{
	if (!leg->sdev)
		return;
	device_unregister(leg->sdev);
	leg->sdev = NULL;
}

/* The copy's device, when it still names the copy's chip and index. */
static bool mp_sysfs_leg_current(const struct mp_remote_leg *leg)
{
	struct mp_seg_dev *sd = to_seg_dev(leg->sdev);

	return sd->chip == leg->chip_id && sd->idx == leg->idx;
}

/*
 * A mapping was made, or one of its copies moved (mp_remote_replace_leg()):
 * each copy on another device gets its device, one that moved a new one.
 * mp_seg_dev_lock held.
 */
static int mp_sysfs_mapped(struct mp_remote *r)
{
	int ret = 0;
	u32 i;

	for (i = 0; i < r->nr_legs && !ret; i++) {
		struct mp_remote_leg *leg = &r->leg[i];

		if (leg->sdev && mp_sysfs_leg_current(leg))
			continue;
		mp_sysfs_del_leg(leg);
		if (leg->chip_id)
			ret = mp_sysfs_add_leg(r, i);
	}
	if (ret)
		dev_warn(r->d->device, "segment %u: no device on the cmm_mp bus: %d\n",
			 r->seg, ret);
	return ret;
}

static void mp_sysfs_unmapped(struct mp_remote *r)
{
	u32 i;

	for (i = 0; i < r->nr_legs; i++)
		mp_sysfs_del_leg(&r->leg[i]);
}

/* A segment changed state, or a mapping came or goes: udev hears of it. */
static int mp_sysfs_seg_changed(struct notifier_block *nb,
				unsigned long action, void *data)
{
	struct mp_seg *s = data;
	struct mp_remote *r = data;
	int ret = 0;
	u32 i;

	if (action == MP_SEG_EV_LOCAL) {
		if (s->sdev)
			kobject_uevent(&s->sdev->kobj, KOBJ_CHANGE);
		return NOTIFY_OK;
	}
	mutex_lock(&mp_seg_dev_lock);
	switch (action) {
	case MP_SEG_EV_MAPPED:
		ret = mp_sysfs_mapped(r);
		if (ret)
			mp_sysfs_unmapped(r);
		break;
	case MP_SEG_EV_UNMAPPED:
		mp_sysfs_unmapped(r);
		break;
	case MP_SEG_EV_MAPPING:
		for (i = 0; i < r->nr_legs; i++)
			if (r->leg[i].sdev)
				kobject_uevent(&r->leg[i].sdev->kobj,
					       KOBJ_CHANGE);
		break;
	}
	mutex_unlock(&mp_seg_dev_lock);
	return notifier_from_errno(ret);
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
