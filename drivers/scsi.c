// SPDX-License-Identifier: GPL-2.0
/*
 * scsi.c - the SCSI LLD front end (mode=scsi): stores as LUNs of one host.
 *
 * Store i is LUN (i % luns_per_tgt) of target (i / luns_per_tgt) on channel
 * 0 of one Scsi_Host, so sd and the SCSI midlayer sit between the block
 * layer and the same store the bio and blk-mq front ends use. The CDB logic
 * lives in scsi_cdb.c; this file moves data and completes commands.
 *
 * queuecommand() does all the work before it returns: it runs in atomic
 * context (blk-mq dispatch under RCU), takes no host lock, never sleeps and
 * only allocates (GFP_ATOMIC) a bounce page for the rare non-media commands.
 * Completion, by irqmode:
 *   0  scsi_done_direct(): in queuecommand's context, no softirq, no IPI;
 *   1  scsi_done(): blk_mq_complete_request(), so rq_affinity applies;
 *   2  an hrtimer in the command fires completion_nsec later, then scsi_done().
 * A command is therefore never pending for long: error handling only has to
 * cancel the timer of a timed-out command, and host removal on rmmod waits
 * for the timers through the queue drain.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_eh.h>
#include <scsi/scsi_host.h>

#include "ramlld.h"
#include "compat.h"
#include "scsi_cdb.h"

#define RAMLLD_SCSI_MAX_LUNS_PER_TGT	256
#define RAMLLD_SCSI_MAX_CAN_QUEUE	4096

static unsigned int ramlld_scsi_num_tgts = 1;
module_param_named(num_tgts, ramlld_scsi_num_tgts, uint, 0444);
MODULE_PARM_DESC(num_tgts, "SCSI targets; stores fill target 0 first (default: 1)");

static unsigned int ramlld_scsi_luns_per_tgt;
module_param_named(luns_per_tgt, ramlld_scsi_luns_per_tgt, uint, 0444);
MODULE_PARM_DESC(luns_per_tgt, "LUNs per SCSI target, 1-256; 0 means nr_devices / num_tgts rounded up (default: 0)");

static unsigned int ramlld_scsi_can_queue = 192;
module_param_named(can_queue, ramlld_scsi_can_queue, uint, 0444);
MODULE_PARM_DESC(can_queue, "Commands in flight per host, shared by all submit queues (host_tagset), 1-4096 (default: 192)");

static unsigned int ramlld_scsi_cmd_per_lun;
module_param_named(cmd_per_lun, ramlld_scsi_cmd_per_lun, uint, 0444);
MODULE_PARM_DESC(cmd_per_lun, "Queue depth of each LUN, 1-can_queue; 0 means can_queue (default: 0)");

static unsigned int ramlld_scsi_submit_queues;
module_param_named(submit_queues, ramlld_scsi_submit_queues, uint, 0444);
MODULE_PARM_DESC(submit_queues, "SCSI submission (blk-mq hardware) queues; 0 means one per CPU (default: 0)");

/* One LUN: the command emulation state and its store. */
struct ramlld_scsi_lun {
	struct ramlld_cdb_dev cdb;
	struct ramlld_store *store;
};

/* Per-command private data (cmd_size): the irqmode=2 timer. */
struct ramlld_scsi_cmd {
	struct hrtimer timer;
	struct scsi_cmnd *sc;
};

static struct device *ramlld_scsi_root;
static struct Scsi_Host *ramlld_scsi_host;
static struct ramlld_scsi_lun *ramlld_scsi_luns;
static unsigned int ramlld_scsi_lpt;	/* effective luns_per_tgt */

