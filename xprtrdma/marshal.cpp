// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma/marshal.cpp - turning an RPC Call into an RPC-over-RDMA message,
 * and a Reply back into the RPC's receive buffer.
 *
 * Call: the protocol core's planner picks the form from the shapes of the
 * send and receive xdr_bufs and the inline thresholds (RFC 8166 Sections
 * 3.4-3.5): inline, a Read chunk for a DDP-eligible argument (NFS WRITE
 * data), or a Long Call in a Position Zero Read chunk; and for the Reply
 * a Write chunk for a DDP-eligible result (NFS READ data) and/or a Reply
 * chunk when the Reply may not fit inline.  Each planned segment is
 * registered (frwr.cpp) and the header encoded by the core.
 *
 * The kernel keeps a DDP item's XDR round-up at the start of the tail;
 * the planner counts it separately, so a tail segment that excludes it
 * (the reduced Long Call) is shifted past it here.
 *
 * Reply: decoded by the core and matched by XID; its Receive buffer is
 * held until the request's MRs are invalid, and only then is the message
 * placed in the RPC's receive buffer, the RPC completed and the Receive
 * reposted.  A held Receive costs no credit: sunrpc sends no new Call
 * until this one completes and releases its congestion slot.
 */
#include "xprtrdma.h"

namespace rpcrdmax::xprtrdma {

static core::MsgShape marshal_shape(const rpcrdmax_xdr_shape &s)
{
	core::MsgShape m = {};
	bool ddp = s.ddp && s.page_len > 0 && (s.head_len & 3) == 0;
	u32 pad = ddp ? (u32)xdr_pad(s.page_len) : 0;

	if (pad > s.tail_len)
		ddp = false, pad = 0;
	m.head = { s.head_len, s.head_offset };
	m.pages = { s.page_len, s.page_offset };
	m.pad = pad;
	m.tail = { s.tail_len - pad, (s.tail_offset + pad) % RPCRDMAX_PAGE_SIZE };
	m.ddp = ddp;
	return m;
}

/* xprtrdma_chunk_read, _write or _reply for each of a chunk's @n MRs:
 * "more" until the last (@nsegs counts the page pieces left). */
void Conn::trace_chunk(rpcrdmax_chunk_event which, rpc_rqst *rqst, u32 pos, ClntMr *const *mrs,
		       u32 n)
{
	int left = 0;

	for (u32 i = 0; i < n; i++)
		left += mrs[i]->nents;
	for (u32 i = 0; i < n; i++) {
		const rpcrdmax_mr_info info = mrs[i]->info();
		rpcrdmax_trace_chunk(which, rqst, pos, &info, left);
		left -= mrs[i]->nents;
	}
}

/*
 * Step 1: the Call's plan (core::plan_rpc: inline, Read chunk, Long Call;
 * Write list or Reply chunk for the Reply), and which shortcut made it.
 * The shortcuts plan a Call that goes inline, so they need only its
 * length (@call_len); for plan_rpc the Call's shape is completed from
 * @rqst into *@cs and *@call.
 * "A sender MUST NOT reduce a Payload stream when RPCSEC_GSS integrity
 * or encryption services are in use" (RFC 8166 Section 8.2.2): no data
 * item is DDP-eligible then; large messages go whole (Long Call, Reply
 * chunk).
 */
Result<CallShortcut> Conn::plan_call(rpc_rqst *rqst, u32 xid, u32 vers,
				     const core::InlineThresholds &thr, u64 call_len,
				     const core::MsgShape &reply, rpcrdmax_xdr_shape *cs,
				     core::MsgShape *call)
{
	core::PlanParams params = { thr.call, thr.reply, kMrsPerReq, pages_per_mr,
				    RPCRDMAX_PAGE_SIZE, true, vers };
	/* the common shapes first, told apart by the Reply's: a DDP page
	 * list (a READ's: one Write segment, all else inline), or none (a
	 * head too large for inline: a Reply chunk of one segment, where
	 * the auth flavor does not matter: there is no data item).  Each
	 * branch reads the flavor's DATATOUCH itself: reading it once
	 * before a second test of reply.ddp makes a READ's path longer. */
	if (reply.ddp) {
		params.ddp_allowed = !rqst_data_touch(rqst);
		if (core::plan_one_write(call_len, reply, params, &plan_))
			return CallShortcut::OneWrite;
	} else if (core::plan_one_reply(call_len, reply, params, &plan_)) {
		return CallShortcut::OneReply;
	} else {
		params.ddp_allowed = !rqst_data_touch(rqst);
	}
	rqst_shape_rest(rqst, false, cs);
	*call = marshal_shape(*cs);
	const core::PlanError pe = core::plan_rpc(*call, reply, params, &plan_);
	if (pe != core::PlanError::None) {
		ep_->stats.add(ClntStat::FailedMarshal);
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "cannot plan XID %08x: %s", xid,
					 core::plan_error_name(pe));
		return error(err::EIO);
	}
	return CallShortcut::None;
}

/*
 * Register chunk @c's segments (regd[*@n...], their REG_MRs in wrs[*@n...]),
 * each added to the header's lists as @which says (a Read chunk at
 * @pos); @tail_shift moves segments of the tail (a Long Call's XDR
 * round-up).  Fires the chunk's tracepoint.
 */
