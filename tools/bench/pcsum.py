#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pcsum - the exact count by address (scripts/bench --cost --exact) read
back: the guest kernel's instructions between two marks, by symbol.

tools/bench/pccount.c (a QEMU TCG plugin) counts the instructions each
guest kernel executed, by the start address of the translation block
they ran in; tools/bench/icountd.py has it write, at every mark N, what
grew since mark N-1 into DIR/icount/pc.NAME.N ("pccount BLOCKS OVERFLOW"
then "ADDR COUNT" lines, ADDR in hex).  The instructions of a window
between marks B and E are the sum of files B+1 .. E.  A block's count
goes to the text symbol (/proc/kallsyms, type t or T, or w or W: C++'s
inline functions are weak; as the guest saved it: bench-client.sh's
kallsyms-NAME) with the highest address at or
below its start; a block within no symbol's reach (beyond MAX_REACH of
the one below it) goes to "[unknown]".  coststat.py prints the report.
"""

import bisect
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchstat import Unavailable  # noqa: E402

MAX_REACH = 1 << 20  # octets past a symbol's start still counted as it


def parse_pc(text):
    """A pc.NAME.N file: ({address: instructions}, overflow instructions)."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("pccount "):
        raise Unavailable("not a pccount dump")
    head = lines[0].split()
    if len(head) != 3:
        raise Unavailable("a pccount dump with a bad first line: %r" % lines[0])
    counts = {}
    for line in lines[1:]:
        f = line.split()
        if len(f) != 2:
            raise Unavailable("a pccount dump with a bad line: %r" % line)
        a = int(f[0], 16)
        counts[a] = counts.get(a, 0) + int(f[1])
    return counts, int(head[2])


class Symbols:
    """Addresses to (symbol, module) by /proc/kallsyms text lines; module
    "kernel" for the kernel's own."""

    def __init__(self, text):
        rows = []
        for line in text.splitlines():
            f = line.split()
            if len(f) < 3 or f[1] not in ("t", "T", "w", "W"):
                continue
            mod = f[3].strip("[]") if len(f) > 3 else "kernel"
            rows.append((int(f[0], 16), f[2], mod))
        rows.sort()
        if not rows:
            raise Unavailable("no text symbols")
        self.addrs = [r[0] for r in rows]
        self.rows = rows

    def locate(self, addr):
        """(symbol, module, offset of ADDR in it); offset None when
        ADDR is within no symbol's reach."""
        i = bisect.bisect_right(self.addrs, addr) - 1
        if i < 0 or addr - self.addrs[i] > MAX_REACH:
            return ("[unknown]", "unknown", None)
        return self.rows[i][1], self.rows[i][2], addr - self.addrs[i]

    def of(self, addr):
        return self.locate(addr)[:2]


class Dumps:
    """The dumps of one run (DIR/icount), read once each."""

    def __init__(self, top):
        self.dir = os.path.join(top, "icount")
        self.cache = {}

    def exists(self):
        return os.path.isdir(self.dir)

    def one(self, name, n):
        key = (name, n)
        if key not in self.cache:
            try:
                with open(os.path.join(self.dir, "pc.%s.%d" % (name, n))) as f:
                    self.cache[key] = parse_pc(f.read())
            except OSError:
                self.cache[key] = Unavailable("no count by address for %s at mark %d" % (name, n))
        v = self.cache[key]
        if isinstance(v, Unavailable):
            raise v
        return v

    def window(self, name, begin, end):
        """{address: instructions} and the overflow, marks begin..end."""
        if end < begin:
            raise Unavailable("marks out of order (%d, %d)" % (begin, end))
        total, over = collections.Counter(), 0
        for n in range(begin + 1, end + 1):
            counts, o = self.one(name, n)
            total.update(counts)
            over += o
        return total, over


def by_symbol(counts, syms):
    """{(symbol, module): instructions} of {address: instructions}."""
    out = collections.Counter()
    for a, n in counts.items():
        out[syms.of(a)] += n
    return out


def by_block(counts, syms, symbol):
    """{offset in SYMBOL: instructions} of the blocks of {address:
    instructions} that start within SYMBOL (any module's of that name)."""
    out = collections.Counter()
    for a, n in counts.items():
        name, _mod, off = syms.locate(a)
        if name == symbol and off is not None:
            out[off] += n
    return out
