/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim/kernel/trace.h - rpcrdmax's tracepoints, in the stock module's
 * trace system ("rpcrdma") under the stock events' names and with their
 * field names, so that "trace-cmd record -e rpcrdma" and scripts written
 * for the stock module read them.  Only one of the two modules can be
 * loaded at a time.  Included twice by shim/kernel/trace.c (the second
 * time with CREATE_TRACE_POINTS), as every trace header is.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rpcrdma

#if !defined(RPCRDMAX_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RPCRDMAX_TRACE_H

#include <linux/tracepoint.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/xprt.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>
#include <trace/misc/rdma.h>
#include "rpcrdmax_shim.h"
#include "../compat.h"

/* The hot events' regfunc and unregfunc (RPCRDMAX_HOT_TRACEPOINTS:
 * defined with TRACE_EVENT_FN or DEFINE_EVENT_FN; shim/kernel/trace.c). */
int rpcrdmax_tp_hot_reg(void);
void rpcrdmax_tp_hot_unreg(void);

/* The chunk types' numbers are the stock module's (enum rpcrdma_chunktype);
 * exported so that user-space tools can decode the format too. */
TRACE_DEFINE_ENUM(RPCRDMAX_CH_INLINE);
TRACE_DEFINE_ENUM(RPCRDMAX_CH_PULLUP);
TRACE_DEFINE_ENUM(RPCRDMAX_CH_MAPPED);
TRACE_DEFINE_ENUM(RPCRDMAX_CH_READ);
TRACE_DEFINE_ENUM(RPCRDMAX_CH_LONG);
TRACE_DEFINE_ENUM(RPCRDMAX_CH_WRITE);
TRACE_DEFINE_ENUM(RPCRDMAX_CH_REPLY);

#define rpcrdmax_show_chunktype(t)					\
	__print_symbolic(t,						\
		{ RPCRDMAX_CH_INLINE, "inline" },			\
		{ RPCRDMAX_CH_PULLUP, "pullup" },			\
		{ RPCRDMAX_CH_MAPPED, "mapped" },			\
		{ RPCRDMAX_CH_READ, "read list" },			\
		{ RPCRDMAX_CH_LONG, "*read list" },			\
		{ RPCRDMAX_CH_WRITE, "write list" },			\
		{ RPCRDMAX_CH_REPLY, "reply chunk" })

/* A request's task and its RPC client, as sunrpc's own events name them
 * (KUnit's requests have no task). */
#define rpcrdmax_task_id(rqst) ((rqst)->rq_task ? (rqst)->rq_task->tk_pid : 0)
#define rpcrdmax_client_id(rqst)					\
	((rqst)->rq_task && (rqst)->rq_task->tk_client ?		\
	 (rqst)->rq_task->tk_client->cl_clid : -1)
/* The three fields every per-RPC client event starts with, named as
 * stock's and sunrpc's events name them. */
#define RPCRDMAX_RQST_FIELDS						\
		__field(unsigned int, task_id)				\
		__field(unsigned int, client_id)			\
		__field(u32, xid)
#define RPCRDMAX_RQST_ASSIGN(rqst)					\
	do {								\
		__entry->task_id = rpcrdmax_task_id(rqst);		\
		__entry->client_id = rpcrdmax_client_id(rqst);		\
		__entry->xid = be32_to_cpu((rqst)->rq_xid);		\
	} while (0)
#define RPCRDMAX_RQST_FMT "task:%u@%u xid=0x%08x"
#define RPCRDMAX_RQST_ARGS __entry->task_id, __entry->client_id, __entry->xid
#define rpcrdmax_xprt_str(xprt, which)					\
	((xprt)->address_strings[which] ? (xprt)->address_strings[which] : "?")

/* ---- completions (both ends), fired by shim/kernel/verbs.c ------------------ */
/* A completion's CQ (its restrack id) and its context (cid: e.g. which
 * Receive buffer), with the status and vendor error of one that failed. */

DECLARE_EVENT_CLASS(rpcrdmax_completion_class,
	TP_PROTO(const struct ib_wc *wc, u32 cq_id, int cid),
	TP_ARGS(wc, cq_id, cid),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(unsigned long, status)
		__field(unsigned int, vendor_err)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->completion_id = cid;
		__entry->status = wc->status;
		__entry->vendor_err = wc->status ? wc->vendor_err : 0;
	),
	TP_printk("cq.id=%u cid=%d status=%s (%lu/0x%x)",
		  __entry->cq_id, __entry->completion_id,
		  rdma_show_wc_status(__entry->status), __entry->status, __entry->vendor_err)
);

TRACE_EVENT(xprtrdma_wc_receive,
	TP_PROTO(const struct ib_wc *wc, u32 cq_id, int cid),
	TP_ARGS(wc, cq_id, cid),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(u32, received)
		__field(unsigned long, status)
		__field(unsigned int, vendor_err)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->completion_id = cid;
		__entry->status = wc->status;
		__entry->received = wc->status ? 0 : wc->byte_len;
		__entry->vendor_err = wc->status ? wc->vendor_err : 0;
	),
	TP_printk("cq.id=%u cid=%d status=%s (%lu/0x%x) received=%u",
		  __entry->cq_id, __entry->completion_id,
		  rdma_show_wc_status(__entry->status), __entry->status, __entry->vendor_err,
		  __entry->received)
);

#define RPCRDMAX_WC_EVENT(class, name)					\
	DEFINE_EVENT(class, name,					\
		TP_PROTO(const struct ib_wc *wc, u32 cq_id, int cid),	\
		TP_ARGS(wc, cq_id, cid))

RPCRDMAX_WC_EVENT(rpcrdmax_completion_class, xprtrdma_wc_send);

/* An MR's completion: the cid is the MR's, printed as stock does. */
#define RPCRDMAX_MR_WC_EVENT(name)					\
	DEFINE_EVENT_PRINT(rpcrdmax_completion_class, name,		\
		TP_PROTO(const struct ib_wc *wc, u32 cq_id, int cid),	\
		TP_ARGS(wc, cq_id, cid),				\
		TP_printk("cq.id=%u mr.id=%d status=%s (%lu/0x%x)",	\
			  __entry->cq_id, __entry->completion_id,	\
			  rdma_show_wc_status(__entry->status),		\
			  __entry->status, __entry->vendor_err))

RPCRDMAX_MR_WC_EVENT(xprtrdma_wc_li);
RPCRDMAX_MR_WC_EVENT(xprtrdma_wc_li_wake);

/* The server's: a success, a flush (the connection is going) or an error,
 * each an event of its own as in stock (the last two print the status as
 * the client's do).  svcrdma_wc_read carries no byte count or latency
 * here. */
