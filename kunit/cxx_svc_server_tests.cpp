// SPDX-License-Identifier: GPL-2.0
/*
 * kunit/cxx_svc_server_tests.cpp - the real server transport (svcrdma/)
 * against the real client transport (xprtrdma/) over rxe loopback (suite
 * rpcrdmax_svc_server).
 *
 * The server is svcrdma's own Listener and SvcConn: the test listens
 * with rpcrdmax_svcl_create(), a work item accepts as svc's thread would
 * (rpcrdmax_svcl_accept()), and the test thread plays nfsd: it waits for
 * data, dequeues and processes a message into an svc_rqst of
 * kunit/shims.c (the real shim/sunrpc/svc_rqst.c fills rq_arg), and sends the
 * Reply from rq_res.  What svc does with an svc_xprt (enqueue, close,
 * the backchannel rpc_xprt's XID lookup) is stood in for below; the
 * client is kunit/cxx_marshal_tests.cpp's ClntEp with its stand-ins.
 *
 *   inline     a small Call in, rq_arg as sent, an inline Reply out;
 *              the message taken, XPT_DATA is clear at once;
 *   read_chunk a WRITE-style Call: its page data pulled by RDMA Read
 *              into rq_pages at its position, rq_arg as sent;
 *   nomsg      a Long Call: RDMA_NOMSG, the Position Zero chunk pulled
 *              into rq_pages whole;
 *   reply_chunk a Reply over the inline threshold written into the
 *              client's Reply chunk;
 *   write_chunk a READ-style Reply: the page list RDMA Written into the
 *              client's Write chunk, head and tail (with the XDR pad)
 *              inline;
 *   readv      an NFSv4 READ by readv: only the marked result of a page
 *              list that holds more goes into the Write chunk;
 *   payload_too_big  a result longer than its Write chunk: -E2BIG under
 *              svcrdma_small_wrch_err, and the Reply goes inline;
 *   reuse      six RPCs on one connection: contexts made once
 *              (rdma_stat_ctxt_alloc does not move after the first);
 *   setup      what a connection makes before its first Call
 *              (Receives, two receive and kSendBatch send contexts), and
 *              the spare Receive buffer its first Call read in place adds;
 *   recv_batch Receives reposted kRecvBatch at a time, one chained post
 *              each;
 *   in_place   an inline Call read where it was received, a spare
 *              Receive posted in its place; copied when no spare is left;
 *   send_batch one Send in kSendBatch signaled, its completion
 *              retiring the unsignaled ones before it;
 *   bc_call    RFC 8167: a backward Call sent on the client's
 *              connection, taken by the client's callback slots, and its
 *              Reply matched to the Call and counted, not taken as a Call;
 *   credit_overrun  a raw client sends four Calls before any Reply, one
 *              more than its first grant (1) and the backward slots (2)
 *              cover: all four are served, the fourth is counted in
 *              rdma_stat_credit_overrun, and the other client's RPCs
 *              still go through;
 *   write_chunks  an NFSv4 COMPOUND with two READs: a raw client offers
 *              two Write chunks in one page it registered, nfsd marks two
 *              results; each lands in its chunk, the Reply returns both
 *              with the octets written, the rest of the Reply inline;
 *   send_held  a READ's Reply whose Send waits (the raw client posts no
 *              Receive): the page list's pages stay with the Send after
 *              nfsd gives the context back, until the connection's
 *              teardown drains the QP;
 *   short_reply  a raw client offers a Reply chunk of one segment, then of
 *              two, for Replies that fit inline: each Short Reply copies
 *              the chunk with no octets returned (RFC 8166 Section 4.3.3);
 *   bc_bad     a backward Call over the inline limit fails with
 *              -EMSGSIZE; a backward Reply for an XID never sent is
 *              dropped and counted; the forward direction keeps working.
 *   xdr_errors RFC 8166 Section 4.5.2's examples (an invalid rdma_proc,
 *              RDMA_NOMSG without chunks, rdma_xid not the RPC
 *              message's, inline or in a Long Call) in versions 1 and
 *              2: each answered with its error, none served;
 *   read_stalled  a client that stops answering a Long Call's RDMA
 *              Reads: after read_wait_ms the connection is reset, the
 *              Reads flushed, the Call not served, rdma_stat_read_reset
 *              counted;
 *   read_unflushed  the same, on a device whose Reads do not flush when
 *              the reset drains the QP (6.1's siw): recvfrom gives the
 *              Call up after kReadFlushWaitMs, and the Reads' context
 *              outlives their late completion until the teardown frees
 *              the CQs;
 *   settle     every Call received ends one way, counted: answered,
 *              released by nfsd without a Reply, lost with the
 *              connection (taken, or still queued).
 */
#include "../svcrdma/svcrdma.h"

namespace rpcrdmax::kunit_svcsrv {

using namespace rpcrdmax::ktl;
using kunit_rdma::Reporter;
using kunit_marshal::Bench;
using svcrdma::SvcConn;
using xprtrdma::ClntStat;
using rdma::SockAddr;
using rdma::WrSpec;
using rdma::RPCRDMAX_WR_SEND;

#define EXPECT(cond) check((cond), #cond, __FILE__, __LINE__)

static constexpr const char *kAddr = "192.0.2.1";
static constexpr unsigned short kPort = 20053;
static constexpr unsigned int kWaitMs = 10000;
static constexpr unsigned int kRqstPages = 8;

/* ---- svc's side, stood in for ---------------------------------------- */

/* A backward Call waiting for its Reply (the backchannel rpc_xprt's slot). */
struct BcWaiter {
	SpinLock lock;
	bool waiting = false;
	u32 xid = 0;
	u8 msg[256];
	u32 len = 0, slots = 0;
};

/* An svc_xprt: the listener's or a connection's. */
struct FakeSvcXprt {
	explicit FakeSvcXprt(rpcrdmax_svcc *conn = nullptr) : svcc(conn), accept_work(&accept_fn)
	{
		mem_set(kernel.get(), 0, sizeof(kernel.bytes));
	}
	/* First: the svc_xprt whose xpt_flags the server changes in place
	 * (XPT_DATA: set by data_ready, cleared when a message is taken). */
	Opaque<svc_xprt, RPCRDMAX_SIZEOF_SVC_XPRT, RPCRDMAX_ALIGNOF_SVC_XPRT> kernel;
	rpcrdmax_svcl *svcl = nullptr;	/* the C++ Listener, or */
	rpcrdmax_svcc *svcc;		/* SvcConn */
	svc_xprt *xprt() { return kernel.get(); }
	static FakeSvcXprt *of(svc_xprt *x)
	{
		/* kernel is the first member: its address is ours */
		return reinterpret_cast<FakeSvcXprt *>(x);
	}
	Completion ready;	/* conn_pending / data_ready, one each */
	bool data() { return *svc_xprt_flags(xprt()) & (1UL << RPCRDMAX_XPT_DATA); }
	Atomic closes;
	BcWaiter bc;
	/* listener: svc's thread calling xpo_accept */
	FnWork accept_work;
	FakeSvcXprt *accepted = nullptr;
	Completion accept_done;

	static void accept_fn(FnWork *w)
	{
		auto *l = container_of(w, &FakeSvcXprt::accept_work);
		bool more = false;
		l->accepted = of(rpcrdmax_svcl_accept(l->svcl, &more));
		l->accept_done.complete();
	}
};

/* The svc_rdma counters, while a case runs (made by pair_up). */
struct Stats {
	long long operator[](unsigned int i) { return (long long)rpcrdmax_kunit_svc_stat(i); }
};

} // namespace rpcrdmax::kunit_svcsrv

using rpcrdmax::kunit_svcsrv::FakeSvcXprt;

extern "C" svc_xprt *rpcrdmax_svc_xprt_new(svc_xprt *, rdma_cm_id *, rpcrdmax_svcc *conn) noexcept
{
	auto *x = new (rpcrdmax::ktl::Gfp::Kernel) FakeSvcXprt(conn);

	return x ? x->xprt() : nullptr;
}

/* The fake service's sv_max_payload: 6.1's RPCSVC_MAXPAYLOAD, 1 MiB. */
extern "C" unsigned int rpcrdmax_svc_max_payload(svc_xprt *) noexcept
{
	return 1u << 20;
}

/* Never handed out: freeing the svc_xprt frees the connection. */
extern "C" void rpcrdmax_svc_xprt_discard(svc_xprt *xprt) noexcept
{
	auto *x = FakeSvcXprt::of(xprt);
	rpcrdmax_svcc_destroy(x->svcc);
	delete x;
}

/* The tests' ids live in the initial namespace. */
extern "C" net *rpcrdmax_svc_xprt_net(svc_xprt *) noexcept
{
	return rpcrdmax_kunit_init_net();
}

extern "C" void rpcrdmax_svc_xprt_conn_pending(svc_xprt *listener) noexcept
{
	FakeSvcXprt::of(listener)->accept_work.queue();
}

extern "C" void rpcrdmax_svc_xprt_data_ready(svc_xprt *xprt) noexcept
{
	__atomic_fetch_or(rpcrdmax::ktl::svc_xprt_flags(xprt), 1UL << RPCRDMAX_XPT_DATA,
			  __ATOMIC_RELAXED);
	FakeSvcXprt::of(xprt)->ready.complete();
}

extern "C" void rpcrdmax_svc_xprt_received(svc_xprt *) noexcept
{
}

extern "C" void rpcrdmax_svc_xprt_close(svc_xprt *xprt) noexcept
{
	FakeSvcXprt::of(xprt)->closes.add_return(1);
}

extern "C" bool rpcrdmax_svc_xprt_closing(svc_xprt *xprt) noexcept
{
	return FakeSvcXprt::of(xprt)->closes.read() > 0;
}

/* shim/sunrpc/svc_bc.c's lookup: the waiting backward Call with @xid, or -ESRCH. */
extern "C" int rpcrdmax_svc_bc_reply(svc_xprt *xprt, unsigned int xid, const void *msg,
				     unsigned int len, unsigned int slots) noexcept
{
	auto &bc = FakeSvcXprt::of(xprt)->bc;
	rpcrdmax::ktl::SpinLockBhGuard g(&bc.lock);

	if (!bc.waiting || bc.xid != xid)
		return -rpcrdmax::ktl::err::ESRCH;
	if (len > sizeof(bc.msg))
		return -rpcrdmax::ktl::err::EMSGSIZE;
	rpcrdmax::ktl::mem_copy(bc.msg, msg, len);
	bc.len = len;
	bc.slots = slots;
	bc.waiting = false;
	return 0;
}

namespace rpcrdmax::kunit_svcsrv {

using kunit_marshal::fill_call;
using kunit_marshal::fill_reply;

/* ---- a server, a client, one connection ------------------------------ */

struct Pair {
	Bench b;		/* the client: b.r (the fake responder) stays null */
	/* the listener's svc_xprt (on the heap: its work item may not live
	 * on the stack, DEBUG_OBJECTS_WORK says) */
	FakeSvcXprt *lx = nullptr;
	FakeSvcXprt *sx = nullptr; /* the connection's */
	svc_rqst *rqstp = nullptr;	/* nfsd's svc_rqst */
	Stats stats;
	u8 *buf = nullptr;	/* scratch */
	u8 *reply = nullptr;	/* the Reply nfsd sends */

