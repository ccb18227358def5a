/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ramlld.h - the device, its configuration, the store and the front ends.
 *
 * A device (struct ramlld_device) is one store with its own configuration
 * (struct ramlld_config), exposed by the front ends its config names (bio,
 * blk-mq, SCSI). Devices come from the module parameters at load (a group
 * of nr_devices alike) or one by one from configfs. The front ends read
 * their settings from the device they serve, never from a global; they
 * translate their command into byte ranges of the store and call the
 * ramlld_store_* verbs below, none of them copies data itself.
 */
#ifndef RAMLLD_H
#define RAMLLD_H

#include <linux/types.h>
#include <linux/badblocks.h>
#include <linux/bio.h>
#include <linux/blk_types.h>
#include <linux/blkdev.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <linux/spinlock.h>

#define RAMLLD_NAME		"ramlld"
/* Devices at once (load-time and configfs together): device indexes 0..255. */
#define RAMLLD_MAX_DEVICES	256

/* Front ends, as bits of the mode= parameter and of the modes attribute. */
#define RAMLLD_MODE_BIO		0x1
#define RAMLLD_MODE_MQ		0x2
#define RAMLLD_MODE_SCSI	0x4
#define RAMLLD_MODE_ALL		(RAMLLD_MODE_BIO | RAMLLD_MODE_MQ | RAMLLD_MODE_SCSI)

/* Where and how a command completes; shared by the mq and SCSI front ends. */
enum ramlld_irqmode {
	RAMLLD_IRQ_NONE = 0,	/* inline, in the submitting context */
	RAMLLD_IRQ_SOFTIRQ = 1,	/* blk_mq_complete_request(): rq_affinity decides the CPU */
	RAMLLD_IRQ_TIMER = 2,	/* hrtimer after completion_nsec, then as SOFTIRQ */
};

struct ramlld_device;

#include "settings.h"

/*
 * Every setting of one device (settings.h): from the module parameters
 * (load) or the configfs attributes, checked whole by ramlld_config_check()
 * before the device gets anything. Load-time settings are fixed from then
 * on; a run-time one changes in a live device's copy (under ramlld_lock,
 * one WRITE_ONCE for a number), read where it is used. The SCSI host
 * settings (num_tgts .. submit_queues) are those of the host the device's
 * group gets: one host for the load-time group, one per configfs device.
 */
#define RAMLLD_CONFIG_FIELD(name, type, ...)	RAMLLD_CTYPE_##type name;
struct ramlld_config {
	RAMLLD_SETTINGS(RAMLLD_CONFIG_FIELD)
};

/* One setting: where it is in struct ramlld_config and what it allows. */
struct ramlld_setting_type;
struct ramlld_setting {
	const char *name;
	const struct ramlld_setting_type *type;
	size_t off;
	u64 min, max;
	bool run;		/* may change while the device exists */
	const char *def;	/* the default's text */
	bool (*check)(const struct ramlld_config *cfg, char *allowed,
		      size_t size);
	int (*apply)(struct ramlld_device *dev);
};

extern const struct ramlld_setting ramlld_settings[RAMLLD_SET_COUNT];

/*
 * Check cfg whole; on a bad value, one pr_err "<prefix><name>=<value> is
 * invalid: allowed ..." (prefix "" or e.g. "dev1/") and -EINVAL. Does not
 * change cfg.
 */
int ramlld_config_check(const struct ramlld_config *cfg, const char *prefix);
/* Parse val into cfg's s; on a bad one the same pr_err, -EINVAL, cfg unchanged. */
int ramlld_setting_parse(const struct ramlld_setting *s,
			 struct ramlld_config *cfg, const char *val,
			 const char *prefix);
/* cfg's s as text and a newline, at most size bytes; its length. */
int ramlld_setting_format(const struct ramlld_setting *s,
			  const struct ramlld_config *cfg, char *buf,
			  size_t size);
bool ramlld_setting_is_bool(const struct ramlld_setting *s);
/* The list settings still 0 take their default's text (mode: bio). */
void ramlld_settings_defaults(struct ramlld_config *cfg);
/* Give live dev from's value of run-time s; ramlld_lock held. */
int ramlld_setting_apply(const struct ramlld_setting *s,
			 struct ramlld_device *dev,
			 const struct ramlld_config *from);
