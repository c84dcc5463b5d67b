// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma/sendto.cpp - Replies: the route (inline, Write chunk, Reply
 * chunk, RFC 8166 Section 3.5) planned by the core, the transport
 * header encoded into a send context's pre-mapped Send buffer, the
 * inline body copied or sent from its pages (sendctx.cpp), the RDMA
 * Writes (rw.cpp) and the Send posted as one chain, with Send With
 * Invalidate when both ends allow it (RFC 8797).  The Send's completion,
 * or a later signaled one's (kSendBatch), gives the context back; error
 * Replies (RDMA_ERROR) go the same way.
 */
#include "svcrdma.h"

namespace rpcrdmax::svcrdma {

/* ---- send ------------------------------------------------------------- */

void SendCtx::done(Cqe *c, const ib_wc &wc)
{
	SendCtx *sc = static_cast<SendCtx *>(MsgBuf::from(c));
	sc->conn->send_done(sc, wc);
}

RPCRDMAX_HOT_ENTRY void SvcConn::send_done(SendCtx *sc, const ib_wc &wc)
{
	if (!wc_ok(wc, "Send"))
		lost();
	stat_add(RPCRDMAX_SVC_STAT_SQ_POLL);
	retire(sc);
}

/*
 * @sc's Send completed (or flushed): so did every Send posted before it,
 * signaled or not.  Give their contexts back, and their slots: to sq_,
 * or to the tail room.
 */
void SvcConn::retire(SendCtx *sc)
{
	List<SendCtx, &SendCtx::node> done;
	u32 slots = 0;
	{
		SpinLockBhGuard g(&post_lock_);
		posted_.retire(sc, [&](SendCtx *d) {
			if (d->unsignaled)
				tail_ -= d->sq_entries;
			else
				slots += d->sq_entries;
			done.push_back(d);
		});
	}
	sq_release(slots);
	/* put_send() for each, under one lock for the batch */
	done.for_each([](SendCtx *d) { d->reset(); });
	SpinLockBhGuard g(&lock_);
	send_free_.splice_front(&done);
}

/* Keep @sc until the teardown's drain: work requests may still use it. */
void SvcConn::orphan(SendCtx *sc)
{
	lost();
	sq_release(sc->sq_entries);
	SpinLockBhGuard g(&lock_);
	orphans_.push_back(sc);
}

/*
 * Post @sc's RDMA Writes and then its Send of @send_len octets (with
 * Invalidate of @inv_rkey unless it is 0), taking their Send Queue slots;
 * the Send is signaled or not as kSendBatch says.  Takes @sc: the Send's
 * completion, or a later one's, gives it back, or the teardown frees it
 * if the post failed; given back at once when nothing was posted.
 */
Result<void> SvcConn::post_reply(SendCtx *sc, u32 send_len, u32 inv_rkey)
{
	sc->sq_entries = sc->rw.sq_entries() + 1;
	auto room = sq_reserve(sc->sq_entries);
	if (room.is_error()) {
		put_send(sc);
		return room;
	}
	Span<const rpcrdmax_sge> sges = sc->sge_list(pd_.local_dma_lkey(), send_len);
	sc->map.sync_for_device();
	if (tp_any(RPCRDMAX_TP_SVCRDMA_POST_SEND, RPCRDMAX_TP_SVCRDMA_POST_WRITE_CHUNK,
		   RPCRDMAX_TP_SVCRDMA_POST_REPLY_CHUNK))
		rpcrdmax_trace_svc_post_send(scq_.get(), sc->cqe.id(), (int)sges.size(), inv_rkey,
					     (int)sc->write_wrs,
					     (int)(sc->rw.sq_entries() - sc->write_wrs));
	bool posted;
	{
		/* posted_ in the order the Send Queue runs */
		SpinLockBhGuard g(&post_lock_);
		sc->unsignaled = since_signal_ + 1 < kSendBatch &&
				 tail_ + sc->sq_entries <= tail_room_;
		sc->wr.send(sges.data(), (u32)sges.size(),
			    sc->unsignaled ? nullptr : sc->cqe.raw(), inv_rkey);
		posted = sq_posted(sc->rw.post(id, nullptr, &sc->wr)).is_ok();
		if (posted) {
			posted_.posted(sc);
			since_signal_ = sc->unsignaled ? since_signal_ + 1 : 0;
			tail_ += sc->unsignaled ? sc->sq_entries : 0;
		}
	}
	if (!posted) {
		sc->unsignaled = false;
		orphan(sc);
		return error(err::ENOTCONN);
	}
	stat_add(RPCRDMAX_SVC_STAT_SQ_PROD);
	if (sc->unsignaled)
		sq_release(sc->sq_entries); /* they are in the tail room now */
	return {};
}

/* The rdma_credit of a message that answers no Call (an error, our
 * RDMA2_CONNPROP): the grant as it stands. */
u32 SvcConn::control_grant()
{
	SpinLockBhGuard g(&lock_);
	return core::credits_responder_grant(credits_, 1);
}

/*
 * Answer @xid with RDMA_ERROR: the RDMA2_ERROR @e describes, or, without
 * @e, version 1's ERR_CHUNK.  ERR_VERS (@vers: traced as such) is sent
 * through @e, in the layout every version shares.  An @e carries
 * rdma_vers @rvers: the Call's (RFC 8166 Section 4.5; draft Section
 * 6.2.4).
 */
Result<void> SvcConn::send_error(u32 xid, bool vers, const core::V2Error *e, u32 rvers)
{
	SendCtx *sc = get_send();

	if (!sc)
		return error(err::ENOMEM);
	const u32 grant = control_grant();
	const Bytes buf(sc->data, sc->size);
	if ((!e || e->code == static_cast<u32>(core::V2ErrCode::Vers)) &&
	    tp_any(RPCRDMAX_TP_SVCRDMA_ERR_VERS, RPCRDMAX_TP_SVCRDMA_ERR_CHUNK))
		rpcrdmax_trace_svc_err(xid, vers);
	auto enc = e ? core::v2_encode_error(xid, rvers, grant, *e, buf)
		     : core::v1_encode_err_chunk(xid, grant, buf);
	if (enc.is_error()) {
		put_send(sc);
		return enc.error();
	}
	return post_reply(sc, enc.value(), 0);
}

/*
 * The inline body's parts: the plan's body ranges cut into page pieces,
 * the page list's marked.  Returns how many, or a negative errno
 * (-ENOBUFS: more than @max).
 */
static int inline_parts(svc_rqst *rqstp, const rpcrdmax_xdr_shape &s, const core::ReplyPlan &p,
			rpcrdmax_page_seg *segs, core::InlinePart *parts, u32 max)
{
	const u32 pg_lo = s.head_len, pg_hi = s.head_len + s.page_len;
	u32 n = 0;

	for (u32 i = 0; i < p.nbody; i++) {
		const u32 r_end = p.body[i].off + p.body[i].len;
		for (u32 at = p.body[i].off; at < r_end;) {
			bool page = at >= pg_lo && at < pg_hi;
			u32 end = min(r_end, at < pg_lo ? pg_lo : page ? pg_hi : r_end);
			int got = res_pieces(rqstp, at, end - at, segs + n, max - n);
			if (got < 0)
				return got;
			for (u32 k = n; k < n + (u32)got; k++)
				parts[k] = { segs[k].len, page };
			n += (u32)got;
			at = end;
		}
	}
	return (int)n;
}

/* Copy the plan's body ranges of a Reply without a page list (@s) into
 * @dst, in order, straight from rq_res's head and tail (kernel memory at
 * their addresses); 0 or a negative errno. */
static int copy_flat_body(svc_rqst *rqstp, const rpcrdmax_xdr_shape &s, const core::ReplyPlan &p,
			  u8 *dst)
{
	const XdrBufView res = xdr_buf_at(rqstp, RPCRDMAX_OFF_SVC_RQST_RES);
	const u8 *head = reinterpret_cast<const u8 *>(res.head_base());
	const u8 *tail = reinterpret_cast<const u8 *>(res.tail_base());

	for (u32 i = 0; i < p.nbody; i++) {
		u32 off = p.body[i].off, len = p.body[i].len;
		if ((u64)off + len > (u64)s.head_len + s.tail_len)
			return -err::EMSGSIZE;
		if (off < s.head_len) {
			const u32 k = min(len, s.head_len - off);
			mem_copy(dst, head + off, k);
			dst += k;
			off += k;
			len -= k;
		}
		if (len) {
			mem_copy(dst, tail + (off - s.head_len), len);
			dst += len;
		}
	}
	return 0;
}

/* Copy the plan's body ranges into @dst, in order; 0 or a negative errno. */
static int copy_body(svc_rqst *rqstp, const core::ReplyPlan &p, u8 *dst)
{
	for (u32 i = 0; i < p.nbody; i++) {
		if (rpcrdmax_svc_res_copy(rqstp, p.body[i].off, p.body[i].len, dst))
			return -err::EMSGSIZE;
		dst += p.body[i].len;
	}
	return 0;
}

/*
 * Put the inline body of the Reply in @rqstp into @sc after its @hlen
 * header octets: long page-list pieces go as SGEs of their own (the
 * caller then holds rq_res's pages), the rest is copied; everything is
 * copied (pulled up) when the SGEs run out.  0 or a negative errno.
 */
int SvcConn::load_inline(SendCtx *sc, svc_rqst *rqstp, const rpcrdmax_xdr_shape &s,
			 const core::ReplyPlan &p, u32 hlen)
{
	/* filled before use: the pieces found, the parts made of them, the
	 * layout (v1_layout_inline sets every field) */
	rpcrdmax_page_seg segs[core::kInlineMaxParts] RPCRDMAX_NOINIT;
	core::InlinePart parts[core::kInlineMaxParts] RPCRDMAX_NOINIT;
	core::InlineLayout lay RPCRDMAX_NOINIT;

	/* No page list (most small Replies: GETATTR, LOOKUP): nothing to
	 * map, the body is copied whole, as v1_layout_inline would have it,
	 * without cutting it into pieces first. */
	if (!s.page_len)
		return copy_flat_body(rqstp, s, p, sc->data + hlen);
	int n = inline_parts(rqstp, s, p, segs, parts, core::kInlineMaxParts);

	if (n < 0 || !core::v1_layout_inline(hlen, parts, (u32)n, max_send_sge_,
					     core::kInlineMapMin, &lay)) {
		/* Too many pieces to lay out: copy the body as it comes. */
		if (copy_body(rqstp, p, sc->data + hlen))
			return -err::EMSGSIZE;
		if (!p.write_len)
			stat_add(RPCRDMAX_SVC_STAT_PULL_UP, s.page_len);
		return 0;
	}
	auto r = sc->load_inline(id.device(), hlen, lay, Span<const rpcrdmax_page_seg>(segs, (size_t)n));
	if (r.is_error())
		return r.error().code();
	if (lay.pulled_up)
		stat_add(RPCRDMAX_SVC_STAT_PULL_UP, lay.pulled_up);
	if (lay.nmapped)
		stat_add(RPCRDMAX_SVC_STAT_PAGE_SGES, lay.nmapped);
	return 0;
}

/*
 * Load the RDMA Writes of @sc's Reply (each DDP-eligible result into its
 * Write chunk, the body into the Reply chunk, as @p says) and, when they
 * or inline SGEs read rq_res's pages after sendto returns, take the pages
 * into @sc.  0 or a negative errno.
 */
int SvcConn::load_writes(SendCtx *sc, svc_rqst *rqstp, CallCtx *cc, const rpcrdmax_xdr_shape &s,
			 const core::ReplyPlan &p)
{
	const core::ChunkLists &ccl = cc->call.chunks;
	const bool use_reply = p.route == core::ReplyRoute::ReplyChunk;
	u32 nctx = 0, nranges = 0, len = 0;
	Result<void> r = {};

	for (u32 i = 0; i < p.nwrites; i++) {
		if (!p.writes[i].len)
			continue;
		nctx += ccl.write[i].nsegs;
		nranges++;
		len += p.writes[i].len;
	}
	if (use_reply) {
		nctx += ccl.reply.nsegs;
		nranges += p.nbody;
		for (u32 i = 0; i < p.nbody; i++)
			len += p.body[i].len;
	}
	if (nctx)
		r = rw_room(sc->rw, nctx, rw_pieces(len, nctx, nranges));
	for (u32 i = 0; i < p.nwrites && r.is_ok(); i++)
		if (p.writes[i].len)
			r = add_writes(sc, rqstp, cc, ccl.write[i], &p.writes[i], 1);
	sc->write_wrs = sc->rw.sq_entries();
	if (r.is_ok() && use_reply)
		r = add_writes(sc, rqstp, cc, ccl.reply, p.body, p.nbody);
	if (r.is_error())
		return r.error().code();
	if (!nctx && !sc->lay.nmapped)
		return 0;
	return take_res_pages(sc, rqstp);
}

/*
 * reply_one_write's RDMA Write (what load_writes does for a plan of one
 * Write chunk of one segment, without the plan): rq_res's page list,
 * @written octets from its start, into the Call's one Write segment,
 * its pieces read in place; then rq_res's pages taken into @sc.  0 or a
 * negative errno.
 */
int SvcConn::load_one_write(SendCtx *sc, svc_rqst *rqstp, CallCtx *cc, u32 written)
{
	const core::ChunkLists &ccl = cc->call.chunks;
	const u32 max_pieces = write_pieces_max(written, 1);

	Result<void> r = rw_room(sc->rw, 1, rw_pieces(written, 1, 1));
	if (r.is_error())
		return r.error().code();
	rpcrdmax_page_seg *pieces = scratch_room(cc->pieces, max_pieces, lim_.chunk.pieces_cap);
	if (!pieces)
		return -err::ENOMEM;
	const int n = xdr_buf_at(rqstp, RPCRDMAX_OFF_SVC_RQST_RES)
			      .page_pieces(0, written, pieces, max_pieces);
	if (n <= 0)
		return -err::EMSGSIZE;
	r = add_write(sc, Span<const rpcrdmax_page_seg>(pieces, (u32)n),
		      ccl.segment(ccl.write[0], 0));
	if (r.is_error())
		return r.error().code();
	sc->write_wrs = sc->rw.sq_entries();
	return take_res_pages(sc, rqstp);
}

/* rq_res's pages into @sc, which holds them until its Send completes:
 * RDMA Writes or mapped SGEs read them after sendto returns (all from
 * rq_respages: past a copied head's page once svc_keep_res_head moved
 * it).  0 or a negative errno. */
int SvcConn::take_res_pages(SendCtx *sc, svc_rqst *rqstp)
{
	int n = svc_take_res_pages(rqstp, sc->pages.data(), sc->pages.capacity());
	if (n == -err::ENOBUFS && sc->pages.capacity() < lim_.chunk.reply_pages) {
		/* more than the room in place: the largest Reply's, once */
		page **room =
			scratch_room(sc->pages, lim_.chunk.reply_pages, lim_.chunk.reply_pages);
		if (!room)
			return -err::ENOMEM;
		n = svc_take_res_pages(rqstp, room, sc->pages.capacity());
	}
	if (n < 0)
		return n;
	sc->npages = (unsigned int)n;
	return 0;
}

/* The rdma_credit of @cc's Reply; its Call is no longer outstanding. */
u32 SvcConn::grant_reply(CallCtx *cc)
{
	u32 credits;
	{
		SpinLockBhGuard g(&lock_);
		credits = core::credits_responder_reply(&credits_, cc->call.credits);
	}
	cc->outstanding = false;
	return credits;
}

/* rq_res's shape @s into @cc's, beside the results nfsd marked. */
void SvcConn::note_shape(CallCtx *cc, const rpcrdmax_xdr_shape &s)
{
	cc->shape.head_len = s.head_len;
	cc->shape.page_len = s.page_len;
	cc->shape.tail_len = s.tail_len;
	cc->shape.len = s.len;
}

/* The Reply's route for @cc's noted shape (@s); logs a Reply with none. */
core::ReplyPlan SvcConn::plan_reply(CallCtx *cc, const rpcrdmax_xdr_shape &s)
{
	const core::V1Header &call = cc->call;
	const core::ReplyPlan p = core::v1_plan_reply(call, cc->shape, cc->vers, reply_thr(cc));
	if (p.route == core::ReplyRoute::NoRoom)
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "Reply %08x of %u octets has no room",
					 call.xid, s.len);
	else if (p.route == core::ReplyRoute::Bad)
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "cannot plan Reply %08x", call.xid);
	return p;
}

