/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svcrdma/svcrdma.h - the server transport's objects.
 *
 *   Listener  one per "rdma" listener svc_xprt: a listening CM id and
 *             the connections made on it that svc has not accepted yet.
 *   SvcConn   one per connection svc_xprt: CM id, PD, CQs, QP, the
 *             Receive buffers (one per credit, a few more; see
 *             kSpareRecvs) and received messages.
 *   CallCtx   one per Call handed to nfsd: its transport header (the
 *             Write list and Reply chunk the Reply may use), its RDMA
 *             Reads, the Receive buffer an inline Call is read from;
 *             back on the connection's free list at release.
 *   SendCtx   one per Send: header and inline Reply, the rdma_rw
 *             contexts of its RDMA Writes and the rq_res pages they
 *             read; back on the free list when the Send, or a later
 *             signaled one, completes (kSendBatch).
 *   ReadCtx   the RDMA Reads of one Call, in its CallCtx: recvfrom
 *             waits for them.
 *
 * Contexts are made when the connection is set up, or when more are in
 * use at once than it has; each one made counts in rdma_stat_ctxt_alloc.
 * In steady state an RPC allocates nothing here.
 *
 * Files, along the stock server's seams:
 *   transport.cpp  listener, accept, connection set-up, context free
 *                  lists, Send Queue accounting, close, teardown;
 *   recvfrom.cpp   Receive -> decoded header -> the Call in rq_arg;
 *   rw.cpp         Read and Write chunks through rdma_rw;
 *   sendto.cpp     Reply assembly and Send;
 *   sendctx.cpp    a Reply's Send context: buffer, page pieces, SGEs;
 *   backchannel.cpp  backward-direction Calls out, their Replies in
 *                  (RFC 8167), for nfsd's callback client;
 *   v2.cpp         RPC-over-RDMA Version Two: decoding, RDMA2_CONNPROP,
 *                  errors.
 *
 * Chunk payloads move by rdma_rw straight between the peer and the
 * svc_rqst's pages: Read chunks land in rq_pages at their position, Write
 * and Reply chunks are written from rq_res.  Every work request holds a
 * Send Queue slot, counted exactly (sq_reserve/sq_release).
 */
#pragma once

#include "rpcrdmax/core/credits.h"
#include "rpcrdmax/core/privdata.h"
#include "rpcrdmax/core/responder.h"
#include "rpcrdmax/core/v1.h"
#include "rpcrdmax/core/v2.h"
#include "rpcrdmax/ktl/alloc.h"
#include "rpcrdmax/ktl/list.h"
#include "rpcrdmax/ktl/lock.h"
#include "rpcrdmax/ktl/svc_rqst.h"
#include "rpcrdmax/ktl/svc_xprt.h"
#include "rpcrdmax/ktl/sync.h"
#include "rpcrdmax/ktl/trace.h"
#include "rpcrdmax/ktl/xdr_buf.h"
#include "rpcrdmax/rdma/rw.h"
#include "rpcrdmax/rdma/sq.h"
#include "rpcrdmax/rdma/verbs.h"

