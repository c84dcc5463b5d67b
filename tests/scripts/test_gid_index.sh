#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of gid_index_v4 (scripts/guest/lib.sh) on a made-up sysfs
# (IB_SYSFS): without an address, the first RoCE v2 GID that carries an
# IPv4 address; with one, the RoCE v2 GID of that address only (the
# server's aliases in scripts/bench --scale), and none when it has none
# yet.  Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
. "$(dirname "$0")/harness.sh"
IB_SYSFS=$tmp/ib
p=$IB_SYSFS/rxe0/ports/1
mkdir -p "$p/gids" "$p/gid_attrs/types"
# gid INDEX VALUE TYPE
gid() { echo "$2" >"$p/gids/$1"; echo "$3" >"$p/gid_attrs/types/$1"; }
gid 0 fe80:0000:0000:0000:5054:00ff:fe12:3401 "IB/RoCE v1"
gid 1 fe80:0000:0000:0000:5054:00ff:fe12:3401 "RoCE v2"
gid 2 0000:0000:0000:0000:0000:ffff:c000:0201 "IB/RoCE v1"
gid 3 0000:0000:0000:0000:0000:ffff:c000:0201 "RoCE v2"
gid 4 0000:0000:0000:0000:0000:ffff:c000:0265 "IB/RoCE v1"
gid 5 0000:0000:0000:0000:0000:ffff:c000:0265 "RoCE v2"

i=$(gid_index_v4 rxe0)
[ "$i" = 3 ]
check "no address: the first IPv4 RoCE v2 GID ($i)" $?

i=$(gid_index_v4 rxe0 192.0.2.101)
[ "$i" = 5 ]
check "192.0.2.101: its own RoCE v2 GID, not the first one ($i)" $?

i=$(gid_index_v4 rxe0 192.0.2.102)
rc=$?
[ $rc -ne 0 ] && [ -z "$i" ]
check "192.0.2.102: no GID yet, so none ('$i')" $?

finish