/* Copy a READ or WRITE between the store and the request's pages. */
static int ramlld_scsi_rw(struct ramlld_scsi_lun *lun, struct scsi_cmnd *sc,
			  const struct ramlld_cdb_result *res)
{
	struct request *rq = ramlld_compat_scsi_cmd_to_rq(sc);
	bool write = res->action == RAMLLD_CDB_WRITE;
	u32 bs = lun->cdb.block_size;
	u64 pos = res->lba * bs;
	u32 want = res->nr_blocks * bs;	/* nr_blocks <= max_xfer_blocks */
	u32 done = 0;
	struct req_iterator iter;
	struct bio_vec bv;
	struct bio *bio;
	int err = 0;

	if (sc->sc_data_direction != (write ? DMA_TO_DEVICE : DMA_FROM_DEVICE)) {
		set_host_byte(sc, DID_ERROR);
		return 0;
	}
	if (likely(blk_rq_bytes(rq) == want)) {
		/* sd's requests: exactly the CDB's blocks, one store call per bio */
		__rq_for_each_bio(bio, rq) {
			err = ramlld_store_rw_bio(lun->store, bio, pos, false);
			if (err)
				return err;
			pos += bio->bi_iter.bi_size;
		}
		done = want;
	} else {
		/* a passthrough buffer of another size: never past either end */
		rq_for_each_segment(bv, rq, iter) {
			u32 n = min(bv.bv_len, want - done);

			if (!n)
				break;
			bv.bv_len = n;
			err = ramlld_store_rw_bvec(lun->store, pos, &bv, write, false);
			if (err)
				return err;
			pos += n;
			done += n;
		}
	}
	scsi_set_resid(sc, scsi_bufflen(sc) - min(done, scsi_bufflen(sc)));
	return 0;
}

/* Carry out a GOOD command's action on the store. */
static int ramlld_scsi_do_action(struct ramlld_scsi_lun *lun,
				 struct scsi_cmnd *sc,
				 const struct ramlld_cdb_result *res,
				 const u8 *dout)
{
	u32 bs = lun->cdb.block_size;
	u64 lba;
	u32 i, nr;
	int err;

	switch (res->action) {
	case RAMLLD_CDB_READ:
	case RAMLLD_CDB_WRITE:
		return ramlld_scsi_rw(lun, sc, res);
	case RAMLLD_CDB_FILL:
		return ramlld_store_fill(lun->store, res->lba * bs,
					 (u64)res->nr_blocks * bs, res->block,
					 bs, false);
	case RAMLLD_CDB_DISCARD:
		return ramlld_store_discard(lun->store, res->lba * bs,
					    (u64)res->nr_blocks * bs);
	case RAMLLD_CDB_UNMAP:
		for (i = 0; i < res->nr_desc; i++) {
			ramlld_cdb_unmap_desc(dout, i, &lba, &nr);
			err = ramlld_store_discard(lun->store, lba * bs,
						   (u64)nr * bs);
			if (err)
				return err;
		}
		return 0;
	default:	/* NONE, SYNC, VERIFY: nothing to move */
		return 0;
	}
}

static void ramlld_scsi_set_sense(struct scsi_cmnd *sc,
				  const struct ramlld_cdb_result *res)
{
	memcpy(sc->sense_buffer, res->sense,
	       min_t(u32, res->sense_len, SCSI_SENSE_BUFFERSIZE));
	sc->result = SAM_STAT_CHECK_CONDITION;
	scsi_set_resid(sc, scsi_bufflen(sc));
}

/*
 * The injected fault of a READ or WRITE, as a disk would fail it:
 * timeout_nth leaves it to the midlayer's timeout and error handler;
 * every_nth fails it whole with MEDIUM ERROR at its first LBA; badblocks=
 * moves the blocks before the first bad one, then MEDIUM ERROR at that LBA
 * (sd completes the good part from the INFORMATION field).
 */
static enum ramlld_fault ramlld_scsi_fault(struct ramlld_scsi_lun *lun,
					   struct scsi_cmnd *sc,
					   struct ramlld_cdb_result *res)
{
	bool write = res->action == RAMLLD_CDB_WRITE;
	u32 bs = lun->cdb.block_size;
	u64 bad, bad_lba = res->lba;
	u32 good = 0;
	enum ramlld_fault fault;

	if (!res->nr_blocks)
		return RAMLLD_FAULT_NONE;
	fault = ramlld_fault_nth(RAMLLD_FE_SCSI, true);
	if (fault == RAMLLD_FAULT_TIMEOUT)
		return fault;
	if (fault != RAMLLD_FAULT_ERROR) {
		bad = ramlld_store_first_bad(lun->store, res->lba * bs,
					     (u64)res->nr_blocks * bs);
		if (bad == RAMLLD_STORE_NO_BAD)
			return RAMLLD_FAULT_NONE;
		bad_lba = div_u64(bad, bs);
		good = bad_lba - res->lba;
	}
	if (good) {
		struct ramlld_cdb_result part = *res;

		part.nr_blocks = good;
		if (ramlld_scsi_rw(lun, sc, &part))
			good = 0;
	}
	ramlld_cdb_set_medium_error(&lun->cdb, res, write, bad_lba);
	ramlld_scsi_set_sense(sc, res);
	scsi_set_resid(sc, scsi_bufflen(sc) - min(good * bs, scsi_bufflen(sc)));
	return RAMLLD_FAULT_ERROR;
}

