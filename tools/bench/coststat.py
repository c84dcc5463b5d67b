#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""coststat - the cost meter's report: instructions per operation.

    coststat.py DIR [--tsv FILE] [--top N]
    coststat.py DIR --blocks SYMBOL  inside SYMBOL of an --exact run: its
                                     costliest blocks by offset
    coststat.py DIR --lines SYMBOL   the same by source line and by
                                     function, inlined ones included
                                     (DIR/rpcrdmax.ko's debug information)
    coststat.py --metrics            every metric and end, one per line

Writes the figures to FILE (DIR/summary-cost.tsv) as well; an --exact
run's kernel and transport module figures to DIR/summary-exact.tsv.

DIR is a `scripts/bench --cost` run's folder (build/bench): bench.env and
raw/ as the client guest left them (scripts/guest/bench-client.sh, "Cost
per operation").  The guests ran under QEMU's -icount, and around each
job's null run (one operation) and full run the host read every guest's
count of executed instructions (tools/bench/icountd.py).  A figure is

    (instructions in the full run - instructions in the null run)
    / (operations in the full run - operations in the null run)

for each end (the client guest, the server guest): what one more
operation costs the whole guest, with fio's (or perl's) start-up and the
marks' own cost left out.  Sequential jobs count MiB, readdir counts
listings of its directory.  Each cell is the median over the rounds and
the spread: the lowest and highest round as a percentage of the median.
Documentation/performance.rst, "Cost per operation", says how to read it.
"""

import collections
import os
import pathlib
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchstat import Unavailable, parse_fio, ratio, read_env, report_args, row_dir, summary  # noqa: E402
from perfsum import IDLE, module_of  # noqa: E402
import pcsum  # noqa: E402

MIB = 1 << 20
ENDS = ("client", "server")
# metric, job, unit, what: in report order
METRICS = (
    ("rand-read-qd1", "rand-read-qd1", "insn/op", "4 KiB random read, queue depth 1"),
    ("rand-read-qd16", "rand-read", "insn/op", "4 KiB random read, queue depth 16"),
    ("seq-read", "seq-read", "insn/MiB", "1 MiB sequential read, per MiB"),
    ("seq-write", "seq-write", "insn/MiB", "1 MiB sequential write, per MiB"),
    ("stat", "meta-stat", "insn/op", "stat of a small file (actimeo=0: a GETATTR)"),
    ("create", "meta-create", "insn/op", "create of a small file"),
    ("unlink", "meta-unlink", "insn/op", "unlink of a small file"),
    ("readdir-500", "readdir", "insn/listing", "listing of a 500-entry directory, cache dropped"),
)
JOB_METRIC = {m[1]: m for m in METRICS}
SPREAD_GOAL = 3.0  # percent: three repeats should agree within this
# every metric moves at least one RPC per two operations (seq per MiB: one
# READ or WRITE of 1 MiB; stat a GETATTR): below that the client answered
# from its caches (7.3's stat under a delegation) and the figure is two
# runs' noise, not a transport's cost
MIN_RPCS_PER_OP = 0.5
TRANSPORTS = ("rpcrdma", "rpcrdmax")
PAIRS = (("client", "stock:stock", "stock:rpcrdmax"),
         ("server", "stock:stock", "rpcrdmax:stock"),
         ("both", "stock:stock", "rpcrdmax:rpcrdmax"),
         ("v2", "rpcrdmax:rpcrdmax-v1", "rpcrdmax:rpcrdmax"))


def run_pairs(combos):
    """The PAIRS whose two combos are both among combos."""
    return [(what, base, new) for what, base, new in PAIRS if base in combos and new in combos]


# ---- parsers ---------------------------------------------------------------

def parse_cost(text):
    """JOB.cost: marks, snaps and RPC counts by run and phase.

    Returns {"mark": {(run, phase): {name: int}},
             "snap": {(run, phase, end): (source, ncpu, now_ns, idle_ns)},
             "rpcs": {(run, phase): {op: int}}}.
    """
    out = {"mark": {}, "snap": {}, "rpcs": {}}
    for line in text.splitlines():
        f = line.split()
        if len(f) < 5 or f[2] not in ("begin", "end"):
            continue
        key = (f[1], f[2])
        try:
            if f[0] == "mark" and len(f) == 5:
                out["mark"].setdefault(key, {})[f[3]] = int(f[4])
            elif f[0] == "snap" and len(f) == 8:
                out["snap"][key + (f[3],)] = (f[4], int(f[5]), int(f[6]), int(f[7]))
            elif f[0] == "rpcs" and len(f) == 5:
                out["rpcs"].setdefault(key, {})[f[3]] = int(f[4])
        except ValueError:
            continue
    return out


def parse_readdir(text):
    """readdir's line: {"ops": listings, "entries": entries per listing}."""
    m = re.search(r"^listings (\d+) entries (\d+)$", text, re.M)
    if not m:
        raise Unavailable("no 'listings N entries M' line from readdir")
    return {"ops": int(m.group(1)), "entries": int(m.group(2))}


def job_ops(job, text, dirents=None):
    """Operations a run did: fio's I/O count (MiB moved for the sequential
    jobs) or readdir's listings, each of dirents entries (and . and ..)
    when dirents is given."""
    if job == "readdir":
        res = parse_readdir(text)
        if dirents is not None and res["entries"] != dirents + 2:
            raise Unavailable("the directory listed %d entries, not %d" % (res["entries"], dirents + 2))
        return res["ops"]
    res = parse_fio(text)
    if job.startswith("seq-"):
        return res["bytes"] / float(MIB)
    return res["ops"]


PERF_LINE = re.compile(r"^\s*([0-9.]+)%\s+(\d+)\s+\[([k.])\]\s+(.*\S)\s*$")


def parse_perf(text):
    """`perf report -n --sort sym`: [(samples, symbol, user)]."""
    rows = []
    for line in text.splitlines():
        m = PERF_LINE.match(line)
        if m:
            rows.append((int(m.group(2)), m.group(4), m.group(3) == "."))
    if not rows:
        raise Unavailable("no sample counts in the perf report (perf report -n)")
    return rows


def parse_calls(text):
    """JOB.calls-END.txt (lib.sh calls_stop): ({(function, caller): calls},
    lost events, {the module's functions})."""
    calls, lost, module = collections.Counter(), None, set()
    for line in text.splitlines():
        f = line.split()
        if len(f) == 2 and f[0] == "lost" and f[1].isdigit():
            lost = int(f[1])
        elif len(f) == 2 and f[0] == "module":
            module.add(f[1])
        elif len(f) == 3 and f[0].isdigit():
            calls[(f[1], f[2])] += int(f[0])
    if lost is None:
        raise Unavailable("the call counts end without their 'lost N' line")
    if not module:
        raise Unavailable("the call counts name no function of the module")
    return calls, lost, module


def parse_boundary(text):
    """boundary.list (scripts/bench): {function: "c", "c++" or "upcall"}:
    the language of the object that defines each function the shim header
    declares, and the C functions that call C++ through a pointer."""
    return {f[0]: f[1] for f in (l.split() for l in text.splitlines()) if len(f) == 2}


def side(fn, lang, module):
    """Which code fn is: "c++" (rpcrdmax's: a mangled name, or one the
    boundary map names c++), "c" (rpcrdmax's C shims) or "kernel"."""
    if fn not in module:
        return "kernel"
    return "c++" if fn.startswith("_Z") or lang.get(fn) == "c++" else "c"


def crossing(callee, caller, lang, module):
    """Whether a call of callee from caller goes between rpcrdmax's C and
    its C++ (not a call from or into the rest of the kernel).  A call of
    an upcall stands for the call it makes, into C++, whoever calls it."""
    if lang.get(callee) == "upcall":
        return True
    return {side(callee, lang, module), side(caller, lang, module)} == {"c", "c++"}


def delta(a, b, what):
    if a is None or b is None:
        raise Unavailable("no %s" % what)
    if b < a:
        raise Unavailable("%s went backwards" % what)
    return b - a


# ---- reading a run ---------------------------------------------------------

class Job:
    """One job of one row in one round: its counts, or why they are missing."""

    def __init__(self, d, job, una, dirents=None):
        self.d, self.job, self.una, self.dirents = d, job, una, dirents
        self.ext = "out" if job == "readdir" else "json"
        self._cost = None

    def read(self, name, missing):
        try:
            with open(os.path.join(self.d, name)) as f:
                return f.read()
        except OSError:
            raise Unavailable(missing)

    def why(self, *keys):
        for k in keys:
            if k in self.una:
                return self.una[k]
        return None

    def cost(self):
        if self._cost is None:
            why = self.why(self.job + "-cost", self.job)
            try:
                self._cost = parse_cost(self.read(self.job + ".cost", why or "no counts for " + self.job))
            except Unavailable as e:
                self._cost = e
        if isinstance(self._cost, Unavailable):
            raise self._cost
        return self._cost

    def ops(self, run):
        name = {"full": "%s.%s", "null": "%s.null.%s", "perf": "%s.perf.%s",
                "calls": "%s.calls.%s"}[run] % (self.job, self.ext)
        why = self.why(self.job) if run in ("full", "null") else None
        return job_ops(self.job, self.read(name, why or "no output from %s's %s run" % (self.job, run)),
                       self.dirents)

    def insn(self, run, end):
        """Instructions guest END executed during RUN."""
        marks = self.cost()["mark"]
        b, e = marks.get((run, "begin"), {}), marks.get((run, "end"), {})
        if not b or not e:
            raise Unavailable(self.why(self.job + "-cost") or "no marks around the %s run" % run)
        return delta(b.get(end), e.get(end), "%s instruction count (%s run)" % (end, run))

    def seq(self, run, phase):
        """The number of RUN's PHASE mark (icountd's "seq" line)."""
        v = self.cost()["mark"].get((run, phase), {}).get("seq")
        if v is None:
            raise Unavailable("no mark number around the %s run (not an --exact run)" % run)
        return v

    def exact(self, end, dumps):
        """The guest kernel's instructions per op by (symbol, module), full
        run less null run, from the count by address (--exact)."""
        return self.exact_by(end, dumps, pcsum.by_symbol)

    def exact_by(self, end, dumps, group, *extra):
        """exact(), the counts grouped by GROUP(counts, symbols, *EXTRA)."""
        full, null = self.ops("full"), self.ops("null")
        if full <= null:
            raise Unavailable("the full run did no more operations than the null run")
        syms = pcsum.Symbols(self.read("kallsyms-" + end, self.why("exact-" + end) or
                                       "no kallsyms-%s saved in the row" % end))
        f, fo = dumps.window(end, self.seq("full", "begin"), self.seq("full", "end"))
        n, no = dumps.window(end, self.seq("null", "begin"), self.seq("null", "end"))
        if fo or no:
            raise Unavailable("the plugin ran out of counters (%d instructions in its overflow)" % (fo + no))
        out = collections.Counter()
        for key, v in group(f, syms, *extra).items():
            out[key] += v / (full - null)
        for key, v in group(n, syms, *extra).items():
            out[key] -= v / (full - null)
        return out

    def host_ns(self, run):
        marks = self.cost()["mark"]
        return delta(marks.get((run, "begin"), {}).get("host"),
                     marks.get((run, "end"), {}).get("host"), "host clock")

    def per_op(self, end):
        full, null = self.ops("full"), self.ops("null")
        if full <= null:
            raise Unavailable("the full run did no more operations than the null run")
        rp = self.cost()["rpcs"]
        if ("full", "begin") in rp and ("full", "end") in rp:
            # the full run's own RPCs per op: the net of two runs can
            # cancel to nothing in a tiny run (a GETATTR more in the null
            # run than in the full one)
            n = self.rpcs("full") / float(full)
            if n < MIN_RPCS_PER_OP:
                raise Unavailable("the client sent %.2f RPCs per op (answered from its caches):"
                                  " no transport cost to measure" % n)
        return (self.insn("full", end) - self.insn("null", end)) / (full - null)

    def fixed(self, end):
        """Instructions of a run that do not grow with its operations."""
        return self.insn("null", end) - self.per_op(end) * self.ops("null")

    def busy_ratio(self, end):
        """(guest's own busy ns over the full run) / (its instructions), and
        the guest's source for it."""
        snaps = self.cost()["snap"]
        b, e = snaps.get(("full", "begin", end)), snaps.get(("full", "end", end))
        if not b or not e:
            raise Unavailable("no %s busy snapshots" % end)
        if b[0] != e[0] or b[1] != e[1]:
            raise Unavailable("%s busy snapshots disagree on source or CPUs" % end)
        busy = b[1] * delta(b[2], e[2], "clock") - delta(b[3], e[3], "idle time")
        n = self.insn("full", end)
        if n <= 0:
            raise Unavailable("no instructions counted")
        return busy / float(n), b[0]

    def rpcs(self, run):
        """RPCs the client sent during RUN (its mountstats)."""
        rp = self.cost()["rpcs"]
        b, e = rp.get((run, "begin")), rp.get((run, "end"))
        if b is None or e is None:
            raise Unavailable("no RPC counts around the %s run" % run)
        return sum(e.values()) - sum(b.values())

    def rpcs_per_op(self):
        """{op: RPCs per operation} (the client's mountstats), and the total."""
        rp = self.cost()["rpcs"]
        full, null = self.ops("full"), self.ops("null")
        if full <= null:
            raise Unavailable("the full run did no more operations than the null run")
        out = {}
        for op in set().union(*[rp.get((r, p), {}) for r in ("null", "full") for p in ("begin", "end")]):
            n = ((rp.get(("full", "end"), {}).get(op, 0) - rp.get(("full", "begin"), {}).get(op, 0))
                 - (rp.get(("null", "end"), {}).get(op, 0) - rp.get(("null", "begin"), {}).get(op, 0)))
            if n:
                out[op] = n / float(full - null)
        return out


def unavailable_lines(d):
    out = {}
    try:
        with open(os.path.join(d, "UNAVAILABLE")) as f:
            for line in f:
                p = line.rstrip("\n").split(" ", 1)
                if p[0] and p[0] not in out:
                    out[p[0]] = p[1] if len(p) > 1 else "unavailable"
    except OSError:
        pass
    return out


class RunInfo:
    """What a cost or scale run's report starts from: bench.env, its combos
    and rounds, each round's order of rows (raw/order), and whether the
    client guest finished (raw/complete)."""

    def __init__(self, top):
        self.top = top
        self.env = read_env(os.path.join(top, "bench.env"))
        self.combos = self.env.get("BENCH_COMBOS", "").split()
        self.rounds = int(self.env.get("BENCH_ROUNDS", "1") or 1)
        self.raw = os.path.join(top, "raw")
        try:
            with open(os.path.join(self.raw, "order")) as f:
                self.order = [l.split() for l in f if l.strip()]
        except OSError:
            self.order = []
        self.complete = os.path.exists(os.path.join(self.raw, "complete"))


class Run(RunInfo):
    """A cost run: values[(metric, end, row)] = {round: instructions per op}."""

    def __init__(self, top):
        RunInfo.__init__(self, top)
        self.period = int(self.env.get("BENCH_PERF_PERIOD", "0") or 0)
        self.dirents = int(self.env["BENCH_DIRENTS"]) if self.env.get("BENCH_DIRENTS") else None
        self.values, self.why = {}, {}
        self.rpcs = {}      # (metric, row) -> {round: {op: per op}}
        self.checks = {}    # (metric, end) -> [(ratio, source)]
        self.fixed = {}     # (metric, end) -> [instructions]
        self.speed = {}     # end -> [instructions per host second]
        self.jobs = {}      # (round, row, job) -> Job
        self.exact = None   # exact_values(), once computed
        for r in range(1, self.rounds + 1):
            for row in self.combos:
                self._row(r, row, os.path.join(self.raw, "r%d" % r, row_dir(row)))

    def _note(self, key, r, fn, store):
        try:
            v = fn()
        except Unavailable as e:
            self.why.setdefault(key, set()).add(str(e))
            return
        except (OSError, KeyError, TypeError, ValueError, ZeroDivisionError) as e:
            self.why.setdefault(key, set()).add("%s: %s" % (type(e).__name__, e))
            return
        store.setdefault(key, {})[r] = v

    def _row(self, r, row, d):
        if not os.path.isdir(d):
            for m in METRICS:
                for end in ENDS:
                    self.why.setdefault((m[0], end, row), set()).add("round %d never ran" % r)
            return
        una = unavailable_lines(d)
        for metric, job, _u, _w in METRICS:
            j = Job(d, job, una, self.dirents)
            self.jobs[(r, row, job)] = j
            for end in ENDS:
                self._note((metric, end, row), r, lambda end=end: j.per_op(end), self.values)
                try:
                    self.checks.setdefault((metric, end), []).append(j.busy_ratio(end))
                except (Unavailable, ZeroDivisionError):
                    pass
                try:
                    self.fixed.setdefault((metric, end), []).append(j.fixed(end))
                except (Unavailable, ZeroDivisionError):
                    pass
                try:
                    self.speed.setdefault(end, []).append(j.insn("full", end) / (j.host_ns("full") / 1e9))
                except (Unavailable, ZeroDivisionError):
                    pass
            self._note((metric, row), r, j.rpcs_per_op, self.rpcs)

    def get(self, metric, end, row):
        return self.values.get((metric, end, row), {})

    def reason(self, key):
        return "; ".join(sorted(self.why.get(key, ()))) or "no value"


# ---- printing --------------------------------------------------------------

def si(v):
    """An instruction count, 4 significant digits: 412.3k, 23.45M."""
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= div:
            v /= div
            break
    else:
        suffix = ""
    return ("%.4g" % v) + suffix


def spread(vals):
    """(median, low %, high %): the extreme rounds against the median."""
    med, lo, hi = summary(vals)
    if med == 0:
        return med, 0.0, 0.0
    return med, (lo / med - 1) * 100, (hi / med - 1) * 100


def spread_text(vals):
    """"[-0.4% +0.3%]", and " !" when beyond the goal; "(1 round)"."""
    if len(vals) == 1:
        return "(1 round)"
    _med, lo, hi = spread(vals)
    return "[%+.1f%% %+.1f%%]%s" % (lo, hi, " !" if max(-lo, hi) > SPREAD_GOAL else "")


def cell(vals):
    return "%-8s %s" % (si(statistics.median(vals)), spread_text(vals))


def rpc_text(per_round):
    """Median RPCs per operation over the rounds: total and the ops."""
    if not per_round:
        return ""
    ops = collections.defaultdict(list)
    for rp in per_round.values():
        for op, n in rp.items():
            ops[op].append(n)
    med = {op: statistics.median(v + [0.0] * (len(per_round) - len(v))) for op, v in ops.items()}
    med = {op: n for op, n in med.items() if n >= 0.005}
    top = sorted(med.items(), key=lambda x: -x[1])[:4]
    return "RPCs/op %.2f (%s)" % (sum(med.values()), " ".join("%s %.2f" % t for t in top))


def report(run, out, top=20):
    p = lambda s="": out.write(s + "\n")
    e = run.env
    p("cost: %d round(s); guests under QEMU -icount shift=0: one instruction is one ns of"
      " guest time (suite %s)" % (run.rounds, e.get("BENCH_SUITE", "?")))
    p("cost: per run: %s 4 KiB reads, %s MiB, %s files, %s listings of %s entries; NFSv%s%s"
      % (e.get("BENCH_OPS", "?"), e.get("BENCH_MIB", "?"), e.get("BENCH_FILES", "?"),
         e.get("BENCH_LISTINGS", "?"), e.get("BENCH_DIRENTS", "?"), e.get("BENCH_VERS", "4.2"),
         "; inline sizes %s (--inline)" % e["BENCH_INLINE"] if e.get("BENCH_INLINE") else ""))
    for o in run.order:
        p("cost: round %s order: %s" % (o[0], " ".join(o[1:])))
    if not run.complete:
        p("cost: the client guest did not finish: what is missing prints as unavailable")
    p("cost: each cell: instructions per operation of the whole guest at that end, net of a"
      " one-operation run; median over the rounds [lowest and highest round against it];"
      " ! marks a spread beyond +-%g%%" % SPREAD_GOAL)
    for metric, job, unit, what in METRICS:
        p("cost: %s - %s (%s)" % (metric, what, unit))
        for end in ENDS:
            for row in run.combos:
                vals = run.get(metric, end, row)
                if not vals:
                    p("cost:   %-6s %-20s unavailable: %s" % (end, row, run.reason((metric, end, row))))
                    continue
                extra = ""
                if end == "client":
                    extra = "  " + rpc_text(run.rpcs.get((metric, row), {}))
                p("cost:   %-6s %-20s %s%s" % (end, row, cell(list(vals.values())), extra))
    p("cost: ratios rpcrdmax/stock of instructions per op: ratio of medians [range of the"
      " per-round ratios]; below 1 costs less")
    for what, base, new in run_pairs(run.combos):
        p("cost: ratio %s: %s / %s" % (what, new, base))
        p("cost:   %-16s %-24s %s" % ("metric", "client end", "server end"))
        for metric, _j, _u, _w in METRICS:
            cells = []
            for end in ENDS:
                rr = ratio(run.get(metric, end, base), run.get(metric, end, new))
                cells.append("unavailable" if rr is None else "%.3f [%.3f-%.3f]" % rr[:3])
            p("cost:   %-16s %-24s %s" % (metric, cells[0], cells[1]))
    checks(run, p)
    exact(run, p, top)
    profiles(run, p, top)
    crossings(run, p)


def checks(run, p):
    p("cost: check: each guest's own busy time over its instruction count, full runs, all"
      " rows and rounds: about 1 where the kernel counts idle time exactly (timer_list);"
      " below 1 where interrupts taken in idle count as idle (proc_stat, 7.x)")
    for metric, _j, _u, _w in METRICS:
        cells = []
        for end in ENDS:
            v = run.checks.get((metric, end), [])
            if not v:
                cells.append("%s unavailable" % end)
                continue
            med, lo, hi = summary([x[0] for x in v])
            cells.append("%s %.3f [%.3f-%.3f] %s" % (end, med, lo, hi, "/".join(sorted({x[1] for x in v}))))
        p("cost:   %-16s %s" % (metric, "   ".join(cells)))
    p("cost: check: instructions of a run that do not grow with its operations (fio's or"
      " perl's start-up, the marks), median; subtracted from every figure above")
    for metric, _j, _u, _w in METRICS:
        cells = []
        for end in ENDS:
            v = run.fixed.get((metric, end), [])
            cells.append("%s %s" % (end, si(statistics.median(v)) if v else "unavailable"))
        p("cost:   %-16s %s" % (metric, "   ".join(cells)))
    sp = ["%s %s/s" % (end, si(statistics.median(run.speed[end]))) for end in ENDS if run.speed.get(end)]
    if sp:
        p("cost: check: QEMU ran the guests at (instructions per host second, median of full"
          " runs): %s" % ", ".join(sp))


# ---- profiles --------------------------------------------------------------

def transport_of(row, end):
    word = row.split(":")[0 if end == "server" else 1]
    return "rpcrdmax" if word.startswith("rpcrdmax") else "rpcrdma"


def profile(job, end):
    """Instructions per op by symbol and by module in one profile run:
    (ops, {(symbol, module): instructions}, busy instructions)."""
    rows = parse_perf(job.read("%s.perf-%s.txt" % (job.job, end),
                               job.why("%s-perf-%s" % (job.job, end)) or "no %s profile" % end))
    ks = os.path.join(job.d, "%s.perf-%s.kallsyms" % (job.job, end))
    mods = module_of(pathlib.Path(ks)) if os.path.exists(ks) else {}
    ops = job.ops("perf")
    if ops <= 0:
        raise Unavailable("the profile run did no operations")
    by_sym = collections.Counter()
    for n, sym, user in rows:
        if sym in IDLE:
            continue
        by_sym[(sym, "user" if user else mods.get(sym, "kernel"))] += n
    return ops, by_sym


def profiles(run, p, top):
    jobs = sorted({j for (_r, _row, j), jb in run.jobs.items()
                   if any(os.path.exists(os.path.join(jb.d, "%s.perf-%s.txt" % (j, e))) for e in ENDS)},
                  key=lambda j: [m[1] for m in METRICS].index(j))
    if not jobs:
        return
    P = run.period
    if P <= 0:
        p("cost: profiles: unavailable: bench.env has no BENCH_PERF_PERIOD")
        return
    for jname in jobs:
        metric = JOB_METRIC[jname][0]
        p("cost: profile %s: an extra run of the same size under perf record -e cpu-clock -c %d"
          " (one sample every %d instructions while the vCPU runs); instructions per op ="
          " samples x %d / ops, pooled over the rounds" % (metric, P, P, P))
        for row in run.combos:
            for end in ENDS:
                pooled, ops_sum, per_round, counted = collections.Counter(), 0, [], []
                why = set()
                for r in range(1, run.rounds + 1):
                    jb = run.jobs.get((r, row, jname))
                    if jb is None:
                        continue
                    try:
                        ops, by_sym = profile(jb, end)
                    except (Unavailable, OSError, ValueError) as e:
                        why.add(str(e))
                        continue
                    pooled.update(by_sym)
                    ops_sum += ops
                    tr = transport_of(row, end)
                    per_round.append(sum(n for (s, m), n in by_sym.items() if m == tr) * P / ops)
                    try:
                        counted.append((jb.insn("perf", end) - jb.fixed(end)) / ops)
                    except (Unavailable, ZeroDivisionError):
                        pass
                if not pooled:
                    p("cost:   %s %s: unavailable: %s" % (end, row, "; ".join(sorted(why)) or "no profile"))
                    continue
                busy = sum(pooled.values()) * P / ops_sum
                by_mod = collections.Counter()
                for (_s, m), n in pooled.items():
                    by_mod[m] += n * P / ops_sum
                tr = transport_of(row, end)
                p("cost:   %s %s: whole guest %s insn/op from the samples (%s counted in the"
                  " same runs, perf's own cost included); transport module %s %s insn/op"
                  " (%.1f%% of the guest), per round %s"
                  % (end, row, si(busy), si(statistics.median(counted)) if counted else "?",
                     tr, si(by_mod.get(tr, 0.0)), 100.0 * by_mod.get(tr, 0.0) / busy if busy else 0.0,
                     spread_text(per_round) if per_round else "?"))
                p("cost:     by module: " + ", ".join("%s %s" % (m, si(v)) for m, v in by_mod.most_common(10)))
                p("cost:     top %d symbols (insn/op, share of the guest, module):" % top)
                for (sym, mod), n in pooled.most_common(top):
                    v = n * P / ops_sum
                    p("cost:       %9s %5.1f%%  %s [%s]" % (si(v), 100.0 * v / busy, sym, mod))
                mine = collections.Counter({s: n for (s, m), n in pooled.items() if m == tr})
                if mine:
                    total = sum(mine.values())
                    p("cost:     top %d symbols of %s (insn/op, share of the module):" % (top, tr))
                    for sym, n in mine.most_common(top):
                        p("cost:       %9s %5.1f%%  %s" % (si(n * P / ops_sum), 100.0 * n / total, sym))


EXACT_SYMBOLS = ("rand-read-qd1", "stat", "seq-read")  # metrics whose top symbols are listed


def exact_values(run):
    """{(metric, end, row): {round: Counter((symbol, module) -> insn/op)}}
    and why the missing ones are, from an --exact run's counts by address
    (computed once per run)."""
    if run.exact is not None:
        return run.exact
    dumps = pcsum.Dumps(run.top)
    vals, why = {}, {}
    for (r, row, job), jb in run.jobs.items():
        metric = JOB_METRIC[job][0]
        for end in ENDS:
            try:
                vals.setdefault((metric, end, row), {})[r] = jb.exact(end, dumps)
            except (Unavailable, OSError, ValueError, ZeroDivisionError) as e:
                why.setdefault((metric, end, row), set()).add(str(e))
    run.exact = (vals, why)
    return run.exact


def kernel_and_module(per_round, tr):
    """From {round: Counter((symbol, module) -> insn/op)}: {round: the
    kernel's instructions per op} and {round: transport module TR's}."""
    return ({r: sum(c.values()) for r, c in per_round.items()},
            {r: sum(v for (_s, m), v in c.items() if m == tr) for r, c in per_round.items()})


def exact_modules(run):
    """[((metric, end, row, what), {round: insn/op})]: the kernel's
    instructions per op ("kernel": all of it) and the row's transport
    module's at that end, from an --exact run."""
    vals, _why = exact_values(run)
    out = []
    for metric, _j, _u, _w in METRICS:
        for end in ENDS:
            for row in run.combos:
                tr = transport_of(row, end)
                kern, mod = kernel_and_module(vals.get((metric, end, row), {}), tr)
                out.append(((metric, end, row, "kernel"), kern))
                out.append(((metric, end, row, tr), mod))
    return out


def exact(run, p, top):
    """The --exact section: each end's kernel instructions per op by module
    and, for EXACT_SYMBOLS, by symbol; the transports' ratios."""
    if run.env.get("BENCH_EXACT") != "1":
        return
    vals, why = exact_values(run)
    p("cost: exact: the guest kernel's instructions per op by module and symbol, counted by"
      " block address (QEMU plugin tools/bench/pccount.c), full run less null run as above;"
      " median over the rounds [lowest highest]; user space is not counted here")
    module_of_row = {}
    for metric, _j, unit, _w in METRICS:
        p("cost: exact %s (%s)" % (metric, unit))
        for end in ENDS:
            for row in run.combos:
                per_round = {r: c for r, c in vals.get((metric, end, row), {}).items()}
                if not per_round:
                    p("cost:   %-6s %-20s unavailable: %s" % (end, row, "; ".join(sorted(
                        why.get((metric, end, row), ()))) or "no value"))
                    continue
                tr = transport_of(row, end)
                kern, mod = kernel_and_module(per_round, tr)
                module_of_row[(metric, end, row)] = mod
                whole = run.get(metric, end, row)
                share = ""
                if whole:
                    share = " (%.1f%% of the whole guest's %s)" % (
                        100.0 * statistics.median(kern.values()) / statistics.median(whole.values()),
                        si(statistics.median(whole.values())))
                p("cost:   %-6s %-20s kernel %s%s; %s %s" % (
                    end, row, cell(list(kern.values())), share, tr, cell(list(mod.values()))))
                mean = collections.Counter()
                for c in per_round.values():
                    for k, v in c.items():
                        mean[k] += v / len(per_round)
                by_mod = collections.Counter()
                for (_s, m), v in mean.items():
                    by_mod[m] += v
                p("cost:     by module: " + ", ".join("%s %s" % (m, si(v)) for m, v in by_mod.most_common(10)))
                if metric not in EXACT_SYMBOLS:
                    continue
                p("cost:     top %d symbols of %s (insn/op, mean over the rounds):" % (top, tr))
                # what the null run cancels (below half an instruction per
                # op either way) is not listed
                shown = [(k, v) for k, v in mean.most_common() if abs(v) >= 0.5]
                for (sym, m), v in [(k, v) for k, v in shown if k[1] == tr][:top]:
                    p("cost:       %9s  %s" % (si(v), sym))
                p("cost:     top %d symbols of the kernel (insn/op, module):" % top)
                for (sym, m), v in shown[:top]:
                    p("cost:       %9s  %s [%s]" % (si(v), sym, m))
    p("cost: exact: ratios of the transport module's own instructions per op at each end"
      " (rpcrdmax.ko or rpcrdma.ko, whichever the row runs there) [range of the per-round"
      " ratios]")
    for what, base, new in run_pairs(run.combos):
        p("cost: exact ratio %s: %s / %s" % (what, new, base))
        for metric, _j, _u, _w in METRICS:
            cells = []
            for end in ENDS:
                rr = ratio(module_of_row.get((metric, end, base), {}),
                           module_of_row.get((metric, end, new), {}))
                cells.append("unavailable" if rr is None else "%.3f [%.3f-%.3f]" % rr[:3])
            p("cost:   %-16s client %-24s server %s" % (metric, cells[0], cells[1]))


def block_means(run, symbol):
    """(metric, end, row, rounds, {offset in SYMBOL: instructions per op,
    the mean over the rounds}) for each EXACT_SYMBOLS metric, end and row
    where SYMBOL ran."""
    dumps = pcsum.Dumps(run.top)
    for metric in EXACT_SYMBOLS:
        for end in ENDS:
            for row in run.combos:
                per_round = []
                for (r, rw, job), jb in sorted(run.jobs.items()):
                    if rw != row or JOB_METRIC[job][0] != metric:
                        continue
                    try:
                        per_round.append(jb.exact_by(end, dumps, pcsum.by_block, symbol))
                    except (Unavailable, OSError, ValueError, ZeroDivisionError):
                        continue
                mean = collections.Counter()
                for c in per_round:
                    for off, v in c.items():
                        mean[off] += v / len(per_round)
                if any(abs(v) >= 0.5 for v in mean.values()):
                    yield metric, end, row, len(per_round), mean


def blocks(run, p, symbol, top=40):
    """--blocks SYMBOL: inside one symbol (a hot entry that runs as one
    function), its costliest translation blocks by offset, for the
    EXACT_SYMBOLS metrics at each end and row where it runs; read them
    against `objdump -d` of the module at that symbol."""
    for metric, end, row, rounds, mean in block_means(run, symbol):
        shown = sorted((off, v) for off, v in mean.most_common(top) if abs(v) >= 0.5)
        p("cost: blocks of %s, %s %s %s (insn/op by offset, mean over %d round(s);"
          " %s in all):" % (symbol, metric, end, row, rounds, si(sum(mean.values()))))
        for off, v in shown:
            p("cost:   +0x%-6x %9s" % (off, si(v)))


CONTROL = re.compile(r"^(j|call|ret|ud2|int3|hlt|syscall|sysret|iret)")


def symbol_code(ko, symbol):
    """SYMBOL's instructions in the module file KO, [(offset, mnemonic)],
    by nm and objdump; Unavailable when KO or SYMBOL is missing."""
    import subprocess
    if not os.path.exists(ko):
        raise Unavailable("the run kept no %s" % os.path.basename(ko))
    try:
        nm = subprocess.run(["nm", "-S", ko], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise Unavailable("nm %s: %s" % (ko, e))
    for line in nm.splitlines():
        f = line.split()
        if len(f) == 4 and f[3] == symbol:
            base, size = int(f[0], 16), int(f[1], 16)
            break
    else:
        raise Unavailable("%s has no %s" % (os.path.basename(ko), symbol))
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "--start-address=0x%x" % base,
                          "--stop-address=0x%x" % (base + size), ko],
                         capture_output=True, text=True).stdout
    code = []
    for line in dis.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)", line)
        if m:
            code.append((int(m.group(1), 16) - base, m.group(2)))
    return base, code


