// SPDX-License-Identifier: GPL-2.0
/*
 * core/v1.cpp - RPC-over-RDMA version 1 transport header.
 *
 * Responder side (RFC 8166 Section 4.5, RFC 5666 Section 4.2):
 *  - fewer than the four fixed words: there is no XID to answer, so the
 *    message is dropped;
 *  - a version other than 1: ERR_VERS with the range we support;
 *  - RDMA_ERROR arriving as a Call: errors only flow from responder to
 *    requester, so it is dropped;
 *  - RDMA_MSGP (RFC 5666 only, retired by RFC 8166 Section 4.6) and
 *    unknown procedures: ERR_CHUNK;
 *  - RDMA_DONE (retired too): silently discarded (Section 4.6.2);
 *  - any malformed chunk list or inconsistent Read chunk position:
 *    ERR_CHUNK.
 *
 * Requester side: an RDMA_ERROR is decoded and fails the matching RPC;
 * ERR_VERS is honoured whatever rdma_vers says, because RFC 8166
 * Section 7 keeps its placement fixed for every protocol version.  A
 * malformed Reply is dropped.
 */
#include <rpcrdmax/core/v1.h>
#include <rpcrdmax/core/v2.h>
#include <rpcrdmax/ktl/utility.h>
#include <rpcrdmax/ktl/xdr.h>

