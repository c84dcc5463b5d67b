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
	auto v = [this](ClntStat c) { return stats.read(c); };

	rpcrdmax_seq_printf(seq, "%lld %lld %lld %lld %lld %lld %lld %u %lld %lld %lld ",
			    v(ClntStat::ReadChunks), v(ClntStat::WriteChunks),
			    v(ClntStat::ReplyChunks), v(ClntStat::RequestBytes),
			    v(ClntStat::ReplyBytes), v(ClntStat::PullupBytes), v(ClntStat::FixupBytes),
			    0, v(ClntStat::FailedMarshal), v(ClntStat::BadReply),
			    v(ClntStat::NomsgCalls));
	rpcrdmax_seq_printf(seq, "%lld %u %lld %lld %lld %u\n", v(ClntStat::MrsRecovered), 0,
			    v(ClntStat::MrsAllocated), v(ClntStat::LocalInvNeeded),
			    v(ClntStat::EmptySendctx), 0);
}

/*
 * Every counter, one "name value" line each (debugfs, shim/sunrpc/debugfs.c):
 * stock's rx_stats names where stock keeps the counter, then ours.
 */
void ClntEp::print_counters(seq_file *seq)
{
	const Counters &s = stats;
	const struct {
		const char *name;
		long long value;
	} rows[] = {
		{ "read_chunk_count", s.read(ClntStat::ReadChunks) },
		{ "write_chunk_count", s.read(ClntStat::WriteChunks) },
		{ "reply_chunk_count", s.read(ClntStat::ReplyChunks) },
		{ "total_rdma_request", s.read(ClntStat::RequestBytes) },
		{ "total_rdma_reply", s.read(ClntStat::ReplyBytes) },
		{ "pullup_copy_count", s.read(ClntStat::PullupBytes) },
		{ "fixup_copy_count", s.read(ClntStat::FixupBytes) },
		{ "failed_marshal_count", s.read(ClntStat::FailedMarshal) },
		{ "bad_reply_count", s.read(ClntStat::BadReply) },
		{ "nomsg_call_count", s.read(ClntStat::NomsgCalls) },
		{ "bcall_count", s.read(ClntStat::BackchannelCalls) },
		{ "mrs_recycled", s.read(ClntStat::MrsRecovered) },
		{ "mrs_allocated", s.read(ClntStat::MrsAllocated) },
		{ "local_inv_needed", s.read(ClntStat::LocalInvNeeded) },
		{ "empty_sendctx_q", s.read(ClntStat::EmptySendctx) },
		/* not in stock */
		{ "bcall_reply_count", s.read(ClntStat::BcReplies) },
		{ "bcall_dropped_count", s.read(ClntStat::BcDropped) },
		{ "send_error_count", s.read(ClntStat::SendErrors) },
		{ "req_block_alloc_count", s.read(ClntStat::ReqBlocks) },
		{ "vers1_conn_count", s.read(ClntStat::Vers1Conns) },
		{ "vers2_conn_count", s.read(ClntStat::Vers2Conns) },
		{ "v2_error_count", s.read(ClntStat::V2Errors) },
		{ "v2_refused_count", s.read(ClntStat::V2Refused) },
		{ "bcall_v2_count", s.read(ClntStat::BcV2Calls) },
		{ "local_inv_fenced_count", s.read(ClntStat::InvFenced) },
		{ "late_call_count", s.read(ClntStat::LateCalls) },
		{ "mrs_live", s.read(ClntStat::MrsLive) },
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
