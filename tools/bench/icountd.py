#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""icountd - the host's side of the cost meter's marks (scripts/vm with
RPCRDMAX_ICOUNT=1; Documentation/performance.rst, "Cost per operation").

    icountd.py DIR NAME=SOCKET[,PCSOCKET] [NAME=SOCKET[,PCSOCKET] ...]

Each guest's QEMU runs with `-icount shift=0` and a QMP socket.  Under
-icount QEMU counts every guest instruction it executes, and QMP's
query-replay returns that raw count ("icount", instructions, without the
time added while the vCPU was halted) whatever the record/replay mode.

A guest asks for a mark by creating DIR/req.N (N = 1, 2, ...; its one
line is a label, which may still be empty when it is read).  This reads
every guest's count, one QMP command after the other, and answers with
DIR/ack.N (written whole, then renamed):

    NAME COUNT        one line per guest, or NAME error: WHY
    host NS           the host's CLOCK_MONOTONIC, in nanoseconds
    seq N             the mark's number

and appends "N LABEL" and the same lines to DIR/marks.log.

A guest with a PCSOCKET runs the pccount plugin (tools/bench/pccount.c,
scripts/bench --exact): after reading the counts, this asks it to write
its kernel instructions by block address grown since the previous mark
into DIR/pc.NAME.N, and waits for it, before the answer; a plugin that
fails is written in marks.log ("pc NAME error: WHY"), not in the
answer, so the whole-guest counts stay usable.  The guest
that asked waits idle for the answer, so its own count is exact; a guest
whose vCPU runs at that moment is read as of the end of its last
execution slice (QEMU updates the count when the vCPU leaves its loop:
halt, interrupt, timer deadline), a lag that moves at most a few thousand
instructions of an idle guest's wake-up from one mark's window to the
next.

Ends when every QMP socket has closed (the guests are gone), on SIGTERM,
or when its parent (scripts/vm) has gone.
"""

import json
import os
import select
import signal
import socket
import sys
import time

POLL = 0.004  # seconds between looks for the next request
CONNECT_WAIT = 120  # seconds for QEMU to create its socket


def connect_unix(path, deadline, timeout):
    """A stream socket connected to PATH (tried until DEADLINE, for QEMU
    to make it) and its reader; or raises OSError."""
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.settimeout(timeout)
            s.connect(path)
            return s, s.makefile("r")
        except OSError as e:
            s.close()
            if time.monotonic() > deadline:
                raise OSError("cannot connect to %s: %s" % (path, e))
            time.sleep(0.2)


class Qmp:
    def __init__(self, name, path):
        self.name, self.path = name, path
        self.sock = self.rfile = None
        self.dead = None  # why it can no longer answer
        self.pc = None  # its pccount plugin, if any

    def connect(self, deadline):
        try:
            self.sock, self.rfile = connect_unix(self.path, deadline, 10)
        except OSError as e:
            self.dead = str(e)
            return
        try:
            greeting = self._line()
            if "QMP" not in greeting:
                raise OSError("no QMP greeting: %r" % greeting)
            self.command("qmp_capabilities")
        except (OSError, ValueError) as e:
            self.dead = "QMP handshake: %s" % e

    def _line(self):
        line = self.rfile.readline()
        if not line:
            raise OSError("QMP socket closed")
        return json.loads(line)

    def command(self, cmd):
        self.sock.sendall((json.dumps({"execute": cmd}) + "\n").encode())
        while True:
            msg = self._line()
            if "event" in msg:
                continue
            if "error" in msg:
                raise OSError("%s: %s" % (cmd, msg["error"].get("desc", msg["error"])))
            return msg.get("return")

    def icount(self):
        if self.dead:
            return "error: " + self.dead
        try:
            ret = self.command("query-replay")
            return "%d" % int(ret["icount"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            self.dead = str(e)
            return "error: " + self.dead


class PcCount:
    """A guest's pccount plugin: "dump FILE" -> "ok LINES" | "error: WHY"."""

    def __init__(self, path):
        self.path = path
        self.sock = self.rfile = None
        self.dead = None

    def connect(self, deadline):
        try:
            # a dump of a busy guest's counters takes a while
            self.sock, self.rfile = connect_unix(self.path, deadline, 120)
        except OSError as e:
            self.dead = str(e)

    def dump(self, path):
        """None, or why FILE was not written."""
        if self.dead:
            return self.dead
        try:
            self.sock.sendall(("dump %s\n" % path).encode())
            line = self.rfile.readline()
            if not line:
                raise OSError("plugin socket closed")
        except OSError as e:
            self.dead = str(e)
            return self.dead
        return None if line.startswith("ok") else line.strip()


def watch(guests, timeout):
    """Wait up to timeout seconds; read what live guests' QEMUs sent (QMP
    events), and mark dead those whose socket closed (QEMU exited)."""
    live = [g for g in guests if not g.dead]
    if not live:
        time.sleep(timeout)
        return
    ready, _, _ = select.select([g.sock for g in live], [], [], timeout)
    for g in live:
        if g.sock in ready:
            try:
                g._line()
            except (OSError, ValueError) as e:
                g.dead = str(e)


def main(argv):
    if len(argv) < 3 or any("=" not in a for a in argv[2:]):
        sys.stderr.write(__doc__)
        return 2
    top = argv[1]
    os.makedirs(top, exist_ok=True)
    parent = os.getppid()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    guests = []
    for a in argv[2:]:
        name, socks = a.split("=", 1)
        qmp, _, pc = socks.partition(",")
        g = Qmp(name, qmp)
        if pc:
            g.pc = PcCount(pc)
        guests.append(g)
    deadline = time.monotonic() + CONNECT_WAIT
    for g in guests:
        g.connect(deadline)
        if g.pc:
            g.pc.connect(deadline)
    with open(os.path.join(top, "marks.log"), "a") as log:
        for g in guests:
            log.write("connect %s %s\n" % (g.name, g.dead or "ok"))
            if g.pc:
                log.write("connect pc %s %s\n" % (g.name, g.pc.dead or "ok"))
        log.flush()
        n = 1
        while True:
            req = os.path.join(top, "req.%d" % n)
            if not os.path.exists(req):
                if os.getppid() != parent or all(g.dead for g in guests):
                    return 0
                watch(guests, POLL)
                continue
            lines = ["%s %s" % (g.name, g.icount()) for g in guests]
            lines.append("host %d" % time.monotonic_ns())
            lines.append("seq %d" % n)
            pcerr = []
            for g in guests:
                if g.pc:
                    why = g.pc.dump(os.path.join(top, "pc.%s.%d" % (g.name, n)))
                    if why:
                        pcerr.append("pc %s error: %s" % (g.name, why))
            try:
                with open(req) as f:
                    label = f.read().strip()
            except OSError:
                label = ""
            tmp = os.path.join(top, ".ack.%d" % n)
            with open(tmp, "w") as f:
                f.write("\n".join(lines) + "\n")
            os.rename(tmp, os.path.join(top, "ack.%d" % n))
            log.write("%d %s\n%s\n" % (n, label or "-", "\n".join(lines + pcerr)))
            log.flush()
            n += 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