Result<void> Conn::register_chunk(Req *req, rpc_rqst *rqst, const core::PlannedChunk &c,
				  rpcrdmax_chunk_event which, u32 pos, u32 tail_shift,
				  Wr **wrs, ClntMr **regd, unsigned int *n)
{
	const bool rcv = which != RPCRDMAX_CHUNK_EV_READ;
	core::ChunkLists &cl = send_hdr_.chunks;
	const unsigned int first = *n;

	for (u32 i = 0; i < c.nsegs; i++) {
		if (*n >= kMaxRegsPerCall)
			return error(err::E2BIG);
		const core::PlannedSegment &ps = c.segs[i];
		u32 shift = ps.extent == core::ExtentId::Tail ? tail_shift : 0;
		ClntMr *m = RPCRDMAX_TRY(frwr_register(req, rqst, rcv, ps, shift));
		wrs[*n] = &m->reg_wr;
		regd[(*n)++] = m;
		core::ListError le = which == RPCRDMAX_CHUNK_EV_READ ? cl.add_read_segment(pos, m->seg)
				     : which == RPCRDMAX_CHUNK_EV_WRITE ? cl.add_write_segment(m->seg)
									: cl.add_reply_segment(m->seg);
		if (le != core::ListError::None)
			return error(err::EINVAL);
	}
	if (tp_any(RPCRDMAX_TP_XPRTRDMA_CHUNK_READ, RPCRDMAX_TP_XPRTRDMA_CHUNK_WRITE,
		   RPCRDMAX_TP_XPRTRDMA_CHUNK_REPLY))
		trace_chunk(which, rqst, pos, regd + first, *n - first);
	return {};
}

/* Step 2: every chunk of the plan registered, in wire order (Read list,
 * Write list, Reply chunk), into the header's lists; *@n: the REG_MRs in
 * @wrs. */
Result<void> Conn::register_chunks(Req *req, rpc_rqst *rqst, const core::MsgShape &call,
				   Wr **wrs, unsigned int *n)
{
	core::ChunkLists &cl = send_hdr_.chunks;
	ClntMr *regd[kMaxRegsPerCall] RPCRDMAX_NOINIT; /* filled as registered */

	if (plan_.has_call_chunk) {
		u32 shift = plan_.call == core::CallForm::LongCallReadChunk ? call.pad : 0;
		RPCRDMAX_TRY(register_chunk(req, rqst, plan_.call_chunk, RPCRDMAX_CHUNK_EV_READ, 0,
					    shift, wrs, regd, n));
	}
	if (plan_.has_read)
		RPCRDMAX_TRY(register_chunk(req, rqst, plan_.read, RPCRDMAX_CHUNK_EV_READ,
					    plan_.read.position, 0, wrs, regd, n));
	if (plan_.has_write) {
		if (cl.add_write_chunk() != core::ListError::None)
			return error(err::EINVAL);
		RPCRDMAX_TRY(register_chunk(req, rqst, plan_.write, RPCRDMAX_CHUNK_EV_WRITE, 0, 0,
					    wrs, regd, n));
	}
	if (plan_.has_reply) {
		if (cl.set_reply_chunk() != core::ListError::None)
			return error(err::EINVAL);
		RPCRDMAX_TRY(register_chunk(req, rqst, plan_.reply_chunk, RPCRDMAX_CHUNK_EV_REPLY,
					    0, 0, wrs, regd, n));
	}
	return {};
}

/* The whole Call of @rqst (@cs) copied to @dst (@room octets): the
 * octets copied, or -EMSGSIZE. */
static int copy_whole(rpc_rqst *rqst, const rpcrdmax_xdr_shape &cs, u8 *dst, u32 room)
{
	/* No page list (most Calls): head and tail are kernel memory at
	 * the xdr_buf's addresses, copied here. */
	if (!cs.page_len && cs.head_len + cs.tail_len == cs.len) {
		if (cs.len > room)
			return -err::EMSGSIZE;
		rqst_xdr(rqst, false).copy_flat(dst, cs.head_len, cs.tail_len);
		return (int)cs.len;
	}
	return rpcrdmax_xprt_rqst_snd_copy(rqst, dst, room);
}

/* Step 4: what of the Call travels inline, copied to @dst (@room
 * octets): all of it, or for a Read chunk the head and the tail less the
 * data's XDR round-up; nothing for a Long Call.  The octets copied, or a
 * negative errno. */
int Conn::copy_inline(rpc_rqst *rqst, const rpcrdmax_xdr_shape &cs, const core::MsgShape &call,
		      u8 *dst, u32 room)
{
	switch (plan_.call) {
	case core::CallForm::Inline:
		return copy_whole(rqst, cs, dst, room);
	case core::CallForm::ReadChunk: {
		const u32 tail_at = cs.head_len + cs.page_len + call.pad;
		int copied = rpcrdmax_xprt_rqst_snd_copy_range(rqst, 0, cs.head_len, dst, room);
		if (copied < 0 || !call.tail.len)
			return copied;
		int t = rpcrdmax_xprt_rqst_snd_copy_range(rqst, tail_at, call.tail.len, dst + copied,
							  room - (u32)copied);
		return t < 0 ? t : copied + t;
	}
	default: /* Long Calls: the message is in the Position Zero chunk */
		return 0;
	}
}

