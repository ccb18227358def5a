// SPDX-License-Identifier: GPL-2.0
/*
 * mq.c - the blk-mq front end (mode=mq): /dev/ramlldmq<N>.
 *
 * A request-queue driver over the same store as the bio front end, so the
 * cost of the request layer (tags, plugging, merging, schedulers, completion
 * routing) is what separates the two. Where a request completes:
 *   irqmode=0  blk_mq_end_request() in queue_rq: no softirq, no IPI;
 *              rq_affinity has nothing to act on.
 *   irqmode=1  blk_mq_complete_request() from the "interrupt" of irq.c
 *              (irq_cpus=; inline in queue_rq when empty); rq_affinity then
 *              completes there, or through an IPI or BLOCK_SOFTIRQ, as after
 *              a device's interrupt handler.
 *   irqmode=2  an hrtimer fires completion_nsec later (a device's latency),
 *              then as irqmode=1.
 * A request of a poll queue (poll_queues=N, HCTX_TYPE_POLL) ignores irqmode:
 * queue_rq moves its data and leaves it on its queue's poll list, and the
 * submitter's ->poll ends it, into the caller's io_comp_batch where the
 * kernel has one (complete_batch=1). ->queue_rqs (queue_rqs=1) takes a
 * plugged list of requests in one call.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/slab.h>

#include "disk.h"
#include "faults.h"
#include "frontends.h"
#include "irq.h"
#include "store.h"
#include "compat.h"
#include "poll.h"

/* A device's blk-mq state: its tag set, its own or its group's shared one. */
struct ramlld_mq_dev {
	struct gendisk *disk;
	struct blk_mq_tag_set *tag_set;
	struct blk_mq_tag_set own_tag_set;
};

/* Per-request data (tag_set.cmd_size): small, no pointer to the device. */
struct ramlld_mq_cmd {
	struct hrtimer timer;
	struct ramlld_poll_entry poll;
	struct ramlld_irq_cmd irq;
	blk_status_t status;
	bool dropped;		/* timeout_nth: left for the timeout handler */
};

/* Move a request's data or zero its range. */
static blk_status_t ramlld_mq_do_request(struct ramlld_device *dev,
					 struct request *rq, bool may_sleep)
{
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	int err = 0;

	switch (req_op(rq)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		err = ramlld_store_rw_rq(dev->store, rq, pos, may_sleep);
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
	/* REQ_NOWAIT: the submitter retries where it may wait for memory */
	if (unlikely(err == -ENOMEM && !may_sleep && (rq->cmd_flags & REQ_NOWAIT)))
		return BLK_STS_AGAIN;
	return ramlld_store_errno_to_blk_status(err);
}

/* Where the block layer completes a request that blk_mq_complete_request() got. */
static void ramlld_mq_complete(struct request *rq)
{
	struct ramlld_mq_cmd *cmd = blk_mq_rq_to_pdu(rq);

	ramlld_irq_mq_done();
	blk_mq_end_request(rq, cmd->status);
}

static enum hrtimer_restart ramlld_mq_timer_fn(struct hrtimer *timer)
{
	struct ramlld_mq_cmd *cmd = container_of(timer, struct ramlld_mq_cmd, timer);
	struct request *rq = blk_mq_rq_from_pdu(cmd);

