#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scalestat - scripts/bench --scale's report: the server's memory and
set-up cost per RDMA connection.

    scalestat.py DIR [--tsv FILE]

DIR is a `scripts/bench --scale` run's folder (build/bench): bench.env and
raw/ as the client guest left them (scripts/guest/bench-client.sh,
"Scale").  For each row (SERVER:CLIENT), number of connections N and
round, per connection:

    setup-server, setup-client   the instructions each guest executed
        from before the first mount to after the last of the N
        connections came up (under QEMU's -icount), / N
    idle, qd16   the server's MemTotal - MemAvailable with the N
        connections up and idle, or under 4 KiB random reads at queue
        depth 16 per connection, less the same before mounting, / N (KiB;
        each snapshot after sync and drop_caches)
    idle-slab, qd16-slab, idle-vmalloc, qd16-vmalloc   the same for
        SUnreclaim and VmallocUsed

A figure is unavailable, with the reason, when the guest said so
(UNAVAILABLE), when a file is missing, or when the server's RC QPs (one
per connection) were not exactly N after the set-up and at the
snapshot, or not 0 before mounting.  Each cell is the median over the
rounds with the lowest and highest round; the ratios rpcrdmax/stock are
of medians, with the range of the per-round ratios.
Documentation/performance.rst, "Scale: memory and set-up per
connection", says how to read it.
"""

import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchstat import Unavailable, ratio, report_args, row_dir, summary  # noqa: E402
from coststat import RunInfo, delta, parse_cost, run_pairs, si, unavailable_lines, write_cells  # noqa: E402

# metric, phase, source, unit, what: in report order.  source: a guest
# (set-up instructions) or a /proc/meminfo figure ("used" is MemTotal -
# MemAvailable): setup-server, setup-client, then idle, idle-slab,
# idle-vmalloc and the same for qd16
MEM_SOURCES = (("", "used", "MemTotal - MemAvailable"), ("-slab", "SUnreclaim", "unreclaimable slab"),
               ("-vmalloc", "VmallocUsed", "vmalloc"))
METRICS = tuple(("setup-" + end, "setup", end, "insn/conn", "set-up, %s guest" % end)
                for end in ("server", "client")) + tuple(
    (phase + suffix, phase, source, "KiB/conn", "server memory, %s: %s" % (label, what))
    for phase, label in (("idle", "idle"), ("qd16", "QD16 reads")) for suffix, source, what in MEM_SOURCES)


# ---- parsers ---------------------------------------------------------------

def parse_meminfo(text):
    """A snapshot of bench-server.sh's mem: ({field: kB}, RC QPs or None)."""
    fields, qps = {}, None
    for line in text.splitlines():
        f = line.replace(":", " ").split()
        try:
            if len(f) == 2 and f[0] == "rc_qps":
                qps = int(f[1])
            elif len(f) >= 2:
                fields[f[0]] = int(f[1])
        except ValueError:
            continue
    return fields, qps


def parse_qps(text):
    """scale-N.qps: {"setup": count, "after": count}."""
    out = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) == 2 and f[1].isdigit():
            out[f[0]] = int(f[1])
    return out


def mem_value(fields, source):
    """KiB of source in a snapshot: "used" is MemTotal - MemAvailable."""
    need = ("MemTotal", "MemAvailable") if source == "used" else (source,)
    for k in need:
        if k not in fields:
            raise Unavailable("the snapshot has no %s" % k)
    if source == "used":
        return fields["MemTotal"] - fields["MemAvailable"]
    return fields[source]


# ---- reading a run ---------------------------------------------------------

class Point:
    """One row, number of connections and round: its figures, or why not."""

    def __init__(self, d, n, una):
        self.d, self.n, self.una, self.tag = d, n, una, "scale-%d" % n

    def read(self, suffix, missing=None):
        try:
            with open(os.path.join(self.d, self.tag + suffix)) as f:
                return f.read()
        except OSError:
            raise Unavailable(missing or "no %s%s" % (self.tag, suffix))

    def said(self, phase):
        """The guest's reason for phase, or for the whole of N."""
        why = self.una.get("%s-%s" % (self.tag, phase)) or self.una.get(self.tag)
        if why:
            raise Unavailable(why)

    def setup(self, end):
        """Instructions per connection guest END executed for the set-up."""
        self.said("setup")
        marks = parse_cost(self.read(".cost"))["mark"]
        b, e = marks.get(("setup", "begin"), {}), marks.get(("setup", "end"), {})
        if not b or not e:
            raise Unavailable("no marks around the set-up")
        qps = parse_qps(self.read(".qps")).get("setup")
        if qps is None:
            raise Unavailable("no count of the server's RC QPs after the set-up")
        if qps != self.n:
            raise Unavailable("the server had %d RC QPs after the set-up, not %d" % (qps, self.n))
        return delta(b.get(end), e.get(end), "%s instruction count" % end) / float(self.n)

    def snapshot(self, phase, want):
        fields, qps = parse_meminfo(self.read(".%s.meminfo" % phase))
        if qps is None:
            raise Unavailable("the %s snapshot has no count of RC QPs" % phase)
        if qps != want:
            raise Unavailable("the server had %d RC QPs at the %s snapshot, not %d" % (qps, phase, want))
        return fields

    def mem(self, phase, source):
        """KiB per connection of source at phase (idle, qd16), less before."""
        self.said(phase)
        before = self.snapshot("before", 0)
        now = self.snapshot(phase, self.n)
        return (mem_value(now, source) - mem_value(before, source)) / float(self.n)

    def value(self, phase, source):
        return self.setup(source) if phase == "setup" else self.mem(phase, source)


