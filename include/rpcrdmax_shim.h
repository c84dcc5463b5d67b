/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcrdmax_shim.h - the one boundary between rpcrdmax's C++ and the kernel.
 *
 * Everything that crosses between the C shims (the C files in shim/, the only code that
 * includes Linux headers) and the freestanding C++ is declared here, with
 * plain C types only: integers, bool, octets (void pointers), and typed
 * handles (below).  The C++ side wraps these in RAII types
 * (include/rpcrdmax/ktl/); it never sees a kernel structure's definition.
 *
 * Conventions: functions returning int return 0 or a negative errno;
 * a handle to an object C++ embeds points to caller-owned memory of the
 * RPCRDMAX_SIZEOF_* size and RPCRDMAX_ALIGNOF_* alignment for that object.
 */
#ifndef RPCRDMAX_SHIM_H
#define RPCRDMAX_SHIM_H

#ifdef __cplusplus
extern "C" {
#define RPCRDMAX_NOEXCEPT noexcept
#else
#include <linux/types.h>
#define RPCRDMAX_NOEXCEPT
#endif

#define RPCRDMAX_PRINTF(a, b) __attribute__((format(printf, a, b)))
/* A per-CPU pointer: sparse's address space in C; C++ only hands it back
 * (rpcrdmax_percpu_add_u64, rpcrdmax_percpu_sum_u64). */
#ifdef __cplusplus
#define RPCRDMAX_PERCPU
#else
#define RPCRDMAX_PERCPU __percpu
#endif

/*
 * Handles.  A kernel object crosses as a pointer to its own structure,
 * which C++ sees declared only (incomplete): it hands the pointer back,
 * and reads or writes the few fields it needs at the offsets generated
 * below, so the compiler keeps an rpc_rqst from going where an svc_rqst
 * is due.  C++ holds the objects it embeds (locks, work items, rdma_rw
 * contexts, scatterlists) in storage of the generated size
 * (ktl::Opaque) and passes a typed pointer to it.  The rpcrdmax_* types
 * are ours: rpcrdmax_cqe and rpcrdmax_cm_handler are defined by the shims
 * (C++ holds them as storage), the endpoint types by C++ (C never looks
 * inside: rpcrdmax_clnt is the client's xprtrdma::ClntEp, rpcrdmax_svcl
 * and rpcrdmax_svcc the server's listener and connection,
 * rpcrdmax_svc_ctxt one received Call's context).
 */
struct net;
struct page;
struct scatterlist;
struct seq_file;
struct spinlock;
struct mutex;
struct refcount_struct;
struct completion;
struct wait_queue_head;
struct rpcrdmax_work;
struct workqueue_struct;
struct rdma_cm_id;
struct ib_device;
struct ib_pd;
struct ib_cq;
struct ib_qp;
struct ib_mr;
struct rdma_rw_ctx;
struct ib_wc;
struct ib_sge;
struct ib_send_wr;
struct ib_rdma_wr;
struct ib_reg_wr;
struct ib_recv_wr;
struct rpc_xprt;
struct rpc_rqst;
struct rpc_cred;
struct rpc_auth;
struct xdr_buf;
struct svc_xprt;
struct svc_rqst;
struct rpcrdmax_cqe;
struct rpcrdmax_cm_handler;
struct rpcrdmax_clnt;
struct rpcrdmax_svcl;
struct rpcrdmax_svcc;
struct rpcrdmax_svc_ctxt;

/*
 * The kernel fields C++ reads in place (RPCRDMAX_FIELD, rpcrdmax/ktl/kernel.h):
 * X(NAME, structure, member).  shim/kernel/consts.c generates each one's
 * RPCRDMAX_OFF_NAME and RPCRDMAX_FSIZE_NAME from the target kernel's
 * headers; KUnit's rpcrdmax_consts suite checks them against the running
 * kernel's.  Only C expands the structures; C++ reads a field only through
 * a handle of its structure's type (ktl/kernel.h checks it).
 */
#define RPCRDMAX_KERNEL_FIELDS(X) \
	X(CQE_ID, struct rpcrdmax_cqe, id) \
	X(IB_PD_LOCAL_DMA_LKEY, struct ib_pd, local_dma_lkey) \
	X(CM_ID_DEVICE, struct rdma_cm_id, device) \
	X(CM_ID_QP, struct rdma_cm_id, qp) \
	X(IB_MR_LKEY, struct ib_mr, lkey) \
	X(IB_MR_RKEY, struct ib_mr, rkey) \
	X(IB_MR_IOVA, struct ib_mr, iova) \
	X(IB_MR_LENGTH, struct ib_mr, length) \
	X(IB_DEVICE_DMA_DEVICE, struct ib_device, dma_device) \
	X(IB_WC_STATUS, struct ib_wc, status) \
	X(IB_WC_OPCODE, struct ib_wc, opcode) \
	X(IB_WC_VENDOR_ERR, struct ib_wc, vendor_err) \
	X(IB_WC_BYTE_LEN, struct ib_wc, byte_len) \
	X(IB_WC_FLAGS, struct ib_wc, wc_flags) \
	X(IB_WC_INVALIDATE_RKEY, struct ib_wc, ex.invalidate_rkey) \
	X(RPC_XPRT_MAX_REQS, struct rpc_xprt, max_reqs) \
	X(RPC_RQST_BUFFER, struct rpc_rqst, rq_buffer) \
	X(RPC_RQST_RBUFFER, struct rpc_rqst, rq_rbuffer) \
	X(RPC_RQST_CALLSIZE, struct rpc_rqst, rq_callsize) \
	X(RPC_RQST_RCVSIZE, struct rpc_rqst, rq_rcvsize) \
	X(RPC_RQST_XID, struct rpc_rqst, rq_xid) \
	X(RPC_RQST_MAJORTIMEO, struct rpc_rqst, rq_majortimeo) \
	X(RPC_RQST_TIMEOUT, struct rpc_rqst, rq_timeout) \
	X(RPC_RQST_XTIME, struct rpc_rqst, rq_xtime) \
	X(RPC_RQST_XMIT_BYTES_SENT, struct rpc_rqst, rq_xmit_bytes_sent) \
	X(RPC_RQST_CRED, struct rpc_rqst, rq_cred) \
	X(RPC_RQST_SND_BUF, struct rpc_rqst, rq_snd_buf) \
	X(RPC_RQST_RCV_BUF, struct rpc_rqst, rq_rcv_buf) \
	X(RPC_RQST_PRIVATE_BUF, struct rpc_rqst, rq_private_buf) \
	X(XDR_BUF_HEAD_BASE, struct xdr_buf, head[0].iov_base) \
	X(XDR_BUF_HEAD_LEN, struct xdr_buf, head[0].iov_len) \
	X(XDR_BUF_TAIL_BASE, struct xdr_buf, tail[0].iov_base) \
	X(XDR_BUF_TAIL_LEN, struct xdr_buf, tail[0].iov_len) \
	X(XDR_BUF_PAGES, struct xdr_buf, pages) \
	X(XDR_BUF_PAGE_BASE, struct xdr_buf, page_base) \
	X(XDR_BUF_PAGE_LEN, struct xdr_buf, page_len) \
	X(XDR_BUF_FLAGS, struct xdr_buf, flags) \
	X(XDR_BUF_BUFLEN, struct xdr_buf, buflen) \
	X(XDR_BUF_LEN, struct xdr_buf, len) \
	X(SVC_RQST_ARG, struct svc_rqst, rq_arg) \
	X(SVC_RQST_RES, struct svc_rqst, rq_res) \
	X(SVC_RQST_PAGES, struct svc_rqst, rq_pages) \
	X(SVC_RQST_RESPAGES, struct svc_rqst, rq_respages) \
	X(SVC_RQST_NEXT_PAGE, struct svc_rqst, rq_next_page) \
	X(SVC_RQST_PAGE_END, struct svc_rqst, rq_page_end) \
	X(SVC_XPRT_FLAGS, struct svc_xprt, xpt_flags) \
	X(RPC_CRED_AUTH, struct rpc_cred, cr_auth) \
	X(RPC_AUTH_FLAGS, struct rpc_auth, au_flags) \
	X(WAITQ_HEAD_NEXT, struct wait_queue_head, head.next) \
	X(IB_RECV_WR_NEXT, struct ib_recv_wr, next) \
	X(IB_RECV_WR_CQE, struct ib_recv_wr, wr_cqe) \
	X(IB_RECV_WR_SG_LIST, struct ib_recv_wr, sg_list) \
	X(IB_RECV_WR_NUM_SGE, struct ib_recv_wr, num_sge) \
	X(IB_SEND_WR_NEXT, struct ib_send_wr, next) \
	X(IB_SEND_WR_CQE, struct ib_send_wr, wr_cqe) \
	X(IB_SEND_WR_SG_LIST, struct ib_send_wr, sg_list) \
	X(IB_SEND_WR_NUM_SGE, struct ib_send_wr, num_sge) \
	X(IB_SEND_WR_OPCODE, struct ib_send_wr, opcode) \
	X(IB_SEND_WR_SEND_FLAGS, struct ib_send_wr, send_flags) \
	X(IB_SEND_WR_INVALIDATE_RKEY, struct ib_send_wr, ex.invalidate_rkey) \
	X(IB_RDMA_WR_WR, struct ib_rdma_wr, wr) \
	X(IB_RDMA_WR_REMOTE_ADDR, struct ib_rdma_wr, remote_addr) \
	X(IB_RDMA_WR_RKEY, struct ib_rdma_wr, rkey) \
	X(IB_REG_WR_WR, struct ib_reg_wr, wr) \
	X(IB_REG_WR_MR, struct ib_reg_wr, mr) \
	X(IB_REG_WR_KEY, struct ib_reg_wr, key) \
	X(IB_REG_WR_ACCESS, struct ib_reg_wr, access) \
	X(IB_SGE_ADDR, struct ib_sge, addr) \
	X(IB_SGE_LENGTH, struct ib_sge, length) \
	X(IB_SGE_LKEY, struct ib_sge, lkey)

/* ---- memory (shim/kernel/mem.c) --------------------------------------- */
void *rpcrdmax_kmalloc(unsigned long size, unsigned int gfp) RPCRDMAX_NOEXCEPT;
void rpcrdmax_kfree(const void *p) RPCRDMAX_NOEXCEPT;
struct page *rpcrdmax_alloc_page(unsigned int gfp) RPCRDMAX_NOEXCEPT;
void rpcrdmax_free_page(struct page *page) RPCRDMAX_NOEXCEPT;
void rpcrdmax_put_pages(struct page **pages, unsigned int n) RPCRDMAX_NOEXCEPT;
void *rpcrdmax_page_address(struct page *page) RPCRDMAX_NOEXCEPT;
/* Per-CPU 64-bit counters: an add is this CPU's copy, a read the sum. */
unsigned long long RPCRDMAX_PERCPU *rpcrdmax_alloc_percpu_u64(unsigned int n) RPCRDMAX_NOEXCEPT;
void rpcrdmax_free_percpu_u64(unsigned long long RPCRDMAX_PERCPU *p) RPCRDMAX_NOEXCEPT;
void rpcrdmax_percpu_add_u64(unsigned long long RPCRDMAX_PERCPU *p, unsigned int i,
			     unsigned long long n) RPCRDMAX_NOEXCEPT;
void rpcrdmax_percpu_add2_u64(unsigned long long RPCRDMAX_PERCPU *p, unsigned int i,
			      unsigned long long n, unsigned int j, unsigned long long m) RPCRDMAX_NOEXCEPT;
unsigned long long rpcrdmax_percpu_sum_u64(const unsigned long long RPCRDMAX_PERCPU *p,
					   unsigned int i) RPCRDMAX_NOEXCEPT;
/**
 * rpcrdmax_totalram_bytes - the machine's RAM, in octets
 *
 * What the page allocator manages (MemTotal): physical memory less what the
 * firmware and the kernel reserved.  Sizes budgets such as the Receive
 * buffers one server connection may pin (svcrdma/svcrdma.h).
 */
unsigned long long rpcrdmax_totalram_bytes(void) RPCRDMAX_NOEXCEPT;

/* ---- logging (shim/kernel/log.c) -------------------------------------- */
/* Levels as in printk: 0 = KERN_EMERG ... 7 = KERN_DEBUG. */
enum rpcrdmax_log_level {
	RPCRDMAX_LOG_ERR = 3,
	RPCRDMAX_LOG_WARNING = 4,
	RPCRDMAX_LOG_NOTICE = 5,
	RPCRDMAX_LOG_INFO = 6,
	RPCRDMAX_LOG_DEBUG = 7,
};
void rpcrdmax_log(int level, const char *fmt, ...) RPCRDMAX_NOEXCEPT
	RPCRDMAX_PRINTF(2, 3);
void rpcrdmax_log_ratelimited(int level, const char *fmt, ...) RPCRDMAX_NOEXCEPT
	RPCRDMAX_PRINTF(2, 3);
void rpcrdmax_warn_once(const char *file, int line, const char *what) RPCRDMAX_NOEXCEPT;
/*
 * BUG()s; does not return, but is not declared noreturn because objtool
 * cannot see that across the boundary: callers follow it with a trap.
 */
void rpcrdmax_bug(const char *file, int line, const char *what) RPCRDMAX_NOEXCEPT;

/* ---- locks, refcounts, completions (shim/kernel/sync.c) --------------- */
void rpcrdmax_spin_init(struct spinlock *lock) RPCRDMAX_NOEXCEPT;
void rpcrdmax_spin_lock(struct spinlock *lock) RPCRDMAX_NOEXCEPT;
void rpcrdmax_spin_unlock(struct spinlock *lock) RPCRDMAX_NOEXCEPT;
void rpcrdmax_spin_lock_bh(struct spinlock *lock) RPCRDMAX_NOEXCEPT;
void rpcrdmax_spin_unlock_bh(struct spinlock *lock) RPCRDMAX_NOEXCEPT;
unsigned long rpcrdmax_spin_lock_irqsave(struct spinlock *lock) RPCRDMAX_NOEXCEPT;
void rpcrdmax_spin_unlock_irqrestore(struct spinlock *lock, unsigned long flags) RPCRDMAX_NOEXCEPT;
bool rpcrdmax_spin_is_locked(struct spinlock *lock) RPCRDMAX_NOEXCEPT;

void rpcrdmax_mutex_init(struct mutex *mutex) RPCRDMAX_NOEXCEPT;
void rpcrdmax_mutex_destroy(struct mutex *mutex) RPCRDMAX_NOEXCEPT;
void rpcrdmax_mutex_lock(struct mutex *mutex) RPCRDMAX_NOEXCEPT;
void rpcrdmax_mutex_unlock(struct mutex *mutex) RPCRDMAX_NOEXCEPT;
bool rpcrdmax_mutex_is_locked(struct mutex *mutex) RPCRDMAX_NOEXCEPT;

void rpcrdmax_refcount_set(struct refcount_struct *ref, unsigned int n) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_refcount_read(const struct refcount_struct *ref) RPCRDMAX_NOEXCEPT;
void rpcrdmax_refcount_inc(struct refcount_struct *ref) RPCRDMAX_NOEXCEPT;
bool rpcrdmax_refcount_inc_not_zero(struct refcount_struct *ref) RPCRDMAX_NOEXCEPT;
bool rpcrdmax_refcount_dec_and_test(struct refcount_struct *ref) RPCRDMAX_NOEXCEPT;

void rpcrdmax_completion_init(struct completion *c) RPCRDMAX_NOEXCEPT;
void rpcrdmax_complete(struct completion *c) RPCRDMAX_NOEXCEPT;
void rpcrdmax_complete_all(struct completion *c) RPCRDMAX_NOEXCEPT;
void rpcrdmax_wait_for_completion(struct completion *c) RPCRDMAX_NOEXCEPT;
/* Returns the milliseconds left (at least 1) or 0 on timeout. */
unsigned long rpcrdmax_wait_for_completion_timeout(struct completion *c,
						   unsigned int ms) RPCRDMAX_NOEXCEPT;
void rpcrdmax_waitq_init(struct wait_queue_head *wq) RPCRDMAX_NOEXCEPT;
void rpcrdmax_waitq_wake_all(struct wait_queue_head *wq) RPCRDMAX_NOEXCEPT;
/* True once @cond(@arg) holds, false after @ms milliseconds. */
bool rpcrdmax_waitq_wait(struct wait_queue_head *wq, bool (*cond)(void *arg), void *arg,
			 unsigned int ms) RPCRDMAX_NOEXCEPT;

/* ---- deferred work (shim/kernel/work.c) ------------------------------- */
typedef void (*rpcrdmax_work_fn)(struct rpcrdmax_work *work);
void rpcrdmax_work_init(struct rpcrdmax_work *work, rpcrdmax_work_fn fn) RPCRDMAX_NOEXCEPT;
struct workqueue_struct *rpcrdmax_wq_alloc(const char *name, bool mem_reclaim) RPCRDMAX_NOEXCEPT;
void rpcrdmax_wq_destroy(struct workqueue_struct *wq) RPCRDMAX_NOEXCEPT;
/* @wq may be NULL for the system workqueue.  True if newly queued. */
bool rpcrdmax_work_queue(struct workqueue_struct *wq, struct rpcrdmax_work *work) RPCRDMAX_NOEXCEPT;
bool rpcrdmax_work_cancel_sync(struct rpcrdmax_work *work) RPCRDMAX_NOEXCEPT;
bool rpcrdmax_work_flush(struct rpcrdmax_work *work) RPCRDMAX_NOEXCEPT;

/* ---- time (shim/kernel/time.c) ---------------------------------------- */
unsigned long rpcrdmax_jiffies(void) RPCRDMAX_NOEXCEPT;
unsigned long rpcrdmax_msecs_to_jiffies(unsigned int ms) RPCRDMAX_NOEXCEPT;
void rpcrdmax_msleep(unsigned int ms) RPCRDMAX_NOEXCEPT;

/* ---- RDMA connection manager (shim/kernel/cm.c) ----------------------- */
/* Events, translated from enum rdma_cm_event_type. */
enum rpcrdmax_cm_event {
	RPCRDMAX_CM_ADDR_RESOLVED,
	RPCRDMAX_CM_ADDR_ERROR,
	RPCRDMAX_CM_ROUTE_RESOLVED,
	RPCRDMAX_CM_ROUTE_ERROR,
	RPCRDMAX_CM_CONNECT_REQUEST,
	RPCRDMAX_CM_CONNECT_ERROR,
	RPCRDMAX_CM_UNREACHABLE,
	RPCRDMAX_CM_REJECTED,
	RPCRDMAX_CM_ESTABLISHED,
	RPCRDMAX_CM_DISCONNECTED,
	RPCRDMAX_CM_DEVICE_REMOVAL,
	RPCRDMAX_CM_ADDR_CHANGE,
	RPCRDMAX_CM_TIMEWAIT_EXIT,
	RPCRDMAX_CM_OTHER,
};

struct rpcrdmax_cm_event_info {
	int event;			/* enum rpcrdmax_cm_event */
	int status;			/* the CM's status (errno or reject reason) */
	const void *private_data;	/* valid during the callback only */
	unsigned int private_data_len;
	unsigned int responder_resources;
	unsigned int initiator_depth;
	struct rdma_cm_id *new_id;	/* CONNECT_REQUEST: the new connection's id */
};

/*
 * Called in process context for every event on an id.  @handler is the
 * storage given to rpcrdmax_cm_create_id()/rpcrdmax_cm_set_handler().
 * For CONNECT_REQUEST, a non-zero return rejects and destroys new_id.
 * Other ids must be destroyed outside the callback.
 */
typedef int (*rpcrdmax_cm_fn)(struct rpcrdmax_cm_handler *handler,
			      const struct rpcrdmax_cm_event_info *ev);

/* @net: the struct net whose addresses, routes and port space the id uses. */
int rpcrdmax_cm_create_id(struct net *net, struct rpcrdmax_cm_handler *handler, rpcrdmax_cm_fn fn,
			  struct rdma_cm_id **id) RPCRDMAX_NOEXCEPT;
void rpcrdmax_cm_set_handler(struct rdma_cm_id *id, struct rpcrdmax_cm_handler *handler,
			     rpcrdmax_cm_fn fn) RPCRDMAX_NOEXCEPT;
void rpcrdmax_cm_destroy_id(struct rdma_cm_id *id) RPCRDMAX_NOEXCEPT;
int rpcrdmax_cm_bind_addr(struct rdma_cm_id *id, const void *addr) RPCRDMAX_NOEXCEPT;
int rpcrdmax_cm_listen(struct rdma_cm_id *id, int backlog) RPCRDMAX_NOEXCEPT;
int rpcrdmax_cm_resolve_addr(struct rdma_cm_id *id, const void *dst,
			     unsigned int timeout_ms) RPCRDMAX_NOEXCEPT;
int rpcrdmax_cm_resolve_route(struct rdma_cm_id *id, unsigned int timeout_ms) RPCRDMAX_NOEXCEPT;
int rpcrdmax_cm_create_qp(struct rdma_cm_id *id, struct ib_pd *pd, struct ib_cq *send_cq,
			  struct ib_cq *recv_cq, unsigned int max_send_wr, unsigned int max_recv_wr,
			  unsigned int max_send_sge, unsigned int max_recv_sge,
			  unsigned int max_rdma_ctxs, unsigned int *send_wr_out) RPCRDMAX_NOEXCEPT;
void rpcrdmax_cm_destroy_qp(struct rdma_cm_id *id) RPCRDMAX_NOEXCEPT;
int rpcrdmax_cm_connect(struct rdma_cm_id *id, const void *pdata, unsigned int pdata_len,
			unsigned int initiator_depth, unsigned int responder_resources,
			unsigned int retry_count, unsigned int rnr_retry_count) RPCRDMAX_NOEXCEPT;
int rpcrdmax_cm_accept(struct rdma_cm_id *id, const void *pdata, unsigned int pdata_len,
		       unsigned int initiator_depth,
		       unsigned int responder_resources) RPCRDMAX_NOEXCEPT;
int rpcrdmax_cm_reject(struct rdma_cm_id *id, const void *pdata,
		       unsigned int pdata_len) RPCRDMAX_NOEXCEPT;
void rpcrdmax_cm_lock_handler(struct rdma_cm_id *id) RPCRDMAX_NOEXCEPT;
void rpcrdmax_cm_unlock_handler(struct rdma_cm_id *id) RPCRDMAX_NOEXCEPT;
int rpcrdmax_cm_disconnect(struct rdma_cm_id *id) RPCRDMAX_NOEXCEPT;
/* The peer's sockaddr, for %pISc. */
const void *rpcrdmax_cm_peer_addr(struct rdma_cm_id *id) RPCRDMAX_NOEXCEPT;
/* Parse a numeric IPv4 or IPv6 address into sockaddr storage. */
int rpcrdmax_sockaddr_parse(const char *addr, unsigned short port, void *storage,
			    unsigned int storage_len) RPCRDMAX_NOEXCEPT;

/* ---- verbs (shim/kernel/verbs.c) -------------------------------------- */
struct rpcrdmax_dev_attrs {
	unsigned int max_qp_wr;
	unsigned int max_send_sge;
	unsigned int max_recv_sge;
	unsigned int max_cqe;
	unsigned int max_qp_rd_atom;
	unsigned int max_qp_init_rd_atom;
	unsigned int max_fast_reg_page_list_len;
	unsigned int num_comp_vectors;
	bool mem_mgt_extensions;	/* FRWR: REG_MR and LOCAL_INV work requests */
};
int rpcrdmax_ib_query_device(struct ib_device *device,
			     struct rpcrdmax_dev_attrs *attrs) RPCRDMAX_NOEXCEPT;
const char *rpcrdmax_ib_device_name(struct ib_device *device) RPCRDMAX_NOEXCEPT;

int rpcrdmax_ib_alloc_pd(struct ib_device *device, struct ib_pd **pd) RPCRDMAX_NOEXCEPT;
void rpcrdmax_ib_dealloc_pd(struct ib_pd *pd) RPCRDMAX_NOEXCEPT;

/* @workqueue: completions in a workqueue (may sleep) or in softirq;
 * @comp_vector RPCRDMAX_ANY_VECTOR: the least used one. */
#define RPCRDMAX_ANY_VECTOR (-1)
int rpcrdmax_ib_alloc_cq(struct ib_device *device, int nr_cqe, int comp_vector, bool workqueue,
			 struct ib_cq **cq) RPCRDMAX_NOEXCEPT;
void rpcrdmax_ib_free_cq(struct ib_cq *cq) RPCRDMAX_NOEXCEPT;

/* A completion is the kernel's struct ib_wc as the CQ polled it; C++
 * reads its fields in place (rpcrdmax/rdma/verbs.h: wc_status() and the
 * others).  @cqe is the storage given to rpcrdmax_ib_cqe_init(). */
typedef void (*rpcrdmax_wc_fn)(struct rpcrdmax_cqe *cqe, const struct ib_wc *wc);
/* Which of the stock module's completion tracepoints a completion fires
 * (shim/kernel/trace.h), chosen when its storage is prepared. */
enum rpcrdmax_wc_event {
	RPCRDMAX_WC_EV_NONE,
	RPCRDMAX_WC_EV_CLNT_RECEIVE,	/* xprtrdma_wc_receive */
	RPCRDMAX_WC_EV_CLNT_SEND,	/* xprtrdma_wc_send */
	RPCRDMAX_WC_EV_CLNT_LI,		/* xprtrdma_wc_li */
	RPCRDMAX_WC_EV_CLNT_LI_WAKE,	/* xprtrdma_wc_li_wake */
	RPCRDMAX_WC_EV_SVC_RECV,	/* svcrdma_wc_recv, _recv_flush, _recv_err */
	RPCRDMAX_WC_EV_SVC_SEND,	/* svcrdma_wc_send, _send_flush, _send_err */
	RPCRDMAX_WC_EV_SVC_READ,	/* svcrdma_wc_read, _read_flush, _read_err */
	RPCRDMAX_WC_EV_COUNT
};
void rpcrdmax_ib_cqe_init(struct rpcrdmax_cqe *cqe, rpcrdmax_wc_fn fn,
			  enum rpcrdmax_wc_event event) RPCRDMAX_NOEXCEPT;
void rpcrdmax_ib_cqe_set_id(struct rpcrdmax_cqe *cqe, int id) RPCRDMAX_NOEXCEPT;
const char *rpcrdmax_ib_wc_status_msg(unsigned int status) RPCRDMAX_NOEXCEPT;

struct rpcrdmax_sge {
	unsigned long long addr;
	unsigned int length;
	unsigned int lkey;
};

/*
 * Work requests are the kernel's own (struct ib_send_wr, ib_rdma_wr,
 * ib_reg_wr: RPCRDMAX_SIZEOF_IB_WR), written by C++ in place at the
 * IB_*_WR_* offsets (rdma::Wr in rpcrdmax/rdma/verbs.h) and kept with the
 * buffer or MR they post; C++ never looks inside one otherwise.
 */
/* Post the chain from @first; on failure none from *@bad on was posted. */
int rpcrdmax_ib_post_send(struct ib_qp *qp, const struct ib_send_wr *first,
			  const struct ib_send_wr **bad) RPCRDMAX_NOEXCEPT;
/* Receives likewise (struct ib_recv_wr: rdma::RecvWr), kept with their
 * buffer.  Post the chain from @first: 0, or a negative errno (those
 * before the one that failed were posted). */
int rpcrdmax_ib_post_recv(struct ib_qp *qp, const struct ib_recv_wr *first) RPCRDMAX_NOEXCEPT;
void rpcrdmax_ib_drain_qp(struct ib_qp *qp) RPCRDMAX_NOEXCEPT;

/* DMA mapping; @dir is an RPCRDMAX_DMA_* constant. */
int rpcrdmax_ib_dma_map_single(struct ib_device *device, void *addr, unsigned long len, int dir,
			       unsigned long long *dma) RPCRDMAX_NOEXCEPT;
void rpcrdmax_ib_dma_unmap_single(struct ib_device *device, unsigned long long dma,
				  unsigned long len, int dir) RPCRDMAX_NOEXCEPT;
/* The same without syncing for the CPU first (DMA_ATTR_SKIP_CPU_SYNC):
 * for a buffer the CPU may be using, whose contents were synced when the
 * device last wrote them. */
void rpcrdmax_ib_dma_unmap_single_nosync(struct ib_device *device, unsigned long long dma,
					 unsigned long len, int dir) RPCRDMAX_NOEXCEPT;
int rpcrdmax_ib_dma_map_page(struct ib_device *device, struct page *page, unsigned int offset,
			     unsigned int len, int dir, unsigned long long *dma) RPCRDMAX_NOEXCEPT;
void rpcrdmax_ib_dma_unmap_page(struct ib_device *device, unsigned long long dma, unsigned int len,
				int dir) RPCRDMAX_NOEXCEPT;
void rpcrdmax_ib_dma_sync_for_cpu(struct ib_device *device, unsigned long long dma,
				  unsigned long len, int dir) RPCRDMAX_NOEXCEPT;
void rpcrdmax_ib_dma_sync_for_device(struct ib_device *device, unsigned long long dma,
				     unsigned long len, int dir) RPCRDMAX_NOEXCEPT;

/* Fast-registration MRs (FRWR).  @sgl: RPCRDMAX_SIZEOF_SCATTERLIST each. */
struct rpcrdmax_page_seg {
	struct page *page;
	unsigned int offset;
	unsigned int len;
};
int rpcrdmax_ib_alloc_mr(struct ib_pd *pd, unsigned int max_sg,
			 struct ib_mr **mr) RPCRDMAX_NOEXCEPT;
int rpcrdmax_ib_dereg_mr(struct ib_mr *mr) RPCRDMAX_NOEXCEPT;
/* DMA-map @segs and map them into @mr; returns the segments mapped or -errno. */
int rpcrdmax_ib_mr_map(struct ib_mr *mr, struct ib_device *device, struct scatterlist *sgl,
		       const struct rpcrdmax_page_seg *segs, unsigned int nsegs,
		       int dir) RPCRDMAX_NOEXCEPT;
/* The same for @len octets of directly mapped kernel memory at @va (at
 * most @max pages), as one scatterlist entry: 1, or -errno. */
int rpcrdmax_ib_mr_map_kva(struct ib_mr *mr, struct ib_device *device, struct scatterlist *sgl,
			   const void *va, unsigned int len, unsigned int max,
			   int dir) RPCRDMAX_NOEXCEPT;
void rpcrdmax_ib_mr_unmap(struct ib_device *device, struct scatterlist *sgl, unsigned int nsegs,
			  int dir) RPCRDMAX_NOEXCEPT;

/*
 * RDMA Read/Write of one remote segment from/to local page pieces
 * (shim/kernel/rw.c).  @ctx: RPCRDMAX_SIZEOF_RW_CTX storage; @sgl:
 * RPCRDMAX_SIZEOF_SCATTERLIST per piece; @cm_id: a connection's id whose
 * QP was made with max_rdma_ctxs.  init() returns the Send Queue entries
 * needed or -errno.  post() chains @n contexts and then @last (if not
 * NULL); only the final request signals (@cqe when @last is NULL).
 */
int rpcrdmax_rw_init(struct rdma_rw_ctx *ctx, struct rdma_cm_id *cm_id, struct scatterlist *sgl,
		     const struct rpcrdmax_page_seg *segs, unsigned int nsegs,
		     unsigned long long remote_addr, unsigned int rkey, int dir) RPCRDMAX_NOEXCEPT;
void rpcrdmax_rw_destroy(struct rdma_rw_ctx *ctx, struct rdma_cm_id *cm_id, struct scatterlist *sgl,
			 unsigned int nsegs, int dir) RPCRDMAX_NOEXCEPT;
int rpcrdmax_rw_post(struct rdma_cm_id *cm_id, struct rdma_rw_ctx *const *ctxs, unsigned int n,
		     struct rpcrdmax_cqe *cqe, struct ib_send_wr *last) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_rw_mr_factor(struct rdma_cm_id *cm_id,
				   unsigned int maxpages) RPCRDMAX_NOEXCEPT;

/* ---- tunables under /proc/sys/sunrpc (shim/sunrpc/sysctl.c) ----------- */
int rpcrdmax_sysctl_register(void) RPCRDMAX_NOEXCEPT;
void rpcrdmax_sysctl_unregister(void) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_tunable_inline_read(void) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_tunable_inline_write(void) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_tunable_max_version(void) RPCRDMAX_NOEXCEPT;
/* A client connection settled on RPC-over-RDMA version @vers (1 or 2):
 * counted in /sys/module/rpcrdmax/parameters/client_vers{1,2}_conns. */
void rpcrdmax_clnt_count_version(unsigned int vers) RPCRDMAX_NOEXCEPT;
/* The server's, under /proc/sys/sunrpc/svc_rdma (stock names). */
int rpcrdmax_svc_sysctl_register(void) RPCRDMAX_NOEXCEPT;
void rpcrdmax_svc_sysctl_unregister(void) RPCRDMAX_NOEXCEPT;
struct rpcrdmax_svc_tunables {
	unsigned int max_requests;		/* credits (Receives) per connection */
	unsigned int max_req_size;		/* our Receive size: the largest inline Call */
	unsigned int max_outbound_read_requests; /* RDMA Reads in flight (ORD) */
	unsigned int max_version;		/* highest RPC-over-RDMA version accepted: 1 or 2 */
};
void rpcrdmax_svc_tunables(struct rpcrdmax_svc_tunables *out) RPCRDMAX_NOEXCEPT;
enum {
	RPCRDMAX_SVC_STAT_READ,		/* rdma_stat_read: RDMA Read segments */
	RPCRDMAX_SVC_STAT_RECV,		/* rdma_stat_recv: messages received */
	RPCRDMAX_SVC_STAT_WRITE,	/* rdma_stat_write: RDMA Write segments */
	RPCRDMAX_SVC_STAT_SQ_STARVE,	/* rdma_stat_sq_starve: waits for Send Queue room */
	RPCRDMAX_SVC_STAT_ERR_VERS,	/* rdma_stat_err_vers: Calls answered ERR_VERS */
	RPCRDMAX_SVC_STAT_ERR_CHUNK,	/* rdma_stat_err_chunk: Calls answered ERR_CHUNK */
	RPCRDMAX_SVC_STAT_DROPPED,	/* rdma_stat_dropped: Calls dropped unanswered */
	RPCRDMAX_SVC_STAT_PAGE_SGES,	/* rdma_stat_page_sges: inline page pieces sent from their pages */
	RPCRDMAX_SVC_STAT_PULL_UP,	/* rdma_stat_pull_up: inline page-list octets copied */
	RPCRDMAX_SVC_STAT_REFUSED,	/* rdma_stat_refused: connection requests refused */
	RPCRDMAX_SVC_STAT_CTXT_ALLOC,	/* rdma_stat_ctxt_alloc: contexts made (set-up, growth) */
	RPCRDMAX_SVC_STAT_CREDIT_OVERRUN, /* rdma_stat_credit_overrun: Calls beyond the credits granted */
	RPCRDMAX_SVC_STAT_BC_CALLS,	/* rdma_stat_bc_calls: backward Calls sent (RFC 8167) */
	RPCRDMAX_SVC_STAT_BC_REPLIES,	/* rdma_stat_bc_replies: backward Replies matched */
	RPCRDMAX_SVC_STAT_BC_DROPPED,	/* rdma_stat_bc_dropped: backward Replies dropped */
	RPCRDMAX_SVC_STAT_RQ_PROD,	/* rdma_stat_rq_prod: Receive reposts (chained posts) */
	RPCRDMAX_SVC_STAT_SQ_PROD,	/* rdma_stat_sq_prod: Replies' Sends posted */
	RPCRDMAX_SVC_STAT_SQ_POLL,	/* rdma_stat_sq_poll: Send completions (signaled, or errors) */
	RPCRDMAX_SVC_STAT_VERS1,	/* rdma_stat_vers1_conns: connections whose first Call was version 1 */
	RPCRDMAX_SVC_STAT_VERS2,	/* rdma_stat_vers2_conns: ... version 2 */
	RPCRDMAX_SVC_STAT_ERR_V2,	/* rdma_stat_err_v2: RDMA2_ERROR Replies other than ERR_VERS */
	RPCRDMAX_SVC_STAT_CONNPROP_SENT, /* rdma_stat_connprop_sent: our RDMA2_CONNPROPs */
	RPCRDMAX_SVC_STAT_CONNPROP_RECV, /* rdma_stat_connprop_recv: clients' RDMA2_CONNPROPs */
	RPCRDMAX_SVC_STAT_LOST,		/* rdma_stat_lost: Calls lost with their connection */
	RPCRDMAX_SVC_STAT_SVC_DROP,	/* rdma_stat_svc_drop: Calls nfsd released without a Reply */
	RPCRDMAX_SVC_STAT_UNSETTLED,	/* rdma_stat_unsettled: messages a connection ended without an outcome for (a defect) */
	RPCRDMAX_SVC_STAT_READ_RESET,	/* rdma_stat_read_reset: connections reset with a Call's RDMA Reads unanswered */
	RPCRDMAX_SVC_STAT_COUNT
};
/*
 * The rdma_stat_* counters: RPCRDMAX_SVC_STAT_COUNT of them per CPU
 * (alloc_percpu, shim/sunrpc/sysctl.c).  The C++ adds to this CPU's copy
 * (rpcrdmax_percpu_add_u64); reading a sysctl sums the
 * CPUs' copies, writing one zeroes them.  NULL while the server part is
 * not registered (nothing is counted then).
 */
extern unsigned long long RPCRDMAX_PERCPU *rpcrdmax_svc_stats;

/* ---- sunrpc client transport (shim/sunrpc/xprt.c; rqst_*: shim/sunrpc/xprt_rqst.c) --- */
int rpcrdmax_xprt_register(void) RPCRDMAX_NOEXCEPT;
void rpcrdmax_xprt_unregister(void) RPCRDMAX_NOEXCEPT;
int rpcrdmax_xprt_rqst_snd_copy(struct rpc_rqst *rqst, void *dst,
				unsigned int max) RPCRDMAX_NOEXCEPT;
int rpcrdmax_xprt_rqst_snd_copy_range(struct rpc_rqst *rqst, unsigned int offset, unsigned int len,
				      void *dst, unsigned int max) RPCRDMAX_NOEXCEPT;
struct rpc_rqst *rpcrdmax_xprt_lookup_pin(struct rpc_xprt *xprt,
					  unsigned int xid) RPCRDMAX_NOEXCEPT;
/* The network namespace the transport was made in (its struct net). */
struct net *rpcrdmax_xprt_net(struct rpc_xprt *xprt) RPCRDMAX_NOEXCEPT;
int rpcrdmax_xprt_rqst_rcv_copy(struct rpc_rqst *rqst, const void *src,
				unsigned int len) RPCRDMAX_NOEXCEPT;
void rpcrdmax_xprt_complete_unpin(struct rpc_xprt *xprt, struct rpc_rqst *rqst,
				  int status) RPCRDMAX_NOEXCEPT;
void rpcrdmax_xprt_unpin(struct rpc_xprt *xprt, struct rpc_rqst *rqst) RPCRDMAX_NOEXCEPT;
void rpcrdmax_xprt_set_credits(struct rpc_xprt *xprt, unsigned int credits) RPCRDMAX_NOEXCEPT;
/* A new connection: its credits start at one, none taken (RFC 5666
 * Section 3.3: the requester stays within the grant of the connection). */
void rpcrdmax_xprt_reset_cong(struct rpc_xprt *xprt) RPCRDMAX_NOEXCEPT;
/* No Send buffer or MR for a transmission: sunrpc's writers wait
 * (XPRT_WRITE_SPACE) until rpcrdmax_xprt_write_space() lets them go on. */
void rpcrdmax_xprt_wait_for_space(struct rpc_xprt *xprt) RPCRDMAX_NOEXCEPT;
void rpcrdmax_xprt_write_space(struct rpc_xprt *xprt) RPCRDMAX_NOEXCEPT;
/*
 * Backward-direction RPC (shim/sunrpc/xprt_rqst.c; the slots:
 * shim/sunrpc/xprt_bc.c): queue a backward Call (its RPC message,
 * copied) to the callback service - 0, -ENOTCONN (no service), -ENOBUFS
 * (no free slot), -EMSGSIZE.  A backward message's RPC part (either
 * end's) is copied out with rpcrdmax_xprt_rqst_snd_copy_range().
 */
int rpcrdmax_xprt_bc_call(struct rpc_xprt *xprt, const void *msg,
			  unsigned int len) RPCRDMAX_NOEXCEPT;
void rpcrdmax_xprt_force_disconnect(struct rpc_xprt *xprt) RPCRDMAX_NOEXCEPT;
/* sunrpc's reconnect timing: whether a first wait was set (after the
 * first connect), setting it, the jiffies left of it since the last
 * attempt began, and its backoff (doubled, within [@init_ms, the
 * mount's maximum]). */
bool rpcrdmax_xprt_reestablish_set(struct rpc_xprt *xprt) RPCRDMAX_NOEXCEPT;
void rpcrdmax_xprt_set_reestablish(struct rpc_xprt *xprt, unsigned int ms) RPCRDMAX_NOEXCEPT;
unsigned long rpcrdmax_xprt_reconnect_delay(struct rpc_xprt *xprt) RPCRDMAX_NOEXCEPT;
void rpcrdmax_xprt_reconnect_backoff(struct rpc_xprt *xprt, unsigned int init_ms) RPCRDMAX_NOEXCEPT;

/* The layout of an xdr_buf (head, page list, tail), as the planner sees it
 * (xprtrdma/rqst.h reads a request's in place). */
struct rpcrdmax_xdr_shape {
	unsigned int head_len, head_offset;	/* offsets: within the first page */
	unsigned int page_len, page_offset;
	unsigned int tail_len, tail_offset;
	unsigned int len;	/* Call: octets to send; Reply: room */
	bool ddp;		/* the page list is one DDP-eligible item */
};
int rpcrdmax_xprt_rqst_fill_sparse(struct rpc_rqst *rqst, unsigned int gfp) RPCRDMAX_NOEXCEPT;
/* (A Reply's octets that fit rq_private_buf's head, or go around
 * Write-chunk data into its head and tail, C++ copies itself at the
 * xdr_buf's offsets: xprtrdma/marshal.cpp place_reply.) */
void rpcrdmax_seq_printf(struct seq_file *seq, const char *fmt, ...) RPCRDMAX_NOEXCEPT
	RPCRDMAX_PRINTF(2, 3);

/* ---- sunrpc server transport (shim/sunrpc/svc.c) ---------------------- */
int rpcrdmax_svc_register(void) RPCRDMAX_NOEXCEPT;
void rpcrdmax_svc_unregister(void) RPCRDMAX_NOEXCEPT;
/*
 * A connection's svc_xprt, made for a CONNECT_REQUEST on @listener's id:
 * addresses from @cm_id, @conn is the C++ connection.  NULL without memory.
 * One never handed out by xpo_accept goes with rpcrdmax_svc_xprt_discard().
 */
struct svc_xprt *rpcrdmax_svc_xprt_new(struct svc_xprt *listener, struct rdma_cm_id *cm_id,
				       struct rpcrdmax_svcc *conn) RPCRDMAX_NOEXCEPT;
/*
 * The largest RPC payload (an NFS READ's or WRITE's data) a connection
 * accepted on @listener may carry: its service's sv_max_payload (nfsd's
 * max_block_size when nfsd started), at most the kernel's
 * RPCSVC_MAXPAYLOAD (1 MiB to 6.12, 4 MiB on 7.x).
 */
unsigned int rpcrdmax_svc_max_payload(struct svc_xprt *listener) RPCRDMAX_NOEXCEPT;
void rpcrdmax_svc_xprt_discard(struct svc_xprt *xprt) RPCRDMAX_NOEXCEPT;
void rpcrdmax_svc_xprt_conn_pending(struct svc_xprt *listener) RPCRDMAX_NOEXCEPT;
/* The network namespace of @xprt's svc_xprt (its struct net). */
struct net *rpcrdmax_svc_xprt_net(struct svc_xprt *xprt) RPCRDMAX_NOEXCEPT;
void rpcrdmax_svc_xprt_data_ready(struct svc_xprt *xprt) RPCRDMAX_NOEXCEPT;
/* A message was taken off @xprt: another thread may look for the next. */
void rpcrdmax_svc_xprt_received(struct svc_xprt *xprt) RPCRDMAX_NOEXCEPT;
void rpcrdmax_svc_xprt_close(struct svc_xprt *xprt) RPCRDMAX_NOEXCEPT;
/* @xprt is closing or closed (XPT_CLOSE or XPT_DEAD): a Reply can no longer go out. */
bool rpcrdmax_svc_xprt_closing(struct svc_xprt *xprt) RPCRDMAX_NOEXCEPT;
/* The Call message for nfsd, in the svc_rqst's pages (linear offsets);
 * these and the rq_res helpers below are in shim/sunrpc/svc_rqst.c. */
int rpcrdmax_svc_arg_copy(struct svc_rqst *rqstp, unsigned int offset, const void *src,
			  unsigned int len) RPCRDMAX_NOEXCEPT;
void rpcrdmax_svc_arg_set(struct svc_rqst *rqstp, unsigned int len) RPCRDMAX_NOEXCEPT;
/* ... or an inline Call left where it was received (no copy). */
void rpcrdmax_svc_arg_set_buf(struct svc_rqst *rqstp, void *buf,
			      unsigned int len) RPCRDMAX_NOEXCEPT;
/* The Reply's pages (rq_respages, rq_next_page) C++ sets in place:
 * rpcrdmax/ktl/svc_rqst.h. */
/* The Reply (rq_res; svcrdma.h reads its shape in place): @len octets
 * from @offset into @dst. */
int rpcrdmax_svc_res_copy(struct svc_rqst *rqstp, unsigned int offset, unsigned int len,
			  void *dst) RPCRDMAX_NOEXCEPT;
/*
 * The page pieces behind octets [@offset, @offset + @len) of the Call
 * area in rq_pages (arg) or of the Reply in rq_res (res), for rdma_rw.
 * Returns the pieces written to @segs, -EMSGSIZE when the range is
 * beyond the Call's room or the Reply, -ENOBUFS when @max is too small.
 */
int rpcrdmax_svc_arg_pages(struct svc_rqst *rqstp, unsigned int offset, unsigned int len,
			   struct rpcrdmax_page_seg *segs, unsigned int max) RPCRDMAX_NOEXCEPT;
int rpcrdmax_svc_res_pages(struct svc_rqst *rqstp, unsigned int offset, unsigned int len,
			   struct rpcrdmax_page_seg *segs, unsigned int max) RPCRDMAX_NOEXCEPT;

/* ---- the server's backchannel rpc_xprt (shim/sunrpc/svc_bc.c) --------- */
/*
 * Complete the backward Call @xid on @xprt's backchannel with the Reply
 * @msg (@len octets, RPC message only); @slots backward Calls may be
 * outstanding from now on.  0, -ENOTCONN (no backchannel), -ESRCH (no
 * such Call) or -EMSGSIZE (longer than the Call's receive buffer).
 */
int rpcrdmax_svc_bc_reply(struct svc_xprt *xprt, unsigned int xid, const void *msg,
			  unsigned int len, unsigned int slots) RPCRDMAX_NOEXCEPT;

/* ---- tracepoints (shim/kernel/trace.c; events: shim/kernel/trace.h) --- */
/* Stock's names, fields and chunk type numbers (trace system "rpcrdma"). */
/*
 * Tracepoints the C++ tests before it calls their shim function, so that a
 * disabled one costs a load and a test, no call (rpcrdmax/ktl/trace.h):
 * rpcrdmax_tp_key[RPCRDMAX_TP_<ID>] points to the enabled count of the
 * static key of the tracepoint named beside ID (shim/kernel/trace.c), above
 * 0 while a probe is attached, as static_key_enabled() reads it.  The hot
 * ones are the events of every Call and Reply; the cold ones
 * (RPCRDMAX_COLD_TRACEPOINTS) fire on set-up, teardown and errors, and the
 * C++ reads their key alone.
 * rpcrdmax_tp_hot_probed counts the hot ones with a probe attached (each
 * counts itself as its first probe comes and its last goes: their
 * regfunc), so that while none is on, which is nearly always, a test
 * reads that one word.
 */
#define RPCRDMAX_HOT_TRACEPOINTS(X)				\
	X(XPRTRDMA_MARSHAL, xprtrdma_marshal)			\
	X(XPRTRDMA_REPLY, xprtrdma_reply)			\
	X(XPRTRDMA_POST_SEND, xprtrdma_post_send)		\
	X(XPRTRDMA_POST_RECV, xprtrdma_post_recv)		\
	X(XPRTRDMA_CHUNK_READ, xprtrdma_chunk_read)		\
	X(XPRTRDMA_CHUNK_WRITE, xprtrdma_chunk_write)		\
	X(XPRTRDMA_CHUNK_REPLY, xprtrdma_chunk_reply)		\
	X(XPRTRDMA_DECODE_SEG, xprtrdma_decode_seg)		\
	X(XPRTRDMA_MR_MAP, xprtrdma_mr_map)			\
	X(XPRTRDMA_MR_FASTREG, xprtrdma_mr_fastreg)		\
	X(XPRTRDMA_MR_REMINV, xprtrdma_mr_reminv)		\
	X(XPRTRDMA_MR_LOCALINV, xprtrdma_mr_localinv)		\
	X(XPRTRDMA_MR_UNMAP, xprtrdma_mr_unmap)			\
	X(SVCRDMA_POST_RECV, svcrdma_post_recv)			\
	X(SVCRDMA_DECODE_RQST, svcrdma_decode_rqst)		\
	X(SVCRDMA_DECODE_RSEG, svcrdma_decode_rseg)		\
	X(SVCRDMA_DECODE_WSEG, svcrdma_decode_wseg)		\
	X(SVCRDMA_POST_READ_CHUNK, svcrdma_post_read_chunk)	\
	X(SVCRDMA_POST_WRITE_CHUNK, svcrdma_post_write_chunk)	\
	X(SVCRDMA_POST_REPLY_CHUNK, svcrdma_post_reply_chunk)	\
	X(SVCRDMA_POST_SEND, svcrdma_post_send)			\
	X(SVCRDMA_ENCODE_WSEG, svcrdma_encode_wseg)
#define RPCRDMAX_COLD_TRACEPOINTS(X)				\
	X(XPRTRDMA_CONNECT, xprtrdma_connect)			\
	X(XPRTRDMA_DISCONNECT, xprtrdma_disconnect)		\
	X(XPRTRDMA_INLINE_THRESH, xprtrdma_inline_thresh)	\
	X(XPRTRDMA_CB_CALL, xprtrdma_cb_call)			\
	X(XPRTRDMA_CB_REPLY, xprtrdma_cb_reply)			\
	X(XPRTRDMA_POST_RECVS, xprtrdma_post_recvs)		\
	X(XPRTRDMA_POST_RECVS_ERR, xprtrdma_post_recvs_err)	\
	X(XPRTRDMA_POST_SEND_ERR, xprtrdma_post_send_err)	\
	X(XPRTRDMA_POST_LINV_ERR, xprtrdma_post_linv_err)	\
	X(XPRTRDMA_CREATEMRS, xprtrdma_createmrs)		\
	X(XPRTRDMA_FRWR_ALLOC, xprtrdma_frwr_alloc)		\
	X(XPRTRDMA_NOMRS_ERR, xprtrdma_nomrs_err)		\
	X(XPRTRDMA_MARSHAL_FAILED, xprtrdma_marshal_failed)	\
	X(XPRTRDMA_DMA_MAPERR, xprtrdma_dma_maperr)		\
	X(XPRTRDMA_FRWR_MAPERR, xprtrdma_frwr_maperr)		\
	X(XPRTRDMA_ERR_VERS, xprtrdma_err_vers)			\
	X(XPRTRDMA_ERR_CHUNK, xprtrdma_err_chunk)		\
	X(XPRTRDMA_ERR_UNRECOGNIZED, xprtrdma_err_unrecognized)	\
	X(XPRTRDMA_REPLY_SHORT_ERR, xprtrdma_reply_short_err)	\
	X(XPRTRDMA_REPLY_VERS_ERR, xprtrdma_reply_vers_err)	\
	X(XPRTRDMA_REPLY_RQST_ERR, xprtrdma_reply_rqst_err)	\
	X(XPRTRDMA_REPLY_HDR_ERR, xprtrdma_reply_hdr_err)	\
	X(SVCRDMA_ACCEPT_ERR, svcrdma_accept_err)		\
	X(SVCRDMA_PD_ERR, svcrdma_pd_err)			\
	X(SVCRDMA_QP_ERR, svcrdma_qp_err)			\
	X(SVCRDMA_RQ_POST_ERR, svcrdma_rq_post_err)		\
	X(SVCRDMA_SQ_POST_ERR, svcrdma_sq_post_err)		\
	X(SVCRDMA_SQ_FULL, svcrdma_sq_full)			\
	X(SVCRDMA_SQ_RETRY, svcrdma_sq_retry)			\
	X(SVCRDMA_SEND_ERR, svcrdma_send_err)			\
	X(SVCRDMA_SMALL_WRCH_ERR, svcrdma_small_wrch_err)	\
	X(SVCRDMA_DMA_MAP_ERR, svcrdma_dma_map_err)		\
	X(SVCRDMA_DMA_MAP_RW_ERR, svcrdma_dma_map_rw_err)	\
	X(SVCRDMA_ERR_VERS, svcrdma_err_vers)			\
	X(SVCRDMA_ERR_CHUNK, svcrdma_err_chunk)			\
	X(SVCRDMA_DECODE_SHORT_ERR, svcrdma_decode_short_err)	\
	X(SVCRDMA_DECODE_BADVERS_ERR, svcrdma_decode_badvers_err) \
	X(SVCRDMA_DECODE_DROP_ERR, svcrdma_decode_drop_err)	\
	X(SVCRDMA_DECODE_BADPROC_ERR, svcrdma_decode_badproc_err) \
	X(SVCRDMA_DECODE_PARSE_ERR, svcrdma_decode_parse_err)
enum rpcrdmax_tp {
#define RPCRDMAX_TP_ENUM(id, event) RPCRDMAX_TP_##id,
	RPCRDMAX_HOT_TRACEPOINTS(RPCRDMAX_TP_ENUM)
	RPCRDMAX_TP_HOT_COUNT,
	/* the cold ones from RPCRDMAX_TP_HOT_COUNT on, with no gap */
	RPCRDMAX_TP_COLD_BEFORE = RPCRDMAX_TP_HOT_COUNT - 1,
	RPCRDMAX_COLD_TRACEPOINTS(RPCRDMAX_TP_ENUM)
#undef RPCRDMAX_TP_ENUM
	RPCRDMAX_TP_COUNT
};
/* The events one shim function chooses among by its @which: tp_any()'s
 * arguments at its call sites. */
#define RPCRDMAX_TP_XPRTRDMA_REPLY_ERRS						\
	RPCRDMAX_TP_XPRTRDMA_REPLY_SHORT_ERR, RPCRDMAX_TP_XPRTRDMA_REPLY_VERS_ERR,	\
	RPCRDMAX_TP_XPRTRDMA_REPLY_RQST_ERR, RPCRDMAX_TP_XPRTRDMA_REPLY_HDR_ERR
#define RPCRDMAX_TP_SVCRDMA_ACCEPT_ERRS \
	RPCRDMAX_TP_SVCRDMA_ACCEPT_ERR, RPCRDMAX_TP_SVCRDMA_PD_ERR, RPCRDMAX_TP_SVCRDMA_QP_ERR
#define RPCRDMAX_TP_SVCRDMA_DECODE_ERRS						\
	RPCRDMAX_TP_SVCRDMA_DECODE_SHORT_ERR, RPCRDMAX_TP_SVCRDMA_DECODE_BADVERS_ERR,	\
	RPCRDMAX_TP_SVCRDMA_DECODE_DROP_ERR, RPCRDMAX_TP_SVCRDMA_DECODE_BADPROC_ERR,	\
	RPCRDMAX_TP_SVCRDMA_DECODE_PARSE_ERR
extern const int *const rpcrdmax_tp_key[RPCRDMAX_TP_COUNT];
extern int rpcrdmax_tp_hot_probed;

enum rpcrdmax_chunktype {
	RPCRDMAX_CH_INLINE = 0,	/* inline, the head copied */
	RPCRDMAX_CH_PULLUP = 1,	/* inline, the whole message copied */
	RPCRDMAX_CH_MAPPED = 2,	/* inline, sent from its pages */
	RPCRDMAX_CH_READ = 3,	/* a Read list */
	RPCRDMAX_CH_LONG = 4,	/* the whole Call in a Position Zero Read chunk */
	RPCRDMAX_CH_WRITE = 5,	/* a Write list */
	RPCRDMAX_CH_REPLY = 6,	/* a Reply chunk */
};
void rpcrdmax_trace_connect(struct rpc_xprt *xprt, int rc) RPCRDMAX_NOEXCEPT;
/* xprtrdma_cb_call (@reply false: a backward Call taken) and _cb_reply
 * (its Reply sent), with the message's XID. */
void rpcrdmax_trace_cb(struct rpc_xprt *xprt, unsigned int xid, bool reply) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_disconnect(struct rpc_xprt *xprt, int rc, bool established) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_marshal(struct rpc_rqst *rqst, unsigned int hdrlen, unsigned int rtype,
			    unsigned int wtype) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_reply(struct rpc_rqst *rqst, unsigned int credits) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_err_vers(struct rpc_rqst *rqst, unsigned int low,
			     unsigned int high) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_err_chunk(struct rpc_rqst *rqst) RPCRDMAX_NOEXCEPT;
/* RDMA_ERROR with an rdma_err that is neither (@err as received). */
void rpcrdmax_trace_err_unrecognized(struct rpc_rqst *rqst, unsigned int err) RPCRDMAX_NOEXCEPT;
/* A Reply the client could not use, as stock's xprtrdma_reply_*_err
 * name it: shorter than the fixed header (_short_err), another version
 * (_vers_err), no Call with its XID (_rqst_err), a header or chunks that
 * do not decode or do not fit the Call (_hdr_err).  @xid, @vers, @proc:
 * the header's words as received (0 when it is too short to have them). */
enum rpcrdmax_reply_err {
	RPCRDMAX_REPLY_ERR_SHORT,
	RPCRDMAX_REPLY_ERR_VERS,
	RPCRDMAX_REPLY_ERR_RQST,
	RPCRDMAX_REPLY_ERR_HDR,
};
void rpcrdmax_trace_reply_err(enum rpcrdmax_reply_err which, struct rpc_xprt *xprt,
			      unsigned int xid, unsigned int vers,
			      unsigned int proc) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_svc_decode(struct ib_cq *cq, int cid, unsigned int xid, unsigned int vers,
			       unsigned int proc, unsigned int credits,
			       unsigned int hdrlen) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_svc_err(unsigned int xid, bool vers) RPCRDMAX_NOEXCEPT;
/* Failures, under the stock module's event names.  Server: a connection's
 * set-up (svcrdma_pd_err, _qp_err, _accept_err; @id its CM id), a Receive
 * or a Send chain the QP refused (svcrdma_rq_post_err, _sq_post_err with
 * the Send Queue slots free of @depth).  Client: a Call's Send chain
 * (xprtrdma_post_send_err), a Receive (xprtrdma_post_recvs_err), an RPC's
 * LOCAL_INVs (xprtrdma_post_linv_err; @rqst NULL: not known there). */
enum rpcrdmax_accept_err {
	RPCRDMAX_ACCEPT_ERR_PD,
	RPCRDMAX_ACCEPT_ERR_QP,
	RPCRDMAX_ACCEPT_ERR_ACCEPT,
};
void rpcrdmax_trace_svc_accept_err(enum rpcrdmax_accept_err which, struct rdma_cm_id *id,
				   long status) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_svc_rq_post_err(struct rdma_cm_id *id, int status) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_svc_sq_post_err(struct rdma_cm_id *id, int avail, int depth,
				    int status) RPCRDMAX_NOEXCEPT;
/* svcrdma_sq_full (too few Send Queue slots free: the poster sleeps) and,
 * with @retry, svcrdma_sq_retry (it woke and tries again). */
void rpcrdmax_trace_svc_sq_wait(struct rdma_cm_id *id, int avail, int depth,
				bool retry) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_post_send_err(struct rpc_rqst *rqst, struct ib_cq *cq,
				  int rc) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_post_recvs_err(struct rpc_xprt *xprt, struct ib_cq *cq,
				   int status) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_post_linv_err(struct rpc_rqst *rqst, int status) RPCRDMAX_NOEXCEPT;
/* The client, under the stock module's event names: sunrpc's connect
 * (xprtrdma_op_connect; @delay in jiffies), its connect time-outs
 * (_op_set_cto), an injected disconnect (_op_inject_dsc); a connection's
 * inline sizes (_inline_thresh; @id its CM id), its MRs made
 * (_createmrs), one that could not be (_frwr_alloc), none free for an
 * RPC (_nomrs_err); a Call that could not be marshaled
 * (_marshal_failed); each Write list and Reply chunk segment a Reply
 * returns (_decode_seg: walk them only when its rpcrdmax_tp_key is on).
 * The server: a Reply that could not be sent (svcrdma_send_err), a
 * result longer than its Write chunk (svcrdma_small_wrch_err). */
void rpcrdmax_trace_op_connect(struct rpc_xprt *xprt, unsigned long delay) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_op_set_cto(struct rpc_xprt *xprt, unsigned long connect,
			       unsigned long reconnect) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_op_inject_dsc(struct rpc_xprt *xprt) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_inline_thresh(struct rdma_cm_id *id, unsigned int inline_send,
				  unsigned int inline_recv, unsigned int max_send,
				  unsigned int max_recv) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_createmrs(struct rpc_xprt *xprt, unsigned int count) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_frwr_alloc(unsigned int mr_id, int rc) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_nomrs_err(struct rpc_xprt *xprt, struct rpc_rqst *rqst) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_marshal_failed(struct rpc_rqst *rqst, int ret) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_decode_seg(unsigned int handle, unsigned int length,
			       unsigned long long offset) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_svc_send_err(struct rdma_cm_id *id, unsigned int xid,
				 int status) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_svc_small_wrch_err(struct rdma_cm_id *id, unsigned int remaining,
				       unsigned int seg_no,
				       unsigned int num_segs) RPCRDMAX_NOEXCEPT;
/* Work posted, under the stock module's event names.  Client: a Call's
 * Send chain (xprtrdma_post_send), a Receive (xprtrdma_post_recv), a
 * connection's first Receives (xprtrdma_post_recvs).  Server: Receives
 * (svcrdma_post_recv, one per @cqes), a Reply's Send (svcrdma_post_send),
 * a chunk's Reads or Writes (svcrdma_post_{read,write,reply}_chunk). */
void rpcrdmax_trace_post_send(struct rpc_rqst *rqst, struct ib_cq *cq, int cid, int num_sge,
			      bool signaled) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_post_recv(struct ib_cq *cq, int cid) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_post_recvs(struct rpc_xprt *xprt, struct ib_cq *cq, unsigned int count,
			       int posted) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_svc_post_recvs(struct ib_cq *cq, struct rpcrdmax_cqe *const *cqes,
				   unsigned int n) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_svc_post_send(struct ib_cq *cq, int cid, unsigned int num_sge,
				  unsigned int inv_rkey, int write_wrs,
				  int reply_wrs) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_svc_post_read_chunk(struct ib_cq *cq, int cid, int sqecount) RPCRDMAX_NOEXCEPT;
/* DMA mapping failures, under the stock module's event names.  Client: a
 * Send or Receive buffer (xprtrdma_dma_maperr; @dma: the address the
 * mapping gave, 0 if none), an MR's pages (xprtrdma_frwr_maperr; @mapped:
 * what the mapping returned, of @nents).  Server, on the connection of CM
 * id @id: a Send or Receive buffer or a Reply's page piece
 * (svcrdma_dma_map_err), an rdma_rw context's pages
 * (svcrdma_dma_map_rw_err). */
void rpcrdmax_trace_dma_maperr(unsigned long long dma) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_frwr_maperr(int mr_id, int dir, int mapped, int nents) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_svc_dma_map_err(struct rdma_cm_id *id, unsigned long long dma,
				    unsigned int length) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_svc_dma_map_rw_err(struct rdma_cm_id *id, unsigned int nents,
				       int status) RPCRDMAX_NOEXCEPT;
/* svcrdma_decode_rseg and _wseg, one per segment: walk the lists only
 * when either event's rpcrdmax_tp_key is on. */
void rpcrdmax_trace_svc_rseg(struct ib_cq *cq, int cid, unsigned int segno, unsigned int position,
			     unsigned int handle, unsigned int length,
			     unsigned long long offset) RPCRDMAX_NOEXCEPT;
void rpcrdmax_trace_svc_wseg(struct ib_cq *cq, int cid, unsigned int segno, unsigned int handle,
			     unsigned int length, unsigned long long offset) RPCRDMAX_NOEXCEPT;
/* svcrdma_encode_wseg, one per segment of a Reply's Write list and Reply
 * chunk: walk them only when its rpcrdmax_tp_key is on. */
void rpcrdmax_trace_svc_encode_wseg(struct ib_cq *cq, int cid, unsigned int segno,
				    unsigned int handle, unsigned int length,
				    unsigned long long offset) RPCRDMAX_NOEXCEPT;
/* An MR as the stock module's MR tracepoints show it. */
struct rpcrdmax_mr_info {
	int id;			/* its index in the connection's pool */
	int nents;		/* page pieces mapped */
	unsigned int handle;	/* rkey */
	unsigned int length;
	unsigned long long offset; /* iova */
	int dir;		/* RPCRDMAX_DMA_* */
};
enum rpcrdmax_mr_event {
	RPCRDMAX_MR_EV_REG,	 /* xprtrdma_mr_map, then xprtrdma_mr_fastreg */
	RPCRDMAX_MR_EV_REMINV,	 /* xprtrdma_mr_reminv */
	RPCRDMAX_MR_EV_LOCALINV, /* xprtrdma_mr_localinv */
	RPCRDMAX_MR_EV_UNMAP,	 /* xprtrdma_mr_unmap */
};
/* @rqst: the RPC it serves (NULL: not known here). */
void rpcrdmax_trace_mr(enum rpcrdmax_mr_event which, struct rpc_rqst *rqst,
		       const struct rpcrdmax_mr_info *mr) RPCRDMAX_NOEXCEPT;
/* xprtrdma_chunk_read, _write, _reply: one per MR of a Call's chunk, as
 * it goes into the transport header; @pos: the Read chunk's XDR position;
 * @nsegs: page pieces of the chunk from this MR on (the MR's nents when
 * it is the chunk's last).  Fire them only when one of the three
 * events' rpcrdmax_tp_key is on. */
enum rpcrdmax_chunk_event {
	RPCRDMAX_CHUNK_EV_READ,
	RPCRDMAX_CHUNK_EV_WRITE,
	RPCRDMAX_CHUNK_EV_REPLY,
};
void rpcrdmax_trace_chunk(enum rpcrdmax_chunk_event which, struct rpc_rqst *rqst, unsigned int pos,
			  const struct rpcrdmax_mr_info *mr, int nsegs) RPCRDMAX_NOEXCEPT;
/* Which of the stock module's tracepoints a Call header that cannot be
 * served fires: svcrdma_decode_{short,badvers,drop,badproc,parse}_err. */
enum rpcrdmax_decode_err {
	RPCRDMAX_DECODE_ERR_SHORT,	/* fewer than the four fixed words */
	RPCRDMAX_DECODE_ERR_BADVERS,
	RPCRDMAX_DECODE_ERR_DROP,	/* RDMA_DONE, RDMA_ERROR */
	RPCRDMAX_DECODE_ERR_BADPROC,
	RPCRDMAX_DECODE_ERR_PARSE,	/* the chunk lists */
};
void rpcrdmax_trace_svc_decode_err(enum rpcrdmax_decode_err which, struct ib_cq *cq, int cid,
				   const void *hdr, unsigned int len) RPCRDMAX_NOEXCEPT;

/* ---- C++ entry points called from C ----------------------------------- */
/* Module life cycle (lib/module.cpp): called from shim/sunrpc/main.c. */
int rpcrdmax_cxx_init(void) RPCRDMAX_NOEXCEPT;
void rpcrdmax_cxx_exit(void) RPCRDMAX_NOEXCEPT;

/*
 * The client endpoint (xprtrdma/), one per sunrpc transport.  create()
 * returns NULL without memory; connect() and close() sleep.
 */
struct rpcrdmax_clnt *rpcrdmax_clnt_create(struct rpc_xprt *xprt) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_clnt_max_payload(struct rpcrdmax_clnt *ep) RPCRDMAX_NOEXCEPT;
int rpcrdmax_clnt_connect(struct rpcrdmax_clnt *ep, const void *addr,
			  unsigned int addrlen) RPCRDMAX_NOEXCEPT;
unsigned long rpcrdmax_clnt_connect_delay(struct rpcrdmax_clnt *ep) RPCRDMAX_NOEXCEPT;
/*
 * send_request: one message to transmit (a Call, or the Reply to a
 * backward Call: no rq_buffer).  What only sunrpc's inline helpers tell
 * comes in @how; the rest the endpoint reads of the rpc_rqst in place
 * (its XID, length and timeouts: RPCRDMAX_KERNEL_FIELDS) and, when it
 * sent a Call, writes there too: rq_xtime, rq_xmit_bytes_sent, and the
 * major and retransmit timeouts the Reply is waited for with
 * (ClntEp::reply_major, ClntEp::reply_timeout).  @now is jiffies;
 * @xtime is ktime_get() in nanoseconds, read by the shim before the
 * Call is marshalled and posted (a Reply can then never find rq_xtime
 * older than the Send), written to rq_xtime only when the Call was sent.
 * Returns 0 or the errno for sunrpc; -ENOTCONN while connected means
 * the connection is to be reset (xprt_force_disconnect).
 */
enum rpcrdmax_xmit_how {
	RPCRDMAX_XMIT_CONNECTED = 1 << 0,	/* xprt_connected() */
	/* a congestion slot of the current connection was free and is
	 * taken (shim/sunrpc/xprt_cong.c), as sunrpc's send_request takes
	 * one before it transmits; only when connected */
	RPCRDMAX_XMIT_CONG = 1 << 1,
	RPCRDMAX_XMIT_SAME_CONNECTION = 1 << 2,	/* a retransmission on the connection it went on */
	RPCRDMAX_XMIT_REPLY_EXPECTED = 1 << 3,	/* rpc_reply_expected() */
	RPCRDMAX_XMIT_SOFT = 1 << 4,		/* RPC_IS_SOFT() */
};
int rpcrdmax_clnt_transmit(struct rpcrdmax_clnt *ep, struct rpc_rqst *rqst, unsigned int how,
			   unsigned long now, long long xtime) RPCRDMAX_NOEXCEPT;
void rpcrdmax_clnt_close(struct rpcrdmax_clnt *ep) RPCRDMAX_NOEXCEPT;
/* Backward-direction RPC: the largest backward message's RPC part, the
 * slots a transport keeps for backward Calls. */
unsigned int rpcrdmax_clnt_bc_max_payload(struct rpcrdmax_clnt *ep) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_clnt_bc_slots(void) RPCRDMAX_NOEXCEPT;
void rpcrdmax_clnt_destroy(struct rpcrdmax_clnt *ep) RPCRDMAX_NOEXCEPT;
void rpcrdmax_clnt_print_stats(struct rpcrdmax_clnt *ep, struct seq_file *seq) RPCRDMAX_NOEXCEPT;
void rpcrdmax_clnt_print_counters(struct rpcrdmax_clnt *ep, struct seq_file *seq) RPCRDMAX_NOEXCEPT;
/* Per-request buffers (and transport state) for sunrpc's buf_alloc and
 * buf_free: sized from the rpc_rqst's rq_callsize and rq_rcvsize, set
 * in (and cleared from) its rq_buffer and rq_rbuffer in place. */
int rpcrdmax_clnt_buf_alloc(struct rpcrdmax_clnt *ep, struct rpc_rqst *rqst,
			    unsigned int gfp) RPCRDMAX_NOEXCEPT;
void rpcrdmax_clnt_buf_free(struct rpcrdmax_clnt *ep, struct rpc_rqst *rqst) RPCRDMAX_NOEXCEPT;

/*
 * The server transport (svcrdma/).  A listener: create() binds and
 * listens (0 or -errno, *@out set), accept() hands out the next
 * connection's svc_xprt (NULL: none; *@more: others wait).  A connection:
 * recvfrom() makes the next received message the Call in @rqstp (its
 * length; 0: none, or dropped; a negative errno: the connection is lost)
 * with *@ctxt for sendto()/release(); result_payload() marks the
 * Reply's next DDP-eligible result (svc_encode_result_payload: 0, or
 * -E2BIG when the Write chunk meant for it is too small) before sendto().
 * detach() disconnects;
 * destroy() (sleeps) drains and frees either kind.
 */
int rpcrdmax_svcl_create(struct svc_xprt *xprt, const void *addr, unsigned int addrlen,
			 struct rpcrdmax_svcl **out) RPCRDMAX_NOEXCEPT;
struct svc_xprt *rpcrdmax_svcl_accept(struct rpcrdmax_svcl *listener, bool *more) RPCRDMAX_NOEXCEPT;
void rpcrdmax_svcl_destroy(struct rpcrdmax_svcl *listener) RPCRDMAX_NOEXCEPT;
int rpcrdmax_svcc_recvfrom(struct rpcrdmax_svcc *conn, struct svc_rqst *rqstp,
			   struct rpcrdmax_svc_ctxt **ctxt) RPCRDMAX_NOEXCEPT;
int rpcrdmax_svcc_result_payload(struct rpcrdmax_svcc *conn, struct rpcrdmax_svc_ctxt *ctxt,
				 unsigned int offset, unsigned int length) RPCRDMAX_NOEXCEPT;
int rpcrdmax_svcc_sendto(struct rpcrdmax_svcc *conn, struct svc_rqst *rqstp,
			 struct rpcrdmax_svc_ctxt *ctxt) RPCRDMAX_NOEXCEPT;
void rpcrdmax_svcc_release(struct rpcrdmax_svcc *conn,
			   struct rpcrdmax_svc_ctxt *ctxt) RPCRDMAX_NOEXCEPT;
void rpcrdmax_svcc_detach(struct rpcrdmax_svcc *conn) RPCRDMAX_NOEXCEPT;
void rpcrdmax_svcc_destroy(struct rpcrdmax_svcc *conn) RPCRDMAX_NOEXCEPT;
/*
 * A connection's backchannel (svcrdma/backchannel.cpp): the backward
 * Calls it may have outstanding, the largest backward Call's RPC
 * message, and bc_send() of one (0, -ENOTCONN: the connection is gone,
 * -EMSGSIZE: longer than the inline threshold, -ENOBUFS: try later).
 */
unsigned int rpcrdmax_svcc_bc_slots(struct rpcrdmax_svcc *conn) RPCRDMAX_NOEXCEPT;
unsigned int rpcrdmax_svcc_bc_max_payload(struct rpcrdmax_svcc *conn) RPCRDMAX_NOEXCEPT;
int rpcrdmax_svcc_bc_send(struct rpcrdmax_svcc *conn, struct rpc_rqst *rqst, unsigned int xid,
			  unsigned int len) RPCRDMAX_NOEXCEPT;

/*
 * The constants C++ was compiled with, for the KUnit cross-check
 * (lib/consts_table.cpp): entry @i's name and value; false past the end.
 */
bool rpcrdmax_cxx_const(unsigned int i, const char **name, long long *value) RPCRDMAX_NOEXCEPT;

/*
 * Protocol-core self-tests (core/selftest/): the same cases run under
 * GoogleTest on the host and under KUnit (kunit/kunit.c).  Case @i is
 * named "group.case"; it runs with @scratch (8-octet aligned, at least
 * rpcrdmax_core_selftest_scratch_size() octets) and calls @report once
 * per failed check.  run() returns the number of failed checks (a case
 * that checked nothing counts as failed), or -EINVAL for a bad index or
 * scratch buffer.  Nothing here allocates, prints or sleeps.
 */
typedef void (*rpcrdmax_selftest_report_fn)(void *ctx, const char *what,
					    const char *file, int line);
unsigned int rpcrdmax_core_selftest_count(void) RPCRDMAX_NOEXCEPT;
const char *rpcrdmax_core_selftest_name(unsigned int i) RPCRDMAX_NOEXCEPT;
unsigned long rpcrdmax_core_selftest_scratch_size(void) RPCRDMAX_NOEXCEPT;
int rpcrdmax_core_selftest_run(unsigned int i, rpcrdmax_selftest_report_fn report,
			       void *ctx, void *scratch,
			       unsigned long scratch_len) RPCRDMAX_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* RPCRDMAX_SHIM_H */
