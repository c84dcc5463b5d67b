# SPDX-License-Identifier: GPL-2.0
"""Host tests of tools/bench/scalestat.py (scripts/bench --scale's report)
on a run made up here with known instruction counts and memory snapshots,
which the report must give back exactly, and with pieces taken away or
wrong, which must print as unavailable with the reason, never a number."""

import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(TOP, "tools", "bench"))
sys.path.insert(0, HERE)
import scalestat  # noqa: E402
from test_coststat import run_frame, write  # noqa: E402

COMBOS = ("stock:stock", "rpcrdmax:rpcrdmax")
CONNS = (1, 16, 64)
ROUNDS = 3
MEMTOTAL = 2000000


def insn(end, row, n, r):
    """The made-up set-up instructions per connection."""
    base = 5000000 if end == "server" else 9000000
    return base * (1 + COMBOS.index(row) / 10.0) + 1000 * n + 7 * r


def kib(phase, source, row, n, r):
    """The made-up KiB per connection (whole numbers: meminfo's are)."""
    base = {"idle": 300, "qd16": 700}[phase] + {"used": 0, "SUnreclaim": -200, "VmallocUsed": -250}[source]
    return base + 10 * COMBOS.index(row) + r


def meminfo(used, slab, vmalloc, qps):
    """A snapshot as bench-server.sh's mem writes it: /proc/meminfo (a part
    of it, in its format), then the RC QPs."""
    return ("MemTotal:       %d kB\nMemFree:         123456 kB\nMemAvailable:   %d kB\n"
            "Buffers:            100 kB\nSlab:            %d kB\nSReclaimable:    40000 kB\n"
            "SUnreclaim:      %d kB\nVmallocTotal:   34359738367 kB\nVmallocUsed:    %d kB\n"
            "Percpu:            1234 kB\nHugePages_Total:       0\nrc_qps %d\n"
            % (MEMTOTAL, MEMTOTAL - used, slab + 40000, slab, vmalloc, qps))


def make_run(top):
    env = 'BENCH_SECS=0\nBENCH_COST=1\nBENCH_SCALE=1\nBENCH_CONNS="%s"\nBENCH_SUITE=bookworm\n' % (
        " ".join(map(str, CONNS)))
    for r, row, d in run_frame(top, ROUNDS, COMBOS, env):
        for n in CONNS:
            t = os.path.join(d, "scale-%d" % n)
            b = {"server": 7 * 10 ** 10 + n, "client": 3 * 10 ** 10 + r}
            write(t + ".cost", "".join(
                "mark setup %s %s %d\n" % (ph, e, b[e] + (k * n if ph == "end" else 0))
                for ph in ("begin", "end") for e, k in (
                    ("server", int(insn("server", row, n, r))), ("client", int(insn("client", row, n, r)))))
                + "mark setup begin host 5\nmark setup end host 9\n")
            write(t + ".qps", "setup %d\nafter 0\n" % n)
            used0, slab0, vm0 = 400000 + r, 90000, 30000
            write(t + ".before.meminfo", meminfo(used0, slab0, vm0, 0))
            for ph in ("idle", "qd16"):
                write(t + ".%s.meminfo" % ph, meminfo(
                    used0 + n * kib(ph, "used", row, n, r), slab0 + n * kib(ph, "SUnreclaim", row, n, r),
                    vm0 + n * kib(ph, "VmallocUsed", row, n, r), n))
    return top


def report_text(top):
    out = io.StringIO()
    scalestat.report(scalestat.Run(top), out)
    return out.getvalue()


class Parsers(unittest.TestCase):
    def test_parse_meminfo(self):
        fields, qps = scalestat.parse_meminfo(meminfo(1000, 200, 30, 16))
        self.assertEqual((fields["MemTotal"], fields["MemAvailable"], fields["SUnreclaim"],
                          fields["VmallocUsed"], fields["HugePages_Total"], qps),
                         (MEMTOTAL, MEMTOTAL - 1000, 200, 30, 0, 16))
        self.assertEqual(scalestat.mem_value(fields, "used"), 1000)
        self.assertIsNone(scalestat.parse_meminfo("MemTotal: 5 kB\n")[1])
        with self.assertRaises(scalestat.Unavailable):
            scalestat.mem_value({"MemTotal": 5}, "used")

    def test_parse_qps(self):
        self.assertEqual(scalestat.parse_qps("setup 64\nafter 0\nsetup fail: x\n"), {"setup": 64, "after": 0})


