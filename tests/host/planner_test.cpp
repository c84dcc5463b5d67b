// SPDX-License-Identifier: GPL-2.0
/*
 * Host-only planner tests: a table of NFS-like shapes with the form each
 * must get, and randomized shapes checked against invariants (headers
 * fit their thresholds, chunks add up, segments respect the
 * registration limits, and a responder's decoder accepts the result).
 */
/* rpcrdmax headers first: hosted headers define errno and limit macros
 * (EPERM, SIZE_MAX) that collide with ktl names. */
#include <rpcrdmax/core/planner.h>
#include <rpcrdmax/core/v1.h>
#include <rpcrdmax/core/v2.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

using namespace rpcrdmax::core;
namespace ktl = rpcrdmax::ktl;

namespace {

MsgShape shape(uint32_t head, uint32_t pages, uint32_t page_off, uint32_t tail, bool ddp)
{
	return MsgShape{Extent{head, 0}, Extent{pages, page_off},
			ddp ? (uint32_t)ktl::xdr_pad(pages) : 0, Extent{tail, 0}, ddp};
}

struct Row {
	const char *what;
	MsgShape call, reply;
	uint32_t threshold;
	CallForm cf;
	ReplyForm rf;
};

TEST(Planner, FormTable)
{
	const Row rows[] = {
		{"GETATTR", shape(120, 0, 0, 0, false), shape(112, 0, 0, 0, false), 1024,
		 CallForm::Inline, ReplyForm::Inline},
		{"WRITE 4K", shape(136, 4096, 0, 0, true), shape(120, 0, 0, 0, false), 1024,
		 CallForm::ReadChunk, ReplyForm::Inline},
		{"WRITE 4K, 8K threshold", shape(136, 4096, 0, 0, true), shape(120, 0, 0, 0, false),
		 8192, CallForm::Inline, ReplyForm::Inline},
		{"READ 1M", shape(120, 0, 0, 0, false), shape(112, 1 << 20, 0, 0, true), 4096,
		 CallForm::Inline, ReplyForm::WriteChunk},
		{"READDIR 64K", shape(140, 0, 0, 0, false), shape(120, 65536, 0, 4, false), 4096,
		 CallForm::Inline, ReplyForm::ReplyChunk},
		{"big COMPOUND", shape(6000, 0, 0, 0, false), shape(200, 0, 0, 0, false), 4096,
		 CallForm::LongCall, ReplyForm::Inline},
		{"WRITE with big head", shape(5000, 65536, 0, 40, true), shape(200, 0, 0, 0, false),
		 4096, CallForm::LongCallReadChunk, ReplyForm::Inline},
		{"READ with big head", shape(100, 0, 0, 0, false), shape(5000, 65536, 0, 0, true), 4096,
		 CallForm::Inline, ReplyForm::WriteAndReplyChunk},
		{"both long", shape(9000, 0, 0, 0, false), shape(9000, 0, 0, 0, false), 4096,
		 CallForm::LongCall, ReplyForm::ReplyChunk},
	};
	auto plan = std::make_unique<Plan>();

	for (const Row &row : rows) {
		PlanParams p{row.threshold, row.threshold, 16, 64, 4096, true, kRpcRdmaVersion1};
		ASSERT_EQ(plan_rpc(row.call, row.reply, p, plan.get()), PlanError::None) << row.what;
		EXPECT_EQ(plan->call, row.cf) << row.what;
		EXPECT_EQ(plan->reply, row.rf) << row.what;
		EXPECT_EQ(plan->proc, (row.cf == CallForm::LongCall ||
				       row.cf == CallForm::LongCallReadChunk)
					      ? V1Proc::NoMsg
					      : V1Proc::Msg)
			<< row.what;
	}
}

/*
 * A version 2 header is two words longer than version 1's (draft Section
 * 6.2): a Call or Reply that just fits a threshold in version 1 does not
 * in version 2, and goes in chunks instead of overrunning the peer's
 * Receive.
 */
TEST(Planner, Version2HeaderCountsAgainstTheThreshold)
{
	auto plan = std::make_unique<Plan>();
	const uint32_t thr = 4096, v1_hdr = kMinChunkHeaderSize;
	const MsgShape fits_v1 = shape(thr - v1_hdr, 0, 0, 0, false);
	const MsgShape fits_v2 = shape(thr - v1_hdr - kV2ExtraHeaderSize, 0, 0, 0, false);
	const MsgShape small = shape(100, 0, 0, 0, false);
	PlanParams p{thr, thr, 16, 64, 4096, true, kRpcRdmaVersion1};

	ASSERT_EQ(plan_rpc(fits_v1, fits_v1, p, plan.get()), PlanError::None);
	EXPECT_EQ(plan->call, CallForm::Inline);
	EXPECT_EQ(plan->reply, ReplyForm::Inline);
	EXPECT_EQ(plan->call_hdr_len, v1_hdr);
	p.vers = kRpcRdmaVersion2;
	ASSERT_EQ(plan_rpc(fits_v1, small, p, plan.get()), PlanError::None);
	EXPECT_EQ(plan->call, CallForm::LongCall);
	ASSERT_EQ(plan_rpc(small, fits_v1, p, plan.get()), PlanError::None);
	EXPECT_EQ(plan->reply, ReplyForm::ReplyChunk);
	ASSERT_EQ(plan_rpc(fits_v2, fits_v2, p, plan.get()), PlanError::None);
	EXPECT_EQ(plan->call, CallForm::Inline);
	EXPECT_EQ(plan->reply, ReplyForm::Inline);
	EXPECT_EQ(plan->call_hdr_len, v1_hdr + kV2ExtraHeaderSize);
	EXPECT_EQ(plan->reply_hdr_len, v1_hdr + kV2ExtraHeaderSize);
	EXPECT_EQ(plan->reply_inline_max, thr - v1_hdr - kV2ExtraHeaderSize);
	p.vers = 3;
	EXPECT_EQ(plan_rpc(small, small, p, plan.get()), PlanError::BadParams);
}

void to_header(const Plan &p, uint32_t vers, V1Header *h)
{
	ChunkLists &cl = h->chunks;
	uint32_t handle = 1;

	h->xid = 1;
	h->vers = vers;
	h->credits = 1;
	h->proc = p.proc;
	cl.clear();
	for (uint32_t i = 0; p.has_call_chunk && i < p.call_chunk.nsegs; i++) {
		ASSERT_EQ(cl.add_read_segment(0, Segment{handle++, p.call_chunk.segs[i].length, 0}),
			  ListError::None);
	}
	for (uint32_t i = 0; p.has_read && i < p.read.nsegs; i++) {
		ASSERT_EQ(cl.add_read_segment(p.read.position,
					      Segment{handle++, p.read.segs[i].length, 0}),
			  ListError::None);
	}
	if (p.has_write) {
		ASSERT_EQ(cl.add_write_chunk(), ListError::None);
		for (uint32_t i = 0; i < p.write.nsegs; i++)
			ASSERT_EQ(cl.add_write_segment(Segment{handle++, p.write.segs[i].length, 0}),
				  ListError::None);
	}
	if (p.has_reply) {
		ASSERT_EQ(cl.set_reply_chunk(), ListError::None);
		for (uint32_t i = 0; i < p.reply_chunk.nsegs; i++)
			ASSERT_EQ(cl.add_reply_segment(Segment{handle++, p.reply_chunk.segs[i].length, 0}),
				  ListError::None);
	}
}

void check_chunk(const PlannedChunk &c, const PlanParams &p, const MsgShape &m)
{
	uint64_t sum = 0;
	uint64_t reg = (uint64_t)p.pages_per_mr * p.page_size;

	ASSERT_LE(c.nsegs, p.max_segments_per_chunk);
	for (uint32_t i = 0; i < c.nsegs; i++) {
		const PlannedSegment &s = c.segs[i];
		uint32_t ext_len = s.extent == ExtentId::Head	 ? m.head.len
				   : s.extent == ExtentId::Pages ? m.pages.len
								 : m.pad + m.tail.len;
		uint32_t page_off = s.extent == ExtentId::Head	  ? m.head.page_offset
				    : s.extent == ExtentId::Pages ? m.pages.page_offset
								  : m.tail.page_offset;
		EXPECT_GT(s.length, 0u);
		EXPECT_LE((uint64_t)s.offset + s.length, ext_len);
		/* inside one registration */
		uint64_t start = (page_off % p.page_size) + s.offset;
		EXPECT_LE(start % reg + s.length, reg) << "segment crosses a registration";
		sum += s.length;
	}
	EXPECT_EQ(sum, c.length);
}

TEST(Planner, RandomShapesInvariants)
{
	std::mt19937_64 rng(4242);
	auto plan = std::make_unique<Plan>();
	auto h = std::make_unique<V1Header>();
	std::vector<uint8_t> buf(1 << 18);
	int counts[4][4] = {};

	for (int iter = 0; iter < 20000; iter++) {
		auto pick = [&](uint32_t n) { return (uint32_t)(rng() % n); };
		PlanParams p{1024u << pick(6), 1024u << pick(6), 1 + pick(32), 1 + pick(256),
			     4096, pick(8) != 0, pick(2) ? kRpcRdmaVersion2 : kRpcRdmaVersion1};
		bool cddp = pick(2), rddp = pick(2);
		MsgShape call = shape(4 + 4 * pick(3000), pick(4) ? pick(1 << 20) : 0, pick(4096),
				      pick(2000), cddp);
		MsgShape reply = shape(4 + 4 * pick(3000), pick(4) ? pick(1 << 20) : 0, pick(4096),
				       pick(2000), rddp);
		call.head.page_offset = pick(4096);
		reply.tail.page_offset = pick(4096);
		PlanError e = plan_rpc(call, reply, p, plan.get());
		if (e == PlanError::TooManySegments || e == PlanError::HeaderTooLarge)
			continue;
		ASSERT_EQ(e, PlanError::None) << plan_error_name(e);
		counts[(int)plan->call][(int)plan->reply]++;

		/* the Send fits the threshold */
		EXPECT_LE(plan->call_hdr_len + plan->call_inline_len, p.call_threshold);
		EXPECT_LE(plan->reply_hdr_len, p.reply_threshold);
		uint64_t call_total = (uint64_t)call.head.len + call.pages.len + call.pad + call.tail.len;
		uint64_t reply_total =
			(uint64_t)reply.head.len + reply.pages.len + reply.pad + reply.tail.len;
		/* every octet of the Call is carried exactly once (round-up is
		 * dropped only with a DDP Read chunk) */
		uint64_t carried = plan->call_inline_len + (plan->has_read ? plan->read.length : 0) +
				   (plan->has_call_chunk ? plan->call_chunk.length : 0);
		EXPECT_EQ(carried + (plan->has_read ? call.pad : 0), call_total);
		/* the Reply has room: inline, or in the chunks offered */
		if (plan->reply == ReplyForm::Inline) {
			EXPECT_LE(reply_total + plan->reply_hdr_len, p.reply_threshold);
		}
		if (plan->has_write) {
			EXPECT_EQ(plan->write.length, reply.pages.len);
		}
		if (plan->reply == ReplyForm::ReplyChunk) {
			EXPECT_EQ(plan->reply_chunk.length, reply_total);
		}
		if (plan->reply == ReplyForm::WriteAndReplyChunk) {
			EXPECT_EQ(plan->reply_chunk.length, (uint64_t)reply.head.len + reply.tail.len);
		}
		if (plan->reply == ReplyForm::WriteChunk) {
			EXPECT_LE(reply.head.len + reply.tail.len + plan->reply_hdr_len,
				  p.reply_threshold);
		}
		if (plan->has_call_chunk)
			check_chunk(plan->call_chunk, p, call);
		if (plan->has_read) {
			check_chunk(plan->read, p, call);
			EXPECT_EQ(plan->read.position, call.head.len);
		}
		if (plan->has_write)
			check_chunk(plan->write, p, reply);
		if (plan->has_reply)
			check_chunk(plan->reply_chunk, p, reply);
		if (HasFailure())
			return;

		/* a responder accepts the header built from the plan, which
		 * is as long as planned in the Call's version */
		to_header(*plan, p.vers, h.get());
		if (p.vers == kRpcRdmaVersion2) {
			auto res = v2_encode_msg(*h, kMsgCall, 0, ktl::Bytes(buf.data(), buf.size()));
			ASSERT_TRUE(res.is_ok());
			ASSERT_EQ(res.value(), plan->call_hdr_len);
			continue;
		}
		ASSERT_EQ(v1_encoded_size(*h), plan->call_hdr_len);
		auto res = v1_encode(*h, ktl::Bytes(buf.data(), buf.size()));
		ASSERT_TRUE(res.is_ok());
		if (h->proc == V1Proc::Msg && plan->call_inline_len >= 4) /* the RPC XID */
			ktl::store_be32(buf.data() + res.value(), h->xid);
		DecodeLimits lim;
		lim.max_segments_per_chunk = 32;
		V1Verdict v = v1_decode_call(
			ktl::ConstBytes(buf.data(), res.value() + plan->call_inline_len), lim, h.get());
		ASSERT_EQ(v, V1Verdict::Ok) << v1_verdict_name(v) << " iter " << iter;
	}
	/* the random walk reached every call form and every reply form */
	for (int c = 0; c < 4; c++) {
		int n = 0;
		for (int r = 0; r < 4; r++)
			n += counts[c][r];
		EXPECT_GT(n, 0) << "call form " << c;
	}
	for (int r = 0; r < 4; r++) {
		int n = 0;
		for (int c = 0; c < 4; c++)
			n += counts[c][r];
		EXPECT_GT(n, 0) << "reply form " << r;
	}
}

} // namespace

