// SPDX-License-Identifier: GPL-2.0
/*
 * shim/sunrpc/svc.c - the sunrpc server transport class "rdma", for C++.
 *
 * nfsd drives a server transport through struct svc_xprt_ops.  Each op
 * here only translates: it finds the C++ listener or connection
 * (svcrdma/) behind the svc_xprt and hands it plain values.  The C++ side
 * reaches back through the rpcrdmax_svc_* helpers below to make a
 * connection's svc_xprt and to signal svc (a connection waiting, data
 * ready, close); the helpers that copy RPC messages between its buffers
 * and an svc_rqst's xdr_bufs are in shim/sunrpc/svc_rqst.c.
 *
 * xpo_free releases everything at once, in the caller's context (it
 * sleeps: the QP is drained): once rpc.nfsd 0 returns, no QP, CQ, PD,
 * MR or CM ID of ours is left.  The last reference to one of our
 * transports is always dropped by svc or nfsd in process context; our
 * own CM and completion handlers only ask svc to close it.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xdr.h>
#include <linux/sunrpc/xprt.h>
#include <rdma/rdma_cm.h>
#include "../internal.h"

struct rpcrdmax_svc_xprt {
	struct svc_xprt xprt;
	bool listener;
	union {			/* the C++ side, or NULL */
		struct rpcrdmax_svcl *svcl;	/* when listener */
		struct rpcrdmax_svcc *svcc;
	};
};

static struct svc_xprt_class rpcrdmax_svc_class;

static struct rpcrdmax_svc_xprt *rpcrdmax_sx(struct svc_xprt *xprt)
{
	return container_of(xprt, struct rpcrdmax_svc_xprt, xprt);
}

static struct svc_xprt *rpcrdmax_svc_create(struct svc_serv *serv, struct net *net,
					    struct sockaddr *sa, int salen, int flags)
{
	struct rpcrdmax_svc_xprt *sx;
	int rc;

	if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	sx = kzalloc(sizeof(*sx), GFP_KERNEL);
	if (!sx)
		return ERR_PTR(-ENOMEM);
	svc_xprt_init(net, &rpcrdmax_svc_class, &sx->xprt, serv);
	sx->listener = true;
	set_bit(XPT_LISTENER, &sx->xprt.xpt_flags);
	strcpy(sx->xprt.xpt_remotebuf, "listener");
	rc = rpcrdmax_svcl_create(&sx->xprt, sa, salen, &sx->svcl);
	if (rc) {
		/* svc puts the module reference it took for xpo_create, and
		 * freeing the svc_xprt puts one more: balance that one. */
		__module_get(THIS_MODULE);
		svc_xprt_put(&sx->xprt);
		return ERR_PTR(rc);
	}
	svc_xprt_set_local(&sx->xprt, sa, salen);
	return &sx->xprt;
}

static struct svc_xprt *rpcrdmax_svc_accept(struct svc_xprt *xprt)
{
	struct rpcrdmax_svc_xprt *sx = rpcrdmax_sx(xprt);
	bool more = false;
	struct svc_xprt *n;

	clear_bit(XPT_CONN, &xprt->xpt_flags);
	n = rpcrdmax_svcl_accept(sx->svcl, &more);
	if (more)
		set_bit(XPT_CONN, &xprt->xpt_flags);
	return n;
}

static int rpcrdmax_svc_recvfrom(struct svc_rqst *rqstp)
{
	struct svc_xprt *xprt = rqstp->rq_xprt;
	struct rpcrdmax_svc_xprt *sx = rpcrdmax_sx(xprt);
	struct rpcrdmax_svc_ctxt *ctxt = NULL;
	int len;

	rqstp->rq_xprt_ctxt = NULL;
	len = rpcrdmax_svcc_recvfrom(sx->svcc, rqstp, &ctxt);
	if (len <= 0)
		return len < 0 ? -ENOTCONN : 0;
	rqstp->rq_xprt_ctxt = ctxt;
	rqstp->rq_prot = IPPROTO_MAX;
#if !RPCRDMAX_HAVE_XPO_SECURE_PORT
	/* RDMA peers need no privileged port (xpo_secure_port before 6.3) */
	set_bit(RQ_SECURE, &rqstp->rq_flags);
#endif
	svc_xprt_copy_addrs(rqstp, xprt);
	return len;
}

