// SPDX-License-Identifier: GPL-2.0
/*
 * tools/bench/corecost.cpp - the protocol core's share of one RPC, per
 * end, counted exactly (tools/bench/corecost runs it under callgrind).
 *
 * The core's sources are included here as one translation unit, the way
 * the module builds them (lib/unity.cpp), so the compiler inlines across
 * them as it does there.  Each corecost_<end>_<vers>_<op> function does
 * what that end's transport asks of the core for one RPC:
 *
 *  client: plan the Call (plan_rpc), build and encode its transport
 *          header (the Write chunk's segment as frwr.cpp adds it), then
 *          decode the Reply, act on its verdict and credits, and place
 *          its inline octets (marshal.cpp);
 *  server: decode the Call, act on its verdict, plan the Reply
 *          (v1_plan_reply), encode its header and lay out the inline
 *          Send (recvfrom.cpp, sendto.cpp).
 *
 * Ops: "read", an NFSv4 READ of 4 KiB (its data in a Write chunk) and
 * "getattr", an inline GETATTR both ways; each in RPC-over-RDMA Version
 * One and Version Two.  The messages are built before the counted calls;
 * the octets' contents beyond the headers and XIDs do not matter to the
 * core.  Usage: corecost client|server read|getattr 1|2 ITERATIONS: that
 * end's function for that op and version, ITERATIONS times.
 */
#include "../../core/chunks.cpp"
#include "../../core/credits.cpp"
#include "../../core/planner.cpp"
#include "../../core/privdata.cpp"
#include "../../core/responder.cpp"
#include "../../core/v1.cpp"
#include "../../core/v2.cpp"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

using namespace rpcrdmax;
using namespace rpcrdmax::core;

namespace {

constexpr u32 kThreshold = 4096;

constexpr u32 vers_of(bool v2) { return v2 ? kRpcRdmaVersion2 : kRpcRdmaVersion1; }

struct OpShape {
	u32 call_len;	 /* the RPC Call, all in the head */
	u32 reply_head;	 /* the Reply's octets before its data */
	u32 reply_data;	 /* a DDP-eligible result (READ data), or 0 */
	u32 reply_max;	 /* the largest Reply the client makes room for */
};

constexpr OpShape kRead = {180, 116, 4096, 116 + 4096};
constexpr OpShape kGetattr = {164, 240, 0, 1200};

/* Long-lived per-connection state, as the transports keep it. */
V1Header g_send, g_recv, g_scall;
Plan g_plan;
RequesterCredits g_cred;
u8 g_call_msg[2][2][512], g_reply_msg[2][2][512]; /* [op][v2] */
u32 g_call_len[2][2], g_reply_len[2][2];
u8 g_sendbuf[kThreshold];

void put_rpc(u8 *p, u32 xid, u32 msg_type)
{
	ktl::store_be32(p, xid);
	ktl::store_be32(p + 4, msg_type);
}

MsgShape call_shape(const OpShape &o)
{
	MsgShape m = {};
	m.head = {o.call_len, 0};
	return m;
}

MsgShape reply_shape(const OpShape &o)
{
	MsgShape m = {};
	if (o.reply_data) {
		m.head = {o.reply_head, 0};
		m.pages = {o.reply_data, 0};
		m.ddp = true;
	} else {
		m.head = {o.reply_max, 0};
	}
	return m;
}

} // namespace

/* The client's work for one RPC: the Call's header into g_sendbuf, then
 * the Reply in @reply decoded.  Returns the Reply's RPC length. */
