// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma/endpoint.cpp - the client endpoint behind one sunrpc transport:
 * connecting, Sends and Receives, per-request buffers, statistics.
 *
 * Life cycle: one Conn per connection, made by connect() in the connect
 * worker and destroyed by close() after its QP is drained, so no
 * completion can touch a freed buffer.  sunrpc serializes send() with
 * close() (both hold the transport's write lock).  Receive completions
 * run in the receive CQ's workqueue; Send and LOCAL_INV completions in
 * the send CQ's.  Both end before the drain returns.  buf_free() takes
 * the endpoint mutex, so it never races close() over a request's MRs.
 */
#include "xprtrdma.h"

namespace rpcrdmax::xprtrdma {

/* Each request's allocation: Req, then its Call and Reply buffers. */
inline constexpr u32 kReqHeader = (u32)round_up<size_t>(sizeof(Req), 64);

Req *Req::from_call_buffer(void *call)
{
	return reinterpret_cast<Req *>(static_cast<u8 *>(call) - kReqHeader);
}

/* ---- connection ------------------------------------------------------- */

Conn::~Conn()
{
	/* Everything posted completes (or flushes) before anything goes.
	 * (No id when its creation failed: nothing was posted.) */
	if (id.get() && id.qp())
		id.drain();
	frwr_detach_all();
	delete v2hdr_;
	delete[] mrs_;
	delete[] recvs_;
	delete[] sends_;
}

/*
 * The credits to ask for: the transport's slot table, at least
 * kMinRequests, and no more than @attrs's queues and CQs hold in the
 * worst case: send_wrs() on the Send side, a Receive per credit and
 * backward slot.  0 when not even that fits.
 */
static u32 max_requests(void *xprt, const rpcrdmax_dev_attrs &attrs)
{
	const u32 room = min(attrs.max_qp_wr, attrs.max_cqe);
	const u32 per_credit = send_wrs(1) - kMrPool;
	u32 reqs = max(xprt_max_reqs(xprt), kMinRequests);

	/* (Then reqs + kBcSlots Receives fit too: per_credit exceeds 1.) */
	if (room < kMrPool + per_credit * kMinRequests)
		return 0;
	return min(reqs, (room - kMrPool) / per_credit);
}

int Conn::cm_event(CmId *, const rpcrdmax_cm_event_info &ev)
{
	switch (ev.event) {
	case RPCRDMAX_CM_ADDR_RESOLVED:
		if (id.resolve_route(kResolveMs).is_error())
			fail(RPCRDMAX_CM_ROUTE_ERROR);
		break;
	case RPCRDMAX_CM_ROUTE_RESOLVED:
		resolved_.complete_all();
		break;
	case RPCRDMAX_CM_ESTABLISHED:
		peer_pd_len_ = min<u32>(ev.private_data_len, sizeof(peer_pd_));
		if (ev.private_data && peer_pd_len_)
			mem_copy(peer_pd_, ev.private_data, peer_pd_len_);
		connected_.set(1);
		established_.complete_all();
		break;
	case RPCRDMAX_CM_DISCONNECTED:
	case RPCRDMAX_CM_DEVICE_REMOVAL:
	case RPCRDMAX_CM_ADDR_CHANGE:
		/* Before ESTABLISHED: the connect in progress fails at once. */
		if (!connected_.read())
			fail(ev.event);
		lost();
		break;
	case RPCRDMAX_CM_TIMEWAIT_EXIT:
	case RPCRDMAX_CM_OTHER:
		break;
	default: /* address, route or connection errors, rejection */
		fail(ev.event);
		lost();
		break;
	}
	return 0;
}

/* The connect failed with CM event @event: whichever wait_event() is
 * waiting wakes up and reports it (the first failure is the one told). */
void Conn::fail(int event)
{
	fail_event_.cmpxchg(-1, event);
	resolved_.complete_all();
	established_.complete_all();
}

/* The connection is gone: sunrpc closes the transport and reconnects. */
void Conn::lost()
{
	if (lost_.cmpxchg(0, 1) == 0 && connected_.read())
		rpcrdmax_xprt_force_disconnect(ep_->xprt_);
}

/*
 * Wait up to @ms for @c, which its CM event completes, or for a failure
 * (fail() completes it too); the errno tells which (stock's choices:
 * ENODEV for a removed device or a changed address, ECONNABORTED for a
 * disconnect before the connection was up).
 */
Result<void> Conn::wait_event(Completion *c, unsigned int ms)
{
	const bool done = c->wait_ms(ms);

	switch (fail_event_.read()) {
	case -1:
		return done ? Result<void>{} : error(err::ETIMEDOUT);
	case RPCRDMAX_CM_REJECTED:
		return error(err::ECONNREFUSED);
	case RPCRDMAX_CM_ROUTE_ERROR:
		return error(err::ENETUNREACH);
	case RPCRDMAX_CM_DEVICE_REMOVAL:
	case RPCRDMAX_CM_ADDR_CHANGE:
		return error(err::ENODEV);
	case RPCRDMAX_CM_DISCONNECTED:
		return error(err::ECONNABORTED);
	case RPCRDMAX_CM_ADDR_ERROR:
	case RPCRDMAX_CM_UNREACHABLE:
	case RPCRDMAX_CM_CONNECT_ERROR:
	default:
		return error(err::EHOSTUNREACH);
	}
}

const char *Conn::fail_reason() const
{
	switch (fail_event_.read()) {
	case -1: return "no CM event in time";
	case RPCRDMAX_CM_ADDR_ERROR: return "address error";
	case RPCRDMAX_CM_ROUTE_ERROR: return "route error";
	case RPCRDMAX_CM_CONNECT_ERROR: return "connect error";
	case RPCRDMAX_CM_UNREACHABLE: return "unreachable";
	case RPCRDMAX_CM_REJECTED: return "rejected";
	case RPCRDMAX_CM_DISCONNECTED: return "disconnected";
	case RPCRDMAX_CM_DEVICE_REMOVAL: return "device removal";
	case RPCRDMAX_CM_ADDR_CHANGE: return "address change";
	default: return "unexpected CM event";
	}
}

/* Map a Send or Receive buffer; a failure fires xprtrdma_dma_maperr. */
/* Make @b (@len octets for @dir, cid @id); xprtrdma_dma_maperr when its
 * mapping failed. */
static Result<void> make_buf(MsgBuf &b, void *dev, u32 len, int dir, int id)
{
	auto r = b.make(dev, len, dir, id);

	if (b.map_failed(r))
		rpcrdmax_trace_dma_maperr(b.map.dma());
	return r;
}

Result<void> Conn::post_recv(RecvBuf *rb)
{
	rpcrdmax_sge sge = rb->sge_for_device(pd_.local_dma_lkey());
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_POST_RECV))
		rpcrdmax_trace_post_recv(rcq_.get(), rb->cqe.id());
	Result<void> r = id.post_recv(&rb->cqe, &sge, 1);
	if (r.is_error())
		rpcrdmax_trace_post_recvs_err(ep_->xprt_, rcq_.get(), r.error().code());
	return r;
}

