// SPDX-License-Identifier: GPL-2.0
/*
 * Host-only tests: randomized requester/responder credit simulations
 * (with and without dropped Calls),
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

/*
 * One connection's Calls and Replies, in order, at random for 200000
 * steps.  The requester never exceeds the grant it has seen, so the
 * responder must never see an overrun, and its count of outstanding
 * Calls must match the Calls it holds.  @drop_one_in > 0: the responder
 * drops that share of Calls without a Reply (nfsd's choice); the
 * requester keeps their credits and, after its timer, sends them again
 * on the same credits.  @vary_grant: each Reply grants a random amount.
 * Returns the number of drops.
 */
uint32_t simulate(uint64_t seed, uint32_t drop_one_in, bool vary_grant)
{
	std::mt19937_64 rng(seed);
	RequesterCredits rq;
	ResponderCredits rs;
	std::deque<uint32_t> replies; /* grant carried by each pending Reply */
	uint32_t server_queue = 0, awaiting_resend = 0, drops = 0;

	credits_requester_init(&rq, 64);
	credits_responder_init(&rs, 32);
	for (int step = 0; step < 200000; step++) {
		switch (rng() % 4) {
		case 0:
			if (credits_requester_try_send(&rq)) {
				EXPECT_TRUE(credits_responder_receive(&rs)) << "step " << step;
				server_queue++;
			}
			break;
		case 1:
			if (!server_queue)
				break;
			server_queue--;
			if (drop_one_in && rng() % drop_one_in == 0) {
				credits_responder_drop(&rs);
				awaiting_resend++;
				drops++;
				break;
			}
			if (vary_grant)
				rs.max_credits = 1 + (uint32_t)(rng() % 32);
			replies.push_back(credits_responder_reply(&rs, credits_requester_request(rq)));
			break;
		case 2:
			if (awaiting_resend) { /* the requester's timer: same credit */
				awaiting_resend--;
				EXPECT_TRUE(credits_responder_receive(&rs)) << "resend, step " << step;
				server_queue++;
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
		EXPECT_LE(rq.in_flight, 64u);
		EXPECT_GE(rq.granted, 1u);
		EXPECT_EQ(rs.outstanding, server_queue);
		if (::testing::Test::HasFailure())
			break;
	}
	return drops;
}

TEST(Credits, SimulatedConnection)
{
	simulate(99, 0, true);
}

/* Without credits_responder_drop() every dropped Call would stay
 * outstanding, and a well-behaved requester would look like an overrun. */
TEST(Credits, DroppedCallsGiveTheirCreditBack)
{
	EXPECT_GT(simulate(7, 5, false), 1000u);
	simulate(11, 3, true);
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

/* The server's Send size: max_req_size, within what the client said it
 * receives, never below 4096; a client without Private Data keeps 4096. */
TEST(PrivData, ResponderSendSize)
{
	const PrivData c4k{4096, 4096, true}, c8k{8192, 8192, true}, c1k{1024, 1024, false};

	EXPECT_EQ(pd_responder_send_size(4096, true, c4k), 4096u);
	EXPECT_EQ(pd_responder_send_size(4096, true, c8k), 4096u);
	EXPECT_EQ(pd_responder_send_size(8192, true, c8k), 8192u);
	EXPECT_EQ(pd_responder_send_size(16384, true, c8k), 8192u);
	EXPECT_EQ(pd_responder_send_size(8192, true, c4k), 4096u);
	EXPECT_EQ(pd_responder_send_size(8192, true, c1k), 4096u);
	EXPECT_EQ(pd_responder_send_size(65536, false, kPdDefaults), 4096u);
	/* a size between the 1 KiB steps counts as what the client decodes */
	EXPECT_EQ(pd_responder_send_size(65536, true, PrivData{8192, 9000, true}), 8192u);
	EXPECT_EQ(pd_responder_send_size(65536, true, PrivData{8192, 1u << 20, true}), 65536u);
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
