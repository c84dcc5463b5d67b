/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma/verbs.h - RDMA resources as C++ objects over the cm and verbs shims.
 *
 * Every type is built empty and acquires its resource with a fallible
 * call returning ktl::Result<void>; its destructor releases whatever it
 * holds, so a half-built connection unwinds by going out of scope.  Work
 * requests are asynchronous: once one is posted, its completion (or flush)
 * is the only safe moment to reuse what it references, so nothing here
 * hides a post behind a destructor.
 */
#pragma once

#include "../ktl/alloc.h"
#include "../ktl/kernel.h"
#include "../ktl/span.h"
#include "../ktl/utility.h"

namespace rpcrdmax::rdma {

using ktl::Errno;
using ktl::Result;
using ktl::u32;
using ktl::u64;

/*
 * A work completion's fields, read in place of the CQ's struct ib_wc
 * (RPCRDMAX_KERNEL_FIELDS).  Only a successful completion has a valid
 * opcode, length and flags.
 */
inline u32 wc_status(const ib_wc &wc)
{
	return RPCRDMAX_FIELD(u32, &wc, IB_WC_STATUS);
}

inline u32 wc_opcode(const ib_wc &wc) /* RPCRDMAX_IB_WC_OP_* */
{
	return RPCRDMAX_FIELD(u32, &wc, IB_WC_OPCODE);
}

inline u32 wc_byte_len(const ib_wc &wc)
{
	return RPCRDMAX_FIELD(u32, &wc, IB_WC_BYTE_LEN);
}

inline u32 wc_vendor_err(const ib_wc &wc)
{
	return RPCRDMAX_FIELD(u32, &wc, IB_WC_VENDOR_ERR);
}

/* A Send With Invalidate arrived; wc_invalidated_rkey() is then the
 * rkey it invalidated. */
inline bool wc_with_invalidate(const ib_wc &wc)
{
	return wc_status(wc) == RPCRDMAX_IB_WC_SUCCESS &&
	       (RPCRDMAX_FIELD(int, &wc, IB_WC_FLAGS) & RPCRDMAX_IB_WC_WITH_INVALIDATE);
}

inline u32 wc_invalidated_rkey(const ib_wc &wc)
{
	return RPCRDMAX_FIELD(u32, &wc, IB_WC_INVALIDATE_RKEY);
}

/*
 * Whether @wc's work request succeeded.  A failure other than a flush
 * (the connection going, which every caller sees anyway) is logged,
 * rate-limited, as "@what failed: STATUS (vendor N)".
 */
inline bool wc_ok(const ib_wc &wc, const char *what)
{
	const u32 status = wc_status(wc);

	if (status == RPCRDMAX_IB_WC_SUCCESS)
		return true;
	if (status != RPCRDMAX_IB_WC_WR_FLUSH_ERR)
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "%s failed: %s (vendor %u)", what,
					 rpcrdmax_ib_wc_status_msg(status), wc_vendor_err(wc));
	return false;
}

inline Result<void> check(int rc)
{
	if (rc < 0)
		return Errno::from(rc);
	return {};
}

/* sockaddr_in/in6 storage, filled from a numeric address. */
struct SockAddr {
	ktl::Opaque<void, RPCRDMAX_SIZEOF_SOCKADDR_STORAGE, RPCRDMAX_ALIGNOF_SOCKADDR_STORAGE> raw;
	Result<void> parse(const char *addr, unsigned short port)
	{
		return check(rpcrdmax_sockaddr_parse(addr, port, raw.get(), sizeof(raw.bytes)));
	}
	const void *get() const { return raw.get(); }
};

/*
 * Completion storage.  The owner finds itself from the Cqe with
 * ktl::container_of(cqe, &Owner::member).
 */
