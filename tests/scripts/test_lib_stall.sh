#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the guests' stall report (scripts/guest/lib.sh: stall_due,
# stall_report): a log silent for STALL_SECS is due (a pair's server's,
# counted from its client's end), a fresh one is not,
# and the report's first line (which scripts/e2e quotes when a guest
# times out) names the last step and the command still running.
# Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
. "$(dirname "$0")/harness.sh"
log=$tmp/client.log
printf 'STEP ok v3: mount\nSTEP ok inline1024: remount\n' >"$log"

! stall_due "$log"
check "stall_due: a log written just now is not due" $?
touch -d "@$(($(date +%s) - STALL_SECS - 5))" "$log"
stall_due "$log"
check "stall_due: a log silent for $STALL_SECS s is due" $?
! stall_due "$tmp/none"
check "stall_due: no log yet is not due" $?
# A pair's server waits silently for its client: counted from the
# client's end when that is later.
STALL_CLIENT_DONE=$tmp/client.done
touch "$STALL_CLIENT_DONE"
! stall_due "$log"
check "stall_due: a server log silent since before its client ended just now is not due" $?
touch -d "@$(($(date +%s) - STALL_SECS - 1))" "$STALL_CLIENT_DONE"
stall_due "$log"
check "stall_due: a server log silent for $STALL_SECS s since its client ended is due" $?
unset STALL_CLIENT_DONE

# The step under way: the newest command that is not the report's own.
tail -f /dev/null --pid=$$ -s 30 &
pid=$!
sleep 1
stall_report "$log" $$ >"$tmp/report"
kill $pid
read -r first <"$tmp/report"
echo "$first"
[[ $first == 'stuck: no output for '*' s after "ok inline1024: remount"; running: tail -f /dev/null --pid='* ]]
check "stall_report: the last step and the running command" $?

# A task in uninterruptible sleep: a vfork()ing parent waits so until its
# child exits.  The report lists it with its kernel stack, and the first
# line names the first such task's frames.
printf '#include <unistd.h>\nint main(void) { if (vfork() == 0) { sleep(10); _exit(0); } return 0; }\n' >"$tmp/vf.c"
if cc -o "$tmp/vfork-wait" "$tmp/vf.c" 2>/dev/null; then
	"$tmp/vfork-wait" &
	pid=$!
	sleep 1
	stall_report "$log" $$ >"$tmp/report"
	{ kill -9 $pid && wait $pid; } 2>/dev/null
	head -n 1 "$tmp/report"
	grep -A3 "^--- D: $pid vfork-wait\$" "$tmp/report" | grep -q '^\[<[0-9a-f]*>\] .*clone'
	check "stall_report: a D-state task with its kernel stack" $?
	head -n 1 "$tmp/report" | grep -q '; D: [^ ]* in [a-z_]'
	check "stall_report: the first line names a D-state task's frames" $?
else
	echo "FAIL stall_report: no C compiler for the D-state case"
	fails=$((fails + 1))
fi

finish
