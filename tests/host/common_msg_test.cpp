// SPDX-License-Identifier: GPL-2.0
/*
 * decode_common_msg(), the decoders' shortcut for messages without
 * chunks or with one Write chunk or one Reply chunk of one segment,
 * against the full
 * decoders: for such messages and for every one-word change of them
 * (version, procedure, a list word, a segment, the RPC XID,
 * rdma_direction, the length), under the default and under narrowed
 * limits, each public decoder gives the verdict and header its full
 * decoder gives.
 */
#include <rpcrdmax/core/v1.h>
#include <rpcrdmax/core/v2.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using namespace rpcrdmax::core;
namespace ktl = rpcrdmax::ktl;

namespace {

void put32(std::vector<uint8_t> &b, size_t at, uint32_t v)
{
	b[at] = (uint8_t)(v >> 24);
	b[at + 1] = (uint8_t)(v >> 16);
	b[at + 2] = (uint8_t)(v >> 8);
	b[at + 3] = (uint8_t)v;
}

/* The one chunk a common message has. */
enum class One { None, Write, Reply };

/* A chunkless RDMA_MSG / RDMA2_MSG, or with one Write chunk or the Reply
 * chunk of one segment (@one), and an RPC message of @rpc octets
 * starting with the XID and msg_type @dir. */
std::vector<uint8_t> common_msg(uint32_t vers, uint32_t xid, uint32_t dir, size_t rpc, One one)
{
	const size_t lists = vers == 2 ? 24 : 16;
	const size_t hdr = lists + (one == One::Write ? 36 : one == One::Reply ? 32 : 12);
	std::vector<uint8_t> b(hdr + rpc, 0);
	put32(b, 0, xid);
	put32(b, 4, vers);
	put32(b, 8, 32);
	put32(b, 12, 0);
	if (vers == 2) {
		put32(b, 16, dir);
		put32(b, 20, 0x1234);
	}
	if (one != One::None) {
		/* the chunk's present word: the Write list's first, or the
		 * Reply chunk's after the Write list's end */
		const size_t chunk = lists + (one == One::Write ? 4 : 8);
		put32(b, chunk, 1);
		put32(b, chunk + 4, 1);
		put32(b, chunk + 8, 0x5678);	 /* handle */
		put32(b, chunk + 12, 4096);	 /* length */
		put32(b, chunk + 16, 0x1);	 /* offset, high */
		put32(b, chunk + 20, 0x2000); /* offset, low */
	}
	if (rpc >= 4)
		put32(b, hdr, xid);
	if (rpc >= 8)
		put32(b, hdr + 4, dir);
	return b;
}

void expect_same(const V1Header &a, const V1Header &b, const char *what)
{
	EXPECT_EQ(a.xid, b.xid) << what;
	EXPECT_EQ(a.vers, b.vers) << what;
	EXPECT_EQ(a.credits, b.credits) << what;
	EXPECT_EQ(a.proc, b.proc) << what;
	EXPECT_EQ(a.hdr_len, b.hdr_len) << what;
	EXPECT_EQ(a.payload_len, b.payload_len) << what;
	EXPECT_EQ(a.chunks.nsegs, b.chunks.nsegs) << what;
	EXPECT_EQ(a.chunks.nread, b.chunks.nread) << what;
	EXPECT_EQ(a.chunks.nwrite, b.chunks.nwrite) << what;
	EXPECT_EQ(a.chunks.has_reply, b.chunks.has_reply) << what;
	for (uint32_t i = 0; i < a.chunks.nwrite && i < b.chunks.nwrite; i++) {
		EXPECT_EQ(a.chunks.write[i].first, b.chunks.write[i].first) << what;
		EXPECT_EQ(a.chunks.write[i].nsegs, b.chunks.write[i].nsegs) << what;
		EXPECT_EQ(a.chunks.write[i].position, b.chunks.write[i].position) << what;
	}
	if (a.chunks.has_reply && b.chunks.has_reply) {
		EXPECT_EQ(a.chunks.reply.first, b.chunks.reply.first) << what;
		EXPECT_EQ(a.chunks.reply.nsegs, b.chunks.reply.nsegs) << what;
		EXPECT_EQ(a.chunks.reply.position, b.chunks.reply.position) << what;
	}
	for (uint32_t i = 0; i < a.chunks.nsegs && i < b.chunks.nsegs; i++) {
		EXPECT_EQ(a.chunks.segs[i].handle, b.chunks.segs[i].handle) << what;
		EXPECT_EQ(a.chunks.segs[i].length, b.chunks.segs[i].length) << what;
		EXPECT_EQ(a.chunks.segs[i].offset, b.chunks.segs[i].offset) << what;
	}
	EXPECT_EQ(a.err, b.err) << what;
	EXPECT_EQ(a.vers_low, b.vers_low) << what;
	EXPECT_EQ(a.vers_high, b.vers_high) << what;
}

int shortcut_taken;

void compare_under(const std::vector<uint8_t> &b, const DecodeLimits &lim)
{
	const ktl::ConstBytes raw(b.data(), b.size());
	V1Header h1, h2;
	uint32_t d1 = 7, d2 = 7, i1 = 7, i2 = 7;

	if (decode_common_msg(raw, kRpcRdmaVersion1, lim, &h1, &d1, &i1) ||
	    decode_common_msg(raw, kRpcRdmaVersion2, lim, &h1, &d1, &i1))
		shortcut_taken++;
	d1 = d2 = i1 = i2 = 7;

	ASSERT_EQ(v1_decode_call(raw, lim, &h1), v1_decode_call_full(raw, lim, &h2));
	expect_same(h1, h2, "v1 call");
	ASSERT_EQ(v1_decode_reply(raw, lim, &h1), v1_decode_reply_full(raw, lim, &h2));
	expect_same(h1, h2, "v1 reply");
	const V2Verdict v = v2_decode_msg(raw, lim, &h1, &d1, &i1);
	ASSERT_EQ(v, v2_decode_msg_full(raw, lim, &h2, &d2, &i2));
	expect_same(h1, h2, "v2");
	if (v == V2Verdict::Ok) {
		EXPECT_EQ(d1, d2);
		EXPECT_EQ(i1, i2);
	}
}

/* Under the default limits, and under limits that refuse a Write chunk
 * or its one segment. */
void compare_all(const std::vector<uint8_t> &b)
{
	DecodeLimits none[3];

	compare_under(b, DecodeLimits());
	none[0].max_write_chunks = 0;
	none[1].max_segments_per_chunk = 0;
	none[2].max_segments = 0;
	for (const DecodeLimits &lim : none)
		compare_under(b, lim);
}

void mutate_and_compare(const std::vector<uint8_t> &base, std::mt19937 &rng)
{
	const uint32_t words[] = {0, 1, 2, 3, 4, 0xffffffff, 0xabcd, 32, 0xfffff000};
	const size_t span = 80; /* the longest header and the RPC XID */

	compare_all(base);
	/* every word of the header and the RPC XID, to each value */
	for (size_t at = 0; at + 4 <= base.size() && at < span; at += 4) {
		for (uint32_t w : words) {
			std::vector<uint8_t> m = base;
			put32(m, at, w);
			compare_all(m);
		}
	}
	/* every length up to the header and a word past it */
	for (size_t len = 0; len < base.size() && len < span; len++)
		compare_all(std::vector<uint8_t>(base.begin(), base.begin() + len));
	/* random octets anywhere in the first span */
	for (int i = 0; i < 500; i++) {
		std::vector<uint8_t> m = base;
		m[rng() % std::min<size_t>(span, m.size())] = (uint8_t)rng();
		compare_all(m);
	}
}

TEST(CommonMsg, ShortcutDecodesAsTheFullDecoders)
{
	std::mt19937 rng(4244);

	for (One one : {One::None, One::Write, One::Reply})
		for (uint32_t vers : {1u, 2u})
			for (uint32_t dir : {0u, 1u})
				for (size_t rpc : {0, 3, 4, 8, 100})
					mutate_and_compare(common_msg(vers, 0xabcd, dir, rpc, one), rng);
	/* a segment at the top of the address space: its mutations wrap */
	for (One one : {One::Write, One::Reply})
		for (uint32_t vers : {1u, 2u}) {
			std::vector<uint8_t> b = common_msg(vers, 0xabcd, 1, 100, one);
			put32(b, (vers == 2 ? 24 : 16) + (one == One::Write ? 20 : 24), 0xffffffff);
			mutate_and_compare(b, rng);
		}
	EXPECT_GT(shortcut_taken, 200);
}

/* The one-segment Write chunk, or Reply chunk (a Call's whose Reply may
 * not fit inline), decodes in place: its segment as sent. */
TEST(CommonMsg, OneSegmentDecoded)
{
	for (One one : {One::Write, One::Reply})
		for (uint32_t vers : {1u, 2u}) {
			const bool write = one == One::Write;
			const std::vector<uint8_t> b = common_msg(vers, 0xabcd, 0, 100, one);
			V1Header h;
			uint32_t d = 7, i = 0;

			ASSERT_TRUE(decode_common_msg(ktl::ConstBytes(b.data(), b.size()), vers,
						      DecodeLimits(), &h, &d, &i));
			EXPECT_EQ(h.hdr_len, (vers == 2 ? 44u : 36u) + (write ? 16u : 12u));
			EXPECT_EQ(h.payload_len, 100u);
			ASSERT_EQ(h.chunks.nwrite, write ? 1u : 0u);
			ASSERT_EQ(h.chunks.has_reply, !write);
			const ChunkRef &c = write ? h.chunks.write[0] : h.chunks.reply;
			ASSERT_EQ(c.nsegs, 1u);
			EXPECT_EQ(h.chunks.segment(c, 0).handle, 0x5678u);
			EXPECT_EQ(h.chunks.segment(c, 0).length, 4096u);
			EXPECT_EQ(h.chunks.segment(c, 0).offset, 0x100002000ull);
			EXPECT_EQ(h.chunks.nread, 0u);
			if (vers == 2) {
				EXPECT_EQ(d, 0u);
			}
		}
	/* offset + length past 2^64: the full decoder refuses it */
	std::vector<uint8_t> b = common_msg(1, 0xabcd, 1, 100, One::Write);
	put32(b, 16 + 20, 0xffffffff);
	put32(b, 16 + 24, 0xfffff001);
	V1Header h;
	uint32_t d = 0, i = 0;
	EXPECT_FALSE(decode_common_msg(ktl::ConstBytes(b.data(), b.size()), 1, DecodeLimits(),
				       &h, &d, &i));
	EXPECT_EQ(v1_decode_reply(ktl::ConstBytes(b.data(), b.size()), DecodeLimits(), &h),
		  V1Verdict::SegmentWraps);
}

/*
 * encode_one_write_msg() (@reply_chunk false) or encode_one_reply_msg()
 * writes what the general encoders write for a header whose only chunk
 * is one Write segment or one Reply chunk segment; followed by the RPC
 * message's XID, a responder reads either back with decode_common_msg().
 */
static void one_segment_encoder_as_the_general_ones(bool reply_chunk, uint64_t seed)
{
	std::mt19937_64 rng(seed);
	auto encode = reply_chunk ? encode_one_reply_msg : encode_one_write_msg;

	for (int i = 0; i < 5000; i++) {
		const uint32_t vers = rng() % 2 ? kRpcRdmaVersion2 : kRpcRdmaVersion1;
		const uint32_t dir = (uint32_t)(rng() % 2), inv = (uint32_t)rng();
		const Segment seg{(uint32_t)rng(), (uint32_t)rng(), rng()};
		V1Header h;
		h.reset();
		h.xid = (uint32_t)rng();
		h.vers = vers;
		h.credits = (uint32_t)rng();
		h.proc = V1Proc::Msg;
		ASSERT_EQ(reply_chunk ? h.chunks.set_reply_chunk() : h.chunks.add_write_chunk(),
			  ListError::None);
		ASSERT_EQ((reply_chunk ? h.chunks.add_reply_segment(seg)
				       : h.chunks.add_write_segment(seg)) == ListError::None,
			  seg.offset + seg.length >= seg.offset);
		if (h.chunks.nsegs != 1)
			continue; /* a wrapping segment: no encoder takes it */
		uint8_t a[128], b[128];
		memset(a, 0x5a, sizeof(a));
		memset(b, 0x5a, sizeof(b));
		auto fast = encode(h.xid, vers, h.credits, dir, inv, seg, ktl::Bytes(a, sizeof(a)));
		auto full = vers == kRpcRdmaVersion2 ? v2_encode_msg(h, dir, inv, ktl::Bytes(b, sizeof(b)))
						     : v1_encode(h, ktl::Bytes(b, sizeof(b)));
		ASSERT_TRUE(fast.is_ok() && full.is_ok());
		ASSERT_EQ(fast.value(), full.value());
		ASSERT_EQ(memcmp(a, b, sizeof(a)), 0) << "i " << i;
		EXPECT_TRUE(encode(h.xid, vers, h.credits, dir, inv, seg,
				   ktl::Bytes(a, fast.value() - 1)).is_error());
		uint8_t m[136];
		memcpy(m, a, fast.value());
		for (int k = 0; k < 8; k++)
			m[fast.value() + k] = (uint8_t)(k < 4 ? h.xid >> (24 - 8 * k) : 0);
		const ktl::ConstBytes msg(m, fast.value() + 8);
		V1Header d;
		uint32_t dd = 9, ii = 9;
		ASSERT_TRUE(decode_common_msg(msg, vers, DecodeLimits(), &d, &dd, &ii));
		EXPECT_EQ(d.chunks.has_reply, reply_chunk);
		EXPECT_EQ(d.chunks.nwrite, reply_chunk ? 0u : 1u);
		EXPECT_EQ(d.hdr_len, fast.value());
		EXPECT_EQ(d.chunks.segs[0].handle, seg.handle);
		EXPECT_EQ(d.chunks.segs[0].length, seg.length);
		EXPECT_EQ(d.chunks.segs[0].offset, seg.offset);
		if (vers == kRpcRdmaVersion2) {
			EXPECT_EQ(dd, dir);
			EXPECT_EQ(ii, inv);
		}
	}
	const Segment seg{1, 2, 3};
	uint8_t a[128];
	EXPECT_TRUE(encode(1, 3, 1, 0, 0, seg, ktl::Bytes(a, sizeof(a))).is_error());
	EXPECT_TRUE(encode(1, 2, 1, 2, 0, seg, ktl::Bytes(a, sizeof(a))).is_error());
}

TEST(CommonMsg, OneWriteEncoderAsTheGeneralOnes)
{
	one_segment_encoder_as_the_general_ones(false, 4246);
}

TEST(CommonMsg, OneReplyEncoderAsTheGeneralOnes)
{
	one_segment_encoder_as_the_general_ones(true, 4247);
}

} // namespace
