// SPDX-License-Identifier: GPL-2.0
/*
 * shim/kernel/consts.c - generate rpcrdmax_consts.h for the C++ side.
 *
 * Compiled to assembly only, never linked (the asm-offsets technique):
 * each DEFINE() leaves a "->NAME value" marker that Kbuild's offsets
 * filter turns into a #define.  C++ sizes opaque kernel objects, picks
 * GFP flags and errno values, and reads the kernel fields of its hot
 * paths (FIELD: RPCRDMAX_OFF_NAME and RPCRDMAX_FSIZE_NAME, read with
 * RPCRDMAX_FIELD in rpcrdmax/ktl/kernel.h) from the result; the KUnit
 * module re-checks the numbers against the kernel's (kunit/kunit.c).
 */
#include <linux/completion.h>
#include <linux/errno.h>
#include <linux/gfp.h>
#include <linux/kbuild.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/dma-direction.h>
#include <linux/scatterlist.h>
#include <linux/socket.h>
#include <linux/wait.h>
#include <linux/sunrpc/auth.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprt.h>
#include <rdma/rdma_cm.h>
#include <rdma/rw.h>
#include "../internal.h"

#define SIZE_ALIGN(name, type)                                   \
	do {                                                     \
		DEFINE(RPCRDMAX_SIZEOF_##name, sizeof(type));    \
		DEFINE(RPCRDMAX_ALIGNOF_##name, __alignof__(type)); \
	} while (0)
/* A field C++ reads in place: where it is and how wide. */
#define FIELD(name, type, member)                                        \
	do {                                                             \
		DEFINE(RPCRDMAX_OFF_##name, offsetof(type, member));     \
		DEFINE(RPCRDMAX_FSIZE_##name, sizeof_field(type, member)); \
	} while (0)

int rpcrdmax_consts_main(void);
int rpcrdmax_consts_main(void)
{
	SIZE_ALIGN(SPINLOCK, spinlock_t);
	SIZE_ALIGN(MUTEX, struct mutex);
	SIZE_ALIGN(REFCOUNT, refcount_t);
	SIZE_ALIGN(COMPLETION, struct completion);
	SIZE_ALIGN(WORK, struct rpcrdmax_work);
	SIZE_ALIGN(CQE, struct rpcrdmax_cqe);
	SIZE_ALIGN(CM_HANDLER, struct rpcrdmax_cm_handler);
	SIZE_ALIGN(SCATTERLIST, struct scatterlist);
	SIZE_ALIGN(SOCKADDR_STORAGE, struct sockaddr_storage);
	SIZE_ALIGN(WAITQ, wait_queue_head_t);
	SIZE_ALIGN(RW_CTX, struct rdma_rw_ctx);
	SIZE_ALIGN(IB_WR, union rpcrdmax_any_wr);
	SIZE_ALIGN(IB_RECV_WR, struct ib_recv_wr);
	SIZE_ALIGN(SVC_XPRT, struct svc_xprt);
	SIZE_ALIGN(IB_SGE, struct ib_sge);
	BLANK();
#define RPCRDMAX_FIELD_DEFINE(name, type, member) FIELD(name, type, member);
	RPCRDMAX_KERNEL_FIELDS(RPCRDMAX_FIELD_DEFINE)
	BLANK();
	/* ib_uses_virt_dma(): DMA syncs are no-ops on such a device */
	DEFINE(RPCRDMAX_IB_VIRT_DMA, IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA));
	BLANK();
	DEFINE(RPCRDMAX_SPLIT_RESPAGES, RPCRDMAX_HAVE_SPLIT_RESPAGES);
	DEFINE(RPCRDMAX_XPT_DATA, XPT_DATA);
	DEFINE(RPCRDMAX_XDRBUF_READ, XDRBUF_READ);
	DEFINE(RPCRDMAX_XDRBUF_WRITE, XDRBUF_WRITE);
	DEFINE(RPCRDMAX_XDRBUF_SPARSE_PAGES, XDRBUF_SPARSE_PAGES);
	DEFINE(RPCRDMAX_RPCAUTH_AUTH_DATATOUCH, RPCAUTH_AUTH_DATATOUCH);
	BLANK();
	/* C++ may call _raw_spin_lock_bh() itself (shim/compat.h) */
	DEFINE(RPCRDMAX_SPIN_BH_DIRECT, RPCRDMAX_SPIN_BH_DIRECT_OK);
	BLANK();
	DEFINE(RPCRDMAX_DMA_BIDIRECTIONAL, DMA_BIDIRECTIONAL);
	DEFINE(RPCRDMAX_DMA_TO_DEVICE, DMA_TO_DEVICE);
	DEFINE(RPCRDMAX_DMA_FROM_DEVICE, DMA_FROM_DEVICE);
	BLANK();
	DEFINE(RPCRDMAX_IB_WC_SUCCESS, IB_WC_SUCCESS);
	DEFINE(RPCRDMAX_IB_WC_WR_FLUSH_ERR, IB_WC_WR_FLUSH_ERR);
	DEFINE(RPCRDMAX_IB_WC_WITH_INVALIDATE, IB_WC_WITH_INVALIDATE);
	DEFINE(RPCRDMAX_IB_WC_OP_SEND, IB_WC_SEND);
	DEFINE(RPCRDMAX_IB_WC_OP_RDMA_WRITE, IB_WC_RDMA_WRITE);
	DEFINE(RPCRDMAX_IB_WC_OP_RDMA_READ, IB_WC_RDMA_READ);
	DEFINE(RPCRDMAX_IB_WC_OP_LOCAL_INV, IB_WC_LOCAL_INV);
	DEFINE(RPCRDMAX_IB_WC_OP_REG_MR, IB_WC_REG_MR);
	DEFINE(RPCRDMAX_IB_WC_OP_RECV, IB_WC_RECV);
	BLANK();
	DEFINE(RPCRDMAX_IB_WR_SEND, IB_WR_SEND);
	DEFINE(RPCRDMAX_IB_WR_SEND_WITH_INV, IB_WR_SEND_WITH_INV);
	DEFINE(RPCRDMAX_IB_WR_RDMA_WRITE, IB_WR_RDMA_WRITE);
	DEFINE(RPCRDMAX_IB_WR_RDMA_READ, IB_WR_RDMA_READ);
	DEFINE(RPCRDMAX_IB_WR_LOCAL_INV, IB_WR_LOCAL_INV);
	DEFINE(RPCRDMAX_IB_WR_REG_MR, IB_WR_REG_MR);
	DEFINE(RPCRDMAX_IB_SEND_SIGNALED, IB_SEND_SIGNALED);
	DEFINE(RPCRDMAX_IB_ACCESS_LOCAL_WRITE, IB_ACCESS_LOCAL_WRITE);
	DEFINE(RPCRDMAX_IB_ACCESS_REMOTE_WRITE, IB_ACCESS_REMOTE_WRITE);
	DEFINE(RPCRDMAX_IB_ACCESS_REMOTE_READ, IB_ACCESS_REMOTE_READ);
	BLANK();
	DEFINE(RPCRDMAX_GFP_KERNEL, (__force unsigned int)GFP_KERNEL);
	DEFINE(RPCRDMAX_GFP_NOFS, (__force unsigned int)GFP_NOFS);
	DEFINE(RPCRDMAX_GFP_NOIO, (__force unsigned int)GFP_NOIO);
	DEFINE(RPCRDMAX_GFP_ATOMIC, (__force unsigned int)GFP_ATOMIC);
	DEFINE(RPCRDMAX_GFP_NOWAIT, (__force unsigned int)GFP_NOWAIT);
	DEFINE(RPCRDMAX_GFP_ZERO, (__force unsigned int)__GFP_ZERO);
	DEFINE(RPCRDMAX_GFP_NOWARN, (__force unsigned int)__GFP_NOWARN);
	DEFINE(RPCRDMAX_GFP_RETRY_MAYFAIL, (__force unsigned int)__GFP_RETRY_MAYFAIL);
	BLANK();
	DEFINE(RPCRDMAX_PAGE_SIZE, PAGE_SIZE);
	DEFINE(RPCRDMAX_PAGE_SHIFT, PAGE_SHIFT);
	BLANK();
	DEFINE(RPCRDMAX_EPERM, EPERM);
	DEFINE(RPCRDMAX_ENOENT, ENOENT);
	DEFINE(RPCRDMAX_EINTR, EINTR);
	DEFINE(RPCRDMAX_EIO, EIO);
	DEFINE(RPCRDMAX_E2BIG, E2BIG);
	DEFINE(RPCRDMAX_EAGAIN, EAGAIN);
	DEFINE(RPCRDMAX_ESRCH, ESRCH);
	DEFINE(RPCRDMAX_ENOMEM, ENOMEM);
	DEFINE(RPCRDMAX_EFAULT, EFAULT);
	DEFINE(RPCRDMAX_EBUSY, EBUSY);
	DEFINE(RPCRDMAX_EEXIST, EEXIST);
	DEFINE(RPCRDMAX_ENODEV, ENODEV);
	DEFINE(RPCRDMAX_EINVAL, EINVAL);
	DEFINE(RPCRDMAX_ENOSPC, ENOSPC);
	DEFINE(RPCRDMAX_ERANGE, ERANGE);
	DEFINE(RPCRDMAX_ENOSYS, ENOSYS);
	DEFINE(RPCRDMAX_EBADSLT, EBADSLT);
	DEFINE(RPCRDMAX_ENOBUFS, ENOBUFS);
	DEFINE(RPCRDMAX_EMSGSIZE, EMSGSIZE);
	DEFINE(RPCRDMAX_EPROTONOSUPPORT, EPROTONOSUPPORT);
	DEFINE(RPCRDMAX_EOPNOTSUPP, EOPNOTSUPP);
	DEFINE(RPCRDMAX_EADDRINUSE, EADDRINUSE);
	DEFINE(RPCRDMAX_ENETDOWN, ENETDOWN);
	DEFINE(RPCRDMAX_ENETUNREACH, ENETUNREACH);
	DEFINE(RPCRDMAX_ECONNABORTED, ECONNABORTED);
	DEFINE(RPCRDMAX_ECONNRESET, ECONNRESET);
	DEFINE(RPCRDMAX_ENOTCONN, ENOTCONN);
	DEFINE(RPCRDMAX_ETIMEDOUT, ETIMEDOUT);
	DEFINE(RPCRDMAX_ECONNREFUSED, ECONNREFUSED);
	DEFINE(RPCRDMAX_EHOSTUNREACH, EHOSTUNREACH);
	DEFINE(RPCRDMAX_EALREADY, EALREADY);
	DEFINE(RPCRDMAX_EPROTO, EPROTO);
	DEFINE(RPCRDMAX_EBADMSG, EBADMSG);
	DEFINE(RPCRDMAX_MAX_ERRNO, MAX_ERRNO);
	return 0;
}
