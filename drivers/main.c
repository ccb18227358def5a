// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - ramlld module parameters, their validation, and module init/exit.
 *
 * Every parameter is checked before anything is allocated or registered, so
 * a bad value fails the load with -EINVAL, one line naming the parameter and
 * what it allows, and nothing left behind.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/log2.h>
#include <linux/cpumask.h>
#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "ramlld.h"
#include "compat.h"

/* The largest store: 1 TiB (its page table alone is 2 GiB). */
#define RAMLLD_MAX_CAPACITY_MB	(1024UL * 1024)
#define RAMLLD_MAX_QUEUE_DEPTH	4096
#define RAMLLD_MAX_COMPLETION_NSEC	NSEC_PER_SEC

static char *ramlld_mode = "bio";
module_param_named(mode, ramlld_mode, charp, 0444);
MODULE_PARM_DESC(mode, "Front ends: bio (alias block), mq, scsi, a comma list, or all (default: bio)");

unsigned int ramlld_nr_devices = 1;
module_param_named(nr_devices, ramlld_nr_devices, uint, 0444);
MODULE_PARM_DESC(nr_devices, "Number of stores, each exposed by every front end (1-256, default: 1)");

unsigned long ramlld_capacity_mb = 256;
module_param_named(capacity_mb, ramlld_capacity_mb, ulong, 0444);
MODULE_PARM_DESC(capacity_mb, "Capacity of each store in MiB (1-1048576, default: 256)");

unsigned int ramlld_sector_size = 512;
module_param_named(sector_size, ramlld_sector_size, uint, 0444);
MODULE_PARM_DESC(sector_size, "Logical block size: 512, 1024, 2048 or 4096 (default: 512)");

unsigned int ramlld_physical_block_size;
module_param_named(physical_block_size, ramlld_physical_block_size, uint, 0444);
MODULE_PARM_DESC(physical_block_size, "Physical block size, a power of two from sector_size to 65536; 0 means sector_size (default: 0)");

bool ramlld_prealloc;
module_param_named(prealloc, ramlld_prealloc, bool, 0444);
MODULE_PARM_DESC(prealloc, "Allocate every page at load instead of on first write (default: 0)");

unsigned int ramlld_irqmode = RAMLLD_IRQ_NONE;
module_param_named(irqmode, ramlld_irqmode, uint, 0444);
MODULE_PARM_DESC(irqmode, "mq and scsi completion: 0 inline, 1 softirq (blk_mq_complete_request), 2 hrtimer after completion_nsec (default: 0)");

unsigned long ramlld_completion_nsec = 10000;
module_param_named(completion_nsec, ramlld_completion_nsec, ulong, 0444);
MODULE_PARM_DESC(completion_nsec, "Completion delay with irqmode=2, in ns (0-1000000000, default: 10000)");

unsigned int ramlld_hw_queue_depth = 64;
module_param_named(hw_queue_depth, ramlld_hw_queue_depth, uint, 0444);
MODULE_PARM_DESC(hw_queue_depth, "mq: tags per hardware queue (1-4096, default: 64)");

unsigned int ramlld_nr_hw_queues;
module_param_named(nr_hw_queues, ramlld_nr_hw_queues, uint, 0444);
MODULE_PARM_DESC(nr_hw_queues, "mq: hardware queues, 0 for one per CPU (0-nr_cpu_ids, default: 0)");

bool ramlld_shared_tags;
module_param_named(shared_tags, ramlld_shared_tags, bool, 0444);
MODULE_PARM_DESC(shared_tags, "mq: one tag set shared by every device (default: 0)");

bool ramlld_blocking;
module_param_named(blocking, ramlld_blocking, bool, 0444);
MODULE_PARM_DESC(blocking, "mq: BLK_MQ_F_BLOCKING, queue_rq may sleep (default: 0)");

bool ramlld_write_cache = true;
module_param_named(write_cache, ramlld_write_cache, bool, 0444);
MODULE_PARM_DESC(write_cache, "Advertise a volatile write cache (flush/FUA, SCSI WCE) (default: 1)");

bool ramlld_throw_away_reads;
module_param_named(throw_away_reads, ramlld_throw_away_reads, bool, 0644);
MODULE_PARM_DESC(throw_away_reads, "Reads copy no data, as scsi_ram; writable at run time (default: 0)");

bool ramlld_throw_away_writes;
module_param_named(throw_away_writes, ramlld_throw_away_writes, bool, 0644);
MODULE_PARM_DESC(throw_away_writes, "Writes store no data, as scsi_ram; writable at run time (default: 0)");

