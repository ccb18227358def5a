// SPDX-License-Identifier: GPL-2.0
/*
 * faults.c - fault injection: the badblocks=, every_nth and timeout_nth
 * module parameters and the one fault decision every front end asks
 * (docs/design.md, "Fault injection").
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "ramlld.h"

#define RAMLLD_FAULT_BADBLOCKS		0x1
#define RAMLLD_FAULT_EVERY_NTH		0x2
#define RAMLLD_FAULT_TIMEOUT_NTH	0x4

/* The badblocks= range, in bytes: [start, end). Replaced whole, under RCU. */
struct ramlld_badrange {
	u64 start;
	u64 end;
	struct rcu_head rcu;
};

/*
 * Every setter runs under the module's parameter lock (kernel_param_lock),
 * at load and on a sysfs write alike, and ends by recomputing
 * ramlld_faults: a RAMLLD_FAULT_* bit per armed knob, 0 when none is.
 */
unsigned int ramlld_faults;
static struct ramlld_badrange __rcu *ramlld_badrange;
static unsigned int ramlld_every_nth;
static unsigned int ramlld_timeout_nth;
static atomic_t ramlld_fault_count[RAMLLD_FE_COUNT];

static void ramlld_faults_update(void)
{
	unsigned int f = 0;
	int i;

	if (rcu_access_pointer(ramlld_badrange))
		f |= RAMLLD_FAULT_BADBLOCKS;
	if (ramlld_every_nth)
		f |= RAMLLD_FAULT_EVERY_NTH;
	if (ramlld_timeout_nth)
		f |= RAMLLD_FAULT_TIMEOUT_NTH;
	/* a new setting counts from the next command on */
	for (i = 0; i < RAMLLD_FE_COUNT; i++)
		atomic_set(&ramlld_fault_count[i], 0);
	WRITE_ONCE(ramlld_faults, f);
}

/* The first bad byte of [pos, pos + len), or U64_MAX. */
static u64 ramlld_fault_first_bad(u64 pos, u64 len)
{
	const struct ramlld_badrange *r;
	u64 bad = U64_MAX;

	rcu_read_lock();
	r = rcu_dereference(ramlld_badrange);
	if (r && pos < r->end && pos + len > r->start)
		bad = max(pos, r->start);
	rcu_read_unlock();
	return bad;
}

enum ramlld_fault ramlld_fault_decide(struct ramlld_device *dev,
				      enum ramlld_fe fe, u64 pos, u64 len,
				      u64 *bad)
{
	unsigned int every = READ_ONCE(ramlld_every_nth);
	unsigned int tmo = fe != RAMLLD_FE_BIO ? READ_ONCE(ramlld_timeout_nth) : 0;
	unsigned int n;

	if (!len)
		return RAMLLD_FAULT_NONE;
	if (every || tmo) {
		n = (unsigned int)atomic_inc_return(&ramlld_fault_count[fe]);
		if (tmo && !(n % tmo))
			return RAMLLD_FAULT_TIMEOUT;
		if (every && !(n % every)) {
			*bad = pos;
			return RAMLLD_FAULT_ERROR;
		}
	}
	if (!(READ_ONCE(ramlld_faults) & RAMLLD_FAULT_BADBLOCKS))
		return RAMLLD_FAULT_NONE;
	*bad = ramlld_fault_first_bad(pos, len);
	return *bad == U64_MAX ? RAMLLD_FAULT_NONE : RAMLLD_FAULT_ERROR;
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
	*(unsigned int *)kp->arg = n;
	ramlld_faults_update();
	return 0;
}

static const struct kernel_param_ops ramlld_nth_ops = {
	.set	= ramlld_param_set_nth,
	.get	= param_get_uint,
};

module_param_cb(every_nth, &ramlld_nth_ops, &ramlld_every_nth, 0644);
MODULE_PARM_DESC(every_nth, "Fail every Nth read or write of each front end with EIO or MEDIUM ERROR, 0 off; writable at run time (default: 0)");
module_param_cb(timeout_nth, &ramlld_nth_ops, &ramlld_timeout_nth, 0644);
MODULE_PARM_DESC(timeout_nth, "Never complete every Nth read or write of the mq and scsi front ends, so that it times out, 0 off; writable at run time (default: 0)");

/* "START-END" in 512-byte sectors, inclusive, or "" to clear. */
static int ramlld_param_set_badblocks(const char *val,
				      const struct kernel_param *kp)
{
	struct ramlld_badrange *r = NULL, *old;
	size_t len = val ? strcspn(val, "\n") : 0;
	u64 start, end;
	char buf[48], *dash;

	if (!val)
		goto bad;
	if (len) {
		if (len >= sizeof(buf))
			goto bad;
		memcpy(buf, val, len);
		buf[len] = '\0';
		dash = strchr(buf, '-');
		if (!dash)
			goto bad;
		*dash = '\0';
		if (kstrtou64(buf, 10, &start) || kstrtou64(dash + 1, 10, &end) ||
		    start > end || end >= (U64_MAX >> SECTOR_SHIFT))
			goto bad;
		r = kmalloc(sizeof(*r), GFP_KERNEL);
		if (!r)
			return -ENOMEM;
		r->start = start << SECTOR_SHIFT;
		r->end = (end + 1) << SECTOR_SHIFT;
	}
	old = rcu_replace_pointer(ramlld_badrange, r, true);
	ramlld_faults_update();
	if (old)
		kfree_rcu(old, rcu);
	return 0;

bad:
	pr_err("badblocks=%.*s is invalid: allowed START-END (512-byte sectors, inclusive, START <= END) or an empty string to clear\n",
	       (int)len, val ? val : "");
	return -EINVAL;
}

static int ramlld_param_get_badblocks(char *buf, const struct kernel_param *kp)
{
	const struct ramlld_badrange *r;
	int n;

	rcu_read_lock();
	r = rcu_dereference(ramlld_badrange);
	if (r)
		n = scnprintf(buf, PAGE_SIZE, "%llu-%llu\n", r->start >> SECTOR_SHIFT,
			      (r->end >> SECTOR_SHIFT) - 1);
	else
		n = scnprintf(buf, PAGE_SIZE, "\n");
	rcu_read_unlock();
	return n;
}

/* At unload, or when the load fails: no I/O path can read the range any more. */
static void ramlld_param_free_badblocks(void *arg)
{
	kfree(rcu_replace_pointer(ramlld_badrange, NULL, true));
}

static const struct kernel_param_ops ramlld_badblocks_ops = {
	.set	= ramlld_param_set_badblocks,
	.get	= ramlld_param_get_badblocks,
	.free	= ramlld_param_free_badblocks,
};

module_param_cb(badblocks, &ramlld_badblocks_ops, NULL, 0644);
MODULE_PARM_DESC(badblocks, "Fail I/O touching START-END (512-byte sectors, inclusive) of every store, \"\" to clear; writable at run time (default: \"\")");
