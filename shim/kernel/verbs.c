// SPDX-License-Identifier: GPL-2.0
/*
 * shim/kernel/verbs.c - ib_core verbs for C++: device limits, PDs, CQs, work
 * requests, DMA mapping and fast-registration memory regions.
 *
 * Work requests arrive as the kernel's ib_send_wr family, which C++ built
 * in place; completions go back through struct rpcrdmax_cqe as the CQ's
 * struct ib_wc, which C++ reads in place (RPCRDMAX_KERNEL_FIELDS).
 */
#include <linux/dma-direction.h>
#include <linux/error-injection.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include "rpcrdmax_consts.h"
#include "../internal.h"

static_assert(RPCRDMAX_SIZEOF_CQE == sizeof(struct rpcrdmax_cqe));
static_assert(RPCRDMAX_SIZEOF_SCATTERLIST == sizeof(struct scatterlist));
static_assert(RPCRDMAX_DMA_TO_DEVICE == DMA_TO_DEVICE &&
	      RPCRDMAX_DMA_FROM_DEVICE == DMA_FROM_DEVICE &&
	      RPCRDMAX_DMA_BIDIRECTIONAL == DMA_BIDIRECTIONAL);
static_assert(RPCRDMAX_IB_WC_SUCCESS == IB_WC_SUCCESS &&
	      RPCRDMAX_IB_WC_WR_FLUSH_ERR == IB_WC_WR_FLUSH_ERR);

/**
 * rpcrdmax_ib_query_device - the limits of @device that rpcrdmax sizes by
 * @device: an ib_device
 * @attrs: filled in
 */
int rpcrdmax_ib_query_device(struct ib_device *device, struct rpcrdmax_dev_attrs *attrs)
{
	const struct ib_device_attr *a = &device->attrs;

	attrs->max_qp_wr = a->max_qp_wr;
	attrs->max_send_sge = a->max_send_sge;
	attrs->max_recv_sge = a->max_recv_sge;
	attrs->max_cqe = a->max_cqe;
	attrs->max_qp_rd_atom = a->max_qp_rd_atom;
	attrs->max_qp_init_rd_atom = a->max_qp_init_rd_atom;
	attrs->max_fast_reg_page_list_len = a->max_fast_reg_page_list_len;
	attrs->num_comp_vectors = device->num_comp_vectors;
	attrs->mem_mgt_extensions = !!(a->device_cap_flags & IB_DEVICE_MEM_MGT_EXTENSIONS);
	return 0;
}

/** rpcrdmax_ib_device_name - @device's name, e.g. "rxe0" */
const char *rpcrdmax_ib_device_name(struct ib_device *device)
{
	return dev_name(&device->dev);
}

/** rpcrdmax_ib_alloc_pd - allocate a protection domain on @device into @pd */
int rpcrdmax_ib_alloc_pd(struct ib_device *device, struct ib_pd **pd)
{
	struct ib_pd *p = ib_alloc_pd(device, 0);

	if (IS_ERR(p))
		return PTR_ERR(p);
	*pd = p;
	return 0;
}
ALLOW_ERROR_INJECTION(rpcrdmax_ib_alloc_pd, ERRNO);

/** rpcrdmax_ib_dealloc_pd - free @pd (NULL is ignored) */
void rpcrdmax_ib_dealloc_pd(struct ib_pd *pd)
{
	if (pd)
		ib_dealloc_pd(pd);
}

/**
 * rpcrdmax_ib_alloc_cq - allocate a completion queue
 * @device: the ib_device
 * @nr_cqe: entries
 * @comp_vector: completion vector, or RPCRDMAX_ANY_VECTOR: the least used
 *	one (ib_alloc_cq_any, which spreads connections over the device's)
 * @workqueue: poll from a workqueue (handlers may sleep) instead of softirq
 * @cq: set to the CQ
 */
