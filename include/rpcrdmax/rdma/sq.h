/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma/sq.h - Send Queue slots: how many work requests a connection may
 * still post.
 *
 * Each posted work request holds a slot until the signaled request that
 * ends its chain completes.  reserve() takes the slots a chain needs and
 * sleeps while too few are free; release() returns them from the
 * completion handler (any context) and wakes sleepers; shut() fails
 * every current and later reserve(), for a connection that is lost.
 */
#pragma once

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
	 * Take @n slots, sleeping while fewer are free.  *@waited tells
	 * whether it had to sleep.  -ENOTCONN once shut(), -EMSGSIZE when
	 * @n exceeds the whole queue.
	 */
	ktl::Result<void> reserve(ktl::u32 n, bool *waited)
	{
		*waited = false;
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
			*waited = true;
			auto room = [&] { return shut_.read() != 0 || avail_.read() >= (int)n; };
			(void)wait_.wait_ms(room, 10000);
		}
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

} // namespace rpcrdmax::rdma
