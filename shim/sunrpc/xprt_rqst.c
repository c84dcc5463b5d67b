// SPDX-License-Identifier: GPL-2.0
/*
 * shim/sunrpc/xprt_rqst.c - an RPC request's xdr_bufs, for the C++ client.
 *
 * The client transport (xprtrdma/) reads a struct rpc_rqst's fields in
 * place (xprtrdma/rqst.h: its Call buffer, the shape of its send and
 * receive buffers, whether its auth flavor covers the data) and goes
 * through these helpers for the rest: a sparse page list filled, copies
 * of the Call into a Send buffer and of an inline Reply into the receive
 * buffer.  (A chunk's pages it finds itself: the page list's in place,
 * the head's and tail's as shim/kernel/verbs.c maps them.)  They touch
 * nothing but the request's own buffers, so the KUnit module runs them
 * on requests it builds (kunit/shims.c) without a live rpc_xprt; the
 * transport class and the request queue calls stay in shim/sunrpc/xprt.c.
 */
#include <linux/mm.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/xdr.h>
#include <linux/sunrpc/auth.h>
#include <linux/sunrpc/bc_xprt.h>
#include "../internal.h"

/**
 * rpcrdmax_xprt_rqst_snd_copy - copy an RPC Call's message into @dst
 * @rqst: the request (struct rpc_rqst)
 * @dst: destination
 * @max: room at @dst
 *
 * Returns the message length, or -EMSGSIZE if it does not fit.
 */
int rpcrdmax_xprt_rqst_snd_copy(struct rpc_rqst *rqst, void *dst, unsigned int max)
{
	struct xdr_buf *buf = &rqst->rq_snd_buf;

	if (buf->len > max)
		return -EMSGSIZE;
	if (read_bytes_from_xdr_buf(buf, 0, dst, buf->len))
		return -EMSGSIZE;
	return buf->len;
}

/**
 * rpcrdmax_xprt_rqst_fill_sparse - give a Reply's sparse page list real pages
 * @rqst: the request
 * @gfp: allocation flags
 *
 * Some Replies (ACLs) come with XDRBUF_SPARSE_PAGES: pages allocated only
 * as data arrives.  Data placed by RDMA needs them up front.
 */
int rpcrdmax_xprt_rqst_fill_sparse(struct rpc_rqst *rqst, unsigned int gfp)
{
	struct xdr_buf *buf = &rqst->rq_rcv_buf;
	unsigned int i, n;

	if (!(buf->flags & XDRBUF_SPARSE_PAGES) || !buf->page_len)
		return 0;
	n = (offset_in_page(buf->page_base) + buf->page_len + PAGE_SIZE - 1) >> PAGE_SHIFT;
	for (i = 0; i < n; i++) {
		struct page **pp = &buf->pages[(buf->page_base >> PAGE_SHIFT) + i];

		if (!*pp)
			*pp = alloc_page((__force gfp_t)gfp);
		if (!*pp)
			return -ENOBUFS;
	}
	return 0;
}

/**
 * rpcrdmax_xprt_rqst_snd_copy_range - copy part of an RPC Call's message
 * @rqst: the request
 * @offset: where in the message to start
 * @len: octets to copy
 * @dst: destination
 * @max: room at @dst
 *
 * Returns @len, or -EMSGSIZE if it does not fit or the range is outside
 * the message.
 */
int rpcrdmax_xprt_rqst_snd_copy_range(struct rpc_rqst *rqst, unsigned int offset, unsigned int len,
				      void *dst, unsigned int max)
{
	struct xdr_buf *buf = &rqst->rq_snd_buf;

	if (len > max || offset > buf->len || len > buf->len - offset)
		return -EMSGSIZE;
	if (len && read_bytes_from_xdr_buf(buf, offset, dst, len))
		return -EMSGSIZE;
	return len;
}

/**
 * rpcrdmax_xprt_rqst_rcv_copy - place a Reply's RPC message in the request
 * @rqst: a pinned request
 * @src: the message
 * @len: its length
 *
 * Fills the receive buffer's head, pages and tail in order.  Returns @len
 * or -EMSGSIZE if the message is longer than the request can take.
 */
int rpcrdmax_xprt_rqst_rcv_copy(struct rpc_rqst *rqst, const void *src, unsigned int len)
{
	struct xdr_buf *buf = &rqst->rq_private_buf;

	if (len > buf->buflen ||
	    write_bytes_to_xdr_buf(buf, 0, (void *)src, len))
		return -EMSGSIZE;
	return len;
}

/* ---- backward-direction RPC (RFC 8167; the slots: shim/sunrpc/xprt_bc.c) ---- */

/**
 * rpcrdmax_xprt_bc_call - hand a backward Call to the callback service
 * @xprt: the transport (struct rpc_xprt)
 * @msg: the RPC Call message (after the transport header)
 * @len: its length
 *
 * Copies the Call into a free slot and queues it.  Returns 0, -ENOTCONN
 * (no callback service), -ENOBUFS (no free slot) or -EMSGSIZE.
 */
int rpcrdmax_xprt_bc_call(struct rpc_xprt *xprt, const void *msg, unsigned int len)
{
	struct svc_serv *serv = READ_ONCE(xprt->bc_serv);
	struct rpcrdmax_bc_slot *s;
	struct rpc_rqst *r;

	if (!serv)
		return -ENOTCONN;
	if (len < 4 || len > PAGE_SIZE)
		return -EMSGSIZE;
	spin_lock_bh(&xprt->bc_pa_lock);
	r = list_first_entry_or_null(&xprt->bc_pa_list, struct rpc_rqst, rq_bc_pa_list);
	if (r)
		list_del(&r->rq_bc_pa_list);
	spin_unlock_bh(&xprt->bc_pa_lock);
	if (!r)
		return -ENOBUFS;
	s = container_of(r, struct rpcrdmax_bc_slot, rqst);
	memcpy(s->call, msg, len);
	r->rq_xid = *(__be32 *)s->call;
	r->rq_private_buf.len = len;
	r->rq_rcv_buf.head[0].iov_len = len;
	r->rq_rcv_buf.len = len;

#if RPCRDMAX_HAVE_BC_ENQUEUE
	/* takes the xprt reference rpcrdmax_xprt_bc_free_rqst() puts; with
	 * the service gone meanwhile, frees the slot through it */
	xprt_enqueue_bc_request(r);
#elif RPCRDMAX_HAVE_BC_LWQ
	xprt_get(xprt);	/* put by rpcrdmax_xprt_bc_free_rqst() */
	lwq_enqueue(&r->rq_bc_list, &serv->sv_cb_list);
	svc_pool_wake_idle_thread(&serv->sv_pools[0]);
#else
	xprt_get(xprt);
	spin_lock(&serv->sv_cb_lock);
	list_add(&r->rq_bc_list, &serv->sv_cb_list);
	spin_unlock(&serv->sv_cb_lock);
	wake_up(&serv->sv_cb_waitq);
#endif
	return 0;
}
