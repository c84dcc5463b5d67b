// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma/conn.cpp - one server connection: Receives, assembling Calls
 * (inline, Read chunks by RDMA Read), sending Replies (inline, Write
 * chunk and Reply chunk by RDMA Write), teardown.
 *
 * Life cycle: made and accepted in the listener's CM callback, handed to
 * svc by xpo_accept, destroyed from the svc_xprt's free (a work item)
 * after the QP is drained, so no completion touches freed memory.
 * Receive completions queue the message and mark the svc_xprt ready; an
 * nfsd thread takes it in recvfrom, RDMA Reads the Read chunks straight
 * into the svc_rqst's pages at their positions, copies the inline parts
 * around them and reposts the Receive.  A Reply's RDMA Writes (from
 * rq_res's pages, which the Reply then holds) and its Send are posted as
 * one chain; the Send's completion frees what they used.  Each posted
 * work request holds a Send Queue slot until the signaled request that
 * ends its chain completes; a thread that finds the Send Queue full
 * sleeps until a completion returns slots or the connection is lost.
 */
#include "svcrdma.h"

namespace rpcrdmax::svcrdma {

/* ---- set-up and teardown ---------------------------------------------- */

SvcConn::~SvcConn()
{
	if (id.get() && id.qp())
		id.drain();
	while (SendCtx *sc = orphans_.pop_front())
		delete sc;
	while (SendCtx *sc = send_free_.pop_front())
		delete sc;
	while (CallCtx *cc = call_free_.pop_front())
		delete cc;
	delete[] recvs_;
}

/* ---- context free lists ----------------------------------------------- */

static void count_allocs(u32 n)
{
	if (n)
		rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_CTXT_ALLOC, n);
}

CallCtx *SvcConn::new_call()
{
	CallCtx *cc = new (Gfp::Kernel) CallCtx;

	if (!cc)
		return nullptr;
	cc->pieces = new (Gfp::Kernel) rpcrdmax_page_seg[kPiecesCap];
	if (!cc->pieces) {
		delete cc;
		return nullptr;
	}
	count_allocs(1);
	return cc;
}

SendCtx *SvcConn::new_send()
{
	SendCtx *sc = new (Gfp::Kernel) SendCtx(&SendCtx::done);

	if (!sc)
		return nullptr;
	sc->conn = this;
	sc->pages = new (Gfp::Kernel) void *[kMaxReplyPages];
	if (!sc->pages || sc->make(id.device(), lim_.send_size).is_error()) {
		delete sc;
		return nullptr;
	}
	count_allocs(1);
	return sc;
}

/* The contexts a new connection starts with. */
Result<void> SvcConn::fill_pools(u32 ncalls, u32 nsends)
{
	for (u32 i = 0; i < ncalls; i++) {
		CallCtx *cc = new_call();
		if (!cc)
			return error(err::ENOMEM);
		call_free_.push_front(cc);
	}
	for (u32 i = 0; i < nsends; i++) {
		SendCtx *sc = new_send();
		if (!sc)
			return error(err::ENOMEM);
		send_free_.push_front(sc);
	}
	return {};
}

/* A context from @free, or a new one from @make when all are in use
 * (NULL: no memory). */
template <typename T, ListNode T::*Node, typename Make>
static T *take_or_make(SpinLock *lock, List<T, Node> *free, Make make)
{
	{
		SpinLockBhGuard g(lock);
		if (T *t = free->pop_front())
			return t;
	}
	return make();
}

CallCtx *SvcConn::get_call()
{
	return take_or_make(&lock_, &call_free_, [this] { return new_call(); });
}

void SvcConn::put_call(CallCtx *cc)
{
	SpinLockBhGuard g(&lock_);
	call_free_.push_front(cc);
}

SendCtx *SvcConn::get_send()
{
	return take_or_make(&lock_, &send_free_, [this] { return new_send(); });
}

void SvcConn::put_send(SendCtx *sc)
{
	sc->reset();
	SpinLockBhGuard g(&lock_);
	send_free_.push_front(sc);
}

