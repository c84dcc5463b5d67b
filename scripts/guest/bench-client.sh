# SPDX-License-Identifier: GPL-2.0
# Benchmark, client side (Documentation/performance.rst).  Runs
# BENCH_ROUNDS rounds; each round visits every row once, starting one row
# later than the round before: the SERVER:CLIENT combos of BENCH_COMBOS,
# "tcp" (NFS over TCP on the same link) and "link" (raw perftest between
# the guests).  The server guest switches its transport and takes CPU
# snapshots on request (bench-server.sh).  Nothing is computed here: raw
# outputs go to /share/raw/rROUND/ROW/ and the host reads them
# (tools/bench/benchstat.py):
#   JOB.json        fio's JSON output of the measured run
#   JOB.cpu         "client|server before|after cpu ..." /proc/stat lines
#                   taken around the measured run
#   TOOL.txt        perftest's client output (row "link")
#   JOB.perf-server.txt, JOB.perf-client.txt
#                   `perf report` of each guest during JOB's run
#                   (JOB in BENCH_PERF: scripts/bench --perf)
#   UNAVAILABLE     "JOB why" lines for what could not be measured
# With BENCH_COST=1 (scripts/bench --cost) the rows are the combos only
# and each job counts instructions instead of timing them: see "Cost per
# operation" below for its files.  With BENCH_SCALE=1 as well
# (scripts/bench --scale) each row measures connections instead of jobs:
# see "Scale" below.
# bash, not the guest's sh (dash): read -t, ${var/x/y}
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. /share/lib.sh
set -u
BENCH_COMBOS="stock:stock stock:rpcrdmax rpcrdmax:stock rpcrdmax:rpcrdmax"
BENCH_ROUNDS=3
BENCH_SECS=20
BENCH_WARM=5	# seconds of each job run first and discarded (TCG translates
		# each new code path once: the first run of a path is slow)
BENCH_SIZE=128m
BENCH_FILES=2000
BENCH_VERS=4.2
BENCH_PERF=		# jobs profiled (scripts/bench --perf), space-separated
BENCH_COST=0		# scripts/bench --cost: count instructions per operation
BENCH_OPS=4000		# --cost: 4 KiB reads per measured run
BENCH_MIB=64		# --cost: MiB per sequential run
BENCH_LISTINGS=100	# --cost: listings per readdir run
BENCH_DIRENTS=500	# --cost: entries of the readdir job's directory
BENCH_PERF_PERIOD=100003	# --cost --perf: one sample per this many ns
BENCH_EXACT=0		# --cost --exact: the guests' QEMU count by block address
BENCH_SCALE=0		# scripts/bench --scale (with BENCH_COST=1)
BENCH_INLINE=		# scripts/bench --inline: rdma_max_inline_{read,write} (empty: the default)
BENCH_CONNS="1 16 64"	# --scale: the numbers of connections
[ -r /share/bench.env ] && . /share/bench.env
SERVER=192.0.2.1
RAW=/share/raw
JOBS="seq-write seq-read rand-read rand-read-qd1 meta-create meta-stat meta-unlink"
mkdir -p $RAW /mnt/nfs /mnt/meta /mnt/scale
if [ "$BENCH_COST" = 1 ]; then
	JOBS="$JOBS readdir"
	mkdir -p /share/icount
	# nap SECONDS: an idle wait that forks nothing (read -t on a FIFO)
	mkfifo /tmp/tick
	exec 3<>/tmp/tick
fi
nap() { read -r -t "$1" -u 3 _ || true; }
# perf_job JOB: JOB is one of those to profile
perf_job() { case " $BENCH_PERF " in *" $1 "*) return 0 ;; esac; return 1; }
step "client: rxe up" rxe_up
wait_for /share/server.ready 300 || { step_fail "client: server never became ready"; exit 1; }

req_n=1
# ask LINE: one request to the server guest; its answer in $ANS.  (Not
# called in $(...): the request number lives in this shell.)
ask() {
	local n=$req_n
	req_n=$((req_n + 1))
	echo "$*" >/share/bench/req.$n.tmp
	mv /share/bench/req.$n.tmp /share/bench/req.$n
	if wait_for /share/bench/ack.$n 600; then ANS=$(cat /share/bench/ack.$n); else ANS="fail: no answer in 600 s"; fi
}

# unavailable DIR JOB WHY...: one line of DIR/UNAVAILABLE (WHY's own
# line breaks as spaces: a mount's or a module load's output has them).
unavailable() {
	local d=$1 j=$2
	shift 2
	printf '%s %s\n' "$j" "$(printf '%s' "$*" | tr '\n' ' ')" >>"$d/UNAVAILABLE"
	echo "bench: $(basename "$(dirname "$d")")/$(basename "$d") $j unavailable: $*"
}

