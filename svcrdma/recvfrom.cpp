// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma/recvfrom.cpp - Receives and the Calls they carry: a Receive
 * completion queues the message and marks the svc_xprt ready; an nfsd
 * thread takes it in recvfrom, decodes the transport header into a
 * receive context (RFC 8166 Section 4) and hands nfsd an inline Call
 * where it was received; for a Call with Read chunks it pulls them by
 * RDMA Read (rw.cpp) straight into the svc_rqst's pages at their
 * positions, copies the inline parts around them and reposts the
 * Receive.
 */
#include "svcrdma.h"

namespace rpcrdmax::svcrdma {

/* ---- receive ---------------------------------------------------------- */

Result<void> SvcConn::post_recv(RecvBuf *rb)
{
	rb->map.sync_for_device();
	rb->wr.set_next(nullptr); /* it may end a chain repost() made */
	if (tp_on(RPCRDMAX_TP_SVCRDMA_POST_RECV)) {
		rpcrdmax_cqe *cqe = rb->cqe.raw();
		rpcrdmax_trace_svc_post_recvs(rcq_.get(), &cqe, 1);
	}
	return rq_posted(id.post_recv(&rb->wr));
}

/* @r, a Receive post's outcome, fires svcrdma_rq_post_err when it failed. */
Result<void> SvcConn::rq_posted(Result<void> r)
{
	if (r.is_error() && tp_on(RPCRDMAX_TP_SVCRDMA_RQ_POST_ERR))
		rpcrdmax_trace_svc_rq_post_err(id.get(), r.error().code());
	return r;
}

/* @r, a Send chain post's outcome, fires svcrdma_sq_post_err when it failed. */
Result<void> SvcConn::sq_posted(Result<void> r)
{
	if (r.is_error() && tp_on(RPCRDMAX_TP_SVCRDMA_SQ_POST_ERR))
		rpcrdmax_trace_svc_sq_post_err(id.get(), sq_.available(), (int)sq_.depth(),
					       r.error().code());
	return r;
}

/*
 * Give @rb back to the Receive Queue: it waits until kRecvBatch are back,
 * which go as one chained post (see kRecvBatch).
 */
void SvcConn::repost(RecvBuf *rb)
{
	RecvBuf *batch[kRecvBatch] RPCRDMAX_NOINIT; /* filled before the post */
	{
		SpinLockBhGuard g(&repost_lock_);
		reposts_[nreposts_++] = rb;
		if (nreposts_ < kRecvBatch)
			return;
		nreposts_ = 0;
		for (u32 i = 0; i < kRecvBatch; i++)
			batch[i] = reposts_[i];
	}
	for (u32 i = 0; i < kRecvBatch; i++) {
		batch[i]->map.sync_for_device();
		batch[i]->wr.set_next(i + 1 < kRecvBatch ? &batch[i + 1]->wr : nullptr);
	}
	stat_add(RPCRDMAX_SVC_STAT_RQ_PROD);
	if (tp_on(RPCRDMAX_TP_SVCRDMA_POST_RECV)) {
		rpcrdmax_cqe *cqes[kRecvBatch] RPCRDMAX_NOINIT;
		for (u32 i = 0; i < kRecvBatch; i++)
			cqes[i] = batch[i]->cqe.raw();
		rpcrdmax_trace_svc_post_recvs(rcq_.get(), cqes, kRecvBatch);
	}
	if (rq_posted(id.post_recv(&batch[0]->wr)).is_error())
		lost();
}

void RecvBuf::done(Cqe *c, const ib_wc &wc)
{
	RecvBuf *rb = static_cast<RecvBuf *>(MsgBuf::from(c));
	rb->conn->recv_done(rb, wc);
}

RPCRDMAX_HOT_ENTRY void SvcConn::recv_done(RecvBuf *rb, const ib_wc &wc)
{
	if (!wc_ok(wc, "Receive")) {
		lost();
		return;
	}
	rb->map.sync_for_cpu();
	rb->len = min(wc_byte_len(wc), lim_.recv_size);
	stat_add(RPCRDMAX_SVC_STAT_RECV);
	unsettled_.add_return(1);
	{
		SpinLockBhGuard g(&lock_);
		rb->overrun = !core::credits_responder_receive(&credits_);
		ready_.push_back(rb);
	}
	rpcrdmax_svc_xprt_data_ready(xprt);
}

/*
 * The next received message, or nullptr.  Taking the last one clears
 * XPT_DATA at once (under lock_, which recv_done holds while it queues
 * before it sets the bit again): svc then calls no thread back only to
 * find the queue empty, which clearing on an empty dequeue (as stock's
 * svc_rdma_recvfrom does) costs every RPC at queue depth 1 - a thread
 * woken, scheduled and put back to sleep.
 */
RecvBuf *SvcConn::dequeue()
{
	SpinLockBhGuard g(&lock_);
	RecvBuf *rb = ready_.pop_front();

	if (ready_.empty())
		svc_xprt_clear_data(xprt);
	return rb;
}

/*
 * An inline Call (RFC 8166 Section 3.5.1: RDMA_MSG without Read chunks)
 * stays in its Receive buffer @rb, which nfsd reads as rq_arg and the
 * Call keeps until release (put_call), as the stock server does; a spare
 * buffer is posted in its place.  False when the Call is not inline or
 * no buffer is spare (all held by Calls nfsd still has): it is copied.
 */
bool SvcConn::arg_in_place(svc_rqst *rqstp, CallCtx *cc, RecvBuf *rb)
{
	const core::CallLayout &lay = cc->layout;
	RecvBuf *spare;

	if (lay.npieces != 1 || lay.pieces[0].kind != core::CallPieceKind::Inline ||
	    lay.from_call_chunk)
		return false;
	spare = get_spare();
	if (!spare)
		return false;
	cc->rb = rb;
	rpcrdmax_svc_arg_set_buf(rqstp, rb->data + cc->call.hdr_len + lay.pieces[0].src, lay.len);
	svc_set_respages(rqstp, 0, 1); /* every page is the Reply's */
	repost(spare);
	return true;
}

/*
 * Assemble the Call in rq_pages as core::v1_layout_call laid it out
 * (RFC 8166 Sections 3.5.2 and 3.5.3.1): the Read chunks' data, and for
 * RDMA_NOMSG the Position Zero chunk around it, land by RDMA Read at
 * their places; then the inline octets @inl of an RDMA_MSG Call are
 * copied around the data and each chunk's XDR round-up is zeroed.
 */
Result<u32> SvcConn::build_arg(svc_rqst *rqstp, CallCtx *cc, const u8 *inl)
{
	static const u8 zeros[4] = {};
	const core::CallLayout &lay = cc->layout;
	u32 at = 0;

	RPCRDMAX_TRY(read_chunks(rqstp, cc));
	for (u32 i = 0; i < lay.npieces; i++) {
		const core::CallPiece &p = lay.pieces[i];
		const u8 *src = nullptr;
		if (p.kind == core::CallPieceKind::Pad)
			src = zeros;
		else if (p.kind == core::CallPieceKind::Inline && !lay.from_call_chunk)
			src = inl + p.src;
		if (src)
			RPCRDMAX_TRY(check(rpcrdmax_svc_arg_copy(rqstp, at, src, p.len)));
		at += p.len;
	}
	rpcrdmax_svc_arg_set(rqstp, lay.len);
	/* A Long Call's RPC message, pulled from its Position Zero Read
	 * chunk, must begin with rdma_xid (RFC 8166 Section 4.5.2; the
	 * core checked an RDMA_MSG's): else ERR_CHUNK. */
	if (lay.from_call_chunk) {
		const XdrBufView arg = xdr_buf_at(rqstp, RPCRDMAX_OFF_SVC_RQST_ARG);
		if (!core::rpc_xid_matches(ConstBytes(reinterpret_cast<const u8 *>(arg.head_base()),
						      arg.head_len()),
					   cc->call.xid))
			return error(err::EINVAL);
	}
	/* the Reply's pages follow the Call's */
	const u32 call_pages = (lay.len + RPCRDMAX_PAGE_SIZE - 1) / RPCRDMAX_PAGE_SIZE;
	svc_set_respages(rqstp, max(call_pages, 1u), 1);
	return lay.len;
}

/*
 * The Call in @rb as nfsd's rq_arg, laid out by core::v1_layout_call: in
 * place (arg_in_place; the Call keeps @rb) or assembled in rq_pages
 * (build_arg; @rb goes back to the Receive Queue once the Read chunks
 * are pulled, as the inline part is still in it).  The Call's length.
 */
Result<u32> SvcConn::take_arg(svc_rqst *rqstp, CallCtx *cc, RecvBuf *rb)
{
	using core::CallLayoutError;
	const core::V1Header &h = cc->call;
	const CallLayoutError le =
		core::v1_layout_call(h, h.payload_len, lim_.chunk.max_chunk, &cc->layout);

	if (le == CallLayoutError::None && arg_in_place(rqstp, cc, rb))
		return cc->layout.len;
	Result<u32> r = le == CallLayoutError::None
				? build_arg(rqstp, cc, rb->data + h.hdr_len)
				: Result<u32>(error(le == CallLayoutError::TooLong ? err::EMSGSIZE
										   : err::EINVAL));
	repost(rb);
	return r;
}

/*
 * Credits (RFC 8166 Section 3.3.1; RFC 5666 Section 3.3): a message is
 * outstanding from its Receive's completion until its Reply is built
 * (plan_reply) or it is dropped or answered with an error (uncount).  A
 * requester with more Calls outstanding than it was ever granted is
 * counted and logged; its Call is still served, which RFC 5666 Section
 * 3.3 leaves OPTIONAL: each Call holds one of the connection's own
 * Receives, so the excess costs no other connection anything.  A
 * message is counted when its Receive completes, before it is known to
 * be a Call: the client's Replies to our backward Calls (RFC 8167) are
 * counted too, within kBcSlots of room beyond the grant, and uncounted
 * once recvfrom sees their direction.
 */
void SvcConn::uncount()
{
	SpinLockBhGuard g(&lock_);
	core::credits_responder_drop(&credits_);
}

void SvcConn::uncount_call(CallCtx *cc)
{
	if (!cc->outstanding)
		return;
	cc->outstanding = false;
	uncount();
}

/* @how one received message ended (Settle); each is settled once. */
void SvcConn::settle(Settle how)
{
	switch (how) {
	case Settle::Dropped:
		stat_add(RPCRDMAX_SVC_STAT_DROPPED);
		break;
	case Settle::Lost:
		stat_add(RPCRDMAX_SVC_STAT_LOST);
		break;
	case Settle::SvcDrop:
		stat_add(RPCRDMAX_SVC_STAT_SVC_DROP);
		break;
	case Settle::Answered:
	case Settle::NotCall:
		break;
	}
	unsettled_.add_return(-1);
}

/* The message @cc holds ended as @how, unless it already ended. */
void SvcConn::settle(CallCtx *cc, Settle how)
{
	if (cc->settled)
		return;
	cc->settled = true;
	settle(how);
}

/* The connection is lost, or svc is closing it: no Reply can go out. */
bool SvcConn::gone() const
{
	return lost_.read() || rpcrdmax_svc_xprt_closing(xprt);
}

/* How a message ended whose Reply or RDMA_ERROR was posted (@r ok), or
 * could not be: lost with the connection, or dropped by us. */
Settle SvcConn::sent(Result<void> r) const
{
	return r.is_ok() ? Settle::Answered : failed();
}

void SvcConn::note_overrun(u32 xid)
{
	u32 granted;
	{
		SpinLockBhGuard g(&lock_);
		granted = credits_.high_grant;
	}
	stat_add(RPCRDMAX_SVC_STAT_CREDIT_OVERRUN);
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE,
				 "%pISc has more Calls outstanding than the %u credits it was granted (Call %08x)",
				 rpcrdmax_cm_peer_addr(id.get()), granted, xid);
}

