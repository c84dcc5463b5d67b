// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma/endpoint.cpp - the client endpoint behind one sunrpc transport.
 *
 * Scope today: the inline path.  Each Call goes out as one RDMA_MSG whose
 * transport header is encoded by the protocol core; each Reply arrives in
 * a posted Receive, is decoded by the core, matched to its request by XID
 * and copied into the request's receive buffer.  max_payload is kept small
 * enough that NFS I/O fits the inline thresholds, so no chunk is needed.
 * Read, Write and Reply chunks (FRWR), Long Calls and the rest of
 * mountstats are the next steps; a Call that does not fit fails with -EIO
 * rather than being sent in a form the server cannot take.
 *
 * Life cycle: one Conn per connection, made by connect() in the connect
 * worker and destroyed by close() after the QP is drained, so no
 * completion can touch a freed buffer.  sunrpc serializes send() with
 * close() (both hold the transport's write lock); Receive completions run
 * in the receive CQ's workqueue and end before the drain returns.
 */
#include "rpcrdmax/core/credits.h"
#include "rpcrdmax/core/privdata.h"
#include "rpcrdmax/core/v1.h"
#include "rpcrdmax/ktl/alloc.h"
#include "rpcrdmax/ktl/list.h"
#include "rpcrdmax/ktl/lock.h"
#include "rpcrdmax/ktl/sync.h"
#include "rpcrdmax/rdma/verbs.h"

namespace rpcrdmax::xprtrdma {

using namespace rpcrdmax::ktl;
using namespace rpcrdmax::rdma;

inline constexpr u32 kInlineSize = 4096;	/* our Send and Receive buffers */
inline constexpr u32 kMaxRequests = 32;		/* credits we ask for; Receives posted */
inline constexpr u32 kSendBufs = 2 * kMaxRequests;
inline constexpr u32 kMaxPayload = 2048;	/* NFS I/O that fits inline */
inline constexpr unsigned int kResolveMs = 5000;
inline constexpr unsigned int kConnectMs = 15000;

class ClntEp;
class Conn;

struct SendBuf {
	SendBuf() : cqe(&SendBuf::done) {}
	static void done(Cqe *c, const rpcrdmax_wc &wc);
	Cqe cqe; /* first: see Cqe */
	ListNode node;
	DmaBuf map;
	u8 *data = nullptr;
	Conn *conn = nullptr;
	~SendBuf() { delete[] data; }
};

struct RecvBuf {
	RecvBuf() : cqe(&RecvBuf::done) {}
	static void done(Cqe *c, const rpcrdmax_wc &wc);
	Cqe cqe;
	DmaBuf map;
	u8 *data = nullptr;
	Conn *conn = nullptr;
	~RecvBuf() { delete[] data; }
};

struct Counters {
	Atomic bad_reply, backchannel_calls, failed_marshal, send_errors;
	Atomic reply_bytes, request_bytes;
};

class Conn final : public CmEvents {
public:
	explicit Conn(ClntEp *ep) : ep_(ep) {}
	~Conn()
	{
		/* Everything posted completes (or flushes) before buffers go. */
		if (id.qp())
			id.drain();
	}

	int cm_event(CmId *, const rpcrdmax_cm_event_info &ev) override;
	Result<void> setup(const void *addr, unsigned int addrlen);
	Result<void> send(void *rqst, u32 xid);
	void recv_done(RecvBuf *rb, const rpcrdmax_wc &wc);
	void send_done(SendBuf *sb, const rpcrdmax_wc &wc);
	void lost();

	core::InlineThresholds thresholds = { core::kPdMinInline, core::kPdMinInline };

private:
	friend class ClntEp;
	Result<void> wait_event(Completion *c, unsigned int ms);
	Result<void> post_recv(RecvBuf *rb);
	void handle_reply(RecvBuf *rb, u32 len);

	ClntEp *ep_;
	/* Destruction runs bottom-up: the id (QP) first, then buffers, CQs, PD. */
	Pd pd_;
	Cq scq_, rcq_;
	SendBuf sends_[kSendBufs];
	RecvBuf recvs_[kMaxRequests];
	SpinLock free_lock_;
	List<SendBuf, &SendBuf::node> free_sends_;
	core::V1Header send_hdr_;	/* transmit path: serialized by sunrpc */
	core::V1Header recv_hdr_;	/* one receive CQ: completions are serial */
	core::RequesterCredits credits_;
	Completion resolved_, established_, failed_;
	int fail_event_ = -1;
	u8 peer_pd_[64];
	u32 peer_pd_len_ = 0;
	Atomic lost_;

public:
	CmId id;
};

class ClntEp {
public:
	explicit ClntEp(void *xprt) : xprt_(xprt) {}
	~ClntEp() { close(); }
	int connect(const void *addr, unsigned int addrlen);
	int send(void *rqst, u32 xid);
	void close();
	void print_stats(void *seq);

	void *xprt_;
	Counters stats;

private:
	Mutex mutex_;
	Conn *conn_ = nullptr;
};

/* ---- connection ------------------------------------------------------- */

int Conn::cm_event(CmId *, const rpcrdmax_cm_event_info &ev)
{
	switch (ev.event) {
	case RPCRDMAX_CM_ADDR_RESOLVED:
		if (id.resolve_route(kResolveMs).is_error()) {
			fail_event_ = RPCRDMAX_CM_ROUTE_ERROR;
			failed_.complete_all();
		}
		break;
	case RPCRDMAX_CM_ROUTE_RESOLVED:
		resolved_.complete_all();
		break;
	case RPCRDMAX_CM_ESTABLISHED:
		peer_pd_len_ = min<u32>(ev.private_data_len, sizeof(peer_pd_));
		if (ev.private_data && peer_pd_len_)
			mem_copy(peer_pd_, ev.private_data, peer_pd_len_);
		established_.complete_all();
		break;
	case RPCRDMAX_CM_DISCONNECTED:
	case RPCRDMAX_CM_DEVICE_REMOVAL:
	case RPCRDMAX_CM_ADDR_CHANGE:
		lost();
		break;
	case RPCRDMAX_CM_TIMEWAIT_EXIT:
	case RPCRDMAX_CM_OTHER:
		break;
	default: /* address, route or connection errors, rejection */
		fail_event_ = ev.event;
		failed_.complete_all();
		lost();
		break;
	}
	return 0;
}

/* The connection is gone: sunrpc closes the transport and reconnects. */
void Conn::lost()
{
	if (lost_.cmpxchg(0, 1) == 0 && established_.wait_ms(0))
		rpcrdmax_xprt_force_disconnect(ep_->xprt_);
}

Result<void> Conn::wait_event(Completion *c, unsigned int ms)
{
	unsigned int waited = 0;

	/* Poll both outcomes: success completes c, any error completes failed_. */
	while (waited < ms) {
		if (c->wait_ms(50))
			return {};
		if (failed_.wait_ms(0))
			break;
		waited += 50;
	}
	switch (fail_event_) {
	case RPCRDMAX_CM_REJECTED:
		return error(err::ECONNREFUSED);
	case RPCRDMAX_CM_ADDR_ERROR:
		return error(err::EHOSTUNREACH);
	case RPCRDMAX_CM_ROUTE_ERROR:
		return error(err::ENETUNREACH);
	case RPCRDMAX_CM_UNREACHABLE:
	case RPCRDMAX_CM_CONNECT_ERROR:
		return error(err::EHOSTUNREACH);
	default:
		return error(err::ETIMEDOUT);
	}
}

Result<void> Conn::post_recv(RecvBuf *rb)
{
	rpcrdmax_sge sge = rb->map.sge(pd_.local_dma_lkey());
	rb->map.sync_for_device();
	return id.post_recv(&rb->cqe, &sge, 1);
}

Result<void> Conn::setup(const void *addr, unsigned int addrlen)
{
	SockAddr sa;

	if (addrlen > sizeof(sa.raw.bytes))
		return error(err::EINVAL);
	mem_set(sa.raw.bytes, 0, sizeof(sa.raw.bytes));
	mem_copy(sa.raw.bytes, addr, addrlen);

	RPCRDMAX_TRY(id.create(this));
	RPCRDMAX_TRY(id.resolve_addr(sa, kResolveMs));
	RPCRDMAX_TRY(wait_event(&resolved_, 2 * kResolveMs + 1000));

	void *dev = id.device();
	rpcrdmax_dev_attrs attrs;
	RPCRDMAX_TRY(check(rpcrdmax_ib_query_device(dev, &attrs)));
	if (attrs.max_qp_wr < kSendBufs || attrs.max_send_sge < 1 || attrs.max_recv_sge < 1)
		return error(err::ENOMEM);
	RPCRDMAX_TRY(pd_.alloc(dev));
	RPCRDMAX_TRY(scq_.alloc(dev, kSendBufs, 0, true));
	RPCRDMAX_TRY(rcq_.alloc(dev, kMaxRequests, 0, true));
	RPCRDMAX_TRY(id.create_qp(pd_, scq_, rcq_, kSendBufs, kMaxRequests, 1, 1));

	for (auto &sb : sends_) {
		sb.conn = this;
		sb.data = new (Gfp::Kernel) u8[kInlineSize];
		if (!sb.data)
			return error(err::ENOMEM);
		RPCRDMAX_TRY(sb.map.map(dev, sb.data, kInlineSize, RPCRDMAX_DMA_TO_DEVICE));
		free_sends_.push_back(&sb);
	}
	for (auto &rb : recvs_) {
		rb.conn = this;
		rb.data = new (Gfp::Kernel) u8[kInlineSize];
		if (!rb.data)
			return error(err::ENOMEM);
		RPCRDMAX_TRY(rb.map.map(dev, rb.data, kInlineSize, RPCRDMAX_DMA_FROM_DEVICE));
		RPCRDMAX_TRY(post_recv(&rb));
	}

	/* RFC 8797: our buffer sizes; R set, since we never need our rkeys
	 * to outlive a Reply. */
	u8 pd[core::kPdSize];
	const core::PrivData ours = { kInlineSize, kInlineSize, true };
	u32 pdlen = RPCRDMAX_TRY(core::pd_encode(ours, Bytes(pd, sizeof(pd))));
	u32 rd = min<u32>(attrs.max_qp_init_rd_atom, 16);
	RPCRDMAX_TRY(id.connect(ConstBytes(pd, pdlen), rd, 6));
	RPCRDMAX_TRY(wait_event(&established_, kConnectMs));

	core::PrivData peer;
	(void)core::pd_decode(ConstBytes(peer_pd_, peer_pd_len_), &peer); /* absent: v1 defaults */
	thresholds = core::pd_thresholds(ours, peer);
	core::credits_requester_init(&credits_, kMaxRequests);
	rpcrdmax_xprt_set_credits(ep_->xprt_, 1);
	return {};
}

/* ---- transmit --------------------------------------------------------- */

void SendBuf::done(Cqe *c, const rpcrdmax_wc &wc)
{
	SendBuf *sb = container_of(c, &SendBuf::cqe);
	sb->conn->send_done(sb, wc);
}

void Conn::send_done(SendBuf *sb, const rpcrdmax_wc &wc)
{
	{
		SpinLockBhGuard g(&free_lock_);
		free_sends_.push_back(sb);
	}
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

Result<void> Conn::send(void *rqst, u32 xid)
{
	SendBuf *sb;
	{
		SpinLockBhGuard g(&free_lock_);
		sb = free_sends_.pop_front();
	}
	if (!sb)
		return error(err::ENOBUFS);

	core::V1Header &h = send_hdr_;
	mem_set(&h, 0, sizeof(h));
	h.xid = xid;
	h.vers = core::kRpcRdmaVersion1;
	h.credits = core::credits_requester_request(credits_);
	h.proc = core::V1Proc::Msg;
	u32 limit = min(thresholds.call, kInlineSize);
	auto hl = core::v1_encode(h, Bytes(sb->data, limit));
	int n = hl.is_ok() ? rpcrdmax_xprt_rqst_snd_copy(rqst, sb->data + hl.value(),
							 limit - hl.value())
			   : -err::EMSGSIZE;
	if (n < 0) {
		/* Too big to send inline, and chunks are not implemented yet. */
		SpinLockBhGuard g(&free_lock_);
		free_sends_.push_back(sb);
		ep_->stats.failed_marshal.add_return(1);
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING,
					 "Call of XID %08x exceeds the %u-byte inline threshold",
					 xid, limit);
		return error(err::EIO);
	}
	rpcrdmax_sge sge = sb->map.sge(pd_.local_dma_lkey());
	sge.length = hl.value() + (u32)n;
	sb->map.sync_for_device();
	rpcrdmax_send_wr wr = {};
	wr.cqe = sb->cqe.raw();
	wr.opcode = RPCRDMAX_WR_SEND;
	wr.sge = &sge;
	wr.num_sge = 1;
	unsigned int bad;
	auto posted = id.post_send(&wr, 1, &bad);
	if (posted.is_error()) {
		SpinLockBhGuard g(&free_lock_);
		free_sends_.push_back(sb);
		return error(err::ENOTCONN);
	}
	ep_->stats.request_bytes.add_return((int)sge.length);
	return {};
}

/* ---- receive ---------------------------------------------------------- */

void RecvBuf::done(Cqe *c, const rpcrdmax_wc &wc)
{
	RecvBuf *rb = container_of(c, &RecvBuf::cqe);
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
	handle_reply(rb, wc.byte_len);
	if (post_recv(rb).is_error())
		lost();
}

void Conn::handle_reply(RecvBuf *rb, u32 len)
{
	core::V1Header &h = recv_hdr_;
	const core::DecodeLimits limits;
	auto verdict = core::v1_decode_reply(ConstBytes(rb->data, min(len, kInlineSize)), limits, &h);
	auto action = core::v1_requester_action(verdict);

	if (action == core::RequesterAction::Drop ||
	    (action == core::RequesterAction::Complete && h.proc != core::V1Proc::Msg)) {
		/* Malformed, or a form this client never asked for (it offers
		 * no chunks yet): count it; the RPC times out and retransmits. */
		ep_->stats.bad_reply.add_return(1);
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "dropped Reply (%s)",
					 core::v1_verdict_name(verdict));
		return;
	}
	u32 grant = core::credits_requester_update(&credits_, h.credits);
	rpcrdmax_xprt_set_credits(ep_->xprt_, grant);

	const u8 *msg = rb->data + h.hdr_len;
	if (action == core::RequesterAction::Complete && h.payload_len >= 8 &&
	    load_be32(msg + 4) == 0 /* msg_type CALL */) {
		/* A backchannel Call: not supported yet, dropped and counted. */
		ep_->stats.backchannel_calls.add_return(1);
		return;
	}
	void *rqst = rpcrdmax_xprt_lookup_pin(ep_->xprt_, h.xid);
	if (!rqst) {
		rpcrdmax_xprt_count_bad_xid(ep_->xprt_);
		return;
	}
	int status = -err::EIO; /* RDMA_ERROR: ERR_VERS or ERR_CHUNK */
	if (action == core::RequesterAction::Complete) {
		status = rpcrdmax_xprt_rqst_rcv_copy(rqst, msg, h.payload_len);
		if (status < 0)
			status = -err::EIO;
		else
			ep_->stats.reply_bytes.add_return((int)len);
	}
	rpcrdmax_xprt_complete_unpin(ep_->xprt_, rqst, status);
	core::credits_requester_complete(&credits_);
}

/* ---- endpoint --------------------------------------------------------- */

int ClntEp::connect(const void *addr, unsigned int addrlen)
{
	MutexGuard g(&mutex_);
	Conn *c = new (Gfp::Kernel) Conn(this);

	if (!c)
		return -err::ENOMEM;
	auto r = c->setup(addr, addrlen);
	if (r.is_error()) {
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "connect failed: %d",
					 r.error().code());
		delete c;
		return r.error().code();
	}
	delete exchange(conn_, c);
	return 0;
}