namespace rpcrdmax::svcrdma {

using namespace rpcrdmax::ktl;
using namespace rpcrdmax::rdma;

/// The Reply's layout in rq_res, read in place: head, page list (from
/// page_base) and tail, and its length.
inline rpcrdmax_xdr_shape res_shape(const svc_rqst *rqstp)
{
	const XdrBufView res = xdr_buf_at(rqstp, RPCRDMAX_OFF_SVC_RQST_RES);
	rpcrdmax_xdr_shape s = {};

	s.head_len = res.head_len();
	s.page_len = res.page_len();
	s.page_offset = res.page_base();
	s.tail_len = res.tail_len();
	s.len = res.len();
	return s;
}

/// The page pieces behind the Reply's octets [@off, @off + @len) in
/// @segs, at most @max, as rpcrdmax_svc_res_pages() gives them: a range
/// within rq_res's page list (a READ's data) read in place, any other
/// through the shim.  How many, or a negative errno.
inline int res_pieces(svc_rqst *rqstp, u32 off, u32 len, rpcrdmax_page_seg *segs, u32 max)
{
	const XdrBufView res = xdr_buf_at(rqstp, RPCRDMAX_OFF_SVC_RQST_RES);
	const u32 head = res.head_len();

	if (off >= head && (u64)(off - head) + len <= res.page_len())
		return res.page_pieces(off - head, len, segs, max);
	return rpcrdmax_svc_res_pages(rqstp, off, len, segs, max);
}

/// Count @n events in rdma_stat_* counter @which (RPCRDMAX_SVC_STAT_*):
/// this CPU's copy; nothing before the counters exist.
inline void stat_add(unsigned int which, unsigned int n = 1)
{
	unsigned long long *c = rpcrdmax_svc_stats;

	if (c)
		rpcrdmax_percpu_add_u64(c, which, n);
}

/*
 * Connection sizing: the one place where the credit count (Receives
 * posted, the grant's ceiling), our Receive and Send sizes (RFC 8797
 * private data) and the cap on RDMA Reads in flight (ORD) are chosen,
 * from /proc/sys/sunrpc/svc_rdma's max_requests, max_req_size and
 * max_outbound_read_requests as they are when a connection is accepted.
 * The Send size starts at max_req_size too, as the stock server sizes
 * its Send buffers, and plan_accept() narrows it to what the client
 * receives (core::pd_responder_send_size).
 */
/*
 * Chunk sizing: what a connection's contexts are made for, from the
 * largest payload (an NFS READ's or WRITE's data) its service accepts -
 * nfsd's max_block_size, up to 4 MiB on 7.x (rpcrdmax_svc_max_payload) -
 * and never below 1 MiB, the most a Linux client sends (its
 * NFS_MAX_FILE_IO_SIZE), whatever nfsd takes.
 */
inline constexpr u32 kMinChunkPayload = 1u << 20;
struct ChunkSizes {
	u32 max_chunk;	 /* largest chunk: the payload and room for the NFS header around it */
	u32 pieces;	 /* page pieces such a chunk can span in rq_pages */
	u32 pieces_cap;	 /* a CallCtx's piece scratch: a chunk's and its edges' */
	u32 reply_pages; /* a SendCtx's page slots: rq_res's pages of a largest Reply */
};
constexpr ChunkSizes chunk_sizes(u32 payload)
{
	const u32 chunk = (payload > kMinChunkPayload ? payload : kMinChunkPayload) + 65536;

	return { chunk, chunk / RPCRDMAX_PAGE_SIZE + 4, chunk / RPCRDMAX_PAGE_SIZE + 16,
		 chunk / RPCRDMAX_PAGE_SIZE + 8 };
}

struct ConnLimits {
	u32 credits;
	u32 recv_size;
	u32 send_size;
	u32 max_ord;
	u32 max_vers; /* svc_rdma/max_version: 1, or 2 (svcrdma/v2.cpp) */
	ChunkSizes chunk = chunk_sizes(kMinChunkPayload); /* set from the listener's service in setup */
};
inline ConnLimits conn_limits()
{
	struct rpcrdmax_svc_tunables t;

	rpcrdmax_svc_tunables(&t);
	return { t.max_requests, t.max_req_size, t.max_req_size, t.max_outbound_read_requests,
		 t.max_version >= core::kRpcRdmaVersion2 ? core::kRpcRdmaVersion2
							 : core::kRpcRdmaVersion1 };
}

/*
 * Memory budget: a connection's Receive buffers (credits x Receive size,
 * allocated when it is accepted) may take at most 1/8 of the machine's
 * RAM (rpcrdmax_totalram_bytes()); a request over it is refused before
 * anything is allocated.  The defaults (64 x 4 KiB = 256 KiB) are far
 * below it; the largest settings (16384 x 64 KiB = 1 GiB) need 8 GiB of
 * MemTotal.
 */
inline constexpr unsigned int kRecvBudgetShift = 3;
inline u64 recv_bytes(const ConnLimits &lim) { return (u64)lim.credits * lim.recv_size; }
inline u64 recv_budget(u64 totalram) { return totalram >> kRecvBudgetShift; }

/*
 * What a connection request decides (RFC 8797): our private data (R set
 * when our device can post Send With Invalidate; our Send size, which
 * the connection's Send buffers take), the peer's, the inline
 * thresholds, whether Replies may invalidate, and our RDMA Read depth.
 */
struct AcceptPlan {
	core::PrivData ours, peer;
	core::InlineThresholds thr;
	bool peer_pd; /* the client sent RFC 8797 private data */
	bool send_inv;
	u32 ord;
};
inline AcceptPlan plan_accept(ConstBytes peer_pd, const rpcrdmax_dev_attrs &attrs,
			      u32 initiator_depth, const ConnLimits &lim)
{
	AcceptPlan p;
	/* absent: the version 1 defaults */
	p.peer_pd = core::pd_decode(peer_pd, &p.peer) == core::PdVerdict::Found;
	p.ours = { core::pd_responder_send_size(lim.send_size, p.peer_pd, p.peer), lim.recv_size,
		   attrs.mem_mgt_extensions };
	p.thr = core::pd_thresholds(p.peer, p.ours);
	p.send_inv = core::pd_may_send_with_invalidate(p.ours, p.peer);
	/* Reads we may have outstanding: what the client's side accepts. */
	p.ord = min(min(initiator_depth, attrs.max_qp_init_rd_atom), lim.max_ord);
	if (!p.ord)
		p.ord = 1;
	return p;
}

inline constexpr unsigned int kListenBacklog = 64;
/* The longest a Call's RDMA Reads are waited for before the connection
 * is reset (SvcConn::post_reads).  On InfiniBand and RoCE an unanswered
 * Read ends in the RC retry limit's error within seconds; on iWARP it
 * rides on TCP, which may keep a silent peer's connection for many
 * minutes, and the nfsd thread with it.  Longer than any Read of a live
 * peer takes, shorter than the hung-task report's 120 s, and as long as
 * sunrpc's client waits for a Reply before it resets the connection
 * itself (NFS over RDMA's timeo=600). */
inline constexpr unsigned int kReadWaitMs = 60000;
/* After such a reset has drained the QP, every Read has flushed on a
 * device that keeps the verbs' order (the drain's own request completes
 * after them).  One that did not within this long never will: 6.1's siw
 * leaves Reads in its ORQ when the QP was already closing.  The Call is
 * then given up and its Reads' context kept (ReadCtx::held). */
inline constexpr unsigned int kReadFlushWaitMs = 1000;
/* Private data kept from a connection request: RFC 8797's is 8 octets;
 * more is kept but not looked at. */
inline constexpr u32 kReqPdMax = 64;
/* Contexts made when a connection is set up; more are made (and counted
 * in rdma_stat_ctxt_alloc) only when more are in use at once, and kept
 * for the connection's life, as stock keeps its send contexts.  A Call
 * holds a receive context from recvfrom to release, so nfsd's threads
 * bound them (Debian starts 8 for all connections) and a connection
 * starts with two.  A Reply holds a send context until its Send, or the
 * signaled one after it, completes: a connection that sends kSendBatch
 * Replies holds that many, so it starts with them.  An idle connection
 * costs these and no more, so a server with many mostly idle clients
 * does not pay for the busiest. */
inline constexpr u32 kPoolCalls = 2;
inline constexpr u32 kPoolSends = 16;
/* A context's rdma_rw room is made when a chunk first needs it, and
 * kept: a list of at least kRwListMin contexts (one per segment; few
 * chunks have more) and one scatterlist block for all of them, of at
 * least kRwPiecesMin entries and grown to the most page pieces a chain
 * of it has needed (rw_pieces).  A stock client splits a large Write
 * chunk into several segments: one block, not a scatterlist per
 * segment, keeps a send context to one allocation when it first meets
 * such a Reply.  A connection that moves no chunk data has none. */
inline constexpr u32 kRwListMin = 8;
inline constexpr u32 kRwPiecesMin = 8;
/* Page pieces and Reply pages a context holds in place: a 4 KiB chunk's
 * or Reply's need a few.  Larger ones take a heap array of the
 * connection's most (ChunkSizes) the first time, kept. */
inline constexpr u32 kPiecesInPlace = 16;
inline constexpr u32 kPagesInPlace = 16;
/* Backward Calls (RFC 8167) a connection may have outstanding: what
 * the backchannel rpc_xprt's slot table holds, the rdma_credit of each
 * backward Call, and the Receives kept posted, beyond the credits, for
 * their Replies.  nfsd uses one callback slot per session. */
inline constexpr u32 kBcSlots = 2;
/* Receives reposted together, as one chained post (one doorbell): a
 * connection keeps kRecvBatch - 1 Receives posted beyond its credits and
 * backward slots, so the ones waiting for their batch never leave a
 * granted Call without a Receive. */
inline constexpr u32 kRecvBatch = 8;
/*
 * Sends signaled selectively: a Reply's Send is unsignaled unless it is
 * the kSendBatch-th since the last signaled one, or the unsignaled Sends
 * not yet retired would hold more than the connection's tail room.  A
 * signaled Send's completion retires every Send posted before it (a Send
 * Queue completes in order).  The QP has kSendTailRoom slots beyond the
 * ones sq_reserve() hands out, and an unsignaled Send's slots move there
 * when it is posted: nobody ever waits in sq_reserve() for slots that
 * only a later Send's completion would give back.
 */
inline constexpr u32 kSendBatch = 16;
inline constexpr u32 kSendTailRoom = 32;
static_assert(kPoolSends >= kSendBatch);
/* Receive buffers made beyond those posted, at most: an inline Call is
 * read in place and keeps its buffer until release, so one of these is
 * posted in its place.  Each is made when first needed (get_spare) and
 * kept; nfsd's threads bound how many Calls hold one.  When all are
 * held, a Call is copied into rq_pages instead (arg_in_place). */
inline constexpr u32 kSpareRecvs = 16;

class Listener;
class SvcConn;

} // namespace rpcrdmax::svcrdma