/* A new device takes every run-time value of its cfg; ramlld_lock held. */
int ramlld_settings_apply_all(struct ramlld_device *dev);
/* The settings of this build, comma-separated, and a newline. */
int ramlld_settings_features(char *buf, size_t size);
/* The physical block size cfg gives (physical_block_size 0 is sector_size). */
unsigned int ramlld_config_pbs(const struct ramlld_config *cfg);
/* luns_per_tgt as used: 0 is nr_devices / num_tgts rounded up. */
unsigned int ramlld_config_lpt(const struct ramlld_config *cfg);
/* The number of irq_cpus vectors, 0 if none: the default hw queue count. */
unsigned int ramlld_config_nr_vectors(const struct ramlld_config *cfg);
/* configfs (configfs.c): new devices start from *defaults (ramlld_lock). */
int ramlld_configfs_init(const struct ramlld_config *defaults);
void ramlld_configfs_exit(void);

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

/* SCSI error handlers, as bits of eh_fail (the ones that report FAILED). */
enum ramlld_scsi_eh {
	RAMLLD_EH_ABORT,
	RAMLLD_EH_DEVICE_RESET,
	RAMLLD_EH_TARGET_RESET,
	RAMLLD_EH_BUS_RESET,
	RAMLLD_EH_HOST_RESET,
	RAMLLD_EH_COUNT,
};

extern const char * const ramlld_scsi_eh_names[RAMLLD_EH_COUNT];

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
 * module parameters' walk of the devices.
 * Never taken on the I/O path.
 */
extern struct mutex ramlld_lock;

/*
 * A group of cfg->nr_devices devices (cfg checked with ramlld_config_check()), each
 * at the lowest free device index, every front end of cfg.mode added (the
 * SCSI one); all or nothing, an ERR_PTR on failure.
 * Called with ramlld_lock held.
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
 * Block majors of the bio and mq front ends (device.c): module init/exit.
 * debugfs: ramlld's directory, NULL or an ERR_PTR without debugfs; each
 * device's fault attributes go below it.
 */
int ramlld_devices_init(struct dentry *debugfs);
void ramlld_devices_exit(void);

/*
 * One disk set-up and teardown for the bio (set NULL) and mq front ends:
 * queue limits from dev's config, name and minors from dev->index, the
 * store's capacity. Returns the added disk or an ERR_PTR.
 */
struct gendisk *ramlld_disk_add(struct ramlld_device *dev, enum ramlld_fe fe,
				const struct block_device_operations *fops,
				struct blk_mq_tag_set *set);
void ramlld_disk_del(struct gendisk *disk);

/* Front ends' per-device add and remove (bio.c, mq.c); ramlld_lock held. */
int ramlld_bio_add(struct ramlld_device *dev);
void ramlld_bio_remove(struct ramlld_device *dev);
int ramlld_mq_add(struct ramlld_device *dev);
void ramlld_mq_remove(struct ramlld_device *dev);
struct gendisk *ramlld_mq_disk(const struct ramlld_device *dev);

/*
 * The SCSI front end (scsi.c): a group's host, its devices as LUNs, all of
 * them attached when add returns; remove waits for their commands. The
 * others: whether an sd disk of the group is open, its host number (-1
 * without one); all with ramlld_lock held. init/exit: the hosts' parent
 * device, at module init and exit.
 */
int ramlld_scsi_add(struct ramlld_group *group);
void ramlld_scsi_remove(struct ramlld_group *group);
bool ramlld_scsi_busy(struct ramlld_group *group);
int ramlld_scsi_host_no(struct ramlld_group *group);
int ramlld_scsi_init(void);
void ramlld_scsi_exit(void);

/*
 * Fault injection (faults.c; docs/design.md, "Fault injection"): a device's
 * bad sectors (the block layer's badblocks table), every_nth and timeout_nth
 * (fault-injection attributes, one per front end). ramlld_faults_armed() is
 * one load and false while none is set; only then does an I/O path ask
 * ramlld_fault_decide().
 */
enum ramlld_fault {
	RAMLLD_FAULT_NONE = 0,
	RAMLLD_FAULT_ERROR,	/* fail it: EIO, or MEDIUM ERROR on SCSI */
	RAMLLD_FAULT_TIMEOUT,	/* never complete it: the timeout handler does */
};

/* Bits of ramlld_device.faults */
#define RAMLLD_FAULT_BADBLOCKS	0x1	/* a bad range is set */
#define RAMLLD_FAULT_NTH	0x2	/* every_nth or timeout_nth */
#define RAMLLD_FAULT_DEBUGFS	0x4	/* the framework's debugfs knobs exist */

static inline bool ramlld_faults_armed(const struct ramlld_device *dev)
{
	return unlikely(READ_ONCE(dev->faults));
}

