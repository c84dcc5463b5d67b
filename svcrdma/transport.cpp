// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma/transport.cpp - the server transport's endpoints and their
 * lifetime: the listener behind an "rdma" svc_xprt, and each
 * connection's set-up, context free lists, Send Queue accounting,
 * disconnect and teardown.
 *
 * The listener's CM callback only queues a CONNECT_REQUEST (pending_)
 * and marks the listener XPT_CONN.  An nfsd thread then calls
 * xpo_accept, which sets the connection up in process context, as the
 * stock server does: the memory budget, PD, CQs, QP, Receives, the first
 * contexts, its svc_xprt, and rdma_accept with our RFC 8797 private
 * data; a request that cannot be set up is rejected and counted.
 * Freeing the listener (after svc closed it) destroys the listening id
 * first, so no request can arrive while the waiting ones are rejected.
 * A connection is destroyed from the svc_xprt's free (a work item) after
 * its QP is drained, so no completion touches freed memory.
 * Each posted work request holds a Send Queue slot until the signaled
 * request that ends its chain completes; a thread that finds the Send
 * Queue full sleeps until a completion returns slots or the connection
 * is lost.
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
		/* Not set up yet: nothing but its id to reject and destroy. */
		c->refuse();
		delete c;
	}
}

Result<void> Listener::listen(const void *addr, unsigned int addrlen)
{
	SockAddr sa;

	if (addrlen > sizeof(sa.raw.bytes))
		return error(err::EINVAL);
	mem_set(sa.raw.bytes, 0, sizeof(sa.raw.bytes));
	mem_copy(sa.raw.bytes, addr, addrlen);
	RPCRDMAX_TRY(id.create(this, rpcrdmax_svc_xprt_net(xprt_)));
	RPCRDMAX_TRY(id.bind(sa));
	return id.listen(kListenBacklog);
}

/* A non-zero return from the CM callback refuses the request: count it. */
static int refused(int code)
{
	stat_add(RPCRDMAX_SVC_STAT_REFUSED);
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "refused a connection: %d", code);
	return code;
}

/*
 * A CONNECT_REQUEST only queues the request: the connection is set up in
 * accept(), in an nfsd thread (process context, allowed to sleep and to
 * allocate), as the stock server does.  Returning non-zero here has the
 * CM reject the request and destroy its id.
 */
int Listener::cm_event(CmId *, const rpcrdmax_cm_event_info &ev)
{
	if (ev.event != RPCRDMAX_CM_CONNECT_REQUEST)
		return 0;

	SvcConn *c = new (Gfp::Kernel) SvcConn();
	if (!c)
		return refused(-err::ENOMEM);
	c->id.adopt(ev.new_id, c);
	c->take_request(ev);
	{
		SpinLockBhGuard g(&lock_);
		pending_.push_back(c);
	}
	rpcrdmax_svc_xprt_conn_pending(xprt_);
	return 0;
}

/*
 * xpo_accept: set up the next waiting connection and accept it.  One
 * that cannot be set up (over the memory budget, no memory, device
 * limits, a failed accept) is rejected, freed and counted; NULL then,
 * and svc calls again while *@more says others wait.
 */
svc_xprt *Listener::accept(bool *more)
{
	SvcConn *c;
	{
		SpinLockBhGuard g(&lock_);
		c = pending_.pop_front();
		*more = !pending_.empty();
	}
	if (!c)
		return nullptr;
	auto r = c->setup(this);
	if (r.is_ok())
		return c->xprt;
	c->refuse();
	if (c->xprt)
		rpcrdmax_svc_xprt_discard(c->xprt); /* its free deletes c */
	else
		delete c;
	(void)refused(r.error().code());
	return nullptr;
}

/* ---- set-up and teardown ---------------------------------------------- */

SvcConn::~SvcConn()
{
	if (id.get() && id.qp())
		drain();
	while (SendCtx *sc = orphans_.pop_front())
		delete sc;
	while (SendCtx *sc = posted_.pop()) /* unsignaled, never retired */
		delete sc;
	while (SendCtx *sc = send_free_.pop_front())
		delete sc;
	/* Calls the connection ended with: queued for nfsd, or held by a
	 * context svc never gave back. */
	while (ready_.pop_front())
		settle(Settle::Lost);
	List<CallCtx, &CallCtx::all> held; /* Reads that may complete yet */
	while (CallCtx *cc = calls_.pop_front()) { /* free or never given back */
		if (cc->busy)
			settle(cc, Settle::Lost);
		if (cc->reads.held)
			held.push_back(cc);
		else
			delete cc;
	}
	if (int n = unsettled_.read()) {
		stat_add(RPCRDMAX_SVC_STAT_UNSETTLED, (u32)(n < 0 ? -n : n));
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING,
					 "%pISc: connection ended with %d messages unsettled",
					 rpcrdmax_cm_peer_addr(id.get()), n);
	}
	delete[] recvs_;
	for (u32 i = 0; i < nspares_; i++)
		delete spares_[i];
	delete v2_;
	/* after the contexts (rdma_rw's need it), before the CQs and PD; the
	 * id last (svcrdma.h) */
	id.destroy_qp();
	if (!held.empty()) {
		scq_.free();
		rcq_.free();
		while (CallCtx *cc = held.pop_front())
			delete cc;
	}
}