	ramlld_irq_raise(rq->q->queuedata, &cmd->irq, rq->mq_hctx->queue_num,
			 true);
	return HRTIMER_NORESTART;
}

/* ramlld_complete_rq()'s callbacks: now, or through blk_mq_complete_request() */
static void ramlld_mq_done_inline(void *data)
{
	struct request *rq = data;
	struct ramlld_mq_cmd *cmd = blk_mq_rq_to_pdu(rq);

	blk_mq_end_request(rq, cmd->status);
}

/* The "interrupt" of a request (irq.c): from here rq_affinity decides. */
static void ramlld_mq_irq_complete(struct ramlld_irq_cmd *icmd)
{
	struct ramlld_mq_cmd *cmd = container_of(icmd, struct ramlld_mq_cmd, irq);

	blk_mq_complete_request(blk_mq_rq_from_pdu(cmd));
}

/*
 * Start a request and move its data. Returns true when it is finished and
 * is to end by the irqmode (cmd->status set); false when it went on a poll
 * list or was dropped for its timeout.
 */
static bool ramlld_mq_issue(struct blk_mq_hw_ctx *hctx, struct request *rq)
{
	struct ramlld_device *dev = hctx->queue->queuedata;
	struct ramlld_mq_cmd *cmd = blk_mq_rq_to_pdu(rq);
	enum ramlld_fault fault = RAMLLD_FAULT_NONE;

	cmd->poll.state = RAMLLD_POLL_NONE;
	if (ramlld_faults_armed(dev) &&
	    (req_op(rq) == REQ_OP_READ || req_op(rq) == REQ_OP_WRITE))
		fault = ramlld_fault_decide(dev, RAMLLD_FE_MQ,
					    (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
					    blk_rq_bytes(rq), NULL);
	if (unlikely(fault == RAMLLD_FAULT_TIMEOUT)) {
		/* never completed here: ramlld_mq_timeout() ends it */
		cmd->dropped = true;
		blk_mq_start_request(rq);
		return false;
	}
	blk_mq_start_request(rq);
	if (unlikely(fault == RAMLLD_FAULT_ERROR))
		cmd->status = BLK_STS_IOERR;
	else
		cmd->status = ramlld_mq_do_request(dev, rq,
						   hctx->flags & BLK_MQ_F_BLOCKING);
	if (hctx->type == HCTX_TYPE_POLL) {
		/* hctx->driver_data: the queue's poll list */
		ramlld_poll_add(hctx->driver_data, &cmd->poll);
		return false;
	}
	return true;
}

static void ramlld_mq_finish(struct ramlld_device *dev, struct request *rq)
{
	struct ramlld_mq_cmd *cmd = blk_mq_rq_to_pdu(rq);

	/* never a poll queue's request: those end in ->poll (ramlld_mq_issue()) */
	ramlld_complete_rq(dev, rq, &cmd->timer, &cmd->irq,
			   rq->mq_hctx->queue_num, ramlld_mq_done_inline);
}

static blk_status_t ramlld_mq_queue_rq(struct blk_mq_hw_ctx *hctx,
				       const struct blk_mq_queue_data *bd)
{
	if (ramlld_mq_issue(hctx, bd->rq))
		ramlld_mq_finish(hctx->queue->queuedata, bd->rq);
	return BLK_STS_OK;
}

#if RAMLLD_HAVE_QUEUE_RQS
/*
 * A plugged list of requests of one queue, in one call. With irqmode=0 and
 * complete_batch=1 the list also ends as one batch
 * (blk_mq_end_request_batch(), as nvme does for an interrupt's completions).
 * Every request is issued: ramlld_mq_issue() refuses none, so the list the
 * block layer gets back is empty.
 */
static void ramlld_mq_queue_rqs(RAMLLD_QUEUE_RQS_ARGS)
{
	DEFINE_IO_COMP_BATCH(iob);
	struct ramlld_device *dev = NULL;
	struct request *rq;
	bool batch = false;

	while ((rq = rq_list_pop(rqlist))) {
		struct ramlld_mq_cmd *cmd = blk_mq_rq_to_pdu(rq);

		if (!dev) {	/* one queue, so one device, for the whole list */
			dev = rq->q->queuedata;
			batch = dev->cfg.complete_batch &&
				dev->cfg.irqmode == RAMLLD_IRQ_NONE;
		}
		ramlld_compat_queue_rqs_prep(rq);
		if (!ramlld_mq_issue(rq->mq_hctx, rq))
			continue;
		if (!batch || !ramlld_compat_add_to_batch(rq, &iob, cmd->status))
			ramlld_mq_finish(dev, rq);
	}
	if (iob.complete)	/* set by the first request batched */
		iob.complete(&iob);
}
#endif

/*
 * End what a poll queue has finished: into the caller's batch where there
 * is one (io_uring's), else one by one (5.10, or complete_batch=0).
 * Returns how many ended.
 */
static int ramlld_mq_poll(RAMLLD_MQ_POLL_ARGS)
{
	struct ramlld_device *dev = hctx->queue->queuedata;
	struct io_comp_batch *batch = dev->cfg.complete_batch ? RAMLLD_POLL_IOB : NULL;
	struct ramlld_mq_cmd *cmd, *next;
	LIST_HEAD(done);
	int nr = 0;

	if (!ramlld_poll_take(hctx->driver_data, &done))
		return 0;
	list_for_each_entry_safe(cmd, next, &done, poll.node) {
		struct request *rq = blk_mq_rq_from_pdu(cmd);

		if (!ramlld_compat_add_to_batch(rq, batch, cmd->status))
			blk_mq_end_request(rq, cmd->status);
		nr++;
	}
	return nr;
}

/*
 * A poll queue's request outlived its timeout: nobody polled for it. One
 * still on the list ends here as timed out; one that ->poll has taken is
 * about to end there (the block layer holds it meanwhile). true when the
 * request was handled here, *ret says how.
 */
static bool ramlld_mq_poll_timeout(struct request *rq,
				   enum blk_eh_timer_return *ret)
{
	struct ramlld_mq_cmd *cmd = blk_mq_rq_to_pdu(rq);

	switch (ramlld_poll_cancel(rq->mq_hctx->driver_data, &cmd->poll)) {
	case RAMLLD_POLL_LISTED:
		blk_mq_end_request(rq, BLK_STS_TIMEOUT);
		*ret = BLK_EH_DONE;
		return true;
	case RAMLLD_POLL_TAKEN:
		*ret = BLK_EH_RESET_TIMER;
		return true;
	default:
		return false;	/* a dropped one: as on any queue */
	}
}

/*
 * A request outlived its timeout: a timeout_nth one that was never to
 * complete, or (irqmode=2 with completion_nsec near the timeout) one whose
 * completion timer is still pending. Either ends here, as BLK_STS_TIMEOUT,
 * unless its timer is already running: then it completes on its own.
 */
static enum blk_eh_timer_return ramlld_mq_timeout(RAMLLD_MQ_TIMEOUT_ARGS)
{
	struct ramlld_device *dev = rq->q->queuedata;
	struct ramlld_mq_cmd *cmd = blk_mq_rq_to_pdu(rq);
	enum blk_eh_timer_return ret;

	if (rq->mq_hctx->type == HCTX_TYPE_POLL && ramlld_mq_poll_timeout(rq, &ret))
		return ret;
	if (cmd->dropped) {
		cmd->dropped = false;
	} else if (dev->cfg.irqmode != RAMLLD_IRQ_TIMER ||
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
	ramlld_poll_entry_init(&cmd->poll);
	ramlld_irq_cmd_init(&cmd->irq, RAMLLD_FE_MQ, ramlld_mq_irq_complete);
	cmd->dropped = false;
	return 0;
}

static int ramlld_mq_init_hctx(struct blk_mq_hw_ctx *hctx, void *data,
			       unsigned int hctx_idx)
{
	struct ramlld_poll_list *pl;

	/* every queue gets one: its type is only known after this call */
	pl = kzalloc_node(sizeof(*pl), GFP_KERNEL, hctx->numa_node);
	if (!pl)
		return -ENOMEM;
	ramlld_poll_list_init(pl);
	hctx->driver_data = pl;
	return 0;
}

static void ramlld_mq_exit_hctx(struct blk_mq_hw_ctx *hctx,
				unsigned int hctx_idx)
{
	kfree(hctx->driver_data);
	hctx->driver_data = NULL;
}

/* set->driver_data holds the number of poll queues (ramlld_mq_init_tag_set()) */
static RAMLLD_MAP_QUEUES_T ramlld_mq_map_queues(struct blk_mq_tag_set *set)
{
	return ramlld_map_poll_queues(set, (unsigned long)set->driver_data);
}

#define RAMLLD_MQ_OPS_COMMON					\
	.queue_rq	= ramlld_mq_queue_rq,			\
	.complete	= ramlld_mq_complete,			\
	.timeout	= ramlld_mq_timeout,			\
	.poll		= ramlld_mq_poll,			\
	.init_hctx	= ramlld_mq_init_hctx,			\
	.exit_hctx	= ramlld_mq_exit_hctx,			\
	.map_queues	= ramlld_mq_map_queues,			\
	.init_request	= ramlld_mq_init_request

static const struct blk_mq_ops ramlld_mq_ops = {
	RAMLLD_MQ_OPS_COMMON,
};

#if RAMLLD_HAVE_QUEUE_RQS
/* queue_rqs=1: the block layer hands a plugged list over in one call */
static const struct blk_mq_ops ramlld_mq_ops_queue_rqs = {
	RAMLLD_MQ_OPS_COMMON,
	.queue_rqs	= ramlld_mq_queue_rqs,
};
#endif

static const struct block_device_operations ramlld_mq_fops = {
	.owner		= THIS_MODULE,
};

static int ramlld_mq_init_tag_set(struct blk_mq_tag_set *set,
				  const struct ramlld_config *cfg)
{
	memset(set, 0, sizeof(*set));
	set->ops = &ramlld_mq_ops;
#if RAMLLD_HAVE_QUEUE_RQS
	if (cfg->queue_rqs)
		set->ops = &ramlld_mq_ops_queue_rqs;
#endif
	/*
	 * by default one per interrupt vector (irq_cpus), else one per CPU;
	 * the poll queues come after them and have no vector
	 */
	set->nr_hw_queues = cfg->nr_hw_queues ? cfg->nr_hw_queues :
			    ramlld_config_nr_vectors(cfg) ?: nr_cpu_ids;
	set->nr_maps = 1;
	if (cfg->poll_queues) {
		set->nr_hw_queues += cfg->poll_queues;
		set->nr_maps = HCTX_MAX_TYPES;
	}
	set->driver_data = (void *)(unsigned long)cfg->poll_queues;
	set->queue_depth = cfg->hw_queue_depth;
	set->numa_node = NUMA_NO_NODE;
	set->cmd_size = sizeof(struct ramlld_mq_cmd);
	set->flags = RAMLLD_BLK_MQ_F_SHOULD_MERGE;
	if (cfg->blocking)
		set->flags |= BLK_MQ_F_BLOCKING;
	return blk_mq_alloc_tag_set(set);
}

/* The group's shared tag set (shared_tags): made for its first user. */
static struct blk_mq_tag_set *ramlld_mq_get_shared(struct ramlld_device *dev)
{
	struct ramlld_group *group = dev->group;
	struct blk_mq_tag_set *set = group->mq_shared_set;
	int ret;

	if (!set) {
		set = kmalloc(sizeof(*set), GFP_KERNEL);
		if (!set)
			return ERR_PTR(-ENOMEM);
		ret = ramlld_mq_init_tag_set(set, &dev->cfg);
		if (ret) {
			kfree(set);
			return ERR_PTR(ret);
		}
		group->mq_shared_set = set;
	}
	group->mq_shared_users++;
	return set;
}

static void ramlld_mq_put_tag_set(struct ramlld_device *dev)
{
	struct ramlld_mq_dev *mq = dev->mq;
	struct ramlld_group *group = dev->group;

	if (mq->tag_set == &mq->own_tag_set) {
		blk_mq_free_tag_set(&mq->own_tag_set);
	} else if (!--group->mq_shared_users) {
		blk_mq_free_tag_set(group->mq_shared_set);
		kfree(group->mq_shared_set);
		group->mq_shared_set = NULL;
	}
}

int ramlld_mq_add(struct ramlld_device *dev)
{
	struct ramlld_mq_dev *mq;
	struct gendisk *disk;
	int ret;

	mq = kzalloc(sizeof(*mq), GFP_KERNEL);
	if (!mq)
		return -ENOMEM;
	if (dev->cfg.shared_tags) {
		mq->tag_set = ramlld_mq_get_shared(dev);
		if (IS_ERR(mq->tag_set)) {
			ret = PTR_ERR(mq->tag_set);
			goto err_free;
		}
	} else {
		ret = ramlld_mq_init_tag_set(&mq->own_tag_set, &dev->cfg);
		if (ret)
			goto err_free;
		mq->tag_set = &mq->own_tag_set;
	}
	dev->mq = mq;

	disk = ramlld_disk_add(dev, RAMLLD_FE_MQ, &ramlld_mq_fops, mq->tag_set);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto err_tags;
	}
	mq->disk = disk;
	return 0;

err_tags:
	ramlld_mq_put_tag_set(dev);
	dev->mq = NULL;
err_free:
	kfree(mq);
	return ret;
}

struct gendisk *ramlld_mq_disk(const struct ramlld_device *dev)
{
	return dev->mq->disk;
}

void ramlld_mq_remove(struct ramlld_device *dev)
{
	ramlld_disk_del(dev->mq->disk);
	ramlld_mq_put_tag_set(dev);
	kfree(dev->mq);
	dev->mq = NULL;
}