namespace {

/* RFC 8166 Section 3.4.6: a READ-style Reply whose result came in a
 * Write chunk; its inline octets around it. */
TEST(Planner, PlaceReplyAroundDdp)
{
	ReplyPlacement p;

	/* 120 inline octets, 100 of head room: 100 to the head, then the
	 * 5001-octet result's 3 octets of round-up, then the other 20. */
	ASSERT_TRUE(place_reply_around_ddp(100, 8192, 64, 120, 5001, &p));
	EXPECT_EQ(p.head, 100u);
	EXPECT_EQ(p.pad, 3u);
	EXPECT_EQ(p.rest, 20u);
	EXPECT_EQ(p.rpc_len, 120u + 5004u);

	/* All inline octets fit the head: nothing in the tail, no pad. */
	ASSERT_TRUE(place_reply_around_ddp(256, 8192, 0, 120, 4096, &p));
	EXPECT_EQ(p.head, 120u);
	EXPECT_EQ(p.pad, 0u);
	EXPECT_EQ(p.rest, 0u);
	EXPECT_EQ(p.rpc_len, 120u + 4096u);

	/* The pad and the rest exactly fill the tail. */
	ASSERT_TRUE(place_reply_around_ddp(100, 8192, 23, 120, 5001, &p));
	EXPECT_EQ(p.pad + p.rest, 23u);
}

TEST(Planner, PlaceReplyAroundDdpRefuses)
{
	ReplyPlacement p{};

	EXPECT_FALSE(place_reply_around_ddp(100, 8192, 64, 120, 0, &p));	/* no result */
	EXPECT_FALSE(place_reply_around_ddp(100, 4096, 64, 120, 4097, &p));	/* past the pages */
	EXPECT_FALSE(place_reply_around_ddp(100, 8192, 22, 120, 5001, &p));	/* tail short */
	EXPECT_FALSE(place_reply_around_ddp(0, 0xffffffffu, 0xffffffffu, 0xfffffffcu, 0xfffffff0u,
					    &p)); /* overflows the RPC length */
}

} // namespace

