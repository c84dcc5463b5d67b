/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/types.h - fixed-width integer types for freestanding C++.
 *
 * rpcrdmax's C++ never includes a hosted or kernel header.  The few
 * definitions it needs are spelled out here from compiler built-ins so
 * the same code compiles in the kernel (-nostdinc) and on the host.
 */
#pragma once

namespace rpcrdmax::ktl {

using u8 = __UINT8_TYPE__;
using u16 = __UINT16_TYPE__;
using u32 = __UINT32_TYPE__;
using u64 = __UINT64_TYPE__;
using s8 = __INT8_TYPE__;
using s16 = __INT16_TYPE__;
using s32 = __INT32_TYPE__;
using s64 = __INT64_TYPE__;
using size_t = __SIZE_TYPE__;
using ssize_t = __PTRDIFF_TYPE__;
using uintptr_t = __UINTPTR_TYPE__;
using nullptr_t = decltype(nullptr);

static_assert(sizeof(u8) == 1 && sizeof(u16) == 2 && sizeof(u32) == 4 &&
	      sizeof(u64) == 8, "fixed-width types");
static_assert(sizeof(size_t) == sizeof(void *), "size_t is pointer-sized");

inline constexpr u32 U32_MAX = 0xffffffffu;
inline constexpr u64 U64_MAX = 0xffffffffffffffffull;
inline constexpr size_t SIZE_MAX = static_cast<size_t>(-1);

} // namespace rpcrdmax::ktl

/*
 * A hot path's stack object that is written before it is read: not
 * zeroed on every call, as Debian's kernels (CONFIG_INIT_STACK_ALL_ZERO)
 * otherwise do for every local variable (the kernel's __uninitialized).
 */
#if __has_attribute(__uninitialized__)
#define RPCRDMAX_NOINIT __attribute__((__uninitialized__))
#else
#define RPCRDMAX_NOINIT
#endif

/*
 * A hot path's entry point (a completion, sunrpc's or nfsd's call into
 * the transport): every C++ function it calls is inlined into it, so
 * that the path runs as one function (no call, prologue, stack
 * protector and return thunk per step).  C shims stay calls.
 */
#define RPCRDMAX_HOT_ENTRY __attribute__((__flatten__))

/*
 * A path the hot entries reach but seldom take (errors, control
 * messages, the backward direction): kept out of line, so that
 * RPCRDMAX_HOT_ENTRY does not copy it into each of them.
 */
#define RPCRDMAX_COLD __attribute__((__noinline__, __cold__))
