/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunit/rpcrdmax_kunit.h - the KUnit module's entry points: the C++ test
 * bodies kunit/kunit.c runs and the kernel-side helpers (kunit/shims.c)
 * they build requests, connections and probes with.  Nothing in
 * rpcrdmax.ko declares or calls these.
 */
#ifndef RPCRDMAX_KUNIT_H
#define RPCRDMAX_KUNIT_H

#include "rpcrdmax_shim.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kunit;

/*
 * Test hooks (kunit/): C++ test bodies report through @check, which the
 * KUnit module implements with KUNIT_EXPECT_*; @ctx is the struct kunit.
 */
typedef void (*rpcrdmax_check_fn)(struct kunit *ctx, bool ok, const char *what,
				  const char *file, int line);
void rpcrdmax_kunit_cxx_new_delete(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_virtual(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_lock_guard(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_workqueue(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_result(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_waitqueue(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_rdma_connect(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_rdma_frwr(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_rdma_flush(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;

/*
 * The client's marshalling suite (kunit/cxx_marshal_tests.cpp): one entry
 * per case, and requests built in kunit/shims.c with these layouts.
 */
void rpcrdmax_kunit_cxx_marshal_inline(struct kunit *ctx,
				       rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_lend(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_credits(struct kunit *ctx,
					rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_buf_reuse(struct kunit *ctx,
					  rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_cwnd(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_read_chunk(struct kunit *ctx,
					   rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_long_call(struct kunit *ctx,
					  rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_gss_no_ddp(struct kunit *ctx,
					   rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_transmit(struct kunit *ctx,
					 rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_connect_fails(struct kunit *ctx,
					      rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_connect_delay(struct kunit *ctx,
					      rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_teardown_order(struct kunit *ctx,
					       rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_teardown_failed(struct kunit *ctx,
						rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_reply_major(struct kunit *ctx,
					    rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_write_chunk(struct kunit *ctx,
					    rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_mr_reuse(struct kunit *ctx,
					 rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_foreign_rkey(struct kunit *ctx,
					     rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_mr_pool(struct kunit *ctx,
					rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_inv_fence(struct kunit *ctx,
					  rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_send_held(struct kunit *ctx,
					  rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_reply_chunk(struct kunit *ctx,
					    rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_reply_chunk_head(struct kunit *ctx,
						 rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_rdma_error(struct kunit *ctx,
					   rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_rdma_error_unknown(struct kunit *ctx,
						   rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_write_overrun(struct kunit *ctx,
					      rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_reply_errs(struct kunit *ctx,
					   rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_bc_call(struct kunit *ctx,
					rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_bc_malformed(struct kunit *ctx,
					     rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_bc_over_credit(struct kunit *ctx,
					       rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_bc_no_service(struct kunit *ctx,
					      rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_v2_accepted(struct kunit *ctx,
					    rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_v2_fallback(struct kunit *ctx,
					    rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_v2_dropped_first(struct kunit *ctx,
						 rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_v2_first_cut_off(struct kunit *ctx,
						 rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_v2_errors(struct kunit *ctx,
					  rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_v2_props(struct kunit *ctx,
					 rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_v2_inv_handle(struct kunit *ctx,
					      rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_v2_backward(struct kunit *ctx,
					    rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_hot_trace(struct kunit *ctx,
					  rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_marshal_page_pieces(struct kunit *ctx,
					    rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
/* rpcrdmax_svc_server (kunit/cxx_svc_server_tests.cpp) */
void rpcrdmax_kunit_cxx_svcsrv_inline(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_trace_observes(struct kunit *ctx,
					    rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_inline_pages(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_read_chunk(struct kunit *ctx,
					  rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_nomsg(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_reply_chunk(struct kunit *ctx,
					   rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_readv(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_payload_too_big(struct kunit *ctx,
					       rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_write_chunk(struct kunit *ctx,
					   rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_reuse(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_setup(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_teardown_order(struct kunit *ctx,
					       rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_sq_close(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_recv_batch(struct kunit *ctx,
					  rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_in_place(struct kunit *ctx,
					rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_send_batch(struct kunit *ctx,
					  rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_send_ring(struct kunit *ctx,
					 rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_bc_call(struct kunit *ctx,
				       rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_bc_bad(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_credit_overrun(struct kunit *ctx,
					      rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_write_chunks(struct kunit *ctx,
					    rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_send_held(struct kunit *ctx,
					 rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_short_reply(struct kunit *ctx,
					   rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_v2(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_v2_capped(struct kunit *ctx,
					 rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_v2_peers(struct kunit *ctx,
					rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_res_beyond_next(struct kunit *ctx,
					       rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_res_pieces(struct kunit *ctx,
					  rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_settle(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_xdr_errors(struct kunit *ctx,
					  rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_read_stalled(struct kunit *ctx,
					  rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svcsrv_read_unflushed(struct kunit *ctx,
					    rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
/* rpcrdmax_svcrdma (kunit/cxx_svc_tests.cpp) */
void rpcrdmax_kunit_cxx_svc_accept(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svc_rw_read(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svc_rw_write(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svc_send_inv(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svc_inline_sges(struct kunit *ctx,
					rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svc_sq_wait(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_cxx_svc_budget(struct kunit *ctx, rpcrdmax_check_fn check) RPCRDMAX_NOEXCEPT;
struct rpcrdmax_kunit_xdr {
	unsigned int head_len;	/* head kvec octets */
	unsigned int page_base;	/* where the page data starts in the page list */
	unsigned int page_len;
	unsigned int tail_len;	/* tail kvec octets (after the head, same buffer) */
	bool ddp;		/* XDRBUF_WRITE (send) / XDRBUF_READ (receive) */
};
struct rpc_rqst *rpcrdmax_kunit_rqst_new(unsigned int xid, void *call, void *rcv,
			      const struct rpcrdmax_kunit_xdr *snd,
			      const struct rpcrdmax_kunit_xdr *rcvx) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_rqst_set_data_touch(struct rpc_rqst *rqst) RPCRDMAX_NOEXCEPT;
int rpcrdmax_kunit_rqst_page_pieces(struct rpc_rqst *rqst, bool rcv, unsigned int offset,
				    unsigned int len, struct rpcrdmax_page_seg *segs,
				    unsigned int max) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_rqst_free(struct rpc_rqst *rqst) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_mr_next_keys(const struct ib_mr *mr, unsigned int *lkey,
				 unsigned int *rkey) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_kunit_next_rkey(unsigned int rkey) RPCRDMAX_NOEXCEPT;
int rpcrdmax_kunit_rqst_write(struct rpc_rqst *rqst, bool rcv, unsigned int offset, const void *src,
			      unsigned int len) RPCRDMAX_NOEXCEPT;
int rpcrdmax_kunit_rqst_read(struct rpc_rqst *rqst, bool rcv, unsigned int offset, void *dst,
			     unsigned int len) RPCRDMAX_NOEXCEPT;
/* The transport a case's ClntEp reports to, and its backchannel slots. */
struct rpc_xprt *rpcrdmax_kunit_xprt_new(void *owner, unsigned int bc_slots,
					 unsigned int max_reqs) RPCRDMAX_NOEXCEPT;
/* The initial network namespace, where KUnit's loopback ids live. */
struct net *rpcrdmax_kunit_init_net(void) RPCRDMAX_NOEXCEPT;
void *rpcrdmax_kunit_xprt_owner(struct rpc_xprt *xprt) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_xprt_set_ep(struct rpc_xprt *xprt, struct rpcrdmax_clnt *ep) RPCRDMAX_NOEXCEPT;
unsigned long rpcrdmax_kunit_bc_maxpayload(struct rpc_xprt *xprt) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_kunit_xprt_free(struct rpc_xprt *xprt) RPCRDMAX_NOEXCEPT;
struct rpc_rqst *rpcrdmax_kunit_bc_wait(struct rpc_xprt *xprt, unsigned int ms) RPCRDMAX_NOEXCEPT;
int rpcrdmax_kunit_bc_call(struct rpc_rqst *rqst, void *dst, unsigned int max,
			   unsigned int *xid) RPCRDMAX_NOEXCEPT;
int rpcrdmax_kunit_bc_set_reply(struct rpc_rqst *rqst, const void *src,
				unsigned int len) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_bc_done(struct rpc_rqst *rqst) RPCRDMAX_NOEXCEPT;
/* The server's rdma_stat_* counters (rpcrdmax_svc_stats) for a case: made
 * zeroed (-ENOMEM), summed over the CPUs, freed. */
int rpcrdmax_kunit_svc_stats_on(void) RPCRDMAX_NOEXCEPT;
unsigned long long rpcrdmax_kunit_svc_stat(unsigned int which) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_svc_stats_off(void) RPCRDMAX_NOEXCEPT;
/* The client's xprtrdma_marshal (@reply false) and xprtrdma_reply events,
 * counted while watched. */
int rpcrdmax_kunit_watch_hot(bool on) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_kunit_hot(bool reply) RPCRDMAX_NOEXCEPT;
/* The client's xprtrdma_reply_*_err events, counted while watched. */
int rpcrdmax_kunit_watch_reply_errs(bool on) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_kunit_reply_errs(enum rpcrdmax_reply_err which,
				       unsigned int *xid) RPCRDMAX_NOEXCEPT;
/* The client's xprtrdma_err_chunk and _err_unrecognized events, counted
 * while watched (@err: the last rdma_err _err_unrecognized reported). */
int rpcrdmax_kunit_watch_rdma_errs(bool on) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_kunit_rdma_errs(bool unrecognized, unsigned int *err) RPCRDMAX_NOEXCEPT;
/* The server's svcrdma_small_wrch_err, counted while watched, with the
 * last one's remaining octets and segments. */
/* What the server's Replies posted, as its events show it: Sends and
 * their SGEs, chunk posts and their Send Queue entries, and the Write
 * list and Reply chunk segments svcrdma_encode_wseg showed (kunit/shims.c). */
struct rpcrdmax_kunit_svc_work {
	unsigned int sends, send_sges, chunk_posts, chunk_sqes, wsegs, wseg_octets;
};
int rpcrdmax_kunit_watch_svc_work(bool on, bool all) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_svc_work(struct rpcrdmax_kunit_svc_work *w) RPCRDMAX_NOEXCEPT;
int rpcrdmax_kunit_watch_small_wrch(bool on) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_kunit_small_wrch(unsigned int *remaining,
				       unsigned int *num_segs) RPCRDMAX_NOEXCEPT;
/*
 * What a transport frees on its device, in order, while watched: the
 * calling task's ib_destroy_qp_user, ib_free_cq, ib_dealloc_pd_user,
 * ib_dereg_mr_user and rdma_destroy_id (kprobes; -EOPNOTSUPP without
 * CONFIG_KPROBES).  The teardown_order cases check that the CM ID goes
 * last: rdma_cm's device removal waits for the IDs alone.
 */
enum rpcrdmax_kunit_free {
	RPCRDMAX_KUNIT_FREE_QP,
	RPCRDMAX_KUNIT_FREE_CQ,
	RPCRDMAX_KUNIT_FREE_PD,
	RPCRDMAX_KUNIT_FREE_MR,
	RPCRDMAX_KUNIT_FREE_ID,
	RPCRDMAX_KUNIT_FREE_KINDS,
};
/* Per kind: how many, and the order numbers (from 1) of the first and
 * the last of them (0: none). */
struct rpcrdmax_kunit_free_counts {
	unsigned int count[RPCRDMAX_KUNIT_FREE_KINDS];
	unsigned int first[RPCRDMAX_KUNIT_FREE_KINDS];
	unsigned int last[RPCRDMAX_KUNIT_FREE_KINDS];
};
int rpcrdmax_kunit_watch_frees(void) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_frees(struct rpcrdmax_kunit_free_counts *out) RPCRDMAX_NOEXCEPT;
/* svc_rqsts for the server suite. */
struct svc_rqst *rpcrdmax_kunit_svc_rqst_new(unsigned int npages) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_svc_rqst_free(struct svc_rqst *rqstp) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_kunit_svc_rqst_res_pages(struct svc_rqst *rqstp,
					       unsigned int *used) RPCRDMAX_NOEXCEPT;
int rpcrdmax_kunit_svc_rqst_reset(struct svc_rqst *rqstp) RPCRDMAX_NOEXCEPT;
int rpcrdmax_kunit_svc_rqst_arg(struct svc_rqst *rqstp, void *dst,
				unsigned int max) RPCRDMAX_NOEXCEPT;
bool rpcrdmax_kunit_svc_rqst_arg_in_pages(struct svc_rqst *rqstp) RPCRDMAX_NOEXCEPT;
int rpcrdmax_kunit_svc_rqst_reply(struct svc_rqst *rqstp, const void *src, unsigned int head,
				  unsigned int page_len, unsigned int tail) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_svc_rqst_next_back(struct svc_rqst *rqstp, unsigned int n) RPCRDMAX_NOEXCEPT;
struct page *rpcrdmax_kunit_svc_rqst_slot(struct svc_rqst *rqstp, int i) RPCRDMAX_NOEXCEPT;
struct page *rpcrdmax_kunit_svc_rqst_swap_slot(struct svc_rqst *rqstp, unsigned int i,
					       struct page *page) RPCRDMAX_NOEXCEPT;
int rpcrdmax_kunit_qp_error(struct ib_qp *qp) RPCRDMAX_NOEXCEPT;
int rpcrdmax_kunit_page_get(struct page *page) RPCRDMAX_NOEXCEPT;
int rpcrdmax_kunit_page_count(struct page *page) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kunit_page_put(struct page *page) RPCRDMAX_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* RPCRDMAX_KUNIT_H */