/*
 * dev's fault attributes and table (after its index is set), the
 * framework's knobs below debugfs (NULL or an ERR_PTR: none); ramlld_lock
 * held.
 */
int ramlld_faults_init(struct ramlld_device *dev, struct dentry *debugfs);
void ramlld_faults_exit(struct ramlld_device *dev);
/* The apply of every_nth, timeout_nth and badblocks (settings.h). */
int ramlld_faults_apply_nth(struct ramlld_device *dev);
int ramlld_faults_apply_badblocks(struct ramlld_device *dev);

enum ramlld_fault ramlld_fault_decide(struct ramlld_device *dev,
				      enum ramlld_fe fe, u64 pos, u64 len,
				      u64 *bad);

/*
 * The interrupt model (irq.c): where the mq and SCSI front ends signal a
 * completion. Each command embeds a struct ramlld_irq_cmd, set up once with
 * the front end's completion, which goes through blk_mq_complete_request()
 * (rq_affinity, IPI, BLOCK_SOFTIRQ).
 */
struct ramlld_irq_cmd {
	struct __call_single_data csd;	/* the IPI to another CPU */
	struct llist_node node;		/* on the submitting CPU's self-IPI list */
	void (*complete)(struct ramlld_irq_cmd *icmd);
	u8 fe;				/* enum ramlld_fe, for the counters */
};

void ramlld_irq_cmd_init(struct ramlld_irq_cmd *icmd, enum ramlld_fe fe,
			 void (*complete)(struct ramlld_irq_cmd *icmd));
/*
 * Signal the completion of a command of dev's hardware queue hwq, as its
 * interrupt vector would (dev's irq_cpus): ->complete runs in hard interrupt
 * context on the vector's CPU; inline when irq_cpus is empty. from_irq: the
 * caller is the irqmode=2 timer (hard interrupt context already). Does not
 * sleep. hwq RAMLLD_IRQ_NO_VECTOR (a poll queue's): inline, whatever
 * irq_cpus says.
 */
#define RAMLLD_IRQ_NO_VECTOR	UINT_MAX
void ramlld_irq_raise(const struct ramlld_device *dev,
		      struct ramlld_irq_cmd *icmd, unsigned int hwq,
		      bool from_irq);
/* The apply of irq_cpus (settings.h): dev's vector map from dev->cfg. */
int ramlld_irq_apply_cpus(struct ramlld_device *dev);
/* Free dev's map: no command of dev is left. */
void ramlld_irq_dev_exit(struct ramlld_device *dev);
/*
 * irqmode and modes: the module parameters' (the counters are kept when
 * irqmode != 0), in debugfs (NULL or an ERR_PTR: none).
 */
void ramlld_irq_init(unsigned int irqmode, unsigned int modes,
		     struct dentry *debugfs);
void ramlld_irq_exit(void);
/* Count an mq request's ->complete on this CPU (done_mq). */
void ramlld_irq_mq_done(void);

/*
 * Complete a command the way dev's irqmode says: done_inline(cmd) now, in
 * the submitting context; the "interrupt" of icmd (hw queue hwq), whose
 * handler goes through blk_mq_complete_request() (rq_affinity, IPI,
 * BLOCK_SOFTIRQ); or start timer, whose callback raises that interrupt
 * after completion_nsec. The one completion switch of the mq and SCSI
 * front ends: inline, so that the callbacks are direct calls.
 */
static __always_inline void ramlld_complete_rq(const struct ramlld_device *dev,
					       void *cmd, struct hrtimer *timer,
					       struct ramlld_irq_cmd *icmd,
					       unsigned int hwq,
					       void (*done_inline)(void *cmd))
{
	switch (dev->cfg.irqmode) {
	case RAMLLD_IRQ_SOFTIRQ:
		ramlld_irq_raise(dev, icmd, hwq, false);
		break;
	case RAMLLD_IRQ_TIMER:
		hrtimer_start(timer, ns_to_ktime(dev->cfg.completion_nsec),
			      HRTIMER_MODE_REL);
		break;
	default:
		done_inline(cmd);
		break;
	}
}

#include "store.h"

/*
 * A store error as a block status: a page that cannot be had fails the
 * write as a medium would (EIO), not as a retryable resource shortage.
 */
static inline blk_status_t ramlld_store_errno_to_blk_status(int err)
{
	if (likely(!err))
		return BLK_STS_OK;
	return err == -EOPNOTSUPP ? BLK_STS_NOTSUPP : BLK_STS_IOERR;
}

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
