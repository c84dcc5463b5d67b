// SPDX-License-Identifier: GPL-2.0
/*
 * shim/sunrpc/svc_bc.c - the server's backchannel, for C++: sunrpc's client
 * transport class XPRT_TRANSPORT_BC_RDMA ("rdma backchannel").
 *
 * nfsd's NFSv4.1+ callback client is an rpc_clnt whose rpc_xprt is
 * bound to a client's forward connection (the svc_xprt nfsd got
 * CREATE_SESSION or BIND_CONN_TO_SESSION on).  Its backward-direction
 * Calls (RFC 8167) go out on that connection's QP: send_request hands
 * each one to the C++ connection (svcrdma/backchannel.cpp), which sends
 * it inline.  The client's backward Replies arrive among its forward
 * Calls; the C++ receive path hands each one back through
 * rpcrdmax_svc_bc_reply(), which completes the waiting rpc_rqst.
 *
 * The rpc_xprt lives as long as the connection's svc_xprt holds it
 * (xpt_bc_xprt, put by svc_xprt_free) or the callback client does;
 * svc closes it when the connection goes (xpo_detach time).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/xprtrdma.h>
#include "../internal.h"

/* A backward Call waits this long for its Reply (stock: the same). */
static const struct rpc_timeout rpcrdmax_bc_timeout = {
	.to_initval = 60 * HZ,
	.to_maxval = 60 * HZ,
};

