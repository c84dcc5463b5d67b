// SPDX-License-Identifier: GPL-2.0
/*
 * kunit/kunit.c - rpcrdmax's KUnit suites.
 *
 * Suites are C (KUnit is a C API); the bodies that exercise C++ live in
 * C++ and report each expectation through rpcrdmax_kunit_check(), which
 * turns it into a KUNIT_EXPECT with the C++ file and line.
 *
 * rpcrdmax_consts: every constant C++ was compiled with (from the
 *   generated rpcrdmax_consts.h) equals what this file, compiled against
 *   the kernel's own headers, computes for the same name.
 * rpcrdmax_cxx_runtime: GFP new/delete, virtual dispatch, lock guards,
 *   a workqueue round trip, Result/TRY and a WaitQueue's wake-up, all in
 *   the running kernel.
 * rpcrdmax_rdma: in-kernel loopback over soft-RoCE through our cm and
 *   verbs shims: connect with private data, FRWR + RDMA Write + Send with
 *   Invalidate, LOCAL_INV, flush and MR recovery (kunit/cxx_rdma_tests.cpp).
 * rpcrdmax_xprt_marshal: the client transport's real marshalling, FRWR
 *   and Reply handling (xprtrdma/, shim/sunrpc/xprt_rqst.c) on rpc_rqsts built
 *   here, against a responder made of the protocol core and plain verbs
 *   over rxe: inline, Read chunk, Long Call, Write chunk, Reply chunk,
 *   RDMA_ERROR and an over-long Write chunk (kunit/cxx_marshal_tests.cpp).
 * rpcrdmax_svcrdma: the server transport's accept decision and rdma_rw
 *   Read/Write/Send With Invalidate over soft-RoCE, an inline Reply sent
 *   from its pages or pulled up, Send Queue waits
 *   (kunit/cxx_svc_tests.cpp).
 * rpcrdmax_xprt_cong: sunrpc's congestion window as one connection's
 *   credits (shim/sunrpc/xprt_cong.c), on an rpc_xprt built here.
 * rpcrdmax_core: every protocol-core self-test case (core/selftest/, the
 *   same cases the host runs under GoogleTest), one KUnit parameter each.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/errno.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/dma-direction.h>
#include <linux/scatterlist.h>
#include <linux/socket.h>
#include <linux/sunrpc/auth.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprt.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include "../shim/internal.h"
#include "rpcrdmax_kunit.h"

static void rpcrdmax_kunit_check(struct kunit *test, bool ok, const char *what,
				 const char *file, int line)
{

	KUNIT_EXPECT_TRUE_MSG(test, ok, "%s:%d: %s", file, line, what);
}

/* ---- rpcrdmax_consts ------------------------------------------------ */

struct rpcrdmax_kconst {
	const char *name;
	long long value;
};

