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
void rpcrdmax_spin_init(struct spinlock *lock)
{
	spin_lock_init(lock);
}

/** rpcrdmax_spin_lock - take @lock (process or softirq context, no irq users) */
void rpcrdmax_spin_lock(struct spinlock *lock)
{
	spin_lock(lock);
}

/** rpcrdmax_spin_unlock - release @lock taken by rpcrdmax_spin_lock() */
void rpcrdmax_spin_unlock(struct spinlock *lock)
{
	spin_unlock(lock);
}

/** rpcrdmax_spin_lock_bh - take @lock with bottom halves disabled */
void rpcrdmax_spin_lock_bh(struct spinlock *lock)
{
	spin_lock_bh(lock);
}

/** rpcrdmax_spin_unlock_bh - release @lock taken by rpcrdmax_spin_lock_bh() */
void rpcrdmax_spin_unlock_bh(struct spinlock *lock)
{
	spin_unlock_bh(lock);
}

/**
 * rpcrdmax_spin_lock_irqsave - take @lock with local interrupts disabled
 * @lock: spinlock storage
 *
 * Returns the flags to hand to rpcrdmax_spin_unlock_irqrestore().
 */
unsigned long rpcrdmax_spin_lock_irqsave(struct spinlock *lock)
{
	unsigned long flags;

	spin_lock_irqsave(lock, flags);
	return flags;
}

/**
 * rpcrdmax_spin_unlock_irqrestore - release @lock and restore interrupts
 * @lock: spinlock storage
 * @flags: what rpcrdmax_spin_lock_irqsave() returned
 */
void rpcrdmax_spin_unlock_irqrestore(struct spinlock *lock, unsigned long flags)
{
	spin_unlock_irqrestore(lock, flags);
}

/** rpcrdmax_spin_is_locked - whether anyone holds @lock (for assertions) */
bool rpcrdmax_spin_is_locked(struct spinlock *lock)
{
	return spin_is_locked(lock);
}

/** rpcrdmax_mutex_init - initialise mutex storage @mutex */
void rpcrdmax_mutex_init(struct mutex *mutex)
{
	mutex_init(mutex);
}

/** rpcrdmax_mutex_destroy - retire an unlocked @mutex */
void rpcrdmax_mutex_destroy(struct mutex *mutex)
{
	mutex_destroy(mutex);
}

/** rpcrdmax_mutex_lock - take @mutex; may sleep */
void rpcrdmax_mutex_lock(struct mutex *mutex)
{
	mutex_lock(mutex);
}

/** rpcrdmax_mutex_unlock - release @mutex */
void rpcrdmax_mutex_unlock(struct mutex *mutex)
{
	mutex_unlock(mutex);
}

/** rpcrdmax_mutex_is_locked - whether anyone holds @mutex (for assertions) */
bool rpcrdmax_mutex_is_locked(struct mutex *mutex)
{
	return mutex_is_locked(mutex);
}

/** rpcrdmax_refcount_set - set refcount storage @ref to @n */
void rpcrdmax_refcount_set(struct refcount_struct *ref, unsigned int n)
{
	refcount_set(ref, n);
}

/** rpcrdmax_refcount_read - current value of @ref */
unsigned int rpcrdmax_refcount_read(const struct refcount_struct *ref)
{
	return refcount_read(ref);
}

/** rpcrdmax_refcount_inc - take a reference; saturates (and warns) on overflow */
void rpcrdmax_refcount_inc(struct refcount_struct *ref)
{
	refcount_inc(ref);
}

/** rpcrdmax_refcount_inc_not_zero - take a reference unless @ref is zero */
bool rpcrdmax_refcount_inc_not_zero(struct refcount_struct *ref)
{
	return refcount_inc_not_zero(ref);
}

/** rpcrdmax_refcount_dec_and_test - drop a reference; true if it was the last */
bool rpcrdmax_refcount_dec_and_test(struct refcount_struct *ref)
{
	return refcount_dec_and_test(ref);
}

/** rpcrdmax_completion_init - initialise completion storage @c */
void rpcrdmax_completion_init(struct completion *c)
{
	init_completion(c);
}

/** rpcrdmax_complete - wake one waiter of @c */
void rpcrdmax_complete(struct completion *c)
{
	complete(c);
}

/** rpcrdmax_complete_all - wake every waiter of @c, now and later */
void rpcrdmax_complete_all(struct completion *c)
{
	complete_all(c);
}

/**
 * rpcrdmax_wait_for_completion - sleep, uninterruptibly and with no time
 * limit, until @c completes (the hung-task detector sees a wait that
 * never ends)
 * @c: completion storage
 */
void rpcrdmax_wait_for_completion(struct completion *c)
{
	wait_for_completion(c);
}

/**
 * rpcrdmax_wait_for_completion_timeout - sleep until @c completes
 * @c: completion storage
 * @ms: longest wait in milliseconds
 *
 * Returns the milliseconds that were left (at least 1), or 0 on timeout.
 */
unsigned long rpcrdmax_wait_for_completion_timeout(struct completion *c, unsigned int ms)
{
	unsigned long left;

	left = wait_for_completion_timeout(c,
					   msecs_to_jiffies(ms));
	return left ? max(jiffies_to_msecs(left), 1U) : 0;
}

/** rpcrdmax_waitq_init - initialise wait queue storage @wq */
void rpcrdmax_waitq_init(struct wait_queue_head *wq)
{
	init_waitqueue_head(wq);
}

/**
 * rpcrdmax_waitq_wake_all - wake every sleeper on @wq (any context)
 * @wq: wait queue storage
 *
 * Cheap when nobody sleeps; the caller changed the condition before
 * (wq_has_sleeper() orders that against a sleeper's re-check).
 */
void rpcrdmax_waitq_wake_all(struct wait_queue_head *wq)
{
	if (wq_has_sleeper(wq))
		wake_up_all(wq);
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
bool rpcrdmax_waitq_wait(struct wait_queue_head *wq, bool (*cond)(void *arg), void *arg,
			 unsigned int ms)
{
	return wait_event_timeout(*wq, cond(arg),
				  msecs_to_jiffies(ms)) != 0;
}