Result<void> Conn::setup(const void *addr, unsigned int addrlen, bool offer_v2)
{
	SockAddr sa;

	if (addrlen > sizeof(sa.raw.bytes))
		return error(err::EINVAL);
	mem_set(sa.raw.bytes, 0, sizeof(sa.raw.bytes));
	mem_copy(sa.raw.bytes, addr, addrlen);

	stage = "resolving";
	RPCRDMAX_TRY(id.create(this, rpcrdmax_xprt_net(ep_->xprt_)));
	RPCRDMAX_TRY(id.resolve_addr(sa, kResolveMs));
	RPCRDMAX_TRY(wait_resolved(2 * kResolveMs + 1000));
	stage = "setting up";

	void *dev = id.device();
	rpcrdmax_dev_attrs attrs;
	RPCRDMAX_TRY(check(rpcrdmax_ib_query_device(dev, &attrs)));
	if (!attrs.mem_mgt_extensions) {
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_ERR, "%s cannot do FRWR",
					 rpcrdmax_ib_device_name(dev));
		return error(err::EOPNOTSUPP);
	}
	const u32 max_reqs = max_requests(ep_->xprt_, attrs);
	const u32 nsends = send_bufs(max_reqs), nrecvs = max_reqs + kBcSlots;
	const u32 nwrs = send_wrs(max_reqs) + 1; /* and the control Send (v2.cpp) */
	if (max_reqs < kMinRequests)
		return error(err::ENOMEM);
	const QueueSizes qs = { nwrs, nrecvs, nwrs, nrecvs, 1, 1, 0 };
	RPCRDMAX_TRY(rdma::make_queues(id, pd_, scq_, rcq_, qs));
	RPCRDMAX_TRY(frwr_setup(dev, min(kPagesPerMr, attrs.max_fast_reg_page_list_len)));

	/* Inline sizes from /proc/sys/sunrpc/rdma_max_inline_{write,read},
	 * as RFC 8797 can express them (multiples of 1 KiB). */
	send_size = core::pd_effective_size(min(rpcrdmax_tunable_inline_write(), kMaxInline));
	recv_size = core::pd_effective_size(min(rpcrdmax_tunable_inline_read(), kMaxInline));
	sends_ = new (Gfp::Kernel) SendBuf[nsends];
	recvs_ = new (Gfp::Kernel) RecvBuf[nrecvs];
	if (!sends_ || !recvs_)
		return error(err::ENOMEM);
	for (auto &sb : Span<SendBuf>(sends_, nsends)) {
		sb.conn = this;
		RPCRDMAX_TRY(make_buf(sb, dev, send_size, RPCRDMAX_DMA_TO_DEVICE,
				      (int)(&sb - sends_)));
		free_sends_.push_back(&sb);
		free_count_++;
	}
	for (auto &rb : Span<RecvBuf>(recvs_, nrecvs)) {
		rb.conn = this;
		RPCRDMAX_TRY(make_buf(rb, dev, recv_size, RPCRDMAX_DMA_FROM_DEVICE,
				      (int)(&rb - recvs_)));
		RPCRDMAX_TRY(post_recv(&rb));
	}
	rpcrdmax_trace_post_recvs(ep_->xprt_, rcq_.get(), nrecvs, (int)nrecvs);
	ctl_.conn = this;
	RPCRDMAX_TRY(make_buf(ctl_, dev, kCtlSize, RPCRDMAX_DMA_TO_DEVICE, (int)nsends));
	offer_v2_ = offer_v2;
	if (offer_v2) {
		v2hdr_ = new (Gfp::Kernel) core::V2Header;
		if (!v2hdr_)
			return error(err::ENOMEM);
		calls_vers_.set((int)core::kRpcRdmaVersion2);
	}

	/* RFC 8797: our buffer sizes, and R set (every MR is FRWR). */
	u8 pd[core::kPdSize];
	const core::PrivData ours = { send_size, recv_size, true };
	u32 pdlen = RPCRDMAX_TRY(core::pd_encode(ours, Bytes(pd, sizeof(pd))));
	u32 rd = min<u32>(attrs.max_qp_init_rd_atom, 16);
	stage = "connecting";
	RPCRDMAX_TRY(id.connect(ConstBytes(pd, pdlen), rd, 6));
	RPCRDMAX_TRY(wait_established(kConnectMs));
	stage = "connected";

	core::PrivData peer; /* absent: v1 defaults */
	if (core::pd_decode(ConstBytes(peer_pd_, peer_pd_len_), &peer) == core::PdVerdict::Found)
		v2_peer_recv_ = peer.recv_size; /* else the draft's 4096 */
	thresholds = core::pd_thresholds(ours, peer);
	if (!offer_v2)
		count_version(core::kRpcRdmaVersion1);
	rpcrdmax_trace_inline_thresh(id.get(), thresholds.call, thresholds.reply,
				     min(thresholds.call, send_size), min(thresholds.reply, recv_size));
	/* Credits are the connection's (RFC 5666 Section 3.3; RFC 8166
	 * Section 3.3.1): a Call still waiting for its Reply from the last
	 * one takes a new slot, within this one's grant of one until the
	 * first Reply, as any other Call does. */
	core::credits_requester_init(&credits_, max_reqs);
	rpcrdmax_xprt_reset_cong(ep_->xprt_);
	return {};
}

