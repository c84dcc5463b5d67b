// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the responder's Call layout and Reply plan
 * (core/responder.h): a Call's pieces (inline octets, Read chunks and
 * their round-up; the Position Zero chunk of RDMA_NOMSG with other Read
 * chunks inside it); which of inline / Write chunk / Reply chunk, the
 * round-up skipped after a Write chunk, the body ranges, and the chunks
 * echoed with what was written.
 */
/* rpcrdmax headers first: hosted headers define errno and limit macros
 * (EPERM, SIZE_MAX) that collide with ktl names. */
#include <rpcrdmax/core/responder.h>
#include <rpcrdmax/core/v1.h>
#include <rpcrdmax/core/v2.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

using namespace rpcrdmax::core;

namespace {

constexpr uint32_t kInline = 4096;

struct Call {
	Call() { h.chunks.clear(); h.xid = 0x1234; h.vers = 1; h.proc = V1Proc::Msg; }
	Call &write_chunk(std::initializer_list<uint32_t> lens)
	{
		EXPECT_EQ(h.chunks.add_write_chunk(), ListError::None);
		for (uint32_t l : lens)
			EXPECT_EQ(h.chunks.add_write_segment(Segment{next++, l, 0x1000}),
				  ListError::None);
		return *this;
	}
	Call &reply_chunk(std::initializer_list<uint32_t> lens)
	{
		EXPECT_EQ(h.chunks.set_reply_chunk(), ListError::None);
		for (uint32_t l : lens)
			EXPECT_EQ(h.chunks.add_reply_segment(Segment{next++, l, 0x2000}),
				  ListError::None);
		return *this;
	}
	Call &read_chunk(uint32_t position, std::initializer_list<uint32_t> lens)
	{
		for (uint32_t l : lens)
			EXPECT_EQ(h.chunks.add_read_segment(position, Segment{next++, l, 0x3000}),
				  ListError::None);
		return *this;
	}
	Call &nomsg()
	{
		h.proc = V1Proc::NoMsg;
		return *this;
	}
	V1Header h{};
	uint32_t next = 100;
};

ReplyShape shape(uint32_t head, uint32_t pages, uint32_t tail)
{
	ReplyShape s{};
	s.head_len = head;
	s.page_len = pages;
	s.tail_len = tail;
	s.len = head + pages + tail;
	return s;
}

/* A READ-style Reply: the page list is the one DDP-eligible result. */
ReplyShape read_shape(uint32_t head, uint32_t pages, uint32_t tail)
{
	ReplyShape s = shape(head, pages, tail);
	s.npayloads = 1;
	s.payloads[0] = {head, pages};
	return s;
}

uint32_t body_total(const ReplyPlan &p)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < p.nbody; i++)
		n += p.body[i].len;
	return n;
}

uint32_t echoed(const ChunkLists &cl, const ChunkRef &c)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < c.nsegs; i++)
		n += cl.segment(c, i).length;
	return n;
}

constexpr uint32_t kMaxChunkLen = (1u << 20) + 65536;

struct Piece {
	CallPieceKind kind;
	uint32_t chunk, src, len;
};

void expect_pieces(const CallLayout &lay, std::initializer_list<Piece> want)
{
	ASSERT_EQ(lay.npieces, want.size());
	uint32_t i = 0;
	for (const Piece &w : want) {
		const CallPiece &g = lay.pieces[i++];
		EXPECT_EQ(g.kind, w.kind) << "piece " << i - 1;
		EXPECT_EQ(g.len, w.len) << "piece " << i - 1;
		if (w.kind == CallPieceKind::Chunk) {
			EXPECT_EQ(g.chunk, w.chunk) << "piece " << i - 1;
		}
		if (w.kind == CallPieceKind::Inline) {
			EXPECT_EQ(g.src, w.src) << "piece " << i - 1;
		}
	}
}

TEST(CallLayout, InlineCallIsOnePiece)
{
	Call c;
	auto lay = std::make_unique<CallLayout>();
	ASSERT_EQ(v1_layout_call(c.h, 100, kMaxChunkLen, lay.get()), CallLayoutError::None);
	EXPECT_FALSE(lay->from_call_chunk);
	EXPECT_EQ(lay->len, 100u);
	expect_pieces(*lay, {{CallPieceKind::Inline, 0, 0, 100}});
}

TEST(CallLayout, ReadChunkIsInsertedAtItsPositionWithItsRoundUp)
{
	Call c;
	c.read_chunk(120, {4096, 905});
	auto lay = std::make_unique<CallLayout>();
	ASSERT_EQ(v1_layout_call(c.h, 200, kMaxChunkLen, lay.get()), CallLayoutError::None);
	EXPECT_EQ(lay->len, 120u + 5004u + 80u);
	expect_pieces(*lay, {{CallPieceKind::Inline, 0, 0, 120},
			     {CallPieceKind::Chunk, 0, 0, 5001},
			     {CallPieceKind::Pad, 0, 0, 3},
			     {CallPieceKind::Inline, 0, 120, 80}});
}

TEST(CallLayout, LongCallIsThePositionZeroChunk)
{
	Call c;
	c.nomsg().read_chunk(0, {2000, 1000});
	auto lay = std::make_unique<CallLayout>();
	/* The Receive's payload length does not matter for RDMA_NOMSG. */
	ASSERT_EQ(v1_layout_call(c.h, 77, kMaxChunkLen, lay.get()), CallLayoutError::None);
	EXPECT_TRUE(lay->from_call_chunk);
	EXPECT_EQ(lay->len, 3000u);
	expect_pieces(*lay, {{CallPieceKind::Inline, 0, 0, 3000}});
}

/* rpcrdmax's own client sends this form (core planner LongCallReadChunk):
 * the Position Zero chunk holds the message without the data item, which
 * is a Read chunk at its position in the reassembled message. */