/* Step 5: mountstats' counts for a Call sent with chunks: segments
 * registered and their octets, and Long Calls (marshal counts the
 * pull-up of every Call: octets of the page list and tail copied into
 * the Send buffer, a DDP payload small enough to go inline, or a tail). */
void Conn::count_chunks(const Req *req)
{
	Counters &st = ep_->stats;

	if (plan_.has_read || plan_.has_call_chunk) {
		st.add(ClntStat::ReadChunks, (int)((plan_.has_read ? plan_.read.nsegs : 0) +
						(plan_.has_call_chunk ? plan_.call_chunk.nsegs : 0)),
		       ClntStat::RequestBytes, (plan_.has_read ? plan_.read.length : 0) +
					       (plan_.has_call_chunk ? plan_.call_chunk.length : 0));
	}
	/* write_offered and reply_offered are zero without their chunk */
	if (plan_.has_write)
		st.add(ClntStat::WriteChunks, (int)plan_.write.nsegs,
		       ClntStat::RequestBytes, req->write_offered);
	if (plan_.has_reply)
		st.add(ClntStat::ReplyChunks, (int)plan_.reply_chunk.nsegs,
		       ClntStat::RequestBytes, req->reply_offered);
	if (plan_.proc == core::V1Proc::NoMsg)
		st.add(ClntStat::NomsgCalls);
}

/*
 * Steps 2 and 3 of a Call plan_rpc() planned: its chunks registered
 * (*@n REG_MRs in @wrs) into the header's lists, and the header encoded
 * into @out by the general encoders.  Its octets.
 */
Result<u32> Conn::encode_chunks(Req *req, rpc_rqst *rqst, u32 xid, u32 vers, u32 credits,
				const core::MsgShape &call, Wr **wrs, unsigned int *n, Bytes out)
{
	core::V1Header &h = send_hdr_;

	req->inv_handle = 0;
	h.reset();
	h.xid = xid;
	h.vers = vers;
	h.credits = credits;
	h.proc = plan_.proc;
	RPCRDMAX_TRY(register_chunks(req, rqst, call, wrs, n));
	if (vers != core::kRpcRdmaVersion2)
		return core::v1_encode(h, out);
	/* Version 2 (draft Section 6.2.3): the server may invalidate the
	 * one handle this names; the others we invalidate. */
	req->inv_handle = *n ? h.chunks.reply_inv_handle() : 0;
	return core::v2_encode_msg(h, core::kMsgCall, req->inv_handle, out);
}

/*
 * Steps 2 and 3 of a Call plan_call() took shortcut @sc for: the
 * Reply's one segment registered (its REG_MR in wrs[0]) and the header
 * written around it from fixed offsets; no chunk lists are built.  Its
 * octets.
 */
Result<u32> Conn::encode_one_segment(Req *req, rpc_rqst *rqst, CallShortcut sc, u32 xid, u32 vers,
				     u32 credits, Wr **wrs, unsigned int *n, Bytes out)
{
	const bool write = sc == CallShortcut::OneWrite;
	const core::PlannedChunk &c = write ? plan_.write : plan_.reply_chunk;

	req->inv_handle = 0;
	ClntMr *m = RPCRDMAX_TRY(frwr_register(req, rqst, true, c.segs[0], 0));
	wrs[0] = &m->reg_wr;
	*n = 1;
	if (tp_any(RPCRDMAX_TP_XPRTRDMA_CHUNK_WRITE, RPCRDMAX_TP_XPRTRDMA_CHUNK_REPLY))
		trace_chunk(write ? RPCRDMAX_CHUNK_EV_WRITE : RPCRDMAX_CHUNK_EV_REPLY, rqst, 0,
			    &m, 1);
	/* Version 2: the one handle, which the server may invalidate
	 * (ChunkLists::reply_inv_handle's rule) */
	if (vers == core::kRpcRdmaVersion2)
		req->inv_handle = m->seg.handle;
	return write ? core::encode_one_write_msg(xid, vers, credits, core::kMsgCall,
						  req->inv_handle, m->seg, out)
		     : core::encode_one_reply_msg(xid, vers, credits, core::kMsgCall,
						  req->inv_handle, m->seg, out);
}

/* Octets of an xdr_buf's stream as described by @s: for a Call, at least
 * what is sent; for a Reply, the room for the largest possible one. */
static u64 shape_len(const rpcrdmax_xdr_shape &s)
{
	return max<u64>((u64)s.head_len + s.page_len + s.tail_len, s.len);
}

/*
 * The header and inline part of a Call that goes inline both ways into
 * @out: no plan_, nothing registered, the Call copied whole after a
 * chunkless header.  *@hl: the header's octets; *@copied: the Call's.
 */
