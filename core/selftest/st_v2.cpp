// SPDX-License-Identifier: GPL-2.0
/*
 * core/selftest/st_v2.cpp - version 2 draft header cases: chunk lists
 * with direction and inv_handle, every RDMA2_ERROR code, RDMA2_OPTIONAL,
 * the property operations, and refusals.
 */
#include "selftest.h"
#include "vectors.h"
#include <rpcrdmax/core/v2.h>

namespace rpcrdmax::core::selftest {

namespace v2_cases {

constexpr DecodeLimits kLim{};

struct Vec {
	const u32 *w;
	size_t n;
};
#define RPCRDMAX_V(a) Vec{vec::a, sizeof(vec::a) / 4}
constexpr Vec kValid[] = {
	RPCRDMAX_V(kV2MsgCall),		 RPCRDMAX_V(kV2NoMsgReply),
	RPCRDMAX_V(kV2ErrVers),		 RPCRDMAX_V(kV2ErrBadXdr),
	RPCRDMAX_V(kV2ErrInvalidProc),	 RPCRDMAX_V(kV2ErrReadChunks),
	RPCRDMAX_V(kV2ErrWriteChunks),	 RPCRDMAX_V(kV2ErrSegments),
	RPCRDMAX_V(kV2ErrWriteResource), RPCRDMAX_V(kV2ErrReplyResource),
	RPCRDMAX_V(kV2ErrInvalidOption), RPCRDMAX_V(kV2ErrSystem),
	RPCRDMAX_V(kV2Optional),	 RPCRDMAX_V(kV2ConnProp),
	RPCRDMAX_V(kV2ReqProp),		 RPCRDMAX_V(kV2ResProp),
	RPCRDMAX_V(kV2UpdProp),
};
#undef RPCRDMAX_V

static void decode_msg_call(Reporter &r)
{
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, h);
	V2Error err;

	ST_EQ(r, v2_decode(r.words(vec::kV2MsgCall), kLim, h), V2Verdict::Ok);
	ST_EQ(r, h->proc, V2Proc::Msg);
	ST_EQ(r, h->vers, 2u);
	ST_EQ(r, h->direction, kMsgCall);
	ST_EQ(r, h->inv_handle, 0x11111111u);
	ST_EQ(r, h->chunks.nread, 1u);
	ST_EQ(r, h->chunks.read[0].position, 48u);
	ST_EQ(r, h->hdr_len, 60u);
	ST_EQ(r, h->payload_len, 48u);
	ST_CHECK(r, v2_inv_handle_usable(*h));
	ST_EQ(r, v2_responder_action(V2Verdict::Ok, *h, kLim, &err), V2Action::Process);
	h->inv_handle = 0;
	ST_CHECK(r, !v2_inv_handle_usable(*h));
	h->inv_handle = 0x12345678;
	ST_CHECK(r, !v2_inv_handle_usable(*h));
}

static void decode_nomsg_reply(Reporter &r)
{
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, h);

	ST_EQ(r, v2_decode(r.words(vec::kV2NoMsgReply), kLim, h), V2Verdict::Ok);
	ST_EQ(r, h->proc, V2Proc::NoMsg);
	ST_EQ(r, h->direction, kMsgReply);
	ST_CHECK(r, h->chunks.has_reply);
	ST_EQ(r, h->chunks.chunk_length(h->chunks.reply), 1500ull);
	ST_EQ(r, h->hdr_len, 56u);
}

struct ErrExpect {
	Vec v;
	V2ErrCode code;
	u32 a, b; /* the payload words, in XDR order */
};
#define RPCRDMAX_E(a, c, x, y) ErrExpect{Vec{vec::a, sizeof(vec::a) / 4}, V2ErrCode::c, x, y}
constexpr ErrExpect kErrs[] = {
	RPCRDMAX_E(kV2ErrVers, Vers, 1, 2),
	RPCRDMAX_E(kV2ErrBadXdr, BadXdr, 0, 0),
	RPCRDMAX_E(kV2ErrInvalidProc, InvalidProc, 0, 0),
	RPCRDMAX_E(kV2ErrReadChunks, ReadChunks, 8, 0),
	RPCRDMAX_E(kV2ErrWriteChunks, WriteChunks, 8, 0),
	RPCRDMAX_E(kV2ErrSegments, Segments, 64, 0),
	RPCRDMAX_E(kV2ErrWriteResource, WriteResource, 1, 131072),
	RPCRDMAX_E(kV2ErrReplyResource, ReplyResource, 65536, 0),
	RPCRDMAX_E(kV2ErrInvalidOption, InvalidOption, 0, 0),
	RPCRDMAX_E(kV2ErrSystem, System, 0, 0),
};
#undef RPCRDMAX_E

