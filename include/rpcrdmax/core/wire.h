/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/wire.h - RPC-over-RDMA wire elements shared by version 1 and the
 * version 2 draft: RDMA segments, chunks, and the three chunk lists.
 *
 * Vocabulary (RFC 8166 Section 3.4): an RDMA segment is one registered
 * memory region (handle, length, offset).  A chunk is a group of
 * segments that carries one XDR data item.  The Read list is a flat
 * list of read segments; consecutive segments with the same Position
 * form one Read chunk.  The Write list is a list of Write chunks, each
 * a counted array of segments.  The Reply chunk is one optional Write
 * chunk that receives a whole (Long) Reply.
 *
 * ChunkLists never allocates.  It holds fixed arrays sized by the
 * compile-time capacities below; DecodeLimits narrows them at run time.
 * It is large (about 4.5 KiB): embed it in a long-lived object or in
 * storage the caller provides, never on a kernel stack.
 */
#pragma once

#include <rpcrdmax/ktl/types.h>
#include <rpcrdmax/ktl/span.h>
#include <rpcrdmax/ktl/xdr.h>
#include <rpcrdmax/ktl/result.h>

namespace rpcrdmax::core {

using ktl::u8;
using ktl::u16;
using ktl::u32;
using ktl::u64;
using ktl::size_t;

/* XDR sizes of the transport header pieces, in octets. */
inline constexpr u32 kXdrWord = 4;
inline constexpr u32 kSegmentSize = 16;	     /* handle, length, offset */
inline constexpr u32 kReadSegmentSize = 24;  /* discriminator, position, segment */
inline constexpr u32 kFixedHeaderSize = 16;  /* xid, vers, credit, proc */
inline constexpr u32 kMinChunkHeaderSize = kFixedHeaderSize + 3 * kXdrWord;
/* What one Write chunk of one segment adds to a Write list: its
 * discriminator, its segment count and the segment. */
inline constexpr u32 kOneWriteChunkSize = 2 * kXdrWord + kSegmentSize;
/* A Reply chunk of one segment, beyond the absent Reply chunk's word. */
inline constexpr u32 kOneReplyChunkExtra = kXdrWord + kSegmentSize;

/* The fixed words every transport header starts with (rdma_xid,
 * rdma_vers, rdma_credit, rdma_proc: RFC 8166 Section 4.2, the Version
 * Two draft's Section 6.2) at @p; returns the octet after them. */
inline u8 *put_fixed_header(u8 *p, u32 xid, u32 vers, u32 credits, u32 proc)
{
	ktl::store_be32(p, xid);
	ktl::store_be32(p + 4, vers);
	ktl::store_be32(p + 8, credits);
	ktl::store_be32(p + 12, proc);
	return p + kFixedHeaderSize;
}

/* Three absent chunk lists (Read list, Write list, Reply chunk) at @p;
 * returns the octet after them. */
inline u8 *put_no_chunks(u8 *p)
{
	ktl::store_be32(p, 0);
	ktl::store_be32(p + 4, 0);
	ktl::store_be32(p + 8, 0);
	return p + 3 * kXdrWord;
}

/* Compile-time capacities of ChunkLists. */
inline constexpr u32 kMaxSegmentsCap = 256; /* all segments in one header */
inline constexpr u32 kMaxChunksCap = 16;    /* Read or Write chunks per list */

/*
 * Run-time limits a decoder enforces (clamped to the capacities).  The
 * defaults are generous for NFS: a 1 MiB payload split into 64 KiB
 * registrations needs 16 segments.
 */
struct DecodeLimits {
	u32 max_read_chunks = 8;	 /* includes a Position Zero Read chunk */
	u32 max_write_chunks = 8;
	u32 max_segments_per_chunk = 64;
	u32 max_segments = kMaxSegmentsCap; /* total, all lists */
};

/* struct rpcrdma1_segment / rpcrdma2_segment (RFC 8166 Section 4.1). */
struct Segment {
	u32 handle;
	u32 length;
	u64 offset;
};

/* Segment @s's words at @p, as the wire has them: the octet after them. */
inline u8 *put_segment(u8 *p, const Segment &s)
{
	ktl::store_be32(p, s.handle);
	ktl::store_be32(p + 4, s.length);
	ktl::store_be32(p + 8, (u32)(s.offset >> 32));
	ktl::store_be32(p + 12, (u32)s.offset);
	return p + kSegmentSize;
}

/*
 * One chunk: @nsegs segments starting at index @first of the segment
 * array.  @position is the XDR position for Read chunks, 0 otherwise.
 */
struct ChunkRef {
	u32 position;
	u16 first;
	u16 nsegs;
};

/* Where a chunk-list decode or build step failed. */
enum class ListError : u8 {
	None,
	Truncated,	   /* ran past the received bytes */
	BadDiscriminator,  /* an XDR optional-data word other than 0 or 1 */
	TooManyReadChunks,
	TooManyWriteChunks,
	TooManySegments,   /* per chunk or in total */
	SegmentWraps,	   /* offset + length overflows 64 bits */
	OutOfOrder,	   /* builder: lists must be filled Read, Write, Reply */
};

struct ChunkLists {
	u32 nsegs;
	u32 nread;
	u32 nwrite;
	bool has_reply;
	ChunkRef read[kMaxChunksCap];
	ChunkRef write[kMaxChunksCap];
	ChunkRef reply;
	Segment segs[kMaxSegmentsCap];

	void clear();

