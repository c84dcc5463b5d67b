// SPDX-License-Identifier: GPL-2.0
/*
 * lib/consts_table.cpp - the generated constants as C++ was compiled with
 * them, so KUnit can compare them with what the running kernel says.
 */
#include "rpcrdmax/ktl/kernel.h"

namespace rpcrdmax::lib {

struct ConstEntry {
	const char *name;
	long long value;
};

#define RPCRDMAX_CONST(n) { #n, (long long)(n) }
constexpr ConstEntry cxx_consts[] = {
	RPCRDMAX_CONST(RPCRDMAX_SIZEOF_SPINLOCK),
	RPCRDMAX_CONST(RPCRDMAX_ALIGNOF_SPINLOCK),
	RPCRDMAX_CONST(RPCRDMAX_SIZEOF_MUTEX),
	RPCRDMAX_CONST(RPCRDMAX_ALIGNOF_MUTEX),
	RPCRDMAX_CONST(RPCRDMAX_SIZEOF_REFCOUNT),
	RPCRDMAX_CONST(RPCRDMAX_ALIGNOF_REFCOUNT),
	RPCRDMAX_CONST(RPCRDMAX_SIZEOF_ATOMIC),
	RPCRDMAX_CONST(RPCRDMAX_ALIGNOF_ATOMIC),
	RPCRDMAX_CONST(RPCRDMAX_SIZEOF_COMPLETION),
	RPCRDMAX_CONST(RPCRDMAX_ALIGNOF_COMPLETION),
	RPCRDMAX_CONST(RPCRDMAX_SIZEOF_WORK),
	RPCRDMAX_CONST(RPCRDMAX_ALIGNOF_WORK),
	RPCRDMAX_CONST(RPCRDMAX_SIZEOF_CQE),
	RPCRDMAX_CONST(RPCRDMAX_ALIGNOF_CQE),
	RPCRDMAX_CONST(RPCRDMAX_SIZEOF_CM_HANDLER),
	RPCRDMAX_CONST(RPCRDMAX_ALIGNOF_CM_HANDLER),
	RPCRDMAX_CONST(RPCRDMAX_SIZEOF_SCATTERLIST),
	RPCRDMAX_CONST(RPCRDMAX_SIZEOF_SOCKADDR_STORAGE),
	RPCRDMAX_CONST(RPCRDMAX_DMA_BIDIRECTIONAL),
	RPCRDMAX_CONST(RPCRDMAX_DMA_TO_DEVICE),
	RPCRDMAX_CONST(RPCRDMAX_DMA_FROM_DEVICE),
	RPCRDMAX_CONST(RPCRDMAX_IB_WC_SUCCESS),
	RPCRDMAX_CONST(RPCRDMAX_IB_WC_WR_FLUSH_ERR),
	RPCRDMAX_CONST(RPCRDMAX_IB_WC_OP_SEND),
	RPCRDMAX_CONST(RPCRDMAX_IB_WC_OP_RDMA_WRITE),
	RPCRDMAX_CONST(RPCRDMAX_IB_WC_OP_RDMA_READ),
	RPCRDMAX_CONST(RPCRDMAX_IB_WC_OP_LOCAL_INV),
	RPCRDMAX_CONST(RPCRDMAX_IB_WC_OP_REG_MR),
	RPCRDMAX_CONST(RPCRDMAX_IB_WC_OP_RECV),
	RPCRDMAX_CONST(RPCRDMAX_GFP_KERNEL),
	RPCRDMAX_CONST(RPCRDMAX_GFP_NOFS),
	RPCRDMAX_CONST(RPCRDMAX_GFP_NOIO),
	RPCRDMAX_CONST(RPCRDMAX_GFP_ATOMIC),
	RPCRDMAX_CONST(RPCRDMAX_GFP_NOWAIT),
	RPCRDMAX_CONST(RPCRDMAX_GFP_ZERO),
	RPCRDMAX_CONST(RPCRDMAX_GFP_NOWARN),
	RPCRDMAX_CONST(RPCRDMAX_PAGE_SIZE),
	RPCRDMAX_CONST(RPCRDMAX_PAGE_SHIFT),
	/* ktl's own errno numbers, which kernel.h also checks at build time. */
	{ "EINVAL", ktl::err::EINVAL },
	{ "ENOMEM", ktl::err::ENOMEM },
	{ "ENOTCONN", ktl::err::ENOTCONN },
	{ "ECONNREFUSED", ktl::err::ECONNREFUSED },
	{ "ETIMEDOUT", ktl::err::ETIMEDOUT },
	{ "EPROTO", ktl::err::EPROTO },
};
#undef RPCRDMAX_CONST

} // namespace rpcrdmax::lib

/**
 * rpcrdmax_cxx_const - one of the constants C++ was compiled with
 * @i: index from 0
 * @name: set to the constant's name
 * @value: set to its value
 *
 * Returns false when @i is past the last entry.
 */
extern "C" bool rpcrdmax_cxx_const(unsigned int i, const char **name, long long *value) noexcept
{
	if (i >= rpcrdmax::ktl::array_size(rpcrdmax::lib::cxx_consts))
		return false;
	*name = rpcrdmax::lib::cxx_consts[i].name;
	*value = rpcrdmax::lib::cxx_consts[i].value;
	return true;
}