DECLARE_EVENT_CLASS(rpcrdmax_svc_success_class,
	TP_PROTO(const struct ib_wc *wc, u32 cq_id, int cid),
	TP_ARGS(wc, cq_id, cid),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->completion_id = cid;
	),
	TP_printk("cq.id=%u cid=%d", __entry->cq_id, __entry->completion_id)
);

TRACE_EVENT(svcrdma_wc_recv,
	TP_PROTO(const struct ib_wc *wc, u32 cq_id, int cid),
	TP_ARGS(wc, cq_id, cid),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(u32, received)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->completion_id = cid;
		__entry->received = wc->byte_len;
	),
	TP_printk("cq.id=%u cid=%d received=%u",
		  __entry->cq_id, __entry->completion_id, __entry->received)
);

RPCRDMAX_WC_EVENT(rpcrdmax_completion_class, svcrdma_wc_recv_flush);
RPCRDMAX_WC_EVENT(rpcrdmax_completion_class, svcrdma_wc_recv_err);
RPCRDMAX_WC_EVENT(rpcrdmax_svc_success_class, svcrdma_wc_send);
RPCRDMAX_WC_EVENT(rpcrdmax_completion_class, svcrdma_wc_send_flush);
RPCRDMAX_WC_EVENT(rpcrdmax_completion_class, svcrdma_wc_send_err);
RPCRDMAX_WC_EVENT(rpcrdmax_svc_success_class, svcrdma_wc_read);
RPCRDMAX_WC_EVENT(rpcrdmax_completion_class, svcrdma_wc_read_flush);
RPCRDMAX_WC_EVENT(rpcrdmax_completion_class, svcrdma_wc_read_err);

/* ---- client: connection ------------------------------------------------ */

/* The server's address and port, "peer=[%s]:%s" in the events. */
#define RPCRDMAX_PEER_FIELDS(xprt)					\
		__string(addr, rpcrdmax_xprt_str(xprt, RPC_DISPLAY_ADDR)) \
		__string(port, rpcrdmax_xprt_str(xprt, RPC_DISPLAY_PORT))
#define RPCRDMAX_PEER_ASSIGN(xprt)					\
	do {								\
		RPCRDMAX_ASSIGN_STR(addr, rpcrdmax_xprt_str(xprt, RPC_DISPLAY_ADDR)); \
		RPCRDMAX_ASSIGN_STR(port, rpcrdmax_xprt_str(xprt, RPC_DISPLAY_PORT)); \
	} while (0)

DECLARE_EVENT_CLASS(rpcrdmax_conn_class,
	TP_PROTO(const struct rpc_xprt *xprt, int rc, int status),
	TP_ARGS(xprt, rc, status),
	TP_STRUCT__entry(
		__field(int, rc)
		__field(int, connect_status)
		RPCRDMAX_PEER_FIELDS(xprt)
	),
	TP_fast_assign(
		__entry->rc = rc;
		__entry->connect_status = status;
		RPCRDMAX_PEER_ASSIGN(xprt);
	),
	TP_printk("peer=[%s]:%s rc=%d connection status=%d",
		  __get_str(addr), __get_str(port), __entry->rc, __entry->connect_status)
);

DEFINE_EVENT(rpcrdmax_conn_class, xprtrdma_connect,
	TP_PROTO(const struct rpc_xprt *xprt, int rc, int status),
	TP_ARGS(xprt, rc, status));
DEFINE_EVENT(rpcrdmax_conn_class, xprtrdma_disconnect,
	TP_PROTO(const struct rpc_xprt *xprt, int rc, int status),
	TP_ARGS(xprt, rc, status));

/* sunrpc's calls into the transport: connect (with the delay before the
 * attempt, in jiffies), the mount's connect time-outs (jiffies), a
 * disconnect CONFIG_FAIL_SUNRPC injects. */
TRACE_EVENT(xprtrdma_op_connect,
	TP_PROTO(const struct rpc_xprt *xprt, unsigned long delay),
	TP_ARGS(xprt, delay),
	TP_STRUCT__entry(
		__field(unsigned long, delay)
		RPCRDMAX_PEER_FIELDS(xprt)
	),
	TP_fast_assign(
		__entry->delay = delay;
		RPCRDMAX_PEER_ASSIGN(xprt);
	),
	TP_printk("peer=[%s]:%s delay=%lu", __get_str(addr), __get_str(port), __entry->delay)
);

TRACE_EVENT(xprtrdma_op_set_cto,
	TP_PROTO(const struct rpc_xprt *xprt, unsigned long connect, unsigned long reconnect),
	TP_ARGS(xprt, connect, reconnect),
	TP_STRUCT__entry(
		__field(unsigned long, connect)
		__field(unsigned long, reconnect)
		RPCRDMAX_PEER_FIELDS(xprt)
	),
	TP_fast_assign(
		__entry->connect = connect;
		__entry->reconnect = reconnect;
		RPCRDMAX_PEER_ASSIGN(xprt);
	),
	TP_printk("peer=[%s]:%s connect=%lu reconnect=%lu", __get_str(addr), __get_str(port),
		  __entry->connect, __entry->reconnect)
);

TRACE_EVENT(xprtrdma_op_inject_dsc,
	TP_PROTO(const struct rpc_xprt *xprt),
	TP_ARGS(xprt),
	TP_STRUCT__entry(
		RPCRDMAX_PEER_FIELDS(xprt)
	),
	TP_fast_assign(
		RPCRDMAX_PEER_ASSIGN(xprt);
	),
	TP_printk("peer=[%s]:%s", __get_str(addr), __get_str(port))
);

/* A connection's inline sizes (RFC 8797): the thresholds both ends'
 * private data give (neg), and the largest Call we send and Reply we
 * can receive inline, within our buffers (calc). */
TRACE_EVENT(xprtrdma_inline_thresh,
	TP_PROTO(const struct rdma_cm_id *id, unsigned int inline_send, unsigned int inline_recv,
		 unsigned int max_send, unsigned int max_recv),
	TP_ARGS(id, inline_send, inline_recv, max_send, max_recv),
	TP_STRUCT__entry(
		__field(unsigned int, inline_send)
		__field(unsigned int, inline_recv)
		__field(unsigned int, max_send)
		__field(unsigned int, max_recv)
		__array(unsigned char, srcaddr, sizeof(struct sockaddr_in6))
		__array(unsigned char, dstaddr, sizeof(struct sockaddr_in6))
	),
	TP_fast_assign(
		__entry->inline_send = inline_send;
		__entry->inline_recv = inline_recv;
		__entry->max_send = max_send;
		__entry->max_recv = max_recv;
		memcpy(__entry->srcaddr, &id->route.addr.src_addr, sizeof(struct sockaddr_in6));
		memcpy(__entry->dstaddr, &id->route.addr.dst_addr, sizeof(struct sockaddr_in6));
	),
	TP_printk("%pISpc -> %pISpc neg send/recv=%u/%u, calc send/recv=%u/%u",
		  __entry->srcaddr, __entry->dstaddr, __entry->inline_send, __entry->inline_recv,
		  __entry->max_send, __entry->max_recv)
);

