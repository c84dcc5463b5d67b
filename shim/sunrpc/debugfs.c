// SPDX-License-Identifier: GPL-2.0
/*
 * shim/sunrpc/debugfs.c - every counter of a client transport, for an admin.
 *
 * mountstats keeps the stock "xprt: rdma" line byte for byte, so the
 * counters stock does not have (backward Calls and Replies, drops, Send
 * errors) would be nowhere.  Each transport gets a file beside sunrpc's
 * own "info" in its debugfs directory:
 *
 *   /sys/kernel/debug/sunrpc/rpc_xprt/<id>/rpcrdmax
 *
 * one "name value" line per counter (C++ prints them).  sunrpc makes the
 * directory after ->setup returns and removes it, files and all, before
 * ->destroy, so the file is added on the first connection; debugfs
 * waits for a reader to finish before the removal returns.  Without
 * CONFIG_SUNRPC_DEBUG (which makes the directory) there is no file.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/sunrpc/xprt.h>
#include "../internal.h"

#if IS_ENABLED(CONFIG_SUNRPC_DEBUG)
static int rpcrdmax_xprt_counters_show(struct seq_file *seq, void *v)
{
	rpcrdmax_clnt_print_counters(rpcrdmax_xprt_ep(seq->private), seq);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rpcrdmax_xprt_counters);
#endif

/**
 * rpcrdmax_xprt_debugfs_add - give a transport its counters file
 * @xprt: the transport, connected at least once
 *
 * Returns true once the file exists (or never can): call it until then.
 */
bool rpcrdmax_xprt_debugfs_add(struct rpc_xprt *xprt)
{
#if IS_ENABLED(CONFIG_SUNRPC_DEBUG)
	if (IS_ERR_OR_NULL(xprt->debugfs))
		return false;
	debugfs_create_file("rpcrdmax", 0400, xprt->debugfs, xprt, &rpcrdmax_xprt_counters_fops);
#endif
	return true;
}