# job_shape JOB: fio's arguments that make JOB what it is (the I/O
# pattern, or the metadata engine), for fio_args and cost_fio_args.
job_shape() {
	case $1 in
	seq-write) echo "--rw=write --bs=1m --iodepth=8" ;;
	seq-read) echo "--rw=read --bs=1m --iodepth=8" ;;
	rand-read) echo "--rw=randread --bs=4k --iodepth=16" ;;
	rand-read-qd1) echo "--rw=randread --bs=4k --iodepth=1" ;;
	meta-create) echo "--ioengine=filecreate" ;;
	meta-stat) echo "--ioengine=filestat" ;;
	meta-unlink) echo "--ioengine=filedelete" ;;
	esac
}

# fio_args JOB SECS: fio's arguments for JOB (data jobs on /mnt/nfs,
# metadata jobs on /mnt/meta, which has no attribute cache).
fio_args() {
	local d="--filename=/mnt/nfs/bench.dat --size=$BENCH_SIZE --ioengine=libaio --direct=1 --time_based --runtime=$2"
	local m="--directory=/mnt/meta/md --filename_format=f.\$filenum --nrfiles=$BENCH_FILES --filesize=4k --create_on_open=1 --openfiles=64"
	local s
	s=$(job_shape "$1")
	[ -n "$s" ] || return 0
	case $1 in
	meta-*) echo "$m $s" ;;
	*) echo "$d $s" ;;
	esac
}

# measure DIR JOB: the measured run, CPU snapshots of both guests around
# it; both guests profiled when JOB is BENCH_PERF.
measure() {
	local d=$1 j=$2 s1 s2 c1 c2 rc=0 prec=
	if perf_job "$j"; then
		ask perf start
		[ "$ANS" = ok ] || unavailable "$d" "$j-perf-server" "server $ANS"
		prec=$(perf_start /tmp/perf.data) || { unavailable "$d" "$j-perf-client" "$prec"; prec=; }
	fi
	ask stat
	s1=$ANS c1=$(grep '^cpu ' /proc/stat)
	# shellcheck disable=SC2046
	timeout -k 10 $((BENCH_SECS + 600)) fio --name="$j" $(fio_args "$j" "$BENCH_SECS") \
		--output-format=json --output=/tmp/fio.json >/tmp/fio.err 2>&1 || rc=$?
	c2=$(grep '^cpu ' /proc/stat)
	ask stat
	s2=$ANS
	if perf_job "$j"; then
		[ -z "$prec" ] || perf_stop "$prec" /tmp/perf.data "$d/$j.perf-client.txt"
		ask perf stop "$d/$j.perf-server.txt"
	fi
	if [ $rc -ne 0 ] || ! grep -q '"jobs"' /tmp/fio.json 2>/dev/null; then
		unavailable "$d" "$j" "fio exited $rc: $(tail -n 2 /tmp/fio.err | tr '\n' ' ')"
		return 1
	fi
	cp /tmp/fio.json "$d/$j.json"
	case "$s1 $s2" in
	"ok cpu "*"ok cpu "*)
		printf 'client before %s\nclient after %s\nserver before %s\nserver after %s\n' \
			"$c1" "$c2" "${s1#ok }" "${s2#ok }" >"$d/$j.cpu" ;;
	*) unavailable "$d" "$j-cpu" "server CPU snapshot: $s1 / $s2" ;;
	esac
}

# warm DIR JOB: the job run once, briefly, and discarded.
warm() {
	local a
	a=$(fio_args "$2" "$BENCH_WARM")
	case $2 in meta-*) a=${a/--nrfiles=$BENCH_FILES/--nrfiles=50} ;; esac
	[ "$BENCH_WARM" -gt 0 ] || return 0
	# shellcheck disable=SC2086
	timeout -k 10 $((BENCH_WARM + 600)) fio --name="warm-$2" $a --output=/dev/null >/tmp/fio.err 2>&1 ||
		echo "bench: warm-up of $2 failed: $(tail -n 1 /tmp/fio.err)"
}