/*
 * fits_inline() is plan_rpc()'s answer for RPCs that fit inline both
 * ways, without the shapes: where plan_rpc() plans both inline, with a
 * chunkless header, it says yes, and only there; each threshold counts
 * on its own.
 */
TEST(Planner, FitsInlineAgreesWithPlanRpc)
{
	auto full = std::make_unique<Plan>();
	std::mt19937_64 rng(4243);
	int yes = 0, no = 0;

	for (int i = 0; i < 20000; i++) {
		const uint32_t thr = 1024u << (rng() % 4);
		const uint32_t vers = rng() % 2 ? kRpcRdmaVersion2 : kRpcRdmaVersion1;
		const MsgShape call = shape(4 * (uint32_t)(rng() % (thr / 2)), (uint32_t)(rng() % 2) * (uint32_t)(rng() % thr),
					    0, (uint32_t)(rng() % 8), false);
		const MsgShape reply = shape((uint32_t)(rng() % thr), (uint32_t)(rng() % 2) * (uint32_t)(rng() % thr),
					     0, (uint32_t)(rng() % 8), false);
		const uint64_t call_len = (uint64_t)call.head.len + call.pages.len + call.tail.len;
		const uint64_t reply_len = (uint64_t)reply.head.len + reply.pages.len + reply.tail.len;
		PlanParams p{thr, thr, 16, 64, 4096, true, vers};

		ASSERT_EQ(plan_rpc(call, reply, p, full.get()), PlanError::None);
		const bool both_inline = full->call == CallForm::Inline && full->reply == ReplyForm::Inline;
		const bool fits = fits_inline(call_len, reply_len, thr, thr, vers);
		ASSERT_EQ(fits, both_inline) << "call " << call_len << " reply " << reply_len << " thr " << thr;
		/* each threshold its own */
		PlanParams half{thr, thr / 2, 16, 64, 4096, true, vers};
		ASSERT_EQ(plan_rpc(call, reply, half, full.get()), PlanError::None);
		ASSERT_EQ(fits_inline(call_len, reply_len, thr, thr / 2, vers),
			  full->call == CallForm::Inline && full->reply == ReplyForm::Inline);
		half = PlanParams{thr / 2, thr, 16, 64, 4096, true, vers};
		ASSERT_EQ(plan_rpc(call, reply, half, full.get()), PlanError::None);
		ASSERT_EQ(fits_inline(call_len, reply_len, thr / 2, thr, vers),
			  full->call == CallForm::Inline && full->reply == ReplyForm::Inline);
		if (!fits) {
			no++;
			continue;
		}
		yes++;
		ASSERT_EQ(plan_rpc(call, reply, p, full.get()), PlanError::None);
		EXPECT_EQ(full->call_hdr_len, min_header_size(vers));
		EXPECT_EQ(full->call_inline_len, call_len);
		EXPECT_FALSE(full->has_call_chunk || full->has_read || full->has_write || full->has_reply);
	}
	EXPECT_GT(yes, 1000);
	EXPECT_GT(no, 1000);
	EXPECT_FALSE(fits_inline(100, 100, 4096, 4096, 3));
	EXPECT_FALSE(fits_inline(100, 100, 4096, 4096, 0));
}

