// SPDX-License-Identifier: GPL-2.0
/*
 * tools/hostile/cases.cpp - the fixed cases (cases.h).  The malformed
 * octets are written out word by word; valid headers come from the
 * project's protocol core.
 */
/* rpcrdmax headers first: hosted headers define errno and limit macros
 * (EPERM, SIZE_MAX) that collide with ktl names. */
#include <rpcrdmax/core/v1.h>

#include "cases.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hostile {

namespace core = rpcrdmax::core;
namespace ktl = rpcrdmax::ktl;

Bytes v1_msg_header(uint32_t xid)
{
	static core::V1Header h;
	memset(&h, 0, sizeof(h));
	h.xid = xid;
	h.vers = core::kRpcRdmaVersion1;
	h.credits = kCreditsAsked;
	h.proc = core::V1Proc::Msg;
	h.chunks.clear();
	uint8_t buf[64];
	auto r = core::v1_encode(h, ktl::Bytes(buf, sizeof(buf)));
	if (r.is_error()) {
		fprintf(stderr, "hostile: v1_encode failed (%d)\n", r.error().code());
		exit(255);
	}
	return Bytes(buf, buf + r.value());
}

Bytes null_msg(uint32_t xid, size_t total)
{
	W w;
	w.raw(v1_msg_header(xid)).raw(rpc_null_call(xid));
	if (total)
		w.pad_to(total);
	return w.b;
}

/* ---- the cases ------------------------------------------------------------ */

