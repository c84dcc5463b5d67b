#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Tracing observes, never selects: a tracepoint's state (tp_on, tp_any in
# include/rpcrdmax/ktl/trace.h) may only decide whether an event fires.
# Every test of it in the C++ is one of
#   if (tp_on(...))  /  if ([!]IDENT && tp_on(...))  the body then traces;
#   return tp_on(...);                            a helper saying whether
#                                                 an event is on;
#   if (!tp_on(...))  followed by  return;        a tracing helper that
#                                                 has nothing to do.
# A test inside a larger condition (if (!tp_on(X) && plan(...))) chooses
# what runs and fails this check.  KUnit's svcsrv_trace_observes shows
# that the server posts the same work with every event on.
. "$(dirname "$0")/harness.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# trace_selects FILE...: print FILE:LINE: TEXT for each test of a
# tracepoint's state that is not one of the forms above.
trace_selects() {
	awk '
	function flush() { if (pend != "") print pend; pend = "" }
	{
		line = $0
		sub(/^[ \t]+/, "", line)
		if (pend != "") {
			if (line == "return;")
				pend = ""
			else
				flush()
		}
		if (line !~ /tp_(on|any)\(/)
			next
		if (line ~ /^(inline )?bool tp_(on|any|key_on|hot_any)/ || line ~ /^template/)
			next
		if (line ~ /^if \((!?[A-Za-z_][A-Za-z_0-9]* && )?tp_(on|any)\(/ &&
		    line !~ /\) (&&|\|\|)/)
			next
		if (line ~ /^return tp_(on|any)\([^()]*\);$/)
			next
		if (line ~ /^if \(!tp_(on|any)\([^()]*\)\)$/) {
			pend = FILENAME ":" FNR ": " line
			next
		}
		print FILENAME ":" FNR ": " line
	}
	ENDFILE { flush() }
	' "$@"
}

cat >"$tmp/a.cpp" <<'CPP'
int SvcConn::reply(svc_rqst *rqstp, CallCtx *cc)
{
	if (tp_on(RPCRDMAX_TP_SVCRDMA_POST_SEND))
		rpcrdmax_trace_svc_post_send(a, b, c, d);
	if (!rc && tp_on(RPCRDMAX_TP_SVCRDMA_ENCODE_WSEG))
		trace_reply_segments(sc, cc->call, p);
	if (!tp_on(RPCRDMAX_TP_SVCRDMA_ENCODE_WSEG) &&
	    core::plan_one_write_reply(cc->call, &written))
		return reply_one_write(rqstp, cc);
	if (!tp_on(RPCRDMAX_TP_XPRTRDMA_DECODE_SEG))
		return;
	if (!tp_on(RPCRDMAX_TP_XPRTRDMA_DECODE_SEG))
		send_more();
	return tp_on(RPCRDMAX_TP_XPRTRDMA_MR_UNMAP);
	bool fast = !tp_any(RPCRDMAX_TP_A, RPCRDMAX_TP_B);
}
CPP
got=$(trace_selects "$tmp/a.cpp" | sed 's/^[^:]*://' | cut -d: -f1 | tr '\n' ' ')
[ "$got" = "7 12 15 " ]
check "made-up transport: selecting lines $got" $?

mapfile -t srcs < <(find "$ROOT/core" "$ROOT/lib" "$ROOT/xprtrdma" "$ROOT/svcrdma" \
	"$ROOT/include/rpcrdmax" -name '*.cpp' -o -name '*.h' | sort)
got=$(trace_selects "${srcs[@]}")
[ -z "$got" ]
check "the transports: ${got:-no tracepoint test selects what runs}" $?

finish
