// SPDX-License-Identifier: GPL-2.0
/*
 * shim/sunrpc/xprt.c - the sunrpc client transport class "rdma", for C++.
 *
 * sunrpc drives a transport through struct rpc_xprt_ops.  Each op here
 * only translates: it finds the C++ endpoint (xprtrdma/) and hands it
 * plain values; the generic congestion, slot and timeout handling is
 * sunrpc's own.  The C++ side reaches back through the rpcrdmax_xprt_*
 * helpers below to find and complete requests by XID and to report a
 * lost connection; shim/sunrpc/xprt_rqst.c has those that touch only a
 * request's xdr_bufs.
 *
 * Connecting sleeps (address and route resolution, the CM handshake), so
 * it runs from a delayed work item, as sunrpc expects of ->connect.
 */
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/xdr.h>
#include <linux/seq_file.h>
#include "../internal.h"

struct rpcrdmax_xprt {
	struct rpc_xprt xprt;		/* first: xprt_alloc() sizes the whole */
	struct rpcrdmax_clnt *ep;	/* the C++ endpoint */
	struct delayed_work connect_worker;
	bool debugfs_done;		/* shim/sunrpc/debugfs.c's file made */
	int cong_tag;			/* under transport_lock (xprt_cong.c) */
};


static struct rpcrdmax_xprt *rpcrdmax_x(struct rpc_xprt *xprt)
{
	return container_of(xprt, struct rpcrdmax_xprt, xprt);
}

struct rpcrdmax_clnt *rpcrdmax_xprt_ep(struct rpc_xprt *xprt)
{
	return rpcrdmax_x(xprt)->ep;
}

/* Generous timeouts: retransmission on a reliable transport means trouble. */
static const struct rpc_timeout rpcrdmax_timeout = {
	.to_initval = 60 * HZ,
	.to_maxval = 60 * HZ,
};

/* Address strings for an rpc_xprt of ours (the backchannel's too). */
void rpcrdmax_xprt_format_addresses(struct rpc_xprt *xprt)
{
	struct sockaddr *sap = (struct sockaddr *)&xprt->addr;
	char buf[128];

	rpc_ntop(sap, buf, sizeof(buf));
	xprt->address_strings[RPC_DISPLAY_ADDR] = kstrdup(buf, GFP_KERNEL);
	snprintf(buf, sizeof(buf), "%u", rpc_get_port(sap));
	xprt->address_strings[RPC_DISPLAY_PORT] = kstrdup(buf, GFP_KERNEL);
	snprintf(buf, sizeof(buf), "%4hx", rpc_get_port(sap));
	xprt->address_strings[RPC_DISPLAY_HEX_PORT] = kstrdup(buf, GFP_KERNEL);
	xprt->address_strings[RPC_DISPLAY_PROTO] = "rdma";
	xprt->address_strings[RPC_DISPLAY_NETID] =
		sap->sa_family == AF_INET6 ? RPCBIND_NETID_RDMA6 : RPCBIND_NETID_RDMA;
}

void rpcrdmax_xprt_free_addresses(struct rpc_xprt *xprt)
{
	kfree(xprt->address_strings[RPC_DISPLAY_ADDR]);
	kfree(xprt->address_strings[RPC_DISPLAY_PORT]);
	kfree(xprt->address_strings[RPC_DISPLAY_HEX_PORT]);
}

static void rpcrdmax_xprt_connect_worker(struct work_struct *work)
{
	struct rpcrdmax_xprt *rx = container_of(work, struct rpcrdmax_xprt,
						 connect_worker.work);
	struct rpc_xprt *xprt = &rx->xprt;
	bool swapper = atomic_read(&xprt->swapper);
	unsigned int noreclaim = 0;
	int rc;

	/* A transport that carries swap may dip into the reserves to
	 * reconnect: reclaim may be waiting for it to write pages out. */
	if (swapper)
		noreclaim = memalloc_noreclaim_save();
	rc = rpcrdmax_clnt_connect(rx->ep, &xprt->addr, xprt->addrlen);
	xprt_clear_connecting(xprt);
	if (!rc) {
		xprt->connect_cookie++;
		xprt->stat.connect_count++;
		xprt->stat.connect_time += (long)jiffies - xprt->stat.connect_start;
		xprt_set_connected(xprt);
		if (!rx->debugfs_done)
			rx->debugfs_done = rpcrdmax_xprt_debugfs_add(xprt);
		rc = -EAGAIN;	/* the waiting tasks retry their transmission */
	}
	xprt_unlock_connect(xprt, rx);
	xprt_wake_pending_tasks(xprt, rc);
	if (swapper)
		memalloc_noreclaim_restore(noreclaim);
}

