#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the inject case's event check (scripts/guest/lib.sh:
# fei_event, fei_traced): a failure with a stock event passes only when
# one of its events was recorded with its fields; a failure without one
# says "none".  A fake tracefs instance stands in for the kernel's.
# Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
. "$(dirname "$0")/harness.sh"
TRACEFS=$tmp/tracing
inst=$TRACEFS/instances/fei
mkdir -p "$inst/events"

# record LINE...: the instance's buffer as the kernel prints it.
record() {
	printf '# tracer: nop\n' >"$inst/trace"
	for l in "$@"; do printf '       kworker/0:1-42      [000] .....   12.345678: %s\n' "$l"; done >>"$inst/trace"
}

record "svcrdma_pd_err: addr=192.0.2.2:40001 status=-22"
out=$(fei_traced server rpcrdmax_ib_alloc_pd)
[ "$out" = "ok svcrdma_pd_err" ]
check "fei_traced: the server's PD failure fired svcrdma_pd_err ($out)" $?

out=$(fei_traced server rpcrdmax_cm_create_qp)
case $out in "none of svcrdma_qp_err "*) r=0 ;; *) r=1 ;; esac
check "fei_traced: another event's line does not count ($out)" $r

record "svcrdma_sq_post_err: addr=192.0.2.2:40001 sc_sq_avail=12/30 status=-22"
out=$(fei_traced server rpcrdmax_rw_post)
[ "$out" = "ok svcrdma_sq_post_err" ]
check "fei_traced: svcrdma_sq_post_err with its fields ($out)" $?

record "svcrdma_sq_post_err: addr=192.0.2.2:40001 sc_sq_avail=/30 status=0"
out=$(fei_traced server rpcrdmax_rw_post)
[ "${out#none of}" != "$out" ]
check "fei_traced: a line without its fields does not count ($out)" $?

# The client's Sends and LOCAL_INVs share the function: either event.
record "xprtrdma_post_linv_err: task:7@4294967295 status=-22"
out=$(fei_traced client rpcrdmax_ib_post_send)
[ "$out" = "ok xprtrdma_post_linv_err" ]
check "fei_traced: the second of two events counts ($out)" $?

record "xprtrdma_post_recvs_err: peer=[192.0.2.1]:20049 cq.id=3 rc=-22"
out=$(fei_traced client rpcrdmax_ib_post_recv)
[ "$out" = "ok xprtrdma_post_recvs_err" ]
check "fei_traced: xprtrdma_post_recvs_err with its fields ($out)" $?

# An MR mapping fails only inside a Call's marshaling: both events.
record "xprtrdma_frwr_maperr: mr.id=3 DMA addr=0x0 (TO_DEVICE) nents=-5 of 16" \
	"xprtrdma_marshal_failed: task:9@2 xid=0x1234abcd ret=-5"
out=$(fei_traced client rpcrdmax_ib_mr_map)
[ "$out" = "ok xprtrdma_frwr_maperr xprtrdma_marshal_failed" ]
check "fei_traced: an MR's map failure fired frwr_maperr and marshal_failed ($out)" $?

record "xprtrdma_frwr_maperr: mr.id=3 DMA addr=0x0 (TO_DEVICE) nents=-5 of 16"
out=$(fei_traced client rpcrdmax_ib_mr_map)
[ "${out#no xprtrdma_marshal_failed }" != "$out" ]
check "fei_traced: a required event missing fails the check ($out)" $?

record "xprtrdma_marshal_failed: task:9@2 xid=0x1234abcd ret=-5"
out=$(fei_traced client rpcrdmax_ib_mr_map)
[ "${out#none of xprtrdma_frwr_maperr }" != "$out" ]
check "fei_traced: the required event alone does not count ($out)" $?

record "xprtrdma_frwr_alloc: mr.id=0: rc=-12"
out=$(fei_traced client rpcrdmax_ib_alloc_mr)
[ "$out" = "ok xprtrdma_frwr_alloc" ]
check "fei_traced: an MR that could not be made fired xprtrdma_frwr_alloc ($out)" $?

out=$(fei_traced client rpcrdmax_kmalloc)
[ "$out" = none ]
check "fei_traced: an allocation failure has no stock event ($out)" $?
finish
