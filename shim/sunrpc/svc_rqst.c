// SPDX-License-Identifier: GPL-2.0
/*
 * shim/sunrpc/svc_rqst.c - an svc_rqst's buffers, for the C++ server transport:
 * a Call is assembled in rq_pages (or left in its Receive buffer) and
 * described as rq_arg, and a Reply is read out of rq_res (copied, or as
 * page pieces for Send SGEs and RDMA Writes) and its pages kept past
 * sendto.  Apart from shim/sunrpc/svc.c (the
 * svc_xprt class) so that the KUnit module, which drives the real
 * server transport on svc_rqsts of its own, carries the same code.
 */
#include <linux/mm.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xdr.h>
#include "../internal.h"

/*
 * rpcrdmax_svc_call_room - octets of rq_pages a Call may fill.  Where the
 * Reply's pages follow the Call's in rq_pages (to 6.12), the last page
 * stays for the Reply; where they are an array of their own (7.x), the
 * Call may take every page of rq_pages.
 */
static u64 rpcrdmax_svc_call_room(const struct svc_rqst *r)
{
#if RPCRDMAX_HAVE_SPLIT_RESPAGES
	return (u64)r->rq_maxpages * PAGE_SIZE;
#else
	return (u64)(r->rq_page_end - r->rq_pages - 1) * PAGE_SIZE;
#endif
}

/**
 * rpcrdmax_svc_arg_copy - copy part of a Call into an svc_rqst's pages
 * @rqstp: the svc_rqst
 * @offset: where in the Call (linear over rq_pages)
 * @src: the octets, or NULL for zeros
 * @len: how many
 *
 * Returns 0, or -EMSGSIZE if the Call would not fit the pages
 * (rpcrdmax_svc_call_room).
 */
int rpcrdmax_svc_arg_copy(struct svc_rqst *rqstp, unsigned int offset, const void *src,
			  unsigned int len)
{
	if ((u64)offset + len > rpcrdmax_svc_call_room(rqstp))
		return -EMSGSIZE;
	while (len) {
		unsigned int in = offset & ~PAGE_MASK;
		unsigned int n = min_t(unsigned int, len, PAGE_SIZE - in);
		void *dst = page_address(rqstp->rq_pages[offset >> PAGE_SHIFT]) + in;

		if (src) {
			memcpy(dst, src, n);
			src = (const u8 *)src + n;
		} else {
			memset(dst, 0, n);
		}
		offset += n;
		len -= n;
	}
	return 0;
}

/**
 * rpcrdmax_svc_arg_set - describe a Call of @len octets in rq_pages as rq_arg
 * @rqstp: the svc_rqst
 * @len: the Call's length (rpcrdmax_svc_arg_copy() checked it fits)
 *
 * The Reply's pages are the caller's to place (ktl/svc_rqst.h).
 */
void rpcrdmax_svc_arg_set(struct svc_rqst *rqstp, unsigned int len)
{
	struct xdr_buf *arg = &rqstp->rq_arg;
	unsigned int npages = max_t(unsigned int, DIV_ROUND_UP(len, PAGE_SIZE), 1);

	arg->head[0].iov_base = page_address(rqstp->rq_pages[0]);
	arg->head[0].iov_len = min_t(unsigned int, len, PAGE_SIZE);
	arg->pages = rqstp->rq_pages + 1;
	arg->page_base = 0;
	arg->page_len = len - arg->head[0].iov_len;
	arg->tail[0].iov_base = NULL;
	arg->tail[0].iov_len = 0;
	arg->len = len;
	arg->buflen = npages * PAGE_SIZE;
}

/**
 * rpcrdmax_svc_arg_set_buf - describe a Call at @buf as rq_arg, in place
 * @rqstp: the svc_rqst
 * @buf: the Call, in a Receive buffer the caller keeps until release
 * @len: its length
 *
 * The whole Call is the head; rq_pages are all free for the Reply.
 */
