// SPDX-License-Identifier: GPL-2.0
/*
 * core/selftest/st_privdata.cpp - RFC 8797 CM Private Data cases.
 */
#include "selftest.h"
#include "vectors.h"
#include <rpcrdmax/core/privdata.h>

namespace rpcrdmax::core::selftest {

namespace privdata_cases {

static bool same(const PrivData &a, const PrivData &b)
{
	return a.send_size == b.send_size && a.recv_size == b.recv_size &&
	       a.remote_inv == b.remote_inv;
}

static void decode_basic(Reporter &r)
{
	PrivData pd;

	ST_EQ(r, pd_decode(ktl::ConstBytes(vec::kPdBasic), &pd), PdVerdict::Found);
	ST_CHECK(r, pd.remote_inv);
	ST_EQ(r, pd.send_size, 8192u);	/* (7 + 1) * 1024 */
	ST_EQ(r, pd.recv_size, 65536u); /* (63 + 1) * 1024 */
}

static void decode_unaligned_offset(Reporter &r)
{
	PrivData pd;

	ST_EQ(r, pd_decode(ktl::ConstBytes(vec::kPdOffset3), &pd), PdVerdict::Found);
	ST_CHECK(r, !pd.remote_inv);
	ST_EQ(r, pd.send_size, 1024u);
	ST_EQ(r, pd.recv_size, 1024u);
	/* every offset works: slide the vector through a 40-octet buffer */
	ktl::Bytes buf = r.bytes(40);
	for (u32 off = 0; off + 8 <= 40; off++) {
		ktl::mem_set(buf.data(), 0x5a, 40);
		ktl::mem_copy(buf.data() + off, vec::kPdBasic, 8);
		ST_EQ(r, pd_decode(buf, &pd), PdVerdict::Found);
		ST_EQ(r, pd.send_size, 8192u);
	}
}

static void invalid_means_defaults(Reporter &r)
{
	PrivData pd;

	ST_EQ(r, pd_decode(ktl::ConstBytes(vec::kPdBadVersion), &pd), PdVerdict::BadVersion);
	ST_CHECK(r, same(pd, kPdDefaults));
	ST_EQ(r, pd_decode(ktl::ConstBytes(vec::kPdTruncated), &pd), PdVerdict::Truncated);
	ST_CHECK(r, same(pd, kPdDefaults));
	ST_EQ(r, pd_decode(ktl::ConstBytes(), &pd), PdVerdict::Absent);
	ST_CHECK(r, same(pd, kPdDefaults));
	ST_EQ(r, pd_decode(ktl::ConstBytes(vec::kPdBasic).first(7), &pd), PdVerdict::Truncated);
	ST_EQ(r, pd_decode(ktl::ConstBytes(vec::kPdBasic).first(3), &pd), PdVerdict::Absent);
	ST_EQ(r, pd_decode(ktl::ConstBytes(vec::kPdBasic).subspan(1), &pd), PdVerdict::Absent);
	ST_EQ(r, kPdDefaults.send_size, 1024u);
	ST_CHECK(r, !kPdDefaults.remote_inv);
	/* truncation at every length of the basic vector */
	for (u32 n = 0; n < 8; n++)
		ST_CHECK(r, pd_decode(ktl::ConstBytes(vec::kPdBasic).first(n), &pd) != PdVerdict::Found);
}

static void reserved_ignored(Reporter &r)
{
	PrivData pd;

	ST_EQ(r, pd_decode(ktl::ConstBytes(vec::kPdReserved), &pd), PdVerdict::Found);
	ST_CHECK(r, !pd.remote_inv);
	ST_EQ(r, pd.send_size, 1024u);
	ST_EQ(r, pd.recv_size, 262144u);
}

static void second_candidate(Reporter &r)
{
	PrivData pd;

	ST_EQ(r, pd_decode(ktl::ConstBytes(vec::kPdSecondCandidate), &pd), PdVerdict::Found);
	ST_CHECK(r, pd.remote_inv);
	ST_EQ(r, pd.send_size, 4096u);
	ST_EQ(r, pd.recv_size, 4096u);
}

static void encode_and_clamp(Reporter &r)
{
	ktl::Bytes out = r.bytes(8);
	PrivData pd;

	auto res = pd_encode(PrivData{8192, 65536, true}, out);
	ST_CHECK(r, res.is_ok() && res.value() == 8);
	ST_EQ(r, ktl::mem_compare(out.data(), vec::kPdBasic, 8), 0);
	ST_CHECK(r, pd_encode(PrivData{8192, 65536, true}, out.first(7)).is_error());

	/* sizes outside 1 KiB..256 KiB are clamped; others round down */
	ST_CHECK(r, pd_encode(PrivData{512, 1u << 20, false}, out).is_ok());
	ST_EQ(r, out[4], 1);
	ST_EQ(r, out[5], 0);
	ST_EQ(r, out[6], 0);
	ST_EQ(r, out[7], 255);
	ST_CHECK(r, pd_encode(PrivData{4096 + 1023, 0, false}, out).is_ok());
	ST_EQ(r, out[6], 3);
	ST_EQ(r, out[7], 0);
	ST_EQ(r, pd_effective_size(0), 1024u);
	ST_EQ(r, pd_effective_size(5000), 4096u);
	ST_EQ(r, pd_effective_size(0xffffffff), 262144u);
	/* what we send decodes to the effective sizes */
	ST_CHECK(r, pd_encode(PrivData{5000, 300000, true}, out).is_ok());
	ST_EQ(r, pd_decode(out, &pd), PdVerdict::Found);
	ST_CHECK(r, same(pd, PrivData{4096, 262144, true}));
}

static void thresholds_and_invalidate(Reporter &r)
{
	const PrivData client{8192, 65536, true};
	const PrivData server{16384, 4096, true};
	InlineThresholds t = pd_thresholds(client, server);

	/* call: min(client send, server recv); reply: min(server send, client recv) */
	ST_EQ(r, t.call, 4096u);
	ST_EQ(r, t.reply, 16384u);
	t = pd_thresholds(client, kPdDefaults);
	ST_EQ(r, t.call, 1024u);
	ST_EQ(r, t.reply, 1024u);
	t = pd_thresholds(PrivData{5000, 9000, false}, PrivData{300000, 300000, false});
	ST_EQ(r, t.call, 4096u);
	ST_EQ(r, t.reply, 8192u);
	ST_CHECK(r, pd_may_send_with_invalidate(client, server));
	ST_CHECK(r, !pd_may_send_with_invalidate(client, kPdDefaults));
	ST_CHECK(r, !pd_may_send_with_invalidate(PrivData{1024, 1024, false}, server));
}

} // namespace privdata_cases

const Case kPrivDataCases[] = {
	{"privdata.decode_basic", privdata_cases::decode_basic},
	{"privdata.decode_unaligned_offset", privdata_cases::decode_unaligned_offset},
	{"privdata.invalid_means_defaults", privdata_cases::invalid_means_defaults},
	{"privdata.reserved_ignored", privdata_cases::reserved_ignored},
	{"privdata.second_candidate", privdata_cases::second_candidate},
	{"privdata.encode_and_clamp", privdata_cases::encode_and_clamp},
	{"privdata.thresholds_and_invalidate", privdata_cases::thresholds_and_invalidate},
};
const u32 kPrivDataCaseCount = sizeof(kPrivDataCases) / sizeof(kPrivDataCases[0]);

} // namespace rpcrdmax::core::selftest
