/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/v2.h - the RPC-over-RDMA version 2 transport header, as written
 * in draft-cel-nfsv4-rpcrdma-version-two-04 (Section 6.2 XDR).
 *
 *	xid, vers (2), credit, proc, then by proc:
 *	  RDMA2_MSG / RDMA2_NOMSG: rpcrdma2_chunk_lists (direction,
 *	                           inv_handle, Read/Write lists, Reply chunk)
 *	  RDMA2_ERROR:             rpcrdma2_error (code and its payload)
 *	  RDMA2_OPTIONAL:          direction, opttype, opaque optinfo<>
 *	  RDMA2_CONNPROP:          propset rdma_start, propsubset rdma_nochg
 *	  RDMA2_REQPROP:           propset rdma_want
 *	  RDMA2_RESPROP:           propsubset rdma_done, rdma_rejected,
 *	                           propset rdma_other
 *	  RDMA2_UPDPROP:           propset rdma_now
 *
 * Property values are views into the received buffer.  Known property
 * ids (RBSIZ, BRS) are validated while decoding; unknown ids are kept
 * but not interpreted (Section 5.1.1); any length that overruns the
 * message, or a known property whose value does not decode, is BAD_XDR.
 *
 * The draft's Table 2 also lists the property operations as RDMA2_OPTIONAL
 * opttypes 1-4, while its XDR gives them procedure numbers 6-9.  The
 * decoder follows the XDR; v2_decode_optinfo() reads an optinfo body as
 * the property operation its opttype names, for peers that send it that
 * way.
 */
#pragma once

#include <rpcrdmax/core/v1.h>
#include <rpcrdmax/core/wire.h>

namespace rpcrdmax::core {

inline constexpr u32 kRpcRdmaVersion2 = 2;
/* Range reported in RDMA2_ERR_VERS: a version 2 endpoint also speaks 1. */
inline constexpr u32 kV2VersLow = 1;
inline constexpr u32 kV2VersHigh = 2;
/* A chunkless RDMA2_MSG header is version 1's and two words more:
 * rdma_direction and rdma_inv_handle (Section 6.2). */
inline constexpr u32 kV2ExtraHeaderSize = 2 * kXdrWord;

/* The fixed part of a version @vers RDMA_MSG or RDMA_NOMSG header, in
 * octets: what an inline threshold must hold beyond the chunk lists and
 * the RPC message (RFC 8166 Section 3.3.2 counts the whole Send). */
constexpr u32 fixed_header_size(u32 vers)
{
	return kFixedHeaderSize + (vers == kRpcRdmaVersion2 ? kV2ExtraHeaderSize : 0);
}

/* A chunkless version @vers RDMA_MSG header (three empty chunk lists), in
 * octets: the least a Send carries beyond its RPC message. */
constexpr u32 min_header_size(u32 vers)
{
	return fixed_header_size(vers) + (kMinChunkHeaderSize - kFixedHeaderSize);
}

enum class V2Proc : u32 {
	Msg = 0,
	NoMsg = 1,
	Error = 4,
	Optional = 5,
	ConnProp = 6,
	ReqProp = 7,
	ResProp = 8,
	UpdProp = 9,
};

enum class V2ErrCode : u32 {
	Vers = 1,
	BadXdr = 2,
	InvalidProc = 3,
	ReadChunks = 4,
	WriteChunks = 5,
	Segments = 6,
	WriteResource = 7,
	ReplyResource = 8,
	InvalidOption = 9,
	System = 10,
};

/* enum msg_type (RFC 5531 Section 9). */
inline constexpr u32 kMsgCall = 0;
inline constexpr u32 kMsgReply = 1;

/* Basic transport properties (Section 5.2). */
inline constexpr u32 kV2PropRbsiz = 1;
inline constexpr u32 kV2PropBrs = 2;
inline constexpr u32 kV2DefaultRbsiz = 4096;
enum class BkReqSup : u32 { None = 0, Inline = 1, Genl = 2 };
inline constexpr BkReqSup kV2DefaultBrs = BkReqSup::Inline;

inline constexpr u32 kMaxPropsCap = 16;	      /* propvals per propset */
inline constexpr u32 kMaxSubsetWordsCap = 4;  /* words per propsubset */

/* One rpcrdma2_propval.  A decoded value is a view of @data; a value
 * built for sending may instead set @is_u32 and @value (4 octets). */
struct PropVal {
	u32 which;
	bool is_u32;
	u32 value;
	ktl::ConstBytes data;
};

struct PropSet {
	u32 count;
	PropVal items[kMaxPropsCap];

