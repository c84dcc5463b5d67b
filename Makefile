# SPDX-License-Identifier: GPL-2.0
#
# rpcrdmax - user-facing targets.  kbuild reads ./Kbuild, not this file.
#
#   make                 build rpcrdmax.ko for Debian's current kernel
#   make KDIR=<tree>     build against any prepared kernel tree
#   make check           every test tier (host, build, KUnit, end to end on
#                        Debian 12's kernel, Debian 13's 6.12 and
#                        trixie-backports' 7.x)
#   make build-6.12      build rpcrdmax.ko for Debian 13's current kernel
#                        (6.12) in the trixie build root
#   make check-6.12      the end-to-end cases on 6.12 guests: make check's
#                        (both), modload, and client and server against
#                        6.12's stock rpcrdma
#   make build-7         build rpcrdmax.ko for the newest kernel of Debian 13's
#                        trixie-backports (7.x) in the trixie build root
#   make check-7         the same four cases on 7.x guests with 7.x's stock
#                        rpcrdma (make check runs both)
#   make check-fresh     make check (and demo) in a new minimal Debian 12 root,
#                        as a new user would: tests the set-up itself
#   make check-quick     host tests without fuzzing, strict module build,
#                        KUnit on the plain KUnit kernel (the iteration loop)
#   make check-debug     the e2e cases of rpcrdmax's transports on the debug
#                        kernel (KASAN, lockdep, kmemleak, UBSAN, DEBUG_OBJECTS)
#                        and faults injected into rpcrdmax's shims (make check
#                        runs KUnit there)
#   make check-debug-smoke  the lean smoke case (rpcrdmax on both ends) on the
#                        debug kernel: about 23 minutes, against over an hour
#                        for check-debug
#   make check-battery   the e2e battery's "full" profile, rpcrdmax's client
#                        and server each against stock (make check runs
#                        its shorter "check" profile inside e2e's both
#                        case only, rpcrdmax on both ends)
#   make check-battery-v2  the battery alone, "check" profile, with rpcrdmax
#                        on both ends, which settle on RPC-over-RDMA Version
#                        Two (make check runs it inside both, but its storm)
#   make fuzz-server     the hostile peer's randomized corpus against rpcrdmax's
#                        server (e2e hostile-server): SEED=N (default: the
#                        time), COUNT=N (default 10000); make check runs seed
#                        1 with 2000 messages
#   make demo            set up, build, boot a guest and show the module
#   make bench           rpcrdmax against the stock module: throughput, IOPS,
#                        latency, metadata, CPU per op, in rounds
#                        (Documentation/performance.rst)
#   make bench-cost      the cost meter: instructions per operation at each
#                        end, under QEMU's -icount, in 3 rounds, each guest
#                        kernel's by symbol (--exact), with profiles of the
#                        4 KiB QD1 read and stat (scripts/bench --cost;
#                        BENCH_ARGS="--backports" etc. are passed on)
#   make bench-scale     the server's memory (idle, QD16) and set-up
#                        instructions per RDMA connection at 1, 16 and 64
#                        connections, rpcrdmax against stock, under -icount
#                        (scripts/bench --scale; BENCH_ARGS passed on)
#   make install         install rpcrdmax.ko under /lib/modules/<kver>/updates
#                        with a modprobe.d redirect from the stock rpcrdma,
#                        and run depmod (KVER=, DESTDIR= as usual)
#   make uninstall       remove exactly those; the stock module is used again
#   make setup           install packages and fill ~/.cache/rpcrdmax
#   make clean

SHELL := /bin/bash
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: all modules setup deb build-6.12 check-6.12 build-7 check-7 check check-quick check-host check-build check-kunit \
	check-e2e check-debug check-debug-smoke check-battery check-battery-v2 check-fresh check-iwarp check-addr-event check-arm64 fuzz-server demo bench bench-cost bench-scale bench-core soak clean \
	install uninstall

all: modules

modules:
	@out=$$($(TOP)/scripts/build-module $(if $(KDIR),--kdir $(KDIR)) | tail -n1) && \
	  ln -f "$$out/rpcrdmax.ko" $(TOP)/rpcrdmax.ko && echo "built $(TOP)/rpcrdmax.ko (from $$out)"

setup:
	$(TOP)/scripts/setup

INSTALL_ARGS = $(if $(KVER),--kver $(KVER)) $(if $(DESTDIR),--destdir $(DESTDIR))

install: modules
	$(TOP)/scripts/install --module $(TOP)/rpcrdmax.ko $(INSTALL_ARGS)

# (for the kernel the built module is for, else the running one)
uninstall:
	$(TOP)/scripts/install --uninstall \
	  $(if $(wildcard $(TOP)/rpcrdmax.ko),--module $(TOP)/rpcrdmax.ko) $(INSTALL_ARGS)