#define KC(n, v) { n, (long long)(v) }
/* A field C++ reads in place: its offset and width. */
#define KF(n, type, member) KC("RPCRDMAX_OFF_" #n, offsetof(type, member)), \
	KC("RPCRDMAX_FSIZE_" #n, sizeof_field(type, member)),
static const struct rpcrdmax_kconst rpcrdmax_kconsts[] = {
	KC("RPCRDMAX_SIZEOF_SPINLOCK", sizeof(spinlock_t)),
	KC("RPCRDMAX_ALIGNOF_SPINLOCK", __alignof__(spinlock_t)),
	KC("RPCRDMAX_SIZEOF_MUTEX", sizeof(struct mutex)),
	KC("RPCRDMAX_ALIGNOF_MUTEX", __alignof__(struct mutex)),
	KC("RPCRDMAX_SIZEOF_REFCOUNT", sizeof(refcount_t)),
	KC("RPCRDMAX_ALIGNOF_REFCOUNT", __alignof__(refcount_t)),
	KC("RPCRDMAX_SIZEOF_COMPLETION", sizeof(struct completion)),
	KC("RPCRDMAX_ALIGNOF_COMPLETION", __alignof__(struct completion)),
	KC("RPCRDMAX_SIZEOF_WORK", sizeof(struct rpcrdmax_work)),
	KC("RPCRDMAX_ALIGNOF_WORK", __alignof__(struct rpcrdmax_work)),
	KC("RPCRDMAX_SIZEOF_CQE", sizeof(struct rpcrdmax_cqe)),
	KC("RPCRDMAX_ALIGNOF_CQE", __alignof__(struct rpcrdmax_cqe)),
	KC("RPCRDMAX_SIZEOF_CM_HANDLER", sizeof(struct rpcrdmax_cm_handler)),
	KC("RPCRDMAX_ALIGNOF_CM_HANDLER", __alignof__(struct rpcrdmax_cm_handler)),
	KC("RPCRDMAX_SIZEOF_SCATTERLIST", sizeof(struct scatterlist)),
	KC("RPCRDMAX_SIZEOF_SOCKADDR_STORAGE", sizeof(struct sockaddr_storage)),
	KC("RPCRDMAX_SIZEOF_IB_WR", sizeof(union rpcrdmax_any_wr)),
	KC("RPCRDMAX_ALIGNOF_IB_WR", __alignof__(union rpcrdmax_any_wr)),
	KC("RPCRDMAX_SIZEOF_IB_SGE", sizeof(struct ib_sge)),
	KC("RPCRDMAX_SIZEOF_SVC_XPRT", sizeof(struct svc_xprt)),
	KC("RPCRDMAX_ALIGNOF_SVC_XPRT", __alignof__(struct svc_xprt)),
	KC("RPCRDMAX_ALIGNOF_IB_SGE", __alignof__(struct ib_sge)),
	RPCRDMAX_KERNEL_FIELDS(KF)
	KC("RPCRDMAX_IB_VIRT_DMA", IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA)),
	KC("RPCRDMAX_SPIN_BH_DIRECT", RPCRDMAX_SPIN_BH_DIRECT_OK),
	KC("RPCRDMAX_SPLIT_RESPAGES", RPCRDMAX_HAVE_SPLIT_RESPAGES),
	KC("RPCRDMAX_XPT_DATA", XPT_DATA),
	KC("RPCRDMAX_XDRBUF_READ", XDRBUF_READ),
	KC("RPCRDMAX_XDRBUF_WRITE", XDRBUF_WRITE),
	KC("RPCRDMAX_XDRBUF_SPARSE_PAGES", XDRBUF_SPARSE_PAGES),
	KC("RPCRDMAX_RPCAUTH_AUTH_DATATOUCH", RPCAUTH_AUTH_DATATOUCH),
	KC("RPCRDMAX_DMA_BIDIRECTIONAL", DMA_BIDIRECTIONAL),
	KC("RPCRDMAX_DMA_TO_DEVICE", DMA_TO_DEVICE),
	KC("RPCRDMAX_DMA_FROM_DEVICE", DMA_FROM_DEVICE),
	KC("RPCRDMAX_IB_WC_SUCCESS", IB_WC_SUCCESS),
	KC("RPCRDMAX_IB_WC_WR_FLUSH_ERR", IB_WC_WR_FLUSH_ERR),
	KC("RPCRDMAX_IB_WC_OP_SEND", IB_WC_SEND),
	KC("RPCRDMAX_IB_WC_OP_RDMA_WRITE", IB_WC_RDMA_WRITE),
	KC("RPCRDMAX_IB_WC_OP_RDMA_READ", IB_WC_RDMA_READ),
	KC("RPCRDMAX_IB_WC_OP_LOCAL_INV", IB_WC_LOCAL_INV),
	KC("RPCRDMAX_IB_WC_OP_REG_MR", IB_WC_REG_MR),
	KC("RPCRDMAX_IB_WC_OP_RECV", IB_WC_RECV),
	KC("RPCRDMAX_IB_WR_SEND", IB_WR_SEND),
	KC("RPCRDMAX_IB_WR_SEND_WITH_INV", IB_WR_SEND_WITH_INV),
	KC("RPCRDMAX_IB_WR_RDMA_WRITE", IB_WR_RDMA_WRITE),
	KC("RPCRDMAX_IB_WR_RDMA_READ", IB_WR_RDMA_READ),
	KC("RPCRDMAX_IB_WR_LOCAL_INV", IB_WR_LOCAL_INV),
	KC("RPCRDMAX_IB_WR_REG_MR", IB_WR_REG_MR),
	KC("RPCRDMAX_IB_SEND_SIGNALED", IB_SEND_SIGNALED),
	KC("RPCRDMAX_IB_ACCESS_LOCAL_WRITE", IB_ACCESS_LOCAL_WRITE),
	KC("RPCRDMAX_IB_ACCESS_REMOTE_WRITE", IB_ACCESS_REMOTE_WRITE),
	KC("RPCRDMAX_IB_ACCESS_REMOTE_READ", IB_ACCESS_REMOTE_READ),
	KC("RPCRDMAX_GFP_KERNEL", (__force unsigned int)GFP_KERNEL),
	KC("RPCRDMAX_GFP_NOFS", (__force unsigned int)GFP_NOFS),
	KC("RPCRDMAX_GFP_NOIO", (__force unsigned int)GFP_NOIO),
	KC("RPCRDMAX_GFP_ATOMIC", (__force unsigned int)GFP_ATOMIC),
	KC("RPCRDMAX_GFP_NOWAIT", (__force unsigned int)GFP_NOWAIT),
	KC("RPCRDMAX_GFP_ZERO", (__force unsigned int)__GFP_ZERO),
	KC("RPCRDMAX_GFP_NOWARN", (__force unsigned int)__GFP_NOWARN),
	KC("RPCRDMAX_GFP_RETRY_MAYFAIL", (__force unsigned int)__GFP_RETRY_MAYFAIL),
	KC("RPCRDMAX_PAGE_SIZE", PAGE_SIZE),
	KC("RPCRDMAX_PAGE_SHIFT", PAGE_SHIFT),
	KC("EINVAL", EINVAL),
	KC("ENOMEM", ENOMEM),
	KC("ENOTCONN", ENOTCONN),
	KC("ECONNREFUSED", ECONNREFUSED),
	KC("ETIMEDOUT", ETIMEDOUT),
	KC("EPROTO", EPROTO),
};
#undef KC

