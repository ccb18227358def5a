// SPDX-License-Identifier: GPL-2.0
/*
 * mq.c - the blk-mq front end (mode=mq): /dev/ramlldmq<N>.
 *
 * A request-queue driver over the same store as the bio front end, so the
 * cost of the request layer (tags, plugging, merging, schedulers, completion
 * routing) is what separates the two. Where a request completes:
 *   irqmode=0  blk_mq_end_request() in queue_rq: no softirq, no IPI;
 *              rq_affinity has nothing to act on.
 *   irqmode=1  blk_mq_complete_request(): completes on the submitting CPU
 *              or, by rq_affinity, through an IPI or BLOCK_SOFTIRQ, as a
 *              device interrupt handler would.
 *   irqmode=2  an hrtimer fires completion_nsec later (a device's latency),
 *              then as irqmode=1.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/slab.h>

#include "ramlld.h"
#include "compat.h"

#define RAMLLD_MQ_MINORS	16
#define RAMLLD_MQ_NAME		RAMLLD_NAME "mq"

struct ramlld_mq_dev {
	struct ramlld_store *store;
	struct gendisk *disk;
	struct blk_mq_tag_set *tag_set;	/* own, or the shared one */
	struct blk_mq_tag_set own_tag_set;
};

/* Per-request data (tag_set.cmd_size): small, no pointer to the device. */
struct ramlld_mq_cmd {
	struct hrtimer timer;
	blk_status_t status;
	bool dropped;		/* timeout_nth: left for the timeout handler */
};

static int ramlld_mq_major;
static struct ramlld_mq_dev *ramlld_mq_devs;
static unsigned int ramlld_mq_nr_added;
static struct blk_mq_tag_set ramlld_mq_shared_tag_set;
static bool ramlld_mq_shared_ready;

/* Move a request's data or zero its range; one store call per bio. */
static blk_status_t ramlld_mq_do_request(struct ramlld_mq_dev *dev,
					 struct request *rq, bool may_sleep)
{
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	struct bio *bio;
	int err = 0;

	switch (req_op(rq)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		__rq_for_each_bio(bio, rq) {
			err = ramlld_store_rw_bio(dev->store, bio, pos, may_sleep);
			if (err)
				break;
			pos += bio->bi_iter.bi_size;
		}
		break;
	case REQ_OP_FLUSH:
		break;
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		err = ramlld_store_discard(dev->store, pos, blk_rq_bytes(rq));
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
	return ramlld_store_errno_to_blk_status(err);
}

static void ramlld_mq_complete(struct request *rq)
{
	struct ramlld_mq_cmd *cmd = blk_mq_rq_to_pdu(rq);

	blk_mq_end_request(rq, cmd->status);
}

static enum hrtimer_restart ramlld_mq_timer_fn(struct hrtimer *timer)
{
	struct ramlld_mq_cmd *cmd = container_of(timer, struct ramlld_mq_cmd, timer);

	blk_mq_complete_request(blk_mq_rq_from_pdu(cmd));
	return HRTIMER_NORESTART;
}

/* The injected fault of a read or write: every_nth, timeout_nth, badblocks=. */
static enum ramlld_fault ramlld_mq_fault(struct ramlld_mq_dev *dev,
					 struct request *rq)
{
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	enum ramlld_fault fault;