def spread_blocks(mean, code):
    """{offset: instructions per op} of each instruction: a block's count
    spread evenly over its instructions (from its first to the first
    control transfer, where QEMU ends a translation block)."""
    index = {off: i for i, (off, _m) in enumerate(code)}
    out = collections.Counter()
    for off, v in mean.items():
        i = index.get(off)
        if i is None:
            continue
        blk = []
        while i < len(code):
            blk.append(code[i][0])
            i += 1
            if CONTROL.match(code[i - 1][1]):
                break
        for a in blk:
            out[a] += v / len(blk)
    return out


def source_frames(ko, addrs):
    """{address: [(function, file:line), innermost first]} by addr2line -i."""
    import subprocess
    out = subprocess.run(["addr2line", "-i", "-f", "-C", "-a", "-e", ko] +
                         ["0x%x" % a for a in addrs], capture_output=True, text=True).stdout
    frames, cur, lines, i = {}, None, out.split("\n"), 0
    while i < len(lines):
        if re.match(r"^0x[0-9a-f]+$", lines[i]):
            cur = int(lines[i], 16)
            frames[cur] = []
            i += 1
        elif cur is not None and i + 1 < len(lines):
            fn = re.sub(r"\(.*", "", lines[i])
            loc = re.sub(r".*/(lib/\.\./|include/)", "", lines[i + 1].split(" ")[0])
            frames[cur].append((fn, loc))
            i += 2
        else:
            i += 1
    return frames