TEST(CallLayout, LongCallWithAReadChunkInsideIt)
{
	Call c;
	c.nomsg().read_chunk(0, {300}).read_chunk(124, {8190});
	auto lay = std::make_unique<CallLayout>();
	ASSERT_EQ(v1_layout_call(c.h, 0, kMaxChunkLen, lay.get()), CallLayoutError::None);
	EXPECT_TRUE(lay->from_call_chunk);
	EXPECT_EQ(lay->len, 124u + 8192u + 176u);
	expect_pieces(*lay, {{CallPieceKind::Inline, 0, 0, 124},
			     {CallPieceKind::Chunk, 1, 0, 8190},
			     {CallPieceKind::Pad, 0, 0, 2},
			     {CallPieceKind::Inline, 0, 124, 176}});
}

TEST(CallLayout, TwoReadChunksInOneLongCall)
{
	Call c;
	c.nomsg().read_chunk(0, {64}).read_chunk(8, {10}).read_chunk(28, {4});
	auto lay = std::make_unique<CallLayout>();
	ASSERT_EQ(v1_layout_call(c.h, 0, kMaxChunkLen, lay.get()), CallLayoutError::None);
	/* 8 inline, 10 + 2 pad, (28 - 20) = 8 inline, 4, the last 48 inline */
	EXPECT_EQ(lay->len, 8u + 12u + 8u + 4u + 48u);
	expect_pieces(*lay, {{CallPieceKind::Inline, 0, 0, 8},
			     {CallPieceKind::Chunk, 1, 0, 10},
			     {CallPieceKind::Pad, 0, 0, 2},
			     {CallPieceKind::Inline, 0, 8, 8},
			     {CallPieceKind::Chunk, 2, 0, 4},
			     {CallPieceKind::Inline, 0, 16, 48}});
}

TEST(CallLayout, BadPositionsAndShapesAreRefused)
{
	auto lay = std::make_unique<CallLayout>();
	{
		Call c; /* past the inline octets */
		c.read_chunk(204, {100});
		EXPECT_EQ(v1_layout_call(c.h, 200, kMaxChunkLen, lay.get()), CallLayoutError::Bad);
	}
	{
		Call c; /* the second chunk inside the first one's data */
		c.read_chunk(8, {100}).read_chunk(100, {4});
		EXPECT_EQ(v1_layout_call(c.h, 200, kMaxChunkLen, lay.get()), CallLayoutError::Bad);
	}
	{
		Call c; /* RDMA_NOMSG without a Position Zero chunk */
		c.nomsg().read_chunk(8, {100});
		EXPECT_EQ(v1_layout_call(c.h, 200, kMaxChunkLen, lay.get()), CallLayoutError::Bad);
	}
	{
		Call c; /* RDMA_NOMSG whose chunk inside reaches past the message */
		c.nomsg().read_chunk(0, {16}).read_chunk(20, {4});
		EXPECT_EQ(v1_layout_call(c.h, 0, kMaxChunkLen, lay.get()), CallLayoutError::Bad);
	}
	{
		Call c; /* an empty message */
		c.nomsg().read_chunk(0, {0});
		EXPECT_EQ(v1_layout_call(c.h, 0, kMaxChunkLen, lay.get()), CallLayoutError::Bad);
		Call m;
		EXPECT_EQ(v1_layout_call(m.h, 0, kMaxChunkLen, lay.get()), CallLayoutError::Bad);
	}
	{
		Call c; /* a chunk over the limit, in either form */
		c.read_chunk(0, {4096, 4097});
		EXPECT_EQ(v1_layout_call(c.h, 100, 8192, lay.get()), CallLayoutError::TooLong);
		Call n;
		n.nomsg().read_chunk(0, {8193});
		EXPECT_EQ(v1_layout_call(n.h, 0, 8192, lay.get()), CallLayoutError::TooLong);
	}
}

/* Any accepted layout: the inline octets are used once, in order, and the
 * pieces add up to the message. */
TEST(CallLayout, RandomCallsCoverTheirInlineOctetsOnce)
{
	std::mt19937 rng(8166);
	auto lay = std::make_unique<CallLayout>();
	unsigned accepted = 0;
	for (int iter = 0; iter < 20000; iter++) {
		Call c;
		bool nomsg = rng() % 2;
		uint32_t inl = rng() % 600;
		if (nomsg)
			c.nomsg().read_chunk(0, {inl});
		uint32_t pos = 0, nchunks = rng() % 4;
		for (uint32_t k = 0; k < nchunks; k++) {
			/* (a segment at the position of the chunk before
			 * joins it: keep data chunks off the Position Zero
			 * chunk, which the test counts as inline octets) */
			pos += (rng() % 64 + (nomsg && pos == 0)) * 4;
			uint32_t clen = rng() % 300;
			c.read_chunk(pos, {clen});
			pos += (clen + 3) & ~3u;
		}
		if (v1_layout_call(c.h, inl, kMaxChunkLen, lay.get()) != CallLayoutError::None)
			continue;
		accepted++;
		uint64_t total = 0, in = 0;
		for (uint32_t i = 0; i < lay->npieces; i++) {
			const CallPiece &p = lay->pieces[i];
			ASSERT_GT(p.len, 0u);
			if (p.kind == CallPieceKind::Inline) {
				ASSERT_EQ(p.src, in);
				in += p.len;
			} else if (p.kind == CallPieceKind::Pad) {
				ASSERT_LT(p.len, 4u);
			}
			total += p.len;
		}
		ASSERT_EQ(in, inl);
		ASSERT_EQ(total, lay->len);
	}
	EXPECT_GT(accepted, 1000u);
}

/*
 * Plan the Reply (v1_plan_reply) and read its header back as a V1Header
 * (v1_reply_header); for the routes that send one, the header the
 * responder encodes straight from the Call (encode_reply, in
 * versions 1 and 2) must be that header's octets as v1_encode and
 * v2_encode_msg write them, and too small a buffer is refused.
 */
