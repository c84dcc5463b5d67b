// SPDX-License-Identifier: GPL-2.0
/*
 * kunit/shims.c - the real shims, compiled into the KUnit module.
 *
 * The test module is separate from rpcrdmax.ko (KUnit runs a module's
 * suites before its module_init, and the transport module must not be
 * needed to test the runtime), so it carries its own copy of the shim
 * code.  kbuild refuses one object in two modules, hence this file
 * includes the sources instead of naming their objects.  Of the client
 * transport's shims only shim/sunrpc/xprt_rqst.c (the request-buffer helpers)
 * and shim/sunrpc/xprt_bc.c (the backchannel slots) are here, and of the
 * server's only shim/sunrpc/svc_rqst.c (an svc_rqst's buffers), with the
 * tracepoints (shim/kernel/trace.c) both call; below them, the
 * transports and requests the marshalling and server suites build.
 */
#include "../shim/kernel/mem.c"
#include "../shim/kernel/log.c"
#include "../shim/kernel/sync.c"
#include "../shim/kernel/work.c"
#include "../shim/kernel/time.c"
#include "../shim/kernel/cm.c"
#include "../shim/kernel/verbs.c"
#include "../shim/kernel/rw.c"
#include "../shim/sunrpc/xprt_rqst.c"
#include "../shim/sunrpc/xprt_bc.c"
#include "../shim/sunrpc/xprt_cong.c"
#include "../shim/sunrpc/svc_rqst.c"
#include "../shim/kernel/trace.c"

#include <linux/slab.h>
#include <linux/percpu.h>
#include <linux/wait.h>
#include <linux/kprobes.h>
#include "rpcrdmax_kunit.h"

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
	struct rpc_cred cred;	/* rq_cred, when a case sets one */
	struct rpc_auth auth;
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
struct rpc_rqst *rpcrdmax_kunit_rqst_new(unsigned int xid, void *call, void *rcv,
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
		rpcrdmax_kunit_rqst_free(&r->rqst);
		return NULL;
	}
	r->rqst.rq_rcv_buf.len = 0;
	r->rqst.rq_private_buf = r->rqst.rq_rcv_buf;
	return &r->rqst;
}

/**
 * rpcrdmax_kunit_rqst_page_pieces - the pages under part of a request's
 * page list, found the way the kernel's xdr_buf helpers find them: the
 * reference XdrBufView::page_pieces() is checked against
 * @rqst: from rpcrdmax_kunit_rqst_new()
 * @rcv: false for the send buffer, true for the receive buffer
 * @offset: offset within the page list
 * @len: octets
 * @segs: filled with page segments, in order
 * @max: room in @segs
 *
 * Returns the number of segments, or -E2BIG if more than @max are needed.
 */
int rpcrdmax_kunit_rqst_page_pieces(struct rpc_rqst *rqst, bool rcv, unsigned int offset,
				    unsigned int len, struct rpcrdmax_page_seg *segs,
				    unsigned int max)
{
	struct xdr_buf *buf = rcv ? &rqst->rq_rcv_buf : &rqst->rq_snd_buf;
	unsigned int n = 0;

	while (len) {
		unsigned int pos = offset_in_page(buf->page_base) + offset;
		unsigned int in_page = offset_in_page(pos);
		unsigned int chunk = min_t(unsigned int, len, PAGE_SIZE - in_page);

		if (n == max)
			return -E2BIG;
		segs[n].page = buf->pages[(buf->page_base >> PAGE_SHIFT) + (pos >> PAGE_SHIFT)];
		segs[n].offset = in_page;
		segs[n].len = chunk;
		n++;
		offset += chunk;
		len -= chunk;
	}
	return n;
}

/**
 * rpcrdmax_kunit_rqst_set_data_touch - give a request the credential of an
 * auth flavor that covers the data (as RPCSEC_GSS krb5i and krb5p do)
 * @rqst: from rpcrdmax_kunit_rqst_new()
 */
void rpcrdmax_kunit_rqst_set_data_touch(struct rpc_rqst *rqst)
{
	struct rpcrdmax_kunit_rqst *r = container_of(rqst, struct rpcrdmax_kunit_rqst, rqst);

	__set_bit(RPCAUTH_AUTH_DATATOUCH, &r->auth.au_flags);
	r->cred.cr_auth = &r->auth;
	r->rqst.rq_cred = &r->cred;
}

/** rpcrdmax_kunit_rqst_free - release a request from rpcrdmax_kunit_rqst_new() */
void rpcrdmax_kunit_rqst_free(struct rpc_rqst *rqst)
{
	struct rpcrdmax_kunit_rqst *r = container_of(rqst, struct rpcrdmax_kunit_rqst, rqst);
	unsigned int i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < RPCRDMAX_KUNIT_MAX_PAGES; j++)
			if (r->pages[i][j])
				__free_page(r->pages[i][j]);
	kfree(r);
}

/**
 * rpcrdmax_kunit_mr_next_keys - the keys the kernel's own helpers give an
 * MR's next registration, the reference Mr::bump_key() is checked against
 * @mr: the MR (left as it is)
 * @lkey: set to its next lkey
 * @rkey: set to its next rkey
 */
void rpcrdmax_kunit_mr_next_keys(const struct ib_mr *mr, unsigned int *lkey, unsigned int *rkey)
{
	struct ib_mr m = *(const struct ib_mr *)mr;

	ib_update_fast_reg_key(&m, ib_inc_rkey(m.rkey));
	*lkey = m.lkey;
	*rkey = m.rkey;
}

/**
 * rpcrdmax_kunit_next_rkey - the rkey the kernel's ib_inc_rkey() gives the
 * registration after one under @rkey
 * @rkey: an MR's rkey
 *
 * Return: the next rkey, as the kernel's helper computes it.
 */
