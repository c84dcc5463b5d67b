// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma/frwr.cpp - FRWR registration for the client's chunks.
 *
 * Every chunk segment the planner lays out becomes one MR from the
 * connection's pool: its pages are DMA-mapped and loaded, the rkey's
 * variant byte is bumped (so a stale rkey held by the server never
 * matches again), and a REG_MR work request is chained in front of the
 * Send that advertises it.
 *
 * After the Reply, each MR is invalidated either by the server's Send with
 * Invalidate (only for an rkey that belongs to this request) or by our
 * LOCAL_INV; the pages are unmapped and the RPC completed only after
 * that (RFC 8166 Section 8.1.3 asks the same when an RPC ends early,
 * which is buf_free's job).  An invalidation that fails leaves the MR in
 * an unknown state, so it is replaced (recovery).
 */
#include "xprtrdma.h"

namespace rpcrdmax::xprtrdma {

/* The pool's room, and its first kMrBatch MRs. */
Result<void> Conn::frwr_setup(ib_device *dev, u32 ppm)
{
	pages_per_mr = ppm;
	mr_dev_ = dev;
	mrs_ = new (Gfp::Kernel) ClntMr[kMrPool];
	if (!mrs_)
		return error(err::ENOMEM);
	return frwr_grow();
}

/* Make the next kMrBatch MRs of the pool and free them (may sleep). */
Result<void> Conn::frwr_grow()
{
	const u32 from = mrs_made_, to = min(from + kMrBatch, kMrPool);

	for (u32 i = from; i < to; i++) {
		ClntMr *m = &mrs_[i];
		m->conn = this;
		m->cqe.set_id((int)i); /* mr.id in its tracepoints */
		Result<void> r = m->mr.alloc(pd_.get(), mr_dev_, pages_per_mr);
		if (r.is_error()) {
			if (tp_on(RPCRDMAX_TP_XPRTRDMA_FRWR_ALLOC))
				rpcrdmax_trace_frwr_alloc(i, r.error().code());
			return r;
		}
		ep_->stats.add(ClntStat::MrsAllocated);
		ep_->stats.add(ClntStat::MrsLive);
		SpinLockBhGuard g(&free_lock_);
		mrs_made_ = i + 1;
		frwr_put_free(m, false);
	}
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_CREATEMRS))
		rpcrdmax_trace_createmrs(ep_->xprt_, to - from);
	return {};
}

/* The refill work: grow the pool while it runs low (see kMrBatch). */
void Conn::frwr_refill(FnWork *w)
{
	Conn *c = container_of(w, &Conn::mr_refill_);
	bool more = true;

	while (more) {
		if (c->frwr_grow().is_error())
			break; /* the next Call that finds the pool low asks again */
		SpinLockBhGuard g(&c->free_lock_);
		more = !c->refill_stopped_ && c->free_mr_count_ < kMrLowWater &&
		       c->mrs_made_ < kMrPool;
	}
	{
		SpinLockBhGuard g(&c->free_lock_);
		c->refill_queued_ = false;
	}
	c->space_freed();
}

/* Whether a registration would find an MR now. */
bool Conn::mr_free()
{
	SpinLockBhGuard g(&free_lock_);
	return spare_mr_.read() || free_mr_count_;
}

/* The connection is going: no refill runs after this returns. */
void Conn::frwr_stop_refill()
{
	{
		SpinLockBhGuard g(&free_lock_);
		refill_stopped_ = true;
	}
	mr_refill_.cancel_sync();
}

/*
 * Load @m with the pages under segment @ps (moved @shift octets into its
 * extent) of @rqst's send or (@rcv) receive buffer: the page list's
 * pieces read in place, the head or tail (kernel memory at the
 * xdr_buf's addresses) handed over by address.  How many pages that is;
 * -E2BIG when more than an MR takes.
 */