/*
 * Run one command to the end; SCSI_MLQUEUE_HOST_BUSY if it must be retried.
 * *dropped: timeout_nth chose it never to complete.
 */
static int ramlld_scsi_execute(struct ramlld_scsi_lun *lun, struct scsi_cmnd *sc,
			       bool *dropped)
{
	struct ramlld_cdb_result res;
	u32 dout_len, din_cap, copied;
	u8 *buf = NULL;
	int err;

	dout_len = ramlld_cdb_dout_len(&lun->cdb, sc->cmnd, sc->cmd_len);
	din_cap = ramlld_cdb_din_len(sc->cmnd, sc->cmd_len);
	if (unlikely(dout_len || din_cap)) {
		buf = kmalloc(RAMLLD_CDB_BUF_LEN, GFP_ATOMIC);
		if (!buf)
			return SCSI_MLQUEUE_HOST_BUSY;
		if (sc->sc_data_direction != DMA_TO_DEVICE)
			dout_len = 0;
		else if (dout_len)
			dout_len = scsi_sg_copy_to_buffer(sc, buf, dout_len);
	}

	ramlld_cdb_execute(&lun->cdb, sc->cmnd, sc->cmd_len, buf, dout_len,
			   din_cap ? buf : NULL, din_cap, &res);
	if (res.status != RAMLLD_CDB_GOOD) {
		ramlld_scsi_set_sense(sc, &res);
		goto out;
	}

	sc->result = SAM_STAT_GOOD;
	if (din_cap) {
		copied = 0;
		if (sc->sc_data_direction == DMA_FROM_DEVICE)
			copied = scsi_sg_copy_from_buffer(sc, buf, res.din_len);
		scsi_set_resid(sc, scsi_bufflen(sc) - copied);
		goto out;
	}
	if (dout_len)
		scsi_set_resid(sc, scsi_bufflen(sc) - dout_len);
	if (ramlld_faults_armed() && (res.action == RAMLLD_CDB_READ ||
				      res.action == RAMLLD_CDB_WRITE)) {
		switch (ramlld_scsi_fault(lun, sc, &res)) {
		case RAMLLD_FAULT_TIMEOUT:
			*dropped = true;
			goto out;
		case RAMLLD_FAULT_ERROR:
			goto out;
		default:
			break;
		}
	}
	err = ramlld_scsi_do_action(lun, sc, &res, buf);
	if (unlikely(err)) {
		/* a lazily allocated page was not to be had (GFP_ATOMIC) */
		ramlld_cdb_set_sense(&lun->cdb, &res, RAMLLD_SK_DATA_PROTECT,
				     RAMLLD_ASC_SPACE_ALLOC_FAILED);
		ramlld_scsi_set_sense(sc, &res);
	}
out:
	kfree(buf);
	return 0;
}

static enum hrtimer_restart ramlld_scsi_timer_fn(struct hrtimer *timer)
{
	struct ramlld_scsi_cmd *cmd = container_of(timer, struct ramlld_scsi_cmd,
						   timer);

	ramlld_compat_scsi_done(cmd->sc);
	return HRTIMER_NORESTART;
}

static void ramlld_scsi_complete(struct scsi_cmnd *sc)
{
	struct ramlld_scsi_cmd *cmd = scsi_cmd_priv(sc);

	switch (ramlld_irqmode) {
	case RAMLLD_IRQ_SOFTIRQ:
		ramlld_compat_scsi_done(sc);
		break;
	case RAMLLD_IRQ_TIMER:
		hrtimer_start(&cmd->timer, ns_to_ktime(ramlld_completion_nsec),
			      HRTIMER_MODE_REL);
		break;
	default:
		ramlld_compat_scsi_done_direct(sc);
		break;
	}
}

