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