/* The server's handles in the shim API (rpcrdmax_shim.h), which C sees
 * declared only: every rpcrdmax_svcl is a Listener, every rpcrdmax_svcc
 * an SvcConn, every rpcrdmax_svc_ctxt a CallCtx. */
struct rpcrdmax_svcl {};
struct rpcrdmax_svcc {};
struct rpcrdmax_svc_ctxt {};

namespace rpcrdmax::svcrdma {

/*
 * How a message the connection received ended: every one ends exactly
 * one way (SvcConn::settle), so that Calls received = Replies sent +
 * dropped + lost + svc_drop, per connection and in the rdma_stat_*
 * counters.
 *   Answered  its Reply, or an RDMA_ERROR, was posted (rdma_stat_sq_prod);
 *   NotCall   a backward Reply (rdma_stat_bc_replies or _bc_dropped) or
 *             an RDMA2_CONNPROP (rdma_stat_connprop_recv);
 *   Dropped   by us, for a logged reason (rdma_stat_dropped);
 *   Lost      the connection ended first: before nfsd took the Call, or
 *             before its Reply could be posted (rdma_stat_lost);
 *   SvcDrop   nfsd released the Call without a Reply while the
 *             connection was up (svc_drop: a retransmission of a Call
 *             still in progress, a dropped deferral; rdma_stat_svc_drop).
 * A connection that ends with messages not settled counts them in
 * rdma_stat_unsettled and logs it: that is a defect of ours.
 */
enum class Settle : u8 { Answered, NotCall, Dropped, Lost, SvcDrop };

/* Count @n contexts made (rdma_stat_ctxt_alloc). */
inline void count_allocs(u32 n)
{
	if (n)
		stat_add(RPCRDMAX_SVC_STAT_CTXT_ALLOC, n);
}

/*
 * The page pieces, at most, of a chain moving @len octets through @nctx
 * segments from or to @nranges ranges of pages: each segment and each
 * range may start and end mid-page.
 */
constexpr u32 rw_pieces(u32 len, u32 nctx, u32 nranges)
{
	return len / RPCRDMAX_PAGE_SIZE + 2 * (nctx + nranges);
}

/* @s's room for @need entries (growing it to @most: ktl::Scratch::room),
 * counted when it grows; NULL: no memory. */
template <typename T, u32 N>
inline T *scratch_room(Scratch<T, N> &s, u32 need, u32 most)
{
	T *p = s.room(need, most);

	count_allocs(s.take_grown());
	return p;
}

/* Room in @rw for @nctx contexts (at least kRwListMin) and @pieces
 * scatterlist entries (at least kRwPiecesMin), counted when it grows. */
inline Result<void> rw_room(RwList &rw, u32 nctx, u32 pieces)
{
	Result<void> r = rw.alloc(max(nctx, kRwListMin), max(pieces, kRwPiecesMin));

	count_allocs(rw.take_grown());
	return r;
}

struct RecvBuf : MsgBuf {
	RecvBuf() : MsgBuf(&RecvBuf::done, RPCRDMAX_WC_EV_SVC_RECV) {}
	static void done(Cqe *c, const ib_wc &wc);
	RecvWr wr;	/* into the whole buffer, built once it is mapped */
	ListNode node;
	SvcConn *conn = nullptr;
	u32 len = 0;
	bool overrun = false; /* arrived with more Calls outstanding than granted */
};

/*
 * The RDMA Reads of one Call, waited for in recvfrom (SvcConn::post_reads),
 * reused with its CallCtx.  Reads a reset could not flush (a device that
 * never completes them) leave it @held: its CallCtx stays off the free
 * list until the connection's CQs are freed, since their completion may
 * still come.
 */
struct ReadCtx {
	ReadCtx() : cqe(&ReadCtx::done, RPCRDMAX_WC_EV_SVC_READ) {}
	static void done(Cqe *c, const ib_wc &wc);
	Cqe cqe;
	SvcConn *conn = nullptr;
	u32 sq_entries = 0;
	bool failed = false;
	bool held = false;
	Completion all_done;
};

/*
 * A receive context: one per Call between recvfrom and release, taken
 * from and given back to the connection's free list.  It owns the
 * decoded transport header (from which sendto encodes the Reply's), the
 * rdma_rw contexts of the Call's RDMA Reads and the page-piece scratch
 * of its Reads and Writes.
 */
struct CallCtx : ::rpcrdmax_svc_ctxt {
	ListNode node;
	ListNode all;	/* SvcConn::calls_: every context the connection made */
	core::V1Header call;
	core::CallLayout layout; /* the Call's pieces (recvfrom) */
	RwList read_rw;
	ReadCtx reads;		/* of read_rw */
	Scratch<rpcrdmax_page_seg, kPiecesInPlace> pieces; /* one segment's (rpcrdmax_svc_*_pages) */
	/* The Reply's shape: its DDP-eligible results as xpo_result_payload
	 * marks them (the i-th for Write chunk i), its lengths at sendto. */
	core::ReplyShape shape = {};
	bool outstanding = false; /* counted in the credits, no Reply built or dropped yet */
	bool busy = false;	/* taken by a message (process) and not yet given back */
	bool settled = false;	/* its message's ending counted (SvcConn::settle) */
	/* The Call's RPC-over-RDMA version, which its Reply uses (draft
	 * Section 7.3), and for version 2 the rkey its Reply may invalidate
	 * (rdma_inv_handle, Section 6.2.3; 0: none). */
	u32 vers = core::kRpcRdmaVersion1;
	u32 inv_handle = 0;
	RecvBuf *rb = nullptr;	/* an inline Call's Receive buffer, read in place */
};

/*
 * One Reply: its Send buffer (DMA-mapped once, when the context is
 * made), the RDMA Writes before it, the pages they (or its inline page
 * pieces) read.  Taken from the connection's free list; given back,
 * reset, when the Send completes (or freed at teardown if never
 * posted).  Its MsgBuf is the Send buffer: the transport header, then an
 * inline Reply's body where it is not sent from its pages.
 * svcrdma/sendctx.cpp.
 */
struct SendCtx : MsgBuf {
	/* @fn: SendCtx::done, or a test's */
	explicit SendCtx(Cqe::Fn fn) : MsgBuf(fn, RPCRDMAX_WC_EV_SVC_SEND) {}
	~SendCtx();
	static void done(Cqe *c, const ib_wc &wc);
	Result<void> make(ib_device *dev, u32 size, int cid);
	void reset();
	Result<void> load_inline(ib_device *dev, u32 hlen, const core::InlineLayout &layout,
				 Span<const rpcrdmax_page_seg> segs);
	Result<void> load_res(ib_device *dev, u32 hlen, const XdrBufView &res,
			      Span<const rpcrdmax_page_seg> pieces);
	Result<void> load_piece(u32 i, const rpcrdmax_page_seg &sg, u32 *at);
	Span<const rpcrdmax_sge> sge_list(u32 lkey, u32 send_len);

