// SPDX-License-Identifier: GPL-2.0
/*
 * core/responder.cpp - the responder's Call layout and Reply plan
 * (core/responder.h).
 */
#include <rpcrdmax/core/responder.h>
#include <rpcrdmax/core/v2.h>

namespace rpcrdmax::core {

static bool add_piece(CallLayout *out, CallPieceKind kind, u32 chunk, u32 src, u32 len)
{
	if (!len)
		return true;
	if (out->npieces == kCallMaxPieces)
		return false;
	out->pieces[out->npieces++] = { kind, (u8)chunk, src, len };
	return true;
}

CallLayoutError v1_layout_call(const V1Header &call, u32 inl_len, u32 max_chunk,
			       CallLayout *out)
{
	const ChunkLists &cl = call.chunks;
	constexpr u64 kMaxMessage = 1ull << 31;
	u64 len = 0, in = 0;
	u32 first = 0;

	out->npieces = 0;
	out->len = 0;
	out->from_call_chunk = call.proc == V1Proc::NoMsg;
	if (cl.nread > kMaxChunksCap)
		return CallLayoutError::Bad;
	if (out->from_call_chunk) {
		if (!cl.has_call_chunk())
			return CallLayoutError::Bad;
		u64 clen = cl.chunk_length(cl.read[0]);
		if (clen > max_chunk)
			return CallLayoutError::TooLong;
		inl_len = (u32)clen;
		first = 1;
	}
	for (u32 i = first; i < cl.nread; i++) {
		const ChunkRef &c = cl.read[i];
		if (c.position < len || c.position - len > inl_len - in)
			return CallLayoutError::Bad;
		u32 n = (u32)(c.position - len);
		u64 clen = cl.chunk_length(c);
		if (clen > max_chunk)
			return CallLayoutError::TooLong;
		u32 pad = ktl::round_up<u32>((u32)clen, 4) - (u32)clen;
		if (!add_piece(out, CallPieceKind::Inline, 0, (u32)in, n) ||
		    !add_piece(out, CallPieceKind::Chunk, i, 0, (u32)clen) ||
		    !add_piece(out, CallPieceKind::Pad, 0, 0, pad))
			return CallLayoutError::Bad;
		in += n;
		len += n + clen + pad;
		if (len > kMaxMessage)
			return CallLayoutError::TooLong;
	}
	if (!add_piece(out, CallPieceKind::Inline, 0, (u32)in, inl_len - (u32)in))
		return CallLayoutError::Bad;
	len += inl_len - in;
	if (!len)
		return CallLayoutError::Bad;
	if (len > kMaxMessage)
		return CallLayoutError::TooLong;
	out->len = (u32)len;
	return CallLayoutError::None;
}

/* Echo chunk @c of @cl into @out, its segments holding @written octets. */
static bool echo_chunk(ChunkLists *out, const ChunkLists &cl, const ChunkRef &c, u32 written,
		       bool reply)
{
	if ((reply ? out->set_reply_chunk() : out->add_write_chunk()) != ListError::None)
		return false;
	for (u32 i = 0; i < c.nsegs; i++) {
		const Segment s = chunks::echo_segment(cl.segment(c, i), &written);
		if ((reply ? out->add_reply_segment(s) : out->add_write_segment(s)) !=
		    ListError::None)
			return false;
	}
	return true;
}

/*
 * Which results go into Write chunks, and what that leaves for the body:
 * false when the results do not lie inside the Reply, in order, without
 * overlap.  One pass; the counts stay in locals until the end, as the
 * compiler cannot keep fields of *@p in registers across the stores into
 * p->writes[] and p->body[].
 */
static bool plan_writes(const ChunkLists &cl, const ReplyShape &s, ReplyPlan *p)
{
	const u32 nwrites = ktl::min(cl.nwrite, kMaxChunksCap);
	u32 at = 0, prev_end = 0, write_len = 0, nbody = 0, body_len = 0;

	/* no Write list, no results (a Short or Long Reply): the body is
	 * the whole Reply */
	if (!nwrites && !s.npayloads) {
		p->body[0] = { 0, s.len };
		p->nbody = s.len ? 1 : 0;
		p->nwrites = 0;
		p->write_len = 0;
		p->body_len = s.len;
		return true;
	}
	if (s.npayloads > kMaxChunksCap)
		return false;
	for (u32 i = 0; i < s.npayloads; i++) {
		const Range r = s.payloads[i];
		if (r.off < prev_end || r.off > s.len || r.len > s.len - r.off)
			return false;
		prev_end = r.off + r.len;
		if (i >= nwrites)
			continue;
		if (!r.len || cl.chunk_length(cl.write[i]) < r.len) {
			p->writes[i] = {}; /* it stays in the body */
			continue;
		}
		/* its round-up, as far as the Reply holds it before the next */
		const u32 next = i + 1 < s.npayloads ? s.payloads[i + 1].off : s.len;
		const u32 pad = ktl::min(ktl::round_up<u32>(r.len, 4) - r.len, next - prev_end);
		p->writes[i] = r;
		write_len += r.len;
		if (r.off > at) {
			p->body[nbody++] = { at, r.off - at };
			body_len += r.off - at;
		}
		at = prev_end + pad;
	}
	for (u32 i = s.npayloads; i < nwrites; i++)
		p->writes[i] = {};
	if (at < s.len) {
		p->body[nbody++] = { at, s.len - at };
		body_len += s.len - at;
	}
	p->nwrites = nwrites;
	p->write_len = write_len;
	p->nbody = nbody;
	p->body_len = body_len;
	return true;
}

ReplyPlan v1_plan_reply(const V1Header &call, const ReplyShape &s, u32 vers, u32 inline_max)
{
	const ChunkLists &cl = call.chunks;
	/* set below: the counts, and writes[] and body[] up to them */
	ReplyPlan p RPCRDMAX_NOINIT;

	p.route = ReplyRoute::Bad;
	if ((u64)s.head_len + s.page_len + s.tail_len != s.len || !plan_writes(cl, s, &p)) {
		p.nwrites = 0;
		p.write_len = 0;
		p.body_len = 0;
		p.nbody = 0;
		return p;
	}
	/* RFC 8166 Section 4.3.3: a Short Reply too copies the Reply chunk */
	if ((u64)fixed_header_size(vers) + reply_lists_size(cl) + p.body_len <= inline_max)
		p.route = ReplyRoute::Inline;
	else if (!cl.has_reply || cl.chunk_length(cl.reply) < p.body_len)
		p.route = ReplyRoute::NoRoom;
	else
		p.route = ReplyRoute::ReplyChunk;
	return p;
}

bool plan_one_write_reply(const V1Header &call, const ReplyShape &s, u32 vers, u32 inline_max,
			  u32 *written, u32 *tail_skip, u32 *body_len)
{
	const ChunkLists &cl = call.chunks;

	if (cl.nwrite != 1 || cl.write[0].nsegs != 1 || cl.has_reply || s.npayloads != 1)
		return false;
	const Range &r = s.payloads[0];
	if (!r.len || r.off != s.head_len || r.len != s.page_len ||
	    r.len > cl.segment(cl.write[0], 0).length ||
	    (u64)s.head_len + s.page_len + s.tail_len != s.len)
		return false;
	/* the round-up, where the tail holds it (plan_writes) */
	const u32 pad = ktl::min(ktl::round_up<u32>(r.len, 4) - r.len, s.tail_len);
	const u32 body = s.head_len + (s.tail_len - pad);
	/* encode_one_write_reply()'s header */
	if ((u64)one_segment_msg_size(vers, true) + body > inline_max)
		return false;
	*written = r.len;
	*tail_skip = pad;
	*body_len = body;
	return true;
}

ktl::Result<u32> encode_one_write_reply(const V1Header &call, u32 written, u32 vers, u32 credits,
					ktl::Bytes out)
{
	u32 left = written;

	return encode_one_write_msg(call.xid, vers, credits, kMsgReply, 0,
				    chunks::echo_segment(call.chunks.segs[call.chunks.write[0].first],
							 &left),
				    out);
}

ktl::Result<u32> encode_short_reply(const V1Header &call, u32 vers, u32 credits, ktl::Bytes out)
{
	const ChunkLists &cl = call.chunks;

	if (cl.nwrite)
		return ktl::error(ktl::err::EINVAL);
	if (!cl.has_reply)
		return vers == kRpcRdmaVersion2 ? v2_encode_inline_msg(call.xid, credits, kMsgReply, out)
		       : vers == kRpcRdmaVersion1 ? v1_encode_inline_msg(call.xid, credits, out)
						  : ktl::error(ktl::err::EINVAL);
	if (cl.reply.nsegs == 1) {
		u32 none = 0;
		return encode_one_reply_msg(call.xid, vers, credits, kMsgReply, 0,
					    chunks::echo_segment(cl.segment(cl.reply, 0), &none), out);
	}
	ReplyPlan p RPCRDMAX_NOINIT;
	p.route = ReplyRoute::Inline;
	p.nwrites = 0;
	p.body_len = 0;
	return encode_reply(call, p, vers, credits, out);
}

u32 reply_lists_size(const ChunkLists &cl)
{
	u32 n = reply_lists_size_without_writes(cl);

	for (u32 i = 0; i < cl.nwrite; i++) /* its discriminator, segment count, segments */
		n += 2 * kXdrWord + cl.write[i].nsegs * kSegmentSize;
	return n;
}

u8 *put_reply_lists(u8 *p, const ChunkLists &cl, const ReplyPlan &plan)
{
	/* a READ's: one Write chunk of one segment, echoed */
	if (!cl.has_reply && cl.nwrite == 1 && cl.write[0].nsegs == 1) {
		u32 left = reply_written(plan, 0);
		return chunks::put_one_write_lists(
			p, chunks::echo_segment(cl.segment(cl.write[0], 0), &left));
	}
	ktl::store_be32(p, 0);
	p += kXdrWord;
	for (u32 i = 0; i < cl.nwrite; i++) {
		ktl::store_be32(p, 1);
		p = chunks::put_echo_chunk(p + kXdrWord, cl, cl.write[i], reply_written(plan, i));
	}
	ktl::store_be32(p, 0);
	p += kXdrWord;
	ktl::store_be32(p, cl.has_reply);
	p += kXdrWord;
	return cl.has_reply ? chunks::put_echo_chunk(p, cl, cl.reply, reply_chunk_written(plan)) : p;
}

ktl::Result<u32> encode_reply(const V1Header &call, const ReplyPlan &p, u32 vers, u32 credits,
			      ktl::Bytes out)
{
	const bool nomsg = p.route == ReplyRoute::ReplyChunk;
	const bool v2 = vers == kRpcRdmaVersion2;
	const u32 fixed = fixed_header_size(vers);
	ktl::XdrWriter xdr(out);

	if ((!nomsg && p.route != ReplyRoute::Inline) || (nomsg && !call.chunks.has_reply) ||
	    (!v2 && vers != kRpcRdmaVersion1))
		return ktl::error(ktl::err::EINVAL);
	const u32 size = fixed + reply_lists_size(call.chunks);
	u8 *at = xdr.reserve(size);
	if (!at)
		return ktl::error(ktl::err::EMSGSIZE);
	/* RDMA2_MSG and RDMA2_NOMSG are RDMA_MSG's and RDMA_NOMSG's numbers */
	static_assert((u32)V2Proc::Msg == (u32)V1Proc::Msg && (u32)V2Proc::NoMsg == (u32)V1Proc::NoMsg);
	u8 *w = put_fixed_header(at, call.xid, vers, credits,
				 static_cast<u32>(nomsg ? V1Proc::NoMsg : V1Proc::Msg));
	if (v2) {
		ktl::store_be32(w, kMsgReply);
		ktl::store_be32(w + 4, 0);
	}
	put_reply_lists(at + fixed, call.chunks, p);
	return size;
}

void v1_reply_header(const V1Header &call, const ReplyPlan &p, V1Header *rep)
{
	const ChunkLists &cl = call.chunks;

	rep->reset();
	rep->xid = call.xid;
	rep->vers = kRpcRdmaVersion1;
	rep->proc = p.route == ReplyRoute::ReplyChunk ? V1Proc::NoMsg : V1Proc::Msg;
	for (u32 i = 0; i < cl.nwrite; i++)
		if (!echo_chunk(&rep->chunks, cl, cl.write[i], reply_written(p, i), false))
			return;
	if (cl.has_reply)
		echo_chunk(&rep->chunks, cl, cl.reply, reply_chunk_written(p), true);
}

/* Every part of @parts copied after the header: one SGE, nothing mapped. */
static void layout_copied(u32 hlen, const InlinePart *parts, u32 n, InlineLayout *out)
{
	u32 len = hlen, pulled_up = 0;

	for (u32 i = 0; i < n; i++) {
		out->mapped[i] = false;
		len += parts[i].len;
		pulled_up += parts[i].page ? parts[i].len : 0;
	}
	out->sge[0] = { false, 0, 0, len };
	out->nsge = 1;
	out->nmapped = 0;
	out->buf_len = len;
	out->send_len = len;
	out->pulled_up = pulled_up;
}

/*
 * Every long page piece of @parts mapped, in one pass: false (and *out
 * half made) when that takes more than @cap SGEs.  The counts are kept in
 * locals, stored once: the compiler cannot keep fields of *out in
 * registers across the stores into out->sge[].
 */
static bool layout_mapped(u32 hlen, const InlinePart *parts, u32 n, u32 cap, u32 map_from,
			  InlineLayout *out)
{
	u32 nsge = 0, nmapped = 0, send_len = hlen, pulled_up = 0, run = 0, cur = hlen;

	for (u32 i = 0; i < n; i++) {
		const u32 len = parts[i].len;
		const bool page = parts[i].page, m = page && len >= map_from;

		out->mapped[i] = m;
		send_len += len;
		if (!m) {
			pulled_up += page ? len : 0;
			cur += len;
			continue;
		}
		/* the buffer run before it, if any, and the piece */
		if (nsge + (cur > run) + 1 > cap)
			return false;
		if (cur > run)
			out->sge[nsge++] = { false, 0, run, cur - run };
		out->sge[nsge++] = { true, i, 0, len };
		nmapped++;
		run = cur;
	}
	if (cur > run || !nsge) {
		if (nsge == cap)
			return false;
		out->sge[nsge++] = { false, 0, run, cur - run };
	}
	out->nsge = nsge;
	out->nmapped = nmapped;
	out->buf_len = cur;
	out->send_len = send_len;
	out->pulled_up = pulled_up;
	return true;
}

bool v1_layout_inline(u32 hlen, const InlinePart *parts, u32 n, u32 max_sge, u32 map_min,
		      InlineLayout *out)
{
	const u32 cap = ktl::min(max_sge, kInlineMaxSges);

	if (n > kInlineMaxParts || !cap) {
		out->nsge = 0;
		out->nmapped = 0;
		out->buf_len = 0;
		out->send_len = 0;
		out->pulled_up = 0;
		return false;
	}
	/* an empty piece is never mapped */
	if (!layout_mapped(hlen, parts, n, cap, ktl::max(map_min, 1u), out))
		layout_copied(hlen, parts, n, out);
	return true;
}

} // namespace rpcrdmax::core
