// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - ramlld module parameters, their validation, and module init/exit.
 *
 * The module parameters describe the nr_devices devices made at load: they
 * fill one struct ramlld_config, checked whole (every front end's settings,
 * the SCSI ones too) before anything is allocated or registered, so a bad
 * value fails the load with -EINVAL, one line naming the parameter and what
 * it allows, and nothing left behind. The run-time writable ones
 * (throw_away_*, eh_fail) apply to every device at once when written.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kmod.h>
#include <linux/debugfs.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "ramlld.h"

/* The load-time devices' configuration: the module parameters below. */
static struct ramlld_config ramlld_params = {
	.capacity_mb		= 256,
	.sector_size		= 512,
	.irqmode		= RAMLLD_IRQ_NONE,
	.completion_nsec	= 10000,
	.hw_queue_depth		= 64,
	.write_cache		= true,
	.num_tgts		= 1,
	.can_queue		= 192,
	.queue_rqs		= true,
	.complete_batch		= true,
};

static unsigned int ramlld_nr_devices = 1;
static struct ramlld_group *ramlld_load_group;
/* /sys/kernel/debug/ramlld: the completion counters, the fault attributes */
static struct dentry *ramlld_debugfs;

struct dentry *ramlld_debugfs_root(void)
{
	return ramlld_debugfs;
}

/*
 * The kernel's setters refuse a bad value with -EINVAL and a line that names
 * the parameter but not what it allows: say it, for every parameter below.
 * Ranges are checked in ramlld_init(), with their own messages.
 */
static void ramlld_param_refused(const struct kernel_param *kp,
				 const char *val, const char *allowed)
{
	size_t len = val ? strcspn(val, "\n") : 0;

	pr_err("%s=%.*s is invalid: allowed %s\n", kp->name,
	       (int)min_t(size_t, len, 64), val ? val : "", allowed);
}

static int ramlld_param_set_bool(const char *val, const struct kernel_param *kp)
{
	int ret = param_set_bool(val, kp);

	if (ret)
		ramlld_param_refused(kp, val, "0 or 1 (or y/n, on/off)");
	return ret;
}

static int ramlld_param_set_uint(const char *val, const struct kernel_param *kp)
{
	int ret = param_set_uint(val, kp);

	if (ret)
		ramlld_param_refused(kp, val,
				     "an unsigned 32-bit number (its range: modinfo ramlld)");
	return ret;
}

static int ramlld_param_set_ulong(const char *val, const struct kernel_param *kp)
{
	int ret = param_set_ulong(val, kp);

	if (ret)
		ramlld_param_refused(kp, val,
				     "an unsigned number (its range: modinfo ramlld)");
	return ret;
}

/* as module_param_named(), with these setters; __MODULE_PARM_TYPE for modinfo */
static const struct kernel_param_ops ramlld_bool_ops = {
	.flags	= KERNEL_PARAM_OPS_FL_NOARG,
	.set	= ramlld_param_set_bool,
	.get	= param_get_bool,
};

static const struct kernel_param_ops ramlld_uint_ops = {
	.set	= ramlld_param_set_uint,
	.get	= param_get_uint,
};

static const struct kernel_param_ops ramlld_ulong_ops = {
	.set	= ramlld_param_set_ulong,
	.get	= param_get_ulong,
};

static char *ramlld_mode = "bio";
module_param_named(mode, ramlld_mode, charp, 0444);
MODULE_PARM_DESC(mode, "Front ends: bio (alias block), mq, scsi, a comma list, or all (default: bio)");

module_param_cb(nr_devices, &ramlld_uint_ops, &ramlld_nr_devices, 0444);
__MODULE_PARM_TYPE(nr_devices, "uint");
MODULE_PARM_DESC(nr_devices, "Number of stores, each exposed by every front end (1-256, default: 1)");

module_param_cb(capacity_mb, &ramlld_ulong_ops, &ramlld_params.capacity_mb, 0444);
__MODULE_PARM_TYPE(capacity_mb, "ulong");
MODULE_PARM_DESC(capacity_mb, "Capacity of each store in MiB (1-1048576, default: 256)");

module_param_cb(sector_size, &ramlld_uint_ops, &ramlld_params.sector_size, 0444);
__MODULE_PARM_TYPE(sector_size, "uint");
MODULE_PARM_DESC(sector_size, "Logical block size: 512, 1024, 2048 or 4096 (default: 512)");