/* Which of stock's tracepoints a header that cannot be served fires
 * (named as stock's decoder sorts them). */
static rpcrdmax_decode_err decode_err_event(core::V1Verdict v)
{
	switch (v) {
	case core::V1Verdict::TooShort:
		return RPCRDMAX_DECODE_ERR_SHORT;
	case core::V1Verdict::VersionMismatch:
		return RPCRDMAX_DECODE_ERR_BADVERS;
	case core::V1Verdict::ObsoleteDone:
	case core::V1Verdict::UnexpectedError:
		return RPCRDMAX_DECODE_ERR_DROP;
	case core::V1Verdict::UnknownProc:
	case core::V1Verdict::ObsoleteMsgp:
		return RPCRDMAX_DECODE_ERR_BADPROC;
	default:
		return RPCRDMAX_DECODE_ERR_PARSE;
	}
}

/* svcrdma_decode_rseg and _wseg: each segment of the Call's Read and
 * Write lists (called only while either event is on). */
void SvcConn::trace_segments(const RecvBuf *rb, const core::ChunkLists &cl)
{
	const int cid = rb->cqe.id();
	cl.for_each_segment(cl.kReadList, [&](const core::ChunkRef &c, u32 i, const core::Segment &s) {
		rpcrdmax_trace_svc_rseg(rcq_.get(), cid, i, c.position, s.handle, s.length, s.offset);
	});
	cl.for_each_segment(cl.kWriteList, [&](const core::ChunkRef &, u32 i, const core::Segment &s) {
		rpcrdmax_trace_svc_wseg(rcq_.get(), cid, i, s.handle, s.length, s.offset);
	});
}