/* The payload fields of @e in XDR order. */
static void err_payload(const V2Error &e, u32 *a, u32 *b)
{
	*a = *b = 0;
	switch (static_cast<V2ErrCode>(e.code)) {
	case V2ErrCode::Vers: *a = e.vers_low; *b = e.vers_high; break;
	case V2ErrCode::ReadChunks:
	case V2ErrCode::WriteChunks: *a = e.max_chunks; break;
	case V2ErrCode::Segments: *a = e.max_segments; break;
	case V2ErrCode::WriteResource: *a = e.chunk_index; *b = e.length_needed; break;
	case V2ErrCode::ReplyResource: *a = e.length_needed; break;
	default: break;
	}
}

static void error_codes(Reporter &r)
{
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, h);
	ktl::Bytes out = r.bytes(64);
	V2Error owed;
	u32 a, b;

	for (const ErrExpect &e : kErrs) {
		ktl::ConstBytes in = r.words(e.v.w, e.v.n);

		ST_EQ(r, v2_decode(in, kLim, h), V2Verdict::Ok);
		ST_EQ(r, h->proc, V2Proc::Error);
		ST_EQ(r, h->error.code, static_cast<u32>(e.code));
		err_payload(h->error, &a, &b);
		ST_EQ(r, a, e.a);
		ST_EQ(r, b, e.b);
		ST_EQ(r, h->hdr_len, in.size());
		/* an error arriving at a responder is dropped */
		ST_EQ(r, v2_responder_action(V2Verdict::Ok, *h, kLim, &owed), V2Action::Drop);
		auto res = v2_encode_error(h->xid, h->vers, h->credits, h->error, out);
		ST_CHECK(r, res.is_ok() && res.value() == in.size());
		ST_EQ(r, ktl::mem_compare(out.data(), in.data(), in.size()), 0);
	}
	owed = V2Error{};
	owed.code = 11;
	ST_CHECK(r, v2_encode_error(1, 2, 3, owed, out).is_error());
}

static void optional_msg(Reporter &r)
{
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, h);
	const u32 bad_pad[] = {vec::kXid, 2, 32, 5, 0, 0x00010001, 5, 0x68656c6c, 0x6f010000};
	const u32 overrun[] = {vec::kXid, 2, 32, 5, 0, 0x00010001, 9, 0x68656c6c, 0x6f000000};
	const u32 bad_dir[] = {vec::kXid, 2, 32, 5, 2, 0x00010001, 0};

	ST_EQ(r, v2_decode(r.words(vec::kV2Optional), kLim, h), V2Verdict::Ok);
	ST_EQ(r, h->direction, kMsgCall);
	ST_EQ(r, h->opttype, 0x00010001u);
	ST_EQ(r, h->optinfo.size(), 5u);
	ST_EQ(r, ktl::mem_compare(h->optinfo.data(), "hello", 5), 0);
	ST_EQ(r, h->hdr_len, 36u);
	/* not a property operation */
	ST_EQ(r, v2_decode_optinfo(h), V2Verdict::InvalidProc);
	ST_EQ(r, v2_decode(r.words(bad_pad), kLim, h), V2Verdict::BadXdr);
	ST_EQ(r, v2_decode(r.words(overrun), kLim, h), V2Verdict::BadXdr);
	ST_EQ(r, v2_decode(r.words(bad_dir), kLim, h), V2Verdict::BadXdr);
}

