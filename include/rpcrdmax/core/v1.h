/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/v1.h - the RPC-over-RDMA version 1 transport header.
 *
 * RFC 8166 Section 4.1 gives the XDR (RFC 5666 Section 4.3 is the
 * original):
 *
 *	xid, vers, credit, proc, then by proc:
 *	  RDMA_MSG / RDMA_NOMSG: Read list, Write list, Reply chunk
 *	  RDMA_ERROR:            err, and for ERR_VERS the low/high versions
 *	  RDMA_MSGP, RDMA_DONE:  RFC 5666 only; RFC 8166 Section 4.6 retires
 *
 * Two decoders read a received header, one per role, because the checks
 * and the consequences differ:
 *
 *  v1_decode_call()  - a responder reading a Call.  The verdict maps
 *                      (v1_responder_action) to what the responder owes:
 *                      process it, send RDMA_ERROR/ERR_VERS, send
 *                      RDMA_ERROR/ERR_CHUNK, or drop it silently.
 *  v1_decode_reply() - a requester reading a Reply, including RDMA_ERROR
 *                      bodies.  v1_requester_action() says whether to
 *                      complete the RPC, fail it with the error, or drop.
 *
 * Both are bounded by the received length and limits, never allocate,
 * and write into a caller-provided V1Header.
 */
#pragma once

#include <rpcrdmax/core/wire.h>
#include <rpcrdmax/ktl/result.h>

namespace rpcrdmax::core {

inline constexpr u32 kRpcRdmaVersion1 = 1;
/* The minimal header: rdma_xid, rdma_vers, rdma_credit, rdma_proc and
 * three empty chunk lists.  A Call shorter than this is discarded
 * unparsed: its XID cannot be trusted (RFC 8166 Section 4.5). */
inline constexpr u32 kV1MinHeaderLen = 28;
/* The range we report in ERR_VERS (RFC 8166 Section 4.5.1). */
inline constexpr u32 kV1VersLow = 1;
inline constexpr u32 kV1VersHigh = 1;

/* enum rdma_proc (RFC 8166 Section 4.1; RFC 5666 Section 4.3). */
enum class V1Proc : u32 {
	Msg = 0,
	NoMsg = 1,
	MsgP = 2,  /* RFC 5666 only */
	Done = 3,  /* RFC 5666 only */
	Error = 4,
};

/* enum rpc_rdma_errcode. */
enum class V1ErrCode : u32 {
	Vers = 1,
	Chunk = 2,
};

/*
 * Verdict of a decode.  Each value names one precise reason; the
 * *_action() functions below turn it into what the receiver does.
 */
enum class V1Verdict : u8 {
	Ok,		   /* RDMA_MSG or RDMA_NOMSG parsed */
	ErrorReply,	   /* requester: an RDMA_ERROR was parsed (see err) */
	TooShort,	   /* a Call under kV1MinHeaderLen, a Reply under the
			    * 16 fixed octets: discarded unanswered */
	VersionMismatch,   /* rdma_vers is not 1 */
	UnknownProc,	   /* rdma_proc beyond RDMA_ERROR */
	ObsoleteMsgp,	   /* RDMA_MSGP (RFC 8166 Section 4.6.1) */
	ObsoleteDone,	   /* RDMA_DONE (RFC 8166 Section 4.6.2) */
	UnexpectedError,   /* responder: an RDMA_ERROR arrived as a Call */
	Truncated,	   /* header runs past the received octets */
	BadDiscriminator,  /* optional-data word not 0 or 1 */
	TooManyReadChunks,
	TooManyWriteChunks,
	TooManySegments,
	SegmentWraps,	   /* segment offset + length overflows */
	MisalignedPosition,/* Read chunk position not a multiple of 4 */
	OverlappingChunks, /* Read chunks out of order or overlapping */
	PositionBeyondMessage,
	NoMessage,	   /* RDMA_MSG with no RPC message after the header */
	XidMismatch,	   /* the RPC message's XID is not rdma_xid (Section 4.5.2) */
	MissingCallChunk,  /* RDMA_NOMSG Call without a Position Zero Read chunk */
	CallChunkInMsg,	   /* RDMA_MSG with a Position Zero Read chunk */
	ReadListInReply,   /* requester: Replies carry no Read chunks */
	MissingReplyChunk, /* requester: RDMA_NOMSG Reply without Reply chunk */
	BadErrorCode,	   /* requester: RDMA_ERROR with an unknown rdma_err */
};

/* What a responder owes the sender of a Call (RFC 8166 Section 4.5). */
enum class ResponderAction : u8 {
	Process,	/* hand the RPC to the server */
	ReplyErrVers,	/* send RDMA_ERROR / ERR_VERS with kV1VersLow..High */
	ReplyErrChunk,	/* send RDMA_ERROR / ERR_CHUNK */
	Drop,		/* discard silently; repost the receive */
};

/* What a requester does with a received Reply. */
enum class RequesterAction : u8 {
	Complete,	/* match the XID and complete the RPC */
	FailRpc,	/* RDMA_ERROR: fail the RPC with this XID (-EIO class) */
	Drop,		/* malformed: count it, discard; the RPC will retransmit */
};

/*
 * RFC 8166 Section 4.5.2: the RPC message that accompanies a header
 * begins with its XID, which must be the header's rdma_xid (one shorter
 * than an XID does not carry it either).  @msg: the RPC message, or its
 * first octets.  Version Two's messages follow the same rule.
 */
inline bool rpc_xid_matches(ktl::ConstBytes msg, u32 xid)
{
	return msg.size() >= 4 && ktl::load_be32(msg.data()) == xid;
}

ResponderAction v1_responder_action(V1Verdict v);
RequesterAction v1_requester_action(V1Verdict v);
/* A short stable name for tracepoints and test messages. */
const char *v1_verdict_name(V1Verdict v);

/*
 * A parsed (or to-be-encoded) version 1 header.  Fields below @proc are
 * meaningful only for the procedure they belong to.
 */
struct V1Header {
	u32 xid;
	u32 vers;
	u32 credits;
	V1Proc proc;

