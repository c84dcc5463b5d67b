#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of scripts/install ("make install", "make uninstall") in a
# scratch root (--destdir, --no-depmod: the module here is a stand-in; the
# e2e modload case runs the script with depmod on the real module): it
# installs exactly the module under updates/ and the modprobe.d redirect,
# uninstall removes exactly those, and bad arguments are refused with a
# message and change nothing.
# Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
. "$(dirname "$0")/harness.sh"
inst=$(dirname "$0")/../../scripts/install
root=$tmp/root
K=6.1.0-test
mkdir -p "$root/lib/modules/$K/kernel" "$root/etc/modprobe.d"
echo "options other x=1" >"$root/etc/modprobe.d/other.conf"
echo "a module" >"$tmp/rpcrdmax.ko"
run() { "$inst" --destdir "$root" --kver "$K" --no-depmod "$@" >"$tmp/out" 2>&1; }
listing() { (cd "$root" && find . | sort); }
before=$(listing)

run --module "$tmp/rpcrdmax.ko"
check "install succeeds" $?
cmp -s "$tmp/rpcrdmax.ko" "$root/lib/modules/$K/updates/rpcrdmax.ko"
check "install: the module is under updates/" $?
grep -qx 'install rpcrdma /sbin/modprobe --ignore-install rpcrdmax $CMDLINE_OPTS' \
	"$root/etc/modprobe.d/rpcrdmax.conf"
check "install: modprobe.d redirects rpcrdma to rpcrdmax" $?
added=$(diff <(echo "$before") <(listing) | grep -c '^>')
[ "$added" = 3 ]
check "install: adds updates/, the module and the redirect, nothing else ($added)" $?
run --module "$tmp/rpcrdmax.ko"
check "install: a second install succeeds" $?

run --uninstall
check "uninstall succeeds" $?
[ "$(listing)" = "$before" ]
check "uninstall: the root is as it was before install" $?
! run --uninstall && grep -q 'not installed' "$tmp/out"
check "uninstall: when nothing is installed, refused with a message" $?

for bad in "--kver ../x" "--kver a/b" "--module $tmp/nothing" "--destdir $tmp/nowhere" "--bogus" "--kver"; do
	# shellcheck disable=SC2086
	"$inst" --no-depmod --module "$tmp/rpcrdmax.ko" --destdir "$root" $bad >"$tmp/out" 2>&1
	rc=$?
	[ $rc -ne 0 ] && grep -q '^install: ' "$tmp/out" && [ "$(listing)" = "$before" ]
	check "refuses '$bad' with a message, changes nothing" $?
done
"$inst" --no-depmod --module "$tmp/rpcrdmax.ko" --destdir "$root" --kver 9.9-none >"$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q 'is that kernel installed' "$tmp/out" && [ "$(listing)" = "$before" ]
check "refuses a kernel with no lib/modules directory" $?

# The rpcrdmax-dkms package (make deb) owns updates/dkms/rpcrdmax.ko for
# the kernel: a second copy under updates/ would leave depmod to pick one.
mkdir -p "$root/lib/modules/$K/updates/dkms"
echo "the package's module" >"$root/lib/modules/$K/updates/dkms/rpcrdmax.ko"
with_pkg=$(listing)
! run --module "$tmp/rpcrdmax.ko" && grep -q 'rpcrdmax-dkms' "$tmp/out" && [ "$(listing)" = "$with_pkg" ]
check "install: refused while the rpcrdmax-dkms package's module is there, changes nothing" $?
rm -rf "$root/lib/modules/$K/updates"

# The package's redirect: the same line, in a file that says who owns it.
"$inst" --print-conf package >"$tmp/pkg.conf" 2>&1 &&
	grep -qx 'install rpcrdma /sbin/modprobe --ignore-install rpcrdmax $CMDLINE_OPTS' "$tmp/pkg.conf" &&
	grep -q 'rpcrdmax-dkms package' "$tmp/pkg.conf"
check "--print-conf package prints the redirect, worded for the package" $?
! "$inst" --print-conf other >"$tmp/out" 2>&1 && grep -q '^install: usage' "$tmp/out"
check "--print-conf with another word is refused with the usage" $?
finish
