#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""perfsum.py - a `scripts/bench --perf JOB` run's profiles, side by side.

    perfsum.py DIR [--top N]

For every row of DIR/raw/r*/ROW/ that has JOB.perf-server.txt or
JOB.perf-client.txt (`perf report --sort sym` of one guest during JOB's
run, bench-client.sh), prints the share of the guest's busy samples (all
samples but the idle loop's) that each kernel module took - symbols are
matched to modules with the .kallsyms file saved next to the report -
and its N busiest symbols.  Profiles are relative costs within one guest
in one run under TCG: compare shares between rows, never absolute times.
"""
import argparse
import collections
import pathlib
import re
import sys

IDLE = {"native_safe_halt", "pv_native_safe_halt", "default_idle", "default_idle_call",
        "cpu_idle_poll", "do_idle", "arch_cpu_idle", "acpi_idle_do_entry", "acpi_safe_halt",
        "mwait_idle", "poll_idle"}
LINE = re.compile(r"^\s*([0-9.]+)%\s+(?:\S+\s+)?\[([k.])\]\s+(\S+)")


def module_of(kallsyms):
    """symbol -> module name, from /proc/kallsyms lines with a [module]."""
    mods = {}
    for line in kallsyms.read_text(errors="replace").splitlines():
        f = line.split()
        if len(f) == 4 and f[3].startswith("["):
            mods.setdefault(f[2], f[3].strip("[]"))
    return mods


def load(report):
    """[(percent, symbol, user)] from a `perf report --stdio --sort sym` file."""
    rows = []
    for line in report.read_text(errors="replace").splitlines():
        m = LINE.match(line)
        if m:
            rows.append((float(m.group(1)), m.group(3), m.group(2) == "."))
    return rows


def summarize(report, top):
    rows = load(report)
    ks = report.with_suffix(".kallsyms")
    mods = module_of(ks) if ks.exists() else {}
    busy_rows = [r for r in rows if r[1] not in IDLE]
    busy = sum(p for p, _, _ in busy_rows)
    if not rows or busy <= 0:
        return [f"  {report.name}: no samples"]

    def where(sym, user):
        return "user" if user else mods.get(sym, "kernel")

    by_mod = collections.Counter()
    for p, sym, user in busy_rows:
        by_mod[where(sym, user)] += p
    out = [f"  {report.name}: busy {busy:.1f}% of samples; share of busy by module:"]
    out += [f"    {m:<16} {100 * p / busy:5.1f}%" for m, p in by_mod.most_common(14)]
    out.append("  busiest symbols (share of busy):")
    for p, sym, user in busy_rows[:top]:
        out.append(f"    {100 * p / busy:5.1f}%  {sym}  [{where(sym, user)}]")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=pathlib.Path)
    ap.add_argument("--top", type=int, default=15)
    a = ap.parse_args()
    reports = sorted(a.dir.glob("raw/r*/*/*.perf-*.txt"))
    if not reports:
        print(f"perfsum: no profiles under {a.dir}/raw (scripts/bench --perf JOB)",
              file=sys.stderr)
        return 1
    for r in reports:
        print(f"perfsum: {r.parent.parent.name}/{r.parent.name}")
        print("\n".join(summarize(r, a.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
