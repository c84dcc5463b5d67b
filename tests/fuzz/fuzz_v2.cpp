// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the version 2 draft decoder.  Anything accepted
 * must re-encode to exactly the header octets received; an
 * RDMA2_OPTIONAL body is also run through the property decoder.  The
 * responder's Call path (v2_decode_msg) must agree with v2_decode on
 * every input, and its version 1 view must re-encode to the same octets.
 */
#include <rpcrdmax/core/v2.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace rpcrdmax::core;
namespace ktl = rpcrdmax::ktl;

namespace {
V2Header g_hdr;
V1Header g_call;
uint8_t g_out[1 << 16];

/* v2_decode_msg against v2_decode's verdict @v on the same octets. */
void check_msg_view(const uint8_t *data, size_t size, V2Verdict v)
{
	DecodeLimits lim;
	u32 dir, inv;
	V2Verdict m = v2_decode_msg(ktl::ConstBytes(data, size), lim, &g_call, &dir, &inv);
	const bool is_msg = v == V2Verdict::Ok &&
			    (g_hdr.proc == V2Proc::Msg || g_hdr.proc == V2Proc::NoMsg);

	if (is_msg != (m == V2Verdict::Ok))
		abort();
	if (m != V2Verdict::Ok)
		return;
	if (g_call.hdr_len != g_hdr.hdr_len || dir != g_hdr.direction || inv != g_hdr.inv_handle)
		abort();
	auto res = v2_encode_msg(g_call, dir, inv, ktl::Bytes(g_out, sizeof(g_out)));
	if (res.is_error() || res.value() != g_call.hdr_len ||
	    memcmp(g_out, data, g_call.hdr_len) != 0)
		abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	DecodeLimits lim;
	V2Error err;
	V2Verdict v = v2_decode(ktl::ConstBytes(data, size), lim, &g_hdr);

	(void)v2_responder_action(v, g_hdr, lim, &err);
	check_msg_view(data, size, v);
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
	if (g_hdr.proc != V2Proc::Msg && g_hdr.proc != V2Proc::NoMsg)
		(void)v2_responder_control(&g_hdr, &err);
	return 0;
}
