// SPDX-License-Identifier: GPL-2.0
/*
 * decode_chunkless_msg(), the decoders' shortcut for messages without
 * chunks, against the full decoders: for chunkless messages and for
 * every one-word change of them (version, procedure, a list word, the
 * RPC XID, rdma_direction, the length), each public decoder gives the
 * verdict and header its full decoder gives.
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

/* A chunkless RDMA_MSG / RDMA2_MSG and an RPC message of @rpc octets
 * starting with the XID and msg_type @dir. */
std::vector<uint8_t> chunkless(uint32_t vers, uint32_t xid, uint32_t dir, size_t rpc)
{
	const size_t hdr = vers == 2 ? 36 : 28;
	std::vector<uint8_t> b(hdr + rpc, 0);
	put32(b, 0, xid);
	put32(b, 4, vers);
	put32(b, 8, 32);
	put32(b, 12, 0);
	if (vers == 2) {
		put32(b, 16, dir);
		put32(b, 20, 0x1234);
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
	EXPECT_EQ(a.err, b.err) << what;
	EXPECT_EQ(a.vers_low, b.vers_low) << what;
	EXPECT_EQ(a.vers_high, b.vers_high) << what;
}

int shortcut_taken;

void compare_all(const std::vector<uint8_t> &b)
{
	const ktl::ConstBytes raw(b.data(), b.size());
	V1Header h1, h2;
	uint32_t d1 = 7, d2 = 7, i1 = 7, i2 = 7;

	if (decode_chunkless_msg(raw, kRpcRdmaVersion1, &h1, &d1, &i1) ||
	    decode_chunkless_msg(raw, kRpcRdmaVersion2, &h1, &d1, &i1))
		shortcut_taken++;
	d1 = d2 = i1 = i2 = 7;

	ASSERT_EQ(v1_decode_call(raw, DecodeLimits(), &h1), v1_decode_call_full(raw, DecodeLimits(), &h2));
	expect_same(h1, h2, "v1 call");
	ASSERT_EQ(v1_decode_reply(raw, DecodeLimits(), &h1), v1_decode_reply_full(raw, DecodeLimits(), &h2));
	expect_same(h1, h2, "v1 reply");
	const V2Verdict v = v2_decode_msg(raw, DecodeLimits(), &h1, &d1, &i1);
	ASSERT_EQ(v, v2_decode_msg_full(raw, DecodeLimits(), &h2, &d2, &i2));
	expect_same(h1, h2, "v2");
	if (v == V2Verdict::Ok) {
		EXPECT_EQ(d1, d2);
		EXPECT_EQ(i1, i2);
	}
}

TEST(Chunkless, ShortcutDecodesAsTheFullDecoders)
{
	std::mt19937 rng(4244);
	const uint32_t words[] = {0, 1, 2, 3, 4, 0xffffffff, 0xabcd, 32};

	for (uint32_t vers : {1u, 2u}) {
		for (uint32_t dir : {0u, 1u}) {
			for (size_t rpc : {0, 3, 4, 8, 100}) {
				const std::vector<uint8_t> base = chunkless(vers, 0xabcd, dir, rpc);
				compare_all(base);
				/* every word of the header and the RPC XID, to each value */
				for (size_t at = 0; at + 4 <= base.size() && at < 48; at += 4) {
					for (uint32_t w : words) {
						std::vector<uint8_t> m = base;
						put32(m, at, w);
						compare_all(m);
					}
				}
				/* every length up to the header and a word past it */
				for (size_t len = 0; len < base.size() && len < 48; len++)
					compare_all(std::vector<uint8_t>(base.begin(), base.begin() + len));
				/* random octets anywhere in the first 48 */
				for (int i = 0; i < 500; i++) {
					std::vector<uint8_t> m = base;
					m[rng() % std::min<size_t>(48, m.size())] = (uint8_t)rng();
					compare_all(m);
				}
			}
		}
	}
	EXPECT_GT(shortcut_taken, 100);
}

} // namespace
