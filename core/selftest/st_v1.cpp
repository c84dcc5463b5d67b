// SPDX-License-Identifier: GPL-2.0
/*
 * core/selftest/st_v1.cpp - version 1 transport header cases: the spec
 * vectors, truncation at every octet, limits, overflow, positions, the
 * verdict-to-duty tables, and encoding.
 */
#include "selftest.h"
#include "vectors.h"
#include <rpcrdmax/core/v1.h>

namespace rpcrdmax::core::selftest {

namespace v1_cases {

using namespace vec; /* namespace scope inside this file's own namespace */

constexpr DecodeLimits kLim{};

/* Valid Calls, with their header length and payload length. */
struct CallVec {
	const u32 *w;
	size_t n;
	u32 hdr_len;
	u32 payload_len;
};
#define RPCRDMAX_CV(a, h, p) CallVec{a, sizeof(a) / 4, h, p}
constexpr CallVec kCalls[] = {
	RPCRDMAX_CV(kV1MsgInline, 28, 40),
	RPCRDMAX_CV(kV1MsgReadChunk, 76, 48),
	RPCRDMAX_CV(kV1NoMsgLongCall, 52, 0),
	RPCRDMAX_CV(kV1MsgWriteReply, 88, 40),
};
constexpr CallVec kReplies[] = {
	RPCRDMAX_CV(kV1ReplyNoMsg, 48, 0),
	RPCRDMAX_CV(kV1ReplyMsgWrite, 52, 40),
	RPCRDMAX_CV(kV1ErrVers, 28, 0),
	RPCRDMAX_CV(kV1ErrChunk, 20, 0),
};
#undef RPCRDMAX_CV

static void decode_msg_inline(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);
	ktl::ConstBytes b = r.words(kV1MsgInline);

	ST_EQ(r, v1_decode_call(b, kLim, h), V1Verdict::Ok);
	ST_EQ(r, h->xid, kXid);
	ST_EQ(r, h->vers, 1u);
	ST_EQ(r, h->credits, 32u);
	ST_EQ(r, h->proc, V1Proc::Msg);
	ST_CHECK(r, h->chunks.empty());
	ST_EQ(r, h->hdr_len, 28u);
	ST_EQ(r, h->payload_len, 40u);
	ST_EQ(r, ktl::load_be32(b.data() + h->hdr_len), kXid); /* the RPC XID */
	ST_EQ(r, v1_responder_action(V1Verdict::Ok), ResponderAction::Process);
}

static void decode_msg_read_chunk(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);
	const ChunkLists &cl = h->chunks;

	ST_EQ(r, v1_decode_call(r.words(kV1MsgReadChunk), kLim, h), V1Verdict::Ok);
	ST_EQ(r, cl.nread, 1u);
	ST_EQ(r, cl.read[0].position, 48u);
	ST_EQ(r, cl.read[0].nsegs, 2u);
	ST_EQ(r, cl.segment(cl.read[0], 0).handle, 0x11111111u);
	ST_EQ(r, cl.segment(cl.read[0], 0).length, 4096u);
	ST_EQ(r, cl.segment(cl.read[0], 0).offset, 0x100000000ull);
	ST_EQ(r, cl.segment(cl.read[0], 1).handle, 0x22222222u);
	ST_EQ(r, cl.segment(cl.read[0], 1).offset, 0x100002000ull);
	ST_EQ(r, cl.chunk_length(cl.read[0]), 8196ull);
	ST_CHECK(r, !cl.has_call_chunk());
	ST_EQ(r, cl.nwrite, 0u);
	ST_CHECK(r, !cl.has_reply);
	ST_EQ(r, h->hdr_len, 76u);
	ST_EQ(r, h->payload_len, 48u);
}

static void decode_nomsg_long_call(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);

	ST_EQ(r, v1_decode_call(r.words(kV1NoMsgLongCall), kLim, h), V1Verdict::Ok);
	ST_EQ(r, h->proc, V1Proc::NoMsg);
	ST_CHECK(r, h->chunks.has_call_chunk());
	ST_EQ(r, h->chunks.chunk_length(h->chunks.read[0]), 2048ull);
	ST_EQ(r, h->chunks.segment(h->chunks.read[0], 0).offset, 0x10000ull);
	ST_EQ(r, h->hdr_len, 52u);
	ST_EQ(r, h->payload_len, 0u);
}

