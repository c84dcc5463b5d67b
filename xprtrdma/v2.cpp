// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma/v2.cpp - RPC-over-RDMA Version Two on the client, as
 * draft-cel-nfsv4-rpcrdma-version-two-04 describes it (an expired
 * Internet-Draft: Documentation/v2.rst).
 *
 * Negotiation (Section 7): while /proc/sys/sunrpc/rdma_max_version is 2
 * and this transport has not learnt otherwise, a new connection's first
 * Call goes as version 2, no larger than 1024 octets, with one credit
 * until a non-error message grants more (sunrpc's congestion window
 * starts at one).
 *  - A version 2 Reply or RDMA2_CONNPROP settles version 2 (Section 7.1;
 *    a server that drops the Call still sends its RDMA2_CONNPROP): we
 *    send ours and use the server's Receive size - its RDMA2_CONNPROP
 *    RBSIZ, else its RFC 8797 private data, else the draft's 4096
 *    (Sections 2.3, 5.2.1).
 *  - ERR_VERS naming version 1 (Section 7.2; a version 1 server's own
 *    error, which the stock server sends with the Call's rdma_vers 2)
 *    settles version 1 on this same connection: the Call completes with
 *    -EAGAIN, which sunrpc answers by encoding and transmitting it again,
 *    and transmit lets it go on this connection, now as version 1.
 *  - The transport remembers version 1 after ERR_VERS, and after
 *    kV2CutOffs connections in a row lost before their first version 2
 *    Call was answered, so a reconnect does not negotiate again
 *    (Section 7.2; ClntEp::close).
 *
 * Replies (Sections 6.2.2-6.2.4): RDMA2_MSG and RDMA2_NOMSG are decoded
 * into the version 1 view and handled as version 1 Replies are, with
 * rdma_direction telling Replies from backward Calls; Send With
 * Invalidate must name the handle the Call offered in rdma_inv_handle.
 * An RDMA2_ERROR ends its RPC with -EIO and a log line naming the error:
 * each is permanent for that RPC (we size every chunk for the largest
 * Reply sunrpc allows, so more resources would not help).
 *
 * Other messages from the server (Section 5.3): RDMA2_CONNPROP (or
 * RDMA2_OPTIONAL opttype 1) is noted; the property operations we do not
 * take (REQPROP, RESPROP, UPDPROP) and unknown RDMA2_OPTIONAL types are
 * answered with RDMA2_ERR_INVAL_OPTION, as Section 5.3 requires of a
 * receiver, and counted; a header that does not decode is dropped and
 * counted as a bad reply.
 */
#include "xprtrdma.h"

namespace rpcrdmax::xprtrdma {

/* Our RDMA2_CONNPROP's XID: it is no RPC's, and nothing answers it. */
inline constexpr u32 kConnPropXid = 0;

void CtlBuf::done(Cqe *c, const ib_wc &wc)
{
	CtlBuf *cb = static_cast<CtlBuf *>(MsgBuf::from(c));
	cb->conn->ctl_done(wc);
}

void Conn::ctl_done(const ib_wc &wc)
{
	ctl_.busy.set(0);
	send_status(wc);
}

/*
 * Send a control message that @encode writes into the control buffer
 * (returning its length).  Any context: its own buffer and a signaled
 * Send of its own, so it never touches the RPCs' Send bookkeeping.
 * -EBUSY while the previous one is in flight.
 */
template <typename Encode> Result<void> Conn::post_control(Encode encode)
{
	if (ctl_.busy.cmpxchg(0, 1) != 0)
		return error(err::EBUSY);
	Result<u32> enc = encode(Bytes(ctl_.data, ctl_.size));
	if (enc.is_error()) {
		ctl_.busy.set(0);
		return enc.error();
	}
	rpcrdmax_sge sge = ctl_.sge_for_device(pd_.local_dma_lkey());
	sge.length = enc.value();
	WrSpec wr = {};
	wr.cqe = ctl_.cqe.raw();
	wr.opcode = RPCRDMAX_WR_SEND;
	wr.sge = &sge;
	wr.num_sge = 1;
	unsigned int bad;
	Result<void> r = id.post_send(&wr, 1, &bad);
	if (r.is_error()) {
		ctl_.busy.set(0);
		lost();
	}
	return r;
}

/*
 * RFC 8167 Section 5.3: a backward Call with a non-empty chunk list, to
 * a responder that does not take chunks (we take backward messages
 * inline only: Conn::backward_call), MUST get an RDMA_ERROR with
 * ERR_CHUNK.  In version 2 that is RDMA2_ERR_BAD_XDR, the same code
 * (draft Section 6.2.4, where error handling "works the same way").
 * rdma_vers is the Call's, rdma_credit our backward credits.  The Call
 * reaches no service: it counts as dropped.  While another control
 * message is in flight the answer is not sent, and the log says so.
 */
void Conn::refuse_backward_chunks(u32 xid, u32 vers)
{
	ep_->stats.add(ClntStat::BcDropped);
	auto r = post_control([&](Bytes out) -> Result<u32> {
		if (vers == core::kRpcRdmaVersion2) {
			core::V2Error e = {};
			e.code = (u32)core::V2ErrCode::BadXdr;
			return core::v2_encode_error(xid, vers, kBcSlots, e, out);
		}
		return core::v1_encode_err_chunk(xid, kBcSlots, out);
	});
	if (r.is_error())
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE,
					 "dropped a backward Call (XID %08x): chunks, and no "
					 "ERR_CHUNK could be sent (%d)",
					 xid, r.error().code());
	else
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE,
					 "answered a backward Call (XID %08x) with ERR_CHUNK: "
					 "chunks in a backward message",
					 xid);
}

