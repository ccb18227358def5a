// SPDX-License-Identifier: GPL-2.0
/*
 * configfs.c - devices made at run time: /sys/kernel/config/ramlld/<name>/.
 *
 * mkdir makes a device's configuration (the module parameters' values as
 * defaults), its attributes set it, power=1 creates the device (a group of
 * nr_devices alike, one by default: their own stores, disks and SCSI host),
 * power=0 removes it unless one of its disks is open (as rmmod refuses),
 * rmdir removes it whatever the case, as unplugging a disk would. A setting
 * is checked whole, with every other one, when written: a bad value is
 * refused with a line naming the attribute and what it allows, and changes
 * nothing. Settings are fixed while the device is powered, except the
 * run-time ones (throw_away_*, eh_fail and the fault knobs).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/configfs.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ramlld.h"

struct ramlld_cfs_dev {
	struct config_group group;
	struct ramlld_config cfg;
	unsigned int nr_devices;	/* devices in the group power=1 makes */
	struct ramlld_group *powered;	/* the device, NULL while power=0 */
};

static struct ramlld_cfs_dev *to_ramlld_cfs_dev(struct config_item *item)
{
	return container_of(to_config_group(item), struct ramlld_cfs_dev, group);
}

enum ramlld_cfs_kind {
	RAMLLD_CFS_UINT,
	RAMLLD_CFS_ULONG,
	RAMLLD_CFS_BOOL,
};

/* One numeric or boolean setting: where it is in the config, what it is. */
struct ramlld_cfs_field {
	size_t off;
	enum ramlld_cfs_kind kind;
	const char *name;
};

/* Settings that may change while the device is powered. */
static bool ramlld_cfs_runtime(size_t off)
{
	return off == offsetof(struct ramlld_config, throw_away_reads) ||
	       off == offsetof(struct ramlld_config, throw_away_writes) ||
	       off == offsetof(struct ramlld_config, eh_fail) ||
	       off == offsetof(struct ramlld_config, every_nth) ||
	       off == offsetof(struct ramlld_config, timeout_nth) ||
	       off == offsetof(struct ramlld_config, bad_first);
}

/*
 * Give the powered devices the run-time setting at off of cd->cfg;
 * ramlld_lock held. The fault knobs count from the next command on.
 */
static int ramlld_cfs_apply(struct ramlld_cfs_dev *cd, size_t off)
{
	const struct ramlld_config *cfg = &cd->cfg;
	struct ramlld_group *group = cd->powered;
	unsigned int i;
	int ret = 0;

	for (i = 0; group && i < group->nr_devices; i++) {
		struct ramlld_device *dev = group->devices[i];

		if (off == offsetof(struct ramlld_config, eh_fail))
			WRITE_ONCE(dev->eh_fail, cfg->eh_fail);
		else if (off == offsetof(struct ramlld_config, every_nth) ||
			 off == offsetof(struct ramlld_config, timeout_nth))
			ramlld_faults_set_nth(dev, cfg->every_nth,
					      cfg->timeout_nth);
		else if (off == offsetof(struct ramlld_config, bad_first))
			ret = ramlld_faults_set_badblocks(dev, cfg->bad_first,
							  cfg->bad_nr) ?: ret;
		else
			ramlld_store_set_throw_away(dev->store,
						    cfg->throw_away_reads,
						    cfg->throw_away_writes);
	}
	return ret;
}

static ssize_t ramlld_cfs_show(struct config_item *item, char *page,
			       const struct ramlld_cfs_field *f)
{
	struct ramlld_cfs_dev *cd = to_ramlld_cfs_dev(item);
	void *field = (void *)&cd->cfg + f->off;
	ssize_t n;

	mutex_lock(&ramlld_lock);
	switch (f->kind) {
	case RAMLLD_CFS_UINT:
		n = sprintf(page, "%u\n", *(unsigned int *)field);
		break;
	case RAMLLD_CFS_ULONG:
		n = sprintf(page, "%lu\n", *(unsigned long *)field);
		break;
	default:
		n = sprintf(page, "%d\n", *(bool *)field);
		break;
	}
	mutex_unlock(&ramlld_lock);
	return n;
}

static int ramlld_cfs_parse(const char *page, void *field,
			    enum ramlld_cfs_kind kind)
{
	switch (kind) {
	case RAMLLD_CFS_UINT:
		return kstrtouint(page, 0, field);
	case RAMLLD_CFS_ULONG:
		return kstrtoul(page, 0, field);
	default:
		return kstrtobool(page, field);
	}
}

