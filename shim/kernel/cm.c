// SPDX-License-Identifier: GPL-2.0
/*
 * shim/kernel/cm.c - the RDMA connection manager (rdma_cm) for C++.
 *
 * An rdma_cm_id's context points at caller-owned storage (struct
 * rpcrdmax_cm_handler, opaque to C++) holding the C++ callback; events
 * are translated to struct rpcrdmax_cm_event_info.  Ids are always
 * RDMA_PS_TCP/RC, as NFS/RDMA uses, made in the network namespace of the
 * transport or listener that asks for one (rpcrdmax_cm_create_id's @net).
 */
#include <linux/error-injection.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/socket.h>
#include <net/net_namespace.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>
#include "rpcrdmax_consts.h"
#include "../internal.h"

static_assert(RPCRDMAX_SIZEOF_CM_HANDLER == sizeof(struct rpcrdmax_cm_handler));
static_assert(RPCRDMAX_SIZEOF_SOCKADDR_STORAGE == sizeof(struct sockaddr_storage));

static int rpcrdmax_cm_translate(enum rdma_cm_event_type type)
{
	switch (type) {
	case RDMA_CM_EVENT_ADDR_RESOLVED: return RPCRDMAX_CM_ADDR_RESOLVED;
	case RDMA_CM_EVENT_ADDR_ERROR: return RPCRDMAX_CM_ADDR_ERROR;
	case RDMA_CM_EVENT_ROUTE_RESOLVED: return RPCRDMAX_CM_ROUTE_RESOLVED;
	case RDMA_CM_EVENT_ROUTE_ERROR: return RPCRDMAX_CM_ROUTE_ERROR;
	case RDMA_CM_EVENT_CONNECT_REQUEST: return RPCRDMAX_CM_CONNECT_REQUEST;
	case RDMA_CM_EVENT_CONNECT_ERROR: return RPCRDMAX_CM_CONNECT_ERROR;
	case RDMA_CM_EVENT_UNREACHABLE: return RPCRDMAX_CM_UNREACHABLE;
	case RDMA_CM_EVENT_REJECTED: return RPCRDMAX_CM_REJECTED;
	case RDMA_CM_EVENT_ESTABLISHED: return RPCRDMAX_CM_ESTABLISHED;
	case RDMA_CM_EVENT_DISCONNECTED: return RPCRDMAX_CM_DISCONNECTED;
	case RDMA_CM_EVENT_DEVICE_REMOVAL: return RPCRDMAX_CM_DEVICE_REMOVAL;
	case RDMA_CM_EVENT_ADDR_CHANGE: return RPCRDMAX_CM_ADDR_CHANGE;
	case RDMA_CM_EVENT_TIMEWAIT_EXIT: return RPCRDMAX_CM_TIMEWAIT_EXIT;
	default: return RPCRDMAX_CM_OTHER;
	}
}

