// SPDX-License-Identifier: GPL-2.0
/*
 * core/selftest/st_responder.cpp - a responder's round trip on
 * constructed buffers: a Call's transport header as wire octets is
 * parsed (v1_decode_call), its Reply planned (v1_plan_reply) and encoded
 * (v1_encode, or RDMA_ERROR), and the octets a requester would receive
 * are parsed back (v1_decode_reply) to check what it learns: the route,
 * the echoed chunks with the octets written in them, and the XID.
 */
#include "selftest.h"
#include <rpcrdmax/core/responder.h>
#include <rpcrdmax/core/v1.h>

namespace rpcrdmax::core::selftest {

namespace responder_cases {

constexpr DecodeLimits kLim{};
constexpr u32 kXid = 0x5eed0001;
constexpr u32 kInline = 4096;

/* RDMA_MSG Call with one Write chunk of two 600-octet segments and an RPC
 * message of 6 words (a READ whose result comes back in the chunk). */
constexpr u32 kCallWrite[] = {
	kXid, 1, 32, 0,		/* xid, vers, credits, RDMA_MSG */
	0,			/* no Read list */
	1, 2,			/* a Write chunk of 2 segments */
	0x11, 600, 0x1, 0x1000, /* handle, length, offset */
	0x12, 600, 0x1, 0x2000,
	0,			/* end of the Write list */
	0,			/* no Reply chunk */
	kXid, 0, 2, 100003, 3, 6, /* the RPC Call itself */
};

/* RDMA_MSG Call offering only a Reply chunk of 2048 + 8192 octets. */
constexpr u32 kCallReply[] = {
	kXid, 1, 32, 0,
	0,
	0,
	1, 2,			/* a Reply chunk of 2 segments */
	0x21, 2048, 0x0, 0x4000,
	0x22, 8192, 0x0, 0x8000,
	kXid, 0, 2, 100003, 3, 16,
};

/* Encode the Reply header @p plans for @call (encode_reply) with
 * @credits, followed by @body octets of body (the RPC Reply: its XID,
 * then zeros), as a Send would carry. */
static ktl::ConstBytes send_octets(Reporter &r, const V1Header &call, const ReplyPlan &p,
				   u32 credits, u32 body)
{
	ktl::Bytes out = r.bytes(1024 + body);
	auto n = encode_reply(call, p, kRpcRdmaVersion1, credits, out);

	if (!ST_CHECK(r, n.is_ok()) || !ST_CHECK(r, n.value() <= 1024))
		return ktl::ConstBytes();
	if (body >= 4)
		ktl::store_be32(out.data() + n.value(), call.xid);
	return out.first(n.value() + body);
}

static void write_chunk_reply(Reporter &r)
{
	V1Header *call = r.make<V1Header>(), *got = r.make<V1Header>();
	ST_NEED(r, call);
	ST_NEED(r, got);

	ST_EQ(r, v1_decode_call(r.words(kCallWrite), kLim, call), V1Verdict::Ok);
	ST_EQ(r, v1_responder_action(V1Verdict::Ok), ResponderAction::Process);
	ST_EQ(r, call->payload_len, 24u);
	/* 1001 octets of READ data: 3 octets of round-up open the tail. */
	ReplyShape s = { 120, 1001, 7, 1128, 1, {} };
	s.payloads[0] = { 120, 1001 };
	ReplyPlan p = v1_plan_reply(*call, s, kRpcRdmaVersion1, kInline);
	ST_EQ(r, p.route, ReplyRoute::Inline);
	ST_EQ(r, p.write_len, 1001u);
	ST_EQ(r, p.nbody, 2u);
	ST_EQ(r, p.body[1].off, 1124u); /* past the round-up */
	ST_EQ(r, p.body_len, 124u);
	ktl::ConstBytes wire = send_octets(r, *call, p, 16, p.body_len);
	ST_EQ(r, v1_decode_reply(wire, kLim, got), V1Verdict::Ok);
	ST_EQ(r, v1_requester_action(V1Verdict::Ok), RequesterAction::Complete);
	ST_EQ(r, got->xid, kXid);
	ST_EQ(r, got->credits, 16u);
	ST_EQ(r, got->proc, V1Proc::Msg);
	ST_EQ(r, got->payload_len, p.body_len);
	if (!ST_EQ(r, got->chunks.nwrite, 1u))
		return;
	const ChunkRef &w = got->chunks.write[0];
	if (!ST_EQ(r, w.nsegs, 2u))
		return;
	const Segment a = got->chunks.segment(w, 0), b = got->chunks.segment(w, 1);
	ST_EQ(r, a.handle, 0x11u);
	ST_EQ(r, a.length, 600u);
	ST_EQ(r, a.offset, 0x100001000ull);
	ST_EQ(r, b.handle, 0x12u);
	ST_EQ(r, b.length, 401u); /* what was written, not what was offered */
	ST_EQ(r, b.offset, 0x100002000ull);
	ST_CHECK(r, !got->chunks.has_reply);
}

static void reply_chunk_reply(Reporter &r)
{
	V1Header *call = r.make<V1Header>(), *got = r.make<V1Header>();
	ST_NEED(r, call);
	ST_NEED(r, got);

	ST_EQ(r, v1_decode_call(r.words(kCallReply), kLim, call), V1Verdict::Ok);
	/* A 5100-octet READDIR-like Reply: too long inline, no Write chunk. */
	const ReplyShape s = { 100, 5000, 0, 5100, 0, {} };
	ReplyPlan p = v1_plan_reply(*call, s, kRpcRdmaVersion1, kInline);
	ST_EQ(r, p.route, ReplyRoute::ReplyChunk);
	ST_EQ(r, p.write_len, 0u);
	ST_EQ(r, p.body_len, 5100u);
	ktl::ConstBytes wire = send_octets(r, *call, p, 32, 0); /* RDMA_NOMSG: header only */
	ST_EQ(r, v1_decode_reply(wire, kLim, got), V1Verdict::Ok);
	ST_EQ(r, got->proc, V1Proc::NoMsg);
	ST_EQ(r, got->payload_len, 0u);
	ST_EQ(r, got->chunks.nwrite, 0u);
	if (!ST_CHECK(r, got->chunks.has_reply))
		return;
	const ChunkRef &c = got->chunks.reply;
	if (!ST_EQ(r, c.nsegs, 2u))
		return;
	ST_EQ(r, got->chunks.segment(c, 0).handle, 0x21u);
	ST_EQ(r, got->chunks.segment(c, 0).length, 2048u);
	ST_EQ(r, got->chunks.segment(c, 1).handle, 0x22u);
	ST_EQ(r, got->chunks.segment(c, 1).length, 3052u);
	ST_EQ(r, got->chunks.chunk_length(c), 5100ull);
}

static void no_room_is_err_chunk(Reporter &r)
{
	V1Header *call = r.make<V1Header>(), *got = r.make<V1Header>();
	ST_NEED(r, call);
	ST_NEED(r, got);

	/* The Write-chunk Call, but a Reply whose body cannot fit inline
	 * and which has nowhere else to go. */
	ST_EQ(r, v1_decode_call(r.words(kCallWrite), kLim, call), V1Verdict::Ok);
	const ReplyShape s = { 6000, 0, 0, 6000, 0, {} };
	ST_EQ(r, v1_plan_reply(*call, s, kRpcRdmaVersion1, kInline).route, ReplyRoute::NoRoom);

	ktl::Bytes out = r.bytes(64);
	auto n = v1_encode_err_chunk(call->xid, 1, out);
	if (!ST_CHECK(r, n.is_ok()))
		return;
	ST_EQ(r, v1_decode_reply(out.first(n.value()), kLim, got), V1Verdict::ErrorReply);
	ST_EQ(r, got->xid, kXid);
	ST_EQ(r, got->err, static_cast<u32>(V1ErrCode::Chunk));
	ST_EQ(r, v1_requester_action(V1Verdict::ErrorReply), RequesterAction::FailRpc);
}

} // namespace responder_cases

const Case kResponderCases[] = {
	{"responder.write_chunk_reply", responder_cases::write_chunk_reply},
	{"responder.reply_chunk_reply", responder_cases::reply_chunk_reply},
	{"responder.no_room_is_err_chunk", responder_cases::no_room_is_err_chunk},
};
const u32 kResponderCaseCount = sizeof(kResponderCases) / sizeof(kResponderCases[0]);

} // namespace rpcrdmax::core::selftest