static RAMLLD_QC_STATUS_T
ramlld_scsi_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *sc)
{
	struct ramlld_scsi_lun *lun = sc->device->hostdata;
	bool dropped = false;
	int ret;

	if (unlikely(!lun)) {
		sc->result = DID_NO_CONNECT << 16;
	} else {
		ret = ramlld_scsi_execute(lun, sc, &dropped);
		if (unlikely(ret))
			return ret;
		/* timeout_nth: the midlayer times it out, ramlld_scsi_eh_abort() ends it */
		if (unlikely(dropped))
			return 0;
	}
	ramlld_scsi_complete(sc);
	return 0;
}

static int ramlld_scsi_init_cmd_priv(struct Scsi_Host *shost,
				     struct scsi_cmnd *sc)
{
	struct ramlld_scsi_cmd *cmd = scsi_cmd_priv(sc);

	cmd->sc = sc;
	ramlld_compat_hrtimer_setup(&cmd->timer, ramlld_scsi_timer_fn);
	return 0;
}

/* Attach the store of (target, lun); -ENXIO ends the scan of absent LUNs. */
static int ramlld_scsi_sdev_init(struct scsi_device *sdev)
{
	unsigned int index;

	if (sdev->channel || sdev->id >= ramlld_scsi_num_tgts ||
	    sdev->lun >= ramlld_scsi_lpt)
		return -ENXIO;
	index = sdev->id * ramlld_scsi_lpt + (unsigned int)sdev->lun;
	if (index >= ramlld_nr_devices)
		return -ENXIO;
	sdev->hostdata = &ramlld_scsi_luns[index];
	return 0;
}

/*
 * eh_fail: the error handlers that report FAILED, so that the midlayer
 * escalates (abort, then device, target, bus and host reset, then the
 * device goes offline). A comma list of the names below, or "" for none;
 * writable at run time. A failing handler still does its work (an abort
 * cancels the command's timer): only its verdict changes.
 */
enum ramlld_scsi_eh {
	RAMLLD_EH_ABORT,
	RAMLLD_EH_DEVICE_RESET,
	RAMLLD_EH_TARGET_RESET,
	RAMLLD_EH_BUS_RESET,
	RAMLLD_EH_HOST_RESET,
	RAMLLD_EH_COUNT,
};

static const char * const ramlld_scsi_eh_names[RAMLLD_EH_COUNT] = {
	[RAMLLD_EH_ABORT]		= "abort",
	[RAMLLD_EH_DEVICE_RESET]	= "device_reset",
	[RAMLLD_EH_TARGET_RESET]	= "target_reset",
	[RAMLLD_EH_BUS_RESET]		= "bus_reset",
	[RAMLLD_EH_HOST_RESET]		= "host_reset",
};

static unsigned long ramlld_scsi_eh_fail;	/* BIT(RAMLLD_EH_*) */

static int ramlld_scsi_param_set_eh_fail(const char *val,
					 const struct kernel_param *kp)
{
	size_t len = val ? strcspn(val, "\n") : 0;
	unsigned long bits = 0;
	char buf[96], *s, *tok;
	int i;

	if (!val || len >= sizeof(buf))
		goto bad;
	memcpy(buf, val, len);
	buf[len] = '\0';
	s = buf;
	while ((tok = strsep(&s, ",")) != NULL) {
		tok = strim(tok);
		if (!*tok && !s && !bits)
			break;		/* "": none */
		i = match_string(ramlld_scsi_eh_names, RAMLLD_EH_COUNT, tok);
		if (i < 0)
			goto bad;
		bits |= BIT(i);
	}
	WRITE_ONCE(ramlld_scsi_eh_fail, bits);
	return 0;
bad:
	pr_err("eh_fail=%.*s is invalid: allowed a comma list of abort, device_reset, target_reset, bus_reset, host_reset, or an empty string\n",
	       (int)min_t(size_t, len, 96), val ? val : "");
	return -EINVAL;
}

static int ramlld_scsi_param_get_eh_fail(char *buf,
					 const struct kernel_param *kp)
{
	unsigned long bits = READ_ONCE(ramlld_scsi_eh_fail);
	int i, n = 0;

	for (i = 0; i < RAMLLD_EH_COUNT; i++)
		if (bits & BIT(i))
			n += scnprintf(buf + n, PAGE_SIZE - n, "%s%s",
				       n ? "," : "", ramlld_scsi_eh_names[i]);
	n += scnprintf(buf + n, PAGE_SIZE - n, "\n");
	return n;
}