/* The backchannel: its slots made (xprtrdma_cb_setup), a backward Call
 * handed to the callback service (_cb_call), its Reply sent (_cb_reply). */
TRACE_EVENT(xprtrdma_cb_setup,
	TP_PROTO(const struct rpc_xprt *xprt, unsigned int reqs),
	TP_ARGS(xprt, reqs),
	TP_STRUCT__entry(
		__field(unsigned int, reqs)
		RPCRDMAX_PEER_FIELDS(xprt)
	),
	TP_fast_assign(
		__entry->reqs = reqs;
		RPCRDMAX_PEER_ASSIGN(xprt);
	),
	TP_printk("peer=[%s]:%s %u reqs", __get_str(addr), __get_str(port), __entry->reqs)
);

DECLARE_EVENT_CLASS(rpcrdmax_callback_class,
	TP_PROTO(const struct rpc_xprt *xprt, u32 xid),
	TP_ARGS(xprt, xid),
	TP_STRUCT__entry(
		__field(u32, xid)
		RPCRDMAX_PEER_FIELDS(xprt)
	),
	TP_fast_assign(
		__entry->xid = xid;
		RPCRDMAX_PEER_ASSIGN(xprt);
	),
	TP_printk("peer=[%s]:%s xid=0x%08x", __get_str(addr), __get_str(port), __entry->xid)
);

DEFINE_EVENT(rpcrdmax_callback_class, xprtrdma_cb_call,
	TP_PROTO(const struct rpc_xprt *xprt, u32 xid), TP_ARGS(xprt, xid));
DEFINE_EVENT(rpcrdmax_callback_class, xprtrdma_cb_reply,
	TP_PROTO(const struct rpc_xprt *xprt, u32 xid), TP_ARGS(xprt, xid));

/* A Receive the client could not post (cq.id: its Receive CQ). */
TRACE_EVENT(xprtrdma_post_recvs_err,
	TP_PROTO(const struct rpc_xprt *xprt, u32 cq_id, int status),
	TP_ARGS(xprt, cq_id, status),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, status)
		RPCRDMAX_PEER_FIELDS(xprt)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->status = status;
		RPCRDMAX_PEER_ASSIGN(xprt);
	),
	TP_printk("peer=[%s]:%s cq.id=%d rc=%d", __get_str(addr), __get_str(port),
		  __entry->cq_id, __entry->status)
);

/* Receives posted: one Receive (cq.id, cid: which Receive buffer; the
 * class serves the server's svcrdma_post_recv too), and a connection's
 * first batch (how many, how many are now posted). */
DECLARE_EVENT_CLASS(rpcrdmax_post_recv_class,
	TP_PROTO(u32 cq_id, int completion_id),
	TP_ARGS(cq_id, completion_id),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->completion_id = completion_id;
	),
	TP_printk("cq.id=%d cid=%d", __entry->cq_id, __entry->completion_id)
);
DEFINE_EVENT_FN(rpcrdmax_post_recv_class, xprtrdma_post_recv,
	TP_PROTO(u32 cq_id, int completion_id), TP_ARGS(cq_id, completion_id),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg);

TRACE_EVENT(xprtrdma_post_recvs,
	TP_PROTO(const struct rpc_xprt *xprt, u32 cq_id, unsigned int count, int posted),
	TP_ARGS(xprt, cq_id, count, posted),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(unsigned int, count)
		__field(int, posted)
		RPCRDMAX_PEER_FIELDS(xprt)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->count = count;
		__entry->posted = posted;
		RPCRDMAX_PEER_ASSIGN(xprt);
	),
	TP_printk("peer=[%s]:%s cq.id=%d %u new recvs, %d active", __get_str(addr),
		  __get_str(port), __entry->cq_id, __entry->count, __entry->posted)
);

/* ---- client: MRs ---------------------------------------------------------- */

/* A connection's MRs made (at connect, all of them), one that could not
 * be (mr.id: its index), none free for an RPC's chunk. */
TRACE_EVENT(xprtrdma_createmrs,
	TP_PROTO(const struct rpc_xprt *xprt, unsigned int count),
	TP_ARGS(xprt, count),
	TP_STRUCT__entry(
		RPCRDMAX_PEER_FIELDS(xprt)
		__field(unsigned int, count)
	),
	TP_fast_assign(
		__entry->count = count;
		RPCRDMAX_PEER_ASSIGN(xprt);
	),
	TP_printk("peer=[%s]:%s created %u MRs", __get_str(addr), __get_str(port),
		  __entry->count)
);

TRACE_EVENT(xprtrdma_frwr_alloc,
	TP_PROTO(u32 mr_id, int rc),
	TP_ARGS(mr_id, rc),
	TP_STRUCT__entry(
		__field(u32, mr_id)
		__field(int, rc)
	),
	TP_fast_assign(
		__entry->mr_id = mr_id;
		__entry->rc = rc;
	),
	TP_printk("mr.id=%u: rc=%d", __entry->mr_id, __entry->rc)
);

TRACE_EVENT(xprtrdma_nomrs_err,
	TP_PROTO(const struct rpc_xprt *xprt, const struct rpc_rqst *rqst),
	TP_ARGS(xprt, rqst),
	TP_STRUCT__entry(
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		RPCRDMAX_PEER_FIELDS(xprt)
	),
	TP_fast_assign(
		__entry->task_id = rpcrdmax_task_id(rqst);
		__entry->client_id = rpcrdmax_client_id(rqst);
		RPCRDMAX_PEER_ASSIGN(xprt);
	),
	TP_printk("task:%u@%u peer=[%s]:%s", __entry->task_id, __entry->client_id,
		  __get_str(addr), __get_str(port))
);

TRACE_DEFINE_ENUM(DMA_BIDIRECTIONAL);
TRACE_DEFINE_ENUM(DMA_TO_DEVICE);
TRACE_DEFINE_ENUM(DMA_FROM_DEVICE);
TRACE_DEFINE_ENUM(DMA_NONE);

