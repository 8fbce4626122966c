// SPDX-License-Identifier: GPL-2.0
/*
 * cmm_mp: read-only state in sysfs.
 *
 *   /sys/class/cmm_mp/mp0/{chip_id,phys,size,segment_size,nr_segments,numa_node,
 *                          device_id,pool_state,first_segment,generation,
 *                          pool_devices}
 *   /sys/class/cmm_mp/mp0/segments/segN/{state,phys,size,owner,memblock_first,
 *                                        memblock_count,memblock_online}
 */
#include <linux/device.h>
#include <linux/kobject.h>
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
MP_DEV_ATTR(pool_state, "%s", mp_pool_state_name(READ_ONCE(d->pool_state)));
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

/* A segment's kobject only points at the segment; it is freed on release. */
struct mp_seg_kobj {
	struct kobject kobj;
	struct mp_seg *seg;
};

static struct mp_seg *kobj_to_seg(struct kobject *kobj)
{
	return container_of(kobj, struct mp_seg_kobj, kobj)->seg;
}

#define MP_SEG_ATTR_MODE(_name, _mode, _fmt, _expr)			\
static ssize_t seg_##_name##_show(struct kobject *kobj,			\
				  struct kobj_attribute *attr, char *buf)\
{									\
	struct mp_seg *s = kobj_to_seg(kobj);				\
									\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static struct kobj_attribute seg_attr_##_name =				\
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

MP_SEG_ATTR(state, "%s", mp_seg_state_name(READ_ONCE(s->state)));
MP_SEG_ATTR_MODE(phys, 0400, "%#llx", s->phys);
MP_SEG_ATTR(size, "%llu", s->size);
static int seg_owner(struct mp_seg *s)
{
	u32 sharers;

	return (int)mp_seg_holders(s->dev, s, &sharers);
}

MP_SEG_ATTR(owner, "%d", seg_owner(s));
MP_SEG_ATTR(memblock_first, "%u", seg_blocks_first(s));
MP_SEG_ATTR(memblock_count, "%llu", s->size / s->dev->geo.block_size);
MP_SEG_ATTR(memblock_online, "%u", seg_blocks_online(s));

static struct attribute *mp_seg_attrs[] = {
	&seg_attr_state.attr,
	&seg_attr_phys.attr,
	&seg_attr_size.attr,
	&seg_attr_owner.attr,
	&seg_attr_memblock_first.attr,
	&seg_attr_memblock_count.attr,
	&seg_attr_memblock_online.attr,
	NULL,
};
ATTRIBUTE_GROUPS(mp_seg);

static void mp_seg_kobj_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct mp_seg_kobj, kobj));
}

static struct kobj_type mp_seg_ktype = {
	.release	= mp_seg_kobj_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= mp_seg_groups,
};

static void mp_sysfs_del_segs(struct mp_dev *d)
{
	u32 i;

	for (i = 0; i < d->geo.nr_segs; i++) {
		if (!d->segs[i].kobj)
			continue;
		kobject_del(d->segs[i].kobj);
		kobject_put(d->segs[i].kobj);
		d->segs[i].kobj = NULL;
	}
	kobject_put(d->segs_kobj);
	d->segs_kobj = NULL;
}

int mp_sysfs_add_dev(struct mp_dev *d)
{
	struct mp_seg_kobj *sk;
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
		sk = kzalloc(sizeof(*sk), GFP_KERNEL);
		if (!sk) {
			ret = -ENOMEM;
			goto err;
		}
		sk->seg = &d->segs[i];
		ret = kobject_init_and_add(&sk->kobj, &mp_seg_ktype,
					   d->segs_kobj, "seg%u", i);
		if (ret) {
			kobject_put(&sk->kobj);
			goto err;
		}
		d->segs[i].kobj = &sk->kobj;
	}
	return 0;

err:
	mp_sysfs_del_segs(d);
	device_unregister(d->device);
	d->device = NULL;
	return ret;
}

void mp_sysfs_del_dev(struct mp_dev *d)
{
	if (!d->device)
		return;
	mp_sysfs_del_segs(d);
	device_unregister(d->device);
	d->device = NULL;
}

int mp_sysfs_init(void)
{
	mp_class = class_create(THIS_MODULE, "cmm_mp");
	return PTR_ERR_OR_ZERO(mp_class);
}

void mp_sysfs_exit(void)
{
	class_destroy(mp_class);
}
