/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma/rw.h - RDMA Read and Write through the kernel's rdma_rw API.
 *
 * An RwCtx moves one remote segment (handle, offset, length) into or out
 * of local page pieces: init() DMA-maps the pieces and builds the work
 * requests (plain SGEs or registrations, as the device needs) and says
 * how many Send Queue entries they take.  An RwList posts several
 * contexts, optionally followed by a Send, as one chain whose final
 * request alone signals; its contexts take their scatterlists from one
 * block the list keeps, sized by the caller for the whole chain, so a
 * chunk of many segments costs one allocation, not one per segment.
 * Both are made to be reused: destroy() unmaps but keeps the memory, so
 * a connection's pooled contexts allocate only when they first need more
 * room.  As with every work request, a posted context is destroyed only
 * after that completion (or the flush).
 */
#pragma once

#include "verbs.h"
#include "../ktl/trace.h"

namespace rpcrdmax::rdma {

class RwCtx {
public:
	RwCtx() = default;
	RwCtx(const RwCtx &) = delete;
	RwCtx &operator=(const RwCtx &) = delete;
	~RwCtx()
	{
		destroy();
		delete[] sgl_;
	}

	/* @dir: RPCRDMAX_DMA_FROM_DEVICE reads, RPCRDMAX_DMA_TO_DEVICE writes.
	 * @sgl: scatterlist room for segs.size() entries lent by the caller
	 * (an RwList's block) until destroy(), or nullptr for the context's
	 * own, kept for the next init(); that grows (and take_grown() counts
	 * it) only when a context needs more pieces. */
	Result<u32> init(const CmId &id, ktl::Span<const rpcrdmax_page_seg> segs,
			 u64 remote_addr, u32 rkey, int dir, ktl::u8 *sgl = nullptr)
	{
		if (id_ || segs.empty())
			return ktl::error(ktl::err::EINVAL);
		auto n = static_cast<unsigned int>(segs.size());
		if (!sgl) {
			RPCRDMAX_TRY(reserve(n));
			sgl = sgl_;
		}
		int wrs = rpcrdmax_rw_init(ctx_.get(), id.get(), sg(sgl), segs.data(), n,
					   remote_addr, rkey, dir);
		if (wrs < 0) {
			/* rdma_rw is the server's only (stock's event name) */
			if (ktl::tp_on(RPCRDMAX_TP_SVCRDMA_DMA_MAP_RW_ERR))
				rpcrdmax_trace_svc_dma_map_rw_err(id.get(), n, wrs);
			return Errno::from(wrs);
		}
		id_ = id.get();
		in_use_ = sgl;
		nsegs_ = n;
		dir_ = dir;
		sq_entries_ = static_cast<u32>(wrs);
		return sq_entries_;
	}

	/* Room for @n pieces in the scatterlist (it never shrinks). */
	Result<void> reserve(unsigned int n)
	{
		if (n <= sgl_cap_)
			return {};
		if (id_)
			return ktl::error(ktl::err::EBUSY);
		delete[] ktl::exchange(sgl_, nullptr);
		sgl_cap_ = 0;
		sgl_ = new (ktl::Gfp::Kernel) ktl::u8[n * RPCRDMAX_SIZEOF_SCATTERLIST];
		if (!sgl_)
			return ktl::error(ktl::err::ENOMEM);
		sgl_cap_ = n;
		grew_++;
		return {};
	}

	/* Unmap; the own scatterlist stays for reuse (freed with the context). */
	void destroy()
	{
		if (id_)
			rpcrdmax_rw_destroy(ctx_.get(), id_, sg(in_use_), nsegs_, dir_);
		id_ = nullptr;
		in_use_ = nullptr;
		sq_entries_ = 0;
	}

	/* Allocations made since the last call. */
	u32 take_grown() { return ktl::exchange(grew_, 0u); }

	bool ready() const { return id_ != nullptr; }
	u32 sq_entries() const { return sq_entries_; }
	rdma_rw_ctx *raw() { return ctx_.get(); }

private:
	ktl::Opaque<rdma_rw_ctx, RPCRDMAX_SIZEOF_RW_CTX, RPCRDMAX_ALIGNOF_RW_CTX> ctx_;
	/* Scatterlist storage (RPCRDMAX_SIZEOF_SCATTERLIST per entry) as rdma_rw takes it. */
	static scatterlist *sg(ktl::u8 *room) { return reinterpret_cast<scatterlist *>(room); }