/* A plan_one_*() plan @fast is plan_rpc()'s @full: the Call inline, the
 * Reply's one chunk (a Write chunk when @write, else a Reply chunk) of
 * one segment. */
static void expect_same_one_segment_plan(const Plan &fast, const Plan &full, bool write)
{
	const PlannedChunk &a = write ? fast.write : fast.reply_chunk;
	const PlannedChunk &b = write ? full.write : full.reply_chunk;

	EXPECT_EQ(fast.proc, full.proc);
	EXPECT_EQ(fast.call, full.call);
	EXPECT_EQ(fast.reply, full.reply);
	EXPECT_EQ(fast.call_hdr_len, full.call_hdr_len);
	EXPECT_EQ(fast.call_inline_len, full.call_inline_len);
	EXPECT_EQ(fast.reply_hdr_len, full.reply_hdr_len);
	EXPECT_EQ(fast.reply_inline_max, full.reply_inline_max);
	EXPECT_FALSE(fast.has_call_chunk || fast.has_read);
	EXPECT_EQ(fast.has_write, write);
	EXPECT_EQ(fast.has_reply, !write);
	EXPECT_EQ(a.position, b.position);
	EXPECT_EQ(a.length, b.length);
	ASSERT_EQ(a.nsegs, 1u);
	EXPECT_EQ(a.segs[0].extent, b.segs[0].extent);
	EXPECT_EQ(a.segs[0].offset, b.segs[0].offset);
	EXPECT_EQ(a.segs[0].length, b.segs[0].length);
}