unsigned int rpcrdmax_kunit_next_rkey(unsigned int rkey)
{
	return ib_inc_rkey(rkey);
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
int rpcrdmax_kunit_rqst_write(struct rpc_rqst *rqst, bool rcv, unsigned int offset, const void *src,
			      unsigned int len)
{
	struct rpc_rqst *r = rqst;

	return write_bytes_to_xdr_buf(rcv ? &r->rq_rcv_buf : &r->rq_snd_buf, offset,
				      (void *)src, len) ? -EMSGSIZE : 0;
}

/** rpcrdmax_kunit_rqst_read - the reverse of rpcrdmax_kunit_rqst_write() */
int rpcrdmax_kunit_rqst_read(struct rpc_rqst *rqst, bool rcv, unsigned int offset, void *dst,
			     unsigned int len)
{
	struct rpc_rqst *r = rqst;

	return read_bytes_from_xdr_buf(rcv ? &r->rq_rcv_buf : &r->rq_snd_buf, offset, dst,
				       len) ? -EMSGSIZE : 0;
}

/*
 * The transport a marshalling case's ClntEp reports to: a struct rpc_xprt
 * with only what the backchannel code reads set up (its slots and, when
 * asked for, a callback service to queue backward Calls to), and the
 * test's own stand-in for the rest of sunrpc (@owner, which the C++
 * stand-ins of rpcrdmax_xprt_lookup_pin() and friends get back).
 */
struct rpcrdmax_kunit_xprt {
	struct rpc_xprt xprt;
	struct svc_serv serv;	/* sv_cb_* only */
	void *owner;
	struct rpcrdmax_clnt *ep;
};

static struct rpcrdmax_kunit_xprt *rpcrdmax_kx(struct rpc_xprt *xprt)
{
	return container_of(xprt, struct rpcrdmax_kunit_xprt, xprt);
}

/* For shim/sunrpc/xprt_bc.c (in rpcrdmax.ko: shim/sunrpc/xprt.c's transport). */
struct rpcrdmax_clnt *rpcrdmax_xprt_ep(struct rpc_xprt *xprt)
{
	return rpcrdmax_kx(xprt)->ep;
}

/**
 * rpcrdmax_kunit_xprt_new - a transport for a marshalling case
 * @owner: the test's stand-in state, given back by rpcrdmax_kunit_xprt_owner()
 * @bc_slots: backchannel slots to make (rpcrdmax_xprt_bc_setup); with 0,
 *            the transport has no callback service either
 * @max_reqs: its slot table size (rdma_slot_table_entries)
 *
 * Returns the struct rpc_xprt, or NULL.
 */
struct rpc_xprt *rpcrdmax_kunit_xprt_new(void *owner, unsigned int bc_slots, unsigned int max_reqs)
{
	struct rpcrdmax_kunit_xprt *kx = kzalloc(sizeof(*kx), GFP_KERNEL);

	if (!kx)
		return NULL;
	kx->owner = owner;
	kx->xprt.max_reqs = max_reqs;
	kref_init(&kx->xprt.kref);
	kx->xprt.xprt_net = &init_net;
	spin_lock_init(&kx->xprt.bc_pa_lock);
	INIT_LIST_HEAD(&kx->xprt.bc_pa_list);
	spin_lock_init(&kx->serv.sv_cb_lock);
	INIT_LIST_HEAD(&kx->serv.sv_cb_list);
	init_waitqueue_head(&kx->serv.sv_cb_waitq);
	if (bc_slots) {
		if (rpcrdmax_xprt_bc_setup(&kx->xprt, bc_slots)) {
			rpcrdmax_kunit_xprt_free(&kx->xprt);
			return NULL;
		}
		kx->xprt.bc_serv = &kx->serv;
	}
	return &kx->xprt;
}

/** rpcrdmax_kunit_init_net - &init_net, for the tests' own CM ids */
struct net *rpcrdmax_kunit_init_net(void)
{
	return &init_net;
}

/* rpcrdmax.ko's accessor (shim/sunrpc/xprt.c, which this module does not
 * include), for the stand-in transport above. */
struct net *rpcrdmax_xprt_net(struct rpc_xprt *xprt)
{
	return xprt->xprt_net;
}

/** rpcrdmax_kunit_xprt_owner - the @owner given to rpcrdmax_kunit_xprt_new() */
void *rpcrdmax_kunit_xprt_owner(struct rpc_xprt *xprt)
{
	return rpcrdmax_kx(xprt)->owner;
}

/**
 * rpcrdmax_kunit_bc_maxpayload - the transport's bc_maxpayload as
 * rpc_max_bc_payload() calls it: under rcu_read_lock(), where nothing may
 * sleep (the debug kernel's might_sleep checks catch a mutex)
 * @xprt: a transport of rpcrdmax_kunit_xprt_new()
 */
unsigned long rpcrdmax_kunit_bc_maxpayload(struct rpc_xprt *xprt)
{
	size_t n;

	rcu_read_lock();
	n = rpcrdmax_xprt_bc_maxpayload(xprt);
	rcu_read_unlock();
	return n;
}

/** rpcrdmax_kunit_xprt_set_ep - the endpoint the transport's bc ops find */
void rpcrdmax_kunit_xprt_set_ep(struct rpc_xprt *xprt, struct rpcrdmax_clnt *ep)
{
	rpcrdmax_kx(xprt)->ep = ep;
}

/**
 * rpcrdmax_kunit_xprt_free - release a transport and its idle slots
 * @xprt: from rpcrdmax_kunit_xprt_new()
 *
 * Returns the slots that were not idle (taken and never given back):
 * those are leaked rather than freed under the service.
 */
unsigned int rpcrdmax_kunit_xprt_free(struct rpc_xprt *xprt)
{
	struct rpc_xprt *x = xprt;
	unsigned int busy;

	rpcrdmax_xprt_bc_destroy(x, 0);
	busy = x->bc_alloc_count;
	kfree(rpcrdmax_kx(xprt));
	return busy;
}

/**
 * rpcrdmax_kunit_bc_wait - the next backward Call queued to the service
 * @xprt: from rpcrdmax_kunit_xprt_new() with slots
 * @ms: how long to wait for one
 *
 * Takes it off the service's list, as the callback thread does.  Returns
 * the slot's rpc_rqst, or NULL.
 */
struct rpc_rqst *rpcrdmax_kunit_bc_wait(struct rpc_xprt *xprt, unsigned int ms)
{
	struct svc_serv *serv = &rpcrdmax_kx(xprt)->serv;
	struct rpc_rqst *r = NULL;

	wait_event_timeout(serv->sv_cb_waitq, !list_empty(&serv->sv_cb_list),
			   msecs_to_jiffies(ms));
	spin_lock(&serv->sv_cb_lock);
	if (!list_empty(&serv->sv_cb_list)) {
		r = list_first_entry(&serv->sv_cb_list, struct rpc_rqst, rq_bc_list);
		list_del_init(&r->rq_bc_list);
	}
	spin_unlock(&serv->sv_cb_lock);
	return r;
}

/**
 * rpcrdmax_kunit_bc_call - a queued backward Call as the service sees it
 * @rqst: from rpcrdmax_kunit_bc_wait()
 * @dst: gets the Call (rq_rcv_buf)
 * @max: room at @dst
 * @xid: gets rq_xid (host order)
 *
 * Returns the Call's length, or -EMSGSIZE.
 */
int rpcrdmax_kunit_bc_call(struct rpc_rqst *rqst, void *dst, unsigned int max, unsigned int *xid)
{
	struct rpc_rqst *r = rqst;

	if (r->rq_rcv_buf.len > max ||
	    read_bytes_from_xdr_buf(&r->rq_rcv_buf, 0, dst, r->rq_rcv_buf.len))
		return -EMSGSIZE;
	*xid = be32_to_cpu(r->rq_xid);
	return r->rq_rcv_buf.len;
}

/**
 * rpcrdmax_kunit_bc_set_reply - put the service's Reply in a slot
 * @rqst: from rpcrdmax_kunit_bc_wait()
 * @src: the encoded Reply
 * @len: its length
 *
 * Lays it out in rq_snd_buf as the callback service does.  Returns 0 or
 * -EMSGSIZE.
 */
int rpcrdmax_kunit_bc_set_reply(struct rpc_rqst *rqst, const void *src, unsigned int len)
{
	struct rpc_rqst *r = rqst;

	if (len > r->rq_snd_buf.buflen)
		return -EMSGSIZE;
	memcpy(r->rq_snd_buf.head[0].iov_base, src, len);
	r->rq_snd_buf.head[0].iov_len = len;
	r->rq_snd_buf.len = len;
	return 0;
}

/** rpcrdmax_kunit_bc_done - the service is done with a slot (bc_free_rqst) */
void rpcrdmax_kunit_bc_done(struct rpc_rqst *rqst)
{
	rpcrdmax_xprt_bc_free_rqst(rqst);
}

/*
 * svc_rqsts for the rpcrdmax_svc_server suite (kunit/cxx_svc_server_tests.cpp):
 * rq_pages filled as svc_alloc_arg() fills them, and the Reply laid out
 * in rq_res as svc_process() starts it (the head in the first respage).
 */

/* Fill rq_pages' empty slots (sendto takes a Reply's pages) and start over. */
static int rpcrdmax_kunit_svc_rqst_fill(struct svc_rqst *r)
{
	struct page **p;

	for (p = r->rq_pages; p < r->rq_page_end; p++)
		if (!*p && !(*p = alloc_page(GFP_KERNEL)))
			return -ENOMEM;
	/* Where a previous RPC's Reply left them: recvfrom must set them. */
	r->rq_respages = r->rq_pages + 1;
	r->rq_next_page = r->rq_respages;
	memset(&r->rq_arg, 0, sizeof(r->rq_arg));
	memset(&r->rq_res, 0, sizeof(r->rq_res));
	return 0;
}

/**
 * rpcrdmax_kunit_svc_rqst_new - an svc_rqst with @npages pages
 * @npages: rq_pages filled, at least 2 (a Call and its Reply)
 *
 * Returns the svc_rqst or NULL.
 */
struct svc_rqst *rpcrdmax_kunit_svc_rqst_new(unsigned int npages)
{
	struct svc_rqst *r;

	if (npages < 2 || npages > RPCSVC_MAXPAGES)
		return NULL;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return NULL;
	r->rq_page_end = r->rq_pages + npages;
	if (rpcrdmax_kunit_svc_rqst_fill(r)) {
		rpcrdmax_kunit_svc_rqst_free(r);
		return NULL;
	}
	return r;
}

/** rpcrdmax_kunit_svc_rqst_free - release an svc_rqst and its pages */
void rpcrdmax_kunit_svc_rqst_free(struct svc_rqst *rqstp)
{
	struct svc_rqst *r = rqstp;
	struct page **p;

	for (p = r->rq_pages; p < r->rq_page_end; p++)
		if (*p)
			__free_page(*p);
	kfree(r);
}

/* The module's are in shim/sunrpc/sysctl.c, not in this module. */
unsigned long long __percpu *rpcrdmax_svc_stats;

/** rpcrdmax_kunit_svc_stats_on - the rdma_stat_* counters for a case, zeroed */
int rpcrdmax_kunit_svc_stats_on(void)
{
	if (WARN_ON(rpcrdmax_svc_stats))
		return -EBUSY;
	rpcrdmax_svc_stats = __alloc_percpu(sizeof(*rpcrdmax_svc_stats) * RPCRDMAX_SVC_STAT_COUNT,
					    __alignof__(*rpcrdmax_svc_stats));
	return rpcrdmax_svc_stats ? 0 : -ENOMEM;
}

/** rpcrdmax_kunit_svc_stat - counter @which, summed over the CPUs */
unsigned long long rpcrdmax_kunit_svc_stat(unsigned int which)
{
	if (!rpcrdmax_svc_stats || which >= RPCRDMAX_SVC_STAT_COUNT)
		return 0;
	return rpcrdmax_svc_stat_sum(which);
}

/** rpcrdmax_kunit_svc_stats_off - free the counters (nothing counts after) */
void rpcrdmax_kunit_svc_stats_off(void)
{
	free_percpu(rpcrdmax_svc_stats);
	rpcrdmax_svc_stats = NULL;
}

/** rpcrdmax_kunit_svc_rqst_reset - ready @rqstp for the next message (svc_recv) */
int rpcrdmax_kunit_svc_rqst_reset(struct svc_rqst *rqstp)
{
	return rpcrdmax_kunit_svc_rqst_fill(rqstp);
}

/**
 * rpcrdmax_kunit_svc_rqst_res_pages - where recvfrom put the Reply's pages
 * @rqstp: the svc_rqst
 * @used: set to how many of them are in use (rq_next_page - rq_respages)
 *
 * Returns rq_respages' index in rq_pages.
 */
unsigned int rpcrdmax_kunit_svc_rqst_res_pages(struct svc_rqst *rqstp, unsigned int *used)
{
	struct svc_rqst *r = rqstp;

	*used = r->rq_next_page - r->rq_respages;
	return r->rq_respages - r->rq_pages;
}

/**
 * rpcrdmax_kunit_svc_rqst_arg - the Call recvfrom left in rq_arg
 * @rqstp: the svc_rqst
 * @dst: gets rq_arg's octets
 * @max: room at @dst
 *
 * Returns rq_arg.len, or -EMSGSIZE.
 */
int rpcrdmax_kunit_svc_rqst_arg(struct svc_rqst *rqstp, void *dst, unsigned int max)
{
	struct xdr_buf *arg = &rqstp->rq_arg;

	if (arg->len > max || read_bytes_from_xdr_buf(arg, 0, dst, arg->len))
		return -EMSGSIZE;
	return arg->len;
}

/**
 * rpcrdmax_kunit_svc_rqst_arg_in_pages - whether rq_arg starts in rq_pages
 * @rqstp: the svc_rqst, after recvfrom
 *
 * False when recvfrom left the Call where it was received.
 */
bool rpcrdmax_kunit_svc_rqst_arg_in_pages(struct svc_rqst *rqstp)
{
	struct svc_rqst *r = rqstp;
	const u8 *h = r->rq_arg.head[0].iov_base;
	struct page **p;

	for (p = r->rq_pages; p < r->rq_page_end; p++)
		if (*p && h >= (u8 *)page_address(*p) && h < (u8 *)page_address(*p) + PAGE_SIZE)
			return true;
	return false;
}

/**
 * rpcrdmax_kunit_svc_rqst_reply - put a Reply in rq_res, as nfsd lays one out
 * @rqstp: the svc_rqst, after recvfrom
 * @src: the Reply, @head + @page_len + @tail octets
 * @head: octets in the head kvec (the first respage), at most a page
 * @page_len: octets in the page list (the respages after it), from offset 0
 * @tail: octets in the tail kvec, in the head's page, kTailGap octets
 *	after the head (filled with 0xee: a reader that takes the tail to
 *	follow the head reads them)
 *
 * Returns 0 or -EMSGSIZE.
 */
int rpcrdmax_kunit_svc_rqst_reply(struct svc_rqst *rqstp, const void *src, unsigned int head,
				  unsigned int page_len, unsigned int tail)
{
	struct svc_rqst *r = rqstp;
	struct xdr_buf *res = &r->rq_res;
	unsigned int npages = DIV_ROUND_UP(page_len, PAGE_SIZE), i;
	const u8 *p = src;

	enum { kTailGap = 8 };

	if (head + kTailGap + tail > PAGE_SIZE || r->rq_respages + 1 + npages > r->rq_page_end)
		return -EMSGSIZE;
	res->head[0].iov_base = page_address(r->rq_respages[0]);
	res->head[0].iov_len = head;
	memcpy(res->head[0].iov_base, p, head);
	res->pages = r->rq_respages + 1;
	res->page_base = 0;
	res->page_len = page_len;
	for (i = 0; i < npages; i++)
		memcpy(page_address(res->pages[i]), p + head + i * PAGE_SIZE,
		       min_t(unsigned int, PAGE_SIZE, page_len - i * PAGE_SIZE));
	memset((u8 *)res->head[0].iov_base + head, 0xee, kTailGap);
	res->tail[0].iov_base = (u8 *)res->head[0].iov_base + head + kTailGap;
	res->tail[0].iov_len = tail;
	memcpy(res->tail[0].iov_base, p + head + page_len, tail);
	res->len = head + page_len + tail;
	res->buflen = (1 + npages) * PAGE_SIZE;
	r->rq_next_page = r->rq_respages + 1 + npages;
	return 0;
}

/**
 * rpcrdmax_kunit_svc_rqst_next_back - move rq_next_page @n slots back
 * @rqstp: the svc_rqst, after rpcrdmax_kunit_svc_rqst_reply()
 * @n: slots
 *
 * As a Reply stands after svc_authorise() appended RPCSEC_GSS
 * integrity's checksum in a page of its own: rq_res reaches slots that
 * rq_next_page (moved by nfsd after its last operation) does not cover.
 */
void rpcrdmax_kunit_svc_rqst_next_back(struct svc_rqst *rqstp, unsigned int n)
{
	struct svc_rqst *r = rqstp;

	r->rq_next_page -= min_t(unsigned int, n, r->rq_next_page - r->rq_respages);
}

/** rpcrdmax_kunit_svc_rqst_slot - rq_respages[@i] (NULL once taken; -1 is the
 * slot below, once rq_respages moved past a copied head's page) */
struct page *rpcrdmax_kunit_svc_rqst_slot(struct svc_rqst *rqstp, int i)
{
	return rqstp->rq_respages[i];
}

/**
 * rpcrdmax_kunit_qp_error - move @qp to the error state, nothing sent
 * @qp: a connected QP
 *
 * Its peer's requests then go unanswered (no DREQ, no disconnect): a
 * peer gone silent.  0 or a negative errno.
 */
int rpcrdmax_kunit_qp_error(struct ib_qp *qp)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

	return ib_modify_qp(qp, &attr, IB_QP_STATE);
}

