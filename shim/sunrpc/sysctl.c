// SPDX-License-Identifier: GPL-2.0
/*
 * shim/sunrpc/sysctl.c - the client's tunables, under the stock module's names.
 *
 * /proc/sys/sunrpc/rdma_slot_table_entries, rdma_max_inline_read,
 * rdma_max_inline_write, rdma_inline_write_padding, rdma_memreg_strategy
 * and rdma_pad_optimize keep the stock names and ranges, so existing
 * scripts and tuning guides apply.  The inline sizes are read at connect
 * time; the padding, strategy and pad-optimize knobs are accepted for
 * compatibility (FRWR is the only strategy, as in the stock module).
 * rdma_max_version is ours (RPC-over-RDMA Version Two, Documentation/v2.rst):
 * the highest version a new client connection offers, 1 or 2 (default 2).
 * How many client connections settled on each version is in the
 * read-only module parameters client_vers1_conns and client_vers2_conns.
 *
 * The server's tunables and counters live under /proc/sys/sunrpc/svc_rdma
 * with the stock names: max_requests, max_req_size and
 * max_outbound_read_requests (read when a connection is accepted), and
 * the rdma_stat_* counters (reading gives the count, writing anything
 * resets it; the stock module's never-counted ones read 0 and accept
 * only 0).  rdma_stat_err_vers, rdma_stat_err_chunk and rdma_stat_dropped
 * are ours: malformed Calls answered with RDMA_ERROR, or dropped; so are
 * rdma_stat_page_sges (page pieces of inline Replies sent from their
 * pages), rdma_stat_pull_up (page-list octets of inline Replies copied
 * into the Send buffer), rdma_stat_refused (connection requests
 * refused) and rdma_stat_ctxt_alloc (receive, send and rdma_rw contexts
 * made: at connection set-up, or when a connection needs more at once;
 * it does not move while I/O runs in steady state), and the backchannel's
 * (RFC 8167) rdma_stat_bc_calls (backward Calls sent), rdma_stat_bc_replies
 * (their Replies matched) and rdma_stat_bc_dropped (backward Replies
 * dropped: no backchannel, no such Call, too long, or with chunks).
 * rdma_stat_rq_prod, rdma_stat_sq_prod and rdma_stat_sq_poll, which the
 * stock 6.1 module names but never counts, count our Receive reposts
 * (each is one chained post of a batch), the Replies' Sends posted and
 * the Send completions handled (only some Sends are signaled).
 * RPC-over-RDMA Version Two (Documentation/v2.rst) adds max_version (the
 * highest version a new connection may use: 1 or 2, default 2),
 * rdma_stat_vers1_conns and rdma_stat_vers2_conns (connections counted by
 * the version of their first Call), rdma_stat_connprop_sent and
 * rdma_stat_connprop_recv (RDMA2_CONNPROPs sent and received: neither is a
 * Call or a Reply) and rdma_stat_err_v2 (RDMA2_ERROR
 * Replies other than ERR_VERS).  Every message received ends one way
 * (svcrdma/svcrdma.h, Settle): rdma_stat_lost counts Calls lost with
 * their connection, rdma_stat_svc_drop Calls nfsd released without a
 * Reply, and rdma_stat_unsettled messages a connection ended without
 * any outcome for, which is a defect of ours (logged).
 * rdma_stat_read_reset counts connections reset because a Call's RDMA
 * Reads went unanswered for a minute (svcrdma/rw.cpp, post_reads).
 * They exist while the server transport is registered.
 */
#include <linux/sunrpc/svc_rdma.h>
#include <linux/sunrpc/xprtrdma.h>
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sysctl.h>
#include "../internal.h"

unsigned int rpcrdmax_slot_table_entries = RPCRDMA_DEF_SLOT_TABLE;
static unsigned int rpcrdmax_max_inline_read = RPCRDMA_DEF_INLINE;
static unsigned int rpcrdmax_max_inline_write = RPCRDMA_DEF_INLINE;
static unsigned int rpcrdmax_memreg_strategy = RPCRDMA_FRWR;
static unsigned int rpcrdmax_padding_dummy;
static int rpcrdmax_pad_optimize;