#define rpcrdmax_show_direction(d)					\
	__print_symbolic(d, { DMA_BIDIRECTIONAL, "BIDIR" },		\
			 { DMA_TO_DEVICE, "TO_DEVICE" },		\
			 { DMA_FROM_DEVICE, "FROM_DEVICE" },		\
			 { DMA_NONE, "NONE" })

#define RPCRDMAX_MR_FIELDS						\
		__field(u32, mr_id)					\
		__field(int, nents)					\
		__field(u32, handle)					\
		__field(u32, length)					\
		__field(u64, offset)					\
		__field(u32, dir)
#define RPCRDMAX_MR_ASSIGN(mr)						\
	do {								\
		__entry->mr_id = (mr)->id;				\
		__entry->nents = (mr)->nents;				\
		__entry->handle = (mr)->handle;				\
		__entry->length = (mr)->length;				\
		__entry->offset = (mr)->offset;				\
		__entry->dir = (mr)->dir;				\
	} while (0)
#define RPCRDMAX_MR_FMT "mr.id=%u nents=%d %u@0x%016llx:0x%08x (%s)"
#define RPCRDMAX_MR_ARGS						\
	__entry->mr_id, __entry->nents, __entry->length,		\
	(unsigned long long)__entry->offset, __entry->handle,		\
	rpcrdmax_show_direction(__entry->dir)

/* An MR of an RPC (task 0@-1 where the RPC is not known). */
DECLARE_EVENT_CLASS(rpcrdmax_mr_class,
	TP_PROTO(const struct rpc_rqst *rqst, const struct rpcrdmax_mr_info *mr),
	TP_ARGS(rqst, mr),
	TP_STRUCT__entry(
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		RPCRDMAX_MR_FIELDS
	),
	TP_fast_assign(
		__entry->task_id = rqst ? rpcrdmax_task_id(rqst) : 0;
		__entry->client_id = rqst ? rpcrdmax_client_id(rqst) : -1;
		RPCRDMAX_MR_ASSIGN(mr);
	),
	TP_printk("task:%u@%u " RPCRDMAX_MR_FMT, __entry->task_id, __entry->client_id,
		  RPCRDMAX_MR_ARGS)
);

#define RPCRDMAX_MR_EVENT(name)						\
	DEFINE_EVENT_FN(rpcrdmax_mr_class, xprtrdma_mr_##name,		\
		TP_PROTO(const struct rpc_rqst *rqst, const struct rpcrdmax_mr_info *mr), \
		TP_ARGS(rqst, mr), rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg)

RPCRDMAX_MR_EVENT(map);
RPCRDMAX_MR_EVENT(fastreg);
RPCRDMAX_MR_EVENT(reminv);
RPCRDMAX_MR_EVENT(localinv);

TRACE_EVENT_FN(xprtrdma_mr_unmap,
	TP_PROTO(const struct rpcrdmax_mr_info *mr),
	TP_ARGS(mr),
	TP_STRUCT__entry(
		RPCRDMAX_MR_FIELDS
	),
	TP_fast_assign(
		RPCRDMAX_MR_ASSIGN(mr);
	),
	TP_printk(RPCRDMAX_MR_FMT, RPCRDMAX_MR_ARGS),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg
);

/* One MR of a Call's chunk, as the transport header advertises it:
 * "more" while later MRs of the chunk follow (nsegs, the chunk's page
 * pieces from this MR on, exceeds this MR's nents), "last" then. */
#define RPCRDMAX_CHUNK_FIELDS						\
		__field(unsigned int, task_id)				\
		__field(unsigned int, client_id)			\
		__field(int, nents)					\
		__field(u32, handle)					\
		__field(u32, length)					\
		__field(u64, offset)					\
		__field(int, nsegs)
#define RPCRDMAX_CHUNK_ASSIGN(rqst, mr, n)				\
	do {								\
		__entry->task_id = rpcrdmax_task_id(rqst);		\
		__entry->client_id = rpcrdmax_client_id(rqst);		\
		__entry->nents = (mr)->nents;				\
		__entry->handle = (mr)->handle;				\
		__entry->length = (mr)->length;				\
		__entry->offset = (mr)->offset;				\
		__entry->nsegs = (n);					\
	} while (0)
#define RPCRDMAX_CHUNK_FMT "%u@0x%016llx:0x%08x (%s)"
#define RPCRDMAX_CHUNK_ARGS						\
	__entry->length, (unsigned long long)__entry->offset, __entry->handle, \
	__entry->nents < __entry->nsegs ? "more" : "last"

TRACE_EVENT_FN(xprtrdma_chunk_read,
	TP_PROTO(const struct rpc_rqst *rqst, unsigned int pos,
		 const struct rpcrdmax_mr_info *mr, int nsegs),
	TP_ARGS(rqst, pos, mr, nsegs),
	TP_STRUCT__entry(
		RPCRDMAX_CHUNK_FIELDS
		__field(unsigned int, pos)
	),
	TP_fast_assign(
		RPCRDMAX_CHUNK_ASSIGN(rqst, mr, nsegs);
		__entry->pos = pos;
	),
	TP_printk("task:%u@%u pos=%u " RPCRDMAX_CHUNK_FMT, __entry->task_id,
		  __entry->client_id, __entry->pos, RPCRDMAX_CHUNK_ARGS),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg
);

DECLARE_EVENT_CLASS(rpcrdmax_wrch_class,
	TP_PROTO(const struct rpc_rqst *rqst, const struct rpcrdmax_mr_info *mr, int nsegs),
	TP_ARGS(rqst, mr, nsegs),
	TP_STRUCT__entry(
		RPCRDMAX_CHUNK_FIELDS
	),
	TP_fast_assign(
		RPCRDMAX_CHUNK_ASSIGN(rqst, mr, nsegs);
	),
	TP_printk("task:%u@%u " RPCRDMAX_CHUNK_FMT, __entry->task_id, __entry->client_id,
		  RPCRDMAX_CHUNK_ARGS)
);

DEFINE_EVENT_FN(rpcrdmax_wrch_class, xprtrdma_chunk_write,
	TP_PROTO(const struct rpc_rqst *rqst, const struct rpcrdmax_mr_info *mr, int nsegs),
	TP_ARGS(rqst, mr, nsegs),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg);
DEFINE_EVENT_FN(rpcrdmax_wrch_class, xprtrdma_chunk_reply,
	TP_PROTO(const struct rpc_rqst *rqst, const struct rpcrdmax_mr_info *mr, int nsegs),
	TP_ARGS(rqst, mr, nsegs),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg);

/* ---- client: one RPC ---------------------------------------------------- */

