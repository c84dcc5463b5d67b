/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/trace.h - whether a hot tracepoint is on, without a call.
 *
 * The events fired for every Call and Reply (RPCRDMAX_HOT_TRACEPOINTS in
 * rpcrdmax_shim.h) are tested here before their shim function is called:
 * a disabled event then costs one load and one test, and its arguments
 * are never computed: while no hot event has a probe (nearly always), the
 * load is of rpcrdmax_tp_hot_probed, the same word for every event; then
 * the event's own count, the one static_key_enabled() reads.  Like it, a
 * test races harmlessly with a probe being attached.
 */
#pragma once

#include "kernel.h"

namespace rpcrdmax::ktl {

/// Whether any hot tracepoint has a probe attached: the one word a
/// test reads while none has.
inline bool tp_hot_any()
{
	return __builtin_expect(__atomic_load_n(&rpcrdmax_tp_hot_probed, __ATOMIC_RELAXED) > 0, 0);
}

/// Whether tracepoint @t's key is on.
inline bool tp_key_on(rpcrdmax_tp t)
{
	return __atomic_load_n(rpcrdmax_tp_key[t], __ATOMIC_RELAXED) > 0;
}

/// Whether tracepoint @t has a probe attached.
inline bool tp_on(rpcrdmax_tp t)
{
	return tp_hot_any() && tp_key_on(t);
}

/// Whether any of tracepoints @ts has a probe attached.
template <typename... T> inline bool tp_any(T... ts)
{
	return tp_hot_any() && (tp_key_on(ts) || ...);
}

} // namespace rpcrdmax::ktl