static ReplyPlan plan(const V1Header &call, const ReplyShape &s, uint32_t inline_max, V1Header *rep,
		      uint32_t vers = kRpcRdmaVersion1)
{
	ReplyPlan p = v1_plan_reply(call, s, vers, inline_max);
	v1_reply_header(call, p, rep);
	if (p.route == ReplyRoute::Inline) {
		/* the Send fits: its header, in its version, and the body */
		std::vector<uint8_t> hb(8192);
		auto n = encode_reply(call, p, vers, 1, rpcrdmax::ktl::Bytes(hb.data(), hb.size()));
		EXPECT_TRUE(n.is_ok());
		if (n.is_ok()) {
			EXPECT_LE(n.value() + p.body_len, inline_max);
		}
	}
	if (p.route != ReplyRoute::Inline && p.route != ReplyRoute::ReplyChunk) {
		std::vector<uint8_t> buf(64);
		EXPECT_TRUE(encode_reply(call, p, kRpcRdmaVersion1, 5, rpcrdmax::ktl::Bytes(buf.data(), buf.size())).is_error());
		EXPECT_TRUE(encode_reply(call, p, kRpcRdmaVersion2, 5, rpcrdmax::ktl::Bytes(buf.data(), buf.size())).is_error());
		return p;
	}
	const uint32_t credits = 7;
	rep->credits = credits;
	std::vector<uint8_t> want(8192), got(8192, 0xa5);
	auto w = v1_encode(*rep, rpcrdmax::ktl::Bytes(want.data(), want.size()));
	auto g = encode_reply(call, p, kRpcRdmaVersion1, credits, rpcrdmax::ktl::Bytes(got.data(), got.size()));
	EXPECT_TRUE(w.is_ok() && g.is_ok());
	if (w.is_ok() && g.is_ok()) {
		EXPECT_EQ(g.value(), w.value());
		EXPECT_TRUE(std::equal(want.begin(), want.begin() + w.value(), got.begin()));
		EXPECT_TRUE(encode_reply(call, p, kRpcRdmaVersion1, credits, rpcrdmax::ktl::Bytes(got.data(), g.value() - 1))
				    .is_error());
	}
	auto w2 = v2_encode_msg(*rep, kMsgReply, 0, rpcrdmax::ktl::Bytes(want.data(), want.size()));
	auto g2 = encode_reply(call, p, kRpcRdmaVersion2, credits, rpcrdmax::ktl::Bytes(got.data(), got.size()));
	EXPECT_TRUE(w2.is_ok() && g2.is_ok());
	if (w2.is_ok() && g2.is_ok()) {
		EXPECT_EQ(g2.value(), w2.value());
		EXPECT_TRUE(std::equal(want.begin(), want.begin() + w2.value(), got.begin()));
	}
	/* no other version has this header */
	EXPECT_TRUE(encode_reply(call, p, 3, credits, rpcrdmax::ktl::Bytes(got.data(), got.size())).is_error());
	/* what the trace walks: the header's segments, in order */
	std::vector<Segment> walked;
	for_each_reply_segment(call, p, [&](uint32_t, const Segment &seg) { walked.push_back(seg); });
	uint32_t k = 0;
	rep->chunks.for_each_segment(ChunkLists::kWriteList | ChunkLists::kReplyChunk,
				     [&](const ChunkRef &, uint32_t, const Segment &seg) {
					     EXPECT_LT(k, walked.size());
					     if (k < walked.size()) {
						     EXPECT_EQ(walked[k].handle, seg.handle);
						     EXPECT_EQ(walked[k].length, seg.length);
						     EXPECT_EQ(walked[k].offset, seg.offset);
					     }
					     k++;
				     });
	EXPECT_EQ(k, walked.size());
	return p;
}

TEST(ReplyPlan, NoChunksSmallReplyIsInline)
{
	Call c;
	auto rep = std::make_unique<V1Header>();
	ReplyPlan p = plan(c.h, read_shape(100, 200, 8), kInline, rep.get());
	EXPECT_EQ(p.route, ReplyRoute::Inline);
	EXPECT_EQ(p.write_len, 0u);
	EXPECT_EQ(p.body_len, 308u);
	ASSERT_EQ(p.nbody, 1u);
	EXPECT_EQ(p.body[0].off, 0u);
	EXPECT_EQ(p.body[0].len, 308u);
	EXPECT_EQ(rep->xid, 0x1234u);
	EXPECT_EQ(rep->proc, V1Proc::Msg);
	EXPECT_EQ(rep->chunks.nwrite, 0u);
	EXPECT_FALSE(rep->chunks.has_reply);
}

TEST(ReplyPlan, PayloadGoesToTheWriteChunkWithoutRoundUp)
{
	Call c;
	c.write_chunk({600, 600}).write_chunk({4096});
	auto rep = std::make_unique<V1Header>();
	/* 1001 octets of READ data: 3 octets of round-up start the tail. */
	ReplyPlan p = plan(c.h, read_shape(120, 1001, 7), kInline, rep.get());
	EXPECT_EQ(p.route, ReplyRoute::Inline);
	EXPECT_EQ(p.write_len, 1001u);
	EXPECT_EQ(p.body_len, 124u);
	ASSERT_EQ(p.nwrites, 2u);
	EXPECT_EQ(p.writes[0].off, 120u);
	EXPECT_EQ(p.writes[0].len, 1001u);
	EXPECT_EQ(p.writes[1].len, 0u);
	ASSERT_EQ(p.nbody, 2u);
	EXPECT_EQ(p.body[0].off, 0u);
	EXPECT_EQ(p.body[0].len, 120u);
	EXPECT_EQ(p.body[1].off, 1124u);
	EXPECT_EQ(p.body[1].len, 4u);
	ASSERT_EQ(rep->chunks.nwrite, 2u);
	const ChunkRef &w0 = rep->chunks.write[0];
	ASSERT_EQ(w0.nsegs, 2u);
	EXPECT_EQ(rep->chunks.segment(w0, 0).length, 600u);
	EXPECT_EQ(rep->chunks.segment(w0, 1).length, 401u);
	EXPECT_EQ(rep->chunks.segment(w0, 0).handle, 100u);
	/* The other Write chunks are echoed empty. */
	EXPECT_EQ(echoed(rep->chunks, rep->chunks.write[1]), 0u);
}

