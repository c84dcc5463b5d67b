// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma/rw.cpp - chunk payloads through the kernel's rdma_rw API: a
 * Call's Read chunks pulled by RDMA Read into rq_pages (waited for in
 * recvfrom), and a Reply's Write and Reply chunks filled by RDMA Write
 * from rq_res's pages (posted ahead of the Send, sendto.cpp).  The
 * rdma_rw contexts and the page-piece scratch live in the receive and
 * send contexts and are reused.
 */
#include "svcrdma.h"

namespace rpcrdmax::svcrdma {

void ReadCtx::done(Cqe *c, const rpcrdmax_wc &wc)
{
	ReadCtx *rc = container_of(c, &ReadCtx::cqe);

	if (wc.status != RPCRDMAX_IB_WC_SUCCESS) {
		if (wc.status != RPCRDMAX_IB_WC_WR_FLUSH_ERR)
			rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "RDMA Read failed: %s",
						 rpcrdmax_ib_wc_status_msg(wc.status));
		rc->failed = true;
	}
	rc->conn->sq_release(rc->sq_entries);
	rc->all_done.complete();
}

/*
 * RDMA Read every Read chunk of @cl straight into rq_pages, chunk i at
 * Call offset @dst[i] (the caller checked each chunk's length), and wait
 * for the data.  Returns with every Read completed and the pages
 * unmapped.
 */
Result<void> SvcConn::read_chunks(void *rqstp, CallCtx *cc, const u32 *dst)
{
	const core::ChunkLists &cl = cc->call.chunks;
	RwList &rw = cc->read_rw;
	rpcrdmax_page_seg *pieces = cc->pieces;
	u32 nsegs = 0;

	for (u32 i = 0; i < cl.nread; i++)
		nsegs += cl.read[i].nsegs;
	if (!nsegs)
		return {};
	Result<void> r = rw.alloc(nsegs);
	count_allocs(rw.take_grown());
	if (r.is_error())
		return r;
	for (u32 i = 0; i < cl.nread && r.is_ok(); i++) {
		const core::ChunkRef &c = cl.read[i];
		u32 at = dst[i];
		for (u32 k = 0; k < c.nsegs && r.is_ok(); k++) {
			const core::Segment &s = cl.segment(c, k);
			if (!s.length)
				continue;
			int n = rpcrdmax_svc_arg_pages(rqstp, at, s.length, pieces, kPiecesCap);
			if (n <= 0) {
				r = error(err::EMSGSIZE);
				break;
			}
			auto added = rw.add(id, Span<const rpcrdmax_page_seg>(pieces, (size_t)n),
					    s.offset, s.handle, RPCRDMAX_DMA_FROM_DEVICE);
			if (added.is_error())
				r = added.error();
			else
				rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_READ, 1);
			at += s.length;
		}
	}
	count_allocs(rw.take_grown());
	if (r.is_ok() && rw.size())
		r = post_reads(rw);
	rw.destroy(); /* unmapped: the data is the CPU's */
	return r;
}

/* Post the Reads of @rw and wait for them all to complete or flush. */
Result<void> SvcConn::post_reads(RwList &rw)
{
	ReadCtx rc;
	rc.conn = this;
	rc.sq_entries = rw.sq_entries();
	RPCRDMAX_TRY(sq_reserve(rc.sq_entries));
	if (rw.post(id, &rc.cqe, nullptr).is_error()) {
		/* Reads ahead of the failure may run: flush them before
		 * the pages go back to nfsd. */
		lost();
		id.drain();
		sq_release(rc.sq_entries);
		return error(err::ENOTCONN);
	}
	/* Posted Reads complete or flush (the connection closes on error). */
	while (!rc.all_done.wait_ms(1000))
		;
	if (rc.failed) {
		lost();
		return error(err::EIO);
	}
	return {};
}

/*
 * Add RDMA Writes that fill chunk @c with the octets of the Reply's
 * ranges @ranges ({offset, length} in rq_res, in order), one rdma_rw
 * context per segment used.
 */
Result<void> SvcConn::add_writes(SendCtx *sc, void *rqstp, CallCtx *cc, const core::ChunkRef &c,
				 const u32 (*ranges)[2], u32 nranges)
{
	const core::ChunkLists &cl = cc->call.chunks;
	rpcrdmax_page_seg *pieces = cc->pieces;
	u32 total = 0, ri = 0, roff = 0, longest = 0;

	for (u32 i = 0; i < nranges; i++) {
		total += ranges[i][1];
		longest = max(longest, ranges[i][1]);
	}
	/* A segment's pieces: its pages plus a split at each range edge. */
	u32 max_pieces = min(longest / RPCRDMAX_PAGE_SIZE + 4 * nranges + 4, kPiecesCap);
	Result<void> r = {};
	for (u32 k = 0; k < c.nsegs && total && r.is_ok(); k++) {
		const core::Segment &s = cl.segment(c, k);
		u32 want = min(s.length, total), left = want, n = 0;
		while (left && r.is_ok()) {
			u32 avail = ranges[ri][1] - roff;
			if (!avail) {
				ri++;
				roff = 0;
				continue;
			}
			u32 take = min(avail, left);
			int got = rpcrdmax_svc_res_pages(rqstp, ranges[ri][0] + roff, take, pieces + n,
							 max_pieces - n);
			if (got <= 0)
				r = error(err::EMSGSIZE);
			else
				n += (u32)got;
			roff += take;
			left -= take;
		}
		if (r.is_ok() && want) {
			auto added = sc->rw.add(id, Span<const rpcrdmax_page_seg>(pieces, n), s.offset,
						s.handle, RPCRDMAX_DMA_TO_DEVICE);
			if (added.is_error())
				r = added.error();
			else
				rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_WRITE, 1);
		}
		total -= want;
	}
	count_allocs(sc->rw.take_grown());
	if (r.is_ok() && total)
		r = error(err::EMSGSIZE);
	return r;
}
} // namespace rpcrdmax::svcrdma