static void rpcrdmax_consts_match(struct kunit *test)
{
	unsigned int i, j, seen = 0;
	const char *name;
	long long value;

	for (i = 0; rpcrdmax_cxx_const(i, &name, &value); i++) {
		for (j = 0; j < ARRAY_SIZE(rpcrdmax_kconsts); j++)
			if (!strcmp(rpcrdmax_kconsts[j].name, name))
				break;
		KUNIT_EXPECT_LT_MSG(test, j, ARRAY_SIZE(rpcrdmax_kconsts),
				    "C++ constant %s unknown to the kernel side", name);
		if (j == ARRAY_SIZE(rpcrdmax_kconsts))
			continue;
		seen++;
		KUNIT_EXPECT_EQ_MSG(test, value, rpcrdmax_kconsts[j].value,
				    "%s: C++ has %lld, the kernel %lld", name,
				    value, rpcrdmax_kconsts[j].value);
	}
	KUNIT_EXPECT_EQ(test, seen, (unsigned int)ARRAY_SIZE(rpcrdmax_kconsts));
}

static struct kunit_case rpcrdmax_consts_cases[] = {
	KUNIT_CASE(rpcrdmax_consts_match),
	{}
};

static struct kunit_suite rpcrdmax_consts_suite = {
	.name = "rpcrdmax_consts",
	.test_cases = rpcrdmax_consts_cases,
};

/* ---- rpcrdmax_cxx_runtime ------------------------------------------- */

/*
 * RPCRDMAX_CXX_CASE: a case whose body is the C++ function of its name.
 * RPCRDMAX_CXX_TP_CASE: one that watches tracepoints with probes of its
 * own: on a kernel built without them (the plain KUnit kernel's
 * tinyconfig; the debug kernel and Debian's have them) there is nothing
 * to watch, so it skips.
 */
#define RPCRDMAX_CXX_CASE_IF(fn, need, why)                            \
	static void fn##_case(struct kunit *test)                      \
	{                                                              \
		if (!(need))                                           \
			kunit_skip(test, "%s", why);                   \
		rpcrdmax_kunit_cxx_##fn(test, rpcrdmax_kunit_check);   \
	}