/* A backward Reply whose header is in error: its requester (we) discards
 * it silently (RFC 8166 Section 4.5), counted in rdma_stat_bc_dropped. */
void SvcConn::drop_backward_reply(CallCtx *cc)
{
	stat_add(RPCRDMAX_SVC_STAT_BC_DROPPED);
	settle(cc, Settle::NotCall);
}

/*
 * A version 1 Call's header into @cc (RFC 8166 Section 4): true when it
 * is one to serve, with *@reply set when it is a backward Reply (RFC
 * 8167); otherwise it was answered with RDMA_ERROR or dropped, and
 * counted.
 */
bool SvcConn::decode_v1(RecvBuf *rb, CallCtx *cc, bool *reply)
{
	core::DecodeLimits lim;
	core::V1Header &h = cc->call;
	core::V1Verdict v = core::v1_decode_call(ConstBytes(rb->data, rb->len), lim, &h);
	core::ResponderAction act = core::v1_responder_action(v);

	if (act == core::ResponderAction::Process) {
		*reply = core::v1_msg_direction(h, ConstBytes(rb->data + h.hdr_len, h.payload_len)) ==
			 core::MsgDirection::Reply;
		return true;
	}
	u32 xid;
	if (tp_any(RPCRDMAX_TP_SVCRDMA_DECODE_ERRS))
		rpcrdmax_trace_svc_decode_err(decode_err_event(v), rcq_.get(), rb->cqe.id(),
					      rb->data, rb->len);
	uncount_call(cc); /* before an error Reply can free a credit */
	if (v == core::V1Verdict::XidMismatch &&
	    core::v1_msg_direction(h, ConstBytes(rb->data + h.hdr_len, h.payload_len)) ==
		    core::MsgDirection::Reply) {
		drop_backward_reply(cc);
		return false;
	}
	bool vers = act == core::ResponderAction::ReplyErrVers;
	if (act != core::ResponderAction::Drop &&
	    core::v1_peek_xid(ConstBytes(rb->data, rb->len), &xid)) {
		/* ERR_VERS names the versions we accept (1, or 1 to 2),
		 * and its rdma_vers is the failing Call's (RFC 8166
		 * Section 4.5; the draft's Section 6.2.4 too), as stock's
		 * is: the version the requester sent, which it reads.
		 * (RFC 5666 Section 4.2 had a value valid at the
		 * receiver; RFC 8166 replaced it.)  ERR_VERS implies the
		 * fixed words were decoded, rdma_vers among them. */
		core::V2Error e = {};
		e.code = static_cast<u32>(core::V2ErrCode::Vers);
		e.vers_low = core::kRpcRdmaVersion1;
		e.vers_high = lim_.max_vers;
		settle(cc, sent(send_error(xid, vers, vers ? &e : nullptr, h.vers)));
		stat_add(vers ? RPCRDMAX_SVC_STAT_ERR_VERS : RPCRDMAX_SVC_STAT_ERR_CHUNK);
	} else {
		settle(cc, Settle::Dropped);
	}
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "bad Call header: %s",
				 core::v1_verdict_name(v));
	return false;
}