/* ---- transmit --------------------------------------------------------- */

void SendBuf::done(Cqe *c, const rpcrdmax_wc &wc)
{
	SendBuf *sb = static_cast<SendBuf *>(MsgBuf::from(c));
	sb->conn->send_done(sb, wc);
}

void Conn::send_done(SendBuf *sb, const rpcrdmax_wc &wc)
{
	{
		/* Only some Sends are signaled: this one retires its elders. */
		SpinLockBhGuard g(&free_lock_);
		posted_sends_.retire(sb, [&](SendBuf *done) {
			free_sends_.push_back(done);
			free_count_++;
		});
	}
	send_status(wc);
}

/* A Send's completion status: an error (but a flush) is counted and
 * logged, and any failure loses the connection. */
void Conn::send_status(const rpcrdmax_wc &wc)
{
	if (wc.status != RPCRDMAX_IB_WC_SUCCESS) {
		if (wc.status != RPCRDMAX_IB_WC_WR_FLUSH_ERR) {
			ep_->stats.send_errors.add_return(1);
			rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "Send failed: %s (vendor %u)",
						 rpcrdmax_ib_wc_status_msg(wc.status),
						 wc.vendor_err);
		}
		lost();
	}
}

/*
 * A free Send buffer, or null; *@signal says whether its Send is to be
 * signaled: every kSendBatch-th, and always when buffers run low, so a
 * completion is on its way before they run out.
 */
SendBuf *Conn::take_send(bool *signal)
{
	SpinLockBhGuard g(&free_lock_);
	SendBuf *sb = free_sends_.pop_front();

	if (sb)
		free_count_--;
	*signal = ++since_signal_ >= kSendBatch || free_count_ < kSendBatch;
	return sb;
}

/* Give back a Send buffer whose Send was never posted. */
void Conn::untake_send(SendBuf *sb)
{
	SpinLockBhGuard g(&free_lock_);
	free_sends_.push_back(sb);
	free_count_++;
}

/*
 * Post wrs_[0, @n) (REG_MRs, unsignaled) and then the Send of @len
 * octets from @sb, in chains the shim accepts; @rqst: the message's.
 */