class Cqe {
public:
	using Fn = void (*)(Cqe *cqe, const ib_wc &wc);
	/* @event: the stock tracepoint its completions fire. */
	explicit Cqe(Fn fn, rpcrdmax_wc_event event = RPCRDMAX_WC_EV_NONE) : fn_(fn)
	{
		rpcrdmax_ib_cqe_init(raw_.get(), &Cqe::upcall, event);
	}
	Cqe(const Cqe &) = delete;
	Cqe &operator=(const Cqe &) = delete;
	rpcrdmax_cqe *raw() { return raw_.get(); }
	/* The cid its tracepoints print. */
	void set_id(int id) { rpcrdmax_ib_cqe_set_id(raw_.get(), id); }
	int id() const { return RPCRDMAX_FIELD(int, raw_.get(), CQE_ID); }
	/* The function the next completions call (before its WR is posted). */
	void set_fn(Fn fn) { fn_ = fn; }

private:
	static void upcall(rpcrdmax_cqe *raw, const ib_wc *wc)
	{
		/* raw_ is the first member: its address is the Cqe's. */
		Cqe *self = reinterpret_cast<Cqe *>(raw);
		self->fn_(self, *wc);
	}
	ktl::Opaque<rpcrdmax_cqe, RPCRDMAX_SIZEOF_CQE, RPCRDMAX_ALIGNOF_CQE> raw_;
	Fn fn_;
};

/* MR access bits for REG_MR. */
#define RPCRDMAX_ACCESS_LOCAL_WRITE	1u
#define RPCRDMAX_ACCESS_REMOTE_WRITE	2u
#define RPCRDMAX_ACCESS_REMOTE_READ	4u

/* SGEs go to the kernel as they are: struct ib_sge's layout. */
static_assert(sizeof(rpcrdmax_sge) == RPCRDMAX_SIZEOF_IB_SGE &&
	      alignof(rpcrdmax_sge) == RPCRDMAX_ALIGNOF_IB_SGE &&
	      __builtin_offsetof(rpcrdmax_sge, addr) == RPCRDMAX_OFF_IB_SGE_ADDR &&
	      __builtin_offsetof(rpcrdmax_sge, length) == RPCRDMAX_OFF_IB_SGE_LENGTH &&
	      __builtin_offsetof(rpcrdmax_sge, lkey) == RPCRDMAX_OFF_IB_SGE_LKEY,
	      "rpcrdmax_sge is not laid out as struct ib_sge");

/*
 * A Send Queue work request in the kernel's own layout (struct
 * ib_send_wr, with ib_rdma_wr's or ib_reg_wr's fields after it), written
 * in place at the offsets generated from the target kernel's headers.
 * Hot paths keep one beside what it posts (a Send buffer, an MR) and set
 * per post only what changes; it is zeroed once, so the fields an opcode
 * does not use stay zero.  Chained through set_next() and posted with
 * CmId::post().  Valid until the post returns: the driver copies it.
 */
class Wr {
public:
	Wr() { ktl::mem_set(raw_.get(), 0, sizeof(raw_.bytes)); }
	Wr(const Wr &) = delete;
	Wr &operator=(const Wr &) = delete;

