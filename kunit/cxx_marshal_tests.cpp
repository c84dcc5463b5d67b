// SPDX-License-Identifier: GPL-2.0
/*
 * kunit/cxx_marshal_tests.cpp - the client transport's real marshalling
 * and Reply handling on requests built in the test, against a fake
 * responder over rxe loopback.
 *
 * The client is xprtrdma's own ClntEp/Conn: it connects to 192.0.2.1,
 * and each case hands it one struct rpc_rqst made by kunit/shims.c (head
 * kvec, page list with a non-zero page_base, tail; XDRBUF_WRITE/READ
 * marking DDP-eligible data).  Conn::marshal plans and registers it, the
 * Send goes out, and the Reply goes through Conn::handle_reply, FRWR
 * invalidation and the receive-buffer placement of shim/sunrpc/xprt_rqst.c.
 *
 * The responder is built here from the protocol core (v1_decode_call,
 * v1_encode) and plain verbs: it decodes each Call, pulls Read chunks and
 * the Position Zero chunk by RDMA Read and rebuilds the RPC message (the
 * case compares it byte for byte with what it put in rq_snd_buf), RDMA
 * Writes result data into the offered Write or Reply chunk, and Sends
 * the Reply (with Invalidate of one of the XID's rkeys where a case
 * says so).  Thresholds are forced through the private data it accepts
 * with.
 *
 * What sunrpc would do around the transport is stood in for below
 * (lookup by XID, completion, credits, disconnect): the request has no
 * rpc_xprt or rpc_task, and xprt_complete_rqst() would need both.
 *
 *   credits        the rdma_credit a Call asks for: the slot table, at
 *                  least 4, at most what the device's queues hold; the
 *                  first Reply on a connection starts sunrpc's reconnect
 *                  wait over (as stock's reply handler does);
 *   cwnd           the server's grant sets sunrpc's congestion window,
 *                  only when it changes;
 *   inline         small Call (with a small DDP item, pulled up: the
 *                  pull-up count) and Reply, both inline, no MR;
 *   lend           an inline Reply read in its Receive buffer (not
 *                  copied) while a spare Receive takes its place, and
 *                  after its connection is gone; a longer head cut to
 *                  the buffer;
 *   read_chunk     WRITE-style Call: page data in a Read chunk (position,
 *                  length, XDR pad), the Reply by plain Send -> LOCAL_INV;
 *   long_call      call threshold 1 KiB: RDMA_NOMSG, Position Zero chunk
 *                  over head, pages and tail;
 *   transmit       send_request's rules: not connected, no congestion
 *                  slot, a retransmission on the same connection (reset),
 *                  a Call with no Reply expected (sent, then reset); a
 *                  Call sent leaves the timeouts its Reply is waited for
 *                  with (reply_major's), one with no Reply its own;
 *   connect_fails  a CM event that fails a connect in progress ends its
 *                  wait at once with an errno sunrpc retries after
 *                  (device removal: -ENETDOWN) and is named for the log
 *                  line; a removal once connected is a lost connection;
 *   connect_delay  sunrpc's ->connect: the first attempt at once (the
 *                  reconnect wait set to 5 s), later ones after what is
 *                  left of that wait, which then backs off from 5 s;
 *   reply_major    the wait for a Reply: a hard Call gets one
 *                  whole retransmit timeout on the wire, its major
 *                  timeout moved to then when sooner (counted when it
 *                  had run out already), across a jiffies wrap; a soft
 *                  Call keeps its own;
 *   gss_no_ddp     the RPC's auth covers its data (krb5i/krb5p): no
 *                  Read or Write chunk for data items; a Long Call and a
 *                  Reply chunk instead (RFC 8166 Section 8.2.2);
 *   write_chunk    READ-style Reply: 5001 octets RDMA Written into an
 *                  8 KiB Write chunk, Send with Invalidate of its rkey;
 *                  the data lands in the pages, the pad and the rest of
 *                  the inline Reply in the tail, the length counts 5001;
 *   mr_reuse       one RPC at a time, each registers the MR the one
 *                  before released last, under the next rkey;
 *   foreign_rkey   a Send With Invalidate of another outstanding RPC's
 *                  rkey (RFC 8797 Section 4.1): a bad reply, the
 *                  connection reset;
 *   mr_pool        a connection starts with kMrBatch MRs, not the whole
 *                  pool; Calls that hold MRs until fewer than kMrLowWater
 *                  are free make the refill work add kMrBatch more;
 *   inv_fence      an RPC freed with its Write chunk's MR live, whose
 *                  LOCAL_INV cannot complete (stuck behind a Send the
 *                  responder never acknowledges): the client disconnects
 *                  and waits for the flush before the pages go back;
 *   send_held      Replies to Calls whose Sends have not completed
 *                  (the responder has no Receive posted): the requests
 *                  go back and are made again, the Send buffers stay
 *                  with their Sends until those complete, and each Call
 *                  arrives as it was sent;
 *   reply_chunk    reply threshold 1 KiB: RDMA_NOMSG Reply written into
 *                  the Reply chunk across head, pages and tail;
 *   rdma_error     RDMA_ERROR/ERR_CHUNK fails the RPC with -EIO after
 *                  the Write chunk's MR is invalidated (xprtrdma_err_chunk);
 *   rdma_error_unknown  the same with an rdma_err RFC 8166 does not
 *                  define: -EIO under xprtrdma_err_unrecognized;
 *   write_overrun  a Write chunk reported longer than offered: -EIO, a
 *                  bad reply counted (xprtrdma_reply_hdr_err), nothing
 *                  placed;
 *   reply_errs     short, version 2, unknown XID, unknown rdma_proc:
 *                  each dropped under stock's xprtrdma_reply_*_err.
 */
#include "../xprtrdma/xprtrdma.h"

namespace rpcrdmax::kunit_marshal {

using namespace rpcrdmax::ktl;
using namespace rpcrdmax::rdma;
using kunit_rdma::End;
using kunit_rdma::Listener;
using kunit_rdma::Reporter;
using kunit_rdma::WcWait;
using xprtrdma::ClntEp;
using xprtrdma::ClntStat;

#define EXPECT(cond) check((cond), #cond, __FILE__, __LINE__)
#define EXPECT_OK(res) check((res).is_ok(), #res, __FILE__, __LINE__)

static constexpr const char *kAddr = "192.0.2.1";
static constexpr unsigned short kPort = 20052;
static constexpr unsigned int kWaitMs = 10000;
static constexpr u32 kInline = 4096;	/* the client's Send and Receive buffers */
static constexpr u32 kRecvs = 4;	/* Receives the responder keeps posted */
static constexpr u32 kData = 4 * RPCRDMAX_PAGE_SIZE; /* responder's RDMA buffer */
static constexpr u32 kCredits = 32;
static constexpr u8 kPoison = 0xa5;

/* ---- sunrpc's side, stood in for ------------------------------------ */

/* The transport a ClntEp reports to: one request outstanding at a time. */
struct FakeXprt {
	SpinLock lock;
	rpc_rqst *rqst = nullptr;
	u32 xid = 0;
	int status = 0;
	Completion completed;
	Atomic completions, disconnects, bad_xids, unpins;
	u32 slots = 32; /* the slot table (rdma_slot_table_entries) */
	/* sunrpc's reconnect timing: the wait (0: never connected), what
	 * is left of it, and the backoffs asked for (with their start). */
	u32 reestablish_ms = 0, backoff_init_ms = 0;
	unsigned long left = 0;
	u32 backoffs = 0;
	u32 credits = 0;	/* the latest grant the transport reported */
	u32 grants = 0;		/* times it reported one (set_credits calls) */
	u32 cong_resets = 0;	/* connections that started the window again */
	/* XPRT_WRITE_SPACE: writers held for a Send buffer or MR; the
	 * holds asked for, and the wakes that ended one. */
	Atomic write_space, space_waits, space_wakes;
};

/* /proc/sys/sunrpc/rdma_max_version as the cases set it: 1 unless a
 * Version Two case says 2, so the version 1 cases see what they test. */
static unsigned int g_max_version = 1;
static int g_vers_counted[2];	/* rpcrdmax_clnt_count_version() (no constructor: a global) */
static int vers_counted(u32 vers) { return __atomic_load_n(&g_vers_counted[vers - 1], __ATOMIC_RELAXED); }

} // namespace rpcrdmax::kunit_marshal

using rpcrdmax::kunit_marshal::FakeXprt;

/* The ClntEp reports to a transport made by kunit/shims.c; ours is its owner. */
static FakeXprt *fake_of(rpc_xprt *xprt)
{
	return static_cast<FakeXprt *>(rpcrdmax_kunit_xprt_owner(xprt));
}

extern "C" rpc_rqst *rpcrdmax_xprt_lookup_pin(rpc_xprt *xprt, unsigned int xid) noexcept
{
	auto *x = fake_of(xprt);
	rpcrdmax::ktl::SpinLockBhGuard g(&x->lock);

	if (x->rqst && x->xid == xid)
		return x->rqst;
	x->bad_xids.add_return(1); /* as xprt_lookup_rqst() counts a miss */
	return nullptr;
}

extern "C" void rpcrdmax_xprt_complete_unpin(rpc_xprt *xprt, rpc_rqst *rqst, int status) noexcept
{
	auto *x = fake_of(xprt);

	{
		rpcrdmax::ktl::SpinLockBhGuard g(&x->lock);
		if (rqst == x->rqst) {
			x->status = status;
			x->rqst = nullptr;
		}
	}
	x->completions.add_return(1);
	x->completed.complete();
}

extern "C" void rpcrdmax_xprt_unpin(rpc_xprt *xprt, rpc_rqst *) noexcept
{
	fake_of(xprt)->unpins.add_return(1);
}

extern "C" void rpcrdmax_xprt_set_credits(rpc_xprt *xprt, unsigned int credits) noexcept
{
	fake_of(xprt)->credits = credits;
	fake_of(xprt)->grants++;
}

extern "C" void rpcrdmax_xprt_reset_cong(rpc_xprt *xprt) noexcept
{
	fake_of(xprt)->credits = 1;
	fake_of(xprt)->cong_resets++;
}

extern "C" void rpcrdmax_xprt_wait_for_space(rpc_xprt *xprt) noexcept
{
	fake_of(xprt)->write_space.set(1);
	fake_of(xprt)->space_waits.add_return(1);
}

/* As xprt_write_space(): only a transport whose writers are held wakes. */
extern "C" void rpcrdmax_xprt_write_space(rpc_xprt *xprt) noexcept
{
	if (fake_of(xprt)->write_space.exchange(0))
		fake_of(xprt)->space_wakes.add_return(1);
}

extern "C" bool rpcrdmax_xprt_reestablish_set(rpc_xprt *xprt) noexcept
{
	return fake_of(xprt)->reestablish_ms != 0;
}

extern "C" void rpcrdmax_xprt_set_reestablish(rpc_xprt *xprt, unsigned int ms) noexcept
{
	fake_of(xprt)->reestablish_ms = ms;
}

extern "C" unsigned long rpcrdmax_xprt_reconnect_delay(rpc_xprt *xprt) noexcept
{
	return fake_of(xprt)->left;
}

extern "C" void rpcrdmax_xprt_reconnect_backoff(rpc_xprt *xprt, unsigned int init_ms) noexcept
{
	auto *x = fake_of(xprt);
	x->backoffs++;
	x->backoff_init_ms = init_ms;
	x->reestablish_ms = rpcrdmax::ktl::max(2 * x->reestablish_ms, init_ms);
}

extern "C" void rpcrdmax_xprt_force_disconnect(rpc_xprt *xprt) noexcept
{
	fake_of(xprt)->disconnects.add_return(1);
}

/* mountstats is not read here. */
extern "C" void rpcrdmax_seq_printf(seq_file *, const char *, ...) noexcept
{
}

/* The tunables' defaults: 4 KiB Send and Receive buffers. */
extern "C" unsigned int rpcrdmax_tunable_inline_read(void) noexcept
{
	return rpcrdmax::kunit_marshal::kInline;
}

extern "C" unsigned int rpcrdmax_tunable_inline_write(void) noexcept
{
	return rpcrdmax::kunit_marshal::kInline;
}

extern "C" unsigned int rpcrdmax_tunable_max_version(void) noexcept
{
	return rpcrdmax::kunit_marshal::g_max_version;
}

extern "C" void rpcrdmax_clnt_count_version(unsigned int vers) noexcept
{
	if (vers == 1 || vers == 2)
		__atomic_fetch_add(&rpcrdmax::kunit_marshal::g_vers_counted[vers - 1], 1,
				   __ATOMIC_RELAXED);
}

namespace rpcrdmax::kunit_marshal {

/* A pattern that does not repeat every 256 octets. */
static void fill(u8 *p, u32 n, u32 seed)
{
	for (u32 i = 0; i < n; i++)
		p[i] = (u8)((i * 2654435761u + seed * 40503u) >> 11);
}

/* An RPC Reply's first words: XID and msg_type REPLY, then a pattern. */
static void fill_reply(u8 *p, u32 n, u32 xid, u32 seed)
{
	fill(p, n, seed);
	if (n >= 8) {
		store_be32(p, xid);
		store_be32(p + 4, 1);
	}
}

/* ---- the responder -------------------------------------------------- */

struct Responder {
	End end;
	Listener listener;
	/* Mapped after the connection exists; unmapped before it goes. */
	DmaBuf rmap, smap, dmap;
	u8 *rbufs = nullptr;	/* kRecvs Receive buffers of kInline */
	u8 *sbuf = nullptr;	/* one Send buffer */
	u8 *data = nullptr;	/* RDMA Read target, RDMA Write source */
	WcWait recvs[kRecvs];
	WcWait send, rdma;
	u32 next_recv = 0;
	core::V1Header call;	/* the last Call decoded (a version 2 one: its view) */
	core::V1Header reply;	/* the Reply being built */
	u32 grant = kCredits;	/* the rdma_credit its Replies carry */
	u32 want_vers = 1;	/* the version take_call() expects */
	u32 call_dir = 0, call_inv = 0; /* a version 2 Call's direction, inv_handle */
	u32 call_bytes = 0;	/* the last Call's whole message */
	bool repost = true;	/* take_call() posts the Receive it took again */
	u8 msg[kData + kInline]; /* the last Call's RPC message, rebuilt */
	u32 msg_len = 0;

	~Responder()
	{
		rmap.unmap();
		smap.unmap();
		dmap.unmap();
		delete[] rbufs;
		delete[] sbuf;
		delete[] data;
	}

	u32 lkey() const { return end.pd.local_dma_lkey(); }

	Result<void> post_recv(u32 i)
	{
		rpcrdmax_sge sge = rmap.sge(lkey());
		sge.addr += (u64)i * kInline;
		sge.length = kInline;
		return end.id.post_recv(&recvs[i].cqe, sge);
	}

	/* The connection is up: buffers, and every Receive posted. */
	bool ready(Reporter check)
	{
		ib_device *dev = end.id.device();
		rbufs = new (Gfp::Kernel) u8[kRecvs * kInline];
		sbuf = new (Gfp::Kernel) u8[kInline];
		data = new (Gfp::Kernel) u8[kData];
		if (!EXPECT(rbufs && sbuf && data) ||
		    !EXPECT_OK(rmap.map(dev, rbufs, kRecvs * kInline, RPCRDMAX_DMA_FROM_DEVICE)) ||
		    !EXPECT_OK(smap.map(dev, sbuf, kInline, RPCRDMAX_DMA_TO_DEVICE)) ||
		    !EXPECT_OK(dmap.map(dev, data, kData, RPCRDMAX_DMA_BIDIRECTIONAL)))
			return false;
		for (u32 i = 0; i < kRecvs; i++)
			if (!EXPECT_OK(post_recv(i)))
				return false;
		return true;
	}

	/* RDMA Read chunk @c into data + @at, one segment at a time. */
	bool pull(Reporter check, const core::ChunkRef &c, u32 at)
	{
		for (u32 i = 0; i < c.nsegs; i++) {
			const core::Segment &s = call.chunks.segment(c, i);
			if (!EXPECT(at + s.length <= kData))
				return false;
			rpcrdmax_sge sge = dmap.sge(lkey());
			sge.addr += at;
			sge.length = s.length;
			WrSpec wr = rdma_rw_wr(RPCRDMAX_WR_RDMA_READ, &sge, s.offset,
							 s.handle, rdma.cqe.raw());
			unsigned int bad;
			if (!EXPECT_OK(end.id.post_send(&wr, 1, &bad)) ||
			    !EXPECT(rdma.completion.wait_ms(kWaitMs)) ||
			    !EXPECT(rdma.wc.status == RPCRDMAX_IB_WC_SUCCESS))
				return false;
			at += s.length;
		}
		dmap.sync_for_cpu();
		return true;
	}