/*
 * The message in @rb decoded into @cc, each Call in its own version
 * (draft Section 7.3; version 2 only while svc_rdma/max_version allows
 * it, else ERR_VERS), counted and traced.  *@reply: it is a Reply (to a
 * backward Call).  False when it is not to be processed (answered or
 * dropped already).
 */
bool SvcConn::decode(RecvBuf *rb, CallCtx *cc, bool *reply)
{
	u32 vers = 0;
	core::V2Proc proc;

	cc->outstanding = true; /* counted when the Receive completed */
	cc->busy = true;
	cc->settled = false;
	cc->shape.npayloads = 0;
	cc->vers = core::kRpcRdmaVersion1; /* decode_v2 sets both for version 2 */
	cc->inv_handle = 0;
	(void)core::v2_peek(ConstBytes(rb->data, rb->len), &vers, &proc);
	bool ok = vers == core::kRpcRdmaVersion2 && lim_.max_vers >= vers
			  ? decode_v2(rb, cc, reply)
			  : decode_v1(rb, cc, reply);
	if (!ok)
		return false;
	const core::V1Header &h = cc->call;
	count_version(h.vers);
	if (tp_on(RPCRDMAX_TP_SVCRDMA_DECODE_RQST))
		rpcrdmax_trace_svc_decode(rcq_.get(), rb->cqe.id(), h.xid, h.vers, (u32)h.proc,
					  h.credits, h.hdr_len);
	if (tp_any(RPCRDMAX_TP_SVCRDMA_DECODE_RSEG, RPCRDMAX_TP_SVCRDMA_DECODE_WSEG))
		trace_segments(rb, h.chunks);
	return true;
}