	SvcConn *conn() const { return static_cast<SvcConn *>(sx->svcc); }
};

static constexpr u32 kBuf = 4 * RPCRDMAX_PAGE_SIZE;

static bool pair_up(Reporter check, Pair *p)
{
	SockAddr addr;

	if (!EXPECT(rpcrdmax_kunit_svc_stats_on() == 0))
		return false;
	p->rqstp = rpcrdmax_kunit_svc_rqst_new(kRqstPages);
	p->buf = new (Gfp::Kernel) u8[kBuf];
	p->reply = new (Gfp::Kernel) u8[kBuf];
	p->lx = new (Gfp::Kernel) FakeSvcXprt;
	if (!EXPECT(p->rqstp && p->buf && p->reply && p->lx) ||
	    !EXPECT(addr.parse(kAddr, kPort).is_ok()) ||
	    !EXPECT(rpcrdmax_svcl_create(p->lx->xprt(), addr.get(), sizeof(addr.raw.bytes),
					 &p->lx->svcl) == 0))
		return false;
	Bench *b = &p->b;
	b->x = new (Gfp::Kernel) kunit_marshal::FakeXprt;
	b->sent = new (Gfp::Kernel) u8[kBuf];
	b->got = new (Gfp::Kernel) u8[kBuf];
	b->kx = b->x ? rpcrdmax_kunit_xprt_new(b->x, xprtrdma::kBcSlots, b->x->slots) : nullptr;
	if (!EXPECT(b->x && b->sent && b->got && b->kx))
		return false;
	b->ep = static_cast<xprtrdma::ClntEp *>(rpcrdmax_clnt_create(b->kx));
	if (!EXPECT(b->ep != nullptr))
		return false;
	rpcrdmax_kunit_xprt_set_ep(b->kx, b->ep);
	if (!EXPECT(b->ep->connect(addr.get(), sizeof(addr.raw.bytes)) == 0) ||
	    !EXPECT(p->lx->accept_done.wait_ms(kWaitMs)))
		return false;
	p->sx = p->lx->accepted;
	return EXPECT(p->sx != nullptr);
}

static void pair_down(Pair *p)
{
	kunit_marshal::bench_down(&p->b); /* the client goes first */
	if (p->sx) {
		rpcrdmax_svcc_detach(p->sx->svcc);
		rpcrdmax_svcc_destroy(p->sx->svcc);
		delete p->sx;
	}
	if (p->lx && p->lx->svcl) {
		p->lx->accept_work.cancel_sync();
		rpcrdmax_svcl_destroy(p->lx->svcl);
	}
	delete p->lx;
	if (p->rqstp)
		rpcrdmax_kunit_svc_rqst_free(p->rqstp);
	delete[] p->buf;
	delete[] p->reply;
	rpcrdmax_kunit_svc_stats_off();
}

/*
 * nfsd's part of svc_recv: wait for a message, dequeue it and process it
 * into the svc_rqst.  Returns what processing returns (the Call's length,
 * 0 for a message that is not a Call for nfsd), or -1 with nothing.
 */
static int svc_recv(Reporter check, Pair *p, rpcrdmax_svc_ctxt **ctxt)
{
	*ctxt = nullptr;
	if (!EXPECT(p->sx->ready.wait_ms(kWaitMs)) ||
	    !EXPECT(rpcrdmax_kunit_svc_rqst_reset(p->rqstp) == 0))
		return -1;
	return rpcrdmax_svcc_recvfrom(p->sx->svcc, p->rqstp, ctxt);
}

/* The Reply nfsd leaves in rq_res: head, page list and tail octets, and
 * the DDP-eligible result it marks (svc_encode_result_payload), if any. */
struct ReplyShape {
	u32 head, pages, tail;
	u32 pay_off = 0, pay_len = 0;
	u32 len() const { return head + pages + tail; }
};

/*
 * One forward RPC, end to end: the client sends b.snd's layout, nfsd
 * gets exactly that in rq_arg, and answers with @rpc laid out as @rs;
 * the client's status and buffer are left in b for the case to check.
 */
static bool serve(Reporter check, Pair *p, u32 xid, const u8 *rpc, ReplyShape rs,
		  rpcrdmax_svc_ctxt **keep = nullptr)
{
	Bench *b = &p->b;
	rpcrdmax_svc_ctxt *ctxt;

	if (!kunit_marshal::bench_send(check, b, xid))
		return false;
	int len = svc_recv(check, p, &ctxt);
	if (!EXPECT(len == (int)b->snd_len()) || !EXPECT(ctxt != nullptr))
		return false;
	/* The Reply's pages: all of rq_pages for a Call read in place, else
	 * those after the Call's; its head page in use. */
	unsigned int used, first = rpcrdmax_kunit_svc_rqst_res_pages(p->rqstp, &used);
	const u32 call_pages = max<u32>(((u32)len + RPCRDMAX_PAGE_SIZE - 1) / RPCRDMAX_PAGE_SIZE, 1);
	EXPECT(used == 1 && (first == 0 || first == call_pages));
	bool ok = EXPECT(rpcrdmax_kunit_svc_rqst_arg(p->rqstp, p->buf, kBuf) == len) &&
		  EXPECT(mem_compare(p->buf, b->sent, (size_t)len) == 0);
	ok = ok && EXPECT(rpcrdmax_kunit_svc_rqst_reply(p->rqstp, rpc, rs.head, rs.pages,
							rs.tail) == 0);
	if (ok && rs.pay_len)
		ok = EXPECT(rpcrdmax_svcc_result_payload(p->sx->svcc, ctxt, rs.pay_off,
							 rs.pay_len) == 0);
	ok = ok && EXPECT(rpcrdmax_svcc_sendto(p->sx->svcc, p->rqstp, ctxt) == 0);
	if (keep)
		*keep = ctxt; /* released by the caller: nfsd is slow to */
	else
		rpcrdmax_svcc_release(p->sx->svcc, ctxt);
	return ok && kunit_marshal::bench_done(check, b);
}

/* serve() with a Reply of @rs (a pattern) that must arrive as sent, octet
 * for octet from the start of the client's receive buffer. */
static bool forward_rpc(Reporter check, Pair *p, u32 xid, ReplyShape rs = { 96, 0, 0 })
{
	Bench *b = &p->b;
	u8 *rpc = p->reply;

	if (!EXPECT(rs.len() <= kBuf))
		return false;
	fill_reply(rpc, rs.len(), xid, 43);
	return serve(check, p, xid, rpc, rs) && EXPECT(b->status == (int)rs.len()) &&
	       EXPECT(mem_compare(b->got, rpc, rs.len()) == 0);
}

/* Ready the client for another request (bench_send makes one per Bench). */
static void bench_again(Bench *b)
{
	bench_release(b);
	b->call = b->rcvbuf = b->rqst = nullptr;
	b->x->completions.add_return(-1);
}

/* A struct rpc_rqst whose rq_snd_buf holds @len octets of @msg (a backward Call). */
struct BcRqst {
	u8 *call = nullptr, *rcv = nullptr;
	rpc_rqst *rqst = nullptr;

	bool make(Reporter check, u32 xid, const u8 *msg, u32 len)
	{
		rpcrdmax_kunit_xdr snd = { len, 0, 0, 0, false }, rcvx = { 256, 0, 0, 0, false };
		call = new (Gfp::Kernel) u8[len];
		rcv = new (Gfp::Kernel) u8[256];
		if (!EXPECT(call && rcv))
			return false;
		rqst = rpcrdmax_kunit_rqst_new(xid, call, rcv, &snd, &rcvx);
		return EXPECT(rqst != nullptr) &&
		       EXPECT(rpcrdmax_kunit_rqst_write(rqst, false, 0, msg, len) == 0);
	}
	~BcRqst()
	{
		if (rqst)
			rpcrdmax_kunit_rqst_free(rqst);
		delete[] call;
		delete[] rcv;
	}
};

/* ---- cases ----------------------------------------------------------- */

static void inline_case(Reporter check)
{
	Pair p;

	p.b.snd = { 300, 0, 0, 0, false };
	p.b.rcv = { 512, 0, 0, 0, false };
	if (pair_up(check, &p)) {
		EXPECT(forward_rpc(check, &p, 0x33330001));
		/* Its one message taken, XPT_DATA is clear: svc calls no
		 * thread back to find nothing. */
		EXPECT(!p.sx->data());
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_RECV] == 1);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_DROPPED] == 0);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_READ] == 0);
		/* A Reply with a tail and no page list: head and tail copied
		 * from where rq_res has them (not next to each other). */
		bench_again(&p.b);
		EXPECT(forward_rpc(check, &p, 0x33330007, { 200, 0, 52 }));
	}
	pair_down(&p);
}

/*
 * Replies with a page list that fit inline, to Calls that offered no
 * Write list (a short READ's, a READLINK's): a Short message whose page
 * list a long piece sends from its page (an SGE of its own between the
 * head's and the tail's, rdma_stat_page_sges) and a short one copies
 * (rdma_stat_pull_up); then the same to a Call that offered a Reply
 * chunk, which goes unused (RFC 8166 Section 4.3.3).
 */
static void inline_pages_case(Reporter check)
{
	Pair p;

	p.b.snd = { 300, 0, 0, 0, false };
	p.b.rcv = { 3600, 0, 0, 0, false };
	if (pair_up(check, &p)) {
		const long long sges = p.stats[RPCRDMAX_SVC_STAT_PAGE_SGES];
		const long long pulled = p.stats[RPCRDMAX_SVC_STAT_PULL_UP];
		EXPECT(forward_rpc(check, &p, 0x33330021, { 200, 3000, 60 }));
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_PAGE_SGES] == sges + 1);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_PULL_UP] == pulled);
		bench_again(&p.b);
		EXPECT(forward_rpc(check, &p, 0x33330022, { 200, 100, 60 }));
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_PAGE_SGES] == sges + 1);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_PULL_UP] == pulled + 100);
		const int chunks = p.b.ep->stats.read(ClntStat::ReplyChunks);
		const long long writes = p.stats[RPCRDMAX_SVC_STAT_WRITE];
		bench_again(&p.b);
		p.b.rcv = { 5000, 0, 0, 0, false };
		EXPECT(forward_rpc(check, &p, 0x33330023, { 300, 2000, 40 }));
		EXPECT(p.b.ep->stats.read(ClntStat::ReplyChunks) == chunks + 1);
		EXPECT(p.b.ep->stats.read(ClntStat::ReplyBytes) == 0);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_WRITE] == writes);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_PAGE_SGES] == sges + 2);
	}
	pair_down(&p);
}

static void read_chunk_case(Reporter check)
{
	Pair p;

	/* 8190 octets from page offset 100, DDP-eligible: a Read chunk. */
	p.b.snd = { 124, 100, 8190, 2 + 8, true };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (pair_up(check, &p)) {
		EXPECT(forward_rpc(check, &p, 0x33330002));
		EXPECT(p.b.ep->stats.read(ClntStat::ReadChunks) >= 1);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_READ] == p.b.ep->stats.read(ClntStat::ReadChunks));
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_ERR_CHUNK] == 0);
	}
	pair_down(&p);
}

/* A 6000-octet Call over the 4 KiB inline threshold, no DDP item: RDMA_NOMSG
 * with a Position Zero Read chunk, pulled into rq_pages whole. */
static void nomsg_case(Reporter check)
{
	Pair p;

	p.b.snd = { 600, 0, 4000, 1400, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (pair_up(check, &p)) {
		EXPECT(forward_rpc(check, &p, 0x33330005));
		EXPECT(p.b.ep->stats.read(ClntStat::NomsgCalls) == 1);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_READ] >= 1);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_ERR_CHUNK] == 0);
	}
	pair_down(&p);
}

/* A 6100-octet Reply over the inline threshold, into the Reply chunk the
 * client offered for its 8600 octets of non-DDP room.  Then a Reply with
 * no page list that fits inline, to a Call that offered a Reply chunk
 * for its 5000-octet head (an NFSv4 GETATTR on recent kernels): a Short
 * message (RFC 8166 Section 4.3.3), nothing RDMA Written, the chunk's MR
 * invalidated by the server's Send. */
static void reply_chunk_case(Reporter check)
{
	Pair p;

	p.b.snd = { 100, 0, 0, 0, false };
	p.b.rcv = { 400, 0, 8000, 200, false };
	if (pair_up(check, &p)) {
		EXPECT(forward_rpc(check, &p, 0x33330006, { 2000, 4000, 100 }));
		EXPECT(p.b.ep->stats.read(ClntStat::ReplyChunks) >= 1);
		EXPECT(p.b.ep->stats.read(ClntStat::ReplyBytes) == 6100);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_WRITE] >= 1);
		const long long writes = p.stats[RPCRDMAX_SVC_STAT_WRITE];
		const int chunks = p.b.ep->stats.read(ClntStat::ReplyChunks);
		const int local_inv = p.b.ep->stats.read(ClntStat::LocalInvNeeded);
		bench_again(&p.b);
		p.b.rcv = { 5000, 0, 0, 0, false };
		EXPECT(forward_rpc(check, &p, 0x33330016, { 300, 0, 40 }));
		EXPECT(p.b.ep->stats.read(ClntStat::ReplyChunks) == chunks + 1);
		EXPECT(p.b.ep->stats.read(ClntStat::ReplyBytes) == 6100);
		EXPECT(p.b.ep->stats.read(ClntStat::LocalInvNeeded) == local_inv);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_WRITE] == writes);
	}
	pair_down(&p);
}

/*
 * serve() a READ-style Reply of @rs (a pattern with @seed) whose marked
 * result is zero-padded to its XDR round-up: the client must see the
 * octets up to the result's end in place, the pad and everything after it
 * in its tail, and the result alone counted as RDMA-Written.
 */
static bool serve_read(Reporter check, Pair *p, u32 xid, u32 seed, ReplyShape rs)
{
	u8 *rpc = p->reply;
	const u32 end = rs.pay_off + rs.pay_len, after = rs.len() - end;

	fill_reply(rpc, rs.len(), xid, seed);
	mem_set(rpc + end, 0, xdr_pad(rs.pay_len));
	if (!serve(check, p, xid, rpc, rs))
		return false;
	const u8 *got = p->b.got, *tail = got + p->b.rcv.head_len + p->b.rcv.page_len;
	return EXPECT(p->b.status == (int)rs.len()) && EXPECT(mem_compare(got, rpc, end) == 0) &&
	       EXPECT(mem_compare(tail, rpc + end, after) == 0) &&
	       EXPECT(p->b.ep->stats.read(ClntStat::ReplyBytes) == rs.pay_len);
}

/*
 * A READ-style Reply: 5001 octets of page data go by RDMA Write into the
 * Write chunk the client offered; head, and the tail with the data's
 * 3-octet XDR pad, inline.  The client sees the head, the data in its
 * pages, the pad and the rest in its tail.
 */
static void write_chunk_case(Reporter check)
{
	Pair p;
	constexpr u32 kLen = 5001, kPad = 3;

	p.b.snd = { 120, 0, 0, 0, false };
	p.b.rcv = { 120, 512, 8192, 16, true };
	if (pair_up(check, &p) &&
	    serve_read(check, &p, 0x33330007, 53, { 120, kLen, kPad + 8, 120, kLen })) {
		EXPECT(p.b.ep->stats.read(ClntStat::WriteChunks) == 1);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_WRITE] >= 1);
	}
	pair_down(&p);
}

/*
 * NFSv4 READ by readv: the data, its pad and the results of the
 * operations after it share the page list.  Only the data (the result
 * nfsd marked) goes into the Write chunk; the octets after it arrive
 * inline, in the client's tail after the pad.
 */