static unsigned int rpcrdmax_min_slots = RPCRDMA_MIN_SLOT_TABLE;
static unsigned int rpcrdmax_max_slots = RPCRDMA_MAX_SLOT_TABLE;
static unsigned int rpcrdmax_min_inline = RPCRDMA_MIN_INLINE;
static unsigned int rpcrdmax_max_inline = RPCRDMA_MAX_INLINE;
static unsigned int rpcrdmax_max_padding = PAGE_SIZE;
static unsigned int rpcrdmax_min_memreg = RPCRDMA_BOUNCEBUFFERS;
static unsigned int rpcrdmax_max_memreg = RPCRDMA_LAST - 1;
static unsigned int rpcrdmax_max_version = 2;
static unsigned int rpcrdmax_min_version_cap = 1;
static unsigned int rpcrdmax_max_version_cap = 2;

static struct ctl_table rpcrdmax_tunables[] = {
	{
		.procname = "rdma_slot_table_entries",
		.data = &rpcrdmax_slot_table_entries,
		.maxlen = sizeof(unsigned int),
		.mode = 0644,
		.proc_handler = proc_douintvec_minmax,
		.extra1 = &rpcrdmax_min_slots,
		.extra2 = &rpcrdmax_max_slots,
	},
	{
		.procname = "rdma_max_inline_read",
		.data = &rpcrdmax_max_inline_read,
		.maxlen = sizeof(unsigned int),
		.mode = 0644,
		.proc_handler = proc_douintvec_minmax,
		.extra1 = &rpcrdmax_min_inline,
		.extra2 = &rpcrdmax_max_inline,
	},
	{
		.procname = "rdma_max_inline_write",
		.data = &rpcrdmax_max_inline_write,
		.maxlen = sizeof(unsigned int),
		.mode = 0644,
		.proc_handler = proc_douintvec_minmax,
		.extra1 = &rpcrdmax_min_inline,
		.extra2 = &rpcrdmax_max_inline,
	},
	{
		.procname = "rdma_inline_write_padding",
		.data = &rpcrdmax_padding_dummy,
		.maxlen = sizeof(unsigned int),
		.mode = 0644,
		.proc_handler = proc_douintvec_minmax,
		.extra1 = SYSCTL_ZERO,
		.extra2 = &rpcrdmax_max_padding,
	},
	{
		.procname = "rdma_memreg_strategy",
		.data = &rpcrdmax_memreg_strategy,
		.maxlen = sizeof(unsigned int),
		.mode = 0644,
		.proc_handler = proc_douintvec_minmax,
		.extra1 = &rpcrdmax_min_memreg,
		.extra2 = &rpcrdmax_max_memreg,
	},
	{
		.procname = "rdma_max_version",
		.data = &rpcrdmax_max_version,
		.maxlen = sizeof(unsigned int),
		.mode = 0644,
		.proc_handler = proc_douintvec_minmax,
		.extra1 = &rpcrdmax_min_version_cap,
		.extra2 = &rpcrdmax_max_version_cap,
	},
	{
		.procname = "rdma_pad_optimize",
		.data = &rpcrdmax_pad_optimize,
		.maxlen = sizeof(unsigned int),
		.mode = 0644,
		.proc_handler = proc_dointvec,
	},
	RPCRDMAX_CTL_TABLE_END
};

static struct ctl_table_header *rpcrdmax_sysctl_header;

/**
 * rpcrdmax_sysctl_register - publish the tunables under /proc/sys/sunrpc
 *
 * Returns 0 or -ENOMEM (also when the stock module's tunables exist).
 */
int rpcrdmax_sysctl_register(void)
{
	rpcrdmax_sysctl_header = register_sysctl("sunrpc", rpcrdmax_tunables);
	return rpcrdmax_sysctl_header ? 0 : -ENOMEM;
}

/** rpcrdmax_sysctl_unregister - withdraw the tunables */
void rpcrdmax_sysctl_unregister(void)
{
	if (rpcrdmax_sysctl_header)
		unregister_sysctl_table(rpcrdmax_sysctl_header);
	rpcrdmax_sysctl_header = NULL;
}

