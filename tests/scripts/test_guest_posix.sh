#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The guests run their scripts with /bin/sh (dash): each of
# scripts/guest/*.sh (and the init) must parse as POSIX shell there, not only under the
# bash the host tests source lib.sh with (a bash-only construct in lib.sh
# stops every guest script that sources it).
. "$(dirname "$0")/harness.sh"
for f in "$(dirname "$0")"/../../scripts/guest/*.sh "$(dirname "$0")"/../../scripts/guest/init; do
	out=$(dash -n "$f" 2>&1)
	check "dash parses scripts/guest/${f##*/}${out:+: $out}" $?
done
finish