static void readv_case(Reporter check)
{
	Pair p;
	constexpr u32 kLen = 5001, kPad = 3, kRest = 600;

	p.b.snd = { 120, 0, 0, 0, false };
	p.b.rcv = { 120, 512, 8192, 1024, true };
	if (pair_up(check, &p))
		EXPECT(serve_read(check, &p, 0x33330008, 57, { 120, kLen + kPad + kRest, 0, 120, kLen }));
	pair_down(&p);
}

/* What one Reply did: the counters it moved and, while watched, the
 * work its events recorded. */
struct ReplyWork {
	long long sends, writes, page_sges, pulled;
	struct rpcrdmax_kunit_svc_work ev;
};

/*
 * serve() a READ-like Reply of @rs under @watch (0: no event probed; 1:
 * the three that record the work; 2: every server event of a Call and
 * its Reply), check that the client got it octet for octet, and note
 * what it did in @w.  @first: the pair's first RPC (later ones ready the
 * client again first).
 */
static bool traced_reply(Reporter check, Pair *p, u32 xid, ReplyShape rs, int watch, ReplyWork *w,
			 bool first)
{
	const u32 end = rs.pay_off + rs.pay_len, after = rs.len() - end;
	const long long sends = p->stats[RPCRDMAX_SVC_STAT_SQ_PROD];
	const long long writes = p->stats[RPCRDMAX_SVC_STAT_WRITE];
	const long long sges = p->stats[RPCRDMAX_SVC_STAT_PAGE_SGES];
	const long long pulled = p->stats[RPCRDMAX_SVC_STAT_PULL_UP];

	if (!first)
		bench_again(&p->b);
	fill_reply(p->reply, rs.len(), xid, 61);
	mem_set(p->reply + end, 0, xdr_pad(rs.pay_len));
	if (watch && !EXPECT(rpcrdmax_kunit_watch_svc_work(true, watch == 2) == 0))
		return false;
	bool ok = serve(check, p, xid, p->reply, rs);
	rpcrdmax_kunit_svc_work(&w->ev);
	if (watch)
		rpcrdmax_kunit_watch_svc_work(false, false);
	const u8 *got = p->b.got, *tail = got + p->b.rcv.head_len + p->b.rcv.page_len;
	w->sends = p->stats[RPCRDMAX_SVC_STAT_SQ_PROD] - sends;
	w->writes = p->stats[RPCRDMAX_SVC_STAT_WRITE] - writes;
	w->page_sges = p->stats[RPCRDMAX_SVC_STAT_PAGE_SGES] - sges;
	w->pulled = p->stats[RPCRDMAX_SVC_STAT_PULL_UP] - pulled;
	if (!rs.pay_len) /* all of it in the head */
		return ok && EXPECT(p->b.status == (int)rs.len()) &&
		       EXPECT(mem_compare(got, p->reply, rs.len()) == 0);
	return ok && EXPECT(p->b.status == (int)rs.len()) &&
	       EXPECT(mem_compare(got, p->reply, end) == 0) &&
	       EXPECT(mem_compare(tail, p->reply + end, after) == 0);
}

/*
 * Tracing observes and never selects: each Reply shape (a READ's, its
 * data the Write chunk's one segment; a readv READ's, more after the
 * data; one that leaves the offered chunk unused) is served three times:
 * no event probed, then the three that record the work, then every event
 * the server fires for a Call and its Reply.  All three post the same
 * Sends, RDMA Writes, page SGEs and pulled-up octets; both watched runs
 * the same Send SGEs and chunk Send Queue entries; and svcrdma_encode_wseg
 * shows each returned Write segment with its octets.
 */
static void trace_observes_case(Reporter check)
{
	Pair p;
	constexpr u32 kLen = 5001, kPad = 3;
	static const ReplyShape shapes[] = {
		{ 120, kLen, kPad + 8, 120, kLen },
		{ 120, kLen + kPad + 600, 0, 120, kLen },
		{ 96, 0, 0, 0, 0 },
	};
	const u32 xid0 = 0x333300c0;
	u32 xid = xid0;

	p.b.snd = { 120, 0, 0, 0, false };
	p.b.rcv = { 120, 512, 8192, 1024, true };
	if (!pair_up(check, &p)) {
		pair_down(&p);
		return;
	}
	for (const ReplyShape &rs : shapes) {
		ReplyWork w[3];
		bool ok = true;

		for (int watch = 0; watch < 3 && ok; watch++) {
			ok = traced_reply(check, &p, xid, rs, watch, &w[watch], xid == xid0);
			xid++;
		}
		if (!ok)
			break;
		for (int watch = 1; watch < 3; watch++) {
			EXPECT(w[watch].sends == w[0].sends && w[watch].writes == w[0].writes);
			EXPECT(w[watch].page_sges == w[0].page_sges && w[watch].pulled == w[0].pulled);
		}
		EXPECT(w[0].sends == 1 && w[0].writes == (rs.pay_len ? 1 : 0));
		EXPECT(w[1].ev.sends == 1 && w[2].ev.sends == 1);
		EXPECT(w[1].ev.send_sges == w[2].ev.send_sges);
		EXPECT(w[1].ev.chunk_posts == w[2].ev.chunk_posts);
		EXPECT(w[1].ev.chunk_sqes == w[2].ev.chunk_sqes);
		EXPECT(w[1].ev.wsegs == 0);
		EXPECT(w[2].ev.wsegs == 1 && w[2].ev.wseg_octets == rs.pay_len);
	}
	pair_down(&p);
}

/*
 * A result longer than the Write chunk meant for it: -E2BIG to nfsd (as
 * stock answers), and the Reply nfsd then sends goes inline with the
 * chunk echoed empty.
 */
static void payload_too_big_case(Reporter check)
{
	Pair p;
	rpcrdmax_svc_ctxt *ctxt;
	constexpr ReplyShape rs = { 200, 0, 0 };
	bool watched = false;
	unsigned int remaining, nsegs;

	p.b.snd = { 120, 0, 0, 0, false };
	p.b.rcv = { 200, 0, 4096, 16, true };
	if (pair_up(check, &p) && EXPECT(kunit_marshal::bench_send(check, &p.b, 0x33330009))) {
		int len = svc_recv(check, &p, &ctxt);
		if (EXPECT(len > 0) && EXPECT(ctxt != nullptr)) {
			fill_reply(p.reply, rs.len(), 0x33330009, 59);
			EXPECT(rpcrdmax_kunit_svc_rqst_reply(p.rqstp, p.reply, rs.head, 0, 0) == 0);
			watched = EXPECT(rpcrdmax_kunit_watch_small_wrch(true) == 0);
			EXPECT(rpcrdmax_svcc_result_payload(p.sx->svcc, ctxt, 200, 4097) ==
			       -err::E2BIG);
			/* one octet past the 4096-octet chunk, all its segments used */
			EXPECT(rpcrdmax_kunit_small_wrch(&remaining, &nsegs) == 1);
			EXPECT(remaining == 1 && nsegs >= 1);
			EXPECT(rpcrdmax_svcc_sendto(p.sx->svcc, p.rqstp, ctxt) == 0);
			rpcrdmax_svcc_release(p.sx->svcc, ctxt);
			if (EXPECT(kunit_marshal::bench_done(check, &p.b))) {
				EXPECT(p.b.status == (int)rs.len());
				EXPECT(mem_compare(p.b.got, p.reply, rs.len()) == 0);
				EXPECT(p.b.ep->stats.read(ClntStat::ReplyBytes) == 0);
			}
		}
	}
	if (watched)
		rpcrdmax_kunit_watch_small_wrch(false);
	pair_down(&p);
}

/* @n more forward RPCs after the one with @xid, XIDs @xid + 1 on; false
 * at the first that fails. */
static bool more_rpcs(Reporter check, Pair *p, u32 xid, u32 n)
{
	for (u32 i = 1; i <= n; i++) {
		bench_again(&p->b);
		if (!EXPECT(forward_rpc(check, p, xid + i)))
			return false;
	}
	return true;
}

/*
 * The client's Send buffers are a ring (2 x its 32 slots): three times
 * round it on one connection, each buffer freed by a later signaled
 * Send's completion, none ever missing (empty_sendctx).
 */
static void send_ring_case(Reporter check)
{
	Pair p;
	constexpr u32 kRpcs = 3 * xprtrdma::send_bufs(32) + 3;

	p.b.snd = { 200, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (pair_up(check, &p) && EXPECT(forward_rpc(check, &p, 0x33330070)) &&
	    EXPECT(p.b.slots == 32)) {
		EXPECT(more_rpcs(check, &p, 0x33330070, kRpcs));
		EXPECT(p.b.ep->stats.read(ClntStat::EmptySendctx) == 0);
	}
	pair_down(&p);
}

/* Contexts are reused: after the first RPC, five more allocate none. */
static void reuse_case(Reporter check)
{
	Pair p;

	p.b.snd = { 200, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (pair_up(check, &p) && EXPECT(forward_rpc(check, &p, 0x33330010))) {
		long long made = p.stats[RPCRDMAX_SVC_STAT_CTXT_ALLOC];
		EXPECT(more_rpcs(check, &p, 0x33330010, 5));
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_CTXT_ALLOC] == made);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_RECV] == 6);
	}
	pair_down(&p);
}

/*
 * What a connection makes before its first Call: a Receive buffer per
 * credit, backward slot and batch place (posted), kPoolCalls receive
 * and kPoolSends send contexts; no spare Receive buffer until a Call is
 * read in place, then one (Documentation/svcrdma.rst, "Memory").
 */
static void setup_case(Reporter check)
{
	Pair p;
	const u32 credits = svcrdma::conn_limits().credits;
	const long long posted = credits + svcrdma::kBcSlots + svcrdma::kRecvBatch - 1;

	p.b.snd = { 200, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (pair_up(check, &p)) {
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_CTXT_ALLOC] ==
		       posted + min(credits, svcrdma::kPoolCalls) + min(credits, svcrdma::kPoolSends));
		long long made = p.stats[RPCRDMAX_SVC_STAT_CTXT_ALLOC];
		if (EXPECT(forward_rpc(check, &p, 0x33330018))) {
			EXPECT(!rpcrdmax_kunit_svc_rqst_arg_in_pages(p.rqstp));
			EXPECT(p.stats[RPCRDMAX_SVC_STAT_CTXT_ALLOC] == made + 1);
		}
	}
	pair_down(&p);
}

/*
 * A connection freed (svc's xpo_free): its QP, CQs and PD go before its
 * CM ID, which rdma_cm's removal of the device waits for
 * (kunit_marshal::expect_id_last).
 */
static void teardown_order_case(Reporter check)
{
	Pair p;

	if (pair_up(check, &p) && EXPECT(rpcrdmax_kunit_watch_frees() == 0)) {
		rpcrdmax_svcc_detach(p.sx->svcc);
		rpcrdmax_svcc_destroy(p.sx->svcc);
		delete p.sx;
		p.sx = nullptr;
		kunit_marshal::expect_id_last(check, false);
	}
	pair_down(&p);
}

/* An nfsd thread's wait for Send Queue room (SvcConn::sq_reserve, as
 * sendto makes it), from a work item: the test itself never sleeps in
 * it. */
struct SqWaiter {
	SqWaiter() : work(&SqWaiter::run) {}
	static void run(FnWork *w)
	{
		SqWaiter *t = container_of(w, &SqWaiter::work);
		auto r = t->conn->sq_reserve(1);

		t->result = r.is_ok() ? 0 : r.error().code();
		t->done.complete();
	}
	FnWork work;
	SvcConn *conn = nullptr;
	int result = 1; /* 1: still waiting */
	Completion done;
};

/*
 * svc marks a connection closing (XPT_CLOSE, set without telling the
 * transport) while a thread waits for Send Queue room that nothing will
 * return: the waiter gives up with -ENOTCONN when it next wakes (its
 * wait wakes each 10 s).  Once svc detaches the connection, a thread
 * that comes later does not wait at all.
 */
static void sq_close_case(Reporter check)
{
	Pair p;
	auto *t = new (Gfp::Kernel) SqWaiter[2];
	int held = 0;

	if (EXPECT(t) && pair_up(check, &p)) {
		SvcConn *c = p.conn();
		held = c->sq_free();
		if (EXPECT(held > 0 && c->sq_reserve((u32)held).is_ok())) {
			t[0].conn = c;
			EXPECT(t[0].work.queue());
			EXPECT(!t[0].done.wait_ms(200)); /* no room: it waits */
			p.sx->closes.add_return(1);
			EXPECT(t[0].done.wait_ms(2 * kWaitMs));
			EXPECT(t[0].result == -err::ENOTCONN);
			rpcrdmax_svcc_detach(p.sx->svcc);
			t[1].conn = c;
			EXPECT(t[1].work.queue() && t[1].done.wait_ms(kWaitMs));
			EXPECT(t[1].result == -err::ENOTCONN);
		} else {
			held = 0;
		}
	}
	/* Whatever happened, no waiter outlives the test. */
	if (held)
		p.conn()->sq_release((u32)held);
	if (t)
		for (int i = 0; i < 2; i++) {
			t[i].work.cancel_sync();
			if (t[i].result == 0)
				p.conn()->sq_release(1);
		}
	delete[] t;
	pair_down(&p);
}

/*
 * Receives go back in batches, one chained post each: after 2 x
 * kRecvBatch RPCs, two posts; the RPCs in between were served by the
 * Receives kept posted beyond the credits.
 */
static void recv_batch_case(Reporter check)
{
	Pair p;
	constexpr u32 kRpcs = 2 * svcrdma::kRecvBatch;

	p.b.snd = { 200, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (pair_up(check, &p) && EXPECT(forward_rpc(check, &p, 0x33330020))) {
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_RQ_PROD] == 0);
		EXPECT(more_rpcs(check, &p, 0x33330020, kRpcs - 1));
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_RECV] == kRpcs);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_RQ_PROD] == 2);
	}
	pair_down(&p);
}