	/* Builders; false when full. */
	bool add_u32(u32 which, u32 value);
	bool add_opaque(u32 which, ktl::ConstBytes data);
};

/* rpcrdma2_propsubset: bit N mod 32 of word N div 32 selects item N. */
struct PropSubset {
	u32 nwords;
	u32 words[kMaxSubsetWordsCap];

	bool contains(u32 index) const;
	/* Builder; false when @index needs more words than we hold. */
	bool insert(u32 index);
};

/* rpcrdma2_error: @code selects which other fields are meaningful. */
struct V2Error {
	u32 code;
	u32 vers_low, vers_high;   /* RDMA2_ERR_VERS */
	u32 max_chunks;		   /* RDMA2_ERR_READ_CHUNKS, _WRITE_CHUNKS */
	u32 max_segments;	   /* RDMA2_ERR_SEGMENTS */
	u32 chunk_index;	   /* RDMA2_ERR_WRITE_RESOURCE */
	u32 length_needed;	   /* RDMA2_ERR_WRITE_RESOURCE, _REPLY_RESOURCE */
};

struct V2Header {
	u32 xid;
	u32 vers;
	u32 credits;
	V2Proc proc;

	/* RDMA2_MSG / RDMA2_NOMSG: rdma_direction; RDMA2_OPTIONAL: rdma_optdir */
	u32 direction;
	/* RDMA2_MSG / RDMA2_NOMSG */
	u32 inv_handle;
	ChunkLists chunks;

	/* RDMA2_ERROR */
	V2Error error;

	/* RDMA2_OPTIONAL */
	u32 opttype;
	ktl::ConstBytes optinfo;

	/* Property operations.  @props is rdma_start (CONNPROP), rdma_want
	 * (REQPROP), rdma_other (RESPROP) or rdma_now (UPDPROP).  @subset_a
	 * is rdma_nochg (CONNPROP) or rdma_done (RESPROP); @subset_b is
	 * rdma_rejected (RESPROP). */
	PropSet props;
	PropSubset subset_a;
	PropSubset subset_b;