	rdma_cm_id *id_ = nullptr;
	ktl::u8 *sgl_ = nullptr;	/* own, made when no room was lent */
	ktl::u8 *in_use_ = nullptr;	/* own or lent, while prepared */
	unsigned int sgl_cap_ = 0;
	unsigned int nsegs_ = 0;
	int dir_ = 0;
	u32 sq_entries_ = 0;
	u32 grew_ = 0;
};

/* Up to a fixed number of contexts, posted as one chain. */
class RwList {
public:
	RwList() = default;
	RwList(const RwList &) = delete;
	RwList &operator=(const RwList &) = delete;
	~RwList()
	{
		delete[] ctxs_;
		delete[] raws_;
		delete[] sgl_;
	}

	/*
	 * Room for @max contexts and, in the block they share, @pieces
	 * scatterlist entries in all: the caller's bound on the page pieces
	 * of the whole chain.  A context whose pieces no longer fit the block
	 * uses its own scatterlist instead, so a low bound costs allocations,
	 * never correctness.  A list is reused: it and its block grow
	 * (counted, see take_grown()) only when it is empty and asked for
	 * more than it has.
	 */
	Result<void> alloc(u32 max, u32 pieces)
	{
		if (!max || n_)
			return ktl::error(ktl::err::EINVAL);
		if (max > max_) {
			delete[] ktl::exchange(ctxs_, nullptr);
			delete[] ktl::exchange(raws_, nullptr);
			max_ = 0;
			ctxs_ = new (ktl::Gfp::Kernel) RwCtx[max];
			raws_ = new (ktl::Gfp::Kernel) rdma_rw_ctx *[max];
			if (!ctxs_ || !raws_)
				return ktl::error(ktl::err::ENOMEM);
			max_ = max;
			grew_++;
		}
		if (pieces > sgl_cap_) {
			delete[] ktl::exchange(sgl_, nullptr);
			sgl_cap_ = 0;
			sgl_ = new (ktl::Gfp::Kernel) ktl::u8[(ktl::size_t)pieces *
							      RPCRDMAX_SIZEOF_SCATTERLIST];
			if (!sgl_)
				return ktl::error(ktl::err::ENOMEM);
			sgl_cap_ = pieces;
			grew_++;
		}
		return {};
	}

	/* Allocations (lists, blocks and own scatterlists) since the last
	 * call: add() collects each context's as it prepares it. */
	u32 take_grown() { return ktl::exchange(grew_, 0u); }

	/* Prepare the next context; returns its Send Queue entries. */
	Result<u32> add(const CmId &id, ktl::Span<const rpcrdmax_page_seg> segs, u64 remote_addr,
			u32 rkey, int dir)
	{
		if (n_ == max_)
			return ktl::error(ktl::err::ENOBUFS);
		/* the next entries of the block, or (past it) the context's own */
		ktl::u8 *room = nullptr;
		if (segs.size() <= sgl_cap_ - sgl_used_)
			room = sgl_ + (ktl::size_t)sgl_used_ * RPCRDMAX_SIZEOF_SCATTERLIST;
		Result<u32> r = ctxs_[n_].init(id, segs, remote_addr, rkey, dir, room);
		grew_ += ctxs_[n_].take_grown();
		if (r.is_error())
			return r.error();
		const u32 wrs = r.value();
		if (room)
			sgl_used_ += static_cast<u32>(segs.size());
		raws_[n_] = ctxs_[n_].raw();
		n_++;
		sq_entries_ += wrs;
		return wrs;
	}

	/*
	 * Post every context, then @last if given (it carries its own
	 * completion); without @last the final context signals @cqe.  With
	 * no context, @last alone goes as any Send does.
	 */
	Result<void> post(const CmId &id, Cqe *cqe, Wr *last)
	{
		if (!n_ && last) {
			const ib_send_wr *bad = nullptr;
			return check(rpcrdmax_ib_post_send(id.qp(), last->kernel(), &bad));
		}
		return check(rpcrdmax_rw_post(id.get(), raws_, n_, cqe ? cqe->raw() : nullptr,
					      last ? last->kernel() : nullptr));
	}

	/* Unmap everything (after the chain completed or flushed). */
	void destroy()
	{
		for (u32 i = 0; i < n_; i++)
			ctxs_[i].destroy();
		n_ = 0;
		sq_entries_ = 0;
		sgl_used_ = 0;
	}

	u32 size() const { return n_; }
	u32 sq_entries() const { return sq_entries_; }

private:
	RwCtx *ctxs_ = nullptr;
	rdma_rw_ctx **raws_ = nullptr;
	ktl::u8 *sgl_ = nullptr;	 /* the contexts' scatterlists, in order */
	u32 sgl_cap_ = 0, sgl_used_ = 0; /* entries */
	u32 max_ = 0, n_ = 0;
	u32 sq_entries_ = 0;
	u32 grew_ = 0;
};

} // namespace rpcrdmax::rdma