	/* A Send of @sge[0, @n), with Invalidate of @inv_rkey unless 0. */
	void send(const rpcrdmax_sge *sge, u32 n, rpcrdmax_cqe *cqe, u32 inv_rkey = 0)
	{
		head(inv_rkey ? RPCRDMAX_IB_WR_SEND_WITH_INV : RPCRDMAX_IB_WR_SEND, cqe);
		sges(sge, n);
		RPCRDMAX_FIELD_REF(u32, raw_.get(), IB_SEND_WR_INVALIDATE_RKEY) = inv_rkey;
	}
	/* An RDMA Write (@write) or Read of @sge[0, @n) to or from the
	 * peer's @remote_addr under @rkey. */
	void rdma(bool write, const rpcrdmax_sge *sge, u32 n, u64 remote_addr, u32 rkey,
		  rpcrdmax_cqe *cqe)
	{
		head(write ? RPCRDMAX_IB_WR_RDMA_WRITE : RPCRDMAX_IB_WR_RDMA_READ, cqe);
		sges(sge, n);
		static_assert(RPCRDMAX_OFF_IB_RDMA_WR_WR == 0);
		RPCRDMAX_FIELD_REF(u64, rdma_view(), IB_RDMA_WR_REMOTE_ADDR) = remote_addr;
		RPCRDMAX_FIELD_REF(u32, rdma_view(), IB_RDMA_WR_RKEY) = rkey;
	}
	/* REG_MR: make @mr's mapping live under @key with @access
	 * (RPCRDMAX_ACCESS_* bits). */
	void reg_mr(ib_mr *mr, u32 key, u32 access, rpcrdmax_cqe *cqe)
	{
		head(RPCRDMAX_IB_WR_REG_MR, cqe);
		sges(nullptr, 0);
		static_assert(RPCRDMAX_OFF_IB_REG_WR_WR == 0);
		RPCRDMAX_FIELD_REF(void *, reg_view(), IB_REG_WR_MR) = mr;
		RPCRDMAX_FIELD_REF(u32, reg_view(), IB_REG_WR_KEY) = key;
		RPCRDMAX_FIELD_REF(int, reg_view(), IB_REG_WR_ACCESS) = ib_access(access);
	}
	/* LOCAL_INV of @rkey. */
	void local_inv(u32 rkey, rpcrdmax_cqe *cqe)
	{
		head(RPCRDMAX_IB_WR_LOCAL_INV, cqe);
		sges(nullptr, 0);
		RPCRDMAX_FIELD_REF(u32, raw_.get(), IB_SEND_WR_INVALIDATE_RKEY) = rkey;
	}
	/* Signal this one's completion to @cqe (it was built unsignaled). */
	void signal(rpcrdmax_cqe *cqe)
	{
		RPCRDMAX_FIELD_REF(void *, raw_.get(), IB_SEND_WR_CQE) = cqe;
		RPCRDMAX_FIELD_REF(int, raw_.get(), IB_SEND_WR_SEND_FLAGS) |=
			RPCRDMAX_IB_SEND_SIGNALED;
	}
	/* Post @next right after this one (NULL: this one ends the chain). */
	void set_next(Wr *next)
	{
		RPCRDMAX_FIELD_REF(void *, raw_.get(), IB_SEND_WR_NEXT) =
			next ? next->raw_.get() : nullptr;
	}
	ib_send_wr *kernel() { return raw_.get(); }
	const ib_send_wr *kernel() const { return raw_.get(); }
	static Wr *from(const ib_send_wr *k)
	{
		/* raw_ is the only member: its address is the Wr's. */
		return reinterpret_cast<Wr *>(const_cast<ib_send_wr *>(k));
	}

private:
	/* The ib_rdma_wr or ib_reg_wr whose first member (wr) raw_ is. */
	ib_rdma_wr *rdma_view() { return reinterpret_cast<ib_rdma_wr *>(raw_.get()); }
	ib_reg_wr *reg_view() { return reinterpret_cast<ib_reg_wr *>(raw_.get()); }
	void head(int opcode, rpcrdmax_cqe *cqe)
	{
		RPCRDMAX_FIELD_REF(int, raw_.get(), IB_SEND_WR_OPCODE) = opcode;
		RPCRDMAX_FIELD_REF(void *, raw_.get(), IB_SEND_WR_CQE) = cqe;
		RPCRDMAX_FIELD_REF(int, raw_.get(), IB_SEND_WR_SEND_FLAGS) =
			cqe ? RPCRDMAX_IB_SEND_SIGNALED : 0;
	}
	void sges(const rpcrdmax_sge *sge, u32 n)
	{
		RPCRDMAX_FIELD_REF(const void *, raw_.get(),
				   IB_SEND_WR_SG_LIST) = n ? sge : nullptr;
		RPCRDMAX_FIELD_REF(int, raw_.get(), IB_SEND_WR_NUM_SGE) = (int)n;
	}
	static int ib_access(u32 access)
	{
		return (access & RPCRDMAX_ACCESS_LOCAL_WRITE ? RPCRDMAX_IB_ACCESS_LOCAL_WRITE : 0) |
		       (access & RPCRDMAX_ACCESS_REMOTE_WRITE ? RPCRDMAX_IB_ACCESS_REMOTE_WRITE : 0) |
		       (access & RPCRDMAX_ACCESS_REMOTE_READ ? RPCRDMAX_IB_ACCESS_REMOTE_READ : 0);
	}

