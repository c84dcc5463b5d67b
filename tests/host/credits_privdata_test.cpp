// SPDX-License-Identifier: GPL-2.0
/*
 * Host-only tests: a randomized requester/responder credit simulation,
 * and exhaustive RFC 8797 size encoding.
 */
/* rpcrdmax headers first: hosted headers define errno and limit macros
 * (EPERM, SIZE_MAX) that collide with ktl names. */
#include <rpcrdmax/core/credits.h>
#include <rpcrdmax/core/privdata.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

using namespace rpcrdmax::core;
namespace ktl = rpcrdmax::ktl;

namespace {

/* Calls and Replies in flight in order; the responder's grant changes
 * at random.  The requester must never exceed the grant it has seen, so
 * the responder never sees more outstanding Calls than it granted. */
TEST(Credits, SimulatedConnection)
{
	std::mt19937_64 rng(99);
	RequesterCredits rq;
	ResponderCredits rs;
	std::deque<uint32_t> replies; /* grant carried by each pending Reply */
	uint32_t server_queue = 0;

	credits_requester_init(&rq, 64);
	credits_responder_init(&rs, 32);
	for (int step = 0; step < 200000; step++) {
		switch (rng() % 3) {
		case 0:
			if (credits_requester_try_send(&rq)) {
				ASSERT_TRUE(credits_responder_receive(&rs)) << "step " << step;
				server_queue++;
			}
			break;
		case 1:
			if (server_queue) {
				server_queue--;
				/* the responder varies what it grants */
				ResponderCredits tmp = rs;
				tmp.max_credits = 1 + (uint32_t)(rng() % 32);
				uint32_t g = credits_responder_reply(&tmp, credits_requester_request(rq));
				rs.outstanding = tmp.outstanding;
				rs.high_grant = tmp.high_grant;
				replies.push_back(g);
			}
			break;
		default:
			if (!replies.empty()) {
				credits_requester_update(&rq, replies.front());
				credits_requester_complete(&rq);
				replies.pop_front();
			}
			break;
		}
		ASSERT_LE(rq.in_flight, 64u);
		ASSERT_GE(rq.granted, 1u);
	}
}

TEST(PrivData, EverySizeEncodesAndDecodes)
{
	uint8_t out[8];
	PrivData pd;

	for (uint32_t v = 0; v < 256; v++) {
		uint32_t bytes = (v + 1) * 1024;
		ASSERT_TRUE(pd_encode(PrivData{bytes, bytes, (v & 1) != 0}, ktl::Bytes(out, 8)).is_ok());
		EXPECT_EQ(out[6], v);
		EXPECT_EQ(out[7], v);
		ASSERT_EQ(pd_decode(ktl::ConstBytes(out, 8), &pd), PdVerdict::Found);
		EXPECT_EQ(pd.send_size, bytes);
		EXPECT_EQ(pd.recv_size, bytes);
		EXPECT_EQ(pd.remote_inv, (bool)(v & 1));
	}
	/* every size in between rounds down, never up */
	for (uint32_t b = 0; b < 300000; b += 7)
		EXPECT_LE(pd_effective_size(b), b < 1024 ? 1024u : b);
}

/* Random buffers with the identifier planted at random offsets. */
TEST(PrivData, RandomBuffers)
{
	std::mt19937_64 rng(5);
	PrivData pd;

	for (int iter = 0; iter < 20000; iter++) {
		std::vector<uint8_t> buf(rng() % 64);
		for (auto &b : buf)
			b = (uint8_t)rng();
		if (buf.size() >= 4 && rng() % 2) {
			size_t at = rng() % (buf.size() - 3);
			ktl::store_be32(buf.data() + at, kPdFormatId);
		}
		PdVerdict v = pd_decode(ktl::ConstBytes(buf.data(), buf.size()), &pd);
		if (v != PdVerdict::Found) {
			EXPECT_EQ(pd.send_size, 1024u);
			EXPECT_EQ(pd.recv_size, 1024u);
			EXPECT_FALSE(pd.remote_inv);
		} else {
			EXPECT_EQ(pd.send_size % 1024, 0u);
			EXPECT_GE(pd.send_size, 1024u);
			EXPECT_LE(pd.recv_size, 262144u);
		}
	}
}

} // namespace
