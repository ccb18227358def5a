// SPDX-License-Identifier: GPL-2.0
/*
 * faults.c - fault injection on each device: bad sectors in the block
 * layer's badblocks table, every_nth and timeout_nth as fault-injection
 * attributes (should_fail(); compat.h has the stand-in for kernels without
 * CONFIG_FAULT_INJECTION), one of each per front end of the device, and the
 * one fault decision every front end asks (docs/design.md, "Fault
 * injection"). The module parameters set every device at once and are the
 * first values of a device made later; a configfs device's attributes set
 * that device alone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/debugfs.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ramlld.h"
#include "compat.h"

/*
 * The longest bad range: the kernel's table holds PAGE_SIZE / 8 ranges of
 * at most 512 sectors each (BB_MAX_LEN), and a longer one is split.
 */
#define RAMLLD_BAD_MAX_SECTORS	((sector_t)(PAGE_SIZE / 8) * 512)

/* A device's fault-injection attributes, per front end (bio has no timeout). */
struct ramlld_fault_attrs {
	struct ramlld_fault_attr fail_io[RAMLLD_FE_COUNT];
	struct ramlld_fault_attr fail_timeout[RAMLLD_FE_COUNT];
	struct dentry *debugfs;		/* ramlld/dev<index>, NULL without */
};

static const char * const ramlld_fault_fe_names[RAMLLD_FE_COUNT] = {
	[RAMLLD_FE_BIO]		= "bio",
	[RAMLLD_FE_MQ]		= "mq",
	[RAMLLD_FE_SCSI]	= "scsi",
};

/*
 * The module parameters: the values every device got when one was last
 * written, and the first values of a device made later. Their setters run
 * under the module's parameter lock, and take ramlld_lock to set the
 * devices.
 */
static unsigned int ramlld_every_nth;
static unsigned int ramlld_timeout_nth;
static u64 ramlld_bad_first;	/* badblocks=: 512-byte sectors */
static u64 ramlld_bad_nr;	/* 0: none */

void ramlld_faults_defaults(struct ramlld_config *cfg)
{
	cfg->every_nth = ramlld_every_nth;
	cfg->timeout_nth = ramlld_timeout_nth;
	cfg->bad_first = ramlld_bad_first;
	cfg->bad_nr = ramlld_bad_nr;
}

enum ramlld_fault ramlld_fault_decide(struct ramlld_device *dev,
				      enum ramlld_fe fe, u64 pos, u64 len,
				      u64 *bad)
{
	struct ramlld_fault_attrs *fa = dev->fault_attrs;
	sector_t s = pos >> SECTOR_SHIFT, first;
	bool tmo, err;

	if (!len)
		return RAMLLD_FAULT_NONE;
	/* both count every command, as one counter did: a timeout wins */
	tmo = fe != RAMLLD_FE_BIO &&
	      ramlld_compat_should_fail(&fa->fail_timeout[fe]);
	err = ramlld_compat_should_fail(&fa->fail_io[fe]);
	if (tmo)
		return RAMLLD_FAULT_TIMEOUT;
	if (err) {
		*bad = pos;
		return RAMLLD_FAULT_ERROR;
	}
	if (!(READ_ONCE(dev->faults) & RAMLLD_FAULT_BADBLOCKS) ||
	    !ramlld_compat_badblocks_first(&dev->badblocks, s,
					   DIV_ROUND_UP(pos + len, SECTOR_SIZE) - s,
					   &first))
		return RAMLLD_FAULT_NONE;
	*bad = max_t(u64, (u64)first << SECTOR_SHIFT, pos);
	return RAMLLD_FAULT_ERROR;
}
EXPORT_SYMBOL_GPL(ramlld_fault_decide);

/* Recompute dev->faults from what is set; ramlld_lock held. */
static void ramlld_faults_update(struct ramlld_device *dev)
{
	unsigned int f = 0;

	if (dev->bad_nr)
		f |= RAMLLD_FAULT_BADBLOCKS;
	if (dev->every_nth || dev->timeout_nth)
		f |= RAMLLD_FAULT_NTH;
	/* debugfs may arm an attribute behind our back: always ask then */
	if (dev->fault_attrs->debugfs)
		f |= RAMLLD_FAULT_DEBUGFS;
	WRITE_ONCE(dev->faults, f);
}

void ramlld_faults_set_nth(struct ramlld_device *dev, unsigned int every_nth,
			   unsigned int timeout_nth)
{
	struct ramlld_fault_attrs *fa = dev->fault_attrs;
	int fe;

	lockdep_assert_held(&ramlld_lock);
	/* a new setting counts from the next command on */
	for (fe = 0; fe < RAMLLD_FE_COUNT; fe++) {
		ramlld_compat_fault_attr_set_every(&fa->fail_io[fe], every_nth);
		ramlld_compat_fault_attr_set_every(&fa->fail_timeout[fe],
						   fe == RAMLLD_FE_BIO ? 0 : timeout_nth);
	}
	dev->every_nth = every_nth;
	dev->timeout_nth = timeout_nth;
	ramlld_faults_update(dev);
}

