// SPDX-License-Identifier: GPL-2.0
/*
 * kunit/cxx_svc_tests.cpp - the server transport's RDMA building blocks
 * in-kernel over soft-RoCE (suite rpcrdmax_svcrdma).
 *
 * A client End (kunit/cxx_rdma_tests.cpp) connects to a listener that
 * accepts the way svcrdma does: plan_accept() on the client's private
 * data and our device, a QP made with max_rdma_ctxs.  The cases:
 *
 *   accept      both ends decode the other's RFC 8797 private data; the
 *               server's R bit follows its device, Send With Invalidate
 *               is allowed because both set R;
 *   rw_read     the client registers three FRWR MRs (one chunk of three
 *               segments); the server RDMA Reads them with RwList into
 *               page pieces starting mid-page, as a Read chunk lands in
 *               rq_pages, and the content is checked; twice with one
 *               RwList, the first time making the list and one
 *               scatterlist block for the three segments (rw_pieces'
 *               bound), the second allocating nothing (as svcrdma's
 *               pooled contexts are reused); then with a block too small
 *               for the chain, the segments past it taking scatterlists
 *               of their own, content still checked;
 *   rw_write    the server RDMA Writes page pieces through RwCtx into a
 *               client FRWR registration, content checked;
 *   send_inv    RDMA Write then Send With Invalidate in one RwList chain:
 *               the client's Receive completion names the rkey, and a
 *               later RDMA Write to that rkey fails;
 *   inline_sges an inline Reply's Send as svcrdma lays it out (SendCtx,
 *               core::v1_layout_inline): long page pieces sent from
 *               their pages as SGEs of their own, the header, head and
 *               tail copied; then the same body pulled up into the Send
 *               buffer when the SGEs run out; the client receives the
 *               same octets both ways;
 *   sq_wait     the Send Queue slots a connection's threads take
 *               (rdma::SqSlots): a reserve that does not fit sleeps
 *               until a release makes room, and one sleeping when the
 *               connection is lost fails;
 *   budget      the Receive buffer budget (1/8 of RAM) a connection
 *               request must fit, and rpcrdmax_totalram_bytes().
 */
#include "../svcrdma/svcrdma.h"