	ktl::Opaque<ib_send_wr, RPCRDMAX_SIZEOF_IB_WR, RPCRDMAX_ALIGNOF_IB_WR> raw_;
};

/*
 * A Receive work request in the kernel's own layout (struct ib_recv_wr)
 * and the one SGE it points at, written in place once for a buffer that
 * is posted again and again (a Receive buffer keeps its own, as stock's
 * keep their rr_recv_wr): then posting it is one call.  Chained through
 * set_next() and posted with CmId::post_recv().
 */
class RecvWr {
public:
	RecvWr() { ktl::mem_set(raw_.get(), 0, sizeof(raw_.bytes)); }
	RecvWr(const RecvWr &) = delete;
	RecvWr &operator=(const RecvWr &) = delete;

	/* Receive into @sge, completing on @cqe. */
	void prepare(rpcrdmax_cqe *cqe, const rpcrdmax_sge &sge)
	{
		sge_ = sge;
		RPCRDMAX_FIELD_REF(void *, raw_.get(), IB_RECV_WR_CQE) = cqe;
		RPCRDMAX_FIELD_REF(const void *, raw_.get(), IB_RECV_WR_SG_LIST) = &sge_;
		RPCRDMAX_FIELD_REF(int, raw_.get(), IB_RECV_WR_NUM_SGE) = 1;
		set_next(nullptr);
	}
	/* Post @next right after this one (NULL: this one ends the chain). */
	void set_next(RecvWr *next)
	{
		RPCRDMAX_FIELD_REF(void *, raw_.get(), IB_RECV_WR_NEXT) =
			next ? next->raw_.get() : nullptr;
	}
	const ib_recv_wr *kernel() const { return raw_.get(); }

private:

	ktl::Opaque<ib_recv_wr, RPCRDMAX_SIZEOF_IB_RECV_WR, RPCRDMAX_ALIGNOF_IB_RECV_WR> raw_;
	rpcrdmax_sge sge_ = {};
};

/*
 * A work request described field by field, for the paths that post
 * seldom (tests, probes): CmId::post_send() writes it into a Wr.
 */
enum rpcrdmax_wr_opcode {
	RPCRDMAX_WR_SEND,
	RPCRDMAX_WR_SEND_INV,
	RPCRDMAX_WR_RDMA_WRITE,
	RPCRDMAX_WR_RDMA_READ,
	RPCRDMAX_WR_LOCAL_INV,
	RPCRDMAX_WR_REG_MR,
};
struct WrSpec {
	rpcrdmax_cqe *cqe;			/* completion storage, or NULL if unsignaled */
	int opcode;			/* enum rpcrdmax_wr_opcode */
	const rpcrdmax_sge *sge;
	unsigned int num_sge;
	unsigned long long remote_addr;	/* RDMA READ/WRITE */
	unsigned int rkey;		/* RDMA READ/WRITE; SEND_INV, LOCAL_INV: the key */
	ib_mr *mr;			/* REG_MR */
	unsigned int access;		/* REG_MR: RPCRDMAX_ACCESS_* */
};
#define RPCRDMAX_MAX_WR_CHAIN 8

/* Write @d into @w; false if @d's opcode is unknown or it lacks its MR. */
inline bool wr_from(const WrSpec &d, Wr *w)
{
	switch (d.opcode) {
	case RPCRDMAX_WR_SEND:
	case RPCRDMAX_WR_SEND_INV:
		w->send(d.sge, d.num_sge, d.cqe, d.opcode == RPCRDMAX_WR_SEND_INV ? d.rkey : 0);
		return d.opcode == RPCRDMAX_WR_SEND || d.rkey;
	case RPCRDMAX_WR_RDMA_WRITE:
	case RPCRDMAX_WR_RDMA_READ:
		w->rdma(d.opcode == RPCRDMAX_WR_RDMA_WRITE, d.sge, d.num_sge, d.remote_addr, d.rkey,
			d.cqe);
		return true;
	case RPCRDMAX_WR_LOCAL_INV:
		w->local_inv(d.rkey, d.cqe);
		return true;
	case RPCRDMAX_WR_REG_MR:
		if (!d.mr)
			return false;
		w->reg_mr(d.mr, RPCRDMAX_FIELD(u32, d.mr, IB_MR_RKEY), d.access, d.cqe);
		return true;
	default:
		return false;
	}
}