static void decode_write_and_reply(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);
	const ChunkLists &cl = h->chunks;

	ST_EQ(r, v1_decode_call(r.words(kV1MsgWriteReply), kLim, h), V1Verdict::Ok);
	ST_EQ(r, cl.nread, 0u);
	ST_EQ(r, cl.nwrite, 1u);
	ST_EQ(r, cl.write[0].nsegs, 2u);
	ST_EQ(r, cl.segment(cl.write[0], 0).handle, 0x44444444u);
	ST_EQ(r, cl.segment(cl.write[0], 0).offset, 0xffff880000100000ull);
	ST_EQ(r, cl.segment(cl.write[0], 1).length, 32768u);
	ST_EQ(r, cl.chunk_length(cl.write[0]), 98304ull);
	ST_CHECK(r, cl.has_reply);
	ST_EQ(r, cl.reply.nsegs, 1u);
	ST_EQ(r, cl.segment(cl.reply, 0).handle, 0x66666666u);
	ST_EQ(r, cl.segment(cl.reply, 0).offset, 0x3000ull);
	ST_EQ(r, h->hdr_len, 88u);
	ST_EQ(r, cl.encoded_size() + kFixedHeaderSize, 88u);
}

/* Decode, re-encode: the header octets must come back unchanged. */
static void roundtrip_one(Reporter &r, ktl::ConstBytes b, bool call, V1Header *h, ktl::Bytes out)
{
	V1Verdict v = call ? v1_decode_call(b, kLim, h) : v1_decode_reply(b, kLim, h);

	if (!ST_CHECK(r, v == V1Verdict::Ok || v == V1Verdict::ErrorReply))
		return;
	auto res = v1_encode(*h, out);
	if (!ST_CHECK(r, res.is_ok()))
		return;
	ST_EQ(r, res.value(), h->hdr_len);
	ST_EQ(r, v1_encoded_size(*h), h->hdr_len);
	ST_EQ(r, ktl::mem_compare(out.data(), b.data(), h->hdr_len), 0);
}

static void roundtrip_vectors(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);
	ktl::Bytes out = r.bytes(512);

	for (const CallVec &c : kCalls)
		roundtrip_one(r, r.words(c.w, c.n), true, h, out);
	for (const CallVec &c : kReplies)
		roundtrip_one(r, r.words(c.w, c.n), false, h, out);
}

/* Every prefix shorter than the header is refused, never read past. */
static void truncation_every_byte(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);

	for (const CallVec &c : kCalls) {
		ktl::ConstBytes b = r.words(c.w, c.n);

		ST_EQ(r, v1_decode_call(b, kLim, h), V1Verdict::Ok);
		ST_EQ(r, h->hdr_len, c.hdr_len);
		ST_EQ(r, h->payload_len, c.payload_len);
		/* a Call: under the 28-octet minimal header, discarded
		 * unparsed (RFC 8166 Section 4.5) */
		for (u32 len = 0; len < c.hdr_len; len++) {
			V1Verdict v = v1_decode_call(b.first(len), kLim, h);
			ST_EQ(r, v, len < kV1MinHeaderLen ? V1Verdict::TooShort : V1Verdict::Truncated);
			if (len < kV1MinHeaderLen)
				ST_EQ(r, v1_responder_action(v), ResponderAction::Drop);
		}
	}
	for (const CallVec &c : kReplies) {
		ktl::ConstBytes b = r.words(c.w, c.n);

		for (u32 len = 0; len < c.hdr_len; len++) {
			V1Verdict v = v1_decode_reply(b.first(len), kLim, h);
			ST_EQ(r, v, len < 16 ? V1Verdict::TooShort : V1Verdict::Truncated);
			ST_EQ(r, v1_requester_action(v), RequesterAction::Drop);
		}
	}
	/* RDMA_MSG cut right after its header carries no RPC message. */
	ST_EQ(r, v1_decode_call(r.words(kV1MsgInline).first(28), kLim, h),
	      V1Verdict::NoMessage);
}