#define RPCRDMAX_CXX_CASE(fn) RPCRDMAX_CXX_CASE_IF(fn, true, "")
#define RPCRDMAX_CXX_TP_CASE(fn) \
	RPCRDMAX_CXX_CASE_IF(fn, IS_ENABLED(CONFIG_TRACEPOINTS), "no CONFIG_TRACEPOINTS")
/* RPCRDMAX_CXX_KPROBE_CASE: one that watches kernel functions with
 * kprobes (the debug kernel has them; the plain KUnit kernel has not). */
#define RPCRDMAX_CXX_KPROBE_CASE(fn) \
	RPCRDMAX_CXX_CASE_IF(fn, IS_ENABLED(CONFIG_KPROBES), "no CONFIG_KPROBES")

RPCRDMAX_CXX_CASE(new_delete)
RPCRDMAX_CXX_CASE(virtual)
RPCRDMAX_CXX_CASE(lock_guard)
RPCRDMAX_CXX_CASE(workqueue)
RPCRDMAX_CXX_CASE(result)
RPCRDMAX_CXX_CASE(waitqueue)

static struct kunit_case rpcrdmax_cxx_runtime_cases[] = {
	KUNIT_CASE(new_delete_case),
	KUNIT_CASE(virtual_case),
	KUNIT_CASE(lock_guard_case),
	KUNIT_CASE(workqueue_case),
	KUNIT_CASE(result_case),
	KUNIT_CASE(waitqueue_case),
	{}
};

static struct kunit_suite rpcrdmax_cxx_runtime_suite = {
	.name = "rpcrdmax_cxx_runtime",
	.test_cases = rpcrdmax_cxx_runtime_cases,
};

/* ---- rpcrdmax_rdma ------------------------------------------------- */

RPCRDMAX_CXX_CASE(rdma_connect)
RPCRDMAX_CXX_CASE(rdma_frwr)
RPCRDMAX_CXX_CASE(rdma_flush)

static struct kunit_case rpcrdmax_rdma_cases[] = {
	KUNIT_CASE(rdma_connect_case),
	KUNIT_CASE(rdma_frwr_case),
	KUNIT_CASE(rdma_flush_case),
	{}
};

static struct kunit_suite rpcrdmax_rdma_suite = {
	.name = "rpcrdmax_rdma",
	.test_cases = rpcrdmax_rdma_cases,
};

/* ---- rpcrdmax_xprt_marshal ----------------------------------------- */

RPCRDMAX_CXX_CASE(marshal_inline)
RPCRDMAX_CXX_CASE(marshal_lend)
RPCRDMAX_CXX_CASE(marshal_credits)
RPCRDMAX_CXX_CASE(marshal_buf_reuse)
RPCRDMAX_CXX_CASE(marshal_cwnd)
RPCRDMAX_CXX_CASE(marshal_read_chunk)
RPCRDMAX_CXX_CASE(marshal_long_call)
RPCRDMAX_CXX_CASE(marshal_gss_no_ddp)
RPCRDMAX_CXX_CASE(marshal_transmit)
RPCRDMAX_CXX_CASE(marshal_connect_fails)
RPCRDMAX_CXX_CASE(marshal_connect_delay)
RPCRDMAX_CXX_KPROBE_CASE(marshal_teardown_order)
RPCRDMAX_CXX_KPROBE_CASE(marshal_teardown_failed)
RPCRDMAX_CXX_CASE(marshal_reply_major)
RPCRDMAX_CXX_CASE(marshal_write_chunk)
RPCRDMAX_CXX_CASE(marshal_mr_reuse)
RPCRDMAX_CXX_CASE(marshal_foreign_rkey)
RPCRDMAX_CXX_CASE(marshal_mr_pool)
RPCRDMAX_CXX_CASE(marshal_inv_fence)
RPCRDMAX_CXX_CASE(marshal_send_held)
RPCRDMAX_CXX_CASE(marshal_reply_chunk)
RPCRDMAX_CXX_CASE(marshal_reply_chunk_head)
RPCRDMAX_CXX_TP_CASE(marshal_rdma_error)
RPCRDMAX_CXX_TP_CASE(marshal_rdma_error_unknown)
RPCRDMAX_CXX_TP_CASE(marshal_write_overrun)
RPCRDMAX_CXX_TP_CASE(marshal_reply_errs)
RPCRDMAX_CXX_CASE(marshal_bc_call)
RPCRDMAX_CXX_CASE(marshal_bc_malformed)
RPCRDMAX_CXX_CASE(marshal_bc_over_credit)
RPCRDMAX_CXX_CASE(marshal_bc_no_service)
RPCRDMAX_CXX_CASE(marshal_v2_accepted)
RPCRDMAX_CXX_CASE(marshal_v2_fallback)
RPCRDMAX_CXX_CASE(marshal_v2_dropped_first)
RPCRDMAX_CXX_CASE(marshal_v2_first_cut_off)
RPCRDMAX_CXX_CASE(marshal_v2_errors)
RPCRDMAX_CXX_CASE(marshal_v2_props)
RPCRDMAX_CXX_CASE(marshal_v2_inv_handle)
RPCRDMAX_CXX_CASE(marshal_v2_backward)
RPCRDMAX_CXX_TP_CASE(marshal_hot_trace)
RPCRDMAX_CXX_CASE(marshal_page_pieces)