def lines(run, p, symbol, top=30):
    """--lines SYMBOL: inside one symbol of the module the run kept
    (DIR/rpcrdmax.ko, with its debug information), its instructions per
    op by source line (the innermost inlined one) and by function,
    inlined ones included (each counts what runs inside it): each
    block's count spread over its instructions, each instruction named
    by addr2line -i.  For the EXACT_SYMBOLS metrics at each end and row
    where the symbol runs."""
    ko = os.path.join(run.top, "rpcrdmax.ko")
    try:
        base, code = symbol_code(ko, symbol)
    except Unavailable as e:
        p("cost: lines of %s: unavailable: %s" % (symbol, e))
        return
    frames = None
    for metric, end, row, rounds, mean in block_means(run, symbol):
        per_insn = spread_blocks(mean, code)
        if frames is None:
            frames = source_frames(ko, [base + off for off, _m in code])
        by_line, by_fn = collections.Counter(), collections.Counter()
        for off, v in per_insn.items():
            fr = frames.get(base + off) or [("??", "??:0")]
            by_line["%s %s" % (fr[0][1], fr[0][0])] += v
            for fn in {f for f, _loc in fr}:
                by_fn[fn] += v
        p("cost: lines of %s, %s %s %s (insn/op, mean over %d round(s); %s in all):"
          % (symbol, metric, end, row, rounds, si(sum(per_insn.values()))))
        for what, c in (("by source line", by_line), ("by function, inlined ones included", by_fn)):
            p("cost:   %s:" % what)
            for k, v in c.most_common(top):
                if abs(v) >= 0.5:
                    p("cost:   %9s  %s" % (si(v), k))