class WholeRun(unittest.TestCase):
    def setUp(self):
        self.top = make_run(tempfile.mkdtemp(prefix="scalestat-"))

    def tearDown(self):
        shutil.rmtree(self.top)

    def d(self, r, row):
        return os.path.join(self.top, "raw", "r%d" % r, row.replace(":", "_"))

    def test_figures_come_back_exactly(self):
        run = scalestat.Run(self.top)
        for metric, phase, source, _u, _w in scalestat.METRICS:
            for row in COMBOS:
                for n in CONNS:
                    got = run.get(metric, row, n)
                    self.assertEqual(sorted(got), [1, 2, 3], (metric, row, n, run.reason((metric, row, n))))
                    for r, v in got.items():
                        want = insn(source, row, n, r) if phase == "setup" else kib(phase, source, row, n, r)
                        self.assertAlmostEqual(v, want, delta=1.0, msg=(metric, row, n, r))

    def test_report_cells_and_ratios(self):
        text = report_text(self.top)
        self.assertNotIn("unavailable", text)
        # idle at N=16: stock 301 302 303, rpcrdmax 311 312 313
        self.assertIn("scale:   N=16  stock:stock          302.0    [301.0 303.0]", text)
        self.assertIn("scale:   N=16  rpcrdmax:rpcrdmax    312.0    [311.0 313.0]", text)
        # ratio of medians 312/302, per round 311/301 .. 313/303
        self.assertIn("scale:   idle          N=16  %.3f [%.3f-%.3f]  above stock"
                      % (312 / 302.0, 313 / 303.0, 311 / 301.0), text)
        self.assertIn("scale: ratio both: rpcrdmax:rpcrdmax / stock:stock", text)
        self.assertIn("scale: check: the server's RC QPs once everything was unmounted: 0 every time", text)

    def test_above_stock_as_printed(self):
        class Stub:
            def __init__(self, figs):
                self.figs = figs

            def get(self, metric, row, n):
                return self.figs[row]

            def reason(self, key):
                return "none"
        level = Stub({"stock:stock": {1: 1319.8}, "rpcrdmax:stock": {1: 1320.0}})
        text = scalestat.ratio_text(level, "vmalloc", "KiB", "stock:stock", "rpcrdmax:stock", 16)
        self.assertEqual(text, "1.000 [1.000-1.000]")
        above = Stub({"stock:stock": {1: 1000.0}, "rpcrdmax:stock": {1: 1002.0}})
        text = scalestat.ratio_text(above, "vmalloc", "KiB", "stock:stock", "rpcrdmax:stock", 16)
        self.assertEqual(text, "1.002 [1.002-1.002]  above stock")

    def test_missing_snapshot_is_unavailable(self):
        os.remove(os.path.join(self.d(2, "stock:stock"), "scale-16.qd16.meminfo"))
        run = scalestat.Run(self.top)
        self.assertEqual(sorted(run.get("qd16", "stock:stock", 16)), [1, 3])
        self.assertIn("no scale-16.qd16.meminfo", run.reason(("qd16", "stock:stock", 16)))
        self.assertEqual(sorted(run.get("idle", "stock:stock", 16)), [1, 2, 3])
        # the cell says its median is of fewer rounds, and why
        self.assertIn("scale:   N=16  stock:stock          702.0    [701.0 703.0]  (2 of 3 rounds;"
                      " no scale-16.qd16.meminfo)", report_text(self.top))

    def test_guest_reasons_win(self):
        write(os.path.join(self.d(1, "rpcrdmax:rpcrdmax"), "UNAVAILABLE"),
              "scale-64-qd16 the load did not last through the snapshot (READs per mount: 600 -> 600)\n"
              "scale-16 mount -o rdma,...: mount.nfs: Connection refused\n")
        run = scalestat.Run(self.top)
        row = "rpcrdmax:rpcrdmax"
        self.assertEqual(sorted(run.get("qd16", row, 64)), [2, 3])
        self.assertIn("the load did not last", run.reason(("qd16", row, 64)))
        self.assertEqual(sorted(run.get("idle", row, 64)), [1, 2, 3])
        for metric, _p, _s, _u, _w in scalestat.METRICS:
            self.assertEqual(sorted(run.get(metric, row, 16)), [2, 3], metric)
            self.assertIn("Connection refused", run.reason((metric, row, 16)))

    def test_wrong_qp_count_is_unavailable(self):
        write(os.path.join(self.d(3, "stock:stock"), "scale-16.qps"), "setup 15\nafter 0\n")
        t = os.path.join(self.d(2, "stock:stock"), "scale-64")
        with open(t + ".idle.meminfo") as f:
            write(t + ".idle.meminfo", f.read().replace("rc_qps 64", "rc_qps 63"))
        t = os.path.join(self.d(1, "stock:stock"), "scale-1")
        with open(t + ".before.meminfo") as f:
            write(t + ".before.meminfo", f.read().replace("rc_qps 0", "rc_qps 2"))
        run = scalestat.Run(self.top)
        row = "stock:stock"
        for end in ("server", "client"):
            self.assertEqual(sorted(run.get("setup-" + end, row, 16)), [1, 2])
            self.assertIn("had 15 RC QPs after the set-up, not 16", run.reason(("setup-" + end, row, 16)))
        self.assertEqual(sorted(run.get("idle", row, 16)), [1, 2, 3])
        self.assertEqual(sorted(run.get("idle", row, 64)), [1, 3])
        self.assertIn("had 63 RC QPs at the idle snapshot, not 64", run.reason(("idle", row, 64)))
        self.assertEqual(sorted(run.get("qd16", row, 64)), [1, 2, 3])
        for metric in ("idle", "idle-slab", "qd16", "qd16-vmalloc"):
            self.assertEqual(sorted(run.get(metric, row, 1)), [2, 3], metric)
            self.assertIn("had 2 RC QPs at the before snapshot, not 0", run.reason((metric, row, 1)))
        self.assertEqual(sorted(run.get("setup-server", row, 1)), [1, 2, 3])

    def test_nothing_at_all_prints_unavailable_not_a_number(self):
        for r in range(1, ROUNDS + 1):
            os.remove(os.path.join(self.d(r, "rpcrdmax:rpcrdmax"), "scale-64.cost"))
        shutil.rmtree(os.path.join(self.top, "raw", "r3"))
        text = report_text(self.top)
        self.assertIn("scale:   N=64  rpcrdmax:rpcrdmax    unavailable: no scale-64.cost; round 3 never ran", text)
        line = [l for l in text.splitlines() if l.startswith("scale:   setup-server  N=64 ")]
        self.assertEqual(line, ["scale:   setup-server  N=64  unavailable: no rpcrdmax:rpcrdmax figure"
                                " (no scale-64.cost; round 3 never ran)"])
        # the other rounds still give the stock figure, over two rounds
        self.assertEqual(sorted(scalestat.Run(self.top).get("setup-server", "stock:stock", 64)), [1, 2])

    def test_noise_below_zero_gives_no_ratio(self):
        for r in range(1, ROUNDS + 1):
            t = os.path.join(self.d(r, "stock:stock"), "scale-1")
            write(t + ".idle.meminfo", meminfo(400000 + r - 5, 90000, 30000, 1))
        text = report_text(self.top)
        self.assertIn("scale:   N=1   stock:stock          -5.0     [-5.0 -5.0]", text)
        self.assertIn("scale:   idle          N=1   unavailable: medians -5.0 (stock:stock) and 312.0"
                      " (rpcrdmax:rpcrdmax): at or below 0 is noise, not a size", text)

    def test_qps_left_after_unmounting_are_named(self):
        write(os.path.join(self.d(2, "rpcrdmax:rpcrdmax"), "scale-64.qps"), "setup 64\nafter 3\n")
        write(os.path.join(self.d(1, "stock:stock"), "scale-1.qps"), "setup 1\n")
        self.assertIn("scale: check: the server's RC QPs once everything was unmounted:"
                      " r1 stock:stock N=1: no count; r2 rpcrdmax:rpcrdmax N=64: 3", report_text(self.top))

    def test_main_writes_tsv(self):
        out, sys.stdout = sys.stdout, io.StringIO()
        try:
            self.assertEqual(scalestat.main(["scalestat", self.top]), 0)
        finally:
            sys.stdout = out
        with open(os.path.join(self.top, "summary-scale.tsv")) as f:
            rows = [l.rstrip("\n").split("\t") for l in f]
        self.assertEqual(len(rows), len(scalestat.METRICS) * len(CONNS) * len(COMBOS))
        self.assertIn(["idle", "16", "stock:stock", "302", "301", "303", "3"], rows)
        err, sys.stderr = sys.stderr, io.StringIO()
        try:
            self.assertEqual(scalestat.main(["scalestat", os.path.join(self.top, "raw")]), 2)
        finally:
            sys.stderr = err

    def test_bench_report_prints_the_scale_report(self):
        # scripts/bench --report DIR picks the report by bench.env's mode
        p = subprocess.run(["bash", os.path.join(TOP, "scripts", "bench"), "--report", self.top],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("scale: idle - server memory, idle", p.stdout)
        with open(os.path.join(self.top, "report.txt")) as f:
            self.assertEqual(f.read(), p.stdout)


if __name__ == "__main__":
    unittest.main()