/*
 * Sends are signaled one in kSendBatch: 2 x kSendBatch RPCs post as many
 * Sends and complete two (each retiring the unsignaled ones before it);
 * three more leave three unsignaled, which the teardown frees.
 */
static void send_batch_case(Reporter check)
{
	Pair p;
	constexpr u32 kRpcs = 2 * svcrdma::kSendBatch;

	p.b.snd = { 200, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (pair_up(check, &p) && EXPECT(forward_rpc(check, &p, 0x33330060))) {
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_SQ_POLL] == 0);
		EXPECT(more_rpcs(check, &p, 0x33330060, kRpcs + 2));
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_SQ_PROD] == kRpcs + 3);
		/* The client has its Reply before the server's CQ is polled:
		 * wait (bounded) for the second completion, then check that
		 * no third one comes. */
		for (u32 ms = 0; p.stats[RPCRDMAX_SVC_STAT_SQ_POLL] < 2 && ms < kWaitMs; ms += 10)
			rpcrdmax_msleep(10);
		rpcrdmax_msleep(100);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_SQ_POLL] == 2);
	}
	pair_down(&p);
}

/*
 * An inline Call is read where it was received (rq_arg outside rq_pages)
 * while a spare Receive buffer is posted in its place; with every spare
 * held by a Call nfsd has not released, the next Call is copied into
 * rq_pages (and still arrives whole); once released, Calls are read in
 * place again.  Every Call finds a Receive posted.
 */
static void in_place_case(Reporter check)
{
	Pair p;
	constexpr u32 kHeld = svcrdma::kSpareRecvs + 1;
	rpcrdmax_svc_ctxt *held[kHeld] = {};
	const ReplyShape rs = { 96, 0, 0 };
	u32 xid = 0x33330040, n = 0;

	p.b.snd = { 200, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (pair_up(check, &p)) {
		for (; n < kHeld; n++) {
			if (n)
				bench_again(&p.b);
			fill_reply(p.reply, rs.len(), xid, 43);
			if (!EXPECT(serve(check, &p, xid++, p.reply, rs, &held[n])))
				break;
			/* the last one finds no spare left */
			EXPECT(rpcrdmax_kunit_svc_rqst_arg_in_pages(p.rqstp) == (n + 1 == kHeld));
		}
		for (u32 i = 0; i < n; i++)
			rpcrdmax_svcc_release(p.sx->svcc, held[i]);
		if (EXPECT(n == kHeld)) {
			bench_again(&p.b);
			EXPECT(forward_rpc(check, &p, xid++));
			EXPECT(!rpcrdmax_kunit_svc_rqst_arg_in_pages(p.rqstp));
		}
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_RECV] == kHeld + 1);
	}
	pair_down(&p);
}

/* Send a backward Call @call of @len with @xid from the server; 0 or -errno. */
static int bc_send(Reporter check, Pair *p, BcRqst *r, u32 xid, const u8 *call, u32 len)
{
	if (!r->make(check, xid, call, len))
		return -err::ENOMEM;
	{
		SpinLockBhGuard g(&p->sx->bc.lock);
		p->sx->bc.waiting = true;
		p->sx->bc.xid = xid;
	}
	return rpcrdmax_svcc_bc_send(p->sx->svcc, r->rqst, xid, len);
}

static void bc_call_case(Reporter check)
{
	Pair p;
	BcRqst r;
	u8 call[200], got[256], rep[88];
	unsigned int got_xid = 0;
	rpcrdmax_svc_ctxt *ctxt;
	constexpr u32 kXid = 0x44440001;

	p.b.snd = { 100, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (pair_up(check, &p)) {
		fill_call(call, sizeof(call), kXid, 45);
		EXPECT(bc_send(check, &p, &r, kXid, call, sizeof(call)) == 0);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_BC_CALLS] == 1);
		/* The client's callback service gets the Call as sent. */
		rpc_rqst *rq = rpcrdmax_kunit_bc_wait(p.b.kx, kWaitMs);
		if (EXPECT(rq != nullptr)) {
			EXPECT(rpcrdmax_kunit_bc_call(rq, got, sizeof(got), &got_xid) ==
			       (int)sizeof(call));
			EXPECT(got_xid == kXid);
			EXPECT(mem_compare(got, call, sizeof(call)) == 0);
			fill_reply(rep, sizeof(rep), kXid, 47);
			EXPECT(rpcrdmax_kunit_bc_set_reply(rq, rep, sizeof(rep)) == 0);
			EXPECT(p.b.ep->bc_send(rq, kXid, sizeof(rep)) == 0);
			/* nfsd's thread sees it, but it is no Call for nfsd: no
			 * Reply pages either. */
			EXPECT(svc_recv(check, &p, &ctxt) == 0);
			EXPECT(ctxt == nullptr);
			unsigned int used = 1;
			EXPECT(rpcrdmax_kunit_svc_rqst_res_pages(p.rqstp, &used) == 0 && used == 0);
			rpcrdmax_kunit_bc_done(rq);
		}
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_BC_REPLIES] == 1);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_BC_DROPPED] == 0);
		EXPECT(!p.sx->bc.waiting);
		EXPECT(p.sx->bc.len == sizeof(rep));
		EXPECT(mem_compare(p.sx->bc.msg, rep, sizeof(rep)) == 0);
		/* The client's rdma_credit: the slots it takes at once. */
		EXPECT(p.sx->bc.slots == xprtrdma::kBcSlots);
		EXPECT(forward_rpc(check, &p, 0x33330003));
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_DROPPED] == 0);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_CREDIT_OVERRUN] == 0);
	}
	pair_down(&p);
}

static void bc_bad_case(Reporter check)
{
	Pair p;
	BcRqst big, stray;
	u8 rep[64];
	rpcrdmax_svc_ctxt *ctxt;
	constexpr u32 kXid = 0x44440002;

	p.b.snd = { 100, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (pair_up(check, &p)) {
		u32 max = p.conn()->bc_max_payload();
		fill_call(p.buf, max + 4, kXid, 49);
		EXPECT(bc_send(check, &p, &big, kXid, p.buf, max + 4) == -err::EMSGSIZE);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_BC_CALLS] == 0);
		/* A backward Reply to a Call never sent. */
		fill_reply(rep, sizeof(rep), kXid + 1, 51);
		if (stray.make(check, kXid + 1, rep, sizeof(rep))) {
			EXPECT(p.b.ep->bc_send(stray.rqst, kXid + 1, sizeof(rep)) == 0);
			EXPECT(svc_recv(check, &p, &ctxt) == 0);
		}
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_BC_DROPPED] == 1);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_BC_REPLIES] == 0);
		EXPECT(forward_rpc(check, &p, 0x33330004));
		EXPECT(p.sx->closes.read() == 0);
	}
	pair_down(&p);
}

/* A client that sends whatever it is told: an End connected to the
 * pair's listener, with private data, its svc_xprt the listener's next. */
struct RawClient {
	kunit_rdma::End end;
	kunit_rdma::WcWait sent;
	rdma::DmaBuf map;
	FakeSvcXprt *sx = nullptr;
	u8 msgs[4][160];
	/* write_chunks: a page registered for the server's Writes, a
	 * Receive for the Reply, the headers sent and received */
	rdma::Mr mr;
	kunit_rdma::WcWait reg, recv;
	::page *page = nullptr;
	u8 rbuf[4096];
	rdma::DmaBuf rmap;
	bool rmapped = false;
	core::V1Header call, reply;
};

/* Connect the raw client, with RFC 8797 private data (1 KiB each way,
 * remote invalidation) unless @no_pd. */
static bool raw_connect(Reporter check, Pair *p, RawClient *c, bool no_pd = false)
{
	SockAddr addr;
	u8 pd[core::kPdSize];
	auto enc = core::pd_encode({ 1024, 1024, true }, Bytes(pd, sizeof(pd)));

	if (!EXPECT(addr.parse(kAddr, kPort).is_ok()) || !EXPECT(enc.is_ok()) ||
	    !EXPECT(c->end.id.create(&c->end, rpcrdmax_kunit_init_net()).is_ok()) ||
	    !EXPECT(c->end.id.resolve_addr(addr, kWaitMs).is_ok()) ||
	    !EXPECT(c->end.resolved.wait_ms(kWaitMs)) || !EXPECT(c->end.setup_qp().is_ok()) ||
	    !EXPECT(c->end.id.connect(ConstBytes(pd, no_pd ? 0 : enc.value()), 4, 6).is_ok()) ||
	    !EXPECT(p->lx->accept_done.wait_ms(kWaitMs)) ||
	    !EXPECT(c->end.established.wait_ms(kWaitMs)))
		return false;
	c->sx = p->lx->accepted;
	return EXPECT(c->sx != nullptr) &&
	       EXPECT(c->map.map(c->end.id.device(), c->msgs, sizeof(c->msgs),
				 RPCRDMAX_DMA_TO_DEVICE).is_ok());
}

/* Send c->msgs[0..@n), each an RDMA_MSG Call of @len octets with XID
 * @xid + i, the last Send signaled. */
static bool raw_send_calls(Reporter check, RawClient *c, u32 n, u32 len, u32 xid)
{
	const rpcrdmax_sge all = c->map.sge(c->end.pd.local_dma_lkey());
	rpcrdmax_sge sges[4];
	WrSpec wrs[4] = {};
	unsigned int bad;

	for (u32 i = 0; i < n; i++) {
		u8 *m = c->msgs[i];
		const u32 hdr[7] = { xid + i, 1, 32, (u32)core::V1Proc::Msg, 0, 0, 0 };
		for (u32 w = 0; w < 7; w++)
			store_be32(m + 4 * w, hdr[w]);
		fill_call(m + 28, len - 28, xid + i, 60 + i);
		sges[i] = { all.addr + i * sizeof(c->msgs[0]), len, all.lkey };
		wrs[i].opcode = RPCRDMAX_WR_SEND;
		wrs[i].sge = &sges[i];
		wrs[i].num_sge = 1;
	}
	wrs[n - 1].cqe = c->sent.cqe.raw();
	c->map.sync_for_device();
	return EXPECT(c->end.id.post_send(wrs, n, &bad).is_ok()) &&
	       EXPECT(c->sent.completion.wait_ms(kWaitMs)) &&
	       EXPECT(c->sent.wc.status == RPCRDMAX_IB_WC_SUCCESS);
}

/* Post a Receive for the server's next message, into c->rbuf (mapped at
 * the first). */
static bool raw_post_recv(Reporter check, RawClient *c)
{
	if (!c->rmapped) {
		if (!EXPECT(c->rmap.map(c->end.id.device(), c->rbuf, sizeof(c->rbuf),
					RPCRDMAX_DMA_FROM_DEVICE).is_ok()))
			return false;
		c->rmapped = true;
	}
	rpcrdmax_sge sge = c->rmap.sge(c->end.pd.local_dma_lkey());
	return EXPECT(c->end.id.post_recv(&c->recv.cqe, sge).is_ok());
}

/* Send the first @len octets of c->msgs[0], signaled, and wait for it. */
static bool raw_send(Reporter check, RawClient *c, u32 len)
{
	rpcrdmax_sge sge = c->map.sge(c->end.pd.local_dma_lkey());
	WrSpec wr = {};
	unsigned int bad;

	sge.length = len;
	wr.cqe = c->sent.cqe.raw();
	wr.opcode = RPCRDMAX_WR_SEND;
	wr.sge = &sge;
	wr.num_sge = 1;
	c->map.sync_for_device();
	return EXPECT(c->end.id.post_send(&wr, 1, &bad).is_ok()) &&
	       EXPECT(c->sent.completion.wait_ms(kWaitMs));
}

/* nfsd takes the raw client's next message: recvfrom's result (the
 * Call's length; 0 when it was no Call to serve). */
static int raw_take(Reporter check, Pair *p, RawClient *c, rpcrdmax_svc_ctxt **ctxt)
{
	if (!EXPECT(c->sx->ready.wait_ms(kWaitMs)) ||
	    !EXPECT(rpcrdmax_kunit_svc_rqst_reset(p->rqstp) == 0))
		return -1;
	return rpcrdmax_svcc_recvfrom(c->sx->svcc, p->rqstp, ctxt);
}

/* The octets of the server's next message to the raw client, in c->rbuf;
 * 0 when none came. */
static u32 raw_received(Reporter check, RawClient *c)
{
	if (!EXPECT(c->recv.completion.wait_ms(kWaitMs)) ||
	    !EXPECT(c->recv.wc.status == RPCRDMAX_IB_WC_SUCCESS))
		return 0;
	c->rmap.sync_for_cpu();
	return c->recv.wc.byte_len;
}

/* Register a zeroed page on the raw client for the server to write, and
 * post a Receive for the Reply unless @no_recv. */