module_param_cb(physical_block_size, &ramlld_uint_ops, &ramlld_params.physical_block_size, 0444);
__MODULE_PARM_TYPE(physical_block_size, "uint");
MODULE_PARM_DESC(physical_block_size, "Physical block size, a power of two from sector_size to 65536; 0 means sector_size (default: 0)");

module_param_cb(prealloc, &ramlld_bool_ops, &ramlld_params.prealloc, 0444);
__MODULE_PARM_TYPE(prealloc, "bool");
MODULE_PARM_DESC(prealloc, "Allocate every page at load instead of on first write (default: 0)");

module_param_cb(irqmode, &ramlld_uint_ops, &ramlld_params.irqmode, 0444);
__MODULE_PARM_TYPE(irqmode, "uint");
MODULE_PARM_DESC(irqmode, "mq and scsi completion: 0 inline, 1 blk_mq_complete_request (rq_affinity applies; on irq_cpus' interrupt when set), 2 hrtimer after completion_nsec, then as 1 (default: 0)");

module_param_cb(completion_nsec, &ramlld_ulong_ops, &ramlld_params.completion_nsec, 0444);
__MODULE_PARM_TYPE(completion_nsec, "ulong");
MODULE_PARM_DESC(completion_nsec, "Completion delay with irqmode=2, in ns (0-1000000000, default: 10000)");

module_param_cb(hw_queue_depth, &ramlld_uint_ops, &ramlld_params.hw_queue_depth, 0444);
__MODULE_PARM_TYPE(hw_queue_depth, "uint");
MODULE_PARM_DESC(hw_queue_depth, "mq: tags per hardware queue (1-4096, default: 64)");

module_param_cb(nr_hw_queues, &ramlld_uint_ops, &ramlld_params.nr_hw_queues, 0444);
__MODULE_PARM_TYPE(nr_hw_queues, "uint");
MODULE_PARM_DESC(nr_hw_queues, "mq: hardware queues, 0 for one per CPU (0-nr_cpu_ids, default: 0)");

module_param_cb(shared_tags, &ramlld_bool_ops, &ramlld_params.shared_tags, 0444);
__MODULE_PARM_TYPE(shared_tags, "bool");
MODULE_PARM_DESC(shared_tags, "mq: one tag set shared by every device (default: 0)");

module_param_cb(blocking, &ramlld_bool_ops, &ramlld_params.blocking, 0444);
__MODULE_PARM_TYPE(blocking, "bool");
MODULE_PARM_DESC(blocking, "mq: BLK_MQ_F_BLOCKING, queue_rq may sleep (default: 0)");

module_param_cb(rotational, &ramlld_bool_ops, &ramlld_params.rotational, 0444);
__MODULE_PARM_TYPE(rotational, "bool");
MODULE_PARM_DESC(rotational, "Disks look rotational: queue/rotational and add_random 1 on bio and mq, a 7200 rpm medium in SCSI VPD page B1 so that sd leaves add_random on (default: 0)");

module_param_cb(write_cache, &ramlld_bool_ops, &ramlld_params.write_cache, 0444);
__MODULE_PARM_TYPE(write_cache, "bool");
MODULE_PARM_DESC(write_cache, "Advertise a volatile write cache (flush/FUA, SCSI WCE) (default: 1)");

module_param_cb(num_tgts, &ramlld_uint_ops, &ramlld_params.num_tgts, 0444);
__MODULE_PARM_TYPE(num_tgts, "uint");
MODULE_PARM_DESC(num_tgts, "SCSI targets; stores fill target 0 first (1-nr_devices, default: 1)");

module_param_cb(luns_per_tgt, &ramlld_uint_ops, &ramlld_params.luns_per_tgt, 0444);
__MODULE_PARM_TYPE(luns_per_tgt, "uint");
MODULE_PARM_DESC(luns_per_tgt, "LUNs per SCSI target, 1-256; 0 means nr_devices / num_tgts rounded up (default: 0)");

module_param_cb(can_queue, &ramlld_uint_ops, &ramlld_params.can_queue, 0444);
__MODULE_PARM_TYPE(can_queue, "uint");
MODULE_PARM_DESC(can_queue, "Commands in flight per SCSI host, shared by all submit queues (host_tagset), 1-4096 (default: 192)");

module_param_cb(cmd_per_lun, &ramlld_uint_ops, &ramlld_params.cmd_per_lun, 0444);
__MODULE_PARM_TYPE(cmd_per_lun, "uint");
MODULE_PARM_DESC(cmd_per_lun, "Queue depth of each LUN, 1-can_queue; 0 means can_queue (default: 0)");

