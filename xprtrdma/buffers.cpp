// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma/buffers.cpp - per-RPC buffers: one allocation holds the Req
 * and the Call and Reply buffers (rq_buffer, rq_rbuffer), kept in a small
 * cache of blocks; freeing them waits for the Req's MRs to be
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

} // namespace rpcrdmax::xprtrdma

using rpcrdmax::xprtrdma::ClntEp;
using rpcrdmax::xprtrdma::Req;

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
