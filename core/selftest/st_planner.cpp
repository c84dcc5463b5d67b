// SPDX-License-Identifier: GPL-2.0
/*
 * core/selftest/st_planner.cpp - chunk planner cases with exact
 * expected forms, segment splits and header sizes.
 *
 * Unless a case says otherwise: 1 KiB thresholds, 4 KiB pages, four
 * pages (16 KiB) per registration, at most 8 segments per chunk.
 */
#include "selftest.h"
#include <rpcrdmax/core/planner.h>
#include <rpcrdmax/core/v1.h>

namespace rpcrdmax::core::selftest {

namespace planner_cases {

constexpr PlanParams kParams{1024, 1024, 8, 4, 4096, true, kRpcRdmaVersion1};

constexpr MsgShape head_only(u32 len)
{
	return MsgShape{Extent{len, 0}, Extent{0, 0}, 0, Extent{0, 0}, false};
}

constexpr MsgShape with_ddp(u32 head, u32 pages, u32 page_offset, u32 tail)
{
	return MsgShape{Extent{head, 0}, Extent{pages, page_offset}, (4 - (pages & 3)) & 3,
			Extent{tail, 0}, true};
}

static bool seg_is(const PlannedSegment &s, ExtentId id, u32 off, u32 len)
{
	return s.extent == id && s.offset == off && s.length == len;
}

/* Turn @p into a transport header with made-up handles, as a requester
 * would after registering; @h->chunks is filled in wire order. */
static bool plan_to_header(const Plan &p, V1Header *h)
{
	ChunkLists &cl = h->chunks;
	u32 handle = 0x100;

	h->xid = 7;
	h->vers = 1;
	h->credits = 8;
	h->proc = p.proc;
	cl.clear();
	const PlannedChunk *reads[2] = {p.has_call_chunk ? &p.call_chunk : nullptr,
					p.has_read ? &p.read : nullptr};
	for (const PlannedChunk *c : reads)
		for (u32 i = 0; c && i < c->nsegs; i++)
			if (cl.add_read_segment(c->position,
						Segment{handle++, c->segs[i].length, 0x10000}) !=
			    ListError::None)
				return false;
	if (p.has_write) {
		if (cl.add_write_chunk() != ListError::None)
			return false;
		for (u32 i = 0; i < p.write.nsegs; i++)
			if (cl.add_write_segment(Segment{handle++, p.write.segs[i].length,
							 0x20000}) != ListError::None)
				return false;
	}
	if (p.has_reply) {
		if (cl.set_reply_chunk() != ListError::None)
			return false;
		for (u32 i = 0; i < p.reply_chunk.nsegs; i++)
			if (cl.add_reply_segment(Segment{handle++, p.reply_chunk.segs[i].length,
							 0x30000}) != ListError::None)
				return false;
	}
	return true;
}

/* The planned header has exactly the announced size and a responder
 * accepts it when followed by the planned inline octets. */
static void check_against_decoder(Reporter &r, const Plan &p)
{
	V1Header *h = r.make<V1Header>();
	ST_NEED(r, h);
	ktl::Bytes buf = r.bytes(p.call_hdr_len + p.call_inline_len);

	if (!ST_CHECK(r, plan_to_header(p, h)))
		return;
	ST_EQ(r, v1_encoded_size(*h), p.call_hdr_len);
	if (!ST_CHECK(r, v1_encode(*h, buf).is_ok()))
		return;
	if (h->proc == V1Proc::Msg && p.call_inline_len >= 4) /* the RPC message's XID */
		ktl::store_be32(buf.data() + p.call_hdr_len, h->xid);
	ST_EQ(r, v1_decode_call(buf, DecodeLimits{}, h), V1Verdict::Ok);
	ST_EQ(r, h->payload_len, p.call_inline_len);
}

static void small_inline(Reporter &r)
{
	Plan *p = r.make<Plan>();
	ST_NEED(r, p);

	ST_EQ(r, plan_rpc(head_only(100), head_only(200), kParams, p), PlanError::None);
	ST_EQ(r, p->proc, V1Proc::Msg);
	ST_EQ(r, p->call, CallForm::Inline);
	ST_EQ(r, p->reply, ReplyForm::Inline);
	ST_EQ(r, p->call_hdr_len, 28u);
	ST_EQ(r, p->call_inline_len, 100u);
	ST_EQ(r, p->reply_hdr_len, 28u);
	ST_EQ(r, p->reply_inline_max, 996u);
	ST_CHECK(r, !p->has_read && !p->has_write && !p->has_reply && !p->has_call_chunk);
	/* exactly at the threshold is still inline; one more octet is not */
	ST_EQ(r, plan_rpc(head_only(996), head_only(996), kParams, p), PlanError::None);
	ST_EQ(r, p->call, CallForm::Inline);
	ST_EQ(r, p->reply, ReplyForm::Inline);
	ST_EQ(r, plan_rpc(head_only(1000), head_only(1000), kParams, p), PlanError::None);
	ST_EQ(r, p->call, CallForm::LongCall);
	ST_EQ(r, p->reply, ReplyForm::ReplyChunk);
}

static void write_read_chunk(Reporter &r)
{
	Plan *p = r.make<Plan>();
	ST_NEED(r, p);

	/* NFS WRITE of 64 KiB, page aligned: a Read chunk of 4 x 16 KiB */
	ST_EQ(r, plan_rpc(with_ddp(136, 65536, 0, 0), head_only(200), kParams, p), PlanError::None);
	ST_EQ(r, p->call, CallForm::ReadChunk);
	ST_EQ(r, p->proc, V1Proc::Msg);
	ST_CHECK(r, p->has_read);
	ST_EQ(r, p->read.position, 136u);
	ST_EQ(r, p->read.length, 65536u);
	ST_EQ(r, p->read.nsegs, 4u);
	for (u32 i = 0; i < 4; i++)
		ST_CHECK(r, seg_is(p->read.segs[i], ExtentId::Pages, i * 16384, 16384));
	ST_EQ(r, p->call_hdr_len, 28u + 4 * 24);
	ST_EQ(r, p->call_inline_len, 136u);
	check_against_decoder(r, *p);
}

static void read_chunk_roundup(Reporter &r)
{
	Plan *p = r.make<Plan>();
	ST_NEED(r, p);

	/* 30001 octets starting 4000 into a page, 3 octets of round-up,
	 * 8 octets after: neither the round-up nor the tail is in the chunk
	 * and the round-up is not sent inline (RFC 8166 Section 3.4.5) */
	ST_EQ(r, plan_rpc(with_ddp(136, 30001, 4000, 8), head_only(200), kParams, p),
	      PlanError::None);
	ST_EQ(r, p->call, CallForm::ReadChunk);
	ST_EQ(r, p->read.length, 30001u);
	ST_EQ(r, p->read.nsegs, 3u);
	ST_CHECK(r, seg_is(p->read.segs[0], ExtentId::Pages, 0, 16384 - 4000));
	ST_CHECK(r, seg_is(p->read.segs[1], ExtentId::Pages, 12384, 16384));
	ST_CHECK(r, seg_is(p->read.segs[2], ExtentId::Pages, 28768, 1233));
	ST_EQ(r, p->call_inline_len, 144u);
	ST_EQ(r, p->call_hdr_len, 28u + 3 * 24);
	check_against_decoder(r, *p);
}

static void read_reply_write_chunk(Reporter &r)
{
	Plan *p = r.make<Plan>();
	ST_NEED(r, p);

	/* NFS READ of 64 KiB: the Call is small, the result goes to a
	 * Write chunk, and the header offering it counts in the Call */
	ST_EQ(r, plan_rpc(head_only(120), with_ddp(112, 65536, 0, 0), kParams, p),
	      PlanError::None);
	ST_EQ(r, p->reply, ReplyForm::WriteChunk);
	ST_CHECK(r, p->has_write && !p->has_reply);
	ST_EQ(r, p->write.nsegs, 4u);
	ST_EQ(r, p->write.length, 65536u);
	ST_EQ(r, p->reply_hdr_len, 28u + 8 + 4 * 16);
	ST_EQ(r, p->call, CallForm::Inline);
	ST_EQ(r, p->call_hdr_len, 28u + 8 + 4 * 16);
	ST_EQ(r, p->call_inline_len, 120u);
	check_against_decoder(r, *p);
}

static void reply_chunk_not_ddp(Reporter &r)
{
	Plan *p = r.make<Plan>();
	ST_NEED(r, p);
	MsgShape readdir{Extent{100, 0}, Extent{8192, 0}, 0, Extent{4, 0}, false};

	ST_EQ(r, plan_rpc(head_only(148), readdir, kParams, p), PlanError::None);
	ST_EQ(r, p->reply, ReplyForm::ReplyChunk);
	ST_EQ(r, p->reply_chunk.nsegs, 3u);
	ST_CHECK(r, seg_is(p->reply_chunk.segs[0], ExtentId::Head, 0, 100));
	ST_CHECK(r, seg_is(p->reply_chunk.segs[1], ExtentId::Pages, 0, 8192));
	ST_CHECK(r, seg_is(p->reply_chunk.segs[2], ExtentId::Tail, 0, 4));
	ST_EQ(r, p->reply_chunk.length, 8296u);
	ST_EQ(r, p->reply_hdr_len, 28u + 4 + 3 * 16);
	ST_EQ(r, p->call, CallForm::Inline);
	ST_EQ(r, p->call_hdr_len, 80u);
	check_against_decoder(r, *p);
}

static void long_calls(Reporter &r)
{
	Plan *p = r.make<Plan>();
	ST_NEED(r, p);

	ST_EQ(r, plan_rpc(head_only(3000), head_only(100), kParams, p), PlanError::None);
	ST_EQ(r, p->call, CallForm::LongCall);
	ST_EQ(r, p->proc, V1Proc::NoMsg);
	ST_CHECK(r, p->has_call_chunk && !p->has_read);
	ST_EQ(r, p->call_chunk.position, 0u);
	ST_EQ(r, p->call_chunk.length, 3000u);
	ST_EQ(r, p->call_hdr_len, 52u);
	ST_EQ(r, p->call_inline_len, 0u);
	check_against_decoder(r, *p);

	/* too much inline beside the DDP item: both chunks (Section 3.5.4) */
	ST_EQ(r, plan_rpc(with_ddp(2000, 65536, 0, 12), head_only(100), kParams, p),
	      PlanError::None);
	ST_EQ(r, p->call, CallForm::LongCallReadChunk);
	ST_EQ(r, p->proc, V1Proc::NoMsg);
	ST_EQ(r, p->call_chunk.length, 2012u);
	ST_EQ(r, p->call_chunk.nsegs, 2u);
	ST_CHECK(r, seg_is(p->call_chunk.segs[1], ExtentId::Tail, 0, 12));
	ST_EQ(r, p->read.position, 2000u);
	ST_EQ(r, p->read.nsegs, 4u);
	ST_EQ(r, p->call_hdr_len, 28u + 6 * 24);
	check_against_decoder(r, *p);

	/* DDP not allowed (e.g. GSS integrity): the whole Call in one chunk,
	 * round-up included */
	PlanParams np = kParams;
	np.ddp_allowed = false;
	ST_EQ(r, plan_rpc(with_ddp(136, 65535, 0, 0), head_only(100), np, p), PlanError::None);
	ST_EQ(r, p->call, CallForm::LongCall);
	ST_EQ(r, p->call_chunk.length, 136u + 65535 + 1);
	ST_EQ(r, p->call_chunk.nsegs, 6u);
	check_against_decoder(r, *p);
}

static void write_and_reply_chunk(Reporter &r)
{
	Plan *p = r.make<Plan>();
	ST_NEED(r, p);

	ST_EQ(r, plan_rpc(head_only(100), with_ddp(2000, 65536, 0, 0), kParams, p),
	      PlanError::None);
	ST_EQ(r, p->reply, ReplyForm::WriteAndReplyChunk);
	ST_CHECK(r, p->has_write && p->has_reply);
	ST_EQ(r, p->reply_chunk.length, 2000u);
	ST_EQ(r, p->reply_hdr_len, 28u + 8 + 64 + 4 + 16);
	ST_EQ(r, p->call_hdr_len, p->reply_hdr_len);
	check_against_decoder(r, *p);
}

static void refusals(Reporter &r)
{
	Plan *p = r.make<Plan>();
	ST_NEED(r, p);
	PlanParams tiny = kParams;
	PlanParams bad = kParams;
	MsgShape misaligned = with_ddp(134, 65536, 0, 0);
	MsgShape wrong_pad = with_ddp(136, 65535, 0, 0);
	MsgShape at_zero = with_ddp(0, 65536, 0, 0);

	ST_EQ(r, plan_rpc(with_ddp(136, 1u << 20, 0, 0), head_only(100), kParams, p),
	      PlanError::TooManySegments);
	tiny.call_threshold = 40;
	ST_EQ(r, plan_rpc(head_only(100), head_only(8), tiny, p), PlanError::HeaderTooLarge);
	tiny = kParams;
	tiny.reply_threshold = 40;
	ST_EQ(r, plan_rpc(head_only(8), head_only(100), tiny, p), PlanError::HeaderTooLarge);
	ST_EQ(r, plan_rpc(misaligned, head_only(100), kParams, p), PlanError::BadShape);
	ST_EQ(r, plan_rpc(at_zero, head_only(100), kParams, p), PlanError::BadShape);
	wrong_pad.pad = 0;
	ST_EQ(r, plan_rpc(wrong_pad, head_only(100), kParams, p), PlanError::BadShape);
	bad.page_size = 3000;
	ST_EQ(r, plan_rpc(head_only(8), head_only(8), bad, p), PlanError::BadParams);
	bad = kParams;
	bad.pages_per_mr = 0;
	ST_EQ(r, plan_rpc(head_only(8), head_only(8), bad, p), PlanError::BadParams);
	ST_CHECK(r, ktl::mem_compare(plan_error_name(PlanError::BadShape), "bad_shape", 10) == 0);
}

} // namespace planner_cases

const Case kPlannerCases[] = {
	{"planner.small_inline", planner_cases::small_inline},
	{"planner.write_read_chunk", planner_cases::write_read_chunk},
	{"planner.read_chunk_roundup", planner_cases::read_chunk_roundup},
	{"planner.read_reply_write_chunk", planner_cases::read_reply_write_chunk},
	{"planner.reply_chunk_not_ddp", planner_cases::reply_chunk_not_ddp},
	{"planner.long_calls", planner_cases::long_calls},
	{"planner.write_and_reply_chunk", planner_cases::write_and_reply_chunk},
	{"planner.refusals", planner_cases::refusals},
};
const u32 kPlannerCaseCount = sizeof(kPlannerCases) / sizeof(kPlannerCases[0]);

} // namespace rpcrdmax::core::selftest
