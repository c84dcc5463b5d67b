/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xprtrdma/xprtrdma.h - the client transport's objects.
 *
 *   ClntEp   one per sunrpc transport; owns the current Conn.
 *   Conn     one connection: CM id, QP, CQs, Send and Receive buffers,
 *            the MR pool; replaced on every reconnect.
 *   Req      per RPC slot (made by buf_alloc, in front of the Call and
 *            Reply buffers): the MRs registered for its current
 *            transmission and the Reply waiting for their invalidation.
 *   ClntMr   one FRWR registration from a Conn's pool.
 *
 * Files: endpoint.cpp (ClntEp: connect attempts, transmit, close, the
 * entry points), connect.cpp (a Conn's set-up and loss), transfer.cpp
 * (Sends and Receives), buffers.cpp (per-RPC buffers), stats.cpp
 * (counters), frwr.cpp (registration and invalidation), marshal.cpp
 * (planning a Call, placing a Reply), v2.cpp (RPC-over-RDMA Version Two:
 * negotiation, properties, errors).
 */
#pragma once

#include "rpcrdmax/core/credits.h"
#include "rpcrdmax/core/planner.h"
#include "rpcrdmax/core/privdata.h"
#include "rpcrdmax/core/v1.h"
#include "rpcrdmax/core/v2.h"
#include "rpcrdmax/ktl/alloc.h"
#include "rpcrdmax/ktl/list.h"
#include "rpcrdmax/ktl/lock.h"
#include "rpcrdmax/ktl/sync.h"
#include "rpcrdmax/ktl/trace.h"
#include "rpcrdmax/rdma/endpoint.h"
#include "rpcrdmax/rdma/sq.h"
#include "rpcrdmax/rdma/verbs.h"
#include "rqst.h"

namespace rpcrdmax::xprtrdma {

using namespace rpcrdmax::ktl;
using namespace rpcrdmax::rdma;

inline constexpr u32 kMaxInline = 65536;	/* largest inline size a tunable allows */
/* Credits we ask for: the transport's slot table (rdma_slot_table_entries,
 * as stock asks), at least the sysctl's minimum, at most what the
 * device's queues hold; a Receive is posted for each. */
inline constexpr u32 kMinRequests = 4;	/* RPCRDMA_MIN_SLOT_TABLE */
/* Backward Calls (RFC 8167) we take at once: the NFSv4.1 callback
 * service's slots, the rdma_credit of our backward Replies, and the
 * Receives posted beyond the credits for them. */
inline constexpr u32 kBcSlots = 2;
/* Receive buffers beyond those posted, each taking the place of one
 * whose Reply sunrpc is reading in place (Conn::lend); with none spare,
 * a Reply is copied into the RPC's own buffer, and its Receive posted
 * again at once. */
inline constexpr u32 kLendRecvs = 16;
inline constexpr u32 kMaxDataPages = 256;	/* 1 MiB of RPC payload */
inline constexpr u32 kMaxPayload = kMaxDataPages * RPCRDMAX_PAGE_SIZE;
inline constexpr u32 kPagesPerMr = kMaxDataPages + 2; /* unaligned data spans one more */
inline constexpr u32 kMrsPerReq = 8;		/* registrations one RPC may hold */
/* MRs per connection: at most a fixed pool, whatever the credits (each
 * holds a kPagesPerMr-entry scatterlist), as many as 32 RPCs of
 * kMrsPerReq.  The slot table may have more RPCs in flight
 * (rdma_slot_table_entries, 128 by default), but most register one MR
 * (a READ's or WRITE's data; on 7.x a GETATTR's Reply chunk) or none.  A connection starts
 * with kMrBatch; when fewer than kMrLowWater are free, a work item makes
 * kMrBatch more (frwr.cpp), as stock makes its MRs on demand.  A Call
 * that finds none free waits, as one that finds no Send buffer does,
 * until an MR comes back or the refill makes more (Conn::wait_for_space). */
inline constexpr u32 kMrPool = 32 * kMrsPerReq;
inline constexpr u32 kMrBatch = 4 * kMrsPerReq;
inline constexpr u32 kMrLowWater = 2 * kMrsPerReq;
static_assert(kMrPool % kMrBatch == 0 && kMrLowWater < kMrBatch);
inline constexpr u32 kMaxRegsPerCall = 2 * kMrsPerReq;	/* marshal's cap */
/* Send buffers for @reqs credits: Replies can lag their Sends' completions. */
constexpr u32 send_bufs(u32 reqs) { return 2 * reqs; }
/* Worst case on the Send Queue: every Send buffer in flight with its
 * REG_MRs, and a LOCAL_INV for every MR of the pool. */
constexpr u32 send_wrs(u32 reqs) { return send_bufs(reqs) * (kMaxRegsPerCall + 1) + kMrPool; }
inline constexpr u32 kSendBatch = 8;	/* one signaled Send in this many */
inline constexpr unsigned int kResolveMs = 5000;
inline constexpr unsigned int kConnectMs = 15000;
/* The first wait before a reconnect; sunrpc doubles it after each
 * attempt, up to the mount's maximum (stock's 5 s). */
inline constexpr unsigned int kReconnectMs = 5000;
inline constexpr unsigned int kInvalidateMs = 10000;
/* The longest a Call waits for its Reply while its connection's first
 * Version Two Call is unanswered (ClntEp::reply_timeout;
 * Documentation/v2.rst, "A server that drops Version Two Calls"). */
inline constexpr unsigned int kV2ProbeMs = 15000;
/* Connections in a row that may end before their first Version Two
 * Call is answered (its wait ran out, or the connection went) until the
 * transport takes the server for one that drops them (ClntEp::close). */
inline constexpr int kV2CutOffs = 3;
inline constexpr u32 kCtlSize = 256;	/* a control message (Conn::post_control) */

class ClntEp;
class Conn;
struct Req;

/* Which of the core's shortcuts planned a Call with chunks (Conn::plan_call):
 * its one segment is then registered and its header written from fixed
 * offsets (Conn::encode_one_segment). */
enum class CallShortcut : u8 {
	None,	  /* core::plan_rpc */
	OneWrite, /* core::plan_one_write: a READ's one Write segment */
	OneReply, /* core::plan_one_reply: a Reply chunk of one segment */
};

/* A Send buffer (send_size octets) and a Receive buffer (recv_size). */
struct SendBuf : MsgBuf {
	SendBuf() : MsgBuf(&SendBuf::done, RPCRDMAX_WC_EV_CLNT_SEND) {}
	static void done(Cqe *c, const ib_wc &wc);
	Conn *conn = nullptr;
	u32 taken = 0;		/* its place in the ring's order (Conn::take_send) */
	Wr wr;			/* its Send, built in place per post */
	rpcrdmax_sge sge = {};	/* the Send's one SGE: the buffer */
};

/* The Send buffer of a connection's control messages (RDMA2_CONNPROP,
 * RDMA2_ERROR for a property operation we do not take, and the ERR_CHUNK
 * that refuses a backward Call with chunks): one at a time,
 * always signaled, apart from the RPCs' Send buffers. */
struct CtlBuf : MsgBuf {
	CtlBuf() : MsgBuf(&CtlBuf::done, RPCRDMAX_WC_EV_CLNT_SEND) {}
	static void done(Cqe *c, const ib_wc &wc);
	Conn *conn = nullptr;
	Atomic busy;
};

struct RecvPool;

struct RecvBuf : MsgBuf {
	RecvBuf() : MsgBuf(&RecvBuf::done, RPCRDMAX_WC_EV_CLNT_RECEIVE) {}
	static void done(Cqe *c, const ib_wc &wc);
	Conn *conn = nullptr;
	RecvPool *pool = nullptr;
	RecvBuf *next_free = nullptr;	/* in a spare list (Conn::spares_, RecvPool::returned) */
	RecvWr wr;	/* into the whole buffer, built once it is mapped */
};

/*
 * A connection's Receive buffers, apart from the Conn: an inline Reply
 * handed to sunrpc where it lies (Conn::lend, as stock's reply handler
 * points rq_rcv_buf's head into its receive buffer) keeps its buffer
 * until the RPC gives it back (Req::give_back), which may be after the
 * connection is gone.  So the pool lives while the Conn or a lent buffer
 * refers to it; ~Conn unmaps every buffer, the last reference frees them.
 */
struct RecvPool {
	RecvBuf *bufs = nullptr;
	u32 n = 0;
	BasicAtomic<u32> refs{ 1 };	/* the Conn's, and one per lent buffer */
	/* Lent buffers given back, not yet posted again: pushed by any
	 * context, taken whole by the receive completions (Conn::take_spare). */
	BasicAtomic<RecvBuf *> returned{ nullptr };

	static RecvPool *make(u32 n);
	void give_back(RecvBuf *rb);
	void put();
};

struct ClntMr {
	ClntMr() : cqe(&ClntMr::inv_done, RPCRDMAX_WC_EV_CLNT_LI) {}
	static void inv_done(Cqe *c, const ib_wc &wc);
	Cqe cqe;		/* LOCAL_INV completion (the last of a chain) */
	ListNode node;		/* Conn's free list, or its Req's list */
	Mr mr;
	/* Its REG_MR and LOCAL_INV, built in place when posted. */
	Wr reg_wr, inv_wr;
	Conn *conn = nullptr;
	Req *req = nullptr;
	core::Segment seg = {};	/* as advertised: rkey, length, iova */
	bool remotely_invalidated = false;
	/* For its tracepoints (mr.id: cqe's id): how it was mapped. */
	int nents = 0;
	int dir = 0;
	rpcrdmax_mr_info info() const
	{
		return { cqe.id(), nents, seg.handle, seg.length, seg.offset, dir };
	}
	void trace(rpcrdmax_mr_event which, rpc_rqst *rqst = nullptr) const
	{
		if (!traced(which))
			return;
		const rpcrdmax_mr_info i = info();
		rpcrdmax_trace_mr(which, rqst, &i);
	}
	/* Whether an event rpcrdmax_trace_mr() fires for @which is on. */
	static bool traced(rpcrdmax_mr_event which)
	{
		switch (which) {
		case RPCRDMAX_MR_EV_REG:
			return tp_any(RPCRDMAX_TP_XPRTRDMA_MR_MAP, RPCRDMAX_TP_XPRTRDMA_MR_FASTREG);
		case RPCRDMAX_MR_EV_REMINV:
			return tp_on(RPCRDMAX_TP_XPRTRDMA_MR_REMINV);
		case RPCRDMAX_MR_EV_LOCALINV:
			return tp_on(RPCRDMAX_TP_XPRTRDMA_MR_LOCALINV);
		case RPCRDMAX_MR_EV_UNMAP:
			return tp_on(RPCRDMAX_TP_XPRTRDMA_MR_UNMAP);
		}
		return true;
	}
};

/* What a Reply sets in its request: Req::reset_reply() puts it back to
 * these defaults before the Reply to a Call sent again. */
struct ReqReply {
	u32 reply_len = 0;		/* inline RPC octets in the held Receive */
	u32 ddp_len = 0;		/* octets the server wrote (Write chunk) */
	u32 nomsg_len = 0;		/* RDMA_NOMSG: octets in the Reply chunk */
	int reply_status = 0;
	/* Answered by ERR_VERS: it goes again, in version 1, on the same
	 * connection (the server returned its credit). */
	bool resend_ok = false;
	RecvBuf *held = nullptr;	/* the Receive holding the inline Reply */
};

/* What one RPC sets in its request, its Reply's included: Req::reuse()
 * puts it back to these defaults for the next RPC. */
struct ReqRpc : ReqReply {
	u32 valid_mrs = 0;		/* of mrs, those the server did not invalidate */
	Conn *conn = nullptr;		/* whose pool the MRs come from */
	/* A Reply waiting for the invalidation of this request's MRs. */
	rpc_rqst *rqst = nullptr;
	u32 write_offered = 0;		/* octets offered in the Write chunk */
	u32 reply_offered = 0;		/* octets offered in the Reply chunk */
	u32 inv_handle = 0;		/* version 2: the handle the server may invalidate */
	u32 msg_offset = 0;		/* where its RPC message starts */
	bool sync_wait = false;		/* buf_free waits for the invalidation */
	void *call = nullptr;
	void *rcv = nullptr;
};

/*
 * One RPC's transport state.  A Req is made once per allocation and kept
 * with it in ClntEp's cache between RPCs; its own fields (completion
 * entry, completion, MR list, allocation) stay as they are, and reuse()
 * sets the per-RPC ones (ReqRpc) back to their defaults.
 */
struct Req : ReqRpc {
	Req() : inv_cqe(&Req::inv_done, RPCRDMAX_WC_EV_CLNT_LI_WAKE) {}
	static void inv_done(Cqe *c, const ib_wc &wc);
	static Req *from_call_buffer(void *call);
	/* assigned from constants, stored straight into the fields (an
	 * assigned temporary is built on the stack first) */
	void reset_reply() { static_cast<ReqReply &>(*this) = kDefaultReply; }
	/* lent is null already: buf_free gave it back */
	void reuse() { static_cast<ReqRpc &>(*this) = kDefaultRpc; }
	static constexpr ReqReply kDefaultReply{};
	static constexpr ReqRpc kDefaultRpc{};
	void give_back();
	/* give_back() where lending is rare (a Call sent again) */
	void give_back_if_lent()
	{
		if (__builtin_expect(lent != nullptr, 0))
			give_back_cold();
	}
	RPCRDMAX_COLD void give_back_cold();

	Cqe inv_cqe;			/* the signaled LOCAL_INV of a chain */
	List<ClntMr, &ClntMr::node> mrs;
	/* The Receive whose Reply sunrpc reads in place (Conn::lend):
	 * given back when the RPC's buffers are freed or it is sent again. */
	RecvBuf *lent = nullptr;
	Completion invalidated;		/* for buf_free's synchronous wait */
	u32 block_size = 0;		/* of the allocation it heads */
	ListNode cache_node;		/* in ClntEp's cache while free */
};
void destroy_req(Req *req);

/*
 * The client's counters, stock's rx_stats and ours (stats.cpp names them),
 * per ClntEp and per CPU like the server's rdma_stat_*: an add is this
 * CPU's copy (this_cpu_add() through the shim); a read sums the copies.
 */
enum class ClntStat : u32 {
	ReadChunks, WriteChunks, ReplyChunks, NomsgCalls,
	RequestBytes, ReplyBytes, PullupBytes, FixupBytes,
	FailedMarshal, BadReply, BackchannelCalls, BcReplies, BcDropped, SendErrors,
	MrsAllocated, MrsRecovered, LocalInvNeeded, EmptySendctx,
	MrsLive,	/* MRs its connections hold now (MrsAllocated never falls) */
	ReqBlocks,	/* request blocks allocated (reused ones not counted) */
	/* RPC-over-RDMA Version Two: connections by the version they
	 * settled on, RDMA2_ERRORs received for our Calls, property
	 * operations refused with RDMA2_ERR_INVAL_OPTION. */
	Vers1Conns, Vers2Conns, V2Errors, V2Refused,
	BcV2Calls,	/* backward Calls that came in version 2 */
	InvFenced,	/* LOCAL_INVs not done in time: fence_invalidate */
	LateCalls,	/* sent after their major timeout: reply_major */
	Count
};

class Counters {
public:
	Counters() : pcpu_(rpcrdmax_alloc_percpu_u64((u32)ClntStat::Count)) {}
	~Counters() { rpcrdmax_free_percpu_u64(pcpu_); }
	Counters(const Counters &) = delete;
	Counters &operator=(const Counters &) = delete;

	/// Whether the counters were made: a ClntEp without them is not
	/// used (rpcrdmax_clnt_create fails), so add() need not test.
	bool made() const { return pcpu_ != nullptr; }
	/// Count @n (negative: a gauge going down) in @s.
	void add(ClntStat s, long long n = 1)
	{
		rpcrdmax_percpu_add_u64(pcpu_, (u32)s, (unsigned long long)n);
	}
	/// Count @n in @s and @m in @t: one call for two counters.
	void add(ClntStat s, long long n, ClntStat t, long long m)
	{
		rpcrdmax_percpu_add2_u64(pcpu_, (u32)s, (unsigned long long)n, (u32)t,
					 (unsigned long long)m);
	}
	/// @s, summed over the CPUs.
	long long read(ClntStat s) const
	{
		return pcpu_ ? (long long)rpcrdmax_percpu_sum_u64(pcpu_, (u32)s) : 0;
	}

private:
	unsigned long long RPCRDMAX_PERCPU *pcpu_;
};

class Conn final : public CmEvents {
public:
	explicit Conn(ClntEp *ep) : ep_(ep) {}
	~Conn();

	int cm_event(CmId *, const rpcrdmax_cm_event_info &ev) override;
	Result<void> resolve(const void *addr, unsigned int addrlen);
	Result<void> make_bufs(ib_device *dev, u32 nsends, u32 nrecvs, u32 nbufs);
	void take_peer_pd(const core::PrivData &ours);
	Result<void> setup(const void *addr, unsigned int addrlen, bool offer_v2);
	Result<void> send(rpc_rqst *rqst, u32 xid);
	RPCRDMAX_COLD Result<void> bc_send(rpc_rqst *rqst, u32 xid, u32 len);
	u32 bc_max_payload(u32 vers = core::kRpcRdmaVersion1) const;
	void recv_done(RecvBuf *rb, const ib_wc &wc);
	void send_done(SendBuf *sb, const ib_wc &wc);
	void send_status(const ib_wc &wc);
	RPCRDMAX_COLD void lost();
	void fail(int event);
	void fence_invalidate(Req *req);

	/* frwr.cpp */
	Result<void> frwr_setup(ib_device *dev, u32 pages_per_mr);
	Result<void> frwr_grow();
	static void frwr_refill(FnWork *w);
	void frwr_stop_refill();
	Result<u32> frwr_map(ClntMr *m, rpc_rqst *rqst, bool rcv, const core::PlannedSegment &ps,
			     u32 shift, int dir);
	Result<ClntMr *> frwr_register(Req *req, rpc_rqst *rqst, bool rcv,
				       const core::PlannedSegment &ps, u32 extent_shift);
	void frwr_release(Req *req, bool wake = true);
	ClntMr *frwr_take_free();
	void frwr_put_free(ClntMr *m, bool next);
	bool frwr_remote_invalidated(Req *req, u32 rkey);
	Result<void> frwr_invalidate(Req *req, bool signal_req);
	void frwr_detach_all();

	/* marshal.cpp */
	RPCRDMAX_COLD void trace_marshal(rpc_rqst *rqst, bool inline_rpc, u32 hl,
					 bool pulled) const;
	static void trace_chunk(rpcrdmax_chunk_event which, rpc_rqst *rqst, u32 pos,
				ClntMr *const *mrs, u32 n);
	Result<void> marshal(Req *req, rpc_rqst *rqst, u32 xid, SendBuf *sb, u32 *send_len,
			     Wr **wrs, unsigned int *nwr);
	/* Conn::marshal's steps */
	Result<void> encode_inline_call(Req *req, rpc_rqst *rqst, u32 xid, u32 vers,
					const rpcrdmax_xdr_shape &cs, Bytes out, u32 *hl, int *copied);
	Result<void> encode_chunked_call(Req *req, rpc_rqst *rqst, u32 xid, u32 vers,
					 CallShortcut sc, const core::MsgShape &call,
					 const rpcrdmax_xdr_shape &cs, Bytes out, Wr **wrs,
					 unsigned int *n, u32 *hl, int *copied);
	RPCRDMAX_COLD Result<void> marshal_failed(Req *req, u32 xid, Result<void> r);
	void note_v2_call();
	Result<CallShortcut> plan_call(rpc_rqst *rqst, u32 xid, u32 vers,
				       const core::InlineThresholds &thr, u64 call_len,
				       const core::MsgShape &reply, rpcrdmax_xdr_shape *cs,
				       core::MsgShape *call);
	Result<void> register_chunk(Req *req, rpc_rqst *rqst, const core::PlannedChunk &c,
				    rpcrdmax_chunk_event which, u32 pos, u32 tail_shift,
				    Wr **wrs, ClntMr **regd, unsigned int *n);
	Result<void> register_chunks(Req *req, rpc_rqst *rqst, const core::MsgShape &call,
				     Wr **wrs, unsigned int *n);
	Result<u32> encode_chunks(Req *req, rpc_rqst *rqst, u32 xid, u32 vers, u32 credits,
				  const core::MsgShape &call, Wr **wrs, unsigned int *n, Bytes out);
	Result<u32> encode_one_segment(Req *req, rpc_rqst *rqst, CallShortcut sc, u32 xid, u32 vers,
				       u32 credits, Wr **wrs, unsigned int *n, Bytes out);
	int copy_inline(rpc_rqst *rqst, const rpcrdmax_xdr_shape &cs, const core::MsgShape &call,
			u8 *dst, u32 room);
	void count_chunks(const Req *req);
	/* True when @rb may be reposted now (false: a Req holds it). */
	bool handle_reply(RecvBuf *rb, u32 len, const ib_wc &wc);
	RPCRDMAX_COLD void backward_call(const core::V1Header &h, const u8 *msg);
	RPCRDMAX_COLD bool backward_read_list(ConstBytes raw);
	RPCRDMAX_COLD void reply_err(rpcrdmax_reply_err which, ConstBytes hdr);
	void finish_reply(Req *req, bool may_lend = false);
	bool lend(Req *req, RecvBuf *rb, rpc_rqst *rqst);
	RecvBuf *take_spare();
	bool complete(Req *req, rpc_rqst *rqst);
	void update_grant(u32 credit_field);
	bool invalidation_ok(const ib_wc &wc, const core::V1Header &h, Req *req);
	void take_reply(Req *req, rpc_rqst *rqst, RecvBuf *rb, ConstBytes raw,
			const core::V1Header &h);
	bool forward_reply(RecvBuf *rb, ConstBytes raw, const ib_wc &wc,
			   const core::V1Header &h);

	/* v2.cpp */
	bool v2_message(RecvBuf *rb, ConstBytes raw, const ib_wc &wc, core::V2Proc proc);
	RPCRDMAX_COLD void v2_err_vers(ConstBytes raw, u32 xid, u32 low, u32 high);
	RPCRDMAX_COLD void v2_error(ConstBytes raw);
	RPCRDMAX_COLD void v2_control(ConstBytes raw);
	void v2_confirm();
	void note_connprop(const core::PropSet &props);
	template <typename Encode> Result<void> post_control(Encode encode);
	RPCRDMAX_COLD void refuse_backward_chunks(u32 xid, u32 vers);
	void ctl_done(const ib_wc &wc);
	void count_version(u32 vers);
	u32 call_vers() const { return (u32)calls_vers_.read(); }
	bool v2_confirmed() const { return v2_confirmed_.read() != 0; }
	bool v2_unanswered() const;
	core::InlineThresholds call_thresholds(u32 vers) const;

	core::InlineThresholds thresholds = { core::kPdMinInline, core::kPdMinInline };
	u32 send_size = 0;	/* our Send buffers: rdma_max_inline_write */
	u32 recv_size = 0;	/* our Receive buffers: rdma_max_inline_read */
	u32 pages_per_mr = 1;
	const char *stage = "new";	/* for connect failure messages */
	ClntEp *ep() const { return ep_; }

	/* Connect's waits (public for KUnit's connect_fails case). */
	Result<void> wait_resolved(unsigned int ms) { return wait_event(&resolved_, ms); }
	Result<void> wait_established(unsigned int ms) { return wait_event(&established_, ms); }
	/* What failed the connect, for its log line: the CM event, by the
	 * name rdma_cm's own messages use, or "no CM event in time". */
	const char *fail_reason(int rc) const;
	bool established() const { return connected_.read() != 0; }

private:
	Result<void> wait_event(Completion *c, unsigned int ms);
	SendBuf *take_send(bool *signal);
	void untake_send(SendBuf *sb);
	u32 sends_busy() const { return sends_taken_ - sends_freed_.read_acquire(); }
	bool mr_free();
	RPCRDMAX_COLD Result<void> wait_for_space(bool mr);
	void space_freed();
	Result<void> post_send_chain(rpc_rqst *rqst, SendBuf *sb, u32 len, bool signal,
				     unsigned int n);

public:
	Result<void> post_recv(RecvBuf *rb);

private:
	ClntEp *ep_;

public:
	/* First, so destroyed last: ~Conn frees its MRs and buffers and
	 * destroys the QP, the CQs and PD go next, then the id, which device
	 * removal waits for (CmId::destroy_qp). */
	CmId id;

private:
	Pd pd_;
	Cq scq_, rcq_;
	/* The Send buffers, a ring like stock's sendctx ring: taken in
	 * order by the transmitting task (sunrpc's write lock serializes
	 * transmissions, backward Replies included) and posted in that
	 * order, so a signaled Send's completion frees it and every buffer
	 * taken before it (the Send Queue completes in order).  No lock:
	 * only transmissions write sends_taken_ and since_signal_, only the
	 * send CQ's completions sends_freed_; both count from 0 and wrap. */
	SendBuf *sends_ = nullptr;	/* nsends_ = send_bufs(credits asked for) */
	u32 nsends_ = 0;
	u32 send_slot_ = 0;		/* the next one taken */
	u32 sends_taken_ = 0;
	BasicAtomic<u32> sends_freed_;
	u32 since_signal_ = 0;
	/* The credits asked for + kBcSlots Receives posted, and kLendRecvs
	 * spares that take the place of a lent one. */
	RecvPool *recvs_ = nullptr;
	RecvBuf *spares_ = nullptr;	/* receive completions only */
	ClntMr *mrs_ = nullptr;		/* kMrPool, the first mrs_made_ made */
	ib_device *mr_dev_ = nullptr;
	u32 mrs_made_ = 0;		/* under free_lock_; by frwr_setup, then frwr_refill */
	FnWork mr_refill_{ &Conn::frwr_refill };
	SpinLock free_lock_;		/* MRs */
	List<ClntMr, &ClntMr::node> free_mrs_;
	u32 free_mr_count_ = 0;
	/* The MR released last, taken by the next registration with one
	 * exchange: with one RPC at a time no MR passes free_lock_.  Not
	 * in free_mrs_ nor counted in free_mr_count_; unmapped, no Req. */
	BasicAtomic<ClntMr *> spare_mr_{ nullptr };
	bool refill_queued_ = false;	/* under free_lock_ */
	bool refill_stopped_ = false;	/* the connection is going: queue no more */
	/* A transmission found no Send buffer or no MR free and sunrpc
	 * holds the transport's writers (wait_for_space); whatever frees
	 * one wakes them (space_freed). */
	BasicAtomic<u32> space_wanted_;
	/* Transmit-path scratch, serialized by sunrpc's write lock. */
	core::V1Header send_hdr_;
	core::Plan plan_;
	rpcrdmax_page_seg page_segs_[kPagesPerMr];
	Wr *wrs_[kMaxRegsPerCall];	/* the REG_MRs posted before a Call's Send */
	core::V1Header recv_hdr_;	/* one receive CQ: completions are serial */
	core::RequesterCredits credits_;
	u32 cwnd_grant_ = 0;	/* the grant sunrpc's window was last set to */
	bool answered_ = false;	/* a Reply came: the reconnect wait starts over */
	Completion resolved_, established_;	/* or failed: fail() */
	u8 peer_pd_[64];
	u32 peer_pd_len_ = 0;
	Atomic lost_;
	Atomic connected_;	/* ESTABLISHED arrived */
	/* RPC-over-RDMA Version Two (v2.cpp) */
	bool offer_v2_ = false;		/* the first Call goes as version 2 */
	Atomic calls_vers_{ 1 };	/* the version our Calls use now */
	Atomic v2_sent_;		/* a version 2 Call went out */
	Atomic v2_confirmed_;		/* a non-error version 2 Reply came */
	Atomic peer_rbsiz_;		/* the server's RDMA2_CONNPROP RBSIZ; 0: none */
	/* the peer's Receive size: its private data's, else the draft's
	 * 4096, within [kPdMinInline, send_size]; set at each connect */
	u32 v2_peer_recv_ = 0;
	Atomic bc_vers_{ 1 };		/* the latest backward Call's version */
	Atomic vers_counted_;
	CtlBuf ctl_;
	core::V2Header *v2hdr_ = nullptr; /* receive side: RDMA2_ERROR, properties */
	friend class ClntEp;

public:
	Atomic fail_event_{ -1 };	/* the CM event that failed the connect */
};

} // namespace rpcrdmax::xprtrdma

/* The client endpoint's handle in the shim API (rpcrdmax_shim.h): C sees
 * it declared only; every one is a ClntEp. */
struct rpcrdmax_clnt {};

namespace rpcrdmax::xprtrdma {

class ClntEp : public ::rpcrdmax_clnt {
public:
	explicit ClntEp(rpc_xprt *xprt) : xprt_(xprt) {}
	~ClntEp();
	int connect(const void *addr, unsigned int addrlen);
	unsigned long connect_delay();
	unsigned long reply_major(unsigned long now, unsigned long major, unsigned long timeout,
				  bool soft);
	unsigned long reply_timeout(unsigned long timeout);
	/* A Version Two Call went out on a connection not yet confirmed
	 * in Version Two, or the version settled (reply_timeout). */
	void v2_probe(bool on) { (void)v2_probing_.cmpxchg(on ? 0 : 1, on ? 1 : 0); }
	bool v2_probing() const { return v2_probing_.read() != 0; }
	void v2_settled() { cut_off_.set(0); }
	int transmit(rpc_rqst *rqst, unsigned int how, unsigned long now,
		     long long xtime); /* enum rpcrdmax_xmit_how */
	int send(rpc_rqst *rqst, u32 xid);
	int bc_send(rpc_rqst *rqst, u32 xid, u32 len);
	u32 bc_max_payload();
	void close();
	Req *buf_alloc(u32 callsize, u32 rcvsize, unsigned int gfp);
	void buf_free(Req *req);
	void print_stats(seq_file *seq);
	void print_counters(seq_file *seq);
	/* Version 1 from now on for this server: it answered ERR_VERS, or
	 * the first version 2 Call got no answer (draft Section 7.2). */
	void remember_v1(const char *why);
	bool may_resend(rpc_rqst *rqst);

	rpc_xprt *xprt_;
	Counters stats;
	/* How long buf_free waits for a LOCAL_INV before it fences the MRs
	 * (Conn::fence_invalidate); KUnit's fence case shortens it. */
	unsigned int invalidate_ms = kInvalidateMs;

private:
	RPCRDMAX_COLD Req *take_req_slow(Req *kept, u32 need, unsigned int gfp);
	void keep_req(Req *req);
	RPCRDMAX_COLD void release_live(Req *req);

	Mutex mutex_;
	Conn *conn_ = nullptr;
	Atomic v1_only_;	/* remember_v1() */
	Atomic v2_probing_;	/* v2_probe() */
	Atomic cut_off_;	/* close(): ended with the first v2 Call unanswered */
	Atomic bc_max_{ (int)(core::kPdMinInline - core::kMinChunkHeaderSize) };	/* bc_max_payload() */
	/* Requests kept for reuse, each with its allocation: at most the
	 * slot table's worth, so that in steady state an RPC allocates and
	 * initializes nothing.  The one freed last waits in last_freed_,
	 * taken and put back with one exchange, no lock: an RPC at a time
	 * (QD1, metadata) never takes cache_lock_. */
	BasicAtomic<Req *> last_freed_{ nullptr };
	SpinLock cache_lock_;
	List<Req, &Req::cache_node> cache_;
	u32 cached_ = 0;
};

} // namespace rpcrdmax::xprtrdma
