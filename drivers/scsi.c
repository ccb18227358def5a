// SPDX-License-Identifier: GPL-2.0
/*
 * scsi.c - the SCSI LLD front end (mode=scsi): devices as LUNs of a host.
 *
 * Each group of devices (the load-time ones, or one configfs device) gets
 * one Scsi_Host; the device at position p of its group is LUN
 * (p % luns_per_tgt) of target (p / luns_per_tgt) on channel 0, so sd and
 * the SCSI midlayer sit between the block layer and the same store the bio
 * and blk-mq front ends use. The CDB logic
 * lives in scsi_cdb.c; this file moves data and completes commands.
 *
 * queuecommand() does all the work before it returns: it runs in atomic
 * context (blk-mq dispatch under RCU), takes no host lock, never sleeps and
 * only allocates (GFP_NOWAIT) a bounce buffer for the rare non-media
 * commands: when it cannot be had, SCSI_MLQUEUE_HOST_BUSY has the midlayer
 * retry the command later, as nothing was done yet.
 * Completion, by irqmode:
 *   0  scsi_done_direct(): in queuecommand's context, no softirq, no IPI;
 *   1  scsi_done() from the "interrupt" of irq.c (irq_cpus=; inline when
 *      empty): blk_mq_complete_request(), so rq_affinity applies;
 *   2  an hrtimer in the command fires completion_nsec later, then as 1.
 * A command of a poll queue (poll_queues=N: shost->nr_maps = 3, ->mq_poll,
 * 5.13) ignores irqmode: queuecommand leaves it on its queue's poll list and
 * the submitter's ->mq_poll completes it. A command is therefore never
 * pending for long: error handling only has to cancel the timer of a
 * timed-out command or take one off a poll list, and host removal on rmmod
 * waits for the timers and the pollers through the queue drain.
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
#include "faults.h"
#include "frontends.h"
#include "irq.h"
#include "store.h"
#include "compat.h"
#include "scsi_cdb.h"
#include "poll.h"

/* One LUN: the command emulation state and its device. */
struct ramlld_scsi_lun {
	struct ramlld_cdb_dev cdb;
	struct ramlld_device *dev;
};

/* One host: a group's devices as its LUNs, in group order. */
struct ramlld_scsi_host {
	struct Scsi_Host *shost;
	struct ramlld_group *group;
	unsigned int poll_queues;
	/* poll_queues: one poll list per hardware queue (by queue_num), else NULL */
	struct ramlld_poll_list *pollqs;
	struct ramlld_scsi_lun luns[];
};

/*
 * Per-command private data (cmd_size): the irqmode=2 timer, the
 * "interrupt", the poll list.
 */
struct ramlld_scsi_cmd {
	struct hrtimer timer;
	struct ramlld_irq_cmd irq;
	struct scsi_cmnd *sc;
	struct ramlld_poll_entry poll;
};

/* The parent of every host (/sys/devices/ramlld_scsi). */
static struct device *ramlld_scsi_root;

static struct ramlld_scsi_host *ramlld_scsi_host_of(struct Scsi_Host *shost)
{
	return *(struct ramlld_scsi_host **)shost_priv(shost);
}

/* Copy a READ or WRITE between the store and the request's pages. */
static int ramlld_scsi_rw(struct ramlld_scsi_lun *lun, struct scsi_cmnd *sc,
			  const struct ramlld_cdb_result *res)
{
	struct request *rq = ramlld_compat_scsi_cmd_to_rq(sc);
	bool write = res->action == RAMLLD_CDB_WRITE;
	u32 bs = lun->cdb.block_size;
	struct ramlld_store *store = lun->dev->store;
	u64 pos = res->lba * bs;
	u32 want = res->nr_blocks * bs;	/* nr_blocks <= max_xfer_blocks */
	u32 done = 0;
	struct req_iterator iter;
	struct bio_vec bv;
	int err = 0;

	if (sc->sc_data_direction != (write ? DMA_TO_DEVICE : DMA_FROM_DEVICE)) {
		set_host_byte(sc, DID_ERROR);
		return 0;
	}
	if (likely(blk_rq_bytes(rq) == want)) {
		/* sd's requests: exactly the CDB's blocks */
		err = ramlld_store_rw_rq(store, rq, pos, false);
		if (err)
			return err;
		done = want;
	} else {
		/* a passthrough buffer of another size: never past either end */
		rq_for_each_segment(bv, rq, iter) {
			u32 n = min(bv.bv_len, want - done);

			if (!n)
				break;
			bv.bv_len = n;
			err = ramlld_store_rw_bvec(store, pos, &bv, write, false);
			if (err)
				return err;
			pos += n;
			done += n;
		}
	}
	scsi_set_resid(sc, scsi_bufflen(sc) - min(done, scsi_bufflen(sc)));
	return 0;
}