/* A page list nobody marked as a result (READDIR, say) is not DDP data:
 * it stays in the body even when the Call offered a Write chunk. */
TEST(ReplyPlan, PagesWithoutAResultStayInTheBody)
{
	Call c;
	c.write_chunk({4096});
	auto rep = std::make_unique<V1Header>();
	ReplyPlan p = plan(c.h, shape(120, 600, 8), kInline, rep.get());
	EXPECT_EQ(p.route, ReplyRoute::Inline);
	EXPECT_EQ(p.write_len, 0u);
	EXPECT_EQ(p.body_len, 728u);
	EXPECT_EQ(echoed(rep->chunks, rep->chunks.write[0]), 0u);
}

/* NFSv4 READ by readv: the data sits in the page list with the results of
 * later operations after it; only the data is written. */
TEST(ReplyPlan, PayloadInsideThePageListLeavesTheRestInline)
{
	Call c;
	c.write_chunk({8192});
	auto rep = std::make_unique<V1Header>();
	ReplyShape s = shape(200, 3000, 0);
	s.npayloads = 1;
	s.payloads[0] = {260, 2001}; /* then 3 octets of pad, then 736 of GETATTR */
	ReplyPlan p = plan(c.h, s, kInline, rep.get());
	EXPECT_EQ(p.route, ReplyRoute::Inline);
	EXPECT_EQ(p.write_len, 2001u);
	ASSERT_EQ(p.nbody, 2u);
	EXPECT_EQ(p.body[0].off, 0u);
	EXPECT_EQ(p.body[0].len, 260u);
	EXPECT_EQ(p.body[1].off, 2264u);
	EXPECT_EQ(p.body[1].len, 936u);
	EXPECT_EQ(p.body_len, 1196u);
	EXPECT_EQ(echoed(rep->chunks, rep->chunks.write[0]), 2001u);
}

/* A COMPOUND with three READs and two Write chunks: the first two results
 * fill the chunks in order, the third stays inline. */
TEST(ReplyPlan, SeveralResultsFillSeveralWriteChunksInOrder)
{
	Call c;
	c.write_chunk({4096}).write_chunk({2048, 2048});
	auto rep = std::make_unique<V1Header>();
	ReplyShape s = shape(100, 9000, 0);
	s.npayloads = 3;
	s.payloads[0] = {140, 1000};
	s.payloads[1] = {1180, 3001}; /* 3 octets of pad after it */
	s.payloads[2] = {4300, 100};
	ReplyPlan p = plan(c.h, s, 1u << 20, rep.get());
	EXPECT_EQ(p.route, ReplyRoute::Inline);
	EXPECT_EQ(p.write_len, 4001u);
	ASSERT_EQ(p.nwrites, 2u);
	EXPECT_EQ(p.writes[1].off, 1180u);
	ASSERT_EQ(p.nbody, 3u);
	EXPECT_EQ(p.body[0].len, 140u);
	EXPECT_EQ(p.body[1].off, 1140u);
	EXPECT_EQ(p.body[1].len, 40u);
	EXPECT_EQ(p.body[2].off, 4184u);
	EXPECT_EQ(p.body[2].len, 9100u - 4184u);
	EXPECT_EQ(p.body_len, 9100u - 4001u - 3u);
	EXPECT_EQ(echoed(rep->chunks, rep->chunks.write[0]), 1000u);
	const ChunkRef &w1 = rep->chunks.write[1];
	EXPECT_EQ(rep->chunks.segment(w1, 0).length, 2048u);
	EXPECT_EQ(rep->chunks.segment(w1, 1).length, 953u);
}

TEST(ReplyPlan, RoundUpSkipIsBoundedByTheTail)
{
	Call c;
	c.write_chunk({8192});
	auto rep = std::make_unique<V1Header>();
	ReplyPlan p = plan(c.h, read_shape(64, 5, 1), kInline, rep.get());
	EXPECT_EQ(p.write_len, 5u);
	EXPECT_EQ(p.body_len, 64u);
}

TEST(ReplyPlan, TooSmallWriteChunkIsNotUsed)
{
	Call c;
	c.write_chunk({100}).reply_chunk({2048, 8192});
	auto rep = std::make_unique<V1Header>();
	ReplyPlan p = plan(c.h, read_shape(100, 5000, 0), kInline, rep.get());
	EXPECT_EQ(p.route, ReplyRoute::ReplyChunk);
	EXPECT_EQ(p.write_len, 0u);
	EXPECT_EQ(p.body_len, 5100u);
	EXPECT_EQ(rep->proc, V1Proc::NoMsg);
	EXPECT_EQ(echoed(rep->chunks, rep->chunks.write[0]), 0u);
	ASSERT_TRUE(rep->chunks.has_reply);
	const ChunkRef &r = rep->chunks.reply;
	ASSERT_EQ(r.nsegs, 2u);
	EXPECT_EQ(rep->chunks.segment(r, 0).length, 2048u);
	EXPECT_EQ(rep->chunks.segment(r, 1).length, 3052u);
}

TEST(ReplyPlan, HeaderCountsAgainstTheThreshold)
{
	Call c;
	auto rep = std::make_unique<V1Header>();
	/* Exactly the threshold with the 28-octet header: inline. */
	uint32_t hdr = 28;
	ReplyPlan p = plan(c.h, shape(kInline - hdr, 0, 0), kInline, rep.get());
	EXPECT_EQ(v1_encoded_size(*rep), hdr);
	EXPECT_EQ(p.route, ReplyRoute::Inline);
	p = plan(c.h, shape(kInline - hdr + 1, 0, 0), kInline, rep.get());
	EXPECT_EQ(p.route, ReplyRoute::NoRoom);
}

