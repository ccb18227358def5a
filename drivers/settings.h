/* SPDX-License-Identifier: GPL-2.0 */
/*
 * settings.h - every setting of a device, once: the table below generates
 * the fields of struct ramlld_config, the module parameters and their
 * modinfo text, the configfs attributes, the checks and their messages
 * (settings.c) and the configfs features list. Below it, the values some
 * settings take (modes, irqmode, eh_fail) and the functions of settings.c.
 *
 * X(name, type, default, min, max, when, check, apply, description)
 *   type      uint, ulong, bool: a number; modes, eh, bad, cpus: a list or a
 *             range, its default a string
 *   min, max  a number's range (RAMLLD_NR_CPUS: nr_cpu_ids); 0, 0 otherwise
 *   when      load: fixed while the device exists; run: writable then too
 *   check     NULL: the range (a list's own rule); else a function of the
 *             whole configuration for what depends on other settings
 *   apply     run: how a live device takes a new value (NULL: read where used)
 *   description  modinfo's text, " (default: ...)" added (and that a run
 *             one is writable at run time)
 */
#ifndef RAMLLD_SETTINGS_H
#define RAMLLD_SETTINGS_H

#include <linux/types.h>
#include <linux/bitmap.h>
#include <linux/limits.h>
#include <linux/stringify.h>
#include <linux/time64.h>

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

#define RAMLLD_MAX_CAPACITY_MB	(1024UL * 1024)	/* 1 TiB: a 2 GiB page table */
#define RAMLLD_MAX_QUEUE_DEPTH	4096
#define RAMLLD_NR_CPUS		((u64)-1)	/* a maximum of nr_cpu_ids */

#define RAMLLD_SETTINGS(X)						\
X(mode, modes, "bio", 0, 0, load, NULL, NULL,				\
	"Front ends: bio (alias block), mq, scsi, a comma list, or all")	\
X(nr_devices, uint, 1, 1, RAMLLD_MAX_DEVICES, load, NULL, NULL,		\
	"Stores (a configfs device: 1), each exposed by every front end")	\
X(capacity_mb, ulong, 256, 1, RAMLLD_MAX_CAPACITY_MB, load, NULL, NULL, \
	"Capacity of each store in MiB")					\
X(sector_size, uint, 512, 512, 4096, load, ramlld_check_sector_size, NULL, \
	"Logical block size: 512, 1024, 2048 or 4096")			\
X(physical_block_size, uint, 0, 0, 65536, load, ramlld_check_pbs, NULL, \
	"Physical block size, a power of two from sector_size; 0: sector_size") \
X(prealloc, bool, 0, 0, 1, load, NULL, NULL,				\
	"Allocate every page at load instead of on first write")		\
X(irqmode, uint, 0, 0, 2, load, ramlld_check_irqmode, NULL,		\
	"mq, scsi completion: 0 inline, 1 blk_mq_complete_request, 2 timer, then 1") \
X(completion_nsec, ulong, 10000, 0, NSEC_PER_SEC, load, NULL, NULL,	\
	"Completion delay with irqmode=2, in ns")				\
X(irq_cpus, cpus, "", 0, 0, run, ramlld_check_irq_cpus, ramlld_irq_apply_cpus, \
	"irqmode=1, 2: CPUs of the n vectors, hw queue i on the (i mod n)-th; n queues") \
X(hw_queue_depth, uint, 64, 1, RAMLLD_MAX_QUEUE_DEPTH, load, NULL, NULL, \
	"mq: tags per hardware queue")					\
X(nr_hw_queues, uint, 0, 0, RAMLLD_NR_CPUS, load, NULL, NULL,		\
	"mq: hardware queues; 0: one per irq_cpus vector, else per CPU")	\
X(shared_tags, bool, 0, 0, 1, load, NULL, NULL,				\
	"mq: one tag set shared by the devices of a group")			\
X(blocking, bool, 0, 0, 1, load, NULL, NULL,				\
	"mq: BLK_MQ_F_BLOCKING, queue_rq may sleep")				\
X(rotational, bool, 0, 0, 1, load, NULL, NULL,				\
	"Disks look rotational (add_random on; SCSI: a 7200 rpm medium)")	\
X(write_cache, bool, 1, 0, 1, load, NULL, NULL,				\
	"Advertise a volatile write cache (flush/FUA, SCSI WCE)")		\
X(num_tgts, uint, 1, 1, RAMLLD_MAX_DEVICES, load, ramlld_check_num_tgts, NULL, \
	"SCSI targets, at most nr_devices; stores fill target 0 first")	\
X(luns_per_tgt, uint, 0, 0, 256, load, ramlld_check_lpt, NULL,	\
	"LUNs per SCSI target; 0: nr_devices / num_tgts rounded up")		\
X(can_queue, uint, 192, 1, 4096, load, NULL, NULL,			\
	"Commands in flight per SCSI host, shared by its submit queues")	\
X(cmd_per_lun, uint, 0, 0, 4096, load, ramlld_check_cmd_per_lun, NULL, \
	"Queue depth of each LUN, at most can_queue; 0: can_queue")		\
X(submit_queues, uint, 0, 0, RAMLLD_NR_CPUS, load, NULL, NULL,	\
	"SCSI submit queues; 0: one per irq_cpus vector, else per CPU")	\
X(poll_queues, uint, 0, 0, RAMLLD_NR_CPUS, load, ramlld_check_poll_queues, NULL, \
	"mq and scsi: polled hardware queues besides the others (SCSI: 5.13)") \
X(queue_rqs, bool, 1, 0, 1, load, NULL, NULL,				\
	"mq: take a plugged list of requests in one ->queue_rqs call (5.17)") \
