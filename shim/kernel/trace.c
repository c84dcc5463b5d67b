// SPDX-License-Identifier: GPL-2.0
/*
 * shim/kernel/trace.c - tracepoints for C++ (events: trace.h).  Each
 * function only fires its event; when the event is off, the kernel's
 * static branch inside it skips everything but the call, and for the
 * events of every Call and Reply the C++ skips the call too
 * (rpcrdmax_tp_key).
 */
#include <linux/sunrpc/xprt.h>
#include "../internal.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

/*
 * rpcrdmax_tp_hot_probed - how many hot tracepoints have a probe: each
 * hot event is defined with these two as its regfunc and unregfunc,
 * which the kernel calls as its first probe is attached, before it
 * enables the key, and as its last is removed (6.1 just before it
 * disables the key: a probe going away may miss the events of that
 * moment, as any probe racing its removal does).  So while a probe is
 * attached to a hot event, this count is above zero; the C++ reads it
 * first.  The kernel calls both under its tracepoints_mutex, so they
 * never race each other.
 */
int rpcrdmax_tp_hot_probed;

int rpcrdmax_tp_hot_reg(void)
{
	WRITE_ONCE(rpcrdmax_tp_hot_probed, rpcrdmax_tp_hot_probed + 1);
	return 0;
}

void rpcrdmax_tp_hot_unreg(void)
{
	WRITE_ONCE(rpcrdmax_tp_hot_probed, rpcrdmax_tp_hot_probed - 1);
}