Result<void> Conn::encode_inline_call(Req *req, rpc_rqst *rqst, u32 xid, u32 vers,
				      const rpcrdmax_xdr_shape &cs, Bytes out, u32 *hl,
				      int *copied)
{
	const u32 credits = core::credits_requester_request(credits_);
	auto enc = vers == core::kRpcRdmaVersion2
			   ? core::v2_encode_inline_msg(xid, credits, core::kMsgCall, out)
			   : core::v1_encode_inline_msg(xid, credits, out);

	req->inv_handle = 0;
	if (enc.is_error())
		return enc.error();
	*hl = enc.value();
	*copied = copy_whole(rqst, cs, out.data() + *hl, (u32)out.size() - *hl);
	if (*copied < 0)
		return error(err::EMSGSIZE);
	return {};
}

/*
 * The same for a Call planned with chunks (@sc, @call: plan_call's): its
 * chunks registered (the REG_MRs in wrs[0, *@n)), the header encoded
 * (for the common one-segment shapes without chunk lists), what travels
 * inline copied after it.
 */
Result<void> Conn::encode_chunked_call(Req *req, rpc_rqst *rqst, u32 xid, u32 vers,
				       CallShortcut sc, const core::MsgShape &call,
				       const rpcrdmax_xdr_shape &cs, Bytes out, Wr **wrs,
				       unsigned int *n, u32 *hl, int *copied)
{
	const u32 credits = core::credits_requester_request(credits_);
	auto enc = sc == CallShortcut::None
			   ? encode_chunks(req, rqst, xid, vers, credits, call, wrs, n, out)
			   : encode_one_segment(req, rqst, sc, xid, vers, credits, wrs, n, out);

	if (enc.is_error())
		return enc.error();
	*hl = enc.value();
	*copied = copy_inline(rqst, cs, call, out.data() + *hl, (u32)out.size() - *hl);
	if (*copied < 0)
		return error(err::EMSGSIZE);
	return {};
}

/* A Call that could not be marshalled (@r): its MRs, only mapped, let go;
 * -EAGAIN (no MR: wait_for_space) and -ENOBUFS (no memory: sunrpc tries
 * again a little later) as they are, anything else counted, logged and
 * -EIO. */
Result<void> Conn::marshal_failed(Req *req, u32 xid, Result<void> r)
{
	const int rc = r.error().code();

	/* No wake: with -EAGAIN the writers wait for MRs others free, and
	 * these alone were too few for this Call. */
	frwr_release(req, false);
	if (rc == -err::EAGAIN || rc == -err::ENOBUFS)
		return r;
	ep_->stats.add(ClntStat::FailedMarshal);
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "cannot marshal XID %08x: %d", xid, rc);
	return error(err::EIO);
}

/* A version 2 Call is going out: until the version is settled, Replies
 * are waited for kV2ProbeMs at most (ClntEp::reply_timeout). */
void Conn::note_v2_call()
{
	v2_sent_.set(1);
	if (!v2_confirmed()) {
		ep_->v2_probe(true);
		if (v2_confirmed())
			ep_->v2_probe(false);
	}
}

/*
 * The Call of @rqst into Send buffer @sb: planned, its chunks registered
 * and its transport header encoded, what travels inline copied after it,
 * counted.  An RPC whose Call and largest Reply both fit inline (LOOKUP;
 * on 6.1 a GETATTR too) skips the shapes and registration: a chunkless
 * header and the Call copied after it.  *@send_len: the octets to send;
 * wrs[0, *@nwr): the REG_MRs to post before the Send.  -EAGAIN when no
 * MR is free (sunrpc waits, wait_for_space), -ENOBUFS when the Reply's
 * pages cannot be had, -EIO when the Call cannot be sent.
 */
Result<void> Conn::marshal(Req *req, rpc_rqst *rqst, u32 xid, SendBuf *sb, u32 *send_len,
			   Wr **wrs, unsigned int *nwr)
{
	/* the lengths decide an inline RPC; an RPC with chunks reads the rest */
	rpcrdmax_xdr_shape cs = rqst_lengths(rqst, false), rs = rqst_lengths(rqst, true);

	if (rqst_rcv_sparse(rqst) &&
	    rpcrdmax_xprt_rqst_fill_sparse(rqst, RPCRDMAX_GFP_NOFS | RPCRDMAX_GFP_NOWARN))
		return error(err::ENOBUFS);
	/* read once: the thresholds, the plan and the header agree on it */
	const u32 vers = call_vers() == core::kRpcRdmaVersion2 ? core::kRpcRdmaVersion2
							       : core::kRpcRdmaVersion1;
	const core::InlineThresholds thr = call_thresholds(vers);
	const u32 limit = min(thr.call, send_size);
	const u64 call_len = shape_len(cs);
	const Bytes out(sb->data, limit);
	unsigned int n = 0;
	u32 hl = 0;
	int copied = 0;
	Result<void> r;
	/* An RPC that goes inline both ways needs no plan_: nothing is
	 * registered, and nothing but a pull-up is counted. */
	const bool inline_rpc = core::fits_inline(call_len, shape_len(rs), limit, thr.reply, vers);

	if (inline_rpc) {
		r = encode_inline_call(req, rqst, xid, vers, cs, out, &hl, &copied);
	} else {
		rqst_shape_rest(rqst, true, &rs);
		/* plan_call fills it for plan_rpc's Calls, the only ones that
		 * read it (a shortcut's Call goes inline) */
		core::MsgShape call RPCRDMAX_NOINIT;
		const CallShortcut sc = RPCRDMAX_TRY(
			plan_call(rqst, xid, vers, thr, call_len, marshal_shape(rs), &cs, &call));
		r = encode_chunked_call(req, rqst, xid, vers, sc, call, cs, out, wrs, &n, &hl,
					&copied);
	}
	if (r.is_error())
		return marshal_failed(req, xid, r);
	if (vers == core::kRpcRdmaVersion2)
		note_v2_call();
	req->resend_ok = false;
	const bool pulled = (u32)copied > cs.head_len;
	if (pulled)
		ep_->stats.add(ClntStat::PullupBytes, (u32)copied - cs.head_len);
	req->write_offered = !inline_rpc && plan_.has_write ? plan_.write.length : 0;
	req->reply_offered = !inline_rpc && plan_.has_reply ? plan_.reply_chunk.length : 0;
	if (!inline_rpc)
		count_chunks(req);
	*send_len = hl + (u32)copied;
	*nwr = n;
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_MARSHAL))
		trace_marshal(rqst, inline_rpc, hl, pulled);
	return {};
}