/* Undo what setup() did on the id before the CM destroys it. */
void SvcConn::undo_setup()
{
	if (id.qp()) {
		id.drain();
		rpcrdmax_cm_destroy_qp(id.get());
	}
	(void)id.release();
}

/*
 * The Receive buffers are the big per-connection allocation: refuse a
 * connection whose buffers exceed the budget (svcrdma.h), and let the
 * allocations themselves fail rather than wake the OOM killer.
 */
static constexpr Gfp kRecvGfp = Gfp::Kernel | GfpNoWarn | GfpRetryMayFail;

static bool recv_within_budget(const ConnLimits &lim, void *cm_id)
{
	const u64 budget = recv_budget(rpcrdmax_totalram_bytes());

	if (recv_bytes(lim) <= budget)
		return true;
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING,
				 "refusing connection from %pISc: %u Receive buffers of %u octets exceed the budget of %llu MiB (1/8 of RAM)",
				 rpcrdmax_cm_peer_addr(cm_id), lim.credits, lim.recv_size,
				 (unsigned long long)(budget >> 20));
	return false;
}

Result<void> SvcConn::setup(Listener *l, const rpcrdmax_cm_event_info &ev)
{
	void *dev = id.device();
	rpcrdmax_dev_attrs attrs;
	const u32 credits = lim_.credits;

	if (!recv_within_budget(lim_, id.get()))
		return error(err::ENOMEM);
	RPCRDMAX_TRY(check(rpcrdmax_ib_query_device(dev, &attrs)));
	if (attrs.max_qp_wr < 2 * credits + 2)
		return error(err::ENOMEM);
	/* Send Queue: a Send per credit plus one for an error reply, and
	 * rdma_rw contexts for a largest chunk payload per credit (the core
	 * adds their work requests, capped by the device). */
	u32 send_wr = credits + 1;
	u32 ctxs = credits * rpcrdmax_rw_mr_factor(id.get(), kMaxChunkPieces);
	u32 scq_len = min(min(send_wr + 3 * ctxs, attrs.max_qp_wr), attrs.max_cqe);
	u32 sq = 0;
	RPCRDMAX_TRY(pd_.alloc(dev));
	RPCRDMAX_TRY(scq_.alloc(dev, (int)scq_len, 0, true));
	/* Receives: one per credit, and room for ib_drain_qp's. */
	RPCRDMAX_TRY(rcq_.alloc(dev, (int)credits + 1, 0, true));
	RPCRDMAX_TRY(id.create_qp(pd_, scq_, rcq_, send_wr, credits + 1,
				  max(attrs.max_send_sge, 1u), 1, ctxs, &sq));
	max_send_sge_ = min(max(attrs.max_send_sge, 1u), core::kInlineMaxSges);
	/* Every slot we hand out has a CQ entry; one stays for the drain. */
	sq = min(sq, scq_len);
	if (sq < 2)
		return error(err::ENOMEM);
	sq_.init(sq - 1);

	recvs_ = new (kRecvGfp) RecvBuf[credits];
	if (!recvs_)
		return error(err::ENOMEM);
	nrecvs_ = credits;
	for (u32 i = 0; i < nrecvs_; i++) {
		RecvBuf &rb = recvs_[i];
		rb.conn = this;
		rb.data = new (kRecvGfp) u8[lim_.recv_size];
		if (!rb.data)
			return error(err::ENOMEM);
		RPCRDMAX_TRY(rb.map.map(dev, rb.data, lim_.recv_size, RPCRDMAX_DMA_FROM_DEVICE));
		RPCRDMAX_TRY(post_recv(&rb));
	}
	count_allocs(nrecvs_);
	RPCRDMAX_TRY(fill_pools(min(credits, kPoolCalls), min(credits, kPoolSends)));

	AcceptPlan plan = plan_accept(ConstBytes(static_cast<const u8 *>(ev.private_data),
						 ev.private_data ? ev.private_data_len : 0),
				      attrs, ev.initiator_depth, lim_);
	thr_ = plan.thr;
	send_inv_ = plan.send_inv;
	ord_ = plan.ord;
	core::credits_responder_init(&credits_, credits);

	xprt = rpcrdmax_svc_xprt_new(l->xprt(), id.get(), this);
	if (!xprt)
		return error(err::ENOMEM);

	u8 pd[core::kPdSize];
	u32 pdlen = RPCRDMAX_TRY(core::pd_encode(plan.ours, Bytes(pd, sizeof(pd))));
	return id.accept(ConstBytes(pd, pdlen), ord_, 0);
}