def crossings(run, p, top=10):
    """The calls between rpcrdmax's C shims and its C++ (the profiled jobs'
    calls runs), per RPC and per op, at each end where rpcrdmax ran."""
    jobs = sorted({j for (_r, _row, j), jb in run.jobs.items()
                   if any(os.path.exists(os.path.join(jb.d, "%s.calls-%s.txt" % (j, e))) for e in ENDS)},
                  key=lambda j: [m[1] for m in METRICS].index(j))
    if not jobs:
        return
    try:
        with open(os.path.join(run.top, "boundary.list")) as f:
            lang = parse_boundary(f.read())
    except OSError:
        p("cost: crossings: unavailable: the run has no boundary.list")
        return
    for jname in jobs:
        metric = JOB_METRIC[jname][0]
        p("cost: crossings %s: calls between rpcrdmax's C shims and its C++ (either way,"
          " function pointers included), counted by ftrace in an extra run of the same size;"
          " per RPC the client sent, median [per round]; the top %d pooled" % (metric, top))
        for row in run.combos:
            for end in ENDS:
                if transport_of(row, end) != "rpcrdmax":
                    continue
                pooled, rpcs_sum, per_rpc, per_op, why, lost = collections.Counter(), 0, [], [], set(), 0
                for r in range(1, run.rounds + 1):
                    jb = run.jobs.get((r, row, jname))
                    if jb is None:
                        continue
                    try:
                        pairs, dropped, module = parse_calls(jb.read(
                            "%s.calls-%s.txt" % (jname, end),
                            jb.why("%s-calls-%s" % (jname, end)) or "no %s call counts" % end))
                        n_rpc, n_op = jb.rpcs("calls"), jb.ops("calls")
                    except (Unavailable, OSError, ValueError) as e:
                        why.add(str(e))
                        continue
                    if n_rpc <= 0 or n_op <= 0:
                        why.add("the calls run sent no RPCs")
                        continue
                    lost += dropped
                    calls = collections.Counter()
                    for (callee, caller), n in pairs.items():
                        if crossing(callee, caller, lang, module):
                            calls[callee] += n
                    total = sum(calls.values())
                    per_rpc.append(total / float(n_rpc))
                    per_op.append(total / float(n_op))
                    pooled.update(calls)
                    rpcs_sum += n_rpc
                if not per_rpc:
                    p("cost:   %s %s: unavailable: %s" % (end, row, "; ".join(sorted(why)) or "no counts"))
                    continue
                p("cost:   %s %s: %.1f crossings per RPC %s, %.1f per op%s"
                  % (end, row, statistics.median(per_rpc), spread_text(per_rpc),
                     statistics.median(per_op),
                     "; %d events LOST (the counts are short)" % lost if lost else ""))
                p("cost:     " + ", ".join("%s %.2f" % (f, n / float(rpcs_sum))
                                           for f, n in pooled.most_common(top)))