/* A Call's Send chain posted (cid: which Send buffer; signaled or not). */
TRACE_EVENT_FN(xprtrdma_post_send,
	TP_PROTO(const struct rpc_rqst *rqst, u32 cq_id, int completion_id, int num_sge,
		 int signaled),
	TP_ARGS(rqst, cq_id, completion_id, num_sge, signaled),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		__field(int, num_sge)
		__field(int, signaled)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->completion_id = completion_id;
		__entry->task_id = rpcrdmax_task_id(rqst);
		__entry->client_id = rpcrdmax_client_id(rqst);
		__entry->num_sge = num_sge;
		__entry->signaled = signaled;
	),
	TP_printk("task:%u@%u cq.id=%u cid=%d (%d SGE%s) %s", __entry->task_id,
		  __entry->client_id, __entry->cq_id, __entry->completion_id, __entry->num_sge,
		  __entry->num_sge == 1 ? "" : "s", __entry->signaled ? "signaled" : ""),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg
);

/* A Call that could not be marshaled (ret: the errno the RPC gets or
 * that makes sunrpc try again). */
TRACE_EVENT(xprtrdma_marshal_failed,
	TP_PROTO(const struct rpc_rqst *rqst, int ret),
	TP_ARGS(rqst, ret),
	TP_STRUCT__entry(
		RPCRDMAX_RQST_FIELDS
		__field(int, ret)
	),
	TP_fast_assign(
		RPCRDMAX_RQST_ASSIGN(rqst);
		__entry->ret = ret;
	),
	TP_printk(RPCRDMAX_RQST_FMT " ret=%d", RPCRDMAX_RQST_ARGS, __entry->ret)
);

/* A segment of a Write chunk or the Reply chunk as the server's Reply
 * returns it. */
TRACE_EVENT_FN(xprtrdma_decode_seg,
	TP_PROTO(u32 handle, u32 length, u64 offset),
	TP_ARGS(handle, length, offset),
	TP_STRUCT__entry(
		__field(u32, handle)
		__field(u32, length)
		__field(u64, offset)
	),
	TP_fast_assign(
		__entry->handle = handle;
		__entry->length = length;
		__entry->offset = offset;
	),
	TP_printk("%u@0x%016llx:0x%08x", __entry->length, (unsigned long long)__entry->offset,
		  __entry->handle),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg
);

/* A Call's Send chain could not be posted (cq.id: the Send CQ). */
TRACE_EVENT(xprtrdma_post_send_err,
	TP_PROTO(const struct rpc_rqst *rqst, u32 cq_id, int rc),
	TP_ARGS(rqst, cq_id, rc),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		__field(int, rc)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->task_id = rpcrdmax_task_id(rqst);
		__entry->client_id = rpcrdmax_client_id(rqst);
		__entry->rc = rc;
	),
	TP_printk("task:%u@%u cq.id=%u rc=%d", __entry->task_id, __entry->client_id,
		  __entry->cq_id, __entry->rc)
);

/* An RPC's LOCAL_INVs could not be posted (task 0@-1: not at hand). */
TRACE_EVENT(xprtrdma_post_linv_err,
	TP_PROTO(const struct rpc_rqst *rqst, int status),
	TP_ARGS(rqst, status),
	TP_STRUCT__entry(
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		__field(int, status)
	),
	TP_fast_assign(
		__entry->task_id = rqst ? rpcrdmax_task_id(rqst) : 0;
		__entry->client_id = rqst ? rpcrdmax_client_id(rqst) : -1;
		__entry->status = status;
	),
	TP_printk("task:%u@%u status=%d", __entry->task_id, __entry->client_id,
		  __entry->status)
);

TRACE_EVENT_FN(xprtrdma_marshal,
	TP_PROTO(const struct rpc_rqst *rqst, unsigned int hdrlen, unsigned int rtype,
		 unsigned int wtype),
	TP_ARGS(rqst, hdrlen, rtype, wtype),
	TP_STRUCT__entry(
		RPCRDMAX_RQST_FIELDS
		__field(unsigned int, hdrlen)
		__field(unsigned int, headlen)
		__field(unsigned int, pagelen)
		__field(unsigned int, taillen)
		__field(unsigned int, rtype)
		__field(unsigned int, wtype)
	),
	TP_fast_assign(
		RPCRDMAX_RQST_ASSIGN(rqst);
		__entry->hdrlen = hdrlen;
		__entry->headlen = rqst->rq_snd_buf.head[0].iov_len;
		__entry->pagelen = rqst->rq_snd_buf.page_len;
		__entry->taillen = rqst->rq_snd_buf.tail[0].iov_len;
		__entry->rtype = rtype;
		__entry->wtype = wtype;
	),
	TP_printk(RPCRDMAX_RQST_FMT " hdr=%u xdr=%u/%u/%u %s/%s",
		  RPCRDMAX_RQST_ARGS, __entry->hdrlen,
		  __entry->headlen, __entry->pagelen, __entry->taillen,
		  rpcrdmax_show_chunktype(__entry->rtype),
		  rpcrdmax_show_chunktype(__entry->wtype)),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg
);

TRACE_EVENT_FN(xprtrdma_reply,
	TP_PROTO(const struct rpc_rqst *rqst, unsigned int credits),
	TP_ARGS(rqst, credits),
	TP_STRUCT__entry(
		RPCRDMAX_RQST_FIELDS
		__field(unsigned int, credits)
	),
	TP_fast_assign(
		RPCRDMAX_RQST_ASSIGN(rqst);
		__entry->credits = credits;
	),
	TP_printk(RPCRDMAX_RQST_FMT " credits=%u",
		  RPCRDMAX_RQST_ARGS, __entry->credits),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg
);

TRACE_EVENT(xprtrdma_err_vers,
	TP_PROTO(const struct rpc_rqst *rqst, u32 min, u32 max),
	TP_ARGS(rqst, min, max),
	TP_STRUCT__entry(
		RPCRDMAX_RQST_FIELDS
		__field(u32, min)
		__field(u32, max)
	),
	TP_fast_assign(
		RPCRDMAX_RQST_ASSIGN(rqst);
		__entry->min = min;
		__entry->max = max;
	),
	TP_printk(RPCRDMAX_RQST_FMT " versions=[%u, %u]",
		  RPCRDMAX_RQST_ARGS, __entry->min,
		  __entry->max)
);

TRACE_EVENT(xprtrdma_err_chunk,
	TP_PROTO(const struct rpc_rqst *rqst),
	TP_ARGS(rqst),
	TP_STRUCT__entry(
		RPCRDMAX_RQST_FIELDS
	),
	TP_fast_assign(
		RPCRDMAX_RQST_ASSIGN(rqst);
	),
	TP_printk(RPCRDMAX_RQST_FMT, RPCRDMAX_RQST_ARGS)
);