	if ((req_op(rq) != REQ_OP_READ && req_op(rq) != REQ_OP_WRITE) ||
	    !blk_rq_bytes(rq))
		return RAMLLD_FAULT_NONE;
	fault = ramlld_fault_nth(RAMLLD_FE_MQ, true);
	if (fault)
		return fault;
	if (ramlld_store_first_bad(dev->store, pos, blk_rq_bytes(rq)) !=
	    RAMLLD_STORE_NO_BAD)
		return RAMLLD_FAULT_ERROR;
	return RAMLLD_FAULT_NONE;
}

static blk_status_t ramlld_mq_queue_rq(struct blk_mq_hw_ctx *hctx,
				       const struct blk_mq_queue_data *bd)
{
	struct ramlld_mq_dev *dev = hctx->queue->queuedata;
	struct request *rq = bd->rq;
	struct ramlld_mq_cmd *cmd = blk_mq_rq_to_pdu(rq);
	enum ramlld_fault fault = RAMLLD_FAULT_NONE;

	if (ramlld_faults_armed())
		fault = ramlld_mq_fault(dev, rq);
	if (unlikely(fault == RAMLLD_FAULT_TIMEOUT)) {
		/* never completed here: ramlld_mq_timeout() ends it */
		cmd->dropped = true;
		blk_mq_start_request(rq);
		return BLK_STS_OK;
	}
	blk_mq_start_request(rq);
	if (unlikely(fault == RAMLLD_FAULT_ERROR))
		cmd->status = BLK_STS_IOERR;
	else
		cmd->status = ramlld_mq_do_request(dev, rq,
						   hctx->flags & BLK_MQ_F_BLOCKING);

	switch (ramlld_irqmode) {
	case RAMLLD_IRQ_NONE:
		blk_mq_end_request(rq, cmd->status);
		break;
	case RAMLLD_IRQ_SOFTIRQ:
		blk_mq_complete_request(rq);
		break;
	case RAMLLD_IRQ_TIMER:
		hrtimer_start(&cmd->timer, ns_to_ktime(ramlld_completion_nsec),
			      HRTIMER_MODE_REL);
		break;
	}
	return BLK_STS_OK;
}

/*
 * A request outlived its timeout: a timeout_nth one that was never to
 * complete, or (irqmode=2 with completion_nsec near the timeout) one whose
 * completion timer is still pending. Either ends here, as BLK_STS_TIMEOUT,
 * unless its timer is already running: then it completes on its own.
 */
static enum blk_eh_timer_return ramlld_mq_timeout(RAMLLD_MQ_TIMEOUT_ARGS)
{
	struct ramlld_mq_cmd *cmd = blk_mq_rq_to_pdu(rq);

	if (cmd->dropped) {
		cmd->dropped = false;
	} else if (ramlld_irqmode != RAMLLD_IRQ_TIMER ||
		   hrtimer_try_to_cancel(&cmd->timer) != 1) {
		return BLK_EH_RESET_TIMER;
	}
	cmd->status = BLK_STS_TIMEOUT;
	blk_mq_complete_request(rq);
	return BLK_EH_DONE;
}

static int ramlld_mq_init_request(struct blk_mq_tag_set *set, struct request *rq,
				  unsigned int hctx_idx,
				  RAMLLD_NUMA_NODE_T numa_node)
{
	struct ramlld_mq_cmd *cmd = blk_mq_rq_to_pdu(rq);

	ramlld_compat_hrtimer_setup(&cmd->timer, ramlld_mq_timer_fn);
	cmd->dropped = false;
	return 0;
}

static const struct blk_mq_ops ramlld_mq_ops = {
	.queue_rq	= ramlld_mq_queue_rq,
	.complete	= ramlld_mq_complete,
	.timeout	= ramlld_mq_timeout,
	.init_request	= ramlld_mq_init_request,
};

static const struct block_device_operations ramlld_mq_fops = {
	.owner		= THIS_MODULE,
};

static int ramlld_mq_init_tag_set(struct blk_mq_tag_set *set)
{
	memset(set, 0, sizeof(*set));
	set->ops = &ramlld_mq_ops;
	set->nr_hw_queues = ramlld_nr_hw_queues ? ramlld_nr_hw_queues : nr_cpu_ids;
	set->queue_depth = ramlld_hw_queue_depth;
	set->numa_node = NUMA_NO_NODE;
	set->cmd_size = sizeof(struct ramlld_mq_cmd);
	set->flags = RAMLLD_BLK_MQ_F_SHOULD_MERGE;
	if (ramlld_blocking)
		set->flags |= BLK_MQ_F_BLOCKING;
	return blk_mq_alloc_tag_set(set);
}

static int ramlld_mq_add_one(struct ramlld_mq_dev *dev, unsigned int index)
{
	struct ramlld_disk_limits lim;
	struct gendisk *disk;
	int ret;

	if (ramlld_shared_tags) {
		dev->tag_set = &ramlld_mq_shared_tag_set;
	} else {
		ret = ramlld_mq_init_tag_set(&dev->own_tag_set);
		if (ret)
			return ret;
		dev->tag_set = &dev->own_tag_set;
	}

	ramlld_disk_limits_init(&lim);
	disk = ramlld_compat_alloc_mq_disk(dev->tag_set, &lim, dev);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto err_tags;
	}
	disk->major = ramlld_mq_major;
	disk->first_minor = index * RAMLLD_MQ_MINORS;
	disk->minors = RAMLLD_MQ_MINORS;
	disk->fops = &ramlld_mq_fops;
	disk->private_data = dev;
	snprintf(disk->disk_name, DISK_NAME_LEN, RAMLLD_MQ_NAME "%u", index);
	set_capacity(disk, ramlld_store_capacity(dev->store) >> SECTOR_SHIFT);