/* Version 2's header is two words longer (draft Section 6.2): the Reply
 * that just fits in version 1 goes in the Reply chunk in version 2, or
 * has no room. */
TEST(ReplyPlan, Version2HeaderCountsAgainstTheThreshold)
{
	Call c;
	auto rep = std::make_unique<V1Header>();
	const uint32_t hdr = 28 + kV2ExtraHeaderSize;
	EXPECT_EQ(plan(c.h, shape(kInline - hdr, 0, 0), kInline, rep.get(), kRpcRdmaVersion2).route,
		  ReplyRoute::Inline);
	EXPECT_EQ(plan(c.h, shape(kInline - hdr + 1, 0, 0), kInline, rep.get(), kRpcRdmaVersion2).route,
		  ReplyRoute::NoRoom);
	/* a Short Reply copies the Call's Reply chunk (RFC 8166 Section
	 * 4.3.3): its 20 octets count too */
	Call rc;
	rc.reply_chunk({kInline});
	const uint32_t copy = 2 * 4 + 16 - 4;
	EXPECT_EQ(plan(rc.h, shape(kInline - 28 - copy, 0, 0), kInline, rep.get()).route,
		  ReplyRoute::Inline);
	EXPECT_EQ(plan(rc.h, shape(kInline - 28 - copy + 1, 0, 0), kInline, rep.get()).route,
		  ReplyRoute::ReplyChunk);
	EXPECT_EQ(plan(rc.h, shape(kInline - 28 - copy, 0, 0), kInline, rep.get(), kRpcRdmaVersion2)
			  .route,
		  ReplyRoute::ReplyChunk);
}

/*
 * RFC 8166 Section 4.3.3: "When a Requester provides a Reply chunk in an
 * RPC Call message, the Responder MUST copy that chunk into the
 * Transport header of the RPC Reply message", its lengths "the actual
 * amount of data that is being returned in the Reply chunk": none when
 * the Reply goes as a Short message.  encode_short_reply() writes the
 * header encode_reply() gives it, of short_reply_header_size() octets.
 */
TEST(ReplyPlan, ShortReplyCopiesTheReplyChunkUnused)
{
	for (auto lens : {std::vector<uint32_t>{}, std::vector<uint32_t>{4096},
			  std::vector<uint32_t>{1000, 3000, 8}}) {
		SCOPED_TRACE(lens.size());
		Call c;
		if (!lens.empty()) {
			ASSERT_EQ(c.h.chunks.set_reply_chunk(), ListError::None);
			for (uint32_t l : lens)
				ASSERT_EQ(c.h.chunks.add_reply_segment(Segment{c.next++, l, 0x2000 + l}),
					  ListError::None);
		}
		auto rep = std::make_unique<V1Header>();
		ReplyPlan p = plan(c.h, shape(300, 0, 40), kInline, rep.get());
		ASSERT_EQ(p.route, ReplyRoute::Inline);
		EXPECT_EQ(rep->proc, V1Proc::Msg);
		ASSERT_EQ(rep->chunks.has_reply, !lens.empty());
		if (!lens.empty()) {
			const ChunkRef &r = rep->chunks.reply;
			ASSERT_EQ(r.nsegs, lens.size());
			for (uint32_t i = 0; i < r.nsegs; i++) {
				const Segment &got = rep->chunks.segment(r, i);
				const Segment &want = c.h.chunks.segment(c.h.chunks.reply, i);
				EXPECT_EQ(got.handle, want.handle);
				EXPECT_EQ(got.offset, want.offset);
				EXPECT_EQ(got.length, 0u);
			}
		}
		for (uint32_t vers : {kRpcRdmaVersion1, kRpcRdmaVersion2}) {
			std::vector<uint8_t> want(512), got(512, 0xa5);
			auto w = encode_reply(c.h, p, vers, 9, rpcrdmax::ktl::Bytes(want.data(), want.size()));
			auto g = encode_short_reply(c.h, vers, 9, rpcrdmax::ktl::Bytes(got.data(), got.size()));
			ASSERT_TRUE(w.is_ok() && g.is_ok());
			EXPECT_EQ(g.value(), w.value());
			EXPECT_EQ(g.value(), short_reply_header_size(c.h.chunks, vers));
			EXPECT_TRUE(std::equal(want.begin(), want.begin() + w.value(), got.begin()));
			EXPECT_TRUE(encode_short_reply(c.h, vers, 9,
						       rpcrdmax::ktl::Bytes(got.data(), g.value() - 1))
					    .is_error());
		}
		std::vector<uint8_t> buf(512);
		EXPECT_TRUE(encode_short_reply(c.h, 3, 9, rpcrdmax::ktl::Bytes(buf.data(), buf.size()))
				    .is_error());
	}
	/* a Call with a Write list has no Short Reply of this form */
	Call w;
	w.write_chunk({100}).reply_chunk({4096});
	std::vector<uint8_t> buf(512);
	EXPECT_TRUE(encode_short_reply(w.h, 1, 9, rpcrdmax::ktl::Bytes(buf.data(), buf.size()))
			    .is_error());
}

TEST(ReplyPlan, LongReplyNeedsABigEnoughReplyChunk)
{
	Call small;
	small.reply_chunk({1000});
	auto rep = std::make_unique<V1Header>();
	EXPECT_EQ(plan(small.h, shape(8000, 0, 0), kInline, rep.get()).route,
		  ReplyRoute::NoRoom);
	Call big;
	big.reply_chunk({8000});
	ReplyPlan p = plan(big.h, shape(8000, 0, 0), kInline, rep.get());
	EXPECT_EQ(p.route, ReplyRoute::ReplyChunk);
	EXPECT_EQ(echoed(rep->chunks, rep->chunks.reply), 8000u);
}