/* ---- context free lists ----------------------------------------------- */

CallCtx *SvcConn::new_call()
{
	CallCtx *cc = new (Gfp::Kernel) CallCtx;

	if (!cc)
		return nullptr;
	count_allocs(1);
	SpinLockBhGuard g(&lock_);
	calls_.push_back(cc);
	return cc;
}

SendCtx *SvcConn::new_send()
{
	SendCtx *sc = new (Gfp::Kernel) SendCtx(&SendCtx::done);

	if (!sc)
		return nullptr;
	sc->conn = this;
	if (sc->make(id.device(), lim_.send_size, (int)(send_ids_.add_return(1) - 1)).is_error()) {
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

/* svc gives @cc back (release): a Call it never answered was lost with
 * the connection, or dropped by nfsd (svc_drop). */
RPCRDMAX_HOT_ENTRY void SvcConn::put_call(CallCtx *cc)
{
	if (cc->busy && !cc->settled)
		settle(cc, gone() ? Settle::Lost : Settle::SvcDrop);
	cc->busy = false;
	uncount_call(cc);
	SpinLockBhGuard g(&lock_);
	if (cc->rb)
		spare_recvs_.push_back(cc->rb);
	cc->rb = nullptr;
	if (!cc->reads.held) /* else it stays on calls_ alone: ~SvcConn */
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

/* Keep what setup() needs of a CONNECT_REQUEST (valid only in the CM
 * callback). */
void SvcConn::take_request(const rpcrdmax_cm_event_info &ev)
{
	req_pd_len_ = ev.private_data ? min(ev.private_data_len, kReqPdMax) : 0;
	if (req_pd_len_)
		mem_copy(req_pd_, ev.private_data, req_pd_len_);
	req_initiator_depth_ = ev.initiator_depth;
}

/* Reject the request and undo what setup() did on the id; the id itself
 * goes with the connection. */
void SvcConn::refuse()
{
	if (id.qp()) {
		drain();
		id.destroy_qp();
	}
	(void)rpcrdmax_cm_reject(id.get(), nullptr, 0);
}

/*
 * The Receive buffers are the big per-connection allocation: refuse a
 * connection whose buffers exceed the budget (svcrdma.h), and let the
 * allocations themselves fail rather than wake the OOM killer.
 */
static constexpr Gfp kRecvGfp = Gfp::Kernel | GfpNoWarn | GfpRetryMayFail;

static bool recv_within_budget(const ConnLimits &lim, rdma_cm_id *cm_id)
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

/* @r, a set-up step's outcome, fires svcrdma_@which_err when it failed. */
Result<void> SvcConn::traced(rpcrdmax_accept_err which, Result<void> r)
{
	if (r.is_error() && tp_any(RPCRDMAX_TP_SVCRDMA_ACCEPT_ERRS))
		rpcrdmax_trace_svc_accept_err(which, id.get(), r.error().code());
	return r;
}

/*
 * PD, CQs and QP.  The Send Queue: a Send per credit and per backward
 * Call slot plus one for an error reply, kSendTailRoom for unsignaled
 * Sends (kSendBatch), and rdma_rw contexts for a largest chunk payload
 * per credit (the core adds their work requests, capped by the device).
 * The Receive Queue: a Receive per credit and per backward Call slot
 * (its Reply), kRecvBatch - 1 waiting for their batch, and room for
 * ib_drain_qp's.
 */
Result<void> SvcConn::make_queues(const rpcrdmax_dev_attrs &attrs)
{
	const u32 credits = lim_.credits;
	const u32 send_wr = credits + kBcSlots + 1 + kSendTailRoom;
	const u32 recv_wr = credits + kBcSlots + kRecvBatch - 1 + 1;
	const u32 ctxs = credits * rpcrdmax_rw_mr_factor(id.get(), lim_.chunk.pieces);
	const u32 scq_len = min(min(send_wr + 3 * ctxs, attrs.max_qp_wr), attrs.max_cqe);
	const QueueSizes qs = { send_wr, recv_wr, scq_len, recv_wr, max(attrs.max_send_sge, 1u),
				1, ctxs };
	QueueStep step;

	if (attrs.max_qp_wr < send_wr + recv_wr)
		return error(err::ENOMEM);
	auto made = rdma::make_queues(id, pd_, scq_, rcq_, qs, &step);
	if (made.is_error()) {
		if ((step == QueueStep::Pd || step == QueueStep::Qp) &&
		    tp_any(RPCRDMAX_TP_SVCRDMA_PD_ERR, RPCRDMAX_TP_SVCRDMA_QP_ERR))
			rpcrdmax_trace_svc_accept_err(step == QueueStep::Pd ? RPCRDMAX_ACCEPT_ERR_PD
									   : RPCRDMAX_ACCEPT_ERR_QP,
						      id.get(), made.error().code());
		return made.error();
	}
	u32 sq = made.value();
	max_send_sge_ = min(max(attrs.max_send_sge, 1u), core::kInlineMaxSges);
	/* Every slot has a CQ entry; one stays for the drain, a few (the
	 * tail room) for unsignaled Sends (kSendBatch), the rest are sq_'s. */
	sq = min(sq, scq_len);
	tail_room_ = min(kSendTailRoom, sq / 4);
	if (sq < tail_room_ + 2)
		return error(err::ENOMEM);
	sq_.init(sq - 1 - tail_room_);
	return {};
}

/* One Receive buffer per credit and per backward Call slot, and
 * kRecvBatch - 1 for those waiting to be reposted, mapped and posted.
 * (The memory budget counts the credits' alone: the few more are the
 * same for every connection.)  Spares come later (get_spare). */
Result<void> SvcConn::make_receives()
{
	nrecvs_ = lim_.credits + kBcSlots + kRecvBatch - 1;
	recvs_ = new (kRecvGfp) RecvBuf[nrecvs_];
	if (!recvs_)
		return error(err::ENOMEM);
	for (u32 i = 0; i < nrecvs_; i++) {
		/* cid: as svcrdma_decode_rqst names it */
		RPCRDMAX_TRY(make_recv(&recvs_[i], (int)i));
		RPCRDMAX_TRY(post_recv(&recvs_[i]));
	}
	count_allocs(nrecvs_);
	return {};
}

/* Make @rb this connection's, its buffer mapped and its Receive work
 * request built (@cid: its tracepoints' id). */
Result<void> SvcConn::make_recv(RecvBuf *rb, int cid)
{
	rb->conn = this;
	auto made = rb->make(id.device(), lim_.recv_size, RPCRDMAX_DMA_FROM_DEVICE, cid, kRecvGfp);
	if (rb->map_failed(made) && tp_on(RPCRDMAX_TP_SVCRDMA_DMA_MAP_ERR))
		rpcrdmax_trace_svc_dma_map_err(id.get(), rb->map.dma(), lim_.recv_size);
	RPCRDMAX_TRY(made);
	rb->wr.prepare(rb->cqe.raw(), rb->map.sge(pd_.local_dma_lkey()));
	return {};
}

/*
 * A Receive buffer to post in place of one an inline Call keeps
 * (arg_in_place): a free spare, or while fewer than kSpareRecvs were
 * made, a new one (counted in rdma_stat_ctxt_alloc), kept for the
 * connection's life.  nullptr when there is none: the Call is copied.
 * A spare that could not be made still takes its place in the count.
 */
RecvBuf *SvcConn::get_spare()
{
	u32 slot;
	{
		SpinLockBhGuard g(&lock_);
		if (RecvBuf *rb = spare_recvs_.pop_front())
			return rb;
		if (nspares_ == kSpareRecvs)
			return nullptr;
		slot = nspares_++;
	}
	RecvBuf *rb = new (kRecvGfp) RecvBuf;
	/* cid: after the posted ones' */
	if (rb && make_recv(rb, (int)(nrecvs_ + slot)).is_error()) {
		delete rb;
		rb = nullptr;
	}
	if (rb)
		count_allocs(1);
	SpinLockBhGuard g(&lock_);
	spares_[slot] = rb;
	return rb;
}

/* Set the connection up from its request, make its svc_xprt, accept. */
Result<void> SvcConn::setup(Listener *l)
{
	rpcrdmax_dev_attrs attrs;
	const u32 credits = lim_.credits;

	lim_.chunk = chunk_sizes(rpcrdmax_svc_max_payload(l->xprt()));
	if (!recv_within_budget(lim_, id.get()))
		return error(err::ENOMEM);
	RPCRDMAX_TRY(check(rpcrdmax_ib_query_device(id.device(), &attrs)));
	AcceptPlan plan = plan_accept(ConstBytes(req_pd_, req_pd_len_), attrs,
				      req_initiator_depth_, lim_);
	lim_.send_size = plan.ours.send_size;
	RPCRDMAX_TRY(make_queues(attrs));
	RPCRDMAX_TRY(make_receives());
	RPCRDMAX_TRY(fill_pools(min(credits, kPoolCalls), min(credits, kPoolSends)));

	thr_ = plan.thr;
	v2_rbsiz_.set((int)(plan.peer_pd ? plan.thr.reply : core::kV2DefaultRbsiz));
	send_inv_ = plan.send_inv;
	can_inv_ = plan.ours.remote_inv;
	ord_ = plan.ord;
	/* The client's Replies to our backward Calls land on the kBcSlots
	 * Receives posted for them, counted until recvfrom tells them apart. */
	core::credits_responder_init(&credits_, credits, kBcSlots);

	xprt = rpcrdmax_svc_xprt_new(l->xprt(), id.get(), this);
	if (!xprt)
		return error(err::ENOMEM);

	u8 pd[core::kPdSize];
	u32 pdlen = RPCRDMAX_TRY(core::pd_encode(plan.ours, Bytes(pd, sizeof(pd))));
	RPCRDMAX_TRY(traced(RPCRDMAX_ACCEPT_ERR_ACCEPT,
			    id.accept_deferred(ConstBytes(pd, pdlen), ord_, 0)));
	/* Lost before xprt was set (the client gave up while we set up):
	 * lost() could not close it then. */
	if (lost_.read())
		rpcrdmax_svc_xprt_close(xprt);
	return {};
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

/*
 * Drain the QP: every work request posted before this completes or
 * flushes.  Called only once the connection is lost (or was never up),
 * so sq_ is shut and no one takes Send Queue slots any more: posters
 * that hold slots post into their own room, and Receives are reposted
 * only into buffers the Receive Queue had.  Drains are serialized, so
 * the one slot each queue keeps for ib_drain_qp's request (make_queues)
 * is enough even when an nfsd thread and the teardown drain at once.
 */
void SvcConn::drain()
{
	MutexGuard g(&drain_mutex_);
	id.drain();
}

/* svc closes the connection (xpo_detach): a thread waiting for Send
 * Queue room gives up at once, as on a loss, rather than when the
 * disconnect's flushes return its slots. */
void SvcConn::detach()
{
	sq_.shut();
	(void)id.disconnect();
}

/* ---- Send Queue accounting -------------------------------------------- */

/* Take @n Send Queue slots (rdma::SqSlots): each time too few are free
 * counts in rdma_stat_sq_starve and fires svcrdma_sq_full, each retry
 * after waking svcrdma_sq_retry, as stock.  A waiter that wakes to find
 * svc closing the connection (XPT_CLOSE, which no one here was told of)
 * gives up. */
Result<void> SvcConn::sq_reserve(u32 n)
{
	return sq_.reserve(n, [this](bool retry) {
		if (retry && xprt && rpcrdmax_svc_xprt_closing(xprt))
			sq_.shut();
		if (!retry)
			stat_add(RPCRDMAX_SVC_STAT_SQ_STARVE);
		if (tp_any(RPCRDMAX_TP_SVCRDMA_SQ_FULL, RPCRDMAX_TP_SVCRDMA_SQ_RETRY))
			rpcrdmax_trace_svc_sq_wait(id.get(), sq_.available(), (int)sq_.depth(),
						   retry);
	});
}

void SvcConn::sq_release(u32 n)
{
	sq_.release(n);
}
} // namespace rpcrdmax::svcrdma

using rpcrdmax::svcrdma::Listener;
using rpcrdmax::svcrdma::SvcConn;

/**
 * rpcrdmax_svcl_create - listen for RPC-over-RDMA connections
 * @xprt: the listener's svc_xprt
 * @addr: the address to listen on (sockaddr_in or sockaddr_in6)
 * @addrlen: its length
 * @out: set to the listener
 *
 * Returns 0 or a negative errno.
 */
extern "C" int rpcrdmax_svcl_create(svc_xprt *xprt, const void *addr, unsigned int addrlen,
				    rpcrdmax_svcl **out) noexcept
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
extern "C" svc_xprt *rpcrdmax_svcl_accept(rpcrdmax_svcl *listener, bool *more) noexcept
{
	return static_cast<Listener *>(listener)->accept(more);
}

/** rpcrdmax_svcl_destroy - stop listening, discard unaccepted connections, free */
extern "C" void rpcrdmax_svcl_destroy(rpcrdmax_svcl *listener) noexcept
{
	delete static_cast<Listener *>(listener);
}

/** rpcrdmax_svcc_detach - stop taking Send Queue room, start disconnecting */
extern "C" void rpcrdmax_svcc_detach(rpcrdmax_svcc *conn) noexcept
{
	static_cast<SvcConn *>(conn)->detach();
}

/** rpcrdmax_svcc_destroy - drain and free a connection (sleeps) */
extern "C" void rpcrdmax_svcc_destroy(rpcrdmax_svcc *conn) noexcept
{
	delete static_cast<SvcConn *>(conn);
}