	/*
	 * Wait for the next Call, decode it and rebuild its RPC message in
	 * msg: the inline part with a Read chunk's data (and its XDR pad)
	 * at its position, or the Position Zero chunk's content.
	 */
	bool take_call(Reporter check)
	{
		u32 i = next_recv++ % kRecvs;
		if (!EXPECT(recvs[i].completion.wait_ms(kWaitMs)) ||
		    !EXPECT(recvs[i].wc.status == RPCRDMAX_IB_WC_SUCCESS))
			return false;
		rmap.sync_for_cpu();
		const u8 *buf = rbufs + i * kInline;
		const ConstBytes got(buf, recvs[i].wc.byte_len);
		bool ok;
		call_bytes = recvs[i].wc.byte_len;
		if (want_vers == core::kRpcRdmaVersion2) {
			auto v = core::v2_decode_msg(got, core::DecodeLimits(), &call, &call_dir,
						     &call_inv);
			ok = EXPECT(v == core::V2Verdict::Ok);
		} else {
			auto v = core::v1_decode_call(got, core::DecodeLimits(), &call);
			ok = EXPECT(v == core::V1Verdict::Ok);
		}
		ok = ok && EXPECT(call.vers == want_vers) && EXPECT(call.credits >= 1);
		const u8 *in = buf + call.hdr_len;
		msg_len = 0;
		if (ok && call.proc == core::V1Proc::NoMsg) {
			ok = EXPECT(call.chunks.has_call_chunk()) && EXPECT(call.chunks.nread == 1) &&
			     pull(check, call.chunks.read[0], 0);
			msg_len = ok ? (u32)call.chunks.chunk_length(call.chunks.read[0]) : 0;
			if (ok)
				mem_copy(msg, data, msg_len);
		} else if (ok && call.chunks.nread) {
			const core::ChunkRef &c = call.chunks.read[0];
			u32 len = (u32)call.chunks.chunk_length(c), pad = (u32)xdr_pad(len);
			ok = EXPECT(call.chunks.nread == 1) && EXPECT(c.position <= call.payload_len) &&
			     EXPECT(call.payload_len + len + pad <= sizeof(msg)) && pull(check, c, 0);
			if (ok) {
				mem_copy(msg, in, c.position);
				mem_copy(msg + c.position, data, len);
				mem_set(msg + c.position + len, 0, pad);
				mem_copy(msg + c.position + len + pad, in + c.position,
					 call.payload_len - c.position);
				msg_len = call.payload_len + len + pad;
			}
		} else if (ok) {
			mem_copy(msg, in, call.payload_len);
			msg_len = call.payload_len;
		}
		return ok && (!repost || EXPECT_OK(post_recv(i)));
	}

	/* A Reply header for the last Call, chunk lists empty. */
	core::V1Header &start_reply(core::V1Proc proc)
	{
		mem_set(&reply, 0, sizeof(reply));
		reply.xid = call.xid;
		reply.vers = want_vers;
		reply.credits = grant;
		reply.proc = proc;
		reply.chunks.clear();
		return reply;
	}

	/*
	 * Prepare RDMA Writes of @len octets of data (from data + @from) into
	 * the call's chunk @c, filling its segments in order; @written gets
	 * each segment's share.  Returns the WR count, or -1.
	 */
	int plan_writes(const core::ChunkRef &c, u32 from, u32 len, WrSpec *wrs,
			rpcrdmax_sge *sges, u32 *written, u32 max)
	{
		int n = 0;
		for (u32 i = 0; i < c.nsegs; i++) {
			const core::Segment &s = call.chunks.segment(c, i);
			u32 part = min(len, s.length);
			written[i] = part;
			if (!part)
				continue;
			if ((u32)n == max)
				return -1;
			sges[n] = dmap.sge(lkey());
			sges[n].addr += from;
			sges[n].length = part;
			wrs[n] = rdma_rw_wr(RPCRDMAX_WR_RDMA_WRITE, &sges[n], s.offset, s.handle,
					    nullptr);
			n++;
			from += part;
			len -= part;
		}
		return len ? -1 : n;
	}

	/*
	 * Send @reply, then @len octets of @rpc, behind @nw RDMA Writes from
	 * @wrs (room for one more); with Invalidate of @inv unless 0.
	 */
	bool send_reply(Reporter check, const u8 *rpc, u32 len, WrSpec *wrs,
			unsigned int nw, u32 inv)
	{
		auto enc = reply.vers == core::kRpcRdmaVersion2
				   ? core::v2_encode_msg(reply, send_dir, 0, Bytes(sbuf, kInline))
				   : core::v1_encode(reply, Bytes(sbuf, kInline));
		if (!EXPECT_OK(enc) || !EXPECT(enc.value() + len <= kInline))
			return false;
		if (len)
			mem_copy(sbuf + enc.value(), rpc, len);
		smap.sync_for_device();
		dmap.sync_for_device();
		rpcrdmax_sge sge = smap.sge(lkey());
		sge.length = enc.value() + len;
		WrSpec &s = wrs[nw];
		s = {};
		s.cqe = send.cqe.raw();
		s.opcode = inv ? RPCRDMAX_WR_SEND_INV : RPCRDMAX_WR_SEND;
		s.sge = &sge;
		s.num_sge = 1;
		s.rkey = inv;
		unsigned int bad;
		return EXPECT_OK(end.id.post_send(wrs, nw + 1, &bad)) &&
		       EXPECT(send.completion.wait_ms(kWaitMs)) &&
		       EXPECT(send.wc.status == RPCRDMAX_IB_WC_SUCCESS);
	}

	/*
	 * A backward-direction Call (RFC 8167): an RDMA_MSG with XID @xid
	 * and rdma_credit @credits carrying @rpc inline; with @chunk, a chunk
	 * too (which the client does not take: it supports backward
	 * messages inline only): a Read chunk at the message's end, a Write
	 * chunk, or a Position Zero Read chunk, which no RDMA_MSG may carry.
	 */
	enum class Chunk { None, Read, Write, PositionZero };
	bool send_backward(Reporter check, u32 xid, u32 credits, const u8 *rpc, u32 len,
			   Chunk chunk = Chunk::None)
	{
		const core::Segment seg = { 0x1234, 512, 0x10000 };
		WrSpec wr[1];
		mem_set(&reply, 0, sizeof(reply));
		reply.xid = xid;
		reply.vers = want_vers;
		reply.credits = credits;
		reply.proc = core::V1Proc::Msg;
		reply.chunks.clear();
		if ((chunk == Chunk::Read || chunk == Chunk::PositionZero) &&
		    !EXPECT(reply.chunks.add_read_segment(chunk == Chunk::Read ? len & ~3u : 0,
							  seg) == core::ListError::None))
			return false;
		if (chunk == Chunk::Write &&
		    !(EXPECT(reply.chunks.add_write_chunk() == core::ListError::None) &&
		      EXPECT(reply.chunks.add_write_segment(seg) == core::ListError::None)))
			return false;
		send_dir = core::kMsgCall;
		bool ok = send_reply(check, rpc, len, wr, 0, 0);
		send_dir = core::kMsgReply;
		return ok;
	}
	u32 send_dir = core::kMsgReply; /* a version 2 message's rdma_direction */

	/* The next message, as received: its octets in *@msg, its length
	 * returned (0 when none came). */
	u32 take_raw(Reporter check, const u8 **msg)
	{
		u32 i = next_recv++ % kRecvs;
		if (!EXPECT(recvs[i].completion.wait_ms(kWaitMs)) ||
		    !EXPECT(recvs[i].wc.status == RPCRDMAX_IB_WC_SUCCESS))
			return 0;
		rmap.sync_for_cpu();
		mem_copy(msg_raw, rbufs + i * kInline, recvs[i].wc.byte_len);
		*msg = msg_raw;
		return EXPECT_OK(post_recv(i)) ? recvs[i].wc.byte_len : 0;
	}
	u8 msg_raw[kInline];

	/* @len octets of @msg as they are: a transport header made by hand. */
	bool send_raw(Reporter check, const u8 *msg, u32 len)
	{
		WrSpec wr = {};
		unsigned int bad;

		mem_copy(sbuf, msg, len);
		smap.sync_for_device();
		rpcrdmax_sge sge = smap.sge(lkey());
		sge.length = len;
		wr.cqe = send.cqe.raw();
		wr.opcode = RPCRDMAX_WR_SEND;
		wr.sge = &sge;
		wr.num_sge = 1;
		return EXPECT_OK(end.id.post_send(&wr, 1, &bad)) &&
		       EXPECT(send.completion.wait_ms(kWaitMs)) &&
		       EXPECT(send.wc.status == RPCRDMAX_IB_WC_SUCCESS);
	}

	/* An inline RDMA_MSG Reply of @len octets (in data), no chunks. */
	bool send_inline(Reporter check, const u8 *rpc, u32 len, u32 inv)
	{
		WrSpec wr[1];
		start_reply(core::V1Proc::Msg);
		return send_reply(check, rpc, len, wr, 0, inv);
	}
};

/* ---- one client, one responder, one request ------------------------- */

struct Bench {
	Responder *r = nullptr;
	FakeXprt *x = nullptr;
	rpc_xprt *kx = nullptr;	/* the struct rpc_xprt the ClntEp reports to */
	u32 bc_slots = 0;	/* its backchannel slots; 0: no callback service */
	u32 slots = 32;		/* its slot table (rdma_slot_table_entries) */
	bool data_touch = false; /* the RPC's auth covers its data (krb5i/krb5p) */
	ClntEp *ep = nullptr;
	void *call = nullptr, *rcvbuf = nullptr;
	rpc_rqst *rqst = nullptr;
	u32 xid = 0;
	rpcrdmax_kunit_xdr snd = {}, rcv = {};
	u8 *sent = nullptr;	/* the Call's RPC message as written */
	u8 *got = nullptr;	/* scratch for reading the receive buffer */
	int status = 0;