/** rpcrdmax_kunit_page_get - take a reference on @page; its count after */
int rpcrdmax_kunit_page_get(struct page *page)
{
	get_page(page);
	return page_count(page);
}

/** rpcrdmax_kunit_page_count - the references on @page, which the caller holds one of */
int rpcrdmax_kunit_page_count(struct page *page)
{
	return page_count(page);
}

/** rpcrdmax_kunit_page_put - drop the reference rpcrdmax_kunit_page_get() took */
void rpcrdmax_kunit_page_put(struct page *page)
{
	put_page(page);
}

/** rpcrdmax_kunit_svc_rqst_swap_slot - put @page in rq_respages[@i]; what it held */
struct page *rpcrdmax_kunit_svc_rqst_swap_slot(struct svc_rqst *rqstp, unsigned int i,
					       struct page *page)
{
	struct svc_rqst *r = rqstp;
	void *was = r->rq_respages[i];

	r->rq_respages[i] = page;
	return was;
}

/*
 * The client's xprtrdma_reply_*_err events, counted: a probe on each of
 * the four tracepoints (the KUnit module defines its own copies, from
 * shim/kernel/trace.c above), keeping how often each fired and the last
 * XID it reported.
 */
struct rpcrdmax_kunit_reply_err_counts {
	atomic_t count[4];
	u32 xid[4];
};
static struct rpcrdmax_kunit_reply_err_counts rpcrdmax_kunit_reply_err_counts;

