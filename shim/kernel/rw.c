// SPDX-License-Identifier: GPL-2.0
/*
 * shim/kernel/rw.c - the RDMA read/write API (rdma_rw) for C++.
 *
 * One context moves one remote segment (handle, offset, length) to or
 * from a list of local page pieces: RDMA Read into pages, or RDMA Write
 * from them.  rdma_rw picks plain SGEs or memory registration for the
 * device and reports how many Send Queue entries the operation takes.
 * C++ owns the context storage (RPCRDMAX_SIZEOF_RW_CTX) and the
 * scatterlist storage (RPCRDMAX_SIZEOF_SCATTERLIST per piece).  The QP
 * must have been created with max_rdma_ctxs (rpcrdmax_cm_create_qp()).
 */
#include <linux/error-injection.h>
#include <linux/scatterlist.h>
#include <rdma/rdma_cm.h>
#include <rdma/rw.h>
#include "rpcrdmax_consts.h"
#include "../internal.h"

static_assert(RPCRDMAX_SIZEOF_RW_CTX == sizeof(struct rdma_rw_ctx) &&
	      RPCRDMAX_ALIGNOF_RW_CTX == __alignof__(struct rdma_rw_ctx));

/**
 * rpcrdmax_rw_init - prepare the RDMA Reads or Writes of one remote segment
 * @ctx: context storage
 * @cm_id: the connection's rdma_cm_id (its QP and port)
 * @sgl: scatterlist storage for @nsegs entries
 * @segs: the local pieces, in order; none may be empty
 * @nsegs: how many (at least 1)
 * @remote_addr: the segment's offset
 * @rkey: the segment's handle
 * @dir: RPCRDMAX_DMA_FROM_DEVICE (RDMA Read) or RPCRDMAX_DMA_TO_DEVICE (Write)
 *
 * DMA-maps the pieces.  Returns the Send Queue entries the operation
 * needs (at least 1), or a negative errno with nothing left mapped.
 */
int rpcrdmax_rw_init(struct rdma_rw_ctx *ctx, struct rdma_cm_id *cm_id, struct scatterlist *sgl,
		     const struct rpcrdmax_page_seg *segs, unsigned int nsegs,
		     unsigned long long remote_addr, unsigned int rkey, int dir)
{
	unsigned int i;

	if (!nsegs || !cm_id->qp)
		return -EINVAL;
	sg_init_table(sgl, nsegs);
	for (i = 0; i < nsegs; i++) {
		if (!segs[i].len)
			return -EINVAL;
		sg_set_page(&sgl[i], segs[i].page, segs[i].len, segs[i].offset);
	}
	return rdma_rw_ctx_init(ctx, cm_id->qp, cm_id->port_num, sgl, nsegs, 0, remote_addr, rkey,
				dir);
}
ALLOW_ERROR_INJECTION(rpcrdmax_rw_init, ERRNO);

/**
 * rpcrdmax_rw_destroy - release a context prepared by rpcrdmax_rw_init()
 * @ctx: the context (its work requests completed or flushed)
 * @cm_id: the same id
 * @sgl: the same scatterlist storage
 * @nsegs: the same count
 * @dir: the same direction
 */
void rpcrdmax_rw_destroy(struct rdma_rw_ctx *ctx, struct rdma_cm_id *cm_id, struct scatterlist *sgl,
			 unsigned int nsegs, int dir)
{
	rdma_rw_ctx_destroy(ctx, cm_id->qp, cm_id->port_num, sgl, nsegs, dir);
}

/**
 * rpcrdmax_rw_post - post the work requests of several contexts as one chain
 * @cm_id: the connection's id
 * @ctxs: @n prepared contexts, posted in order
 * @n: how many (may be 0 when @last is given)
 * @cqe: completion storage for the chain's final request when @last is NULL
 * @last: a request (Send) to post after the contexts', carrying its own
 *	  completion storage, or NULL
 *
 * Only the chain's final request signals: on an RC QP its completion
 * means every request before it has completed.  Returns 0 or a negative
 * errno; after an error some requests may have been posted, and they
 * complete or flush as usual.
 */
int rpcrdmax_rw_post(struct rdma_cm_id *cm_id, struct rdma_rw_ctx *const *ctxs, unsigned int n,
		     struct rpcrdmax_cqe *cqe, struct ib_send_wr *last)
{
	struct ib_send_wr *first = last;

	if (!last && (!n || !cqe))
		return -EINVAL;
	while (n--)
		first = rdma_rw_ctx_wrs(ctxs[n], cm_id->qp, cm_id->port_num,
					first ? NULL : &cqe->cqe, first);
	return ib_post_send(cm_id->qp, first, NULL);
}
ALLOW_ERROR_INJECTION(rpcrdmax_rw_post, ERRNO);

/**
 * rpcrdmax_rw_mr_factor - contexts one I/O of @maxpages pages may need
 * @cm_id: a connected id
 * @maxpages: pages in the largest I/O
 */
unsigned int rpcrdmax_rw_mr_factor(struct rdma_cm_id *cm_id, unsigned int maxpages)
{
	return rdma_rw_mr_factor(cm_id->device, cm_id->port_num, maxpages);
}
