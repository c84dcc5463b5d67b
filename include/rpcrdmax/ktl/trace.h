/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktl/trace.h - whether a tracepoint is on, without a call.
 *
 * Every event the C++ fires (RPCRDMAX_HOT_TRACEPOINTS and
 * RPCRDMAX_COLD_TRACEPOINTS in rpcrdmax_shim.h) is tested here before its
 * shim function is called: a disabled event then costs a load and a
 * test, and its arguments are never computed.  For the hot events, fired
 * for every Call and Reply, the load while no hot event has a probe
 * (nearly always) is of rpcrdmax_tp_hot_probed, the same word for every
 * event; then the event's own count, the one static_key_enabled() reads.
 * A cold event (set-up, teardown, errors) reads its count alone.  Like
 * static_key_enabled(), a test races harmlessly with a probe being
 * attached.
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

/// Whether tracepoint @t has a probe attached (@t is a constant at every
/// call site: the test of its kind folds away).
inline bool tp_on(rpcrdmax_tp t)
{
	if (t < RPCRDMAX_TP_HOT_COUNT)
		return tp_hot_any() && tp_key_on(t);
	return __builtin_expect(tp_key_on(t), 0);
}

/// Whether any of tracepoints @ts has a probe attached: hot ones behind
/// the one word, cold ones each by its count.
template <typename... T> inline bool tp_any(T... ts)
{
	if (((ts < RPCRDMAX_TP_HOT_COUNT) && ...))
		return tp_hot_any() && (tp_key_on(ts) || ...);
	return (tp_on(ts) || ...);
}

} // namespace rpcrdmax::ktl