static void rpcrdmax_kunit_reply_err_probe(void *which, const struct rpc_xprt *xprt, u32 xid,
					   u32 version, u32 proc)
{
	unsigned long i = (unsigned long)which;

	WRITE_ONCE(rpcrdmax_kunit_reply_err_counts.xid[i], xid);
	atomic_inc(&rpcrdmax_kunit_reply_err_counts.count[i]);
}

#define RPCRDMAX_KUNIT_REPLY_ERR_PROBE(op, name, which)			\
	op##_trace_xprtrdma_reply_##name##_err(rpcrdmax_kunit_reply_err_probe, \
					       (void *)(unsigned long)(which))

/**
 * rpcrdmax_kunit_watch_reply_errs - count the xprtrdma_reply_*_err events
 * @on: true to start (the counts start at zero), false to stop
 *
 * Returns 0 or the errno of a probe that could not be registered (none
 * is left registered then).
 */
int rpcrdmax_kunit_watch_reply_errs(bool on)
{
	int rc;

	if (!on) {
		RPCRDMAX_KUNIT_REPLY_ERR_PROBE(unregister, short, RPCRDMAX_REPLY_ERR_SHORT);
		RPCRDMAX_KUNIT_REPLY_ERR_PROBE(unregister, vers, RPCRDMAX_REPLY_ERR_VERS);
		RPCRDMAX_KUNIT_REPLY_ERR_PROBE(unregister, rqst, RPCRDMAX_REPLY_ERR_RQST);
		RPCRDMAX_KUNIT_REPLY_ERR_PROBE(unregister, hdr, RPCRDMAX_REPLY_ERR_HDR);
		tracepoint_synchronize_unregister();
		return 0;
	}
	memset(&rpcrdmax_kunit_reply_err_counts, 0, sizeof(rpcrdmax_kunit_reply_err_counts));
	rc = RPCRDMAX_KUNIT_REPLY_ERR_PROBE(register, short, RPCRDMAX_REPLY_ERR_SHORT);
	if (!rc)
		rc = RPCRDMAX_KUNIT_REPLY_ERR_PROBE(register, vers, RPCRDMAX_REPLY_ERR_VERS);
	if (!rc)
		rc = RPCRDMAX_KUNIT_REPLY_ERR_PROBE(register, rqst, RPCRDMAX_REPLY_ERR_RQST);
	if (!rc)
		rc = RPCRDMAX_KUNIT_REPLY_ERR_PROBE(register, hdr, RPCRDMAX_REPLY_ERR_HDR);
	if (rc)
		rpcrdmax_kunit_watch_reply_errs(false);
	return rc;
}