/* RDMA_ERROR with an rdma_err RFC 8166 does not define (procedure: the
 * rdma_err as received); the RPC fails with EIO. */
TRACE_EVENT(xprtrdma_err_unrecognized,
	TP_PROTO(const struct rpc_rqst *rqst, u32 procedure),
	TP_ARGS(rqst, procedure),
	TP_STRUCT__entry(
		RPCRDMAX_RQST_FIELDS
		__field(u32, procedure)
	),
	TP_fast_assign(
		RPCRDMAX_RQST_ASSIGN(rqst);
		__entry->procedure = procedure;
	),
	TP_printk(RPCRDMAX_RQST_FMT " procedure=%u", RPCRDMAX_RQST_ARGS, __entry->procedure)
);

/* A Reply the client could not use (rpcrdmax_trace_reply_err). */
DECLARE_EVENT_CLASS(rpcrdmax_reply_err_class,
	TP_PROTO(const struct rpc_xprt *xprt, u32 xid, u32 version, u32 proc),
	TP_ARGS(xprt, xid, version, proc),
	TP_STRUCT__entry(
		__field(u32, xid)
		__field(u32, version)
		__field(u32, proc)
		RPCRDMAX_PEER_FIELDS(xprt)
	),
	TP_fast_assign(
		__entry->xid = xid;
		__entry->version = version;
		__entry->proc = proc;
		RPCRDMAX_PEER_ASSIGN(xprt);
	),
	TP_printk("peer=[%s]:%s xid=0x%08x version=%u proc=%u",
		  __get_str(addr), __get_str(port),
		  __entry->xid, __entry->version, __entry->proc)
);

#define RPCRDMAX_REPLY_ERR_EVENT(name)					\
	DEFINE_EVENT(rpcrdmax_reply_err_class, xprtrdma_reply_##name##_err,	\
		TP_PROTO(const struct rpc_xprt *xprt, u32 xid, u32 version, u32 proc), \
		TP_ARGS(xprt, xid, version, proc))
RPCRDMAX_REPLY_ERR_EVENT(vers);
RPCRDMAX_REPLY_ERR_EVENT(rqst);
RPCRDMAX_REPLY_ERR_EVENT(short);
RPCRDMAX_REPLY_ERR_EVENT(hdr);

/* A client buffer the device could not map (rpcrdmax_trace_dma_maperr). */
TRACE_EVENT(xprtrdma_dma_maperr,
	TP_PROTO(u64 addr),
	TP_ARGS(addr),
	TP_STRUCT__entry(
		__field(u64, addr)
	),
	TP_fast_assign(
		__entry->addr = addr;
	),
	TP_printk("dma addr=0x%llx", __entry->addr)
);

/* An MR whose pages could not be mapped (rpcrdmax_trace_frwr_maperr). */
TRACE_EVENT(xprtrdma_frwr_maperr,
	TP_PROTO(u32 mr_id, u64 addr, u32 dir, int num_mapped, int nents),
	TP_ARGS(mr_id, addr, dir, num_mapped, nents),
	TP_STRUCT__entry(
		__field(u32, mr_id)
		__field(u64, addr)
		__field(u32, dir)
		__field(int, num_mapped)
		__field(int, nents)
	),
	TP_fast_assign(
		__entry->mr_id = mr_id;
		__entry->addr = addr;
		__entry->dir = dir;
		__entry->num_mapped = num_mapped;
		__entry->nents = nents;
	),
	TP_printk("mr.id=%u DMA addr=0x%llx (%s) nents=%d of %d",
		  __entry->mr_id, __entry->addr, rpcrdmax_show_direction(__entry->dir),
		  __entry->num_mapped, __entry->nents)
);

/* ---- server --------------------------------------------------------------- */

TRACE_EVENT_FN(svcrdma_decode_rqst,
	TP_PROTO(u32 cq_id, int completion_id, u32 xid, u32 vers, u32 proc, u32 credits,
		 unsigned int hdrlen),
	TP_ARGS(cq_id, completion_id, xid, vers, proc, credits, hdrlen),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(u32, xid)
		__field(u32, vers)
		__field(u32, proc)
		__field(u32, credits)
		__field(unsigned int, hdrlen)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->completion_id = completion_id;
		__entry->xid = xid;
		__entry->vers = vers;
		__entry->proc = proc;
		__entry->credits = credits;
		__entry->hdrlen = hdrlen;
	),
	TP_printk("cq.id=%u cid=%d xid=0x%08x vers=%u credits=%u proc=%s hdrlen=%u",
		  __entry->cq_id, __entry->completion_id, __entry->xid, __entry->vers,
		  __entry->credits,
		  __print_symbolic(__entry->proc, { 0, "RDMA_MSG" }, { 1, "RDMA_NOMSG" },
				   { 2, "RDMA_MSGP" }, { 3, "RDMA_DONE" }, { 4, "RDMA_ERROR" }),
		  __entry->hdrlen),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg
);

/* A segment of a Call's Read list or Write list (segno: its index in its
 * chunk), as stock prints them (cq_id, not cq.id, in these two). */
TRACE_EVENT_FN(svcrdma_decode_rseg,
	TP_PROTO(u32 cq_id, int cid, u32 segno, u32 position, u32 handle, u32 length, u64 offset),
	TP_ARGS(cq_id, cid, segno, position, handle, length, offset),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(u32, segno)
		__field(u32, position)
		__field(u32, handle)
		__field(u32, length)
		__field(u64, offset)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->completion_id = cid;
		__entry->segno = segno;
		__entry->position = position;
		__entry->handle = handle;
		__entry->length = length;
		__entry->offset = offset;
	),
	TP_printk("cq_id=%u cid=%d segno=%u position=%u %u@0x%016llx:0x%08x",
		  __entry->cq_id, __entry->completion_id, __entry->segno, __entry->position,
		  __entry->length, (unsigned long long)__entry->offset, __entry->handle),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg
);

/* A segment of a Write chunk or Reply chunk: as a Call's Write list
 * brought it (decode: the Receive's CQ and buffer), or as the Reply's
 * header returns it with the length written (encode: the Send's). */
