/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/trace.h - whether a hot tracepoint is on, without a call.
 *
 * The events fired for every Call and Reply (RPCRDMAX_HOT_TRACEPOINTS in
 * rpcrdmax_shim.h) are tested here before their shim function is called:
 * a disabled event then costs one load and one test, and its arguments
 * are never computed.  The count read is the one static_key_enabled()
 * reads; like it, a test races harmlessly with a probe being attached.
 */
#pragma once

#include "kernel.h"

namespace rpcrdmax::ktl {

/// Whether tracepoint @t has a probe attached.
inline bool tp_on(rpcrdmax_tp t)
{
	return __atomic_load_n(rpcrdmax_tp_key[t], __ATOMIC_RELAXED) > 0;
}

/// Whether any of tracepoints @ts has a probe attached.
template <typename... T> inline bool tp_any(T... ts)
{
	return (tp_on(ts) || ...);
}

} // namespace rpcrdmax::ktl