namespace rpcrdmax::kunit_svc {

using namespace rpcrdmax::ktl;
using namespace rpcrdmax::rdma;
using kunit_rdma::End;
using kunit_rdma::Reporter;
using kunit_rdma::WcWait;

#define EXPECT(cond) check((cond), #cond, __FILE__, __LINE__)
#define EXPECT_OK(res) check((res).is_ok(), #res, __FILE__, __LINE__)

static constexpr unsigned short kPort = 20052;
static constexpr unsigned int kWaitMs = 10000;
static constexpr u32 kDepth = 16;
/* What kunit_rdma::connect_pair's client advertises. */
static constexpr u32 kClientSend = 4096, kClientRecv = 16384;
/* svc_rdma/max_req_size as rpcrdmax_svc_tunables() reports it (below). */
extern unsigned int fake_max_req_size;

/* Accepts one connection into `conn` the way svcrdma does. */
struct SvcListener : CmEvents {
	int cm_event(CmId *, const rpcrdmax_cm_event_info &ev) override
	{
		if (ev.event != RPCRDMAX_CM_CONNECT_REQUEST)
			return 0;
		conn->save_pdata(ev);
		conn->id.adopt(ev.new_id, conn);
		ib_device *dev = conn->id.device();
		bool ok = rpcrdmax_ib_query_device(dev, &attrs) == 0;
		if (ok) {
			plan = svcrdma::plan_accept(ConstBytes(conn->pdata, conn->pdata_len), attrs,
						    ev.initiator_depth, svcrdma::conn_limits());
			ok = conn->pd.alloc(dev).is_ok() &&
			     conn->scq.alloc(dev, kDepth * 4, 0, true).is_ok() &&
			     conn->rcq.alloc(dev, kDepth, 0, true).is_ok() &&
			     conn->id.create_qp(conn->pd, conn->scq, conn->rcq, kDepth, kDepth,
						min(attrs.max_send_sge, 4u), 1, kDepth, &sq_depth)
				     .is_ok();
		}
		if (conn->accept_or_refuse(ok, plan.ours, plan.ord))
			return -1;
		requested.complete();
		return 0;
	}
	CmId id;
	End *conn = nullptr;
	Completion requested;
	rpcrdmax_dev_attrs attrs = {};
	svcrdma::AcceptPlan plan = {};
	u32 sq_depth = 0;
};

struct Loopback {
	End server, client;
	SvcListener listener;
	/* Client memory the server reads or writes: pages, FRWR MRs. */
	static constexpr int kMrs = 3;
	page *cpages[kMrs] = {};
	Mr mrs[kMrs];
	/* Server pages (where a Call would land, or a Reply comes from). */
	static constexpr int kSPages = 4;
	page *spages[kSPages] = {};
	~Loopback()
	{
		for (auto &m : mrs)
			m.unmap();
		for (page *p : cpages)
			rpcrdmax_free_page(p);
		for (page *p : spages)
			rpcrdmax_free_page(p);
	}
};

/* Connect (kunit_rdma::connect_pair) and allocate the pages. */
static bool connect_pair(Reporter check, Loopback *lb)
{
	if (!kunit_rdma::connect_pair(check, lb, kPort))
		return false;
	for (auto &p : lb->cpages)
		p = rpcrdmax_alloc_page(RPCRDMAX_GFP_KERNEL | RPCRDMAX_GFP_ZERO);
	for (auto &p : lb->spages)
		p = rpcrdmax_alloc_page(RPCRDMAX_GFP_KERNEL | RPCRDMAX_GFP_ZERO);
	bool all = true;
	for (page *p : lb->cpages)
		all = all && p;
	for (page *p : lb->spages)
		all = all && p;
	return EXPECT(all);
}

using kunit_rdma::disconnect_pair;

static u8 *page_bytes(page *page)
{
	return static_cast<u8 *>(rpcrdmax_page_address(page));
}

static u8 pattern(u32 i, u32 seed)
{
	return (u8)(i * 13 + seed * 101 + 7);
}

/* Client: register @len octets of cpages[@i] from @off with @access; the segment. */
static bool client_register(Reporter check, Loopback *lb, int i, u32 off, u32 len, u32 access,
			    int dir, core::Segment *seg)
{
	auto *reg = new (Gfp::Kernel) WcWait;
	Mr &mr = lb->mrs[i];
	rpcrdmax_page_seg ps = { lb->cpages[i], off, len };
	unsigned int bad;
	bool ok = EXPECT(reg != nullptr) &&
		  EXPECT_OK(mr.alloc(lb->client.pd.get(), lb->client.id.device(), 2)) &&
		  EXPECT_OK(mr.map(Span<const rpcrdmax_page_seg>(&ps, 1), dir));
	if (ok) {
		mr.bump_key();
		WrSpec wr = mr.reg_wr(reg->cqe.raw(), access);
		ok = EXPECT_OK(lb->client.id.post_send(&wr, 1, &bad)) &&
		     EXPECT(reg->completion.wait_ms(kWaitMs)) &&
		     EXPECT(reg->wc.status == RPCRDMAX_IB_WC_SUCCESS);
	}
	if (ok)
		*seg = { mr.rkey(), len, mr.iova() };
	delete reg;
	return ok;
}

/* Server pieces for @len octets at linear offset @off of spages (as rq_pages). */
static u32 server_pieces(Loopback *lb, u32 off, u32 len, rpcrdmax_page_seg *out, u32 max)
{
	u32 n = 0;
	while (len && n < max) {
		u32 in = off % RPCRDMAX_PAGE_SIZE, k = min<u32>(len, RPCRDMAX_PAGE_SIZE - in);
		out[n++] = { lb->spages[off / RPCRDMAX_PAGE_SIZE], in, k };
		off += k;
		len -= k;
	}
	return len ? 0 : n;
}

/* One connection with max_req_size @req_size: the private data both
 * ways, and the Send size the server takes (max_req_size, within the
 * client's Receive size of kClientRecv). */
static void accept_one(Reporter check, u32 req_size)
{
	auto *lb = new (Gfp::Kernel) Loopback;
	core::PrivData seen;

	if (!EXPECT(lb != nullptr))
		return;
	fake_max_req_size = req_size;
	if (connect_pair(check, lb)) {
		const svcrdma::AcceptPlan &p = lb->listener.plan;
		const svcrdma::ConnLimits lim = svcrdma::conn_limits();
		const u32 send = min(req_size, kClientRecv);
		/* The server decoded the client's private data ... */
		EXPECT(p.peer.send_size == kClientSend && p.peer.recv_size == kClientRecv &&
		       p.peer.remote_inv);
		EXPECT(p.ours.remote_inv == lb->listener.attrs.mem_mgt_extensions);
		EXPECT(p.send_inv == lb->listener.attrs.mem_mgt_extensions);
		EXPECT(lim.recv_size == req_size && p.ours.send_size == send);
		EXPECT(p.thr.call == min(kClientSend, lim.recv_size) && p.thr.reply == send);
		EXPECT(p.ord >= 1 && p.ord <= lim.max_ord);
		/* rdma_rw enlarged the Send Queue for its contexts. */
		EXPECT(lb->listener.sq_depth >= kDepth + kDepth);
		/* ... and the client the server's. */
		EXPECT(core::pd_decode(ConstBytes(lb->client.pdata, lb->client.pdata_len),
				       &seen) == core::PdVerdict::Found);
		EXPECT(seen.send_size == send && seen.recv_size == lim.recv_size &&
		       seen.remote_inv == p.ours.remote_inv);
	}
	disconnect_pair(lb);
	fake_max_req_size = 4096;
	delete lb;
}

static void accept_case(Reporter check)
{
	accept_one(check, 4096);
	accept_one(check, 8192);
}

static void rw_read_case(Reporter check)
{
	auto *lb = new (Gfp::Kernel) Loopback;
	auto *done = new (Gfp::Kernel) WcWait;
	auto *pieces = new (Gfp::Kernel) rpcrdmax_page_seg[8];
	/* One chunk of three segments, of unequal sizes and offsets. */
	const u32 off[Loopback::kMrs] = { 0, 100, 1000 };
	const u32 len[Loopback::kMrs] = { 4096, 1001, 2500 };
	const u32 base = 300; /* where the chunk lands: mid-page, as after inline octets */
	core::Segment seg[Loopback::kMrs];
	RwList rw, small;

	if (!EXPECT(lb && done && pieces) || !connect_pair(check, lb))
		goto out;
	for (int i = 0; i < Loopback::kMrs; i++) {
		u8 *p = page_bytes(lb->cpages[i]);
		for (u32 k = 0; k < RPCRDMAX_PAGE_SIZE; k++)
			p[k] = pattern(k, (u32)i);
		if (!client_register(check, lb, i, off[i], len[i], RPCRDMAX_ACCESS_REMOTE_READ,
				     RPCRDMAX_DMA_TO_DEVICE, &seg[i]))
			goto out;
	}
	/* Twice with the same list: the second pass reuses the contexts
	 * and their block, and allocates nothing.  The third, on a list
	 * whose block holds the first segment's two pieces only, lends it to
	 * that segment; the other two make scatterlists of their own. */
	for (u32 pass = 0; pass < 3; pass++) {
		RwList &l = pass < 2 ? rw : small;
		u32 total = 0;
		for (int i = 0; i < Loopback::kMrs; i++)
			total += len[i];
		const u32 bound = pass < 2 ? svcrdma::rw_pieces(total, Loopback::kMrs, 1) : 2;
		for (u32 pg = 0; pg < 3; pg++)
			mem_set(page_bytes(lb->spages[pg]), 0, RPCRDMAX_PAGE_SIZE);
		if (!EXPECT_OK(l.alloc(Loopback::kMrs, bound)))
			goto out;
		u32 at = base, wrs = 0;
		for (int i = 0; i < Loopback::kMrs; i++) {
			u32 n = server_pieces(lb, at, seg[i].length, pieces, 8);
			if (!EXPECT(n >= 1))
				goto out;
			auto added = l.add(lb->server.id, Span<const rpcrdmax_page_seg>(pieces, n),
					   seg[i].offset, seg[i].handle, RPCRDMAX_DMA_FROM_DEVICE);
			if (!EXPECT_OK(added))
				goto out;
			EXPECT(added.value() >= 1);
			wrs += added.value();
			at += seg[i].length;
		}
		EXPECT(l.size() == (u32)Loopback::kMrs && l.sq_entries() == wrs);
		if (!EXPECT_OK(l.post(lb->server.id, &done->cqe, nullptr)) ||
		    !EXPECT(done->completion.wait_ms(kWaitMs)))
			goto out;
		/* Only the chain's last request signals. */
		EXPECT((u32)done->count.read() == pass + 1);
		EXPECT(done->wc.status == RPCRDMAX_IB_WC_SUCCESS);
		l.destroy();
		/* Pass 0: the list and its block; pass 1: nothing; pass 2: the
		 * list, its block and the scatterlists of segments 1 and 2. */
		const u32 grown[3] = { 2, 0, 2 + Loopback::kMrs - 1 };
		EXPECT(l.take_grown() == grown[pass]);
		/* The chunk lies at base.., segment after segment; around it, zeros. */
		at = base;
		bool same = true;
		for (int i = 0; i < Loopback::kMrs; i++) {
			for (u32 k = 0; k < len[i]; k++, at++) {
				u8 got = page_bytes(lb->spages[at / RPCRDMAX_PAGE_SIZE])
					[at % RPCRDMAX_PAGE_SIZE];
				same = same && got == pattern(off[i] + k, (u32)i);
			}
		}
		EXPECT(same);
		EXPECT(page_bytes(lb->spages[0])[base - 1] == 0);
		EXPECT(page_bytes(lb->spages[at / RPCRDMAX_PAGE_SIZE])[at % RPCRDMAX_PAGE_SIZE] ==
		       0);
	}
out:
	rw.destroy();
	small.destroy();
	if (lb)
		disconnect_pair(lb);
	delete lb;
	delete done;
	delete[] pieces;
}

/* Post @rw's chain, then @last if given. */
static bool post_rw(Reporter check, Loopback *lb, RwList *rw, Cqe *cqe, const WrSpec *last)
{
	Wr tail;

	if (last && !EXPECT(wr_from(*last, &tail)))
		return false;
	return EXPECT_OK(rw->post(lb->server.id, cqe, last ? &tail : nullptr));
}

/* Server: RDMA Write @len octets of spages from @from into @seg, then @last. */
static bool server_write(Reporter check, Loopback *lb, RwList *rw, u32 from,
			 const core::Segment &seg, Cqe *cqe, const WrSpec *last)
{
	rpcrdmax_page_seg pieces[4];
	u32 n = server_pieces(lb, from, seg.length, pieces, 4);
	return EXPECT(n >= 2) && EXPECT_OK(rw->alloc(1, n)) &&
	       EXPECT_OK(rw->add(lb->server.id, Span<const rpcrdmax_page_seg>(pieces, n),
				 seg.offset, seg.handle, RPCRDMAX_DMA_TO_DEVICE)) &&
	       post_rw(check, lb, rw, cqe, last);
}

static void fill_server(Loopback *lb, u32 seed)
{
	for (int i = 0; i < Loopback::kSPages; i++) {
		u8 *p = page_bytes(lb->spages[i]);
		for (u32 k = 0; k < RPCRDMAX_PAGE_SIZE; k++)
			p[k] = pattern(k + (u32)i * RPCRDMAX_PAGE_SIZE, seed);
	}
}

/* Whether @len octets at @p are fill_server()'s from server offset @from. */
static bool holds_server_bytes(const u8 *p, u32 len, u32 from, u32 seed)
{
	for (u32 k = 0; k < len; k++)
		if (p[k] != pattern(from + k, seed))
			return false;
	return true;
}

static void rw_write_case(Reporter check)
{
	auto *lb = new (Gfp::Kernel) Loopback;
	auto *done = new (Gfp::Kernel) WcWait;
	const u32 from = 3000, len = 3500; /* spans two server pages */
	core::Segment seg;
	RwList rw;

	if (!EXPECT(lb && done) || !connect_pair(check, lb))
		goto out;
	fill_server(lb, 5);
	if (!client_register(check, lb, 0, 200, len,
			     RPCRDMAX_ACCESS_LOCAL_WRITE | RPCRDMAX_ACCESS_REMOTE_WRITE,
			     RPCRDMAX_DMA_FROM_DEVICE, &seg) ||
	    !server_write(check, lb, &rw, from, seg, &done->cqe, nullptr) ||
	    !EXPECT(done->completion.wait_ms(kWaitMs)))
		goto out;
	EXPECT(done->wc.status == RPCRDMAX_IB_WC_SUCCESS);
	rw.destroy();
	lb->mrs[0].unmap();
	{
		const u8 *c = page_bytes(lb->cpages[0]);
		EXPECT(holds_server_bytes(c + 200, len, from, 5));
		EXPECT(c[199] == 0 && c[200 + len] == 0);
	}
out:
	rw.destroy();
	if (lb)
		disconnect_pair(lb);
	delete lb;
	delete done;
}

static void send_inv_case(Reporter check)
{
	auto *lb = new (Gfp::Kernel) Loopback;
	auto *recv = new (Gfp::Kernel) WcWait;
	auto *send = new (Gfp::Kernel) WcWait;
	auto *again = new (Gfp::Kernel) WcWait;
	auto *rbuf = new (Gfp::Kernel | GfpZero) u8[64];
	const u32 from = 4000, len = 2000;
	core::Segment seg;
	DmaBuf rmap, smap;
	RwList rw, rw2;

	if (!EXPECT(lb && recv && send && again && rbuf) || !connect_pair(check, lb))
		goto out;
	if (!EXPECT(lb->listener.plan.send_inv))
		goto out;
	fill_server(lb, 9);
	{
		/* Client: a Receive for the Reply, and a Write chunk's MR. */
		if (!EXPECT_OK(rmap.map(lb->client.id.device(), rbuf, 64,
					RPCRDMAX_DMA_FROM_DEVICE)))
			goto out;
		rpcrdmax_sge rsge = rmap.sge(lb->client.pd.local_dma_lkey());
		if (!EXPECT_OK(lb->client.id.post_recv(&recv->cqe, rsge)) ||
		    !client_register(check, lb, 1, 0, len,
				     RPCRDMAX_ACCESS_LOCAL_WRITE | RPCRDMAX_ACCESS_REMOTE_WRITE,
				     RPCRDMAX_DMA_FROM_DEVICE, &seg))
			goto out;

		/* Server: the Write, then Send With Invalidate, one chain. */
		u8 *hdr = page_bytes(lb->spages[3]) + 2048;
		if (!EXPECT_OK(smap.map(lb->server.id.device(), hdr, 28, RPCRDMAX_DMA_TO_DEVICE)))
			goto out;
		rpcrdmax_sge ssge = smap.sge(lb->server.pd.local_dma_lkey());
		WrSpec wr = {};
		wr.cqe = send->cqe.raw();
		wr.opcode = RPCRDMAX_WR_SEND_INV;
		wr.rkey = seg.handle;
		wr.sge = &ssge;
		wr.num_sge = 1;
		if (!server_write(check, lb, &rw, from, seg, nullptr, &wr) ||
		    !EXPECT(send->completion.wait_ms(kWaitMs)) ||
		    !EXPECT(recv->completion.wait_ms(kWaitMs)))
			goto out;
		EXPECT(send->count.read() == 1 && send->wc.status == RPCRDMAX_IB_WC_SUCCESS);
		EXPECT(recv->wc.status == RPCRDMAX_IB_WC_SUCCESS && recv->wc.byte_len == 28);
		EXPECT(recv->wc.with_invalidate);
		EXPECT(recv->wc.invalidated_rkey == seg.handle);
		lb->mrs[1].unmap();
		EXPECT(holds_server_bytes(page_bytes(lb->cpages[1]), len, from, 9));

		/* The MR is invalid now: a Write to its rkey fails. */
		if (server_write(check, lb, &rw2, from, seg, &again->cqe, nullptr) &&
		    EXPECT(again->completion.wait_ms(kWaitMs)))
			EXPECT(again->wc.status != RPCRDMAX_IB_WC_SUCCESS);
	}
out:
	if (lb)
		disconnect_pair(lb);
	rw.destroy();
	rw2.destroy();
	rmap.unmap();
	smap.unmap();
	delete lb;
	delete recv;
	delete send;
	delete again;
	delete[] rbuf;
}

static void no_completion(Cqe *, const ib_wc &) {}

/* Send an inline Reply body laid out under @max_sge SGEs; check what arrives. */
static void send_inline(Reporter check, Loopback *lb, u32 max_sge, u32 want_sges,
			u32 want_pulled)
{
	static constexpr u32 kHdr = 28, kRecv = 8192;
	/* head 120 octets, a page-list piece over two pages, tail 3 octets */
	const rpcrdmax_page_seg segs[] = { { lb->spages[0], 0, 120 },
					   { lb->spages[1], 3000, 1096 },
					   { lb->spages[2], 0, 2000 },
					   { lb->spages[0], 120, 3 } };
	const core::InlinePart parts[] = { { 120, false }, { 1096, true }, { 2000, true },
					   { 3, false } };
	auto *sc = new (Gfp::Kernel) svcrdma::SendCtx(&no_completion);
	auto *recv = new (Gfp::Kernel) WcWait;
	auto *send = new (Gfp::Kernel) WcWait;
	auto *rbuf = new (Gfp::Kernel | GfpZero) u8[kRecv];
	core::InlineLayout lay;
	DmaBuf rmap;
	unsigned int bad;

	if (!EXPECT(sc && recv && send && rbuf))
		goto out;
	if (!EXPECT_OK(sc->make(lb->server.id.device(), 4096, 0)) ||
	    !EXPECT(core::v1_layout_inline(kHdr, parts, 4, max_sge, core::kInlineMapMin, &lay)))
		goto out;
	EXPECT(lay.nsge == want_sges && lay.pulled_up == want_pulled);
	if (!EXPECT_OK(rmap.map(lb->client.id.device(), rbuf, kRecv, RPCRDMAX_DMA_FROM_DEVICE)))
		goto out;
	/* Twice with the same context, as a connection reuses it: reset()
	 * in between must leave nothing mapped and the layout empty. */
	for (int round = 0; round < 2; round++) {
		for (u32 k = 0; k < kHdr; k++)
			sc->data[k] = (u8)(0xa0 + k);
		mem_set(rbuf, 0, kRecv);
		if (!EXPECT_OK(sc->load_inline(lb->server.id.device(), kHdr, lay,
					       Span<const rpcrdmax_page_seg>(segs, 4))))
			goto out;
		{
			rpcrdmax_sge rsge = rmap.sge(lb->client.pd.local_dma_lkey());
			Span<const rpcrdmax_sge> sges =
				sc->sge_list(lb->server.pd.local_dma_lkey(), lay.send_len);
			EXPECT(sges.size() == want_sges);
			sc->map.sync_for_device();
			WrSpec wr = {};
			wr.cqe = send->cqe.raw();
			wr.opcode = RPCRDMAX_WR_SEND;
			wr.sge = sges.data();
			wr.num_sge = (unsigned int)sges.size();
			if (!EXPECT_OK(lb->client.id.post_recv(&recv->cqe, rsge)) ||
			    !EXPECT_OK(lb->server.id.post_send(&wr, 1, &bad)) ||
			    !EXPECT(send->completion.wait_ms(kWaitMs)) ||
			    !EXPECT(recv->completion.wait_ms(kWaitMs)))
				goto out;
			EXPECT(send->wc.status == RPCRDMAX_IB_WC_SUCCESS);
			EXPECT(recv->wc.status == RPCRDMAX_IB_WC_SUCCESS);
			EXPECT(recv->wc.byte_len == kHdr + 120 + 1096 + 2000 + 3);
			rmap.sync_for_cpu();
			u32 at = 0;
			bool same = true;
			for (u32 k = 0; k < kHdr; k++)
				same = same && rbuf[at++] == (u8)(0xa0 + k);
			for (const auto &sg : segs) {
				same = same && mem_compare(rbuf + at, page_bytes(sg.page) + sg.offset,
							   sg.len) == 0;
				at += sg.len;
			}
			EXPECT(same);
		}
		sc->reset();
		{
			bool unmapped = sc->map_dev == nullptr && sc->lay.nsge == 0;
			for (const auto &m : sc->maps)
				unmapped = unmapped && m.len == 0;
			EXPECT(unmapped);
		}
	}
out:
	rmap.unmap();
	delete sc; /* unmaps the page pieces and the Send buffer */
	delete recv;
	delete send;
	delete[] rbuf;
}

static void inline_sges_case(Reporter check)
{
	auto *lb = new (Gfp::Kernel) Loopback;

	if (!EXPECT(lb != nullptr))
		return;
	if (connect_pair(check, lb)) {
		fill_server(lb, 4);
		/* Four SGEs: header + head, two page pieces, the tail. */
		send_inline(check, lb, 8, 4, 0);
		/* Three allowed: the page pieces are pulled up, one SGE. */
		send_inline(check, lb, 3, 1, 3096);
	}
	disconnect_pair(lb);
	delete lb;
}

/* A reserve() made from a work item, as an nfsd thread would; the test
 * itself never sleeps in reserve(), so a broken SqSlots fails it rather
 * than hanging it. */
struct SqTaker {
	SqTaker() : work(&SqTaker::run) {}
	static void run(FnWork *w)
	{
		SqTaker *t = container_of(w, &SqTaker::work);
		/* as svcrdma_sq_full and _sq_retry would fire */
		auto r = t->sq->reserve(t->n, [t](bool retry) { (retry ? t->retries : t->fulls)++; });
		t->waited = t->fulls > 0;
		t->result = r.is_ok() ? 0 : r.error().code();
		t->done.complete();
	}
	bool start(SqSlots *q, u32 slots)
	{
		sq = q;
		n = slots;
		return work.queue();
	}
	FnWork work;
	SqSlots *sq = nullptr;
	u32 n = 0;
	bool waited = false;
	u32 fulls = 0, retries = 0; /* too few free, before sleeping; after waking */
	int result = 1; /* 1: still sleeping */
	Completion done;
};

static void sq_wait_case(Reporter check)
{
	auto *sq = new (Gfp::Kernel) SqSlots;
	auto *t = new (Gfp::Kernel) SqTaker[5];

	if (!EXPECT(sq && t))
		goto out;
	sq->init(4);
	/* Three of four fit at once; five never fit. */
	EXPECT(t[0].start(sq, 3) && t[0].done.wait_ms(kWaitMs));
	EXPECT(t[0].result == 0 && !t[0].waited && sq->available() == 1);
	EXPECT(t[1].start(sq, 5) && t[1].done.wait_ms(kWaitMs));
	EXPECT(t[1].result == -err::EMSGSIZE && sq->available() == 1);
	/* Two wanted, one free: the taker sleeps ... */
	EXPECT(t[2].start(sq, 2));
	EXPECT(!t[2].done.wait_ms(200));
	EXPECT(t[2].result == 1 && sq->available() == 1);
	/* ... until a completion returns slots. */
	sq->release(3);
	EXPECT(t[2].done.wait_ms(kWaitMs));
	EXPECT(t[2].result == 0 && t[2].waited && sq->available() == 2);
	/* each sleep was announced, and each wake-up retried */
	EXPECT(t[2].fulls >= 1 && t[2].retries == t[2].fulls);
	EXPECT(t[0].fulls == 0 && t[0].retries == 0);
	/* Full again; a sleeper fails when the connection is lost. */
	EXPECT(t[3].start(sq, 2) && t[3].done.wait_ms(kWaitMs));
	EXPECT(t[3].result == 0 && sq->available() == 0);
	EXPECT(t[4].start(sq, 1));
	EXPECT(!t[4].done.wait_ms(200));
	sq->shut();
	EXPECT(t[4].done.wait_ms(kWaitMs));
	EXPECT(t[4].result == -err::ENOTCONN && t[4].waited);
	/* woken by the loss: no retry after the last sleep */
	EXPECT(t[4].fulls >= 1 && t[4].retries == t[4].fulls - 1);
	/* Whatever happened, no taker may outlive the test. */
	sq->shut();
	sq->release(8);
out:
	if (t)
		for (int i = 0; i < 5; i++)
			t[i].work.cancel_sync();
	delete[] t;
	delete sq;
}

static void budget_case(Reporter check)
{
	constexpr u64 kGiB = 1ull << 30;
	const svcrdma::ConnLimits largest = { 16384, 65536, 4096, 16 };
	const u64 ram = rpcrdmax_totalram_bytes();

	EXPECT(ram > 0 && ram % RPCRDMAX_PAGE_SIZE == 0);
	EXPECT(svcrdma::recv_budget(2 * kGiB) == 256ull << 20);
	/* The defaults fit a small machine; the largest settings need 8 GiB. */
	EXPECT(svcrdma::recv_bytes(svcrdma::conn_limits()) == 64 * 4096);
	EXPECT(svcrdma::recv_bytes(svcrdma::conn_limits()) <= svcrdma::recv_budget(kGiB));
	EXPECT(svcrdma::recv_bytes(largest) == kGiB);
	EXPECT(svcrdma::recv_bytes(largest) > svcrdma::recv_budget(8 * kGiB - 4096));
	EXPECT(svcrdma::recv_bytes(largest) <= svcrdma::recv_budget(8 * kGiB));
}

#undef EXPECT
#undef EXPECT_OK

} // namespace rpcrdmax::kunit_svc