static void rpcrdmax_xprt_connect(struct rpc_xprt *xprt, struct rpc_task *task)
{
	struct rpcrdmax_xprt *rx = rpcrdmax_x(xprt);
	unsigned long delay;

	WARN_ON_ONCE(!xprt_lock_connect(xprt, task, rx));
	delay = rpcrdmax_clnt_connect_delay(rx->ep);
	rpcrdmax_trace_op_connect(xprt, delay);
	queue_delayed_work(system_long_wq, &rx->connect_worker, delay);
}

static void rpcrdmax_xprt_close(struct rpc_xprt *xprt)
{
	rpcrdmax_clnt_close(rpcrdmax_x(xprt)->ep);
	++xprt->connect_cookie;
	xprt_disconnect_done(xprt);
}

static void rpcrdmax_xprt_destroy(struct rpc_xprt *xprt)
{
	struct rpcrdmax_xprt *rx = rpcrdmax_x(xprt);

	cancel_delayed_work_sync(&rx->connect_worker);
	rpcrdmax_clnt_destroy(rx->ep);
	/* Backchannel slots still made: each in use held a reference. */
	rpcrdmax_xprt_bc_destroy(xprt, 0);
	rpcrdmax_xprt_free_addresses(xprt);
	xprt_free(xprt);
	module_put(THIS_MODULE);
}

/*
 * Swap on a file of an NFS/RDMA mount (swapon): sunrpc calls these two
 * without checking that they exist.  The transport has nothing to set up
 * (its hot path does not allocate); xprt->swapper, which sunrpc keeps,
 * makes a reconnect use the memory reserves (the connect worker above).
 */
static int rpcrdmax_xprt_enable_swap(struct rpc_xprt *xprt)
{
	return 0;
}

static void rpcrdmax_xprt_disable_swap(struct rpc_xprt *xprt)
{
}

/* CONFIG_FAIL_SUNRPC's injected connection loss (also called unchecked):
 * close the connection the way a lost one is closed; sunrpc reconnects. */
static void rpcrdmax_xprt_inject_disconnect(struct rpc_xprt *xprt)
{
	rpcrdmax_trace_op_inject_dsc(xprt);
	xprt_force_disconnect(xprt);
}

static void rpcrdmax_xprt_set_port(struct rpc_xprt *xprt, u16 port)
{
	char buf[8];

	rpc_set_port((struct sockaddr *)&xprt->addr, port);
	kfree(xprt->address_strings[RPC_DISPLAY_PORT]);
	snprintf(buf, sizeof(buf), "%u", port);
	xprt->address_strings[RPC_DISPLAY_PORT] = kstrdup(buf, GFP_KERNEL);
	kfree(xprt->address_strings[RPC_DISPLAY_HEX_PORT]);
	snprintf(buf, sizeof(buf), "%4hx", port);
	xprt->address_strings[RPC_DISPLAY_HEX_PORT] = kstrdup(buf, GFP_KERNEL);
}

/* sunrpc's ->release_request, called under the transport lock. */
static void rpcrdmax_xprt_release_rqst(struct rpc_task *task)
{
	rpcrdmax_cong_release(task, rpcrdmax_x(task->tk_rqstp->rq_xprt)->cong_tag);
}

static void rpcrdmax_xprt_timer(struct rpc_xprt *xprt, struct rpc_task *task)
{
	/* A timed-out RPC on a reliable transport: reset the connection. */
	xprt_force_disconnect(xprt);
}

static int rpcrdmax_xprt_buf_alloc(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;

	return rpcrdmax_clnt_buf_alloc(rpcrdmax_x(rqst->rq_xprt)->ep, rqst,
				       (__force unsigned int)(rpc_task_gfp_mask() | __GFP_NOWARN));
}

/* Registrations still live (the RPC ended early) are invalidated before
 * the pages they cover can be released. */