TEST(ReplyPlan, WriteChunkAndReplyChunkTogether)
{
	Call c;
	c.write_chunk({65536}).reply_chunk({16384});
	auto rep = std::make_unique<V1Header>();
	ReplyPlan p = plan(c.h, read_shape(5000, 65535, 2), 1024, rep.get());
	EXPECT_EQ(p.route, ReplyRoute::ReplyChunk);
	EXPECT_EQ(p.write_len, 65535u);
	EXPECT_EQ(p.body_len, 5001u);
	ASSERT_EQ(p.nbody, 2u);
	EXPECT_EQ(p.body[0].len, 5000u);
	EXPECT_EQ(p.body[1].off, 70536u);
	EXPECT_EQ(echoed(rep->chunks, rep->chunks.write[0]), 65535u);
	EXPECT_EQ(echoed(rep->chunks, rep->chunks.reply), 5001u);
}

TEST(ReplyPlan, InconsistentShapeIsBad)
{
	Call c;
	auto rep = std::make_unique<V1Header>();
	ReplyShape s = shape(10, 20, 30);
	s.len += 1;
	EXPECT_EQ(plan(c.h, s, kInline, rep.get()).route, ReplyRoute::Bad);
	s = shape(0, 0, 0);
	s.head_len = 0xffffffffu;
	s.page_len = 2;
	s.len = 1;
	EXPECT_EQ(plan(c.h, s, kInline, rep.get()).route, ReplyRoute::Bad);
}

/* Results outside the Reply, overlapping or out of order, or more of them
 * than any Write list holds: Bad, nothing written. */
TEST(ReplyPlan, ResultsOutsideOrOutOfOrderAreBad)
{
	Call c;
	c.write_chunk({4096}).write_chunk({4096});
	auto rep = std::make_unique<V1Header>();
	const Range bad[][2] = {
		{{90, 20}, {0, 0}},	    /* past the end */
		{{0xfffffff0u, 0x20}, {0, 0}}, /* wraps */
		{{50, 10}, {40, 5}},	    /* out of order */
		{{50, 10}, {55, 5}},	    /* overlapping */
	};
	for (const auto &b : bad) {
		ReplyShape s = shape(100, 0, 0);
		s.npayloads = 2;
		s.payloads[0] = b[0];
		s.payloads[1] = b[1];
		ReplyPlan p = plan(c.h, s, kInline, rep.get());
		EXPECT_EQ(p.route, ReplyRoute::Bad) << b[0].off << "+" << b[0].len;
		EXPECT_EQ(p.write_len, 0u);
	}
	ReplyShape s = shape(100, 0, 0);
	s.npayloads = kMaxChunksCap + 1;
	EXPECT_EQ(plan(c.h, s, kInline, rep.get()).route, ReplyRoute::Bad);
}

/* Any accepted plan: the writes and the body are disjoint, in order, and
 * with the skipped round-ups (each under 4 octets) cover the Reply. */
TEST(ReplyPlan, RandomResultsPartitionTheReply)
{
	std::mt19937 rng(5666);
	auto rep = std::make_unique<V1Header>();
	unsigned written = 0;
	for (int iter = 0; iter < 20000; iter++) {
		Call c;
		uint32_t nw = uint32_t(rng() % 4);
		for (uint32_t i = 0; i < nw; i++)
			c.write_chunk({uint32_t(rng() % 3000 + 1)});
		ReplyShape s = shape(uint32_t(rng() % 200), uint32_t(rng() % 6000), uint32_t(rng() % 16));
		uint32_t at = 0;
		s.npayloads = uint32_t(rng() % 5);
		for (uint32_t i = 0; i < s.npayloads; i++) {
			at += uint32_t(rng() % 300);
			uint32_t len = uint32_t(rng() % 2000);
			s.payloads[i] = {at, len};
			at += len;
		}
		ReplyPlan p = plan(c.h, s, 1u << 20, rep.get(),
				   rng() % 2 ? kRpcRdmaVersion2 : kRpcRdmaVersion1);
		if (at > s.len) {
			ASSERT_EQ(p.route, ReplyRoute::Bad);
			continue;
		}
		ASSERT_EQ(p.route, ReplyRoute::Inline);
		std::vector<Range> parts;
		for (uint32_t i = 0; i < p.nwrites; i++)
			if (p.writes[i].len) {
				parts.push_back(p.writes[i]);
				ASSERT_EQ(echoed(rep->chunks, rep->chunks.write[i]), p.writes[i].len);
				written++;
			}
		for (uint32_t i = 0; i < p.nbody; i++)
			parts.push_back(p.body[i]);
		std::sort(parts.begin(), parts.end(),
			  [](const Range &a, const Range &b) { return a.off < b.off; });
		uint32_t end = 0, wsum = 0;
		for (const Range &r : parts) {
			ASSERT_GE(r.off, end);
			ASSERT_LT(r.off - end, 4u);
			end = r.off + r.len;
		}
		ASSERT_LT(s.len - end, 4u);
		for (uint32_t i = 0; i < p.nwrites; i++)
			wsum += p.writes[i].len;
		ASSERT_EQ(wsum, p.write_len);
		ASSERT_EQ(body_total(p), p.body_len);
	}
	EXPECT_GT(written, 1000u);
}

/*
 * plan_one_write_reply() and encode_one_write_reply() are v1_plan_reply()
 * and encode_reply() for a READ's Reply: where the shortcut says yes,
 * the plan is Inline with the one result in the Write chunk, the same
 * body (the head, the tail less the round-up) and the same header
 * octets; where the plan is that, it says yes.
 */
