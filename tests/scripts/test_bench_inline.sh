#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of scripts/bench --inline's checks: a size both ends'
# sysctls take (a multiple of 1024 from 4096 to 65536) passes them,
# anything else is refused with its reason before a guest boots, and
# --scale (which sets no inline size) refuses it.  Only the argument
# checks run: --report on an empty folder stops right after them.
# Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
. "$(dirname "$0")/harness.sh"
bench=$(dirname "$0")/../../scripts/bench

refused() { # refused WHY ARG...: bench exits non-zero, saying WHY
	local why=$1 out
	shift
	out=$("$bench" "$@" 2>&1) && return 1
	case $out in *"$why"*) return 0 ;; esac
	echo "  said: $out" >&2
	return 1
}

for bad in 4095 4097 5000 2048 1024 66560 131072; do
	refused "is not a multiple of 1024 from 4096 to 65536" --cost --inline "$bad"
	check "--inline $bad refused" $?
done
refused "takes a whole number" --cost --inline 8k
check "--inline 8k refused" $?
refused "needs a value" --cost --inline
check "--inline without a value refused" $?
refused "--scale takes" --scale --inline 8192
check "--scale --inline refused" $?
for good in 4096 8192 65536; do
	out=$("$bench" --cost --inline "$good" --report "$tmp/none" 2>&1)
	case $out in *"--inline"*) false ;; *) true ;; esac
	check "--inline $good passes the checks" $?
done

finish