/* xprtrdma_marshal for a Call marshalled with a header of @hl octets:
 * how it travels in the tracepoints' terms (@inline_rpc: plan_ was not
 * written; @pulled: octets past the head were copied into the Send
 * buffer). */
void Conn::trace_marshal(rpc_rqst *rqst, bool inline_rpc, u32 hl, bool pulled) const
{
	unsigned int call = RPCRDMAX_CH_LONG, reply = RPCRDMAX_CH_INLINE;

	if (inline_rpc || plan_.call == core::CallForm::Inline)
		call = pulled ? RPCRDMAX_CH_PULLUP : RPCRDMAX_CH_INLINE;
	else if (plan_.call == core::CallForm::ReadChunk)
		call = RPCRDMAX_CH_READ;
	if (!inline_rpc && plan_.has_write)
		reply = RPCRDMAX_CH_WRITE;
	else if (!inline_rpc && plan_.has_reply)
		reply = RPCRDMAX_CH_REPLY;
	rpcrdmax_trace_marshal(rqst, hl, call, reply);
}

/* Sum of the segment lengths the server reports writing into a chunk we
 * offered; false if they exceed what we registered for it. */
static bool marshal_written(const core::ChunkLists &cl, const core::ChunkRef &c, u32 offered,
			    u32 *out)
{
	u64 sum = cl.chunk_length(c);

	if (sum > offered)
		return false;
	*out = (u32)sum;
	return true;
}

/*
 * A backward-direction Call (RFC 8167) for the NFSv4.1+ callback
 * service: copied out of the Receive (which is reposted at once) into
 * one of the transport's backward slots and queued to the service, whose
 * Reply goes back through bc_send().  Like the stock client we take
 * backward messages inline only (what the Version Two draft calls
 * RDMA2_BKREQSUP_INLINE): no upper layer uses chunks in this direction.
 * One with chunks is answered with ERR_CHUNK (refuse_backward_chunks).
 * One with no free slot or callback service is dropped, counted and
 * logged: the server retransmits or gives up on it.
 */
void Conn::backward_call(const core::V1Header &h, const u8 *msg)
{
	ep_->stats.add(ClntStat::BackchannelCalls);
	if (core::v1_has_chunks(h)) {
		refuse_backward_chunks(h.xid, (u32)bc_vers_.read());
		return;
	}
	const int rc = rpcrdmax_xprt_bc_call(ep_->xprt_, msg, h.payload_len);
	if (!rc) {
		if (tp_on(RPCRDMAX_TP_XPRTRDMA_CB_CALL))
			rpcrdmax_trace_cb(ep_->xprt_, load_be32(msg), false);
		return;
	}
	ep_->stats.add(ClntStat::BcDropped);
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "dropped a backward Call (XID %08x): %s",
				 load_be32(msg),
				 rc == -err::ENOBUFS   ? "every backward slot is busy"
				 : rc == -err::EMSGSIZE ? "longer than a backward slot"
							: "no callback service on this transport");
}

/*
 * A version 1 message that failed as a Reply because it has a Read list.
 * Responders leave the Read list empty in every Reply (RFC 8166 Section
 * 4.3.1), so one that decodes as a Call, and is an RDMA_NOMSG or carries
 * an RPC Call, is a backward Call with chunks: it gets its ERR_CHUNK.
 * False when it is not one (a malformed Reply, dropped as such).
 */
bool Conn::backward_read_list(ConstBytes raw)
{
	core::V1Header &h = recv_hdr_;

	if (core::v1_decode_call(raw, core::DecodeLimits(), &h) != core::V1Verdict::Ok)
		return false;
	if (h.proc == core::V1Proc::Msg &&
	    core::v1_msg_direction(h, ConstBytes(raw.data() + h.hdr_len, h.payload_len)) !=
		    core::MsgDirection::Call)
		return false;
	bc_vers_.set((int)core::kRpcRdmaVersion1);
	ep_->stats.add(ClntStat::BackchannelCalls);
	refuse_backward_chunks(h.xid, core::kRpcRdmaVersion1);
	return true;
}