int ClntEp::send(void *rqst, u32 xid)
{
	/* sunrpc's write lock keeps close() away while we transmit. */
	if (!conn_)
		return -err::ENOTCONN;
	auto r = conn_->send(rqst, xid);
	return r.is_ok() ? 0 : r.error().code();
}

void ClntEp::close()
{
	MutexGuard g(&mutex_);
	Conn *c = exchange(conn_, nullptr);

	if (!c)
		return;
	(void)c->id.disconnect();
	delete c; /* drains the QP first */
}

void ClntEp::print_stats(void *seq)
{
	/* The RDMA part of the stock "xprt: rdma" line, same field order:
	 * read/write/reply chunk counts, request and reply bytes, pull-up
	 * and fix-up copies, hardway registrations, failed marshals, bad
	 * replies, NOMSG calls; then MR and send-context counters. */
	rpcrdmax_seq_printf(seq, "%u %u %u %d %d %u %u %u %d %d %u ", 0, 0, 0,
			    stats.request_bytes.read(), stats.reply_bytes.read(), 0, 0, 0,
			    stats.failed_marshal.read(), stats.bad_reply.read(), 0);
	rpcrdmax_seq_printf(seq, "%u %u %u %u %u %u\n", 0, 0, 0, 0, 0, 0);
}

} // namespace rpcrdmax::xprtrdma