	u32 snd_len() const { return snd.head_len + snd.page_len + snd.tail_len; }
	u32 rcv_len() const { return rcv.head_len + rcv.page_len + rcv.tail_len; }
};

static bool bench_connect(Reporter check, Bench *b, core::PrivData pd, unsigned short port);
static constexpr core::PrivData kDefaultPd = { kInline, kInline, true };

/* Listen with @pd, connect the client, and wait until the responder is up. */
static bool bench_up(Reporter check, Bench *b, core::PrivData pd)
{
	b->r = new (Gfp::Kernel) Responder;
	b->x = new (Gfp::Kernel) FakeXprt;
	b->sent = new (Gfp::Kernel) u8[kData + kInline];
	b->got = new (Gfp::Kernel) u8[kData + kInline];
	if (!EXPECT(b->r && b->x && b->sent && b->got))
		return false;
	b->x->slots = b->slots;
	b->kx = rpcrdmax_kunit_xprt_new(b->x, b->bc_slots, b->slots);
	if (!EXPECT(b->kx != nullptr))
		return false;
	b->ep = static_cast<ClntEp *>(rpcrdmax_clnt_create(b->kx));
	if (b->ep)
		rpcrdmax_kunit_xprt_set_ep(b->kx, b->ep);
	return EXPECT(b->ep != nullptr) && bench_connect(check, b, pd, kPort);
}

/* The responder listens on @port with @pd and the client connects to it:
 * each connection starts sunrpc's congestion window again (no slot taken,
 * a grant of one), the slots of the last one given up. */
static bool bench_connect(Reporter check, Bench *b, core::PrivData pd, unsigned short port)
{
	SockAddr addr;
	Listener &l = b->r->listener;
	const u32 resets = b->x->cong_resets;
	l.conn = &b->r->end;
	l.pd = pd;
	l.ord = 4;
	return EXPECT_OK(addr.parse(kAddr, port)) &&
	       EXPECT_OK(l.id.create(&l, rpcrdmax_kunit_init_net())) && EXPECT_OK(l.id.bind(addr)) &&
	       EXPECT_OK(l.id.listen(4)) &&
	       EXPECT(b->ep->connect(addr.get(), sizeof(addr.raw.bytes)) == 0) &&
	       EXPECT(b->x->cong_resets == resets + 1) && EXPECT(b->x->credits == 1) &&
	       EXPECT(l.requested.wait_ms(kWaitMs)) &&
	       EXPECT(b->r->end.established.wait_ms(kWaitMs)) && b->r->ready(check);
}

/* The responder goes away with its connection (the client's is closed
 * first), and the same client transport connects to a new one on @port. */
static bool bench_reconnect(Reporter check, Bench *b, unsigned short port)
{
	b->ep->close();
	if (b->r->end.id.get() && b->r->end.id.qp()) {
		(void)b->r->end.disconnected.wait_ms(kWaitMs);
		b->r->end.id.drain();
	}
	delete b->r;
	/* the old connection's end told sunrpc (as a lost one does) */
	b->x->disconnects.set(0);
	b->r = new (Gfp::Kernel) Responder;
	return EXPECT(b->r != nullptr) && bench_connect(check, b, kDefaultPd, port);
}

/* An RPC's buffers from the endpoint, as rpcrdmax_clnt_buf_alloc() takes
 * them for an rpc_rqst (a Bench makes its rqst around them after), and
 * back.  A Bench's rqst gives them back through the entry itself. */
static int buf_alloc(ClntEp *ep, u32 callsize, u32 rcvsize, void **call, void **rcv)
{
	xprtrdma::Req *req = ep->buf_alloc(callsize, rcvsize, RPCRDMAX_GFP_KERNEL);

	if (!req)
		return -err::ENOMEM;
	*call = req->call;
	*rcv = req->rcv;
	return 0;
}

static void buf_free(ClntEp *ep, void *call)
{
	ep->buf_free(xprtrdma::Req::from_call_buffer(call));
}

/* Give back a Bench's request and its buffers (rpcrdmax_clnt_buf_free
 * through its rq_buffer, which rpcrdmax_kunit_rqst_new() set). */
static void bench_release(Bench *b)
{
	if (b->rqst)
		rpcrdmax_clnt_buf_free(b->ep, b->rqst);
	else if (b->call)
		buf_free(b->ep, b->call);
	if (b->rqst)
		rpcrdmax_kunit_rqst_free(b->rqst);
}

/*
 * Build the request (rq_snd_buf holds a pattern with the DDP item's XDR
 * pad zeroed, rq_rcv_buf is poisoned), ready for the client to transmit.
 */
static bool bench_prepare(Reporter check, Bench *b, u32 xid)
{
	u32 call_room = b->snd.head_len + b->snd.tail_len;
	u32 rcv_room = b->rcv.head_len + b->rcv.tail_len;

	b->xid = xid;
	if (!EXPECT(b->snd_len() <= kData + kInline && b->rcv_len() <= kData + kInline) ||
	    !EXPECT(buf_alloc(b->ep, call_room, rcv_room, &b->call, &b->rcvbuf) == 0))
		return false;
	b->rqst = rpcrdmax_kunit_rqst_new(xid, b->call, b->rcvbuf, &b->snd, &b->rcv);
	if (!EXPECT(b->rqst != nullptr))
		return false;
	if (b->data_touch)
		rpcrdmax_kunit_rqst_set_data_touch(b->rqst);
	fill(b->sent, b->snd_len(), xid);
	if (b->snd_len() >= 4) /* an RPC Call begins with its XID, as sunrpc's do */
		store_be32(b->sent, xid);
	if (b->snd.ddp)
		mem_set(b->sent + b->snd.head_len + b->snd.page_len, 0, xdr_pad(b->snd.page_len));
	mem_set(b->got, kPoison, b->rcv_len());
	if (!EXPECT(rpcrdmax_kunit_rqst_write(b->rqst, false, 0, b->sent, b->snd_len()) == 0) ||
	    !EXPECT(rpcrdmax_kunit_rqst_write(b->rqst, true, 0, b->got, b->rcv_len()) == 0))
		return false;
	SpinLockBhGuard g(&b->x->lock);
	b->x->rqst = b->rqst;
	b->x->xid = xid;
	return true;
}

/* bench_prepare(), and the client transmits the request. */
static bool bench_send(Reporter check, Bench *b, u32 xid)
{
	return bench_prepare(check, b, xid) && EXPECT(b->ep->send(b->rqst, xid) == 0);
}

/* The responder has the Call: it must be the message the client was given. */
static bool call_matches(Reporter check, Bench *b)
{
	Responder *r = b->r;
	return EXPECT(r->call.xid == b->xid) && EXPECT(r->msg_len == b->snd_len()) &&
	       EXPECT(mem_compare(r->msg, b->sent, b->snd_len()) == 0);
}

/* Connect with @pd, send the request as b->snd/b->rcv say, and take the
 * Call at the responder: true when it arrived as the client was given it. */
static bool bench_call(Reporter check, Bench *b, core::PrivData pd, u32 xid)
{
	return bench_up(check, b, pd) && bench_send(check, b, xid) && b->r->take_call(check) &&
	       call_matches(check, b);
}

/* Wait for the RPC to complete; its status in b->status, its buffer in
 * b->got (a lent Reply's head may be cut to its Receive buffer: what
 * the buffer no longer holds reads as poison). */
static bool bench_done(Reporter check, Bench *b)
{
	if (!EXPECT(b->x->completed.wait_ms(kWaitMs)))
		return false;
	b->status = b->x->status;
	const u32 len = min(b->rcv_len(), xprtrdma::rqst_xdr(b->rqst, true).buflen());
	mem_set(b->got + len, kPoison, b->rcv_len() - len);
	return EXPECT(b->x->completions.read() == 1) && EXPECT(b->x->disconnects.read() == 0) &&
	       EXPECT(b->x->bad_xids.read() == 0) &&
	       EXPECT(rpcrdmax_kunit_rqst_read(b->rqst, true, 0, b->got, len) == 0);
}

static bool all_poison(const u8 *p, u32 n)
{
	for (u32 i = 0; i < n; i++)
		if (p[i] != kPoison)
			return false;
	return true;
}

/* Release the last request, so that another one can be made. */
static void bench_next(Bench *b)
{
	bench_release(b);
	b->call = b->rqst = nullptr;
	b->x->completions.set(0);
}

static void bench_down(Bench *b)
{
	bench_release(b);
	if (b->ep) {
		b->ep->close();
		delete b->ep;
	}
	if (b->r && b->r->end.id.get() && b->r->end.id.qp()) {
		(void)b->r->end.disconnected.wait_ms(kWaitMs);
		b->r->end.id.drain();
	}
	delete b->r;
	if (b->kx)
		(void)rpcrdmax_kunit_xprt_free(b->kx);
	delete b->x;
	delete[] b->sent;
	delete[] b->got;
}

/* ---- cases ---------------------------------------------------------- */

static void inline_case(Reporter check)
{
	Bench b;
	/* 508 octets with a small DDP item (298 from page offset 40, its
	 * 2-octet pad in the tail): all inline, the item pulled up. */
	b.snd = { 200, 40, 298, 2 + 8, true };
	b.rcv = { 512, 0, 0, 0, false };
	u8 rpc[100];

	if (bench_call(check, &b, kDefaultPd, 0x11110001)) {
		const core::ChunkLists &cl = b.r->call.chunks;
		EXPECT(b.r->call.proc == core::V1Proc::Msg);
		EXPECT(cl.empty());
		EXPECT(b.ep->stats.read(ClntStat::PullupBytes) == 298 + 2 + 8);
		fill_reply(rpc, sizeof(rpc), b.xid, 7);
		if (b.r->send_inline(check, rpc, sizeof(rpc), 0) && bench_done(check, &b)) {
			EXPECT(b.status == (int)sizeof(rpc));
			EXPECT(mem_compare(b.got, rpc, sizeof(rpc)) == 0);
			/* lent in place (lend_case): the RPC's own buffer untouched */
			EXPECT(all_poison(static_cast<const u8 *>(b.rcvbuf), b.rcv.head_len));
			EXPECT(b.ep->stats.read(ClntStat::LocalInvNeeded) == 0);
			EXPECT(b.ep->stats.read(ClntStat::BadReply) == 0);
		}
	}
	bench_down(&b);
}

/* Whether @rqst's Reply is read where it arrived (Conn::lend): the head
 * of rq_rcv_buf, and of rq_private_buf with it, is no longer the Reply
 * buffer at @rcvbuf. */
static bool reply_lent(Reporter check, rpc_rqst *rqst, const void *rcvbuf)
{
	const unsigned long head = xprtrdma::rqst_xdr(rqst, true).head_base();

	EXPECT(xprtrdma::rqst_private_xdr(rqst).head_base() == head);
	return head != reinterpret_cast<unsigned long>(rcvbuf);
}

/* One inline Call and its @len-octet inline Reply (seed @seed); the
 * request is kept (in b->rqst) for the case to read and free. */
static bool inline_rpc(Reporter check, Bench *b, u32 xid, u8 *rpc, u32 len, u32 seed)
{
	fill_reply(rpc, len, xid, seed);
	return bench_send(check, b, xid) && b->r->take_call(check) &&
	       b->r->send_inline(check, rpc, len, 0) && bench_done(check, b) &&
	       EXPECT(b->status == (int)len) && EXPECT(mem_compare(b->got, rpc, len) == 0);
}

/*
 * An inline Reply within the head of the Reply buffer is handed to
 * sunrpc where it arrived, as stock does: rq_rcv_buf's head (and
 * rq_private_buf's) points into the Receive buffer and the RPC's own
 * buffer is not written.  Each lent Receive has a spare posted in its
 * place: with kLendRecvs lent and not given back, the next Reply is
 * copied; once one is given back (buf_free), Replies are lent again.
 * A lent Reply outlives its connection: the transport reconnects, the
 * Replies are read and then freed (under KASAN, a use after free).  A
 * head longer than the Receive buffer is cut to it.
 */
static void lend_case(Reporter check)
{
	constexpr u32 kLend = xprtrdma::kLendRecvs;
	constexpr u32 kX = 0x11118000;
	Bench b;
	rpc_rqst *kept[kLend + 1] = {};
	u8 rpc[100], want[100];
	u32 n = 0;

	b.snd = { 200, 0, 0, 0, false };
	b.rcv = { 512, 0, 0, 0, false };
	if (!bench_up(check, &b, kDefaultPd))
		goto out;
	for (; n <= kLend; n++) {
		if (!inline_rpc(check, &b, kX + n, rpc, sizeof(rpc), n))
			break;
		const bool lent = reply_lent(check, b.rqst, b.rcvbuf);
		if (!EXPECT(lent == (n < kLend)) ||
		    !EXPECT(all_poison(static_cast<const u8 *>(b.rcvbuf), sizeof(rpc)) == lent))
			break;
		kept[n] = ktl::exchange(b.rqst, nullptr);
		b.call = nullptr;
		b.x->completions.set(0);
	}
	if (!EXPECT(n == kLend + 1))
		goto out;
	/* One given back: the next Reply is lent again. */
	rpcrdmax_clnt_buf_free(b.ep, kept[0]);
	rpcrdmax_kunit_rqst_free(ktl::exchange(kept[0], nullptr));
	if (!inline_rpc(check, &b, kX + 100, rpc, sizeof(rpc), 100) ||
	    !EXPECT(reply_lent(check, b.rqst, b.rcvbuf)))
		goto out;
	bench_next(&b);
	/* The connection goes; its lent Replies stay readable. */
	if (!bench_reconnect(check, &b, kPort + 3))
		goto out;
	for (u32 i = 1; i < kLend; i++) {
		fill_reply(want, sizeof(want), kX + i, i);
		if (!EXPECT(rpcrdmax_kunit_rqst_read(kept[i], true, 0, b.got, sizeof(want)) == 0) ||
		    !EXPECT(mem_compare(b.got, want, sizeof(want)) == 0))
			break;
	}
	/* and the new connection lends its own */
	if (!inline_rpc(check, &b, kX + 200, rpc, sizeof(rpc), 200) ||
	    !EXPECT(reply_lent(check, b.rqst, b.rcvbuf)))
		goto out;
	bench_next(&b);
	/* A head longer than the Receive buffer (as a 7.x GETATTR's; the
	 * Reply chunk offered for it invalidated by the Send) is cut to the
	 * buffer, buflen with it. */
	b.rcv = { 5000, 0, 0, 0, false };
	fill_reply(rpc, sizeof(rpc), kX + 300, 300);
	if (bench_send(check, &b, kX + 300) && b.r->take_call(check) &&
	    EXPECT(b.r->call.chunks.has_reply) &&
	    b.r->send_inline(check, rpc, sizeof(rpc),
			     b.r->call.chunks.segment(b.r->call.chunks.reply, 0).handle) &&
	    bench_done(check, &b) && EXPECT(b.status == (int)sizeof(rpc)) &&
	    EXPECT(reply_lent(check, b.rqst, b.rcvbuf))) {
		const ktl::XdrBufView x = xprtrdma::rqst_xdr(b.rqst, true);
		EXPECT(x.head_len() >= sizeof(rpc) && x.head_len() < kInline);
		EXPECT(x.buflen() == x.head_len());
		EXPECT(mem_compare(b.got, rpc, sizeof(rpc)) == 0);
	}
out:
	for (rpc_rqst *r : kept)
		if (r) {
			rpcrdmax_clnt_buf_free(b.ep, r);
			rpcrdmax_kunit_rqst_free(r);
		}
	bench_down(&b);
}

/*
 * The credits asked for follow the transport's slot table
 * (rdma_slot_table_entries), at least the sysctl's minimum (4) and at
 * most what the device's queues hold, as stock asks; an RPC completes
 * with each.
 */
static void credits_case(Reporter check)
{
	const u32 slots[] = { 128, 5, 1, 16384 };
	u8 rpc[64];

	for (u32 n : slots) {
		Bench b;
		b.slots = n;
		b.snd = { 100, 0, 0, 0, false };
		b.rcv = { 256, 0, 0, 0, false };
		if (bench_call(check, &b, kDefaultPd, 0x11110100 + n)) {
			const u32 got = b.r->call.credits;
			b.x->reestablish_ms = 40000; /* backed off by failed connects */
			if (n == 16384) /* rxe: 32768 CQEs a CQ; 34 Send WRs a credit */
				EXPECT(got >= 256 && got <= 32768 / 34);
			else
				EXPECT(got == max(n, 4u));
			fill_reply(rpc, sizeof(rpc), b.xid, 11);
			if (b.r->send_inline(check, rpc, sizeof(rpc), 0) && bench_done(check, &b)) {
				EXPECT(b.status == (int)sizeof(rpc));
				/* a Reply: the next reconnect waits from the start */
				EXPECT(b.x->reestablish_ms == 0);
			}
		}
		bench_down(&b);
	}
}

/*
 * The server's grant drives sunrpc's congestion window (set_credits), set
 * only when it changes, as stock sets it: three Replies granting 32 set
 * it once; one granting 16 sets it again.  A grant of zero, which RFC
 * 8166 section 3.3.1 forbids, counts as one (a window of zero would stall
 * every Call for good): the next Calls still go, and a grant of one
 * after it changes nothing.
 */
static void cwnd_case(Reporter check)
{
	Bench b;
	u8 rpc[64];

	b.snd = { 100, 0, 0, 0, false };
	b.rcv = { 256, 0, 0, 0, false };
	if (!bench_up(check, &b, kDefaultPd)) {
		bench_down(&b);
		return;
	}
	const u32 grants[] = { 32, 32, 32, 16, 0, 1, 0, 8 };
	const u32 want_credits[] = { 32, 32, 32, 16, 1, 1, 1, 8 };
	const u32 want_calls[] = { 1, 1, 1, 2, 3, 3, 3, 4 };
	for (u32 i = 0; i < array_size(grants); i++) {
		const u32 xid = 0x11110200 + i;
		b.r->grant = grants[i];
		fill_reply(rpc, sizeof(rpc), xid, 11);
		if (!bench_send(check, &b, xid) || !b.r->take_call(check) || !call_matches(check, &b) ||
		    !b.r->send_inline(check, rpc, sizeof(rpc), 0) || !bench_done(check, &b))
			break;
		EXPECT(b.status == (int)sizeof(rpc));
		EXPECT(b.x->credits == want_credits[i]);
		EXPECT(b.x->grants == want_calls[i]);
		bench_next(&b);
	}
	bench_down(&b);
}

/*
 * An RPC's buffers come from a block an earlier RPC freed: five RPCs of
 * one size allocate one block; a larger one allocates once more, and its
 * block then serves the smaller size too.  Two RPCs at once need a
 * second block, and reuse both (one kept in last_freed_, one in the
 * cache) when two go again.  sunrpc's entries take the sizes from the
 * rpc_rqst and set (and clear) its rq_buffer and rq_rbuffer.
 */
static void buf_reuse_case(Reporter check)
{
	Bench b;
	void *call, *rcv;

	b.snd = { 100, 0, 0, 0, false };
	b.rcv = { 256, 0, 0, 0, false };
	if (!bench_up(check, &b, kDefaultPd)) {
		bench_down(&b);
		return;
	}
	const xprtrdma::Counters &st = b.ep->stats;
	const u32 sizes[][2] = { { 1000, 2000 }, { 1000, 2000 }, { 1000, 2000 }, { 1000, 2000 },
				 { 1000, 2000 }, { 6000, 9000 }, { 1000, 2000 } };
	const long long want[] = { 1, 1, 1, 1, 1, 2, 2 };
	for (u32 i = 0; i < array_size(sizes); i++) {
		if (!EXPECT(buf_alloc(b.ep, sizes[i][0], sizes[i][1], &call, &rcv) == 0))
			break;
		/* Both buffers are usable to their full size. */
		mem_set(call, 0x5a, sizes[i][0]);
		mem_set(rcv, 0xa5, sizes[i][1]);
		EXPECT(static_cast<u8 *>(rcv) >= static_cast<u8 *>(call) + sizes[i][0]);
		/* A kept request comes back with no state of the last RPC's,
		 * which this one leaves behind. */
		xprtrdma::Req *req = xprtrdma::Req::from_call_buffer(call);
		EXPECT(!req->conn && !req->rqst && !req->held && !req->inv_handle &&
		       !req->write_offered && !req->reply_offered && !req->resend_ok &&
		       !req->reply_status && !req->msg_offset && !req->sync_wait);
		req->rqst = static_cast<rpc_rqst *>(call);
		req->inv_handle = 0x77;
		req->write_offered = 4096;
		req->reply_offered = 1024;
		req->resend_ok = true;
		req->reply_status = -5;
		req->msg_offset = 28;
		buf_free(b.ep, call);
		EXPECT(st.read(ClntStat::ReqBlocks) == want[i]);
	}
	for (int round = 0; round < 2; round++) {
		void *c2, *r2;
		if (!EXPECT(buf_alloc(b.ep, 1000, 2000, &call, &rcv) == 0))
			break;
		if (!EXPECT(buf_alloc(b.ep, 1000, 2000, &c2, &r2) == 0)) {
			buf_free(b.ep, call);
			break;
		}
		EXPECT(c2 != call);
		buf_free(b.ep, call);
		buf_free(b.ep, c2);
		EXPECT(st.read(ClntStat::ReqBlocks) == 3);
	}
	/* sunrpc's entries: sized by the rpc_rqst, set and cleared in it */
	if (bench_prepare(check, &b, 0x11110020)) {
		void *const kept = b.call;
		rpcrdmax_clnt_buf_free(b.ep, b.rqst);
		EXPECT(!xprtrdma::rqst_buffer(b.rqst) &&
		       !RPCRDMAX_FIELD(void *, b.rqst, RPC_RQST_RBUFFER));
		rpcrdmax_clnt_buf_free(b.ep, b.rqst); /* none: nothing to give back */
		size_t &callsize = RPCRDMAX_FIELD_REF(size_t, b.rqst, RPC_RQST_CALLSIZE);
		const size_t room = callsize;
		callsize = size_t(1) << 31;
		EXPECT(rpcrdmax_clnt_buf_alloc(b.ep, b.rqst, RPCRDMAX_GFP_KERNEL) == -err::ENOMEM);
		EXPECT(!xprtrdma::rqst_buffer(b.rqst));
		callsize = room;
		EXPECT(rpcrdmax_clnt_buf_alloc(b.ep, b.rqst, RPCRDMAX_GFP_KERNEL) == 0);
		b.call = xprtrdma::rqst_buffer(b.rqst);
		EXPECT(b.call == kept); /* the block last freed */
		EXPECT(RPCRDMAX_FIELD(void *, b.rqst, RPC_RQST_RBUFFER) ==
		       xprtrdma::Req::from_call_buffer(b.call)->rcv);
		EXPECT(st.read(ClntStat::ReqBlocks) == 3);
	}
	bench_down(&b);
}

static void read_chunk_case(Reporter check)
{
	Bench b;
	/* WRITE-style: 8190 octets from page offset 100 (three pages); the
	 * tail starts with their 2-octet XDR pad. */
	b.snd = { 124, 100, 8190, 2 + 8, true };
	b.rcv = { 256, 0, 0, 0, false };
	u8 rpc[64];

	if (bench_call(check, &b, kDefaultPd, 0x11110002)) {
		const core::ChunkLists &cl = b.r->call.chunks;
		EXPECT(b.r->call.proc == core::V1Proc::Msg);
		EXPECT(cl.nread == 1 && cl.nwrite == 0 && !cl.has_reply);
		EXPECT(cl.read[0].position == 124);
		EXPECT(cl.chunk_length(cl.read[0]) == 8190);
		/* Inline: the head and the tail less the pad. */
		EXPECT(b.r->call.payload_len == 124 + 8);
		EXPECT(b.ep->stats.read(ClntStat::ReadChunks) == (int)cl.read[0].nsegs);
		/* Only the tail less the pad was copied from outside the head. */
		EXPECT(b.ep->stats.read(ClntStat::PullupBytes) == 8);
		fill_reply(rpc, sizeof(rpc), b.xid, 9);
		/* A plain Send: the client must invalidate its MRs itself. */
		if (b.r->send_inline(check, rpc, sizeof(rpc), 0) && bench_done(check, &b)) {
			EXPECT(b.status == (int)sizeof(rpc));
			EXPECT(mem_compare(b.got, rpc, sizeof(rpc)) == 0);
			EXPECT(b.ep->stats.read(ClntStat::LocalInvNeeded) == (int)cl.read[0].nsegs);
		}
	}
	bench_down(&b);
}

static void long_call_case(Reporter check)
{
	Bench b;
	/* Not DDP-eligible, 2200 octets, the page data crossing a page. */
	b.snd = { 600, 3000, 1500, 100, false };
	b.rcv = { 256, 0, 0, 0, false };
	u8 rpc[80];

	/* The responder takes 1 KiB Calls: the call threshold is 1 KiB. */
	if (bench_call(check, &b, { kInline, 1024, true }, 0x11110003)) {
		const core::ChunkLists &cl = b.r->call.chunks;
		EXPECT(b.r->call.proc == core::V1Proc::NoMsg);
		EXPECT(cl.has_call_chunk() && cl.nwrite == 0 && !cl.has_reply);
		EXPECT(b.r->call.payload_len == 0);
		/* Head, pages and tail are separate segments. */
		EXPECT(cl.read[0].nsegs >= 3);
		EXPECT(b.ep->stats.read(ClntStat::NomsgCalls) == 1);
		EXPECT(b.ep->stats.read(ClntStat::PullupBytes) == 0);
		fill_reply(rpc, sizeof(rpc), b.xid, 11);
		if (b.r->send_inline(check, rpc, sizeof(rpc), 0) && bench_done(check, &b)) {
			EXPECT(b.status == (int)sizeof(rpc));
			EXPECT(mem_compare(b.got, rpc, sizeof(rpc)) == 0);
			EXPECT(b.ep->stats.read(ClntStat::LocalInvNeeded) == (int)cl.read[0].nsegs);
		}
	}
	bench_down(&b);
}

/*
 * Under RPCSEC_GSS integrity or privacy no data item is DDP-eligible (RFC
 * 8166 Section 8.2.2): a Call with a WRITE-style payload goes whole as a
 * Long Call (the responder checks every octet it reads), and a READ-style
 * Reply gets a Reply chunk, not a Write chunk.
 */
static void gss_no_ddp_case(Reporter check)
{
	Bench b;
	u8 rpc[64];

	b.snd = { 124, 100, 8190, 2 + 8, true };
	b.rcv = { 120, 512, 8192, 16, true };
	b.data_touch = true;
	if (bench_call(check, &b, kDefaultPd, 0x11110009)) {
		const core::ChunkLists &cl = b.r->call.chunks;
		EXPECT(b.r->call.proc == core::V1Proc::NoMsg);
		EXPECT(cl.has_call_chunk() && cl.nread == 1);
		EXPECT(cl.nwrite == 0 && cl.has_reply);
		EXPECT(cl.chunk_length(cl.reply) == b.rcv_len());
		EXPECT(b.ep->stats.read(ClntStat::NomsgCalls) == 1);
		fill_reply(rpc, sizeof(rpc), b.xid, 19);
		if (b.r->send_inline(check, rpc, sizeof(rpc), 0) && bench_done(check, &b)) {
			EXPECT(b.status == (int)sizeof(rpc));
			EXPECT(mem_compare(b.got, rpc, sizeof(rpc)) == 0);
		}
	}
	bench_down(&b);
}

/* sunrpc's accounting of a Call sent (rqst_account_sent): octets, and
 * rq_xtime, stamped with the time send_request read before posting. */
static unsigned long bytes_sent(const rpc_rqst *rqst)
{
	return RPCRDMAX_FIELD(unsigned long, rqst, RPC_RQST_XMIT_BYTES_SENT);
}

static long long xtime(const rpc_rqst *rqst)
{
	return RPCRDMAX_FIELD(long long, rqst, RPC_RQST_XTIME);
}

/*
 * send_request's rules (ClntEp::transmit): not connected, nothing sent,
 * -ENOTCONN (the shim resets only a connected transport); no congestion
 * slot, -EBADSLT; a retransmission on the connection it went on,
 * -ENOTCONN (a reset) and nothing sent; a Call, sent, accounted, and its
 * timeouts set; a Call that expects no Reply, sent and then a reset.
 */
static void transmit_case(Reporter check)
{
	constexpr unsigned int kUp = RPCRDMAX_XMIT_CONNECTED | RPCRDMAX_XMIT_CONG;
	constexpr unsigned int kCall = RPCRDMAX_XMIT_REPLY_EXPECTED;
	const unsigned long now = 100000, to = 15000;
	const long long t = 7000000123LL; /* rq_xtime to stamp */
	Bench b, nr;
	u8 rpc[64];

	b.snd = nr.snd = { 100, 0, 0, 0, false };
	b.rcv = nr.rcv = { 256, 0, 0, 0, false };
	if (bench_up(check, &b, kDefaultPd) && bench_prepare(check, &b, 0x1111000a)) {
		xprtrdma::rqst_majortimeo(b.rqst) = now + 5;
		xprtrdma::rqst_timeout(b.rqst) = to;
		EXPECT(b.ep->transmit(b.rqst, kCall, now, t) == -err::ENOTCONN);
		EXPECT(b.ep->transmit(b.rqst, kCall | RPCRDMAX_XMIT_CONNECTED, now, t) ==
		       -err::EBADSLT);
		EXPECT(b.ep->transmit(b.rqst, kCall | kUp | RPCRDMAX_XMIT_SAME_CONNECTION, now,
				      t) == -err::ENOTCONN);
		EXPECT(bytes_sent(b.rqst) == 0 && xtime(b.rqst) == 0);
		EXPECT(xprtrdma::rqst_majortimeo(b.rqst) == now + 5);
		/* sent: the timeouts its Reply is waited for with, the major
		 * moved to one retransmit timeout from now (reply_major) */
		EXPECT(b.ep->transmit(b.rqst, kCall | kUp, now, t) == 0);
		EXPECT(bytes_sent(b.rqst) == b.snd_len() && xtime(b.rqst) == t);
		EXPECT(xprtrdma::rqst_majortimeo(b.rqst) == now + to &&
		       xprtrdma::rqst_timeout(b.rqst) == to);
		fill_reply(rpc, sizeof(rpc), b.xid, 21);
		/* the Call went out once, as given */
		if (b.r->take_call(check) && call_matches(check, &b) &&
		    b.r->send_inline(check, rpc, sizeof(rpc), 0) && bench_done(check, &b))
			EXPECT(mem_compare(b.got, rpc, sizeof(rpc)) == 0);
	}
	bench_down(&b);
	if (bench_up(check, &nr, kDefaultPd) && bench_prepare(check, &nr, 0x1111000b)) {
		xprtrdma::rqst_majortimeo(nr.rqst) = now + 5;
		xprtrdma::rqst_timeout(nr.rqst) = to;
		EXPECT(nr.ep->transmit(nr.rqst, kUp, now, t + 1) == -err::ENOTCONN);
		EXPECT(bytes_sent(nr.rqst) == nr.snd_len() && xtime(nr.rqst) == t + 1);
		/* no Reply to wait for: its timeouts as they were */
		EXPECT(xprtrdma::rqst_majortimeo(nr.rqst) == now + 5 &&
		       xprtrdma::rqst_timeout(nr.rqst) == to);
		EXPECT(nr.r->take_call(check) && call_matches(check, &nr));
	}
	bench_down(&nr);
}

/* A client transport with no connection (b.ep NULL if it could not be
 * made); false when even the stand-in transport could not. */
static bool bare_ep(Reporter check, Bench *b)
{
	b->x = new (Gfp::Kernel) FakeXprt;
	if (!EXPECT(b->x != nullptr))
		return false;
	b->kx = rpcrdmax_kunit_xprt_new(b->x, 0, b->x->slots);
	if (EXPECT(b->kx != nullptr))
		b->ep = static_cast<ClntEp *>(rpcrdmax_clnt_create(b->kx));
	return true;
}

/*
 * A connect in progress ends at once on a CM event that fails it, with an
 * errno sunrpc connects again after: the device removed or the address
 * changed, -ENETDOWN (stock's -ENODEV fails the RPCs waiting); a
 * disconnect before ESTABLISHED, -ECONNABORTED; a rejection,
 * -ECONNREFUSED.  sunrpc is not told to disconnect (nothing was
 * connected).  Once ESTABLISHED, a removal is a lost connection: the
 * wait succeeds and sunrpc is told once.
 */
static void connect_fails_case(Reporter check)
{
	static constexpr struct {
		int event, err;
		const char *reason; /* for the log line */
	} kFails[] = {
		{ RPCRDMAX_CM_DEVICE_REMOVAL, -err::ENETDOWN, "device removal" },
		{ RPCRDMAX_CM_ADDR_CHANGE, -err::ENETDOWN, "address change" },
		{ RPCRDMAX_CM_DISCONNECTED, -err::ECONNABORTED, "disconnected" },
		{ RPCRDMAX_CM_REJECTED, -err::ECONNREFUSED, "rejected" },
		{ RPCRDMAX_CM_UNREACHABLE, -err::EHOSTUNREACH, "unreachable" },
		{ RPCRDMAX_CM_ROUTE_ERROR, -err::ENETUNREACH, "route error" },
	};
	Bench b;

	if (!bare_ep(check, &b))
		return;
	for (const auto &f : kFails) {
		xprtrdma::Conn *c = b.ep ? new (Gfp::Kernel) xprtrdma::Conn(b.ep) : nullptr;
		if (!EXPECT(c != nullptr))
			break;
		rpcrdmax_cm_event_info ev = {};
		ev.event = f.event;
		EXPECT(str_equal(c->fail_reason(-err::ETIMEDOUT), "no CM event in time"));
		EXPECT(str_equal(c->fail_reason(-err::ECONNREFUSED), "failed before any CM event"));
		c->cm_event(nullptr, ev);
		auto r = c->wait_established(kWaitMs);
		EXPECT(r.is_error() && r.error().code() == f.err);
		EXPECT(str_equal(c->fail_reason(r.error().code()), f.reason));
		EXPECT(b.x->disconnects.read() == 0);
		delete c;
	}
	if (xprtrdma::Conn *c = b.ep ? new (Gfp::Kernel) xprtrdma::Conn(b.ep) : nullptr) {
		rpcrdmax_cm_event_info ev = {};
		ev.event = RPCRDMAX_CM_ESTABLISHED;
		c->cm_event(nullptr, ev);
		ev.event = RPCRDMAX_CM_DEVICE_REMOVAL;
		c->cm_event(nullptr, ev);
		c->cm_event(nullptr, ev);
		EXPECT_OK(c->wait_established(kWaitMs));
		EXPECT(b.x->disconnects.read() == 1);
		delete c;
	}
	delete b.ep;
	b.ep = nullptr;
	bench_down(&b);
}

/*
 * What a connection made on its device is freed before its CM ID, the QP
 * before the CQs and PD it uses: rdma_cm's removal of a device waits only until the IDs on it
 * are destroyed, and the device may then be freed at once (rxe and siw
 * free it on `rdma link delete`); a CQ, PD or MR freed after the ID
 * would be freed on a device that may be gone (rpcrdmax_kunit_frees
 * counts them); @mrs: the connection had MRs.
 */
static void expect_id_last(Reporter check, bool mrs)
{
	rpcrdmax_kunit_free_counts f;
	constexpr unsigned int QP = RPCRDMAX_KUNIT_FREE_QP, CQ = RPCRDMAX_KUNIT_FREE_CQ,
			       PD = RPCRDMAX_KUNIT_FREE_PD, MR = RPCRDMAX_KUNIT_FREE_MR,
			       ID = RPCRDMAX_KUNIT_FREE_ID;

	rpcrdmax_kunit_frees(&f);
	EXPECT(f.count[QP] == 1);
	EXPECT(f.count[CQ] == 2);
	EXPECT(f.count[PD] == 1);
	EXPECT(f.count[ID] == 1);
	EXPECT(!mrs || f.count[MR] > 0);
	/* the CQs and PD after the QP that uses them */
	EXPECT(f.first[CQ] > f.last[QP] && f.first[PD] > f.last[QP]);
	/* the id last */
	const unsigned int before_id[] = { QP, CQ, PD, MR };
	for (unsigned int k : before_id)
		EXPECT(f.last[k] < f.first[ID]);
}

/* A connection closed: its MRs, QP, CQs and PD go, then its CM ID. */
static void teardown_order_case(Reporter check)
{
	Bench b;

	if (bench_up(check, &b, kDefaultPd) && EXPECT(rpcrdmax_kunit_watch_frees() == 0)) {
		b.ep->close();
		expect_id_last(check, true);
	}
	bench_down(&b);
}

/* The same for a connect that fails once the route is resolved (its
 * device's objects made): the connection is freed at once. */
static void teardown_failed_case(Reporter check)
{
	Bench b;
	SockAddr addr;

	/* no responder listens on kPort + 7: the connect is rejected */
	if (bare_ep(check, &b) && EXPECT(b.ep != nullptr) &&
	    EXPECT_OK(addr.parse(kAddr, kPort + 7)) && EXPECT(rpcrdmax_kunit_watch_frees() == 0)) {
		EXPECT(b.ep->connect(addr.get(), sizeof(addr.raw.bytes)) != 0);
		expect_id_last(check, true);
	}
	delete b.ep;
	b.ep = nullptr;
	bench_down(&b);
}

/*
 * sunrpc's ->connect waits as stock's does: the first attempt at once,
 * setting the reconnect wait to 5 s; each later one what sunrpc has left
 * of that wait, which then backs off from 5 s.
 */
static void connect_delay_case(Reporter check)
{
	Bench b;

	if (!bare_ep(check, &b))
		return;
	if (EXPECT(b.ep != nullptr)) {
		EXPECT(b.ep->connect_delay() == 0);
		EXPECT(b.x->reestablish_ms == 5000 && b.x->backoffs == 0);
		b.x->left = 1234;
		EXPECT(b.ep->connect_delay() == 1234);
		EXPECT(b.x->backoffs == 1 && b.x->backoff_init_ms == 5000);
		b.x->left = 0;
		EXPECT(b.ep->connect_delay() == 0);
		EXPECT(b.x->backoffs == 2);
	}
	delete b.ep;
	b.ep = nullptr;
	bench_down(&b);
}

/*
 * A hard Call waits for its Reply at least one retransmit timeout from
 * its transmission (ClntEp::reply_major); a soft one with its own major
 * timeout.  late_call_count counts the Calls sent after theirs ran out.
 */
static void reply_major_case(Reporter check)
{
	Bench b;

	if (!bare_ep(check, &b))
		return;
	if (EXPECT(b.ep != nullptr)) {
		const unsigned long now = 100000, to = 15000;
		xprtrdma::Counters &s = b.ep->stats;

		/* a major timeout beyond one retransmit timeout stays */
		EXPECT(b.ep->reply_major(now, now + 3 * to, to, false) == now + 3 * to);
		EXPECT(b.ep->reply_major(now, now + to, to, false) == now + to);
		EXPECT(s.read(ClntStat::LateCalls) == 0);
		/* sooner: moved to one retransmit timeout from now */
		EXPECT(b.ep->reply_major(now, now + 5, to, false) == now + to);
		EXPECT(s.read(ClntStat::LateCalls) == 0);
		/* run out while the Call waited to be sent: moved, counted */
		EXPECT(b.ep->reply_major(now, now - 4 * to, to, false) == now + to);
		EXPECT(b.ep->reply_major(now, now, to, false) == now + to);
		EXPECT(s.read(ClntStat::LateCalls) == 2);
		/* soft: its own, even run out */
		EXPECT(b.ep->reply_major(now, now - 4 * to, to, true) == now - 4 * to);
		EXPECT(b.ep->reply_major(now, now + 5, to, true) == now + 5);
		EXPECT(s.read(ClntStat::LateCalls) == 2);
		/* across the jiffies wrap */
		const unsigned long near = (unsigned long)-100;
		EXPECT(b.ep->reply_major(near, near + 3 * to, to, false) == near + 3 * to);
		EXPECT(b.ep->reply_major(near, near - 50, to, false) == near + to);
		EXPECT(s.read(ClntStat::LateCalls) == 3);
	}
	delete b.ep;
	b.ep = nullptr;
	bench_down(&b);
}

/* A READ-style request: 8 KiB of DDP-eligible room from page offset 512. */
static void read_style(Bench *b)
{
	b->snd = { 120, 0, 0, 0, false };
	b->rcv = { 120, 512, 8192, 16, true };
}

/* The Call offered one Write chunk of the whole page room, and no Reply chunk. */
static bool offered_write(Reporter check, Bench *b)
{
	const core::ChunkLists &cl = b->r->call.chunks;
	return EXPECT(b->r->call.proc == core::V1Proc::Msg) && EXPECT(cl.nread == 0) &&
	       EXPECT(cl.nwrite == 1) && EXPECT(!cl.has_reply) &&
	       EXPECT(cl.chunk_length(cl.write[0]) == 8192);
}

/*
 * Answer a READ-style Call: RDMA Write @len octets into its Write chunk,
 * report @reported, and Send @rpc (@rlen octets); Invalidate @inv.
 */
static bool reply_write(Reporter check, Bench *b, u32 len, u32 reported, const u8 *rpc,
			u32 rlen, u32 inv)
{
	Responder *r = b->r;
	const core::ChunkRef &c = r->call.chunks.write[0];
	WrSpec wrs[RPCRDMAX_MAX_WR_CHAIN];
	rpcrdmax_sge sges[RPCRDMAX_MAX_WR_CHAIN];
	u32 written[core::kPlanMaxSegs];

	if (!EXPECT(c.nsegs <= core::kPlanMaxSegs))
		return false;
	int n = r->plan_writes(c, 0, len, wrs, sges, written, RPCRDMAX_MAX_WR_CHAIN - 1);
	if (!EXPECT(n >= 0))
		return false;
	core::V1Header &h = r->start_reply(core::V1Proc::Msg);
	bool ok = EXPECT(h.chunks.add_write_chunk() == core::ListError::None);
	for (u32 i = 0; ok && i < c.nsegs; i++) {
		core::Segment s = r->call.chunks.segment(c, i);
		s.length = i == 0 ? written[0] + (reported - len) : written[i];
		ok = EXPECT(h.chunks.add_write_segment(s) == core::ListError::None);
	}
	return ok && r->send_reply(check, rpc, rlen, wrs, (unsigned int)n, inv);
}

static void write_chunk_case(Reporter check)
{
	Bench b;
	constexpr u32 kLen = 5001, kPad = 3;
	u8 rpc[120 + 8];

	read_style(&b);
	if (bench_call(check, &b, kDefaultPd, 0x11110004) && offered_write(check, &b)) {
		const core::ChunkLists &cl = b.r->call.chunks;
		fill(b.r->data, kLen, 13);
		fill_reply(rpc, sizeof(rpc), b.xid, 15);
		/* Send with Invalidate of the Write chunk's (only) rkey. */
		EXPECT(cl.write[0].nsegs == 1);
		u32 rkey = cl.segment(cl.write[0], 0).handle;
		if (reply_write(check, &b, kLen, kLen, rpc, sizeof(rpc), rkey) &&
		    bench_done(check, &b)) {
			const u8 *pages = b.got + 120, *tail = pages + 8192;
			/* The inline Reply plus the data rounded up. */
			EXPECT(b.status == (int)(sizeof(rpc) + kLen + kPad));
			EXPECT(mem_compare(b.got, rpc, 120) == 0);
			EXPECT(mem_compare(pages, b.r->data, kLen) == 0);
			EXPECT(tail[0] == 0 && tail[1] == 0 && tail[2] == 0);
			EXPECT(mem_compare(tail + kPad, rpc + 120, 8) == 0);
			EXPECT(all_poison(tail + kPad + 8, 16 - kPad - 8));
			EXPECT(b.ep->stats.read(ClntStat::WriteChunks) == 1);
			EXPECT(b.ep->stats.read(ClntStat::ReplyBytes) == kLen);
			EXPECT(b.ep->stats.read(ClntStat::FixupBytes) == (long long)sizeof(rpc));
			/* The server retired the one MR: no LOCAL_INV. */
			EXPECT(b.ep->stats.read(ClntStat::LocalInvNeeded) == 0);
		}
	}
	bench_down(&b);
}

/*
 * An MR released is the next one registered (Conn::spare_mr_, no lock):
 * one READ-style RPC at a time, each one's first segment is the MR the
 * RPC before released last, registered again under the next rkey.  An
 * RPC whose page list is no data item offers a Reply chunk of a segment
 * per extent instead; the next RPC gets the last of those MRs, the
 * others having gone to the free list.  Every Reply is a plain Send:
 * each MR is invalidated by the client.
 */
static void mr_reuse_case(Reporter check)
{
	struct Step {
		u32 page_len;
		bool ddp;
	};
	static const Step steps[] = {
		{ 8192, true }, { 8192, true }, { 4096, true }, { 4096, false }, { 8192, true },
	};
	Bench b;
	u8 rpc[64];
	u32 i = 0, segs = 0, last = 0;

	read_style(&b);
	if (!bench_up(check, &b, kDefaultPd))
		goto out;
	for (; i < array_size(steps); i++) {
		const Step &st = steps[i];
		b.rcv.page_len = st.page_len;
		b.rcv.ddp = st.ddp;
		if (!bench_send(check, &b, 0x11110300 + i) || !b.r->take_call(check) ||
		    !call_matches(check, &b))
			break;
		const core::ChunkLists &cl = b.r->call.chunks;
		const core::ChunkRef &c = st.ddp ? cl.write[0] : cl.reply;
		if (!EXPECT(b.r->call.proc == core::V1Proc::Msg && cl.nread == 0) ||
		    !EXPECT(cl.nwrite == (st.ddp ? 1u : 0u) && cl.has_reply == !st.ddp) ||
		    !EXPECT(cl.chunk_length(c) == (st.ddp ? st.page_len : b.rcv_len())) ||
		    (i > 0 && !EXPECT(cl.segment(c, 0).handle == rpcrdmax_kunit_next_rkey(last))))
			break;
		last = cl.segment(c, c.nsegs - 1).handle;
		segs += c.nsegs;
		fill_reply(rpc, sizeof(rpc), b.xid, 40 + i);
		if (!b.r->send_inline(check, rpc, sizeof(rpc), 0) || !bench_done(check, &b) ||
		    !EXPECT(b.status == (int)sizeof(rpc)) ||
		    !EXPECT(mem_compare(b.got, rpc, sizeof(rpc)) == 0))
			break;
		bench_next(&b);
	}
	EXPECT(i == array_size(steps));
	EXPECT(segs > array_size(steps)); /* the Reply chunk took more than one */
	EXPECT(b.ep->stats.read(ClntStat::LocalInvNeeded) == (int)segs);
out:
	bench_down(&b);
}

/*
 * The MR pool grows on demand.  Each READ-style Call holds one MR (its
 * Write chunk's) until its Reply; none comes here.  Holding enough to
 * leave fewer than kMrLowWater free queues the refill, which makes the
 * next kMrBatch; then the Calls are freed (their MRs invalidated).
 */
static void mr_pool_case(Reporter check)
{
	using xprtrdma::kMrBatch;
	constexpr u32 kHeld = kMrBatch - xprtrdma::kMrLowWater + 1;
	Bench b;
	rpc_rqst *rqsts[kHeld] = {};
	u32 held = 0;

	read_style(&b);
	if (!bench_up(check, &b, kDefaultPd) ||
	    !EXPECT(b.ep->stats.read(ClntStat::MrsAllocated) == (long long)kMrBatch))
		goto out;
	for (; held < kHeld; held++) {
		if (!bench_send(check, &b, 0x11110100 + held) || !b.r->take_call(check) ||
		    !call_matches(check, &b))
			break;
		b.call = nullptr;
		rqsts[held] = ktl::exchange(b.rqst, nullptr);
	}
	if (EXPECT(held == kHeld)) {
		for (u32 ms = 0; ms < kWaitMs; ms += 10) {
			if (b.ep->stats.read(ClntStat::MrsAllocated) >= 2 * (long long)kMrBatch)
				break;
			rpcrdmax_msleep(10);
		}
		EXPECT(b.ep->stats.read(ClntStat::MrsAllocated) == 2 * (long long)kMrBatch);
	}
out:
	for (u32 i = 0; i < held; i++) {
		rpcrdmax_clnt_buf_free(b.ep, rqsts[i]);
		rpcrdmax_kunit_rqst_free(rqsts[i]);
	}
	bench_down(&b);
}

/*
 * RFC 8797 Section 4.1: a Reply's Send With Invalidate may retire only
 * an rkey of its own RPC.  Two RPCs are outstanding, each with its own
 * Write chunk MR; the second one's Reply invalidates the first one's
 * rkey - a live rkey of this client, but not this RPC's - and is
 * refused: a bad reply, the connection reset, the RPC not completed.
 */
static void foreign_rkey_case(Reporter check)
{
	Bench b;
	constexpr u32 kLen = 100;
	u8 rpc[128];
	rpc_rqst *first_rqst = nullptr;

	read_style(&b);
	if (!bench_call(check, &b, kDefaultPd, 0x11110030) || !offered_write(check, &b)) {
		bench_down(&b);
		return;
	}
	const core::ChunkLists &cl = b.r->call.chunks;
	const u32 first = cl.segment(cl.write[0], 0).handle;
	/* the first RPC stays outstanding, its MR live */
	b.call = nullptr;
	first_rqst = ktl::exchange(b.rqst, nullptr);
	if (bench_send(check, &b, 0x11110031) && b.r->take_call(check) &&
	    call_matches(check, &b) && offered_write(check, &b) &&
	    EXPECT(cl.segment(cl.write[0], 0).handle != first)) {
		fill(b.r->data, kLen, 41);
		fill_reply(rpc, sizeof(rpc), b.xid, 43);
		const int lost = b.x->disconnects.read();
		if (reply_write(check, &b, kLen, kLen, rpc, sizeof(rpc), first)) {
			for (u32 i = 0; i < kWaitMs / 10 && b.x->disconnects.read() == lost; i++)
				rpcrdmax_msleep(10);
			EXPECT(b.x->disconnects.read() == lost + 1);
			EXPECT(b.x->completions.read() == 0);
			EXPECT(b.ep->stats.read(ClntStat::BadReply) == 1);
		}
	}
	rpcrdmax_clnt_buf_free(b.ep, first_rqst);
	rpcrdmax_kunit_rqst_free(first_rqst);
	bench_down(&b);
}

/*
 * RFC 8166 Sections 4.5.4 and 8.1.3: an RPC that ends with its Write
 * chunk's MR still registered (no Reply came: a signal, a soft timeout)
 * has it invalidated in buf_free before its pages go back.  When that
 * LOCAL_INV cannot complete in time - here it waits behind a Send that
 * the responder, its QP put in the error state without a word to the
 * client, never acknowledges - the client disconnects, which flushes
 * both, and buf_free returns only once the flushed LOCAL_INV completed.
 */
static void inv_fence_case(Reporter check)
{
	Bench b;

	read_style(&b);
	if (!bench_call(check, &b, kDefaultPd, 0x11110040) || !offered_write(check, &b)) {
		bench_down(&b);
		return;
	}
	rpc_rqst *rqst = b.rqst;
	b.call = b.rqst = nullptr;
	b.r->end.id.drain();
	b.snd = { 100, 0, 0, 0, false };
	b.rcv = { 256, 0, 0, 0, false };
	const int lost = b.x->disconnects.read();
	EXPECT(bench_send(check, &b, 0x11110041));
	b.ep->invalidate_ms = 100;
	rpcrdmax_clnt_buf_free(b.ep, rqst);
	EXPECT(xprtrdma::rqst_buffer(rqst) == nullptr);
	EXPECT(b.ep->stats.read(ClntStat::LocalInvNeeded) == 1);
	EXPECT(b.ep->stats.read(ClntStat::InvFenced) == 1);
	EXPECT(b.x->disconnects.read() == lost + 1);
	rpcrdmax_kunit_rqst_free(rqst);
	bench_down(&b);
}

/*
 * A Call's Send that completes only after its Reply arrived (the
 * Receive and Send CQs keep no order between them): the responder, its
 * Receives taken and not posted again, answers Calls it has not
 * received, whose Sends meanwhile wait for a Receive (RNR, retried
 * without end).  Each RPC completes and its request goes back, to be
 * made again for the next Call with other octets; the Send buffers stay
 * with their Sends, so once all of them are in flight the next Call
 * waits: -EAGAIN, sunrpc's writers held (XPRT_WRITE_SPACE, counted in
 * empty_sendctx_q).  When the responder posts its Receives again, every
 * Call arrives as it was sent, the first one too, the Sends' completion
 * lets the writers go on, and the transport goes on.
 */
static void send_held_case(Reporter check)
{
	Bench b;
	constexpr u32 kLen = 100, kHeld = xprtrdma::send_bufs(4);
	u8 rpc[64];
	u8 *want = new (Gfp::Kernel) u8[(kHeld + 1) * kLen]; /* the held Calls as sent */

	b.slots = 4; /* the least a connection asks for: kHeld Send buffers */
	b.snd = { kLen, 0, 0, 0, false };
	b.rcv = { 256, 0, 0, 0, false };
	if (!EXPECT(want != nullptr) || !bench_up(check, &b, kDefaultPd)) {
		delete[] want;
		bench_down(&b);
		return;
	}
	Responder *r = b.r;
	r->repost = false;
	bool ok = true;
	for (u32 i = 0; ok && i < kRecvs; i++) {
		ok = inline_rpc(check, &b, 0x11110300 + i, rpc, sizeof(rpc), i);
		bench_next(&b);
	}
	/* Every Call from here waits for a Receive; each is answered anyway,
	 * until no Send buffer is left (the last Replies' Sends may still
	 * hold one or two of them when this starts). */
	u32 held = 0;
	bool refused = false;
	while (ok && !refused && held <= kHeld) {
		const u32 xid = 0x11110310 + held;
		ok = bench_prepare(check, &b, xid);
		const int rc = ok ? b.ep->send(b.rqst, xid) : 0;
		refused = rc == -err::EAGAIN;
		ok = ok && (refused || EXPECT(rc == 0));
		if (ok && !refused) {
			mem_copy(want + held * kLen, b.sent, kLen);
			r->call.xid = xid;
			fill_reply(rpc, sizeof(rpc), xid, held);
			ok = r->send_inline(check, rpc, sizeof(rpc), 0) && bench_done(check, &b) &&
			     EXPECT(b.status == (int)sizeof(rpc));
			held++;
		}
		bench_next(&b);
	}
	EXPECT(refused);
	EXPECT(held >= kHeld - 2 && held <= kHeld);
	EXPECT(b.ep->stats.read(ClntStat::EmptySendctx) == 1);
	EXPECT(b.x->space_waits.read() == 1 && b.x->write_space.read() == 1);
	EXPECT(b.x->space_wakes.read() == 0);
	/* Receives again: the held Calls arrive, as they were sent. */
	r->repost = true;
	for (u32 i = 0; ok && i < kRecvs; i++)
		ok = EXPECT_OK(r->post_recv(i));
	for (u32 i = 0; ok && i < held; i++)
		ok = r->take_call(check) && EXPECT(r->call.xid == 0x11110310 + i) &&
		     EXPECT(r->msg_len == kLen) &&
		     EXPECT(mem_compare(r->msg, want + i * kLen, kLen) == 0);
	/* their Sends' completion lets the writers go on (no Call did since
	 * the hold: the wake is the completion's), and the buffers serve the
	 * next Call */
	for (u32 ms = 0; ok && ms < kWaitMs && b.x->space_wakes.read() == 0; ms += 10)
		rpcrdmax_msleep(10);
	EXPECT(b.x->space_wakes.read() == 1 && b.x->write_space.read() == 0);
	if (ok)
		inline_rpc(check, &b, 0x11110321, rpc, sizeof(rpc), 9);
	EXPECT(b.x->space_waits.read() == 1);
	delete[] want;
	bench_down(&b);
}

static void reply_chunk_case(Reporter check)
{
	Bench b;
	constexpr u32 kLen = 2300;
	b.snd = { 100, 0, 0, 0, false };
	/* 2600 octets of room, not DDP-eligible: all of it a Reply chunk. */
	b.rcv = { 400, 1000, 2000, 200, false };

	/* The responder Sends at most 1 KiB: the reply threshold is 1 KiB. */
	if (bench_call(check, &b, { 1024, kInline, true }, 0x11110005)) {
		Responder *r = b.r;
		const core::ChunkLists &cl = r->call.chunks;
		EXPECT(r->call.proc == core::V1Proc::Msg);
		EXPECT(cl.nread == 0 && cl.nwrite == 0 && cl.has_reply);
		EXPECT(cl.chunk_length(cl.reply) == b.rcv_len());
		EXPECT(cl.reply.nsegs >= 3);
		EXPECT(b.ep->stats.read(ClntStat::ReplyChunks) == (int)cl.reply.nsegs);
		fill_reply(r->data, kLen, b.xid, 17);
		WrSpec wrs[RPCRDMAX_MAX_WR_CHAIN];
		rpcrdmax_sge sges[RPCRDMAX_MAX_WR_CHAIN];
		u32 written[core::kPlanMaxSegs];
		int n = EXPECT(cl.reply.nsegs <= core::kPlanMaxSegs)
				? r->plan_writes(cl.reply, 0, kLen, wrs, sges, written,
						 RPCRDMAX_MAX_WR_CHAIN - 1)
				: -1;
		core::V1Header &h = r->start_reply(core::V1Proc::NoMsg);
		bool ok = EXPECT(n > 0) &&
			  EXPECT(h.chunks.set_reply_chunk() == core::ListError::None);
		for (u32 i = 0; ok && i < cl.reply.nsegs; i++) {
			core::Segment s = cl.segment(cl.reply, i);
			s.length = written[i];
			ok = EXPECT(h.chunks.add_reply_segment(s) == core::ListError::None);
		}
		if (ok && r->send_reply(check, nullptr, 0, wrs, (unsigned int)n, 0) &&
		    bench_done(check, &b)) {
			EXPECT(b.status == (int)kLen);
			EXPECT(mem_compare(b.got, r->data, kLen) == 0);
			EXPECT(all_poison(b.got + kLen, b.rcv_len() - kLen));
			EXPECT(b.ep->stats.read(ClntStat::ReplyBytes) == kLen);
			EXPECT(b.ep->stats.read(ClntStat::LocalInvNeeded) == (int)cl.reply.nsegs);
		}
	}
	bench_down(&b);
}

/*
 * A Reply buffer that is one head larger than the reply threshold (an
 * NFSv4 GETATTR on recent kernels) is offered as a Reply chunk of one
 * segment (core::plan_one_reply, core::encode_one_reply_msg).  The first
 * Reply comes through it as RDMA_NOMSG and its MR is invalidated by us;
 * the second comes inline, the responder invalidating the MR with its
 * Send, as a server that did not need the chunk does.
 */
static void reply_chunk_head_case(Reporter check)
{
	Bench b;
	constexpr u32 kRoom = 2600, kLen = 2300, kInlineLen = 600;
	b.snd = { 100, 0, 0, 0, false };
	b.rcv = { kRoom, 0, 0, 0, false };

	if (!bench_call(check, &b, { 1024, kInline, true }, 0x11110006)) {
		bench_down(&b);
		return;
	}
	Responder *r = b.r;
	const core::ChunkLists &cl = r->call.chunks;
	auto offered_one = [&]() {
		return EXPECT(r->call.proc == core::V1Proc::Msg) &&
		       EXPECT(cl.nread == 0 && cl.nwrite == 0 && cl.has_reply) &&
		       EXPECT(cl.reply.nsegs == 1 && cl.chunk_length(cl.reply) == kRoom) &&
		       EXPECT(r->call.hdr_len == core::kMinChunkHeaderSize +
							 core::kOneReplyChunkExtra);
	};
	if (offered_one()) {
		fill_reply(r->data, kLen, b.xid, 18);
		WrSpec wrs[RPCRDMAX_MAX_WR_CHAIN];
		rpcrdmax_sge sges[RPCRDMAX_MAX_WR_CHAIN];
		u32 written[1];
		int n = r->plan_writes(cl.reply, 0, kLen, wrs, sges, written,
				       RPCRDMAX_MAX_WR_CHAIN - 1);
		core::V1Header &h = r->start_reply(core::V1Proc::NoMsg);
		core::Segment s = cl.segment(cl.reply, 0);
		s.length = written[0];
		if (EXPECT(n == 1) && EXPECT(h.chunks.set_reply_chunk() == core::ListError::None) &&
		    EXPECT(h.chunks.add_reply_segment(s) == core::ListError::None) &&
		    r->send_reply(check, nullptr, 0, wrs, (unsigned int)n, 0) &&
		    bench_done(check, &b)) {
			EXPECT(b.status == (int)kLen);
			EXPECT(mem_compare(b.got, r->data, kLen) == 0);
			EXPECT(all_poison(b.got + kLen, kRoom - kLen));
			EXPECT(b.ep->stats.read(ClntStat::ReplyChunks) == 1);
			EXPECT(b.ep->stats.read(ClntStat::LocalInvNeeded) == 1);
		}
	}
	bench_next(&b);
	if (bench_send(check, &b, 0x11110007) && r->take_call(check) && call_matches(check, &b) &&
	    offered_one()) {
		u8 rpc[kInlineLen];
		fill_reply(rpc, sizeof(rpc), b.xid, 19);
		if (r->send_inline(check, rpc, sizeof(rpc), cl.segment(cl.reply, 0).handle) &&
		    bench_done(check, &b)) {
			EXPECT(b.status == (int)sizeof(rpc));
			EXPECT(mem_compare(b.got, rpc, sizeof(rpc)) == 0);
			EXPECT(b.ep->stats.read(ClntStat::ReplyChunks) == 2);
			EXPECT(b.ep->stats.read(ClntStat::LocalInvNeeded) == 1); /* the Send invalidated it */
		}
	}
	bench_down(&b);
}

/* The Call's Reply is RDMA_ERROR with rdma_err @code (ERR_CHUNK, or
 * one RFC 8166 does not define): either way the RPC fails with -EIO,
 * under xprtrdma_err_chunk or xprtrdma_err_unrecognized. */
static void rdma_error(Reporter check, u32 code, u32 seed)
{
	Bench b;
	bool watched = false;
	unsigned int err = 0;
	const bool unrecognized = code != (u32)core::V1ErrCode::Chunk;

	read_style(&b);
	if (bench_call(check, &b, kDefaultPd, seed) && offered_write(check, &b)) {
		Responder *r = b.r;
		watched = EXPECT(rpcrdmax_kunit_watch_rdma_errs(true) == 0);
		auto enc = core::v1_encode_err_chunk(b.xid, kCredits, Bytes(r->sbuf, kInline));
		if (enc.is_ok())
			store_be32(r->sbuf + 16, code); /* rdma_err, after the fixed words */
		rpcrdmax_sge sge = r->smap.sge(r->lkey());
		WrSpec wr = {};
		unsigned int bad;
		wr.cqe = r->send.cqe.raw();
		wr.opcode = RPCRDMAX_WR_SEND;
		wr.sge = &sge;
		wr.num_sge = 1;
		if (EXPECT_OK(enc)) {
			sge.length = enc.value();
			r->smap.sync_for_device();
		}
		if (enc.is_ok() && EXPECT_OK(r->end.id.post_send(&wr, 1, &bad)) &&
		    EXPECT(r->send.completion.wait_ms(kWaitMs)) && bench_done(check, &b)) {
			EXPECT(b.status == -err::EIO);
			EXPECT(all_poison(b.got, b.rcv_len()));
			/* Not malformed: an error the RPC gets, no bad reply. */
			EXPECT(b.ep->stats.read(ClntStat::BadReply) == 0);
			EXPECT(b.ep->stats.read(ClntStat::LocalInvNeeded) == 1);
			EXPECT(rpcrdmax_kunit_rdma_errs(false, &err) == (unrecognized ? 0u : 1u));
			EXPECT(rpcrdmax_kunit_rdma_errs(true, &err) == (unrecognized ? 1u : 0u));
			EXPECT(err == (unrecognized ? code : 0u));
		}
	}
	if (watched)
		rpcrdmax_kunit_watch_rdma_errs(false);
	bench_down(&b);
}

static void rdma_error_case(Reporter check)
{
	rdma_error(check, (u32)core::V1ErrCode::Chunk, 0x11110006);
}

static void rdma_error_unknown_case(Reporter check)
{
	rdma_error(check, 9, 0x1111000a);
}

static void write_overrun_case(Reporter check)
{
	Bench b;
	u8 rpc[120 + 8];
	bool watched = false;
	unsigned int xid;

	read_style(&b);
	if (bench_call(check, &b, kDefaultPd, 0x11110007) && offered_write(check, &b)) {
		fill(b.r->data, 100, 19);
		fill_reply(rpc, sizeof(rpc), b.xid, 21);
		watched = EXPECT(rpcrdmax_kunit_watch_reply_errs(true) == 0);
		/* 100 octets written, 8192 + 4 claimed: more than offered. */
		if (reply_write(check, &b, 100, 8192 + 4, rpc, sizeof(rpc), 0) &&
		    bench_done(check, &b)) {
			EXPECT(b.status == -err::EIO);
			EXPECT(b.ep->stats.read(ClntStat::BadReply) == 1);
			/* stock's name for a Reply whose chunks do not fit the Call */
			EXPECT(rpcrdmax_kunit_reply_errs(RPCRDMAX_REPLY_ERR_HDR, &xid) == 1 &&
			       xid == b.xid);
			/* Nothing placed: head and tail keep the poison. */
			EXPECT(all_poison(b.got, 120));
			EXPECT(all_poison(b.got + 120 + 8192, 16));
			EXPECT(b.ep->stats.read(ClntStat::ReplyBytes) == 0);
			EXPECT(b.ep->stats.read(ClntStat::LocalInvNeeded) == 1);
		}
	}
	if (watched)
		rpcrdmax_kunit_watch_reply_errs(false);
	bench_down(&b);
}

/*
 * Replies the client cannot use, each named by stock's event: one shorter
 * than the fixed header (xprtrdma_reply_short_err), one of version 2
 * (_vers_err), one with an XID no Call has (_rqst_err: sunrpc's lookup
 * counts it in bad_xids), one with an unknown rdma_proc (_hdr_err).  Each
 * is dropped; the RPC's own Reply, which follows, completes it.
 */
static void reply_errs_case(Reporter check)
{
	Bench b;
	b.snd = { 200, 0, 0, 0, false };
	b.rcv = { 512, 0, 0, 0, false };
	constexpr u32 kX = 0x33330001;
	u8 rpc[100], raw[28] = {};
	bool watched = false;
	unsigned int xid;
	auto word = [&](u32 i, u32 v) { store_be32(raw + 4 * i, v); };

	if (bench_call(check, &b, kDefaultPd, 0x11110008)) {
		Responder *r = b.r;
		WrSpec wr[1];
		watched = EXPECT(rpcrdmax_kunit_watch_reply_errs(true) == 0);
		/* 12 octets: xid, vers and credits, no rdma_proc */
		word(0, kX), word(1, 1), word(2, kCredits);
		EXPECT(r->send_raw(check, raw, 12));
		/* rdma_vers 2, the rest a well-formed RDMA_MSG */
		word(0, kX + 1), word(1, 2), word(3, 0);
		EXPECT(r->send_raw(check, raw, sizeof(raw)));
		/* rdma_proc 7: no such procedure */
		word(0, kX + 3), word(1, 1), word(3, 7);
		EXPECT(r->send_raw(check, raw, sizeof(raw)));
		/* a good RDMA_MSG Reply for an XID no Call has */
		fill_reply(rpc, sizeof(rpc), kX + 2, 23);
		r->start_reply(core::V1Proc::Msg).xid = kX + 2;
		EXPECT(r->send_reply(check, rpc, sizeof(rpc), wr, 0, 0));
		/* the Call's own Reply: Receives complete in order, so the
		 * client has handled the four before it */
		fill_reply(rpc, sizeof(rpc), b.xid, 24);
		if (r->send_inline(check, rpc, sizeof(rpc), 0) &&
		    EXPECT(b.x->completed.wait_ms(kWaitMs))) {
			EXPECT(b.x->status == (int)sizeof(rpc));
			EXPECT(b.x->bad_xids.read() == 1);
			EXPECT(b.ep->stats.read(ClntStat::BadReply) == 3);
			EXPECT(rpcrdmax_kunit_reply_errs(RPCRDMAX_REPLY_ERR_SHORT, &xid) == 1 &&
			       xid == kX);
			EXPECT(rpcrdmax_kunit_reply_errs(RPCRDMAX_REPLY_ERR_VERS, &xid) == 1 &&
			       xid == kX + 1);
			EXPECT(rpcrdmax_kunit_reply_errs(RPCRDMAX_REPLY_ERR_RQST, &xid) == 1 &&
			       xid == kX + 2);
			EXPECT(rpcrdmax_kunit_reply_errs(RPCRDMAX_REPLY_ERR_HDR, &xid) == 1 &&
			       xid == kX + 3);
		}
	}
	if (watched)
		rpcrdmax_kunit_watch_reply_errs(false);
	bench_down(&b);
}

/* ---- backward direction (RFC 8167) ---------------------------------- */

/* An RPC Call message's first words: XID, msg_type CALL, rpcvers 2. */
static void fill_call(u8 *p, u32 n, u32 xid, u32 seed)
{
	fill(p, n, seed);
	store_be32(p, xid);
	store_be32(p + 4, 0);
	store_be32(p + 8, 2);
}

/* One inline RPC in the forward direction, start to end. */
static bool forward_rpc(Reporter check, Bench *b, u32 xid)
{
	u8 rpc[64];

	b->snd = { 100, 0, 0, 0, false };
	b->rcv = { 256, 0, 0, 0, false };
	fill_reply(rpc, sizeof(rpc), xid, 27);
	return bench_send(check, b, xid) && b->r->take_call(check) && call_matches(check, b) &&
	       b->r->send_inline(check, rpc, sizeof(rpc), 0) && bench_done(check, b) &&
	       EXPECT(b->status == (int)sizeof(rpc)) &&
	       EXPECT(mem_compare(b->got, rpc, sizeof(rpc)) == 0);
}

/* The service's next backward Call: it must be @call, with XID @xid. */
static rpc_rqst *bc_take(Reporter check, Bench *b, const u8 *call, u32 len, u32 xid)
{
	u8 got[512];
	unsigned int got_xid = 0;
	rpc_rqst *rq = rpcrdmax_kunit_bc_wait(b->kx, kWaitMs);

	if (!EXPECT(rq != nullptr))
		return nullptr;
	EXPECT(rpcrdmax_kunit_bc_call(rq, got, sizeof(got), &got_xid) == (int)len);
	EXPECT(got_xid == xid);
	EXPECT(mem_compare(got, call, len) == 0);
	return rq;
}

/* Answer the backward Call in @rq; the responder must get the Reply. */
static bool bc_answer(Reporter check, Bench *b, rpc_rqst *rq, u32 xid, u32 seed)
{
	Responder *r = b->r;
	u8 rep[72];

	fill_reply(rep, sizeof(rep), xid, seed);
	if (!EXPECT(rpcrdmax_kunit_bc_set_reply(rq, rep, sizeof(rep)) == 0) ||
	    !EXPECT(b->ep->bc_send(rq, xid, sizeof(rep)) == 0) || !r->take_call(check))
		return false;
	/* RFC 8167: inline, chunkless, and its rdma_credit is our backward slots. */
	return EXPECT(r->call.xid == xid) && EXPECT(r->call.proc == core::V1Proc::Msg) &&
	       EXPECT(r->call.chunks.empty()) && EXPECT(r->call.credits == xprtrdma::kBcSlots) &&
	       EXPECT(r->msg_len == sizeof(rep)) && EXPECT(mem_compare(r->msg, rep, sizeof(rep)) == 0);
}

static void bc_call_case(Reporter check)
{
	Bench b;
	u8 call[180];
	constexpr u32 kXid = 0x22220001;

	b.bc_slots = xprtrdma::kBcSlots;
	if (bench_up(check, &b, kDefaultPd)) {
		fill_call(call, sizeof(call), kXid, 23);
		rpc_rqst *rq = b.r->send_backward(check, kXid, 1, call, sizeof(call))
				   ? bc_take(check, &b, call, sizeof(call), kXid)
				   : nullptr;
		if (rq) {
			EXPECT(b.ep->stats.read(ClntStat::BackchannelCalls) == 1);
			EXPECT(bc_answer(check, &b, rq, kXid, 25));
			rpcrdmax_kunit_bc_done(rq);
		}
		/* Forward: undisturbed, no bad XID, nothing dropped. */
		EXPECT(forward_rpc(check, &b, 0x11110011));
		EXPECT(b.ep->stats.read(ClntStat::BcDropped) == 0);
		EXPECT(b.ep->stats.read(ClntStat::BadReply) == 0);
	}
	bench_down(&b);
}

/*
 * The client's answer to a backward Call with chunks (RFC 8167 Section
 * 5.3): an RDMA_ERROR / ERR_CHUNK with the Call's XID and rdma_vers and
 * our backward credits; in version 2 an RDMA2_ERROR with
 * RDMA2_ERR_BAD_XDR, the same code (the draft's Section 6.2.4).
 */
static bool bc_err_chunk(Reporter check, Responder *r, u32 xid, u32 vers)
{
	const u8 *m;
	const u32 n = r->take_raw(check, &m);

	if (vers == core::kRpcRdmaVersion2) {
		core::V2Header *h = new (Gfp::Kernel) core::V2Header;
		const bool ok = EXPECT(h != nullptr) &&
				EXPECT(core::v2_decode(ConstBytes(m, n), core::DecodeLimits(), h) ==
				       core::V2Verdict::Ok) &&
				EXPECT(h->proc == core::V2Proc::Error && h->xid == xid &&
				       h->vers == vers && h->credits == xprtrdma::kBcSlots &&
				       h->error.code == (u32)core::V2ErrCode::BadXdr);
		delete h;
		return ok;
	}
	/* xid, vers, credit, RDMA_ERROR (4), ERR_CHUNK (2) */
	return EXPECT(n == 20) && EXPECT(load_be32(m) == xid) && EXPECT(load_be32(m + 4) == vers) &&
	       EXPECT(load_be32(m + 8) == xprtrdma::kBcSlots) && EXPECT(load_be32(m + 12) == 4) &&
	       EXPECT(load_be32(m + 16) == 2);
}

/*
 * A backward Call with chunks (a Write list, a Read list) is answered
 * with ERR_CHUNK (RFC 8167 Section 5.3) and counted as dropped; one whose
 * header is malformed even as a Call (a Position Zero Read chunk in an
 * RDMA_MSG) is dropped as a bad message, unanswered; the next,
 * well-formed one is taken; a backward Reply longer than the inline
 * limit fails with -EMSGSIZE and sends nothing.
 */
static void bc_malformed_case(Reporter check)
{
	Bench b;
	u8 call[120];
	constexpr u32 kBig = RPCRDMAX_PAGE_SIZE;
	u8 *big = new (Gfp::Kernel) u8[kBig];
	constexpr u32 kXid = 0x22220002;

	b.bc_slots = xprtrdma::kBcSlots;
	if (EXPECT(big != nullptr) && bench_up(check, &b, kDefaultPd)) {
		/* Backward messages are taken inline only.  A Write chunk
		 * reaches the backward path; a Read list fails the message as a
		 * Reply first (Responders send none), and it is then read as
		 * the backward Call it is.  Each gets its ERR_CHUNK. */
		fill_call(call, sizeof(call), kXid - 2, 29); /* each its own XID */
		EXPECT(b.r->send_backward(check, kXid - 2, 1, call, sizeof(call),
					  Responder::Chunk::Write) &&
		       bc_err_chunk(check, b.r, kXid - 2, core::kRpcRdmaVersion1));
		fill_call(call, sizeof(call), kXid - 1, 29);
		EXPECT(b.r->send_backward(check, kXid - 1, 1, call, sizeof(call),
					  Responder::Chunk::Read) &&
		       bc_err_chunk(check, b.r, kXid - 1, core::kRpcRdmaVersion1));
		fill_call(call, sizeof(call), kXid - 3, 29);
		EXPECT(b.r->send_backward(check, kXid - 3, 1, call, sizeof(call),
					  Responder::Chunk::PositionZero));
		fill_call(call, sizeof(call), kXid, 29);
		/* Receives complete in order: the good Call proves the bad one was seen. */
		rpc_rqst *rq = b.r->send_backward(check, kXid, 1, call, sizeof(call))
				   ? bc_take(check, &b, call, sizeof(call), kXid)
				   : nullptr;
		if (rq) {
			EXPECT(b.ep->stats.read(ClntStat::BackchannelCalls) == 3);
			EXPECT(b.ep->stats.read(ClntStat::BcDropped) == 2);
			EXPECT(b.ep->stats.read(ClntStat::BadReply) == 1);
			EXPECT(rpcrdmax_kunit_bc_wait(b.kx, 0) == nullptr);
			fill_reply(big, kBig, kXid, 31);
			EXPECT(b.ep->bc_max_payload() < kBig);
			/* as sunrpc asks: under rcu_read_lock(), no sleeping */
			EXPECT(rpcrdmax_kunit_bc_maxpayload(b.kx) == b.ep->bc_max_payload());
			EXPECT(rpcrdmax_kunit_bc_set_reply(rq, big, kBig) == 0);
			EXPECT(b.ep->bc_send(rq, kXid, kBig) == -err::EMSGSIZE);
			EXPECT(bc_answer(check, &b, rq, kXid, 33));
			rpcrdmax_kunit_bc_done(rq);
		}
		EXPECT(forward_rpc(check, &b, 0x11110012));
		EXPECT(b.ep->stats.read(ClntStat::BcDropped) == 2);
	}
	bench_down(&b);
	delete[] big;
}

/*
 * Beyond the backward credits: with both slots busy, a third backward
 * Call is dropped and counted; once a slot is given back, the next one
 * is taken into it.
 */
static void bc_over_credit_case(Reporter check)
{
	Bench b;
	u8 call[3][96];
	rpc_rqst *rq[2] = {};
	constexpr u32 kXid = 0x22220010;

	static_assert(xprtrdma::kBcSlots == 2);
	b.bc_slots = xprtrdma::kBcSlots;
	if (bench_up(check, &b, kDefaultPd)) {
		for (u32 i = 0; i < 3; i++) {
			fill_call(call[i], sizeof(call[i]), kXid + i, 35 + i);
			EXPECT(b.r->send_backward(check, kXid + i, 2, call[i], sizeof(call[i])));
			if (i < 2)
				rq[i] = bc_take(check, &b, call[i], sizeof(call[i]), kXid + i);
		}
		/* The forward Reply arrives after the third Call. */
		EXPECT(forward_rpc(check, &b, 0x11110013));
		EXPECT(b.ep->stats.read(ClntStat::BackchannelCalls) == 3);
		EXPECT(b.ep->stats.read(ClntStat::BcDropped) == 1);
		EXPECT(rpcrdmax_kunit_bc_wait(b.kx, 0) == nullptr);
		if (rq[0] && rq[1]) {
			EXPECT(bc_answer(check, &b, rq[0], kXid, 39));
			rpcrdmax_kunit_bc_done(rq[0]);
			rq[0] = nullptr;
			/* The server retransmits the dropped Call: a slot is free now. */
			if (EXPECT(b.r->send_backward(check, kXid + 2, 2, call[2], sizeof(call[2]))))
				rq[0] = bc_take(check, &b, call[2], sizeof(call[2]), kXid + 2);
			EXPECT(b.ep->stats.read(ClntStat::BcDropped) == 1);
		}
		for (rpc_rqst *r : rq)
			if (r)
				rpcrdmax_kunit_bc_done(r);
	}
	bench_down(&b);
}

/* No callback service on the transport: a backward Call is dropped and counted. */
static void bc_no_service_case(Reporter check)
{
	Bench b;
	u8 call[96];

	if (bench_up(check, &b, kDefaultPd)) {
		fill_call(call, sizeof(call), 0x22220020, 41);
		EXPECT(b.r->send_backward(check, 0x22220020, 1, call, sizeof(call)));
		EXPECT(forward_rpc(check, &b, 0x11110014));
		EXPECT(b.ep->stats.read(ClntStat::BackchannelCalls) == 1);
		EXPECT(b.ep->stats.read(ClntStat::BcDropped) == 1);
		EXPECT(rpcrdmax_kunit_bc_wait(b.kx, 0) == nullptr);
	}
	bench_down(&b);
}

/* ---- RPC-over-RDMA Version Two (xprtrdma/v2.cpp) -------------------- */

/* Wait until the client has handled every message the responder sent
 * before this: it sends a Reply for an XID no Call has, and the client's
 * lookup counts it (Receives complete in order). */
static bool v2_sync(Reporter check, Bench *b)
{
	u8 rpc[40];
	WrSpec wr[1];
	const int before = b->x->bad_xids.read();

	fill_reply(rpc, sizeof(rpc), 0x5555ffff, 3);
	b->r->start_reply(core::V1Proc::Msg).xid = 0x5555ffff;
	if (!b->r->send_reply(check, rpc, sizeof(rpc), wr, 0, 0))
		return false;
	for (u32 i = 0; i < kWaitMs / 10 && b->x->bad_xids.read() == before; i++)
		rpcrdmax_msleep(10);
	return EXPECT(b->x->bad_xids.read() == before + 1) &&
	       (b->x->bad_xids.set(before), true);
}

/* Send @h as it is from the responder. */
static bool v2_send(Reporter check, Responder *r, const core::V2Header &h)
{
	u8 buf[256];
	auto enc = core::v2_encode(h, Bytes(buf, sizeof(buf)));
	return EXPECT_OK(enc) && r->send_raw(check, buf, enc.value());
}

/* Our Call @xid, answered with RDMA2_ERROR @e. */
static bool v2_send_error(Reporter check, Responder *r, u32 xid, const core::V2Error &e)
{
	u8 buf[64];
	auto enc = core::v2_encode_error(xid, core::kRpcRdmaVersion2, kCredits, e,
					 Bytes(buf, sizeof(buf)));
	return EXPECT_OK(enc) && r->send_raw(check, buf, enc.value());
}

/*
 * The first RPC on a connection that offers version 2: a version 2 Call
 * of at most 1024 octets (draft Section 7), a version 2 Reply, and then
 * the client's RDMA2_CONNPROP (Section 5.3.1): its Receive size and
 * Backward Request Support, both unchanging.  @h: scratch.
 */
static bool v2_first_rpc(Reporter check, Bench *b, u32 xid, core::V2Header *h)
{
	Responder *r = b->r;
	u8 rpc[100];
	const u8 *m;
	u32 rbsiz = 0;
	core::BkReqSup brs = core::BkReqSup::None;

	r->want_vers = core::kRpcRdmaVersion2;
	b->snd = { 200, 0, 0, 0, false };
	b->rcv = { 512, 0, 0, 0, false };
	if (!EXPECT(b->x->credits == 1) || !bench_send(check, b, xid) || !r->take_call(check) ||
	    !call_matches(check, b))
		return false;
	EXPECT(r->call_bytes <= 1024);
	EXPECT(r->call_dir == core::kMsgCall);
	EXPECT(r->call_inv == 0);
	fill_reply(rpc, sizeof(rpc), xid, 51);
	if (!r->send_inline(check, rpc, sizeof(rpc), 0) || !bench_done(check, b) ||
	    !EXPECT(b->status == (int)sizeof(rpc)) || !EXPECT(mem_compare(b->got, rpc, sizeof(rpc)) == 0))
		return false;
	EXPECT(b->x->credits == kCredits);
	const u32 n = r->take_raw(check, &m);
	return EXPECT(core::v2_decode(ConstBytes(m, n), core::DecodeLimits(), h) ==
		      core::V2Verdict::Ok) &&
	       EXPECT(h->proc == core::V2Proc::ConnProp) &&
	       EXPECT(core::v2_prop_rbsiz(h->props, &rbsiz) && rbsiz == kInline) &&
	       EXPECT(core::v2_prop_brs(h->props, &brs) && brs == core::BkReqSup::Inline) &&
	       EXPECT(h->subset_a.contains(0) && h->subset_a.contains(1));
}

/* Answer the Call the responder took with an inline Reply of @len; the
 * RPC must complete with it. */
static bool v2_answer(Reporter check, Bench *b, u32 len, u32 seed)
{
	u8 rpc[256];
	fill_reply(rpc, len, b->xid, seed);
	return b->r->send_inline(check, rpc, len, 0) && bench_done(check, b) &&
	       EXPECT(b->status == (int)len) && EXPECT(mem_compare(b->got, rpc, len) == 0);
}

/* A transport that offers version 2 (g_max_version, put back by the
 * case), connected, with a 100-octet Call @xid sent: the first version 2
 * Call, which the case answers (or not) itself. */
static bool v2_probe_up(Reporter check, Bench *b, u32 xid)
{
	g_max_version = 2;
	b->snd = { 100, 0, 0, 0, false };
	b->rcv = { 256, 0, 0, 0, false };
	return bench_up(check, b, kDefaultPd) && bench_send(check, b, xid);
}

/* A Call transmitted again after its connection was reset. */
constexpr unsigned int kResendReconnected = RPCRDMAX_XMIT_CONNECTED | RPCRDMAX_XMIT_CONG |
					    RPCRDMAX_XMIT_REPLY_EXPECTED;

/*
 * Version 2 accepted: the first RPC as above, counted once as a version 2
 * connection; then a 3000-octet Call goes inline (the draft's 4096
 * default, Section 2.3; version 1's 1024 would make it a Long Call), and
 * so does one that fills 4096 with version 2's header, not one that would
 * fill them with version 1's; after
 * the server's RDMA2_CONNPROP names 2048-octet Receives, the same Call is
 * a Long Call (Section 5.2.1).  A Reply larger than our Receives gets a
 * Reply chunk beside either form of Call.
 */
static void v2_accepted_case(Reporter check)
{
	Bench b;
	core::V2Header *h = new (Gfp::Kernel) core::V2Header;
	const int counted = vers_counted(2);

	g_max_version = 2;
	if (EXPECT(h != nullptr) && bench_up(check, &b, kDefaultPd) &&
	    v2_first_rpc(check, &b, 0x44440001, h)) {
		Responder *r = b.r;
		EXPECT(b.ep->stats.read(ClntStat::Vers2Conns) == 1);
		EXPECT(b.ep->stats.read(ClntStat::Vers1Conns) == 0);
		EXPECT(vers_counted(2) == counted + 1);
		/* settled: Replies are waited for as long as sunrpc says */
		EXPECT(b.ep->reply_timeout(60000) == 60000);
		bench_next(&b);
		b.snd = { 3000, 0, 0, 0, false };
		if (bench_send(check, &b, 0x44440002) && r->take_call(check) &&
		    call_matches(check, &b)) {
			EXPECT(r->call.proc == core::V1Proc::Msg);
			EXPECT(r->call.chunks.empty());
			EXPECT(v2_answer(check, &b, 64, 52));
		}
		/* The header counts at version 2's size, two words more than
		 * version 1's (Section 6.2): a Call that fills 4096 octets
		 * with a 36-octet header goes inline, one that would fill
		 * them with version 1's 28 goes as a Long Call. */
		bench_next(&b);
		b.snd = { kInline - core::kMinChunkHeaderSize - core::kV2ExtraHeaderSize, 0, 0, 0, false };
		if (bench_send(check, &b, 0x44440004) && r->take_call(check) &&
		    call_matches(check, &b)) {
			EXPECT(r->call.proc == core::V1Proc::Msg);
			EXPECT(r->call.chunks.empty());
			EXPECT(v2_answer(check, &b, 64, 54));
		}
		bench_next(&b);
		b.snd = { kInline - core::kMinChunkHeaderSize, 0, 0, 0, false };
		if (bench_send(check, &b, 0x44440005) && r->take_call(check) &&
		    call_matches(check, &b)) {
			EXPECT(r->call.proc == core::V1Proc::NoMsg);
			EXPECT(r->call.chunks.has_call_chunk());
			EXPECT(v2_answer(check, &b, 64, 55));
		}
		/* A Reply larger than our Receives gets a Reply chunk, in
		 * version 2 as in 1; the 3000-octet Call beside it stays
		 * inline.  Answered inline, the MR invalidated by us. */
		bench_next(&b);
		b.snd = { 3000, 0, 0, 0, false };
		b.rcv = { 5000, 0, 0, 0, false };
		if (bench_send(check, &b, 0x44440006) && r->take_call(check) &&
		    call_matches(check, &b)) {
			EXPECT(r->call.proc == core::V1Proc::Msg);
			EXPECT(r->call.chunks.nread == 0 && r->call.chunks.has_reply);
			EXPECT(v2_answer(check, &b, 64, 56));
		}
		mem_set(h, 0, sizeof(*h));
		h->vers = core::kRpcRdmaVersion2;
		h->proc = core::V2Proc::ConnProp;
		EXPECT(h->props.add_u32(core::kV2PropRbsiz, 2048));
		EXPECT(v2_send(check, r, *h) && v2_sync(check, &b));
		/* The same RPC again: now a Long Call, the Reply chunk still
		 * offered (core::plan_rpc, not the one-segment shortcut). */
		bench_next(&b);
		if (bench_send(check, &b, 0x44440007) && r->take_call(check) &&
		    call_matches(check, &b)) {
			EXPECT(r->call.proc == core::V1Proc::NoMsg);
			EXPECT(r->call.chunks.has_call_chunk() && r->call.chunks.has_reply);
			EXPECT(v2_answer(check, &b, 64, 57));
		}
		bench_next(&b);
		b.snd = { 3000, 0, 0, 0, false };
		b.rcv = { 512, 0, 0, 0, false };
		if (bench_send(check, &b, 0x44440003) && r->take_call(check) &&
		    call_matches(check, &b)) {
			EXPECT(r->call.proc == core::V1Proc::NoMsg);
			EXPECT(r->call.chunks.has_call_chunk());
			EXPECT(v2_answer(check, &b, 64, 53));
		}
		EXPECT(b.ep->stats.read(ClntStat::BadReply) == 0);
	}
	g_max_version = 1;
	delete h;
	bench_down(&b);
}

/*
 * A version 1 server (Section 7.2): it answers the version 2 Call with
 * ERR_VERS 1..1, echoing rdma_vers 2 as the stock server does.  The RPC
 * completes with -EAGAIN (sunrpc then encodes and transmits it again),
 * the grant stays at one, and the retransmission goes on the same
 * connection - not reset - as a version 1 Call with the same XID, which
 * completes.  After a reconnect the transport's first Call is version 1:
 * it remembered.  Two connections, both counted as version 1.
 */
static void v2_fallback_case(Reporter check)
{
	Bench b;
	u8 raw[28];
	const u32 kX = 0x44440010;

	if (v2_probe_up(check, &b, kX)) {
		Responder *r = b.r;
		r->want_vers = core::kRpcRdmaVersion2;
		const u32 w[] = { kX, 2, kCredits, 4, 1, 1, 1 };
		for (u32 i = 0; i < 7; i++)
			store_be32(raw + 4 * i, w[i]);
		if (r->take_call(check) && call_matches(check, &b) &&
		    r->send_raw(check, raw, sizeof(raw)) && bench_done(check, &b)) {
			EXPECT(b.status == -err::EAGAIN);
			EXPECT(b.x->credits == 1);
			EXPECT(b.ep->stats.read(ClntStat::Vers1Conns) == 1);
			EXPECT(b.ep->stats.read(ClntStat::Vers2Conns) == 0);
			constexpr unsigned int kResend =
				RPCRDMAX_XMIT_CONNECTED | RPCRDMAX_XMIT_CONG |
				RPCRDMAX_XMIT_SAME_CONNECTION | RPCRDMAX_XMIT_REPLY_EXPECTED;
			{
				SpinLockBhGuard g(&b.x->lock);
				b.x->rqst = b.rqst;
			}
			b.x->completions.set(0);
			r->want_vers = core::kRpcRdmaVersion1;
			EXPECT(b.ep->transmit(b.rqst, kResend, rpcrdmax_jiffies(), 1) == 0);
			if (r->take_call(check) && call_matches(check, &b))
				EXPECT(v2_answer(check, &b, 80, 61));
			EXPECT(b.x->credits == kCredits);
			/* a second retransmission on this connection is reset again */
			EXPECT(b.ep->transmit(b.rqst, kResend, rpcrdmax_jiffies(), 1) ==
			       -err::ENOTCONN);
		}
		bench_next(&b);
		if (bench_reconnect(check, &b, kPort + 1) && bench_send(check, &b, kX + 1) &&
		    b.r->take_call(check) && call_matches(check, &b)) {
			EXPECT(v2_answer(check, &b, 80, 62));
			EXPECT(b.ep->stats.read(ClntStat::Vers1Conns) == 2);
		}
	}
	g_max_version = 1;
	bench_down(&b);
}

/*
 * The server takes version 2 but drops the first Call (nfsd drops a Call
 * while an upcall for it is pending): its RDMA2_CONNPROP, a non-error
 * version 2 message, arrives and no Reply does.  That settles version 2
 * (draft Section 7.1): the client sends its own RDMA2_CONNPROP, the
 * probe's short wait ends, the connection is counted as version 2, and
 * after a reset the Call goes again in version 2.
 */
static void v2_dropped_first_case(Reporter check)
{
	Bench b;
	core::V2Header *h = new (Gfp::Kernel) core::V2Header;
	const u32 kX = 0x44440024;

	if (EXPECT(h != nullptr) && v2_probe_up(check, &b, kX)) {
		b.r->want_vers = core::kRpcRdmaVersion2;
		const unsigned long probe = rpcrdmax_msecs_to_jiffies(xprtrdma::kV2ProbeMs);
		if (b.r->take_call(check) && call_matches(check, &b)) {
			mem_set(h, 0, sizeof(*h));
			h->vers = core::kRpcRdmaVersion2;
			h->credits = kCredits;
			h->proc = core::V2Proc::ConnProp;
			EXPECT(h->props.add_u32(core::kV2PropRbsiz, kInline));
			const u8 *m;
			u32 n = 0;
			/* the client answers it with its own (Section 5.3.1) */
			if (v2_send(check, b.r, *h))
				n = b.r->take_raw(check, &m);
			EXPECT(n && core::v2_decode(ConstBytes(m, n), core::DecodeLimits(), h) ==
					    core::V2Verdict::Ok &&
			       h->proc == core::V2Proc::ConnProp);
			EXPECT(b.ep->reply_timeout(60 * probe) == 60 * probe);
			EXPECT(b.ep->stats.read(ClntStat::Vers2Conns) == 1);
		}
		if (bench_reconnect(check, &b, kPort + 9)) {
			b.r->want_vers = core::kRpcRdmaVersion2;
			EXPECT(b.ep->transmit(b.rqst, kResendReconnected, rpcrdmax_jiffies(), 1) == 0);
			if (b.r->take_call(check) && call_matches(check, &b))
				EXPECT(v2_answer(check, &b, 80, 74));
			EXPECT(b.ep->stats.read(ClntStat::Vers1Conns) == 0);
		}
	}
	g_max_version = 1;
	delete h;
	bench_down(&b);
}

/*
 * The first version 2 Call is lost (Section 7.2): while it is
 * unanswered a Call's Reply is waited for kV2ProbeMs at most
 * (ClntEp::reply_timeout), however long sunrpc's timeout, and then the
 * connection is reset (the peer disconnecting or a device going end it
 * the same way).  One such end says little of the server's version (a
 * device may have held the Send, nfsd may have been slow): the Call goes
 * again in version 2 on the new connection, with the same short wait,
 * and a Reply there settles version 2; Calls then wait as long as sunrpc
 * says.  Only kV2CutOffs connections in a row cut off so (counted again
 * after a version 2 Reply) make the transport take version 1.
 */
static void v2_first_cut_off_case(Reporter check)
{
	Bench b;
	const u32 kX = 0x44440028;
	const unsigned long probe = rpcrdmax_msecs_to_jiffies(xprtrdma::kV2ProbeMs);

	if (!v2_probe_up(check, &b, kX))
		goto out;
	b.r->want_vers = core::kRpcRdmaVersion2;
	EXPECT(b.ep->reply_timeout(60 * probe) == probe);
	EXPECT(b.ep->reply_timeout(probe / 3) == probe / 3);
	if (!b.r->take_call(check) || !bench_reconnect(check, &b, kPort + 3))
		goto out;
	b.r->want_vers = core::kRpcRdmaVersion2;
	EXPECT(b.ep->transmit(b.rqst, kResendReconnected, rpcrdmax_jiffies(), 1) == 0);
	EXPECT(bytes_sent(b.rqst) == b.snd_len());
	EXPECT(b.ep->reply_timeout(60 * probe) == probe);
	if (!b.r->take_call(check) || !call_matches(check, &b) || !v2_answer(check, &b, 80, 72))
		goto out;
	EXPECT(b.ep->reply_timeout(60 * probe) == 60 * probe);
	EXPECT(b.ep->stats.read(ClntStat::Vers2Conns) == 1);
	EXPECT(b.ep->stats.read(ClntStat::Vers1Conns) == 0);
	for (int i = 0; i < xprtrdma::kV2CutOffs; i++) {
		bench_next(&b);
		if (!bench_reconnect(check, &b, kPort + 4 + i) ||
		    !bench_send(check, &b, kX + 1 + i))
			goto out;
		b.r->want_vers = core::kRpcRdmaVersion2;
		if (!b.r->take_call(check) || !call_matches(check, &b))
			goto out;
	}
	bench_next(&b);
	if (bench_reconnect(check, &b, kPort + 8) && bench_send(check, &b, kX + 9) &&
	    b.r->take_call(check) && call_matches(check, &b)) {
		EXPECT(v2_answer(check, &b, 80, 73));
		EXPECT(b.ep->stats.read(ClntStat::Vers1Conns) == 1);
	}
out:
	g_max_version = 1;
	bench_down(&b);
}

/*
 * Each RDMA2_ERROR a server may send for a Call (Section 6.2.4) ends that
 * RPC with -EIO, counted; none resets the connection or is taken for a
 * malformed Reply.  ERR_VERS whose range leaves out version 1 too.
 */
static void v2_errors_case(Reporter check)
{
	Bench b;
	core::V2Header *h = new (Gfp::Kernel) core::V2Header;
	const core::V2ErrCode codes[] = {
		core::V2ErrCode::BadXdr,	core::V2ErrCode::InvalidProc,
		core::V2ErrCode::ReadChunks,	core::V2ErrCode::WriteChunks,
		core::V2ErrCode::Segments,	core::V2ErrCode::WriteResource,
		core::V2ErrCode::ReplyResource, core::V2ErrCode::InvalidOption,
		core::V2ErrCode::System,
	};

	g_max_version = 2;
	if (EXPECT(h != nullptr) && bench_up(check, &b, kDefaultPd) &&
	    v2_first_rpc(check, &b, 0x44440030, h)) {
		u32 xid = 0x44440031;
		int n = 0;
		for (core::V2ErrCode c : codes) {
			core::V2Error e = {};
			e.code = (u32)c;
			e.max_chunks = e.max_segments = e.length_needed = 8;
			bench_next(&b);
			if (!bench_send(check, &b, xid) || !b.r->take_call(check) ||
			    !v2_send_error(check, b.r, xid, e) || !bench_done(check, &b))
				break;
			EXPECT(b.status == -err::EIO);
			EXPECT(all_poison(b.got, b.rcv_len()));
			EXPECT(b.ep->stats.read(ClntStat::V2Errors) == ++n);
			xid++;
		}
		EXPECT(n == (int)array_size(codes));
		bench_next(&b);
		u8 raw[28];
		const u32 w[] = { xid, 2, kCredits, 4, 1, 3, 4 };
		for (u32 i = 0; i < 7; i++)
			store_be32(raw + 4 * i, w[i]);
		if (bench_send(check, &b, xid) && b.r->take_call(check) &&
		    b.r->send_raw(check, raw, sizeof(raw)) && bench_done(check, &b))
			EXPECT(b.status == -err::EIO);
		EXPECT(b.ep->stats.read(ClntStat::BadReply) == 0);
	}
	g_max_version = 1;
	delete h;
	bench_down(&b);
}

/*
 * Property operations from the server that the client does not take
 * (REQPROP, RESPROP, UPDPROP) and an unknown RDMA2_OPTIONAL each get
 * RDMA2_ERR_INVAL_OPTION with their XID (Section 5.3), counted; an
 * RDMA2_CONNPROP whose value overruns the message is dropped as
 * malformed, with no answer; RPCs carry on.
 */
static void v2_props_case(Reporter check)
{
	Bench b;
	core::V2Header *h = new (Gfp::Kernel) core::V2Header;
	const core::V2Proc procs[] = { core::V2Proc::ReqProp, core::V2Proc::ResProp,
				       core::V2Proc::UpdProp, core::V2Proc::Optional };

	g_max_version = 2;
	if (EXPECT(h != nullptr) && bench_up(check, &b, kDefaultPd) &&
	    v2_first_rpc(check, &b, 0x44440040, h)) {
		Responder *r = b.r;
		u32 xid = 0x66660001;
		for (core::V2Proc p : procs) {
			const u8 *m;
			mem_set(h, 0, sizeof(*h));
			h->xid = xid;
			h->vers = core::kRpcRdmaVersion2;
			h->credits = kCredits;
			h->proc = p;
			h->opttype = 77;
			h->direction = core::kMsgCall;
			EXPECT(h->props.add_u32(core::kV2PropRbsiz, 8192));
			if (!v2_send(check, r, *h))
				break;
			const u32 n = r->take_raw(check, &m);
			EXPECT(core::v2_decode(ConstBytes(m, n), core::DecodeLimits(), h) ==
			       core::V2Verdict::Ok);
			EXPECT(h->proc == core::V2Proc::Error && h->xid == xid &&
			       h->error.code == (u32)core::V2ErrCode::InvalidOption);
			xid++;
		}
		EXPECT(b.ep->stats.read(ClntStat::V2Refused) == (int)array_size(procs));
		/* CONNPROP: one propval whose opaque claims 64 octets */
		u8 bad[] = { 0, 0, 0, 9, 0, 0, 0, 2, 0, 0, 0, 32, 0, 0, 0, 6,
			     0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 64, 0, 0, 0x10, 0 };
		EXPECT(r->send_raw(check, bad, sizeof(bad)));
		EXPECT(v2_sync(check, &b));
		EXPECT(b.ep->stats.read(ClntStat::BadReply) == 1);
		bench_next(&b);
		b.snd = { 100, 0, 0, 0, false };
		if (bench_send(check, &b, 0x44440041) && r->take_call(check) &&
		    call_matches(check, &b))
			EXPECT(v2_answer(check, &b, 64, 81));
	}
	g_max_version = 1;
	delete h;
	bench_down(&b);
}

/*
 * Remote invalidation (Section 6.2.3): a version 2 Call with a Read and a
 * Write chunk names its Write chunk's handle in rdma_inv_handle.  A Reply
 * that invalidates the Read chunk's rkey instead - this RPC's, which
 * version 1 allows - is refused: the connection is reset.  One that
 * invalidates the named handle completes, and only the other MR needs a
 * LOCAL_INV.
 */
static void v2_inv_handle_case(Reporter check)
{
	for (int named = 0; named < 2; named++) {
		Bench b;
		core::V2Header *h = new (Gfp::Kernel) core::V2Header;
		u8 rpc[128];

		g_max_version = 2;
		if (EXPECT(h != nullptr) && bench_up(check, &b, kDefaultPd) &&
		    v2_first_rpc(check, &b, 0x44440050, h)) {
			Responder *r = b.r;
			const core::ChunkLists &cl = r->call.chunks;
			bench_next(&b);
			b.snd = { 120, 0, 4096, 4, true };
			b.rcv = { 120, 512, 8192, 16, true };
			if (bench_send(check, &b, 0x44440051) && r->take_call(check) &&
			    call_matches(check, &b) && EXPECT(cl.nread == 1 && cl.nwrite == 1)) {
				const u32 wh = cl.segment(cl.write[0], 0).handle;
				const u32 rh = cl.segment(cl.read[0], 0).handle;
				EXPECT(r->call_inv == wh);
				fill(r->data, 100, 91);
				fill_reply(rpc, sizeof(rpc), b.xid, 92);
				const int lost = b.x->disconnects.read();
				if (reply_write(check, &b, 100, 100, rpc, sizeof(rpc), named ? wh : rh)) {
					if (named) {
						EXPECT(bench_done(check, &b) && b.status > 0);
						EXPECT(b.ep->stats.read(ClntStat::LocalInvNeeded) == 1);
					} else {
						for (u32 i = 0; i < kWaitMs / 10 &&
								b.x->disconnects.read() == lost;
						     i++)
							rpcrdmax_msleep(10);
						EXPECT(b.x->disconnects.read() == lost + 1);
						EXPECT(b.x->completions.read() == 0);
						EXPECT(b.ep->stats.read(ClntStat::BadReply) == 1);
					}
				}
			}
		}
		g_max_version = 1;
		delete h;
		bench_down(&b);
	}
}

/*
 * Backward direction on a version 2 connection: the server's backward
 * Call is an RDMA2_MSG with rdma_direction CALL; the client takes it, and
 * its Reply goes as version 2 with rdma_direction REPLY and our backward
 * credits.  One with a chunk is answered with RDMA2_ERR_BAD_XDR (the
 * code of ERR_CHUNK).  And with rdma_max_version 1 the first Call is
 * version 1.
 */
static void v2_backward_case(Reporter check)
{
	Bench b;
	core::V2Header *h = new (Gfp::Kernel) core::V2Header;
	u8 call[180];
	constexpr u32 kXid = 0x22220101;

	g_max_version = 2;
	b.bc_slots = xprtrdma::kBcSlots;
	if (EXPECT(h != nullptr) && bench_up(check, &b, kDefaultPd) &&
	    v2_first_rpc(check, &b, 0x44440060, h)) {
		/* with a chunk: RDMA2_ERR_BAD_XDR (RFC 8167 Section 5.3) */
		fill_call(call, sizeof(call), kXid - 1, 100);
		EXPECT(b.r->send_backward(check, kXid - 1, 1, call, sizeof(call),
					  Responder::Chunk::Write) &&
		       bc_err_chunk(check, b.r, kXid - 1, core::kRpcRdmaVersion2));
		fill_call(call, sizeof(call), kXid, 101);
		rpc_rqst *rq = b.r->send_backward(check, kXid, 1, call, sizeof(call))
				   ? bc_take(check, &b, call, sizeof(call), kXid)
				   : nullptr;
		if (rq) {
			EXPECT(bc_answer(check, &b, rq, kXid, 102));
			EXPECT(b.r->call.vers == core::kRpcRdmaVersion2);
			EXPECT(b.r->call_dir == core::kMsgReply);
			EXPECT(b.ep->stats.read(ClntStat::BcV2Calls) == 2);
			EXPECT(b.ep->stats.read(ClntStat::BcDropped) == 1);
			rpcrdmax_kunit_bc_done(rq);
		}
	}
	bench_down(&b);
	Bench c;
	g_max_version = 1;
	if (bench_up(check, &c, kDefaultPd) && forward_rpc(check, &c, 0x44440061))
		EXPECT(c.ep->stats.read(ClntStat::Vers1Conns) == 1 && c.ep->stats.read(ClntStat::Vers2Conns) == 0);
	delete h;
	bench_down(&c);
}

/* One inline round trip (inline_case's); false if it did not complete. */
static bool inline_round_trip(Reporter check, u32 seed)
{
	Bench b;
	u8 rpc[100];
	bool done = false;

	b.snd = { 200, 0, 0, 0, false };
	b.rcv = { 512, 0, 0, 0, false };
	if (bench_call(check, &b, kDefaultPd, seed)) {
		fill_reply(rpc, sizeof(rpc), b.xid, 7);
		done = b.r->send_inline(check, rpc, sizeof(rpc), 0) && bench_done(check, &b) &&
		       EXPECT(b.status == (int)sizeof(rpc));
	}
	bench_down(&b);
	return done;
}

/*
 * The hot tracepoints are tested in C++ before their shim is called
 * (rpcrdmax_tp_key): with a probe attached, xprtrdma_marshal and
 * xprtrdma_reply fire once per RPC; without, the key reads off.  Each
 * counts itself in rpcrdmax_tp_hot_probed while it has a probe (its
 * regfunc), the word every test reads first.
 */
static void hot_trace_case(Reporter check)
{
	const int probed = __atomic_load_n(&rpcrdmax_tp_hot_probed, __ATOMIC_RELAXED);

	EXPECT(!tp_on(RPCRDMAX_TP_XPRTRDMA_MARSHAL) && !tp_on(RPCRDMAX_TP_XPRTRDMA_REPLY));
	if (!EXPECT(rpcrdmax_kunit_watch_hot(true) == 0))
		return;
	EXPECT(__atomic_load_n(&rpcrdmax_tp_hot_probed, __ATOMIC_RELAXED) == probed + 2);
	EXPECT(tp_hot_any());
	EXPECT(tp_on(RPCRDMAX_TP_XPRTRDMA_MARSHAL) && tp_on(RPCRDMAX_TP_XPRTRDMA_REPLY));
	EXPECT(!tp_on(RPCRDMAX_TP_XPRTRDMA_POST_SEND));
	if (inline_round_trip(check, 0x11110101)) {
		EXPECT(rpcrdmax_kunit_hot(false) == 1);
		EXPECT(rpcrdmax_kunit_hot(true) == 1);
	}
	rpcrdmax_kunit_watch_hot(false);
	EXPECT(__atomic_load_n(&rpcrdmax_tp_hot_probed, __ATOMIC_RELAXED) == probed);
	EXPECT(!tp_on(RPCRDMAX_TP_XPRTRDMA_MARSHAL) && !tp_on(RPCRDMAX_TP_XPRTRDMA_REPLY));
}

/*
 * XdrBufView::page_pieces() reads a page list's pieces in place (the
 * client registers a chunk's page-list segments with them): for ranges
 * over both buffers' page lists (starting 700 and 1000 octets into their
 * first page) and room for 1, 2 or 8 pieces, it gives the pieces the
 * kernel's own xdr_buf walk finds, or fails where that does.
 */
static void page_pieces_case(Reporter check)
{
	static u8 call[256], rcv[256];
	const rpcrdmax_kunit_xdr snd = { 120, 700, 5000, 40, true };
	const rpcrdmax_kunit_xdr rcvx = { 120, 1000, 3 * RPCRDMAX_PAGE_SIZE + 500, 16, true };
	rpc_rqst *r = rpcrdmax_kunit_rqst_new(0x11110200, call, rcv, &snd, &rcvx);
	rpcrdmax_page_seg a[8], b[8];
	u32 compared = 0, found = 0;

	if (!EXPECT(r))
		return;
	static const u32 lens[] = {1, 100, 3000, 4096, 9000, 13000};
	static const u32 maxes[] = {1, 2, 8};
	static const bool bufs[] = {false, true};
	for (bool is_rcv : bufs) {
		const u32 page_len = (is_rcv ? rcvx : snd).page_len;
		for (u32 off = 0; off < page_len; off += 61) {
			for (u32 len : lens) {
				if (off + len > page_len)
					continue;
				for (u32 max : maxes) {
					mem_set(a, 0, sizeof(a));
					mem_set(b, 0, sizeof(b));
					const int na = xprtrdma::rqst_xdr(r, is_rcv).page_pieces(off, len,
												  a, max);
					const int nb = rpcrdmax_kunit_rqst_page_pieces(r, is_rcv, off,
										       len, b, max);
					compared++;
					found += nb > 0;
					if (!EXPECT((na > 0) == (nb > 0)) ||
					    (nb > 0 && !EXPECT(na == nb)))
						goto out;
					for (int i = 0; i < nb; i++)
						if (!EXPECT(a[i].page == b[i].page &&
							    a[i].offset == b[i].offset &&
							    a[i].len == b[i].len))
							goto out;
				}
			}
		}
	}
	EXPECT(found > 100 && compared > found);
out:
	rpcrdmax_kunit_rqst_free(r);
}

#undef EXPECT
#undef EXPECT_OK

} // namespace rpcrdmax::kunit_marshal

#define RPCRDMAX_KUNIT_MARSHAL_ENTRY(name) RPCRDMAX_KUNIT_CXX_ENTRY(kunit_marshal, marshal_, name)

RPCRDMAX_KUNIT_MARSHAL_ENTRY(inline)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(lend)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(credits)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(buf_reuse)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(cwnd)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(read_chunk)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(long_call)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(gss_no_ddp)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(transmit)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(connect_fails)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(connect_delay)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(teardown_order)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(teardown_failed)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(reply_major)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(write_chunk)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(mr_reuse)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(foreign_rkey)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(mr_pool)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(inv_fence)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(send_held)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(reply_chunk)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(reply_chunk_head)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(rdma_error)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(rdma_error_unknown)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(write_overrun)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(reply_errs)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(bc_call)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(bc_malformed)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(bc_over_credit)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(bc_no_service)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(v2_accepted)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(v2_fallback)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(v2_dropped_first)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(v2_first_cut_off)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(v2_errors)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(v2_props)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(v2_inv_handle)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(v2_backward)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(hot_trace)
RPCRDMAX_KUNIT_MARSHAL_ENTRY(page_pieces)
