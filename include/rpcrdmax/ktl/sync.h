/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/sync.h - reference counts, atomics, completions and work items
 * over the kernel's, through the shim.
 */
#pragma once

#include "kernel.h"

namespace rpcrdmax::ktl {

class RefCount {
public:
	explicit RefCount(unsigned int n = 1) { rpcrdmax_refcount_set(raw_.get(), n); }
	RefCount(const RefCount &) = delete;
	RefCount &operator=(const RefCount &) = delete;
	void get() { rpcrdmax_refcount_inc(raw_.get()); }
	[[nodiscard]] bool get_unless_zero() { return rpcrdmax_refcount_inc_not_zero(raw_.get()); }
	/* True when this dropped the last reference. */
	[[nodiscard]] bool put() { return rpcrdmax_refcount_dec_and_test(raw_.get()); }
	unsigned int read() const { return rpcrdmax_refcount_read(raw_.get()); }

private:
	Opaque<RPCRDMAX_SIZEOF_REFCOUNT, RPCRDMAX_ALIGNOF_REFCOUNT> raw_;
};

class Atomic {
public:
	explicit Atomic(int v = 0) { rpcrdmax_atomic_set(raw_.get(), v); }
	Atomic(const Atomic &) = delete;
	Atomic &operator=(const Atomic &) = delete;
	int read() const { return rpcrdmax_atomic_read(raw_.get()); }
	void set(int v) { rpcrdmax_atomic_set(raw_.get(), v); }
	int add_return(int v) { return rpcrdmax_atomic_add_return(raw_.get(), v); }
	int cmpxchg(int old, int nv) { return rpcrdmax_atomic_cmpxchg(raw_.get(), old, nv); }

private:
	Opaque<RPCRDMAX_SIZEOF_ATOMIC, RPCRDMAX_ALIGNOF_ATOMIC> raw_;
};

/* A 64-bit counter (byte counts that must not wrap at 2 GiB). */
class Atomic64 {
public:
	explicit Atomic64(long long v = 0) { rpcrdmax_atomic64_set(raw_.get(), v); }
	Atomic64(const Atomic64 &) = delete;
	Atomic64 &operator=(const Atomic64 &) = delete;
	long long read() const { return rpcrdmax_atomic64_read(raw_.get()); }
	long long add_return(long long v) { return rpcrdmax_atomic64_add_return(raw_.get(), v); }

private:
	Opaque<RPCRDMAX_SIZEOF_ATOMIC64, RPCRDMAX_ALIGNOF_ATOMIC64> raw_;
};

class Completion {
public:
	Completion() { rpcrdmax_completion_init(raw_.get()); }
	Completion(const Completion &) = delete;
	Completion &operator=(const Completion &) = delete;
	void complete() { rpcrdmax_complete(raw_.get()); }
	void complete_all() { rpcrdmax_complete_all(raw_.get()); }
	/* Until completed: for what the hardware always ends (a posted
	 * work request completes or flushes). */
	void wait() { rpcrdmax_wait_for_completion(raw_.get()); }
	/* True if completed within @ms milliseconds. */
	[[nodiscard]] bool wait_ms(unsigned int ms)
	{
		return rpcrdmax_wait_for_completion_timeout(raw_.get(), ms) != 0;
	}

private:
	Opaque<RPCRDMAX_SIZEOF_COMPLETION, RPCRDMAX_ALIGNOF_COMPLETION> raw_;
};

/*
 * A wait queue: sleep until a condition holds, woken by whoever changes
 * it (any context).
 */
class WaitQueue {
public:
	WaitQueue() { rpcrdmax_waitq_init(raw_.get()); }
	WaitQueue(const WaitQueue &) = delete;
	WaitQueue &operator=(const WaitQueue &) = delete;
	void wake_all() { rpcrdmax_waitq_wake_all(raw_.get()); }
	/* True once @cond() holds, false after @ms milliseconds. */
	template <typename F> [[nodiscard]] bool wait_ms(F &cond, unsigned int ms)
	{
		return rpcrdmax_waitq_wait(raw_.get(), &WaitQueue::call<F>, &cond, ms);
	}

private:
	template <typename F> static bool call(void *f) { return (*static_cast<F *>(f))(); }
	Opaque<RPCRDMAX_SIZEOF_WAITQ, RPCRDMAX_ALIGNOF_WAITQ> raw_;
};

/* A work item; see FnWork for one that calls back. */
class WorkItem {
public:
	WorkItem(const WorkItem &) = delete;
	WorkItem &operator=(const WorkItem &) = delete;
	bool queue(void *wq = nullptr) { return rpcrdmax_work_queue(wq, raw_.get()); }
	bool cancel_sync() { return rpcrdmax_work_cancel_sync(raw_.get()); }
	bool flush() { return rpcrdmax_work_flush(raw_.get()); }

protected:
	explicit WorkItem(rpcrdmax_work_fn fn) { rpcrdmax_work_init(raw_.get(), fn); }
	static WorkItem *from_raw(void *raw)
	{
		/* raw_ is the first member, so the storage address is ours. */
		return reinterpret_cast<WorkItem *>(raw);
	}

private:
	Opaque<RPCRDMAX_SIZEOF_WORK, RPCRDMAX_ALIGNOF_WORK> raw_;
};

/*
 * A work item that calls @cb with itself; the callback finds its owner
 * with ktl::container_of(work, &Owner::member).
 */
class FnWork : public WorkItem {
public:
	using Callback = void (*)(FnWork *);
	explicit FnWork(Callback cb) : WorkItem(&FnWork::trampoline), cb_(cb) {}

private:
	static void trampoline(void *raw)
	{
		auto *self = static_cast<FnWork *>(from_raw(raw));
		self->cb_(self);
	}
	Callback cb_;
};

} // namespace rpcrdmax::ktl