static void obsolete_procs(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);

	ST_EQ(r, v1_decode_call(r.words(kV1Msgp), kLim, h), V1Verdict::ObsoleteMsgp);
	ST_EQ(r, v1_responder_action(V1Verdict::ObsoleteMsgp), ResponderAction::ReplyErrChunk);
	/* RFC 5666's RDMA_DONE is 16 octets: under the minimal header */
	ST_EQ(r, v1_decode_call(r.words(kV1Done), kLim, h), V1Verdict::TooShort);
	ST_EQ(r, v1_decode_call(r.words(kV1DoneLong), kLim, h), V1Verdict::ObsoleteDone);
	/* RFC 8166 Section 4.6.2: MUST silently discard */
	ST_EQ(r, v1_responder_action(V1Verdict::ObsoleteDone), ResponderAction::Drop);
	/* never parsed as something else: the XID is still known */
	ST_EQ(r, h->xid, kXid);
	ST_EQ(r, v1_decode_reply(r.words(kV1Msgp), kLim, h), V1Verdict::ObsoleteMsgp);
	ST_EQ(r, v1_decode_reply(r.words(kV1Done), kLim, h), V1Verdict::ObsoleteDone);
	ST_EQ(r, v1_requester_action(V1Verdict::ObsoleteDone), RequesterAction::Drop);
	/* encoding them is refused */
	h->proc = V1Proc::MsgP;
	ST_CHECK(r, v1_encode(*h, r.bytes(64)).is_error());
}

static void version_mismatch(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);
	ktl::Bytes out = r.bytes(64);
	ktl::ConstBytes want = r.words(kV1ErrVersTo2);

	ST_EQ(r, v1_decode_call(r.words(kV1Vers2), kLim, h), V1Verdict::VersionMismatch);
	ST_EQ(r, h->xid, kXid);
	ST_EQ(r, h->vers, 2u);
	ST_EQ(r, v1_responder_action(V1Verdict::VersionMismatch), ResponderAction::ReplyErrVers);
	/* rdma_vers is the failing Call's (RFC 8166 Section 4.5) */
	auto res = v1_encode_err_vers(h->xid, h->vers, 16, out);
	ST_CHECK(r, res.is_ok() && res.value() == want.size());
	ST_EQ(r, ktl::mem_compare(out.data(), want.data(), want.size()), 0);
	/* no room: refused, never a partial write past the end */
	ST_CHECK(r, v1_encode_err_vers(kXid, 2, 16, out.first(27)).is_error());
}

static void err_chunk_encode(Reporter &r)
{
	ktl::Bytes out = r.bytes(64);
	ktl::ConstBytes want = r.words(kV1ErrChunk);
	auto res = v1_encode_err_chunk(kXid, 16, out);

	ST_CHECK(r, res.is_ok() && res.value() == 20);
	ST_EQ(r, ktl::mem_compare(out.data(), want.data(), want.size()), 0);
	ST_CHECK(r, v1_encode_err_chunk(kXid, 16, out.first(19)).is_error());
}

static void error_at_responder(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);

	ST_EQ(r, v1_decode_call(r.words(kV1ErrVers), kLim, h), V1Verdict::UnexpectedError);
	ST_EQ(r, v1_responder_action(V1Verdict::UnexpectedError), ResponderAction::Drop);
	ST_EQ(r, v1_decode_call(r.words(kV1ErrVers).first(15), kLim, h), V1Verdict::TooShort);
	ST_EQ(r, v1_responder_action(V1Verdict::TooShort), ResponderAction::Drop);
}

constexpr u32 kUnknownProc[] = {kXid, 1, 32, 5, 0, 0, 0, RPCRDMAX_VEC_RPC_CALL};
constexpr u32 kBadDisc[] = {kXid, 1, 32, 0, 2 /* not 0/1 */, 0, 0, RPCRDMAX_VEC_RPC_CALL};
constexpr u32 kBadDiscReply[] = {kXid, 1, 32, 0, 0, 0, 0xffffffff, RPCRDMAX_VEC_RPC_CALL};
/* offset 0xffffffff_fffff000 + 0x2000 wraps past 2^64 */
constexpr u32 kWrap[] = {kXid, 1, 32, 0, 0, 1, 1, 0x1, 0x2000, 0xffffffff, 0xfffff000,
			 0, 0, RPCRDMAX_VEC_RPC_CALL};
/* ends at the last addressable octet: fine */
constexpr u32 kNoWrap[] = {kXid, 1, 32, 0, 0, 1, 1, 0x1, 0xfff, 0xffffffff, 0xfffff000,
			   0, 0, RPCRDMAX_VEC_RPC_CALL};
constexpr u32 kHugeCount[] = {kXid, 1, 32, 0, 0, 1, 0xffffffff, 0, 0, 0, 0};
constexpr u32 kHugeReplyCount[] = {kXid, 1, 32, 0, 0, 0, 1, 0x10000000, 0, 0, 0, 0};