/*
 * VERIFY with BYTCHK=01b: the request's data-out against the store. 0 when
 * equal; 1 when res now holds the CHECK CONDITION (MISCOMPARE, or a data-out
 * shorter than the blocks verified).
 */
static int ramlld_scsi_compare(struct ramlld_scsi_lun *lun, struct scsi_cmnd *sc,
			       struct ramlld_cdb_result *res)
{
	struct request *rq = ramlld_compat_scsi_cmd_to_rq(sc);
	u32 bs = lun->cdb.block_size;
	u32 want = res->nr_blocks * bs;	/* nr_blocks <= max_xfer_blocks */
	u64 pos = res->lba * bs;
	struct req_iterator iter;
	struct bio_vec bv;
	u32 done = 0, off;
	int ret;

	if (sc->sc_data_direction != DMA_TO_DEVICE || scsi_bufflen(sc) < want) {
		ramlld_cdb_set_sense(&lun->cdb, res, RAMLLD_SK_ABORTED_COMMAND,
				     RAMLLD_ASC_DATA_PHASE_ERROR);
		return 1;
	}
	rq_for_each_segment(bv, rq, iter) {
		bv.bv_len = min(bv.bv_len, want - done);
		if (!bv.bv_len)
			break;
		ret = ramlld_store_compare_bvec(lun->dev->store, pos + done, &bv, &off);
		if (ret) {
			ramlld_cdb_set_miscompare(&lun->cdb, res, done + off);
			return 1;
		}
		done += bv.bv_len;
	}
	return 0;
}

/* VERIFY with BYTCHK=11b: one block against each block of the range. */
static int ramlld_scsi_compare_same(struct ramlld_scsi_lun *lun,
				    struct ramlld_cdb_result *res)
{
	u32 bs = lun->cdb.block_size, i, off;

	for (i = 0; i < res->nr_blocks; i++) {
		if (ramlld_store_compare(lun->dev->store, (res->lba + i) * bs,
					 res->block, bs, &off)) {
			ramlld_cdb_set_miscompare(&lun->cdb, res, (u64)i * bs + off);
			return 1;
		}
	}
	return 0;
}

/* COMPARE AND WRITE: dout holds the blocks to compare, then those to write. */
static int ramlld_scsi_compare_write(struct ramlld_scsi_lun *lun,
				     struct ramlld_cdb_result *res, const u8 *dout)
{
	u32 len = res->nr_blocks * lun->cdb.block_size, off;
	int ret;

	ret = ramlld_store_compare_and_write(lun->dev->store,
					     res->lba * lun->cdb.block_size,
					     dout, dout + len, len, &off);
	if (ret == 1)
		ramlld_cdb_set_miscompare(&lun->cdb, res, off);
	return ret;
}

/* GET LBA STATUS: runs of pages present (mapped) or holes (deallocated). */
static u64 ramlld_scsi_lba_run(const struct ramlld_cdb_dev *dev, u64 lba,
			       u64 max, bool *mapped)
{
	const struct ramlld_scsi_lun *lun = container_of(dev, struct ramlld_scsi_lun,
							 cdb);

	/* max <= RAMLLD_CDB_LBA_STATUS_SCAN_BYTES / block_size: no overflow */
	return div_u64(ramlld_store_mapped_run(lun->dev->store, lba * dev->block_size,
					       max * dev->block_size, mapped),
		       dev->block_size);
}