	u32 hdr_len;	 /* octets of transport header */
	u32 payload_len; /* octets after it in the receive buffer */
};

enum class V2Verdict : u8 {
	Ok,
	TooShort,	    /* fewer than 16 octets: drop */
	VersionMismatch,    /* rdma_vers is not 2 */
	InvalidProc,	    /* rdma_proc not in rpcrdma2_proc */
	BadXdr,		    /* anything that does not parse or is inconsistent */
	TooManyReadChunks,
	TooManyWriteChunks,
	TooManySegments,
	TooManyProperties,  /* more propvals or subset words than we hold */
};

/* What a responder owes for a received message (Section 6.2.4). */
enum class V2Action : u8 { Process, ReplyError, Drop };

/*
 * Map a verdict to the responder's duty.  For ReplyError, @err is filled
 * with the code and payload (limits come from @lim).  An RDMA2_ERROR
 * that arrives at a responder is dropped: errors only flow to requesters.
 */
V2Action v2_responder_action(V2Verdict v, const V2Header &hdr,
			     const DecodeLimits &lim, V2Error *err);
/* The same for a verdict other than Ok, which needs no header. */
V2Action v2_verdict_action(V2Verdict v, const DecodeLimits &lim, V2Error *err);
const char *v2_verdict_name(V2Verdict v);

/* Decode any version 2 message.  @hdr is always written. */
V2Verdict v2_decode(ktl::ConstBytes buf, const DecodeLimits &lim, V2Header *hdr);

/* Decode @hdr->optinfo as the property operation @hdr->opttype 1-4 names
 * (Table 2), filling @hdr->props/subset_a/subset_b.  InvalidProc when
 * @hdr->opttype is not 1-4. */
V2Verdict v2_decode_optinfo(V2Header *hdr);

/* The first four words of any message: rdma_vers and rdma_proc (not
 * checked).  False when @buf is shorter than 16 octets. */
bool v2_peek(ktl::ConstBytes buf, u32 *vers, V2Proc *proc);

/*
 * A responder's Call path (Section 7.3): decode an RDMA2_MSG or
 * RDMA2_NOMSG into the version 1 view (@call: XID, rdma_vers 2, credits,
 * Msg or NoMsg, chunk lists, hdr_len, payload_len) with the version 2
 * fields in *@direction and *@inv_handle.  The chunk rules are
 * v2_decode's.  Any other procedure is InvalidProc: decode it with
 * v2_decode.
 */
V2Verdict v2_decode_msg(ktl::ConstBytes buf, const DecodeLimits &lim, V1Header *call,
			u32 *direction, u32 *inv_handle);
/* The same without its decode_common_msg() shortcut (host tests). */
V2Verdict v2_decode_msg_full(ktl::ConstBytes buf, const DecodeLimits &lim, V1Header *call,
			     u32 *direction, u32 *inv_handle);

/*
 * Most messages at once: an RDMA_MSG (@vers 1) or RDMA2_MSG (@vers 2,
 * with its rdma_direction and rdma_inv_handle in *@direction and
 * *@inv_handle) whose Read list is absent and whose chunks are none, or
 * one Write chunk of one segment (a READ's Call and its Reply), or a
 * Reply chunk of one segment (a Call whose Reply may not fit inline: an
 * NFSv4 GETATTR on recent kernels), followed by an RPC message that
 * begins with the header's XID.  Fills @hdr exactly as v1_decode_call(),
 * v1_decode_reply() or v2_decode_msg() would for it under @lim and
 * returns true; false (@hdr then undefined) for any other message, which
 * those decoders then judge.
 */
namespace v2_impl {

/* decode_common_msg's last steps for a header of @hdr_len octets: the
 * RPC message's XID, rdma_direction, and @hdr filled but its lists. */
inline bool common_msg_rest(ktl::ConstBytes buf, u32 vers, u32 hdr_len, V1Header *hdr,
			    u32 *direction, u32 *inv_handle)
{
	const u8 *p = buf.data();

	if (ktl::load_be32(p + hdr_len) != ktl::load_be32(p))
		return false;
	if (vers == kRpcRdmaVersion2) {
		/* rdma_direction (draft Section 6.2.2): a Call or a Reply */
		*direction = ktl::load_be32(p + kFixedHeaderSize);
		if (*direction > kMsgReply)
			return false;
		*inv_handle = ktl::load_be32(p + kFixedHeaderSize + 4);
	}
	hdr->reset();
	hdr->xid = ktl::load_be32(p);
	hdr->vers = vers;
	hdr->credits = ktl::load_be32(p + 8);
	hdr->hdr_len = hdr_len;
	hdr->payload_len = (u32)buf.size() - hdr_len;
	return true;
}

/* decode_common_msg's other two forms: an absent Read list and one
 * chunk of one segment, a Write chunk (@Write: a READ's; no Reply chunk)
 * or the Reply chunk (no Write list). */
template <bool Write>
bool one_segment_msg(ktl::ConstBytes buf, u32 vers, const DecodeLimits &lim, V1Header *hdr,
		     u32 *direction, u32 *inv_handle);

} // namespace v2_impl

/* Inline: each caller's constant @vers leaves one version's loads; the
 * chunkless form (most messages) is decided here. */
inline bool decode_common_msg(ktl::ConstBytes buf, u32 vers, const DecodeLimits &lim,
			      V1Header *hdr, u32 *direction, u32 *inv_handle)
{
	const u32 hdr_len = min_header_size(vers);
	const u8 *p = buf.data();
	const u8 *lists = p + fixed_header_size(vers);

	/* the chunkless header and at least the RPC message's XID */
	if (buf.size() < hdr_len + kXdrWord || buf.size() > ktl::U32_MAX ||
	    ktl::load_be32(p + 4) != vers ||
	    ktl::load_be32(p + 12) != static_cast<u32>(V1Proc::Msg))
		return false;
	/* the Write list's first word tells the two one-segment forms apart */
	if (ktl::load_be32(lists + 4))
		return v2_impl::one_segment_msg<true>(buf, vers, lim, hdr, direction, inv_handle);
	if (ktl::load_be32(lists) | ktl::load_be32(lists + 8))
		return v2_impl::one_segment_msg<false>(buf, vers, lim, hdr, direction, inv_handle);
	return v2_impl::common_msg_rest(buf, vers, hdr_len, hdr, direction, inv_handle);
}

/* Encode @hdr (the version 1 view: XID, credits, Msg or NoMsg, chunk
 * lists) as a version 2 RDMA2_MSG or RDMA2_NOMSG with @direction and
 * @inv_handle.  -EINVAL for any other procedure or direction. */
ktl::Result<u32> v2_encode_msg(const V1Header &hdr, u32 direction, u32 inv_handle,
			       ktl::Bytes out);

/*
 * What a responder does with a decoded version 2 message that is not an
 * RDMA2_MSG or RDMA2_NOMSG (Sections 5.3 and 6.2.4):
 *  - ConnProp: note the peer's properties (RDMA2_CONNPROP, or
 *    RDMA2_OPTIONAL opttype 1, whose optinfo is then decoded into @hdr);
 *  - Drop: an RDMA2_ERROR (errors never flow to a responder);
 *  - ReplyError with *@err: RDMA2_ERR_INVAL_OPTION for REQPROP, RESPROP,
 *    UPDPROP and any other RDMA2_OPTIONAL (OPTIONAL operations this
 *    responder does not support), RDMA2_ERR_BAD_XDR for an opttype 1
 *    whose optinfo does not decode.
 */
enum class V2Control : u8 { ConnProp, Drop, ReplyError };
V2Control v2_responder_control(V2Header *hdr, V2Error *err);

/*
 * A requester's side of negotiation (Section 7.2): whether @buf is an
 * ERR_VERS, whatever its rdma_vers says (a version 1 server may echo the
 * Call's 2; the error's body is laid out alike in both versions: rdma_err
 * 1, then the lowest and highest versions it speaks).  False for anything
 * else, or fewer than 28 octets.
 */
bool v2_peek_err_vers(ktl::ConstBytes buf, u32 *xid, u32 *low, u32 *high);

/*
 * RDMA2_CONNPROP (Section 5.3.1) with @xid and @credits: rdma_start holds
 * RBSIZ @rbsiz and, when @with_brs, BRS @brs (a client's Backward Request
 * Support, Section 5.2.2); rdma_nochg names every one of them (none will
 * change on this connection).
 */
ktl::Result<u32> v2_encode_connprop(u32 xid, u32 credits, u32 rbsiz, bool with_brs,
				    BkReqSup brs, ktl::Bytes out);

/* A chunkless RDMA2_MSG header for an inline message of @direction
 * (CALL or REPLY), rdma_inv_handle 0: what the backward direction sends. */
ktl::Result<u32> v2_encode_inline_msg(u32 xid, u32 credits, u32 direction, ktl::Bytes out);

/*
 * An RDMA_MSG (@vers 1) or RDMA2_MSG (@vers 2: @direction, @inv_handle)
 * header whose only chunk is @seg, one Write chunk of one segment: what
 * a READ's Call offers and its Reply returns (decode_common_msg's second
 * form), written from fixed offsets as v1_encode() and v2_encode_msg()
 * would.  Its octets; -EMSGSIZE when @out is too small, -EINVAL for
 * another version or direction.
 */
ktl::Result<u32> encode_one_write_msg(u32 xid, u32 vers, u32 credits, u32 direction,
				      u32 inv_handle, const Segment &seg, ktl::Bytes out);

/*
 * The same with one Reply chunk of one segment, @seg, and no Write list:
 * the Call of an RPC whose Reply may not fit inline and has no
 * DDP-eligible result (plan_one_reply()).
 */
ktl::Result<u32> encode_one_reply_msg(u32 xid, u32 vers, u32 credits, u32 direction,
				      u32 inv_handle, const Segment &seg, ktl::Bytes out);

/* The octets of either header: encode_one_write_msg()'s (@write) or
 * encode_one_reply_msg()'s. */
constexpr u32 one_segment_msg_size(u32 vers, bool write)
{
	return min_header_size(vers) + (write ? kOneWriteChunkSize : kOneReplyChunkExtra);
}

/* The draft's name of rdma_err @code (Section 6.2.4), for log lines. */
const char *v2_err_name(u32 code);

ktl::Result<u32> v2_encode(const V2Header &hdr, ktl::Bytes out);
/* RDMA2_ERROR echoing @xid and @vers (Section 6.2.4). */
ktl::Result<u32> v2_encode_error(u32 xid, u32 vers, u32 credits,
				 const V2Error &err, ktl::Bytes out);

/* Value of RBSIZ / BRS in @set: true when present (the first occurrence
 * counts; an empty value means the default). */
bool v2_prop_rbsiz(const PropSet &set, u32 *value);
bool v2_prop_brs(const PropSet &set, BkReqSup *value);

/* Section 6.2.3: a Call's rdma_inv_handle may be used for Send With
 * Invalidate only when non-zero and equal to one of its handles. */
bool v2_inv_handle_usable(const V2Header &hdr);
/* The same test for @handle against @cl: non-zero and one of its
 * segments' handles. */
bool v2_handle_in(const ChunkLists &cl, u32 handle);

} // namespace rpcrdmax::core