int SvcConn::cm_event(CmId *, const rpcrdmax_cm_event_info &ev)
{
	switch (ev.event) {
	case RPCRDMAX_CM_ESTABLISHED:
	case RPCRDMAX_CM_TIMEWAIT_EXIT:
	case RPCRDMAX_CM_OTHER:
		break;
	default: /* disconnect, device removal, connection errors */
		lost();
		break;
	}
	return 0;
}

/* The connection is gone or broken: svc closes the transport. */
void SvcConn::lost()
{
	if (lost_.cmpxchg(0, 1) == 0 && xprt)
		rpcrdmax_svc_xprt_close(xprt);
	sq_.shut();
}

void SvcConn::detach()
{
	(void)id.disconnect();
}

/* ---- Send Queue accounting -------------------------------------------- */

/* Take @n Send Queue slots (rdma::SqSlots), counting each wait. */
Result<void> SvcConn::sq_reserve(u32 n)
{
	bool waited;
	Result<void> r = sq_.reserve(n, &waited);

	if (waited)
		rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_SQ_STARVE, 1);
	return r;
}

void SvcConn::sq_release(u32 n)
{
	sq_.release(n);
}

/* ---- receive ---------------------------------------------------------- */

Result<void> SvcConn::post_recv(RecvBuf *rb)
{
	rpcrdmax_sge sge = rb->map.sge(pd_.local_dma_lkey());
	rb->map.sync_for_device();
	return id.post_recv(&rb->cqe, &sge, 1);
}

void SvcConn::repost(RecvBuf *rb)
{
	if (post_recv(rb).is_error())
		lost();
}

void RecvBuf::done(Cqe *c, const rpcrdmax_wc &wc)
{
	RecvBuf *rb = container_of(c, &RecvBuf::cqe);
	rb->conn->recv_done(rb, wc);
}

void SvcConn::recv_done(RecvBuf *rb, const rpcrdmax_wc &wc)
{
	if (wc.status != RPCRDMAX_IB_WC_SUCCESS) {
		if (wc.status != RPCRDMAX_IB_WC_WR_FLUSH_ERR)
			rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "Receive failed: %s",
						 rpcrdmax_ib_wc_status_msg(wc.status));
		lost();
		return;
	}
	rb->map.sync_for_cpu();
	rb->len = min(wc.byte_len, lim_.recv_size);
	rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_RECV, 1);
	{
		SpinLockBhGuard g(&lock_);
		ready_.push_back(rb);
	}
	rpcrdmax_svc_xprt_data_ready(xprt);
}

RecvBuf *SvcConn::dequeue()
{
	SpinLockBhGuard g(&lock_);
	RecvBuf *rb = ready_.pop_front();

	if (!rb)
		rpcrdmax_svc_xprt_clear_data(xprt);
	return rb;
}

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
 * Assemble the Call in rq_pages: each Read chunk's data lands by RDMA
 * Read at its position (followed by its XDR round-up), the inline parts
 * are copied around it afterwards.  RDMA_NOMSG Calls (Long Calls) are
 * the Position Zero Read chunk alone.
 */
