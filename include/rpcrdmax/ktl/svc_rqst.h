/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/svc_rqst.h - an svc_rqst's Reply page cursor, written in place.
 *
 * The server moves rq_respages and rq_next_page for every RPC (recvfrom
 * gives the Reply the pages the Call left): at the offsets generated
 * from the target kernel's headers (shim/kernel/consts.c), without a
 * call.  What else changes an svc_rqst goes through the shims.
 */
#pragma once

#include "kernel.h"

namespace rpcrdmax::ktl {

/*
 * The Reply's pages start at rq_pages[@first] (rq_respages), and @used
 * of them are in use already (rq_next_page after them).  Where the
 * Reply's pages are an array of their own (7.x, RPCRDMAX_SPLIT_RESPAGES)
 * @first has no meaning: only rq_next_page moves.
 */
inline void svc_set_respages(svc_rqst *rqstp, u32 first, u32 used)
{
	auto *r = reinterpret_cast<unsigned char *>(rqstp);
	auto **respages = reinterpret_cast<page ***>(r + RPCRDMAX_OFF_SVC_RQST_RESPAGES);
	auto **next = reinterpret_cast<page ***>(r + RPCRDMAX_OFF_SVC_RQST_NEXT_PAGE);

	static_assert(RPCRDMAX_FSIZE_SVC_RQST_RESPAGES == sizeof(void *) &&
		      RPCRDMAX_FSIZE_SVC_RQST_NEXT_PAGE == sizeof(void *));
#if !RPCRDMAX_SPLIT_RESPAGES
	/* rq_pages is the svc_rqst's own array of page pointers */
	static_assert(RPCRDMAX_FSIZE_SVC_RQST_PAGES > sizeof(void *));
	*respages = reinterpret_cast<page **>(r + RPCRDMAX_OFF_SVC_RQST_PAGES) + first;
#else
	(void)first;
#endif
	*next = *respages + used;
}

} // namespace rpcrdmax::ktl