extern "C" __attribute__((noinline)) int corecost_client(const OpShape &o, bool v2, u32 xid,
							  const u8 *reply, u32 reply_len)
{
	const PlanParams params = {kThreshold, kThreshold, 8, 256, 4096, true,
				   vers_of(v2)};
	const MsgShape cs = call_shape(o), rs = reply_shape(o);
	auto stream = [](const MsgShape &m) {
		return (u64)m.head.len + m.pages.len + m.pad + m.tail.len;
	};
	/* as xprtrdma's marshal: inline both ways without the planner */
	if (fits_inline(stream(cs), stream(rs), params.call_threshold, params.reply_threshold,
			params.vers)) {
		const u32 credits = credits_requester_request(g_cred);
		auto enc = v2 ? v2_encode_inline_msg(xid, credits, kMsgCall,
						     ktl::Bytes(g_sendbuf, kThreshold))
			      : v1_encode_inline_msg(xid, credits, ktl::Bytes(g_sendbuf, kThreshold));
		if (enc.is_error())
			abort();
	} else {
		/* as marshal's plan_call: a READ's shape first */
		if (!plan_one_write(stream(cs), rs, params, &g_plan) &&
		    plan_rpc(cs, rs, params, &g_plan) != PlanError::None)
			abort();
		V1Header &h = g_send;
		h.reset();
		h.xid = xid;
		h.vers = vers_of(v2);
		h.credits = credits_requester_request(g_cred);
		h.proc = g_plan.proc;
		if (g_plan.has_write) {
			if (h.chunks.add_write_chunk() != ListError::None ||
			    h.chunks.add_write_segment(Segment{0x1000 + xid, g_plan.write.length,
							       0xffff888000000000ull}) !=
				    ListError::None)
				abort();
		}
		const u32 inv = v2 ? h.chunks.reply_inv_handle() : 0;
		/* as marshal: a READ's Call from fixed offsets */
		auto enc = g_plan.has_write && g_plan.write.nsegs == 1 && !g_plan.has_reply
				   ? encode_one_write_msg(xid, vers_of(v2), h.credits, kMsgCall, inv,
							  h.chunks.segs[0],
							  ktl::Bytes(g_sendbuf, kThreshold))
			   : v2 ? v2_encode_msg(h, kMsgCall, inv, ktl::Bytes(g_sendbuf, kThreshold))
				: v1_encode(h, ktl::Bytes(g_sendbuf, kThreshold));
		if (enc.is_error())
			abort();
	}

	V1Header &r = g_recv;
	const ktl::ConstBytes raw(reply, reply_len);
	if (v2) {
		u32 dir, rinv;
		if (v2_decode_msg(raw, DecodeLimits(), &r, &dir, &rinv) != V2Verdict::Ok)
			abort();
	} else {
		V1Verdict v = v1_decode_reply(raw, DecodeLimits(), &r);
		if (v1_requester_action(v) != RequesterAction::Complete)
			abort();
	}
	if (v1_msg_direction(r, ktl::ConstBytes(reply + r.hdr_len, r.payload_len)) !=
	    MsgDirection::Reply)
		abort();
	(void)credits_requester_update(&g_cred, r.credits);
	if (!o.reply_data)
		return (int)r.payload_len;
	const u64 written = r.chunks.chunk_length(r.chunks.write[0]);
	ReplyPlacement p;
	if (!place_reply_around_ddp(o.reply_head, o.reply_data, 0, r.payload_len, (u32)written, &p))
		abort();
	return (int)p.rpc_len;
}

/* The server's work for one RPC: the Call in @call decoded, its Reply's
 * header encoded into g_sendbuf and the Send laid out. */
extern "C" __attribute__((noinline)) int corecost_server(const OpShape &o, bool v2, const u8 *call,
							  u32 call_len)
{
	V1Header &c = g_scall;
	const ktl::ConstBytes raw(call, call_len);
	if (v2) {
		u32 dir, inv;
		if (v2_decode_msg(raw, DecodeLimits(), &c, &dir, &inv) != V2Verdict::Ok)
			abort();
	} else {
		V1Verdict v = v1_decode_call(raw, DecodeLimits(), &c);
		if (v1_responder_action(v) != ResponderAction::Process)
			abort();
	}
	if (v1_msg_direction(c, ktl::ConstBytes(call + c.hdr_len, c.payload_len)) !=
	    MsgDirection::Call)
		abort();

	/* as svcrdma's reply_short: a chunkless Call's Reply without a page
	 * list that fits inline goes without planning */
	const u32 hdr = min_header_size(vers_of(v2));
	if (!o.reply_data && !c.chunks.nwrite && !c.chunks.has_reply &&
	    hdr + o.reply_head <= kThreshold) {
		auto enc = v2 ? v2_encode_inline_msg(c.xid, 128, kMsgReply,
						     ktl::Bytes(g_sendbuf, kThreshold))
			      : v1_encode_inline_msg(c.xid, 128, ktl::Bytes(g_sendbuf, kThreshold));
		if (enc.is_error())
			abort();
		return (int)(enc.value() + o.reply_head);
	}
	ReplyShape s = {};
	s.head_len = o.reply_head;
	s.page_len = o.reply_data;
	s.len = o.reply_head + o.reply_data;
	if (o.reply_data) {
		s.npayloads = 1;
		s.payloads[0] = Range{o.reply_head, o.reply_data};
	}
	/* as svcrdma's reply_one_write: a READ's Reply without planning */
	u32 written, tail_skip, body_len;
	if (plan_one_write_reply(c, s, vers_of(v2), kThreshold, &written, &tail_skip,
				 &body_len)) {
		auto enc = encode_one_write_reply(c, written, vers_of(v2), 128,
						  ktl::Bytes(g_sendbuf, kThreshold));
		if (enc.is_error())
			abort();
		return (int)(enc.value() + body_len);
	}
	ReplyPlan p = v1_plan_reply(c, s, vers_of(v2), kThreshold);
	if (p.route != ReplyRoute::Inline)
		abort();
	auto enc = encode_reply(c, p, vers_of(v2), 128,
				ktl::Bytes(g_sendbuf, kThreshold));
	if (enc.is_error())
		abort();
	InlinePart parts[kInlineMaxParts];
	u32 n = 0;
	for (u32 i = 0; i < p.nbody; i++)
		parts[n++] = InlinePart{p.body[i].len, false};
	InlineLayout lay;
	if (!v1_layout_inline(enc.value(), parts, n, kInlineMaxSges, kInlineMapMin, &lay))
		abort();
	return (int)lay.send_len;
}