static int ramlld_faults_check_badblocks(u64 first, u64 nr,
					 const char *name)
{
	if (nr > RAMLLD_BAD_MAX_SECTORS ||
	    first > (U64_MAX >> SECTOR_SHIFT) - nr) {
		pr_err("%s=%llu-%llu is invalid: allowed at most %llu sectors (the kernel's badblocks table), below 2^55\n",
		       name, first, first + nr - 1,
		       (unsigned long long)RAMLLD_BAD_MAX_SECTORS);
		return -EINVAL;
	}
	return 0;
}

int ramlld_faults_set_badblocks(struct ramlld_device *dev, u64 first, u64 nr)
{
	lockdep_assert_held(&ramlld_lock);
	/* the I/O path stops looking before the table changes under it */
	WRITE_ONCE(dev->faults, dev->faults & ~RAMLLD_FAULT_BADBLOCKS);
	if (dev->bad_nr &&
	    !ramlld_compat_badblocks_clear(&dev->badblocks, dev->bad_first,
					   dev->bad_nr))
		goto full;
	dev->bad_nr = 0;
	if (nr && !ramlld_compat_badblocks_set(&dev->badblocks, first, nr)) {
		ramlld_compat_badblocks_clear(&dev->badblocks, first, nr);
		goto full;
	}
	dev->bad_first = first;
	dev->bad_nr = nr;
	ramlld_faults_update(dev);
	return 0;
full:
	pr_err("device %u: the badblocks table is full\n", dev->index);
	ramlld_faults_update(dev);
	return -ENOSPC;
}

int ramlld_faults_init(struct ramlld_device *dev)
{
	struct ramlld_fault_attrs *fa;
	struct dentry *root = ramlld_debugfs_root();
	char name[32];
	int fe;

	fa = kzalloc(sizeof(*fa), GFP_KERNEL);
	if (!fa)
		return -ENOMEM;
	if (badblocks_init(&dev->badblocks, 1)) {
		kfree(fa);
		return -ENOMEM;
	}
	dev->fault_attrs = fa;
	for (fe = 0; fe < RAMLLD_FE_COUNT; fe++) {
		ramlld_compat_fault_attr_init(&fa->fail_io[fe]);
		ramlld_compat_fault_attr_init(&fa->fail_timeout[fe]);
	}
	/* the framework's own knobs, where the kernel has them */
	if (RAMLLD_HAVE_FAULT_INJECTION && !IS_ERR_OR_NULL(root)) {
		snprintf(name, sizeof(name), "dev%u", dev->index);
		fa->debugfs = debugfs_create_dir(name, root);
		if (IS_ERR(fa->debugfs))
			fa->debugfs = NULL;
	}
	for (fe = 0; fa->debugfs && fe < RAMLLD_FE_COUNT; fe++) {
		snprintf(name, sizeof(name), "fail_io_%s", ramlld_fault_fe_names[fe]);
		ramlld_compat_fault_attr_debugfs(&fa->fail_io[fe], name, fa->debugfs);
		if (fe == RAMLLD_FE_BIO)
			continue;
		snprintf(name, sizeof(name), "fail_timeout_%s",
			 ramlld_fault_fe_names[fe]);
		ramlld_compat_fault_attr_debugfs(&fa->fail_timeout[fe], name,
						 fa->debugfs);
	}
	ramlld_faults_set_nth(dev, dev->cfg.every_nth, dev->cfg.timeout_nth);
	if (dev->cfg.bad_nr &&
	    ramlld_faults_set_badblocks(dev, dev->cfg.bad_first, dev->cfg.bad_nr)) {
		ramlld_faults_exit(dev);
		return -ENOSPC;
	}
	return 0;
}

/* No I/O of dev is left. */
void ramlld_faults_exit(struct ramlld_device *dev)
{
	struct ramlld_fault_attrs *fa = dev->fault_attrs;
	int fe;

	if (!fa)
		return;
	debugfs_remove_recursive(fa->debugfs);
	for (fe = 0; fe < RAMLLD_FE_COUNT; fe++) {
		ramlld_compat_fault_attr_exit(&fa->fail_io[fe]);
		ramlld_compat_fault_attr_exit(&fa->fail_timeout[fe]);
	}
	badblocks_exit(&dev->badblocks);
	kfree(fa);
	dev->fault_attrs = NULL;
}