static void rpcrdmax_xprt_buf_free(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;

	rpcrdmax_clnt_buf_free(rpcrdmax_x(rqst->rq_xprt)->ep, rqst);
}

static int rpcrdmax_xprt_send_request(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;
	unsigned int how = 0;
	int rc;

	if (xprt_connected(xprt)) {
		how |= RPCRDMAX_XMIT_CONNECTED;
		if (rpcrdmax_cong_get(xprt, rqst, rpcrdmax_x(xprt)->cong_tag))
			how |= RPCRDMAX_XMIT_CONG;
	}
	if (rqst->rq_connect_cookie == xprt->connect_cookie)
		how |= RPCRDMAX_XMIT_SAME_CONNECTION;
	/* The Reply to a backward Call (shim/sunrpc/xprt_bc.c) has no
	 * rq_buffer, and no task of its own to ask. */
	if (rqst->rq_buffer) {
		if (rpc_reply_expected(rqst->rq_task))
			how |= RPCRDMAX_XMIT_REPLY_EXPECTED;
		if (RPC_IS_SOFT(rqst->rq_task))
			how |= RPCRDMAX_XMIT_SOFT;
	}
	rc = rpcrdmax_clnt_transmit(rpcrdmax_x(xprt)->ep, rqst, how, jiffies, ktime_get());
	if (rc == -ENOTCONN && (how & RPCRDMAX_XMIT_CONNECTED))
		xprt_force_disconnect(xprt);
	return rc;
}

static void rpcrdmax_xprt_set_connect_timeout(struct rpc_xprt *xprt,
					      unsigned long connect_timeout,
					      unsigned long reconnect_timeout)
{
	rpcrdmax_trace_op_set_cto(xprt, connect_timeout, reconnect_timeout);
	spin_lock(&xprt->transport_lock);
	if (connect_timeout < xprt->connect_timeout)
		xprt->connect_timeout = connect_timeout;
	if (reconnect_timeout < xprt->max_reconnect_timeout)
		xprt->max_reconnect_timeout = reconnect_timeout;
	spin_unlock(&xprt->transport_lock);
}

static void rpcrdmax_xprt_print_stats(struct rpc_xprt *xprt, struct seq_file *seq)
{
	long idle = 0;

	if (xprt_connected(xprt))
		idle = (long)(jiffies - xprt->last_used) / HZ;
	/* The generic part of the stock module's "xprt: rdma" line. */
	seq_printf(seq, "\txprt:\trdma %u %lu %lu %lu %ld %lu %lu %lu %llu %llu ",
		   0, xprt->stat.bind_count, xprt->stat.connect_count,
		   xprt->stat.connect_time / HZ, idle, xprt->stat.sends,
		   xprt->stat.recvs, xprt->stat.bad_xids, xprt->stat.req_u,
		   xprt->stat.bklog_u);
	rpcrdmax_clnt_print_stats(rpcrdmax_x(xprt)->ep, seq);
}

/* The backward direction's ops are in shim/sunrpc/xprt_bc.c. */
static const struct rpc_xprt_ops rpcrdmax_xprt_ops = {
	.reserve_xprt = xprt_reserve_xprt_cong,
	.release_xprt = xprt_release_xprt_cong,
	.alloc_slot = xprt_alloc_slot,
	.free_slot = xprt_free_slot,
	.release_request = rpcrdmax_xprt_release_rqst,
	.wait_for_reply_request = xprt_wait_for_reply_request_def,
	.timer = rpcrdmax_xprt_timer,
	.rpcbind = rpcb_getport_async,
	.set_port = rpcrdmax_xprt_set_port,
	.connect = rpcrdmax_xprt_connect,
	.buf_alloc = rpcrdmax_xprt_buf_alloc,
	.buf_free = rpcrdmax_xprt_buf_free,
	.send_request = rpcrdmax_xprt_send_request,
	.close = rpcrdmax_xprt_close,
	.destroy = rpcrdmax_xprt_destroy,
	.set_connect_timeout = rpcrdmax_xprt_set_connect_timeout,
	.print_stats = rpcrdmax_xprt_print_stats,
	.enable_swap = rpcrdmax_xprt_enable_swap,
	.disable_swap = rpcrdmax_xprt_disable_swap,
	.inject_disconnect = rpcrdmax_xprt_inject_disconnect,
	.bc_setup = rpcrdmax_xprt_bc_setup,
	.bc_maxpayload = rpcrdmax_xprt_bc_maxpayload,
	.bc_num_slots = rpcrdmax_xprt_bc_num_slots,
	.bc_free_rqst = rpcrdmax_xprt_bc_free_rqst,
	.bc_destroy = rpcrdmax_xprt_bc_destroy,
};

