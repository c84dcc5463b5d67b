# SPDX-License-Identifier: GPL-2.0
# e2e server-faults, client side (stock rpcrdma): keeps writers busy on a
# hard NFSv3 mount while the server (server-faults.sh) stops nfsd, removes
# its RDMA device, refuses reconnects over its memory budget, stops and
# starts nfsd under a kill storm of writers and memory pressure, moves its
# address away and back, and (when asked: /share/flap.want) takes its
# link down and up; each
# time the writers must finish once the server is back, and every file
# must hold what was written.
. /share/lib.sh
set -u
step "client: rxe up" rxe_up
step "client: load rpcrdma" modprobe rpcrdma
wait_for /share/server.ready 300 || { step_fail "client: server never became ready"; exit 1; }
head -c 4194304 /dev/urandom >/tmp/src
mkdir -p /mnt/nfs
step "client: mount v3" mount -t nfs -o rdma,port=20049,vers=3,nolock,hard 192.0.2.1:/export /mnt/nfs

# writers ROUND: three writers, each copying /tmp/src again and again
# (buffered and O_DIRECT) until /tmp/stop.ROUND exists.
writers() {
	local r=$1 w
	mkdir -p "/mnt/nfs/r$r"
	for w in 1 2 3; do
		(
			i=0
			while [ ! -e "/tmp/stop.$r" ]; do
				if [ "$w" = 3 ]; then
					dd if=/tmp/src of="/mnt/nfs/r$r/w$w.$i" bs=1M oflag=direct status=none
				else
					cp /tmp/src "/mnt/nfs/r$r/w$w.$i"
				fi
				i=$((i + 1))
			done
			touch "/tmp/done.$r.$w"
		) &
	done
}

# round R BACKFLAG: writers run until the server says it is back, then
# they stop and every file they wrote is compared with the source.
round() {
	local r=$1 back=$2 f bad=0 n=0
	writers "$r"
	sleep 3
	touch "/share/io.$r"
	wait_for "/share/$back" 900 || step_fail "round $r: the server never came back"
	sleep 2
	touch "/tmp/stop.$r"
	local end=$(deadline 600)
	if ! { wait_for "/tmp/done.$r.1" 600 && wait_for "/tmp/done.$r.2" $((end - $(date +%s))) &&
		wait_for "/tmp/done.$r.3" $((end - $(date +%s))); }; then
		step_fail "round $r: writers still stuck 600 s after the server came back"
		echo w >/proc/sysrq-trigger
		dmesg | grep -v 'speed is unknown' | tail -n 120 | sed 's/^/client dmesg: /'
		grep -A3 'xprt:' /proc/self/mountstats | sed 's/^/client mountstats: /'
		trace_conn_dump 80 | sed 's/^/client trace: /'
		return
	fi
	wait
	step_ok "round $r: writers finished after the server came back"
	sync
	for f in /mnt/nfs/r$r/w*; do
		n=$((n + 1))
		cmp -s /tmp/src "$f" || { bad=$((bad + 1)); echo "differs: $f"; }
	done
	[ "$bad" = 0 ] && [ "$n" -gt 0 ] && step_ok "round $r: $n files intact" ||
		step_fail "round $r: $bad of $n files differ from what was written"
}

# storm: writers of 1 MiB killed at random moments (0-2.9 s into their copy) until
# the server is back from its rpc.nfsd 0 and restart under memory
# pressure, then a few seconds more.  Every killed writer must exit (a
# hard mount's waits are killable), every copy that finished before its
# kill must read back intact after the page cache is dropped, and so must
# a copy made after the storm.
storm_loop() {
	local i=0 killed=0 p n
	mkdir -p /mnt/nfs/r5
	while [ ! -e /tmp/stop.5 ]; do
		if [ $((i % 2)) = 0 ]; then
			dd if=/tmp/src1 of=/mnt/nfs/r5/k.$i bs=64k oflag=direct status=none 2>/dev/null &
		else
			dd if=/tmp/src1 of=/mnt/nfs/r5/k.$i bs=64k status=none 2>/dev/null &
		fi
		p=$!
		n=$(od -An -N1 -tu1 /dev/urandom | tr -d ' ')
		sleep "$((n % 3)).$((n % 10))"
		kill -9 $p 2>/dev/null
		if wait $p; then echo /mnt/nfs/r5/k.$i >>/tmp/storm.ok; else killed=$((killed + 1)); fi
		i=$((i + 1))
	done
	echo "$i $killed" >/tmp/storm.count
	touch /tmp/done.5
}
storm() {
	local f n=0 bad=0
	: >/tmp/storm.ok
	head -c 1048576 /tmp/src >/tmp/src1
	storm_loop &
	sleep 3
	touch /share/io.5
	wait_for /share/server.back5 900 || step_fail "storm: the server never came back"
	sleep 3
	touch /tmp/stop.5
	if ! wait_for /tmp/done.5 300; then
		step_fail "storm: a killed writer still had not exited 300 s after the server came back"
		ps -eo pid,stat,wchan:32,args | grep ' dd ' | sed 's/^/client ps: /'
		return
	fi
	wait
	step_ok "storm: every killed writer exited ($(cut -d' ' -f2 /tmp/storm.count) of $(cut -d' ' -f1 /tmp/storm.count) killed)"
	step "storm: a copy after the storm" dd if=/tmp/src1 of=/mnt/nfs/r5/after bs=64k oflag=direct status=none
	echo /mnt/nfs/r5/after >>/tmp/storm.ok
	sync
	echo 3 >/proc/sys/vm/drop_caches
	for f in $(cat /tmp/storm.ok); do
		n=$((n + 1))
		cmp -s /tmp/src1 "$f" || { bad=$((bad + 1)); echo "differs: $f"; }
	done
	[ "$bad" = 0 ] && step_ok "storm: $n completed copies intact" ||
		step_fail "storm: $bad of $n completed copies differ from what was written"
}

round 1 server.back1
round 2 server.back2
round 3 server.back3
# The server checks the reconnected connection before we umount.
touch /share/client.round3
wait_for /share/server.checked3 300 || step_fail "client: the server never checked the reconnection"
storm
round 6 server.back6
if [ -e /share/flap.want ]; then
	trace_conn_on || echo "client: no tracefs: the flap round runs without a trace"
	round 4 server.back4
	trace_conn_dump 40 | sed 's/^/client: flap: trace: /'
	touch /share/client.round4
fi
step "client: umount" umount /mnt/nfs
touch /share/client.done
step "client: kernel log clean" kernel_log_clean
exit $STEP_FAILS
