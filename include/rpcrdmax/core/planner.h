/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/planner.h - choose how an RPC travels: inline or in chunks.
 *
 * A requester decides, before sending a Call, both how the Call goes and
 * which chunks it offers for the Reply (RFC 8166 Sections 3.4 and 3.5):
 *
 *  Call (bounded by the call inline threshold):
 *   - Inline:            RDMA_MSG, the whole Call follows the header.
 *   - ReadChunk:         RDMA_MSG, the DDP-eligible argument moves in a
 *                        Read chunk at its XDR position; its XDR round-up
 *                        is neither in the chunk nor inline (RFC 8166
 *                        Section 3.4.5).
 *   - LongCall:          RDMA_NOMSG, the whole Call in a Position Zero
 *                        Read chunk (Section 3.5.3.1).
 *   - LongCallReadChunk: RDMA_NOMSG, the Call less its DDP-eligible
 *                        argument in the Position Zero Read chunk, and
 *                        the argument in its own Read chunk (Section 3.5.4).
 *  Reply (bounded by the reply inline threshold; the largest possible
 *  Reply is what counts, since the requester must decide in advance):
 *   - Inline:             no chunks.
 *   - WriteChunk:         the DDP-eligible result lands in a Write chunk;
 *                         no round-up is written (Section 3.4.6).
 *   - ReplyChunk:         the whole Reply may be Long: a Reply chunk
 *                         (Section 3.5.3.2).
 *   - WriteAndReplyChunk: both.
 *
 * The transport header's own size counts against the threshold, and it
 * grows with every segment: the planner sizes it exactly.
 *
 * Messages are described like the kernel's xdr_buf: a head, a page list
 * and a tail, each with the in-page offset of its first octet.  Every
 * chunk is split into segments: an extent (head, pages or tail) is
 * never merged with another; within an extent a segment covers at most
 * one registration, pages_per_mr pages, the first one shortened by the
 * extent's page offset.
 *
 * A pure function: no allocation, no state; the Plan is caller storage
 * (about 1.6 KiB - not for a kernel stack).
 */
#pragma once

#include <rpcrdmax/core/wire.h>
#include <rpcrdmax/core/v1.h>
#include <rpcrdmax/core/v2.h>