int rpcrdmax_ib_alloc_cq(struct ib_device *device, int nr_cqe, int comp_vector, bool workqueue,
			 struct ib_cq **cq)
{
	enum ib_poll_context poll = workqueue ? IB_POLL_WORKQUEUE : IB_POLL_SOFTIRQ;
	struct ib_cq *c = comp_vector == RPCRDMAX_ANY_VECTOR ?
				  ib_alloc_cq_any(device, NULL, nr_cqe, poll) :
				  ib_alloc_cq(device, NULL, nr_cqe, comp_vector, poll);

	if (IS_ERR(c))
		return PTR_ERR(c);
	*cq = c;
	return 0;
}
ALLOW_ERROR_INJECTION(rpcrdmax_ib_alloc_cq, ERRNO);

/** rpcrdmax_ib_free_cq - free @cq (NULL is ignored) */
void rpcrdmax_ib_free_cq(struct ib_cq *cq)
{
	if (cq)
		ib_free_cq(cq);
}

static void rpcrdmax_ib_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcrdmax_cqe *c = container_of(wc->wr_cqe, struct rpcrdmax_cqe, cqe);

	/* Before fn, which may reuse the storage; a success whose event is
	 * off goes without the call (rpcrdmax_wc_key). */
	if (wc->status != IB_WC_SUCCESS || READ_ONCE(*rpcrdmax_wc_key[c->event]) > 0)
		rpcrdmax_trace_wc(c->event, cq, wc, c->id);
	c->fn(c, wc);
}

/**
 * rpcrdmax_ib_cqe_init - prepare completion storage
 * @cqe: RPCRDMAX_SIZEOF_CQE bytes that outlive every WR posted with them
 * @fn: called with @cqe for each completion (in the CQ's poll context)
 * @event: the tracepoint each completion fires first (cid -1 until
 *	rpcrdmax_ib_cqe_set_id())
 */
void rpcrdmax_ib_cqe_init(struct rpcrdmax_cqe *cqe, rpcrdmax_wc_fn fn, enum rpcrdmax_wc_event event)
{
	struct rpcrdmax_cqe *c = cqe;

	c->cqe.done = rpcrdmax_ib_done;
	c->fn = fn;
	c->event = event;
	c->id = -1;
}

/**
 * rpcrdmax_ib_cqe_set_id - name the storage in its tracepoints
 * @cqe: as given to rpcrdmax_ib_cqe_init()
 * @id: the cid the events print (e.g. a Receive buffer's index)
 */
void rpcrdmax_ib_cqe_set_id(struct rpcrdmax_cqe *cqe, int id)
{
	((struct rpcrdmax_cqe *)cqe)->id = id;
}

/** rpcrdmax_ib_wc_status_msg - text for a completion status */
const char *rpcrdmax_ib_wc_status_msg(unsigned int status)
{
	return ib_wc_status_msg(status);
}

/**
 * rpcrdmax_ib_post_send - post a chain of work requests on the Send Queue
 * @qp: the QP
 * @first: the chain's first request (linked through ->next), built by C++
 * @bad: on failure, the first request not posted (NULL if the driver did
 *	not say)
 *
 * Returns 0 or a negative errno.  Requests before *@bad were posted and
 * will complete (or flush) as usual.
 */
int rpcrdmax_ib_post_send(struct ib_qp *qp, const struct ib_send_wr *first,
			  const struct ib_send_wr **bad)
{
	*bad = NULL;
	return ib_post_send(qp, first, bad);
}
ALLOW_ERROR_INJECTION(rpcrdmax_ib_post_send, ERRNO);

/**
 * rpcrdmax_ib_post_recv - post a chain of Receives on the Receive Queue
 * @qp: the QP
 * @first: the chain's first request (linked through ->next), built by C++
 *
 * Returns 0 or a negative errno.  Requests before the one that failed
 * were posted and will complete (or flush) as usual.
 */
int rpcrdmax_ib_post_recv(struct ib_qp *qp, const struct ib_recv_wr *first)
{
	return ib_post_recv(qp, first, NULL);
}
ALLOW_ERROR_INJECTION(rpcrdmax_ib_post_recv, ERRNO);

/** rpcrdmax_ib_drain_qp - move @qp to error and wait until every WR has completed */
void rpcrdmax_ib_drain_qp(struct ib_qp *qp)
{
	ib_drain_qp(qp);
}

