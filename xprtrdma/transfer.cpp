// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma/transfer.cpp - Sends and Receives on a connection: Send
 * buffers taken and retired (only some Sends are signaled), a Call's
 * REG_MRs and Send posted as one chain, backward Replies (RFC 8167), and
 * Receive completions handed to the Reply handler (marshal.cpp).  Receive
 * completions run in the receive CQ's workqueue, Send and LOCAL_INV
 * completions in the send CQ's.
 */
#include "xprtrdma.h"

namespace rpcrdmax::xprtrdma {

void SendBuf::done(Cqe *c, const ib_wc &wc)
{
	SendBuf *sb = static_cast<SendBuf *>(MsgBuf::from(c));
	sb->conn->send_done(sb, wc);
}

RPCRDMAX_HOT_ENTRY void Conn::send_done(SendBuf *sb, const ib_wc &wc)
{
	/* Only some Sends are signaled: this one frees its elders too. */
	sends_freed_.set_release(sb->taken + 1);
	space_freed();
	send_status(wc);
}

/*
 * A transmission found no Send buffer (@mr: no MR) free.  As stock's
 * transport does, sunrpc holds this transport's writers
 * (XPRT_WRITE_SPACE) and -EAGAIN sends the message again once
 * space_freed() wakes them: a Send's completion, an MR coming back, or
 * the refill.  One freed between the failed take and space_wanted_ is
 * seen by the look after the barrier (space_freed() orders its side the
 * same way), so no wake is lost.
 */
Result<void> Conn::wait_for_space(bool mr)
{
	ep_->stats.add(ClntStat::EmptySendctx);
	rpcrdmax_xprt_wait_for_space(ep_->xprt_);
	space_wanted_.set_release(1);
	full_barrier();
	if (mr ? mr_free() : sends_busy() < nsends_)
		space_freed();
	return error(err::EAGAIN);
}

/* Send buffers or MRs were freed: the writers waiting for one go on. */
void Conn::space_freed()
{
	full_barrier();
	if (space_wanted_.read() && space_wanted_.exchange(0))
		rpcrdmax_xprt_write_space(ep_->xprt_);
}

/* A Send's completion status: an error (but a flush) is counted and
 * logged, and any failure loses the connection. */
void Conn::send_status(const ib_wc &wc)
{
	if (wc_ok(wc, "Send"))
		return;
	if (wc_status(wc) != RPCRDMAX_IB_WC_WR_FLUSH_ERR)
		ep_->stats.add(ClntStat::SendErrors);
	lost();
}

/*
 * The next Send buffer of the ring, or null when all are in flight;
 * *@signal says whether its Send is to be signaled: every kSendBatch-th,
 * and always when buffers run low, so a completion is on its way before
 * they run out.  Only transmissions call it (see sends_).
 */
SendBuf *Conn::take_send(bool *signal)
{
	const u32 busy = sends_busy();

	if (busy >= nsends_)
		return nullptr;
	SendBuf *sb = &sends_[send_slot_];
	send_slot_ = send_slot_ + 1 == nsends_ ? 0 : send_slot_ + 1;
	sb->taken = sends_taken_++;
	*signal = ++since_signal_ >= kSendBatch || nsends_ - busy - 1 < kSendBatch;
	return sb;
}

/* Give back @sb, the last buffer taken, whose Send was never posted. */
void Conn::untake_send(SendBuf *sb)
{
	RPCRDMAX_WARN_ON(sb->taken + 1 != sends_taken_);
	sends_taken_--;
	send_slot_ = (u32)(sb - sends_);
}

/*
 * Post wrs_[0, @n) (REG_MRs, unsignaled) and then the Send of @len
 * octets from @sb, as one chain; @rqst: the message's.
 */
Result<void> Conn::post_send_chain(rpc_rqst *rqst, SendBuf *sb, u32 len, bool signal,
				   unsigned int n)
{
	sb->sge = sb->sge_for_device(pd_.local_dma_lkey());
	sb->sge.length = len;
	sb->wr.send(&sb->sge, 1, signal ? sb->cqe.raw() : nullptr);
	sb->wr.set_next(nullptr);
	for (unsigned int i = 0; i < n; i++)
		wrs_[i]->set_next(i + 1 < n ? wrs_[i + 1] : &sb->wr);

	if (signal)
		since_signal_ = 0;
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_POST_SEND))
		rpcrdmax_trace_post_send(rqst, scq_.get(), sb->cqe.id(), 1, signal);
	Wr *bad;
	Result<void> r = id.post(n ? wrs_[0] : &sb->wr, &bad);
	if (r.is_error()) {
		if (tp_on(RPCRDMAX_TP_XPRTRDMA_POST_SEND_ERR))
			rpcrdmax_trace_post_send_err(rqst, scq_.get(), r.error().code());
		/* Some WRs may be on the QP: the connection is reset and the
		 * drain retires them.  The Send buffer comes back only if its
		 * WR (the last) was not posted: the driver named it or one
		 * before it. */
		if (bad)
			untake_send(sb);
		return error(err::ENOTCONN);
	}
	return {};
}