/* Check tmp whole, naming attributes "<device>/<attribute>"; 0 if good. */
static int ramlld_cfs_check(struct ramlld_cfs_dev *cd,
			    const struct ramlld_config *tmp)
{
	char *prefix;
	int ret;

	prefix = kasprintf(GFP_KERNEL, "%s/", config_item_name(&cd->group.cg_item));
	if (!prefix)
		return -ENOMEM;
	ret = ramlld_config_check(tmp, cd->nr_devices, prefix);
	kfree(prefix);
	return ret;
}

static ssize_t ramlld_cfs_store(struct config_item *item, const char *page,
				size_t count, const struct ramlld_cfs_field *f)
{
	struct ramlld_cfs_dev *cd = to_ramlld_cfs_dev(item);
	const char *name = config_item_name(item);
	struct ramlld_config tmp;
	int ret;

	mutex_lock(&ramlld_lock);
	if (cd->powered && !ramlld_cfs_runtime(f->off)) {
		pr_err("%s/%s cannot change while the device is powered: write 0 to power first\n",
		       name, f->name);
		ret = -EBUSY;
		goto out;
	}
	tmp = cd->cfg;
	if (ramlld_cfs_parse(page, (void *)&tmp + f->off, f->kind)) {
		pr_err("%s/%s=%.*s is invalid: allowed %s\n", name, f->name,
		       (int)strcspn(page, "\n"), page,
		       f->kind == RAMLLD_CFS_BOOL ? "0 or 1" : "an unsigned integer in range");
		ret = -EINVAL;
		goto out;
	}
	ret = ramlld_cfs_check(cd, &tmp);
	if (ret)
		goto out;
	cd->cfg = tmp;
	ramlld_cfs_apply(cd, f->off);
out:
	mutex_unlock(&ramlld_lock);
	return ret ? ret : count;
}

#define RAMLLD_CFS_ATTR(field, field_kind)				\
static const struct ramlld_cfs_field ramlld_cfs_field_##field = {	\
	.off = offsetof(struct ramlld_config, field),			\
	.kind = field_kind,						\
	.name = #field,							\
};									\
static ssize_t ramlld_cfs_##field##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return ramlld_cfs_show(item, page, &ramlld_cfs_field_##field);	\
}									\
static ssize_t ramlld_cfs_##field##_store(struct config_item *item,	\
					  const char *page, size_t count) \
{									\
	return ramlld_cfs_store(item, page, count,			\
				&ramlld_cfs_field_##field);		\
}									\
static struct configfs_attribute ramlld_cfs_attr_##field = {		\
	.ca_name	= #field,					\
	.ca_mode	= 0644,						\
	.ca_owner	= THIS_MODULE,					\
	.show		= ramlld_cfs_##field##_show,			\
	.store		= ramlld_cfs_##field##_store,			\
}

RAMLLD_CFS_ATTR(capacity_mb, RAMLLD_CFS_ULONG);
RAMLLD_CFS_ATTR(sector_size, RAMLLD_CFS_UINT);
RAMLLD_CFS_ATTR(physical_block_size, RAMLLD_CFS_UINT);
RAMLLD_CFS_ATTR(prealloc, RAMLLD_CFS_BOOL);
RAMLLD_CFS_ATTR(irqmode, RAMLLD_CFS_UINT);
RAMLLD_CFS_ATTR(completion_nsec, RAMLLD_CFS_ULONG);
RAMLLD_CFS_ATTR(hw_queue_depth, RAMLLD_CFS_UINT);
RAMLLD_CFS_ATTR(nr_hw_queues, RAMLLD_CFS_UINT);
RAMLLD_CFS_ATTR(blocking, RAMLLD_CFS_BOOL);
RAMLLD_CFS_ATTR(write_cache, RAMLLD_CFS_BOOL);
RAMLLD_CFS_ATTR(can_queue, RAMLLD_CFS_UINT);
RAMLLD_CFS_ATTR(cmd_per_lun, RAMLLD_CFS_UINT);
RAMLLD_CFS_ATTR(submit_queues, RAMLLD_CFS_UINT);
RAMLLD_CFS_ATTR(throw_away_reads, RAMLLD_CFS_BOOL);
RAMLLD_CFS_ATTR(throw_away_writes, RAMLLD_CFS_BOOL);
RAMLLD_CFS_ATTR(shared_tags, RAMLLD_CFS_BOOL);
RAMLLD_CFS_ATTR(rotational, RAMLLD_CFS_BOOL);
RAMLLD_CFS_ATTR(num_tgts, RAMLLD_CFS_UINT);
RAMLLD_CFS_ATTR(luns_per_tgt, RAMLLD_CFS_UINT);
RAMLLD_CFS_ATTR(poll_queues, RAMLLD_CFS_UINT);
RAMLLD_CFS_ATTR(queue_rqs, RAMLLD_CFS_BOOL);
RAMLLD_CFS_ATTR(complete_batch, RAMLLD_CFS_BOOL);
RAMLLD_CFS_ATTR(every_nth, RAMLLD_CFS_UINT);
RAMLLD_CFS_ATTR(timeout_nth, RAMLLD_CFS_UINT);