Result<void> Conn::post_send_chain(void *rqst, SendBuf *sb, u32 len, bool signal,
				   unsigned int n)
{
	rpcrdmax_sge sge = sb->sge_for_device(pd_.local_dma_lkey());
	sge.length = len;
	rpcrdmax_send_wr &wr = wrs_[n++];
	wr = {};
	wr.cqe = signal ? sb->cqe.raw() : nullptr;
	wr.opcode = RPCRDMAX_WR_SEND;
	wr.sge = &sge;
	wr.num_sge = 1;

	{
		SpinLockBhGuard g(&free_lock_);
		posted_sends_.posted(sb);
		if (signal)
			since_signal_ = 0;
	}
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_POST_SEND))
		rpcrdmax_trace_post_send(rqst, scq_.get(), sb->cqe.id(), (int)wr.num_sge, signal);
	for (unsigned int i = 0; i < n; i += RPCRDMAX_MAX_WR_CHAIN) {
		unsigned int bad, batch = min<unsigned int>(n - i, RPCRDMAX_MAX_WR_CHAIN);
		Result<void> r = id.post_send(wrs_ + i, batch, &bad);
		if (r.is_error()) {
			rpcrdmax_trace_post_send_err(rqst, scq_.get(), r.error().code());
			/* Some WRs may be on the QP: the connection is reset
			 * and the drain retires them.  The Send buffer comes
			 * back only if its WR (the last) never got posted. */
			if (i + bad <= n - 1) {
				{
					SpinLockBhGuard g(&free_lock_);
					posted_sends_.unpost(sb);
				}
				untake_send(sb);
			}
			return error(err::ENOTCONN);
		}
	}
	return {};
}

Result<void> Conn::send(void *rqst, u32 xid)
{
	Req *req = Req::from_call_buffer(rqst_buffer(rqst));
	bool signal;

	/* A retransmission on this connection is reset by the shim, and a
	 * reconnect detaches old MRs: a request arrives here without any. */
	if (RPCRDMAX_WARN_ON(!req->mrs.empty()))
		return error(err::ENOTCONN);
	SendBuf *sb = take_send(&signal);
	if (!sb) {
		ep_->stats.empty_sendctx.add_return(1);
		return error(err::ENOBUFS);
	}
	u32 len = 0;
	unsigned int n = 0;
	auto m = marshal(req, rqst, xid, sb, &len, wrs_, &n);
	if (m.is_error()) {
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
u32 Conn::bc_max_payload() const
{
	return min(min(thresholds.call, thresholds.reply), min(send_size, recv_size)) -
	       core::kMinChunkHeaderSize;
}

/* Send the Reply to a backward Call: an inline, chunkless RDMA_MSG. */
Result<void> Conn::bc_send(void *rqst, u32 xid, u32 len)
{
	bool signal;
	const bool v2 = bc_vers_.read() == (int)core::kRpcRdmaVersion2;

	if (len > bc_max_payload() - (v2 ? core::kV2ExtraHeaderSize : 0))
		return error(err::EMSGSIZE);
	SendBuf *sb = take_send(&signal);
	if (!sb) {
		ep_->stats.empty_sendctx.add_return(1);
		return error(err::ENOBUFS);
	}
	/* rdma_credit: the backward Calls we take at once.  In the version
	 * the server's backward Calls use (draft Section 7.3). */
	auto enc = v2 ? core::v2_encode_inline_msg(xid, kBcSlots, core::kMsgReply,
							Bytes(sb->data, send_size))
			   : core::v1_encode_inline_msg(xid, kBcSlots, Bytes(sb->data, send_size));
	if (enc.is_error() || rpcrdmax_xprt_rqst_snd_copy_range(rqst, 0, len, sb->data + enc.value(), send_size - enc.value()) < 0) {
		untake_send(sb);
		return error(err::EMSGSIZE);
	}
	RPCRDMAX_TRY(post_send_chain(rqst, sb, enc.value() + len, signal, 0));
	ep_->stats.bc_replies.add_return(1);
	rpcrdmax_trace_cb(ep_->xprt_, xid, true);
	return {};
}

/* ---- receive ---------------------------------------------------------- */

void RecvBuf::done(Cqe *c, const rpcrdmax_wc &wc)
{
	RecvBuf *rb = static_cast<RecvBuf *>(MsgBuf::from(c));
	rb->conn->recv_done(rb, wc);
}

void Conn::recv_done(RecvBuf *rb, const rpcrdmax_wc &wc)
{
	if (wc.status != RPCRDMAX_IB_WC_SUCCESS) {
		/* Flushed: the connection is going; the buffer stays idle. */
		if (wc.status != RPCRDMAX_IB_WC_WR_FLUSH_ERR)
			rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "Receive failed: %s",
						 rpcrdmax_ib_wc_status_msg(wc.status));
		lost();
		return;
	}
	rb->map.sync_for_cpu();
	if (handle_reply(rb, wc.byte_len, wc) && post_recv(rb).is_error())
		lost();
}

/* ---- endpoint --------------------------------------------------------- */

/*
 * The wait before a connect attempt, in jiffies: none before the first;
 * after that what is left of sunrpc's reconnect delay since the last
 * attempt began, which then backs off (doubling from kReconnectMs up to
 * the mount's maximum), as stock.
 */
unsigned long ClntEp::connect_delay()
{
	if (!rpcrdmax_xprt_reestablish_set(xprt_)) {
		rpcrdmax_xprt_set_reestablish(xprt_, kReconnectMs);
		return 0;
	}
	unsigned long delay = rpcrdmax_xprt_reconnect_delay(xprt_);
	rpcrdmax_xprt_reconnect_backoff(xprt_, kReconnectMs);
	return delay;
}

/*
 * The major timeout a Call just sent waits for its Reply with.  sunrpc
 * arms the Reply's timer at the sooner of one retransmit timeout from
 * now and the Call's major timeout, and our ->timer resets the
 * connection when it fires, as stock's does (RDMA has no keepalive).
 * But a hard Call waits for the transport's write lock with no timer
 * (xprt_reserve_xprt_cong): while a reconnect outlasts its major
 * timeout, that runs out unseen, and the Call's first transmission on
 * the new connection would time out at once and reset it.  With many
 * such Calls queued behind a slow reconnect (a kill storm on the debug
 * kernel), every new connection went that way and the mount never
 * recovered.  So a hard Call always gets one whole retransmit timeout
 * on the wire: its major timeout moves to then if it is sooner, and the
 * Reply timer's firing again means the connection failed to answer it.
 * A soft Call keeps its own: it waited with a timer, and running out of
 * time is its caller's error to get.
 */
unsigned long ClntEp::reply_major(unsigned long now, unsigned long major, unsigned long timeout,
				  bool soft)
{
	const unsigned long full = now + timeout;

	if (soft || (long)(major - full) >= 0)
		return major;
	if ((long)(major - now) <= 0)
		stats.late_calls.add_return(1);
	return full;
}

int ClntEp::connect(const void *addr, unsigned int addrlen)
{
	MutexGuard g(&mutex_);
	Conn *c = new (Gfp::Kernel) Conn(this);

	if (!c)
		return -err::ENOMEM;
	/* draft-cel-nfsv4-rpcrdma-version-two Section 7 (xprtrdma/v2.cpp) */
	const bool offer_v2 = rpcrdmax_tunable_max_version() >= core::kRpcRdmaVersion2 &&
			      !v1_only_.read();
	auto r = c->setup(addr, addrlen, offer_v2);
	rpcrdmax_trace_connect(xprt_, r.is_error() ? r.error().code() : 0);
	if (r.is_error()) {
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "connect failed while %s: %d (%s)",
					 c->stage, r.error().code(), c->fail_reason());
		delete c;
		return r.error().code();
	}
	bc_max_.set((int)c->bc_max_payload());
	delete exchange(conn_, c);
	return 0;
}

