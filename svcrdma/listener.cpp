// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma/listener.cpp - the listening endpoint behind an "rdma" svc_xprt.
 *
 * A CONNECT_REQUEST is handled in the listener's CM callback: the new
 * connection gets its PD, CQs, QP and Receives, its svc_xprt, and is
 * accepted with our RFC 8797 private data; then it waits in pending_
 * until an nfsd thread calls xpo_accept.  Freeing the listener (after
 * svc closed it) destroys the listening id first, so no request can
 * arrive while the connections svc never took are discarded.
 */
#include "svcrdma.h"

namespace rpcrdmax::svcrdma {

Listener::~Listener()
{
	/* rdma_destroy_id waits for a callback in progress. */
	rpcrdmax_cm_destroy_id(id.release());
	for (;;) {
		SvcConn *c;
		{
			SpinLockBhGuard g(&lock_);
			c = pending_.pop_front();
		}
		if (!c)
			break;
		/* Its svc_xprt's free deletes the connection. */
		rpcrdmax_svc_xprt_discard(c->xprt);
	}
}

Result<void> Listener::listen(const void *addr, unsigned int addrlen)
{
	SockAddr sa;

	if (addrlen > sizeof(sa.raw.bytes))
		return error(err::EINVAL);
	mem_set(sa.raw.bytes, 0, sizeof(sa.raw.bytes));
	mem_copy(sa.raw.bytes, addr, addrlen);
	RPCRDMAX_TRY(id.create(this));
	RPCRDMAX_TRY(id.bind(sa));
	return id.listen(kListenBacklog);
}

/* A non-zero return from the CM callback refuses the request: count it. */
static int refused(int code)
{
	rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_REFUSED, 1);
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "refused a connection: %d", code);
	return code;
}

int Listener::cm_event(CmId *, const rpcrdmax_cm_event_info &ev)
{
	if (ev.event != RPCRDMAX_CM_CONNECT_REQUEST)
		return 0;

	SvcConn *c = new (Gfp::Kernel) SvcConn();
	if (!c)
		return refused(-err::ENOMEM);
	c->id.adopt(ev.new_id, c);
	auto r = c->setup(this, ev);
	if (r.is_error()) {
		/* The CM destroys the id when we refuse. */
		c->undo_setup();
		if (c->xprt)
			rpcrdmax_svc_xprt_discard(c->xprt); /* its free deletes c */
		else
			delete c;
		return refused(r.error().code());
	}
	{
		SpinLockBhGuard g(&lock_);
		pending_.push_back(c);
	}
	rpcrdmax_svc_xprt_conn_pending(xprt_);
	return 0;
}

void *Listener::accept(bool *more)
{
	SpinLockBhGuard g(&lock_);
	SvcConn *c = pending_.pop_front();

	*more = !pending_.empty();
	return c ? c->xprt : nullptr;
}

} // namespace rpcrdmax::svcrdma

using rpcrdmax::svcrdma::Listener;

/**
 * rpcrdmax_svcl_create - listen for RPC-over-RDMA connections
 * @xprt: the listener's svc_xprt
 * @addr: the address to listen on (sockaddr_in or sockaddr_in6)
 * @addrlen: its length
 * @out: set to the listener
 *
 * Returns 0 or a negative errno.
 */
extern "C" int rpcrdmax_svcl_create(void *xprt, const void *addr, unsigned int addrlen,
				    void **out) noexcept
{
	Listener *l = new (rpcrdmax::ktl::Gfp::Kernel) Listener(xprt);

	if (!l)
		return -rpcrdmax::ktl::err::ENOMEM;
	auto r = l->listen(addr, addrlen);
	if (r.is_error()) {
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "cannot listen: %d",
					 r.error().code());
		delete l;
		return r.error().code();
	}
	*out = l;
	return 0;
}

/** rpcrdmax_svcl_accept - the next connection's svc_xprt, or NULL */
extern "C" void *rpcrdmax_svcl_accept(void *listener, bool *more) noexcept
{
	return static_cast<Listener *>(listener)->accept(more);
}

/** rpcrdmax_svcl_destroy - stop listening, discard unaccepted connections, free */
extern "C" void rpcrdmax_svcl_destroy(void *listener) noexcept
{
	delete static_cast<Listener *>(listener);
}