/*
 * nfsd marked octets [@offset, @offset + @length) of the Reply as its next
 * DDP-eligible result (svc_encode_result_payload): it is meant for the
 * next Write chunk of the Call, written at sendto with the rest.  0, also
 * when there is no such chunk (the result then goes inline or in the
 * Reply chunk); -E2BIG when the chunk is too small for it, which nfsd
 * turns into an error for that operation, as with the stock server.
 */
int SvcConn::result_payload(CallCtx *cc, u32 offset, u32 length)
{
	const core::ChunkLists &cl = cc->call.chunks;
	core::ReplyShape &s = cc->shape;

	if (!length || s.npayloads >= cl.nwrite || s.npayloads >= core::kMaxChunksCap)
		return 0;
	u32 i = s.npayloads++;
	const u32 room = cl.chunk_length(cl.write[i]);
	bool fits = room >= length;
	if (!fits && tp_on(RPCRDMAX_TP_SVCRDMA_SMALL_WRCH_ERR))
		rpcrdmax_trace_svc_small_wrch_err(id.get(), length - room, cl.write[i].nsegs,
						  cl.write[i].nsegs);
	s.payloads[i] = { offset, fits ? length : 0 };
	return fits ? 0 : -err::E2BIG;
}

/* svcrdma_encode_wseg: each segment of the Reply's Write list and Reply
 * chunk as its header returns them (called only while the event is on). */
