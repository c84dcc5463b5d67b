// SPDX-License-Identifier: GPL-2.0
/*
 * shim/main.c - rpcrdmax module entry points.
 *
 * Module init and exit live in C and hand over to C++ (lib/module.cpp).
 * The transports themselves are registered by the client and server
 * code; this file only brings the C++ side up and down.
 */
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/module.h>
#include "rpcrdmax_consts.h"
#include "internal.h"

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

static int rpcrdmax_server_up(void)
{
	int rc = rpcrdmax_svc_sysctl_register();

	if (rc) {
		pr_err(KBUILD_MODNAME ": cannot register /proc/sys/sunrpc/svc_rdma (%d): is rpcrdma loaded?\n",
		       rc);
		return rc;
	}
	rc = rpcrdmax_svc_register();
	if (rc) {
		pr_err(KBUILD_MODNAME ": cannot register the rdma server transport (%d)%s\n",
		       rc, rc == -EEXIST ? ": is rpcrdma loaded?" : "");
		rpcrdmax_svc_sysctl_unregister();
	}
	return rc;
}

static void rpcrdmax_server_down(void)
{
	rpcrdmax_svc_unregister();
	rpcrdmax_svc_sysctl_unregister();
}

static int __init rpcrdmax_init(void)
{
	int rc = rpcrdmax_cxx_init();

	if (rc)
		return rc;
	if (rpcrdmax_server) {
		rc = rpcrdmax_server_up();
		if (rc)
			goto out_cxx;
	}
	if (!rpcrdmax_client)
		return 0;
	rc = rpcrdmax_sysctl_register();
	if (rc) {
		pr_err(KBUILD_MODNAME ": cannot register /proc/sys/sunrpc/rdma_* (%d): is rpcrdma loaded?\n",
		       rc);
		goto out_svc;
	}
	rc = rpcrdmax_xprt_register();
	if (rc) {
		pr_err(KBUILD_MODNAME ": cannot register the rdma client transport (%d)%s\n",
		       rc, rc == -EEXIST ? ": is rpcrdma loaded?" : "");
		goto out_sysctl;
	}
	return 0;

out_sysctl:
	rpcrdmax_sysctl_unregister();
out_svc:
	if (rpcrdmax_server)
		rpcrdmax_server_down();
out_cxx:
	rpcrdmax_cxx_exit();
	return rc;
}

static void __exit rpcrdmax_exit(void)
{
	if (rpcrdmax_client) {
		rpcrdmax_xprt_unregister();
		rpcrdmax_sysctl_unregister();
	}
	if (rpcrdmax_server)
		rpcrdmax_server_down();
	rpcrdmax_cxx_exit();
}

module_init(rpcrdmax_init);
module_exit(rpcrdmax_exit);

MODULE_AUTHOR("The rpcrdmax developers");
MODULE_DESCRIPTION("RPC-over-RDMA transport for sunrpc, in freestanding C++");
MODULE_LICENSE("GPL");
