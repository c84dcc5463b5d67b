/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma/sq.h - the Send Queue: its slots (how many work requests a
 * connection may still post), and the Sends posted until retired
 * (PostedSends, below).
 *
 * Each posted work request holds a slot until the signaled request that
 * ends its chain completes.  reserve() takes the slots a chain needs and
 * sleeps while too few are free; release() returns them from the
 * completion handler (any context) and wakes sleepers; shut() fails
 * every current and later reserve(), for a connection that is lost.
 */
#pragma once

#include "../ktl/list.h"
#include "../ktl/result.h"
#include "../ktl/sync.h"

namespace rpcrdmax::rdma {

class SqSlots {
public:
	SqSlots() = default;
	SqSlots(const SqSlots &) = delete;
	SqSlots &operator=(const SqSlots &) = delete;

	/* Before any reserve(): @depth slots in all. */
	void init(ktl::u32 depth)
	{
		depth_ = depth;
		avail_.set((int)depth);
	}
	ktl::u32 depth() const { return depth_; }
	int available() { return avail_.read(); }

	/*
	 * Take @n slots, sleeping while fewer are free.  -ENOTCONN once
	 * shut(), -EMSGSIZE when @n exceeds the whole queue.  @on_wait(false)
	 * runs each time too few are free, before sleeping; @on_wait(true)
	 * after waking, before trying again (stock's svcrdma_sq_full and
	 * svcrdma_sq_retry).
	 */
	template <typename OnWait>
	ktl::Result<void> reserve(ktl::u32 n, OnWait on_wait)
	{
		if (n > depth_)
			return ktl::error(ktl::err::EMSGSIZE);
		for (;;) {
			if (shut_.read())
				return ktl::error(ktl::err::ENOTCONN);
			if (avail_.add_return(-(int)n) >= 0)
				return {};
			/* Give them back: others may fit what we could not. */
			avail_.add_return((int)n);
			wait_.wake_all();
			on_wait(false);
			auto room = [&] { return shut_.read() != 0 || avail_.read() >= (int)n; };
			(void)wait_.wait_ms(room, 10000);
			if (shut_.read())
				return ktl::error(ktl::err::ENOTCONN);
			on_wait(true);
		}
	}

	/* reserve(), *@waited telling whether it had to sleep. */
	ktl::Result<void> reserve(ktl::u32 n, bool *waited)
	{
		*waited = false;
		return reserve(n, [waited](bool) { *waited = true; });
	}

	void release(ktl::u32 n)
	{
		avail_.add_return((int)n);
		wait_.wake_all();
	}

	void shut()
	{
		shut_.set(1);
		wait_.wake_all();
	}

private:
	ktl::Atomic avail_;
	ktl::Atomic shut_;
	ktl::u32 depth_ = 0;
	ktl::WaitQueue wait_;
};

/*
 * Sends posted and not yet retired, in Send Queue order.  Only some Sends
 * are signaled, and a Send Queue completes in order: a signaled Send's
 * completion retires it and every Send posted before it.  The client's
 * Send buffers and the server's send contexts both go this way; each
 * guards its list with its own lock.
 */
template <typename T, ktl::ListNode T::*Node> class PostedSends {
public:
	void posted(T *t) { list_.push_back(t); }
	/* @t, whose post failed, taken back. */
	void unpost(T *t) { ktl::List<T, Node>::remove(t); }
	/* @each(t) for @done and every Send posted before it, oldest first;
	 * they leave the list. */
	template <typename F> void retire(T *done, F each)
	{
		while (T *t = list_.pop_front()) {
			each(t);
			if (t == done)
				return;
		}
	}
	/* At teardown: one never retired (unsignaled), or null. */
	T *pop() { return list_.pop_front(); }

private:
	ktl::List<T, Node> list_;
};

} // namespace rpcrdmax::rdma
