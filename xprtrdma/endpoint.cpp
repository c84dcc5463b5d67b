// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma/endpoint.cpp - the client endpoint (ClntEp) behind one sunrpc
 * transport: connect delays and attempts, transmit, close, and the entry
 * points sunrpc's shim calls.  The connection itself is connect.cpp,
 * Sends and Receives transfer.cpp, per-RPC buffers buffers.cpp, the
 * counters stats.cpp.
 *
 * Life cycle: one Conn per connection, made by connect() in the connect
 * worker and destroyed by close() after its QP is drained, so no
 * completion can touch a freed buffer.  sunrpc serializes send() with
 * close() (both hold the transport's write lock).  Both kinds of
 * completion end before the drain returns.
 */
#include "xprtrdma.h"

namespace rpcrdmax::xprtrdma {

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
 * such Calls queued behind a slow reconnect, every new connection would
 * be reset that way and the mount would not recover.  So a hard Call
 * always gets one whole retransmit timeout on the wire: its major
 * timeout moves to then if it is sooner, and the Reply timer's firing
 * again means the connection failed to answer it.
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
		stats.add(ClntStat::LateCalls);
	return full;
}

/*
 * The retransmit timeout a Call just sent waits for its Reply with:
 * sunrpc's @timeout, but at most kV2ProbeMs while the connection's first
 * Version Two Call is unanswered.  A server that silently drops Version
 * Two Calls (the draft's Section 7.2 wants ERR_VERS, but such servers
 * exist) then costs a mount kV2ProbeMs instead of a whole retransmit
 * timeout (60 s for NFS over RDMA) before ->timer resets the connection,
 * close() remembers Version One, and the Call goes again on the new
 * connection in Version One.  It is a minor time-out, not a major one:
 * a soft mount does not fail the Call, and a hard one says nothing.
 */
unsigned long ClntEp::reply_timeout(unsigned long timeout)
{
	if (!v2_probing())
		return timeout;
	return min(timeout, rpcrdmax_msecs_to_jiffies(kV2ProbeMs));
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
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_CONNECT))
		rpcrdmax_trace_connect(xprt_, r.is_error() ? r.error().code() : 0);
	if (r.is_error()) {
		const int rc = r.error().code();

		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "connect failed while %s: %d (%s)",
					 c->stage, rc, c->fail_reason(rc));
		delete c;
		return rc;
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
RPCRDMAX_HOT_ENTRY int ClntEp::transmit(rpc_rqst *rqst, unsigned int how, unsigned long now,
					long long xtime)
{
	const u32 xid = rqst_xid(rqst);
	const u32 len = rqst_xdr(rqst, false).len();
	int rc;

	if (!(how & RPCRDMAX_XMIT_CONNECTED))
		return -err::ENOTCONN; /* sunrpc connects first */
	if (!(how & RPCRDMAX_XMIT_CONG))
		return -err::EBADSLT;
	if (!rqst_buffer(rqst))
		return bc_send(rqst, xid, len); /* the Reply to a backward Call */
	if ((how & RPCRDMAX_XMIT_SAME_CONNECTION) && !may_resend(rqst))
		return -err::ENOTCONN;
	rc = send(rqst, xid);
	if (rc)
		return rc;
	rqst_account_sent(rqst, len, xtime);
	if (!(how & RPCRDMAX_XMIT_REPLY_EXPECTED))
		return -err::ENOTCONN;
	unsigned long &timeout = rqst_timeout(rqst);

	rqst_majortimeo(rqst) = reply_major(now, rqst_majortimeo(rqst), timeout,
					    how & RPCRDMAX_XMIT_SOFT);
	timeout = reply_timeout(timeout);
	return 0;
}

int ClntEp::send(rpc_rqst *rqst, u32 xid)
{
	/* sunrpc's write lock keeps close() away while we transmit. */
	if (!conn_)
		return -err::ENOTCONN;
	auto r = conn_->send(rqst, xid);
	return r.is_ok() ? 0 : r.error().code();
}

int ClntEp::bc_send(rpc_rqst *rqst, u32 xid, u32 len)
{
	if (!conn_)
		return -err::ENOTCONN;
	auto r = conn_->bc_send(rqst, xid, len);
	return r.is_ok() ? 0 : r.error().code();
}

/* A retransmission may go on the connection its Call went on only when
 * ERR_VERS answered that Call there (xprtrdma/v2.cpp). */
bool ClntEp::may_resend(rpc_rqst *rqst)
{
	Req *req = Req::from_call_buffer(rqst_buffer(rqst));
	return exchange(req->resend_ok, false);
}

