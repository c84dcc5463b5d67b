/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/xdr_buf.h - a struct xdr_buf's fields, read in place.
 *
 * The client reads its requests' send and receive buffers and the server
 * its Replies' rq_res for every RPC: at the offsets generated from the
 * target kernel's headers (shim/kernel/consts.c), without a call.  What
 * changes an xdr_buf goes through the shims.
 */
#pragma once

#include "kernel.h"
#include "utility.h"

namespace rpcrdmax::ktl {

class XdrBufView {
public:
	explicit XdrBufView(const xdr_buf *buf) : b_(buf) {}
	unsigned long head_base() const { return RPCRDMAX_FIELD(unsigned long, b_, XDR_BUF_HEAD_BASE); }
	u32 head_len() const { return (u32)RPCRDMAX_FIELD(unsigned long, b_, XDR_BUF_HEAD_LEN); }
	unsigned long tail_base() const { return RPCRDMAX_FIELD(unsigned long, b_, XDR_BUF_TAIL_BASE); }
	u32 tail_len() const { return (u32)RPCRDMAX_FIELD(unsigned long, b_, XDR_BUF_TAIL_LEN); }
	page *const *pages() const { return RPCRDMAX_FIELD(page *const *, b_, XDR_BUF_PAGES); }
	u32 page_base() const { return RPCRDMAX_FIELD(unsigned int, b_, XDR_BUF_PAGE_BASE); }
	u32 page_len() const { return RPCRDMAX_FIELD(unsigned int, b_, XDR_BUF_PAGE_LEN); }
	u32 flags() const { return RPCRDMAX_FIELD(unsigned int, b_, XDR_BUF_FLAGS); }
	u32 buflen() const { return RPCRDMAX_FIELD(unsigned int, b_, XDR_BUF_BUFLEN); }
	u32 len() const { return RPCRDMAX_FIELD(unsigned int, b_, XDR_BUF_LEN); }

	/// Octets [@off, @off + @len) of the page list (@off counted from
	/// its first octet) as page pieces in @segs, at most @max: how
	/// many, -ENOBUFS when more, -EMSGSIZE when past the page list.
	int page_pieces(u32 off, u32 len, rpcrdmax_page_seg *segs, u32 max) const
	{
		if ((u64)off + len > page_len())
			return -err::EMSGSIZE;
		page *const *pg = pages();
		u64 at = (u64)page_base() + off;
		u32 n = 0;

		while (len) {
			const u32 in = (u32)(at % RPCRDMAX_PAGE_SIZE);
			const u32 k = min<u32>(len, RPCRDMAX_PAGE_SIZE - in);
			if (n == max)
				return -err::ENOBUFS;
			segs[n++] = { pg[at / RPCRDMAX_PAGE_SIZE], in, k };
			at += k;
			len -= k;
		}
		return (int)n;
	}

	/// The head and tail of a buffer (its whole message when it has no
	/// page list) into @dst: @head octets from the head, then @tail
	/// from the tail past its first @tail_skip (both kernel memory at
	/// their addresses; the caller checked the lengths).
	void copy_flat(u8 *dst, u32 head, u32 tail, u32 tail_skip = 0) const
	{
		if (head)
			mem_copy(dst, reinterpret_cast<const void *>(head_base()), head);
		if (tail)
			mem_copy(dst + head,
				 reinterpret_cast<const u8 *>(tail_base()) + tail_skip, tail);
	}

private:
	const xdr_buf *b_;
};

/// The xdr_buf at offset @off in kernel object @obj (one of its members,
/// such as an rpc_rqst's RPCRDMAX_OFF_RPC_RQST_SND_BUF).
template <typename Owner> inline XdrBufView xdr_buf_at(const Owner *obj, unsigned long off)
{
	return XdrBufView(reinterpret_cast<const xdr_buf *>(
		reinterpret_cast<const unsigned char *>(obj) + off));
}

} // namespace rpcrdmax::ktl
