// SPDX-License-Identifier: GPL-2.0
/*
 * shim/sunrpc/xprt_cong.c - sunrpc's congestion window as one
 * connection's credits, for the client transport.
 *
 * The server's grant drives xprt->cwnd, and a request holds a slot of
 * xprt->cong (rq_cong) from its first transmission until it ends.  But
 * credits are a connection's (RFC 5666 Section 3.3; RFC 8166 Section
 * 3.3.1), and a request still waiting for its Reply when the connection
 * is lost keeps its slot: xprt_request_get_cong() would let it go at once
 * on the next connection, beyond that one's grant.  So @tag names the
 * connection whose slots xprt->cong counts, and a request's rq_cong holds
 * the tag of the one it took its slot on (not 1: sunrpc reads rq_cong
 * only as true or false).  The transport (shim/sunrpc/xprt.c) keeps the
 * tag; these touch only the rpc_xprt and rpc_rqst given, so the KUnit
 * module runs them on transports it builds.
 */
#include <linux/limits.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>
#include "../internal.h"

/**
 * rpcrdmax_cong_reset - start a new connection's congestion window
 * @xprt: the transport, its write lock held (by the connecting task)
 * @tag: the transport's connection tag, changed here
 *
 * No request holds a slot of the new connection, and its window is one
 * credit.  The slots requests still hold from an earlier connection stop
 * counting: rpcrdmax_cong_get() takes such a request a new one, and
 * rpcrdmax_cong_release() leaves xprt->cong alone for it.
 */
void rpcrdmax_cong_reset(struct rpc_xprt *xprt, int *tag)
{
	spin_lock(&xprt->transport_lock);
	xprt->cong = 0;
	xprt->cwnd = RPC_CWNDSCALE;
	/* No slot of this connection will be released to clear it. */
	clear_bit(XPRT_CWND_WAIT, &xprt->state);
	*tag = *tag == INT_MAX ? 1 : *tag + 1;
	spin_unlock(&xprt->transport_lock);
}

/**
 * rpcrdmax_cong_get - a slot of the current connection for a request
 * @xprt: the transport, its write lock held (by the transmitting task)
 * @rqst: the request
 * @tag: the current connection's tag
 *
 * Returns false when none is free: sunrpc sends the request once a slot
 * is released.
 */
bool rpcrdmax_cong_get(struct rpc_xprt *xprt, struct rpc_rqst *rqst, int tag)
{
	if (rqst->rq_cong == tag)
		return true;
	if (rqst->rq_cong) {	/* an earlier connection's */
		spin_lock(&xprt->transport_lock);
		rqst->rq_cong = 0;
		spin_unlock(&xprt->transport_lock);
	}
	if (!xprt_request_get_cong(xprt, rqst))
		return false;
	/* Only this task gives the slot back; others read rq_cong as true
	 * or false, which 1 and the tag both are. */
	WRITE_ONCE(rqst->rq_cong, tag);
	return true;
}

/**
 * rpcrdmax_cong_release - a request's slot given back as it ends
 * @task: its task (sunrpc's ->release_request, under the transport lock)
 * @tag: the current connection's tag
 */
void rpcrdmax_cong_release(struct rpc_task *task, int tag)
{
	struct rpc_rqst *rqst = task->tk_rqstp;

	/* A slot of an earlier connection is no longer in xprt->cong. */
	if (rqst->rq_cong && rqst->rq_cong != tag)
		rqst->rq_cong = 0;
	xprt_release_rqst_cong(task);
}