Result<u32> SvcConn::build_arg(void *rqstp, CallCtx *cc, const u8 *inl, u32 inl_len)
{
	const core::V1Header &h = cc->call;
	const core::ChunkLists &cl = h.chunks;
	static const u8 zeros[4] = {};
	u32 dst[core::kMaxChunksCap];
	u32 out = 0, in = 0;

	if (cl.nread > core::kMaxChunksCap)
		return error(err::EINVAL);
	if (h.proc == core::V1Proc::NoMsg) {
		if (cl.nread != 1 || !cl.has_call_chunk())
			return error(err::EINVAL);
		u64 len = cl.chunk_length(cl.read[0]);
		if (len > kMaxChunk)
			return error(err::EMSGSIZE);
		if (!len)
			return error(err::EINVAL);
		dst[0] = 0;
		RPCRDMAX_TRY(read_chunks(rqstp, cc, dst));
		rpcrdmax_svc_arg_set(rqstp, (u32)len);
		return (u32)len;
	}
	/* Lay out and check every chunk before any Read is posted. */
	for (u32 i = 0; i < cl.nread; i++) {
		const core::ChunkRef &c = cl.read[i];
		if (c.position < out || c.position - out > inl_len - in)
			return error(err::EINVAL);
		u32 n = c.position - out;
		in += n;
		out += n;
		u64 len = cl.chunk_length(c);
		if (len > kMaxChunk)
			return error(err::EMSGSIZE);
		dst[i] = out;
		out += round_up<u32>((u32)len, 4);
	}
	RPCRDMAX_TRY(read_chunks(rqstp, cc, dst));
	/* The inline parts, and each chunk's round-up. */
	out = 0;
	in = 0;
	for (u32 i = 0; i < cl.nread; i++) {
		const core::ChunkRef &c = cl.read[i];
		u32 n = c.position - out;
		RPCRDMAX_TRY(check(rpcrdmax_svc_arg_copy(rqstp, out, inl + in, n)));
		in += n;
		u32 len = (u32)cl.chunk_length(c);
		out = dst[i] + len;
		u32 pad = round_up<u32>(len, 4) - len;
		RPCRDMAX_TRY(check(rpcrdmax_svc_arg_copy(rqstp, out, zeros, pad)));
		out += pad;
	}
	RPCRDMAX_TRY(check(rpcrdmax_svc_arg_copy(rqstp, out, inl + in, inl_len - in)));
	out += inl_len - in;
	if (!out)
		return error(err::EINVAL);
	rpcrdmax_svc_arg_set(rqstp, out);
	return out;
}

int SvcConn::process(void *rqstp, RecvBuf *rb, void **ctxt)
{
	CallCtx *cc = get_call();
	core::DecodeLimits lim;

	if (!cc) {
		repost(rb);
		rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_DROPPED, 1);
		return 0; /* the client retransmits */
	}
	core::V1Header &h = cc->call;
	core::V1Verdict v = core::v1_decode_call(ConstBytes(rb->data, rb->len), lim, &h);
	core::ResponderAction act = core::v1_responder_action(v);
	if (act != core::ResponderAction::Process) {
		u32 xid;
		bool vers = act == core::ResponderAction::ReplyErrVers;
		if (act != core::ResponderAction::Drop &&
		    core::v1_peek_xid(ConstBytes(rb->data, rb->len), &xid)) {
			(void)send_error(xid, vers);
			rpcrdmax_svc_stat_add(vers ? RPCRDMAX_SVC_STAT_ERR_VERS
						   : RPCRDMAX_SVC_STAT_ERR_CHUNK, 1);
		} else {
			rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_DROPPED, 1);
		}
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "bad Call header: %s",
					 core::v1_verdict_name(v));
		repost(rb);
		put_call(cc);
		return 0;
	}

	{
		SpinLockBhGuard g(&lock_);
		(void)core::credits_responder_receive(&credits_);
	}
	/* The Receive goes back once the Call is assembled (Read chunks
	 * are pulled meanwhile: the inline part is still in rb). */
	auto r = build_arg(rqstp, cc, rb->data + h.hdr_len, h.payload_len);
	repost(rb);
	if (r.is_error()) {
		int e = r.error().code();
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "cannot assemble Call %08x: %d", h.xid, e);
		if (e == -err::EINVAL || e == -err::EMSGSIZE) {
			(void)send_error(h.xid, false);
			rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_ERR_CHUNK, 1);
		} else {
			rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_DROPPED, 1);
		}
		put_call(cc);
		return (e == -err::EIO || e == -err::ENOTCONN) ? e : 0;
	}
	*ctxt = cc;
	return (int)r.value();
}