	ret = ramlld_compat_add_disk(disk);
	if (ret)
		goto err_disk;
	dev->disk = disk;
	return 0;

err_disk:
	ramlld_compat_put_disk(disk);
err_tags:
	if (dev->tag_set == &dev->own_tag_set)
		blk_mq_free_tag_set(&dev->own_tag_set);
	return ret;
}

int ramlld_mq_init(void)
{
	unsigned int i;
	int ret;

	ramlld_mq_devs = kcalloc(ramlld_nr_devices, sizeof(*ramlld_mq_devs),
				 GFP_KERNEL);
	if (!ramlld_mq_devs)
		return -ENOMEM;
	ret = register_blkdev(0, RAMLLD_MQ_NAME);
	if (ret < 0)
		goto err_free;
	ramlld_mq_major = ret;
	if (ramlld_shared_tags) {
		ret = ramlld_mq_init_tag_set(&ramlld_mq_shared_tag_set);
		if (ret)
			goto err_unregister;
		ramlld_mq_shared_ready = true;
	}

	for (i = 0; i < ramlld_nr_devices; i++) {
		ramlld_mq_devs[i].store = ramlld_stores[i];
		ret = ramlld_mq_add_one(&ramlld_mq_devs[i], i);
		if (ret) {
			pr_err("mq: cannot add disk %u: error %d\n", i, ret);
			ramlld_mq_exit();
			return ret;
		}
		ramlld_mq_nr_added++;
	}
	return 0;

err_unregister:
	unregister_blkdev(ramlld_mq_major, RAMLLD_MQ_NAME);
err_free:
	kfree(ramlld_mq_devs);
	ramlld_mq_devs = NULL;
	return ret;
}

void ramlld_mq_exit(void)
{
	unsigned int i;

	for (i = 0; i < ramlld_mq_nr_added; i++) {
		struct ramlld_mq_dev *dev = &ramlld_mq_devs[i];

		del_gendisk(dev->disk);
		ramlld_compat_put_disk(dev->disk);
		if (dev->tag_set == &dev->own_tag_set)
			blk_mq_free_tag_set(&dev->own_tag_set);
	}
	ramlld_mq_nr_added = 0;
	if (ramlld_mq_shared_ready) {
		blk_mq_free_tag_set(&ramlld_mq_shared_tag_set);
		ramlld_mq_shared_ready = false;
	}
	unregister_blkdev(ramlld_mq_major, RAMLLD_MQ_NAME);
	kfree(ramlld_mq_devs);
	ramlld_mq_devs = NULL;
}
