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
 * @w: RPCRDMAX_SIZEOF_WORK bytes of storage
 * @fn: called in process context with @w when the item runs
 */
void rpcrdmax_work_init(struct rpcrdmax_work *w, rpcrdmax_work_fn fn)
{
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
struct workqueue_struct *rpcrdmax_wq_alloc(const char *name, bool mem_reclaim)
{
	return alloc_workqueue("%s", WQ_UNBOUND | (mem_reclaim ? WQ_MEM_RECLAIM : 0),
			       0, name);
}

/** rpcrdmax_wq_destroy - drain and free @wq (NULL is ignored) */
void rpcrdmax_wq_destroy(struct workqueue_struct *wq)
{
	if (wq)
		destroy_workqueue(wq);
}

/**
 * rpcrdmax_work_queue - queue @w
 * @wq: a workqueue from rpcrdmax_wq_alloc(), or NULL for the system one
 * @w: initialised work storage
 *
 * Returns false if @w was already pending.
 */
bool rpcrdmax_work_queue(struct workqueue_struct *wq, struct rpcrdmax_work *w)
{
	return queue_work(wq ? wq : RPCRDMAX_SYSTEM_WQ, &w->work);
}

/**
 * rpcrdmax_work_cancel_sync - cancel @w and wait for a running callback
 * @w: initialised work storage
 *
 * Returns true if @w was pending.
 */
bool rpcrdmax_work_cancel_sync(struct rpcrdmax_work *w)
{
	return cancel_work_sync(&w->work);
}

/**
 * rpcrdmax_work_flush - wait for @w's last queued run to finish
 * @w: initialised work storage
 *
 * Returns true if it had to wait.
 */
bool rpcrdmax_work_flush(struct rpcrdmax_work *w)
{
	return flush_work(&w->work);
}