void SvcConn::trace_reply_segments(const SendCtx *sc, const core::V1Header &call,
				   const core::ReplyPlan &p)
{
	core::for_each_reply_segment(call, p, [&](u32 i, const core::Segment &s) {
		rpcrdmax_trace_svc_encode_wseg(scq_.get(), sc->cqe.id(), i, s.handle, s.length,
					       s.offset);
	});
}

/* nfsd's sendto: the Reply to @cc's Call, posted, or RDMA_ERROR; a
 * negative errno when neither went out, which closes the connection. */
RPCRDMAX_HOT_ENTRY int SvcConn::sendto(svc_rqst *rqstp, CallCtx *cc)
{
	if (!cc)
		return -err::EINVAL;
	int rc = reply(rqstp, cc);
	settle(cc, rc ? failed() : Settle::Answered);
	return rc;
}

/* The rkey a Reply to @cc's Call invalidates (RFC 8797), or 0: in version
 * 2 only the handle the Call named (draft Section 6.2.3). */
u32 SvcConn::reply_inv(const CallCtx *cc) const
{
	if (cc->vers == core::kRpcRdmaVersion2)
		return can_inv_ ? cc->inv_handle : 0;
	return send_inv_ ? cc->call.chunks.reply_inv_handle() : 0;
}

