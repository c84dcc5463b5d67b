// SPDX-License-Identifier: GPL-2.0
/*
 * svcrdma/backchannel.cpp - backward-direction RPC (RFC 8167) on a
 * client's forward connection: nfsd's callback client (NFSv4.1+ CB_NULL,
 * CB_SEQUENCE, CB_RECALL) sends its Calls through the backchannel
 * rpc_xprt (shim/sunrpc/svc_bc.c), and each goes out here as an inline RDMA_MSG
 * with no chunks, from a send context like any Reply.  The client's
 * backward Replies arrive among its forward Calls; recvfrom.cpp tells
 * them apart by the RPC message's direction and hands them to
 * backward_reply(), which completes the waiting Call or drops the Reply
 * (counted, logged) and never disturbs the forward direction.
 */
#include "svcrdma.h"

namespace rpcrdmax::svcrdma {

/* The largest backward Call's RPC message: it goes inline, after a
 * transport header with empty chunk lists, in the client's receive
 * inline threshold and our Send buffer. */
u32 SvcConn::bc_max_payload(u32 vers) const
{
	return min(thr_.reply, lim_.send_size) - core::min_header_size(vers);
}

int SvcConn::bc_send(rpc_rqst *rqst, u32 xid, u32 len)
{
	/* On a connection whose client chose Version Two, backward Calls go
	 * in it too, with rdma_direction CALL (draft Sections 4.2, 6.2.2):
	 * a header two words longer. */
	const bool v2 = first_vers_.read() == (int)core::kRpcRdmaVersion2;
	const u32 max = bc_max_payload(v2 ? core::kRpcRdmaVersion2 : core::kRpcRdmaVersion1);

	if (lost_.read())
		return -err::ENOTCONN;
	if (len > max) {
		rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE,
					 "backward Call %08x of %u octets exceeds the inline threshold (%u)",
					 xid, len, max);
		return -err::EMSGSIZE;
	}
	SendCtx *sc = get_send();
	if (!sc)
		return -err::ENOBUFS;
	/* rdma_credit: the backward Calls we may have outstanding. */
	const Bytes out(sc->data, sc->size);
	auto enc = v2 ? core::v2_encode_inline_msg(xid, kBcSlots, core::kMsgCall, out)
		      : core::v1_encode_inline_msg(xid, kBcSlots, out);
	if (enc.is_error() ||
	    rpcrdmax_xprt_rqst_snd_copy_range(rqst, 0, len, sc->data + enc.value(),
					      sc->size - enc.value()) < 0) {
		put_send(sc);
		return -err::EMSGSIZE;
	}
	auto r = post_reply(sc, enc.value() + len, 0);
	if (r.is_error())
		return -err::ENOTCONN;
	stat_add(RPCRDMAX_SVC_STAT_BC_CALLS);
	return 0;
}

static const char *bc_drop_reason(int rc)
{
	switch (rc) {
	case -err::ENOTCONN:
		return "no backchannel on this connection";
	case -err::ESRCH:
		return "no backward Call has its XID";
	case -err::EMSGSIZE:
		return "longer than the Call's receive buffer";
	default:
		return "chunks in a backward message";
	}
}

/*
 * A backward Reply (the RPC message @msg of @len octets after header
 * @h).  We send backward Calls inline only, offering no chunks, so a
 * Reply with chunks answers nothing we sent and is dropped (RFC 8167
 * itself does not forbid chunks in the backward direction; see
 * xprtrdma/marshal.cpp).  The Reply's rdma_credit says how many backward Calls the
 * client can take at once: at least one, at most what we provisioned.
 */
void SvcConn::backward_reply(const core::V1Header &h, const u8 *msg, u32 len)
{
	int rc = -err::EINVAL;

	if (!core::v1_has_chunks(h)) {
		u32 slots = min(max(h.credits, 1u), kBcSlots);
		rc = rpcrdmax_svc_bc_reply(xprt, load_be32(msg), msg, len, slots);
	}
	if (!rc) {
		stat_add(RPCRDMAX_SVC_STAT_BC_REPLIES);
		return;
	}
	stat_add(RPCRDMAX_SVC_STAT_BC_DROPPED);
	rpcrdmax_log_ratelimited(RPCRDMAX_LOG_NOTICE, "dropped a backward Reply (XID %08x): %s",
				 load_be32(msg), bc_drop_reason(rc));
}

} // namespace rpcrdmax::svcrdma

using rpcrdmax::svcrdma::SvcConn;

/** rpcrdmax_svcc_bc_slots - backward Calls a connection may have outstanding */
extern "C" unsigned int rpcrdmax_svcc_bc_slots(rpcrdmax_svcc *conn) noexcept
{
	return static_cast<SvcConn *>(conn)->bc_slots();
}

/** rpcrdmax_svcc_bc_max_payload - the largest backward Call a connection sends */
extern "C" unsigned int rpcrdmax_svcc_bc_max_payload(rpcrdmax_svcc *conn) noexcept
{
	return static_cast<SvcConn *>(conn)->bc_max_payload();
}

/**
 * rpcrdmax_svcc_bc_send - send a backward Call on a connection
 * @conn: the connection
 * @rqst: the rpc_rqst (its rq_snd_buf is the RPC message)
 * @xid: its XID
 * @len: the RPC message's length
 *
 * Returns 0, -ENOTCONN, -EMSGSIZE or -ENOBUFS.
 */
extern "C" int rpcrdmax_svcc_bc_send(rpcrdmax_svcc *conn, rpc_rqst *rqst, unsigned int xid,
				     unsigned int len) noexcept
{
	return static_cast<SvcConn *>(conn)->bc_send(rqst, xid, len);
}