/** rpcrdmax_tunable_inline_read - largest Reply we take inline (our Receive size) */
unsigned int rpcrdmax_tunable_inline_read(void)
{
	return READ_ONCE(rpcrdmax_max_inline_read);
}

/** rpcrdmax_tunable_inline_write - largest Call we send inline (our Send size) */
unsigned int rpcrdmax_tunable_inline_write(void)
{
	return READ_ONCE(rpcrdmax_max_inline_write);
}

/** rpcrdmax_tunable_max_version - highest RPC-over-RDMA version a new client connection offers */
unsigned int rpcrdmax_tunable_max_version(void)
{
	return READ_ONCE(rpcrdmax_max_version);
}

static atomic_t rpcrdmax_clnt_vers_conns[2];

static int rpcrdmax_param_get_count(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read((atomic_t *)kp->arg));
}

static const struct kernel_param_ops rpcrdmax_count_ops = {
	.get = rpcrdmax_param_get_count,
};
module_param_cb(client_vers1_conns, &rpcrdmax_count_ops, &rpcrdmax_clnt_vers_conns[0], 0444);
MODULE_PARM_DESC(client_vers1_conns, "client connections that use RPC-over-RDMA version 1");
module_param_cb(client_vers2_conns, &rpcrdmax_count_ops, &rpcrdmax_clnt_vers_conns[1], 0444);
MODULE_PARM_DESC(client_vers2_conns, "client connections that use RPC-over-RDMA version 2");

/**
 * rpcrdmax_clnt_count_version - count a client connection by its version
 * @vers: 1 or 2
 */
void rpcrdmax_clnt_count_version(unsigned int vers)
{
	if (vers == 1 || vers == 2)
		atomic_inc(&rpcrdmax_clnt_vers_conns[vers - 1]);
}

/* ---- /proc/sys/sunrpc/svc_rdma ---------------------------------------- */

/* Defaults and ranges as the stock module has them; the credits and the
 * inline size from the kernel's own header, whose credit default went
 * from 64 to 128 in 6.19: a connection gets what stock's would on the
 * same kernel. */
static unsigned int rpcrdmax_svc_max_requests = RPCRDMA_MAX_REQUESTS;
static unsigned int rpcrdmax_svc_max_req_size = RPCRDMA_DEF_INLINE_THRESH;
static unsigned int rpcrdmax_svc_ord = 16;
static unsigned int rpcrdmax_svc_min_requests = 4;
static unsigned int rpcrdmax_svc_max_max_requests = 16384;
static unsigned int rpcrdmax_svc_min_req_size = 4096;
static unsigned int rpcrdmax_svc_max_max_req_size = 65536;
static unsigned int rpcrdmax_svc_min_ord = 1;
static unsigned int rpcrdmax_svc_max_ord = 255;
static unsigned int rpcrdmax_svc_never_counted;
/* Ours: the highest RPC-over-RDMA version a connection may use. */
static unsigned int rpcrdmax_svc_max_version = 2;
static unsigned int rpcrdmax_svc_min_vers = 1;
static unsigned int rpcrdmax_svc_max_vers = 2;

unsigned long long __percpu *rpcrdmax_svc_stats;
/* Counter i's sysctl has .data &rpcrdmax_svc_stat_slot[i]: its offset in
 * this array is the counter's index (the contents are never read). */
static unsigned int rpcrdmax_svc_stat_slot[RPCRDMAX_SVC_STAT_COUNT];

/* A counter: reading gives the sum of the CPUs' copies; writing zeroes
 * them (an event counted meanwhile on another CPU may survive it). */
static int rpcrdmax_svc_stat_handler(RPCRDMAX_CTL_TABLE *table, int write, void *buffer,
				     size_t *lenp, loff_t *ppos)
{
	unsigned int which = (unsigned int *)table->data - rpcrdmax_svc_stat_slot;
	char tmp[24];
	struct ctl_table t = { .data = tmp, .maxlen = sizeof(tmp) };
	int cpu;

	if (write) {
		for_each_possible_cpu(cpu)
			WRITE_ONCE(per_cpu_ptr(rpcrdmax_svc_stats, cpu)[which], 0);
		*ppos += *lenp;
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%llu", rpcrdmax_svc_stat_sum(which));
	return proc_dostring(&t, 0, buffer, lenp, ppos);
}

#define RPCRDMAX_SVC_TUNABLE(name, var, lo, hi) {			\
		.procname = name, .data = &(var),			\
		.maxlen = sizeof(unsigned int), .mode = 0644,		\
		.proc_handler = proc_douintvec_minmax,			\
		.extra1 = &(lo), .extra2 = &(hi) }
