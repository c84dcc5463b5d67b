// SPDX-License-Identifier: GPL-2.0
/*
 * shim/kernel/sync.c - locks, reference counts and completions.
 *
 * C++ embeds these objects as opaque storage (ktl/lock.h, ktl/sync.h)
 * sized by rpcrdmax_consts.h; each function here casts the storage back
 * to the kernel type.  The asserts check that the generated sizes are
 * the kernel's.
 *
 * Every lock initialised here shares one lockdep class per kind.
 */
#include <linux/build_bug.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include "rpcrdmax_consts.h"
#include "../internal.h"

#define RPCRDMAX_CHECK_OPAQUE(name, type)                           \
	static_assert(RPCRDMAX_SIZEOF_##name == sizeof(type));      \
	static_assert(RPCRDMAX_ALIGNOF_##name == __alignof__(type))

RPCRDMAX_CHECK_OPAQUE(SPINLOCK, spinlock_t);
RPCRDMAX_CHECK_OPAQUE(MUTEX, struct mutex);
RPCRDMAX_CHECK_OPAQUE(REFCOUNT, refcount_t);
RPCRDMAX_CHECK_OPAQUE(COMPLETION, struct completion);
RPCRDMAX_CHECK_OPAQUE(WAITQ, wait_queue_head_t);

/** rpcrdmax_spin_init - initialise spinlock storage @lock */
void rpcrdmax_spin_init(void *lock)
{
	spin_lock_init((spinlock_t *)lock);
}

/** rpcrdmax_spin_lock - take @lock (process or softirq context, no irq users) */
void rpcrdmax_spin_lock(void *lock)
{
	spin_lock((spinlock_t *)lock);
}

/** rpcrdmax_spin_unlock - release @lock taken by rpcrdmax_spin_lock() */
void rpcrdmax_spin_unlock(void *lock)
{
	spin_unlock((spinlock_t *)lock);
}

/** rpcrdmax_spin_lock_bh - take @lock with bottom halves disabled */
void rpcrdmax_spin_lock_bh(void *lock)
{
	spin_lock_bh((spinlock_t *)lock);
}

/** rpcrdmax_spin_unlock_bh - release @lock taken by rpcrdmax_spin_lock_bh() */
void rpcrdmax_spin_unlock_bh(void *lock)
{
	spin_unlock_bh((spinlock_t *)lock);
}

/**
 * rpcrdmax_spin_lock_irqsave - take @lock with local interrupts disabled
 * @lock: spinlock storage
 *
 * Returns the flags to hand to rpcrdmax_spin_unlock_irqrestore().
 */
unsigned long rpcrdmax_spin_lock_irqsave(void *lock)
{
	unsigned long flags;

	spin_lock_irqsave((spinlock_t *)lock, flags);
	return flags;
}

/**
 * rpcrdmax_spin_unlock_irqrestore - release @lock and restore interrupts
 * @lock: spinlock storage
 * @flags: what rpcrdmax_spin_lock_irqsave() returned
 */
void rpcrdmax_spin_unlock_irqrestore(void *lock, unsigned long flags)
{
	spin_unlock_irqrestore((spinlock_t *)lock, flags);
}

/** rpcrdmax_spin_is_locked - whether anyone holds @lock (for assertions) */
bool rpcrdmax_spin_is_locked(void *lock)
{
	return spin_is_locked((spinlock_t *)lock);
}

/** rpcrdmax_mutex_init - initialise mutex storage @mutex */
void rpcrdmax_mutex_init(void *mutex)
{
	mutex_init((struct mutex *)mutex);
}

/** rpcrdmax_mutex_destroy - retire an unlocked @mutex */
void rpcrdmax_mutex_destroy(void *mutex)
{
	mutex_destroy((struct mutex *)mutex);
}

/** rpcrdmax_mutex_lock - take @mutex; may sleep */
void rpcrdmax_mutex_lock(void *mutex)
{
	mutex_lock((struct mutex *)mutex);
}

/** rpcrdmax_mutex_unlock - release @mutex */
void rpcrdmax_mutex_unlock(void *mutex)
{
	mutex_unlock((struct mutex *)mutex);
}

/** rpcrdmax_mutex_is_locked - whether anyone holds @mutex (for assertions) */
bool rpcrdmax_mutex_is_locked(void *mutex)
{
	return mutex_is_locked((struct mutex *)mutex);
}

/** rpcrdmax_refcount_set - set refcount storage @ref to @n */
void rpcrdmax_refcount_set(void *ref, unsigned int n)
{
	refcount_set((refcount_t *)ref, n);
}

/** rpcrdmax_refcount_read - current value of @ref */
unsigned int rpcrdmax_refcount_read(const void *ref)
{
	return refcount_read((const refcount_t *)ref);
}

/** rpcrdmax_refcount_inc - take a reference; saturates (and warns) on overflow */
void rpcrdmax_refcount_inc(void *ref)
{
	refcount_inc((refcount_t *)ref);
}

/** rpcrdmax_refcount_inc_not_zero - take a reference unless @ref is zero */
bool rpcrdmax_refcount_inc_not_zero(void *ref)
{
	return refcount_inc_not_zero((refcount_t *)ref);
}

/** rpcrdmax_refcount_dec_and_test - drop a reference; true if it was the last */
bool rpcrdmax_refcount_dec_and_test(void *ref)
{
	return refcount_dec_and_test((refcount_t *)ref);
}

/** rpcrdmax_completion_init - initialise completion storage @c */
void rpcrdmax_completion_init(void *c)
{
	init_completion((struct completion *)c);
}

/** rpcrdmax_complete - wake one waiter of @c */
void rpcrdmax_complete(void *c)
{
	complete((struct completion *)c);
}

/** rpcrdmax_complete_all - wake every waiter of @c, now and later */
void rpcrdmax_complete_all(void *c)
{
	complete_all((struct completion *)c);
}

/**
 * rpcrdmax_wait_for_completion - sleep, uninterruptibly and with no time
 * limit, until @c completes (the hung-task detector sees a wait that
 * never ends)
 * @c: completion storage
 */
void rpcrdmax_wait_for_completion(void *c)
{
	wait_for_completion((struct completion *)c);
}

/**
 * rpcrdmax_wait_for_completion_timeout - sleep until @c completes
 * @c: completion storage
 * @ms: longest wait in milliseconds
 *
 * Returns the milliseconds that were left (at least 1), or 0 on timeout.
 */
unsigned long rpcrdmax_wait_for_completion_timeout(void *c, unsigned int ms)
{
	unsigned long left;

	left = wait_for_completion_timeout((struct completion *)c,
					   msecs_to_jiffies(ms));
	return left ? max(jiffies_to_msecs(left), 1U) : 0;
}

/** rpcrdmax_waitq_init - initialise wait queue storage @wq */
void rpcrdmax_waitq_init(void *wq)
{
	init_waitqueue_head((wait_queue_head_t *)wq);
}

/**
 * rpcrdmax_waitq_wake_all - wake every sleeper on @wq (any context)
 * @wq: wait queue storage
 *
 * Cheap when nobody sleeps; the caller changed the condition before
 * (wq_has_sleeper() orders that against a sleeper's re-check).
 */
void rpcrdmax_waitq_wake_all(void *wq)
{
	if (wq_has_sleeper((wait_queue_head_t *)wq))
		wake_up_all((wait_queue_head_t *)wq);
}

/**
 * rpcrdmax_waitq_wait - sleep on @wq until @cond(@arg) holds
 * @wq: wait queue storage
 * @cond: re-evaluated after each wake-up; must not sleep
 * @arg: passed to @cond
 * @ms: longest wait in milliseconds
 *
 * Returns true if @cond held, false on timeout.
 */
bool rpcrdmax_waitq_wait(void *wq, bool (*cond)(void *arg), void *arg, unsigned int ms)
{
	return wait_event_timeout(*(wait_queue_head_t *)wq, cond(arg),
				  msecs_to_jiffies(ms)) != 0;
}
