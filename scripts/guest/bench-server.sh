# SPDX-License-Identifier: GPL-2.0
# Benchmark, server side: the NFS server on rxe exporting a tmpfs, driven
# by the client guest through numbered requests on the share
# (/share/bench/req.N, one line; answered in /share/bench/ack.N):
#   nfsd WORD        nfsd on transport WORD (stock|rpcrdmax), restarted only
#                    if WORD is not the current one -> "ok" | "fail: why"
#   stat             -> "ok " + this guest's /proc/stat "cpu" line
#   snap             -> "ok " + busy_snap's line (lib.sh: this guest's
#                    clock and idle time; scripts/bench --cost)
#   perftest TOOL    start perftest's TOOL (ib_write_bw, ib_read_bw,
#                    ib_send_lat) as the server side with the arguments
#                    in /share/bench/perftest.args -> "ok" once it listens
#   perf start [PERIOD]  perf record (cpu-clock, all CPUs) in the
#                    background, one sample every PERIOD ns if given
#                    -> "ok" once it records (scripts/bench --perf)
#   perf stop PATH   stop it; `perf report` by symbol into PATH -> "ok"
#   calls start      count the calls between rpcrdmax's C and C++ (lib.sh
#                    calls_start) -> "ok" once it counts
#   calls stop PATH  stop; the counts into PATH -> "ok"
#   aliases N        exactly N IPv4 addresses of ours on eth0 besides .1
#                    (192.0.2.101 onward; 0 removes them), each with its
#                    RoCE v2 GID on rxe0 -> "ok ADDR..." (scripts/bench --scale)
#   qps N            wait up to 60 s for N RC QPs (one per RDMA
#                    connection) -> "ok COUNT", the count then, N or not
#   kallsyms PATH    this kernel's text symbols into PATH (lib.sh
#                    text_symbols; scripts/bench --exact) -> "ok"
#   mem PATH         sync, drop the caches, then /proc/meminfo and
#                    "rc_qps COUNT" into PATH -> "ok"
# Ends on /share/client.done.  Waits use bash's read -t on a private FIFO,
# not sleep(1): a poll loop that forks would show up in the CPU figures.
# With BENCH_SCALE=1 the export holds scale.dat, 16 MiB, made before any
# measurement (the load that bench-client.sh's scale_n reads).
# With BENCH_COST=1 (scripts/bench --cost, --scale) the loop looks for the next
# request every 0.5 s instead of every 50 ms: each look costs this guest
# instructions (two 9p lookups, a wake-up), and a measured window that
# lasts longer would otherwise count more of them.
# bash, not the guest's sh (dash): read -t, ${var/x/y}
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. /share/lib.sh
set -u
BENCH_COST=0
BENCH_SCALE=0
BENCH_INLINE=	# scripts/bench --inline: svc_rdma/max_req_size (empty: the default)
[ -r /share/bench.env ] && . /share/bench.env
poll=0.05
[ "$BENCH_COST" = 1 ] && poll=0.5
step "server: rxe up" rxe_up
step "server: load nfsd" modprobe nfsd
mkdir -p /export /proc/fs/nfsd /var/lib/nfs/rpc_pipefs /var/lib/nfs/v4recovery /share/bench
mount -t tmpfs -o size=1g tmpfs /export
[ "$BENCH_SCALE" != 1 ] || step "server: scale.dat" dd if=/dev/zero of=/export/scale.dat bs=1M count=16
mount -t nfsd nfsd /proc/fs/nfsd
mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs 2>/dev/null
echo '/export 192.0.2.0/24(rw,no_root_squash,insecure,no_subtree_check,fsid=1)' >/etc/exports
rpcbind -w 2>/dev/null || rpcbind
step "server: exportfs" exportfs -ra
rpc.mountd
mkfifo /tmp/tick
exec 3<>/tmp/tick
nap() { read -r -t "$1" -u 3 _ || true; }