namespace rpcrdmax::core {

void V1Header::reset()
{
	xid = 0;
	vers = 0;
	credits = 0;
	proc = V1Proc::Msg;
	chunks.clear();
	err = 0;
	vers_low = 0;
	vers_high = 0;
	hdr_len = 0;
	payload_len = 0;
}

namespace v1_impl {

static V1Verdict from_list_error(ListError e)
{
	switch (e) {
	case ListError::None:
		return V1Verdict::Ok;
	case ListError::Truncated:
		return V1Verdict::Truncated;
	case ListError::BadDiscriminator:
		return V1Verdict::BadDiscriminator;
	case ListError::TooManyReadChunks:
		return V1Verdict::TooManyReadChunks;
	case ListError::TooManyWriteChunks:
		return V1Verdict::TooManyWriteChunks;
	case ListError::TooManySegments:
		return V1Verdict::TooManySegments;
	case ListError::SegmentWraps:
		return V1Verdict::SegmentWraps;
	case ListError::OutOfOrder:
		break;
	}
	return V1Verdict::Truncated;
}

static V1Verdict from_position_error(chunks::PositionError e)
{
	switch (e) {
	case chunks::PositionError::None:
		return V1Verdict::Ok;
	case chunks::PositionError::Misaligned:
		return V1Verdict::MisalignedPosition;
	case chunks::PositionError::Overlap:
		return V1Verdict::OverlappingChunks;
	case chunks::PositionError::BeyondMessage:
		break;
	}
	return V1Verdict::PositionBeyondMessage;
}


/* The four fixed words; false when fewer than 16 octets arrived. */
static bool get_fixed(ktl::XdrReader &xdr, V1Header *hdr)
{
	const u8 *p = xdr.take(kFixedHeaderSize);

	if (!p)
		return false;
	hdr->xid = ktl::load_be32(p);
	hdr->vers = ktl::load_be32(p + 4);
	hdr->credits = ktl::load_be32(p + 8);
	hdr->proc = static_cast<V1Proc>(ktl::load_be32(p + 12));
	return true;
}

/* Chunk lists of RDMA_MSG/RDMA_NOMSG, then the lengths. */
static V1Verdict get_lists(ktl::XdrReader &xdr, ktl::ConstBytes buf,
		    const DecodeLimits &lim, V1Header *hdr)
{
	V1Verdict v = from_list_error(chunks::decode(xdr, lim, &hdr->chunks));

	if (v != V1Verdict::Ok)
		return v;
	hdr->hdr_len = (u32)xdr.offset();
	hdr->payload_len = (u32)(buf.size() - xdr.offset());
	return V1Verdict::Ok;
}

/* Buffers are far smaller than 4 GiB; bound them so lengths fit a u32. */
static ktl::ConstBytes bound(ktl::ConstBytes buf)
{
	return buf.first(ktl::U32_MAX);
}

/*
 * Only RDMA_MSG and RDMA_NOMSG carry chunk lists; every other procedure
 * ends decoding here with its own verdict.  A Reply's RDMA_ERROR is
 * decoded before this is asked.
 */
static V1Verdict classify_proc(V1Proc proc)
{
	switch (proc) {
	case V1Proc::Msg:
	case V1Proc::NoMsg:
		return V1Verdict::Ok;
	case V1Proc::MsgP:
		return V1Verdict::ObsoleteMsgp;
	case V1Proc::Done:
		return V1Verdict::ObsoleteDone;
	case V1Proc::Error:
		return V1Verdict::UnexpectedError;
	default:
		return V1Verdict::UnknownProc;
	}
}

} // namespace v1_impl

V1Verdict v1_decode_call(ktl::ConstBytes buf, const DecodeLimits &lim, V1Header *hdr)
{
	u32 dir, inv;

	if (decode_common_msg(buf, kRpcRdmaVersion1, lim, hdr, &dir, &inv))
		return V1Verdict::Ok;
	return v1_decode_call_full(buf, lim, hdr);
}

V1Verdict v1_decode_call_full(ktl::ConstBytes buf, const DecodeLimits &lim, V1Header *hdr)
{
	buf = v1_impl::bound(buf);
	ktl::XdrReader xdr(buf);
	const ChunkLists &cl = hdr->chunks;
	V1Verdict v;

	hdr->reset();
	/* RFC 8166 Section 4.5: shorter than the minimal header, the XID
	 * cannot be trusted; silently discarded before any parsing. */
	if (buf.size() < kV1MinHeaderLen || !v1_impl::get_fixed(xdr, hdr))
		return V1Verdict::TooShort;
	if (hdr->vers != kRpcRdmaVersion1)
		return V1Verdict::VersionMismatch;
	v = v1_impl::classify_proc(hdr->proc);
	if (v != V1Verdict::Ok)
		return v;

	v = v1_impl::get_lists(xdr, buf, lim, hdr);
	if (v != V1Verdict::Ok)
		return v;

	if (hdr->proc == V1Proc::Msg) {
		/* RFC 8166 Section 3.5.1/3.5.2: the RPC message follows. */
		if (hdr->payload_len == 0)
			return V1Verdict::NoMessage;
		if (cl.has_call_chunk())
			return V1Verdict::CallChunkInMsg;
		v = v1_impl::from_position_error(chunks::check_positions(cl, hdr->payload_len, false));
		if (v == V1Verdict::Ok && !rpc_xid_matches(buf.subspan(hdr->hdr_len), hdr->xid))
			return V1Verdict::XidMismatch;
		return v;
	}
	/* RDMA_NOMSG Call: a Long Call (RFC 8166 Section 3.5.3.1). */
	if (!cl.has_call_chunk())
		return V1Verdict::MissingCallChunk;
	return v1_impl::from_position_error(chunks::check_positions(
		cl, cl.chunk_length(cl.read[0]), true));
}

V1Verdict v1_decode_reply(ktl::ConstBytes buf, const DecodeLimits &lim, V1Header *hdr)
{
	u32 dir, inv;

	if (decode_common_msg(buf, kRpcRdmaVersion1, lim, hdr, &dir, &inv))
		return V1Verdict::Ok;
	return v1_decode_reply_full(buf, lim, hdr);
}

V1Verdict v1_decode_reply_full(ktl::ConstBytes buf, const DecodeLimits &lim, V1Header *hdr)
{
	buf = v1_impl::bound(buf);
	ktl::XdrReader xdr(buf);
	const ChunkLists &cl = hdr->chunks;
	V1Verdict v;

	hdr->reset();
	if (!v1_impl::get_fixed(xdr, hdr))
		return V1Verdict::TooShort;

	if (hdr->proc == V1Proc::Error) {
		if (!xdr.get_u32(&hdr->err))
			return V1Verdict::Truncated;
		if (hdr->err == static_cast<u32>(V1ErrCode::Vers)) {
			if (!xdr.get_u32(&hdr->vers_low) ||
			    !xdr.get_u32(&hdr->vers_high))
				return V1Verdict::Truncated;
			hdr->hdr_len = (u32)xdr.offset();
			return V1Verdict::ErrorReply;
		}
		if (hdr->vers != kRpcRdmaVersion1)
			return V1Verdict::VersionMismatch;
		hdr->hdr_len = (u32)xdr.offset();
		if (hdr->err == static_cast<u32>(V1ErrCode::Chunk))
			return V1Verdict::ErrorReply;
		return V1Verdict::BadErrorCode;
	}
	if (hdr->vers != kRpcRdmaVersion1)
		return V1Verdict::VersionMismatch;
	v = v1_impl::classify_proc(hdr->proc);
	if (v != V1Verdict::Ok)
		return v;

	v = v1_impl::get_lists(xdr, buf, lim, hdr);
	if (v != V1Verdict::Ok)
		return v;
	/* RFC 8166 retired Read chunks in Replies with RDMA_DONE. */
	if (cl.nread)
		return V1Verdict::ReadListInReply;
	if (hdr->proc == V1Proc::Msg && hdr->payload_len == 0)
		return V1Verdict::NoMessage;
	if (hdr->proc == V1Proc::Msg && !rpc_xid_matches(buf.subspan(hdr->hdr_len), hdr->xid))
		return V1Verdict::XidMismatch;
	/* RFC 8166 Section 3.5.3.2: a Long Reply lives in the Reply chunk. */
	if (hdr->proc == V1Proc::NoMsg && !cl.has_reply)
		return V1Verdict::MissingReplyChunk;
	return V1Verdict::Ok;
}

ResponderAction v1_responder_action(V1Verdict v)
{
	switch (v) {
	case V1Verdict::Ok:
		return ResponderAction::Process;
	case V1Verdict::VersionMismatch:
		return ResponderAction::ReplyErrVers;
	case V1Verdict::TooShort:
	case V1Verdict::UnexpectedError:
	case V1Verdict::ErrorReply:
	/* RFC 8166 Section 4.6.2: receivers MUST silently discard
	 * RDMA_DONE (RDMA_MSGP gets ERR_CHUNK: Section 4.6.1's SHOULD) */
	case V1Verdict::ObsoleteDone:
		return ResponderAction::Drop;
	default:
		return ResponderAction::ReplyErrChunk;
	}
}

RequesterAction v1_requester_action(V1Verdict v)
{
	switch (v) {
	case V1Verdict::Ok:
		return RequesterAction::Complete;
	case V1Verdict::ErrorReply:
	case V1Verdict::BadErrorCode:
		return RequesterAction::FailRpc;
	default:
		return RequesterAction::Drop;
	}
}

const char *v1_verdict_name(V1Verdict v)
{
	switch (v) {
	case V1Verdict::Ok: return "ok";
	case V1Verdict::ErrorReply: return "error_reply";
	case V1Verdict::TooShort: return "too_short";
	case V1Verdict::VersionMismatch: return "version_mismatch";
	case V1Verdict::UnknownProc: return "unknown_proc";
	case V1Verdict::ObsoleteMsgp: return "obsolete_msgp";
	case V1Verdict::ObsoleteDone: return "obsolete_done";
	case V1Verdict::UnexpectedError: return "unexpected_error";
	case V1Verdict::Truncated: return "truncated";
	case V1Verdict::BadDiscriminator: return "bad_discriminator";
	case V1Verdict::TooManyReadChunks: return "too_many_read_chunks";
	case V1Verdict::TooManyWriteChunks: return "too_many_write_chunks";
	case V1Verdict::TooManySegments: return "too_many_segments";
	case V1Verdict::SegmentWraps: return "segment_wraps";
	case V1Verdict::MisalignedPosition: return "misaligned_position";
	case V1Verdict::OverlappingChunks: return "overlapping_chunks";
	case V1Verdict::PositionBeyondMessage: return "position_beyond_message";
	case V1Verdict::NoMessage: return "no_message";
	case V1Verdict::MissingCallChunk: return "missing_call_chunk";
	case V1Verdict::XidMismatch: return "xid_mismatch";
	case V1Verdict::CallChunkInMsg: return "call_chunk_in_msg";
	case V1Verdict::ReadListInReply: return "read_list_in_reply";
	case V1Verdict::MissingReplyChunk: return "missing_reply_chunk";
	case V1Verdict::BadErrorCode: return "bad_error_code";
	}
	return "?";
}

u32 v1_encoded_size(const V1Header &hdr)
{
	switch (hdr.proc) {
	case V1Proc::Msg:
	case V1Proc::NoMsg:
		return kFixedHeaderSize + hdr.chunks.encoded_size();
	case V1Proc::Error:
		return kFixedHeaderSize + kXdrWord +
		       (hdr.err == static_cast<u32>(V1ErrCode::Vers) ? 2 * kXdrWord : 0);
	default:
		return 0;
	}
}

ktl::Result<u32> v1_encode(const V1Header &hdr, ktl::Bytes out)
{
	const u32 size = v1_encoded_size(hdr);
	ktl::XdrWriter xdr(out);

	if (size == 0)
		return ktl::error(ktl::err::EINVAL);
	u8 *p = xdr.reserve(size);
	if (!p)
		return ktl::error(ktl::err::EMSGSIZE);
	p = put_fixed_header(p, hdr.xid, hdr.vers, hdr.credits, static_cast<u32>(hdr.proc));
	if (hdr.proc == V1Proc::Error) {
		ktl::store_be32(p, hdr.err);
		if (hdr.err == static_cast<u32>(V1ErrCode::Vers)) {
			ktl::store_be32(p + 4, hdr.vers_low);
			ktl::store_be32(p + 8, hdr.vers_high);
		}
	} else {
		chunks::put_lists(p, hdr.chunks);
	}
	return size;
}

namespace v1_impl {

static ktl::Result<u32> encode_error(u32 xid, u32 vers, u32 credits, V1ErrCode code,
				      ktl::Bytes out)
{
	ktl::XdrWriter xdr(out);
	bool ok;

	ok = xdr.put_u32(xid) && xdr.put_u32(vers) &&
	     xdr.put_u32(credits) &&
	     xdr.put_u32(static_cast<u32>(V1Proc::Error)) &&
	     xdr.put_u32(static_cast<u32>(code));
	if (ok && code == V1ErrCode::Vers)
		ok = xdr.put_u32(kV1VersLow) && xdr.put_u32(kV1VersHigh);
	if (!ok)
		return ktl::error(ktl::err::EMSGSIZE);
	return (u32)xdr.offset();
}

} // namespace v1_impl

ktl::Result<u32> v1_encode_err_vers(u32 xid, u32 vers, u32 credits, ktl::Bytes out)
{
	return v1_impl::encode_error(xid, vers, credits, V1ErrCode::Vers, out);
}

/* ERR_CHUNK answers only a version 1 Call: its rdma_vers is the Call's. */
ktl::Result<u32> v1_encode_err_chunk(u32 xid, u32 credits, ktl::Bytes out)
{
	return v1_impl::encode_error(xid, kRpcRdmaVersion1, credits, V1ErrCode::Chunk, out);
}

ktl::Result<u32> v1_encode_inline_msg(u32 xid, u32 credits, ktl::Bytes out)
{
	if (out.size() < kMinChunkHeaderSize)
		return ktl::error(ktl::err::EMSGSIZE);
	put_no_chunks(put_fixed_header(out.data(), xid, kRpcRdmaVersion1, credits,
				       static_cast<u32>(V1Proc::Msg)));
	return kMinChunkHeaderSize;
}

MsgDirection v1_msg_direction(const V1Header &hdr, ktl::ConstBytes rpc_msg)
{
	if (hdr.proc != V1Proc::Msg || rpc_msg.size() < 2 * kXdrWord)
		return MsgDirection::Unknown;
	switch (ktl::load_be32(rpc_msg.data() + kXdrWord)) {
	case 0:
		return MsgDirection::Call;
	case 1:
		return MsgDirection::Reply;
	default:
		return MsgDirection::Unknown;
	}
}

bool v1_peek_xid(ktl::ConstBytes buf, u32 *xid)
{
	if (buf.size() < kXdrWord)
		return false;
	*xid = ktl::load_be32(buf.data());
	return true;
}

} // namespace rpcrdmax::core