/* An RDMA Read or Write (@opcode) of @sge from or to the peer's
 * @remote_addr under @rkey; signaled through @cqe unless it is NULL. */
inline WrSpec rdma_rw_wr(int opcode, const rpcrdmax_sge *sge, u64 remote_addr,
				   u32 rkey, rpcrdmax_cqe *cqe)
{
	WrSpec wr = {};
	wr.cqe = cqe;
	wr.opcode = opcode;
	wr.sge = sge;
	wr.num_sge = 1;
	wr.remote_addr = remote_addr;
	wr.rkey = rkey;
	return wr;
}

class Pd {
public:
	Pd() = default;
	Pd(const Pd &) = delete;
	Pd &operator=(const Pd &) = delete;
	~Pd() { rpcrdmax_ib_dealloc_pd(pd_); }
	Result<void> alloc(ib_device *device) { return check(rpcrdmax_ib_alloc_pd(device, &pd_)); }
	ib_pd *get() const { return pd_; }
	u32 local_dma_lkey() const { return RPCRDMAX_FIELD(u32, pd_, IB_PD_LOCAL_DMA_LKEY); }

private:
	ib_pd *pd_ = nullptr;
};

class Cq {
public:
	Cq() = default;
	Cq(const Cq &) = delete;
	Cq &operator=(const Cq &) = delete;
	~Cq() { free(); }
	Result<void> alloc(ib_device *device, int entries, int vector, bool workqueue)
	{
		return check(rpcrdmax_ib_alloc_cq(device, entries, vector, workqueue, &cq_));
	}
	ib_cq *get() const { return cq_; }
	/* Free it now: no completion handler runs for it after this. */
	void free() { rpcrdmax_ib_free_cq(ktl::exchange(cq_, nullptr)); }

private:
	ib_cq *cq_ = nullptr;
};

/* A DMA mapping of kernel memory, unmapped on destruction. */
class DmaBuf {
public:
	DmaBuf() = default;
	DmaBuf(const DmaBuf &) = delete;
	DmaBuf &operator=(const DmaBuf &) = delete;
	~DmaBuf() { unmap(); }
	Result<void> map(ib_device *device, void *addr, unsigned long len, int dir)
	{
		RPCRDMAX_TRY(check(rpcrdmax_ib_dma_map_single(device, addr, len, dir, &dma_)));
		device_ = device;
		len_ = len;
		dir_ = dir;
		return {};
	}
	/* @sync false: without syncing for the CPU first (see
	 * rpcrdmax_ib_dma_unmap_single_nosync()). */
	void unmap(bool sync = true)
	{
		if (device_ && sync)
			rpcrdmax_ib_dma_unmap_single(device_, dma_, len_, dir_);
		else if (device_)
			rpcrdmax_ib_dma_unmap_single_nosync(device_, dma_, len_, dir_);
		device_ = nullptr;
	}
	/* As ib_dma_sync_single_for_*(): nothing to do on a device that
	 * uses virtual DMA (soft-RoCE, soft-iWARP: no dma_device). */
	void sync_for_cpu()
	{
		if (!virt_dma())
			rpcrdmax_ib_dma_sync_for_cpu(device_, dma_, len_, dir_);
	}
	void sync_for_device()
	{
		if (!virt_dma())
			rpcrdmax_ib_dma_sync_for_device(device_, dma_, len_, dir_);
	}
	rpcrdmax_sge sge(u32 lkey) const { return { dma_, static_cast<u32>(len_), lkey }; }
	unsigned long long dma() const { return dma_; }

private:
	bool virt_dma() const
	{
		return RPCRDMAX_IB_VIRT_DMA && !RPCRDMAX_FIELD(void *, device_, IB_DEVICE_DMA_DEVICE);
	}
	ib_device *device_ = nullptr;
	unsigned long long dma_ = 0;
	unsigned long len_ = 0;
	int dir_ = 0;
};

