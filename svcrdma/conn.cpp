// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma/conn.cpp - one server connection: Receives, assembling Calls
 * (inline, Read chunks by RDMA Read), sending Replies (inline, Write
 * chunk and Reply chunk by RDMA Write), teardown.
 *
 * Life cycle: made and accepted in the listener's CM callback, handed to
 * svc by xpo_accept, destroyed from the svc_xprt's free (a work item)
 * after the QP is drained, so no completion touches freed memory.
 * Receive completions queue the message and mark the svc_xprt ready; an
 * nfsd thread takes it in recvfrom, copies it into the svc_rqst's pages
 * and reposts the Receive at once.  RDMA Reads are waited for in that
 * thread.  A Reply's Writes and Send are posted together; the Send's
 * completion frees the buffers they use.
 */
#include "svcrdma.h"

namespace rpcrdmax::svcrdma {

/* ---- set-up and teardown ---------------------------------------------- */

SvcConn::~SvcConn()
{
	if (id.qp())
		id.drain();
	while (SendCtx *sc = orphans_.pop_front())
		delete sc;
}

/* Undo what setup() did on the id before the CM destroys it. */
void SvcConn::undo_setup()
{
	if (id.qp()) {
		id.drain();
		rpcrdmax_cm_destroy_qp(id.get());
	}
	(void)id.release();
}

Result<void> SvcConn::setup(Listener *l, const rpcrdmax_cm_event_info &ev)
{
	void *dev = id.device();
	rpcrdmax_dev_attrs attrs;

	RPCRDMAX_TRY(check(rpcrdmax_ib_query_device(dev, &attrs)));
	u32 sq = min(kMaxSendWrs, attrs.max_qp_wr);
	if (attrs.max_qp_wr < 2 * kCredits)
		return error(err::ENOMEM);
	RPCRDMAX_TRY(pd_.alloc(dev));
	RPCRDMAX_TRY(scq_.alloc(dev, (int)min(sq, attrs.max_cqe), 0, true));
	RPCRDMAX_TRY(rcq_.alloc(dev, (int)kCredits, 0, true));
	RPCRDMAX_TRY(id.create_qp(pd_, scq_, rcq_, sq, kCredits, 1, 1));
	for (auto &rb : recvs_) {
		rb.conn = this;
		rb.data = new (Gfp::Kernel) u8[kRecvSize];
		if (!rb.data)
			return error(err::ENOMEM);
		RPCRDMAX_TRY(rb.map.map(dev, rb.data, kRecvSize, RPCRDMAX_DMA_FROM_DEVICE));
		RPCRDMAX_TRY(post_recv(&rb));
	}

	core::PrivData peer;
	(void)core::pd_decode(ConstBytes(static_cast<const u8 *>(ev.private_data),
					 ev.private_data ? ev.private_data_len : 0),
			      &peer); /* absent: the version 1 defaults */
	const core::PrivData ours = { kSendSize, kRecvSize, false };
	thr_ = core::pd_thresholds(peer, ours);
	core::credits_responder_init(&credits_, kCredits);
	/* Reads we may have outstanding: what the client's side accepts. */
	ord_ = min<u32>(min<u32>(ev.initiator_depth, attrs.max_qp_init_rd_atom), 16);
	if (!ord_)
		ord_ = 1;

	xprt = rpcrdmax_svc_xprt_new(l->xprt(), id.get(), this);
	if (!xprt)
		return error(err::ENOMEM);

	u8 pd[core::kPdSize];
	u32 pdlen = RPCRDMAX_TRY(core::pd_encode(ours, Bytes(pd, sizeof(pd))));
	return id.accept(ConstBytes(pd, pdlen), ord_, 0);
}

int SvcConn::cm_event(CmId *, const rpcrdmax_cm_event_info &ev)
{
	switch (ev.event) {
	case RPCRDMAX_CM_ESTABLISHED:
	case RPCRDMAX_CM_TIMEWAIT_EXIT:
	case RPCRDMAX_CM_OTHER:
		break;
	default: /* disconnect, device removal, connection errors */
		lost();
		break;
	}
	return 0;
}

/* The connection is gone or broken: svc closes the transport. */
void SvcConn::lost()
{
	if (lost_.cmpxchg(0, 1) == 0 && xprt)
		rpcrdmax_svc_xprt_close(xprt);
}

void SvcConn::detach()
{
	(void)id.disconnect();
}

/* ---- receive ---------------------------------------------------------- */

Result<void> SvcConn::post_recv(RecvBuf *rb)
{
	rpcrdmax_sge sge = rb->map.sge(pd_.local_dma_lkey());
	rb->map.sync_for_device();
	return id.post_recv(&rb->cqe, &sge, 1);
}

void SvcConn::repost(RecvBuf *rb)
{
	if (post_recv(rb).is_error())
		lost();
}

void RecvBuf::done(Cqe *c, const rpcrdmax_wc &wc)
{
	RecvBuf *rb = container_of(c, &RecvBuf::cqe);
	rb->conn->recv_done(rb, wc);
}

void SvcConn::recv_done(RecvBuf *rb, const rpcrdmax_wc &wc)
{
	if (wc.status != RPCRDMAX_IB_WC_SUCCESS) {
		if (wc.status != RPCRDMAX_IB_WC_WR_FLUSH_ERR)
			rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "Receive failed: %s",
						 rpcrdmax_ib_wc_status_msg(wc.status));
		lost();
		return;
	}
	rb->map.sync_for_cpu();
	rb->len = min(wc.byte_len, kRecvSize);
	rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_RECV, 1);
	{
		SpinLockBhGuard g(&lock_);
		ready_.push_back(rb);
	}
	rpcrdmax_svc_xprt_data_ready(xprt);
}