/*
 * A Reply to a Call that offered no Write list, when it fits inline
 * (GETATTR, LOOKUP, ACCESS, a WRITE's Reply, a READ's short enough to
 * need no chunk): the route v1_plan_reply() would give it (RDMA_MSG, RFC
 * 8166 Section 3.5.1), taken without planning: encode_short_reply()'s
 * header, then rq_res whole (load_short).  A Reply chunk the Call offered
 * (a client that sizes it by the largest possible Reply: an NFSv4 GETATTR
 * on recent kernels) goes unused (Section 4.3.3 lets such a Reply go as
 * a Short message) and is copied into the header with no octets
 * returned in it; Send With Invalidate names its handle (reply_inv).
 */
bool SvcConn::reply_is_short(const CallCtx *cc, const rpcrdmax_xdr_shape &s) const
{
	const core::ChunkLists &cl = cc->call.chunks;

	return !cl.nwrite && (u64)s.head_len + s.page_len + s.tail_len == s.len &&
	       (u64)core::short_reply_header_size(cl, cc->vers) + s.len <= reply_thr(cc);
}

int SvcConn::reply_short(svc_rqst *rqstp, CallCtx *cc, const rpcrdmax_xdr_shape &s)
{
	const u32 credits = grant_reply(cc);
	SendCtx *sc = get_send();

	if (!sc)
		return reply_failed(cc, nullptr, -err::ENOMEM);
	auto enc = core::encode_short_reply(cc->call, cc->vers, credits, Bytes(sc->data, sc->size));
	if (enc.is_error() || enc.value() + s.len > sc->size)
		return reply_failed(cc, sc, -err::EMSGSIZE);
	svc_keep_res_head(rqstp); /* load_short copies the head */
	int rc = load_short(sc, rqstp, s, enc.value());
	if (rc)
		return reply_failed(cc, sc, rc);
	auto r = post_reply(sc, enc.value() + s.len, reply_inv(cc));
	if (r.is_error() && tp_on(RPCRDMAX_TP_SVCRDMA_SEND_ERR))
		rpcrdmax_trace_svc_send_err(id.get(), cc->call.xid, r.error().code());
	return r.is_ok() ? 0 : r.error().code();
}