/*
 * send_request's rules.  A message goes out only on a connection and
 * with a congestion slot.  The connection is reset instead when a
 * retransmission would go on the connection the Call already went on
 * (it would spend a credit the server never granted: RFC 8166 Section
 * 3.3.1), when posting finds the connection gone, and after sending a
 * Call that expects no Reply (its credit would stay counted).
 */
int ClntEp::transmit(void *rqst, rpcrdmax_xmit *x)
{
	int rc;

	x->sent = x->reset = false;
	if (!x->connected)
		return -err::ENOTCONN; /* sunrpc connects first */
	if (!rpcrdmax_xprt_get_cong(xprt_, rqst))
		return -err::EBADSLT;
	if (x->backward_reply)
		rc = bc_send(rqst, x->xid, x->len);
	else if (x->same_connection && !may_resend(rqst))
		rc = -err::ENOTCONN;
	else
		rc = send(rqst, x->xid);
	x->sent = !rc && !x->backward_reply;
	x->reset = rc == -err::ENOTCONN || (x->sent && !x->reply_expected);
	return x->reset ? -err::ENOTCONN : rc;
}

int ClntEp::send(void *rqst, u32 xid)
{
	/* sunrpc's write lock keeps close() away while we transmit. */
	if (!conn_)
		return -err::ENOTCONN;
	auto r = conn_->send(rqst, xid);
	return r.is_ok() ? 0 : r.error().code();
}

int ClntEp::bc_send(void *rqst, u32 xid, u32 len)
{
	if (!conn_)
		return -err::ENOTCONN;
	auto r = conn_->bc_send(rqst, xid, len);
	return r.is_ok() ? 0 : r.error().code();
}

/* A retransmission may go on the connection its Call went on only when
 * ERR_VERS answered that Call there (xprtrdma/v2.cpp). */
bool ClntEp::may_resend(void *rqst)
{
	Req *req = Req::from_call_buffer(rqst_buffer(rqst));
	return exchange(req->resend_ok, false);
}

