#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the guests' kmemleak judge (scripts/guest/lib.sh,
# kmemleak_new): of a report in the debugfs file's format (Linux 6.1,
# mm/kmemleak.c print_unreferenced), only the objects allocated at or
# after the jiffies the test began count; what the kernel leaked while it
# booted does not, and an empty report counts nothing.
# Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
. "$(dirname "$0")/harness.sh"
cat >"$tmp/report" <<'R'
unreferenced object 0xffff888003a0c000 (size 64):
  comm "swapper/0", pid 1, jiffies 4294668000
  hex dump (first 32 bytes):
    6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b  kkkkkkkkkkkkkkkk
  backtrace:
    [<000000001d1d5c9b>] kmalloc_trace+0x26/0x60
unreferenced object 0xffff888004b1e400 (size 1024):
  comm "kworker/0:2", pid 57, jiffies 4294950001
  hex dump (first 32 bytes):
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................
  backtrace:
    [<00000000a3c2a0e8>] __kmalloc+0x4c/0x150
unreferenced object 0xffff888004b1e800 (size 128):
  comm "insmod", pid 301, jiffies 4294950000
  backtrace:
    [<00000000a3c2a0e8>] __kmalloc+0x4c/0x150
R
n=$(kmemleak_new "$tmp/report" 4294950000)
[ "$n" = 2 ]
check "kmemleak_new: two objects allocated since the test began, the boot's one not counted (got $n)" $?
n=$(kmemleak_new "$tmp/report" 4294950002)
[ "$n" = 0 ]
check "kmemleak_new: none allocated after a later start (got $n)" $?
n=$(kmemleak_new "$tmp/report" 0)
[ "$n" = 3 ]
check "kmemleak_new: every object when the start is unknown (0; got $n)" $?
: >"$tmp/empty"
n=$(kmemleak_new "$tmp/empty" 4294950000)
[ "$n" = 0 ]
check "kmemleak_new: an empty report counts nothing (got $n)" $?
line="rpcrdmax-test: kmemleak: 2 suspected memory leaks since the test began (client.kmemleak)"
grep -qE "$KERNEL_BAD" <<<"$line"
check "KERNEL_BAD matches kmemleak_scan's line" $?
! grep -qE "$KERNEL_BAD" <<<"kmemleak: 3 new suspected memory leaks (see /sys/kernel/debug/kmemleak)"
check "KERNEL_BAD leaves the kernel's own count (boot-time leaks included) to kmemleak_scan" $?
finish