/* /proc/sys/sunrpc/svc_rdma is not in the KUnit module: the stock
 * defaults, and max_version as a case sets it (read at accept). */
namespace rpcrdmax::kunit_svc {
unsigned int fake_max_version = 2;
unsigned int fake_max_req_size = 4096;
} // namespace rpcrdmax::kunit_svc
extern "C" void rpcrdmax_svc_tunables(struct rpcrdmax_svc_tunables *out) noexcept
{
	out->max_requests = 64;
	out->max_req_size = rpcrdmax::kunit_svc::fake_max_req_size;
	out->max_outbound_read_requests = 16;
	out->max_version = rpcrdmax::kunit_svc::fake_max_version;
}

#define RPCRDMAX_KUNIT_SVC_ENTRY(name) RPCRDMAX_KUNIT_CXX_ENTRY(kunit_svc, svc_, name)

RPCRDMAX_KUNIT_SVC_ENTRY(accept)
RPCRDMAX_KUNIT_SVC_ENTRY(rw_read)
RPCRDMAX_KUNIT_SVC_ENTRY(rw_write)
RPCRDMAX_KUNIT_SVC_ENTRY(send_inv)
RPCRDMAX_KUNIT_SVC_ENTRY(inline_sges)
RPCRDMAX_KUNIT_SVC_ENTRY(sq_wait)
RPCRDMAX_KUNIT_SVC_ENTRY(budget)
