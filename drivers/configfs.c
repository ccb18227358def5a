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
#include "frontends.h"

struct ramlld_cfs_dev {
	struct config_group group;
	struct ramlld_config cfg;
	struct ramlld_group *powered;	/* the device, NULL while power=0 */
};

/* A new device's first configuration, handed down at init. */
static const struct ramlld_config *ramlld_cfs_defaults;

static struct ramlld_cfs_dev *to_ramlld_cfs_dev(struct config_item *item)
{
	return container_of(to_config_group(item), struct ramlld_cfs_dev, group);
}

static ssize_t ramlld_cfs_show(struct config_item *item, char *page,
			       const struct ramlld_setting *s)
{
	struct ramlld_cfs_dev *cd = to_ramlld_cfs_dev(item);
	ssize_t n;

	mutex_lock(&ramlld_lock);
	n = ramlld_setting_format(s, &cd->cfg, page, PAGE_SIZE);
	mutex_unlock(&ramlld_lock);
	return n;
}

/*
 * A value is parsed, then checked with every other setting (naming it
 * "<device>/<attribute>"), then given to the powered devices if it is a
 * run-time one; the fault knobs count from the next command on.
 */
static ssize_t ramlld_cfs_store(struct config_item *item, const char *page,
				size_t count, const struct ramlld_setting *s)
{
	struct ramlld_cfs_dev *cd = to_ramlld_cfs_dev(item);
	struct ramlld_group *group;
	struct ramlld_config tmp;
	unsigned int i;
	char *prefix;
	int ret;

	prefix = kasprintf(GFP_KERNEL, "%s/", config_item_name(item));
	if (!prefix)
		return -ENOMEM;
	mutex_lock(&ramlld_lock);
	group = cd->powered;
	if (group && !s->run) {
		pr_err("%s%s cannot change while the device is powered: write 0 to power first\n",
		       prefix, s->name);
		ret = -EBUSY;
		goto out;
	}
	tmp = cd->cfg;
	ret = ramlld_setting_parse(s, &tmp, page, prefix) ?:
	      ramlld_config_check(&tmp, prefix);
	if (ret)
		goto out;
	cd->cfg = tmp;
	for (i = 0; group && i < group->nr_devices; i++)
		ret = ramlld_setting_apply(s, group->devices[i], &cd->cfg) ?: ret;
out:
	mutex_unlock(&ramlld_lock);
	kfree(prefix);
	return ret ? ret : count;
}

/* configfs passes no attribute to show and store: a pair per setting */
#define RAMLLD_CFS_FNS(name, ...)					\
static ssize_t ramlld_cfs_##name##_show(struct config_item *item,	\
					char *page)			\
{									\
	return ramlld_cfs_show(item, page,				\
			       &ramlld_settings[RAMLLD_SET_##name]);	\
}									\
static ssize_t ramlld_cfs_##name##_store(struct config_item *item,	\
					 const char *page, size_t count) \
{									\
	return ramlld_cfs_store(item, page, count,			\
				&ramlld_settings[RAMLLD_SET_##name]);	\
}

RAMLLD_SETTINGS(RAMLLD_CFS_FNS)

#define RAMLLD_CFS_SETTING_ATTR(n, ...)					\
	[RAMLLD_SET_##n] = {						\
		.ca_name	= #n,					\
		.ca_mode	= 0644,					\
		.ca_owner	= THIS_MODULE,				\
		.show		= ramlld_cfs_##n##_show,		\
		.store		= ramlld_cfs_##n##_store,		\
	},

static struct configfs_attribute ramlld_cfs_setting_attrs[RAMLLD_SET_COUNT] = {
	RAMLLD_SETTINGS(RAMLLD_CFS_SETTING_ATTR)
};

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
	mutex_lock(&ramlld_lock);
	if (on && !cd->powered) {
		group = ramlld_group_create(&cd->cfg);
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

/* Every setting's attribute, then these; filled at init. */
static struct configfs_attribute *ramlld_cfs_other_attrs[] = {
	&ramlld_cfs_attr_power,
	&ramlld_cfs_attr_index,
	&ramlld_cfs_attr_scsi_host,
};

static struct configfs_attribute *ramlld_cfs_attrs[RAMLLD_SET_COUNT +
						    ARRAY_SIZE(ramlld_cfs_other_attrs) + 1];

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
	cd->cfg = *ramlld_cfs_defaults;
	mutex_unlock(&ramlld_lock);
	/* a group of one: one target, one LUN, no tag set to share */
	cd->cfg.nr_devices = 1;
	cd->cfg.num_tgts = 1;
	cd->cfg.luns_per_tgt = 0;
	cd->cfg.shared_tags = false;
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

/* The settings a device directory has in this build (null_blk's "features"). */
static ssize_t ramlld_cfs_features_show(struct config_item *item, char *page)
{
	return ramlld_settings_features(page, PAGE_SIZE);
}

CONFIGFS_ATTR_RO(ramlld_cfs_, features);

static struct configfs_attribute *ramlld_cfs_subsys_attrs[] = {
	&ramlld_cfs_attr_features,
	NULL,
};

static const struct config_item_type ramlld_cfs_subsys_type = {
	.ct_group_ops	= &ramlld_cfs_group_ops,
	.ct_attrs	= ramlld_cfs_subsys_attrs,
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

int ramlld_configfs_init(const struct ramlld_config *defaults)
{
	unsigned int i;
	int ret;

	ramlld_cfs_defaults = defaults;
	for (i = 0; i < RAMLLD_SET_COUNT; i++)
		ramlld_cfs_attrs[i] = &ramlld_cfs_setting_attrs[i];
	for (i = 0; i < ARRAY_SIZE(ramlld_cfs_other_attrs); i++)
		ramlld_cfs_attrs[RAMLLD_SET_COUNT + i] = ramlld_cfs_other_attrs[i];
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