Result<void> Conn::send(rpc_rqst *rqst, u32 xid)
{
	Req *req = Req::from_call_buffer(rqst_buffer(rqst));
	bool signal;

	/* ClntEp::transmit resets the connection rather than retransmit
	 * on it, except after ERR_VERS (whose handling invalidated the MRs),
	 * and a reconnect detaches old MRs: a request arrives here without
	 * any. */
	if (RPCRDMAX_WARN_ON(!req->mrs.empty()))
		return error(err::ENOTCONN);
	/* sunrpc set the Reply buffer up again when it encoded the Call */
	req->give_back_if_lent();
	SendBuf *sb = take_send(&signal);
	if (!sb)
		return wait_for_space(false);
	u32 len = 0;
	unsigned int n = 0;
	auto m = marshal(req, rqst, xid, sb, &len, wrs_, &n);
	if (m.is_error()) {
		if (tp_on(RPCRDMAX_TP_XPRTRDMA_MARSHAL_FAILED))
			rpcrdmax_trace_marshal_failed(rqst, m.error().code());
		untake_send(sb);
		return m.error();
	}
	return post_send_chain(rqst, sb, len, signal, n);
}

/*
 * The largest backward message's RPC part: we take and send backward
 * messages inline only (see Conn::backward_call), so a chunkless header
 * and the message fit both inline thresholds and our buffers.
 */
u32 Conn::bc_max_payload(u32 vers) const
{
	return min(min(thresholds.call, thresholds.reply), min(send_size, recv_size)) -
	       core::min_header_size(vers);
}

/* Send the Reply to a backward Call: an inline, chunkless RDMA_MSG. */
Result<void> Conn::bc_send(rpc_rqst *rqst, u32 xid, u32 len)
{
	bool signal;
	const u32 vers = (u32)bc_vers_.read();
	const bool v2 = vers == core::kRpcRdmaVersion2;

	if (len > bc_max_payload(vers))
		return error(err::EMSGSIZE);
	SendBuf *sb = take_send(&signal);
	if (!sb)
		return wait_for_space(false);
	/* rdma_credit: the backward Calls we take at once.  In the version
	 * the server's backward Calls use (draft Section 7.3). */
	auto enc = v2 ? core::v2_encode_inline_msg(xid, kBcSlots, core::kMsgReply,
							Bytes(sb->data, send_size))
			   : core::v1_encode_inline_msg(xid, kBcSlots, Bytes(sb->data, send_size));
	if (enc.is_error() ||
	    rpcrdmax_xprt_rqst_snd_copy_range(rqst, 0, len, sb->data + enc.value(),
					      send_size - enc.value()) < 0) {
		untake_send(sb);
		return error(err::EMSGSIZE);
	}
	RPCRDMAX_TRY(post_send_chain(rqst, sb, enc.value() + len, signal, 0));
	ep_->stats.add(ClntStat::BcReplies);
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_CB_REPLY))
		rpcrdmax_trace_cb(ep_->xprt_, xid, true);
	return {};
}

/* ---- receive ---------------------------------------------------------- */

void RecvBuf::done(Cqe *c, const ib_wc &wc)
{
	RecvBuf *rb = static_cast<RecvBuf *>(MsgBuf::from(c));
	rb->conn->recv_done(rb, wc);
}

RPCRDMAX_HOT_ENTRY void Conn::recv_done(RecvBuf *rb, const ib_wc &wc)
{
	if (!wc_ok(wc, "Receive")) {
		lost(); /* the buffer stays idle */
		return;
	}
	rb->map.sync_for_cpu();
	if (handle_reply(rb, wc_byte_len(wc), wc) && post_recv(rb).is_error())
		lost();
}

} // namespace rpcrdmax::xprtrdma