static const struct kernel_param_ops ramlld_scsi_eh_fail_ops = {
	.set	= ramlld_scsi_param_set_eh_fail,
	.get	= ramlld_scsi_param_get_eh_fail,
};

module_param_cb(eh_fail, &ramlld_scsi_eh_fail_ops, NULL, 0644);
MODULE_PARM_DESC(eh_fail, "SCSI error handlers that report FAILED so that the midlayer escalates: a comma list of abort, device_reset, target_reset, bus_reset, host_reset; writable at run time (default: \"\")");

/* The verdict of error handler eh, logged (error handling is rare). */
static int ramlld_scsi_eh_verdict(struct scsi_cmnd *sc, enum ramlld_scsi_eh eh)
{
	bool failed = READ_ONCE(ramlld_scsi_eh_fail) & BIT(eh);

	sdev_printk(KERN_INFO, sc->device, "%s: eh %s: %s\n", RAMLLD_NAME,
		    ramlld_scsi_eh_names[eh], failed ? "FAILED (eh_fail)" : "done");
	return failed ? FAILED : SUCCESS;
}

/*
 * Error handling. Commands complete by themselves (inline or on their
 * timer), so a timed-out one is either waiting on its timer or one that
 * timeout_nth dropped, which holds nothing here. Cancelling the timer
 * (waiting for a running callback; a no-op for a dropped command) is all
 * an abort needs: then the midlayer owns the command, and retries or fails
 * it. scsi_done() from a callback that raced with the timeout is ignored
 * (SCMD_STATE_COMPLETE).
 */
static int ramlld_scsi_eh_abort(struct scsi_cmnd *sc)
{
	struct ramlld_scsi_cmd *cmd = scsi_cmd_priv(sc);

	hrtimer_cancel(&cmd->timer);
	return ramlld_scsi_eh_verdict(sc, RAMLLD_EH_ABORT);
}

/* A reset leaves a unit attention on the LUNs it reached. */
static void ramlld_scsi_reset_luns(int target, enum ramlld_cdb_ua ua)
{
	unsigned int i;

	for (i = 0; i < ramlld_nr_devices; i++)
		if (target < 0 || i / ramlld_scsi_lpt == target)
			ramlld_cdb_dev_reset(&ramlld_scsi_luns[i].cdb, ua);
}

static int ramlld_scsi_eh_device_reset(struct scsi_cmnd *sc)
{
	struct ramlld_scsi_lun *lun = sc->device->hostdata;

	if (lun)
		ramlld_cdb_dev_reset(&lun->cdb, RAMLLD_UA_DEVICE_RESET);
	return ramlld_scsi_eh_verdict(sc, RAMLLD_EH_DEVICE_RESET);
}

static int ramlld_scsi_eh_target_reset(struct scsi_cmnd *sc)
{
	ramlld_scsi_reset_luns(sc->device->id, RAMLLD_UA_DEVICE_RESET);
	return ramlld_scsi_eh_verdict(sc, RAMLLD_EH_TARGET_RESET);
}

static int ramlld_scsi_eh_bus_reset(struct scsi_cmnd *sc)
{
	ramlld_scsi_reset_luns(-1, RAMLLD_UA_BUS_RESET);
	return ramlld_scsi_eh_verdict(sc, RAMLLD_EH_BUS_RESET);
}

static int ramlld_scsi_eh_host_reset(struct scsi_cmnd *sc)
{
	ramlld_scsi_reset_luns(-1, RAMLLD_UA_BUS_RESET);
	return ramlld_scsi_eh_verdict(sc, RAMLLD_EH_HOST_RESET);
}

