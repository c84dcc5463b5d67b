// SPDX-License-Identifier: GPL-2.0
/*
 * kunit/cxx_rdma_tests.cpp - in-kernel RDMA loopback over soft-RoCE,
 * through rpcrdmax's own cm and verbs shims.
 *
 * A listener and a client live in the same kernel and connect over the
 * rxe device the KUnit runner creates on eth0 (192.0.2.1).  The cases:
 *
 *   connect   rdma_cm connect/accept with RFC 8797 private data encoded
 *             by the protocol core and decoded on both ends;
 *   frwr      the client registers a page with REG_MR, the server RDMA
 *             Writes a pattern into it and then Sends with Invalidate
 *             naming its rkey: the client's Receive completion carries
 *             that invalidated rkey and the page holds the pattern; a
 *             second registration is retired by LOCAL_INV;
 *   flush     after a disconnect, posted Receives and a REG_MR complete
 *             as flushed, and the flushed MR is recovered.
 */
#include "rpcrdmax/core/privdata.h"
#include "rpcrdmax/ktl/alloc.h"
#include "rpcrdmax/ktl/list.h"
#include "rpcrdmax/ktl/sync.h"
#include "rpcrdmax/rdma/verbs.h"

namespace rpcrdmax::kunit_rdma {

using namespace rpcrdmax::ktl;
using namespace rpcrdmax::rdma;

struct Reporter {
	kunit *ctx;
	rpcrdmax_check_fn fn;
	bool operator()(bool ok, const char *what, const char *file, int line) const
	{
		fn(ctx, ok, what, file, line);
		return ok;
	}
};
#define EXPECT(cond) check((cond), #cond, __FILE__, __LINE__)
#define EXPECT_OK(res) check((res).is_ok(), #res, __FILE__, __LINE__)

static constexpr const char *kAddr = "192.0.2.1";
static constexpr unsigned short kPort = 20051;
static constexpr unsigned int kWaitMs = 10000;
static constexpr u32 kDepth = 16;

/* What the cases look at of a work completion, copied from the CQ's
 * struct ib_wc through the accessors the transports read it with. */
struct WcSeen {
	u32 status = 0, opcode = 0, byte_len = 0, invalidated_rkey = 0;
	bool with_invalidate = false;
};

/* Completion recorder: the last work completion, and a count. */
struct WcWait {
	WcWait() : cqe(&WcWait::done) {}
	static void done(Cqe *c, const ib_wc &wc)
	{
		WcWait *w = container_of(c, &WcWait::cqe);
		const bool ok = wc_status(wc) == RPCRDMAX_IB_WC_SUCCESS;

		w->wc.status = wc_status(wc);
		w->wc.opcode = ok ? wc_opcode(wc) : 0;
		w->wc.byte_len = ok ? wc_byte_len(wc) : 0;
		w->wc.with_invalidate = wc_with_invalidate(wc);
		w->wc.invalidated_rkey = w->wc.with_invalidate ? wc_invalidated_rkey(wc) : 0;
		w->count.add_return(1);
		w->completion.complete();
	}
	Cqe cqe;
	WcSeen wc;
	Atomic count;
	Completion completion;
};

/* One end of a connection. */
struct End : CmEvents {
	int cm_event(CmId *, const rpcrdmax_cm_event_info &ev) override
	{
		switch (ev.event) {
		case RPCRDMAX_CM_ADDR_RESOLVED:
			if (id.resolve_route(kWaitMs).is_error())
				failed.complete_all();
			break;
		case RPCRDMAX_CM_ROUTE_RESOLVED:
			resolved.complete_all();
			break;
		case RPCRDMAX_CM_ESTABLISHED:
			/* The active side learns the peer's private data here. */
			if (!pdata_len)
				save_pdata(ev);
			established.complete_all();
			break;
		case RPCRDMAX_CM_DISCONNECTED:
			/* Answer the peer's DREQ; a no-op after our own disconnect. */
			(void)id.disconnect();
			disconnected.complete_all();
			break;
		default:
			last_error = ev.event;
			failed.complete_all();
			break;
		}
		return 0;
	}
	void save_pdata(const rpcrdmax_cm_event_info &ev)
	{
		pdata_len = min<u32>(ev.private_data_len, sizeof(pdata));
		if (ev.private_data && pdata_len)
			mem_copy(pdata, ev.private_data, pdata_len);
	}
	Result<void> setup_qp()
	{
		ib_device *dev = id.device();
		RPCRDMAX_TRY(pd.alloc(dev));
		RPCRDMAX_TRY(scq.alloc(dev, kDepth * 2, 0, true));
		RPCRDMAX_TRY(rcq.alloc(dev, kDepth, 0, true));
		return id.create_qp(pd, scq, rcq, kDepth, kDepth, 2, 1);
	}
	/* Accept with private data @pd (when set-up went @ok), else refuse:
	 * the CM destroys a refused id, but not a QP on it.  The CM callback's
	 * return value. */
	int accept_or_refuse(bool ok, const core::PrivData &ours, u32 ord)
	{
		u8 buf[core::kPdSize];
		auto enc = core::pd_encode(ours, Bytes(buf, sizeof(buf)));
		if (!ok || enc.is_error() ||
		    id.accept(ConstBytes(buf, enc.value()), ord, 4).is_error()) {
			rpcrdmax_cm_destroy_qp(id.get());
			id.release();
			return -1;
		}
		return 0;
	}