static void property_ops(Reporter &r)
{
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, h);
	u32 rbsiz = 0;
	BkReqSup brs = BkReqSup::None;

	ST_EQ(r, v2_decode(r.words(vec::kV2ConnProp), kLim, h), V2Verdict::Ok);
	ST_EQ(r, h->proc, V2Proc::ConnProp);
	ST_EQ(r, h->props.count, 3u);
	ST_CHECK(r, v2_prop_rbsiz(h->props, &rbsiz));
	ST_EQ(r, rbsiz, 8192u);
	ST_CHECK(r, v2_prop_brs(h->props, &brs));
	ST_EQ(r, brs, BkReqSup::Genl);
	/* the experimental id is kept, uninterpreted */
	ST_EQ(r, h->props.items[2].which, 0xfffffff0u);
	ST_EQ(r, h->props.items[2].data.size(), 3u);
	ST_EQ(r, h->props.items[2].data[2], 0xef);
	ST_CHECK(r, h->subset_a.contains(0));
	ST_CHECK(r, !h->subset_a.contains(1));
	ST_CHECK(r, !h->subset_a.contains(40)); /* beyond the words sent */

	ST_EQ(r, v2_decode(r.words(vec::kV2ReqProp), kLim, h), V2Verdict::Ok);
	ST_CHECK(r, v2_prop_rbsiz(h->props, &rbsiz));
	ST_EQ(r, rbsiz, 16384u);
	ST_CHECK(r, !v2_prop_brs(h->props, &brs)); /* absent: default */
	ST_EQ(r, brs, kV2DefaultBrs);

	ST_EQ(r, v2_decode(r.words(vec::kV2ResProp), kLim, h), V2Verdict::Ok);
	ST_EQ(r, h->subset_a.nwords, 0u);
	ST_CHECK(r, h->subset_b.contains(1));
	ST_CHECK(r, !h->subset_b.contains(0));
	ST_CHECK(r, v2_prop_rbsiz(h->props, &rbsiz));
	ST_EQ(r, rbsiz, 12288u);

	ST_EQ(r, v2_decode(r.words(vec::kV2UpdProp), kLim, h), V2Verdict::Ok);
	ST_CHECK(r, v2_prop_rbsiz(h->props, &rbsiz)); /* empty value: default */
	ST_EQ(r, rbsiz, kV2DefaultRbsiz);
}

static void roundtrip_all(Reporter &r)
{
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, h);
	ktl::Bytes out = r.bytes(256);

	for (const Vec &v : kValid) {
		ktl::ConstBytes in = r.words(v.w, v.n);

		if (!ST_EQ(r, v2_decode(in, kLim, h), V2Verdict::Ok))
			continue;
		auto res = v2_encode(*h, out);
		if (!ST_CHECK(r, res.is_ok() && res.value() == h->hdr_len))
			continue;
		ST_EQ(r, ktl::mem_compare(out.data(), in.data(), h->hdr_len), 0);
		for (u32 n = 0; n < h->hdr_len; n++)
			ST_CHECK(r, v2_encode(*h, out.first(n)).is_error());
	}
}

static void truncation_every_byte(Reporter &r)
{
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, h);

	for (const Vec &v : kValid) {
		ktl::ConstBytes in = r.words(v.w, v.n);
		u32 hdr_len;

		if (!ST_EQ(r, v2_decode(in, kLim, h), V2Verdict::Ok))
			continue;
		hdr_len = h->hdr_len;
		for (u32 len = 0; len < hdr_len; len++)
			ST_EQ(r, v2_decode(in.first(len), kLim, h),
			      len < 16 ? V2Verdict::TooShort : V2Verdict::BadXdr);
	}
}

