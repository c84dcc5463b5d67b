#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the guests' waits (scripts/guest/lib.sh: deadline, before,
# wait_for) against a fake clock: "date +%s" reads it and every "sleep"
# moves it on by a whole second, as when a guest under TCG takes far
# longer per poll than the poll's own sleep. A wait of N seconds must end
# by the clock's N-th second, whatever a poll costs, and a flag file that
# appears in time must be seen.
# Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
. "$(dirname "$0")/harness.sh"
clock=$tmp/clock
echo 1000 >"$clock"

date() { cat "$clock"; }
sleep() {
	echo $(($(cat "$clock") + 1)) >"$clock"
	[ "$(cat "$clock")" = "${APPEAR_AT:-}" ] && touch "$tmp/flag"
	return 0
}

end=$(deadline 5)
[ "$end" = 1005 ]
check "deadline: the clock's second N from now ($end)" $?
before "$end"
check "before: true before the deadline" $?
echo 1005 >"$clock"
! before "$end"
check "before: false at the deadline" $?

echo 1000 >"$clock"
wait_for "$tmp/flag" 3
rc=$?
[ $rc -ne 0 ]
check "wait_for: a flag that never appears fails" $?
waited=$(($(cat "$clock") - 1000))
[ $waited = 3 ]
check "wait_for: 3 s means 3 s of clock, not 30 polls (ended at +$waited s)" $?

echo 1000 >"$clock"
APPEAR_AT=1002 wait_for "$tmp/flag" 3
check "wait_for: a flag that appears before the deadline is seen" $?

finish
