// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma/connect.cpp - one connection (Conn): its CM events, set-up
 * (queues, Send and Receive buffers, the MR pool, the RFC 8797 private
 * data and the version offered) and its loss.  One Conn per connection,
 * made by ClntEp::connect() in the connect worker and destroyed by
 * ClntEp::close() after its QP is drained (endpoint.cpp).
 */
#include "xprtrdma.h"

namespace rpcrdmax::xprtrdma {

Conn::~Conn()
{
	/* Everything posted completes (or flushes) before anything goes.
	 * (No id when its creation failed: nothing was posted.) */
	frwr_stop_refill();
	if (id.get() && id.qp())
		id.drain();
	frwr_detach_all();
	delete v2hdr_;
	delete[] mrs_;
	ep_->stats.add(ClntStat::MrsLive, -(int)mrs_made_);
	if (recvs_) {
		/* Unmapped while the device is still there, without copying a
		 * bounce buffer back over a Reply sunrpc may be reading (or
		 * decrypting) in place; freed with the last lent one. */
		for (auto &rb : Span<RecvBuf>(recvs_->bufs, recvs_->n))
			rb.map.unmap(false);
		recvs_->put();
	}
	delete[] sends_;
	/* the CQs, PD and control buffer go after it, the id last (xprtrdma.h) */
	id.destroy_qp();
}

RecvPool *RecvPool::make(u32 n)
{
	RecvPool *p = new (Gfp::Kernel) RecvPool;

	if (!p)
		return nullptr;
	p->bufs = new (Gfp::Kernel) RecvBuf[n];
	if (!p->bufs) {
		delete p;
		return nullptr;
	}
	p->n = n;
	return p;
}

/* @rb, lent, is free again: the receive completions post it when a
 * Reply is next lent. */
void RecvPool::give_back(RecvBuf *rb)
{
	RecvBuf *head = returned.read();

	for (;;) {
		rb->next_free = head;
		RecvBuf *found = returned.cmpxchg(head, rb);
		if (found == head)
			break;
		head = found;
	}
	put();
}

void RecvPool::put()
{
	if (refs.add_return((u32)-1) == 0) {
		delete[] bufs;
		delete this;
	}
}

/*
 * The credits to ask for: the transport's slot table, at least
 * kMinRequests, and no more than @attrs's queues and CQs hold in the
 * worst case: send_wrs() on the Send side, a Receive per credit and
 * backward slot.  0 when not even that fits.
 */
static u32 max_requests(rpc_xprt *xprt, const rpcrdmax_dev_attrs &attrs)
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
 * (fail() completes it too); the errno tells which, one that sunrpc's
 * call_connect_status tries again after: ENETDOWN for a removed device
 * or a changed address (stock's ENODEV fails every RPC waiting for the
 * connect, a hard mount's writes too), ECONNABORTED for a disconnect
 * before the connection was up.
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
		return error(err::ENETDOWN);
	case RPCRDMAX_CM_DISCONNECTED:
		return error(err::ECONNABORTED);
	case RPCRDMAX_CM_ADDR_ERROR:
	case RPCRDMAX_CM_UNREACHABLE:
	case RPCRDMAX_CM_CONNECT_ERROR:
	default:
		return error(err::EHOSTUNREACH);
	}
}

/* What failed the connect that ended with @rc: the CM event that did,
 * else whether its wait ran out or a step failed by itself (as
 * rdma_connect() does on iWARP when the peer refuses at once). */
const char *Conn::fail_reason(int rc) const
{
	switch (fail_event_.read()) {
	case -1:
		return rc == -err::ETIMEDOUT ? "no CM event in time" : "failed before any CM event";
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

/* Make @b (@len octets for @dir, cid @id); xprtrdma_dma_maperr when its
 * mapping failed. */
static Result<void> make_buf(MsgBuf &b, ib_device *dev, u32 len, int dir, int id)
{
	auto r = b.make(dev, len, dir, id);

	if (b.map_failed(r) && tp_on(RPCRDMAX_TP_XPRTRDMA_DMA_MAPERR))
		rpcrdmax_trace_dma_maperr(b.map.dma());
	return r;
}

Result<void> Conn::post_recv(RecvBuf *rb)
{
	rb->map.sync_for_device();
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_POST_RECV))
		rpcrdmax_trace_post_recv(rcq_.get(), rb->cqe.id());
	Result<void> r = id.post_recv(&rb->wr);
	if (r.is_error() && tp_on(RPCRDMAX_TP_XPRTRDMA_POST_RECVS_ERR))
		rpcrdmax_trace_post_recvs_err(ep_->xprt_, rcq_.get(), r.error().code());
	return r;
}

