/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svcrdma/svcrdma.h - the server transport's objects.
 *
 *   Listener  one per "rdma" listener svc_xprt: a listening CM id and
 *             the connections made on it that svc has not accepted yet.
 *   SvcConn   one per connection svc_xprt: CM id, PD, CQs, QP, the
 *             Receive buffers (one per credit) and received messages.
 *   CallCtx   one per Call handed to nfsd: its transport header (the
 *             Write list and Reply chunk the Reply may use).
 *   SendCtx   one per Send: header and inline Reply, and a bounce buffer
 *             for RDMA Writes; freed when the Send completes.
 *
 * Files: listener.cpp (listening, accepting), conn.cpp (receive, RDMA
 * Read of Read chunks, Replies inline or by RDMA Write).
 *
 * This first slice copies: Calls are assembled in the svc_rqst's pages,
 * chunk payloads go through a bounce buffer per RPC.
 */
#pragma once

#include "rpcrdmax/core/credits.h"
#include "rpcrdmax/core/privdata.h"
#include "rpcrdmax/core/v1.h"
#include "rpcrdmax/ktl/alloc.h"
#include "rpcrdmax/ktl/list.h"
#include "rpcrdmax/ktl/lock.h"
#include "rpcrdmax/ktl/sync.h"
#include "rpcrdmax/rdma/verbs.h"

namespace rpcrdmax::svcrdma {

using namespace rpcrdmax::ktl;
using namespace rpcrdmax::rdma;

inline constexpr u32 kCredits = 32;		/* Receives posted, the grant's ceiling */
inline constexpr u32 kRecvSize = 4096;		/* our Receive buffers (RFC 8797 recv size) */
inline constexpr u32 kSendSize = 4096;		/* our Send buffers (RFC 8797 send size) */
inline constexpr u32 kMaxChunk = (1u << 20) + 65536; /* largest chunk payload we move */
inline constexpr u32 kMaxSendWrs = 4096;
inline constexpr unsigned int kListenBacklog = 64;

class Listener;
class SvcConn;

struct RecvBuf {
	RecvBuf() : cqe(&RecvBuf::done) {}
	~RecvBuf() { delete[] data; }
	static void done(Cqe *c, const rpcrdmax_wc &wc);
	Cqe cqe; /* first: see Cqe */
	ListNode node;
	DmaBuf map;
	u8 *data = nullptr;
	SvcConn *conn = nullptr;
	u32 len = 0;
};

struct CallCtx {
	core::V1Header call;
	core::V1Header reply;	/* sendto's scratch */
};

struct SendCtx {
	SendCtx() : cqe(&SendCtx::done) {}
	~SendCtx()
	{
		hdr_map.unmap();
		bounce_map.unmap();
		delete[] hdr;
		delete[] bounce;
	}
	static void done(Cqe *c, const rpcrdmax_wc &wc);
	Cqe cqe;
	ListNode node;		/* orphans: WRs may still use it */
	DmaBuf hdr_map, bounce_map;
	u8 *hdr = nullptr;
	u8 *bounce = nullptr;
	SvcConn *conn = nullptr;
};

/* RDMA Reads of one Call, waited for in recvfrom. */
struct ReadCtx {
	ReadCtx() : cqe(&ReadCtx::done) {}
	static void done(Cqe *c, const rpcrdmax_wc &wc);
	Cqe cqe;
	Atomic pending;
	Atomic failed;
	Completion all_done;
};

class SvcConn final : public CmEvents {
public:
	SvcConn() = default;
	~SvcConn();

	int cm_event(CmId *, const rpcrdmax_cm_event_info &ev) override;
	Result<void> setup(Listener *l, const rpcrdmax_cm_event_info &ev);
	void undo_setup();

	RecvBuf *dequeue();
	int process(void *rqstp, RecvBuf *rb, void **ctxt);
	int sendto(void *rqstp, CallCtx *cc);
	void detach();
	void lost();

	void recv_done(RecvBuf *rb, const rpcrdmax_wc &wc);
	void send_done(SendCtx *sc, const rpcrdmax_wc &wc);

	void *xprt = nullptr;		/* our svc_xprt */
	ListNode accept_node;		/* the Listener's queue until accepted */

private:
	Result<void> post_recv(RecvBuf *rb);
	void repost(RecvBuf *rb);
	Result<u32> build_arg(void *rqstp, const u8 *inl, u32 inl_len, const core::V1Header &h);
	Result<void> read_chunk(void *rqstp, const core::ChunkLists &cl, const core::ChunkRef &c,
				u32 offset);
	Result<void> send_error(u32 xid, bool vers);
	Result<void> post_chain(rpcrdmax_send_wr *wrs, unsigned int n, unsigned int *posted);
	Result<void> post_writes(SendCtx *sc, const core::ChunkLists &cl, const core::ChunkRef &c,
				 u64 dma_base_off, u32 len, u32 lkey);

	Pd pd_;
	Cq scq_, rcq_;
	RecvBuf recvs_[kCredits];
	SpinLock lock_;
	List<RecvBuf, &RecvBuf::node> ready_;
	List<SendCtx, &SendCtx::node> orphans_;
	core::ResponderCredits credits_;
	core::InlineThresholds thr_ = { core::kPdMinInline, core::kPdMinInline };
	Atomic lost_;
	Atomic closing_;
	u32 ord_ = 1;

public:
	CmId id; /* last: destroyed first (QP, then id) */
};

class Listener final : public CmEvents {
public:
	explicit Listener(void *xprt) : xprt_(xprt) {}
	~Listener();
	int cm_event(CmId *, const rpcrdmax_cm_event_info &ev) override;
	Result<void> listen(const void *addr, unsigned int addrlen);
	void *accept(bool *more);
	void *xprt() const { return xprt_; }

private:
	void *xprt_;
	SpinLock lock_;
	List<SvcConn, &SvcConn::accept_node> pending_;

public:
	CmId id;
};

} // namespace rpcrdmax::svcrdma