/* stock's xprtrdma_reply_*_err: @hdr's xid, vers and proc words as received */
void Conn::reply_err(rpcrdmax_reply_err which, ConstBytes hdr)
{
	auto word = [&](u32 i) { return hdr.size() >= 4 * (i + 1) ? load_be32(hdr.data() + 4 * i) : 0u; };

	if (tp_any(RPCRDMAX_TP_XPRTRDMA_REPLY_ERRS))
		rpcrdmax_trace_reply_err(which, ep_->xprt_, word(0), word(1), word(3));
}

/*
 * Put a Reply's @len inline octets at @src into @rqst's Reply buffer
 * (rq_private_buf): in order, or, after @ddp_len octets came in a Write
 * chunk, around them (RFC 8166 Section 3.4.6).  The head and tail are
 * kernel memory at the xdr_buf's addresses, copied here; a Reply that
 * reaches into the page list goes through the shim.  The Reply's length
 * as the RPC layer counts it, or -EMSGSIZE.
 */
static int place_reply(rpc_rqst *rqst, const u8 *src, u32 len, u32 ddp_len)
{
	const ktl::XdrBufView b = rqst_private_xdr(rqst);
	core::ReplyPlacement p;

	if (!ddp_len) {
		if (len > b.head_len())
			return rpcrdmax_xprt_rqst_rcv_copy(rqst, src, len);
		if (len)
			mem_copy(reinterpret_cast<void *>(b.head_base()), src, len);
		return (int)len;
	}
	if (!core::place_reply_around_ddp(b.head_len(), b.page_len(), b.tail_len(), len, ddp_len,
					  &p))
		return -err::EMSGSIZE;
	u8 *tail = reinterpret_cast<u8 *>(b.tail_base());
	if (p.head)
		mem_copy(reinterpret_cast<void *>(b.head_base()), src, p.head);
	if (p.pad || p.rest) { /* fits the tail: place_reply_around_ddp checked */
		mem_set(tail, 0, p.pad);
		mem_copy(tail + p.pad, src + p.head, p.rest);
	}
	return (int)p.rpc_len;
}

/* xprtrdma_decode_seg: each Write list and Reply chunk segment a Reply
 * returns (called only while the event is on). */
static void trace_returned(const core::ChunkLists &cl)
{
	cl.for_each_segment(cl.kWriteList | cl.kReplyChunk,
			    [](const core::ChunkRef &, u32, const core::Segment &s) {
				    rpcrdmax_trace_decode_seg(s.handle, s.length, s.offset);
			    });
}

/* xprtrdma_err_vers, _err_chunk or _err_unrecognized: the RDMA_ERROR @h
 * that answered @rqst. */
static void trace_rdma_error(rpc_rqst *rqst, const core::V1Header &h)
{
	if (h.err == (u32)core::V1ErrCode::Vers) {
		if (tp_on(RPCRDMAX_TP_XPRTRDMA_ERR_VERS))
			rpcrdmax_trace_err_vers(rqst, h.vers_low, h.vers_high);
	} else if (h.err == (u32)core::V1ErrCode::Chunk) {
		if (tp_on(RPCRDMAX_TP_XPRTRDMA_ERR_CHUNK))
			rpcrdmax_trace_err_chunk(rqst);
	} else if (tp_on(RPCRDMAX_TP_XPRTRDMA_ERR_UNRECOGNIZED)) {
		rpcrdmax_trace_err_unrecognized(rqst, h.err);
	}
}

bool Conn::handle_reply(RecvBuf *rb, u32 len, const ib_wc &wc)
{
	core::V1Header &h = recv_hdr_;
	const core::DecodeLimits limits;
	Counters &st = ep_->stats;
	const ConstBytes raw(rb->data, min(len, recv_size));

	/* Version Two (v2.cpp): only where our first Call offered it. */
	u32 vers, xid, low, high;
	core::V2Proc proc;
	if (offer_v2_ && core::v2_peek(raw, &vers, &proc)) {
		if (proc == core::V2Proc::Error && call_vers() == core::kRpcRdmaVersion2 &&
		    core::v2_peek_err_vers(raw, &xid, &low, &high)) {
			v2_err_vers(raw, xid, low, high);
			return true;
		}
		if (vers == core::kRpcRdmaVersion2)
			return v2_message(rb, raw, wc, proc);
	}

	auto verdict = core::v1_decode_reply(raw, limits, &h);
	auto action = core::v1_requester_action(verdict);

	if (verdict == core::V1Verdict::ReadListInReply && backward_read_list(raw))
		return true;

	if (action == core::RequesterAction::Drop) {
		st.add(ClntStat::BadReply);
		reply_err(verdict == core::V1Verdict::TooShort ? RPCRDMAX_REPLY_ERR_SHORT
			  : verdict == core::V1Verdict::VersionMismatch ? RPCRDMAX_REPLY_ERR_VERS
									: RPCRDMAX_REPLY_ERR_HDR,
			  raw);
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "dropped a Reply: %s",
					 core::v1_verdict_name(verdict));
		return true;
	}
	const u8 *msg = rb->data + h.hdr_len;
	if (action == core::RequesterAction::Complete &&
	    core::v1_msg_direction(h, ConstBytes(msg, h.payload_len)) == core::MsgDirection::Call) {
		/* A backward Call: its rdma_credit is the server's backward
		 * request, not a grant for our Calls. */
		bc_vers_.set((int)core::kRpcRdmaVersion1);
		backward_call(h, msg);
		return true;
	}
	if (call_vers() == core::kRpcRdmaVersion2) {
		/* Draft Section 7.3: a version 2 Call gets a version 2 Reply. */
		st.add(ClntStat::BadReply);
		reply_err(RPCRDMAX_REPLY_ERR_VERS, raw);
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING,
					 "dropped a version 1 Reply to a version 2 Call");
		return true;
	}
	return forward_reply(rb, raw, wc, h);
}