X(complete_batch, bool, 1, 0, 1, load, NULL, NULL,			\
	"mq: end polled requests and queue_rqs lists as one batch (5.16)")	\
X(throw_away_reads, bool, 0, 0, 1, run, NULL, ramlld_apply_throw_away, \
	"Reads copy no data, as scsi_ram")					\
X(throw_away_writes, bool, 0, 0, 1, run, NULL, ramlld_apply_throw_away, \
	"Writes store no data, as scsi_ram")					\
X(eh_fail, eh, "", 0, 0, run, NULL, NULL,				\
	"SCSI error handlers that fail: abort,device_reset,target_reset,bus_reset,host_reset") \
X(every_nth, uint, 0, 0, UINT_MAX, run, NULL, ramlld_faults_apply_nth, \
	"Fail every Nth read or write of each front end (EIO, MEDIUM ERROR); 0 off") \
X(timeout_nth, uint, 0, 0, UINT_MAX, run, NULL, ramlld_faults_apply_nth, \
	"Never complete every Nth read or write of mq and scsi; 0 off")	\
X(badblocks, bad, "", 0, 0, run, NULL, ramlld_faults_apply_badblocks,	\
	"Fail I/O touching START-END (512-byte sectors, inclusive)")		\
X(max_hw_sectors_kb, uint, 32768, 4, 65536, load, NULL, NULL,		\
	"Largest request in KiB (SG_IO's too); max_sectors_kb stays 1024")

/* The C type of each setting type, in struct ramlld_config. */
#define RAMLLD_CTYPE_uint	unsigned int
#define RAMLLD_CTYPE_ulong	unsigned long
#define RAMLLD_CTYPE_bool	bool
#define RAMLLD_CTYPE_modes	unsigned int		/* RAMLLD_MODE_* bits */
#define RAMLLD_CTYPE_eh		unsigned long		/* BIT(RAMLLD_EH_*) */
#define RAMLLD_CTYPE_bad	struct ramlld_bad_range
#define RAMLLD_CTYPE_cpus	struct ramlld_cpus

/* Bad sectors (512 bytes): first and how many, nr 0 none. */
struct ramlld_bad_range {
	u64 first;
	u64 nr;
};

/* CPUs of the interrupt vectors (irq_cpus), those below this many. */
#define RAMLLD_IRQ_MAX_CPUS	256
struct ramlld_cpus {
	DECLARE_BITMAP(bits, RAMLLD_IRQ_MAX_CPUS);
};

/* A default as C (the config's first value) and as modinfo's text. */
#define RAMLLD_INIT_uint(d)	(d)
#define RAMLLD_INIT_ulong(d)	(d)
#define RAMLLD_INIT_bool(d)	(d)
#define RAMLLD_INIT_modes(d)	0	/* ramlld_settings_defaults() */
#define RAMLLD_INIT_eh(d)	0
#define RAMLLD_INIT_bad(d)	{ }
#define RAMLLD_INIT_cpus(d)	{ }
#define RAMLLD_DEFTEXT_uint(d)	__stringify(d)
#define RAMLLD_DEFTEXT_ulong(d)	__stringify(d)
#define RAMLLD_DEFTEXT_bool(d)	__stringify(d)
#define RAMLLD_DEFTEXT_modes(d)	d
#define RAMLLD_DEFTEXT_eh(d)	d
#define RAMLLD_DEFTEXT_bad(d)	d
#define RAMLLD_DEFTEXT_cpus(d)	d
/* as modinfo shows it: a list's in quotes, so that "" shows */
#define RAMLLD_DEFSHOW_uint(d)	__stringify(d)
#define RAMLLD_DEFSHOW_ulong(d)	__stringify(d)
#define RAMLLD_DEFSHOW_bool(d)	__stringify(d)
#define RAMLLD_DEFSHOW_modes(d)	"\"" d "\""
#define RAMLLD_DEFSHOW_eh(d)	"\"" d "\""
#define RAMLLD_DEFSHOW_bad(d)	"\"" d "\""
#define RAMLLD_DEFSHOW_cpus(d)	"\"" d "\""

#define RAMLLD_WHENTEXT_load	""
#define RAMLLD_WHENTEXT_run	"; run-time"

/* modinfo's parameter type */
#define RAMLLD_PTYPE_uint	"uint"
#define RAMLLD_PTYPE_ulong	"ulong"
#define RAMLLD_PTYPE_bool	"bool"
#define RAMLLD_PTYPE_modes	"charp"
#define RAMLLD_PTYPE_eh		"charp"
#define RAMLLD_PTYPE_bad	"charp"
#define RAMLLD_PTYPE_cpus	"charp"

#define RAMLLD_SETTING_ID(name, ...)	RAMLLD_SET_##name,
enum ramlld_setting_id {
	RAMLLD_SETTINGS(RAMLLD_SETTING_ID)
	RAMLLD_SET_COUNT
};

struct ramlld_device;

/*
 * Every setting of one device (the table above): from the module parameters
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
static inline unsigned int ramlld_config_pbs(const struct ramlld_config *cfg)
{
	return cfg->physical_block_size ? cfg->physical_block_size :
					  cfg->sector_size;
}

/* luns_per_tgt as used: 0 is nr_devices / num_tgts rounded up. */
unsigned int ramlld_config_lpt(const struct ramlld_config *cfg);
/* The number of irq_cpus vectors, 0 if none: the default hw queue count. */
static inline unsigned int ramlld_config_nr_vectors(const struct ramlld_config *cfg)
{
	return bitmap_weight(cfg->irq_cpus.bits, RAMLLD_IRQ_MAX_CPUS);
}

#endif /* RAMLLD_SETTINGS_H */
