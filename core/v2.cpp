// SPDX-License-Identifier: GPL-2.0
/*
 * core/v2.cpp - RPC-over-RDMA version 2 (draft-cel-nfsv4-rpcrdma-
 * version-two-04) transport header codec.
 *
 * Everything the draft's XDR allows is decoded; everything else is
 * refused with the error the draft assigns (Section 6.2.4):
 * RDMA2_ERR_VERS for another version, RDMA2_ERR_INVALID_PROC for an
 * unknown procedure, RDMA2_ERR_BAD_XDR for anything that does not parse
 * (opaque lengths that overrun the message, non-zero XDR padding, enum
 * values outside their range, known properties whose value does not
 * decode), RDMA2_ERR_READ_CHUNKS / _WRITE_CHUNKS / _SEGMENTS when our
 * limits are exceeded.  Chunk lists and Read chunk positions get the
 * same checks as in version 1 (see core/chunks.cpp).
 */
#include <rpcrdmax/core/v2.h>
#include <rpcrdmax/ktl/utility.h>
#include <rpcrdmax/ktl/xdr.h>

namespace rpcrdmax::core {

bool PropSet::add_u32(u32 which, u32 v)
{
	if (count >= kMaxPropsCap)
		return false;
	items[count++] = PropVal{which, true, v, ktl::ConstBytes()};
	return true;
}

bool PropSet::add_opaque(u32 which, ktl::ConstBytes data)
{
	if (count >= kMaxPropsCap)
		return false;
	items[count++] = PropVal{which, false, 0, data};
	return true;
}

bool PropSubset::contains(u32 index) const
{
	u32 w = index / 32;

	return w < nwords && (words[w] >> (index % 32)) & 1;
}

bool PropSubset::insert(u32 index)
{
	u32 w = index / 32;

	if (w >= kMaxSubsetWordsCap)
		return false;
	while (nwords <= w)
		words[nwords++] = 0;
	words[w] |= 1u << (index % 32);
	return true;
}

namespace v2_impl {

static V2Verdict from_list_error(ListError e)
{
	switch (e) {
	case ListError::None:
		return V2Verdict::Ok;
	case ListError::TooManyReadChunks:
		return V2Verdict::TooManyReadChunks;
	case ListError::TooManyWriteChunks:
		return V2Verdict::TooManyWriteChunks;
	case ListError::TooManySegments:
		return V2Verdict::TooManySegments;
	default:
		return V2Verdict::BadXdr;
	}
}

static V2Verdict get_msg_type(ktl::XdrReader &xdr, u32 *dir)
{
	if (!xdr.get_u32(dir) || *dir > kMsgReply)
		return V2Verdict::BadXdr;
	return V2Verdict::Ok;
}

/* opaque<>: a length, the octets, and zero padding to a 4-octet boundary. */
static V2Verdict get_opaque(ktl::XdrReader &xdr, ktl::ConstBytes *out)
{
	ktl::ConstBytes rest;
	u32 len;

	if (!xdr.get_u32(&len) || len > xdr.remaining() ||
	    ktl::xdr_align(len) > xdr.remaining())
		return V2Verdict::BadXdr;
	rest = xdr.rest();
	for (size_t i = len; i < ktl::xdr_align(len); i++)
		if (rest[i] != 0)
			return V2Verdict::BadXdr;
	*out = rest.first(len);
	return xdr.skip(ktl::xdr_align(len)) ? V2Verdict::Ok : V2Verdict::BadXdr;
}

/* Section 5.1.1: a known property must decode as its typedef. */
static bool known_prop_valid(const PropVal &pv)
{
	size_t n = pv.data.size();

	switch (pv.which) {
	case kV2PropRbsiz:
		return n == 0 || n == 4;
	case kV2PropBrs:
		return n == 0 ||
		       (n == 4 && ktl::load_be32(pv.data.data()) <=
					  static_cast<u32>(BkReqSup::Genl));
	default:
		return true; /* unknown: skipped, never an error */
	}
}

static V2Verdict get_propset(ktl::XdrReader &xdr, PropSet *set)
{
	V2Verdict v;
	u32 count;

	set->count = 0;
	if (!xdr.get_u32(&count) || count > xdr.remaining() / 8)
		return V2Verdict::BadXdr;
	if (count > kMaxPropsCap)
		return V2Verdict::TooManyProperties;
	for (u32 i = 0; i < count; i++) {
		PropVal *pv = &set->items[i];

		pv->is_u32 = false;
		pv->value = 0;
		if (!xdr.get_u32(&pv->which))
			return V2Verdict::BadXdr;
		v = get_opaque(xdr, &pv->data);
		if (v != V2Verdict::Ok)
			return v;
		if (!known_prop_valid(*pv))
			return V2Verdict::BadXdr;
		set->count++;
	}
	return V2Verdict::Ok;
}

static V2Verdict get_subset(ktl::XdrReader &xdr, PropSubset *sub)
{
	u32 count;

	sub->nwords = 0;
	if (!xdr.get_u32(&count) || count > xdr.remaining() / 4)
		return V2Verdict::BadXdr;
	if (count > kMaxSubsetWordsCap)
		return V2Verdict::TooManyProperties;
	for (u32 i = 0; i < count; i++)
		if (!xdr.get_u32(&sub->words[sub->nwords++]))
			return V2Verdict::BadXdr;
	return V2Verdict::Ok;
}

/* Bodies of RDMA2_CONNPROP .. RDMA2_UPDPROP. */
static V2Verdict get_prop_body(ktl::XdrReader &xdr, V2Proc proc, V2Header *hdr)
{
	V2Verdict v;

	switch (proc) {
	case V2Proc::ConnProp:
		v = get_propset(xdr, &hdr->props);
		return v != V2Verdict::Ok ? v : get_subset(xdr, &hdr->subset_a);
	case V2Proc::ReqProp:
	case V2Proc::UpdProp:
		return get_propset(xdr, &hdr->props);
	case V2Proc::ResProp:
		v = get_subset(xdr, &hdr->subset_a);
		if (v == V2Verdict::Ok)
			v = get_subset(xdr, &hdr->subset_b);
		return v != V2Verdict::Ok ? v : get_propset(xdr, &hdr->props);
	default:
		return V2Verdict::InvalidProc;
	}
}

static V2Verdict get_error(ktl::XdrReader &xdr, V2Error *e)
{
	bool ok;

	if (!xdr.get_u32(&e->code))
		return V2Verdict::BadXdr;
	switch (static_cast<V2ErrCode>(e->code)) {
	case V2ErrCode::Vers:
		ok = xdr.get_u32(&e->vers_low) && xdr.get_u32(&e->vers_high);
		break;
	case V2ErrCode::BadXdr:
	case V2ErrCode::InvalidProc:
	case V2ErrCode::InvalidOption:
	case V2ErrCode::System:
		ok = true;
		break;
	case V2ErrCode::ReadChunks:
	case V2ErrCode::WriteChunks:
		ok = xdr.get_u32(&e->max_chunks);
		break;
	case V2ErrCode::Segments:
		ok = xdr.get_u32(&e->max_segments);
		break;
	case V2ErrCode::WriteResource:
		ok = xdr.get_u32(&e->chunk_index) && xdr.get_u32(&e->length_needed);
		break;
	case V2ErrCode::ReplyResource:
		ok = xdr.get_u32(&e->length_needed);
		break;
	default:
		ok = false; /* not a value of rpcrdma2_errcode */
		break;
	}
	return ok ? V2Verdict::Ok : V2Verdict::BadXdr;
}

/* The version 1 rules for chunks, by message direction. */
static V2Verdict check_chunks(V2Proc proc, u32 direction, const ChunkLists &cl, u32 payload_len)
{
	chunks::PositionError pe;

	if (direction == kMsgReply) {
		if (cl.nread)
			return V2Verdict::BadXdr;
		if (proc == V2Proc::Msg)
			return payload_len ? V2Verdict::Ok : V2Verdict::BadXdr;
		return cl.has_reply ? V2Verdict::Ok : V2Verdict::BadXdr;
	}
	if (proc == V2Proc::Msg) {
		if (payload_len == 0 || cl.has_call_chunk())
			return V2Verdict::BadXdr;
		pe = chunks::check_positions(cl, payload_len, false);
	} else {
		if (!cl.has_call_chunk())
			return V2Verdict::BadXdr;
		pe = chunks::check_positions(cl, cl.chunk_length(cl.read[0]), true);
	}
	return pe == chunks::PositionError::None ? V2Verdict::Ok : V2Verdict::BadXdr;
}

/* check_chunks, and an RDMA2_MSG's RPC message (the octets after the
 * header in @buf) beginning with rdma_xid (RFC 8166 Section 4.5.2, which
 * Section 6.2.4 carries over). */
static V2Verdict check_msg(ktl::ConstBytes buf, u32 xid, V2Proc proc, u32 direction,
			   const ChunkLists &cl, u32 hdr_len)
{
	const V2Verdict v = check_chunks(proc, direction, cl, (u32)buf.size() - hdr_len);

	if (v == V2Verdict::Ok && proc == V2Proc::Msg && !rpc_xid_matches(buf.subspan(hdr_len), xid))
		return V2Verdict::BadXdr;
	return v;
}

/* rdma_direction, rdma_inv_handle and the chunk lists of RDMA2_MSG and
 * RDMA2_NOMSG (struct rpcrdma2_chunk_lists). */
static V2Verdict get_msg_body(ktl::XdrReader &xdr, const DecodeLimits &lim, u32 *direction,
			      u32 *inv_handle, ChunkLists *cl)
{
	V2Verdict v = get_msg_type(xdr, direction);

	if (v != V2Verdict::Ok)
		return v;
	if (!xdr.get_u32(inv_handle))
		return V2Verdict::BadXdr;
	return from_list_error(chunks::decode(xdr, lim, cl));
}

static void reset(V2Header *hdr)
{
	hdr->xid = 0;
	hdr->vers = 0;
	hdr->credits = 0;
	hdr->proc = V2Proc::Msg;
	hdr->direction = 0;
	hdr->inv_handle = 0;
	hdr->chunks.clear();
	hdr->error = V2Error{};
	hdr->opttype = 0;
	hdr->optinfo = ktl::ConstBytes();
	hdr->props.count = 0;
	hdr->subset_a.nwords = 0;
	hdr->subset_b.nwords = 0;
	hdr->hdr_len = 0;
	hdr->payload_len = 0;
}

static V2Verdict get_body(ktl::XdrReader &xdr, const DecodeLimits &lim, V2Header *hdr)
{
	V2Verdict v;

	switch (hdr->proc) {
	case V2Proc::Msg:
	case V2Proc::NoMsg:
		return get_msg_body(xdr, lim, &hdr->direction, &hdr->inv_handle, &hdr->chunks);
	case V2Proc::Error:
		return get_error(xdr, &hdr->error);
	case V2Proc::Optional:
		v = get_msg_type(xdr, &hdr->direction);
		if (v != V2Verdict::Ok)
			return v;
		if (!xdr.get_u32(&hdr->opttype))
			return V2Verdict::BadXdr;
		return get_opaque(xdr, &hdr->optinfo);
	case V2Proc::ConnProp:
	case V2Proc::ReqProp:
	case V2Proc::ResProp:
	case V2Proc::UpdProp:
		return get_prop_body(xdr, hdr->proc, hdr);
	default:
		return V2Verdict::InvalidProc;
	}
}

} // namespace v2_impl

V2Verdict v2_decode(ktl::ConstBytes buf, const DecodeLimits &lim, V2Header *hdr)
{
	buf = buf.first(ktl::U32_MAX);
	ktl::XdrReader xdr(buf);
	V2Verdict v;
	u32 proc;

	v2_impl::reset(hdr);
	if (!xdr.get_u32(&hdr->xid) || !xdr.get_u32(&hdr->vers) ||
	    !xdr.get_u32(&hdr->credits) || !xdr.get_u32(&proc))
		return V2Verdict::TooShort;
	hdr->proc = static_cast<V2Proc>(proc);
	if (hdr->vers != kRpcRdmaVersion2)
		return V2Verdict::VersionMismatch;
	v = v2_impl::get_body(xdr, lim, hdr);
	if (v != V2Verdict::Ok)
		return v;
	hdr->hdr_len = (u32)xdr.offset();
	hdr->payload_len = (u32)(buf.size() - xdr.offset());
	if (hdr->proc == V2Proc::Msg || hdr->proc == V2Proc::NoMsg)
		return v2_impl::check_msg(buf, hdr->xid, hdr->proc, hdr->direction, hdr->chunks,
					  hdr->hdr_len);
	return V2Verdict::Ok;
}

bool v2_peek(ktl::ConstBytes buf, u32 *vers, V2Proc *proc)
{
	if (buf.size() < kFixedHeaderSize)
		return false;
	*vers = ktl::load_be32(buf.data() + 4);
	*proc = static_cast<V2Proc>(ktl::load_be32(buf.data() + 12));
	return true;
}

bool v2_peek_err_vers(ktl::ConstBytes buf, u32 *xid, u32 *low, u32 *high)
{
	ktl::XdrReader xdr(buf);
	u32 vers, credits, proc, code;

	if (!xdr.get_u32(xid) || !xdr.get_u32(&vers) || !xdr.get_u32(&credits) ||
	    !xdr.get_u32(&proc) || !xdr.get_u32(&code) || !xdr.get_u32(low) ||
	    !xdr.get_u32(high))
		return false;
	return proc == static_cast<u32>(V2Proc::Error) &&
	       code == static_cast<u32>(V2ErrCode::Vers);
}

ktl::Result<u32> v2_encode_connprop(u32 xid, u32 credits, u32 rbsiz, bool with_brs,
				    BkReqSup brs, ktl::Bytes out)
{
	ktl::XdrWriter xdr(out);
	const u32 n = with_brs ? 2 : 1;

	/* xid, vers, credit, proc; rdma_start: count, then each propval
	 * (which, opaque<> of one uint32); rdma_nochg: one word, a bit per item */
	if (xdr.put_u32(xid) && xdr.put_u32(kRpcRdmaVersion2) && xdr.put_u32(credits) &&
	    xdr.put_u32(static_cast<u32>(V2Proc::ConnProp)) && xdr.put_u32(n) &&
	    xdr.put_u32(kV2PropRbsiz) && xdr.put_u32(4) && xdr.put_u32(rbsiz) &&
	    (!with_brs || (xdr.put_u32(kV2PropBrs) && xdr.put_u32(4) &&
			   xdr.put_u32(static_cast<u32>(brs)))) &&
	    xdr.put_u32(1) && xdr.put_u32((1u << n) - 1))
		return (u32)xdr.offset();
	return ktl::error(ktl::err::EMSGSIZE);
}

ktl::Result<u32> v2_encode_inline_msg(u32 xid, u32 credits, u32 direction, ktl::Bytes out)
{
	constexpr u32 size = kMinChunkHeaderSize + kV2ExtraHeaderSize;

	if (direction > kMsgReply)
		return ktl::error(ktl::err::EINVAL);
	if (out.size() < size)
		return ktl::error(ktl::err::EMSGSIZE);
	u8 *p = put_fixed_header(out.data(), xid, kRpcRdmaVersion2, credits,
				 static_cast<u32>(V2Proc::Msg));
	ktl::store_be32(p, direction);
	ktl::store_be32(p + 4, 0); /* rdma_inv_handle: none */
	put_no_chunks(p + kV2ExtraHeaderSize);
	return size;
}

/* The fixed words of an RDMA_MSG / RDMA2_MSG of @size octets and, for
 * version 2, its direction and inv_handle: where its lists begin, or
 * nullptr (*@err set) for a bad version or direction or too small @out. */
static u8 *put_msg_prologue(u32 xid, u32 vers, u32 credits, u32 direction, u32 inv_handle,
			    u32 size, ktl::Bytes out, int *err)
{
	if ((vers != kRpcRdmaVersion1 && vers != kRpcRdmaVersion2) || direction > kMsgReply) {
		*err = ktl::err::EINVAL;
		return nullptr;
	}
	if (out.size() < size) {
		*err = ktl::err::EMSGSIZE;
		return nullptr;
	}
	u8 *p = put_fixed_header(out.data(), xid, vers, credits, static_cast<u32>(V1Proc::Msg));
	if (vers == kRpcRdmaVersion2) {
		ktl::store_be32(p, direction);
		ktl::store_be32(p + 4, inv_handle);
		p += kV2ExtraHeaderSize;
	}
	return p;
}

/* encode_one_write_msg() (@write) or encode_one_reply_msg(): the lists
 * around the one segment are all that differs. */
static ktl::Result<u32> encode_one_segment_msg(u32 xid, u32 vers, u32 credits, u32 direction,
					       u32 inv_handle, const Segment &seg, bool write,
					       ktl::Bytes out)
{
	const u32 size = one_segment_msg_size(vers, write);
	int err = 0;
	u8 *p = put_msg_prologue(xid, vers, credits, direction, inv_handle, size, out, &err);

	if (!p)
		return ktl::error(err);
	if (write) {
		chunks::put_one_write_lists(p, seg);
		return size;
	}
	ktl::store_be32(p, 0);	   /* the Read list's end */
	ktl::store_be32(p + 4, 0); /* the Write list's end */
	ktl::store_be32(p + 8, 1); /* a Reply chunk */
	ktl::store_be32(p + 12, 1); /* of one segment */
	put_segment(p + 16, seg);
	return size;
}

ktl::Result<u32> encode_one_write_msg(u32 xid, u32 vers, u32 credits, u32 direction,
				      u32 inv_handle, const Segment &seg, ktl::Bytes out)
{
	return encode_one_segment_msg(xid, vers, credits, direction, inv_handle, seg, true, out);
}

ktl::Result<u32> encode_one_reply_msg(u32 xid, u32 vers, u32 credits, u32 direction,
				      u32 inv_handle, const Segment &seg, ktl::Bytes out)
{
	return encode_one_segment_msg(xid, vers, credits, direction, inv_handle, seg, false, out);
}

const char *v2_err_name(u32 code)
{
	switch (static_cast<V2ErrCode>(code)) {
	case V2ErrCode::Vers: return "RDMA2_ERR_VERS";
	case V2ErrCode::BadXdr: return "RDMA2_ERR_BAD_XDR";
	case V2ErrCode::InvalidProc: return "RDMA2_ERR_INVALID_PROC";
	case V2ErrCode::ReadChunks: return "RDMA2_ERR_READ_CHUNKS";
	case V2ErrCode::WriteChunks: return "RDMA2_ERR_WRITE_CHUNKS";
	case V2ErrCode::Segments: return "RDMA2_ERR_SEGMENTS";
	case V2ErrCode::WriteResource: return "RDMA2_ERR_WRITE_RESOURCE";
	case V2ErrCode::ReplyResource: return "RDMA2_ERR_REPLY_RESOURCE";
	case V2ErrCode::InvalidOption: return "RDMA2_ERR_INVAL_OPTION";
	case V2ErrCode::System: return "RDMA2_ERR_SYSTEM";
	}
	return "unknown error";
}

namespace v2_impl {

template <bool Write>
bool one_segment_msg(ktl::ConstBytes buf, u32 vers, const DecodeLimits &lim, V1Header *hdr,
		     u32 *direction, u32 *inv_handle)
{
	const u8 *lists = buf.data() + fixed_header_size(vers);
	/* a Write chunk is the Write list's first item; the Reply chunk
	 * follows the Write list's end: its present word, count, segment */
	const u8 *chunk = lists + (Write ? 4 : 8);
	const u32 hdr_len = one_segment_msg_size(vers, Write);
	Segment seg;
	u64 end;

	/* the caller checked the fixed words and the chunkless length */
	if (buf.size() < hdr_len + kXdrWord || ktl::load_be32(lists) ||
	    ktl::load_be32(chunk) != 1 || ktl::load_be32(chunk + 4) != 1 ||
	    (Write && (ktl::load_be32(lists + 28) || ktl::load_be32(lists + 32) ||
		       !lim.max_write_chunks)) ||
	    !lim.max_segments_per_chunk || !lim.max_segments)
		return false;
	seg.handle = ktl::load_be32(chunk + 8);
	seg.length = ktl::load_be32(chunk + 12);
	seg.offset = (u64)ktl::load_be32(chunk + 16) << 32 | ktl::load_be32(chunk + 20);
	if (ktl::add_overflow<u64>(seg.offset, seg.length, &end) ||
	    !common_msg_rest(buf, vers, hdr_len, hdr, direction, inv_handle))
		return false;
	ChunkLists &cl = hdr->chunks;
	cl.segs[0] = seg;
	cl.nsegs = 1;
	if (Write) {
		cl.write[0] = ChunkRef{0, 0, 1};
		cl.nwrite = 1;
	} else {
		cl.reply = ChunkRef{0, 0, 1};
		cl.has_reply = true;
	}
	return true;
}

template bool one_segment_msg<true>(ktl::ConstBytes, u32, const DecodeLimits &, V1Header *,
				    u32 *, u32 *);
template bool one_segment_msg<false>(ktl::ConstBytes, u32, const DecodeLimits &, V1Header *,
				     u32 *, u32 *);

} // namespace v2_impl

V2Verdict v2_decode_msg(ktl::ConstBytes buf, const DecodeLimits &lim, V1Header *call,
			u32 *direction, u32 *inv_handle)
{
	if (decode_common_msg(buf, kRpcRdmaVersion2, lim, call, direction, inv_handle))
		return V2Verdict::Ok;
	return v2_decode_msg_full(buf, lim, call, direction, inv_handle);
}

V2Verdict v2_decode_msg_full(ktl::ConstBytes buf, const DecodeLimits &lim, V1Header *call,
			     u32 *direction, u32 *inv_handle)
{
	buf = buf.first(ktl::U32_MAX);
	ktl::XdrReader xdr(buf);
	u32 proc;

	call->xid = call->vers = call->credits = 0;
	call->proc = V1Proc::Msg;
	call->chunks.clear();
	call->err = call->vers_low = call->vers_high = 0;
	call->hdr_len = call->payload_len = 0;
	*direction = 0;
	*inv_handle = 0;
	const u8 *fixed = xdr.take(kFixedHeaderSize);
	if (!fixed)
		return V2Verdict::TooShort;
	call->xid = ktl::load_be32(fixed);
	call->vers = ktl::load_be32(fixed + 4);
	call->credits = ktl::load_be32(fixed + 8);
	proc = ktl::load_be32(fixed + 12);
	if (call->vers != kRpcRdmaVersion2)
		return V2Verdict::VersionMismatch;
	if (proc != static_cast<u32>(V2Proc::Msg) && proc != static_cast<u32>(V2Proc::NoMsg))
		return V2Verdict::InvalidProc;
	const V2Proc p = static_cast<V2Proc>(proc);
	call->proc = p == V2Proc::Msg ? V1Proc::Msg : V1Proc::NoMsg;
	V2Verdict v = v2_impl::get_msg_body(xdr, lim, direction, inv_handle, &call->chunks);
	if (v != V2Verdict::Ok)
		return v;
	call->hdr_len = (u32)xdr.offset();
	call->payload_len = (u32)(buf.size() - xdr.offset());
	return v2_impl::check_msg(buf, call->xid, p, *direction, call->chunks, call->hdr_len);
}

ktl::Result<u32> v2_encode_msg(const V1Header &hdr, u32 direction, u32 inv_handle,
			       ktl::Bytes out)
{
	ktl::XdrWriter xdr(out);
	V2Proc proc;

	if (hdr.proc == V1Proc::Msg)
		proc = V2Proc::Msg;
	else if (hdr.proc == V1Proc::NoMsg)
		proc = V2Proc::NoMsg;
	else
		return ktl::error(ktl::err::EINVAL);
	if (direction > kMsgReply)
		return ktl::error(ktl::err::EINVAL);
	const u32 size = kFixedHeaderSize + kV2ExtraHeaderSize + hdr.chunks.encoded_size();
	u8 *p = xdr.reserve(size);
	if (!p)
		return ktl::error(ktl::err::EMSGSIZE);
	p = put_fixed_header(p, hdr.xid, kRpcRdmaVersion2, hdr.credits, static_cast<u32>(proc));
	ktl::store_be32(p, direction);
	ktl::store_be32(p + 4, inv_handle);
	chunks::put_lists(p + kV2ExtraHeaderSize, hdr.chunks);
	return size;
}

V2Control v2_responder_control(V2Header *hdr, V2Error *err)
{
	*err = V2Error{};
	switch (hdr->proc) {
	case V2Proc::ConnProp:
		return V2Control::ConnProp;
	case V2Proc::Error:
		return V2Control::Drop; /* errors only flow to requesters */
	case V2Proc::Optional:
		/* Table 2: opttype 1 carries a CONNPROP; the other property
		 * operations, and any opttype we do not know, are not
		 * supported (Section 5.3). */
		if (hdr->opttype == 1) {
			if (v2_decode_optinfo(hdr) == V2Verdict::Ok)
				return V2Control::ConnProp;
			err->code = static_cast<u32>(V2ErrCode::BadXdr);
			return V2Control::ReplyError;
		}
		break;
	default:
		/* REQPROP, RESPROP, UPDPROP: OPTIONAL operations we do not
		 * support (Section 5.3). */
		break;
	}
	err->code = static_cast<u32>(V2ErrCode::InvalidOption);
	return V2Control::ReplyError;
}

V2Verdict v2_decode_optinfo(V2Header *hdr)
{
	ktl::XdrReader xdr(hdr->optinfo);
	V2Verdict v;
	V2Proc as;

	switch (hdr->opttype) {
	case 1: as = V2Proc::ConnProp; break;
	case 2: as = V2Proc::ReqProp; break;
	case 3: as = V2Proc::ResProp; break;
	case 4: as = V2Proc::UpdProp; break;
	default: return V2Verdict::InvalidProc;
	}
	v = v2_impl::get_prop_body(xdr, as, hdr);
	if (v == V2Verdict::Ok && xdr.remaining())
		v = V2Verdict::BadXdr; /* optinfo holds exactly the body */
	return v;
}

V2Action v2_responder_action(V2Verdict v, const V2Header &hdr,
			     const DecodeLimits &lim, V2Error *err)
{
	if (v == V2Verdict::Ok) {
		*err = V2Error{};
		return hdr.proc == V2Proc::Error ? V2Action::Drop : V2Action::Process;
	}
	return v2_verdict_action(v, lim, err);
}

V2Action v2_verdict_action(V2Verdict v, const DecodeLimits &lim, V2Error *err)
{
	*err = V2Error{};
	switch (v) {
	case V2Verdict::Ok:
		return V2Action::Process;
	case V2Verdict::TooShort:
		return V2Action::Drop;
	case V2Verdict::VersionMismatch:
		err->code = static_cast<u32>(V2ErrCode::Vers);
		err->vers_low = kV2VersLow;
		err->vers_high = kV2VersHigh;
		break;
	case V2Verdict::InvalidProc:
		err->code = static_cast<u32>(V2ErrCode::InvalidProc);
		break;
	case V2Verdict::BadXdr:
		err->code = static_cast<u32>(V2ErrCode::BadXdr);
		break;
	case V2Verdict::TooManyReadChunks:
		err->code = static_cast<u32>(V2ErrCode::ReadChunks);
		err->max_chunks = ktl::min(lim.max_read_chunks, kMaxChunksCap);
		break;
	case V2Verdict::TooManyWriteChunks:
		err->code = static_cast<u32>(V2ErrCode::WriteChunks);
		err->max_chunks = ktl::min(lim.max_write_chunks, kMaxChunksCap);
		break;
	case V2Verdict::TooManySegments:
		err->code = static_cast<u32>(V2ErrCode::Segments);
		err->max_segments = ktl::min(lim.max_segments_per_chunk, kMaxSegmentsCap);
		break;
	case V2Verdict::TooManyProperties:
		err->code = static_cast<u32>(V2ErrCode::System);
		break;
	}
	return V2Action::ReplyError;
}

const char *v2_verdict_name(V2Verdict v)
{
	switch (v) {
	case V2Verdict::Ok: return "ok";
	case V2Verdict::TooShort: return "too_short";
	case V2Verdict::VersionMismatch: return "version_mismatch";
	case V2Verdict::InvalidProc: return "invalid_proc";
	case V2Verdict::BadXdr: return "bad_xdr";
	case V2Verdict::TooManyReadChunks: return "too_many_read_chunks";
	case V2Verdict::TooManyWriteChunks: return "too_many_write_chunks";
	case V2Verdict::TooManySegments: return "too_many_segments";
	case V2Verdict::TooManyProperties: return "too_many_properties";
	}
	return "?";
}

namespace v2_impl {

static bool put_opaque(ktl::XdrWriter &xdr, ktl::ConstBytes data)
{
	return data.size() <= ktl::U32_MAX && xdr.put_u32((u32)data.size()) &&
	       xdr.put_opaque_fixed(data);
}

static bool put_propset(ktl::XdrWriter &xdr, const PropSet &set)
{
	if (set.count > kMaxPropsCap || !xdr.put_u32(set.count))
		return false;
	for (u32 i = 0; i < set.count; i++) {
		const PropVal &pv = set.items[i];

		if (!xdr.put_u32(pv.which))
			return false;
		if (pv.is_u32 ? !(xdr.put_u32(4) && xdr.put_u32(pv.value)) :
				!put_opaque(xdr, pv.data))
			return false;
	}
	return true;
}

static bool put_subset(ktl::XdrWriter &xdr, const PropSubset &sub)
{
	if (sub.nwords > kMaxSubsetWordsCap || !xdr.put_u32(sub.nwords))
		return false;
	for (u32 i = 0; i < sub.nwords; i++)
		if (!xdr.put_u32(sub.words[i]))
			return false;
	return true;
}

/* false for a code outside rpcrdma2_errcode or no room */
static bool put_error(ktl::XdrWriter &xdr, const V2Error &e, bool *bad)
{
	if (!xdr.put_u32(e.code))
		return false;
	switch (static_cast<V2ErrCode>(e.code)) {
	case V2ErrCode::Vers:
		return xdr.put_u32(e.vers_low) && xdr.put_u32(e.vers_high);
	case V2ErrCode::BadXdr:
	case V2ErrCode::InvalidProc:
	case V2ErrCode::InvalidOption:
	case V2ErrCode::System:
		return true;
	case V2ErrCode::ReadChunks:
	case V2ErrCode::WriteChunks:
		return xdr.put_u32(e.max_chunks);
	case V2ErrCode::Segments:
		return xdr.put_u32(e.max_segments);
	case V2ErrCode::WriteResource:
		return xdr.put_u32(e.chunk_index) && xdr.put_u32(e.length_needed);
	case V2ErrCode::ReplyResource:
		return xdr.put_u32(e.length_needed);
	}
	*bad = true;
	return false;
}

static bool put_body(ktl::XdrWriter &xdr, const V2Header &hdr, bool *bad)
{
	switch (hdr.proc) {
	case V2Proc::Msg:
	case V2Proc::NoMsg:
		return xdr.put_u32(hdr.direction) && xdr.put_u32(hdr.inv_handle) &&
		       chunks::encode(xdr, hdr.chunks);
	case V2Proc::Error:
		return put_error(xdr, hdr.error, bad);
	case V2Proc::Optional:
		return xdr.put_u32(hdr.direction) && xdr.put_u32(hdr.opttype) &&
		       put_opaque(xdr, hdr.optinfo);
	case V2Proc::ConnProp:
		return put_propset(xdr, hdr.props) && put_subset(xdr, hdr.subset_a);
	case V2Proc::ReqProp:
	case V2Proc::UpdProp:
		return put_propset(xdr, hdr.props);
	case V2Proc::ResProp:
		return put_subset(xdr, hdr.subset_a) &&
		       put_subset(xdr, hdr.subset_b) && put_propset(xdr, hdr.props);
	}
	*bad = true;
	return false;
}

} // namespace v2_impl

ktl::Result<u32> v2_encode(const V2Header &hdr, ktl::Bytes out)
{
	ktl::XdrWriter xdr(out);
	bool bad = false;

	if ((hdr.proc == V2Proc::Msg || hdr.proc == V2Proc::NoMsg ||
	     hdr.proc == V2Proc::Optional) &&
	    hdr.direction > kMsgReply)
		return ktl::error(ktl::err::EINVAL);
	if (xdr.put_u32(hdr.xid) && xdr.put_u32(hdr.vers) &&
	    xdr.put_u32(hdr.credits) &&
	    xdr.put_u32(static_cast<u32>(hdr.proc)) &&
	    v2_impl::put_body(xdr, hdr, &bad))
		return (u32)xdr.offset();
	return ktl::error(bad ? ktl::err::EINVAL : ktl::err::EMSGSIZE);
}

ktl::Result<u32> v2_encode_error(u32 xid, u32 vers, u32 credits,
				 const V2Error &err, ktl::Bytes out)
{
	ktl::XdrWriter xdr(out);
	bool bad = false;

	if (xdr.put_u32(xid) && xdr.put_u32(vers) && xdr.put_u32(credits) &&
	    xdr.put_u32(static_cast<u32>(V2Proc::Error)) &&
	    v2_impl::put_error(xdr, err, &bad))
		return (u32)xdr.offset();
	return ktl::error(bad ? ktl::err::EINVAL : ktl::err::EMSGSIZE);
}

namespace v2_impl {

static const PropVal *find_prop(const PropSet &set, u32 which)
{
	for (u32 i = 0; i < set.count && i < kMaxPropsCap; i++)
		if (set.items[i].which == which)
			return &set.items[i];
	return nullptr;
}

/* The u32 in a property value; @dflt when the value is empty. */
static bool prop_u32(const PropVal &pv, u32 dflt, u32 *value)
{
	if (pv.is_u32) {
		*value = pv.value;
		return true;
	}
	if (pv.data.size() == 0) {
		*value = dflt;
		return true;
	}
	if (pv.data.size() != 4)
		return false;
	*value = ktl::load_be32(pv.data.data());
	return true;
}

} // namespace v2_impl

bool v2_prop_rbsiz(const PropSet &set, u32 *value)
{
	const PropVal *pv = v2_impl::find_prop(set, kV2PropRbsiz);

	*value = kV2DefaultRbsiz;
	return pv && v2_impl::prop_u32(*pv, kV2DefaultRbsiz, value);
}

bool v2_prop_brs(const PropSet &set, BkReqSup *value)
{
	const PropVal *pv = v2_impl::find_prop(set, kV2PropBrs);
	u32 v;

	*value = kV2DefaultBrs;
	if (!pv || !v2_impl::prop_u32(*pv, static_cast<u32>(kV2DefaultBrs), &v) ||
	    v > static_cast<u32>(BkReqSup::Genl))
		return false;
	*value = static_cast<BkReqSup>(v);
	return true;
}

bool v2_inv_handle_usable(const V2Header &hdr)
{
	return v2_handle_in(hdr.chunks, hdr.inv_handle);
}

bool v2_handle_in(const ChunkLists &cl, u32 handle)
{
	if (handle == 0)
		return false;
	for (u32 i = 0; i < cl.nsegs && i < kMaxSegmentsCap; i++)
		if (cl.segs[i].handle == handle)
			return true;
	return false;
}

} // namespace rpcrdmax::core