/* The settings that are not one number: a list or a range, parsed by name. */
static ssize_t ramlld_cfs_text_store(struct config_item *item,
				     const char *page, size_t count,
				     const char *attr, size_t off)
{
	struct ramlld_cfs_dev *cd = to_ramlld_cfs_dev(item);
	struct ramlld_config tmp;
	char *name;
	int ret;

	name = kasprintf(GFP_KERNEL, "%s/%s", config_item_name(item), attr);
	if (!name)
		return -ENOMEM;
	mutex_lock(&ramlld_lock);
	tmp = cd->cfg;
	if (off == offsetof(struct ramlld_config, eh_fail))
		ret = ramlld_parse_eh_fail(page, &tmp.eh_fail, name);
	else
		ret = ramlld_faults_parse_badblocks(page, &tmp.bad_first,
						    &tmp.bad_nr, name);
	if (!ret) {
		cd->cfg = tmp;
		ret = ramlld_cfs_apply(cd, off);
	}
	mutex_unlock(&ramlld_lock);
	kfree(name);
	return ret ? ret : count;
}

static ssize_t ramlld_cfs_text_show(struct config_item *item, char *page,
				    size_t off)
{
	struct ramlld_cfs_dev *cd = to_ramlld_cfs_dev(item);
	ssize_t n;

	mutex_lock(&ramlld_lock);
	if (off == offsetof(struct ramlld_config, eh_fail))
		n = ramlld_eh_fail_format(page, PAGE_SIZE, cd->cfg.eh_fail);
	else
		n = ramlld_faults_format_badblocks(page, PAGE_SIZE,
						   cd->cfg.bad_first,
						   cd->cfg.bad_nr);
	mutex_unlock(&ramlld_lock);
	return n;
}

static ssize_t ramlld_cfs_eh_fail_show(struct config_item *item, char *page)
{
	return ramlld_cfs_text_show(item, page,
				    offsetof(struct ramlld_config, eh_fail));
}

static ssize_t ramlld_cfs_eh_fail_store(struct config_item *item,
					const char *page, size_t count)
{
	return ramlld_cfs_text_store(item, page, count, "eh_fail",
				     offsetof(struct ramlld_config, eh_fail));
}

CONFIGFS_ATTR(ramlld_cfs_, eh_fail);

static ssize_t ramlld_cfs_badblocks_show(struct config_item *item, char *page)
{
	return ramlld_cfs_text_show(item, page,
				    offsetof(struct ramlld_config, bad_first));
}

static ssize_t ramlld_cfs_badblocks_store(struct config_item *item,
					  const char *page, size_t count)
{
	return ramlld_cfs_text_store(item, page, count, "badblocks",
				     offsetof(struct ramlld_config, bad_first));
}

CONFIGFS_ATTR(ramlld_cfs_, badblocks);

static ssize_t ramlld_cfs_nr_devices_show(struct config_item *item, char *page)
{
	return sprintf(page, "%u\n", READ_ONCE(to_ramlld_cfs_dev(item)->nr_devices));
}

/* Devices in the group (its SCSI host's LUNs, its shared tag set's users). */
static ssize_t ramlld_cfs_nr_devices_store(struct config_item *item,
					   const char *page, size_t count)
{
	struct ramlld_cfs_dev *cd = to_ramlld_cfs_dev(item);
	const char *name = config_item_name(item);
	unsigned int nr, old;
	int ret = 0;

	if (kstrtouint(page, 0, &nr) || nr < 1 || nr > RAMLLD_MAX_DEVICES) {
		pr_err("%s/nr_devices=%.*s is invalid: allowed 1-%u\n", name,
		       (int)strcspn(page, "\n"), page, RAMLLD_MAX_DEVICES);
		return -EINVAL;
	}
	mutex_lock(&ramlld_lock);
	if (cd->powered) {
		pr_err("%s/nr_devices cannot change while the device is powered: write 0 to power first\n",
		       name);
		ret = -EBUSY;
		goto out;
	}
	old = cd->nr_devices;
	cd->nr_devices = nr;
	ret = ramlld_cfs_check(cd, &cd->cfg);
	if (ret)
		cd->nr_devices = old;
out:
	mutex_unlock(&ramlld_lock);
	return ret ? ret : count;
}