static int rpcrdmax_svc_sendto(struct svc_rqst *rqstp)
{
	struct svc_xprt *xprt = rqstp->rq_xprt;
	int rc;

	if (svc_xprt_is_dead(xprt))
		return -ENOTCONN;
	rc = rpcrdmax_svcc_sendto(rpcrdmax_sx(xprt)->svcc, rqstp, rqstp->rq_xprt_ctxt);
	if (rc < 0) {
		svc_xprt_deferred_close(xprt);
		return -ENOTCONN;
	}
	return 0;
}

/* nfsd marks a DDP-eligible result; it is written at sendto. */
static int rpcrdmax_svc_result_payload(struct svc_rqst *rqstp, unsigned int offset,
				       unsigned int length)
{
	return rpcrdmax_svcc_result_payload(rpcrdmax_sx(rqstp->rq_xprt)->svcc, rqstp->rq_xprt_ctxt,
					    offset, length);
}

static void rpcrdmax_svc_release_ctxt(struct svc_xprt *xprt, void *ctxt)
{
	if (ctxt)
		rpcrdmax_svcc_release(rpcrdmax_sx(xprt)->svcc, ctxt);
}

static void rpcrdmax_svc_detach(struct svc_xprt *xprt)
{
	struct rpcrdmax_svc_xprt *sx = rpcrdmax_sx(xprt);

	if (!sx->listener && sx->svcc)
		rpcrdmax_svcc_detach(sx->svcc);
}

static void rpcrdmax_svc_free(struct svc_xprt *xprt)
{
	struct rpcrdmax_svc_xprt *sx = rpcrdmax_sx(xprt);

	might_sleep();
	if (sx->listener && sx->svcl)
		rpcrdmax_svcl_destroy(sx->svcl);
	else if (!sx->listener && sx->svcc)
		rpcrdmax_svcc_destroy(sx->svcc);
	kfree(sx);
}

static int rpcrdmax_svc_has_wspace(struct svc_xprt *xprt)
{
	return 1;
}

#if RPCRDMAX_HAVE_XPO_SECURE_PORT
static void rpcrdmax_svc_secure_port(struct svc_rqst *rqstp)
{
	set_bit(RQ_SECURE, &rqstp->rq_flags);
}
#endif

static void rpcrdmax_svc_kill_temp_xprt(struct svc_xprt *xprt)
{
}

static const struct svc_xprt_ops rpcrdmax_svc_ops = {
	.xpo_create = rpcrdmax_svc_create,
	.xpo_accept = rpcrdmax_svc_accept,
	.xpo_has_wspace = rpcrdmax_svc_has_wspace,
	.xpo_recvfrom = rpcrdmax_svc_recvfrom,
	.xpo_sendto = rpcrdmax_svc_sendto,
	.xpo_result_payload = rpcrdmax_svc_result_payload,
	.xpo_release_ctxt = rpcrdmax_svc_release_ctxt,
	.xpo_detach = rpcrdmax_svc_detach,
	.xpo_free = rpcrdmax_svc_free,
#if RPCRDMAX_HAVE_XPO_SECURE_PORT
	.xpo_secure_port = rpcrdmax_svc_secure_port,
#endif
	.xpo_kill_temp_xprt = rpcrdmax_svc_kill_temp_xprt,
};

static struct svc_xprt_class rpcrdmax_svc_class = {
	.xcl_name = "rdma",
	.xcl_owner = THIS_MODULE,
	.xcl_ops = &rpcrdmax_svc_ops,
	.xcl_max_payload = RPCSVC_MAXPAYLOAD,
	.xcl_ident = XPRT_TRANSPORT_RDMA,
};

struct rpcrdmax_svcc *rpcrdmax_svc_conn_of(struct svc_xprt *xprt)
{
	if (xprt->xpt_class != &rpcrdmax_svc_class || rpcrdmax_sx(xprt)->listener)
		return NULL;
	return rpcrdmax_sx(xprt)->svcc;
}

/**
 * rpcrdmax_svc_register - register the "rdma" svc_xprt class and its
 * backchannel (shim/sunrpc/svc_bc.c)
 *
 * Returns 0 or a negative errno (-EEXIST: the stock module has them).
 */