/*
 * The client's xprtrdma_err_chunk and xprtrdma_err_unrecognized events,
 * counted the same way: which RDMA_ERROR a Call's Reply was taken for.
 */
static atomic_t rpcrdmax_kunit_rdma_err_count[2];
static u32 rpcrdmax_kunit_rdma_err_last;

static void rpcrdmax_kunit_err_chunk_probe(void *data, const struct rpc_rqst *rqst)
{
	atomic_inc(&rpcrdmax_kunit_rdma_err_count[0]);
}

static void rpcrdmax_kunit_err_unrec_probe(void *data, const struct rpc_rqst *rqst, u32 err)
{
	WRITE_ONCE(rpcrdmax_kunit_rdma_err_last, err);
	atomic_inc(&rpcrdmax_kunit_rdma_err_count[1]);
}

/**
 * rpcrdmax_kunit_watch_rdma_errs - count xprtrdma_err_chunk and _err_unrecognized
 * @on: true to start (the counts start at zero), false to stop
 *
 * Returns 0 or the errno of a probe that could not be registered (none
 * is left registered then).
 */
int rpcrdmax_kunit_watch_rdma_errs(bool on)
{
	int rc;

	if (!on) {
		unregister_trace_xprtrdma_err_chunk(rpcrdmax_kunit_err_chunk_probe, NULL);
		unregister_trace_xprtrdma_err_unrecognized(rpcrdmax_kunit_err_unrec_probe, NULL);
		tracepoint_synchronize_unregister();
		return 0;
	}
	atomic_set(&rpcrdmax_kunit_rdma_err_count[0], 0);
	atomic_set(&rpcrdmax_kunit_rdma_err_count[1], 0);
	WRITE_ONCE(rpcrdmax_kunit_rdma_err_last, 0);
	rc = register_trace_xprtrdma_err_chunk(rpcrdmax_kunit_err_chunk_probe, NULL);
	if (!rc)
		rc = register_trace_xprtrdma_err_unrecognized(rpcrdmax_kunit_err_unrec_probe, NULL);
	if (rc)
		rpcrdmax_kunit_watch_rdma_errs(false);
	return rc;
}

