// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma/buffers.cpp - per-RPC buffers: one allocation holds the Req
 * and the Call and Reply buffers (rq_buffer, rq_rbuffer), kept with their
 * Req in a small cache; freeing them waits for the Req's MRs to be
 * invalidated, and fences the MRs by disconnecting when that takes too
 * long.  buf_free() takes the endpoint mutex, so it never races close()
 * over a request's MRs.
 */
#include "xprtrdma.h"

namespace rpcrdmax::xprtrdma {

/* Each request's allocation: Req, then its Call and Reply buffers. */
inline constexpr u32 kReqHeader = (u32)round_up<size_t>(sizeof(Req), 64);

Req *Req::from_call_buffer(void *call)
{
	return reinterpret_cast<Req *>(static_cast<u8 *>(call) - kReqHeader);
}

/* A request and its allocation, gone for good. */
void destroy_req(Req *req)
{
	req->~Req();
	rpcrdmax_kfree(req);
}

/*
 * buf_alloc() without a fitting request in last_freed_ (@kept: the one
 * it held, too small, or nullptr): one from the cache if it fits, else a
 * new block of @need octets rounded up to a power of two.  Reused ones
 * are reset (Req::reuse); nullptr when no memory.
 */
Req *ClntEp::take_req_slow(Req *kept, u32 need, unsigned int gfp)
{
	Req *req = kept;

	if (!req) {
		SpinLockBhGuard g(&cache_lock_);
		req = cache_.pop_front();
		if (req)
			cached_--;
	}
	if (req && req->block_size < need) {
		destroy_req(req); /* the next allocation is the larger size */
		req = nullptr;
	}
	if (req) {
		req->reuse();
		return req;
	}
	const u32 size = round_up_pow2(need);
	void *raw = rpcrdmax_kmalloc(size, gfp);
	if (!raw)
		return nullptr;
	stats.add(ClntStat::ReqBlocks);
	req = new (raw) Req;
	req->block_size = size;
	return req;
}

/*
 * Keep @req for the next RPC (in last_freed_, which passes the one there
 * before to the cache), or free it when enough are kept.  One that
 * buf_free waited on is not kept: its completion was used, and is made
 * anew with the next allocation.  (Its MRs are gone by now: invalidated, or
 * detached by a reconnect.)
 */
void ClntEp::keep_req(Req *req)
{
	if (!req->sync_wait && req->mrs.empty()) {
		req = last_freed_.exchange(req);
		if (!req)
			return;
		SpinLockBhGuard g(&cache_lock_);
		if (cached_ < xprt_max_reqs(xprt_)) {
			cache_.push_front(req);
			cached_++;
			return;
		}
	}
	destroy_req(req);
}

/*
 * One RPC's transport state and buffers, in one block: the Req, then the
 * Call buffer (@callsize) and the Reply buffer (@rcvsize).  A request an
 * earlier RPC freed is reused with its block when large enough; new
 * blocks are rounded up to a power of two (the kmalloc size class they
 * fill anyway) so that reuse settles on the largest size in use.
 */
Req *ClntEp::buf_alloc(u32 callsize, u32 rcvsize, unsigned int gfp)
{
	const u32 cs = round_up<u32>(callsize, 64), rs = round_up<u32>(rcvsize, 64);
	const u64 need64 = (u64)kReqHeader + cs + rs;
	if (need64 > (1u << 30))
		return nullptr;
	const u32 need = (u32)need64;
	Req *req = last_freed_.exchange(nullptr);

	if (__builtin_expect(req && req->block_size >= need, 1))
		req->reuse();
	else if (!(req = take_req_slow(req, need, gfp)))
		return nullptr;
	u8 *raw = reinterpret_cast<u8 *>(req);
	req->call = raw + kReqHeader;
	req->rcv = raw + kReqHeader + cs;
	return req;
}

void ClntEp::buf_free(Req *req)
{
	req->give_back();
	/* Most RPCs end with their MRs invalidated by the Reply handler: then
	 * no lock.  Unlocked is safe: only this RPC adds MRs to its
	 * request, and close() (under the mutex) only takes them away. */
	if (!req->mrs.empty_once())
		release_live(req);
	keep_req(req);
}

/* buf_free() of a request that may hold registrations still live (the
 * RPC ended early: a signal, a soft timeout): they are invalidated
 * before its pages go back. */
void ClntEp::release_live(Req *req)
{
	MutexGuard g(&mutex_);
	Conn *c = conn_;

	if (!req->mrs.empty() && c && req->conn == c) {
		req->sync_wait = true;
		if (c->frwr_invalidate(req, true).is_ok() &&
		    !req->invalidated.wait_ms(invalidate_ms))
			c->fence_invalidate(req);
		c->frwr_release(req);
	}
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
	ep_->stats.add(ClntStat::InvFenced);
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING,
				 "LOCAL_INV not done in %u ms: disconnecting to fence the MRs",
				 ep_->invalidate_ms);
	lost();
	(void)id.disconnect();
	while (!req->invalidated.wait_ms(kInvalidateMs))
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING,
					 "still waiting for a flushed LOCAL_INV");
}

} // namespace rpcrdmax::xprtrdma

using rpcrdmax::xprtrdma::ClntEp;
using rpcrdmax::xprtrdma::Req;

/**
 * rpcrdmax_clnt_buf_alloc - buffers for one RPC, with its transport state
 * @ep: the endpoint
 * @rqst: the rpc_rqst: rq_callsize and rq_rcvsize octets are wanted, and
 *	rq_buffer and rq_rbuffer are set to them
 * @gfp: allocation flags of the RPC task
 *
 * Returns 0 or -ENOMEM.
 */
extern "C" RPCRDMAX_HOT_ENTRY int rpcrdmax_clnt_buf_alloc(rpcrdmax_clnt *ep, rpc_rqst *rqst,
							  unsigned int gfp) noexcept
{
	using namespace rpcrdmax::xprtrdma;
	const size_t callsize = RPCRDMAX_FIELD(size_t, rqst, RPC_RQST_CALLSIZE);
	const size_t rcvsize = RPCRDMAX_FIELD(size_t, rqst, RPC_RQST_RCVSIZE);
	Req *req = callsize < (1u << 30) && rcvsize < (1u << 30)
			   ? static_cast<ClntEp *>(ep)->buf_alloc((u32)callsize, (u32)rcvsize, gfp)
			   : nullptr;

	if (!req)
		return -err::ENOMEM;
	RPCRDMAX_FIELD_REF(void *, rqst, RPC_RQST_BUFFER) = req->call;
	RPCRDMAX_FIELD_REF(void *, rqst, RPC_RQST_RBUFFER) = req->rcv;
	return 0;
}

/**
 * rpcrdmax_clnt_buf_free - release an RPC's buffers (may sleep to invalidate)
 * @ep: the endpoint
 * @rqst: the rpc_rqst; none when its rq_buffer is NULL, which it is after
 */
extern "C" RPCRDMAX_HOT_ENTRY void rpcrdmax_clnt_buf_free(rpcrdmax_clnt *ep,
							  rpc_rqst *rqst) noexcept
{
	using namespace rpcrdmax::xprtrdma;
	void *&call = RPCRDMAX_FIELD_REF(void *, rqst, RPC_RQST_BUFFER);

	if (!call)
		return;
	static_cast<ClntEp *>(ep)->buf_free(Req::from_call_buffer(call));
	call = nullptr;
	RPCRDMAX_FIELD_REF(void *, rqst, RPC_RQST_RBUFFER) = nullptr;
}
