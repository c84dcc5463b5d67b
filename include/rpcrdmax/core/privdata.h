/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/privdata.h - RPC-over-RDMA version 1 CM Private Data (RFC 8797).
 *
 * Eight octets exchanged during connection establishment:
 *
 *	octets 0-3  Format Identifier 0xf6ab0e18 (network byte order)
 *	octet  4    Version (1)
 *	octet  5    Reserved (7 bits, sent as zero, ignored) | R (low bit)
 *	octet  6    Send Size    encoded as bytes / 1024 - 1
 *	octet  7    Receive Size encoded as bytes / 1024 - 1
 *
 * A peer's Private Data may sit at any byte offset of the buffer the CM
 * hands us (RFC 8797 Section 5.2).  When it is absent or fails the
 * checks, the peer is taken to use the version 1 defaults: 1024-octet
 * inline thresholds and no remote invalidation (Section 5.1).
 */
#pragma once

#include <rpcrdmax/core/wire.h>

namespace rpcrdmax::core {

inline constexpr u32 kPdFormatId = 0xf6ab0e18;
inline constexpr u8 kPdVersion = 1;
inline constexpr u32 kPdSize = 8;
inline constexpr u32 kPdMinInline = 1024;	 /* RFC 8166 Section 3.3.3 */
inline constexpr u32 kPdMaxInline = 256 * 1024; /* (255 + 1) * 1024 */
inline constexpr u8 kPdRemoteInvalidate = 0x01;	 /* R bit in octet 5 */

/* One peer's advertised properties, in octets. */
struct PrivData {
	u32 send_size;	    /* largest Send this peer will transmit */
	u32 recv_size;	    /* largest Receive this peer accepts */
	bool remote_inv;    /* R: peer supports remote invalidation */
};

/* The values a peer without (valid) Private Data is assumed to have. */
inline constexpr PrivData kPdDefaults = {kPdMinInline, kPdMinInline, false};

enum class PdVerdict : u8 {
	Found,	       /* valid Private Data decoded */
	Absent,	       /* no Format Identifier anywhere in the buffer */
	BadVersion,    /* identifier found, but Version is not 1 */
	Truncated,     /* identifier found, but the 8 octets overrun the buffer */
};

/* Clamp to 1 KiB..256 KiB and round down to a multiple of 1 KiB: the
 * value a peer will decode from what pd_encode() sends for @bytes. */
u32 pd_effective_size(u32 bytes);

/*
 * Encode our Private Data into the first 8 octets of @out.  Returns 8,
 * or -EMSGSIZE when @out is shorter.
 */
ktl::Result<u32> pd_encode(const PrivData &ours, ktl::Bytes out);

/*
 * Decode a peer's Private Data from @buf.  The first occurrence of the
 * Format Identifier that passes the checks wins; candidates that fail
 * them are skipped.  @out is always written: with the peer's values on
 * Found, with kPdDefaults otherwise.  The verdict reports the first
 * failed candidate when none passed, so it can be traced.
 */
PdVerdict pd_decode(ktl::ConstBytes buf, PrivData *out);

/*
 * Inline thresholds of a connection (RFC 8797 Section 4.2).  The call
 * (client-to-server) threshold is the smaller of the client's Send Size
 * and the server's Receive Size; the reply (server-to-client) threshold
 * the smaller of the server's Send Size and the client's Receive Size.
 * Each side passes its own values and the peer's decoded (or default)
 * values; every size goes through pd_effective_size() first, so both
 * sides compute the same pair from what was advertised.
 */
struct InlineThresholds {
	u32 call;   /* requester -> responder */
	u32 reply;  /* responder -> requester */
};
InlineThresholds pd_thresholds(const PrivData &client, const PrivData &server);

/*
 * The size of a responder's Send buffers, which bounds its inline
 * Replies: @configured (its largest inline message, as the stock server
 * sizes its Send buffers by max_req_size), but no more than the
 * requester's Receive Size when it sent Private Data (RFC 8797 Section
 * 4.2: the reply threshold is the smaller of the two, so a larger
 * buffer would never fill), and 4096 octets when it sent none or either
 * is smaller: the size these buffers always had, which also carries
 * backward Calls and the Version Two control messages.
 */
u32 pd_responder_send_size(u32 configured, bool peer_found, const PrivData &peer);

/*
 * Whether the responder may use Send With Invalidate (RFC 8797 Section
 * 4.1): only when both peers set R.  Also requires our own device to
 * support it, which the caller knows.
 */
bool pd_may_send_with_invalidate(const PrivData &ours, const PrivData &peer);

} // namespace rpcrdmax::core