namespace {

/* Fixed words of an RDMA_MSG header; the chunk lists follow. */
W hdr(const Ctx &c, uint32_t vers = 1, uint32_t proc = 0)
{
	W w;
	w.u32(c.xid).u32(vers).u32(kCreditsAsked).u32(proc);
	return w;
}

Bytes call(const Ctx &c) { return rpc_null_call(c.xid); }

/* -- version (RFC 8166 Section 4.5.1 / RFC 5666 Section 4.2: ERR_VERS) -- */
Bytes b_vers0(const Ctx &c) { return hdr(c, 0).u32(0).u32(0).u32(0).raw(call(c)).b; }
Bytes b_vers7(const Ctx &c) { return hdr(c, 7).u32(0).u32(0).u32(0).raw(call(c)).b; }
Bytes b_versmax(const Ctx &c) { return hdr(c, 0xffffffff).u32(0).u32(0).u32(0).raw(call(c)).b; }
/* version 2 with nothing after the fixed words: ERR_VERS from a version 1
 * Responder; RDMA2_ERR_BAD_XDR from a version 2 one */
Bytes b_vers2_bare(const Ctx &c) { return hdr(c, 2, 0).b; }

/* -- version 2 (draft-cel-nfsv4-rpcrdma-version-two-04): a version 1
 *    Responder answers each with ERR_VERS (Section 7.2) -- */
constexpr uint32_t kV2ConnProp = 6, kV2ReqProp = 7, kV2Optional = 5;
/* a NULL Call in version 2: RDMA2_MSG, direction CALL, inv_handle,
 * empty lists (Section 6.2) */
Bytes v2_null(const Ctx &c, uint32_t inv)
{
	return hdr(c, 2, 0).u32(0).u32(inv).u32(0).u32(0).u32(0).raw(call(c)).b;
}
Bytes b_v2_null(const Ctx &c) { return v2_null(c, 0); }
/* Section 6.2.3: an rdma_inv_handle naming no handle of the Call's; the
 * Reply must not invalidate it (it is ignored) */
Bytes b_v2_foreign_inv(const Ctx &c) { return v2_null(c, 0xdeadbeef); }
/* Section 5.3.1: a CONNPROP whose RBSIZ value claims 64 octets of 4 */
Bytes b_v2_connprop_badlen(const Ctx &c)
{
	return hdr(c, 2, kV2ConnProp).u32(1).u32(1 /* RBSIZ */).u32(64).u32(4096).u32(0).b;
}
/* Section 5.2.1: an absurd Receive size (1 octet, then 4 GiB); noted,
 * bounded, never answered */
Bytes b_v2_rbsiz_tiny(const Ctx &c)
{
	return hdr(c, 2, kV2ConnProp).u32(1).u32(1).u32(4).u32(1).u32(0).b;
}
Bytes b_v2_rbsiz_huge(const Ctx &c)
{
	return hdr(c, 2, kV2ConnProp).u32(1).u32(1).u32(4).u32(0xffffffff).u32(0).b;
}
/* Section 5.3: REQPROP, and an RDMA2_OPTIONAL of a type nobody knows:
 * RDMA2_ERR_INVAL_OPTION from a Responder without them */
Bytes b_v2_reqprop(const Ctx &c)
{
	return hdr(c, 2, kV2ReqProp).u32(1).u32(1).u32(4).u32(65536).b;
}
Bytes b_v2_optional_unknown(const Ctx &c)
{
	return hdr(c, 2, kV2Optional).u32(0).u32(0x77777777).u32(0).b;
}

/* -- procedures -- */
/* RDMA_MSGP (RFC 5666 4.3: align, thresh, lists, message) */
Bytes b_msgp(const Ctx &c)
{
	return hdr(c, 1, 2).u32(4).u32(1024).u32(0).u32(0).u32(0).raw(call(c)).b;
}
Bytes b_done(const Ctx &c) { return hdr(c, 1, 3).b; }
Bytes b_error_chunk(const Ctx &c) { return hdr(c, 1, 4).u32(2).b; }
Bytes b_error_vers(const Ctx &c) { return hdr(c, 1, 4).u32(1).u32(1).u32(1).b; }
Bytes b_proc5(const Ctx &c) { return hdr(c, 1, 5).u32(0).u32(0).u32(0).raw(call(c)).b; }
Bytes b_procmax(const Ctx &c) { return hdr(c, 1, 0xffffffff).u32(0).u32(0).u32(0).raw(call(c)).b; }

/* -- truncated headers -- */
Bytes b_short0(const Ctx &) { return {}; }
Bytes b_short3(const Ctx &c) { return hdr(c).cut(3).b; }
Bytes b_short8(const Ctx &c) { return hdr(c).cut(8).b; }
Bytes b_short15(const Ctx &c) { return hdr(c).cut(15).b; }
Bytes b_fixed_only(const Ctx &c) { return hdr(c).b; }
/* Read list entry cut after position and handle */
Bytes b_trunc_read(const Ctx &c) { return hdr(c).u32(1).u32(40).u32(c.rkey).b; }
/* Write chunk claiming 4 segments, carrying 1 */
Bytes b_trunc_write(const Ctx &c)
{
	return hdr(c).u32(0).u32(1).u32(4).seg(c.rkey, 64, c.area).b;
}
/* Reply chunk claiming 2 segments, carrying 1 */
Bytes b_trunc_reply(const Ctx &c)
{
	return hdr(c).u32(0).u32(0).u32(1).u32(2).seg(c.rkey, 1024, c.area).b;
}
/* RDMA_MSG with lists but no RPC message */
Bytes b_msg_empty(const Ctx &c) { return hdr(c).u32(0).u32(0).u32(0).b; }
/* RDMA_NOMSG without any chunk: nowhere to find the Call */
Bytes b_nomsg_empty(const Ctx &c) { return hdr(c, 1, 1).u32(0).u32(0).u32(0).b; }

/* -- RFC 8166 Section 4.5.2's third example: an rdma_xid other than the
 *    RPC message's XID -- */
/* RDMA_MSG: a NULL Call inline, with another XID */
Bytes b_xid_mismatch(const Ctx &c)
{
	return hdr(c).u32(0).u32(0).u32(0).raw(rpc_null_call(c.xid ^ 0x10000u)).b;
}
/* RDMA_NOMSG: the Position Zero Read chunk holds our area's octets (all
 * 0x5a), whose first word is no XID of ours */
Bytes b_nomsg_xid_mismatch(const Ctx &c)
{
	return hdr(c, 1, 1).rseg(0, c.rkey, kRpcCallLen, c.area).u32(0).u32(0).u32(0).b;
}

/* -- the same examples in version 2 (the draft's Section 6.2.4 keeps
 *    version 1's handling: RDMA2_ERR_INVALID_PROC, RDMA2_ERR_BAD_XDR; a
 *    version 1 Responder answers ERR_VERS) -- */
/* direction CALL, no inv_handle, then the lists */
W v2_hdr(const Ctx &c, uint32_t proc)
{
	return hdr(c, 2, proc).u32(0).u32(0);
}
Bytes b_v2_proc_99(const Ctx &c) { return v2_hdr(c, 99).u32(0).u32(0).u32(0).raw(call(c)).b; }
Bytes b_v2_nomsg_empty(const Ctx &c) { return v2_hdr(c, 1).u32(0).u32(0).u32(0).b; }
Bytes b_v2_xid_mismatch(const Ctx &c)
{
	return v2_hdr(c, 0).u32(0).u32(0).u32(0).raw(rpc_null_call(c.xid ^ 0x10000u)).b;
}
Bytes b_v2_nomsg_xid_mismatch(const Ctx &c)
{
	return v2_hdr(c, 1).rseg(0, c.rkey, kRpcCallLen, c.area).u32(0).u32(0).u32(0).b;
}

/* -- XDR discriminators other than 0 or 1 (RFC 4506 optional-data) -- */
/* Read list "present" word 2 in front of a well-formed entry that points
 * at our readable region: a server that takes 2 as TRUE pulls 8 octets
 * and processes the NULL Call. */
Bytes b_discrim_read(const Ctx &c)
{
	return hdr(c).u32(2).u32(kRpcCallLen).seg(c.rkey, 8, c.area).u32(0).u32(0).u32(0)
		.raw(call(c)).b;
}

/* -- chunk and segment counts that overflow -- */
Bytes b_wsegs_max(const Ctx &c) { return hdr(c).u32(0).u32(1).u32(0xffffffff).b; }
/* 0x10000000 segments: 0x10000000 * 16 octets wraps 32 bits to 0 */
Bytes b_wsegs_wrap(const Ctx &c)
{
	return hdr(c).u32(0).u32(1).u32(0x10000000).seg(c.rkey, 64, c.area).u32(0).u32(0)
		.raw(call(c)).b;
}
Bytes b_rsegs_wrap(const Ctx &c)
{
	return hdr(c).u32(0).u32(0).u32(1).u32(0x10000000).seg(c.rkey, 1024, c.area)
		.raw(call(c)).b;
}
/* a Read list that is never terminated and fills the receive buffer */
Bytes b_read_unterminated(const Ctx &c)
{
	W w = hdr(c);
	while (w.b.size() + 28 <= c.threshold)
		w.rseg(kRpcCallLen, c.rkey, 8, c.area);
	return w.b;
}
/* two Read segments of 2 GiB each: 32-bit sum wraps to zero */
Bytes b_read_len_wrap(const Ctx &c)
{
	return hdr(c).rseg(kRpcCallLen, c.rkey, 0x80000000u, c.area)
		.rseg(kRpcCallLen, c.rkey, 0x80000000u, c.area).u32(0).u32(0).u32(0)
		.raw(call(c)).b;
}
/* 100 Write chunks of one segment each */
Bytes b_many_write_chunks(const Ctx &c)
{
	W w = hdr(c).u32(0);
	for (int i = 0; i < 100; i++)
		w.u32(1).u32(1).seg(c.rkey, 64, c.area + 64 * i);
	return w.u32(0).u32(0).raw(call(c)).b;
}
/* one Read chunk of 100 segments (all valid, 8 octets each) */
Bytes b_many_read_segs(const Ctx &c)
{
	W w = hdr(c);
	for (int i = 0; i < 100; i++)
		w.rseg(kRpcCallLen, c.rkey, 8, c.area + 8 * i);
	return w.u32(0).u32(0).u32(0).raw(call(c)).b;
}

/* -- lengths and offsets past any buffer -- */
Bytes b_read_len_past(const Ctx &c)
{
	return hdr(c).rseg(kRpcCallLen, c.rkey, kAreaSize + 4096, c.area).u32(0).u32(0).u32(0)
		.raw(call(c)).b;
}
Bytes b_read_off_past(const Ctx &c)
{
	return hdr(c).rseg(kRpcCallLen, c.rkey, 8, c.area + kAreaSize).u32(0).u32(0).u32(0)
		.raw(call(c)).b;
}
Bytes b_read_bad_handle(const Ctx &c)
{
	return hdr(c).rseg(kRpcCallLen, c.rkey ^ 0x5a5a5a00u, 8, c.area).u32(0).u32(0).u32(0)
		.raw(call(c)).b;
}
Bytes b_read_off_wrap(const Ctx &c)
{
	return hdr(c).rseg(kRpcCallLen, c.rkey, 16, 0xfffffffffffffff8ull).u32(0).u32(0).u32(0)
		.raw(call(c)).b;
}
Bytes b_reply_bad_handle(const Ctx &c)
{
	return hdr(c).u32(0).u32(0).u32(1).u32(1).seg(c.rkey ^ 0x5a5a5a00u, 1024, c.area)
		.raw(call(c)).b;
}
Bytes b_reply_off_past(const Ctx &c)
{
	return hdr(c).u32(0).u32(0).u32(1).u32(1).seg(c.rkey, 1024, c.area + kAreaSize)
		.raw(call(c)).b;
}

/* -- Read chunk positions (RFC 8166 Section 3.4.5) -- */
Bytes b_pos_misaligned(const Ctx &c)
{
	return hdr(c).rseg(2, c.rkey, 8, c.area).u32(0).u32(0).u32(0).raw(call(c)).b;
}
Bytes b_pos_past(const Ctx &c)
{
	return hdr(c).rseg(4096, c.rkey, 8, c.area).u32(0).u32(0).u32(0).raw(call(c)).b;
}
/* chunk at 8 occupies XDR octets 8..16; a chunk at 12 overlaps it */
Bytes b_pos_overlap(const Ctx &c)
{
	return hdr(c).rseg(8, c.rkey, 8, c.area).rseg(12, c.rkey, 8, c.area + 8)
		.u32(0).u32(0).u32(0).raw(call(c)).b;
}

/* -- inline size -- */
Bytes b_inline_at(const Ctx &c) { return null_msg(c.xid, c.threshold); }
Bytes b_inline_over(const Ctx &c) { return null_msg(c.xid, c.threshold + 4); }
Bytes b_inline_huge(const Ctx &c) { return null_msg(c.xid, 256 * 1024 + 4); }

/* -- backward direction (RFC 8167): RPC Replies arriving at the server -- */
/* an accepted NULL Reply: XID, REPLY, MSG_ACCEPTED, verifier AUTH_NONE, SUCCESS */
Bytes rpc_null_reply(uint32_t xid)
{
	W w;
	w.u32(xid).u32(1).u32(0).u32(0).u32(0).u32(0);
	return w.b;
}
/* a backward Reply to a Call the server never sent (and on a connection
 * that has no backchannel) */
Bytes b_bc_reply_stray(const Ctx &c)
{
	return hdr(c).u32(0).u32(0).u32(0).raw(rpc_null_reply(c.xid)).b;
}
/* a backward Reply with a Write chunk, to a server that offers no chunks
 * in its backward Calls (RFC 8167 allows them; no upper layer uses them) */
Bytes b_bc_reply_chunk(const Ctx &c)
{
	return hdr(c).u32(0).u32(1).u32(1).seg(c.rkey, 64, c.area).u32(0).u32(0)
		.raw(rpc_null_reply(c.xid)).b;
}
/* a Reply cut after its XID and direction */
Bytes b_bc_reply_short(const Ctx &c) { return hdr(c).u32(0).u32(0).u32(0).u32(c.xid).u32(1).b; }

const char *const kDevStaleXid =
	"stock sends ERR_CHUNK for a Send shorter than 16 octets, copying "
	"XID and version from whatever its receive buffer held before "
	"(svc_rdma_send_error_msg on out_short)";

const char *const kDevNoCheck =
	"stock hands the RPC layer whatever the transport header comes with: "
	"an empty message, or one whose XID is not rdma_xid (svc_rdma_recvfrom "
	"compares neither)";

const char *const kDevShortAnswered =
	"stock answers a Call shorter than the 28-octet minimal header with "
	"ERR_CHUNK (svc_rdma_xdr_decode_req: out_short, or the fixed words "
	"decoded and the chunk lists missing)";

} // namespace

