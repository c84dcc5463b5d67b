// SPDX-License-Identifier: GPL-2.0
/*
 * lib/runtime.cpp - the C++ language runtime rpcrdmax needs in the kernel.
 *
 * Only what the compiler emits calls to: the GFP-tagged allocating
 * operator new (ktl/alloc.h), the deleting operators that virtual
 * destructors and delete-expressions use, and the pure-virtual trap.
 * There is deliberately no operator new(size_t): an allocation that does
 * not say which GFP context it runs in does not link.
 */
#include "rpcrdmax/ktl/alloc.h"

void *operator new(rpcrdmax::ktl::size_t size, rpcrdmax::ktl::Gfp gfp) noexcept
{
	return rpcrdmax_kmalloc(size, static_cast<unsigned int>(gfp));
}

void *operator new[](rpcrdmax::ktl::size_t size, rpcrdmax::ktl::Gfp gfp) noexcept
{
	return rpcrdmax_kmalloc(size, static_cast<unsigned int>(gfp));
}

void operator delete(void *p) noexcept
{
	rpcrdmax_kfree(p);
}

void operator delete(void *p, rpcrdmax::ktl::size_t) noexcept
{
	rpcrdmax_kfree(p);
}

void operator delete[](void *p) noexcept
{
	rpcrdmax_kfree(p);
}

void operator delete[](void *p, rpcrdmax::ktl::size_t) noexcept
{
	rpcrdmax_kfree(p);
}

extern "C" [[noreturn]] void __cxa_pure_virtual() noexcept;
extern "C" void __cxa_pure_virtual() noexcept
{
	rpcrdmax_bug(__FILE__, __LINE__, "pure virtual function called");
	__builtin_trap();
}
