/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/svc_rqst.h - an svc_rqst's Reply pages, read and written in place.
 *
 * The server moves rq_respages and rq_next_page for every RPC (recvfrom
 * gives the Reply the pages the Call left) and takes the Reply's pages
 * when they are sent after sendto returns: at the offsets generated from
 * the target kernel's headers (shim/kernel/consts.c), without a call.
 * What else changes an svc_rqst goes through the shims.
 */
#pragma once

#include "kernel.h"
#include "utility.h"
#include "xdr_buf.h"

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

/*
 * How many slots of rq_respages the Reply uses: those below rq_next_page,
 * and those its page list reaches.  nfsd moves rq_next_page after each
 * operation it encodes, but what svc_authorise() appends after the last
 * one (RPCSEC_GSS integrity's checksum) can start a page beyond it.
 */
inline u32 svc_res_slots(const svc_rqst *rqstp)
{
	page **const respages = RPCRDMAX_FIELD(page **, rqstp, SVC_RQST_RESPAGES);
	page **const end = RPCRDMAX_FIELD(page **, rqstp, SVC_RQST_PAGE_END);
	const XdrBufView res = xdr_buf_at(rqstp, RPCRDMAX_OFF_SVC_RQST_RES);
	const u64 n = (u64)(RPCRDMAX_FIELD(page **, rqstp, SVC_RQST_NEXT_PAGE) - respages);
	page *const *pages = res.pages();

	if (!res.page_len() || pages < respages || pages >= end)
		return (u32)n;
	const u64 first = (u64)(pages - respages);
	const u64 reach = ((u64)res.page_base() + res.page_len() + RPCRDMAX_PAGE_SIZE - 1) /
			  RPCRDMAX_PAGE_SIZE;
	return (u32)max(n, min(first + reach, (u64)(end - respages)));
}

/*
 * Move the Reply's pages (its slots, svc_res_slots) into @pages, room for
 * @max: RDMA Writes or mapped SGEs may still read them when nfsd reuses
 * the svc_rqst.  Their slots become NULL, so svc fetches new ones, and the
 * pages are the caller's to put (rpcrdmax_put_pages).  Returns how many
 * moved (a slot already NULL gives none), or -ENOBUFS (nothing moved).
 *
 * To 6.12 svc_alloc_arg() refills every NULL slot and the release of the
 * svc_rqst puts the pages below rq_next_page, NULL or not: rq_next_page
 * goes back to rq_respages (which svc_keep_res_head may have moved past
 * a copied head's page, so that page stays for the thread's next RPC).
 * On 7.x (RPCRDMAX_SPLIT_RESPAGES) svc_alloc_arg() refills only the
 * Reply's slots below rq_next_page (and the release skips NULL ones,
 * putting the rest): rq_next_page marks the slots taken, as the bound of
 * those to refill, and every slot below it is taken.
 */
inline int svc_take_res_pages(svc_rqst *rqstp, page **pages, u32 max)
{
	const u32 n = svc_res_slots(rqstp);
	page **const respages = RPCRDMAX_FIELD(page **, rqstp, SVC_RQST_RESPAGES);
	u32 k = 0;

	if (n > max)
		return -err::ENOBUFS;
	for (u32 i = 0; i < n; i++) {
		page *pg = respages[i];
		respages[i] = nullptr;
		pages[k] = pg;
		k += pg != nullptr;
	}
	RPCRDMAX_FIELD_REF(page **, rqstp, SVC_RQST_NEXT_PAGE) =
		RPCRDMAX_SPLIT_RESPAGES ? respages + n : respages;
	return (int)k;
}

/*
 * Before the pages of a Reply whose head went into the Send buffer are
 * taken or released: to 6.12 rq_respages moves past the head's page, the
 * first slot, so neither svc_take_res_pages nor the release of the
 * svc_rqst reaches it and the thread's next RPC finds it in place, as
 * with the stock server (svc_alloc_arg() refills only empty slots).
 * Only when the page list starts past it, and when a slot is in use at
 * all.  On 7.x (RPCRDMAX_SPLIT_RESPAGES) svc puts and refills every
 * Reply slot below rq_next_page whatever the transport does: nothing to
 * do.
 */
inline void svc_keep_res_head(svc_rqst *rqstp)
{
	if (RPCRDMAX_SPLIT_RESPAGES)
		return;
	page **&respages = RPCRDMAX_FIELD_REF(page **, rqstp, SVC_RQST_RESPAGES);
	const XdrBufView res = xdr_buf_at(rqstp, RPCRDMAX_OFF_SVC_RQST_RES);

	if (RPCRDMAX_FIELD(page **, rqstp, SVC_RQST_NEXT_PAGE) > respages &&
	    (!res.page_len() || res.pages() > respages))
		respages++;
}

} // namespace rpcrdmax::ktl