# ---- Cost per operation (BENCH_COST=1) --------------------------------
# Every guest runs under QEMU's -icount and the host answers marks with
# each guest's count of executed instructions (scripts/vm,
# tools/bench/icountd.py).  Each job runs: a warm-up (discarded), a null
# run of one operation, the full run, and, for a job of BENCH_PERF, a
# profile run as long as the full one; tools/bench/coststat.py takes the
# null run from the full one, which leaves fio's (or perl's) start-up and
# the marks' own cost out of the figure per operation.  The full and null
# runs count operations, not seconds: BENCH_OPS 4 KiB reads, BENCH_MIB
# MiB, BENCH_FILES files, BENCH_LISTINGS listings of a directory of
# BENCH_DIRENTS entries.  Files, in DIR:
#   JOB.json, JOB.null.json, JOB.perf.json   fio's JSON of each run
#   JOB.out, JOB.null.out, JOB.perf.out      readdir's "listings N entries M"
#   JOB.cost   around each run: "mark RUN begin|end NAME COUNT" (every
#              guest's instruction count, and the host's clock as NAME
#              host), "snap RUN begin|end END SOURCE NCPU NOW IDLE" (each
#              guest's busy_snap, lib.sh) and "rpcs RUN begin|end OP
#              COUNT" (the client's RPCs on the job's mount)
#   JOB.perf-server.txt, JOB.perf-client.txt   the profile run's reports
#   JOB.calls.json|out, JOB.calls-server.txt, JOB.calls-client.txt
#              a profiled job's third extra run, the same size: the
#              calls between rpcrdmax's C shims and its C++ at each end
#              where it is loaded ("COUNT FUNCTION" lines and "lost N",
#              lib.sh calls_start)

mark_n=1 mark_dead=
# icount_mark LABEL: every guest's count of executed instructions, read
# by the host while this guest waits for the answer, idle; the answer's
# "NAME COUNT" lines in MARK.  Nothing forks between the request and the
# answer, and MARK is written out only after the run.  After one mark
# went unanswered, the others fail at once.
icount_mark() {
	local n=$mark_n t=0
	[ -z "$mark_dead" ] || { MARK=$mark_dead; return 1; }
	mark_n=$((n + 1))
	echo "$1" >/share/icount/req.$n
	while [ ! -e /share/icount/ack.$n ]; do
		t=$((t + 1))
		if [ $t -gt 6000 ]; then
			mark_dead="no answer from the host's icountd (mark $n, 60 s)"
			MARK=$mark_dead
			return 1
		fi
		nap 0.01
	done
	MARK=
	IFS= read -r -d '' MARK </share/icount/ack.$n || true
	case $MARK in *error*) return 1 ;; esac
}

# mark_lines "RUN PHASE" MARK: an icount_mark answer as the lines of a
# .cost file, "mark RUN PHASE NAME COUNT" (none for an empty MARK).
mark_lines() {
	[ -z "$2" ] || printf '%s\n' "$2" | sed "/^\$/d; s/^/mark $1 /"
}

# rpc_counts MOUNT: "OP COUNT" for every RPC op this client sent on MOUNT
# (/proc/self/mountstats; the ones not sent yet are left out).
rpc_counts() {
	awk -v m="$1" '$1 == "device" { on = ($5 == m) }
		on && $1 ~ /^[A-Z_0-9]+:$/ && $2 > 0 { sub(":", "", $1); print $1, $2 }' /proc/self/mountstats
}

# cost_fio_args JOB RUN: fio's arguments for JOB's RUN (warm null full
# perf calls), sized in operations.  The metadata jobs' null runs use a
# folder of their own (one file), the others /mnt/meta/md.
cost_fio_args() {
	local j=$1 run=$2 n s dir=/mnt/meta/md
	local d="--filename=/mnt/nfs/bench.dat --size=$BENCH_SIZE --ioengine=libaio --direct=1"
	local m="--filename_format=f.\$filenum --filesize=4k --create_on_open=1 --openfiles=64"
	case $j:$run in
	*:null) n=1 dir=/mnt/meta/null ;;
	seq-*:warm) n=$(( BENCH_MIB / 8 + 1 )) ;;
	rand-*:warm) n=$(( BENCH_OPS / 10 + 1 )) ;;
	meta-*:warm) n=$(( BENCH_FILES < 50 ? BENCH_FILES : 50 )) ;;
	seq-*) n=$BENCH_MIB ;;
	rand-*) n=$BENCH_OPS ;;
	meta-*) n=$BENCH_FILES ;;
	esac
	s=$(job_shape "$j")
	[ -n "$s" ] || return 0
	case $j in
	seq-write)
		# the warm-up writes the whole file, so that no later job of the
		# row lays it out inside a measured run
		[ "$run" = warm ] && echo "$d $s --io_size=$BENCH_SIZE" || echo "$d $s --io_size=${n}m" ;;
	seq-read) echo "$d $s --io_size=${n}m" ;;
	rand-*) echo "$d $s --io_size=$((n * 4))k" ;;
	meta-*) echo "--directory=$dir $m --nrfiles=$n $s" ;;
	esac
}