	ListNode node;		/* the free list, or orphans: WRs may still use it */
	RwList rw;		/* Write chunk, then Reply chunk */
	Scratch<page *, kPagesInPlace> pages; /* rq_res's pages, held for the Writes or SGEs */
	unsigned int npages = 0;
	u32 sq_entries = 0;	/* Send Queue slots this Reply holds */
	u32 write_wrs = 0;	/* of those, its Write chunks' Writes (tracepoints) */
	bool unsignaled = false; /* its slots are in the tail room (kSendBatch) */
	SvcConn *conn = nullptr;
	/* An inline Reply's SGEs (lay.nsge 0: the Send buffer alone), and
	 * the DMA mappings of the parts it sends from their pages. */
	core::InlineLayout lay = {};
	struct PageMap {
		unsigned long long dma;
		u32 len;
	} maps[core::kInlineMaxParts] = {};
	u32 nmaps = 0;		/* maps[0, nmaps) may hold a mapping */
	ib_device *map_dev = nullptr;
	rpcrdmax_sge sges[core::kInlineMaxSges] = {};
	Wr wr;			/* its Send, built in place per Reply */
};

/* What a connection's contexts weigh (Documentation/performance.rst,
 * "Scale"): a receive context in a kmalloc-8k block, a send context
 * (its Send buffer apart) in a kmalloc-1k one; larger chunk and Reply
 * page arrays only on the contexts that carried such. */
static_assert(sizeof(CallCtx) <= 8192, "a receive context outgrew its 8 KiB block");
static_assert(sizeof(SendCtx) <= 1024, "a send context outgrew its 1 KiB block");

class SvcConn final : public ::rpcrdmax_svcc, public CmEvents {
public:
	SvcConn() = default;
	~SvcConn();