/* rq_res whole (@s) copied into @dst: a body of more pieces than a
 * layout takes.  0 or -EMSGSIZE. */
int SvcConn::pull_up_res(svc_rqst *rqstp, const rpcrdmax_xdr_shape &s, u8 *dst)
{
	if (rpcrdmax_svc_res_copy(rqstp, 0, s.len, dst))
		return -err::EMSGSIZE;
	stat_add(RPCRDMAX_SVC_STAT_PULL_UP, s.page_len);
	return 0;
}

/*
 * rq_res whole (@s) into @sc after its @hlen header octets: head and tail
 * copied, the page list's long pieces sent from their pages as
 * v1_layout_inline() lays them out (the pages then held by @sc), the
 * short ones copied; all of it copied when the pieces are more than the
 * SGEs or the layout takes.  0 or a negative errno.
 */
int SvcConn::load_short(SendCtx *sc, svc_rqst *rqstp, const rpcrdmax_xdr_shape &s, u32 hlen)
{
	const XdrBufView res = xdr_buf_at(rqstp, RPCRDMAX_OFF_SVC_RQST_RES);

	if (!s.page_len) {
		res.copy_flat(sc->data + hlen, s.head_len, s.tail_len);
		return 0;
	}
	/* filled before use: the page list's pieces, the parts (head,
	 * pieces, tail); the layout goes straight into @sc (a false
	 * v1_layout_inline leaves it empty: the Send buffer alone) */
	rpcrdmax_page_seg pieces[core::kInlineMaxParts - 2] RPCRDMAX_NOINIT;
	core::InlinePart parts[core::kInlineMaxParts] RPCRDMAX_NOINIT;
	core::InlineLayout &lay = sc->lay;
	const int n = res.page_pieces(0, s.page_len, pieces, core::kInlineMaxParts - 2);

	if (n == -err::ENOBUFS)
		return pull_up_res(rqstp, s, sc->data + hlen);
	if (n < 0)
		return n;
	parts[0] = { s.head_len, false };
	for (int i = 0; i < n; i++)
		parts[i + 1] = { pieces[i].len, true };
	parts[n + 1] = { s.tail_len, false };
	if (!core::v1_layout_inline(hlen, parts, (u32)n + 2, max_send_sge_, core::kInlineMapMin,
				    &lay))
		return pull_up_res(rqstp, s, sc->data + hlen);
	auto r = sc->load_res(id.device(), hlen, res,
			      Span<const rpcrdmax_page_seg>(pieces, (u32)n));
	if (r.is_error())
		return r.error().code();
	if (lay.pulled_up)
		stat_add(RPCRDMAX_SVC_STAT_PULL_UP, lay.pulled_up);
	if (!lay.nmapped)
		return 0;
	stat_add(RPCRDMAX_SVC_STAT_PAGE_SGES, lay.nmapped);
	return take_res_pages(sc, rqstp);
}