namespace {

/* The wire messages of op @k in version @v2: the client's Call (as the
 * server receives it) and the server's Reply (as the client does). */
void build(int k, bool v2, const OpShape &o)
{
	const u32 xid = 0x1000;
	const PlanParams params = {kThreshold, kThreshold, 8, 256, 4096, true,
				   vers_of(v2)};
	if (plan_rpc(call_shape(o), reply_shape(o), params, &g_plan) != PlanError::None)
		abort();
	V1Header h;
	h.reset();
	h.xid = xid;
	h.vers = vers_of(v2);
	h.credits = 128;
	h.proc = V1Proc::Msg;
	if (g_plan.has_write &&
	    (h.chunks.add_write_chunk() != ListError::None ||
	     h.chunks.add_write_segment(Segment{0x1234, g_plan.write.length, 0xffff888000000000ull}) !=
		     ListError::None))
		abort();
	u8 *m = g_call_msg[k][v2];
	auto e = v2 ? v2_encode_msg(h, kMsgCall, h.chunks.reply_inv_handle(), ktl::Bytes(m, 512))
		    : v1_encode(h, ktl::Bytes(m, 512));
	if (e.is_error())
		abort();
	put_rpc(m + e.value(), xid, 0);
	g_call_len[k][v2] = e.value() + o.call_len;

	/* the Reply: the Write chunk echoed with the octets written */
	if (g_plan.has_write) {
		h.chunks.clear();
		if (h.chunks.add_write_chunk() != ListError::None ||
		    h.chunks.add_write_segment(Segment{0x1234, o.reply_data, 0xffff888000000000ull}) !=
			    ListError::None)
			abort();
	}
	m = g_reply_msg[k][v2];
	auto re = v2 ? v2_encode_msg(h, kMsgReply, 0, ktl::Bytes(m, 512))
		     : v1_encode(h, ktl::Bytes(m, 512));
	if (re.is_error())
		abort();
	const u32 body = o.reply_data ? o.reply_head : o.reply_max / 4;
	put_rpc(m + re.value(), xid, 1);
	g_reply_len[k][v2] = re.value() + body;
}

} // namespace

int main(int argc, char **argv)
{
	const char *usage = "usage: corecost client|server read|getattr 1|2 ITERATIONS";
	if (argc != 5) {
		fprintf(stderr, "corecost: %s\n", usage);
		return 2;
	}
	const bool client = !strcmp(argv[1], "client");
	const int k = !strcmp(argv[2], "read") ? 0 : !strcmp(argv[2], "getattr") ? 1 : -1;
	const bool v2 = !strcmp(argv[3], "2");
	char *end;
	const long n = strtol(argv[4], &end, 10);
	if ((!client && strcmp(argv[1], "server")) || k < 0 || (!v2 && strcmp(argv[3], "1")) ||
	    *end || n <= 0 || n > 100000000) {
		fprintf(stderr, "corecost: %s (ITERATIONS 1..100000000)\n", usage);
		return 2;
	}
	const OpShape *ops[2] = {&kRead, &kGetattr};
	long sink = 0;

	credits_requester_init(&g_cred, 128);
	build(k, v2, *ops[k]);
	for (long i = 0; i < n; i++)
		sink += client ? corecost_client(*ops[k], v2, 0x1000, g_reply_msg[k][v2],
						 g_reply_len[k][v2])
			       : corecost_server(*ops[k], v2, g_call_msg[k][v2], g_call_len[k][v2]);
	printf("corecost: %s %s version %s: %ld iterations (%ld)\n", argv[1], argv[2], argv[3], n,
	       sink);
	return 0;
}