static struct kunit_case rpcrdmax_xprt_marshal_cases[] = {
	KUNIT_CASE(marshal_inline_case),
	KUNIT_CASE(marshal_lend_case),
	KUNIT_CASE(marshal_credits_case),
	KUNIT_CASE(marshal_buf_reuse_case),
	KUNIT_CASE(marshal_cwnd_case),
	KUNIT_CASE(marshal_read_chunk_case),
	KUNIT_CASE(marshal_long_call_case),
	KUNIT_CASE(marshal_gss_no_ddp_case),
	KUNIT_CASE(marshal_transmit_case),
	KUNIT_CASE(marshal_connect_fails_case),
	KUNIT_CASE(marshal_connect_delay_case),
	KUNIT_CASE(marshal_teardown_order_case),
	KUNIT_CASE(marshal_teardown_failed_case),
	KUNIT_CASE(marshal_reply_major_case),
	KUNIT_CASE(marshal_write_chunk_case),
	KUNIT_CASE(marshal_mr_reuse_case),
	KUNIT_CASE(marshal_foreign_rkey_case),
	KUNIT_CASE(marshal_mr_pool_case),
	KUNIT_CASE(marshal_inv_fence_case),
	KUNIT_CASE(marshal_send_held_case),
	KUNIT_CASE(marshal_reply_chunk_case),
	KUNIT_CASE(marshal_reply_chunk_head_case),
	KUNIT_CASE(marshal_rdma_error_case),
	KUNIT_CASE(marshal_rdma_error_unknown_case),
	KUNIT_CASE(marshal_write_overrun_case),
	KUNIT_CASE(marshal_reply_errs_case),
	KUNIT_CASE(marshal_bc_call_case),
	KUNIT_CASE(marshal_bc_malformed_case),
	KUNIT_CASE(marshal_bc_over_credit_case),
	KUNIT_CASE(marshal_bc_no_service_case),
	KUNIT_CASE(marshal_v2_accepted_case),
	KUNIT_CASE(marshal_v2_fallback_case),
	KUNIT_CASE(marshal_v2_dropped_first_case),
	KUNIT_CASE(marshal_v2_first_cut_off_case),
	KUNIT_CASE(marshal_v2_errors_case),
	KUNIT_CASE(marshal_v2_props_case),
	KUNIT_CASE(marshal_v2_inv_handle_case),
	KUNIT_CASE(marshal_v2_backward_case),
	KUNIT_CASE(marshal_hot_trace_case),
	KUNIT_CASE(marshal_page_pieces_case),
	{}
};

static struct kunit_suite rpcrdmax_xprt_marshal_suite = {
	.name = "rpcrdmax_xprt_marshal",
	.test_cases = rpcrdmax_xprt_marshal_cases,
};

/* ---- rpcrdmax_svc_server (kunit/cxx_svc_server_tests.cpp) ---------- */