/*
 * A READ's Reply (core::plan_one_write_reply: the Call's one Write
 * segment takes rq_res's whole page list, the rest fits inline): the
 * route v1_plan_reply() would give it, taken without planning: the
 * header echoing the segment for @written octets, rq_res's head and its
 * tail past the result's round-up (@tail_skip) copied after it
 * (@body_len octets in all), and the page list RDMA Written into the
 * segment ahead of the Send.
 */
int SvcConn::reply_one_write(svc_rqst *rqstp, CallCtx *cc, const rpcrdmax_xdr_shape &s, u32 credits,
			     u32 written, u32 tail_skip, u32 body_len)
{
	SendCtx *sc = get_send();

	if (!sc)
		return reply_failed(cc, nullptr, -err::ENOMEM);
	auto enc = core::encode_one_write_reply(cc->call, written, cc->vers, credits,
						Bytes(sc->data, sc->size));
	if (enc.is_error() || enc.value() + body_len > sc->size)
		return reply_failed(cc, sc, -err::EMSGSIZE);
	xdr_buf_at(rqstp, RPCRDMAX_OFF_SVC_RQST_RES)
		.copy_flat(sc->data + enc.value(), s.head_len, s.tail_len - tail_skip, tail_skip);
	svc_keep_res_head(rqstp); /* the head was copied */
	int rc = load_one_write(sc, rqstp, cc, written);
	if (rc)
		return reply_failed(cc, sc, rc);
	if (tp_on(RPCRDMAX_TP_SVCRDMA_ENCODE_WSEG)) {
		const core::ChunkLists &ccl = cc->call.chunks;
		const core::Segment &seg = ccl.segment(ccl.write[0], 0);

		rpcrdmax_trace_svc_encode_wseg(scq_.get(), sc->cqe.id(), 0, seg.handle, written,
					       seg.offset);
	}
	auto r = post_reply(sc, enc.value() + body_len, reply_inv(cc));
	if (r.is_error() && tp_on(RPCRDMAX_TP_SVCRDMA_SEND_ERR))
		rpcrdmax_trace_svc_send_err(id.get(), cc->call.xid, r.error().code());
	return r.is_ok() ? 0 : r.error().code();
}

