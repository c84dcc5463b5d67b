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
#                   (BENCH_PERF=JOB: scripts/bench --perf)
#   UNAVAILABLE     "JOB why" lines for what could not be measured
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
[ -r /share/bench.env ] && . /share/bench.env
SERVER=192.0.2.1
RAW=/share/raw
JOBS="seq-write seq-read rand-read rand-read-qd1 meta-create meta-stat meta-unlink"
mkdir -p $RAW /mnt/nfs /mnt/meta
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

# unavailable DIR JOB WHY...
unavailable() {
	local d=$1 j=$2
	shift 2
	echo "$j $*" >>"$d/UNAVAILABLE"
	echo "bench: $(basename "$(dirname "$d")")/$(basename "$d") $j unavailable: $*"
}

# fio_args JOB SECS: fio's arguments for JOB (data jobs on /mnt/nfs,
# metadata jobs on /mnt/meta, which has no attribute cache).
fio_args() {
	local d="--filename=/mnt/nfs/bench.dat --size=$BENCH_SIZE --ioengine=libaio --direct=1 --time_based --runtime=$2"
	local m="--directory=/mnt/meta/md --filename_format=f.\$filenum --nrfiles=$BENCH_FILES --filesize=4k --create_on_open=1 --openfiles=64"
	case $1 in
	seq-write) echo "$d --rw=write --bs=1m --iodepth=8" ;;
	seq-read) echo "$d --rw=read --bs=1m --iodepth=8" ;;
	rand-read) echo "$d --rw=randread --bs=4k --iodepth=16" ;;
	rand-read-qd1) echo "$d --rw=randread --bs=4k --iodepth=1" ;;
	meta-create) echo "$m --ioengine=filecreate" ;;
	meta-stat) echo "$m --ioengine=filestat" ;;
	meta-unlink) echo "$m --ioengine=filedelete" ;;
	esac
}

# measure DIR JOB: the measured run, CPU snapshots of both guests around
# it; both guests profiled when JOB is BENCH_PERF.
measure() {
	local d=$1 j=$2 s1 s2 c1 c2 rc=0 prec=
	if [ "$j" = "${BENCH_PERF:-}" ]; then
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
	if [ "$j" = "${BENCH_PERF:-}" ]; then
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

cur_cli= cur_srv=
# nfs_row DIR SERVER CLIENT PROTO: every job on one mount.
nfs_row() {
	local d=$1 srv=$2 cli=$3 proto=$4 ans out opts j
	ask nfsd "$srv"
	ans=$ANS
	if [ "$ans" != ok ]; then
		for j in $JOBS; do unavailable "$d" "$j" "server $ans"; done
		return
	fi
	cur_srv=$srv
	if [ "$proto" = rdma ] && [ "$cli" != "$cur_cli" ]; then
		if [ -n "$cur_cli" ] && ! out=$(transport_unload "${cur_cli%-v1}" 2>&1); then
			for j in $JOBS; do unavailable "$d" "$j" "client: unload $cur_cli: $out"; done
			return
		fi
		cur_cli=
		if ! out=$(transport_load client "${cli%-v1}" 2>&1); then
			for j in $JOBS; do unavailable "$d" "$j" "client: load $cli: $out"; done
			transport_unload "${cli%-v1}" >/dev/null 2>&1
			return
		fi
		# rpcrdmax-v1: rpcrdmax's client kept to RPC-over-RDMA Version
		# One (Documentation/v2.rst); plain rpcrdmax offers Version Two
		[ "$cli" = rpcrdmax-v1 ] && echo 1 >/proc/sys/sunrpc/rdma_max_version
		cur_cli=$cli
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
		case $j in meta-create) rm -rf /mnt/meta/md/*; warm "$d" meta-create; warm "$d" meta-unlink ;;
		meta-*) ;;
		*) warm "$d" "$j" ;; esac
		measure "$d" "$j" && echo "bench: $(basename "$d") $j done"
	done
	rm -rf /mnt/nfs/bench.dat /mnt/meta/md
	umount /mnt/meta || echo "bench: umount /mnt/meta failed"
	umount /mnt/nfs || echo "bench: umount /mnt/nfs failed"
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
		*) nfs_row "$d" "${row%%:*}" "${row#*:}" rdma ;;
		esac
	done
done
[ -n "$cur_cli" ] && transport_unload "${cur_cli%-v1}"
step "client: kernel log clean" kernel_log_clean
touch $RAW/complete
exit $STEP_FAILS
