/* SPDX-License-Identifier: GPL-2.0 */
/*
 * faults.h - fault injection (faults.c): a device's bad sectors,
 * every_nth and timeout_nth.
 */
#ifndef RAMLLD_FAULTS_H
#define RAMLLD_FAULTS_H

#include <linux/types.h>
#include <linux/compiler.h>

#include "ramlld.h"

/*
 * Fault injection (docs/design.md, "Fault injection"): a device's
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

/*
 * The fault of a read or write of len bytes at pos through front end fe;
 * on RAMLLD_FAULT_ERROR, *bad (when bad is not NULL) is the first bad byte.
 */
enum ramlld_fault ramlld_fault_decide(struct ramlld_device *dev,
				      enum ramlld_fe fe, u64 pos, u64 len,
				      u64 *bad);

#endif /* RAMLLD_FAULTS_H */