# readdir_run DIR N: N listings of DIR, each one read from the server:
# before each, posix_fadvise(POSIX_FADV_DONTNEED) on the open directory
# drops the NFS client's cached copy of it (its readdir cache lives in
# the directory's page cache).  fadvise64 is x86_64's system call 221,
# POSIX_FADV_DONTNEED 4.  Prints "listings N entries M".
readdir_run() {
	timeout -k 10 1800 perl -e '
		use strict;
		my ($dir, $n) = @ARGV;
		my $e = 0;
		for (1 .. $n) {
			opendir(my $dh, $dir) or die "opendir $dir: $!\n";
			defined(my $fd = fileno($dh)) or die "no descriptor for $dir\n";
			syscall(221, $fd, 0, 0, 4) == 0 or die "fadvise $dir: $!\n";
			my @names = readdir($dh);
			closedir($dh);
			$e = @names;
		}
		print "listings $n entries $e\n";' "$1" "$2"
}

# cost_cmd JOB RUN OUT: run JOB's RUN, its result (fio's JSON, readdir's
# line) in OUT.
cost_cmd() {
	local j=$1 run=$2 out=$3 n
	if [ "$j" = readdir ]; then
		case $run in null) n=1 ;; warm) n=2 ;; *) n=$BENCH_LISTINGS ;; esac
		readdir_run /mnt/meta/rd "$n" >"$out"
		return
	fi
	# shellcheck disable=SC2046
	timeout -k 10 1800 fio --name="$j" $(cost_fio_args "$j" "$run") \
		--output-format=json --output="$out"
}

# cost_run DIR JOB RUN: one counted run (null full perf calls); its lines
# appended to DIR/JOB.cost, its result kept as DIR/JOB[.RUN].json|out.
cost_run() {
	local d=$1 j=$2 run=$3 mnt=/mnt/nfs ext=json rc=0 prec= r1 r2 cs1 cs2 ss1 ss2 m1= m2= keep
	case $j in meta-* | readdir) mnt=/mnt/meta ;; esac
	[ "$j" = readdir ] && ext=out
	keep=$d/$j.$run.$ext
	[ "$run" = full ] && keep=$d/$j.$ext
	if [ "$run" = perf ]; then
		ask perf start "$BENCH_PERF_PERIOD"
		[ "$ANS" = ok ] || unavailable "$d" "$j-perf-server" "server $ANS"
		prec=$(perf_start /tmp/perf.data "$BENCH_PERF_PERIOD") || { unavailable "$d" "$j-perf-client" "$prec"; prec=; }
	fi
	if [ "$run" = calls ]; then
		ask calls start
		[ "$ANS" = ok ] || unavailable "$d" "$j-calls-server" "server $ANS"
		prec=$(calls_start /share/boundary.list) || { unavailable "$d" "$j-calls-client" "$prec"; prec=; }
	fi
	rm -f /tmp/cost.out
	r1=$(rpc_counts $mnt)
	ask snap
	ss1=$ANS
	cs1=$(busy_snap)
	icount_mark "$j $run begin" && m1=$MARK || unavailable "$d" "$j-cost" "$run begin: ${MARK//$'\n'/ }"
	cost_cmd "$j" "$run" /tmp/cost.out >/tmp/cost.err 2>&1 || rc=$?
	icount_mark "$j $run end" && m2=$MARK || unavailable "$d" "$j-cost" "$run end: ${MARK//$'\n'/ }"
	cs2=$(busy_snap)
	ask snap
	ss2=$ANS
	r2=$(rpc_counts $mnt)
	if [ "$run" = perf ]; then
		[ -z "$prec" ] || perf_stop "$prec" /tmp/perf.data "$d/$j.perf-client.txt"
		ask perf stop "$d/$j.perf-server.txt"
	fi
	if [ "$run" = calls ]; then
		[ -z "$prec" ] || calls_stop "$prec" "$d/$j.calls-client.txt"
		ask calls stop "$d/$j.calls-server.txt"
	fi
	{
		mark_lines "$run begin" "$m1"
		mark_lines "$run end" "$m2"
		echo "snap $run begin client $cs1"
		echo "snap $run end client $cs2"
		case "$ss1 $ss2" in
		"ok "*"ok "*) echo "snap $run begin server ${ss1#ok }"; echo "snap $run end server ${ss2#ok }" ;;
		esac
		printf '%s\n' "$r1" | sed "/^\$/d; s/^/rpcs $run begin /"
		printf '%s\n' "$r2" | sed "/^\$/d; s/^/rpcs $run end /"
	} >>"$d/$j.cost"
	if [ $rc -ne 0 ] || [ ! -s /tmp/cost.out ]; then
		unavailable "$d" "$j" "$run run exited $rc: $(tail -n 2 /tmp/cost.err | tr '\n' ' ')"
		return 1
	fi
	cp /tmp/cost.out "$keep"
}

