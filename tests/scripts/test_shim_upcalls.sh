#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of shim_upcalls (scripts/lib/common.sh): the C shim functions
# that call C++ through a function pointer, whose calls the cost meter's
# crossing count takes as crossings (scripts/bench --cost --perf).  On a
# made-up shim it names exactly the functions whose body calls ->fn(;
# on the real shims, the completion, work and CM dispatchers.
. "$(dirname "$0")/harness.sh"
. "$(dirname "$0")/../../scripts/lib/common.sh"

cat >"$tmp/a.c" <<'C'
static void rpcrdmax_x_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcrdmax_cqe *c = container_of(wc->wr_cqe, struct rpcrdmax_cqe, cqe);

	c->fn(c, &w);
}

/** rpcrdmax_x_plain - calls nothing through a pointer */
int rpcrdmax_x_plain(void *p)
{
	return rpcrdmax_x_other(p);
}

void *rpcrdmax_x_ptr(void *w)
{
	return ((struct rpcrdmax_work *)w)->fn(w);
}
C
got=$(shim_upcalls "$tmp/a.c" | tr '\n' ' ')
[ "$got" = "rpcrdmax_x_done rpcrdmax_x_ptr " ]
check "made-up shim: $got" $?

got=$(shim_upcalls | tr '\n' ' ')
[ "$got" = "rpcrdmax_cm_upcall rpcrdmax_ib_done rpcrdmax_work_trampoline " ]
check "the shims: $got" $?

finish