namespace rpcrdmax::core {

struct Extent {
	u32 len;
	u32 page_offset; /* offset of the first octet within its page */
};

/*
 * The XDR stream of one RPC message: head, then @pages (followed by
 * @pad octets of XDR round-up), then tail.  With @ddp, @pages is one
 * DDP-eligible data item (RFC 8166 Section 3.4.2): @head.len must then
 * be a non-zero multiple of four and @pad equal to its round-up.  When the
 * whole stream lands in one chunk, the round-up is counted with the
 * tail extent (as the kernel keeps it at the start of the tail).
 */
struct MsgShape {
	Extent head;
	Extent pages;
	u32 pad;
	Extent tail;
	bool ddp;
};

struct PlanParams {
	u32 call_threshold;	    /* requester -> responder inline threshold */
	u32 reply_threshold;	    /* responder -> requester inline threshold */
	u32 max_segments_per_chunk; /* registration limit per chunk */
	u32 pages_per_mr;	    /* pages one registration maps */
	u32 page_size;		    /* a power of two, e.g. 4096 */
	bool ddp_allowed;	    /* false e.g. under RPCSEC_GSS integrity */
	u32 vers;		    /* the Call's RPC-over-RDMA version, 1 or 2 */
};

enum class CallForm : u8 { Inline, ReadChunk, LongCall, LongCallReadChunk };
enum class ReplyForm : u8 { Inline, WriteChunk, ReplyChunk, WriteAndReplyChunk };

enum class ExtentId : u8 { Head, Pages, Tail };

struct PlannedSegment {
	ExtentId extent;
	u32 offset; /* within the extent */
	u32 length;
};

inline constexpr u32 kPlanMaxSegs = 32;

struct PlannedChunk {
	u32 position; /* XDR position (Read chunks); 0 otherwise */
	u32 length;   /* sum of the segment lengths */
	u32 nsegs;
	PlannedSegment segs[kPlanMaxSegs];
};

/*
 * A chunk's fields mean something only while its has_ flag is set:
 * plan_rpc() empties the others, the plan_one_*() shortcuts leave them
 * as they were.
 */
struct Plan {
	V1Proc proc;	       /* RDMA_MSG or RDMA_NOMSG for the Call */
	CallForm call;
	ReplyForm reply;
	u32 call_hdr_len;      /* exact transport header octets of the Call */
	u32 call_inline_len;   /* RPC octets after it in the Send (0 if Long) */
	u32 reply_hdr_len;     /* largest header the responder will send back */
	u32 reply_inline_max;  /* largest RPC octets it may Send inline */
	bool has_call_chunk, has_read, has_write, has_reply;
	PlannedChunk call_chunk; /* Position Zero Read chunk */
	PlannedChunk read;	 /* DDP-eligible argument */
	PlannedChunk write;	 /* DDP-eligible result */
	PlannedChunk reply_chunk;
};

enum class PlanError : u8 {
	None,
	BadParams,	 /* zero sizes, page size not a power of two */
	BadShape,	 /* DDP item misaligned, pad inconsistent, > 4 GiB */
	TooManySegments, /* a chunk needs more segments than allowed */
	HeaderTooLarge,	 /* the transport header alone exceeds a threshold */
};

/* Plan a Call described by @call whose Reply may be as large as @reply. */
PlanError plan_rpc(const MsgShape &call, const MsgShape &reply,
		   const PlanParams &params, Plan *out);

/*
 * Whether a Call of @call_len octets and a Reply of at most @reply_len
 * both fit inline in version @vers under @call_threshold and
 * @reply_threshold (RFC 8166 Section 3.3.2: the threshold holds the
 * whole Send, a chunkless header included), as plan_rpc() would plan
 * them; false for an unknown version.  Such an RPC needs no plan.
 */
constexpr bool fits_inline(u64 call_len, u64 reply_len, u32 call_threshold, u32 reply_threshold,
			   u32 vers)
{
	return (vers == kRpcRdmaVersion1 || vers == kRpcRdmaVersion2) &&
	       min_header_size(vers) + call_len <= call_threshold &&
	       min_header_size(vers) + reply_len <= reply_threshold;
}

/*
 * The plan of an RPC whose whole Call (@call_len octets: the length of
 * its stream, which is all these shortcuts need of it, as a Call that
 * goes inline needs no offsets) fits inline and whose Reply's
 * DDP-eligible result fits one registration, the rest of the Reply
 * fitting inline beside one Write chunk of one segment (a READ of up to
 * pages_per_mr pages): what plan_rpc() gives it, with less of the
 * general walk.  False, with @out untouched, for any other RPC:
 * plan_rpc() decides then.
 */
bool plan_one_write(u64 call_len, const MsgShape &reply, const PlanParams &params, Plan *out);

/*
 * The plan of an RPC whose whole Call (@call_len octets) fits inline and
 * whose Reply buffer is one head that may not fit inline, no page list
 * and no tail (an NFSv4 GETATTR on recent kernels, whose largest
 * possible Reply passes the inline threshold): a Reply chunk of one
 * segment covering the head, which fits one registration.  What
 * plan_rpc() gives it, without the general walk.  False, with @out
 * untouched, for any other RPC: plan_rpc() decides then.
 */
bool plan_one_reply(u64 call_len, const MsgShape &reply, const PlanParams &params, Plan *out);

const char *plan_error_name(PlanError e);

/*
 * Where a Reply's inline octets go when its DDP-eligible result came in
 * a Write chunk (RFC 8166 Section 3.4.6): the responder sends neither
 * the result nor its XDR round-up inline, and the result is already in
 * the receive buffer's page list.  Of the @len inline octets, those the
 * head has room for (@head_room) fill the head; the rest go to the tail,
 * after @ddp_len's round-up (zeroed).  The RPC layer then counts
 * @len plus the result and its round-up.
 */
struct ReplyPlacement {
	u32 head;    /* inline octets into the head */
	u32 pad;     /* zero octets at the tail's start */
	u32 rest;    /* inline octets into the tail, after the pad */
	u32 rpc_len; /* the Reply's length as the RPC layer counts it */
};

/* False when the result or the rest do not fit the buffer (@ddp_len more
 * than @page_len, the pad and the rest more than @tail_room), or the
 * length overflows; @ddp_len must not be 0. */
bool place_reply_around_ddp(u32 head_room, u32 page_len, u32 tail_room, u32 len, u32 ddp_len,
			    ReplyPlacement *out);

} // namespace rpcrdmax::core