void ClntEp::remember_v1(const char *why)
{
	if (v1_only_.cmpxchg(0, 1) == 0)
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_INFO,
					 "server takes RPC-over-RDMA version 1 only (%s): "
					 "version 1 from now on for this transport", why);
}

/*
 * The latest connection's limit (before the first: the RFC 8166 default
 * threshold's).  Lock-free: sunrpc asks under rcu_read_lock()
 * (rpc_max_bc_payload()), where the endpoint mutex may not be taken.
 */
u32 ClntEp::bc_max_payload()
{
	return (u32)bc_max_.read();
}

void ClntEp::close()
{
	MutexGuard g(&mutex_);
	Conn *c = exchange(conn_, nullptr);

	if (!c)
		return;
	if (c->v2_unanswered())
		remember_v1("the first version 2 Call got no answer");
	auto d = c->id.disconnect();
	rpcrdmax_trace_disconnect(xprt_, d.is_error() ? d.error().code() : 0, c->established());
	delete c; /* drains the QP, detaches MRs from their requests */
}

ClntEp::~ClntEp()
{
	close();
	while (FreeBlock *b = cache_.pop_front())
		rpcrdmax_kfree(b);
}

/* A kept block of at least @need octets, or nullptr. */
void *ClntEp::take_block(u32 need)
{
	FreeBlock *b;
	{
		SpinLockBhGuard g(&cache_lock_);
		b = cache_.pop_front();
		if (b)
			cached_--;
	}
	if (b && b->size < need) {
		rpcrdmax_kfree(b); /* the next allocation is the larger size */
		b = nullptr;
	}
	return b;
}

/* Keep @raw (@size octets) for reuse, or free it when enough are kept. */
void ClntEp::keep_block(void *raw, u32 size)
{
	{
		SpinLockBhGuard g(&cache_lock_);
		if (cached_ < xprt_max_reqs(xprt_)) {
			FreeBlock *b = new (raw) FreeBlock;
			b->size = size;
			cache_.push_front(b);
			cached_++;
			return;
		}
	}
	rpcrdmax_kfree(raw);
}

/*
 * One RPC's transport state and buffers, in one block: the Req, then the
 * Call buffer (@callsize) and the Reply buffer (@rcvsize).  A block an
 * earlier RPC freed is reused when large enough; new ones are rounded up
 * to a power of two (the kmalloc size class they fill anyway) so that
 * reuse settles on the largest size in use.
 */
Req *ClntEp::buf_alloc(u32 callsize, u32 rcvsize, unsigned int gfp)
{
	const u32 cs = round_up<u32>(callsize, 64), rs = round_up<u32>(rcvsize, 64);
	const u64 need64 = (u64)kReqHeader + cs + rs;
	if (need64 > (1u << 30))
		return nullptr;
	const u32 need = (u32)need64;
	auto *raw = static_cast<u8 *>(take_block(need));
	u32 size;

	if (raw) {
		size = reinterpret_cast<FreeBlock *>(raw)->size;
	} else {
		size = round_up_pow2(need);
		raw = static_cast<u8 *>(rpcrdmax_kmalloc(size, gfp));
		if (!raw)
			return nullptr;
		stats.req_blocks.add_return(1);
	}
	Req *req = new (raw) Req;
	req->block_size = size;
	req->call = raw + kReqHeader;
	req->rcv = raw + kReqHeader + cs;
	return req;
}

void ClntEp::buf_free(Req *req)
{
	/* Most RPCs end with their MRs retired by the Reply handler: then
	 * no lock.  Unlocked is safe: only this RPC adds MRs to its
	 * request, and close() (under the mutex) only takes them away. */
	if (!req->mrs.empty_once()) {
		MutexGuard g(&mutex_);
		Conn *c = conn_;

		/* The RPC ended with registrations live (a signal, a soft
		 * timeout): invalidate them before its pages go back. */
		if (!req->mrs.empty() && c && req->conn == c) {
			req->sync_wait = true;
			if (c->frwr_invalidate(req, true).is_ok() &&
			    !req->invalidated.wait_ms(invalidate_ms))
				c->fence_invalidate(req);
			c->frwr_release(req);
		}
	}
	const u32 size = req->block_size;
	req->~Req();
	keep_block(req, size);
}

/*
 * A LOCAL_INV posted for @req did not complete in time.  RFC 8166
 * Section 8.1.3: the pages may not be released while the server can
 * still reach them through a valid rkey, and the completion would still
 * come for a freed Req.  Disconnecting moves the QP to the error state
 * before rdma_disconnect() returns (on IB and RoCE), after which the
 * server's RDMA operations fail, and the LOCAL_INV then completes as
 * flushed: wait for that, however long it takes, as the stock client
 * waits for its LOCAL_INVs.
 */
