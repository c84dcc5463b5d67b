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
#include "rpcrdmax_shim.h"

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

/* ---- client: connection ------------------------------------------------ */

DECLARE_EVENT_CLASS(rpcrdmax_conn_class,
	TP_PROTO(const struct rpc_xprt *xprt, int rc, int status),
	TP_ARGS(xprt, rc, status),
	TP_STRUCT__entry(
		__field(int, rc)
		__field(int, connect_status)
		__string(addr, rpcrdmax_xprt_str(xprt, RPC_DISPLAY_ADDR))
		__string(port, rpcrdmax_xprt_str(xprt, RPC_DISPLAY_PORT))
	),
	TP_fast_assign(
		__entry->rc = rc;
		__entry->connect_status = status;
		__assign_str(addr, rpcrdmax_xprt_str(xprt, RPC_DISPLAY_ADDR));
		__assign_str(port, rpcrdmax_xprt_str(xprt, RPC_DISPLAY_PORT));
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

/* ---- client: one RPC ---------------------------------------------------- */

TRACE_EVENT(xprtrdma_marshal,
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
		  rpcrdmax_show_chunktype(__entry->wtype))
);

TRACE_EVENT(xprtrdma_reply,
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
		  RPCRDMAX_RQST_ARGS, __entry->credits)
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

/* ---- server --------------------------------------------------------------- */

TRACE_EVENT(svcrdma_decode_rqst,
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
		  __entry->hdrlen)
);

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

DEFINE_EVENT(rpcrdmax_svc_error_class, svcrdma_err_vers, TP_PROTO(u32 xid), TP_ARGS(xid));
DEFINE_EVENT(rpcrdmax_svc_error_class, svcrdma_err_chunk, TP_PROTO(u32 xid), TP_ARGS(xid));

#endif /* RPCRDMAX_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
