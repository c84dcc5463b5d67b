#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the guests' counting windows and credits check
# (scripts/guest/lib.sh): a server's window_watch records its counts when
# the client's window begins and ends, each acknowledged; settled adds up
# a server's Calls and their endings; credits_trace_check finds a Call
# sent beyond its connection's grant in a client trace, one on a new
# connection until the first Reply.
# Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
. "$(dirname "$0")/harness.sh"
SHARE=$tmp/share WINDOWS=$tmp/win
mkdir -p "$SHARE" "$WINDOWS"

# ---- windows ----
# The server's counts, as its counters move.
counts() { cat "$tmp/state"; }
echo "10 5 5" >"$tmp/state"
window_begin faults
check "window_begin: nothing to wait for without a watching server" $?
window_watch faults counts
watcher=$!
[ -e "$SHARE/faults.watch" ]
check "window_watch: the server says it watches" $?
echo "14 5 7" >"$tmp/state"
window_begin faults
[ -e "$SHARE/faults.begin.ack" ] && [ "$(cat "$WINDOWS/faults.begin")" = "14 5 7" ]
check "window_begin: acknowledged after the server's counts were taken" $?
echo "30 5 15" >"$tmp/state"
window_end faults
[ -e "$SHARE/faults.end.ack" ] && [ "$(cat "$WINDOWS/faults.end")" = "30 5 15" ]
check "window_end: acknowledged after the server's counts were taken" $?
wait $watcher

# ---- settled ----
SVC_RDMA=$tmp/svc
mkdir -p "$SVC_RDMA"
# stat NAME=VALUE...: the server's rdma_stat_* counters (the rest 0)
stat() {
	local f kv
	for f in recv bc_replies bc_dropped connprop_recv sq_prod bc_calls connprop_sent dropped lost svc_drop unsettled; do
		echo 0 >"$SVC_RDMA/rdma_stat_$f"
	done
	for kv in "$@"; do echo "${kv#*=}" >"$SVC_RDMA/rdma_stat_${kv%%=*}"; done
}
# 20 messages: 2 backward Replies, 1 CONNPROP, 1 bad one; 16 Calls: 12
# Replies (of 15 Sends: 2 backward Calls, 1 CONNPROP), 1 dropped, 2 lost,
# 1 released by nfsd
stat recv=20 bc_replies=2 bc_dropped=1 connprop_recv=1 sq_prod=15 bc_calls=2 connprop_sent=1 dropped=1 lost=2 svc_drop=1
[ "$(settled 0)" = "16 12 1 2 1 0" ]
check "settled: Calls add up to their endings" $?
stat recv=20 bc_replies=2 bc_dropped=1 connprop_recv=1 sq_prod=15 bc_calls=2 connprop_sent=1 dropped=1 lost=1 svc_drop=1
! got=$(settled 0) && [ "$got" = "16 12 1 1 1 0" ]
check "settled: a Call with no ending fails, with the counts" $?
( sleep 1.5; stat recv=3 sq_prod=3 ) &
stat recv=3 sq_prod=2
[ "$(settled 5)" = "3 3 0 0 0 0" ]
check "settled: waits for the last Call to settle" $?
wait
rm "$SVC_RDMA/rdma_stat_unsettled"
! settled 0 >/dev/null 2>&1
check "settled: a counter missing is a failure" $?
stat recv=4 sq_prod=3 lost=1
settled_step server no | grep -q '^STEP FAIL server: at the connections.* 4 3 0 1 0 0 '
check "settled_step: a Call lost without faults fails" $?
settled_step server yes | grep -q '^STEP ok server: every message settled .*4 Calls: 3 answered, 0 dropped, 1 lost'
check "settled_step: a Call lost under faults is counted" $?
stat recv=4 sq_prod=4 unsettled=1
settled_step server yes | grep -q '^STEP FAIL server: .*4 4 0 0 0 1 '
check "settled_step: a message a connection left unsettled fails" $?

# ---- credits ----
TRACEFS=$tmp/tracefs
mkdir -p "$TRACEFS/instances/credits"
trace() {
	{
		echo "# tracer: nop"
		echo "# entries-in-buffer/entries-written: $1/$2   #P:2"
		shift 2
		printf '%s\n' "$@"
	} >"$TRACEFS/instances/credits/trace"
}
c='kworker/u4:1-30 [001] ..... 10.0: xprtrdma_connect: peer=[192.0.2.1]:20049 rc=0 connection status=1'
cf='kworker/u4:1-30 [001] ..... 9.0: xprtrdma_connect: peer=[192.0.2.1]:20049 rc=-113 connection status=-113'
m() { echo "dd-9 [000] ..... $1: xprtrdma_marshal: task:$2@1 xid=0x$2 hdr=28 xdr=120/0/0 inline/inline"; }
r() { echo "kworker-8 [001] ..... $1: xprtrdma_reply: task:$2@1 xid=0x$2 credits=$3"; }
trace 9 9 "$(m 1.0 a1)" "$cf" "$c" "$(m 11.0 b1)" "$(r 11.1 b1 64)" "$(m 11.2 b2)" "$(m 11.3 b3)" "$(r 11.4 b2 64)" "$(r 11.5 b3 64)"
[ "$(credits_trace_check)" = "1 3 0 " ]
check "credits_trace_check: one Call until the first Reply, then within the grant" $?
trace 6 6 "$c" "$(m 11.0 b1)" "$(m 11.1 b2)" "$(r 11.2 b1 64)" "$(r 11.3 b2 64)" "$(m 12.0 b3)"
set -- $(credits_trace_check)
[ "$1 $2 $3" = "1 3 1" ] && [[ "$*" == *"xid=0xb2"*"(2 out, grant 1)" ]]
check "credits_trace_check: a second Call before the new connection's first Reply" $?
trace 7 7 "$c" "$(m 11.0 b1)" "$(r 11.1 b1 2)" "$(m 11.2 b2)" "$(m 11.3 b3)" "$(m 11.4 b4)" "$(r 11.5 b2 2)"
set -- $(credits_trace_check)
[ "$1 $2 $3" = "1 4 1" ] && [[ "$*" == *"xid=0xb4"*"(3 out, grant 2)" ]]
check "credits_trace_check: a Call beyond a grant of two" $?
trace 8 8 "$c" "$(m 11.0 b1)" "$(r 11.1 b1 2)" "$(m 11.2 b2)" "$(m 11.3 b3)" "$c" "$(m 12.0 c1)" "$(r 12.1 c1 1)"
[ "$(credits_trace_check)" = "2 4 0 " ]
check "credits_trace_check: a new connection starts counting again" $?
trace 100 250 "$c" "$(m 11.0 b1)"
[ "$(credits_trace_check)" = lost ]
check "credits_trace_check: an overwritten trace says so" $?
finish