static void malformed_basics(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);

	ST_EQ(r, v1_decode_call(r.words(kUnknownProc), kLim, h), V1Verdict::UnknownProc);
	ST_EQ(r, v1_decode_call(r.words(kBadDisc), kLim, h), V1Verdict::BadDiscriminator);
	ST_EQ(r, v1_decode_call(r.words(kBadDiscReply), kLim, h), V1Verdict::BadDiscriminator);
	ST_EQ(r, v1_decode_call(r.words(kWrap), kLim, h), V1Verdict::SegmentWraps);
	ST_EQ(r, v1_decode_call(r.words(kNoWrap), kLim, h), V1Verdict::Ok);
	ST_EQ(r, h->chunks.segs[0].offset, 0xfffffffffffff000ull);
	ST_EQ(r, v1_decode_call(r.words(kHugeCount), kLim, h), V1Verdict::Truncated);
	ST_EQ(r, v1_decode_call(r.words(kHugeReplyCount), kLim, h), V1Verdict::Truncated);
	const V1Verdict kVs1[] = {V1Verdict::UnknownProc, V1Verdict::BadDiscriminator,
			    V1Verdict::SegmentWraps, V1Verdict::Truncated};
	for (V1Verdict v : kVs1)
		ST_EQ(r, v1_responder_action(v), ResponderAction::ReplyErrChunk);
}

/* Build "RDMA_MSG, Write list of @nchunks chunks of @nsegs segments" and
 * a 40-octet payload in scratch. */
static ktl::ConstBytes write_list_msg(Reporter &r, u32 nchunks, u32 nsegs)
{
	size_t nwords = 4 + 1 + nchunks * (2 + 4 * nsegs) + 1 + 1 + 10;
	ktl::Bytes b = r.bytes(nwords * 4);
	ktl::XdrWriter x(b);
	bool ok = x.put_u32(kXid) && x.put_u32(1) && x.put_u32(32) && x.put_u32(0) &&
		  x.put_u32(0);

	for (u32 c = 0; c < nchunks; c++) {
		ok = ok && x.put_u32(1) && x.put_u32(nsegs);
		for (u32 s = 0; s < nsegs; s++)
			ok = ok && x.put_u32(c * 1000 + s) && x.put_u32(4096) &&
			     x.put_u64(0x10000ull * (s + 1));
	}
	ok = ok && x.put_u32(0) && x.put_u32(0);
	for (u32 i = 0; i < 10; i++) /* the RPC message, its XID first */
		ok = ok && x.put_u32(i ? i : kXid);
	r.check(ok && x.remaining() == 0, "built write-list vector", __FILE__, __LINE__);
	return b;
}

static void write_limits(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);
	DecodeLimits lim;

	ST_EQ(r, v1_decode_call(write_list_msg(r, 2, 3), kLim, h), V1Verdict::Ok);
	ST_EQ(r, h->chunks.nwrite, 2u);
	ST_EQ(r, h->chunks.write[1].first, 3u);
	lim.max_write_chunks = 1;
	ST_EQ(r, v1_decode_call(write_list_msg(r, 2, 3), lim, h), V1Verdict::TooManyWriteChunks);
	lim = DecodeLimits{};
	lim.max_segments_per_chunk = 2;
	ST_EQ(r, v1_decode_call(write_list_msg(r, 1, 3), lim, h), V1Verdict::TooManySegments);
	lim = DecodeLimits{};
	lim.max_segments = 5;
	ST_EQ(r, v1_decode_call(write_list_msg(r, 2, 3), lim, h), V1Verdict::TooManySegments);
	/* the default limit of 64 segments per chunk */
	ST_EQ(r, v1_decode_call(write_list_msg(r, 1, 64), kLim, h), V1Verdict::Ok);
	ST_EQ(r, v1_decode_call(write_list_msg(r, 1, 65), kLim, h), V1Verdict::TooManySegments);
	/* limits above the compile-time capacity are clamped to it */
	lim = DecodeLimits{};
	lim.max_write_chunks = 1000;
	ST_EQ(r, v1_decode_call(write_list_msg(r, kMaxChunksCap + 1, 1), lim, h),
	      V1Verdict::TooManyWriteChunks);
	lim.max_segments_per_chunk = 100000;
	ST_EQ(r, v1_decode_call(write_list_msg(r, 1, kMaxSegmentsCap), lim, h), V1Verdict::Ok);
	ST_EQ(r, v1_decode_call(write_list_msg(r, 2, kMaxSegmentsCap / 2 + 1), lim, h),
	      V1Verdict::TooManySegments);
}