module_param_cb(submit_queues, &ramlld_uint_ops, &ramlld_params.submit_queues, 0444);
__MODULE_PARM_TYPE(submit_queues, "uint");
MODULE_PARM_DESC(submit_queues, "SCSI submission (blk-mq hardware) queues; 0 means one per CPU (default: 0)");

module_param_cb(poll_queues, &ramlld_uint_ops, &ramlld_params.poll_queues, 0444);
__MODULE_PARM_TYPE(poll_queues, "uint");
MODULE_PARM_DESC(poll_queues, "mq and scsi: polled hardware queues (HCTX_TYPE_POLL) besides the others, 0-nr_cpu_ids; the SCSI host needs 5.13 (default: 0)");

module_param_cb(queue_rqs, &ramlld_bool_ops, &ramlld_params.queue_rqs, 0444);
__MODULE_PARM_TYPE(queue_rqs, "bool");
MODULE_PARM_DESC(queue_rqs, "mq: take a plugged list of requests in one ->queue_rqs call (5.17; ignored before) (default: 1)");

module_param_cb(complete_batch, &ramlld_bool_ops, &ramlld_params.complete_batch, 0444);
__MODULE_PARM_TYPE(complete_batch, "bool");
MODULE_PARM_DESC(complete_batch, "mq: end polled requests, and with queue_rqs and irqmode=0 each list, as one batch (blk_mq_end_request_batch, 5.16; ignored before) (default: 1)");

static void ramlld_apply_throw_away(struct ramlld_device *dev, void *arg)
{
	ramlld_store_set_throw_away(dev->store,
				    READ_ONCE(ramlld_params.throw_away_reads),
				    READ_ONCE(ramlld_params.throw_away_writes));
}

/* A write applies to every device, load-time and configfs alike. */
static int ramlld_param_set_throw_away(const char *val,
				       const struct kernel_param *kp)
{
	int ret = ramlld_param_set_bool(val, kp);

	if (ret)
		return ret;
	mutex_lock(&ramlld_lock);
	ramlld_devices_apply(ramlld_apply_throw_away, NULL);
	mutex_unlock(&ramlld_lock);
	return 0;
}

static const struct kernel_param_ops ramlld_throw_away_ops = {
	.set	= ramlld_param_set_throw_away,
	.get	= param_get_bool,
};

module_param_cb(throw_away_reads, &ramlld_throw_away_ops,
		&ramlld_params.throw_away_reads, 0644);
__MODULE_PARM_TYPE(throw_away_reads, "bool");
MODULE_PARM_DESC(throw_away_reads, "Reads copy no data, as scsi_ram; writable at run time, applies to every device (default: 0)");
module_param_cb(throw_away_writes, &ramlld_throw_away_ops,
		&ramlld_params.throw_away_writes, 0644);
__MODULE_PARM_TYPE(throw_away_writes, "bool");
MODULE_PARM_DESC(throw_away_writes, "Writes store no data, as scsi_ram; writable at run time, applies to every device (default: 0)");

const char * const ramlld_scsi_eh_names[RAMLLD_EH_COUNT] = {
	[RAMLLD_EH_ABORT]		= "abort",
	[RAMLLD_EH_DEVICE_RESET]	= "device_reset",
	[RAMLLD_EH_TARGET_RESET]	= "target_reset",
	[RAMLLD_EH_BUS_RESET]		= "bus_reset",
	[RAMLLD_EH_HOST_RESET]		= "host_reset",
};
EXPORT_SYMBOL_GPL(ramlld_scsi_eh_names);

static void ramlld_apply_eh_fail(struct ramlld_device *dev, void *arg)
{
	WRITE_ONCE(dev->eh_fail, READ_ONCE(ramlld_params.eh_fail));
}

/*
 * eh_fail: the SCSI error handlers that report FAILED, so that the
 * midlayer escalates (abort, then device, target, bus and host reset, then
 * the device goes offline). A comma list of ramlld_scsi_eh_names, or ""
 * for none; writable at run time, applies to every device.
 */
static int ramlld_param_set_eh_fail(const char *val,
				    const struct kernel_param *kp)
{
	unsigned long bits;

	if (ramlld_parse_eh_fail(val, &bits, kp->name))
		return -EINVAL;
	mutex_lock(&ramlld_lock);
	WRITE_ONCE(ramlld_params.eh_fail, bits);
	ramlld_devices_apply(ramlld_apply_eh_fail, NULL);
	mutex_unlock(&ramlld_lock);
	return 0;
}