/* A Reply that could not be sent: logged and traced, @sc (if any) given
 * back; returns @rc. */
int SvcConn::reply_failed(CallCtx *cc, SendCtx *sc, int rc)
{
	if (sc)
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "cannot send Reply %08x: %d",
					 cc->call.xid, rc);
	if (tp_on(RPCRDMAX_TP_SVCRDMA_SEND_ERR))
		rpcrdmax_trace_svc_send_err(id.get(), cc->call.xid, rc);
	if (sc)
		put_send(sc);
	return rc;
}

int SvcConn::reply(svc_rqst *rqstp, CallCtx *cc)
{
	const rpcrdmax_xdr_shape s = res_shape(rqstp);

	if (reply_is_short(cc, s))
		return reply_short(rqstp, cc, s);
	const u32 credits = grant_reply(cc);
	note_shape(cc, s);
	u32 written, tail_skip, body_len;
	if (core::plan_one_write_reply(cc->call, cc->shape, cc->vers, reply_thr(cc), &written,
				       &tail_skip, &body_len))
		return reply_one_write(rqstp, cc, s, credits, written, tail_skip, body_len);
	const core::ReplyPlan p = plan_reply(cc, s);
	if (p.route == core::ReplyRoute::NoRoom)
		return chunk_error(cc, core::V2ErrCode::ReplyResource, s.len).is_ok() ? 0 : -err::ENOTCONN;
	if (p.route == core::ReplyRoute::Bad)
		return -err::EINVAL;

	SendCtx *sc = get_send();
	if (!sc)
		return reply_failed(cc, nullptr, -err::ENOMEM);
	auto enc = core::encode_reply(cc->call, p, cc->vers, credits, Bytes(sc->data, sc->size));
	int rc = enc.is_ok() ? 0 : enc.error().code();
	u32 send_len = enc.is_ok() ? enc.value() : 0;
	if (!rc && tp_on(RPCRDMAX_TP_SVCRDMA_ENCODE_WSEG))
		trace_reply_segments(sc, cc->call, p);
	if (!rc && p.route == core::ReplyRoute::Inline) {
		rc = load_inline(sc, rqstp, s, p, send_len);
		send_len += p.body_len;
	}
	if (!rc)
		rc = load_writes(sc, rqstp, cc, s, p);
	if (rc)
		return reply_failed(cc, sc, rc);
	auto r = post_reply(sc, send_len, reply_inv(cc));
	if (r.is_error() && tp_on(RPCRDMAX_TP_SVCRDMA_SEND_ERR))
		rpcrdmax_trace_svc_send_err(id.get(), cc->call.xid, r.error().code());
	return r.is_ok() ? 0 : r.error().code();
}
} // namespace rpcrdmax::svcrdma

using rpcrdmax::svcrdma::CallCtx;
using rpcrdmax::svcrdma::SvcConn;

/** rpcrdmax_svcc_result_payload - mark a DDP-eligible result of the Reply; 0 or -E2BIG */
extern "C" RPCRDMAX_HOT_ENTRY int rpcrdmax_svcc_result_payload(rpcrdmax_svcc *conn,
							      rpcrdmax_svc_ctxt *ctxt,
							      unsigned int offset,
							      unsigned int length) noexcept
{
	if (!ctxt)
		return 0;
	return static_cast<SvcConn *>(conn)->result_payload(static_cast<CallCtx *>(ctxt), offset,
							    length);
}

/** rpcrdmax_svcc_sendto - send the Reply in @rqstp; 0 or a negative errno */
extern "C" int rpcrdmax_svcc_sendto(rpcrdmax_svcc *conn, svc_rqst *rqstp,
				    rpcrdmax_svc_ctxt *ctxt) noexcept
{
	return static_cast<SvcConn *>(conn)->sendto(rqstp, static_cast<CallCtx *>(ctxt));
}