/*
 * A fast-registration MR.  map() loads pages, a REG_MR work request
 * (reg_wr()) makes the rkey live, and LOCAL_INV or a peer's Send with
 * Invalidate kills the rkey; unmap() only after that has completed.
 */
class Mr {
public:
	Mr() = default;
	Mr(const Mr &) = delete;
	Mr &operator=(const Mr &) = delete;
	~Mr()
	{
		unmap();
		(void)rpcrdmax_ib_dereg_mr(mr_);
		delete[] sgl_;
	}

	Result<void> alloc(ib_pd *pd, ib_device *device, unsigned int max_pages)
	{
		delete[] ktl::exchange(sgl_, nullptr); /* a failed alloc() may be retried */
		sgl_ = new (ktl::Gfp::Kernel) ktl::u8[max_pages * RPCRDMAX_SIZEOF_SCATTERLIST];
		if (!sgl_)
			return ktl::error(ktl::err::ENOMEM);
		RPCRDMAX_TRY(check(rpcrdmax_ib_alloc_mr(pd, max_pages, &mr_)));
		pd_ = pd;
		device_ = device;
		max_pages_ = max_pages;
		return {};
	}

	/* Replace the MR after a flush left its state unknown (recovery). */
	Result<void> recover()
	{
		unmap();
		(void)rpcrdmax_ib_dereg_mr(mr_);
		mr_ = nullptr;
		return check(rpcrdmax_ib_alloc_mr(pd_, max_pages_, &mr_));
	}

	Result<void> map(ktl::Span<const rpcrdmax_page_seg> segs, int dir)
	{
		if (mapped_ || segs.empty() || segs.size() > max_pages_)
			return ktl::error(ktl::err::EINVAL);
		int n = rpcrdmax_ib_mr_map(mr_, device_, sgl(), segs.data(),
					   static_cast<unsigned int>(segs.size()), dir);
		if (n < 0)
			return Errno::from(n);
		mapped_ = static_cast<unsigned int>(n);
		dir_ = dir;
		return {};
	}

	/* map() for @len octets of directly mapped kernel memory at @va
	 * (an xdr_buf's head or tail), at most max_pages pages. */
	Result<void> map_kva(const void *va, u32 len, int dir)
	{
		if (mapped_)
			return ktl::error(ktl::err::EINVAL);
		int n = rpcrdmax_ib_mr_map_kva(mr_, device_, sgl(), va, len, max_pages_, dir);
		if (n < 0)
			return Errno::from(n);
		mapped_ = static_cast<unsigned int>(n);
		dir_ = dir;
		return {};
	}

	void unmap()
	{
		if (mapped_)
			rpcrdmax_ib_mr_unmap(device_, sgl(), mapped_, dir_);
		mapped_ = 0;
	}

	/* A fresh rkey for the next registration, so stale ones never match:
	 * the key's low octet (the consumer's) advanced, in the lkey too, as
	 * the kernel's ib_update_fast_reg_key(mr, ib_inc_rkey(rkey)) does
	 * (KUnit checks the two agree). */
	void bump_key()
	{
		u32 &rkey = RPCRDMAX_FIELD_REF(u32, mr_, IB_MR_RKEY);
		u32 &lkey = RPCRDMAX_FIELD_REF(u32, mr_, IB_MR_LKEY);
		const u32 key = (rkey + 1) & 0xffu;

		lkey = (lkey & 0xffffff00u) | key;
		rkey = (rkey & 0xffffff00u) | key;
	}

	/* Write into @wr the REG_MR that makes the mapping live. */
	void reg(Wr *wr, rpcrdmax_cqe *cqe, u32 access) const { wr->reg_mr(mr_, rkey(), access,
									   cqe); }

