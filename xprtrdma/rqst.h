/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xprtrdma/rqst.h - an RPC request's fields, read in place.
 *
 * What the client reads of a struct rpc_rqst for every Call (its Call
 * buffer, the layout of its send and receive xdr_bufs, whether its auth
 * flavor covers the data), and its transport's slot count, it reads
 * directly, at the offsets generated from the target kernel's headers
 * (shim/kernel/consts.c), as the shims read them: no call.  What changes a request stays in
 * shim/sunrpc/xprt_rqst.c.
 */
#pragma once

#include "rpcrdmax/ktl/kernel.h"
#include "rpcrdmax/ktl/xdr_buf.h"

namespace rpcrdmax::xprtrdma {

using ktl::u32;

/// The transport's slot table size (rpc_xprt's max_reqs:
/// rdma_slot_table_entries when it was made).
inline u32 xprt_max_reqs(const rpc_xprt *xprt)
{
	return RPCRDMAX_FIELD(unsigned int, xprt, RPC_XPRT_MAX_REQS);
}

/// The Call buffer rpcrdmax_clnt_buf_alloc() made (rq_buffer).
inline void *rqst_buffer(const rpc_rqst *rqst)
{
	return RPCRDMAX_FIELD(void *, rqst, RPC_RQST_BUFFER);
}

/// Its XID, host order (rq_xid).
inline u32 rqst_xid(const rpc_rqst *rqst)
{
	return ktl::be32_swap(RPCRDMAX_FIELD(u32, rqst, RPC_RQST_XID));
}

/// The major timeout (rq_majortimeo) and the retransmit timeout
/// (rq_timeout), in jiffies: sunrpc's, until a Call sent sets those its
/// Reply is waited for with.
inline unsigned long &rqst_majortimeo(rpc_rqst *rqst)
{
	return RPCRDMAX_FIELD_REF(unsigned long, rqst, RPC_RQST_MAJORTIMEO);
}

inline unsigned long &rqst_timeout(rpc_rqst *rqst)
{
	return RPCRDMAX_FIELD_REF(unsigned long, rqst, RPC_RQST_TIMEOUT);
}

/// sunrpc's accounting of a Call sent: when (rq_xtime, ktime in ns, as
/// send_request read it before posting) and how many octets, in all its
/// transmissions (rq_xmit_bytes_sent).
inline void rqst_account_sent(rpc_rqst *rqst, u32 len, long long xtime)
{
	RPCRDMAX_FIELD_REF(long long, rqst, RPC_RQST_XTIME) = xtime;
	RPCRDMAX_FIELD_REF(unsigned long, rqst, RPC_RQST_XMIT_BYTES_SENT) += len;
}

/// rq_snd_buf, or rq_rcv_buf when @rcv.
inline ktl::XdrBufView rqst_xdr(const rpc_rqst *rqst, bool rcv)
{
	return ktl::xdr_buf_at(rqst, rcv ? RPCRDMAX_OFF_RPC_RQST_RCV_BUF : RPCRDMAX_OFF_RPC_RQST_SND_BUF);
}

/// rq_private_buf: where a Reply is placed (sunrpc copied rq_rcv_buf to it).
inline ktl::XdrBufView rqst_private_xdr(const rpc_rqst *rqst)
{
	return ktl::xdr_buf_at(rqst, RPCRDMAX_OFF_RPC_RQST_PRIVATE_BUF);
}

/// Point the head of rq_rcv_buf and of rq_private_buf (which call_decode
/// checks is the same) at @msg, @room octets of a Receive buffer holding
/// the Reply (no more than the head's length): a Reply read where it was
/// received.  A head longer than @room is cut to it, buflen with it, so
/// that nothing reaches past the Receive buffer.
inline void rqst_lend_reply_head(rpc_rqst *rqst, void *msg, u32 room)
{
	auto buf = [&](unsigned long off) {
		return reinterpret_cast<xdr_buf *>(reinterpret_cast<unsigned char *>(rqst) + off);
	};
	xdr_buf *const rcv = buf(RPCRDMAX_OFF_RPC_RQST_RCV_BUF);
	xdr_buf *const priv = buf(RPCRDMAX_OFF_RPC_RQST_PRIVATE_BUF);
	const unsigned long head_len = RPCRDMAX_FIELD(unsigned long, rcv, XDR_BUF_HEAD_LEN);

	RPCRDMAX_FIELD_REF(void *, rcv, XDR_BUF_HEAD_BASE) = msg;
	RPCRDMAX_FIELD_REF(void *, priv, XDR_BUF_HEAD_BASE) = msg;
	if (head_len > room) { /* on 7.x, every GETATTR's */
		const unsigned int cut = (unsigned int)(head_len - room);
		xdr_buf *const both[] = { rcv, priv };

		for (xdr_buf *b : both) {
			RPCRDMAX_FIELD_REF(unsigned long, b, XDR_BUF_HEAD_LEN) = room;
			RPCRDMAX_FIELD_REF(unsigned int, b, XDR_BUF_BUFLEN) -= cut;
		}
	}
}

inline u32 page_offset_of(unsigned long addr)
{
	return (u32)(addr & (RPCRDMAX_PAGE_SIZE - 1));
}

/// The lengths of the Call (what is to be sent) or of the Reply buffer
/// (the room it has): a shape without the offsets and the DDP flag,
/// which only an RPC with chunks needs (zero here; rqst_shape_rest).
inline rpcrdmax_xdr_shape rqst_lengths(const rpc_rqst *rqst, bool rcv)
{
	const ktl::XdrBufView b = rqst_xdr(rqst, rcv);
	rpcrdmax_xdr_shape s = {};

	s.head_len = b.head_len();
	s.page_len = b.page_len();
	s.tail_len = b.tail_len();
	s.len = rcv ? b.buflen() : b.len();
	return s;
}

/// The rest of the layout of the Call or of the Reply buffer, whose
/// lengths *@s holds (rqst_lengths()): where each extent starts in its
/// page, and whether the page list is a DDP-eligible data item.
inline void rqst_shape_rest(const rpc_rqst *rqst, bool rcv, rpcrdmax_xdr_shape *s)
{
	const ktl::XdrBufView b = rqst_xdr(rqst, rcv);

	s->head_offset = page_offset_of(b.head_base());
	s->page_offset = page_offset_of(b.page_base());
	s->tail_offset = s->tail_len ? page_offset_of(b.tail_base()) : 0;
	s->ddp = (b.flags() & (rcv ? RPCRDMAX_XDRBUF_READ : RPCRDMAX_XDRBUF_WRITE)) != 0;
}

/// Whether the Reply's page list is sparse (XDRBUF_SPARSE_PAGES: pages
/// come as data arrives), so rpcrdmax_xprt_rqst_fill_sparse() must fill
/// it before RDMA can place data there.
inline bool rqst_rcv_sparse(const rpc_rqst *rqst)
{
	const ktl::XdrBufView b = rqst_xdr(rqst, true);

	return (b.flags() & RPCRDMAX_XDRBUF_SPARSE_PAGES) && b.page_len();
}

/// Whether the request's auth flavor covers its data (RPCSEC_GSS
/// integrity or privacy: RPCAUTH_AUTH_DATATOUCH in its rpc_auth's flags).
inline bool rqst_data_touch(const rpc_rqst *rqst)
{
	const rpc_cred *cred = RPCRDMAX_FIELD(const rpc_cred *, rqst, RPC_RQST_CRED);
	const rpc_auth *auth = cred ? RPCRDMAX_FIELD(const rpc_auth *, cred,
						     RPC_CRED_AUTH) : nullptr;

	return auth && (RPCRDMAX_FIELD(unsigned long, auth, RPC_AUTH_FLAGS) >>
			RPCRDMAX_RPCAUTH_AUTH_DATATOUCH) & 1;
}

} // namespace rpcrdmax::xprtrdma
