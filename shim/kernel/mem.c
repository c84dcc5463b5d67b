// SPDX-License-Identifier: GPL-2.0
/*
 * shim/kernel/mem.c - memory, pages and per-CPU counters for the C++ side.
 *
 * C++ allocates only through these (see ktl/alloc.h: every allocation names
 * its GFP flags and may fail).  The GFP values C++ passes come from the
 * generated rpcrdmax_consts.h; the asserts below catch a header generated
 * for another kernel.
 */
#include <linux/build_bug.h>
#include <linux/error-injection.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "rpcrdmax_consts.h"
#include "../internal.h"

static_assert(RPCRDMAX_GFP_KERNEL == (__force unsigned int)GFP_KERNEL);
static_assert(RPCRDMAX_GFP_NOFS == (__force unsigned int)GFP_NOFS);
static_assert(RPCRDMAX_GFP_NOIO == (__force unsigned int)GFP_NOIO);
static_assert(RPCRDMAX_GFP_ATOMIC == (__force unsigned int)GFP_ATOMIC);
static_assert(RPCRDMAX_GFP_NOWAIT == (__force unsigned int)GFP_NOWAIT);
static_assert(RPCRDMAX_GFP_ZERO == (__force unsigned int)__GFP_ZERO);
static_assert(RPCRDMAX_GFP_NOWARN == (__force unsigned int)__GFP_NOWARN);
static_assert(RPCRDMAX_GFP_RETRY_MAYFAIL == (__force unsigned int)__GFP_RETRY_MAYFAIL);
static_assert(RPCRDMAX_PAGE_SIZE == PAGE_SIZE);
static_assert(RPCRDMAX_PAGE_SHIFT == PAGE_SHIFT);

/**
 * rpcrdmax_kmalloc - allocate memory for C++
 * @size: bytes wanted
 * @gfp: allocation flags (an RPCRDMAX_GFP_* combination)
 *
 * Returns the memory, or NULL if it cannot be had under @gfp.
 */
void *rpcrdmax_kmalloc(unsigned long size, unsigned int gfp)
{
	return kmalloc(size, (__force gfp_t)gfp);
}
ALLOW_ERROR_INJECTION(rpcrdmax_kmalloc, NULL);

/**
 * rpcrdmax_kfree - release memory from rpcrdmax_kmalloc()
 * @p: the memory, or NULL
 */
void rpcrdmax_kfree(const void *p)
{
	kfree(p);
}

/**
 * rpcrdmax_alloc_page - allocate one page
 * @gfp: allocation flags
 *
 * Returns an opaque page handle, or NULL.
 */
struct page *rpcrdmax_alloc_page(unsigned int gfp)
{
	return alloc_page((__force gfp_t)gfp);
}

/**
 * rpcrdmax_free_page - release a page from rpcrdmax_alloc_page()
 * @page: the page handle, or NULL
 */
void rpcrdmax_free_page(struct page *page)
{
	if (page)
		__free_page(page);
}

/**
 * rpcrdmax_put_pages - drop a reference on each of @n pages, as one batch
 * @pages: page handles, none of them NULL
 * @n: how many
 *
 * For pages taken from elsewhere (a Reply's, ktl::svc_take_res_pages()), as
 * the stock server releases a Reply's pages: release_pages() frees the
 * last references a batch at a time.
 */
void rpcrdmax_put_pages(struct page **pages, unsigned int n)
{
	if (n)
		release_pages((struct page **)pages, n);
}

/**
 * rpcrdmax_page_address - kernel virtual address of a page
 * @page: a page handle (lowmem: every page on x86_64)
 */
void *rpcrdmax_page_address(struct page *page)
{
	return page_address(page);
}

/**
 * rpcrdmax_totalram_bytes - the machine's RAM as the page allocator manages it
 *
 * Returns totalram_pages() in octets: physical memory less what the
 * firmware and the kernel image reserved (MemTotal in /proc/meminfo).
 */
unsigned long long rpcrdmax_totalram_bytes(void)
{
	return (unsigned long long)totalram_pages() << PAGE_SHIFT;
}

/**
 * rpcrdmax_alloc_percpu_u64 - per-CPU counters for C++
 * @n: 64-bit counters wanted in each CPU's copy
 *
 * Returns the per-CPU array, zeroed, or NULL.  C++ adds to this CPU's
 * copy through rpcrdmax_percpu_add_u64() and reads the sum through
 * rpcrdmax_percpu_sum_u64().
 */
unsigned long long __percpu *rpcrdmax_alloc_percpu_u64(unsigned int n)
{
	return __alloc_percpu(sizeof(unsigned long long) * n, __alignof__(unsigned long long));
}
ALLOW_ERROR_INJECTION(rpcrdmax_alloc_percpu_u64, NULL);

/**
 * rpcrdmax_free_percpu_u64 - free rpcrdmax_alloc_percpu_u64()'s array
 * @p: the array, or NULL
 */
void rpcrdmax_free_percpu_u64(unsigned long long __percpu *p)
{
	free_percpu(p);
}

/**
 * rpcrdmax_percpu_add_u64 - add to this CPU's copy of a per-CPU counter
 * @p: an array from rpcrdmax_alloc_percpu_u64()
 * @i: the counter's index
 * @n: what to add (a gauge going down adds its two's complement)
 *
 * this_cpu_add(), as the kernel builds it for the target: safe against
 * preemption and interrupts without a lock.
 */
void rpcrdmax_percpu_add_u64(unsigned long long __percpu *p, unsigned int i, unsigned long long n)
{
	this_cpu_add(p[i], n);
}

/**
 * rpcrdmax_percpu_add2_u64 - add to two counters of this CPU's copy
 * @p: an array from rpcrdmax_alloc_percpu_u64()
 * @i: the first counter's index
 * @n: what to add to it
 * @j: the second counter's index
 * @m: what to add to that
 *
 * Two rpcrdmax_percpu_add_u64() for the price of one call, for the
 * counters that go up together (a chunk and its octets).
 */
void rpcrdmax_percpu_add2_u64(unsigned long long __percpu *p, unsigned int i, unsigned long long n,
			      unsigned int j, unsigned long long m)
{
	this_cpu_add(p[i], n);
	this_cpu_add(p[j], m);
}

/**
 * rpcrdmax_percpu_sum_u64 - counter @i of per-CPU array @p, summed over the CPUs
 * @p: an array from rpcrdmax_alloc_percpu_u64()
 * @i: the counter's index
 */
unsigned long long rpcrdmax_percpu_sum_u64(const unsigned long long __percpu *p, unsigned int i)
{
	unsigned long long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(p, cpu)[i]);
	return sum;
}