/* RDMA_MSG with read segments at @pos[i] of @len[i] octets, then a
 * @payload-octet inline message (its XID, then zeros). */
static ktl::ConstBytes read_list_msg(Reporter &r, u32 proc, const u32 *pos, const u32 *len,
			      u32 n, u32 payload)
{
	ktl::Bytes b = r.bytes(16 + n * 24 + 12 + payload);
	ktl::XdrWriter x(b);
	bool ok = x.put_u32(kXid) && x.put_u32(1) && x.put_u32(32) && x.put_u32(proc);

	for (u32 i = 0; i < n; i++)
		ok = ok && x.put_u32(1) && x.put_u32(pos[i]) && x.put_u32(0x100 + i) &&
		     x.put_u32(len[i]) && x.put_u64(0x200000ull * (i + 1));
	ok = ok && x.put_u32(0) && x.put_u32(0) && x.put_u32(0);
	r.check(ok && x.remaining() == payload, "built read-list vector", __FILE__, __LINE__);
	if (payload >= 4) /* the RPC message's XID */
		ktl::store_be32(b.data() + b.size() - payload, kXid);
	return b;
}

static void read_limits(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);
	const u32 pos9[] = {4, 8, 12, 16, 20, 24, 28, 32, 36};
	const u32 len9[] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
	const u32 pos3[] = {8, 8, 8};
	const u32 len3[] = {4, 4, 4};
	DecodeLimits lim;

	ST_EQ(r, v1_decode_call(read_list_msg(r, 0, pos9, len9, 9, 40), kLim, h),
	      V1Verdict::TooManyReadChunks);
	lim.max_read_chunks = 9;
	ST_EQ(r, v1_decode_call(read_list_msg(r, 0, pos9, len9, 9, 40), lim, h), V1Verdict::Ok);
	ST_EQ(r, h->chunks.nread, 9u);
	ST_EQ(r, v1_decode_call(read_list_msg(r, 0, pos3, len3, 3, 40), kLim, h), V1Verdict::Ok);
	ST_EQ(r, h->chunks.nread, 1u);
	ST_EQ(r, h->chunks.read[0].nsegs, 3u);
	ST_EQ(r, h->chunks.chunk_length(h->chunks.read[0]), 12ull);
	lim = DecodeLimits{};
	lim.max_segments_per_chunk = 2;
	ST_EQ(r, v1_decode_call(read_list_msg(r, 0, pos3, len3, 3, 40), lim, h),
	      V1Verdict::TooManySegments);
}

static void read_positions(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);
	const u32 mis[] = {46};
	const u32 beyond[] = {52};
	const u32 at_end[] = {48};
	const u32 l100[] = {100};
	const u32 overlap_pos[] = {8, 12};
	const u32 overlap_len[] = {8, 4};
	const u32 adjacent_pos[] = {8, 16};
	const u32 down_pos[] = {16, 8};
	const u32 small[] = {4, 4};
	const u32 roundup_pos[] = {8, 12};
	const u32 roundup_len[] = {3, 4}; /* 3 octets + 1 round-up: next at 12 */
	/* positions count the data of earlier chunks: 8 + 104 - 100 = 12 <= 48 */
	const u32 after_pos[] = {8, 112};
	const u32 after_len[] = {100, 4};
	const u32 zero[] = {0};
	const u32 nomsg_pos[] = {0, 100};
	const u32 nomsg_pos_bad[] = {0, 104};
	const u32 nomsg_len[] = {100, 4000};

	ST_EQ(r, v1_decode_call(read_list_msg(r, 0, mis, l100, 1, 48), kLim, h),
	      V1Verdict::MisalignedPosition);
	ST_EQ(r, v1_decode_call(read_list_msg(r, 0, beyond, l100, 1, 48), kLim, h),
	      V1Verdict::PositionBeyondMessage);
	ST_EQ(r, v1_decode_call(read_list_msg(r, 0, at_end, l100, 1, 48), kLim, h), V1Verdict::Ok);
	ST_EQ(r, v1_decode_call(read_list_msg(r, 0, overlap_pos, overlap_len, 2, 48), kLim, h),
	      V1Verdict::OverlappingChunks);
	ST_EQ(r, v1_decode_call(read_list_msg(r, 0, adjacent_pos, overlap_len, 2, 48), kLim, h),
	      V1Verdict::Ok);
	ST_EQ(r, v1_decode_call(read_list_msg(r, 0, down_pos, small, 2, 48), kLim, h),
	      V1Verdict::OverlappingChunks);
	ST_EQ(r, v1_decode_call(read_list_msg(r, 0, roundup_pos, roundup_len, 2, 48), kLim, h),
	      V1Verdict::Ok);
	ST_EQ(r, v1_decode_call(read_list_msg(r, 0, after_pos, after_len, 2, 48), kLim, h),
	      V1Verdict::Ok);
	ST_EQ(r, v1_decode_call(read_list_msg(r, 0, zero, l100, 1, 48), kLim, h),
	      V1Verdict::CallChunkInMsg);
	ST_EQ(r, v1_decode_call(read_list_msg(r, 1, nullptr, nullptr, 0, 0), kLim, h),
	      V1Verdict::MissingCallChunk);
	ST_EQ(r, v1_decode_call(read_list_msg(r, 1, nomsg_pos, nomsg_len, 2, 0), kLim, h),
	      V1Verdict::Ok);
	ST_EQ(r, v1_decode_call(read_list_msg(r, 1, nomsg_pos_bad, nomsg_len, 2, 0), kLim, h),
	      V1Verdict::PositionBeyondMessage);
	const V1Verdict kVs2[] = {V1Verdict::MisalignedPosition, V1Verdict::PositionBeyondMessage,
			    V1Verdict::OverlappingChunks, V1Verdict::CallChunkInMsg,
			    V1Verdict::MissingCallChunk, V1Verdict::NoMessage};
	for (V1Verdict v : kVs2)
		ST_EQ(r, v1_responder_action(v), ResponderAction::ReplyErrChunk);
}