RPCRDMAX_CXX_CASE(svcsrv_inline)
RPCRDMAX_CXX_CASE(svcsrv_inline_pages)
RPCRDMAX_CXX_CASE(svcsrv_read_chunk)
RPCRDMAX_CXX_CASE(svcsrv_nomsg)
RPCRDMAX_CXX_CASE(svcsrv_reply_chunk)
RPCRDMAX_CXX_CASE(svcsrv_write_chunk)
RPCRDMAX_CXX_CASE(svcsrv_readv)
RPCRDMAX_CXX_TP_CASE(svcsrv_trace_observes)
RPCRDMAX_CXX_TP_CASE(svcsrv_payload_too_big)
RPCRDMAX_CXX_CASE(svcsrv_reuse)
RPCRDMAX_CXX_CASE(svcsrv_setup)
RPCRDMAX_CXX_KPROBE_CASE(svcsrv_teardown_order)
RPCRDMAX_CXX_CASE(svcsrv_sq_close)
RPCRDMAX_CXX_CASE(svcsrv_recv_batch)
RPCRDMAX_CXX_CASE(svcsrv_in_place)
RPCRDMAX_CXX_CASE(svcsrv_send_batch)
RPCRDMAX_CXX_CASE(svcsrv_send_ring)
RPCRDMAX_CXX_CASE(svcsrv_bc_call)
RPCRDMAX_CXX_CASE(svcsrv_bc_bad)
RPCRDMAX_CXX_CASE(svcsrv_credit_overrun)
RPCRDMAX_CXX_CASE(svcsrv_write_chunks)
RPCRDMAX_CXX_CASE(svcsrv_send_held)
RPCRDMAX_CXX_CASE(svcsrv_short_reply)
RPCRDMAX_CXX_CASE(svcsrv_v2)
RPCRDMAX_CXX_CASE(svcsrv_v2_capped)
RPCRDMAX_CXX_CASE(svcsrv_v2_peers)
RPCRDMAX_CXX_CASE(svcsrv_res_beyond_next)
RPCRDMAX_CXX_CASE(svcsrv_settle)
RPCRDMAX_CXX_CASE(svcsrv_xdr_errors)
RPCRDMAX_CXX_CASE(svcsrv_read_stalled)
RPCRDMAX_CXX_CASE(svcsrv_read_unflushed)
RPCRDMAX_CXX_CASE(svcsrv_res_pieces)

static struct kunit_case rpcrdmax_svc_server_cases[] = {
	KUNIT_CASE(svcsrv_inline_case),
	KUNIT_CASE(svcsrv_inline_pages_case),
	KUNIT_CASE(svcsrv_read_chunk_case),
	KUNIT_CASE(svcsrv_nomsg_case),
	KUNIT_CASE(svcsrv_reply_chunk_case),
	KUNIT_CASE(svcsrv_write_chunk_case),
	KUNIT_CASE(svcsrv_readv_case),
	KUNIT_CASE(svcsrv_trace_observes_case),
	KUNIT_CASE(svcsrv_payload_too_big_case),
	KUNIT_CASE(svcsrv_reuse_case),
	KUNIT_CASE(svcsrv_setup_case),
	KUNIT_CASE(svcsrv_teardown_order_case),
	KUNIT_CASE(svcsrv_sq_close_case),
	KUNIT_CASE(svcsrv_recv_batch_case),
	KUNIT_CASE(svcsrv_in_place_case),
	KUNIT_CASE(svcsrv_send_batch_case),
	KUNIT_CASE(svcsrv_send_ring_case),
	KUNIT_CASE(svcsrv_bc_call_case),
	KUNIT_CASE(svcsrv_bc_bad_case),
	KUNIT_CASE(svcsrv_credit_overrun_case),
	KUNIT_CASE(svcsrv_write_chunks_case),
	KUNIT_CASE(svcsrv_send_held_case),
	KUNIT_CASE(svcsrv_short_reply_case),
	KUNIT_CASE(svcsrv_v2_case),
	KUNIT_CASE(svcsrv_v2_capped_case),
	KUNIT_CASE(svcsrv_v2_peers_case),
	KUNIT_CASE(svcsrv_res_beyond_next_case),
	KUNIT_CASE(svcsrv_res_pieces_case),
	KUNIT_CASE(svcsrv_settle_case),
	KUNIT_CASE(svcsrv_xdr_errors_case),
	KUNIT_CASE(svcsrv_read_stalled_case),
	KUNIT_CASE(svcsrv_read_unflushed_case),
	{}
};