static void ramlld_apply_nth(struct ramlld_device *dev, void *arg)
{
	ramlld_faults_set_nth(dev, ramlld_every_nth, ramlld_timeout_nth);
}

static int ramlld_param_set_nth(const char *val, const struct kernel_param *kp)
{
	unsigned int n;

	if (!val || kstrtouint(val, 0, &n)) {
		pr_err("%s=%.*s is invalid: allowed 0 (off) or N (every Nth read or write command)\n",
		       kp->name, val ? (int)strcspn(val, "\n") : 6,
		       val ? val : "(null)");
		return -EINVAL;
	}
	mutex_lock(&ramlld_lock);
	*(unsigned int *)kp->arg = n;
	ramlld_devices_apply(ramlld_apply_nth, NULL);
	mutex_unlock(&ramlld_lock);
	return 0;
}

static const struct kernel_param_ops ramlld_nth_ops = {
	.set	= ramlld_param_set_nth,
	.get	= param_get_uint,
};

module_param_cb(every_nth, &ramlld_nth_ops, &ramlld_every_nth, 0644);
MODULE_PARM_DESC(every_nth, "Fail every Nth read or write of each front end of every device with EIO or MEDIUM ERROR, 0 off; writable at run time (default: 0)");
module_param_cb(timeout_nth, &ramlld_nth_ops, &ramlld_timeout_nth, 0644);
MODULE_PARM_DESC(timeout_nth, "Never complete every Nth read or write of the mq and scsi front ends of every device, so that it times out, 0 off; writable at run time (default: 0)");

int ramlld_faults_parse_badblocks(const char *val, u64 *first, u64 *nr,
				  const char *name)
{
	size_t len = val ? strcspn(val, "\n") : 0;
	u64 start, end;
	char buf[48], *dash;

	if (!val || len >= sizeof(buf))
		goto bad;
	if (!len) {
		*first = 0;
		*nr = 0;
		return 0;
	}
	memcpy(buf, val, len);
	buf[len] = '\0';
	dash = strchr(buf, '-');
	if (!dash)
		goto bad;
	*dash = '\0';
	if (kstrtou64(buf, 10, &start) || kstrtou64(dash + 1, 10, &end) ||
	    start > end || end >= (U64_MAX >> SECTOR_SHIFT))
		goto bad;
	if (ramlld_faults_check_badblocks(start, end - start + 1, name))
		return -EINVAL;
	*first = start;
	*nr = end - start + 1;
	return 0;
bad:
	pr_err("%s=%.*s is invalid: allowed START-END (512-byte sectors, inclusive, START <= END) or an empty string to clear\n",
	       name, (int)min_t(size_t, len, 64), val ? val : "");
	return -EINVAL;
}

int ramlld_faults_format_badblocks(char *buf, size_t size, u64 first, u64 nr)
{
	if (!nr)
		return scnprintf(buf, size, "\n");
	return scnprintf(buf, size, "%llu-%llu\n", first, first + nr - 1);
}

struct ramlld_bad_range {
	u64 first, nr;
	int ret;
};

static void ramlld_apply_badblocks(struct ramlld_device *dev, void *arg)
{
	struct ramlld_bad_range *r = arg;
	int ret = ramlld_faults_set_badblocks(dev, r->first, r->nr);

	if (ret && !r->ret)
		r->ret = ret;
}

/* "START-END" in 512-byte sectors, inclusive, or "" to clear: every device. */
static int ramlld_param_set_badblocks(const char *val,
				      const struct kernel_param *kp)
{
	struct ramlld_bad_range r = { };
	int ret;

	ret = ramlld_faults_parse_badblocks(val, &r.first, &r.nr, kp->name);
	if (ret)
		return ret;
	mutex_lock(&ramlld_lock);
	ramlld_devices_apply(ramlld_apply_badblocks, &r);
	ramlld_bad_first = r.first;
	ramlld_bad_nr = r.nr;
	mutex_unlock(&ramlld_lock);
	return r.ret;
}

static int ramlld_param_get_badblocks(char *buf, const struct kernel_param *kp)
{
	return ramlld_faults_format_badblocks(buf, PAGE_SIZE, ramlld_bad_first,
					      ramlld_bad_nr);
}

static const struct kernel_param_ops ramlld_badblocks_ops = {
	.set	= ramlld_param_set_badblocks,
	.get	= ramlld_param_get_badblocks,
};

module_param_cb(badblocks, &ramlld_badblocks_ops, NULL, 0644);
MODULE_PARM_DESC(badblocks, "Fail I/O touching START-END (512-byte sectors, inclusive, at most 262144 of them) of every device, \"\" to clear; writable at run time (default: \"\")");