# rpcrdmax.ko for Debian 13's current kernel (6.12), in the trixie build
# root (scripts/build-module --trixie).
build-6.12:
	@out=$$($(TOP)/scripts/build-module --trixie | tail -n1) && echo "built $$out/rpcrdmax.ko"

# The e2e cases on Debian 13 guests with 6.12: make check's one (both,
# rpcrdmax on both ends), and modload, client and server (rpcrdmax
# against 6.12's stock rpcrdma), which make check leaves out for time.
check-6.12:
	$(TOP)/scripts/e2e --trixie modload client server both

# rpcrdmax.ko for trixie-backports' newest kernel (7.x), in the trixie
# build root (scripts/build-module --backports).
build-7:
	@out=$$($(TOP)/scripts/build-module --backports | tail -n1) && echo "built $$out/rpcrdmax.ko"

# The e2e cases on Debian 13 guests with that 7.x kernel: make check's
# one (both), and modload, client and server against 7.x's stock rpcrdma.
check-7:
	$(TOP)/scripts/e2e --backports modload client server both

# The e2e cases over soft-iWARP (siw) instead of soft-RoCE: stock on both
# ends, client, server, both and removal (scripts/e2e --siw), on Debian
# 12's 6.1 and on trixie-backports' 7.x; both run, whichever fails.
check-iwarp:
	@rc=0; $(TOP)/scripts/e2e --siw || rc=1; $(TOP)/scripts/e2e --siw --backports || rc=1; exit $$rc

# The e2e cases on Debian 12's arm64 guests (qemu-system-aarch64, TCG):
# modload, package (the DKMS build in an arm64 root, under qemu-user) and
# both, rpcrdmax cross-built for arm64 (scripts/e2e --arm64).
check-arm64:
	$(TOP)/scripts/e2e --arm64

# The rpcrdmax-dkms Debian package, in build/deb/ (scripts/deb).
deb:
	$(TOP)/scripts/deb

# rpcrdmax's client under RDMA_CM_EVENT_ADDR_CHANGE (a bond's failovers,
# Documentation/stock-fixes.rst "Address changes"): the client case with
# that round added (with --debug too: RPCRDMAX_ADDR_EVENT=1 scripts/e2e
# --debug client).
check-addr-event:
	RPCRDMAX_ADDR_EVENT=1 $(TOP)/scripts/e2e client

check:
	$(TOP)/scripts/check

check-fresh:
	$(TOP)/scripts/check-fresh

check-quick:
	$(TOP)/scripts/check --quick

check-host:
	$(TOP)/scripts/check host

check-build:
	$(TOP)/scripts/check build

check-kunit:
	$(TOP)/scripts/check kunit

check-e2e:
	$(TOP)/scripts/check e2e

fuzz-server:
	@seed=$(or $(SEED),$$(date +%s)) count=$(or $(COUNT),10000); \
	  echo "fuzz-server: seed $$seed, $$count messages"; \
	  RPCRDMAX_CORPUS=$$seed:$$count $(TOP)/scripts/e2e hostile-server

check-debug:
	$(TOP)/scripts/e2e --debug

check-debug-smoke:
	$(TOP)/scripts/e2e --debug smoke

check-battery:
	RPCRDMAX_BATTERY_PROFILE=full $(TOP)/scripts/e2e battery-client battery-server

check-battery-v2:
	RPCRDMAX_BATTERY_SERVER=rpcrdmax RPCRDMAX_BATTERY_CLIENT=rpcrdmax $(TOP)/scripts/e2e battery

demo:
	$(TOP)/scripts/demo

# One e2e case many times in a row beside a bounded CPU load
# (scripts/soak; Documentation/testing.rst, "Soak"), e.g.
#   make soak CASE=server SOAK_ARGS="--trixie --attempts 20"
soak:
	@[ -n "$(CASE)" ] || { echo "make soak CASE=NAME [SOAK_ARGS=...]; NAME: $$($(TOP)/scripts/e2e --known)" >&2; exit 2; }
	$(TOP)/scripts/soak $(SOAK_ARGS) $(CASE)

bench:
	$(TOP)/scripts/bench

bench-cost:
	$(TOP)/scripts/bench --cost --exact --perf rand-read-qd1,meta-stat $(BENCH_ARGS)

bench-scale:
	$(TOP)/scripts/bench --scale $(BENCH_ARGS)

# The protocol core's instructions per RPC, exactly (callgrind on the
# host; tools/bench/corecost, Documentation/performance.rst)
bench-core:
	$(TOP)/tools/bench/corecost $(BENCH_ARGS)

clean:
	rm -rf $(TOP)/build $(TOP)/rpcrdmax.ko
