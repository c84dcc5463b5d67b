# SPDX-License-Identifier: GPL-2.0
# Benchmark, client side.  For each SERVER:CLIENT pair in BENCH_COMBOS
# (/share/bench.env) it asks the server guest for that server transport,
# loads that client transport, mounts NFS over RDMA and runs fio with
# direct I/O: sequential 1 MiB write and read (throughput) and 4 KiB
# random read (IOPS), each for BENCH_SECS seconds.  Results go to
# /share/bench/results as "RESULT SERVER CLIENT METRIC VALUE" lines, or
# "UNAVAILABLE SERVER CLIENT why"; the host prints them (scripts/bench).
. /share/lib.sh
set -u
BENCH_COMBOS="stock:stock stock:rpcrdmax rpcrdmax:stock"
BENCH_SECS=20
BENCH_WARM=5	# seconds of each job run first and discarded (TCG translates
		# each new code path once: the first run of a path is slow)
BENCH_SIZE=128m
BENCH_OPTS="rdma,port=20049,vers=4.2"
[ -r /share/bench.env ] && . /share/bench.env
R=/share/bench/results
mkdir -p /share/bench /mnt/nfs
: >$R
step "client: rxe up" rxe_up
wait_for /share/server.ready 300 || { step_fail "client: server never became ready"; exit 1; }

# fio_job NAME RW BS DEPTH [SECS]: one direct-I/O job; prints its terse v3 line
fio_job() {
	local secs=${5:-$BENCH_SECS}
	timeout -k 10 $((secs + 300)) fio --name="$1" --filename=/mnt/nfs/bench.dat \
		--size="$BENCH_SIZE" --rw="$2" --bs="$3" --iodepth="$4" --ioengine=libaio \
		--direct=1 --time_based --runtime="$secs" --ramp_time=2 \
		--output-format=terse --terse-version=3 2>/tmp/fio.err | grep '^3;'
}

cur=
n=1
for combo in $BENCH_COMBOS; do
	srv=${combo%%:*} cli=${combo#*:}
	echo "bench: server $srv, client $cli"
	echo "$srv" >/share/bench/req.$n
	if ! wait_for /share/bench/ack.$n 600; then
		echo "UNAVAILABLE $srv $cli server did not answer within 600 s" >>$R
		n=$((n + 1)); continue
	fi
	ack=$(cat /share/bench/ack.$n); n=$((n + 1))
	if [ "$ack" != ok ]; then
		echo "UNAVAILABLE $srv $cli server $ack" >>$R
		continue
	fi
	if [ "$cli" != "$cur" ]; then
		[ -n "$cur" ] && { transport_unload "$cur" || echo "bench: $cur did not unload"; }
		cur=
		if ! out=$(transport_load client "$cli" 2>&1); then
			echo "UNAVAILABLE $srv $cli client $out" >>$R
			transport_unload "$cli" >/dev/null 2>&1
			continue
		fi
		cur=$cli
	fi
	if ! out=$(mount -t nfs -o "$BENCH_OPTS" 192.0.2.1:/export /mnt/nfs 2>&1); then
		echo "UNAVAILABLE $srv $cli mount -o $BENCH_OPTS: $out" >>$R
		continue
	fi
	rm -f /mnt/nfs/bench.dat
	# warm-up: every job once, results discarded (the write lays the file out)
	if [ "$BENCH_WARM" -gt 0 ]; then
		for j in "seq-write write 1m 8" "seq-read read 1m 8" "rand-read randread 4k 16"; do
			set -- $j
			fio_job "$1-warm-up" "$2" "$3" "$4" "$BENCH_WARM" >/dev/null ||
				echo "bench: $srv/$cli warm-up $1 failed"
		done
	fi
	for j in "seq-write write 1m 8" "seq-read read 1m 8" "rand-read randread 4k 16"; do
		set -- $j
		line=$(fio_job "$@")
		if [ -z "$line" ]; then
			echo "UNAVAILABLE $srv $cli fio $1 failed: $(tail -n 2 /tmp/fio.err | tr '\n' ' ')" >>$R
			break
		fi
		# terse v3: field 7 read KiB/s, 8 read IOPS, 48 write KiB/s, 49 write IOPS
		case $1 in
		seq-write) v=$(echo "$line" | awk -F';' '{ printf "%.1f", $48 / 1024 }') u=MiB/s ;;
		seq-read) v=$(echo "$line" | awk -F';' '{ printf "%.1f", $7 / 1024 }') u=MiB/s ;;
		rand-read) v=$(echo "$line" | awk -F';' '{ print $8 }') u=IOPS ;;
		esac
		echo "RESULT $srv $cli $1 $v $u" >>$R
		echo "bench: $srv/$cli $1 $v $u"
	done
	rm -f /mnt/nfs/bench.dat
	umount /mnt/nfs || echo "bench: umount failed"
done
[ -n "$cur" ] && transport_unload "$cur"
step "client: kernel log clean" kernel_log_clean
exit $STEP_FAILS