RecvBuf *SvcConn::dequeue()
{
	SpinLockBhGuard g(&lock_);
	RecvBuf *rb = ready_.pop_front();

	if (!rb)
		rpcrdmax_svc_xprt_clear_data(xprt);
	return rb;
}

void ReadCtx::done(Cqe *c, const rpcrdmax_wc &wc)
{
	ReadCtx *rc = container_of(c, &ReadCtx::cqe);

	if (wc.status != RPCRDMAX_IB_WC_SUCCESS)
		rc->failed.set(1);
	if (rc->pending.add_return(-1) == 0)
		rc->all_done.complete();
}

/* Post @n work requests in chains; *@posted says how many made it. */
Result<void> SvcConn::post_chain(rpcrdmax_send_wr *wrs, unsigned int n, unsigned int *posted)
{
	*posted = 0;
	for (unsigned int i = 0; i < n; i += RPCRDMAX_MAX_WR_CHAIN) {
		unsigned int bad, batch = min<unsigned int>(n - i, RPCRDMAX_MAX_WR_CHAIN);
		if (id.post_send(wrs + i, batch, &bad).is_error()) {
			*posted = i + bad;
			return error(err::ENOTCONN);
		}
		*posted = i + batch;
	}
	return {};
}

/* Pull Read chunk @c by RDMA Read and place it at @offset of the Call. */
Result<void> SvcConn::read_chunk(void *rqstp, const core::ChunkLists &cl,
				 const core::ChunkRef &c, u32 offset)
{
	u64 len64 = cl.chunk_length(c);

	if (len64 > kMaxChunk)
		return error(err::EMSGSIZE);
	u32 len = (u32)len64;
	if (!len)
		return {};
	u8 *bounce = new (Gfp::Kernel) u8[len];
	if (!bounce)
		return error(err::ENOMEM);
	DmaBuf map;
	auto m = map.map(id.device(), bounce, len, RPCRDMAX_DMA_FROM_DEVICE);
	if (m.is_error()) {
		delete[] bounce;
		return m.error();
	}

	ReadCtx rc;
	rpcrdmax_sge sges[RPCRDMAX_MAX_WR_CHAIN];
	rpcrdmax_send_wr wrs[RPCRDMAX_MAX_WR_CHAIN];
	rpcrdmax_sge whole = map.sge(pd_.local_dma_lkey());
	Result<void> r = {};
	u32 done = 0;

	rc.pending.set((int)c.nsegs);
	rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_READ, c.nsegs);
	for (u32 i = 0; i < c.nsegs && r.is_ok(); i += RPCRDMAX_MAX_WR_CHAIN) {
		unsigned int n = min<u32>(c.nsegs - i, RPCRDMAX_MAX_WR_CHAIN), posted;
		for (unsigned int k = 0; k < n; k++) {
			const core::Segment &s = cl.segment(c, i + k);
			sges[k] = { whole.addr + done, s.length, whole.lkey };
			done += s.length;
			wrs[k] = {};
			wrs[k].cqe = rc.cqe.raw();
			wrs[k].opcode = RPCRDMAX_WR_RDMA_READ;
			wrs[k].sge = &sges[k];
			wrs[k].num_sge = 1;
			wrs[k].remote_addr = s.offset;
			wrs[k].rkey = s.handle;
		}
		r = post_chain(wrs, n, &posted);
		if (r.is_error()) {
			/* What was not posted will never complete. */
			int never = (int)(c.nsegs - i - posted);
			if (rc.pending.add_return(-never) == 0)
				rc.all_done.complete();
			lost();
		}
	}
	/* Posted Reads complete or flush (the connection closes on error). */
	while (!rc.all_done.wait_ms(1000))
		;
	if (r.is_ok() && rc.failed.read()) {
		lost();
		r = error(err::EIO);
	}
	if (r.is_ok()) {
		map.sync_for_cpu();
		r = check(rpcrdmax_svc_arg_copy(rqstp, offset, bounce, len));
	}
	map.unmap();
	delete[] bounce;
	return r;
}