	int cm_event(CmId *, const rpcrdmax_cm_event_info &ev) override;
	void take_request(const rpcrdmax_cm_event_info &ev);
	Result<void> setup(Listener *l);
	void refuse();

	RecvBuf *dequeue();
	bool decode(RecvBuf *rb, CallCtx *cc, bool *reply);
	RPCRDMAX_COLD int arg_failed(CallCtx *cc, int e);
	int process(svc_rqst *rqstp, RecvBuf *rb, rpcrdmax_svc_ctxt **ctxt);
	int recvfrom(svc_rqst *rqstp, rpcrdmax_svc_ctxt **ctxt);
	void trace_segments(const RecvBuf *rb, const core::ChunkLists &cl);
	void trace_reply_segments(const SendCtx *sc, const core::V1Header &call,
				  const core::ReplyPlan &p);
	int sendto(svc_rqst *rqstp, CallCtx *cc);
	int reply(svc_rqst *rqstp, CallCtx *cc);
	int result_payload(CallCtx *cc, u32 offset, u32 length);
	void put_call(CallCtx *cc);
	void uncount();
	void uncount_call(CallCtx *cc);
	RPCRDMAX_COLD void note_overrun(u32 xid);
	void settle(Settle how);
	void settle(CallCtx *cc, Settle how);
	RPCRDMAX_COLD void drop_backward_reply(CallCtx *cc);
	bool gone() const;
	Settle failed() const { return gone() ? Settle::Lost : Settle::Dropped; }
	void detach();
	RPCRDMAX_COLD void lost();
	void drain();
	/* post_reads' bound (kReadWaitMs); KUnit's stalled-Read case
	 * shortens it. */
	unsigned int read_wait_ms = kReadWaitMs;
	/* What a Read's completion calls: ReadCtx::done, or KUnit's
	 * case of a device that never flushes a Read. */
	Cqe::Fn read_done = &ReadCtx::done;

