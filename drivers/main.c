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
		.max_discard_sectors = UINT_MAX >> SECTOR_SHIFT,
		.discard_granularity = PAGE_SIZE,
		.max_write_zeroes_sectors = UINT_MAX >> SECTOR_SHIFT,
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
