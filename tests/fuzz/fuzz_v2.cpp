// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the version 2 draft decoder.  Anything accepted
 * must re-encode to exactly the header octets received; an
 * RDMA2_OPTIONAL body is also run through the property decoder.
 */
#include <rpcrdmax/core/v2.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace rpcrdmax::core;
namespace ktl = rpcrdmax::ktl;

namespace {
V2Header g_hdr;
uint8_t g_out[1 << 16];
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	DecodeLimits lim;
	V2Error err;
	V2Verdict v = v2_decode(ktl::ConstBytes(data, size), lim, &g_hdr);

	(void)v2_responder_action(v, g_hdr, lim, &err);
	if (v != V2Verdict::Ok)
		return 0;
	if ((size_t)g_hdr.hdr_len + g_hdr.payload_len != size)
		abort();
	auto res = v2_encode(g_hdr, ktl::Bytes(g_out, sizeof(g_out)));
	if (res.is_error() || res.value() != g_hdr.hdr_len ||
	    memcmp(g_out, data, g_hdr.hdr_len) != 0)
		abort();
	if (g_hdr.proc == V2Proc::Optional)
		(void)v2_decode_optinfo(&g_hdr);
	u32 rbsiz;
	BkReqSup brs;
	(void)v2_prop_rbsiz(g_hdr.props, &rbsiz);
	(void)v2_prop_brs(g_hdr.props, &brs);
	(void)v2_inv_handle_usable(g_hdr);
	return 0;
}