/*
 * A Reply's rdma_credit (@credit_field) into our grant, and sunrpc's
 * congestion window set to it when it changed (as stock does): the
 * window moves nowhere else on this connection after its reset
 * (rpcrdmax_xprt_reset_cong at set-up), so an unchanged grant costs no
 * call and no lock.
 */
void Conn::update_grant(u32 credit_field)
{
	const u32 grant = core::credits_requester_update(&credits_, credit_field);

	if (grant != cwnd_grant_) {
		cwnd_grant_ = grant;
		rpcrdmax_xprt_set_credits(ep_->xprt_, grant);
	}
}

/*
 * A Reply for one of our Calls, decoded into @h (version 1, or the
 * version 1 view of a version 2 Reply): match its XID, check what it says
 * against what the Call offered, and complete the RPC once its MRs are
 * invalid.  True when @rb may be reposted now.
 */
bool Conn::forward_reply(RecvBuf *rb, ConstBytes raw, const ib_wc &wc,
			 const core::V1Header &h)
{
	rpc_rqst *rqst = rpcrdmax_xprt_lookup_pin(ep_->xprt_, h.xid);
	/* Traced before its grant can let another Call go, so that the
	 * trace shows every Call within the grant it went under. */
	if (rqst && tp_on(RPCRDMAX_TP_XPRTRDMA_REPLY))
		rpcrdmax_trace_reply(rqst, h.credits);
	update_grant(h.credits);
	/* The server answers on this connection: after it, the next
	 * reconnect goes at once and backs off from the start again
	 * (ClntEp::connect_delay), as stock's reply handler has it. */
	if (!answered_) {
		answered_ = true;
		rpcrdmax_xprt_set_reestablish(ep_->xprt_, 0);
	}
	if (!rqst) {
		reply_err(RPCRDMAX_REPLY_ERR_RQST, raw);
		return true; /* sunrpc's lookup counted it in bad_xids */
	}
	Req *req = Req::from_call_buffer(rqst_buffer(rqst));

	if (!invalidation_ok(wc, h, req)) {
		rpcrdmax_xprt_unpin(ep_->xprt_, rqst);
		lost();
		return true;
	}
	req->reset_reply();
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_DECODE_SEG))
		trace_returned(h.chunks);
	take_reply(req, rqst, rb, raw, h);
	return complete(req, rqst);
}

/*
 * RFC 8797 Section 4.1: only an rkey of @req's RPC may be invalidated by
 * its Reply (@wc); in version 2 only the one its rdma_inv_handle named
 * (draft Section 6.2.3).  False (counted and logged) for any other.
 */
bool Conn::invalidation_ok(const ib_wc &wc, const core::V1Header &h, Req *req)
{
	if (!wc_with_invalidate(wc))
		return true;
	if ((h.vers != core::kRpcRdmaVersion2 || wc_invalidated_rkey(wc) == req->inv_handle) &&
	    frwr_remote_invalidated(req, wc_invalidated_rkey(wc)))
		return true;
	ep_->stats.add(ClntStat::BadReply);
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING,
				 "XID %08x: server invalidated rkey %08x, not %s", h.xid,
				 wc_invalidated_rkey(wc),
				 h.vers == core::kRpcRdmaVersion2 ? "the one named" : "ours");
	return false;
}

/*
 * What Reply @h says, against what @req's Call (of @rqst) offered: an RDMA_ERROR
 * fails the RPC; an RDMA_MSG's body stays in @rb (held by @req), its
 * Write chunk at most the one offered; an RDMA_NOMSG's is all in the
 * Reply chunk offered.  A Reply that does not fit its Call fails it.
 */