	/* Backward Calls outstanding at once: the Receives (for their
	 * Replies) and Send Queue room set-up reserved, kBcSlots on every
	 * connection, as stock's server. */
	u32 bc_slots() const { return kBcSlots; }
	/* The largest backward Call's RPC part in version @vers (sunrpc is
	 * told version 1's: the connection's version comes later). */
	u32 bc_max_payload(u32 vers = core::kRpcRdmaVersion1) const;
	RPCRDMAX_COLD int bc_send(rpc_rqst *rqst, u32 xid, u32 len);

	void recv_done(RecvBuf *rb, const ib_wc &wc);
	void send_done(SendCtx *sc, const ib_wc &wc);
	Result<void> sq_reserve(u32 n);
	void sq_release(u32 n);
	int sq_free() { return sq_.available(); }

	svc_xprt *xprt = nullptr;		/* our svc_xprt */
	ListNode accept_node;		/* the Listener's queue until accepted */
	/* Destroyed last: ~SvcConn frees its contexts and destroys the QP,
	 * the CQs and PD go next, then the id, which device removal waits
	 * for (CmId::destroy_qp). */
	CmId id;

private:
	Result<void> post_recv(RecvBuf *rb);
	Result<void> rq_posted(Result<void> r);
	Result<void> sq_posted(Result<void> r);
	void repost(RecvBuf *rb);
	Result<void> traced(rpcrdmax_accept_err which, Result<void> r);
	Result<void> make_queues(const rpcrdmax_dev_attrs &attrs);
	Result<void> make_receives();
	Result<void> make_recv(RecvBuf *rb, int cid);
	Result<void> fill_pools(u32 ncalls, u32 nsends);
	CallCtx *new_call();
	SendCtx *new_send();
	RecvBuf *get_spare();
	CallCtx *get_call();
	SendCtx *get_send();
	void put_send(SendCtx *sc);
	RPCRDMAX_COLD void backward_reply(const core::V1Header &h, const u8 *msg, u32 len);
	Result<u32> take_arg(svc_rqst *rqstp, CallCtx *cc, RecvBuf *rb);
	bool arg_in_place(svc_rqst *rqstp, CallCtx *cc, RecvBuf *rb);
	Result<u32> build_arg(svc_rqst *rqstp, CallCtx *cc, const u8 *inl);
	Result<void> read_chunks(svc_rqst *rqstp, CallCtx *cc);
	Result<void> add_reads(svc_rqst *rqstp, CallCtx *cc, const core::ChunkRef &c, u32 skip,
			       u32 len, u32 at);
	Result<void> post_reads(ReadCtx *rc, RwList &rw);
	RPCRDMAX_COLD bool reset_unanswered_reads(ReadCtx *rc);
	RPCRDMAX_COLD Result<void> send_error(u32 xid, bool vers, const core::V2Error *e = nullptr,
				u32 rvers = core::kRpcRdmaVersion2);
	/* RPC-over-RDMA Version Two (svcrdma/v2.cpp) */
	bool decode_v1(RecvBuf *rb, CallCtx *cc, bool *reply);
	bool decode_v2(RecvBuf *rb, CallCtx *cc, bool *reply);
	RPCRDMAX_COLD Settle v2_control(RecvBuf *rb);
	Settle v2_refuse(const RecvBuf *rb, u32 xid, core::V2Verdict v);
	Settle v2_error(u32 xid, const core::V2Error &e, const char *why);
	Settle sent(Result<void> r) const;
	void note_connprop(const core::PropSet &props);
	void count_version(u32 vers);
	void send_connprop();
	Result<void> connprop_post();
	u32 control_grant();
	u32 reply_thr(const CallCtx *cc) const;
	RPCRDMAX_COLD Result<void> chunk_error(const CallCtx *cc, core::V2ErrCode code, u32 length_needed);
	Result<void> add_writes(SendCtx *sc, svc_rqst *rqstp, CallCtx *cc, const core::ChunkRef &c,
				const core::Range *ranges, u32 nranges);
	u32 write_pieces_max(u32 longest, u32 nranges) const;
	Result<void> add_write(SendCtx *sc, Span<const rpcrdmax_page_seg> pieces,
			       const core::Segment &s);
	int load_inline(SendCtx *sc, svc_rqst *rqstp, const rpcrdmax_xdr_shape &s,
			const core::ReplyPlan &p, u32 hlen);
	int load_writes(SendCtx *sc, svc_rqst *rqstp, CallCtx *cc, const rpcrdmax_xdr_shape &s,
			const core::ReplyPlan &p);
	int load_one_write(SendCtx *sc, svc_rqst *rqstp, CallCtx *cc, u32 written);
	int take_res_pages(SendCtx *sc, svc_rqst *rqstp);
	u32 grant_reply(CallCtx *cc);
	core::ReplyPlan plan_reply(CallCtx *cc, const rpcrdmax_xdr_shape &s);
	u32 reply_inv(const CallCtx *cc) const;
	int reply_one_write(svc_rqst *rqstp, CallCtx *cc, const rpcrdmax_xdr_shape &s, u32 credits,
			    u32 written, u32 tail_skip, u32 body_len);
	bool reply_is_short(const CallCtx *cc, const rpcrdmax_xdr_shape &s) const;
	int reply_short(svc_rqst *rqstp, CallCtx *cc, const rpcrdmax_xdr_shape &s);
	int load_short(SendCtx *sc, svc_rqst *rqstp, const rpcrdmax_xdr_shape &s, u32 hlen);
	int pull_up_res(svc_rqst *rqstp, const rpcrdmax_xdr_shape &s, u8 *dst);
	void note_shape(CallCtx *cc, const rpcrdmax_xdr_shape &s);
	RPCRDMAX_COLD int reply_failed(CallCtx *cc, SendCtx *sc, int rc);
	Result<void> post_reply(SendCtx *sc, u32 send_len, u32 inv_rkey);
	void orphan(SendCtx *sc);
	void retire(SendCtx *sc);

