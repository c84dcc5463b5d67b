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

void ReadCtx::done(Cqe *c, const ib_wc &wc)
{
	ReadCtx *rc = container_of(c, &ReadCtx::cqe);

	if (!wc_ok(wc, "RDMA Read"))
		rc->failed = true;
	rc->conn->sq_release(rc->sq_entries);
	rc->all_done.complete();
}

/*
 * Add RDMA Reads of octets [@skip, @skip + @len) of Read chunk @c into
 * the Call at offset @at: one rdma_rw context per segment touched.
 */
Result<void> SvcConn::add_reads(svc_rqst *rqstp, CallCtx *cc, const core::ChunkRef &c, u32 skip,
				u32 len, u32 at)
{
	const core::ChunkLists &cl = cc->call.chunks;

	for (u32 k = 0; k < c.nsegs && len; k++) {
		const core::Segment &s = cl.segment(c, k);
		if (skip >= s.length) {
			skip -= s.length;
			continue;
		}
		u32 take = min(s.length - skip, len);
		/* a range of rq_pages touches at most this many pages */
		const u32 cap = lim_.chunk.pieces_cap;
		rpcrdmax_page_seg *pieces =
			scratch_room(cc->pieces, min(take / RPCRDMAX_PAGE_SIZE + 2, cap), cap);
		if (!pieces)
			return error(err::ENOMEM);
		int n = rpcrdmax_svc_arg_pages(rqstp, at, take, pieces, cc->pieces.capacity());
		if (n <= 0)
			return error(err::EMSGSIZE);
		RPCRDMAX_TRY(cc->read_rw.add(id, Span<const rpcrdmax_page_seg>(pieces, (size_t)n),
					     s.offset + skip, s.handle, RPCRDMAX_DMA_FROM_DEVICE));
		stat_add(RPCRDMAX_SVC_STAT_READ);
		at += take;
		len -= take;
		skip = 0;
	}
	return len ? error(err::EINVAL) : Result<void>{};
}

/*
 * RDMA Read the pieces of the Call laid out in cc->layout that come from
 * Read chunks - each chunk's data and, for RDMA_NOMSG, the inline octets
 * from the Position Zero chunk - straight into rq_pages at their place,
 * and wait for the data.  Returns with every Read completed and the
 * pages unmapped.
 */
Result<void> SvcConn::read_chunks(svc_rqst *rqstp, CallCtx *cc)
{
	const core::CallLayout &lay = cc->layout;
	const core::ChunkLists &cl = cc->call.chunks;
	RwList &rw = cc->read_rw;
	u32 nctx = 0, nranges = 0, len = 0, at = 0;

	/* Contexts: one per segment read, at most. */
	for (u32 i = 0; i < lay.npieces; i++) {
		const core::CallPiece &p = lay.pieces[i];
		if (p.kind == core::CallPieceKind::Chunk)
			nctx += cl.read[p.chunk].nsegs;
		else if (p.kind == core::CallPieceKind::Inline && lay.from_call_chunk)
			nctx += cl.read[0].nsegs;
		else
			continue;
		len += p.len;
		nranges++;
	}
	if (!nctx)
		return {};
	Result<void> r = rw_room(rw, nctx, rw_pieces(len, nctx, nranges));
	for (u32 i = 0; i < lay.npieces && r.is_ok(); i++) {
		const core::CallPiece &p = lay.pieces[i];
		if (p.kind == core::CallPieceKind::Chunk)
			r = add_reads(rqstp, cc, cl.read[p.chunk], 0, p.len, at);
		else if (p.kind == core::CallPieceKind::Inline && lay.from_call_chunk)
			r = add_reads(rqstp, cc, cl.read[0], p.src, p.len, at);
		at += p.len;
	}
	count_allocs(rw.take_grown());
	if (r.is_ok() && rw.size())
		r = post_reads(&cc->reads, rw);
	/* unmapped: the data is the CPU's (Reads a reset could not flush
	 * are on a QP in the error state, which places no data) */
	rw.destroy();
	return r;
}

/* Post the Reads of @rw and wait for them all to complete or flush
 * (@rc their completion). */
