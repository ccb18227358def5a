/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ramlld.h - a device and its group, and their creation and removal
 * (device.c).
 *
 * A device (struct ramlld_device) is one store with its own configuration
 * (struct ramlld_config, settings.h), exposed by the front ends its config
 * names (bio, blk-mq, SCSI). Devices come from the module parameters at
 * load (a group of nr_devices alike) or one by one from configfs. The
 * front ends read their settings from the device they serve, never from a
 * global; they translate their command into byte ranges of the store and
 * call the ramlld_store_* verbs (store.h), none of them copies data itself.
 */
#ifndef RAMLLD_H
#define RAMLLD_H

#include <linux/types.h>
#include <linux/badblocks.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>

#include "settings.h"

/* Front ends, each with its own every_nth / timeout_nth command count. */
enum ramlld_fe {
	RAMLLD_FE_BIO,
	RAMLLD_FE_MQ,
	RAMLLD_FE_SCSI,
	RAMLLD_FE_COUNT,
};

struct ramlld_store;
struct ramlld_mq_dev;
struct ramlld_group;
struct ramlld_fault_attrs;
struct ramlld_irq_map;
struct ramlld_scsi_host;
struct gendisk;
struct dentry;

/* One device: a store and what each front end made of it. */
struct ramlld_device {
	struct ramlld_config cfg;
	unsigned int index;		/* ramlld<index>, ramlldmq<index>, SCSI serial */
	struct ramlld_group *group;
	unsigned int group_pos;		/* place in the group: SCSI target and LUN */
	struct list_head node;		/* ramlld_devices, under ramlld_lock */
	struct ramlld_store *store;
	struct gendisk *bio_disk;	/* bio front end, NULL when absent */
	struct ramlld_mq_dev *mq;	/* blk-mq front end, NULL when absent */
	/* fault injection (faults.c): changed under ramlld_lock */
	unsigned int faults;		/* RAMLLD_FAULT_* armed, read by every I/O */
	struct badblocks badblocks;	/* the block layer's bad-sector table */
	struct ramlld_fault_attrs *fault_attrs;
	/* cfg.irq_cpus as the I/O path reads it (irq.c), NULL when empty */
	struct ramlld_irq_map __rcu *irq_map;
};

/*
 * Devices created together: the nr_devices of the module parameters, or
 * one configfs device. The SCSI front end gives each group one host, its
 * devices as LUNs (position p: target p / luns_per_tgt, LUN p %
 * luns_per_tgt); mq with shared_tags gives it one tag set.
 */
struct ramlld_group {
	struct list_head node;		/* ramlld_groups, under ramlld_lock */
	unsigned int nr_devices;
	unsigned int luns_per_tgt;	/* effective (never 0) */
	struct ramlld_scsi_host *scsi_host; /* the SCSI front end's, NULL when absent */
	struct blk_mq_tag_set *mq_shared_set; /* mq: the group's shared tag set */
	unsigned int mq_shared_users;
	struct ramlld_device *devices[];
};

/*
 * Serialises device and group creation and removal and the run-time
 * module parameters' walk of the devices. Never taken on the I/O path.
 */
extern struct mutex ramlld_lock;

/*
 * A group of cfg->nr_devices devices (cfg checked with
 * ramlld_config_check()), each at the lowest free device index, every front
 * end of cfg.mode added; all or nothing, an ERR_PTR on failure. Called with
 * ramlld_lock held.
 */
struct ramlld_group *ramlld_group_create(const struct ramlld_config *cfg);
/* Remove every front end and free the stores; ramlld_lock held. */
void ramlld_group_destroy(struct ramlld_group *group);
/* Whether a disk of the group (bio, mq or sd) is open; ramlld_lock held. */
bool ramlld_group_busy(struct ramlld_group *group);
/* Call fn on every device of every group; ramlld_lock held. */
typedef void (*ramlld_device_fn)(struct ramlld_device *dev, void *data);
void ramlld_devices_apply(ramlld_device_fn fn, void *data);
/*
 * Module init/exit: the bio and mq disks' majors (disk.c). debugfs:
 * ramlld's directory, NULL or an ERR_PTR without debugfs; each device's
 * fault attributes go below it.
 */
int ramlld_devices_init(struct dentry *debugfs);
void ramlld_devices_exit(void);

/* configfs (configfs.c): new devices start from *defaults (ramlld_lock). */
int ramlld_configfs_init(const struct ramlld_config *defaults);
void ramlld_configfs_exit(void);

/*
 * max_sectors_kb's default, in 512-byte sectors (1 MiB): the largest
 * request the block layer and sd make unless max_sectors_kb is raised;
 * max_hw_sectors_kb bounds that and passthrough (SG_IO) commands.
 */
#define RAMLLD_DEF_MAX_SECTORS	2048
/*
 * Largest discard, write-zeroes, UNMAP command or WRITE SAME: bounds the
 * pages one request frees or zeroes where the CPU cannot be given up
 * (queue_rq, queuecommand). 64 MiB, as the SCSI front end's VPD B0 says.
 */
#define RAMLLD_MAX_DISCARD_BYTES	(64u << 20)

#endif /* RAMLLD_H */