static struct kunit_suite rpcrdmax_svc_server_suite = {
	.name = "rpcrdmax_svc_server",
	.test_cases = rpcrdmax_svc_server_cases,
};

/* ---- rpcrdmax_svcrdma (kunit/cxx_svc_tests.cpp) ------------------- */

RPCRDMAX_CXX_CASE(svc_accept)
RPCRDMAX_CXX_CASE(svc_rw_read)
RPCRDMAX_CXX_CASE(svc_rw_write)
RPCRDMAX_CXX_CASE(svc_send_inv)
RPCRDMAX_CXX_CASE(svc_inline_sges)
RPCRDMAX_CXX_CASE(svc_sq_wait)
RPCRDMAX_CXX_CASE(svc_budget)

static struct kunit_case rpcrdmax_svcrdma_cases[] = {
	KUNIT_CASE(svc_accept_case),
	KUNIT_CASE(svc_rw_read_case),
	KUNIT_CASE(svc_rw_write_case),
	KUNIT_CASE(svc_send_inv_case),
	KUNIT_CASE(svc_inline_sges_case),
	KUNIT_CASE(svc_sq_wait_case),
	KUNIT_CASE(svc_budget_case),
	{}
};

static struct kunit_suite rpcrdmax_svcrdma_suite = {
	.name = "rpcrdmax_svcrdma",
	.test_cases = rpcrdmax_svcrdma_cases,
};

/* ---- rpcrdmax_xprt_cong -------------------------------------------- */

static void rpcrdmax_cong_release_locked(struct rpc_xprt *x, struct rpc_task *t, int tag)
{
	spin_lock(&x->transport_lock);
	rpcrdmax_cong_release(t, tag);
	spin_unlock(&x->transport_lock);
}

/*
 * Four Calls go on a connection granted four and are unanswered when it
 * is lost.  On the next, granted one until its first Reply, only one of
 * them may go (sunrpc's own xprt_request_get_cong lets every request
 * that holds a slot go: what the transport did before); one that ends
 * holding the lost connection's slot leaves the new count alone; after
 * the Reply (a grant of four) the others go, one slot each.
 */
static void rpcrdmax_cong_reconnect(struct kunit *test)
{
	struct rpc_xprt *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	struct rpc_rqst *r = kunit_kcalloc(test, 5, sizeof(*r), GFP_KERNEL);
	struct rpc_task *t = kunit_kcalloc(test, 5, sizeof(*t), GFP_KERNEL);
	int tag = 0, i;

	KUNIT_ASSERT_NOT_NULL(test, x);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, t);
	spin_lock_init(&x->transport_lock);
	INIT_LIST_HEAD(&x->xmit_queue);
	/* the transmitting task's write lock: a slot given back wakes no one */
	set_bit(XPRT_LOCKED, &x->state);
	for (i = 0; i < 5; i++) {
		r[i].rq_xprt = x;
		r[i].rq_task = &t[i];
		t[i].tk_rqstp = &r[i];
	}

	rpcrdmax_cong_reset(x, &tag);
	KUNIT_EXPECT_EQ(test, x->cwnd, (unsigned long)RPC_CWNDSCALE);
	x->cwnd = 4 * RPC_CWNDSCALE;
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, rpcrdmax_cong_get(x, &r[i], tag));
	KUNIT_EXPECT_FALSE(test, rpcrdmax_cong_get(x, &r[4], tag));
	KUNIT_EXPECT_EQ(test, x->cong, 4UL * RPC_CWNDSCALE);

	/* The connection is lost; the next one starts at one credit. */
	rpcrdmax_cong_reset(x, &tag);
	KUNIT_EXPECT_EQ(test, x->cong, 0UL);
	KUNIT_EXPECT_EQ(test, x->cwnd, (unsigned long)RPC_CWNDSCALE);
	KUNIT_EXPECT_FALSE(test, test_bit(XPRT_CWND_WAIT, &x->state));
	KUNIT_EXPECT_TRUE(test, rpcrdmax_cong_get(x, &r[0], tag));
	KUNIT_EXPECT_FALSE(test, rpcrdmax_cong_get(x, &r[1], tag));
	KUNIT_EXPECT_EQ(test, x->cong, (unsigned long)RPC_CWNDSCALE);
	KUNIT_EXPECT_TRUE(test, xprt_request_get_cong(x, &r[3]));	/* sunrpc's own */
	/* r[2] ends (a signal) with the lost connection's slot. */
	rpcrdmax_cong_release_locked(x, &t[2], tag);
	KUNIT_EXPECT_EQ(test, x->cong, (unsigned long)RPC_CWNDSCALE);
	KUNIT_EXPECT_EQ(test, r[2].rq_cong, 0);

	/* r[0]'s Reply grants four: it ends, and the others go. */
	x->cwnd = 4 * RPC_CWNDSCALE;
	rpcrdmax_cong_release_locked(x, &t[0], tag);
	KUNIT_EXPECT_EQ(test, x->cong, 0UL);
	KUNIT_EXPECT_TRUE(test, rpcrdmax_cong_get(x, &r[1], tag));
	KUNIT_EXPECT_TRUE(test, rpcrdmax_cong_get(x, &r[3], tag));
	KUNIT_EXPECT_TRUE(test, rpcrdmax_cong_get(x, &r[1], tag));	/* already its */
	KUNIT_EXPECT_EQ(test, x->cong, 2UL * RPC_CWNDSCALE);
	rpcrdmax_cong_release_locked(x, &t[1], tag);
	rpcrdmax_cong_release_locked(x, &t[3], tag);
	KUNIT_EXPECT_EQ(test, x->cong, 0UL);

	/* The tag wraps past INT_MAX to 1, never 0 (no slot). */
	tag = INT_MAX;
	rpcrdmax_cong_reset(x, &tag);
	KUNIT_EXPECT_EQ(test, tag, 1);
}