Result<u32> Conn::frwr_map(ClntMr *m, rpc_rqst *rqst, bool rcv, const core::PlannedSegment &ps,
			   u32 shift, int dir)
{
	const ktl::XdrBufView b = rqst_xdr(rqst, rcv);
	const u32 off = ps.offset + shift;
	u32 n;
	Result<void> r;

	if (ps.extent == core::ExtentId::Pages) {
		const int k = b.page_pieces(off, ps.length, page_segs_, pages_per_mr);
		if (k <= 0)
			return error(err::E2BIG);
		n = (u32)k;
		r = m->mr.map(Span<const rpcrdmax_page_seg>(page_segs_, n), dir);
	} else {
		const unsigned long at = (ps.extent == core::ExtentId::Head ? b.head_base()
									    : b.tail_base()) + off;
		const u64 pages = ((u64)page_offset_of(at) + ps.length + RPCRDMAX_PAGE_SIZE - 1) /
				  RPCRDMAX_PAGE_SIZE;
		if (pages > pages_per_mr)
			return error(err::E2BIG);
		n = (u32)pages;
		r = m->mr.map_kva(reinterpret_cast<const void *>(at), ps.length, dir);
	}
	if (r.is_error()) {
		if (tp_on(RPCRDMAX_TP_XPRTRDMA_FRWR_MAPERR))
			rpcrdmax_trace_frwr_maperr(m->cqe.id(), dir, r.error().code(), (int)n);
		return r.error();
	}
	return n;
}

/*
 * One MR for segment @ps of @rqst's send buffer (a Read chunk's: the
 * server reads it) or (@rcv) receive buffer (a Write or Reply chunk's:
 * the server writes into it with RDMA Writes, RFC 8166 Sections 3.4.6
 * and 3.5.3), mapped and its REG_MR prepared in m->reg_wr; it joins
 * @req's MRs.  -EAGAIN when the pool has none free (wait_for_space).
 */
Result<ClntMr *> Conn::frwr_register(Req *req, rpc_rqst *rqst, bool rcv,
				     const core::PlannedSegment &ps, u32 extent_shift)
{
	const int dir = rcv ? RPCRDMAX_DMA_FROM_DEVICE : RPCRDMAX_DMA_TO_DEVICE;
	const u32 access = rcv ? RPCRDMAX_ACCESS_REMOTE_WRITE | RPCRDMAX_ACCESS_LOCAL_WRITE
			       : RPCRDMAX_ACCESS_REMOTE_READ;
	ClntMr *m = spare_mr_.exchange(nullptr);

	if (!m && !(m = frwr_take_free())) {
		if (tp_on(RPCRDMAX_TP_XPRTRDMA_NOMRS_ERR))
			rpcrdmax_trace_nomrs_err(ep_->xprt_, rqst);
		return wait_for_space(true).error();
	}

	Result<u32> mapped = frwr_map(m, rqst, rcv, ps, extent_shift, dir);
	if (mapped.is_error()) {
		SpinLockBhGuard g(&free_lock_);
		frwr_put_free(m, true);
		return mapped.error();
	}
	const u32 n = mapped.value();
	m->mr.bump_key();
	m->mr.reg(&m->reg_wr, nullptr, access);
	m->seg = { m->mr.rkey(), ps.length, m->mr.iova() };
	m->req = req;
	m->remotely_invalidated = false;
	m->nents = n;
	m->dir = dir;
	m->trace(RPCRDMAX_MR_EV_REG, rqst);
	req->conn = this;
	req->mrs.push_back(m);
	req->valid_mrs++;
	return m;
}

/* An MR from the free list (spare_mr_ had none), and the refill queued
 * when the list runs low; nullptr when it is empty. */
ClntMr *Conn::frwr_take_free()
{
	SpinLockBhGuard g(&free_lock_);
	ClntMr *m = free_mrs_.pop_front();

	free_mr_count_ -= m != nullptr;
	/* queued under the lock: frwr_stop_refill() then cancels it */
	if (free_mr_count_ < kMrLowWater && mrs_made_ < kMrPool && !refill_queued_ &&
	    !refill_stopped_)
		refill_queued_ = mr_refill_.queue();
	return m;
}

/* Unmap and pool every MR of @req: they must be invalid by now.  Each
 * becomes the spare (spare_mr_); the one it displaces goes to the free
 * list.  With @wake, writers waiting for an MR go on. */
