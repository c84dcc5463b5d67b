// SPDX-License-Identifier: GPL-2.0
/*
 * core/responder.cpp - the responder's Reply plan (core/responder.h).
 */
#include <rpcrdmax/core/responder.h>

namespace rpcrdmax::core {

/* Echo chunk @c of @cl into @out, its segments holding @written octets. */
static bool echo_chunk(ChunkLists *out, const ChunkLists &cl, const ChunkRef &c, u32 written,
		       bool reply)
{
	if ((reply ? out->set_reply_chunk() : out->add_write_chunk()) != ListError::None)
		return false;
	for (u32 i = 0; i < c.nsegs; i++) {
		Segment s = cl.segment(c, i);
		s.length = ktl::min(s.length, written);
		written -= s.length;
		if ((reply ? out->add_reply_segment(s) : out->add_write_segment(s)) !=
		    ListError::None)
			return false;
	}
	return true;
}

ReplyPlan v1_plan_reply(const V1Header &call, const ReplyShape &s, u32 inline_max,
			V1Header *rep)
{
	const ChunkLists &cl = call.chunks;
	ReplyPlan p = {};

	p.route = ReplyRoute::Bad;
	rep->xid = call.xid;
	rep->vers = kRpcRdmaVersion1;
	rep->proc = V1Proc::Msg;
	rep->chunks.clear();
	if ((u64)s.head_len + s.page_len + s.tail_len != s.len)
		return p;
	bool use_write = cl.nwrite > 0 && s.page_len > 0 &&
			 cl.chunk_length(cl.write[0]) >= s.page_len;
	if (use_write) {
		p.write_len = s.page_len;
		p.pad_skip = ktl::min<u32>(ktl::round_up<u32>(s.page_len, 4) - s.page_len,
					   s.tail_len);
	}
	p.body_len = s.len - p.write_len - p.pad_skip;
	p.body_a = s.head_len + (use_write ? 0 : s.page_len);
	p.body_b = s.head_len + s.page_len + p.pad_skip;
	for (u32 i = 0; i < cl.nwrite; i++)
		if (!echo_chunk(&rep->chunks, cl, cl.write[i], i == 0 ? p.write_len : 0, false))
			return p;
	if ((u64)v1_encoded_size(*rep) + p.body_len <= inline_max) {
		p.route = ReplyRoute::Inline;
		return p;
	}
	if (!cl.has_reply || cl.chunk_length(cl.reply) < p.body_len) {
		p.route = ReplyRoute::NoRoom;
		return p;
	}
	rep->proc = V1Proc::NoMsg;
	if (!echo_chunk(&rep->chunks, cl, cl.reply, p.body_len, true))
		return p;
	p.route = ReplyRoute::ReplyChunk;
	return p;
}

} // namespace rpcrdmax::core