/* ---- send ------------------------------------------------------------- */

void SendCtx::done(Cqe *c, const rpcrdmax_wc &wc)
{
	SendCtx *sc = container_of(c, &SendCtx::cqe);
	sc->conn->send_done(sc, wc);
}

void SvcConn::send_done(SendCtx *sc, const rpcrdmax_wc &wc)
{
	if (wc.status != RPCRDMAX_IB_WC_SUCCESS) {
		if (wc.status != RPCRDMAX_IB_WC_WR_FLUSH_ERR)
			rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "Send failed: %s (vendor %u)",
						 rpcrdmax_ib_wc_status_msg(wc.status),
						 wc.vendor_err);
		lost();
	}
	sq_release(sc->sq_entries);
	put_send(sc);
}

/* Keep @sc until the teardown's drain: work requests may still use it. */
void SvcConn::orphan(SendCtx *sc)
{
	lost();
	sq_release(sc->sq_entries);
	SpinLockBhGuard g(&lock_);
	orphans_.push_back(sc);
}

/*
 * Post @sc's RDMA Writes and then its Send of @send_len octets (with
 * Invalidate of @inv_rkey unless it is 0), taking their Send Queue slots.
 * Takes @sc: the Send's completion gives it back, or the teardown frees
 * it if the post failed; given back at once when nothing was posted.
 */
Result<void> SvcConn::post_reply(SendCtx *sc, u32 send_len, u32 inv_rkey)
{
	sc->sq_entries = sc->rw.sq_entries() + 1;
	auto room = sq_reserve(sc->sq_entries);
	if (room.is_error()) {
		put_send(sc);
		return room;
	}
	Span<const rpcrdmax_sge> sges = sc->sge_list(pd_.local_dma_lkey(), send_len);
	sc->hdr_map.sync_for_device();
	rpcrdmax_send_wr wr = {};
	wr.cqe = sc->cqe.raw();
	wr.opcode = inv_rkey ? RPCRDMAX_WR_SEND_INV : RPCRDMAX_WR_SEND;
	wr.rkey = inv_rkey;
	wr.sge = sges.data();
	wr.num_sge = (unsigned int)sges.size();
	if (sc->rw.post(id, nullptr, &wr).is_error()) {
		orphan(sc);
		return error(err::ENOTCONN);
	}
	return {};
}

