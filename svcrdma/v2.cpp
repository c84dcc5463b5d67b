// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma/v2.cpp - RPC-over-RDMA Version Two on the server, as
 * draft-cel-nfsv4-rpcrdma-version-two-04 describes it (an expired
 * Internet-Draft: Documentation/v2.rst).
 *
 * Negotiation (Section 7): the server answers each Call in the version
 * the Call uses (Section 7.3), so a version 1 client sees exactly version
 * 1; a version 2 Call gets version 2 Replies while svc_rdma/max_version is
 * 2, and ERR_VERS with the range 1..1 (what a version 1 server sends)
 * when it is 1.  A connection is counted once, by its first Call's
 * version (rdma_stat_vers1_conns, rdma_stat_vers2_conns).
 *
 * Version 2 Calls (RDMA2_MSG, RDMA2_NOMSG) are decoded into the version 1
 * view the rest of the server uses (core::v2_decode_msg), so Read and
 * Write chunks and the Reply chunk work as in version 1.  Their Replies:
 *  - go inline up to the client's Receive size: RBSIZ from its
 *    RDMA2_CONNPROP (Section 5.2.1), else its RFC 8797 private data,
 *    else the draft's default of 4096 octets (Section 2.3), never more
 *    than our Send buffer, never less than version 1's 1024;
 *  - are sent with Invalidate only of the handle the Call named in
 *    rdma_inv_handle, when that handle is one of its chunks' (Section
 *    6.2.3);
 *  - that have no room answer RDMA2_ERR_REPLY_RESOURCE, and chunks that
 *    do not lay out RDMA2_ERR_BAD_XDR (Section 6.2.4).
 *
 * Before its first version 2 Reply on a connection the server sends its own
 * RDMA2_CONNPROP (Section 5.3.1): the size of its Receives (RBSIZ), which
 * will not change.  (Backward Request Support describes a client, Section
 * 5.2.2: not sent.)  It is counted in rdma_stat_connprop_sent, and one
 * received in rdma_stat_connprop_recv, so that Calls and Replies still
 * add up.
 *
 * Messages that carry no Call (Sections 5.3, 6.2.4): RDMA2_CONNPROP (or
 * RDMA2_OPTIONAL opttype 1) is noted and not answered, the property
 * operations we do not support and unknown RDMA2_OPTIONAL types get
 * RDMA2_ERR_INVAL_OPTION, a header that does not decode the error its
 * verdict names, an RDMA2_ERROR is dropped.  None holds a credit.
 */
#include "svcrdma.h"

namespace rpcrdmax::svcrdma {

bool SvcConn::decode_v2(RecvBuf *rb, CallCtx *cc, bool *reply)
{
	const core::DecodeLimits lim;
	u32 dir, inv;
	core::V2Verdict v =
		core::v2_decode_msg(ConstBytes(rb->data, rb->len), lim, &cc->call, &dir, &inv);

	if (v == core::V2Verdict::Ok) {
		cc->vers = core::kRpcRdmaVersion2;
		cc->inv_handle = core::v2_handle_in(cc->call.chunks, inv) ? inv : 0;
		*reply = dir == core::kMsgReply;
		return true;
	}
	uncount_call(cc); /* before an error Reply can free a credit */
	if (v != core::V2Verdict::InvalidProc && dir == core::kMsgReply) {
		/* errors never flow from requester (we) to responder
		 * (Section 6.2.4) */
		drop_backward_reply(cc);
		return false;
	}
	settle(cc, v == core::V2Verdict::InvalidProc ? v2_control(rb)
						     : v2_refuse(rb, cc->call.xid, v));
	return false;
}

/* A version 2 message that is not a Call or a Reply; how it ended. */
Settle SvcConn::v2_control(RecvBuf *rb)
{
	const core::DecodeLimits lim;
	core::V2Error e;

	if (!v2_) {
		v2_ = new (Gfp::Kernel) core::V2Header;
		if (!v2_)
			return Settle::Dropped;
		count_allocs(1);
	}
	core::V2Verdict v = core::v2_decode(ConstBytes(rb->data, rb->len), lim, v2_);
	if (v != core::V2Verdict::Ok)
		return v2_refuse(rb, v2_->xid, v);
	switch (core::v2_responder_control(v2_, &e)) {
	case core::V2Control::ConnProp:
		stat_add(RPCRDMAX_SVC_STAT_CONNPROP_RECV);
		note_connprop(v2_->props);
		return Settle::NotCall;
	case core::V2Control::Drop:
		return Settle::Dropped;
	case core::V2Control::ReplyError:
		return v2_error(v2_->xid, e, "unsupported operation");
	}
	return Settle::Dropped;
}

/* A version 2 header that does not decode: the error its verdict calls
 * for, or dropped; how it ended. */
Settle SvcConn::v2_refuse(const RecvBuf *rb, u32 xid, core::V2Verdict v)
{
	const core::DecodeLimits lim;
	core::V2Error e;
	const rpcrdmax_decode_err which = v == core::V2Verdict::TooShort ? RPCRDMAX_DECODE_ERR_SHORT
					  : v == core::V2Verdict::InvalidProc ? RPCRDMAX_DECODE_ERR_BADPROC
									      : RPCRDMAX_DECODE_ERR_PARSE;

	if (tp_any(RPCRDMAX_TP_SVCRDMA_DECODE_ERRS))
		rpcrdmax_trace_svc_decode_err(which, rcq_.get(), rb->cqe.id(), rb->data, rb->len);
	if (core::v2_verdict_action(v, lim, &e) != core::V2Action::ReplyError)
		return Settle::Dropped;
	return v2_error(xid, e, core::v2_verdict_name(v));
}

Settle SvcConn::v2_error(u32 xid, const core::V2Error &e, const char *why)
{
	Settle how = sent(send_error(xid, false, &e, core::kRpcRdmaVersion2));
	stat_add(RPCRDMAX_SVC_STAT_ERR_V2);
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "version 2 message %08x: %s, error %u", xid,
				 why, e.code);
	return how;
}

