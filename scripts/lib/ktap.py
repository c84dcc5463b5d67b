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

RESULT = re.compile(r'(\s*)(not ok|ok) (\d+)(?: -)? ([^#\s]+)(?:\s*#\s*(\S+))?')
# Per-case totals KUnit prints for parameterized cases.
TOTALS = re.compile(r'^\s+# (\S+): pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)')
# The suite's own totals, every case and parameter counted.
SUITE_TOTALS = re.compile(r'^# Totals: pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)')
# (the debug kernel's checkers included: KASAN, UBSAN, DEBUG_OBJECTS,
# DEBUG_LIST, kmemleak after the guest's scan (lib.sh kmemleak_scan: what
# leaked since the test began); lockdep reports as WARNING:)
BAD_LOG = re.compile(r'WARNING:|BUG:|Oops|general protection fault|Kernel panic|'
                     r'Call Trace:|UBSAN:|KASAN:|ODEBUG:|list_(add|del) corruption|'
                     r'kmemleak: \d+ suspected memory leaks since|refcount_t:')


def parse_suite(path):
    """Return ([(name, passed, failed, skipped)], suite_ok, suite_totals).

    Cases are the result lines indented one level.  A parameterized case
    is counted from its 'pass:P fail:F skip:S' totals line: 6.1's debugfs
    log keeps only the last parameter's own result line.  6.1 also caps
    each case's log at 512 bytes, so a chatty failing case can lose its
    result line: the suite's '# Totals:' line is the authority.
    """
    cases, totals, suite_ok, suite_totals, plan = [], {}, None, None, None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            pl = re.match(r'^ {4}1\.\.(\d+)$', line)
            if pl and plan is None:
                plan = int(pl.group(1))
                continue
            st = SUITE_TOTALS.match(line)
            if st:
                suite_totals = tuple(int(x) for x in st.group(1, 2, 3))
                continue
            t = TOTALS.match(line)
            if t:
                totals[t.group(1)] = tuple(int(x) for x in t.group(2, 3, 4))
                continue
            m = RESULT.search(line)
            if not m:
                continue
            indent, status, _, name, directive = m.groups()
            ok = status == 'ok'
            skip = (directive or '').upper() == 'SKIP'
            if not indent and m.start() == 0:
                suite_ok = ok
            elif 0 < len(indent.expandtabs()) <= 4 or m.start() > 0:
                cases.append((name, int(ok and not skip), int(not ok), int(skip)))
    cases = [(n,) + totals[n] if n in totals else (n, p, f, k) for n, p, f, k in cases]
    # KUnit prints no totals for a suite of one result; then every case
    # the plan announced must be there.
    if suite_totals is None and plan is not None and len(cases) == plan:
        suite_totals = tuple(sum(c[i] for c in cases) for i in (1, 2, 3))
    return cases, suite_ok, suite_totals


def failed_params(dmesg):
    """'not ok' lines of parameterized cases (two levels deep) in the log."""
    out = []
    if os.path.exists(dmesg):
        with open(dmesg, errors='replace') as f:
            for line in f:
                body = re.sub(r'^\[[^]]*\] ', '', line.rstrip('\n'))
                if re.match(r'^\s{4,8}not ok ', body):
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
        cases, suite_ok, suite_totals = parse_suite(path)
        if suite_ok is None or suite_totals is None:
            print(f'  BROKEN  suite {suite}: no suite result or totals line')
            failed += 1
            continue
        for name, p, f, k in cases:
            n = p + f + k
            tag = 'FAIL' if f else ('SKIP' if k and not p else 'PASS')
            detail = f' ({n} params: {p} passed, {f} failed, {k} skipped)' if n > 1 else ''
            print(f'  {tag:7} {suite}.{name}{detail}')
        p, f, k = suite_totals
        shown = sum(c[1] + c[2] + c[3] for c in cases)
        if shown != p + f + k:
            print(f'  NOTE    {suite}: {p + f + k - shown} result line(s) lost to the '
                  f'debugfs log limit; totals: pass:{p} fail:{f} skip:{k}')
        if not suite_ok and f == 0:
            print(f'  FAIL    suite {suite} reported not ok')
            f = 1
        passed, failed, skipped = passed + p, failed + f, skipped + k
    for line in failed_params(dmesg):
        print(f'  FAIL    (kernel log) {line}')
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