TEST(ReplyPlan, OneWriteShortcutAgreesWithThePlan)
{
	std::mt19937 rng(5667);
	int yes = 0, no = 0;

	for (int iter = 0; iter < 40000; iter++) {
		Call c;
		const uint32_t nw = rng() % 8 == 0 ? 2 : 1;
		for (uint32_t i = 0; i < nw; i++) {
			if (rng() % 8 == 0)
				c.write_chunk({uint32_t(rng() % 5000 + 1), 100});
			else
				c.write_chunk({uint32_t(rng() % 5000 + 1)});
		}
		if (rng() % 8 == 0)
			c.reply_chunk({4096});
		c.h.chunks.segs[0].offset = rng() % 2 ? 0x1000 : 0xffff888012345678ull;
		const uint32_t head = 4 * uint32_t(rng() % 80), page = uint32_t(rng() % 5000);
		ReplyShape s = shape(head, page, uint32_t(rng() % 12));
		s.npayloads = rng() % 8 == 0 ? 0 : 1;
		s.payloads[0] = {head, page};
		if (rng() % 8 == 0)
			s.payloads[0] = {head + uint32_t(rng() % 8), page - uint32_t(rng() % 8)};
		if (rng() % 16 == 0)
			s.len++;
		const uint32_t vers = rng() % 2 ? kRpcRdmaVersion2 : kRpcRdmaVersion1;
		const uint32_t inline_max = 100 + uint32_t(rng() % 300);

		const ReplyPlan p = v1_plan_reply(c.h, s, vers, inline_max);
		const bool one = p.route == ReplyRoute::Inline && c.h.chunks.nwrite == 1 &&
				 c.h.chunks.write[0].nsegs == 1 && !c.h.chunks.has_reply &&
				 p.nwrites == 1 && p.writes[0].len == page && page &&
				 p.writes[0].off == s.head_len;
		uint32_t written = 7, skip = 7, body = 7;
		const bool said = plan_one_write_reply(c.h, s, vers, inline_max, &written, &skip, &body);
		ASSERT_EQ(said, one) << "iter " << iter;
		if (!said) {
			EXPECT_EQ(written + skip + body, 21u);
			no++;
			continue;
		}
		yes++;
		EXPECT_EQ(written, p.write_len);
		EXPECT_EQ(body, p.body_len);
		/* the body: the head, then the tail past the round-up */
		const Range last = p.nbody ? p.body[p.nbody - 1] : Range{0, 0};
		if (last.off > s.head_len)
			EXPECT_EQ(last.off, s.head_len + s.page_len + skip);
		else
			EXPECT_EQ(skip + s.head_len + s.page_len, s.len);

		uint8_t a[512], b[512];
		memset(a, 0xaa, sizeof(a));
		memset(b, 0xaa, sizeof(b));
		auto fast = encode_one_write_reply(c.h, written, vers, 77, rpcrdmax::ktl::Bytes(a, sizeof(a)));
		auto full = encode_reply(c.h, p, vers, 77, rpcrdmax::ktl::Bytes(b, sizeof(b)));
		ASSERT_TRUE(fast.is_ok() && full.is_ok());
		ASSERT_EQ(fast.value(), full.value());
		ASSERT_EQ(memcmp(a, b, sizeof(a)), 0) << "iter " << iter;
		EXPECT_TRUE(encode_one_write_reply(c.h, written, vers, 77,
						   rpcrdmax::ktl::Bytes(a, fast.value() - 1))
				    .is_error());
	}
	EXPECT_GT(yes, 1000);
	EXPECT_GT(no, 1000);
}

/* ---- inline Send layout (v1_layout_inline) ---------------------------- */

/* Check that the SGEs cover header + parts, in order, without overlap. */
static void expect_covers(const InlineLayout &l, uint32_t hlen, const InlinePart *parts, uint32_t n)
{
	uint32_t buf = 0, total = 0, pi = 0, part_off = 0;
	auto skip_empty = [&] {
		while (pi < n && !parts[pi].len && !l.mapped[pi])
			pi++;
	};
	for (uint32_t k = 0; k < l.nsge; k++) {
		const InlineSge &g = l.sge[k];
		skip_empty();
		total += g.len;
		if (g.mapped) {
			EXPECT_EQ(g.part, pi) << "sge " << k;
			EXPECT_EQ(g.len, parts[pi].len);
			EXPECT_TRUE(l.mapped[pi]);
			pi++;
			continue;
		}
		EXPECT_EQ(g.buf_off, buf) << "sge " << k;
		buf += g.len;
		/* The run's octets: the header, then whole copied parts. */
		uint32_t left = g.len;
		if (k == 0)
			left -= hlen;
		while (left) {
			ASSERT_LT(pi, n);
			EXPECT_FALSE(l.mapped[pi]);
			uint32_t take = std::min(left, parts[pi].len - part_off);
			left -= take;
			part_off += take;
			if (part_off == parts[pi].len) {
				pi++;
				part_off = 0;
			}
		}
		skip_empty();
	}
	skip_empty();
	EXPECT_EQ(pi, n);
	EXPECT_EQ(buf, l.buf_len);
	EXPECT_EQ(total, l.send_len);
}

TEST(InlineLayout, LongPagePiecesAreMapped)
{
	/* head 120, a page piece split over two pages, tail 3 */
	const InlinePart parts[] = { { 120, false }, { 1096, true }, { 2000, true }, { 3, false } };
	InlineLayout l;
	ASSERT_TRUE(v1_layout_inline(28, parts, 4, 8, kInlineMapMin, &l));
	ASSERT_EQ(l.nsge, 4u);
	EXPECT_FALSE(l.sge[0].mapped);
	EXPECT_EQ(l.sge[0].len, 148u);
	EXPECT_TRUE(l.sge[1].mapped && l.sge[2].mapped);
	EXPECT_FALSE(l.sge[3].mapped);
	EXPECT_EQ(l.sge[3].buf_off, 148u);
	EXPECT_EQ(l.sge[3].len, 3u);
	EXPECT_EQ(l.pulled_up, 0u);
	EXPECT_EQ(l.nmapped, 2u);
	EXPECT_EQ(l.buf_len, 151u);
	EXPECT_EQ(l.send_len, 28u + 120 + 1096 + 2000 + 3);
	expect_covers(l, 28, parts, 4);
}

