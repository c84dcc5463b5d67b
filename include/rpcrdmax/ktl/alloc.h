/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/alloc.h - allocation that names its context and may fail.
 *
 *	Foo *foo = new (ktl::Gfp::Kernel) Foo(args);
 *	if (!foo)
 *		return ktl::error(ktl::err::ENOMEM);
 *
 * The allocating operator new is noexcept, so a failed allocation yields
 * nullptr and the constructor does not run.  The plain `new T` is never
 * defined: using it fails at module link time.
 */
#pragma once

#include "kernel.h"
#include "placement.h"
#include "utility.h"

namespace rpcrdmax::ktl {

enum class Gfp : unsigned int {
	Kernel = RPCRDMAX_GFP_KERNEL,
	NoFs = RPCRDMAX_GFP_NOFS,
	NoIo = RPCRDMAX_GFP_NOIO,
	Atomic = RPCRDMAX_GFP_ATOMIC,
	NoWait = RPCRDMAX_GFP_NOWAIT,
};

/*
 * Extra modifiers: Gfp::Kernel | GfpZero.  GfpRetryMayFail: try hard, but
 * fail rather than invoke the OOM killer (for large allocations a peer's
 * request or a tunable sizes); usually with GfpNoWarn.
 */
inline constexpr unsigned int GfpZero = RPCRDMAX_GFP_ZERO;
inline constexpr unsigned int GfpNoWarn = RPCRDMAX_GFP_NOWARN;
inline constexpr unsigned int GfpRetryMayFail = RPCRDMAX_GFP_RETRY_MAYFAIL;

constexpr Gfp operator|(Gfp g, unsigned int mod)
{
	return static_cast<Gfp>(static_cast<unsigned int>(g) | mod);
}

} // namespace rpcrdmax::ktl

[[nodiscard]] void *operator new(rpcrdmax::ktl::size_t size, rpcrdmax::ktl::Gfp gfp) noexcept;
[[nodiscard]] void *operator new[](rpcrdmax::ktl::size_t size, rpcrdmax::ktl::Gfp gfp) noexcept;

namespace rpcrdmax::ktl {

/*
 * Scratch room for up to N objects of T held in place, and for more
 * from the heap when a use needs it, kept for the next use: an object
 * that usually needs a few pays no allocation for them, one that once
 * needed many keeps their room.  T is trivially constructible (the room
 * is scratch: written before it is read).
 *
 *	T *p = s.room(need, most);	// room for at least @need, or nullptr
 */
template <typename T, u32 N> class Scratch {
public:
	Scratch() = default;
	Scratch(const Scratch &) = delete;
	Scratch &operator=(const Scratch &) = delete;
	~Scratch() { delete[] heap_; }

	/*
	 * Room for at least @need objects, or nullptr (no memory: nothing
	 * changed).  When the room held is smaller, @most are allocated
	 * (at least @need), so that a use up to @most grows it once.
	 */
	T *room(u32 need, u32 most)
	{
		if (need <= cap_)
			return data();
		const u32 n = need > most ? need : most;
		T *p = new (Gfp::Kernel) T[n];
		if (!p)
			return nullptr;
		delete[] heap_;
		heap_ = p;
		cap_ = n;
		grew_++;
		return p;
	}
	T *data() { return heap_ ? heap_ : in_place_; }
	u32 capacity() const { return cap_; }
	/* Heap allocations made since the last call. */
	u32 take_grown() { return exchange(grew_, 0u); }

private:
	T in_place_[N];
	T *heap_ = nullptr;
	u32 cap_ = N;
	u32 grew_ = 0;
};

} // namespace rpcrdmax::ktl
