// SPDX-License-Identifier: GPL-2.0
/*
 * Host-only version 1 tests: randomized encode/decode round trips of
 * valid headers, and random corruption that must never be accepted as
 * something that re-encodes differently.
 */
/* rpcrdmax headers first: hosted headers define errno and limit macros
 * (EPERM, SIZE_MAX) that collide with ktl names. */
#include <rpcrdmax/core/v1.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

using namespace rpcrdmax::core;
namespace ktl = rpcrdmax::ktl;

namespace {

/* A random valid Call: RDMA_MSG with Read chunks at valid positions, or
 * RDMA_NOMSG with a Position Zero Read chunk; random Write list and
 * Reply chunk; an inline payload for RDMA_MSG. */
void random_call(std::mt19937_64 &rng, V1Header *h, uint32_t *payload)
{
	auto pick = [&](uint32_t n) { return (uint32_t)(rng() % n); };
	ChunkLists &cl = h->chunks;

	h->xid = (uint32_t)rng();
	h->vers = 1;
	h->credits = pick(256);
	h->proc = pick(2) ? V1Proc::NoMsg : V1Proc::Msg;
	cl.clear();
	*payload = h->proc == V1Proc::Msg ? 4 * (1 + pick(64)) : 0;

	uint64_t inline_len = *payload;
	uint64_t pos = 0;
	if (h->proc == V1Proc::NoMsg) {
		uint32_t nseg = 1 + pick(3);
		inline_len = 0;
		for (uint32_t i = 0; i < nseg; i++) {
			uint32_t len = 1 + pick(8192);
			inline_len += len;
			ASSERT_EQ(cl.add_read_segment(0, Segment{(uint32_t)rng(), len, rng() >> 1}),
				  ListError::None);
		}
	}
	uint32_t nread = pick(4);
	uint64_t inline_off = 0;
	for (uint32_t c = 0; c < nread; c++) {
		/* advance within the inline part, then place the chunk */
		inline_off += 4 * pick((uint32_t)((inline_len - inline_off) / 4 + 1));
		uint64_t position = pos + inline_off;
		if (position == 0)
			continue; /* position zero is the Long Call's */
		uint32_t nseg = 1 + pick(3);
		uint64_t clen = 0;
		for (uint32_t i = 0; i < nseg; i++) {
			uint32_t len = pick(20000);
			clen += len;
			ASSERT_EQ(cl.add_read_segment((uint32_t)position,
						      Segment{(uint32_t)rng(), len, rng() >> 1}),
				  ListError::None);
		}
		pos += (clen + 3) & ~3ull;
	}
	uint32_t nwrite = pick(3);
	for (uint32_t c = 0; c < nwrite; c++) {
		ASSERT_EQ(cl.add_write_chunk(), ListError::None);
		for (uint32_t i = 0, n = pick(5); i < n; i++)
			ASSERT_EQ(cl.add_write_segment(Segment{(uint32_t)rng(), (uint32_t)rng(),
							       rng() >> 1}),
				  ListError::None);
	}
	if (pick(2)) {
		ASSERT_EQ(cl.set_reply_chunk(), ListError::None);
		for (uint32_t i = 0, n = pick(5); i < n; i++)
			ASSERT_EQ(cl.add_reply_segment(Segment{(uint32_t)rng(), (uint32_t)rng(),
							       rng() >> 1}),
				  ListError::None);
	}
}

bool same_lists(const ChunkLists &a, const ChunkLists &b)
{
	if (a.nsegs != b.nsegs || a.nread != b.nread || a.nwrite != b.nwrite ||
	    a.has_reply != b.has_reply)
		return false;
	for (uint32_t i = 0; i < a.nsegs; i++)
		if (a.segs[i].handle != b.segs[i].handle || a.segs[i].length != b.segs[i].length ||
		    a.segs[i].offset != b.segs[i].offset)
			return false;
	for (uint32_t i = 0; i < a.nread; i++)
		if (a.read[i].position != b.read[i].position || a.read[i].nsegs != b.read[i].nsegs)
			return false;
	for (uint32_t i = 0; i < a.nwrite; i++)
		if (a.write[i].nsegs != b.write[i].nsegs)
			return false;
	return !a.has_reply || a.reply.nsegs == b.reply.nsegs;
}

TEST(V1Random, EncodeDecodeRoundTrip)
{
	std::mt19937_64 rng(20240601);
	auto h = std::make_unique<V1Header>();
	auto d = std::make_unique<V1Header>();
	std::vector<uint8_t> buf(16384);

	for (int iter = 0; iter < 3000; iter++) {
		uint32_t payload;
		random_call(rng, h.get(), &payload);
		if (HasFatalFailure())
			return;
		auto res = v1_encode(*h, ktl::Bytes(buf.data(), buf.size()));
		ASSERT_TRUE(res.is_ok());
		uint32_t n = res.value();
		ASSERT_EQ(n, v1_encoded_size(*h));
		for (uint32_t i = 0; i < payload; i++)
			buf[n + i] = (uint8_t)rng();
		if (h->proc == V1Proc::Msg && payload >= 4) /* the RPC message's XID */
			ktl::store_be32(buf.data() + n, h->xid);
		V1Verdict v = v1_decode_call(ktl::ConstBytes(buf.data(), n + payload),
					     DecodeLimits{}, d.get());
		ASSERT_EQ(v, V1Verdict::Ok) << v1_verdict_name(v) << " iter " << iter;
		EXPECT_EQ(d->hdr_len, n);
		EXPECT_EQ(d->payload_len, payload);
		EXPECT_EQ(d->xid, h->xid);
		EXPECT_EQ(d->credits, h->credits);
		EXPECT_EQ(d->proc, h->proc);
		EXPECT_TRUE(same_lists(h->chunks, d->chunks)) << "iter " << iter;
	}
}

/* Corrupt valid headers at random: whatever is accepted re-encodes to
 * exactly the received header octets. */
TEST(V1Random, CorruptionNeverMisparses)
{
	std::mt19937_64 rng(77);
	auto h = std::make_unique<V1Header>();
	auto d = std::make_unique<V1Header>();
	std::vector<uint8_t> buf(16384), out(16384);
	int accepted = 0, refused = 0;

	for (int iter = 0; iter < 3000; iter++) {
		uint32_t payload;
		random_call(rng, h.get(), &payload);
		if (HasFatalFailure())
			return;
		uint32_t n = v1_encode(*h, ktl::Bytes(buf.data(), buf.size())).release_value();
		uint32_t len = n + payload;
		for (int k = 0, flips = 1 + (int)(rng() % 4); k < flips; k++) {
			uint32_t at = (uint32_t)(rng() % len);
			buf[at] = (rng() % 2) ? (uint8_t)rng() : (uint8_t)(buf[at] ^ (1u << (rng() % 8)));
		}
		len = (uint32_t)(rng() % 4 == 0 ? rng() % (len + 1) : len);
		std::vector<uint8_t> exact(buf.begin(), buf.begin() + len); /* ASan-exact */
		for (bool call : {true, false}) {
			V1Verdict v = call ? v1_decode_call(ktl::ConstBytes(exact.data(), len),
							    DecodeLimits{}, d.get())
					   : v1_decode_reply(ktl::ConstBytes(exact.data(), len),
							     DecodeLimits{}, d.get());
			if (v != V1Verdict::Ok && v != V1Verdict::ErrorReply &&
			    v != V1Verdict::BadErrorCode) {
				refused++;
				continue;
			}
			accepted++;
			auto res = v1_encode(*d, ktl::Bytes(out.data(), out.size()));
			ASSERT_TRUE(res.is_ok());
			ASSERT_EQ(res.value(), d->hdr_len);
			ASSERT_LE(d->hdr_len, len);
			ASSERT_EQ(memcmp(out.data(), exact.data(), d->hdr_len), 0) << "iter " << iter;
		}
	}
	EXPECT_GT(accepted, 100);
	EXPECT_GT(refused, 100);
}

} // namespace
