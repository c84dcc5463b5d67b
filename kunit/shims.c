// SPDX-License-Identifier: GPL-2.0
/*
 * kunit/shims.c - the real shims, compiled into the KUnit module.
 *
 * The test module is separate from rpcrdmax.ko (KUnit runs a module's
 * suites before its module_init, and the transport module must not be
 * needed to test the runtime), so it carries its own copy of the shim
 * code.  kbuild refuses one object in two modules, hence this file
 * includes the sources instead of naming their objects.  Of the client
 * transport's shims only shim/xprt_rqst.c is here (the request-buffer
 * helpers); below it, the requests the marshalling suite builds.
 */
#include "../shim/mem.c"
#include "../shim/log.c"
#include "../shim/sync.c"
#include "../shim/work.c"
#include "../shim/time.c"
#include "../shim/cm.c"
#include "../shim/verbs.c"
#include "../shim/rw.c"
#include "../shim/xprt_rqst.c"

#include <linux/slab.h>

/*
 * Requests for the rpcrdmax_xprt_marshal suite (kunit/cxx_marshal_tests.cpp):
 * a struct rpc_rqst built the way sunrpc lays one out, but with no
 * rpc_xprt or rpc_task behind it.  The head kvecs are the Call and Reply
 * buffers rpcrdmax_clnt_buf_alloc() made (so the client finds its Req in
 * front of rq_buffer); each tail follows its head in the same buffer; the
 * page lists are pages of their own.
 */
#define RPCRDMAX_KUNIT_MAX_PAGES 8

struct rpcrdmax_kunit_rqst {
	struct rpc_rqst rqst;
	struct page *pages[2][RPCRDMAX_KUNIT_MAX_PAGES];
};

static int rpcrdmax_kunit_xdr_init(struct xdr_buf *buf, struct page **pages, void *start,
				   const struct rpcrdmax_kunit_xdr *x, unsigned int flag)
{
	unsigned int i, n = DIV_ROUND_UP(x->page_base + x->page_len, PAGE_SIZE);

	if (!x->page_len)
		n = 0;
	if (n > RPCRDMAX_KUNIT_MAX_PAGES)
		return -E2BIG;
	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!pages[i])
			return -ENOMEM;
	}
	buf->head[0].iov_base = start;
	buf->head[0].iov_len = x->head_len;
	buf->pages = pages;
	buf->page_base = x->page_base;
	buf->page_len = x->page_len;
	buf->tail[0].iov_base = (char *)start + x->head_len;
	buf->tail[0].iov_len = x->tail_len;
	buf->flags = x->ddp ? flag : 0;
	buf->buflen = x->head_len + x->page_len + x->tail_len;
	buf->len = buf->buflen;
	return 0;
}

/**
 * rpcrdmax_kunit_rqst_new - a request with the given buffer layouts
 * @xid: its XID (host order)
 * @call: the Call buffer from rpcrdmax_clnt_buf_alloc(), at least
 *        @snd's head_len + tail_len octets
 * @rcv: the Reply buffer, at least @rcvx's head_len + tail_len octets
 * @snd: layout of rq_snd_buf (@ddp: XDRBUF_WRITE)
 * @rcvx: layout of rq_rcv_buf (@ddp: XDRBUF_READ); rq_private_buf is a copy
 *
 * Every octet starts as zero.  Returns the request or NULL.
 */
void *rpcrdmax_kunit_rqst_new(unsigned int xid, void *call, void *rcv,
			      const struct rpcrdmax_kunit_xdr *snd,
			      const struct rpcrdmax_kunit_xdr *rcvx)
{
	struct rpcrdmax_kunit_rqst *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!r)
		return NULL;
	r->rqst.rq_xid = cpu_to_be32(xid);
	r->rqst.rq_buffer = call;
	r->rqst.rq_rbuffer = rcv;
	r->rqst.rq_callsize = snd->head_len + snd->tail_len;
	r->rqst.rq_rcvsize = rcvx->head_len + rcvx->tail_len;
	memset(call, 0, r->rqst.rq_callsize);
	memset(rcv, 0, r->rqst.rq_rcvsize);
	if (rpcrdmax_kunit_xdr_init(&r->rqst.rq_snd_buf, r->pages[0], call, snd,
				    XDRBUF_WRITE) ||
	    rpcrdmax_kunit_xdr_init(&r->rqst.rq_rcv_buf, r->pages[1], rcv, rcvx,
				    XDRBUF_READ)) {
		rpcrdmax_kunit_rqst_free(r);
		return NULL;
	}
	r->rqst.rq_rcv_buf.len = 0;
	r->rqst.rq_private_buf = r->rqst.rq_rcv_buf;
	return r;
}

/** rpcrdmax_kunit_rqst_free - release a request from rpcrdmax_kunit_rqst_new() */
void rpcrdmax_kunit_rqst_free(void *rqst)
{
	struct rpcrdmax_kunit_rqst *r = rqst;
	unsigned int i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < RPCRDMAX_KUNIT_MAX_PAGES; j++)
			if (r->pages[i][j])
				__free_page(r->pages[i][j]);
	kfree(r);
}

/**
 * rpcrdmax_kunit_rqst_write - write into a request's buffer at a message offset
 * @rqst: from rpcrdmax_kunit_rqst_new()
 * @rcv: false: rq_snd_buf, true: rq_rcv_buf
 * @offset: octets from the start of the head, through pages and tail
 * @src: data
 * @len: octets
 *
 * Returns 0, or -EMSGSIZE past the end of the buffer.
 */
int rpcrdmax_kunit_rqst_write(void *rqst, bool rcv, unsigned int offset, const void *src,
			      unsigned int len)
{
	struct rpc_rqst *r = rqst;

	return write_bytes_to_xdr_buf(rcv ? &r->rq_rcv_buf : &r->rq_snd_buf, offset,
				      (void *)src, len) ? -EMSGSIZE : 0;
}

/** rpcrdmax_kunit_rqst_read - the reverse of rpcrdmax_kunit_rqst_write() */
int rpcrdmax_kunit_rqst_read(void *rqst, bool rcv, unsigned int offset, void *dst,
			     unsigned int len)
{
	struct rpc_rqst *r = rqst;

	return read_bytes_from_xdr_buf(rcv ? &r->rq_rcv_buf : &r->rq_snd_buf, offset, dst,
				       len) ? -EMSGSIZE : 0;
}
