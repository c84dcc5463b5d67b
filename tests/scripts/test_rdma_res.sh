#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the guests' RDMA resource checks (scripts/guest/lib.sh:
# rdma_res_snapshot, rdma_res_back, rdma_res_count, rdma_res_settle)
# against a fake "rdma" whose summary line and QP list come from files:
# equal counts pass at once, counts that come back within the deadline
# pass, a leak fails at the deadline and names the leaked kind's
# resources and the counts in its last lines, a leaked CM ID fails a
# check with no deadline (SECONDS 0); a count by type counts the QPs of
# that type only.
# Prints "ok NAME" or "FAIL NAME: why" per case; exits non-zero on a failure.
. "$(dirname "$0")/harness.sh"
counts=$tmp/counts

qplist=$tmp/qplist
# the fake: "rdma res show" prints the summary line, "rdma res show KIND"
# a line per resource of that kind (for qp, the lines of $qplist if any)
rdma() {
	if [ $# -eq 2 ]; then
		echo "0: rxe0: pd $(sed -n 1p "$counts") cq 3 qp $(sed -n 2p "$counts") cm_id $(sed -n 3p "$counts") mr 0 ctx 0 srq 0"
	elif [ "$3" = qp ] && [ -e "$qplist" ]; then
		cat "$qplist"
	elif [ "$3" = cm_id ]; then
		echo "link rxe0/- cm-idn 0 state LISTEN ps TCP comm [rpcrdmax] src-addr 0.0.0.0:20049"
	else
		echo "link rxe0/1 lqpn 17 type RC state RTS comm [rpcrdmax]"
	fi
}
set_counts() { printf '%s\n%s\n%s\n' "$1" "$2" "${3:-0}" >"$counts"; }

set_counts 1 1
base=$(rdma_res_snapshot)
[ "$base" = "pd=1 cq=3 qp=1 mr=0 cm_id=0" ]
check "snapshot: pd cq qp mr cm_id from the summary line ('$base')" $?

rdma_res_back "$base" 5 >/dev/null
check "back: equal counts pass" $?

set_counts 2 2
( sleep 1; set_counts 1 1 ) &
rdma_res_back "$base" 10 >/dev/null
check "back: counts that return before the deadline pass" $?
wait

set_counts 1 2
out=$(rdma_res_back "$base" 1)
rc=$?
[ $rc -ne 0 ]
check "back: a leaked QP fails at the deadline" $?
last=$(printf '%s\n' "$out" | tail -n 3)
case $last in
*"lqpn 17 type RC"*"RDMA resources pd=1 cq=3 qp=2 mr=0 cm_id=0, not pd=1 cq=3 qp=1 mr=0 cm_id=0 "*) r=0 ;;
*) r=1 ;;
esac
check "back: its last lines name the leaked QP and the counts" $r
[ "$(printf '%s\n' "$out" | grep -c lqpn)" = 1 ]
check "back: only the kind that differs is listed" $?

# a listener's CM ID left, checked with no wait (as rpc.nfsd 0 returns)
set_counts 1 1 1
out=$(rdma_res_back "$base" 0)
[ $? -ne 0 ]
check "back: a leaked CM ID fails a check with no deadline" $?
case $(printf '%s\n' "$out" | tail -n 2) in
*"cm-idn 0 state LISTEN"*"cm_id=1, not pd=1 cq=3 qp=1 mr=0 cm_id=0 "*) r=0 ;;
*) r=1 ;;
esac
check "back: it names the CM ID" $r

# by type: rxe's GSI QP (and the summary's count) is not an RC QP
set_counts 1 3
printf '%s\n' "link rxe0/1 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core]" \
	"link rxe0/1 lqpn 17 type RC state RTS comm [rpcrdmax]" \
	"link rxe0/1 lqpn 18 type RC state RTS comm [rpcrdmax]" >"$qplist"
n=$(rdma_res_count qp RC)
[ "$n" = 2 ] && [ "$(rdma_res_count qp GSI)" = 1 ] && [ "$(rdma_res_count qp)" = 3 ]
check "count: qp RC counts the RC QPs only ($n)" $?

rdma_res_settle qp 2 5 RC >/dev/null
check "settle: two RC QPs settle at 2 by type" $?

out=$(rdma_res_settle qp 0 1 RC)
rc=$?
first=$(printf '%s\n' "$out" | head -n 1)
[ $rc -ne 0 ] && [ "$first" = "qp RC: 2, not 0:" ]
check "settle: two RC QPs do not settle at 0, and the first line says so ('$first')" $?

finish