Result<void> SvcConn::post_reads(ReadCtx *rc, RwList &rw)
{
	rc->conn = this;
	rc->cqe.set_fn(read_done);
	rc->sq_entries = rw.sq_entries();
	rc->failed = false;
	RPCRDMAX_TRY(sq_reserve(rc->sq_entries));
	if (tp_on(RPCRDMAX_TP_SVCRDMA_POST_READ_CHUNK))
		rpcrdmax_trace_svc_post_read_chunk(scq_.get(), rc->cqe.id(), (int)rc->sq_entries);
	if (sq_posted(rw.post(id, &rc->cqe, nullptr)).is_error()) {
		/* Reads ahead of the failure may run: flush them before
		 * the pages go back to nfsd. */
		lost();
		drain();
		sq_release(rc->sq_entries);
		return error(err::ENOTCONN);
	}
	/* Posted Reads complete or flush (the connection closes on error;
	 * an unanswered Read ends in the RC retry limit's error on IB and
	 * RoCE).  A peer that leaves them unanswered longer (on iWARP TCP
	 * may keep its connection for many minutes) has its connection
	 * reset: the QP in error, the Reads flush. */
	if (!rc->all_done.wait_ms(read_wait_ms) && !reset_unanswered_reads(rc))
		return error(err::EIO);
	if (rc->failed) {
		lost();
		return error(err::EIO);
	}
	return {};
}

/* post_reads' Reads went unanswered for read_wait_ms: counted, logged,
 * the connection lost and the QP drained (moved to error: every work
 * request flushes), then @rc's own flushes waited for, kReadFlushWaitMs
 * at most.  False when they did not come: @rc is held (ReadCtx). */
bool SvcConn::reset_unanswered_reads(ReadCtx *rc)
{
	stat_add(RPCRDMAX_SVC_STAT_READ_RESET);
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE,
				 "%pISc: RDMA Reads unanswered after %u ms: connection reset",
				 rpcrdmax_cm_peer_addr(id.get()), read_wait_ms);
	lost();
	drain();
	if (rc->all_done.wait_ms(kReadFlushWaitMs))
		return true;
	rc->held = true;
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING,
				 "%pISc: RDMA Reads not flushed by the reset: Call given up",
				 rpcrdmax_cm_peer_addr(id.get()));
	return false;
}

/* The pieces a segment's Writes take at most, the longest of the
 * @nranges ranges they carry @longest octets: its pages plus a split at
 * each range edge, within the scratch array's cap. */
u32 SvcConn::write_pieces_max(u32 longest, u32 nranges) const
{
	return min(longest / RPCRDMAX_PAGE_SIZE + 4 * nranges + 4, lim_.chunk.pieces_cap);
}

/* The RDMA Writes of @pieces into segment @s, added to @sc's list and
 * counted (rdma_stat_write). */
Result<void> SvcConn::add_write(SendCtx *sc, Span<const rpcrdmax_page_seg> pieces,
				const core::Segment &s)
{
	auto added = sc->rw.add(id, pieces, s.offset, s.handle, RPCRDMAX_DMA_TO_DEVICE);
	count_allocs(sc->rw.take_grown());
	if (added.is_error())
		return added.error();
	stat_add(RPCRDMAX_SVC_STAT_WRITE);
	return {};
}

/*
 * Add RDMA Writes that fill chunk @c with the octets of the Reply's
 * ranges @ranges (in rq_res, in order), one rdma_rw context per segment
 * used.
 */
Result<void> SvcConn::add_writes(SendCtx *sc, svc_rqst *rqstp, CallCtx *cc, const core::ChunkRef &c,
				 const core::Range *ranges, u32 nranges)
{
	const core::ChunkLists &cl = cc->call.chunks;
	u32 total = 0, ri = 0, roff = 0, longest = 0;

	for (u32 i = 0; i < nranges; i++) {
		total += ranges[i].len;
		longest = max(longest, ranges[i].len);
	}
	const u32 max_pieces = write_pieces_max(longest, nranges);
	rpcrdmax_page_seg *pieces = scratch_room(cc->pieces, max_pieces, lim_.chunk.pieces_cap);
	if (!pieces)
		return error(err::ENOMEM);
	Result<void> r = {};
	for (u32 k = 0; k < c.nsegs && total && r.is_ok(); k++) {
		const core::Segment &s = cl.segment(c, k);
		u32 want = min(s.length, total), left = want, n = 0;
		while (left && r.is_ok()) {
			u32 avail = ranges[ri].len - roff;
			if (!avail) {
				ri++;
				roff = 0;
				continue;
			}
			u32 take = min(avail, left);
			int got = res_pieces(rqstp, ranges[ri].off + roff, take, pieces + n,
							 max_pieces - n);
			if (got <= 0)
				r = error(err::EMSGSIZE);
			else
				n += (u32)got;
			roff += take;
			left -= take;
		}
		if (r.is_ok() && want)
			r = add_write(sc, Span<const rpcrdmax_page_seg>(pieces, n), s);
		total -= want;
	}
	if (r.is_ok() && total)
		r = error(err::EMSGSIZE);
	return r;
}
} // namespace rpcrdmax::svcrdma