#define RPCRDMAX_SVC_STAT(name, which) {				\
		.procname = name, .data = &rpcrdmax_svc_stat_slot[which], \
		.maxlen = sizeof(unsigned int), .mode = 0644,		\
		.proc_handler = rpcrdmax_svc_stat_handler }
#define RPCRDMAX_SVC_UNCOUNTED(name)					\
	RPCRDMAX_SVC_TUNABLE(name, rpcrdmax_svc_never_counted,		\
			     rpcrdmax_svc_never_counted, rpcrdmax_svc_never_counted)

static struct ctl_table rpcrdmax_svc_table[] = {
	RPCRDMAX_SVC_TUNABLE("max_requests", rpcrdmax_svc_max_requests,
			     rpcrdmax_svc_min_requests, rpcrdmax_svc_max_max_requests),
	RPCRDMAX_SVC_TUNABLE("max_req_size", rpcrdmax_svc_max_req_size,
			     rpcrdmax_svc_min_req_size, rpcrdmax_svc_max_max_req_size),
	RPCRDMAX_SVC_TUNABLE("max_outbound_read_requests", rpcrdmax_svc_ord,
			     rpcrdmax_svc_min_ord, rpcrdmax_svc_max_ord),
	RPCRDMAX_SVC_TUNABLE("max_version", rpcrdmax_svc_max_version,
			     rpcrdmax_svc_min_vers, rpcrdmax_svc_max_vers),
	RPCRDMAX_SVC_STAT("rdma_stat_read", RPCRDMAX_SVC_STAT_READ),
	RPCRDMAX_SVC_STAT("rdma_stat_recv", RPCRDMAX_SVC_STAT_RECV),
	RPCRDMAX_SVC_STAT("rdma_stat_write", RPCRDMAX_SVC_STAT_WRITE),
	RPCRDMAX_SVC_STAT("rdma_stat_sq_starve", RPCRDMAX_SVC_STAT_SQ_STARVE),
	RPCRDMAX_SVC_STAT("rdma_stat_err_vers", RPCRDMAX_SVC_STAT_ERR_VERS),
	RPCRDMAX_SVC_STAT("rdma_stat_err_chunk", RPCRDMAX_SVC_STAT_ERR_CHUNK),
	RPCRDMAX_SVC_STAT("rdma_stat_dropped", RPCRDMAX_SVC_STAT_DROPPED),
	RPCRDMAX_SVC_STAT("rdma_stat_page_sges", RPCRDMAX_SVC_STAT_PAGE_SGES),
	RPCRDMAX_SVC_STAT("rdma_stat_pull_up", RPCRDMAX_SVC_STAT_PULL_UP),
	RPCRDMAX_SVC_STAT("rdma_stat_refused", RPCRDMAX_SVC_STAT_REFUSED),
	RPCRDMAX_SVC_STAT("rdma_stat_ctxt_alloc", RPCRDMAX_SVC_STAT_CTXT_ALLOC),
	RPCRDMAX_SVC_STAT("rdma_stat_credit_overrun", RPCRDMAX_SVC_STAT_CREDIT_OVERRUN),
	RPCRDMAX_SVC_STAT("rdma_stat_bc_calls", RPCRDMAX_SVC_STAT_BC_CALLS),
	RPCRDMAX_SVC_STAT("rdma_stat_bc_replies", RPCRDMAX_SVC_STAT_BC_REPLIES),
	RPCRDMAX_SVC_STAT("rdma_stat_bc_dropped", RPCRDMAX_SVC_STAT_BC_DROPPED),
	RPCRDMAX_SVC_STAT("rdma_stat_rq_prod", RPCRDMAX_SVC_STAT_RQ_PROD),
	RPCRDMAX_SVC_UNCOUNTED("rdma_stat_rq_starve"),
	RPCRDMAX_SVC_UNCOUNTED("rdma_stat_rq_poll"),
	RPCRDMAX_SVC_STAT("rdma_stat_sq_poll", RPCRDMAX_SVC_STAT_SQ_POLL),
	RPCRDMAX_SVC_STAT("rdma_stat_sq_prod", RPCRDMAX_SVC_STAT_SQ_PROD),
	RPCRDMAX_SVC_STAT("rdma_stat_vers1_conns", RPCRDMAX_SVC_STAT_VERS1),
	RPCRDMAX_SVC_STAT("rdma_stat_vers2_conns", RPCRDMAX_SVC_STAT_VERS2),
	RPCRDMAX_SVC_STAT("rdma_stat_err_v2", RPCRDMAX_SVC_STAT_ERR_V2),
	RPCRDMAX_SVC_STAT("rdma_stat_connprop_sent", RPCRDMAX_SVC_STAT_CONNPROP_SENT),
	RPCRDMAX_SVC_STAT("rdma_stat_connprop_recv", RPCRDMAX_SVC_STAT_CONNPROP_RECV),
	RPCRDMAX_SVC_STAT("rdma_stat_lost", RPCRDMAX_SVC_STAT_LOST),
	RPCRDMAX_SVC_STAT("rdma_stat_svc_drop", RPCRDMAX_SVC_STAT_SVC_DROP),
	RPCRDMAX_SVC_STAT("rdma_stat_unsettled", RPCRDMAX_SVC_STAT_UNSETTLED),
	RPCRDMAX_SVC_STAT("rdma_stat_read_reset", RPCRDMAX_SVC_STAT_READ_RESET),
	RPCRDMAX_CTL_TABLE_END
};

