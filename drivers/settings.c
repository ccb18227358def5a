// SPDX-License-Identifier: GPL-2.0
/*
 * settings.c - the settings table (settings.h) as descriptors, and what
 * every setting shares: parsing, formatting, the check of a whole
 * configuration with one message per bad value, and handing a run-time
 * value to a live device. The module parameters (main.c) and the configfs
 * attributes (configfs.c) are both made of these descriptors.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/log2.h>
#include <linux/string.h>

#include "ramlld.h"
#include "faults.h"
#include "irq.h"
#include "store.h"
#include "compat.h"

/* What a setting type does; field points into a struct ramlld_config. */
struct ramlld_setting_type {
	int (*parse)(const char *val, void *field);
	int (*format)(char *buf, size_t size, const void *field);
	/* a live device's copy is read without ramlld_lock: one store each */
	void (*copy)(void *dst, const void *src);
	/* the type's own rule, and the allowed text of a range */
	bool (*valid)(const struct ramlld_setting *s, const void *field,
		      char *allowed, size_t size);
	bool text_default;	/* the default is text, parsed at load */
	size_t size;		/* of the field */
};

static u64 ramlld_setting_max(const struct ramlld_setting *s)
{
	return s->max == RAMLLD_NR_CPUS ? nr_cpu_ids : s->max;
}

static bool ramlld_range_valid(const struct ramlld_setting *s, u64 v,
			       char *allowed, size_t size)
{
	snprintf(allowed, size, "%llu-%llu", s->min, ramlld_setting_max(s));
	return v >= s->min && v <= ramlld_setting_max(s);
}

