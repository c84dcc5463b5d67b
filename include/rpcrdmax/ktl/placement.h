/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/placement.h - placement new.
 *
 * In the kernel (and in the -nostdinc host check) there is no <new>, so the
 * non-allocating placement form is declared here.  A hosted build (the
 * GoogleTest binaries) takes the standard one instead, since a program may
 * not define it twice.
 */
#pragma once

#include "types.h"

#if __has_include(<new>) && !defined(__KERNEL__)
#include <new>
#else
[[nodiscard]] inline void *operator new(rpcrdmax::ktl::size_t, void *p) noexcept
{
	return p;
}
[[nodiscard]] inline void *operator new[](rpcrdmax::ktl::size_t, void *p) noexcept
{
	return p;
}
inline void operator delete(void *, void *) noexcept {}
inline void operator delete[](void *, void *) noexcept {}
#endif
