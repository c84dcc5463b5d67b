// SPDX-License-Identifier: GPL-2.0
/*
 * core/chunks.cpp - the Read list, Write list and Reply chunk.
 *
 * Decoding is driven only by the received octets: every count is checked
 * against what remains before anything is indexed, every list walk stops
 * at a configured limit, and a segment whose offset plus length wraps
 * past 2^64 is refused (RFC 8166 Section 3.4.3 describes a segment as a
 * contiguous range of registered memory; a range that wraps cannot be).
 * The same code serves version 1 and the version 2 draft, whose lists
 * have identical XDR (draft-cel-nfsv4-rpcrdma-version-two-04 Section 6.2).
 */
#include <rpcrdmax/core/wire.h>
#include <rpcrdmax/ktl/utility.h>
#include <rpcrdmax/ktl/xdr.h>

namespace rpcrdmax::core {

void ChunkLists::clear()
{
	nsegs = 0;
	nread = 0;
	nwrite = 0;
	has_reply = false;
	reply = ChunkRef{0, 0, 0};
}

ListError ChunkLists::append(const Segment &seg)
{
	u64 end;

	if (nsegs >= kMaxSegmentsCap)
		return ListError::TooManySegments;
	if (ktl::add_overflow<u64>(seg.offset, seg.length, &end))
		return ListError::SegmentWraps;
	segs[nsegs++] = seg;
	return ListError::None;
}

ListError ChunkLists::add_read_segment(u32 position, const Segment &seg)
{
	ListError err;

	if (nwrite || has_reply)
		return ListError::OutOfOrder;
	if (nread == 0 || read[nread - 1].position != position) {
		if (nread >= kMaxChunksCap)
			return ListError::TooManyReadChunks;
		err = append(seg);
		if (err != ListError::None)
			return err;
		read[nread++] = ChunkRef{position, (u16)(nsegs - 1), 1};
		return ListError::None;
	}
	err = append(seg);
	if (err == ListError::None)
		read[nread - 1].nsegs++;
	return err;
}

ListError ChunkLists::add_write_chunk()
{
	if (has_reply)
		return ListError::OutOfOrder;
	if (nwrite >= kMaxChunksCap)
		return ListError::TooManyWriteChunks;
	write[nwrite++] = ChunkRef{0, (u16)nsegs, 0};
	return ListError::None;
}

ListError ChunkLists::add_write_segment(const Segment &seg)
{
	ListError err;

	if (nwrite == 0 || has_reply)
		return ListError::OutOfOrder;
	err = append(seg);
	if (err == ListError::None)
		write[nwrite - 1].nsegs++;
	return err;
}

ListError ChunkLists::set_reply_chunk()
{
	if (has_reply)
		return ListError::OutOfOrder;
	has_reply = true;
	reply = ChunkRef{0, (u16)nsegs, 0};
	return ListError::None;
}

ListError ChunkLists::add_reply_segment(const Segment &seg)
{
	ListError err;

	if (!has_reply)
		return ListError::OutOfOrder;
	err = append(seg);
	if (err == ListError::None)
		reply.nsegs++;
	return err;
}

u64 ChunkLists::chunk_length(const ChunkRef &c) const
{
	u64 sum = 0;

	for (u32 i = 0; i < c.nsegs; i++)
		sum += segs[c.first + i].length;
	return sum;
}

u32 ChunkLists::encoded_size() const
{
	u32 n = 0;

	/* each read segment carries its own discriminator and position */
	for (u32 i = 0; i < nread; i++)
		n += read[i].nsegs * kReadSegmentSize;
	n += kXdrWord;
	for (u32 i = 0; i < nwrite; i++)
		n += 2 * kXdrWord + write[i].nsegs * kSegmentSize;
	n += kXdrWord;
	n += has_reply ? chunks::reply_chunk_size(reply.nsegs) : kXdrWord;
	return n;
}

namespace chunks {

/* Helpers private to this file; the names are unique across core/. */
namespace chunks_impl {

struct Caps {
	u32 read_chunks;
	u32 write_chunks;
	u32 per_chunk;
	u32 total;
};

static Caps clamp_limits(const DecodeLimits &lim)
{
	return Caps{
		ktl::min(lim.max_read_chunks, kMaxChunksCap),
		ktl::min(lim.max_write_chunks, kMaxChunksCap),
		ktl::min(lim.max_segments_per_chunk, kMaxSegmentsCap),
		ktl::min(lim.max_segments, kMaxSegmentsCap),
	};
}

/* XDR optional-data ("*next") discriminator: exactly 0 or 1. */
static ListError get_present(ktl::XdrReader &xdr, bool *present)
{
	u32 w;

	if (!xdr.get_u32(&w))
		return ListError::Truncated;
	if (w > 1)
		return ListError::BadDiscriminator;
	*present = w == 1;
	return ListError::None;
}

static ListError get_segment(ktl::XdrReader &xdr, Segment *seg)
{
	const u8 *p = xdr.take(kSegmentSize);

	if (!p)
		return ListError::Truncated;
	seg->handle = ktl::load_be32(p);
	seg->length = ktl::load_be32(p + 4);
	seg->offset = (u64)ktl::load_be32(p + 8) << 32 | ktl::load_be32(p + 12);
	return ListError::None;
}

/* A counted array of segments: one Write chunk or the Reply chunk. */
static ListError get_write_chunk(ktl::XdrReader &xdr, const Caps &caps,
			  ChunkLists *out, ChunkRef *chunk)
{
	Segment seg;
	ListError err;
	u32 count;

	if (!xdr.get_u32(&count))
		return ListError::Truncated;
	if (count > xdr.remaining() / kSegmentSize)
		return ListError::Truncated;
	if (count > caps.per_chunk || count > caps.total - out->nsegs)
		return ListError::TooManySegments;
	*chunk = ChunkRef{0, (u16)out->nsegs, 0};
	for (u32 i = 0; i < count; i++) {
		err = get_segment(xdr, &seg);
		if (err == ListError::None)
			err = out->append(seg);
		if (err != ListError::None)
			return err;
		chunk->nsegs++;
	}
	return ListError::None;
}

static ListError get_read_list(ktl::XdrReader &xdr, const Caps &caps, ChunkLists *out)
{
	ListError err;
	Segment seg;
	u32 position;
	bool more;

	for (;;) {
		err = get_present(xdr, &more);
		if (err != ListError::None || !more)
			return err;
		if (!xdr.get_u32(&position))
			return ListError::Truncated;
		err = get_segment(xdr, &seg);
		if (err != ListError::None)
			return err;
		if (out->nsegs >= caps.total)
			return ListError::TooManySegments;
		if (out->nread == 0 ||
		    out->read[out->nread - 1].position != position) {
			if (out->nread >= caps.read_chunks)
				return ListError::TooManyReadChunks;
		} else if (out->read[out->nread - 1].nsegs >= caps.per_chunk) {
			return ListError::TooManySegments;
		}
		err = out->add_read_segment(position, seg);
		if (err != ListError::None)
			return err;
	}
}

static ListError get_write_list(ktl::XdrReader &xdr, const Caps &caps, ChunkLists *out)
{
	ListError err;
	bool more;

	for (;;) {
		err = get_present(xdr, &more);
		if (err != ListError::None || !more)
			return err;
		if (out->nwrite >= caps.write_chunks)
			return ListError::TooManyWriteChunks;
		err = get_write_chunk(xdr, caps, out, &out->write[out->nwrite]);
		if (err != ListError::None)
			return err;
		out->nwrite++;
	}
}

static ListError get_reply_chunk(ktl::XdrReader &xdr, const Caps &caps, ChunkLists *out)
{
	ListError err;
	bool present;

	err = get_present(xdr, &present);
	if (err != ListError::None || !present)
		return err;
	err = get_write_chunk(xdr, caps, out, &out->reply);
	if (err == ListError::None)
		out->has_reply = true;
	return err;
}

/* Word @v at @p: the next word. */
static u8 *put_word(u8 *p, u32 v)
{
	ktl::store_be32(p, v);
	return p + kXdrWord;
}

/* A counted array of segments: one Write chunk or the Reply chunk. */
static u8 *put_write_chunk(u8 *p, const ChunkLists &cl, const ChunkRef &c)
{
	p = put_word(p, c.nsegs);
	for (u32 i = 0; i < c.nsegs; i++)
		p = put_segment(p, cl.segment(c, i));
	return p;
}

constexpr u64 align4(u64 n)
{
	return (n + 3) & ~(u64)3;
}

} // namespace chunks_impl

ListError decode(ktl::XdrReader &xdr, const DecodeLimits &lim, ChunkLists *out)
{
	ListError err = ListError::None;
	bool reads = true;

	out->clear();
	/* Most messages carry no Read chunk, and most no chunk at all:
	 * an absent Read list is taken as it is, and with it an absent
	 * Write list and Reply chunk (three zero words) at once. */
	if (xdr.remaining() >= 3 * kXdrWord) {
		const u8 *p = xdr.rest().data();
		if (ktl::load_be32(p) == 0) {
			const bool more = (ktl::load_be32(p + 4) | ktl::load_be32(p + 8)) != 0;
			(void)xdr.skip(more ? kXdrWord : 3 * kXdrWord);
			if (!more)
				return ListError::None;
			reads = false;
		}
	}
	chunks_impl::Caps caps = chunks_impl::clamp_limits(lim);
	if (reads)
		err = chunks_impl::get_read_list(xdr, caps, out);
	if (err == ListError::None)
		err = chunks_impl::get_write_list(xdr, caps, out);
	if (err == ListError::None)
		err = chunks_impl::get_reply_chunk(xdr, caps, out);
	return err;
}

u8 *put_lists(u8 *p, const ChunkLists &cl)
{
	using chunks_impl::put_word;

	if (!cl.nread && cl.nwrite == 1 && cl.write[0].nsegs == 1 && !cl.has_reply)
		return put_one_write_lists(p, cl.segment(cl.write[0], 0));
	for (u32 i = 0; i < cl.nread; i++) {
		const ChunkRef &c = cl.read[i];
		for (u32 j = 0; j < c.nsegs; j++) {
			p = put_word(p, 1);
			p = put_word(p, c.position);
			p = put_segment(p, cl.segment(c, j));
		}
	}
	p = put_word(p, 0);
	for (u32 i = 0; i < cl.nwrite; i++) {
		p = put_word(p, 1);
		p = chunks_impl::put_write_chunk(p, cl, cl.write[i]);
	}
	p = put_word(p, 0);
	if (!cl.has_reply)
		return put_word(p, 0);
	p = put_word(p, 1);
	return chunks_impl::put_write_chunk(p, cl, cl.reply);
}

u8 *put_echo_chunk(u8 *p, const ChunkLists &cl, const ChunkRef &c, u32 written)
{
	p = chunks_impl::put_word(p, c.nsegs);
	for (u32 i = 0; i < c.nsegs; i++)
		p = put_segment(p, echo_segment(cl.segment(c, i), &written));
	return p;
}

bool encode(ktl::XdrWriter &xdr, const ChunkLists &cl)
{
	u8 *p = xdr.reserve(cl.encoded_size());

	if (!p)
		return false;
	put_lists(p, cl);
	return true;
}

PositionError check_positions(const ChunkLists &cl, u64 inline_len,
			      bool skip_call_chunk)
{
	u64 consumed = 0; /* aligned data octets of the chunks checked so far */
	u64 prev_end = 0;

	for (u32 i = 0; i < cl.nread; i++) {
		const ChunkRef &c = cl.read[i];
		u64 alen;

		if (i == 0 && skip_call_chunk && c.position == 0)
			continue;
		if (c.position & 3)
			return PositionError::Misaligned;
		if (c.position < prev_end)
			return PositionError::Overlap;
		if (c.position - consumed > inline_len)
			return PositionError::BeyondMessage;
		alen = chunks_impl::align4(cl.chunk_length(c));
		prev_end = c.position + alen;
		consumed += alen;
	}
	return PositionError::None;
}

} // namespace chunks

} // namespace rpcrdmax::core
