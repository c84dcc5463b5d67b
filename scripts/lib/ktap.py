#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise KUnit KTAP results per suite and scan a kernel log.

usage: ktap.py KTAP_DIR DMESG SUITE...

Prints one line per case and per suite, then 'kunit: N passed, N failed'.
Exit status 1 if any case or suite failed, an expected suite left no
results, or the kernel log has a WARNING, BUG, oops or KUnit failure.
"""
import os
import re
import sys

RESULT = re.compile(r'^(\s*)(not ok|ok) (\d+)(?: -)? ([^#\s]+)(?:\s*#\s*(\S+))?')
BAD_LOG = re.compile(r'WARNING:|BUG:|Oops|general protection fault|Kernel panic|'
                     r'Call Trace:|UBSAN:|KASAN:|kmemleak|refcount_t:')


def parse_suite(path):
    cases, suite_ok = [], None
    with open(path, errors='replace') as f:
        for line in f:
            m = RESULT.match(line.rstrip('\n'))
            if not m:
                continue
            indent, status, _, name, directive = m.groups()
            ok = status == 'ok'
            skip = (directive or '').upper() == 'SKIP'
            if indent:
                cases.append((name, ok, skip))
            else:
                suite_ok = ok
    return cases, suite_ok


def main():
    if len(sys.argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    ktap_dir, dmesg, suites = sys.argv[1], sys.argv[2], sys.argv[3:]
    passed = failed = skipped = 0
    for suite in suites:
        path = os.path.join(ktap_dir, suite + '.ktap')
        if not os.path.exists(path):
            print(f'  MISSING suite {suite}: no results')
            failed += 1
            continue
        cases, suite_ok = parse_suite(path)
        if not cases or suite_ok is None:
            print(f'  BROKEN  suite {suite}: no case or suite result lines')
            failed += 1
            continue
        for name, ok, skip in cases:
            tag = 'SKIP' if skip else ('PASS' if ok else 'FAIL')
            print(f'  {tag:7} {suite}.{name}')
            if skip:
                skipped += 1
            elif ok:
                passed += 1
            else:
                failed += 1
        if not suite_ok and all(ok for _, ok, _ in cases):
            print(f'  FAIL    suite {suite} reported not ok')
            failed += 1
    bad = []
    if os.path.exists(dmesg):
        with open(dmesg, errors='replace') as f:
            bad = [l.rstrip() for l in f if BAD_LOG.search(l)]
    else:
        bad = [f'no kernel log at {dmesg}']
    for line in bad[:20]:
        print(f'  KERNEL  {line}')
    if bad:
        failed += 1
    tail = f', {skipped} skipped' if skipped else ''
    print(f'kunit: {passed} passed, {failed} failed{tail}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