/* RFC 8166 Section 4.5.2: an rdma_xid other than the RPC message's XID
 * is an XDR error, which a Responder answers with ERR_CHUNK; a Requester
 * discards such a Reply (Section 4.5). */
static void xid_mismatch(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);
	const u32 match[] = {kXid, 1, 32, 0, 0, 0, 0, kXid, 0, 2};
	const u32 other[] = {kXid, 1, 32, 0, 0, 0, 0, kXid + 1, 0, 2};
	const u32 reply_other[] = {kXid, 1, 32, 0, 0, 0, 0, kXid ^ 0x100, 1, 0};

	ST_EQ(r, v1_decode_call(r.words(match), kLim, h), V1Verdict::Ok);
	ST_EQ(r, v1_decode_call(r.words(other), kLim, h), V1Verdict::XidMismatch);
	ST_EQ(r, v1_responder_action(V1Verdict::XidMismatch), ResponderAction::ReplyErrChunk);
	/* an RPC message shorter than an XID carries none */
	ST_EQ(r, v1_decode_call(r.words(match).first(30), kLim, h), V1Verdict::XidMismatch);
	ST_EQ(r, v1_decode_reply(r.words(match), kLim, h), V1Verdict::Ok);
	ST_EQ(r, v1_decode_reply(r.words(reply_other), kLim, h), V1Verdict::XidMismatch);
	ST_EQ(r, v1_requester_action(V1Verdict::XidMismatch), RequesterAction::Drop);
	ST_CHECK(r, ktl::mem_compare(v1_verdict_name(V1Verdict::XidMismatch), "xid_mismatch", 13) == 0);
}

/* The handle a Reply may invalidate (RFC 8797 Section 4.1): Write list,
 * else Reply chunk, else Read list, first segment; none without chunks.
 * And the segment walk the tracepoints use. */