CONFIGFS_ATTR(ramlld_cfs_, nr_devices);

static ssize_t ramlld_cfs_mode_show(struct config_item *item, char *page)
{
	struct ramlld_cfs_dev *cd = to_ramlld_cfs_dev(item);
	unsigned int modes;

	mutex_lock(&ramlld_lock);
	modes = cd->cfg.modes;
	mutex_unlock(&ramlld_lock);
	return ramlld_modes_format(page, PAGE_SIZE, modes);
}

static ssize_t ramlld_cfs_mode_store(struct config_item *item,
				     const char *page, size_t count)
{
	struct ramlld_cfs_dev *cd = to_ramlld_cfs_dev(item);
	struct ramlld_config tmp;
	char *name;
	int ret;

	name = kasprintf(GFP_KERNEL, "%s/mode", config_item_name(item));
	if (!name)
		return -ENOMEM;
	mutex_lock(&ramlld_lock);
	if (cd->powered) {
		pr_err("%s cannot change while the device is powered: write 0 to power first\n",
		       name);
		ret = -EBUSY;
		goto out;
	}
	tmp = cd->cfg;
	ret = ramlld_parse_modes(page, &tmp.modes, name);
	if (!ret)
		cd->cfg = tmp;
out:
	mutex_unlock(&ramlld_lock);
	kfree(name);
	return ret ? ret : count;
}

CONFIGFS_ATTR(ramlld_cfs_, mode);

static ssize_t ramlld_cfs_power_show(struct config_item *item, char *page)
{
	return sprintf(page, "%d\n", !!READ_ONCE(to_ramlld_cfs_dev(item)->powered));
}

static ssize_t ramlld_cfs_power_store(struct config_item *item,
				      const char *page, size_t count)
{
	struct ramlld_cfs_dev *cd = to_ramlld_cfs_dev(item);
	const char *name = config_item_name(item);
	struct ramlld_group *group;
	bool on;
	int ret = 0;

	if (kstrtobool(page, &on)) {
		pr_err("%s/power=%.*s is invalid: allowed 1 (create the device) or 0 (remove it)\n",
		       name, (int)strcspn(page, "\n"), page);
		return -EINVAL;
	}
	/* the SCSI front end's module, where installed: not under ramlld_lock */
	if (on && (READ_ONCE(cd->cfg.modes) & RAMLLD_MODE_SCSI))
		ramlld_scsi_request();
	mutex_lock(&ramlld_lock);
	if (on && !cd->powered) {
		group = ramlld_group_create(&cd->cfg, cd->nr_devices);
		if (IS_ERR(group))
			ret = PTR_ERR(group);
		else
			WRITE_ONCE(cd->powered, group);
	} else if (!on && cd->powered) {
		if (ramlld_group_busy(cd->powered)) {
			pr_err("%s: power=0 refused: a disk of the device is open\n",
			       name);
			ret = -EBUSY;
		} else {
			ramlld_group_destroy(cd->powered);
			WRITE_ONCE(cd->powered, NULL);
		}
	}
	mutex_unlock(&ramlld_lock);
	return ret ? ret : count;
}

CONFIGFS_ATTR(ramlld_cfs_, power);

/*
 * The device indexes (disks ramlld<index>, ramlldmq<index>), one per device
 * of the group, space-separated; -1 while off.
 */
static ssize_t ramlld_cfs_index_show(struct config_item *item, char *page)
{
	struct ramlld_cfs_dev *cd = to_ramlld_cfs_dev(item);
	unsigned int i;
	int n = 0;

	mutex_lock(&ramlld_lock);
	for (i = 0; cd->powered && i < cd->powered->nr_devices; i++)
		n += scnprintf(page + n, PAGE_SIZE - n, "%s%u", i ? " " : "",
			       cd->powered->devices[i]->index);
	mutex_unlock(&ramlld_lock);
	if (!n)
		n = scnprintf(page, PAGE_SIZE, "-1");
	return n + scnprintf(page + n, PAGE_SIZE - n, "\n");
}

CONFIGFS_ATTR_RO(ramlld_cfs_, index);

/* The SCSI host number of the device's host, -1 when it has none. */
static ssize_t ramlld_cfs_scsi_host_show(struct config_item *item, char *page)
{
	struct ramlld_cfs_dev *cd = to_ramlld_cfs_dev(item);
	int host_no = -1;

	mutex_lock(&ramlld_lock);
	if (cd->powered)
		host_no = ramlld_scsi_host_no(cd->powered);
	mutex_unlock(&ramlld_lock);
	return sprintf(page, "%d\n", host_no);
}

