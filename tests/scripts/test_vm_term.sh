#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of scripts/vm's end on a signal: a pair stopped with TERM (a
# caller's time limit) or INT (^C) must stop its guests and its helper
# subshells and delete its network namespace.  QEMU is a stub on PATH
# that sleeps, so no guest boots.  Needs root and the cached guest
# kernel and image (scripts/setup), as make check has them by its host
# tier; without them it prints nothing (no case ran).
# Prints "ok NAME" or "FAIL NAME: why" per case; exits non-zero on a failure.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib/common.sh"
[ "$(id -u)" = 0 ] || exit 0
. "$top/scripts/lib/paths.sh" 2>/dev/null || exit 0
cache_ready "$(rootfs_image_dir)" && cache_ready "$(guest_kernel_dir)" && qemu_current || exit 0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/share"
cat >"$tmp/bin/qemu-system-x86_64" <<STUB
#!/bin/sh
echo \$\$ >>"$tmp/qemu.pids"
exec sleep 300
STUB
chmod +x "$tmp/bin/qemu-system-x86_64"
fails=0

guests() { { wc -l <"$tmp/qemu.pids"; } 2>/dev/null || echo 0; }

# left NS SID: what of the stopped pair is still there
left() {
	local p out=
	for p in $(cat "$tmp/qemu.pids"); do kill -0 "$p" 2>/dev/null && out="$out guest:$p"; done
	ip netns list | grep -qw "$1" && out="$out netns:$1"
	# the helper subshells (NIC and partner watchers) share the session
	for p in $(pgrep -s "$2" 2>/dev/null); do out="$out $(ps -o comm= -p "$p"):$p"; done
	echo "$out"
}

# stop SIGNAL: start a pair, wait for both stub guests, send SIGNAL, and
# check what is left up to 10 s later.  (perl restores SIGINT's default:
# bash starts a background command with it ignored.)
stop() {
	local sig=$1 vpid ns i out p
	rm -f "$tmp/qemu.pids"
	PATH=$tmp/bin:$PATH setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' "$top/scripts/vm" pair --share "$tmp/share" \
		--server-script s.sh --client-script c.sh --timeout 120 >"$tmp/vm.out" 2>&1 &
	vpid=$!
	ns=rpcrdmax-$vpid
	for i in $(seq 1 40); do
		[ "$(guests)" -ge 2 ] && break
		sleep 0.5
	done
	if [ "$(guests)" -lt 2 ]; then
		echo "FAIL $sig: the stub guests never started ($(tail -n 3 "$tmp/vm.out" | tr '\n' ' '))"
		fails=$((fails + 1))
		kill -KILL -- -"$vpid" 2>/dev/null
		ip netns del "$ns" 2>/dev/null
		return
	fi
	if ! ip netns list | grep -qw "$ns"; then
		echo "FAIL $sig: no namespace $ns while the pair runs"
		fails=$((fails + 1))
	fi
	kill -"$sig" "$vpid"
	for i in $(seq 1 20); do
		sleep 0.5
		out=$(left "$ns" "$vpid")
		[ -z "$out" ] && break
	done
	if [ -z "$out" ]; then
		echo "ok $sig: guests, watchers and namespace gone"
	else
		echo "FAIL $sig: left behind 10 s after it:$out"
		fails=$((fails + 1))
	fi
	kill -KILL -- -"$vpid" 2>/dev/null
	for p in $(cat "$tmp/qemu.pids"); do kill -KILL "$p" 2>/dev/null; done
	ip netns del "$ns" 2>/dev/null
}

stop TERM
stop INT
exit $((fails > 0))
