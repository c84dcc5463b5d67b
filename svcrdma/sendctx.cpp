// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma/sendctx.cpp - a Reply's Send context: the inline body laid out
 * by core::v1_layout_inline (parts copied into the Send buffer after the
 * transport header, long page-list pieces DMA-mapped and sent from their
 * pages), its SGE list, and the release of what it holds between two
 * Replies.
 */
#include "svcrdma.h"

namespace rpcrdmax::svcrdma {

SendCtx::~SendCtx()
{
	reset();
}

/* Allocate the Send buffer of @len octets and DMA-map it for @dev, once
 * for the context's life; @cid names its completions in tracepoints. */
Result<void> SendCtx::make(ib_device *dev, u32 len, int cid)
{
	auto r = MsgBuf::make(dev, len, RPCRDMAX_DMA_TO_DEVICE, cid);

	if (map_failed(r) && tp_on(RPCRDMAX_TP_SVCRDMA_DMA_MAP_ERR))
		rpcrdmax_trace_svc_dma_map_err(conn ? conn->id.get() : nullptr, map.dma(), len);
	return r;
}

/* Let go of what one Reply used (page mappings, rdma_rw contexts, rq_res
 * pages); the Send buffer, its mapping and the arrays stay. */
void SendCtx::reset()
{
	/* Of the parts load_inline went through, those it mapped have a
	 * length; a map entry with none is never read. */
	for (u32 i = 0; i < nmaps; i++)
		if (maps[i].len) {
			rpcrdmax_ib_dma_unmap_page(map_dev, maps[i].dma, maps[i].len,
						   RPCRDMAX_DMA_TO_DEVICE);
			maps[i].len = 0;
		}
	nmaps = 0;
	map_dev = nullptr;
	rw.destroy();
	rpcrdmax_put_pages(pages.data(), npages);
	npages = 0;
	sq_entries = 0;
	write_wrs = 0;
	/* Until the next load_inline the Send is the buffer alone
	 * (sge_list); load_inline sets the whole layout. */
	lay.nsge = 0;
	lay.nmapped = 0;
}

/*
 * Fill the Send buffer (whose first @hlen octets hold the transport
 * header) and map the page pieces as @layout says; @segs are the body's
 * parts in order.  The buffer itself was mapped when it was made.
 */
Result<void> SendCtx::load_inline(ib_device *dev, u32 hlen, const core::InlineLayout &layout,
				  Span<const rpcrdmax_page_seg> segs)
{
	u32 at = hlen;

	lay = layout;
	map_dev = dev;
	nmaps = (u32)segs.size(); /* at most kInlineMaxParts (the layout's parts) */
	for (size_t i = 0; i < segs.size(); i++) {
		auto r = load_piece((u32)i, segs[i], &at);
		if (r.is_error())
			return r;
	}
	if (at != lay.buf_len)
		return error(err::EINVAL);
	return {};
}

/*
 * Part @i of the layout, the page piece @sg: DMA-mapped when the layout
 * sends it from its page, else copied into the Send buffer at *@at
 * (which moves past it).  map_dev and lay are set.
 */
Result<void> SendCtx::load_piece(u32 i, const rpcrdmax_page_seg &sg, u32 *at)
{
	if (!lay.mapped[i]) {
		mem_copy(data + *at,
			 static_cast<const u8 *>(rpcrdmax_page_address(sg.page)) + sg.offset,
			 sg.len);
		*at += sg.len;
		return {};
	}
	int rc = rpcrdmax_ib_dma_map_page(map_dev, sg.page, sg.offset, sg.len,
					  RPCRDMAX_DMA_TO_DEVICE, &maps[i].dma);
	if (rc) {
		if (tp_on(RPCRDMAX_TP_SVCRDMA_DMA_MAP_ERR))
			rpcrdmax_trace_svc_dma_map_err(conn ? conn->id.get() : nullptr,
						       maps[i].dma, sg.len);
		return Errno::from(rc);
	}
	maps[i].len = sg.len;
	return {};
}

/*
 * The same for a Reply whose body is rq_res whole (@res), as lay (laid
 * out in place by the caller) says: part 0 its head, parts 1 to
 * @pieces' size its page list, the last its tail; head and tail are
 * copied from their addresses.
 */
Result<void> SendCtx::load_res(ib_device *dev, u32 hlen, const XdrBufView &res,
			       Span<const rpcrdmax_page_seg> pieces)
{
	const u32 head = res.head_len(), tail = res.tail_len();
	u32 at = hlen + head;

	map_dev = dev;
	nmaps = (u32)pieces.size() + 1; /* the tail is never mapped */
	if (head)
		mem_copy(data + hlen, reinterpret_cast<const void *>(res.head_base()), head);
	for (size_t i = 0; i < pieces.size(); i++) {
		auto r = load_piece((u32)i + 1, pieces[i], &at);
		if (r.is_error())
			return r;
	}
	if (at + tail != lay.buf_len)
		return error(err::EINVAL);
	if (tail)
		mem_copy(data + at, reinterpret_cast<const void *>(res.tail_base()), tail);
	return {};
}

/* The Send's SGEs under @lkey: the layout's, or the first @send_len
 * octets of the Send buffer when there is none. */
Span<const rpcrdmax_sge> SendCtx::sge_list(u32 lkey, u32 send_len)
{
	const rpcrdmax_sge buf = map.sge(lkey);

	if (!lay.nsge) {
		sges[0] = buf;
		sges[0].length = send_len;
		return Span<const rpcrdmax_sge>(sges, 1);
	}
	for (u32 k = 0; k < lay.nsge; k++) {
		const core::InlineSge &g = lay.sge[k];
		if (g.mapped)
			sges[k] = { maps[g.part].dma, g.len, lkey };
		else
			sges[k] = { buf.addr + g.buf_off, g.len, lkey };
	}
	return Span<const rpcrdmax_sge>(sges, lay.nsge);
}

} // namespace rpcrdmax::svcrdma