	WrSpec reg_wr(rpcrdmax_cqe *cqe, u32 access) const
	{
		WrSpec wr = {};
		wr.cqe = cqe;
		wr.opcode = RPCRDMAX_WR_REG_MR;
		wr.mr = mr_;
		wr.access = access;
		return wr;
	}

	const ib_mr *raw() const { return mr_; }
	u32 rkey() const { return RPCRDMAX_FIELD(u32, mr_, IB_MR_RKEY); }
	u32 lkey() const { return RPCRDMAX_FIELD(u32, mr_, IB_MR_LKEY); }
	u64 iova() const { return RPCRDMAX_FIELD(u64, mr_, IB_MR_IOVA); }
	u64 length() const { return RPCRDMAX_FIELD(u64, mr_, IB_MR_LENGTH); }
	bool mapped() const { return mapped_ != 0; }

private:
	/* sgl_: max_pages_ scatterlist entries' storage */
	scatterlist *sgl() const { return reinterpret_cast<scatterlist *>(sgl_); }

	ib_mr *mr_ = nullptr;
	ib_pd *pd_ = nullptr;
	ib_device *device_ = nullptr;
	ktl::u8 *sgl_ = nullptr;
	unsigned int max_pages_ = 0;
	unsigned int mapped_ = 0;
	int dir_ = 0;
};

class CmId;

/* Receives an id's connection-manager events (process context). */
struct CmEvents {
	/* For CONNECT_REQUEST, non-zero rejects and destroys ev.new_id. */
	virtual int cm_event(CmId *id, const rpcrdmax_cm_event_info &ev) = 0;

protected:
	~CmEvents() = default;
};

class CmId {
public:
	CmId() = default;
	CmId(const CmId &) = delete;
	CmId &operator=(const CmId &) = delete;
	~CmId()
	{
		if (id_) {
			rpcrdmax_cm_destroy_qp(id_);
			rpcrdmax_cm_destroy_id(id_);
		}
	}

	/* @net: the transport's network namespace (opaque struct net). */
	Result<void> create(CmEvents *events, net *net)
	{
		events_ = events;
		return check(rpcrdmax_cm_create_id(net, handler_.get(), &CmId::upcall, &id_));
	}

	/* Take over a connection's id from a CONNECT_REQUEST. */
	void adopt(rdma_cm_id *new_id, CmEvents *events)
	{
		events_ = events;
		id_ = new_id;
		rpcrdmax_cm_set_handler(id_, handler_.get(), &CmId::upcall);
	}

	/* The QP goes before the CQs and PD it uses, the id after them:
	 * rdma_cm's removal of a device waits only for the ids on it, so
	 * whatever else was made on the device (CQs, PD, MRs, DMA mappings)
	 * must be freed before the id. */
	void destroy_qp()
	{
		if (id_)
			rpcrdmax_cm_destroy_qp(id_);
	}

	/* Give the id back to the CM (it destroys ids refused from CONNECT_REQUEST). */
	rdma_cm_id *release() { return ktl::exchange(id_, nullptr); }

