// SPDX-License-Identifier: GPL-2.0
/*
 * shim/kernel/trace.c - tracepoints for C++ (events: trace.h).  Each
 * function only fires its event; when the event is off, the kernel's
 * static branch inside it skips everything but the call.
 */
#include <linux/sunrpc/xprt.h>
#include "../internal.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

/**
 * rpcrdmax_trace_connect - a connect attempt of the client transport ended
 * @xprt: the struct rpc_xprt
 * @rc: 0 or the negative errno it failed with
 */
void rpcrdmax_trace_connect(void *xprt, int rc)
{
	trace_xprtrdma_connect(xprt, rc, rc ? rc : 1);
}

/**
 * rpcrdmax_trace_disconnect - the client transport closed its connection
 * @xprt: the struct rpc_xprt
 * @rc: what rdma_disconnect() returned
 * @established: the connection had been established
 */
void rpcrdmax_trace_disconnect(void *xprt, int rc, bool established)
{
	trace_xprtrdma_disconnect(xprt, rc, established ? 1 : 0);
}

/**
 * rpcrdmax_trace_marshal - a Call was marshaled
 * @rqst: its struct rpc_rqst
 * @hdrlen: the transport header's length in octets
 * @rtype: how the Call travels (enum rpcrdmax_chunktype)
 * @wtype: how the Reply comes back (enum rpcrdmax_chunktype)
 */
void rpcrdmax_trace_marshal(void *rqst, unsigned int hdrlen, unsigned int rtype,
			    unsigned int wtype)
{
	trace_xprtrdma_marshal(rqst, hdrlen, rtype, wtype);
}

/**
 * rpcrdmax_trace_reply - a Reply matched a Call
 * @rqst: the Call's struct rpc_rqst
 * @credits: the credits the Reply granted
 */
void rpcrdmax_trace_reply(void *rqst, unsigned int credits)
{
	trace_xprtrdma_reply(rqst, credits);
}

/**
 * rpcrdmax_trace_err_vers - the server answered a Call with ERR_VERS
 * @rqst: the Call's struct rpc_rqst
 * @low: the lowest version the server supports
 * @high: the highest
 */
void rpcrdmax_trace_err_vers(void *rqst, unsigned int low, unsigned int high)
{
	trace_xprtrdma_err_vers(rqst, low, high);
}

/**
 * rpcrdmax_trace_err_chunk - the server answered a Call with ERR_CHUNK
 * @rqst: the Call's struct rpc_rqst
 */
void rpcrdmax_trace_err_chunk(void *rqst)
{
	trace_xprtrdma_err_chunk(rqst);
}

/**
 * rpcrdmax_trace_svc_decode - the server decoded a Call's transport header
 * @cq: the Receive CQ (struct ib_cq) it completed on
 * @cid: which Receive buffer of the connection, or -1
 * @xid: rdma_xid
 * @vers: rdma_vers
 * @proc: rdma_proc
 * @credits: rdma_credit
 * @hdrlen: the header's length in octets
 */
void rpcrdmax_trace_svc_decode(void *cq, int cid, unsigned int xid, unsigned int vers,
			       unsigned int proc, unsigned int credits, unsigned int hdrlen)
{
	trace_svcrdma_decode_rqst(((struct ib_cq *)cq)->res.id, cid, xid, vers, proc, credits,
				  hdrlen);
}

/**
 * rpcrdmax_trace_svc_err - the server answered a Call with RDMA_ERROR
 * @xid: the Call's rdma_xid
 * @vers: ERR_VERS (else ERR_CHUNK)
 */
void rpcrdmax_trace_svc_err(unsigned int xid, bool vers)
{
	if (vers)
		trace_svcrdma_err_vers(xid);
	else
		trace_svcrdma_err_chunk(xid);
}
