// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of message direction (core/v1.h, RFC 8167): a decoded
 * RDMA_MSG carries a Call or a Reply by its RPC msg_type; anything else
 * (RDMA_NOMSG, a short RPC message, another msg_type) is Unknown, and
 * v1_has_chunks() sees each of the three lists.
 */
#include <rpcrdmax/core/v1.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace rpcrdmax::core;

namespace {

/* An RDMA_MSG header followed by an RPC message: xid, msg_type, more. */
struct Msg {
	explicit Msg(uint32_t msg_type, size_t rpc_len = 24)
	{
		h.chunks.clear();
		h.xid = 7;
		h.vers = 1;
		h.proc = V1Proc::Msg;
		rpc.assign(rpc_len, 0);
		if (rpc_len >= 8) {
			rpc[3] = 7;
			rpc[4] = (uint8_t)(msg_type >> 24);
			rpc[5] = (uint8_t)(msg_type >> 16);
			rpc[6] = (uint8_t)(msg_type >> 8);
			rpc[7] = (uint8_t)msg_type;
		}
	}
	MsgDirection dir() const { return v1_msg_direction(h, rpcrdmax::ktl::ConstBytes(rpc.data(), rpc.size())); }
	V1Header h{};
	std::vector<uint8_t> rpc;
};

TEST(Direction, CallAndReply)
{
	EXPECT_EQ(Msg(0).dir(), MsgDirection::Call);
	EXPECT_EQ(Msg(1).dir(), MsgDirection::Reply);
	/* The smallest message that has a msg_type. */
	EXPECT_EQ(Msg(1, 8).dir(), MsgDirection::Reply);
}

TEST(Direction, UnknownWhenItCannotTell)
{
	EXPECT_EQ(Msg(2).dir(), MsgDirection::Unknown);
	EXPECT_EQ(Msg(0x01000000).dir(), MsgDirection::Unknown);
	EXPECT_EQ(Msg(1, 7).dir(), MsgDirection::Unknown);
	EXPECT_EQ(Msg(1, 0).dir(), MsgDirection::Unknown);
	Msg nomsg(1);
	nomsg.h.proc = V1Proc::NoMsg; /* the RPC message is in a chunk */
	EXPECT_EQ(nomsg.dir(), MsgDirection::Unknown);
	Msg err(1);
	err.h.proc = V1Proc::Error;
	EXPECT_EQ(err.dir(), MsgDirection::Unknown);
}

TEST(Direction, HasChunksSeesEachList)
{
	Msg m(1);
	EXPECT_FALSE(v1_has_chunks(m.h));
	Msg r(1);
	ASSERT_EQ(r.h.chunks.add_read_segment(0, Segment{1, 4, 0}), ListError::None);
	EXPECT_TRUE(v1_has_chunks(r.h));
	Msg w(1);
	ASSERT_EQ(w.h.chunks.add_write_chunk(), ListError::None);
	EXPECT_TRUE(v1_has_chunks(w.h));
	Msg p(1);
	ASSERT_EQ(p.h.chunks.set_reply_chunk(), ListError::None);
	EXPECT_TRUE(v1_has_chunks(p.h));
}

} // namespace

namespace {

/* The header of a backward Call decodes as the chunkless RDMA_MSG it is. */
TEST(Direction, InlineMsgHeaderRoundTrips)
{
	uint8_t buf[64] = {};
	auto n = v1_encode_inline_msg(0xabcd, 2, rpcrdmax::ktl::Bytes(buf, sizeof(buf)));
	ASSERT_TRUE(n.is_ok());
	ASSERT_EQ(n.value(), kMinChunkHeaderSize);
	/* An RPC Call after it: xid (the header's), msg_type CALL. */
	rpcrdmax::ktl::store_be32(buf + n.value(), 0xabcd);
	buf[n.value() + 7] = 0;
	V1Header h{};
	ASSERT_EQ(v1_decode_call(rpcrdmax::ktl::ConstBytes(buf, n.value() + 8), DecodeLimits{}, &h),
		  V1Verdict::Ok);
	EXPECT_EQ(h.xid, 0xabcdu);
	EXPECT_EQ(h.credits, 2u);
	EXPECT_EQ(h.proc, V1Proc::Msg);
	EXPECT_FALSE(v1_has_chunks(h));
	EXPECT_EQ(h.hdr_len, kMinChunkHeaderSize);
	/* Too little room: refused, nothing claimed. */
	EXPECT_TRUE(v1_encode_inline_msg(1, 1, rpcrdmax::ktl::Bytes(buf, kMinChunkHeaderSize - 1)).is_error());
}

} // namespace