static struct xprt_class rpcrdmax_xprt_class;

static struct rpc_xprt *rpcrdmax_xprt_setup(struct xprt_create *args)
{
	struct rpcrdmax_xprt *rx;
	struct rpc_xprt *xprt;

	if (args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EBADF);
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-EIO);
	xprt = xprt_alloc(args->net, sizeof(*rx), 0, READ_ONCE(rpcrdmax_slot_table_entries));
	if (!xprt) {
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	rx = rpcrdmax_x(xprt);
	xprt->timeout = &rpcrdmax_timeout;
	xprt->connect_timeout = xprt->timeout->to_initval;
	xprt->max_reconnect_timeout = xprt->timeout->to_maxval;
	xprt->bind_timeout = 60 * HZ;
	xprt->reestablish_timeout = 0;
	xprt->idle_timeout = 5 * 60 * HZ;
	xprt->resvport = 0;
	xprt->ops = &rpcrdmax_xprt_ops;
	xprt->prot = IPPROTO_TCP;	/* what side protocols expect to see */
	xprt->xprt_class = &rpcrdmax_xprt_class;
	xprt->addrlen = args->addrlen;
	memcpy(&xprt->addr, args->dstaddr, xprt->addrlen);
	if (rpc_get_port((struct sockaddr *)&xprt->addr))
		xprt_set_bound(xprt);
	INIT_DELAYED_WORK(&rx->connect_worker, rpcrdmax_xprt_connect_worker);

	rx->ep = rpcrdmax_clnt_create(xprt);
	if (rx->ep)
		xprt->max_payload = rpcrdmax_clnt_max_payload(rx->ep);
	if (!rx->ep) {
		xprt_free(xprt);
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	rpcrdmax_xprt_format_addresses(xprt);
	return xprt;
}

static struct xprt_class rpcrdmax_xprt_class = {
	.list = LIST_HEAD_INIT(rpcrdmax_xprt_class.list),
	.name = "rdma",
	.owner = THIS_MODULE,
	.ident = XPRT_TRANSPORT_RDMA,
	.setup = rpcrdmax_xprt_setup,
	.netid = { "rdma", "rdma6", "" },
};

/**
 * rpcrdmax_xprt_register - offer the "rdma" client transport to sunrpc
 *
 * Returns 0, or -EEXIST if another module (the stock rpcrdma) has it.
 */
int rpcrdmax_xprt_register(void)
{
	return xprt_register_transport(&rpcrdmax_xprt_class);
}

/** rpcrdmax_xprt_unregister - withdraw the "rdma" client transport */
void rpcrdmax_xprt_unregister(void)
{
	xprt_unregister_transport(&rpcrdmax_xprt_class);
}

/** rpcrdmax_xprt_net - the struct net @xprt (struct rpc_xprt) was made in */
struct net *rpcrdmax_xprt_net(struct rpc_xprt *xprt)
{
	return xprt->xprt_net;
}

/**
 * rpcrdmax_xprt_lookup_pin - find the request waiting for a Reply's XID
 * @xprt: the transport (struct rpc_xprt)
 * @xid: the XID, host order
 *
 * Returns the request, pinned so it cannot go away, or NULL (counted as
 * a bad XID).  Every request returned must be handed to
 * rpcrdmax_xprt_complete_unpin() or rpcrdmax_xprt_unpin().
 */
struct rpc_rqst *rpcrdmax_xprt_lookup_pin(struct rpc_xprt *xprt, unsigned int xid)
{
	struct rpc_rqst *rqst;

	spin_lock(&xprt->queue_lock);
	rqst = xprt_lookup_rqst(xprt, cpu_to_be32(xid));
	if (rqst)
		xprt_pin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
	return rqst;
}

/**
 * rpcrdmax_xprt_complete_unpin - complete a pinned request and unpin it
 * @xprt: the transport
 * @rqst: from rpcrdmax_xprt_lookup_pin()
 * @status: octets placed in the receive buffer, or a negative errno
 *
 * A negative @status becomes the task's status and the request completes
 * with no octets: xprt_complete_rqst() takes only a length, and call_status()
 * acts on tk_status (-EAGAIN: encode and transmit again; -EIO: fail).
 */
void rpcrdmax_xprt_complete_unpin(struct rpc_xprt *xprt, struct rpc_rqst *rqst, int status)
{
	if (status < 0) {
		rqst->rq_task->tk_status = status;
		status = 0;
	}
	spin_lock(&xprt->queue_lock);
	xprt_complete_rqst(rqst->rq_task, status);
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
}

/** rpcrdmax_xprt_unpin - release a pinned request without completing it */
void rpcrdmax_xprt_unpin(struct rpc_xprt *xprt, struct rpc_rqst *rqst)
{
	spin_lock(&xprt->queue_lock);
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
}

/**
 * rpcrdmax_xprt_set_credits - let the server's grant drive the congestion window
 * @xprt: the transport
 * @credits: the current grant (at least 1)
 */
void rpcrdmax_xprt_set_credits(struct rpc_xprt *xprt, unsigned int credits)
{
	/* Waiters are woken as completing requests release their slots. */
	spin_lock(&xprt->transport_lock);
	xprt->cwnd = credits << RPC_CWNDSHIFT;
	spin_unlock(&xprt->transport_lock);
}

/** rpcrdmax_xprt_reset_cong - a new connection's window (shim/sunrpc/xprt_cong.c) */
void rpcrdmax_xprt_reset_cong(struct rpc_xprt *xprt)
{
	rpcrdmax_cong_reset(xprt, &rpcrdmax_x(xprt)->cong_tag);
}

/**
 * rpcrdmax_xprt_wait_for_space - hold @xprt's writers
 * @xprt: the transport
 *
 * A transmission found no Send buffer or MR: the tasks that would
 * transmit next wait on xprt->sending until rpcrdmax_xprt_write_space().
 */
void rpcrdmax_xprt_wait_for_space(struct rpc_xprt *xprt)
{
	xprt_wait_for_buffer_space(xprt);
}

/** rpcrdmax_xprt_write_space - let @xprt's writers held for space go on */
void rpcrdmax_xprt_write_space(struct rpc_xprt *xprt)
{
	xprt_write_space(xprt);
}

/** rpcrdmax_xprt_reestablish_set - whether @xprt has a reconnect wait (it connected before) */
bool rpcrdmax_xprt_reestablish_set(struct rpc_xprt *xprt)
{
	return xprt->reestablish_timeout != 0;
}

/** rpcrdmax_xprt_set_reestablish - set @xprt's reconnect wait to @ms */
void rpcrdmax_xprt_set_reestablish(struct rpc_xprt *xprt, unsigned int ms)
{
	xprt->reestablish_timeout = msecs_to_jiffies(ms);
}

/** rpcrdmax_xprt_reconnect_delay - jiffies left of @xprt's reconnect wait */
unsigned long rpcrdmax_xprt_reconnect_delay(struct rpc_xprt *xprt)
{
	return xprt_reconnect_delay(xprt);
}

/** rpcrdmax_xprt_reconnect_backoff - back @xprt's reconnect wait off, from @init_ms */
void rpcrdmax_xprt_reconnect_backoff(struct rpc_xprt *xprt, unsigned int init_ms)
{
	xprt_reconnect_backoff(xprt, msecs_to_jiffies(init_ms));
}

/** rpcrdmax_xprt_force_disconnect - report a lost connection to sunrpc */
void rpcrdmax_xprt_force_disconnect(struct rpc_xprt *xprt)
{
	xprt_force_disconnect(xprt);
}

/**
 * rpcrdmax_seq_printf - append to a /proc seq_file (mountstats)
 * @seq: the seq_file handed to the C++ print_stats hook
 * @fmt: printf format
 */
void rpcrdmax_seq_printf(struct seq_file *seq, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	seq_vprintf(seq, fmt, ap);
	va_end(ap);
}

MODULE_ALIAS("rpcrdma6");
MODULE_ALIAS("xprtrdma");