static struct ctl_table_header *rpcrdmax_svc_sysctl_header;

/**
 * rpcrdmax_svc_sysctl_register - publish /proc/sys/sunrpc/svc_rdma
 *
 * Also makes the rdma_stat_* counters (rpcrdmax_svc_stats), zeroed.
 * Returns 0 or -ENOMEM (also when the stock module's directory exists).
 */
int rpcrdmax_svc_sysctl_register(void)
{
	rpcrdmax_svc_stats = __alloc_percpu(sizeof(*rpcrdmax_svc_stats) * RPCRDMAX_SVC_STAT_COUNT,
					    __alignof__(*rpcrdmax_svc_stats));
	if (!rpcrdmax_svc_stats)
		return -ENOMEM;
	rpcrdmax_svc_sysctl_header = register_sysctl("sunrpc/svc_rdma", rpcrdmax_svc_table);
	if (!rpcrdmax_svc_sysctl_header) {
		free_percpu(rpcrdmax_svc_stats);
		rpcrdmax_svc_stats = NULL;
		return -ENOMEM;
	}
	return 0;
}

/**
 * rpcrdmax_svc_sysctl_unregister - withdraw /proc/sys/sunrpc/svc_rdma
 *
 * And the counters: the server part is unregistered and its connections
 * gone by then (shim/sunrpc/main.c).
 */
void rpcrdmax_svc_sysctl_unregister(void)
{
	if (rpcrdmax_svc_sysctl_header)
		unregister_sysctl_table(rpcrdmax_svc_sysctl_header);
	rpcrdmax_svc_sysctl_header = NULL;
	free_percpu(rpcrdmax_svc_stats);
	rpcrdmax_svc_stats = NULL;
}

/**
 * rpcrdmax_svc_tunables - the server tunables' current values
 * @out: filled with max_requests, max_req_size, max_outbound_read_requests
 *	and max_version
 */
void rpcrdmax_svc_tunables(struct rpcrdmax_svc_tunables *out)
{
	out->max_requests = READ_ONCE(rpcrdmax_svc_max_requests);
	out->max_req_size = READ_ONCE(rpcrdmax_svc_max_req_size);
	out->max_outbound_read_requests = READ_ONCE(rpcrdmax_svc_ord);
	out->max_version = READ_ONCE(rpcrdmax_svc_max_version);
}

