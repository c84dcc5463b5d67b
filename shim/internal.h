/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim/internal.h - C-only definitions shared by the shims and the
 * constants generator.  C++ sees these objects as opaque storage.
 */
#ifndef RPCRDMAX_SHIM_INTERNAL_H
#define RPCRDMAX_SHIM_INTERNAL_H

#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include "rpcrdmax_shim.h"

/* A work item with a C++-facing callback that receives the item itself. */
struct rpcrdmax_work {
	struct work_struct work;
	rpcrdmax_work_fn fn;
};

/* /proc/sys/sunrpc/rdma_slot_table_entries (shim/sysctl.c) */
extern unsigned int rpcrdmax_slot_table_entries;

/* A completion handler: ib_core calls cqe.done, which calls fn. */
struct rpcrdmax_cqe {
	struct ib_cqe cqe;
	rpcrdmax_wc_fn fn;
};

/* What an rdma_cm_id's context points at. */
struct rpcrdmax_cm_handler {
	rpcrdmax_cm_fn fn;
};

/* Any work request C++ can post (shim/verbs.c builds them). */
union rpcrdmax_any_wr {
	struct ib_send_wr send;
	struct ib_rdma_wr rdma;
	struct ib_reg_wr reg;
};
int rpcrdmax_ib_build_wr(const struct rpcrdmax_send_wr *in, union rpcrdmax_any_wr *out,
			 struct ib_sge *sge);

#endif
