/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/svc_xprt.h - an svc_xprt's XPT_DATA bit, changed in place.
 *
 * The server clears XPT_DATA when it takes a connection's last queued
 * message, once per RPC at queue depth 1: an atomic AND on xpt_flags at
 * the offset generated from the target kernel's headers
 * (shim/kernel/consts.c), without a call.  It is clear_bit(); what else
 * changes an svc_xprt goes through the shims (shim/sunrpc/svc.c).
 */
#pragma once

#include "kernel.h"

namespace rpcrdmax::ktl {

/* @xprt's xpt_flags word. */
inline unsigned long *svc_xprt_flags(svc_xprt *xprt)
{
	return &RPCRDMAX_FIELD_REF(unsigned long, xprt, SVC_XPRT_FLAGS);
}

/* clear_bit(XPT_DATA, &@xprt->xpt_flags). */
inline void svc_xprt_clear_data(svc_xprt *xprt)
{
	__atomic_fetch_and(svc_xprt_flags(xprt), ~(1UL << RPCRDMAX_XPT_DATA), __ATOMIC_RELAXED);
}

} // namespace rpcrdmax::ktl