static void malformed(Reporter &r)
{
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, h);
	V2Error owed;
	const u32 vers1[] = {vec::kXid, 1, 32, 0, 0, 0, 0, 0, 0};
	const u32 proc2[] = {vec::kXid, 2, 32, 2};
	const u32 proc3[] = {vec::kXid, 2, 32, 3};
	const u32 proc10[] = {vec::kXid, 2, 32, 10};
	const u32 dir2[] = {vec::kXid, 2, 32, 0, 2, 0, 0, 0, 0, 1};
	const u32 overrun[] = {vec::kXid, 2, 32, 7, 1, 1, 100, 8192};
	const u32 brs3[] = {vec::kXid, 2, 32, 7, 1, 2, 4, 3};
	const u32 rbsiz2[] = {vec::kXid, 2, 32, 7, 1, 1, 2, 0x20000000};
	const u32 rbsiz8[] = {vec::kXid, 2, 32, 7, 1, 1, 8, 0x2000, 0};
	const u32 err11[] = {vec::kXid, 2, 32, 4, 11};
	const u32 huge_set[] = {vec::kXid, 2, 32, 9, 0x40000000, 1, 0};
	const u32 huge_sub[] = {vec::kXid, 2, 32, 6, 0, 0x40000000, 1};
	const u32 msg_pzrc[] = {vec::kXid, 2, 32, 0, 0, 0, 1, 0, 1, 64, 0, 0, 0, 0, 0, 9};
	const u32 reply_read[] = {vec::kXid, 2, 32, 0, 1, 0, 1, 4, 1, 64, 0, 0, 0, 0, 0, 9, 9};
	const u32 nomsg_call[] = {vec::kXid, 2, 32, 1, 0, 0, 0, 0, 0};

	ST_EQ(r, v2_decode(r.words(vers1), kLim, h), V2Verdict::VersionMismatch);
	ST_EQ(r, v2_responder_action(V2Verdict::VersionMismatch, *h, kLim, &owed), V2Action::ReplyError);
	ST_EQ(r, owed.code, static_cast<u32>(V2ErrCode::Vers));
	ST_EQ(r, owed.vers_low, kV2VersLow);
	ST_EQ(r, owed.vers_high, kV2VersHigh);
	ST_EQ(r, v2_decode(r.words(proc2), kLim, h), V2Verdict::InvalidProc);
	ST_EQ(r, v2_decode(r.words(proc3), kLim, h), V2Verdict::InvalidProc);
	ST_EQ(r, v2_decode(r.words(proc10), kLim, h), V2Verdict::InvalidProc);
	ST_EQ(r, v2_responder_action(V2Verdict::InvalidProc, *h, kLim, &owed), V2Action::ReplyError);
	ST_EQ(r, owed.code, static_cast<u32>(V2ErrCode::InvalidProc));
	ST_EQ(r, v2_decode(r.words(dir2), kLim, h), V2Verdict::BadXdr);
	ST_EQ(r, v2_decode(r.words(overrun), kLim, h), V2Verdict::BadXdr);
	ST_EQ(r, v2_decode(r.words(brs3), kLim, h), V2Verdict::BadXdr);
	ST_EQ(r, v2_decode(r.words(rbsiz2), kLim, h), V2Verdict::BadXdr);
	ST_EQ(r, v2_decode(r.words(rbsiz8), kLim, h), V2Verdict::BadXdr);
	ST_EQ(r, v2_decode(r.words(err11), kLim, h), V2Verdict::BadXdr);
	ST_EQ(r, v2_decode(r.words(huge_set), kLim, h), V2Verdict::BadXdr);
	ST_EQ(r, v2_decode(r.words(huge_sub), kLim, h), V2Verdict::BadXdr);
	ST_EQ(r, v2_decode(r.words(msg_pzrc), kLim, h), V2Verdict::BadXdr);
	ST_EQ(r, v2_decode(r.words(reply_read), kLim, h), V2Verdict::BadXdr);
	ST_EQ(r, v2_decode(r.words(nomsg_call), kLim, h), V2Verdict::BadXdr);
	ST_EQ(r, v2_responder_action(V2Verdict::BadXdr, *h, kLim, &owed), V2Action::ReplyError);
	ST_EQ(r, owed.code, static_cast<u32>(V2ErrCode::BadXdr));
	ST_EQ(r, v2_responder_action(V2Verdict::TooShort, *h, kLim, &owed), V2Action::Drop);
}

/* RDMA2_UPDPROP with @nprops empty propvals, or RDMA2_CONNPROP with an
 * empty propset and a @nwords-word subset. */
static ktl::ConstBytes many(Reporter &r, u32 nprops, u32 nwords)
{
	ktl::Bytes b = r.bytes(16 + 4 + nprops * 8 + 4 + nwords * 4);
	ktl::XdrWriter x(b);
	bool ok = x.put_u32(vec::kXid) && x.put_u32(2) && x.put_u32(32);

	if (nwords) {
		ok = ok && x.put_u32(6) && x.put_u32(0) && x.put_u32(nwords);
		for (u32 i = 0; i < nwords; i++)
			ok = ok && x.put_u32(0);
	} else {
		ok = ok && x.put_u32(9) && x.put_u32(nprops);
		for (u32 i = 0; i < nprops; i++)
			ok = ok && x.put_u32(0x1000 + i) && x.put_u32(0);
	}
	r.check(ok, "built property vector", __FILE__, __LINE__);
	return b.first(x.offset());
}

/* Version 2 Write list of @nchunks chunks of @nsegs segments (a Reply
 * with an inline payload). */
static ktl::ConstBytes v2_writes(Reporter &r, u32 nchunks, u32 nsegs)
{
	ktl::Bytes b = r.bytes(4 * (6 + 1 + nchunks * (2 + 4 * nsegs) + 2 + 2));
	ktl::XdrWriter x(b);
	bool ok = x.put_u32(vec::kXid) && x.put_u32(2) && x.put_u32(32) && x.put_u32(0) &&
		  x.put_u32(kMsgReply) && x.put_u32(0) && x.put_u32(0);

	for (u32 c = 0; c < nchunks; c++) {
		ok = ok && x.put_u32(1) && x.put_u32(nsegs);
		for (u32 s = 0; s < nsegs; s++)
			ok = ok && x.put_u32(7) && x.put_u32(512) && x.put_u64(0x1000);
	}
	/* no Reply chunk, then the RPC message: its XID, one more word */
	ok = ok && x.put_u32(0) && x.put_u32(0) && x.put_u32(vec::kXid) && x.put_u32(2);
	r.check(ok && x.remaining() == 0, "built v2 write list", __FILE__, __LINE__);
	return b;
}

