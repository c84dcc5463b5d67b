// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: RFC 8797 Private Data search and decode.  When
 * Private Data is found, re-encoding what was decoded must reproduce
 * eight octets present in the input (reserved bits aside, which
 * receivers ignore); otherwise the version 1 defaults must be reported.
 */
#include <rpcrdmax/core/privdata.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace rpcrdmax::core;
namespace ktl = rpcrdmax::ktl;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	PrivData pd;
	uint8_t enc[8];
	PdVerdict v = pd_decode(ktl::ConstBytes(data, size), &pd);

	if (v != PdVerdict::Found) {
		if (pd.send_size != 1024 || pd.recv_size != 1024 || pd.remote_inv)
			abort();
		return 0;
	}
	if (pd_encode(pd, ktl::Bytes(enc, sizeof(enc))).is_error())
		abort();
	for (size_t i = 0; i + 8 <= size; i++) {
		if (memcmp(data + i, enc, 5) == 0 && (data[i + 5] & 1) == enc[5] &&
		    data[i + 6] == enc[6] && data[i + 7] == enc[7])
			return 0;
	}
	abort();
}