void ClntEp::remember_v1(const char *why)
{
	v2_probe(false);
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
	/*
	 * The connection ends with its first Version Two Call unanswered:
	 * its short wait ran out (ClntEp::reply_timeout), the peer went, or
	 * a device was removed.  One such end says little of the server's
	 * version: the Call may never have reached it (soft-iWARP has held
	 * a connection's first Send until the connection was torn down),
	 * or nfsd may have been slow with it.  kV2CutOffs in a row are the
	 * draft's Section 7.2 case ("the initial negotiation message is
	 * lost or dropped"): Version One from then on, so that a server
	 * that drops Version Two Calls is not asked for ever.
	 */
	if (c->established() && c->v2_unanswered() &&
	    cut_off_.add_return(1) >= kV2CutOffs)
		remember_v1("connections in a row ended before the first version 2 Call was answered");
	v2_probe(false);
	auto d = c->id.disconnect();
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_DISCONNECT))
		rpcrdmax_trace_disconnect(xprt_, d.is_error() ? d.error().code() : 0,
					  c->established());
	delete c; /* drains the QP, detaches MRs from their requests */
}

ClntEp::~ClntEp()
{
	close();
	if (Req *req = last_freed_.exchange(nullptr))
		destroy_req(req);
	while (Req *req = cache_.pop_front())
		destroy_req(req);
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
extern "C" rpcrdmax_clnt *rpcrdmax_clnt_create(rpc_xprt *xprt) noexcept
{
	auto *ep = new (rpcrdmax::ktl::Gfp::Kernel) ClntEp(xprt);

	if (ep && !ep->stats.made()) {
		delete ep;
		return nullptr;
	}
	return ep;
}

/** rpcrdmax_clnt_max_payload - largest RPC payload the endpoint carries */
extern "C" unsigned int rpcrdmax_clnt_max_payload(rpcrdmax_clnt *) noexcept
{
	return rpcrdmax::xprtrdma::kMaxPayload;
}

/**
 * rpcrdmax_clnt_connect_delay - how long sunrpc's ->connect waits first
 * @ep: the client transport
 *
 * Returns jiffies before the connect attempt.
 */
extern "C" unsigned long rpcrdmax_clnt_connect_delay(rpcrdmax_clnt *ep) noexcept
{
	return static_cast<ClntEp *>(ep)->connect_delay();
}

/**
 * rpcrdmax_clnt_connect - establish a connection to @addr (sleeps)
 * @ep: the endpoint
 * @addr: the server's sockaddr
 * @addrlen: its length
 *
 * Returns 0 or -ECONNREFUSED, -EHOSTUNREACH, -ENETUNREACH, -ENETDOWN
 * (the device removed or the address changed), -ECONNABORTED, -ETIMEDOUT,
 * after which sunrpc connects again; -EOPNOTSUPP (no FRWR) or -ENOMEM.
 */
extern "C" int rpcrdmax_clnt_connect(rpcrdmax_clnt *ep, const void *addr,
				     unsigned int addrlen) noexcept
{
	return static_cast<ClntEp *>(ep)->connect(addr, addrlen);
}

/**
 * rpcrdmax_clnt_transmit - sunrpc's send_request: transmit one message
 * @ep: the endpoint
 * @rqst: the rpc_rqst
 * @how: what sunrpc's helpers say of it (enum rpcrdmax_xmit_how)
 * @now: jiffies
 * @xtime: ktime_get() in nanoseconds, before the Call was marshalled
 *
 * Returns 0 or the errno for sunrpc: -ENOTCONN (not connected, or reset),
 * -EBADSLT (no congestion slot), or another that fails this transmission.
 */
extern "C" int rpcrdmax_clnt_transmit(rpcrdmax_clnt *ep, rpc_rqst *rqst, unsigned int how,
				      unsigned long now, long long xtime) noexcept
{
	return static_cast<ClntEp *>(ep)->transmit(rqst, how, now, xtime);
}

/** rpcrdmax_clnt_bc_max_payload - the largest backward message's RPC part */
extern "C" unsigned int rpcrdmax_clnt_bc_max_payload(rpcrdmax_clnt *ep) noexcept
{
	return static_cast<ClntEp *>(ep)->bc_max_payload();
}

/** rpcrdmax_clnt_bc_slots - backward Calls a transport takes at once */
extern "C" unsigned int rpcrdmax_clnt_bc_slots(void) noexcept
{
	return rpcrdmax::xprtrdma::kBcSlots;
}

/** rpcrdmax_clnt_close - disconnect and release the connection (sleeps) */
extern "C" void rpcrdmax_clnt_close(rpcrdmax_clnt *ep) noexcept
{
	static_cast<ClntEp *>(ep)->close();
}

/** rpcrdmax_clnt_destroy - free the endpoint (after close) */
extern "C" void rpcrdmax_clnt_destroy(rpcrdmax_clnt *ep) noexcept
{
	delete static_cast<ClntEp *>(ep);
}