#ifdef CONFIG_TRACEPOINTS
#if RPCRDMAX_PROBE_TP_EXT
#define RPCRDMAX_TP_REGFUNC(tp) ((tp).ext ? (tp).ext->regfunc : NULL)
#else
#define RPCRDMAX_TP_REGFUNC(tp) ((tp).regfunc)
#endif
#define RPCRDMAX_TP_CHECK(id, event)					\
	if (RPCRDMAX_TP_REGFUNC(__tracepoint_##event) != rpcrdmax_tp_hot_reg) { \
		pr_err("rpcrdmax: hot tracepoint " #event " does not count its probes\n"); \
		return -EINVAL;						\
	}
#endif

/**
 * rpcrdmax_trace_check - every hot tracepoint counts its probes
 *
 * A hot event defined without rpcrdmax_tp_hot_reg would never fire while
 * it is the only one on.  Returns 0, or -EINVAL (logged) for such an
 * event: the module does not load then.
 */
int rpcrdmax_trace_check(void)
{
#ifdef CONFIG_TRACEPOINTS
	RPCRDMAX_HOT_TRACEPOINTS(RPCRDMAX_TP_CHECK)
#endif
	return 0;
}

/*
 * rpcrdmax_tp_key - the enabled counts of the tracepoints' static keys
 * (include/rpcrdmax_shim.h, RPCRDMAX_HOT_TRACEPOINTS and
 * RPCRDMAX_COLD_TRACEPOINTS), which the C++ reads before it calls the
 * function that fires one.  static_key_enabled() reads the same count;
 * made from the lists, the table has no gap.
 */
#ifdef CONFIG_TRACEPOINTS
#define RPCRDMAX_TP_KEY(id, event) \
	[RPCRDMAX_TP_##id] = &RPCRDMAX_TP_STATIC_KEY(__tracepoint_##event)->enabled.counter,
#else
/* A kernel without tracepoints (the KUnit kernel's tinyconfig): never on. */
static const int rpcrdmax_tp_never;
#define RPCRDMAX_TP_KEY(id, event) [RPCRDMAX_TP_##id] = &rpcrdmax_tp_never,
#endif
const int *const rpcrdmax_tp_key[RPCRDMAX_TP_COUNT] = {
	RPCRDMAX_HOT_TRACEPOINTS(RPCRDMAX_TP_KEY)
	RPCRDMAX_COLD_TRACEPOINTS(RPCRDMAX_TP_KEY)
};
#undef RPCRDMAX_TP_KEY

#ifdef CONFIG_TRACEPOINTS
#define RPCRDMAX_WC_KEY(ev, event) \
	[ev] = &RPCRDMAX_TP_STATIC_KEY(__tracepoint_##event)->enabled.counter
#else
#define RPCRDMAX_WC_KEY(ev, event) [ev] = &rpcrdmax_tp_never
#endif
static const int rpcrdmax_wc_none;
const int *const rpcrdmax_wc_key[RPCRDMAX_WC_EV_COUNT] = {
	[RPCRDMAX_WC_EV_NONE] = &rpcrdmax_wc_none,
	RPCRDMAX_WC_KEY(RPCRDMAX_WC_EV_CLNT_RECEIVE, xprtrdma_wc_receive),
	RPCRDMAX_WC_KEY(RPCRDMAX_WC_EV_CLNT_SEND, xprtrdma_wc_send),
	RPCRDMAX_WC_KEY(RPCRDMAX_WC_EV_CLNT_LI, xprtrdma_wc_li),
	RPCRDMAX_WC_KEY(RPCRDMAX_WC_EV_CLNT_LI_WAKE, xprtrdma_wc_li_wake),
	RPCRDMAX_WC_KEY(RPCRDMAX_WC_EV_SVC_RECV, svcrdma_wc_recv),
	RPCRDMAX_WC_KEY(RPCRDMAX_WC_EV_SVC_SEND, svcrdma_wc_send),
	RPCRDMAX_WC_KEY(RPCRDMAX_WC_EV_SVC_READ, svcrdma_wc_read),
};
#undef RPCRDMAX_WC_KEY

/* The server's completion events: a success, a flush, an error. */
#define RPCRDMAX_SVC_WC(wc, name, ...)					\
	do {								\
		if ((wc)->status == IB_WC_SUCCESS)			\
			trace_##name(wc, __VA_ARGS__);			\
		else if ((wc)->status == IB_WC_WR_FLUSH_ERR)		\
			trace_##name##_flush(wc, __VA_ARGS__);		\
		else							\
			trace_##name##_err(wc, __VA_ARGS__);		\
	} while (0)

/**
 * rpcrdmax_trace_wc - a completion arrived (shim/kernel/verbs.c)
 * @event: which tracepoint its storage names
 * @cq: the CQ it completed on
 * @wc: the completion
 * @cid: the storage's id, or -1
 */
void rpcrdmax_trace_wc(enum rpcrdmax_wc_event event, struct ib_cq *cq, const struct ib_wc *wc,
		       int cid)
{
	switch (event) {
	case RPCRDMAX_WC_EV_NONE:
	case RPCRDMAX_WC_EV_COUNT:
		break;
	case RPCRDMAX_WC_EV_CLNT_RECEIVE:
		trace_xprtrdma_wc_receive(wc, cq->res.id, cid);
		break;
	case RPCRDMAX_WC_EV_CLNT_SEND:
		trace_xprtrdma_wc_send(wc, cq->res.id, cid);
		break;
	case RPCRDMAX_WC_EV_CLNT_LI:
		trace_xprtrdma_wc_li(wc, cq->res.id, cid);
		break;
	case RPCRDMAX_WC_EV_CLNT_LI_WAKE:
		trace_xprtrdma_wc_li_wake(wc, cq->res.id, cid);
		break;
	case RPCRDMAX_WC_EV_SVC_RECV:
		RPCRDMAX_SVC_WC(wc, svcrdma_wc_recv, cq->res.id, cid);
		break;
	case RPCRDMAX_WC_EV_SVC_SEND:
		RPCRDMAX_SVC_WC(wc, svcrdma_wc_send, cq->res.id, cid);
		break;
	case RPCRDMAX_WC_EV_SVC_READ:
		RPCRDMAX_SVC_WC(wc, svcrdma_wc_read, cq->res.id, cid);
		break;
	}
}

/* @id's peer address and port in @buf, as svc's xpt_remotebuf shows them. */
static const char *rpcrdmax_peer_str(struct rdma_cm_id *id, char *buf, size_t len)
{
	if (!id)
		return "(no id)";
	snprintf(buf, len, "%pISpc", &id->route.addr.dst_addr);
	return buf;
}

/* The device name of CM id @id, for the server's DMA and chunk events. */
static const char *rpcrdmax_id_device(struct rdma_cm_id *id)
{
	return id && id->device ? dev_name(&id->device->dev) : "(none)";
}

/**
 * rpcrdmax_trace_svc_accept_err - setting a server connection up failed
 * @which: at which stage (its PD, its QP, the accept)
 * @id: the connection's struct rdma_cm_id
 * @status: the negative errno
 */
void rpcrdmax_trace_svc_accept_err(enum rpcrdmax_accept_err which, struct rdma_cm_id *id,
				   long status)
{
	char buf[64];
	const char *addr;

	if (!trace_svcrdma_pd_err_enabled() && !trace_svcrdma_qp_err_enabled() &&
	    !trace_svcrdma_accept_err_enabled())
		return;
	addr = rpcrdmax_peer_str(id, buf, sizeof(buf));
	switch (which) {
	case RPCRDMAX_ACCEPT_ERR_PD:
		trace_svcrdma_pd_err(addr, status);
		break;
	case RPCRDMAX_ACCEPT_ERR_QP:
		trace_svcrdma_qp_err(addr, status);
		break;
	case RPCRDMAX_ACCEPT_ERR_ACCEPT:
		trace_svcrdma_accept_err(addr, status);
		break;
	}
}

/**
 * rpcrdmax_trace_svc_rq_post_err - a server connection could not post Receives
 * @id: its struct rdma_cm_id
 * @status: the negative errno
 */
void rpcrdmax_trace_svc_rq_post_err(struct rdma_cm_id *id, int status)
{
	char buf[64];

	if (trace_svcrdma_rq_post_err_enabled())
		trace_svcrdma_rq_post_err(rpcrdmax_peer_str(id, buf, sizeof(buf)), status);
}

/**
 * rpcrdmax_trace_svc_sq_post_err - a server connection could not post a Send chain
 * @id: its struct rdma_cm_id
 * @avail: Send Queue slots free
 * @depth: Send Queue slots in all
 * @status: the negative errno
 */
void rpcrdmax_trace_svc_sq_post_err(struct rdma_cm_id *id, int avail, int depth, int status)
{
	char buf[64];

	if (trace_svcrdma_sq_post_err_enabled())
		trace_svcrdma_sq_post_err(rpcrdmax_peer_str(id, buf, sizeof(buf)), avail, depth,
					  status);
}

/**
 * rpcrdmax_trace_svc_sq_wait - a server connection's Send Queue was full
 * @id: the connection's struct rdma_cm_id
 * @avail: slots free (of @depth)
 * @depth: slots in all
 * @retry: false: the poster goes to sleep (svcrdma_sq_full); true: it
 *	woke and tries again (svcrdma_sq_retry)
 */
void rpcrdmax_trace_svc_sq_wait(struct rdma_cm_id *id, int avail, int depth, bool retry)
{
	char buf[64];

	if (retry && trace_svcrdma_sq_retry_enabled())
		trace_svcrdma_sq_retry(rpcrdmax_peer_str(id, buf, sizeof(buf)), avail, depth);
	else if (!retry && trace_svcrdma_sq_full_enabled())
		trace_svcrdma_sq_full(rpcrdmax_peer_str(id, buf, sizeof(buf)), avail, depth);
}

/**
 * rpcrdmax_trace_post_send_err - a Call's Send chain could not be posted
 * @rqst: its struct rpc_rqst
 * @cq: the Send CQ (struct ib_cq)
 * @rc: the negative errno
 */
void rpcrdmax_trace_post_send_err(struct rpc_rqst *rqst, struct ib_cq *cq, int rc)
{
	trace_xprtrdma_post_send_err(rqst, cq ? cq->res.id : 0, rc);
}

/**
 * rpcrdmax_trace_post_recvs_err - the client could not post a Receive
 * @xprt: the struct rpc_xprt
 * @cq: the Receive CQ (struct ib_cq)
 * @status: the negative errno
 */
void rpcrdmax_trace_post_recvs_err(struct rpc_xprt *xprt, struct ib_cq *cq, int status)
{
	trace_xprtrdma_post_recvs_err(xprt, cq ? cq->res.id : 0, status);
}

/**
 * rpcrdmax_trace_post_send - a Call's Send chain was posted
 * @rqst: its struct rpc_rqst
 * @cq: the Send CQ (struct ib_cq)
 * @cid: which Send buffer
 * @num_sge: the Send's SGEs
 * @signaled: whether the Send asks for a completion
 */
void rpcrdmax_trace_post_send(struct rpc_rqst *rqst, struct ib_cq *cq, int cid, int num_sge,
			      bool signaled)
{
	trace_xprtrdma_post_send(rqst, cq->res.id, cid, num_sge, signaled);
}

/**
 * rpcrdmax_trace_post_recv - the client posted a Receive
 * @cq: the Receive CQ (struct ib_cq)
 * @cid: which Receive buffer
 */
void rpcrdmax_trace_post_recv(struct ib_cq *cq, int cid)
{
	trace_xprtrdma_post_recv(cq->res.id, cid);
}

/**
 * rpcrdmax_trace_post_recvs - the client posted a batch of Receives
 * @xprt: the struct rpc_xprt
 * @cq: the Receive CQ (struct ib_cq)
 * @count: Receives in the batch
 * @posted: Receives posted now in all
 */
void rpcrdmax_trace_post_recvs(struct rpc_xprt *xprt, struct ib_cq *cq, unsigned int count,
			       int posted)
{
	trace_xprtrdma_post_recvs(xprt, cq->res.id, count, posted);
}

/**
 * rpcrdmax_trace_svc_post_recvs - a server connection posted Receives
 * @cq: the Receive CQ (struct ib_cq)
 * @cqes: each Receive's struct ib_cqe, whose cid svcrdma_post_recv prints
 * @n: how many
 */
void rpcrdmax_trace_svc_post_recvs(struct ib_cq *cq, struct rpcrdmax_cqe *const *cqes,
				   unsigned int n)
{
	unsigned int i;

	if (!trace_svcrdma_post_recv_enabled())
		return;
	for (i = 0; i < n; i++)
		trace_svcrdma_post_recv(cq->res.id,
					((const struct rpcrdmax_cqe *)cqes[i])->id);
}

/**
 * rpcrdmax_trace_svc_post_send - a server connection posted a Reply's chain
 * @cq: the Send CQ (struct ib_cq)
 * @cid: which Send context (the chain's Writes carry it too)
 * @num_sge: the Send's SGEs
 * @inv_rkey: the rkey it invalidates (Send With Invalidate), else 0
 * @write_wrs: Send Queue slots of the Writes of the Reply's Write chunks
 * @reply_wrs: those of the Writes of its Reply chunk
 *
 * Fires svcrdma_post_write_chunk and _reply_chunk for the Writes there
 * are, then svcrdma_post_send: one call per Reply while they are off.
 */
void rpcrdmax_trace_svc_post_send(struct ib_cq *cq, int cid, unsigned int num_sge,
				  unsigned int inv_rkey, int write_wrs, int reply_wrs)
{
	u32 cq_id = cq->res.id;

	if (write_wrs)
		trace_svcrdma_post_write_chunk(cq_id, cid, write_wrs);
	if (reply_wrs)
		trace_svcrdma_post_reply_chunk(cq_id, cid, reply_wrs);
	trace_svcrdma_post_send(cq_id, cid, num_sge, inv_rkey);
}

/**
 * rpcrdmax_trace_svc_post_read_chunk - a server connection posted a Call's RDMA Reads
 * @cq: the Send CQ (struct ib_cq)
 * @cid: the Read context's
 * @sqecount: the Send Queue slots the Reads take
 */
void rpcrdmax_trace_svc_post_read_chunk(struct ib_cq *cq, int cid, int sqecount)
{
	trace_svcrdma_post_read_chunk(cq->res.id, cid, sqecount);
}

/**
 * rpcrdmax_trace_op_connect - sunrpc asked the client transport to connect
 * @xprt: the struct rpc_xprt
 * @delay: jiffies before the attempt
 */
void rpcrdmax_trace_op_connect(struct rpc_xprt *xprt, unsigned long delay)
{
	trace_xprtrdma_op_connect(xprt, delay);
}

/**
 * rpcrdmax_trace_op_set_cto - sunrpc set the client transport's connect time-outs
 * @xprt: the struct rpc_xprt
 * @connect: the connect time-out asked for, in jiffies
 * @reconnect: the longest reconnect delay asked for, in jiffies
 */
void rpcrdmax_trace_op_set_cto(struct rpc_xprt *xprt, unsigned long connect,
			       unsigned long reconnect)
{
	trace_xprtrdma_op_set_cto(xprt, connect, reconnect);
}

/**
 * rpcrdmax_trace_op_inject_dsc - sunrpc injected a disconnect (CONFIG_FAIL_SUNRPC)
 * @xprt: the struct rpc_xprt
 */
void rpcrdmax_trace_op_inject_dsc(struct rpc_xprt *xprt)
{
	trace_xprtrdma_op_inject_dsc(xprt);
}

/**
 * rpcrdmax_trace_inline_thresh - a client connection's inline sizes
 * @id: its struct rdma_cm_id
 * @inline_send: the Call threshold both ends' private data give
 * @inline_recv: the Reply threshold they give
 * @max_send: the largest Call sent inline
 * @max_recv: the largest Reply received inline
 */
void rpcrdmax_trace_inline_thresh(struct rdma_cm_id *id, unsigned int inline_send,
				  unsigned int inline_recv, unsigned int max_send,
				  unsigned int max_recv)
{
	trace_xprtrdma_inline_thresh(id, inline_send, inline_recv, max_send, max_recv);
}

/**
 * rpcrdmax_trace_createmrs - a client connection made its MRs
 * @xprt: the struct rpc_xprt
 * @count: how many
 */
void rpcrdmax_trace_createmrs(struct rpc_xprt *xprt, unsigned int count)
{
	trace_xprtrdma_createmrs(xprt, count);
}

/**
 * rpcrdmax_trace_frwr_alloc - an MR could not be made
 * @mr_id: its index
 * @rc: the negative errno
 */
void rpcrdmax_trace_frwr_alloc(unsigned int mr_id, int rc)
{
	trace_xprtrdma_frwr_alloc(mr_id, rc);
}

/**
 * rpcrdmax_trace_nomrs_err - no MR was free for an RPC's chunk
 * @xprt: the struct rpc_xprt
 * @rqst: the RPC's struct rpc_rqst
 */
void rpcrdmax_trace_nomrs_err(struct rpc_xprt *xprt, struct rpc_rqst *rqst)
{
	trace_xprtrdma_nomrs_err(xprt, rqst);
}

/**
 * rpcrdmax_trace_marshal_failed - a Call could not be marshaled
 * @rqst: its struct rpc_rqst
 * @ret: the negative errno
 */
void rpcrdmax_trace_marshal_failed(struct rpc_rqst *rqst, int ret)
{
	trace_xprtrdma_marshal_failed(rqst, ret);
}

/**
 * rpcrdmax_trace_decode_seg - a Write list or Reply chunk segment as a Reply returns it
 * @handle: its rkey
 * @length: the octets the server wrote there
 * @offset: its address
 */
void rpcrdmax_trace_decode_seg(unsigned int handle, unsigned int length,
			       unsigned long long offset)
{
	trace_xprtrdma_decode_seg(handle, length, offset);
}

/**
 * rpcrdmax_trace_svc_send_err - a server connection could not send a Reply
 * @id: its struct rdma_cm_id
 * @xid: the Call's XID
 * @status: the negative errno
 */
void rpcrdmax_trace_svc_send_err(struct rdma_cm_id *id, unsigned int xid, int status)
{
	char buf[64];

	if (trace_svcrdma_send_err_enabled())
		trace_svcrdma_send_err(rpcrdmax_peer_str(id, buf, sizeof(buf)), xid, status);
}

/**
 * rpcrdmax_trace_svc_small_wrch_err - a result longer than its Write chunk
 * @id: the connection's struct rdma_cm_id
 * @remaining: octets that do not fit
 * @seg_no: segments used
 * @num_segs: segments in the chunk
 */
void rpcrdmax_trace_svc_small_wrch_err(struct rdma_cm_id *id, unsigned int remaining,
				       unsigned int seg_no, unsigned int num_segs)
{
	char buf[64];

	if (trace_svcrdma_small_wrch_err_enabled())
		trace_svcrdma_small_wrch_err(rpcrdmax_peer_str(id, buf, sizeof(buf)),
					     rpcrdmax_id_device(id), remaining, seg_no, num_segs);
}

/**
 * rpcrdmax_trace_post_linv_err - an RPC's LOCAL_INVs could not be posted
 * @rqst: its struct rpc_rqst, or NULL
 * @status: the negative errno
 */
void rpcrdmax_trace_post_linv_err(struct rpc_rqst *rqst, int status)
{
	trace_xprtrdma_post_linv_err(rqst, status);
}

/**
 * rpcrdmax_trace_dma_maperr - a client buffer could not be DMA-mapped
 * @dma: the DMA address the mapping gave (0 if none)
 */
void rpcrdmax_trace_dma_maperr(unsigned long long dma)
{
	trace_xprtrdma_dma_maperr(dma);
}

/**
 * rpcrdmax_trace_frwr_maperr - an MR's pages could not be mapped
 * @mr_id: the MR's index in its connection's pool
 * @dir: an RPCRDMAX_DMA_* direction
 * @mapped: what the mapping returned (a count, or a negative errno)
 * @nents: page pieces it was given
 */
void rpcrdmax_trace_frwr_maperr(int mr_id, int dir, int mapped, int nents)
{
	/* stock's addr is its scatterlist's first DMA address: none here */
	trace_xprtrdma_frwr_maperr(mr_id, 0, dir, mapped, nents);
}

/**
 * rpcrdmax_trace_svc_dma_map_err - a server mapping failed
 * @id: the connection's struct rdma_cm_id
 * @dma: the DMA address the mapping gave (0 if none)
 * @length: octets to map
 */
void rpcrdmax_trace_svc_dma_map_err(struct rdma_cm_id *id, unsigned long long dma,
				    unsigned int length)
{
	char buf[64];

	if (trace_svcrdma_dma_map_err_enabled())
		trace_svcrdma_dma_map_err(rpcrdmax_peer_str(id, buf, sizeof(buf)),
					  rpcrdmax_id_device(id), dma, length);
}

/**
 * rpcrdmax_trace_svc_dma_map_rw_err - an rdma_rw context could not be set up
 * @id: the connection's struct rdma_cm_id
 * @nents: page pieces it was given
 * @status: the negative errno
 */
void rpcrdmax_trace_svc_dma_map_rw_err(struct rdma_cm_id *id, unsigned int nents, int status)
{
	char buf[64];

	if (trace_svcrdma_dma_map_rw_err_enabled())
		trace_svcrdma_dma_map_rw_err(rpcrdmax_peer_str(id, buf, sizeof(buf)),
					     rpcrdmax_id_device(id), nents, status);
}

/**
 * rpcrdmax_trace_cb_setup - the backchannel's slots were made (shim/sunrpc/xprt_bc.c)
 * @xprt: the transport
 * @reqs: how many it has
 */
void rpcrdmax_trace_cb_setup(struct rpc_xprt *xprt, unsigned int reqs)
{
	trace_xprtrdma_cb_setup(xprt, reqs);
}

/**
 * rpcrdmax_trace_cb - a backward Call was taken, or its Reply sent
 * @xprt: the struct rpc_xprt it came on
 * @xid: its XID
 * @reply: false: xprtrdma_cb_call; true: xprtrdma_cb_reply
 */
void rpcrdmax_trace_cb(struct rpc_xprt *xprt, unsigned int xid, bool reply)
{
	if (reply)
		trace_xprtrdma_cb_reply(xprt, xid);
	else
		trace_xprtrdma_cb_call(xprt, xid);
}

/**
 * rpcrdmax_trace_connect - a connect attempt of the client transport ended
 * @xprt: the struct rpc_xprt
 * @rc: 0 or the negative errno it failed with
 */
void rpcrdmax_trace_connect(struct rpc_xprt *xprt, int rc)
{
	trace_xprtrdma_connect(xprt, rc, rc ? rc : 1);
}

/**
 * rpcrdmax_trace_disconnect - the client transport closed its connection
 * @xprt: the struct rpc_xprt
 * @rc: what rdma_disconnect() returned
 * @established: the connection had been established
 */
void rpcrdmax_trace_disconnect(struct rpc_xprt *xprt, int rc, bool established)
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
void rpcrdmax_trace_marshal(struct rpc_rqst *rqst, unsigned int hdrlen, unsigned int rtype,
			    unsigned int wtype)
{
	trace_xprtrdma_marshal(rqst, hdrlen, rtype, wtype);
}

/**
 * rpcrdmax_trace_reply - a Reply matched a Call
 * @rqst: the Call's struct rpc_rqst
 * @credits: the credits the Reply granted
 */
void rpcrdmax_trace_reply(struct rpc_rqst *rqst, unsigned int credits)
{
	trace_xprtrdma_reply(rqst, credits);
}

/**
 * rpcrdmax_trace_err_vers - the server answered a Call with ERR_VERS
 * @rqst: the Call's struct rpc_rqst
 * @low: the lowest version the server supports
 * @high: the highest
 */
void rpcrdmax_trace_err_vers(struct rpc_rqst *rqst, unsigned int low, unsigned int high)
{
	trace_xprtrdma_err_vers(rqst, low, high);
}

/**
 * rpcrdmax_trace_err_chunk - the server answered a Call with ERR_CHUNK
 * @rqst: the Call's struct rpc_rqst
 */
void rpcrdmax_trace_err_chunk(struct rpc_rqst *rqst)
{
	trace_xprtrdma_err_chunk(rqst);
}

/**
 * rpcrdmax_trace_err_unrecognized - the server answered a Call with an
 *	RDMA_ERROR whose rdma_err is not ERR_VERS or ERR_CHUNK
 * @rqst: the Call's struct rpc_rqst
 * @err: the rdma_err as received
 */
void rpcrdmax_trace_err_unrecognized(struct rpc_rqst *rqst, unsigned int err)
{
	trace_xprtrdma_err_unrecognized(rqst, err);
}

/**
 * rpcrdmax_trace_reply_err - the client dropped or failed a Reply
 * @which: which of stock's xprtrdma_reply_*_err events
 * @xprt: the client transport's rpc_xprt
 * @xid: the Reply's rdma_xid
 * @vers: its rdma_vers
 * @proc: its rdma_proc
 */
void rpcrdmax_trace_reply_err(enum rpcrdmax_reply_err which, struct rpc_xprt *xprt,
			      unsigned int xid, unsigned int vers, unsigned int proc)
{
	switch (which) {
	case RPCRDMAX_REPLY_ERR_SHORT:
		trace_xprtrdma_reply_short_err(xprt, xid, vers, proc);
		break;
	case RPCRDMAX_REPLY_ERR_VERS:
		trace_xprtrdma_reply_vers_err(xprt, xid, vers, proc);
		break;
	case RPCRDMAX_REPLY_ERR_RQST:
		trace_xprtrdma_reply_rqst_err(xprt, xid, vers, proc);
		break;
	case RPCRDMAX_REPLY_ERR_HDR:
		trace_xprtrdma_reply_hdr_err(xprt, xid, vers, proc);
		break;
	}
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
void rpcrdmax_trace_svc_decode(struct ib_cq *cq, int cid, unsigned int xid, unsigned int vers,
			       unsigned int proc, unsigned int credits, unsigned int hdrlen)
{
	trace_svcrdma_decode_rqst(cq->res.id, cid, xid, vers, proc, credits,
				  hdrlen);
}

/**
 * rpcrdmax_trace_mr - an MR was registered, invalidated or unmapped
 * @which: which of these
 * @rqst: the struct rpc_rqst it serves, or NULL
 * @mr: what it maps
 */
void rpcrdmax_trace_mr(enum rpcrdmax_mr_event which, struct rpc_rqst *rqst,
		       const struct rpcrdmax_mr_info *mr)
{
	switch (which) {
	case RPCRDMAX_MR_EV_REG:
		trace_xprtrdma_mr_map(rqst, mr);
		trace_xprtrdma_mr_fastreg(rqst, mr);
		break;
	case RPCRDMAX_MR_EV_REMINV:
		trace_xprtrdma_mr_reminv(rqst, mr);
		break;
	case RPCRDMAX_MR_EV_LOCALINV:
		trace_xprtrdma_mr_localinv(rqst, mr);
		break;
	case RPCRDMAX_MR_EV_UNMAP:
		trace_xprtrdma_mr_unmap(mr);
		break;
	}
}

/**
 * rpcrdmax_trace_chunk - an MR of a Call's chunk went into its header
 * @which: the chunk's kind
 * @rqst: the Call's struct rpc_rqst
 * @pos: a Read chunk's XDR position (unused for the others)
 * @mr: the MR
 * @nsegs: the chunk's page pieces from this MR on
 */
void rpcrdmax_trace_chunk(enum rpcrdmax_chunk_event which, struct rpc_rqst *rqst, unsigned int pos,
			  const struct rpcrdmax_mr_info *mr, int nsegs)
{
	switch (which) {
	case RPCRDMAX_CHUNK_EV_READ:
		trace_xprtrdma_chunk_read(rqst, pos, mr, nsegs);
		break;
	case RPCRDMAX_CHUNK_EV_WRITE:
		trace_xprtrdma_chunk_write(rqst, mr, nsegs);
		break;
	case RPCRDMAX_CHUNK_EV_REPLY:
		trace_xprtrdma_chunk_reply(rqst, mr, nsegs);
		break;
	}
}

/**
 * rpcrdmax_trace_svc_rseg - a segment of a Call's Read list
 * @cq: the Receive CQ (struct ib_cq) the Call completed on
 * @cid: which Receive buffer of the connection, or -1
 * @segno: its index in its chunk
 * @position: the chunk's XDR position
 * @handle: rdma_handle
 * @length: rdma_length
 * @offset: rdma_offset
 */
void rpcrdmax_trace_svc_rseg(struct ib_cq *cq, int cid, unsigned int segno, unsigned int position,
			     unsigned int handle, unsigned int length, unsigned long long offset)
{
	trace_svcrdma_decode_rseg(cq->res.id, cid, segno, position, handle,
				  length, offset);
}

/**
 * rpcrdmax_trace_svc_wseg - a segment of a Call's Write list
 * @cq: the Receive CQ (struct ib_cq) the Call completed on
 * @cid: which Receive buffer of the connection, or -1
 * @segno: its index in its chunk
 * @handle: rdma_handle
 * @length: rdma_length
 * @offset: rdma_offset
 */
void rpcrdmax_trace_svc_wseg(struct ib_cq *cq, int cid, unsigned int segno, unsigned int handle,
			     unsigned int length, unsigned long long offset)
{
	trace_svcrdma_decode_wseg(cq->res.id, cid, segno, handle, length,
				  offset);
}

/**
 * rpcrdmax_trace_svc_encode_wseg - a segment of a Reply's Write list or Reply chunk
 * @cq: the Send CQ (struct ib_cq) the Reply goes out on
 * @cid: which Send context of the connection
 * @segno: its index in its chunk
 * @handle: rdma_handle
 * @length: the octets written into it
 * @offset: rdma_offset
 */
void rpcrdmax_trace_svc_encode_wseg(struct ib_cq *cq, int cid, unsigned int segno,
				    unsigned int handle, unsigned int length,
				    unsigned long long offset)
{
	trace_svcrdma_encode_wseg(cq->res.id, cid, segno, handle, length,
				  offset);
}

/**
 * rpcrdmax_trace_svc_decode_err - a Call's transport header cannot be served
 * @which: the event (what is wrong with it)
 * @cq: the Receive CQ (struct ib_cq) it completed on
 * @cid: which Receive buffer of the connection, or -1
 * @hdr: the message as received
 * @len: its length in octets (at least 16 unless @which is SHORT)
 */
void rpcrdmax_trace_svc_decode_err(enum rpcrdmax_decode_err which, struct ib_cq *cq, int cid,
				   const void *hdr, unsigned int len)
{
	const u32 cq_id = cq->res.id;

	if (which == RPCRDMAX_DECODE_ERR_SHORT || len < 4 * sizeof(__be32)) {
		trace_svcrdma_decode_short_err(cq_id, cid, len);
		return;
	}
	switch (which) {
	case RPCRDMAX_DECODE_ERR_BADVERS:
		trace_svcrdma_decode_badvers_err(cq_id, cid, hdr);
		break;
	case RPCRDMAX_DECODE_ERR_DROP:
		trace_svcrdma_decode_drop_err(cq_id, cid, hdr);
		break;
	case RPCRDMAX_DECODE_ERR_BADPROC:
		trace_svcrdma_decode_badproc_err(cq_id, cid, hdr);
		break;
	default:
		trace_svcrdma_decode_parse_err(cq_id, cid, hdr);
		break;
	}
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