static void reply_inv_handle(Reporter &r)
{
	ChunkLists *cl = r.make<ChunkLists>();
	ST_NEED(r, cl);

	cl->clear();
	ST_EQ(r, cl->reply_inv_handle(), 0u);
	ST_CHECK(r, cl->add_read_segment(8, {0x11, 64, 0x1000}) == ListError::None);
	ST_EQ(r, cl->reply_inv_handle(), 0x11u);
	ST_CHECK(r, cl->add_write_chunk() == ListError::None);
	ST_CHECK(r, cl->add_write_segment({0x22, 64, 0x2000}) == ListError::None);
	ST_CHECK(r, cl->add_write_segment({0x23, 64, 0x3000}) == ListError::None);
	ST_CHECK(r, cl->set_reply_chunk() == ListError::None);
	ST_CHECK(r, cl->add_reply_segment({0x33, 64, 0x4000}) == ListError::None);
	ST_EQ(r, cl->reply_inv_handle(), 0x22u);
	/* for_each_segment walks the lists asked for, in wire order */
	u32 seen[4] = {}, n = 0;
	cl->for_each_segment(cl->kWriteList | cl->kReplyChunk,
			     [&](const ChunkRef &, u32 i, const Segment &s) {
				     if (n < 4)
					     seen[n] = s.handle | i << 16;
				     n++;
			     });
	ST_EQ(r, n, 3u);
	ST_EQ(r, seen[0], 0x22u);
	ST_EQ(r, seen[1], 0x10023u);
	ST_EQ(r, seen[2], 0x33u);
	n = 0;
	cl->for_each_segment(cl->kReadList, [&](const ChunkRef &c, u32, const Segment &s) {
		n += c.position == 8 && s.handle == 0x11;
	});
	ST_EQ(r, n, 1u);
	cl->clear();
	ST_CHECK(r, cl->set_reply_chunk() == ListError::None);
	ST_CHECK(r, cl->add_reply_segment({0x33, 64, 0x4000}) == ListError::None);
	ST_EQ(r, cl->reply_inv_handle(), 0x33u);
}

constexpr u32 kErrVers7[] = {kXid, 7, 16, 4, 1, 2, 3};
constexpr u32 kErrChunkV2[] = {kXid, 2, 16, 4, 2};
constexpr u32 kErrUnknown[] = {kXid, 1, 16, 4, 3};
constexpr u32 kNoMsgNoReply[] = {kXid, 1, 32, 1, 0, 0, 0};
constexpr u32 kReplyVers2[] = {kXid, 2, 32, 0, 0, 0, 0, 1, 2, 3};

static void reply_decode(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);

	ST_EQ(r, v1_decode_reply(r.words(kV1ReplyNoMsg), kLim, h), V1Verdict::Ok);
	ST_CHECK(r, h->chunks.has_reply);
	ST_EQ(r, h->chunks.chunk_length(h->chunks.reply), 1500ull);
	ST_EQ(r, v1_requester_action(V1Verdict::Ok), RequesterAction::Complete);
	ST_EQ(r, v1_decode_reply(r.words(kV1ReplyMsgWrite), kLim, h), V1Verdict::Ok);
	ST_EQ(r, h->chunks.nwrite, 1u);
	ST_EQ(r, h->chunks.chunk_length(h->chunks.write[0]), 8192ull);
	ST_EQ(r, h->payload_len, 40u);

	ST_EQ(r, v1_decode_reply(r.words(kV1ErrVers), kLim, h), V1Verdict::ErrorReply);
	ST_EQ(r, h->err, 1u);
	ST_EQ(r, h->vers_low, 1u);
	ST_EQ(r, h->vers_high, 1u);
	ST_EQ(r, v1_requester_action(V1Verdict::ErrorReply), RequesterAction::FailRpc);
	/* ERR_VERS is understood whatever rdma_vers says (RFC 8166 Section 7) */
	ST_EQ(r, v1_decode_reply(r.words(kErrVers7), kLim, h), V1Verdict::ErrorReply);
	ST_EQ(r, h->vers_low, 2u);
	ST_EQ(r, h->vers_high, 3u);
	ST_EQ(r, v1_decode_reply(r.words(kV1ErrChunk), kLim, h), V1Verdict::ErrorReply);
	ST_EQ(r, h->err, 2u);
	ST_EQ(r, v1_decode_reply(r.words(kErrChunkV2), kLim, h), V1Verdict::VersionMismatch);
	ST_EQ(r, v1_decode_reply(r.words(kErrUnknown), kLim, h), V1Verdict::BadErrorCode);
	ST_EQ(r, v1_requester_action(V1Verdict::BadErrorCode), RequesterAction::FailRpc);
	ST_EQ(r, h->hdr_len, 20u);

	ST_EQ(r, v1_decode_reply(r.words(kV1MsgReadChunk), kLim, h), V1Verdict::ReadListInReply);
	ST_EQ(r, v1_decode_reply(r.words(kNoMsgNoReply), kLim, h), V1Verdict::MissingReplyChunk);
	ST_EQ(r, v1_decode_reply(r.words(kReplyVers2), kLim, h), V1Verdict::VersionMismatch);
	ST_EQ(r, v1_decode_reply(r.words(kUnknownProc), kLim, h), V1Verdict::UnknownProc);
	const V1Verdict kVs3[] = {V1Verdict::ReadListInReply, V1Verdict::MissingReplyChunk,
			    V1Verdict::VersionMismatch, V1Verdict::UnknownProc};
	for (V1Verdict v : kVs3)
		ST_EQ(r, v1_requester_action(v), RequesterAction::Drop);
}

