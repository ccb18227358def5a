// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - ramlld module parameters, their validation, and module init/exit.
 *
 * The module parameters describe the nr_devices devices made at load: they
 * fill one struct ramlld_config, checked whole (every front end's settings,
 * the SCSI ones too) before anything is allocated or registered, so a bad
 * value fails the load with -EINVAL, one line naming the parameter and what
 * it allows, and nothing left behind. The run-time writable ones apply to
 * every device at once when written. Each parameter is a line of the
 * settings table (settings.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "ramlld.h"
#include "frontends.h"
#include "irq.h"

#define RAMLLD_PARAM_INIT(name, type, def, ...)	.name = RAMLLD_INIT_##type(def),

/* The load-time devices' configuration: the module parameters below. */
static struct ramlld_config ramlld_params = {
	RAMLLD_SETTINGS(RAMLLD_PARAM_INIT)
};

static struct ramlld_group *ramlld_load_group;
/* /sys/kernel/debug/ramlld: the completion counters, the fault attributes */
static struct dentry *ramlld_debugfs;
/* set once init has checked ramlld_params: from then on a write is checked whole */
static bool ramlld_live;

struct ramlld_param_apply {
	const struct ramlld_setting *s;
	int ret;
};

static void ramlld_param_apply_one(struct ramlld_device *dev, void *data)
{
	struct ramlld_param_apply *a = data;
	int ret = ramlld_setting_apply(a->s, dev, &ramlld_params);

	if (ret && !a->ret)
		a->ret = ret;
}

/*
 * Every parameter: parsed at load (ranges are checked in ramlld_init(), with
 * the others they depend on); a run-time one written later is checked with
 * every other setting and applies to every device, load-time and configfs.
 */
static int ramlld_param_set(const char *val, const struct kernel_param *kp)
{
	const struct ramlld_setting *s = kp->arg;
	struct ramlld_param_apply a = { .s = s };
	struct ramlld_config tmp;
	int ret;

	mutex_lock(&ramlld_lock);
	tmp = ramlld_params;
	ret = ramlld_setting_parse(s, &tmp, val, "");
	if (!ret && ramlld_live)
		ret = ramlld_config_check(&tmp, "");
	if (!ret) {
		ramlld_params = tmp;
		if (ramlld_live)
			ramlld_devices_apply(ramlld_param_apply_one, &a);
		ret = a.ret;
	}
	mutex_unlock(&ramlld_lock);
	return ret;
}

static int ramlld_param_get(char *buf, const struct kernel_param *kp)
{
	const struct ramlld_setting *s = kp->arg;
	int n;

	mutex_lock(&ramlld_lock);
	if (ramlld_setting_is_bool(s))
		n = sprintf(buf, "%c\n",
			    *(bool *)((void *)&ramlld_params + s->off) ? 'Y' : 'N');
	else
		n = ramlld_setting_format(s, &ramlld_params, buf, PAGE_SIZE);
	mutex_unlock(&ramlld_lock);
	return n;
}

static const struct kernel_param_ops ramlld_param_ops = {
	.flags	= KERNEL_PARAM_OPS_FL_NOARG,
	.set	= ramlld_param_set,
	.get	= ramlld_param_get,
};

#define RAMLLD_PERM_load	0444
#define RAMLLD_PERM_run		0644

#define RAMLLD_PARAM(name, type, def, lo, hi, when, chk, app, desc)	\
	module_param_cb(name, &ramlld_param_ops,			\
			(void *)&ramlld_settings[RAMLLD_SET_##name],	\
			RAMLLD_PERM_##when);				\
	__MODULE_PARM_TYPE(name, RAMLLD_PTYPE_##type);			\
	MODULE_PARM_DESC(name, desc RAMLLD_WHENTEXT_##when		\
			 " (default: " RAMLLD_DEFSHOW_##type(def) ")");

RAMLLD_SETTINGS(RAMLLD_PARAM)

static int __init ramlld_init(void)
{
	struct ramlld_group *group;
	int ret;

	char mode[32];

	mutex_lock(&ramlld_lock);
	ramlld_settings_defaults(&ramlld_params);
	ret = ramlld_config_check(&ramlld_params, "");
	mutex_unlock(&ramlld_lock);
	if (ret)
		return ret;

	/* optional: for tests and reports */
	ramlld_debugfs = debugfs_create_dir(RAMLLD_NAME, NULL);
	ramlld_irq_init(ramlld_debugfs);
	ret = ramlld_devices_init(ramlld_debugfs);
	if (ret)
		goto err_irq;
	ret = ramlld_scsi_init();
	if (ret)
		goto err_devices;
	mutex_lock(&ramlld_lock);
	group = ramlld_group_create(&ramlld_params);
	if (!IS_ERR(group))
		ramlld_live = true;
	mutex_unlock(&ramlld_lock);
	if (IS_ERR(group)) {
		ret = PTR_ERR(group);
		goto err_scsi;
	}
	ramlld_load_group = group;
	ret = ramlld_configfs_init(&ramlld_params);
	if (ret)
		goto err_group;
	ramlld_setting_format(&ramlld_settings[RAMLLD_SET_mode], &ramlld_params,
			      mode, sizeof(mode));
	pr_info("%u store(s) of %lu MiB, %u-byte sectors, mode=%s",
		ramlld_params.nr_devices, ramlld_params.capacity_mb,
		ramlld_params.sector_size, mode);
	return 0;

err_group:
	mutex_lock(&ramlld_lock);
	ramlld_live = false;
	ramlld_group_destroy(ramlld_load_group);
	mutex_unlock(&ramlld_lock);
err_scsi:
	ramlld_scsi_exit();
err_devices:
	ramlld_devices_exit();
err_irq:
	ramlld_irq_exit();
	debugfs_remove_recursive(ramlld_debugfs);
	return ret;
}

static void __exit ramlld_exit(void)
{
	ramlld_configfs_exit();
	mutex_lock(&ramlld_lock);
	ramlld_live = false;
	ramlld_group_destroy(ramlld_load_group);
	mutex_unlock(&ramlld_lock);
	ramlld_scsi_exit();
	ramlld_devices_exit();
	ramlld_irq_exit();
	debugfs_remove_recursive(ramlld_debugfs);
}

module_init(ramlld_init);
module_exit(ramlld_exit);

MODULE_AUTHOR("The ramlld authors");
MODULE_DESCRIPTION("RAM store exposed as a bio driver, a blk-mq driver and a SCSI LLD");
MODULE_LICENSE("GPL");