int rpcrdmax_svc_register(void)
{
	int rc;

	rc = rpcrdmax_svc_bc_register();
	if (rc)
		return rc;
	rc = svc_reg_xprt_class(&rpcrdmax_svc_class);
	if (rc)
		rpcrdmax_svc_bc_unregister();
	return rc;
}

/** rpcrdmax_svc_unregister - unregister the classes */
void rpcrdmax_svc_unregister(void)
{
	svc_unreg_xprt_class(&rpcrdmax_svc_class);
	rpcrdmax_svc_bc_unregister();
}

/**
 * rpcrdmax_svc_xprt_new - make the svc_xprt of a new connection
 * @listener: the listener's svc_xprt
 * @cm_id: the connection's rdma_cm_id (addresses are taken from it)
 * @conn: the C++ connection
 *
 * Returns the svc_xprt (still XPT_BUSY until svc accepts it) or NULL.
 */
struct svc_xprt *rpcrdmax_svc_xprt_new(struct svc_xprt *listener, struct rdma_cm_id *cm_id,
				       struct rpcrdmax_svcc *conn)
{
	struct rpcrdmax_svc_xprt *sx;
	struct sockaddr *sa;

	sx = kzalloc(sizeof(*sx), GFP_KERNEL);
	if (!sx)
		return NULL;
	svc_xprt_init(listener->xpt_net, &rpcrdmax_svc_class, &sx->xprt, listener->xpt_server);
	set_bit(XPT_CONG_CTRL, &sx->xprt.xpt_flags);
	sx->svcc = conn;
	sa = (struct sockaddr *)&cm_id->route.addr.dst_addr;
	svc_xprt_set_remote(&sx->xprt, sa, svc_addr_len(sa));
	sa = (struct sockaddr *)&cm_id->route.addr.src_addr;
	svc_xprt_set_local(&sx->xprt, sa, svc_addr_len(sa));
	return &sx->xprt;
}

/**
 * rpcrdmax_svc_xprt_discard - drop a connection svc never accepted
 * @xprt: from rpcrdmax_svc_xprt_new()
 *
 * Freeing puts a module reference that only accepted transports hold.
 */
void rpcrdmax_svc_xprt_discard(struct svc_xprt *xprt)
{
	__module_get(THIS_MODULE);
	svc_xprt_put(xprt);
}

/** rpcrdmax_svc_xprt_net - the struct net of @xprt (struct svc_xprt) */
struct net *rpcrdmax_svc_xprt_net(struct svc_xprt *xprt)
{
	return xprt->xpt_net;
}

/**
 * rpcrdmax_svc_max_payload - the largest payload a connection may carry
 * @listener: the listener's svc_xprt
 */
unsigned int rpcrdmax_svc_max_payload(struct svc_xprt *listener)
{
	return min_t(unsigned int, listener->xpt_server->sv_max_payload, RPCSVC_MAXPAYLOAD);
}

/** rpcrdmax_svc_xprt_conn_pending - tell svc a connection waits on @listener */
void rpcrdmax_svc_xprt_conn_pending(struct svc_xprt *listener)
{
	set_bit(XPT_CONN, &listener->xpt_flags);
	svc_xprt_enqueue(listener);
}

/** rpcrdmax_svc_xprt_data_ready - a message waits on @xprt */
void rpcrdmax_svc_xprt_data_ready(struct svc_xprt *xprt)
{
	set_bit(XPT_DATA, &xprt->xpt_flags);
	svc_xprt_enqueue(xprt);
}

/** rpcrdmax_svc_xprt_received - a message was taken off @xprt */
void rpcrdmax_svc_xprt_received(struct svc_xprt *xprt)
{
	svc_xprt_received(xprt);
}

/** rpcrdmax_svc_xprt_close - have svc close @xprt (any context) */
void rpcrdmax_svc_xprt_close(struct svc_xprt *xprt)
{
	svc_xprt_deferred_close(xprt);
}

/** rpcrdmax_svc_xprt_closing - @xprt is closing or closed (XPT_CLOSE, XPT_DEAD) */
bool rpcrdmax_svc_xprt_closing(struct svc_xprt *xprt)
{
	return test_bit(XPT_CLOSE, &xprt->xpt_flags) || test_bit(XPT_DEAD, &xprt->xpt_flags);
}

MODULE_ALIAS("svcrdma");