static void limits(Reporter &r)
{
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, h);
	V2Error owed;
	DecodeLimits lim;

	ST_EQ(r, v2_decode(many(r, kMaxPropsCap, 0), kLim, h), V2Verdict::Ok);
	ST_EQ(r, h->props.count, kMaxPropsCap);
	ST_EQ(r, v2_decode(many(r, kMaxPropsCap + 1, 0), kLim, h), V2Verdict::TooManyProperties);
	ST_EQ(r, v2_decode(many(r, 0, kMaxSubsetWordsCap), kLim, h), V2Verdict::Ok);
	ST_EQ(r, v2_decode(many(r, 0, kMaxSubsetWordsCap + 1), kLim, h), V2Verdict::TooManyProperties);
	ST_EQ(r, v2_responder_action(V2Verdict::TooManyProperties, *h, kLim, &owed), V2Action::ReplyError);
	ST_EQ(r, owed.code, static_cast<u32>(V2ErrCode::System));

	ST_EQ(r, v2_decode(v2_writes(r, 2, 2), kLim, h), V2Verdict::Ok);
	lim.max_write_chunks = 1;
	ST_EQ(r, v2_decode(v2_writes(r, 2, 2), lim, h), V2Verdict::TooManyWriteChunks);
	ST_EQ(r, v2_responder_action(V2Verdict::TooManyWriteChunks, *h, lim, &owed), V2Action::ReplyError);
	ST_EQ(r, owed.code, static_cast<u32>(V2ErrCode::WriteChunks));
	ST_EQ(r, owed.max_chunks, 1u);
	lim = DecodeLimits{};
	lim.max_segments_per_chunk = 1;
	ST_EQ(r, v2_decode(v2_writes(r, 1, 2), lim, h), V2Verdict::TooManySegments);
	ST_EQ(r, v2_responder_action(V2Verdict::TooManySegments, *h, lim, &owed), V2Action::ReplyError);
	ST_EQ(r, owed.code, static_cast<u32>(V2ErrCode::Segments));
	ST_EQ(r, owed.max_segments, 1u);
	ST_EQ(r, v2_responder_action(V2Verdict::TooManyReadChunks, *h, kLim, &owed), V2Action::ReplyError);
	ST_EQ(r, owed.code, static_cast<u32>(V2ErrCode::ReadChunks));
	ST_EQ(r, owed.max_chunks, kLim.max_read_chunks);
}

static void optinfo_props(Reporter &r)
{
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, h);
	u32 rbsiz = 0;
	/* RDMA2_OPTIONAL, opttype 2 (Request Property Modification), whose
	 * optinfo holds an rpcrdma2_reqprop: { RBSIZ = 32768 }. */
	const u32 opt_req[] = {vec::kXid, 2, 32, 5, 0, 2, 16, 1, 1, 4, 32768};
	const u32 opt_trailing[] = {vec::kXid, 2, 32, 5, 0, 2, 20, 1, 1, 4, 32768, 0};

	ST_EQ(r, v2_decode(r.words(opt_req), kLim, h), V2Verdict::Ok);
	ST_EQ(r, v2_decode_optinfo(h), V2Verdict::Ok);
	ST_CHECK(r, v2_prop_rbsiz(h->props, &rbsiz));
	ST_EQ(r, rbsiz, 32768u);
	ST_EQ(r, v2_decode(r.words(opt_trailing), kLim, h), V2Verdict::Ok);
	ST_EQ(r, v2_decode_optinfo(h), V2Verdict::BadXdr);
}