# cost_job DIR JOB: JOB's warm-up, null and full runs, and its profile
# run if JOB is in BENCH_PERF.
cost_job() {
	local d=$1 j=$2 i
	case $j in
	meta-create)
		rm -rf /mnt/meta/md /mnt/meta/null
		mkdir -p /mnt/meta/md /mnt/meta/null
		cost_cmd meta-create warm /tmp/warm.out >/dev/null 2>&1
		cost_cmd meta-unlink warm /tmp/warm.out >/dev/null 2>&1 ;;
	meta-unlink) ;;
	readdir)
		if [ ! -d /mnt/meta/rd ]; then
			mkdir -p /mnt/meta/rd
			for i in $(seq -w 1 "$BENCH_DIRENTS"); do : >"/mnt/meta/rd/entry-$i"; done
		fi
		cost_cmd readdir warm /tmp/warm.out >/dev/null 2>&1 ;;
	*) cost_cmd "$j" warm /tmp/warm.out >/tmp/warm.err 2>&1 ||
		echo "bench: warm-up of $j failed: $(tail -n 1 /tmp/warm.err)" ;;
	esac
	cost_run "$d" "$j" null || return 1
	cost_run "$d" "$j" full || return 1
	# --exact: the symbols the counts by address are read with, once
	# per row (its transports stay loaded, at the same addresses, for
	# all of its jobs)
	if [ "$BENCH_EXACT" = 1 ] && [ ! -e "$d/kallsyms-client" ]; then
		text_symbols "$d/kallsyms-client" || unavailable "$d" exact-client "cannot save /proc/kallsyms"
		ask kallsyms "$d/kallsyms-server"
		[ "$ANS" = ok ] || unavailable "$d" exact-server "server $ANS"
	fi
	perf_job "$j" || return 0
	cost_run "$d" "$j" perf
	cost_run "$d" "$j" calls
}

cur_cli= cur_srv=
# transports SERVER CLIENT PROTO: nfsd on transport SERVER and, over
# PROTO rdma, this client on CLIENT, each switched only if it is not the
# current one; on failure WHY says which end failed and how.  (Not called
# in $(...): ask and the current transports live in this shell.)
transports() {
	local srv=$1 cli=$2 out f
	WHY=
	ask nfsd "$srv"
	[ "$ANS" = ok ] || { WHY="server $ANS"; return 1; }
	cur_srv=$srv
	[ "$3" = rdma ] && [ "$cli" != "$cur_cli" ] || return 0
	if [ -n "$cur_cli" ] && ! out=$(transport_unload "${cur_cli%-v1}" 2>&1); then
		WHY="client: unload $cur_cli: $out"
		return 1
	fi
	cur_cli=
	if ! out=$(transport_load client "${cli%-v1}" 2>&1); then
		WHY="client: load $cli: $out"
		transport_unload "${cli%-v1}" >/dev/null 2>&1
		return 1
	fi
	# rpcrdmax-v1: rpcrdmax's client kept to RPC-over-RDMA Version One
	# (Documentation/v2.rst); plain rpcrdmax offers Version Two
	[ "$cli" = rpcrdmax-v1 ] && echo 1 >/proc/sys/sunrpc/rdma_max_version
	cur_cli=$cli
	# scripts/bench --inline: the client's inline sizes (stock's sysctls)
	for f in rdma_max_inline_read rdma_max_inline_write; do
		[ -z "$BENCH_INLINE" ] || echo "$BENCH_INLINE" >/proc/sys/sunrpc/$f || {
			WHY="client: $f $BENCH_INLINE refused"
			return 1
		}
	done
}

