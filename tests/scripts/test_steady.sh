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

# expect OUTCOME NAME A0 R0 A1 R1: the check on those snapshots ends in a
# STEP line that starts "STEP OUTCOME" (ok or FAIL).
expect() {
	local want=$1 name=$2 v
	echo "$3 $4" >"$tmp/steady.before"
	echo "$5 $6" >"$tmp/steady.after"
	STEP_FAILS=0
	v=$(steady_server_check | grep '^STEP' | tail -n 1)
	case $v in "STEP $want "*) true ;; *) false ;; esac
	check "steady: $name ($v)" $?
}

expect ok "no growth passes" 6742 3675 6742 4537
# 6.12's stock client, seen in CI's fresh run: 9 in 862 Calls
expect ok "9 contexts in 862 Calls pass" 6742 3675 6751 4537
# the battery's server (1 MiB I/O): 70 in 398 Calls
expect ok "70 contexts in 398 Calls pass" 5000 1000 5070 1398
# one allocation per Call: past the pool
expect FAIL "one allocation per Call fails" 5000 1000 5398 1398
# a run of fewer Calls than the pool cannot tell
expect FAIL "40 allocations in 40 Calls fail" 5000 1000 5040 1040
finish