/*
 * A one-segment planner (plan_one_write() when @write, else
 * plan_one_reply()) is plan_rpc()'s answer for its shape: over 40000
 * random RPCs (seed @seed; the Reply's shape from @reply_shape, given
 * the threshold and the pages per MR), where it says yes plan_rpc() plans
 * the same (the Call inline, the Reply's one chunk of one segment, the
 * same header sizes and segment); where plan_rpc() plans that, it says
 * yes; it leaves the plan untouched when it says no.
 */
template <typename ReplyShape>
static void expect_one_segment_planner(bool write, uint64_t seed, ReplyShape reply_shape)
{
	auto full = std::make_unique<Plan>();
	auto fast = std::make_unique<Plan>();
	std::mt19937_64 rng(seed);
	int yes = 0, no = 0;

	for (int i = 0; i < 40000; i++) {
		const uint32_t thr = 1024u << (rng() % 4);
		const uint32_t vers = rng() % 2 ? kRpcRdmaVersion2 : kRpcRdmaVersion1;
		const uint32_t ppm = 1u << (rng() % 5);
		const MsgShape call = shape(4 * (uint32_t)(rng() % (thr / 2)),
					    (uint32_t)(rng() % 4 == 0) * (uint32_t)(rng() % thr), 0,
					    (uint32_t)(rng() % 8), false);
		MsgShape reply = reply_shape(rng, thr, ppm);
		if (rng() % 16 == 0)
			reply.pad = (uint32_t)(rng() % 5); /* a bad shape now and then */
		PlanParams p{thr, thr, (uint32_t)(rng() % 3), ppm, 4096, rng() % 8 != 0, vers};

		const PlanError e = plan_rpc(call, reply, p, full.get());
		const bool planned =
			e == PlanError::None && full->call == CallForm::Inline &&
			(write ? full->reply == ReplyForm::WriteChunk && full->write.nsegs == 1
			       : full->reply == ReplyForm::ReplyChunk &&
					 full->reply_chunk.nsegs == 1 &&
					 full->reply_chunk.segs[0].extent == ExtentId::Head);
		fast->call_hdr_len = 0xdead;
		const uint64_t call_len =
			(uint64_t)call.head.len + call.pages.len + call.pad + call.tail.len;
		const bool said = write ? plan_one_write(call_len, reply, p, fast.get())
					: plan_one_reply(call_len, reply, p, fast.get());
		ASSERT_EQ(said, planned) << "i " << i;
		if (!said) {
			EXPECT_EQ(fast->call_hdr_len, 0xdeadu);
			no++;
			continue;
		}
		yes++;
		expect_same_one_segment_plan(*fast, *full, write);
	}
	EXPECT_GT(yes, 1000);
	EXPECT_GT(no, 1000);
}

