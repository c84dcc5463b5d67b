# SPDX-License-Identifier: GPL-2.0
"""Host tests of tools/bench/coststat.py (scripts/bench --cost's report):
its parsers, and a whole report on a run made up here with known
instruction counts, which the report must give back exactly."""

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "bench"))
import coststat  # noqa: E402

COMBOS = ("stock:stock", "stock:rpcrdmax", "rpcrdmax:stock", "rpcrdmax:rpcrdmax")
OPS = {"seq-write": 64, "seq-read": 64, "rand-read": 4000, "rand-read-qd1": 4000,
       "meta-create": 1000, "meta-stat": 1000, "meta-unlink": 1000, "readdir": 100}
PERIOD = 100003


def per_op(job, end, row, r=1):
    """The made-up truth: a distinct figure per job, end, row and round."""
    base = 100000 + 1000 * sorted(OPS).index(job) + (7 if end == "server" else 0)
    return base * (1 + COMBOS.index(row) / 10.0) * (1 + (r - 2) / 1000.0)


FIXED = 30000000  # a run's instructions that do not grow with its operations


def fio_json(job, ops):
    d = "write" if job == "seq-write" else "read"
    bs = (1 << 20) if job.startswith("seq-") else 4096
    dirs = {k: {"total_ios": 0, "io_bytes": 0, "bw": 0, "iops": 0} for k in ("read", "write")}
    dirs[d] = {"total_ios": ops, "io_bytes": ops * bs, "bw": 1000, "iops": 10, "clat_ns": {}}
    return json.dumps({"jobs": [dict(jobname=job, error=0, **dirs)]})


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def run_frame(top, rounds, combos, env):
    """A made-up run's frame: bench.env (BENCH_COMBOS, BENCH_ROUNDS and
    env's lines), raw/order, raw/complete and each round's row folders;
    yields (round, row, folder)."""
    write(os.path.join(top, "bench.env"),
          'BENCH_COMBOS="%s"\nBENCH_ROUNDS=%d\n%s' % (" ".join(combos), rounds, env))
    raw = os.path.join(top, "raw")
    os.makedirs(raw)
    write(os.path.join(raw, "order"), "".join("%d %s\n" % (r, " ".join(combos)) for r in range(1, rounds + 1)))
    write(os.path.join(raw, "complete"), "")
    for r in range(1, rounds + 1):
        for row in combos:
            d = os.path.join(raw, "r%d" % r, row.replace(":", "_"))
            os.makedirs(d)
            yield r, row, d