static int rpcrdmax_cm_upcall(struct rdma_cm_id *id, struct rdma_cm_event *event)
{
	struct rpcrdmax_cm_handler *h = id->context;
	struct rpcrdmax_cm_event_info ev = {
		.event = rpcrdmax_cm_translate(event->event),
		.status = event->status,
		.private_data = event->param.conn.private_data,
		.private_data_len = event->param.conn.private_data_len,
		.responder_resources = event->param.conn.responder_resources,
		.initiator_depth = event->param.conn.initiator_depth,
	};

	/* A new connection's id arrives with the listener's context. */
	if (event->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		ev.new_id = id;
	if (!h || !h->fn)
		return event->event == RDMA_CM_EVENT_CONNECT_REQUEST ? -ECONNREFUSED : 0;
	return h->fn(h, &ev);
}

/**
 * rpcrdmax_cm_create_id - create an RC rdma_cm_id
 * @net: the network namespace (struct net) of the transport the id is for:
 *	its addresses resolve, routes and ports bind there, as stock's do
 * @handler: storage (RPCRDMAX_SIZEOF_CM_HANDLER) that outlives the id
 * @fn: event callback, called with @handler
 * @id: set to the new id
 *
 * Returns 0 or a negative errno.
 */
int rpcrdmax_cm_create_id(struct net *net, struct rpcrdmax_cm_handler *handler, rpcrdmax_cm_fn fn,
			  struct rdma_cm_id **id)
{
	struct rdma_cm_id *cm;

	handler->fn = fn;
	cm = rdma_create_id(net, rpcrdmax_cm_upcall, handler, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(cm))
		return PTR_ERR(cm);
	*id = cm;
	return 0;
}
ALLOW_ERROR_INJECTION(rpcrdmax_cm_create_id, ERRNO);

/**
 * rpcrdmax_cm_set_handler - direct an id's events to new storage
 * @id: typically a connection's id from a CONNECT_REQUEST
 * @handler: storage that outlives the id
 * @fn: event callback
 */
void rpcrdmax_cm_set_handler(struct rdma_cm_id *id, struct rpcrdmax_cm_handler *handler,
			     rpcrdmax_cm_fn fn)
{
	handler->fn = fn;
	id->context = handler;
}

/** rpcrdmax_cm_destroy_id - destroy @id (not from its own event callback) */
void rpcrdmax_cm_destroy_id(struct rdma_cm_id *id)
{
	if (id)
		rdma_destroy_id(id);
}

/**
 * rpcrdmax_cm_bind_addr - bind @id to sockaddr storage @addr
 * @id: an unbound id
 * @addr: sockaddr storage
 *
 * An IPv6 id is made IPv6-only first, so that IPv4 and IPv6 listeners
 * can share a port (nfsd creates one of each).
 */
int rpcrdmax_cm_bind_addr(struct rdma_cm_id *id, const void *addr)
{
	if (((const struct sockaddr *)addr)->sa_family == AF_INET6) {
		int rc = rdma_set_afonly(id, 1);

		if (rc)
			return rc;
	}
	return rdma_bind_addr(id, (struct sockaddr *)addr);
}

/** rpcrdmax_cm_listen - listen for connection requests on a bound @id */
int rpcrdmax_cm_listen(struct rdma_cm_id *id, int backlog)
{
	return rdma_listen(id, backlog);
}

/**
 * rpcrdmax_cm_resolve_addr - start resolving @dst (ADDR_RESOLVED/ADDR_ERROR follow)
 * @id: an unbound id
 * @dst: sockaddr storage
 * @timeout_ms: resolution time limit
 */
int rpcrdmax_cm_resolve_addr(struct rdma_cm_id *id, const void *dst, unsigned int timeout_ms)
{
	return rdma_resolve_addr(id, NULL, (struct sockaddr *)dst, timeout_ms);
}

/** rpcrdmax_cm_resolve_route - start route resolution (ROUTE_RESOLVED/ROUTE_ERROR follow) */
int rpcrdmax_cm_resolve_route(struct rdma_cm_id *id, unsigned int timeout_ms)
{
	return rdma_resolve_route(id, timeout_ms);
}

/**
 * rpcrdmax_cm_create_qp - create an RC QP on @id's device
 * @id: an id with a resolved route, or a connection's id
 * @pd: protection domain
 * @send_cq: completion queue for Sends
 * @recv_cq: completion queue for Receives
 * @max_send_wr: Send Queue depth
 * @max_recv_wr: Receive Queue depth
 * @max_send_sge: SGEs per Send
 * @max_recv_sge: SGEs per Receive
 * @max_rdma_ctxs: rdma_rw contexts in use at once (0: rdma_rw unused);
 *		   the core enlarges the Send Queue for them
 * @send_wr_out: if not NULL, set to the Send Queue depth obtained
 *
 * Every Send signals only if asked to (IB_SIGNAL_REQ_WR).
 */
int rpcrdmax_cm_create_qp(struct rdma_cm_id *id, struct ib_pd *pd, struct ib_cq *send_cq,
			  struct ib_cq *recv_cq, unsigned int max_send_wr, unsigned int max_recv_wr,
			  unsigned int max_send_sge, unsigned int max_recv_sge,
			  unsigned int max_rdma_ctxs, unsigned int *send_wr_out)
{
	int rc;

	struct ib_qp_init_attr attr = {
		.send_cq = send_cq,
		.recv_cq = recv_cq,
		.cap = {
			.max_send_wr = max_send_wr,
			.max_recv_wr = max_recv_wr,
			.max_send_sge = max_send_sge,
			.max_recv_sge = max_recv_sge,
			.max_rdma_ctxs = max_rdma_ctxs,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
	};

	rc = rdma_create_qp(id, pd, &attr);
	if (!rc && send_wr_out)
		*send_wr_out = attr.cap.max_send_wr;
	return rc;
}
ALLOW_ERROR_INJECTION(rpcrdmax_cm_create_qp, ERRNO);

/** rpcrdmax_cm_destroy_qp - destroy the QP on @id, if any */
void rpcrdmax_cm_destroy_qp(struct rdma_cm_id *id)
{
	if (id->qp)
		rdma_destroy_qp(id);
}

/**
 * rpcrdmax_cm_connect - connect @id, offering @pdata as CM private data
 * @id: an id with a QP
 * @pdata: private data (at most 56 octets on RC)
 * @pdata_len: its length
 * @initiator_depth: outstanding RDMA Reads we issue
 * @responder_resources: outstanding RDMA Reads we accept
 * @retry_count: transport retries
 * @rnr_retry_count: receiver-not-ready retries (7 = forever)
 */
int rpcrdmax_cm_connect(struct rdma_cm_id *id, const void *pdata, unsigned int pdata_len,
			unsigned int initiator_depth, unsigned int responder_resources,
			unsigned int retry_count, unsigned int rnr_retry_count)
{
	struct rdma_conn_param param = {
		.private_data = pdata,
		.private_data_len = min(pdata_len, 255U),
		.initiator_depth = min(initiator_depth, 255U),
		.responder_resources = min(responder_resources, 255U),
		.retry_count = min(retry_count, 7U),
		.rnr_retry_count = min(rnr_retry_count, 7U),
		.flow_control = 1,
	};

	return rdma_connect(id, &param);
}
ALLOW_ERROR_INJECTION(rpcrdmax_cm_connect, ERRNO);

/**
 * rpcrdmax_cm_accept - accept a connection request on @id
 * @id: the new_id of a CONNECT_REQUEST, with a QP; from its event handler
 *	or under rpcrdmax_cm_lock_handler()
 * @pdata: our private data
 * @pdata_len: its length
 * @initiator_depth: outstanding RDMA Reads we issue
 * @responder_resources: outstanding RDMA Reads we accept
 */
int rpcrdmax_cm_accept(struct rdma_cm_id *id, const void *pdata, unsigned int pdata_len,
		       unsigned int initiator_depth, unsigned int responder_resources)
{
	struct rdma_conn_param param = {
		.private_data = pdata,
		.private_data_len = min(pdata_len, 255U),
		.initiator_depth = min(initiator_depth, 255U),
		.responder_resources = min(responder_resources, 255U),
		.rnr_retry_count = 7,
		.flow_control = 1,
	};

	return rdma_accept(id, &param);
}
ALLOW_ERROR_INJECTION(rpcrdmax_cm_accept, ERRNO);

/** rpcrdmax_cm_reject - refuse a connection request, with optional private data */
int rpcrdmax_cm_reject(struct rdma_cm_id *id, const void *pdata, unsigned int pdata_len)
{
	return rdma_reject(id, pdata, min(pdata_len, 255U), IB_CM_REJ_CONSUMER_DEFINED);
}

/**
 * rpcrdmax_cm_lock_handler - hold off @id's event handler (sleeps)
 * @id: the id
 *
 * What must run as if in the handler (rdma_accept()) from elsewhere.
 */
void rpcrdmax_cm_lock_handler(struct rdma_cm_id *id)
{
	rdma_lock_handler(id);
}

/** rpcrdmax_cm_unlock_handler - undo rpcrdmax_cm_lock_handler() */
void rpcrdmax_cm_unlock_handler(struct rdma_cm_id *id)
{
	rdma_unlock_handler(id);
}

/** rpcrdmax_cm_disconnect - start disconnecting @id (DISCONNECTED follows) */
int rpcrdmax_cm_disconnect(struct rdma_cm_id *id)
{
	return rdma_disconnect(id);
}

/**
 * rpcrdmax_cm_peer_addr - the remote address of an id, for "%pISc" in a message
 * @id: a connected id, or a connection request's new id (set from the request)
 */
const void *rpcrdmax_cm_peer_addr(struct rdma_cm_id *id)
{
	return &id->route.addr.dst_addr;
}

/**
 * rpcrdmax_sockaddr_parse - build a sockaddr from a numeric address
 * @addr: "192.0.2.1" or "2001:db8::1"
 * @port: port in host order
 * @storage: sockaddr storage to fill
 * @storage_len: its size (at least sizeof(struct sockaddr_storage))
 *
 * Returns 0, or -EINVAL if @addr is not a numeric address.
 */
int rpcrdmax_sockaddr_parse(const char *addr, unsigned short port, void *storage,
			    unsigned int storage_len)
{
	struct sockaddr_in *sin = storage;
	struct sockaddr_in6 *sin6 = storage;

	if (storage_len < sizeof(struct sockaddr_storage))
		return -EINVAL;
	memset(storage, 0, storage_len);
	if (in4_pton(addr, -1, (u8 *)&sin->sin_addr, '\0', NULL)) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		return 0;
	}
	if (in6_pton(addr, -1, (u8 *)&sin6->sin6_addr, '\0', NULL)) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		return 0;
	}
	return -EINVAL;
}