/* Build kV1MsgReadChunk's header with the builders; encode; compare. */
static void builder_encode(Reporter &r)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);
	ktl::Bytes out = r.bytes(128);
	ktl::ConstBytes want = r.words(kV1MsgReadChunk);
	ChunkLists &cl = h->chunks;

	h->xid = kXid;
	h->vers = 1;
	h->credits = 32;
	h->proc = V1Proc::Msg;
	cl.clear();
	ST_EQ(r, cl.add_read_segment(48, Segment{0x11111111, 4096, 0x100000000ull}), ListError::None);
	ST_EQ(r, cl.add_read_segment(48, Segment{0x22222222, 4100, 0x100002000ull}), ListError::None);
	ST_EQ(r, cl.nread, 1u);
	ST_EQ(r, v1_encoded_size(*h), 76u);
	auto res = v1_encode(*h, out);
	ST_CHECK(r, res.is_ok() && res.value() == 76);
	ST_EQ(r, ktl::mem_compare(out.data(), want.data(), 76), 0);
	for (u32 n = 0; n < 76; n++)
		ST_CHECK(r, v1_encode(*h, out.first(n)).is_error());

	/* builders insist on wire order and refuse wrapping segments */
	ST_EQ(r, cl.add_write_segment(Segment{1, 2, 3}), ListError::OutOfOrder);
	ST_EQ(r, cl.add_write_chunk(), ListError::None);
	ST_EQ(r, cl.add_write_segment(Segment{1, 0x2000, ~0ull - 0xfff}), ListError::SegmentWraps);
	ST_EQ(r, cl.add_read_segment(96, Segment{1, 2, 3}), ListError::OutOfOrder);
	ST_EQ(r, cl.add_reply_segment(Segment{1, 2, 3}), ListError::OutOfOrder);
	ST_EQ(r, cl.set_reply_chunk(), ListError::None);
	ST_EQ(r, cl.add_write_chunk(), ListError::OutOfOrder);
	ST_EQ(r, cl.add_reply_segment(Segment{9, 4096, 0x5000}), ListError::None);
	ST_EQ(r, v1_encoded_size(*h), 76u + 8 + 20);
}

static void peek_xid(Reporter &r)
{
	u32 xid = 0;

	ST_CHECK(r, v1_peek_xid(r.words(kV1Done), &xid));
	ST_EQ(r, xid, kXid);
	ST_CHECK(r, !v1_peek_xid(r.words(kV1Done).first(3), &xid));
	ST_CHECK(r, ktl::mem_compare(v1_verdict_name(V1Verdict::SegmentWraps), "segment_wraps", 14) == 0);
}

} // namespace v1_cases

const Case kV1Cases[] = {
	{"v1.decode_msg_inline", v1_cases::decode_msg_inline},
	{"v1.decode_msg_read_chunk", v1_cases::decode_msg_read_chunk},
	{"v1.decode_nomsg_long_call", v1_cases::decode_nomsg_long_call},
	{"v1.decode_write_and_reply", v1_cases::decode_write_and_reply},
	{"v1.roundtrip_vectors", v1_cases::roundtrip_vectors},
	{"v1.truncation_every_byte", v1_cases::truncation_every_byte},
	{"v1.obsolete_procs", v1_cases::obsolete_procs},
	{"v1.version_mismatch", v1_cases::version_mismatch},
	{"v1.err_chunk_encode", v1_cases::err_chunk_encode},
	{"v1.error_at_responder", v1_cases::error_at_responder},
	{"v1.malformed_basics", v1_cases::malformed_basics},
	{"v1.write_limits", v1_cases::write_limits},
	{"v1.read_limits", v1_cases::read_limits},
	{"v1.read_positions", v1_cases::read_positions},
	{"v1.xid_mismatch", v1_cases::xid_mismatch},
	{"v1.reply_inv_handle", v1_cases::reply_inv_handle},
	{"v1.reply_decode", v1_cases::reply_decode},
	{"v1.builder_encode", v1_cases::builder_encode},
	{"v1.peek_xid", v1_cases::peek_xid},
};
const u32 kV1CaseCount = sizeof(kV1Cases) / sizeof(kV1Cases[0]);

} // namespace rpcrdmax::core::selftest