	Result<void> bind(const SockAddr &a) { return check(rpcrdmax_cm_bind_addr(id_, a.get())); }
	Result<void> listen(int backlog) { return check(rpcrdmax_cm_listen(id_, backlog)); }
	Result<void> resolve_addr(const SockAddr &dst, unsigned int ms)
	{
		return check(rpcrdmax_cm_resolve_addr(id_, dst.get(), ms));
	}
	Result<void> resolve_route(unsigned int ms)
	{
		return check(rpcrdmax_cm_resolve_route(id_, ms));
	}
	/* @rdma_ctxs: rdma_rw contexts (RwCtx) in use at once; the Send
	 * Queue depth obtained goes to *@sq_depth when given. */
	Result<void> create_qp(const Pd &pd, const Cq &scq, const Cq &rcq, u32 send_wr,
			       u32 recv_wr, u32 send_sge, u32 recv_sge, u32 rdma_ctxs = 0,
			       u32 *sq_depth = nullptr)
	{
		return check(rpcrdmax_cm_create_qp(id_, pd.get(), scq.get(), rcq.get(), send_wr,
						   recv_wr, send_sge, recv_sge, rdma_ctxs,
						   sq_depth));
	}
	Result<void> connect(ktl::ConstBytes pdata, u32 ird_ord, u32 retries)
	{
		return check(rpcrdmax_cm_connect(id_, pdata.data(), (unsigned int)pdata.size(),
						 ird_ord, ird_ord, retries, 7));
	}
	Result<void> accept(ktl::ConstBytes pdata, u32 ord, u32 ird)
	{
		return check(rpcrdmax_cm_accept(id_, pdata.data(), (unsigned int)pdata.size(),
						ord, ird));
	}
	/* accept() from outside the id's event handler: rdma_accept() runs
	 * under the handler's mutex (rdma_lock_handler(), as stock's
	 * svc_rdma_accept() does), so no CM event for the id races it. */
	Result<void> accept_deferred(ktl::ConstBytes pdata, u32 ord, u32 ird)
	{
		rpcrdmax_cm_lock_handler(id_);
		Result<void> r = accept(pdata, ord, ird);
		rpcrdmax_cm_unlock_handler(id_);
		return r;
	}
	Result<void> disconnect() { return check(rpcrdmax_cm_disconnect(id_)); }

	/* Post the chain from @first; on failure *@bad (when given) is the
	 * first request not posted, NULL if the driver did not say. */
	Result<void> post(Wr *first, Wr **bad = nullptr)
	{
		const ib_send_wr *b = nullptr; /* as is if the call is error-injected */
		int rc = rpcrdmax_ib_post_send(qp(), first->kernel(), &b);
		if (bad)
			*bad = rc && b ? Wr::from(b) : nullptr;
		return check(rc);
	}
	/* Post @n (1 to RPCRDMAX_MAX_WR_CHAIN) described requests in a chain;
	 * on failure the index of the first not posted goes to *@bad. */
	Result<void> post_send(const WrSpec *wrs, unsigned int n, unsigned int *bad)
	{
		Wr chain[RPCRDMAX_MAX_WR_CHAIN];
		Wr *b;

		*bad = 0;
		if (n == 0 || n > RPCRDMAX_MAX_WR_CHAIN)
			return ktl::error(ktl::err::EINVAL);
		for (unsigned int i = 0; i < n; i++) {
			if (!wr_from(wrs[i], &chain[i]))
				return ktl::error(ktl::err::EINVAL);
			chain[i].set_next(i + 1 < n ? &chain[i + 1] : nullptr);
		}
		Result<void> r = post(chain, &b);
		if (r.is_error())
			*bad = b ? (unsigned int)(b - chain) : n;
		return r;
	}
	/* Post the chain of Receives from @first. */
	Result<void> post_recv(const RecvWr *first)
	{
		return check(rpcrdmax_ib_post_recv(qp(), first->kernel()));
	}
	/* One Receive into @sge, for the paths that post seldom (tests). */
	Result<void> post_recv(Cqe *cqe, const rpcrdmax_sge &sge)
	{
		RecvWr wr;

		wr.prepare(cqe->raw(), sge);
		return post_recv(&wr);
	}
	void drain() { rpcrdmax_ib_drain_qp(qp()); }

	ib_device *device() const { return RPCRDMAX_FIELD(ib_device *, id_, CM_ID_DEVICE); }
	ib_qp *qp() const { return RPCRDMAX_FIELD(ib_qp *, id_, CM_ID_QP); }
	rdma_cm_id *get() const { return id_; }

private:
	static int upcall(rpcrdmax_cm_handler *handler, const rpcrdmax_cm_event_info *ev)
	{
		/* handler_ is the first member: its address is the CmId's. */
		CmId *self = reinterpret_cast<CmId *>(handler);
		return self->events_->cm_event(self, *ev);
	}
	ktl::Opaque<rpcrdmax_cm_handler, RPCRDMAX_SIZEOF_CM_HANDLER, RPCRDMAX_ALIGNOF_CM_HANDLER>
		handler_;
	CmEvents *events_ = nullptr;
	rdma_cm_id *id_ = nullptr;
};

} // namespace rpcrdmax::rdma
