/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/sync.h - reference counts, completions and work items over the
 * kernel's, through the shim; atomics of C++'s own.
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
	Opaque<refcount_struct, RPCRDMAX_SIZEOF_REFCOUNT, RPCRDMAX_ALIGNOF_REFCOUNT> raw_;
};

/*
 * An atomic integer with the kernel's atomic_t rules, inline: read and set
 * are single loads and stores (READ_ONCE, WRITE_ONCE), add_return and
 * cmpxchg fully ordered (on x86-64 the same locked instructions the
 * kernel's atomic_add_return() and atomic_cmpxchg() are).  Only C++ ever
 * touches one, so it needs no kernel atomic_t and no call.
 */
template <typename T> class BasicAtomic {
public:
	explicit BasicAtomic(T v = 0) : v_(v) {}
	BasicAtomic(const BasicAtomic &) = delete;
	BasicAtomic &operator=(const BasicAtomic &) = delete;
	T read() const { return __atomic_load_n(&v_, __ATOMIC_RELAXED); }
	void set(T v) { __atomic_store_n(&v_, v, __ATOMIC_RELAXED); }
	/* smp_load_acquire() and smp_store_release() (on x86-64 a plain
	 * load and store). */
	T read_acquire() const { return __atomic_load_n(&v_, __ATOMIC_ACQUIRE); }
	void set_release(T v) { __atomic_store_n(&v_, v, __ATOMIC_RELEASE); }
	T add_return(T v) { return __atomic_add_fetch(&v_, v, __ATOMIC_SEQ_CST); }
	/* Sets @v, fully ordered (xchg()); returns the value found. */
	T exchange(T v) { return __atomic_exchange_n(&v_, v, __ATOMIC_SEQ_CST); }
	/* Sets @nv if the value is @old; returns the value found. */
	T cmpxchg(T old, T nv)
	{
		__atomic_compare_exchange_n(&v_, &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		return old;
	}

private:
	T v_;
};
using Atomic = BasicAtomic<int>;
/* A 64-bit counter (byte counts that must not wrap at 2 GiB). */
using Atomic64 = BasicAtomic<long long>;

/* smp_mb(): a store before it is seen before a load after it. */
inline void full_barrier() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

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
	Opaque<completion, RPCRDMAX_SIZEOF_COMPLETION, RPCRDMAX_ALIGNOF_COMPLETION> raw_;
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
	/* A call only when someone sleeps: wq_has_sleeper()'s full barrier,
	 * then whether the list of waiters is empty (its first entry is the
	 * list head itself), read in place. */
	void wake_all()
	{
		full_barrier();
		auto *wq = reinterpret_cast<unsigned char *>(raw_.get());
		auto *head = wq + RPCRDMAX_OFF_WAITQ_HEAD_NEXT;
		static_assert(RPCRDMAX_FSIZE_WAITQ_HEAD_NEXT == sizeof(void *));
		if (__atomic_load_n(reinterpret_cast<void **>(head), __ATOMIC_RELAXED) != head)
			rpcrdmax_waitq_wake_all(raw_.get());
	}
	/* True once @cond() holds, false after @ms milliseconds. */
	template <typename F> [[nodiscard]] bool wait_ms(F &cond, unsigned int ms)
	{
		return rpcrdmax_waitq_wait(raw_.get(), &WaitQueue::call<F>, &cond, ms);
	}

private:
	template <typename F> static bool call(void *f) { return (*static_cast<F *>(f))(); }
	Opaque<wait_queue_head, RPCRDMAX_SIZEOF_WAITQ, RPCRDMAX_ALIGNOF_WAITQ> raw_;
};

/* A work item; see FnWork for one that calls back. */
class WorkItem {
public:
	WorkItem(const WorkItem &) = delete;
	WorkItem &operator=(const WorkItem &) = delete;
	bool queue(workqueue_struct *wq = nullptr) { return rpcrdmax_work_queue(wq, raw_.get()); }
	bool cancel_sync() { return rpcrdmax_work_cancel_sync(raw_.get()); }
	bool flush() { return rpcrdmax_work_flush(raw_.get()); }

protected:
	explicit WorkItem(rpcrdmax_work_fn fn) { rpcrdmax_work_init(raw_.get(), fn); }
	static WorkItem *from_raw(rpcrdmax_work *raw)
	{
		/* raw_ is the first member, so the storage address is ours. */
		return reinterpret_cast<WorkItem *>(raw);
	}

private:
	Opaque<rpcrdmax_work, RPCRDMAX_SIZEOF_WORK, RPCRDMAX_ALIGNOF_WORK> raw_;
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
	static void trampoline(rpcrdmax_work *raw)
	{
		auto *self = static_cast<FnWork *>(from_raw(raw));
		self->cb_(self);
	}
	Callback cb_;
};

} // namespace rpcrdmax::ktl
