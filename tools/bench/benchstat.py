#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""benchstat - read a `make bench` run's raw outputs, print its tables, chart it.

    benchstat.py DIR [--png FILE] [--tsv FILE]
    benchstat.py --check-png FILE     is FILE a whole, decodable PNG?
    benchstat.py --metrics            every metric name and its row kind

DIR is a run's folder (build/bench): bench.env and raw/ as the client
guest left them (scripts/guest/bench-client.sh).  Every number printed is
computed from fio's JSON, perftest's output or /proc/stat lines found in
DIR; what cannot be computed prints as "unavailable" with the reason.
Documentation/performance.rst explains the method.
"""

import json
import os
import re
import statistics
import struct
import subprocess
import sys
import zlib

USER_HZ = 100  # /proc/stat's unit on every Linux architecture's ABI
GIB = 1 << 30

COMBOS = ("stock:stock", "stock:rpcrdmax", "rpcrdmax:stock", "rpcrdmax:rpcrdmax")

# metric, unit, better, job, what: the NFS metrics, in report order
NFS_METRICS = (
    ("seq-write", "MiB/s", "higher", "seq-write", "bw"),
    ("seq-read", "MiB/s", "higher", "seq-read", "bw"),
    ("rand-read-qd16", "IOPS", "higher", "rand-read", "iops"),
    ("rand-read-qd1", "IOPS", "higher", "rand-read-qd1", "iops"),
    ("qd1-lat-p50", "us", "lower", "rand-read-qd1", "p50"),
    ("qd1-lat-p99", "us", "lower", "rand-read-qd1", "p99"),
    ("meta-create", "ops/s", "higher", "meta-create", "iops"),
    ("meta-stat", "ops/s", "higher", "meta-stat", "iops"),
    ("meta-unlink", "ops/s", "higher", "meta-unlink", "iops"),
)
CPU_JOBS = ("seq-write", "seq-read", "rand-read", "rand-read-qd1",
            "meta-create", "meta-stat", "meta-unlink")
SEQ_JOBS = ("seq-write", "seq-read")
LINK_METRICS = (
    ("ib_write_bw", "MiB/s", "higher", "ib_write_bw", "bw"),
    ("ib_read_bw", "MiB/s", "higher", "ib_read_bw", "bw"),
    ("ib_send_lat-typical", "us", "lower", "ib_send_lat", "t_typical"),
    ("ib_send_lat-p99", "us", "lower", "ib_send_lat", "p99"),
)
# NFS READ data moves by RDMA Write, NFS WRITE data by RDMA Read
RAW_PEER = {"seq-read": "ib_write_bw", "seq-write": "ib_read_bw"}


class Unavailable(Exception):
    """A value that could not be computed; the message says why."""


def cpu_metrics():
    """(metric, unit, better, job, side) for every CPU-per-op metric."""
    out = []
    for job in CPU_JOBS:
        unit = "CPU-s/GiB" if job in SEQ_JOBS else "CPU-us/op"
        for side in ("client", "server"):
            out.append(("cpu-%s-%s" % (side, job), unit, "lower", job, side))
    return tuple(out)


# ---- parsers ---------------------------------------------------------------

def parse_fio(text):
    """fio --output-format=json: the one job's figures.

    Returns dict with ops (completed I/Os), bytes, bw_mib (MiB/s), iops,
    p50_us and p99_us (completion latency), for the direction that did
    the work.  Raises Unavailable on anything else.
    """
    try:
        doc = json.loads(text[text.index("{"):])
    except (ValueError, json.JSONDecodeError) as e:
        raise Unavailable("fio output is not JSON (%s)" % e)
    jobs = doc.get("jobs") or []
    if len(jobs) != 1:
        raise Unavailable("fio output has %d jobs, expected 1" % len(jobs))
    job = jobs[0]
    if job.get("error"):
        raise Unavailable("fio reported error %s" % job["error"])
    dirs = [d for d in ("read", "write") if job.get(d, {}).get("total_ios", 0) > 0]
    if len(dirs) != 1:
        raise Unavailable("fio job did I/O in %d directions, expected 1" % len(dirs))
    d = job[dirs[0]]
    pct = d.get("clat_ns", {}).get("percentile", {})
    res = {
        "ops": d["total_ios"],
        "bytes": d["io_bytes"],
        "bw_mib": d["bw"] / 1024.0,
        "iops": d["iops"],
        "p50_us": pct["50.000000"] / 1000.0 if "50.000000" in pct else None,
        "p99_us": pct["99.000000"] / 1000.0 if "99.000000" in pct else None,
    }
    return res


def busy_ticks(line):
    """A /proc/stat "cpu" line: user+nice+system+irq+softirq, never idle or iowait."""
    f = line.split()
    if not f or f[0] != "cpu" or len(f) < 8:
        raise Unavailable("not a /proc/stat cpu line: %r" % line[:60])
    try:
        v = [int(x) for x in f[1:8]]
    except ValueError:
        raise Unavailable("not a /proc/stat cpu line: %r" % line[:60])
    user, nice, system, _idle, _iowait, irq, softirq = v
    return user + nice + system + irq + softirq


def parse_cpu(text):
    """JOB.cpu: {"client": seconds, "server": seconds} spent busy over the run."""
    snaps = {}
    for line in text.splitlines():
        p = line.split(None, 2)
        if len(p) == 3 and p[0] in ("client", "server") and p[1] in ("before", "after"):
            snaps[(p[0], p[1])] = busy_ticks(p[2])
    out = {}
    for side in ("client", "server"):
        if (side, "before") not in snaps or (side, "after") not in snaps:
            raise Unavailable("no %s snapshot pair" % side)
        delta = snaps[(side, "after")] - snaps[(side, "before")]
        if delta < 0:
            raise Unavailable("%s CPU counters went backwards" % side)
        out[side] = delta / float(USER_HZ)
    return out


_COL = re.compile(r"#\w+|[A-Za-z0-9_.%]+(?: [a-z]+)?\[[^\]]*\]")


def parse_perftest(text):
    """perftest's result table: {column name: value} of its first data row.

    Column names as perftest prints them, e.g. "BW average[Gb/sec]",
    "t_typical[usec]", "99% percentile[usec]".
    """
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "#bytes" not in line:
            continue
        cols = _COL.findall(line)
        for row in lines[i + 1:]:
            vals = row.split()
            if not vals or not re.match(r"^\d", vals[0]):
                continue
            if len(vals) < len(cols):
                raise Unavailable("perftest row has %d values for %d columns" % (len(vals), len(cols)))
            try:
                return {c: float(v) for c, v in zip(cols, vals)}
            except ValueError:
                raise Unavailable("perftest row is not numeric: %r" % row.strip())
        break
    raise Unavailable("no perftest result table")


def perftest_value(table, what):
    if what == "bw":
        for c, v in table.items():
            if c.startswith("BW average["):
                unit = c[len("BW average["):-1]
                # perftest's help: "MiB=2^20 byte"; Debian 12's (4.5)
                # labels it MB/sec, Debian 13's (25.01) MiB/sec
                if unit in ("MB/sec", "MiB/sec"):
                    return v
                if unit == "Gb/sec":  # --report_gbits: "Gb=10^9 bits"
                    return v * 1e9 / 8 / (1 << 20)
                raise Unavailable("unexpected bandwidth unit %s" % unit)
        raise Unavailable("no BW average column")
    want = {"t_typical": "t_typical[usec]", "p99": "99% percentile[usec]"}[what]
    if want not in table:
        raise Unavailable("no %s column" % want)
    return table[want]


# ---- statistics ------------------------------------------------------------

def summary(values):
    """median, min, max of a non-empty list."""
    return statistics.median(values), min(values), max(values)


def ratio(base, new):
    """Ratio of medians and the range of per-round ratios.

    base and new map round -> value.  Returns (ratio, lo, hi, rounds) or
    None when either side has no value or the base median is 0.
    """
    if not base or not new:
        return None
    mb = statistics.median(base.values())
    mn = statistics.median(new.values())
    if mb == 0:
        return None
    per = [new[r] / base[r] for r in sorted(base) if r in new and base[r] != 0]
    if not per:
        return None
    return mn / mb, min(per), max(per), len(per)


# ---- reading a run ---------------------------------------------------------

def read_env(path):
    env = {}
    try:
        with open(path) as f:
            for line in f:
                m = re.match(r'^([A-Z_]+)="?([^"]*?)"?$', line.strip())
                if m:
                    env[m.group(1)] = m.group(2)
    except OSError:
        pass
    return env


def row_dir(row):
    return row.replace(":", "_")


class Run:
    """All values of one run: values[(metric, row)] = {round: value}."""

    def __init__(self, top):
        self.top = top
        self.env = read_env(os.path.join(top, "bench.env"))
        self.combos = self.env.get("BENCH_COMBOS", " ".join(COMBOS)).split()
        self.rounds = int(self.env.get("BENCH_ROUNDS", "1") or 1)
        self.values = {}
        self.why = {}  # (metric, row) -> set of reasons
        self.order = []
        raw = os.path.join(top, "raw")
        try:
            with open(os.path.join(raw, "order")) as f:
                self.order = [l.split() for l in f if l.strip()]
        except OSError:
            pass
        self.complete = os.path.exists(os.path.join(raw, "complete"))
        for r in range(1, self.rounds + 1):
            rdir = os.path.join(raw, "r%d" % r)
            for row in self.combos + ["tcp"]:
                self._nfs(r, row, os.path.join(rdir, row_dir(row)))
            self._link(r, os.path.join(rdir, "link"))

    def _put(self, metric, row, r, fn):
        try:
            v = fn()
        except Unavailable as e:
            self.why.setdefault((metric, row), set()).add(str(e))
            return
        except (OSError, KeyError, TypeError, ValueError) as e:
            self.why.setdefault((metric, row), set()).add("%s: %s" % (type(e).__name__, e))
            return
        self.values.setdefault((metric, row), {})[r] = v

    @staticmethod
    def _unavail(d):
        out = {}
        try:
            with open(os.path.join(d, "UNAVAILABLE")) as f:
                for line in f:
                    p = line.rstrip("\n").split(" ", 1)
                    if p[0]:
                        out[p[0]] = p[1] if len(p) > 1 else "unavailable"
        except OSError:
            pass
        return out

    @staticmethod
    def _read(path, missing):
        try:
            with open(path) as f:
                return f.read()
        except OSError:
            raise Unavailable(missing)

    def _nfs(self, r, row, d):
        if not os.path.isdir(d):
            for m in NFS_METRICS + cpu_metrics():
                self.why.setdefault((m[0], row), set()).add("round %d never ran" % r)
            return
        una = self._unavail(d)
        fio, cpu = {}, {}

        def load_fio(job):
            if job not in fio:
                if job in una:
                    fio[job] = Unavailable(una[job])
                else:
                    try:
                        fio[job] = parse_fio(self._read(os.path.join(d, job + ".json"),
                                                        "no output from " + job))
                    except Unavailable as e:
                        fio[job] = e
            if isinstance(fio[job], Unavailable):
                raise fio[job]
            return fio[job]

        def load_cpu(job):
            if job not in cpu:
                try:
                    cpu[job] = parse_cpu(self._read(os.path.join(d, job + ".cpu"),
                                                    una.get(job + "-cpu") or una.get(job)
                                                    or "no CPU snapshots for " + job))
                except Unavailable as e:
                    cpu[job] = e
            if isinstance(cpu[job], Unavailable):
                raise cpu[job]
            return cpu[job]

        def nfs_value(job, what):
            res = load_fio(job)
            v = {"bw": res["bw_mib"], "iops": res["iops"],
                 "p50": res["p50_us"], "p99": res["p99_us"]}[what]
            if v is None:
                raise Unavailable("fio printed no %s" % what)
            return v

        def cpu_value(job, side):
            res = load_fio(job)
            sec = load_cpu(job)[side]
            if job in SEQ_JOBS:
                if res["bytes"] <= 0:
                    raise Unavailable("no bytes moved")
                return sec / (res["bytes"] / float(GIB))
            if res["ops"] <= 0:
                raise Unavailable("no operations done")
            return sec * 1e6 / res["ops"]

        for m, _u, _b, job, what in NFS_METRICS:
            self._put(m, row, r, lambda job=job, what=what: nfs_value(job, what))
        for m, _u, _b, job, side in cpu_metrics():
            self._put(m, row, r, lambda job=job, side=side: cpu_value(job, side))

    def _link(self, r, d):
        una = self._unavail(d) if os.path.isdir(d) else {}
        for m, _u, _b, tool, what in LINK_METRICS:
            def get(tool=tool, what=what):
                if tool in una:
                    raise Unavailable(una[tool])
                if not os.path.isdir(d):
                    raise Unavailable("round %d never ran" % r)
                text = self._read(os.path.join(d, tool + ".txt"), "no output from " + tool)
                return perftest_value(parse_perftest(text), what)
            self._put(m, "link", r, get)

    def get(self, metric, row):
        return self.values.get((metric, row), {})

    def reason(self, metric, row):
        return "; ".join(sorted(self.why.get((metric, row), ()))) or "no value"


# ---- printing --------------------------------------------------------------

def fmt(v):
    if v >= 100:
        return "%.0f" % v
    if v >= 10:
        return "%.1f" % v
    return "%.3g" % v


def report_cells(run):
    """(metric, unit, better, row) for every cell of the report, in order."""
    for m in NFS_METRICS + cpu_metrics():
        for row in run.combos + ["tcp"]:
            yield m[0], m[1], m[2], row
    for m in LINK_METRICS:
        yield m[0], m[1], m[2], "link"


def cell(run, metric, row):
    vals = run.get(metric, row)
    if not vals:
        return "unavailable: " + run.reason(metric, row)
    med, lo, hi = summary(list(vals.values()))
    return "%s [%s-%s]" % (fmt(med), fmt(lo), fmt(hi))


def report(run, out):
    p = lambda s="": out.write(s + "\n")
    e = run.env
    p("bench: %d round(s), %s s jobs (%s s warm-up discarded), NFSv%s, direct I/O, %s files for metadata"
      % (run.rounds, e.get("BENCH_SECS", "?"), e.get("BENCH_WARM", "?"), e.get("BENCH_VERS", "4.2"),
         e.get("BENCH_FILES", "?")))
    for o in run.order:
        p("bench: round %s order: %s" % (o[0], " ".join(o[1:])))
    if not run.complete:
        p("bench: the client guest did not finish: what is missing prints as unavailable")
    p("bench: each cell is the median [min-max] over the rounds; rows are SERVER:CLIENT")
    last = None
    for metric, unit, better, row in report_cells(run):
        if metric == LINK_METRICS[0][0] and last != metric:
            p("bench: link limit (perftest between the guests: 1 MiB messages, 2-byte latency)")
        if metric != last:
            p("bench: %s (%s, %s is better)" % (metric, unit, better))
            last = metric
        p("bench:   %-18s %s" % (row, cell(run, metric, row)))
    p("bench: NFS/RDMA sequential throughput as a share of the raw RDMA operation that carries it")
    for job, tool in sorted(RAW_PEER.items()):
        raw = run.get(tool, "link")
        for row in run.combos:
            nfs = run.get(job, row)
            if not raw or not nfs:
                p("bench:   %-9s %-18s unavailable: %s" % (job, row, run.reason(job, row) if not nfs
                                                           else run.reason(tool, "link")))
                continue
            share = statistics.median(nfs.values()) / statistics.median(raw.values()) * 100
            p("bench:   %-9s %-18s %.0f%% of %s" % (job, row, share, tool))
    p("bench: ratios rpcrdmax/stock: ratio of medians [range of the per-round ratios];"
      " above 1 is better where higher is better, worse where lower is better")
    pairs = (("client", "stock:stock", "stock:rpcrdmax"),
             ("server", "stock:stock", "rpcrdmax:stock"),
             ("both", "stock:stock", "rpcrdmax:rpcrdmax"),
             # RPC-over-RDMA Version Two against One, rpcrdmax on both ends
             ("v2", "rpcrdmax:rpcrdmax-v1", "rpcrdmax:rpcrdmax"))
    for what, base, new in pairs:
        if base not in run.combos or new not in run.combos:
            continue
        p("bench: ratio %s: %s / %s" % (what, new, base))
        for metric, unit, better, _j, _w in NFS_METRICS + cpu_metrics():
            rr = ratio(run.get(metric, base), run.get(metric, new))
            if rr is None:
                p("bench:   %-22s unavailable" % metric)
            else:
                p("bench:   %-22s %.2f [%.2f-%.2f] (%d rounds, %s is better)"
                  % (metric, rr[0], rr[1], rr[2], rr[3], better))


def write_tsv(run, path):
    """metric unit row median min max, for the chart."""
    with open(path, "w") as f:
        for metric, unit, _b, row in report_cells(run):
            vals = run.get(metric, row)
            if vals:
                med, lo, hi = summary(list(vals.values()))
                f.write("%s\t%s\t%s\t%g\t%g\t%g\n" % (metric, unit, row, med, lo, hi))


def write_png(run, tsv, png):
    """One panel per metric: a bar per row at its median, min-max bars."""
    metrics = [(m[0], m[1]) for m in NFS_METRICS + cpu_metrics() + LINK_METRICS]
    have = {}
    with open(tsv) as f:
        for line in f:
            m, u, row, med, lo, hi = line.rstrip("\n").split("\t")
            have.setdefault(m, []).append((row, med, lo, hi))
    metrics = [m for m in metrics if m[0] in have]
    if not metrics:
        raise Unavailable("no metric has a value")
    datadir = os.path.dirname(os.path.abspath(png))
    cols = 4
    nrows = (len(metrics) + cols - 1) // cols
    script = ["set terminal pngcairo noenhanced size %d,%d font ',8'" % (cols * 360, nrows * 260),
              "set output '%s'" % png,
              "set multiplot layout %d,%d title 'rpcrdmax bench: median, min-max bars'" % (nrows, cols),
              "set style fill solid 0.5", "set boxwidth 0.6", "set yrange [0:*]",
              "set xtics rotate by -30 font ',7'", "unset key", "set grid ytics"]
    for i, (m, unit) in enumerate(metrics):
        dat = os.path.join(datadir, "chart-%02d.dat" % i)
        with open(dat, "w") as f:
            for row, med, lo, hi in have[m]:
                f.write("%s %s %s %s\n" % (row, med, lo, hi))
        script += ["set title '%s (%s)'" % (m, unit),
                   "set xrange [-0.7:%g]" % (len(have[m]) - 0.3),
                   "plot '%s' using 0:2:xtic(1) with boxes, '' using 0:2:3:4 with yerrorbars lc rgb 'black' pt 0"
                   % dat]
    script.append("unset multiplot")
    r = subprocess.run(["gnuplot"], input="\n".join(script) + "\n", text=True,
                       capture_output=True)
    if r.returncode != 0:
        raise Unavailable("gnuplot failed: %s" % r.stderr.strip()[-300:])


def check_png(path):
    """Raise Unavailable unless path is a PNG whose chunks all pass their
    CRC, starting with IHDR and ending with IEND, whose image data inflates
    to exactly the size IHDR announces (8-bit, non-interlaced)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise Unavailable("no PNG signature")
    pos, chunks, idat = 8, [], b""
    while pos + 12 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if len(body) != n or pos + 12 + n > len(data):
            raise Unavailable("chunk %r runs past the end" % kind)
        crc, = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        if zlib.crc32(kind + body) & 0xffffffff != crc:
            raise Unavailable("bad CRC in chunk %r" % kind)
        chunks.append((kind, body))
        if kind == b"IDAT":
            idat += body
        pos += 12 + n
    if not chunks or chunks[0][0] != b"IHDR" or chunks[-1][0] != b"IEND" or pos != len(data):
        raise Unavailable("chunks are not IHDR ... IEND")
    w, h, depth, ctype, _c, _f, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(ctype)
    if channels is None or depth != 8 or interlace != 0 or w == 0 or h == 0:
        raise Unavailable("unexpected PNG format (type %d, depth %d, interlace %d)" % (ctype, depth, interlace))
    try:
        raw = zlib.decompress(idat)
    except zlib.error as e:
        raise Unavailable("image data does not inflate: %s" % e)
    if len(raw) != h * (1 + w * channels):
        raise Unavailable("image data is %d bytes, expected %d" % (len(raw), h * (1 + w * channels)))
    return w, h


