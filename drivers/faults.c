// SPDX-License-Identifier: GPL-2.0
/*
 * faults.c - fault injection on each device: bad sectors in the block
 * layer's badblocks table, every_nth and timeout_nth as fault-injection
 * attributes (should_fail(); compat.h has the stand-in for kernels without
 * CONFIG_FAULT_INJECTION), one of each per front end of the device, and the
 * one fault decision every front end asks (docs/design.md, "Fault
 * injection"). The values are the device's settings (every_nth,
 * timeout_nth, badblocks in settings.h); their apply functions here turn
 * them into the attributes and the table.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "faults.h"
#include "compat.h"

/* A device's fault-injection attributes, per front end (bio has no timeout). */
struct ramlld_fault_attrs {
	struct ramlld_fault_attr fail_io[RAMLLD_FE_COUNT];
	struct ramlld_fault_attr fail_timeout[RAMLLD_FE_COUNT];
	struct dentry *debugfs;		/* ramlld/dev<index>, NULL without */
	/* the range in the table (cfg.badblocks, unless the table was full) */
	struct ramlld_bad_range bad;
};

static const char * const ramlld_fault_fe_names[RAMLLD_FE_COUNT] = {
	[RAMLLD_FE_BIO]		= "bio",
	[RAMLLD_FE_MQ]		= "mq",
	[RAMLLD_FE_SCSI]	= "scsi",
};

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
		if (bad)
			*bad = pos;
		return RAMLLD_FAULT_ERROR;
	}
	if (!(READ_ONCE(dev->faults) & RAMLLD_FAULT_BADBLOCKS) ||
	    !ramlld_compat_badblocks_first(&dev->badblocks, s,
					   DIV_ROUND_UP(pos + len, SECTOR_SIZE) - s,
					   &first))
		return RAMLLD_FAULT_NONE;
	if (bad)
		*bad = max_t(u64, (u64)first << SECTOR_SHIFT, pos);
	return RAMLLD_FAULT_ERROR;
}

/* Recompute dev->faults from what is set; ramlld_lock held. */
static void ramlld_faults_update(struct ramlld_device *dev)
{
	unsigned int f = 0;

	if (dev->fault_attrs->bad.nr)
		f |= RAMLLD_FAULT_BADBLOCKS;
	if (dev->cfg.every_nth || dev->cfg.timeout_nth)
		f |= RAMLLD_FAULT_NTH;
	/* debugfs may arm an attribute behind our back: always ask then */
	if (dev->fault_attrs->debugfs)
		f |= RAMLLD_FAULT_DEBUGFS;
	WRITE_ONCE(dev->faults, f);
}

int ramlld_faults_apply_nth(struct ramlld_device *dev)
{
	struct ramlld_fault_attrs *fa = dev->fault_attrs;
	unsigned int every_nth = dev->cfg.every_nth;
	unsigned int timeout_nth = dev->cfg.timeout_nth;
	int fe;

	lockdep_assert_held(&ramlld_lock);
	/* a new setting counts from the next command on */
	for (fe = 0; fe < RAMLLD_FE_COUNT; fe++) {
		ramlld_compat_fault_attr_set_every(&fa->fail_io[fe], every_nth);
		ramlld_compat_fault_attr_set_every(&fa->fail_timeout[fe],
						   fe == RAMLLD_FE_BIO ? 0 : timeout_nth);
	}
	ramlld_faults_update(dev);
	return 0;
}

int ramlld_faults_apply_badblocks(struct ramlld_device *dev)
{
	struct ramlld_fault_attrs *fa = dev->fault_attrs;
	struct ramlld_bad_range r = dev->cfg.badblocks;

	lockdep_assert_held(&ramlld_lock);
	/* the I/O path stops looking before the table changes under it */
	WRITE_ONCE(dev->faults, dev->faults & ~RAMLLD_FAULT_BADBLOCKS);
	if (fa->bad.nr &&
	    !ramlld_compat_badblocks_clear(&dev->badblocks, fa->bad.first,
					   fa->bad.nr))
		goto full;
	fa->bad.nr = 0;
	if (r.nr && !ramlld_compat_badblocks_set(&dev->badblocks, r.first, r.nr)) {
		ramlld_compat_badblocks_clear(&dev->badblocks, r.first, r.nr);
		goto full;
	}
	fa->bad = r;
	ramlld_faults_update(dev);
	return 0;
full:
	pr_err("device %u: the badblocks table is full\n", dev->index);
	ramlld_faults_update(dev);
	return -ENOSPC;
}

int ramlld_faults_init(struct ramlld_device *dev, struct dentry *root)
{
	struct ramlld_fault_attrs *fa;
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
	ramlld_faults_update(dev);
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