/* The number types: parse (0x.. and 0.. as kstrto*), format, copy, range. */
#define RAMLLD_NUMBER_TYPE(t, kstrto, fmt)				\
static int ramlld_##t##_parse(const char *val, void *field)		\
{									\
	return val ? kstrto(val, 0, field) : -EINVAL;			\
}									\
static int ramlld_##t##_format(char *buf, size_t size, const void *field) \
{									\
	return scnprintf(buf, size, fmt, *(const RAMLLD_CTYPE_##t *)field); \
}									\
static void ramlld_##t##_copy(void *dst, const void *src)		\
{									\
	WRITE_ONCE(*(RAMLLD_CTYPE_##t *)dst,				\
		   *(const RAMLLD_CTYPE_##t *)src);			\
}									\
static bool ramlld_##t##_valid(const struct ramlld_setting *s,		\
			       const void *field, char *allowed,	\
			       size_t size)				\
{									\
	return ramlld_range_valid(s, *(const RAMLLD_CTYPE_##t *)field,	\
				  allowed, size);			\
}

RAMLLD_NUMBER_TYPE(uint, kstrtouint, "%u")
RAMLLD_NUMBER_TYPE(ulong, kstrtoul, "%lu")

/* No value (a bare "prealloc" on the command line) is true. */
static int ramlld_bool_parse(const char *val, void *field)
{
	return kstrtobool(val ? val : "1", field);
}

static int ramlld_bool_format(char *buf, size_t size, const void *field)
{
	return scnprintf(buf, size, "%d", *(const bool *)field);
}

static void ramlld_bool_copy(void *dst, const void *src)
{
	WRITE_ONCE(*(bool *)dst, *(const bool *)src);
}

static bool ramlld_bool_valid(const struct ramlld_setting *s, const void *field,
			      char *allowed, size_t size)
{
	strscpy(allowed, "0 or 1 (or y/n, on/off)", size);
	return true;
}

/*
 * A comma list of names (blanks around each ignored, a newline ends the
 * list) into the OR of their bits (BIT(i) without bits); "" gives 0;
 * -EINVAL for an unknown or empty name.
 */
static int ramlld_parse_list(const char *val, const char * const *names,
			     const unsigned long *bits, unsigned int n,
			     unsigned long *out)
{
	size_t len = val ? strcspn(val, "\n") : 0;
	unsigned long m = 0;
	char buf[96], *s, *tok;
	int i;

	if (!val || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, val, len);
	buf[len] = '\0';
	s = buf;
	while ((tok = strsep(&s, ",")) != NULL) {
		tok = strim(tok);
		if (!*tok && !s && !m)
			break;		/* "": none */
		i = match_string(names, n, tok);
		if (i < 0)
			return -EINVAL;
		m |= bits ? bits[i] : BIT(i);
	}
	*out = m;
	return 0;
}

/* The names of the bits of mask, comma-separated. */
static int ramlld_format_list(char *buf, size_t size, const char * const *names,
			      unsigned int n, unsigned long mask)
{
	unsigned int i;
	int len = 0;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < n; i++)
		if (mask & BIT(i))
			len += scnprintf(buf + len, size - len, "%s%s",
					 len ? "," : "", names[i]);
	return len;
}

static const char * const ramlld_mode_names[] = {
	"bio", "block", "mq", "scsi", "all",
};

static const unsigned long ramlld_mode_bits[ARRAY_SIZE(ramlld_mode_names)] = {
	RAMLLD_MODE_BIO, RAMLLD_MODE_BIO, RAMLLD_MODE_MQ, RAMLLD_MODE_SCSI,
	RAMLLD_MODE_ALL,
};

/* The front ends in RAMLLD_MODE_* bit order, for the format. */
static const char * const ramlld_mode_bit_names[] = { "bio", "mq", "scsi" };

static int ramlld_modes_parse(const char *val, void *field)
{
	unsigned long m;

	if (ramlld_parse_list(val, ramlld_mode_names, ramlld_mode_bits,
			      ARRAY_SIZE(ramlld_mode_names), &m) || !m)
		return -EINVAL;
	*(unsigned int *)field = m;
	return 0;
}

static int ramlld_modes_format(char *buf, size_t size, const void *field)
{
	return ramlld_format_list(buf, size, ramlld_mode_bit_names,
				  ARRAY_SIZE(ramlld_mode_bit_names),
				  *(const unsigned int *)field);
}

static bool ramlld_modes_valid(const struct ramlld_setting *s,
			       const void *field, char *allowed, size_t size)
{
	unsigned int m = *(const unsigned int *)field;

	strscpy(allowed, "bio (alias block), mq, scsi, all, or a comma list of them",
		size);
	return m && !(m & ~RAMLLD_MODE_ALL);
}

const char * const ramlld_scsi_eh_names[RAMLLD_EH_COUNT] = {
	[RAMLLD_EH_ABORT]		= "abort",
	[RAMLLD_EH_DEVICE_RESET]	= "device_reset",
	[RAMLLD_EH_TARGET_RESET]	= "target_reset",
	[RAMLLD_EH_BUS_RESET]		= "bus_reset",
	[RAMLLD_EH_HOST_RESET]		= "host_reset",
};

static int ramlld_eh_parse(const char *val, void *field)
{
	return ramlld_parse_list(val, ramlld_scsi_eh_names, NULL,
				 RAMLLD_EH_COUNT, field);
}

static int ramlld_eh_format(char *buf, size_t size, const void *field)
{
	return ramlld_format_list(buf, size, ramlld_scsi_eh_names,
				  RAMLLD_EH_COUNT, *(const unsigned long *)field);
}

static bool ramlld_eh_valid(const struct ramlld_setting *s, const void *field,
			    char *allowed, size_t size)
{
	strscpy(allowed,
		"a comma list of abort, device_reset, target_reset, bus_reset, host_reset, or empty",
		size);
	return true;
}

/*
 * The longest bad range: the kernel's table holds PAGE_SIZE / 8 ranges of
 * at most 512 sectors each (BB_MAX_LEN), and a longer one is split.
 */
#define RAMLLD_BAD_MAX_SECTORS	((u64)(PAGE_SIZE / 8) * 512)

/* "START-END" (inclusive) or "" for none. */
static int ramlld_bad_parse(const char *val, void *field)
{
	struct ramlld_bad_range *r = field;
	size_t len = val ? strcspn(val, "\n") : 0;
	u64 start, end;
	char buf[48], *dash;

	if (!val || len >= sizeof(buf))
		return -EINVAL;
	if (!len) {
		*r = (struct ramlld_bad_range) { };
		return 0;
	}
	memcpy(buf, val, len);
	buf[len] = '\0';
	dash = strchr(buf, '-');
	if (!dash)
		return -EINVAL;
	*dash = '\0';
	if (kstrtou64(buf, 10, &start) || kstrtou64(dash + 1, 10, &end) ||
	    start > end || end == U64_MAX)
		return -EINVAL;
	r->first = start;
	r->nr = end - start + 1;
	return 0;
}

static int ramlld_bad_format(char *buf, size_t size, const void *field)
{
	const struct ramlld_bad_range *r = field;

	if (!r->nr)
		return scnprintf(buf, size, "%s", "");
	return scnprintf(buf, size, "%llu-%llu", r->first, r->first + r->nr - 1);
}

/* Under ramlld_lock: faults.c reads the range only there. */
static void ramlld_bad_copy(void *dst, const void *src)
{
	memcpy(dst, src, sizeof(struct ramlld_bad_range));
}

static bool ramlld_bad_valid(const struct ramlld_setting *s, const void *field,
			     char *allowed, size_t size)
{
	const struct ramlld_bad_range *r = field;

	snprintf(allowed, size,
		 "START-END (512-byte sectors, inclusive, START <= END < 2^55), at most %llu sectors (the kernel's badblocks table), or an empty string",
		 RAMLLD_BAD_MAX_SECTORS);
	return r->nr <= RAMLLD_BAD_MAX_SECTORS &&
	       r->first <= (U64_MAX >> SECTOR_SHIFT) - r->nr;
}

static int ramlld_cpus_parse(const char *val, void *field)
{
	struct ramlld_cpus *c = field;
	size_t len = val ? strcspn(val, "\n") : 0;
	char buf[128];

	if (!val || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, val, len);
	buf[len] = '\0';
	if (!len) {
		bitmap_zero(c->bits, RAMLLD_IRQ_MAX_CPUS);
		return 0;
	}
	if (bitmap_parselist(buf, c->bits, RAMLLD_IRQ_MAX_CPUS) ||
	    bitmap_empty(c->bits, RAMLLD_IRQ_MAX_CPUS))
		return -EINVAL;
	return 0;
}

static int ramlld_cpus_format(char *buf, size_t size, const void *field)
{
	const struct ramlld_cpus *c = field;
	unsigned int cpu;
	int n = 0;

	if (size)
		buf[0] = '\0';
	for_each_set_bit(cpu, c->bits, RAMLLD_IRQ_MAX_CPUS)
		n += scnprintf(buf + n, size - n, "%s%u", n ? "," : "", cpu);
	return n;
}

/* Under ramlld_lock: irq.c makes the map the I/O path reads from it. */
static void ramlld_cpus_copy(void *dst, const void *src)
{
	memcpy(dst, src, sizeof(struct ramlld_cpus));
}

static bool ramlld_cpus_valid(const struct ramlld_setting *s, const void *field,
			      char *allowed, size_t size)
{
	const struct ramlld_cpus *c = field;
	unsigned int cpu;

	snprintf(allowed, size,
		 "a list of online CPUs (%*pbl), e.g. 0 or 0,2-3, or an empty string for the submitting CPU",
		 cpumask_pr_args(cpu_online_mask));
	for_each_set_bit(cpu, c->bits, RAMLLD_IRQ_MAX_CPUS)
		if (cpu >= nr_cpu_ids || !cpu_online(cpu))
			return false;
	return true;
}

#define RAMLLD_SETTING_TYPE(t, text)					\
static const struct ramlld_setting_type ramlld_type_##t = {		\
	.parse	= ramlld_##t##_parse,					\
	.format	= ramlld_##t##_format,					\
	.copy	= ramlld_##t##_copy,					\
	.valid	= ramlld_##t##_valid,					\
	.text_default = text,						\
	.size	= sizeof(RAMLLD_CTYPE_##t),				\
}

#define ramlld_modes_copy	ramlld_uint_copy
#define ramlld_eh_copy		ramlld_ulong_copy

RAMLLD_SETTING_TYPE(uint, false);
RAMLLD_SETTING_TYPE(ulong, false);
RAMLLD_SETTING_TYPE(bool, false);
RAMLLD_SETTING_TYPE(modes, true);
RAMLLD_SETTING_TYPE(eh, true);
RAMLLD_SETTING_TYPE(bad, true);
RAMLLD_SETTING_TYPE(cpus, true);

unsigned int ramlld_config_lpt(const struct ramlld_config *cfg)
{
	return cfg->luns_per_tgt ? cfg->luns_per_tgt :
				   DIV_ROUND_UP(cfg->nr_devices, cfg->num_tgts);
}

/* The checks that depend on other settings: the allowed text, and whether cfg keeps to it. */
static bool ramlld_check_sector_size(const struct ramlld_config *cfg,
				     char *allowed, size_t size)
{
	strscpy(allowed, "512, 1024, 2048, 4096", size);
	return is_power_of_2(cfg->sector_size) && cfg->sector_size >= 512 &&
	       cfg->sector_size <= 4096;
}

static bool ramlld_check_pbs(const struct ramlld_config *cfg, char *allowed,
			     size_t size)
{
	unsigned int pbs = ramlld_config_pbs(cfg);

	snprintf(allowed, size,
		 "0 or a power of two from sector_size (%u) to 65536",
		 cfg->sector_size);
	return is_power_of_2(pbs) && pbs >= cfg->sector_size && pbs <= 65536;
}

static bool ramlld_check_irqmode(const struct ramlld_config *cfg, char *allowed,
				 size_t size)
{
	strscpy(allowed, "0 (inline), 1 (softirq), 2 (timer)", size);
	return cfg->irqmode <= RAMLLD_IRQ_TIMER;
}

static bool ramlld_check_irq_cpus(const struct ramlld_config *cfg,
				  char *allowed, size_t size)
{
	if (cfg->irqmode == RAMLLD_IRQ_NONE) {
		strscpy(allowed,
			"only an empty string with irqmode=0 (inline); a CPU list with irqmode=1 or 2",
			size);
		return !ramlld_config_nr_vectors(cfg);
	}
	return ramlld_type_cpus.valid(NULL, &cfg->irq_cpus, allowed, size);
}

static bool ramlld_check_num_tgts(const struct ramlld_config *cfg,
				  char *allowed, size_t size)
{
	snprintf(allowed, size, "1-nr_devices (%u)", cfg->nr_devices);
	return cfg->num_tgts >= 1 && cfg->num_tgts <= cfg->nr_devices;
}

static bool ramlld_check_lpt(const struct ramlld_config *cfg, char *allowed,
			     size_t size)
{
	snprintf(allowed, size,
		 "0 or 1-256 with num_tgts * luns_per_tgt >= nr_devices (%u)",
		 cfg->nr_devices);
	return ramlld_config_lpt(cfg) <= 256 &&
	       (u64)ramlld_config_lpt(cfg) * cfg->num_tgts >= cfg->nr_devices;
}

static bool ramlld_check_cmd_per_lun(const struct ramlld_config *cfg,
				     char *allowed, size_t size)
{
	snprintf(allowed, size, "0-can_queue (%u)", cfg->can_queue);
	return cfg->cmd_per_lun <= cfg->can_queue;
}

static bool ramlld_check_poll_queues(const struct ramlld_config *cfg,
				     char *allowed, size_t size)
{
	if (!RAMLLD_HAVE_SCSI_MQ_POLL && (cfg->mode & RAMLLD_MODE_SCSI)) {
		strscpy(allowed, "only 0 with mode=scsi on this kernel (SCSI hosts poll from 5.13)",
			size);
		return !cfg->poll_queues;
	}
	snprintf(allowed, size, "0 (no polling) to %u", nr_cpu_ids);
	return cfg->poll_queues <= nr_cpu_ids;
}

/* Run-time values that the store keeps. */
static int ramlld_apply_throw_away(struct ramlld_device *dev)
{
	ramlld_store_set_throw_away(dev->store, dev->cfg.throw_away_reads,
				    dev->cfg.throw_away_writes);
	return 0;
}

#define RAMLLD_RUN_load		false
#define RAMLLD_RUN_run		true

#define RAMLLD_SETTING_DESC(n, t, d, lo, hi, when, chk, app, desc)	\
	[RAMLLD_SET_##n] = {						\
		.name	= #n,						\
		.type	= &ramlld_type_##t,				\
		.off	= offsetof(struct ramlld_config, n),		\
		.min	= lo,						\
		.max	= hi,						\
		.run	= RAMLLD_RUN_##when,				\
		.def	= RAMLLD_DEFTEXT_##t(d),			\
		.check	= chk,						\
		.apply	= app,						\
	},

const struct ramlld_setting ramlld_settings[RAMLLD_SET_COUNT] = {
	RAMLLD_SETTINGS(RAMLLD_SETTING_DESC)
};

static void *ramlld_field(const struct ramlld_setting *s,
			  const struct ramlld_config *cfg)
{
	return (void *)cfg + s->off;
}

/* Whether cfg's value of s keeps to its rule; the allowed text either way. */
static bool ramlld_setting_valid(const struct ramlld_setting *s,
				 const struct ramlld_config *cfg,
				 char *allowed, size_t size)
{
	if (s->check)
		return s->check(cfg, allowed, size);
	return s->type->valid(s, ramlld_field(s, cfg), allowed, size);
}

static void ramlld_setting_refused(const struct ramlld_setting *s,
				   const struct ramlld_config *cfg,
				   const char *prefix, const char *val)
{
	char allowed[192];

	ramlld_setting_valid(s, cfg, allowed, sizeof(allowed));
	pr_err("%s%s=%.*s is invalid: allowed %s\n", prefix, s->name,
	       (int)min_t(size_t, strcspn(val, "\n"), 96), val, allowed);
}

int ramlld_setting_parse(const struct ramlld_setting *s,
			 struct ramlld_config *cfg, const char *val,
			 const char *prefix)
{
	if (!s->type->parse(val, ramlld_field(s, cfg)))
		return 0;
	ramlld_setting_refused(s, cfg, prefix, val ? val : "");
	return -EINVAL;
}

int ramlld_setting_format(const struct ramlld_setting *s,
			  const struct ramlld_config *cfg, char *buf,
			  size_t size)
{
	int n = s->type->format(buf, size, ramlld_field(s, cfg));

	return n + scnprintf(buf + n, size - n, "\n");
}

bool ramlld_setting_is_bool(const struct ramlld_setting *s)
{
	return s->type == &ramlld_type_bool;
}

int ramlld_config_check(const struct ramlld_config *cfg, const char *prefix)
{
	char allowed[192], val[96];
	const struct ramlld_setting *s;

	for (s = ramlld_settings; s < ramlld_settings + RAMLLD_SET_COUNT; s++) {
		if (ramlld_setting_valid(s, cfg, allowed, sizeof(allowed)))
			continue;
		s->type->format(val, sizeof(val), ramlld_field(s, cfg));
		pr_err("%s%s=%s is invalid: allowed %s\n", prefix, s->name, val,
		       allowed);
		return -EINVAL;
	}
	return 0;
}

void ramlld_settings_defaults(struct ramlld_config *cfg)
{
	const struct ramlld_setting *s;

	for (s = ramlld_settings; s < ramlld_settings + RAMLLD_SET_COUNT; s++)
		if (s->type->text_default && s->def[0] &&
		    !memchr_inv(ramlld_field(s, cfg), 0, s->type->size) &&
		    s->type->parse(s->def, ramlld_field(s, cfg)))
			WARN(1, "setting %s: its default %s does not parse\n",
			     s->name, s->def);
}

int ramlld_setting_apply(const struct ramlld_setting *s,
			 struct ramlld_device *dev,
			 const struct ramlld_config *from)
{
	lockdep_assert_held(&ramlld_lock);
	s->type->copy(ramlld_field(s, &dev->cfg), ramlld_field(s, from));
	return s->apply ? s->apply(dev) : 0;
}

int ramlld_settings_apply_all(struct ramlld_device *dev)
{
	const struct ramlld_setting *s;
	int ret;

	for (s = ramlld_settings; s < ramlld_settings + RAMLLD_SET_COUNT; s++) {
		if (!s->apply)
			continue;
		ret = s->apply(dev);
		if (ret)
			return ret;
	}
	return 0;
}

int ramlld_settings_features(char *buf, size_t size)
{
	const struct ramlld_setting *s;
	int n = 0;

	for (s = ramlld_settings; s < ramlld_settings + RAMLLD_SET_COUNT; s++)
		n += scnprintf(buf + n, size - n, "%s%s", n ? "," : "", s->name);
	return n + scnprintf(buf + n, size - n, "\n");
}
