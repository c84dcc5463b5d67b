// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the version 1 decoders (responder and requester
 * side).  ASan catches any read outside the input; anything accepted
 * must re-encode to exactly the header octets received, and the header
 * and payload lengths must account for the whole buffer.  An accepted
 * Call must also lay out (core::v1_layout_call) with its inline octets
 * used once, in order, and its pieces adding up to the message.
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
	if (call && v == V1Verdict::Ok)
		check_layout(g_hdr);
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