/**
 * rpcrdmax_kunit_rdma_errs - how often xprtrdma_err_chunk or _err_unrecognized fired
 * @unrecognized: false: xprtrdma_err_chunk; true: xprtrdma_err_unrecognized
 * @err: set to the rdma_err _err_unrecognized last reported (0 if none)
 */
unsigned int rpcrdmax_kunit_rdma_errs(bool unrecognized, unsigned int *err)
{
	*err = READ_ONCE(rpcrdmax_kunit_rdma_err_last);
	return atomic_read(&rpcrdmax_kunit_rdma_err_count[unrecognized]);
}

/*
 * Two of the hot tracepoints the C++ tests before it calls
 * (rpcrdmax_tp_key): xprtrdma_marshal and xprtrdma_reply, counted the
 * same way.
 */
static atomic_t rpcrdmax_kunit_hot_count[2];

static void rpcrdmax_kunit_marshal_probe(void *data, const struct rpc_rqst *rqst,
					 unsigned int hdrlen, unsigned int rtype, unsigned int wtype)
{
	atomic_inc(&rpcrdmax_kunit_hot_count[0]);
}

static void rpcrdmax_kunit_reply_probe(void *data, const struct rpc_rqst *rqst,
				       unsigned int credits)
{
	atomic_inc(&rpcrdmax_kunit_hot_count[1]);
}

/**
 * rpcrdmax_kunit_watch_hot - count xprtrdma_marshal and xprtrdma_reply
 * @on: true to start (the counts start at zero), false to stop
 *
 * Returns 0 or the errno of a probe that could not be registered (none
 * is left registered then).
 */
int rpcrdmax_kunit_watch_hot(bool on)
{
	int rc;

	if (!on) {
		unregister_trace_xprtrdma_marshal(rpcrdmax_kunit_marshal_probe, NULL);
		unregister_trace_xprtrdma_reply(rpcrdmax_kunit_reply_probe, NULL);
		tracepoint_synchronize_unregister();
		return 0;
	}
	atomic_set(&rpcrdmax_kunit_hot_count[0], 0);
	atomic_set(&rpcrdmax_kunit_hot_count[1], 0);
	rc = register_trace_xprtrdma_marshal(rpcrdmax_kunit_marshal_probe, NULL);
	if (!rc)
		rc = register_trace_xprtrdma_reply(rpcrdmax_kunit_reply_probe, NULL);
	if (rc)
		rpcrdmax_kunit_watch_hot(false);
	return rc;
}

/** rpcrdmax_kunit_hot - how often xprtrdma_marshal (@reply false) or _reply fired */
unsigned int rpcrdmax_kunit_hot(bool reply)
{
	return atomic_read(&rpcrdmax_kunit_hot_count[reply]);
}

/* The server's svcrdma_small_wrch_err, counted the same way. */
static atomic_t rpcrdmax_kunit_small_wrch_count;
static unsigned int rpcrdmax_kunit_small_wrch_last[2];

static void rpcrdmax_kunit_small_wrch_probe(void *data, const char *addr, const char *device,
					    unsigned int remaining, unsigned int seg_no,
					    unsigned int num_segs)
{
	WRITE_ONCE(rpcrdmax_kunit_small_wrch_last[0], remaining);
	WRITE_ONCE(rpcrdmax_kunit_small_wrch_last[1], num_segs);
	atomic_inc(&rpcrdmax_kunit_small_wrch_count);
}

/**
 * rpcrdmax_kunit_watch_small_wrch - count svcrdma_small_wrch_err
 * @on: true to start (the count starts at zero), false to stop
 *
 * Returns 0 or the errno of the probe's registration.
 */
