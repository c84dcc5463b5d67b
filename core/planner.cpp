// SPDX-License-Identifier: GPL-2.0
/*
 * core/planner.cpp - chunk planning.  See core/planner.h for the forms
 * and RFC sections.  The Reply side is planned first because the chunks
 * offered for the Reply are part of the Call's transport header.
 */
#include <rpcrdmax/core/planner.h>
#include <rpcrdmax/ktl/utility.h>
#include <rpcrdmax/ktl/xdr.h>

namespace rpcrdmax::core {

namespace planner_impl {

/* Header growth per element (see ChunkLists::encoded_size). */
constexpr u64 write_chunk_bytes(u32 nsegs)
{
	return 2 * kXdrWord + (u64)nsegs * kSegmentSize;
}
constexpr u64 reply_chunk_extra(u32 nsegs) /* beyond the absent word */
{
	return kXdrWord + (u64)nsegs * kSegmentSize;
}
static_assert(reply_chunk_extra(1) == kOneReplyChunkExtra &&
	      write_chunk_bytes(1) == kOneWriteChunkSize);
constexpr u64 read_list_bytes(u32 nsegs)
{
	return (u64)nsegs * kReadSegmentSize;
}

static u64 stream_len(const MsgShape &m)
{
	return (u64)m.head.len + m.pages.len + m.pad + m.tail.len;
}

/* @m, whose stream is @len octets (stream_len), as the planner takes it */
static bool shape_ok(const MsgShape &m, u64 len)
{
	if (m.pad > 3 || len > ktl::U32_MAX)
		return false;
	/* A DDP item sits after the RPC header: never at position zero,
	 * which RFC 8166 Section 3.5.3.1 reserves for the Long Call. */
	if (m.ddp && (m.head.len == 0 || (m.head.len & 3) ||
		      m.pad != ktl::xdr_pad(m.pages.len)))
		return false;
	return true;
}

static bool params_ok(const PlanParams &p)
{
	return (p.vers == kRpcRdmaVersion1 || p.vers == kRpcRdmaVersion2) &&
	       p.call_threshold && p.reply_threshold &&
	       p.max_segments_per_chunk && p.pages_per_mr && p.page_size &&
	       (p.page_size & (p.page_size - 1)) == 0;
}

static void chunk_init(PlannedChunk *c, u32 position)
{
	c->position = position;
	c->length = 0;
	c->nsegs = 0;
}

/*
 * Append the @len octets of extent @id, whose first octet sits
 * @page_offset into its page, split at registration boundaries.
 */
static bool add_extent(PlannedChunk *c, ExtentId id, u32 len, u32 page_offset,
		const PlanParams &p)
{
	u32 limit = ktl::min(p.max_segments_per_chunk, kPlanMaxSegs);
	u64 reg = (u64)p.pages_per_mr * p.page_size;
	u64 in_reg = page_offset & (p.page_size - 1); /* octets before us */
	u32 done = 0;

	/* within one registration (a READ's data, mostly): one segment */
	if (len && in_reg + len <= reg && c->nsegs < limit) {
		c->segs[c->nsegs++] = PlannedSegment{id, 0, len};
		c->length += len;
		return true;
	}
	while (done < len) {
		u64 room = reg - in_reg;
		u32 n = (u32)ktl::min<u64>(room, len - done);

		if (c->nsegs >= limit)
			return false;
		c->segs[c->nsegs++] = PlannedSegment{id, done, n};
		c->length += n;
		done += n;
		in_reg = 0;
	}
	return true;
}

/* The whole stream of @m in one chunk: head, pages, round-up + tail. */
static bool add_whole(PlannedChunk *c, const MsgShape &m, const PlanParams &p)
{
	return add_extent(c, ExtentId::Head, m.head.len, m.head.page_offset, p) &&
	       add_extent(c, ExtentId::Pages, m.pages.len, m.pages.page_offset, p) &&
	       add_extent(c, ExtentId::Tail, m.pad + m.tail.len,
			  m.tail.page_offset, p);
}

/* The stream less its DDP-eligible item and that item's round-up. */
static bool add_reduced(PlannedChunk *c, const MsgShape &m, const PlanParams &p)
{
	return add_extent(c, ExtentId::Head, m.head.len, m.head.page_offset, p) &&
	       add_extent(c, ExtentId::Tail, m.tail.len, m.tail.page_offset, p);
}

static bool ddp_usable(const MsgShape &m, const PlanParams &p)
{
	return m.ddp && p.ddp_allowed && m.pages.len > 0;
}

/* The Reply of @m (its stream @total octets long) */
static PlanError plan_reply(const MsgShape &m, u64 total, const PlanParams &p, Plan *out)
{
	u64 hdr = min_header_size(p.vers);

	out->reply = ReplyForm::Inline;
	if (hdr + total <= p.reply_threshold) {
		out->reply_hdr_len = (u32)hdr;
		return PlanError::None;
	}
	if (ddp_usable(m, p)) {
		chunk_init(&out->write, 0);
		if (!add_extent(&out->write, ExtentId::Pages, m.pages.len,
				m.pages.page_offset, p))
			return PlanError::TooManySegments;
		out->has_write = true;
		hdr += write_chunk_bytes(out->write.nsegs);
		out->reply = ReplyForm::WriteChunk;
		if (hdr + m.head.len + m.tail.len <= p.reply_threshold) {
			out->reply_hdr_len = (u32)hdr;
			return PlanError::None;
		}
		chunk_init(&out->reply_chunk, 0);
		if (!add_reduced(&out->reply_chunk, m, p))
			return PlanError::TooManySegments;
		out->reply = ReplyForm::WriteAndReplyChunk;
	} else {
		chunk_init(&out->reply_chunk, 0);
		if (!add_whole(&out->reply_chunk, m, p))
			return PlanError::TooManySegments;
		out->reply = ReplyForm::ReplyChunk;
	}
	out->has_reply = true;
	hdr += reply_chunk_extra(out->reply_chunk.nsegs);
	if (hdr > p.reply_threshold)
		return PlanError::HeaderTooLarge;
	out->reply_hdr_len = (u32)hdr;
	return PlanError::None;
}

/* The Call of @m (its stream @total octets long), after its Reply's */
static PlanError plan_call(const MsgShape &m, u64 total, const PlanParams &p, Plan *out)
{
	u64 hdr = min_header_size(p.vers);
	u64 reduced = (u64)m.head.len + m.tail.len;

	if (out->has_write)
		hdr += write_chunk_bytes(out->write.nsegs);
	if (out->has_reply)
		hdr += reply_chunk_extra(out->reply_chunk.nsegs);

	out->proc = V1Proc::Msg;
	out->call = CallForm::Inline;
	if (hdr + total <= p.call_threshold) {
		out->call_hdr_len = (u32)hdr;
		out->call_inline_len = (u32)total;
		return PlanError::None;
	}
	if (ddp_usable(m, p)) {
		chunk_init(&out->read, m.head.len);
		if (!add_extent(&out->read, ExtentId::Pages, m.pages.len,
				m.pages.page_offset, p))
			return PlanError::TooManySegments;
		out->has_read = true;
		hdr += read_list_bytes(out->read.nsegs);
		if (hdr + reduced <= p.call_threshold) {
			out->call = CallForm::ReadChunk;
			out->call_hdr_len = (u32)hdr;
			out->call_inline_len = (u32)reduced;
			return PlanError::None;
		}
		chunk_init(&out->call_chunk, 0);
		if (!add_reduced(&out->call_chunk, m, p))
			return PlanError::TooManySegments;
		out->call = CallForm::LongCallReadChunk;
	} else {
		chunk_init(&out->call_chunk, 0);
		if (!add_whole(&out->call_chunk, m, p))
			return PlanError::TooManySegments;
		out->call = CallForm::LongCall;
	}
	out->has_call_chunk = true;
	out->proc = V1Proc::NoMsg;
	hdr += read_list_bytes(out->call_chunk.nsegs);
	if (hdr > p.call_threshold)
		return PlanError::HeaderTooLarge;
	out->call_hdr_len = (u32)hdr;
	out->call_inline_len = 0;
	return PlanError::None;
}

} // namespace planner_impl

PlanError plan_rpc(const MsgShape &call, const MsgShape &reply,
		   const PlanParams &params, Plan *out)
{
	PlanError e;

	out->proc = V1Proc::Msg;
	out->call = CallForm::Inline;
	out->reply = ReplyForm::Inline;
	out->call_hdr_len = 0;
	out->call_inline_len = 0;
	out->reply_hdr_len = 0;
	out->reply_inline_max = 0;
	out->has_call_chunk = out->has_read = false;
	out->has_write = out->has_reply = false;
	planner_impl::chunk_init(&out->call_chunk, 0);
	planner_impl::chunk_init(&out->read, 0);
	planner_impl::chunk_init(&out->write, 0);
	planner_impl::chunk_init(&out->reply_chunk, 0);

	if (!planner_impl::params_ok(params))
		return PlanError::BadParams;
	const u64 call_len = planner_impl::stream_len(call);
	const u64 reply_len = planner_impl::stream_len(reply);
	if (!planner_impl::shape_ok(call, call_len) || !planner_impl::shape_ok(reply, reply_len))
		return PlanError::BadShape;
	e = planner_impl::plan_reply(reply, reply_len, params, out);
	if (e != PlanError::None)
		return e;
	out->reply_inline_max = params.reply_threshold - out->reply_hdr_len;
	return planner_impl::plan_call(call, call_len, params, out);
}

namespace planner_impl {

/* Whether @len octets starting @page_offset into a page fit one registration. */
static bool fits_one_registration(u32 page_offset, u32 len, const PlanParams &p)
{
	return (u64)(page_offset & (p.page_size - 1)) + len <= (u64)p.pages_per_mr * p.page_size;
}

/* A plan_one_*() plan: the Call inline (@call_len octets) behind a header
 * of @hdr octets, which the Reply's header may be too; the Reply's one
 * chunk (@reply_form) one segment over @len octets of extent @id. */
static void plan_one_segment(u32 hdr, u64 call_len, ReplyForm reply_form, ExtentId id, u32 len,
			     const PlanParams &params, Plan *out)
{
	const bool write = reply_form == ReplyForm::WriteChunk;
	PlannedChunk &c = write ? out->write : out->reply_chunk;

	out->proc = V1Proc::Msg;
	out->call = CallForm::Inline;
	out->reply = reply_form;
	out->call_hdr_len = hdr;
	out->call_inline_len = (u32)call_len;
	out->reply_hdr_len = hdr;
	out->reply_inline_max = params.reply_threshold - hdr;
	out->has_call_chunk = out->has_read = false;
	out->has_write = write;
	out->has_reply = !write;
	/* the chunks not planned are left as they are (Plan) */
	c.position = 0;
	c.length = len;
	c.nsegs = 1;
	c.segs[0] = PlannedSegment{id, 0, len};
}

} // namespace planner_impl

bool plan_one_write(u64 call_len, const MsgShape &reply, const PlanParams &params, Plan *out)
{
	using namespace planner_impl;

	const u64 reply_len = stream_len(reply);

	/* the shape's own test first: it tells most other RPCs apart */
	if (!ddp_usable(reply, params) || !params_ok(params) || !shape_ok(reply, reply_len))
		return false;
	const u64 hdr = one_segment_msg_size(params.vers, true); /* the Call's and the Reply's */

	/* the whole Reply would not fit inline; its data item fits one
	 * registration; the rest of it and the Call fit inline */
	if (min_header_size(params.vers) + reply_len <= params.reply_threshold ||
	    !fits_one_registration(reply.pages.page_offset, reply.pages.len, params) ||
	    hdr + reply.head.len + reply.tail.len > params.reply_threshold ||
	    hdr + call_len > params.call_threshold)
		return false;
	plan_one_segment((u32)hdr, call_len, ReplyForm::WriteChunk, ExtentId::Pages,
			 reply.pages.len, params, out);
	return true;
}

bool plan_one_reply(u64 call_len, const MsgShape &reply, const PlanParams &params, Plan *out)
{
	using namespace planner_impl;

	if (reply.pages.len || reply.pad || reply.tail.len || !params_ok(params) ||
	    !shape_ok(reply, stream_len(reply)))
		return false;
	const u64 hdr = one_segment_msg_size(params.vers, false);

	/* the Reply would not fit inline; its head fits one registration;
	 * the header with the Reply chunk and the whole Call fit inline */
	if (min_header_size(params.vers) + reply.head.len <= params.reply_threshold ||
	    !fits_one_registration(reply.head.page_offset, reply.head.len, params) ||
	    hdr > params.reply_threshold || hdr + call_len > params.call_threshold)
		return false;
	plan_one_segment((u32)hdr, call_len, ReplyForm::ReplyChunk, ExtentId::Head,
			 reply.head.len, params, out);
	return true;
}

bool place_reply_around_ddp(u32 head_room, u32 page_len, u32 tail_room, u32 len, u32 ddp_len,
			    ReplyPlacement *out)
{
	if (!ddp_len || ddp_len > page_len)
		return false;
	const u32 head = len < head_room ? len : head_room;
	const u32 rest = len - head;
	const u32 pad = static_cast<u32>(ktl::xdr_pad(ddp_len));
	const u64 rpc_len = static_cast<u64>(len) + ktl::xdr_align(ddp_len);

	if (rest && static_cast<u64>(pad) + rest > tail_room)
		return false;
	if (rpc_len > 0xffffffffu)
		return false;
	*out = { head, rest ? pad : 0, rest, static_cast<u32>(rpc_len) };
	return true;
}

const char *plan_error_name(PlanError e)
{
	switch (e) {
	case PlanError::None: return "none";
	case PlanError::BadParams: return "bad_params";
	case PlanError::BadShape: return "bad_shape";
	case PlanError::TooManySegments: return "too_many_segments";
	case PlanError::HeaderTooLarge: return "header_too_large";
	}
	return "?";
}

} // namespace rpcrdmax::core