static bool raw_ready_reply(Reporter check, RawClient *c, bool no_recv = false)
{
	ib_device *dev = c->end.id.device();
	unsigned int bad;

	c->page = rpcrdmax_alloc_page(RPCRDMAX_GFP_KERNEL | RPCRDMAX_GFP_ZERO);
	if (!EXPECT(c->page != nullptr))
		return false;
	rpcrdmax_page_seg seg = { c->page, 0, RPCRDMAX_PAGE_SIZE };
	if (!EXPECT(c->mr.alloc(c->end.pd.get(), dev, 1).is_ok()) ||
	    !EXPECT(c->mr.map(Span<const rpcrdmax_page_seg>(&seg, 1),
			      RPCRDMAX_DMA_FROM_DEVICE).is_ok()))
		return false;
	c->mr.bump_key();
	WrSpec wr = c->mr.reg_wr(c->reg.cqe.raw(), RPCRDMAX_ACCESS_LOCAL_WRITE |
								   RPCRDMAX_ACCESS_REMOTE_WRITE);
	return EXPECT(c->end.id.post_send(&wr, 1, &bad).is_ok()) &&
	       EXPECT(c->reg.completion.wait_ms(kWaitMs)) &&
	       EXPECT(c->reg.wc.status == RPCRDMAX_IB_WC_SUCCESS) &&
	       (no_recv || raw_post_recv(check, c));
}

/* nfsd's part in a raw client's Call that raw_take took (when @ok): a
 * Reply of @rlen octets (fill_reply's pattern of @xid and @seed) sent,
 * and the context released.  The octets the raw client received, 0 on
 * failure. */
static u32 raw_answer(Reporter check, Pair *p, RawClient *c, rpcrdmax_svc_ctxt *ctxt, bool ok,
		      u32 xid, u32 rlen, u32 seed)
{
	if (ok) {
		fill_reply(p->reply, rlen, xid, seed);
		ok = EXPECT(rpcrdmax_kunit_svc_rqst_reply(p->rqstp, p->reply, rlen, 0, 0) == 0) &&
		     EXPECT(rpcrdmax_svcc_sendto(c->sx->svcc, p->rqstp, ctxt) == 0);
	}
	if (ctxt)
		rpcrdmax_svcc_release(c->sx->svcc, ctxt);
	return ok ? raw_received(check, c) : 0;
}

static void raw_down(RawClient *c)
{
	/* The server's end disconnects too, as svc's close would on the
	 * DREQ: without its DREP the client's disconnect ends only when
	 * the wait below gives up (10 s a case). */
	if (c->end.id.qp()) {
		(void)c->end.id.disconnect();
		if (c->sx)
			rpcrdmax_svcc_detach(c->sx->svcc);
		(void)c->end.disconnected.wait_ms(kWaitMs);
		c->end.id.drain();
	}
	c->map.unmap();
	c->rmap.unmap();
	c->mr.unmap();
	if (c->page)
		rpcrdmax_free_page(c->page);
	if (c->sx) {
		rpcrdmax_svcc_detach(c->sx->svcc); /* again: a no-op */
		rpcrdmax_svcc_destroy(c->sx->svcc);
		delete c->sx;
	}
}

/* A raw-client case's end: nfsd's context @ctxt given back, the client
 * and the pair down. */
static void raw_end(Pair *p, RawClient *c, rpcrdmax_svc_ctxt *ctxt)
{
	if (ctxt)
		rpcrdmax_svcc_release(c->sx->svcc, ctxt);
	if (c)
		raw_down(c);
	delete c;
	pair_down(p);
}

static void credit_overrun_case(Reporter check)
{
	Pair p;
	auto *c = new (Gfp::Kernel) RawClient;
	constexpr u32 kCalls = 4, kLen = 96, kXid = 0x55550001;

	p.b.snd = { 100, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (EXPECT(c != nullptr) && pair_up(check, &p) && raw_connect(check, &p, c) &&
	    raw_send_calls(check, c, kCalls, kLen, kXid)) {
		/* Each Call, as nfsd takes them; none answered until all are in. */
		rpcrdmax_svc_ctxt *ctxts[kCalls] = {};
		for (u32 i = 0; i < kCalls; i++) {
			if (!EXPECT(c->sx->ready.wait_ms(kWaitMs)) ||
			    !EXPECT(rpcrdmax_kunit_svc_rqst_reset(p.rqstp) == 0))
				break;
			int len = rpcrdmax_svcc_recvfrom(c->sx->svcc, p.rqstp, &ctxts[i]);
			EXPECT(len == (int)(kLen - 28));
			EXPECT(rpcrdmax_kunit_svc_rqst_arg(p.rqstp, p.buf, kBuf) == len &&
			       load_be32(p.buf) == kXid + i);
			EXPECT(p.stats[RPCRDMAX_SVC_STAT_CREDIT_OVERRUN] == (i + 1 < kCalls ? 0 : 1));
		}
		for (rpcrdmax_svc_ctxt *x : ctxts)
			if (x)
				rpcrdmax_svcc_release(c->sx->svcc, x);
		EXPECT(c->sx->closes.read() == 0);
		/* The other client costs nothing. */
		EXPECT(forward_rpc(check, &p, 0x33330005));
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_CREDIT_OVERRUN] == 1);
	}
	raw_end(&p, c, nullptr);
}

/*
 * Every message the server receives ends one way (svcrdma.h, Settle),
 * counted: of four Calls from a raw client, nfsd answers the first,
 * releases the second without a Reply (svc_drop), takes the third and
 * answers it only after the connection is lost, and never takes the
 * fourth before the connection ends.  Two lost with the connection, one
 * svc_drop, one Reply, none dropped by us and none unsettled.
 */
static void settle_case(Reporter check)
{
	Pair p;
	auto *c = new (Gfp::Kernel) RawClient;
	rpcrdmax_svc_ctxt *ctxt = nullptr;
	constexpr u32 kCalls = 4, kLen = 96, kXid = 0x55550301;

	p.b.snd = { 100, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (!EXPECT(c != nullptr) || !pair_up(check, &p) || !raw_connect(check, &p, c) ||
	    !raw_post_recv(check, c) || !raw_send_calls(check, c, kCalls, kLen, kXid)) {
		raw_end(&p, c, nullptr);
		return;
	}
	/* answered */
	if (EXPECT(raw_take(check, &p, c, &ctxt) == (int)(kLen - 28))) {
		fill_reply(p.reply, 64, kXid, 61);
		EXPECT(rpcrdmax_kunit_svc_rqst_reply(p.rqstp, p.reply, 64, 0, 0) == 0);
		EXPECT(rpcrdmax_svcc_sendto(c->sx->svcc, p.rqstp, ctxt) == 0);
		rpcrdmax_svcc_release(c->sx->svcc, ctxt);
		EXPECT(raw_received(check, c) > 0);
	}
	/* nfsd drops it (svc_drop): released, no Reply */
	ctxt = nullptr;
	if (EXPECT(raw_take(check, &p, c, &ctxt) == (int)(kLen - 28)))
		rpcrdmax_svcc_release(c->sx->svcc, ctxt);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_SVC_DROP] == 1);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_LOST] == 0);
	/* taken, then the connection is lost before nfsd answers */
	ctxt = nullptr;
	if (EXPECT(raw_take(check, &p, c, &ctxt) == (int)(kLen - 28))) {
		(void)c->end.id.disconnect();
		for (u32 i = 0; i < 500 && c->sx->closes.read() == 0; i++)
			rpcrdmax_msleep(10);
		EXPECT(c->sx->closes.read() > 0);
		EXPECT(rpcrdmax_kunit_svc_rqst_reply(p.rqstp, p.reply, 64, 0, 0) == 0);
		EXPECT(rpcrdmax_svcc_sendto(c->sx->svcc, p.rqstp, ctxt) < 0);
		rpcrdmax_svcc_release(c->sx->svcc, ctxt);
	}
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_LOST] == 1);
	/* the fourth is still queued: lost when the connection ends */
	raw_down(c);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_RECV] == kCalls);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_SQ_PROD] == 1);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_SVC_DROP] == 1);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_LOST] == 2);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_DROPPED] == 0);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_UNSETTLED] == 0);
	delete c;
	pair_down(&p);
}

/* The raw client's Call @xid (RDMA_MSG, and 40 octets of RPC Call of
 * @seed) offering a Write chunk of one @len-octet segment at each of
 * c->page's offsets @at[0, @n), sent. */
static bool raw_send_write_call(Reporter check, RawClient *c, u32 xid, u32 n, const u32 *at,
				u32 len, u32 seed)
{
	core::V1Header &h = c->call;

	h.xid = xid;
	h.vers = 1;
	h.credits = 32;
	h.proc = core::V1Proc::Msg;
	h.chunks.clear();
	for (u32 i = 0; i < n; i++)
		EXPECT(h.chunks.add_write_chunk() == core::ListError::None &&
		       h.chunks.add_write_segment({ c->mr.rkey(), len, c->mr.iova() + at[i] }) ==
			       core::ListError::None);
	auto enc = core::v1_encode(h, Bytes(c->msgs[0], sizeof(c->msgs[0])));
	if (!EXPECT(enc.is_ok()))
		return false;
	fill_call(c->msgs[0] + enc.value(), 40, xid, seed);
	return raw_send(check, c, enc.value() + 40);
}

static void write_chunks_case(Reporter check)
{
	Pair p;
	auto *c = new (Gfp::Kernel) RawClient;
	/* The Reply: a 100-octet head and 1000 octets of pages, of which
	 * [100, 400) and [600, 1000) are the two READs' data. */
	constexpr u32 kXid = 0x55550011, kHead = 100, kPages = 1000;
	constexpr u32 kOff[2] = { 100, 600 }, kLen[2] = { 300, 400 }, kAt[2] = { 0, 2048 };
	constexpr u32 kInlineLen = kHead + kPages - 300 - 400;
	rpcrdmax_svc_ctxt *ctxt = nullptr;

	p.b.snd = { 100, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (!EXPECT(c != nullptr) || !pair_up(check, &p) || !raw_connect(check, &p, c) ||
	    !raw_ready_reply(check, c))
		goto out;
	{
		/* The Call: RDMA_MSG offering two Write chunks of 1 KiB each. */
		if (!raw_send_write_call(check, c, kXid, 2, kAt, 1024, 71))
			goto out;

		/* nfsd: the COMPOUND's two READ results marked, the Reply sent. */
		if (!EXPECT(raw_take(check, &p, c, &ctxt) == 40))
			goto out;
		fill_reply(p.reply, kHead + kPages, kXid, 73);
		EXPECT(rpcrdmax_kunit_svc_rqst_reply(p.rqstp, p.reply, kHead, kPages, 0) == 0);
		for (u32 i = 0; i < 2; i++)
			EXPECT(rpcrdmax_svcc_result_payload(c->sx->svcc, ctxt, kOff[i], kLen[i]) ==
			       0);
		EXPECT(rpcrdmax_svcc_sendto(c->sx->svcc, p.rqstp, ctxt) == 0);
		const u32 got = raw_received(check, c);
		if (!got)
			goto out;

		/* The Reply returns both chunks with the octets written; its
		 * RPC message is the rest, in order. */
		core::V1Header &r = c->reply;
		const core::DecodeLimits lim;
		EXPECT(core::v1_decode_reply(ConstBytes(c->rbuf, got), lim, &r) ==
		       core::V1Verdict::Ok);
		EXPECT(r.xid == kXid && r.chunks.nwrite == 2);
		for (u32 i = 0; i < 2 && r.chunks.nwrite == 2; i++)
			EXPECT(r.chunks.chunk_length(r.chunks.write[i]) == kLen[i]);
		EXPECT(r.payload_len == kInlineLen);
		const u8 *msg = c->rbuf + r.hdr_len;
		EXPECT(mem_compare(msg, p.reply, kOff[0]) == 0);
		EXPECT(mem_compare(msg + kOff[0], p.reply + kOff[0] + kLen[0],
				   kOff[1] - kOff[0] - kLen[0]) == 0);
		/* Each READ's data in its chunk. */
		c->mr.unmap();
		const u8 *pg = static_cast<const u8 *>(rpcrdmax_page_address(c->page));
		for (u32 i = 0; i < 2; i++)
			EXPECT(mem_compare(pg + kAt[i], p.reply + kOff[i], kLen[i]) == 0);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_WRITE] >= 2);
	}
out:
	raw_end(&p, c, ctxt);
}

/*
 * A Reply whose Send waits (the raw client posts no Receive: RNR,
 * retried without end) keeps the rq_res pages its RDMA Write and its
 * Send read: sendto takes them from rq_respages and they stay held
 * after nfsd gives the context back.  The connection goes with the
 * Send still waiting: they are let go only once its QP is drained,
 * and then they are.
 */