static struct kunit_case rpcrdmax_xprt_cong_cases[] = {
	KUNIT_CASE(rpcrdmax_cong_reconnect),
	{}
};

static struct kunit_suite rpcrdmax_xprt_cong_suite = {
	.name = "rpcrdmax_xprt_cong",
	.test_cases = rpcrdmax_xprt_cong_cases,
};

/* ---- rpcrdmax_core ------------------------------------------------- */

static void rpcrdmax_core_report(void *ctx, const char *what, const char *file,
				 int line)
{
	struct kunit *test = ctx;

	KUNIT_FAIL(test, "%s:%d: %s", file, line, what);
}

/* Parameters are case indices + 1, so that NULL can end the sequence. */
static const void *rpcrdmax_core_gen(const void *prev, char *desc)
{
	unsigned long next = (unsigned long)prev + 1;
	const char *name;

	if (next > rpcrdmax_core_selftest_count())
		return NULL;
	name = rpcrdmax_core_selftest_name(next - 1);
	strscpy(desc, name ? name : "?", KUNIT_PARAM_DESC_SIZE);
	return (const void *)next;
}

static void rpcrdmax_core_case(struct kunit *test)
{
	unsigned int i = (unsigned long)test->param_value - 1;
	unsigned long len = rpcrdmax_core_selftest_scratch_size();
	void *scratch = kunit_kzalloc(test, len, GFP_KERNEL);
	int failed;

	KUNIT_ASSERT_NOT_NULL(test, scratch);
	failed = rpcrdmax_core_selftest_run(i, rpcrdmax_core_report, test,
					    scratch, len);
	KUNIT_EXPECT_EQ_MSG(test, failed, 0, "%s: %d failed checks",
			    rpcrdmax_core_selftest_name(i), failed);
}

static struct kunit_case rpcrdmax_core_cases[] = {
	KUNIT_CASE_PARAM(rpcrdmax_core_case, rpcrdmax_core_gen),
	{}
};

static struct kunit_suite rpcrdmax_core_suite = {
	.name = "rpcrdmax_core",
	.test_cases = rpcrdmax_core_cases,
};

kunit_test_suites(&rpcrdmax_consts_suite, &rpcrdmax_cxx_runtime_suite,
		  &rpcrdmax_rdma_suite, &rpcrdmax_xprt_marshal_suite, &rpcrdmax_svcrdma_suite,
		  &rpcrdmax_svc_server_suite, &rpcrdmax_xprt_cong_suite,
		  &rpcrdmax_core_suite);

MODULE_DESCRIPTION("KUnit tests for rpcrdmax");
MODULE_LICENSE("GPL");