class Run(RunInfo):
    """A scale run: values[(metric, row, n)] = {round: figure}."""

    def __init__(self, top):
        RunInfo.__init__(self, top)
        self.conns = [int(n) for n in self.env.get("BENCH_CONNS", "").split() if n.isdigit()]
        self.values, self.why = {}, {}
        self.after = []     # (round, row, n, RC QPs after unmounting or None)
        for r in range(1, self.rounds + 1):
            for row in self.combos:
                d = os.path.join(self.raw, "r%d" % r, row_dir(row))
                una = unavailable_lines(d) if os.path.isdir(d) else None
                for n in self.conns:
                    self._point(r, row, n, d, una)

    def _point(self, r, row, n, d, una):
        p = Point(d, n, una or {})
        for metric, phase, source, _u, _w in METRICS:
            key = (metric, row, n)
            if una is None:
                self.why.setdefault(key, set()).add("round %d never ran" % r)
                continue
            try:
                self.values.setdefault(key, {})[r] = p.value(phase, source)
            except Unavailable as e:
                self.why.setdefault(key, set()).add(str(e))
            except (OSError, KeyError, TypeError, ValueError, ZeroDivisionError) as e:
                self.why.setdefault(key, set()).add("%s: %s" % (type(e).__name__, e))
        if una is not None:
            try:
                self.after.append((r, row, n, parse_qps(p.read(".qps")).get("after")))
            except Unavailable:
                self.after.append((r, row, n, None))

    def get(self, metric, row, n):
        return self.values.get((metric, row, n), {})

    def reason(self, key):
        return "; ".join(sorted(self.why.get(key, ()))) or "no value"


# ---- printing --------------------------------------------------------------

def fmt(v, unit):
    return si(v) if unit.startswith("insn") else "%.1f" % v


def cell(vals, unit):
    med, lo, hi = summary(vals)
    return "%-8s [%s %s]" % (fmt(med, unit), fmt(lo, unit), fmt(hi, unit))


def ratio_text(run, metric, unit, base, new, n):
    """"0.950 [0.940-0.960]" (and "above stock" over 1.000 as printed), or
    unavailable: why."""
    b, v = run.get(metric, base, n), run.get(metric, new, n)
    for row, vals in ((base, b), (new, v)):
        if not vals:
            return "unavailable: no %s figure (%s)" % (row, run.reason((metric, row, n)))
    mb, mv = statistics.median(b.values()), statistics.median(v.values())
    if mb <= 0 or mv < 0:
        return "unavailable: medians %s (%s) and %s (%s): at or below 0 is noise, not a size" % (
            fmt(mb, unit), base, fmt(mv, unit), new)
    rr = ratio(b, v)
    if rr is None:
        return "unavailable: no round with both figures"
    # "above stock" as printed: a ratio that shows as 1.000 is level
    return "%.3f [%.3f-%.3f]%s" % (rr[0], rr[1], rr[2], "  above stock" if round(rr[0], 3) > 1 else "")


def report(run, out):
    p = lambda s="": out.write(s + "\n")
    p("scale: %d round(s); rows %s; connections %s; guests under QEMU -icount (suite %s)"
      % (run.rounds, " ".join(run.combos), " ".join(map(str, run.conns)), run.env.get("BENCH_SUITE", "?")))
    p("scale: NFSv3 over RDMA, nconnect up to 16 per server address (above 16: the server's"
      " aliases); the server's RC QPs must be N after the set-up and at each snapshot, 0 before")
    for o in run.order:
        p("scale: round %s order: %s" % (o[0], " ".join(o[1:])))
    if not run.complete:
        p("scale: the client guest did not finish: what is missing prints as unavailable")
    p("scale: each cell: per connection, median over the rounds [lowest highest round]; memory:"
      " the server guest's, after sync and drop_caches, less the same before mounting, in KiB")
    for metric, _ph, _src, unit, what in METRICS:
        p("scale: %s - %s (%s)" % (metric, what, unit))
        for n in run.conns:
            for row in run.combos:
                vals = run.get(metric, row, n)
                if vals:
                    short = ""
                    if len(vals) < run.rounds:
                        short = "  (%d of %d rounds; %s)" % (len(vals), run.rounds, run.reason((metric, row, n)))
                    p("scale:   N=%-3d %-20s %s%s" % (n, row, cell(list(vals.values()), unit), short))
                else:
                    p("scale:   N=%-3d %-20s unavailable: %s" % (n, row, run.reason((metric, row, n))))
    p("scale: ratios rpcrdmax/stock per connection: ratio of medians [range of the per-round"
      " ratios]; the requirement is at most 1")
    for what, base, new in run_pairs(run.combos):
        p("scale: ratio %s: %s / %s" % (what, new, base))
        for metric, _ph, _src, unit, _what in METRICS:
            for n in run.conns:
                p("scale:   %-13s N=%-3d %s" % (metric, n, ratio_text(run, metric, unit, base, new, n)))
    left = ["r%d %s N=%d: %s" % (r, row, n, "no count" if q is None else q)
            for r, row, n, q in run.after if q != 0]
    p("scale: check: the server's RC QPs once everything was unmounted: %s"
      % ("; ".join(left) if left else "0 every time" if run.after else "no count"))


def write_tsv(run, path):
    """metric n row median min max rounds."""
    write_cells(path, (((metric, n, row), run.get(metric, row, n))
                       for metric, _p, _s, _u, _w in METRICS for n in run.conns for row in run.combos))


def main(argv):
    got = report_args(argv[1:], "scalestat", __doc__, ("--tsv",))
    if got is None:
        return 2
    d, opts = got
    run = Run(d)
    report(run, sys.stdout)
    write_tsv(run, opts.get("--tsv") or os.path.join(d, "summary-scale.tsv"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
