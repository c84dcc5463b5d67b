// SPDX-License-Identifier: GPL-2.0
/*
 * shim/sysctl.c - the client's tunables, under the stock module's names.
 *
 * /proc/sys/sunrpc/rdma_slot_table_entries, rdma_max_inline_read,
 * rdma_max_inline_write, rdma_inline_write_padding, rdma_memreg_strategy
 * and rdma_pad_optimize keep the stock names and ranges, so existing
 * scripts and tuning guides apply.  The inline sizes are read at connect
 * time; the padding, strategy and pad-optimize knobs are accepted for
 * compatibility (FRWR is the only strategy, as in the stock module).
 */
#include <linux/sunrpc/xprtrdma.h>
#include <linux/sysctl.h>
#include "internal.h"

unsigned int rpcrdmax_slot_table_entries = RPCRDMA_DEF_SLOT_TABLE;
static unsigned int rpcrdmax_max_inline_read = RPCRDMA_DEF_INLINE;
static unsigned int rpcrdmax_max_inline_write = RPCRDMA_DEF_INLINE;
static unsigned int rpcrdmax_memreg_strategy = RPCRDMA_FRWR;
static unsigned int rpcrdmax_padding_dummy;
static int rpcrdmax_pad_optimize;

static unsigned int rpcrdmax_min_slots = RPCRDMA_MIN_SLOT_TABLE;
static unsigned int rpcrdmax_max_slots = RPCRDMA_MAX_SLOT_TABLE;
static unsigned int rpcrdmax_min_inline = RPCRDMA_MIN_INLINE;
static unsigned int rpcrdmax_max_inline = RPCRDMA_MAX_INLINE;
static unsigned int rpcrdmax_max_padding = PAGE_SIZE;
static unsigned int rpcrdmax_min_memreg = RPCRDMA_BOUNCEBUFFERS;
static unsigned int rpcrdmax_max_memreg = RPCRDMA_LAST - 1;

static struct ctl_table rpcrdmax_tunables[] = {
	{
		.procname = "rdma_slot_table_entries",
		.data = &rpcrdmax_slot_table_entries,
		.maxlen = sizeof(unsigned int),
		.mode = 0644,
		.proc_handler = proc_douintvec_minmax,
		.extra1 = &rpcrdmax_min_slots,
		.extra2 = &rpcrdmax_max_slots,
	},
	{
		.procname = "rdma_max_inline_read",
		.data = &rpcrdmax_max_inline_read,
		.maxlen = sizeof(unsigned int),
		.mode = 0644,
		.proc_handler = proc_douintvec_minmax,
		.extra1 = &rpcrdmax_min_inline,
		.extra2 = &rpcrdmax_max_inline,
	},
	{
		.procname = "rdma_max_inline_write",
		.data = &rpcrdmax_max_inline_write,
		.maxlen = sizeof(unsigned int),
		.mode = 0644,
		.proc_handler = proc_douintvec_minmax,
		.extra1 = &rpcrdmax_min_inline,
		.extra2 = &rpcrdmax_max_inline,
	},
	{
		.procname = "rdma_inline_write_padding",
		.data = &rpcrdmax_padding_dummy,
		.maxlen = sizeof(unsigned int),
		.mode = 0644,
		.proc_handler = proc_douintvec_minmax,
		.extra1 = SYSCTL_ZERO,
		.extra2 = &rpcrdmax_max_padding,
	},
	{
		.procname = "rdma_memreg_strategy",
		.data = &rpcrdmax_memreg_strategy,
		.maxlen = sizeof(unsigned int),
		.mode = 0644,
		.proc_handler = proc_douintvec_minmax,
		.extra1 = &rpcrdmax_min_memreg,
		.extra2 = &rpcrdmax_max_memreg,
	},
	{
		.procname = "rdma_pad_optimize",
		.data = &rpcrdmax_pad_optimize,
		.maxlen = sizeof(unsigned int),
		.mode = 0644,
		.proc_handler = proc_dointvec,
	},
	{}
};

static struct ctl_table_header *rpcrdmax_sysctl_header;

/**
 * rpcrdmax_sysctl_register - publish the tunables under /proc/sys/sunrpc
 *
 * Returns 0 or -ENOMEM (also when the stock module's tunables exist).
 */
int rpcrdmax_sysctl_register(void)
{
	rpcrdmax_sysctl_header = register_sysctl("sunrpc", rpcrdmax_tunables);
	return rpcrdmax_sysctl_header ? 0 : -ENOMEM;
}

/** rpcrdmax_sysctl_unregister - withdraw the tunables */
void rpcrdmax_sysctl_unregister(void)
{
	if (rpcrdmax_sysctl_header)
		unregister_sysctl_table(rpcrdmax_sysctl_header);
	rpcrdmax_sysctl_header = NULL;
}

/** rpcrdmax_tunable_inline_read - largest Reply we take inline (our Receive size) */
unsigned int rpcrdmax_tunable_inline_read(void)
{
	return READ_ONCE(rpcrdmax_max_inline_read);
}

/** rpcrdmax_tunable_inline_write - largest Call we send inline (our Send size) */
unsigned int rpcrdmax_tunable_inline_write(void)
{
	return READ_ONCE(rpcrdmax_max_inline_write);
}
