/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/responder.h - how a responder reassembles a Call (RFC 8166
 * Sections 3.5.2 and 3.5.3.1) and sends a Reply (Sections 3.4.6 and
 * 3.5.3.2).
 *
 * The Reply is described like the kernel's xdr_buf: head, page list,
 * tail, plus the results the upper layer marked DDP-eligible (nfsd's
 * svc_encode_result_payload: READ data, READLINK target), in the order
 * it encoded them.  The i-th such result goes into the i-th Write chunk
 * the requester offered (each Write list element provides buffers for a
 * separate result: RFC 5666 Section 3.4) when that chunk can hold it;
 * its XDR round-up - the up to three octets after it - is then sent
 * neither in the chunk nor inline, as the stock Linux peers do and expect
 * (RFC 5666 Section 3.7 counted it in the chunk's length instead).  What
 * is left (the body) goes inline after the transport header when both
 * fit the reply inline threshold, else into the Reply chunk (RDMA_NOMSG),
 * else the Reply has no room (the responder answers with
 * RDMA_ERROR/ERR_CHUNK).  Every Write
 * chunk of the Call is echoed with the octets written in it (none for a
 * chunk no result went into).
 *
 * A pure function: no allocation, no state.
 */
#pragma once

#include <rpcrdmax/core/v1.h>
#include <rpcrdmax/core/v2.h>
#include <rpcrdmax/core/wire.h>

namespace rpcrdmax::core {

/*
 * A Call's RPC message is its inline octets - the Receive's payload
 * after the transport header, or for RDMA_NOMSG the Position Zero Read
 * chunk (a Long Call) - with every other Read chunk's data inserted at
 * its position and followed by its XDR round-up, which the requester
 * sends neither inline nor in the chunk.  Positions count octets of the
 * reassembled message, so each one lies past the previous chunk's
 * round-up.  v1_layout_call lists the message's pieces in order; the
 * responder RDMA Reads the Chunk pieces (and, for RDMA_NOMSG, the
 * Inline ones, from the Position Zero chunk), copies the Inline ones
 * (RDMA_MSG) and zeroes the Pad ones.
 */
enum class CallPieceKind : u8 {
	Inline, /* inline octets [src, src + len) */
	Chunk,	/* all of Read chunk @chunk */
	Pad,	/* @len zero octets: the round-up of the chunk before */
};

struct CallPiece {
	CallPieceKind kind;
	u8 chunk; /* Chunk: its index in the Read list */
	u32 src;  /* Inline: offset in the inline octets */
	u32 len;
};

inline constexpr u32 kCallMaxPieces = 3 * kMaxChunksCap + 1;

struct CallLayout {
	u32 npieces;
	u32 len;	      /* of the reassembled message */
	bool from_call_chunk; /* the inline octets are Read chunk 0 (RDMA_NOMSG) */
	CallPiece pieces[kCallMaxPieces];
};

enum class CallLayoutError : u8 {
	None,
	Bad,	 /* positions out of order or past the message; no Position
		  * Zero chunk in RDMA_NOMSG; an empty message */
	TooLong, /* a chunk over the limit, or a message over 2 GiB */
};

/*
 * Lay out the Call @call whose Receive carried @inl_len payload octets
 * (ignored for RDMA_NOMSG), accepting chunks of at most @max_chunk
 * octets.
 */
CallLayoutError v1_layout_call(const V1Header &call, u32 inl_len, u32 max_chunk,
			       CallLayout *out);

/* Octets [off, off + len) of a Reply. */
struct Range {
	u32 off;
	u32 len;
};

struct ReplyShape {
	u32 head_len;
	u32 page_len;
	u32 tail_len;
	u32 len; /* head_len + page_len + tail_len */
	/* The DDP-eligible results, in the order they were encoded: the
	 * i-th is meant for the i-th Write chunk (length 0: none for it). */
	u32 npayloads;
	Range payloads[kMaxChunksCap];
};

enum class ReplyRoute : u8 {
	Inline,	    /* RDMA_MSG: the body follows the header in the Send */
	ReplyChunk, /* RDMA_NOMSG: the body is RDMA Written into the Reply chunk */
	NoRoom,	    /* neither fits: answer RDMA_ERROR/ERR_CHUNK */
	Bad,	    /* inconsistent shape, or chunks that cannot be echoed */
};

struct ReplyPlan { /* writes[] set up to nwrites, body[] up to nbody */
	ReplyRoute route;
	/* Write chunk i (i < nwrites) is filled with octets writes[i] of the
	 * Reply (length 0: left empty). */
	u32 nwrites;
	Range writes[kMaxChunksCap];
	u32 write_len; /* octets RDMA Written into Write chunks, in all */
	u32 body_len;  /* octets sent inline or in the Reply chunk */
	/* The body: what the Write chunks and their round-ups leave, in order. */
	u32 nbody;
	Range body[kMaxChunksCap + 1];
};

/*
 * Plan the Reply to @call, of shape @s, sent in RPC-over-RDMA version
 * @vers with at most @inline_max octets in the Send, its transport
 * header included (a version 2 header is two words longer).
 */
ReplyPlan v1_plan_reply(const V1Header &call, const ReplyShape &s, u32 vers, u32 inline_max);

/*
 * A READ's Reply at once: @call offered one Write chunk of one segment
 * and no Reply chunk, and @s's one result is its whole page list and
 * fits that segment.  When v1_plan_reply() would send it inline with the
 * result in the Write chunk, true with *@written (the result's octets),
 * *@tail_skip (its round-up, at the tail's start) and *@body_len (the
 * head and the rest of the tail, sent inline after the header); the
 * header is encode_one_write_reply()'s.  False for any other Reply,
 * which v1_plan_reply() plans.
 */
bool plan_one_write_reply(const V1Header &call, const ReplyShape &s, u32 vers, u32 inline_max,
			  u32 *written, u32 *tail_skip, u32 *body_len);

/* The header encode_reply() gives such a Reply (RDMA_MSG or RDMA2_MSG,
 * the one segment echoed for @written octets), from fixed offsets: its
 * octets, or -EMSGSIZE when @out is too small. */
ktl::Result<u32> encode_one_write_reply(const V1Header &call, u32 written, u32 vers, u32 credits,
					ktl::Bytes out);

/*
 * The Reply's transport header as plan @p (Inline or ReplyChunk) has it:
 * @call's XID, RDMA_MSG (RDMA_NOMSG for ReplyChunk), an empty Read list,
 * the Call's Write list with Write chunk i echoed for p.writes[i].len
 * octets (0 past p.nwrites), and the Call's Reply chunk, if it offered
 * one, echoed for p.body_len octets for ReplyChunk and for none inline
 * (echo_segment; RFC 8166 Section 4.3.3: the Responder "MUST copy that
 * chunk", with the amount it returns).
 *
 * encode_reply() encodes it straight from @call, for a Call of version
 * @vers (1, or 2: RDMA2_MSG or RDMA2_NOMSG, direction Reply,
 * rdma_inv_handle 0), with the @credits granted: its octets, -EMSGSIZE
 * when @out is too small, -EINVAL for a plan of another route or
 * another version.  v1_reply_header() fills a V1Header with it (credits
 * 0), for those that read it field by field; a responder needs none.
 */
ktl::Result<u32> encode_reply(const V1Header &call, const ReplyPlan &p, u32 vers, u32 credits,
			      ktl::Bytes out);
void v1_reply_header(const V1Header &call, const ReplyPlan &p, V1Header *rep);

/*
 * A Short Reply (RFC 8166 Section 3.5.1) to @call, which offered no Write
 * list: the header encode_reply() gives it, from fixed offsets when the
 * Call offered no Reply chunk or one of one segment: its octets, or
 * -EMSGSIZE when @out is too small, -EINVAL for a Call with a Write list
 * or another version.  short_reply_header_size() is its size.
 */
ktl::Result<u32> encode_short_reply(const V1Header &call, u32 vers, u32 credits, ktl::Bytes out);

/*
 * Octets of the Reply header's chunk lists: the Read list empty, the
 * Call's Write list and Reply chunk copied (RFC 8166 Section 4.3.3).
 * Without the Write list's chunks: all of it for a Call that offered
 * none, which is what a Short Reply answers.
 */
constexpr u32 reply_lists_size_without_writes(const ChunkLists &cl)
{
	return 2 * kXdrWord + (cl.has_reply ? chunks::reply_chunk_size(cl.reply.nsegs) : kXdrWord);
}
u32 reply_lists_size(const ChunkLists &cl);

constexpr u32 short_reply_header_size(const ChunkLists &cl, u32 vers)
{
	return fixed_header_size(vers) + reply_lists_size_without_writes(cl);
}
/* Encode them at @p, which has room for reply_lists_size(): the octet
 * after them. */
u8 *put_reply_lists(u8 *p, const ChunkLists &cl, const ReplyPlan &plan);

/*
 * @f(i, segment) for segment i of each chunk of the Reply's Write list
 * and Reply chunk, in wire order, echoed as the header sends it.
 */
inline u32 reply_written(const ReplyPlan &p, u32 chunk)
{
	return chunk < p.nwrites ? p.writes[chunk].len : 0;
}
/* The octets the Reply chunk's copy returns: the body for RDMA_NOMSG,
 * none in a Short Reply, which copies it unused (RFC 8166 Section 4.3.3). */
inline u32 reply_chunk_written(const ReplyPlan &p)
{
	return p.route == ReplyRoute::ReplyChunk ? p.body_len : 0;
}
template <typename F> void for_each_reply_segment(const V1Header &call, const ReplyPlan &p, F f)
{
	const ChunkLists &cl = call.chunks;
	auto walk = [&](const ChunkRef &c, u32 left) {
		for (u32 i = 0; i < c.nsegs; i++)
			f(i, chunks::echo_segment(cl.segment(c, i), &left));
	};
	for (u32 k = 0; k < cl.nwrite; k++)
		walk(cl.write[k], reply_written(p, k));
	if (cl.has_reply)
		walk(cl.reply, reply_chunk_written(p));
}

/*
 * The Send of an inline Reply: the transport header starts the Send
 * buffer and the body's parts follow in order.  A part that is a page
 * piece of the Reply's page list and at least @map_min octets long goes
 * as an SGE of its own, sent from its page; every other part is copied
 * into the Send buffer, whose runs between mapped pieces are SGEs too.
 * When that takes more SGEs than @max_sge, every part is copied (pulled
 * up) and the Send is one SGE.
 */
inline constexpr u32 kInlineMaxSges = 8;  /* SGEs an inline Send uses at most */
inline constexpr u32 kInlineMaxParts = 16; /* parts a layout takes */
inline constexpr u32 kInlineMapMin = 512; /* shorter pieces are cheaper copied */

struct InlinePart {
	u32 len;
	bool page; /* a page-list piece: may be sent from its page */
};

struct InlineSge {
	bool mapped; /* part @part from its page, else the Send buffer ... */
	u32 part;
	u32 buf_off; /* ... from @buf_off */
	u32 len;
};

struct InlineLayout { /* sge[] set up to nsge, mapped[] up to the parts' count */
	u32 nsge;
	u32 nmapped;	/* of which sent from a page (the Reply then holds its pages) */
	InlineSge sge[kInlineMaxSges];
	bool mapped[kInlineMaxParts]; /* per part: sent from its page */
	u32 buf_len;	/* Send buffer octets used (header + copied parts) */
	u32 send_len;	/* octets the Send carries */
	u32 pulled_up;	/* page-list octets copied into the Send buffer */
};

/*
 * Lay out @n parts after a header of @hlen octets.  False when @n exceeds
 * kInlineMaxParts or @max_sge is 0.
 */
bool v1_layout_inline(u32 hlen, const InlinePart *parts, u32 n, u32 max_sge, u32 map_min,
		      InlineLayout *out);

} // namespace rpcrdmax::core
