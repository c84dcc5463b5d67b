# SPDX-License-Identifier: GPL-2.0
#
# What the host tests of the guests' lib.sh share: lib.sh itself, a
# scratch directory $tmp removed on exit, and check NAME STATUS, which
# prints "ok NAME" or "FAIL NAME" and counts failures for finish.
# Sourced by tests/scripts/test_*.sh.
set -u
. "$(dirname "$0")/../../scripts/guest/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

check() {
	if [ "$2" = 0 ]; then echo "ok $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

# finish: the test's exit status, non-zero after any failed check.
finish() { exit $((fails > 0)); }