Result<void> SvcConn::send_error(u32 xid, bool vers)
{
	SendCtx *sc = get_send();

	if (!sc)
		return error(err::ENOMEM);
	u32 grant;
	{
		SpinLockBhGuard g(&lock_);
		grant = core::credits_responder_grant(credits_, 1);
	}
	const Bytes buf(sc->hdr, sc->hdr_size);
	auto enc = vers ? core::v1_encode_err_vers(xid, grant, buf)
			: core::v1_encode_err_chunk(xid, grant, buf);
	if (enc.is_error()) {
		put_send(sc);
		return enc.error();
	}
	return post_reply(sc, enc.value(), 0);
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

/*
 * The inline body's parts: octets [0, body_a) and [body_b, len) of the
 * Reply cut into page pieces, the page list's marked.  Returns how many,
 * or a negative errno (-ENOBUFS: more than @max).
 */
static int inline_parts(void *rqstp, const rpcrdmax_xdr_shape &s, const core::ReplyPlan &p,
			rpcrdmax_page_seg *segs, core::InlinePart *parts, u32 max)
{
	const u32 ranges[2][2] = { { 0, p.body_a }, { p.body_b, s.len } };
	const u32 pg_lo = s.head_len, pg_hi = s.head_len + s.page_len;
	u32 n = 0;

	for (const auto &r : ranges) {
		for (u32 at = r[0]; at < r[1];) {
			bool page = at >= pg_lo && at < pg_hi;
			u32 end = min(r[1], at < pg_lo ? pg_lo : page ? pg_hi : r[1]);
			int got = rpcrdmax_svc_res_pages(rqstp, at, end - at, segs + n, max - n);
			if (got < 0)
				return got;
			for (u32 k = n; k < n + (u32)got; k++)
				parts[k] = { segs[k].len, page };
			n += (u32)got;
			at = end;
		}
	}
	return (int)n;
}

/*
 * Put the inline body of the Reply in @rqstp into @sc after its @hlen
 * header octets: long page-list pieces go as SGEs of their own (the
 * caller then holds rq_res's pages), the rest is copied; everything is
 * copied (pulled up) when the SGEs run out.  0 or a negative errno.
 */
int SvcConn::load_inline(SendCtx *sc, void *rqstp, const rpcrdmax_xdr_shape &s,
			 const core::ReplyPlan &p, u32 hlen)
{
	rpcrdmax_page_seg segs[core::kInlineMaxParts];
	core::InlinePart parts[core::kInlineMaxParts];
	core::InlineLayout lay;
	int n = inline_parts(rqstp, s, p, segs, parts, core::kInlineMaxParts);

	if (n < 0 || !core::v1_layout_inline(hlen, parts, (u32)n, max_send_sge_,
					     core::kInlineMapMin, &lay)) {
		/* Too many pieces to lay out: copy the body as it comes. */
		if (rpcrdmax_svc_res_copy(rqstp, 0, p.body_a, sc->hdr + hlen) ||
		    rpcrdmax_svc_res_copy(rqstp, p.body_b, s.len - p.body_b,
					  sc->hdr + hlen + p.body_a))
			return -err::EMSGSIZE;
		if (!p.write_len)
			rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_PULL_UP, s.page_len);
		return 0;
	}
	auto r = sc->load_inline(id.device(), hlen, lay, Span<const rpcrdmax_page_seg>(segs, (size_t)n));
	if (r.is_error())
		return r.error().code();
	if (lay.pulled_up)
		rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_PULL_UP, lay.pulled_up);
	if (lay.nmapped)
		rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_PAGE_SGES, lay.nmapped);
	return 0;
}

/*
 * The rkey a Reply may invalidate (RFC 8797 Section 4.1): one handle of
 * this Call's chunks - the first segment of the Write list, else of the
 * Reply chunk, else of the Read list; 0 for a plain Send.
 */
static u32 reply_inv_rkey(const core::ChunkLists &cl)
{
	if (cl.nwrite && cl.write[0].nsegs)
		return cl.segment(cl.write[0], 0).handle;
	if (cl.has_reply && cl.reply.nsegs)
		return cl.segment(cl.reply, 0).handle;
	if (cl.nread && cl.read[0].nsegs)
		return cl.segment(cl.read[0], 0).handle;
	return 0;
}