/*
 * The connection's Send and Receive buffers on @dev: @nsends Send
 * buffers, @nbufs Receive buffers of which the first @nrecvs are posted
 * (the rest are spares for lending), and the control Send buffer.  The
 * inline sizes come from /proc/sys/sunrpc/rdma_max_inline_{write,read},
 * as RFC 8797 can express them (multiples of 1 KiB).
 */
Result<void> Conn::make_bufs(ib_device *dev, u32 nsends, u32 nrecvs, u32 nbufs)
{
	send_size = core::pd_effective_size(min(rpcrdmax_tunable_inline_write(), kMaxInline));
	recv_size = core::pd_effective_size(min(rpcrdmax_tunable_inline_read(), kMaxInline));
	sends_ = new (Gfp::Kernel) SendBuf[nsends];
	recvs_ = RecvPool::make(nbufs);
	if (!sends_ || !recvs_)
		return error(err::ENOMEM);
	for (auto &sb : Span<SendBuf>(sends_, nsends)) {
		sb.conn = this;
		RPCRDMAX_TRY(make_buf(sb, dev, send_size, RPCRDMAX_DMA_TO_DEVICE,
				      (int)(&sb - sends_)));
	}
	nsends_ = nsends;
	for (auto &rb : Span<RecvBuf>(recvs_->bufs, nbufs)) {
		const u32 i = (u32)(&rb - recvs_->bufs);
		rb.conn = this;
		rb.pool = recvs_;
		RPCRDMAX_TRY(make_buf(rb, dev, recv_size, RPCRDMAX_DMA_FROM_DEVICE, (int)i));
		rb.wr.prepare(rb.cqe.raw(), rb.map.sge(pd_.local_dma_lkey()));
		if (i < nrecvs) {
			RPCRDMAX_TRY(post_recv(&rb));
		} else {
			rb.next_free = spares_;
			spares_ = &rb;
		}
	}
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_POST_RECVS))
		rpcrdmax_trace_post_recvs(ep_->xprt_, rcq_.get(), nrecvs, (int)nrecvs);
	ctl_.conn = this;
	return make_buf(ctl_, dev, kCtlSize, RPCRDMAX_DMA_TO_DEVICE, (int)nsends);
}

/*
 * The server's private data (RFC 8797; absent: version 1's defaults)
 * against ours: the inline thresholds, and the largest version 2 message
 * it receives (else the draft's 4096), within what we can send.
 */
void Conn::take_peer_pd(const core::PrivData &ours)
{
	core::PrivData peer;
	const bool found =
		core::pd_decode(ConstBytes(peer_pd_, peer_pd_len_), &peer) == core::PdVerdict::Found;

	v2_peer_recv_ = min(max(found ? peer.recv_size : core::kV2DefaultRbsiz, core::kPdMinInline),
			    send_size);
	thresholds = core::pd_thresholds(ours, peer);
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_INLINE_THRESH))
		rpcrdmax_trace_inline_thresh(id.get(), thresholds.call, thresholds.reply,
					     min(thresholds.call, send_size),
					     min(thresholds.reply, recv_size));
}

/* The CM id, made in the transport's namespace, its address (@addr,
 * @addrlen octets) and route resolved. */
Result<void> Conn::resolve(const void *addr, unsigned int addrlen)
{
	SockAddr sa;

	if (addrlen > sizeof(sa.raw.bytes))
		return error(err::EINVAL);
	mem_set(sa.raw.bytes, 0, sizeof(sa.raw.bytes));
	mem_copy(sa.raw.bytes, addr, addrlen);
	stage = "resolving";
	RPCRDMAX_TRY(id.create(this, rpcrdmax_xprt_net(ep_->xprt_)));
	RPCRDMAX_TRY(id.resolve_addr(sa, kResolveMs));
	return wait_resolved(2 * kResolveMs + 1000);
}

/*
 * The connection to the server at @addr: resolved, its queues, MRs and
 * buffers made on the device the route found, connected with our
 * private data (offering version 2 when @offer_v2), and the server's
 * taken.  Stops at the first step that fails (stage names it).
 */
Result<void> Conn::setup(const void *addr, unsigned int addrlen, bool offer_v2)
{
	RPCRDMAX_TRY(resolve(addr, addrlen));
	stage = "setting up";

	ib_device *dev = id.device();
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

	RPCRDMAX_TRY(make_bufs(dev, nsends, nrecvs, nrecvs + kLendRecvs));
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

	take_peer_pd(ours);
	if (!offer_v2)
		count_version(core::kRpcRdmaVersion1);
	/* Credits are the connection's (RFC 5666 Section 3.3; RFC 8166
	 * Section 3.3.1): a Call still waiting for its Reply from the last
	 * one takes a new slot, within this one's grant of one until the
	 * first Reply, as any other Call does. */
	core::credits_requester_init(&credits_, max_reqs);
	rpcrdmax_xprt_reset_cong(ep_->xprt_);
	return {};
}

} // namespace rpcrdmax::xprtrdma
