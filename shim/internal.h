/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim/internal.h - C-only definitions shared by the shims and the
 * constants generator.  C++ sees these objects as opaque storage.
 */
#ifndef RPCRDMAX_SHIM_INTERNAL_H
#define RPCRDMAX_SHIM_INTERNAL_H

#include <linux/percpu.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <linux/sunrpc/xprt.h>
#include "rpcrdmax_shim.h"
#include "compat.h"

/* A work item with a C++-facing callback that receives the item itself. */
struct rpcrdmax_work {
	struct work_struct work;
	rpcrdmax_work_fn fn;
};

/* /proc/sys/sunrpc/rdma_slot_table_entries (shim/sunrpc/sysctl.c) */
extern unsigned int rpcrdmax_slot_table_entries;

/* rdma_stat_* counter @which (rpcrdmax_svc_stats), summed over the CPUs:
 * the sysctl's value (shim/sunrpc/sysctl.c), KUnit's (kunit/shims.c). */
static inline unsigned long long rpcrdmax_svc_stat_sum(unsigned int which)
{
	unsigned long long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(rpcrdmax_svc_stats, cpu)[which]);
	return sum;
}

/* A completion handler: ib_core calls cqe.done, which calls fn. */
struct rpcrdmax_cqe {
	struct ib_cqe cqe;
	rpcrdmax_wc_fn fn;
	enum rpcrdmax_wc_event event;	/* its tracepoint */
	int id;				/* the tracepoint's cid, or -1 */
};

/* What an rdma_cm_id's context points at. */
struct rpcrdmax_cm_handler {
	rpcrdmax_cm_fn fn;
};

/* Any work request C++ posts (RPCRDMAX_SIZEOF_IB_WR): it writes them in
 * place (rdma::Wr). */
union rpcrdmax_any_wr {
	struct ib_send_wr send;
	struct ib_rdma_wr rdma;
	struct ib_reg_wr reg;
};

/* shim/kernel/trace.c: the tracepoints C fires itself (the backchannel's
 * slots made, a completion); the module's load checks the hot ones. */
void rpcrdmax_trace_cb_setup(struct rpc_xprt *xprt, unsigned int reqs);
int rpcrdmax_trace_check(void);
void rpcrdmax_trace_wc(enum rpcrdmax_wc_event event, struct ib_cq *cq, const struct ib_wc *wc,
		       int cid);
/* The enabled count of each completion event's tracepoint (the
 * server's: of its success event): a successful completion whose event
 * is off costs a test, not a call. */
extern const int *const rpcrdmax_wc_key[RPCRDMAX_WC_EV_COUNT];

struct rpc_rqst;
struct rpc_xprt;
struct svc_xprt;
/* shim/sunrpc/xprt.c: an rpc_xprt's address strings, made and freed. */
void rpcrdmax_xprt_format_addresses(struct rpc_xprt *xprt);
void rpcrdmax_xprt_free_addresses(struct rpc_xprt *xprt);
/* shim/sunrpc/svc.c: the C++ connection behind one of our connection
 * svc_xprts, or NULL (a listener, or not ours). */
struct rpcrdmax_svcc *rpcrdmax_svc_conn_of(struct svc_xprt *xprt);
/* shim/sunrpc/xprt.c: the C++ endpoint of one of our client transports. */
struct rpcrdmax_clnt *rpcrdmax_xprt_ep(struct rpc_xprt *xprt);
/* shim/sunrpc/xprt_cong.c: sunrpc's congestion window as one connection's credits. */
struct rpc_task;
void rpcrdmax_cong_reset(struct rpc_xprt *xprt, int *tag);
bool rpcrdmax_cong_get(struct rpc_xprt *xprt, struct rpc_rqst *rqst, int tag);
void rpcrdmax_cong_release(struct rpc_task *task, int tag);
/* A backchannel slot of our client transport (shim/sunrpc/xprt_bc.c). */
struct rpcrdmax_bc_slot {
	struct rpc_rqst rqst;
	void *call;	/* a page: the backward Call */
	void *reply;	/* a page: its Reply, encoded by the service */
};
/* shim/sunrpc/debugfs.c: a client transport's counters file. */
bool rpcrdmax_xprt_debugfs_add(struct rpc_xprt *xprt);
/* shim/sunrpc/xprt_bc.c: the client transport's bc_* ops. */
int rpcrdmax_xprt_bc_setup(struct rpc_xprt *xprt, unsigned int min_reqs);
void rpcrdmax_xprt_bc_destroy(struct rpc_xprt *xprt, unsigned int max_reqs);
void rpcrdmax_xprt_bc_free_rqst(struct rpc_rqst *rqst);
size_t rpcrdmax_xprt_bc_maxpayload(struct rpc_xprt *xprt);
unsigned int rpcrdmax_xprt_bc_num_slots(struct rpc_xprt *xprt);
/* shim/sunrpc/svc_bc.c: the backchannel's rpc_xprt class. */
int rpcrdmax_svc_bc_register(void);
void rpcrdmax_svc_bc_unregister(void);

#endif