/* RDMA2_CONNPROP (Section 5.3.1): the client's Receive size bounds our
 * inline Replies; unknown properties are ignored (Section 5.1.1). */
void SvcConn::note_connprop(const core::PropSet &props)
{
	u32 rbsiz;

	if (!core::v2_prop_rbsiz(props, &rbsiz))
		return;
	const u32 use = min(max(rbsiz, core::kPdMinInline), lim_.send_size);
	if (use != rbsiz)
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE,
					 "%pISc: Receive size %u from RDMA2_CONNPROP, using %u",
					 rpcrdmax_cm_peer_addr(id.get()), rbsiz, use);
	v2_rbsiz_.set((int)use);
}

void SvcConn::count_version(u32 vers)
{
	if (first_vers_.read() || first_vers_.cmpxchg(0, (int)vers) != 0)
		return;
	stat_add(vers == core::kRpcRdmaVersion2 ? RPCRDMAX_SVC_STAT_VERS2 : RPCRDMAX_SVC_STAT_VERS1);
	if (vers == core::kRpcRdmaVersion2)
		send_connprop();
}

/* Our RDMA2_CONNPROP, ahead of the first version 2 Reply (Section 5.3.1). */
void SvcConn::send_connprop()
{
	Result<void> r = connprop_post();

	if (r.is_ok())
		stat_add(RPCRDMAX_SVC_STAT_CONNPROP_SENT);
	else
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "%pISc: RDMA2_CONNPROP not sent: %d",
					 rpcrdmax_cm_peer_addr(id.get()), r.error().code());
}

Result<void> SvcConn::connprop_post()
{
	SendCtx *sc = get_send();

	if (!sc)
		return error(err::ENOMEM);
	auto enc = core::v2_encode_connprop(0, control_grant(), lim_.recv_size, false,
					    core::BkReqSup::None, Bytes(sc->data, sc->size));
	if (enc.is_error()) {
		put_send(sc);
		return enc.error();
	}
	return post_reply(sc, enc.value(), 0);
}

/* The largest Reply @cc may have sent inline. */
u32 SvcConn::reply_thr(const CallCtx *cc) const
{
	if (cc->vers == core::kRpcRdmaVersion2)
		return min((u32)v2_rbsiz_.read(), lim_.send_size);
	return min(thr_.reply, lim_.send_size);
}

/* A Call whose chunks do not serve: ERR_CHUNK in version 1, the version 2
 * error @code otherwise (RDMA2_ERR_REPLY_RESOURCE with @length_needed,
 * counted in rdma_stat_err_v2).  An error when it could not be sent. */
Result<void> SvcConn::chunk_error(const CallCtx *cc, core::V2ErrCode code, u32 length_needed)
{
	if (cc->vers != core::kRpcRdmaVersion2)
		return send_error(cc->call.xid, false);
	core::V2Error e = {};
	e.code = static_cast<u32>(code);
	e.length_needed = length_needed;
	stat_add(RPCRDMAX_SVC_STAT_ERR_V2);
	return send_error(cc->call.xid, false, &e, core::kRpcRdmaVersion2);
}

} // namespace rpcrdmax::svcrdma
