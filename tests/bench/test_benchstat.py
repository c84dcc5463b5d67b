# SPDX-License-Identifier: GPL-2.0
"""Host tests of tools/bench/benchstat.py: the parsers on outputs recorded
from a real `scripts/bench --quick` run (tests/bench/fixtures/run, the
guests' raw/ folder as they left it), the statistics on hand-worked
numbers, and the PNG check."""

import io
import os
import shutil
import struct
import sys
import tempfile
import unittest
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "bench"))
import benchstat  # noqa: E402

RUN = os.path.join(HERE, "fixtures", "run")
R1 = os.path.join(RUN, "raw", "r1")


def read(*p):
    with open(os.path.join(*p)) as f:
        return f.read()


def tiny_png(w=3, h=2):
    """A valid 8-bit RGB PNG, built by hand."""
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff))
    raw = b"".join(b"\x00" + bytes([10, 20, 30]) * w for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Statistics(unittest.TestCase):
    def test_summary_odd_and_even(self):
        self.assertEqual(benchstat.summary([3.0, 1.0, 2.0]), (2.0, 1.0, 3.0))
        self.assertEqual(benchstat.summary([4.0, 1.0, 2.0, 3.0]), (2.5, 1.0, 4.0))
        self.assertEqual(benchstat.summary([7.0]), (7.0, 7.0, 7.0))

    def test_ratio_of_medians_with_per_round_range(self):
        base = {1: 100.0, 2: 110.0, 3: 90.0}
        new = {1: 80.0, 2: 99.0, 3: 90.0}
        r, lo, hi, n = benchstat.ratio(base, new)
        self.assertAlmostEqual(r, 90.0 / 100.0)   # medians 90 and 100
        self.assertAlmostEqual(lo, 0.8)           # round 1: 80/100
        self.assertAlmostEqual(hi, 1.0)           # round 3: 90/90
        self.assertEqual(n, 3)

    def test_ratio_pairs_only_rounds_with_both(self):
        r, lo, hi, n = benchstat.ratio({1: 10.0, 2: 20.0}, {2: 30.0})
        self.assertAlmostEqual(r, 30.0 / 15.0)
        self.assertEqual((lo, hi, n), (1.5, 1.5, 1))

    def test_ratio_unavailable(self):
        self.assertIsNone(benchstat.ratio({}, {1: 1.0}))
        self.assertIsNone(benchstat.ratio({1: 0.0}, {1: 1.0}))
        self.assertIsNone(benchstat.ratio({1: 1.0}, {2: 1.0}))


class Cpu(unittest.TestCase):
    def test_busy_ticks_leave_out_idle_and_iowait(self):
        # user nice system idle iowait irq softirq steal guest guest_nice
        self.assertEqual(benchstat.busy_ticks("cpu  10 1 20 5000 700 3 4 0 0 0"), 38)

    def test_parse_cpu(self):
        text = ("client before cpu  100 0 50 900 10 1 2 0 0 0\n"
                "client after cpu  150 0 80 1900 10 1 12 0 0 0\n"
                "server before cpu  10 0 10 10 0 0 0 0 0 0\n"
                "server after cpu  10 0 60 10 0 0 50 0 0 0\n")
        got = benchstat.parse_cpu(text)
        self.assertAlmostEqual(got["client"], (50 + 30 + 10) / 100.0)
        self.assertAlmostEqual(got["server"], (50 + 50) / 100.0)

    def test_parse_cpu_needs_both_sides(self):
        with self.assertRaises(benchstat.Unavailable):
            benchstat.parse_cpu("client before cpu  1 0 0 0 0 0 0\nclient after cpu  2 0 0 0 0 0 0\n")

    def test_parse_cpu_recorded(self):
        got = benchstat.parse_cpu(read(R1, "stock_stock", "seq-read.cpu"))
        self.assertAlmostEqual(got["client"], (76 + 51 + 104) / 100.0)
        self.assertAlmostEqual(got["server"], (12 + 38 + 128) / 100.0)


class Fio(unittest.TestCase):
    def test_recorded_seq_read(self):
        got = benchstat.parse_fio(read(R1, "stock_stock", "seq-read.json"))
        self.assertEqual(got, EXPECT_SEQ_READ)

    def test_recorded_qd1_latency(self):
        got = benchstat.parse_fio(read(R1, "stock_stock", "rand-read-qd1.json"))
        self.assertEqual((got["p50_us"], got["p99_us"]), EXPECT_QD1_P50_P99)

    def test_recorded_metadata(self):
        for job in ("meta-create", "meta-stat", "meta-unlink"):
            got = benchstat.parse_fio(read(R1, "stock_stock", job + ".json"))
            self.assertEqual(got["ops"], EXPECT_FILES, job)

    def test_not_json(self):
        with self.assertRaises(benchstat.Unavailable):
            benchstat.parse_fio("fio: engine libaio not loadable\n")

    def test_error_job(self):
        with self.assertRaises(benchstat.Unavailable):
            benchstat.parse_fio('{"jobs": [{"error": 5, "read": {"total_ios": 1}}]}')


class Perftest(unittest.TestCase):
    def test_recorded_write_bw(self):
        t = benchstat.parse_perftest(read(R1, "link", "ib_write_bw.txt"))
        self.assertEqual(t["BW average[MB/sec]"], EXPECT_WRITE_MIB)
        self.assertEqual(benchstat.perftest_value(t, "bw"), EXPECT_WRITE_MIB)

    def test_trixie_unit(self):
        # Debian 13's perftest (25.01) labels the same unit MiB/sec
        # (recorded on a 7.3.4 guest by scripts/bench --backports)
        t = benchstat.parse_perftest(read(HERE, "fixtures", "ib_write_bw-trixie.txt"))
        self.assertEqual(benchstat.perftest_value(t, "bw"), 14.64)

    def test_gbit_unit(self):
        t = {"BW average[Gb/sec]": 1.0}
        self.assertAlmostEqual(benchstat.perftest_value(t, "bw"), 1e9 / 8 / 1048576)

    def test_recorded_send_lat(self):
        t = benchstat.parse_perftest(read(R1, "link", "ib_send_lat.txt"))
        self.assertEqual((benchstat.perftest_value(t, "t_typical"),
                          benchstat.perftest_value(t, "p99")), EXPECT_SEND_LAT)

    def test_no_table(self):
        with self.assertRaises(benchstat.Unavailable):
            benchstat.parse_perftest(" Couldn't connect to 192.0.2.1:18515\n")


class RunFolder(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.top = os.path.join(self.tmp, "run")
        shutil.copytree(RUN, self.top)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def report(self):
        out = io.StringIO()
        benchstat.report(benchstat.Run(self.top), out)
        return out.getvalue()

    def test_every_metric_has_a_value(self):
        run = benchstat.Run(self.top)
        for m in benchstat.NFS_METRICS + benchstat.cpu_metrics():
            for row in ("stock:stock", "tcp"):
                self.assertEqual(len(run.get(m[0], row)), 1, (m[0], row, run.reason(m[0], row)))
        for m in benchstat.LINK_METRICS:
            self.assertEqual(len(run.get(m[0], "link")), 1, (m[0], run.reason(m[0], "link")))

    def test_missing_output_is_unavailable_with_reason(self):
        os.remove(os.path.join(self.top, "raw", "r1", "stock_stock", "seq-read.json"))
        text = self.report()
        self.assertIn("unavailable: no output from seq-read", text)
        run = benchstat.Run(self.top)
        self.assertEqual(run.get("seq-read", "stock:stock"), {})
        self.assertEqual(run.get("cpu-server-seq-read", "stock:stock"), {})
        self.assertEqual(len(run.get("seq-write", "stock:stock")), 1)

    def test_guest_reason_is_kept(self):
        d = os.path.join(self.top, "raw", "r1", "stock_stock")
        os.remove(os.path.join(d, "meta-stat.json"))
        with open(os.path.join(d, "UNAVAILABLE"), "a") as f:
            f.write("meta-stat fio exited 1: fio: pid=1, err=5/file:engines/filestat.c\n")
        self.assertIn("unavailable: fio exited 1: fio: pid=1", self.report())

    def test_unfinished_run_says_so(self):
        os.remove(os.path.join(self.top, "raw", "complete"))
        shutil.rmtree(os.path.join(self.top, "raw", "r1", "link"))
        text = self.report()
        self.assertIn("did not finish", text)
        self.assertIn("unavailable: round 1 never ran", text)


class Png(unittest.TestCase):
    def setUp(self):
        fd, self.path = tempfile.mkstemp(suffix=".png")
        os.close(fd)

    def tearDown(self):
        os.remove(self.path)

    def write(self, data):
        with open(self.path, "wb") as f:
            f.write(data)

    def test_valid(self):
        self.write(tiny_png())
        self.assertEqual(benchstat.check_png(self.path), (3, 2))

    def test_truncated(self):
        self.write(tiny_png()[:-5])
        with self.assertRaises(benchstat.Unavailable):
            benchstat.check_png(self.path)

    def test_flipped_byte(self):
        data = bytearray(tiny_png())
        data[40] ^= 0xff
        self.write(bytes(data))
        with self.assertRaises(benchstat.Unavailable):
            benchstat.check_png(self.path)

    def test_not_png(self):
        self.write(b"set terminal png\n")
        with self.assertRaises(benchstat.Unavailable):
            benchstat.check_png(self.path)


# Figures read off the recorded outputs by eye (fio's JSON, perftest's table)
EXPECT_SEQ_READ = {"ops": 39, "bytes": 40894464, "bw_mib": 16744 / 1024.0, "iops": 16.352201,
                   "p50_us": 463470.592, "p99_us": 750780.416}
EXPECT_QD1_P50_P99 = (1859.584, 7438.336)
EXPECT_FILES = 200
EXPECT_WRITE_MIB = 11.47
EXPECT_SEND_LAT = (484.07, 3580.04)

if __name__ == "__main__":
    unittest.main()
