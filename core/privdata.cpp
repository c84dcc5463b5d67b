// SPDX-License-Identifier: GPL-2.0
/*
 * core/privdata.cpp - RFC 8797 CM Private Data.
 *
 * The search for the Format Identifier looks at every byte offset: the
 * RFC places no alignment on it (Section 5.2), and other layers (MPAv2,
 * for one) may put their own data first.  Each candidate is checked for
 * a recognised version and for its 8 octets fitting in the buffer.
 */
#include <rpcrdmax/core/privdata.h>
#include <rpcrdmax/ktl/utility.h>
#include <rpcrdmax/ktl/xdr.h>

namespace rpcrdmax::core {

namespace privdata_impl {

static u8 encode_size(u32 bytes)
{
	return (u8)(pd_effective_size(bytes) / 1024 - 1);
}

static u32 decode_size(u8 v)
{
	return ((u32)v + 1) * 1024;
}

} // namespace privdata_impl

u32 pd_effective_size(u32 bytes)
{
	u32 b = ktl::clamp(bytes, kPdMinInline, kPdMaxInline);

	return b & ~(u32)1023;
}

ktl::Result<u32> pd_encode(const PrivData &ours, ktl::Bytes out)
{
	u8 *p = out.data();

	if (out.size() < kPdSize)
		return ktl::error(ktl::err::EMSGSIZE);
	ktl::store_be32(p, kPdFormatId);
	p[4] = kPdVersion;
	p[5] = ours.remote_inv ? kPdRemoteInvalidate : 0;
	p[6] = privdata_impl::encode_size(ours.send_size);
	p[7] = privdata_impl::encode_size(ours.recv_size);
	return kPdSize;
}

PdVerdict pd_decode(ktl::ConstBytes buf, PrivData *out)
{
	PdVerdict first = PdVerdict::Absent;
	const u8 *p = buf.data();
	size_t n = buf.size();

	*out = kPdDefaults;
	for (size_t i = 0; n >= 4 && i <= n - 4; i++) {
		if (ktl::load_be32(p + i) != kPdFormatId)
			continue;
		if (n - i < kPdSize) {
			if (first == PdVerdict::Absent)
				first = PdVerdict::Truncated;
			continue;
		}
		if (p[i + 4] != kPdVersion) {
			if (first == PdVerdict::Absent)
				first = PdVerdict::BadVersion;
			continue;
		}
		out->remote_inv = (p[i + 5] & kPdRemoteInvalidate) != 0;
		out->send_size = privdata_impl::decode_size(p[i + 6]);
		out->recv_size = privdata_impl::decode_size(p[i + 7]);
		return PdVerdict::Found;
	}
	return first;
}

InlineThresholds pd_thresholds(const PrivData &client, const PrivData &server)
{
	/* Both sides must agree, so use what each advertised. */
	return InlineThresholds{
		ktl::min(pd_effective_size(client.send_size),
			 pd_effective_size(server.recv_size)),
		ktl::min(pd_effective_size(server.send_size),
			 pd_effective_size(client.recv_size)),
	};
}

u32 pd_responder_send_size(u32 configured, bool peer_found, const PrivData &peer)
{
	constexpr u32 kFloor = 4096;
	const u32 want = peer_found ? ktl::min(configured, pd_effective_size(peer.recv_size))
				    : kFloor;

	return ktl::max(want, kFloor);
}

bool pd_may_send_with_invalidate(const PrivData &ours, const PrivData &peer)
{
	return ours.remote_inv && peer.remote_inv;
}

} // namespace rpcrdmax::core
