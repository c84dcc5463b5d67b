#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the inject case's kernel-log judge (scripts/guest/lib.sh:
# drop_injector_report, then KERNEL_BAD): fail_function's own lockdep
# report is left out in both forms it takes, and every other report, or
# one cut short, still fails the log.  data/injector-lockdep.dmesg is the
# report as a debug guest printed it (crngs.lock form).
# Prints "ok NAME" or "FAIL NAME: why" per case; exits non-zero on a failure.
set -u
here=$(dirname "$0")
. "$here/../../scripts/guest/lib.sh"
real=$here/data/injector-lockdep.dmesg
fails=0

# expect NAME clean|dirty: judge the log on stdin as the guests do.
expect() {
	local got=clean
	drop_injector_report | grep -qE "$KERNEL_BAD" && got=dirty
	if [ "$got" = "$2" ]; then
		echo "ok $1"
	else
		echo "FAIL $1: judged $got, wanted $2"
		fails=$((fails + 1))
	fi
}
# The batched form: the draw took batched_entropy_u8.lock and did not refill.
batched() {
	sed -e 's/crngs\.lock/batched_entropy_u8.lock/' \
	    -e '/crng_make_state\|_get_random_bytes/d' "$real"
}

echo '[    1.0] nfsd: all fine' | expect "a log without reports" clean
{ echo '[    1.0] before'; cat "$real"; echo '[  200.0] after'; } |
	expect "the injector's report, crngs.lock form" clean
batched | expect "the injector's report, batched_entropy_u8.lock form" clean
{ cat "$real"; batched; } | expect "two of the injector's reports" clean
sed '/should_fail_ex/d' "$real" |
	expect "the same lockdep report not from should_fail_ex" dirty
sed '/get_random_u8/d' "$real" |
	expect "should_fail_ex's report on a lock not of its draw" dirty
sed 's/{INITIAL USE} -> {IN-NMI}/{SOFTIRQ-ON-W} -> {IN-SOFTIRQ-W}/' "$real" |
	expect "another kind of inconsistency with should_fail_ex in its trace" dirty
{ cat "$real"; echo '[  201.0] BUG: KASAN: slab-use-after-free in rpcrdmax_kfree'; } |
	expect "a KASAN report after the injector's" dirty
{ cat "$real"; echo '[  201.0] rpcrdmax-test: kmemleak: 2 suspected memory leaks since the test began (client.kmemleak)'; } |
	expect "a kmemleak finding after the injector's (kmemleak_scan's line)" dirty
sed '/<\/TASK>/d' "$real" | expect "the injector's report cut short" dirty
[ "$fails" -eq 0 ]