/* READ-shaped RPCs: a DDP page list up to two registrations long. */
TEST(Planner, PlanOneWriteAgreesWithPlanRpc)
{
	expect_one_segment_planner(true, 4245, [](std::mt19937_64 &rng, uint32_t thr, uint32_t ppm) {
		const uint32_t data = (uint32_t)(rng() % (ppm * 4096 * 2 + 1));
		return shape(4 * (uint32_t)(rng() % (thr / 3)), data, (uint32_t)(rng() % 4096),
			     (uint32_t)(rng() % 8) + (uint32_t)ktl::xdr_pad(data), rng() % 8 != 0);
	});
}

/* Mostly one head, around the threshold and the registration. */
TEST(Planner, PlanOneReplyAgreesWithPlanRpc)
{
	expect_one_segment_planner(false, 4246, [](std::mt19937_64 &rng, uint32_t thr, uint32_t ppm) {
		MsgShape reply = shape((uint32_t)(rng() % (thr * 2 + ppm * 4096)),
				       (uint32_t)(rng() % 8 == 0) * (uint32_t)(rng() % 4096), 0,
				       (uint32_t)(rng() % 8 == 0) * (uint32_t)(rng() % 64),
				       rng() % 8 == 0);
		reply.head.page_offset = (uint32_t)(rng() % 4096);
		if (rng() % 8 == 0) /* a head that ends at, or one octet past, the registration */
			reply.head.len = ppm * 4096 - reply.head.page_offset + (uint32_t)(rng() % 2);
		return reply;
	});
}