using rpcrdmax::xprtrdma::ClntEp;

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

/** rpcrdmax_clnt_max_payload - largest RPC payload the endpoint can carry */
extern "C" unsigned int rpcrdmax_clnt_max_payload(void *) noexcept
{
	return rpcrdmax::xprtrdma::kMaxPayload;
}

/**
 * rpcrdmax_clnt_connect - establish a connection to @addr (sleeps)
 * @ep: the endpoint
 * @addr: the server's sockaddr
 * @addrlen: its length
 *
 * Returns 0 or -ECONNREFUSED, -EHOSTUNREACH, -ENETUNREACH, -ETIMEDOUT,
 * -ENOMEM as sunrpc expects of a failed connect.
 */
extern "C" int rpcrdmax_clnt_connect(void *ep, const void *addr, unsigned int addrlen) noexcept
{
	return static_cast<ClntEp *>(ep)->connect(addr, addrlen);
}

/** rpcrdmax_clnt_send - transmit one RPC Call; see the shim header for errors */
extern "C" int rpcrdmax_clnt_send(void *ep, void *rqst, unsigned int xid, unsigned int) noexcept
{
	return static_cast<ClntEp *>(ep)->send(rqst, xid);
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

/** rpcrdmax_clnt_print_stats - the RDMA counters of the mountstats line */
extern "C" void rpcrdmax_clnt_print_stats(void *ep, void *seq) noexcept
{
	static_cast<ClntEp *>(ep)->print_stats(seq);
}