def report_args(args, name, doc, options):
    """A report's command line: (DIR, {OPTION: VALUE}) for the options
    named (each takes a value), or None once the usage or why DIR is not
    a run went to stderr."""
    args, got, top = list(args), {}, None
    while args:
        a = args.pop(0)
        if a in options and args:
            got[a] = args.pop(0)
        elif not a.startswith("-") and top is None:
            top = a
        else:
            sys.stderr.write(doc)
            return None
    if top is None or not os.path.isdir(os.path.join(top, "raw")):
        sys.stderr.write("%s: %s has no raw/ folder: not a bench run\n" % (name, top))
        return None
    return top, got


def main(argv):
    args = argv[1:]
    if args[:1] == ["--check-png"] and len(args) == 2:
        try:
            w, h = check_png(args[1])
        except (Unavailable, OSError) as e:
            print("benchstat: %s is not a valid PNG: %s" % (args[1], e))
            return 1
        print("benchstat: %s is a valid %dx%d PNG" % (args[1], w, h))
        return 0
    if args == ["--metrics"]:
        for m in NFS_METRICS + cpu_metrics():
            print("%s nfs" % m[0])
        for m in LINK_METRICS:
            print("%s link" % m[0])
        return 0
    got = report_args(args, "benchstat", __doc__, ("--png", "--tsv"))
    if got is None:
        return 2
    top, opts = got
    png, tsv = opts.get("--png"), opts.get("--tsv")
    run = Run(top)
    report(run, sys.stdout)
    tsv = tsv or os.path.join(top, "summary.tsv")
    write_tsv(run, tsv)
    if png:
        try:
            write_png(run, tsv, png)
            print("bench: chart %s" % png)
        except (Unavailable, OSError) as e:
            print("bench: chart unavailable: %s" % e)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