static void send_held_case(Reporter check)
{
	Pair p;
	auto *c = new (Gfp::Kernel) RawClient;
	constexpr u32 kXid = 0x55550031, kHead = 100, kPages = 3000;
	rpcrdmax_svc_ctxt *ctxt = nullptr;
	::page *pg = nullptr;

	p.b.snd = { 100, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (!EXPECT(c != nullptr) || !pair_up(check, &p) || !raw_connect(check, &p, c) ||
	    !raw_ready_reply(check, c, true))
		goto out;
	{
		/* The Call: a READ's, offering one Write chunk of a page. */
		const u32 at = 0;
		if (!raw_send_write_call(check, c, kXid, 1, &at, RPCRDMAX_PAGE_SIZE, 81) ||
		    !EXPECT(raw_take(check, &p, c, &ctxt) == 40))
			goto out;
		/* nfsd: the page list is the READ's data, the Reply sent */
		fill_reply(p.reply, kHead + kPages, kXid, 83);
		if (!EXPECT(rpcrdmax_kunit_svc_rqst_reply(p.rqstp, p.reply, kHead, kPages, 0) == 0))
			goto out;
		pg = rpcrdmax_kunit_svc_rqst_slot(p.rqstp, 1); /* the page list's */
		if (!EXPECT(pg != nullptr) || !EXPECT(rpcrdmax_kunit_page_get(pg) == 2)) {
			pg = nullptr;
			goto out;
		}
		EXPECT(rpcrdmax_svcc_result_payload(c->sx->svcc, ctxt, kHead, kPages) == 0);
		EXPECT(rpcrdmax_svcc_sendto(c->sx->svcc, p.rqstp, ctxt) == 0);
		/* the page went with the Reply: ours and its Send's references */
		EXPECT(rpcrdmax_kunit_svc_rqst_slot(p.rqstp, 1) != pg);
		EXPECT(rpcrdmax_kunit_page_count(pg) == 2);
		rpcrdmax_svcc_release(c->sx->svcc, ctxt);
		ctxt = nullptr;
		/* nothing answers the Send yet; the Write landed */
		EXPECT(!c->recv.completion.wait_ms(200));
		EXPECT(rpcrdmax_kunit_page_count(pg) == 2);
	}
out:
	raw_end(&p, c, ctxt);
	/* the connection's teardown flushed the Send and let the page go */
	if (pg) {
		EXPECT(rpcrdmax_kunit_page_count(pg) == 1);
		rpcrdmax_kunit_page_put(pg);
	}
}

/*
 * RFC 8166 Section 4.3.3: "When a Requester provides a Reply chunk in an
 * RPC Call message, the Responder MUST copy that chunk into the
 * Transport header of the RPC Reply message", with the octets it
 * returns there.  A raw client offers one of @nsegs segments in c->page
 * for a Reply of 300 octets, which fits inline: the Reply is RDMA_MSG
 * with the chunk copied, each segment's length 0, the RPC Reply after.
 */
static bool short_round(Reporter check, Pair *p, RawClient *c, u32 xid, u32 nsegs)
{
	constexpr u32 kCall = 40, kReply = 300;
	const core::DecodeLimits lim;
	core::V1Header &h = c->call;
	rpcrdmax_svc_ctxt *ctxt = nullptr;
	bool ok = true;

	h.xid = xid;
	h.vers = 1;
	h.credits = 32;
	h.proc = core::V1Proc::Msg;
	h.chunks.clear();
	ok = EXPECT(h.chunks.set_reply_chunk() == core::ListError::None);
	for (u32 i = 0; ok && i < nsegs; i++)
		ok = EXPECT(h.chunks.add_reply_segment({ c->mr.rkey(), 1024, c->mr.iova() + 1024 * i }) ==
			    core::ListError::None);
	auto enc = core::v1_encode(h, Bytes(c->msgs[0], sizeof(c->msgs[0])));
	ok = ok && EXPECT(enc.is_ok());
	if (ok)
		fill_call(c->msgs[0] + enc.value(), kCall, xid, 75);
	ok = ok && raw_send(check, c, enc.value() + kCall) &&
	     EXPECT(raw_take(check, p, c, &ctxt) == (int)kCall);
	const u32 got = raw_answer(check, p, c, ctxt, ok, xid, kReply, 77);
	core::V1Header &r = c->reply;
	if (!got || !EXPECT(core::v1_decode_reply(ConstBytes(c->rbuf, got), lim, &r) ==
			    core::V1Verdict::Ok))
		return false;
	EXPECT(r.xid == xid && r.proc == core::V1Proc::Msg && r.chunks.nwrite == 0);
	if (!EXPECT(r.chunks.has_reply) || !EXPECT(r.chunks.reply.nsegs == nsegs))
		return false;
	for (u32 i = 0; i < nsegs; i++) {
		const core::Segment &seg = r.chunks.segment(r.chunks.reply, i);
		EXPECT(seg.handle == c->mr.rkey() && seg.length == 0 &&
		       seg.offset == c->mr.iova() + 1024 * i);
	}
	return EXPECT(r.payload_len == kReply) &&
	       EXPECT(mem_compare(c->rbuf + r.hdr_len, p->reply, kReply) == 0);
}

static void short_reply_case(Reporter check)
{
	Pair p;
	auto *c = new (Gfp::Kernel) RawClient;
	unsigned int bad;

	p.b.snd = { 100, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (!EXPECT(c != nullptr) || !pair_up(check, &p) || !raw_connect(check, &p, c) ||
	    !raw_ready_reply(check, c) || !short_round(check, &p, c, 0x55550021, 1))
		goto out;
	{
		/* The server's Send invalidated the chunk's rkey (RFC 8797):
		 * registered again under a new key for the next Call. */
		EXPECT(c->recv.wc.with_invalidate && c->recv.wc.invalidated_rkey == c->mr.rkey());
		c->mr.bump_key();
		WrSpec wr = c->mr.reg_wr(c->reg.cqe.raw(), RPCRDMAX_ACCESS_LOCAL_WRITE |
								 RPCRDMAX_ACCESS_REMOTE_WRITE);
		if (EXPECT(c->end.id.post_send(&wr, 1, &bad).is_ok()) &&
		    EXPECT(c->reg.completion.wait_ms(kWaitMs)) &&
		    EXPECT(c->reg.wc.status == RPCRDMAX_IB_WC_SUCCESS) && raw_post_recv(check, c))
			short_round(check, &p, c, 0x55550022, 2);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_WRITE] == 0);
	}
out:
	raw_end(&p, c, nullptr);
}

/* ---- RPC-over-RDMA Version Two (svcrdma/v2.cpp) ------------------------ */

/* c->msgs[0]: a version 2 RDMA2_MSG Call of @len RPC octets after its
 * header (no chunks); returns the octets to send, 0 on failure. */
static u32 v2_call_msg(RawClient *c, u32 xid, u32 len)
{
	core::V1Header &h = c->call;
	h.xid = xid;
	h.vers = core::kRpcRdmaVersion2;
	h.credits = 32;
	h.proc = core::V1Proc::Msg;
	h.chunks.clear();
	auto enc = core::v2_encode_msg(h, core::kMsgCall, 0, Bytes(c->msgs[0], sizeof(c->msgs[0])));
	if (enc.is_error() || enc.value() + len > sizeof(c->msgs[0]))
		return 0;
	fill_call(c->msgs[0] + enc.value(), len, xid, 81);
	return enc.value() + len;
}

/* c->msgs[0]: @hdr, a version 2 message without a Call; its length. */
static u32 v2_other_msg(RawClient *c, const core::V2Header &hdr)
{
	auto enc = core::v2_encode(hdr, Bytes(c->msgs[0], sizeof(c->msgs[0])));
	return enc.is_ok() ? enc.value() : 0;
}

/* A version 2 Call sent, served as nfsd would with a Reply of @rlen
 * octets, and what the server sent back decoded into @hdr.  With
 * @connprop (the connection's first version 2 Call) the server's
 * RDMA2_CONNPROP must come first: its Receive size (4096, max_req_size
 * here), no other property, none to change. */
static bool v2_round(Reporter check, Pair *p, RawClient *c, u32 xid, u32 rlen, core::V2Header *hdr,
		     bool connprop = false)
{
	const core::DecodeLimits lim;
	rpcrdmax_svc_ctxt *ctxt = nullptr;
	const u32 n = v2_call_msg(c, xid, 40);
	bool ok = EXPECT(n > 0) && raw_post_recv(check, c) && raw_send(check, c, n) &&
		  EXPECT(raw_take(check, p, c, &ctxt) == 40);
	u32 got, rbsiz = 0;

	if (ok && connprop) {
		got = raw_received(check, c);
		ok = got &&
		     EXPECT(core::v2_decode(ConstBytes(c->rbuf, got), lim, hdr) == core::V2Verdict::Ok) &&
		     EXPECT(hdr->proc == core::V2Proc::ConnProp && hdr->props.count == 1) &&
		     EXPECT(core::v2_prop_rbsiz(hdr->props, &rbsiz) && rbsiz == 4096) &&
		     EXPECT(hdr->subset_a.contains(0)) && raw_post_recv(check, c);
	}

	got = raw_answer(check, p, c, ctxt, ok, xid, rlen, 83);
	return got && EXPECT(core::v2_decode(ConstBytes(c->rbuf, got), lim, hdr) == core::V2Verdict::Ok);
}

/* A version 2 message that is no Call: recvfrom serves nothing; with
 * @answered, what the server sent back is decoded into @hdr. */
static bool v2_control_round(Reporter check, Pair *p, RawClient *c, u32 len, bool answered,
			     core::V2Header *hdr)
{
	const core::DecodeLimits lim;
	rpcrdmax_svc_ctxt *ctxt = nullptr;

	if (!EXPECT(len > 0) || (answered && !raw_post_recv(check, c)) || !raw_send(check, c, len) ||
	    !EXPECT(raw_take(check, p, c, &ctxt) == 0) || !EXPECT(ctxt == nullptr))
		return false;
	if (!answered)
		return true;
	const u32 got = raw_received(check, c);
	return got && EXPECT(core::v2_decode(ConstBytes(c->rbuf, got), lim, hdr) == core::V2Verdict::Ok);
}

/* A version 1 Call of 68 RPC octets, served with a 100-octet Reply:
 * true when a version 1 RDMA_MSG Reply carrying it came back. */
static bool v1_round(Reporter check, Pair *p, RawClient *c, u32 xid)
{
	const core::DecodeLimits lim;
	rpcrdmax_svc_ctxt *ctxt = nullptr;
	bool ok = raw_post_recv(check, c) && raw_send_calls(check, c, 1, 96, xid) &&
		  EXPECT(raw_take(check, p, c, &ctxt) == 96 - 28);

	const u32 got = raw_answer(check, p, c, ctxt, ok, xid, 100, 85);
	return got &&
	       EXPECT(core::v1_decode_reply(ConstBytes(c->rbuf, got), lim, &c->reply) ==
		      core::V1Verdict::Ok) &&
	       EXPECT(c->reply.xid == xid && c->reply.vers == core::kRpcRdmaVersion1 &&
		      c->reply.proc == core::V1Proc::Msg && c->reply.payload_len == 100);
}

/* The Reply is version 2, in the Reply direction, with the RPC Reply
 * inline. */
static void expect_v2_reply(Reporter check, const Pair &p, const RawClient *c,
			    const core::V2Header &h, u32 xid, u32 rlen)
{
	EXPECT(h.xid == xid && h.vers == core::kRpcRdmaVersion2 && h.proc == core::V2Proc::Msg);
	EXPECT(h.direction == core::kMsgReply && h.chunks.empty());
	EXPECT(h.payload_len == rlen && mem_compare(c->rbuf + h.hdr_len, p.reply, rlen) == 0);
}

/* ---- RFC 8166 Section 4.5.2, example by example ----------------------- */

static constexpr u32 kExRpc = 40; /* octets of each example's RPC message */

/* c->page, registered for the server's RDMA Reads, holding at each
 * 512-octet slot i an RPC Call of kExRpc octets with XID @xids[i]: Long
 * Calls' Position Zero Read chunks. */
static bool raw_ready_reads(Reporter check, RawClient *c, const u32 *xids, u32 n)
{
	unsigned int bad;

	c->page = rpcrdmax_alloc_page(RPCRDMAX_GFP_KERNEL | RPCRDMAX_GFP_ZERO);
	if (!EXPECT(c->page != nullptr))
		return false;
	u8 *va = static_cast<u8 *>(rpcrdmax_page_address(c->page));
	for (u32 i = 0; i < n; i++)
		fill_call(va + 512 * i, kExRpc, xids[i], 91 + i);
	rpcrdmax_page_seg seg = { c->page, 0, RPCRDMAX_PAGE_SIZE };
	if (!EXPECT(c->mr.alloc(c->end.pd.get(), c->end.id.device(), 1).is_ok()) ||
	    !EXPECT(c->mr.map(Span<const rpcrdmax_page_seg>(&seg, 1), RPCRDMAX_DMA_TO_DEVICE)
			    .is_ok()))
		return false;
	c->mr.bump_key();
	WrSpec wr = c->mr.reg_wr(c->reg.cqe.raw(), RPCRDMAX_ACCESS_REMOTE_READ);
	return EXPECT(c->end.id.post_send(&wr, 1, &bad).is_ok()) &&
	       EXPECT(c->reg.completion.wait_ms(kWaitMs)) &&
	       EXPECT(c->reg.wc.status == RPCRDMAX_IB_WC_SUCCESS);
}

/*
 * c->msgs[0]: a Call of version @vers (1 or 2) with XID @xid that shows
 * example @ex of RFC 8166 Section 4.5.2 (version 2: the draft's Section
 * 6.2.4 carries them over); its length.
 *   0  an invalid rdma_proc (version 1: 5; version 2: 99);
 *   1  RDMA_NOMSG with the Read list, Write list and Reply chunk absent;
 *   2  RDMA_MSG whose RPC message's XID is not rdma_xid;
 *   3  RDMA_NOMSG whose RPC message, in its Position Zero Read chunk
 *      (c->page's slot @slot), has another XID;
 *   4  as 3, the XIDs matching: a Call to serve.
 */
static u32 example_call(RawClient *c, u32 vers, u32 ex, u32 xid, u32 slot)
{
	core::V1Header &h = c->call;
	u8 *m = c->msgs[0];

	h.xid = xid;
	h.vers = vers;
	h.credits = 32;
	h.proc = ex == 0 || ex == 2 ? core::V1Proc::Msg : core::V1Proc::NoMsg;
	h.chunks.clear();
	if (ex >= 3 && h.chunks.add_read_segment(0, { c->mr.rkey(), kExRpc,
						      c->mr.iova() + 512 * slot }) !=
			       core::ListError::None)
		return 0;
	auto enc = vers == core::kRpcRdmaVersion2
			   ? core::v2_encode_msg(h, core::kMsgCall, 0, Bytes(m, sizeof(c->msgs[0])))
			   : core::v1_encode(h, Bytes(m, sizeof(c->msgs[0])));
	if (enc.is_error() || enc.value() + kExRpc > sizeof(c->msgs[0]))
		return 0;
	u32 n = enc.value();
	if (ex == 0)
		store_be32(m + 12, vers == core::kRpcRdmaVersion2 ? 99 : 5);
	if (ex < 3) {
		fill_call(m + n, kExRpc, ex == 2 ? ~xid : xid, 89);
		n += kExRpc;
	}
	return n;
}