void Conn::fence_invalidate(Req *req)
{
	ep_->stats.inv_fenced.add_return(1);
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING,
				 "LOCAL_INV not done in %u ms: disconnecting to fence the MRs",
				 ep_->invalidate_ms);
	lost();
	(void)id.disconnect();
	while (!req->invalidated.wait_ms(kInvalidateMs))
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING,
					 "still waiting for a flushed LOCAL_INV");
}

void ClntEp::print_stats(void *seq)
{
	/* The RDMA part of the stock "xprt: rdma" line, same field order:
	 * read/write/reply segments, octets registered and received by RDMA, pull-up
	 * and fix-up copies, hardway registrations, failed marshals, bad
	 * replies, NOMSG calls; then MRs recycled, orphaned, allocated,
	 * LOCAL_INVs needed, empty send contexts, replies waiting for Send.
	 * Hardway registrations (the stock module's count of registered
	 * buffers reallocated larger) are always 0: buf_alloc allocates each
	 * request's buffers at the size sunrpc asks for, and Send and
	 * Receive buffers are fixed per connection.  Replies waiting for a
	 * Send: the stock module prints 0 in that column too. */
	Counters &s = stats;
	rpcrdmax_seq_printf(seq, "%d %d %d %lld %lld %lld %lld %u %d %d %d ", s.read_chunks.read(),
			    s.write_chunks.read(), s.reply_chunks.read(), s.request_bytes.read(),
			    s.reply_bytes.read(), s.pullup_bytes.read(), s.fixup_bytes.read(), 0,
			    s.failed_marshal.read(), s.bad_reply.read(), s.nomsg_calls.read());
	rpcrdmax_seq_printf(seq, "%d %u %d %d %d %u\n", s.mrs_recovered.read(), 0,
			    s.mrs_allocated.read(), s.local_inv_needed.read(),
			    s.empty_sendctx.read(), 0);
}

/*
 * Every counter, one "name value" line each (debugfs, shim/sunrpc/debugfs.c):
 * stock's rx_stats names where stock keeps the counter, then ours.
 */
void ClntEp::print_counters(void *seq)
{
	Counters &s = stats;
	const struct {
		const char *name;
		long long value;
	} rows[] = {
		{ "read_chunk_count", s.read_chunks.read() },
		{ "write_chunk_count", s.write_chunks.read() },
		{ "reply_chunk_count", s.reply_chunks.read() },
		{ "total_rdma_request", s.request_bytes.read() },
		{ "total_rdma_reply", s.reply_bytes.read() },
		{ "pullup_copy_count", s.pullup_bytes.read() },
		{ "fixup_copy_count", s.fixup_bytes.read() },
		{ "failed_marshal_count", s.failed_marshal.read() },
		{ "bad_reply_count", s.bad_reply.read() },
		{ "nomsg_call_count", s.nomsg_calls.read() },
		{ "bcall_count", s.backchannel_calls.read() },
		{ "mrs_recycled", s.mrs_recovered.read() },
		{ "mrs_allocated", s.mrs_allocated.read() },
		{ "local_inv_needed", s.local_inv_needed.read() },
		{ "empty_sendctx_q", s.empty_sendctx.read() },
		/* not in stock */
		{ "bcall_reply_count", s.bc_replies.read() },
		{ "bcall_dropped_count", s.bc_dropped.read() },
		{ "send_error_count", s.send_errors.read() },
		{ "req_block_alloc_count", s.req_blocks.read() },
		{ "vers1_conn_count", s.vers1_conns.read() },
		{ "vers2_conn_count", s.vers2_conns.read() },
		{ "v2_error_count", s.v2_errors.read() },
		{ "v2_refused_count", s.v2_refused.read() },
		{ "bcall_v2_count", s.bc_v2_calls.read() },
		{ "local_inv_fenced_count", s.inv_fenced.read() },
		{ "late_call_count", s.late_calls.read() },
	};
	for (const auto &r : rows)
		rpcrdmax_seq_printf(seq, "%s %lld\n", r.name, r.value);
}

} // namespace rpcrdmax::xprtrdma

using rpcrdmax::xprtrdma::ClntEp;
using rpcrdmax::xprtrdma::Req;

/**
 * rpcrdmax_clnt_create - make the endpoint for a new sunrpc transport
 * @xprt: the struct rpc_xprt it serves
 *
 * Returns the endpoint, or NULL without memory.
 */
extern "C" void *rpcrdmax_clnt_create(void *xprt) noexcept
{
	return new (rpcrdmax::ktl::Gfp::Kernel) ClntEp(xprt);
}

/** rpcrdmax_clnt_max_payload - largest RPC payload the endpoint carries */
extern "C" unsigned int rpcrdmax_clnt_max_payload(void *) noexcept
{
	return rpcrdmax::xprtrdma::kMaxPayload;
}

/**
 * rpcrdmax_clnt_connect_delay - how long sunrpc's ->connect waits first
 * @ep: the client transport
 *
 * Returns jiffies before the connect attempt.
 */
