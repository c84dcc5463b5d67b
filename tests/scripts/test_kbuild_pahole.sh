#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of scripts/kbuild/pahole, the pahole that kbuild's module BTF
# step runs on 6.12 and 7.x (PAHOLE=, from build-module and dkms.conf): it
# must add the C++ dialects to the kernel's own --lang_exclude and pass
# every other argument as it came, in order, spaces and all.  pahole is a
# stub on PATH that prints its arguments one per line.
# Prints "ok NAME" or "FAIL NAME: why" per case; exits non-zero on a failure.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nfor a; do printf "%%s\\n" "$a"; done\n' >"$tmp/bin/pahole"
chmod +x "$tmp/bin/pahole"
fails=0

# check NAME WANT ARGS...: the stub's lines for the wrapper run with ARGS
check() {
	local name=$1 want=$2 got
	shift 2
	got=$(PATH="$tmp/bin:$PATH" sh "$top/scripts/kbuild/pahole" "$@" | tr '\n' '|')
	if [ "$got" = "$want" ]; then
		echo "ok $name"
	else
		echo "FAIL $name: got '$got', want '$want'"
		fails=$((fails + 1))
	fi
}

# 7.x's scripts/gen-btf.sh: -J PAHOLE_FLAGS --btf_base vmlinux MODULE
check "7.x flags: rust and the C++ dialects excluded, the rest as given" \
	"-J|-j2|--btf_features=encode_force,var|--lang_exclude=rust,c++,c++03,c++11,c++14|--btf_base|vmlinux|rpcrdmax.ko|" \
	-J -j2 --btf_features=encode_force,var --lang_exclude=rust --btf_base vmlinux rpcrdmax.ko
# 6.12's Makefile.modfinal: PAHOLE_FLAGS then MODULE_PAHOLE_FLAGS
check "6.12 flags: distilled_base kept" \
	"-J|--lang_exclude=rust,c++,c++03,c++11,c++14|--btf_features=distilled_base|--btf_base|vmlinux|a b.ko|" \
	-J --lang_exclude=rust --btf_features=distilled_base --btf_base vmlinux "a b.ko"
check "no --lang_exclude: nothing added" "--version|" --version
exit $((fails > 0))