TEST(InlineLayout, PulledUpWhenSgesRunOut)
{
	const InlinePart parts[] = { { 120, false }, { 1096, true }, { 2000, true }, { 3, false } };
	InlineLayout l;
	ASSERT_TRUE(v1_layout_inline(28, parts, 4, 3, kInlineMapMin, &l));
	ASSERT_EQ(l.nsge, 1u);
	EXPECT_FALSE(l.sge[0].mapped);
	EXPECT_EQ(l.sge[0].len, 28u + 120 + 1096 + 2000 + 3);
	EXPECT_EQ(l.pulled_up, 3096u);
	EXPECT_EQ(l.nmapped, 0u);
	EXPECT_EQ(l.buf_len, l.send_len);
	expect_covers(l, 28, parts, 4);
	/* Exactly enough SGEs: mapped. */
	ASSERT_TRUE(v1_layout_inline(28, parts, 4, 4, kInlineMapMin, &l));
	EXPECT_EQ(l.nsge, 4u);
	EXPECT_EQ(l.pulled_up, 0u);
}

TEST(InlineLayout, ShortPiecesAndHeadAndTailAreCopied)
{
	/* A short page piece is copied; a long head part is not a page piece. */
	const InlinePart parts[] = { { 3000, false }, { 100, true }, { 0, false }, { 600, true } };
	InlineLayout l;
	ASSERT_TRUE(v1_layout_inline(40, parts, 4, 8, kInlineMapMin, &l));
	ASSERT_EQ(l.nsge, 2u);
	EXPECT_EQ(l.sge[0].len, 40u + 3000 + 100);
	EXPECT_TRUE(l.sge[1].mapped);
	EXPECT_EQ(l.sge[1].part, 3u);
	EXPECT_EQ(l.pulled_up, 100u);
	expect_covers(l, 40, parts, 4);
}

TEST(InlineLayout, NoPartsIsTheHeaderAlone)
{
	InlineLayout l;
	ASSERT_TRUE(v1_layout_inline(28, nullptr, 0, 1, kInlineMapMin, &l));
	ASSERT_EQ(l.nsge, 1u);
	EXPECT_EQ(l.sge[0].len, 28u);
	EXPECT_EQ(l.send_len, 28u);
}

TEST(InlineLayout, RefusesTooManyPartsOrNoSges)
{
	InlinePart parts[kInlineMaxParts + 1] = {};
	InlineLayout l;
	EXPECT_FALSE(v1_layout_inline(28, parts, kInlineMaxParts + 1, 8, 0, &l));
	EXPECT_FALSE(v1_layout_inline(28, parts, 1, 0, 0, &l));
}

/*
 * The layout as the rule above states it, built the plain way (a list of
 * runs, every candidate mapped or none): v1_layout_inline must give the
 * same SGEs and counts.
 */
static std::vector<InlineSge> model_layout(uint32_t hlen, const InlinePart *parts, uint32_t n,
					   uint32_t max_sge, uint32_t map_min, uint32_t *pulled_up)
{
	auto build = [&](bool map) {
		std::vector<InlineSge> v;
		uint32_t buf = 0, run_len = hlen;
		*pulled_up = 0;
		for (uint32_t i = 0; i < n; i++) {
			bool m = map && parts[i].page && parts[i].len && parts[i].len >= map_min;
			if (!m) {
				run_len += parts[i].len;
				*pulled_up += parts[i].page ? parts[i].len : 0;
				continue;
			}
			if (run_len)
				v.push_back({ false, 0, buf, run_len });
			buf += run_len;
			run_len = 0;
			v.push_back({ true, i, 0, parts[i].len });
		}
		if (run_len || v.empty())
			v.push_back({ false, 0, buf, run_len });
		return v;
	};
	std::vector<InlineSge> v = build(true);
	return v.size() <= std::min(max_sge, kInlineMaxSges) ? v : build(false);
}

TEST(InlineLayout, EveryShapeIsCovered)
{
	/* Alternating page and copied parts of varied lengths under every SGE cap. */
	std::mt19937 rng(5);
	for (int iter = 0; iter < 20000; iter++) {
		InlinePart parts[kInlineMaxParts];
		uint32_t n = rng() % (kInlineMaxParts + 1);
		for (uint32_t i = 0; i < n; i++)
			parts[i] = { (uint32_t)(rng() % 3 ? rng() % 1500 : 0), (rng() & 1) != 0 };
		uint32_t max_sge = 1 + rng() % 10, hlen = 28 + rng() % 64;
		InlineLayout l;
		ASSERT_TRUE(v1_layout_inline(hlen, parts, n, max_sge, kInlineMapMin, &l));
		ASSERT_GE(l.nsge, 1u);
		ASSERT_LE(l.nsge, std::min(max_sge, kInlineMaxSges));
		uint32_t page = 0;
		for (uint32_t i = 0; i < n; i++)
			page += parts[i].page ? parts[i].len : 0;
		uint32_t mapped = 0, nmapped = 0;
		for (uint32_t k = 0; k < l.nsge; k++) {
			mapped += l.sge[k].mapped ? l.sge[k].len : 0;
			nmapped += l.sge[k].mapped;
		}
		EXPECT_EQ(mapped + l.pulled_up, page);
		EXPECT_EQ(nmapped, l.nmapped);
		uint32_t model_pulled_up;
		const std::vector<InlineSge> want =
			model_layout(hlen, parts, n, max_sge, kInlineMapMin, &model_pulled_up);
		ASSERT_EQ(l.nsge, want.size());
		for (uint32_t k = 0; k < l.nsge; k++) {
			EXPECT_EQ(l.sge[k].mapped, want[k].mapped) << "sge " << k;
			EXPECT_EQ(l.sge[k].part, want[k].part) << "sge " << k;
			EXPECT_EQ(l.sge[k].buf_off, want[k].buf_off) << "sge " << k;
			EXPECT_EQ(l.sge[k].len, want[k].len) << "sge " << k;
		}
		EXPECT_EQ(l.pulled_up, model_pulled_up);
		expect_covers(l, hlen, parts, n);
		if (HasFailure())
			FAIL() << "iteration " << iter;
	}
}

} // namespace
