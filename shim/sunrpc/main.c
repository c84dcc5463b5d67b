// SPDX-License-Identifier: GPL-2.0
/*
 * shim/sunrpc/main.c - rpcrdmax module entry points.
 *
 * Module init and exit live in C and hand over to C++ (lib/module.cpp).
 * The transports and their tunables are registered by the client and
 * server code; this file brings the C++ side up, then each part the
 * module parameters enable (rpcrdmax_parts), and takes them down in
 * reverse.
 */
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include "rpcrdmax_consts.h"
#include "../internal.h"

/* The errno values C++ was given must be the kernel's. */
static_assert(RPCRDMAX_EINVAL == EINVAL && RPCRDMAX_ENOMEM == ENOMEM);
static_assert(RPCRDMAX_ENOTCONN == ENOTCONN && RPCRDMAX_ETIMEDOUT == ETIMEDOUT);
static_assert(RPCRDMAX_ECONNREFUSED == ECONNREFUSED && RPCRDMAX_EPROTO == EPROTO);
static_assert(RPCRDMAX_EBADMSG == EBADMSG && RPCRDMAX_MAX_ERRNO == MAX_ERRNO);

/*
 * The client transport ("rdma"/"rdma6" for sunrpc, with the stock
 * tunables) is registered unless client=0 is given; the server transport
 * (svc_xprt class "rdma" for nfsd, with /proc/sys/sunrpc/svc_rdma) unless
 * server=0 is given.
 */
static bool rpcrdmax_client = true;
module_param_named(client, rpcrdmax_client, bool, 0444);
MODULE_PARM_DESC(client, "register the NFS/RDMA client transport (default: yes)");
static bool rpcrdmax_server = true;
module_param_named(server, rpcrdmax_server, bool, 0444);
MODULE_PARM_DESC(server, "register the NFS/RDMA server transport (default: yes)");

/* A transport and its tunables, brought up and down together. */
struct rpcrdmax_part {
	const char *role;		/* "server", "client" */
	const char *sysctls;		/* where its tunables appear */
	const bool *enabled;
	int (*sysctl_up)(void);
	void (*sysctl_down)(void);
	int (*up)(void);
	void (*down)(void);
};

/* In the order they come up (and go down in reverse). */
static const struct rpcrdmax_part rpcrdmax_parts[] = {
	{ "server", "/proc/sys/sunrpc/svc_rdma", &rpcrdmax_server, rpcrdmax_svc_sysctl_register,
	  rpcrdmax_svc_sysctl_unregister, rpcrdmax_svc_register, rpcrdmax_svc_unregister },
	{ "client", "/proc/sys/sunrpc/rdma_*", &rpcrdmax_client, rpcrdmax_sysctl_register,
	  rpcrdmax_sysctl_unregister, rpcrdmax_xprt_register, rpcrdmax_xprt_unregister },
};

/*
 * The transport first: with the stock module loaded it fails cleanly
 * with -EEXIST, where a duplicate sysctl directory would log a trace.
 */
static int rpcrdmax_part_up(const struct rpcrdmax_part *p)
{
	int rc = p->up();

	if (rc) {
		pr_err(KBUILD_MODNAME ": cannot register the rdma %s transport (%d)%s\n",
		       p->role, rc, rc == -EEXIST ? ": is rpcrdma loaded?" : "");
		/* modprobe takes -EEXIST from init for "already loaded". */
		return rc == -EEXIST ? -EBUSY : rc;
	}
	rc = p->sysctl_up();
	if (rc) {
		pr_err(KBUILD_MODNAME ": cannot register %s (%d)\n", p->sysctls, rc);
		p->down();
	}
	return rc;
}

/* Take down the enabled parts before index @n, last first. */
/*
 * Each part's transport before its sysctls: taking the transport down
 * waits for its connections' queued frees, which still count into the
 * counters the sysctls' removal frees.
 */
static void rpcrdmax_parts_down(int n)
{
	while (n-- > 0) {
		const struct rpcrdmax_part *p = &rpcrdmax_parts[n];

		if (*p->enabled) {
			p->down();
			p->sysctl_down();
		}
	}
}

static int __init rpcrdmax_init(void)
{
	int i, rc = rpcrdmax_trace_check();

	if (rc)
		return rc;
	rc = rpcrdmax_cxx_init();
	if (rc)
		return rc;
	for (i = 0; i < ARRAY_SIZE(rpcrdmax_parts); i++) {
		if (!*rpcrdmax_parts[i].enabled)
			continue;
		rc = rpcrdmax_part_up(&rpcrdmax_parts[i]);
		if (rc) {
			rpcrdmax_parts_down(i);
			rpcrdmax_cxx_exit();
			return rc;
		}
	}
	return 0;
}

static void __exit rpcrdmax_exit(void)
{
	rpcrdmax_parts_down(ARRAY_SIZE(rpcrdmax_parts));
	rpcrdmax_cxx_exit();
}

module_init(rpcrdmax_init);
module_exit(rpcrdmax_exit);

MODULE_AUTHOR("The rpcrdmax developers");
MODULE_DESCRIPTION("RPC-over-RDMA transport for sunrpc, in freestanding C++");
MODULE_LICENSE("GPL");
