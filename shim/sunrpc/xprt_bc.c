// SPDX-License-Identifier: GPL-2.0
/*
 * shim/sunrpc/xprt_bc.c - the client's backchannel slots, for C++: the bc_*
 * rpc_xprt_ops of the "rdma" client transport and the two calls C++
 * makes for backward-direction RPC (RFC 8167).
 *
 * The NFSv4.1+ callback service takes backward Calls from a transport's
 * preallocated rpc_rqsts (xprt->bc_pa_list), each with a page for the
 * Call and a page for its Reply.  bc_setup() makes them (as many as C++
 * says a transport takes at once); a backward Call the C++ receive path
 * finds is copied into a free one and queued to the service
 * (rpcrdmax_xprt_bc_call); the service's Reply comes back through
 * send_request without an rq_buffer and goes to C++'s bc_send (see
 * shim/sunrpc/xprt.c); bc_free_rqst() puts the slot back.  The two calls C++
 * makes (queue a Call, copy a Reply out) are in shim/sunrpc/xprt_rqst.c, with
 * the other rpc_rqst helpers the KUnit module carries too.
 */
#include <linux/slab.h>
#include <linux/sunrpc/bc_xprt.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/xdr.h>
#include "../internal.h"

static void rpcrdmax_bc_slot_free(struct rpcrdmax_bc_slot *s)
{
	free_page((unsigned long)s->call);
	free_page((unsigned long)s->reply);
	kfree(s);
}

/* Ready @s for its next Call: idle, its Reply buffer empty. */
static void rpcrdmax_bc_slot_reset(struct rpcrdmax_bc_slot *s)
{
	struct rpc_rqst *r = &s->rqst;

	r->rq_reply_bytes_recvd = 0;
	xdr_buf_init(&r->rq_snd_buf, s->reply, PAGE_SIZE);
	xdr_buf_init(&r->rq_rcv_buf, s->call, PAGE_SIZE);
}

/**
 * rpcrdmax_xprt_bc_setup - make the backchannel slots of a transport
 * @xprt: the transport
 * @min_reqs: the slots the callback service asks for
 *
 * Makes up to rpcrdmax_clnt_bc_slots() slots in all.  Returns 0 or
 * -ENOMEM.
 */
int rpcrdmax_xprt_bc_setup(struct rpc_xprt *xprt, unsigned int min_reqs)
{
	unsigned int want = min(max(min_reqs, 1u), rpcrdmax_clnt_bc_slots());

	while (READ_ONCE(xprt->bc_alloc_count) < want) {
		struct rpcrdmax_bc_slot *s = kzalloc(sizeof(*s), GFP_KERNEL);

		if (s) {
			s->call = (void *)__get_free_page(GFP_KERNEL);
			s->reply = (void *)__get_free_page(GFP_KERNEL);
		}
		if (!s || !s->call || !s->reply) {
			if (s)
				rpcrdmax_bc_slot_free(s);
			return -ENOMEM;
		}
		s->rqst.rq_xprt = xprt;
#if !RPCRDMAX_HAVE_BC_LWQ
		INIT_LIST_HEAD(&s->rqst.rq_bc_list);
#endif
		__set_bit(RPC_BC_PA_IN_USE, &s->rqst.rq_bc_pa_state);
		rpcrdmax_bc_slot_reset(s);
		spin_lock_bh(&xprt->bc_pa_lock);
		list_add_tail(&s->rqst.rq_bc_pa_list, &xprt->bc_pa_list);
		xprt->bc_alloc_count++;
		spin_unlock_bh(&xprt->bc_pa_lock);
	}
	rpcrdmax_trace_cb_setup(xprt, want);
	return 0;
}

/** rpcrdmax_xprt_bc_destroy - free the idle backchannel slots of @xprt */
void rpcrdmax_xprt_bc_destroy(struct rpc_xprt *xprt, unsigned int max_reqs)
{
	struct rpc_rqst *r, *tmp;
	LIST_HEAD(idle);

	spin_lock_bh(&xprt->bc_pa_lock);
	list_splice_init(&xprt->bc_pa_list, &idle);
	spin_unlock_bh(&xprt->bc_pa_lock);
	list_for_each_entry_safe(r, tmp, &idle, rq_bc_pa_list) {
		list_del(&r->rq_bc_pa_list);
		spin_lock_bh(&xprt->bc_pa_lock);
		xprt->bc_alloc_count--;
		spin_unlock_bh(&xprt->bc_pa_lock);
		rpcrdmax_bc_slot_free(container_of(r, struct rpcrdmax_bc_slot, rqst));
	}
}

/** rpcrdmax_xprt_bc_free_rqst - the callback service is done with a slot */
void rpcrdmax_xprt_bc_free_rqst(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;

	rpcrdmax_bc_slot_reset(container_of(rqst, struct rpcrdmax_bc_slot, rqst));
	spin_lock_bh(&xprt->bc_pa_lock);
	list_add_tail(&rqst->rq_bc_pa_list, &xprt->bc_pa_list);
	spin_unlock_bh(&xprt->bc_pa_lock);
	xprt_put(xprt);	/* taken when the Call was queued */
}

/** rpcrdmax_xprt_bc_maxpayload - the largest backward message */
size_t rpcrdmax_xprt_bc_maxpayload(struct rpc_xprt *xprt)
{
	return min_t(size_t, rpcrdmax_clnt_bc_max_payload(rpcrdmax_xprt_ep(xprt)), PAGE_SIZE);
}

/** rpcrdmax_xprt_bc_num_slots - backward Calls a transport takes at once */
unsigned int rpcrdmax_xprt_bc_num_slots(struct rpc_xprt *xprt)
{
	return rpcrdmax_clnt_bc_slots();
}