static int ramlld_param_get_eh_fail(char *buf, const struct kernel_param *kp)
{
	return ramlld_eh_fail_format(buf, PAGE_SIZE,
				     READ_ONCE(ramlld_params.eh_fail));
}

static const struct kernel_param_ops ramlld_eh_fail_ops = {
	.set	= ramlld_param_set_eh_fail,
	.get	= ramlld_param_get_eh_fail,
};

module_param_cb(eh_fail, &ramlld_eh_fail_ops, NULL, 0644);
MODULE_PARM_DESC(eh_fail, "SCSI error handlers that report FAILED so that the midlayer escalates: a comma list of abort, device_reset, target_reset, bus_reset, host_reset; writable at run time (default: \"\")");

void ramlld_config_defaults(struct ramlld_config *cfg)
{
	*cfg = ramlld_params;
	cfg->modes = ramlld_params.modes;
	/* a configfs device is a group of one: one target, one LUN */
	cfg->num_tgts = 1;
	cfg->luns_per_tgt = 0;
	cfg->shared_tags = false;
	cfg->throw_away_reads = READ_ONCE(ramlld_params.throw_away_reads);
	cfg->throw_away_writes = READ_ONCE(ramlld_params.throw_away_writes);
	cfg->eh_fail = READ_ONCE(ramlld_params.eh_fail);
	ramlld_faults_defaults(cfg);
}

static int __init ramlld_init(void)
{
	struct ramlld_group *group;
	int ret;

	if (ramlld_parse_modes(ramlld_mode, &ramlld_params.modes, "mode"))
		return -EINVAL;
	if (ramlld_nr_devices < 1 || ramlld_nr_devices > RAMLLD_MAX_DEVICES) {
		pr_err("nr_devices=%u is invalid: allowed 1-%u\n",
		       ramlld_nr_devices, RAMLLD_MAX_DEVICES);
		return -EINVAL;
	}
	ret = ramlld_config_check(&ramlld_params, ramlld_nr_devices, "");
	if (ret)
		return ret;

	ramlld_faults_defaults(&ramlld_params);

	/* optional: for tests and reports */
	ramlld_debugfs = debugfs_create_dir(RAMLLD_NAME, NULL);
	ret = ramlld_irq_init(ramlld_params.irqmode, ramlld_params.modes);
	if (ret)
		goto err_debugfs;
	ret = ramlld_devices_init();
	if (ret)
		goto err_irq;
	mutex_lock(&ramlld_lock);
	group = ramlld_group_create(&ramlld_params, ramlld_nr_devices);
	mutex_unlock(&ramlld_lock);
	if (IS_ERR(group)) {
		ret = PTR_ERR(group);
		goto err_devices;
	}
	ramlld_load_group = group;
	ret = ramlld_configfs_init();
	if (ret)
		goto err_group;
	pr_info("%u store(s) of %lu MiB, %u-byte sectors, mode=%s\n",
		ramlld_nr_devices, ramlld_params.capacity_mb,
		ramlld_params.sector_size, ramlld_mode);
	/*
	 * The SCSI front end is its own module (it needs scsi_mod): asked
	 * for here where it is installed, it attaches the devices when it
	 * loads, after this init returns; insmod ramlld_scsi.ko otherwise.
	 */
	if (ramlld_params.modes & RAMLLD_MODE_SCSI)
		request_module_nowait(RAMLLD_SCSI_MODULE);
	return 0;

err_group:
	mutex_lock(&ramlld_lock);
	ramlld_group_destroy(ramlld_load_group);
	mutex_unlock(&ramlld_lock);
err_devices:
	ramlld_devices_exit();
err_irq:
	ramlld_irq_exit();
err_debugfs:
	debugfs_remove_recursive(ramlld_debugfs);
	return ret;
}

static void __exit ramlld_exit(void)
{
	ramlld_configfs_exit();
	mutex_lock(&ramlld_lock);
	ramlld_group_destroy(ramlld_load_group);
	mutex_unlock(&ramlld_lock);
	ramlld_devices_exit();
	ramlld_irq_exit();
	debugfs_remove_recursive(ramlld_debugfs);
}

module_init(ramlld_init);
module_exit(ramlld_exit);

MODULE_AUTHOR("The ramlld authors");
MODULE_DESCRIPTION("RAM store exposed as a bio and a blk-mq driver, and to ramlld_scsi");
MODULE_LICENSE("GPL");