	Pd pd_;
	Cq scq_, rcq_;
	RecvBuf *recvs_ = nullptr;
	u32 nrecvs_ = 0;
	SpinLock repost_lock_;
	RecvBuf *reposts_[kRecvBatch];	/* processed, waiting for their batch */
	u32 nreposts_ = 0;
	ConnLimits lim_ = conn_limits();
	SpinLock lock_;
	SqSlots sq_;			/* Send Queue slots we use */
	bool send_inv_ = false;		/* RFC 8797 R on both ends, and our device can */
	bool can_inv_ = false;		/* our device can post Send With Invalidate */
	u32 max_send_sge_ = 1;		/* SGEs an inline Reply may use */
	List<RecvBuf, &RecvBuf::node> ready_;
	List<RecvBuf, &RecvBuf::node> spare_recvs_;	/* under lock_; see kSpareRecvs */
	RecvBuf *spares_[kSpareRecvs] = {};		/* under lock_: made by get_spare */
	u32 nspares_ = 0;				/* under lock_: slots taken in spares_ */
	List<SendCtx, &SendCtx::node> orphans_;
	/* Sends posted and not yet retired, in Send Queue order (kSendBatch) */
	SpinLock post_lock_;
	PostedSends<SendCtx, &SendCtx::node> posted_;	/* under post_lock_ */
	u32 since_signal_ = 0;		/* under post_lock_: Sends since a signaled one */
	u32 tail_ = 0;			/* under post_lock_: unsignaled Sends' slots */
	u32 tail_room_ = 0;		/* slots beyond sq_'s for them */
	List<CallCtx, &CallCtx::node> call_free_;	/* under lock_ */
	/* Under lock_: all of them, free or not.  A context svc never gives
	 * back (a deferred Call dropped: svc_revisit() frees only its own
	 * record) goes with the connection all the same. */
	List<CallCtx, &CallCtx::all> calls_;
	List<SendCtx, &SendCtx::node> send_free_;	/* under lock_ */
	core::ResponderCredits credits_;
	core::InlineThresholds thr_ = { core::kPdMinInline, core::kPdMinInline };
	/* Version Two: the client's Receive size for our Replies (its
	 * CONNPROP RBSIZ, else its private data's, else the draft's 4096);
	 * whether this connection's version was counted; recvfrom's
	 * scratch for messages that carry no Call, made at the first. */
	Atomic v2_rbsiz_;
	Atomic first_vers_;	/* the version of the connection's first Call; 0: none yet */
	core::V2Header *v2_ = nullptr;
	Atomic lost_;
	Atomic unsettled_;		/* messages received and not yet settled */
	Atomic send_ids_;		/* the next Send context's cid */
	Mutex drain_mutex_;		/* drain(): one ib_drain_qp at a time */
	u32 ord_ = 1;
	/* The CONNECT_REQUEST, kept from the CM callback for setup(). */
	u8 req_pd_[kReqPdMax] = {};
	u32 req_pd_len_ = 0;
	u32 req_initiator_depth_ = 0;

};

class Listener final : public ::rpcrdmax_svcl, public CmEvents {
public:
	explicit Listener(svc_xprt *xprt) : xprt_(xprt) {}
	~Listener();
	int cm_event(CmId *, const rpcrdmax_cm_event_info &ev) override;
	Result<void> listen(const void *addr, unsigned int addrlen);
	svc_xprt *accept(bool *more);
	svc_xprt *xprt() const { return xprt_; }

private:
	svc_xprt *xprt_;
	SpinLock lock_;
	List<SvcConn, &SvcConn::accept_node> pending_;

public:
	CmId id;
};

} // namespace rpcrdmax::svcrdma