/* Build kV2ConnProp with the builders and compare octets. */
static void builders(Reporter &r)
{
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, h);
	ktl::Bytes out = r.bytes(128);
	ktl::ConstBytes want = r.words(vec::kV2ConnProp);
	const u8 exp[] = {0xab, 0xcd, 0xef};

	h->xid = vec::kXid;
	h->vers = kRpcRdmaVersion2;
	h->credits = 32;
	h->proc = V2Proc::ConnProp;
	ST_CHECK(r, h->props.add_u32(kV2PropRbsiz, 8192));
	ST_CHECK(r, h->props.add_u32(kV2PropBrs, static_cast<u32>(BkReqSup::Genl)));
	ST_CHECK(r, h->props.add_opaque(0xfffffff0, ktl::ConstBytes(exp, 3)));
	ST_CHECK(r, h->subset_a.insert(0));
	ST_CHECK(r, !h->subset_a.insert(kMaxSubsetWordsCap * 32));
	auto res = v2_encode(*h, out);
	ST_CHECK(r, res.is_ok() && res.value() == want.size());
	ST_EQ(r, ktl::mem_compare(out.data(), want.data(), want.size()), 0);
	h->proc = static_cast<V2Proc>(3);
	ST_CHECK(r, v2_encode(*h, out).is_error());
	ST_CHECK(r, ktl::mem_compare(v2_verdict_name(V2Verdict::BadXdr), "bad_xdr", 8) == 0);
}

/* The responder's Call path: RDMA2_MSG and RDMA2_NOMSG decoded into the
 * version 1 view, and a Reply encoded back from it. */
static void msg_as_v1_view(Reporter &r)
{
	V1Header *c = r.make<V1Header>();
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, c);
	ST_NEED(r, h);
	ktl::Bytes out = r.bytes(128);
	u32 dir = 9, inv = 9, vers = 0;
	V2Proc proc = V2Proc::Error;

	ST_CHECK(r, v2_peek(r.words(vec::kV2MsgCall), &vers, &proc));
	ST_EQ(r, vers, 2u);
	ST_EQ(r, proc, V2Proc::Msg);
	ST_CHECK(r, !v2_peek(r.words(vec::kV2MsgCall, 3), &vers, &proc));
	ST_EQ(r, v2_decode_msg(r.words(vec::kV2MsgCall), kLim, c, &dir, &inv), V2Verdict::Ok);
	ST_EQ(r, c->xid, vec::kXid);
	ST_EQ(r, c->vers, 2u);
	ST_EQ(r, c->credits, 32u);
	ST_EQ(r, c->proc, V1Proc::Msg);
	ST_EQ(r, dir, kMsgCall);
	ST_EQ(r, inv, 0x11111111u);
	ST_EQ(r, c->chunks.nread, 1u);
	ST_EQ(r, c->chunks.read[0].position, 48u);
	ST_EQ(r, c->hdr_len, 60u);
	ST_EQ(r, c->payload_len, 48u);
	/* encoded back: the same header octets */
	auto res = v2_encode_msg(*c, dir, inv, out);
	ST_CHECK(r, res.is_ok() && res.value() == 60u);
	ST_EQ(r, ktl::mem_compare(out.data(), r.words(vec::kV2MsgCall).data(), 60), 0);

	ST_EQ(r, v2_decode_msg(r.words(vec::kV2NoMsgReply), kLim, c, &dir, &inv), V2Verdict::Ok);
	ST_EQ(r, c->proc, V1Proc::NoMsg);
	ST_EQ(r, dir, kMsgReply);
	ST_CHECK(r, c->chunks.has_reply);
	ST_EQ(r, c->hdr_len, 56u);
	auto res2 = v2_encode_msg(*c, dir, inv, out);
	ST_CHECK(r, res2.is_ok() && res2.value() == 56u);
	ST_EQ(r, ktl::mem_compare(out.data(), r.words(vec::kV2NoMsgReply).data(), 56), 0);

	/* not a Call path message, or not version 2, or short */
	ST_EQ(r, v2_decode_msg(r.words(vec::kV2ConnProp), kLim, c, &dir, &inv),
	      V2Verdict::InvalidProc);
	ST_EQ(r, v2_decode_msg(r.words(vec::kV1MsgInline), kLim, c, &dir, &inv),
	      V2Verdict::VersionMismatch);
	ST_EQ(r, v2_decode_msg(r.words(vec::kV2MsgCall, 3), kLim, c, &dir, &inv),
	      V2Verdict::TooShort);
	/* the chunk rules hold: RDMA2_MSG without a payload */
	ST_EQ(r, v2_decode_msg(r.words(vec::kV2MsgCall, 15), kLim, c, &dir, &inv),
	      V2Verdict::BadXdr);
	/* only Msg and NoMsg encode, in a direction that exists */
	c->proc = V1Proc::Error;
	ST_CHECK(r, v2_encode_msg(*c, kMsgReply, 0, out).is_error());
	c->proc = V1Proc::Msg;
	ST_CHECK(r, v2_encode_msg(*c, 2, 0, out).is_error());
	ST_CHECK(r, v2_encode_msg(*c, kMsgReply, 0, out.first(12)).is_error());
}

