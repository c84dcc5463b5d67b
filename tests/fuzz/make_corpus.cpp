// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the fuzz seed corpora from the specification vectors in
 * core/selftest/vectors.h:  make_corpus <tests/fuzz/corpus>
 * (scripts/host-tests does not run it; the corpus files are committed.)
 */
#include "selftest/vectors.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace rpcrdmax::core::selftest::vec;

namespace {

std::string g_root;

void put(const char *target, const char *name, const std::vector<unsigned char> &b)
{
	std::string path = g_root + "/" + target + "/" + name;
	FILE *f = fopen(path.c_str(), "wb");
	if (!f || fwrite(b.data(), 1, b.size(), f) != b.size()) {
		perror(path.c_str());
		exit(1);
	}
	fclose(f);
}

template <size_t N> std::vector<unsigned char> words(const uint32_t (&w)[N])
{
	std::vector<unsigned char> b;
	for (uint32_t x : w)
		for (int s = 24; s >= 0; s -= 8)
			b.push_back((unsigned char)(x >> s));
	return b;
}

template <size_t N> std::vector<unsigned char> octets(const uint8_t (&o)[N])
{
	return std::vector<unsigned char>(o, o + N);
}

} // namespace

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s <corpus-dir>\n", argv[0]);
		return 2;
	}
	g_root = argv[1];
#define V1(x) put("v1", #x, words(x))
	V1(kV1MsgInline);
	V1(kV1MsgReadChunk);
	V1(kV1NoMsgLongCall);
	V1(kV1MsgWriteReply);
	V1(kV1ErrVers);
	V1(kV1ErrChunk);
	V1(kV1Msgp);
	V1(kV1Done);
	V1(kV1Vers2);
	V1(kV1ReplyNoMsg);
	V1(kV1ReplyMsgWrite);
#define V2(x) put("v2", #x, words(x))
	V2(kV2MsgCall);
	V2(kV2NoMsgReply);
	V2(kV2ErrVers);
	V2(kV2ErrBadXdr);
	V2(kV2ErrInvalidProc);
	V2(kV2ErrReadChunks);
	V2(kV2ErrWriteChunks);
	V2(kV2ErrSegments);
	V2(kV2ErrWriteResource);
	V2(kV2ErrReplyResource);
	V2(kV2ErrInvalidOption);
	V2(kV2ErrSystem);
	V2(kV2Optional);
	V2(kV2ConnProp);
	V2(kV2ReqProp);
	V2(kV2ResProp);
	V2(kV2UpdProp);
#define PD(x) put("privdata", #x, octets(x))
	PD(kPdBasic);
	PD(kPdOffset3);
	PD(kPdBadVersion);
	PD(kPdTruncated);
	PD(kPdReserved);
	PD(kPdSecondCandidate);
	return 0;
}