/* Call and receive buffers; a Call never spans more than a page. */
static int rpcrdmax_bc_buf_alloc(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;

	if (rqst->rq_callsize > PAGE_SIZE)
		return -EMSGSIZE;
	rqst->rq_buffer = kmalloc(rqst->rq_callsize, GFP_NOIO | __GFP_NOWARN);
	if (!rqst->rq_buffer)
		return -ENOMEM;
	rqst->rq_rbuffer = kmalloc(rqst->rq_rcvsize, GFP_NOIO | __GFP_NOWARN);
	if (!rqst->rq_rbuffer) {
		kfree(rqst->rq_buffer);
		rqst->rq_buffer = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void rpcrdmax_bc_buf_free(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;

	kfree(rqst->rq_buffer);
	kfree(rqst->rq_rbuffer);
	rqst->rq_buffer = NULL;
	rqst->rq_rbuffer = NULL;
}

static int rpcrdmax_bc_send_request(struct rpc_rqst *rqst)
{
	struct svc_xprt *sx = rqst->rq_xprt->bc_xprt;
	int rc;

	if (test_bit(XPT_DEAD, &sx->xpt_flags))
		return -ENOTCONN;
	rqst->rq_xtime = ktime_get();
	rc = rpcrdmax_svcc_bc_send(rpcrdmax_svc_conn_of(sx), rqst, be32_to_cpu(rqst->rq_xid),
				   rqst->rq_snd_buf.len);
	if (rc == -ENOTCONN)
		svc_xprt_deferred_close(sx);
	return rc;
}

static void rpcrdmax_bc_close(struct rpc_xprt *xprt)
{
	xprt_disconnect_done(xprt);
	xprt->cwnd = RPC_CWNDSHIFT;
}

static void rpcrdmax_bc_destroy(struct rpc_xprt *xprt)
{
	rpcrdmax_xprt_free_addresses(xprt);
	xprt_free(xprt);
	module_put(THIS_MODULE);
}

static const struct rpc_xprt_ops rpcrdmax_bc_ops = {
	.reserve_xprt = xprt_reserve_xprt_cong,
	.release_xprt = xprt_release_xprt_cong,
	.alloc_slot = xprt_alloc_slot,
	.free_slot = xprt_free_slot,
	.release_request = xprt_release_rqst_cong,
	.buf_alloc = rpcrdmax_bc_buf_alloc,
	.buf_free = rpcrdmax_bc_buf_free,
	.send_request = rpcrdmax_bc_send_request,
	.wait_for_reply_request = xprt_wait_for_reply_request_def,
	.close = rpcrdmax_bc_close,
	.destroy = rpcrdmax_bc_destroy,
};

static struct xprt_class rpcrdmax_bc_class;

/* nfsd's rpc_create() for a connection of ours: the backchannel on it. */
static struct rpc_xprt *rpcrdmax_bc_setup(struct xprt_create *args)
{
	struct rpcrdmax_svcc *conn = args->bc_xprt ? rpcrdmax_svc_conn_of(args->bc_xprt) : NULL;
	unsigned int slots;
	struct rpc_xprt *xprt;

	if (!conn)
		return ERR_PTR(-EINVAL);
	if (args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EBADF);
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-EIO);
	slots = rpcrdmax_svcc_bc_slots(conn);
	xprt = xprt_alloc(args->net, sizeof(*xprt), slots, slots);
	if (!xprt) {
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	xprt->timeout = &rpcrdmax_bc_timeout;
	xprt_set_bound(xprt);
	xprt_set_connected(xprt);	/* the forward connection is up */
	xprt->bind_timeout = 0;
	xprt->reestablish_timeout = 0;
	xprt->idle_timeout = 0;
	xprt->prot = XPRT_TRANSPORT_BC_RDMA;
	xprt->xprt_class = &rpcrdmax_bc_class;
	xprt->ops = &rpcrdmax_bc_ops;
	memcpy(&xprt->addr, args->dstaddr, args->addrlen);
	xprt->addrlen = args->addrlen;
	rpcrdmax_xprt_format_addresses(xprt);
	xprt->resvport = 0;
	xprt->max_payload = rpcrdmax_svcc_bc_max_payload(conn);

	/* The svc_xprt's reference: svc_xprt_free() puts it. */
	xprt_get(xprt);
	args->bc_xprt->xpt_bc_xprt = xprt;
	xprt->bc_xprt = args->bc_xprt;
	return xprt;
}

static struct xprt_class rpcrdmax_bc_class = {
	.list = LIST_HEAD_INIT(rpcrdmax_bc_class.list),
	.name = "rdma backchannel",
	.owner = THIS_MODULE,
	.ident = XPRT_TRANSPORT_BC_RDMA,
	.setup = rpcrdmax_bc_setup,
	/* No netid: mount cannot name it.  sunrpc's lookups read the list
	 * up to its "" entry, so it must have one. */
	.netid = { "" },
};

/**
 * rpcrdmax_svc_bc_register - offer the backchannel class to sunrpc
 *
 * Returns 0, or -EEXIST if another module (the stock rpcrdma) has it.
 */
int rpcrdmax_svc_bc_register(void)
{
	return xprt_register_transport(&rpcrdmax_bc_class);
}

/** rpcrdmax_svc_bc_unregister - withdraw the backchannel class */
void rpcrdmax_svc_bc_unregister(void)
{
	xprt_unregister_transport(&rpcrdmax_bc_class);
}

/**
 * rpcrdmax_svc_bc_reply - complete a backward Call with its Reply
 * @xprt: the connection's svc_xprt
 * @xid: the Reply's RPC XID
 * @msg: the RPC Reply message (after the transport header)
 * @len: its length
 * @slots: how many backward Calls may be outstanding from now on
 *
 * Returns 0, -ENOTCONN when no backchannel was set up on @xprt, -ESRCH
 * when no Call waits for @xid, or -EMSGSIZE when the Reply is longer
 * than the Call's receive buffer.
 */
int rpcrdmax_svc_bc_reply(struct svc_xprt *xprt, unsigned int xid, const void *msg,
			  unsigned int len, unsigned int slots)
{
	struct rpc_xprt *bc = xprt->xpt_bc_xprt;
	struct rpc_rqst *req;
	struct kvec *dst;

	if (!bc)
		return -ENOTCONN;
	spin_lock(&bc->queue_lock);
	req = xprt_lookup_rqst(bc, cpu_to_be32(xid));
	if (!req) {
		spin_unlock(&bc->queue_lock);
		return -ESRCH;
	}
	memcpy(&req->rq_private_buf, &req->rq_rcv_buf, sizeof(struct xdr_buf));
	dst = &req->rq_private_buf.head[0];
	if (dst->iov_len < len) {
		spin_unlock(&bc->queue_lock);
		return -EMSGSIZE;
	}
	memcpy(dst->iov_base, msg, len);
	xprt_pin_rqst(req);
	spin_unlock(&bc->queue_lock);

	spin_lock(&bc->transport_lock);
	bc->cwnd = slots << RPC_CWNDSHIFT;
	spin_unlock(&bc->transport_lock);

	spin_lock(&bc->queue_lock);
	xprt_complete_rqst(req->rq_task, len);
	xprt_unpin_rqst(req);
	spin_unlock(&bc->queue_lock);
	return 0;
}