static struct scsi_host_template ramlld_scsi_template = {
	.module			= THIS_MODULE,
	.name			= RAMLLD_NAME,
	.proc_name		= RAMLLD_NAME,
	.queuecommand		= ramlld_scsi_queuecommand,
	.init_cmd_priv		= ramlld_scsi_init_cmd_priv,
	.RAMLLD_SHT_SDEV_INIT	= ramlld_scsi_sdev_init,
	.eh_abort_handler	= ramlld_scsi_eh_abort,
	.eh_device_reset_handler = ramlld_scsi_eh_device_reset,
	.eh_target_reset_handler = ramlld_scsi_eh_target_reset,
	.eh_bus_reset_handler	= ramlld_scsi_eh_bus_reset,
	.eh_host_reset_handler	= ramlld_scsi_eh_host_reset,
	.can_queue		= 192,
	.this_id		= -1,
	.sg_tablesize		= SG_MAX_SEGMENTS,
	.max_sectors		= RAMLLD_MAX_HW_SECTORS,
	.cmd_per_lun		= 192,
	.cmd_size		= sizeof(struct ramlld_scsi_cmd),
	.skip_settle_delay	= 1,
};

static int ramlld_scsi_check_params(void)
{
	unsigned int lpt = ramlld_scsi_luns_per_tgt;

	if (ramlld_scsi_num_tgts < 1 || ramlld_scsi_num_tgts > ramlld_nr_devices) {
		pr_err("num_tgts=%u is invalid: allowed 1-nr_devices (%u)\n",
		       ramlld_scsi_num_tgts, ramlld_nr_devices);
		return -EINVAL;
	}
	if (!lpt)
		lpt = DIV_ROUND_UP(ramlld_nr_devices, ramlld_scsi_num_tgts);
	if (lpt > RAMLLD_SCSI_MAX_LUNS_PER_TGT ||
	    lpt * ramlld_scsi_num_tgts < ramlld_nr_devices) {
		pr_err("luns_per_tgt=%u is invalid: allowed 0 or 1-%u with num_tgts * luns_per_tgt >= nr_devices (%u)\n",
		       ramlld_scsi_luns_per_tgt, RAMLLD_SCSI_MAX_LUNS_PER_TGT,
		       ramlld_nr_devices);
		return -EINVAL;
	}
	ramlld_scsi_lpt = lpt;
	if (ramlld_scsi_can_queue < 1 ||
	    ramlld_scsi_can_queue > RAMLLD_SCSI_MAX_CAN_QUEUE) {
		pr_err("can_queue=%u is invalid: allowed 1-%u\n",
		       ramlld_scsi_can_queue, RAMLLD_SCSI_MAX_CAN_QUEUE);
		return -EINVAL;
	}
	if (ramlld_scsi_cmd_per_lun > ramlld_scsi_can_queue) {
		pr_err("cmd_per_lun=%u is invalid: allowed 0-can_queue (%u)\n",
		       ramlld_scsi_cmd_per_lun, ramlld_scsi_can_queue);
		return -EINVAL;
	}
	if (ramlld_scsi_submit_queues > nr_cpu_ids) {
		pr_err("submit_queues=%u is invalid: allowed 0 (one per CPU) to %u\n",
		       ramlld_scsi_submit_queues, nr_cpu_ids);
		return -EINVAL;
	}
	return 0;
}

static void ramlld_scsi_init_lun(unsigned int i)
{
	struct ramlld_scsi_lun *lun = &ramlld_scsi_luns[i];
	struct ramlld_cdb_dev *dev = &lun->cdb;
	u32 bs = ramlld_sector_size;

	lun->store = ramlld_stores[i];
	dev->nr_blocks = ramlld_store_capacity(lun->store) / bs;
	dev->block_size = bs;
	dev->lbppbe = ilog2(ramlld_physical_block_size / bs);
	dev->wce_default = ramlld_write_cache;
	dev->index = i;
	dev->target = i / ramlld_scsi_lpt;
	dev->lun = i % ramlld_scsi_lpt;
	dev->tgt_nr_luns = min(ramlld_scsi_lpt,
			       ramlld_nr_devices - dev->target * ramlld_scsi_lpt);
	dev->max_xfer_blocks = (RAMLLD_MAX_HW_SECTORS << SECTOR_SHIFT) / bs;
	/*
	 * No optimal transfer length: sd would make it max_sectors_kb and
	 * twice it the read-ahead, which the block front ends do not have.
	 */
	dev->opt_xfer_blocks = 0;
	dev->max_unmap_blocks = RAMLLD_MAX_DISCARD_BYTES / bs;
	dev->max_unmap_desc = RAMLLD_CDB_MAX_UNMAP_DESC;
	dev->unmap_gran_blocks = max_t(u32, PAGE_SIZE / bs, 1);
	dev->max_ws_blocks = RAMLLD_MAX_DISCARD_BYTES / bs;
	ramlld_cdb_dev_reset(dev, RAMLLD_UA_POWER_ON);
}