	/* RDMA_MSG, RDMA_NOMSG */
	ChunkLists chunks;

	/* RDMA_ERROR */
	u32 err;	/* rpc_rdma_errcode as received */
	u32 vers_low;	/* ERR_VERS only */
	u32 vers_high;

	/* Filled by the decoders: octets of transport header, and of the
	 * RPC message that follows it in the receive buffer (RDMA_MSG). */
	u32 hdr_len;
	u32 payload_len;

	/* Every field zeroed and the lists emptied, without clearing the
	 * segment storage behind them (about 4 KiB nobody reads). */
	void reset();
};

/* Decode a received Call (responder side).  @hdr is always written. */
V1Verdict v1_decode_call(ktl::ConstBytes buf, const DecodeLimits &lim, V1Header *hdr);

/* Decode a received Reply (requester side).  @hdr is always written. */
V1Verdict v1_decode_reply(ktl::ConstBytes buf, const DecodeLimits &lim, V1Header *hdr);

/* The two without their decode_common_msg() (core/v2.h) shortcut:
 * host tests check the shortcut against them. */
V1Verdict v1_decode_call_full(ktl::ConstBytes buf, const DecodeLimits &lim, V1Header *hdr);
V1Verdict v1_decode_reply_full(ktl::ConstBytes buf, const DecodeLimits &lim, V1Header *hdr);

/* Octets v1_encode() will produce for @hdr. */
u32 v1_encoded_size(const V1Header &hdr);

/*
 * Encode @hdr into @out.  Returns the octet count, -EMSGSIZE when @out is
 * too small, or -EINVAL for a procedure this side never sends (RDMA_MSGP,
 * RDMA_DONE, unknown).  For RDMA_ERROR, only @err (and the version range
 * for ERR_VERS) are written.
 */
ktl::Result<u32> v1_encode(const V1Header &hdr, ktl::Bytes out);

/* RDMA_ERROR / ERR_VERS answering @xid, advertising kV1VersLow..High,
 * with rdma_vers @vers: the failing Call's (RFC 8166 Section 4.5). */
ktl::Result<u32> v1_encode_err_vers(u32 xid, u32 vers, u32 credits, ktl::Bytes out);
/* RDMA_ERROR / ERR_CHUNK answering @xid. */
ktl::Result<u32> v1_encode_err_chunk(u32 xid, u32 credits, ktl::Bytes out);

/*
 * Which way the RPC message of a decoded RDMA_MSG goes: RFC 8167 tells
 * a backward-direction message from a forward one on the same
 * connection by the RPC header alone, its msg_type (RFC 5531 Section 9),
 * the word after the RPC XID.  A requester that receives a CALL, or a
 * responder that receives a REPLY, has a backward-direction message.
 */
enum class MsgDirection : u8 {
	Call,	 /* msg_type CALL */
	Reply,	 /* msg_type REPLY */
	Unknown, /* not RDMA_MSG, under 8 octets of RPC message, other msg_type */
};
MsgDirection v1_msg_direction(const V1Header &hdr, ktl::ConstBytes rpc_msg);

/* True when @hdr's lists name any chunk (Read, Write or Reply). */
inline bool v1_has_chunks(const V1Header &hdr)
{
	return hdr.chunks.nread || hdr.chunks.nwrite || hdr.chunks.has_reply;
}

/* RDMA_MSG with empty Read and Write lists and no Reply chunk: the
 * header of a message sent wholly inline (a backward-direction Call,
 * RFC 8167).  kMinChunkHeaderSize octets, or -EMSGSIZE. */
ktl::Result<u32> v1_encode_inline_msg(u32 xid, u32 credits, ktl::Bytes out);

/* Peek at the XID of a received header, for an error reply. */
bool v1_peek_xid(ktl::ConstBytes buf, u32 *xid);

} // namespace rpcrdmax::core