CONFIGFS_ATTR_RO(ramlld_cfs_, scsi_host);

static struct configfs_attribute *ramlld_cfs_attrs[] = {
	&ramlld_cfs_attr_capacity_mb,
	&ramlld_cfs_attr_sector_size,
	&ramlld_cfs_attr_physical_block_size,
	&ramlld_cfs_attr_prealloc,
	&ramlld_cfs_attr_mode,
	&ramlld_cfs_attr_irqmode,
	&ramlld_cfs_attr_completion_nsec,
	&ramlld_cfs_attr_hw_queue_depth,
	&ramlld_cfs_attr_nr_hw_queues,
	&ramlld_cfs_attr_blocking,
	&ramlld_cfs_attr_write_cache,
	&ramlld_cfs_attr_can_queue,
	&ramlld_cfs_attr_cmd_per_lun,
	&ramlld_cfs_attr_submit_queues,
	&ramlld_cfs_attr_throw_away_reads,
	&ramlld_cfs_attr_throw_away_writes,
	&ramlld_cfs_attr_shared_tags,
	&ramlld_cfs_attr_rotational,
	&ramlld_cfs_attr_num_tgts,
	&ramlld_cfs_attr_luns_per_tgt,
	&ramlld_cfs_attr_poll_queues,
	&ramlld_cfs_attr_queue_rqs,
	&ramlld_cfs_attr_complete_batch,
	&ramlld_cfs_attr_eh_fail,
	&ramlld_cfs_attr_every_nth,
	&ramlld_cfs_attr_timeout_nth,
	&ramlld_cfs_attr_badblocks,
	&ramlld_cfs_attr_nr_devices,
	&ramlld_cfs_attr_power,
	&ramlld_cfs_attr_index,
	&ramlld_cfs_attr_scsi_host,
	NULL,
};

static void ramlld_cfs_dev_release(struct config_item *item)
{
	kfree(to_ramlld_cfs_dev(item));
}

static struct configfs_item_operations ramlld_cfs_dev_ops = {
	.release	= ramlld_cfs_dev_release,
};

static const struct config_item_type ramlld_cfs_dev_type = {
	.ct_item_ops	= &ramlld_cfs_dev_ops,
	.ct_attrs	= ramlld_cfs_attrs,
	.ct_owner	= THIS_MODULE,
};

static struct config_group *ramlld_cfs_make_group(struct config_group *parent,
						  const char *name)
{
	struct ramlld_cfs_dev *cd;

	cd = kzalloc(sizeof(*cd), GFP_KERNEL);
	if (!cd)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&ramlld_lock);
	ramlld_config_defaults(&cd->cfg);
	mutex_unlock(&ramlld_lock);
	cd->nr_devices = 1;
	config_group_init_type_name(&cd->group, name, &ramlld_cfs_dev_type);
	return &cd->group;
}

/* rmdir: the device goes, open or not, as an unplugged disk would. */
static void ramlld_cfs_drop_item(struct config_group *parent,
				 struct config_item *item)
{
	struct ramlld_cfs_dev *cd = to_ramlld_cfs_dev(item);

	mutex_lock(&ramlld_lock);
	if (cd->powered) {
		ramlld_group_destroy(cd->powered);
		WRITE_ONCE(cd->powered, NULL);
	}
	mutex_unlock(&ramlld_lock);
	config_item_put(item);
}

static struct configfs_group_operations ramlld_cfs_group_ops = {
	.make_group	= ramlld_cfs_make_group,
	.drop_item	= ramlld_cfs_drop_item,
};

static const struct config_item_type ramlld_cfs_subsys_type = {
	.ct_group_ops	= &ramlld_cfs_group_ops,
	.ct_owner	= THIS_MODULE,
};

static struct configfs_subsystem ramlld_cfs_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf	= RAMLLD_NAME,
			.ci_type	= &ramlld_cfs_subsys_type,
		},
	},
};

int ramlld_configfs_init(void)
{
	int ret;

	config_group_init(&ramlld_cfs_subsys.su_group);
	mutex_init(&ramlld_cfs_subsys.su_mutex);
	ret = configfs_register_subsystem(&ramlld_cfs_subsys);
	if (ret)
		pr_err("configfs: cannot register /sys/kernel/config/%s: error %d\n",
		       RAMLLD_NAME, ret);
	return ret;
}

/* configfs holds the module while a device directory exists: none is left. */
void ramlld_configfs_exit(void)
{
	configfs_unregister_subsystem(&ramlld_cfs_subsys);
}