	/* Members die in reverse order: the id (and its QP) before CQs and PD. */
	Pd pd;
	Cq scq, rcq;
	CmId id;
	Completion resolved, established, disconnected, failed;
	int last_error = -1;
	u8 pdata[64];
	u32 pdata_len = 0;
};

/* The listening side: accepts one connection into `conn`. */
struct Listener : CmEvents {
	int cm_event(CmId *, const rpcrdmax_cm_event_info &ev) override
	{
		if (ev.event != RPCRDMAX_CM_CONNECT_REQUEST)
			return 0;
		conn->save_pdata(ev);
		conn->id.adopt(ev.new_id, conn);
		if (conn->accept_or_refuse(conn->setup_qp().is_ok(), pd, ord))
			return -1;
		requested.complete();
		return 0;
	}
	CmId id;
	End *conn = nullptr;
	Completion requested;
	core::PrivData pd = { 8192, 8192, true };	/* what the accept carries */
	u32 ord = 0;	/* RDMA Reads the accepted end may have in flight */
};

struct Loopback {
	End server, client;
	Listener listener;
};

/*
 * Listen, connect with private data, and wait until both ends are up.
 * Any loopback with server/client Ends and a listener that accepts into
 * its `conn` will do (kunit/cxx_svc_tests.cpp has its own listener).
 */
template <typename LB> static bool connect_pair(Reporter check, LB *lb, unsigned short port = kPort)
{
	SockAddr addr;
	u8 ours[core::kPdSize];

	lb->listener.conn = &lb->server;
	if (!EXPECT_OK(addr.parse(kAddr, port)) ||
	    !EXPECT_OK(lb->listener.id.create(&lb->listener, rpcrdmax_kunit_init_net())) ||
	    !EXPECT_OK(lb->listener.id.bind(addr)) || !EXPECT_OK(lb->listener.id.listen(4)))
		return false;
	if (!EXPECT_OK(lb->client.id.create(&lb->client, rpcrdmax_kunit_init_net())) ||
	    !EXPECT_OK(lb->client.id.resolve_addr(addr, kWaitMs)) ||
	    !EXPECT(lb->client.resolved.wait_ms(kWaitMs)) || !EXPECT_OK(lb->client.setup_qp()))
		return false;
	auto enc = core::pd_encode({ 4096, 16384, true }, Bytes(ours, sizeof(ours)));
	if (!EXPECT_OK(enc) ||
	    !EXPECT_OK(lb->client.id.connect(ConstBytes(ours, enc.value()), 4, 6)))
		return false;
	return EXPECT(lb->listener.requested.wait_ms(kWaitMs)) &&
	       EXPECT(lb->client.established.wait_ms(kWaitMs)) &&
	       EXPECT(lb->server.established.wait_ms(kWaitMs));
}

template <typename LB> static void disconnect_pair(LB *lb)
{
	if (lb->client.id.qp()) {
		(void)lb->client.id.disconnect();
		(void)lb->client.disconnected.wait_ms(kWaitMs);
		lb->client.id.drain();
	}
	if (lb->server.id.qp()) {
		(void)lb->server.disconnected.wait_ms(kWaitMs);
		lb->server.id.drain();
	}
}

static void connect_case(Reporter check)
{
	auto *lb = new (Gfp::Kernel) Loopback;
	core::PrivData seen;

	if (!EXPECT(lb != nullptr))
		return;
	if (connect_pair(check, lb)) {
		/* The server decoded the client's private data ... */
		EXPECT(core::pd_decode(ConstBytes(lb->server.pdata, lb->server.pdata_len),
				       &seen) == core::PdVerdict::Found);
		EXPECT(seen.send_size == 4096 && seen.recv_size == 16384 && seen.remote_inv);
		/* ... and the client the server's. */
		EXPECT(core::pd_decode(ConstBytes(lb->client.pdata, lb->client.pdata_len),
				       &seen) == core::PdVerdict::Found);
		EXPECT(seen.send_size == 8192 && seen.recv_size == 8192 && seen.remote_inv);
		auto t = core::pd_thresholds({ 4096, 16384, true }, seen);
		EXPECT(t.call == 4096 && t.reply == 8192);
		rpcrdmax_dev_attrs attrs;
		EXPECT(rpcrdmax_ib_query_device(lb->client.id.device(), &attrs) == 0);
		EXPECT(attrs.mem_mgt_extensions && attrs.max_fast_reg_page_list_len >= 1);
	}
	disconnect_pair(lb);
	delete lb;
}

static void frwr_case(Reporter check)
{
	auto *lb = new (Gfp::Kernel) Loopback;
	auto *recv = new (Gfp::Kernel) WcWait;
	auto *reg = new (Gfp::Kernel) WcWait;
	auto *send = new (Gfp::Kernel) WcWait;
	auto *inv = new (Gfp::Kernel) WcWait;
	auto *mr = new (Gfp::Kernel) Mr;
	auto *rbuf = new (Gfp::Kernel | GfpZero) u8[64];
	auto *src = new (Gfp::Kernel) u8[RPCRDMAX_PAGE_SIZE];
	page *page = rpcrdmax_alloc_page(RPCRDMAX_GFP_KERNEL | RPCRDMAX_GFP_ZERO);
	DmaBuf rmap, smap;

	if (!EXPECT(lb && recv && reg && send && inv && mr && rbuf && src && page) ||
	    !connect_pair(check, lb))
		goto out;
	{
		ib_device *cdev = lb->client.id.device();
		ib_device *sdev = lb->server.id.device();

		/* Client: a Receive for the server's Send with Invalidate. */
		if (!EXPECT_OK(rmap.map(cdev, rbuf, 64, RPCRDMAX_DMA_FROM_DEVICE)))
			goto out;
		rpcrdmax_sge rsge = rmap.sge(lb->client.pd.local_dma_lkey());
		if (!EXPECT_OK(lb->client.id.post_recv(&recv->cqe, rsge)))
			goto out;

		/* Client: register the page for remote writing. */
		rpcrdmax_page_seg seg = { page, 0, RPCRDMAX_PAGE_SIZE };
		if (!EXPECT_OK(mr->alloc(lb->client.pd.get(), cdev, 4)) ||
		    !EXPECT_OK(mr->map(Span<const rpcrdmax_page_seg>(&seg, 1),
				       RPCRDMAX_DMA_FROM_DEVICE)))
			goto out;
		/* Mr::bump_key() gives the keys the kernel's helpers would,
		 * through the variant octet's wrap (300 registrations). */
		for (int i = 0; i < 300; i++) {
			unsigned int lkey, rkey;
			rpcrdmax_kunit_mr_next_keys(mr->raw(), &lkey, &rkey);
			mr->bump_key();
			if (!EXPECT(mr->lkey() == lkey && mr->rkey() == rkey))
				break;
		}
		WrSpec wr = mr->reg_wr(reg->cqe.raw(), RPCRDMAX_ACCESS_LOCAL_WRITE |
								     RPCRDMAX_ACCESS_REMOTE_WRITE);
		unsigned int bad;
		if (!EXPECT_OK(lb->client.id.post_send(&wr, 1, &bad)) ||
		    !EXPECT(reg->completion.wait_ms(kWaitMs)))
			goto out;
		EXPECT(reg->wc.status == RPCRDMAX_IB_WC_SUCCESS);
		EXPECT(mr->length() == RPCRDMAX_PAGE_SIZE);
		u32 rkey = mr->rkey();

		/* Server: RDMA Write a pattern, then Send with Invalidate(rkey). */
		for (unsigned int i = 0; i < RPCRDMAX_PAGE_SIZE; i++)
			src[i] = (u8)(i * 7 + 3);
		if (!EXPECT_OK(smap.map(sdev, src, RPCRDMAX_PAGE_SIZE, RPCRDMAX_DMA_TO_DEVICE)))
			goto out;
		rpcrdmax_sge wsge = smap.sge(lb->server.pd.local_dma_lkey());
		rpcrdmax_sge msge = { wsge.addr, 16, wsge.lkey };
		WrSpec chain[2] = {};
		chain[0].opcode = RPCRDMAX_WR_RDMA_WRITE;
		chain[0].sge = &wsge;
		chain[0].num_sge = 1;
		chain[0].remote_addr = mr->iova();
		chain[0].rkey = rkey;
		chain[1].cqe = send->cqe.raw();
		chain[1].opcode = RPCRDMAX_WR_SEND_INV;
		chain[1].sge = &msge;
		chain[1].num_sge = 1;
		chain[1].rkey = rkey;
		if (!EXPECT_OK(lb->server.id.post_send(chain, 2, &bad)) ||
		    !EXPECT(send->completion.wait_ms(kWaitMs)) ||
		    !EXPECT(recv->completion.wait_ms(kWaitMs)))
			goto out;
		EXPECT(send->wc.status == RPCRDMAX_IB_WC_SUCCESS);
		EXPECT(recv->wc.status == RPCRDMAX_IB_WC_SUCCESS);
		EXPECT(recv->wc.opcode == RPCRDMAX_IB_WC_OP_RECV);
		EXPECT(recv->wc.byte_len == 16);
		EXPECT(recv->wc.with_invalidate);
		EXPECT(recv->wc.invalidated_rkey == rkey);

		/* The page holds what the server wrote. */
		mr->unmap();
		const u8 *dst = static_cast<const u8 *>(rpcrdmax_page_address(page));
		EXPECT(mem_compare(dst, src, RPCRDMAX_PAGE_SIZE) == 0);
		rmap.sync_for_cpu();
		EXPECT(mem_compare(rbuf, src, 16) == 0);

		/* A second registration, retired by LOCAL_INV. */
		if (!EXPECT_OK(mr->map(Span<const rpcrdmax_page_seg>(&seg, 1),
				       RPCRDMAX_DMA_FROM_DEVICE)))
			goto out;
		mr->bump_key();
		EXPECT(mr->rkey() != rkey);
		wr = mr->reg_wr(nullptr, RPCRDMAX_ACCESS_LOCAL_WRITE | RPCRDMAX_ACCESS_REMOTE_WRITE);
		WrSpec linv = {};
		linv.cqe = inv->cqe.raw();
		linv.opcode = RPCRDMAX_WR_LOCAL_INV;
		linv.rkey = mr->rkey();
		WrSpec pair[2] = { wr, linv };
		if (!EXPECT_OK(lb->client.id.post_send(pair, 2, &bad)) ||
		    !EXPECT(inv->completion.wait_ms(kWaitMs)))
			goto out;
		EXPECT(inv->wc.status == RPCRDMAX_IB_WC_SUCCESS);
		EXPECT(inv->wc.opcode == RPCRDMAX_IB_WC_OP_LOCAL_INV);
		mr->unmap();
	}
out:
	if (lb)
		disconnect_pair(lb);
	rmap.unmap();
	smap.unmap();
	delete mr; /* before the PD it belongs to */
	delete lb;
	delete recv;
	delete reg;
	delete send;
	delete inv;
	delete[] rbuf;
	delete[] src;
	rpcrdmax_free_page(page);
}

static void flush_case(Reporter check)
{
	constexpr int kRecvs = 4;
	auto *lb = new (Gfp::Kernel) Loopback;
	auto *recvs = new (Gfp::Kernel) WcWait[kRecvs];
	auto *reg = new (Gfp::Kernel) WcWait;
	auto *mr = new (Gfp::Kernel) Mr;
	auto *rbuf = new (Gfp::Kernel | GfpZero) u8[64 * kRecvs];
	page *page = rpcrdmax_alloc_page(RPCRDMAX_GFP_KERNEL | RPCRDMAX_GFP_ZERO);
	DmaBuf rmap;
	int flushed = 0;

	if (!EXPECT(lb && recvs && reg && mr && rbuf && page) || !connect_pair(check, lb))
		goto out;
	{
		ib_device *cdev = lb->client.id.device();
		if (!EXPECT_OK(rmap.map(cdev, rbuf, 64 * kRecvs, RPCRDMAX_DMA_FROM_DEVICE)))
			goto out;
		for (int i = 0; i < kRecvs; i++) {
			rpcrdmax_sge sge = rmap.sge(lb->client.pd.local_dma_lkey());
			sge.addr += 64 * i;
			sge.length = 64;
			if (!EXPECT_OK(lb->client.id.post_recv(&recvs[i].cqe, sge)))
				goto out;
		}
		rpcrdmax_page_seg seg = { page, 0, RPCRDMAX_PAGE_SIZE };
		if (!EXPECT_OK(mr->alloc(lb->client.pd.get(), cdev, 4)) ||
		    !EXPECT_OK(mr->map(Span<const rpcrdmax_page_seg>(&seg, 1),
				       RPCRDMAX_DMA_FROM_DEVICE)))
			goto out;

		/* Disconnect and drain: everything posted completes as flushed. */
		EXPECT_OK(lb->client.id.disconnect());
		EXPECT(lb->client.disconnected.wait_ms(kWaitMs));
		WrSpec wr = mr->reg_wr(reg->cqe.raw(), RPCRDMAX_ACCESS_LOCAL_WRITE);
		unsigned int bad;
		/* Posting to an errored QP may fail at once or complete flushed. */
		bool posted = lb->client.id.post_send(&wr, 1, &bad).is_ok();
		lb->client.id.drain();
		for (int i = 0; i < kRecvs; i++) {
			if (!EXPECT(recvs[i].completion.wait_ms(kWaitMs)))
				continue;
			flushed += recvs[i].wc.status == RPCRDMAX_IB_WC_WR_FLUSH_ERR;
		}
		EXPECT(flushed == kRecvs);
		if (posted) {
			EXPECT(reg->completion.wait_ms(kWaitMs));
			EXPECT(reg->wc.status == RPCRDMAX_IB_WC_WR_FLUSH_ERR);
		}
		/* Recovery: the MR's state is unknown, so it is replaced. */
		EXPECT_OK(mr->recover());
		EXPECT(!mr->mapped());
		EXPECT(mr->map(Span<const rpcrdmax_page_seg>(&seg, 1), RPCRDMAX_DMA_FROM_DEVICE)
			       .is_ok());
		mr->unmap();
	}
out:
	if (lb)
		disconnect_pair(lb);
	rmap.unmap();
	delete mr;
	delete lb;
	delete[] recvs;
	delete reg;
	delete[] rbuf;
	rpcrdmax_free_page(page);
}

#undef EXPECT
#undef EXPECT_OK

} // namespace rpcrdmax::kunit_rdma

/* The C entry rpcrdmax_kunit_cxx_<prefix><name> of case <name> in rpcrdmax::<ns>. */
#define RPCRDMAX_KUNIT_CXX_ENTRY(ns, prefix, name)                             \
	extern "C" void rpcrdmax_kunit_cxx_##prefix##name(kunit *ctx,             \
							rpcrdmax_check_fn check) noexcept \
	{                                                                      \
		rpcrdmax::ns::name##_case(rpcrdmax::kunit_rdma::Reporter{ ctx, check }); \
	}
#define RPCRDMAX_KUNIT_RDMA_ENTRY(name) RPCRDMAX_KUNIT_CXX_ENTRY(kunit_rdma, rdma_, name)

RPCRDMAX_KUNIT_RDMA_ENTRY(connect)
RPCRDMAX_KUNIT_RDMA_ENTRY(frwr)
RPCRDMAX_KUNIT_RDMA_ENTRY(flush)