/**
 * rpcrdmax_ib_dma_map_single - DMA-map kernel memory for @device
 * @device: the ib_device
 * @addr: kernel virtual address (kmalloc or page memory)
 * @len: bytes
 * @dir: an RPCRDMAX_DMA_* direction
 * @dma: set to the DMA address
 */
int rpcrdmax_ib_dma_map_single(struct ib_device *device, void *addr, unsigned long len, int dir,
			       unsigned long long *dma)
{
	u64 a = ib_dma_map_single(device, addr, len, dir);

	if (ib_dma_mapping_error(device, a))
		return -EIO;
	*dma = a;
	return 0;
}
ALLOW_ERROR_INJECTION(rpcrdmax_ib_dma_map_single, ERRNO);

/** rpcrdmax_ib_dma_unmap_single - undo rpcrdmax_ib_dma_map_single() */
void rpcrdmax_ib_dma_unmap_single(struct ib_device *device, unsigned long long dma,
				  unsigned long len, int dir)
{
	ib_dma_unmap_single(device, dma, len, dir);
}

/**
 * rpcrdmax_ib_dma_unmap_single_nosync - undo rpcrdmax_ib_dma_map_single()
 * without a sync for the CPU (DMA_ATTR_SKIP_CPU_SYNC)
 * @device: the ib_device it was mapped for
 * @dma: its DMA address
 * @len: bytes
 * @dir: an RPCRDMAX_DMA_* direction
 *
 * For a receive buffer the CPU may still be reading or changing in place
 * (synced when its Receive completed): a bounce buffer is not copied back
 * over it.
 */
void rpcrdmax_ib_dma_unmap_single_nosync(struct ib_device *device, unsigned long long dma,
					 unsigned long len, int dir)
{
	if (!ib_uses_virt_dma(device))
		dma_unmap_single_attrs(device->dma_device, dma, len, dir, DMA_ATTR_SKIP_CPU_SYNC);
}

/**
 * rpcrdmax_ib_dma_map_page - DMA-map part of a page for @device
 * @device: the ib_device
 * @page: the struct page
 * @offset: where in the page
 * @len: bytes (within the page)
 * @dir: an RPCRDMAX_DMA_* direction
 * @dma: set to the DMA address
 */
int rpcrdmax_ib_dma_map_page(struct ib_device *device, struct page *page, unsigned int offset,
			     unsigned int len, int dir, unsigned long long *dma)
{
	u64 a = ib_dma_map_page(device, page, offset, len, dir);

	if (ib_dma_mapping_error(device, a))
		return -EIO;
	*dma = a;
	return 0;
}
ALLOW_ERROR_INJECTION(rpcrdmax_ib_dma_map_page, ERRNO);

/** rpcrdmax_ib_dma_unmap_page - undo rpcrdmax_ib_dma_map_page() */
void rpcrdmax_ib_dma_unmap_page(struct ib_device *device, unsigned long long dma, unsigned int len,
				int dir)
{
	ib_dma_unmap_page(device, dma, len, dir);
}

/** rpcrdmax_ib_dma_sync_for_cpu - let the CPU read what the device wrote */
void rpcrdmax_ib_dma_sync_for_cpu(struct ib_device *device, unsigned long long dma,
				  unsigned long len, int dir)
{
	ib_dma_sync_single_for_cpu(device, dma, len, dir);
}

/** rpcrdmax_ib_dma_sync_for_device - hand CPU writes back to the device */
void rpcrdmax_ib_dma_sync_for_device(struct ib_device *device, unsigned long long dma,
				     unsigned long len, int dir)
{
	ib_dma_sync_single_for_device(device, dma, len, dir);
}

/** rpcrdmax_ib_alloc_mr - allocate a fast-registration MR of up to @max_sg pages */
int rpcrdmax_ib_alloc_mr(struct ib_pd *pd, unsigned int max_sg, struct ib_mr **mr)
{
	struct ib_mr *m = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, max_sg);

	if (IS_ERR(m))
		return PTR_ERR(m);
	*mr = m;
	return 0;
}
ALLOW_ERROR_INJECTION(rpcrdmax_ib_alloc_mr, ERRNO);