/*
 * Assemble the Call in rq_pages: the inline part with each Read chunk's
 * data (and XDR round-up) inserted at its position.  RDMA_NOMSG Calls
 * (Long Calls) are the Position Zero Read chunk alone.
 */
Result<u32> SvcConn::build_arg(void *rqstp, const u8 *inl, u32 inl_len, const core::V1Header &h)
{
	const core::ChunkLists &cl = h.chunks;
	static const u8 zeros[4] = {};
	u32 out = 0, in = 0;

	if (h.proc == core::V1Proc::NoMsg) {
		if (cl.nread != 1 || !cl.has_call_chunk())
			return error(err::EINVAL);
		u64 len = cl.chunk_length(cl.read[0]);
		RPCRDMAX_TRY(read_chunk(rqstp, cl, cl.read[0], 0));
		rpcrdmax_svc_arg_set(rqstp, (u32)len);
		return (u32)len;
	}
	for (u32 i = 0; i < cl.nread; i++) {
		const core::ChunkRef &c = cl.read[i];
		if (c.position < out || c.position - out > inl_len - in)
			return error(err::EINVAL);
		u32 n = c.position - out;
		RPCRDMAX_TRY(check(rpcrdmax_svc_arg_copy(rqstp, out, inl + in, n)));
		in += n;
		out += n;
		u32 len = (u32)min<u64>(cl.chunk_length(c), kMaxChunk + 1);
		RPCRDMAX_TRY(read_chunk(rqstp, cl, c, out));
		out += len;
		u32 pad = round_up<u32>(len, 4) - len;
		RPCRDMAX_TRY(check(rpcrdmax_svc_arg_copy(rqstp, out, zeros, pad)));
		out += pad;
	}
	RPCRDMAX_TRY(check(rpcrdmax_svc_arg_copy(rqstp, out, inl + in, inl_len - in)));
	out += inl_len - in;
	rpcrdmax_svc_arg_set(rqstp, out);
	return out;
}

int SvcConn::process(void *rqstp, RecvBuf *rb, void **ctxt)
{
	CallCtx *cc = new (Gfp::Kernel) CallCtx;
	core::DecodeLimits lim;

	if (!cc) {
		repost(rb);
		return 0; /* dropped: the client retransmits */
	}
	core::V1Header &h = cc->call;
	core::V1Verdict v = core::v1_decode_call(ConstBytes(rb->data, rb->len), lim, &h);
	switch (core::v1_responder_action(v)) {
	case core::ResponderAction::Process:
		break;
	case core::ResponderAction::ReplyErrVers:
	case core::ResponderAction::ReplyErrChunk: {
		u32 xid;
		if (core::v1_peek_xid(ConstBytes(rb->data, rb->len), &xid))
			(void)send_error(xid, core::v1_responder_action(v) ==
						      core::ResponderAction::ReplyErrVers);
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "bad Call header: %s",
					 core::v1_verdict_name(v));
		[[fallthrough]];
	}
	case core::ResponderAction::Drop:
		repost(rb);
		delete cc;
		return 0;
	}

	{
		SpinLockBhGuard g(&lock_);
		(void)core::credits_responder_receive(&credits_);
	}
	/* The Receive goes back once the Call is copied out (Read chunks
	 * are pulled meanwhile: the inline part is still in rb). */
	auto r = build_arg(rqstp, rb->data + h.hdr_len, h.payload_len, h);
	repost(rb);
	if (r.is_error()) {
		int e = r.error().code();
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "cannot assemble Call %08x: %d", h.xid, e);
		if (e == -err::EINVAL || e == -err::EMSGSIZE)
			(void)send_error(h.xid, false);
		delete cc;
		return (e == -err::EIO || e == -err::ENOTCONN) ? e : 0;
	}
	*ctxt = cc;
	return (int)r.value();
}