/* What a responder does with each message that carries no Call. */
static void responder_control(Reporter &r)
{
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, h);
	V2Error err;
	u32 rbsiz = 0;
	/* RDMA2_OPTIONAL opttype 1: a CONNPROP { RBSIZ 2048 } in optinfo */
	const u32 opt_conn[] = {vec::kXid, 2, 32, 5, 0, 1, 20, 1, 1, 4, 2048, 0};
	const u32 opt_conn_bad[] = {vec::kXid, 2, 32, 5, 0, 1, 8, 1, 1};

	ST_EQ(r, v2_decode(r.words(vec::kV2ConnProp), kLim, h), V2Verdict::Ok);
	ST_EQ(r, v2_responder_control(h, &err), V2Control::ConnProp);
	ST_EQ(r, v2_decode(r.words(opt_conn), kLim, h), V2Verdict::Ok);
	ST_EQ(r, v2_responder_control(h, &err), V2Control::ConnProp);
	ST_CHECK(r, v2_prop_rbsiz(h->props, &rbsiz));
	ST_EQ(r, rbsiz, 2048u);
	ST_EQ(r, v2_decode(r.words(opt_conn_bad), kLim, h), V2Verdict::Ok);
	ST_EQ(r, v2_responder_control(h, &err), V2Control::ReplyError);
	ST_EQ(r, err.code, static_cast<u32>(V2ErrCode::BadXdr));
	const Vec unsupported[] = {kValid[14], kValid[15], kValid[16], kValid[12]};
	for (const Vec &v : unsupported) {
		ST_EQ(r, v2_decode(r.words(v.w, v.n), kLim, h), V2Verdict::Ok);
		ST_EQ(r, v2_responder_control(h, &err), V2Control::ReplyError);
		ST_EQ(r, err.code, static_cast<u32>(V2ErrCode::InvalidOption));
	}
	ST_EQ(r, v2_decode(r.words(vec::kV2ErrSystem), kLim, h), V2Verdict::Ok);
	ST_EQ(r, v2_responder_control(h, &err), V2Control::Drop);
}

/* A requester's helpers: ERR_VERS recognised whichever rdma_vers it
 * carries, and its own RDMA2_CONNPROP decoding back as sent. */
static void requester_side(Reporter &r)
{
	V2Header *h = r.make<V2Header>();
	ST_NEED(r, h);
	ktl::Bytes out = r.bytes(64);
	u32 xid = 0, lo = 0, hi = 0, rbsiz = 0;
	BkReqSup brs = BkReqSup::None;
	/* what a version 1 server sends: rdma_vers 1, or the Call's 2 echoed */
	const u32 v1_err_vers[] = {vec::kXid, 1, 1, 4, 1, 1, 1};
	const u32 echoed[] = {vec::kXid, 2, 1, 4, 1, 1, 1};
	const u32 err_chunk[] = {vec::kXid, 1, 1, 4, 2, 0, 0};

	ST_CHECK(r, v2_peek_err_vers(r.words(v1_err_vers), &xid, &lo, &hi));
	ST_EQ(r, xid, vec::kXid);
	ST_EQ(r, lo, 1u);
	ST_EQ(r, hi, 1u);
	ST_CHECK(r, v2_peek_err_vers(r.words(echoed), &xid, &lo, &hi));
	ST_CHECK(r, v2_peek_err_vers(r.words(vec::kV2ErrVers), &xid, &lo, &hi));
	ST_CHECK(r, !v2_peek_err_vers(r.words(err_chunk), &xid, &lo, &hi));
	ST_CHECK(r, !v2_peek_err_vers(r.words(v1_err_vers, 6), &xid, &lo, &hi));
	ST_CHECK(r, !v2_peek_err_vers(r.words(vec::kV2MsgCall), &xid, &lo, &hi));

	auto res = v2_encode_connprop(7, 3, 8192, true, BkReqSup::Inline, out);
	ST_CHECK(r, res.is_ok() && res.value() == 52u);
	ST_EQ(r, v2_decode(out.first(res.value()), kLim, h), V2Verdict::Ok);
	ST_EQ(r, h->xid, 7u);
	ST_EQ(r, h->credits, 3u);
	ST_EQ(r, h->proc, V2Proc::ConnProp);
	ST_CHECK(r, v2_prop_rbsiz(h->props, &rbsiz));
	ST_EQ(r, rbsiz, 8192u);
	ST_CHECK(r, v2_prop_brs(h->props, &brs));
	ST_EQ(r, brs, BkReqSup::Inline);
	ST_CHECK(r, h->subset_a.contains(0) && h->subset_a.contains(1));
	ST_CHECK(r, !h->subset_a.contains(2));
	auto res2 = v2_encode_connprop(7, 3, 4096, false, BkReqSup::None, out);
	ST_CHECK(r, res2.is_ok() && res2.value() == 40u);
	ST_EQ(r, v2_decode(out.first(res2.value()), kLim, h), V2Verdict::Ok);
	ST_CHECK(r, !v2_prop_brs(h->props, &brs));
	ST_CHECK(r, v2_encode_connprop(7, 3, 4096, true, BkReqSup::Inline, out.first(44)).is_error());
	/* a chunkless backward Reply header decodes as one */
	V1Header *c = r.make<V1Header>();
	ST_NEED(r, c);
	u32 dir = 9, inv = 9;
	auto res3 = v2_encode_inline_msg(0x99, 2, kMsgReply, out);
	ST_CHECK(r, res3.is_ok() && res3.value() == 36u);
	ktl::store_be32(out.data() + 36, 0x99);
	ktl::store_be32(out.data() + 40, kMsgReply);
	ST_EQ(r, v2_decode_msg(out.first(44), kLim, c, &dir, &inv), V2Verdict::Ok);
	ST_EQ(r, dir, kMsgReply);
	ST_EQ(r, inv, 0u);
	ST_EQ(r, c->credits, 2u);
	ST_EQ(r, c->hdr_len, 36u);
	ST_CHECK(r, c->chunks.empty());
	ST_CHECK(r, v2_encode_inline_msg(0x99, 2, 2, out).is_error());
	ST_CHECK(r, ktl::mem_compare(v2_err_name(8), "RDMA2_ERR_REPLY_RESOURCE", 25) == 0);
	ST_CHECK(r, ktl::mem_compare(v2_err_name(77), "unknown error", 14) == 0);
}