/* Send c->msgs[0] (@len octets), which nfsd must not get; what the
 * server sent back is in c->rbuf: its length (0: none). */
static u32 raw_refused(Reporter check, Pair *p, RawClient *c, u32 len)
{
	rpcrdmax_svc_ctxt *ctxt = nullptr;

	if (!EXPECT(len > 0) || !raw_post_recv(check, c) || !raw_send(check, c, len) ||
	    !EXPECT(raw_take(check, p, c, &ctxt) == 0) || !EXPECT(ctxt == nullptr))
		return 0;
	return raw_received(check, c);
}

/* Example 4: served, rq_arg the RPC message pulled from the chunk. */
static void example_served(Reporter check, Pair *p, RawClient *c, u32 len, u32 xid)
{
	rpcrdmax_svc_ctxt *ctxt = nullptr;

	if (EXPECT(raw_send(check, c, len)) && EXPECT(raw_take(check, p, c, &ctxt) == (int)kExRpc))
		EXPECT(rpcrdmax_kunit_svc_rqst_arg(p->rqstp, p->buf, kBuf) == (int)kExRpc &&
		       load_be32(p->buf) == xid);
	if (ctxt)
		rpcrdmax_svcc_release(c->sx->svcc, ctxt);
}

/*
 * RFC 8166 Section 4.5.2 names three XDR errors a Responder MUST answer
 * with RDMA_ERROR/ERR_CHUNK: an invalid rdma_proc, an RDMA_NOMSG with no
 * chunk, an rdma_xid other than the RPC message's.  Each example, in
 * version 1 and in version 2 (RDMA2_ERR_INVALID_PROC for the first,
 * RDMA2_ERR_BAD_XDR for the others: the draft's Section 6.2.4), the XID
 * mismatch both inline (RDMA_MSG) and in a Long Call's chunk: answered
 * with the error, its XID the Call's, nothing handed to nfsd; the Long
 * Call whose XIDs match is served.
 */
static void xdr_errors_case(Reporter check)
{
	Pair p;
	auto *c = new (Gfp::Kernel) RawClient;
	auto *h = new (Gfp::Kernel) core::V2Header;
	const core::DecodeLimits lim;
	constexpr u32 kXid = 0x55550401;
	/* the Read chunks' RPC messages: version 1's examples 3 and 4, version 2's */
	const u32 slots[4] = { ~(kXid + 3), kXid + 4, ~(kXid + 0x13), kXid + 0x14 };
	long long chunk, ev2;
	u32 got;

	p.b.snd = { 100, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (!EXPECT(c != nullptr && h != nullptr) || !pair_up(check, &p) ||
	    !raw_connect(check, &p, c) || !raw_ready_reads(check, c, slots, 4))
		goto out;
	chunk = p.stats[RPCRDMAX_SVC_STAT_ERR_CHUNK];
	for (u32 ex = 0; ex < 4; ex++) {
		got = raw_refused(check, &p, c, example_call(c, 1, ex, kXid + ex, 0));
		EXPECT(got && core::v1_decode_reply(ConstBytes(c->rbuf, got), lim, &c->reply) ==
				      core::V1Verdict::ErrorReply);
		EXPECT(c->reply.xid == kXid + ex && c->reply.vers == core::kRpcRdmaVersion1 &&
		       c->reply.err == static_cast<u32>(core::V1ErrCode::Chunk));
	}
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_ERR_CHUNK] == chunk + 4);
	example_served(check, &p, c, example_call(c, 1, 4, kXid + 4, 1), kXid + 4);

	/* version 2 on the same connection: each Call in its own version
	 * (draft Section 7.3; its first Call was version 1, so no
	 * RDMA2_CONNPROP comes first) */
	ev2 = p.stats[RPCRDMAX_SVC_STAT_ERR_V2];
	for (u32 ex = 0; ex < 4; ex++) {
		const u32 xid = kXid + 0x10 + ex;
		got = raw_refused(check, &p, c, example_call(c, 2, ex, xid, 2));
		EXPECT(got && core::v2_decode(ConstBytes(c->rbuf, got), lim, h) == core::V2Verdict::Ok);
		EXPECT(h->xid == xid && h->vers == core::kRpcRdmaVersion2 &&
		       h->proc == core::V2Proc::Error &&
		       h->error.code == static_cast<u32>(ex ? core::V2ErrCode::BadXdr
							     : core::V2ErrCode::InvalidProc));
	}
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_ERR_V2] == ev2 + 4);
	example_served(check, &p, c, example_call(c, 2, 4, kXid + 0x14, 3), kXid + 0x14);
	EXPECT(c->sx->closes.read() == 0);
out:
	raw_end(&p, c, nullptr);
	delete h;
}

/* A device that never flushes a Read (read_unflushed): the completion
 * arrives and is not passed on. */
static int swallowed_reads;
static void swallow_read(rdma::Cqe *, const ib_wc &)
{
	__atomic_add_fetch(&swallowed_reads, 1, __ATOMIC_SEQ_CST);
}

/*
 * A peer that stops answering: the raw client sends a Long Call (its
 * Position Zero Read chunk in c->page), then its QP goes to the error
 * state without a word, so the server's RDMA Reads get no response.  On
 * RoCE they would end in the retry limit's error seconds later; on
 * iWARP TCP may keep them waiting for many minutes (post_reads).  After
 * read_wait_ms the connection is reset: svc told to close it, the Reads
 * flushed, recvfrom serves nothing, rdma_stat_read_reset counts it.
 * With @unflushed the Read's completion is swallowed (read_unflushed).
 */
static void stalled_reads(Reporter check, u32 xid, bool unflushed)
{
	Pair p;
	auto *c = new (Gfp::Kernel) RawClient;
	const u32 slots[1] = { xid };
	rpcrdmax_svc_ctxt *ctxt = nullptr;
	long long resets = 0, lost = 0;
	const int swallowed = __atomic_load_n(&swallowed_reads, __ATOMIC_SEQ_CST);
	SvcConn *conn;
	u32 len;

	p.b.snd = { 100, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (!EXPECT(c != nullptr) || !pair_up(check, &p) || !raw_connect(check, &p, c) ||
	    !raw_ready_reads(check, c, slots, 1))
		goto out;
	resets = p.stats[RPCRDMAX_SVC_STAT_READ_RESET];
	lost = p.stats[RPCRDMAX_SVC_STAT_LOST];
	len = example_call(c, 1, 4, xid, 0);
	conn = static_cast<SvcConn *>(c->sx->svcc);
	conn->read_wait_ms = 200;
	if (unflushed)
		conn->read_done = &swallow_read;
	if (!EXPECT(len > 0) || !raw_send(check, c, len) ||
	    !EXPECT(c->sx->ready.wait_ms(kWaitMs)) ||
	    !EXPECT(rpcrdmax_kunit_qp_error(c->end.id.qp()) == 0) ||
	    !EXPECT(rpcrdmax_kunit_svc_rqst_reset(p.rqstp) == 0))
		goto out;
	/* the flushed (or given up) Reads fail the Call: svc closes the
	 * connection */
	EXPECT(rpcrdmax_svcc_recvfrom(c->sx->svcc, p.rqstp, &ctxt) == -err::EIO);
	EXPECT(ctxt == nullptr);
	/* rxe flushed the Read when the reset drained the QP */
	EXPECT(__atomic_load_n(&swallowed_reads, __ATOMIC_SEQ_CST) == swallowed + unflushed);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_READ_RESET] == resets + 1);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_LOST] == lost + 1);
	EXPECT(c->sx->closes.read() == 1);
out:
	raw_end(&p, c, ctxt);
}

static void read_stalled_case(Reporter check)
{
	stalled_reads(check, 0x55550501, false);
}

/*
 * read_stalled's peer on a device that leaves the Reads unflushed after
 * the reset's drain: recvfrom returns rather than wait for ever, the
 * Call lost; the Read's completion, when it comes, finds its context,
 * which the teardown frees after the CQs (KASAN on the debug kernel).
 */
static void read_unflushed_case(Reporter check)
{
	stalled_reads(check, 0x55550601, true);
}

static void v2_case(Reporter check)
{
	Pair p;
	auto *c = new (Gfp::Kernel) RawClient;
	auto *h = new (Gfp::Kernel) core::V2Header;
	constexpr u32 kXid = 0x55550021, kMid = 2000;
	long long v1, v2, e2, cs, cr;

	p.b.snd = { 100, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	/* No private data: the draft's default Receive size applies. */
	if (!EXPECT(c != nullptr && h != nullptr) || !pair_up(check, &p) ||
	    !raw_connect(check, &p, c, true))
		goto out;
	v1 = p.stats[RPCRDMAX_SVC_STAT_VERS1];
	v2 = p.stats[RPCRDMAX_SVC_STAT_VERS2];
	e2 = p.stats[RPCRDMAX_SVC_STAT_ERR_V2];
	cs = p.stats[RPCRDMAX_SVC_STAT_CONNPROP_SENT];
	cr = p.stats[RPCRDMAX_SVC_STAT_CONNPROP_RECV];

	/* Section 7.1: a version 2 Call is answered in version 2, inline
	 * up to the default 4096 octets (Section 2.3): 2000 here, which
	 * version 1's default of 1024 would not let through. */
	if (!v2_round(check, &p, c, kXid, kMid, h, true))
		goto out;
	expect_v2_reply(check, p, c, *h, kXid, kMid);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_VERS2] == v2 + 1);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_CONNPROP_SENT] == cs + 1);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_VERS1] == v1);

	/* Section 5.3: REQPROP, which we do not support, and an unknown
	 * RDMA2_OPTIONAL type get RDMA2_ERR_INVAL_OPTION. */
	h->xid = kXid + 1;
	h->vers = core::kRpcRdmaVersion2;
	h->credits = 32;
	h->proc = core::V2Proc::ReqProp;
	h->props.count = 0;
	EXPECT(h->props.add_u32(core::kV2PropRbsiz, 8192));
	if (!v2_control_round(check, &p, c, v2_other_msg(c, *h), true, h))
		goto out;
	EXPECT(h->xid == kXid + 1 && h->proc == core::V2Proc::Error &&
	       h->error.code == static_cast<u32>(core::V2ErrCode::InvalidOption));
	h->xid = kXid + 2;
	h->proc = core::V2Proc::Optional;
	h->direction = core::kMsgCall;
	h->opttype = 0x77;
	h->optinfo = ConstBytes();
	if (!v2_control_round(check, &p, c, v2_other_msg(c, *h), true, h))
		goto out;
	EXPECT(h->xid == kXid + 2 && h->proc == core::V2Proc::Error &&
	       h->error.code == static_cast<u32>(core::V2ErrCode::InvalidOption));
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_ERR_V2] == e2 + 2);

	/* Section 5.3.1: a CONNPROP is not answered; its RBSIZ of 1024
	 * bounds the inline Replies after it.  The same 2000-octet Reply
	 * then has no room: RDMA2_ERR_REPLY_RESOURCE with its length. */
	h->xid = kXid + 3;
	h->proc = core::V2Proc::ConnProp;
	h->props.count = 0;
	h->subset_a.nwords = 0;
	EXPECT(h->props.add_u32(core::kV2PropRbsiz, 1024));
	if (!v2_control_round(check, &p, c, v2_other_msg(c, *h), false, h) ||
	    !v2_round(check, &p, c, kXid + 4, kMid, h))
		goto out;
	EXPECT(h->xid == kXid + 4 && h->vers == core::kRpcRdmaVersion2 &&
	       h->proc == core::V2Proc::Error &&
	       h->error.code == static_cast<u32>(core::V2ErrCode::ReplyResource) &&
	       h->error.length_needed == kMid);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_ERR_V2] == e2 + 3);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_CONNPROP_RECV] == cr + 1);
	/* and one that fits still goes inline */
	if (v2_round(check, &p, c, kXid + 5, 600, h))
		expect_v2_reply(check, p, c, *h, kXid + 5, 600);
	/* Section 7.3: a version 1 Call after them is answered in version
	 * 1, though the pooled contexts served version 2 Calls before */
	for (u32 i = 0; i < 4; i++)
		EXPECT(v1_round(check, &p, c, kXid + 6 + i));
	/* one connection, counted once; one RDMA2_CONNPROP sent */
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_VERS2] == v2 + 1);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_CONNPROP_SENT] == cs + 1);
	EXPECT(c->sx->closes.read() == 0);
out:
	raw_end(&p, c, nullptr);
	delete h;
}

/*
 * rpcrdmax on both ends, rdma_max_version 2 on the client (draft Section
 * 7.1): the first RPC settles Version Two; each end's RDMA2_CONNPROP
 * reaches the other (nfsd's thread finds no Call in the client's); RPCs
 * go on; a backward Call goes as an RDMA2_MSG in the Call direction
 * (Sections 4.2, 6.2.2), and its Reply comes back and matches.
 */