int rpcrdmax_kunit_watch_small_wrch(bool on)
{
	if (!on) {
		unregister_trace_svcrdma_small_wrch_err(rpcrdmax_kunit_small_wrch_probe, NULL);
		tracepoint_synchronize_unregister();
		return 0;
	}
	atomic_set(&rpcrdmax_kunit_small_wrch_count, 0);
	memset(rpcrdmax_kunit_small_wrch_last, 0, sizeof(rpcrdmax_kunit_small_wrch_last));
	return register_trace_svcrdma_small_wrch_err(rpcrdmax_kunit_small_wrch_probe, NULL);
}

/**
 * rpcrdmax_kunit_small_wrch - how often svcrdma_small_wrch_err fired
 * @remaining: set to the last one's octets that did not fit
 * @num_segs: set to the last one's segments in the chunk
 */
unsigned int rpcrdmax_kunit_small_wrch(unsigned int *remaining, unsigned int *num_segs)
{
	*remaining = READ_ONCE(rpcrdmax_kunit_small_wrch_last[0]);
	*num_segs = READ_ONCE(rpcrdmax_kunit_small_wrch_last[1]);
	return atomic_read(&rpcrdmax_kunit_small_wrch_count);
}

/*
 * The server's events of every Reply, with a record of the work each
 * Send and chunk post carried (svcrdma_post_send's SGEs, the chunks'
 * Send Queue entries) and of the segments svcrdma_encode_wseg showed.
 */
static struct rpcrdmax_kunit_svc_work rpcrdmax_kunit_svc_seen;
static DEFINE_SPINLOCK(rpcrdmax_kunit_svc_work_lock);

static void rpcrdmax_kunit_svc_send_probe(void *data, u32 cq_id, int cid, unsigned int num_sge,
					  u32 inv_rkey)
{
	spin_lock_bh(&rpcrdmax_kunit_svc_work_lock);
	rpcrdmax_kunit_svc_seen.sends++;
	rpcrdmax_kunit_svc_seen.send_sges += num_sge;
	spin_unlock_bh(&rpcrdmax_kunit_svc_work_lock);
}

static void rpcrdmax_kunit_svc_chunk_probe(void *data, u32 cq_id, int cid, int sqecount)
{
	spin_lock_bh(&rpcrdmax_kunit_svc_work_lock);
	rpcrdmax_kunit_svc_seen.chunk_posts++;
	rpcrdmax_kunit_svc_seen.chunk_sqes += sqecount;
	spin_unlock_bh(&rpcrdmax_kunit_svc_work_lock);
}

static void rpcrdmax_kunit_svc_wseg_probe(void *data, u32 cq_id, int cid, u32 segno, u32 handle,
					  u32 length, u64 offset)
{
	spin_lock_bh(&rpcrdmax_kunit_svc_work_lock);
	rpcrdmax_kunit_svc_seen.wsegs++;
	rpcrdmax_kunit_svc_seen.wseg_octets += length;
	spin_unlock_bh(&rpcrdmax_kunit_svc_work_lock);
}

static void rpcrdmax_kunit_svc_recv_probe(void *data, u32 cq_id, int cid)
{
}

static void rpcrdmax_kunit_svc_nop_chunk_probe(void *data, u32 cq_id, int cid, int sqecount)
{
}

static void rpcrdmax_kunit_svc_nop_wseg_probe(void *data, u32 cq_id, int cid, u32 segno,
					      u32 handle, u32 length, u64 offset)
{
}

static void rpcrdmax_kunit_svc_rqst_probe(void *data, u32 cq_id, int cid, u32 xid, u32 vers,
					  u32 proc, u32 credits, unsigned int hdrlen)
{
}

static void rpcrdmax_kunit_svc_rseg_probe(void *data, u32 cq_id, int cid, u32 segno, u32 position,
					  u32 handle, u32 length, u64 offset)
{
}

/* Every event of the list, in the order registered; unregistered in
 * reverse.  X(event, probe, wanted): @wanted false leaves the event off
 * (rpcrdmax_kunit_watch_svc_work's @all). */
#define RPCRDMAX_KUNIT_SVC_EVENTS(X)					\
	X(svcrdma_post_send, rpcrdmax_kunit_svc_send_probe, true)	\
	X(svcrdma_post_write_chunk, rpcrdmax_kunit_svc_chunk_probe, true) \
	X(svcrdma_post_reply_chunk, rpcrdmax_kunit_svc_chunk_probe, true) \
	X(svcrdma_post_recv, rpcrdmax_kunit_svc_recv_probe, all)	\
	X(svcrdma_decode_rqst, rpcrdmax_kunit_svc_rqst_probe, all)	\
	X(svcrdma_decode_rseg, rpcrdmax_kunit_svc_rseg_probe, all)	\
	X(svcrdma_decode_wseg, rpcrdmax_kunit_svc_nop_wseg_probe, all)	\
	X(svcrdma_post_read_chunk, rpcrdmax_kunit_svc_nop_chunk_probe, all) \
	X(svcrdma_encode_wseg, rpcrdmax_kunit_svc_wseg_probe, all)

static bool rpcrdmax_kunit_svc_watched_all;

/**
 * rpcrdmax_kunit_watch_svc_work - record the work of the server's Replies
 * @on: true to start (the record starts empty), false to stop
 * @all: with @on, probe every event the server fires for each Call and
 *	Reply (all are then on); else only the three that record the work
 *	(svcrdma_post_send, _post_write_chunk, _post_reply_chunk)
 *
 * Returns 0 or the errno of a probe that could not be registered (none
 * is left registered then).
 */
