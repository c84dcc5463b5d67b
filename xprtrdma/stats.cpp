// SPDX-License-Identifier: GPL-2.0
/*
 * xprtrdma/stats.cpp - the client's counters as sunrpc shows them: the
 * RDMA part of the mountstats "xprt: rdma" line, in stock's field order,
 * and every counter of the endpoint, a line each (debugfs).
 */
#include "xprtrdma.h"

namespace rpcrdmax::xprtrdma {

void ClntEp::print_stats(seq_file *seq)
{
	/* The RDMA part of the stock "xprt: rdma" line, same field order:
	 * read/write/reply segments, octets registered and received by RDMA, pull-up
	 * and fix-up copies, hardway registrations, failed marshals, bad
	 * replies, NOMSG calls; then MRs recycled, orphaned, allocated,
	 * LOCAL_INVs needed, empty send contexts, replies waiting for Send.
	 * Hardway registrations (the stock module's count of registered
	 * buffers reallocated larger) are always 0: buf_alloc allocates each
	 * request's buffers at the size sunrpc asks for, and Send and
	 * Receive buffers are fixed per connection.  Replies waiting for a
	 * Send: the stock module prints 0 in that column too. */
	Counters &s = stats;
	rpcrdmax_seq_printf(seq, "%d %d %d %lld %lld %lld %lld %u %d %d %d ", s.read_chunks.read(),
			    s.write_chunks.read(), s.reply_chunks.read(), s.request_bytes.read(),
			    s.reply_bytes.read(), s.pullup_bytes.read(), s.fixup_bytes.read(), 0,
			    s.failed_marshal.read(), s.bad_reply.read(), s.nomsg_calls.read());
	rpcrdmax_seq_printf(seq, "%d %u %d %d %d %u\n", s.mrs_recovered.read(), 0,
			    s.mrs_allocated.read(), s.local_inv_needed.read(),
			    s.empty_sendctx.read(), 0);
}

/*
 * Every counter, one "name value" line each (debugfs, shim/sunrpc/debugfs.c):
 * stock's rx_stats names where stock keeps the counter, then ours.
 */
void ClntEp::print_counters(seq_file *seq)
{
	Counters &s = stats;
	const struct {
		const char *name;
		long long value;
	} rows[] = {
		{ "read_chunk_count", s.read_chunks.read() },
		{ "write_chunk_count", s.write_chunks.read() },
		{ "reply_chunk_count", s.reply_chunks.read() },
		{ "total_rdma_request", s.request_bytes.read() },
		{ "total_rdma_reply", s.reply_bytes.read() },
		{ "pullup_copy_count", s.pullup_bytes.read() },
		{ "fixup_copy_count", s.fixup_bytes.read() },
		{ "failed_marshal_count", s.failed_marshal.read() },
		{ "bad_reply_count", s.bad_reply.read() },
		{ "nomsg_call_count", s.nomsg_calls.read() },
		{ "bcall_count", s.backchannel_calls.read() },
		{ "mrs_recycled", s.mrs_recovered.read() },
		{ "mrs_allocated", s.mrs_allocated.read() },
		{ "local_inv_needed", s.local_inv_needed.read() },
		{ "empty_sendctx_q", s.empty_sendctx.read() },
		/* not in stock */
		{ "bcall_reply_count", s.bc_replies.read() },
		{ "bcall_dropped_count", s.bc_dropped.read() },
		{ "send_error_count", s.send_errors.read() },
		{ "req_block_alloc_count", s.req_blocks.read() },
		{ "vers1_conn_count", s.vers1_conns.read() },
		{ "vers2_conn_count", s.vers2_conns.read() },
		{ "v2_error_count", s.v2_errors.read() },
		{ "v2_refused_count", s.v2_refused.read() },
		{ "bcall_v2_count", s.bc_v2_calls.read() },
		{ "local_inv_fenced_count", s.inv_fenced.read() },
		{ "late_call_count", s.late_calls.read() },
		{ "mrs_live", s.mrs_live.read() },
	};
	for (const auto &r : rows)
		rpcrdmax_seq_printf(seq, "%s %lld\n", r.name, r.value);
}

} // namespace rpcrdmax::xprtrdma

using rpcrdmax::xprtrdma::ClntEp;

/** rpcrdmax_clnt_print_counters - every counter of the endpoint, a line each */
extern "C" void rpcrdmax_clnt_print_counters(rpcrdmax_clnt *ep, seq_file *seq) noexcept
{
	static_cast<ClntEp *>(ep)->print_counters(seq);
}

/** rpcrdmax_clnt_print_stats - the RDMA counters of the mountstats line */
extern "C" void rpcrdmax_clnt_print_stats(rpcrdmax_clnt *ep, seq_file *seq) noexcept
{
	static_cast<ClntEp *>(ep)->print_stats(seq);
}