/*
 * Fault injection (docs/design.md, "Fault injection"). Every setter runs
 * under the module's parameter lock (kernel_param_lock), at load and on a
 * sysfs write alike, and ends by recomputing ramlld_faults.
 */
unsigned int ramlld_faults;
struct ramlld_badrange __rcu *ramlld_badrange;
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

enum ramlld_fault ramlld_fault_nth(enum ramlld_fe fe, bool can_time_out)
{
	unsigned int every = READ_ONCE(ramlld_every_nth);
	unsigned int tmo = can_time_out ? READ_ONCE(ramlld_timeout_nth) : 0;
	unsigned int n;

	if (!every && !tmo)
		return RAMLLD_FAULT_NONE;
	n = (unsigned int)atomic_inc_return(&ramlld_fault_count[fe]);
	if (tmo && !(n % tmo))
		return RAMLLD_FAULT_TIMEOUT;
	if (every && !(n % every))
		return RAMLLD_FAULT_ERROR;
	return RAMLLD_FAULT_NONE;
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

unsigned int ramlld_modes;

static int ramlld_parse_modes(const char *arg, unsigned int *modes)
{
	char buf[64], *s, *tok;

	if (!arg || strscpy(buf, arg, sizeof(buf)) < 0)
		goto bad;
	*modes = 0;
	s = buf;
	while ((tok = strsep(&s, ",")) != NULL) {
		tok = strim(tok);
		if (!strcmp(tok, "bio") || !strcmp(tok, "block"))
			*modes |= RAMLLD_MODE_BIO;
		else if (!strcmp(tok, "mq"))
			*modes |= RAMLLD_MODE_MQ;
		else if (!strcmp(tok, "scsi"))
			*modes |= RAMLLD_MODE_SCSI;
		else if (!strcmp(tok, "all"))
			*modes |= RAMLLD_MODE_BIO | RAMLLD_MODE_MQ | RAMLLD_MODE_SCSI;
		else
			goto bad;
	}
	if (*modes)
		return 0;
bad:
	pr_err("mode=%s is invalid: allowed are bio (alias block), mq, scsi, all, or a comma list of them\n",
	       arg ? arg : "(null)");
	return -EINVAL;
}

static int ramlld_check_params(void)
{
	unsigned int pbs;

	if (ramlld_parse_modes(ramlld_mode, &ramlld_modes))
		return -EINVAL;
	if (ramlld_nr_devices < 1 || ramlld_nr_devices > RAMLLD_MAX_DEVICES) {
		pr_err("nr_devices=%u is invalid: allowed 1-%u\n",
		       ramlld_nr_devices, RAMLLD_MAX_DEVICES);
		return -EINVAL;
	}
	if (ramlld_capacity_mb < 1 || ramlld_capacity_mb > RAMLLD_MAX_CAPACITY_MB) {
		pr_err("capacity_mb=%lu is invalid: allowed 1-%lu\n",
		       ramlld_capacity_mb, RAMLLD_MAX_CAPACITY_MB);
		return -EINVAL;
	}
	if (ramlld_sector_size != 512 && ramlld_sector_size != 1024 &&
	    ramlld_sector_size != 2048 && ramlld_sector_size != 4096) {
		pr_err("sector_size=%u is invalid: allowed 512, 1024, 2048, 4096\n",
		       ramlld_sector_size);
		return -EINVAL;
	}
	pbs = ramlld_physical_block_size ? ramlld_physical_block_size : ramlld_sector_size;
	if (!is_power_of_2(pbs) || pbs < ramlld_sector_size || pbs > 65536) {
		pr_err("physical_block_size=%u is invalid: allowed 0 or a power of two from sector_size (%u) to 65536\n",
		       ramlld_physical_block_size, ramlld_sector_size);
		return -EINVAL;
	}
	ramlld_physical_block_size = pbs;
	if (ramlld_irqmode > RAMLLD_IRQ_TIMER) {
		pr_err("irqmode=%u is invalid: allowed 0 (inline), 1 (softirq), 2 (timer)\n",
		       ramlld_irqmode);
		return -EINVAL;
	}
	if (ramlld_completion_nsec > RAMLLD_MAX_COMPLETION_NSEC) {
		pr_err("completion_nsec=%lu is invalid: allowed 0-%lu\n",
		       ramlld_completion_nsec, RAMLLD_MAX_COMPLETION_NSEC);
		return -EINVAL;
	}
	if (ramlld_hw_queue_depth < 1 || ramlld_hw_queue_depth > RAMLLD_MAX_QUEUE_DEPTH) {
		pr_err("hw_queue_depth=%u is invalid: allowed 1-%u\n",
		       ramlld_hw_queue_depth, RAMLLD_MAX_QUEUE_DEPTH);
		return -EINVAL;
	}
	if (ramlld_nr_hw_queues > nr_cpu_ids) {
		pr_err("nr_hw_queues=%u is invalid: allowed 0 (one per CPU) to %u\n",
		       ramlld_nr_hw_queues, nr_cpu_ids);
		return -EINVAL;
	}
	return 0;
}

void ramlld_disk_limits_init(struct ramlld_disk_limits *lim)
{
	*lim = (struct ramlld_disk_limits) {
		.logical_block_size = ramlld_sector_size,
		.physical_block_size = ramlld_physical_block_size,
		.max_hw_sectors = RAMLLD_MAX_HW_SECTORS,
		/* discard frees whole pages and zeroes partial ones */
		.max_discard_sectors = RAMLLD_MAX_DISCARD_BYTES >> SECTOR_SHIFT,
		/* newer kernels raise it to the physical block size anyway */
		.discard_granularity = max_t(unsigned int, PAGE_SIZE,
					     ramlld_physical_block_size),
		.max_write_zeroes_sectors = RAMLLD_MAX_DISCARD_BYTES >> SECTOR_SHIFT,
		.write_cache = ramlld_write_cache,
		.io_stat = true,
		.nowait = true,
	};
}

static void ramlld_destroy_stores(void)
{
	unsigned int i;

	for (i = 0; i < RAMLLD_MAX_DEVICES; i++) {
		ramlld_store_destroy(ramlld_stores[i]);
		ramlld_stores[i] = NULL;
	}
}

static int ramlld_create_stores(void)
{
	u64 capacity = (u64)ramlld_capacity_mb << 20;
	unsigned int i;

	for (i = 0; i < ramlld_nr_devices; i++) {
		struct ramlld_store *store;

		store = ramlld_store_create(i, capacity, ramlld_prealloc);
		if (IS_ERR(store)) {
			pr_err("store %u: cannot allocate %lu MiB%s: out of memory\n",
			       i, ramlld_capacity_mb,
			       ramlld_prealloc ? " (prealloc=1)" : " of page table");
			ramlld_destroy_stores();
			return PTR_ERR(store);
		}
		ramlld_stores[i] = store;
	}
	return 0;
}

static int __init ramlld_init(void)
{
	int ret;

	ret = ramlld_check_params();
	if (ret)
		return ret;
	ret = ramlld_create_stores();
	if (ret)
		return ret;

	if (ramlld_modes & RAMLLD_MODE_BIO) {
		ret = ramlld_bio_init();
		if (ret)
			goto err_stores;
	}
	if (ramlld_modes & RAMLLD_MODE_MQ) {
		ret = ramlld_mq_init();
		if (ret)
			goto err_bio;
	}
	if (ramlld_modes & RAMLLD_MODE_SCSI) {
		ret = ramlld_scsi_init();
		if (ret)
			goto err_mq;
	}
	pr_info("%u store(s) of %lu MiB, %u-byte sectors, mode=%s\n",
		ramlld_nr_devices, ramlld_capacity_mb, ramlld_sector_size,
		ramlld_mode);
	return 0;

err_mq:
	if (ramlld_modes & RAMLLD_MODE_MQ)
		ramlld_mq_exit();
err_bio:
	if (ramlld_modes & RAMLLD_MODE_BIO)
		ramlld_bio_exit();
err_stores:
	ramlld_destroy_stores();
	return ret;
}

static void __exit ramlld_exit(void)
{
	if (ramlld_modes & RAMLLD_MODE_SCSI)
		ramlld_scsi_exit();
	if (ramlld_modes & RAMLLD_MODE_MQ)
		ramlld_mq_exit();
	if (ramlld_modes & RAMLLD_MODE_BIO)
		ramlld_bio_exit();
	ramlld_destroy_stores();
}

module_init(ramlld_init);
module_exit(ramlld_exit);

MODULE_AUTHOR("The ramlld authors");
MODULE_DESCRIPTION("RAM store exposed as a bio, a blk-mq and a SCSI low-level driver");
MODULE_LICENSE("GPL");