cur= perf=
# switch WORD: nfsd on transport WORD; sets WHY on failure.  Runs in the
# main shell: it changes $cur.  nfsd is stopped first, so max_block_size
# can be written and the rdma listener is created exactly once per start.
switch() {
	local word=$1 out
	WHY=
	rpc.nfsd 0
	if [ -n "$cur" ]; then
		out=$(transport_unload "$cur" 2>&1) || { WHY="unload $cur: $out"; return 1; }
		cur=
	fi
	out=$(transport_load server "$word" 2>&1) || { WHY="load $word: $out"; return 1; }
	cur=$word
	# scripts/bench --inline: the server's inline size (stock's sysctl)
	if [ -n "$BENCH_INLINE" ] && ! echo "$BENCH_INLINE" >/proc/sys/sunrpc/svc_rdma/max_req_size; then
		WHY="$word: svc_rdma/max_req_size $BENCH_INLINE refused"
		return 1
	fi
	echo 1048576 >/proc/fs/nfsd/max_block_size
	echo 10 >/proc/fs/nfsd/nfsv4leasetime 2>/dev/null
	echo 10 >/proc/fs/nfsd/nfsv4gracetime 2>/dev/null
	rpc.nfsd 8 || { WHY="rpc.nfsd failed"; return 1; }
	out=$(sh -c 'echo "rdma 20049" >/proc/fs/nfsd/portlist' 2>&1) || { WHY="rdma listener on $word: $out"; return 1; }
	# v4 grace period (10 s) before the first OPEN
	nap 11
}

# perftest TOOL: its server side in the background, with the arguments
# the client wrote and our RoCE v2 GID (gid_index_v4, lib.sh); answered
# once it listens for the client's TCP exchange (port 18515).
perftest() {
	local tool=$1 gid n=100
	case $tool in ib_write_bw | ib_read_bw | ib_send_lat) ;; *) WHY="unknown perftest tool '$tool'"; return 1 ;; esac
	[ -z "$perf" ] || wait "$perf" 2>/dev/null
	perf=
	gid=$(gid_index_v4 rxe0) || { WHY="no IPv4 RoCE v2 GID on rxe0"; return 1; }
	# shellcheck disable=SC2046
	timeout 300 "$tool" -x "$gid" $(cat /share/bench/perftest.args) >/share/bench/perftest.server.out 2>&1 &
	perf=$!
	while [ $n -gt 0 ]; do
		ss -ltn 2>/dev/null | grep -q ':18515 ' && return 0
		kill -0 "$perf" 2>/dev/null || break
		nap 0.1
		n=$((n - 1))
	done
	WHY="$tool is not listening: $(tail -n 2 /share/bench/perftest.server.out | tr '\n' ' ')"
	return 1
}

# perf_req start | stop PATH: the profile around a job (perf_start and
# perf_stop, lib.sh).
prec=
perf_req() {
	case $1 in
	start) prec=$(perf_start /tmp/perf.data "${2:-}") || { WHY=$prec; prec=; return 1; } ;;
	stop) [ -n "$prec" ] || { WHY="perf was not started"; return 1; }
	      perf_stop "$prec" /tmp/perf.data "$2"; prec= ;;
	*) WHY="perf: start [PERIOD] or stop PATH, not '$1'"; return 1 ;;
	esac
}

# calls_req start | stop PATH: the crossings counted around a job
# (calls_start and calls_stop, lib.sh).
crec=
calls_req() {
	case $1 in
	start) crec=$(calls_start /share/boundary.list) || { WHY=$crec; crec=; return 1; } ;;
	stop) [ -n "$crec" ] || { WHY="calls were not counted"; return 1; }
	      calls_stop "$crec" "$2"; crec= ;;
	*) WHY="calls: start or stop PATH, not '$1'"; return 1 ;;
	esac
}