DECLARE_EVENT_CLASS(rpcrdmax_svc_wseg_class,
	TP_PROTO(u32 cq_id, int cid, u32 segno, u32 handle, u32 length, u64 offset),
	TP_ARGS(cq_id, cid, segno, handle, length, offset),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(u32, segno)
		__field(u32, handle)
		__field(u32, length)
		__field(u64, offset)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->completion_id = cid;
		__entry->segno = segno;
		__entry->handle = handle;
		__entry->length = length;
		__entry->offset = offset;
	),
	TP_printk("cq_id=%u cid=%d segno=%u %u@0x%016llx:0x%08x",
		  __entry->cq_id, __entry->completion_id, __entry->segno, __entry->length,
		  (unsigned long long)__entry->offset, __entry->handle)
);

DEFINE_EVENT_FN(rpcrdmax_svc_wseg_class, svcrdma_decode_wseg,
	TP_PROTO(u32 cq_id, int cid, u32 segno, u32 handle, u32 length, u64 offset),
	TP_ARGS(cq_id, cid, segno, handle, length, offset),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg);
DEFINE_EVENT_FN(rpcrdmax_svc_wseg_class, svcrdma_encode_wseg,
	TP_PROTO(u32 cq_id, int cid, u32 segno, u32 handle, u32 length, u64 offset),
	TP_ARGS(cq_id, cid, segno, handle, length, offset),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg);

TRACE_EVENT(svcrdma_decode_short_err,
	TP_PROTO(u32 cq_id, int cid, unsigned int hdrlen),
	TP_ARGS(cq_id, cid, hdrlen),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(unsigned int, hdrlen)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->completion_id = cid;
		__entry->hdrlen = hdrlen;
	),
	TP_printk("cq.id=%u cid=%d hdrlen=%u",
		  __entry->cq_id, __entry->completion_id, __entry->hdrlen)
);

/* A header's four fixed words, as received (@p: at least 16 octets). */
DECLARE_EVENT_CLASS(rpcrdmax_badreq_class,
	TP_PROTO(u32 cq_id, int cid, const __be32 *p),
	TP_ARGS(cq_id, cid, p),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(u32, xid)
		__field(u32, vers)
		__field(u32, proc)
		__field(u32, credits)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->completion_id = cid;
		__entry->xid = be32_to_cpup(p);
		__entry->vers = be32_to_cpup(p + 1);
		__entry->credits = be32_to_cpup(p + 2);
		__entry->proc = be32_to_cpup(p + 3);
	),
	TP_printk("cq.id=%u cid=%d xid=0x%08x vers=%u credits=%u proc=%u",
		  __entry->cq_id, __entry->completion_id, __entry->xid, __entry->vers,
		  __entry->credits, __entry->proc)
);

#define RPCRDMAX_BADREQ_EVENT(name)					\
	DEFINE_EVENT(rpcrdmax_badreq_class, svcrdma_decode_##name##_err,	\
		TP_PROTO(u32 cq_id, int cid, const __be32 *p),		\
		TP_ARGS(cq_id, cid, p))

RPCRDMAX_BADREQ_EVENT(badvers);
RPCRDMAX_BADREQ_EVENT(drop);
RPCRDMAX_BADREQ_EVENT(badproc);
RPCRDMAX_BADREQ_EVENT(parse);

DECLARE_EVENT_CLASS(rpcrdmax_svc_error_class,
	TP_PROTO(u32 xid),
	TP_ARGS(xid),
	TP_STRUCT__entry(
		__field(u32, xid)
	),
	TP_fast_assign(
		__entry->xid = xid;
	),
	TP_printk("xid=0x%08x", __entry->xid)
);

/* ---- server: connection set-up and posting -------------------------------- */

/* A connection's set-up failed: its PD, its QP, the accept itself.
 * addr: the client, as the svc_xprt's xpt_remotebuf would show it. */
DECLARE_EVENT_CLASS(rpcrdmax_svc_accept_class,
	TP_PROTO(const char *addr, long status),
	TP_ARGS(addr, status),
	TP_STRUCT__entry(
		__field(long, status)
		__string(addr, addr)
	),
	TP_fast_assign(
		__entry->status = status;
		RPCRDMAX_ASSIGN_STR(addr, addr);
	),
	TP_printk("addr=%s status=%ld", __get_str(addr), __entry->status)
);

#define RPCRDMAX_ACCEPT_EVENT(name)					\
	DEFINE_EVENT(rpcrdmax_svc_accept_class, svcrdma_##name##_err,	\
		TP_PROTO(const char *addr, long status), TP_ARGS(addr, status))

RPCRDMAX_ACCEPT_EVENT(pd);
RPCRDMAX_ACCEPT_EVENT(qp);
RPCRDMAX_ACCEPT_EVENT(accept);

TRACE_EVENT(svcrdma_rq_post_err,
	TP_PROTO(const char *addr, int status),
	TP_ARGS(addr, status),
	TP_STRUCT__entry(
		__field(int, status)
		__string(addr, addr)
	),
	TP_fast_assign(
		__entry->status = status;
		RPCRDMAX_ASSIGN_STR(addr, addr);
	),
	TP_printk("addr=%s status=%d", __get_str(addr), __entry->status)
);

/* Work posted: a Receive (cid: which Receive buffer), a Reply's Send
 * (cid: which Send context; inv_rkey 0 for a plain Send), and the RDMA
 * Reads of a Call's Read chunks or the Writes of a Reply's Write and
 * Reply chunks (sqecount: the Send Queue slots they take; the Writes go
 * in one chain with the Send, so they carry its cid). */
DEFINE_EVENT_FN(rpcrdmax_post_recv_class, svcrdma_post_recv,
	TP_PROTO(u32 cq_id, int completion_id), TP_ARGS(cq_id, completion_id),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg);

TRACE_EVENT_FN(svcrdma_post_send,
	TP_PROTO(u32 cq_id, int completion_id, unsigned int num_sge, u32 inv_rkey),
	TP_ARGS(cq_id, completion_id, num_sge, inv_rkey),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(unsigned int, num_sge)
		__field(u32, inv_rkey)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->completion_id = completion_id;
		__entry->num_sge = num_sge;
		__entry->inv_rkey = inv_rkey;
	),
	TP_printk("cq_id=%u cid=%d num_sge=%u inv_rkey=0x%08x", __entry->cq_id,
		  __entry->completion_id, __entry->num_sge, __entry->inv_rkey),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg
);

DECLARE_EVENT_CLASS(rpcrdmax_svc_post_chunk_class,
	TP_PROTO(u32 cq_id, int completion_id, int sqecount),
	TP_ARGS(cq_id, completion_id, sqecount),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(int, sqecount)
	),
	TP_fast_assign(
		__entry->cq_id = cq_id;
		__entry->completion_id = completion_id;
		__entry->sqecount = sqecount;
	),
	TP_printk("cq.id=%u cid=%d sqecount=%d", __entry->cq_id, __entry->completion_id,
		  __entry->sqecount)
);
DEFINE_EVENT_FN(rpcrdmax_svc_post_chunk_class, svcrdma_post_read_chunk,
	TP_PROTO(u32 cq_id, int completion_id, int sqecount),
	TP_ARGS(cq_id, completion_id, sqecount),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg);