static bool ramlld_scsi_lun_present(struct Scsi_Host *shost, unsigned int i)
{
	struct scsi_device *sdev;
	unsigned long flags;

	spin_lock_irqsave(shost->host_lock, flags);
	sdev = __scsi_device_lookup(shost, 0, i / ramlld_scsi_lpt,
				    i % ramlld_scsi_lpt);
	spin_unlock_irqrestore(shost->host_lock, flags);
	return sdev;
}

int ramlld_scsi_init(void)
{
	struct Scsi_Host *shost;
	unsigned int i;
	int ret;

	ret = ramlld_scsi_check_params();
	if (ret)
		return ret;

	ramlld_scsi_luns = kcalloc(ramlld_nr_devices, sizeof(*ramlld_scsi_luns),
				   GFP_KERNEL);
	if (!ramlld_scsi_luns)
		return -ENOMEM;
	for (i = 0; i < ramlld_nr_devices; i++)
		ramlld_scsi_init_lun(i);

	ramlld_scsi_root = root_device_register(RAMLLD_NAME "_scsi");
	if (IS_ERR(ramlld_scsi_root)) {
		ret = PTR_ERR(ramlld_scsi_root);
		goto err_luns;
	}

	shost = scsi_host_alloc(&ramlld_scsi_template, 0);
	if (!shost) {
		ret = -ENOMEM;
		goto err_root;
	}
	/* the template is const from 6.4: per-load values go in the host */
	shost->max_channel = 0;
	shost->max_id = ramlld_scsi_num_tgts;
	shost->max_lun = ramlld_scsi_lpt;
	/* 16: sd uses READ/WRITE(16); 32: variable-length CDBs reach the emulation */
	shost->max_cmd_len = 32;
	shost->can_queue = ramlld_scsi_can_queue;
	shost->cmd_per_lun = ramlld_scsi_cmd_per_lun ? ramlld_scsi_cmd_per_lun :
			     ramlld_scsi_can_queue;
	shost->nr_hw_queues = ramlld_scsi_submit_queues ? ramlld_scsi_submit_queues :
			      nr_cpu_ids;
	shost->host_tagset = 1;

	ret = scsi_add_host(shost, ramlld_scsi_root);
	if (ret)
		goto err_put;
	ramlld_scsi_host = shost;
	/* synchronous: the LUNs exist when the module load returns */
	for (i = 0; i < ramlld_scsi_num_tgts; i++)
		scsi_scan_target(&shost->shost_gendev, 0, i, SCAN_WILD_CARD,
				 SCSI_SCAN_INITIAL);
	/* the scan reports nothing: a LUN it could not add (no memory) is missing */
	for (i = 0; i < ramlld_nr_devices; i++) {
		if (!ramlld_scsi_lun_present(shost, i)) {
			pr_err("scsi: LUN %u:%u did not attach during the scan\n",
			       i / ramlld_scsi_lpt, i % ramlld_scsi_lpt);
			ret = -ENOMEM;
			goto err_remove;
		}
	}
	pr_info("scsi: host%u, %u target(s) x %u LUN(s), can_queue %u, cmd_per_lun %u, %u submit queue(s)\n",
		shost->host_no, ramlld_scsi_num_tgts, ramlld_scsi_lpt,
		shost->can_queue, shost->cmd_per_lun, shost->nr_hw_queues);
	return 0;

err_remove:
	scsi_remove_host(shost);
	ramlld_scsi_host = NULL;
err_put:
	scsi_host_put(shost);
err_root:
	root_device_unregister(ramlld_scsi_root);
err_luns:
	kfree(ramlld_scsi_luns);
	ramlld_scsi_luns = NULL;
	return ret;
}

/* Removes every LUN: in-flight commands complete first (queue drain). */
void ramlld_scsi_exit(void)
{
	scsi_remove_host(ramlld_scsi_host);
	scsi_host_put(ramlld_scsi_host);
	ramlld_scsi_host = NULL;
	root_device_unregister(ramlld_scsi_root);
	kfree(ramlld_scsi_luns);
	ramlld_scsi_luns = NULL;
}