/*
 * @cc's Call, whose arguments could not be assembled (@e): chunks that
 * do not lay out get ERR_CHUNK (in version 2 RDMA2_ERR_BAD_XDR, draft
 * Section 6.2.4); Read chunks not pulled are lost with the connection,
 * else dropped (the client retransmits).  What process() returns.
 */
int SvcConn::arg_failed(CallCtx *cc, int e)
{
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "cannot assemble Call %08x: %d",
				 cc->call.xid, e);
	uncount_call(cc); /* before the error Reply can free a credit */
	if (e == -err::EINVAL || e == -err::EMSGSIZE) {
		if (cc->vers != core::kRpcRdmaVersion2)
			stat_add(RPCRDMAX_SVC_STAT_ERR_CHUNK);
		settle(cc, sent(chunk_error(cc, core::V2ErrCode::BadXdr, 0)));
	} else {
		settle(cc, failed());
	}
	put_call(cc);
	return (e == -err::EIO || e == -err::ENOTCONN) ? e : 0;
}

int SvcConn::process(svc_rqst *rqstp, RecvBuf *rb, rpcrdmax_svc_ctxt **ctxt)
{
	CallCtx *cc = get_call();
	bool reply = false;

	if (!cc) {
		uncount();
		repost(rb);
		settle(Settle::Dropped);
		return 0; /* the client retransmits */
	}
	if (!decode(rb, cc, &reply)) {
		repost(rb);
		put_call(cc);
		return 0;
	}
	const core::V1Header &h = cc->call;
	if (reply) {
		/* A Reply arriving at a responder answers one of its
		 * backward Calls (RFC 8167): not a Call, not counted. */
		uncount_call(cc);
		settle(cc, Settle::NotCall);
		backward_reply(h, rb->data + h.hdr_len, h.payload_len);
		repost(rb);
		put_call(cc);
		return 0;
	}
	if (rb->overrun)
		note_overrun(h.xid);
	auto r = take_arg(rqstp, cc, rb);
	if (r.is_error())
		return arg_failed(cc, r.error().code());
	*ctxt = cc;
	return (int)r.value();
}

/*
 * nfsd's recvfrom: the next message taken off the queue and made into
 * the Call in @rqstp.  The Reply's pages in rq_pages are set here: none
 * until a Call is in place, and none again when there is no Call.
 */
RPCRDMAX_HOT_ENTRY int SvcConn::recvfrom(svc_rqst *rqstp, rpcrdmax_svc_ctxt **ctxt)
{
	svc_set_respages(rqstp, 0, 0);
	RecvBuf *rb = dequeue();
	rpcrdmax_svc_xprt_received(xprt);
	if (!rb)
		return 0;
	int len = process(rqstp, rb, ctxt);
	if (len <= 0)
		svc_set_respages(rqstp, 0, 0);
	return len;
}
} // namespace rpcrdmax::svcrdma

using rpcrdmax::svcrdma::CallCtx;
using rpcrdmax::svcrdma::RecvBuf;
using rpcrdmax::svcrdma::SvcConn;

/**
 * rpcrdmax_svcc_recvfrom - the next received message as the Call in @rqstp
 * @conn: the connection
 * @rqstp: the svc_rqst
 * @ctxt: set to the Call's context for sendto and release
 *
 * Returns the Call's length, 0 when there was none or it is dropped, or a
 * negative errno when the connection is lost.  Sleeps while Read chunks
 * are pulled.
 */
extern "C" int rpcrdmax_svcc_recvfrom(rpcrdmax_svcc *conn, svc_rqst *rqstp,
				      rpcrdmax_svc_ctxt **ctxt) noexcept
{
	return static_cast<SvcConn *>(conn)->recvfrom(rqstp, ctxt);
}

/** rpcrdmax_svcc_release - give a Call's context back to its connection */
extern "C" void rpcrdmax_svcc_release(rpcrdmax_svcc *conn, rpcrdmax_svc_ctxt *ctxt) noexcept
{
	static_cast<SvcConn *>(conn)->put_call(static_cast<CallCtx *>(ctxt));
}