/** rpcrdmax_ib_dereg_mr - release @mr (NULL is ignored) */
int rpcrdmax_ib_dereg_mr(struct ib_mr *mr)
{
	return mr ? ib_dereg_mr(mr) : 0;
}

/* DMA-map the @nsegs entries of @sg and load them into @mr: @nsegs, or
 * a negative errno with nothing left mapped. */
static __always_inline int rpcrdmax_mr_map_sg(struct ib_mr *mr, struct ib_device *device,
			      struct scatterlist *sg, unsigned int nsegs, int dir)
{
	int mapped = ib_dma_map_sg(device, sg, nsegs, dir), n;

	if (!mapped)
		return -EIO;
	n = ib_map_mr_sg(mr, sg, mapped, NULL, PAGE_SIZE);
	if (n != mapped) {
		ib_dma_unmap_sg(device, sg, nsegs, dir);
		return n < 0 ? n : -EIO;
	}
	return nsegs;
}

/**
 * rpcrdmax_ib_mr_map - DMA-map pages and load them into an MR's page list
 * @mr: the MR
 * @device: its device
 * @sgl: scatterlist storage for @nsegs entries
 * @segs: the page segments, in order (interior ones page-aligned)
 * @nsegs: how many
 * @dir: an RPCRDMAX_DMA_* direction
 *
 * Returns the number of segments mapped into @mr (all of them on
 * success), or a negative errno; on any error nothing stays mapped.
 * Registration itself is a REG_MR work request the caller posts.
 */
int rpcrdmax_ib_mr_map(struct ib_mr *mr, struct ib_device *device, struct scatterlist *sgl,
		       const struct rpcrdmax_page_seg *segs, unsigned int nsegs, int dir)
{
	unsigned int i;

	if (!nsegs)
		return -EINVAL;
	sg_init_table(sgl, nsegs);
	for (i = 0; i < nsegs; i++)
		sg_set_page(&sgl[i], segs[i].page, segs[i].len, segs[i].offset);
	return rpcrdmax_mr_map_sg(mr, device, sgl, nsegs, dir);
}
ALLOW_ERROR_INJECTION(rpcrdmax_ib_mr_map, ERRNO);

/**
 * rpcrdmax_ib_mr_map_kva - rpcrdmax_ib_mr_map() for kernel memory at an address
 * @mr: the MR
 * @device: its device
 * @sgl: scatterlist storage for at least one entry
 * @va: the first octet, in the kernel's direct mapping (kmalloc memory,
 *      as an xdr_buf's head and tail are); never vmalloc memory
 * @len: octets, at least one
 * @max: the most pages @mr takes
 * @dir: an RPCRDMAX_DMA_* direction
 *
 * The range is one scatterlist entry, however many pages it covers: in
 * the direct mapping, contiguous addresses are contiguous memory.
 * Returns 1 (the entries mapped), -E2BIG when it covers more than @max
 * pages, -EINVAL for an address outside the direct mapping, or another
 * negative errno; on any error nothing stays mapped.
 */
int rpcrdmax_ib_mr_map_kva(struct ib_mr *mr, struct ib_device *device, struct scatterlist *sgl,
			   const void *va, unsigned int len, unsigned int max, int dir)
{
	if (!len || !virt_addr_valid(va))
		return -EINVAL;
	if (DIV_ROUND_UP(offset_in_page(va) + (unsigned long)len, PAGE_SIZE) > max)
		return -E2BIG;
	sg_init_one(sgl, va, len);
	return rpcrdmax_mr_map_sg(mr, device, sgl, 1, dir);
}

/** rpcrdmax_ib_mr_unmap - undo rpcrdmax_ib_mr_map()'s DMA mapping */
void rpcrdmax_ib_mr_unmap(struct ib_device *device, struct scatterlist *sgl, unsigned int nsegs,
			  int dir)
{
	ib_dma_unmap_sg(device, sgl, nsegs, dir);
}