/* ---- send ------------------------------------------------------------- */

void SendCtx::done(Cqe *c, const rpcrdmax_wc &wc)
{
	SendCtx *sc = container_of(c, &SendCtx::cqe);
	sc->conn->send_done(sc, wc);
}

void SvcConn::send_done(SendCtx *sc, const rpcrdmax_wc &wc)
{
	if (wc.status != RPCRDMAX_IB_WC_SUCCESS) {
		if (wc.status != RPCRDMAX_IB_WC_WR_FLUSH_ERR)
			rpcrdmax_log_ratelimited(RPCRDMAX_LOG_WARNING, "Send failed: %s (vendor %u)",
						 rpcrdmax_ib_wc_status_msg(wc.status),
						 wc.vendor_err);
		lost();
	}
	delete sc;
}

Result<void> SvcConn::send_error(u32 xid, bool vers)
{
	SendCtx *sc = new (Gfp::Kernel) SendCtx;

	if (!sc)
		return error(err::ENOMEM);
	sc->conn = this;
	sc->hdr = new (Gfp::Kernel) u8[64];
	u32 grant;
	{
		SpinLockBhGuard g(&lock_);
		grant = core::credits_responder_grant(credits_, 1);
	}
	u32 n = 0;
	if (sc->hdr) {
		auto enc = vers ? core::v1_encode_err_vers(xid, grant, Bytes(sc->hdr, 64))
				: core::v1_encode_err_chunk(xid, grant, Bytes(sc->hdr, 64));
		n = enc.is_ok() ? enc.value() : 0;
	}
	if (!n ||
	    sc->hdr_map.map(id.device(), sc->hdr, 64, RPCRDMAX_DMA_TO_DEVICE).is_error()) {
		delete sc;
		return error(err::ENOMEM);
	}
	rpcrdmax_sge sge = sc->hdr_map.sge(pd_.local_dma_lkey());
	sge.length = n;
	sc->hdr_map.sync_for_device();
	rpcrdmax_send_wr wr = {};
	wr.cqe = sc->cqe.raw();
	wr.opcode = RPCRDMAX_WR_SEND;
	wr.sge = &sge;
	wr.num_sge = 1;
	unsigned int bad;
	if (id.post_send(&wr, 1, &bad).is_error()) {
		delete sc;
		lost();
		return error(err::ENOTCONN);
	}
	return {};
}

/*
 * RDMA Write @len octets of the bounce buffer (from @off) into chunk @c,
 * unsignaled: the Send that follows on the same QP completes after them.
 */
Result<void> SvcConn::post_writes(SendCtx *sc, const core::ChunkLists &cl,
				  const core::ChunkRef &c, u64 off, u32 len, u32 lkey)
{
	rpcrdmax_sge sges[RPCRDMAX_MAX_WR_CHAIN];
	rpcrdmax_send_wr wrs[RPCRDMAX_MAX_WR_CHAIN];
	rpcrdmax_sge whole = sc->bounce_map.sge(lkey);
	unsigned int n = 0, posted;

	for (u32 i = 0; i < c.nsegs && len; i++) {
		const core::Segment &s = cl.segment(c, i);
		u32 this_len = min(s.length, len);
		if (!this_len)
			continue;
		sges[n] = { whole.addr + off, this_len, lkey };
		wrs[n] = {};
		wrs[n].opcode = RPCRDMAX_WR_RDMA_WRITE;
		wrs[n].sge = &sges[n];
		wrs[n].num_sge = 1;
		wrs[n].remote_addr = s.offset;
		wrs[n].rkey = s.handle;
		off += this_len;
		len -= this_len;
		rpcrdmax_svc_stat_add(RPCRDMAX_SVC_STAT_WRITE, 1);
		if (++n == RPCRDMAX_MAX_WR_CHAIN) {
			RPCRDMAX_TRY(post_chain(wrs, n, &posted));
			n = 0;
		}
	}
	if (len)
		return error(err::EMSGSIZE);
	if (n)
		RPCRDMAX_TRY(post_chain(wrs, n, &posted));
	return {};
}