extern "C" unsigned long rpcrdmax_clnt_connect_delay(void *ep) noexcept
{
	return static_cast<ClntEp *>(ep)->connect_delay();
}

/**
 * rpcrdmax_clnt_reply_major - the major timeout a Call waits for its Reply with
 * @ep: the client transport
 * @now: jiffies, the Call just sent
 * @major: its major timeout (jiffies)
 * @timeout: its retransmit timeout (jiffies)
 * @soft: whether it is a soft RPC
 *
 * Returns the major timeout to wait with (ClntEp::reply_major).
 */
extern "C" unsigned long rpcrdmax_clnt_reply_major(void *ep, unsigned long now,
						   unsigned long major, unsigned long timeout,
						   bool soft) noexcept
{
	return static_cast<ClntEp *>(ep)->reply_major(now, major, timeout, soft);
}

/**
 * rpcrdmax_clnt_connect - establish a connection to @addr (sleeps)
 * @ep: the endpoint
 * @addr: the server's sockaddr
 * @addrlen: its length
 *
 * Returns 0 or -ECONNREFUSED, -EHOSTUNREACH, -ENETUNREACH, -ETIMEDOUT,
 * -EOPNOTSUPP (no FRWR), -ENOMEM, as sunrpc expects of a failed connect.
 */
extern "C" int rpcrdmax_clnt_connect(void *ep, const void *addr, unsigned int addrlen) noexcept
{
	return static_cast<ClntEp *>(ep)->connect(addr, addrlen);
}

/**
 * rpcrdmax_clnt_transmit - sunrpc's send_request: transmit one message
 * @ep: the endpoint
 * @rqst: the rpc_rqst
 * @x: what sunrpc knows of it; sent and reset are set (ClntEp::transmit)
 *
 * Returns 0 or the errno for sunrpc: -ENOTCONN (not connected, or reset),
 * -EBADSLT (no congestion slot), or another that fails this transmission.
 */
extern "C" int rpcrdmax_clnt_transmit(void *ep, void *rqst, struct rpcrdmax_xmit *x) noexcept
{
	return static_cast<ClntEp *>(ep)->transmit(rqst, x);
}

/** rpcrdmax_clnt_bc_max_payload - the largest backward message's RPC part */
extern "C" unsigned int rpcrdmax_clnt_bc_max_payload(void *ep) noexcept
{
	return static_cast<ClntEp *>(ep)->bc_max_payload();
}

/** rpcrdmax_clnt_bc_slots - backward Calls a transport takes at once */
extern "C" unsigned int rpcrdmax_clnt_bc_slots(void) noexcept
{
	return rpcrdmax::xprtrdma::kBcSlots;
}

/** rpcrdmax_clnt_close - disconnect and release the connection (sleeps) */
extern "C" void rpcrdmax_clnt_close(void *ep) noexcept
{
	static_cast<ClntEp *>(ep)->close();
}

/** rpcrdmax_clnt_destroy - free the endpoint (after close) */
extern "C" void rpcrdmax_clnt_destroy(void *ep) noexcept
{
	delete static_cast<ClntEp *>(ep);
}

/** rpcrdmax_clnt_print_counters - every counter of the endpoint, a line each */
extern "C" void rpcrdmax_clnt_print_counters(void *ep, void *seq) noexcept
{
	static_cast<ClntEp *>(ep)->print_counters(seq);
}

/** rpcrdmax_clnt_print_stats - the RDMA counters of the mountstats line */
extern "C" void rpcrdmax_clnt_print_stats(void *ep, void *seq) noexcept
{
	static_cast<ClntEp *>(ep)->print_stats(seq);
}

/**
 * rpcrdmax_clnt_buf_alloc - buffers for one RPC, with its transport state
 * @ep: the endpoint
 * @callsize: Call buffer octets
 * @rcvsize: Reply buffer octets
 * @gfp: allocation flags of the RPC task
 * @call: set to the Call buffer (rq_buffer)
 * @rcv: set to the Reply buffer (rq_rbuffer)
 *
 * Returns 0 or -ENOMEM.
 */
extern "C" int rpcrdmax_clnt_buf_alloc(void *ep, unsigned int callsize, unsigned int rcvsize,
				       unsigned int gfp, void **call, void **rcv) noexcept
{
	using namespace rpcrdmax::xprtrdma;
	Req *req = static_cast<ClntEp *>(ep)->buf_alloc(callsize, rcvsize, gfp);

	if (!req)
		return -err::ENOMEM;
	*call = req->call;
	*rcv = req->rcv;
	return 0;
}

/** rpcrdmax_clnt_buf_free - release an RPC's buffers (may sleep to invalidate) */
extern "C" void rpcrdmax_clnt_buf_free(void *ep, void *call) noexcept
{
	static_cast<ClntEp *>(ep)->buf_free(Req::from_call_buffer(call));
}
