#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the guests' step (scripts/guest/lib.sh): it prints a STEP
# line for the outcome, counts a failure, and fails as its command did,
# so that a guest script can skip what depends on a failed step.
# Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
. "$(dirname "$0")/harness.sh"
STEP_FAILS=0

out=$(step "a passing step" true)
rc=$?
[ $rc = 0 ] && [ "$out" = "STEP ok a passing step" ]
check "step: a command that succeeds is ok, status 0 ('$out', $rc)" $?

step "a failing step" sh -c 'echo why; exit 3' >"$tmp/out"
rc=$?
[ $rc != 0 ]
check "step: a command that fails makes the step fail ($rc)" $?
grep -qx "STEP FAIL a failing step: why" "$tmp/out"
check "step: the failure's line carries the command's output ($(cat "$tmp/out"))" $?
[ "$STEP_FAILS" = 1 ]
check "step: the failure is counted (STEP_FAILS $STEP_FAILS)" $?

step "a failing step" false >/dev/null || skipped=yes
[ "${skipped:-}" = yes ]
check "step: 'step ... || continue' takes the second branch on failure" $?
finish