/* Echo chunk @c of the Call into @out with the octets written in it. */
static Result<void> echo_chunk(core::ChunkLists *out, const core::ChunkLists &cl,
			       const core::ChunkRef &c, u32 written, bool reply)
{
	if (reply ? out->set_reply_chunk() != core::ListError::None
		  : out->add_write_chunk() != core::ListError::None)
		return error(err::EINVAL);
	for (u32 i = 0; i < c.nsegs; i++) {
		core::Segment s = cl.segment(c, i);
		s.length = min(s.length, written);
		written -= s.length;
		core::ListError e = reply ? out->add_reply_segment(s) : out->add_write_segment(s);
		if (e != core::ListError::None)
			return error(err::EINVAL);
	}
	return {};
}

int SvcConn::sendto(void *rqstp, CallCtx *cc)
{
	if (!cc)
		return -err::EINVAL;
	const core::V1Header &call = cc->call;
	const core::ChunkLists &ccl = call.chunks;
	core::V1Header &rep = cc->reply;
	rpcrdmax_xdr_shape s;

	rpcrdmax_svc_res_shape(rqstp, &s);
	/* The page list goes in the first Write chunk when one is offered
	 * and large enough; its XDR round-up (the tail's first octets) is
	 * then not sent (RFC 8166 Section 3.4.6). */
	bool use_write = ccl.nwrite > 0 && s.page_len > 0 &&
			 ccl.chunk_length(ccl.write[0]) >= s.page_len;
	u32 pad_skip = use_write ? min<u32>(round_up<u32>(s.page_len, 4) - s.page_len, s.tail_len)
				 : 0;
	u32 write_len = use_write ? s.page_len : 0;
	u32 body_len = s.len - write_len - pad_skip;

	rep.xid = call.xid;
	rep.vers = core::kRpcRdmaVersion1;
	{
		SpinLockBhGuard g(&lock_);
		rep.credits = core::credits_responder_reply(&credits_, call.credits);
	}
	rep.proc = core::V1Proc::Msg;
	rep.chunks.clear();
	for (u32 i = 0; i < ccl.nwrite; i++)
		if (echo_chunk(&rep.chunks, ccl, ccl.write[i], i == 0 ? write_len : 0, false)
			    .is_error())
			return -err::EINVAL;
	bool use_reply = false;
	if (core::v1_encoded_size(rep) + body_len > min(thr_.reply, kSendSize)) {
		if (!ccl.has_reply || ccl.chunk_length(ccl.reply) < body_len) {
			rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE,
						 "Reply %08x of %u octets has no room", call.xid, s.len);
			return send_error(call.xid, false).is_ok() ? 0 : -err::ENOTCONN;
		}
		use_reply = true;
		rep.proc = core::V1Proc::NoMsg;
		if (echo_chunk(&rep.chunks, ccl, ccl.reply, body_len, true).is_error())
			return -err::EINVAL;
	}

	SendCtx *sc = new (Gfp::Kernel) SendCtx;
	if (!sc)
		return -err::ENOMEM;
	sc->conn = this;
	void *dev = id.device();
	u32 lkey = pd_.local_dma_lkey();
	u32 bounce_len = write_len + (use_reply ? body_len : 0);
	int rc = -err::ENOMEM;
	u32 hlen = 0;

	sc->hdr = new (Gfp::Kernel) u8[kSendSize];
	if (!sc->hdr)
		goto fail;
	{
		auto enc = core::v1_encode(rep, Bytes(sc->hdr, kSendSize));
		if (enc.is_error()) {
			rc = enc.error().code();
			goto fail;
		}
		hlen = enc.value();
	}
	if (bounce_len) {
		sc->bounce = new (Gfp::Kernel) u8[bounce_len];
		if (!sc->bounce)
			goto fail;
	}
	/* Fill: Write chunk data, then the body (into the bounce buffer
	 * after it for a Reply chunk, else after the header). */
	{
		u8 *body = use_reply ? sc->bounce + write_len : sc->hdr + hlen;
		rc = -err::EMSGSIZE;
		if (write_len && rpcrdmax_svc_res_copy(rqstp, s.head_len, write_len, sc->bounce))
			goto fail;
		if (rpcrdmax_svc_res_copy(rqstp, 0, s.head_len, body))
			goto fail;
		u32 at = s.head_len;
		if (!use_write) {
			if (rpcrdmax_svc_res_copy(rqstp, s.head_len, s.page_len, body + at))
				goto fail;
			at += s.page_len;
		}
		u32 tail_from = s.head_len + s.page_len + pad_skip;
		if (rpcrdmax_svc_res_copy(rqstp, tail_from, s.len - tail_from, body + at))
			goto fail;
	}
	rc = -err::ENOMEM;
	if (sc->hdr_map.map(dev, sc->hdr, kSendSize, RPCRDMAX_DMA_TO_DEVICE).is_error())
		goto fail;
	if (bounce_len &&
	    sc->bounce_map.map(dev, sc->bounce, bounce_len, RPCRDMAX_DMA_TO_DEVICE).is_error())
		goto fail;
	sc->hdr_map.sync_for_device();
	if (bounce_len)
		sc->bounce_map.sync_for_device();

	/* From here on WRs may be posted: on failure sc is orphaned until
	 * the drain. */
	{
		Result<void> r = {};
		if (write_len)
			r = post_writes(sc, ccl, ccl.write[0], 0, write_len, lkey);
		if (r.is_ok() && use_reply)
			r = post_writes(sc, ccl, ccl.reply, write_len, body_len, lkey);
		if (r.is_ok()) {
			rpcrdmax_sge sge = sc->hdr_map.sge(lkey);
			sge.length = hlen + (use_reply ? 0 : body_len);
			rpcrdmax_send_wr wr = {};
			wr.cqe = sc->cqe.raw();
			wr.opcode = RPCRDMAX_WR_SEND;
			wr.sge = &sge;
			wr.num_sge = 1;
			unsigned int bad;
			r = id.post_send(&wr, 1, &bad);
		}
		if (r.is_error()) {
			lost();
			SpinLockBhGuard g(&lock_);
			orphans_.push_back(sc);
			return -err::ENOTCONN;
		}
	}
	return 0;

