#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the server's steady-state check (steady_server_check,
# scripts/guest/lib.sh): context growth bounded by the pool passes however
# few Calls the run had beyond the pool; growth past the pool, or too few
# Calls to tell it from a per-RPC allocation, fails; no growth passes.
# Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
. "$(dirname "$0")/harness.sh"
STEADY_TMP=$tmp

# verdict A0 R0 A1 R1: the last STEP line of the check on those snapshots.
verdict() {
	echo "$1 $2" >"$tmp/steady.before"
	echo "$3 $4" >"$tmp/steady.after"
	STEP_FAILS=0
	steady_server_check | grep '^STEP' | tail -n 1
}

v=$(verdict 6742 3675 6742 4537)
case $v in "STEP ok steady: no context"*) true ;; *) false ;; esac
check "steady: no growth passes ($v)" $?
# 6.12's stock client, seen in CI's fresh run: 9 in 862 Calls
v=$(verdict 6742 3675 6751 4537)
case $v in "STEP ok "*) true ;; *) false ;; esac
check "steady: 9 contexts in 862 Calls pass ($v)" $?
# the battery's server (1 MiB I/O): 70 in 398 Calls
v=$(verdict 5000 1000 5070 1398)
case $v in "STEP ok "*) true ;; *) false ;; esac
check "steady: 70 contexts in 398 Calls pass ($v)" $?
# one allocation per Call: past the pool
v=$(verdict 5000 1000 5398 1398)
case $v in "STEP FAIL "*) true ;; *) false ;; esac
check "steady: one allocation per Call fails ($v)" $?
# a run of fewer Calls than the pool cannot tell
v=$(verdict 5000 1000 5040 1040)
case $v in "STEP FAIL "*) true ;; *) false ;; esac
check "steady: 40 allocations in 40 Calls fail ($v)" $?
finish
