// SPDX-License-Identifier: GPL-2.0
/*
 * shim/kernel/work.c - workqueues for C++.
 *
 * C++ embeds a struct rpcrdmax_work (opaque to it) and receives a pointer
 * to that storage in its callback, from which it finds its own object.
 */
#include <linux/build_bug.h>
#include <linux/workqueue.h>
#include "rpcrdmax_consts.h"
#include "../internal.h"

static_assert(RPCRDMAX_SIZEOF_WORK == sizeof(struct rpcrdmax_work));
static_assert(RPCRDMAX_ALIGNOF_WORK == __alignof__(struct rpcrdmax_work));

static void rpcrdmax_work_trampoline(struct work_struct *work)
{
	struct rpcrdmax_work *w = container_of(work, struct rpcrdmax_work, work);

	w->fn(w);
}

/**
 * rpcrdmax_work_init - prepare work storage
 * @work: RPCRDMAX_SIZEOF_WORK bytes of storage
 * @fn: called in process context with @work when the item runs
 */
void rpcrdmax_work_init(void *work, rpcrdmax_work_fn fn)
{
	struct rpcrdmax_work *w = work;

	INIT_WORK(&w->work, rpcrdmax_work_trampoline);
	w->fn = fn;
}

/**
 * rpcrdmax_wq_alloc - create a workqueue
 * @name: its name (shown in ps as kworker threads' queue)
 * @mem_reclaim: true if it must make progress under memory pressure
 *
 * Returns the workqueue, or NULL.
 */
void *rpcrdmax_wq_alloc(const char *name, bool mem_reclaim)
{
	return alloc_workqueue("%s", WQ_UNBOUND | (mem_reclaim ? WQ_MEM_RECLAIM : 0),
			       0, name);
}

/** rpcrdmax_wq_destroy - drain and free @wq (NULL is ignored) */
void rpcrdmax_wq_destroy(void *wq)
{
	if (wq)
		destroy_workqueue(wq);
}

/**
 * rpcrdmax_work_queue - queue @work
 * @wq: a workqueue from rpcrdmax_wq_alloc(), or NULL for the system one
 * @work: initialised work storage
 *
 * Returns false if @work was already pending.
 */
bool rpcrdmax_work_queue(void *wq, void *work)
{
	struct rpcrdmax_work *w = work;

	return queue_work(wq ? wq : RPCRDMAX_SYSTEM_WQ, &w->work);
}

/**
 * rpcrdmax_work_cancel_sync - cancel @work and wait for a running callback
 * @work: initialised work storage
 *
 * Returns true if @work was pending.
 */
bool rpcrdmax_work_cancel_sync(void *work)
{
	struct rpcrdmax_work *w = work;

	return cancel_work_sync(&w->work);
}

/**
 * rpcrdmax_work_flush - wait for @work's last queued run to finish
 * @work: initialised work storage
 *
 * Returns true if it had to wait.
 */
bool rpcrdmax_work_flush(void *work)
{
	struct rpcrdmax_work *w = work;

	return flush_work(&w->work);
}