fail:
	delete sc;
	return rc;
}

} // namespace rpcrdmax::svcrdma

using rpcrdmax::svcrdma::CallCtx;
using rpcrdmax::svcrdma::RecvBuf;
using rpcrdmax::svcrdma::SvcConn;

/** rpcrdmax_svcc_dequeue - the next received message, or NULL (XPT_DATA cleared) */
extern "C" void *rpcrdmax_svcc_dequeue(void *conn) noexcept
{
	return static_cast<SvcConn *>(conn)->dequeue();
}

/**
 * rpcrdmax_svcc_process - turn a received message into the Call in @rqstp
 * @conn: the connection
 * @rqstp: the svc_rqst
 * @msg: from rpcrdmax_svcc_dequeue()
 * @ctxt: set to the Call's context for sendto and release
 *
 * Returns the Call's length, 0 to drop it, or a negative errno when the
 * connection is lost.  Sleeps while Read chunks are pulled.
 */
extern "C" int rpcrdmax_svcc_process(void *conn, void *rqstp, void *msg, void **ctxt) noexcept
{
	return static_cast<SvcConn *>(conn)->process(rqstp, static_cast<RecvBuf *>(msg), ctxt);
}

/** rpcrdmax_svcc_sendto - send the Reply in @rqstp; 0 or a negative errno */
extern "C" int rpcrdmax_svcc_sendto(void *conn, void *rqstp, void *ctxt) noexcept
{
	return static_cast<SvcConn *>(conn)->sendto(rqstp, static_cast<CallCtx *>(ctxt));
}

/** rpcrdmax_svcc_release - free a Call's context */
extern "C" void rpcrdmax_svcc_release(void *, void *ctxt) noexcept
{
	delete static_cast<CallCtx *>(ctxt);
}

/** rpcrdmax_svcc_detach - start disconnecting */
extern "C" void rpcrdmax_svcc_detach(void *conn) noexcept
{
	static_cast<SvcConn *>(conn)->detach();
}

/** rpcrdmax_svcc_destroy - drain and free a connection (sleeps) */
extern "C" void rpcrdmax_svcc_destroy(void *conn) noexcept
{
	delete static_cast<SvcConn *>(conn);
}