# nfs_row DIR SERVER CLIENT PROTO: every job on one mount.
nfs_row() {
	local d=$1 srv=$2 cli=$3 proto=$4 out opts j meta_lost=
	if ! transports "$srv" "$cli" "$proto"; then
		for j in $JOBS; do unavailable "$d" "$j" "$WHY"; done
		return
	fi
	opts="vers=$BENCH_VERS"
	[ "$proto" = rdma ] && opts="rdma,port=20049,$opts"
	if ! out=$(mount -t nfs -o "$opts" $SERVER:/export /mnt/nfs 2>&1) ||
		! out=$(mount -t nfs -o "$opts,actimeo=0" $SERVER:/export /mnt/meta 2>&1); then
		for j in $JOBS; do unavailable "$d" "$j" "mount -o $opts: $out"; done
		umount /mnt/nfs 2>/dev/null
		return
	fi
	rm -rf /mnt/nfs/bench.dat /mnt/meta/md
	mkdir -p /mnt/meta/md
	for j in $JOBS; do
		# meta-create's opens may have left the client delegations
		# (7.x's nfsd grants them on create): under one, the client
		# answers stat itself and sends no GETATTR.  A new mount returns
		# them, so stat costs the round trip it is meant to measure.
		if [ "$j" = meta-stat ] && ! out=$(umount /mnt/meta 2>&1 &&
			mount -t nfs -o "$opts,actimeo=0" $SERVER:/export /mnt/meta 2>&1); then
			meta_lost="remount of /mnt/meta: $out"
		fi
		case $j in meta-* | readdir)
			if [ -n "$meta_lost" ]; then
				unavailable "$d" "$j" "$meta_lost"
				continue
			fi ;;
		esac
		if [ "$BENCH_COST" = 1 ]; then
			cost_job "$d" "$j" && echo "bench: $(basename "$d") $j done"
			continue
		fi
		case $j in meta-create) rm -rf /mnt/meta/md/*; warm "$d" meta-create; warm "$d" meta-unlink ;;
		meta-*) ;;
		*) warm "$d" "$j" ;; esac
		measure "$d" "$j" && echo "bench: $(basename "$d") $j done"
	done
	rm -rf /mnt/nfs/bench.dat /mnt/meta/md /mnt/meta/null /mnt/meta/rd
	if mountpoint -q /mnt/meta; then
		umount /mnt/meta || echo "bench: umount /mnt/meta failed"
	fi
	umount /mnt/nfs || echo "bench: umount /mnt/nfs failed"
}

# ---- Scale (BENCH_SCALE=1) --------------------------------------------
# The server's memory and set-up cost per RDMA connection.  In each row,
# for each N of BENCH_CONNS: N connections from this client to the
# server, measured, then all undone.  NFSv3 mounts, not 4.2: before Linux
# 6.9 the NFSv4 client takes nconnect over TCP only (Debian 12's 6.1
# makes one RDMA connection however many are asked for), and a v4.1+
# mount of another address of the same server joins the first mount's
# NFS client (trunking: the same server owner) instead of connecting on
# its own; v3 takes nconnect over RDMA and has a client per server
# address.  Up to 16 connections (nconnect's maximum) are one mount of
# 192.0.2.1; above 16, N/16 mounts of 16 each, of .1 and of the server's
# aliases (bench-server.sh, aliases).  A connection comes up with the
# first RPC sent on it, and a mount sends each new RPC on the next of its
# connections: after mounting, three GETATTRs per connection (actimeo=0:
# each stat is one; bash's test, which forks nothing) bring all of them up.
#   set-up  icount marks around the mounts and those GETATTRs: the
#           mounts' own work is in the figure, shared by their connections
#   idle    the server's memory with the N connections up and idle
#   qd16    the same under 4 KiB random reads (fio), queue depth 16 per
#           connection: per mount one job with as many processes as the
#           mount has connections, each 16 deep; the snapshot once every
#           mount has read 32 times per connection, counted only if fio
#           still runs and every mount still reads after it
# each against the server's memory before mounting (bench-server.sh, mem:
# after sync and drop_caches).  Files, in DIR, per N:
#   scale-N.cost           "mark setup begin|end NAME COUNT"
#   scale-N.qps            the server's RC QPs: "setup COUNT" once set up,
#                          "after COUNT" once all is unmounted
#   scale-N.PHASE.meminfo  the server's /proc/meminfo and "rc_qps COUNT"
#                          at that moment; PHASE before, idle, qd16
#   scale-N.fio.json       fio's output of the load (stopped by a signal)
#   UNAVAILABLE            "scale-N why" (nothing of N measured) and
#                          "scale-N-setup|idle|qd16 why"
SCALE_OPTS="rdma,port=20049,vers=3,mountproto=tcp,nolock,actimeo=0"
scale_fio= scale_aliases=0

# running PID: PID is alive (neither gone nor a zombie not reaped yet)
running() { case $(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) in '' | Z | X) return 1 ;; esac; }

# scale_reads MOUNT...: the READs each MOUNT has sent, space-separated.
scale_reads() {
	local m
	for m in "$@"; do rpc_counts "$m" | awk '$1 == "READ" { n = $2 } END { printf "%d ", n }'; done
}

# scale_loaded BEFORE AFTER MIN: every mount sent at least MIN READs
# between BEFORE and AFTER (two scale_reads of the same mounts).
scale_loaded() {
	echo "$1|$2" | awk -F'|' -v min="$3" '{ n = split($1, a, " "); split($2, b, " ")
		for (i = 1; i <= n; i++) if (b[i] - a[i] < min) exit 1
		exit n == 0 }'
}

# scale_fio_stop: the load stopped (TERM to its session: timeout, fio and
# fio's job processes; KILL to what is left after 120 s) and reaped.
scale_fio_stop() {
	local end
	[ -n "$scale_fio" ] || return 0
	kill -TERM -- "-$scale_fio" 2>/dev/null || kill -TERM "$scale_fio" 2>/dev/null
	end=$(deadline 120)
	while running "$scale_fio" && before "$end"; do nap 0.5; done
	kill -KILL -- "-$scale_fio" 2>/dev/null
	wait "$scale_fio" 2>/dev/null
	scale_fio=
}

# scale_down DIR TAG: what scale_n set up, undone: the load stopped, every
# /mnt/scale mount unmounted (each tried for 60 s: fio's processes may
# still be leaving), the server's aliases removed; the server's RC QPs
# once it has none, or after 60 s, as "after COUNT" in DIR/TAG.qps.
scale_down() {
	local d=$1 t=$2 m end
	scale_fio_stop
	for m in /mnt/scale/*; do
		mountpoint -q "$m" || continue
		end=$(deadline 60)
		until umount "$m" 2>/dev/null || ! before "$end"; do nap 1; done
		! mountpoint -q "$m" || umount -f "$m" || umount -l "$m" || echo "bench: $t: cannot unmount $m"
	done
	ask qps 0
	case $ANS in
	"ok "[0-9]*) echo "after ${ANS#ok }" >>"$d/$t.qps" ;;
	*) echo "bench: $t: the server's RC QPs after unmounting: $ANS" ;;
	esac
	if [ "$scale_aliases" = 1 ]; then
		ask aliases 0
		[ "$ANS" = ok ] || echo "bench: $t: removing the server's aliases: $ANS"
		scale_aliases=0
	fi
}

# scale_n DIR N: N connections to the server, measured, and undone.
scale_n() {
	local d=$1 n=$2 t=scale-$2 per nm addrs a k=0 i m1= m2= fail= out mounts= args= r0 r1= r2 s end loaded=
	per=$((n < 16 ? n : 16)) nm=$(((n + 15) / 16))
	addrs=$SERVER
	if [ "$nm" -gt 1 ]; then
		scale_aliases=1
		ask aliases $((nm - 1))
		case $ANS in
		"ok "*) addrs="$SERVER ${ANS#ok }" ;;
		*) unavailable "$d" "$t" "server aliases: $ANS"; scale_down "$d" "$t"; return 1 ;;
		esac
	fi
	ask qps 0
	if [ "$ANS" != "ok 0" ]; then
		unavailable "$d" "$t" "before mounting, the server's RC QPs: ${ANS#ok }, not 0"
		scale_down "$d" "$t"
		return 1
	fi
	ask mem "$d/$t.before.meminfo"
	if [ "$ANS" != ok ]; then
		unavailable "$d" "$t" "server memory before mounting: $ANS"
		scale_down "$d" "$t"
		return 1
	fi
	for a in $addrs; do mkdir -p /mnt/scale/$k; k=$((k + 1)); done
	k=0
	icount_mark "$t setup begin" && m1=$MARK || unavailable "$d" "$t-setup" "begin: ${MARK//$'\n'/ }"
	for a in $addrs; do
		if ! out=$(timeout 600 mount -t nfs -o "$SCALE_OPTS,nconnect=$per" "$a:/export" /mnt/scale/$k 2>&1); then
			fail="mount -o $SCALE_OPTS,nconnect=$per $a:/export: $out"
			break
		fi
		i=0
		while [ $i -lt $((3 * per)) ]; do
			[ -e /mnt/scale/$k/. ]
			i=$((i + 1))
		done
		mounts="$mounts /mnt/scale/$k"
		k=$((k + 1))
	done
	icount_mark "$t setup end" && m2=$MARK || unavailable "$d" "$t-setup" "end: ${MARK//$'\n'/ }"
	{ mark_lines "setup begin" "$m1"; mark_lines "setup end" "$m2"; } >"$d/$t.cost"
	if [ -n "$fail" ]; then
		unavailable "$d" "$t" "$fail"
		scale_down "$d" "$t"
		return 1
	fi
	ask qps "$n"
	case $ANS in
	"ok "[0-9]*) echo "setup ${ANS#ok }" >>"$d/$t.qps" ;;
	*) unavailable "$d" "$t-setup" "the server's RC QPs after the set-up: $ANS" ;;
	esac
	[ "$ANS" = "ok $n" ] || echo "bench: $t: the server has ${ANS#ok } RC QPs, not $n"
	ask mem "$d/$t.idle.meminfo"
	[ "$ANS" = ok ] || unavailable "$d" "$t-idle" "server memory, idle: $ANS"

	k=0
	for a in $addrs; do
		args="$args --name=m$k --filename=/mnt/scale/$k/scale.dat --numjobs=$per"
		k=$((k + 1))
	done
	# shellcheck disable=SC2086
	r0=$(scale_reads $mounts)
	rm -f /tmp/scale.json
	# a session of its own, so that scale_fio_stop reaches every process
	# shellcheck disable=SC2086
	setsid timeout -k 10 3600 fio --rw=randread --bs=4k --iodepth=16 --ioengine=libaio \
		--direct=1 --time_based --runtime=3000 --group_reporting $args \
		--output-format=json --output=/tmp/scale.json >/tmp/scale.err 2>&1 &
	scale_fio=$!
	end=$(deadline 600)
	while running "$scale_fio" && before "$end"; do
		nap 1
		# shellcheck disable=SC2086
		r1=$(scale_reads $mounts)
		scale_loaded "$r0" "$r1" $((32 * per)) && { loaded=1; break; }
	done
	if [ -z "$loaded" ]; then
		unavailable "$d" "$t-qd16" "fio never read $((32 * per)) times on every mount (READs per mount: $r0-> $r1; $(tail -n 2 /tmp/scale.err | tr '\n' ' '))"
	else
		ask mem "$d/$t.qd16.meminfo"
		s=$ANS
		# shellcheck disable=SC2086
		r2=$(scale_reads $mounts)
		if [ "$s" != ok ]; then
			unavailable "$d" "$t-qd16" "server memory under load: $s"
		elif ! running "$scale_fio" || ! scale_loaded "$r1" "$r2" 1; then
			unavailable "$d" "$t-qd16" "the load did not last through the snapshot (READs per mount: $r1-> $r2)"
		fi
	fi
	scale_fio_stop
	[ ! -s /tmp/scale.json ] || cp /tmp/scale.json "$d/$t.fio.json"
	scale_down "$d" "$t"
}

# scale_row DIR SERVER CLIENT: every N of BENCH_CONNS on one pair of
# transports.
scale_row() {
	local d=$1 n
	if ! transports "$2" "$3" rdma; then
		for n in $BENCH_CONNS; do unavailable "$d" "scale-$n" "$WHY"; done
		return
	fi
	for n in $BENCH_CONNS; do
		scale_n "$d" "$n" && echo "bench: $(basename "$d") scale-$n done"
	done
}

# link_row DIR: raw perftest between the guests: 1 MiB messages for the
# bandwidths (NFS moves up to 1 MiB per chunk here), 2 bytes for the
# latency.  Over each guest's IPv4 RoCE v2 GID, with perftest's own TCP
# exchange (its rdma_cm mode crashed ib_send_lat's client in librdmacm
# when the server was not listening yet).
link_row() {
	local d=$1 t args gid
	gid=$(gid_index_v4 rxe0) || gid=
	for t in ib_write_bw ib_read_bw ib_send_lat; do
		args="-d rxe0 -F"
		case $t in
		ib_send_lat) args="$args -n 1000" ;;
		*) args="$args -s 1048576 -D $BENCH_SECS" ;;
		esac
		if [ -z "$gid" ]; then
			unavailable "$d" "$t" "no IPv4 RoCE v2 GID on rxe0"
			continue
		fi
		echo "$args" >/share/bench/perftest.args
		ask perftest "$t"
		if [ "$ANS" != ok ]; then
			unavailable "$d" "$t" "server $ANS"
			continue
		fi
		# shellcheck disable=SC2086
		timeout $((BENCH_SECS + 120)) "$t" -x "$gid" $args $SERVER >"$d/$t.txt" 2>&1 ||
			unavailable "$d" "$t" "$t failed: $(tail -n 2 "$d/$t.txt" | tr '\n' ' ')"
	done
}

rows="$BENCH_COMBOS tcp link"
# the cost meter compares the transports: no TCP or raw-link rows
[ "$BENCH_COST" = 1 ] && rows=$BENCH_COMBOS
nrows=$(echo $rows | wc -w)
for r in $(seq 1 "$BENCH_ROUNDS"); do
	# this round's order: the rows rotated by r-1
	order=$(echo $rows | tr ' ' '\n' | awk -v k=$(((r - 1) % nrows)) -v n="$nrows" \
		'{ a[NR - 1] = $0 } END { for (i = 0; i < n; i++) print a[(i + k) % n] }' | tr '\n' ' ')
	echo "bench: round $r: $order"
	echo "$r $order" >>$RAW/order
	for row in $order; do
		d=$RAW/r$r/${row/:/_}
		mkdir -p "$d"
		case $row in
		link) link_row "$d" ;;
		tcp) nfs_row "$d" "${cur_srv:-stock}" - tcp ;;
		*)
			if [ "$BENCH_SCALE" = 1 ]; then
				scale_row "$d" "${row%%:*}" "${row#*:}"
			else
				nfs_row "$d" "${row%%:*}" "${row#*:}" rdma
			fi ;;
		esac
	done
done
[ -n "$cur_cli" ] && transport_unload "${cur_cli%-v1}"
step "client: kernel log clean" kernel_log_clean
touch $RAW/complete
exit $STEP_FAILS