/* RFC 8166 Section 4.5.2, kept by Section 6.2.4: an RDMA2_MSG whose RPC
 * message's XID is not rdma_xid does not decode (RDMA2_ERR_BAD_XDR), in
 * either direction. */
static void xid_mismatch(Reporter &r)
{
	V1Header *c = r.make<V1Header>();
	ST_NEED(r, c);
	u32 dir, inv;
	const u32 match[] = {vec::kXid, 2, 32, 0, kMsgCall, 0, 0, 0, 0, vec::kXid, 0, 2};
	const u32 other[] = {vec::kXid, 2, 32, 0, kMsgCall, 0, 0, 0, 0, vec::kXid + 1, 0, 2};
	const u32 reply[] = {vec::kXid, 2, 32, 0, kMsgReply, 0, 0, 0, 0, vec::kXid + 1, 1, 0};

	ST_EQ(r, v2_decode_msg(r.words(match), kLim, c, &dir, &inv), V2Verdict::Ok);
	ST_EQ(r, v2_decode_msg(r.words(other), kLim, c, &dir, &inv), V2Verdict::BadXdr);
	ST_EQ(r, v2_decode_msg(r.words(reply), kLim, c, &dir, &inv), V2Verdict::BadXdr);
	ST_EQ(r, dir, kMsgReply);
	ST_EQ(r, v2_decode_msg(r.words(match).first(38), kLim, c, &dir, &inv), V2Verdict::BadXdr);
}

} // namespace v2_cases

const Case kV2Cases[] = {
	{"v2.decode_msg_call", v2_cases::decode_msg_call},
	{"v2.decode_nomsg_reply", v2_cases::decode_nomsg_reply},
	{"v2.error_codes", v2_cases::error_codes},
	{"v2.optional_msg", v2_cases::optional_msg},
	{"v2.property_ops", v2_cases::property_ops},
	{"v2.roundtrip_all", v2_cases::roundtrip_all},
	{"v2.truncation_every_byte", v2_cases::truncation_every_byte},
	{"v2.malformed", v2_cases::malformed},
	{"v2.limits", v2_cases::limits},
	{"v2.optinfo_props", v2_cases::optinfo_props},
	{"v2.builders", v2_cases::builders},
	{"v2.msg_as_v1_view", v2_cases::msg_as_v1_view},
	{"v2.responder_control", v2_cases::responder_control},
	{"v2.requester_side", v2_cases::requester_side},
	{"v2.xid_mismatch", v2_cases::xid_mismatch},
};
const u32 kV2CaseCount = sizeof(kV2Cases) / sizeof(kV2Cases[0]);

} // namespace rpcrdmax::core::selftest