int rpcrdmax_kunit_watch_svc_work(bool on, bool all)
{
	int rc = 0;

	if (!on) {
		all = rpcrdmax_kunit_svc_watched_all;
#define RPCRDMAX_KUNIT_SVC_UNREG(event, probe, wanted) \
		if (wanted)                             \
			unregister_trace_##event(probe, NULL);
		RPCRDMAX_KUNIT_SVC_EVENTS(RPCRDMAX_KUNIT_SVC_UNREG)
#undef RPCRDMAX_KUNIT_SVC_UNREG
		tracepoint_synchronize_unregister();
		return 0;
	}
	memset(&rpcrdmax_kunit_svc_seen, 0, sizeof(rpcrdmax_kunit_svc_seen));
	rpcrdmax_kunit_svc_watched_all = all;
#define RPCRDMAX_KUNIT_SVC_REG(event, probe, wanted) \
	if (!rc && (wanted))                          \
		rc = register_trace_##event(probe, NULL);
	RPCRDMAX_KUNIT_SVC_EVENTS(RPCRDMAX_KUNIT_SVC_REG)
#undef RPCRDMAX_KUNIT_SVC_REG
	if (rc) {
		/* unregistering one that never was is harmless (-ENOENT) */
		rpcrdmax_kunit_watch_svc_work(false, all);
	}
	return rc;
}

/** rpcrdmax_kunit_svc_work - the record so far, copied into @w */
void rpcrdmax_kunit_svc_work(struct rpcrdmax_kunit_svc_work *w)
{
	spin_lock_bh(&rpcrdmax_kunit_svc_work_lock);
	*w = rpcrdmax_kunit_svc_seen;
	spin_unlock_bh(&rpcrdmax_kunit_svc_work_lock);
}

/**
 * rpcrdmax_kunit_reply_errs - how often one xprtrdma_reply_*_err fired
 * @which: the event
 * @xid: set to the XID it last reported (0 if it never fired)
 */
unsigned int rpcrdmax_kunit_reply_errs(enum rpcrdmax_reply_err which, unsigned int *xid)
{
	*xid = READ_ONCE(rpcrdmax_kunit_reply_err_counts.xid[which]);
	return atomic_read(&rpcrdmax_kunit_reply_err_counts.count[which]);
}

/*
 * The order of a transport's frees on its device (the teardown_order
 * cases): a kprobe on each verb that frees a QP, CQ, PD or MR and on
 * rdma_destroy_id counts the call, by kind, with its order number, when
 * the task that asked for the watch makes it.
 */
static struct task_struct *rpcrdmax_kunit_frees_task;
static atomic_t rpcrdmax_kunit_frees_n;
static struct rpcrdmax_kunit_free_counts rpcrdmax_kunit_frees_seen;
static struct kprobe rpcrdmax_kunit_free_probes[RPCRDMAX_KUNIT_FREE_KINDS];
static const char *const rpcrdmax_kunit_free_syms[RPCRDMAX_KUNIT_FREE_KINDS] = {
	[RPCRDMAX_KUNIT_FREE_QP] = "ib_destroy_qp_user",
	[RPCRDMAX_KUNIT_FREE_CQ] = "ib_free_cq",
	[RPCRDMAX_KUNIT_FREE_PD] = "ib_dealloc_pd_user",
	[RPCRDMAX_KUNIT_FREE_MR] = "ib_dereg_mr_user",
	[RPCRDMAX_KUNIT_FREE_ID] = "rdma_destroy_id",
};

/* (One task only: the counts need no lock.) */
static int rpcrdmax_kunit_free_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct rpcrdmax_kunit_free_counts *f = &rpcrdmax_kunit_frees_seen;
	unsigned int kind = p - rpcrdmax_kunit_free_probes, n;

	if (current != READ_ONCE(rpcrdmax_kunit_frees_task))
		return 0;
	n = atomic_inc_return(&rpcrdmax_kunit_frees_n);
	if (!f->count[kind]++)
		f->first[kind] = n;
	f->last[kind] = n;
	return 0;
}

/**
 * rpcrdmax_kunit_watch_frees - start counting the calling task's frees
 *
 * Returns 0, or the errno of the probes' registration (-EOPNOTSUPP on a
 * kernel without kprobes).
 */
int rpcrdmax_kunit_watch_frees(void)
{
	struct kprobe *kps[RPCRDMAX_KUNIT_FREE_KINDS];
	int i;

	for (i = 0; i < RPCRDMAX_KUNIT_FREE_KINDS; i++) {
		rpcrdmax_kunit_free_probes[i] = (struct kprobe){
			.symbol_name = rpcrdmax_kunit_free_syms[i],
			.pre_handler = rpcrdmax_kunit_free_pre,
		};
		kps[i] = &rpcrdmax_kunit_free_probes[i];
	}
	atomic_set(&rpcrdmax_kunit_frees_n, 0);
	memset(&rpcrdmax_kunit_frees_seen, 0, sizeof(rpcrdmax_kunit_frees_seen));
	WRITE_ONCE(rpcrdmax_kunit_frees_task, current);
	i = register_kprobes(kps, RPCRDMAX_KUNIT_FREE_KINDS);
	if (i)
		WRITE_ONCE(rpcrdmax_kunit_frees_task, NULL);
	return i;
}

/**
 * rpcrdmax_kunit_frees - stop the watch and read its counts
 * @out: set to each kind's count and first and last order numbers
 */
void rpcrdmax_kunit_frees(struct rpcrdmax_kunit_free_counts *out)
{
	struct kprobe *kps[RPCRDMAX_KUNIT_FREE_KINDS];
	unsigned int i;

	for (i = 0; i < RPCRDMAX_KUNIT_FREE_KINDS; i++)
		kps[i] = &rpcrdmax_kunit_free_probes[i];
	unregister_kprobes(kps, RPCRDMAX_KUNIT_FREE_KINDS);
	WRITE_ONCE(rpcrdmax_kunit_frees_task, NULL);
	*out = rpcrdmax_kunit_frees_seen;
}