const Case kCases[] = {
	/* name, build, RFC-allowed, stock extra, why, XID readable */
	{"vers-0", b_vers0, O_ERRVERS, 0, nullptr, true},
	{"vers-7", b_vers7, O_ERRVERS, 0, nullptr, true},
	{"vers-max", b_versmax, O_ERRVERS, 0, nullptr, true},
	{"vers-2-bare", b_vers2_bare, kV2Any, 0, nullptr, true},
	{"v2-null", b_v2_null, O_ERRVERS | O_REPLY, 0, nullptr, true},
	{"v2-foreign-inv-handle", b_v2_foreign_inv, O_ERRVERS | O_REPLY, 0, nullptr, true},
	{"v2-connprop-badlen", b_v2_connprop_badlen, kV2Any, 0, nullptr, true},
	{"v2-rbsiz-tiny", b_v2_rbsiz_tiny, O_ERRVERS | O_DROP, 0, nullptr, true},
	{"v2-rbsiz-huge", b_v2_rbsiz_huge, O_ERRVERS | O_DROP, 0, nullptr, true},
	{"v2-reqprop", b_v2_reqprop, kV2Any, 0, nullptr, true},
	{"v2-optional-unknown", b_v2_optional_unknown, kV2Any, 0, nullptr, true},

	/* RFC 8166 4.6.1: RDMA_MSGP is retired; Responders SHOULD answer
	 * ERR_CHUNK - SHOULD, so a drop is allowed too.  4.6.2: receivers
	 * MUST silently discard RDMA_DONE. */
	{"proc-msgp", b_msgp, O_ERRCHUNK | O_DROP, 0, nullptr, true},
	{"proc-done", b_done, O_DROP, 0, nullptr, true},
	/* RDMA_ERROR answers a Call and is never answered itself */
	{"proc-error-chunk", b_error_chunk, O_DROP, 0, nullptr, true},
	{"proc-error-vers", b_error_vers, O_DROP, 0, nullptr, true},
	/* unknown rdma_proc: an XDR error in a Call, ERR_CHUNK */
	{"proc-5", b_proc5, O_ERRCHUNK, 0, nullptr, true},
	{"proc-max", b_procmax, O_ERRCHUNK, 0, nullptr, true},

	/* no XID in the message: nothing can be answered */
	{"short-0", b_short0, O_DROP, O_OTHER, kDevStaleXid, false},
	{"short-3", b_short3, O_DROP, O_OTHER, kDevStaleXid, false},
	/* shorter than the 28-octet minimal header: the XID cannot be
	 * trusted, silently discarded (RFC 8166 4.5) */
	{"short-8", b_short8, O_DROP, O_ERRCHUNK, kDevShortAnswered, true},
	{"short-15", b_short15, O_DROP, O_ERRCHUNK, kDevShortAnswered, true},
	{"fixed-only", b_fixed_only, O_DROP, O_ERRCHUNK, kDevShortAnswered, true},
	{"trunc-read-entry", b_trunc_read, O_ERRCHUNK, 0, nullptr, true},
	{"trunc-write-chunk", b_trunc_write, O_ERRCHUNK, 0, nullptr, true},
	{"trunc-reply-chunk", b_trunc_reply, O_ERRCHUNK, 0, nullptr, true},
	/* the lists parse; the RPC message is missing: ERR_CHUNK for the
	 * transport (RFC 8166 4.5), or the RPC layer discards it */
	{"msg-no-rpc", b_msg_empty, O_ERRCHUNK | O_DROP, 0, nullptr, true},
	/* RFC 8166 4.5.2's examples of XDR errors a Responder MUST answer
	 * with ERR_CHUNK: an invalid rdma_proc (proc-5, proc-max above), an
	 * RDMA_NOMSG with no chunk, an rdma_xid that is not the RPC
	 * message's (inline, or in a Long Call's chunk); each in version 2
	 * too */
	{"nomsg-no-chunk", b_nomsg_empty, O_ERRCHUNK, O_DROP, kDevNoCheck, true},
	{"xid-mismatch", b_xid_mismatch, O_ERRCHUNK, O_REPLY | O_DROP | O_OTHER, kDevNoCheck, true},
	{"nomsg-xid-mismatch", b_nomsg_xid_mismatch, O_ERRCHUNK, O_REPLY | O_DROP | O_CLOSED | O_OTHER,
	 kDevNoCheck, true},
	{"v2-proc-99", b_v2_proc_99, kV2Any, 0, nullptr, true},
	{"v2-nomsg-no-chunk", b_v2_nomsg_empty, kV2Any, 0, nullptr, true},
	{"v2-xid-mismatch", b_v2_xid_mismatch, kV2Any, 0, nullptr, true},
	{"v2-nomsg-xid-mismatch", b_v2_nomsg_xid_mismatch, kV2Any, 0, nullptr, true},

	{"discrim-2", b_discrim_read, O_ERRCHUNK, O_REPLY,
	 "stock treats any non-zero optional-data word as TRUE "
	 "(xdr_item_is_present)", true},

	{"write-segcount-max", b_wsegs_max, O_ERRCHUNK, 0, nullptr, true},
	{"write-segcount-wrap", b_wsegs_wrap, O_ERRCHUNK, 0, nullptr, true},
	{"reply-segcount-wrap", b_rsegs_wrap, O_ERRCHUNK, 0, nullptr, true},
	{"read-list-unterminated", b_read_unterminated, O_ERRCHUNK, 0, nullptr, true},
	{"read-length-wrap", b_read_len_wrap, kFault, 0, nullptr, true},
	/* RFC 8166 sets no limit on chunks or segments: processing them is
	 * allowed, and so is refusing what the Responder cannot handle */
	{"many-write-chunks", b_many_write_chunks, O_ERRCHUNK | O_REPLY, 0, nullptr, true},
	{"many-read-segments", b_many_read_segs, O_ERRCHUNK | O_REPLY, 0, nullptr, true},

	{"read-length-past-mr", b_read_len_past, kFault, 0, nullptr, true},
	{"read-offset-past-mr", b_read_off_past, kFault, 0, nullptr, true},
	{"read-bad-handle", b_read_bad_handle, kFault, 0, nullptr, true},
	{"read-offset-wrap", b_read_off_wrap, kFault, 0, nullptr, true},
	/* the Responder may also send a short Reply inline instead of
	 * using the Reply chunk (RFC 8166 3.5.3) */
	{"reply-bad-handle", b_reply_bad_handle, kFault | O_REPLY, 0, nullptr, true},
	{"reply-offset-past-mr", b_reply_off_past, kFault | O_REPLY, 0, nullptr, true},

	{"pos-misaligned", b_pos_misaligned, O_ERRCHUNK, 0, nullptr, true},
	{"pos-past-message", b_pos_past, O_ERRCHUNK, 0, nullptr, true},
	{"pos-overlap", b_pos_overlap, O_ERRCHUNK, 0, nullptr, true},

	/* exactly the inline threshold: must be processed */
	{"inline-at-threshold", b_inline_at, O_REPLY, 0, nullptr, true},
	/* past the threshold the RFCs only say the receiver MAY break the
	 * connection (RFC 5666 Section 6); any answer is allowed so long as
	 * the server keeps serving (checked after every case) */
	{"inline-over-threshold", b_inline_over, kAny, 0, nullptr, true},
	{"inline-256k", b_inline_huge, kAny, 0, nullptr, true},

	/* RFC 8167: a Reply no backward Call is waiting for is discarded;
	 * the forward direction keeps working (checked after every case) */
	{"bc-reply-stray", b_bc_reply_stray, O_DROP, 0, nullptr, true},
	{"bc-reply-chunk", b_bc_reply_chunk, O_DROP | O_ERRCHUNK, 0, nullptr, true},
	{"bc-reply-short", b_bc_reply_short, O_DROP, 0, nullptr, true},
};

const size_t kCaseCount = sizeof(kCases) / sizeof(kCases[0]);

} // namespace hostile