/* The inline thresholds for the next Call, which goes in version @vers. */
core::InlineThresholds Conn::call_thresholds(u32 vers) const
{
	if (vers != core::kRpcRdmaVersion2)
		return thresholds;
	/* Section 7: the first message must fit a version 1 server's 1024. */
	if (!v2_confirmed())
		return { core::kPdMinInline, recv_size };
	/* both already within [kPdMinInline, send_size] (note_connprop, connect) */
	const u32 rbsiz = (u32)peer_rbsiz_.read();
	return { rbsiz ? rbsiz : v2_peer_recv_, recv_size };
}

/* The first version 2 Call went out and nothing answered it yet. */
bool Conn::v2_unanswered() const
{
	return offer_v2_ && v2_sent_.read() && !v2_confirmed() &&
	       call_vers() == core::kRpcRdmaVersion2;
}

/* Count this connection once, by the version it settled on. */
void Conn::count_version(u32 vers)
{
	if (vers_counted_.cmpxchg(0, 1) != 0)
		return;
	ep_->stats.add(vers == core::kRpcRdmaVersion2 ? ClntStat::Vers2Conns : ClntStat::Vers1Conns);
	rpcrdmax_clnt_count_version(vers);
}

/* The first non-error version 2 message: version 2 is settled (Section
 * 7.1).  Tell the server our properties (Section 5.3.1). */
void Conn::v2_confirm()
{
	if (v2_confirmed_.read() || v2_confirmed_.cmpxchg(0, 1) != 0)
		return;
	ep_->v2_probe(false);
	ep_->v2_settled();
	count_version(core::kRpcRdmaVersion2);
	auto r = post_control([&](Bytes out) {
		return core::v2_encode_connprop(kConnPropXid, kBcSlots, recv_size, true,
						core::BkReqSup::Inline, out);
	});
	if (r.is_error())
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "could not send RDMA2_CONNPROP: %d",
					 r.error().code());
}

/* RDMA2_CONNPROP (Section 5.3.1): the server's Receive size bounds our
 * inline Calls; unknown properties are ignored (Section 5.1.1). */
void Conn::note_connprop(const core::PropSet &props)
{
	u32 rbsiz;

	if (!core::v2_prop_rbsiz(props, &rbsiz))
		return;
	const u32 use = min(max(rbsiz, core::kPdMinInline), send_size);
	if (use != rbsiz)
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE,
					 "server's Receive size %u from RDMA2_CONNPROP, using %u",
					 rbsiz, use);
	peer_rbsiz_.set((int)use);
}

/*
 * ERR_VERS for our Call @xid (Section 7.2).  With version 1 in the
 * server's range the Call goes again in version 1 on this connection,
 * and the transport keeps to version 1; otherwise there is no version
 * in common and the RPC fails.
 */
void Conn::v2_err_vers(ConstBytes raw, u32 xid, u32 low, u32 high)
{
	rpc_rqst *rqst = rpcrdmax_xprt_lookup_pin(ep_->xprt_, xid);

	if (!rqst) {
		reply_err(RPCRDMAX_REPLY_ERR_RQST, raw);
		return;
	}
	Req *req = Req::from_call_buffer(rqst_buffer(rqst));
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_ERR_VERS))
		rpcrdmax_trace_err_vers(rqst, low, high);
	req->reset_reply();
	if (low <= core::kRpcRdmaVersion1 && core::kRpcRdmaVersion1 <= high) {
		calls_vers_.set((int)core::kRpcRdmaVersion1);
		count_version(core::kRpcRdmaVersion1);
		ep_->remember_v1("it answered ERR_VERS");
		req->reply_status = -err::EAGAIN;
		req->resend_ok = true;
	} else {
		req->reply_status = -err::EIO;
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING,
					 "server speaks RPC-over-RDMA versions %u-%u only", low, high);
	}
	(void)complete(req, rqst);
}