# aliases N: exactly N IPv4 addresses of ours on eth0 besides 192.0.2.1:
# 192.0.2.101 onward, /24 like .1 (scripts/vm gives the server .1 and the
# client .2; e2e's network namespaces use .11-.13; nothing uses .101-.199).
# A connection to one needs its RoCE v2 GID, which rxe adds by itself
# shortly after the address: each is waited for, 30 s at most.  Sets
# ADDRS (space-separated), or WHY.
aliases() {
	local n=$1 i=1 a end
	ADDRS=
	case $n in '' | *[!0-9]*) WHY="aliases: a count, not '$n'"; return 1 ;; esac
	[ "$n" -le 99 ] || { WHY="aliases: at most 99, not $n"; return 1; }
	for a in $(ip -4 -o addr show dev eth0 | awk '{ print $4 }'); do
		case $a in 192.0.2.1[0-9][0-9]/*) ip addr del "$a" dev eth0 ;; esac
	done
	while [ $i -le "$n" ]; do
		a=192.0.2.$((100 + i))
		ip addr add "$a/24" dev eth0 || { WHY="ip addr add $a/24 dev eth0 failed"; return 1; }
		ADDRS="$ADDRS $a"
		i=$((i + 1))
	done
	ADDRS=${ADDRS# }
	end=$(deadline 30)
	for a in $ADDRS; do
		while ! gid_index_v4 rxe0 "$a" >/dev/null && before "$end"; do nap 0.2; done
		gid_index_v4 rxe0 "$a" >/dev/null || { WHY="rxe0 has no RoCE v2 GID for $a after 30 s"; return 1; }
	done
}

# mem PATH: this guest's memory once the page cache and the reclaimable
# slab are dropped (sync, drop_caches 3, and 2 s for the RCU-deferred
# frees that drop starts), as /proc/meminfo shows it, then its RC QPs
# ("rc_qps COUNT"), into PATH (written whole, then renamed).
mem() {
	sync
	echo 3 >/proc/sys/vm/drop_caches || { WHY="cannot write /proc/sys/vm/drop_caches"; return 1; }
	nap 2
	if ! { cat /proc/meminfo; echo "rc_qps $(rdma_res_count qp RC)"; } >"$1.tmp" || ! mv "$1.tmp" "$1"; then
		WHY="cannot write $1"
		return 1
	fi
}

touch /share/server.ready
n=1
while :; do
	while [ ! -e /share/bench/req.$n ] && [ ! -e /share/client.done ]; do nap "$poll"; done
	[ -e /share/bench/req.$n ] || break
	read -r verb arg <"/share/bench/req.$n"
	WHY=
	case $verb in
	nfsd)
		if [ "$arg" = "$cur" ] || switch "$arg"; then ans=ok; else ans="fail: $WHY"; fi ;;
	stat)
		ans="ok $(grep '^cpu ' /proc/stat)" ;;
	snap)
		ans="ok $(busy_snap)" ;;
	perftest)
		if perftest "$arg"; then ans=ok; else ans="fail: $WHY"; fi ;;
	perf)
		# shellcheck disable=SC2086
		if perf_req $arg; then ans=ok; else ans="fail: $WHY"; fi ;;
	calls)
		# shellcheck disable=SC2086
		if calls_req $arg; then ans=ok; else ans="fail: $WHY"; fi ;;
	aliases)
		if aliases "$arg"; then ans="ok${ADDRS:+ $ADDRS}"; else ans="fail: $WHY"; fi ;;
	qps)
		rdma_res_settle qp "$arg" 60 RC >/dev/null 2>&1
		ans="ok $(rdma_res_count qp RC)" ;;
	mem)
		if mem "$arg"; then ans=ok; else ans="fail: $WHY"; fi ;;
	kallsyms)
		if text_symbols "$arg"; then ans=ok; else ans="fail: cannot write $arg"; fi ;;
	*)
		ans="fail: unknown request '$verb'" ;;
	esac
	echo "$ans" >/share/bench/ack.$n.tmp
	mv /share/bench/ack.$n.tmp /share/bench/ack.$n
	n=$((n + 1))
done
[ -z "$perf" ] || wait "$perf" 2>/dev/null
rpc.nfsd 0
step "server: kernel log clean" kernel_log_clean
exit $STEP_FAILS