void Conn::frwr_release(Req *req, bool wake)
{
	req->valid_mrs = 0;
	if (req->mrs.empty())
		return;
	while (ClntMr *m = req->mrs.pop_front()) {
		m->trace(RPCRDMAX_MR_EV_UNMAP);
		m->mr.unmap();
		m->req = nullptr;
		if (ClntMr *old = spare_mr_.exchange(m)) {
			SpinLockBhGuard g(&free_lock_);
			frwr_put_free(old, false);
		}
	}
	if (wake)
		space_freed();
}

/* @m into the free list, counted; @next: at its head, to be taken next
 * (an MR that was never posted).  Under free_lock_. */
void Conn::frwr_put_free(ClntMr *m, bool next)
{
	if (next)
		free_mrs_.push_front(m);
	else
		free_mrs_.push_back(m);
	free_mr_count_++;
}

/* The server invalidated @rkey: true if it is one of @req's still valid
 * (each MR has its own rkey, so the first match is the only one). */
bool Conn::frwr_remote_invalidated(Req *req, u32 rkey)
{
	ClntMr *m = req->mrs.find([rkey](const ClntMr *c) {
		return c->seg.handle == rkey && !c->remotely_invalidated;
	});

	if (!m)
		return false;
	m->remotely_invalidated = true;
	req->valid_mrs--;
	m->trace(RPCRDMAX_MR_EV_REMINV);
	return true;
}

void ClntMr::inv_done(Cqe *, const ib_wc &)
{
	/* Only a chain's last LOCAL_INV is signaled, through its Req. */
}

/*
 * Post LOCAL_INV for each of @req's MRs the server did not invalidate
 * (req->valid_mrs of them), one chain in the Req's order whose last is
 * signaled through req->inv_cqe.  ENOENT: nothing to do.
 */
Result<void> Conn::frwr_invalidate(Req *req, bool)
{
	if (!req->valid_mrs)
		return error(err::ENOENT);
	ep_->stats.add(ClntStat::LocalInvNeeded, (int)req->valid_mrs);

	Wr *first = nullptr, *prev = nullptr;
	req->mrs.for_each([&](ClntMr *m) {
		if (m->remotely_invalidated)
			return;
		m->trace(RPCRDMAX_MR_EV_LOCALINV);
		m->inv_wr.local_inv(m->seg.handle, nullptr);
		m->inv_wr.set_next(nullptr);
		if (prev)
			prev->set_next(&m->inv_wr);
		else
			first = &m->inv_wr;
		prev = &m->inv_wr;
	});
	/* valid_mrs counts exactly the MRs not remotely invalidated */
	if (RPCRDMAX_WARN_ON(!prev))
		return error(err::ENOENT);
	prev->signal(req->inv_cqe.raw());
	Result<void> posted = id.post(first);
	if (posted.is_error() && tp_on(RPCRDMAX_TP_XPRTRDMA_POST_LINV_ERR))
		rpcrdmax_trace_post_linv_err(req->rqst, posted.error().code());
	return posted;
}

RPCRDMAX_HOT_ENTRY void Req::inv_done(Cqe *c, const ib_wc &wc)
{
	Req *req = container_of(c, &Req::inv_cqe);
	Conn *conn = req->conn;

	const u32 status = wc_status(wc);

	if (status != RPCRDMAX_IB_WC_SUCCESS) {
		/* The MRs' state is unknown: replace them before reuse. */
		req->mrs.for_each([&](ClntMr *m) {
			m->mr.unmap();
			if (m->mr.recover().is_ok())
				conn->ep()->stats.add(ClntStat::MrsRecovered);
		});
		if (status != RPCRDMAX_IB_WC_WR_FLUSH_ERR)
			rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "LOCAL_INV failed: %s",
						 rpcrdmax_ib_wc_status_msg(status));
		conn->lost();
	}
	if (req->sync_wait)
		req->invalidated.complete();
	else
		conn->finish_reply(req);
}

/*
 * The connection is being destroyed (its QP already drained): detach
 * every MR from the request holding it, so no Req points into the pool.
 */
void Conn::frwr_detach_all()
{
	if (!mrs_)
		return;
	for (u32 i = 0; i < mrs_made_; i++) {
		ClntMr *m = &mrs_[i];
		if (m->req) {
			List<ClntMr, &ClntMr::node>::remove(m);
			m->req->valid_mrs = 0;
			m->req = nullptr;
		}
		m->mr.unmap();
	}
}

} // namespace rpcrdmax::xprtrdma