# ---- main ------------------------------------------------------------------

def write_cells(path, cells):
    """A summary TSV: per (labels, {round: value}) with values, a line of
    the labels, median, min, max and rounds."""
    with open(path, "w") as f:
        for labels, vals in cells:
            if vals:
                med, lo, hi = summary(list(vals.values()))
                f.write("\t".join(map(str, labels)) + "\t%.6g\t%.6g\t%.6g\t%d\n" % (med, lo, hi, len(vals)))


def write_tsv(run, path):
    """metric end row median min max rounds."""
    write_cells(path, (((metric, end, row), run.get(metric, end, row))
                       for metric, _j, _u, _w in METRICS for end in ENDS for row in run.combos))


def main(argv):
    args = argv[1:]
    if args == ["--metrics"]:
        for m in METRICS:
            for end in ENDS:
                print("%s %s" % (m[0], end))
        return 0
    got = report_args(args, "coststat", __doc__, ("--tsv", "--top", "--blocks", "--lines"))
    if got is None:
        return 2
    d, opts = got
    run = Run(d)
    if "--blocks" in opts:
        blocks(run, lambda line: print(line), opts["--blocks"])
        return 0
    if "--lines" in opts:
        lines(run, lambda line: print(line), opts["--lines"], int(opts.get("--top", 30)))
        return 0
    report(run, sys.stdout, int(opts.get("--top", 20)))
    write_tsv(run, opts.get("--tsv") or os.path.join(d, "summary-cost.tsv"))
    if run.env.get("BENCH_EXACT") == "1":
        # metric end row kernel|MODULE median min max rounds
        write_cells(os.path.join(d, "summary-exact.tsv"), exact_modules(run))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
