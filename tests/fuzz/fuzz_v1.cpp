// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the version 1 decoders (responder and requester
 * side).  ASan catches any read outside the input; anything accepted
 * must re-encode to exactly the header octets received, and the header
 * and payload lengths must account for the whole buffer.
 */
#include <rpcrdmax/core/v1.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace rpcrdmax::core;
namespace ktl = rpcrdmax::ktl;

namespace {

V1Header g_hdr;
uint8_t g_out[1 << 16];

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