void rpcrdmax_svc_arg_set_buf(struct svc_rqst *rqstp, void *buf, unsigned int len)
{
	struct xdr_buf *arg = &rqstp->rq_arg;

	arg->head[0].iov_base = buf;
	arg->head[0].iov_len = len;
	arg->pages = rqstp->rq_pages;
	arg->page_base = 0;
	arg->page_len = 0;
	arg->tail[0].iov_base = NULL;
	arg->tail[0].iov_len = 0;
	arg->len = len;
	arg->buflen = len;
}

/**
 * rpcrdmax_svc_res_copy - copy octets of the Reply out of rq_res
 * @rqstp: the svc_rqst
 * @offset: where in the Reply
 * @len: how many
 * @dst: destination
 *
 * Returns 0 or -EMSGSIZE when the range lies beyond the Reply.
 */
int rpcrdmax_svc_res_copy(struct svc_rqst *rqstp, unsigned int offset, unsigned int len, void *dst)
{
	if (!len)
		return 0;
	return read_bytes_from_xdr_buf(&rqstp->rq_res, offset, dst, len) ?
		-EMSGSIZE : 0;
}

/*
 * Append the pieces of @len octets to @segs: from @pages at @offset when
 * @pages is given, else from page memory at kernel address @offset.
 */
static int rpcrdmax_svc_add_pieces(struct page **pages, unsigned long offset, unsigned int len,
				   struct rpcrdmax_page_seg *segs, unsigned int *n,
				   unsigned int max)
{
	while (len) {
		unsigned int in = offset_in_page(offset);
		unsigned int k = min_t(unsigned int, len, PAGE_SIZE - in);

		if (*n == max)
			return -ENOBUFS;
		segs[*n].page = pages ? pages[offset >> PAGE_SHIFT] : virt_to_page((void *)offset);
		segs[*n].offset = in;
		segs[*n].len = k;
		(*n)++;
		offset += k;
		len -= k;
	}
	return 0;
}

/**
 * rpcrdmax_svc_arg_pages - the rq_pages pieces behind part of the Call area
 * @rqstp: the svc_rqst
 * @offset: where in the Call (linear over rq_pages)
 * @len: how many octets
 * @segs: filled with the pieces, in order
 * @max: room in @segs
 *
 * Returns the number of pieces, -EMSGSIZE if the range does not fit the
 * Call's pages (as rpcrdmax_svc_arg_copy()), or -ENOBUFS.
 */
int rpcrdmax_svc_arg_pages(struct svc_rqst *rqstp, unsigned int offset, unsigned int len,
			   struct rpcrdmax_page_seg *segs, unsigned int max)
{
	unsigned int n = 0;
	int rc;

	if ((u64)offset + len > rpcrdmax_svc_call_room(rqstp))
		return -EMSGSIZE;
	rc = rpcrdmax_svc_add_pieces(rqstp->rq_pages, offset, len, segs, &n, max);
	return rc ? rc : n;
}

/**
 * rpcrdmax_svc_res_pages - the pages behind part of the Reply in rq_res
 * @rqstp: the svc_rqst
 * @offset: where in the Reply
 * @len: how many octets
 * @segs: filled with the pieces (head, page list, tail), in order
 * @max: room in @segs
 *
 * Returns the number of pieces, -EMSGSIZE if the range lies beyond the
 * Reply, or -ENOBUFS.
 */
int rpcrdmax_svc_res_pages(struct svc_rqst *rqstp, unsigned int offset, unsigned int len,
			   struct rpcrdmax_page_seg *segs, unsigned int max)
{
	struct xdr_buf sub;
	unsigned int n = 0;
	int rc;

	if (xdr_buf_subsegment(&rqstp->rq_res, &sub, offset, len))
		return -EMSGSIZE;
	rc = rpcrdmax_svc_add_pieces(NULL, (unsigned long)sub.head[0].iov_base,
				     sub.head[0].iov_len, segs, &n, max);
	if (!rc)
		rc = rpcrdmax_svc_add_pieces(sub.pages, sub.page_base, sub.page_len, segs, &n,
					     max);
	if (!rc)
		rc = rpcrdmax_svc_add_pieces(NULL, (unsigned long)sub.tail[0].iov_base,
					     sub.tail[0].iov_len, segs, &n, max);
	return rc ? rc : n;
}