	/* Builders (requester side, or a responder echoing chunks).  Lists
	 * must be filled in wire order: Read list, Write list, Reply chunk.
	 * Each returns ListError::None or why it refused. */
	ListError add_read_segment(u32 position, const Segment &seg);
	ListError add_write_chunk();
	ListError add_write_segment(const Segment &seg);
	ListError set_reply_chunk();
	ListError add_reply_segment(const Segment &seg);

	const Segment &segment(const ChunkRef &c, u32 i) const
	{
		return segs[c.first + i];
	}
	/* Sum of segment lengths; cannot overflow (at most 2^8 * 2^32). */
	u64 chunk_length(const ChunkRef &c) const;
	/* True when the first Read chunk has position zero (RFC 8166
	 * Section 3.5.3: the Long Call's RPC message). */
	bool has_call_chunk() const { return nread > 0 && read[0].position == 0; }
	/* Number of octets the three lists occupy on the wire. */
	u32 encoded_size() const;
	bool empty() const { return nread == 0 && nwrite == 0 && !has_reply; }
	/* The one handle of a Call's chunks its Reply may invalidate (RFC
	 * 8797 Section 4.1; Version Two names it in rdma_inv_handle, draft
	 * Section 6.2.3): the first segment's of the Write list, else of the
	 * Reply chunk, else of the Read list; 0 without a chunk.  Requester
	 * and Responder pick it by this one rule. */
	u32 reply_inv_handle() const
	{
		if (nwrite && write[0].nsegs)
			return segment(write[0], 0).handle;
		if (has_reply && reply.nsegs)
			return segment(reply, 0).handle;
		if (nread && read[0].nsegs)
			return segment(read[0], 0).handle;
		return 0;
	}

	/* for_each_segment's lists */
	enum : unsigned { kReadList = 1, kWriteList = 2, kReplyChunk = 4 };
	/* @f(chunk, i, segment) for segment i of each chunk of the lists
	 * @which names, in wire order (tracepoints walk them so). */
	template <typename F> void for_each_segment(unsigned which, F f) const
	{
		auto walk = [&](const ChunkRef &c) {
			for (u32 i = 0; i < c.nsegs; i++)
				f(c, i, segment(c, i));
		};
		for (u32 k = 0; (which & kReadList) && k < nread; k++)
			walk(read[k]);
		for (u32 k = 0; (which & kWriteList) && k < nwrite; k++)
			walk(write[k]);
		if ((which & kReplyChunk) && has_reply)
			walk(reply);
	}

	/* internal: append one segment to the segment array */
	ListError append(const Segment &seg);
};

namespace chunks {

/* Decode the Read list, Write list and Reply chunk from @xdr's cursor.
 * On error @xdr is left somewhere inside the lists. */
ListError decode(ktl::XdrReader &xdr, const DecodeLimits &lim, ChunkLists *out);

/* Encode the three lists; false when @xdr has no room. */
bool encode(ktl::XdrWriter &xdr, const ChunkLists &cl);

/* Encode the three lists at @p, which has room for cl.encoded_size()
 * octets (the caller checked): the octet after them. */
u8 *put_lists(u8 *p, const ChunkLists &cl);

/* The three lists when their only chunk is one Write chunk of the one
 * segment @seg (a READ's Call, and its Reply's echo), at @p, which has
 * room for write_list_size(1, 1) + 2 words: the octet after them. */
inline u8 *put_one_write_lists(u8 *p, const Segment &seg)
{
	ktl::store_be32(p, 0);	   /* the Read list's end */
	ktl::store_be32(p + 4, 1); /* a Write chunk */
	ktl::store_be32(p + 8, 1); /* of one segment */
	p = put_segment(p + 12, seg);
	ktl::store_be32(p, 0);	   /* the Write list's end */
	ktl::store_be32(p + 4, 0); /* no Reply chunk */
	return p + 2 * kXdrWord;
}

/*
 * A Responder's copy of one of the Call's segments in its Reply: its
 * length cut to the @left octets of the data item not yet accounted
 * for, which it then takes from @left (RFC 8166 Section 3.4.6: "updates
 * each segment length field to reflect the actual amount of data that
 * is being returned in that segment"; Section 4.3.3 for the Reply
 * chunk).
 */
inline Segment echo_segment(const Segment &s, u32 *left)
{
	Segment e = s;

	e.length = s.length < *left ? s.length : *left;
	*left -= e.length;
	return e;
}

/* Encode chunk @c of @cl at @p as a counted array of its segments,
 * echoed (echo_segment) for @written octets: the octet after it. */
u8 *put_echo_chunk(u8 *p, const ChunkLists &cl, const ChunkRef &c, u32 written);

/* Size of a Write list with @nchunks chunks of @nsegs segments each, or
 * of a Reply chunk (present) with @nsegs segments. */
constexpr u32 write_list_size(u32 nchunks, u32 nsegs)
{
	return nchunks * (2 * kXdrWord + nsegs * kSegmentSize) + kXdrWord;
}
constexpr u32 reply_chunk_size(u32 nsegs)
{
	return 2 * kXdrWord + nsegs * kSegmentSize;
}

/*
 * Check Read chunk positions against the XDR stream they point into
 * (RFC 8166 Section 3.4.5): each position is a multiple of four, chunks
 * appear in increasing position order without overlapping (a chunk
 * occupies its length plus XDR round-up), and each chunk's position,
 * less the data of the chunks before it, falls within @inline_len, the
 * part of the message not conveyed in data chunks.  A Position Zero Read
 * chunk, when @skip_call_chunk, is that inline part and is not checked.
 */
enum class PositionError : u8 { None, Misaligned, Overlap, BeyondMessage };
PositionError check_positions(const ChunkLists &cl, u64 inline_len,
			      bool skip_call_chunk);

} // namespace chunks

} // namespace rpcrdmax::core