int SvcConn::sendto(void *rqstp, CallCtx *cc)
{
	if (!cc)
		return -err::EINVAL;
	const core::V1Header &call = cc->call;
	const core::ChunkLists &ccl = call.chunks;
	core::V1Header &rep = cc->reply;
	rpcrdmax_xdr_shape s;

	rpcrdmax_svc_res_shape(rqstp, &s);
	{
		SpinLockBhGuard g(&lock_);
		rep.credits = core::credits_responder_reply(&credits_, call.credits);
	}
	const core::ReplyPlan p = core::v1_plan_reply(
		call, { s.head_len, s.page_len, s.tail_len, s.len }, min(thr_.reply, lim_.send_size),
		&rep);
	switch (p.route) {
	case core::ReplyRoute::Inline:
	case core::ReplyRoute::ReplyChunk:
		break;
	case core::ReplyRoute::NoRoom:
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "Reply %08x of %u octets has no room",
					 call.xid, s.len);
		return send_error(call.xid, false).is_ok() ? 0 : -err::ENOTCONN;
	case core::ReplyRoute::Bad:
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "cannot plan Reply %08x", call.xid);
		return -err::EINVAL;
	}
	const bool use_reply = p.route == core::ReplyRoute::ReplyChunk;

	SendCtx *sc = get_send();
	if (!sc)
		return -err::ENOMEM;
	int rc = -err::ENOMEM;
	u32 hlen = 0, send_len;
	const u32 body[2][2] = { { 0, p.body_a }, { p.body_b, s.len - p.body_b } };

	{
		auto enc = core::v1_encode(rep, Bytes(sc->hdr, sc->hdr_size));
		if (enc.is_error()) {
			rc = enc.error().code();
			goto fail;
		}
		hlen = enc.value();
	}
	send_len = hlen;
	if (!use_reply) {
		rc = load_inline(sc, rqstp, s, p, hlen);
		if (rc)
			goto fail;
		send_len += p.body_len;
	}
	if (p.write_len || use_reply || sc->lay.nmapped) {
		rc = -err::ENOMEM;
		u32 nctx = (p.write_len ? ccl.write[0].nsegs : 0) + (use_reply ? ccl.reply.nsegs : 0);
		if (nctx) {
			Result<void> a = sc->rw.alloc(nctx);
			count_allocs(sc->rw.take_grown());
			if (a.is_error())
				goto fail;
		}
		const u32 chunk[1][2] = { { s.head_len, p.write_len } };
		Result<void> r = {};
		if (p.write_len)
			r = add_writes(sc, rqstp, cc, ccl.write[0], chunk, 1);
		if (r.is_ok() && use_reply)
			r = add_writes(sc, rqstp, cc, ccl.reply, body, 2);
		if (r.is_error()) {
			rc = r.error().code();
			goto fail;
		}
		/* The Writes and page SGEs read rq_res's pages after
		 * sendto returns. */
		int n = rpcrdmax_svc_res_take_pages(rqstp, sc->pages, kMaxReplyPages);
		if (n < 0) {
			rc = n;
			goto fail;
		}
		sc->npages = (unsigned int)n;
	}
	{
		auto r = post_reply(sc, send_len, send_inv_ ? reply_inv_rkey(ccl) : 0);
		return r.is_ok() ? 0 : r.error().code();
	}

fail:
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "cannot send Reply %08x: %d", call.xid, rc);
	put_send(sc);
	return rc;
}

} // namespace rpcrdmax::svcrdma

using rpcrdmax::svcrdma::CallCtx;
using rpcrdmax::svcrdma::RecvBuf;
using rpcrdmax::svcrdma::SvcConn;

/** rpcrdmax_svcc_dequeue - the next received message, or NULL (XPT_DATA cleared) */
extern "C" void *rpcrdmax_svcc_dequeue(void *conn) noexcept
{
	return static_cast<SvcConn *>(conn)->dequeue();
}

/**
 * rpcrdmax_svcc_process - turn a received message into the Call in @rqstp
 * @conn: the connection
 * @rqstp: the svc_rqst
 * @msg: from rpcrdmax_svcc_dequeue()
 * @ctxt: set to the Call's context for sendto and release
 *
 * Returns the Call's length, 0 to drop it, or a negative errno when the
 * connection is lost.  Sleeps while Read chunks are pulled.
 */
extern "C" int rpcrdmax_svcc_process(void *conn, void *rqstp, void *msg, void **ctxt) noexcept
{
	return static_cast<SvcConn *>(conn)->process(rqstp, static_cast<RecvBuf *>(msg), ctxt);
}

/** rpcrdmax_svcc_sendto - send the Reply in @rqstp; 0 or a negative errno */
extern "C" int rpcrdmax_svcc_sendto(void *conn, void *rqstp, void *ctxt) noexcept
{
	return static_cast<SvcConn *>(conn)->sendto(rqstp, static_cast<CallCtx *>(ctxt));
}

/** rpcrdmax_svcc_release - give a Call's context back to its connection */
extern "C" void rpcrdmax_svcc_release(void *conn, void *ctxt) noexcept
{
	static_cast<SvcConn *>(conn)->put_call(static_cast<CallCtx *>(ctxt));
}

/** rpcrdmax_svcc_detach - start disconnecting */
extern "C" void rpcrdmax_svcc_detach(void *conn) noexcept
{
	static_cast<SvcConn *>(conn)->detach();
}

/** rpcrdmax_svcc_destroy - drain and free a connection (sleeps) */
extern "C" void rpcrdmax_svcc_destroy(void *conn) noexcept
{
	delete static_cast<SvcConn *>(conn);
}
