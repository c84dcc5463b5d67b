// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the hostile peer's randomized corpus (tools/hostile/
 * corpus.h): the generator is reproducible and covers what it claims, the
 * oracle allows what the fixed cases' table (cases.h) allows, and the protocol
 * core's responder verdict for every corpus message is one the oracle
 * allows (the core and the oracle are written apart, so this can fail).
 */
/* rpcrdmax headers first: hosted headers define errno and limit macros
 * (EPERM, SIZE_MAX) that collide with ktl names. */
#include <rpcrdmax/core/v1.h>

#include "cases.h"
#include "corpus.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace core = rpcrdmax::core;
namespace ktl = rpcrdmax::ktl;
using namespace hostile;

namespace {

constexpr uint32_t kRkey = 0x1234;
constexpr uint64_t kAddr = 0x7f0000010000ull;
constexpr uint32_t kArea = 64 * 1024;
constexpr uint32_t kXid = 0x48500001;

struct Fixture {
	std::vector<uint8_t> area = std::vector<uint8_t>(kArea, 0x5a);
	Peer peer() { return Peer{kAddr, kRkey, kArea, 4096, area.data()}; }
};

W hdr(uint32_t vers = 1, uint32_t proc = 0)
{
	W w;
	w.u32(kXid).u32(vers).u32(8).u32(proc);
	return w;
}

unsigned allowed(const Bytes &m)
{
	Fixture f;
	return judge(m, f.peer()).allowed;
}

/* The oracle (corpus.cpp) and the fixed cases' table (cases.cpp) are
 * written apart: on each fixed case's octets the oracle must allow exactly
 * the outcomes the table allows. */
TEST(CorpusOracle, AgreesWithTheFixedCasesTable)
{
	Fixture f;
	Peer p = f.peer();
	Ctx ctx{kXid, p.area_addr, p.rkey, p.threshold};
	ASSERT_GT(kCaseCount, 40u);
	for (size_t i = 0; i < kCaseCount; i++) {
		const Case &k = kCases[i];
		Judgement j = judge(k.build(ctx), p);
		EXPECT_EQ(outcome_names(j.allowed), outcome_names(k.allowed))
			<< k.name << " (oracle: " << j.rule << ")";
	}
}

/* Messages the table has no case for. */
TEST(CorpusOracle, JudgesValidCallsAndUnusedChunks)
{
	Bytes call = rpc_null_call(kXid);
	/* a valid NULL Call must be processed */
	EXPECT_EQ(allowed(hdr().u32(0).u32(0).u32(0).raw(call).b), (unsigned)O_REPLY);
	/* a bad Write chunk is never written for a NULL */
	EXPECT_EQ(allowed(hdr().u32(0).u32(1).u32(1).seg(0, 64, 0).u32(0).u32(0).raw(call).b),
		  (unsigned)O_REPLY);
}

TEST(CorpusOracle, RebuildsTheRpcMessageFromReadChunks)
{
	Fixture f;
	Bytes call = rpc_null_call(kXid);
	/* RDMA_NOMSG: the whole Call in the Position Zero chunk */
	std::copy(call.begin(), call.end(), f.area.begin() + 128);
	Bytes nomsg = hdr(1, 1).rseg(0, kRkey, 40, kAddr + 128).u32(0).u32(0).u32(0).b;
	Judgement j = judge(nomsg, f.peer());
	EXPECT_EQ(j.allowed, (unsigned)O_REPLY) << j.rule;
	EXPECT_TRUE(j.exact_null);
	/* RDMA_MSG, octets 32..40 in a Read chunk at position 32 */
	Bytes split = hdr().rseg(32, kRkey, 8, kAddr + 128 + 32).u32(0).u32(0).u32(0)
			      .raw(Bytes(call.begin(), call.begin() + 32)).b;
	j = judge(split, f.peer());
	EXPECT_EQ(j.allowed, (unsigned)(O_REPLY | O_ERRCHUNK)) << j.rule;
	EXPECT_TRUE(j.exact_null);
	/* an empty Position Zero chunk (one zero-length segment): no RPC
	 * message at all, as for RDMA_NOMSG without one (make fuzz-server
	 * seed 7 found the oracle calling it a garbled message) */
	j = judge(hdr(1, 1).rseg(0, kRkey, 0, kAddr).u32(0).u32(0).u32(0).b, f.peer());
	EXPECT_EQ(j.allowed, (unsigned)(O_ERRCHUNK | O_DROP)) << j.rule;
	/* the chunk's octets wrong: a garbled RPC message */
	f.area[128 + 39] ^= 1;
	j = judge(split, f.peer());
	EXPECT_FALSE(j.exact_null);
	EXPECT_EQ(j.allowed, (unsigned)(O_REPLY | O_DROP | O_CLOSED)) << j.rule;
}

TEST(CorpusGenerator, SameSeedAndIndexSameMessage)
{
	Fixture a, b;
	for (uint64_t i = 0; i < 500; i++) {
		Mutant x = corpus_message(42, i, kXid, a.peer());
		Mutant y = corpus_message(42, i, kXid, b.peer());
		ASSERT_EQ(x.msg, y.msg) << i;
		ASSERT_EQ(x.what, y.what) << i;
		ASSERT_EQ(x.j.allowed, y.j.allowed) << i;
	}
	EXPECT_NE(corpus_message(42, 7, kXid, a.peer()).msg, corpus_message(43, 7, kXid, a.peer()).msg);
	std::string w1, w2;
	EXPECT_EQ(corpus_private_data(5, 3, &w1), corpus_private_data(5, 3, &w2));
	EXPECT_EQ(w1, w2);
}

/* The fixed seed make check runs (scripts/guest/hostile-client.sh)
 * exercises every mutation and every kind of verdict. */
TEST(CorpusGenerator, CoversEveryMutationAndVerdict)
{
	Fixture f;
	std::set<std::string> muts;
	std::map<unsigned, int> verdicts;
	int exact = 0;
	for (uint64_t i = 0; i < 2000; i++) {
		Mutant m = corpus_message(1, i, kXid + (uint32_t)i, f.peer());
		for (auto &n : corpus_mutation_names())
			if (m.what.find(" +" + n) != std::string::npos)
				muts.insert(n);
		verdicts[m.j.allowed]++;
		exact += m.j.exact_null;
	}
	for (auto &n : corpus_mutation_names())
		EXPECT_TRUE(muts.count(n)) << "mutation never applied: " << n;
	for (unsigned v : {(unsigned)O_ERRVERS, (unsigned)O_ERRCHUNK, (unsigned)O_DROP,
			   (unsigned)O_REPLY, (unsigned)kFault, (unsigned)(O_ERRCHUNK | O_DROP),
			   (unsigned)(O_REPLY | O_DROP | O_CLOSED), kAny})
		EXPECT_GT(verdicts[v], 0) << "no message judged " << outcome_names(v);
	EXPECT_GT(exact, 50);
	std::set<std::string> pds;
	for (uint64_t n = 0; n < 200; n++) {
		std::string w;
		corpus_private_data(1, n, &w);
		pds.insert(w.substr(0, w.find_first_of("0123456789")));
	}
	EXPECT_GE(pds.size(), 7u);
}

/* The core's version 1 responder verdict (what rpcrdmax's server does
 * first with a received message not of version 2) against the oracle,
 * message by message. */
TEST(CorpusOracle, CoreResponderVerdictIsAlwaysAllowed)
{
	static core::V1Header h;
	core::DecodeLimits lim;
	int checked = 0;
	for (uint64_t seed : {1ull, 2ull, 3ull, 20491ull}) {
		Fixture f;
		for (uint64_t i = 0; i < 5000; i++) {
			Mutant m = corpus_message(seed, i, kXid + (uint32_t)i, f.peer());
			if (m.j.allowed == kAny)
				continue;
			/* rdma_vers 2 goes to the version 2 decoder
			 * (recvfrom.cpp), judged by the e2e corpus run */
			if (m.msg.size() >= 8 && ktl::load_be32(m.msg.data() + 4) == 2)
				continue;
			core::V1Verdict v = core::v1_decode_call(
				ktl::ConstBytes(m.msg.data(), m.msg.size()), lim, &h);
			unsigned want;
			switch (core::v1_responder_action(v)) {
			case core::ResponderAction::Process:
				want = O_REPLY | O_DROP | O_CLOSED;
				/* a Long Call's XID is checked once its chunk is
				 * pulled (svcrdma/recvfrom.cpp, build_arg) */
				if (h.proc == core::V1Proc::NoMsg)
					want |= O_ERRCHUNK;
				break;
			case core::ResponderAction::ReplyErrVers:
				want = O_ERRVERS;
				break;
			case core::ResponderAction::ReplyErrChunk:
				want = O_ERRCHUNK;
				break;
			default:
				want = O_DROP;
				break;
			}
			/* svcrdma discards a backward Reply whose XIDs differ
			 * (recvfrom.cpp, decode_v1): errors in a Reply's header */
			if (v == core::V1Verdict::XidMismatch &&
			    core::v1_msg_direction(h, ktl::ConstBytes(m.msg.data() + h.hdr_len,
								      m.msg.size() - h.hdr_len)) ==
				    core::MsgDirection::Reply)
				want = O_DROP;
			EXPECT_TRUE(want & m.j.allowed)
				<< "seed " << seed << " message " << i << " (" << m.what << "): core "
				<< core::v1_verdict_name(v) << ", oracle allows "
				<< outcome_names(m.j.allowed) << ": " << m.j.rule;
			checked++;
		}
	}
	EXPECT_GT(checked, 15000);
}

} // namespace
