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
# Per-case totals KUnit prints for parameterized cases.
TOTALS = re.compile(r'^\s+# (\S+): pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)')
BAD_LOG = re.compile(r'WARNING:|BUG:|Oops|general protection fault|Kernel panic|'
                     r'Call Trace:|UBSAN:|KASAN:|kmemleak|refcount_t:')


def parse_suite(path):
    """Return ([(name, passed, failed, skipped)], suite_ok).

    Cases are the result lines indented one level.  A parameterized case
    is counted from its 'pass:P fail:F skip:S' totals line: 6.1's debugfs
    log keeps only the last parameter's own result line.
    """
    cases, totals, suite_ok = [], {}, None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            t = TOTALS.match(line)
            if t:
                totals[t.group(1)] = tuple(int(x) for x in t.group(2, 3, 4))
                continue
            m = RESULT.match(line)
            if not m:
                continue
            indent, status, _, name, directive = m.groups()
            ok = status == 'ok'
            skip = (directive or '').upper() == 'SKIP'
            if not indent:
                suite_ok = ok
            elif len(indent.expandtabs()) <= 4:
                cases.append((name, int(ok and not skip), int(not ok), int(skip)))
    return [(n,) + totals[n] if n in totals else (n, p, f, k)
            for n, p, f, k in cases], suite_ok


def failed_params(dmesg):
    """'not ok' lines of parameterized cases (two levels deep) in the log."""
    out = []
    if os.path.exists(dmesg):
        with open(dmesg, errors='replace') as f:
            for line in f:
                body = re.sub(r'^\[[^]]*\] ', '', line.rstrip('\n'))
                if re.match(r'^\s{8}not ok ', body):
                    out.append(body.strip())
    return out


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
        for name, p, f, k in cases:
            n = p + f + k
            tag = 'FAIL' if f else ('SKIP' if k and not p else 'PASS')
            detail = f' ({n} params: {p} passed, {f} failed, {k} skipped)' if n > 1 else ''
            print(f'  {tag:7} {suite}.{name}{detail}')
            passed, failed, skipped = passed + p, failed + f, skipped + k
        if not suite_ok and not any(f for _, _, f, _ in cases):
            print(f'  FAIL    suite {suite} reported not ok')
            failed += 1
    for line in failed_params(dmesg):
        print(f'  FAIL    param: {line}')
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
