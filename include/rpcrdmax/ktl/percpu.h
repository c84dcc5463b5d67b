/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/percpu.h - adding to this CPU's copy of a per-CPU counter, no call.
 *
 * A per-CPU pointer (alloc_percpu) is an address relative to each CPU's
 * per-CPU area, which x86-64 keeps in the %gs base: one %gs-relative add
 * reaches this CPU's copy, and being one instruction it needs no
 * preemption or interrupt guard.  This is what the kernel's this_cpu_add()
 * compiles to there.
 */
#pragma once

#include "kernel.h"

#if !defined(__x86_64__)
#error "ktl/percpu.h: rpcrdmax's per-CPU adds are written for x86-64"
#endif

namespace rpcrdmax::ktl {

/// Add @n to this CPU's copy of the per-CPU 64-bit counter at @p.
inline void this_cpu_add(unsigned long long *p, unsigned long long n)
{
	asm volatile("addq %1, %%gs:%0" : "+m"(*p) : "er"(n));
}

} // namespace rpcrdmax::ktl