static void v2_peers_case(Reporter check)
{
	Pair p;
	BcRqst r;
	u8 call[200], got[256], rep[88];
	unsigned int got_xid = 0;
	rpcrdmax_svc_ctxt *ctxt;
	constexpr u32 kXid = 0x44440101;

	kunit_marshal::g_max_version = 2;
	p.b.snd = { 100, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (pair_up(check, &p) && forward_rpc(check, &p, 0x33330101)) {
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_VERS2] == 1 && p.stats[RPCRDMAX_SVC_STAT_VERS1] == 0);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_CONNPROP_SENT] == 1);
		EXPECT(p.b.ep->stats.read(ClntStat::Vers2Conns) == 1);
		EXPECT(svc_recv(check, &p, &ctxt) == 0 && ctxt == nullptr);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_CONNPROP_RECV] == 1);
		bench_again(&p.b);
		EXPECT(forward_rpc(check, &p, 0x33330102));
		fill_call(call, sizeof(call), kXid, 45);
		EXPECT(bc_send(check, &p, &r, kXid, call, sizeof(call)) == 0);
		rpc_rqst *rq = rpcrdmax_kunit_bc_wait(p.b.kx, kWaitMs);
		if (EXPECT(rq != nullptr)) {
			EXPECT(rpcrdmax_kunit_bc_call(rq, got, sizeof(got), &got_xid) ==
			       (int)sizeof(call));
			EXPECT(got_xid == kXid && mem_compare(got, call, sizeof(call)) == 0);
			EXPECT(p.b.ep->stats.read(ClntStat::BcV2Calls) == 1);
			fill_reply(rep, sizeof(rep), kXid, 47);
			EXPECT(rpcrdmax_kunit_bc_set_reply(rq, rep, sizeof(rep)) == 0);
			EXPECT(p.b.ep->bc_send(rq, kXid, sizeof(rep)) == 0);
			EXPECT(svc_recv(check, &p, &ctxt) == 0 && ctxt == nullptr);
			rpcrdmax_kunit_bc_done(rq);
		}
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_BC_REPLIES] == 1);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_BC_DROPPED] == 0);
		EXPECT(mem_compare(p.sx->bc.msg, rep, sizeof(rep)) == 0);
		EXPECT(p.b.ep->stats.read(ClntStat::BadReply) == 0);
		EXPECT(p.stats[RPCRDMAX_SVC_STAT_DROPPED] == 0);
	}
	kunit_marshal::g_max_version = 1;
	pair_down(&p);
}

/* svc_rdma/max_version 1: a version 2 Call gets ERR_VERS 1..1, what a
 * version 1 server sends (Section 7.2), with the Call's rdma_vers (RFC
 * 8166 Section 4.5), and the client goes on in version 1 on the same
 * connection. */
static void v2_capped_case(Reporter check)
{
	Pair p;
	auto *c = new (Gfp::Kernel) RawClient;
	constexpr u32 kXid = 0x55550031;
	rpcrdmax_svc_ctxt *ctxt = nullptr;
	u32 n, got;
	long long ev, v1, v2;

	kunit_svc::fake_max_version = 1;
	p.b.snd = { 100, 0, 0, 0, false };
	p.b.rcv = { 256, 0, 0, 0, false };
	if (!EXPECT(c != nullptr) || !pair_up(check, &p) || !raw_connect(check, &p, c))
		goto out;
	ev = p.stats[RPCRDMAX_SVC_STAT_ERR_VERS];
	v1 = p.stats[RPCRDMAX_SVC_STAT_VERS1];
	v2 = p.stats[RPCRDMAX_SVC_STAT_VERS2];
	n = v2_call_msg(c, kXid, 40);
	if (!EXPECT(n > 0) || !raw_post_recv(check, c) || !raw_send(check, c, n) ||
	    !EXPECT(raw_take(check, &p, c, &ctxt) == 0) || !(got = raw_received(check, c)))
		goto out;
	/* ERR_VERS has one layout in every version: xid, vers, credit,
	 * RDMA_ERROR, ERR_VERS, low, high */
	EXPECT(got == 28);
	if (got == 28)
		EXPECT(load_be32(c->rbuf) == kXid &&
		       load_be32(c->rbuf + 4) == core::kRpcRdmaVersion2 &&
		       load_be32(c->rbuf + 12) == 4 /* RDMA_ERROR */ &&
		       load_be32(c->rbuf + 16) == 1 /* ERR_VERS */ &&
		       load_be32(c->rbuf + 20) == 1 && load_be32(c->rbuf + 24) == 1);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_ERR_VERS] == ev + 1);

	/* the retransmission in version 1, on the same connection */
	EXPECT(v1_round(check, &p, c, kXid));
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_VERS1] == v1 + 1);
	EXPECT(p.stats[RPCRDMAX_SVC_STAT_VERS2] == v2);
out:
	kunit_svc::fake_max_version = 2;
	raw_end(&p, c, ctxt);
}

/*
 * A Reply whose page list reaches a slot past rq_next_page, as one with
 * RPCSEC_GSS integrity's checksum can (svc_authorise() appends it after
 * nfsd moved rq_next_page for its last operation; seen on 7.3, where the
 * page so left behind was reused by the thread's next RPC while the
 * Reply chunk's Writes still read it: the client's MIC check failed).
 * sendto keeps every page the Reply reaches (ktl::svc_take_res_pages)
 * but a copied head's where svc would fetch it again (rq_respages moved
 * past it first, ktl::svc_keep_res_head); a slot already
 * empty gives none (the pages are put as one batch, release_pages(),
 * which takes no NULL).
 */
static void res_beyond_next_case(Reporter check)
{
	static u8 src[100 + 2 * RPCRDMAX_PAGE_SIZE + 8];
	page *pages[8];
	svc_rqst *r = nullptr;
	unsigned int i;
	int n;
	/* a fresh svc_rqst as recvfrom leaves it, with a Reply of a head
	 * and 3 slots of page list */
	auto fresh = [&]() {
		if (r)
			rpcrdmax_kunit_svc_rqst_free(r);
		r = rpcrdmax_kunit_svc_rqst_new(8);
		mem_set(pages, 0, sizeof(pages));
		if (!EXPECT(r))
			return false;
		ktl::svc_set_respages(r, 1, 1);
		return EXPECT(rpcrdmax_kunit_svc_rqst_reply(r, src, 100, 2 * RPCRDMAX_PAGE_SIZE + 8,
							    0) == 0);
	};

	if (fresh()) {
		rpcrdmax_kunit_svc_rqst_next_back(r, 1);
		/* too little room: nothing moves */
		EXPECT(ktl::svc_take_res_pages(r, pages, 3) == -err::ENOBUFS);
		for (i = 0; i < 4; i++)
			EXPECT(rpcrdmax_kunit_svc_rqst_slot(r, (int)i) && !pages[i]);
		n = ktl::svc_take_res_pages(r, pages, 8);
		EXPECT(n == 4);
		for (i = 0; i < 4; i++) {
			EXPECT(pages[i]);
			EXPECT(!rpcrdmax_kunit_svc_rqst_slot(r, (int)i));
		}
		rpcrdmax_put_pages(pages, n > 0 ? n : 0);
	}
	/* again, with the second page-list slot empty */
	if (fresh()) {
		page *gone = rpcrdmax_kunit_svc_rqst_swap_slot(r, 2, nullptr);
		n = ktl::svc_take_res_pages(r, pages, 8);
		EXPECT(n == 3);
		for (i = 0; i < 3; i++)
			EXPECT(pages[i] && pages[i] != gone);
		for (i = 0; i < 4; i++)
			EXPECT(!rpcrdmax_kunit_svc_rqst_slot(r, (int)i));
		rpcrdmax_put_pages(pages, n > 0 ? n : 0);
		rpcrdmax_free_page(gone);
	}
	/* again, with the head copied into the Send buffer
	 * (svc_keep_res_head first): where svc refills every empty slot
	 * (to 6.12) the head's page stays in its slot, now below
	 * rq_respages, for the next RPC; on 7.x every slot below
	 * rq_next_page goes */
	if (fresh()) {
		page *head = rpcrdmax_kunit_svc_rqst_slot(r, 0);
		const int kept = RPCRDMAX_SPLIT_RESPAGES ? 0 : 1;
		unsigned int used;
		const unsigned int at = rpcrdmax_kunit_svc_rqst_res_pages(r, &used);
		ktl::svc_keep_res_head(r);
		EXPECT(rpcrdmax_kunit_svc_rqst_res_pages(r, &used) == at + kept);
		EXPECT(ktl::svc_take_res_pages(r, pages, 3 - kept) == -err::ENOBUFS);
		n = ktl::svc_take_res_pages(r, pages, 8);
		EXPECT(n == 4 - kept);
		EXPECT(rpcrdmax_kunit_svc_rqst_slot(r, -kept) == (kept ? head : nullptr));
		for (i = 0; i < (unsigned int)(4 - kept); i++) {
			EXPECT(!rpcrdmax_kunit_svc_rqst_slot(r, (int)i));
			EXPECT(pages[i] && pages[i] != (kept ? head : nullptr));
		}
		rpcrdmax_put_pages(pages, n > 0 ? n : 0);
		/* nothing is left in use to move past */
		ktl::svc_keep_res_head(r);
		EXPECT(rpcrdmax_kunit_svc_rqst_res_pages(r, &used) == at + kept && !used);
	}
	/* a Reply whose pages all stayed, its head copied: to 6.12
	 * rq_respages moves past the head's page, which the release of the
	 * svc_rqst then does not put, and the page list's slots stay in use */
	if (fresh()) {
		unsigned int used, now_used;
		const unsigned int at = rpcrdmax_kunit_svc_rqst_res_pages(r, &used);
		const unsigned int kept = RPCRDMAX_SPLIT_RESPAGES ? 0 : 1;
		page *head = rpcrdmax_kunit_svc_rqst_slot(r, 0);
		ktl::svc_keep_res_head(r);
		EXPECT(used == 4);
		EXPECT(rpcrdmax_kunit_svc_rqst_res_pages(r, &now_used) == at + kept);
		EXPECT(now_used == used - kept);
		EXPECT(rpcrdmax_kunit_svc_rqst_slot(r, 0) != head || !kept);
	}
	if (r)
		rpcrdmax_kunit_svc_rqst_free(r);
}

/*
 * The pieces of a Reply range: svcrdma::res_pieces() reads a range of
 * the page list in place; for every range of a Reply with a head, a page
 * list starting mid-page and a tail, it gives what the shim's
 * rpcrdmax_svc_res_pages() gives (the same pieces, or the same error
 * when they do not fit @max).
 */
static void res_pieces_case(Reporter check)
{
	static u8 src[100 + 3 * RPCRDMAX_PAGE_SIZE + 500 + 40];
	constexpr u32 kHead = 100, kPages = 3 * RPCRDMAX_PAGE_SIZE + 500, kTail = 40;
	constexpr u32 kLen = kHead + kPages + kTail;
	rpcrdmax_page_seg a[8], b[8];
	svc_rqst *r = rpcrdmax_kunit_svc_rqst_new(8);
	u32 compared = 0, in_pages = 0;

	if (!EXPECT(r))
		return;
	ktl::svc_set_respages(r, 1, 1);
	if (!EXPECT(rpcrdmax_kunit_svc_rqst_reply(r, src, kHead, kPages, kTail) == 0))
		goto out;
	/* the page list starts 1000 octets into its first page */
	RPCRDMAX_FIELD_REF(unsigned int,
			   reinterpret_cast<xdr_buf *>(reinterpret_cast<u8 *>(r) +
						       RPCRDMAX_OFF_SVC_RQST_RES),
			   XDR_BUF_PAGE_BASE) = 1000;
	static const u32 lens[] = {0, 1, 100, 3000, 4096, 9000, kLen};
	static const u32 maxes[] = {1, 2, 8};

	for (u32 off = 0; off <= kLen; off += 97) {
		for (u32 len : lens) {
			if (off + len > kLen)
				continue;
			for (u32 max : maxes) {
				mem_set(a, 0, sizeof(a));
				mem_set(b, 0, sizeof(b));
				const int na = svcrdma::res_pieces(r, off, len, a, max);
				const int nb = rpcrdmax_svc_res_pages(r, off, len, b, max);
				compared++;
				in_pages += off >= kHead && off + len <= kHead + kPages;
				if (!EXPECT(na == nb))
					goto out;
				for (int i = 0; i < na; i++)
					if (!EXPECT(a[i].page == b[i].page && a[i].offset == b[i].offset &&
						    a[i].len == b[i].len))
						goto out;
			}
		}
	}
	EXPECT(in_pages > 100 && compared > in_pages);
out:
	rpcrdmax_kunit_svc_rqst_free(r);
}

#undef EXPECT

} // namespace rpcrdmax::kunit_svcsrv

#define RPCRDMAX_KUNIT_SVCSRV_ENTRY(name) RPCRDMAX_KUNIT_CXX_ENTRY(kunit_svcsrv, svcsrv_, name)

RPCRDMAX_KUNIT_SVCSRV_ENTRY(inline)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(inline_pages)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(read_chunk)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(nomsg)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(reply_chunk)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(readv)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(trace_observes)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(payload_too_big)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(write_chunk)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(reuse)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(setup)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(teardown_order)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(sq_close)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(recv_batch)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(in_place)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(send_batch)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(send_ring)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(bc_call)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(bc_bad)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(credit_overrun)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(write_chunks)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(send_held)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(short_reply)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(v2)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(v2_capped)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(v2_peers)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(res_beyond_next)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(res_pieces)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(settle)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(xdr_errors)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(read_stalled)
RPCRDMAX_KUNIT_SVCSRV_ENTRY(read_unflushed)