def make_run(top, rounds=3, combos=COMBOS, perf=("rand-read-qd1",)):
    env = ('BENCH_COST=1\nBENCH_OPS=4000\nBENCH_MIB=64\nBENCH_FILES=1000\nBENCH_LISTINGS=100\n'
           'BENCH_DIRENTS=500\nBENCH_PERF="%s"\nBENCH_PERF_PERIOD=%d\nBENCH_SUITE=bookworm\n'
           % (" ".join(perf), PERIOD))
    for r, row, d in run_frame(top, rounds, combos, env):
        for job, n in OPS.items():
            ext = "out" if job == "readdir" else "json"
            out = (lambda k: "listings %d entries 502\n" % k) if job == "readdir" else (lambda k: fio_json(job, k))
            write(os.path.join(d, "%s.%s" % (job, ext)), out(n))
            write(os.path.join(d, "%s.null.%s" % (job, ext)), out(1))
            lines, count, now = [], {"client": 10 ** 9, "server": 2 * 10 ** 9}, 5 * 10 ** 12
            for run, k in (("null", 1), ("full", n)):
                for end in ("client", "server"):
                    lines.append("snap %s begin %s timer_list 1 %d %d" % (run, end, now, now // 2))
                lines += ["mark %s begin %s %d" % (run, e, count[e]) for e in ("server", "client")]
                lines.append("mark %s begin host %d" % (run, now))
                lines.append("rpcs %s begin READ 10" % run)
                start = dict(count)
                for e in count:
                    count[e] += FIXED + int(round(per_op(job, e, row, r) * k))
                lines += ["mark %s end %s %d" % (run, e, count[e]) for e in ("server", "client")]
                lines.append("mark %s end host %d" % (run, now + 10 ** 9))
                lines.append("rpcs %s end READ %d" % (run, 10 + k))
                lines.append("rpcs %s end GETATTR %d" % (run, 2 * k))
                for end in ("client", "server"):
                    # idle grows by the window less the busy time: busy ns = instructions
                    busy = count[end] - start[end]
                    lines.append("snap %s end %s timer_list 1 %d %d"
                                 % (run, end, now + 10 ** 12, now // 2 + 10 ** 12 - busy))
            write(os.path.join(d, job + ".cost"), "\n".join(lines) + "\n")
            if job in perf:
                write(os.path.join(d, "%s.perf.%s" % (job, ext)), out(n))
                tr = "rpcrdmax" if "rpcrdmax" in row.split(":")[1] else "rpcrdma"
                write(os.path.join(d, "%s.perf-client.txt" % job),
                      "# Samples: 52K of event 'cpu-clock:pppH'\n#\n"
                      "# Overhead       Samples  Symbol\n"
                      "# ........  ............  ......\n#\n"
                      "    45.12%         23529  [k] default_idle\n"
                      "     3.01%          4000  [k] xprt_thing\n"
                      "     1.50%          2000  [k] rxe_requester\n"
                      "     0.50%           261  [.] __memmove_avx_unaligned_erms\n")
                write(os.path.join(d, "%s.perf-client.kallsyms" % job),
                      "ffffffffc0000000 t xprt_thing\t[%s]\nffffffffc0100000 t rxe_requester\t[rdma_rxe]\n" % tr)
                # the calls run: n RPCs; 12 crossings per RPC at a client
                # running rpcrdmax, 7 + the round at such a server; and
                # calls that do not cross (C to C, C++ to C++)
                write(os.path.join(d, "%s.calls.%s" % (job, ext)), out(n))
                with open(os.path.join(d, job + ".cost"), "a") as f:
                    f.write("rpcs calls begin READ 100\nrpcs calls end READ %d\n" % (100 + n))
                for end, word, per in (("client", row.split(":")[1], 12), ("server", row.split(":")[0], 7 + r)):
                    if word.startswith("rpcrdmax"):
                        write(os.path.join(d, "%s.calls-%s.txt" % (job, end)),
                              "%d rpcrdmax_a _ZN8rpcrdmax4Conn4sendEv\n"
                              "%d rpcrdmax_a rpcrdmax_entry\n"
                              "%d rpcrdmax_entry rpcrdmax_shim_op\n"
                              "%d rpcrdmax_a rpcrdmax_trace_wc\n"
                              "%d rpcrdmax_entry _ZN8rpcrdmax4Conn4recvEv\n"
                              "%d rpcrdmax_ib_done __ib_process_cq\n"
                              "%d _ZN8rpcrdmax4Work4trampEv process_one_work\n"
                              "lost 0\n" % ((per - 4) * n, n, 2 * n, 5 * n, 9 * n, n, 3 * n)
                              + "".join("module %s\n" % f for f in (
                                  "rpcrdmax_a", "rpcrdmax_entry", "rpcrdmax_shim_op",
                                  "rpcrdmax_trace_wc", "rpcrdmax_ib_done",
                                  "_ZN8rpcrdmax4Conn4sendEv", "_ZN8rpcrdmax4Conn4recvEv",
                                  "_ZN8rpcrdmax3Cqe6upcallEv", "_ZN8rpcrdmax4Work4trampEv")))
    write(os.path.join(top, "boundary.list"),
          "rpcrdmax_a c\nrpcrdmax_entry c++\nrpcrdmax_trace_wc c\nrpcrdmax_ib_done upcall\n")
    return top


class Parsers(unittest.TestCase):
    def test_parse_cost(self):
        c = coststat.parse_cost("mark full begin client 10\nmark full end client 25\n"
                                "snap full begin server timer_list 1 100 40\n"
                                "rpcs null end READ 3\njunk line here\nmark full begin client x\n")
        self.assertEqual(c["mark"][("full", "begin")], {"client": 10})
        self.assertEqual(c["mark"][("full", "end")], {"client": 25})
        self.assertEqual(c["snap"][("full", "begin", "server")], ("timer_list", 1, 100, 40))
        self.assertEqual(c["rpcs"][("null", "end")], {"READ": 3})

    def test_parse_readdir(self):
        self.assertEqual(coststat.parse_readdir("listings 100 entries 502\n"), {"ops": 100, "entries": 502})
        with self.assertRaises(coststat.Unavailable):
            coststat.parse_readdir("opendir /mnt/meta/rd: No such file or directory\n")

    def test_job_ops_counts_mib_for_sequential_jobs(self):
        self.assertEqual(coststat.job_ops("seq-read", fio_json("seq-read", 64)), 64.0)
        self.assertEqual(coststat.job_ops("rand-read", fio_json("rand-read", 4000)), 4000)
        self.assertEqual(coststat.job_ops("readdir", "listings 7 entries 502\n"), 7)

    def test_parse_perf_needs_counts(self):
        rows = coststat.parse_perf("    12.00%   1200  [k] nfs_foo\n     1.00%  100  [.] main\n")
        self.assertEqual(rows, [(1200, "nfs_foo", False), (100, "main", True)])
        with self.assertRaises(coststat.Unavailable):
            coststat.parse_perf("    12.00%  [k] nfs_foo\n")   # perf report without -n

    def test_si_and_spread(self):
        self.assertEqual(coststat.si(412345), "412.3k")
        self.assertEqual(coststat.si(23456789), "23.46M")
        self.assertEqual(coststat.si(999), "999")
        self.assertEqual(coststat.spread_text([100.0, 99.0, 102.0]), "[-1.0% +2.0%]")
        self.assertEqual(coststat.spread_text([100.0, 96.0, 102.0]), "[-4.0% +2.0%] !")
        self.assertEqual(coststat.spread_text([5.0]), "(1 round)")


class WholeRun(unittest.TestCase):
    def setUp(self):
        self.top = make_run(tempfile.mkdtemp(prefix="coststat-"))

    def tearDown(self):
        shutil.rmtree(self.top)

    def test_figures_come_back_exactly(self):
        run = coststat.Run(self.top)
        for metric, job, _u, _w in coststat.METRICS:
            for end in coststat.ENDS:
                for row in COMBOS:
                    got = run.get(metric, end, row)
                    self.assertEqual(sorted(got), [1, 2, 3], (metric, end, row))
                    for r, v in got.items():
                        self.assertAlmostEqual(v, per_op(job, end, row, r), delta=1.0)

    def test_fixed_cost_and_busy_check(self):
        run = coststat.Run(self.top)
        for (metric, end), v in run.fixed.items():
            for x in v:
                self.assertAlmostEqual(x, FIXED, delta=2.0)
        for (metric, end), v in run.checks.items():
            for ratio, src in v:
                self.assertAlmostEqual(ratio, 1.0, places=6)
                self.assertEqual(src, "timer_list")

    def test_rpcs_per_op(self):
        run = coststat.Run(self.top)
        rp = run.rpcs[("stat", "stock:stock")][1]
        self.assertAlmostEqual(rp["READ"], 1.0)
        self.assertAlmostEqual(rp["GETATTR"], 2.0)

    def test_report_shape(self):
        out = io.StringIO()
        coststat.report(coststat.Run(self.top), out)
        text = out.getvalue()
        for metric, _j, _u, _w in coststat.METRICS:
            self.assertIn("cost: %s - " % metric, text)
        self.assertNotIn("unavailable", text.split("cost: profile")[0])
        self.assertIn("cost: ratio client: stock:rpcrdmax / stock:stock", text)
        self.assertIn("RPCs/op 3.00 (GETATTR 2.00 READ 1.00)", text)
        # the profile: 4000 samples of the transport module per 4000 ops
        self.assertIn("transport module rpcrdma %s insn/op" % coststat.si(4000 * PERIOD / 4000.0), text)
        self.assertIn("transport module rpcrdmax", text)
        self.assertIn("[rdma_rxe]", text)
        self.assertNotIn("default_idle", text)
        # the transport module's own symbols, with their share of it
        self.assertIn("cost:     top 20 symbols of rpcrdma (insn/op, share of the module):", text)
        self.assertIn("cost:       %9s 100.0%%  xprt_thing" % coststat.si(4000 * PERIOD / 4000.0), text)

    def test_crossings_per_rpc(self):
        out = io.StringIO()
        coststat.report(coststat.Run(self.top), out)
        text = out.getvalue().split("cost: crossings rand-read-qd1:")
        self.assertEqual(len(text), 2, out.getvalue())
        lines = text[1].splitlines()
        # client ends running rpcrdmax: 12 per RPC every round; servers 8, 9, 10
        self.assertIn("cost:   client stock:rpcrdmax: 12.0 crossings per RPC [+0.0% +0.0%], 12.0 per op", lines)
        self.assertIn("cost:   server rpcrdmax:stock: 9.0 crossings per RPC [-11.1% +11.1%] !, 9.0 per op", lines)
        # rpcrdmax_a from C++ (mangled, or an entry point the map names
        # c++), rpcrdmax_entry from a shim and an upcall (the call it
        # makes) cross; C to C, C++ to C++ and the kernel into C++ do not
        self.assertIn("cost:     rpcrdmax_a 6.00, rpcrdmax_entry 2.00, rpcrdmax_ib_done 1.00", lines)
        self.assertFalse([l for l in lines if "stock:stock" in l], lines)

    def test_parse_calls(self):
        calls, lost, mod = coststat.parse_calls(
            "40 rpcrdmax_x _ZN1a1bEv\n2 rpcrdmax_y svc_recv\nlost 3\nmodule rpcrdmax_x\n")
        self.assertEqual((calls[("rpcrdmax_x", "_ZN1a1bEv")], calls[("rpcrdmax_y", "svc_recv")], lost),
                         (40, 2, 3))
        self.assertEqual(mod, {"rpcrdmax_x"})
        with self.assertRaises(coststat.Unavailable):
            coststat.parse_calls("40 rpcrdmax_x f\nmodule rpcrdmax_x\n")   # cut short: no lost line
        with self.assertRaises(coststat.Unavailable):
            coststat.parse_calls("40 rpcrdmax_x f\nlost 0\n")   # no module symbols

    def test_crossing(self):
        lang = {"rpcrdmax_lock": "c", "rpcrdmax_clnt_transmit": "c++"}
        mod = {"rpcrdmax_lock", "rpcrdmax_clnt_transmit", "rpcrdmax_other_shim", "rpcrdmax_wc_done",
               "_ZN8rpcrdmax1fEv", "_ZN8rpcrdmax1gEv"}
        self.assertTrue(coststat.crossing("rpcrdmax_lock", "_ZN8rpcrdmax1fEv", lang, mod))
        self.assertTrue(coststat.crossing("rpcrdmax_lock", "rpcrdmax_clnt_transmit", lang, mod))
        self.assertFalse(coststat.crossing("rpcrdmax_lock", "rpcrdmax_other_shim", lang, mod))
        self.assertFalse(coststat.crossing("rpcrdmax_clnt_transmit", "xprt_transmit", lang, mod))
        self.assertTrue(coststat.crossing("rpcrdmax_clnt_transmit", "rpcrdmax_other_shim", lang, mod))
        self.assertTrue(coststat.crossing("_ZN8rpcrdmax1gEv", "rpcrdmax_wc_done", lang, mod))
        lang["rpcrdmax_ib_done"] = "upcall"
        self.assertTrue(coststat.crossing("rpcrdmax_ib_done", "__ib_process_cq", lang, mod))
        self.assertFalse(coststat.crossing("rpcrdmax_clnt_transmit", "_ZN8rpcrdmax1gEv", lang, mod))

    def test_ratios_of_medians(self):
        out = io.StringIO()
        coststat.report(coststat.Run(self.top), out)
        line = [l for l in out.getvalue().splitlines()
                if l.startswith("cost:   rand-read-qd1") and "[" in l and "ratio" not in l]
        # client pair: stock:rpcrdmax is 1.1x stock:stock at both ends
        self.assertTrue(line and line[0].split()[2] == "1.100", line)

    def test_missing_round_is_unavailable(self):
        shutil.rmtree(os.path.join(self.top, "raw", "r2"))
        run = coststat.Run(self.top)
        self.assertEqual(sorted(run.get("stat", "client", "stock:stock")), [1, 3])
        self.assertIn("round 2 never ran", run.reason(("stat", "client", "stock:stock")))

    def test_failed_marks_say_why(self):
        d = os.path.join(self.top, "raw", "r1", "stock_stock")
        os.remove(os.path.join(d, "meta-stat.cost"))
        write(os.path.join(d, "UNAVAILABLE"), "meta-stat-cost full begin: no answer from the host's icountd in 60 s\n")
        run = coststat.Run(self.top)
        self.assertNotIn(1, run.get("stat", "server", "stock:stock"))
        self.assertIn("icountd", run.reason(("stat", "server", "stock:stock")))

    def test_readdir_of_a_short_directory_is_unavailable(self):
        write(os.path.join(self.top, "raw", "r2", "stock_stock", "readdir.out"), "listings 100 entries 300\n")
        run = coststat.Run(self.top)
        self.assertEqual(sorted(run.get("readdir-500", "client", "stock:stock")), [1, 3])
        self.assertIn("listed 300 entries, not 502", run.reason(("readdir-500", "client", "stock:stock")))

    def test_metric_without_rpcs_is_unavailable(self):
        # 7.3's client answered stat from a delegation: no GETATTR, and the
        # difference of two runs' noise is not a transport's cost
        path = os.path.join(self.top, "raw", "r2", "stock_stock", "meta-stat.cost")
        with open(path) as f:
            lines = [l for l in f if not l.startswith("rpcs ")]
        lines += ["rpcs %s %s GETATTR 7\n" % (run, p) for run in ("null", "full") for p in ("begin", "end")]
        write(path, "".join(lines))
        run = coststat.Run(self.top)
        for end in coststat.ENDS:
            self.assertEqual(sorted(run.get("stat", end, "stock:stock")), [1, 3])
            self.assertIn("the client sent 0.00 RPCs per op", run.reason(("stat", end, "stock:stock")))
        self.assertEqual(sorted(run.get("unlink", "client", "stock:stock")), [1, 2, 3])

    def test_tiny_run_whose_net_rpcs_cancel_keeps_its_figure(self):
        # the cost smoke's seq-write: 1 MiB, then 2; the null run sent a
        # GETATTR more than the full one, so the net of the two is 0
        path = os.path.join(self.top, "raw", "r2", "stock_stock", "seq-write.cost")
        with open(path) as f:
            lines = [l for l in f if not l.startswith("rpcs ")]
        lines += ["rpcs null begin WRITE 4\n", "rpcs null end WRITE 5\n",
                  "rpcs null begin GETATTR 1\n", "rpcs null end GETATTR 3\n",
                  "rpcs full begin WRITE 5\n", "rpcs full end WRITE 7\n",
                  "rpcs full begin GETATTR 3\n", "rpcs full end GETATTR 4\n"]
        write(path, "".join(lines))
        write(os.path.join(self.top, "raw", "r2", "stock_stock", "seq-write.json"), fio_json("seq-write", 2))
        run = coststat.Run(self.top)
        self.assertEqual(sorted(run.get("seq-write", "client", "stock:stock")), [1, 2, 3])

    def test_main_writes_tsv_and_lists_metrics(self):
        out, sys.stdout = sys.stdout, io.StringIO()
        try:
            self.assertEqual(coststat.main(["coststat", self.top, "--top", "5"]), 0)
            sys.stdout = io.StringIO()
            self.assertEqual(coststat.main(["coststat", "--metrics"]), 0)
            self.assertEqual(len(sys.stdout.getvalue().splitlines()), 2 * len(coststat.METRICS))
        finally:
            sys.stdout = out
        with open(os.path.join(self.top, "summary-cost.tsv")) as f:
            rows = [l.split("\t") for l in f]
        self.assertEqual(len(rows), len(coststat.METRICS) * 2 * len(COMBOS))
        self.assertEqual(rows[0][-1].strip(), "3")
        err, sys.stderr = sys.stderr, io.StringIO()
        try:
            self.assertEqual(coststat.main(["coststat", os.path.join(self.top, "raw")]), 2)
        finally:
            sys.stderr = err


if __name__ == "__main__":
    unittest.main()


# The exact count by address (--exact): per row, the transport's symbol
# xmit at 0x...c0000010 costs XMIT instructions per op, the kernel's
# nfs_op per op 3 * XMIT, and a block beyond any symbol's reach UNKNOWN
# per op; each run also has a fixed part in another transport symbol.
XMIT = {"stock:stock": 1000.0, "rpcrdmax:rpcrdmax": 700.0}
KSYMS = ("ffffffff81000000 T nfs_op\n"
         "ffffffff81000800 t nfs_other\n"
         "ffffffffc0000000 t xmit\t[%s]\n"
         "ffffffffc0000400 t setup\t[%s]\n"
         "ffffffffc0000800 W _ZN1a6inlineEv\t[%s]\n")
UNKNOWN = 11


def add_exact(top, combos, rounds):
    with open(os.path.join(top, "bench.env"), "a") as f:
        f.write("BENCH_EXACT=1\n")
    icount = os.path.join(top, "icount")
    os.makedirs(icount)
    seq = 0
    for r in range(1, rounds + 1):
        for row in combos:
            d = os.path.join(top, "raw", "r%d" % r, row.replace(":", "_"))
            for end in coststat.ENDS:
                tr = coststat.transport_of(row, end)
                write(os.path.join(d, "kallsyms-" + end), KSYMS % (tr, tr, tr))
            for job, n in OPS.items():
                lines = []
                for run, k in (("null", 1), ("full", n)):
                    # two dumps in the window: the sum of both counts
                    lines.append("mark %s begin seq %d" % (run, seq))
                    for part in (1, 2):
                        seq += 1
                        for end in coststat.ENDS:
                            x = XMIT[row] * (1 + (r - 2) / 100.0) * (2 if end == "server" else 1)
                            body = ["ffffffffc0000010 %d" % int(x * k / 2),
                                    "ffffffff81000040 %d" % int(3 * x * k / 2),
                                    "ffffffffc0000420 %d" % 5000,
                                    "ffffffffd0000000 %d" % (UNKNOWN * k / 2)]
                            write(os.path.join(icount, "pc.%s.%d" % (end, seq)),
                                  "pccount 4 0\n" + "\n".join(body) + "\n")
                    lines.append("mark %s end seq %d" % (run, seq))
                    seq += 1   # a mark between the runs, outside both windows
                    for end in coststat.ENDS:
                        write(os.path.join(icount, "pc.%s.%d" % (end, seq)),
                              "pccount 4 0\nffffffffc0000010 999999\n")
                with open(os.path.join(d, job + ".cost"), "a") as f:
                    f.write("\n".join(lines) + "\n")


class Exact(unittest.TestCase):
    COMBOS = ("stock:stock", "rpcrdmax:rpcrdmax")

    def setUp(self):
        self.top = make_run(tempfile.mkdtemp(prefix="coststat-exact-"), rounds=3,
                            combos=self.COMBOS, perf=())
        add_exact(self.top, self.COMBOS, 3)

    def tearDown(self):
        shutil.rmtree(self.top)

    def test_parse_pc(self):
        self.assertEqual(coststat.pcsum.parse_pc("pccount 2 5\nffffffff81000000 10\nffffffffc0000000 3\n"),
                         ({0xffffffff81000000: 10, 0xffffffffc0000000: 3}, 5))
        for bad in ("", "pccount 2\n", "pccount 2 0\nzz\n", "pccount 1 0\nffff 1 2\n"):
            with self.assertRaises(coststat.Unavailable):
                coststat.pcsum.parse_pc(bad)

    def test_symbols(self):
        s = coststat.pcsum.Symbols(KSYMS % (("rpcrdmax",) * 3) + "ffffffff81000900 D data\n")
        self.assertEqual(s.of(0xffffffff81000000), ("nfs_op", "kernel"))
        self.assertEqual(s.of(0xffffffff810007ff), ("nfs_op", "kernel"))
        self.assertEqual(s.of(0xffffffff81000900), ("nfs_other", "kernel"))   # data is not text
        self.assertEqual(s.of(0xffffffffc0000010), ("xmit", "rpcrdmax"))
        # a weak symbol (C++'s inline functions) is text too
        self.assertEqual(s.of(0xffffffffc0000810), ("_ZN1a6inlineEv", "rpcrdmax"))
        self.assertEqual(s.of(0xffffffff80000000), ("[unknown]", "unknown"))
        self.assertEqual(s.of(0xffffffffd0000000), ("[unknown]", "unknown"))

    def test_per_symbol_figures_come_back_exactly(self):
        run = coststat.Run(self.top)
        vals, why = coststat.exact_values(run)
        self.assertFalse(why, why)
        for row in self.COMBOS:
            tr = coststat.transport_of(row, "client")
            for r in (1, 2, 3):
                for end in coststat.ENDS:
                    c = vals[("rand-read-qd1", end, row)][r]
                    x = XMIT[row] * (1 + (r - 2) / 100.0) * (2 if end == "server" else 1)
                    self.assertAlmostEqual(c[("xmit", tr)], x, delta=0.01)
                    self.assertAlmostEqual(c[("nfs_op", "kernel")], 3 * x, delta=0.01)
                    self.assertAlmostEqual(c[("setup", tr)], 0.0, delta=1e-9)   # fixed: cancels
                    self.assertAlmostEqual(c[("[unknown]", "unknown")], UNKNOWN, delta=0.01)

    def test_report(self):
        out = io.StringIO()
        coststat.report(coststat.Run(self.top), out)
        text = out.getvalue()
        self.assertIn("cost: exact rand-read-qd1 (insn/op)", text)
        # the kernel's 4011 per op (xmit, nfs_op, the unknown block), 1000 of them the transport's
        self.assertIn("cost:   client stock:stock          kernel 4.011k   [-1.0% +1.0%] (3.9% of the"
                      " whole guest's 104k); rpcrdma 1k       [-1.0% +1.0%]", text)
        # a symbol whose cost the null run cancels (setup) is not listed
        self.assertIn("cost:     top 20 symbols of rpcrdmax (insn/op, mean over the rounds):\n"
                      "cost:             700  xmit\n"
                      "cost:     top 20 symbols of the kernel (insn/op, module):\n", text)
        # the transports' own ratio: 700 / 1000 at the client
        self.assertIn("cost: exact ratio both: rpcrdmax:rpcrdmax / stock:stock", text)
        self.assertIn("cost:   rand-read-qd1    client 0.700 [0.700-0.700]", text)
        self.assertNotIn("cost: exact seq-read (insn/MiB)\ncost:   client stock:stock          unavailable", text)

    def test_blocks_of_one_symbol(self):
        lines = []
        coststat.blocks(coststat.Run(self.top), lines.append, "xmit")
        text = "\n".join(lines)
        # xmit's one block, 0x10 into it: its instructions per op, the
        # mean of the rounds (-1 %, 0, +1 %); the fixed block of setup
        # and the kernel's are not xmit's
        self.assertIn("cost: blocks of xmit, rand-read-qd1 client rpcrdmax:rpcrdmax (insn/op by"
                      " offset, mean over 3 round(s); 700 in all):\ncost:   +0x10           700", text)
        self.assertIn("cost: blocks of xmit, stat server stock:stock", text)
        self.assertIn("+0x10            2k", text)
        self.assertNotIn("+0x40", text)
        lines = []
        coststat.blocks(coststat.Run(self.top), lines.append, "no_such_symbol")
        self.assertEqual(lines, [])

    # A module with debug information: xmit's block at +0x10 is three
    # instructions of xmit.c line 20 (the 16 octets before it, line 10).
    XMIT_S = ("\t.file 1 \"xmit.c\"\n\t.text\n\t.globl xmit\n\t.type xmit, @function\n"
              "xmit:\n\t.loc 1 10\n\t.rept 16\n\tnop\n\t.endr\n"
              "\t.loc 1 20\n\taddl $1, %eax\n\taddl $2, %eax\n\tjmp 1f\n"
              "1:\n\t.loc 1 30\n\tret\n\t.size xmit, .-xmit\n")

    def test_lines_of_one_symbol(self):
        out = []
        coststat.lines(coststat.Run(self.top), out.append, "xmit")
        self.assertEqual(out, ["cost: lines of xmit: unavailable: the run kept no rpcrdmax.ko"])
        src = os.path.join(self.top, "xmit.s")
        write(src, self.XMIT_S)
        subprocess.run(["gcc", "-c", "-o", os.path.join(self.top, "rpcrdmax.ko"), src], check=True)
        out = []
        coststat.lines(coststat.Run(self.top), out.append, "xmit")
        text = "\n".join(out)
        # the block's 700 per op spread over its three instructions, all
        # of line 20; none to line 10 or 30
        self.assertIn("cost: lines of xmit, rand-read-qd1 client rpcrdmax:rpcrdmax (insn/op, mean"
                      " over 3 round(s); 700 in all):\ncost:   by source line:\n"
                      "cost:         700  ", text)
        self.assertIn("xmit.c:20 xmit\ncost:   by function, inlined ones included:\n"
                      "cost:         700  xmit", text)
        self.assertNotIn("xmit.c:10", text)
        self.assertNotIn("xmit.c:30", text)
        out = []
        coststat.lines(coststat.Run(self.top), out.append, "setup")
        self.assertEqual(out, ["cost: lines of setup: unavailable: rpcrdmax.ko has no setup"])

    def test_missing_dump_is_unavailable(self):
        os.remove(os.path.join(self.top, "icount", "pc.client.2"))
        run = coststat.Run(self.top)
        vals, why = coststat.exact_values(run)
        self.assertNotIn(1, vals.get(("seq-write", "client", "stock:stock"), {}))
        self.assertIn("no count by address for client at mark 2", "; ".join(why[("seq-write", "client", "stock:stock")]))
        self.assertIn(1, vals[("seq-write", "server", "stock:stock")])

    def test_overflow_is_unavailable(self):
        write(os.path.join(self.top, "icount", "pc.server.1"), "pccount 4 7\n")
        vals, why = coststat.exact_values(coststat.Run(self.top))
        self.assertIn("ran out of counters", "; ".join(why[("seq-write", "server", "stock:stock")]))

    def test_without_exact_no_section(self):
        out = io.StringIO()
        run = coststat.Run(self.top)
        run.env["BENCH_EXACT"] = "0"
        coststat.report(run, out)
        self.assertNotIn("cost: exact", out.getvalue())

    def test_main_writes_exact_tsv(self):
        out, sys.stdout = sys.stdout, io.StringIO()
        try:
            self.assertEqual(coststat.main(["coststat", self.top]), 0)
        finally:
            sys.stdout = out
        with open(os.path.join(self.top, "summary-exact.tsv")) as f:
            rows = {tuple(l.split("\t")[:4]): l.split("\t")[4:] for l in f}
        self.assertEqual(len(rows), len(coststat.METRICS) * 2 * len(self.COMBOS) * 2)
        self.assertAlmostEqual(float(rows[("stat", "client", "rpcrdmax:rpcrdmax", "rpcrdmax")][0]), 700.0, places=3)
        self.assertAlmostEqual(float(rows[("stat", "server", "stock:stock", "kernel")][0]), 8011.0, places=3)
