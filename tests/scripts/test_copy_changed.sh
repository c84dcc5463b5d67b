#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of copy_changed (scripts/lib/common.sh), which build-module
# uses to copy the sources into the trixie build root, where make then
# decides by time what to compile: a changed file must land newer than
# the objects built from the copy before, even when the source is older
# (a worktree checked out before that build, or another tree built into
# the same copy: seen, a 7.x module built from stale objects); an
# unchanged file must keep its time (no needless rebuild).
# Prints "ok NAME" or "FAIL NAME: why" per case; exits non-zero on a failure.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib/common.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
result() {
	if [ -z "$2" ]; then echo "ok $1"; else echo "FAIL $1: $2"; fails=$((fails + 1)); fi
}

mkdir -p "$tmp/src/a" "$tmp/dst/a"
echo new >"$tmp/src/a/changed.c"
echo same >"$tmp/src/a/same.c"
echo fresh >"$tmp/src/a/added.c"
touch -d '2026-01-01 00:00' "$tmp/src/a/changed.c" "$tmp/src/a/same.c" "$tmp/src/a/added.c"
echo old >"$tmp/dst/a/changed.c"
echo same >"$tmp/dst/a/same.c"
touch -d '2026-06-01 00:00' "$tmp/dst/a/changed.c" "$tmp/dst/a/same.c"
touch -d '2026-06-02 00:00' "$tmp/dst/a/changed.o" # built from the old copy
copy_changed "$tmp/src" "$tmp/dst" a/changed.c a/same.c a/added.c
result "copy_changed returns 0" "$([ $? -eq 0 ] || echo "exit status $?")"

why=
[ "$(cat "$tmp/dst/a/changed.c")" = new ] || why="content '$(cat "$tmp/dst/a/changed.c")'"
[ "$tmp/dst/a/changed.c" -nt "$tmp/dst/a/changed.o" ] || why="$why; not newer than the object built before"
result "a changed file older than the copy's objects is copied and stamped newer" "$why"
why=
[ "$(stat -c %Y "$tmp/dst/a/same.c")" = "$(date -d '2026-06-01 00:00' +%s)" ] ||
	why="its time moved to $(stat -c %y "$tmp/dst/a/same.c")"
result "an unchanged file keeps its time" "$why"
result "a new file is copied" "$([ "$(cat "$tmp/dst/a/added.c" 2>/dev/null)" = fresh ] || echo missing)"
copy_changed "$tmp/src" "$tmp/dst" a/missing.c 2>/dev/null
result "a missing source fails" "$([ $? -ne 0 ] || echo 'returned 0')"
exit $((fails > 0))