DEFINE_EVENT_FN(rpcrdmax_svc_post_chunk_class, svcrdma_post_write_chunk,
	TP_PROTO(u32 cq_id, int completion_id, int sqecount),
	TP_ARGS(cq_id, completion_id, sqecount),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg);
DEFINE_EVENT_FN(rpcrdmax_svc_post_chunk_class, svcrdma_post_reply_chunk,
	TP_PROTO(u32 cq_id, int completion_id, int sqecount),
	TP_ARGS(cq_id, completion_id, sqecount),
	rpcrdmax_tp_hot_reg, rpcrdmax_tp_hot_unreg);

/* The Send Queue: too few slots free, the poster sleeps (svcrdma_sq_full);
 * it woke and tries again (svcrdma_sq_retry). */
DECLARE_EVENT_CLASS(rpcrdmax_svc_sq_class,
	TP_PROTO(const char *addr, int avail, int depth),
	TP_ARGS(addr, avail, depth),
	TP_STRUCT__entry(
		__field(int, avail)
		__field(int, depth)
		__string(addr, addr)
	),
	TP_fast_assign(
		__entry->avail = avail;
		__entry->depth = depth;
		RPCRDMAX_ASSIGN_STR(addr, addr);
	),
	TP_printk("addr=%s sc_sq_avail=%d/%d", __get_str(addr), __entry->avail, __entry->depth)
);
DEFINE_EVENT(rpcrdmax_svc_sq_class, svcrdma_sq_full,
	TP_PROTO(const char *addr, int avail, int depth), TP_ARGS(addr, avail, depth));
DEFINE_EVENT(rpcrdmax_svc_sq_class, svcrdma_sq_retry,
	TP_PROTO(const char *addr, int avail, int depth), TP_ARGS(addr, avail, depth));

TRACE_EVENT(svcrdma_sq_post_err,
	TP_PROTO(const char *addr, int avail, int depth, int status),
	TP_ARGS(addr, avail, depth, status),
	TP_STRUCT__entry(
		__field(int, avail)
		__field(int, depth)
		__field(int, status)
		__string(addr, addr)
	),
	TP_fast_assign(
		__entry->avail = avail;
		__entry->depth = depth;
		__entry->status = status;
		RPCRDMAX_ASSIGN_STR(addr, addr);
	),
	TP_printk("addr=%s sc_sq_avail=%d/%d status=%d", __get_str(addr), __entry->avail,
		  __entry->depth, __entry->status)
);

/* A server buffer or page piece the device could not map, and an rdma_rw
 * context that could not be set up (rpcrdmax_trace_svc_dma_map_err,
 * _rw_err): the client's address and the device, as stock. */
TRACE_EVENT(svcrdma_dma_map_err,
	TP_PROTO(const char *addr, const char *device, u64 dma_addr, u32 length),
	TP_ARGS(addr, device, dma_addr, length),
	TP_STRUCT__entry(
		__field(u64, dma_addr)
		__field(u32, length)
		__string(device, device)
		__string(addr, addr)
	),
	TP_fast_assign(
		__entry->dma_addr = dma_addr;
		__entry->length = length;
		RPCRDMAX_ASSIGN_STR(device, device);
		RPCRDMAX_ASSIGN_STR(addr, addr);
	),
	TP_printk("addr=%s device=%s dma_addr=%llu length=%u", __get_str(addr),
		  __get_str(device), __entry->dma_addr, __entry->length)
);

TRACE_EVENT(svcrdma_dma_map_rw_err,
	TP_PROTO(const char *addr, const char *device, unsigned int nents, int status),
	TP_ARGS(addr, device, nents, status),
	TP_STRUCT__entry(
		__field(int, status)
		__field(unsigned int, nents)
		__string(device, device)
		__string(addr, addr)
	),
	TP_fast_assign(
		__entry->status = status;
		__entry->nents = nents;
		RPCRDMAX_ASSIGN_STR(device, device);
		RPCRDMAX_ASSIGN_STR(addr, addr);
	),
	TP_printk("addr=%s device=%s nents=%u status=%d", __get_str(addr),
		  __get_str(device), __entry->nents, __entry->status)
);

/* A Reply that could not be sent (the connection is closed), and a
 * DDP-eligible result longer than the Write chunk meant for it
 * (remaining: the octets that do not fit once all num_segs are used). */
TRACE_EVENT(svcrdma_send_err,
	TP_PROTO(const char *addr, u32 xid, int status),
	TP_ARGS(addr, xid, status),
	TP_STRUCT__entry(
		__field(int, status)
		__field(u32, xid)
		__string(addr, addr)
	),
	TP_fast_assign(
		__entry->status = status;
		__entry->xid = xid;
		RPCRDMAX_ASSIGN_STR(addr, addr);
	),
	TP_printk("addr=%s xid=0x%08x status=%d", __get_str(addr), __entry->xid,
		  __entry->status)
);

TRACE_EVENT(svcrdma_small_wrch_err,
	TP_PROTO(const char *addr, const char *device, unsigned int remaining,
		 unsigned int seg_no, unsigned int num_segs),
	TP_ARGS(addr, device, remaining, seg_no, num_segs),
	TP_STRUCT__entry(
		__field(unsigned int, remaining)
		__field(unsigned int, seg_no)
		__field(unsigned int, num_segs)
		__string(device, device)
		__string(addr, addr)
	),
	TP_fast_assign(
		__entry->remaining = remaining;
		__entry->seg_no = seg_no;
		__entry->num_segs = num_segs;
		RPCRDMAX_ASSIGN_STR(device, device);
		RPCRDMAX_ASSIGN_STR(addr, addr);
	),
	TP_printk("addr=%s device=%s remaining=%u seg_no=%u num_segs=%u", __get_str(addr),
		  __get_str(device), __entry->remaining, __entry->seg_no, __entry->num_segs)
);

DEFINE_EVENT(rpcrdmax_svc_error_class, svcrdma_err_vers, TP_PROTO(u32 xid), TP_ARGS(xid));
DEFINE_EVENT(rpcrdmax_svc_error_class, svcrdma_err_chunk, TP_PROTO(u32 xid), TP_ARGS(xid));

#endif /* RPCRDMAX_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
