# SPDX-License-Identifier: GPL-2.0
#
# oops_digest CONSOLE: the first kernel crash report on a guest's serial
# console, in at most three lines, for a failure's line in the output
# (CI keeps only the output's tail, never the console file):
#   the report's first line (BUG:, Oops:, general protection fault,
#   kernel BUG, WARNING:, UBSAN:, Kernel panic ...), without its time;
#   "RIP: ..." the function it stopped in, when the report has one;
#   "trace: f1 < f2 < ..." the first six frames of its call trace that
#   the unwinder is sure of (not the "? ..." guesses, nor <IRQ>, <TASK>).
# Prints nothing for a console without one.  Sourced by scripts/e2e;
# host test tests/scripts/test_oops.sh.
oops_digest() {
	[ -r "$1" ] || return 0
	tr -d '\r' <"$1" | sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' | awk '
	function flush() {
		if (cause == "") return
		print substr(cause, 1, 160)
		if (rip != "") print substr(rip, 1, 160)
		if (trace != "") print "trace: " substr(trace, 1, 300)
		done = 1
	}
	done { next }
	cause == "" {
		if ($0 ~ /^(BUG:|Oops:|general protection fault|kernel BUG|WARNING:|UBSAN:|Kernel panic|watchdog: BUG)/)
			cause = $0
		next
	}
	/^RIP: / && rip == "" { rip = $0; next }
	/^Call Trace:/ && !intrace && frames == 0 { intrace = 1; next }
	intrace {
		line = $0
		sub(/^ +/, "", line)
		if (line ~ /^</ || line ~ /^\? /) next
		if (line !~ /^[A-Za-z_.][A-Za-z0-9_.]*\+0x/) { intrace = 0; if (frames) flush(); next }
		trace = trace (frames ? " < " : "") line
		if (++frames == 6) { intrace = 0; flush() }
		next
	}
	/^(---\[ end|Kernel panic)/ { flush() }
	END { if (!done) flush() }'
}

# emulator_fault CONSOLE: prints the first EFLAGS value of a crash report
# on the console that no x86 CPU can hold, and succeeds; fails if there is
# none.  Bit 1 of RFLAGS always reads 1; bits 3, 5, 15 and 22 up always
# read 0.  Debian 12's QEMU 7.2 (TCG) has run 6.12 guests into such
# states: the reserved bits were those of a pointer register, TF and DF
# came on in the kernel, and the guest died of a single-step trap, a
# double fault or slab corruption in rxe's packet allocation, with the
# stock rpcrdma on both ends as with rpcrdmax (Documentation/testing.rst,
# "An emulator fault on 6.12").
emulator_fault() {
	local f
	[ -r "$1" ] || return 1
	for f in $(tr -d '\r' <"$1" | sed -nE 's/.* EFLAGS: ([0-9a-fA-F]{1,16})$/\1/p'); do
		if (((0x$f & 0xffffffffffc08028) != 0 || (0x$f & 2) == 0)); then
			echo "$f"
			return 0
		fi
	done
	return 1
}

# module_errors CONSOLE: rpcrdmax's own errors on a guest's serial
# console, one line each (a report's first line, without its time): a
# crash or warning report (as oops_digest starts one) whose RIP or a
# frame of its call trace the unwinder is sure of is in rpcrdmax
# ("[rpcrdmax]"; not the "? ..." guesses), and rpcrdmax's warning that a
# connection ended with messages unsettled (svcrdma/svcrdma.h, Settle).
# Its other warnings (a Send failed, a Reply dropped) can be a stalled
# NIC's or a peer's doing, and are left to the steps that expect them.
# scripts/e2e runs it on the first attempt of a case it runs again after
# one of QEMU's faults: such an error fails the case all the same.
module_errors() {
	[ -r "$1" ] || return 0
	tr -d '\r' <"$1" | sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' | awk '
	function flush() { if (cause != "" && ours) print substr(cause, 1, 160); cause = ""; ours = 0 }
	/^(BUG:|Oops:|general protection fault|kernel BUG|WARNING:|UBSAN:|watchdog: BUG)/ { flush(); cause = $0; ours = /\[rpcrdmax\]/; next }
	/^---\[ end/ { flush(); next }
	cause != "" && /\[rpcrdmax\]/ && !/^ *\? / { ours = 1 }
	/^rpcrdmax: .*unsettled/ { print substr($0, 1, 160) }
	END { flush() }'
}
