#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of scripts/lib/common.sh's qemu_current: what dpkg-query says
# of qemu-system-x86 (stubbed on PATH) against QEMU_MIN_MAJOR.
# Prints "ok NAME" or "FAIL NAME" per case; exits non-zero on a failure.
set -u
. "$(dirname "$0")/../../scripts/lib/common.sh"
stub=$(mktemp -d)
trap 'rm -rf "$stub"' EXIT
PATH=$stub:$PATH
fails=0

# answer STATUS-AND-VERSION: what the stub dpkg-query prints ("" = not
# known to dpkg: exit 1)
answer() {
	if [ -n "$1" ]; then
		printf '#!/bin/sh\nprintf "%%s" "%s"\n' "$1" >"$stub/dpkg-query"
	else
		printf '#!/bin/sh\nexit 1\n' >"$stub/dpkg-query"
	fi
	chmod +x "$stub/dpkg-query"
}

# expect NAME yes|no DPKG-ANSWER
expect() {
	local got=no
	answer "$3"
	qemu_current && got=yes
	if [ "$got" = "$2" ]; then echo "ok $1"; else echo "FAIL $1: qemu_current said $got"; fails=$((fails + 1)); fi
}

expect backports-10 yes "install ok installed 1:10.0.2+ds-2+deb13u1~bpo12+1"
expect debian12-7.2 no "install ok installed 1:7.2+dfsg-7+deb12u18+b3"
expect eleven yes "install ok installed 1:11.1+ds-1"
expect no-epoch yes "install ok installed 10.1"
expect removed-config-kept no "deinstall ok config-files 1:10.0.2+ds-2"
expect unknown no ""
expect garbage no "install ok installed 1:x.y"
exit $((fails > 0))