/* An RDMA2_ERROR other than ERR_VERS: its RPC fails (Section 6.2.4). */
void Conn::v2_error(ConstBytes raw)
{
	const core::DecodeLimits lim;
	core::V2Header &h = *v2hdr_;
	core::V2Verdict v = core::v2_decode(raw, lim, &h);

	if (v != core::V2Verdict::Ok) {
		ep_->stats.add(ClntStat::BadReply);
		reply_err(RPCRDMAX_REPLY_ERR_HDR, raw);
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "dropped an RDMA2_ERROR: %s",
					 core::v2_verdict_name(v));
		return;
	}
	if (v2_confirmed())
		update_grant(h.credits);
	rpc_rqst *rqst = rpcrdmax_xprt_lookup_pin(ep_->xprt_, h.xid);
	if (!rqst) {
		if (h.xid == kConnPropXid && h.error.code == (u32)core::V2ErrCode::InvalidOption) {
			rpcrdmax_log_ratelimited(RPCRDMAX_LOG_INFO,
						 "server does not take RDMA2_CONNPROP");
			return;
		}
		reply_err(RPCRDMAX_REPLY_ERR_RQST, raw);
		return;
	}
	Req *req = Req::from_call_buffer(rqst_buffer(rqst));
	ep_->stats.add(ClntStat::V2Errors);
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_ERR_UNRECOGNIZED))
		rpcrdmax_trace_err_unrecognized(rqst, h.error.code);
	const core::V2Error &e = h.error;
	const u32 detail = e.code == (u32)core::V2ErrCode::ReadChunks ||
					   e.code == (u32)core::V2ErrCode::WriteChunks
				   ? e.max_chunks
			   : e.code == (u32)core::V2ErrCode::Segments ? e.max_segments
								       : e.length_needed;
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "XID %08x failed: server answered %s (%u)",
				 h.xid, core::v2_err_name(e.code), detail);
	req->reset_reply();
	req->reply_status = -err::EIO;
	(void)complete(req, rqst);
}

/* A version 2 message that is not a Call, a Reply or an error
 * (Sections 5.3, 6.2.4). */
void Conn::v2_control(ConstBytes raw)
{
	const core::DecodeLimits lim;
	core::V2Header &h = *v2hdr_;
	core::V2Verdict v = core::v2_decode(raw, lim, &h);
	core::V2Error e;

	if (v != core::V2Verdict::Ok) {
		ep_->stats.add(ClntStat::BadReply);
		reply_err(RPCRDMAX_REPLY_ERR_HDR, raw);
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING,
					 "dropped a version 2 message (rdma_proc %u): %s",
					 raw.size() >= 16 ? load_be32(raw.data() + 12) : 0u,
					 core::v2_verdict_name(v));
		return;
	}
	switch (core::v2_responder_control(&h, &e)) {
	case core::V2Control::ConnProp:
		note_connprop(h.props);
		/* A server that drops our first Call still sends this:
		 * it takes version 2 (Section 7.1). */
		v2_confirm();
		update_grant(h.credits);
		return;
	case core::V2Control::Drop: /* not reached: errors go to v2_error() */
		return;
	case core::V2Control::ReplyError:
		break;
	}
	ep_->stats.add(ClntStat::V2Refused);
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE,
				 "server sent rdma_proc %u (opttype %u), which we do not take: "
				 "answering %s",
				 (u32)h.proc, h.opttype, core::v2_err_name(e.code));
	const u32 xid = h.xid;
	auto r = post_control([&](Bytes out) {
		return core::v2_encode_error(xid, core::kRpcRdmaVersion2, kBcSlots, e, out);
	});
	if (r.is_error())
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "could not answer it: %d",
					 r.error().code());
}

/*
 * A version 2 message with rdma_proc @proc on a connection whose first
 * Call offered version 2 (ERR_VERS is handled before, whatever its
 * rdma_vers).  True when @rb may be reposted now.
 */
bool Conn::v2_message(RecvBuf *rb, ConstBytes raw, const ib_wc &wc, core::V2Proc proc)
{
	Counters &st = ep_->stats;

	if (call_vers() != core::kRpcRdmaVersion2) {
		/* We went back to version 1 (ERR_VERS): the server must too. */
		st.add(ClntStat::BadReply);
		reply_err(RPCRDMAX_REPLY_ERR_VERS, raw);
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING,
					 "dropped a version 2 message on a version 1 connection");
		return true;
	}
	if (proc == core::V2Proc::Error) {
		v2_error(raw);
		return true;
	}
	if (proc != core::V2Proc::Msg && proc != core::V2Proc::NoMsg) {
		v2_control(raw);
		return true;
	}
	core::V1Header &h = recv_hdr_;
	u32 dir, inv;
	core::V2Verdict v = core::v2_decode_msg(raw, core::DecodeLimits(), &h, &dir, &inv);
	const u8 *msg = rb->data + h.hdr_len;
	/* Section 6.2.2: rdma_direction is the RPC message's msg_type. */
	if (v == core::V2Verdict::Ok && h.proc == core::V1Proc::Msg &&
	    (h.payload_len < 8 || load_be32(msg + 4) != dir))
		v = core::V2Verdict::BadXdr;
	if (v != core::V2Verdict::Ok) {
		st.add(ClntStat::BadReply);
		reply_err(RPCRDMAX_REPLY_ERR_HDR, raw);
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "dropped a version 2 message: %s",
					 core::v2_verdict_name(v));
		return true;
	}
	if (dir == core::kMsgCall) {
		bc_vers_.set((int)core::kRpcRdmaVersion2);
		st.add(ClntStat::BcV2Calls);
		backward_call(h, msg);
		return true;
	}
	v2_confirm();
	return forward_reply(rb, raw, wc, h);
}

} // namespace rpcrdmax::xprtrdma
