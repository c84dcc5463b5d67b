// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the version 1 decoders (responder and requester
 * side).  ASan catches any read outside the input; anything accepted
 * must re-encode to exactly the header octets received, and the header
 * and payload lengths must account for the whole buffer.  An accepted
 * Call must also lay out (core::v1_layout_call) with its inline octets
 * used once, in order, and its pieces adding up to the message; and a
 * Reply planned for it (a shape drawn from the input) must encode
 * straight from the Call (core::encode_reply) to what v1_encode writes
 * for its echoed header (v1_reply_header), which the requester's
 * decoder accepts with each chunk holding what the plan wrote (a Short
 * Reply's: encode_short_reply's too).
 */
#include <rpcrdmax/core/responder.h>
#include <rpcrdmax/core/v1.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace rpcrdmax::core;
namespace ktl = rpcrdmax::ktl;

namespace {

V1Header g_hdr;
uint8_t g_out[1 << 16];
CallLayout g_lay;

void check_layout(const V1Header &h)
{
	const bool nomsg = h.proc == V1Proc::NoMsg;
	const uint64_t inl = nomsg ? h.chunks.chunk_length(h.chunks.read[0]) : h.payload_len;
	CallLayoutError e = v1_layout_call(h, h.payload_len, 0xffffffffu, &g_lay);

	/* The decoder checked the positions: only an empty Long Call is bad. */
	if (e == CallLayoutError::Bad && !(nomsg && inl == 0))
		abort();
	if (e != CallLayoutError::None)
		return;
	uint64_t total = 0, in = 0;
	for (uint32_t i = 0; i < g_lay.npieces; i++) {
		const CallPiece &p = g_lay.pieces[i];
		if (p.kind == CallPieceKind::Inline) {
			if (p.src != in)
				abort();
			in += p.len;
		}
		total += p.len;
	}
	if (in != inl || total != g_lay.len || g_lay.from_call_chunk != nomsg)
		abort();
}

V1Header g_rep, g_back;
uint8_t g_direct[1 << 16];

/* The Reply to Call @h, of a shape the input's first octets draw. */
void check_reply(const V1Header &h, const uint8_t *data, size_t size)
{
	uint8_t b[13] = {};
	memcpy(b, data, size < sizeof(b) ? size : sizeof(b));
	ReplyShape s = {};
	s.head_len = (uint32_t)(b[0] | b[1] << 8);
	s.page_len = (uint32_t)(b[2] | b[3] << 8 | b[4] << 16);
	s.tail_len = b[5];
	s.len = s.head_len + s.page_len + s.tail_len;
	s.npayloads = b[6] % 3;
	for (uint32_t i = 0, at = b[7]; i < s.npayloads; i++) {
		const uint32_t len = (uint32_t)(b[8 + 2 * i] | b[9 + 2 * i] << 8) % (s.page_len + 1);
		s.payloads[i] = { at, len };
		at += len + b[11];
	}
	const uint32_t inline_max = 1024u + 64u * b[11];
	const uint32_t vers = b[12] & 1 ? kRpcRdmaVersion2 : kRpcRdmaVersion1;
	ReplyPlan p = v1_plan_reply(h, s, vers, inline_max);
	v1_reply_header(h, p, &g_rep);
	/* an inline Reply's Send fits: its header, in its version, and the body */
	if (p.route == ReplyRoute::Inline) {
		auto n = encode_reply(h, p, vers, 9, ktl::Bytes(g_direct, sizeof(g_direct)));
		if (n.is_error() || (uint64_t)n.value() + p.body_len > inline_max)
			abort();
	}
	if (p.route != ReplyRoute::Inline && p.route != ReplyRoute::ReplyChunk) {
		if (encode_reply(h, p, kRpcRdmaVersion1, 1, ktl::Bytes(g_direct, sizeof(g_direct))).is_ok())
			abort();
		return;
	}
	g_rep.credits = 9;
	auto want = v1_encode(g_rep, ktl::Bytes(g_out, sizeof(g_out)));
	auto got = encode_reply(h, p, kRpcRdmaVersion1, 9, ktl::Bytes(g_direct, sizeof(g_direct)));
	if (want.is_error() || got.is_error() || want.value() != got.value() ||
	    memcmp(g_out, g_direct, got.value()) != 0)
		abort();
	/* the requester reads it back: RDMA_NOMSG is the header alone,
	 * RDMA_MSG carries an RPC message (its XID, a Reply) after it */
	uint32_t len = got.value();
	if (p.route == ReplyRoute::Inline) {
		ktl::store_be32(g_direct + len, h.xid);
		ktl::store_be32(g_direct + len + 4, 1);
		len += 8;
	}
	if (v1_decode_reply(ktl::ConstBytes(g_direct, len), DecodeLimits{}, &g_back) != V1Verdict::Ok)
		abort();
	const ChunkLists &cl = g_back.chunks;
	/* the Call's Reply chunk is copied, used or not (RFC 8166 4.3.3) */
	if (cl.nwrite != h.chunks.nwrite || cl.has_reply != h.chunks.has_reply ||
	    (p.route == ReplyRoute::ReplyChunk && !cl.has_reply))
		abort();
	for (uint32_t i = 0; i < cl.nwrite; i++)
		if (cl.chunk_length(cl.write[i]) != (i < p.nwrites ? p.writes[i].len : 0))
			abort();
	if (cl.has_reply && cl.chunk_length(cl.reply) != reply_chunk_written(p))
		abort();
	/* a Short Reply to a Call without a Write list: the same header */
	if (p.route == ReplyRoute::Inline && !h.chunks.nwrite) {
		auto sr = encode_short_reply(h, kRpcRdmaVersion1, 9, ktl::Bytes(g_out, sizeof(g_out)));
		if (sr.is_error() || sr.value() != got.value() ||
		    memcmp(g_out, g_direct, sr.value()) != 0 ||
		    sr.value() != short_reply_header_size(h.chunks, kRpcRdmaVersion1))
			abort();
	}
}

void check(bool call, const uint8_t *data, size_t size, const DecodeLimits &lim)
{
	ktl::ConstBytes in(data, size);
	V1Verdict v = call ? v1_decode_call(in, lim, &g_hdr) : v1_decode_reply(in, lim, &g_hdr);

	/* every verdict maps to a duty, and names itself */
	(void)v1_responder_action(v);
	(void)v1_requester_action(v);
	if (!v1_verdict_name(v)[0])
		abort();
	if (v == V1Verdict::Ok && (size_t)g_hdr.hdr_len + g_hdr.payload_len != size)
		abort();
	if (call && v == V1Verdict::Ok) {
		check_layout(g_hdr);
		check_reply(g_hdr, data, size);
	}
	if (v != V1Verdict::Ok && v != V1Verdict::ErrorReply && v != V1Verdict::BadErrorCode)
		return;
	if (g_hdr.hdr_len > size)
		abort();
	auto res = v1_encode(g_hdr, ktl::Bytes(g_out, sizeof(g_out)));
	if (res.is_error() || res.value() != g_hdr.hdr_len ||
	    memcmp(g_out, data, g_hdr.hdr_len) != 0)
		abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	DecodeLimits small;

	small.max_read_chunks = 2;
	small.max_write_chunks = 2;
	small.max_segments_per_chunk = 4;
	small.max_segments = 8;
	check(true, data, size, DecodeLimits{});
	check(false, data, size, DecodeLimits{});
	check(true, data, size, small);
	return 0;
}
