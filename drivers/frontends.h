/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frontends.h - what device.c asks of the front ends (bio.c, mq.c,
 * scsi.c): add and remove a device's or a group's disks.
 */
#ifndef RAMLLD_FRONTENDS_H
#define RAMLLD_FRONTENDS_H

#include <linux/types.h>

#include "ramlld.h"

struct gendisk;

/* The bio and mq front ends' per-device add and remove; ramlld_lock held. */
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

#endif /* RAMLLD_FRONTENDS_H */
