/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/lock.h - kernel locks as C++ objects, and scope guards over them.
 *
 *	ktl::SpinLockGuard guard(&ep->lock);	// unlocked at scope exit
 *
 * The lock objects initialise themselves in their constructor, so they
 * must live in objects made with new or on the stack: global constructors
 * never run in the kernel.
 *
 * A bottom-half lock is taken on every Call and Reply, many times: where
 * the kernel's spin_lock_bh() is itself a call of its out-of-line
 * _raw_spin_lock_bh() (RPCRDMAX_SPIN_BH_DIRECT, generated from its
 * configuration: not PREEMPT_RT, not inlined), C++ makes that call
 * directly instead of through the shim, which would only pass it on.
 */
#pragma once

#include "kernel.h"

/* kernel/locking/spinlock.c; the argument is the spinlock_t's raw lock. */
extern "C" void _raw_spin_lock_bh(void *lock) noexcept;
extern "C" void _raw_spin_unlock_bh(void *lock) noexcept;

namespace rpcrdmax::ktl {

class SpinLock {
public:
	SpinLock() { rpcrdmax_spin_init(raw_.get()); }
	SpinLock(const SpinLock &) = delete;
	SpinLock &operator=(const SpinLock &) = delete;

	void lock() { rpcrdmax_spin_lock(raw_.get()); }
	void unlock() { rpcrdmax_spin_unlock(raw_.get()); }
	void lock_bh()
	{
		if constexpr (RPCRDMAX_SPIN_BH_DIRECT)
			_raw_spin_lock_bh(raw_.get());
		else
			rpcrdmax_spin_lock_bh(raw_.get());
	}
	void unlock_bh()
	{
		if constexpr (RPCRDMAX_SPIN_BH_DIRECT)
			_raw_spin_unlock_bh(raw_.get());
		else
			rpcrdmax_spin_unlock_bh(raw_.get());
	}
	[[nodiscard]] unsigned long lock_irqsave()
	{
		return rpcrdmax_spin_lock_irqsave(raw_.get());
	}
	void unlock_irqrestore(unsigned long flags)
	{
		rpcrdmax_spin_unlock_irqrestore(raw_.get(), flags);
	}
	bool is_locked() { return rpcrdmax_spin_is_locked(raw_.get()); }

private:
	Opaque<spinlock, RPCRDMAX_SIZEOF_SPINLOCK, RPCRDMAX_ALIGNOF_SPINLOCK> raw_;
};

class Mutex {
public:
	Mutex() { rpcrdmax_mutex_init(raw_.get()); }
	~Mutex() { rpcrdmax_mutex_destroy(raw_.get()); }
	Mutex(const Mutex &) = delete;
	Mutex &operator=(const Mutex &) = delete;

	void lock() { rpcrdmax_mutex_lock(raw_.get()); }
	void unlock() { rpcrdmax_mutex_unlock(raw_.get()); }
	bool is_locked() { return rpcrdmax_mutex_is_locked(raw_.get()); }

private:
	Opaque<mutex, RPCRDMAX_SIZEOF_MUTEX, RPCRDMAX_ALIGNOF_MUTEX> raw_;
};

/*
 * Guards.  Declare objects that must be released outside the lock before
 * the guard, so they are destroyed after it unlocks.
 */
template <typename L> class [[nodiscard]] Guard {
public:
	explicit Guard(L *l) : l_(l) { l_->lock(); }
	~Guard()
	{
		if (l_)
			l_->unlock();
	}
	Guard(const Guard &) = delete;
	Guard &operator=(const Guard &) = delete;
	/* Unlock early; the destructor then does nothing. */
	void release()
	{
		l_->unlock();
		l_ = nullptr;
	}

private:
	L *l_;
};

using SpinLockGuard = Guard<SpinLock>;
using MutexGuard = Guard<Mutex>;

class [[nodiscard]] SpinLockIrqGuard {
public:
	explicit SpinLockIrqGuard(SpinLock *l) : l_(l), flags_(l->lock_irqsave()) {}
	~SpinLockIrqGuard() { l_->unlock_irqrestore(flags_); }
	SpinLockIrqGuard(const SpinLockIrqGuard &) = delete;
	SpinLockIrqGuard &operator=(const SpinLockIrqGuard &) = delete;

private:
	SpinLock *l_;
	unsigned long flags_;
};

class [[nodiscard]] SpinLockBhGuard {
public:
	explicit SpinLockBhGuard(SpinLock *l) : l_(l) { l_->lock_bh(); }
	~SpinLockBhGuard() { l_->unlock_bh(); }
	SpinLockBhGuard(const SpinLockBhGuard &) = delete;
	SpinLockBhGuard &operator=(const SpinLockBhGuard &) = delete;

private:
	SpinLock *l_;
};

} // namespace rpcrdmax::ktl
