/* SPDX-License-Identifier: GPL-2.0 */
/*
 * poll.h - poll queues, shared by the mq and SCSI front ends
 * (docs/design.md, "Polled I/O and batching").
 *
 * A request of a poll queue (HCTX_TYPE_POLL) finishes in queue_rq or
 * queuecommand but is not completed there: it waits on its queue's poll
 * list until the submitter's ->poll takes the list and completes it. The
 * lock is per queue, never global: a poll queue serves the CPUs mapped to
 * it and is polled by their submitters.
 */
#ifndef RAMLLD_POLL_H
#define RAMLLD_POLL_H

#include <linux/blk-mq.h>
#include <linux/list.h>
#include <linux/spinlock.h>

#include "compat.h"

/*
 * Where a command of a poll queue is: on the list, or taken by ->poll,
 * which completes it without the lock. A timeout handler tells the two
 * apart under the lock (ramlld_poll_cancel()).
 */
enum ramlld_poll_state {
	RAMLLD_POLL_NONE = 0,	/* not on a poll queue, or dropped (timeout_nth) */
	RAMLLD_POLL_LISTED,
	RAMLLD_POLL_TAKEN,
};

struct ramlld_poll_list {
	spinlock_t lock;	/* guards list and its entries' state */
	struct list_head list;
} ____cacheline_aligned_in_smp;

/* In each command's private data. */
struct ramlld_poll_entry {
	struct list_head node;
	u8 state;		/* enum ramlld_poll_state */
};

static inline void ramlld_poll_list_init(struct ramlld_poll_list *pl)
{
	spin_lock_init(&pl->lock);
	INIT_LIST_HEAD(&pl->list);
}

static inline void ramlld_poll_entry_init(struct ramlld_poll_entry *e)
{
	INIT_LIST_HEAD(&e->node);
	e->state = RAMLLD_POLL_NONE;
}

/* Leave a finished command for ->poll. */
static inline void ramlld_poll_add(struct ramlld_poll_list *pl,
				   struct ramlld_poll_entry *e)
{
	spin_lock(&pl->lock);
	e->state = RAMLLD_POLL_LISTED;
	list_add_tail(&e->node, &pl->list);
	spin_unlock(&pl->lock);
}

/*
 * ->poll: move everything listed to done, each marked taken; false (and no
 * lock taken: a poller spins here) when there is nothing.
 */
static inline bool ramlld_poll_take(struct ramlld_poll_list *pl,
				    struct list_head *done)
{
	struct ramlld_poll_entry *e;

	if (list_empty(&pl->list))
		return false;
	spin_lock(&pl->lock);
	list_splice_init(&pl->list, done);
	list_for_each_entry(e, done, node)
		e->state = RAMLLD_POLL_TAKEN;
	spin_unlock(&pl->lock);
	return true;
}

/*
 * A timeout handler: take a command that is still listed off its list (it
 * is the handler's to end then) and say where it was. A taken one is about
 * to complete in ->poll.
 */
static inline enum ramlld_poll_state
ramlld_poll_cancel(struct ramlld_poll_list *pl, struct ramlld_poll_entry *e)
{
	enum ramlld_poll_state state;

	spin_lock(&pl->lock);
	state = e->state;
	if (state == RAMLLD_POLL_LISTED) {
		list_del_init(&e->node);
		e->state = RAMLLD_POLL_NONE;
	}
	spin_unlock(&pl->lock);
	return state;
}

/*
 * The queue maps of a tag set with nr_poll poll queues after its
 * submission queues: HCTX_TYPE_DEFAULT first, then HCTX_TYPE_POLL, each
 * over every CPU; no queue for reads alone (they use the default map).
 * A ->map_queues returns what this returns (void from 6.0, 0 before).
 */
static inline RAMLLD_MAP_QUEUES_T
ramlld_map_poll_queues(struct blk_mq_tag_set *set, unsigned int nr_poll)
{
	unsigned int i, offset = 0;

	for (i = 0; i < set->nr_maps; i++) {
		struct blk_mq_queue_map *map = &set->map[i];

		switch (i) {
		case HCTX_TYPE_DEFAULT:
			map->nr_queues = set->nr_hw_queues - nr_poll;
			break;
		case HCTX_TYPE_POLL:
			map->nr_queues = nr_poll;
			break;
		default:
			map->nr_queues = 0;
			continue;
		}
		map->queue_offset = offset;
		offset += map->nr_queues;
		blk_mq_map_queues(map);
	}
#if !RAMLLD_HAVE_MAP_QUEUES_VOID
	return 0;
#endif
}

#endif /* RAMLLD_POLL_H */