/*
 * Carry out a GOOD command's action on the store: 0, a store error (< 0),
 * or 1 when res now holds a CHECK CONDITION (a compare that failed).
 */
static int ramlld_scsi_do_action(struct ramlld_scsi_lun *lun,
				 struct scsi_cmnd *sc,
				 struct ramlld_cdb_result *res,
				 const u8 *dout)
{
	u32 bs = lun->cdb.block_size;
	u64 lba;
	u32 i, nr;
	int err;

	switch (res->action) {
	case RAMLLD_CDB_COMPARE:
		return ramlld_scsi_compare(lun, sc, res);
	case RAMLLD_CDB_COMPARE_SAME:
		return ramlld_scsi_compare_same(lun, res);
	case RAMLLD_CDB_COMPARE_WRITE:
		return ramlld_scsi_compare_write(lun, res, dout);
	case RAMLLD_CDB_READ:
	case RAMLLD_CDB_WRITE:
		return ramlld_scsi_rw(lun, sc, res);
	case RAMLLD_CDB_FILL:
		return ramlld_store_fill(lun->dev->store, res->lba * bs,
					 (u64)res->nr_blocks * bs, res->block,
					 bs, false);
	case RAMLLD_CDB_DISCARD:
		return ramlld_store_discard(lun->dev->store, res->lba * bs,
					    (u64)res->nr_blocks * bs);
	case RAMLLD_CDB_UNMAP:
		for (i = 0; i < res->nr_desc; i++) {
			ramlld_cdb_unmap_desc(dout, i, &lba, &nr);
			err = ramlld_store_discard(lun->dev->store, lba * bs,
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
	enum ramlld_fault fault;
	u64 bad, bad_lba;
	u32 good;

	fault = ramlld_fault_decide(lun->dev, RAMLLD_FE_SCSI, res->lba * bs,
				    (u64)res->nr_blocks * bs, &bad);
	if (fault != RAMLLD_FAULT_ERROR)
		return fault;
	bad_lba = div_u64(bad, bs);
	good = bad_lba - res->lba;
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

	if (likely(ramlld_cdb_is_rw(sc->cmnd))) {
		dout_len = 0;
		din_cap = 0;
	} else {
		dout_len = ramlld_cdb_dout_len(&lun->cdb, sc->cmnd, sc->cmd_len);
		din_cap = ramlld_cdb_din_len(sc->cmnd, sc->cmd_len);
	}
	if (unlikely(dout_len || din_cap)) {
		buf = kmalloc(RAMLLD_CDB_BUF_LEN, GFP_NOWAIT | __GFP_NOWARN);
		if (!buf)
			return SCSI_MLQUEUE_HOST_BUSY;
		if (sc->sc_data_direction != DMA_TO_DEVICE)
			dout_len = 0;
		else if (dout_len)
			dout_len = scsi_sg_copy_to_buffer(sc, buf, dout_len);
	}

	ramlld_cdb_execute(&lun->cdb, sc->cmnd, sc->cmd_len, buf, dout_len,
			   din_cap ? buf : NULL, din_cap, &res);
	if (res.status == RAMLLD_CDB_CHECK_CONDITION) {
		ramlld_scsi_set_sense(sc, &res);
		goto out;
	}

	sc->result = res.status;	/* GOOD, or CONDITION MET (PRE-FETCH) */
	if (din_cap) {
		copied = 0;
		if (sc->sc_data_direction == DMA_FROM_DEVICE)
			copied = scsi_sg_copy_from_buffer(sc, buf, res.din_len);
		scsi_set_resid(sc, scsi_bufflen(sc) - copied);
		goto out;
	}
	if (dout_len)
		scsi_set_resid(sc, scsi_bufflen(sc) - dout_len);
	if (ramlld_faults_armed(lun->dev) &&
	    (res.action == RAMLLD_CDB_READ || res.action == RAMLLD_CDB_WRITE)) {
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
	if (err > 0) {
		ramlld_scsi_set_sense(sc, &res);
	} else if (unlikely(err)) {
		/*
		 * A lazily allocated page was not to be had (GFP_NOWAIT, or
		 * the memory reserve): failed as a thin-provisioned disk out
		 * of space would, not retried, so that a full machine gets
		 * write errors rather than a command that never ends.
		 */
		ramlld_cdb_set_sense(&lun->cdb, &res, RAMLLD_SK_DATA_PROTECT,
				     RAMLLD_ASC_SPACE_ALLOC_FAILED);
		ramlld_scsi_set_sense(sc, &res);
	}
out:
	kfree(buf);
	return 0;
}

/*
 * The interrupt vector of a command: its hardware queue's. A poll queue has
 * none: only error recovery's commands get past ramlld_scsi_poll_add() there,
 * and they are signalled in place, as without irq_cpus=.
 */
static unsigned int ramlld_scsi_vector(struct scsi_cmnd *sc)
{
	const struct blk_mq_hw_ctx *hctx = ramlld_compat_scsi_cmd_to_rq(sc)->mq_hctx;

	if (hctx->type == HCTX_TYPE_POLL)
		return RAMLLD_IRQ_NO_VECTOR;
	return hctx->queue_num;
}

static enum hrtimer_restart ramlld_scsi_timer_fn(struct hrtimer *timer)
{
	struct ramlld_scsi_cmd *cmd = container_of(timer, struct ramlld_scsi_cmd,
						   timer);
	const struct ramlld_scsi_lun *lun = cmd->sc->device->hostdata;

	ramlld_irq_raise(lun->dev, &cmd->irq, ramlld_scsi_vector(cmd->sc), true);
	return HRTIMER_NORESTART;
}

/* ramlld_complete_rq()'s callbacks: now, or through blk_mq_complete_request() */
static void ramlld_scsi_done_inline(void *sc)
{
	ramlld_compat_scsi_done_direct(sc);
}

/* The "interrupt" of a command (irq.c): from here rq_affinity decides. */
static void ramlld_scsi_irq_complete(struct ramlld_irq_cmd *icmd)
{
	ramlld_compat_scsi_done(container_of(icmd, struct ramlld_scsi_cmd, irq)->sc);
}

#if RAMLLD_HAVE_SCSI_MQ_POLL
/*
 * A command of a poll queue: left for ->mq_poll, never completed here. Not
 * during error recovery: the error handler sends its own commands (TEST
 * UNIT READY...) in a timed-out command, polled or not, waits for them, and
 * nobody need be polling then.
 */
static bool ramlld_scsi_poll_add(struct Scsi_Host *shost, struct scsi_cmnd *sc)
{
	struct ramlld_scsi_host *host = ramlld_scsi_host_of(shost);
	struct blk_mq_hw_ctx *hctx = ramlld_compat_scsi_cmd_to_rq(sc)->mq_hctx;
	struct ramlld_scsi_cmd *cmd = scsi_cmd_priv(sc);

	if (!host->pollqs || hctx->type != HCTX_TYPE_POLL ||
	    scsi_host_in_recovery(shost))
		return false;
	ramlld_poll_add(&host->pollqs[hctx->queue_num], &cmd->poll);
	return true;
}

/*
 * Complete what poll queue queue_num has done, in the poller's context
 * (scsi_done_direct: a polled request completes locally anyway). The
 * midlayer hands ->mq_poll no io_comp_batch: each command ends alone.
 */
static int ramlld_scsi_mq_poll(struct Scsi_Host *shost, unsigned int queue_num)
{
	struct ramlld_scsi_host *host = ramlld_scsi_host_of(shost);
	struct ramlld_scsi_cmd *cmd, *next;
	LIST_HEAD(done);
	int nr = 0;

	if (!ramlld_poll_take(&host->pollqs[queue_num], &done))
		return 0;
	list_for_each_entry_safe(cmd, next, &done, poll.node) {
		ramlld_compat_scsi_done_direct(cmd->sc);
		nr++;
	}
	return nr;
}

static RAMLLD_MAP_QUEUES_T ramlld_scsi_map_queues(struct Scsi_Host *shost)
{
	return ramlld_map_poll_queues(&shost->tag_set,
				      ramlld_scsi_host_of(shost)->poll_queues);
}
#else
static bool ramlld_scsi_poll_add(struct Scsi_Host *shost, struct scsi_cmnd *sc)
{
	return false;
}
#endif

/*
 * A command timed out. One on a poll list, which nobody polled, is taken
 * off it and left to error handling, as any other; one that ->mq_poll has
 * taken is about to complete there: wait for it.
 */
static RAMLLD_SCSI_TIMEOUT_T ramlld_scsi_eh_timed_out(struct scsi_cmnd *sc)
{
	struct ramlld_scsi_host *host = ramlld_scsi_host_of(sc->device->host);
	struct blk_mq_hw_ctx *hctx = ramlld_compat_scsi_cmd_to_rq(sc)->mq_hctx;
	struct ramlld_scsi_cmd *cmd = scsi_cmd_priv(sc);

	if (!host->pollqs || hctx->type != HCTX_TYPE_POLL)
		return RAMLLD_SCSI_EH_NOT_HANDLED;
	if (ramlld_poll_cancel(&host->pollqs[hctx->queue_num],
			       &cmd->poll) == RAMLLD_POLL_TAKEN)
		return RAMLLD_SCSI_EH_RESET_TIMER;
	return RAMLLD_SCSI_EH_NOT_HANDLED;
}

static RAMLLD_QC_STATUS_T
ramlld_scsi_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *sc)
{
	struct ramlld_scsi_lun *lun = sc->device->hostdata;
	struct ramlld_scsi_cmd *cmd = scsi_cmd_priv(sc);
	bool dropped = false;
	int ret;

	cmd->poll.state = RAMLLD_POLL_NONE;
	if (unlikely(!lun)) {
		sc->result = DID_NO_CONNECT << 16;
		ramlld_compat_scsi_done_direct(sc);
		return 0;
	}
	ret = ramlld_scsi_execute(lun, sc, &dropped);
	if (unlikely(ret))
		return ret;
	/* timeout_nth: the midlayer times it out, ramlld_scsi_eh_abort() ends it */
	if (unlikely(dropped))
		return 0;
	if (ramlld_scsi_poll_add(shost, sc))
		return 0;
	ramlld_complete_rq(lun->dev, sc, &cmd->timer, &cmd->irq,
			   ramlld_scsi_vector(sc), ramlld_scsi_done_inline);
	return 0;
}

static int ramlld_scsi_init_cmd_priv(struct Scsi_Host *shost,
				     struct scsi_cmnd *sc)
{
	struct ramlld_scsi_cmd *cmd = scsi_cmd_priv(sc);

	cmd->sc = sc;
	ramlld_poll_entry_init(&cmd->poll);
	ramlld_compat_hrtimer_setup(&cmd->timer, ramlld_scsi_timer_fn);
	ramlld_irq_cmd_init(&cmd->irq, RAMLLD_FE_SCSI, ramlld_scsi_irq_complete);
	return 0;
}

/* Attach the device of (target, lun); -ENXIO ends the scan of absent LUNs. */
static int ramlld_scsi_sdev_init(struct scsi_device *sdev)
{
	struct ramlld_scsi_host *host = ramlld_scsi_host_of(sdev->host);
	unsigned int lpt = host->group->luns_per_tgt;
	unsigned int pos;

	if (sdev->channel || sdev->id >= sdev->host->max_id || sdev->lun >= lpt)
		return -ENXIO;
	pos = sdev->id * lpt + (unsigned int)sdev->lun;
	if (pos >= host->group->nr_devices)
		return -ENXIO;
	sdev->hostdata = &host->luns[pos];
	return 0;
}

/* The verdict of error handler eh, logged (error handling is rare). */
static int ramlld_scsi_eh_verdict(struct scsi_cmnd *sc, enum ramlld_scsi_eh eh)
{
	struct ramlld_scsi_lun *lun = sc->device->hostdata;
	bool failed = lun && (READ_ONCE(lun->dev->cfg.eh_fail) & BIT(eh));

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

static int ramlld_scsi_eh_device_reset(struct scsi_cmnd *sc)
{
	struct ramlld_scsi_lun *lun = sc->device->hostdata;

	if (lun)
		ramlld_cdb_dev_reset(&lun->cdb, RAMLLD_UA_DEVICE_RESET);
	return ramlld_scsi_eh_verdict(sc, RAMLLD_EH_DEVICE_RESET);
}

/*
 * A target reset leaves a unit attention on the target's LUNs, a bus or
 * host reset on every LUN of the host.
 */
static int ramlld_scsi_eh_reset(struct scsi_cmnd *sc, enum ramlld_scsi_eh eh)
{
	struct ramlld_scsi_host *host = ramlld_scsi_host_of(sc->device->host);
	bool target = eh == RAMLLD_EH_TARGET_RESET;
	enum ramlld_cdb_ua ua = target ? RAMLLD_UA_DEVICE_RESET :
					 RAMLLD_UA_BUS_RESET;
	unsigned int i;

	for (i = 0; i < host->group->nr_devices; i++)
		if (!target || i / host->group->luns_per_tgt == sc->device->id)
			ramlld_cdb_dev_reset(&host->luns[i].cdb, ua);
	return ramlld_scsi_eh_verdict(sc, eh);
}

static int ramlld_scsi_eh_target_reset(struct scsi_cmnd *sc)
{
	return ramlld_scsi_eh_reset(sc, RAMLLD_EH_TARGET_RESET);
}

static int ramlld_scsi_eh_bus_reset(struct scsi_cmnd *sc)
{
	return ramlld_scsi_eh_reset(sc, RAMLLD_EH_BUS_RESET);
}

static int ramlld_scsi_eh_host_reset(struct scsi_cmnd *sc)
{
	return ramlld_scsi_eh_reset(sc, RAMLLD_EH_HOST_RESET);
}

static struct scsi_host_template ramlld_scsi_template = {
	.module			= THIS_MODULE,
	.name			= RAMLLD_NAME,
	.proc_name		= RAMLLD_NAME,
	.queuecommand		= ramlld_scsi_queuecommand,
	.init_cmd_priv		= ramlld_scsi_init_cmd_priv,
	.RAMLLD_SHT_SDEV_INIT	= ramlld_scsi_sdev_init,
	.eh_timed_out		= ramlld_scsi_eh_timed_out,
	.eh_abort_handler	= ramlld_scsi_eh_abort,
	.eh_device_reset_handler = ramlld_scsi_eh_device_reset,
	.eh_target_reset_handler = ramlld_scsi_eh_target_reset,
	.eh_bus_reset_handler	= ramlld_scsi_eh_bus_reset,
	.eh_host_reset_handler	= ramlld_scsi_eh_host_reset,
	.can_queue		= 192,
	.this_id		= -1,
	.sg_tablesize		= SG_MAX_SEGMENTS,
	.cmd_per_lun		= 192,
	.cmd_size		= sizeof(struct ramlld_scsi_cmd),
	.skip_settle_delay	= 1,
#if RAMLLD_HAVE_SCSI_MQ_POLL
	.mq_poll		= ramlld_scsi_mq_poll,
	.map_queues		= ramlld_scsi_map_queues,
#endif
};

static void ramlld_scsi_init_lun(struct ramlld_scsi_host *host, unsigned int i)
{
	struct ramlld_scsi_lun *lun = &host->luns[i];
	struct ramlld_device *rdev = host->group->devices[i];
	unsigned int lpt = host->group->luns_per_tgt;
	struct ramlld_cdb_dev *dev = &lun->cdb;
	u32 bs = rdev->cfg.sector_size;

	lun->dev = rdev;
	dev->nr_blocks = div_u64(ramlld_store_capacity(rdev->store), bs);
	dev->block_size = bs;
	dev->lbppbe = ilog2(ramlld_config_pbs(&rdev->cfg) / bs);
	dev->wce_default = rdev->cfg.write_cache;
	dev->rotational = rdev->cfg.rotational;
	dev->index = rdev->index;
	dev->target = i / lpt;
	dev->lun = i % lpt;
	dev->tgt_nr_luns = min(lpt, host->group->nr_devices - dev->target * lpt);
	dev->max_xfer_blocks = ((u64)rdev->cfg.max_hw_sectors_kb << 10) / bs;
	/*
	 * No optimal transfer length: sd would make it max_sectors_kb and
	 * twice it the read-ahead, which the block front ends do not have.
	 */
	dev->opt_xfer_blocks = 0;
	dev->max_unmap_blocks = RAMLLD_MAX_DISCARD_BYTES / bs;
	dev->max_unmap_desc = RAMLLD_CDB_MAX_UNMAP_DESC;
	dev->unmap_gran_blocks = max_t(u32, PAGE_SIZE / bs, 1);
	dev->max_ws_blocks = RAMLLD_MAX_DISCARD_BYTES / bs;
	/* at most two store pages: ramlld_store_compare_and_write() */
	dev->max_cw_blocks = min_t(u32, PAGE_SIZE, RAMLLD_CDB_MAX_CW_BYTES) / bs;
	dev->lba_run = ramlld_scsi_lba_run;
	ramlld_cdb_dev_reset(dev, RAMLLD_UA_POWER_ON);
}

static bool ramlld_scsi_lun_present(struct Scsi_Host *shost, unsigned int i,
				    unsigned int lpt)
{
	struct scsi_device *sdev;
	unsigned long flags;

	spin_lock_irqsave(shost->host_lock, flags);
	sdev = __scsi_device_lookup(shost, 0, i / lpt, i % lpt);
	spin_unlock_irqrestore(shost->host_lock, flags);
	return sdev;
}

/*
 * poll_queues more hardware queues, and their poll lists (a config check
 * refused poll_queues where the kernel has no ->mq_poll).
 */
static int ramlld_scsi_init_poll(struct ramlld_scsi_host *host,
				 unsigned int poll_queues)
{
	struct Scsi_Host *shost = host->shost;
	unsigned int i;

	if (!poll_queues)
		return 0;
	host->pollqs = kcalloc(shost->nr_hw_queues + poll_queues,
			       sizeof(*host->pollqs), GFP_KERNEL);
	if (!host->pollqs)
		return -ENOMEM;
	for (i = 0; i < shost->nr_hw_queues + poll_queues; i++)
		ramlld_poll_list_init(&host->pollqs[i]);
	host->poll_queues = poll_queues;
	shost->nr_hw_queues += poll_queues;
#if RAMLLD_HAVE_SCSI_MQ_POLL
	shost->nr_maps = HCTX_MAX_TYPES;
#endif
	return 0;
}

int ramlld_scsi_add(struct ramlld_group *group)
{
	const struct ramlld_config *cfg = &group->devices[0]->cfg;
	unsigned int lpt = group->luns_per_tgt;
	struct ramlld_scsi_host *host;
	struct Scsi_Host *shost;
	unsigned int i;
	int ret;

	host = kzalloc(struct_size(host, luns, group->nr_devices), GFP_KERNEL);
	if (!host)
		return -ENOMEM;
	host->group = group;
	for (i = 0; i < group->nr_devices; i++)
		ramlld_scsi_init_lun(host, i);

	shost = scsi_host_alloc(&ramlld_scsi_template, sizeof(host));
	if (!shost) {
		ret = -ENOMEM;
		goto err_free;
	}
	*(struct ramlld_scsi_host **)shost_priv(shost) = host;
	host->shost = shost;
	/* the template is const from 6.4: per-host values go in the host */
	shost->max_channel = 0;
	shost->max_id = cfg->num_tgts;
	shost->max_lun = lpt;
	/* 16: sd uses READ/WRITE(16); 32: variable-length CDBs reach the emulation */
	shost->max_cmd_len = 32;
	shost->can_queue = cfg->can_queue;
	shost->cmd_per_lun = cfg->cmd_per_lun ? cfg->cmd_per_lun : cfg->can_queue;
	/* by default one per interrupt vector (irq_cpus), else one per CPU */
	shost->nr_hw_queues = cfg->submit_queues ? cfg->submit_queues :
			      ramlld_config_nr_vectors(cfg) ?: nr_cpu_ids;
	shost->host_tagset = 1;
	/* max_hw_sectors_kb; max_sectors_kb stays RAMLLD_DEF_MAX_SECTORS */
	shost->max_sectors = cfg->max_hw_sectors_kb << (10 - SECTOR_SHIFT);
#if RAMLLD_HAVE_SHOST_OPT_SECTORS
	shost->opt_sectors = RAMLLD_DEF_MAX_SECTORS;
#endif
	ret = ramlld_scsi_init_poll(host, cfg->poll_queues);
	if (ret)
		goto err_put;

	ret = scsi_add_host(shost, ramlld_scsi_root);
	if (ret)
		goto err_put;
	/* synchronous: the LUNs exist when the module load returns */
	for (i = 0; i < cfg->num_tgts; i++)
		scsi_scan_target(&shost->shost_gendev, 0, i, SCAN_WILD_CARD,
				 SCSI_SCAN_INITIAL);
	/* the scan reports nothing: a LUN it could not add (no memory) is missing */
	for (i = 0; i < group->nr_devices; i++) {
		if (!ramlld_scsi_lun_present(shost, i, lpt)) {
			pr_err("scsi: host%u: LUN %u:%u did not attach during the scan\n",
			       shost->host_no, i / lpt, i % lpt);
			ret = -ENOMEM;
			goto err_remove;
		}
	}
	group->scsi_host = host;
	pr_info("scsi: host%u, %u target(s) x %u LUN(s), can_queue %u, cmd_per_lun %u, %u submit and %u poll queue(s)\n",
		shost->host_no, cfg->num_tgts, lpt, shost->can_queue,
		shost->cmd_per_lun, shost->nr_hw_queues - host->poll_queues,
		host->poll_queues);
	return 0;

err_remove:
	scsi_remove_host(shost);
err_put:
	scsi_host_put(shost);
err_free:
	kfree(host->pollqs);
	kfree(host);
	return ret;
}

void ramlld_scsi_remove(struct ramlld_group *group)
{
	struct ramlld_scsi_host *host = group->scsi_host;

	scsi_remove_host(host->shost);
	scsi_host_put(host->shost);
	group->scsi_host = NULL;
	kfree(host->pollqs);
	kfree(host);
}

/* device_for_each_child() of an sdev: add the openers of its sd disk. */
static int ramlld_scsi_add_openers(struct device *dev, void *data)
{
	if (dev->class && !strcmp(dev->class->name, "block"))
		*(unsigned int *)data += ramlld_compat_disk_openers(dev_to_disk(dev));
	return 0;
}

bool ramlld_scsi_busy(struct ramlld_group *group)
{
	struct ramlld_scsi_host *host = group->scsi_host;
	struct scsi_device *sdev;
	unsigned int openers = 0;

	if (!host)
		return false;
	shost_for_each_device(sdev, host->shost)
		device_for_each_child(&sdev->sdev_gendev, &openers,
				      ramlld_scsi_add_openers);
	return openers;
}

int ramlld_scsi_host_no(struct ramlld_group *group)
{
	return group->scsi_host ? group->scsi_host->shost->host_no : -1;
}

int ramlld_scsi_init(void)
{
	ramlld_scsi_root = root_device_register(RAMLLD_NAME "_scsi");
	return PTR_ERR_OR_ZERO(ramlld_scsi_root);
}

/* Every group is gone by now. */
void ramlld_scsi_exit(void)
{
	root_device_unregister(ramlld_scsi_root);
}