void Conn::take_reply(Req *req, rpc_rqst *rqst, RecvBuf *rb, ConstBytes raw,
		      const core::V1Header &h)
{
	Counters &st = ep_->stats;

	if (h.proc == core::V1Proc::Error) {
		req->reply_status = -err::EIO; /* ERR_VERS, ERR_CHUNK or another */
		trace_rdma_error(rqst, h);
	} else if (h.proc == core::V1Proc::Msg) {
		bool ok = true;
		/* At most the one Write chunk we offered, no more than we offered. */
		if (ok && h.chunks.nwrite)
			ok = h.chunks.nwrite == 1 && req->write_offered &&
			     marshal_written(h.chunks, h.chunks.write[0], req->write_offered,
					     &req->ddp_len);
		/* RDMA_MSG: any Reply chunk must come back unused. */
		if (ok && h.chunks.has_reply && h.chunks.chunk_length(h.chunks.reply))
			ok = false;
		if (!ok) {
			req->reply_status = -err::EIO;
			st.add(ClntStat::BadReply);
			reply_err(RPCRDMAX_REPLY_ERR_HDR, raw);
		} else {
			req->held = rb;
			req->msg_offset = h.hdr_len;
			req->reply_len = h.payload_len;
		}
	} else { /* RDMA_NOMSG: the whole Reply is in the Reply chunk */
		u32 written = 0;
		if (!h.chunks.has_reply || !req->reply_offered ||
		    !marshal_written(h.chunks, h.chunks.reply, req->reply_offered, &written)) {
			req->reply_status = -err::EIO;
			st.add(ClntStat::BadReply);
			reply_err(RPCRDMAX_REPLY_ERR_HDR, raw);
		} else {
			req->nomsg_len = written;
		}
	}
}

/*
 * Complete @rqst once @req's MRs are invalid: now when it has none left,
 * else from the LOCAL_INV's completion; its buffers are not touched
 * before.  True when the Receive is not held for the Reply (it may be
 * reposted).
 */
bool Conn::complete(Req *req, rpc_rqst *rqst)
{
	bool repost = req->held == nullptr;
	req->rqst = rqst;
	if (req->mrs.empty()) {
		finish_reply(req, true);
		return repost;
	}
	auto inv = frwr_invalidate(req, true);
	if (inv.is_ok())
		return repost; /* Req::inv_done finishes */
	if (inv.error().code() != -err::ENOENT)
		lost(); /* could not post: the QP is dead, so are its rkeys */
	finish_reply(req, true);
	return repost;
}

/*
 * Complete @req's RPC with its Reply.  An inline Reply that fits the
 * head of the Reply buffer is lent to sunrpc in its Receive buffer when
 * @may_lend (on the receive completions, which own the spares); any
 * other is placed in the RPC's buffer and its Receive posted again.
 */
void Conn::finish_reply(Req *req, bool may_lend)
{
	rpc_rqst *rqst = exchange(req->rqst, nullptr);
	RecvBuf *held = exchange(req->held, nullptr);
	int status = req->reply_status;

	frwr_release(req);
	if (req->ddp_len || req->nomsg_len)
		ep_->stats.add(ClntStat::ReplyBytes, (long long)req->ddp_len + req->nomsg_len);
	if (status == 0) {
		if (req->nomsg_len) {
			status = (int)req->nomsg_len;
		} else if (!held) {
			status = -err::EIO;
		} else if (may_lend && !req->ddp_len && lend(req, held, rqst)) {
			status = (int)req->reply_len;
			held = nullptr;
		} else {
			status = place_reply(rqst, held->data + req->msg_offset, req->reply_len,
					     req->ddp_len);
			if (status < 0)
				status = -err::EIO;
			else if (req->ddp_len)
				ep_->stats.add(ClntStat::FixupBytes, req->reply_len);
		}
	}
	rpcrdmax_xprt_complete_unpin(ep_->xprt_, rqst, status);
	if (held && post_recv(held).is_error())
		lost();
}

/*
 * Hand sunrpc the Reply in @rb where it lies: rq_rcv_buf's head (and
 * rq_private_buf's, its copy) points at it, as stock's reply handler
 * points them into its receive buffer (the head cut to the end of @rb).
 * Only a Reply within the head (the rest of the Reply buffer is not
 * touched), and only when a spare Receive takes @rb's place on the
 * queue, so a lent buffer never leaves fewer Receives posted than
 * credits.  False: nothing done.
 */
bool Conn::lend(Req *req, RecvBuf *rb, rpc_rqst *rqst)
{
	if (req->reply_len > rqst_private_xdr(rqst).head_len())
		return false;
	RecvBuf *spare = take_spare();
	if (!spare)
		return false;
	if (post_recv(spare).is_error()) {
		spare->next_free = spares_;
		spares_ = spare;
		return false;
	}
	recvs_->refs.add_return(1);
	req->lent = rb;
	rqst_lend_reply_head(rqst, rb->data + req->msg_offset, rb->size - req->msg_offset);
	return true;
}

/* A spare Receive buffer, or null: from those not yet posted, else
 * from those lent and given back since. */
RecvBuf *Conn::take_spare()
{
	if (!spares_)
		spares_ = recvs_->returned.exchange(nullptr);
	RecvBuf *rb = spares_;
	if (rb)
		spares_ = rb->next_free;
	return rb;
}

/* The RPC no longer reads its Reply in place (its buffers are freed, or
 * it is sent again with its Reply buffer set up anew): its Receive
 * buffer goes back to its connection's spares, or with its pool. */
void Req::give_back()
{
	if (RecvBuf *rb = exchange(lent, nullptr))
		rb->pool->give_back(rb);
}

void Req::give_back_cold()
{
	give_back();
}

} // namespace rpcrdmax::xprtrdma
